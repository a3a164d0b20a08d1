r"""The interval minimiser's functions of the free parameter, from a family's sympy cost.

:func:`dpsym.certified.evaluation.interval_plan` compiles the cost :math:`V(\gamma)`, its slope
:math:`s = V^{\prime}` and :math:`s^{\prime}` to ball functions (:mod:`dpsym.certified.intervals`).
Where they are
rational in :math:`\gamma` (the staircase's integer moments), this module writes them as
ratios of polynomials in :math:`\gamma` whose coefficients (expressions in the exact
parameters and :math:`b = e^{-\varepsilon}`, each factored so that :math:`(1 - b)^k`
stays a product) are evaluated once per working precision, and the functions by
Horner's scheme (:func:`dpsym.certified.intervals.polynomial_at`): about ten times faster than the
expression's own code, and no symbolic derivative. It also gives the slope's *sign
polynomial* (:func:`sign_numerator`): the slope's numerator times the proven sign of its
denominator, which lets the covering cross any number of decades
(:func:`dpsym.certified.intervals.tropical_covering`).
"""

from __future__ import annotations

from collections.abc import Callable
from fractions import Fraction
from functools import lru_cache
from typing import Any, TypeVar

import flint
import sympy as sp

from dpsym.certified.balls import BallFunction, BallLike, BallMap
from dpsym.certified.intervals import polynomial_at
from dpsym.core.costs import Cost
from dpsym.core.expressions import approximation
from dpsym.precision import arb_workprec
from dpsym.symbolic.engine import Family

T = TypeVar("T")


def _fraction(expr: sp.Expr, g: sp.Symbol) -> tuple[list, list] | None:
    """(numerator, denominator) coefficients of ``expr`` in ascending powers of ``g``
    (sympy expressions free of ``g``), or None where it is not rational in ``g``."""
    num, den = sp.fraction(sp.together(expr))
    try:
        polys = [sp.Poly(part, g) for part in (num, den)]
    except sp.PolynomialError:
        return None
    if any(g in c.free_symbols for p in polys for c in p.coeffs()):
        return None
    num_c, den_c = ([sp.factor(c) for c in reversed(p.all_coeffs())] for p in polys)
    return num_c, den_c


@lru_cache(maxsize=256)
def slope_fraction(fam: Family, cost: Cost) -> tuple[list, sp.Expr, list] | None:
    """The slope as a fraction: the coefficients of its numerator in ascending powers of
    the free parameter (each factored), and the constant and factors of its denominator
    (``sympy.factor_list``); None where the numerator is not a polynomial in it."""
    assert fam.free is not None  # called for a family with a free parameter
    g = fam.free.symbol
    num, den = sp.fraction(sp.together(fam.slope_function(cost)))
    try:
        poly = sp.Poly(num, g)
    except sp.PolynomialError:
        return None
    if any(g in c.free_symbols for c in poly.coeffs()):
        return None
    const, factors = sp.factor_list(den)
    return [sp.factor(c) for c in reversed(poly.all_coeffs())], const, factors


@lru_cache(maxsize=256)
def cost_fraction(fam: Family, cost: Cost) -> tuple[tuple[list, list], tuple[list, list]] | None:
    """(cost, slope) as (numerator, denominator) coefficient lists in the free parameter
    (:func:`_fraction`), or None."""
    assert fam.free is not None  # called for a family with a free parameter
    g = fam.free.symbol
    value, slope = _fraction(fam.cost_function(cost), g), _fraction(fam.slope_function(cost), g)
    return None if value is None or slope is None else (value, slope)


def _ball_sign(x: flint.arb | sp.Expr) -> int:
    return 1 if x > 0 else -1 if x < 0 else 0


class _Coefficients:
    """Ball values of constant expressions, computed once per working precision."""

    def __init__(self, functions: list[BallFunction]) -> None:
        self._functions = functions
        self._cache: dict[int, list[flint.arb]] = {}

    def __call__(self) -> list[flint.arb]:
        prec = flint.ctx.prec
        if prec not in self._cache:
            zero = flint.arb(0)
            self._cache[prec] = [f(zero) for f in self._functions]
        return self._cache[prec]


def _all(found: list[T | None]) -> list[T] | None:
    """The items, or None if one of them is None."""
    kept = [f for f in found if f is not None]
    return kept if len(kept) == len(found) else None


def _coefficients(exprs: list, exact: dict, g: sp.Symbol) -> _Coefficients | None:
    functions = _all([BallFunction.prepare(e, exact, g) for e in exprs])
    return None if functions is None else _Coefficients(functions)


def _derivative(c: list[flint.arb]) -> list[flint.arb]:
    return [k * c[k] for k in range(1, len(c))] or [flint.arb(0)]


def rational_functions(m: Any, cost: Cost, exact: dict
                       ) -> tuple[BallMap, BallMap, BallMap] | None:
    r"""(cost, slope, slope derivative) as ball functions of the free parameter, each a
    ratio of polynomials evaluated by Horner's scheme on coefficients computed once per
    precision (:math:`s^{\prime} = (N^{\prime} D - N D^{\prime})/D^2` from the slope :math:`N/D`);
    None where the
    cost or the slope is not rational in the free parameter or a coefficient is not
    compiled."""
    parts = cost_fraction(m.engine, cost)
    if parts is None:
        return None
    g = m.free.symbol
    coeffs = _all([_coefficients(side, exact, g) for part in parts for side in part])
    if coeffs is None:
        return None
    vn, vd, sn, sd = coeffs

    def value(x: BallLike) -> BallLike:
        return polynomial_at(vn(), x) / polynomial_at(vd(), x)

    def slope(x: BallLike) -> BallLike:
        return polynomial_at(sn(), x) / polynomial_at(sd(), x)

    def dslope(x: BallLike) -> BallLike:
        n, d = sn(), sd()
        den = polynomial_at(d, x)
        return (polynomial_at(_derivative(n), x) * den
                - polynomial_at(n, x) * polynomial_at(_derivative(d), x)) / (den * den)

    return value, slope, dslope


def sign_numerator(m: Any, cost: Cost, exact: dict, lo: Fraction
                   ) -> Callable[[], list] | None:
    r"""The coefficients of the slope's numerator times the sign of its denominator on
    :math:`(lo, hi]`, :math:`lo \ge 0`, as a function of the working precision (the
    :attr:`~dpsym.certified.intervals.CompiledCost.numerator` of the interval minimiser); None
    unless every factor of the denominator is a constant of proven sign or a polynomial
    in the free parameter whose coefficients share one proven sign, its constant term
    nonzero (so it does not vanish on :math:`[0, \infty)`)."""
    parts = None if lo < 0 else slope_fraction(m.engine, cost)
    if parts is None:
        return None
    g = m.free.symbol
    coeffs, const, factors = parts
    functions = _all([BallFunction.prepare(c, exact, g) for c in coeffs])
    if functions is None:
        return None
    sign = _ball_sign(const)
    with arb_workprec(64 + eps_bits(m)):
        for factor, power in factors:
            if g not in factor.free_symbols:
                signs = [factor]
            else:
                try:
                    signs = sp.Poly(factor, g).all_coeffs()
                except sp.PolynomialError:
                    return None
            balls = _all([BallFunction.prepare(s, exact, g) for s in signs])
            if balls is None:
                return None
            found = [_ball_sign(f(flint.arb(0))) if not s.is_zero else 0
                     for f, s in zip(balls, signs, strict=True)]
            nonzero = {s for s in found if s}
            if len(nonzero) != 1 or not found[-1] or any(
                    not s and not c.is_zero for s, c in zip(found, signs, strict=True)):
                return None
            sign *= nonzero.pop() ** int(power)
    if not sign:
        return None
    plain = _Coefficients(functions)
    return lambda: [sign * c for c in plain()]


def eps_bits(m: Any) -> int:
    r"""About :math:`\log_2 \varepsilon` for :math:`\varepsilon > 1` (else 0): the bits
    that :math:`b = e^{-\varepsilon}` needs beyond its own (Arb's exponent)."""
    e = m.values.get("eps")
    if e is None:
        return 0
    e = e if isinstance(e, Fraction) else approximation(e)
    return max(0, int(e).bit_length())


__all__ = ["cost_fraction", "eps_bits", "rational_functions", "sign_numerator",
           "slope_fraction"]
