"""What a reader sees: one vocabulary, one number layout and labelled values across the
commands, and the Python API's edges (positional first parameters, expectations)."""

from __future__ import annotations

import math
from fractions import Fraction

import mpmath
import pytest
from cli_helpers import assert_one_line_error, run, run_json

from dpsym import Laplace, LowerBound, Staircase, StaircaseMD, UniformMass
from dpsym.certified.evaluation import CERTIFICATES
from dpsym.certified.rounding import format_digits
from dpsym.core.names import redirection_hint
from dpsym.precision import workdps
from dpsym.reports.sweep import parse_values


def value_layout(text: str, digits: int) -> str:
    """``text`` laid out again by the formatter of ``dpsym value`` (the digits unchanged:
    a correctly rounded decimal of ``digits`` digits re-rounds to itself)."""
    with workdps(digits + 40):
        return format_digits(mpmath.mpf(text), digits)


# ------------------------------------------------------------------------- one vocabulary
def test_every_json_value_says_certificate(capsys):
    records = [
        run_json(capsys, "renyi", "laplace", "--eps", "1", "--order", "2"),
        run_json(capsys, "renyi", "truncated-laplace", "--eps", "1", "--delta", "0.1",
                 "--order", "2"),
        run_json(capsys, "value", "laplace", "--eps", "1"),
        run_json(capsys, "audit", "laplace", "--eps", "1", "--scale", "2"),
    ]
    for record in records:
        assert "certified" not in record
        assert record["certificate"] in CERTIFICATES
    assert records[0]["certificate"] == "enclosure"
    assert records[1]["value"] == "inf" and records[1]["certificate"] == "exact"
    assert "bounded support" in records[1]["reason"]


# ------------------------------------------------------------------------- inf is inf
def test_infinite_values_print_inf(capsys):
    code, out, _ = run(capsys, "renyi", "uniform-mass", "--delta", "0.1", "--order", "2")
    assert code == 0 and out.splitlines()[0] == "inf" and "bounded support" in out
    # no finite eps' meets delta 0.001 after three truncated Laplacians (each leaks 0.01)
    code, out, _ = run(capsys, "compose", "truncated-laplace", "--eps", "1", "--delta",
                       "0.01", "--count", "3", "--delta-target", "0.001")
    assert (code, out) == (0, "eps = inf\n")
    code, out, _ = run(capsys, "compose", "gaussian", "--eps", "0.5", "--delta", "1e-5",
                       "--count", "3", "--delta-target", "0")
    assert (code, out) == (0, "eps = inf\n")
    # the largest loss of the Laplace mechanism is finite: a number, in value's layout
    code, out, _ = run(capsys, "renyi", "laplace", "--eps", "1", "--order", "inf",
                       "--digits", "10")
    assert (code, out) == (0, "1.000000000\n")


# ------------------------------------------------------------------------- labels
def test_compose_names_what_it_prints(capsys):
    code, out, _ = run(capsys, "compose", "staircase", "--eps", "1", "--count", "10",
                       "--eps-target", "3")
    assert (code, out) == (0, "delta = 0.5744579982\n")
    code, out, _ = run(capsys, "compose", "staircase", "--eps", "1", "--count", "10",
                       "--delta-target", "1e-6")
    assert (code, out) == (0, "eps = 9.999962904\n")
    code, out, _ = run(capsys, "compose", "laplace", "--eps", "1", "--count", "10",
                       "--eps-target", "3", "--interval", "1/100")
    assert (code, out) == (0, "0.4736670025 <= delta <= 0.4736880860  (interval 1/100)\n")
    # the JSON keeps its keys
    data = run_json(capsys, "compose", "staircase", "--eps", "1", "--count", "10",
                    "--eps-target", "3")
    assert data["delta"] == "0.5744579982"


# ------------------------------------------------------------------------- one layout
@pytest.mark.parametrize("sigma", ["3.5", "4"])  # delta about 2.7e-5 and 2.9e-6
def test_audit_lays_numbers_out_as_value(capsys, sigma):
    code, out, _ = run(capsys, "audit", "analytic-gaussian", "--eps", "1", "--sigma", sigma,
                       "--digits", "12")
    assert code == 0
    text = out.splitlines()[0].removeprefix("delta = ")
    assert text == value_layout(text, 12)


def test_numbers_share_value_layout_across_commands(capsys):
    texts = []
    _, out, _ = run(capsys, "renyi", "staircase", "--eps", "1e-3", "--order", "2",
                    "--digits", "8")
    texts.append(out.strip())
    _, out, _ = run(capsys, "compose", "gaussian", "--eps", "0.5", "--delta", "1e-5",
                    "--count", "3", "--eps-target", "5")
    texts.append(out.strip().removeprefix("delta = "))
    _, out, _ = run(capsys, "compose", "laplace", "--eps", "1", "--count", "3",
                    "--eps-target", "2.99")
    texts += [part for part in out.split() if part[0].isdigit()][:2]
    _, out, _ = run(capsys, "sweep", "staircase", "gamma", "--param", "eps=30,12",
                    "--digits", "6", "--workers", "1")
    texts += [line.split(",")[1] for line in out.splitlines()[1:]]
    _, out, _ = run(capsys, "audit", "analytic-gaussian", "--eps", "1", "--sigma", "3.5",
                    "--digits", "12")
    texts.append(out.splitlines()[0].removeprefix("delta = "))
    digits = [8, 10, 10, 10, 6, 6, 12]
    for text, n in zip(texts, digits, strict=True):
        assert text == value_layout(text, n), text
    # both sides of the switch to scientific notation are exercised
    assert any("e-" in t for t in texts) and any(t.startswith("0.0000") for t in texts)


def test_sweep_prints_parameters_as_written():
    assert parse_values("log:0.01:10:5", "eps") == ["0.01", "0.0562341", "0.316228",
                                                    "1.77828", "10"]
    assert parse_values("log:1:100:3", "eps") == ["1", "10", "100"]
    assert parse_values("log:1/3:3:3", "eps") == ["1/3", "1", "3"]
    assert parse_values("log:1e-8:1:3", "eps") == ["1e-8", "0.0001", "1"]
    assert not any(v.endswith(".0") for v in parse_values("log:1:1e6:7", "eps"))


# ------------------------------------------------------------------------- advice
def test_ball_refusal_points_to_the_certified_path(capsys):
    code, out, err = run(capsys, "value", "staircase", "--eps", "1", "--cost", "moment:1.5",
                         "--method", "ball")
    assert_one_line_error(code, out, err, "method 'auto'")
    assert "use method 'mpmath'" not in err
    data = run_json(capsys, "value", "staircase", "--eps", "1", "--cost", "moment:1.5")
    assert data["certificate"] in ("exact", "enclosure")


@pytest.mark.parametrize(("argv", "quoted"), [
    (["series", "staircase", "--regime", "eps-", "--order", "3"], "'eps->0'"),
    (["series", "staircase", "--regime", "delta-", "--order", "3"], "'delta->0'"),
    (["renyi", "staircase", "--series", "alpha-"], "'alpha->1'"),
])
def test_a_regime_cut_by_the_shell_is_told_to_quote(capsys, argv, quoted):
    code, out, err = run(capsys, *argv)
    assert_one_line_error(code, out, err, "quote the argument")
    assert quoted in err


def test_redirection_hint_only_for_cut_names():
    assert redirection_hint("eps", ["eps->0"]) is None
    assert redirection_hint("lap-", ["eps->0"]) is None
    assert "'eps->0'" in redirection_hint(" EPS- ", ["eps->0"])


# ------------------------------------------------------------------------- positional
def test_first_parameter_is_positional():
    assert Staircase(1).values == Staircase(eps=1).values
    assert Laplace(0.5).values == Laplace(eps=0.5).values
    assert UniformMass(0.1).values["delta"] == Fraction(1, 10)
    assert UniformMass("0.1", Delta=2).values == UniformMass(delta="0.1", Delta=2).values
    assert StaircaseMD(1, dim=3).values == StaircaseMD(eps=1, dim=3).values
    assert LowerBound(1, delta="0.1").values == LowerBound(eps=1, delta="0.1").values
    assert Staircase(1).value("cost", digits=12).text == \
        Staircase(eps=1).value("cost", digits=12).text


@pytest.mark.parametrize("make", [
    lambda: Staircase(1, eps=2), lambda: Staircase(1, 2), lambda: UniformMass(0.1, delta=0.2),
    lambda: Laplace(1, epsilon=1),
])
def test_positional_misuse_is_a_type_error(make):
    with pytest.raises(TypeError, match=r"positional argument|multiple values"):
        make()


def test_declared_noise_takes_its_first_parameter_positionally(tmp_path):
    from dpsym.mechanisms.declared import load_noise

    path = tmp_path / "clipped.json"
    path.write_text('{"name": "clipped-laplace", "normalise": true, "params": {"A": '
                    '{"domain": "(0, oo)"}}, "pieces": [["0", "A", "exp(-x)"]]}')
    noise = load_noise(path)
    assert noise(2).values == noise(A=2).values
    with pytest.raises(TypeError, match="multiple values for argument 'A'"):
        noise(2, A=3)
    # E X^2 of the density proportional to exp(-|x|) on [-2, 2]: (2 - 10 e^{-2})/(1 - e^{-2})
    exact = (2 - 10 * math.exp(-2)) / (1 - math.exp(-2))
    assert float(noise(2).value("cost", "power", 15).text) == pytest.approx(exact, rel=1e-14)


# ------------------------------------------------------------------------- expect
def _staircase_expect_cos(gamma: mpmath.mpf, epsilon: mpmath.mpf) -> mpmath.mpf:
    r"""E cos(X) of the staircase (Delta = 1) from its definition: level a b^k on
    [k, k + gamma), a b^{k+1} on [k + gamma, k + 1), a = (1 - b)/(2(gamma + (1 - gamma) b)),
    summed by mpmath (each step integrated in closed form)."""
    b = mpmath.exp(-epsilon)
    a = (1 - b) / (2 * (gamma + (1 - gamma) * b))
    sin = mpmath.sin
    return 2 * mpmath.nsum(lambda k: a * b**k * (sin(k + gamma) - sin(k))
                           + a * b ** (k + 1) * (sin(k + 1) - sin(k + gamma)), [0, mpmath.inf])


def test_expect_of_a_cost_is_certified():
    # Laplace of scale 1: E min(|X|, 3) = int_0^3 y e^{-y} dy + 3 e^{-3} = 1 - e^{-3}
    found = Laplace(1).expect("min(abs(x), 3)", digits=30)
    assert found.certificate == "enclosure"
    with workdps(50):
        assert found.text == format_digits(1 - mpmath.exp(-3), 30)
    # an odd part has mean zero: E (x^2 + x) = E x^2 = 2 for the Laplace of scale 1
    assert Laplace(1).expect("x^2 + x", digits=20).text == format_digits(mpmath.mpf(2), 20)
    m = Staircase(1)
    assert m.expect("abs(x)", 25).text == m.moment_value(1, 25).text


def test_expect_of_any_function_by_quadrature():
    import numpy as np
    from sympy import cos

    from dpsym.symbols import x

    m = Staircase(1, gamma="1/2")
    with workdps(40):
        exact = _staircase_expect_cos(mpmath.mpf(1) / 2, mpmath.mpf(1))
    for func in (cos(x), mpmath.cos):
        found = m.expect(func, digits=25)
        assert found.certificate == "agreement"
        with workdps(40):
            assert abs(found.number - exact) < mpmath.mpf(10) ** -24 * abs(exact)
    found = m.expect(np.cos)  # float64 values: at most 14 digits
    assert found.digits == 14 and found.certificate == "agreement"
    assert float(found.number) == pytest.approx(float(exact), rel=1e-14)
    # discrete Laplace: E K^2 = 2 q/(1 - q)^2, q = e^{-eps}
    from dpsym import DiscreteLaplace

    q = math.exp(-1)
    value = DiscreteLaplace(1).expect(lambda k: k * k, digits=15)
    assert float(value.number) == pytest.approx(2 * q / (1 - q) ** 2, rel=1e-14)
    assert Staircase(1).expect().text == "0"
    with pytest.raises(ValueError, match="func"):
        Staircase(1).expect(3)
    with pytest.raises(ValueError, match="func"):
        Staircase(1).expect("eps*x")


def test_scipy_expect_is_routed_without_warnings():
    import warnings

    import numpy as np

    m = Staircase(1)
    frozen = m.to_scipy()
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert frozen.expect(abs) == float(m.moment_value(1, 20).number)
        assert frozen.expect(np.cos) == pytest.approx(float(m.expect(mpmath.cos, 20).number),
                                                      rel=1e-15)
        assert frozen.expect() == 0.0
    with workdps(40):
        exact = _staircase_expect_cos(mpmath.mpf(1) / 2, mpmath.mpf(1))
    assert Staircase(1, gamma="1/2").to_scipy().expect(np.cos) == pytest.approx(
        float(exact), rel=1e-15)
    # a truncated or shifted expectation is scipy's own quadrature
    assert Laplace(1).to_scipy().expect(lambda t: 1.0, lb=0) == pytest.approx(0.5, rel=1e-8)


# ------------------------------------------------------------------------- formulas, series
def test_series_come_in_increasing_powers():
    import sympy as sp

    from dpsym.reports.printing import expression_text
    from dpsym.symbols import b, eps

    s = Staircase(1).series("gamma", "amplitude", "eps->oo", 3)
    powers = [t.as_coeff_exponent(b)[1] for t in s.args if not t.is_Order]
    assert powers == sorted(powers) and s.args[-1].is_Order
    assert expression_text(s, ordered=True) == \
        "sqrt(b) - b + b**(3/2) - b**2 + b**(5/2) + O(b**3)"
    # the same sum as sympy's evaluated one
    assert sp.Add(*s.args) == Staircase.series("gamma", "amplitude", "eps->oo", 3).doit()
    assert sp.expand(s - sp.Add(*s.args)).removeO() == 0
    low = LowerBound.series("cost", "power", "eps->0", 3)
    powers = [t.as_coeff_exponent(eps)[1] for t in low.args if not t.is_Order]
    assert powers == sorted(powers)


def test_formulas_are_their_shortest_proven_form():
    import sympy as sp

    from dpsym.symbols import b

    gamma = Staircase.formula("gamma", "amplitude")
    assert gamma == sp.sqrt(b) / (sp.sqrt(b) + 1)
    # the form the engine derives, and the definition's optimum, are the same function
    derived = sp.sqrt(b) / (1 - b) + b / (b - 1)
    for point in (sp.Rational(1, 7), sp.Rational(1, 2), sp.exp(-3)):
        assert sp.nsimplify(sp.N((gamma - derived).subs(b, point), 50), tolerance=1e-45) == 0
    t = sp.Symbol("t", positive=True)  # b = t^2: the rational form sympy's cancel misses
    assert sp.count_ops(gamma.subs(b, t**2)) < sp.count_ops(sp.cancel(derived).subs(b, t**2))
