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


def test_catalogue_point_and_one_value_case(bench):
    from dpsym.mechanisms import MECHANISMS

    for cls in MECHANISMS.values():  # every typical point is a valid instance
        cls(**bench.typical_point(cls))
    row = bench._value_case("laplace", {"eps": "3e-1"}, "cost", "power", 50, 1, "catalogue",
                            "value laplace cost power at 50 digits", first_limit=60.0)
    assert row.baseline_name == "hand-written mpmath" and row.ratio > 0
    assert row.extra["relative_difference"] <= 1e-49
    assert row.met in (True, False)


def test_catalogue_reports_a_raising_quantity_as_skipped(bench):
    row = bench._value_case("laplace", {"eps": "1"}, "no-such-quantity", "power", 50, 1,
                            "catalogue", "x", first_limit=60.0)
    assert row.dpsym is None and row.met is None
    assert row.note.startswith("skipped: raises DomainError")


def test_hand_written_baselines_match_dpsym_at_50_digits(bench):
    """Each hand-written closed form agrees with dpsym's certified value (so that a ratio
    against it compares like with like)."""
    import mpmath

    from dpsym.mechanisms import MECHANISMS

    for name, params, quantity, cost in bench.DIGIT_CASES:
        v = MECHANISMS[name](**params).value(quantity, cost, 50)
        with mpmath.workdps(60):
            hand = bench.HAND[(name, quantity, cost)](params, 50)
            assert abs(v.number / hand - 1) <= mpmath.mpf(10) ** -49, (name, quantity, cost)
