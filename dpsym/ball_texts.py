r"""Constant expressions as Arb balls, and balls as certified decimal texts.

:func:`arb_of` encloses a constant sympy expression (elementary nodes exactly, special
functions through :func:`dpsym.balls.enclosure`); :func:`certify` rounds the balls of a
computation, refined until both ends round alike, to the nearest; :func:`certify_directed`
and :func:`outward` round down or up (a lower or an upper bound stays one);
:func:`nonneg` clips a probability's ball at 0. Shared by the privacy-loss laws
(:mod:`dpsym.privacy_loss`), the Renyi divergences and composition.
"""

from __future__ import annotations

from collections.abc import Callable
from fractions import Fraction

import flint
import mpmath
import sympy as sp
from mpmath.libmp import from_man_exp

from .balls import enclosure
from .errors import CertificationError, DomainError, UnsupportedError
from .expressions import exact_ball
from .numerics import check_digits, directed_text, format_digits
from .precision import arb_workprec, workdps

_BITS_PER_DIGIT = 3.3219280948873626


def arb_of(expr: object) -> flint.arb:
    """A ball containing the constant sympy expression ``expr`` at the current Arb
    precision: the elementary nodes by :func:`dpsym.expressions.exact_ball`, anything
    else (special functions) by :func:`dpsym.balls.enclosure`."""
    e = sp.sympify(expr)
    try:
        return exact_ball(e)
    except DomainError:
        pass
    ball = enclosure(e, {}, flint.ctx.prec)
    if ball is None:
        raise UnsupportedError(f"cannot evaluate {str(e)[:60]} in ball arithmetic")
    return ball


def exact_sym(value: object) -> sp.Expr:
    """An exact number (Fraction, int or constant sympy expression) as a sympy number."""
    if isinstance(value, Fraction):
        return sp.Rational(value.numerator, value.denominator)
    return sp.sympify(value)


def sort_key(expr: sp.Expr) -> mpmath.mpf:
    """A 60-digit value of a constant (for ordering breakpoints)."""
    if expr is sp.oo:
        return mpmath.inf
    if expr is -sp.oo:
        return -mpmath.inf
    with workdps(60):
        return +mpmath.mpf(sp.N(expr, 60))


def certify(enclose: Callable[[int], flint.arb], digits: int, *,
            allow_zero: bool = False, attempts: int = 8) -> tuple[mpmath.mpf, str]:
    r"""Round the balls ``enclose(prec)`` to ``digits`` certified digits.

    The precision starts at the bits of ``digits`` plus 64 and doubles until both ends of
    the ball round to the same decimal (rounding is monotone, so every point of the ball,
    the exact value included, rounds to it). A ball that is exactly zero gives ``"0"``
    when ``allow_zero``.

    Raises
    ------
    CertificationError
        If no precision tried decides the digits.
    """
    digits = check_digits(digits)
    prec = int(digits * _BITS_PER_DIGIT) + 64
    for _ in range(attempts):
        with arb_workprec(prec):
            ball = enclose(prec)
            finite = ball.is_finite()
            if finite:
                lo, hi, mid = _mpf(ball.lower()), _mpf(ball.upper()), _mpf(ball.mid())
        if finite:
            if ball.is_zero() and allow_zero:
                return mpmath.mpf(0), "0"
            if lo * hi > 0:
                text_lo, text_hi = format_digits(lo, digits), format_digits(hi, digits)
                if text_lo == text_hi:
                    return mid, text_lo
        prec *= 2
    raise CertificationError(f"value could not be certified to {digits} digits")


def _mpf(value: flint.arb) -> mpmath.mpf:
    """An exact Arb number (an endpoint or midpoint) as an mpf, without rounding."""
    man, exp = value.man_exp()
    return mpmath.mp.make_mpf(from_man_exp(int(man), int(exp)))


def certify_directed(enclose: Callable[[int], flint.arb], digits: int, *, up: bool,
                     attempts: int = 8) -> tuple[mpmath.mpf, str]:
    r"""Round the balls ``enclose(prec)`` to ``digits`` digits in one direction: the
    smallest decimal of ``digits`` significant digits :math:`\ge` the exact value
    (``up``), or the largest :math:`\le` it.

    The precision doubles until both ends of the ball round (in that direction) to the
    same decimal, which is then the directed rounding of the exact value; otherwise (an
    exact value on a decimal of ``digits`` digits, where the ends never agree) the
    rounding of the far end is returned, still on the safe side. A ball that is exactly
    zero gives ``"0"``.

    Raises
    ------
    CertificationError
        If no precision tried gives a finite ball.
    """
    digits = check_digits(digits)
    prec = int(digits * _BITS_PER_DIGIT) + 64
    safe = None
    for _ in range(attempts):
        with arb_workprec(prec):
            ball = enclose(prec)
            if ball.is_finite():
                if ball.is_zero():
                    return mpmath.mpf(0), "0"
                mid = _mpf(ball.mid())
                lo, hi = directed_texts(ball, digits)
                near, far = (lo[1], hi[1]) if up else (hi[0], lo[0])
                if near == far:
                    return mid, far
                safe = (mid, far)
        prec *= 2
    if safe is None:
        raise CertificationError(f"value could not be certified to {digits} digits")
    return safe


def directed_texts(ball: flint.arb, digits: int) -> tuple[tuple[str, str], tuple[str, str]]:
    """``((down, up), (down, up))``: each end of ``ball`` (lower, then upper) rounded to
    ``digits`` significant digits down and up, exactly (:func:`dpsym.numerics.directed_text`)."""
    out = []
    for end in (ball.lower(), ball.upper()):
        exact = _fraction(end)
        out.append(tuple(_plain(directed_text(exact, digits, up=u)) for u in (False, True)))
    return out[0], out[1]


def _fraction(value: flint.arb) -> Fraction:
    """An exact Arb number (an endpoint or midpoint) as a fraction."""
    man, exp = value.man_exp()
    man, exp = int(man), int(exp)
    return Fraction(man * 2**exp) if exp >= 0 else Fraction(man, 2**-exp)


def _plain(text: str) -> str:
    return text[:-1] if text.endswith(".") else text


def outward(ball: flint.arb, digits: int) -> tuple[str, str]:
    """The ends of ``ball`` rounded outward to ``digits`` significant digits: the lower
    end down, the upper end up (exact decimal rounding of the exact binary ends)."""
    lo, hi = directed_texts(ball, digits)
    return lo[0], hi[1]


def decimal_parts(text: str) -> tuple[int, int]:
    r"""A decimal text of the package's own (``"-1.25e-400"``, any exponent and any number
    of digits) as ``(m, e)``, its value exactly :math:`m \cdot 10^e` (neither
    :class:`decimal.Decimal`, whose exponents are bounded, nor Python's decimal string
    conversion, refused beyond 4300 digits).

    Raises
    ------
    DomainError
        If ``text`` is not a decimal number.
    """
    body = text.strip().lower()
    mantissa, _, exponent = body.partition("e")
    sign = -1 if mantissa.startswith("-") else 1
    whole, _, frac = mantissa.lstrip("+-").partition(".")
    digits = (whole + frac).lstrip("0") or "0"
    exp_text = exponent.lstrip("+-")
    if not (digits.isascii() and digits.isdigit() and (not exponent or (
            exp_text.isascii() and exp_text.isdigit()))):
        raise DomainError("value", f"not a decimal number: {text[:40]!r}")
    power = (-1 if exponent.startswith("-") else 1) * int(flint.fmpz(exp_text)) \
        if exponent else 0
    return sign * int(flint.fmpz(digits)), power - len(frac)


def decimal_ball(text: str) -> flint.arb:
    """A ball of the exact decimal ``text`` at the current Arb precision, with its power of
    ten computed at the extra precision a huge exponent needs."""
    man, power = decimal_parts(text)
    prec = flint.ctx.prec
    with arb_workprec(prec + abs(power).bit_length() + 16):
        value = flint.arb(flint.fmpz(man)) * flint.arb(10) ** power
    return +value


def decimal_fraction(text: str, limit: int = 100_000) -> Fraction:
    """The exact decimal ``text`` as a fraction, for an exponent of at most ``limit``
    (a larger power of ten is not a fraction one can hold).

    Raises
    ------
    UnsupportedError
        Beyond the limit.
    """
    man, power = decimal_parts(text)
    if abs(power) > limit:
        raise UnsupportedError(f"the decimal {text[:24]}... has an exponent beyond "
                               f"{limit}: it is not held as an exact fraction")
    return Fraction(man) * Fraction(10) ** power


def nonneg(ball: flint.arb) -> flint.arb:
    r"""The ball intersected with :math:`[0, \infty)` (a probability: a ball entirely
    below 0 can only enclose 0)."""
    if ball >= 0:
        return ball
    if ball.is_nan():  # nothing is known: never an exact zero
        return ball
    if not ball.upper() > 0:
        return flint.arb(0)
    return flint.arb(0).union(flint.arb(ball.upper()))


__all__ = ["arb_of", "certify", "certify_directed", "decimal_ball", "decimal_fraction",
           "decimal_parts", "directed_texts", "exact_sym", "nonneg", "outward", "sort_key"]
