r"""Rigorous ball-arithmetic evaluation of closed forms (Arb, through python-flint).

A closed form :math:`f(\varepsilon, \delta, \Delta, \dots)` is compiled once into Python
code (common subexpressions eliminated, :math:`b = e^{-\varepsilon}` computed once) whose
operations are those of Arb's real balls. One evaluation at working precision :math:`w`
bits returns a ball :math:`[m - r, m + r]` that is *guaranteed* to contain the exact value,
whatever cancellation happened inside: Arb propagates the error of every operation. The
value is certified to :math:`N` digits when both ends of the ball round to the same
:math:`N`-digit decimal (rounding to nearest is monotone, so then every point of the ball
does); otherwise the guard bits are doubled and the evaluation repeated.

This is the fast path of :meth:`dpsym.mechanisms.base.Mechanism.value` for quantities with
a closed form: one rigorous evaluation instead of the two agreeing mpmath evaluations of
:func:`dpsym.certified.agreement.agreement`, and Arb's elementary functions are several times faster
than mpmath's at a thousand digits. A Lerch sum :class:`~dpsym.symbolic.sums.LerchSum` with an
exact rational exponent is enclosed with proven remainders by
:func:`dpsym.certified.lerch.balls.lerch_sum_ball` (also for an interval or a power series of its
offset). Expressions with a node Arb does not handle here (an unresolved ``Piecewise``, a
float, a Lerch sum with a symbolic exponent) are declined (:func:`ball_value` returns
``None``) and the caller falls back to mpmath.

Exactly known parameters decide the discrete parts of an expression before any rounding:
``floor``/``ceiling`` of exact arguments and ``Piecewise`` conditions on exact parameters
are evaluated in exact rational arithmetic (:func:`resolve_exact`); a closed form that is
then a rational function of the exact parameters is evaluated exactly and rounded exactly
(:class:`ExactPlan`), so that a value on a rounding tie (:math:`3.125` to three digits)
is decided where no ball around it could be.

Precision is only ever scoped, and under the precision lock of :mod:`dpsym.precision`
(``arb_workprec``, ``workprec``): python-flint's ``flint.ctx.prec`` is process-wide like
mpmath's, so a ball computed in one thread must not see another thread's precision. The
public functions (:func:`ball_value`, :func:`enclosure`, a plan's call) hold the lock
for the whole evaluation.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from fractions import Fraction
from functools import lru_cache
from typing import Any, ClassVar

import flint
import mpmath
import sympy as sp
from sympy.printing.pycode import MpmathPrinter

from dpsym.certified.kernel import BITS_PER_DIGIT, GUARD_BITS, Certified, refine
from dpsym.certified.lerch.balls import lerch_sum_ball
from dpsym.certified.rounding import EXACT_SCALE
from dpsym.errors import CertificationError
from dpsym.precision import arb_workprec, exclusive
from dpsym.symbolic.lambdas import literal
from dpsym.symbolic.sums import LerchSum, LowerGammaStar, arb_lower_gamma_star
from dpsym.symbols import b, eps

#: A ball or a power series of balls (an Arb ``arb``, ``acb`` or ``arb_series``): the
#: functions of the certified paths map each kind to the same kind (an arb to an arb, a
#: series to a series), a correspondence that an annotation cannot state.
BallLike = Any
#: A function of a ball (:data:`BallLike`), with any further options.
BallMap = Callable[..., Any]

#: sympy function classes evaluated by Arb (printed as ``mpmath.<name>`` and mapped below;
#: :class:`~dpsym.symbolic.sums.LowerGammaStar` and :class:`~dpsym.symbolic.sums.LerchSum` by their
#: own names).
_FUNCTIONS = (sp.exp, sp.log, sp.Abs, sp.erf, sp.erfc, sp.sin, sp.cos, sp.gamma,
              sp.zeta, LowerGammaStar, LerchSum)
#: Leaf and operation classes of a supported expression.
_NODES = (sp.Symbol, sp.Integer, sp.Rational, sp.Add, sp.Mul, sp.Pow,
          type(sp.pi), type(sp.E))


def _arb(x: BallLike) -> BallLike:
    # a Taylor series in the free parameter (dpsym.certified.intervals) passes through
    return x if isinstance(x, (flint.arb, flint.arb_series)) else flint.arb(x)


class _ArbNamespace:
    """What the generated code calls ``mpmath``: the same names, Arb's balls."""

    mpf = staticmethod(flint.arb)
    exp = staticmethod(lambda x: _arb(x).exp())
    log = staticmethod(lambda x: _arb(x).log())
    sqrt = staticmethod(lambda x: _arb(x).sqrt())
    erf = staticmethod(lambda x: _arb(x).erf())
    erfc = staticmethod(lambda x: _arb(x).erfc())
    sin = staticmethod(lambda x: _arb(x).sin())
    cos = staticmethod(lambda x: _arb(x).cos())
    fabs = staticmethod(lambda x: abs(_arb(x)))
    gamma = staticmethod(lambda x: _arb(x).gamma())
    # Riemann's zeta(s), Hurwitz's zeta(s, a)
    zeta = staticmethod(lambda s, a=1: _arb(s).zeta(_arb(a)))

    @property
    def pi(self) -> flint.arb:
        return flint.arb.pi()

    @property
    def e(self) -> flint.arb:
        return flint.arb.const_e()


def _flint_exact(value: Fraction) -> int | flint.fmpq:
    """An exact parameter as Arb takes it exactly: an int, or a FLINT rational (rounded to
    a ball at the working precision when it enters a computation)."""
    if value.denominator == 1:
        return int(value.numerator)
    return flint.fmpq(value.numerator, value.denominator)


def _rational(p: int, q: int) -> flint.arb:
    """The ball of ``p/q`` at the current precision."""
    return flint.arb(p) / q


class _ArbPrinter(MpmathPrinter):
    """The mpmath printer with rationals as Arb balls (``_q(p, q)``)."""

    # terms in their own order: ordering them evaluates constants numerically (a Hurwitz
    # zeta function at a large argument takes mpmath seconds)
    _default_settings: ClassVar[dict] = {**MpmathPrinter._default_settings, "order": "none"}

    def _print_Rational(self, expr: sp.Rational) -> str:
        # hexadecimal literals: Python refuses decimal ones of more than 4300 digits
        return f"_q({literal(expr.p)}, {literal(expr.q)})"

    def _print_Half(self, expr: sp.Rational) -> str:
        return "_q(1, 2)"

    def _print_Pow(self, expr: sp.Pow, rational: bool = False) -> str:
        r""":math:`x^{p/q}` as ``_root(x, q)**p``: Arb's k-th root is an order of magnitude
        cheaper than :math:`\exp(\log(x) p/q)`."""
        base, power = expr.as_base_exp()
        if power.is_Integer and (power >= 2 or power < 0):
            return f"_ipow({self._print(base)}, {int(power)})"
        if power.is_Rational and not power.is_Integer and power.q <= _MAX_ROOT:
            root = f"_root({self._print(base)}, {power.q})"
            return root if power.p == 1 else f"{root}**{power.p}"
        return super()._print_Pow(expr, rational=rational)

    def _print_zeta(self, expr: sp.Expr) -> str:
        return f"mpmath.zeta({', '.join(self._print(a) for a in expr.args)})"

    def _print_LowerGammaStar(self, expr: sp.Expr) -> str:
        return f"LowerGammaStar({self._print(expr.args[0])}, {self._print(expr.args[1])})"

    def _print_LerchSum(self, expr: sp.Expr) -> str:
        """``LerchSum(z, s, a)`` with the exponent exact (a ``Fraction``): the enclosure
        (:func:`dpsym.certified.lerch.balls.lerch_sum_ball`) bounds its remainders with it."""
        z, s, a = expr.args
        exponent = f"_fraction({literal(s.p)}, {literal(s.q)})"
        return f"LerchSum({self._print(z)}, {exponent}, {self._print(a)})"


#: Largest root index printed as a root (larger denominators go through exp and log).
_MAX_ROOT = 64


def _root(x: BallLike, k: int) -> BallLike:
    """The real k-th root of a ball (not finite where the ball meets the negative axis)."""
    return _arb(x).root(k)


#: Relative accuracy (bits) below which a ball is raised to a power end by end.
_WIDE_BITS = 24


def _ipow(x: BallLike, n: int) -> BallLike:
    r""":math:`x^n` for an integer :math:`n`. A wide ball (an interval of the free
    parameter, :mod:`dpsym.certified.intervals`) is raised end by end, as an interval: Arb's
    midpoint-radius power of :math:`[1, 3]` squared is :math:`[-1, 9]`, and its inverse
    not finite. Power series (Taylor forms) take repeated products."""
    if isinstance(x, int):
        x = flint.arb(x)
    if n < 0:
        return 1 / _ipow(x, -n)
    if isinstance(x, flint.arb):
        if n == 1 or not x.is_finite() or x.rel_accuracy_bits() > _WIDE_BITS:
            return x**n  # a point or a narrow ball: Arb's own power
        lo, hi = x.lower(), x.upper()
        if lo > 0 or hi < 0 or n % 2:  # monotone in x on the ball
            return (lo**n).union(hi**n)
        return flint.arb(0).union(max(abs(lo), abs(hi)) ** n)
    result, square = None, x
    while n:
        if n & 1:
            result = square if result is None else result * square
        n >>= 1
        if n:
            square = square * square
    return result


_NAMESPACE = {"mpmath": _ArbNamespace(), "_q": _rational, "_root": _root, "abs": abs,
              "_ipow": _ipow, "_fraction": Fraction, "LerchSum": lerch_sum_ball,
              "LowerGammaStar": lambda a, z: arb_lower_gamma_star(_arb(a), _arb(z))}


@lru_cache(maxsize=1024)
def supported(expr: sp.Expr) -> bool:
    """Whether every node of ``expr`` is one the ball evaluator handles."""
    for node in sp.preorder_traversal(expr):
        if isinstance(node, sp.Float) or not isinstance(node, _NODES + _FUNCTIONS):
            return False
        if isinstance(node, LerchSum) and not node.args[1].is_Rational:
            return False  # the enclosure needs the exponent exactly
    return True


@lru_cache(maxsize=1024)
def _compiled(expr: sp.Expr, symbols: tuple[sp.Symbol, ...]) -> Callable[..., flint.arb]:
    # no docstring: lambdify would print the expression with str(), which refuses the
    # integers of more than 4300 digits that exact constants such as e^{-10^5} bring
    return sp.lambdify(symbols, expr, modules=[_NAMESPACE], printer=_ArbPrinter, cse=True,
                       docstring_limit=0)


@lru_cache(maxsize=1024)
def _has_exact_parts(expr: sp.Expr) -> bool:
    return expr.has(sp.floor, sp.ceiling, sp.Piecewise)


def resolve_exact(expr: sp.Expr, values: Mapping[sp.Symbol, Fraction]) -> sp.Expr:
    r"""``expr`` with its discrete parts decided exactly where the parameters allow.

    Every ``floor``/``ceiling`` whose argument is exactly known becomes an integer, and
    every ``Piecewise`` condition that the exact parameters decide selects its branch. In
    binary floating point :math:`\lceil 1/0.01 \rceil` would be 101, and a condition
    :math:`\delta \le 1/2` at :math:`\delta = 1/2` could go either way.
    """
    if not _has_exact_parts(expr):
        return expr
    exact = {s: sp.Rational(v.numerator, v.denominator) for s, v in values.items()}
    parts = {}
    for atom in expr.atoms(sp.floor, sp.ceiling):
        value = atom.xreplace(exact)
        if value.is_Integer:
            parts[atom] = value
    if parts:
        expr = expr.xreplace(parts)
    for pw in expr.atoms(sp.Piecewise):
        for branch, cond in pw.args:
            decided = cond.xreplace(exact)
            if decided is sp.true:
                expr = expr.xreplace({pw: branch})
                break
            if decided is not sp.false:
                break  # not decided by the exact parameters: leave it to the caller
    return expr


@lru_cache(maxsize=1024)
def _plan(expr: sp.Expr) -> tuple[tuple[sp.Symbol, ...], Callable[..., flint.arb]] | None:
    """The symbols and compiled code of a supported expression, or None."""
    if not supported(expr):
        return None
    symbols = tuple(sorted(expr.free_symbols, key=str))
    return symbols, _compiled(expr, symbols)


class BallPlan:
    r"""A closed form prepared for repeated certified evaluation at fixed exact parameters.

    The discrete parts are decided (:func:`resolve_exact`), the expression is compiled,
    and the arguments are kept as exact fractions (:math:`b` as :math:`e^{-\varepsilon}`
    from the exact :math:`\varepsilon`), so that a call costs one ball evaluation and one
    rounding. :meth:`prepare` returns ``None`` for an expression the evaluator does not
    handle or a symbol without a value.
    """

    __slots__ = ("_args", "_fn", "allow_zero", "guard_digits")

    def __init__(self, fn: Callable[..., flint.arb], args: list[tuple[bool, int | flint.fmpq]],
                 allow_zero: bool, guard_digits: int) -> None:
        self._fn, self._args = fn, args
        self.allow_zero, self.guard_digits = allow_zero, guard_digits

    @classmethod
    def prepare(cls, expr: sp.Expr, values: Mapping[sp.Symbol, Fraction], *,
                allow_zero: bool = False, guard_digits: int = 0
                ) -> BallPlan | ExactPlan | None:
        """The plan of ``expr`` at exact ``values`` (see :func:`ball_value`): an
        :class:`ExactPlan` when the value is an exact rational, or None. An irrational
        value (a constant sympy expression such as ``log(3)``) is substituted into
        ``expr`` (:math:`b` too, as ``exp(-eps)``) and evaluated with it."""
        irrational = {s: v for s, v in values.items() if not isinstance(v, Fraction)}
        if irrational:
            if eps in irrational:
                irrational[b] = sp.exp(-irrational[eps])
            expr = sp.sympify(expr).xreplace(irrational)
            values = {s: v for s, v in values.items() if isinstance(v, Fraction)}
        expr = resolve_exact(expr, values)
        exact = _exact_rational(expr, values)
        if exact is not None:
            return ExactPlan(exact, allow_zero)
        plan = _plan(expr)
        if plan is None:
            return None
        symbols, fn = plan
        args = []
        for s in symbols:
            if s in values:
                args.append((False, _flint_exact(values[s])))
            elif s == b and eps in values:
                args.append((True, _flint_exact(values[eps])))
            else:
                return None
        return cls(fn, args, allow_zero, guard_digits)

    def enclosure(self, prec: int) -> flint.arb:
        """A ball containing the value, computed at ``prec`` bits."""
        with arb_workprec(prec):  # the precision is scoped to this evaluation
            # every argument enters as a ball (an int exactly): Python's own int
            # arithmetic in the generated code would divide in floating point
            return _arb(self._fn(*((-flint.arb(x)).exp() if exp_minus else flint.arb(x)
                                   for exp_minus, x in self._args)))

    @exclusive
    def __call__(self, digits: int) -> Certified | None:
        """The value certified to ``digits`` digits, or None (see :func:`ball_value`)."""
        try:
            return refine(self.enclosure, digits, allow_zero=self.allow_zero,
                          guard_bits=GUARD_BITS + int(self.guard_digits * BITS_PER_DIGIT))
        except CertificationError:
            return None


class BallFunction:
    r"""An expression as a function of one free symbol, the other symbols at exact values.

    Compiled like a :class:`BallPlan` (discrete parts decided, :math:`b = e^{-\varepsilon}`
    from the exact :math:`\varepsilon`); a call takes an Arb ball for the free symbol (an
    interval of it, or a point) and returns a ball containing the expression's values on
    it, at the caller's working precision (the caller holds ``arb_workprec``).
    :meth:`prepare` returns ``None`` for an expression the evaluator does not handle.
    """

    __slots__ = ("_args", "_cache", "_fn", "_index")

    def __init__(self, fn: Callable[..., flint.arb], args: list[tuple[bool, int | flint.fmpq]],
                 index: int | None) -> None:
        self._fn, self._args, self._index = fn, args, index
        self._cache: dict[int, list[flint.arb]] = {}

    @classmethod
    def prepare(cls, expr: sp.Expr, values: Mapping[sp.Symbol, Fraction],
                free: sp.Symbol) -> BallFunction | None:
        """``expr`` as a ball function of ``free`` at exact ``values`` (or None)."""
        irrational = {s: v for s, v in values.items() if not isinstance(v, Fraction)}
        if irrational:
            if eps in irrational:
                irrational[b] = sp.exp(-irrational[eps])
            expr = sp.sympify(expr).xreplace(irrational)
            values = {s: v for s, v in values.items() if isinstance(v, Fraction)}
        expr = resolve_exact(sp.sympify(expr), values)
        plan = _plan(expr)
        if plan is None:
            return None
        symbols, fn = plan
        args: list[tuple[bool, int | flint.fmpq]] = []
        index = None
        for position, s in enumerate(symbols):
            if s == free:
                index = position
                args.append((False, 0))
            elif s in values:
                args.append((False, _flint_exact(values[s])))
            elif s == b and eps in values:
                args.append((True, _flint_exact(values[eps])))
            else:
                return None
        return cls(fn, args, index)

    def __call__(self, x: flint.arb) -> flint.arb:
        """The ball of the expression at free symbol ``x`` (current precision)."""
        prec = flint.ctx.prec
        fixed = self._cache.get(prec)
        if fixed is None:
            fixed = [(-flint.arb(v)).exp() if exp_minus else flint.arb(v)
                     for exp_minus, v in self._args]
            self._cache[prec] = fixed
        if self._index is None:
            return _arb(self._fn(*fixed))
        args = list(fixed)
        args[self._index] = x
        return _arb(self._fn(*args))


class ExactPlan:
    """A closed form that is a rational function of exactly known parameters: its value is
    an exact rational, rounded exactly (a tie such as :math:`3.125` to three digits is
    decided, where any rounded evaluation could fall on either side)."""

    __slots__ = ("allow_zero", "value")

    def __init__(self, value: Fraction, allow_zero: bool) -> None:
        self.value, self.allow_zero = value, allow_zero

    def __call__(self, digits: int) -> Certified | None:
        """The value rounded to ``digits`` digits (None for a zero that is not allowed)."""
        if not self.value and not self.allow_zero:
            return None
        return Certified.exact(self.value, digits)


def _exact_rational(expr: sp.Expr, values: Mapping[sp.Symbol, Fraction]) -> Fraction | None:
    r"""The exact value of ``expr`` when it is a rational function of exactly given
    parameters (no :math:`b = e^{-\varepsilon}`, no function), else None."""
    if not expr.free_symbols <= set(values):
        return None
    for node in sp.preorder_traversal(expr):
        if not (isinstance(node, (sp.Symbol, sp.Rational, sp.Add, sp.Mul))
                or (isinstance(node, sp.Pow) and node.exp.is_Integer)):
            return None
    value = expr.xreplace({s: sp.Rational(v.numerator, v.denominator)
                           for s, v in values.items()})
    if not value.is_Rational:
        return None
    if abs(value.p).bit_length() + value.q.bit_length() > 4 * EXACT_SCALE:
        return None  # an exact value too large to round in integers: use the balls
    return Fraction(int(value.p), int(value.q))


@exclusive
def enclosure(expr: sp.Expr, values: Mapping[sp.Symbol, Fraction], prec: int
              ) -> flint.arb | None:
    r"""A ball containing ``expr`` at exact parameter ``values``, at ``prec`` bits.

    :math:`b = e^{-\varepsilon}` is supplied from ``eps``. Returns ``None`` if ``expr``
    has a node the evaluator does not handle or a symbol without a value.
    """
    plan = BallPlan.prepare(expr, values)
    if isinstance(plan, ExactPlan):
        with arb_workprec(prec):
            return flint.arb(flint.fmpq(plan.value.numerator, plan.value.denominator))
    return None if plan is None else plan.enclosure(prec)


@exclusive
def ball_value(expr: sp.Expr, values: Mapping[sp.Symbol, Fraction], digits: int, *,
               allow_zero: bool = False, guard_digits: int = 0
               ) -> tuple[mpmath.mpf, str] | None:
    r"""``expr`` at exact ``values``, certified to ``digits`` significant digits.

    Parameters
    ----------
    expr : sympy.Expr
        A closed form in the parameters (and :math:`b = e^{-\varepsilon}`).
    values : mapping of Symbol to Fraction
        Exact parameter values.
    digits : int
        Significant digits wanted.
    allow_zero : bool
        Whether an exact zero is a possible value (then a ball that is exactly zero
        certifies ``"0"``); otherwise a ball containing zero asks for more precision.
    guard_digits : int
        Extra guard digits of the first evaluation (cancellation expected as
        :math:`\varepsilon \to 0`).

    Returns
    -------
    (mpmath.mpf, str) or None
        The ball's midpoint and its rounding to ``digits`` digits (the text
        :func:`dpsym.certified.rounding.format_digits` prints for every point of the ball), or
        ``None`` when the expression is not one the evaluator handles or no certificate
        was reached (the caller then uses the mpmath path).
    """
    plan = BallPlan.prepare(expr, values, allow_zero=allow_zero, guard_digits=guard_digits)
    found = None if plan is None else plan(digits)
    return None if found is None else (found.number(), found.text())
