"""Tests of the derivation job (:mod:`dpsym.derive`, ``dpsym derive``)."""

from __future__ import annotations

import csv
import json
import os
import subprocess
import sys

import pytest
import sympy as sp

from dpsym import __version__, derive
from dpsym.cli import main
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


@pytest.fixture(scope="module")
def two_runs(tmp_path_factory):
    """The job run twice: in process through the CLI, and as ``python -m dpsym.derive``
    in a fresh interpreter with another hash seed. Returns the directories and stdouts."""
    first = tmp_path_factory.mktemp("first")
    second = tmp_path_factory.mktemp("second")
    from io import StringIO
    from unittest import mock

    buffer = StringIO()
    with mock.patch("sys.stdout", buffer):
        code = main(["derive", "--out", str(first)])
    assert code == 0
    env = {**os.environ, "PYTHONHASHSEED": "12345"}
    proc = subprocess.run([sys.executable, "-m", "dpsym.derive", "--out", str(second)],
                          capture_output=True, text=True, env=env, timeout=600, check=False)
    assert proc.returncode == 0, proc.stderr
    return first, second, buffer.getvalue(), proc.stdout


def test_outputs_are_byte_identical(two_runs):
    first, second, out1, out2 = two_runs
    for name in ALL_FILES:
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
    from dpsym.bounds.table import COLUMNS, POINTS

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


def test_committed_reference_values_are_current(two_runs):
    """The committed ``derivations/`` tables are what the main job produces now.

    The numeric tables are compared byte for byte; formula files depend on sympy's
    printing, which may change between sympy releases, and are compared run to run above.
    """
    from pathlib import Path

    committed = Path(__file__).resolve().parent.parent / "derivations"
    first, _, _, _ = two_runs
    for name in ("reference_values.csv", "reference_values.json"):
        assert (committed / name).read_bytes() == (first / name).read_bytes(), name
