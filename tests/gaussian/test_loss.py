r"""Tests of :mod:`dpsym.gaussian.loss`: the profile of the loss :math:`N(\mu, 2\mu)`, its
inverse and its grid, against mpmath at 50 digits."""

from __future__ import annotations

import flint
import mpmath
import pytest
import sympy as sp

from dpsym.errors import UnsupportedError
from dpsym.gaussian.enclosures import normal_cdf
from dpsym.gaussian.loss import MAX_DEGREE, gaussian_bins, gaussian_delta, gaussian_inverse
from dpsym.precision import arb_workprec, workdps


def ref_Phi(z):
    return mpmath.ncdf(z)


def ref_delta(mu, e):
    r""":math:`P(L > e) - e^{e} Q(L > e)`, L ~ N(mu, 2 mu) under P and N(-mu, 2 mu) under Q."""
    s = mpmath.sqrt(2 * mu)
    return ref_Phi((mu - e) / s) - mpmath.exp(e) * ref_Phi((-mu - e) / s)


def contains(ball: flint.arb, value: mpmath.mpf) -> bool:
    text = mpmath.nstr(value, 45, strip_zeros=False)
    with arb_workprec(300):
        return ball.overlaps(flint.arb(text, mpmath.nstr(abs(value) * 1e-42 + 1e-300, 3)))


@pytest.mark.parametrize("z", ["-3", "0", "1/7", "5"])
def test_normal_cdf(z):
    with arb_workprec(160), workdps(50):
        got = normal_cdf(flint.arb(sp.Rational(z).p) / sp.Rational(z).q)
        ref = ref_Phi(mpmath.mpf(sp.Rational(z).p) / sp.Rational(z).q)
        assert contains(got, ref) and got.rad() < 1e-40


@pytest.mark.parametrize(("mu", "e"), [("1/2", "0"), ("1/2", "1"), ("3", "2/3"), ("1/50", "1/10")])
def test_gaussian_delta_matches_the_definition(mu, e):
    mu_q, e_q = sp.Rational(mu), sp.Rational(e)
    with arb_workprec(200), workdps(50):
        got = gaussian_delta(flint.arb(mu_q.p) / mu_q.q, flint.arb(e_q.p) / e_q.q)
        ref = ref_delta(mpmath.mpf(mu_q.p) / mu_q.q, mpmath.mpf(e_q.p) / e_q.q)
        assert contains(got, ref) and got.rad() < 1e-40 * ref
        # the profile at 0 is the total variation 2 Phi(sqrt(mu/2)) - 1
        if e_q == 0:
            assert abs(ref - (2 * ref_Phi(mpmath.sqrt(mu_q / 2)) - 1)) < 1e-45


def test_gaussian_delta_does_not_overflow_at_huge_eps():
    with arb_workprec(128):
        got = gaussian_delta(flint.arb(1) / 2, flint.arb(10) ** 100)
    assert got.contains(0) and got.upper() < flint.arb(10) ** -1000


@pytest.mark.parametrize(("mu", "target"), [("1/2", "1e-6"), ("2", "1/100"), ("1/8", "1e-10")])
def test_gaussian_inverse_is_the_smallest_eps(mu, target):
    text = gaussian_inverse(sp.Rational(mu), sp.Rational(target), 20)
    with workdps(60):
        got = mpmath.mpf(text)
        m, t = mpmath.mpf(sp.Rational(mu)), mpmath.mpf(sp.Rational(target))
        ulp = mpmath.mpf(10) ** (mpmath.floor(mpmath.log10(got)) - 19)
        assert ref_delta(m, got) <= t  # rounded up: the printed eps' suffices
        assert ref_delta(m, got - 2 * ulp) > t  # and it is the smallest to 20 digits


def test_gaussian_inverse_edges():
    assert gaussian_inverse(sp.Rational(1, 2), sp.Integer(0), 10) == "inf"
    # delta(0) = TV < 9/10: eps' = 0 suffices
    assert mpmath.mpf(gaussian_inverse(sp.Rational(1, 2), sp.Rational(9, 10), 10)) == 0


@pytest.mark.parametrize("up", [True, False])
def test_gaussian_bins_masses(up):
    mu, h = sp.Rational(1, 2), sp.Rational(1, 10)
    with arb_workprec(128):
        masses, top = gaussian_bins(mu, h, up)
    with workdps(40):
        m = mpmath.mpf(1) / 2
        s = mpmath.sqrt(2 * m)
        js = sorted(masses)
        total = sum(mpmath.mpf(masses[j].mid()) for j in js) + mpmath.mpf(top.mid())
        if up:
            assert abs(total - 1) < 1e-25
            # the Q-masses (mass e^{-jh} at jh) within the range are those of N(-mu, 2mu)
            lo, hi = js[0], js[-1]
            q_total = sum(mpmath.mpf(masses[j].mid()) * mpmath.exp(-j * mpmath.mpf(h))
                          for j in js)
            q_ref = ref_Phi((hi / mpmath.mpf(10) + m) / s)
            below = ref_Phi((lo / mpmath.mpf(10) - m) / s) * mpmath.exp(-lo / mpmath.mpf(10))
            assert abs(q_total - below - (q_ref - ref_Phi((lo / mpmath.mpf(10) + m) / s))) < 1e-25
        else:
            assert top == 0
            # each bin holds P(L in [jh, (j+1)h)); the mass below the range is dropped
            for j in js[:-1]:
                ref = (ref_Phi(((j + 1) / mpmath.mpf(10) - m) / s)
                       - ref_Phi((j / mpmath.mpf(10) - m) / s))
                assert abs(mpmath.mpf(masses[j].mid()) - ref) < 1e-30
            assert abs(total - 1) < 1e-35
        # truncated at 14 standard deviations
        assert js[0] * 0.1 <= 0.5 - 14 and js[-1] * 0.1 >= 0.5 + 14


def test_gaussian_bins_refuses_a_huge_grid():
    with pytest.raises(UnsupportedError, match="--interval"):
        gaussian_bins(sp.Integer(100), sp.Rational(1, 10**6), False)
    assert MAX_DEGREE == 2_000_000
