"""Tests of the ``dpsym`` command (:mod:`dpsym.cli`).

The command runs in process through :func:`dpsym.cli.main` (which returns the exit
status), and a few times as a real subprocess to show that no traceback escapes.

Reference values are computed here independently of the engine, from the definitions of
the noise densities only: the staircase cost is integrated piece by piece with
``mpmath.quad`` and summed over the periods, and the optimal step fraction is found with
``mpmath.findroot`` on the numerical derivative.
"""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys
from fractions import Fraction

import mpmath
import pytest
import sympy as sp

from dpsym.bounds import BOUNDS
from dpsym.cli import main, parse_expression
from dpsym.errors import DomainError, DpsymError, UnsupportedError
from dpsym.mechanisms import MECHANISMS, Laplace
from dpsym.mechanisms.base import Value, eps_param, sensitivity_param
from dpsym.params import UNIT_OPEN, Param
from dpsym.symbols import PUBLIC_SYMBOLS, in_eps

ENV = {**os.environ, "PYTHONHASHSEED": "0"}
#: Every entry of the command (mechanisms, then lower bounds).
ENTRIES = {**MECHANISMS, **BOUNDS}
#: Option values used for each parameter when an entry is evaluated generically.
TYPICAL = {"eps": "0.7", "delta": "0.1"}


def typical_args(cls) -> list[str]:
    """``--eps 0.7 --delta 0.1`` for the parameters ``cls`` declares (others default)."""
    argv = []
    for prm in cls.params:
        if prm.name in TYPICAL:
            argv += [f"--{prm.name}", TYPICAL[prm.name]]
    return argv


def structural_defaults(cls) -> dict[str, str]:
    """The discrete parameters (dim, grid) ``formula``/``series`` report, at their defaults."""
    return {prm.name: prm.default for prm in cls.params
            if prm.domain.integer and prm.name != "Delta" and prm.default is not None}


def assert_one_line_error(code: int, out: str, err: str, needle: str = "") -> None:
    assert code == 2, (out, err)
    assert out == ""
    assert err.startswith("dpsym: error: ") and err.count("\n") == 1, err
    assert "Traceback" not in err and "internal error" not in err
    assert needle in err, err


def run(capsys, *argv: str) -> tuple[int, str, str]:
    """Run ``dpsym argv`` in process; return (status, stdout, stderr)."""
    code = main(list(argv))
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def run_json(capsys, *argv: str):
    code, out, err = run(capsys, *argv, "--json")
    assert code == 0, err
    assert err == ""
    return json.loads(out)


def mp_from_text(text: str) -> mpmath.mpf:
    return mpmath.mpf(text)


def significant_digits(text: str) -> int:
    mantissa = text.lower().split("e")[0].lstrip("+-").replace(".", "").lstrip("0")
    return len(mantissa)


def agrees(text: str, exact: mpmath.mpf, digits: int) -> bool:
    """``text`` is ``exact`` rounded to ``digits`` significant digits (within one ulp)."""
    value = mp_from_text(text)
    return abs(value - exact) <= abs(exact) * mpmath.mpf(10) ** (1 - digits)


# ---------------------------------------------------------------------- independent values
def staircase_cost(gam, eps, delta, p):
    r"""E|X|^p of the staircase density, integrated on every piece and summed over k.

    With :math:`b = e^{-\varepsilon}` the density is :math:`a b^k` on
    :math:`[k\Delta, (k+\gamma)\Delta)` and :math:`a b^{k+1}` on
    :math:`[(k+\gamma)\Delta, (k+1)\Delta)`, :math:`a = (1-b)/(2\Delta(\gamma+(1-\gamma)b))`.
    """
    b = mpmath.exp(-eps)
    a = (1 - b) / (2 * delta * (gam + (1 - gam) * b))

    def f(x):
        return x**p

    total, k = mpmath.mpf(0), 0
    tol = mpmath.mpf(10) ** (-mpmath.mp.dps - 5)
    while True:
        lo, mid, hi = k * delta, (k + gam) * delta, (k + 1) * delta
        term = b**k * (mpmath.quad(f, [lo, mid], method="gauss-legendre")
                       + b * mpmath.quad(f, [mid, hi], method="gauss-legendre"))
        total += term
        if k > 5 and abs(term) < tol * abs(total):
            break
        k += 1
    return 2 * a * total


def staircase_optimum(eps, delta, p, guess):
    """(gamma*, cost*) by findroot on the derivative of the integrated cost."""
    def cost(g):
        return staircase_cost(g, eps, delta, p)

    gam = mpmath.findroot(lambda g: mpmath.diff(cost, g), mpmath.mpf(guess), solver="secant",
                          tol=mpmath.mpf(10) ** (-2 * mpmath.mp.dps // 3))
    assert 0 < gam < 1
    # The minimum: the cost is larger on both sides.
    h = mpmath.mpf(10) ** -8
    assert cost(gam) < cost(gam + h) and cost(gam) < cost(gam - h)
    return gam, cost(gam)


def discrete_staircase_cost(r, eps, delta, p):
    """E|X|^p of the discrete staircase, summing the mass function over i >= 0 directly."""
    b = mpmath.exp(-eps)
    # Unnormalised masses: b^k on j < r and b^(k+1) on r <= j < Delta, for i = k Delta + j.
    mass = moment = mpmath.mpf(0)
    tol = mpmath.mpf(10) ** (-mpmath.mp.dps - 5)
    k = 0
    while True:
        period_mass = period_moment = mpmath.mpf(0)
        for j in range(delta):
            i = k * delta + j
            w = b**k if j < r else b ** (k + 1)
            weight = 1 if i == 0 else 2   # +i and -i
            period_mass += weight * w
            period_moment += weight * w * mpmath.mpf(i) ** p
        mass += period_mass
        moment += period_moment
        if k > 5 and period_mass < tol * mass and period_moment <= tol * moment:
            break
        k += 1
    return moment / mass


# ---------------------------------------------------------------------- value
def test_value_staircase_power_40_digits_matches_independent_integration(capsys):
    data = run_json(capsys, "value", "staircase", "--cost", "power", "--eps", "2",
                    "--digits", "40")
    assert data["mechanism"] == "staircase"
    assert data["quantity"] == "cost"
    assert data["cost"] == "power"
    assert data["digits"] == 40
    assert data["params"] == {"eps": "2", "Delta": "1"}
    assert significant_digits(data["value"]) == 40
    with mpmath.workdps(60):
        gam, cost = staircase_optimum(mpmath.mpf(2), mpmath.mpf(1), 2, "0.3")
        assert agrees(data["value"], cost, 40)
        gdata = run_json(capsys, "value", "staircase", "gamma", "--cost", "power", "--eps",
                         "2", "--digits", "25")
        assert significant_digits(gdata["value"]) == 25
        assert agrees(gdata["value"], gam, 25)


def test_value_staircase_amplitude_with_sensitivity(capsys):
    data = run_json(capsys, "value", "staircase", "--eps", "1", "--sensitivity", "1.5",
                    "--digits", "35")
    assert data["cost"] == "amplitude"
    assert data["params"] == {"eps": "1", "Delta": "1.5"}
    with mpmath.workdps(55):
        _, cost = staircase_optimum(mpmath.mpf(1), mpmath.mpf("1.5"), 1, "0.4")
        assert agrees(data["value"], cost, 35)


def test_value_discrete_staircase_matches_direct_sum(capsys):
    with mpmath.workdps(50):
        costs = {r: discrete_staircase_cost(r, mpmath.mpf(1), 3, 2) for r in (1, 2, 3)}
    best = min(costs, key=costs.get)
    data = run_json(capsys, "value", "discrete-staircase", "--cost", "power", "--eps", "1",
                    "--sensitivity", "3", "--digits", "30")
    with mpmath.workdps(50):
        assert agrees(data["value"], costs[best], 30)
    rdata = run_json(capsys, "value", "discrete-staircase", "r", "--cost", "power", "--eps",
                     "1", "--sensitivity", "3")
    assert rdata["value"] == str(best)


def test_value_laplace_plain_output_and_exact_params(capsys):
    code, out, err = run(capsys, "value", "laplace", "--eps", "0.5", "--sensitivity", "2",
                         "--digits", "5")
    assert (code, err) == (0, "")
    assert out == "4.0000\n"  # E|X| = Delta/eps, the mean of |Laplace(Delta/eps)|
    data = run_json(capsys, "value", "laplace", "--eps", "2.50", "--cost", "moment:2")
    assert data["params"] == {"eps": "2.50", "Delta": "1"}
    assert data["cost"] == "power"
    with mpmath.workdps(50):
        lam = 1 / mpmath.mpf("2.5")
        exact = mpmath.quad(lambda x: x**2 * mpmath.exp(-x / lam) / lam, [0, mpmath.inf])
        assert agrees(data["value"], exact, 30)


def test_value_agrees_with_engine(capsys):
    for name, cls in ENTRIES.items():
        kwargs = {prm.name: TYPICAL[prm.name] for prm in cls.params if prm.name in TYPICAL}
        for quantity in cls.quantities():
            data = run_json(capsys, "value", name, quantity, *typical_args(cls), "--cost",
                            "power", "--digits", "20")
            assert data["value"] == cls(**kwargs).value(quantity, "power", 20).text


# ---------------------------------------------------------------------- formula and series
def equal_expressions(a: sp.Expr, b: sp.Expr) -> bool:
    """Structurally equal, or equal after simplification, or at random points."""
    if a == b:
        return True
    if not a.has(sp.Sum) and not b.has(sp.Sum) and sp.simplify(a - b) == 0:
        return True
    rng = random.Random(1)
    for _ in range(3):
        # by name: a symbol read back may carry other assumptions than the engine's
        by_name = {}
        for name in sorted({s.name for s in a.free_symbols | b.free_symbols}):
            if name in ("b", "gamma", "delta"):
                by_name[name] = sp.Rational(rng.randint(1, 4), 10)
            elif name in ("r", "Delta"):
                by_name[name] = sp.Integer(rng.randint(1, 4))
            else:
                by_name[name] = sp.Rational(rng.randint(3, 40), 10)
        values = {s: by_name[s.name] for s in a.free_symbols | b.free_symbols}
        va, vb = sp.N(a.subs(values), 30), sp.N(b.subs(values), 30)
        if abs(va - vb) > 1e-20 * max(1, abs(vb)):
            return False
    return True


FORMULA_CASES = [(name, q, cost) for name, cls in MECHANISMS.items()
                 for q in cls.quantities() for cost in ("amplitude", "power")]
FORMULA_CASES += [("laplace", "cost", "moment:7/3"), ("discrete-laplace", "cost", "moment:1/2"),
                  ("staircase", "cost", "moment:3")]


@pytest.mark.parametrize(("name", "quantity", "cost"), FORMULA_CASES)
def test_formula_round_trip(capsys, name, quantity, cost):
    cls = MECHANISMS[name]
    try:
        cls.formula(quantity, cost)
    except UnsupportedError:
        if cls.free is None:  # no closed form and nothing to minimise: a clean refusal
            assert_one_line_error(*run(capsys, "formula", name, quantity, "--cost", cost),
                                  "closed form")
            return
    data = run_json(capsys, "formula", name, quantity, "--cost", cost)
    assert data["mechanism"] == name
    assert data["quantity"] == quantity
    assert data["params"] == structural_defaults(cls)
    assert isinstance(data["latex"], str) and data["latex"]
    parsed = sp.parse_expr(data["expression"], local_dict=PUBLIC_SYMBOLS)
    assert not parsed.has(PUBLIC_SYMBOLS["b"])
    if "minimise_over" in data:
        assert cls.free is not None
        lo, hi = cls.free.lower, cls.free.upper
        assert data["minimise_over"].startswith(f"{cls.free.name} in ")
        assert str(lo) in data["minimise_over"] and str(hi) in data["minimise_over"]
        engine = in_eps(cls.cost_function(cost))
    else:
        engine = in_eps(cls.formula(quantity, cost))
    assert equal_expressions(parsed, engine)
    # Without --json: the expression alone (plus the range line for a minimisation).
    code, out, err = run(capsys, "formula", name, quantity, "--cost", cost)
    assert (code, err) == (0, "")
    assert out.splitlines()[0] == data["expression"]
    code, out, _ = run(capsys, "formula", name, quantity, "--cost", cost, "--latex")
    assert out.splitlines()[0] == data["latex"]


def test_formula_default_cost_and_discrete_minimise_over(capsys):
    data = run_json(capsys, "formula", "discrete-staircase")
    assert data["cost"] == "amplitude"
    assert data["minimise_over"] == "r in {1, ..., Delta}"
    data = run_json(capsys, "formula", "staircase", "gamma")
    assert "minimise_over" not in data
    parsed = parse_expression(data["expression"])
    with mpmath.workdps(30):
        gam, _ = staircase_optimum(mpmath.mpf(1), mpmath.mpf(1), 1, "0.4")
        value = sp.N(parsed.subs(PUBLIC_SYMBOLS["eps"], 1), 30)
        assert abs(mpmath.mpf(str(value)) - gam) < mpmath.mpf(10) ** -20


def regimes_of(cls) -> tuple[str, ...]:
    names = {prm.name for prm in cls.params}
    return ("eps->0", "eps->oo") if "eps" in names else ("delta->0",)


SERIES_CASES = [(name, q, cost, regime) for name, cls in MECHANISMS.items() if not cls.lattice
                for q in cls.quantities() for cost in ("amplitude", "power")
                for regime in regimes_of(cls)]
SERIES_CASES += [("discrete-laplace", "cost", "power", "eps->0"),
                 ("laplace", "cost", "amplitude", "eps=delta->0")]


@pytest.mark.parametrize(("name", "quantity", "cost", "regime"), SERIES_CASES)
def test_series_round_trip(capsys, name, quantity, cost, regime):
    cls = MECHANISMS[name]
    argv = ("series", name, quantity, "--cost", cost, "--regime", regime, "--order", "3")
    try:
        engine = cls.series(quantity, cost, regime, 3)
    except DpsymError:  # what the engine refuses, the command refuses in one line
        assert_one_line_error(*run(capsys, *argv))
        return
    data = run_json(capsys, *argv)
    assert (data["regime"], data["order"]) == (regime, 3)
    assert data["params"] == {**structural_defaults(cls), "regime": regime, "order": 3}
    parsed = sp.parse_expr(data["expression"], local_dict=PUBLIC_SYMBOLS)
    if regime == "eps->oo":
        assert data["variable"] == "b = exp(-eps)"
        assert parsed.has(PUBLIC_SYMBOLS["b"])
    else:
        assert "variable" not in data
        engine = in_eps(engine)
        assert not parsed.has(PUBLIC_SYMBOLS["b"])
    assert parsed.has(sp.Order)
    assert parsed == engine or sp.simplify(parsed.removeO() - engine.removeO()) == 0
    assert parsed.getO() == engine.getO()
    code, out, err = run(capsys, "series", name, quantity, "--cost", cost, "--regime", regime,
                         "--order", "3")
    assert (code, out, err) == (0, data["expression"] + "\n", "")


def test_series_staircase_known_leading_terms(capsys):
    # The optimal staircase noise amplitude behaves as Delta/eps for small eps.
    data = run_json(capsys, "series", "staircase", "--regime", "eps->0", "--order", "2")
    parsed = parse_expression(data["expression"])
    eps, Delta = PUBLIC_SYMBOLS["eps"], PUBLIC_SYMBOLS["Delta"]
    assert sp.limit(parsed.removeO() * eps / Delta, eps, 0) == 1
    code, out, _ = run(capsys, "series", "staircase", "--regime", "eps->0", "--order", "2",
                       "--latex")
    assert code == 0 and "\\varepsilon" in out


# ---------------------------------------------------------------------- list
def test_list_json_and_table(capsys):
    data = run_json(capsys, "list")
    assert [row["name"] for row in data] == list(MECHANISMS) + list(BOUNDS)
    for row in data:
        cls = ENTRIES[row["name"]]
        assert row["kind"] == ("lower bound" if row["name"] in BOUNDS else "mechanism")
        assert row["guarantee"] == cls.guarantee
        assert row["title"] == cls.title
        assert row["quantities"] == list(cls.quantities())
        assert [p["name"] for p in row["params"]] == [p.name for p in cls.params]
        assert all(p["domain"] for p in row["params"])
    code, out, err = run(capsys, "list")
    assert (code, err) == (0, "")
    for name, cls in ENTRIES.items():
        assert name in out and cls.title in out
    assert "(0, inf)" in out
    assert "lower bound" in out and "(eps,delta)-DP" in out and "(0,delta)-DP" in out


def test_help_and_version(capsys):
    code, out, _ = run(capsys, "--help")
    assert code == 0 and "value" in out and "series" in out
    code, out, _ = run(capsys, "--version")
    assert code == 0 and out.startswith("dpsym ")
    code, out, _ = run(capsys, "value", "--help")
    assert code == 0 and "--sensitivity" in out


# ---------------------------------------------------------------------- errors
V = ("value", "laplace")
S = ("series", "laplace")
BAD = [
    ((), "COMMAND"),
    (("frobnicate",), "COMMAND"),
    (("value",), "MECHANISM"),
    (("value", "nosuch", "--eps", "1"), "mechanism"),
    (("value", "", "--eps", "1"), "mechanism"),
    ((*V, "nosuch", "--eps", "1"), "quantity"),
    ((*V, "gamma", "--eps", "1"), "quantity"),
    ((*V, "--eps", "-1"), "eps"),
    ((*V, "--eps", "0"), "eps"),
    ((*V, "--eps", "nan"), "eps"),
    ((*V, "--eps", "NaN"), "eps"),
    ((*V, "--eps", "inf"), "eps"),
    ((*V, "--eps", "-inf"), "eps"),
    ((*V, "--eps", ""), "eps"),
    ((*V, "--eps", " "), "eps"),
    ((*V, "--eps", "1e999999"), "eps"),
    ((*V, "--eps", "-1e-5000"), "eps"),
    ((*V, "--eps", "abc"), "eps"),
    ((*V, "--eps", "1/2"), "eps"),
    ((*V, "--eps", "0x10"), "eps"),
    ((*V, "--eps", "1_000"), "eps"),
    ((*V, "--eps", "2**3"), "eps"),
    ((*V, "--eps"), "--eps"),
    (V, "eps"),
    ((*V, "--eps", "1", "--sensitivity", "0"), "sensitivity"),
    ((*V, "--eps", "1", "--sensitivity", "-2"), "sensitivity"),
    ((*V, "--eps", "1", "--sensitivity", "nan"), "sensitivity"),
    ((*V, "--eps", "1", "--sensitivity", "1e-99999"), "sensitivity"),
    (("value", "discrete-laplace", "--eps", "1", "--sensitivity", "1.5"), "sensitivity"),
    (("value", "discrete-staircase", "--eps", "1", "--sensitivity", "0"), "sensitivity"),
    (("value", "discrete-staircase", "--eps", "1", "--sensitivity", "5000"), "<= 4096"),
    ((*V, "--eps", "1", "--delta", "0.1"), "delta"),
    (("value", "staircase", "--eps", "1", "--delta", "1e-6"), "delta"),
    ((*V, "--eps", "1", "--digits", "0"), "digits"),
    ((*V, "--eps", "1", "--digits", "10001"), "digits"),
    ((*V, "--eps", "1", "--digits", "-5"), "digits"),
    ((*V, "--eps", "1", "--digits", "1.5"), "digits"),
    ((*V, "--eps", "1", "--digits", ""), "digits"),
    ((*V, "--eps", "1", "--digits", "abc"), "digits"),
    ((*V, "--eps", "1", "--digits", "1e3"), "digits"),
    ((*V, "--eps", "1", "--cost", "nosuch"), "cost"),
    ((*V, "--eps", "1", "--cost", ""), "cost"),
    ((*V, "--eps", "1", "--cost", "moment:0"), "cost"),
    ((*V, "--eps", "1", "--cost", "moment:-1"), "cost"),
    ((*V, "--eps", "1", "--cost", "moment:21"), "cost"),
    ((*V, "--eps", "1", "--cost", "moment:1/0"), "cost"),
    ((*V, "--eps", "1", "--cost", "moment:nan"), "cost"),
    ((*V, "--eps", "1", "--foo", "3"), "--foo"),
    ((*V, "--eps", "1", "extra", "args"), "unrecognized"),
    ((*S, "--regime", "nosuch", "--order", "3"), "regime"),
    ((*S, "--regime", "", "--order", "3"), "regime"),
    ((*S, "--regime", "eps->0", "--order", "1.5"), "order"),
    ((*S, "--regime", "eps->0", "--order", "abc"), "order"),
    ((*S, "--regime", "eps->0", "--order", ""), "order"),
    ((*S, "--regime", "eps->0", "--order", "31"), "order"),
    ((*S, "--regime", "eps->0", "--order", "-1"), "order"),
    ((*S, "--regime", "eps->0", "--order", "1e1"), "order"),
    ((*S, "--regime", "eps->0"), "--order"),
    ((*S, "--order", "3"), "--regime"),
    ((*S, "--regime", "delta->0", "--order", "3"), "delta"),
    ((*S, "nosuch", "--regime", "eps->0", "--order", "3"), "quantity"),
    ((*S, "--regime", "eps->0", "--order", "3", "--cost", "moment:0"), "cost"),
    (("series", "discrete-staircase", "--regime", "eps->0", "--order", "3"), "closed form"),
    (("series", "uniform-mass", "--regime", "eps->oo", "--order", "3"), "eps->oo"),
    (("formula", "nosuch"), "mechanism"),
    (("formula", "laplace", "r"), "quantity"),
    (("formula", "laplace", "--cost", "bad"), "cost"),
    (("formula", "discrete-staircase", "--cost", "moment:1/2"), "numeric period"),
    (("list", "--bogus"), "--bogus"),
    (("list", "extra"), "unrecognized"),
    (("derive", "--out", "/dev/null/impossible"), "--out"),
    (("derive", "--bogus"), "--bogus"),
]


@pytest.mark.parametrize(("argv", "needle"), BAD, ids=[" ".join(a) or "<empty>" for a, _ in BAD])
def test_bad_invocation_exits_2_with_one_line(capsys, argv, needle):
    code, out, err = run(capsys, *argv)
    assert code == 2
    assert out == ""
    lines = err.splitlines()
    assert len(lines) == 1, err
    assert err.endswith("\n")
    assert lines[0].startswith("dpsym: error: ")
    assert "internal error" not in lines[0] and "Traceback" not in err
    assert needle in lines[0]


def test_at_least_40_bad_invocations():
    assert len(BAD) >= 40


def test_error_messages_give_the_valid_range(capsys):
    _, _, err = run(capsys, *V, "--eps", "-1")
    assert "(0, 1.0e+100]" in err
    _, _, err = run(capsys, *V, "--eps", "1", "--digits", "0")
    assert "[1, 10000]" in err
    _, _, err = run(capsys, *S, "--regime", "eps->0", "--order", "x")
    assert "[0, 30]" in err
    _, _, err = run(capsys, *V, "--eps", "1", "--delta", "0.1")
    assert "eps" in err and "Delta" in err  # the parameters laplace does have


def test_internal_error_is_one_line_exit_1(capsys, monkeypatch):
    def boom(*args, **kwargs):
        raise TypeError("unexpected")

    monkeypatch.setattr(Laplace, "value", boom)
    code, out, err = run(capsys, *V, "--eps", "1")
    assert code == 1 and out == ""
    assert err == "dpsym: internal error: TypeError: unexpected\n"


def test_engine_limitation_is_exit_2(capsys, monkeypatch):
    def limited(*args, **kwargs):
        raise NotImplementedError("not yet")

    monkeypatch.setattr(Laplace, "value", limited)
    code, _, err = run(capsys, *V, "--eps", "1")
    assert code == 2
    assert err.startswith("dpsym: error: ") and "not yet" in err and err.count("\n") == 1


# ---------------------------------------------------------------------- generic parameters
class _Fake(Laplace):
    """A Laplace with extra parameters (delta, alpha), to test the generic options."""

    name = "fake"
    title = "Fake mechanism"
    params = (eps_param(), sensitivity_param(),
              Param("delta", PUBLIC_SYMBOLS["delta"], UNIT_OPEN, "privacy parameter delta",
                    ("1e-9", "0.1")),
              Param("alpha", sp.Symbol("alpha", positive=True), UNIT_OPEN, "a test parameter",
                    ("0.1", "0.9"), default="0.5"))

    def value(self, quantity="cost", cost="amplitude", digits=30):
        total = sum(self.values.values(), Fraction(0))
        return Value(mpmath.mpf(total.numerator) / total.denominator, str(total), digits)


def test_generic_parameter_options(capsys, monkeypatch):
    monkeypatch.setitem(MECHANISMS, "fake", _Fake)
    data = run_json(capsys, "value", "fake", "--eps", "1", "--delta", "0.25", "--alpha", "0.125",
                    "--sensitivity", "2")
    assert data["params"] == {"eps": "1", "Delta": "2", "delta": "0.25", "alpha": "0.125"}
    assert data["value"] == "27/8"
    data = run_json(capsys, "value", "fake", "--alpha=0.25", "--eps", "1", "--delta", "0.25")
    assert data["value"] == "5/2"
    for argv, needle in [
        (("--eps", "1"), "delta"),                                   # delta is required
        (("--eps", "1", "--delta", "1"), "delta"),                   # outside (0, 1)
        (("--eps", "1", "--delta", "0.1", "--alpha", "2"), "alpha"),
        (("--eps", "1", "--delta", "0.1", "--alpha", "x"), "alpha"),
        (("--eps", "1", "--delta", "0.1", "--alpha"), "--alpha"),
    ]:
        code, out, err = run(capsys, "value", "fake", *argv)
        assert code == 2 and out == "" and err.count("\n") == 1, err
        assert needle in err
    # A parameter of another mechanism is refused by name.
    code, _, err = run(capsys, "value", "laplace", "--eps", "1", "--alpha", "0.5")
    assert code == 2 and "alpha" in err and "laplace" in err


def test_domain_error_is_a_value_error():
    assert issubclass(DomainError, ValueError)


# ---------------------------------------------------------------------- subprocesses
def subprocess_run(*argv: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "dpsym.cli", *argv], capture_output=True,
                          text=True, env=ENV, timeout=120, check=False)


@pytest.mark.parametrize("argv", [
    ("value", "laplace", "--eps", "-1"),
    ("value", "staircase", "--eps", "1", "--digits", "99999"),
    ("series", "uniform-mass", "--regime", "eps->oo", "--order", "3"),
    ("value", "laplace", "--eps", "-1e-5000"),
    ("nosuch",),
])
def test_subprocess_errors_have_no_traceback(argv):
    proc = subprocess_run(*argv)
    assert proc.returncode == 2
    assert proc.stdout == ""
    assert "Traceback" not in proc.stderr
    assert len(proc.stderr.splitlines()) == 1
    assert proc.stderr.startswith("dpsym: error: ")


def test_subprocess_value_json():
    proc = subprocess_run("value", "staircase", "gamma", "--eps", "1", "--json")
    assert proc.returncode == 0, proc.stderr
    data = json.loads(proc.stdout)
    assert data["value"] == MECHANISMS["staircase"](eps="1").value("gamma").text


# ---------------------------------------------------------------------- lower bounds
def test_bounds_via_value(capsys):
    # The real-valued lower bound lies below the staircase (pure eps-DP, hence
    # (eps, delta)-DP) and the truncated Laplacian when that one exists.
    data = run_json(capsys, "value", "lower-bound", "--eps", "1", "--delta", "1e-3",
                    "--digits", "12")
    assert data["kind"] == "lower bound"
    assert data["params"] == {"eps": "1", "delta": "1e-3", "Delta": "1"}
    low = mp_from_text(data["value"])
    stair = run_json(capsys, "value", "staircase", "--eps", "1", "--digits", "12")
    assert 0 < low <= mp_from_text(stair["value"])
    # (0, delta)-DP: eps = 0 is allowed for the integer bound; at u = 1/(2 delta) = 5 the
    # uniform mechanism meets it: Delta/(4 delta) = 2.5
    code, out, err = run(capsys, "value", "discrete-lower-bound", "--eps", "0", "--delta",
                         "0.1", "--digits", "5")
    assert (code, out, err) == (0, "2.5000\n", "")
    # lp-bound takes its grid through --grid (validated by the declared parameter)
    data = run_json(capsys, "value", "lp-bound", "--eps", "1", "--delta", "0.1", "--grid",
                    "2", "--digits", "8")
    assert data["params"]["grid"] == "2"
    upper = run_json(capsys, "value", "lp-bound", "upper", "--eps", "1", "--delta", "0.1",
                     "--grid", "2", "--digits", "8")
    assert mp_from_text(data["value"]) <= mp_from_text(upper["value"])
    # formula and series of a bound
    data = run_json(capsys, "formula", "lower-bound")
    assert data["params"] == {} and "delta" in data["expression"]
    code, out, err = run(capsys, "series", "lower-bound", "--regime", "eps->oo", "--order", "2")
    assert code == 0 and err == "" and "O(" in out


# ---------------------------------------------------------------------- --dim on formula/series
def test_formula_and_series_take_dim(capsys):
    data = run_json(capsys, "formula", "laplace-md", "--dim", "5")
    assert data["params"] == {"dim": "5"}
    assert parse_expression(data["expression"]) == sp.sympify("5*Delta/eps",
                                                              locals=PUBLIC_SYMBOLS)
    # staircase-md in dimension 1 is the staircase
    d1 = run_json(capsys, "formula", "staircase-md", "--dim", "1")
    one = run_json(capsys, "formula", "staircase")
    assert equal_expressions(parse_expression(d1["expression"]),
                             parse_expression(one["expression"]))
    # the class of that dimension is used (laplace-md: E||X||_1 = d Delta/eps)
    data = run_json(capsys, "series", "laplace-md", "--dim", "3", "--regime", "eps->0",
                    "--order", "2")
    assert data["params"] == {"dim": "3", "regime": "eps->0", "order": 2}
    eps, Delta = PUBLIC_SYMBOLS["eps"], PUBLIC_SYMBOLS["Delta"]
    assert parse_expression(data["expression"]).removeO() == 3 * Delta / eps
    data = run_json(capsys, "series", "independent-staircase", "--dim", "4", "--regime",
                    "eps->0", "--order", "2")
    lead = parse_expression(data["expression"]).removeO()
    assert sp.limit(lead * eps / Delta, eps, 0) == 16  # d staircases at eps/d each
    # --dim=D form and the value command agree on the class
    data = run_json(capsys, "formula", "laplace-md", "--dim=2")
    assert data["params"] == {"dim": "2"}


@pytest.mark.parametrize(("argv", "needle"), [
    (("formula", "staircase-md", "--dim", "0"), "--dim"),
    (("formula", "staircase-md", "--dim", "51"), "<= 50"),
    (("formula", "staircase-md", "--dim", "1.5"), "--dim"),
    (("formula", "staircase-md", "--dim", "x"), "--dim"),
    (("series", "laplace-md", "--dim", "-2", "--regime", "eps->0", "--order", "2"), "--dim"),
    (("formula", "staircase-md", "--dim"), "--dim"),
    # parameters the command does not use are refused, not ignored
    (("formula", "staircase", "--eps", "1"), "not used by `dpsym formula`"),
    (("formula", "staircase", "--sensitivity", "2"), "--sensitivity"),
    (("series", "laplace", "--delta", "0.1", "--regime", "eps->0", "--order", "2"), "--delta"),
    (("series", "staircase-md", "--eps", "1", "--regime", "eps->0", "--order", "2"),
     "--dim"),
    (("formula", "laplace", "--dim", "3"), "laplace has no parameter dim"),
    (("formula", "laplace", "--grid", "3"), "grid"),
    (("formula", "lp-bound", "--grid", "0"), "--grid"),
    (("formula", "lp-bound", "--grid", "4"), "closed form"),
    (("value", "staircase", "--eps", "1", "--dim", "2"), "staircase has no parameter dim"),
    (("value", "lower-bound", "--eps", "1", "--delta", "0.5"), "--delta"),
    (("value", "lower-bound", "--eps", "1"), "--delta"),
    (("value", "lp-bound", "--eps", "1", "--delta", "0.1", "--grid", "65"), "--grid"),
    (("value", "discrete-lower-bound", "--eps", "0", "--delta", "0.1", "--sensitivity",
      "1.5"), "sensitivity"),
    (("value", "lower-bound", "--eps", "1", "--delta", "0.1", "--cost", "moment:5"),
     "cost"),
    (("formula", "nosuch"), "lower bounds: lower-bound"),
])
def test_symbolic_and_bound_errors(capsys, argv, needle):
    assert_one_line_error(*run(capsys, *argv), needle)


def test_unknown_name_lists_every_entry(capsys):
    code, out, err = run(capsys, "series", "nosuch", "--regime", "eps->0", "--order", "1")
    assert_one_line_error(code, out, err, "mechanism")
    for name in ENTRIES:
        assert name in err


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
            assert rows[0]["ratio"] == "1"
        for b in bounds_of(data, query):
            assert b["name"] in BOUNDS
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
    assert main(["check", "002", "003.thm2", "--json"]) == 0
    record = json.loads(capsys.readouterr().out)
    assert record["failed"] == 0 and record["passed"] == len(record["claims"]) >= 6
    assert {c["id"] for c in record["claims"]} >= {"002.thm3", "003.thm2"}
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
    import dataclasses

    import dpsym.claims as claims

    wrong = dataclasses.replace(next(c for c in claims.CLAIMS if c.id == "002.thm3"),
                                status="fails")
    monkeypatch.setattr(claims, "CLAIMS", (wrong,))
    assert main(["check"]) == 1
    assert "MISMATCH" in capsys.readouterr().out
