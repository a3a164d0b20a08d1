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

from ..costs import Cost
from ..evaluation import guard_digits, small_eps_digits
from ..noise import MAX_POLYNOMIAL_DEGREE, GeometricTail, Piece, SymmetricNoise
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

    def _guard_digits(self, cost: Cost) -> int:
        r"""Guard digits: a moment written with Lerch sums (:math:`p` not an integer, or
        above :data:`~dpsym.noise.MAX_POLYNOMIAL_DEGREE`) is one fraction
        :math:`\Delta^p (1 - b)^2 L(b, p + 1, \gamma) / ((p + 1)(\gamma + b(1 - \gamma)))`
        without cancellation (:class:`~dpsym.sums.LerchSum` shifts its offsets), so it
        loses :math:`\log_{10}(1/\varepsilon)` digits a few times (in :math:`1 - b`, in
        :math:`-\log b` and in the slope), not once per power of :math:`p`."""
        if cost.is_integer and cost.exponent <= MAX_POLYNOMIAL_DEGREE:
            return guard_digits(self, cost)
        lost = small_eps_digits(self)
        return 15 + 3 * lost if lost else guard_digits(self, cost)
