r"""Tests of :mod:`dpsym.symbolic.l1`: the :math:`\ell^1` geometry and the staircase sums.

* Volumes of :math:`\ell^1` balls against mpmath quadrature (slicing: the section of the
  ball of radius :math:`r` at :math:`x_d = u` is the ball of radius :math:`r - |u|` in one
  dimension less, down to the segment :math:`[-r, r]`) and against counting lattice points.
* The sphere measure as the derivative of the volume, and its integral.
* Eulerian numbers against counting the descents of every permutation.
* The geometric sums against exact partial sums (Fractions) at rational :math:`b`, whose
  remaining tails are below :math:`10^{-60}`.
"""

from __future__ import annotations

import itertools
from fractions import Fraction

import mpmath
import pytest
import sympy as sp

from dpsym.symbolic.l1 import (
    eulerian_numbers,
    l1_ball_volume,
    l1_sphere_measure,
    power_geometric_sum,
    power_geometric_sums_numeric,
    shifted_power_sum,
    shifted_power_sums_numeric,
)
from dpsym.symbols import b, gamma

r = sp.Symbol("r", positive=True)


def sliced_volume(d: int, radius: mpmath.mpf) -> mpmath.mpf:
    """Volume of the l1 ball by slicing, with mpmath quadrature (no closed form used)."""
    if d == 1:
        return 2 * radius
    return 2 * mpmath.quad(lambda u: sliced_volume(d - 1, radius - u), [0, radius])


# ---------------------------------------------------------------------- volumes
@pytest.mark.parametrize("d", [1, 2, 3])  # nested quadrature: d = 4 takes seconds
def test_ball_volume_by_quadrature(d: int) -> None:
    with mpmath.workdps(20):
        radius = mpmath.mpf(7) / 5
        exact = mpmath.mpf(sp.N(l1_ball_volume(d, sp.Rational(7, 5)), 30))
        assert abs(sliced_volume(d, radius) / exact - 1) < mpmath.mpf(10) ** -12


def test_ball_volume_exact_values() -> None:
    assert l1_ball_volume(1, r) == 2 * r
    assert l1_ball_volume(2, r) == 2 * r**2
    assert l1_ball_volume(3, r) == sp.Rational(4, 3) * r**3
    assert l1_ball_volume(3, 3) == 36


@pytest.mark.parametrize("d", [1, 2, 3])
def test_ball_volume_by_counting_lattice_points(d: int) -> None:
    r"""The number of points of :math:`\mathbb{Z}^d` in the ball of radius :math:`n` is
    :math:`V_d(n) + O(n^{d-1})`; its ratio to :math:`V_d(n)` tends to 1."""
    n = 40
    count = sum(1 for point in itertools.product(range(-n, n + 1), repeat=d)
                if sum(map(abs, point)) <= n)
    volume = l1_ball_volume(d, n)
    assert abs(count / volume - 1) < 2 * d / n
    # the exact count is sum_k 2^k C(d, k) C(n, k) (Delannoy-type); compare too
    exact = sum(2**k * sp.binomial(d, k) * sp.binomial(n, k) for k in range(d + 1))
    assert count == exact


@pytest.mark.parametrize("d", [1, 2, 3, 5])
def test_sphere_measure_is_the_derivative_of_the_volume(d: int) -> None:
    assert sp.simplify(sp.diff(l1_ball_volume(d, r), r) - l1_sphere_measure(d, r)) == 0
    with mpmath.workdps(30):
        integral = mpmath.quad(lambda t: mpmath.mpf(sp.N(l1_sphere_measure(d, t), 40)), [0, 2])
        assert abs(integral - mpmath.mpf(sp.N(l1_ball_volume(d, 2), 40))) < 1e-20


def test_sphere_measure_exact_values() -> None:
    assert l1_sphere_measure(1, r) == 2
    assert l1_sphere_measure(2, r) == 4 * r
    assert l1_sphere_measure(3, r) == 4 * r**2


# ---------------------------------------------------------------------- Eulerian numbers
def descents_count(j: int) -> tuple[int, ...]:
    counts = [0] * max(j, 1)
    for perm in itertools.permutations(range(j)):
        counts[sum(1 for u, v in itertools.pairwise(perm) if u > v)] += 1
    return tuple(counts)


@pytest.mark.parametrize("j", range(1, 8))
def test_eulerian_numbers_count_descents(j: int) -> None:
    assert eulerian_numbers(j) == descents_count(j)


def test_eulerian_numbers_known_rows() -> None:
    assert eulerian_numbers(0) == (1,)
    assert eulerian_numbers(4) == (1, 11, 11, 1)
    assert eulerian_numbers(5) == (1, 26, 66, 26, 1)
    with pytest.raises(ValueError, match="nonnegative"):
        eulerian_numbers(-1)


# ---------------------------------------------------------------------- geometric sums
def partial(term, ratio: Fraction, terms: int = 1500) -> Fraction:
    total, power = Fraction(0), Fraction(1)
    for kk in range(terms):
        total += power * term(kk)
        power *= ratio
    return total


def as_fraction(expr: sp.Expr) -> Fraction:
    assert expr.is_Rational, expr
    return Fraction(int(expr.p), int(expr.q))


@pytest.mark.parametrize("j", range(7))
@pytest.mark.parametrize("ratio", [Fraction(1, 3), Fraction(3, 4)], ids=str)
def test_power_geometric_sum(j: int, ratio: Fraction) -> None:
    value = as_fraction(sp.cancel(power_geometric_sum(j).subs(b, sp.Rational(ratio.numerator,
                                                                             ratio.denominator))))
    assert abs(value - partial(lambda kk: Fraction(kk) ** j, ratio)) < Fraction(1, 10**60)


def test_power_geometric_sum_known_values() -> None:
    assert power_geometric_sum(0) == 1 / (1 - b)
    assert sp.simplify(power_geometric_sum(1) - b / (1 - b) ** 2) == 0
    assert power_geometric_sum(3).subs(b, sp.Rational(1, 2)) == 26


@pytest.mark.parametrize("m", range(6))
@pytest.mark.parametrize(("ratio", "shift"), [(Fraction(1, 3), Fraction(2, 5)),
                                              (Fraction(3, 4), Fraction(1)),
                                              (Fraction(1, 2), Fraction(0))], ids=str)
def test_shifted_power_sum(m: int, ratio: Fraction, shift: Fraction) -> None:
    expr = shifted_power_sum(m).subs({b: sp.Rational(ratio.numerator, ratio.denominator),
                                      gamma: sp.Rational(shift.numerator, shift.denominator)})
    value = as_fraction(sp.cancel(expr))
    expected = partial(lambda kk: (kk + shift) ** m, ratio)
    assert abs(value - expected) < Fraction(1, 10**60)


def test_shifted_power_sum_is_a_polynomial_in_gamma_with_positive_coefficients() -> None:
    poly = sp.Poly(shifted_power_sum(4), gamma)
    assert poly.degree() == 4
    for coeff in poly.all_coeffs():
        assert all(v > 0 for v in (coeff.subs(b, sp.Rational(1, 5)),
                                   coeff.subs(b, sp.Rational(9, 10))))


def test_numeric_shifted_sums_are_read_lazily_at_the_precision_they_were_made() -> None:
    r"""Each :math:`S_n(\gamma)` of the sequence is the binomial expansion
    :math:`\sum_{j \le n} \binom{n}{j} \gamma^{n-j} E_j` summed at the precision the
    sequence was made with, whatever the precision it is read at, in any order, by index,
    negative index or slice; past the end is an IndexError."""
    import math

    with mpmath.workdps(40):
        g = mpmath.mpf(2) / 7
        e = power_geometric_sums_numeric(6, mpmath.mpf(1) / 3, mpmath.mpf(2) / 3)
        sums = shifted_power_sums_numeric(6, g, e)
        powers = [mpmath.mpf(1)]
        for _ in range(6):
            powers.append(powers[-1] * g)
        want = [mpmath.fsum(math.comb(n, j) * powers[n - j] * e[j] for j in range(n + 1))
                for n in range(7)]
    with mpmath.workdps(15):
        assert sums[5] == want[5] and sums[-1] == want[6]
        assert sums[1:4] == want[1:4] and list(sums) == want and len(sums) == 7
    with pytest.raises(IndexError):
        sums[7]
