r"""Series of minimisers without closed forms (:mod:`dpsym.symbolic.asymptotics`).

* For :math:`p = 1, 2` the staircase's minimiser has a closed form: the series must be the
  expansion of that closed form, term by term.
* For :math:`p = 3, 4, 5` there is none: the truncated series is compared with the
  certified numeric optimum at two small values of :math:`t`; the remainder must be
  :math:`O(t^{\mathrm{order}})`, equal to the first omitted term to leading order, and
  shrink like :math:`(t_2/t_1)^{e}` with :math:`e \ge \mathrm{order}` that term's exponent.
"""

from __future__ import annotations

from functools import cache

import mpmath
import pytest
import sympy as sp

from dpsym.errors import DomainError, UnsupportedError
from dpsym.mechanisms.staircase import Staircase
from dpsym.symbolic.asymptotics import minimiser_series
from dpsym.symbolic.regimes import get_regime
from dpsym.symbols import Delta, b, c, delta, eps, gamma

REGIMES = ("eps->0", "eps->oo")
HALF = sp.Rational(1, 2)


@cache
def staircase_series(p: int, regime: str, order: int) -> tuple[sp.Expr, sp.Expr]:
    return minimiser_series(Staircase.cost_function(f"moment:{p}"), gamma, 0, 1,
                            get_regime(regime), order)


def terms(series: sp.Expr, t: sp.Symbol) -> dict[sp.Rational, sp.Expr]:
    """The coefficients of a truncated Puiseux series by exponent."""
    out: dict[sp.Rational, sp.Expr] = {}
    for term in sp.Add.make_args(sp.expand(series.removeO())):
        coeff, power = term.as_independent(t, as_Add=False)
        exponent = sp.Integer(0) if power == 1 else power.as_base_exp()[1]
        out[exponent] = out.get(exponent, 0) + coeff
    return out


# ---------------------------------------------------------------------------- closed forms
@pytest.mark.parametrize("order", [0, 1, 5])
@pytest.mark.parametrize("regime", REGIMES)
@pytest.mark.parametrize("cost", ["amplitude", "power"])
def test_closed_forms_are_reproduced(cost, regime, order):
    reg = get_regime(regime)
    p = 1 if cost == "amplitude" else 2
    got_gamma, got_cost = staircase_series(p, regime, order)
    want_gamma = reg.expand(Staircase.formula("gamma", cost), order)
    want_cost = reg.expand(Staircase.formula("cost", cost), order)
    for got, want in ((got_gamma, want_gamma), (got_cost, want_cost)):
        assert got.getO() == want.getO() == sp.Order(reg.variable**order, reg.variable)
        assert sp.simplify(got.removeO() - want.removeO()) == 0


@pytest.mark.parametrize("p", [1, 2, 3, 4, 5])
def test_leading_terms(p):
    g0, v0 = staircase_series(p, "eps->0", 1)
    assert g0 == HALF + sp.Order(eps)
    # V ~ p! Delta^p / eps^p as eps -> 0
    assert terms(v0, eps)[-p] == sp.factorial(p) * Delta**p
    g_oo, _ = staircase_series(p, "eps->oo", 1)
    lead = terms(g_oo, b)
    low = min(lead)
    assert low == sp.Rational(1, p + 1)
    assert sp.simplify(lead[low] - sp.Rational(1, p) ** sp.Rational(1, p + 1)) == 0


# ---------------------------------------------------------------------------- numerics
NUMERIC = {
    # regime: (eps values, order, digits). The Puiseux coefficients grow fast (for p = 5
    # the series in b^(1/6) has terms 2000 b^(13/6)), hence b = e^-60, e^-80 and enough
    # digits to see a remainder of relative size 1e-64.
    "eps->0": (("0.01", "0.001"), 3, 40),
    "eps->oo": (("60", "80"), 2, 80),
}


@pytest.mark.parametrize("regime", REGIMES)
@pytest.mark.parametrize("p", [3, 4, 5])
def test_remainder_is_of_the_order(p, regime):
    values, order, digits = NUMERIC[regime]
    reg = get_regime(regime)
    t = reg.variable
    series = staircase_series(p, regime, order)
    finer = staircase_series(p, regime, order + 2)
    for index, quantity in enumerate(("gamma", "cost")):
        omitted = {e: co for e, co in terms(finer[index], t).items() if e >= order}
        assert terms(series[index], t) == {e: co for e, co in terms(finer[index], t).items()
                                           if e < order}
        first = min(omitted)
        assert first >= order
        truncated = sp.lambdify([t, Delta], series[index].removeO(), "mpmath")
        leading = sp.lambdify([Delta], omitted[first], "mpmath")
        points = []
        with mpmath.workdps(digits + 20):
            for text in values:
                e = mpmath.mpf(text)
                tv = e if regime == "eps->0" else mpmath.exp(-e)
                exact = Staircase(eps=text).value(quantity, f"moment:{p}", digits=digits).number
                remainder = exact - truncated(tv, 1)
                predicted = leading(1) * tv ** (mpmath.mpf(first.p) / first.q)
                assert abs(remainder) <= 2 * abs(leading(1)) * tv**order
                assert abs(remainder / predicted - 1) < 0.2
                points.append((tv, remainder))
            (t1, r1), (t2, r2) = points
            rate = mpmath.log(abs(r2 / r1)) / mpmath.log(t2 / t1)
        assert abs(rate - first) < 0.1, (quantity, rate, first)


# ---------------------------------------------------------------------------- other costs
def test_puiseux_root_of_a_simple_cost():
    g, v = minimiser_series(gamma**3 / 3 - b * gamma, gamma, 0, 1, get_regime("eps->oo"), 3)
    assert g == sp.sqrt(b) + sp.Order(b**3)
    assert v == -2 * b ** sp.Rational(3, 2) / 3 + sp.Order(b**3)


def test_other_symbols_in_the_coefficients():
    g, v = minimiser_series(gamma**3 / 3 - c * b * gamma, gamma, 0, 1,
                            get_regime("eps->oo"), 3, point={c: 2})
    assert sp.simplify(g.removeO() - sp.sqrt(c * b)) == 0
    assert sp.simplify(v.removeO() + 2 * (c * b) ** sp.Rational(3, 2) / 3) == 0


def test_multiple_root_at_leading_order():
    # dV/dgamma = (gamma - 1/2)^3 - eps: a triple root at eps = 0, gamma* = 1/2 + eps^(1/3)
    y = gamma - HALF
    g, v = minimiser_series(y**4 / 4 - eps * y, gamma, 0, 1, get_regime("eps->0"), 2)
    assert g == HALF + eps ** sp.Rational(1, 3) + sp.Order(eps**2)
    assert v == -3 * eps ** sp.Rational(4, 3) / 4 + sp.Order(eps**2)


def test_irrational_limit():
    # dV/dgamma = 4 gamma (gamma^2 - 1/2) - b: gamma* = sqrt(2)/2 + b/4 + O(b^2)
    g, _ = minimiser_series((gamma**2 - HALF) ** 2 - b * gamma, gamma, 0, 1,
                            get_regime("eps->oo"), 2)
    assert sp.simplify(g.removeO() - (sp.sqrt(2) / 2 + b / 4)) == 0


def test_constant_and_end_point_minimisers():
    reg = get_regime("eps->oo")
    g, v = minimiser_series((gamma - sp.Rational(1, 3)) ** 2 * (1 + b), gamma, 0, 1, reg, 2)
    assert g == sp.Rational(1, 3) + sp.Order(b**2)
    assert v == sp.Order(b**2)
    g, v = minimiser_series(-gamma * (1 + b), gamma, 0, 1, reg, 2)
    assert g == 1 + sp.Order(b**2)
    assert v == -1 - b + sp.Order(b**2)


def test_other_regimes():
    g, _ = minimiser_series(gamma**3 / 3 - delta * gamma, gamma, 0, 1,
                            get_regime("eps=delta->0"), 2)
    assert sp.simplify(g.removeO() - sp.sqrt(c * eps)) == 0


def test_order_zero():
    g, v = staircase_series(3, "eps->0", 0)
    assert g == sp.Order(1, eps)
    assert v == 6 * Delta**3 / eps**3 - Delta**3 / (4 * eps) + sp.Order(1, eps)


# ---------------------------------------------------------------------------- errors
def test_degenerate_newton_polygon_is_reported():
    y = gamma - HALF
    cost = ((y - eps) ** 2 - eps**3) ** 2 / 4  # gamma* = 1/2 + eps +- eps^(3/2)
    with pytest.raises(UnsupportedError, match="multiple root"):
        minimiser_series(cost, gamma, 0, 1, get_regime("eps->0"), 2)


def test_non_integer_moment_is_unsupported():
    with pytest.raises(UnsupportedError, match="not a rational function"):
        minimiser_series(Staircase.cost_function("moment:3/2"), gamma, 0, 1,
                         get_regime("eps->0"), 2)


def test_cost_independent_of_the_regime():
    with pytest.raises(UnsupportedError, match="does not depend"):
        minimiser_series(gamma**2 - gamma * b, gamma, 0, 1, get_regime("delta->0"), 2)


@pytest.mark.parametrize("order", [-1, 31, 2.0, True])
def test_invalid_order(order):
    with pytest.raises(DomainError, match="order"):
        minimiser_series(gamma**2 - b * gamma, gamma, 0, 1, get_regime("eps->oo"), order)
