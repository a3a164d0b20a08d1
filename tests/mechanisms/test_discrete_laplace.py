r"""Tests of :mod:`dpsym.mechanisms.discrete_laplace` against the mass function
:math:`P(i) = \frac{1-\lambda}{1+\lambda}\lambda^{|i|}` summed by mpmath and sympy."""

from __future__ import annotations

import mpmath
import numpy as np
import pytest
import sympy as sp

from dpsym.errors import DomainError
from dpsym.mechanisms.discrete_laplace import DiscreteLaplace
from dpsym.precision import workdps
from dpsym.symbols import Delta, eps

CASES = [("1/2", 2), ("1", 1), ("3", 5), ("1/100", 1)]


def reference_moment(e: str, D: int, p: int) -> mpmath.mpf:
    """E|X|^p by direct summation of the mass function (mpmath nsum)."""
    lam = mpmath.exp(-mpmath.mpf(sp.Rational(e)) / D)
    norm = (1 - lam) / (1 + lam)
    return 2 * norm * mpmath.nsum(lambda i: i**p * lam**i, [1, mpmath.inf])


def test_ratio_and_normalisation_closed_form():
    assert DiscreteLaplace.ratio() == sp.exp(-eps / Delta)
    lam = sp.Symbol("lam", positive=True)
    i = sp.Symbol("i", integer=True, nonnegative=True)
    total = 2 * sp.summation(lam**i, (i, 0, sp.oo)).args[0][0] - 1  # convergent branch
    expected_norm = sp.simplify(1 / total)
    assert sp.simplify(expected_norm - (1 - lam) / (1 + lam)) == 0
    noise = DiscreteLaplace(eps="1/2", Delta=2).numeric_noise()
    mass0 = sp.N(noise.mass_at_zero(), 40)
    assert abs(mass0 - sp.N(expected_norm.subs(lam, sp.exp(-sp.Rational(1, 4))), 40)) < 1e-35


@pytest.mark.parametrize(("e", "D"), CASES)
@pytest.mark.parametrize(("cost", "p"), [("amplitude", 1), ("power", 2)])
def test_costs_match_direct_summation(e, D, cost, p):
    got = DiscreteLaplace(eps=e, Delta=D).value("cost", cost, 25)
    with workdps(50):
        ref = reference_moment(e, D, p)
        assert abs(mpmath.mpf(got.text) - ref) <= mpmath.mpf(10) ** -22 * ref


def test_moment_closed_forms():
    r"""E|X| = 2 lam/(1 - lam^2) and E X^2 = 2 lam/(1 - lam)^2, derived by sympy."""
    lam = sp.Symbol("lam", positive=True)
    i = sp.Symbol("i", integer=True, positive=True)
    norm = (1 - lam) / (1 + lam)
    m1 = sp.simplify(2 * norm * sp.summation(i * lam**i, (i, 1, sp.oo)).args[0][0])
    m2 = sp.simplify(2 * norm * sp.summation(i**2 * lam**i, (i, 1, sp.oo)).args[0][0])
    assert sp.simplify(m1 - 2 * lam / (1 - lam**2)) == 0
    assert sp.simplify(m2 - 2 * lam / (1 - lam) ** 2) == 0
    got = DiscreteLaplace(eps=1, Delta=3).value("cost", "power", 30)
    with workdps(40):
        ref = sp.N(m2.subs(lam, sp.exp(-sp.Rational(1, 3))), 40)
        assert abs(mpmath.mpf(got.text) - mpmath.mpf(str(ref))) < mpmath.mpf(10) ** -27


def test_pmf_and_cdf():
    m = DiscreteLaplace(eps="1/2", Delta=2)
    lam = np.exp(-0.25)
    ks = np.arange(-6, 7)
    expected = (1 - lam) / (1 + lam) * lam ** np.abs(ks)
    assert np.allclose(m.pmf(ks), expected, rtol=1e-13, atol=0)
    assert np.allclose(m.cdf(ks), np.cumsum(expected) + (1 - lam) / (1 + lam)
                       * lam**7 / (1 - lam), rtol=1e-12, atol=0)
    assert m.pmf(0.5) == 0


def test_samples_match_the_pmf(rng):
    """Chi-square test on {|i| <= 6} and the rest; bins of expected count >= 100,
    threshold the 1 - 1e-7 quantile of chi2(14): false alarm < 1e-6."""
    from scipy import stats
    m = DiscreteLaplace(eps=1, Delta=1)
    n = 200_000
    draws = m.sample(rng, n)
    assert draws.dtype.kind == "i"
    lam = np.exp(-1.0)
    ks = np.arange(-6, 7)
    probs = (1 - lam) / (1 + lam) * lam ** np.abs(ks)
    probs = np.append(probs, 1 - probs.sum())
    counts = np.array([np.sum(draws == k) for k in ks] + [np.sum(np.abs(draws) > 6)])
    chi2 = np.sum((counts - n * probs) ** 2 / (n * probs))
    assert chi2 < stats.chi2.isf(1e-7, len(probs) - 1)


def test_domain_errors():
    with pytest.raises(DomainError, match="Delta"):
        DiscreteLaplace(eps=1, Delta="1/2")
    with pytest.raises(DomainError, match="eps"):
        DiscreteLaplace(eps=0, Delta=1)
    with pytest.raises(DomainError, match="eps"):
        DiscreteLaplace(eps=-1, Delta=1)
