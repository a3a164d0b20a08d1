"""Tests of :mod:`dpsym.sweep` and of the ``sweep`` and ``audit`` commands."""

from __future__ import annotations

import json
from concurrent.futures import ThreadPoolExecutor

import pytest

from dpsym.cli import main
from dpsym.errors import DomainError
from dpsym.mechanisms import TruncatedLaplace
from dpsym.sweep import parse_values, sweep, to_csv

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
    assert parse_values("log:1e-3:10:5", "eps") == ["0.001", "0.01", "0.1", "1.0", "10.0"]
    for bad in ("", "1,,2", "log:1:2", "log:0:1:3", "log:1:2:0", "1e999999", "nan"):
        with pytest.raises(DomainError):
            parse_values(bad, "eps")


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
