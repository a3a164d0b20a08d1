"""Threads get the digits of a serial run (dpsym.precision).

mpmath's and python-flint's working precisions are process-wide; dpsym holds one
re-entrant lock across every change of precision and every computing entry point. The
stress test runs mixed requests (digits 20 to 300, costs, quantities, the ball and mpmath
paths, privacy profiles, the Gaussian calibration, a lower bound) in several threads at
once, with the interpreter switching threads every 10 microseconds, and requires exactly
the serial digits and no error. Without the lock it fails: the issue's reproducer alone
gave wrong digits from the 36th on, or spurious CertificationErrors.
"""

from __future__ import annotations

import ast
import importlib
import multiprocessing
import os
import random
import sys
import threading
import time
from collections.abc import Callable
from pathlib import Path

import flint
import mpmath
import pytest

import dpsym.symbolic.numerics
from dpsym import DiscreteLaplace, DiscreteStaircase, Laplace, Staircase, TruncatedLaplace
from dpsym.bounds import LowerBound
from dpsym.gaussian.calibration import calibrate_sigma_mp, profile_value
from dpsym.precision import arb_workprec, exclusive, held, workdps

PACKAGE = Path(dpsym.symbolic.numerics.__file__).resolve().parent
#: Threads of the stress test, and how many times each runs the whole list of requests.
THREADS = 6
ROUNDS = 3


def _requests() -> list[tuple[str, Callable[[], str]]]:
    """(label, request returning the certified text): every path, digits 20 to 300."""
    out: list[tuple[str, Callable[[], str]]] = [
        # the reproducer: a 300-digit mpmath value against a 20-59-digit loop
        ("staircase cost moment:3 300",
         lambda: Staircase(eps=2).value("cost", "moment:3", digits=300).text),
        ("staircase gamma power 150 mpmath",
         lambda: Staircase(eps="0.5", Delta=2).value("gamma", "power", digits=150,
                                                     method="mpmath").text),
        ("staircase cost power 250 ball",
         lambda: Staircase(eps="0.5", Delta=2).value("cost", "power", digits=250,
                                                     method="ball").text),
        ("laplace cost amplitude 300",
         lambda: Laplace(eps="0.7").value("cost", "amplitude", digits=300).text),
        ("truncated-laplace cost 80 mpmath",
         lambda: TruncatedLaplace(eps=1, delta="0.05").value(
             "cost", "amplitude", digits=80, method="mpmath").text),
        ("truncated-laplace cost 200 ball",
         lambda: TruncatedLaplace(eps=1, delta="0.05").value(
             "cost", "amplitude", digits=200, method="ball").text),
        ("discrete-laplace cost power 60 mpmath",
         lambda: DiscreteLaplace(eps="0.3", Delta=2).value("cost", "power", digits=60,
                                                           method="mpmath").text),
        ("discrete-staircase cost 100",
         lambda: DiscreteStaircase(eps="1.2", Delta=3).value("cost", "amplitude",
                                                             digits=100).text),
        ("staircase privacy profile 100",
         lambda: Staircase(eps=1).privacy_profile("0.5", digits=100).text),
        ("laplace privacy profile 60",
         lambda: Laplace(eps=1).privacy_profile("0.25", digits=60).text),
        ("truncated-laplace privacy profile 40",
         lambda: TruncatedLaplace(eps=1, delta="0.05").privacy_profile("0.5",
                                                                       digits=40).text),
        ("analytic gaussian sigma 200", lambda: calibrate_sigma_mp("1", "1e-6", 1, 200)[1]),
        ("gaussian profile 150", lambda: profile_value("0.5", "2", 1, 150)[1]),
        ("lower bound 120",
         lambda: LowerBound(eps="0.4", delta="0.01").value("cost", "power", 120).text),
    ]
    for digits in (20, 27, 33, 41, 47, 52, 59):
        out.append((f"staircase gamma moment:2.5 {digits} mpmath",
                    lambda d=digits: Staircase(eps="1.5").value(
                        "gamma", "moment:2.5", digits=d, method="mpmath").text))
    return out


def test_threads_give_the_serial_digits():
    requests = _requests()
    serial = {label: run() for label, run in requests}  # also warms every cache
    done: list[str] = []
    failures: list[tuple[str, object]] = []
    stop = threading.Event()  # the first failure ends the test (a wrong run is slow)

    def worker(seed: int) -> None:
        order = list(requests) * ROUNDS
        random.Random(seed).shuffle(order)
        for label, run in order:
            if stop.is_set():
                return
            try:
                text = run()
            except BaseException as exc:
                failures.append((label, exc))
                stop.set()
                return
            if text != serial[label]:
                failures.append((label, text))
                stop.set()
                return
            done.append(label)

    switch = sys.getswitchinterval()
    sys.setswitchinterval(1e-5)  # interleave the threads as finely as possible
    try:
        threads = [threading.Thread(target=worker, args=(k,)) for k in range(THREADS)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
    finally:
        sys.setswitchinterval(switch)
    assert not failures, failures[:3]  # wrong digits, or a CertificationError
    assert len(done) == THREADS * ROUNDS * len(requests)
    assert mpmath.mp.prec == 53 and not held()


def test_a_value_computation_keeps_its_precision_while_another_thread_waits(monkeypatch):
    """A thread blocked inside a value computation (a slowed optimiser) holds the lock: a
    second thread's dpsym computation at another precision starts only after it."""
    inside, observed, timeline = threading.Event(), [], []
    original = Staircase._numeric_optimum

    def slow_optimum(self, cost, hint=None):
        if not inside.is_set():
            inside.set()
            start = mpmath.mp.prec
            for _ in range(30):  # 0.3 s during which the other thread tries to compute
                time.sleep(0.01)
                observed.append(mpmath.mp.prec)
            observed.append(start)
            timeline.append("slow done")
        return original(self, cost, hint)

    monkeypatch.setattr(Staircase, "_numeric_optimum", slow_optimum)

    def slow() -> None:
        Staircase(eps="1.5").value("gamma", "moment:2.5", digits=25, method="mpmath")

    def other() -> None:
        inside.wait(10)
        timeline.append("other starts")
        Laplace(eps="0.5").value("cost", "power", digits=300, method="mpmath")
        with workdps(500):
            timeline.append("other computed")

    threads = [threading.Thread(target=slow), threading.Thread(target=other)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(60)
    assert inside.is_set()
    assert len(set(observed)) == 1, sorted(set(observed))  # never another thread's prec
    assert timeline == ["other starts", "slow done", "other computed"]


def test_scoped_precision_waits_for_the_lock():
    """``workdps`` and ``arb_workprec`` block while another thread holds the lock, and
    restore both precisions afterwards."""
    entered, release, times = threading.Event(), threading.Event(), {}

    def holder() -> None:
        with exclusive(), workdps(300), arb_workprec(1000):
            entered.set()
            release.wait(10)
            times["holder"] = (mpmath.mp.dps, flint.ctx.prec)
            times["released"] = time.monotonic()

    def waiter() -> None:
        entered.wait(10)
        with workdps(40):
            times["waiter"] = (time.monotonic(), mpmath.mp.dps)

    threads = [threading.Thread(target=holder), threading.Thread(target=waiter)]
    for t in threads:
        t.start()
    entered.wait(10)
    time.sleep(0.2)
    assert "waiter" not in times  # still blocked
    release.set()
    for t in threads:
        t.join(10)
    assert times["holder"] == (300, 1000)
    assert times["waiter"][0] >= times["released"] and times["waiter"][1] == 40
    assert mpmath.mp.prec == 53 and flint.ctx.prec == 53 and not held()


def _child(queue) -> None:  # runs in a forked process
    queue.put((mpmath.mp.prec, flint.ctx.prec,
               Staircase(eps="1.5").value("gamma", "moment:2.5", digits=30,
                                          method="mpmath").text))


@pytest.mark.skipif(not hasattr(os, "fork"), reason="needs fork")
def test_a_process_forked_while_another_thread_computes_starts_free():
    """A fork while another thread holds the lock at 300 digits: the child's lock is free
    and its precisions are those found before that thread's computation."""
    expected = Staircase(eps="1.5").value("gamma", "moment:2.5", digits=30,
                                          method="mpmath").text
    entered, release = threading.Event(), threading.Event()

    def holder() -> None:
        with workdps(300), arb_workprec(1000):
            entered.set()
            release.wait(30)

    thread = threading.Thread(target=holder)
    thread.start()
    process = None
    try:
        entered.wait(10)
        ctx = multiprocessing.get_context("fork")
        queue = ctx.Queue()
        process = ctx.Process(target=_child, args=(queue,))
        process.start()
        result = queue.get(timeout=60)  # a child stuck on the inherited lock times out
    finally:
        release.set()
        thread.join(10)
        if process is not None:
            process.join(10)
            if process.is_alive():
                process.kill()
    assert result == (53, 53, expected)
    assert mpmath.mp.prec == 53 and not held()


_LOCKED_CODE = exclusive(len).__code__


@pytest.mark.parametrize("entry", [
    "certified.evaluation.value", "certified.evaluation.numeric_optimum",
    "certified.agreement.agreement", "certified.kernel.refine",
    "symbolic.numerics.evaluate", "symbolic.numerics.to_mpf", "certified.balls.ball_value",
    "certified.balls.enclosure", "certified.balls.BallPlan.__call__",
    "privacy.profiles.privacy_profile", "privacy.profiles.is_private",
    "privacy.profiles.hockey_stick", "privacy.profiles.max_hockey_stick",
    "privacy.profiles.privacy_loss_bound",
    "gaussian.calibration.calibrate_sigma_mp", "gaussian.calibration.calibrate_sigma_value",
    "gaussian.calibration.profile_mp", "gaussian.calibration.profile_value",
    "gaussian.calibration.classic_sigma_mp", "gaussian.calibration.classic_check",
    "reports.audit.audit", "symbolic.asymptotics.minimiser_series",
    "mechanisms.textbook.report_noisy_max", "mechanisms.textbook.sup_over_sets",
    "bounds.real.LowerBound.value", "bounds.real.LowerBound.series",
    "bounds.real.LowerBound.formula", "bounds.real.LowerBound._bound_at_working_precision",
    "bounds.lp.LPBound.value", "bounds.integer.DiscreteLowerBound.value",
    "bounds.integer.DiscreteLowerBound.certificate", "mechanisms.Staircase.value",
])
def test_the_computing_entry_points_hold_the_lock(entry):
    """Each entry point is wrapped by :func:`dpsym.precision.exclusive`."""
    module, _, attrs = entry.partition(".")
    obj = importlib.import_module(f"dpsym.{module}")
    for name in attrs.split("."):
        if isinstance(obj, type(sys)) and not hasattr(obj, name):
            obj = importlib.import_module(f"{obj.__name__}.{name}")
            continue
        obj = getattr(obj, name)
    assert getattr(obj, "__func__", obj).__code__ is _LOCKED_CODE, entry


def test_a_value_holds_the_lock_from_inside(monkeypatch):
    """Checked from inside: the optimiser of a value runs with the lock held."""
    seen = []
    original = Staircase._numeric_optimum

    def spy(self, cost, hint=None):
        seen.append(held())
        return original(self, cost, hint)

    monkeypatch.setattr(Staircase, "_numeric_optimum", spy)
    Staircase(eps="1.5").value("gamma", "moment:2.5", digits=20, method="mpmath")
    assert seen and all(seen) and not held()


def test_no_module_changes_the_precision_outside_the_lock():
    """Every scoped precision in the package goes through dpsym.precision: no direct
    ``mpmath.workdps``/``workprec``/``extraprec``, ``flint.ctx.workprec`` or assignment of
    ``mp.dps``, ``mp.prec``, ``flint.ctx.prec`` elsewhere."""
    offenders = []
    for path in sorted(PACKAGE.rglob("*.py")):
        if path.name in ("precision.py", "_derived.py"):
            continue
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            text = ast.unparse(node) if isinstance(node, (ast.Call, ast.Assign)) else ""
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) \
                    and node.func.attr in ("workdps", "workprec", "extraprec", "extradps") \
                    and ast.unparse(node.func.value) in ("mpmath", "mp", "mpmath.mp",
                                                         "flint.ctx"):
                offenders.append(f"{path.relative_to(PACKAGE)}:{node.lineno}: {text}")
            if isinstance(node, ast.Assign) and any(
                    ast.unparse(t) in ("mpmath.mp.dps", "mpmath.mp.prec", "mp.dps", "mp.prec",
                                       "flint.ctx.prec", "flint.ctx.dps")
                    for t in node.targets):
                offenders.append(f"{path.relative_to(PACKAGE)}:{node.lineno}: {text}")
    assert not offenders, offenders
