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
from dpsym.symbolic.numerics import evaluate
from dpsym.symbolic.regimes import REGIMES
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


@pytest.mark.parametrize("cost", ["moment:1/2", "moment:5/2"])
def test_discrete_laplace_non_integer_moments_at_the_pole_of_the_lerch_sum(cost):
    r"""As eps -> 0 the Lerch sum of a non-integer moment tends to its pole z = 1 (sympy
    failed there): Li_{-p}(e^{-u}) = Gamma(1 + p) u^{-1-p} + sum_n zeta(-p-n) (-u)^n / n!.
    The series is checked against the certified values at two small eps."""
    order = 2
    series = DiscreteLaplace.series("cost", cost, "eps->0", order)
    assert series.has(sp.zeta) and series.getO() == sp.Order(eps**order, eps)
    rem = []
    with mpmath.workdps(50):
        for t in POINTS["eps->0"]:
            exact = DiscreteLaplace(eps=t, Delta=2).value("cost", cost, 40).number
            rem.append(abs(exact - evaluate(series.removeO(), {eps: t, Delta: 2})))
        t1, t2 = (mpmath.mpf(sp.N(v, 50)) for v in POINTS["eps->0"])
    assert rem[0] <= 10 * t1**order
    assert rem[1] / rem[0] <= 1.6 * (t2 / t1) ** order


def test_discrete_laplace_as_eps_to_infinity_keeps_b_to_the_power_one_over_delta():
    """b^(1/Delta) with a symbolic Delta has no expansion in b: the expression stays exact
    (formerly sympy's NotImplementedError)."""
    series = DiscreteLaplace.series("cost", "moment:3", "eps->oo", 1)
    assert series.getO() == sp.Order(b, b)
    with mpmath.workdps(50):
        exact = DiscreteLaplace(eps=20, Delta=2).value("cost", "moment:3", 40).number
        approx = evaluate(series.removeO(), {b: sp.exp(-20), Delta: 2})
        assert abs(exact - approx) < mpmath.mpf(10) ** -38 * exact


# ---------------------------------------------------------------------------- the engine
def test_a_logarithm_that_tends_to_zero_is_not_a_constant():
    """The cause of issue 20's ``nan``: log(1 + (e^eps - 1)/(2 delta)) -> 0 was frozen as
    an atom log(1) = 0, then raised to fractional powers. Its powers are Puiseux series:
    (eps/(2 delta))^(5/2) (1 + O(eps)), with a remainder O(eps^4)."""
    lg = sp.log(1 + (sp.exp(eps) - 1) / (2 * delta))
    got = REGIMES["eps->0"].expand(lg ** sp.Rational(5, 2), 4).removeO()
    assert not got.has(sp.nan, sp.zoo)
    lead = sp.limit(got / eps ** sp.Rational(5, 2), eps, 0)
    assert sp.simplify(lead - (2 * delta) ** sp.Rational(-5, 2)) == 0
    rem = []
    with mpmath.workdps(40):
        for e in ("1e-3", "5e-4"):
            point = {eps: sp.Rational(e), delta: sp.Rational(1, 10)}
            exact = mpmath.mpf(sp.N((lg ** sp.Rational(5, 2)).subs(point), 40))
            rem.append(abs(exact - evaluate(got, point)))
        assert rem[0] < 10 * mpmath.mpf("1e-3") ** 4 * 5**4
        assert rem[1] / rem[0] < 1.6 * (1 / mpmath.mpf(2)) ** 4


def test_coefficients_know_logarithms_exponentials_and_roots():
    r"""exp(k log t) is t^k, exp(log a) is a, and a square root of a symbol is exact."""
    series = REGIMES["eps->0"].expand(sp.exp(3 * sp.log(eps) / 2) * sp.sqrt(delta * eps), 3)
    assert sp.simplify(series.removeO() - sp.sqrt(delta) * eps**2) == 0
    small = REGIMES["delta->0"].expand(
        sp.exp(sp.log(2 * delta) / 2, evaluate=False) / sp.sqrt(delta), 2)
    assert sp.simplify(small.removeO() - sp.sqrt(2)) == 0


def test_a_branch_is_chosen_by_the_limit():
    """uniform-mass's costs are Piecewise in delta: the series takes the branch that holds
    as delta -> 0 (formerly the whole Piecewise was printed as the series)."""
    from dpsym.mechanisms import MECHANISMS

    series = MECHANISMS["uniform-mass"].series("cost", "amplitude", "eps=delta->0", 2)
    assert not series.has(sp.Piecewise)
    assert sp.simplify(series.removeO() - Delta / (4 * c * eps)) == 0


@pytest.mark.parametrize("regime", ["delta->0", "eps=delta->0"])
@pytest.mark.parametrize("name", ["discrete-uniform", "discrete-uniform-md"])
def test_a_step_function_of_the_variable_is_refused(name, regime):
    from dpsym.mechanisms import MECHANISMS

    for quantity in ("n", "cost", "P0"):
        with pytest.raises(UnsupportedError, match="piecewise constant"):
            MECHANISMS[name].series(quantity, "amplitude", regime, 3)


def test_an_expansion_too_large_to_print_is_refused():

    from dpsym.bounds import LowerBound

    with pytest.raises(UnsupportedError, match="lower order"):
        LowerBound.series("cost", "moment:4", "eps=delta->0", 30)
