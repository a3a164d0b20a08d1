r"""Scripted random sources for the exact-sampling tests (:mod:`dpsym.sampling.exact_bits`,
:mod:`dpsym.sampling.exact`).

A scripted source returns predetermined draws; when a path runs out,
:func:`enumerate_outcomes` branches over every possible next draw with its exact
probability, which gives the exact law of a draw procedure (up to the mass of the paths cut
below a threshold).
"""

from __future__ import annotations

from collections.abc import Callable
from fractions import Fraction

import mpmath

from dpsym.sampling.exact_bits import RandomBits


class Exhausted(Exception):
    """The scripted source has no more values on this path; ``options`` are the next
    draw's possible values with their probabilities."""

    def __init__(self, options: list[tuple[object, object]]) -> None:
        self.options = options


class ScriptedBelow(RandomBits):
    """``below(n)`` (and, when patched in, ``coin``) return scripted values in turn.

    A :class:`RandomBits` whose accumulator stays empty: the primitives, which run
    ``below``'s rejection rounds themselves while the accumulator holds enough bits, hand
    every draw to :meth:`below` here."""

    def __init__(self, path: list[object]) -> None:
        self._acc = self._nbits = 0
        self.path = path
        self._values = iter(path)
        self._next = self._values.__next__

    def next_value(self, options: Callable[[], list[tuple[object, object]]]) -> object:
        """The next scripted value; at the end of the path, :class:`Exhausted` carrying
        ``options()``, the possible next values with their probabilities."""
        try:
            return self._next()
        except StopIteration:
            raise Exhausted(options()) from None

    def finished(self) -> bool:
        """Whether every scripted value was used."""
        return next(self._values, _END) is _END

    def below(self, n: int) -> int:
        try:
            v = self._next()
        except StopIteration:
            each = Fraction(1, n)
            raise Exhausted([(v, each) for v in range(n)]) from None
        assert 0 <= v < n
        return v

    def bits(self, k: int) -> int:
        raise AssertionError("not used by the enumerated primitives")


#: The end of a scripted path.
_END = object()


def enumerate_outcomes(run: Callable[[ScriptedBelow], object], cutoff: object
                       ) -> tuple[dict[object, object], object]:
    """Probabilities of every outcome, over all draw sequences of probability >= cutoff.

    Every draw branches over its possible values with their exact probabilities
    (``below(n)``: each value with ``1/n``, exact by
    ``test_exact_bits.test_below_is_exactly_uniform``).
    Returns the outcome masses and the total mass of the paths cut below ``cutoff``.
    """
    outcomes: dict[object, object] = {}
    unfinished = 0
    stack: list[tuple[list[object], object]] = [([], 1)]
    to_mpf = isinstance(cutoff, mpmath.mpf)
    while stack:
        path, weight = stack.pop()
        source = ScriptedBelow(path)
        try:
            out = run(source)
        except Exhausted as stop:
            # Options of one probability (a uniform draw's: the same object) share their
            # weight and its comparison with the cutoff; exact weights cut off are added
            # up as one multiple (the same sum), rounded ones one by one (the same roundings).
            last, w, small, cut = None, 0, False, 0
            for value, prob in stop.options:
                if prob is not last:
                    if cut:
                        unfinished += w * cut
                        cut = 0
                    last = prob
                    if to_mpf and isinstance(prob, Fraction):
                        prob = mpmath.mpf(prob.numerator) / prob.denominator
                    w = weight * prob
                    small = w < cutoff
                    exact = isinstance(w, (Fraction, int))
                if not small:
                    stack.append(([*path, value], w))
                elif exact:
                    cut += 1
                else:
                    unfinished += w
            if cut:
                unfinished += w * cut
            continue
        assert source.finished()
        outcomes[out] = outcomes.get(out, 0) + weight
    return outcomes, unfinished


class ScriptedBits:
    """``bits(k)`` returns the next ``k`` bits of a fixed stream, most significant first."""

    def __init__(self, stream: str) -> None:
        self.stream, self.pos = stream, 0

    def bits(self, k: int) -> int:
        chunk = self.stream[self.pos:self.pos + k]
        if len(chunk) < k:
            raise Exhausted(k)
        self.pos += k
        return int(chunk, 2)
