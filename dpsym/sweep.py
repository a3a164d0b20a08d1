r"""Evaluate a quantity over a grid of parameters, at any precision, in parallel.

``sweep`` runs :meth:`dpsym.mechanisms.base.Mechanism.value` at every point of the
Cartesian product of the given parameter values. The points are independent, so they are
handed to any :class:`concurrent.futures.Executor` (processes by default: the work is
CPU-bound and the engine is pure Python); the results come back in grid order whatever the
executor, so a parallel run writes byte for byte what a serial one writes. Scaling past
one machine goes through an existing engine: a Dask ``distributed`` client's
``get_executor()`` is an ``Executor``.

A point whose value fails (a parameter outside its domain, an uncertifiable value, a bug,
a worker process that died, a point over its time budget ``timeout``) gives a row with an
``error`` message instead of a value; the sweep itself does not stop, and every other
point keeps its value.

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
import os
import re
import signal
import sys
import threading
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from concurrent.futures import Executor, Future, ProcessPoolExecutor
from decimal import Decimal
from fractions import Fraction
from typing import Any

import mpmath

from .costs import parse_cost
from .errors import DomainError, DpsymError, UnsupportedError
from .mechanisms import get_mechanism
from .numerics import check_digits
from .params import MAX_EXPONENT, parse_number
from .precision import workdps

#: Largest number of grid points one sweep accepts.
MAX_POINTS = 10**6
#: Points per task handed to an executor.
CHUNK = 16
#: Largest time budget of one point, in seconds.
MAX_TIMEOUT = Fraction(10**6)
#: Significant digits of the values of ``log:LO:HI:N``: at least the first, as many more
#: as distinct points need, at most the second.
LOG_DIGITS = (6, 30)
#: Seconds a terminated worker is given to exit before it is killed.
TERMINATE_GRACE = 2.0

#: A fraction ``p/q`` of ASCII integers (``p`` signed), accepted for every parameter.
FRACTION = re.compile(r"([+-]?[0-9]+)/([0-9]+)")
#: ``prctl`` option asking the kernel for a signal when the parent dies (Linux).
_PR_SET_PDEATHSIG = 1


class PointTimeout(BaseException):
    """Raised inside a point's evaluation when it exceeds its time budget.

    A ``BaseException``, so that no ``except Exception`` of the engine swallows it.
    """


def read_number(text: object, name: str) -> Fraction:
    """A parameter value of a sweep: a decimal (:func:`dpsym.params.parse_number`) or an
    exact fraction ``p/q`` of ASCII integers (``q > 0``).

    Raises
    ------
    DomainError
        Naming ``name``, for anything else.
    """
    s = text.strip() if isinstance(text, str) else text
    match = FRACTION.fullmatch(s) if isinstance(s, str) else None
    if match is None:
        return parse_number(s, name)
    p, q = match.groups()
    if max(len(p), len(q)) > MAX_EXPONENT + 1:
        raise DomainError(name, f"a fraction p/q takes at most {MAX_EXPONENT + 1} digits "
                          "in p and in q")
    denominator = int(Decimal(q))  # Decimal: no limit on the number of digits
    if denominator == 0:
        raise DomainError(name, f"a fraction p/q needs q > 0, got {s[:40]!r}")
    return Fraction(int(Decimal(p)), denominator)


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
    digits, or more where the endpoints or distinct points need them."""
    low, high = LOG_DIGITS
    ends = [s for s in (_significant(lo), _significant(hi)) if s <= high]
    start = max([low, *ends])
    with workdps(high + 10):
        a = mpmath.log10(mpmath.mpf(lo.numerator) / lo.denominator)
        b = mpmath.log10(mpmath.mpf(hi.numerator) / hi.denominator)
        exact = [10 ** (a + (b - a) * j / max(n - 1, 1)) for j in range(n)]
        for digits in range(start, high + 1):
            values = [mpmath.nstr(x, digits) for x in exact]
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
    exactly. Every value is validated as a decimal number or a fraction ``p/q``
    (:func:`read_number`).

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
    else:
        values = [v.strip() for v in text.split(",")]
    if not values or any(not v for v in values):
        raise DomainError(name, "expected a comma-separated list of numbers or log:LO:HI:N")
    for v in values:
        read_number(v, name)
    return values


# ---------------------------------------------------------------------- one point
def _raise_timeout(signum: int, frame: Any) -> None:
    raise PointTimeout


@contextlib.contextmanager
def _budget(seconds: float | None) -> Iterator[None]:
    """Raise :class:`PointTimeout` in this (main) thread after ``seconds`` (``SIGALRM``)."""
    if seconds is None:
        yield
        return
    previous = signal.signal(signal.SIGALRM, _raise_timeout)
    signal.setitimer(signal.ITIMER_REAL, max(seconds, 1e-6))  # 0 would disarm it
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


def _point(cls: Any, point: tuple[tuple[str, str], ...], quantity: str, cost: str,
           digits: int, timeout: float | None) -> dict[str, str]:
    """The row of one point: its value, or why it has none."""
    row = dict(point)
    value = error = ""
    try:
        with _budget(timeout):
            kwargs = {name: read_number(text, name) for name, text in point}
            value = cls(**kwargs).value(quantity, cost, digits).text
    except PointTimeout:
        value, error = "", f"exceeded the time budget of {timeout:g} s"
    except (DpsymError, ValueError, ArithmeticError, NotImplementedError) as exc:
        value, error = "", " ".join(str(exc).split())[:300]
    except Exception as exc:  # a bug at one point must not lose the others
        detail = " ".join(str(exc).split())[:300]
        value, error = "", f"internal error: {type(exc).__name__}: {detail}"
    row["value"] = value
    row["error"] = error
    return row


def _evaluate(task: tuple[str, str, str, int, tuple[tuple[tuple[str, str], ...], ...],
                          float | None]) -> list[dict[str, str]]:
    """Evaluate one chunk of points (runs in a worker)."""
    name, quantity, cost, digits, points, timeout = task
    cls = get_mechanism(name)
    return [_point(cls, point, quantity, cost, digits, timeout) for point in points]


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


def _check_timeout(timeout: object, executor: Executor | None, workers: int | None
                   ) -> float | None:
    if timeout is None:
        return None
    seconds = read_number(timeout, "timeout")
    if not 0 < seconds <= MAX_TIMEOUT:
        raise DomainError("timeout", f"must be in (0, {MAX_TIMEOUT}] seconds")
    if not hasattr(signal, "setitimer"):
        raise UnsupportedError("timeout: a time budget needs POSIX interval timers")
    if executor is not None:
        raise DomainError("timeout", "is enforced by the default process pool and by a "
                          "serial run only, not with an executor")
    if workers == 1 and threading.current_thread() is not threading.main_thread():
        raise DomainError("timeout", "a serial run enforces it in the main thread only")
    return float(seconds)


def sweep(mechanism: str, grid: Mapping[str, Sequence[str]], quantity: str = "cost",
          cost: str = "amplitude", digits: int = 30, executor: Executor | None = None,
          workers: int | None = None,
          progress: Callable[[int, int], None] | None = None,
          timeout: object = None) -> list[dict[str, str]]:
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
    timeout : number, optional
        A time budget per point, in seconds (in (0, 10^6]); a point over it gives a row
        with the error ``exceeded the time budget``. Enforced with ``SIGALRM`` between
        Python bytecodes, by the default pool or a serial run in the main thread (which
        then uses ``SIGALRM`` and the real-time interval timer itself).

    Returns
    -------
    list of dict
        One row per point: the parameters, ``value`` (the certified decimal string) and
        ``error`` (empty, or why the point has no value).

    Raises
    ------
    DomainError
        Before any point is evaluated: an unknown mechanism, quantity, cost or parameter,
        invalid digits or timeout, or more than :data:`MAX_POINTS` points (name
        ``points``).
    """
    cls = get_mechanism(mechanism)
    cls.check_quantity(quantity)
    parse_cost(cost)
    digits = check_digits(digits)
    seconds = _check_timeout(timeout, executor, workers)
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
    tasks = [(mechanism, quantity, cost, digits, tuple(points[i:i + CHUNK]), seconds)
             for i in range(0, len(points), CHUNK)]
    results: list[dict[str, str]] = []

    def emit(rows: list[dict[str, str]]) -> None:
        results.extend(rows)
        if progress is not None:
            progress(len(results), total)

    if executor is None and workers == 1:
        for task in tasks:
            emit(_evaluate(task))
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


def failures(rows: Iterable[Mapping[str, str]]) -> int:
    """How many rows have no value."""
    return sum(1 for row in rows if row.get("error"))


__all__ = ["CHUNK", "FRACTION", "MAX_POINTS", "MAX_TIMEOUT", "PointTimeout", "failures",
           "parse_values", "read_number", "sweep", "to_csv", "to_json"]
