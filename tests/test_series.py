"""Asymptotic series against independent high-precision evaluations.

For a series truncated with order term :math:`O(t^K)`, the remainder
:math:`R(t) = f(t) - S_K(t)` is computed at two small values of the expansion variable
from independent references (tests/reference.py); it must be bounded by a moderate
multiple of :math:`t^K` and shrink at least like :math:`t^K` when :math:`t` is halved.
"""

from __future__ import annotations

import mpmath
import pytest
import sympy as sp
from reference import discrete_laplace_mass, laplace_cost, lattice_cost, staircase_cost_by_sympy_sum

from dpsym import DiscreteLaplace, Laplace, Staircase
from dpsym.errors import UnsupportedError
from dpsym.numerics import evaluate
from dpsym.regimes import REGIMES
from dpsym.symbols import Delta, b, c, delta, eps

#: t values per regime (eps for eps->0, b = e^{-eps} for eps->oo)
POINTS = {"eps->0": (sp.Rational(1, 40), sp.Rational(1, 80)),
          "eps->oo": (sp.exp(-10), sp.exp(-11))}


def eps_of(regime: str, t: sp.Expr) -> sp.Expr:
    return t if regime == "eps->0" else -sp.log(t)


def check_remainder(series: sp.Expr, t_sym, values, reference, order):
    truncated = series.removeO()
    rem = []
    with mpmath.workdps(60):
        for t in values:
            approx = evaluate(truncated, {t_sym: t, Delta: sp.Rational(3, 2)})
            rem.append(abs(reference(t) - approx))
        t1, t2 = (mpmath.mpf(sp.N(v, 60)) for v in values)
        assert rem[0] <= 1e3 * t1**order + mpmath.mpf(10) ** -45
        if rem[0] > mpmath.mpf(10) ** -45:
            assert rem[1] / rem[0] <= 1.6 * (t2 / t1) ** order


@pytest.mark.parametrize("regime", ["eps->0", "eps->oo"])
@pytest.mark.parametrize("cost", ["amplitude", "power"])
@pytest.mark.parametrize("order", [1, 2, 3, 4])
def test_staircase_cost_series(regime, cost, order):
    series = Staircase.series("cost", cost, regime, order)
    t_sym = REGIMES[regime].variable
    power = 1 if cost == "amplitude" else 2

    def reference(t):
        e = eps_of(regime, t)
        e_exact = e if e.is_Rational else sp.Rational(str(sp.N(e, 80)))
        gstar = sp.Rational(Staircase(eps=e_exact).value("gamma", cost, 50).text)
        return staircase_cost_by_sympy_sum(e_exact, sp.Rational(3, 2), gstar, power, 60)

    check_remainder(series, t_sym, POINTS[regime], reference, order)


@pytest.mark.parametrize("regime", ["eps->0", "eps->oo"])
@pytest.mark.parametrize("cost", ["amplitude", "power"])
def test_staircase_gamma_series(regime, cost):
    order = 3
    series = Staircase.series("gamma", cost, regime, order)
    t_sym = REGIMES[regime].variable

    def reference(t):
        e = eps_of(regime, t)
        e_exact = e if e.is_Rational else sp.Rational(str(sp.N(e, 80)))
        power = 1 if cost == "amplitude" else 2

        def f(g):
            return staircase_cost_by_sympy_sum(e_exact, 1, g, power, 60)

        # the reference minimiser: zero of a central difference of the independent cost
        g0 = sp.Rational(Staircase(eps=e_exact).value("gamma", cost, 30).text)
        h = g0 / 10**8
        with mpmath.workdps(60):
            fm, f0, fp = f(g0 - h), f(g0), f(g0 + h)
            assert f0 < fm and f0 < fp
            shift = (fm - fp) / (2 * (fp - 2 * f0 + fm)) * mpmath.mpf(h)
        return mpmath.mpf(g0) + shift

    with mpmath.workdps(60):
        check_remainder(series, t_sym, POINTS[regime], reference, order)


@pytest.mark.parametrize("regime", ["eps->0"])
@pytest.mark.parametrize("power", [1, 2, 3])
def test_laplace_series_is_exact(regime, power):
    series = Laplace.series("cost", f"moment:{power}", regime, 4)
    with mpmath.workdps(50):
        for e in ("0.01", "0.02"):
            val = evaluate(series.removeO(), {eps: sp.Rational(e), Delta: 2})
            assert abs(val - laplace_cost(mpmath.mpf(e), 2, power)) < mpmath.mpf(10) ** -40


@pytest.mark.parametrize("cost", ["amplitude", "power"])
@pytest.mark.parametrize("order", [1, 3])
def test_discrete_laplace_series_eps_to_zero(cost, order):
    power = 1 if cost == "amplitude" else 2
    series = DiscreteLaplace.series("cost", cost, "eps->0", order)

    def reference(t):
        with mpmath.workdps(60):
            e = mpmath.mpf(sp.N(t, 60))
            return lattice_cost(discrete_laplace_mass(e, 1), power, e, 1)

    with mpmath.workdps(60):
        truncated = series.removeO()
        rem = [abs(reference(t) - evaluate(truncated, {eps: t, Delta: 1}))
               for t in POINTS["eps->0"]]
        t1, t2 = (mpmath.mpf(sp.N(v, 60)) for v in POINTS["eps->0"])
        assert rem[0] <= 1e3 * t1**order
        assert rem[1] / rem[0] <= 1.6 * (t2 / t1) ** order


def test_joint_and_delta_regimes_on_expressions():
    expr = sp.log(1 + (sp.exp(eps) - 1) / (2 * delta))
    joint = REGIMES["eps=delta->0"].expand(expr, 2)
    assert sp.simplify(joint.removeO() - (sp.log(1 + 1 / (2 * c))
                                          + eps / (2 * (2 * c + 1)))) == 0
    small = REGIMES["delta->0"].expand(sp.exp(eps) * delta / (1 + delta), 3)
    assert sp.simplify(small.removeO() - sp.exp(eps) * (delta - delta**2)) == 0
    with pytest.raises(UnsupportedError):
        Staircase.series("cost", "amplitude", "delta->0", 3)


def test_eps_to_infinity_needs_b():
    """The slides' leading terms as eps -> oo: Delta e^{-eps/2} and 2^{-2/3} Delta^2 e^{-2eps/3}."""
    s1 = Staircase.series("cost", "amplitude", "eps->oo", 1).removeO()
    assert sp.simplify(s1 - Delta * sp.sqrt(b)) == 0
    s2 = Staircase.series("cost", "power", "eps->oo", 1).removeO()
    assert sp.simplify(s2 - 2 ** sp.Rational(-2, 3) * Delta**2 * b ** sp.Rational(2, 3)) == 0


@pytest.mark.parametrize("regime", ["eps->0", "eps->oo"])
def test_series_without_closed_form_goes_through_the_optimality_condition(regime):
    """moment:3 has no radical minimiser; the series comes from dV/dgamma = 0.

    The reference is the certified numeric minimisation (a different path from the
    series); the remainder must be O(t^K) as in the closed-form cases.
    """
    order = 3
    series = Staircase.series("cost", "moment:3", regime, order)
    t_sym = REGIMES[regime].variable

    def reference(t):
        e = eps_of(regime, t)
        e_exact = e if e.is_Rational else sp.Rational(str(sp.N(e, 80)))
        return Staircase(eps=e_exact, Delta=sp.Rational(3, 2)).value(
            "cost", "moment:3", 50).number

    check_remainder(series, t_sym, POINTS[regime], reference, order)


@pytest.mark.parametrize(("mechanism", "cost", "regime", "order"), [
    ("discrete-laplace", "moment:1/2", "eps->0", 0),  # a Lerch sum at its pole z = 1
    ("discrete-laplace", "moment:3", "eps->oo", 1),  # sympy: depends on the sign of log(b)
])
def test_sympy_refusals_are_unsupported_errors_not_bugs(mechanism, cost, regime, order):
    from dpsym.errors import UnsupportedError
    from dpsym.mechanisms import get_mechanism

    with pytest.raises(UnsupportedError, match=f"regime {regime}: sympy cannot expand"):
        get_mechanism(mechanism).series("cost", cost, regime, order)
