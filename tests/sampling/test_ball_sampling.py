r"""Tests of :mod:`dpsym.sampling.ball_sampling`: the period index against its exact law
:math:`P(K = k) \propto b^k (k + \gamma)^d` (chi-square), the tail draws, the uniform
direction (Kolmogorov-Smirnov against the Dirichlet marginal) and the exact
:math:`\mathbb{E}\|X\|_1` (z-test). Every statistical threshold has a false-alarm
probability below 1e-6 for a correct sampler."""

from __future__ import annotations

import math
from fractions import Fraction

import mpmath
import numpy as np
import pytest
from scipy import stats

from dpsym.errors import DomainError
from dpsym.precision import workdps
from dpsym.sampling.ball_sampling import BallMixtureSampler, ball_sampler

CHI2_ALARM = 1e-7


def k_law(d: int, e: Fraction, g: Fraction, ks: range) -> tuple[list[float], float]:
    """P(K = k) for k in ks and the rest, P(K = k) = b^k (k + g)^d / S (mpmath sums)."""
    with workdps(30):
        b = mpmath.exp(-mpmath.mpf(e.numerator) / e.denominator)
        gm = mpmath.mpf(g.numerator) / g.denominator
        total = mpmath.nsum(lambda k: b**k * (k + gm) ** d, [0, mpmath.inf])
        probs = [float(b**k * (k + gm) ** d / total) for k in ks]
    return probs, 1 - sum(probs)


def chi2_ok(counts: np.ndarray, probs: np.ndarray) -> bool:
    n = counts.sum()
    expected = n * probs
    assert expected.min() >= 50  # the chi-square approximation holds
    return np.sum((counts - expected) ** 2 / expected) < stats.chi2.isf(CHI2_ALARM,
                                                                          len(probs) - 1)


@pytest.mark.parametrize(("d", "e", "g"), [(3, Fraction(1), Fraction(3, 10)),
                                           (1, Fraction(1, 2), Fraction(1, 2)),
                                           (7, Fraction(2), Fraction(0))])
def test_period_index_law(rng, d, e, g):
    s = BallMixtureSampler(d, e, Fraction(2), g)
    scales = s.scales(rng, 200_000)
    ks = np.rint(scales / 2 - float(g)).astype(int)
    assert np.allclose((ks + float(g)) * 2, scales, rtol=1e-12, atol=0)
    assert ks.min() >= (1 if g == 0 else 0)  # gamma = 0: the ball of radius 0 is never hit
    probs, _ = k_law(d, e, g, range(0, 40))
    keep = [k for k, p in enumerate(probs) if p * 200_000 >= 50]
    while (1 - sum(probs[k] for k in keep)) * 200_000 < 50:  # the rest's bin too
        keep.pop()  # the largest k joins the rest
    counts = [np.sum(ks == k) for k in keep] + [np.sum(~np.isin(ks, keep))]
    expected = [probs[k] for k in keep] + [1 - sum(probs[k] for k in keep)]
    assert chi2_ok(np.array(counts), np.array(expected))


def test_tail_periods(rng):
    """K given K >= N: P(K = k) proportional to b^k (k + gamma)^d from N on."""
    d, e, g = 2, Fraction(1, 3), Fraction(1, 4)
    s = BallMixtureSampler(d, e, Fraction(1), g)
    n = s.n_table
    draws = s.tail_periods(rng, 100_000)
    assert draws.min() >= n and np.all(draws == np.floor(draws))
    with workdps(30):
        b = mpmath.exp(-mpmath.mpf(1) / 3)
        w = [b**k * (k + mpmath.mpf(1) / 4) ** d for k in range(n, n + 400)]
        total = mpmath.fsum(w)
        probs = [float(x / total) for x in w]
    top = 12
    counts = [np.sum(draws == n + j) for j in range(top)] + [np.sum(draws >= n + top)]
    expected = [*probs[:top], 1 - sum(probs[:top])]
    assert chi2_ok(np.array(counts), np.array(expected))


@pytest.mark.parametrize("d", [2, 7])  # sorted uniforms (d <= 5) and exponentials
def test_direction_is_uniform_on_the_ball(rng, d):
    r""":math:`|X_1|/\|X\|_1` is Beta(1, d - 1) for a uniform direction; the signs are
    fair (binomial, 6 standard deviations)."""
    x = BallMixtureSampler(d, Fraction(1), Fraction(1), Fraction(1, 2))(rng, 50_000)
    assert x.shape == (50_000, d)
    share = np.abs(x[:, 0]) / np.abs(x).sum(axis=1)
    assert stats.kstest(share, lambda t: 1 - (1 - t) ** (d - 1)).pvalue > 1e-7
    positive = np.sum(x > 0, axis=0)
    assert np.all(np.abs(positive - 25_000) < 6 * math.sqrt(50_000 / 4))


def test_mean_l1_norm(rng):
    r"""E||X||_1 = Delta E(K + gamma) d/(d + 1) (||V||_1 has density d r^{d-1}); the
    variance from E||X||_1^2 = Delta^2 E(K + gamma)^2 d/(d + 2); |z| < 5.3 (false alarm
    < 1.2e-7)."""
    d, e, g, D = 3, Fraction(1, 2), Fraction(2, 5), 3
    n = 200_000
    x = BallMixtureSampler(d, e, Fraction(D), g)(rng, n)
    norms = np.abs(x).sum(axis=1)
    with workdps(30):
        b = mpmath.exp(-mpmath.mpf(1) / 2)
        gm = mpmath.mpf(2) / 5
        S = [mpmath.nsum(lambda k, j=j: b**k * (k + gm) ** (d + j), [0, mpmath.inf])
             for j in range(3)]
        m1 = D * S[1] / S[0] * mpmath.mpf(d) / (d + 1)
        m2 = D**2 * S[2] / S[0] * mpmath.mpf(d) / (d + 2)
        sd = float(mpmath.sqrt((m2 - m1**2) / n))
    assert abs(norms.mean() - float(m1)) < 5.3 * sd


def test_shapes_cache_and_reproducibility():
    s = ball_sampler(2, Fraction(1), Fraction(1), Fraction(1, 2))
    assert s is ball_sampler(2, Fraction(1), Fraction(1), Fraction(1, 2))
    assert s(np.random.default_rng(1), (2, 3)).shape == (2, 3, 2)
    assert s(np.random.default_rng(1), 0).shape == (0, 2)
    a = s(np.random.default_rng(5), 40_000)  # more than one block
    assert np.array_equal(a, s(np.random.default_rng(5), 40_000))
    assert np.all(np.isfinite(a))
    assert "d=2" in repr(s)


def test_errors():
    with pytest.raises(DomainError, match="gamma"):
        BallMixtureSampler(2, Fraction(1), Fraction(1), Fraction(3, 2))
    with pytest.raises(DomainError, match="eps/Delta"):
        BallMixtureSampler(2, Fraction(1), Fraction(10**306), Fraction(1, 2))
    s = ball_sampler(2, Fraction(1), Fraction(1), Fraction(1, 2))
    with pytest.raises(DomainError):
        s(np.random.default_rng(1), -1)
    with pytest.raises(DomainError):
        s(42, 3)
