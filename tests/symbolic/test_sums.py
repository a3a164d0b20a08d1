r"""Tests of :mod:`dpsym.symbolic.sums`: geometric sums over the period index and the Lerch sum.

The closed forms are compared at rational ratios with exact partial sums (Fractions) whose
tails are below :math:`10^{-60}`, and with hand-computed values; the Lerch sum with mpmath's
``nsum`` and ``lerchphi``, with its closed form for integer exponents (on both sides of
:data:`dpsym.symbolic.sums.DIRECT_TERMS`, i.e. the direct summation and the Hurwitz-zeta expansion)
and with a direct summation of many terms near :math:`z = 1`.
"""

from __future__ import annotations

from fractions import Fraction

import mpmath
import pytest
import sympy as sp
from sympy.core.function import ArgumentIndexError

from dpsym.symbolic.sums import (
    NUMERIC_FUNCTIONS,
    LerchSum,
    geometric_moment,
    lerch_sum,
    mp_lerch_sum,
    polynomial_geometric_sum,
)
from dpsym.symbols import k

R = sp.Rational


def partial_sum(term, ratio: Fraction, terms: int = 400) -> Fraction:
    r""":math:`\sum_{k < K} r^k F(k)` exactly."""
    total, power = Fraction(0), Fraction(1)
    for kk in range(terms):
        total += power * term(kk)
        power *= ratio
    return total


def close(expr: sp.Expr, value: Fraction, digits: int = 60) -> bool:
    exact = sp.nsimplify(expr) if not isinstance(expr, sp.Rational) else expr
    assert exact.is_Rational, expr
    return abs(Fraction(int(exact.p), int(exact.q)) - value) < Fraction(1, 10**digits)


# ---------------------------------------------------------------------- geometric sums
def test_geometric_moment_known_values() -> None:
    r = sp.Symbol("r", positive=True)
    assert geometric_moment(0, r) == 1 / (1 - r)
    assert sp.simplify(geometric_moment(1, r) - r / (1 - r) ** 2) == 0
    assert sp.simplify(geometric_moment(2, r) - r * (1 + r) / (1 - r) ** 3) == 0
    assert geometric_moment(1, R(1, 2)) == 2
    assert geometric_moment(2, R(1, 2)) == 6
    assert geometric_moment(3, R(1, 2)) == 26


@pytest.mark.parametrize("j", range(8))
@pytest.mark.parametrize("ratio", [Fraction(1, 3), Fraction(5, 7), Fraction(1, 10)], ids=str)
def test_geometric_moment_against_partial_sums(j: int, ratio: Fraction) -> None:
    value = geometric_moment(j, R(ratio.numerator, ratio.denominator))
    assert value.is_Rational
    assert close(value, partial_sum(lambda kk: Fraction(kk) ** j, ratio, 1200))


def test_geometric_moment_rejects_negative_powers() -> None:
    with pytest.raises(ValueError, match="nonnegative"):
        geometric_moment(-1, R(1, 2))


def test_polynomial_geometric_sum() -> None:
    assert polynomial_geometric_sum(3 * k**2 - k + 5, R(1, 2)) == 3 * 6 - 2 + 5 * 2
    assert polynomial_geometric_sum(sp.Integer(7), R(1, 3)) == R(21, 2)
    ratio = Fraction(2, 5)
    value = polynomial_geometric_sum((k + R(1, 3)) ** 3 - 4 * k, R(2, 5))
    assert close(value, partial_sum(lambda kk: (kk + Fraction(1, 3)) ** 3 - 4 * kk, ratio))


def test_polynomial_geometric_sum_symbolic_ratio() -> None:
    b = sp.Symbol("b", positive=True)
    out = polynomial_geometric_sum(2 * k + 1, b)
    assert sp.simplify(out - (2 * b / (1 - b) ** 2 + 1 / (1 - b))) == 0


def test_polynomial_geometric_sum_needs_a_polynomial() -> None:
    with pytest.raises(sp.PolynomialError):
        polynomial_geometric_sum(sp.exp(k), R(1, 2))


# ---------------------------------------------------------------------- Lerch sum
@pytest.mark.parametrize(("z", "s", "a"), [
    (R(1, 3), R(5, 2), R(1, 2)), (R(1, 2), R(1, 3), R(2)), (R(9, 10), R(3, 2), R(1, 4)),
])
def test_lerch_sum_against_nsum(z: sp.Rational, s: sp.Rational, a: sp.Rational) -> None:
    with mpmath.workdps(40):
        zz, ss, aa = (mpmath.mpf(v.p) / v.q for v in (z, s, a))
        ref = mpmath.nsum(lambda kk: zz**kk * (kk + aa) ** ss, [0, mpmath.inf])
        assert abs(mp_lerch_sum(zz, ss, aa) / ref - 1) < mpmath.mpf(10) ** -35
        value = lerch_sum(z, s, a).evalf(35)
        assert abs(mpmath.mpf(value) / ref - 1) < mpmath.mpf(10) ** -32


@pytest.mark.parametrize("t", [R(1, 10), R(1, 1000)], ids=str)
@pytest.mark.parametrize("m", [0, 1, 2, 4])
def test_lerch_sum_integer_exponent_is_the_polynomial_sum(t: sp.Rational, m: int) -> None:
    r"""For an integer exponent the Lerch sum is a rational function of :math:`z`: both the
    direct summation (:math:`t = 1/10`) and the Hurwitz-zeta expansion (:math:`t = 1/1000`,
    more than :data:`DIRECT_TERMS` terms) must agree with it."""
    a = R(1, 3)
    closed = polynomial_geometric_sum((k + a) ** m, sp.exp(-t))
    with mpmath.workdps(40):
        z = mpmath.exp(-mpmath.mpf(t.p) / t.q)
        ref = mpmath.mpf(sp.N(closed, 50))
        got = mp_lerch_sum(z, mpmath.mpf(m), mpmath.mpf(1) / 3)
        assert abs(got / ref - 1) < mpmath.mpf(10) ** -35


def test_lerch_sum_near_one_against_direct_summation() -> None:
    """Non-integer exponent, z = exp(-1/200): the Hurwitz-zeta expansion against the terms
    summed one by one (about 25 000 of them)."""
    with mpmath.workdps(30):
        z = mpmath.exp(-mpmath.mpf(1) / 200)
        s, a = mpmath.mpf(5) / 2, mpmath.mpf(1) / 3
        total, zk, kk = mpmath.mpf(0), mpmath.mpf(1), 0
        while True:
            term = zk * (kk + a) ** s
            total += term
            if kk > 2000 and term < total * mpmath.mpf(10) ** -34:
                break
            kk += 1
            zk *= z
        assert abs(mp_lerch_sum(z, s, a) / total - 1) < mpmath.mpf(10) ** -26


def test_lerch_sum_at_a_zero_and_negative_exponent() -> None:
    with mpmath.workdps(30):
        z = mpmath.mpf(1) / 3
        # a = 0, s > 0: the k = 0 term 0^s vanishes
        ref = mpmath.nsum(lambda kk: z**kk * kk ** mpmath.mpf(1.5), [1, mpmath.inf])
        assert abs(mp_lerch_sum(z, mpmath.mpf(1.5), 0) / ref - 1) < mpmath.mpf(10) ** -25
        # s = -1: the Lerch transcendent Phi(z, 1, a)
        ref = mpmath.lerchphi(z, 1, mpmath.mpf(1) / 2)
        assert abs(mp_lerch_sum(z, -1, mpmath.mpf(1) / 2) / ref - 1) < mpmath.mpf(10) ** -25


def test_lerch_sum_derivatives() -> None:
    z, s, a = sp.symbols("z s a", positive=True)
    expr = LerchSum(z, s, a)
    assert sp.diff(expr, a) == s * LerchSum(z, s - 1, a)
    assert sp.simplify(sp.diff(expr, z) - (LerchSum(z, s + 1, a) - a * expr) / z) == 0
    with pytest.raises(ArgumentIndexError):
        expr.fdiff(2)
    assert isinstance(sp.diff(expr, s), sp.Derivative)  # no closed form in the exponent
    point = {z: R(1, 2), s: R(5, 2), a: R(3, 4)}
    with mpmath.workdps(30):
        zz, ss, aa = mpmath.mpf(1) / 2, mpmath.mpf(5) / 2, mpmath.mpf(3) / 4
        d_a = mpmath.diff(lambda v: mp_lerch_sum(zz, ss, v), aa)
        d_z = mpmath.diff(lambda v: mp_lerch_sum(v, ss, aa), zz)
        for numeric, symbolic in ((d_a, sp.diff(expr, a)), (d_z, sp.diff(expr, z))):
            value = mpmath.mpf(sp.N(symbolic.subs(point), 30))
            assert abs(numeric / value - 1) < mpmath.mpf(10) ** -20


def test_lerch_sum_through_lambdify() -> None:
    z = sp.Symbol("z", positive=True)
    f = sp.lambdify((z,), LerchSum(z, 2, 1), modules=[NUMERIC_FUNCTIONS, "mpmath"])
    with mpmath.workdps(30):
        # sum (1/2)^k (k + 1)^2 = 6 + 2 * 2 + 2 = 12
        assert abs(f(mpmath.mpf(1) / 2) - 12) < mpmath.mpf(10) ** -25


@pytest.mark.parametrize("s", [0, 1, 5, 20])
def test_integer_power_coefficients_equal_the_series_exponential(s):
    """The Euler-Maclaurin corrections' Taylor coefficients of (N + a + h)^s e^{-t(N+h)}
    for an integer s (a polynomial times an exponential series, term by term) equal those
    of the general path, exp(s log(N + a + h) - t h) e^{-tN} (python-flint series)."""
    import flint

    from dpsym.precision import arb_workprec
    from dpsym.symbolic.sums import _integer_power_coefficients

    length, big_n = 15, 40
    with arb_workprec(200):
        t, shift = flint.arb("0.003"), flint.arb("40.25")
        fast = _integer_power_coefficients(shift, s, t, length, big_n)
        cap = flint.ctx.cap
        flint.ctx.cap = length
        try:
            series = (flint.arb(s) * flint.arb_series([shift, 1], prec=length).log()
                      + flint.arb_series([0, -t], prec=length)).exp() * (-t * big_n).exp()
        finally:
            flint.ctx.cap = cap
        general = series.coeffs()
        for m in [0, *range(1, length, 2)]:
            assert fast[m].overlaps(general[m]), (s, m)  # both enclose the coefficient
            assert fast[m].rad() <= abs(fast[m].mid()) * 2.0 ** -150 + 2.0 ** -600, (s, m)


def test_integer_moment_at_tiny_eps_matches_the_hurwitz_reference():
    """The integer-exponent fast path of the Euler-Maclaurin sum (t = 1e-40, 300 digits)
    against the Hurwitz-zeta expansion kept as an independent reference."""
    from dpsym.symbolic.sums import _euler_maclaurin, _hurwitz_expansion

    with mpmath.workdps(300):
        t, s, a = mpmath.mpf("1e-40"), mpmath.mpf(7), mpmath.mpf(1) / 3
        fast, ref = _euler_maclaurin(t, s, a), _hurwitz_expansion(t, s, a)
        assert abs(fast / ref - 1) < mpmath.mpf(10) ** -290
