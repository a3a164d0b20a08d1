r"""Tests of :mod:`dpsym.sampling.exact_bits`: exact draws from fair random bits.

What is verified and how
------------------------
* :meth:`RandomBits.below` over all bit patterns, and the order in which
  :meth:`RandomBits.bits` consumes the source's words.
* :func:`bernoulli_rational`, :func:`bernoulli_exp_neg` and :func:`geometric_exp_neg`
  exactly, by enumerating every sequence of uniform draws up to a depth, which encloses
  the exact probability of each outcome in a rational interval :math:`[S, S + R]`
  (:math:`R` the mass of the unfinished paths) that must contain :math:`e^{-\gamma}`
  (resp. :math:`(1 - e^{-\gamma}) e^{-\gamma k}`) computed by mpmath.
* :func:`exp_neg_enclosure` against mpmath at 200 digits.
* :func:`bernoulli_real` deterministically, on bit streams that follow the binary
  expansion of :math:`p` for 300 bits (the refinement path).

No test here is statistical. The samplers built on these draws are tested in
``test_exact_sampling.py``.
"""

from __future__ import annotations

import random
from fractions import Fraction
from functools import partial

import mpmath
import numpy as np
import pytest
from scripted_draws import Exhausted, ScriptedBelow, ScriptedBits, enumerate_outcomes

import dpsym.sampling.exact_bits as eb
from dpsym.errors import DomainError
from dpsym.sampling.exact_bits import (
    RandomBits,
    bernoulli_exp_neg,
    bernoulli_rational,
    bernoulli_real,
    enclosure_cuts,
    exp_neg_enclosure,
    geometric_exp_neg,
    geometric_exp_neg_ratio,
)


def exact_coin(monkeypatch: pytest.MonkeyPatch) -> None:
    r"""Replace the verified :math:`\mathrm{Bernoulli}(e^{-a/b})` primitive by a scripted
    draw with those probabilities (mpmath, 50 digits), to enumerate compositions of it."""
    def coin(source: ScriptedBelow, num: int, den: int) -> bool:
        def options() -> list[tuple[object, object]]:
            with mpmath.workdps(50):
                q = mpmath.exp(-mpmath.mpf(num) / den)
                return [(True, q), (False, 1 - q)]
        return source.next_value(options)

    monkeypatch.setattr(eb, "_bernoulli_exp_neg_unit", coin)


@pytest.mark.parametrize("n", [*range(1, 18), 1000, 2**20 + 1])
def test_below_is_exactly_uniform(n: int) -> None:
    """Every ell-bit pattern below n is returned as is; every other one triggers a redraw."""
    ell = (n - 1).bit_length()
    patterns = range(2**ell) if ell <= 12 else [0, n - 1, n, 2**ell - 1, 12345]
    for v in patterns:
        calls: list[int] = []

        class OneDraw(RandomBits):
            __slots__ = ()

            def bits(self, k: int, v: int = v, calls: list[int] = calls) -> int:
                calls.append(k)
                if len(calls) > 1:
                    raise Exhausted(k)
                return v

        source = OneDraw(random.Random(0))
        if n == 1:
            assert RandomBits.below(source, 1) == 0
            continue
        if v < n:
            assert RandomBits.below(source, n) == v and calls == [ell]
        else:
            with pytest.raises(Exhausted):
                RandomBits.below(source, n)
            assert calls == [ell, ell]


def test_random_bits_splits_words_exactly() -> None:
    """The bit stream is the concatenation of the source's 64-bit words, low bits first."""
    words = np.random.default_rng(3).bit_generator.random_raw(4).tolist()
    source = RandomBits(np.random.default_rng(3))
    stream = sum(w << (64 * i) for i, w in enumerate(words))
    widths = [1, 7, 64, 3, 100, 53, 28]
    got, shift = [], 0
    for k in widths:
        got.append(source.bits(k))
        assert got[-1] == (stream >> shift) & ((1 << k) - 1)
        shift += k
    assert shift == 256


class HeldBits(RandomBits):
    """A source of ``width`` given bits and no more (a read past them raises
    :class:`LookupError`), held in the accumulator (``inline``: the primitives' inlined
    rejection rounds and coin tables read them) or served by :meth:`RandomBits.below` only
    (the accumulator the primitives see stays empty, as the scripted sources')."""

    def __init__(self, pattern: int, width: int, inline: bool) -> None:
        self.inline, self.held = inline, (pattern, width)
        self._acc, self._nbits = self.held if inline else (0, 0)

    def below(self, n: int) -> int:
        if self.inline:
            return RandomBits.below(self, n)
        self._acc, self._nbits = self.held
        try:
            return RandomBits.below(self, n)
        finally:
            self.held, self._acc, self._nbits = (self._acc, self._nbits), 0, 0

    def bits(self, k: int) -> int:
        raise LookupError(k)

    def left(self) -> int:
        return self._nbits if self.inline else self.held[1]


def test_inlined_draws_are_below_s() -> None:
    r"""The coin :math:`\mathrm{Bernoulli}(e^{-\gamma})`, :math:`\gamma \le 1`, reading the
    accumulator itself (inlined rejection rounds, tables) gives the same outcome after the
    same bits as through :meth:`RandomBits.below` (the path the enumerations verify), on
    every 9-bit stream, for every :math:`\gamma = a/b`, :math:`b \le 9` (the tables' 8 and
    beyond); :meth:`RandomBits.bit` as ``below(2)``; and the geometric (inlined uniform,
    tables of 12 bits) on every 12-bit stream."""
    width = 9
    for den in range(1, 10):
        for num in range(den + 1):
            for pattern in range(2**width):
                got = []
                for inline in (True, False):
                    source = HeldBits(pattern, width, inline)
                    try:
                        got.append((eb._bernoulli_exp_neg_unit(source, num, den),
                                    source.left()))
                    except LookupError:
                        got.append(None)
                assert got[0] == got[1], (num, den, pattern, got)
    for pattern in range(2**width):  # RandomBits.bit is below(2)
        inline, through = HeldBits(pattern, width, True), HeldBits(pattern, width, False)
        assert [inline.bit() for _ in range(width)] == [through.bit() for _ in range(width)]
    width = 12  # the geometric's tables read 12 bits
    for s, t in ((3, 1), (1, 2), (7, 5), (1, 3)):
        for pattern in range(2**width):
            got = []
            for inline in (True, False):
                source = HeldBits(pattern, width, inline)
                try:
                    got.append((geometric_exp_neg_ratio(source, s, t), source.left()))
                except LookupError:
                    got.append(None)
            assert got[0] == got[1], (s, t, pattern, got)


GAMMAS = [Fraction(0), Fraction(1), Fraction(1, 2), Fraction(1, 3), Fraction(2, 5),
          Fraction(1, 7), Fraction(5, 3), Fraction(2)]


@pytest.mark.parametrize("gamma", GAMMAS, ids=str)
def test_bernoulli_exp_neg_exact_probability(gamma: Fraction) -> None:
    r"""Enumerate all draw sequences: :math:`P(1) \in [S, S + R]` must contain
    :math:`e^{-\gamma}`, with :math:`R < 10^{-7}`."""
    outcomes, unfinished = enumerate_outcomes(lambda s: bernoulli_exp_neg(s, gamma),
                                              Fraction(1, 10**12))
    assert unfinished < Fraction(1, 10**7)
    lower = outcomes.get(True, Fraction(0))
    with mpmath.workdps(50):
        target = mpmath.exp(-mpmath.mpf(gamma.numerator) / gamma.denominator)
        assert mpmath.mpf(lower.numerator) / lower.denominator <= target + mpmath.mpf(10)**-45
        upper = lower + unfinished
        assert target <= mpmath.mpf(upper.numerator) / upper.denominator + mpmath.mpf(10)**-45
    assert set(outcomes) <= {True, False}


def test_bernoulli_exp_neg_enumeration_can_fail() -> None:
    """The enumeration distinguishes e^{-gamma} from nearby values (the test can fail)."""
    outcomes, unfinished = enumerate_outcomes(
        lambda s: bernoulli_exp_neg(s, Fraction(1, 2)), Fraction(1, 10**12))
    lower = outcomes[True]
    with mpmath.workdps(30):
        wrong = mpmath.exp(-mpmath.mpf("0.5000001"))
        low = mpmath.mpf(lower.numerator) / lower.denominator
        assert not (low <= wrong <= low + mpmath.mpf(unfinished.numerator)
                    / unfinished.denominator)


# denominators 1 and 2 only: with t >= 3 several values of U can be rejected and the
# enumeration tree of the restarts branches exponentially
@pytest.mark.parametrize("gamma", [Fraction(1), Fraction(1, 2), Fraction(3, 2),
                                   Fraction(5, 2), Fraction(4)], ids=str)
def test_geometric_exact_probabilities(gamma: Fraction, monkeypatch: pytest.MonkeyPatch) -> None:
    r""":math:`P(K = k) = (1 - e^{-\gamma}) e^{-\gamma k}`, :math:`k \le 5`, by enumerating
    the uniform draws and the (verified) :math:`\mathrm{Bernoulli}(e^{-x})` draws."""
    exact_coin(monkeypatch)
    with mpmath.workdps(50):
        outcomes, unfinished = enumerate_outcomes(lambda s: geometric_exp_neg(s, gamma),
                                                  mpmath.mpf(10) ** -32)
        assert unfinished < mpmath.mpf(10) ** -25
        q = mpmath.exp(-mpmath.mpf(gamma.numerator) / gamma.denominator)
        for k in range(6):
            exact = (1 - q) * q**k
            got = outcomes.get(k, 0)
            assert got <= exact + mpmath.mpf(10) ** -40 <= got + unfinished + 2e-40, k


@pytest.mark.parametrize("x", ["0", "1/1000000", "0.5", "1", "3", "7/3", "40", "63.9", "64",
                               "1e6"])
@pytest.mark.parametrize("bits", [64, 128, 300])
def test_exp_neg_enclosure(x: str, bits: int) -> None:
    value = Fraction(x)
    lo, hi = exp_neg_enclosure(value, bits)
    assert lo <= hi and hi - lo <= Fraction(1, 2**bits)
    with mpmath.workdps(200):
        target = mpmath.exp(-mpmath.mpf(value.numerator) / value.denominator)
        assert mpmath.mpf(lo.numerator) / lo.denominator <= target
        assert target <= mpmath.mpf(hi.numerator) / hi.denominator


@pytest.mark.parametrize(("num", "den"), [(0, 1), (1, 1), (1, 2), (2, 3), (5, 7), (0, 9),
                                          (9, 9)])
def test_bernoulli_rational_exact_probability(num: int, den: int) -> None:
    outcomes, unfinished = enumerate_outcomes(lambda s: bernoulli_rational(s, num, den), 0)
    assert unfinished == 0
    assert outcomes.get(True, 0) == Fraction(num, den)
    assert outcomes.get(False, 0) == 1 - Fraction(num, den)


def test_geometric_ratio_is_geometric_of_the_fraction() -> None:
    """``geometric_exp_neg(g)`` draws exactly as ``geometric_exp_neg_ratio`` on the
    numerator and denominator of ``g`` (the same draws in the same order)."""
    for gamma in (Fraction(1, 3), Fraction(7, 2), Fraction(5)):
        one, two = RandomBits(random.Random(4)), RandomBits(random.Random(4))
        a = [geometric_exp_neg(one, gamma) for _ in range(20)]
        b = [geometric_exp_neg_ratio(two, gamma.numerator, gamma.denominator)
             for _ in range(20)]
        assert a == b and (gamma > 1 or len(set(a)) > 1)


def test_random_bits_rejects_other_sources() -> None:
    with pytest.raises(DomainError) as info:
        RandomBits(object())
    assert info.value.name == "rng"
    assert 0 <= RandomBits(None).below(10) < 10


def test_getrandbits_source_splits_blocks_into_words() -> None:
    """A ``getrandbits`` block is cut into 64-bit words, lowest first."""
    block = random.Random(7).getrandbits(4096)
    source = RandomBits(random.Random(7))
    assert source.bits(64) == block & (2**64 - 1)
    assert source.bits(128) == (block >> 64) & (2**128 - 1)


@pytest.mark.parametrize("x", [Fraction(1, 3), Fraction(2), Fraction(40)], ids=str)
def test_bernoulli_real_refines_exactly(x: Fraction) -> None:
    r"""Bit streams that follow the expansion of :math:`p = e^{-x}` for 300 bits force the
    refinement.

    With :math:`U` = those 300 bits followed by zeros, :math:`U < p` (p is irrational);
    followed by ones, :math:`U > p`. Either way the comparison needs 512 bits.
    """
    with mpmath.workdps(200):
        p = mpmath.exp(-mpmath.mpf(x.numerator) / x.denominator)
        prefix = int(mpmath.floor(p * mpmath.mpf(2) ** 300))
    head = format(prefix, "0300b")
    enclosure = partial(exp_neg_enclosure, x)
    for tail, expected in (("0", True), ("1", False)):
        source = ScriptedBits(head + tail * 2000)
        assert bernoulli_real(source, enclosure) is expected
        assert source.pos == 512


def test_bernoulli_real_decides_early() -> None:
    """A stream clearly below (above) p is decided on the first 64 bits."""
    enclosure = partial(exp_neg_enclosure, Fraction(1, 2))
    source = ScriptedBits("0" * 64)
    assert bernoulli_real(source, enclosure) is True and source.pos == 64
    source = ScriptedBits("1" * 64)
    assert bernoulli_real(source, enclosure) is False and source.pos == 64


def test_enclosure_cuts_decide_as_the_enclosure() -> None:
    r""":func:`enclosure_cuts`' integer thresholds take :func:`bernoulli_real`'s decisions:
    :math:`u < a` iff :math:`(u + 1) 2^{-n} \le \ell` and :math:`u \ge b` iff
    :math:`u 2^{-n} \ge h`, for every :math:`u < 2^n`, :math:`n \le 7`, and bounds with
    every denominator up to 12 and the dyadic ones (on and beside the grid)."""
    bounds = sorted({Fraction(a, d) for d in range(1, 13) for a in range(d + 1)}
                    | {Fraction(a, 2**n) for n in range(1, 8) for a in range(2**n + 1)})
    for n in range(1, 8):
        for bound in bounds:
            below_cut, above_cut = enclosure_cuts(bound, bound, n)
            for u in range(2**n):
                lower = (u + 1) * bound.denominator <= bound.numerator << n
                upper = u * bound.denominator >= bound.numerator << n
                assert (u < below_cut) is lower and (u >= above_cut) is upper, (n, bound, u)
    # large precisions: the thresholds are the floor and ceiling of the bounds' multiples
    lo, hi = exp_neg_enclosure(Fraction(1, 3), 512)
    below_cut, above_cut = enclosure_cuts(lo, hi, 512)
    assert Fraction(below_cut, 2**512) <= lo < Fraction(below_cut + 1, 2**512)
    assert Fraction(above_cut - 1, 2**512) < hi <= Fraction(above_cut, 2**512)


def test_bernoulli_real_with_dyadic_p() -> None:
    """For an exact p = 1/2 (a constant enclosure) the draw is the first bit."""
    def half(n: int) -> tuple[Fraction, Fraction]:
        return Fraction(1, 2), Fraction(1, 2)

    source = ScriptedBits("0" + "1" * 63)
    assert bernoulli_real(source, half) is True and source.pos == 64
    source = ScriptedBits("1" + "0" * 63)
    assert bernoulli_real(source, half) is False and source.pos == 64
