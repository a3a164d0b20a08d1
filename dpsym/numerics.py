r"""From sympy expressions to certified mpmath values.

Precision is only ever scoped, and under the precision lock (:mod:`dpsym.precision`:
``workdps``, ``arb_workprec``); nothing here assigns ``mp.dps``.

Threads: mpmath's and python-flint's working precisions are process-wide. Every change
of precision in dpsym holds one process-wide re-entrant lock, and every public entry point
that computes (``Mechanism.value``, ``privacy_profile``, ``series``, the bounds' ``value``,
the Gaussian calibration, :func:`certified`, :func:`evaluate`...) holds it for the whole
computation (:func:`dpsym.precision.exclusive`), so that any number of threads get the
digits of a serial run. The limit: code outside dpsym that changes mpmath's precision in
another thread during a dpsym computation (assigning ``mpmath.mp.dps``, ``mpmath.workdps``,
sympy's numeric evaluation of special functions) is outside dpsym's control; scope it with
:func:`dpsym.precision.workdps`, or run it inside ``with dpsym.precision.exclusive():``.

The precision contract: :func:`certified` evaluates a quantity at two working precisions,
each with guard digits beyond the requested ``digits``; it returns the value only when
the two results agree once rounded to ``digits`` significant digits, and raises
:class:`~dpsym.errors.CertificationError` when no agreement is reached.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping
from decimal import Decimal, InvalidOperation
from fractions import Fraction
from functools import lru_cache

import flint
import mpmath
import sympy as sp
from gmpy2 import mpz

from .errors import CertificationError, DomainError
from .precision import arb_workprec, exclusive, workdps
from .sums import NUMERIC_FUNCTIONS
from .symbols import b, eps

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


@exclusive
def to_mpf(value: Fraction | int | sp.Expr) -> mpmath.mpf:
    """An exact number (rational, or a constant sympy expression) as an mpf at the
    current working precision."""
    if isinstance(value, sp.Rational):
        value = Fraction(int(value.p), int(value.q))
    elif isinstance(value, sp.Expr):
        if not value.is_number:
            raise ValueError(f"not a number: {value}")
        return _real(mpmath.mpmathify(value.evalf(mpmath.mp.dps + 10)))
    value = Fraction(value)
    return mpmath.mpf(value.numerator) / value.denominator


def _exact_integer_parts(expr: sp.Expr, values: Mapping[sp.Symbol, object]) -> sp.Expr:
    """``expr`` with every floor/ceiling whose arguments are exactly known evaluated."""
    exact = {}
    for s, v in values.items():
        if isinstance(v, (int, Fraction)) and not isinstance(v, bool):
            exact[s] = sp.Rational(Fraction(v).numerator, Fraction(v).denominator)
        elif isinstance(v, sp.Rational):
            exact[s] = v
    parts = {}
    for atom in expr.atoms(sp.floor, sp.ceiling):
        value = atom.xreplace(exact)
        if value.is_Integer:
            parts[atom] = value
    return expr.xreplace(parts) if parts else expr


@lru_cache(maxsize=512)
def _lambdified(expr: sp.Expr, symbols: tuple[sp.Symbol, ...]) -> Callable:
    return sp.lambdify(symbols, expr, modules=[NUMERIC_FUNCTIONS, "mpmath"])


@exclusive
def evaluate(expr: sp.Expr, values: Mapping[sp.Symbol, object]) -> mpmath.mpf:
    r"""Evaluate ``expr`` with mpmath at the current working precision.

    ``values`` maps symbols to exact rationals (or mpf); when :math:`\varepsilon` is given
    and :math:`b` is not, :math:`b = e^{-\varepsilon}` is supplied. Integer parts
    (``floor``, ``ceiling``) of exactly given arguments are evaluated exactly first: in
    binary floating point :math:`\lceil 1/0.01 \rceil` would be 101.
    """
    expr = sp.sympify(expr)
    if expr.has(sp.floor, sp.ceiling):
        expr = _exact_integer_parts(expr, values)
    vals = {s: (v if isinstance(v, mpmath.mpf) else to_mpf(v)) for s, v in values.items()}
    if eps in vals and b not in vals:
        vals[b] = mpmath.exp(-vals[eps])
    symbols = tuple(sorted(expr.free_symbols, key=str))
    missing = [s for s in symbols if s not in vals]
    if missing:
        raise ValueError(f"no value for {', '.join(map(str, missing))}")
    result = _lambdified(expr, symbols)(*(vals[s] for s in symbols))
    return _real(result)


def _real(value: object) -> mpmath.mpf:
    if isinstance(value, mpmath.mpc):
        if abs(value.imag) > abs(value.real) * mpmath.mpf(2) ** (-mpmath.mp.prec + 20) + \
                mpmath.mpf(2) ** (-mpmath.mp.prec * 2):
            raise CertificationError(f"expected a real value, got {value}")
        value = value.real
    return mpmath.mpf(value)


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


@exclusive
def certified(compute: Callable[[], mpmath.mpf], digits: int, *,
              attempts: int = 6, allow_zero: bool = False,
              guard: int | None = None) -> tuple[mpmath.mpf, str]:
    """Evaluate ``compute`` until two working precisions agree to ``digits`` digits.

    A heuristic, not a proof (:func:`agreement` also returns the coarser value).

    Parameters
    ----------
    compute : callable
        Computes the value at the current mpmath working precision.
    digits : int
        Significant digits wanted.
    attempts : int
        How many times the guard is doubled before giving up.
    allow_zero : bool
        Whether an exact zero is a possible value. When it is not (a cost, a scale), a
        computed zero is cancellation, and the guard is increased.
    guard : int, optional
        Guard digits of the first evaluation (default :data:`GUARD`).

    Returns
    -------
    (mpmath.mpf, str)
        The more precise of the two evaluations, and its rounding to ``digits`` digits.

    Raises
    ------
    CertificationError
        If the evaluations never agree, or one of them is not finite.
    """
    number, text, _ = agreement(compute, digits, attempts=attempts, allow_zero=allow_zero,
                                guard=guard)
    return number, text


@exclusive
def agreement(compute: Callable[[], mpmath.mpf], digits: int, *,
              attempts: int = 6, allow_zero: bool = False,
              guard: int | None = None) -> tuple[mpmath.mpf, str, mpmath.mpf]:
    """:func:`certified`, also returning the coarser of the two agreeing evaluations.

    Returns
    -------
    (mpmath.mpf, str, mpmath.mpf)
        The finer evaluation, its rounding to ``digits`` digits, and the coarser
        evaluation (the two values whose agreement is the heuristic's only evidence).
    """
    # internal: the callers validated the digits asked for and may add guard digits
    digits = check_digits(digits, MAX_DIGITS + INTERNAL_DIGITS)
    guard = GUARD if guard is None else max(GUARD, int(guard))
    prev_text: str | None = None
    previous: mpmath.mpf | None = None
    failure: CertificationError | None = None
    for _ in range(attempts + 1):
        with workdps(digits + guard):
            try:
                current = compute()
                _finite(current)
                if current == 0 and not allow_zero:
                    raise CertificationError("the computation cancelled to zero")
            except ZeroDivisionError:  # 1 - e^{-eps} rounded to 0: add guard digits
                failure, prev_text = CertificationError("division by zero"), None
                guard *= 2
                continue
            except CertificationError as exc:  # not enough precision yet: add guard digits
                failure, prev_text = exc, None
                guard *= 2
                continue
            text = format_digits(current, digits)
        if text == prev_text:
            return current, text, previous
        prev_text, previous = text, current
        guard *= 2
    if failure is not None and prev_text is None:
        raise CertificationError(f"{failure} (at {digits + guard // 2} digits)")
    raise CertificationError(f"value could not be certified to {digits} digits")


#: Significant digits of an enclosure's ends beyond those asked for, at most.
ENCLOSURE_EXTRA_DIGITS = 20


def directed_text(value: Fraction, digits: int, up: bool) -> str:
    r"""``value`` rounded to ``digits`` significant digits towards :math:`+\infty`
    (``up``) or :math:`-\infty`, laid out as :func:`decimal_text`; an exactly
    representable value is printed exactly."""
    if not value:
        return "0"
    sign = 1 if value < 0 else 0
    num, den = mpz(abs(value.numerator)), mpz(value.denominator)
    away = up != bool(sign)  # round the magnitude up

    def scaled(k: int) -> tuple[mpz, mpz]:
        n, d = (num * pow10(k), den) if k >= 0 else (num, den * pow10(-k))
        head, rest = divmod(n, d)
        return head, head + 1 if away and rest else head

    power = floor_log10_pow2(num.bit_length() - den.bit_length() - 1)
    mantissa, power = _exponent_search(digits, power, scaled)
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
    ends = [_small_fraction(x) for x in (lo, hi)]
    if None in ends:
        return _widened_texts(lo, hi, digits + 3)
    lo, hi = ends
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
    return tuple(_plain(text)
                 for text in (directed_text(lo, n, up=False), directed_text(hi, n, up=True)))


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
        texts.append(_plain(decimal_text(sign, str(m), power, digits)))
    return texts[0], texts[1]


def _plain(text: str) -> str:
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


def mpf_man_exp(value: mpmath.mpf) -> tuple[int, int]:
    r"""A finite mpf as its exact ``(man, exp)``, :math:`\mathrm{man} \cdot 2^{\mathrm{exp}}`
    (no rounding to the working precision)."""
    sign, man, exp, _ = value._mpf_
    return (-int(man) if sign else int(man)), int(exp)


def _finite(value: mpmath.mpf) -> None:
    if not mpmath.isfinite(value):
        raise CertificationError(f"the computation produced {value}")
