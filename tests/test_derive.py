"""Tests of the derivation job (:mod:`dpsym.derive`, ``dpsym derive``).

The main job runs twice, at the same time, in two fresh interpreters with different hash
seeds (``dpsym derive`` and ``python -m dpsym.derive``); every file, the PNG figures
included, must come out byte for byte the same.
"""

from __future__ import annotations

import csv
import json
import os
import subprocess
import sys
from io import StringIO
from pathlib import Path

import pytest
import sympy as sp

from dpsym import __version__, derive
from dpsym.bounds.table import COLUMNS, POINTS
from dpsym.derive import (
    ALL_FILES,
    CSV_COLUMNS,
    DIGITS,
    EPS_VALUES,
    FIGURE_FILES,
    STAMP,
    value_points,
)
from dpsym.mechanisms import MECHANISMS
from dpsym.symbols import PUBLIC_SYMBOLS, in_eps

#: The two runs: the entry point and the hash seed of each.
RUNS = ((("-m", "dpsym", "derive"), "1"), (("-m", "dpsym.derive"), "12345"))


@pytest.fixture(scope="module")
def two_runs(tmp_path_factory):
    """The job run twice at the same time, as ``python -m dpsym derive`` and as
    ``python -m dpsym.derive``, each in a fresh interpreter with its own hash seed.
    Returns the two directories and the two standard outputs."""
    dirs = [tmp_path_factory.mktemp("first"), tmp_path_factory.mktemp("second")]
    procs = []
    for (entry, seed), directory in zip(RUNS, dirs, strict=True):
        env = {**os.environ, "PYTHONHASHSEED": seed}
        env.pop("DPSYM_DEBUG", None)
        procs.append(subprocess.Popen([sys.executable, *entry, "--out", str(directory)],
                                      stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                      text=True, env=env))
    outs = []
    for proc in procs:
        out, err = proc.communicate(timeout=900)
        assert proc.returncode == 0, err
        outs.append(out)
    return dirs[0], dirs[1], outs[0], outs[1]


def test_outputs_are_byte_identical_across_hash_seeds(two_runs):
    first, second, out1, out2 = two_runs
    for name in ALL_FILES:  # the PNG figures too
        assert (first / name).read_bytes() == (second / name).read_bytes(), name
    assert out1 == out2
    # Only the declared files: no temporary file or staging directory is left behind.
    for directory in (first, second):
        assert sorted(p.name for p in directory.iterdir()) == sorted(ALL_FILES)


def test_stdout_is_a_table(two_runs):
    _, _, out, _ = two_runs
    assert out.splitlines()[0] == STAMP
    for name in MECHANISMS:
        assert name in out
    for name in FIGURE_FILES:
        assert f"  {name}\n" in out


def _png_text_keys(data: bytes) -> list[bytes]:
    """The keywords of the tEXt/iTXt/zTXt chunks of a PNG file."""
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    keys, pos = [], 8
    while pos < len(data):
        length = int.from_bytes(data[pos:pos + 4], "big")
        kind = data[pos + 4:pos + 8]
        if kind in (b"tEXt", b"iTXt", b"zTXt"):
            keys.append(data[pos + 8:pos + 8 + length].split(b"\0", 1)[0])
        if kind == b"tIME":
            keys.append(b"tIME")
        pos += 12 + length
    return keys


def test_figures_and_tables_exist(two_runs):
    first, _, _, _ = two_runs
    for name in FIGURE_FILES:
        data = (first / name).read_bytes()
        assert len(data) > 100, name
        if name.endswith(".png"):
            # No version stamp, no time stamp: the bytes depend on the drawing only.
            keys = _png_text_keys(data)
            assert b"Software" not in keys and b"tIME" not in keys, (name, keys)
    section6 = json.loads((first / "section6_ratios.json").read_text(encoding="utf-8"))
    assert section6["stamp"] == STAMP
    assert set(section6) >= {"amplitude", "power", "grid", "claim"}
    with open(first / "bounds_comparison.csv", newline="") as fh:
        reader = csv.reader(fh)
        assert tuple(next(reader)) == COLUMNS
        assert len(list(reader)) == 2 * len(POINTS)
    assert "| eps |" in (first / "bounds_comparison.md").read_text(encoding="utf-8")


def _job(files, fail=False):
    def job(directory):
        for name in files:
            (directory / name).write_text(name)
        if fail:
            raise RuntimeError("job failed")
    return job


def test_a_failing_figure_job_leaves_the_directory_untouched(tmp_path, monkeypatch):
    (tmp_path / "a.txt").write_text("old")
    monkeypatch.setattr(derive, "FIGURE_JOBS", (
        ("ok", _job(["a.txt"]), ("a.txt",)),
        ("fails", _job(["b.txt"], fail=True), ("b.txt",))))
    with pytest.raises(RuntimeError, match="job failed"):
        derive.run_figures(tmp_path)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["a.txt"]
    assert (tmp_path / "a.txt").read_text() == "old"


def test_figure_jobs_must_write_their_declared_files(tmp_path, monkeypatch):
    monkeypatch.setattr(derive, "FIGURE_JOBS", (
        ("ok", _job(["a.txt"]), ("a.txt",)),
        ("stray", _job(["b.txt", "c.txt"]), ("b.txt",))))
    with pytest.raises(RuntimeError, match="stray wrote"):
        derive.run_figures(tmp_path)
    assert list(tmp_path.iterdir()) == []
    monkeypatch.setattr(derive, "FIGURE_JOBS", (
        ("ok", _job(["a.txt"]), ("a.txt",)), ("b", _job(["b.txt"]), ("b.txt",))))
    written = derive.run_figures(tmp_path)
    assert sorted(written) == ["a.txt", "b.txt"]
    assert sorted(p.name for p in tmp_path.iterdir()) == ["a.txt", "b.txt"]
    assert oct((tmp_path / "b.txt").stat().st_mode & 0o777) == "0o644"


def _dead_pid() -> int:
    """The pid of a process that has exited (and been reaped)."""
    proc = subprocess.Popen([sys.executable, "-c", "pass"])
    proc.wait()
    return proc.pid


@pytest.mark.skipif(os.name == "nt", reason="stale staging directories are kept on Windows")
def test_stale_staging_directories_of_dead_runs_are_removed(tmp_path, monkeypatch):
    dead = tmp_path / f"{derive.STAGING_PREFIX}{_dead_pid()}-abc123"
    live = tmp_path / f"{derive.STAGING_PREFIX}{os.getpid()}-def456"
    old_style = tmp_path / f"{derive.STAGING_PREFIX}k2j4_x9q"  # no pid: not ours to judge
    for directory in (dead, live, old_style):
        (directory / "job0").mkdir(parents=True)
        (directory / "job0" / "a.png").write_bytes(b"partial")
    (tmp_path / "keep.txt").write_text("kept")
    assert derive.clean_stale_staging(tmp_path) == [dead]
    assert not dead.exists() and live.exists() and old_style.exists()
    # every run cleans first; its own staging directory is gone when it returns
    dead.mkdir()
    monkeypatch.setattr(derive, "FIGURE_JOBS", (("ok", _job(["a.txt"]), ("a.txt",)),))
    derive.run_figures(tmp_path)
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted(
        ["a.txt", "keep.txt", live.name, old_style.name])


@pytest.mark.skipif(os.name == "nt", reason="needs SIGKILL")
def test_kill_9_during_derive_leaves_nothing_after_the_next_run(tmp_path):
    """A run killed while staging leaves its directory; the next run removes it."""
    script = ("import sys, time\n"
              "import dpsym.derive as derive\n"
              "def stage(staging):\n"
              "    print(staging, flush=True)\n"
              "    time.sleep(120)\n"
              "derive.stage_figures = stage\n"
              "derive.run_figures(sys.argv[1])\n")
    proc = subprocess.Popen([sys.executable, "-c", script, str(tmp_path)],
                            stdout=subprocess.PIPE, text=True)
    try:
        staging = Path(proc.stdout.readline().strip())
        assert staging.parent == tmp_path and staging.is_dir()
        assert staging.name.startswith(f"{derive.STAGING_PREFIX}{proc.pid}-")
    finally:
        proc.kill()
        proc.wait(timeout=60)
        proc.stdout.close()
    assert staging.is_dir()  # SIGKILL: no clean-up ran
    assert derive.clean_stale_staging(tmp_path) == [staging]
    assert list(tmp_path.iterdir()) == []


def test_stamp_and_sorted_keys(two_runs):
    first, _, _, _ = two_runs
    assert f"dpsym {__version__}" in STAMP
    for name in ("formulas.json", "series.json", "reference_values.json"):
        text = (first / name).read_text(encoding="utf-8")
        data = json.loads(text)
        assert data["stamp"] == STAMP
        assert text == json.dumps(data, indent=2, sort_keys=True, ensure_ascii=False) + "\n"
    assert (first / "formulas.tex").read_text(encoding="utf-8").startswith(f"% {STAMP}\n")


def test_reference_values_match_the_engine(two_runs):
    first, _, _, _ = two_runs
    rows = json.loads((first / "reference_values.json").read_text())["values"]
    expected = sum(len(cls.quantities()) * 2 * len(value_points(cls))
                   for cls in MECHANISMS.values())
    assert len(rows) == expected
    assert all(r["value"] is not None for r in rows), [r for r in rows if r["value"] is None]
    # every mechanism has points, and every axis it declares is swept
    for cls in MECHANISMS.values():
        points = value_points(cls)
        assert points
        if "eps" in {p.name for p in cls.params} and cls.name != "gaussian":
            assert {p["eps"] for p in points} == set(EPS_VALUES)
    with open(first / "reference_values.csv", newline="") as fh:
        reader = csv.reader(fh)
        assert tuple(next(reader)) == CSV_COLUMNS
        csv_rows = list(reader)
    assert csv_rows == [[str(r[c]) for c in CSV_COLUMNS] for r in rows]
    picks = [r for r in rows if (r["mechanism"], r["quantity"], r["eps"], r["Delta"]) in {
        ("staircase", "gamma", "2", "1"), ("discrete-staircase", "cost", "1", "3"),
        ("discrete-staircase", "r", "0.1", "3"), ("discrete-laplace", "cost", "10", "3"),
        ("laplace", "cost", "0.1", "1")}]
    assert len(picks) == 10
    for r in picks:
        cls = MECHANISMS[r["mechanism"]]
        assert r["digits"] == DIGITS
        value = cls(eps=r["eps"], Delta=r["Delta"]).value(r["quantity"], r["cost"], DIGITS)
        assert r["value"] == value.text


def test_formulas_and_series_parse_back(two_runs):
    first, _, _, _ = two_runs
    formulas = json.loads((first / "formulas.json").read_text())["mechanisms"]
    assert set(formulas) == set(MECHANISMS)
    staircase = formulas["staircase"]["costs"]["amplitude"]
    expr = sp.parse_expr(staircase["formulas"]["cost"]["str"], local_dict=PUBLIC_SYMBOLS)
    assert expr == MECHANISMS["staircase"].formula("cost", "amplitude")
    expr = sp.parse_expr(staircase["formulas"]["gamma"]["str_eps"], local_dict=PUBLIC_SYMBOLS)
    assert expr == in_eps(MECHANISMS["staircase"].formula("gamma", "amplitude"))
    disc = formulas["discrete-staircase"]["costs"]["power"]
    assert disc["formulas"]["cost"]["status"] == "numeric only"
    expr = sp.parse_expr(disc["cost_function"]["str"], local_dict=PUBLIC_SYMBOLS)
    assert sp.simplify(expr - MECHANISMS["discrete-staircase"].cost_function("power")) == 0
    series = json.loads((first / "series.json").read_text())["mechanisms"]
    rec = series["staircase"]["power"]["cost"]["eps->oo"]
    assert rec["variable"] == "b = exp(-eps)"
    expr = sp.parse_expr(rec["str"], local_dict=PUBLIC_SYMBOLS)
    assert expr == MECHANISMS["staircase"].series("cost", "power", "eps->oo", 3)
    for name in MECHANISMS:
        for cost in ("amplitude", "power"):
            for regimes in series[name][cost].values():
                for rec in regimes.values():
                    assert ("str" in rec) != ("status" in rec)


def _numbers(node, where=""):
    """Every number of a JSON document, with its path."""
    if isinstance(node, dict):
        for key, value in node.items():
            yield from _numbers(value, f"{where}/{key}")
    elif isinstance(node, list):
        for i, value in enumerate(node):
            yield from _numbers(value, f"{where}/{i}")
    elif isinstance(node, (int, float)) and not isinstance(node, bool):
        yield where, node


def test_numbers_are_decimal_strings_never_floats(two_runs):
    """Every number the job writes is a certified decimal string (or an exact integer):
    a float's repr could differ in its last digits from one machine to another."""
    first, _, _, _ = two_runs
    for name in ALL_FILES:
        if name.endswith(".json"):
            data = json.loads((first / name).read_text(encoding="utf-8"))
            floats = [(w, v) for w, v in _numbers(data) if isinstance(v, float)]
            assert floats == [], (name, floats[:5])
    section6 = json.loads((first / "section6_ratios.json").read_text(encoding="utf-8"))
    for name in ("amplitude", "power"):
        for kind in ("min", "max"):
            entry = section6[name][kind]
            for key in ("grid_value", "grid_eps", "grid_delta"):
                assert isinstance(entry[key], str) and float(entry[key]) > 0
            assert set(entry["refined"]) == {"eps", "delta", "value", "where"}
            # the refinement improves on the grid's extreme
            grid, refined = float(entry["grid_value"]), float(entry["refined"]["value"])
            assert refined >= grid if kind == "max" else refined <= grid


def test_committed_tables_are_current(two_runs):
    """The committed ``derivations/`` tables are what the main job produces now.

    The numeric tables (certified decimal strings, the same on every machine) are compared
    byte for byte; formula files depend on sympy's printing, which may change between
    sympy releases, and figures on matplotlib's, and are compared run to run above.
    """
    committed = Path(__file__).resolve().parent.parent / "derivations"
    first, _, _, _ = two_runs
    for name in ("reference_values.csv", "reference_values.json", "section6_ratios.json",
                 "bounds_comparison.csv", "bounds_comparison.md"):
        assert (committed / name).read_bytes() == (first / name).read_bytes(), name


def test_main_job_regenerates_the_cache_only_in_the_checkout(tmp_path, monkeypatch):
    calls = []

    def fake_write():
        calls.append("write")
        return tmp_path / "_derived.py"

    monkeypatch.setattr(derive, "run", lambda out_dir, stream=None: {})
    monkeypatch.setattr(derive, "write_cache", fake_write)
    monkeypatch.setattr(derive, "in_checkout", lambda out_dir: False)
    stream = StringIO()
    derive.main_job(tmp_path, stream=stream)
    assert calls == [] and stream.getvalue() == ""
    monkeypatch.setattr(derive, "in_checkout", lambda out_dir: True)
    derive.main_job(tmp_path, stream=stream)
    assert calls == ["write"]
    assert stream.getvalue().startswith("derivation cache: _derived.py (")
