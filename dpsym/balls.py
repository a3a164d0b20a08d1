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
:func:`dpsym.numerics.certified`, and Arb's elementary functions are several times faster
than mpmath's at a thousand digits. Expressions with a node Arb does not handle here (an
unresolved ``Piecewise``, a Lerch sum, a float) are declined (:func:`ball_value` returns
``None``) and the caller falls back to mpmath.

Exactly known parameters decide the discrete parts of an expression before any rounding:
``floor``/``ceiling`` of exact arguments and ``Piecewise`` conditions on exact parameters
are evaluated in exact rational arithmetic (:func:`resolve_exact`).

Precision is only ever scoped (``flint.ctx.workprec``, ``mpmath.workprec``).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping
from fractions import Fraction
from functools import lru_cache

import flint
import mpmath
import sympy as sp
from gmpy2 import mpz
from mpmath.libmp import from_man_exp
from sympy.printing.pycode import MpmathPrinter

from .numerics import (
    LOG10_2,
    decimal_rounding,
    decimal_text,
    pow10,
    scaled_rounding,
    shifted_rounding,
)
from .symbols import b, eps

#: Guard bits of the first evaluation, beyond the bits of the digits asked for.
GUARD_BITS = 32
#: How many times the guard is doubled before the ball path gives up.
ATTEMPTS = 8

_BITS_PER_DIGIT = math.log2(10)

#: sympy function classes evaluated by Arb (printed as ``mpmath.<name>`` and mapped below).
_FUNCTIONS = (sp.exp, sp.log, sp.Abs, sp.erf, sp.erfc, sp.sin, sp.cos)
#: Leaf and operation classes of a supported expression.
_NODES = (sp.Symbol, sp.Integer, sp.Rational, sp.Add, sp.Mul, sp.Pow,
          type(sp.pi), type(sp.E))


def _arb(x: object) -> flint.arb:
    return x if isinstance(x, flint.arb) else flint.arb(x)


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

    @property
    def pi(self) -> flint.arb:
        return flint.arb.pi()

    @property
    def e(self) -> flint.arb:
        return flint.arb.const_e()


def _rational(p: int, q: int) -> flint.arb:
    """The ball of ``p/q`` at the current precision."""
    return flint.arb(p) / q


class _ArbPrinter(MpmathPrinter):
    """The mpmath printer with rationals as Arb balls (``_q(p, q)``)."""

    def _print_Rational(self, expr: sp.Rational) -> str:
        return f"_q({expr.p}, {expr.q})"

    def _print_Half(self, expr: sp.Rational) -> str:
        return "_q(1, 2)"


_NAMESPACE = {"mpmath": _ArbNamespace(), "_q": _rational, "abs": abs}


@lru_cache(maxsize=1024)
def supported(expr: sp.Expr) -> bool:
    """Whether every node of ``expr`` is one the ball evaluator handles."""
    for node in sp.preorder_traversal(expr):
        if isinstance(node, sp.Float) or not isinstance(node, _NODES + _FUNCTIONS):
            return False
    return True


@lru_cache(maxsize=1024)
def _compiled(expr: sp.Expr, symbols: tuple[sp.Symbol, ...]) -> Callable[..., flint.arb]:
    return sp.lambdify(symbols, expr, modules=[_NAMESPACE], printer=_ArbPrinter, cse=True)


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


def _to_mpf(x: flint.arb) -> mpmath.mpf:
    """An exact Arb midpoint or endpoint as an mpf (no rounding)."""
    return mpmath.mp.make_mpf(from_man_exp(*_man_exp(x)))


def _ball_rounding(ball: flint.arb, digits: int) -> tuple[int, str, int] | None:
    r"""The decimal rounding (:func:`~dpsym.numerics.decimal_rounding`) shared by every point of
    ``ball``, or None if its points do not all round alike (or its sign is not decided).

    Both ends :math:`m \pm r` are scaled exactly with one multiplication when they lie in
    the same decade; otherwise each end is rounded on its own.
    """
    mid, rad = ball.mid().man_exp(), ball.rad().man_exp()
    m, e = mpz(int(mid[0])), int(mid[1])
    r, f = mpz(int(rad[0])), int(rad[1])
    sign = 1 if m < 0 else 0
    m = abs(m)
    g = min(e, f)
    big, small = m << (e - g), r << (f - g)  # |mid| and rad over the common 2^g
    if big <= small:
        return None  # the ball contains zero
    power = math.floor((m.bit_length() + e - 1) * LOG10_2)
    for _ in range(4):
        k = digits - 1 - power
        if k >= 0:  # the usual case: scale the midpoint once, the (short) radius apart
            scaled_mid, scaled_rad = big * pow10(k), small * pow10(k)
            lo_head, lo_round = shifted_rounding(scaled_mid - scaled_rad, -g)
            hi_head, hi_round = shifted_rounding(scaled_mid + scaled_rad, -g)
        else:
            lo_head, lo_round = scaled_rounding(big - small, g, k)
            hi_head, hi_round = scaled_rounding(big + small, g, k)
        if hi_head >= pow10(digits):
            power += 1
        elif hi_head < pow10(digits - 1):
            power -= 1
        elif lo_head < pow10(digits - 1):  # the ends in two decades: one at a time
            with flint.ctx.workprec(int((big + small).bit_length()) + 8):  # exact ends
                ends = (ball.lower(), ball.upper())
            found = {decimal_rounding(*_man_exp(end), digits) for end in ends}
            return found.pop() if len(found) == 1 else None
        else:
            if lo_round != hi_round:
                return None
            if hi_round == pow10(digits):
                return sign, "1" + "0" * (digits - 1), power + 1
            return sign, str(hi_round), power
    return None


def _man_exp(x: flint.arb) -> tuple[int, int]:
    """The exact mantissa and exponent of an exact Arb number."""
    man, exp = x.man_exp()
    return int(man), int(exp)


@lru_cache(maxsize=1024)
def _plan(expr: sp.Expr) -> tuple[tuple[sp.Symbol, ...], Callable[..., flint.arb]] | None:
    """The symbols and compiled code of a supported expression, or None."""
    if not supported(expr):
        return None
    symbols = tuple(sorted(expr.free_symbols, key=str))
    return symbols, _compiled(expr, symbols)


def enclosure(expr: sp.Expr, values: Mapping[sp.Symbol, Fraction], prec: int
              ) -> flint.arb | None:
    r"""A ball containing ``expr`` at exact parameter ``values``, at ``prec`` bits.

    :math:`b = e^{-\varepsilon}` is supplied from ``eps``. Returns ``None`` if ``expr``
    has a node the evaluator does not handle or a symbol without a value.
    """
    plan = _plan(resolve_exact(expr, values))
    if plan is None:
        return None
    symbols, fn = plan
    with flint.ctx.workprec(prec):
        args = []
        for s in symbols:
            if s in values:
                args.append(_rational(values[s].numerator, values[s].denominator))
            elif s == b and eps in values:
                args.append((-_rational(values[eps].numerator, values[eps].denominator)).exp())
            else:
                return None
        return _arb(fn(*args))


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
        :func:`dpsym.numerics.format_digits` prints for every point of the ball), or
        ``None`` when the expression is not one the evaluator handles or no certificate
        was reached (the caller then uses the mpmath path).
    """
    guard = GUARD_BITS + int(guard_digits * _BITS_PER_DIGIT)
    for _ in range(ATTEMPTS):
        prec = int(digits * _BITS_PER_DIGIT) + guard
        ball = enclosure(expr, values, prec)
        if ball is None:
            return None
        if not ball.is_finite():
            guard *= 2
            continue
        if ball.is_zero() and allow_zero:
            return mpmath.mpf(0), "0"
        rounded = _ball_rounding(ball, digits)
        if rounded is not None:
            return _to_mpf(ball.mid()), decimal_text(*rounded, digits)
        guard *= 2
    return None
