"""Tests of :mod:`dpsym.runtime.forkrun`: forked workers answering requests within time
and memory budgets, errors rebuilt in the parent, and the children that die."""

from __future__ import annotations

import os
import signal
import time

import pytest

from dpsym.errors import BudgetExceeded, DomainError
from dpsym.runtime.forkrun import (
    ENFORCED,
    MEMORY_ENFORCED,
    UNITS,
    Outcome,
    Worker,
    format_seconds,
    format_size,
)

pytestmark = pytest.mark.skipif(not ENFORCED, reason="budgets need fork")

COUNTER = [0]


def square(v):
    return v * v


def bump():
    """A counter in the child's memory: kept between the requests of one child."""
    COUNTER[0] += 1
    return COUNTER[0]


def fail_domain():
    raise DomainError("eps", "must be > 0")


class Unpicklable(Exception):
    def __init__(self):
        super().__init__("no")
        self.handle = lambda: None  # not picklable, dropped from the state


def fail_unpicklable():
    raise Unpicklable()


def sleep_long():
    time.sleep(60)


def allocate():
    return len(bytearray(2**31))


def exit_now():
    os._exit(3)


def kill_self():
    os.kill(os.getpid(), signal.SIGKILL)


@pytest.mark.parametrize(("seconds", "text"), [(1, "1 s"), (0.25, "0.25 s"), (90.0, "90 s")])
def test_format_seconds(seconds, text):
    assert format_seconds(seconds) == text


@pytest.mark.parametrize(("size", "text"), [(512 * 2**20, "512 MiB"), (2**30, "1 GiB"),
                                            (1536 * 2**20, "1536 MiB"), (1024, "1 KiB"),
                                            (1000, "1000 bytes"), (2**20 + 1, "1 MiB"),
                                            (3 * 2**40, "3 TiB")])
def test_format_size(size, text):
    assert format_size(size) == text
    assert UNITS["G"] == 2**30


def test_values_and_a_persistent_child():
    with Worker((square, [1, 2, 3])) as worker:
        assert worker.call(("index", 2), 60, None, "sq") == Outcome(value=9)
        first = worker.call(("call", os.getpid, ()), 60, None, "pid").value
        assert first != os.getpid()
        assert worker.call(("call", bump, ()), 60, None, "bump").value == 1
        assert worker.call(("call", bump, ()), 60, None, "bump").value == 2  # same child
        assert worker.call(("call", os.getpid, ()), 60, None, "pid").value == first
    assert COUNTER[0] == 0  # the parent's memory is untouched


def test_errors_are_rebuilt_in_the_parent():
    with Worker() as worker:
        outcome = worker.call(("call", fail_domain, ()), 60, None, "x")
        assert isinstance(outcome.error, DomainError) and outcome.error.name == "eps"
        assert str(outcome.error) == "eps: must be > 0"
        assert any("raised in the child process" in note
                   for note in getattr(outcome.error, "__notes__", []))
        outcome = worker.call(("call", fail_unpicklable, ()), 60, None, "x")
        assert isinstance(outcome.error, Unpicklable) and not hasattr(outcome.error, "handle")
        # the child survived its errors
        assert worker.call(("call", square, (4,)), 60, None, "x").value == 16


def test_time_budget_kills_and_a_new_child_follows():
    with Worker() as worker:
        pid = worker.call(("call", os.getpid, ()), 60, None, "pid").value
        outcome = worker.call(("call", sleep_long, ()), 0.3, None, "the nap")
        assert isinstance(outcome.error, BudgetExceeded)
        assert (outcome.error.budget, outcome.error.limit, outcome.error.what) == \
            ("time", "0.3 s", "the nap")
        with pytest.raises(ProcessLookupError):  # the child was killed
            for _ in range(200):
                os.kill(pid, 0)
                time.sleep(0.05)
        new = worker.call(("call", os.getpid, ()), 60, None, "pid").value
        assert new != pid


@pytest.mark.skipif(not MEMORY_ENFORCED, reason="RLIMIT_AS on Linux only")
def test_memory_budget():
    with Worker() as worker:
        outcome = worker.call(("call", allocate, ()), 60, 64 * 2**20, "the heap")
        assert isinstance(outcome.error, BudgetExceeded)
        assert (outcome.error.budget, outcome.error.limit) == ("memory", "64 MiB")
        assert worker.call(("call", square, (3,)), 60, 64 * 2**20, "x").value == 9


def test_a_dying_child_is_an_internal_error():
    with Worker() as worker:
        outcome = worker.call(("call", exit_now, ()), 60, None, "the exit")
        assert isinstance(outcome.error, RuntimeError)
        assert "the process computing the exit died (exit status 3)" in str(outcome.error)
        outcome = worker.call(("call", kill_self, ()), 60, None, "the kill")
        assert "killed by SIGKILL" in str(outcome.error)
        assert worker.call(("call", square, (5,)), 60, None, "x").value == 25


def test_close_ends_the_child():
    worker = Worker()
    pid = worker.call(("call", os.getpid, ()), 60, None, "pid").value
    worker.close()
    assert worker.child is None
    with pytest.raises(ProcessLookupError):
        os.kill(pid, 0)
    worker.close()  # idempotent
