r"""Rigorous minimisers without a closed form (:mod:`dpsym.intervals`): interval Newton on
the slope and a sign covering of the parameter's range.

References are independent of the interval path: the staircase's cost typed here from its
density (a sum over periods, ``mpmath.nsum``) minimised by ``mpmath.findroot`` on a
numerically differentiated cost at twice the digits; the d-dimensional staircase against
the engine's two-precision mpmath path (``method="mpmath"``) at more digits; synthetic
costs whose minima are known exactly.
"""

from __future__ import annotations

from fractions import Fraction

import flint
import mpmath
import pytest
import sympy as sp
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from dpsym.balls import BallFunction
from dpsym.errors import CertificationError
from dpsym.intervals import CompiledCost, certify_minimum
from dpsym.mechanisms import Staircase, StaircaseMD


def _staircase_moment(e: mpmath.mpf, power: int):
    r"""E|X|^power of the staircase (Delta = 1) at step fraction g, from its density:
    a b^k on [k, k + g), a b^{k+1} on [k + g, k + 1), a = (1 - b)/(2(g + b(1 - g)))."""
    bb = mpmath.exp(-e)
    q = power + 1

    def cost(g):
        a = (1 - bb) / (2 * (g + bb * (1 - g)))
        return 2 * mpmath.nsum(lambda k: (a * ((k + g) ** q - k**q)
                                          + a * bb * ((k + 1) ** q - (k + g) ** q))
                               / q * bb**k, [0, mpmath.inf])
    return cost


def _reference(e: str, power: int, digits: int) -> tuple[mpmath.mpf, mpmath.mpf]:
    """(gamma*, optimal cost) from the definition at 2 * digits + 20 digits."""
    with mpmath.workdps(2 * digits + 20):
        cost = _staircase_moment(mpmath.mpf(Fraction(e).numerator) / Fraction(e).denominator,
                                 power)
        g = mpmath.findroot(lambda t: mpmath.diff(cost, t), mpmath.mpf("0.45"))
        return g, cost(g)


def _contains(value, reference: mpmath.mpf, digits: int) -> None:
    with mpmath.workdps(3 * digits + 20):
        lo, hi = (mpmath.mpf(t) for t in value.enclosure)
        assert lo <= reference <= hi, (value.enclosure, reference)
        assert hi - lo <= mpmath.mpf(10) ** (1 - digits) * abs(reference)  # narrow enough
        assert mpmath.nstr(reference, digits, strip_zeros=False) == value.text or \
            abs(mpmath.mpf(value.text) - reference) <= mpmath.mpf(10) ** (1 - digits) * \
            abs(reference)


@pytest.mark.parametrize("power", [3, 4, 6])
def test_staircase_moment_minimiser_is_enclosed(power):
    digits = 25
    g, v = _reference("1", power, digits)
    m = Staircase(eps=1)
    gamma = m.value("gamma", f"moment:{power}", digits)
    cost = m.value("cost", f"moment:{power}", digits)
    assert gamma.certificate == cost.certificate == "enclosure"
    _contains(gamma, g, digits)
    _contains(cost, v, digits)
    # the two-precision path is only a cross-check, and says so
    slow = m.value("gamma", f"moment:{power}", digits, method="mpmath")
    assert slow.certificate == "agreement" and slow.text == gamma.text


def test_fifty_and_a_thousand_digits_agree_with_the_mpmath_path():
    m = Staircase(eps="1/3")
    for digits in (50, 1000):
        for quantity in ("gamma", "cost"):
            fast = m.value(quantity, "moment:5", digits)
            assert fast.certificate == "enclosure"
            assert fast.text == m.value(quantity, "moment:5", digits, method="mpmath").text


@pytest.mark.parametrize(("dim", "e"), [(2, "1"), (3, "1/3"), (4, "1e-4"), (4, "20")])
def test_multidimensional_staircase_power_is_enclosed(dim, e):
    m = StaircaseMD(eps=e, dim=dim)
    for quantity in ("gamma", "cost"):
        v = m.value(quantity, "power", 20)
        assert v.certificate == "enclosure"
        ref = m.value(quantity, "power", 45, method="mpmath")  # a cross-check only
        with mpmath.workdps(60):
            lo, hi = (mpmath.mpf(t) for t in v.enclosure)
            assert lo <= ref.number <= hi


def _compiled(cost: sp.Expr, lo: Fraction, hi: Fraction) -> CompiledCost:
    t = sp.Symbol("t")
    cost = cost.subs(sp.Symbol("x"), t)
    slope = sp.diff(cost, t)
    parts = [BallFunction.prepare(e, {}, t) for e in (cost, slope, sp.diff(slope, t))]
    return CompiledCost(*parts, lo, hi)


def test_the_global_minimum_among_several_local_ones_is_chosen():
    x = sp.Symbol("x")
    # minima near 1/5 and 4/5; the tilt x/10 makes 1/5 the global one
    f = _compiled((x - sp.Rational(1, 5)) ** 2 * (x - sp.Rational(4, 5)) ** 2 + x / 10,
                  Fraction(0), Fraction(1))
    g = certify_minimum(f, 20, quantity="parameter")
    with mpmath.workdps(50):
        # the reference: the slope 2 P P' + 1/10, P = x^2 - x + 4/25, expanded by hand,
        # its real roots by polyroots; the smaller cost among them
        one = mpmath.mpf(1)
        roots = mpmath.polyroots([4, -6, 66 * one / 25, -22 * one / 100], extraprec=100)
        real = [r.real for r in roots if abs(r.imag) < mpmath.mpf(10) ** -30]
        want = min(real, key=lambda r: (r - one / 5) ** 2 * (r - 4 * one / 5) ** 2 + r / 10)
        assert abs(mpmath.mpf(g.text()) - want) < mpmath.mpf(10) ** -18
        assert abs(want - one / 5) < one / 10  # the tilt picks the left well


def test_a_minimum_at_an_end_is_proven_by_the_sign_of_the_slope():
    x = sp.Symbol("x")
    f = _compiled((x + 1) ** 2, Fraction(0), Fraction(1))  # increasing on [0, 1]
    assert certify_minimum(f, 10, quantity="parameter").text() == "0"
    assert certify_minimum(f, 10).text() == "1.000000000"
    f = _compiled((x - 3) ** 2, Fraction(0), Fraction(1))  # decreasing on [0, 1]
    assert certify_minimum(f, 10, quantity="parameter").text() == "1.000000000"
    assert certify_minimum(f, 10).text() == "4.000000000"


def test_equal_minima_cannot_be_separated():
    x = sp.Symbol("x")
    f = _compiled((x - sp.Rational(1, 4)) ** 2 * (x - sp.Rational(3, 4)) ** 2,
                  Fraction(0), Fraction(1))
    with pytest.raises(CertificationError, match=r"separate|did not round"):
        certify_minimum(f, 10)


def test_a_double_root_of_the_slope_gives_up_with_a_reason():
    x = sp.Symbol("x")
    f = _compiled((x - sp.Rational(1, 2)) ** 4, Fraction(0), Fraction(1))  # s' = 0 at 1/2
    with pytest.raises(CertificationError, match=r"intervals|separate|round"):
        certify_minimum(f, 10)


@settings(max_examples=14, deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.too_slow])
@given(log_eps=st.floats(-6, 2), power=st.integers(1, 6))
def test_property_enclosures_contain_the_mpmath_reference(log_eps, power):
    r"""eps log-uniform in [1e-6, 100] (inside the declared domain (0, 1e100]; at
    eps >= 1000 the path is still the two-precision one), P = 1..6 (1 and 2 have closed
    forms: the ball path). The reference is the mpmath path at twice the digits."""
    e = Fraction(f"{10**log_eps:.4g}")
    m = Staircase(eps=e)
    for quantity in ("gamma", "cost"):
        v = m.value(quantity, f"moment:{power}", 15)
        assert v.certificate in ("enclosure", "exact")
        ref = m.value(quantity, f"moment:{power}", 40, method="mpmath")
        with mpmath.workdps(60):
            lo, hi = (mpmath.mpf(t) for t in v.enclosure)
            assert lo <= ref.number <= hi, (e, power, quantity)


def test_the_ball_function_takes_an_interval_of_the_free_parameter():
    t = sp.Symbol("t")
    f = BallFunction.prepare(t**2 - 2 * t, {}, t)
    with flint.ctx.workprec(64):
        ball = f(flint.arb(1).union(flint.arb(2)))
    assert ball.contains(flint.arb(-1)) and ball.contains(flint.arb(0))


def test_the_isolation_is_kept_per_instance_and_reused_at_any_digits():
    m = Staircase(eps="2/3")
    low = m.value("cost", "moment:4", 12)
    high = m.value("cost", "moment:4", 60)  # from the kept (and contracted) root box
    fresh = Staircase(eps="2/3").value("cost", "moment:4", 60)
    assert high.text == fresh.text and high.certificate == "enclosure"
    assert m.value("cost", "moment:4", 12).text == low.text
    with mpmath.workdps(80):
        assert mpmath.nstr(mpmath.mpf(high.text), 12, strip_zeros=False) == low.text
