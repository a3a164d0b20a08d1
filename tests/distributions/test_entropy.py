r"""Tests of :mod:`dpsym.distributions.entropy` against entropies summed or integrated
directly from the densities (closed forms and mpmath at 40 digits)."""

from __future__ import annotations

import mpmath
import pytest
import sympy as sp

from dpsym.distributions.entropy import MIXED_LAW, noise_entropy, piece_entropy
from dpsym.errors import UnsupportedError
from dpsym.mechanisms.discrete_laplace import DiscreteLaplace
from dpsym.mechanisms.discrete_uniform import DiscreteUniform
from dpsym.mechanisms.laplace import Laplace
from dpsym.mechanisms.staircase import Staircase
from dpsym.precision import workdps
from dpsym.symbolic.noise import GeometricTail, Piece, SymmetricNoise
from dpsym.symbols import u, x

TOL = mpmath.mpf(10) ** -30


def test_laplace_entropy_closed_form():
    """Laplace with scale s = Delta/eps: entropy 1 + log(2 s)."""
    with workdps(40):
        got = noise_entropy(Laplace(eps="1/3", Delta=2).numeric_noise())
        assert abs(got - (1 + mpmath.log(12))) < TOL


@pytest.mark.parametrize(("e", "D"), [("1", 1), ("1/5", 3)])
def test_discrete_laplace_entropy_by_summation(e, D):
    with workdps(40):
        lam = mpmath.exp(-mpmath.mpf(sp.Rational(e)) / D)
        c = (1 - lam) / (1 + lam)

        def plogp(i):
            p = c * lam ** abs(i)
            return p * mpmath.log(p)

        ref = -(plogp(0) + 2 * mpmath.nsum(plogp, [1, mpmath.inf]))
        got = noise_entropy(DiscreteLaplace(eps=e, Delta=D).numeric_noise())
        assert abs(got - ref) < TOL


def test_discrete_uniform_entropy_by_enumeration():
    """n = 10 even: 9 points of mass 1/10 and two of mass 1/20."""
    with workdps(40):
        got = noise_entropy(DiscreteUniform(delta="1/5", Delta=2).numeric_noise())
        p, q = mpmath.mpf(1) / 10, mpmath.mpf(1) / 20
        assert abs(got - (-9 * p * mpmath.log(p) - 2 * q * mpmath.log(q))) < TOL


def test_staircase_entropy_by_summation():
    r"""Staircase with step fraction gamma: level a b^k on [k, k+gamma) and a b^{k+1} on
    [k+gamma, k+1), a = (1 - b)/(2(gamma + (1 - gamma) b)), summed over k by nsum."""
    g = sp.Rational(3, 10)
    noise = Staircase(eps=1, Delta=1, gamma=str(g)).numeric_noise()
    with workdps(40):
        b, gm = mpmath.exp(-1), mpmath.mpf(g)
        a = (1 - b) / (2 * (gm + (1 - gm) * b))

        def term(k):
            hi, lo = a * b**k, a * b ** (k + 1)
            return gm * hi * mpmath.log(hi) + (1 - gm) * lo * mpmath.log(lo)

        ref = -2 * mpmath.nsum(term, [0, mpmath.inf])
        assert abs(noise_entropy(noise) - ref) < TOL


def test_lattice_piece_depending_on_x():
    """P(i) = (4 - |i|)/16 for |i| < 4: the lattice sum of a non-constant piece."""
    noise = SymmetricNoise(lattice=True, head=(Piece(sp.Integer(0), sp.Integer(4),
                                                     (4 - x) / sp.Integer(16)),))
    with workdps(40):
        ps = [mpmath.mpf(4 - abs(i)) / 16 for i in range(-3, 4)]
        assert abs(sum(ps) - 1) < TOL
        ref = -sum(p * mpmath.log(p) for p in ps)
        assert abs(noise_entropy(noise) - ref) < TOL


def test_piece_entropy_direct():
    with workdps(40):
        # constant level 1/4 on [0, 2): (2 * 1/4 * log(1/4), 1/2)
        a, mass = piece_entropy(mpmath.mpf(0), mpmath.mpf(2), sp.Rational(1, 4), x, False)
        assert abs(a - mpmath.log(mpmath.mpf(1) / 4) / 2) < TOL and mass == mpmath.mpf(1) / 2
        # zero level contributes nothing
        assert piece_entropy(mpmath.mpf(0), mpmath.mpf(3), sp.Integer(0), x, False) == (0, 0)
        # density 2u on [0, 1): int 2u log(2u) du = log 2 - 1/2
        a, mass = piece_entropy(mpmath.mpf(0), mpmath.mpf(1), 2 * u, u, False)
        assert abs(a - (mpmath.log(2) - mpmath.mpf(1) / 2)) < TOL and abs(mass - 1) < TOL


def test_geometric_tail_with_a_sloped_piece():
    r"""Density c (1 + u) q^k on [k, k+1), q = 1/2: the tail's closed-form sum against a
    direct nsum of the per-period integrals (computed by sympy exactly)."""
    q = sp.Rational(1, 2)
    c = sp.Symbol("c", positive=True)
    uu = sp.Symbol("uu", positive=True)
    period_mass = sp.integrate(c * (1 + uu), (uu, 0, 1))
    c_val = sp.solve(sp.Eq(2 * period_mass / (1 - q), 1), c)[0]
    noise = SymmetricNoise(lattice=False, tail=GeometricTail(
        sp.Integer(0), sp.Integer(1), q, (Piece(sp.Integer(0), sp.Integer(1), c_val * (1 + u)),)))
    with workdps(40):
        def period(k):
            f = lambda t: c_val_mp * (1 + t) * mpmath.mpf(q) ** k  # noqa: E731
            return mpmath.quad(lambda t: f(t) * mpmath.log(f(t)), [0, 1])

        c_val_mp = mpmath.mpf(sp.N(c_val, 50))
        ref = -2 * mpmath.nsum(period, [0, mpmath.inf])
        assert abs(noise_entropy(noise) - ref) < TOL


def test_mixed_law_is_refused():
    noise = SymmetricNoise(lattice=False, head=(Piece(sp.Integer(0), sp.Integer(1),
                                                      sp.Rational(1, 4)),),
                           atom=sp.Rational(1, 2))
    with pytest.raises(UnsupportedError) as info:
        noise_entropy(noise)
    assert str(info.value) == MIXED_LAW
    assert isinstance(info.value, ValueError)
