r"""The symbolic engine: everything a noise family's definition determines, derived once.

A *family* is a class that declares a noise density or mass function
(``noise_shape()``: a :class:`~dpsym.symbolic.noise.SymmetricNoise`, possibly with the unknown
normalising constant :data:`~dpsym.symbols.NORM`), the conditions that fix its derived
parameters (``conditions()``), its free parameter (``free``) and its declared parameters
(``params``) -- the mechanisms of :mod:`dpsym.mechanisms`. The functions here take the
family as their first argument and derive:

* the calibration: :data:`~dpsym.symbols.NORM` solved from total mass one, then each
  derived parameter from its condition (:func:`calibration`);
* the expected cost :math:`\mathbb{E}|X|^p` for every :math:`p > 0` as a function of the
  free parameter (:func:`moment`, :func:`cost_function`) and its slope
  (:func:`slope_function`);
* the optimal free parameter in closed form, verified at exact points, and the optimal
  cost (:func:`optimal_parameter`, :func:`optimal_cost`);
* the closed form of every quantity (:func:`formula`) and its asymptotic series in every
  regime (:func:`series`).

Each function is a :func:`~dpsym.symbolic.cache.derivation`: computed once per family and
arguments, and read from the generated module :mod:`dpsym.symbolic._derived` when that is current.
Steps that a family may refine (``calibration``, ``cost_function``, ``optimal_root``,
``formula``...) are reached through the family's own methods, so that a family overriding
one of them (the engine of the :math:`d`-dimensional staircase) is followed by every later
step.
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import cache
from typing import Protocol

import mpmath
import sympy as sp

from dpsym.core.costs import Cost, parse_cost
from dpsym.core.params import Derived, FreeParameter, Param
from dpsym.errors import NoClosedFormError, UnsupportedError
from dpsym.symbolic.asymptotics import minimiser_series
from dpsym.symbolic.cache import derivation, memoised
from dpsym.symbolic.noise import SymmetricNoise
from dpsym.symbolic.optimize import AlgebraicRoot, closed_form_minimiser
from dpsym.symbolic.regimes import ascending, get_regime
from dpsym.symbolic.sums import LerchSum, LowerGammaStar
from dpsym.symbolic.tidy import factor as tidy_factor
from dpsym.symbolic.tidy import shortest, tidy
from dpsym.symbols import NORM, Delta, b, eps, p


class Family(Protocol):
    """A noise family: an object with ``noise_shape``, ``conditions``, ``params``, ``free``,
    ``derived`` and ``lattice``, and the steps of this module reached through its own
    methods -- the engine component of a mechanism class
    (:class:`dpsym.mechanisms.base.Engine`, ``Staircase.engine``), which a family may
    subclass to refine a step. Its ``mechanism`` is the class whose name keys the
    derivation cache (:func:`dpsym.symbolic.cache.derivation`)."""

    @property
    def name(self) -> str: ...
    @property
    def lattice(self) -> bool: ...
    @property
    def params(self) -> tuple[Param, ...]: ...
    @property
    def free(self) -> FreeParameter | None: ...
    @property
    def derived(self) -> tuple[Derived, ...]: ...

    def noise_shape(self) -> SymmetricNoise: ...
    def conditions(self) -> tuple[tuple[sp.Symbol, sp.Expr, sp.Expr], ...]: ...
    def check_quantity(self, quantity: str) -> str: ...
    def calibration(self) -> dict[sp.Symbol, sp.Expr]: ...
    def noise(self) -> SymmetricNoise: ...
    def derived_numeric(self, symbol: sp.Symbol, point: Mapping[sp.Symbol, object]
                        ) -> mpmath.mpf: ...
    def closed_form(self, quantity: str, cost: Cost) -> sp.Expr | None: ...
    def moment(self, power: sp.Expr) -> sp.Expr: ...
    def cost_function(self, cost: Cost | str) -> sp.Expr: ...
    def slope_function(self, cost: Cost | str) -> sp.Expr: ...
    def test_points(self) -> list[dict[sp.Symbol, sp.Expr]]: ...
    def optimal_root(self, cost: Cost | str) -> AlgebraicRoot | None: ...
    def optimal_parameter(self, cost: Cost | str) -> sp.Expr | None: ...
    def optimal_cost(self, cost: Cost | str) -> sp.Expr | None: ...
    def formula(self, quantity: str = "cost", cost: Cost | str = "amplitude") -> sp.Expr: ...

    def derived_form(self, quantity: str = "cost", cost: Cost | str = "amplitude"
                     ) -> sp.Expr: ...


#: Largest exponent of a term of a sum of powers given a closed form (``moment:P``'s bound).
MAX_TERM_POWER = 20

#: Rational test points (b = e^{-eps}) at which a closed-form minimiser is checked.
TEST_B = (sp.Rational(1, 10), sp.Rational(1, 2), sp.Rational(9, 10), sp.Rational(1, 1000))


@memoised(256)
def solve_for(equation: sp.Expr, symbol: sp.Symbol) -> sp.Expr:
    """The unique solution of ``equation = 0`` for ``symbol``, in the generic case.

    Sympy returns conditional solutions as ``Piecewise``; the conditions exclude
    degenerate parameter values (a zero denominator), so the first branch is taken. Kept
    per arguments (:func:`dpsym.symbolic.cache.memoised`: each family declared with the
    same density solves the same normalisation).

    Raises
    ------
    UnsupportedError
        If sympy finds no solution or several.
    """
    solutions = sp.solve(equation, symbol, dict=False)
    if len(solutions) != 1:
        raise UnsupportedError(f"cannot solve the definition for {symbol}: {solutions}")
    (solution,) = solutions
    if isinstance(solution, sp.Piecewise):
        solution = solution.args[0].expr
    return tidy(solution)


@derivation
def calibration(fam: Family) -> dict[sp.Symbol, sp.Expr]:
    """Closed forms of :data:`~dpsym.symbols.NORM` and the derived parameters, solved from
    the normalisation and the family's ``conditions()`` in order (numeric-only parameters
    are left out)."""
    shape = fam.noise_shape()
    solved: dict[sp.Symbol, sp.Expr] = {}
    equations = [(NORM, shape.total_mass(), sp.Integer(1))] \
        if NORM in shape.free_symbols() else []
    equations += list(fam.conditions())
    for symbol, lhs, rhs in equations:
        equation = sp.together(sp.sympify(lhs).subs(solved) - rhs)
        solution = solve_for(equation, symbol)
        solved = {s: tidy(e.subs(symbol, solution)) for s, e in solved.items()}
        solved[symbol] = solution
    return solved


def normalisation(fam: Family) -> sp.Expr | None:
    """The normalising constant solved from total mass = 1 (None if none is needed)."""
    return fam.calibration().get(NORM)


@cache
def noise(fam: Family) -> SymmetricNoise:
    """The normalised noise distribution, every derived parameter with a closed form
    substituted."""
    return fam.noise_shape().subs(fam.calibration())


@derivation
def moment(fam: Family, power: sp.Expr) -> sp.Expr:
    r"""The expected cost :math:`\mathbb{E}|X|^p` as a function of the free parameter."""
    power = sp.sympify(power)
    if power.is_Rational and not power.is_Integer and not fam.lattice:
        # one derivation for every non-integer exponent: sympy integrates x^p e^{-x/l}
        # over [0, A] at once for a symbolic p (an incomplete gamma function), but for
        # p = 29/4 not in ten minutes, and for a half-integer p it expands into erf and
        # exponentials that cancel catastrophically as A/l -> 0
        expr = fam.moment(p).xreplace({p: power})
        # one fraction: sums over adjacent periods cancel (see dpsym.symbolic.sums.LerchSum)
        return sp.factor(expr) if expr.has(LerchSum) else expr
    # integrate with the derived parameters as symbols, substitute them afterwards:
    # their closed forms (logarithms) then stay single atoms of the result
    expr = fam.noise_shape().moment(power)
    if power.is_Symbol:
        expr = _entire_incomplete_gamma(expr)
    expr = expr.subs(fam.calibration())
    if power.is_Integer:
        return tidy_factor(expr)
    return expr


def _entire_incomplete_gamma(expr: sp.Expr) -> sp.Expr:
    r"""``expr`` with every :math:`\gamma(a, z)` written as
    :math:`\Gamma(a)\,z^a\,\gamma^*(a, z)` (:class:`~dpsym.symbolic.sums.LowerGammaStar`, which
    is never expanded into cancelling elementary terms and is evaluated stably)."""
    return expr.replace(
        lambda e: isinstance(e, sp.lowergamma),
        lambda e: sp.gamma(e.args[0]) * e.args[1] ** e.args[0]
        * LowerGammaStar(e.args[0], e.args[1]))


def cost_function(fam: Family, cost: Cost | str) -> sp.Expr:
    r"""The expected ``cost`` as a function of the free parameter (if any): a moment
    :math:`\mathbb{E}|X|^p`, or for a sum of powers :math:`L = \sum_i c_i |x|^{p_i}` the
    sum :math:`\sum_i c_i \mathbb{E}|X|^{p_i}` (:math:`p_i = 0`: :math:`c_i`).

    Raises
    ------
    NoClosedFormError
        For any other cost (a cost with a cut, ``min(abs(x), 3)``, or one that is not a
        sum of powers of :math:`|x|`, ``log(1 + abs(x))``: no closed form).
    """
    cost = parse_cost(cost)
    if cost.is_power:
        return fam.moment(cost.exponent)
    terms = cost.terms
    if terms is not None and all(p <= MAX_TERM_POWER for _, p in terms):
        return sp.Add(*[c * (fam.moment(p) if p > 0 else sp.Integer(1)) for c, p in terms])
    return piecewise_cost(fam, cost)


@derivation
def piecewise_cost(fam: Family, cost: Cost) -> sp.Expr:
    r"""The expected cost of a cost cut into generalised polynomials (``min(abs(x), 3)``,
    ``abs(x) > 2``) over the family's explicit pieces
    (:meth:`dpsym.symbolic.noise.SymmetricNoise.expected_cost`).

    Raises
    ------
    NoClosedFormError
        For a piece that is not a sum of powers of :math:`|x|` (``log(1 + abs(x))``), or
        a noise with a geometric tail.
    """
    shape = cost.shape
    if not shape.piecewise_polynomial or any(p > MAX_TERM_POWER for pc in shape.pieces
                                             for _, p in pc.polynomial_terms):
        raise NoClosedFormError(
            f"{fam.name}: the cost {cost.name} is not a sum of powers of |x| on each piece "
            f"(of exponents at most {MAX_TERM_POWER}): no closed form; its values are "
            "certified numerically")
    pieces = tuple((pc.lo, pc.hi, pc.polynomial_terms) for pc in shape.pieces)
    try:
        expr = fam.noise_shape().expected_cost(shape.cuts, shape.values, pieces)
    except NoClosedFormError as err:
        raise NoClosedFormError(f"{fam.name}, cost {cost.name}: {err}") from None
    return expr.subs(fam.calibration())


@derivation
def slope_function(fam: Family, cost: Cost | str) -> sp.Expr:
    r"""The derivative of the cost in the free parameter, in a cancellation-safe form.

    For a rational cost the derivative is written as one fraction with an expanded
    numerator: differentiating the quotient term by term would cancel catastrophically
    near a minimiser close to 0 (at :math:`\varepsilon = 700`, :math:`\gamma^*` is about
    :math:`10^{-76}`).
    """
    assert fam.free is not None
    value = fam.cost_function(cost)
    slope = sp.diff(value, fam.free.symbol)
    if value.is_rational_function(fam.free.symbol):
        num, den = sp.fraction(sp.together(slope))
        return sp.expand(num) / sp.factor(den)
    return slope


def test_points(fam: Family) -> list[dict[sp.Symbol, sp.Expr]]:
    """Exact parameter points at which closed forms are checked against numerics."""
    out = []
    for bb in TEST_B:
        point: dict[sp.Symbol, sp.Expr] = {b: bb, eps: -sp.log(bb)}
        for prm in fam.params:
            if prm.symbol is Delta:
                point[Delta] = sp.Integer(1) if fam.lattice else sp.Rational(3, 2)
            elif prm.symbol is not eps:
                lo, hi = (sp.Rational(str(v)) for v in prm.typical)
                point[prm.symbol] = (lo + hi) / 2
        out.append(point)
    return out


@cache
def optimal_root(fam: Family, cost: Cost | str) -> AlgebraicRoot | None:
    """The minimiser of the cost over a continuous free parameter as a verified algebraic
    root (:func:`dpsym.symbolic.optimize.closed_form_minimiser`), or None (always for a
    cost other than a power: its minimiser is certified numerically)."""
    if fam.free is None or fam.free.integer or not parse_cost(cost).is_power:
        return None
    fp = fam.free
    return closed_form_minimiser(fam.cost_function(cost), fp.symbol, fp.lower, fp.upper,
                                 fam.test_points())


@derivation
def optimal_parameter(fam: Family, cost: Cost | str) -> sp.Expr | None:
    """The optimal free parameter in closed form, or None if none was found."""
    if fam.free is None:
        return None
    root = fam.optimal_root(cost)
    return None if root is None else root.expr


@derivation
def optimal_cost(fam: Family, cost: Cost | str) -> sp.Expr | None:
    """The optimal expected cost in closed form, or None if no closed form was found."""
    value = fam.cost_function(cost)
    if fam.free is None:
        return value
    root = fam.optimal_root(cost)
    if root is None:
        return None
    return root.reduce(value, fam.free.symbol)


def derived_parameter(fam: Family, quantity: str) -> Derived:
    """The declaration of the derived parameter called ``quantity``."""
    return next(d for d in fam.derived if d.name == quantity)


def derived_formula(fam: Family, quantity: str, cost: Cost) -> sp.Expr | None:
    """A derived parameter's closed form, at the optimal free parameter for ``cost``."""
    der = derived_parameter(fam, quantity)
    expr = fam.calibration().get(der.symbol)
    if expr is None or der.numeric:
        return None
    if fam.free is not None and fam.free.symbol in expr.free_symbols:
        best = fam.optimal_parameter(cost)
        if best is None:
            return None
        expr = tidy(expr.subs(fam.free.symbol, best))
    return expr


@derivation
def formula(fam: Family, quantity: str = "cost", cost: Cost | str = "amplitude"
            ) -> sp.Expr:
    """The closed form of ``quantity`` for ``cost``, in the symbols of :mod:`dpsym.symbols`:
    the shortest form proven equal to the derived one (:func:`dpsym.symbolic.tidy.shortest`;
    the values and expansions are computed from the derived form, :func:`derived_form`).

    Raises
    ------
    UnsupportedError
        If no closed form is known (the value is then computed numerically).
    """
    return shortest(fam.derived_form(quantity, cost))


def derived_form(fam: Family, quantity: str = "cost", cost: Cost | str = "amplitude"
                 ) -> sp.Expr:
    """The closed form of ``quantity`` for ``cost`` as the engine derives it (the form
    :func:`closed_form` evaluates and :func:`series` expands).

    Raises
    ------
    UnsupportedError
        If no closed form is known (the value is then computed numerically).
    """
    fam.check_quantity(quantity)
    cost = parse_cost(cost)
    if quantity == "cost":
        expr = fam.optimal_cost(cost)
    elif fam.free is not None and quantity == fam.free.name:
        expr = fam.optimal_parameter(cost)
    else:
        expr = derived_formula(fam, quantity, cost)
    if expr is None:
        raise UnsupportedError(
            f"{fam.name}: no closed form for {quantity} with cost {cost.name}; "
            "values are computed numerically"
        )
    return expr


@derivation
def closed_form(fam: Family, quantity: str, cost: Cost) -> sp.Expr | None:
    """``formula(quantity, cost)``, or None where there is no closed form."""
    try:
        return fam.derived_form(quantity, cost)
    except (UnsupportedError, NoClosedFormError):
        return None


def series(fam: Family, quantity: str = "cost", cost: Cost | str = "amplitude",
           regime: str = "eps->0", order: int = 3) -> sp.Expr:
    """The asymptotic expansion of ``quantity`` in ``regime`` to ``order``, as an unevaluated
    sum in increasing powers of the regime's variable, the order term last
    (:func:`dpsym.symbolic.regimes.ascending`; ``sympy.latex(s, order="none")`` or
    :func:`dpsym.reports.printing.expression_text` with ``ordered=True`` print it in that
    order). Being unevaluated, it compares equal (``==``) only to the same sum in the same
    order: ``s.doit()`` is sympy's canonical form of it, for structural comparison.

    From the closed form where one exists; otherwise, for a continuous free parameter, the
    minimiser is expanded from its optimality condition
    (:func:`dpsym.symbolic.asymptotics.minimiser_series`) and the cost along it.
    """
    reg = get_regime(regime)
    fam.check_quantity(quantity)
    cost = parse_cost(cost)
    try:
        expr = fam.derived_form(quantity, cost)
    except UnsupportedError:
        if fam.free is None or fam.free.integer:
            raise
        fp = fam.free
        gamma_series, cost_series = minimiser_series(
            fam.cost_function(cost), fp.symbol, fp.lower, fp.upper, reg, order)
        return ascending(cost_series if quantity == "cost" else gamma_series, reg.variable)
    return ascending(reg.expand(expr, order), reg.variable)


__all__ = ["MAX_TERM_POWER", "TEST_B", "calibration", "closed_form", "cost_function",
           "derived_form", "derived_formula", "derived_parameter",
           "formula", "moment", "noise", "normalisation", "optimal_cost", "optimal_parameter",
           "optimal_root", "piecewise_cost", "series", "slope_function", "solve_for",
           "test_points"]
