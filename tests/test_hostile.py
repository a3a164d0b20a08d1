"""Malformed, hostile and extreme input: every invocation answers or refuses cleanly.

Each malformed CLI invocation must exit with status 2 and write exactly one line,
``dpsym: error: ...``, on standard error (no traceback); each malformed API call must raise
a :class:`~dpsym.errors.DomainError` (a ``ValueError``) naming the parameter. Extreme but
valid parameters must give a value (checked to be a finite decimal) or a clean refusal.
The battery has well over 200 cases (asserted below).
"""

from __future__ import annotations

import itertools
import json
from fractions import Fraction

import pytest

from dpsym.cli import main
from dpsym.errors import DomainError, DpsymError
from dpsym.mechanisms import MECHANISMS

BAD_NUMBERS = ["nan", "NaN", "inf", "-inf", "+Infinity", "", " ", "abc", "1e999999",
               "-1e999999", "0x10", "1_000", "1,5", "١", "1e", "--1", "1/0", "2**",
               "__import__('os')", "eval('1')", "0b1", "1j", "None", "1e-999999"]
NONPOSITIVE = ["0", "-1", "-1e-300"]

CLI_BAD: list[list[str]] = []
for value in BAD_NUMBERS:
    CLI_BAD.append(["value", "laplace", "--eps", value])
    CLI_BAD.append(["value", "truncated-laplace", "--eps", "1", "--delta", value])
    CLI_BAD.append(["value", "staircase", "--eps", "1", "--sensitivity", value])
    CLI_BAD.append(["value", "laplace", "--eps", "1", "--digits", value])
    CLI_BAD.append(["compare", "--eps", value, "--delta", "1e-6"])
    CLI_BAD.append(["audit", "analytic-gaussian", "--eps", "1", "--sigma", value])
for value in NONPOSITIVE:
    CLI_BAD.append(["value", "laplace", "--eps", value])
    CLI_BAD.append(["value", "uniform-mass", "--delta", value])
    CLI_BAD.append(["value", "analytic-gaussian", "--eps", "1", "--delta", "0.1",
                    "--sensitivity", value])
CLI_BAD += [
    ["value", "truncated-laplace", "--eps", "1", "--delta", "0.5"],  # delta < 1/2
    ["value", "truncated-laplace", "--eps", "1", "--delta", "1"],
    ["value", "uniform-mass", "--delta", "1"],
    ["value", "gaussian", "--eps", "1", "--delta", "0.1"],  # classic: eps < 1
    ["value", "discrete-uniform", "--delta", "0.1", "--sensitivity", "1.5"],
    ["value", "discrete-laplace", "--eps", "1", "--sensitivity", "0"],
    ["value", "staircase-md", "--eps", "1", "--dim", "0"],
    ["value", "staircase-md", "--eps", "1", "--dim", "2.5"],
    ["value", "staircase-md", "--eps", "1", "--dim", "-3"],
    ["value", "staircase-md", "--eps", "1", "--dim", "51"],
    ["value", "laplace", "--eps", "1", "--digits", "10001"],
    ["value", "laplace", "--eps", "1", "--digits", "0"],
    ["value", "laplace", "--eps", "1", "--digits", "1.5"],
    ["value", "laplace", "--eps", "1", "--cost", "moment:0"],
    ["value", "laplace", "--eps", "1", "--cost", "moment:-1"],
    ["value", "laplace", "--eps", "1", "--cost", "moment:21"],
    ["value", "laplace", "--eps", "1", "--cost", "moment:nan"],
    ["value", "laplace", "--eps", "1", "--cost", "moment:1/0"],
    ["value", "laplace", "--eps", "1", "--cost", "cubic"],
    ["value", "laplace", "--eps", "1", "--cost", ""],
    ["value", "laplace", "gamma", "--eps", "1"],  # no such quantity
    ["value", "no-such-mechanism", "--eps", "1"],
    ["value", "", "--eps", "1"],
    ["value", "laplace"],  # eps missing
    ["value", "laplace", "--eps", "1", "--delta", "0.1"],  # not a parameter
    ["value", "laplace", "--eps", "1", "--eps", "2", "--nonsense"],
    ["series", "laplace", "--regime", "eps->1", "--order", "3"],
    ["series", "laplace", "--regime", "eps->0", "--order", "-1"],
    ["series", "laplace", "--regime", "eps->0", "--order", "31"],
    ["series", "laplace", "--regime", "eps->0", "--order", "two"],
    ["series", "laplace", "--regime", "eps->0", "--order", "3", "--eps", "1"],
    ["series", "uniform-mass", "--regime", "eps->oo", "--order", "2"],
    ["formula", "staircase-md", "--dim", "0"],
    ["formula", "laplace", "--dim", "2"],
    ["compare", "--eps", "0", "--delta", "0"],
    ["compare", "--eps", "1", "--delta", "1"],
    ["compare", "--eps", "1", "--delta", "-0.1"],
    ["compare", "--eps", "1", "--dim", "x"],
    ["audit", "laplace", "--eps", "1"],
    ["audit", "laplace", "--eps", "1", "--scale", "1", "--sigma", "1"],
    ["audit", "staircase", "--eps", "1", "--eps0", "1", "--gamma", "2"],
    ["audit", "analytic-gaussian", "--eps", "-1", "--sigma", "1"],
    ["audit", "analytic-gaussian", "--eps", "1", "--sigma", "1", "--delta", "1.5"],
    ["sweep", "laplace", "--param", "eps=1,nan"],
    ["sweep", "laplace", "--param", "eps=log:1:10:1000000"],
    ["sweep", "laplace", "--param", "=1"],
    ["derive", "--out", "/proc/forbidden/dir"],
    ["no-such-command"],
    [],
]


@pytest.mark.parametrize("argv", CLI_BAD, ids=[" ".join(a)[:60] or "empty" for a in CLI_BAD])
def test_cli_refuses_cleanly(argv, capsys):
    code = main(argv)
    captured = capsys.readouterr()
    assert code == 2, (argv, captured.err)
    lines = captured.err.splitlines()
    assert len(lines) == 1 and lines[0].startswith("dpsym: error:"), captured.err
    assert "Traceback" not in captured.err


API_BAD = list(itertools.product(
    ["laplace", "staircase", "truncated-laplace", "analytic-gaussian", "uniform-mass"],
    ["nan", "inf", "-1", "0", "1e999999", "x", None.__class__.__name__, float("nan"),
     float("inf"), -2.0, True, [1], {"a": 1}],
))


@pytest.mark.parametrize("name, value", API_BAD, ids=[f"{n}-{v!r}" for n, v in API_BAD])
def test_api_refuses_cleanly(name, value):
    cls = MECHANISMS[name]
    param = "eps" if "eps" in {p.name for p in cls.params} else "delta"
    others = {"delta": "0.1"} if param == "eps" and "delta" in {
        p.name for p in cls.params} else {}
    with pytest.raises(DomainError) as info:
        cls(**{param: value}, **others)
    assert isinstance(info.value, ValueError) and param in str(info.value)


EXTREMES = [
    ("laplace", {"eps": "1e-12"}), ("laplace", {"eps": "700"}), ("laplace", {"eps": "1e6"}),
    ("laplace", {"eps": "1", "Delta": "1e-300"}), ("laplace", {"eps": "1", "Delta": "1e300"}),
    ("staircase", {"eps": "1e-12"}), ("staircase", {"eps": "700"}),
    ("staircase", {"eps": "5000"}),
    ("truncated-laplace", {"eps": "1e-12", "delta": "0.4"}),
    ("truncated-laplace", {"eps": "700", "delta": "1e-300"}),
    ("truncated-laplace", {"eps": "1e-8", "delta": "1e-300"}),
    ("truncated-laplace", {"eps": "2000", "delta": "0.4999999"}),
    ("analytic-gaussian", {"eps": "1e-12", "delta": "1e-300"}),
    ("analytic-gaussian", {"eps": "700", "delta": "0.999"}),
    ("analytic-gaussian", {"eps": "1e6", "delta": "1e-12"}),
    ("gaussian", {"eps": "0.999", "delta": "1e-300"}),
    ("uniform-mass", {"delta": "1e-300"}), ("uniform-mass", {"delta": "0.9999999999"}),
    ("discrete-uniform", {"delta": "1e-9"}), ("discrete-uniform", {"delta": "0.999"}),
    ("discrete-laplace", {"eps": "1e-9"}), ("discrete-laplace", {"eps": "700"}),
    ("discrete-staircase", {"eps": "700", "Delta": "7"}),
]


@pytest.mark.parametrize("name, params", EXTREMES,
                         ids=[f"{n}-{p}" for n, p in EXTREMES])
@pytest.mark.parametrize("cost", ["amplitude", "power"])
def test_extremes_answer_or_refuse(name, params, cost):
    try:
        value = MECHANISMS[name](**params).value("cost", cost, 12)
    except DpsymError as exc:
        assert str(exc)
        return
    assert Fraction(value.text) > 0  # a finite positive decimal (no nan, no inf)


def test_json_output_is_valid(capsys):
    for argv in (["value", "truncated-laplace", "--eps", "1", "--delta", "1e-6", "--json"],
                 ["list", "--json"], ["compare", "--eps", "1", "--delta", "1e-6", "--json"],
                 ["series", "laplace", "--regime", "eps->0", "--order", "2", "--json"]):
        assert main(argv) == 0
        json.loads(capsys.readouterr().out)


def test_battery_size():
    assert len(CLI_BAD) + len(API_BAD) + 2 * len(EXTREMES) >= 200


EXTREME_CLI = [
    (["value", "laplace", "--eps", "1e-300", "--cost", "moment:15", "--json"],
     "1.30767436800000000000000000000e+4512"),
    (["compare", "--eps", "1e-300", "--cost", "moment:20", "--digits", "6"], "e+6018"),
    (["sweep", "laplace", "--param", "eps=1e-300", "--cost", "moment:15"], "e+4512"),
    (["renyi", "staircase", "--eps", "1e5", "--order", "2"], "100000.0000000"),
    (["renyi", "staircase", "--eps", "1e20", "--order", "2"], "100000000000000000000.0000"),
    (["renyi", "staircase", "--eps", "1e100", "--order", "2"], "1.0000000000000"),
    (["renyi", "staircase", "--eps", "1e-45", "--order", "2"], "1.00000000000000"),
    (["compose", "staircase", "--eps", "1e20", "--count", "2", "--eps-target", "1"],
     "1.000000000"),
    (["compose", "laplace", "--eps", "1e100", "--count", "2", "--eps-target", "1"],
     "0.9999999999 <= delta <= 1 "),
    (["compose", "discrete-laplace", "--eps", "log(2)/3", "--sensitivity", "3", "--count",
      "4", "--eps-target", "1"], "0\n"),
    (["compose", "discrete-laplace", "--eps", "log(3)", "--sensitivity", "2", "--count",
      "4", "--eps-target", "1"], "0.5042302050"),
]


@pytest.mark.parametrize(("argv", "needle"), EXTREME_CLI,
                         ids=[" ".join(a)[:60] for a, _ in EXTREME_CLI])
def test_extreme_cli_answers(argv, needle, capsys):
    """Values beyond Python's 4300-digit string limit, exponents beyond decimal's range,
    geometric ratios that round to 1 at 40 digits: answered, exit 0."""
    code = main(argv)
    captured = capsys.readouterr()
    assert code == 0 and captured.err == "", captured.err
    assert needle in captured.out, captured.out[:300]
