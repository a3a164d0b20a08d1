r"""Time and memory budgets: a computation stopped cleanly at its budget, even inside C.

A computation of dpsym can spend minutes inside one call into GMP, MPFR, Arb or FLINT
(python-flint, gmpy2, mpmath, sympy), where no Python signal handler runs. A budget is
therefore enforced from outside: :func:`run_with_budget` runs the computation in a
**forked child process** and waits for it (the machinery: :class:`dpsym.runtime.forkrun.Worker`).

* The child inherits everything the parent has computed (``fork``: warm caches, imported
  modules, monkeypatches), starts its own process group and, on Linux, dies with the
  thread that forked it (``PR_SET_PDEATHSIG``).
* **Time**: at the deadline the parent kills the child's whole process group
  (``SIGKILL``: nothing of it survives, however deep in C it was) and raises
  :class:`~dpsym.errors.BudgetExceeded`. The wall time counts from the fork (from
  each item's start for :func:`map_with_budget`).
* **Memory**: the child limits its own address space (``RLIMIT_AS``) to its size at the
  start of the computation plus the budget. The interpreter and the libraries already
  loaded (about 220 MB for ``import dpsym``) are not counted; everything the computation
  allocates is, virtual memory included. An allocation refused in Python
  (:class:`MemoryError`) or in C (GMP and FLINT abort the process) is reported as the
  memory budget exceeded.
* The result comes back pickled. An exception of the child is raised again in the parent
  with its type, message and attributes (a :class:`~dpsym.errors.DomainError` stays a
  ``DomainError``), the child's traceback attached as a note; what the child's C
  libraries write on file descriptor 2 is relayed to ``sys.stderr`` (and dropped when
  the memory budget was exceeded: GMP's "Cannot allocate memory").

Without a budget (``seconds=None`` and ``memory=None``) the function runs in the
calling process, with no fork.

**Entry points that accept a budget.** :func:`run_with_budget` (any callable:
``run_with_budget(m.privacy_profile, "0.5", seconds=10)``,
``run_with_budget(dpsym.reports.selection.compare, inputs, seconds=60)``), :func:`value` (a
mechanism's or lower bound's :meth:`~dpsym.mechanisms.base.Mechanism.value`),
:func:`map_with_budget` (a budget per item), :class:`Worker` (a child kept from one
request to the next, each with its own budget), :func:`dpsym.reports.sweep.sweep` (``timeout=``,
``memory=``: a budget per point) and the command line (``--timeout``, ``--memory``; see
:mod:`dpsym.cli`). The mechanism classes themselves take no budget.

**Threads.** A budget may be used from any thread: on Linux a thread may fork. The child
holds only the forking thread; dpsym's precision lock is fresh there
(:mod:`dpsym.precision`), but a lock of other code that another thread held at the fork
stays held in the child. Concurrent budgets in several threads each get their own child.

**Platforms.** Time and memory budgets are enforced on Linux. On other POSIX systems
(macOS) the time budget is enforced and the memory budget is not (``RLIMIT_AS`` is not
honoured there). Without ``fork`` (Windows) the computation runs in the calling process
and no budget is enforced (:data:`ENFORCED` is false; a :class:`RuntimeWarning` says so
when a budget is given).
"""

from __future__ import annotations

import re
import warnings
from collections.abc import Callable, Sequence
from fractions import Fraction
from typing import Any

from dpsym.core.params import parse_number
from dpsym.errors import DomainError
from dpsym.runtime.forkrun import (
    ENFORCED,
    MEMORY_ENFORCED,
    UNITS,
    Outcome,
    Worker,
    format_seconds,
    format_size,
)

#: The time budget of a command-line computation when ``--timeout`` is not given (s).
DEFAULT_TIMEOUT = 3600
#: The smallest and largest time budgets, in seconds.
MIN_TIMEOUT = Fraction(1, 1000)
MAX_TIMEOUT = Fraction(10**6)
#: The smallest and largest memory budgets, in bytes.
MIN_MEMORY = 64 * 2**20
MAX_MEMORY = 2**50

_SIZE = re.compile(r"([0-9]{1,12}(?:\.[0-9]{1,12})?)\s*([KMGTP])(?:I?B)?", re.IGNORECASE)


# ---------------------------------------------------------------------- budgets
def check_timeout(value: object, name: str = "timeout") -> float | None:
    """A time budget in seconds, in [:data:`MIN_TIMEOUT`, :data:`MAX_TIMEOUT`].

    Parameters
    ----------
    value : number, str or None
        Seconds, as a number or a decimal string (``"1.5"``, ``"1/4"``); ``None``: no
        budget.
    name : str
        The name in error messages.

    Raises
    ------
    DomainError
        Naming ``name``, for anything else.
    """
    if value is None:
        return None
    valid = f"must be a number of seconds in [{float(MIN_TIMEOUT)}, {MAX_TIMEOUT}]"
    try:
        seconds = parse_number(value.strip() if isinstance(value, str) else value, name)
    except DomainError:
        raise DomainError(name, f"{valid}, got {str(value)[:40]!r}") from None
    if not MIN_TIMEOUT <= seconds <= MAX_TIMEOUT:
        raise DomainError(name, f"{valid}, got {str(value)[:40]!r}")
    return float(seconds)


def check_memory(value: object, name: str = "memory") -> int | None:
    """A memory budget in bytes, from ``512M``, ``2G``, ``1.5G`` or a number of bytes.

    The units ``K``, ``M``, ``G``, ``T``, ``P`` are powers of 1024 (``MB``, ``MiB`` and
    ``M`` are the same); the budget lies in [64 MiB, 1 PiB].

    Raises
    ------
    DomainError
        Naming ``name``, for anything else.
    """
    if value is None:
        return None
    valid = ("must be a size with a unit K, M, G or T (powers of 1024), e.g. 512M or 2G, "
             f"from {format_size(MIN_MEMORY)} to {format_size(MAX_MEMORY)}")
    if isinstance(value, int) and not isinstance(value, bool):
        size = value
    else:
        match = _SIZE.fullmatch(value.strip()) if isinstance(value, str) else None
        if match is None:
            raise DomainError(name, f"{valid}; got {str(value)[:40]!r}")
        size = int(Fraction(match.group(1)) * UNITS[match.group(2).upper()])
    if not MIN_MEMORY <= size <= MAX_MEMORY:
        raise DomainError(name, f"{valid}; got {str(value)[:40]!r}")
    return size


# ---------------------------------------------------------------------- entry points
def run_with_budget(fn: Callable[..., Any], /, *args: Any, seconds: object = None,
                    memory: object = None, what: str | None = None, **kwargs: Any) -> Any:
    """``fn(*args, **kwargs)`` within a time and a memory budget.

    Parameters
    ----------
    fn : callable
        The computation. It runs in a forked child process (see the module docstring), so
        its side effects on the parent's state are lost; its result must pickle.
    *args, **kwargs
        Its arguments.
    seconds : number or str, optional
        The wall-time budget (:func:`check_timeout`); default none.
    memory : int or str, optional
        The memory budget (:func:`check_memory`: bytes, or ``"512M"``); default none.
    what : str, optional
        What is computed, for the error message (default: ``fn``'s name).

    Returns
    -------
    object
        ``fn``'s result.

    Raises
    ------
    BudgetExceeded
        When the computation exceeds a budget; the child process and everything it
        started are killed.
    DomainError
        For an invalid budget.
    Exception
        Whatever ``fn`` raised, with its type and message.
    """
    outcome = map_with_budget(lambda _: fn(*args, **kwargs), [None], seconds=seconds,
                              memory=memory, what=what or _name(fn))[0]
    if outcome.error is not None:
        raise outcome.error
    return outcome.value


def value(mechanism: Any, quantity: str = "cost", cost: object = "amplitude",
          digits: int = 30, *, timeout: object = None, memory: object = None,
          **kwargs: Any) -> Any:
    """``mechanism.value(quantity, cost, digits, **kwargs)`` within a budget.

    Parameters
    ----------
    mechanism : Mechanism or lower bound
        An instance (``Staircase(eps="0.01")``).
    quantity, cost, digits, **kwargs
        As for :meth:`~dpsym.mechanisms.base.Mechanism.value`.
    timeout, memory
        The time budget in seconds and the memory budget (:func:`run_with_budget`).

    Returns
    -------
    Value
        The certified value, identical to one computed without a budget.

    Raises
    ------
    BudgetExceeded
        Naming the mechanism, quantity, cost, digits and parameters.
    """
    name = getattr(mechanism, "name", type(mechanism).__name__)
    values = getattr(mechanism, "values", {}) or {}
    params = ", ".join(f"{k}={v}" for k, v in values.items())
    what = f"{name} {quantity} ({getattr(cost, 'name', cost)}, {digits} digits"
    what += f", {params})" if params else ")"
    return run_with_budget(mechanism.value, quantity, cost, digits, seconds=timeout,
                           memory=memory, what=what, **kwargs)


def map_with_budget(fn: Callable[[Any], Any], items: Sequence[Any], *,
                    seconds: object = None, memory: object = None,
                    what: str | Callable[[int], str] | None = None) -> list[Outcome]:
    """``fn(item)`` for each item, each within its own time and memory budget.

    The items run one after the other in a forked child, which is reused from item to
    item (caches warmed by one item serve the next). The wall-time budget counts from
    the start of each item; the memory budget is reset before each item to the child's
    size then plus ``memory``. An item over a budget, or whose child dies, gets an
    :class:`Outcome` with the error; a new child takes the remaining items, so every
    other item keeps its value.

    Parameters
    ----------
    fn : callable
        Called as ``fn(item)`` in the child; its result must pickle.
    items : sequence
        The items (not pickled: the child has them from the fork).
    seconds, memory
        The budgets of each item (:func:`check_timeout`, :func:`check_memory`).
    what : str or callable, optional
        What item ``i`` computes (a string, or ``what(i)``), for the error messages.

    Returns
    -------
    list of Outcome
        In the order of ``items``.
    """
    limit = check_timeout(seconds)
    size = check_memory(memory)
    if limit is None and size is None:
        return [_inline(fn, item) for item in items]
    if not ENFORCED:
        warnings.warn("dpsym: budgets need fork() and are not enforced on this platform",
                      RuntimeWarning, stacklevel=2)
        return [_inline(fn, item) for item in items]
    if size is not None and not MEMORY_ENFORCED:
        warnings.warn("dpsym: the memory budget is enforced on Linux only (RLIMIT_AS)",
                      RuntimeWarning, stacklevel=2)
    text = what if isinstance(what, str) else _name(fn)
    text = what if isinstance(what, str) else _name(fn)
    outcomes = []
    with Worker((fn, items)) as worker:
        for i in range(len(items)):
            label = what(i) if callable(what) else text
            outcomes.append(worker.call(("index", i), limit, size, label))
    return outcomes


def _inline(fn: Callable[[Any], Any], item: Any) -> Outcome:
    try:
        return Outcome(value=fn(item))
    except Exception as exc:
        return Outcome(error=exc)


def _name(fn: Callable[..., Any]) -> str:
    return str(getattr(fn, "__qualname__", None) or getattr(fn, "__name__", None) or fn)


__all__ = ["DEFAULT_TIMEOUT", "ENFORCED", "MAX_MEMORY", "MAX_TIMEOUT", "MEMORY_ENFORCED",
           "MIN_MEMORY", "MIN_TIMEOUT", "Outcome", "Worker", "check_memory", "check_timeout",
           "format_seconds", "format_size", "map_with_budget", "run_with_budget", "value"]
