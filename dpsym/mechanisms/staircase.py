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
from fractions import Fraction
from functools import partial
from itertools import pairwise

import flint
import sympy as sp

from dpsym.certified.constants import arb_of
from dpsym.certified.evaluation import Value, cost_balls, guard_digits, small_eps_digits
from dpsym.certified.expectation import CostBalls
from dpsym.certified.kernel import ball, exact_integer
from dpsym.certified.lerch.intervals import IncreasingSign
from dpsym.certified.slope_argmin import Minimum, certify_minimum
from dpsym.core.costs import AMPLITUDE, Cost
from dpsym.core.expressions import enclosure, from_sympy, to_sympy
from dpsym.core.expressions import sign as exact_sign
from dpsym.core.params import FreeParameter, eps_param, require, sensitivity_param
from dpsym.errors import DomainError, UnsupportedError
from dpsym.mechanisms.declared import DeclaredNoise
from dpsym.precision import arb_workprec
from dpsym.symbolic.noise import MAX_POLYNOMIAL_DEGREE, GeometricTail, Piece, SymmetricNoise
from dpsym.symbols import NORM, Delta, b, gamma

#: Below this :math:`\varepsilon` a moment written with Lerch sums is minimised by the
#: family's sign covering too (:meth:`Staircase._interval_sign`): the generic covering's
#: slope enclosures need the bits of :math:`1/\varepsilon` at every step there.
SMALL_EPS = Fraction(1, 10**6)


class Staircase(DeclaredNoise):
    r"""The 1-D staircase mechanism with step fraction :math:`\gamma` optimised per cost."""

    name = "staircase"
    title = "Staircase mechanism"
    source = "000 Part One (staircase mechanism, optimal gamma*)"
    params = (eps_param(), sensitivity_param())
    free = FreeParameter("gamma", gamma, 0, 1)
    _private_by_theorem = True
    #: Level :math:`a` on :math:`[0, \gamma\Delta)`, :math:`ab` on :math:`[\gamma\Delta,
    #: \Delta)`, repeated on every period :math:`\Delta` with ratio :math:`b`.
    density = SymmetricNoise(lattice=False, tail=GeometricTail(
        start=0, period=Delta, ratio=b,
        pieces=(Piece(0, gamma * Delta, NORM), Piece(gamma * Delta, Delta, NORM * b))))
    #: The smallest :math:`\varepsilon` at which a moment written with Lerch sums is
    #: minimised by :meth:`_interval_sign` (below, the sign covering of the slope).
    _LARGE_EPS = 100

    def _general_value(self, quantity: str, cost: Cost, digits: int) -> Value | None:
        r"""The optimal :math:`\gamma^*` and cost for a cost :math:`L` that is not a power:
        the minimum of :class:`StaircaseSlope` (:mod:`dpsym.certified.slope_argmin`)."""
        require(self, "eps", "Delta")
        if self.free_given is not None:
            return None
        problem = StaircaseSlope(self.values["eps"], self.values["Delta"], cost_balls(cost))
        # N is a difference of sums of size (1 - b)^-2: about 3 log2(1/eps) bits cancel
        guard = 64 + int(3.4 * guard_digits(self, AMPLITUDE))
        found, where = certify_minimum(problem, digits,
                                       "cost" if quantity == "cost" else "parameter",
                                       guard_bits=guard,
                                       what=f"{self.name} {quantity} for {cost.name}")
        if quantity != "cost":
            not_unique(self.name, "gamma", cost, where)
        return Value(None, None, digits, source=found)

    def _guard_digits(self, cost: Cost) -> int:
        r"""Guard digits: a moment written with Lerch sums (:math:`p` not an integer, or
        above :data:`~dpsym.symbolic.noise.MAX_POLYNOMIAL_DEGREE`) is one fraction
        :math:`\Delta^p (1 - b)^2 L(b, p + 1, \gamma) / ((p + 1)(\gamma + b(1 - \gamma)))`
        without cancellation (:class:`~dpsym.symbolic.sums.LerchSum` shifts its offsets), so it
        loses :math:`\log_{10}(1/\varepsilon)` digits a few times (in :math:`1 - b`, in
        :math:`-\log b` and in the slope), not once per power of :math:`p`."""
        if cost.is_integer and cost.power <= MAX_POLYNOMIAL_DEGREE:
            return guard_digits(self, cost)
        lost = small_eps_digits(self)
        return 15 + 3 * lost if lost else guard_digits(self, cost)

    def _interval_sign(self, cost: Cost) -> Callable | None:
        r"""For a moment written with Lerch sums :math:`L_s(\gamma) = \sum_k b^k (k +
        \gamma)^s` (:math:`s = p + 1 > 1`; :math:`p` not an integer, or above
        :data:`~dpsym.symbolic.noise.MAX_POLYNOMIAL_DEGREE`) at :math:`\varepsilon \ge`
        :attr:`_LARGE_EPS`: the sign covering of
        :class:`~dpsym.certified.lerch.intervals.IncreasingSign` (a factory of it), started at
        :math:`\lfloor \log_2 \gamma_0 \rfloor`; below :data:`SMALL_EPS` the same,
        started at :math:`\gamma = 1/2` (the limit of :math:`\gamma^*` as
        :math:`\varepsilon \to 0`), where the generic covering would enclose the slope
        hundreds of times with the bits of :math:`1/\varepsilon` (the proof below holds
        for every :math:`b \in (0, 1)`).

        The cost is :math:`C\, L_s / D` with :math:`C = \Delta^p (1 - b)^2 / (p + 1) > 0` and
        :math:`D = \gamma + b(1 - \gamma) > 0`, so its slope is :math:`C\, N / D^2` with
        :math:`N = s L_{s-1} D - (1 - b) L_s` (termwise derivatives, :math:`L_s^{\prime} = s
        L_{s-1}`, the series converging uniformly for :math:`b < 1`), and

        .. math::

           N^{\prime} = s(s-1) L_{s-2} D + s (1 - b) L_{s-1} - (1 - b) s L_{s-1}
              = s(s-1)\, D\, L_{s-2} > 0 \quad (0 < \gamma \le 1):

        the slope's sign is that of a strictly increasing function, whose root is near
        :math:`\gamma_0 = (b/(s-1))^{1/s}` (:math:`N \approx (s-1)\gamma^s - b` for small
        :math:`b`), the bracket search's start. None otherwise."""
        if type(self) is not Staircase or (cost.is_integer
                                             and cost.power <= MAX_POLYNOMIAL_DEGREE):
            return None  # (a subclass's cost is not the one proven; a polynomial slope)
        eps = self.values.get("eps")
        if eps is None:
            return None
        e = enclosure(eps, 64)
        if not e >= self._LARGE_EPS:
            if not e < enclosure(SMALL_EPS, 64):
                return None
            return partial(IncreasingSign, estimate=-1)  # gamma* near 1/2 as eps -> 0
        bits = exact_integer(e.upper().floor()).bit_length() + 64
        with arb_workprec(bits):  # log2 gamma_0, to a few bits
            s = flint.arb(cost.power.p) / cost.power.q + 1
            e = enclosure(eps, bits)
            log2 = (-e - (s - 1).log()) / (s * flint.arb(2).log())
            estimate = exact_integer(log2.mid().floor())
        return partial(IncreasingSign, estimate=estimate)


def not_unique(name: str, parameter: str, cost: Cost, where: Minimum) -> None:
    """Refuse to print one minimiser where the minimum is flat or not attained (the set of
    minimisers is named instead).

    Raises
    ------
    UnsupportedError
        Naming the set of minimisers.
    """
    if not where.attained:
        raise UnsupportedError(
            f"{name}: for the cost {cost.name} the minimum is not attained: the cost "
            f"decreases to its infimum as {parameter} -> {float(where.lo):.6g} from inside "
            "(value 'cost' gives the infimum)")
    if where.flat:
        end = f"{_shown(where.hi)})" if where.open_hi else f"{_shown(where.hi)}]"
        raise UnsupportedError(
            f"{name}: for the cost {cost.name} every {parameter} in [{_shown(where.lo)}, "
            f"{end} is optimal (the cost is flat there; value 'cost' gives the minimum)")


def _shown(v: Fraction) -> str:
    return str(v) if v.denominator < 10**6 else f"{float(v):.15g}"


class StaircaseSlope:
    r"""The staircase's expected cost for any cost :math:`L` (symmetric, non-decreasing in
    :math:`|x|`) as a function of :math:`\gamma`, and the sign of its slope.

    From the density, with :math:`F(y) = \int_0^y L` and the normalisation
    :math:`a(\gamma) = (1 - b)/(2\Delta D(\gamma))`, :math:`D(\gamma) = b + (1 - b)\gamma`,

    .. math::

       \mathbb{E}\,L(X) = 2a(\gamma)\sum_{k \ge 0} b^k\bigl[F((k + \gamma)\Delta) - F(k\Delta)
           + b\,(F((k + 1)\Delta) - F((k + \gamma)\Delta))\bigr]
         = \frac{(1 - b)^2\,\Phi(\gamma)}{\Delta\,D(\gamma)},
       \qquad \Phi(\gamma) = \sum_{k \ge 0} b^k F((k + \gamma)\Delta)

    (the sums of :math:`F(k\Delta)` and :math:`F((k + 1)\Delta)` telescope:
    :math:`\sum_k b^k F((k + 1)\Delta) = \Phi(0)/b`). With
    :math:`\Lambda(\gamma^\pm) = \sum_k b^k L(((k + \gamma)\Delta)^\pm)`,
    :math:`\Phi^{\prime}(\gamma^\pm) = \Delta\Lambda(\gamma^\pm)`, the one-sided slopes are
    :math:`(1 - b)^2 N(\gamma^\pm)/(\Delta D^2)` with

    .. math:: N(\gamma) = \Delta D(\gamma)\Lambda(\gamma) - (1 - b)\Phi(\gamma),
              \qquad N^{\prime}(\gamma) = \Delta^2 D(\gamma)
              \sum_{k \ge 0} b^k L^{\prime}((k + \gamma)\Delta) \ge 0,

    and :math:`N` jumps up where :math:`L` does: :math:`N` is non-decreasing, the
    hypothesis of :mod:`dpsym.certified.slope_argmin`. The cost on a bracket
    :math:`[\gamma_1, \gamma_2]` lies between :math:`(1 - b)^2\Phi(\gamma_1)/(\Delta
    D(\gamma_2))` and :math:`(1 - b)^2\Phi(\gamma_2)/(\Delta D(\gamma_1))` (:math:`\Phi`
    and :math:`D` non-decreasing, :math:`\Phi \ge 0`). A test holds the cost equal to
    the expectation over the noise description (:func:`dpsym.certified.expectation.expectation`).
    """

    def __init__(self, eps: object, Delta: Fraction, cost: CostBalls) -> None:
        if not isinstance(Delta, Fraction):
            raise DomainError("Delta", "a cost other than a power takes a rational "
                              "sensitivity")
        self.eps, self.Delta, self.balls = to_sympy(eps), Delta, cost
        self.lo = Fraction(0)
        self.hi: Fraction | None = Fraction(1)
        self.open_limit: Fraction | None = None
        self._memo: dict[int, tuple[flint.arb, flint.arb, flint.arb]] = {}

    def _constants(self) -> tuple[flint.arb, flint.arb, flint.arb]:
        r""":math:`b`, :math:`1 - b` (without cancellation) and :math:`\varepsilon/\Delta`
        at the working precision."""
        prec = flint.ctx.prec
        if prec not in self._memo:
            e = arb_of(self.eps)
            self._memo[prec] = ((-e).exp(), -((-e).expm1()), e / ball(self.Delta))
        return self._memo[prec]

    def _sum(self, kind: str, t: Fraction, side: int = 0) -> flint.arb:
        bb, omb, rate = self._constants()
        return self.balls.geometric_sum(kind, bb, omb, t * self.Delta, self.Delta, side,
                                       rate=rate)

    def _d(self, t: Fraction) -> flint.arb:
        bb, omb, _ = self._constants()
        return bb + omb * ball(t)

    def phi(self, t: Fraction) -> flint.arb:
        r""":math:`\Phi(\gamma)`."""
        return self._sum("F", t)

    def slope(self, t: Fraction, side: int) -> flint.arb:
        _, omb, _ = self._constants()
        return ball(self.Delta) * self._d(t) * self._sum("L", t, side) - omb * self.phi(t)

    def slope_derivative(self, t: Fraction) -> flint.arb | None:
        if self.jumps_at(t):
            return None
        try:
            total = self._sum("dL", t, 1)
        except (UnsupportedError, DomainError):
            return None
        return ball(self.Delta) ** 2 * self._d(t) * total if total.is_finite() else None

    def jumps_at(self, t: Fraction) -> bool:
        return any(hit is not None for _, _, hit in
                   self.balls._ranges(t * self.Delta, self.Delta)[1:])

    def kinks(self) -> list[Fraction]:
        r"""The :math:`\gamma` at which a point :math:`(k + \gamma)\Delta` meets a rational
        cut of the cost (:math:`\gamma = t_j/\Delta - \lfloor t_j/\Delta \rfloor`)."""
        out = []
        for c in self.balls.cut_fractions[1:]:
            if c is not None:
                theta = c / self.Delta - (c / self.Delta).numerator // (c / self.Delta
                                                                          ).denominator
                out.append(theta)
        return out

    def cost(self, t: Fraction) -> flint.arb:
        _, omb, _ = self._constants()
        return omb ** 2 * self.phi(t) / (ball(self.Delta) * self._d(t))

    def cost_box(self, a: Fraction, c: Fraction) -> flint.arb:
        _, omb, _ = self._constants()
        scale = omb ** 2 / ball(self.Delta)
        low = scale * self.phi(a) / self._d(c)
        high = scale * self.phi(c) / self._d(a)
        return low.union(high)

    def zero_set(self, t: Fraction) -> tuple[Fraction, Fraction] | None:
        r"""For a step cost (every piece constant, :math:`L = L(0^+) + \sum_j h_j
        \mathbf{1}\{|x| > t_j\}`), where :math:`N = 0` exactly. Between the points
        :math:`\theta_j = t_j/\Delta - \lfloor t_j/\Delta \rfloor` the sums are geometric
        and

        .. math:: N(\gamma) = \sum_j h_j\, b^{\kappa_j} (t_j - \kappa_j \Delta), \qquad
                  \kappa_j = \lfloor t_j/\Delta - \gamma \rfloor + 1,

        (the :math:`L(0^+)` part cancels), a polynomial in :math:`b = e^{-\varepsilon}`
        with exact coefficients whose sign is decided exactly
        (:func:`dpsym.core.expressions.sign`); the zero set containing ``t`` is the
        closure of a run of such intervals where it vanishes. None for any other cost."""
        shape = self.balls.shape
        if not all(pc.behaviour.direction == 0 for pc in shape.pieces):
            return None
        ratios = [to_sympy(sp.Rational(self.Delta.numerator, self.Delta.denominator))]
        delta = ratios[0]
        jumps = [(cut, pc.expr - prev.expr) for cut, pc, prev in
                 zip(shape.cuts[1:], shape.pieces[1:], shape.pieces[:-1], strict=True)]
        thetas = {Fraction(0), Fraction(1)}
        for cut, _ in jumps:
            theta = cut / delta - sp.floor(cut / delta)
            if theta.is_Rational:
                thetas.add(Fraction(int(theta.p), int(theta.q)))
            else:
                return None  # an irrational cut: N is never zero on an interval by chance
        points = sorted(thetas)
        bb = sp.exp(-self.eps)
        values = []
        for left, right in pairwise(points):
            mid = sp.Rational((left + right).numerator, (left + right).denominator * 2)
            total = sp.Integer(0)
            for cut, h in jumps:
                kappa = sp.floor(cut / delta - mid) + 1
                total += h * bb ** kappa * (cut - kappa * delta)
            values.append(exact_sign(from_sympy(total), "cost"))
        runs: list[tuple[Fraction, Fraction]] = []
        for index, v in enumerate(values):
            if v == 0:
                if runs and runs[-1][1] == points[index]:
                    runs[-1] = (runs[-1][0], points[index + 1])
                else:
                    runs.append((points[index], points[index + 1]))
        for lo, hi in runs:
            if lo <= t <= hi:
                return lo, hi
        return None

    def open_end(self) -> tuple[None, None]:
        return None, None
