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
    every draw to :meth:`below` here. At the end of the path, ``extend(options)`` gives the
    next value (:func:`enumerate_outcomes` goes on with the run) or raises; without it,
    :class:`Exhausted` carries the options."""

    def __init__(self, path: list[object],
                 extend: Callable[[list[tuple[object, object]]], object] | None = None
                 ) -> None:
        self._acc = self._nbits = 0
        self.path = path
        self._values = iter(path)
        self._next = self._values.__next__
        self._extend = extend

    def _beyond(self, options: list[tuple[object, object]]) -> object:
        if self._extend is None:
            raise Exhausted(options)
        return self._extend(options)

    def next_value(self, options: Callable[[], list[tuple[object, object]]]) -> object:
        """The next scripted value; at the end of the path, the value chosen by ``extend``
        among ``options()``, the possible next values with their probabilities."""
        try:
            return self._next()
        except StopIteration:
            return self._beyond(options())

    def finished(self) -> bool:
        """Whether every scripted value was used."""
        return next(self._values, _END) is _END

    def below(self, n: int) -> int:
        if n == 1:  # as RandomBits.below: 0, no draw
            return 0
        try:
            v = self._next()
        except StopIteration:
            each = Fraction(1, n)
            v = self._beyond([(v, each) for v in range(n)])
        assert 0 <= v < n
        return v

    def bits(self, k: int) -> int:
        raise AssertionError("not used by the enumerated primitives")


#: The end of a scripted path.
_END = object()


class _Cut(Exception):
    """Every possible next draw of the run has a path probability below the cutoff."""


def enumerate_outcomes(run: Callable[[ScriptedBelow], object], cutoff: object
                       ) -> tuple[dict[object, object], object]:
    """Probabilities of every outcome, over all draw sequences of probability >= cutoff.

    Every draw branches over its possible values with their exact probabilities
    (``below(n)``: each value with ``1/n``, exact by
    ``test_exact_bits.test_below_is_exactly_uniform``).
    Returns the outcome masses and the total mass of the paths cut below ``cutoff``.

    Depth first: a path is run again from the start (the scripted values first) and, at
    each draw past its end, the branches kept are stacked but the last one, with which the
    run goes on (the one the stack would give next: the masses are added in the same
    order as when every branch is run from the start).
    """
    outcomes: dict[object, object] = {}
    unfinished = 0
    stack: list[tuple[list[object], object]] = [([], 1)]
    to_mpf = isinstance(cutoff, mpmath.mpf)
    live: list[object] = []
    weight: object = 1

    def extend(options: list[tuple[object, object]]) -> object:
        # Options of one probability (a uniform draw's: the same object) share their
        # weight and its comparison with the cutoff; exact weights cut off are added up
        # as one multiple (the same sum), rounded ones one by one (the same roundings).
        nonlocal unfinished, weight
        last, w, small, cut, exact = None, 0, False, 0, True
        kept: list[tuple[object, object]] = []
        for value, prob in options:
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
                kept.append((value, w))
            elif exact:
                cut += 1
            else:
                unfinished += w
        if cut:
            unfinished += w * cut
        if not kept:
            raise _Cut
        for value, w in kept[:-1]:
            stack.append(([*live, value], w))
        value, weight = kept[-1]
        live.append(value)
        return value

    while stack:
        path, weight = stack.pop()
        live = list(path)
        source = ScriptedBelow(path, extend)
        try:
            out = run(source)
        except _Cut:
            continue
        assert source.finished()
        outcomes[out] = outcomes.get(out, 0) + weight
    return outcomes, unfinished


class ScriptedBits(RandomBits):
    """``bits(k)`` returns the next ``k`` bits of a fixed stream, most significant first
    (a :class:`RandomBits` whose accumulator stays empty: every read goes through
    :meth:`bits`)."""

    def __init__(self, stream: str) -> None:
        self._acc = self._nbits = 0
        self.stream, self.pos = stream, 0

    def bits(self, k: int) -> int:
        chunk = self.stream[self.pos:self.pos + k]
        if len(chunk) < k:
            raise Exhausted(k)
        self.pos += k
        return int(chunk, 2)
