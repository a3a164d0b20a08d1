r"""What the lower-bound objects share: directed rounding and the CLI-facing base class.

A lower bound printed to ``digits`` significant digits must not exceed the number it
stands for: :func:`round_down` rounds a certified value toward :math:`-\infty` (and steps
one unit further down when the certified value lies too close to a decimal boundary for
the direction to be decided). :class:`BoundObject` is what the bounds share with the
mechanisms without being one: declared parameters and named quantities
(:class:`~dpsym.core.params.Parametrised`), ``formula``, ``series`` and ``value``.

Every bound's computing methods (:data:`LOCKED_METHODS`: ``value``, ``formula``,
``series``, ``certificate``...), those of :class:`BoundObject` and of every subclass, hold
the precision lock of :mod:`dpsym.precision` while they compute
(:meth:`BoundObject.__init_subclass__` wraps them), so that threads get the digits of a
serial run.
"""

from __future__ import annotations

from collections.abc import Callable
from fractions import Fraction
from typing import ClassVar

import flint
import mpmath
import sympy as sp
from gmpy2 import mpz

from dpsym.certified.evaluation import Value
from dpsym.certified.kernel import bits_for, man_exp, precisions
from dpsym.certified.rounding import (
    check_digits,
    decimal_text,
    directed_rounding,
    enclosure_texts,
    pow10,
    scaled_decimal,
)
from dpsym.core.costs import Cost, parse_cost
from dpsym.core.params import Guarantee, Parametrised, check_quantity
from dpsym.errors import CertificationError, DomainError, UnsupportedError
from dpsym.precision import arb_workprec, exclusive, workdps
from dpsym.symbolic.regimes import ascending, get_regime

#: Extra digits certified beyond those printed, before rounding down.
ROUNDING_GUARD = 12
#: The methods of a bound that compute: each holds the precision lock (every subclass's
#: own definitions are wrapped by :meth:`BoundObject.__init_subclass__`).
LOCKED_METHODS = ("value", "formula", "series", "regime_formula", "certificate",
                  "_bound_at_working_precision")


def round_down(value: mpmath.mpf, digits: int, uncertainty_digits: int = ROUNDING_GUARD
               ) -> tuple[mpmath.mpf, str]:
    r"""Round a positive ``value`` toward :math:`-\infty` to ``digits`` significant digits.

    ``value`` is known to a relative error below :math:`10^{-(\mathrm{digits} +
    \mathrm{uncertainty\_digits})}`. Write :math:`v = (m + r)\,10^{e}` with :math:`m` an
    integer of ``digits`` digits and :math:`0 \le r < 1`. If :math:`r` exceeds the
    uncertainty, :math:`m\,10^{e} \le v_{\mathrm{true}}`; otherwise the true value may lie
    just below :math:`m\,10^{e}` and :math:`(m - 1)\,10^{e}` is returned.

    Returns
    -------
    (mpmath.mpf, str)
        The rounded-down number and its decimal text (``digits`` significant digits).
    """
    return _round_directed(value, digits, uncertainty_digits, up=False)


def round_up(value: mpmath.mpf, digits: int, uncertainty_digits: int = ROUNDING_GUARD
             ) -> tuple[mpmath.mpf, str]:
    r"""Round a positive ``value`` toward :math:`+\infty` (the mirror of :func:`round_down`)."""
    return _round_directed(value, digits, uncertainty_digits, up=True)


def _round_directed(value: mpmath.mpf, digits: int, uncertainty_digits: int, up: bool
                    ) -> tuple[mpmath.mpf, str]:
    r"""Round toward :math:`+\infty` (``up``) or :math:`-\infty`, stepping one more unit
    away when ``value`` is within its uncertainty of the rounded number.

    The scaled value :math:`v\,10^{k}` (``digits`` integer digits) is formed from the exact
    binary value by :func:`dpsym.certified.rounding.scaled_decimal` (exact integers, or Arb balls
    through logarithms for huge decimal exponents such as :math:`e^{-10^{50}}`), so the
    decimal exponent never costs precision."""
    if value <= 0:
        if value == 0:
            return mpmath.mpf(0), "0"
        neg, text = _round_directed(-value, digits, uncertainty_digits, not up)
        return -neg, "-" + text
    lost = digits + uncertainty_digits - 2  # digits of v beyond which it is uncertain
    if not isinstance(value, mpmath.mpf):  # an mpf is taken exactly, at its own precision
        with workdps(lost + 10):
            value = mpmath.mpf(value)
    head, tail, power = scaled_decimal(value, digits, lost + 10)
    # v 10^k = head + tail, 0 <= tail < 1 known to about 10^-(lost - digits + 2)
    m = head + 1 if up and tail else head
    margin = Fraction(pow10(digits), pow10(lost))  # the uncertainty of v 10^k, in units
    if (up and m - (head + tail) <= margin) or (not up and tail <= margin):
        m += 1 if up else -1
    return _decimal(m, power, digits)


def _decimal(m: int, power: int, digits: int) -> tuple[mpmath.mpf, str]:
    r"""The number :math:`m\,10^{\mathrm{power} - \mathrm{digits} + 1}` (``m`` of ``digits``
    digits, or :math:`10^{\mathrm{digits}}` after a carry) and its text."""
    if m == 0:
        return mpmath.mpf(0), "0"
    if m >= pow10(digits):  # a carry into the next decade: 10^digits
        m, power = m // 10, power + 1
    elif m < pow10(digits - 1):  # a step down out of the decade: 10^(digits-1) - 1
        m, power = m * 10 + 9, power - 1
    with workdps(digits + 10):
        number = mpmath.mpf(m) * mpmath.power(10, power - digits + 1)
    return number, decimal_text(0, str(mpz(m)), power, digits)  # mpz: no 4300-digit limit


def round_exact(value: Fraction, digits: int, down: bool = True) -> tuple[mpmath.mpf, str]:
    r"""Round an exact rational toward :math:`-\infty` (``down``) or :math:`+\infty` to
    ``digits`` significant digits, exactly (no uncertainty;
    :func:`dpsym.certified.rounding.directed_rounding`)."""
    digits = check_digits(digits)
    sign, mantissa, power = directed_rounding(value, digits, up=not down)
    number, text = _decimal(mpz(mantissa), power, digits)
    return (-number, "-" + text) if sign else (number, text)


@exclusive
def enclosed_lower(enclose: Callable[[int], flint.arb | None], digits: int,
                   guard: int = 0, attempts: int = 10) -> Value:
    r"""A positive lower bound enclosed in Arb balls and rounded *down* to ``digits``
    digits: certificate ``"enclosure"``.

    ``enclose(prec)`` returns a ball containing the exact value at ``prec`` bits (None or
    a non-finite ball: not enclosed at this precision). The precision (the bits of
    ``digits`` and ``guard`` digits, plus 64) doubles (:func:`dpsym.certified.kernel.precisions`)
    until the ball is positive and both of its ends round down to the same decimal, which
    is then the value rounded down exactly (rounding down is monotone; each end's floor is
    exact, :func:`dpsym.certified.rounding.directed_rounding`, even at decimal exponents of
    fifty digits).
    Failing that, the rounding of the lower end is returned: below the value, within one
    unit of the last digit of the exact rounding once the ball is narrow.

    Raises
    ------
    CertificationError
        If no precision tried gives a positive finite ball.
    """
    digits = check_digits(digits)
    safe: tuple[tuple[int, int], flint.arb] | None = None
    for prec in precisions(bits_for(digits + guard, 64), attempts):
        with arb_workprec(prec):
            ball = enclose(prec)
            if ball is not None and ball.is_finite() and ball > 0:
                lo, hi = (directed_rounding(man_exp(end), digits, up=False)[1:]
                          for end in (ball.lower(), ball.upper()))
                rounded = mpz(lo[0]), lo[1]
                if lo == hi:
                    return _enclosed_value(rounded, ball, digits)
                safe = rounded, ball
    if safe is None:
        raise CertificationError(f"the lower bound could not be enclosed to {digits} digits")
    return _enclosed_value(*safe, digits)


def _enclosed_value(rounded: tuple[int, int], ball: flint.arb, digits: int) -> Value:
    number, text = _decimal(rounded[0], rounded[1], digits)

    def ends() -> tuple[str, str]:
        bits = int(ball.mid().man_exp()[0]).bit_length() + 64
        with arb_workprec(max(bits, 64)):  # Arb rounds each bound outwards
            lo, hi = ball.lower(), ball.upper()
        return enclosure_texts(man_exp(lo), man_exp(hi), digits)

    return Value(number, text, digits, certificate="enclosure", enclosure=ends)


class BoundObject(Parametrised):
    r"""Base class of the lower-bound objects (CLI names ``lower-bound``, ...).

    They declare parameters like a mechanism (:class:`~dpsym.core.params.Parametrised`) and
    answer ``quantities``, ``formula``, ``series`` and ``value`` like one, but they are
    bounds, not noise distributions: nothing to sample, no privacy profile. ``value`` is
    always rounded *down*.
    """

    guarantee: ClassVar[Guarantee] = Guarantee.APPROXIMATE
    #: The largest integer moment this object accepts.
    _max_moment: ClassVar[int] = 8

    def __init_subclass__(cls, **kwargs: object) -> None:
        """Wrap the subclass's own :data:`LOCKED_METHODS` in
        :func:`~dpsym.precision.exclusive` (plain, class and static methods alike)."""
        super().__init_subclass__(**kwargs)
        for name in LOCKED_METHODS:
            attr = cls.__dict__.get(name)
            if isinstance(attr, (classmethod, staticmethod)):
                setattr(cls, name, type(attr)(exclusive(attr.__func__)))
            elif callable(attr):
                setattr(cls, name, exclusive(attr))

    #: Whether the bound is stated for any symmetric cost non-decreasing in :math:`|x|`
    #: (then computed for a cost given as an expression in ``x``).
    _general_costs: ClassVar[bool] = False

    @classmethod
    def _parse_bound_cost(cls, cost: Cost | str) -> Cost:
        """Accept ``amplitude``, ``power`` and ``moment:P`` with integer ``P`` up to
        ``_max_moment``, and (``_general_costs``) any other cost."""
        c = parse_cost(cost)
        if not c.is_power:
            if not cls._general_costs:
                raise DomainError("cost", f"{cls.name} takes amplitude, power or moment:P "
                                  f"with P an integer in [1, {cls._max_moment}]")
            return c
        p = c.power
        if not (p.is_integer and 1 <= p <= cls._max_moment):
            raise DomainError("cost", f"{cls.name} takes amplitude, power or moment:P with "
                              f"P an integer in [1, {cls._max_moment}]")
        return c

    @classmethod
    @exclusive
    def formula(cls, quantity: str = "cost", cost: Cost | str = "amplitude") -> sp.Expr:
        """The closed form of ``quantity`` (subclasses; none by default)."""
        check_quantity(cls, quantity)
        raise UnsupportedError(f"{cls.name}: no closed form for {quantity}")

    @classmethod
    @exclusive
    def series(cls, quantity: str = "cost", cost: Cost | str = "amplitude",
               regime: str = "eps->0", order: int = 3) -> sp.Expr:
        """The expansion of :meth:`regime_formula` in ``regime`` (see the subclass), in
        increasing powers (:func:`dpsym.symbolic.regimes.ascending`)."""
        reg = get_regime(regime)
        check_quantity(cls, quantity)
        cost = cls._parse_bound_cost(cost)
        return ascending(reg.expand(cls.regime_formula(cost, regime), order), reg.variable)

    @classmethod
    @exclusive
    def regime_formula(cls, cost: Cost, regime: str) -> sp.Expr:
        """The closed form valid throughout ``regime`` (subclasses)."""
        raise UnsupportedError(f"{cls.name}: no series in regime {regime}")

    @exclusive
    def value(self, quantity: str = "cost", cost: Cost | str = "amplitude",
              digits: int = 30) -> Value:
        """The bound certified and rounded down to ``digits`` digits (subclasses)."""
        raise NotImplementedError


__all__ = ["LOCKED_METHODS", "ROUNDING_GUARD", "BoundObject",
           "enclosed_lower", "round_down",
           "round_exact", "round_up"]
