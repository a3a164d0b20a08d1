r"""The staircase mechanism (Geng and Viswanath), the optimal :math:`\varepsilon`-DP noise.

Source: thesis slides (000), Part One. With :math:`b = e^{-\varepsilon}` and
:math:`\gamma \in [0, 1]`, the density is symmetric and, for :math:`x \ge 0` and
:math:`k = 0, 1, 2, \dots`,

.. math::

   f_\gamma(x) = \begin{cases}
       a(\gamma)\, b^k & x \in [k\Delta, (k + \gamma)\Delta) \\
       a(\gamma)\, b^{k+1} & x \in [(k + \gamma)\Delta, (k + 1)\Delta)
   \end{cases}

The normalising constant :math:`a(\gamma)`, the expected cost of :math:`|x|^p` as a
function of :math:`\gamma`, the optimal :math:`\gamma^*` and the optimal cost are derived by
the engine from this definition.
"""

from __future__ import annotations

from ..noise import GeometricTail, Piece, SymmetricNoise
from ..params import FreeParameter, eps_param, sensitivity_param
from ..symbols import NORM, Delta, b, gamma
from .base import Mechanism


class Staircase(Mechanism):
    r"""The 1-D staircase mechanism with step fraction :math:`\gamma` optimised per cost."""

    name = "staircase"
    title = "Staircase mechanism"
    source = "000 Part One (staircase mechanism, optimal gamma*)"
    params = (eps_param(), sensitivity_param())
    free = FreeParameter("gamma", gamma, 0, 1)

    @classmethod
    def noise_shape(cls) -> SymmetricNoise:
        period = (Piece(0, gamma * Delta, NORM), Piece(gamma * Delta, Delta, NORM * b))
        return SymmetricNoise(lattice=False,
                              tail=GeometricTail(start=0, period=Delta, ratio=b, pieces=period))
