r"""Rigorous minimisers without a closed form: interval Newton on the slope, a sign covering.

The cost :math:`V(\gamma)` of a family with a continuous free parameter
:math:`\gamma \in [l, h]`, its slope :math:`s = V'` and the slope's derivative :math:`s'`
are compiled to Arb balls at the exact parameters (:class:`dpsym.balls.BallFunction`;
the same code also takes Arb power series, for Taylor forms). Then:

1. **Every stationary point is isolated** (:func:`covering`). :math:`[l, h]` is covered
   from left to right by intervals :math:`I` on which the sign of :math:`s` is proven
   (the ball of :math:`s(I)`, the mean-value form :math:`s(c) + s'(I)(I - c)`, or a Taylor
   form of order :data:`TAYLOR_ORDER` with a Lagrange remainder, :func:`taylor_form`, which
   stays tight where :math:`s` cancels to a tiny fraction of its terms as
   :math:`\varepsilon \to 0`), and by boxes :math:`X` in which the interval Newton
   operator :math:`N(X) = m - s(m)/s'(X)` proves exactly one root (:math:`s'(X)` of one
   sign and :math:`N(X) \subset \operatorname{int} X`, Moore's theorem). At most
   :data:`MAX_BOXES` intervals; the width adapts geometrically, so minimisers as small as
   :math:`10^{-100}` are reached in a few hundred steps.
2. **The candidates** (:func:`candidates`): the roots with :math:`s' > 0` (strict local
   minima) and each end of the range unless the sign of :math:`s` next to it shows the
   cost decreasing away from it. The minimum over :math:`[l, h]` is at one of them.
3. **The winner and its digits** (:func:`certify_minimum`). Each root box is contracted
   by Newton steps :math:`X \cap N(X)` at the working precision, each candidate's cost is
   enclosed (at a root by the mean-value form :math:`V(m) + s(X)(X - m)`, whose width is
   second order in that of :math:`X`), and the candidate whose cost enclosure lies below
   all the others wins; the precision is raised until it does and the ball rounds to the
   digits asked for (:class:`dpsym.balls.Certified`).

Anything that cannot be proven raises :class:`~dpsym.errors.CertificationError` naming the
reason (:func:`dpsym.evaluation.value` then falls back to the two-precision heuristic and
labels the value ``"agreement"``).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from fractions import Fraction

import flint

from .balls import ATTEMPTS, GUARD_BITS, BallFunction, Certified, _ball_rounding
from .errors import CertificationError
from .precision import arb_workprec, exclusive

#: Largest number of intervals of the sign covering of the parameter's range.
MAX_BOXES = 1024
#: Consecutive failures (successes) of the covering after which its width shrinks (grows)
#: by more than a factor of 2 per step.
ACCELERATE = 6
#: Order of the Taylor forms of the slope (:func:`taylor_form`).
TAYLOR_ORDER = 6
#: Newton steps per precision before the contraction is judged stalled.
MAX_NEWTON = 60

_BITS_PER_DIGIT = math.log2(10)


@dataclass(frozen=True)
class CompiledCost:
    """The cost, its slope and the slope's derivative in the free parameter, as ball
    functions at exact parameters, and the parameter's exact range ``[lo, hi]``."""

    cost: BallFunction
    slope: BallFunction
    dslope: BallFunction
    lo: Fraction
    hi: Fraction
    #: The proven candidates once found (they depend on the parameters only, not on the
    #: digits), their root boxes replaced by the narrowest contraction reached so far.
    memo: dict = field(default_factory=dict, compare=False)


def _interval(a: flint.arb, c: flint.arb) -> flint.arb:
    """A ball containing the interval between two exact (or ball) ends."""
    return flint.arb(a).union(flint.arb(c))


def _exact_arb(x: Fraction) -> flint.arb:
    return flint.arb(flint.fmpq(x.numerator, x.denominator))


def slope_sign(f: CompiledCost, a: flint.arb, c: flint.arb) -> int:
    """The proven sign of the slope on ``[a, c]`` (+1, -1), or 0 if not proven here."""
    box = _interval(a, c)
    for ball in _slope_enclosures(f, box):
        if ball.is_finite():
            if ball > 0:
                return 1
            if ball < 0:
                return -1
    return 0


def _slope_enclosures(f: CompiledCost, box: flint.arb):
    yield f.slope(box)
    mid = box.mid()
    yield f.slope(mid) + f.dslope(box) * (box - mid)  # the mean-value form
    yield taylor_form(f, box)[0]


def taylor_form(f: CompiledCost, box: flint.arb, order: int = TAYLOR_ORDER
                ) -> tuple[flint.arb, flint.arb]:
    r"""Enclosures of the slope and of its derivative on ``box`` by Taylor forms at the
    midpoint :math:`m` with a Lagrange remainder:
    :math:`s(m + t) \in \sum_{k<N} c_k(m)\, t^k + C_N t^N` and
    :math:`s'(m + t) \in \sum_{1 \le k<N} k\, c_k(m)\, t^{k-1} + N C_N t^{N-1}`,
    :math:`t \in X - m`, the :math:`c_k(m)` Taylor coefficients at the point (Arb's
    power series, no dependency) and :math:`C_N` the :math:`N`-th coefficient's
    enclosure on the whole box. Where the slope cancels to a tiny fraction of its terms
    (:math:`\varepsilon \to 0`), these are tight when the plain ball of :math:`s(X)`
    is not."""
    m = box.mid()
    t = box - m
    try:
        at_m = _coefficients(f.slope(flint.arb_series([m, 1], prec=order + 1)), order + 1)
        on_box = _coefficients(f.slope(flint.arb_series([box, 1], prec=order + 1)),
                               order + 1)
    except (ValueError, ZeroDivisionError):  # a denominator not proven nonzero on the box
        return flint.arb.nan(), flint.arb.nan()
    powers = [flint.arb(1)]
    for _ in range(order):  # products: Arb's power of a ball around 0 is not finite
        powers.append(powers[-1] * t)
    value = on_box[order] * powers[order]
    slope = order * on_box[order] * powers[order - 1]
    for k in range(order - 1, -1, -1):
        value = value + at_m[k] * powers[k]
        if k:
            slope = slope + k * at_m[k] * powers[k - 1]
    return value, slope


def _coefficients(series: object, n: int) -> list[flint.arb]:
    if isinstance(series, flint.arb):  # the slope does not depend on the parameter
        return [series] + [flint.arb(0)] * (n - 1)
    coeffs = list(series.coeffs())
    return coeffs + [flint.arb(0)] * (n - len(coeffs))


def newton_step(f: CompiledCost, box: flint.arb) -> tuple[flint.arb, int] | None:
    """The interval Newton image :math:`N(X) = m - s(m)/s'(X)` and the proven sign of
    :math:`s'` on :math:`X`, or None where that sign is not proven."""
    d = f.dslope(box)
    if not (d.is_finite() and (d > 0 or d < 0)):
        d = taylor_form(f, box)[1]
    if not d.is_finite():
        return None
    if d > 0:
        sign = 1
    elif d < 0:
        sign = -1
    else:
        return None
    m = box.mid()
    return m - f.slope(m) / d, sign


@dataclass(frozen=True)
class Piece:
    """One interval of the covering of ``[lo, hi]``: the slope's proven sign on it
    (``root`` False), or a box proven to hold exactly one root of the slope (``root``
    True; ``sign`` is then the sign of :math:`s'` there: +1 a local minimum of the cost,
    -1 a local maximum)."""

    lo: flint.arb
    hi: flint.arb
    sign: int
    root: bool


def covering(f: CompiledCost, budget: int = MAX_BOXES) -> list[Piece]:
    """Cover ``[lo, hi]`` from left to right by intervals on which the slope has a proven
    sign, and boxes isolating its roots (interval Newton), at the current precision.

    A step takes an interval of the current width: a proven sign (direct, mean-value or
    Taylor form) accepts it and doubles the width, by :math:`2^{j-6}` at the :math:`j`-th
    consecutive success (at least to the distance from ``lo``: a geometric grid near
    ``lo``); otherwise, where :math:`s'` has a proven sign
    on it, the Newton image decides: disjoint from the interval, no root (the sign is that
    of :math:`s` at the midpoint); inside it, one root; elsewhere a box centred on the
    image is tried. Failing all, the width is halved, divided by :math:`2^{j-6}` at the
    :math:`j`-th consecutive failure (minimisers as small as :math:`e^{-10^4}` are reached
    in a few hundred steps). At most ``budget`` intervals.

    Raises
    ------
    CertificationError
        If the budget runs out or a root box would overlap another.
    """
    lo, hi = _exact_arb(f.lo), _exact_arb(f.hi)
    pieces: list[Piece] = []
    a = lo
    width = (hi - lo) / 8
    fails = grown = 0
    for _ in range(budget):
        if not a < hi:
            return pieces
        c = a + width
        if not c < hi:
            c = hi
        found = _classify(f, a, c, pieces)
        if found is None:  # shrink faster and faster: a minimiser may be e^{-1000}
            fails, grown = fails + 1, 0
            width = width / 2 ** min(max(1, fails - ACCELERATE), 64)
            if not a + width > a:
                break
            continue
        pieces.append(found)
        a = found.hi if found.hi > c else c
        fails, grown = 0, grown + 1
        width = width * 2 ** min(max(1, grown - ACCELERATE), 64)  # across decades
        if not width > a - lo:
            width = a - lo  # at least a geometric grid from lo
    raise CertificationError(
        f"the sign of the slope could not be proven with {budget} intervals (precision too "
        "low, or a multiple root of the slope)")


def _classify(f: CompiledCost, a: flint.arb, c: flint.arb, pieces: list[Piece]
              ) -> Piece | None:
    sign = slope_sign(f, a, c)
    if sign:
        return Piece(a, c, sign, False)
    box = _interval(a, c)
    step = newton_step(f, box)
    if step is None:
        return None
    image, dsign = step
    if not image.overlaps(box):  # no root in [a, c]: s has one sign there
        s_mid = f.slope(box.mid())
        if s_mid > 0 or s_mid < 0:
            return Piece(a, c, 1 if s_mid > 0 else -1, False)
        return None
    if box.contains_interior(image):
        return _root_piece(a, c, dsign, pieces, f)
    # the root near an edge: a box of the same width centred on the image
    half = (c - a) / 2
    centre = image.mid()
    a2, c2 = (centre - half).lower(), (centre + half).upper()
    if a2 < _exact_arb(f.lo) or c2 > _exact_arb(f.hi):
        return None
    step = newton_step(f, _interval(a2, c2))
    if step is not None and _interval(a2, c2).contains_interior(step[0]):
        return _root_piece(a2, c2, step[1], pieces, f)
    return None


def _root_piece(a: flint.arb, c: flint.arb, dsign: int, pieces: list[Piece],
                f: CompiledCost) -> Piece:
    # (a root box may overlap the previous one: candidates() removes a root found twice)
    if a < _exact_arb(f.lo) or c > _exact_arb(f.hi):
        raise CertificationError("a root of the slope lies at an end of the range")
    return Piece(a, c, dsign, True)


def _refine(f: CompiledCost, box: flint.arb, bits: int) -> flint.arb:
    r"""``box`` contracted by Newton steps :math:`X \cap N(X)` to a relative radius below
    :math:`2^{-\mathrm{bits}}` (or until the steps stall at this precision)."""
    for _ in range(MAX_NEWTON):
        if box.rel_accuracy_bits() >= bits:
            break
        step = newton_step(f, box)
        if step is None or not step[0].overlaps(box):
            raise CertificationError("a Newton step left the isolating interval")
        smaller = box.intersection(step[0])
        if smaller.rad() >= box.rad():
            break
        box = smaller
    return box


@dataclass(frozen=True)
class Candidate:
    """A candidate minimiser: an end of the range (``where`` ``"lower"``/``"upper"``,
    ``box`` exact) or an isolated local minimum (``"interior"``)."""

    where: str
    box: flint.arb


@exclusive
def candidates(f: CompiledCost, prec: int) -> list[Candidate]:
    """Every point where the cost's minimum over ``[lo, hi]`` can lie: the isolated roots
    of the slope with :math:`s' > 0`, and each end not excluded by the slope's sign next
    to it (at ``prec`` bits, doubled up to three times when the covering fails).

    Raises
    ------
    CertificationError
        Naming why no covering was found.
    """
    failure: CertificationError | None = None
    for _ in range(2):
        with arb_workprec(prec):
            try:
                pieces = covering(f)
            except CertificationError as exc:
                failure = exc
                prec *= 2
                continue
            found = [Candidate("interior", box)
                     for box in _distinct_roots(f, [_interval(p.lo, p.hi) for p in pieces
                                                    if p.root and p.sign > 0])]
            first, last = pieces[0], pieces[-1]
            if first.root or first.sign > 0:  # the cost does not decrease from lo
                found.insert(0, Candidate("lower", _exact_arb(f.lo)))
            if last.root or last.sign < 0:  # nor towards hi
                found.append(Candidate("upper", _exact_arb(f.hi)))
            if not found:
                raise CertificationError("no candidate minimiser")
            return found
    raise failure


def _distinct_roots(f: CompiledCost, boxes: list[flint.arb]) -> list[flint.arb]:
    """The root boxes without repetition: each box holds exactly one root, so a root
    whose refined enclosure lies inside another box *is* that box's root (dropped), and
    one whose enclosure misses the other box is another root."""
    kept: list[tuple[flint.arb, flint.arb]] = []
    for box in boxes:
        refined = _refine(f, box, flint.ctx.prec - 16)
        duplicate = False
        for other, other_refined in kept:
            if other.contains(refined) or box.contains(other_refined):
                duplicate = True
                break
            if other.overlaps(refined) or box.overlaps(other_refined):
                raise CertificationError("two roots of the slope could not be told apart")
        if not duplicate:
            kept.append((box, refined))
    return [box for box, _ in kept]


def _enclose(f: CompiledCost, cand: Candidate, bits: int) -> tuple[flint.arb, flint.arb]:
    """(parameter box, cost ball) of a candidate at the current precision."""
    if cand.where != "interior":
        return cand.box, f.cost(cand.box)
    box = _refine(f, cand.box, bits)
    m = box.mid()
    return box, f.cost(m) + f.slope(box) * (box - m)  # mean-value form


@exclusive
def certify_minimum(f: CompiledCost, digits: int, *, quantity: str = "cost",
                    guard_digits: int = 0) -> Certified:
    """The optimal cost (``quantity="cost"``) or the minimiser (``"parameter"``), enclosed
    and rounded to ``digits`` digits: every candidate of :func:`candidates` is enclosed,
    and the one whose cost lies below all the others' wins (the enclosures must separate).

    Raises
    ------
    CertificationError
        If the minimiser cannot be proven, two candidates' costs do not separate, or the
        enclosure does not round.
    """
    guard = GUARD_BITS + int(guard_digits * _BITS_PER_DIGIT)
    if "candidates" not in f.memo:  # the proof of where the minimum can lie, once
        f.memo["candidates"] = candidates(f, 64 + guard)
    cands = f.memo["candidates"]
    target = int(digits * _BITS_PER_DIGIT) + 8
    for _ in range(ATTEMPTS):
        with arb_workprec(target + guard):
            enclosed = []
            for k, cand in enumerate(cands):
                box, cost = _enclose(f, cand, target + 8)
                if cand.where == "interior":
                    cands[k] = Candidate("interior", box)  # keep the contraction
                enclosed.append((box, cost))
            winner = _separated(enclosed)
            if winner is not None:
                box, cost = enclosed[winner]
                ball = cost if quantity == "cost" else box
                if ball.is_finite():
                    if quantity != "cost" and ball.is_zero():
                        return Certified(flint.arb(0), None, digits)
                    rounded = _ball_rounding(ball, digits)
                    if rounded is not None:
                        return Certified(ball, rounded, digits)
        guard *= 2
    raise CertificationError(f"the enclosure of the minimum did not round to {digits} digits "
                             "(or two candidate minima did not separate)")


def _separated(enclosed: list[tuple[flint.arb, flint.arb]]) -> int | None:
    """The index of the candidate whose cost is proven below every other's, or None."""
    for k, (_, cost) in enumerate(enclosed):
        if not cost.is_finite():
            continue
        if all(j == k or (other.is_finite() and cost < other)
               for j, (_, other) in enumerate(enclosed)):
            return k
    return None


__all__ = ["MAX_BOXES", "Candidate", "CompiledCost", "Piece", "candidates", "certify_minimum",
           "covering", "newton_step", "slope_sign"]
