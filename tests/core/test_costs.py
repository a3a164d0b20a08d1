"""Costs written as expressions in x: the grammar, the canonical names, the hypotheses of
the theorems decided (symmetric, defined, non-decreasing in |x|, non-negative) and the
refusals naming the one that fails."""

from __future__ import annotations

from fractions import Fraction

import pytest
import sympy as sp
from hypothesis import given, settings
from hypothesis import strategies as st

from dpsym.core.costs import AMPLITUDE, POWER, Cost, expression_text, parse_cost
from dpsym.core.monotone import behaviour, majorant
from dpsym.errors import DomainError
from dpsym.symbols import y


@pytest.mark.parametrize(("text", "named"), [
    ("abs(x)", AMPLITUDE), ("x^2", POWER), ("abs(x)^2", POWER), ("x**2", POWER),
    ("sqrt(x^2)", AMPLITUDE), ("max(abs(x), -1)", AMPLITUDE),
])
def test_powers_are_the_named_costs(text, named):
    assert parse_cost(text) is named or parse_cost(text) == named
    assert parse_cost(text).name == named.name


@pytest.mark.parametrize(("text", "name"), [
    ("x^4", "moment:4"), ("abs(x)^(3/2)", "moment:3/2"), ("sqrt(abs(x))", "moment:1/2"),
    ("abs(x)^20", "moment:20"),
])
def test_moments(text, name):
    assert parse_cost(text).name == name


@pytest.mark.parametrize("text", [
    "min(abs(x), 3)", "abs(x) + x^2", "log(1 + abs(x))", "abs(x) > 2", "abs(x) >= 2",
    "2*abs(x)", "abs(x)^3 + x^4", "max(abs(x), 1)", "1 - exp(-abs(x))",
    "abs(x) + 3*(abs(x) >= 1)", "1 + abs(x)^(5/2)", "min(exp(abs(x)), 5)",
    "abs(x)^21", "exp(abs(x)/2)",
])
def test_expressions_round_trip_through_their_name(text):
    cost = parse_cost(text)
    assert not cost.is_power
    assert parse_cost(cost.name) == cost
    assert parse_cost(cost.function) == cost  # the API's sympy form


def test_a_sympy_expression_in_any_symbol():
    t = sp.Symbol("t")
    assert parse_cost(sp.Abs(t)) is AMPLITUDE
    assert parse_cost(t**2) == POWER
    assert parse_cost(sp.Min(sp.Abs(t), 3)).name == "min(abs(x), 3)"
    indicator = sp.Piecewise((1, sp.Abs(t) > 2), (0, True))
    assert parse_cost(indicator).name == "abs(x) > 2"
    with pytest.raises(DomainError, match="Float"):
        parse_cost(sp.Abs(t) * sp.Float(0.5))
    with pytest.raises(DomainError, match="one variable"):
        parse_cost(sp.Abs(t) + sp.Symbol("s"))


def test_shape_of_the_clipped_and_indicator_costs():
    clipped = parse_cost("min(abs(x), 3)").shape
    assert clipped.cuts == (0, 3) and clipped.values == (0, 3) and clipped.bounded
    assert [pc.expr for pc in clipped.pieces] == [y, 3]
    strict, wide = parse_cost("abs(x) > 2").shape, parse_cost("abs(x) >= 2").shape
    assert strict.values == (0, 0) and wide.values == (0, 1)  # L(2) decided by > or >=
    assert strict.rational and not parse_cost("log(1 + abs(x))").shape.rational
    assert parse_cost("min(exp(abs(x)), 5)").shape.cuts == (0, sp.log(5))


@pytest.mark.parametrize(("text", "needle"), [
    ("abs(x) + x", "symmetric"), ("x^3", "symmetric"), ("exp(x)", "symmetric"),
    ("exp(-abs(x))", "non-decreasing"), ("x^2 - abs(x)", "non-decreasing"),
    ("abs(x) < 2", "non-decreasing"), ("-abs(x)", "non-decreasing"),
    ("1/abs(x)", "non-decreasing"), ("abs(abs(x) - 1)", "non-decreasing"),
    ("abs(x) - 1", "non-negative"), ("log(abs(x))", "finite"), ("log(abs(x) - 1)", "log"),
    ("min(log(1 + abs(x)), abs(x)/2)", "cannot locate"),
    ("abs(x)*exp(-abs(x)) + abs(x)", "cannot decide"),
    ("x^x", "both depend"), ("abs(y)", "unknown name"), ("abs(x) > 1 > 0", "comparison"),
])
def test_refusals_name_the_hypothesis(text, needle):
    with pytest.raises(DomainError, match=r"^cost: ") as info:
        parse_cost(text)
    assert needle in str(info.value)
    assert "\n" not in str(info.value)


def test_unknown_names_keep_their_suggestions():
    with pytest.raises(DomainError, match="did you mean 'power'"):
        parse_cost("powr")


def test_cost_is_one_or_the_other():
    with pytest.raises(TypeError):
        Cost(sp.Integer(1), y)


def test_polynomial_monotonicity_is_decided_exactly():
    # y^3 - y^2 + y has a derivative 3y^2 - 2y + 1 > 0 (no real root): non-decreasing,
    # though neither term alone says so
    found = behaviour(y**3 - y**2 + y, y, sp.Integer(0), sp.oo, "test")
    assert found.direction == 1 and found.sign == 1
    # y^3 - 3y^2 + 3y = (y - 1)^3 + 1: a stationary point at 1, still non-decreasing
    assert behaviour(y**3 - 3 * y**2 + 3 * y, y, sp.Integer(0), sp.oo, "t").direction == 1
    assert behaviour(y**3 - 3 * y**2 + 2 * y, y, sp.Integer(0), sp.oo, "t").direction is None


def test_majorants_bound_the_growth():
    assert majorant(sp.log(1 + y), y, Fraction(1)).rate == 0
    assert majorant(sp.exp(y / 3), y, Fraction(1)).rate == Fraction(1, 3)
    assert majorant(sp.exp(y**2), y, Fraction(1)) is None
    assert majorant(sp.exp(sp.sqrt(y)), y, Fraction(1), Fraction(1, 64)).rate \
        == Fraction(1, 64)


@settings(max_examples=8, deadline=None, derandomize=True)
@given(st.lists(st.tuples(st.integers(0, 5), st.integers(1, 4)), min_size=1, max_size=3),
       st.integers(1, 6))
def test_sums_of_non_negative_terms_are_accepted(terms, cut):
    """Every sum of non-negative multiples of |x|^p and min(|x|, T) is a cost whose
    shape agrees with the expression at rational points (deterministic: no false alarm)."""
    expr = sp.Add(*[c * sp.Abs(sp.Symbol("x", real=True)) ** p for c, p in terms]) \
        + sp.Min(sp.Abs(sp.Symbol("x", real=True)), cut)
    cost = parse_cost(expr)
    for t in (Fraction(1, 3), Fraction(5, 2), Fraction(cut), Fraction(7)):
        point = sp.Rational(t.numerator, t.denominator)
        assert sp.nsimplify(cost.shape.value(point) - cost.half.subs(y, point)) == 0
    assert expression_text(cost.half) == cost.name or cost.is_power
