"""Tight composition (:mod:`dpsym.composition`): exact lattice values against brute-force
sums in mpmath, bounds that bracket an independent quadrature and converge, the Gaussian
closed form, the inverse, input checks and ``dpsym compose``."""

from __future__ import annotations

import itertools
import math

import mpmath
import pytest
from cli_helpers import assert_one_line_error, run, run_json

from dpsym import DomainError, Laplace, Staircase
from dpsym.composition import component, compose, compose_epsilon
from dpsym.mechanisms import MECHANISMS
from dpsym.precision import arb_workprec, workdps


def _mp(text: str) -> mpmath.mpf:
    return mpmath.mpf(text)


def test_one_release_is_the_privacy_profile():
    m = Staircase(eps=1)
    assert compose([(component(m), 1)], "1/2", 15).text == m.privacy_profile("1/2",
                                                                              digits=15).text
    d = MECHANISMS["discrete-laplace"](eps=1, Delta=2)
    assert compose([(component(d), 1)], "1/3", 15).text == d.privacy_profile("1/3",
                                                                              digits=15).text
    for cont in (Laplace(eps=1), MECHANISMS["truncated-laplace"](eps=1, delta="0.01")):
        got = compose([(component(cont), 1)], "1/2", 12, interval="1/100")
        exact = _mp(cont.privacy_profile("1/2", digits=20).text)
        assert not got.exact and _mp(got.lower) <= exact <= _mp(got.upper)


@pytest.mark.parametrize(("name", "params", "target"), [
    ("discrete-uniform", {"delta": "0.1", "Delta": 2}, "0"),
    ("uniform-mass", {"delta": "0.95"}, "1/2"),
    ("discrete-staircase", {"eps": 1, "Delta": 3}, "1/4"),
])
def test_one_release_lattice_laws_match_the_profile(name, params, target):
    m = MECHANISMS[name](**params)
    got = compose([(component(m), 1)], target, 15)
    assert got.exact and got.text == m.privacy_profile(target, digits=15).text


def test_staircase_three_fold_by_trinomial_sum():
    m = Staircase(eps=1)
    got = compose([(component(m), 3)], "1", 20)
    assert got.exact
    with arb_workprec(200):
        law = dict(component(m).law.atom_masses())
    with workdps(40):
        p = {int(k): mpmath.mpf(v.str(35, radius=False)) for k, v in law.items()}
        total = mpmath.mpf(0)
        for i in (-1, 0, 1):
            for j in (-1, 0, 1):
                for k in (-1, 0, 1):
                    loss = i + j + k
                    if loss > 1:
                        total += p[i] * p[j] * p[k] * (1 - mpmath.exp(1 - loss))
        assert abs(total - _mp(got.text)) < 1e-15


def test_discrete_laplace_two_fold_by_double_sum():
    got = compose([(component(MECHANISMS["discrete-laplace"](eps=1, Delta=2)), 2)], "1/2", 20)
    with workdps(30):
        lam = mpmath.exp(-mpmath.mpf(1) / 2)
        c = (1 - lam) / (1 + lam)

        def p(i):
            return c * lam ** abs(i)

        c_eps = mpmath.exp(mpmath.mpf(1) / 2)
        total = mpmath.fsum(max(0, p(i) * p(j) - c_eps * p(i + 2) * p(j + 2))
                            for i in range(-80, 80) for j in range(-80, 80))
        assert abs(total - _mp(got.text)) < 1e-14


def _laplace_two_fold(e_target):
    """The 2-fold Laplace(1) profile at sensitivity 1 by one quadrature: delta_2(e) =
    E[delta_1(e - L)] with delta_1(t) = 1 - e^{(t - 1)/2} (|t| <= 1), 1 - e^t (t < -1)."""
    def d1(t):
        if t >= 1:
            return mpmath.mpf(0)
        if t <= -1:
            return 1 - mpmath.exp(t)
        return 1 - mpmath.exp((t - 1) / 2)

    e = mpmath.mpf(e_target)
    cont = mpmath.quad(lambda x: mpmath.exp(x) / 2 * d1(e - (2 * x + 1)), [-1, -0.5, 0])
    return cont + d1(e - 1) / 2 + mpmath.exp(-1) / 2 * d1(e + 1)


def test_laplace_bounds_bracket_and_converge():
    comp = component(Laplace(eps=1))
    with workdps(25):
        truth = _laplace_two_fold("1/2")
    coarse = compose([(comp, 2)], "1/2", 12, interval="1/20")
    fine = compose([(comp, 2)], "1/2", 12, interval="1/400")
    for res in (coarse, fine):
        assert not res.exact and _mp(res.lower) <= truth <= _mp(res.upper)
    assert _mp(fine.upper) - _mp(fine.lower) < (_mp(coarse.upper) - _mp(coarse.lower)) / 10


def test_gaussian_composition_is_the_gaussian_of_sigma_over_sqrt_k():
    m = MECHANISMS["gaussian"](eps="1/2", delta="1e-5")
    got = compose([(component(m), 9)], "1", 20)
    with workdps(30):
        sigma = _mp(m.value("sigma", digits=30).text) / 3
        phi = mpmath.ncdf
        want = phi(1 / (2 * sigma) - sigma) - mpmath.e * phi(-1 / (2 * sigma) - sigma)
        assert abs(want / _mp(got.text) - 1) < 1e-18


def test_inverse_and_heterogeneous():
    st = component(Staircase(eps=1))
    eps_text = compose_epsilon([(st, 5)], "1e-3", 20).text
    back = compose([(st, 5)], eps_text, 20).text
    assert abs(_mp(back) - mpmath.mpf("1e-3")) < 1e-20
    assert compose([(st, 2), (st, 3)], 2, 15).text == compose([(st, 5)], 2, 15).text
    ds = component(MECHANISMS["discrete-staircase"](eps=2, Delta=3))
    mixed = compose([(st, 2), (ds, 1)], "5/2", 15)
    assert mixed.exact
    inf = compose_epsilon([(component(MECHANISMS["uniform-mass"](delta="0.1")), 2)], "0.01")
    assert inf.text == "inf"


@pytest.mark.parametrize(("kwargs", "name"), [({"count": 0}, "count"),
                                             ({"count": 10**7}, "count"),
                                             ({"eps_target": "-1"}, "eps_target"),
                                             ({"interval": "0"}, "interval")])
def test_domains(kwargs, name):
    st = component(Staircase(eps=1))
    args = {"count": 2, "eps_target": 1, "interval": "1/100"} | kwargs
    with pytest.raises(DomainError, match=name):
        compose([(st, args["count"])], args["eps_target"], interval=args["interval"])


def test_cli(capsys):
    data = run_json(capsys, "compose", "staircase", "--eps", "1", "--count", "10",
                    "--eps-target", "3")
    assert data["delta"] == "0.5744579982" and data["method"].startswith("exact")
    data = run_json(capsys, "compose", "laplace", "--eps", "1", "--count", "3",
                    "--eps-target", "1", "--interval", "1/100")
    assert float(data["lower"]) <= float(data["upper"]) and "delta" not in data
    data = run_json(capsys, "compose", "staircase", "--eps", "1", "--count", "10",
                    "--delta-target", "1e-6")
    assert math.isclose(float(data["eps"]), 9.99996290342, rel_tol=1e-9)
    data = run_json(capsys, "compose", "staircase", "--eps", "1", "--count", "3", "--and",
                    "discrete-staircase:2:eps=2,sensitivity=3", "--eps-target", "2")
    st = component(Staircase(eps=1), digits=10)
    ds = component(MECHANISMS["discrete-staircase"](eps=2, Delta=3), digits=10)
    assert data["delta"] == compose([(st, 3), (ds, 2)], 2, 10).text
    assert data["with"][0]["mechanism"] == "discrete-staircase"
    code, out, err = run(capsys, "compose", "staircase", "--eps", "1", "--count", "1",
                         "--and", "gaussian:x", "--eps-target", "1")
    assert_one_line_error(code, out, err, "--and")
    code, out, err = run(capsys, "compose", "laplace", "--eps", "1", "--count", "0",
                         "--eps-target", "1")
    assert_one_line_error(code, out, err, "--count")
    code, out, err = run(capsys, "compose", "laplace", "--eps", "1", "--count", "2")
    assert_one_line_error(code, out, err, "--eps-target")


def test_profile_monotone_in_target_and_count():
    st = component(MECHANISMS["discrete-staircase"](eps=1, Delta=2))
    by_target = [_mp(compose([(st, 4)], e, 12).text) for e in ("0", "1/2", "1", "2", "4")]
    assert all(d1 > d2 for d1, d2 in itertools.pairwise(by_target))
    assert by_target[-1] == 0  # 4 releases of a 1-DP mechanism are 4-DP
    by_count = [_mp(compose([(st, k)], "1", 12).text) for k in (1, 2, 4, 8)]
    assert all(d1 < d2 for d1, d2 in itertools.pairwise(by_count))
