r"""Tests of :mod:`dpsym.cli.accounting` (``dpsym renyi`` and ``dpsym compose``) called
with parsed arguments, against closed forms: the Laplace Rényi divergence, the binomial
law of the discrete Laplace loss, and the composed Laplace profile integrated by sympy."""

from __future__ import annotations

import io
import json
import math

import mpmath
import pytest
import sympy as sp

from dpsym.cli.accounting import cmd_compose, cmd_renyi
from dpsym.cli.options import CliError
from dpsym.cli.parser import parse_args
from dpsym.errors import DomainError
from dpsym.precision import workdps


def run(*argv: str) -> str:
    args = parse_args(list(argv))
    out = io.StringIO()
    handler = cmd_renyi if argv[0] == "renyi" else cmd_compose
    assert handler(args, out) == 0
    return out.getvalue()


def laplace_renyi(alpha, e):
    r""":math:`D_\alpha(\mathrm{Lap}(0, \Delta/\varepsilon) \| \mathrm{Lap}(\Delta, \cdot))`."""
    return mpmath.log(alpha / (2 * alpha - 1) * mpmath.exp((alpha - 1) * e)
                      + (alpha - 1) / (2 * alpha - 1) * mpmath.exp(-alpha * e)) / (alpha - 1)


@pytest.mark.parametrize(("order", "e"), [("2", "1"), ("3/2", "1/3"), ("7", "2")])
def test_renyi_laplace(order, e):
    text = run("renyi", "laplace", "--eps", e, "--order", order, "--digits", "20").strip()
    with workdps(40):
        ref = laplace_renyi(mpmath.mpf(sp.Rational(order)), mpmath.mpf(sp.Rational(e)))
        assert abs(mpmath.mpf(text) - ref) < mpmath.mpf(10) ** -18 * ref


def test_renyi_discrete_laplace_kl_and_inf():
    r"""Discrete Laplace, :math:`\Delta = 1`: the loss is :math:`\pm\varepsilon` with
    P-probabilities :math:`1/(1+\lambda)`, :math:`\lambda/(1+\lambda)`."""
    with workdps(40):
        e = mpmath.mpf(1)
        lam = mpmath.exp(-e)
        kl = e / (1 + lam) - e * lam / (1 + lam)
        text = run("renyi", "discrete-laplace", "--eps", "1", "--order", "1", "--digits", "20")
        assert abs(mpmath.mpf(text.strip()) - kl) < mpmath.mpf(10) ** -18
    assert mpmath.mpf(run("renyi", "laplace", "--eps", "1", "--order", "inf").strip()) == 1


def test_renyi_json():
    record = json.loads(run("renyi", "laplace", "--eps", "1", "--order", "2", "--json"))
    assert record["mechanism"] == "laplace" and record["order"] == "2"
    assert record["certificate"] == "enclosure" and record["params"] == {"eps": "1"}
    with workdps(30):
        assert abs(mpmath.mpf(record["value"]) - laplace_renyi(2, 1)) < 1e-8


def test_renyi_formula_and_series():
    alpha, eps = sp.symbols("alpha eps", positive=True)
    text = run("renyi", "laplace", "--formula").strip()
    formula = sp.parse_expr(text, local_dict={"alpha": alpha, "eps": eps})
    value = formula.subs({alpha: sp.Rational(3, 2), eps: sp.Rational(1, 3)})
    with workdps(30):
        assert abs(sp.N(value, 30) - laplace_renyi(mpmath.mpf(3) / 2, mpmath.mpf(1) / 3)) \
            < 1e-25
    series = run("renyi", "laplace", "--series", "eps->0").strip()
    # the Taylor coefficients of the closed form (mpmath, at two orders alpha)
    got = sp.parse_expr(series.replace(" + O(eps**4)", ""),
                        local_dict={"alpha": alpha, "eps": eps})
    with workdps(40):
        for a in (sp.Rational(3, 2), sp.Integer(5)):
            coeffs = mpmath.taylor(lambda z, a=a: laplace_renyi(mpmath.mpf(a), z), 0, 3)
            mine = sp.Poly(got.subs(alpha, a), eps).all_coeffs()[::-1]
            for c_ref, c in zip(coeffs, mine + [0] * (4 - len(mine)), strict=True):
                assert abs(c_ref - mpmath.mpf(sp.N(c, 40))) < mpmath.mpf(10) ** -25
    assert series.endswith("O(eps**4)") and series.startswith("alpha*eps**2/2")
    latex = run("renyi", "laplace", "--series", "eps->0", "--terms", "2", "--latex").strip()
    assert latex == r"\frac{\alpha \varepsilon^{2}}{2} + O\left(\varepsilon^{3}\right)"


@pytest.mark.parametrize(("argv", "needle"), [
    (("renyi", "laplace", "--eps", "1"), "--order: required"),
    (("renyi", "laplace", "--formula", "--series", "eps->0"), "give one of them"),
    (("renyi", "laplace", "--series", "eps->0", "--terms", "0"), "--terms: must be"),
    (("renyi", "laplace", "--eps", "1", "--order", "1/2"), "--order"),
    (("compose", "discrete-laplace", "--eps", "1", "--count", "0", "--eps-target", "1"),
     "--count"),
    (("compose", "discrete-laplace", "--eps", "1", "--count", "1"), "give exactly one"),
    (("compose", "discrete-laplace", "--eps", "1", "--count", "1", "--eps-target", "1",
      "--delta-target", "0.1"), "give exactly one"),
    (("compose", "discrete-laplace", "--eps", "1", "--count", "1", "--eps-target", "1",
      "--and", "lower-bound:1"), "is a lower bound, not a mechanism"),
    (("compose", "discrete-laplace", "--eps", "1", "--count", "1", "--eps-target", "1",
      "--and", "laplace"), "expected NAME:COUNT"),
    (("compose", "discrete-laplace", "--eps", "1", "--count", "1", "--eps-target", "1",
      "--and", "laplace:0:eps=1"), "--and laplace: COUNT"),
    (("compose", "discrete-laplace", "--eps", "1", "--count", "1", "--eps-target", "1",
      "--and", "laplace:1:eps"), "PARAM=VALUE once each"),
    (("compose", "discrete-laplace", "--eps", "1", "--count", "1", "--eps-target", "1",
      "--and", "laplace:1:eps=1,eps=2"), "PARAM=VALUE once each"),
    (("compose", "discrete-laplace", "--eps", "1", "--count", "1", "--eps-target", "1",
      "--interval", "2"), "--interval"),
])
def test_errors_name_their_option(argv, needle):
    with pytest.raises((CliError, DomainError), match=needle):
        run(*argv)


def test_compose_refuses_a_lower_bound():
    with pytest.raises(DomainError, match="is a lower bound, not a mechanism") as info:
        run("compose", "lower-bound", "--eps", "1", "--count", "1", "--eps-target", "1")
    assert info.value.name == "mechanism"


def binomial_delta(eps_list, target):
    r"""The hockey-stick divergence of a composition of discrete Laplace releases
    (:math:`\Delta = 1`): release :math:`i` has loss :math:`\pm\varepsilon_i` with
    P-probabilities :math:`1/(1 + e^{-\varepsilon_i})`; :math:`\delta =
    E[(1 - e^{\varepsilon^{\prime} - L})_+]`, enumerated exactly."""
    from itertools import product
    total = mpmath.mpf(0)
    for signs in product((1, -1), repeat=len(eps_list)):
        prob, loss = mpmath.mpf(1), mpmath.mpf(0)
        for s, e in zip(signs, eps_list, strict=True):
            p = 1 / (1 + mpmath.exp(-e))
            prob *= p if s > 0 else 1 - p
            loss += s * e
        total += prob * max(0, 1 - mpmath.exp(target - loss))
    return total


def test_compose_discrete_laplace_exact():
    text = run("compose", "discrete-laplace", "--eps", "1", "--count", "3", "--eps-target",
               "1/2", "--digits", "20").strip()
    assert text.startswith("delta = ")
    text = text.removeprefix("delta = ")
    with workdps(40):
        ref = binomial_delta([mpmath.mpf(1)] * 3, mpmath.mpf(1) / 2)
        assert abs(mpmath.mpf(text) - ref) < mpmath.mpf(10) ** -19 * ref


def test_compose_with_another_mechanism():
    text = run("compose", "discrete-laplace", "--eps", "1", "--count", "2", "--eps-target",
               "1/2", "--and", "discrete-laplace:1:eps=1/2", "--digits", "15").strip()
    assert text.startswith("delta = ")
    text = text.removeprefix("delta = ")
    with workdps(40):
        ref = binomial_delta([mpmath.mpf(1), mpmath.mpf(1), mpmath.mpf(1) / 2],
                             mpmath.mpf(1) / 2)
        assert abs(mpmath.mpf(text) - ref) < mpmath.mpf(10) ** -14 * ref


def test_compose_inverse_meets_the_target():
    record = json.loads(run("compose", "discrete-laplace", "--eps", "1", "--count", "3",
                            "--delta-target", "1/10", "--digits", "12", "--json"))
    assert record["rounding"].startswith("up:") and record["count"] == 3
    assert record["delta_target"] == "1/10" and record["method"]
    with workdps(40):
        eps = mpmath.mpf(record["eps"])
        assert binomial_delta([mpmath.mpf(1)] * 3, eps) <= mpmath.mpf(1) / 10
        assert binomial_delta([mpmath.mpf(1)] * 3, eps - mpmath.mpf(10) ** -10) > \
            mpmath.mpf(1) / 10


def test_compose_laplace_bounds_contain_the_integral():
    r"""Two Laplace releases (:math:`\varepsilon = \Delta = 1`) at
    :math:`\varepsilon^{\prime} = 1/2`: the loss is :math:`1` (P-mass 1/2), :math:`-1`
    (:math:`e^{-1}/2`) or :math:`1 - 2x` for :math:`X = x \in (0, 1)`; :math:`\delta`
    integrated exactly by sympy (the region where the loss exceeds 1/2)."""
    line = run("compose", "laplace", "--eps", "1", "--count", "2", "--eps-target", "1/2")
    lower, upper = line.split(" <= delta <= ")
    upper = upper.split()[0]
    x1, x2 = sp.symbols("x1 x2", positive=True)
    t = sp.Rational(1, 2)

    def f(x):
        return sp.exp(-x) / 2

    both_atoms = sp.Rational(1, 4) * (1 - sp.exp(t - 2))
    atom_and_density = sp.integrate(f(x1) * (1 - sp.exp(t - 2 + 2 * x1)),
                                    (x1, 0, sp.Rational(3, 4)))
    densities = sp.integrate(sp.integrate(
        f(x1) * f(x2) * (1 - sp.exp(t - (1 - 2 * x1) - (1 - 2 * x2))),
        (x2, 0, sp.Rational(3, 4) - x1)), (x1, 0, sp.Rational(3, 4)))
    ref = sp.N(both_atoms + atom_and_density + densities, 30)
    with workdps(30):
        assert mpmath.mpf(lower) <= mpmath.mpf(str(ref)) <= mpmath.mpf(upper)
        assert mpmath.mpf(upper) - mpmath.mpf(lower) < 1e-6


def test_ordered_series_text_uses_minus():
    # a negative term is printed with " - ", not "+ -"
    text = run("renyi", "laplace", "--series", "eps->0", "--terms", "2").strip()
    assert " + -" not in text and not math.isnan(len(text))
    text3 = run("renyi", "laplace", "--series", "eps->0").strip()
    assert " - alpha*eps**3/6 " in text3
