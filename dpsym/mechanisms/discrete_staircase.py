r"""The discrete staircase mechanism for integer-valued queries with integer sensitivity.

Source: thesis slides (000), Part One ("Extension to discrete setting"). With
:math:`b = e^{-\varepsilon}` and an integer step length :math:`r \in \{1, \dots, \Delta\}`,
the mass function is symmetric and, for :math:`i \ge 0` written as
:math:`i = k\Delta + j` with :math:`0 \le j < \Delta`,

.. math::

   P_r(i) = \begin{cases} a(r)\, b^k & 0 \le j < r \\
                          a(r)\, b^{k+1} & r \le j < \Delta. \end{cases}

The normalising constant :math:`a(r)`, the cost as a function of :math:`r` and the
optimal :math:`r^*` (an integer minimisation) are derived by the engine.
"""

from __future__ import annotations

import math
from fractions import Fraction

from .. import evaluation
from ..costs import Cost
from ..evaluation import MAX_INTEGER_SCAN
from ..exact_sampling import OPTIMAL_STEP
from ..noise import GeometricTail, Piece, SymmetricNoise
from ..params import FreeParameter, eps_param, sensitivity_param
from ..symbols import NORM, Delta, b, r
from .base import Mechanism

#: Largest eps accepted: the cost's terms of order :math:`b = e^{-\varepsilon}` are
#: resolved against its terms of order one with :math:`\varepsilon \log_{10} e` extra
#: digits (:meth:`DiscreteStaircase._guard_digits`), 4343 at this bound.
EPS_MAX_DISCRETE = Fraction(10) ** 4


class DiscreteStaircase(Mechanism):
    r"""The discrete staircase with integer step :math:`r^*` optimised per cost."""

    name = "discrete-staircase"
    title = "Discrete staircase mechanism"
    source = "000 Part One (extension to discrete setting)"
    lattice = True
    params = (eps_param(upper=EPS_MAX_DISCRETE),
              sensitivity_param(integer=True, upper=MAX_INTEGER_SCAN))
    free = FreeParameter("r", r, 1, Delta, integer=True)

    @classmethod
    def noise_shape(cls) -> SymmetricNoise:
        period = (Piece(0, r, NORM), Piece(r, Delta, NORM * b))
        return SymmetricNoise(lattice=True,
                              tail=GeometricTail(start=0, period=Delta, ratio=b, pieces=period))

    def _guard_digits(self, cost: Cost) -> int:
        r"""The engine's guard digits, plus :math:`\varepsilon \log_{10} e` for
        :math:`\varepsilon \ge 1`: at the optimum :math:`r^* = 1` of large
        :math:`\varepsilon` the order-one terms of the cost's numerator cancel exactly
        (:math:`r^2 - r = 0`) and what remains is of order :math:`b`, which a working
        precision below :math:`\varepsilon \log_{10} e` digits rounds away."""
        base = evaluation.guard_digits(self, cost)
        e = self.values.get("eps")
        if e is None or e < 1:
            return base
        return base + math.ceil(e * math.log10(math.e)) + 10


def _optimal_step(eps: Fraction, Delta: int, cost: str) -> int:
    """The optimal step :math:`r^*` for ``cost`` (:func:`dpsym.exact_sampling.exact_sampler`)."""
    return int(DiscreteStaircase(eps=eps, Delta=Delta).free_value(cost))


OPTIMAL_STEP[DiscreteStaircase.name] = _optimal_step
