"""Lower bounds for any cost the theorems allow: the tail-chain bound against the recursion
summed directly, the LP bounds against the powers they extend (a cost equal to |x| on the
LP's whole support gives the same certified LP, hence the same digits) and against the
mechanisms they bound, Lemma 2 of paper 003 with its condition (9) decided."""

from __future__ import annotations

from fractions import Fraction

import mpmath
import pytest
import sympy as sp

from dpsym.bounds import DiscreteLowerBound, LowerBound, LPBound
from dpsym.bounds.integer import lemma2
from dpsym.core.costs import parse_cost
from dpsym.errors import DomainError
from dpsym.mechanisms import DiscreteLaplace, DiscreteStaircase, TruncatedLaplace
from dpsym.precision import workdps
from dpsym.symbols import x


def _function(text: str):
    return sp.lambdify(x, parse_cost(text).function, "mpmath")


def _chain_bound(f, eps, delta, Delta):
    r""":math:`L(0) + 2\sum_{k \ge 1, x_k > 0} x_k (L(k\Delta) - L((k-1)\Delta))` with the
    recursion :math:`x_0 = 1/2`, :math:`x_{k+1} = b(x_k - \delta)` summed directly."""
    b = mpmath.exp(-eps)
    total, xk, k = f(0), mpmath.mpf(1) / 2, 0
    while True:
        xk, k = b * (xk - delta), k + 1
        if xk <= 0:
            return total
        total += 2 * xk * (f(k * Delta) - f((k - 1) * Delta))


@pytest.mark.parametrize("text", ["min(abs(x), 3)", "abs(x) > 1/2", "abs(x) >= 1",
                                  "log(1 + abs(x))", "abs(x) + x^2"])
@pytest.mark.parametrize(("eps", "delta"), [("1", "0.05"), ("1/10", "0.01")])
def test_lower_bound_against_the_recursion(text, eps, delta):
    found = LowerBound(eps=eps, delta=delta, Delta=1).value("cost", text, 40)
    assert found.certificate == "enclosure"
    with workdps(60):
        e, d = (mpmath.mpf(Fraction(v).numerator) / Fraction(v).denominator
                for v in (eps, delta))
        reference = _chain_bound(_function(text), e, d, 1)
        # printed rounded down: at most the reference, within one unit of the last digit
        printed = mpmath.mpf(found.text)
        assert printed <= reference < printed + abs(printed) * mpmath.mpf(10) ** -39


def test_lower_bound_is_linear_in_the_cost_like_its_closed_forms():
    b = LowerBound(eps=1, delta="0.05", Delta=1)
    assert b.value("cost", "abs(x) + x^2", 25).text == "1.002238237291824941052131"
    with workdps(40):
        total = mpmath.mpf(b.value("cost", "amplitude", 35).text) \
            + mpmath.mpf(b.value("cost", "power", 35).text)
        assert abs(total - mpmath.mpf("1.002238237291824941052131")) < 1e-24


@pytest.mark.parametrize(("entry", "params"), [
    (DiscreteLowerBound, {"eps": 1, "delta": "0.05", "Delta": 2}),
    (LPBound, {"eps": 1, "delta": "0.05", "Delta": 1, "grid": 4}),
])
def test_lp_bounds_extend_the_powers(entry, params):
    bound = entry(**params)
    # |x| clipped far beyond the LP's support is |x| on every cell: the same LP exactly
    assert bound.value("cost", "min(abs(x), 1000)", 30).text == \
        bound.value("cost", "amplitude", 30).text
    twice = bound.value("cost", "2*abs(x)", 30)
    assert twice.certificate == "exact"
    assert abs(float(twice.text) - 2 * float(bound.value("cost", "amplitude", 30).text)) \
        < 1e-12
    indicator = bound.value("cost", "abs(x) > 1/2", 20)
    assert 0 < float(indicator.text) < 1


def test_lp_bounds_sit_below_the_mechanisms():
    for text in ("min(abs(x), 3)", "abs(x) > 1", "log(1 + abs(x))"):
        lower = float(DiscreteLowerBound(eps=1, delta="0.05", Delta=2)
                      .value("cost", text, 15).text)
        assert lower <= float(DiscreteLaplace(eps=1, Delta=2).value("cost", text, 15).text)
        grid = LPBound(eps=1, delta="0.05", Delta=1, grid=4)
        low, high = (float(grid.value(q, text, 15).text) for q in ("cost", "upper"))
        assert low <= high
        assert low <= float(TruncatedLaplace(eps=1, delta="0.05").value("cost", text,
                                                                        15).text)
        assert float(LowerBound(eps=1, delta="0.05").value("cost", text, 15).text) <= high


def test_lemma2_against_direct_sums():
    found = lemma2("1/2", 3, 10, "log(1 + abs(x))")
    f = _function("log(1 + abs(x))")
    with workdps(50):
        e = mpmath.mpf(1) / 2
        b = mpmath.exp(-e)
        delta = mpmath.expm1(e) / (2 * mpmath.expm1(3 * e))
        a = (delta + mpmath.expm1(e) / 2) / mpmath.exp(e)
        assert abs(mpmath.fsum(a * b**k for k in range(3)) - mpmath.mpf(1) / 2) < 1e-45
        bound = 2 * mpmath.fsum(a * b**k * f(1 + 10 * k) for k in range(3))
        condition = mpmath.fsum(b**i * (2 * f(10 * i) - f(1 + 10 * (i - 1)) - f(1 + 10 * i))
                                for i in range(1, 3)) - f(1)
        printed = mpmath.mpf(found.value(40).text)
        assert printed <= bound < printed * (1 + mpmath.mpf(10) ** -39)
        assert abs(mpmath.mpf(sp.N(found.condition, 50)) - condition) < 1e-45
        assert abs(mpmath.mpf(sp.N(found.delta, 50)) - delta) < 1e-45
    # a lower bound: below the cost of an eps-DP mechanism (which is (eps, delta)-DP)
    for text in ("abs(x)", "min(abs(x), 30)", "abs(x) > 5", "log(1 + abs(x))"):
        assert float(lemma2("1/2", 3, 10, text).value(15).text) <= \
            float(DiscreteStaircase(eps="1/2", Delta=10).value("cost", text, 15).text)


def test_lemma2_refuses_a_cost_that_fails_condition_9():
    # L = 1{|i| >= 1}: every term of (9) is 2 - 1 - 1 = 0 < L(1) = 1
    with pytest.raises(DomainError, match=r"condition \(9\)"):
        lemma2(1, 3, 4, "abs(x) >= 1")
    with pytest.raises(DomainError, match="n: must be an integer >= 2"):
        lemma2(1, 1, 4, "abs(x)")
