r"""Tests of :mod:`dpsym.symbolic.tidy`: the rewritings keep every expression equal and give the
promised forms.

Equality is checked symbolically (``simplify(out - in) == 0``, after rewriting hyperbolic
functions as exponentials and expanding logarithms) and numerically at a
rational point to 40 digits; the forms by the exact output (one logarithm per group of
logarithms with rational ratios, logarithms untouched by factoring, no hyperbolic
functions).
"""

from __future__ import annotations

import mpmath
import pytest
import sympy as sp

from dpsym.symbolic.tidy import combine_logs, factor, simplified, tidy
from dpsym.symbols import delta, eps

x = sp.Symbol("x", positive=True)
a, b = sp.symbols("a b", positive=True)
y = sp.Symbol("y", real=True)
POINT = {x: sp.Rational(3, 7), a: sp.Rational(5, 2), b: sp.Rational(2, 9), y: sp.Rational(-4, 3),
         eps: sp.Rational(7, 5), delta: sp.Rational(1, 10)}


def assert_equal(out: sp.Expr, expr: sp.Expr) -> None:
    difference = sp.expand_log((out - expr).rewrite(sp.exp), force=True)
    assert sp.simplify(difference) == 0, (out, expr)
    with mpmath.workdps(50):
        diff = sp.N((out - expr).subs(POINT), 50)
        assert abs(diff) < 1e-40, diff


def logs(expr: sp.Expr) -> set[sp.Expr]:
    return set(expr.atoms(sp.log))


# ---------------------------------------------------------------------- combine_logs
COMBINE = [
    (sp.log(2 * delta + sp.exp(eps) - 1) - sp.log(2 * delta), 1),
    (sp.Rational(1, 2) * sp.log(a) + sp.Rational(3, 2) * sp.log(b), 1),
    (x * sp.log(a) - x * sp.log(b), 1),
    (2 * sp.log(a) - 3 * sp.log(b) + sp.log(x), 1),
    (sp.log(a) + x * sp.log(b), 2),  # different common factors: two groups
    (sp.exp(sp.log(a) - sp.log(b)) + 1, 0),  # inside a function argument
    (sp.log(-1 - y**2) + sp.log(a), 2),  # a non-positive argument is never combined
]


@pytest.mark.parametrize(("expr", "n_logs"), COMBINE, ids=range(len(COMBINE)))
def test_combine_logs_keeps_the_value(expr: sp.Expr, n_logs: int) -> None:
    out = combine_logs(expr)
    assert_equal(out, expr)
    assert len(logs(out)) == n_logs, out


def test_combine_logs_forms() -> None:
    out = combine_logs(sp.log(2 * delta + sp.exp(eps) - 1) - sp.log(2 * delta))
    assert out in (sp.log((2 * delta + sp.exp(eps) - 1) / (2 * delta)),
                   -sp.log(2 * delta / (2 * delta + sp.exp(eps) - 1)))
    out = combine_logs(sp.Rational(1, 2) * sp.log(a) + sp.Rational(3, 2) * sp.log(b))
    assert out == sp.log(a * b**3) / 2
    assert combine_logs(x * sp.log(a) - x * sp.log(b)) == x * sp.log(a / b)
    assert combine_logs(sp.exp(sp.log(a) - sp.log(b)) + 1) == a / b + 1
    untouched = sp.log(-1 - y**2) + sp.log(a)
    assert combine_logs(untouched) == untouched
    single = 3 * sp.log(a + b)
    assert combine_logs(single) == single
    assert combine_logs(x) == x and combine_logs(2) == 2


# ---------------------------------------------------------------------- factor
FACTOR = [
    x * sp.log(a / b) + sp.log(a / b),
    sp.log(a / b) * (x**2 - 1) / (x - 1),
    1 / (x + 1) + x / (x + 1) + sp.log(a) - sp.log(b),
    sp.log((x**2 - 1) / (x + 1)) / (x + 2) + 1,
    (x**2 - 1) / (x**2 + 2 * x + 1),
]


@pytest.mark.parametrize("expr", FACTOR, ids=range(len(FACTOR)))
def test_factor_keeps_the_value(expr: sp.Expr) -> None:
    assert_equal(factor(expr), expr)


def test_factor_forms() -> None:
    """One factored fraction; logarithms are atoms (``sympy.factor`` would split them)."""
    assert sp.factor(x * sp.log(a / b) + sp.log(a / b)) == (x + 1) * (sp.log(a) - sp.log(b))
    assert factor(x * sp.log(a / b) + sp.log(a / b)) == (x + 1) * sp.log(a / b)
    assert factor(sp.log(a / b) * (x**2 - 1) / (x - 1)) == (x + 1) * sp.log(a / b)
    out = factor(sp.log((x**2 - 1) / (x + 1)) / (x + 2) + 1)
    assert logs(out) == {sp.log((x**2 - 1) / (x + 1))}
    assert sp.fraction(out)[1] == x + 2
    assert factor((x**2 - 1) / (x**2 + 2 * x + 1)) == (x - 1) / (x + 1)
    assert factor(1 / (x + 1) + x / (x + 1) + sp.log(a) - sp.log(b)) in (
        1 + sp.log(a / b), 1 - sp.log(b / a))


# ---------------------------------------------------------------------- tidy
TIDY = [
    sp.tanh(x),
    sp.cosh(x) * sp.log(a) - sp.cosh(x) * sp.log(b),
    sp.log(sp.exp(eps) + 1) - sp.log(2),
    sp.exp(x) * sp.exp(2 * x) / (sp.exp(3 * x) + sp.exp(3 * x)),
    sp.sinh(eps) / (sp.cosh(eps) - 1),
]


@pytest.mark.parametrize("expr", TIDY, ids=range(len(TIDY)))
def test_tidy_keeps_the_value(expr: sp.Expr) -> None:
    out = tidy(expr)
    assert_equal(out, expr)
    assert not out.has(sp.tanh, sp.cosh, sp.sinh), out


def test_tidy_forms() -> None:
    assert tidy(sp.exp(x) * sp.exp(2 * x) / (sp.exp(3 * x) + sp.exp(3 * x))) == sp.Rational(1, 2)
    out = tidy(sp.tanh(x))
    assert sp.fraction(out)[1] == sp.exp(2 * x) + 1
    assert len(logs(tidy(sp.cosh(x) * sp.log(a) - sp.cosh(x) * sp.log(b)))) == 1
    assert len(logs(tidy(sp.log(sp.exp(eps) + 1) - sp.log(2)))) == 1


def test_factor_is_kept_per_expression_not_per_printed_form():
    """``factor`` keeps its results by the expression itself: a symbol with other
    assumptions, or a float of another precision, that prints alike is another argument
    and gets its own result (twice, so that the second call is the kept one)."""
    positive, plain = sp.Symbol("x", positive=True), sp.Symbol("x")
    for _ in range(2):
        assert factor(positive**2 - 1).free_symbols == {positive}
        assert factor(plain**2 - 1).free_symbols == {plain}
        for digits, bits in ((15, 53), (30, 103)):
            tenth = sp.Float("0.1", digits)
            found = factor(tenth * plain + tenth)
            assert [f._prec for f in found.atoms(sp.Float)] == [bits]
            assert found.as_coeff_Mul() == (tenth, plain + 1)


def test_simplified_is_kept_per_expression():
    """``simplified`` is ``sympy.simplify``, kept by the expression itself (a symbol with
    other assumptions that prints alike gets its own result: sqrt(x^2) is x only for a
    positive x); each is asked twice, so that the second answer is the kept one."""
    positive, plain = sp.Symbol("x", positive=True), sp.Symbol("x")
    for _ in range(2):
        assert simplified(sp.sqrt(positive**2)) == positive
        assert simplified(sp.sqrt(plain**2)) == sp.sqrt(plain**2)
        assert simplified(sp.sin(plain)**2 + sp.cos(plain)**2) == 1
