"""Exact inputs: one parser (decimals, p/q, exact expressions) for the API and the CLI.

Irrational parameters are evaluated rigorously: values at eps = log(3) (and 1/3) are
checked on both certification paths against an independent mpmath computation written
here from the staircase's density, not from the engine.
"""

from __future__ import annotations

import builtins
import subprocess
import sys
from decimal import Decimal
from fractions import Fraction

import flint
import mpmath
import numpy as np
import pytest
import sympy as sp
from cli_helpers import run as cli_run

from dpsym import INPUT_RULE, DomainError, Staircase, StaircaseMD, parse_exact, parse_number
from dpsym.core.expressions import (
    MAX_DEPTH,
    MAX_LENGTH,
    compare,
    exact_ball,
    exact_complex_ball,
    parse,
    sign,
)
from dpsym.mechanisms import Laplace, TruncatedLaplace
from dpsym.precision import arb_workprec, workdps


# ---------------------------------------------------------------------- the grammar
@pytest.mark.parametrize(("text", "expected"), [
    ("2", sp.Integer(2)), ("-0.5", sp.Rational(-1, 2)), (".5", sp.Rational(1, 2)),
    ("1e-6", sp.Rational(1, 10**6)), ("2.5E+3", sp.Integer(2500)), ("1/3", sp.Rational(1, 3)),
    (" 1 / 3 ", sp.Rational(1, 3)), ("log(3)", sp.log(3)), ("ln(2)/2", sp.log(2) / 2),
    ("exp(-1)", sp.exp(-1)), ("sqrt(2)", sp.sqrt(2)),
    ("2^(1/3)", sp.Integer(2) ** sp.Rational(1, 3)),
    ("2**-1", sp.Rational(1, 2)), ("-2^2", sp.Integer(-4)), ("(1+2)*3", sp.Integer(9)),
    ("pi/4", sp.pi / 4), ("e", sp.E), ("E^2", sp.exp(2)), ("exp(log(3))", sp.Integer(3)),
    ("1 + log(1.5)", 1 + sp.log(sp.Rational(3, 2))), ("2*3/4", sp.Rational(3, 2)),
    ("2^3^2", sp.Integer(512)), ("-(-1)", sp.Integer(1)), ("sqrt(8)/2", sp.sqrt(2)),
])
def test_grammar(text: str, expected: sp.Expr) -> None:
    value = parse_exact(text, "eps")
    assert sp.simplify(sp.sympify(value) - expected) == 0 if not isinstance(value, Fraction) \
        else sp.Rational(value.numerator, value.denominator) == expected
    assert isinstance(value, Fraction) == expected.is_Rational


@pytest.mark.parametrize(("text", "fragment"), [
    ("", "expected a number"), ("1/0", "q > 0"), ("1/(2-2)", "division by zero"),
    ("log(0)", "needs x > 0"),
    ("log(-1)", "needs x > 0"), ("sqrt(-1)", "needs x >= 0"),
    ("(-8)^(1/3)", "fractional power"), ("2^log(3)", "exponents must be rational"),
    ("__import__('os')", "unexpected character"), ("os.system", "unexpected character"),
    ("x", "unknown name"), ("sin(1)", "unknown name"), ("1 2", "unexpected '2'"),
    ("exp(", "unexpected end"), ("(1", "expected ')'"), ("0^-1", "non-positive power"),
    ("10^(10^7)", "exponent takes at most"), ("3^999999", "out of range"),
    ("exp(10^6)", "exp(x) needs"), ("1e99999", "out of range"), ("π", "unexpected character"),
    ("(" * (MAX_DEPTH + 1) + "1" + ")" * (MAX_DEPTH + 1), "nesting deeper"),
    ("-(" * (MAX_DEPTH + 1) + "1" + ")" * (MAX_DEPTH + 1), "nesting deeper"),
    ("--1", "two signs"), ("1+" * MAX_LENGTH + "1", "characters"),
    ("exp(-40000)", "exp(x) needs"), ("1e-9000*1e-9000", "below 1e-"),
])
def test_bad_text_is_a_domain_error_naming_the_parameter(text: str, fragment: str) -> None:
    with pytest.raises(DomainError, match=r"^delta: ") as err:
        parse_exact(text, "delta")
    assert fragment in str(err.value)


def test_user_text_never_reaches_eval_or_sympify(monkeypatch: pytest.MonkeyPatch) -> None:
    real = sp.sympify

    def guarded(a, *args, **kwargs):
        assert not isinstance(a, str), f"sympify of a string: {a!r}"
        return real(a, *args, **kwargs)

    def no_eval(*args, **kwargs):
        raise AssertionError("eval called")

    monkeypatch.setattr(builtins, "eval", no_eval)
    monkeypatch.setattr(builtins, "exec", no_eval)
    monkeypatch.setattr(sp, "sympify", guarded)
    monkeypatch.setattr(sys.modules["sympy.core.sympify"], "sympify", guarded)
    for text in ("log(3)/2 + sqrt(2)^3 - exp(-1/2) * pi", "1/3", "2^-3"):
        parse(text, "eps")


def test_parse_number_is_the_same_grammar_but_rational() -> None:
    assert parse_number("2^-3", "x") == Fraction(1, 8)
    assert parse_number("exp(log(7))/2", "x") == Fraction(7, 2)
    with pytest.raises(DomainError, match="rational"):
        parse_number("log(3)", "x")


# ---------------------------------------------------------------------- python values
@pytest.mark.parametrize(("value", "expected"), [
    (0.3, Fraction(3, 10)), (1e-6, Fraction(1, 10**6)), (np.float64(0.3), Fraction(3, 10)),
    (np.float32(0.3), Fraction(3, 10)), (Decimal("0.30"), Fraction(3, 10)), (2, Fraction(2)),
    (np.int64(5), Fraction(5)), (Fraction(1, 3), Fraction(1, 3)),
    (sp.Rational(2, 7), Fraction(2, 7)), (mpmath.mpf(0.5), Fraction(1, 2)),
    (0.1 + 0.2, Fraction(30000000000000004, 10**17)),
])
def test_python_numbers(value: object, expected: Fraction) -> None:
    assert parse_exact(value, "eps") == expected


def test_floats_mean_the_decimal_they_print_as() -> None:
    # the README's Staircase(eps=0.3): the value at 3/10, not at the binary double
    assert Staircase(eps=0.3).values["eps"] == Fraction(3, 10)
    assert Staircase(eps=0.3).value("cost", "amplitude", 25).text == \
        Staircase(eps="0.3").value("cost", "amplitude", 25).text == "3.320866068166333052860721"
    assert "float means the decimal it prints as" in INPUT_RULE.replace("Python float", "float")


def test_sympy_numbers_are_exact_and_checked() -> None:
    assert Staircase(eps=sp.log(3)).values["eps"] == sp.log(3)
    assert Staircase(eps=sp.Float(0.3)).values["eps"] == Fraction(3, 10)  # like a float
    for bad in (sp.Symbol("t"), sp.sin(1), sp.I, sp.log(3) * sp.Symbol("t")):
        with pytest.raises(DomainError, match=r"^eps: "):
            Staircase(eps=bad)
    with pytest.raises(DomainError, match=r"^eps: "):
        parse_exact(float("nan"), "eps")
    with pytest.raises(DomainError, match=r"^eps: "):
        parse_exact(True, "eps")


# ---------------------------------------------------------------------- domains
def test_domains_are_decided_exactly_for_irrational_values() -> None:
    with pytest.raises(DomainError, match=r"^eps: must be in \(0"):
        Staircase(eps="log(1)")  # sympy's log(1) is 0
    with pytest.raises(DomainError, match=r"^eps: must be in \(0"):
        Staircase(eps="log(6) - log(2) - log(3)")  # zero, beyond any ball: simplification
    with pytest.raises(DomainError, match=r"^eps: must be in \(0"):
        Staircase(eps="2^(1/2) - sqrt(2)")
    with pytest.raises(DomainError, match=r"^eps: must be in \(0"):
        Staircase(eps="log(2) - 1")
    assert TruncatedLaplace(eps=1, delta="exp(-1)").values["delta"] == sp.exp(-1)
    with pytest.raises(DomainError, match=r"^delta: must be in \(0, 0.5\)"):
        TruncatedLaplace(eps=1, delta="exp(-1/2)")  # 0.607 > 1/2
    with pytest.raises(DomainError, match=r"^Delta: "):
        Laplace(eps=1, Delta="-sqrt(2)")
    assert sign(sp.log(3) - 1) == 1 and compare(sp.pi, Fraction(355, 113)) == -1
    # exactly the bound: e.g. delta = exp(-log(2)) is 1/2, refused where delta < 1/2
    with pytest.raises(DomainError, match=r"^delta: "):
        TruncatedLaplace(eps=1, delta="exp(-log(2))")


def test_rational_only_families_refuse_irrational_values_by_name() -> None:
    with pytest.raises(DomainError, match=r"^eps: staircase-md takes rational values only"):
        StaircaseMD(eps="log(3)", dim=2)


def test_keyword_aliases() -> None:
    m = Staircase(epsilon="1/2", sensitivity=2)
    assert dict(m.values) == {"eps": Fraction(1, 2), "Delta": Fraction(2)}
    with pytest.raises(DomainError, match=r"^eps: given twice"):
        Staircase(eps=1, epsilon=1)
    with pytest.raises(DomainError, match=r"^Delta: given twice"):
        Staircase(eps=1, Delta=1, sensitivity=2)
    assert repr(Staircase(eps="log(3)")) == "Staircase(eps='log(3)', Delta='1')"


# ---------------------------------------------------------------------- certified values
def _staircase_cost(e: mpmath.mpf, gamma: mpmath.mpf, p: int) -> mpmath.mpf:
    r"""E|X|^p of the staircase (Delta = 1) from its density, independently of the engine:
    :math:`a b^k` on :math:`[k, k + \gamma)`, :math:`a b^{k+1}` on :math:`[k + \gamma, k + 1)`,
    with the sums over k in closed form (:math:`\sum_k b^k k^j` by mpmath's polylog)."""
    bb = mpmath.exp(-e)
    a = (1 - bb) / (2 * (gamma + bb * (1 - gamma)))

    def period(k):
        return (((k + gamma) ** (p + 1) - k ** (p + 1))
                + bb * ((k + 1) ** (p + 1) - (k + gamma) ** (p + 1))) / (p + 1)

    return 2 * a * mpmath.nsum(lambda k: bb**k * period(k), [0, mpmath.inf])


def _optimal_power_cost(e: mpmath.mpf) -> mpmath.mpf:
    def slope(g):
        return mpmath.diff(lambda t: _staircase_cost(e, t, 2), g)

    g = mpmath.findroot(slope, mpmath.mpf("0.4"))
    return _staircase_cost(e, g, 2)


@pytest.mark.parametrize(("eps_text", "eps_mp"), [
    ("log(3)", lambda: mpmath.log(3)), ("1/3", lambda: mpmath.mpf(1) / 3)])
def test_values_at_exact_parameters_are_certified_on_both_paths(eps_text, eps_mp) -> None:
    m = Staircase(eps=eps_text)
    with workdps(60):
        power = mpmath.nstr(_optimal_power_cost(eps_mp()), 30, strip_zeros=False)
        e = eps_mp()
        amplitude = mpmath.nstr(mpmath.exp(e / 2) / mpmath.expm1(e), 30, strip_zeros=False)
    for method in ("ball", "mpmath"):
        assert m.value("cost", "power", 30, method=method).text == power
        assert m.value("cost", "amplitude", 30, method=method).text == amplitude
    if eps_text == "log(3)":
        assert amplitude.startswith("0.866025403784438646763723170")  # sqrt(3)/2


def test_cli_prints_certified_digits_of_exact_parameters(capsys) -> None:
    """The real entry point (a process) for one expression; the other expression and the
    refused one through the same ``main`` in process (the exit status and the one-line
    error of a separate process are tested in tests/cli/test_errors.py)."""
    with workdps(60):
        expected = {
            "log(3)": mpmath.nstr(_optimal_power_cost(mpmath.log(3)), 30, strip_zeros=False),
            "1/3": mpmath.nstr(_optimal_power_cost(mpmath.mpf(1) / 3), 30, strip_zeros=False),
        }
    argv = ["value", "staircase", "--cost", "power", "--digits", "30", "--eps"]
    run = subprocess.run([sys.executable, "-m", "dpsym", *argv, "log(3)"],
                         capture_output=True, text=True, timeout=120, check=False)
    assert run.returncode == 0, run.stderr
    assert run.stdout.strip() == expected["log(3)"]
    code, out, err = cli_run(capsys, *argv, "1/3")
    assert code == 0, err
    assert out.strip() == expected["1/3"]
    code, out, err = cli_run(capsys, "value", "staircase", "--eps", "log(1)")
    assert code == 2 and out == "" and err.startswith("dpsym: error: --eps: must be in (0")


def test_irrational_parameters_sample_and_profile() -> None:
    m = Staircase(eps="log(3)", Delta="sqrt(2)")
    assert m.value("cost", "amplitude", 20).text == "1.2247448713915890491"  # sqrt(6)/2
    draws = m.rvs(1000, random_state=3)
    assert draws.shape == (1000,) and np.isfinite(draws).all()
    # the mechanism is log(3)-DP at its own sensitivity: delta(log 3) = 0
    assert m.privacy_profile(sp.log(3), digits=10).text == "0"


def test_the_complex_ball_takes_the_principal_branches_and_the_real_one_refuses_them():
    r""":func:`exact_complex_ball` encloses :math:`i`, :math:`(-8)^{1/3} = 1 + i\sqrt{3}`
    and :math:`2^{\pi} = e^{\pi \log 2}`; :func:`exact_ball` stays real: it refuses
    :math:`i` and an exponent that is not rational, and a real root of a negative number
    is not finite."""
    with arb_workprec(200):
        one_third = sp.Pow(-8, sp.Rational(1, 3), evaluate=False)
        ball = exact_complex_ball(one_third + sp.I)
        assert ball.real.contains(1) and ball.imag.overlaps(flint.arb(3).sqrt() + 1)
        assert float(ball.imag.rad()) < 1e-50
        power = exact_complex_ball(sp.Pow(2, sp.pi, evaluate=False))
        assert power.imag == 0 and power.real.overlaps(flint.arb(2) ** flint.arb.pi())
        for refused in (sp.I, sp.Pow(2, sp.pi, evaluate=False)):
            with pytest.raises(DomainError):
                exact_ball(refused)
        assert not exact_ball(one_third).is_finite()
