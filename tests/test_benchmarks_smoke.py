"""Smoke test of benchmarks/run.py: it imports and runs one tiny case (no timing asserts)."""

from __future__ import annotations

import importlib.util
import json
import sys
from pathlib import Path

import pytest

RUN = Path(__file__).resolve().parent.parent / "benchmarks" / "run.py"


@pytest.fixture(scope="module")
def bench():
    spec = importlib.util.spec_from_file_location("dpsym_benchmarks_run", RUN)
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look their module up
    spec.loader.exec_module(module)
    return module


def test_tiny_sampling_case_and_report(bench, tmp_path):
    row = bench.sampling_case("laplace", {"eps": 1}, 1000, 1)
    assert row.dpsym > 0 and row.baseline > 0 and row.ratio > 0
    assert row.met in (True, False)
    bench.write([row], tmp_path, {"quick": True, "python": "x", "machine": "x",
                                  "versions": {}, "seconds": 0.0})
    data = json.loads((tmp_path / "results.json").read_text())
    assert data["results"][0]["case"] == "sample laplace"
    assert "| sample laplace |" in (tmp_path / "results.md").read_text()


def test_missing_peer_is_reported_not_raised(bench):
    assert bench.peer("no-such-peer-library").startswith("import failed")
