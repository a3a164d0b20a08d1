r"""The certification kernel: what proves a printed digit, in one place.

A value is *certified* when a rigorous enclosure of it (an Arb ball, through python-flint)
has both ends rounding to the same decimal: rounding is monotone, so every point of the
ball, the exact value included, rounds there. Every certified path of dpsym (closed forms,
minimisers, Lerch sums, the Gaussian calibration, privacy profiles and losses, lower
bounds) computes such balls and hands them here:

* :data:`BITS_PER_DIGIT`, :data:`GUARD_BITS`, :data:`ATTEMPTS`, :data:`MAX_BITS`: the
  constants of every refinement;
* :func:`precisions`: the one precision schedule -- the bits of the digits asked for plus
  a guard, doubled on each attempt -- and :func:`refine`, the one loop that evaluates an
  enclosure along it until the ball rounds (:func:`certify_directed` rounds in one
  direction instead, :func:`decide_at_most` decides a comparison, :func:`adaptive`
  raises the precision until a ball has a given relative accuracy);
* :func:`ball` and :func:`exact`: exact rationals into balls and exact balls (their ends
  and midpoints) back into rationals, by python-flint's own ``fmpq`` conversions;
  :func:`to_mpf` the same into an mpf;
* :func:`ball_rounding` and :class:`Certified`: the decimal rounding shared by every point of a
  ball, and a certified value with its certificate and its proven range;
* :func:`directed_texts` and :func:`outward`: the ends of a ball rounded down and up, the
  one directed-rounding printer of balls.

The decimal arithmetic itself (exact rounding of binary numbers and rationals, in
integers) is :mod:`dpsym.certified.rounding`.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterator
from fractions import Fraction

import flint
import mpmath
from gmpy2 import mpz
from mpmath.libmp import from_man_exp

from dpsym.certified.rounding import (
    EXACT_SCALE,
    LOG10_2,
    check_digits,
    decimal_rounding,
    decimal_text,
    directed_text,
    enclosure_texts,
    floor_log10_pow2,
    fraction_rounding,
    plain,
    pow10,
    scaled_rounding,
    shifted_rounding,
)
from dpsym.errors import CertificationError
from dpsym.precision import arb_fraction, arb_workprec, exclusive, workprec

arb = flint.arb

#: Bits per decimal digit, :math:`\log_2 10`.
BITS_PER_DIGIT = math.log2(10)
#: Guard bits of a first evaluation, beyond the bits of the digits asked for.
GUARD_BITS = 32
#: Evaluations of a refinement (the precision doubled between two) before it gives up.
ATTEMPTS = 10
#: Largest working precision (bits) of one evaluation.
MAX_BITS = 1 << 22


# ---------------------------------------------------------------------------------------
# exact numbers in and out of balls
# ---------------------------------------------------------------------------------------

def ball(v: Fraction | int) -> flint.arb:
    """The exact rational ``v`` as a ball (exact at any precision)."""
    v = Fraction(v)
    return arb(flint.fmpq(v.numerator, v.denominator))


#: An exact Arb number (an end or the midpoint of a ball) as a fraction
#: (:func:`dpsym.precision.arb_fraction`, the package's one conversion).
exact = arb_fraction


def exact_integer(x: flint.arb) -> int:
    """An exact integer Arb number (the floor or ceiling of an end of a ball) as an int."""
    n = x.unique_fmpz()
    if n is None:
        raise ValueError(f"{x} is not one integer")
    return int(n)


def man_exp(x: flint.arb) -> tuple[int, int]:
    r"""An exact Arb number as ``(man, exp)``, :math:`\mathrm{man} \cdot 2^{\mathrm{exp}}`."""
    man, exp = x.man_exp()
    return int(man), int(exp)


def to_mpf(x: flint.arb) -> mpmath.mpf:
    """An exact Arb number (an end or the midpoint of a ball) as an mpf, without rounding."""
    return mpmath.mp.make_mpf(from_man_exp(*man_exp(x)))


def bits_for(digits: int, guard: int = GUARD_BITS) -> int:
    """The working precision of a first evaluation for ``digits`` digits."""
    return int(digits * BITS_PER_DIGIT) + guard


def size_bits(v: Fraction) -> int:
    r"""An upper bound of :math:`\log_2 \max(|v|, 1)`."""
    if v == 0:
        return 0
    return max(0, abs(v.numerator).bit_length() - v.denominator.bit_length() + 1)


def ball_log2(x: flint.arb) -> int:
    r"""An upper bound of :math:`\log_2 |x|` for a finite ball (any sign of the result)."""
    m, e = x.abs_upper().man_exp()
    return int(m).bit_length() + int(e) if m else -(1 << 30)


def ball_size(x: flint.arb) -> int:
    r"""An upper bound of :math:`\log_2 \max(|x|, 1)` for a finite ball."""
    return max(0, ball_log2(x))


def nonneg(x: flint.arb) -> flint.arb:
    r"""The ball intersected with :math:`[0, \infty)` (a probability: a ball entirely
    below 0 can only enclose 0)."""
    if x >= 0:
        return x
    if x.is_nan():  # nothing is known: never an exact zero
        return x
    if not x.upper() > 0:
        return arb(0)
    return arb(0).union(arb(x.upper()))


def trimmed(found: flint.arb, bits: int) -> flint.arb:
    r"""``found`` widened to a relative radius of :math:`2^{-\mathrm{bits}}` when it is
    (much) narrower: :math:`1 - e^{-10^{300}}` is a ball of radius
    :math:`e^{-10^{300}}` around 1, whose radius no decimal rounding needs."""
    if found.rel_accuracy_bits() <= bits or found.mid().is_zero():
        return found
    with arb_workprec(bits + GUARD_BITS):
        radius = abs(found.mid()) * arb(2) ** -bits
        return arb(found.mid(), radius.upper()).union(found)


# ---------------------------------------------------------------------------------------
# the rounding of a ball
# ---------------------------------------------------------------------------------------

def ball_rounding(x: flint.arb, digits: int) -> tuple[int, str | mpz, int] | None:
    r"""The decimal rounding (:func:`~dpsym.certified.rounding.decimal_rounding`) shared by
    every point of the ball ``x``, or None if its points do not all round alike (or its
    sign is not decided).

    Both ends :math:`m \pm r` are scaled exactly with one multiplication when they lie in
    the same decade; otherwise each end is rounded on its own.
    """
    mid, rad = x.mid().man_exp(), x.rad().man_exp()
    m, e = mpz(int(mid[0])), int(mid[1])
    r, f = mpz(int(rad[0])), int(rad[1])
    sign = 1 if m < 0 else 0
    m = abs(m)
    if r and r.bit_length() + f >= m.bit_length() + e:
        return None  # rad >= 2^(top bit of |mid|) > |mid|: the ball contains zero
    if r.bit_length() + f <= e - 64:
        r, f = mpz(1), e - 64  # a larger radius, so that the shifts below stay short
    g = min(e, f)
    big, small = m << (e - g), r << (f - g)  # |mid| and rad over the common 2^g
    if big <= small:
        return None  # the ball contains zero
    power = floor_log10_pow2(m.bit_length() + e - 1)
    for _ in range(4):
        k = digits - 1 - power
        if abs(k) > EXACT_SCALE:  # a huge decimal exponent: each end on its own
            break
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
            break
        else:
            if lo_round != hi_round:
                return None
            if hi_round == pow10(digits):
                return sign, pow10(digits - 1), power + 1
            return sign, hi_round, power  # the digits of hi_round, formatted on demand
    with arb_workprec(int((big + small).bit_length()) + 8):  # exact ends
        ends = (x.lower(), x.upper())
    found = {decimal_rounding(*man_exp(end), digits) for end in ends}
    return found.pop() if len(found) == 1 else None  # digits as a string


class Certified:
    r"""A certified ball and its rounding to ``digits`` digits, formatted on demand.

    :meth:`text` is what :func:`dpsym.certified.rounding.format_digits` prints for every
    point of the ball; :meth:`number` is the ball's midpoint as an mpf.
    :attr:`certificate` says what proves the digits: ``"exact"`` (an exact rational
    rounded exactly) or ``"enclosure"`` (a rigorous Arb ball); :meth:`enclosure` gives the
    proven range.
    """

    __slots__ = ("_ball", "_digits", "_rounding")

    def __init__(self, found: flint.arb | Fraction | None,
                 rounded: tuple[int, str | mpz, int] | None, digits: int) -> None:
        self._ball, self._rounding, self._digits = found, rounded, digits

    @classmethod
    def exact(cls, value: Fraction, digits: int) -> Certified:
        """An exactly known rational value."""
        return cls(value, fraction_rounding(value, digits) if value else None, digits)

    @property
    def certificate(self) -> str:
        """``"exact"`` for an exact rational (or a proven zero of an exact plan),
        ``"enclosure"`` for an Arb ball."""
        return "enclosure" if isinstance(self._ball, flint.arb) else "exact"

    def enclosure(self) -> tuple[str, str]:
        """The proven range of the value as two decimal strings (rounded outwards, with
        enough digits to show the ball's width; equal for an exact decimal)."""
        if self._ball is None:
            return "0", "0"
        if isinstance(self._ball, Fraction):
            return enclosure_texts(self._ball, self._ball, self._digits)
        bits = int(self._ball.mid().man_exp()[0]).bit_length() + 64
        with arb_workprec(max(bits, 64)):  # Arb rounds each bound outwards
            lower, upper = self._ball.lower(), self._ball.upper()
        return enclosure_texts(man_exp(lower), man_exp(upper), self._digits)

    def number(self) -> mpmath.mpf:
        """The midpoint of the ball (the value itself when it is exact; zero for zero)."""
        if self._ball is None or (isinstance(self._ball, flint.arb) and self._ball.is_zero()):
            return mpmath.mpf(0)
        if isinstance(self._ball, Fraction):
            with workprec(int(self._digits / LOG10_2) + 64):
                return mpmath.mpf(self._ball.numerator) / self._ball.denominator
        return to_mpf(self._ball.mid())

    def text(self) -> str:
        """The certified decimal text."""
        if self._rounding is None:
            return "0"
        sign, mantissa, power = self._rounding
        return decimal_text(sign, str(mantissa), power, self._digits)


def directed_texts(x: flint.arb, digits: int) -> tuple[tuple[str, str], tuple[str, str]]:
    """``((down, up), (down, up))``: each end of the ball ``x`` (lower, then upper)
    rounded to ``digits`` significant digits down and up, exactly
    (:func:`dpsym.certified.rounding.directed_text`)."""
    out = []
    for end in (x.lower(), x.upper()):
        value = man_exp(end)
        out.append((plain(directed_text(value, digits, up=False)),
                    plain(directed_text(value, digits, up=True))))
    return out[0], out[1]


def outward(x: flint.arb, digits: int) -> tuple[str, str]:
    """The ends of the ball ``x`` rounded outward to ``digits`` significant digits: the
    lower end down, the upper end up (exact decimal rounding of the exact binary ends)."""
    lo, hi = directed_texts(x, digits)
    return lo[0], hi[1]


# ---------------------------------------------------------------------------------------
# the refinement: one precision schedule, one loop
# ---------------------------------------------------------------------------------------

def precisions(start: int, attempts: int = ATTEMPTS) -> Iterator[int]:
    """The working precisions of a refinement: ``start`` bits, doubled on each of at most
    ``attempts`` evaluations, never beyond :data:`MAX_BITS`."""
    bits = start
    for _ in range(attempts):
        if bits > MAX_BITS:
            return
        yield bits
        bits *= 2


@exclusive
def refine(enclose: Callable[[int], flint.arb], digits: int, *,
           guard_bits: int = GUARD_BITS, attempts: int = ATTEMPTS, allow_zero: bool = False,
           within: tuple[int, int] | None = None, trim: bool = False,
           what: str = "value") -> Certified:
    r"""The ball ``enclose(bits)``, evaluated along :func:`precisions` from the bits of
    ``digits`` plus ``guard_bits``, until every point of it rounds alike to ``digits``
    significant digits.

    ``enclose`` is called inside the working precision ``bits`` (it may set its own). A
    ball that is exactly zero is the value 0 when ``allow_zero``. ``within``: an interval
    known to hold the value (a probability's :math:`[0, 1]`), intersected with the ball;
    ``trim``: a ball far narrower than the digits need is widened first (:func:`trimmed`;
    never for a value that may be exact, whose rounding at a tie needs the exact ball).

    Raises
    ------
    CertificationError
        If no precision tried decides the rounding (``what`` names the value).
    """
    bits = 0
    for bits in precisions(bits_for(digits, guard_bits), attempts):
        with arb_workprec(bits):
            found = enclose(bits)
        if not found.is_finite():
            continue
        if found.is_zero() and allow_zero:
            return Certified(arb(0), None, digits)
        if trim:
            found = trimmed(found, bits + 64)
        if within is not None:
            with arb_workprec(bits + 64):
                hull = arb(within[0]).union(arb(within[1]))
                if found.overlaps(hull):
                    found = found.intersection(hull)
        rounded = ball_rounding(found, digits)
        if rounded is not None:
            return Certified(found, rounded, digits)
    raise CertificationError(f"the enclosure of {what} did not round to {digits} digits "
                             f"(last precision {bits} bits)")


def certify(enclose: Callable[[int], flint.arb], digits: int, *,
            allow_zero: bool = False) -> tuple[mpmath.mpf, str]:
    r"""``(number, text)`` of :func:`refine` with the guard of a computation that may
    cancel (64 bits): the midpoint as an mpf and the certified digits (``digits``
    validated as a user's request).

    Raises
    ------
    CertificationError
        If no precision tried decides the digits.
    """
    found = refine(enclose, check_digits(digits), guard_bits=64, allow_zero=allow_zero)
    return found.number(), found.text()


def certify_ball(enclose: Callable[[int], flint.arb], digits: int, *,
                 guard_bits: int = GUARD_BITS, what: str = "value",
                 within: tuple[int, int] | None = None) -> Certified:
    """:func:`refine` of a ball that is never exact (a special function's value, a root):
    one far narrower than the digits need is widened first (:func:`trimmed`)."""
    return refine(enclose, digits, guard_bits=guard_bits, within=within, trim=True,
                  what=what)


@exclusive
def certify_directed(enclose: Callable[[int], flint.arb], digits: int, *, up: bool
                    ) -> tuple[mpmath.mpf, str]:
    r"""Round the balls ``enclose(bits)`` to ``digits`` digits in one direction: the
    smallest decimal of ``digits`` significant digits :math:`\ge` the exact value
    (``up``), or the largest :math:`\le` it.

    Along :func:`precisions` (guard 64 bits), until both ends of the ball round (in that
    direction) to the same decimal, which is then the directed rounding of the exact
    value; otherwise (an exact value on a decimal of ``digits`` digits, where the ends
    never agree) the rounding of the far end is returned, still on the safe side. A ball
    that is exactly zero gives ``"0"``.

    Raises
    ------
    CertificationError
        If no precision tried gives a finite ball.
    """
    digits = check_digits(digits)
    safe = None
    for bits in precisions(bits_for(digits, 64)):
        with arb_workprec(bits):
            found = enclose(bits)
            if found.is_finite():
                if found.is_zero():
                    return mpmath.mpf(0), "0"
                mid = to_mpf(found.mid())
                lo, hi = directed_texts(found, digits)
                near, far = (lo[1], hi[1]) if up else (hi[0], lo[0])
                if near == far:
                    return mid, far
                safe = (mid, far)
    if safe is None:
        raise CertificationError(f"value could not be certified to {digits} digits")
    return safe


def decide_at_most(enclose: Callable[[int], flint.arb], target: Fraction,
                   bits: int = 64) -> bool | None:
    r"""Whether the value enclosed by ``enclose`` is :math:`\le` ``target``, decided by a
    ball that excludes the target (along :func:`precisions` from ``bits``); None when no
    ball separates them (an exact tie, or a value too close to the target)."""
    for prec in precisions(bits):
        found = enclose(prec)
        with arb_workprec(prec + GUARD_BITS):
            t = ball(target)
            if found <= t:
                return True
            if found > t:
                return False
    return None


def adaptive(compute: Callable[[], flint.arb], bits: int, extra: int = GUARD_BITS
             ) -> flint.arb:
    """``compute()`` at rising working precision until its ball has ``bits`` bits of
    relative accuracy (or the precision reaches :data:`MAX_BITS`; the last ball is then
    returned as it is, and the caller's rounding decides whether it suffices).

    The precision rises by what the last ball lacked, not by doubling: Arb's special
    functions do not gain accuracy smoothly with the precision (their algorithm changes),
    so a step without progress is tolerated a few times.
    """
    w = bits + extra
    found, best, stalled = arb.nan(), 0, 0
    while w <= MAX_BITS and stalled < 3:
        with arb_workprec(w):
            found = compute()
        accuracy = found.rel_accuracy_bits()
        if accuracy >= bits:
            return found
        stalled = stalled + 1 if accuracy <= best else 0
        best = max(best, accuracy)
        w += bits - accuracy + GUARD_BITS + w // 4 if accuracy > 0 else w
    return found


__all__ = ["ATTEMPTS", "BITS_PER_DIGIT", "GUARD_BITS", "MAX_BITS", "Certified", "adaptive",
           "ball", "ball_log2", "ball_rounding", "ball_size", "bits_for", "certify",
           "certify_ball", "certify_directed", "decide_at_most", "directed_texts", "exact",
           "exact_integer",
           "man_exp", "nonneg", "outward", "precisions", "refine", "size_bits", "to_mpf",
           "trimmed"]
