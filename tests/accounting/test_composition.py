"""Tight composition (:mod:`dpsym.accounting.composition`): exact lattice values against brute-force
sums in mpmath, bounds that bracket an independent quadrature and converge, the Gaussian
closed form, the inverse, input checks and ``dpsym compose``."""

from __future__ import annotations

import itertools
import math
from fractions import Fraction

import flint
import mpmath
import pytest
import sympy as sp
from cli_helpers import assert_one_line_error, run, run_json

from dpsym import DomainError, Laplace, Staircase
from dpsym.accounting.composition import (
    GRID_POINTS,
    component,
    compose,
    compose_epsilon,
    grid_interval,
    merge_gaussians,
    rounded_product,
)
from dpsym.mechanisms import MECHANISMS
from dpsym.precision import arb_workprec, workdps
from dpsym.privacy.loss import outward


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

    e = mpmath.mpf(sp.Rational(e_target).p) / sp.Rational(e_target).q
    kinks = [(e - 2) / 2, e / 2]  # where e - (2x + 1) = 1 or -1: split the quadrature there
    ends = sorted({mpmath.mpf(-1), mpmath.mpf(0), *(k for k in kinks if -1 < k < 0)})
    cont = mpmath.quad(lambda x: mpmath.exp(x) / 2 * d1(e - (2 * x + 1)), ends)
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


# ---------------------------------------------------------------------------- safe rounding
@pytest.mark.parametrize(("digits", "target"), [(10, "1e-6"), (4, "1e-6"), (7, "1e-3"),
                                                (12, "0.05")])
def test_inverse_is_rounded_up_so_the_target_holds(digits, target):
    """The printed eps' meets the target: delta(eps') <= target, and one unit less in the
    last digit does not (the rounding is up, and tight)."""
    st = component(Staircase(eps=1))
    text = compose_epsilon([(st, 10)], target, digits).text
    assert _mp(compose([(st, 10)], text, 25).text) <= _mp(target)
    unit = mpmath.mpf(10) ** (mpmath.floor(mpmath.log10(_mp(text))) - digits + 1)
    with workdps(40):
        below = mpmath.nstr(_mp(text) - unit, digits + 5)
    assert _mp(compose([(st, 10)], below, 25).text) > _mp(target)


def test_gaussian_inverse_is_rounded_up():
    g = component(MECHANISMS["gaussian"](eps="1/2", delta="1e-5"))
    text = compose_epsilon([(g, 9)], "1e-6", 6).text
    assert _mp(compose([(g, 9)], text, 20).text) <= mpmath.mpf("1e-6")
    with workdps(30):
        below = mpmath.nstr(_mp(text) - mpmath.mpf(10) ** (mpmath.floor(mpmath.log10(
            _mp(text))) - 5), 12)
    assert _mp(compose([(g, 9)], below, 20).text) > mpmath.mpf("1e-6")


def test_delta_target_from_the_command_line(capsys):
    code, out, _ = run(capsys, "compose", "staircase", "--eps", "1", "--count", "10",
                       "--delta-target", "1e-6")
    assert code == 0 and out == "eps = 9.999962904\n"  # rounded up: delta(9.999962903) > 1e-6
    data = run_json(capsys, "compose", "staircase", "--eps", "1", "--count", "10",
                    "--delta-target", "1e-6")
    assert data["eps"] == "9.999962904" and data["rounding"].startswith("up")


def test_outward_rounds_the_exact_ends_in_decimal():
    """Each end of a ball goes to the decimal on its side (a binary rounding at the working
    digits, then a decimal rounding to nearest, could land inside the ball)."""
    with arb_workprec(200):
        ball = flint.arb("0.12345678904") + flint.arb(0)  # ends just around 0.12345678904
        lo, hi = outward(ball, 10)
        assert (lo, hi) == ("0.1234567890", "0.1234567891")
        lo, hi = outward(flint.arb("0.123456789049", "1e-30"), 10)
        assert (lo, hi) == ("0.1234567890", "0.1234567891")
        lo, hi = outward(-flint.arb("2.5", "1e-40"), 3)
        assert (lo, hi) == ("-2.51", "-2.49")


# ---------------------------------------------------------------------------- Laplace, many folds
def _laplace_kfold(e0, k, e_target):
    r"""The exact k-fold Laplace profile, independently of the engine: the loss law is
    e^{s/2} c nu with c = e^{-e0/2}/2 and nu = delta_{e0} + delta_{-e0} + Leb(-e0, e0)/2,
    so P_L = e^{s/2} c^k nu^{*k}; (Leb/2)^{*m} is e0^m times the law of e0 (2V - m) with V
    Irwin-Hall of order m, integrated by quadrature on each polynomial piece."""
    e0, target = mpmath.mpf(e0), mpmath.mpf(e_target)

    def hinge(t):
        return max(mpmath.mpf(0), mpmath.exp(t / 2) - mpmath.exp(target - t / 2))

    def irwin_hall(m, v):
        return mpmath.fsum((-1) ** j * math.comb(m, j) * (v - j) ** (m - 1)
                           for j in range(int(v) + 1)) / mpmath.factorial(m - 1)

    total = mpmath.mpf(0)
    for m in range(k + 1):
        for i in range(k - m + 1):
            shift = (2 * i - k + m) * e0
            weight = math.comb(k, m) * math.comb(k - m, i) * e0**m
            if m == 0:
                total += weight * hinge(shift)
                continue
            start = (target - shift) / (2 * e0) + mpmath.mpf(m) / 2
            ends = sorted({mpmath.mpf(j) for j in range(m + 1) if j > start}
                          | {min(max(start, mpmath.mpf(0)), mpmath.mpf(m))})
            if len(ends) > 1:
                total += weight * mpmath.quad(
                    lambda v, m=m, shift=shift: hinge(shift + e0 * (2 * v - m))
                    * irwin_hall(m, v), ends)
    return (mpmath.exp(-e0 / 2) / 2) ** k * total


@pytest.mark.parametrize(("e0", "k", "target"), [("1", 2, "1/2"), ("1", 5, "2"),
                                                 ("1/2", 8, "2")])
def test_laplace_bounds_bracket_the_exact_k_fold_profile_to_second_order(e0, k, target):
    with workdps(30):
        exact = _laplace_kfold(sp.Rational(e0), k, sp.Rational(target))
        if k == 2:  # the two routes agree
            assert abs(exact - _laplace_two_fold(target)) < 1e-25
    comp = component(Laplace(eps=e0))
    gaps = []
    for h in ("1/20", "1/40", "1/1000"):
        got = compose([(comp, k)], target, 15, interval=h)
        assert got.interval == h and _mp(got.lower) <= exact <= _mp(got.upper)
        gaps.append(_mp(got.upper) - _mp(got.lower))
    assert 3.5 < gaps[0] / gaps[1] < 4.5  # second order in h: no loss is rounded
    assert gaps[2] < 1e-5 * exact


def test_laplace_composes_a_thousand_times():
    comp = component(Laplace(eps=1))
    got = compose_epsilon([(comp, 1000)], "1e-6", 10)
    # coarsened from 1/1000 for k = 1000: the bulk the trimmed tails leave (Hoeffding)
    # spans at most GRID_POINTS points
    assert not got.exact and got.interval == "1/88"
    lower, upper = _mp(got.lower), _mp(got.upper)
    assert lower <= upper < lower * (1 + 1e-4)
    # the central limit regime: eps_k = k mu + sqrt(k v) z + O(1), mu = 1/e (the KL)
    assert 1000 / mpmath.e < lower < 1000 / mpmath.e + 200
    back = compose([(comp, 1000)], got.upper, 10)
    assert _mp(back.upper) <= mpmath.mpf("1e-6") * (1 + 1e-9)


def test_coarsened_grid_keeps_the_atoms_on_it():
    comp = component(Laplace(eps="1/3"))
    # a divisor (1/3)/N of the atoms' step, at most the interval asked for
    assert grid_interval([(comp, 1)], "1/1000") == sp.Rational(1, 3 * 334)
    assert grid_interval([(comp, 1)], "1/100") == sp.Rational(1, 3 * 34)
    coarse = grid_interval([(comp, 5000)], "1/1000")
    assert sp.Rational(1, 3) / coarse == int(sp.Rational(1, 3) / coarse)
    # the bulk that trimming at 2^-(130 + 16) leaves (Hoeffding) fits GRID_POINTS points,
    # up to the step's rounding to a divisor of the atoms' step (here g/33 for g/32.5)
    bulk = 2 * math.sqrt(math.log(2) * (130 + 17) * 5000 * (2 / 3) ** 2 / 2)
    assert bulk / float(coarse) <= 1.05 * GRID_POINTS < 2 * bulk / float(coarse)


def test_a_zero_target_gives_the_largest_loss_exactly():
    st = component(Staircase(eps=1))
    assert compose_epsilon([(st, 5)], "0", 10).text == "5.000000000"


def test_gaussians_among_others_are_merged_and_binned_once():
    """k Gaussian losses N(mu, 2 mu) sum to N(k mu, 2 k mu) exactly: binned once, the
    bounds of 1000 Gaussians with 10 Laplace releases stay tight (binned 1000 times, each
    rounded down, the lower bound was off by about 1000 h / 2)."""
    g1 = component(MECHANISMS["gaussian"](eps="1/2", delta="1e-5"))
    g2 = component(MECHANISMS["analytic-gaussian"](eps=1, delta="1e-5"))
    lap = component(Laplace(eps=1))
    merged = merge_gaussians([(g1, 3), (lap, 2), (g2, 5)])
    assert [(c.name, k) for c, k in merged] == [("laplace", 2),
                                                ("analytic-gaussian+gaussian", 1)]
    assert sp.simplify(merged[1][0].mu - (3 * g1.mu + 5 * g2.mu)) == 0
    got = compose_epsilon([(g1, 1000), (lap, 10)], "1e-6", 10)
    assert _mp(got.lower) <= _mp(got.upper) < _mp(got.lower) * (1 + 1e-4)


# ---------------------------------------------------------------------------- the edges
def test_staircase_at_large_eps_is_its_three_point_law():
    """eps = 190 (gamma* Delta ~ 1e-42): one release at eps' = 100 is the privacy profile
    p (1 - e^{100 - 190}) ~ 1, and the eps' of delta = 1/2 is 190 - log 2 (rounded up)."""
    m = Staircase(eps=190)
    comp = component(m, digits=10)
    assert compose([(comp, 1)], 100, 15).text == m.privacy_profile(100, digits=15).text
    got = compose_epsilon([(comp, 1)], "1/2", 10)
    with workdps(30):
        assert got.text == mpmath.nstr(190 - mpmath.log(2) + mpmath.mpf("5e-8"), 10)[:11]
    assert got.text == "189.3068529"


def test_scale_free_bounds_at_tiny_sensitivity():
    """Laplace at Delta = 1e-40: the bounds of Delta = 1, bracketing the exact 10-fold
    profile (0.4736851-0.4736853, never 71.3); the truncated Laplacian and the uniform
    law with a mass at Delta = 1e-50 as at Delta = 1 (0.487110..., 1 - 0.9^3)."""
    tiny = compose([(component(Laplace(eps=1, Delta="1e-40")), 10)], 3, 10)
    one = compose([(component(Laplace(eps=1)), 10)], 3, 10)
    assert (tiny.lower, tiny.upper) == (one.lower, one.upper)
    with workdps(30):
        exact = _laplace_kfold(1, 10, 3)
    assert _mp(tiny.lower) <= exact <= _mp(tiny.upper) < 1
    tl = MECHANISMS["truncated-laplace"]
    got = compose([(component(tl(eps=1, delta="0.1", Delta="1e-50")), 3)], 1, 10)
    assert (got.lower, got.upper) == ("0.4871099373", "0.4871100194")
    um = compose([(component(MECHANISMS["uniform-mass"](delta="0.1", Delta="1e-50")), 3)],
                 1, 10)
    assert um.text == "0.2710000000"


@pytest.mark.parametrize("e", ["100", "1000", "1e10", "1e100"])
def test_large_eps_bounds_stay_in_the_unit_interval(e):
    """Two Laplace releases at eps' = 1: delta = 1 - O(e^{-eps}), the bounds
    [0.9999999999, 1] (the upper one was 1e+796)."""
    got = compose([(component(Laplace(eps=e)), 2)], 1, 10)
    assert (got.lower, got.upper) == ("0.9999999999", "1")


def test_tiny_eps_bounds_are_positive_and_tight():
    """eps = 1e-300, delta(0) of two releases: a positive bracket within 1e-9 of its size
    (it was [-2.4e-55, 1.5e-36]); the grid printed in short form."""
    got = compose([(component(Laplace(eps="1e-300")), 2)], 0, 10)
    lower, upper = Fraction(got.lower), Fraction(got.upper)
    assert 0 < lower <= upper < lower * (1 + Fraction(1, 10**8))
    assert got.interval.startswith("~") and len(got.interval) < 20


def test_many_releases_of_a_small_eps_refine_the_grid():
    """eps = 0.01, 100000 releases, eps' = 10: the grid follows the bulk of the composed
    loss, not the sum of the ranges (1/65 was wider than one release's loss range); the
    bracket lies within dp_accounting's pessimistic and optimistic estimates' span."""
    got = compose([(component(Laplace(eps="0.01")), 100000)], 10, 10)
    lower, upper = float(got.lower), float(got.upper)
    assert 0.0326 < lower < upper < 0.0332 and upper - lower < 4e-4
    assert Fraction(got.interval) < Fraction(2, 1000)


def test_discrete_laplace_with_a_large_sensitivity_by_convolution():
    """Delta = 1000, ten releases at eps' = 3: exact (the run of 999 points with losses
    between -eps and eps kept whole, expanded on the lattice eps/500), against a float64
    convolution of the loss law."""
    import numpy as np

    got = compose([(component(MECHANISMS["discrete-laplace"](eps=1, Delta=1000)), 10)],
                  3, 16)
    assert got.exact and got.text.startswith("0.47368542241")
    lam = math.exp(-1 / 1000)
    c = (1 - lam) / (1 + lam)
    law = np.zeros(1001)  # loss (2k - 1000)/1000, k = 0..1000
    law[1000] = 1 / (1 + lam)
    law[0] = math.exp(-1) / (1 + lam)
    for j in range(1, 1000):
        law[1000 - j] += c * lam**j  # loss (1000 - 2j)/1000
    total = np.array([1.0])
    for _ in range(10):
        total = np.convolve(total, law)
    loss = (2 * np.arange(total.size) - 10000) / 1000
    ref = float(np.sum(total[loss > 3] * -np.expm1(3 - loss[loss > 3])))
    assert abs(float(got.text) - ref) < 1e-12


def test_discrete_laplace_at_log_two_by_its_trinomial_law():
    """eps = log 2, Delta = 2: losses log 2, 0, -log 2 (the point -1 has loss 0); four
    releases at eps' = 1 (it was refused: "no dominating worst shift")."""
    got = compose([(component(MECHANISMS["discrete-laplace"](eps="log(2)", Delta=2)), 4)],
                  1, 10)
    with workdps(40):
        lam = 1 / mpmath.sqrt(2)
        law = {1: 1 / (1 + lam), 0: (1 - lam) / (1 + lam) * lam, -1: lam**2 / (1 + lam)}
        total = mpmath.mpf(0)
        for ks in itertools.product(law, repeat=4):
            loss = sum(ks) * mpmath.log(2)
            if loss > 1:
                total += mpmath.fprod(law[k] for k in ks) * -mpmath.expm1(1 - loss)
    assert got.text == mpmath.nstr(total, 10) == "0.2473166946"


def test_huge_eps_inverse_and_many_releases():
    """The staircase at eps = 1e100: delta(eps') = 1/2 at 3 eps - log 2, rounded up to
    3.000000000e+100; 100000 releases at eps = 1 (the trimmed tails' mass counted in the
    enclosure) give delta(100) = 1 - 3e-...: 1.000000000."""
    st = component(Staircase(eps="1e100"), digits=10)
    assert compose_epsilon([(st, 3)], "1/2", 10).text == "3.000000000e+100"
    assert compose([(component(Staircase(eps=1)), 100000)], 100, 10).text == "1.000000000"


def test_fixed_point_products_are_rounded_the_stated_way():
    """Every coefficient of a product of fixed-point masses is the exact one divided by
    2^bits and rounded up (the dominating or upper law), or down: the composed bounds rest
    on it. Small coefficients (below one unit) included, which a truncating division
    would send to 0 on the way up."""
    import random

    import flint

    rng = random.Random(20261128)
    for _ in range(200):
        bits = rng.choice([1, 3, 20, 64, 150])

        def draw(bits: int = bits) -> int:
            return rng.choice([0, 1, rng.getrandbits(max(1, bits + rng.randint(-5, 5))),
                               1 << bits])
        xs = [draw() for _ in range(rng.randint(1, 30))]
        square = rng.random() < 0.3
        ys = xs if square else [draw() for _ in range(rng.randint(1, 30))]
        exact = [0] * (len(xs) + len(ys) - 1)
        for i, a in enumerate(xs):
            for j, c in enumerate(ys):
                exact[i + j] += a * c
        for up in (True, False):
            want = [-(-c >> bits) if up else c >> bits for c in exact]
            while want and want[-1] == 0:
                want.pop()
            got = rounded_product(flint.fmpz_poly(xs), None if square else flint.fmpz_poly(ys),
                                  bits, up)
            assert [int(c) for c in got.coeffs()] == want, (bits, up)


def test_squares_kept_across_counts_give_the_same_bounds():
    """Compositions of one component a different number of times on one grid reuse its
    squared laws (kept between calls): every bound is the one of a fresh component, whose
    laws are squared anew, whatever the order of the counts."""
    kept = component(Laplace(eps=1))
    for k in (7, 3, 12, 1, 5, 12):
        warm = compose_epsilon([(kept, k)], "1e-6", 15, interval="1/200")
        cold = compose_epsilon([(component(Laplace(eps=1)), k)], "1e-6", 15,
                               interval="1/200")
        assert (warm.lower, warm.upper, warm.interval) == (cold.lower, cold.upper,
                                                           cold.interval), k
        assert warm.interval == "1/200" and float(warm.lower) <= float(warm.upper)
