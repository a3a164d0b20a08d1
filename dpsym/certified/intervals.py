r"""Rigorous minimisers without a closed form: interval Newton on the slope, a sign covering.

The cost :math:`V(\gamma)` of a family with a continuous free parameter
:math:`\gamma \in [l, h]`, its slope :math:`s = V^{\prime}` and the slope's derivative
:math:`s^{\prime}`
are compiled to Arb balls at the exact parameters (:class:`dpsym.certified.balls.BallFunction`;
the same code also takes Arb power series, for Taylor forms). Then:

1. **Every stationary point is isolated** (:func:`covering`). :math:`[l, h]` is covered
   from left to right by intervals :math:`I` on which the sign of :math:`s` is proven
   (the ball of :math:`s(I)`, the mean-value form :math:`s(c) + s^{\prime}(I)(I - c)`, or a Taylor
   form of order :data:`TAYLOR_ORDER` with a Lagrange remainder, :func:`taylor_form`, which
   stays tight where :math:`s` cancels to a tiny fraction of its terms as
   :math:`\varepsilon \to 0`), and by boxes :math:`X` in which the interval Newton
   operator :math:`N(X) = m - s(m)/s^{\prime}(X)` proves exactly one root (:math:`s^{\prime}(X)` of
   one
   sign and :math:`N(X) \subset \operatorname{int} X`, Moore's theorem). At most
   :data:`MAX_BOXES` intervals; the width adapts geometrically, so minimisers as small as
   :math:`10^{-100}` are reached in a few hundred steps.
2. **The candidates** (:func:`candidates`): the roots with :math:`s^{\prime} > 0` (strict local
   minima) and each end of the range unless the sign of :math:`s` next to it shows the
   cost decreasing away from it. The minimum over :math:`[l, h]` is at one of them.
3. **The winner and its digits** (:func:`certify_minimum`). Each root box is contracted
   by Newton steps :math:`X \cap N(X)` at the working precision, each candidate's cost is
   enclosed (at a root by the mean-value form :math:`V(m) + s(X)(X - m)`, whose width is
   second order in that of :math:`X`), and the candidate whose cost enclosure lies below
   all the others wins; the precision is raised until it does and the ball rounds to the
   digits asked for (:class:`dpsym.certified.kernel.Certified`).

**Across decades** (large :math:`\varepsilon`: the minimiser near
:math:`e^{-\varepsilon/(p+1)}`, other roots of the slope near powers of
:math:`e^{-\varepsilon}`, up to :math:`\varepsilon = 10^{100}`). A ball cannot hold an
interval such as :math:`[b, b + w]` with :math:`w \gg 2^{\mathrm{prec}} b`, so the slope's
ball on :math:`[0, w]` is useless there. Where the family gives the slope's *sign
polynomial* :math:`N` (the slope over a proven positive factor, ``numerator``;
:mod:`dpsym.certified.interval_plans`), :math:`N` takes the slope's place in steps 1-3
(:class:`SignPolynomial`): the range is split at the tropical roots of :math:`N` (the
Newton polygon of :math:`\log_2 |c_j|`), each gap between them is one interval whose sign
one monomial proves (:meth:`SignPolynomial.dominance`, valid on any ratio of ends), and a
window of a few bits around each tropical root is covered as above
(:func:`tropical_covering`). Where the family proves the slope's sign to be that of an
increasing function (the staircase's Lerch moments), signs at a few points do
(:class:`dpsym.certified.lerch.intervals.IncreasingSign`). :func:`candidates` raises the precision
first while the slope's sign is unresolved at most sample points (:func:`_resolves`:
cancellation as :math:`\varepsilon \to 0` or in high dimension).

Anything that cannot be proven raises :class:`~dpsym.errors.CertificationError` naming the
reason (:func:`dpsym.certified.evaluation.value` then falls back to the two-precision heuristic and
labels the value ``"agreement"``).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from fractions import Fraction
from itertools import pairwise
from typing import NamedTuple, Protocol

import flint

from dpsym.certified.balls import BallLike, BallMap
from dpsym.certified.kernel import (
    BITS_PER_DIGIT,
    GUARD_BITS,
    Certified,
    ball,
    ball_rounding,
    precisions,
)
from dpsym.errors import CertificationError
from dpsym.precision import arb_workprec, exclusive

#: Largest number of intervals of the sign covering of the parameter's range.
MAX_BOXES = 1024
#: Consecutive failures (successes) of the covering after which its width shrinks (grows)
#: by more than a factor of 2 per step.
ACCELERATE = 6
#: Order of the Taylor forms of the slope (:func:`taylor_form`).
TAYLOR_ORDER = 6
#: Doublings of the precision of :func:`candidates` while the slope's sign is unresolved.
PRECISION_DOUBLINGS = 6
#: Newton steps per precision before the contraction is judged stalled.
MAX_NEWTON = 60


class IntervalFunctions(NamedTuple):
    """A family's own ball functions of its free parameter for the interval minimiser."""

    cost: BallMap
    slope: BallMap
    #: The slope's derivative.
    dslope: BallMap
    #: The coefficients of the slope's sign polynomial (:attr:`CompiledCost.numerator`).
    numerator: Callable[[], list[flint.arb]]
    #: Digits the functions lose to cancellation beyond the family's guard digits
    #: (:attr:`CompiledCost.guard_digits`).
    guard_digits: int = 0



class SlopeFunctions(Protocol):
    """A cost's slope in the free parameter as ball functions on its exact range ``[lo, hi]``:
    :class:`CompiledCost`, :class:`SignPolynomial`, a family's :class:`SignCovering`."""

    @property
    def lo(self) -> Fraction: ...
    @property
    def hi(self) -> Fraction: ...

    def slope(self, x: BallLike) -> BallLike: ...
    def dslope(self, x: BallLike) -> BallLike: ...


class SignCovering(SlopeFunctions, Protocol):
    """A family's own proof of the slope's sign (:attr:`CompiledCost.sign`)."""

    def covering(self) -> list[Piece]: ...


@dataclass(frozen=True)
class CompiledCost:
    """The cost, its slope and the slope's derivative in the free parameter, as ball
    functions at exact parameters, and the parameter's exact range ``[lo, hi]``."""

    cost: BallMap
    slope: BallMap
    dslope: BallMap
    lo: Fraction
    hi: Fraction
    #: Optional: the coefficients (ascending powers of the parameter, balls at the current
    #: precision) of a polynomial :math:`N` with the slope's sign on ``(lo, hi]``: the
    #: slope over a proven positive factor (:class:`SignPolynomial`).
    numerator: Callable[[], list[flint.arb]] | None = None
    #: Optional: the family's own sign covering, an object built from this cost with the
    #: slope's ``slope``, ``dslope``, ``cost``, ``lo``, ``hi`` and ``covering()``
    #: (:class:`dpsym.certified.lerch.intervals.IncreasingSign`), tried first.
    sign: Callable[[CompiledCost], SignCovering] | None = None
    #: Digits these functions lose to cancellation beyond the family's guard digits (its
    #: ``_guard_digits``, which serve its other paths too), added to the guard of
    #: :func:`certify_minimum` by :func:`dpsym.certified.evaluation.enclosed_optimum`.
    guard_digits: int = 0
    #: The proven candidates once found (they depend on the parameters only, not on the
    #: digits), their root boxes replaced by the narrowest contraction reached so far.
    memo: dict = field(default_factory=dict, compare=False)


def _interval(a: flint.arb, c: flint.arb) -> flint.arb:
    """A ball containing the interval between two exact (or ball) ends."""
    return flint.arb(a).union(flint.arb(c))


def slope_sign(f: SlopeFunctions, a: flint.arb, c: flint.arb) -> int:
    """The proven sign of the slope on ``[a, c]`` (+1, -1), or 0 if not proven here."""
    if isinstance(f, SignPolynomial):  # one monomial above all others
        sign = f.dominance(a, c)
        if sign:
            return sign
    box = _interval(a, c)
    for slope in _slope_enclosures(f, box):
        if slope.is_finite():
            if slope > 0:
                return 1
            if slope < 0:
                return -1
    return 0


def _slope_enclosures(f: SlopeFunctions, box: flint.arb):
    yield f.slope(box)
    mid = box.mid()
    yield f.slope(mid) + f.dslope(box) * (box - mid)  # the mean-value form
    yield taylor_form(f, box)[0]


def taylor_form(f: SlopeFunctions, box: flint.arb, order: int = TAYLOR_ORDER
                ) -> tuple[flint.arb, flint.arb]:
    r"""Enclosures of the slope and of its derivative on ``box`` by Taylor forms at the
    midpoint :math:`m` with a Lagrange remainder:
    :math:`s(m + t) \in \sum_{k<N} c_k(m)\, t^k + C_N t^N` and
    :math:`s^{\prime}(m + t) \in \sum_{1 \le k<N} k\, c_k(m)\, t^{k-1} + N C_N t^{N-1}`,
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


def _coefficients(series: flint.arb | flint.arb_series, n: int) -> list[flint.arb]:
    if isinstance(series, flint.arb):  # the slope does not depend on the parameter
        return [series] + [flint.arb(0)] * (n - 1)
    coeffs = list(series.coeffs())
    return coeffs + [flint.arb(0)] * (n - len(coeffs))


def newton_step(f: SlopeFunctions, box: flint.arb) -> tuple[flint.arb, int] | None:
    r"""The interval Newton image :math:`N(X) = m - s(m)/s^{\prime}(X)` and the proven sign of
    :math:`s^{\prime}` on :math:`X`, or None where that sign is not proven."""
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
    r"""One interval of the covering of ``[lo, hi]``: the slope's proven sign on it
    (``root`` False), or a box proven to hold exactly one root of the slope (``root``
    True; ``sign`` is then the sign of :math:`s^{\prime}` there: +1 a local minimum of the cost,
    -1 a local maximum)."""

    lo: flint.arb
    hi: flint.arb
    sign: int
    root: bool


def covering(f: SlopeFunctions, budget: int = MAX_BOXES, start: flint.arb | None = None,
             stop: flint.arb | None = None) -> list[Piece]:
    r"""Cover ``[lo, hi]`` from left to right by intervals on which the slope has a proven
    sign, and boxes isolating its roots (interval Newton), at the current precision.

    A step takes an interval of the current width: a proven sign (direct, mean-value or
    Taylor form) accepts it and doubles the width, by :math:`2^{j-6}` at the :math:`j`-th
    consecutive success (at least to the distance from ``lo``: a geometric grid near
    ``lo``); otherwise, where :math:`s^{\prime}` has a proven sign
    on it, the Newton image decides: disjoint from the interval, no root (the sign is that
    of :math:`s` at the midpoint); inside it, one root; elsewhere a box centred on the
    image is tried. Failing all, the width is halved, divided by :math:`2^{j-6}` at the
    :math:`j`-th consecutive failure (minimisers as small as :math:`e^{-10^4}` are reached
    in a few hundred steps). At most ``budget`` intervals. ``start`` and ``stop`` cover a
    part of the range only.

    Raises
    ------
    CertificationError
        If the budget runs out or a root box would overlap another.
    """
    lo = ball(f.lo) if start is None else start
    hi = ball(f.hi) if stop is None else stop
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


def _classify(f: SlopeFunctions, a: flint.arb, c: flint.arb, pieces: list[Piece]
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
    if a2 < ball(f.lo) or c2 > ball(f.hi):
        return None
    step = newton_step(f, _interval(a2, c2))
    if step is not None and _interval(a2, c2).contains_interior(step[0]):
        return _root_piece(a2, c2, step[1], pieces, f)
    return None


def _root_piece(a: flint.arb, c: flint.arb, dsign: int, pieces: list[Piece],
                f: SlopeFunctions) -> Piece:
    # (a root box may overlap the previous one: candidates() removes a root found twice)
    if a < ball(f.lo) or c > ball(f.hi):
        raise CertificationError("a root of the slope lies at an end of the range")
    return Piece(a, c, dsign, True)


# ---------------------------------------------------------------------- sign polynomials
#: Bits (beyond :math:`\log_2` of the degree) between a tropical root of the sign
#: polynomial and the end of the window covered around it (:func:`tropical_covering`).
MARGIN_BITS = 6


def _log2_upper(x: flint.arb) -> int | None:
    r"""An integer :math:`\ge \log_2 |x|` for every point of ``x`` (None for an exact 0)."""
    bound = x.abs_upper()
    if bound.is_zero():
        return None
    man, exp = bound.man_exp()
    return int(exp) + int(man).bit_length()


def _power_of_two(n: int) -> flint.arb:
    return flint.arb((1, n))


def polynomial_at(coeffs: list[flint.arb] | flint.arb_poly, x: BallLike,
                  increasing: bool = False) -> BallLike:
    r""":math:`\sum_j c_j x^j` (ascending coefficients, or an Arb polynomial) at a ball or
    an Arb power series.

    A wide interval :math:`x \subset [0, \infty)` is taken end by end: with
    ``increasing`` (the caller knows every :math:`c_j \ge 0`) the value at each end, else
    each monomial's range (Horner's scheme would widen at each step); a point by Arb's
    polynomial evaluation where an Arb polynomial is given, else (and a power series) by
    Horner's scheme."""
    if isinstance(coeffs, flint.arb_poly):
        if isinstance(x, flint.arb) and not (x.rel_accuracy_bits() < 8 and x.lower() >= 0):
            return coeffs(x)
        coeffs = coeffs.coeffs() or [flint.arb(0)]
    if isinstance(x, flint.arb) and x.rel_accuracy_bits() < 8 and x.lower() >= 0:
        lo, hi = x.lower(), x.upper()
        if increasing:
            return polynomial_at(coeffs, lo).union(polynomial_at(coeffs, hi))
        total = flint.arb(0)
        lo_k = hi_k = flint.arb(1)
        for c in coeffs:
            total += c * lo_k.union(hi_k)
            lo_k, hi_k = lo_k * lo, hi_k * hi
        return total
    value = coeffs[-1]
    for c in reversed(coeffs[:-1]):
        value = value * x + c
    return value


class SignPolynomial:
    r"""The slope's sign as a polynomial :math:`N(\gamma) = \sum_j c_j \gamma^j` on a range
    in :math:`[0, \infty)`: the slope over a proven positive factor, so :math:`N` has the
    slope's roots, and at a root the sign of :math:`N^{\prime}` is that of :math:`s^{\prime}`. It
    stands in
    for :class:`CompiledCost` in :func:`covering`, :func:`newton_step` and :func:`_refine`
    (``slope`` is :math:`N`, ``dslope`` is :math:`N^{\prime}`, Horner's scheme, also on power
    series), and proves signs on ranges of any ratio (:meth:`dominance`).
    """

    def __init__(self, f: CompiledCost) -> None:
        self.cost, self.lo, self.hi = f.cost, f.lo, f.hi
        assert f.numerator is not None  # (built for a cost with a sign numerator)
        self._numerator = f.numerator
        self._cache: dict[int, tuple[list[flint.arb], list[flint.arb]]] = {}

    def coefficients(self) -> tuple[list[flint.arb], list[flint.arb]]:
        r"""(:math:`c_j`, the coefficients of :math:`N^{\prime}`) at the current precision."""
        prec = flint.ctx.prec
        if prec not in self._cache:
            c = list(self._numerator())
            while len(c) > 1 and c[-1].is_zero():
                c.pop()
            self._cache[prec] = (c, [k * c[k] for k in range(1, len(c))] or [flint.arb(0)])
        return self._cache[prec]

    def slope(self, x: BallLike) -> BallLike:
        """:math:`N(x)`."""
        return polynomial_at(self.coefficients()[0], x)

    def dslope(self, x: BallLike) -> BallLike:
        r""":math:`N^{\prime}(x)`."""
        return polynomial_at(self.coefficients()[1], x)

    def dominance(self, a: flint.arb, c: flint.arb) -> int:
        r"""The sign of :math:`N` on :math:`(a, c]` (:math:`0 \le a < c`) proven by one
        monomial exceeding the sum of all others:
        :math:`|c_k| > \sum_{j > k} |c_j| c^{j-k} + \sum_{j < k} |c_j| a^{j-k}` (each ratio
        :math:`\gamma^{j-k}` is monotone, so its largest value is at an end), or 0."""
        coeffs = self.coefficients()[0]
        a, c = flint.arb(a).lower(), flint.arb(c).upper()
        if not (a >= 0 and c > a):
            return 0
        logs = [_log2_upper(x) for x in coeffs]
        tried = set()
        for end in (a, c):
            if end.is_zero():
                k = next((j for j, x in enumerate(logs) if x is not None), None)
            else:
                e = _log2_upper(end)
                assert e is not None  # (end is not zero)
                known = {j: x for j, x in enumerate(logs) if x is not None}
                k = max(known, key=lambda j: known[j] + j * e, default=None)
            if k is None or k in tried:
                continue
            tried.add(k)
            sign = self._dominates(coeffs, k, a, c)
            if sign:
                return sign
        return 0

    @staticmethod
    def _dominates(coeffs: list[flint.arb], k: int, a: flint.arb, c: flint.arb) -> int:
        lead = coeffs[k]
        if not (lead > 0 or lead < 0):
            return 0
        rest = flint.arb(0)
        for j, x in enumerate(coeffs):
            if j == k or x.is_zero():
                continue
            if j < k and a.is_zero():
                return 0
            rest += x.abs_upper() * (c ** (j - k) if j > k else (1 / a) ** (k - j))
        if lead.abs_lower() > rest:
            return 1 if lead > 0 else -1
        return 0

    def tropical_roots(self) -> list[int]:
        r"""The :math:`\log_2` of the tropical roots of :math:`N` (integers, increasing):
        the slopes of the upper convex hull of the points :math:`(j, \log_2 |c_j|)`.
        Between them one monomial dominates; the roots of :math:`N` lie near them."""
        points = [(j, x) for j, x in enumerate(_log2_upper(c) for c in self.coefficients()[0])
                  if x is not None]
        hull: list[tuple[int, int]] = []
        for p in points:
            while len(hull) >= 2 and _turn(hull[-2], hull[-1], p) >= 0:
                hull.pop()
            hull.append(p)
        return sorted((y0 - y1) // (x1 - x0) for (x0, y0), (x1, y1) in pairwise(hull))


def _turn(o: tuple[int, int], p: tuple[int, int], q: tuple[int, int]) -> int:
    return (p[0] - o[0]) * (q[1] - o[1]) - (p[1] - o[1]) * (q[0] - o[0])


def tropical_covering(g: SignPolynomial, budget: int = MAX_BOXES) -> list[Piece]:
    r"""The sign covering of :func:`covering` for a sign polynomial, across any number of
    decades: the range is split at the tropical roots :math:`2^{r_i}` of :math:`N`; a
    window :math:`[2^{r_i - M}, 2^{r_i + M}]` around each (merged where they meet) is
    covered by :func:`covering`, and each gap between windows is one interval whose sign
    one monomial proves (:meth:`SignPolynomial.dominance`; otherwise it joins the next
    window). As :math:`\varepsilon \to \infty` the minimiser and the other roots of the
    slope move apart like powers of :math:`e^{-\varepsilon}`; the covering takes a few
    dozen intervals at any :math:`\varepsilon`.

    Raises
    ------
    CertificationError
        If a window's covering fails (:func:`covering`), or the range meets
        :math:`\gamma < 0`.
    """
    lo, hi = ball(g.lo), ball(g.hi)
    if g.lo < 0:
        raise CertificationError("a sign polynomial needs a range in [0, oo)")
    margin = MARGIN_BITS + len(g.coefficients()[0]).bit_length()
    windows: list[list[int]] = []
    for r in g.tropical_roots():
        if windows and r - margin <= windows[-1][1]:
            windows[-1][1] = r + margin
        else:
            windows.append([r - margin, r + margin])
    pieces: list[Piece] = []
    a = lo
    for u, v in windows:
        start, stop = _power_of_two(u), _power_of_two(v)
        if not stop > a:
            continue
        if not start < hi:
            break
        if start > a:
            sign = g.dominance(a, start)
            if sign:
                pieces.append(Piece(a, start, sign, False))
                a = start
        stop = stop if stop < hi else hi
        pieces += covering(g, budget - len(pieces), a, stop)
        a = pieces[-1].hi if pieces and pieces[-1].hi > stop else stop
    if a < hi:
        sign = g.dominance(a, hi)
        pieces += [Piece(a, hi, sign, False)] if sign else covering(g, budget - len(pieces),
                                                                    a, hi)
    return pieces


def _refine(f: SlopeFunctions, box: flint.arb, bits: int) -> flint.arb:
    r"""``box`` contracted by Newton steps :math:`X \cap N(X)` to a relative radius below
    :math:`2^{-\mathrm{bits}}` (or until the steps stall at this precision)."""
    for _ in range(MAX_NEWTON):
        if box.rel_accuracy_bits() >= bits:
            break
        step = newton_step(f, box)
        if step is None:  # the sign of s' not proven at this precision: stalled
            break
        if not step[0].overlaps(box):
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
    r"""Every point where the cost's minimum over ``[lo, hi]`` can lie: the isolated roots
    of the slope with :math:`s^{\prime} > 0`, and each end not excluded by the slope's sign next
    to it (at ``prec`` bits, doubled while the slope's sign is unresolved at most sample
    points (:func:`_resolves`, at most :data:`PRECISION_DOUBLINGS` times) and once more
    when the covering fails). The family's own sign covering (``f.sign``), then a sign
    polynomial (:class:`SignPolynomial`, :func:`tropical_covering`) are tried first, then
    :func:`covering` of the slope.

    Raises
    ------
    CertificationError
        Naming why no covering was found.
    """
    failure: CertificationError | None = None
    ways: list[CompiledCost | SignPolynomial | SignCovering] = [f]
    if f.numerator is not None:  # the slope's sign polynomial first, across decades
        ways.insert(0, f.memo.setdefault("sign", SignPolynomial(f)))
    if f.sign is not None:  # the family's proof of the slope's sign, across decades
        ways.insert(0, f.memo.setdefault("family sign", f.sign(f)))
    retried = False
    for attempt in range(PRECISION_DOUBLINGS + 2):
        with arb_workprec(prec):
            if attempt < PRECISION_DOUBLINGS and not retried and not _resolves(ways[0]):
                prec *= 2  # the slope's sign unresolved at most points: cancellation
                continue
            for g in ways:
                try:
                    pieces = (covering(f) if isinstance(g, CompiledCost) else tropical_covering(g)
                              if isinstance(g, SignPolynomial) else g.covering())
                except CertificationError as exc:
                    failure = exc
                    continue
                break
            else:
                if retried:
                    break
                retried, prec = True, prec * 2  # once more at twice the precision
                continue
            f.memo["newton"] = g  # what the root boxes are refined with
            found = [Candidate("interior", box)
                     for box in _distinct_roots(g, [_interval(p.lo, p.hi) for p in pieces
                                                    if p.root and p.sign > 0])]
            first, last = pieces[0], pieces[-1]
            if first.root or first.sign > 0:  # the cost does not decrease from lo
                found.insert(0, Candidate("lower", ball(f.lo)))
            if last.root or last.sign < 0:  # nor towards hi
                found.append(Candidate("upper", ball(f.hi)))
            if not found:
                raise CertificationError("no candidate minimiser")
            return found
    assert failure is not None  # (the last attempts try every way)
    raise failure


def _resolves(g: SlopeFunctions, points: int = 8) -> bool:
    """Whether the slope's sign is proven at all but two of ``points - 1`` equally spaced
    interior points (a root may fall near one or two): otherwise the working precision
    is too low for the slope's cancellation."""
    lo, hi = ball(g.lo), ball(g.hi)
    unproven = 0
    for k in range(1, points):
        s = g.slope(lo + (hi - lo) * k / points)
        unproven += not (s.is_finite() and (s > 0 or s < 0))
    return unproven <= 2


def _distinct_roots(f: SlopeFunctions, boxes: list[flint.arb]) -> list[flint.arb]:
    """The root boxes without repetition: each box holds exactly one root, so a root
    whose refined enclosure lies inside another box *is* that box's root (dropped), and
    one whose enclosure misses the other box is another root."""
    if len(boxes) <= 1:  # nothing to tell apart (the refinement is not kept)
        return boxes
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
    box = _refine(f.memo.get("newton", f), cand.box, bits)
    m = box.mid()
    value = f.cost(m)
    with arb_workprec(min(flint.ctx.prec, 64)):  # a second-order term: a few bits do
        term = f.slope(box) * (box - m)
    if not (term.is_finite() and term.rad() <= abs(value).upper() * flint.arb(2) ** -bits):
        term = f.slope(box) * (box - m)  # (e^{-eps} itself needs more bits: eps > 2^40)
    return box, value + term  # mean-value form


@exclusive
def certify_minimum(f: CompiledCost, digits: int, *, quantity: str = "cost",
                    guard_digits: int = 0) -> Certified:
    """The optimal cost (``quantity="cost"``) or the minimiser (``"parameter"``), enclosed
    and rounded to ``digits`` digits: every candidate of :func:`candidates` is enclosed,
    and the one whose cost lies below all the others' wins (the enclosures must separate;
    the winner, once proven, is kept with the candidates and alone enclosed afterwards).

    Raises
    ------
    CertificationError
        If the minimiser cannot be proven, two candidates' costs do not separate, or the
        enclosure does not round.
    """
    guard = GUARD_BITS + int(guard_digits * BITS_PER_DIGIT)
    if "candidates" not in f.memo:  # the proof of where the minimum can lie, once
        f.memo["candidates"] = candidates(f, 64 + guard)
    cands = f.memo["candidates"]
    target = int(digits * BITS_PER_DIGIT) + 8
    known = f.memo.get("winner")  # proven once, whatever the digits
    for prec in precisions(target + guard):
        with arb_workprec(prec):
            enclosed = {}
            for k, cand in enumerate(cands):
                if known is not None and k != known:
                    continue
                # (to separate the candidates, the boxes as narrow as the precision allows)
                box, cost = _enclose(f, cand, target + 8 if known is not None else prec)
                if cand.where == "interior":
                    cands[k] = Candidate("interior", box)  # keep the contraction
                enclosed[k] = (box, cost)
            winner = known if known is not None else _separated(list(enclosed.values()))
            if winner is not None:
                f.memo["winner"] = winner
                box, cost = enclosed[winner]
                found = cost if quantity == "cost" else box
                if found.is_finite() and found.rel_accuracy_bits() > 0:
                    if quantity != "cost" and found.is_zero():
                        return Certified(flint.arb(0), None, digits)
                    rounded = ball_rounding(found, digits)
                    if rounded is not None:
                        return Certified(found, rounded, digits)
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


__all__ = ["MAX_BOXES", "Candidate", "CompiledCost", "Piece", "SignPolynomial", "candidates",
           "certify_minimum", "covering", "newton_step", "polynomial_at", "slope_sign",
           "tropical_covering"]
