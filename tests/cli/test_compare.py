"""Tests of ``dpsym compare`` (:mod:`dpsym.cli`) and of the comparison behind it
(:mod:`dpsym.reports.selection`), and of ``dpsym check``."""

from __future__ import annotations

import csv
import dataclasses
import io
import json
from fractions import Fraction

import mpmath
import pytest
from cli_helpers import assert_one_line_error, mp_from_text, run, run_json

from dpsym.bounds import BOUNDS
from dpsym.claims import REGISTRY
from dpsym.cli import main
from dpsym.core.params import Guarantee
from dpsym.errors import DomainError, DpsymError, UnsupportedError
from dpsym.mechanisms import MECHANISMS
from dpsym.reports.selection import (
    PURE_OPTIMA,
    CompareInputs,
    Comparison,
    IneligibleError,
    Ranked,
    SelectionError,
    Skipped,
    compare,
    compare_inputs,
)

#: Every entry of the command (mechanisms, then lower bounds).
ENTRIES = {**MECHANISMS, **BOUNDS}






# ---------------------------------------------------------------------- compare
def compare_json(capsys, *argv: str) -> dict:
    data = run_json(capsys, "compare", *argv)
    assert set(data) >= {"rows", "skipped", "excluded", "cost", "digits"}
    return data


def mechanisms_of(data: dict, query: str) -> list[dict]:
    return [r for r in data["rows"] if r["query"] == query and r["kind"] == "mechanism"]


def bounds_of(data: dict, query: str) -> list[dict]:
    return [r for r in data["rows"] if r["query"] == query and r["kind"] == "lower bound"]


def check_sections(data: dict) -> None:
    """Sorted, ratios >= 1, best has ratio 1, lower bounds below the best."""
    for query in ("real", "integer"):
        rows = mechanisms_of(data, query)
        costs = [mp_from_text(r["cost"]) for r in rows]
        assert costs == sorted(costs)
        assert [r["rank"] for r in rows] == list(range(1, len(rows) + 1))
        for r, c in zip(rows, costs, strict=True):
            assert float(r["ratio"]) >= 1
            assert abs(float(r["ratio"]) - float(c / costs[0])) <= 1e-5 * float(c / costs[0])
            assert r["guarantee"] in ("eps", "eps,delta", "0,delta")
            assert r["name"] in MECHANISMS and r["title"] == MECHANISMS[r["name"]].title
            assert bool(MECHANISMS[r["name"]].lattice) == (query == "integer")
        if rows:
            assert rows[0]["ratio"] == "1.00000"
        for b in bounds_of(data, query):
            assert b["name"] in BOUNDS or (data["delta"] == "0"
                                           and b["name"] == PURE_OPTIMA[query])
            if rows:
                assert mp_from_text(b["cost"]) <= costs[0]
                assert float(b["ratio"]) >= 1


def test_compare_pure_dp(capsys):
    data = compare_json(capsys, "--eps", "1", "--cost", "amplitude", "--digits", "12")
    check_sections(data)
    assert (data["eps"], data["delta"], data["sensitivity"]) == ("1", "0", "1")
    real = {r["name"]: mp_from_text(r["cost"]) for r in mechanisms_of(data, "real")}
    integer = {r["name"]: mp_from_text(r["cost"]) for r in mechanisms_of(data, "integer")}
    assert real["staircase"] <= real["laplace"]
    assert mechanisms_of(data, "real")[0]["name"] == "staircase"  # optimal for pure eps-DP
    assert integer["discrete-staircase"] <= integer["discrete-laplace"]
    # delta = 0: only eps-DP mechanisms qualify; the others are skipped with a reason
    assert all(r["guarantee"] == "eps" for r in data["rows"] if r["kind"] == "mechanism")
    reasons = {s["name"]: s["reason"] for s in data["skipped"]}
    for name, cls in MECHANISMS.items():
        if cls.guarantee != "eps" and name not in data["excluded"]:
            assert "delta" in reasons[name]
    # multi-dimensional mechanisms are left out unless --dim is given
    multi = [n for n, c in MECHANISMS.items() if any(p.name == "dim" for p in c.params)]
    assert data["excluded"] == multi
    assert not set(multi) & {r["name"] for r in data["rows"]}
    # delta = 0: the optimal eps-DP mechanism's cost (the staircase theorems) is the lower
    # bound, rounded down: at most one unit of the last digit below the best
    for query, name in PURE_OPTIMA.items():
        (bound,) = bounds_of(data, query)
        best = mechanisms_of(data, query)[0]
        assert bound["name"] == name and best["name"] == name
        low, top = (mp_from_text(r["cost"]) for r in (bound, best))
        unit = mpmath.mpf(10) ** (mpmath.floor(mpmath.log10(top)) - 11)  # 12 digits
        assert low <= top <= low + unit
        lo_end = mp_from_text(best["enclosure"][0])
        assert low <= lo_end


def test_compare_takes_exact_fractions(capsys):
    data = compare_json(capsys, "--eps", "1/2", "--delta", "1/100", "--digits", "10")
    decimal = compare_json(capsys, "--eps", "0.5", "--delta", "0.01", "--digits", "10")
    assert (data["eps"], data["delta"]) == ("1/2", "1/100")
    assert data["rows"] == decimal["rows"] and data["skipped"] == decimal["skipped"]
    code, out, err = run(capsys, "compare", "--eps", "1/2", "--digits", "5")
    assert code == 0 and err == "" and out.startswith("eps = 1/2, delta = 0, ")


def test_compare_approximate_dp_power_and_table(capsys):
    argv = ("--eps", "0.5", "--delta", "0.01", "--cost", "power", "--digits", "10")
    data = compare_json(capsys, *argv)
    check_sections(data)
    names = {r["name"] for r in mechanisms_of(data, "real")}
    assert {"laplace", "staircase"} <= names
    for name in names:  # every listed mechanism is (eps, delta)-DP at these parameters
        assert MECHANISMS[name].guarantee in ("eps", "eps,delta", "0,delta")
    # the real lower bound is listed in its section, not ranked
    (low,) = bounds_of(data, "real")
    assert low["name"] == "lower-bound" and "rank" not in low
    assert [b["name"] for b in bounds_of(data, "integer")] == ["discrete-lower-bound"]
    # values are the certified ones of `dpsym value`
    stair = next(r for r in data["rows"] if r["name"] == "staircase")
    value = run_json(capsys, "value", "staircase", "--eps", "0.5", "--cost", "power",
                     "--digits", "10")
    assert stair["cost"] == value["value"]
    # the table: two sections, lower bound lines, skipped part when something is skipped
    code, out, err = run(capsys, "compare", *argv)
    assert (code, err) == (0, "")
    assert "real-valued query" in out and "integer-valued query" in out
    assert out.count("lower bound") >= 2 and "best / bound" in out
    for r in data["rows"]:
        assert r["name"] in out and r["cost"] in out
    assert ("skipped" in out) == bool(data["skipped"])


def test_compare_zero_eps_and_non_integer_sensitivity(capsys):
    # (0, delta): only the 0,delta mechanisms qualify
    data = compare_json(capsys, "--eps", "0", "--delta", "0.1", "--digits", "8")
    check_sections(data)
    assert data["rows"]
    assert all(MECHANISMS[r["name"]].guarantee == "0,delta"
               for r in data["rows"] if r["kind"] == "mechanism")
    assert {s["name"] for s in data["skipped"]} >= {"laplace", "staircase"}
    # a non-integer sensitivity: the integer-valued mechanisms and bound are skipped
    data = compare_json(capsys, "--eps", "1", "--delta", "0.2", "--sensitivity", "1.5",
                        "--digits", "8")
    check_sections(data)
    assert mechanisms_of(data, "integer") == []
    skipped = {s["name"]: s["reason"] for s in data["skipped"]}
    for name, cls in ENTRIES.items():
        if cls.lattice and name in skipped:
            assert "sensitivity" in skipped[name] or "delta" in skipped[name]
    assert "discrete-lower-bound" in skipped
    # a delta outside an (eps, delta) mechanism's domain: skipped with a note, and the
    # lower bounds (delta < 1/2) too; the pure eps-DP mechanisms are still compared
    data = compare_json(capsys, "--eps", "1", "--delta", "0.7", "--digits", "8")
    skipped = {s["name"]: s["reason"] for s in data["skipped"]}
    assert "lower-bound" in skipped
    for r in data["rows"]:
        assert r["guarantee"] != "eps,delta" or any(
            p.name == "delta" and p.domain.upper > Fraction(7, 10)
            for p in ENTRIES[r["name"]].params)
    for name, reason in skipped.items():
        if ENTRIES[name].guarantee == "eps,delta":
            assert "--delta" in reason or "--eps" in reason, (name, reason)
    assert {"laplace", "staircase"} <= {r["name"] for r in mechanisms_of(data, "real")}


def test_compare_dim_lp_and_skipped_failures(capsys, monkeypatch):
    data = compare_json(capsys, "--eps", "1", "--dim", "3", "--digits", "8")
    check_sections(data)
    assert data["dim"] == 3
    for r in data["rows"]:
        assert any(p.name == "dim" for p in MECHANISMS[r["name"]].params)
    assert "laplace" in data["excluded"]
    real = {r["name"]: mp_from_text(r["cost"]) for r in mechanisms_of(data, "real")}
    assert real["laplace-md"] == 3  # d Delta/eps
    assert all(r["kind"] == "mechanism" for r in data["rows"])
    # --lp adds the LP bound to the real section
    data = compare_json(capsys, "--eps", "1", "--delta", "0.1", "--lp", "--grid", "2",
                        "--digits", "8")
    check_sections(data)
    assert {b["name"] for b in bounds_of(data, "real")} == {"lower-bound", "lp-bound"}
    # a mechanism whose value fails is skipped with its one-line reason
    def fails(*args, **kwargs):
        raise UnsupportedError("cannot\ncertify")

    def bug(*args, **kwargs):
        raise TypeError("bug")

    monkeypatch.setattr(MECHANISMS["staircase"], "value", fails)
    monkeypatch.setattr(MECHANISMS["discrete-staircase"], "value", bug)
    data = compare_json(capsys, "--eps", "1", "--digits", "8")
    check_sections(data)
    skipped = {s["name"]: s["reason"] for s in data["skipped"]}
    assert skipped["staircase"] == "cannot certify"
    assert "TypeError" in skipped["discrete-staircase"]
    assert mechanisms_of(data, "real")[0]["name"] == "laplace"
    code, out, err = run(capsys, "compare", "--eps", "1", "--digits", "8")
    assert code == 0 and err == "" and "staircase: cannot certify" in out


COMPARE_BAD = [
    (("--delta", "0.1"), "--eps"),
    (("--eps", "-1"), "[0, 1.0e+100]"),
    (("--eps", "x"), "--eps"),
    (("--eps", "1", "--delta", "1"), "[0, 1)"),
    (("--eps", "1", "--delta", "-0.1"), "--delta"),
    (("--eps", "0", "--delta", "0"), "cannot both be 0"),
    (("--eps", "0"), "cannot both be 0"),
    (("--eps", "1", "--sensitivity", "0"), "--sensitivity"),
    (("--eps", "1", "--cost", "nosuch"), "--cost"),
    (("--eps", "1", "--digits", "0"), "[1, 10000]"),
    (("--eps", "1", "--dim", "0"), "--dim"),
    (("--eps", "1", "--grid", "4"), "--lp"),
    (("--eps", "1", "--lp", "--grid", "65"), "--grid"),
    (("--eps", "1", "--alpha", "2"), "--alpha"),
    (("--eps", "1", "laplace"), "unrecognized"),
]


@pytest.mark.parametrize(("argv", "needle"), COMPARE_BAD,
                         ids=[" ".join(a) for a, _ in COMPARE_BAD])
def test_compare_bad_inputs(capsys, argv, needle):
    assert_one_line_error(*run(capsys, "compare", *argv), needle)


# ---------------------------------------------------------------------- check
def test_check_runs_selected_claims(capsys):
    """A prefix selects its claims, an id its claim (light ones: every claim's check is
    tested in ``tests/claims``)."""
    assert main(["check", "004.approx", "004.tail", "--json"]) == 0
    record = json.loads(capsys.readouterr().out)
    assert record["failed"] == 0 and record["passed"] == len(record["claims"]) == 7
    assert {c["id"] for c in record["claims"]} >= {"004.approx.def", "004.tail"}
    assert main(["check", "003.thm1"]) == 0
    out = capsys.readouterr().out
    assert "003.thm1" in out and "1 of 1 claims as registered" in out
    assert main(["check", "--list"]) == 0
    assert "003.sec6.all" in capsys.readouterr().out


def test_check_refuses_unknown_claims(capsys):
    assert main(["check", "nope"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "claim" in err


def test_check_reports_a_mismatch(monkeypatch, capsys):
    wrong = dataclasses.replace(REGISTRY["004.union"], status="fails")
    monkeypatch.setitem(REGISTRY, "004.union", wrong)
    assert main(["check", "004.union"]) == 1
    assert "MISMATCH" in capsys.readouterr().out


# ---------------------------------------------------------------------- dpsym.reports.selection
def test_selection_returns_records_and_prints_nothing(capsys):
    inputs = compare_inputs("1", "0.05", digits=10)
    assert isinstance(inputs, CompareInputs)
    assert (inputs.eps, inputs.delta, inputs.Delta) == (1, Fraction(1, 20), 1)
    result = compare(inputs)
    assert capsys.readouterr() == ("", "")
    assert isinstance(result, Comparison)
    assert all(isinstance(r, Ranked) for r in result.rows)
    assert all(isinstance(s, Skipped) for s in result.skipped)
    real = [r for r in result.rows if r.query == "real" and r.kind == "mechanism"]
    assert [r.rank for r in real] == list(range(1, len(real) + 1))
    assert real[0].name == "truncated-laplace" and real[0].ratio == "1.00000"
    assert real[0].guarantee == Guarantee.APPROXIMATE
    assert [r.number for r in real] == sorted(r.number for r in real)
    assert real[0].cost == MECHANISMS["truncated-laplace"](eps="1", delta="0.05").value(
        "cost", "amplitude", 10).text
    bound = next(r for r in result.rows if r.name == "lower-bound")
    assert bound.rank is None and 0 < bound.number <= real[0].number
    # the classic Gaussian does not accept eps = 1: skipped with its DomainError
    gaussian = next(s for s in result.skipped if s.name == "gaussian")
    assert not gaussian.internal and "eps" in str(gaussian.error)
    assert set(result.excluded) == {n for n, c in MECHANISMS.items()
                                    if any(p.name == "dim" for p in c.params)}
    # an ineligible entry: the reason names parameters by name, or as the caller spells them
    pure = compare(compare_inputs("1", digits=8))
    reason = next(s.error for s in pure.skipped if s.name == "truncated-laplace")
    assert isinstance(reason, IneligibleError)
    assert str(reason) == "(eps,delta)-DP: needs delta > 0"
    assert reason.render(lambda name: f"--{name}") == "(eps,delta)-DP: needs --delta > 0"
    assert capsys.readouterr() == ("", "")


def test_selection_errors_are_dpsym_errors():
    with pytest.raises(SelectionError, match="eps, delta: cannot both be 0") as info:
        compare_inputs("0", "0")
    assert isinstance(info.value, UnsupportedError) and isinstance(info.value, DpsymError)
    with pytest.raises(SelectionError, match="grid: used only with lp"):
        compare_inputs("1", grid="4")
    with pytest.raises(DomainError, match="delta"):
        compare_inputs("1", "1")


def test_selection_keeps_a_buggy_entry_apart(monkeypatch):
    def bug(*args, **kwargs):
        raise ZeroDivisionError("bug")

    monkeypatch.setattr(MECHANISMS["staircase"], "value", bug)
    result = compare(compare_inputs("1", digits=8))
    (skipped,) = [s for s in result.skipped if s.name == "staircase"]
    assert skipped.internal and isinstance(skipped.error, ZeroDivisionError)
    assert next(r.name for r in result.rows if r.query == "real") == "laplace"


def test_compare_formats_agree_and_numbers_are_uniform(capsys):
    """table, md, latex and csv show the same entries as --json; in the human formats every
    cost has the digits asked for and every ratio 6, in one style (no ``1.0`` beside
    ``1``, no ``833333000.`` with placeholder digits)."""
    import csv
    import io
    import re

    argv = ("compare", "--eps", "1", "--delta", "1e-5", "--cost", "power", "--digits", "6")
    data = run_json(capsys, *argv)
    names = [r["name"] for r in data["rows"]]
    from dpsym.cli.compare import RENDERERS

    outputs = {fmt: render(data) for fmt, render in RENDERERS.items()}
    for out in outputs.values():
        for name in names:
            assert name in out
    code, out, err = run(capsys, *argv, "--format", "csv")  # the option reaches them
    assert (code, err, out) == (0, "", outputs["csv"])
    number = re.compile(r"^-?\d\.\d{5}e[+-]\d+$|^-?(?=[\d.]{7}$)\d+\.\d+$")
    for line in outputs["table"].splitlines():
        cells = line.split()
        if cells and (cells[0].isdigit() or cells[:2] == ["lower", "bound"]):
            offset = 1 if cells[0].isdigit() else 2
            cost, ratio = cells[offset + 2], cells[offset + 3]
            assert number.match(cost), line
            assert number.match(ratio), line
    rows = list(csv.DictReader(io.StringIO(outputs["csv"])))
    by_name = {r["name"]: r for r in rows if r["kind"] in ("mechanism", "lower bound")}
    for r in data["rows"]:
        assert by_name[r["name"]]["cost"] == r["cost"]
    assert outputs["latex"].count(r"\\") >= len(names) and "\\toprule" in outputs["latex"]
    assert sum(line.startswith("|---") for line in outputs["md"].splitlines()) == 2


def test_ratios_have_one_style_in_every_format(capsys):
    """Every ratio in CSV and JSON has exactly the ratio digits, positional or
    scientific as in the table (``1.00000`` beside ``1.04217``, never ``1`` beside
    ``1.0``, ``260548.0`` or ``250000.``)."""
    code, out, _ = run(capsys, "compare", "--eps", "1", "--delta", "1e-6", "--format", "csv")
    assert code == 0
    ratios = [row["ratio"] for row in csv.DictReader(io.StringIO(out)) if row["ratio"]]
    assert ratios and "260548" in ratios
    for r in ratios:
        digits = r.split("e")[0].replace(".", "").lstrip("0")
        assert len(digits) == 6 and not r.endswith("."), r
    data = run_json(capsys, "compare", "--eps", "1", "--delta", "1e-6")
    shown = [r["ratio"] for q in ("real", "integer") for r in mechanisms_of(data, q)]
    assert set(shown) >= {"1.00000", "260548"}
