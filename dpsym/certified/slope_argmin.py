r"""The certified minimum of a cost whose slope has a non-decreasing sign.

The optimal free parameter of the staircase and of :math:`\mathcal{P}_\alpha` for a
general cost :math:`L` (:mod:`dpsym.certified.expectation`) minimises a cost
:math:`C(t)` on :math:`[lo, hi]` whose one-sided derivatives are :math:`c(t)\,N(t^\pm)`
with :math:`c(t) > 0` and :math:`N` **non-decreasing** (for the staircase
:math:`N^{\prime}(\gamma) = \Delta^2 D(\gamma) \sum_k b^k L^{\prime}((k + \gamma)\Delta)
\ge 0` because :math:`L` is non-decreasing; see the families). Then :math:`C` decreases
while :math:`N < 0` and increases while :math:`N > 0`, so

* two exact points :math:`a < c` with :math:`N(a^+) < 0 < N(c^-)` prove that every
  minimiser lies in :math:`(a, c)`; the points where :math:`N` may jump are tried
  first (:meth:`SlopeProblem.kinks`);
* :math:`N(lo^+) > 0` proves :math:`lo` the unique minimiser (:math:`N(hi^-) < 0`:
  :math:`hi`); an exact point with :math:`N(t^-) < 0 < N(t^+)` (a kink of :math:`C`,
  e.g. where the indicator cost jumps) is the unique minimiser;
* where :math:`N = 0` exactly (a rational minimiser, or an interval on which the cost is
  flat), the family proves it exactly (:meth:`SlopeProblem.zero_set`), and every point
  of the zero set is a minimiser.

Each sign is read from an Arb ball of :math:`N` at an exact rational point, never from a
tolerance. The points are chosen by safeguarded Newton steps on :math:`N` (bisection where
:math:`N` jumps or the step leaves the bracket). The minimum is enclosed on the bracket
from the cost written as a ratio of non-decreasing non-negative functions
(:meth:`SlopeProblem.cost_box`).
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Protocol

import flint

from dpsym.certified.kernel import (
    Certified,
    ball,
    ball_rounding,
    bits_for,
    exact,
    precisions,
    trimmed,
)
from dpsym.errors import CertificationError
from dpsym.precision import arb_workprec, exclusive

arb = flint.arb

#: Slope evaluations of one search before it gives up.
MAX_STEPS = 4000


class SlopeProblem(Protocol):
    """A cost on :math:`[lo, hi]` with a non-decreasing slope sign (see the module)."""

    lo: Fraction
    hi: Fraction | None
    #: The open upper end when ``hi`` is None.
    open_limit: Fraction | None

    def slope(self, t: Fraction, side: int) -> flint.arb:
        """A ball of :math:`N(t^{side})` (side -1 or 1) at the working precision."""

    def slope_derivative(self, t: Fraction) -> flint.arb | None:
        r"""A ball of :math:`N^{\\prime}(t)` where :math:`N` is smooth at ``t``, else None."""

    def jumps_at(self, t: Fraction) -> bool:
        """Whether :math:`N` may jump at ``t`` (its one-sided values then differ)."""

    def kinks(self) -> list[Fraction]:
        """The exact points where :math:`N` may jump, inside the range (each is tried as
        an exact minimiser first)."""

    def cost(self, t: Fraction) -> flint.arb | Fraction:
        """The cost at the exact ``t`` (a Fraction when it is an exact rational)."""

    def cost_box(self, a: Fraction, c: Fraction) -> flint.arb:
        """A ball containing the cost on :math:`[a, c]` near its minimum."""

    def zero_set(self, t: Fraction) -> tuple[Fraction, Fraction] | None:
        """Where :math:`N(t) = 0` is proven exactly: the interval of zeros of :math:`N`
        containing ``t`` (``(t, t)`` for an isolated zero; its upper end ``hi`` when it
        reaches the open end); None where it is not proven."""

    def open_end(self) -> tuple[Fraction | None, flint.arb | Fraction | None]:
        """For an open ``hi`` (None): a point where :math:`N > 0` (and None), or (None,
        the infimum of the cost, approached at the open end and not attained)."""


@dataclass(frozen=True)
class Minimum:
    r"""Where the minimum is: ``lo``, ``hi`` exact (equal for a proven exact minimiser;
    a bracket of the unique minimiser; or the interval of minimisers when ``flat``, open
    at ``hi`` when ``open_hi``); ``attained`` False when the infimum is approached at an
    open end."""

    lo: Fraction
    hi: Fraction
    flat: bool = False
    attained: bool = True
    infimum: flint.arb | Fraction | None = None
    open_hi: bool = False


def _sign(x: flint.arb) -> int | None:
    if x > 0:
        return 1
    if x < 0:
        return -1
    return None


class _Search:
    """One search at one working precision."""

    def __init__(self, problem: SlopeProblem, width: Fraction) -> None:
        self.p, self.width = problem, width
        self.steps = 0

    def sign(self, t: Fraction, side: int) -> int | None:
        self.steps += 1
        if self.steps > MAX_STEPS:
            raise CertificationError("the minimiser search did not converge")
        return _sign(self.p.slope(t, side))

    def classify(self, t: Fraction) -> int | None:
        r"""-1 if :math:`N(t^+) < 0` (the minimisers are right of ``t``), 1 if
        :math:`N(t^-) > 0` (left), 0 if ``t`` is a minimiser (a kink), None undecided."""
        if not self.p.jumps_at(t):
            return self.sign(t, 1)
        right = self.sign(t, 1)
        if right is not None and right < 0:
            return -1
        left = self.sign(t, -1)
        if left is not None and left > 0:
            return 1
        if left is not None and right is not None and left < 0 < right:
            return 0
        return None

    def run(self) -> Minimum:
        p = self.p
        lo, hi = p.lo, p.hi
        start = self.sign(lo, 1)
        if start is None:
            return self.undecided(lo)
        if start > 0:
            return Minimum(lo, lo)
        if hi is None:
            point, infimum = p.open_end()
            if point is None:
                limit = p.open_limit
                assert limit is not None  # (the open end of an open range)
                return Minimum(limit, limit, attained=False, infimum=infimum)
            hi = point
        else:
            end = self.sign(hi, -1)
            if end is None:
                return self.undecided(hi)
            if end < 0:
                return Minimum(hi, hi)
        # the jumps of N first: a kink of the cost is an exact minimiser, and the jumps
        # narrow the bracket
        for t in sorted(k for k in p.kinks() if lo < k < hi):
            found = self.classify(t)
            if found == 0:
                return Minimum(t, t)
            if found is None:
                return self.undecided(t)
            if found < 0:
                lo = t
            else:
                hi = t
                break
        return self.bracket(lo, hi)

    def undecided(self, t: Fraction) -> Minimum:
        found = self.p.zero_set(t)
        if found is None:
            raise CertificationError(f"the slope's sign at {float(t):.6g} is not decided "
                                     "(a tie the balls do not separate)")
        open_hi = self.p.hi is None and found[1] == self.p.open_limit
        return Minimum(found[0], found[1], flat=found[0] != found[1], open_hi=open_hi)

    def bracket(self, a: Fraction, c: Fraction) -> Minimum:
        """Shrink :math:`(a, c)` (with :math:`N(a^+) < 0 < N(c^-)`) below the width."""
        guess: Fraction | None = None
        moved = 0  # the side the last point landed on: -1 it became a, 1 it became c
        steps: list[Fraction] = []  # the sizes of the Newton corrections
        while c - a > self.width:
            # Newton while its corrections at least halve; the middle otherwise
            slow = len(steps) >= 2 and steps[-1] > steps[-2] / 2
            t = self.next_point(a, c, None if slow else guess, moved)
            found = self.classify(t)
            if found is None:
                near = self.near(t)
                return near if near is not None else self.undecided(t)
            if found == 0:
                return Minimum(t, t)
            if found < 0:
                a = t
            else:
                c = t
            moved = found
            guess = self.newton(t)
            if guess is None:
                steps.clear()
            else:
                steps.append(abs(guess - t))
                if slow:
                    steps.clear()
        return Minimum(a, c)

    def near(self, t: Fraction) -> Minimum | None:
        """Where the slope at ``t`` is too close to zero for the balls: the bracket
        :math:`(t - w, t + w)` if the signs there are decided and opposite (``w`` the
        width), unless :math:`N(t) = 0` is proven exactly (:meth:`SlopeProblem.zero_set`)."""
        if self.p.zero_set(t) is not None:
            return None
        below, above = t - self.width, t + self.width
        if below <= self.p.lo or (self.p.hi is not None and above >= self.p.hi):
            return None
        if self.classify(below) == -1 and self.classify(above) == 1:
            return Minimum(below, above)
        return None

    def newton(self, t: Fraction) -> Fraction | None:
        derivative = self.p.slope_derivative(t)
        if derivative is None or not derivative > 0:
            return None
        value = self.p.slope(t, 1)
        step = value / derivative
        if not step.is_finite():
            return None
        return t - exact(step.mid())

    def next_point(self, a: Fraction, c: Fraction, guess: Fraction | None,
                   moved: int) -> Fraction:
        """The Newton point, pushed a quarter of the width beyond the root (away from the
        side the last point landed on, so that the bracket closes from both sides), on a
        grid of a sixty-fourth of the width; the middle where there is no such point in
        the bracket."""
        if guess is not None:
            t = _on_grid(guess + (self.width / 4 if moved < 0 else -self.width / 4),
                         self.width / 64)
            if a < t < c:
                return t
        return _dyadic_between(a, c)


def _on_grid(t: Fraction, step: Fraction) -> Fraction:
    """``t`` rounded to a multiple of the power of two at most ``step``."""
    bits = max(0, step.denominator.bit_length() - step.numerator.bit_length() + 1)
    return Fraction(round(t * 2**bits), 2**bits)


def _dyadic_between(a: Fraction, c: Fraction) -> Fraction:
    """A short dyadic rational strictly between ``a`` and ``c`` (near the middle)."""
    return _round_dyadic((a + c) / 2, a, c)


def _round_dyadic(t: Fraction, a: Fraction, c: Fraction) -> Fraction:
    span = c - a
    bits = max(1, -(span.numerator.bit_length() - span.denominator.bit_length()) + 4)
    scaled = Fraction(round(t * 2**bits), 2**bits)
    return scaled if a < scaled < c else t


@exclusive
def locate(problem: SlopeProblem, width: Fraction, prec: int) -> Minimum:
    """The minimum's location at the working precision ``prec``, bracketed to ``width``."""
    with arb_workprec(prec):
        return _Search(problem, width).run()


@exclusive
def certify_minimum(problem: SlopeProblem, digits: int, quantity: str, *,
                    guard_bits: int = 64, what: str = "minimum") -> tuple[Certified, Minimum]:
    r"""The minimum value (``quantity`` ``"cost"``) or the minimiser (``"parameter"``)
    certified to ``digits`` digits, with the :class:`Minimum` found.

    For a flat minimum or one not attained the parameter is refused (the set of
    minimisers is the :class:`Minimum`); the value is certified at any point of it.

    Raises
    ------
    CertificationError
        If no precision tried decides the rounding.
    """
    found: Minimum | None = None
    bits = 0
    undecided: CertificationError | None = None
    for bits in precisions(bits_for(digits, guard_bits)):
        # the bracket's width: the bits left after the guard (the slope's cancellation)
        width = Fraction(1, 2 ** max(bits - guard_bits + 8, 16))
        try:
            found = locate(problem, width * _scale(problem), bits)
        except CertificationError as err:  # a sign not decided: more bits
            undecided = err
            continue
        with arb_workprec(bits):
            if quantity != "cost":
                if found.flat or not found.attained:
                    return Certified(None, None, digits), found
                if found.lo == found.hi:
                    return Certified.exact(found.lo, digits), found
                box = ball(found.lo).union(ball(found.hi))
            elif not found.attained:
                value = found.infimum
                if isinstance(value, Fraction):
                    return Certified.exact(value, digits), found
                assert value is not None  # (an infimum not attained is known)
                box = value
            elif found.lo == found.hi or found.flat:
                value = problem.cost(found.lo)
                if isinstance(value, Fraction):
                    return Certified.exact(value, digits), found
                box = value
            else:
                box = problem.cost_box(found.lo, found.hi)
            if box.is_finite():
                box = trimmed(box, bits + 64)
                rounded = ball_rounding(box, digits)
                if rounded is not None:
                    return Certified(box, rounded, digits), found
    if undecided is not None and found is None:
        raise CertificationError(f"the {what}: {undecided} (last precision {bits} bits)")
    raise CertificationError(f"the {what} did not round to {digits} digits (last "
                             f"precision {bits} bits)")


def _scale(problem: SlopeProblem) -> Fraction:
    """The width scale: the parameter's range (relative widths for small minimisers are
    reached by the precision doubling)."""
    hi = problem.hi if problem.hi is not None else problem.lo + 1
    span = hi - problem.lo
    return span if span > 0 else Fraction(1)


__all__ = ["MAX_STEPS", "Minimum", "SlopeProblem", "certify_minimum", "locate"]
