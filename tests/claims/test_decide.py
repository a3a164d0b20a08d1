r"""Tests of :mod:`dpsym.claims.decide`: sign certificates on the positive orthant (checked
against exact evaluation at random rational points), lower-bound decisions, certified
signs, identities and rounding."""

from __future__ import annotations

from fractions import Fraction

import pytest
import sympy as sp

from dpsym.claims.common import V
from dpsym.claims.decide import (
    certified_sign,
    complex_value,
    decide_identity,
    decide_lower,
    refuted,
    rounds_to,
    sign_certificate,
    vanishes,
)

x, y = sp.symbols("x y", positive=True)
z = sp.Symbol("z")

SIGNS = [
    ((x + 1) / (y + 2), "positive"),
    (-(x**2 + 3 * x * y + 1), "negative"),
    ((x**2 + 1) / -(y + 1), "negative"),
    (x * y / (x + y), "positive"),
    ((x - 1) ** 2 - (x**2 - 2 * x + 1), "zero"),
    (sp.Integer(0), "zero"),
    (x - 1, None),  # mixed signs: not certified (and indeed of both signs)
    ((x + 1) / (y - 2), None),
    (sp.exp(x), None),  # not a rational function of the variables
    (x * z, None),  # a coefficient that is not a number
]


@pytest.mark.parametrize(("expr", "sign"), SIGNS)
def test_sign_certificate(expr, sign):
    assert sign_certificate(expr, [x, y]) == sign


@pytest.mark.parametrize(("expr", "sign"), [s for s in SIGNS if s[1] is not None])
def test_certified_signs_hold_at_random_points(expr, sign, rng):
    want = {"positive": 1, "negative": -1, "zero": 0}[sign]
    for _ in range(30):
        point = {x: sp.Rational(int(rng.integers(1, 10**6)), int(rng.integers(1, 10**3))),
                 y: sp.Rational(int(rng.integers(1, 10**3)), int(rng.integers(1, 10**6)))}
        value = sp.Rational(sp.sympify(expr).subs(point))
        assert sp.sign(value) == want


beta = sp.Symbol("beta", positive=True)
b = sp.Symbol("b", positive=True)


def to_beta(e):
    """b in (0, 1) as b = 1/(1 + beta), beta > 0."""
    return e.subs(b, 1 / (1 + beta))


def test_decide_lower():
    bound = 1 / b  # V >= 1/b, and 1/b > 1 on (0, 1)
    assert decide_lower(sp.Ge(V, 1), bound, to_beta, [beta])[0]
    assert decide_lower(sp.Gt(V, 1), bound, to_beta, [beta])[0]
    assert decide_lower(sp.Ge(V, 1 / b), bound, to_beta, [beta])[0]  # zero difference
    assert not decide_lower(sp.Gt(V, 1 / b), bound, to_beta, [beta])[0]
    held, why = decide_lower(sp.Ge(V, 2), bound, to_beta, [beta])  # 1/b - 2: both signs
    assert not held and "< 0 at {beta: 3/7}: -4/7" in why  # refuted at a point, exactly
    held, why = decide_lower(sp.Ge(V, sp.Rational(4, 3)), bound, to_beta, [beta])
    assert not held and "None" in why  # > 0 at that point, both signs: not certified
    held, why = decide_lower(sp.Le(V, 5), bound, to_beta, [beta])
    assert not held and "does not follow from a lower bound" in why
    held, why = decide_lower(sp.Ge(z, 1), bound, to_beta, [beta])
    assert not held and "not a relation of the bounded quantity" in why


def test_decide_lower_with_a_closed_end():
    # beta in [0, oo): V >= 1 + beta holds (>= by continuity) but > 1 fails at beta = 0
    bound = 1 + beta
    assert decide_lower(sp.Ge(V, 1), bound, lambda e: e, [beta], closed=[beta])[0]
    held, why = decide_lower(sp.Gt(V, 1), bound, lambda e: e, [beta], closed=[beta])
    assert not held and "zero" in why
    # every variable closed: the edge is a constant
    assert decide_lower(sp.Gt(V, 1), bound + 1, lambda e: e, [beta], closed=[beta])[0]
    assert not decide_lower(sp.Gt(V, 3), bound + 1, lambda e: e, [beta], closed=[beta])[0]


def test_sign_certificate_of_constants():
    assert sign_certificate(sp.Integer(2), []) == "positive"
    assert sign_certificate(sp.Rational(-1, 3), []) == "negative"
    assert sign_certificate(sp.Integer(0), []) == "zero"
    assert sign_certificate(sp.Integer(5), [x]) == "positive"
    assert sign_certificate(x, []) is None


@pytest.mark.parametrize(("expr", "values", "sign"), [
    (sp.sqrt(2) - sp.Rational(14142, 10000), None, 1),
    (sp.pi - sp.Rational(355, 113), None, -1),
    (sp.exp(z) - 1, {z: 0}, 0),
    (z**2 - sp.Rational(1, 4), {z: "1/2"}, 0),
    (z - 1, {z: sp.Rational(3, 2)}, 1),
    (sp.log(z) + 1, {z: sp.exp(-1) * (1 + sp.Rational(1, 10**40))}, 1),
    (sp.sin(1) ** 2 + sp.cos(1) ** 2 - 1, None, None),  # a zero the balls cannot prove
    (sp.Symbol("q") + 1, None, None),  # an unknown symbol
])
def test_certified_sign(expr, values, sign):
    assert certified_sign(expr, values) == sign


def test_decide_identity():
    assert decide_identity((z + 1) ** 2, z**2 + 2 * z + 1)[0] is True
    assert decide_identity(sp.exp(2 * z), sp.exp(z) ** 2)[0] is True
    held, why = decide_identity(z**2, z)
    assert held is False and "certified" in why
    # z - 3/7 vanishes at the default probe 3/7: only a given probe refutes it
    assert decide_identity(z, sp.Rational(3, 7))[0] is None
    assert decide_identity(z, sp.Rational(3, 7), {z: Fraction(1)})[0] is False
    assert decide_identity(sp.sqrt(z**2), z)[0] is None  # false for z < 0: not decided
    assert decide_identity(sp.sqrt(x**2), x)[0] is True  # x positive


def test_an_identity_refuted_by_a_complex_value():
    """A side that is not real at the probe point (a logarithm of a negative number) differs
    from a real side there: refuted by the certified complex ball, not left undecided; an
    identity whose two sides are the same complex value is not refuted by it."""
    held, why = decide_identity(sp.log(1 - 2 * x), sp.log(1 + 2 * x), {x: 3})
    assert held is False and "complex" in why
    assert refuted(sp.log(1 - 2 * x), sp.log(1 + 2 * x), {x: 3})
    assert not refuted(sp.log(-x) + sp.log(2), sp.log(-2 * x), {x: sp.Rational(1, 3)})
    assert not refuted((x + 1) ** 2, x**2 + 2 * x + 1)


@pytest.mark.parametrize(("expr", "values", "expected"), [
    (sp.log(z), {z: -1}, sp.pi * sp.I),  # the principal branch
    (sp.sqrt(z), {z: -4}, 2 * sp.I),
    (z ** sp.Rational(1, 3), {z: -8}, 1 + sp.sqrt(3) * sp.I),
    (sp.exp(z) * sp.pi + sp.E, {z: sp.Rational(1, 2)}, sp.pi * sp.exp(sp.Rational(1, 2)) + sp.E),
])
def test_complex_value_contains_the_exact_value(expr, values, expected):
    value = complex_value(expr, values)
    assert value is not None
    exact = complex(sp.N(expected, 30))
    assert abs(float(value.real.mid()) - exact.real) < 1e-15
    assert abs(float(value.imag.mid()) - exact.imag) < 1e-15
    assert float(value.real.rad()) < 1e-60 and float(value.imag.rad()) < 1e-60


@pytest.mark.parametrize(("expr", "values"), [
    (sp.sin(z), {z: 1}),  # a node it does not evaluate
    (z + 1, {}),  # a symbol without a value
    (1 / z, {z: 0}),  # not finite
])
def test_complex_value_refuses(expr, values):
    assert complex_value(expr, values) is None


@pytest.mark.parametrize(("value", "printed", "ok"), [
    (sp.pi, "3.1416", True),
    (sp.pi, "3.1415", False),
    (sp.Rational(1, 8), "0.125", True),
    (sp.Rational(1, 8), "0.12", True),  # a tie: [x - h, x + h] is closed, both accepted
    (sp.Rational(1, 8), "0.13", True),
    (sp.Rational(1, 8), "0.11", False),
    (sp.Rational(5, 4) + sp.Rational(1, 10**30), "1.2", False),
    (sp.Rational(5, 4) + sp.Rational(1, 10**30), "1.3", True),
    (sp.exp(-40), "4.248354255291588995329e-18", True),
])
def test_rounds_to(value, printed, ok):
    assert rounds_to(value, sp.Rational(printed))[0] is ok


def test_rounds_to_refuses_inexact_printed_numbers():
    held, why = rounds_to(sp.pi, sp.Float("3.1416"))
    assert not held and "not an exact decimal" in why
    held, why = rounds_to(sp.Rational(1, 3), sp.Rational(1, 3))
    assert not held and "not a terminating decimal" in why


n = sp.Symbol("n", integer=True)

#: (expression, whether sympy.simplify reduces it to 0): identities decided by cancel, by
#: simplify only (exp/log rules, trigonometry, an integer symbol's parity), and differences
#: refuted by a certified value (real symbols, and a complex one at a real probe).
VANISHING = [
    ((x - 1) ** 2 - (x**2 - 2 * x + 1), True),
    (sp.exp(x) * sp.exp(y) - sp.exp(x + y), True),
    (sp.log(x * y) - sp.log(x) - sp.log(y), True),
    (sp.sin(x) ** 2 + sp.cos(x) ** 2 - 1, True),
    ((-1) ** (2 * n) - 1, True),
    (sp.Sum(n, (n, 1, 3)) - 6, True),  # a bound variable: simplify decides
    (x - y, False),
    (sp.exp(x) - 1 - x, False),
    (sp.log(z**2) - 2 * sp.log(z), False),  # not an identity for a complex z
    ((-1) ** n - 1, False),
    (x * (1 + sp.Rational(1, 1000)) - x, False),
]


@pytest.mark.parametrize(("expr", "zero"), VANISHING)
def test_vanishes_is_simplify_to_zero(expr: sp.Expr, zero: bool) -> None:
    """The cheap routes (a certified witness, cancel) decide exactly what simplify does."""
    assert vanishes(expr) is zero
    assert (sp.simplify(expr) == 0) is zero
