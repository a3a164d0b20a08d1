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


class Exhausted(Exception):
    """The scripted source has no more values on this path; ``options`` are the next
    draw's possible values with their probabilities."""

    def __init__(self, options: list[tuple[object, object]]) -> None:
        self.options = options


class ScriptedBelow:
    """``below(n)`` (and, when patched in, ``coin``) return scripted values in turn."""

    def __init__(self, path: list[object]) -> None:
        self.path, self.used = path, 0

    def next_value(self, options: Callable[[], list[tuple[object, object]]]) -> object:
        """The next scripted value; at the end of the path, :class:`Exhausted` carrying
        ``options()``, the possible next values with their probabilities."""
        if self.used == len(self.path):
            raise Exhausted(options())
        v = self.path[self.used]
        self.used += 1
        return v

    def below(self, n: int) -> int:
        v = self.next_value(lambda: [(v, Fraction(1, n)) for v in range(n)])
        assert 0 <= v < n
        return v

    def bits(self, k: int) -> int:
        raise AssertionError("not used by the enumerated primitives")


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
    while stack:
        path, weight = stack.pop()
        source = ScriptedBelow(path)
        try:
            out = run(source)
        except Exhausted as stop:
            for value, prob in stop.options:
                if isinstance(cutoff, mpmath.mpf) and isinstance(prob, Fraction):
                    prob = mpmath.mpf(prob.numerator) / prob.denominator
                w = weight * prob
                if w < cutoff:
                    unfinished += w
                else:
                    stack.append(([*path, value], w))
            continue
        assert source.used == len(path)
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
