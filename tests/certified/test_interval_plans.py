r"""Tests of :mod:`dpsym.certified.interval_plans`: the staircase's cost, slope and slope
derivative as ratios of polynomials in :math:`\gamma`, against the independent reference
cost (:mod:`reference`, the density summed period by period) and its mpmath derivatives."""

from __future__ import annotations

from fractions import Fraction

import flint
import mpmath
import pytest
import sympy as sp
from reference import staircase_cost

from dpsym.certified.interval_plans import (
    cost_fraction,
    eps_bits,
    rational_functions,
    sign_numerator,
    slope_fraction,
)
from dpsym.certified.intervals import polynomial_at
from dpsym.core.costs import parse_cost
from dpsym.core.params import parameter_symbols
from dpsym.mechanisms.discrete_uniform import DiscreteUniform
from dpsym.mechanisms.staircase import Staircase
from dpsym.precision import arb_workprec, workdps

CASES = [(Fraction(1), Fraction(2), "amplitude", 1), (Fraction(2), Fraction(1, 3), "power", 2),
         (Fraction(5), Fraction(1), "amplitude", 1)]


def exact_of(m) -> dict:
    symbol = parameter_symbols(m)
    return {symbol[n]: v for n, v in m.values.items()}


def as_mpf(ball: flint.arb) -> mpmath.mpf:
    return mpmath.mpf(ball.mid().str(40, radius=False))


@pytest.mark.parametrize(("e", "D", "cost", "p"), CASES)
def test_rational_functions_match_the_reference(e, D, cost, p):
    m = Staircase(eps=str(e), Delta=str(D))
    value, slope, dslope = rational_functions(m, parse_cost(cost), exact_of(m))
    with workdps(30):
        def ref(t):
            return staircase_cost(mpmath.mpf(e.numerator) / e.denominator,
                                  mpmath.mpf(D.numerator) / D.denominator, t, p)

        for g in (Fraction(1, 10), Fraction(3, 10), Fraction(7, 8)):
            gm = mpmath.mpf(g.numerator) / g.denominator
            with arb_workprec(160):
                x = flint.arb(g.numerator) / g.denominator
                v, s, ds = value(x), slope(x), dslope(x)
            assert abs(as_mpf(v) - ref(gm)) < mpmath.mpf(10) ** -25 * ref(gm)
            d1 = mpmath.diff(ref, gm)
            d2 = mpmath.diff(ref, gm, 2)
            assert abs(as_mpf(s) - d1) < mpmath.mpf(10) ** -20 * (1 + abs(d1))
            assert abs(as_mpf(ds) - d2) < mpmath.mpf(10) ** -15 * (1 + abs(d2))


@pytest.mark.parametrize(("e", "D", "cost", "p"), CASES)
def test_sign_numerator_has_the_slopes_sign(e, D, cost, p):
    m = Staircase(eps=str(e), Delta=str(D))
    coefficients = sign_numerator(m, parse_cost(cost), exact_of(m), Fraction(0))
    assert coefficients is not None
    with workdps(30):
        def ref(t):
            return staircase_cost(mpmath.mpf(e.numerator) / e.denominator,
                                  mpmath.mpf(D.numerator) / D.denominator, t, p)

        signs = set()
        for g in (Fraction(1, 50), Fraction(1, 5), Fraction(1, 2), Fraction(9, 10)):
            with arb_workprec(128):
                c = coefficients()
                n = polynomial_at(c, flint.arb(g.numerator) / g.denominator)
            d1 = mpmath.diff(ref, mpmath.mpf(g.numerator) / g.denominator)
            assert (n > 0) == (d1 > 0) and (n < 0) == (d1 < 0)
            signs.add(d1 > 0)
        assert signs == {True, False}  # the optimum lies inside: both signs seen


def test_sign_numerator_needs_a_nonnegative_range():
    m = Staircase(eps=1, Delta=1)
    assert sign_numerator(m, parse_cost("amplitude"), exact_of(m), Fraction(-1)) is None


def test_fractions_are_exactly_the_slope():
    g = Staircase.free.symbol
    cost = parse_cost("amplitude")
    coeffs, const, factors = slope_fraction(Staircase.engine, cost)
    num = sum(c * g**i for i, c in enumerate(coeffs))
    den = const * sp.Mul(*(f**k for f, k in factors))
    assert sp.simplify(num / den - sp.diff(Staircase.cost_function(cost), g)) == 0
    (vn, vd), (sn, sd) = cost_fraction(Staircase.engine, cost)
    value = sum(c * g**i for i, c in enumerate(vn)) / sum(c * g**i for i, c in enumerate(vd))
    assert sp.simplify(value - Staircase.cost_function(cost)) == 0
    assert all(g not in sp.sympify(c).free_symbols for c in vn + vd + sn + sd)


def test_not_rational_in_gamma():
    cost = parse_cost("moment:3/2")  # a Lerch sum: not rational in gamma
    assert cost_fraction(Staircase.engine, cost) is None
    m = Staircase(eps=1, Delta=1)
    assert rational_functions(m, cost, exact_of(m)) is None


@pytest.mark.parametrize(("e", "bits"), [("1/2", 0), ("1", 1), ("3", 2), ("1000", 10),
                                         ("1e30", 100)])
def test_eps_bits(e, bits):
    assert eps_bits(Staircase(eps=e, Delta=1)) == bits


def test_eps_bits_without_eps():
    assert eps_bits(DiscreteUniform(delta="1/10", Delta=1)) == 0
