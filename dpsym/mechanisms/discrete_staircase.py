r"""The discrete staircase mechanism for integer-valued queries with integer sensitivity.

Source: thesis slides (000), Part One ("Extension to discrete setting"). With
:math:`b = e^{-\varepsilon}` and an integer step length :math:`r \in \{1, \dots, \Delta\}`,
the mass function is symmetric and, for :math:`i \ge 0` written as
:math:`i = k\Delta + j` with :math:`0 \le j < \Delta`,

.. math::

   P_r(i) = \begin{cases} a(r)\, b^k & 0 \le j < r \\
                          a(r)\, b^{k+1} & r \le j < \Delta. \end{cases}

The normalising constant :math:`a(r)`, the cost as a function of :math:`r` and the
optimal :math:`r^*` (an integer minimisation) are derived by the engine; :math:`r^*` is
proven by separated Arb enclosures (:mod:`dpsym.certified.integer_argmin`).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from fractions import Fraction
from typing import Protocol, Self, TypeVar

import flint
import mpmath
import sympy as sp

from dpsym.certified import evaluation
from dpsym.certified.balls import BallFunction
from dpsym.certified.constants import arb_of
from dpsym.certified.evaluation import MAX_INTEGER_SCAN, cost_balls
from dpsym.certified.kernel import to_mpf
from dpsym.certified.lerch.balls import lerch_family
from dpsym.core.costs import Cost, parse_cost
from dpsym.core.expressions import to_sympy
from dpsym.core.params import (
    FreeParameter,
    eps_param,
    parameter_symbols,
    require,
    sensitivity_param,
)
from dpsym.errors import DomainError, NoClosedFormError, UnsupportedError
from dpsym.mechanisms.declared import DeclaredNoise
from dpsym.precision import arb_workprec, exclusive
from dpsym.symbolic.noise import GeometricTail, Piece, SymmetricNoise
from dpsym.symbols import NORM, Delta, b, r

#: Largest eps accepted: the cost's terms of order :math:`b = e^{-\varepsilon}` are
#: resolved against its terms of order one with :math:`\varepsilon \log_{10} e` extra
#: digits (:meth:`DiscreteStaircase._guard_digits`), 4343 at this bound.
EPS_MAX_DISCRETE = Fraction(10) ** 4
#: Largest sensitivity of a non-integer moment: one Lerch sum per lattice point of a
#: period (:meth:`DiscreteStaircase._numeric_optimum`), about 4 s at this bound and 40
#: digits; integer moments have closed forms and take the whole declared range.
DELTA_MAX_LERCH = 1024


class _Number(Protocol):
    """A number type with sums and products (Arb balls, mpf)."""

    def __add__(self, other: Self, /) -> Self: ...
    def __mul__(self, other: Self | int, /) -> Self: ...
    def __rmul__(self, other: int, /) -> Self: ...


T = TypeVar("T", bound=_Number)


class DiscreteStaircase(DeclaredNoise):
    r"""The discrete staircase with integer step :math:`r^*` optimised per cost."""

    name = "discrete-staircase"
    title = "Discrete staircase mechanism"
    source = "000 Part One (extension to discrete setting)"
    lattice = True
    params = (eps_param(upper=EPS_MAX_DISCRETE),
              sensitivity_param(integer=True, upper=MAX_INTEGER_SCAN))
    free = FreeParameter("r", r, 1, Delta, integer=True)
    _private_by_theorem = True
    #: Mass :math:`a` on :math:`0, \dots, r - 1`, :math:`ab` on :math:`r, \dots, \Delta - 1`,
    #: repeated on every period :math:`\Delta` with ratio :math:`b`.
    density = SymmetricNoise(lattice=True, tail=GeometricTail(
        start=0, period=Delta, ratio=b, pieces=(Piece(0, r, NORM), Piece(r, Delta, NORM * b))))

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

    def _integer_cost_balls(self, cost: Cost
                            ) -> Callable[[Sequence[int], int], list[flint.arb]]:
        r"""The cost of a non-integer moment (no closed form in :math:`r`) at integer steps
        as Arb balls, for :func:`dpsym.certified.integer_argmin.integer_optimum`: the balls of
        :meth:`_step_cost_balls`, computed once per precision.

        Raises
        ------
        DomainError
            Beyond :data:`DELTA_MAX_LERCH`.
        UnsupportedError
            If the normalisation has no ball form.
        """
        compute = self._step_cost_balls if cost.is_power else self._general_step_cost_balls
        compute(cost, 64)  # the errors now, not inside the argmin's search
        balls: dict[int, list[flint.arb]] = {}

        def costs(steps: Sequence[int], prec: int) -> list[flint.arb]:
            if prec not in balls:
                balls[prec] = compute(cost, prec)
            return [balls[prec][s - 1] for s in steps]
        return costs

    # ------------------------------------------------------------------ cost at a step
    def _step(self, step: int) -> int:
        require(self, "eps", "Delta")
        big = int(self.values["Delta"])
        if isinstance(step, bool) or int(step) != step or not 1 <= step <= big:
            raise DomainError("r", f"the step must be an integer in [1, {big}], got {step!r}")
        return big

    def _period_size(self, cost: Cost) -> int:
        r""":math:`\Delta`, the number of sums of a period the cost at every step takes.

        Raises
        ------
        DomainError
            For a missing parameter, or :math:`\Delta` above :data:`DELTA_MAX_LERCH`.
        """
        big = self._step(1)
        if big > DELTA_MAX_LERCH:
            raise DomainError("Delta", f"the cost {cost.name} at every step takes a "
                              f"sensitivity in [1, {DELTA_MAX_LERCH}] (one Lerch sum per "
                              f"lattice point of a period), got {big}")
        return big

    def step_cost(self, cost: Cost | str, step: int) -> sp.Expr:
        r"""The expected cost at the integer step :math:`r` = ``step``, exactly: the
        engine's lattice moment of the definition with :math:`\Delta` and :math:`r`
        substituted, for a non-integer :math:`p` a finite sum of Lerch sums

        .. math:: \mathbb{E}|X|^p = 2 a(r) \Delta^p \Bigl(\sum_{j < r} L(b, p, j/\Delta)
                  + b \sum_{r \le j < \Delta} L(b, p, j/\Delta)\Bigr)

        (:class:`~dpsym.symbolic.sums.LerchSum`, exact offsets), in :math:`b = e^{-\varepsilon}`;
        :class:`dpsym.certified.balls.BallPlan` encloses it at the exact :math:`\varepsilon`
        (:mod:`dpsym.certified.lerch.balls`). One sum per lattice point of a period: for every
        :math:`r` at once, :meth:`_step_cost_balls` is :math:`\Delta` times cheaper.

        Raises
        ------
        DomainError
            For a step outside :math:`[1, \Delta]` or a missing parameter.
        """
        cost = parse_cost(cost)
        big = self._step(step)
        return self.engine.noise().subs({Delta: big, r: int(step)}).moment(cost.exponent)

    @exclusive
    def _step_cost_balls(self, cost: Cost | str, prec: int) -> list[flint.arb]:
        r"""Balls containing the expected cost at every step :math:`r = 1, \dots,
        \Delta` (item :math:`r - 1`), computed at ``prec`` bits: the formula of
        :meth:`step_cost` with each of the :math:`\Delta` Lerch sums
        :math:`L(b, p, j/\Delta)` enclosed once (:func:`dpsym.certified.lerch.balls.lerch_family`),
        prefix and suffix sums over :math:`j`, and the engine's normalisation
        :math:`a(r)` as a ball function of :math:`r` (:class:`dpsym.certified.balls.BallFunction`).
        Every ball is rigorous (a NaN ball where an enclosure failed).

        Raises
        ------
        DomainError
            For a missing parameter, or :math:`\Delta` above :data:`DELTA_MAX_LERCH`.
        UnsupportedError
            If the normalisation has no ball form.
        """
        cost = parse_cost(cost)
        big = self._period_size(cost)
        symbol = parameter_symbols(self)
        exact = {symbol[n]: v for n, v in self.values.items()}
        norm = BallFunction.prepare(self.engine.calibration()[NORM], exact, r)
        ratio = BallFunction.prepare(b, exact, r)
        if norm is None or ratio is None:
            raise UnsupportedError(f"{self.name}: the normalisation has no ball form")
        power = Fraction(int(cost.power.p), int(cost.power.q))
        with arb_workprec(prec):
            bb = ratio(flint.arb(0))
            sums = [lerch_family(bb, power, flint.arb(flint.fmpq(j, big)), 1)[0]
                    for j in range(big)]
            scale = 2 * (flint.arb(big).log() * flint.arb(flint.fmpq(power.numerator,
                                                                     power.denominator))).exp()
            return step_costs(sums, bb, scale, lambda step: norm(flint.arb(step)))

    @exclusive
    def _general_step_cost_balls(self, cost: Cost | str, prec: int) -> list[flint.arb]:
        r"""Balls of the expected cost of any cost :math:`L` (symmetric, non-decreasing in
        :math:`|x|`) at every step :math:`r = 1, \dots, \Delta`: with the :math:`\Delta`
        sums :math:`\Lambda_j = \sum_{k \ge 0} b^k L(k\Delta + j)`
        (:meth:`dpsym.certified.expectation.CostBalls.geometric_sum`),

        .. math:: \mathbb{E}\,L(X) = 2a(r)\Bigl(\sum_{j < r}\Lambda_j
                  + b\sum_{r \le j < \Delta}\Lambda_j\Bigr) - L(0)\,a(r)

        (the lattice's :math:`2\sum_{i \ge 0} L(i)P(i) - L(0)P(0)`, :math:`P(0) = a(r)`), by
        :func:`step_costs`.

        Raises
        ------
        DomainError
            For a missing parameter, or :math:`\Delta` above :data:`DELTA_MAX_LERCH`.
        """
        cost = parse_cost(cost)
        big = self._period_size(cost)
        symbol = parameter_symbols(self)
        exact = {symbol[n]: v for n, v in self.values.items()}
        norm = BallFunction.prepare(self.engine.calibration()[NORM], exact, r)
        if norm is None:
            raise UnsupportedError(f"{self.name}: the normalisation has no ball form")
        balls = cost_balls(cost)
        with arb_workprec(prec):
            e = arb_of(to_sympy(self.values["eps"]))
            bb, omb = (-e).exp(), -((-e).expm1())
            rate = e / big
            sums = [balls.geometric_sum("L", bb, omb, Fraction(j), Fraction(big), rate=rate)
                    for j in range(big)]
            at_zero = balls.value(Fraction(0))
            costs = step_costs(sums, bb, flint.arb(2), lambda step: norm(flint.arb(step)))
            return [c - at_zero * norm(flint.arb(step))
                    for step, c in enumerate(costs, start=1)]

    def _numeric_optimum(self, cost: Cost, hint: mpmath.mpf | None = None
                         ) -> tuple[mpmath.mpf | None, mpmath.mpf]:
        r"""(:math:`r^*`, optimal cost) at the working precision.

        A cost without closed form (a non-integer moment) is the midpoint of the balls of
        :meth:`_step_cost_balls` (the cost at every step, from the :math:`\Delta` Lerch sums
        of a period) at the working precision plus guard bits, instead of :math:`\Delta`
        sums per value of :math:`r` through sympy (a minute at :math:`\Delta = 40`, a
        recursion-depth failure beyond).
        """
        try:
            self.cost_function(cost)
        except NoClosedFormError:
            pass
        else:
            return evaluation.numeric_optimum(self, cost, hint)
        balls = self._step_cost_balls(cost, mpmath.mp.prec + 64)
        if not all(ball.is_finite() for ball in balls):
            raise ArithmeticError(f"{self.name}: a Lerch sum of {cost.name} was not enclosed")
        costs = [+to_mpf(ball.mid()) for ball in balls]  # rounded to the working precision
        value, step = min((v, k) for k, v in enumerate(costs, start=1))
        return mpmath.mpf(step), value


def step_costs(lerch: Sequence[T], b: T, scale: T, norm: Callable[[int], T]) -> list[T]:
    r"""The expected cost at every step :math:`r = 1, \dots, \Delta`, in any number type
    (Arb balls, mpf): with the :math:`\Delta` Lerch sums
    :math:`L_j = \sum_{k \ge 0} b^k (k + j/\Delta)^p` of a period,

    .. math:: \mathbb{E}|X|^p = 2 \Delta^p a(r) \Bigl(\sum_{j < r} L_j
              + b \sum_{r \le j < \Delta} L_j\Bigr)

    (``scale`` is :math:`2\Delta^p`, ``norm(r)`` the normalisation :math:`a(r)`), by
    prefix and suffix sums: the whole row for the price of one."""
    suffix = [lerch[0] * 0] * (len(lerch) + 1)
    for j in range(len(lerch) - 1, -1, -1):
        suffix[j] = suffix[j + 1] + lerch[j]
    below = lerch[0] * 0
    out = []
    for step in range(1, len(lerch) + 1):
        below = below + lerch[step - 1]
        out.append(scale * norm(step) * (below + b * suffix[step]))
    return out
