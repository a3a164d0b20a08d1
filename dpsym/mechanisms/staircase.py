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

from collections.abc import Callable
from functools import partial

import flint

from dpsym.certified.evaluation import guard_digits, small_eps_digits
from dpsym.certified.lerch.intervals import IncreasingSign
from dpsym.core.costs import Cost
from dpsym.core.expressions import enclosure
from dpsym.core.params import FreeParameter, eps_param, sensitivity_param
from dpsym.mechanisms.declared import DeclaredNoise
from dpsym.precision import arb_workprec
from dpsym.symbolic.noise import MAX_POLYNOMIAL_DEGREE, GeometricTail, Piece, SymmetricNoise
from dpsym.symbols import NORM, Delta, b, gamma


class Staircase(DeclaredNoise):
    r"""The 1-D staircase mechanism with step fraction :math:`\gamma` optimised per cost."""

    name = "staircase"
    title = "Staircase mechanism"
    source = "000 Part One (staircase mechanism, optimal gamma*)"
    params = (eps_param(), sensitivity_param())
    free = FreeParameter("gamma", gamma, 0, 1)
    private_by_theorem = True
    #: Level :math:`a` on :math:`[0, \gamma\Delta)`, :math:`ab` on :math:`[\gamma\Delta,
    #: \Delta)`, repeated on every period :math:`\Delta` with ratio :math:`b`.
    density = SymmetricNoise(lattice=False, tail=GeometricTail(
        start=0, period=Delta, ratio=b,
        pieces=(Piece(0, gamma * Delta, NORM), Piece(gamma * Delta, Delta, NORM * b))))
    #: The smallest :math:`\varepsilon` at which a moment written with Lerch sums is
    #: minimised by :meth:`_interval_sign` (below, the sign covering of the slope).
    LARGE_EPS = 100

    def _guard_digits(self, cost: Cost) -> int:
        r"""Guard digits: a moment written with Lerch sums (:math:`p` not an integer, or
        above :data:`~dpsym.symbolic.noise.MAX_POLYNOMIAL_DEGREE`) is one fraction
        :math:`\Delta^p (1 - b)^2 L(b, p + 1, \gamma) / ((p + 1)(\gamma + b(1 - \gamma)))`
        without cancellation (:class:`~dpsym.symbolic.sums.LerchSum` shifts its offsets), so it
        loses :math:`\log_{10}(1/\varepsilon)` digits a few times (in :math:`1 - b`, in
        :math:`-\log b` and in the slope), not once per power of :math:`p`."""
        if cost.is_integer and cost.exponent <= MAX_POLYNOMIAL_DEGREE:
            return guard_digits(self, cost)
        lost = small_eps_digits(self)
        return 15 + 3 * lost if lost else guard_digits(self, cost)

    def _interval_sign(self, cost: Cost) -> Callable | None:
        r"""For a moment written with Lerch sums :math:`L_s(\gamma) = \sum_k b^k (k +
        \gamma)^s` (:math:`s = p + 1 > 1`; :math:`p` not an integer, or above
        :data:`~dpsym.symbolic.noise.MAX_POLYNOMIAL_DEGREE`) at :math:`\varepsilon \ge`
        :attr:`LARGE_EPS`: the sign covering of
        :class:`~dpsym.certified.lerch.intervals.IncreasingSign` (a factory of it), started at
        :math:`\lfloor \log_2 \gamma_0 \rfloor`.

        The cost is :math:`C\, L_s / D` with :math:`C = \Delta^p (1 - b)^2 / (p + 1) > 0` and
        :math:`D = \gamma + b(1 - \gamma) > 0`, so its slope is :math:`C\, N / D^2` with
        :math:`N = s L_{s-1} D - (1 - b) L_s` (termwise derivatives, :math:`L_s' = s
        L_{s-1}`, the series converging uniformly for :math:`b < 1`), and

        .. math::

           N' = s(s-1) L_{s-2} D + s (1 - b) L_{s-1} - (1 - b) s L_{s-1}
              = s(s-1)\, D\, L_{s-2} > 0 \quad (0 < \gamma \le 1):

        the slope's sign is that of a strictly increasing function, whose root is near
        :math:`\gamma_0 = (b/(s-1))^{1/s}` (:math:`N \approx (s-1)\gamma^s - b` for small
        :math:`b`), the bracket search's start. None otherwise."""
        if type(self) is not Staircase or (cost.is_integer
                                             and cost.exponent <= MAX_POLYNOMIAL_DEGREE):
            return None  # (a subclass's cost is not the one proven; a polynomial slope)
        eps = self.values.get("eps")
        if eps is None:
            return None
        e = enclosure(eps, 64)
        if not e >= self.LARGE_EPS:
            return None
        bits = int(e.upper().floor().unique_fmpz()).bit_length() + 64
        with arb_workprec(bits):  # log2 gamma_0, to a few bits
            s = flint.arb(cost.exponent.p) / cost.exponent.q + 1
            e = enclosure(eps, bits)
            log2 = (-e - (s - 1).log()) / (s * flint.arb(2).log())
            estimate = int(log2.mid().floor().unique_fmpz())
        return partial(IncreasingSign, estimate=estimate)
