r"""Tests of :mod:`dpsym.mechanisms.discrete_uniform`: the symmetrised uniform law on
:math:`n = \lceil \Delta/\delta \rceil` integers, checked by exact enumeration."""

from __future__ import annotations

import math
from fractions import Fraction

import numpy as np
import pytest

from dpsym.errors import DomainError
from dpsym.mechanisms.discrete_uniform import MAX_SUPPORT, DiscreteUniform


def law(delta: Fraction, D: int) -> dict[int, Fraction]:
    """The symmetrisation of the uniform law on n consecutive integers, enumerated."""
    n = math.ceil(D / delta)
    lo = -(n // 2)  # the uniform law on lo, ..., lo + n - 1 and its mirror image
    out: dict[int, Fraction] = {}
    for i in range(lo, lo + n):
        for j in (i, -i):
            out[j] = out.get(j, Fraction(0)) + Fraction(1, 2 * n)
    return out


def tv_shift(p: dict[int, Fraction], d: int) -> Fraction:
    keys = set(p) | {k + d for k in p}
    return sum(abs(p.get(k, Fraction(0)) - p.get(k - d, Fraction(0))) for k in keys) / 2


CASES = [(Fraction(1, 10), 2), (Fraction(1, 7), 1), (Fraction(3, 10), 2), (Fraction(2, 3), 3),
         (Fraction(1, 4), 1)]


@pytest.mark.parametrize(("delta", "D"), CASES)
def test_costs_and_support_by_enumeration(delta, D):
    p = law(delta, D)
    assert sum(p.values()) == 1
    m = DiscreteUniform(delta=str(delta), Delta=D)
    n = m.value("n", "amplitude", 20)
    assert Fraction(n.text) == math.ceil(D / delta)
    for cost, power in (("amplitude", 1), ("power", 2)):
        exact = sum(abs(k) ** power * q for k, q in p.items())
        got = m.value("cost", cost, 20)
        assert abs(Fraction(got.text) - exact) <= Fraction(1, 10**15) * exact


@pytest.mark.parametrize(("delta", "D"), CASES)
def test_pmf_and_privacy_by_enumeration(delta, D):
    p = law(delta, D)
    m = DiscreteUniform(delta=str(delta), Delta=D)
    ks = np.arange(-max(p) - 2, max(p) + 3)
    assert np.allclose(m.pmf(ks), [float(p.get(int(k), 0)) for k in ks], rtol=1e-14, atol=0)
    # (0, delta)-DP: the total variation against every shift |d| <= Delta is at most delta
    assert max(tv_shift(p, d) for d in range(1, D + 1)) <= delta


def test_even_support_closed_forms():
    r"""For even :math:`n = \Delta/\delta`: :math:`E|X| = \Delta/(4\delta)`,
    :math:`E X^2 = \Delta^2/(12\delta^2) + 1/6` (the module docstring)."""
    delta, D = Fraction(1, 50), 3
    m = DiscreteUniform(delta=str(delta), Delta=D)
    assert Fraction(m.value("cost", "amplitude", 25).text) == D / (4 * delta)
    got = Fraction(m.value("cost", "power", 25).text)
    exact = D**2 / (12 * delta**2) + Fraction(1, 6)
    assert abs(got - exact) < Fraction(1, 10**20)


def test_samples_are_uniform(rng):
    """Chi-square on the 2n + 1 points: threshold at the 1 - 1e-7 quantile (false alarm
    < 1e-6)."""
    from scipy import stats
    delta, D = Fraction(1, 5), 2  # n = 10: points -5..5, mass 1/20 at +-5
    p = law(delta, D)
    draws = DiscreteUniform(delta="1/5", Delta=2).sample(rng, 100_000)
    ks = sorted(p)
    assert set(np.unique(draws)) <= set(ks)
    counts = np.array([np.sum(draws == k) for k in ks])
    expected = 100_000 * np.array([float(p[k]) for k in ks])
    chi2 = np.sum((counts - expected) ** 2 / expected)
    assert chi2 < stats.chi2.isf(1e-7, len(ks) - 1)


def test_domain_errors():
    with pytest.raises(DomainError, match="delta"):
        DiscreteUniform(delta="1e-20", Delta=1000)
    assert MAX_SUPPORT == 10**15
    DiscreteUniform(delta="1e-15", Delta=1)  # exactly at the limit
    with pytest.raises(DomainError, match="delta"):
        DiscreteUniform(delta=1, Delta=1)
    with pytest.raises(DomainError, match="delta"):
        DiscreteUniform(delta=0, Delta=1)
    with pytest.raises(DomainError, match="Delta"):
        DiscreteUniform(delta="1/2", Delta="3/2")
