r"""Generation of the derivation cache :mod:`dpsym.symbolic._derived` (the main job's first step).

:func:`collect` derives afresh every entry of :func:`calls` -- for every mechanism of the
registry and every cost of :data:`COSTS`, the calibration, the cost function, its slope,
the optimal parameter and cost, and each quantity's closed form -- and :func:`render`
writes them as Python constructor code (no ``eval``, no pickle) with the
:func:`~dpsym.symbolic.cache.fingerprint` of the sources they were derived from. :func:`write`
replaces the module atomically; :func:`in_checkout` tells whether a main job should.
Loading and lookup live in :mod:`dpsym.symbolic.cache`.
"""

from __future__ import annotations

import os
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import sympy as sp

from dpsym._version import __version__
from dpsym.core.costs import parse_cost
from dpsym.errors import DpsymError
from dpsym.mechanisms import MECHANISMS
from dpsym.mechanisms.base import Mechanism
from dpsym.symbolic.cache import MODULE, PACKAGE, entry_key, fingerprint, fresh, reload

#: The costs whose derivations are cached (and tabulated by the main job).
COSTS = ("amplitude", "power")


def calls() -> Iterator[tuple[type[Mechanism], str, tuple[object, ...]]]:
    """The derivations the generated module holds: for every mechanism of the registry
    and every cost of :data:`COSTS`, the calibration, the cost function, its
    slope, the optimal parameter and cost, and each quantity's closed form, as derived and
    in its shortest proven-equal form (the methods of its engine component,
    :class:`dpsym.mechanisms.base.Engine`)."""
    for cls in MECHANISMS.values():
        yield cls, "calibration", ()
        for cost in map(parse_cost, COSTS):
            yield cls, "moment", (cost.exponent,)
            if cls.free is not None:
                yield cls, "slope_function", (cost,)
                yield cls, "optimal_parameter", (cost,)
            yield cls, "optimal_cost", (cost,)
            for quantity in cls.quantities():
                yield cls, "closed_form", (quantity, cost)
                yield cls, "formula", (quantity, cost)


def _python(value: Any) -> str:
    """Python source that rebuilds ``value`` (a sympy object, None, or a dict of them):
    atoms as :func:`sympy.srepr` prints them, every other node as its class called on its
    arguments in their stored order (replayed without evaluation, the same tree)."""
    if value is None:
        return "None"
    if isinstance(value, dict):
        items = sorted(value.items(), key=lambda kv: sp.srepr(kv[0]))
        return "{" + ", ".join(f"{_python(k)}: {_python(v)}" for k, v in items) + "}"
    if isinstance(value, sp.Dummy):
        raise TypeError(f"cannot store a dummy symbol ({value})")
    if value.is_Atom:
        return sp.srepr(value)
    return f"{type(value).__name__}({', '.join(map(_python, value.args))})"


def collect() -> dict[str, Any]:
    """Every derivation of :func:`calls` that exists, derived afresh, by store key."""
    values: dict[str, Any] = {}
    with fresh():
        for cls, method, args in calls():
            try:
                values[entry_key(cls, method, args)] = getattr(cls.engine, method)(*args)
            except (DpsymError, NotImplementedError):  # no such derivation: nothing to store
                continue
    return values


def render(values: dict[str, Any] | None = None) -> str:
    """The text of the generated module (deterministic), from ``values`` (default: a
    fresh :func:`collect`)."""
    bodies = {key: _python(value) for key, value in (collect() if values is None
                                                     else values).items()}
    lines = [
        f'"""Derivations cached by ``dpsym derive`` (dpsym {__version__}): generated, do '
        'not edit."""',
        "# ruff: noqa",
        "from sympy import *",
        "from sympy.core.parameters import evaluate",
        "from sympy.functions.elementary.piecewise import ExprCondPair",
        "from dpsym.symbolic.sums import LerchSum, LowerGammaStar",
        "",
        f"FINGERPRINT = {fingerprint()!r}",
        "",
    ]
    table = []
    for i, (key, body) in enumerate(sorted(bodies.items())):
        lines.append(f"def _e{i}():\n    with evaluate(False):\n        return {body}\n")
        table.append(f"    {key!r}: _e{i},")
    lines += ["ENTRIES = {", *table, "}", ""]
    return "\n".join(lines)


def in_checkout(out_dir: str | os.PathLike[str]) -> bool:
    """Whether a main job writing into ``out_dir`` regenerates the cache too: the package
    is the source checkout (its parent holds ``pyproject.toml``), ``out_dir`` is that
    checkout's ``derivations/`` and the package directory is writable. An installed copy,
    or a job writing elsewhere (the tests), leaves the generated module alone."""
    checkout = PACKAGE.parent
    return ((checkout / "pyproject.toml").is_file()
            and Path(out_dir).resolve() == (checkout / "derivations").resolve()
            and os.access(PACKAGE, os.W_OK))


def write(path: str | os.PathLike[str] | None = None) -> Path:
    """Regenerate the generated module (atomically; ``path`` default
    :data:`dpsym.symbolic.cache.MODULE`) and drop the loaded store."""
    path = Path(MODULE if path is None else path)
    text = render()
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=".derived-", suffix=".tmp")
    try:
        with os.fdopen(fd, "w", encoding="utf-8", newline="\n") as fh:
            fh.write(text)
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
    reload()
    return path


__all__ = ["COSTS", "calls", "collect", "in_checkout", "render", "write"]
