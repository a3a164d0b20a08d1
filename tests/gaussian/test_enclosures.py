"""Rigorous enclosures of the Gaussian profile, the analytic sigma and the audited profiles.

Every reference here is computed independently of the engine, from the definitions: the
Gaussian profile by the naive formula Phi(a) - e^eps Phi(b) in mpmath at a precision that
swallows its cancellation (or by quadrature of the two densities' hockey-stick integral),
the analytic sigma by bisection and findroot on that formula, the Laplace, truncated
Laplace and staircase profiles by integrating (f(x) - e^eps f(x - d))_+ piece by piece.
"""

from __future__ import annotations

import itertools
import json
from decimal import Decimal
from fractions import Fraction

import flint
import mpmath
import numpy as np
import pytest
from cli_helpers import run, run_json
from mpmath.libmp import from_man_exp

from dpsym.certified.kernel import certify_ball
from dpsym.errors import CertificationError
from dpsym.gaussian.calibration import calibrate_sigma_mp
from dpsym.gaussian.enclosures import Calibration, profile_enclosure
from dpsym.mechanisms import AnalyticGaussian, ClassicGaussian
from dpsym.precision import arb_workprec
from dpsym.reports.audit import audit


# ------------------------------------------------------------------------ references
def _mp(x: flint.arb) -> mpmath.mpf:
    """An exact Arb number (an end of a ball) as an mpf, without rounding."""
    man, exp = x.man_exp()
    return mpmath.mpf(from_man_exp(int(man), int(exp)))


def _contains(ball: flint.arb, ref: mpmath.mpf, slack: mpmath.mpf = 0) -> bool:
    """Whether ``ref`` lies in ``ball`` (widened by a relative ``slack``)."""
    with arb_workprec(ball.mid().bits() + 64):  # the exact ends, rounded outwards
        lo, hi = _mp(ball.lower()), _mp(ball.upper())
    return lo - slack * abs(lo) <= ref <= hi + slack * abs(hi)


def _exact(text: str) -> mpmath.mpf:
    f = Fraction(text)
    return mpmath.mpf(f.numerator) / f.denominator


def naive_profile(eps, sigma, Delta=1) -> mpmath.mpf:
    """Phi(D/(2s) - e s/D) - e^eps Phi(-D/(2s) - e s/D) at the working precision."""
    e, s, d = (v if isinstance(v, mpmath.mpf) else _exact(str(v)) for v in (eps, sigma, Delta))
    a = d / (2 * s) - e * s / d
    b = -d / (2 * s) - e * s / d
    return mpmath.erfc(-a / mpmath.sqrt(2)) / 2 - mpmath.exp(e) * mpmath.erfc(
        -b / mpmath.sqrt(2)) / 2


def quad_profile(eps, sigma, Delta) -> mpmath.mpf:
    """The hockey-stick integral of N(0, s^2) against N(D, s^2) by quadrature, split at
    the crossing point of the two densities (found numerically)."""
    e, s, d = (_exact(str(v)) for v in (eps, sigma, Delta))
    p = lambda z: mpmath.npdf(z, 0, s)  # noqa: E731
    q = lambda z: mpmath.npdf(z, d, s)  # noqa: E731
    t = mpmath.findroot(lambda z: mpmath.log(p(z) / q(z)) - e, 0)
    f = lambda z: p(z) - mpmath.exp(e) * q(z)  # noqa: E731
    assert f(t - s / 8) > 0 > f(t + s / 8)
    return mpmath.quad(f, [-mpmath.inf, t - 4 * s, t - s, t])


def root_sigma(eps: str, delta: str, Delta: str = "1") -> mpmath.mpf:
    """sigma with naive_profile(sigma) = delta: bisection in log sigma, then findroot."""
    target = _exact(delta)
    f = lambda s: naive_profile(eps, s, Delta) - target  # noqa: E731
    lo = hi = mpmath.mpf(1)
    while f(hi) > 0:
        hi *= 4
    while f(lo) < 0:
        lo /= 4
    for _ in range(60):
        mid = mpmath.sqrt(lo * hi)
        lo, hi = (mid, hi) if f(mid) > 0 else (lo, mid)
    return mpmath.findroot(f, (lo, hi), solver="anderson")


def rounded(value: mpmath.mpf, digits: int) -> Decimal:
    """``value`` (not on a tie) rounded to ``digits`` significant digits, as a Decimal."""
    e = int(mpmath.floor(mpmath.log10(value)))
    unit = mpmath.mpf(10) ** (e - digits + 1)
    mantissa = int(mpmath.nint(value / unit))
    return Decimal(f"{mantissa}E{e - digits + 1}")


# ------------------------------------------------------------------------ the profile
PROFILE_CASES = [
    ("1", "4", "1", 60), ("0", "1", "1", 60), ("0.5", "1", "1", 60), ("3", "0.4", "1", 60),
    ("1e-3", "20", "2", 80), ("30", "0.2", "1", 60), ("700", "0.05", "1", 60),
    ("1e-8", "1e6", "1", 120), ("1", "100", "1", 80), ("1e-100", "1e60", "1", 300),
    ("0.3", "1e40", "1", 300), ("1e4", "1e-3", "1", 60),
    # mu (|x| + 3) below 2^-bits: the mean-value form, with x = 10, 0.8 and about 0
    ("1e-59", "1e60", "1", 300), ("8e-61", "1e60", "1", 300), ("1e-130", "1e60", "1", 300),
]


@pytest.mark.parametrize("eps, sigma, Delta, dps", PROFILE_CASES)
def test_profile_ball_contains_the_naive_formula_at_high_precision(eps, sigma, Delta, dps):
    ball = profile_enclosure(Fraction(eps), Fraction(sigma), Fraction(Delta))(120)
    assert ball.rel_accuracy_bits() >= 110
    with mpmath.workdps(dps):
        assert _contains(ball, naive_profile(eps, sigma, Delta))


@pytest.mark.parametrize("eps, sigma, Delta", [("0.5", "1", "1"), ("1", "0.7", "2"),
                                               ("3", "0.4", "1"), ("0.01", "20", "1")])
def test_profile_ball_contains_the_quadrature(eps, sigma, Delta):
    ball = profile_enclosure(Fraction(eps), Fraction(sigma), Fraction(Delta))(100)
    with mpmath.workdps(40):
        assert _contains(ball, quad_profile(eps, sigma, Delta), mpmath.mpf(10) ** -30)


def test_profile_digits_match_the_reference_and_audit_agrees():
    for eps, sigma, Delta, dps in PROFILE_CASES[:8]:
        result = audit("gaussian", eps=eps, sigma=sigma, Delta=Delta, digits=25)
        assert result.certificate == "enclosure"
        with mpmath.workdps(dps):
            assert Decimal(result.text) == rounded(naive_profile(eps, sigma, Delta), 25)
            lo, hi = (mpmath.mpf(t) for t in result.enclosure)
            assert lo <= naive_profile(eps, sigma, Delta) <= hi


@pytest.mark.parametrize("side", [1, -1])
def test_profile_near_a_rounding_tie_rounds_correctly(side):
    """sigma chosen (by findroot here) so that delta is within 10^-(d+3) of the midpoint
    of two d-digit decimals, on either side."""
    d = 12
    with mpmath.workdps(80):
        v4 = naive_profile(1, 4)
        e = int(mpmath.floor(mpmath.log10(v4)))
        unit = mpmath.mpf(10) ** (e - d + 1)
        tie = (mpmath.floor(v4 / unit) + mpmath.mpf(1) / 2) * unit
        aim = tie * (1 + side * mpmath.mpf(10) ** -(d + 3))
        root = mpmath.findroot(lambda s: naive_profile(1, s) - aim, mpmath.mpf(4))
        sigma = mpmath.nstr(root, 50)
        value = naive_profile(1, _exact(sigma))
        assert abs(value / tie - 1) < mpmath.mpf(10) ** -(d + 2)
        assert (value > tie) == (side > 0)
        expected = rounded(value, d)
    assert Decimal(audit("gaussian", eps="1", sigma=sigma, digits=d).text) == expected


# ------------------------------------------------------------------------ the calibration
CALIBRATION_CASES = [("1", "1e-6"), ("1e-3", "1e-6"), ("30", "1e-6"), ("1e4", "1e-6"),
                     ("0.5", "0.3"), ("2", "0.9"), ("1e-6", "0.4"), ("5", "1e-12")]


@pytest.mark.parametrize("eps, delta", CALIBRATION_CASES)
def test_sigma_enclosure_contains_the_root_and_its_ends_have_the_right_signs(eps, delta):
    root = Calibration(Fraction(eps), Fraction(delta), Fraction(1))
    ball = root.sigma(150)
    assert ball.rel_accuracy_bits() >= 140
    with mpmath.workdps(100):
        reference = root_sigma(eps, delta)
        assert _contains(ball, reference)
        target = _exact(delta)
        with arb_workprec(ball.mid().bits() + 64):
            lo, hi = _mp(ball.lower()), _mp(ball.upper())
        assert naive_profile(eps, lo) > target > naive_profile(eps, hi)


@pytest.mark.parametrize("eps, delta", [("3.729e-286", "3.49e-164"),
                                        ("1e-200", "5.6413316458940151132e-101")])
def test_tiny_eps_roots_near_zero_are_isolated(eps, delta):
    """x* = eps/mu - mu/2 about 1e-123 and 1.4e-104 (the bracket is searched down to
    it geometrically); the profile at the ends of sigma's enclosure brackets delta."""
    ball = Calibration(Fraction(eps), Fraction(delta), Fraction(1)).sigma(100)
    assert ball.rel_accuracy_bits() >= 90
    with mpmath.workdps(600), arb_workprec(ball.mid().bits() + 64):
        lo, hi = _mp(ball.lower()), _mp(ball.upper())
        assert naive_profile(eps, lo) > _exact(delta) > naive_profile(eps, hi)


@pytest.mark.parametrize("eps, delta", CALIBRATION_CASES)
def test_analytic_gaussian_quantities_are_enclosures_of_the_reference(eps, delta):
    m = AnalyticGaussian(eps=eps, delta=delta)
    with mpmath.workdps(100):
        s = root_sigma(eps, delta)
        expected = {
            ("sigma", "amplitude"): s,
            ("density0", "amplitude"): 1 / (s * mpmath.sqrt(2 * mpmath.pi)),
            ("cost", "amplitude"): s * mpmath.sqrt(2 / mpmath.pi),
            ("cost", "power"): s**2,
            ("cost", "moment:3"): s**3 * 2 * mpmath.sqrt(2 / mpmath.pi),
            ("cost", "moment:1/2"): mpmath.sqrt(s) * mpmath.mpf(2) ** (mpmath.mpf(1) / 4)
            * mpmath.gamma(mpmath.mpf(3) / 4) / mpmath.sqrt(mpmath.pi),
        }
        for (quantity, cost), ref in expected.items():
            found = m.value(quantity, cost, 30)
            assert found.certificate == "enclosure"
            assert Decimal(found.text) == rounded(ref, 30)
            lo, hi = (mpmath.mpf(t) for t in found.enclosure)
            assert lo <= ref <= hi


@pytest.mark.parametrize("eps, delta", [("1e-300", "1e-6"), ("1e100", "1e-12"),
                                        ("0.25", "0.999999999999999999999999999999"),
                                        ("3", "1e-3000"), ("1e-50", "0.1")])
def test_extreme_ends_of_the_domain_are_enclosures(eps, delta):
    found = AnalyticGaussian(eps=eps, delta=delta).value("sigma", digits=20)
    assert found.certificate == "enclosure"
    sigma = Fraction(found.text)
    # the profile just below and above the printed sigma brackets delta (decreasing)
    lo, hi = sigma * (1 - Fraction(1, 10**18)), sigma * (1 + Fraction(1, 10**18))
    ball_lo = profile_enclosure(Fraction(eps), lo, Fraction(1))(256)
    ball_hi = profile_enclosure(Fraction(eps), hi, Fraction(1))(256)
    target = Fraction(delta)
    with arb_workprec(300):
        t = flint.arb(flint.fmpq(target.numerator, target.denominator))
        assert ball_lo > t > ball_hi


@pytest.mark.parametrize("side", [1, -1])
def test_sigma_near_a_rounding_tie_rounds_correctly(side):
    """delta chosen so that sigma* is within 10^-(d+3) of the midpoint of two d-digit
    decimals (the point found with mpmath here)."""
    d = 15
    with mpmath.workdps(100):
        s0 = root_sigma("1", "1e-6")
        e = int(mpmath.floor(mpmath.log10(s0)))
        unit = mpmath.mpf(10) ** (e - d + 1)
        tie = (mpmath.floor(s0 / unit) + mpmath.mpf(1) / 2) * unit
        aim = tie * (1 + side * mpmath.mpf(10) ** -(d + 3))
        delta = mpmath.nstr(naive_profile(1, aim), 60)
        reference = root_sigma("1", delta)
        assert abs(reference / tie - 1) < mpmath.mpf(10) ** -(d + 2)
        assert (reference > tie) == (side > 0)
        expected = rounded(reference, d)
    found = AnalyticGaussian(eps="1", delta=delta).value("sigma", digits=d)
    assert Decimal(found.text) == expected
    assert Decimal(calibrate_sigma_mp("1", delta, 1, d)[1]) == expected


def test_seeded_random_calibrations_round_like_the_reference():
    rng = np.random.default_rng(20261126)
    for _ in range(10):
        eps = f"{10 ** rng.uniform(-3, 3):.6g}"
        delta = f"{10 ** rng.uniform(-12, np.log10(0.4)):.6g}"
        found = AnalyticGaussian(eps=eps, delta=delta).value("sigma", digits=25)
        assert found.certificate == "enclosure"
        with mpmath.workdps(90):
            reference = root_sigma(eps, delta)
            assert Decimal(found.text) == rounded(reference, 25), (eps, delta)
            lo, hi = (mpmath.mpf(t) for t in found.enclosure)
            assert lo <= reference <= hi


def test_classic_gaussian_profile_is_an_enclosure_at_its_exact_sigma():
    m = ClassicGaussian(eps="0.5", delta="1e-5", Delta="2")
    found = m.privacy_profile("0.5", digits=25)
    assert found.certificate == "enclosure"
    with mpmath.workdps(80):
        sigma = mpmath.sqrt(2 * mpmath.log(mpmath.mpf("1.25") / mpmath.mpf("1e-5"))) * 2 / \
            mpmath.mpf("0.5")
        assert Decimal(found.text) == rounded(naive_profile(mpmath.mpf("0.5"), sigma, 2), 25)
    a = AnalyticGaussian(eps="2", delta="1e-6", Delta="3")
    found = a.privacy_profile("2", digits=20)  # at sigma*, delta(eps) is delta itself
    assert found.certificate == "enclosure" and Decimal(found.text) == Decimal("1e-6")


def test_an_undecidable_rounding_raises_certification_error():
    """A ball that always straddles a rounding tie (0.125 to 2 digits) is refused."""
    def enclose(bits: int) -> flint.arb:
        return flint.arb(flint.fmpq(1, 8), flint.arb(2) ** -bits)

    with pytest.raises(CertificationError, match="did not round"):
        certify_ball(enclose, 2)


# ------------------------------------------------------------------------ audited profiles
def _pieces_integral(f, g, points, lo, hi) -> mpmath.mpf:
    """The integral of (f - g)_+ over [lo, hi], split at ``points`` and at the sign
    changes of f - g found on a grid of each piece."""
    cuts = sorted({lo, hi, *(p for p in points if lo < p < hi)})
    total = mpmath.mpf(0)
    h = lambda z: f(z) - g(z)  # noqa: E731
    for a, b in itertools.pairwise(cuts):
        inner = [a, b]
        if mpmath.isfinite(a) and mpmath.isfinite(b):
            grid = [a + (b - a) * k / 32 for k in range(33)]
            for u, v in itertools.pairwise(grid):
                if h(v) == 0:  # a kink of (f - g)_+ on the grid itself
                    inner.append(v)
                elif h(u) * h(v) < 0:
                    inner.append(_bisect(h, u, v))
        inner.sort()
        for u, v in itertools.pairwise(inner):
            total += mpmath.quad(lambda z: max(h(z), 0), [u, v])
    return total


def _bisect(h, u, v) -> mpmath.mpf:
    """A sign change of ``h`` in [u, v] by bisection to the working precision."""
    for _ in range(mpmath.mp.prec + 8):
        m = (u + v) / 2
        if h(u) * h(m) <= 0:
            v = m
        else:
            u = m
    return (u + v) / 2


def laplace_reference(eps, scale, bound, d) -> mpmath.mpf:
    """(f(x) - e^eps f(x - d))_+ integrated for Laplace noise truncated to [-A, A]
    (A = inf: not truncated)."""
    e, lam, A, d = (mpmath.mpf(v) for v in (eps, scale, bound, d))
    mass = 2 * lam * (1 - mpmath.exp(-A / lam)) if mpmath.isfinite(A) else 2 * lam
    f = lambda z: mpmath.exp(-abs(z) / lam) / mass if abs(z) <= A else mpmath.mpf(0)  # noqa
    g = lambda z: mpmath.exp(e) * f(z - d)  # noqa: E731
    ends = [-A, d - A, 0, d, A, d + A] if mpmath.isfinite(A) else [0, d]
    lo = -A if mpmath.isfinite(A) else -mpmath.inf
    hi = A if mpmath.isfinite(A) else mpmath.inf
    return _pieces_integral(f, g, ends, lo, hi)


def staircase_reference(eps, eps0, gamma, d, periods=120) -> mpmath.mpf:
    """The staircase density summed exactly piece by piece (piecewise constant) over
    [-K, K + d], K = periods (the mass beyond is below b^K)."""
    e, e0, g = (mpmath.mpf(v) for v in (eps, eps0, gamma))
    d = mpmath.mpf(d)
    b = mpmath.exp(-e0)
    a = (1 - b) / (2 * (g + b * (1 - g)))

    def f(z):
        k = mpmath.ceil(abs(z) - g)
        return a * b ** max(k, 0)

    steps = {mpmath.mpf(0)}
    for k in range(periods + 1):
        for t in (k, k + g):
            steps |= {t, -t, t + d, -t + d}
    pts = sorted(steps)
    total = mpmath.mpf(0)
    for u, v in itertools.pairwise(pts):
        if v > u:
            m = (u + v) / 2
            total += max(f(m) - mpmath.exp(e) * f(m - d), 0) * (v - u)
    return total


AUDITED = [
    ("laplace", {"scale": "1.2"}, "0.5", lambda e: laplace_reference(e, "1.2", mpmath.inf, 1)),
    ("laplace", {"scale": "0.3"}, "2", lambda e: laplace_reference(e, "0.3", mpmath.inf, 1)),
    ("truncated-laplace", {"scale": "1", "bound": "12"}, "1",
     lambda e: laplace_reference(e, 1, 12, 1)),
    ("truncated-laplace", {"scale": "1", "bound": "2"}, "0.3",
     lambda e: laplace_reference(e, 1, 2, 1)),
    ("truncated-laplace", {"scale": "2", "bound": "0.7"}, "0.1",
     lambda e: laplace_reference(e, 2, "0.7", 1)),
    ("truncated-laplace", {"scale": "1", "bound": "0.8"}, "0.5",
     lambda e: laplace_reference(e, 1, "0.8", 1)),
    ("staircase", {"eps0": "1", "gamma": "0.4"}, "0.5",
     lambda e: staircase_reference(e, 1, "0.4", 1)),
    ("staircase", {"eps0": "2", "gamma": "0.7"}, "0.2",
     lambda e: staircase_reference(e, 2, "0.7", 1)),
    ("staircase", {"eps0": "3", "gamma": "0"}, "0",
     lambda e: staircase_reference(e, 3, 0, 1, 60)),
]


@pytest.mark.parametrize("name, noise, eps, reference", AUDITED)
def test_audited_profiles_contain_the_integral_of_the_densities(name, noise, eps, reference):
    result = audit(name, eps=eps, digits=20, **noise)
    assert result.certificate == "enclosure"
    with mpmath.workdps(40):
        ref = reference(mpmath.mpf(eps))
        lo, hi = (mpmath.mpf(t) for t in result.enclosure)
        tol = mpmath.mpf(10) ** -32
        assert lo * (1 - tol) <= ref <= hi * (1 + tol)


@pytest.mark.parametrize("frac", ["0.25", "0.4", "0.6", "0.8"])
def test_the_supremum_over_the_shift_is_at_delta(frac):
    """The closed forms take d = Delta; smaller shifts (breakpoint differences included)
    give less."""
    with mpmath.workdps(30):
        d = mpmath.mpf(frac)
        assert staircase_reference("0.5", 1, "0.4", d, 60) <= staircase_reference(
            "0.5", 1, "0.4", 1, 60)
        assert laplace_reference("0.3", 1, "0.8", d) <= laplace_reference("0.3", 1, "0.8", 1)


@pytest.mark.parametrize("name, noise, eps, exact", [
    ("laplace", {"scale": "1.2"}, "1", "0"),
    ("laplace", {"scale": "10/3"}, "0.3", "0"),  # eps * scale = Delta exactly: a tie
    ("staircase", {"eps0": "1", "gamma": "0.4"}, "1", "0"),
    ("staircase", {"eps0": "0.7", "gamma": "0.4"}, "2", "0"),
    ("truncated-laplace", {"scale": "1", "bound": "0.5"}, "1", "1"),
])
def test_rational_profiles_are_exact(name, noise, eps, exact):
    target = exact if exact == "0" else "0.999"
    result = audit(name, eps=eps, delta=target, digits=30, **noise)
    assert result.certificate == "exact"
    assert Fraction(result.text) == Fraction(exact)
    assert result.met is (Fraction(exact) <= Fraction(target))


def test_a_scale_just_below_the_tie_is_a_positive_enclosure():
    result = audit("laplace", eps="0.3", scale="3.333333333333333333333333333333", digits=12)
    assert result.certificate == "enclosure" and Fraction(result.text) > 0
    with mpmath.workdps(60):
        ref = 1 - mpmath.exp((mpmath.mpf("0.3") - 1 / mpmath.mpf(
            "3.333333333333333333333333333333")) / 2)
        assert Decimal(result.text) == rounded(ref, 12)


@pytest.mark.parametrize("side", [1, -1])
def test_met_is_decided_by_the_enclosure_near_the_target(side):
    with mpmath.workdps(80):
        ref = naive_profile(1, 4)
        target = mpmath.nstr(ref * (1 + side * mpmath.mpf(10) ** -40), 60)
    result = audit("analytic-gaussian", eps="1", sigma="4", delta=target, digits=10)
    assert result.met is (side > 0)


def test_needed_sigma_is_the_independent_root_rounded_up():
    result = audit("analytic-gaussian", eps="0.7", delta="1e-7", sigma="2", digits=10)
    with mpmath.workdps(60):
        s = root_sigma("0.7", "1e-7")
        e = int(mpmath.floor(mpmath.log10(s)))
        unit = mpmath.mpf(10) ** (e - 5)
        expected = Decimal(f"{int(mpmath.ceil(s / unit))}E{e - 5}")
    assert Decimal(str(result.needed.value.numerator)) / result.needed.value.denominator \
        == expected


def test_audit_json_carries_enclosure_or_exact_for_every_mechanism(capsys):
    calls = [
        ("analytic-gaussian", "--sigma", "4"), ("gaussian", "--sigma", "4"),
        ("laplace", "--scale", "1.2"), ("truncated-laplace", "--scale", "1", "--bound", "12"),
        ("staircase", "--eps0", "1", "--gamma", "0.4"),
    ]
    seen = set()
    for call in calls:
        for eps in ("1", "0.5"):
            record = run_json(capsys, "audit", *call, "--eps", eps)
            assert record["certificate"] in ("enclosure", "exact")
            seen.add(record["certificate"])
            lo, hi = (Fraction(t) for t in record["enclosure"])
            assert lo <= Fraction(record["delta"]) <= hi or record["certificate"] == "enclosure"
            code, out, _ = run(capsys, "audit", *call, "--eps", eps, "--delta", "1e-6",
                               "--json")
            data = json.loads(out)
            assert data["certificate"] == record["certificate"]
            assert code == (0 if data["met"] else 1)
            assert data["needed"] is not None or data["needed_reason"]
    assert seen == {"enclosure", "exact"}
    laplace = run_json(capsys, "audit", "laplace", "--scale", "1.2", "--eps", "1")
    assert (laplace["certificate"], laplace["delta"]) == ("exact", "0")


@pytest.mark.parametrize("args, met", [
    ({"mechanism": "laplace", "eps": "1e6", "scale": "1e-300"}, False),  # 1 - e^(-5e299)
    ({"mechanism": "analytic-gaussian", "eps": "1", "sigma": "1e-300"}, False),
    ({"mechanism": "gaussian", "eps": "1e-6", "sigma": "1e300"}, True),  # 10^(-2e599)
])
def test_extreme_audits_are_enclosures(args, met):
    name = args.pop("mechanism")
    result = audit(name, delta="1e-10", digits=12, **args)
    assert result.certificate == "enclosure" and result.met is met
    assert not result.enclosure[0].startswith("-")
    if not met:
        assert result.text == "1.00000000000"
    else:  # log10 delta = log10(phi(x) mu (-R'(x))), -R'(x) = x^-2 (1 + O(x^-2)),
        # x = eps sigma - 1/(2 sigma) = 1e294 - 5e-301 (x^2 / 2 moves by 5e-7 with the 5e-301)
        with mpmath.workdps(1300):
            mu = mpmath.mpf(10) ** -300
            x = mpmath.mpf(10) ** 294 - mu / 2
            log10 = (-x * x / 2 - mpmath.log(2 * mpmath.pi) / 2 + mpmath.log(mu)
                     - 2 * mpmath.log(x)) / mpmath.log(10)
            power = int(mpmath.floor(log10))
            mantissa = rounded(mpmath.mpf(10) ** (log10 - power), 12)
        head, _, tail = result.text.partition("e")
        assert (Decimal(head), int(tail)) == (mantissa, power)


# ------------------------------------------------------------------------ privacy_profile
def test_mechanism_profiles_with_closed_forms_are_enclosures():
    from dpsym.mechanisms import Laplace, Staircase

    lap = Laplace(eps="0.5", Delta=2).privacy_profile("0.2", digits=20)
    stair = Staircase(eps="1").privacy_profile("0.5", digits=20, free_value="0.4")
    assert (lap.certificate, stair.certificate) == ("enclosure", "enclosure")
    with mpmath.workdps(40):
        tol = mpmath.mpf(10) ** -32
        for found, ref in ((lap, laplace_reference("0.2", 4, mpmath.inf, 2)),
                           (stair, staircase_reference("0.5", 1, "0.4", 1))):
            lo, hi = (mpmath.mpf(t) for t in found.enclosure)
            assert lo * (1 - tol) <= ref <= hi * (1 + tol)
    zero = Laplace(eps="0.5", Delta=2).privacy_profile("0.5")
    assert (zero.certificate, zero.text) == ("exact", "0")


@pytest.mark.parametrize("eps_prime", ["0", "0.1", "0.3", "2"])
def test_the_truncated_laplacian_profile_with_its_irrational_bound_is_an_enclosure(eps_prime):
    """Bound A = lambda log(1 + (e^eps - 1)/(2 delta)), lambda = Delta/eps: its cases are
    decided by balls; the value against the integral of the densities."""
    from dpsym.mechanisms import TruncatedLaplace

    found = TruncatedLaplace(eps="0.3", delta="1e-3", Delta=2).privacy_profile(eps_prime,
                                                                               digits=20)
    assert found.certificate == "enclosure"
    with mpmath.workdps(40):
        lam = 2 / mpmath.mpf("0.3")
        bound = lam * mpmath.log(1 + mpmath.expm1(mpmath.mpf("0.3")) / (2 * mpmath.mpf(
            "1e-3")))
        ref = laplace_reference(mpmath.mpf(eps_prime), lam, bound, 2)
        lo, hi = (mpmath.mpf(t) for t in found.enclosure)
        tol = mpmath.mpf(10) ** -30
        assert lo * (1 - tol) <= ref <= hi * (1 + tol)


def test_an_unnormalised_or_unknown_noise_has_no_closed_form():
    import sympy as sp

    from dpsym.privacy.closed_forms import from_noise
    from dpsym.symbolic.noise import GeometricTail, Piece, SymmetricNoise
    from dpsym.symbols import u, x

    half = Fraction(1, 2)
    good = SymmetricNoise(lattice=False, head=(Piece(0, sp.oo, sp.exp(-x) / 2),))
    assert from_noise(good, half, Fraction(1)) is not None
    double = SymmetricNoise(lattice=False, head=(Piece(0, sp.oo, sp.exp(-x)),))
    assert from_noise(double, half, Fraction(1)) is None
    q = sp.exp(-1)
    tail = GeometricTail(start=0, period=1, ratio=q,
                         pieces=(Piece(0, sp.Rational(1, 2), (1 - q) / (1 + q)),
                                 Piece(sp.Rational(1, 2), 1, q * (1 - q) / (1 + q))))
    assert from_noise(SymmetricNoise(lattice=False, tail=tail), half, Fraction(1)) is not None
    assert from_noise(SymmetricNoise(lattice=False, tail=tail), half, Fraction(2)) is None
    ramp = SymmetricNoise(lattice=False, head=(Piece(0, 1, 1 - x + 0 * u),))
    assert from_noise(ramp, half, Fraction(1)) is None


@pytest.mark.parametrize("e", ["0.5", "2", "1e-3", "30"])
@pytest.mark.parametrize("d", ["1e-5", "0.1", "1e-12"])
def test_a_gaussian_is_private_exactly_at_its_own_calibration(e, d):
    """The analytic calibration meets its own (eps, delta) with equality: private there
    and for a larger delta, not for a delta 0.1 % smaller. The classic calibration is
    decided against the profile at its closed-form sigma, written here with mpmath."""
    from dpsym.mechanisms import AnalyticGaussian, ClassicGaussian

    m = AnalyticGaussian(eps=e, delta=d)
    target = Fraction(d)
    assert m.is_private(e, d).private
    assert not m.is_private(e, target * Fraction(999, 1000)).private
    assert m.is_private(e, target * Fraction(1001, 1000)).private
    if Fraction(e) < 1:
        classic = ClassicGaussian(eps=e, delta=d)
        with mpmath.workdps(60):
            t, dd = mpmath.mpf(Fraction(e).numerator) / Fraction(e).denominator, \
                mpmath.mpf(target.numerator) / target.denominator
            s = mpmath.sqrt(2 * mpmath.log(mpmath.mpf(5) / 4 / dd)) / t
            want = mpmath.ncdf(1 / (2 * s) - t * s) - mpmath.exp(t) * mpmath.ncdf(
                -1 / (2 * s) - t * s)
        for k in (Fraction(1, 2), Fraction(2)):
            bound = Fraction(mpmath.nstr(want * mpmath.mpf(k.numerator) / k.denominator, 30))
            assert classic.is_private(e, bound).private is (k > 1)
