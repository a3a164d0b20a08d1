"""Time and memory budgets (:mod:`dpsym.runtime.budget`): the API, the command line (exit status 3,
one line), ``sweep``'s budgets per point, and no process left behind.

The slow computations are slow by construction: a Python integer power ``3**10**12``
(minutes inside one C call, where no signal handler runs), or a point patched to spin;
the command-line test asks for a non-integer moment at 10000 digits, which takes minutes.
Memory is exhausted by one large allocation, in Python (``MemoryError``) or in GMP (which
aborts the process).
"""

from __future__ import annotations

import functools
import os
import signal
import subprocess
import sys
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import gmpy2
import pytest
from cli_helpers import assert_one_line_error, run

from dpsym.errors import BudgetExceeded, DomainError, DpsymError
from dpsym.mechanisms import Laplace, Staircase
from dpsym.reports.sweep import sweep
from dpsym.runtime import budget
from dpsym.runtime.budget import (
    Worker,
    check_memory,
    check_timeout,
    map_with_budget,
    run_with_budget,
)

pytestmark = pytest.mark.skipif(not budget.MEMORY_ENFORCED,
                                reason="budgets are enforced on Linux (fork, RLIMIT_AS)")
ROOT = Path(__file__).resolve().parents[2]


def _slow(*args, **kwargs):
    """Minutes inside one C call: no Python signal handler can stop it."""
    return pow(3, 10**12)


def _greedy(*args, **kwargs):
    """A 16 GiB allocation."""
    return bytearray(2**34)


def _gmp_greedy(*args, **kwargs):
    """A GMP number of about 200 MB: GMP aborts the process when refused."""
    return gmpy2.mpz(3) ** (10**9)


def _children() -> set[int]:
    """The live child processes of this process (from /proc)."""
    me, out = os.getpid(), set()
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                stat = (entry / "stat").read_text()
            except OSError:
                continue
            fields = stat.rsplit(")", 1)[1].split()
            if int(fields[1]) == me and fields[0] != "Z":
                out.add(int(entry.name))
    return out


@pytest.fixture
def no_orphans():
    """Every child process started by the test is gone at its end."""
    before = _children()
    yield
    left = _children() - before
    assert not left, f"processes left behind: {left}"


# ---------------------------------------------------------------------- parsing
def test_budgets_are_parsed_with_their_valid_range():
    assert check_timeout("1.5") == 1.5 and check_timeout("1/4") == 0.25
    assert check_timeout(None) is None and check_timeout(10**6) == 10**6
    assert check_memory("512M") == 512 * 2**20 == check_memory("512 MiB")
    assert check_memory("2G") == 2 * 2**30 == check_memory("2gb")
    assert check_memory("1.5G") == 3 * 2**29 and check_memory(2**30) == 2**30
    for bad in ("0", "-1", "1e-4", "1e7", "abc", "nan", "\uff13", True):
        with pytest.raises(DomainError, match=r"timeout: must be a number of seconds in "):
            check_timeout(bad)
    for bad in ("63M", "1", "512", "abc", "-1G", "2X", "2048P", 2**20, True):
        with pytest.raises(DomainError, match=r"memory: must be a size with a unit K, M, G"):
            check_memory(bad)


def test_cli_budget_errors_are_input_errors(capsys):
    for argv, needle in ((("--timeout", "0"), "--timeout: must be a number of seconds in [0.001, "),
                         (("--timeout", "2e6"), "--timeout"),
                         (("--memory", "12M"), "--memory: must be a size with a unit"),
                         (("--memory", "1"), "--memory")):
        code, out, err = run(capsys, "value", "laplace", "--eps", "1", *argv)
        assert_one_line_error(code, out, err, needle)


# ---------------------------------------------------------------------- the API
def test_the_api_raises_budget_exceeded_inside_a_long_c_call(monkeypatch, no_orphans):
    monkeypatch.setattr(Staircase, "value", _slow)
    with pytest.raises(BudgetExceeded) as info:
        budget.value(Staircase(eps="1/100"), "gamma", "moment:1.5", 40, timeout=0.5)
    exc = info.value
    assert isinstance(exc, DpsymError) and not isinstance(exc, ValueError)
    assert (exc.budget, exc.limit) == ("time", "0.5 s")
    assert str(exc) == ("time budget of 0.5 s exceeded while computing staircase gamma "
                        "(moment:1.5, 40 digits, eps=1/100, Delta=1)")


def test_the_memory_budget_in_python_and_in_gmp(no_orphans, capfd):
    for fn in (_greedy, _gmp_greedy):
        with pytest.raises(BudgetExceeded, match=r"^memory budget of 64 MiB exceeded while "
                                                 r"computing a big number$"):
            run_with_budget(fn, memory="64M", what="a big number")
    assert "GNU MP" not in capfd.readouterr().err  # GMP's abort message is not relayed
    assert len(run_with_budget(bytearray, 2**20, memory="64M")) == 2**20


def test_results_under_budget_are_those_without(no_orphans):
    for m, args in ((Staircase(eps="1/2", Delta=2), ("gamma", "power", 50)),
                    (Laplace(eps=3), ("cost", "moment:3/2", 40))):
        assert budget.value(m, *args, timeout=120, memory="1G") == m.value(*args)


def test_errors_keep_their_type_message_and_attributes(no_orphans):
    with pytest.raises(DomainError) as info:
        run_with_budget(Laplace, eps="-1", seconds=60)
    with pytest.raises(DomainError) as direct:
        Laplace(eps="-1")
    assert (str(info.value), info.value.name) == (str(direct.value), direct.value.name)
    with pytest.raises(ZeroDivisionError, match="division by zero"):
        run_with_budget(lambda: 1 / 0, seconds=60)


def test_a_worker_keeps_its_child_until_a_budget_kills_it(no_orphans):
    counter = {"n": 0}

    def count(_):
        counter["n"] += 1
        return counter["n"], os.getpid()

    with Worker((count, [0, 1])) as worker:
        first = worker.call(("index", 0), 60, None, "count").value
        second = worker.call(("index", 1), 60, None, "count").value
        assert first[0] == 1 and second == (2, first[1])  # the same child, state kept
        assert first[1] != os.getpid()
        over = worker.call(("call", _slow, ()), 0.3, None, "a power")
        assert isinstance(over.error, BudgetExceeded)
        assert worker.call(("index", 0), 60, None, "count").value[0] == 1  # a new child
        small = worker.call(("call", bytearray, (2**27,)), 60, 64 * 2**20, "128 MiB")
        assert str(small.error) == "memory budget of 64 MiB exceeded while computing 128 MiB"
        big = worker.call(("call", len, (bytearray(2**27),)), 60, None, "128 MiB")
        assert big.value == 2**27  # the next request has no budget: no limit is left
        assert worker.call(("index", 1), 60, None, "count").value[0] == 2  # the same child
    outcomes = map_with_budget(lambda x: _slow() if x == 1 else x * 10, [0, 1, 2], seconds=0.3)
    assert [o.value for o in outcomes] == [0, None, 20]
    assert str(outcomes[1].error).startswith("time budget of 0.3 s exceeded")


def test_budgets_from_threads(no_orphans):
    def job(i):
        return run_with_budget(_slow if i == 0 else pow, 2, 10 + i, seconds=0.5,
                               what=f"job {i}")

    with ThreadPoolExecutor(3) as pool:
        futures = [pool.submit(job, i) for i in range(3)]
    with pytest.raises(BudgetExceeded, match="job 0"):
        futures[0].result()
    assert [f.result() for f in futures[1:]] == [2**11, 2**12]
    assert threading.active_count() >= 1


# ---------------------------------------------------------------------- the command line
def test_cli_time_budget_exits_3_with_one_line(monkeypatch, capsys, no_orphans):
    monkeypatch.setattr(Laplace, "value", _slow)
    code, out, err = run(capsys, "value", "laplace", "--eps", "1", "--timeout", "0.5")
    assert (code, out) == (3, "")
    assert err == ("dpsym: error: time budget of 0.5 s exceeded while computing laplace cost "
                   "(amplitude, 30 digits, eps=1)\n")


def test_cli_memory_budget_exits_3_naming_memory(monkeypatch, capsys, no_orphans):
    monkeypatch.setattr(Laplace, "value", _gmp_greedy)
    code, out, err = run(capsys, "value", "laplace", "--eps", "1", "--memory", "64M")
    assert (code, out) == (3, "")
    assert err == ("dpsym: error: memory budget of 64 MiB exceeded while computing laplace "
                   "cost (amplitude, 30 digits, eps=1)\n")


def test_cli_output_under_budget_is_unchanged(capsys):
    argv = ("value", "staircase", "gamma", "--cost", "power", "--eps", "1/2", "--digits", "40")
    plain = run(capsys, *argv)
    assert plain[0] == 0 and plain[2] == ""
    assert run(capsys, *argv, "--timeout", "300", "--memory", "2G") == plain
    assert plain[1] == Staircase(eps="1/2").value("gamma", "power", 40).text + "\n"


def test_cli_slow_request_in_a_subprocess_leaves_no_process():
    """A request slow by construction (a non-integer moment at 10000 digits: minutes)."""
    argv = [sys.executable, "-m", "dpsym", "value", "staircase", "gamma", "--cost",
            "moment:1.5", "--eps", "0.01", "--digits", "10000", "--timeout", "1"]
    proc = subprocess.Popen(argv, cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            text=True, start_new_session=True)
    out, err = proc.communicate(timeout=120)
    assert (proc.returncode, out) == (3, "")
    assert err == ("dpsym: error: time budget of 1 s exceeded while computing staircase gamma "
                   "(moment:1.5, 10000 digits, eps=0.01)\n")
    time.sleep(0.2)
    assert _session_processes(proc.pid) == []  # the processes of the command's session


def _session_processes(sid: int) -> list[str]:
    """The live processes of the session ``sid`` (from /proc)."""
    left = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
            except OSError:
                continue
            if int(fields[4]) == sid and fields[0] != "Z":
                left.append(entry.name)
    return left


def test_ctrl_c_interrupts_the_child_which_cleans_up(tmp_path):
    """SIGINT reaches the caller only (the child has its own process group): the caller
    interrupts the child, whose ``finally`` blocks run, then nothing is left."""
    mark = tmp_path / "cleaned"
    # (KeyboardInterrupt on SIGINT, as the interpreter sets up at start-up unless it
    # inherits SIGINT ignored: the tests run as a background job of a shell)
    script = ("import sys, time, pathlib, signal\n"
              "signal.signal(signal.SIGINT, signal.default_int_handler)\n"
              "from dpsym.runtime.budget import run_with_budget\n"
              "def work():\n"
              "    print('ready', flush=True)\n"
              "    try:\n"
              "        time.sleep(60)\n"
              "    finally:\n"
              "        pathlib.Path(sys.argv[1]).write_text('cleaned')\n"
              "try:\n"
              "    run_with_budget(work, seconds=100)\n"
              "except KeyboardInterrupt:\n"
              "    sys.exit(130)\n")
    proc = subprocess.Popen([sys.executable, "-c", script, str(mark)], cwd=ROOT,
                            stdout=subprocess.PIPE, text=True, start_new_session=True)
    try:
        assert proc.stdout.readline() == "ready\n"
        time.sleep(0.3)
        proc.send_signal(signal.SIGINT)
        # (a hang guard only: a loaded machine may take long to schedule the exit)
        assert proc.wait(timeout=90) == 130
    finally:
        proc.kill()
        proc.stdout.close()
    assert mark.read_text() == "cleaned"
    time.sleep(0.2)
    assert _session_processes(proc.pid) == []


# ---------------------------------------------------------------------- sweep
def _spin_at_two(value, spin):
    def patched(self, *args, **kwargs):
        if self.values["eps"] == 2:
            return spin()
        return value(self, *args, **kwargs)
    return patched


def test_sweep_budgets_are_per_point(monkeypatch, capsys, no_orphans):
    sweep("laplace", {"eps": ["1", "4"]}, digits=5, workers=1)  # warm: budgets fork from here
    monkeypatch.setattr(Laplace, "value", _spin_at_two(Laplace.value, _slow))
    expected = ["1.0000", "", "0.25000"]
    for kwargs in ({"workers": 1}, {"workers": 2}, {"executor": ThreadPoolExecutor(2)}):
        rows = sweep("laplace", {"eps": ["1", "2", "4"]}, digits=5, timeout=1, **kwargs)
        assert [r["value"] for r in rows] == expected, kwargs
        assert [r["error"] for r in rows] == ["", "exceeded the time budget of 1 s", ""]
    monkeypatch.setattr(Laplace, "value", _spin_at_two(Laplace.value, _gmp_greedy))
    code, out, err = run(capsys, "sweep", "laplace", "--param", "eps=1,2,4", "--digits", "5",
                         "--workers", "1", "--memory", "64M")
    assert code == 0
    assert out.splitlines()[1:] == ["1,1.0000,", "2,,exceeded the memory budget of 64 MiB",
                                    "4,0.25000,"]
    assert err == "dpsym: note: 1 of 3 points have no value (see the error column)\n"



def test_main_from_python_without_a_budget_runs_in_process(monkeypatch, capsys):
    """``main([...])`` without --timeout/--memory runs the command in this process (warm
    caches, side effects visible); with a budget option it runs in a child process. Run
    as the program (``main()``, argv from the command line) the default budget applies and
    the command runs in a child (the tests above, through subprocesses)."""
    from dpsym.cli import commands, main

    seen = []
    original = commands.cmd_formula

    def spy(args, out):
        seen.append(os.getpid())
        return original(args, out)

    monkeypatch.setattr(commands, "cmd_formula", spy)
    from dpsym.cli import parser

    monkeypatch.setattr(parser, "cmd_formula", spy)  # with new parsers for this test
    monkeypatch.setattr(parser, "shared_parser",
                        functools.lru_cache(parser.shared_parser.__wrapped__))
    assert main(["formula", "laplace"]) == 0 and seen == [os.getpid()]
    assert main(["formula", "laplace", "--timeout", "30"]) == 0 and seen == [os.getpid()]
    assert capsys.readouterr().out.count("Delta/eps") == 2
