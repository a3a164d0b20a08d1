r"""The expected cost :math:`\mathbb{E}\,L(X)` of a noise for any cost the theorems allow,
enclosed in Arb balls.

A cost (:class:`dpsym.core.costs.Cost`) arrives cut into analytic pieces of
:math:`y = |x|` (:attr:`~dpsym.core.costs.Cost.shape`): cuts :math:`0 = t_0 < \dots <
t_m`, the values :math:`L(t_j)`, and on each piece an expression, a generalised
polynomial :math:`\sum_i c_i y^{p_i}` or any other analytic function.
:class:`CostBalls` evaluates, at the caller's working precision:

* the cost :math:`L(t)` and its one-sided limits at an exact point (:meth:`~CostBalls.value`),
  its antiderivative :math:`F(t) = \int_0^t L` (:meth:`~CostBalls.antiderivative`: the
  exact antiderivative of a generalised polynomial; sympy's, proven by differentiating it
  back to the piece; otherwise Arb's rigorous integration, ``acb.integral``);
* the geometric sums :math:`\sum_{k \ge 0} q^k G(a + kT)` of :math:`G = L` or
  :math:`G = F` (:meth:`~CostBalls.geometric_sum`), which every staircase-like noise
  reduces to. On the points of a piece that is a generalised polynomial they are closed:
  :math:`\sum_{k \ge k_0} q^k (k + \alpha)^p = q^{k_0} \Phi(q, -p, k_0 + \alpha)`, for an
  integer :math:`p` the binomial expansion in :math:`\mathrm{Li}_{-j}(q) =
  q A_j(q)/(1 - q)^{j+1}` (Eulerian polynomials, every term positive), for another
  :math:`p` a Lerch sum enclosed by :mod:`dpsym.certified.lerch.balls`. On any other
  piece they are summed term by term, and the tail of the last piece is bounded through
  the cost's majorant :math:`L(y) \le A e^{cy} y^m` (:func:`dpsym.core.monotone.majorant`):
  past :math:`K` the terms' ratio is at most :math:`\rho = q e^{cT}(1 + T/(a + KT))^m <
  1`, so the remainder is at most the :math:`K`-th term over :math:`1 - \rho`;
* the lattice sums :math:`\sum_{i_1 \le i < i_2} L(i)` (:meth:`~CostBalls.lattice_sum`:
  Hurwitz zeta differences on generalised polynomial pieces);
* the weighted integrals :math:`\int_a^b L(y)\,w(y)\,dy` (:meth:`~CostBalls.integral`:
  ``acb.integral`` with its error bound on each piece, the integrand declared
  non-analytic where a logarithm or a fractional power meets its branch cut; beyond
  :math:`R` on an infinite piece, with :math:`w(y) \le C e^{a_1 y + a_2 y^2}`, the
  integrand's logarithmic derivative is at most :math:`-\kappa < 0`, so the rest is at
  most its value at :math:`R` over :math:`\kappa`).

Whether :math:`\mathbb{E}\,L(X)` is finite is decided from the same majorant against the
noise's decay; a cost growing too fast is refused (:class:`~dpsym.errors.DomainError`
naming the hypothesis :math:`\mathbb{E}\,L(X) < \infty`).

:func:`expectation` encloses :math:`\mathbb{E}\,L(X)` for a numeric noise description
(:class:`dpsym.symbolic.noise.SymmetricNoise`: an atom, explicit pieces, a geometric tail
of constant shapes).
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache

import flint
import sympy as sp

from dpsym.certified.balls import BallFunction, BallLike, BallMap
from dpsym.certified.constants import arb_of
from dpsym.certified.kernel import ball, exact_integer
from dpsym.certified.lerch.balls import lerch_family
from dpsym.core.costs import Cost
from dpsym.core.monotone import Majorant, ext_compare, majorant, shown
from dpsym.errors import DomainError, UnsupportedError
from dpsym.precision import arb_workprec
from dpsym.symbolic.noise import SymmetricNoise
from dpsym.symbols import u, x, y

arb = flint.arb
acb = flint.acb

#: Most terms summed one by one (a sum of a non-polynomial piece over many periods).
MAX_DIRECT = 200_000
#: Ranges at most this long are summed directly even on a polynomial piece (two Lerch
#: sums would cancel).
SHORT_RANGE = 24
#: Terms summed between two checks of the remainder of a tail summed term by term.
CHECK_EVERY = 16


# ------------------------------------------------------------------------ compiling
@lru_cache(maxsize=4096)
def _constant(expr: sp.Expr, prec: int) -> arb:
    return arb_of(expr)


def compile_function(expr: sp.Expr, var: sp.Symbol) -> BallMap:
    r"""``expr`` (in ``var``) as a function ``f(z, analytic=False)`` of an Arb real or
    complex ball, at the caller's precision. With ``analytic`` (``acb.integral``'s flag)
    a logarithm or a fractional power returns a non-finite ball where the ball meets its
    branch cut, as Arb's integration requires."""
    expr = sp.sympify(expr)
    if var not in expr.free_symbols:
        def constant(z: BallLike, analytic: bool = False, e: sp.Expr = expr) -> arb:
            return _constant(e, flint.ctx.prec)
        return constant
    if expr == var:
        return lambda z, analytic=False: z
    args = [compile_function(a, var) for a in expr.args]
    if isinstance(expr, sp.Add):
        def add(z: BallLike, analytic: bool = False) -> BallLike:
            total = args[0](z, analytic)
            for f in args[1:]:
                total = total + f(z, analytic)
            return total
        return add
    if isinstance(expr, sp.Mul):
        def mul(z: BallLike, analytic: bool = False) -> BallLike:
            total = args[0](z, analytic)
            for f in args[1:]:
                total = total * f(z, analytic)
            return total
        return mul
    if isinstance(expr, sp.Pow):
        power = expr.args[1]
        f = args[0]
        if var in power.free_symbols:  # c^g = exp(g log c)
            g = args[1]
            return lambda z, analytic=False: (g(z, analytic) * f(z, analytic).log()).exp()
        if power.is_Integer:
            n = int(power)
            return lambda z, analytic=False: f(z, analytic) ** n
        q = Fraction(int(power.p), int(power.q))

        def frac_power(z: BallLike, analytic: bool = False) -> BallLike:
            v = f(z, analytic)
            if isinstance(v, acb):
                return (v.log(analytic=analytic) * ball(q)).exp()
            if v.is_zero():
                return arb(0)
            return v ** ball(q)
        return frac_power
    if isinstance(expr, sp.exp):
        f = args[0]
        return lambda z, analytic=False: f(z, analytic).exp()
    if isinstance(expr, sp.log):
        f = args[0]

        def log(z: BallLike, analytic: bool = False) -> BallLike:
            v = f(z, analytic)
            return v.log(analytic=analytic) if isinstance(v, acb) else v.log()
        return log
    raise UnsupportedError(f"cannot evaluate {shown(expr)} in ball arithmetic")


def _real(expr: sp.Expr, fallback: BallMap) -> Callable[[arb], arb]:
    """``expr`` in :math:`y` compiled to one function of a real ball
    (:class:`dpsym.certified.balls.BallFunction`), or the interpreter ``fallback``."""
    found = BallFunction.prepare(expr, {}, y)
    return found if found is not None else (lambda t: fallback(t))


def _fraction(v: sp.Expr) -> Fraction | None:
    return Fraction(int(v.p), int(v.q)) if isinstance(v, sp.Rational) else None


def _rational_terms(piece: _Piece) -> list[tuple[Fraction, Fraction]]:
    """The terms of a piece of a rational shape (:attr:`dpsym.core.costs.Shape.rational`:
    a polynomial with rational coefficients) as fractions."""
    assert piece.terms is not None
    return [(_rational(c), p) for c, p in piece.terms]


def _rational(v: sp.Expr) -> Fraction:
    """A cut, value or coefficient of a rational shape as a fraction."""
    found = _fraction(v)
    assert found is not None
    return found


def _floor(v: arb) -> int | None:
    """The floor of a ball that excludes every integer (or is one exactly), else None."""
    lo, hi = v.lower().floor(), v.upper().floor()
    if lo == hi:
        return exact_integer(lo)
    return None


# ------------------------------------------------------------------------ pieces
@dataclass
class _Piece:
    lo: sp.Expr
    hi: sp.Expr
    expr: sp.Expr
    terms: tuple[tuple[sp.Expr, Fraction], ...] | None
    value: BallMap
    slope: BallMap
    primitive: BallMap | None  # an antiderivative (exact), or None
    # the same on real balls, compiled to one Python function each (faster in long sums)
    real_value: Callable[[arb], arb]
    real_slope: Callable[[arb], arb]
    real_primitive: Callable[[arb], arb] | None


def _terms(piece_terms: tuple | None) -> tuple[tuple[sp.Expr, Fraction], ...] | None:
    if piece_terms is None:
        return None
    return tuple((c, Fraction(int(p.p), int(p.q))) for c, p in piece_terms)


def _antiderivative(expr: sp.Expr) -> sp.Expr | None:
    r"""An antiderivative of ``expr`` in :math:`y`: sympy's, kept only if its derivative
    is ``expr`` again identically (``expand``, ``cancel``) and it has no special
    function; None otherwise."""
    if sp.count_ops(expr) > 40:
        return None
    try:
        found = sp.integrate(expr, y)
    except (NotImplementedError, ValueError, TypeError):
        return None
    if found.has(sp.Integral) or any(isinstance(a, sp.Function) and not isinstance(
            a, (sp.exp, sp.log)) for a in sp.preorder_traversal(found)):
        return None
    check = sp.diff(found, y) - expr
    if sp.expand(check) != 0 and sp.cancel(sp.expand(check)) != 0 \
            and sp.expand(sp.expand_log(check, force=False)) != 0:
        return None
    return found


class CostBalls:
    r"""A cost's values, antiderivative, sums and integrals in Arb balls (see the module).

    Every method works at the caller's working precision (the caller holds
    :func:`~dpsym.precision.arb_workprec`) and returns a ball containing the exact
    quantity.

    Parameters
    ----------
    cost : dpsym.core.costs.Cost
        The cost, cut into analytic pieces by its :attr:`~dpsym.core.costs.Cost.shape`.
    """

    def __init__(self, cost: Cost) -> None:
        self.cost = cost
        shape = cost.shape
        self.shape = shape
        self.cuts = shape.cuts
        self.cut_fractions = [_fraction(t) for t in shape.cuts]
        self.values = shape.values
        self.pieces: list[_Piece] = []
        for pc in shape.pieces:
            terms = _terms(pc.terms)
            primitive = anti = None
            if terms is None:
                anti = _antiderivative(pc.expr)
                if anti is not None:
                    try:
                        primitive = compile_function(anti, y)
                    except UnsupportedError:
                        primitive = anti = None
            value = compile_function(pc.expr, y)
            slope_expr = sp.diff(pc.expr, y)
            slope = compile_function(slope_expr, y)
            self.pieces.append(_Piece(
                pc.lo, pc.hi, pc.expr, terms, value, slope, primitive,
                _real(pc.expr, value), _real(slope_expr, slope),
                None if anti is None or primitive is None else _real(anti, primitive)))
        self._memo: dict[tuple[object, ...], arb] = {}
        self._majorants: dict[tuple[object, ...], Majorant] = {}

    # -------------------------------------------------------------- locating points
    def _cut_ball(self, j: int) -> arb:
        key = ("cut", j, flint.ctx.prec)
        if key not in self._memo:
            self._memo[key] = arb_of(self.cuts[j])
        return self._memo[key]

    def compare_cut(self, t: Fraction, j: int) -> int:
        """-1, 0, 1 as the exact ``t`` is below, at, above cut ``j``."""
        c = self.cut_fractions[j]
        if c is not None:
            return (t > c) - (t < c)
        prec = 128
        while prec < 1 << 16:
            with arb_workprec(prec):
                v = arb_of(self.cuts[j])
                tb = ball(t)
                if tb < v:
                    return -1
                if tb > v:
                    return 1
            prec *= 4
        raise UnsupportedError("a point cannot be placed against an irrational cut")

    def locate(self, t: Fraction) -> tuple[int, bool]:
        """``(j, at_cut)``: ``t`` is cut ``j`` itself, or inside piece ``j``."""
        for j in range(len(self.cuts) - 1, -1, -1):
            order = self.compare_cut(t, j)
            if order == 0:
                return j, True
            if order > 0:
                return j, False
        raise DomainError("cost", f"a cost is evaluated at |x| >= 0, not at {t}")

    # -------------------------------------------------------------- point values
    def _piece_value(self, j: int, t: arb) -> arb:
        pc = self.pieces[j]
        if pc.terms is not None:
            total = arb(0)
            for c, p in pc.terms:
                total += _constant(c, flint.ctx.prec) * _power(t, p)
            return total
        return pc.real_value(t)

    def value(self, t: Fraction, side: int = 0) -> arb:
        r""":math:`L(t)` at an exact :math:`t \ge 0`; ``side`` -1 or 1 the left or right
        limit (they differ at a jump of the cost)."""
        j, at_cut = self.locate(t)
        if not at_cut:
            return self._piece_value(j, ball(t))
        if side > 0:
            return self._piece_value(j, ball(t))
        if side < 0 and j > 0:
            return self._piece_value(j - 1, ball(t))
        return _constant(self.values[j], flint.ctx.prec)

    def _require_rational(self) -> None:
        if not self.shape.rational:
            raise UnsupportedError(f"the cost {self.cost.name} has no exact values (its "
                                   "shape is not rational)")

    def exact_cuts(self) -> list[Fraction]:
        """The cuts of a rational shape as fractions (as :meth:`exact_value`)."""
        self._require_rational()
        return [_rational(c) for c in self.cuts]

    def exact_value(self, t: Fraction, side: int = 0) -> Fraction:
        r""":math:`L(t)` (or a one-sided limit) as an exact rational, for a cost whose
        shape is rational (:attr:`dpsym.core.costs.Shape.rational`; else
        :class:`~dpsym.errors.UnsupportedError`)."""
        self._require_rational()
        j, at_cut = self.locate(t)
        if at_cut and side == 0:
            return _rational(self.values[j])
        if at_cut and side < 0 and j > 0:
            j -= 1
        return sum((c * t ** int(p) for c, p in _rational_terms(self.pieces[j])),
                   Fraction(0))

    def exact_antiderivative(self, t: Fraction) -> Fraction:
        r""":math:`F(t)` as an exact rational for a rational shape (as :meth:`exact_value`)."""
        self._require_rational()
        cuts = self.exact_cuts()
        total = Fraction(0)
        for j, pc in enumerate(self.pieces):
            a = cuts[j]
            if t <= a:
                break
            c = t if j + 1 == len(self.pieces) or t < cuts[j + 1] \
                else cuts[j + 1]
            total += sum((k * (c ** (int(p) + 1) - a ** (int(p) + 1))
                          / (int(p) + 1) for k, p in _rational_terms(pc)), Fraction(0))
        return total

    def slope(self, t: Fraction, side: int = 1) -> arb:
        r""":math:`L^{\prime}(t)` on the side ``side`` of an exact :math:`t`."""
        j, at_cut = self.locate(t)
        if at_cut and side < 0 and j > 0:
            j -= 1
        return self.pieces[j].real_slope(ball(t))

    def _primitive(self, j: int, t: arb) -> arb | None:
        """An antiderivative of piece ``j`` at ``t`` (None if it has none in closed form)."""
        pc = self.pieces[j]
        if pc.terms is not None:
            total = arb(0)
            for c, p in pc.terms:
                total += _constant(c, flint.ctx.prec) * _power(t, p + 1) / ball(p + 1)
            return total
        if pc.real_primitive is not None:
            return pc.real_primitive(t)
        return None

    def _piece_integral(self, j: int, a: arb, c: arb) -> arb:
        r""":math:`\int_a^c` of piece ``j`` (exact points a < c inside its closure)."""
        if a == c:
            return arb(0)
        low, high = self._primitive(j, a), self._primitive(j, c)
        if low is not None and high is not None and low.is_finite() and high.is_finite():
            return high - low
        fn = self.pieces[j].value
        found = acb.integral(lambda z, analytic: fn(z, analytic), acb(a), acb(c))
        return found.real if found.imag.contains(0) else arb.nan()

    def _cut_primitive(self, j: int) -> arb:
        r""":math:`F(t_j)`, cumulated once per precision."""
        key = ("F", j, flint.ctx.prec)
        if key not in self._memo:
            if j == 0:
                self._memo[key] = arb(0)
            else:
                self._memo[key] = self._cut_primitive(j - 1) + self._piece_integral(
                    j - 1, self._cut_ball(j - 1), self._cut_ball(j))
        return self._memo[key]

    def antiderivative(self, t: Fraction) -> arb:
        r""":math:`F(t) = \int_0^t L(s)\,ds` at an exact :math:`t \ge 0`."""
        j, at_cut = self.locate(t)
        if at_cut:
            return self._cut_primitive(j)
        return self._cut_primitive(j) + self._piece_integral(j, self._cut_ball(j), ball(t))

    # -------------------------------------------------------------- geometric sums
    def _ranges(self, a: Fraction, period: Fraction) -> list[tuple[int, int | None, int | None]]:
        r"""For the points :math:`a + kT`, :math:`k \ge 0`: per piece ``j`` the range
        ``(k_first, k_last)`` of the points inside it (``k_last`` None: unbounded), and
        the index hitting cut ``j`` exactly (or None), as ``(first, last, hit)`` lists
        by piece."""
        m = len(self.cuts)
        first_above: list[int] = []
        hits: list[int | None] = []
        for j in range(m):
            c = self.cut_fractions[j]
            if c is not None:
                kappa = (c - a) / period
                if kappa < 0:
                    first_above.append(0)
                    hits.append(None)
                    continue
                fl = math.floor(kappa)
                first_above.append(fl + 1)
                hits.append(fl if fl == kappa else None)
                continue
            prec = 128
            while True:
                with arb_workprec(prec):
                    kappa_ball = (self._cut_ball(j) - ball(a)) / ball(period)
                    found = _floor(kappa_ball)
                if found is not None:
                    break
                prec *= 4
                if prec > 1 << 16:
                    raise UnsupportedError("cannot place the periods against a cut")
            first_above.append(max(found + 1, 0))
            hits.append(None)
        out: list[tuple[int, int | None, int | None]] = []
        for j in range(m):
            start = first_above[j]
            if j + 1 < m:
                last = first_above[j + 1] - 1 - (1 if hits[j + 1] is not None else 0)
                out.append((start, last, hits[j]))
            else:
                out.append((start, None, hits[j]))
        return out

    def geometric_sum(self, kind: str, q: arb, one_minus_q: arb, a: Fraction,
                      period: Fraction, side: int = 0, rate: arb | None = None,
                      stop: int | None = None) -> arb:
        r""":math:`\sum_{k \ge 0} q^k G(a + kT)` for :math:`G = L` (``kind`` ``"L"``, at a
        cut the value, or a one-sided limit with ``side``), :math:`G = L^{\prime}`
        (``"dL"``, one-sided at a cut) or :math:`G = F` (``"F"``),
        exact :math:`a \ge 0`, :math:`T > 0`; ``q`` a ball in :math:`(0, 1)` and
        ``one_minus_q`` a ball of :math:`1 - q` (computed without cancellation);
        ``rate`` a ball of :math:`-\log q / T` (the noise's decay per unit of
        :math:`|x|`); ``stop``: only the terms :math:`k <` ``stop`` (a finite sum).

        Raises
        ------
        DomainError
            If the sum diverges (:math:`\mathbb{E}\,L(X) = \infty`).
        UnsupportedError
            If a non-polynomial piece needs more than :data:`MAX_DIRECT` terms.
        """
        total = arb(0)
        for j, (first, last, hit) in enumerate(self._ranges(a, period)):
            if stop is not None:
                if hit is not None and hit >= stop:
                    hit = None
                last = stop - 1 if last is None else min(last, stop - 1)
            if hit is not None:
                point = a + hit * period
                if kind == "L":
                    g = self.value(point, side)
                elif kind == "dL":
                    g = self.slope(point, side if side else 1)
                else:
                    g = self.antiderivative(point)
                total += q ** hit * g
            if last is not None and last < first:
                continue
            total += self._piece_sum(kind, j, q, one_minus_q, a, period, first, last, rate)
        return total

    def _piece_sum(self, kind: str, j: int, q: arb, one_minus_q: arb, a: Fraction,
                   period: Fraction, first: int, last: int | None, rate: arb | None
                   ) -> arb:
        pc = self.pieces[j]
        terms = self._sum_terms(kind, j)
        if terms is not None and (last is None or last - first >= SHORT_RANGE):
            alpha = ball(a / period)
            total = arb(0)
            for c, p in terms:
                scale = c * _power(ball(period), p)
                tail = _power_sum(q, one_minus_q, p, first, alpha)
                if last is not None:
                    tail -= _power_sum(q, one_minus_q, p, last + 1, alpha)
                total += scale * tail
            return total
        term = self._term_function(kind, j)
        if last is not None:
            if last - first > MAX_DIRECT:
                raise UnsupportedError(
                    f"the cost {self.cost.name} would be summed over {last - first} periods "
                    f"on |x| in ({shown(pc.lo)}, {shown(pc.hi)}) (at most {MAX_DIRECT}); "
                    "take a larger eps or a cost whose pieces are polynomials in |x|")
            total = arb(0)
            step, y, qk = ball(period), ball(a + first * period), q ** first
            for _ in range(first, last + 1):
                total += qk * term(y)
                y, qk = y + step, qk * q
            return total
        return self._tail_sum(kind, term, q, a, period, first, rate)

    def _term_function(self, kind: str, j: int) -> Callable[[arb], arb]:
        """``L``, ``L'`` or ``F`` on piece ``j`` as a function of a ball inside it."""
        pc = self.pieces[j]
        if kind == "L":
            return lambda t: self._piece_value(j, t)
        if kind == "dL":
            return pc.real_slope
        base = self._cut_primitive(j)
        low = self._primitive(j, self._cut_ball(j))
        primitive = pc.real_primitive
        if low is not None and low.is_finite() and primitive is not None:
            shift = base - low
            return lambda t: shift + primitive(t)
        return lambda t: base + self._piece_integral(j, self._cut_ball(j), t)

    def _sum_terms(self, kind: str, j: int) -> list[tuple[arb, Fraction]] | None:
        """Piece ``j`` of ``L`` or ``F`` as a generalised polynomial (ball coefficients)."""
        pc = self.pieces[j]
        if pc.terms is None:
            return None
        prec = flint.ctx.prec
        if kind == "L":
            return [(_constant(c, prec), p) for c, p in pc.terms]
        if kind == "dL":
            if any(0 < p < 1 for _, p in pc.terms):
                return None  # y^(p - 1) is not bounded at 0: summed term by term
            return [(_constant(c, prec) * ball(p), p - 1) for c, p in pc.terms if p != 0]
        low = self._primitive(j, self._cut_ball(j))
        assert low is not None  # a piece with terms has its antiderivative
        shift = self._cut_primitive(j) - low
        out = [(shift, Fraction(0))]
        out += [(_constant(c, prec) / ball(p + 1), p + 1) for c, p in pc.terms]
        return out

    def _tail_sum(self, kind: str, term: Callable[[arb], arb], q: arb, a: Fraction,
                  period: Fraction, first: int, rate: arb | None) -> arb:
        r"""The sum over the last (unbounded, non-polynomial) piece, term by term until the
        majorant's remainder is negligible (checked every :data:`CHECK_EVERY` terms: the
        points :math:`a + kT` and the powers :math:`q^k` are carried as balls)."""
        bound = self.growth(kind)
        start = ball(max(Fraction(1), Fraction(math.ceil(_upper_float(self._cut_ball(-1))))))
        # the ratio of consecutive majorant terms, rho = q e^{cT} (1 + T/y)^m
        step = ball(period)
        growth = (ball(bound.rate) * step).exp()
        ratio0 = q * growth
        if not ratio0 < 1:
            self._diverges(rate, bound)
        prec = flint.ctx.prec
        # the terms needed before the remainder falls below 2^-prec, estimated from the
        # ratio: refused at once rather than after MAX_DIRECT terms
        decay = -float(ratio0.upper().log().mid()) if ratio0.upper() > 0 else math.inf
        if decay > 0 and (prec + 64) * math.log(2) / decay > MAX_DIRECT:
            raise UnsupportedError(
                f"the cost {self.cost.name} would be summed over about "
                f"{int((prec + 64) * math.log(2) / decay)} periods (at most {MAX_DIRECT}); "
                "take a larger eps or a cost whose last piece is a polynomial in |x|")
        rate_ball, power_ball = ball(bound.rate), ball(bound.power)
        tiny = arb(2) ** (-4 * prec)
        total, y, qk = arb(0), ball(a + first * period), q ** first
        for count in range(MAX_DIRECT + 1):
            if count and count % CHECK_EVERY == 0 and y > start:
                factor = arb(1) if bound.power <= 0 else (1 + step / y) ** power_ball
                rho = ratio0 * factor
                if rho < 1:
                    head = qk * bound.scale * (rate_ball * y).exp() * y ** power_ball
                    rest = head / (1 - rho)
                    if rest < total.abs_lower() * arb(2) ** (-prec - 8) or rest < tiny:
                        return total + arb(0).union(rest)
            total += qk * term(y)
            y, qk = y + step, qk * q
        raise UnsupportedError(
            f"the cost {self.cost.name} would be summed over more than {MAX_DIRECT} "
            "periods; take a larger eps or a cost whose last piece is a polynomial in |x|")

    def growth(self, kind: str) -> Majorant:
        """The majorant of the last piece of ``L`` (or of ``F``) beyond the last cut."""
        key = ("growth", kind)
        if key not in self._majorants:
            last = self.shape.pieces[-1]
            start = max(Fraction(1), Fraction(math.ceil(float(arb_of(last.lo).upper()))))
            found = majorant(sp.diff(last.expr, y) if kind == "dL" else last.expr, y, start)
            if found is None:
                raise DomainError("cost", f"E L(X) must be finite; no exponential bound of "
                                  f"{self.cost.name} is found (it grows faster than every "
                                  "exponential of |x|, or its growth is not recognised)")
            if kind == "F":
                # F(y) = F(Y) + int_Y^y L <= F(Y) + y L(y) (L non-decreasing, >= 0)
                with arb_workprec(128):
                    head = self.antiderivative(start)
                found = Majorant(arb((found.scale + head.upper()).upper()),
                                 max(found.rate, Fraction(0)), max(found.power + 1,
                                                                   Fraction(0)))
            self._majorants[key] = found
        return self._majorants[key]

    def _diverges(self, rate: arb | None, bound: Majorant) -> None:
        growth = self.exponential_rate()
        if growth is not None and rate is not None and ball(growth) > rate:
            raise DomainError("cost", f"E L(X) must be finite; it is infinite here: "
                              f"{self.cost.name} grows like exp({growth}|x|) and the noise "
                              f"decays like exp(-{float(rate.mid()):.6g}|x|)")
        raise DomainError("cost", f"E L(X) must be finite; it is not proven finite here: "
                          f"{self.cost.name} grows up to exp({bound.rate}|x|), as fast as the "
                          "noise decays or faster")

    def exponential_rate(self) -> Fraction | None:
        r""":math:`\lim \log L(y)/y` of the last piece when sympy finds it rational (for a
        divergence message), else None."""
        last = self.shape.pieces[-1].expr
        try:
            found = sp.limit(sp.log(last) / y, y, sp.oo)
        except (NotImplementedError, ValueError, TypeError):
            return None
        return _fraction(found) if isinstance(found, sp.Rational) else None

    # -------------------------------------------------------------- lattice sums
    def lattice_sum(self, lo: int, hi: int) -> arb:
        r""":math:`\sum_{lo \le i < hi} L(i)` (integers :math:`0 \le lo`)."""
        total = arb(0)
        if hi <= lo:
            return total
        for j, (first, last, hit) in enumerate(self._ranges(Fraction(0), Fraction(1))):
            if hit is not None and lo <= hit < hi:
                total += _constant(self.values[j], flint.ctx.prec)
            start = max(first, lo)
            stop = hi - 1 if last is None else min(last, hi - 1)
            if stop < start:
                continue
            pc = self.pieces[j]
            if pc.terms is not None:
                for c, p in pc.terms:
                    total += _constant(c, flint.ctx.prec) * _integer_power_sum(p, start, stop)
                continue
            if stop - start > MAX_DIRECT:
                raise UnsupportedError(f"the cost {self.cost.name} would be summed over "
                                       f"{stop - start} points (at most {MAX_DIRECT})")
            for i in range(start, stop + 1):
                total += self._piece_value(j, arb(i))
        return total

    # -------------------------------------------------------------- integrals
    def _compare(self, v: Fraction | sp.Expr, j: int) -> int:
        """-1, 0, 1 as the exact ``v`` (rational or not) is below, at, above cut ``j``."""
        if isinstance(v, Fraction):
            return self.compare_cut(v, j)
        return ext_compare(v, self.cuts[j])

    def integral(self, weight: Weight, lo: Fraction | sp.Expr,
                 hi: Fraction | sp.Expr | None) -> arb:
        r""":math:`\int_{lo}^{hi} L(y)\,w(y)\,dy` for exact ends (``hi`` None:
        :math:`\infty`), piece by piece."""
        total = arb(0)
        m = len(self.cuts)
        for j in range(m):
            if j + 1 < m and self._compare(lo, j + 1) >= 0:
                continue  # the piece ends before lo
            if hi is not None and self._compare(hi, j) <= 0:
                break  # the piece starts after hi
            start = _end_ball(lo) if self._compare(lo, j) >= 0 else self._cut_ball(j)
            if j + 1 == m or (hi is not None and self._compare(hi, j + 1) < 0):
                end = None if hi is None else _end_ball(hi)
            else:
                end = self._cut_ball(j + 1)
            fn = self.pieces[j].value
            if end is None:
                total += self._infinite_integral(j, weight, start)
            else:
                total += _integrate(lambda z, analytic, fn=fn: fn(z, analytic)
                                    * weight.function(z, analytic), start, end)
        return total

    def _infinite_integral(self, j: int, weight: Weight, start: arb) -> arb:
        r""":math:`\int_{start}^\infty L w` on the last piece: to a point :math:`R` where
        the logarithmic derivative of the majorant of the integrand is below
        :math:`-\kappa < 0`, then at most the integrand's majorant at :math:`R` over
        :math:`\kappa`."""
        bound = self.growth("L")
        c = ball(bound.rate) + weight.linear
        a2 = weight.quadratic
        m = ball(max(bound.power, Fraction(0)))
        if not (a2 < 0 or c < 0):
            self._diverges(-weight.linear, bound)
        prec = flint.ctx.prec
        r = max(Fraction(2), Fraction(math.ceil(_upper_float(start))) + 1)
        fn = self.pieces[j].value
        piece = arb(0)
        left = start
        for _ in range(4 * prec + 64):
            rb = ball(r)
            kappa = -(m / rb + c + 2 * a2 * rb)
            if kappa > 0:
                top = bound.scale * weight.scale * (c * rb + a2 * rb * rb).exp() \
                    * _power(rb, bound.power)
                piece += _integrate(lambda z, analytic: fn(z, analytic)
                                    * weight.function(z, analytic), left, rb)
                left = rb
                rest = top / kappa
                if rest < piece.abs_lower() * arb(2) ** (-prec - 8) or \
                        rest < arb(2) ** (-4 * prec):
                    return piece + arb(0).union(rest)
            r *= 2
        raise UnsupportedError(f"the tail of E L(X) for {self.cost.name} could not be "
                               "bounded")


def _end_ball(v: Fraction | sp.Expr) -> arb:
    return ball(v) if isinstance(v, Fraction) else arb_of(v)


def _upper_float(v: arb) -> float:
    return float(v.upper())


def _power(t: arb, p: Fraction) -> arb:
    r""":math:`t^p` for :math:`t \ge 0` (a point or a narrow ball), :math:`0^0 = 1`."""
    if p == 0:
        return arb(1)
    if p.denominator == 1:
        return t ** int(p)
    if t.is_zero():
        return arb(0)
    return t ** ball(p)


@lru_cache(maxsize=256)
def _eulerian(n: int) -> tuple[int, ...]:
    """The Eulerian numbers :math:`A(n, m)`, :math:`m = 0..n-1`."""
    if n == 0:
        return (1,)
    row = [1]
    for size in range(2, n + 1):
        new = [0] * size
        for m in range(size):
            left = row[m - 1] if 0 < m <= len(row) else 0
            mid = row[m] if m < len(row) else 0
            new[m] = (m + 1) * mid + (size - m) * left
        row = new
    return tuple(row)


def _polylog_neg(q: arb, one_minus_q: arb, n: int) -> arb:
    r""":math:`\mathrm{Li}_{-n}(q) = \sum_{k \ge 0} k^n q^k` (:math:`0^0 = 1`)."""
    if n == 0:
        return 1 / one_minus_q
    poly = arb(0)
    for coeff in reversed(_eulerian(n)):
        poly = poly * q + coeff
    return q * poly / one_minus_q ** (n + 1)


def _power_sum(q: arb, one_minus_q: arb, p: Fraction, k0: int, alpha: arb) -> arb:
    r""":math:`\sum_{k \ge k_0} q^k (k + \alpha)^p`, :math:`\alpha \ge 0`."""
    base = alpha + k0
    head = q ** k0
    if p == 0:
        return head / one_minus_q
    if p.denominator == 1:
        n = int(p)
        total = arb(0)
        binom = 1
        for jj in range(n + 1):
            total += binom * base ** (n - jj) * _polylog_neg(q, one_minus_q, jj)
            binom = binom * (n - jj) // (jj + 1)
        return head * total
    return head * lerch_family(q, p, base, 1)[0]


def _integer_power_sum(p: Fraction, start: int, stop: int) -> arb:
    r""":math:`\sum_{i = start}^{stop} i^p` (:math:`0^0 = 1`): a count, or a difference of
    Hurwitz zeta functions :math:`\zeta(-p, start) - \zeta(-p, stop + 1)`."""
    if p == 0:
        return arb(stop - start + 1)
    if start == 0:
        start = 1
    if stop < start:
        return arb(0)
    if stop - start < SHORT_RANGE:
        return sum((_power(arb(i), p) for i in range(start, stop + 1)), arb(0))
    s = -ball(p)
    return s.zeta(arb(start)) - s.zeta(arb(stop + 1))


def _integrate(f: BallMap, a: arb, c: arb) -> arb:
    r""":math:`\int_a^c f` by ``acb.integral`` (its error bound included); an end that
    is a ball (an irrational cut) adds its radius times a bound of the integrand there."""
    if a.is_exact() and c.is_exact() and a == c:
        return arb(0)
    found = acb.integral(f, acb(arb(a.mid())), acb(arb(c.mid())))
    value = found.real
    for end in (a, c):
        if not end.is_exact():
            value += arb(0, (abs(f(end, False)) * end.rad()).upper())
    return value


# ------------------------------------------------------------------------ weights
@dataclass(frozen=True)
class Weight:
    r"""A weight :math:`w(y)` of an integral over :math:`[0, \infty)`, compiled, with the
    bound :math:`0 \le w(y) \le C e^{a_1 y + a_2 y^2}` that bounds the tail (``scale``
    :math:`C`, ``linear`` :math:`a_1`, ``quadratic`` :math:`a_2`, balls)."""

    function: BallMap
    scale: arb
    linear: arb
    quadratic: arb

    @classmethod
    def from_density(cls, expr: sp.Expr, var: sp.Symbol = x) -> Weight:
        r"""A density ``expr`` in ``var``, :math:`C e^{P(x)}` with :math:`P` a polynomial
        of degree at most two, or any expression (then only for finite ranges: its
        bound is refused at the first infinite range)."""
        expr = sp.powsimp(sp.sympify(expr).subs(var, y), combine="exp")
        constant, rest = expr.as_independent(y, as_Add=False)
        fn = compile_function(expr, y)
        linear = quadratic = None
        if isinstance(rest, sp.exp):
            poly = sp.Poly(sp.expand(rest.args[0]), y) if rest.args[0].is_polynomial(y) \
                else None
            if poly is not None and poly.degree() <= 2:
                coeffs = dict(zip(poly.monoms(), poly.coeffs(), strict=True))
                linear = coeffs.get((1,), sp.Integer(0))
                quadratic = coeffs.get((2,), sp.Integer(0))
                constant = constant * sp.exp(coeffs.get((0,), sp.Integer(0)))
        elif rest == 1:
            linear = quadratic = sp.Integer(0)
        if linear is None:
            return cls(fn, arb.nan(), arb.nan(), arb.nan())
        return cls(fn, arb_of(constant), arb_of(linear), arb_of(quadratic))


# ------------------------------------------------------------------------ expectations
def expectation(noise: SymmetricNoise, cost: CostBalls) -> arb:
    r""":math:`\mathbb{E}\,L(X)` of a numeric noise description (no free symbol), at the
    caller's precision.

    Continuous noise: :math:`\mathrm{atom}\cdot L(0) + 2\int_0^\infty L f`, the head
    pieces by :meth:`CostBalls.integral` (a constant density through the
    antiderivative), each constant shape :math:`g` of a geometric tail by
    :math:`g\sum_k q^k (F(s + kT + h) - F(s + kT + l))`. Lattice noise:
    :math:`2\sum_{i \ge 0} L(i) P(i) - L(0) P(0)`.

    Raises
    ------
    UnsupportedError
        For a tail shape that is not constant, a non-constant lattice mass, or a density
        whose tail cannot be bounded.
    DomainError
        If :math:`\mathbb{E}\,L(X)` is infinite.
    """
    prec = flint.ctx.prec
    total = arb(0)
    for pc in noise.head:
        lo = _exact_end(pc.lo, noise.lattice)
        hi = None if pc.hi == sp.oo else _exact_end(pc.hi, noise.lattice)
        if noise.lattice:
            if x in pc.expr.free_symbols:
                raise UnsupportedError("a lattice mass that is not constant on a piece")
            if hi is None:
                raise UnsupportedError("an infinite lattice piece")
            total += _constant(pc.expr, prec) * cost.lattice_sum(int(lo), int(hi))
            continue
        if x not in pc.expr.free_symbols and isinstance(lo, Fraction) \
                and isinstance(hi, Fraction):
            total += _constant(pc.expr, prec) * (cost.antiderivative(hi)
                                                 - cost.antiderivative(lo))
            continue
        total += cost.integral(Weight.from_density(pc.expr), lo, hi)
    if noise.tail is not None:
        t = noise.tail
        s, period = _exact_end(t.start), _exact_end(t.period)
        q = arb_of(t.ratio)
        one_minus_q = arb_of(1 - t.ratio) if not isinstance(t.ratio, sp.exp) \
            else -((arb_of(t.ratio.args[0])).expm1())
        rate = -q.log() / ball(period)
        for pc in t.pieces:
            if u in pc.expr.free_symbols:
                raise UnsupportedError("a periodic shape that is not constant on a piece")
            density = _constant(pc.expr, prec)
            lo, hi = _exact_end(pc.lo), _exact_end(pc.hi)
            if noise.lattice:
                for jj in range(int(lo), int(hi)):
                    total += density * cost.geometric_sum("L", q, one_minus_q, s + jj,
                                                          period, rate=rate)
            else:
                total += density * (
                    cost.geometric_sum("F", q, one_minus_q, s + hi, period, rate=rate)
                    - cost.geometric_sum("F", q, one_minus_q, s + lo, period, rate=rate))
    if noise.lattice:
        return 2 * total - cost.value(Fraction(0)) * _constant(noise.mass_at_zero(), prec)
    return _constant(sp.sympify(noise.atom), prec) * cost.value(Fraction(0)) + 2 * total


def _exact_end(v: sp.Expr, rational: bool = True) -> Fraction | sp.Expr:
    """A piece's end: a Fraction, or (``rational`` False) an exact constant."""
    v = sp.sympify(v)
    if v.is_Rational:
        return Fraction(int(v.p), int(v.q))
    if rational:
        raise UnsupportedError(f"a noise piece with the irrational end {shown(v)} (a cost "
                               "other than a power takes rational ends here)")
    return v


__all__ = ["MAX_DIRECT", "CostBalls", "Weight", "compile_function", "expectation"]
