r"""The Mechanism contract.

A mechanism is a small declarative class: its parameters with their domains, its free
parameter (if any), and its noise density or mass function (:meth:`Mechanism.noise_shape`),
possibly with an unknown normalising constant :data:`NORM`. Everything else is derived
here from that definition:

* the normalisation (solve total mass = 1 for :data:`NORM`);
* the expected cost :math:`\mathbb{E}|X|^p` for every :math:`p > 0`, as a function of
  the free parameter;
* the optimal free parameter (closed form where one is found, otherwise a certified
  numeric minimiser) and the optimal cost;
* asymptotic series in every regime, values at any number of digits, samples, and the
  privacy profile.

Instances carry numeric parameter values (validated against the declared domains); the
symbolic derivations are shared by all instances of a class and cached.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from fractions import Fraction
from functools import cache
from types import MappingProxyType
from typing import ClassVar

import mpmath
import sympy as sp

from ..balls import BallPlan, Certified, ExactPlan
from ..cache import derivation
from ..costs import Cost, parse_cost
from ..errors import DomainError, NoClosedFormError, UnsupportedError
from ..noise import SymmetricNoise
from ..numerics import certified, check_digits, evaluate
from ..optimize import AlgebraicRoot, closed_form_minimiser, numeric_minimiser
from ..params import Domain, Param, parse_number
from ..regimes import get_regime
from ..symbols import Delta, b, eps
from ..tidy import factor as tidy_factor
from ..tidy import tidy

#: Largest privacy parameter accepted (e^{-eps} stays an ordinary mpmath number).
EPS_MAX = Fraction(10) ** 100

#: Largest number of integer values of a free parameter scanned for the optimum.
MAX_INTEGER_SCAN = 4096

#: The evaluation methods of :meth:`Mechanism.value`.
_METHODS = ("auto", "ball", "mpmath")

#: The unknown normalising constant a mechanism may leave in its density.
NORM = sp.Symbol("a_norm", positive=True)

#: Rational test points (b = e^{-eps}) at which a closed-form minimiser is checked.
_TEST_B = (sp.Rational(1, 10), sp.Rational(1, 2), sp.Rational(9, 10), sp.Rational(1, 1000))


@dataclass(frozen=True)
class FreeParameter:
    r"""The parameter a mechanism family is optimised over (the staircase's :math:`\gamma`).

    Parameters
    ----------
    name : str
        Its name, also the quantity name of its optimal value.
    symbol : sympy.Symbol
        The shared symbol.
    lower, upper : sympy.Expr
        Its range, possibly depending on the mechanism's parameters.
    integer : bool
        Whether it takes integer values only.
    """

    name: str
    symbol: sp.Symbol
    lower: sp.Expr
    upper: sp.Expr
    integer: bool = False


@dataclass(frozen=True)
class Derived:
    r"""A parameter of the noise that the mechanism's definition determines.

    The truncated Laplacian's :math:`A` and :math:`B`, a Gaussian's :math:`\sigma`, the
    half-width of a uniform density: each is fixed by a condition of the definition
    (:meth:`Mechanism.conditions`), solved symbolically by the engine where sympy can,
    and otherwise computed numerically by :meth:`Mechanism.derived_numeric`.

    Parameters
    ----------
    name : str
        Its name, also the quantity name of its value.
    symbol : sympy.Symbol
        The symbol standing for it in :meth:`Mechanism.noise_shape` (may be :data:`NORM`).
    description : str
        What it is.
    numeric : bool
        ``True`` if it has no closed form and is computed by
        :meth:`Mechanism.derived_numeric`.
    """

    name: str
    symbol: sp.Symbol
    description: str
    numeric: bool = False


class Value:
    """A certified value: the number, its decimal string and the digits asked for.

    Immutable. A value certified by ball arithmetic computes its number and text from the
    certified rounding on first access (the certificate itself is established before the
    value is returned).
    """

    __slots__ = ("_digits", "_number", "_source", "_text")

    def __init__(self, number: mpmath.mpf | None, text: str | None, digits: int, *,
                 source: Certified | None = None) -> None:
        if source is None and (number is None or text is None):
            raise TypeError("a Value needs its number and text, or a source")
        self._number, self._text, self._digits, self._source = number, text, digits, source

    @property
    def number(self) -> mpmath.mpf:
        """The value (an mpf; the ball's midpoint or the finer evaluation)."""
        if self._number is None:
            self._number = self._source.number()
        return self._number

    @property
    def text(self) -> str:
        """The value rounded to :attr:`digits` significant digits (every digit correct)."""
        if self._text is None:
            self._text = self._source.text()
        return self._text

    @property
    def digits(self) -> int:
        """The significant digits asked for."""
        return self._digits

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Value):
            return NotImplemented
        return (self.number, self.text, self.digits) == (other.number, other.text,
                                                          other.digits)

    def __hash__(self) -> int:
        return hash((self.text, self.digits))

    def __reduce__(self) -> tuple[type, tuple[mpmath.mpf, str, int]]:
        return Value, (self.number, self.text, self.digits)

    def __repr__(self) -> str:
        return f"Value(number={self.number!r}, text={self.text!r}, digits={self.digits!r})"


class Mechanism:
    r"""Base class of every noise-adding mechanism.

    Subclasses set the class attributes and implement :meth:`noise_shape`. Instances are
    created with numeric parameter values, e.g. ``Staircase(eps="0.5", Delta=2)``;
    missing values take their declared default or stay symbolic.

    Attributes
    ----------
    name : str
        The CLI name.
    title : str
        A human-readable title.
    source : str
        Where the mechanism is defined among the source texts.
    lattice : bool
        ``True`` for an integer-valued query (a mass function on :math:`\mathbb{Z}`).
    params : tuple of Param
        The declared parameters.
    free : FreeParameter or None
        The parameter the family is optimised over.
    """

    name: ClassVar[str]
    title: ClassVar[str]
    source: ClassVar[str] = ""
    lattice: ClassVar[bool] = False
    params: ClassVar[tuple[Param, ...]]
    free: ClassVar[FreeParameter | None] = None
    derived: ClassVar[tuple[Derived, ...]] = ()
    #: The privacy guarantee the mechanism is built for: ``"eps"`` (pure
    #: :math:`\varepsilon`-DP), ``"eps,delta"`` or ``"0,delta"``.
    guarantee: ClassVar[str] = "eps"

    # ------------------------------------------------------------------ definition
    @classmethod
    def noise_shape(cls) -> SymmetricNoise:
        """The noise density (or mass function), possibly with the unknown :data:`NORM`."""
        raise NotImplementedError

    # ------------------------------------------------------------------ instances
    def __init__(self, **values: object) -> None:
        known = {prm.name: prm for prm in self.params}
        unknown = set(values) - set(known)
        if unknown:
            name = sorted(unknown)[0]
            raise DomainError(name, f"is not a parameter of {self.name}; valid: "
                              + ", ".join(known))
        given: dict[str, Fraction] = {}
        for prm in self.params:
            if values.get(prm.name) is not None:
                given[prm.name] = self.validate(prm, values[prm.name])
            elif prm.default is not None:
                given[prm.name] = prm.validate(prm.default)
        self.check_joint(given)
        #: The parameter values (exact, read-only: an instance is its parameters).
        self.values: Mapping[str, Fraction] = MappingProxyType(given)

    def validate(self, prm: Param, value: object) -> Fraction:
        """Validate one parameter value; subclasses refine (e.g. integer sensitivity)."""
        return prm.validate(value)

    @classmethod
    def check_joint(cls, values: Mapping[str, Fraction]) -> None:
        """Constraints that involve several parameters at once (none by default)."""

    def __repr__(self) -> str:
        args = ", ".join(f"{k}={str(v)!r}" for k, v in self.values.items())
        return f"{type(self).__name__}({args})"

    @classmethod
    @cache
    def _symbols(cls) -> dict[str, sp.Symbol]:
        """The symbol of each parameter, by name."""
        return {prm.name: prm.symbol for prm in cls.params}

    @property
    def substitution(self) -> dict[sp.Symbol, sp.Rational]:
        """The instance's values as a sympy substitution (exact rationals)."""
        symbol = self._symbols()
        return {symbol[n]: sp.Rational(v.numerator, v.denominator)
                for n, v in self.values.items()}

    def require(self, *names: str) -> None:
        """Raise a :class:`DomainError` if a parameter needed numerically is missing."""
        for n in names:
            if n not in self.values:
                prm = next(q for q in self.params if q.name == n)
                raise DomainError(n, f"a value is required, in {prm.domain.describe()}")

    # ------------------------------------------------------------------ derived (symbolic)
    @classmethod
    def conditions(cls) -> tuple[tuple[sp.Symbol, sp.Expr, sp.Expr], ...]:
        r"""The defining conditions ``(symbol, lhs, rhs)`` of the derived parameters.

        Each condition :math:`\mathrm{lhs} = \mathrm{rhs}` is solved for ``symbol``, in
        order, after total mass = 1 has been solved for :data:`NORM`; earlier solutions
        are substituted into later conditions. None by default.
        """
        return ()

    @classmethod
    def derived_numeric(cls, symbol: sp.Symbol, point: Mapping[sp.Symbol, object]
                        ) -> mpmath.mpf:
        """The value of a derived parameter without closed form, at the working precision."""
        raise NotImplementedError(f"{cls.name}: no numeric solver for {symbol}")

    @classmethod
    @derivation
    def calibration(cls) -> dict[sp.Symbol, sp.Expr]:
        """Closed forms of :data:`NORM` and the derived parameters, solved from the
        normalisation and :meth:`conditions` (numeric-only parameters are left out)."""
        shape = cls.noise_shape()
        solved: dict[sp.Symbol, sp.Expr] = {}
        equations = [(NORM, shape.total_mass(), sp.Integer(1))] \
            if NORM in shape.free_symbols() else []
        equations += list(cls.conditions())
        for symbol, lhs, rhs in equations:
            equation = sp.together(sp.sympify(lhs).subs(solved) - rhs)
            solution = _solve_for(equation, symbol)
            solved = {s: tidy(e.subs(symbol, solution)) for s, e in solved.items()}
            solved[symbol] = solution
        return solved

    @classmethod
    def normalisation(cls) -> sp.Expr | None:
        """The normalising constant solved from total mass = 1 (None if none is needed)."""
        return cls.calibration().get(NORM)

    @classmethod
    @cache
    def noise(cls) -> SymmetricNoise:
        """The normalised noise distribution, every derived parameter with a closed form
        substituted."""
        return cls.noise_shape().subs(cls.calibration())

    @classmethod
    @derivation
    def moment(cls, power: sp.Expr) -> sp.Expr:
        r"""The expected cost :math:`\mathbb{E}|X|^p` as a function of the free parameter."""
        power = sp.sympify(power)
        # integrate with the derived parameters as symbols, substitute them afterwards:
        # their closed forms (logarithms) then stay single atoms of the result
        expr = cls.noise_shape().moment(power).subs(cls.calibration())
        if power.is_Integer:
            return tidy_factor(expr)
        return expr

    @classmethod
    def cost_function(cls, cost: Cost | str) -> sp.Expr:
        """The expected ``cost`` as a function of the free parameter (if any)."""
        return cls.moment(parse_cost(cost).exponent)

    @classmethod
    @derivation
    def slope_function(cls, cost: Cost | str) -> sp.Expr:
        r"""The derivative of the cost in the free parameter, in a cancellation-safe form.

        For a rational cost the derivative is written as one fraction with an expanded
        numerator: differentiating the quotient term by term would cancel catastrophically
        near a minimiser close to 0 (at :math:`\varepsilon = 700`, :math:`\gamma^*` is
        about :math:`10^{-76}`).
        """
        assert cls.free is not None
        value = cls.cost_function(cost)
        slope = sp.diff(value, cls.free.symbol)
        if value.is_rational_function(cls.free.symbol):
            num, den = sp.fraction(sp.together(slope))
            return sp.expand(num) / sp.factor(den)
        return slope

    @classmethod
    def test_points(cls) -> list[dict[sp.Symbol, sp.Expr]]:
        """Exact parameter points at which closed forms are checked against numerics."""
        out = []
        for bb in _TEST_B:
            point: dict[sp.Symbol, sp.Expr] = {b: bb, eps: -sp.log(bb)}
            for prm in cls.params:
                if prm.symbol is Delta:
                    point[Delta] = sp.Integer(1) if cls.lattice else sp.Rational(3, 2)
                elif prm.symbol is not eps:
                    lo, hi = (sp.Rational(str(v)) for v in prm.typical)
                    point[prm.symbol] = (lo + hi) / 2
            out.append(point)
        return out

    @classmethod
    @derivation
    def optimal_parameter(cls, cost: Cost | str) -> sp.Expr | None:
        """The optimal free parameter in closed form, or None if none was found."""
        if cls.free is None:
            return None
        root = cls._optimal_root(cost)
        return None if root is None else root.expr

    @classmethod
    @cache
    def _optimal_root(cls, cost: Cost | str) -> AlgebraicRoot | None:
        if cls.free is None or cls.free.integer:
            return None
        fp = cls.free
        return closed_form_minimiser(cls.cost_function(cost), fp.symbol, fp.lower, fp.upper,
                                     cls.test_points())

    @classmethod
    @derivation
    def optimal_cost(cls, cost: Cost | str) -> sp.Expr | None:
        """The optimal expected cost in closed form, or None if no closed form was found."""
        value = cls.cost_function(cost)
        if cls.free is None:
            return value
        root = cls._optimal_root(cost)
        if root is None:
            return None
        return root.reduce(value, cls.free.symbol)

    # ------------------------------------------------------------------ quantities
    @classmethod
    @cache
    def quantities(cls) -> tuple[str, ...]:
        """The quantity names: ``cost``, the free parameter's and the derived parameters'."""
        return (("cost",) + (() if cls.free is None else (cls.free.name,))
                + tuple(d.name for d in cls.derived))

    @classmethod
    def check_quantity(cls, quantity: str) -> str:
        """Validate a quantity name."""
        if quantity not in cls.quantities():
            raise DomainError(
                "quantity", f"unknown quantity {str(quantity)[:40]!r} for {cls.name}; "
                f"valid: {', '.join(cls.quantities())}"
            )
        return quantity

    @classmethod
    def formula(cls, quantity: str = "cost", cost: Cost | str = "amplitude") -> sp.Expr:
        """The closed form of ``quantity`` for ``cost``, in the symbols of :mod:`dpsym.symbols`.

        Raises
        ------
        UnsupportedError
            If no closed form is known (the value is then computed numerically).
        """
        cls.check_quantity(quantity)
        cost = parse_cost(cost)
        if quantity == "cost":
            expr = cls.optimal_cost(cost)
        elif cls.free is not None and quantity == cls.free.name:
            expr = cls.optimal_parameter(cost)
        else:
            expr = cls._derived_formula(quantity, cost)
        if expr is None:
            raise UnsupportedError(
                f"{cls.name}: no closed form for {quantity} with cost {cost.name}; "
                "values are computed numerically"
            )
        return expr

    @classmethod
    def _derived(cls, quantity: str) -> Derived:
        return next(d for d in cls.derived if d.name == quantity)

    @classmethod
    def _derived_formula(cls, quantity: str, cost: Cost) -> sp.Expr | None:
        """A derived parameter's closed form, at the optimal free parameter for ``cost``."""
        der = cls._derived(quantity)
        expr = cls.calibration().get(der.symbol)
        if expr is None or der.numeric:
            return None
        if cls.free is not None and cls.free.symbol in expr.free_symbols:
            best = cls.optimal_parameter(cost)
            if best is None:
                return None
            expr = tidy(expr.subs(cls.free.symbol, best))
        return expr

    @classmethod
    def series(cls, quantity: str = "cost", cost: Cost | str = "amplitude",
               regime: str = "eps->0", order: int = 3) -> sp.Expr:
        """The asymptotic expansion of ``quantity`` in ``regime`` to ``order``.

        From the closed form where one exists; otherwise, for a continuous free
        parameter, the minimiser is expanded from its optimality condition
        (:func:`dpsym.asymptotics.minimiser_series`) and the cost along it.
        """
        reg = get_regime(regime)
        cls.check_quantity(quantity)
        cost = parse_cost(cost)
        try:
            expr = cls.formula(quantity, cost)
        except UnsupportedError:
            if cls.free is None or cls.free.integer:
                raise
            from ..asymptotics import minimiser_series

            fp = cls.free
            gamma_series, cost_series = minimiser_series(
                cls.cost_function(cost), fp.symbol, fp.lower, fp.upper, reg, order)
            return cost_series if quantity == "cost" else gamma_series
        return reg.expand(expr, order)

    # ------------------------------------------------------------------ numeric
    def _numeric_point(self) -> dict[sp.Symbol, object]:
        """The parameter values, and every numeric-only derived parameter at the working
        precision."""
        self.require(*(prm.name for prm in self.params))
        point: dict[sp.Symbol, object] = dict(self.substitution)
        for der in self.derived:
            if der.numeric:
                point[der.symbol] = self.derived_numeric(der.symbol, point)
        return point

    def _free_range(self, point: Mapping) -> tuple[mpmath.mpf, mpmath.mpf]:
        assert self.free is not None
        return evaluate(self.free.lower, point), evaluate(self.free.upper, point)

    def _cost_at(self, cost: Cost, point: Mapping) -> Callable[[object], mpmath.mpf]:
        """The expected cost as a numeric function of the free parameter at ``point``.

        Uses the class's symbolic cost function; where none exists in closed form (a
        non-integer moment of a lattice tail) the description is made numeric first.
        """
        sym = None if self.free is None else self.free.symbol
        try:
            expr = self.cost_function(cost)
        except NoClosedFormError:
            def direct(t):
                values = dict(point) if sym is None else {**point, sym: sp.Integer(int(t))}
                return evaluate(self.noise().subs(values).moment(cost.exponent), point)
            return direct
        return lambda t: evaluate(expr, point if sym is None else {**point, sym: t})

    def _numeric_optimum(self, cost: Cost, hint: mpmath.mpf | None = None
                         ) -> tuple[mpmath.mpf | None, mpmath.mpf]:
        """(optimal free parameter, optimal cost) at the working precision.

        ``hint`` is the optimal parameter found at a lower precision, if any.
        """
        point = self._numeric_point()
        cost_at = self._cost_at(cost, point)
        if self.free is None:
            return None, cost_at(None)
        fp = self.free
        lo, hi = self._free_range(point)
        if fp.integer:
            lo_i, hi_i = int(mpmath.ceil(lo)), int(mpmath.floor(hi))
            if hi_i - lo_i > MAX_INTEGER_SCAN:
                raise UnsupportedError(
                    f"{self.name}: more than {MAX_INTEGER_SCAN} values of {fp.name} to scan"
                )
            best = min(range(lo_i, hi_i + 1), key=cost_at)
            return mpmath.mpf(best), cost_at(best)
        closed = self.optimal_parameter(cost)
        if closed is not None:
            t = evaluate(closed, point)
            closed_cost = self.optimal_cost(cost)
            return t, evaluate(closed_cost, point)
        slope_expr = self.slope_function(cost)
        t = numeric_minimiser(cost_at, lambda s: evaluate(slope_expr, {**point, fp.symbol: s}),
                              lo, hi, hint)
        return t, cost_at(t)

    def value(self, quantity: str = "cost", cost: Cost | str = "amplitude",
              digits: int = 30, *, method: str = "auto") -> Value:
        r"""``quantity`` at this instance's parameters, certified to ``digits`` digits.

        Parameters
        ----------
        quantity : str
            ``cost``, the free parameter's name or a derived parameter's name.
        cost : Cost or str
            The cost the family is optimised for.
        digits : int
            Significant digits, each one certified.
        method : {"auto", "ball", "mpmath"}
            ``"ball"``: one rigorous evaluation of the closed form in ball arithmetic
            (:mod:`dpsym.balls`); ``"mpmath"``: the engine's numeric path (closed form or
            certified minimiser) evaluated at two working precisions that must agree
            (:func:`dpsym.numerics.certified`); ``"auto"`` (default): the ball path where
            the quantity has a closed form it handles, otherwise the mpmath path. A
            closed form that is rational in the (exact) parameters is evaluated exactly
            and rounded exactly, whichever the method.

        Raises
        ------
        DomainError
            For a missing parameter, an unknown quantity, an invalid ``digits`` or
            ``method``.
        UnsupportedError
            With ``method="ball"``, if the quantity has no closed form the ball path
            handles at these parameters.
        CertificationError
            If the value cannot be certified.
        """
        self.check_quantity(quantity)
        cost = parse_cost(cost)
        self._specific(cost)
        if method not in _METHODS:
            raise DomainError("method", f"must be one of {', '.join(_METHODS)}, "
                              f"got {str(method)[:40]!r}")
        digits = check_digits(digits)
        plan = self._ball_plan(quantity, cost)
        # an exact rational value is rounded exactly whatever the method
        if plan is not None and (method != "mpmath" or isinstance(plan, ExactPlan)):
            found_ball = plan(digits)
            if found_ball is not None:
                return Value(None, None, digits, source=found_ball)
        if method == "ball":
            raise UnsupportedError(
                f"{self.name}: {quantity} (cost {cost.name}) has no closed form that "
                "ball arithmetic evaluates at these parameters; use method 'mpmath'")

        found: list[mpmath.mpf | None] = [None]

        def compute() -> mpmath.mpf:
            t, v = self._numeric_optimum(cost, found[0])
            found[0] = t
            if quantity == "cost":
                return v
            if self.free is not None and quantity == self.free.name:
                return t
            return self._derived_value(quantity, t)

        number, text = certified(compute, digits, allow_zero=quantity != "cost",
                                 guard=self._guard_digits(cost))
        if self.free is not None and quantity == self.free.name and self.free.integer:
            text = str(int(number))
        return Value(number, text, digits)

    @classmethod
    def _specific(cls, cost: Cost) -> None:
        """Raise :class:`UnsupportedError` for a cost the family does not define (every
        cost is defined by default)."""

    @classmethod
    @derivation
    def _closed_form(cls, quantity: str, cost: Cost) -> sp.Expr | None:
        """``formula(quantity, cost)``, or None where there is no closed form."""
        try:
            return cls.formula(quantity, cost)
        except (UnsupportedError, NoClosedFormError):
            return None

    def _ball_plan(self, quantity: str, cost: Cost) -> BallPlan | ExactPlan | None:
        """The closed form of ``quantity`` prepared at this instance's parameters
        (:class:`dpsym.balls.BallPlan`: discrete parts decided, code compiled; an
        :class:`~dpsym.balls.ExactPlan` for an exact rational value), or None where there
        is no closed form the balls handle. Prepared once per instance (whose parameters
        are read-only)."""
        plans = self.__dict__.setdefault("_ball_plans", {})
        key = (quantity, cost.name)
        if key not in plans:
            self.require(*(prm.name for prm in self.params))
            plans[key] = None
            if not (self.free is not None and self.free.integer):
                expr = self._closed_form(quantity, cost)
                if expr is not None:
                    symbol = self._symbols()
                    exact = {symbol[n]: v for n, v in self.values.items()}
                    plans[key] = BallPlan.prepare(expr, exact, allow_zero=quantity != "cost",
                                                  guard_digits=self._guard_digits(cost))
        return plans[key]

    def __getstate__(self) -> dict[str, object]:
        """The instance's state without its prepared plans (compiled code)."""
        state = {k: v for k, v in self.__dict__.items() if k != "_ball_plans"}
        state["values"] = dict(self.values)
        return state

    def __setstate__(self, state: dict[str, object]) -> None:
        self.__dict__.update(state)
        self.values = MappingProxyType(dict(state["values"]))

    def _derived_value(self, quantity: str, free_value: mpmath.mpf | None) -> mpmath.mpf:
        """A derived parameter at the working precision (free parameter at ``free_value``)."""
        der = self._derived(quantity)
        point = self._numeric_point()
        if der.numeric:
            return point[der.symbol]
        if self.free is not None:
            point[self.free.symbol] = free_value
        return evaluate(self.calibration()[der.symbol], point)

    def _guard_digits(self, cost: Cost) -> int:
        r"""Guard digits for the first evaluation.

        Expressions in :math:`b = e^{-\varepsilon}` lose about
        :math:`\log_{10}(1/\varepsilon)` digits in every factor :math:`1 - b` as
        :math:`\varepsilon \to 0`; start with enough guard digits for that.
        """
        e = self.values.get("eps")
        if e is None or e >= 1:
            return 0
        lost = max(0, len(str(e.denominator)) - len(str(e.numerator)))
        return 15 + lost * (int(mpmath.ceil(cost.exponent)) + 2)

    # ------------------------------------------------------------------ numeric noise
    def free_value(self, cost: Cost | str = "amplitude", digits: int = 30) -> sp.Rational:
        """The optimal free parameter for ``cost`` as an exact rational.

        The certified ``digits``-digit value is read back exactly (an integer for an
        integer parameter), so that downstream exact computations are reproducible.
        """
        assert self.free is not None
        optimum = self.value(self.free.name, cost, digits)
        if self.free.integer:
            return sp.Integer(int(mpmath.nint(optimum.number)))
        exact = parse_number(optimum.text, self.free.name)
        return sp.Rational(exact.numerator, exact.denominator)

    def numeric_noise(self, cost: Cost | str = "amplitude", free_value: object = None,
                      digits: int = 30) -> SymmetricNoise:
        r"""The noise at this instance's parameters with every symbol substituted exactly.

        :math:`b = e^{-\varepsilon}` becomes the sympy number ``exp(-eps)``; the free
        parameter is ``free_value`` (validated against its range) or the optimum for
        ``cost`` certified to ``digits`` digits.

        Raises
        ------
        DomainError
            If a parameter is missing or ``free_value`` lies outside its range.
        """
        self.require(*(prm.name for prm in self.params))
        subs: dict[sp.Symbol, sp.Expr] = dict(self.substitution)
        if eps in subs:
            subs[b] = sp.exp(-subs[eps])
        fp = self.free
        if fp is not None:
            if free_value is None:
                subs[fp.symbol] = self.free_value(cost, digits)
            else:
                value = parse_number(free_value, fp.name)
                rational = sp.Rational(value.numerator, value.denominator)
                lo, hi = (sp.sympify(e).subs(subs) for e in (fp.lower, fp.upper))
                if not bool(lo <= rational <= hi) or (fp.integer and value.denominator != 1):
                    kind = "an integer" if fp.integer else "a number"
                    raise DomainError(fp.name, f"must be {kind} in [{lo}, {hi}], got {value}")
                subs[fp.symbol] = rational
        for der in self.derived:
            if der.numeric:
                value = self.value(der.name, cost, digits)
                exact = parse_number(value.text, der.name)
                subs[der.symbol] = sp.Rational(exact.numerator, exact.denominator)
        return self.noise().subs(subs)

    def sample(self, rng: object, size: int | tuple[int, ...],
               cost: Cost | str = "amplitude") -> object:
        """Draw noise values (``numpy.ndarray``); see :func:`dpsym.sampling.sample`."""
        from ..sampling import sample

        return sample(self, rng, size, cost)

    def privacy_profile(self, eps_prime: object, cost: Cost | str = "amplitude",
                        digits: int = 30) -> Value:
        r"""The certified privacy profile :math:`\delta(\varepsilon')`; see :mod:`dpsym.privacy`."""
        from ..privacy import privacy_profile

        return privacy_profile(self, eps_prime, cost, digits)

    # ------------------------------------------------------------------ helpers
    @classmethod
    def describe_params(cls) -> list[dict[str, str]]:
        """The declared parameters as plain dictionaries (for listings and docs)."""
        return [{"name": prm.name, "domain": prm.domain.describe(),
                 "description": prm.description, "default": prm.default or ""}
                for prm in cls.params]


def _solve_for(equation: sp.Expr, symbol: sp.Symbol) -> sp.Expr:
    """The unique solution of ``equation = 0`` for ``symbol``, in the generic case.

    Sympy returns conditional solutions as ``Piecewise``; the conditions exclude
    degenerate parameter values (a zero denominator), so the first branch is taken.
    """
    solutions = sp.solve(equation, symbol, dict=False)
    if len(solutions) != 1:
        raise UnsupportedError(f"cannot solve the definition for {symbol}: {solutions}")
    (solution,) = solutions
    if isinstance(solution, sp.Piecewise):
        solution = solution.args[0].expr
    return tidy(solution)


def eps_param(description: str = "privacy parameter") -> Param:
    """The declaration of :math:`\\varepsilon > 0` shared by the mechanisms."""
    return Param("eps", eps, Domain(lower=Fraction(0), upper=EPS_MAX, upper_open=False),
                 description, ("0.01", "10"))


def sensitivity_param(integer: bool = False, upper: int | None = None) -> Param:
    """The declaration of the sensitivity :math:`\\Delta` (default 1), optionally bounded."""
    top = None if upper is None else Fraction(upper)
    domain = Domain(lower=Fraction(1), lower_open=False, integer=True, upper=top,
                    upper_open=False) if integer \
        else Domain(lower=Fraction(0), upper=top, upper_open=False)
    text = "query sensitivity (an integer)" if integer else "query sensitivity"
    return Param("Delta", Delta, domain, text, ("1", "4") if integer else ("0.5", "4"),
                 default="1")


__all__ = ["NORM", "Derived", "FreeParameter", "Mechanism", "Value", "eps_param",
           "sensitivity_param"]
