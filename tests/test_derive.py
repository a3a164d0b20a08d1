"""Tests of the derivation job (:mod:`dpsym.derive`, ``dpsym derive``).

The main job runs once, in a fresh interpreter with a fixed hash seed; every text file it
writes must be byte for byte the committed one in ``derivations/`` (written by an earlier
run under another hash seed: the job regenerates the repository's files unchanged), and
so must its figures, or else (another matplotlib) they are drawn a second time in this
process, under this process's hash seed, to the same bytes. The summary it prints, its
progress indicator and its bookkeeping of changed files are tested on a small fake job.
"""

from __future__ import annotations

import csv
import json
import os
import re
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

#: The module-scoped run of the main job is shared by this module's tests: one worker.
pytestmark = pytest.mark.xdist_group("derive")

#: The repository's derived files.
COMMITTED = Path(__file__).resolve().parent.parent / "derivations"


@pytest.fixture(scope="module")
def job_run(tmp_path_factory):
    """The job run as ``python -m dpsym derive`` in a fresh interpreter with hash seed
    12345. Returns its directory, its standard output and its standard error."""
    directory = tmp_path_factory.mktemp("derived")
    env = {**os.environ, "PYTHONHASHSEED": "12345"}
    env.pop("DPSYM_DEBUG", None)
    proc = subprocess.run([sys.executable, "-m", "dpsym", "derive", "--out", str(directory)],
                          capture_output=True, text=True, env=env, timeout=900)
    assert proc.returncode == 0, proc.stderr
    return directory, proc.stdout, proc.stderr


def test_text_files_are_the_committed_ones(job_run):
    """Every text file of the job is byte for byte the one in ``derivations/``: the
    certified tables on every machine, the formula files as this sympy prints them (a
    sympy release that prints differently shows here: regenerate with ``dpsym derive``).
    Only the declared files are written (no temporary file or staging directory is
    left)."""
    directory = job_run[0]
    for name in ALL_FILES:
        if not name.endswith(".png"):
            assert (directory / name).read_bytes() == (COMMITTED / name).read_bytes(), name
    assert sorted(p.name for p in directory.iterdir()) == sorted(ALL_FILES)


def test_figures_are_byte_identical_across_hash_seeds(job_run, tmp_path):
    """The job's figures are the same bytes under another hash seed: the committed ones,
    drawn by an earlier run under another hash seed (as the text files). Where they differ
    (a matplotlib that draws other pixels than the one that drew ``derivations/``), the
    figures are drawn again in this process, under its hash seed, to the job's bytes."""
    directory = job_run[0]
    if all((directory / name).read_bytes() == (COMMITTED / name).read_bytes()
           for name in FIGURE_FILES):
        return
    if os.environ.get("PYTHONHASHSEED") == "12345":
        pytest.skip("this process has the job's hash seed")
    written = derive.run_figures(tmp_path)
    assert sorted(written) == sorted(FIGURE_FILES)
    for name in FIGURE_FILES:
        assert (tmp_path / name).read_bytes() == (job_run[0] / name).read_bytes(), name


def test_stdout_is_a_short_summary(job_run):
    """Standard output: the directory and time, every file with its status, the counts;
    standard error (not a terminal here): one line per phase."""
    first, out, err = job_run
    lines = out.splitlines()
    assert re.fullmatch(rf"dpsym derive: {re.escape(str(first))}/ in [0-9]+\.[0-9] s", lines[0])
    for name in ALL_FILES:
        assert re.search(rf"^  {re.escape(name)} +new$", out, re.MULTILINE), name
    assert f"{len(ALL_FILES)} files: 0 changed, {len(ALL_FILES)} new, 0 unchanged." in out
    assert f"{len(MECHANISMS)} mechanisms x 2 costs: " in out
    assert f"reference values at {DIGITS} digits" in out
    assert lines[-1] == "The full tables: dpsym derive --verbose."
    assert len(lines) < len(ALL_FILES) + 8 and max(map(len, lines)) <= 100
    assert STAMP not in out  # the tables are behind --verbose
    phases = err.splitlines()
    assert phases[0] == f"dpsym derive: formulas ({len(MECHANISMS)} mechanisms)", err
    assert [line.split(":")[1].split(" (")[0].strip() for line in phases] == [
        "formulas", "series", "reference values", "figures and tables", "writing"]


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


def test_figures_and_tables_exist(job_run):
    first = job_run[0]
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


def test_stamp_and_sorted_keys(job_run):
    first = job_run[0]
    assert f"dpsym {__version__}" in STAMP
    for name in ("formulas.json", "series.json", "reference_values.json"):
        text = (first / name).read_text(encoding="utf-8")
        data = json.loads(text)
        assert data["stamp"] == STAMP
        assert text == json.dumps(data, indent=2, sort_keys=True, ensure_ascii=False) + "\n"
    assert (first / "formulas.tex").read_text(encoding="utf-8").startswith(f"% {STAMP}\n")


def test_reference_values_match_the_engine(job_run):
    first = job_run[0]
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


def test_formulas_and_series_parse_back(job_run):
    first = job_run[0]
    formulas = json.loads((first / "formulas.json").read_text())["mechanisms"]
    assert set(formulas) == set(MECHANISMS)
    staircase = formulas["staircase"]["costs"]["amplitude"]
    expr = sp.parse_expr(staircase["formulas"]["cost"]["str"], local_dict=PUBLIC_SYMBOLS)
    assert expr == MECHANISMS["staircase"].formula("cost", "amplitude")
    expr = sp.parse_expr(staircase["formulas"]["gamma"]["str_eps"], local_dict=PUBLIC_SYMBOLS)
    # the display form in eps (1/(exp(eps/2) + 1)) is the same function as the formula
    assert sp.simplify(expr - in_eps(MECHANISMS["staircase"].formula("gamma", "amplitude"))) == 0
    assert expr == 1 / (sp.exp(PUBLIC_SYMBOLS["eps"] / 2) + 1)
    disc = formulas["discrete-staircase"]["costs"]["power"]
    assert disc["formulas"]["cost"]["status"] == "numeric only"
    expr = sp.parse_expr(disc["cost_function"]["str"], local_dict=PUBLIC_SYMBOLS)
    assert sp.simplify(expr - MECHANISMS["discrete-staircase"].cost_function("power")) == 0
    series = json.loads((first / "series.json").read_text())["mechanisms"]
    rec = series["staircase"]["power"]["cost"]["eps->oo"]
    assert rec["variable"] == "b = exp(-eps)"
    expr = sp.parse_expr(rec["str"], local_dict=PUBLIC_SYMBOLS)
    # the engine's series keeps its terms in increasing powers (an Add in display order):
    # compared as a canonical sum
    assert expr == sp.Add(*MECHANISMS["staircase"].series("cost", "power", "eps->oo", 3).args)
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


def test_numbers_are_decimal_strings_never_floats(job_run):
    """Every number the job writes is a certified decimal string (or an exact integer):
    a float's repr could differ in its last digits from one machine to another."""
    first = job_run[0]
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


# ---------------------------------------------------------------------- a small fake job
TOY_FORMULAS = {"toy": {"title": "Toy", "costs": {"amplitude": {"formulas": {
    "cost": {"str": "Delta/eps + " + " + ".join(f"eps**{k}" for k in range(1, 30))},
    "gamma": {"status": "numeric only", "reason": "no closed form"}}}}}}
TOY_SERIES = {"toy": {"amplitude": {"cost": {
    "eps->0": {"str": "Delta/eps"}, "eps->oo": {"status": "numeric only", "reason": "none"}}}}}
TOY_ROWS = [{"mechanism": "toy", "quantity": "cost", "cost": "amplitude", "eps": "1",
             "delta": "", "Delta": "1", "digits": DIGITS, "value": "1.5"}]


@pytest.fixture
def toy_job(monkeypatch):
    """The main job on one toy mechanism and one figure job (fast)."""
    def fake(value):
        def compute(step=None):
            if step is not None:
                step("toy")
            return value
        return compute
    monkeypatch.setattr(derive, "derive_formulas", fake(TOY_FORMULAS))
    monkeypatch.setattr(derive, "derive_series", fake(TOY_SERIES))
    monkeypatch.setattr(derive, "derive_values", fake(TOY_ROWS))
    monkeypatch.setattr(derive, "render_tex", lambda formulas, series: "tex\n")
    figure = {"bytes": b"png"}
    monkeypatch.setattr(derive, "FIGURE_JOBS", (
        ("toy.figure", lambda d: (d / "toy.png").write_bytes(figure["bytes"]), ("toy.png",)),))
    return figure


def _summary(directory: Path, verbose: bool = False) -> str:
    stream = StringIO()
    derive.run(directory, stream=stream, verbose=verbose, progress=False)
    return stream.getvalue()


def _states(summary: str) -> dict[str, str]:
    return dict(line.split(None, 1) for line in summary.splitlines() if line.startswith("  "))


def test_summary_says_what_changed_and_unchanged_files_are_not_rewritten(tmp_path, toy_job):
    names = [*derive.FILES, "toy.png"]
    first = _summary(tmp_path)
    assert _states(first) == dict.fromkeys(names, "new")
    assert f"{len(names)} files: 0 changed, {len(names)} new, 0 unchanged." in first
    assert "1 mechanisms x 2 costs: 1 closed forms (1 numeric only); 1 series expansions" \
        in first
    assert "(1 requested combinations have none); 1 reference values at 40 digits." in first
    assert STAMP not in first and "eps**29" not in first  # no tables without --verbose
    old = 1_000_000_000
    for name in names:
        os.utime(tmp_path / name, (old, old))
    (tmp_path / "claims.md").write_text("edited by hand\n")
    toy_job["bytes"] = b"another png"
    second = _summary(tmp_path)
    states = _states(second)
    assert states.pop("claims.md") == "changed" and states.pop("toy.png") == "changed"
    assert set(states.values()) == {"unchanged"}
    assert f"2 changed, 0 new, {len(names) - 2} unchanged." in second
    assert (tmp_path / "toy.png").read_bytes() == b"another png"
    assert (tmp_path / "claims.md").read_text(encoding="utf-8") == derive.render_claims()
    for name in states:  # not rewritten: the modification time is the old one
        assert (tmp_path / name).stat().st_mtime == old, name
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted(names)


def test_verbose_prints_the_full_tables_first(tmp_path, toy_job):
    out = _summary(tmp_path, verbose=True)
    assert out.startswith(STAMP + "\n")
    assert " + eps**29" in out and "..." not in out  # formulas are not cut
    assert "(numeric only)" in out and "1.5" in out
    assert out.index("reference values (40") < out.index("dpsym derive: ")
    assert "--verbose" not in out.splitlines()[-1]


class _Terminal(StringIO):
    def isatty(self) -> bool:
        return True


def test_progress_redraws_one_line_on_a_terminal_and_one_line_per_phase_elsewhere():
    from dpsym.runtime.progress import Progress

    term = _Terminal()
    bar = Progress(4, stream=term, name="job")
    bar.begin("first", "2 steps")
    bar.step("a")
    bar.step("b")
    bar.begin("second")
    bar.step("c")
    bar.close()
    frames = term.getvalue().split("\r")
    assert frames[0] == "" and "\n" not in term.getvalue()
    assert all(len(frame) <= Progress.WIDTH for frame in frames)
    assert frames[2].startswith("[#####" + "." * 15 + "] 1/4 ") and "first: a" in frames[2]
    assert "3/4" in frames[-3] and "second: c" in frames[-3]
    assert frames[-2].strip() == "" and frames[-1] == ""  # the line is erased at the end
    log = StringIO()
    bar = Progress(2, stream=log, name="job")
    bar.begin("first", "2 steps")
    bar.step("a")
    bar.begin("second")
    bar.close()
    assert log.getvalue() == "job: first (2 steps)\njob: second\n"
    quiet = _Terminal()
    bar = Progress(1, stream=quiet, enabled=False)
    bar.begin("first")
    bar.step()
    bar.close()
    assert quiet.getvalue() == ""


def test_main_job_regenerates_the_cache_only_in_the_checkout(tmp_path, monkeypatch):
    module = tmp_path / "_derived.py"
    calls = []

    def fake_write():
        calls.append("write")
        module.write_text("cache\n")
        return module

    monkeypatch.setattr(derive, "_generate", lambda out, bar, report: None)
    monkeypatch.setattr(derive, "write_cache", fake_write)
    monkeypatch.setattr(derive, "MODULE", module)
    monkeypatch.setattr(derive, "in_checkout", lambda out_dir: False)
    stream = StringIO()
    derive.main_job(tmp_path, stream=stream, progress=False)
    assert calls == [] and "_derived.py" not in stream.getvalue()
    monkeypatch.setattr(derive, "in_checkout", lambda out_dir: True)
    for state in ("new", "unchanged"):
        stream = StringIO()
        derive.main_job(tmp_path, stream=stream, progress=False)
        assert re.search(rf"^  dpsym/symbolic/_derived.py  {state} \(fingerprint [0-9a-f]{{12}}\)$",
                         stream.getvalue(), re.MULTILINE), stream.getvalue()
    assert calls == ["write", "write"]


def test_json_summary(tmp_path, toy_job):
    stream = StringIO()
    derive.run(tmp_path, stream=stream, progress=False, as_json=True)
    record = json.loads(stream.getvalue())
    assert record["directory"] == str(tmp_path)
    assert record["files"] == dict.fromkeys([*derive.FILES, "toy.png"], "new")
    assert record["formulas"] == {"closed": 1, "numeric_only": 1}
    assert record["series"] == {"expanded": 1, "none": 1}
    assert record["values"] == {"digits": 40, "computed": 1, "errors": 0}
    from dpsym.cli.parser import parse_args

    assert parse_args(["derive", "--json"]).json is True


def test_cli_accepts_verbose():
    from dpsym.cli.parser import parse_args

    assert parse_args(["derive", "--verbose", "--out", "x"]).verbose is True
    assert parse_args(["derive"]).verbose is False
