r"""Lower bounds and tightness (paper 003 Section 4-5, slides 000 Part Three).

===============================  ====================================================
module                           content
===============================  ====================================================
:mod:`~dpsym.bounds.real`        :class:`LowerBound`: Lemma 2 / Theorems 4-5 made
                                 rigorous for every :math:`(\varepsilon, \delta)`
:mod:`~dpsym.bounds.integer`     :class:`DiscreteLowerBound`: integer-valued queries,
                                 :math:`(0, \delta)` closed forms
:mod:`~dpsym.bounds.lp`          :class:`LPBound`: certified LP lower bound, LP-optimal
                                 piecewise-constant mechanism (achievable upper bound)
:mod:`~dpsym.bounds.tightness`   Theorems 6-7: ratios lower/upper as limits and series
:mod:`~dpsym.bounds.table`       the finite-parameter comparison table and figure
===============================  ====================================================

The three CLI objects follow the :class:`~dpsym.mechanisms.base.Mechanism` contract;
their printed values are rounded down.
"""

from __future__ import annotations

from typing import Any

from dpsym.bounds.integer import DiscreteLowerBound
from dpsym.bounds.lp import LPBound
from dpsym.bounds.real import LowerBound
from dpsym.core.names import resolve
from dpsym.mechanisms import MECHANISMS

#: The bound objects by CLI name.
BOUNDS = {cls.name: cls for cls in (LowerBound, DiscreteLowerBound, LPBound)}


def get_entry(name: str) -> Any:
    """The mechanism or lower-bound class called ``name`` (mechanisms first; any case, a
    near miss gets a "did you mean").

    Raises
    ------
    DomainError
        If no entry has that name; the message lists every valid name.
    """
    canonical = resolve("mechanism", "mechanism or bound", name, [*MECHANISMS, *BOUNDS],
                        listing=f"mechanisms: {', '.join(MECHANISMS)}; lower bounds: "
                                f"{', '.join(BOUNDS)}")
    return {**BOUNDS, **MECHANISMS}[canonical]


__all__ = ["BOUNDS", "DiscreteLowerBound", "LPBound", "LowerBound", "get_entry"]
