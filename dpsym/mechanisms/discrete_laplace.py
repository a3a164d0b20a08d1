r"""The discrete Laplace (geometric) mechanism for integer-valued queries.

Source: thesis slides (000), Part Three. The mass function is

.. math:: P(i) = \frac{1 - \lambda}{1 + \lambda} \lambda^{|i|}, \qquad
          \lambda = e^{-\varepsilon/\Delta}, \quad i \in \mathbb{Z},

written here as a geometric tail of period 1 and ratio :math:`\lambda`; the engine
derives the normalising constant :math:`(1-\lambda)/(1+\lambda)`.
"""

from __future__ import annotations

import sympy as sp

from dpsym.core.params import eps_param, sensitivity_param
from dpsym.mechanisms.declared import DeclaredNoise
from dpsym.symbolic.noise import GeometricTail, Piece, SymmetricNoise
from dpsym.symbols import NORM, Delta, eps


class DiscreteLaplace(DeclaredNoise):
    r"""Two-sided geometric noise, ratio :math:`e^{-\varepsilon/\Delta}`, integer :math:`\Delta`."""

    name = "discrete-laplace"
    title = "Discrete Laplace (geometric) mechanism"
    source = "000 Part Three (discrete Laplacian mechanism)"
    lattice = True
    params = (eps_param(), sensitivity_param(integer=True))
    _private_by_theorem = True
    #: Mass :math:`a \lambda^i` at :math:`i \ge 0`: a tail of period 1 and ratio
    #: :math:`\lambda` (sympy integers: the lattice moment's offsets (start + j)/period stay
    #: exact; Python ints would divide to the float 0.0 inside a non-integer moment's Lerch
    #: sum).
    density = SymmetricNoise(lattice=True, tail=GeometricTail(
        start=sp.Integer(0), period=sp.Integer(1), ratio=sp.exp(-eps / Delta),
        pieces=(Piece(sp.Integer(0), sp.Integer(1), NORM),)))

    @classmethod
    def ratio(cls) -> sp.Expr:
        r""":math:`\lambda = e^{-\varepsilon/\Delta}`."""
        return sp.exp(-eps / Delta)
