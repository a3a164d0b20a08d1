r"""Tests of :mod:`dpsym.privacy.divergence`: the hockey-stick integral
:math:`\int (f(x) - c f(x + d))_+` and the privacy-loss bound of unrolled densities,
against closed forms (Laplace), direct summation (lattice laws) and exact piecewise-linear
integration (a triangular density)."""

from __future__ import annotations

from itertools import pairwise

import mpmath
import pytest
import sympy as sp

from dpsym.errors import DomainError, UnsupportedError
from dpsym.mechanisms import MECHANISMS
from dpsym.mechanisms.discrete_laplace import DiscreteLaplace
from dpsym.mechanisms.laplace import Laplace
from dpsym.mechanisms.staircase import Staircase
from dpsym.precision import workdps
from dpsym.privacy.divergence import (
    MAX_DIRECT_SUM,
    Density,
    check_numeric,
    numeric_value,
    piece_bound,
)
from dpsym.symbolic.noise import GeometricTail, Piece, SymmetricNoise
from dpsym.symbols import eps, x

TOL = mpmath.mpf(10) ** -30
TRIANGLE = SymmetricNoise(lattice=False, head=(Piece(sp.Integer(0), sp.Integer(1), 1 - x),))


@pytest.mark.parametrize(("d", "eps_prime"), [("1", "0"), ("1", "1/4"), ("1/2", "1/10"),
                                              ("2", "3/4")])
def test_laplace_profile_closed_form(d, eps_prime):
    r"""Laplace of scale s = 2 at shift d: :math:`\delta = 1 - e^{(\varepsilon^{\prime} -
    d/s)/2}` for :math:`\varepsilon^{\prime} \le d/s`, else 0."""
    with workdps(40):
        dens = Density(Laplace(eps="1/2", Delta=1).numeric_noise(), 2)
        dd, ep = mpmath.mpf(sp.Rational(d)), mpmath.mpf(sp.Rational(eps_prime))
        ref = max(0, 1 - mpmath.exp((ep - dd / 2) / 2))
        assert abs(dens.hockey(dd, mpmath.exp(ep)) - ref) < TOL
        assert abs(dens.hockey(-dd, mpmath.exp(ep)) - ref) < TOL  # symmetric
        assert abs(dens.loss_bound(dd) - dd / 2) < TOL
        assert dens.is_log_concave() and not dens.piecewise_constant


@pytest.mark.parametrize(("d", "eps_prime"), [(1, "0"), (2, "1/3"), (3, "1")])
def test_discrete_laplace_by_summation(d, eps_prime):
    with workdps(40):
        dens = Density(DiscreteLaplace(eps=1, Delta=3).numeric_noise(), 3)
        lam = mpmath.exp(-mpmath.mpf(1) / 3)
        norm = (1 - lam) / (1 + lam)
        c = mpmath.exp(mpmath.mpf(sp.Rational(eps_prime)))

        def p(i):
            return norm * lam ** abs(i)

        ref = mpmath.nsum(lambda i: max(0, p(i) - c * p(i + d)), [-mpmath.inf, mpmath.inf])
        assert abs(dens.hockey(d, c) - ref) < TOL
        assert abs(dens.loss_bound(d) - mpmath.mpf(d) / 3) < TOL
        assert not dens.is_log_concave()  # a lattice law


def staircase_density(e, g):
    """The staircase density with Delta = 1, from its definition (000 Part One)."""
    b = mpmath.exp(-e)
    a = (1 - b) / (2 * (g + (1 - g) * b))

    def f(t):
        k = int(mpmath.floor(abs(t)))
        return a * b**k * (1 if abs(t) - k < g else b)
    return f


def test_staircase_hockey_by_exact_steps():
    """Piecewise constant: the integral over the common refinement of both step grids."""
    g = sp.Rational(3, 10)
    noise = Staircase(eps=1, Delta=1, gamma=str(g)).numeric_noise()
    with workdps(40):
        dens = Density(noise, 1)
        assert dens.piecewise_constant and not dens.is_log_concave()
        f = staircase_density(mpmath.mpf(1), mpmath.mpf(g))
        d = mpmath.mpf(1) / 2
        c = mpmath.exp(mpmath.mpf(1) / 5)
        cuts = sorted({mpmath.mpf(k) + s for k in range(-120, 121)
                       for s in (0, mpmath.mpf(g), -d, mpmath.mpf(g) - d, -mpmath.mpf(g),
                                 -mpmath.mpf(g) - d)})
        ref = mpmath.fsum((z - a) * max(0, f((a + z) / 2) - c * f((a + z) / 2 + d))
                          for a, z in pairwise(cuts))
        assert abs(dens.hockey(d, c) - ref) < mpmath.mpf(10) ** -28
        # the largest loss: the ratio of the two levels, e^eps
        assert abs(dens.loss_bound(1) - 1) < TOL


def linear_positive_part(g, a, z):
    """The integral of the positive part of a linear function over [a, z], exactly."""
    ga, gz = g(a), g(z)
    if ga >= 0 and gz >= 0:
        return (ga + gz) / 2 * (z - a)
    if ga <= 0 and gz <= 0:
        return mpmath.mpf(0)
    root = a + (z - a) * ga / (ga - gz)
    return (ga / 2 * (root - a)) if ga > 0 else (gz / 2 * (z - root))


@pytest.mark.parametrize(("d", "c"), [("1/2", "1"), ("1/3", "3/2"), ("1", "2")])
def test_triangle_general_pieces(d, c):
    r"""f(x) = 1 - |x| on [-1, 1]: not exponential; the positive part integrated exactly
    between the kinks of f and f(. + d)."""
    with workdps(40):
        dd, cc = mpmath.mpf(sp.Rational(d)), mpmath.mpf(sp.Rational(c))
        dens = Density(TRIANGLE, 1)

        def f(t):
            return max(0, 1 - abs(t))

        def h(t):
            return f(t) - cc * f(t + dd)

        kinks = sorted({-1 - dd, -dd, 1 - dd, -1, 0, 1})
        ref = sum(linear_positive_part(h, a, z) for a, z in pairwise(kinks))
        assert abs(dens.hockey(dd, cc) - ref) < mpmath.mpf(10) ** -25
        assert dens.loss_bound(dd) == mpmath.inf  # f > 0 where f(. + d) = 0
        assert not dens.is_log_concave()


def test_lattice_general_pieces():
    """P(i) = (4 - |i|)/16, |i| < 4: summed point by point."""
    noise = SymmetricNoise(lattice=True, head=(Piece(sp.Integer(0), sp.Integer(4),
                                                     (4 - x) / sp.Integer(16)),))
    with workdps(40):
        dens = Density(noise, 2)
        c = mpmath.mpf(5) / 4

        def p(i):
            return mpmath.mpf(max(0, 4 - abs(i))) / 16

        ref = sum(max(0, p(i) - c * p(i + 1)) for i in range(-6, 7))
        assert abs(dens.hockey(1, c) - ref) < TOL
        assert dens.loss_bound(1) == mpmath.inf  # P(3) > 0 = P(4)
        assert dens.hockey(0, 1) == 0  # no shift, c = 1: nothing exceeds


def test_point_mass():
    um = MECHANISMS["uniform-mass"](delta="1/10", Delta=1, alpha="1/20")
    noise = um.numeric_noise()
    with workdps(30):
        dens = Density(noise, 1)
        atom = dens.atom
        assert atom > 0
        assert dens.loss_bound(1) == mpmath.inf
        # at d = 0 only the atom's excess (1 - c) P(X = 0) is counted
        assert abs(dens.hockey(0, mpmath.mpf(1) / 2) - (
            atom / 2 + mpmath.mpf(1) / 2 * (1 - atom))) < mpmath.mpf(10) ** -25


def test_errors():
    with pytest.raises(DomainError, match="SymmetricNoise"):
        check_numeric("not a noise")
    with pytest.raises(DomainError, match="substitute Delta, eps"):
        Density(Laplace.engine.noise(), 1)
    with pytest.raises(DomainError, match="must be an integer"):
        piece_bound(sp.Rational(1, 2), True)
    assert piece_bound(sp.oo, True) == mpmath.inf and piece_bound(sp.Integer(3), True) == 3
    bad_tail = SymmetricNoise(lattice=False, tail=GeometricTail(
        sp.Integer(0), sp.Integer(1), sp.Integer(2), (Piece(sp.Integer(0), sp.Integer(1),
                                                            sp.Integer(1)),)))
    with pytest.raises(DomainError, match="0 < ratio < 1"):
        Density(bad_tail, 1)
    with workdps(30):
        dens = Density(TRIANGLE, 1)
        with pytest.raises(ValueError, match="beyond the unrolled reach"):
            dens.hockey(2, 1)
        big = SymmetricNoise(lattice=True, head=(
            Piece(sp.Integer(0), sp.Integer(MAX_DIRECT_SUM + 10),
                  (MAX_DIRECT_SUM + 10 - x) / sp.Integer(10**10)),))
        with pytest.raises(UnsupportedError, match="too many lattice points"):
            Density(big, 1).hockey(1, 1)
        assert numeric_value(sp.exp(eps).subs(eps, 0)) == 1
