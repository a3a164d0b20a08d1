r"""Parameters, their domains, and exact parsing of numbers.

A mechanism declares each of its parameters as a :class:`Param`: a name, the shared sympy
symbol, a :class:`Domain` and a typical range. Validation, error messages, the CLI's
options and the property tests all read these declarations.

Numbers supplied by a user are parsed *exactly*: a decimal string such as ``"1e-6"`` or
``"0.1"`` becomes the rational number it denotes (:class:`fractions.Fraction`), never a
binary float and never through ``eval`` or ``sympify``.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass
from fractions import Fraction
from numbers import Integral, Rational, Real

import sympy as sp

from .errors import DomainError

#: Largest decimal exponent accepted in a number (``1e999999`` is refused, not expanded).
MAX_EXPONENT = 10_000
_DECIMAL = re.compile(r"^[+-]?([0-9]+(\.[0-9]*)?|\.[0-9]+)([eE][+-]?[0-9]+)?$")


def parse_number(text: object, name: str) -> Fraction:
    """Read ``text`` as an exact rational number.

    Parameters
    ----------
    text : str, int, Fraction or float
        A decimal string (``"2"``, ``"-0.5"``, ``"1e-6"``), an integer, a fraction, or a
        finite float (taken at its exact binary value).
    name : str
        The parameter's name, used in error messages.

    Returns
    -------
    Fraction
        The exact value.

    Raises
    ------
    DomainError
        If ``text`` is not a finite decimal number, or its exponent exceeds
        :data:`MAX_EXPONENT` in magnitude.
    """
    if isinstance(text, bool):
        raise DomainError(name, f"expected a number, got {text!r}")
    if isinstance(text, Fraction):
        return text
    if isinstance(text, Integral):
        return Fraction(int(text))
    if isinstance(text, sp.Rational):
        return Fraction(int(text.p), int(text.q))
    if isinstance(text, Rational):
        return Fraction(text.numerator, text.denominator)
    if isinstance(text, Real) and not isinstance(text, str):
        value = float(text)
        if not math.isfinite(value):
            raise DomainError(name, f"expected a finite number, got {value!r}")
        return Fraction(value)
    if not isinstance(text, str):
        kind = type(text).__name__
        raise DomainError(name, f"expected a number or a decimal string, got {kind}")
    s = text.strip()
    if not _DECIMAL.match(s):
        shown = s if len(s) <= 40 else s[:37] + "..."
        raise DomainError(name, f"expected a finite decimal number, got {shown!r}")
    mantissa, _, exponent = s.lower().partition("e")
    if exponent and abs(int(exponent)) > MAX_EXPONENT:
        raise DomainError(
            name, f"exponent {exponent} is out of range (|exponent| <= {MAX_EXPONENT})"
        )
    value = Fraction(mantissa)
    if exponent:
        value *= Fraction(10) ** int(exponent)
    return value


def _fmt(v: Fraction | None) -> str:
    if v is None:
        return "inf"
    if max(abs(v.numerator), v.denominator).bit_length() > 128:
        import mpmath

        with mpmath.workdps(8):
            return mpmath.nstr(mpmath.mpf(v.numerator) / v.denominator, 6)
    if v.denominator == 1:
        return str(v.numerator)
    return str(float(v)) if float(v) == v else f"{v.numerator}/{v.denominator}"


@dataclass(frozen=True)
class Domain:
    """An interval of the real line, possibly restricted to the integers.

    Parameters
    ----------
    lower, upper : Fraction or None
        The end points; ``None`` means unbounded.
    lower_open, upper_open : bool
        Whether the end points are excluded.
    integer : bool
        Whether only integers belong to the domain.
    """

    lower: Fraction | None = None
    upper: Fraction | None = None
    lower_open: bool = True
    upper_open: bool = True
    integer: bool = False

    def __contains__(self, value: Fraction) -> bool:
        if self.integer and Fraction(value).denominator != 1:
            return False
        if self.lower is not None and (
            value < self.lower or (self.lower_open and value == self.lower)
        ):
            return False
        return not (
            self.upper is not None
            and (value > self.upper or (self.upper_open and value == self.upper))
        )

    def describe(self) -> str:
        """The domain in interval notation, e.g. ``(0, 1)`` or ``integers >= 1``."""
        if self.integer:
            parts = []
            if self.lower is not None:
                lo = math.floor(self.lower) + 1 if self.lower_open else math.ceil(self.lower)
                parts.append(f">= {lo}")
            if self.upper is not None:
                hi = math.ceil(self.upper) - 1 if self.upper_open else math.floor(self.upper)
                parts.append(f"<= {hi}")
            return "an integer " + " and ".join(parts) if parts else "an integer"
        left = "(" if self.lower_open or self.lower is None else "["
        right = ")" if self.upper_open or self.upper is None else "]"
        lo = "-inf" if self.lower is None else _fmt(self.lower)
        return f"{left}{lo}, {_fmt(self.upper)}{right}"

    def sympy_interval(self) -> sp.Set:
        """The domain as a sympy set."""
        lo = -sp.oo if self.lower is None else sp.Rational(self.lower)
        hi = sp.oo if self.upper is None else sp.Rational(self.upper)
        return sp.Interval(lo, hi, self.lower_open, self.upper_open)


POSITIVE = Domain(lower=Fraction(0))
UNIT_OPEN = Domain(lower=Fraction(0), upper=Fraction(1))
UNIT_CLOSED = Domain(lower=Fraction(0), upper=Fraction(1), lower_open=False, upper_open=False)
POSITIVE_INTEGER = Domain(lower=Fraction(1), lower_open=False, integer=True)


@dataclass(frozen=True)
class Param:
    r"""A declared parameter of a mechanism.

    Parameters
    ----------
    name : str
        Python and CLI name (``eps``, ``delta``, ``Delta``).
    symbol : sympy.Symbol
        The shared symbol from :mod:`dpsym.symbols`.
    domain : Domain
        Valid values.
    description : str
        One line of text for help and documentation.
    typical : tuple of str
        A typical range, as decimal strings, used by property tests and sweeps.
    default : str or None
        Value used when the caller gives none (the sensitivity defaults to 1).
    """

    name: str
    symbol: sp.Symbol
    domain: Domain
    description: str
    typical: tuple[str, str]
    default: str | None = None

    def validate(self, value: object) -> Fraction:
        """Parse ``value`` exactly and check it lies in the domain.

        Raises
        ------
        DomainError
            Naming the parameter and its valid range.
        """
        v = parse_number(value, self.name)
        if v not in self.domain:
            where = self.domain.describe()
            where = where if self.domain.integer else f"in {where}"
            raise DomainError(self.name, f"must be {where}, got {_fmt(v)}")
        return v
