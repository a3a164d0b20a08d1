r"""Which mechanism should I use? The comparison behind ``dpsym compare``.

:func:`compare_inputs` validates the request (:math:`\varepsilon`, :math:`\delta`, the
sensitivity, the cost, the digits, and optionally a dimension and the LP bound's grid);
:func:`compare` takes every registered mechanism that is
:math:`(\varepsilon, \delta)`-DP at those parameters, decided from its ``guarantee``
(:class:`~dpsym.core.params.Guarantee`):

* pure :math:`\varepsilon`-DP mechanisms for any :math:`\delta \ge 0` and
  :math:`\varepsilon > 0`;
* :math:`(\varepsilon, \delta)`-DP ones when :math:`\varepsilon` and :math:`\delta` lie in
  their declared domains;
* :math:`(0, \delta)`-DP ones for any :math:`\varepsilon \ge 0` and :math:`\delta > 0`;

computes each one's certified optimal cost, ranks them within their section (real-valued
and integer-valued queries) with their ratio to the best, and adds each section's lower
bounds (``lower-bound``, ``discrete-lower-bound``; ``lp-bound`` on request) with the
ratio best / bound. Multi-dimensional mechanisms (a ``dim`` parameter) are compared only,
and alone, when a dimension is given. An entry that does not qualify, or whose value
fails, is returned as :class:`Skipped` with the error.

Everything is returned as records (:class:`Comparison`, :class:`Ranked`,
:class:`Skipped`); nothing is printed. Errors of the request are
:class:`SelectionError` (or the :class:`~dpsym.errors.DomainError` of the parameter at
fault). Messages name parameters through placeholders (:meth:`SelectionError.render`),
so that a caller can name them its own way (the command writes ``--delta``).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

import mpmath

from dpsym.bounds import BOUNDS
from dpsym.bounds.lp import grid_param
from dpsym.certified.rounding import (
    check_digits,
    decimal_fraction,
    directed_text,
    display_number,
    format_digits,
)
from dpsym.core.costs import Cost, parse_cost
from dpsym.core.params import Guarantee, delta_param, dim_param, eps_param, sensitivity_param
from dpsym.errors import DpsymError, UnsupportedError
from dpsym.mechanisms import MECHANISMS, Mechanism
from dpsym.precision import workdps

__all__ = ["OPT_IN_BOUNDS", "RATIO_DIGITS", "CompareInputs", "Comparison", "IneligibleError",
           "Ranked", "SelectionError", "Skipped", "compare", "compare_inputs",
           "is_multidimensional"]

#: Lower bounds left out of the comparison unless asked for, and the flag that asks.
OPT_IN_BOUNDS: dict[str, str] = {"lp-bound": "lp"}
#: Significant digits of the ratios.
RATIO_DIGITS = 6
#: The sections of a comparison, in order.
QUERIES: tuple[str, ...] = ("real", "integer")

_PLACEHOLDER = re.compile(r"\{(\w+)\}")


class SelectionError(UnsupportedError):
    """A comparison that cannot be made as requested.

    Parameters
    ----------
    template : str
        The message, with each parameter it names written ``{name}`` (``{eps}``,
        ``{delta}``, ``{grid}``, ``{lp}``).
    """

    def __init__(self, template: str) -> None:
        self.template = template
        super().__init__(self.render())

    def render(self, spell: Callable[[str], str] = str) -> str:
        """The message with each parameter named by ``spell(name)`` (default: its name)."""
        return _PLACEHOLDER.sub(lambda m: spell(m.group(1)), self.template)


class IneligibleError(SelectionError):
    """An entry that does not qualify at the requested parameters (recorded as skipped)."""


@dataclass(frozen=True)
class CompareInputs:
    """The validated request of a comparison.

    Attributes
    ----------
    eps, delta, Delta : Fraction
        The exact privacy parameters and the sensitivity.
    cost : Cost
        The cost compared.
    digits : int
        Significant digits of the certified costs.
    dim : Fraction or None
        The dimension: compare the multi-dimensional mechanisms instead.
    grid : Fraction or None
        The LP bound's grid refinement (with ``lp``).
    lp : bool
        Include the certified LP bound ``lp-bound``.
    text : mapping of str to str
        The parameters as given (stripped; a fraction as ``p/q``), by parameter name, as
        they are shown. The mechanisms are built from the exact values above, which are
        exactly the ones typed.
    """

    eps: Fraction
    delta: Fraction
    Delta: Fraction
    cost: Cost
    digits: int
    dim: Fraction | None = None
    grid: Fraction | None = None
    lp: bool = False
    text: Mapping[str, str] = field(default_factory=dict)


@dataclass
class Ranked:
    """A compared entry: a ranked mechanism or a section's lower bound.

    Attributes
    ----------
    name, title : str
        The entry.
    kind : str
        ``mechanism`` or ``lower bound``.
    query : str
        ``real`` or ``integer`` (the section).
    guarantee : Guarantee
        Its privacy guarantee.
    cost : str
        Its certified optimal cost (a lower bound's rounded down).
    number : mpmath.mpf
        The same value as a number.
    ratio : str or None
        A mechanism's cost over the section's best; a bound's ratio best / bound (``None``
        when the section has no mechanism); :data:`RATIO_DIGITS` digits, exactly ``1``
        printed ``1``.
    rank : int or None
        A mechanism's rank in its section (``None`` for a lower bound).
    certificate : str
        What proves the cost's digits (:attr:`dpsym.certified.evaluation.Value.certificate`).
    enclosure : tuple of str
        The cost's range (:attr:`dpsym.certified.evaluation.Value.enclosure`).
    """

    name: str
    title: str
    kind: str
    query: str
    guarantee: Guarantee
    cost: str
    number: Any
    ratio: str | None = None
    rank: int | None = None
    certificate: str = "agreement"
    enclosure: tuple[str, str] = ("", "")


@dataclass(frozen=True)
class Skipped:
    """An entry left out, and why.

    Attributes
    ----------
    name, kind, query : str
        As in :class:`Ranked`.
    error : BaseException
        Why: an :class:`IneligibleError`, the entry's own error, or (``internal``) an
        unexpected exception of its computation, kept so that one entry's bug does not
        hide the others.
    """

    name: str
    kind: str
    query: str
    error: BaseException

    @property
    def internal(self) -> bool:
        """Whether the error is not one of dpsym's (a bug of that entry)."""
        return not isinstance(self.error, DpsymError)


@dataclass(frozen=True)
class Comparison:
    """The result of :func:`compare`.

    Attributes
    ----------
    inputs : CompareInputs
        The request.
    rows : tuple of Ranked
        Section by section (real, then integer): the mechanisms by rank, then the
        section's lower bounds.
    skipped : tuple of Skipped
        The entries left out, in registry order.
    excluded : tuple of str
        The mechanisms not compared: the multi-dimensional ones, or with a dimension the
        one-dimensional ones.
    """

    inputs: CompareInputs
    rows: tuple[Ranked, ...]
    skipped: tuple[Skipped, ...]
    excluded: tuple[str, ...]


def _typed(value: str | Fraction) -> str:
    """A parameter as given: the stripped text, or an exact fraction as ``p/q``."""
    return value.strip() if isinstance(value, str) else str(value)


def compare_inputs(eps: str | Fraction, delta: str | Fraction = "0",
                   sensitivity: str | Fraction = "1", cost: str | Cost = "amplitude",
                   digits: str | int = "15", dim: str | Fraction | None = None,
                   lp: bool = False, grid: str | Fraction | None = None) -> CompareInputs:
    r"""Validate a comparison request.

    Every number is a decimal string (read exactly) or an exact :class:`~fractions.Fraction`.

    Parameters
    ----------
    eps : str or Fraction
        :math:`\varepsilon \in [0, 10^{100}]` (0: :math:`(0, \delta)`-DP).
    delta : str or Fraction
        :math:`\delta \in [0, 1)` (0: pure :math:`\varepsilon`-DP).
    sensitivity : str or Fraction
        :math:`\Delta > 0`.
    cost : str or Cost
        ``amplitude``, ``power`` or ``moment:P``.
    digits : str or int
        Significant digits, in [1, 10000].
    dim : str or Fraction, optional
        A dimension: compare the multi-dimensional mechanisms instead.
    lp : bool
        Include the LP bound.
    grid : str or Fraction, optional
        The LP bound's grid refinement (only with ``lp``).

    Raises
    ------
    DomainError
        For a parameter outside its domain.
    SelectionError
        For ``grid`` without ``lp``, or :math:`\varepsilon = \delta = 0`.
    """
    text = {"eps": _typed(eps), "delta": _typed(delta), "Delta": _typed(sensitivity)}
    parsed_cost = parse_cost(cost)
    parsed_digits = check_digits(digits)
    e = eps_param(zero=True).validate(eps)
    d = delta_param(zero=True).validate(delta)
    sens = sensitivity_param().validate(sensitivity)
    dimension = None if dim is None else dim_param().validate(dim)
    refinement = None
    if grid is not None:
        if not lp:
            raise SelectionError("{grid}: used only with {lp} (the grid refinement of "
                                 "lp-bound)")
        refinement = grid_param().validate(grid)
        text["grid"] = _typed(grid)
    if e == 0 and d == 0:
        raise SelectionError("{eps}, {delta}: cannot both be 0 ((0, 0)-DP noise cannot "
                             "depend on the data); give {eps} > 0 or {delta} in (0, 1)")
    if dimension is not None:
        text["dim"] = str(dimension)
    return CompareInputs(eps=e, delta=d, Delta=sens, cost=parsed_cost, digits=parsed_digits,
                         dim=dimension, grid=refinement, lp=lp, text=text)


def is_multidimensional(cls: Any) -> bool:
    """Whether ``cls`` declares a dimension ``dim``."""
    return any(prm.name == "dim" for prm in cls.params)


def _guarantee(cls: Any) -> Guarantee:
    try:
        return Guarantee(cls.guarantee)
    except ValueError:
        raise IneligibleError(f"unknown guarantee {cls.guarantee!r}") from None


def _kwargs(cls: Any, inputs: CompareInputs) -> dict[str, Fraction]:
    """The parameters the comparison gives ``cls``; an :class:`IneligibleError` says why it
    does not qualify at these parameters."""
    guarantee = _guarantee(cls)
    if guarantee == Guarantee.PURE and inputs.eps == 0:
        raise IneligibleError("pure eps-DP: needs {eps} > 0")
    if guarantee != Guarantee.PURE and inputs.delta == 0:
        raise IneligibleError(f"{guarantee.label}: needs {{delta}} > 0")
    exact = {"eps": inputs.eps, "delta": inputs.delta, "Delta": inputs.Delta,
             "dim": inputs.dim, "grid": inputs.grid}
    kwargs: dict[str, Fraction] = {}
    for prm in cls.params:
        unused = (prm.name == "eps" and guarantee == Guarantee.ZERO_EPS) or \
            (prm.name == "delta" and guarantee == Guarantee.PURE)
        value = exact.get(prm.name)
        if value is not None and not unused:
            kwargs[prm.name] = value
        elif prm.default is None:
            raise IneligibleError(f"needs the parameter {prm.name}, which compare does "
                                  "not set")
    return kwargs


def _entry(cls: Any, kind: str, inputs: CompareInputs) -> Ranked | Skipped:
    """The certified optimal cost of ``cls`` at the inputs, or why it has none."""
    query = "integer" if cls.lattice else "real"
    try:
        guarantee = _guarantee(cls)
        instance = cls(**_kwargs(cls, inputs))
        if isinstance(instance, Mechanism):  # a declared noise proves its guarantee here
            instance.engine.check_guarantee(instance, inputs.eps, inputs.delta, inputs.cost)
        value = instance.value("cost", inputs.cost, inputs.digits)
    except Exception as exc:  # one entry's failure (even a bug) must not hide the others
        return Skipped(cls.name, kind, query, exc)
    return Ranked(name=cls.name, title=cls.title, kind=kind, query=query,
                  guarantee=guarantee, cost=value.text, number=value.number,
                  certificate=value.certificate, enclosure=value.enclosure)


def _ratio_text(ratio: Any) -> str:
    """A ratio correctly rounded to :data:`RATIO_DIGITS` significant digits, in the one
    display style of :func:`dpsym.certified.rounding.display_number` (``1.00000``, ``260548``)."""
    return display_number(format_digits(mpmath.mpf(ratio), RATIO_DIGITS), RATIO_DIGITS)


#: The optimal mechanism of each section under pure :math:`\varepsilon`-DP, for every cost
#: the theorems allow (symmetric, non-decreasing in :math:`|x|`): the staircase mechanism
#: for a real-valued query, the discrete staircase for an integer-valued one (seed ``000``,
#: Part One). At :math:`\delta = 0` its optimal cost is the section's lower bound.
PURE_OPTIMA: dict[str, str] = {"real": "staircase", "integer": "discrete-staircase"}


def _pure_optima_bounds(found: list[Ranked], digits: int) -> list[Ranked]:
    r"""The lower bounds at :math:`\delta = 0`: the optimal mechanism's cost
    (:data:`PURE_OPTIMA`), the lower end of its enclosure rounded down to ``digits``."""
    out = []
    for row in found:
        if PURE_OPTIMA.get(row.query) == row.name:
            low = directed_text(decimal_fraction(row.enclosure[0] or row.cost), digits,
                                up=False)
            out.append(Ranked(name=row.name, title=row.title, kind="lower bound",
                              query=row.query, guarantee=row.guarantee, cost=low,
                              number=mpmath.mpf(low), certificate=row.certificate,
                              enclosure=(low, low)))
    return out


def compare(inputs: CompareInputs) -> Comparison:
    """Rank the mechanisms that qualify at ``inputs`` (see the module docstring).

    Parameters
    ----------
    inputs : CompareInputs
        From :func:`compare_inputs`.

    Returns
    -------
    Comparison
        The ranked rows, the skipped entries and the excluded mechanisms.
    """
    multi = inputs.dim is not None
    skipped: list[Skipped] = []
    excluded: list[str] = []
    found: list[Ranked] = []
    for cls in MECHANISMS.values():
        if is_multidimensional(cls) != multi:
            excluded.append(cls.name)
            continue
        entry = _entry(cls, "mechanism", inputs)
        if isinstance(entry, Skipped):
            skipped.append(entry)
        else:
            found.append(entry)
    lower: list[Ranked] = []
    for bound in BOUNDS.values():
        flag = OPT_IN_BOUNDS.get(bound.name)
        if flag == "lp" and not inputs.lp:
            continue
        query = "integer" if bound.lattice else "real"
        if multi:
            skipped.append(Skipped(bound.name, "lower bound", query, IneligibleError(
                "a one-dimensional bound: not compared with {dim}")))
            continue
        entry = _entry(bound, "lower bound", inputs)
        if isinstance(entry, Skipped):
            skipped.append(entry)
        else:
            lower.append(entry)
    if not multi and inputs.delta == 0:
        lower.extend(_pure_optima_bounds(found, inputs.digits))
    rows: list[Ranked] = []
    with workdps(inputs.digits + 10):
        for query in QUERIES:
            section = sorted((r for r in found if r.query == query), key=lambda r: r.number)
            best = section[0].number if section else None
            for rank, row in enumerate(section, 1):
                row.rank = rank
                row.ratio = _ratio_text(row.number / best)
            rows.extend(section)
            for row in (r for r in lower if r.query == query):
                if best is not None and row.number > 0:
                    row.ratio = _ratio_text(best / row.number)
                rows.append(row)
    return Comparison(inputs=inputs, rows=tuple(rows), skipped=tuple(skipped),
                      excluded=tuple(excluded))
