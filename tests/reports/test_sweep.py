"""Tests of :mod:`dpsym.reports.sweep` and of the ``sweep`` and ``audit`` commands.

Interruptions run the command in a subprocess in its own session, whose points spin
forever (``Laplace.value`` patched in the script, which the workers import or inherit);
the processes left are those of the session, read from ``/proc`` (Linux only).
"""

from __future__ import annotations

import json
import os
import signal
import stat
import subprocess
import sys
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from fractions import Fraction
from pathlib import Path

import pytest
from cli_helpers import assert_one_line_error, run

import dpsym.cli.commands
from dpsym.cli import main
from dpsym.errors import DomainError
from dpsym.mechanisms import Laplace, TruncatedLaplace
from dpsym.reports.sweep import CHUNK, parse_values, read_number, sweep, to_csv

LINUX_PROC = pytest.mark.skipif(not sys.platform.startswith("linux"),
                                reason="reads the processes of a session from /proc")

GRID = {"eps": ["0.01", "1", "20"], "delta": ["1e-9", "0.3"]}


def test_serial_and_parallel_are_identical_and_correct():
    serial = sweep("truncated-laplace", GRID, cost="power", digits=25, workers=1)
    parallel = sweep("truncated-laplace", GRID, cost="power", digits=25, workers=2)
    threads = sweep("truncated-laplace", GRID, cost="power", digits=25,
                    executor=ThreadPoolExecutor(2))
    assert to_csv(serial) == to_csv(parallel) == to_csv(threads)
    assert [(r["eps"], r["delta"]) for r in serial] == [
        (e, d) for e in GRID["eps"] for d in GRID["delta"]]
    for row in serial:
        direct = TruncatedLaplace(eps=row["eps"], delta=row["delta"]).value("cost", "power", 25)
        assert row["value"] == direct.text and row["error"] == ""


def test_failing_points_are_rows_not_crashes():
    rows = sweep("truncated-laplace", {"eps": ["1"], "delta": ["0.1", "0.7"]}, workers=1)
    assert rows[0]["error"] == "" and rows[1]["value"] == ""
    assert "delta" in rows[1]["error"]


def test_parse_values():
    assert parse_values("0.1, 1,10", "eps") == ["0.1", "1", "10"]
    # the ends as written, whole numbers without a decimal point (never Python's "10.0")
    assert parse_values("log:1e-3:10:5", "eps") == ["1e-3", "0.01", "0.1", "1", "10"]
    assert parse_values("log:1:2:3", "eps") == ["1", "1.41421", "2"]
    assert parse_values("log:1:100:3", "eps") == ["1", "10", "100"]
    assert parse_values("log:1:1e6:3", "eps") == ["1", "1000", "1e6"]
    assert parse_values("log:1/4:4:3", "eps") == ["1/4", "1", "4"]
    for bad in ("", "1,,2", "log:1:2", "log:0:1:3", "log:1:2:0", "1e999999", "nan",
                "log:1:2:\uff13", "\uff13", "1/0", "1/2/", "1.5/", "0x1/2",
                "log:1:2:" + "9" * 5000, "log:1:2: 3", "1/" + "1" * 20000):
        with pytest.raises(DomainError):
            parse_values(bad, "eps")


def test_log_grids_keep_distinct_points_distinct():
    values = parse_values("log:1:1.0000001:4", "eps")
    assert values == ["1", "1.00000003", "1.00000007", "1.0000001"]
    assert len({Fraction(v) for v in values}) == 4
    # the endpoints are written exactly, however many digits they take
    values = parse_values("log:0.1234567:100:3", "eps")
    assert Fraction(values[0]) == Fraction("0.1234567") and values[-1] == "100"
    assert parse_values("log:2:2:3", "eps") == ["2", "2", "2"]  # equal points
    with pytest.raises(DomainError, match="not distinct"):
        parse_values("log:1:1.0000000000000000000000000000001:3", "eps")


def test_fractions_are_values():
    assert read_number("1/2", "eps") == Fraction(1, 2)
    assert read_number(" -2/4 ", "eps") == Fraction(-1, 2)
    assert parse_values("1/3,2", "eps") == ["1/3", "2"]
    rows = sweep("laplace", {"eps": ["1/3", "2"]}, digits=10, workers=1)
    assert rows[0]["eps"] == "1/3" and rows[0]["value"] == "3.000000000"
    assert rows[1]["value"] == Laplace(eps="2").value("cost", "amplitude", 10).text


def test_sweep_command(tmp_path, capsys):
    out = tmp_path / "grid.json"
    assert main(["sweep", "laplace", "--param", "eps=0.5,2", "--digits", "12",
                 "--format", "json", "--out", str(out), "--workers", "1"]) == 0
    record = json.loads(out.read_text())
    assert [r["value"] for r in record["rows"]] == ["2.00000000000", "0.500000000000"]
    for argv in (["sweep", "laplace"], ["sweep", "laplace", "--param", "eps"],
                 ["sweep", "laplace", "--param", "nope=1"],
                 ["sweep", "laplace", "--param", "eps=1", "--workers", "0"]):
        assert main(argv) == 2
        err = capsys.readouterr().err
        assert err.count("\n") == 1 and err.startswith("dpsym: error:")


def test_audit_command(capsys):
    assert main(["audit", "laplace", "--scale", "2", "--eps", "0.4", "--delta", "0.05",
                 "--digits", "15", "--json"]) == 0
    record = json.loads(capsys.readouterr().out)
    assert record["delta"] == "0.0487705754992860" and record["met"] is True
    assert record["target"] == "0.05"
    for argv in (["audit", "laplace", "--sigma", "2", "--eps", "1"],
                 ["audit", "gaussian", "--sigma", "-1", "--eps", "1"],
                 ["audit", "nope", "--eps", "1"], ["audit", "laplace", "--scale", "1"]):
        assert main(argv) == 2
        err = capsys.readouterr().err
        assert err.count("\n") == 1 and err.startswith("dpsym: error:")


@pytest.mark.slow
def test_dask_executor_matches_serial():
    distributed = pytest.importorskip("dask.distributed")
    serial = sweep("truncated-laplace", GRID, digits=20, workers=1)
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                  dashboard_address=None) as cluster, \
            distributed.Client(cluster) as client:
        rows = sweep("truncated-laplace", GRID, digits=20, executor=client.get_executor())
    assert to_csv(rows) == to_csv(serial)


# ---------------------------------------------------------------------- failures kept apart
def test_a_bug_at_one_point_keeps_the_others(monkeypatch, capsys):
    value = Laplace.value

    def buggy(self, *args, **kwargs):
        if self.values["eps"] == 2:
            raise TypeError("unexpected")
        return value(self, *args, **kwargs)

    monkeypatch.setattr(Laplace, "value", buggy)
    rows = sweep("laplace", {"eps": ["1", "2", "4"]}, digits=5, workers=1)
    assert [r["value"] for r in rows] == ["1.0000", "", "0.25000"]
    assert rows[1]["error"] == "internal error: TypeError: unexpected"
    code, out, err = run(capsys, "sweep", "laplace", "--param", "eps=1,2,4", "--digits", "5",
                         "--workers", "1")
    assert code == 0
    assert out.splitlines()[2] == "2,,internal error: TypeError: unexpected"
    assert err == "dpsym: note: 1 of 3 points have no value (see the error column)\n"


def _spin_at_two(value):
    def spin(self, *args, **kwargs):
        if self.values["eps"] == 2:
            while True:
                pass
        return value(self, *args, **kwargs)
    return spin


@pytest.mark.skipif(not hasattr(signal, "setitimer"), reason="needs interval timers")
def test_a_point_over_its_budget_keeps_the_others(monkeypatch, capsys):
    sweep("laplace", {"eps": ["1", "4"]}, digits=5, workers=1)  # warm: budgets fork from here
    monkeypatch.setattr(Laplace, "value", _spin_at_two(Laplace.value))
    rows = sweep("laplace", {"eps": ["1", "2", "4"]}, digits=5, workers=1, timeout="0.5")
    assert [r["value"] for r in rows] == ["1.0000", "", "0.25000"]
    assert rows[1]["error"] == "exceeded the time budget of 0.5 s"
    assert signal.getsignal(signal.SIGALRM) is signal.SIG_DFL  # restored
    assert signal.getitimer(signal.ITIMER_REAL) == (0.0, 0.0)
    code, out, err = run(capsys, "sweep", "laplace", "--param", "eps=1,2", "--digits", "5",
                         "--workers", "1", "--timeout", "1/4")
    assert code == 0 and "2,,exceeded the time budget of 0.25 s" in out
    assert err.startswith("dpsym: note: 1 of 2 points")


@pytest.mark.skipif(not hasattr(signal, "setitimer"), reason="needs interval timers")
def test_the_budget_in_worker_processes(monkeypatch):
    if sys.platform != "linux" or __import__("multiprocessing").get_start_method() != "fork":
        pytest.skip("the patch reaches the workers through fork")
    monkeypatch.setattr(Laplace, "value", _spin_at_two(Laplace.value))
    rows = sweep("laplace", {"eps": ["1", "2", "4"]}, digits=5, workers=2, timeout=1)
    assert [r["error"] for r in rows] == ["", "exceeded the time budget of 1 s", ""]


def test_timeout_is_checked(capsys):
    for bad in ("0", "-1", "1e7", "abc", "\uff13"):
        code, out, err = run(capsys, "sweep", "laplace", "--param", "eps=1", "--timeout", bad)
        assert_one_line_error(code, out, err, "--timeout")
    for bad in ("1", "63M", "abc", "2X", "-1G"):
        code, out, err = run(capsys, "sweep", "laplace", "--param", "eps=1", "--memory", bad)
        assert_one_line_error(code, out, err, "--memory")
    with pytest.raises(DomainError, match="memory"):
        sweep("laplace", {"eps": ["1"]}, memory="1K")


def test_a_worker_that_dies_loses_only_its_chunks(monkeypatch):
    if sys.platform != "linux" or __import__("multiprocessing").get_start_method() != "fork":
        pytest.skip("the patch reaches the workers through fork")
    value = Laplace.value

    def crash(self, *args, **kwargs):
        if self.values["eps"] == CHUNK + 1:
            time.sleep(3)  # the first chunk finishes first
            os._exit(3)
        return value(self, *args, **kwargs)

    monkeypatch.setattr(Laplace, "value", crash)
    eps = [str(k) for k in range(1, 2 * CHUNK + 1)]
    rows = sweep("laplace", {"eps": eps}, digits=5, workers=2)
    assert len(rows) == 2 * CHUNK and [r["eps"] for r in rows] == eps
    assert all(r["value"] and not r["error"] for r in rows[:CHUNK])
    assert all(r["value"] == "" and r["error"].startswith("not evaluated: BrokenProcessPool")
               for r in rows[CHUNK:])


# ---------------------------------------------------------------------- --out
def _refuse_work(monkeypatch):
    def no(*args, **kwargs):
        raise AssertionError("the sweep ran before --out was checked")
    monkeypatch.setattr(dpsym.cli.commands, "sweep", no)


def test_out_is_checked_before_any_work(capsys, monkeypatch, tmp_path):
    _refuse_work(monkeypatch)
    (tmp_path / "file").write_text("x")
    for bad, needle in (("", "--out: expected a file name"),
                        (str(tmp_path / "missing" / "d" / "f.csv"), "no directory"),
                        (str(tmp_path), "is a directory"),
                        (str(tmp_path / "sub") + os.sep, "ends with a separator"),
                        (str(tmp_path / "file" / "x.csv"), "Not a directory")):
        code, out, err = run(capsys, "sweep", "laplace", "--param", "eps=1", "--out", bad)
        assert_one_line_error(code, out, err, needle)
        assert "--out" in err
    assert sorted(p.name for p in tmp_path.iterdir()) == ["file"]  # no file 'sub'


def _sweep_to(capsys, target) -> None:
    code, out, err = run(capsys, "sweep", "laplace", "--param", "eps=1,2", "--digits", "5",
                         "--workers", "1", "--out", str(target))
    assert (code, out, err) == (0, "", "")


CSV = "eps,value,error\n1,1.0000,\n2,0.50000,\n"


def test_out_writes_through_symlinks(capsys, tmp_path):
    real = tmp_path / "real.csv"
    real.write_text("old")
    link = tmp_path / "link.csv"
    link.symlink_to(real)
    _sweep_to(capsys, link)
    assert link.is_symlink() and real.read_text() == CSV
    dangling = tmp_path / "dangling.csv"
    dangling.symlink_to(tmp_path / "new.csv")
    _sweep_to(capsys, dangling)
    assert dangling.is_symlink() and (tmp_path / "new.csv").read_text() == CSV


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="needs FIFOs")
def test_out_writes_into_a_fifo(capsys, tmp_path):
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    received = []
    reader = threading.Thread(target=lambda: received.append(fifo.read_text()))
    reader.start()
    _sweep_to(capsys, fifo)
    reader.join(60)
    assert received == [CSV] and stat.S_ISFIFO(os.lstat(fifo).st_mode)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["pipe"]  # no temporary left


@pytest.mark.skipif(os.name != "posix", reason="needs a character device")
def test_out_writes_into_a_device_without_replacing_it(capsys, tmp_path):
    if os.geteuid() == 0:
        # Never risk the system's /dev/null as root: a null device of our own.
        device = tmp_path / "null"
        os.mknod(device, stat.S_IFCHR | 0o666, os.makedev(1, 3))
        try:
            device.write_text("probe")
        except OSError:
            pytest.skip("device nodes do not work here (nodev)")
    else:
        device = Path("/dev/null")
    _sweep_to(capsys, device)
    assert stat.S_ISCHR(os.lstat(device).st_mode)


@pytest.mark.skipif(os.name != "posix", reason="POSIX permissions")
def test_out_honours_the_umask_and_keeps_an_existing_mode(capsys, tmp_path):
    old = os.umask(0o027)
    try:
        _sweep_to(capsys, tmp_path / "new.csv")
    finally:
        os.umask(old)
    assert stat.S_IMODE((tmp_path / "new.csv").stat().st_mode) == 0o640
    existing = tmp_path / "existing.csv"
    existing.write_text("old")
    existing.chmod(0o600)
    _sweep_to(capsys, existing)
    assert existing.read_text() == CSV and stat.S_IMODE(existing.stat().st_mode) == 0o600
    assert sorted(p.name for p in tmp_path.iterdir()) == ["existing.csv", "new.csv"]
    # a file with two hard links is written in place: both names see the new text
    other = tmp_path / "other.csv"
    os.link(existing, other)
    existing.write_text("old")
    _sweep_to(capsys, other)
    assert existing.read_text() == CSV and os.path.samefile(existing, other)


@pytest.mark.skipif(not Path("/dev/stdout").exists(), reason="needs /dev/stdout")
def test_out_to_dev_stdout_of_a_pipe(tmp_path):
    env = {**os.environ}
    env.pop("DPSYM_DEBUG", None)
    proc = subprocess.run([sys.executable, "-m", "dpsym.cli", "sweep", "laplace", "--param",
                           "eps=1,2", "--digits", "5", "--workers", "1", "--out", "/dev/stdout"],
                          capture_output=True, text=True, env=env, timeout=120, check=False)
    assert (proc.returncode, proc.stdout, proc.stderr) == (0, CSV, "")


def test_grid_too_large_names_param(capsys):
    code, out, err = run(capsys, "sweep", "laplace", "--param", "eps=log:1:2:1000",
                         "--param", "sensitivity=log:1:2:1001")
    assert_one_line_error(code, out, err, "--param: the grid has 1001000 points")
    assert "--grid" not in err
    for argv, needle in ((("--param", "eps=1", "--param", "eps=2"), "--param: eps given"),
                         (("--param", "eps=1", "--param", "dim=2"), "--param dim: is not"),
                         (("--param", "eps=abc"), "--param eps: expected"),
                         (("--param", "eps=1", "--workers", "\uff12"), "--workers")):
        code, out, err = run(capsys, "sweep", "laplace", *argv)
        assert_one_line_error(code, out, err, needle)


# ---------------------------------------------------------------------- interruptions
SPIN = """\
import sys
import dpsym.mechanisms.laplace as laplace


def spin(self, *args, **kwargs):
    while True:
        pass


laplace.Laplace.value = spin  # at import: the workers get it whatever the start method
if __name__ == "__main__":
    import signal

    # Ctrl-C raises KeyboardInterrupt, as the interpreter sets up at start-up unless it
    # inherits SIGINT ignored (the tests run as a background job of a shell)
    signal.signal(signal.SIGINT, signal.default_int_handler)
    from dpsym.cli import main
    sys.exit(main(sys.argv[1:]))
"""


def _session(sid: int) -> list[int]:
    """The live processes of the session ``sid``."""
    found = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            text = Path(f"/proc/{entry}/stat").read_text()
        except OSError:
            continue
        fields = text[text.rindex(")") + 2:].split()
        if fields[0] != "Z" and int(fields[3]) == sid:
            found.append(int(entry))
    return found


def _wait(predicate, seconds: float) -> bool:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if predicate():
            return True
        time.sleep(0.05)
    return predicate()


def _spinning_sweep(tmp_path) -> subprocess.Popen:
    script = tmp_path / "spin.py"
    script.write_text(SPIN)
    env = {**os.environ, "PYTHONHASHSEED": "0"}
    env.pop("DPSYM_DEBUG", None)
    proc = subprocess.Popen(
        [sys.executable, str(script), "sweep", "laplace", "--param",
         "eps=" + ",".join(str(k) for k in range(1, 200)), "--workers", "2", "--digits", "5"],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env,
        start_new_session=True)
    # the parent and its two workers (and, with forkserver, its helpers)
    assert _wait(lambda: len(_session(proc.pid)) >= 3, 60), _session(proc.pid)
    time.sleep(1)  # the workers are busy on their points
    return proc


def _kill_session(sid: int) -> None:
    for pid in _session(sid):
        try:
            os.kill(pid, signal.SIGKILL)
        except ProcessLookupError:
            pass


@LINUX_PROC
@pytest.mark.parametrize("to_group", [False, True], ids=["parent", "process-group"])
def test_ctrl_c_stops_the_sweep_at_once(tmp_path, to_group):
    """SIGINT to the parent alone, or to the whole group as a terminal's Ctrl-C does:
    exit 130 with one line (the 199 points would spin for ever), and no worker left."""
    proc = _spinning_sweep(tmp_path)
    try:
        if to_group:
            os.killpg(proc.pid, signal.SIGINT)
        else:
            proc.send_signal(signal.SIGINT)
        # a hang guard only (the points would spin for ever); a loaded machine may take
        # long to schedule the exit
        out, err = proc.communicate(timeout=90)
        assert proc.returncode == 130 and out == ""
        assert err == "dpsym: error: interrupted\n"
        assert _wait(lambda: not _session(proc.pid), 5), _session(proc.pid)
    finally:
        _kill_session(proc.pid)
        if proc.poll() is None:
            proc.kill()
            proc.communicate()


@LINUX_PROC
def test_workers_die_with_a_killed_parent(tmp_path):
    proc = _spinning_sweep(tmp_path)
    try:
        proc.kill()
        proc.communicate(timeout=20)
        assert _wait(lambda: not _session(proc.pid), 5), _session(proc.pid)
    finally:
        _kill_session(proc.pid)


def test_sweep_takes_the_lower_bounds_too(capsys):
    """`dpsym sweep` takes every entry of `dpsym list`, lower bounds included (their values
    rounded down, as `dpsym value` prints them)."""
    from dpsym.bounds import LowerBound

    code, out, err = run(capsys, "sweep", "lower-bound", "--param", "eps=1/2,1",
                         "--param", "delta=0.1", "--digits", "20", "--workers", "1")
    assert code == 0, err
    rows = out.splitlines()[1:]
    assert rows == [f"{e},0.1,{LowerBound(eps=e, delta='0.1').value(digits=20).text},"
                    for e in ("1/2", "1")]
