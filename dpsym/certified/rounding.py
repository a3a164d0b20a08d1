r"""Exact decimal rounding of exact numbers: the digits dpsym prints, decided in integers.

Every printed digit of dpsym comes from here. An exact binary number
:math:`m\,2^e` (an mpf, or an end or the midpoint of an Arb ball) or an exact rational is
rounded to a number of significant digits in integer arithmetic: to nearest, half away
from zero (:func:`decimal_rounding`, :func:`fraction_rounding`), or in a direction
(:func:`directed_text`), and laid out in one style (:func:`decimal_text`). A ball's ends
rounded alike prove its digits (:mod:`dpsym.certified.kernel`); the ends rounded outwards
show its proven range (:func:`enclosure_texts`). Numbers of huge decimal exponent
(:math:`e^{-10^{20}}`) are scaled through logarithms in Arb, never formed as fractions,
and no number is converted by Python's ``str(int)`` (refused beyond 4300 digits).
"""

from __future__ import annotations

import math
from collections.abc import Callable
from decimal import Decimal, InvalidOperation
from fractions import Fraction
from functools import lru_cache

import flint
import mpmath
from gmpy2 import mpz
from mpmath.libmp import from_man_exp

from dpsym.errors import CertificationError, DomainError, UnsupportedError
from dpsym.precision import arb_workprec, workdps

#: Largest number of significant digits a value may be asked for.
MAX_DIGITS = 10_000


#: Guard digits of the first evaluation; doubled on each retry.
GUARD = 15


def decimal_digits(n: int) -> int:
    """The number of decimal digits of the positive integer ``n``, from its bit length:
    exact, or one more just below a power of ten (no decimal conversion, which Python
    refuses beyond 4300 digits)."""
    return int(n.bit_length() * LOG10_2) + 1


#: Digits that internal callers of :func:`certified` may add to a validated request
#: (e.g. the guard digits of a lower bound rounded down).
INTERNAL_DIGITS = 100


def check_digits(digits: object, limit: int = MAX_DIGITS) -> int:
    """Validate a requested number of significant digits (an integer in [1, ``limit``],
    by default [1, 10000])."""
    if isinstance(digits, bool) or not isinstance(digits, int):
        try:
            text = digits.strip().lstrip("+") if isinstance(digits, str) else ""
            if text.isascii() and text.isdigit():
                digits = int(text)
            else:
                raise ValueError
        except ValueError:
            raise DomainError("digits", f"must be an integer in [1, {limit}]") from None
    if not 1 <= digits <= limit:
        raise DomainError("digits", f"must be an integer in [1, {limit}], got {digits}")
    return digits


def format_digits(value: mpmath.mpf, digits: int) -> str:
    r"""``value`` correctly rounded to ``digits`` significant digits, as a decimal string.

    The binary value is rounded exactly (half away from zero) in integer arithmetic:
    mpmath's own conversion first truncates to about ``digits + 3`` decimal digits, so a
    value within :math:`10^{-\mathrm{digits}-3}` (relative) of a rounding tie may print
    the wrong last digit. The layout is mpmath's ``nstr(value, digits,
    strip_zeros=False, min_fixed=-6, max_fixed=max(digits, 15))`` (see
    :func:`decimal_text`).
    """
    if value == 0:
        return "0"
    raw = value._mpf_ if isinstance(value, mpmath.mpf) else mpmath.mpf(value)._mpf_
    sign, man, exp, _ = raw  # exact: no rounding to the context's precision
    if not man:  # inf or nan
        return mpmath.nstr(value, digits)
    return decimal_text(*decimal_rounding(-man if sign else man, exp, digits), digits)


def decimal_rounding(man: int, exp: int, digits: int) -> tuple[int, str, int]:
    r"""The exact rounding of :math:`x = \mathrm{man} \cdot 2^{\mathrm{exp}} \ne 0` to
    ``digits`` significant digits, half away from zero.

    In integers while the scale :math:`10^k` stays below :data:`EXACT_SCALE` digits;
    beyond (values like :math:`e^{-10^{20}}`) by Arb balls of :math:`x \, 10^k` through
    logarithms, refined until the rounding is decided (an exact tie cannot occur there).

    Returns
    -------
    (int, str, int)
        The sign (1 for negative), the ``digits`` decimal digits :math:`d_1 d_2 \dots`
        and the decimal exponent :math:`E`: the rounded number is
        :math:`\pm d_1.d_2 \dots \times 10^{E}`.
    """
    if not man:
        raise ValueError("zero has no significant digits")
    m = mpz(man)
    sign = 1 if m < 0 else 0
    m = abs(m)
    power = floor_log10_pow2(m.bit_length() + exp - 1)  # floor(log10 x), or one below
    if abs(digits - 1 - power) > EXACT_SCALE:
        return (sign, *_logarithmic_rounding(m, exp, digits, power))
    return (sign, *_exponent_search(digits, power, lambda k: scaled_rounding(m, exp, k)))


def fraction_rounding(value: Fraction, digits: int) -> tuple[int, str, int]:
    """The exact rounding of a rational ``value != 0`` to ``digits`` significant digits,
    half away from zero (as :func:`decimal_rounding`)."""
    if not value:
        raise ValueError("zero has no significant digits")
    sign = 1 if value < 0 else 0
    num, den = mpz(abs(value.numerator)), mpz(value.denominator)

    def scaled(k: int) -> tuple[mpz, mpz]:  # floor and rounding of value 10^k, one divmod
        n, d = (num * pow10(k), den) if k >= 0 else (num, den * pow10(-k))
        head, rest = divmod(n, d)
        return head, head + 1 if 2 * rest >= d else head  # half away from zero

    power = floor_log10_pow2(num.bit_length() - den.bit_length() - 1)
    return (sign, *_exponent_search(digits, power, scaled))


def _exponent_search(digits: int, power: int,
                     scaled: Callable[[int], tuple[mpz, mpz]]) -> tuple[str, int]:
    r"""The digits and decimal exponent of a positive :math:`x` rounded to ``digits``
    digits, given ``scaled(k)`` :math:`= (\lfloor x 10^k \rfloor,` its rounding half
    away from zero) and a guess ``power`` of :math:`\lfloor \log_{10} x \rfloor` (off by
    at most one): the exponent is corrected until :math:`x 10^{k}` has ``digits``
    integer digits, and a rounding up to :math:`10^{\text{digits}}` carries into it."""
    while True:
        head, rounded = scaled(digits - 1 - power)
        if head >= pow10(digits):
            power += 1
        elif head < pow10(digits - 1):
            power -= 1
        else:
            break
    if rounded == pow10(digits):
        return "1" + "0" * (digits - 1), power + 1
    return str(rounded), power


#: :math:`\log_{10} 2` in double precision (for exponents below :math:`2^{50}`).
LOG10_2 = 0.30102999566398120


#: Largest number of decimal digits of the integer scale :math:`10^k` formed exactly.
EXACT_SCALE = 20_000


def floor_log10_pow2(n: int) -> int:
    r""":math:`\lfloor n \log_{10} 2 \rfloor` within one unit (callers correct it)."""
    if abs(n) < 2**50:  # the double product errs by far less than one unit here
        return math.floor(n * LOG10_2)
    with workdps(len(str(abs(n))) + 20):
        return int(mpmath.floor(n * mpmath.log10(2)))


def _logarithmic_rounding(m: mpz, e: int, digits: int, power: int) -> tuple[str, int]:
    r"""``(digits, E)`` of :math:`x = m\,2^e` rounded, for a huge decimal exponent: balls
    of :math:`x\,10^{k} = \exp(\ln m + e \ln 2 + k \ln 10)` at a precision that covers
    the exponent's bits, doubled until the leading decade and the rounding are certain."""
    prec = int(digits / LOG10_2) + 64 + 2 * max(abs(e), abs(power), 2).bit_length()
    for _ in range(16):
        with arb_workprec(prec):
            k = digits - 1 - power
            y = (flint.arb(int(m)).log() + e * flint.arb.const_log2()
                 + k * flint.arb.const_log10()).exp()
            low, high = flint.arb(10) ** (digits - 1), flint.arb(10) ** digits  # exact
            if y < low:
                power -= 1
                continue
            if y >= high:
                power += 1
                continue
            rounded = (y + flint.arb(1) / 2).floor().unique_fmpz()
            if y >= low and y < high and rounded is not None:
                if rounded == 10**digits:
                    return "1" + "0" * (digits - 1), power + 1
                return str(rounded), power
        prec *= 2
    raise CertificationError(f"could not round a number of decimal exponent {power}")


def scaled_decimal(value: mpmath.mpf, digits: int, accuracy: int
                   ) -> tuple[int, Fraction, int]:
    r"""A positive ``value`` :math:`x` scaled to ``digits`` integer digits:
    ``(head, tail, power)`` with :math:`x\,10^{k} = \mathrm{head} + \mathrm{tail}`,
    :math:`k = \mathrm{digits} - 1 - \mathrm{power}`, :math:`10^{\mathrm{digits}-1} \le
    \mathrm{head} < 10^{\mathrm{digits}}` and :math:`0 \le \mathrm{tail} < 1`
    (``power`` is :math:`\lfloor \log_{10} x \rfloor`).

    Exact in integers while the scale :math:`10^k` stays below :data:`EXACT_SCALE` digits;
    beyond, ``head`` is exact and ``tail`` is within :math:`10^{-(\mathrm{accuracy} -
    \mathrm{digits})}` (an Arb ball of :math:`\exp(\ln m + e \ln 2 + k \ln 10)` at a
    precision covering the exponent's bits, refined until its floor is decided)."""
    sign, man, exp, _ = value._mpf_
    if sign or not man:
        raise ValueError("scaled_decimal takes a positive finite value")
    m = mpz(man)
    power = floor_log10_pow2(m.bit_length() + exp - 1)
    while True:
        k = digits - 1 - power
        if abs(k) <= EXACT_SCALE:
            if k >= 0:
                num, den = m * pow10(k), mpz(1)
            else:
                num, den = m, pow10(-k)
            if exp >= 0:
                num = num << exp
            else:
                den = den << -exp
            head, rest = divmod(num, den)
            tail = Fraction(int(rest), int(den))
        else:
            head, tail = _scaled_ball(m, exp, k, accuracy)
        if head >= pow10(digits):
            power += 1
        elif head < pow10(digits - 1):
            power -= 1
        else:
            return int(head), tail, power


def _scaled_ball(m: mpz, e: int, k: int, accuracy: int) -> tuple[int, Fraction]:
    r""":math:`\lfloor y \rfloor` and an approximation of :math:`y - \lfloor y \rfloor`
    for :math:`y = m\,2^e\,10^k` (see :func:`scaled_decimal`)."""
    prec = int(accuracy / LOG10_2) + 64 + 2 * max(abs(e), abs(k), 2).bit_length()
    for _ in range(16):
        with arb_workprec(prec):
            y = (flint.arb(int(m)).log() + e * flint.arb.const_log2()
                 + k * flint.arb.const_log10()).exp()
            head = y.floor().unique_fmpz()
            if head is not None:
                mid, two = y.mid().man_exp()
                tail = Fraction(int(mid)) * Fraction(2) ** int(two) - int(head)
                return int(head), min(max(tail, Fraction(0)), Fraction(1) - Fraction(1, 2**prec))
        prec *= 2
    raise CertificationError(f"could not scale a number of decimal exponent {-k}")


def display_number(text: str, digits: int) -> str:
    r"""A decimal string shown with ``digits`` significant digits in one uniform style.

    Positional (``0.831199``, ``1.00000``, ``250000``) when the decimal exponent
    :math:`e` of the number satisfies :math:`-5 \le e < \mathrm{digits}`, scientific
    (``2.50000e+29``) otherwise, so that no shown digit is a placeholder. ``text`` is a
    correctly rounded decimal with at most ``digits`` significant digits (a certified
    value's text), so the digits shown are the same digits.
    """
    try:
        number = Decimal(text)
    except InvalidOperation:
        return text
    if not number.is_finite():
        return text
    if number == 0:
        return "0"
    e = number.adjusted()
    if -5 <= e < digits:
        return f"{number:.{max(digits - 1 - e, 0)}f}"
    return f"{number:.{digits - 1}e}"


@lru_cache(maxsize=256)
def pow10(k: int) -> mpz:
    """:math:`10^k` as an mpz (cached)."""
    return mpz(10) ** k


def shifted_rounding(num: mpz, shift: int) -> tuple[mpz, mpz]:
    r""":math:`\lfloor y \rfloor` and :math:`\lfloor y + 1/2 \rfloor` for
    :math:`y = \mathrm{num} \cdot 2^{-\mathrm{shift}}`, ``num >= 0``."""
    if shift <= 0:
        num = num << -shift
        return num, num
    return num >> shift, (num + (mpz(1) << (shift - 1))) >> shift


def scaled_rounding(m: mpz, e: int, k: int) -> tuple[mpz, mpz]:
    r""":math:`\lfloor y \rfloor` and :math:`\lfloor y + 1/2 \rfloor` for
    :math:`y = m \, 2^e \, 10^k`, ``m >= 0``, exactly."""
    if k >= 0:
        return shifted_rounding(m * pow10(k), -e)
    num, den = m, pow10(-k)
    if e >= 0:
        num = num << e
    else:
        den = den << -e
    return num // den, (2 * num + den) // (2 * den)


def decimal_text(sign: int, mantissa: str, power: int, digits: int) -> str:
    r"""The text of a number rounded to ``digits`` digits (:func:`decimal_rounding`), laid
    out as mpmath's ``nstr(x, digits, strip_zeros=False, min_fixed=-6,
    max_fixed=max(digits, 15))``: fixed notation for decimal exponents strictly between -6
    and ``max(digits, 15)``, otherwise ``d.ddd...e<exponent>``; trailing zeros kept."""
    if -6 < power < max(digits, 15):
        if power < 0:
            mantissa, split = "0" * -power + mantissa, 1
        else:
            split = power + 1
            if split > digits:
                mantissa += "0" * (split - digits)
        power = 0
    else:
        split = 1
    text = ("-" if sign else "") + mantissa[:split] + "." + mantissa[split:]
    if power == 0:
        return text
    return f"{text}e+{power}" if power > 0 else f"{text}e{power}"


#: Significant digits of an enclosure's ends beyond those asked for, at most.
ENCLOSURE_EXTRA_DIGITS = 20


def directed_rounding(value: Fraction | tuple[int, int], digits: int, up: bool
                      ) -> tuple[int, str, int]:
    r"""The exact rounding of ``value`` to ``digits`` significant digits towards
    :math:`+\infty` (``up``) or :math:`-\infty`: ``(sign, digits, E)`` as
    :func:`decimal_rounding` returns them (zero: ``(0, "0", 0)``).

    ``value`` is a fraction or an exact binary number ``(man, exp)``; a binary number of
    huge exponent (:math:`e^{-10^{20}}`) is scaled by :func:`scaled_decimal` (its floor is
    exact at any decimal exponent; it is never an integer there), never formed as a
    fraction.
    """
    exact = _small_fraction(value)
    if exact is None:
        assert not isinstance(value, Fraction)  # (a fraction is its own)
        man, e = int(value[0]), int(value[1])
        sign = 1 if man < 0 else 0
        x = mpmath.mp.make_mpf(from_man_exp(abs(man), e))
        head, tail, power = scaled_decimal(x, digits, digits + 10)
        m = head + 1 if (up != bool(sign)) and tail else head
        if m == pow10(digits):
            m, power = pow10(digits - 1), power + 1
        return sign, str(mpz(m)), power
    if not exact:
        return 0, "0", 0
    sign = 1 if exact < 0 else 0
    num, den = mpz(abs(exact.numerator)), mpz(exact.denominator)
    away = up != bool(sign)  # round the magnitude up

    def scaled(k: int) -> tuple[mpz, mpz]:
        n, d = (num * pow10(k), den) if k >= 0 else (num, den * pow10(-k))
        head, rest = divmod(n, d)
        return head, head + 1 if away and rest else head

    power = floor_log10_pow2(num.bit_length() - den.bit_length() - 1)
    return (sign, *_exponent_search(digits, power, scaled))


def directed_text(value: Fraction | tuple[int, int], digits: int, up: bool) -> str:
    r"""``value`` (a fraction or an exact binary ``(man, exp)``) rounded to ``digits``
    significant digits towards :math:`+\infty` (``up``) or :math:`-\infty`
    (:func:`directed_rounding`), laid out as :func:`decimal_text`; an exactly
    representable value is printed exactly."""
    sign, mantissa, power = directed_rounding(value, digits, up)
    if mantissa == "0":
        return "0"
    return decimal_text(sign, mantissa, power, digits)


def enclosure_texts(lo: Fraction | tuple[int, int], hi: Fraction | tuple[int, int],
                    digits: int) -> tuple[str, str]:
    r"""Decimal strings :math:`[l, h] \supseteq [\mathrm{lo}, \mathrm{hi}]`, rounded
    outwards with enough significant digits to show the width (at least ``digits``, at
    most ``digits +`` :data:`ENCLOSURE_EXTRA_DIGITS`; equal ends for an exactly
    representable point).

    ``lo`` and ``hi`` are fractions or exact binary numbers ``(man, exp)``; binary numbers
    of huge exponent (:math:`e^{-10^{20}}`) are rounded to nearest and widened by one unit
    in the last digit, never formed as fractions.
    """
    small_lo, small_hi = _small_fraction(lo), _small_fraction(hi)
    if small_lo is None or small_hi is None:
        return _widened_texts(lo, hi, digits + 3)
    lo, hi = small_lo, small_hi
    if lo > hi:
        lo, hi = hi, lo
    size = max(abs(lo), abs(hi))
    n = digits
    if lo != hi and size:
        ratio = size / (hi - lo)
        n = max(digits, decimal_digits(max(1, ratio.numerator // ratio.denominator)) + 2)
    n = min(n, digits + ENCLOSURE_EXTRA_DIGITS)
    if lo == hi:
        n = _terminating_digits(lo, digits + ENCLOSURE_EXTRA_DIGITS) or n
    return plain(directed_text(lo, n, up=False)), plain(directed_text(hi, n, up=True))


#: Largest number of bits of an enclosure's end formed as a fraction.
_FRACTION_BITS = 200_000


def _small_fraction(x: Fraction | tuple[int, int]) -> Fraction | None:
    """A fraction, or an exact binary ``(man, exp)`` as one when it is small enough."""
    if isinstance(x, Fraction):
        return x
    man, exp = int(x[0]), int(x[1])
    if not man:
        return Fraction(0)
    if abs(exp) + man.bit_length() > _FRACTION_BITS:
        return None
    return Fraction(man) * 2**exp if exp >= 0 else Fraction(man, 2**-exp)


def _widened_texts(lo: Fraction | tuple[int, int], hi: Fraction | tuple[int, int],
                   digits: int) -> tuple[str, str]:
    """Outward strings for ends of huge exponent: each rounded to nearest
    (:func:`decimal_rounding`), then moved one unit in the last digit outwards."""
    texts = []
    for x, up in ((lo, False), (hi, True)):
        if isinstance(x, Fraction):
            sign, mantissa, power = fraction_rounding(x, digits) if x else (0, "0", 0)
        elif not x[0]:
            texts.append("0")
            continue
        else:
            sign, mantissa, power = decimal_rounding(int(x[0]), int(x[1]), digits)
        m = int(mantissa) + (1 if up != bool(sign) else -1)  # the magnitude moved
        if m >= 10**digits:
            m, power = m // 10, power + 1
        elif m < 10 ** (digits - 1):
            m, power = m * 10 + 9, power - 1
        texts.append(plain(decimal_text(sign, str(m), power, digits)))
    return texts[0], texts[1]


def plain(text: str) -> str:
    """A decimal text without a trailing point (``"2."`` is ``"2"``)."""
    return text[:-1] if text.endswith(".") else text


def _terminating_digits(value: Fraction, limit: int) -> int | None:
    """The significant digits of ``value``'s terminating decimal expansion, if it has one
    of at most ``limit`` digits (None otherwise)."""
    if not value:
        return 1
    den = value.denominator
    twos = fives = 0
    while den % 2 == 0:
        den //= 2
        twos += 1
    while den % 5 == 0:
        den //= 5
        fives += 1
    if den != 1:
        return None
    whole = (abs(value) * Fraction(10) ** max(twos, fives)).numerator
    twos_left = (whole & -whole).bit_length() - 1
    zeros, rest = 0, whole
    while zeros < twos_left and rest % 5 == 0:  # the trailing zeros: min(v2, v5)
        rest //= 5
        zeros += 1
    whole //= 10**zeros
    n = decimal_digits(whole)  # exact, or one more just below a power of ten
    if n > 1 and 10 ** (n - 1) > whole:
        n -= 1
    return n if n <= limit else None


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


