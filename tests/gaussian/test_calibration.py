"""The Gaussian mechanism's exact profile and its calibrations (dpsym.gaussian.calibration)."""

from __future__ import annotations

from fractions import Fraction

import mpmath
import numpy as np
import pytest

from dpsym.errors import DomainError
from dpsym.gaussian import calibration as gc
from dpsym.gaussian import float64 as g64
from dpsym.mechanisms import fastpath as fp


def _hockey_stick_quad(eps: mpmath.mpf, sigma: mpmath.mpf, d: mpmath.mpf) -> mpmath.mpf:
    """Independent: integrate (p - e^eps q)_+ for p = N(0, s^2), q = N(d, s^2) by quadrature
    over the half-line where the integrand is positive (found from the densities)."""
    p = lambda z: mpmath.npdf(z, 0, sigma)  # noqa: E731
    q = lambda z: mpmath.npdf(z, d, sigma)  # noqa: E731
    f = lambda z: p(z) - mpmath.exp(eps) * q(z)  # noqa: E731
    # the sign change of f: the root of log p - log q = eps, solved numerically
    loss = lambda z: mpmath.log(p(z)) - mpmath.log(q(z)) - eps  # noqa: E731
    t = mpmath.findroot(loss, (mpmath.mpf(-1), mpmath.mpf(1)), solver="secant")
    assert f(t - sigma / 10) > 0 > f(t + sigma / 10)
    return mpmath.quad(f, [-mpmath.inf, t - 4 * sigma, t - sigma, t])


@pytest.mark.parametrize("eps,sigma,Delta", [
    ("0.5", "1", "1"), ("1", "0.7", "2"), ("3", "0.4", "1"), ("0.01", "20", "1"),
    ("0", "1", "1"), ("8", "0.5", "3"),
])
def test_profile_matches_direct_quadrature(eps, sigma, Delta):
    with mpmath.workdps(30):
        e, s, d = (mpmath.mpf(Fraction(v).numerator) / Fraction(v).denominator
                   for v in (eps, sigma, Delta))
        direct = _hockey_stick_quad(e, s, d)
        exact = gc.profile_mp(eps, sigma, Delta)
        assert abs(exact - direct) <= abs(direct) * mpmath.mpf(10) ** -20
        # the supremum over shifts |d| <= Delta is at d = Delta
        for frac in ("0.3", "0.9"):
            assert _hockey_stick_quad(e, s, d * mpmath.mpf(frac)) < exact


def test_profile_derivative_identities():
    """d delta / d mu = phi(mu/2 - eps/mu) > 0 (docstring proof), checked numerically."""
    with mpmath.workdps(30):
        for eps, mu in [(mpmath.mpf("0.5"), mpmath.mpf("1.3")), (mpmath.mpf(7), mpmath.mpf(2))]:
            f = lambda m, eps=eps: mpmath.exp(gc._profile_mu_mp(eps, m)[0])  # noqa: E731
            assert mpmath.almosteq(mpmath.diff(f, mu), mpmath.npdf(mu / 2 - eps / mu),
                                   rel_eps=mpmath.mpf(10) ** -20)


@pytest.mark.parametrize("eps,sigma", [
    ("700", "0.05"), ("700", "0.2"), ("5000", "0.01"), ("1e-8", "1e6"), ("2", "1e-3"),
    ("0.3", "1e40"), ("1e-30", "1e-10"),
])
def test_profile_extreme_regimes_against_naive_formula_at_high_precision(eps, sigma):
    """The naive Phi(a) - e^eps Phi(b), at enough precision to swallow its cancellation
    and e^eps, against the cancellation-free form at 30 digits."""
    with mpmath.workdps(30):
        fast = gc.profile_mp(eps, sigma)
    with mpmath.workdps(3000):
        e, s = mpmath.mpf(eps), mpmath.mpf(sigma)
        a, b = 1 / (2 * s) - e * s, -1 / (2 * s) - e * s
        naive = mpmath.ncdf(a) - mpmath.exp(e) * mpmath.ncdf(b)
        assert naive > 0
        assert abs(fast - naive) <= naive * mpmath.mpf(10) ** -25


def test_profile_tiny_and_huge_values():
    with mpmath.workdps(20):
        tiny = gc.profile_mp("1", "100")  # sigma = 100: delta tiny
        assert 0 < tiny < mpmath.mpf(10) ** -2000
        near_one = gc.profile_mp("1", "0.2")  # sigma -> 0: delta -> 1
        assert mpmath.mpf("0.97") < near_one < 1
        assert gc.profile_mp("1", "1e-4") == 1  # 1 - delta ~ 1e-(10^7) rounds away
    with mpmath.workdps(20):
        _v, text = gc.profile_value("1", "100", digits=15)
        assert text.startswith(mpmath.nstr(tiny, 15)[:10])


@pytest.mark.parametrize("eps,delta", [
    ("1", "1e-5"), ("0.001", "1e-300"), ("500", "1e-300"), ("1e-6", "0.5"), ("2", "0.9"),
    ("0.25", "0.999999999999999999999999999999"), ("3", "1e-5000"), ("1e-50", "0.1"),
])
def test_calibrated_sigma_achieves_delta_and_is_minimal(eps, delta):
    sigma, _ = gc.calibrate_sigma_mp(eps, delta, "2", digits=30)
    with mpmath.workdps(45):
        d = mpmath.mpf(Fraction(delta).numerator) / Fraction(delta).denominator
        at = gc.profile_mp(eps, sigma, "2")
        assert abs(at - d) <= d * mpmath.mpf(10) ** -27
        if d > mpmath.mpf(1) / 2:  # conditioning of delta near 1: compare 1 - delta
            assert abs((1 - at) - (1 - d)) <= (1 - d) * mpmath.mpf(10) ** -20
        h = mpmath.mpf(10) ** (-12 if d > mpmath.mpf(1) / 2 else -20)
        assert gc.profile_mp(eps, sigma * (1 - h), "2") > d  # any smaller sigma is not private
        assert gc.profile_mp(eps, sigma * (1 + h), "2") < d


def test_digits_40_at_delta_1e_12_eps_50():
    _sigma, text = gc.calibrate_sigma_mp("50", "1e-12", digits=40)
    assert len(text.replace(".", "").lstrip("0")) == 40
    with mpmath.workdps(60):
        assert mpmath.almosteq(gc.profile_mp("50", text), mpmath.mpf("1e-12"),
                               rel_eps=mpmath.mpf(10) ** -36)
    # precision independence: the 60-digit value rounds to the 40-digit text
    _, text60 = gc.calibrate_sigma_mp("50", "1e-12", digits=60)
    with mpmath.workdps(40):
        assert mpmath.nstr(mpmath.mpf(text60), 40, strip_zeros=False) == text


def test_huge_eps_and_many_digits():
    sigma, _ = gc.calibrate_sigma_mp("1e100", "1e-12", digits=30)
    with mpmath.workdps(40):
        # mu = sqrt(2 eps) - x with x = O(1): sigma sqrt(2 eps) = 1 + O(1e-50)
        assert mpmath.almosteq(sigma * mpmath.sqrt(2 * mpmath.mpf(10) ** 100), 1,
                               rel_eps=mpmath.mpf(10) ** -29)
    _, text = gc.calibrate_sigma_mp("1", "1e-5", digits=300)
    _, text50 = gc.calibrate_sigma_mp("1", "1e-5", digits=50)
    assert text.startswith(text50[:-2])


def test_float64_matches_mpmath_on_grid():
    E = np.geomspace(1e-6, 500, 11)
    D = np.concatenate([np.geomspace(1e-300, 0.5, 11), [1e-6, 0.1, 0.3]])
    EE, DD = np.meshgrid(E, D)
    fast = g64.calibrate_sigma(EE, DD)
    assert fast.shape == EE.shape
    worst = 0.0
    with mpmath.workdps(25):
        for e, d, v in zip(EE.flat, DD.flat, fast.flat, strict=True):
            ref = gc.calibrate_sigma_value(e, d)
            worst = max(worst, abs(float((mpmath.mpf(v) - ref) / ref)))
    assert worst <= 1e-14


def test_float64_broadcasting_scalars_and_sensitivity():
    out = g64.calibrate_sigma(np.array([[0.5], [2.0]]), np.array([1e-5, 1e-3, 0.2]), 3.0)
    assert out.shape == (2, 3)
    assert isinstance(g64.calibrate_sigma(1.0, 1e-5), float)
    assert np.allclose(out / 3.0, g64.calibrate_sigma(np.array([[0.5], [2.0]]),
                                                     np.array([1e-5, 1e-3, 0.2])), rtol=1e-15)
    # the float profile inverts the calibration
    assert np.allclose(g64.profile(2.0, out[1] / 3.0), [1e-5, 1e-3, 0.2], rtol=1e-13)


@pytest.mark.parametrize("call", [
    lambda: gc.calibrate_sigma_mp("0", "1e-5"),
    lambda: gc.calibrate_sigma_mp("-1", "1e-5"),
    lambda: gc.calibrate_sigma_mp("1e101", "1e-5"),
    lambda: gc.calibrate_sigma_mp("1", "0"),
    lambda: gc.calibrate_sigma_mp("1", "1"),
    lambda: gc.calibrate_sigma_mp("1", "1e-5", "0"),
    lambda: gc.calibrate_sigma_mp("nan", "1e-5"),
    lambda: gc.calibrate_sigma_mp("1", "inf"),
    lambda: gc.calibrate_sigma_mp("1", "1e-5", digits=0),
    lambda: g64.calibrate_sigma(0.0, 1e-5),
    lambda: g64.calibrate_sigma(np.array([1.0, -1.0]), 1e-5),
    lambda: g64.calibrate_sigma(1.0, np.nan),
    lambda: g64.calibrate_sigma(np.inf, 0.1),
    lambda: g64.calibrate_sigma(1.0, 1.0),
    lambda: g64.calibrate_sigma(1.0, 0.1, -2.0),
    lambda: gc.profile_mp("1", "0"),
])
def test_bad_input_raises_domain_error_naming_the_parameter(call):
    with pytest.raises(DomainError) as info:
        call()
    message = str(info.value)
    assert info.value.name in {"eps", "delta", "Delta", "sigma", "digits"}
    assert any(token in message for token in ("(0, 1)", "(0,", "[1,", "finite", "number"))


@pytest.mark.parametrize("name,bad", [
    ("eps", np.nan), ("eps", 0.0), ("eps", -0.0), ("eps", -3.0), ("eps", np.inf),
    ("eps", -np.inf), ("eps", 2e300), ("delta", np.nan), ("delta", 0.0), ("delta", 1.0),
    ("delta", -1e-9), ("delta", np.inf), ("Delta", np.nan), ("Delta", 0.0), ("Delta", np.inf),
    ("Delta", -2.0),
])
@pytest.mark.parametrize("where", [0, 37, 99])
def test_float_validation_finds_one_bad_element_anywhere(name, bad, where):
    """The min/max check of the float64 inputs misses no bad element, names the parameter
    and its interval, and reports the offending value where it is finite."""
    args = {"eps": np.geomspace(1e-6, 500.0, 100), "delta": np.geomspace(1e-300, 0.5, 100),
            "Delta": np.full(100, 2.0)}
    args[name][where] = bad
    with pytest.raises(DomainError) as info:
        g64.calibrate_sigma(args["eps"], args["delta"], args["Delta"])
    assert info.value.name == name
    interval = {"eps": "(0, 1e300]", "delta": "(0, 1)", "Delta": "(0, inf)"}[name]
    assert interval in str(info.value)
    if np.isfinite(bad):
        assert repr(bad) in str(info.value)
    # the same check guards the truncated-Laplacian fast path (delta in (0, 1/2))
    if name != "Delta":
        eps = args["eps"] if name == "eps" else np.geomspace(1e-6, 500.0, 100)
        delta = args["delta"] if name == "delta" else np.geomspace(1e-300, 0.49, 100)
        with pytest.raises(DomainError) as info:
            fp.truncated_laplace_power(eps, delta)
        assert info.value.name == name


def test_float_validation_accepts_the_interval_edges():
    e = np.array([1e99, 5e-324, 1.0, 500.0])
    d = np.array([5e-324, 0.9999999999999999, 5e-324, 5e-324])
    out = g64.calibrate_sigma(e, d)
    with mpmath.workdps(30):
        for ev, dv, v in zip(e, d, out, strict=True):
            ref = gc.calibrate_sigma_value(Fraction(ev), Fraction(dv))
            assert abs(v / ref - 1) <= 1e-14, (ev, dv)
    assert np.isfinite(g64.calibrate_sigma(1e300, 0.1))
    assert g64.calibrate_sigma(np.empty(0), 0.5).shape == (0,)


def test_classic_calibration_private_on_its_domain_not_beyond():
    with mpmath.workdps(25):
        for eps in ("0.01", "0.5", "0.999"):
            for delta in ("1e-12", "1e-6", "0.01", "0.5", "0.99"):
                check = gc.classic_check(eps, delta)
                assert check["private"] and check["ratio"] < mpmath.mpf(1) / 3
                assert check["sigma_classic"] > check["sigma_analytic"]
        # outside eps < 1 the classic sigma is not private
        for eps, delta in (("10", "1e-6"), ("5", "0.5"), ("20", "1e-12")):
            check = gc.classic_check(eps, delta)
            assert not check["private"] and check["ratio"] > 1
    assert g64.classic_sigma(0.5, 1e-5) == pytest.approx(2 * np.sqrt(2 * np.log(1.25e5)))


def test_notes_variant_without_125_fails_near_delta_one():
    """Notes 001: sigma^2 >= 2 Delta^2 log(1/delta) / eps^2 for eps <= 1, delta in (0, 1)."""
    with mpmath.workdps(25):
        sigma = mpmath.sqrt(2 * mpmath.log(1 / mpmath.mpf("0.99")))
        assert gc.profile_mp(1, sigma) > mpmath.mpf("0.99")


def test_notes_sign_of_exponent():
    """The notes print e^{-eps} in front of the second Phi; the profile has e^{+eps}."""
    with mpmath.workdps(25):
        e = mpmath.mpf(1)
        wrong = mpmath.ncdf(mpmath.mpf("0.5") - e) - mpmath.exp(-e) * mpmath.ncdf(-0.5 - e)
        right = mpmath.ncdf(mpmath.mpf("0.5") - e) - mpmath.exp(e) * mpmath.ncdf(-0.5 - e)
        assert mpmath.almosteq(gc.profile_mp(1, 1), right, rel_eps=mpmath.mpf(10) ** -20)
        assert wrong > 2 * right
