r"""Evaluate a quantity over a grid of parameters, at any precision, in parallel.

``sweep`` runs :meth:`dpsym.mechanisms.base.Mechanism.value` at every point of the
Cartesian product of the given parameter values. The points are independent, so they are
handed to any :class:`concurrent.futures.Executor` (processes by default: the work is
CPU-bound and the engine is pure Python); the results come back in grid order whatever the
executor, so a parallel run writes byte for byte what a serial one writes. Scaling past
one machine goes through an existing engine: a Dask ``distributed`` client's
``get_executor()`` is an ``Executor``.

A point whose value fails (a parameter outside its domain, an uncertifiable value, a bug,
a worker process that died, a point over its time budget ``timeout`` or its memory budget
``memory``) gives a row with an ``error`` message instead of a value; the sweep itself
does not stop, and every other point keeps its value.

**Budgets are per point.** With ``timeout`` or ``memory``, each point is evaluated in a
forked child process (a :class:`dpsym.runtime.budget.Worker`: one per worker of the default
pool, kept from chunk to chunk so that the caches one point warms serve the next; one per
serial run; one per chunk on another executor). Each point gets the whole budget, counted
from its own start (the memory budget over the child's size when the point starts); a
point over it is stopped at once, even inside a long call into C, and recorded as
``exceeded the time budget of N s`` (or ``the memory budget of ...``); its child is
killed and a new one takes the next points. There is no budget on the sweep as a whole.

The default process pool stops with its caller: an interruption (``KeyboardInterrupt``,
any exception) cancels the pending points and terminates the workers before it
propagates, and each worker exits by itself when the process that started the sweep dies
(even by ``SIGKILL``): it watches that process (a ``pidfd`` on Linux, else
:func:`multiprocessing.parent_process`'s sentinel) and, on Linux, also asks the kernel to
kill it with its parent (``PR_SET_PDEATHSIG``). Workers ignore ``SIGINT``: a Ctrl-C at a
terminal reaches the whole process group, and it is the caller that stops them.
"""

from __future__ import annotations

import contextlib
import csv
import ctypes
import io
import itertools
import json
import multiprocessing
import multiprocessing.connection
import multiprocessing.util
import os
import re
import signal
import sys
import threading
from collections.abc import Callable, Iterable, Mapping, Sequence
from concurrent.futures import Executor, Future, ProcessPoolExecutor
from fractions import Fraction
from typing import Any

import mpmath

from dpsym.bounds import get_entry
from dpsym.certified.rounding import check_digits
from dpsym.core.costs import parse_cost
from dpsym.core.params import check_quantity, parse_number
from dpsym.errors import BudgetExceeded, DomainError, DpsymError
from dpsym.precision import workdps
from dpsym.runtime.budget import MAX_TIMEOUT, Worker, check_memory, check_timeout

#: Largest number of grid points one sweep accepts.
MAX_POINTS = 10**6
#: Points per task handed to an executor.
CHUNK = 16
#: Significant digits of the values of ``log:LO:HI:N``: at least the first, as many more
#: as distinct points need, at most the second.
LOG_DIGITS = (6, 30)
#: Seconds a terminated worker is given to exit before it is killed.
TERMINATE_GRACE = 2.0

#: A fraction ``p/q`` of ASCII integers (``p`` signed), accepted for every parameter.
#: ``prctl`` option asking the kernel for a signal when the parent dies (Linux).
_PR_SET_PDEATHSIG = 1
#: In a worker of the default pool: the budget worker kept from chunk to chunk (its child
#: keeps the caches that the points warm).
_POOL_WORKER: list[Worker] = []


def read_number(text: object, name: str) -> Fraction:
    """A parameter value of a sweep: an exact rational in the package's one grammar
    (:func:`dpsym.core.params.parse_number`: a decimal, ``p/q``, or an exact expression whose
    value is rational).

    Raises
    ------
    DomainError
        Naming ``name``, for anything else.
    """
    return parse_number(text, name)


def _significant(value: Fraction) -> int:
    """The significant digits of ``value`` as a terminating decimal; more than
    ``LOG_DIGITS[1]`` when it is not one or has more."""
    q = value.denominator
    for prime in (2, 5):
        while q % prime == 0:
            q //= prime
    if q != 1 or value == 0:
        return LOG_DIGITS[1] + 1
    n = abs(value)
    scale = max(n.denominator.bit_length(), 1)  # 10^k clears a denominator 2^a 5^b
    digits = n.numerator * 10**scale // n.denominator
    while digits % 10 == 0:
        digits //= 10
    if digits.bit_length() > 4 * LOG_DIGITS[1]:
        return LOG_DIGITS[1] + 1
    return len(str(digits))


def _log_values(lo: Fraction, hi: Fraction, n: int, name: str) -> list[str]:
    """``n`` log-spaced values from ``lo`` to ``hi`` as decimal strings: 6 significant
    digits, or more where the endpoints or distinct points need them; a whole number
    without a decimal point (``10``, not ``10.0``)."""
    low, high = LOG_DIGITS
    ends = [s for s in (_significant(lo), _significant(hi)) if s <= high]
    start = max([low, *ends])
    with workdps(high + 10):
        a = mpmath.log10(mpmath.mpf(lo.numerator) / lo.denominator)
        b = mpmath.log10(mpmath.mpf(hi.numerator) / hi.denominator)
        exact = [10 ** (a + (b - a) * j / max(n - 1, 1)) for j in range(n)]
        for digits in range(start, high + 1):
            values = [re.sub(r"\.0(?=e|$)", "", mpmath.nstr(x, digits)) for x in exact]
            numbers = [Fraction(v) for v in values]
            if lo == hi or all(x != y for x, y in itertools.pairwise(numbers)):
                return values
    raise DomainError(name, f"log:LO:HI:N: the {n} points are not distinct at {high} "
                      "significant digits; take fewer points or a wider range")


def parse_values(text: str, name: str) -> list[str]:
    """Values of a parameter from the command line: ``a,b,c`` or ``log:lo:hi:n``.

    ``log:lo:hi:n`` gives ``n`` log-spaced values from ``lo`` to ``hi``, each written with
    6 significant digits, or with as many more (up to 30) as it takes for ``lo`` and ``hi``
    to be written exactly and for distinct points to stay distinct; they are then read
    exactly. The first and last values are ``lo`` and ``hi`` as written. Every value is
    validated as a decimal number or a fraction ``p/q`` (:func:`read_number`).

    Raises
    ------
    DomainError
        For a malformed list, a non-number, ``n`` outside [1, 100000], or points that are
        not distinct at 30 digits.
    """
    text = text.strip()
    if text.startswith("log:"):
        parts = text[4:].split(":")
        if len(parts) != 3:
            raise DomainError(name, "expected log:LO:HI:N")
        lo, hi = (read_number(v, name) for v in parts[:2])
        if lo <= 0 or hi <= 0:
            raise DomainError(name, "log:LO:HI:N needs LO > 0 and HI > 0")
        if not re.fullmatch(r"[0-9]{1,6}", parts[2]) or not 1 <= int(parts[2]) <= 100_000:
            raise DomainError(name, "log:LO:HI:N needs an integer N in [1, 100000]")
        values = _log_values(lo, hi, int(parts[2]), name)
        values[0], values[-1] = parts[0].strip(), parts[1].strip()  # as the user wrote them
    else:
        values = [v.strip() for v in text.split(",")]
    if not values or any(not v for v in values):
        raise DomainError(name, "expected a comma-separated list of numbers or log:LO:HI:N")
    for v in values:
        read_number(v, name)
    return values


# ---------------------------------------------------------------------- one point
def _point(cls: Any, point: tuple[tuple[str, str], ...], quantity: str, cost: str,
           digits: int, budgeted: bool = False) -> dict[str, str]:
    """The row of one point: its value, or why it has none. Under a memory budget
    (``budgeted``) a :class:`MemoryError` propagates, for the budget to report it."""
    row: dict[str, Any] = dict(point)
    value = error = ""
    found = None
    try:
        kwargs = {name: read_number(text, name) for name, text in point}
        found = cls(**kwargs).value(quantity, cost, digits)
        value = found.text
    except (DpsymError, ValueError, ArithmeticError, NotImplementedError) as exc:
        value, error = "", " ".join(str(exc).split())[:300]
    except MemoryError:
        if budgeted:
            raise
        value, error = "", "out of memory"
    except Exception as exc:  # a bug at one point must not lose the others
        detail = " ".join(str(exc).split())[:300]
        value, error = "", f"internal error: {type(exc).__name__}: {detail}"
    row["value"] = value
    row["error"] = error
    if found is not None and value:
        row["certificate"] = found.certificate
        row["enclosure"] = list(found.enclosure)
    return row


def _budget_error(exc: BaseException) -> str:
    """The ``error`` of a point stopped by its budget (or whose process died)."""
    if isinstance(exc, BudgetExceeded):
        return f"exceeded the {exc.budget} budget of {exc.limit}"
    detail = " ".join(str(exc).split())[:300]
    return f"not evaluated: {type(exc).__name__}: {detail}"


def _point_named(name: str, point: tuple[tuple[str, str], ...], quantity: str, cost: str,
                 digits: int, budgeted: bool) -> dict[str, str]:
    """:func:`_point` of the mechanism called ``name`` (in the child of a budget)."""
    return _point(get_entry(name), point, quantity, cost, digits, budgeted)


def _evaluate(task: tuple[str, str, str, int, tuple[tuple[tuple[str, str], ...], ...],
                          float | None, int | None],
              worker: Worker | None = None) -> list[dict[str, str]]:
    """Evaluate one chunk of points (runs in a worker). With a budget, each point runs
    within it in the forked child of ``worker`` (default: the one kept by this process
    when it is a worker of the default pool, else one for this chunk)."""
    name, quantity, cost, digits, points, seconds, memory = task
    if seconds is None and memory is None:
        cls = get_entry(name)
        return [_point(cls, point, quantity, cost, digits) for point in points]
    own = worker is None and not _POOL_WORKER
    if worker is None:
        worker = _POOL_WORKER[0] if _POOL_WORKER else Worker()
    rows = []
    try:
        for point in points:
            params = ", ".join(f"{k}={v}" for k, v in point)
            what = f"{name} {quantity} ({cost}, {digits} digits, {params})"
            args = (name, point, quantity, cost, digits, memory is not None)
            outcome = worker.call(("call", _point_named, args), seconds, memory, what)
            rows.append(outcome.value if outcome.error is None else
                        {**dict(point), "value": "", "error": _budget_error(outcome.error)})
    finally:
        if own:
            worker.close()
    return rows


def _failed(task: tuple[Any, ...], reason: str) -> list[dict[str, str]]:
    """The rows of a chunk that could not be evaluated."""
    return [{**dict(point), "value": "", "error": reason} for point in task[4]]


# ---------------------------------------------------------------------- workers
def _exit_with(parent: int) -> None:
    """Exit this process as soon as the process ``parent`` has exited (runs in a thread)."""
    try:
        handle: Any = os.pidfd_open(parent)  # Linux >= 5.3
    except ProcessLookupError:
        os._exit(1)
    except (AttributeError, OSError):
        proc = multiprocessing.parent_process()
        if proc is None or proc.pid != parent:
            return  # no way to watch it here
        handle = proc.sentinel
    multiprocessing.connection.wait([handle])
    os._exit(1)


def _worker_init(parent: int) -> None:
    """Set up a worker of the default pool: ignore ``SIGINT``, die with ``parent``."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    if sys.platform.startswith("linux") and os.getppid() == parent:
        with contextlib.suppress(OSError, AttributeError):
            libc = ctypes.CDLL(None, use_errno=True)
            libc.prctl(_PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)
        if os.getppid() != parent:  # the parent died before prctl took effect
            os._exit(1)
    threading.Thread(target=_exit_with, args=(parent,), daemon=True,
                     name="dpsym-sweep-parent-watch").start()
    worker = Worker()
    _POOL_WORKER.append(worker)
    # closed (its child asked to exit and reaped) when this worker process exits normally
    multiprocessing.util.Finalize(worker, worker.close, exitpriority=10)


def _stop(pool: ProcessPoolExecutor) -> None:
    """Cancel the points that have not started and terminate the workers of ``pool`` now.

    The pool itself cancels its pending futures (``shutdown(cancel_futures=True)``, before
    the workers go, so that it never fails a future cancelled already); the workers are
    then terminated, and killed if they have not exited after :data:`TERMINATE_GRACE`.
    """
    processes = list((getattr(pool, "_processes", None) or {}).values())
    terminate = getattr(pool, "terminate_workers", None)  # Python >= 3.14
    if terminate is not None:
        terminate()
    else:
        pool.shutdown(wait=False, cancel_futures=True)
        for proc in processes:
            with contextlib.suppress(Exception):
                proc.terminate()
    for proc in processes:
        with contextlib.suppress(Exception):
            proc.join(TERMINATE_GRACE)
            if proc.is_alive():
                proc.kill()
                proc.join(TERMINATE_GRACE)


def _run(submit: Callable[[Any], Future[Any]], tasks: Sequence[Any],
         emit: Callable[[list[dict[str, str]]], None], futures: list[Future[Any]]) -> None:
    """Submit every task (recording the futures in ``futures``, for the caller to cancel
    on an interruption), then hand each chunk's rows to ``emit`` in submission order.

    A chunk whose future fails (a worker that died, an executor that broke) gives rows
    with the reason; the other chunks keep their values.
    """
    for task in tasks:
        futures.append(submit(task))
    for task, future in zip(tasks, futures, strict=True):
        try:
            rows = future.result()
        except Exception as exc:
            detail = " ".join(str(exc).split())[:200] or "no detail"
            rows = _failed(task, f"not evaluated: {type(exc).__name__}: {detail}")
        emit(rows)


def sweep(mechanism: str, grid: Mapping[str, Sequence[str]], quantity: str = "cost",
          cost: str = "amplitude", digits: int = 30, executor: Executor | None = None,
          workers: int | None = None,
          progress: Callable[[int, int], None] | None = None,
          timeout: object = None, memory: object = None) -> list[dict[str, str]]:
    """``quantity`` of ``mechanism`` at every point of ``grid``, in grid order.

    Parameters
    ----------
    mechanism : str
        A registered mechanism's name.
    grid : mapping
        Parameter name -> list of decimal strings (or fractions ``p/q``); the points are
        the Cartesian product, the last parameter varying fastest.
    quantity, cost, digits
        As for :meth:`~dpsym.mechanisms.base.Mechanism.value`.
    executor : concurrent.futures.Executor, optional
        Where to run; default a process pool of ``workers`` processes (default: every
        core), stopped with its caller (see the module docstring). ``workers=1`` without
        an executor runs serially in this process.
    progress : callable, optional
        Called as ``progress(done, total)`` after each chunk.
    timeout : number or str, optional
        A time budget per point, in seconds (in [0.001, 10^6]); a point over it gives a row
        with the error ``exceeded the time budget of N s``.
    memory : int or str, optional
        A memory budget per point (bytes, or a size such as ``"512M"``, at least 64 MiB:
        :func:`dpsym.runtime.budget.check_memory`); a point over it gives a row with the error
        ``exceeded the memory budget of ...``. Both budgets are enforced in a forked child
        of whatever runs the chunk (the default pool, a serial run, or the workers of
        ``executor``, processes or threads), on POSIX systems (see :mod:`dpsym.runtime.budget`).

    Returns
    -------
    list of dict
        One row per point: the parameters, ``value`` (the certified decimal string) and
        ``error`` (empty, or why the point has no value).

    Raises
    ------
    DomainError
        Before any point is evaluated: an unknown mechanism, quantity, cost or parameter,
        invalid digits, timeout or memory, or more than :data:`MAX_POINTS` points (name
        ``points``).
    """
    cls = get_entry(mechanism)
    check_quantity(cls, quantity)
    parse_cost(cost)
    digits = check_digits(digits)
    seconds = check_timeout(timeout)
    size = check_memory(memory)
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
        raise DomainError("points", f"the grid has {total} points; at most {MAX_POINTS}")
    points = [tuple(zip(names, combo, strict=True))
              for combo in itertools.product(*(grid[n] for n in names))]
    tasks = [(mechanism, quantity, cost, digits, tuple(points[i:i + CHUNK]), seconds, size)
             for i in range(0, len(points), CHUNK)]
    results: list[dict[str, str]] = []

    def emit(rows: list[dict[str, str]]) -> None:
        results.extend(rows)
        if progress is not None:
            progress(len(results), total)

    if executor is None and workers == 1:
        with Worker() as worker:  # forks only with a budget
            for task in tasks:
                emit(_evaluate(task, worker))
        return results
    futures: list[Future[Any]] = []
    if executor is not None:
        try:
            _run(lambda t: executor.submit(_evaluate, t), tasks, emit, futures)
        except BaseException:
            for future in futures:
                future.cancel()
            raise
        return results
    pool = ProcessPoolExecutor(max_workers=workers or os.cpu_count() or 1,
                               initializer=_worker_init, initargs=(os.getpid(),))
    try:
        _run(lambda t: pool.submit(_evaluate, t), tasks, emit, futures)
    except BaseException:
        _stop(pool)
        raise
    pool.shutdown(wait=True)
    return results


#: Row fields written to JSON only (the CSV keeps its columns: the point, value, error).
JSON_ONLY = ("certificate", "enclosure")


def to_csv(rows: Sequence[Mapping[str, str]]) -> str:
    """The rows as CSV text (header from the first row)."""
    if not rows:
        return ""
    buffer = io.StringIO()
    fields = [k for k in rows[0] if k not in JSON_ONLY]
    writer = csv.DictWriter(buffer, fieldnames=fields, lineterminator="\n",
                            extrasaction="ignore")
    writer.writeheader()
    writer.writerows(rows)
    return buffer.getvalue()


def to_json(rows: Sequence[Mapping[str, str]], meta: Mapping[str, object]) -> str:
    """The rows and the sweep's description as one JSON document (a row without a value
    has ``certificate`` and ``enclosure`` null)."""
    full = [{"certificate": None, "enclosure": None, **row} for row in rows]
    return json.dumps({**meta, "rows": full}, indent=1, sort_keys=True) + "\n"


def failures(rows: Iterable[Mapping[str, str]]) -> int:
    """How many rows have no value."""
    return sum(1 for row in rows if row.get("error"))


__all__ = ["CHUNK", "JSON_ONLY", "MAX_POINTS", "MAX_TIMEOUT", "failures",
           "parse_values", "read_number", "sweep", "to_csv", "to_json"]
