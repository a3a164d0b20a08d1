r"""The optimal :math:`(0, \delta)`-DP noise for a real-valued query: a uniform density
with a point mass :math:`\alpha` at the origin (Geng, Ding, Guo and Kumar).

Source: poster (002), Theorem 3 and its corollaries. :math:`\mathcal{P}_\alpha` puts mass
:math:`\alpha \in [0, \delta)` at :math:`0` and a constant density :math:`h` on
:math:`[-L, L]`. The definition fixes :math:`h` and :math:`L` by two conditions: total mass
one, and mass exactly :math:`\delta` on :math:`[-\Delta/2, \Delta/2]` (the poster's
necessary and sufficient condition for :math:`(0, \delta)`-DP of a symmetric monotone
noise). The engine solves them,

.. math:: h = \frac{\delta - \alpha}{\Delta}, \qquad
          L = \frac{1 - \alpha}{\delta - \alpha}\,\frac{\Delta}{2},

derives :math:`\mathbb{E}|X|^p = (1 - \alpha) L^p / (p + 1)` and minimises it over
:math:`\alpha` for every :math:`p > 0` (symbolic :math:`p` included), which gives the
threshold :math:`\delta = p/(p+1)` between :math:`\alpha^* = 0` and
:math:`\alpha^* = (p+1)\delta - p`.
"""

from __future__ import annotations

from fractions import Fraction

import sympy as sp

from dpsym.core.params import Derived, FreeParameter, Guarantee, delta_param, sensitivity_param
from dpsym.mechanisms.declared import DeclaredNoise
from dpsym.symbolic.noise import Piece, SymmetricNoise
from dpsym.symbols import NORM, Delta, b, delta, eps

#: The point mass at the origin.
alpha = sp.Symbol("alpha", nonnegative=True)
#: The half-width of the uniform part.
L = sp.Symbol("L", positive=True)


class UniformMass(DeclaredNoise):
    r""":math:`\mathcal{P}_\alpha`: uniform noise with a point mass :math:`\alpha^*` at 0."""

    name = "uniform-mass"
    title = "Uniform noise with a point mass (optimal (0, delta)-DP)"
    source = "002 Theorem 3 and corollaries"
    guarantee = Guarantee.ZERO_EPS
    params = (delta_param(Fraction(1)), sensitivity_param())
    free = FreeParameter("alpha", alpha, 0, delta)
    derived = (Derived("L", L, "half-width of the uniform part"),
               Derived("h", NORM, "density of the uniform part"))
    private_by_theorem = True
    #: A mass :math:`\alpha` at 0 and the level :math:`h` on :math:`[0, L)`.
    density = SymmetricNoise(lattice=False, head=(Piece(0, L, NORM),), atom=alpha)

    @classmethod
    def conditions(cls) -> tuple[tuple[sp.Symbol, sp.Expr, sp.Expr], ...]:
        (piece,) = cls.noise_shape().head
        central = alpha + 2 * piece.expr * Delta / 2
        return ((L, central, delta),)

    @classmethod
    def test_points(cls) -> list[dict[sp.Symbol, sp.Expr]]:
        # delta on both sides of every threshold p/(p+1) that the checks use
        return [{Delta: sp.Rational(3, 2), delta: d, eps: sp.Integer(1), b: sp.exp(-1)}
                for d in (sp.Rational(1, 10), sp.Rational(2, 5), sp.Rational(3, 5),
                          sp.Rational(7, 10), sp.Rational(4, 5), sp.Rational(19, 20))]
