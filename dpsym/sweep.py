r"""Evaluate a quantity over a grid of parameters, at any precision, in parallel.

``sweep`` runs :meth:`dpsym.mechanisms.base.Mechanism.value` at every point of the
Cartesian product of the given parameter values. The points are independent, so they are
handed to any :class:`concurrent.futures.Executor` (processes by default: the work is
CPU-bound and the engine is pure Python); the results come back in grid order whatever the
executor, so a parallel run writes byte for byte what a serial one writes. Scaling past
one machine goes through an existing engine: a Dask ``distributed`` client's
``get_executor()`` is an ``Executor``.

A point whose value fails (a parameter outside its domain, an uncertifiable value) gives a
row with an ``error`` message instead of a value; the sweep itself does not stop.
"""

from __future__ import annotations

import csv
import io
import itertools
import json
import os
from collections.abc import Callable, Iterable, Mapping, Sequence
from concurrent.futures import Executor, ProcessPoolExecutor

import mpmath

from .errors import DomainError
from .mechanisms import get_mechanism
from .numerics import check_digits
from .params import parse_number

#: Largest number of grid points one sweep accepts.
MAX_POINTS = 10**6
#: Points per task handed to an executor.
CHUNK = 16


def parse_values(text: str, name: str) -> list[str]:
    """Values of a parameter from the command line: ``a,b,c`` or ``log:lo:hi:n``.

    ``log:lo:hi:n`` gives ``n`` log-spaced values from ``lo`` to ``hi`` (each written with 6
    significant digits, then read exactly). Every value is validated as a decimal number.

    Raises
    ------
    DomainError
        For a malformed list, a non-number or ``n`` outside [1, 100000].
    """
    text = text.strip()
    if text.startswith("log:"):
        parts = text[4:].split(":")
        if len(parts) != 3:
            raise DomainError(name, "expected log:LO:HI:N")
        lo, hi = (parse_number(v, name) for v in parts[:2])
        if lo <= 0 or hi <= 0:
            raise DomainError(name, "log:LO:HI:N needs LO > 0 and HI > 0")
        if not (parts[2].isascii() and parts[2].isdigit()) or not 1 <= int(parts[2]) <= 100_000:
            raise DomainError(name, "log:LO:HI:N needs an integer N in [1, 100000]")
        n = int(parts[2])
        with mpmath.workdps(30):
            a, b = mpmath.log10(mpmath.mpf(lo.numerator) / lo.denominator), \
                mpmath.log10(mpmath.mpf(hi.numerator) / hi.denominator)
            values = [mpmath.nstr(10 ** (a + (b - a) * j / max(n - 1, 1)), 6) for j in range(n)]
    else:
        values = [v.strip() for v in text.split(",")]
    if not values or any(not v for v in values):
        raise DomainError(name, "expected a comma-separated list of numbers or log:LO:HI:N")
    for v in values:
        parse_number(v, name)
    return values


def _evaluate(task: tuple[str, str, str, int, tuple[tuple[tuple[str, str], ...], ...]]
              ) -> list[dict[str, str]]:
    """Evaluate one chunk of points (runs in a worker)."""
    name, quantity, cost, digits, points = task
    cls = get_mechanism(name)
    rows = []
    for point in points:
        row = dict(point)
        try:
            row["value"] = cls(**row).value(quantity, cost, digits).text
            row["error"] = ""
        except (ValueError, ArithmeticError, NotImplementedError) as exc:
            row["value"] = ""
            row["error"] = " ".join(str(exc).split())[:300]
        rows.append(row)
    return rows


def sweep(mechanism: str, grid: Mapping[str, Sequence[str]], quantity: str = "cost",
          cost: str = "amplitude", digits: int = 30, executor: Executor | None = None,
          workers: int | None = None,
          progress: Callable[[int, int], None] | None = None) -> list[dict[str, str]]:
    """``quantity`` of ``mechanism`` at every point of ``grid``, in grid order.

    Parameters
    ----------
    mechanism : str
        A registered mechanism's name.
    grid : mapping
        Parameter name -> list of decimal strings; the points are the Cartesian product,
        the last parameter varying fastest.
    quantity, cost, digits
        As for :meth:`~dpsym.mechanisms.base.Mechanism.value`.
    executor : concurrent.futures.Executor, optional
        Where to run; default a process pool of ``workers`` processes (default: every
        core). ``workers=1`` without an executor runs serially in this process.
    progress : callable, optional
        Called as ``progress(done, total)`` after each chunk.

    Returns
    -------
    list of dict
        One row per point: the parameters, ``value`` (the certified decimal string) and
        ``error`` (empty, or why the point has no value).
    """
    cls = get_mechanism(mechanism)
    cls.check_quantity(quantity)
    digits = check_digits(digits)
    known = {prm.name for prm in cls.params}
    for name in grid:
        if name not in known:
            raise DomainError(name, f"is not a parameter of {mechanism}; valid: "
                              + ", ".join(sorted(known)))
    names = list(grid)
    total = 1
    for name in names:
        total *= len(grid[name])
    if total > MAX_POINTS:
        raise DomainError("grid", f"has {total} points; at most {MAX_POINTS}")
    points = [tuple(zip(names, combo, strict=True))
              for combo in itertools.product(*(grid[n] for n in names))]
    tasks = [(mechanism, quantity, cost, digits, tuple(points[i:i + CHUNK]))
             for i in range(0, len(points), CHUNK)]
    results: list[dict[str, str]] = []
    if executor is None and workers == 1:
        chunks: Iterable[list[dict[str, str]]] = map(_evaluate, tasks)
        return _collect(chunks, results, total, progress)
    if executor is not None:
        return _collect(executor.map(_evaluate, tasks), results, total, progress)
    with ProcessPoolExecutor(max_workers=workers or os.cpu_count() or 1) as pool:
        return _collect(pool.map(_evaluate, tasks), results, total, progress)


def _collect(chunks: Iterable[list[dict[str, str]]], results: list[dict[str, str]],
             total: int, progress: Callable[[int, int], None] | None
             ) -> list[dict[str, str]]:
    for rows in chunks:  # Executor.map yields in submission order
        results.extend(rows)
        if progress is not None:
            progress(len(results), total)
    return results


def to_csv(rows: Sequence[Mapping[str, str]]) -> str:
    """The rows as CSV text (header from the first row)."""
    if not rows:
        return ""
    buffer = io.StringIO()
    writer = csv.DictWriter(buffer, fieldnames=list(rows[0]), lineterminator="\n")
    writer.writeheader()
    writer.writerows(rows)
    return buffer.getvalue()


def to_json(rows: Sequence[Mapping[str, str]], meta: Mapping[str, object]) -> str:
    """The rows and the sweep's description as one JSON document."""
    return json.dumps({**meta, "rows": list(rows)}, indent=1, sort_keys=True) + "\n"


__all__ = ["MAX_POINTS", "parse_values", "sweep", "to_csv", "to_json"]
