r"""Tests of :mod:`dpsym.symbolic.engine`: calibrations, moments, costs, slopes, optimal
parameters, formulas and series of catalogue families, against integrals done by sympy
in the test, the independent staircase reference (:mod:`reference`), a numeric
minimisation and exact enumeration."""

from __future__ import annotations

import math
from fractions import Fraction

import mpmath
import pytest
import sympy as sp
from reference import staircase_cost

from dpsym.core.costs import parse_cost
from dpsym.errors import NoClosedFormError, UnsupportedError
from dpsym.mechanisms.discrete_laplace import DiscreteLaplace
from dpsym.mechanisms.discrete_uniform import DiscreteUniform, n
from dpsym.mechanisms.laplace import Laplace
from dpsym.mechanisms.staircase import Staircase
from dpsym.precision import workdps
from dpsym.symbolic import engine
from dpsym.symbols import NORM, Delta, b, delta, eps

gamma = Staircase.free.symbol
t = sp.Symbol("t", positive=True)


def test_solve_for():
    y = sp.Symbol("y", positive=True)
    assert engine.solve_for(y**2 - 4, y) == 2
    z = sp.Symbol("z")
    with pytest.raises(UnsupportedError, match="cannot solve"):
        engine.solve_for(z**2 - 4, z)  # two real solutions
    with pytest.raises(UnsupportedError, match="cannot solve"):
        engine.solve_for(y + 1, y)  # none that is positive


def test_laplace_calibration_and_moments():
    # the density a e^{-eps|x|/Delta} has mass 2 a Delta/eps
    a = sp.Symbol("a", positive=True)
    mass = 2 * sp.integrate(a * sp.exp(-eps * t / Delta), (t, 0, sp.oo))
    assert engine.calibration(Laplace.engine) == {NORM: sp.solve(mass - 1, a)[0]}
    assert engine.normalisation(Laplace.engine) == eps / (2 * Delta)
    for power in (1, 2, sp.Rational(3, 2)):
        exact = 2 * sp.integrate(t**power * eps / (2 * Delta) * sp.exp(-eps * t / Delta),
                                 (t, 0, sp.oo))
        assert sp.simplify(engine.moment(Laplace.engine, power) - exact) == 0


def test_staircase_normalisation_and_moment():
    r"""a(gamma) = (1 - b)/(2 Delta (gamma + (1 - gamma) b)); E|X| against the reference
    summed period by period."""
    ref_norm = (1 - b) / (2 * Delta * (gamma + (1 - gamma) * b))
    assert sp.simplify(engine.normalisation(Staircase.engine) - ref_norm) == 0
    with workdps(40):
        for p in (1, 2, 3):
            expr = engine.moment(Staircase.engine, p)
            for e, D, g in (("1", "3/2", "3/10"), ("2", "1", "1/2")):
                at = {eps: sp.Rational(e), b: sp.exp(-sp.Rational(e)), Delta: sp.Rational(D),
                      gamma: sp.Rational(g)}
                got = mpmath.mpf(sp.N(expr.subs(at), 45))
                ref = staircase_cost(sp.Rational(e), sp.Rational(D), sp.Rational(g), p)
                assert abs(got - ref) < mpmath.mpf(10) ** -35 * ref


def test_cost_functions():
    assert engine.cost_function(Laplace.engine, "x**2 + 3*abs(x)") == \
        2 * Delta**2 / eps**2 + 3 * Delta / eps
    assert engine.cost_function(Laplace.engine, "x**2 + 5") == 2 * Delta**2 / eps**2 + 5
    with pytest.raises(NoClosedFormError, match="not a sum of powers"):
        engine.cost_function(Laplace.engine, "log(1 + abs(x))")


LATTICE_COSTS = {"min(abs(x), 3)": lambda k: min(abs(k), 3),
                 "min(abs(x), 3) + 1": lambda k: min(abs(k), 3) + 1,
                 "abs(x) > 3": lambda k: int(abs(k) > 3),
                 "abs(x) >= 2": lambda k: int(abs(k) >= 2),
                 "min(x**2, 7)": lambda k: min(k * k, 7)}


@pytest.mark.parametrize("cost", list(LATTICE_COSTS))
def test_piecewise_cost_by_enumeration(cost):
    r"""E L(X) of the symmetrised uniform law for costs with cuts, enumerated exactly:
    odd and even support sizes (the even ones have a second piece of half mass, starting
    above the cut), and a constant term (the point 0 counted once)."""
    expr = engine.cost_function(DiscreteUniform.engine, cost)
    for delta_text, D in (("1/5", 2), ("2/7", 2), ("1/9", 1), ("1/2", 1), ("1/3", 1)):
        size = math.ceil(D / Fraction(delta_text))
        law: dict[int, Fraction] = {}
        for i in range(-(size // 2), -(size // 2) + size):
            for j in (i, -i):
                law[j] = law.get(j, Fraction(0)) + Fraction(1, 2 * size)
        exact = sum(LATTICE_COSTS[cost](k) * q for k, q in law.items())
        got = expr.subs({delta: sp.Rational(delta_text), Delta: D})
        assert sp.Rational(got) == sp.Rational(exact.numerator, exact.denominator), \
            (cost, delta_text, D)


def test_slope_is_the_derivative():
    for cost in ("amplitude", "power"):
        slope = engine.slope_function(Staircase.engine, cost)
        diff = sp.diff(engine.cost_function(Staircase.engine, cost), gamma)
        at = {b: sp.Rational(1, 3), Delta: sp.Rational(3, 2), gamma: sp.Rational(2, 7)}
        assert sp.simplify((slope - diff).subs(at)) == 0


def test_staircase_optimum():
    r"""The amplitude-optimal gamma is 1/(1 + e^{eps/2}); at eps = 1 the reference cost has
    its minimum there (a numeric root of its derivative)."""
    best = engine.optimal_parameter(Staircase.engine, "amplitude")
    assert sp.simplify(best.subs(b, sp.exp(-eps)) - 1 / (1 + sp.exp(eps / 2))) == 0
    with workdps(30):
        def slope(g):
            return mpmath.diff(lambda s: staircase_cost(1, 1, s, 1), g)

        root = mpmath.findroot(slope, 0.35)
        assert abs(root - 1 / (1 + mpmath.exp(mpmath.mpf(1) / 2))) < 1e-20
        cost = engine.optimal_cost(Staircase.engine, "amplitude").subs({Delta: 1, b: sp.exp(-1)})
        assert abs(mpmath.mpf(sp.N(cost, 35)) - staircase_cost(1, 1, root, 1)) < 1e-25
    assert engine.optimal_parameter(Laplace.engine, "amplitude") is None
    assert engine.optimal_cost(Laplace.engine, "amplitude") == Delta / eps
    assert engine.optimal_root(Staircase.engine, parse_cost("x**2 + abs(x)")) is None  # numeric


def test_formula_and_closed_form():
    assert engine.formula(Laplace.engine, "cost", "power") == 2 * Delta**2 / eps**2
    assert engine.formula(DiscreteUniform.engine, "n") == sp.ceiling(Delta / delta)
    assert engine.derived_parameter(DiscreteUniform.engine, "n").symbol == n
    with pytest.raises(UnsupportedError, match="no closed form for cost"):
        engine.formula(Staircase.engine, "cost", "moment:3/2")
    assert engine.closed_form(Staircase.engine, "cost", parse_cost("moment:3/2")) is None
    assert engine.closed_form(Laplace.engine, "cost", parse_cost("amplitude")) == Delta / eps


def test_series_against_the_closed_form():
    r"""The eps -> 0 expansion of the optimal amplitude cost: the difference with the
    closed form is O(eps^3)."""
    ser = engine.series(Staircase.engine, "cost", "amplitude", "eps->0", 3)
    assert ser.has(sp.Order)
    poly = ser.removeO()
    exact = engine.optimal_cost(Staircase.engine, "amplitude").subs(b, sp.exp(-eps))
    with workdps(40):
        for e in ("1/100", "1/1000"):
            at = {eps: sp.Rational(e), Delta: 1}
            gap = abs(mpmath.mpf(sp.N((exact - poly).subs(at), 50)))
            assert gap < 10 * mpmath.mpf(sp.Rational(e)) ** 3
    # without a closed form: the minimiser expanded from its optimality condition
    g_ser = engine.series(Staircase.engine, "gamma", "power", "eps->0", 2)
    assert sp.limit(g_ser.removeO(), eps, 0) == sp.Rational(1, 2)
    with pytest.raises(UnsupportedError):
        engine.series(Staircase.engine, "cost", "moment:3/2", "eps->0", 2)


def test_test_points():
    points = engine.test_points(Staircase.engine)
    assert [p[b] for p in points] == list(engine.TEST_B)
    assert all(p[eps] == -sp.log(p[b]) and p[Delta] == sp.Rational(3, 2) for p in points)
    assert all(p[Delta] == 1 for p in engine.test_points(DiscreteLaplace.engine))
    assert engine.noise(Laplace.engine).free_symbols() == {eps, Delta}
