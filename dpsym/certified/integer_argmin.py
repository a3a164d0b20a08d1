r"""Proven minimisers over an integer free parameter (the discrete staircase's step :math:`r`).

The optimal cost :math:`\min_{r \in \{l, \dots, h\}} V(r)` and its argmin are proven in two
steps, every number an Arb ball (python-flint) at the instance's exact parameters:

1. **Which integers can win** (:func:`candidate_integers`). Where the cost has a closed
   form :math:`V(r)` (a rational function of :math:`r` for an integer moment), it is
   extended to real :math:`r \in [l, h]` and the sign of its slope :math:`V^{\prime}` is proven on
   a covering of the whole range (:func:`dpsym.certified.intervals.covering`: direct, mean-value and
   Taylor forms, interval Newton isolating each root of :math:`V^{\prime}`; each root box is then
   contracted by Newton steps and what lies beside it gets the sign of :math:`V^{\prime}` the
   isolation proves). On an interval where :math:`V^{\prime} < 0` the cost decreases, so an integer
   :math:`r` with :math:`[r, r + 1]` inside such an interval is beaten by :math:`r + 1`;
   likewise an integer with :math:`[r - 1, r]` where :math:`V^{\prime} > 0` is beaten by
   :math:`r - 1`. The integers left (about two per local minimum of :math:`V`, and the ends
   of the range where the cost does not move away from them) are the only possible
   minimisers: this is the bound that excludes every other integer, proven over the whole
   range, not sampled. Where no covering is proven, or the cost has no closed form in
   :math:`r` (a non-integer moment, whose cost at each integer :math:`r` is a finite sum of
   Lerch sums), every integer of the declared range is a candidate: the range is finite
   (at most :data:`MAX_CANDIDATES` integers) and each one is enclosed, so the finiteness of
   the range is then the bound.
2. **The winner** (:func:`integer_minimum`). Every candidate's cost is enclosed; a
   candidate whose lower end lies above the smallest upper end is beaten and dropped, and
   the precision is raised until one candidate remains: its ball's upper end lies below
   every other candidate's lower end, which proves it the argmin. A genuine tie (two costs
   equal, or closer than the last precision tried resolves) raises
   :class:`~dpsym.errors.CertificationError` naming the tied integers; no integer is ever
   picked by a heuristic. The optimal cost is then the winner's ball, refined until it
   rounds to the digits asked for.

The argmin is an integer: its enclosure is :math:`[r^*, r^*]`, proven by the separation.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache
from typing import Any

import flint
import sympy as sp

from dpsym.certified.balls import BallFunction
from dpsym.certified.intervals import CompiledCost, Piece, covering, newton_step, slope_sign
from dpsym.certified.kernel import (
    BITS_PER_DIGIT,
    GUARD_BITS,
    Certified,
    ball_rounding,
    exact,
    precisions,
)
from dpsym.core.expressions import Exact
from dpsym.core.params import parameter_symbols, require
from dpsym.errors import CertificationError, NoClosedFormError, UnsupportedError
from dpsym.precision import arb_workprec, exclusive

#: Largest number of candidate integers enclosed (the discrete staircase's whole range).
MAX_CANDIDATES = 4096
#: Newton steps contracting a root box of the slope.
MAX_CONTRACTION = 80
#: Bisections of a gap of the covering before it is left uncovered (:func:`fill_gaps`).
FILL_DEPTH = 6
#: Precision (bits) of the first round of candidate enclosures, before the working one.
FIRST_BITS = 64


#: The candidates' cost balls at a precision: ``costs(candidates, prec)``.
CostBalls = Callable[[Sequence[int], int], list[flint.arb]]


@dataclass(frozen=True)
class Monotone:
    """An interval ``[lo, hi]`` (exact ends) on which the cost's slope has the proven sign
    ``sign`` (+1 increasing, -1 decreasing, except at most at an end)."""

    lo: Fraction
    hi: Fraction
    sign: int


def _contract(f: CompiledCost, box: flint.arb) -> flint.arb:
    r"""A root box contracted by Newton steps :math:`X \cap N(X)` (each keeps the unique
    root of the slope in :math:`X`) until its width is below a quarter, or the steps
    stall."""
    for _ in range(MAX_CONTRACTION):
        if box.rad() < flint.arb(1) / 8:
            break
        step = newton_step(f, box)
        if step is None or not step[0].overlaps(box):
            raise CertificationError("a Newton step left the isolating interval of a root "
                                     "of the slope")
        smaller = box.intersection(step[0])
        if not smaller.rad() < box.rad():
            break
        box = smaller
    return box


def monotone_pieces(f: CompiledCost, pieces: Sequence[Piece]) -> list[Monotone]:
    r"""The covering's pieces as intervals of proven monotonicity.

    A piece of proven slope sign is proven on the whole ball union of its ends. A root box
    :math:`B` holds exactly one root :math:`x_0` of the slope and the slope's derivative has
    the proven sign :math:`\sigma` on it; contracted to :math:`X \ni x_0`, the slope has the
    sign :math:`-\sigma` on :math:`[\min B, \min X]` and :math:`\sigma` on
    :math:`[\max X, \max B]`, and the contracted box itself is left uncovered."""
    out: list[Monotone] = []
    for p in pieces:
        box = flint.arb(p.lo).union(flint.arb(p.hi))
        lo, hi = exact(box.lower()), exact(box.upper())
        if not p.root:
            out.append(Monotone(lo, hi, p.sign))
            continue
        inner = _contract(f, box)
        a, c = exact(inner.lower()), exact(inner.upper())
        if lo < a:
            out.append(Monotone(lo, a, -p.sign))
        if c < hi:
            out.append(Monotone(c, hi, p.sign))
    return out


def _arb(x: Fraction) -> flint.arb:
    return flint.arb(flint.fmpq(x.numerator, x.denominator))


def fill_gaps(f: CompiledCost, pieces: list[Monotone], depth: int = FILL_DEPTH
              ) -> list[Monotone]:
    r"""``pieces`` with the parts of ``[f.lo, f.hi]`` they leave uncovered proven
    monotone where possible (:func:`dpsym.certified.intervals.slope_sign` on the gap, bisected up to
    ``depth`` times); what stays unproven stays uncovered (its integers stay candidates).
    The covering can leave such a gap beside a root box it re-centred."""
    out = list(pieces)
    covered = f.lo
    for p in sorted(pieces, key=lambda q: q.lo):
        if p.lo > covered:
            out.extend(_proven(f, covered, p.lo, depth))
        covered = max(covered, p.hi)
    if covered < f.hi:
        out.extend(_proven(f, covered, f.hi, depth))
    return out


def _proven(f: CompiledCost, lo: Fraction, hi: Fraction, depth: int) -> list[Monotone]:
    sign = slope_sign(f, _arb(lo), _arb(hi))
    if sign:
        return [Monotone(lo, hi, sign)]
    if depth <= 0:
        return []
    mid = (lo + hi) / 2
    return _proven(f, lo, mid, depth - 1) + _proven(f, mid, hi, depth - 1)


def _runs(pieces: list[Monotone]) -> list[Monotone]:
    """Maximal intervals of one proven sign: overlapping or touching pieces of one sign
    joined (each point of the union lies in a piece, so the sign holds on the union)."""
    runs: list[Monotone] = []
    for p in sorted(pieces, key=lambda q: (q.sign, q.lo)):
        last = runs[-1] if runs else None
        if last is not None and last.sign == p.sign and p.lo <= last.hi:
            runs[-1] = Monotone(last.lo, max(last.hi, p.hi), p.sign)
        else:
            runs.append(p)
    return runs


def excluded_ranges(pieces: list[Monotone]) -> list[tuple[int, int]]:
    r"""The integers proven not to minimise the cost, as inclusive ranges: on a run where the
    cost decreases, each :math:`r` with :math:`[r, r+1]` inside it (:math:`V(r+1) < V(r)`);
    where it increases, each :math:`r` with :math:`[r-1, r]` inside it."""
    out = []
    for run in _runs(pieces):
        first, last = math.ceil(run.lo), math.floor(run.hi)
        if run.sign < 0:
            first, last = first, last - 1
        else:
            first, last = first + 1, last
        if first <= last:
            out.append((first, last))
    return out


def remaining(lo: int, hi: int, excluded: list[tuple[int, int]]) -> list[int]:
    """The integers of ``[lo, hi]`` outside every excluded range.

    Raises
    ------
    CertificationError
        If more than :data:`MAX_CANDIDATES` integers remain.
    """
    cuts = sorted((max(a, lo), min(c, hi)) for a, c in excluded if a <= hi and c >= lo)
    out: list[int] = []
    start = lo
    for a, c in [*cuts, (hi + 1, hi + 1)]:
        if a > start:
            if len(out) + a - start > MAX_CANDIDATES:
                raise CertificationError(
                    f"more than {MAX_CANDIDATES} integers could minimise the cost")
            out.extend(range(start, a))
        start = max(start, c + 1)
    return out


@exclusive
def candidate_integers(f: CompiledCost, prec: int) -> list[int]:
    r"""The integers of ``[f.lo, f.hi]`` (integer ends) that the sign of the slope of the
    cost, proven on a covering of the whole range (:func:`dpsym.certified.intervals.covering` at
    ``prec`` bits, doubled once on failure), does not exclude (:func:`excluded_ranges`).

    Raises
    ------
    CertificationError
        If no covering is proven, or too many integers remain.
    """
    lo, hi = int(f.lo), int(f.hi)
    if lo == hi:
        return [lo]
    failure: CertificationError | None = None
    for _ in range(2):
        with arb_workprec(prec):
            try:
                pieces = fill_gaps(f, monotone_pieces(f, covering(f)))
            except CertificationError as exc:
                failure = exc
                prec *= 2
                continue
        return remaining(lo, hi, excluded_ranges(pieces))
    assert failure is not None
    raise failure


@exclusive
def integer_minimum(costs: CostBalls, candidates: Sequence[int], digits: int, *,
                    quantity: str = "cost", guard_digits: int = 0,
                    name: str = "r") -> tuple[int | None, Certified]:
    r"""The candidate of least cost, proven by separated enclosures, and its certified cost
    (``quantity="cost"``) or itself (``"parameter"``, the ball :math:`[r^*, r^*]`).

    The optimal cost needs no separation: where candidates stay tied, it lies in
    :math:`[\min_i \underline{V_i}, \min_i \overline{V_i}]` whichever attains it, and that
    ball is rounded (the integer returned is then None: not proven).

    ``costs(cands, prec)`` encloses the costs of the integers ``cands`` at ``prec`` bits
    (the caller's guarantee: every integer that can be the minimiser is in
    ``candidates``). A candidate whose cost's lower end exceeds the least upper end is
    dropped (proven beaten); the precision rises (first :data:`FIRST_BITS` bits, then
    the bits of ``digits`` plus the guard, doubled along
    :func:`~dpsym.certified.kernel.precisions`) until one candidate is left, and its ball
    until it rounds to ``digits``.

    Raises
    ------
    CertificationError
        If two candidates' costs never separate (a tie: the integers are named), a cost is
        not finite at the last precision, or the winner's cost does not round.
    """
    if not candidates:
        raise CertificationError(f"no candidate value of {name}")
    alive = list(candidates)
    guard = GUARD_BITS + int(guard_digits * BITS_PER_DIGIT)
    target = int(digits * BITS_PER_DIGIT)
    precs = [FIRST_BITS, *precisions(target + guard)]
    best: flint.arb | None = None
    for prec in precs:
        with arb_workprec(prec):
            balls = costs(alive, prec)
            finite = [(x, ball) for x, ball in zip(alive, balls, strict=True)
                      if ball.is_finite()]
            if len(finite) < len(alive):
                continue  # some cost not enclosed at this precision: raise it
            least = min(ball.upper() for _, ball in finite)
            kept = [(x, ball) for x, ball in finite if not ball.lower() > least]
            alive = [x for x, _ in kept]
            if len(kept) > 1:
                if quantity == "cost":  # the least cost, whichever integer attains it
                    low = min((ball.lower() for _, ball in kept), key=exact)
                    tied = flint.arb(low).union(flint.arb(least))
                    rounded = ball_rounding(tied, digits)
                    if rounded is not None and prec > FIRST_BITS:
                        return None, Certified(tied, rounded, digits)
                continue
            best = kept[0][1]
            if quantity != "cost":
                point = flint.arb(alive[0])
                return alive[0], Certified(point, ball_rounding(point, digits), digits)
            rounded = ball_rounding(best, digits)
            if rounded is not None:
                return alive[0], Certified(best, rounded, digits)
    if len(alive) > 1:
        shown = ", ".join(str(x) for x in alive[:6]) + (", ..." if len(alive) > 6 else "")
        raise CertificationError(
            f"the costs at {name} = {shown} could not be separated at {precs[-1]} bits "
            "(a tie, or a near tie beyond that precision): the minimiser is not proven")
    raise CertificationError(f"the cost at the proven minimiser {name} = {alive[0]} did not "
                             f"round to {digits} digits")


@lru_cache(maxsize=256)
def _derivatives(expr: sp.Expr, symbol: sp.Symbol) -> tuple[sp.Expr, sp.Expr]:
    slope = sp.diff(expr, symbol)
    return slope, sp.diff(slope, symbol)


def _exact_values(m: Any) -> dict[sp.Symbol, Exact]:
    symbol = parameter_symbols(m)
    return {symbol[n]: v for n, v in m.values.items()}


def _integer_range(m: Any) -> tuple[int, int]:
    r"""The free parameter's exact integer range at the instance's exact parameters."""
    fp = m.free
    rational = {s: sp.Rational(v.numerator, v.denominator)
                for s, v in _exact_values(m).items() if isinstance(v, Fraction)}
    ends = [sp.sympify(end).xreplace(rational) for end in (fp.lower, fp.upper)]
    if not all(end.is_Rational for end in ends):
        raise UnsupportedError(f"{m.name}: the range of {fp.name} is not exactly known")
    lo, hi = int(sp.ceiling(ends[0])), int(sp.floor(ends[1]))
    if hi < lo:
        raise CertificationError(f"{m.name}: no integer value of {fp.name} in its range")
    if hi - lo + 1 > MAX_CANDIDATES:
        raise UnsupportedError(f"{m.name}: more than {MAX_CANDIDATES} values of {fp.name}")
    return lo, hi


def _closed_form_costs(function: BallFunction) -> CostBalls:
    def costs(cands: Sequence[int], prec: int) -> list[flint.arb]:
        return [function(flint.arb(x)) for x in cands]
    return costs


@exclusive
def integer_optimum(m: Any, cost: Any, digits: int, quantity: str = "cost"
                    ) -> tuple[int | None, Certified]:
    r"""The proven argmin :math:`r^*` of an instance's cost over its integer free parameter
    and the certified optimal cost (``quantity="cost"``; :math:`r^*` None where a tie
    leaves it unproven, the cost being proven all the same) or :math:`r^*` itself
    (``"parameter"``).

    An integer moment's cost is a closed form in :math:`r`: its slope's sign, proven on
    the whole range, excludes all but a few integers (:func:`candidate_integers`); without
    a proof of the sign every integer of the range is enclosed. A cost without a closed
    form is enclosed at every integer of the range by the family's
    ``_integer_cost_balls(cost)`` (a ball function of the candidates and the precision).
    The winner is proven by separation (:func:`integer_minimum`).

    Raises
    ------
    UnsupportedError
        If the cost cannot be enclosed in ball arithmetic (an expression the Arb
        evaluator does not handle yet).
    CertificationError
        If the minimiser or the digits cannot be proven (a tie is named).
    """
    fp = m.free
    require(m, *(prm.name for prm in m.params))
    lo, hi = _integer_range(m)
    memo = m.__dict__.setdefault("_plans", {})
    key = ("integer", cost.name)
    guard = m._guard_digits(cost)
    if key not in memo:
        try:
            expr = m.cost_function(cost)
        except NoClosedFormError:
            balls = m._integer_cost_balls(cost)
            if balls is None:
                raise UnsupportedError(f"{m.name}: the {cost.name} cost has no closed form "
                                       f"in {fp.name} and no ball enclosure") from None
            memo[key] = (balls, list(range(lo, hi + 1)))
        else:
            exact = _exact_values(m)
            slope, dslope = _derivatives(sp.sympify(expr), fp.symbol)
            cost_f, slope_f, dslope_f = (BallFunction.prepare(e, exact, fp.symbol)
                                         for e in (expr, slope, dslope))
            if cost_f is None or slope_f is None or dslope_f is None:
                raise UnsupportedError(f"{m.name}: the {cost.name} cost is not an expression "
                                       "ball arithmetic encloses")
            compiled = CompiledCost(cost_f, slope_f, dslope_f, Fraction(lo), Fraction(hi))
            try:
                cands = candidate_integers(compiled, 64 + GUARD_BITS
                                           + int(guard * BITS_PER_DIGIT))
            except CertificationError:
                cands = list(range(lo, hi + 1))  # the finite range is the bound
            memo[key] = (_closed_form_costs(cost_f), cands)
    costs, cands = memo[key]
    return integer_minimum(costs, cands, digits, guard_digits=guard, name=fp.name,
                           quantity="cost" if quantity == "cost" else "parameter")


__all__ = [
    "FILL_DEPTH",
    "FIRST_BITS",
    "MAX_CANDIDATES",
    "MAX_CONTRACTION",
    "CostBalls",
    "Monotone",
    "candidate_integers",
    "excluded_ranges",
    "fill_gaps",
    "integer_minimum",
    "integer_optimum",
    "monotone_pieces",
    "remaining",
]
