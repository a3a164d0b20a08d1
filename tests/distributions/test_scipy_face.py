r"""Tests of :mod:`dpsym.distributions.scipy_face`: a mechanism's noise as a frozen
distribution, against ``scipy.stats.laplace`` and closed forms, exact enumeration of
lattice laws, and the independent staircase reference (:mod:`reference`)."""

from __future__ import annotations

import math

import mpmath
import numpy as np
import pytest
from reference import staircase_cost
from scipy import stats

from dpsym.errors import DomainError, UnsupportedError
from dpsym.mechanisms import MECHANISMS
from dpsym.mechanisms.discrete_laplace import DiscreteLaplace
from dpsym.mechanisms.discrete_uniform import DiscreteUniform
from dpsym.mechanisms.laplace import Laplace
from dpsym.mechanisms.laplace_md import LaplaceMD
from dpsym.mechanisms.staircase import Staircase
from dpsym.precision import workdps

LAP = Laplace(eps="1/2", Delta=1)  # scale 2
REF = stats.laplace(scale=2.0)
XS = np.array([-40.0, -3.5, -1e-3, 0.0, 0.7, 5.0, 60.0])


def test_laplace_functions_match_scipy():
    assert np.allclose(LAP.pdf(XS), REF.pdf(XS), rtol=1e-14, atol=0)
    assert np.allclose(LAP.cdf(XS), REF.cdf(XS), rtol=1e-13, atol=0)
    assert np.allclose(LAP.sf(XS), REF.sf(XS), rtol=1e-13, atol=0)
    lower = XS[XS <= 0]  # log F is log of the float64 F (resolved in the lower tail)
    assert np.allclose(LAP.logcdf(lower), REF.logcdf(lower), rtol=1e-13, atol=0)
    assert np.allclose(LAP.logsf(-lower), REF.logsf(-lower), rtol=1e-13, atol=0)
    assert isinstance(LAP.cdf(1.0), float) and LAP.cdf([1.0]).shape == (1,)
    # the upper tail keeps its relative precision: sf(1400) = exp(-700)/2
    assert math.isclose(LAP.sf(1400.0), math.exp(-700) / 2, rel_tol=1e-12)


def test_laplace_moments_and_entropy():
    # E X^2 = 2 s^2, E|X|^3 = 3! s^3, E X^4 = 4! s^4, entropy 1 + log(2 s), s = 2
    assert math.isclose(LAP.var(), 8.0, rel_tol=1e-15)
    assert math.isclose(LAP.std(), math.sqrt(8.0), rel_tol=1e-15)
    assert math.isclose(LAP.abs_moment(3), 48.0, rel_tol=1e-15)
    assert LAP.moment(3) == 0.0 and LAP.moment(0) == 1.0
    assert math.isclose(LAP.moment(4), 384.0, rel_tol=1e-15)
    m, v, s, k = LAP.stats("mvsk")
    assert (m, s) == (0.0, 0.0) and math.isclose(v, 8.0) and math.isclose(k, 3.0, rel_tol=1e-12)
    assert math.isclose(LAP.entropy(), 1 + math.log(4), rel_tol=1e-14)
    assert LAP.mean() == 0.0 and LAP.median() == 0.0
    with workdps(40):
        assert abs(mpmath.mpf(LAP.moment_value("3/2", 30).text)
                   - mpmath.gamma(mpmath.mpf(5) / 2) * 2 ** mpmath.mpf(1.5)) < 1e-28


@pytest.mark.parametrize("q", [1e-300, 1e-12, 0.01, 0.3, 0.499999, 0.75, 1 - 1e-12])
def test_ppf_is_the_smallest_double_reaching_q(q):
    y = LAP.ppf(q)
    assert LAP.cdf(y) >= q and LAP.cdf(np.nextafter(y, -np.inf)) < q
    if q <= 0.75:  # where the float64 cdf resolves x (the upper tail is isf's)
        assert math.isclose(y, REF.ppf(q), rel_tol=1e-9, abs_tol=1e-12)


@pytest.mark.parametrize("q", [1e-300, 1e-20, 0.2])
def test_isf_resolves_the_upper_tail(q):
    y = LAP.isf(q)
    assert LAP.sf(y) <= q and LAP.sf(np.nextafter(y, -np.inf)) > q
    assert math.isclose(y, REF.isf(q), rel_tol=1e-9)


def test_quantile_conventions():
    assert LAP.ppf(0.5) == 0.0 and LAP.isf(0.5) == 0.0
    assert LAP.ppf(0.0) == -np.inf and LAP.ppf(1.0) == np.inf
    assert LAP.isf(0.0) == np.inf and LAP.isf(1.0) == -np.inf
    assert np.isnan(LAP.ppf(1.5)) and np.isnan(LAP.isf(-0.1))
    assert LAP.interval(1.0) == (-np.inf, np.inf)
    lo, hi = LAP.interval(0.9)
    assert lo == -hi and math.isclose(hi, REF.ppf(0.95), rel_tol=1e-12)
    with pytest.raises(DomainError, match="confidence"):
        LAP.interval(1.5)


def test_lattice_law_by_enumeration():
    m = DiscreteUniform(delta="1/5", Delta=2)  # n = 10: mass 1/10 on |i| < 5, 1/20 at 5
    ks = np.arange(-7, 8)
    exact = np.where(np.abs(ks) < 5, 0.1, np.where(np.abs(ks) == 5, 0.05, 0.0))
    assert np.allclose(m.pmf(ks), exact, rtol=1e-15, atol=0)
    assert m.pmf(0.5) == 0.0 and m.pmf(np.inf) == 0.0
    assert np.allclose(m.cdf(ks + 0.5), np.cumsum(exact), rtol=1e-14, atol=1e-17)
    assert np.allclose(m.sf(ks), 1 - np.cumsum(exact), rtol=1e-13, atol=1e-15)
    assert m.support() == (-5.0, 5.0)
    assert m.ppf(0.0) == -6.0 and m.ppf(1.0) == 5.0 and m.interval(1.0) == (-6.0, 5.0)
    assert m.ppf(0.05) == -5.0 and m.ppf(0.0500001) == -4.0
    assert math.isclose(m.entropy(), -(9 * 0.1 * math.log(0.1) + 2 * 0.05 * math.log(0.05)),
                        rel_tol=1e-14)
    with pytest.raises(UnsupportedError, match="use pmf"):
        m.pdf(0)
    with pytest.raises(UnsupportedError, match="use pdf"):
        LAP.pmf(0)


def test_rvs_reproducible_and_distributed():
    """Kolmogorov-Smirnov against the exact cdf; a p-value below 1e-7 (false alarm
    < 1e-6) fails."""
    a = LAP.rvs(20_000, random_state=7)
    assert np.array_equal(a, LAP.rvs(20_000, random_state=7))
    assert stats.kstest(a, LAP.cdf).pvalue > 1e-7
    assert np.ndim(LAP.rvs(random_state=1)) == 0
    assert LAP.rvs((2, 3), random_state=np.random.default_rng(1)).shape == (2, 3)
    d = DiscreteLaplace(eps=1, Delta=1).rvs(5, random_state=3)
    assert d.dtype.kind == "i"


def test_point_mass_law():
    um = MECHANISMS["uniform-mass"](delta="1/10", Delta=1, alpha="1/20")
    atom = float(um.numeric_noise().atom)
    assert atom > 0
    assert um.cdf(0.0) == (1 + atom) / 2 and um.sf(0.0) == (1 - atom) / 2
    # P(X = 0) is seen by the sampler: a binomial count, 6 sigma (false alarm < 1e-8)
    draws = um.rvs(50_000, random_state=11)
    zeros = draws == 0
    assert abs(zeros.sum() - 50_000 * atom) < 6 * math.sqrt(50_000 * atom * (1 - atom))
    assert not np.signbit(draws[zeros]).any()  # +0.0, never -0.0
    with pytest.raises(UnsupportedError, match="mixed law"):
        um.entropy()


def test_law_and_fixed_free_parameter():
    m = Staircase(eps=1, Delta=1)
    power = m.law("power")
    assert power.law_cost == "power" and repr(power).endswith(".law('power')")
    assert power.var() == float(m.value("cost", "power", 17))
    assert m.var() > power.var()  # the amplitude-optimal noise has a larger power cost
    fixed = Staircase(eps=1, Delta=1, gamma="3/10")
    with pytest.raises(DomainError, match="gamma was given"):
        fixed.law("power")
    with workdps(40):
        for cost, p in (("amplitude", 1), ("power", 2)):
            got = mpmath.mpf(fixed.value("cost", cost, 25).text)
            ref = staircase_cost(1, 1, mpmath.mpf(3) / 10, p)
            assert abs(got - ref) < mpmath.mpf(10) ** -23 * ref
        assert fixed.value("gamma", "amplitude", 10).text == "0.3000000000"
    with pytest.raises(DomainError, match="method"):
        fixed.value("cost", "amplitude", 10, method="magic")


def test_errors():
    with pytest.raises(DomainError, match="moments"):
        LAP.stats("mx")
    with pytest.raises(DomainError, match="order"):
        LAP.moment(1.5)
    with pytest.raises(DomainError, match="order"):
        LAP.moment(True)
    with pytest.raises(DomainError, match=r"\(0, 20\]") as info:
        LAP.abs_moment(25)
    assert info.value.name == "p"
    with pytest.raises(DomainError, match="infrastructure"):
        LAP.to_scipy(infrastructure="old")
    md = LaplaceMD(eps=1, Delta=1, dim=3)
    assert md.rvs(4, random_state=1).shape == (4, 3)
    assert md.rvs(random_state=1).shape == (3,)
    for method in (md.cdf, md.pdf):
        with pytest.raises(UnsupportedError, match="3-dimensional"):
            method(0.0)
    with pytest.raises(UnsupportedError):
        md.mean()


def test_to_scipy_frozen():
    frozen = LAP.to_scipy()
    assert np.allclose(frozen.cdf(XS), REF.cdf(XS), rtol=1e-13, atol=0)
    assert math.isclose(frozen.ppf(0.9), REF.ppf(0.9), rel_tol=1e-12)
    assert math.isclose(frozen.var(), 8.0, rel_tol=1e-14)
    lattice = DiscreteUniform(delta="1/5", Delta=2).to_scipy()
    assert math.isclose(lattice.pmf(5), 0.05) and lattice.support() == (-5, 5)
