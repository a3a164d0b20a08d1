r"""Tests of :mod:`dpsym.symbolic.optimize`: closed-form and numeric minimisers.

Every expected minimiser is known exactly: a cost whose stationary point is a rational
function of the other symbols, a square root (:math:`\gamma + c/\gamma`), a shifted square
root, a real cube root, a minimiser clamped at an end of the range, and costs with no
closed form (a maximum, a monotone cost, a quintic) for which ``None`` is the answer. The
numeric minimiser is checked against exact minimisers to 45 digits, including a root near
:math:`10^{-76}` and a pole at an end of the range, and the root finder's certification
against a bracket that does not contain a root.
"""

from __future__ import annotations

import mpmath
import pytest
import sympy as sp

from dpsym.errors import CertificationError
from dpsym.symbolic.optimize import (
    AlgebraicRoot,
    _with_exponents,
    bisect_root,
    closed_form_minimiser,
    numeric_minimiser,
    polynomial_roots,
    real_root,
    stationary_candidates,
)
from dpsym.symbols import p

x = sp.Symbol("x", positive=True)
c = sp.Symbol("c", positive=True)
g = sp.Symbol("g", positive=True)
R = sp.Rational
X_POINTS = [{x: R(1, 2)}, {x: R(1, 3)}, {x: R(3, 4)}]
C_POINTS = [{c: R(2)}, {c: R(1, 3)}, {c: R(5)}]


def same(a: sp.Expr, b: sp.Expr) -> bool:
    return sp.simplify(a - b) == 0


# ---------------------------------------------------------------------- AlgebraicRoot
def test_algebraic_root_expression_and_reduction() -> None:
    r""":math:`\theta = 1 + \sqrt 2`; :math:`\theta^2 = 3 + 2\sqrt 2` after reduction modulo
    :math:`R^2 - 2` (no power of the radical above the first)."""
    root = AlgebraicRoot(sp.Integer(1), 1, 2, sp.Integer(2), sp.sqrt(2))
    assert root.root == 1 + sp.sqrt(2) and root.expr == root.root
    reduced = root.reduce(g**2, g)
    assert same(reduced, 3 + 2 * sp.sqrt(2))
    assert sp.expand(reduced) == 3 + 2 * sp.sqrt(2)
    assert same(root.reduce(1 / g, g), sp.sqrt(2) - 1)
    other = AlgebraicRoot(sp.Integer(1), -1, 2, sp.Integer(2), sp.sqrt(2))
    assert other.root == 1 - sp.sqrt(2)


def test_algebraic_root_with_clamps_is_piecewise() -> None:
    root = AlgebraicRoot(x, 1, 1, sp.Integer(0), sp.Integer(0)).with_clamps((("upper", 1),))
    assert root.expr == sp.Piecewise((1, x >= 1), (x, True))
    value = root.reduce((g - x) ** 2, g)
    assert value.subs(x, 2) == 1 and value.subs(x, R(1, 3)) == 0
    assert root.with_clamps(()).expr == x


def test_cube_root_reduction() -> None:
    r"""At :math:`\theta = c^{1/3}`, :math:`\theta^4/4 - c\theta = -\tfrac34 c^{4/3}`."""
    root = AlgebraicRoot(sp.Integer(0), 1, 3, c, sp.cbrt(c))
    reduced = root.reduce(g**4 / 4 - c * g, g)
    assert same(reduced, -R(3, 4) * c ** R(4, 3))


# ---------------------------------------------------------------------- radicals
def test_real_root_takes_absolute_values_of_the_factors() -> None:
    out = real_root(-4 * (x - 2), 2, {x: 1})  # -4 (x - 2) > 0 at x = 1
    assert same(out, 2 * sp.sqrt(2 - x))
    assert same(real_root(8 * c**3, 3, {c: 1}), 2 * c)


def test_polynomial_roots_by_degree() -> None:
    (lin,) = polynomial_roots([2, -x], {x: 1})
    assert lin.root == x / 2 and lin.degree == 1
    quad = polynomial_roots([1, -2, -x], {x: 1})  # roots 1 +- sqrt(1 + x)
    assert {sp.simplify(r.root - 1) for r in quad} == {sp.sqrt(x + 1), -sp.sqrt(x + 1)}
    assert polynomial_roots([1, 0, x], {x: 1}) == []  # negative discriminant
    (cub,) = polynomial_roots([1, -3, 3, -1 - c], {c: 2})  # (y - 1)^3 = c
    assert same(cub.root, 1 + sp.cbrt(c)) and cub.degree == 3
    (neg,) = polynomial_roots([1, 0, 0, c], {c: 2})  # y^3 = -c
    assert same(neg.root, -sp.cbrt(c))
    assert polynomial_roots([1, 0, -1, -c], {c: 2}) == []  # a linear term remains
    assert polynomial_roots([1, 0, 0, 0, -c], {c: 2}) == []  # degree 4


def test_stationary_candidates_of_a_non_rational_cost() -> None:
    r""":math:`g^c e^{-g}` is differentiated through its logarithm: :math:`c/g - 1 = 0`."""
    (cand,) = stationary_candidates(g**c * sp.exp(-g), g, {c: 2})
    assert cand.root == c
    assert stationary_candidates(sp.Integer(3) + x, g, {x: 1}) == []


def test_test_points_are_crossed_with_exponents() -> None:
    points = [{x: R(1, 2)}, {x: R(2)}]
    crossed = _with_exponents(g**p + x, points)
    assert len(crossed) == 8 and {pt[p] for pt in crossed} == {R(1, 2), 1, 2, 3}
    assert _with_exponents(g**2 + x, points) == points
    fixed = [{x: R(1, 2), p: 2}]
    assert _with_exponents(g**p + x, fixed) == fixed


# ---------------------------------------------------------------------- closed forms
def test_quadratic_in_gamma_has_a_rational_minimiser() -> None:
    cost = (g - x) ** 2 + 1
    root = closed_form_minimiser(cost, g, 0, 1, X_POINTS)
    assert root is not None and root.expr == x and root.clamps == ()
    assert root.reduce(cost, g) == 1


def test_square_root_minimiser() -> None:
    cost = g + c / g
    root = closed_form_minimiser(cost, g, 0, 10, C_POINTS)
    assert root is not None and root.expr == sp.sqrt(c)
    assert same(root.reduce(cost, g), 2 * sp.sqrt(c))


def test_shifted_square_root_minimiser() -> None:
    r""":math:`V' = g^2 - 2g - x`: the minimum is at :math:`1 + \sqrt{1 + x}` (the other
    root, :math:`1 - \sqrt{1 + x} < 0`, is a maximum outside the range)."""
    cost = g**3 / 3 - g**2 - x * g
    root = closed_form_minimiser(cost, g, 0, 10, X_POINTS)
    assert root is not None and same(root.expr, 1 + sp.sqrt(1 + x))
    assert same(root.reduce(cost, g), cost.subs(g, 1 + sp.sqrt(1 + x)))


def test_cube_root_minimiser() -> None:
    cost = g**4 / 4 - c * g
    root = closed_form_minimiser(cost, g, 0, 10, C_POINTS)
    assert root is not None and root.expr == sp.cbrt(c)
    assert same(root.reduce(cost, g), -R(3, 4) * c ** R(4, 3))


def test_minimiser_clamped_at_the_upper_end() -> None:
    """For x > 1 the stationary point x leaves [0, 1]; the minimiser sticks at 1."""
    root = closed_form_minimiser((g - x) ** 2, g, 0, 1, [{x: R(1, 2)}, {x: R(2)}])
    assert root is not None and root.clamps == (("upper", 1),)
    assert root.expr.subs(x, 2) == 1 and root.expr.subs(x, R(1, 3)) == R(1, 3)


def test_minimiser_clamped_at_the_lower_end() -> None:
    root = closed_form_minimiser((g - x + 1) ** 2, g, 0, 5, [{x: R(1, 2)}, {x: R(3)}])
    assert root is not None and root.clamps == (("lower", 0),)
    assert root.expr.subs(x, R(1, 2)) == 0 and root.expr.subs(x, 3) == 2


@pytest.mark.parametrize("cost", [
    -(g - x) ** 2,  # the stationary point is a maximum: the minimum is at an end
    g + x,  # monotone: no stationary point
    g**5 / 5 - g - x * g**2,  # a quartic optimality condition
    g**4 / 4 - x * g**2 / 2 - g,  # a cubic with a linear term after the shift
], ids=["maximum", "monotone", "quartic", "cubic-with-linear-term"])
def test_no_closed_form(cost: sp.Expr) -> None:
    assert closed_form_minimiser(cost, g, 0, 1, X_POINTS) is None


# ---------------------------------------------------------------------- numerics
def test_numeric_minimiser_exact_values() -> None:
    with mpmath.workdps(50):
        third = mpmath.mpf(1) / 3
        zero, one, ten = mpmath.mpf(0), mpmath.mpf(1), mpmath.mpf(10)
        m = numeric_minimiser(lambda t: (t - third) ** 2, lambda t: 2 * (t - third), zero, one)
        assert abs(m - third) < mpmath.mpf(10) ** -45
        m = numeric_minimiser(lambda t: t**4 / 4 - 2 * t, lambda t: t**3 - 2, zero, ten)
        assert abs(m - mpmath.cbrt(2)) < mpmath.mpf(10) ** -45


def test_numeric_minimiser_root_near_zero() -> None:
    with mpmath.workdps(50):
        tiny = mpmath.mpf(10) ** -76
        m = numeric_minimiser(lambda t: (t - tiny) ** 2, lambda t: 2 * (t - tiny),
                              mpmath.mpf(0), mpmath.mpf(1))
        assert abs(m / tiny - 1) < mpmath.mpf(10) ** -40


def test_numeric_minimiser_at_an_end_and_with_a_pole() -> None:
    with mpmath.workdps(50):
        one, two = mpmath.mpf(1), mpmath.mpf(2)
        assert numeric_minimiser(lambda t: t, lambda t: one, one, two) == one
        assert numeric_minimiser(lambda t: -t, lambda t: -one, one, two) == two
        # 1/t + t on [0, 2]: a pole at 0 counts as +oo; the minimum is at 1
        m = numeric_minimiser(lambda t: 1 / t + t, lambda t: 1 - 1 / t**2, mpmath.mpf(0), two)
        assert abs(m - 1) < mpmath.mpf(10) ** -45


def test_numeric_minimiser_picks_the_global_minimum() -> None:
    r""":math:`(t - 1/4)^2 (t - 3/4)^2 + t/100` has two local minima; the left one is lower."""
    with mpmath.workdps(50):
        a, b, e = mpmath.mpf(1) / 4, mpmath.mpf(3) / 4, mpmath.mpf(1) / 100

        def slope(t: mpmath.mpf) -> mpmath.mpf:
            return 2 * (t - a) * (t - b) ** 2 + 2 * (t - a) ** 2 * (t - b) + e

        m = numeric_minimiser(lambda t: (t - a) ** 2 * (t - b) ** 2 + e * t, slope,
                              mpmath.mpf(0), mpmath.mpf(1))
        assert m < mpmath.mpf(1) / 2
        assert abs(m - mpmath.findroot(slope, mpmath.mpf("0.23"))) < mpmath.mpf(10) ** -45


def test_numeric_minimiser_hint() -> None:
    """A hint within the certified bracket refines only that bracket (no cost evaluation);
    a wrong hint falls back to the global search."""
    with mpmath.workdps(50):
        calls: list[mpmath.mpf] = []

        def value(t: mpmath.mpf) -> mpmath.mpf:
            calls.append(t)
            return 1 / t + t

        def slope(t: mpmath.mpf) -> mpmath.mpf:
            return 1 - 1 / t**2

        m = numeric_minimiser(value, slope, mpmath.mpf(0), mpmath.mpf(2),
                              hint=1 + mpmath.mpf(10) ** -20)
        assert abs(m - 1) < mpmath.mpf(10) ** -45 and calls == []
        m = numeric_minimiser(value, slope, mpmath.mpf(0), mpmath.mpf(2),
                              hint=mpmath.mpf("1.5"))
        assert abs(m - 1) < mpmath.mpf(10) ** -45 and calls


# ---------------------------------------------------------------------- root finder
def test_bisect_root_values() -> None:
    with mpmath.workdps(50):
        one, two = mpmath.mpf(1), mpmath.mpf(2)
        root = bisect_root(lambda t: t * t - 2, one, two, -one, two)
        assert abs(root - mpmath.sqrt(2)) < mpmath.mpf(10) ** -48
        tiny = mpmath.mpf(10) ** -300
        assert abs(bisect_root(lambda t: t - tiny, mpmath.mpf(0), one, -tiny, one) / tiny
                   - 1) < mpmath.mpf(10) ** -45


def test_bisect_root_at_zero() -> None:
    """A root at 0 itself (below b * 2^(-2^40)) is returned as 0."""
    with mpmath.workdps(30):
        assert bisect_root(lambda t: t, mpmath.mpf(0), mpmath.mpf(1), mpmath.mpf(0),
                            mpmath.mpf(1)) == 0


def test_bisect_root_refuses_a_bracket_without_a_root() -> None:
    """A function that never changes sign (a wrong bracket) is not certified."""
    with mpmath.workdps(30):
        with pytest.raises(CertificationError):
            bisect_root(lambda t: mpmath.mpf(1), mpmath.mpf(1), mpmath.mpf(2),
                         mpmath.mpf(-1), mpmath.mpf(1))
