r"""Working precision that threads cannot corrupt: one lock around every change of it.

mpmath's working precision (``mpmath.mp.prec``) and python-flint's (``flint.ctx.prec``)
are process-wide: ``mpmath.workdps(300)`` entered in one thread changes the precision
every other thread computes at, until it is left. Two threads computing at different
precisions would each get some of their operations at the other's precision -- wrong
digits, or a certification that never agrees.

dpsym therefore keeps one process-wide re-entrant lock (:func:`exclusive`):

* every scoped change of precision in the package goes through :func:`workdps`,
  :func:`workprec`, :func:`extraprec` (mpmath) or :func:`arb_workprec` (python-flint),
  which hold the lock from before the precision is changed until after it is restored;
* every public entry point that computes with mpmath or python-flint -- or with sympy,
  whose numeric evaluation changes mpmath's precision internally -- holds the lock for
  the whole computation (:func:`exclusive`, as a decorator or a ``with`` block).

**Guarantee.** A dpsym computation runs from start to end without another thread's dpsym
computation changing the precision under it: any number of threads get the digits of a
serial run. The threads take turns (the work is CPU-bound and Python's interpreter lock
lets one thread compute at a time anyway; separate *processes* compute in parallel).
A process forked while another thread holds the lock (a ``ProcessPoolExecutor`` on
Linux) starts with a free lock and the precisions that thread found on entry.

**Limit.** Code outside dpsym that changes mpmath's or python-flint's precision while a
dpsym computation runs in another thread -- assigning ``mpmath.mp.dps``, entering
``mpmath.workdps``, or evaluating sympy special functions numerically (``evalf`` of
``gamma``, ``erf``...) -- is outside dpsym's control. Run such code in the same thread as
dpsym, or inside ``with exclusive():``, or scope its precision with this module's
:func:`workdps` instead of mpmath's. Do not wait, inside a locked block, for other threads
that call dpsym (a thread-pool ``sweep`` inside ``with exclusive():`` would deadlock).
"""

from __future__ import annotations

import functools
import os
import threading
from collections.abc import Callable
from fractions import Fraction
from typing import Any, TypeVar, overload

import flint
import mpmath

__all__ = ["arb_fraction", "arb_workprec", "exclusive", "extraprec", "held", "mpf_fraction",
           "mpf_man_exp", "workdps", "workprec"]

F = TypeVar("F", bound=Callable[..., Any])


class _Guard:
    """The process-wide re-entrant lock, with each thread's nesting depth and the
    precisions found by the outermost holder (restored in a child forked while another
    thread held the lock)."""

    def __init__(self) -> None:
        self.lock = threading.RLock()
        self.local = threading.local()
        self.base = (mpmath.mp.prec, flint.ctx.prec)
        self.taken_for_fork = False

    def depth(self) -> int:
        return getattr(self.local, "depth", 0)

    def __enter__(self) -> _Guard:
        self.lock.acquire()
        try:
            depth = self.depth()
            if not depth:
                self.base = (mpmath.mp.prec, flint.ctx.prec)
            self.local.depth = depth + 1
        except BaseException:
            self.lock.release()
            raise
        return self

    def __exit__(self, *exc: object) -> None:
        self.local.depth -= 1
        self.lock.release()

    # ------------------------------------------------------------------ fork
    def before_fork(self) -> None:
        # never blocks: a fork must not wait for (or deadlock on) another thread's work
        self.taken_for_fork = self.lock.acquire(blocking=False)

    def after_fork_in_parent(self) -> None:
        if self.taken_for_fork:
            self.lock.release()

    def after_fork_in_child(self) -> None:
        if not self.taken_for_fork:
            # another thread was computing: it does not exist in the child, and its
            # scoped precisions will never be restored there -- restore them now
            mpmath.mp.prec, flint.ctx.prec = self.base
        self.lock = threading.RLock()
        for _ in range(self.depth()):  # the forking thread's own open blocks
            self.lock.acquire()
        self.taken_for_fork = False


_GUARD = _Guard()
if hasattr(os, "register_at_fork"):  # POSIX
    os.register_at_fork(before=_GUARD.before_fork,
                        after_in_parent=_GUARD.after_fork_in_parent,
                        after_in_child=_GUARD.after_fork_in_child)


@overload
def exclusive(function: None = None) -> _Guard: ...


@overload
def exclusive(function: F) -> F: ...


def exclusive(function: F | None = None) -> F | _Guard:
    """Hold the precision lock while ``function`` runs (a decorator), or, called without
    an argument, the lock as a re-entrant context manager (``with exclusive(): ...``).

    Inside, no other thread's dpsym code changes mpmath's or python-flint's precision.
    """
    if function is None:
        return _GUARD

    @functools.wraps(function)
    def locked(*args: Any, **kwargs: Any) -> Any:
        with _GUARD:
            return function(*args, **kwargs)

    return locked  # type: ignore[return-value]


def held() -> bool:
    """Whether the calling thread holds the precision lock."""
    return _GUARD.depth() > 0


class _Scoped:
    """A precision manager (mpmath's or python-flint's) entered under the lock."""

    __slots__ = ("_manager",)

    def __init__(self, manager: Any) -> None:
        self._manager = manager

    def __enter__(self) -> None:
        _GUARD.__enter__()
        try:
            self._manager.__enter__()
        except BaseException:
            _GUARD.__exit__()
            raise

    def __exit__(self, *exc: object) -> None:
        try:
            self._manager.__exit__(*exc)
        finally:
            _GUARD.__exit__()


def workdps(dps: int) -> _Scoped:
    """``mpmath.workdps(dps)`` under the precision lock: ``dps`` decimal digits in the
    block, the previous precision restored after it."""
    return _Scoped(mpmath.workdps(dps))


def workprec(prec: int) -> _Scoped:
    """``mpmath.workprec(prec)`` under the precision lock (``prec`` bits)."""
    return _Scoped(mpmath.workprec(prec))


def extraprec(bits: int) -> _Scoped:
    """``mpmath.extraprec(bits)`` under the precision lock: the precision found on entry
    (while the lock is held) plus ``bits``."""
    return _Scoped(mpmath.extraprec(bits))


def arb_workprec(prec: int) -> _Scoped:
    """``flint.ctx.workprec(prec)`` under the precision lock: python-flint's Arb balls at
    ``prec`` bits in the block."""
    return _Scoped(flint.ctx.workprec(prec))


# ----------------------------------------------------------------------- exact numbers
def arb_fraction(x: flint.arb) -> Fraction:
    """An exact Arb number (an end or the midpoint of a ball) as the fraction it is
    (python-flint's own conversion, ``arb.fmpq()``)."""
    q = x.fmpq()
    return Fraction(int(q.p), int(q.q))


def mpf_man_exp(value: mpmath.mpf) -> tuple[int, int]:
    r"""A finite mpf as its exact ``(man, exp)``, :math:`\mathrm{man} \cdot 2^{\mathrm{exp}}`
    (no rounding to the working precision)."""
    sign, man, exp, _ = value._mpf_
    return (-int(man) if sign else int(man)), int(exp)


def mpf_fraction(value: mpmath.mpf) -> Fraction:
    """A finite mpf as the exact fraction it is (no rounding)."""
    man, exp = mpf_man_exp(value)
    return Fraction(man) * Fraction(2) ** exp
