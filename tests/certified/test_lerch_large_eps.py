r"""The staircase's non-integer moments minimised rigorously at large eps (100 to 1e100).

The cost is written with Lerch sums; the interval minimiser's sign covering is the
family's (:class:`dpsym.certified.lerch.intervals.IncreasingSign`: the slope's numerator increases).
References are independent: the staircase's moment from its density (a b^k on
[k, k + g), a b^{k+1} on [k + g, k + 1)), summed over the first K periods with a rigorous
bound on the rest, its slope's numerator solved in u = log gamma by ``mpmath.findroot`` at
twice the digits plus the digits of eps.
"""

from __future__ import annotations

from dataclasses import replace
from fractions import Fraction
from functools import partial

import flint
import mpmath
import pytest
import sympy as sp
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from dpsym.certified.balls import BallFunction
from dpsym.certified.evaluation import interval_plan
from dpsym.certified.intervals import CompiledCost, certify_minimum
from dpsym.certified.lerch.intervals import IncreasingSign
from dpsym.core.costs import parse_cost
from dpsym.mechanisms import Staircase


def _dps(e: Fraction, digits: int) -> int:
    """Twice the digits, and the digits of eps's size (u = log gamma ~ -eps/(p+1))."""
    return 2 * digits + 30 + len(str(int(e)))


def _periods(bb: mpmath.mpf, s: mpmath.mpf) -> int:
    r"""K periods such that the rest of the sum, below
    :math:`b^K (K+1)^s / (s (1 - 2^s b))` (each period's integral
    :math:`\int_k^{k+1} x^{s-1} \le (k+1)^s/s` times :math:`b^k`, and the ratio of
    consecutive bounds :math:`b((k+2)/(k+1))^s \le 2^s b`), is below :math:`10^{-dps}`
    of :math:`b` (the optimal cost's scale: :math:`\gamma^s \approx b`)."""
    assert bb * 2**s < mpmath.mpf(1) / 2
    k = 2
    while bb ** (k - 1) * (k + 1) ** s / (1 - 2**s * bb) > mpmath.mpf(10) ** -mpmath.mp.dps:
        k += 1
    return k


def _reference(e: str, p: str, digits: int) -> tuple[mpmath.mpf, mpmath.mpf]:
    r"""(gamma*, optimal cost) of the moment p (Delta = 1). With :math:`D = g + b(1 - g)`
    the density's constant is :math:`a = (1 - b)/(2D)`, so the cost is
    :math:`V = (1 - b) S / D`, :math:`S(g) = \sum_k b^k [((k+g)^s - k^s) + b((k+1)^s -
    (k+g)^s)]/s`, :math:`s = p + 1`, :math:`S^{\prime} = (1 - b) \sum_k b^k (k+g)^{s-1}`; the
    minimiser solves :math:`S^{\prime} D - (1 - b) S = 0`, in :math:`u = \log g = u_0 + w/s`,
    :math:`u_0 = -(\varepsilon + \log(s - 1))/s`."""
    q, pp = Fraction(e), Fraction(p)
    with mpmath.workdps(_dps(q, digits)):
        t = mpmath.mpf(q.numerator) / q.denominator
        s = mpmath.mpf(pp.numerator) / pp.denominator + 1
        bb = mpmath.exp(-t)
        periods = _periods(bb, s)

        def big_s(g):
            return mpmath.fsum(bb**k * (((k + g) ** s - k**s) + bb * ((k + 1) ** s - (k + g) ** s))
                               / s for k in range(periods))

        def d_big_s(g):
            return (1 - bb) * mpmath.fsum(bb**k * (k + g) ** (s - 1) for k in range(periods))

        def numerator(u):
            g = mpmath.exp(u)
            return (d_big_s(g) * (g + bb * (1 - g)) - (1 - bb) * big_s(g)) / bb

        u0 = -(t + mpmath.log(s - 1)) / s  # and u = u0 + w/s: gamma^s ~ e^w (large s)
        # (verified below by the signs on either side, not by findroot's tolerance)
        u = u0 + mpmath.findroot(lambda w: numerator(u0 + w / s), mpmath.mpf(0),
                                 verify=False) / s
        assert abs(u - u0) < 2, "the reference's root is not near the estimate"
        g = mpmath.exp(u)
        assert numerator(u - mpmath.mpf(10) ** -digits) < 0 < numerator(u + mpmath.mpf(10)
                                                                           ** -digits)
        return g, (1 - bb) * big_s(g) / (g + bb * (1 - g))


def _contains(value, reference: mpmath.mpf, digits: int) -> None:
    assert value.certificate == "enclosure"
    with mpmath.workdps(3 * digits + 40):
        lo, hi = (mpmath.mpf(t) for t in value.enclosure)
        assert lo <= reference <= hi, (value.enclosure, reference)
        assert hi - lo <= mpmath.mpf(10) ** (1 - digits) * abs(reference)
        assert abs(mpmath.mpf(value.text) - reference) <= \
            mpmath.mpf(10) ** (1 - digits) * abs(reference) / 2


@pytest.mark.parametrize("e", ["300", "1e3", "1e4", "1e10", "1e100"])
@pytest.mark.parametrize("p", ["1/2", "3/2", "5/2", "13/2"])
def test_non_integer_moment_at_large_eps_is_enclosed(e, p):
    digits = 30
    g, v = _reference(e, p, digits)
    m = Staircase(eps=e)
    _contains(m.value("gamma", f"moment:{p}", digits), g, digits)
    _contains(m.value("cost", f"moment:{p}", digits), v, digits)


@pytest.mark.parametrize(("e", "p", "digits"), [("100", "1/2", 50), ("1e100", "27/2", 50),
                                                ("300", "3/2", 1000), ("1e100", "5/2", 1000)])
def test_fifty_and_a_thousand_digits(e, p, digits):
    g, v = _reference(e, p, digits)
    m = Staircase(eps=e)
    _contains(m.value("gamma", f"moment:{p}", digits), g, digits)
    _contains(m.value("cost", f"moment:{p}", digits), v, digits)


def test_a_near_tie_at_large_eps_rounds_to_the_correct_side():
    r"""Delta is chosen so that the optimal moment-3/2 cost at eps = 1e4,
    :math:`\Delta^{3/2} V_1` (the density scales: :math:`X = \Delta Y`), lies within
    :math:`10^{-(d+3)}` of a midpoint between two d-digit decimals; the printed digits
    must be those on the reference's side."""
    digits = 12
    _, v1 = _reference("1e4", "3/2", 30)
    with mpmath.workdps(80):
        scale = mpmath.mpf(10) ** (int(mpmath.floor(mpmath.log10(v1))) - digits + 1)
        boundary = (mpmath.floor(v1 / scale) + mpmath.mpf(1) / 2) * scale  # near v1
        delta = Fraction(mpmath.nstr((boundary / v1) ** (mpmath.mpf(2) / 3), 45))
        exact = (mpmath.mpf(delta.numerator) / delta.denominator) ** mpmath.mpf(1.5) * v1
        scale = mpmath.mpf(10) ** (int(mpmath.floor(mpmath.log10(exact))) - digits + 1)
        boundary = (mpmath.floor(exact / scale) + mpmath.mpf(1) / 2) * scale
        gap = exact - boundary
        assert 0 < abs(gap) < mpmath.mpf(10) ** -(digits + 3) * exact  # a near tie
        want = boundary + scale / 2 if gap > 0 else boundary - scale / 2
        value = Staircase(eps="1e4", Delta=delta).value("cost", "moment:3/2", digits)
        assert value.certificate == "enclosure"
        assert abs(mpmath.mpf(value.text) - want) < scale / 1000, (value.text, exact)


@settings(max_examples=10, deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.too_slow])
@given(log_eps=st.floats(2, 100), p=st.fractions(Fraction(1, 8), Fraction(20),
                                                 max_denominator=8))
def test_property_large_eps_enclosures_contain_the_density_reference(log_eps, p):
    """eps log-uniform in [100, 1e100], p in (0, 20] with small denominators."""
    e = f"{10**log_eps:.6g}" if log_eps < 15 else f"1e{round(log_eps)}"
    digits = 20
    g, v = _reference(e, str(p), digits)
    m = Staircase(eps=e)
    _contains(m.value("gamma", f"moment:{p}", digits), g, digits)
    _contains(m.value("cost", f"moment:{p}", digits), v, digits)


def test_the_family_covering_serves_lerch_moments_at_large_and_tiny_eps_only():
    """Integer moments (a polynomial slope) and eps between SMALL_EPS and _LARGE_EPS keep
    their paths; below SMALL_EPS the family covering (its proof holds for every b)
    replaces the generic one, whose slope enclosures cost the bits of 1/eps each."""
    def sign(e, p):
        return interval_plan(Staircase(eps=e), parse_cost(f"moment:{p}")).sign

    assert sign("1e4", "1/2") is not None and sign("1e100", "20") is not None
    assert sign("1e4", "3") is None and sign("1e4", "12") is None
    assert sign("99", "1/2") is None and sign("1", "5/2") is None
    assert sign("1e-300", "1/1000") is not None and sign("1e-7", "5/2") is not None
    assert sign("1e-300", "3") is None and sign("1e-5", "1/2") is None


def test_tiny_eps_lerch_moments_agree_with_the_generic_covering():
    """Below SMALL_EPS the family covering proves the minimiser the generic covering
    proves (both certified, at the same parameters)."""
    plan = interval_plan(Staircase(eps="1e-7"), parse_cost("moment:1/2"))
    assert plan.sign is not None
    generic = replace(plan, sign=None, memo={})
    assert certify_minimum(plan, 15, quantity="parameter").text() == \
        certify_minimum(generic, 15, quantity="parameter").text()


def _compiled(cost: sp.Expr, estimate: int) -> CompiledCost:
    t = sp.Symbol("t")
    slope = sp.diff(cost, t)
    parts = [BallFunction.prepare(e, {}, t) for e in (cost, slope, sp.diff(slope, t))]
    return CompiledCost(*parts, Fraction(0), Fraction(1),
                        sign=partial(IncreasingSign, estimate=estimate))


def test_an_increasing_slope_with_a_root_at_two_to_the_minus_five_thousand():
    """The bracket is found from an estimate 40 bits off, and narrowed; the plain
    covering alone could not cross the 5000 bits (the family covering is tried first)."""
    t = sp.Symbol("t")
    root = sp.Rational(1, 2**5000)
    f = _compiled((t - root) ** 2 + 3 * t, estimate=-4960)  # minimum at root - 3/2 < 0
    assert certify_minimum(f, 10, quantity="parameter").text() == "0"
    f = _compiled((t - root) ** 2 / 2 + t**3, estimate=-4960)  # slope t - root + 3t^2
    found = certify_minimum(f, 25, quantity="parameter")
    with mpmath.workdps(100):
        want = mpmath.mpf(2) ** -5000  # 3 t^2 is 2^-10000 relative of it
        assert abs(mpmath.mpf(found.text()) - want) <= want * mpmath.mpf(10) ** -24
    pieces = f.memo["family sign"].covering()
    assert [(p.sign, p.root) for p in pieces] == [(-1, False), (1, True), (1, False)]


@pytest.mark.parametrize("prec", [200, 800])
def test_a_lerch_sum_at_b_of_e_to_the_minus_1e25_is_as_accurate_as_the_precision(prec):
    r""":math:`L(z, 9/8, a)` with :math:`z = e^{-10^{25}}` and :math:`a^{9/8}` of the size
    of :math:`z` (the direct summation's stopping test: a float's rounding of
    :math:`\log z^N \sim 10^{25}` exceeds its margin). The reference sums three terms,
    the rest below :math:`z^3 4^s/(1 - 2^s z)` (:func:`_periods`), in mpmath."""
    from dpsym.certified.lerch.balls import lerch_sum_ball
    from dpsym.precision import arb_workprec

    k = 12823955919013008065421551
    with arb_workprec(prec):
        ball = lerch_sum_ball((-flint.arb(10) ** 25).exp(), Fraction(9, 8), flint.arb((1, -k)))
    with mpmath.workdps(prec // 3 + 60):
        z, s, a = mpmath.exp(-mpmath.mpf(10) ** 25), mpmath.mpf(9) / 8, mpmath.mpf(2) ** -k
        want = a**s + z * (1 + a) ** s + z**2 * (2 + a) ** s
        assert z**3 * 4**s / (1 - 2**s * z) < want * mpmath.mpf(2) ** -(2 * prec)
        lo, hi = (mpmath.mpf(x.str(prec // 3 + 20, radius=False)) for x in
                  (ball.lower(), ball.upper()))
        assert lo <= want <= hi
    assert ball.rel_accuracy_bits() > prec - 100  # (85 bits of the exponent's size)
