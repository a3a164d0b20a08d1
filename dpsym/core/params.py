r"""Parameters, their domains, and exact parsing of numbers.

A mechanism declares each of its parameters as a :class:`Param`: a name, the shared sympy
symbol, a :class:`Domain` and a typical range. Validation, error messages, the CLI's
options and the property tests all read these declarations.

Numbers supplied by a user are parsed *exactly*, by one parser for the API and the command
line (:func:`parse_exact`; :func:`parse_number` where only rationals make sense), never
through ``eval`` or ``sympify``. The rule (:data:`INPUT_RULE`): a decimal string, an
integer, a fraction ``p/q``, an exact expression such as ``log(3)``, ``sqrt(2)/2`` or
``exp(-1)`` (:mod:`dpsym.core.expressions`), a :class:`~fractions.Fraction`,
:class:`~decimal.Decimal` or sympy number is taken at its exact value, and a Python float
means the decimal it prints as (``0.3`` is :math:`3/10`, not the binary double nearest
to it). A rational value is a :class:`~fractions.Fraction`; an irrational one a constant
sympy expression, whose domain is decided rigorously
(:func:`dpsym.core.expressions.compare`).
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
from typing import Any, ClassVar, Protocol

import mpmath
import numpy as np
import sympy as sp

from dpsym.core.expressions import (
    MAX_DIGITS_READ,
    MAX_EXPONENT,
    Exact,
    compare,
    decimal,
    from_expression,
    from_sympy,
    parse,
    to_sympy,
)
from dpsym.core.names import resolve, unknown
from dpsym.errors import DomainError
from dpsym.precision import mpf_fraction, workdps
from dpsym.symbols import Delta, delta, dim, eps

_RATIO = re.compile(r"^([+-]?[0-9]+)/([0-9]+)$")
_DECIMAL = re.compile(r"^[+-]?([0-9]+(\.[0-9]*)?|\.[0-9]+)([eE][+-]?[0-9]+)?$")
_FLOAT_TYPES = (float, np.floating, sp.Float)

#: The rule for numbers, in one sentence (README, docstrings and help quote it).
INPUT_RULE = ("Numbers are exact: a decimal string, an integer, a fraction p/q, an exact "
              "expression such as log(3), sqrt(2)/2 or exp(-1) (rationals combined with "
              "+ - * / ^, log/ln, exp, sqrt, pi, e), a Fraction, Decimal or sympy number "
              "is taken at its exact value, and a Python float means the decimal it prints "
              "as (0.3 is 3/10).")


def parse_exact(text: object, name: str) -> Exact:
    r"""Read ``text`` as an exact real number, rational or not (:data:`INPUT_RULE`).

    Parameters
    ----------
    text : str, int, Fraction, Decimal, float, sympy number or mpmath.mpf
        A decimal string (``"2"``, ``"-0.5"``, ``"1e-6"``), a fraction ``"p/q"``, an
        exact expression of :mod:`dpsym.core.expressions` (``"log(3)"``, ``"sqrt(2)/2"``); an
        integer, :class:`~fractions.Fraction` or :class:`~decimal.Decimal` (exactly); a
        float (numpy's too) as the decimal it prints as (``0.3`` is :math:`3/10`); a
        sympy Rational or exact constant expression (``sympy.log(3)``); an ``mpmath.mpf``
        at its exact binary value.
    name : str
        The parameter's name, used in error messages.

    Returns
    -------
    Fraction or sympy.Expr
        A :class:`~fractions.Fraction` for a rational value, else a constant sympy
        expression (:func:`dpsym.core.expressions.parse`).

    Raises
    ------
    DomainError
        Naming ``name``, if ``text`` is not such a number or exceeds the limits of
        :mod:`dpsym.core.expressions`.
    """
    if isinstance(text, bool):
        raise DomainError(name, f"expected a number, got {text!r}")
    if isinstance(text, Fraction):
        return text
    if isinstance(text, Integral):
        return Fraction(int(text))
    if isinstance(text, _FLOAT_TYPES):
        value = float(text)
        if not math.isfinite(value):
            raise DomainError(name, f"expected a finite number, got {value!r}")
        shown = str(text) if isinstance(text, np.floating) else repr(value)
        return decimal(shown, name)  # the shortest decimal that prints as the float
    if isinstance(text, sp.Basic):
        return from_expression(text, name)
    if isinstance(text, Rational):
        return Fraction(int(text.numerator), int(text.denominator))
    if isinstance(text, Decimal):
        if not text.is_finite():
            raise DomainError(name, f"expected a finite number, got {text!r}")
        return decimal(format(text, "e"), name)
    if isinstance(text, mpmath.mpf):
        if not mpmath.isfinite(text):
            raise DomainError(name, f"expected a finite number, got {text!r}")
        man, exp = text.man_exp
        if man == 0:
            return Fraction(0)
        if abs(int(exp)) > 4 * MAX_EXPONENT:
            raise DomainError(name, f"exponent out of range (|exponent| <= {MAX_EXPONENT})")
        return mpf_fraction(text)
    if isinstance(text, Real) and not isinstance(text, str):
        return parse_exact(float(text), name)
    if not isinstance(text, str):
        kind = type(text).__name__
        raise DomainError(name, f"expected a number or a decimal string, got {kind}")
    s = text.strip()
    if _DECIMAL.match(s):  # the common case, without the expression parser
        return decimal(s, name)
    ratio = _RATIO.match(s)
    if ratio:
        p, q = ratio.groups()
        if max(len(p), len(q)) > MAX_DIGITS_READ + 1:
            raise DomainError(name, f"a fraction p/q takes at most {MAX_DIGITS_READ} digits "
                              "in p and in q")
        if int(Decimal(q)) == 0:
            raise DomainError(name, "a fraction p/q needs q > 0")
        return Fraction(int(Decimal(p)), int(Decimal(q)))
    return parse(s, name)


def parse_number(text: object, name: str) -> Fraction:
    """Read ``text`` as an exact *rational* number (:func:`parse_exact`, then rational).

    Parameters
    ----------
    text : str, int, Fraction, Decimal, float or sympy Rational
        As for :func:`parse_exact`: a decimal string (``"2"``, ``"-0.5"``, ``"1e-6"``), a
        fraction ``"p/q"`` (``"1/3"``), an exact expression whose value is rational
        (``"2^-3"``), an integer, a fraction, a float as the decimal it prints as.
    name : str
        The parameter's name, used in error messages.

    Returns
    -------
    Fraction
        The exact value.

    Raises
    ------
    DomainError
        If ``text`` is not such a number, exceeds the limits, or is irrational.
    """
    value = parse_exact(text, name)
    if not isinstance(value, Fraction):
        raise DomainError(name, f"must be a rational number here (a decimal or p/q), got "
                          f"{str(value)[:40]}")
    return value


def _fmt(v: Exact | None) -> str:
    if v is None:
        return "inf"
    if not isinstance(v, Fraction):
        text = str(v)
        return text if len(text) <= 60 else text[:57] + "..."
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

    def __contains__(self, value: Exact) -> bool:
        """Whether ``value`` lies in the domain, decided exactly (rationals) or rigorously
        (irrational values: :func:`dpsym.core.expressions.compare`, which raises a
        :class:`DomainError` rather than guess)."""
        if self.integer and not (isinstance(value, Fraction) and value.denominator == 1):
            return False
        if self.lower is not None:
            side = compare(value, self.lower)
            if side < 0 or (self.lower_open and side == 0):
                return False
        if self.upper is not None:
            side = compare(value, self.upper)
            if side > 0 or (self.upper_open and side == 0):
                return False
        return True

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
        low = "-inf" if self.lower is None else _fmt(self.lower)
        return f"{left}{low}, {_fmt(self.upper)}{right}"



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
        """Parse ``value`` exactly as a rational number (the grammar of
        :func:`parse_exact`) and check it lies in the domain.

        Raises
        ------
        DomainError
            Naming the parameter and its valid range, or for an irrational value.
        """
        v = self.validate_exact(value)
        if not isinstance(v, Fraction):
            raise DomainError(self.name, f"takes rational values only here (a decimal or "
                              f"p/q), got {_fmt(v)}")
        return v

    def validate_exact(self, value: object) -> Exact:
        """Parse ``value`` exactly (:func:`parse_exact`: a Fraction, or a sympy expression
        for an irrational value) and check it lies in the domain, rigorously.

        Raises
        ------
        DomainError
            Naming the parameter and its valid range.
        """
        v = parse_exact(value, self.name)
        try:
            inside = v in self.domain
        except DomainError as err:  # undecidable comparison: name this parameter
            raise DomainError(self.name, str(err).partition(": ")[2]) from None
        if not inside:
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


#: Keyword aliases of the parameters (the names of diffprivlib and OpenDP).
ALIASES = {"epsilon": "eps", "sensitivity": "Delta"}


def _aliased(values: dict[str, object], names: set[str]) -> dict[str, object]:
    """``values`` with the keyword aliases of :data:`ALIASES` renamed; giving a parameter
    under both names is a :class:`DomainError`."""
    out = dict(values)
    for alias, name in ALIASES.items():
        if alias in out and name in names:
            if out.get(name) is not None:
                raise DomainError(name, f"given twice (as {name}= and {alias}=)")
            out[name] = out.pop(alias)
    return out


class Parametrised:
    r"""An object declared by its parameters, answering named quantities.

    The common part of the mechanisms (:class:`dpsym.mechanisms.base.Mechanism`) and the
    lower bounds (:class:`dpsym.bounds.common.BoundObject`): the declaration (name,
    guarantee, parameters, free and derived parameters), validation of the values given to
    an instance, and the list of quantities. Instances are created with numeric parameter
    values, e.g. ``Staircase(eps="0.5", Delta=2)``; missing values take their declared
    default or stay symbolic. An instance is its parameters: they are read-only. The
    first declared parameter may also be given positionally, as scipy's distributions take
    their shape (``Staircase(0.5)``, ``UniformMass("0.1")``).

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

    #: Whether parameter values may be irrational (``eps="log(3)"``); where ``False``,
    #: such a value is refused with a :class:`DomainError` (the numerics read fractions).
    _irrational_values: ClassVar[bool] = False

    def __init__(self, *args: object, **values: object) -> None:
        values = _aliased(values, {prm.name for prm in self.params})
        values = self._positional(args, values)
        free_given = None
        if self.free is not None and self.free.name in values:
            free_given = values.pop(self.free.name)
        known = {prm.name: prm for prm in self.params}
        unknown = set(values) - set(known)
        if unknown:
            name = sorted(unknown)[0]
            extra = [] if self.free is None else [f"{self.free.name} (its free parameter)"]
            raise DomainError(name, f"is not a parameter of {self.name}; valid: "
                              + ", ".join([*known, *extra]))
        given: dict[str, Exact] = {}
        for prm in self.params:
            if values.get(prm.name) is not None:
                given[prm.name] = self._validate(prm, values[prm.name])
            elif prm.default is not None:
                given[prm.name] = prm.validate(prm.default)
        self._check_joint(given)
        #: The parameter values (exact, read-only: an instance is its parameters): a
        #: Fraction, or a constant sympy expression for an irrational value.
        self.values: Mapping[str, Exact] = MappingProxyType(given)
        #: The free parameter's value given to the constructor (``gamma=``), or None for
        #: the optimum of each cost.
        self.free_given: Exact | None = None
        if free_given is not None:
            fp = self.free
            assert fp is not None  # (given only to a family with a free parameter)
            if any(prm.name == "dim" for prm in self.params):  # their samplers optimise it
                raise DomainError(fp.name, f"{self.name}: a fixed {fp.name} is available for "
                                  "the one-dimensional mechanisms only")
            self.free_given = check_free(self, free_given)

    @classmethod
    def _positional(cls, args: tuple[object, ...], values: dict[str, object]
                   ) -> dict[str, object]:
        """``values`` with the one positional argument a constructor takes, the first
        declared parameter (``Staircase(1)`` is ``Staircase(eps=1)``, ``UniformMass(0.1)``
        is ``UniformMass(delta=0.1)``), named.

        Raises
        ------
        TypeError
            As Python does: for more than one positional argument, or for the first
            parameter given both positionally and by keyword.
        """
        if not args:
            return values
        owner = f"{cls.__name__}()"
        first = cls.params[0].name if cls.params else None
        if first is None or len(args) > 1:
            takes = "no positional arguments" if first is None else \
                f"1 positional argument ({first})"
            raise TypeError(f"{owner} takes {takes} but {len(args)} were given")
        if first in values:
            raise TypeError(f"{owner} got multiple values for argument {first!r}")
        return {first: args[0], **values}

    def _validate(self, prm: Param, value: object) -> Exact:
        """Validate one parameter value (irrational values where
        ``_irrational_values``); subclasses refine (e.g. integer sensitivity)."""
        v = prm.validate_exact(value)
        if not (self._irrational_values or isinstance(v, Fraction)):
            raise DomainError(prm.name, f"{self.name} takes rational values only (a decimal "
                              f"or p/q), got {_fmt(v)}")
        return v

    @classmethod
    def _check_joint(cls, values: Mapping[str, Exact]) -> None:
        """Constraints that involve several parameters at once (none by default)."""

    def __repr__(self) -> str:
        args = ", ".join(f"{k}={str(v)!r}" for k, v in self.values.items())
        if getattr(self, "free_given", None) is not None and self.free is not None:
            args += f", {self.free.name}={str(self.free_given)!r}"
        return f"{type(self).__name__}({args})"

    def __getstate__(self) -> dict[str, object]:
        """The instance's state without prepared (compiled) plans."""
        state = {k: v for k, v in self.__dict__.items()
                 if not (k.startswith("_plan") or k.startswith("_dist"))}
        state["values"] = dict(self.values)
        return state

    def __setstate__(self, state: dict[str, Any]) -> None:
        self.__dict__.update(state)
        self.values = MappingProxyType(dict(state["values"]))

    @classmethod
    @cache
    def quantities(cls) -> tuple[str, ...]:
        """The quantity names: ``cost``, the free parameter's and the derived parameters'."""
        return (("cost",) + (() if cls.free is None else (cls.free.name,))
                + tuple(d.name for d in cls.derived))

    @classmethod
    def describe_params(cls) -> list[dict[str, str]]:
        """The declared parameters as plain dictionaries (for listings and docs)."""
        return [{"name": prm.name, "domain": prm.domain.describe(),
                 "description": prm.description, "default": prm.default or ""}
                for prm in cls.params]


# ---------------------------------------------------------------------- services
class Declaration(Protocol):
    """What the services below read of a declared object (a mechanism or bound class, or
    an instance): its name, parameters, free parameter and quantities."""

    @property
    def name(self) -> str: ...
    @property
    def params(self) -> tuple[Param, ...]: ...
    @property
    def free(self) -> FreeParameter | None: ...

    def quantities(self) -> tuple[str, ...]: ...


class Valued(Protocol):
    """A declared object with parameter values (an instance)."""

    @property
    def params(self) -> tuple[Param, ...]: ...
    @property
    def free(self) -> FreeParameter | None: ...
    @property
    def values(self) -> Mapping[str, Exact]: ...


def check_free(obj: Valued, value: object) -> Exact:
    """Validate a value of ``obj``'s free parameter against its range at ``obj``'s
    parameters (decided rigorously).

    Raises
    ------
    DomainError
        Naming the free parameter and its range.
    """
    fp = obj.free
    assert fp is not None
    v = parse_exact(value, fp.name)
    subs = {prm.symbol: to_sympy(obj.values[prm.name]) for prm in obj.params
            if prm.name in obj.values}
    lo, hi = (sp.sympify(e).xreplace(subs) for e in (fp.lower, fp.upper))
    kind = "an integer" if fp.integer else "a number"
    where = f"must be {kind} in [{lo}, {hi}], got {_fmt(v)}"
    if not (lo.is_number and hi.is_number):
        raise DomainError(fp.name, f"{where} (give the parameters it depends on)")
    if fp.integer and not (isinstance(v, Fraction) and v.denominator == 1):
        raise DomainError(fp.name, where)
    if compare(v, from_sympy(lo), fp.name) < 0 or compare(v, from_sympy(hi), fp.name) > 0:
        raise DomainError(fp.name, where)
    return v


def parameter_symbols(owner: Declaration) -> dict[str, sp.Symbol]:
    """The symbol of each of ``owner``'s parameters, by name."""
    return {prm.name: prm.symbol for prm in owner.params}


def substitution(obj: Valued) -> dict[sp.Symbol, sp.Expr]:
    """``obj``'s parameter values as a sympy substitution (exact: rationals, or constant
    expressions for irrational values)."""
    symbol = {prm.name: prm.symbol for prm in obj.params}
    return {symbol[n]: to_sympy(v) for n, v in obj.values.items()}


def require(obj: Valued, *names: str) -> None:
    """Raise a :class:`DomainError` if a parameter of ``obj`` needed numerically is missing."""
    for n in names:
        if n not in obj.values:
            prm = next(q for q in obj.params if q.name == n)
            raise DomainError(n, f"a value is required, in {prm.domain.describe()}")


def check_quantity(owner: Declaration, quantity: str) -> str:
    """Validate a quantity name of ``owner`` (exactly; the error suggests the closest name).

    Raises
    ------
    DomainError
        For a name that is not one of ``owner.quantities()``.
    """
    if quantity not in owner.quantities():
        raise unknown("quantity", f"quantity of {owner.name}", quantity, owner.quantities())
    return quantity


def resolve_quantity(owner: Declaration, quantity: str) -> str:
    """The quantity of ``owner`` a user's name stands for, in any case
    (:func:`dpsym.core.names.resolve`; for the command line)."""
    return resolve("quantity", f"quantity of {owner.name}", quantity, owner.quantities())
