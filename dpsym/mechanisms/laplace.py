r"""The Laplace mechanism.

Source: thesis slides (000), Part One; lecture notes (004). The noise density is

.. math:: f(x) = \frac{1}{2\lambda} e^{-|x|/\lambda}, \qquad \lambda = \Delta/\varepsilon,

and the engine derives its costs, e.g. :math:`\mathbb{E}|X| = \Delta/\varepsilon` and
:math:`\mathbb{E}X^2 = 2\Delta^2/\varepsilon^2`.
"""

from __future__ import annotations

import sympy as sp

from dpsym.core.params import eps_param, sensitivity_param
from dpsym.mechanisms.declared import DeclaredNoise
from dpsym.symbolic.noise import Piece, SymmetricNoise
from dpsym.symbols import NORM, Delta, eps, x


class Laplace(DeclaredNoise):
    r"""Laplace noise of scale :math:`\lambda = \Delta/\varepsilon` (:math:`\varepsilon`-DP)."""

    name = "laplace"
    title = "Laplace mechanism"
    source = "000 Part One (Laplace mechanism); 004 (counting and histogram queries)"
    params = (eps_param(), sensitivity_param())
    _private_by_theorem = True
    #: :math:`a\, e^{-x/\lambda}` on :math:`[0, \infty)`, :math:`a` solved by the engine.
    density = SymmetricNoise(lattice=False,
                             head=(Piece(0, sp.oo, NORM * sp.exp(-x / (Delta / eps))),))

    @classmethod
    def scale(cls) -> sp.Expr:
        r""":math:`\lambda = \Delta/\varepsilon`."""
        return Delta / eps
