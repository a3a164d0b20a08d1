r"""Lower bounds on the minimum cost of :math:`(\varepsilon, \delta)`-DP noise for a
real-valued query (paper 003, Lemma 2 and Theorems 4, 5), for *every* admissible
:math:`(\varepsilon, \delta)`.

Derivation (checked in ``notebooks/lower_bounds.py``). Let :math:`X` be noise satisfying
:math:`P(S) \le e^\varepsilon P(S + d) + \delta` for all Borel :math:`S` and
:math:`|d| \le \Delta`. Averaging :math:`X` and :math:`-X` keeps the constraint (it is
convex in :math:`P` and reflection-invariant) and the symmetric cost, so :math:`X` may be
taken symmetric. For the tail :math:`U(t) = P(X > t)` the sets :math:`S = (s, \infty)`,
:math:`d = \Delta` give the recursion

.. math:: U(s + \Delta) \ge b\,\bigl(U(s) - \delta\bigr), \qquad b = e^{-\varepsilon},

and symmetry gives :math:`U(s) \ge P(X \ge 0) \ge 1/2` for :math:`s < 0`. By induction
:math:`U(t) \ge x_k` for :math:`t < k\Delta`, where :math:`x_0 = 1/2`,
:math:`x_{k+1} = b(x_k - \delta)`, i.e.

.. math::

   x_k = \frac{\delta\,\bigl(e^{\varepsilon(\nu - k)} - 1\bigr)}{e^\varepsilon - 1},
   \qquad e^{\varepsilon\nu} = 1 + \frac{e^\varepsilon - 1}{2\delta},

so :math:`\nu = A/\Delta` with :math:`A` the truncated Laplacian's truncation point. With
:math:`\mathbb{E}|X|^p = 2\int_0^\infty p t^{p-1} U(t)\,dt` and :math:`U \ge 0`,

.. math::

   V_p^* \;\ge\; V_p^{\mathrm{low}} := 2\Delta^p \sum_{k=1}^{n-1} x_k \bigl(k^p - (k-1)^p\bigr),
   \qquad n = \lceil \nu \rceil,

the sum running over the :math:`k` with :math:`x_k > 0`. Summation by parts writes it as
:math:`2\sum_{k=0}^{n-2} a b^k (k\Delta)^p + 2 x_{n-1} ((n-1)\Delta)^p` with
:math:`a = x_k - x_{k+1} = (\delta + (e^\varepsilon-1)/2)/e^\varepsilon` the paper's
:math:`a`: masses :math:`a b^k` at :math:`k\Delta` and a *fractional* last mass
:math:`x_{n-1} \in (0, a b^{n-1}]`. The paper's assumption :math:`\sum_{k<n} a b^k = 1/2`
is exactly :math:`x_n = 0`, i.e. :math:`\nu` an integer, and then :math:`V_p^{\mathrm{low}}`
is Theorem 4 (:math:`p = 1`) and Theorem 5 (:math:`p = 2`). For other
:math:`(\varepsilon, \delta)` the fractional last mass is the rigorous interpolation;
keeping the paper's formula with a real :math:`n` or with :math:`n` rounded up is not a
proven bound (see ``docs/errata.md``).
"""

from __future__ import annotations

from fractions import Fraction
from functools import cache

import flint
import mpmath
import sympy as sp

from dpsym.bounds.common import BoundObject, enclosed_lower, round_exact
from dpsym.certified.balls import BallPlan, ExactPlan, enclosure
from dpsym.certified.evaluation import Value, cost_balls
from dpsym.certified.kernel import ball, exact_integer
from dpsym.certified.rounding import decimal_digits
from dpsym.core.costs import AMPLITUDE, Cost
from dpsym.core.params import (
    Guarantee,
    check_quantity,
    delta_param,
    eps_param,
    require,
    sensitivity_param,
    substitution,
)
from dpsym.errors import DomainError, UnsupportedError
from dpsym.precision import arb_workprec
from dpsym.symbolic.numerics import evaluate
from dpsym.symbols import Delta, b, delta, eps, k

#: Most values of :math:`n` a ball of :math:`\nu` may leave (``LowerBound._term_counts``).
MAX_COUNTS = 3

#: The number of positive terms :math:`n = \lceil A/\Delta \rceil` (an integer symbol).
n = sp.Symbol("n", integer=True, positive=True)
#: The rounding gap :math:`\theta = n - \nu \in [0, 1)`; :math:`\theta = 0` is the paper's
#: integer assumption.
theta = sp.Symbol("theta", nonnegative=True)

#: :math:`e^{\varepsilon\nu} = 1 + (e^\varepsilon - 1)/(2\delta)`, written in :math:`b`.
W_OF_B = 1 + (1 - b) / (2 * delta * b)


def convergent_branch(expr: sp.Expr) -> sp.Expr:
    r"""The generic branch (:math:`b \ne 1`) of a sympy sum returned as a Piecewise."""
    def pick(pw: sp.Piecewise) -> sp.Expr:
        for branch, cond in pw.args:
            if cond.subs(b, sp.Rational(1, 2)) is sp.true:
                return branch
        raise UnsupportedError(f"no generic branch in {pw}")

    return sp.sympify(expr).replace(lambda e: isinstance(e, sp.Piecewise), pick)


@cache
def finite_sum(weight: sp.Expr, upper: sp.Expr = n - 1) -> sp.Expr:
    r""":math:`\sum_{k=1}^{\mathrm{upper}} w(k)` for ``weight`` a polynomial in :math:`k`
    times :math:`b^k` or a polynomial, by ``sympy.summation`` term by term."""
    total = sp.Integer(0)
    for term in sp.Add.make_args(sp.expand(weight)):
        total += convergent_branch(sp.summation(term, (k, 1, upper)))
    return total


@cache
def tail_bound(p: int) -> sp.Expr:
    r""":math:`V_p^{\mathrm{low}}` in :math:`b, \delta, \Delta, n`, valid for every integer
    :math:`n \ge 1` equal to :math:`\lceil\nu\rceil`, by symbolic summation of
    :math:`2\Delta^p\sum_{k=1}^{n-1} x_k (k^p - (k-1)^p)`."""
    w = sp.expand(k**p - (k - 1) ** p)
    scale = delta * b / (1 - b)  # x_k = scale * (W b^k - 1)
    expr = 2 * Delta**p * scale * (W_OF_B * finite_sum(b**k * w) - finite_sum(w))
    return sp.factor(sp.together(expr))


def nu_of(eps_value: mpmath.mpf, delta_value: mpmath.mpf) -> mpmath.mpf:
    r""":math:`\nu = A/\Delta = \log(1 + (e^\varepsilon - 1)/(2\delta))/\varepsilon`
    at the working precision."""
    return mpmath.log1p(mpmath.expm1(eps_value) / (2 * delta_value)) / eps_value


def nu_expr() -> sp.Expr:
    r""":math:`\nu` as a sympy expression in :math:`\varepsilon, \delta`."""
    return sp.log(1 + (sp.exp(eps) - 1) / (2 * delta)) / eps


class LowerBound(BoundObject):
    r"""Certified lower bound :math:`V_p^{\mathrm{low}}(\varepsilon, \delta, \Delta)` on the
    minimum expected cost of :math:`(\varepsilon, \delta)`-DP noise, real-valued query.

    ``value`` is rounded toward :math:`-\infty`. ``formula`` is the closed form with
    :math:`n = \lceil \log(1 + (e^\varepsilon-1)/(2\delta))/\varepsilon \rceil`.
    ``series`` expands the closed form with :math:`n` at its eventual value in the regime:
    :math:`n = \lceil 1/(2\delta) \rceil` as :math:`\varepsilon \to 0` (fixed
    :math:`\delta`), :math:`n = 2` as :math:`\varepsilon \to \infty`, and
    :math:`n = \nu + \theta` with the rounding gap :math:`\theta \in [0, 1)` as a symbol
    in the regimes ``delta->0`` and ``eps=delta->0`` (where :math:`n \to \infty`).
    """

    name = "lower-bound"
    title = "Lower bound on the (eps, delta)-DP noise cost, real-valued query"
    source = "003 Lemma 2, Theorems 4-5 (general (eps, delta): fractional last mass)"
    guarantee = Guarantee.APPROXIMATE
    _max_moment = 4
    _general_costs = True
    params = (eps_param(), delta_param(Fraction(1, 2)), sensitivity_param())

    @classmethod
    def formula(cls, quantity: str = "cost", cost: Cost | str = "amplitude") -> sp.Expr:
        check_quantity(cls, quantity)
        c = cls._parse_bound_cost(cost)
        expr = cls._bound_in_n(c).subs(b, sp.exp(-eps))
        return expr.subs(n, sp.ceiling(nu_expr()))

    @classmethod
    def _bound_in_n(cls, cost: Cost) -> sp.Expr:
        r""":math:`V^{\mathrm{low}}` in :math:`b, \delta, \Delta, n`: :func:`tail_bound`
        for :math:`|x|^p`; for a sum of integer powers :math:`L = c_0 + \sum_p c_p |x|^p`
        (the bound is linear in :math:`L`) :math:`c_0 + \sum_p c_p V_p^{\mathrm{low}}`.

        Raises
        ------
        UnsupportedError
            For any other cost (its bound is computed numerically by :meth:`value`).
        """
        if cost.is_power:
            return tail_bound(int(cost.power))
        terms = cost.terms
        if terms is None or not all(p.is_Integer and p <= cls._max_moment for _, p in terms):
            raise UnsupportedError(
                f"{cls.name}: no closed form for the cost {cost.name} (a sum of integer "
                f"powers of |x| up to {cls._max_moment} has one); its value is certified "
                "numerically")
        return sp.Add(*[c * (tail_bound(int(p)) if p > 0 else 1) for c, p in terms])

    @classmethod
    def regime_formula(cls, cost: Cost, regime: str) -> sp.Expr:
        expr = cls._bound_in_n(cost)
        if regime == "eps->0":
            return expr.subs(n, sp.ceiling(1 / (2 * delta)))
        if regime == "eps->oo":
            return expr.subs(n, 2)
        if regime in ("delta->0", "eps=delta->0"):
            # b**n = b**theta * b**nu = b**theta / W
            expr = sp.expand_power_exp(sp.expand(expr))
            expr = expr.subs(b**n, b**theta / W_OF_B)
            return expr.subs(n, nu_expr().subs(eps, -sp.log(b)) + theta)
        raise UnsupportedError(f"{cls.name}: no series in regime {regime}")

    def _bound_at_working_precision(self, cost: Cost) -> mpmath.mpf:
        r""":math:`V_p^{\mathrm{low}}` at the current precision (not rounded)."""
        require(self, "eps", "delta", "Delta")
        point = dict(substitution(self))
        e = evaluate(eps, point)
        d = evaluate(delta, point)
        # nu = 1 + log((1 - b)/(2 delta) + b)/eps > 1 for delta < 1/2 (this form keeps the
        # fractional part at large eps, where nu_of rounds to 1)
        bb = mpmath.exp(-e)
        frac = mpmath.log1p(-mpmath.expm1(-e) / (2 * d) - (1 - bb)) / e
        count = max(2, 1 + int(mpmath.ceil(frac)))
        point[n] = sp.Integer(count)
        return evaluate(tail_bound(int(cost.power)), point)

    def value(self, quantity: str = "cost", cost: Cost | str = "amplitude",
              digits: int = 30) -> Value:
        r"""The lower bound enclosed in Arb balls and rounded *down* to ``digits`` digits
        (:func:`~dpsym.bounds.common.enclosed_lower`): certificate ``"enclosure"``.

        The integer :math:`n = \lceil\nu\rceil` is decided from a ball of :math:`\nu`
        (:meth:`_term_counts`); where the ball still meets an integer, the bound is the
        largest of :math:`V(n)` over the integers it leaves, which is exact, not a
        heuristic: :math:`V(n) - V(n - 1) = 2\Delta^p x_{n-1}((n-1)^p - (n-2)^p)` has the
        sign of :math:`x_{n-1}`, positive exactly for :math:`n - 1 < \nu`, so
        :math:`V(\lceil\nu\rceil) = \max_n V(n)`. (For rational :math:`\varepsilon`,
        :math:`e^\varepsilon` is transcendental and :math:`\nu` is never an integer:
        :math:`e^{n\varepsilon} = 1 + (e^\varepsilon - 1)/(2\delta)` is a nonzero
        polynomial equation in it for :math:`n \ge 2`; the balls separate it from every
        integer at a high enough precision.)
        """
        check_quantity(self, quantity)
        c = self._parse_bound_cost(cost)
        require(self, "eps", "delta", "Delta")
        if not c.is_power:
            return self._general_value(c, digits)
        exact = {sym: self.values[name] for sym, name in
                 ((eps, "eps"), (delta, "delta"), (Delta, "Delta"))}
        p = int(c.power)
        plans: dict[int, BallPlan | ExactPlan | None] = {}

        def plan(count: int) -> BallPlan | ExactPlan | None:
            if count not in plans:
                plans[count] = BallPlan.prepare(tail_bound(p).subs(n, count), exact)
            return plans[count]

        counts = self._term_counts(0)
        only = plan(counts[0]) if len(counts) == 1 else None
        if isinstance(only, ExactPlan):
            number, text = round_exact(only.value, digits, down=True)
            return Value.from_exact(only.value, number, text, digits)

        def enclose(prec: int) -> flint.arb | None:
            found = [plan(count) for count in self._term_counts(prec)]
            known = [x for x in found if x is not None]
            if not found or len(known) < len(found) or len(found) > MAX_COUNTS:
                return None
            balls = [x.enclosure(prec) if isinstance(x, BallPlan)
                     else flint.arb(flint.fmpq(x.value.numerator, x.value.denominator))
                     for x in known]
            if not all(ball.is_finite() for ball in balls):
                return None
            lo = _largest([ball.lower() for ball in balls])
            hi = _largest([ball.upper() for ball in balls])
            return flint.arb(lo).union(flint.arb(hi))

        return enclosed_lower(enclose, digits, guard=self._guard_digits(c))

    def _general_value(self, cost: Cost, digits: int = 30) -> Value:
        r"""The bound for any cost :math:`L` symmetric and non-decreasing in :math:`|x|`,
        enclosed and rounded down (certificate ``"enclosure"``).

        For :math:`y \in [j\Delta, (j + 1)\Delta)`, :math:`L(y) \ge L(j\Delta)`, so
        :math:`L(|X|) \ge L(0) + \sum_{k \ge 1}(L(k\Delta) - L((k - 1)\Delta))
        \mathbf{1}\{|X| \ge k\Delta\}` with non-negative coefficients, and
        :math:`P(|X| \ge k\Delta) \ge 2U(t)` for every :math:`t < k\Delta`, so
        :math:`\ge 2x_k` (module docstring):

        .. math:: V_L^* \ge L(0) + 2\sum_{k=1}^{n-1} x_k\,(L(k\Delta) - L((k - 1)\Delta)),

        the module's :math:`V_p^{\mathrm{low}}` for :math:`L = |x|^p`. With
        :math:`x_k = \delta (W b^k - 1)/(e^\varepsilon - 1)`, :math:`W = e^{\varepsilon\nu}`,
        the sum is :math:`\frac{\delta}{e^\varepsilon - 1}(W S - L((n-1)\Delta) + L(0))`,
        :math:`S = (1 - b)\sum_{k=0}^{n-2} b^k L(k\Delta) + b^{n-1} L((n-1)\Delta) - L(0)`,
        the geometric sums of :meth:`dpsym.certified.expectation.CostBalls.geometric_sum`.
        The integer :math:`n = \lceil\nu\rceil` is decided as in :meth:`value` (the largest
        bound over the integers a ball of :math:`\nu` leaves is the bound at
        :math:`\lceil\nu\rceil`: each added term has the sign of :math:`x_{n-1}`)."""
        e, d, big = (self.values[n] for n in ("eps", "delta", "Delta"))
        if not all(isinstance(v, Fraction) for v in (e, d, big)):
            raise DomainError("eps", "the bound for a cost other than a power takes rational "
                              "eps, delta and Delta")
        balls = cost_balls(cost)

        def enclose(prec: int) -> flint.arb | None:
            counts = self._term_counts(prec)
            if not counts or len(counts) > MAX_COUNTS:
                return None
            eb = ball(e)
            bb, omb, em1 = (-eb).exp(), -((-eb).expm1()), eb.expm1()
            w = 1 + em1 / (2 * ball(d))
            at_zero = balls.value(Fraction(0))
            found = []
            for count in counts:
                head = balls.geometric_sum("L", bb, omb, Fraction(0), big, stop=count - 1)
                last = balls.value((count - 1) * big)
                s = omb * head + bb ** (count - 1) * last - at_zero
                found.append(at_zero + 2 * ball(d) / em1 * (w * s - last + at_zero))
            if not all(v.is_finite() for v in found):
                return None
            lo = _largest([v.lower() for v in found])
            hi = _largest([v.upper() for v in found])
            return flint.arb(lo).union(flint.arb(hi))

        return enclosed_lower(enclose, digits, guard=self._guard_digits(AMPLITUDE))

    def _term_counts(self, prec: int) -> list[int]:
        r"""The integers that :math:`n = \max(2, \lceil\nu\rceil)` can be, from a ball of
        :math:`\nu = 1 + \log(b + (1 - b)/(2\delta))/\varepsilon` at ``prec`` bits (64 if
        0): one integer once the ball excludes every integer; empty for a ball not finite."""
        exact = {eps: self.values["eps"], delta: self.values["delta"]}
        with arb_workprec(max(prec, 64)):
            ball = enclosure(1 + sp.log(b + (1 - b) / (2 * delta)) / eps, exact,
                             max(prec, 64))
            if ball is None or not ball.is_finite():
                return []
            first = max(2, exact_integer(ball.lower().ceil()))
            last = max(2, exact_integer(ball.upper().ceil()))
        return list(range(first, last + 1)) if last - first < MAX_COUNTS else []

    def _guard_digits(self, cost: Cost) -> int:
        # the closed form divides by (1 - b)**(p + 1): about (p + 1) log10(1/eps) digits
        e = self.values.get("eps")
        base = 10
        if e is not None and e < 1:
            lost = max(0, decimal_digits(e.denominator) - decimal_digits(e.numerator) + 1)
            base += lost * (int(cost.power) + 2)
        d = self.values.get("delta")
        if d is not None and d < Fraction(1, 10**6):
            base += 10
        return base


def _largest(points: list[flint.arb]) -> flint.arb:
    """The largest of exact Arb numbers (the ends of balls), compared exactly."""
    best = points[0]
    for x in points[1:]:
        if x > best:
            best = x
    return best


def paper_n(eps_value: object, n_value: int) -> Fraction | mpmath.mpf:
    r"""The :math:`\delta` at which the paper's integer assumption holds with ``n``:
    :math:`\delta_n = (e^\varepsilon - 1)/(2(e^{n\varepsilon} - 1))` (working precision)."""
    if n_value < 2:
        raise DomainError("n", "must be an integer >= 2")
    e = mpmath.mpf(eps_value) if not isinstance(eps_value, Fraction) else \
        mpmath.mpf(eps_value.numerator) / eps_value.denominator
    return mpmath.expm1(e) / (2 * mpmath.expm1(n_value * e))


__all__ = ["W_OF_B", "LowerBound", "n", "nu_expr", "nu_of", "paper_n", "tail_bound", "theta"]
