"""Names typed by users: aliases, any case, and "did you mean" on a near miss."""

from __future__ import annotations

import pytest
import sympy as sp
from cli_helpers import assert_one_line_error, run

from dpsym.core.costs import AMPLITUDE, POWER, parse_cost
from dpsym.core.names import resolve, suggestion
from dpsym.core.params import check_quantity
from dpsym.errors import DomainError
from dpsym.mechanisms import Staircase, get_mechanism
from dpsym.reports.printing import ascending, expression_text, parse_expression
from dpsym.symbolic.regimes import REGIME_ALIASES, REGIMES, get_regime
from dpsym.symbols import b, eps


@pytest.mark.parametrize(("alias", "canonical"), [*REGIME_ALIASES.items(),
                                                  ("EPS0", "eps->0"), ("Eps->0", "eps->0")])
def test_shell_safe_regime_names(alias, canonical):
    assert ">" not in alias or alias.casefold().startswith("eps-")
    assert get_regime(alias) is REGIMES[canonical]


def test_every_regime_has_a_shell_safe_alias():
    assert set(REGIME_ALIASES.values()) == set(REGIMES)
    assert all(any(">" not in a for a, c in REGIME_ALIASES.items() if c == r) for r in REGIMES)


@pytest.mark.parametrize(("text", "cost"), [("l1", AMPLITUDE), ("L2", POWER),
                                            ("Amplitude", AMPLITUDE), ("POWER", POWER),
                                            ("MOMENT:2", POWER)])
def test_cost_aliases_and_case(text, cost):
    assert parse_cost(text) == cost


@pytest.mark.parametrize(("call", "needle"), [
    (lambda: get_mechanism("stairase"), "did you mean 'staircase'?"),
    (lambda: get_regime("eps>0"), "did you mean 'eps->0'?"),
    (lambda: parse_cost("powr"), "did you mean 'power'?"),
    (lambda: get_mechanism("zzz"), "valid: laplace"),
])
def test_near_misses_suggest_the_name(call, needle):
    with pytest.raises(DomainError) as info:
        call()
    assert needle in str(info.value)
    if "zzz" in str(info.value):
        assert "did you mean" not in str(info.value)


def test_case_insensitive_only_when_unambiguous():
    assert resolve("x", "thing", "ab", ["AB", "cd"]) == "AB"
    with pytest.raises(DomainError):
        resolve("x", "thing", "ab", ["AB", "Ab"])
    assert suggestion("LAPLACE-md", ["laplace-md", "laplace"]) == "laplace-md"
    with pytest.raises(DomainError):
        resolve("x", "thing", 3, ["a"])


def test_cli_names_in_any_case_and_suggestions(capsys):
    code, out, err = run(capsys, "value", "Staircase", "--eps", "1", "--cost", "L2",
                         "--digits", "5")
    assert (code, err) == (0, "") and out.strip()
    code, out, err = run(capsys, "value", "staircse", "--eps", "1")
    assert_one_line_error(code, out, err, "did you mean 'staircase'?")


def test_series_print_in_increasing_powers(capsys):
    """The eps->oo series of the staircase has b^(2/3) before b (sympy's own order put b
    first); the printed text reads back to the same expression."""
    series = Staircase.series("cost", "power", "eps->oo", 2)
    text = expression_text(ascending(series, b), ordered=True)
    assert text.index("b**(2/3)") < text.index(" b*") < text.index("b**(5/3)")
    assert sp.simplify(parse_expression(text).removeO() - series.removeO()) == 0
    code, out, _ = run(capsys, "series", "staircase", "--cost", "power", "--regime",
                       "epsinf", "--order", "2")
    assert code == 0 and out.strip() == text
    low = expression_text(ascending(Staircase.series("cost", "power", "eps->0", 3), eps),
                          ordered=True)
    assert low.index("/eps**2") < low.index("/12") < low.index("/720")


@pytest.mark.parametrize(("argv", "needle"), [
    (("value", "staircase", "--epz", "1"), "did you mean --eps?"),
    (("value", "staircase", "--eps", "1", "--digts=5"), "did you mean --digits?"),
    (("vlaue", "staircase", "--eps", "1"), "did you mean 'value'?"),
    (("value", "staircase", "--eps", "1", "--method", "bal"), "did you mean 'ball'?"),
])
def test_unknown_flags_and_choices_suggest_the_closest(capsys, argv, needle):
    code, out, err = run(capsys, *argv)
    assert_one_line_error(code, out, err, needle)


def test_sweep_takes_json_like_every_command(capsys):
    import json

    code, out, err = run(capsys, "sweep", "laplace", "--param", "eps=1,2", "--digits", "5",
                         "--workers", "1", "--json")
    assert (code, err) == (0, "")
    assert [row["value"] for row in json.loads(out)["rows"]] == ["1.0000", "0.50000"]


def test_every_command_help_ends_with_examples_that_work(capsys):
    """Every subcommand's --help shows examples; each parses, and the quick ones run."""
    import shlex

    from dpsym.cli.parser import EXAMPLES, build_parser, parse_args

    sub = next(a for a in build_parser()._actions if a.dest == "command")
    for name in sub.choices:
        code, out, _ = run(capsys, name, "--help")
        assert code == 0 and "examples:\n  $ dpsym " in out, name
        assert EXAMPLES[name], name
        for example in EXAMPLES[name]:
            argv = shlex.split(example)
            assert argv[0] == name and parse_args(argv).handler
            if name in ("value", "series", "formula", "list", "audit"):
                code, out, err = run(capsys, *argv)
                assert code == 0 and out and err == "", (example, err)


def test_quantities_in_any_case_on_the_command_line(capsys):
    code, out, err = run(capsys, "value", "staircase", "GAMMA", "--eps", "1", "--digits", "5")
    assert (code, out, err) == (0, "0.37754\n", "")
    code, out, err = run(capsys, "value", "staircase", "gama", "--eps", "1")
    assert_one_line_error(code, out, err, "did you mean 'gamma'?")
    code, out, err = run(capsys, "sweep", "Staircase", "Gamma", "--param", "eps=1",
                         "--digits", "5", "--workers", "1")
    assert code == 0 and "0.37754" in out
    with pytest.raises(DomainError, match="did you mean 'gamma'"):
        check_quantity(Staircase, "Gamma")  # the API takes names exactly
