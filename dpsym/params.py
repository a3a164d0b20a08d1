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
from collections.abc import Mapping
from dataclasses import dataclass
from decimal import Decimal
from enum import StrEnum
from fractions import Fraction
from functools import cache
from numbers import Integral, Rational, Real
from types import MappingProxyType
from typing import ClassVar

import mpmath
import sympy as sp

from .errors import DomainError
from .precision import workdps
from .symbols import Delta, delta, dim, eps

#: Largest decimal exponent accepted in a number (``1e999999`` is refused, not expanded).
MAX_EXPONENT = 10_000
#: Largest number of digits read in a mantissa, a numerator or a denominator.
MAX_DIGITS_READ = 4000
_RATIO = re.compile(r"^([+-]?[0-9]+)/([0-9]+)$")
_DECIMAL = re.compile(r"^[+-]?([0-9]+(\.[0-9]*)?|\.[0-9]+)([eE][+-]?[0-9]+)?$")


def parse_number(text: object, name: str) -> Fraction:
    """Read ``text`` as an exact rational number.

    Parameters
    ----------
    text : str, int, Fraction or float
        A decimal string (``"2"``, ``"-0.5"``, ``"1e-6"``), a fraction string ``"p/q"`` of
        integers (``"1/3"``), an integer, a fraction, or a finite float (taken at its exact
        binary value).
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
    ratio = _RATIO.match(s)
    if ratio:
        p, q = ratio.groups()
        if max(len(p), len(q)) > MAX_DIGITS_READ + 1:
            raise DomainError(name, f"a fraction p/q takes at most {MAX_DIGITS_READ} digits "
                              "in p and in q")
        if int(Decimal(q)) == 0:
            raise DomainError(name, "a fraction p/q needs q > 0")
        return Fraction(int(Decimal(p)), int(Decimal(q)))
    if not _DECIMAL.match(s):
        shown = s if len(s) <= 40 else s[:37] + "..."
        raise DomainError(name, "expected a finite decimal number or a fraction p/q, "
                          f"got {shown!r}")
    mantissa, _, exponent = s.lower().partition("e")
    if exponent and abs(int(exponent)) > MAX_EXPONENT:
        raise DomainError(
            name, f"exponent {exponent} is out of range (|exponent| <= {MAX_EXPONENT})"
        )
    if len(mantissa) > MAX_DIGITS_READ + 2:
        raise DomainError(name, f"at most {MAX_DIGITS_READ} digits are read in a number")
    value = Fraction(Decimal(mantissa))  # Decimal: no limit on the digits Python converts
    if exponent:
        value *= Fraction(10) ** int(exponent)
    return value


def _fmt(v: Fraction | None) -> str:
    if v is None:
        return "inf"
    if max(abs(v.numerator), v.denominator).bit_length() > 128:
        with workdps(8):
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


# ---------------------------------------------------------------------- the catalogue
#: Largest privacy parameter accepted (e^{-eps} stays an ordinary mpmath number).
EPS_MAX = Fraction(10) ** 100


def eps_param(description: str = "privacy parameter", upper: Fraction = EPS_MAX,
              *, zero: bool = False) -> Param:
    r"""The declaration of :math:`\varepsilon \in (0, \mathrm{upper}]`.

    Parameters
    ----------
    description : str
        One line for help and documentation.
    upper : Fraction
        The largest value accepted (default :data:`EPS_MAX`).
    zero : bool
        Admit :math:`\varepsilon = 0` too (a bound that also covers
        :math:`(0, \delta)`-DP).
    """
    typical = ("0", "2") if zero else ("0.01", "10")
    return Param("eps", eps, Domain(lower=Fraction(0), lower_open=not zero, upper=upper,
                                    upper_open=False), description, typical)


def delta_param(upper: Fraction = Fraction(1), upper_open: bool = True,
                description: str = "privacy parameter", *, zero: bool = False) -> Param:
    r"""The declaration of :math:`\delta \in (0, \mathrm{upper})`.

    Parameters
    ----------
    upper : Fraction
        The upper end (the truncated Laplacian's and the bounds' domain is
        :math:`(0, 1/2)`, the Gaussians' :math:`(0, 1)`).
    upper_open : bool
        Whether ``upper`` itself is excluded.
    description : str
        One line for help and documentation.
    zero : bool
        Admit :math:`\delta = 0` too (pure :math:`\varepsilon`-DP requests).
    """
    return Param("delta", delta, Domain(lower=Fraction(0), lower_open=not zero, upper=upper,
                                        upper_open=upper_open),
                 description, ("1e-6", str(min(upper / 2, Fraction(1, 10)))))


def sensitivity_param(integer: bool = False, upper: int | None = None) -> Param:
    r"""The declaration of the sensitivity :math:`\Delta` (default 1), optionally bounded."""
    top = None if upper is None else Fraction(upper)
    domain = Domain(lower=Fraction(1), lower_open=False, integer=True, upper=top,
                    upper_open=False) if integer \
        else Domain(lower=Fraction(0), upper=top, upper_open=False)
    text = "query sensitivity (an integer)" if integer else "query sensitivity"
    return Param("Delta", Delta, domain, text, ("1", "4") if integer else ("0.5", "4"),
                 default="1")


#: Largest dimension of the multi-dimensional mechanisms.
DIM_MAX = 50


def dim_param() -> Param:
    """The declaration of the dimension ``dim`` (an integer in [1, :data:`DIM_MAX`])."""
    return Param("dim", dim, Domain(lower=Fraction(1), upper=Fraction(DIM_MAX), lower_open=False,
                                    upper_open=False, integer=True),
                 "dimension d of the query", ("1", "10"), default="2")


class Guarantee(StrEnum):
    r"""The privacy guarantee a mechanism (or bound) is built for.

    A string enum: its value is the short form written in listings and JSON.
    """

    #: Pure :math:`\varepsilon`-DP.
    PURE = "eps"
    #: Approximate :math:`(\varepsilon, \delta)`-DP.
    APPROXIMATE = "eps,delta"
    #: :math:`(0, \delta)`-DP.
    ZERO_EPS = "0,delta"

    @property
    def label(self) -> str:
        """How the guarantee is shown in tables (``eps-DP``, ``(eps,delta)-DP``, ...)."""
        return "eps-DP" if self is Guarantee.PURE else f"({self.value})-DP"


# ---------------------------------------------------------------------- declarations
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
    half-width of a uniform density: each is fixed by a condition of the definition, solved
    symbolically by the engine where sympy can, and otherwise computed numerically.

    Parameters
    ----------
    name : str
        Its name, also the quantity name of its value.
    symbol : sympy.Symbol
        The symbol standing for it in the noise shape (may be the normalising constant).
    description : str
        What it is.
    numeric : bool
        ``True`` if it has no closed form and is computed numerically.
    """

    name: str
    symbol: sp.Symbol
    description: str
    numeric: bool = False


class Parametrised:
    r"""An object declared by its parameters, answering named quantities.

    The common part of the mechanisms (:class:`dpsym.mechanisms.base.Mechanism`) and the
    lower bounds (:class:`dpsym.bounds.common.BoundObject`): the declaration (name,
    guarantee, parameters, free and derived parameters), validation of the values given to
    an instance, and the list of quantities. Instances are created with numeric parameter
    values, e.g. ``Staircase(eps="0.5", Delta=2)``; missing values take their declared
    default or stay symbolic. An instance is its parameters: they are read-only.

    Attributes
    ----------
    name : str
        The CLI name.
    title : str
        A human-readable title.
    source : str
        Where it is defined among the source texts.
    lattice : bool
        ``True`` for an integer-valued query.
    guarantee : Guarantee
        The privacy guarantee it is built for.
    params : tuple of Param
        The declared parameters.
    free : FreeParameter or None
        The parameter the family is optimised over.
    derived : tuple of Derived
        The parameters the definition determines.
    """

    name: ClassVar[str]
    title: ClassVar[str]
    source: ClassVar[str] = ""
    lattice: ClassVar[bool] = False
    guarantee: ClassVar[Guarantee] = Guarantee.PURE
    params: ClassVar[tuple[Param, ...]]
    free: ClassVar[FreeParameter | None] = None
    derived: ClassVar[tuple[Derived, ...]] = ()

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

    def __getstate__(self) -> dict[str, object]:
        """The instance's state without prepared (compiled) plans."""
        state = {k: v for k, v in self.__dict__.items() if not k.startswith("_plan")}
        state["values"] = dict(self.values)
        return state

    def __setstate__(self, state: dict[str, object]) -> None:
        self.__dict__.update(state)
        self.values = MappingProxyType(dict(state["values"]))

    @classmethod
    @cache
    def symbols(cls) -> dict[str, sp.Symbol]:
        """The symbol of each parameter, by name."""
        return {prm.name: prm.symbol for prm in cls.params}

    @property
    def substitution(self) -> dict[sp.Symbol, sp.Rational]:
        """The instance's values as a sympy substitution (exact rationals)."""
        symbol = self.symbols()
        return {symbol[n]: sp.Rational(v.numerator, v.denominator)
                for n, v in self.values.items()}

    def require(self, *names: str) -> None:
        """Raise a :class:`DomainError` if a parameter needed numerically is missing."""
        for n in names:
            if n not in self.values:
                prm = next(q for q in self.params if q.name == n)
                raise DomainError(n, f"a value is required, in {prm.domain.describe()}")

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
    def describe_params(cls) -> list[dict[str, str]]:
        """The declared parameters as plain dictionaries (for listings and docs)."""
        return [{"name": prm.name, "domain": prm.domain.describe(),
                 "description": prm.description, "default": prm.default or ""}
                for prm in cls.params]
