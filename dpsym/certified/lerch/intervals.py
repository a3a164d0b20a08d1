r"""The sign covering of a slope proven increasing by its family: any number of decades.

The interval minimiser (:func:`dpsym.certified.intervals.candidates`) covers the free parameter's
range by intervals on which the slope's sign is proven. Where the family *proves* that
the slope's sign is that of a strictly increasing function :math:`N` (for instance the
staircase's moments written with Lerch sums, :meth:`dpsym.mechanisms.Staircase._interval_sign`:
:math:`N = s L_{s-1} D - (1 - b) L_s` with :math:`N^{\prime} = s(s-1) D L_{s-2} > 0`), the
covering needs the sign of the slope at a few *points* only:

* if :math:`s(l) > 0` the slope is positive on :math:`(l, h]`; if :math:`s(h) < 0` it is
  negative on :math:`[l, h)`;
* otherwise two points :math:`a < c` with :math:`s(a) < 0 < s(c)` are searched from the
  family's estimate :math:`\gamma_0` of the root (factors of 16 outwards), and the
  bracket is narrowed by geometric bisection :math:`\sqrt{ac}`. Then the slope is
  negative on :math:`[l, a]`, positive on :math:`[c, h]`, and :math:`[a, c]` holds
  exactly one root (intermediate values, and strict monotonicity of :math:`N`), a
  local minimum of the cost. Interval Newton (:func:`dpsym.certified.intervals._refine`) then
  contracts the bracket.

The points are exact dyadic numbers, so a root near :math:`e^{-10^{100}}` costs no more
than one near :math:`1/2`: a ball of the slope at a point stays tight whatever its
exponent.
"""

from __future__ import annotations

import flint

from dpsym.certified.intervals import CompiledCost, Piece
from dpsym.certified.kernel import ball
from dpsym.errors import CertificationError

#: Largest number of factors of 16 by which the bracket is widened from the estimate.
MAX_WIDENINGS = 256
#: The bracket :math:`[a, c]` is bisected until :math:`c/a < 1 + 2^{-\mathrm{BITS}}`.
BRACKET_BITS = 30
#: Largest number of bisections of the bracket.
MAX_BISECTIONS = 64


class IncreasingSign:
    r"""The slope of a :class:`~dpsym.certified.intervals.CompiledCost` whose sign is, by the
    family's proof, that of a strictly increasing function on ``[lo, hi]``; ``estimate``
    gives the log2 of a point near its root (an integer, or None: the middle of the
    range). It stands in for the cost in :func:`dpsym.certified.intervals.candidates` (``slope``,
    ``dslope``, ``cost``, ``lo``, ``hi``, and :meth:`covering`)."""

    def __init__(self, f: CompiledCost, estimate: int | None = None) -> None:
        self.cost, self.slope, self.dslope = f.cost, f.slope, f.dslope
        self.lo, self.hi = f.lo, f.hi
        self._estimate = estimate

    def _sign(self, x: flint.arb) -> int:
        """The proven sign of the slope at the exact point ``x`` (0: not proven)."""
        try:
            s = self.slope(x)
        except (ValueError, ZeroDivisionError):
            return 0
        if not s.is_finite():
            return 0
        return 1 if s > 0 else -1 if s < 0 else 0

    def _start(self, lo: flint.arb, hi: flint.arb) -> flint.arb:
        if self._estimate is None:
            return (lo + hi) / 2
        x = flint.arb((1, self._estimate))
        return x if lo < x < hi else (lo + hi) / 2

    def _bracket(self, lo: flint.arb, hi: flint.arb) -> tuple[flint.arb, flint.arb]:
        """Exact points ``a < c`` in ``(lo, hi)`` with proven signs -1 at ``a`` and +1 at
        ``c``."""
        x = self._start(lo, hi)
        a = c = None
        for _ in range(MAX_WIDENINGS):
            sign = self._sign(x)
            if not sign:
                raise CertificationError("the slope's sign at a point of the bracket search "
                                         "was not proven (precision too low)")
            if sign < 0:
                a = x
                if c is not None:
                    return a, c
                x = x * 16 if x * 16 < hi else ((x + hi) / 2).mid()
            else:
                c = x
                if a is not None:
                    return a, c
                x = x / 16 if x / 16 > lo else ((x + lo) / 2).mid()
        raise CertificationError("the root of the slope was not bracketed")

    def _narrow(self, a: flint.arb, c: flint.arb) -> tuple[flint.arb, flint.arb]:
        """The bracket narrowed by geometric bisection (arithmetic near 0)."""
        target = 1 + flint.arb((1, -BRACKET_BITS))
        for _ in range(MAX_BISECTIONS):
            if c < a * target:
                break
            x = (a * c).sqrt().mid() if a > 0 else ((a + c) / 2).mid()
            if not a < x < c:
                break
            sign = self._sign(x)
            if not sign:
                break  # the bracket is still proven: narrower needs more precision
            if sign < 0:
                a = x
            else:
                c = x
        return a, c

    def covering(self) -> list[Piece]:
        r"""The sign covering of ``[lo, hi]``: at most one interval of each sign and one
        root box (:math:`s^{\prime} > 0` there: the slope's numerator increases through its
        root).

        Raises
        ------
        CertificationError
            If a sign needed is not proven at the current precision.
        """
        lo, hi = ball(self.lo), ball(self.hi)
        if self._sign(lo) > 0:
            return [Piece(lo, hi, 1, False)]
        if self._sign(hi) < 0:
            return [Piece(lo, hi, -1, False)]
        a, c = self._narrow(*self._bracket(lo, hi))
        return [Piece(lo, a, -1, False), Piece(a, c, 1, True), Piece(c, hi, 1, False)]


__all__ = ["IncreasingSign"]
