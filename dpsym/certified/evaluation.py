r"""Values of a mechanism's quantities and what proves their digits.

:func:`value` answers ``quantity`` (the optimal cost, the optimal free parameter or a
derived parameter) of a mechanism instance to a number of significant digits, by one of
three paths; the :class:`Value` says which (:attr:`Value.certificate`):

* ``"ball"``: the quantity's closed form, prepared once per instance and evaluated once
  rigorously in ball arithmetic (:mod:`dpsym.certified.balls`, python-flint's Arb): certificate
  ``"enclosure"``; a closed form that is rational in the exact parameters is evaluated and
  rounded exactly: certificate ``"exact"``;
* the interval minimiser (``"auto"`` only): for a continuous free parameter without a
  closed-form minimiser, the cost, slope and slope derivative compiled to balls and the
  minimum proven by interval Newton and a sign covering (:mod:`dpsym.certified.intervals`):
  certificate ``"enclosure"``;
* the integer argmin (``"auto"`` only): for an integer free parameter, the candidates the
  slope's sign leaves, their cost balls separated (:mod:`dpsym.certified.integer_argmin`):
  certificate ``"enclosure"``;
* ``"mpmath"``: the engine's numeric path (the closed form, or a numeric minimiser of the
  cost over the free parameter) at two working precisions that must agree
  (:func:`dpsym.certified.agreement.agreement`): certificate ``"agreement"``, a heuristic
  kept as the tests' independent cross-check.

``"auto"`` takes the ball path where the quantity has a closed form it handles, then the
integer argmin or the interval minimiser; only where none of them applies or proves the
value does it fall back to the mpmath path, labelled ``"agreement"`` (no catalogue entry
does: ``tests/certified/test_catalogue_certificates.py``). The instance is used only
through its public contract (``values``, ``params``, ``free``, ``derived``, ``formula``,
``cost_function``, ``slope_function``...) and two hooks a family may refine:
``_numeric_optimum`` and ``_guard_digits`` (default: :func:`numeric_optimum`, :func:`guard_digits`).

:func:`value` holds the precision lock of :mod:`dpsym.precision` from start to end (the
plan's preparation, the ball evaluation or both mpmath evaluations): no other thread's
dpsym code changes mpmath's or python-flint's precision while a value is computed, so
threads get the digits of a serial run.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from fractions import Fraction
from functools import lru_cache
from typing import Any, Protocol

import flint
import mpmath
import sympy as sp

from dpsym.certified.agreement import agreement
from dpsym.certified.balls import BallFunction, BallMap, BallPlan, ExactPlan
from dpsym.certified.expectation import CostBalls, expectation
from dpsym.certified.integer_argmin import integer_optimum
from dpsym.certified.interval_plans import eps_bits, rational_functions, sign_numerator
from dpsym.certified.intervals import CompiledCost, IntervalFunctions, certify_minimum
from dpsym.certified.kernel import Certified, certify_ball
from dpsym.certified.rounding import check_digits, decimal_digits, enclosure_texts
from dpsym.core.costs import AMPLITUDE, Cost, parse_cost
from dpsym.core.expressions import Exact, approximation, to_sympy
from dpsym.core.params import (
    Declaration,
    Derived,
    check_quantity,
    parameter_symbols,
    require,
    substitution,
)
from dpsym.errors import CertificationError, DomainError, NoClosedFormError, UnsupportedError
from dpsym.precision import exclusive, mpf_man_exp, workdps
from dpsym.symbolic.engine import Family
from dpsym.symbolic.noise import SymmetricNoise
from dpsym.symbolic.numerics import evaluate
from dpsym.symbolic.optimize import numeric_minimiser, refine_root
from dpsym.symbols import b

#: The evaluation methods of :func:`value`.
METHODS = ("auto", "ball", "mpmath")

#: Largest number of integer values of a free parameter scanned for the optimum.
MAX_INTEGER_SCAN = 4096
#: Digits (beyond the guard digits) of the global search for a continuous minimiser
#: before its root is refined to the working precision (:func:`numeric_optimum`).
LADDER_DIGITS = 30

#: A mechanism instance (see :class:`dpsym.mechanisms.base.Mechanism`).
class Instance(Declaration, Protocol):
    r"""A mechanism instance as the certified evaluation sees it: what every path reads of
    it, and the certification paths a family may offer.

    The declaration (:class:`~dpsym.core.params.Parametrised`) gives ``name``,
    ``params``, ``free``, ``derived``, the exact ``values`` and ``free_given``; the engine
    (:mod:`dpsym.symbolic.engine`) gives the cost, its slope and the closed forms. The
    hooks below have defaults in :class:`dpsym.mechanisms.base.Mechanism` (None: the path
    is not offered); a family overrides those whose proof it carries:

    * :meth:`_guard_digits`: digits of the ball paths' guard (the digits a family's closed
      form loses to cancellation);
    * :meth:`_interval_functions`: the family's own ball functions ``(cost, slope,
      slope', sign numerator)`` of its continuous free parameter, for the interval
      minimiser when no sympy expression serves (the d-dimensional staircase);
    * :meth:`_interval_sign`: a factory of the slope's sign covering proven by the family
      (the staircase's moments written with Lerch sums at large :math:`\varepsilon`,
      :class:`~dpsym.certified.lerch.intervals.IncreasingSign`);
    * :meth:`_integer_cost_balls`: the cost at integer values of an integer free parameter
      as balls, where it has no closed form (the discrete staircase's non-integer
      moments and other costs), for :func:`~dpsym.certified.integer_argmin.integer_value`;
    * :meth:`_general_value`: a quantity for a cost that is not a power, where the family
      computes it itself (:func:`general_value`), or None.
    """

    @property
    def derived(self) -> tuple[Derived, ...]: ...
    @property
    def values(self) -> Mapping[str, Exact]: ...
    @property
    def free_given(self) -> Exact | None: ...

    @property
    def engine(self) -> Family: ...

    def _specific(self, cost: Cost) -> None: ...
    def optimal_parameter(self, cost: Cost | str) -> sp.Expr | None: ...
    def optimal_cost(self, cost: Cost | str) -> sp.Expr | None: ...
    def _numeric_optimum(self, cost: Cost, hint: mpmath.mpf | None = None
                         ) -> tuple[mpmath.mpf, mpmath.mpf]: ...
    def numeric_noise(self, cost: Cost | str = "amplitude", free_value: object = None,
                      digits: int = 30) -> SymmetricNoise: ...
    def cost_function(self, cost: Cost | str) -> sp.Expr: ...
    def _guard_digits(self, cost: Cost) -> int: ...
    def _interval_functions(self, cost: Cost) -> IntervalFunctions | None: ...
    def _interval_sign(self, cost: Cost) -> Callable[..., Any] | None: ...
    def _integer_cost_balls(self, cost: Cost) -> Callable[..., list[flint.arb]] | None: ...
    def _general_value(self, quantity: str, cost: Cost, digits: int) -> Any: ...


#: What proves a value's digits (:attr:`Value.certificate`): an exact rational rounded
#: exactly, a rigorous enclosure (Arb balls, interval Newton), or the agreement of two
#: working precisions (a heuristic, not a proof).
CERTIFICATES = ("exact", "enclosure", "agreement")


class Value:
    """A value: the number, its decimal string, the digits asked for and what proves them.

    Immutable. A value certified by ball arithmetic computes its number and text from the
    certified rounding on first access (the certificate itself is established before the
    value is returned). :attr:`certificate` is ``"exact"``, ``"enclosure"`` or
    ``"agreement"`` (:data:`CERTIFICATES`); :attr:`enclosure` is the range shown for it.
    """

    __slots__ = ("_certificate", "_digits", "_enclosure", "_number", "_source", "_text")

    def __init__(self, number: mpmath.mpf | None, text: str | None, digits: int, *,
                 source: Certified | None = None, certificate: str | None = None,
                 enclosure: tuple[str, str] | Callable[[], tuple[str, str]] | None = None
                 ) -> None:
        if source is None and (number is None or text is None):
            raise TypeError("a Value needs its number and text, or a source")
        if certificate is None:
            certificate = "agreement" if source is None else source.certificate
        if certificate not in CERTIFICATES:
            raise ValueError(f"unknown certificate {certificate!r}")
        self._number, self._text, self._digits, self._source = number, text, digits, source
        self._certificate = certificate
        if enclosure is not None and not callable(enclosure):
            enclosure = (str(enclosure[0]), str(enclosure[1]))
        self._enclosure = enclosure  # a callable is rendered on first access

    @classmethod
    def from_agreement(cls, number: mpmath.mpf, text: str, digits: int,
                       coarser: mpmath.mpf | None) -> Value:
        """A value of the two-precision heuristic (:func:`dpsym.certified.agreement.agreement`):
        its enclosure is the range of the two agreeing evaluations."""
        pair = (number, number if coarser is None else coarser)
        return cls(number, text, digits, certificate="agreement",
                   enclosure=lambda: _range_texts(*pair, digits))

    @classmethod
    def from_exact(cls, value: Fraction, number: mpmath.mpf, text: str, digits: int
                   ) -> Value:
        """A value rounded (in any direction, e.g. down for a lower bound) from an exact
        rational ``value`` to ``number`` and ``text``: certificate ``"exact"``, enclosure
        the exact value."""
        return cls(number, text, digits, certificate="exact",
                   enclosure=lambda: enclosure_texts(value, value, digits))

    @property
    def number(self) -> mpmath.mpf:
        """The value (an mpf; the ball's midpoint or the finer evaluation)."""
        if self._number is None:
            assert self._source is not None  # (a Value has its number or a source)
            self._number = self._source.number()
        return self._number

    @property
    def text(self) -> str:
        """The value rounded to :attr:`digits` significant digits."""
        if self._text is None:
            assert self._source is not None
            self._text = self._source.text()
        return self._text

    @property
    def digits(self) -> int:
        """The significant digits asked for."""
        return self._digits

    @property
    def certificate(self) -> str:
        """What proves the digits: ``"exact"`` (an exact rational rounded exactly),
        ``"enclosure"`` (a rigorous enclosure: Arb balls, interval Newton) or
        ``"agreement"`` (two working precisions agree: a heuristic, not a proof)."""
        return self._certificate

    @property
    def enclosure(self) -> tuple[str, str]:
        """``(lo, hi)`` as decimal strings: the proven range for ``"enclosure"`` (rounded
        outwards, with enough digits to show its width), the exact value for ``"exact"``
        (``lo == hi`` when its decimal expansion terminates within the digits shown, else
        its outward roundings), the two agreeing evaluations for ``"agreement"``."""
        if callable(self._enclosure):
            self._enclosure = self._enclosure()
        if self._enclosure is None:
            if self._source is not None:
                self._enclosure = self._source.enclosure()
            else:
                self._enclosure = (self.text, self.text)
        return self._enclosure

    def as_record(self) -> dict[str, object]:
        """The JSON fields of the value: ``value``, ``certificate``, ``enclosure``."""
        return {"value": self.text, "certificate": self.certificate,
                "enclosure": list(self.enclosure)}

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Value):
            return NotImplemented
        return (self.number, self.text, self.digits) == (other.number, other.text,
                                                          other.digits)

    def __hash__(self) -> int:
        return hash((self.text, self.digits))

    def __reduce__(self) -> tuple[Callable[..., Value], tuple]:
        return _restore, (self.number, self.text, self.digits, self.certificate,
                          self.enclosure)

    def __repr__(self) -> str:
        return (f"Value(number={self.number!r}, text={self.text!r}, digits={self.digits!r}, "
                f"certificate={self.certificate!r})")

    def __str__(self) -> str:
        """The certified digits, :attr:`text`."""
        return self.text

    def __float__(self) -> float:
        """The nearest float64 to :attr:`number` (more precise than :attr:`text`)."""
        return float(self.number)

    @property
    def _mpf_(self) -> tuple:
        """mpmath's protocol: ``mpmath.mpf(value)`` is :attr:`number` (at the working
        precision)."""
        return self.number._mpf_

    def __format__(self, spec: str) -> str:
        """``f"{value}"`` is :attr:`text`; a format spec formats ``float(value)``."""
        return self.text if not spec else format(float(self), spec)


def _restore(number: mpmath.mpf, text: str, digits: int, certificate: str,
             enclosure: tuple[str, str]) -> Value:
    """A pickled :class:`Value` (module level: pickle finds it by name)."""
    return Value(number, text, digits, certificate=certificate, enclosure=enclosure)


def _range_texts(a: mpmath.mpf, c: mpmath.mpf, digits: int) -> tuple[str, str]:
    """The range of two finite mpf values as outward decimal strings."""
    if c < a:
        a, c = c, a
    return enclosure_texts(mpf_man_exp(a), mpf_man_exp(c), digits)


def numeric_point(m: Instance) -> dict[sp.Symbol, object]:
    """The parameter values, and every numeric-only derived parameter at the working
    precision."""
    require(m, *(prm.name for prm in m.params))
    point: dict[sp.Symbol, object] = dict(substitution(m))
    for der in m.derived:
        if der.numeric:
            point[der.symbol] = m.engine.derived_numeric(der.symbol, point)
    return point


def cost_at(m: Instance, cost: Cost, point: Mapping) -> Callable[[object], mpmath.mpf]:
    """The expected cost as a numeric function of the free parameter at ``point``.

    Uses the family's symbolic cost function; where none exists in closed form (a
    non-integer moment of a lattice tail) the description is made numeric first.
    """
    sym = None if m.free is None else m.free.symbol
    try:
        expr = m.cost_function(cost)
    except NoClosedFormError:
        def direct(t):
            values = dict(point) if sym is None else {**point, sym: sp.Integer(int(t))}
            try:
                return evaluate(m.engine.noise().subs(values).moment(cost.exponent), point)
            except RecursionError:  # one Lerch sum per lattice point of a period
                raise UnsupportedError(
                    f"{m.name}: the {cost.name} cost has no closed form and its sum over "
                    "a period is too large an expression at this sensitivity; use an "
                    "integer moment or a smaller sensitivity") from None
        return direct
    return lambda t: evaluate(expr, point if sym is None else {**point, sym: t})


@exclusive
def numeric_optimum(m: Instance, cost: Cost, hint: mpmath.mpf | None = None
                    ) -> tuple[mpmath.mpf | None, mpmath.mpf]:
    """(optimal free parameter, optimal cost) at the working precision.

    ``hint`` is the optimal parameter found at a lower precision, if any. An integer free
    parameter is scanned (at most :data:`MAX_INTEGER_SCAN` values); a continuous one takes
    the closed form where there is one, otherwise the certified bracketing minimiser of
    :func:`dpsym.symbolic.optimize.numeric_minimiser` on the engine's slope.
    """
    point = numeric_point(m)
    at = cost_at(m, cost, point)
    if m.free is None:
        return None, at(None)
    fp = m.free
    lo, hi = evaluate(fp.lower, point), evaluate(fp.upper, point)
    if fp.integer:
        lo_i, hi_i = int(mpmath.ceil(lo)), int(mpmath.floor(hi))
        if hi_i - lo_i > MAX_INTEGER_SCAN:
            raise UnsupportedError(
                f"{m.name}: more than {MAX_INTEGER_SCAN} values of {fp.name} to scan")
        best = min(range(lo_i, hi_i + 1), key=at)
        return mpmath.mpf(best), at(best)
    closed = m.optimal_parameter(cost)
    if closed is not None:
        return evaluate(closed, point), evaluate(m.optimal_cost(cost), point)
    slope_expr = m.engine.slope_function(cost)

    def slope(s: mpmath.mpf) -> mpmath.mpf:
        return evaluate(slope_expr, {**point, fp.symbol: s})

    bits = mpmath.mp.prec // 3  # a hint's accuracy (found at a lower precision)
    if hint is None:
        # the global search at a low precision, then the root refined to the working one
        low = max(m._guard_digits(cost), 0) + LADDER_DIGITS
        if mpmath.mp.dps > 2 * low:
            with workdps(low):
                hint = numeric_minimiser(at, slope, lo, hi)
            bits = int(LADDER_DIGITS * 3.32)
    if hint is not None and lo < hint < hi:
        t = refine_root(slope, hint, lo, hi, bits)
        if t is not None:
            return t, at(t)
    t = numeric_minimiser(at, slope, lo, hi, hint)
    return t, at(t)


def small_eps_digits(m: Instance) -> int:
    r"""About :math:`\log_{10}(1/\varepsilon)` for :math:`\varepsilon < 1` (0 otherwise
    or without :math:`\varepsilon`): the digits one factor :math:`1 - b`,
    :math:`b = e^{-\varepsilon}`, loses."""
    e = m.values.get("eps")
    if e is not None and not isinstance(e, Fraction):  # irrational: its size is enough
        e = approximation(e)
    if e is None or e >= 1:
        return 0
    return max(0, decimal_digits(e.denominator) - decimal_digits(e.numerator))


def guard_digits(m: Instance, cost: Cost) -> int:
    r"""Guard digits for the first evaluation.

    Expressions in :math:`b = e^{-\varepsilon}` lose about
    :math:`\log_{10}(1/\varepsilon)` digits in every factor :math:`1 - b` as
    :math:`\varepsilon \to 0`; start with enough guard digits for that.
    """
    e = m.values.get("eps")
    if e is None:
        return 0
    lost = small_eps_digits(m)
    if not lost and (e if isinstance(e, Fraction) else approximation(e)) >= 1:
        return 0
    terms = cost.terms or ((1, sp.Integer(2)),)
    power = max(p for _, p in terms) if terms else sp.Integer(1)
    return 15 + lost * (int(mpmath.ceil(power)) + 2)


@exclusive
def derived_value(m: Instance, quantity: str, free_value: mpmath.mpf | None) -> mpmath.mpf:
    """A derived parameter at the working precision (free parameter at ``free_value``)."""
    der = next(d for d in m.derived if d.name == quantity)
    point = numeric_point(m)
    if der.numeric:
        return point[der.symbol]
    if m.free is not None:
        point[m.free.symbol] = free_value
    return evaluate(m.engine.calibration()[der.symbol], point)


@exclusive
def ball_plan(m: Instance, quantity: str, cost: Cost) -> BallPlan | ExactPlan | None:
    """The closed form of ``quantity`` prepared at the instance's parameters
    (:class:`dpsym.certified.balls.BallPlan`: discrete parts decided, code compiled; an
    :class:`~dpsym.certified.balls.ExactPlan` for an exact rational value), or None where there is
    no
    closed form the balls handle. Prepared once per instance (whose parameters are
    read-only) and kept in its ``_plans`` attribute."""
    plans = m.__dict__.setdefault("_plans", {})
    key = (quantity, cost.name)
    if key not in plans:
        require(m, *(prm.name for prm in m.params))
        plans[key] = None
        if not (m.free is not None and m.free.integer):
            expr = m.engine.closed_form(quantity, cost)
            if expr is not None:
                symbol = parameter_symbols(m)
                exact = {symbol[n]: v for n, v in m.values.items()}
                plans[key] = BallPlan.prepare(expr, exact, allow_zero=quantity != "cost",
                                              guard_digits=m._guard_digits(cost))
    return plans[key]


#: Largest slope (in sympy operations) compiled for the interval minimiser from its
#: expression (a slope that is not rational in the free parameter; a rational one is
#: compiled as polynomial coefficients, :mod:`dpsym.certified.interval_plans`, and a
#: family may give its own ball functions, :meth:`Instance._interval_functions`, as the
#: d-dimensional staircase does at any d).
MAX_INTERVAL_OPS = 1500


@lru_cache(maxsize=256)
def _operations(expr: sp.Expr) -> int:
    return int(sp.count_ops(expr))


@lru_cache(maxsize=256)
def _slope_derivative(fam: Family, cost: Cost) -> sp.Expr:
    r"""The derivative of the family's slope in its free parameter (the interval Newton
    step's :math:`s^{\prime}`)."""
    assert fam.free is not None  # called for a family with a free parameter
    return sp.diff(fam.slope_function(cost), fam.free.symbol)


@exclusive
def interval_plan(m: Instance, cost: Cost) -> CompiledCost | None:
    r"""The cost, its slope and the slope's derivative in the continuous free parameter,
    compiled to ball functions at the instance's exact parameters, with the parameter's
    exact range and, where it exists, the slope's sign polynomial
    (:func:`dpsym.certified.interval_plans.sign_numerator`) or the family's own sign covering
    (``_interval_sign``, :mod:`dpsym.certified.lerch.intervals`): the family's own functions
    (``_interval_functions``) if it has them, else ratios of polynomials in the free
    parameter (:func:`dpsym.certified.interval_plans.rational_functions`), else the expressions
    (:class:`dpsym.certified.balls.BallFunction`, at most :data:`MAX_INTERVAL_OPS` operations);
    None where the family has no continuous free parameter, a closed-form minimiser, or an
    expression the balls do not handle (a Lerch sum with an exponent that is not an exact
    rational). Kept in ``_plans``."""
    plans = m.__dict__.setdefault("_plans", {})
    key = ("interval", cost.name)
    if key not in plans:
        plans[key] = None
        fp = m.free
        if fp is None or fp.integer or m.free_given is not None:
            return None
        require(m, *(prm.name for prm in m.params))
        symbol = parameter_symbols(m)
        exact = {symbol[n]: v for n, v in m.values.items()}
        rational = {s: sp.Rational(v.numerator, v.denominator) for s, v in exact.items()
                    if isinstance(v, Fraction)}
        ends = [sp.sympify(end).xreplace(rational) for end in (fp.lower, fp.upper)]
        if not all(end.is_Rational for end in ends):
            return None
        lo, hi = (Fraction(int(e.p), int(e.q)) for e in ends)
        own = m._interval_functions(cost)
        if own is not None:  # the family's own ball functions (no sympy expression)
            plans[key] = CompiledCost(own.cost, own.slope, own.dslope, lo, hi,
                                      numerator=own.numerator, guard_digits=own.guard_digits)
            return plans[key]
        try:
            numerator = sign_numerator(m, cost, exact, lo)
            functions: Sequence[BallMap | None] | None = rational_functions(m, cost, exact)
            if functions is None:  # not rational in the free parameter: the expressions
                slope = m.engine.slope_function(cost)
                if _operations(slope) > MAX_INTERVAL_OPS:
                    return None
                exprs = (m.cost_function(cost), slope, _slope_derivative(m.engine, cost))  # type: ignore[arg-type]  # an engine is Hashable (mypy: a protocol is not)
                functions = [BallFunction.prepare(e, exact, fp.symbol) for e in exprs]
        except (NoClosedFormError, UnsupportedError):
            return None
        cost_f, slope_f, dslope_f = functions
        if cost_f is None or slope_f is None or dslope_f is None:
            return None
        plans[key] = CompiledCost(cost_f, slope_f, dslope_f, lo, hi, numerator=numerator,
                                  sign=m._interval_sign(cost))
    return plans[key]


@exclusive
def enclosed_optimum(m: Instance, quantity: str, cost: Cost, digits: int
                     ) -> Certified | None:
    r"""The optimal cost or the optimal free parameter enclosed rigorously
    (:func:`dpsym.certified.intervals.certify_minimum`: interval Newton on the slope, a sign
    covering of the parameter's range), or None where no interval plan exists.

    Raises
    ------
    CertificationError
        If the minimiser cannot be proven (the reason is named).
    """
    if quantity != "cost" and (m.free is None or quantity != m.free.name):
        return None
    plan = interval_plan(m, cost)
    if plan is None:
        return None
    if "guard_digits" not in plan.memo:  # (b = e^{-eps} needs the bits of eps's exponent)
        plan.memo["guard_digits"] = (m._guard_digits(cost) + plan.guard_digits
                                     + eps_bits(m) * 3 // 10)
    return certify_minimum(plan, digits,
                           quantity="cost" if quantity == "cost" else "parameter",
                           guard_digits=plan.memo["guard_digits"])


@exclusive
def integer_value(m: Instance, quantity: str, cost: Cost, digits: int) -> Value | None:
    r"""``quantity`` at the proven argmin of the cost over an integer free parameter
    (:func:`dpsym.certified.integer_argmin.integer_optimum`: the candidates the slope's sign leaves,
    or the whole finite range, enclosed and separated): certificate ``"enclosure"``, the
    argmin's enclosure :math:`[r^*, r^*]`. None where the cost or the quantity cannot be
    enclosed in ball arithmetic (the caller then takes the two-precision path).

    Raises
    ------
    CertificationError
        If the argmin is not proven (a tie is named) or the digits do not round.
    """
    fp = m.free
    assert fp is not None  # (an integer free parameter)
    try:
        if quantity in ("cost", fp.name):
            best, found = integer_optimum(m, cost, digits, quantity)
            if quantity == "cost":
                return Value(None, None, digits, source=found)
            text = str(best)
            return Value(mpmath.mpf(best), text, digits, certificate="enclosure",
                         enclosure=(text, text))
        der = next(d for d in m.derived if d.name == quantity)
        best, _ = integer_optimum(m, cost, digits, "parameter")
        expr = None if der.numeric else m.engine.calibration()[der.symbol].subs(fp.symbol, best)
        symbol = parameter_symbols(m)
        plan = None if expr is None else BallPlan.prepare(
            expr, {symbol[n]: v for n, v in m.values.items()}, allow_zero=True,
            guard_digits=m._guard_digits(cost))
        enclosed = None if plan is None else plan(digits)
        if enclosed is None:
            raise UnsupportedError(f"{m.name}: {quantity} is not enclosed at the optimum")
        return Value(None, None, digits, source=enclosed)
    except UnsupportedError:
        return None


@exclusive
def value(m: Instance, quantity: str = "cost", cost: Cost | str = "amplitude",
          digits: int = 30, *, method: str = "auto") -> Value:
    r"""``quantity`` at the instance's parameters, certified to ``digits`` digits.

    Parameters
    ----------
    m : Mechanism
        An instance with every parameter given.
    quantity : str
        ``cost``, the free parameter's name or a derived parameter's name.
    cost : Cost or str
        The cost the family is optimised for.
    digits : int
        Significant digits, each one certified.
    method : {"auto", "ball", "mpmath"}
        ``"ball"``: one rigorous evaluation of the closed form in ball arithmetic;
        ``"mpmath"``: the engine's numeric path evaluated at two working precisions that
        must agree; ``"auto"`` (default): the ball path where the quantity has a closed
        form it handles, otherwise the mpmath path. A closed form that is rational in the
        (exact) parameters is evaluated exactly and rounded exactly, whichever the method.

    Raises
    ------
    DomainError
        For a missing parameter, an unknown quantity, an invalid ``digits`` or ``method``.
    UnsupportedError
        With ``method="ball"``, if the quantity has no closed form the ball path handles
        at these parameters.
    CertificationError
        If the value cannot be certified.
    """
    check_quantity(m, quantity)
    cost = parse_cost(cost)
    m._specific(cost)
    if method not in METHODS:
        raise DomainError("method", f"must be one of {', '.join(METHODS)}, "
                          f"got {str(method)[:40]!r}")
    digits = check_digits(digits)
    if not cost.is_power and (method != "mpmath" or cost.terms is None):
        return general_value(m, quantity, cost, digits)
    plan = ball_plan(m, quantity, cost)
    # an exact rational value is rounded exactly whatever the method
    if plan is not None and (method != "mpmath" or isinstance(plan, ExactPlan)):
        found_ball = plan(digits)
        if found_ball is not None:
            return Value(None, None, digits, source=found_ball)
    if method == "ball":
        raise UnsupportedError(
            f"{m.name}: {quantity} (cost {cost.name}) has no closed form that "
            "ball arithmetic evaluates at these parameters; method 'auto' certifies it "
            "by the integer or interval minimiser where one applies")
    if method == "auto" and m.free is not None and m.free.integer:
        proven = integer_value(m, quantity, cost, digits)
        if proven is not None:
            return proven
    if method == "auto" and plan is None:
        try:
            enclosed = enclosed_optimum(m, quantity, cost, digits)
        except (CertificationError, ArithmeticError, ValueError):
            enclosed = None  # no proof: the two-precision heuristic, labelled "agreement"
        if enclosed is not None:
            return Value(None, None, digits, source=enclosed)

    found: list[mpmath.mpf | None] = [None]

    def compute() -> mpmath.mpf:
        t, v = m._numeric_optimum(cost, found[0])
        found[0] = t
        if quantity == "cost":
            return v
        if m.free is not None and quantity == m.free.name:
            return t
        return derived_value(m, quantity, t)

    number, text, coarser = agreement(compute, digits, allow_zero=quantity != "cost",
                                      guard=m._guard_digits(cost))
    if m.free is not None and quantity == m.free.name and m.free.integer:
        text = str(int(number))
    return Value.from_agreement(number, text, digits, coarser)


@lru_cache(maxsize=64)
def cost_balls(cost: Cost) -> CostBalls:
    """The ball evaluator of a cost (:class:`dpsym.certified.expectation.CostBalls`), built
    once per cost."""
    return CostBalls(cost)


@exclusive
def general_value(m: Instance, quantity: str, cost: Cost, digits: int) -> Value:
    r"""``quantity`` for a cost that is not a power :math:`|x|^p`, certified: the
    family's own path (``_general_value``: the minimisers of the staircase and of
    :math:`\mathcal{P}_\alpha`, the Gaussian on its :math:`\sigma` enclosure...), the
    integer argmin of an integer free parameter, or, without a free parameter, the
    closed form of a polynomial cost in ball arithmetic and else the expectation of the
    cost over the noise (:func:`dpsym.certified.expectation.expectation`); the derived
    parameters of a family without free parameter do not depend on the cost.

    Raises
    ------
    DomainError
        If the expectation is infinite (the hypothesis :math:`\mathbb{E}\,L(X) <
        \infty`).
    UnsupportedError
        Where the family gives no optimum for such a cost.
    """
    found = m._general_value(quantity, cost, digits)
    if found is not None:
        return found
    if m.free is not None and m.free.integer:
        proven = integer_value(m, quantity, cost, digits)
        if proven is not None:
            return proven
        raise UnsupportedError(f"{m.name}: the {cost.name} cost is not enclosed at the "
                               f"integer values of {m.free.name}")
    if m.free is not None:
        raise UnsupportedError(f"{m.name}: the optimum of {m.free.name} for the cost "
                               f"{cost.name} is not computed (a cost other than a power)")
    if quantity != "cost":
        return value(m, quantity, AMPLITUDE, digits)
    plan = ball_plan(m, quantity, cost) if cost.terms is not None else None
    if plan is not None:
        found_ball = plan(digits)
        if found_ball is not None:
            return Value(None, None, digits, source=found_ball)
    noise = m.numeric_noise(AMPLITUDE)
    balls = cost_balls(cost)
    certified = certify_ball(lambda bits: expectation(noise, balls), digits,
                             what=f"{m.name} expected {cost.name}")
    return Value(None, None, digits, source=certified)


@exclusive
def certify_expression(m: Any, expr: sp.Expr, digits: int, *, method: str = "auto",
            allow_zero: bool = False) -> Value:
    r"""``expr`` (in the parameters, :math:`b` and the free parameter) certified at the
    instance ``m``'s parameters and at its distribution's free parameter: the one given to
    the constructor, or else the exact optimum for its law cost (``m.law_cost``,
    ``"amplitude"`` by default; its closed form substituted; without one, the
    certified minimiser at each working precision).

    One ball evaluation where possible (``method`` ``"auto"`` or ``"ball"``), otherwise
    mpmath at two precisions that must agree (:func:`dpsym.certified.agreement.agreement`).
    """
    fp = m.free
    exact = {prm.symbol: m.values[prm.name] for prm in m.params if prm.name in m.values}
    if fp is not None and m.free_given is not None:
        exact[fp.symbol] = m.free_given
    elif fp is not None and fp.symbol in expr.free_symbols and not fp.integer:
        optimum = type(m).optimal_parameter(m.law_cost)
        if optimum is not None:
            expr = sp.sympify(expr).subs(fp.symbol, optimum)
    cost = parse_cost(m.law_cost)
    numeric_derived = any(der.numeric for der in m.derived)
    if method != "mpmath" and not numeric_derived and expr.free_symbols <= set(exact) | {b}:
        plan = BallPlan.prepare(expr, exact, allow_zero=allow_zero,
                                guard_digits=m._guard_digits(cost))
        found = None if plan is None else plan(digits)
        if found is not None:
            return Value(None, None, digits, source=found)
    if method == "ball":
        raise UnsupportedError(f"{m.name}: no closed form that ball arithmetic evaluates "
                               "here; use method 'mpmath'")

    def compute() -> mpmath.mpf:
        point = numeric_point(m)
        if fp is not None and fp.symbol in expr.free_symbols:
            if m.free_given is not None:
                point[fp.symbol] = to_sympy(m.free_given)
            else:
                point[fp.symbol] = m._numeric_optimum(cost)[0]
        return evaluate(expr, point)

    number, text, coarser = agreement(compute, digits, allow_zero=allow_zero,
                                      guard=m._guard_digits(cost))
    return Value.from_agreement(number, text, digits, coarser)


__all__ = [
    "CERTIFICATES",
    "LADDER_DIGITS",
    "MAX_INTEGER_SCAN",
    "MAX_INTERVAL_OPS",
    "METHODS",
    "Value",
    "ball_plan",
    "certify_expression",
    "cost_at",
    "cost_balls",
    "derived_value",
    "enclosed_optimum",
    "general_value",
    "guard_digits",
    "integer_value",
    "interval_plan",
    "numeric_optimum",
    "numeric_point",
    "small_eps_digits",
    "value",
]
