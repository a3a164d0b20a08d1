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

import flint
import sympy as sp

from dpsym.certified.evaluation import Value, cost_balls
from dpsym.certified.expectation import CostBalls
from dpsym.certified.kernel import Certified, ball, ball_rounding, bits_for, precisions
from dpsym.certified.slope_argmin import Minimum, certify_minimum
from dpsym.core.costs import Cost
from dpsym.core.params import (
    Derived,
    FreeParameter,
    Guarantee,
    delta_param,
    require,
    sensitivity_param,
)
from dpsym.errors import CertificationError, DomainError, UnsupportedError
from dpsym.mechanisms.declared import DeclaredNoise
from dpsym.mechanisms.staircase import not_unique
from dpsym.precision import arb_workprec
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
    _private_by_theorem = True
    #: A mass :math:`\alpha` at 0 and the level :math:`h` on :math:`[0, L)`.
    density = SymmetricNoise(lattice=False, head=(Piece(0, L, NORM),), atom=alpha)

    @classmethod
    def _conditions(cls) -> tuple[tuple[sp.Symbol, sp.Expr, sp.Expr], ...]:
        (piece,) = cls.engine.noise_shape().head
        central = alpha + 2 * piece.expr * Delta / 2
        return ((L, central, delta),)

    @classmethod
    def _test_points(cls) -> list[dict[sp.Symbol, sp.Expr]]:
        # delta on both sides of every threshold p/(p+1) that the checks use
        return [{Delta: sp.Rational(3, 2), delta: d, eps: sp.Integer(1), b: sp.exp(-1)}
                for d in (sp.Rational(1, 10), sp.Rational(2, 5), sp.Rational(3, 5),
                          sp.Rational(7, 10), sp.Rational(4, 5), sp.Rational(19, 20))]

    def _general_value(self, quantity: str, cost: Cost, digits: int) -> Value | None:
        r"""The optimal :math:`\alpha^*` (with :math:`L` and :math:`h`) and cost for a cost
        that is not a power: the minimum of :class:`UniformMassSlope`
        (:mod:`dpsym.certified.slope_argmin`); a flat minimum (the indicator cost) or one
        approached as :math:`\alpha \to \delta` names its set of minimisers instead of a
        parameter."""
        require(self, "delta", "Delta")
        if self.free_given is not None:
            return None
        problem = UniformMassSlope(self.values["delta"], self.values["Delta"],
                                   cost_balls(cost))
        kind = "cost" if quantity == "cost" else "parameter"
        found, where = certify_minimum(problem, digits, kind,
                                       what=f"{self.name} {quantity} for {cost.name}")
        if quantity == "cost":
            return Value(None, None, digits, source=found)
        not_unique(self.name, "alpha", cost, where)
        if quantity == "alpha":
            return Value(None, None, digits, source=found)
        return problem.derived(quantity, where, digits)


class UniformMassSlope:
    r""":math:`\mathcal{P}_\alpha`'s expected cost for any cost :math:`L` (symmetric,
    non-decreasing in :math:`|x|`) as a function of :math:`\alpha \in [0, \delta)`, and
    the sign of its slope.

    With the half-width :math:`W = \frac{(1 - \alpha)\Delta}{2(\delta - \alpha)}`
    (increasing in :math:`\alpha`, from :math:`\Delta/(2\delta)` to :math:`\infty`), the
    density :math:`h = (\delta - \alpha)/\Delta = (1 - \delta)/(2W - \Delta)` and
    :math:`F(y) = \int_0^y L`,

    .. math::

       \mathbb{E}\,L(X) = \alpha L(0) + 2hF(W)
           = \frac{(2\delta W - \Delta) L(0) + 2(1 - \delta) F(W)}{2W - \Delta},

    whose derivative in :math:`W` is :math:`2(1 - \delta) M(W)/(2W - \Delta)^2` with

    .. math:: M(W) = L(W)(2W - \Delta) - 2F(W) + \Delta L(0), \qquad
              M^{\prime}(W) = L^{\prime}(W)(2W - \Delta) \ge 0

    (:math:`W \ge \Delta/(2\delta) \ge \Delta/2`), jumping up where :math:`L` jumps: the
    hypothesis of :mod:`dpsym.certified.slope_argmin`. Numerator and denominator above
    are non-negative and non-decreasing in :math:`W`, which encloses the cost on a
    bracket. Where :math:`L` is constant on a piece, :math:`M` is constant there; for a
    cost with rational cuts, values and integer powers every quantity at a rational
    :math:`\alpha` is an exact rational, which decides :math:`M = 0` exactly (the flat
    minimum of the indicator cost). As :math:`\alpha \to \delta` the cost tends to
    :math:`\delta L(0) + (1 - \delta) L(\infty)`: for a bounded cost whose last piece is
    constant with :math:`M < 0` there, that infimum is not attained.
    """

    def __init__(self, delta: object, Delta: object, cost: CostBalls) -> None:
        if not isinstance(delta, Fraction) or not isinstance(Delta, Fraction):
            raise DomainError("delta", "a cost other than a power takes rational delta and "
                              "Delta")
        self.delta, self.Delta, self.balls = delta, Delta, cost
        self.lo = Fraction(0)
        self.hi: Fraction | None = None
        self.open_limit: Fraction | None = delta
        self.exact = cost.shape.rational

    # --------------------------------------------------------------- the change of variable
    def width(self, alpha: Fraction) -> Fraction:
        r""":math:`W(\alpha)`."""
        return (1 - alpha) * self.Delta / (2 * (self.delta - alpha))

    def alpha(self, w: Fraction) -> Fraction:
        r""":math:`\alpha(W) = (2\delta W - \Delta)/(2W - \Delta)`."""
        return (2 * self.delta * w - self.Delta) / (2 * w - self.Delta)

    # --------------------------------------------------------------- exact or ball values
    def _m(self, w: Fraction, side: int) -> flint.arb | Fraction:
        if self.exact:
            value = self.balls.exact_value(w, side)
            return value * (2 * w - self.Delta) - 2 * self.balls.exact_antiderivative(w) \
                + self.Delta * self.balls.exact_value(Fraction(0))
        return self.balls.value(w, side) * ball(2 * w - self.Delta) \
            - 2 * self.balls.antiderivative(w) + ball(self.Delta) * self.balls.value(Fraction(0))

    def slope(self, t: Fraction, side: int) -> flint.arb:
        found = self._m(self.width(t), side)
        return ball(found) if isinstance(found, Fraction) else found

    def slope_derivative(self, t: Fraction) -> flint.arb | None:
        w = self.width(t)
        if self.jumps_at(t):
            return None
        dw = ball(self.Delta * (1 - self.delta) / (2 * (self.delta - t) ** 2))
        found = self.balls.slope(w, 1) * ball(2 * w - self.Delta) * dw
        return found if found.is_finite() else None

    def jumps_at(self, t: Fraction) -> bool:
        w = self.width(t)
        return any(self.balls.compare_cut(w, j) == 0 for j in range(len(self.balls.cuts)))

    def kinks(self) -> list[Fraction]:
        r"""The :math:`\alpha` at which the half-width :math:`W` meets a rational cut."""
        return [self.alpha(c) for c in self.balls.cut_fractions[1:]
                if c is not None and c > self.Delta / (2 * self.delta)]

    def _num(self, w: Fraction) -> flint.arb | Fraction:
        if self.exact:
            return (2 * self.delta * w - self.Delta) * self.balls.exact_value(Fraction(0)) \
                + 2 * (1 - self.delta) * self.balls.exact_antiderivative(w)
        return ball(2 * self.delta * w - self.Delta) * self.balls.value(Fraction(0)) \
            + ball(2 * (1 - self.delta)) * self.balls.antiderivative(w)

    def cost(self, t: Fraction) -> flint.arb | Fraction:
        w = self.width(t)
        num = self._num(w)
        if isinstance(num, Fraction):
            return num / (2 * w - self.Delta)
        return num / ball(2 * w - self.Delta)

    def cost_box(self, a: Fraction, c: Fraction) -> flint.arb:
        wa, wc = self.width(a), self.width(c)
        na, nc = (ball(v) if isinstance(v, Fraction) else v
                  for v in (self._num(wa), self._num(wc)))
        return (na / ball(2 * wc - self.Delta)).union(nc / ball(2 * wa - self.Delta))

    # --------------------------------------------------------------- flat and open ends
    def _zero(self, w: Fraction, side: int) -> bool:
        """Whether :math:`M(W^{side}) = 0` exactly (rational costs only)."""
        return self.exact and self._m(w, side) == 0

    def zero_set(self, t: Fraction) -> tuple[Fraction, Fraction] | None:
        if not self.exact:
            return None
        w = self.width(t)
        if not (self._zero(w, -1) or self._zero(w, 1)):
            return None
        cuts = self.balls.exact_cuts()
        j, at_cut = self.balls.locate(w)
        pieces = self.balls.shape.pieces
        # M is constant on a constant piece; the run of zeros spans whole such pieces
        lo_w = hi_w = w
        if not at_cut and pieces[j].behaviour.direction != 0:
            return t, t  # M is strictly increasing here: an isolated zero
        left = j if not at_cut else (j - 1 if self._zero(w, -1) else None)
        right = j if not at_cut else (j if self._zero(w, 1) else None)
        while left is not None and left >= 0 and pieces[left].behaviour.direction == 0 \
                and self._zero(_inside(cuts, left), 0):
            lo_w = cuts[left]
            left = left - 1 if left > 0 and self._zero(cuts[left], -1) else None
        reaches_end = False
        while right is not None and right < len(pieces) \
                and pieces[right].behaviour.direction == 0 \
                and self._zero(_inside(cuts, right), 0):
            if right + 1 == len(pieces):
                reaches_end = True
                break
            hi_w = cuts[right + 1]
            right = right + 1 if self._zero(cuts[right + 1], 1) else None
        lo_a = max(Fraction(0), self.alpha(lo_w)) if lo_w > self.Delta / (2 * self.delta) \
            else Fraction(0)
        hi_a = self.delta if reaches_end else max(Fraction(0), self.alpha(hi_w))
        return lo_a, hi_a

    def open_end(self) -> tuple[Fraction | None, flint.arb | Fraction | None]:
        last = self.balls.shape.pieces[-1]
        start = max(self.balls.cut_fractions[-1] or Fraction(0),
                    self.Delta / (2 * self.delta)) + 1
        if last.behaviour.direction == 0:
            m = self._m(start, 0)
            sign = (m > 0) - (m < 0) if isinstance(m, Fraction) else (
                1 if m > 0 else (-1 if m < 0 else None))
            if sign is None:
                raise CertificationError("the slope's sign on the last piece of the cost is "
                                         "not decided")
            if sign >= 0:
                return self.alpha(start), None
            limit = self.balls.shape.limit
            if self.exact:
                return None, self.delta * self.balls.exact_value(Fraction(0)) \
                    + (1 - self.delta) * Fraction(int(limit.p), int(limit.q))
            return None, ball(self.delta) * self.balls.value(Fraction(0)) \
                + ball(1 - self.delta) * self.balls.value(start)
        w = start
        for _ in range(4000):
            m = self._m(w, 0)
            if (m > 0) if isinstance(m, Fraction) else bool(m > 0):
                return self.alpha(w), None
            w *= 2
        raise UnsupportedError("cannot decide whether the (0, delta) optimum is attained: "
                               "the slope stays negative up to half-widths 2^4000")

    # --------------------------------------------------------------- derived parameters
    def derived(self, quantity: str, where: Minimum, digits: int) -> Value:
        """The half-width :math:`L = W` or the density :math:`h` at the minimiser."""
        def enclose(w_lo: Fraction, w_hi: Fraction) -> tuple[Fraction, Fraction]:
            if quantity == "L":
                return w_lo, w_hi
            return ((1 - self.delta) / (2 * w_hi - self.Delta),
                    (1 - self.delta) / (2 * w_lo - self.Delta))
        lo, hi = enclose(self.width(where.lo), self.width(where.hi))
        if lo == hi:
            return Value(None, None, digits, source=Certified.exact(lo, digits))
        for bits in precisions(bits_for(digits, 64)):
            with arb_workprec(bits):
                box = ball(lo).union(ball(hi))
                rounded = ball_rounding(box, digits)
            if rounded is not None:
                return Value(None, None, digits, source=Certified(box, rounded, digits))
        raise CertificationError(f"uniform-mass {quantity} did not round to {digits} digits "
                                 "(widen the minimiser's bracket)")


def _inside(cuts: list[Fraction], j: int) -> Fraction:
    """A rational point inside piece ``j``."""
    lo = cuts[j]
    return lo + 1 if j + 1 == len(cuts) else (lo + cuts[j + 1]) / 2
