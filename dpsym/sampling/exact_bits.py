r"""Exact random draws from fair random bits: integers and rationals only.

The primitives of the exact samplers (:mod:`dpsym.sampling.exact`). On the whole path from
random bits to a draw only Python integers and :class:`fractions.Fraction` are used: no
``float`` is ever created. Each primitive draws *exactly* from its law, given ideal random
bits.

Random bits
-----------
:class:`RandomBits` wraps ``rng``, one of

* a :class:`numpy.random.Generator` (or a :class:`numpy.random.BitGenerator`): only its raw
  64-bit integer output ``bit_generator.random_raw`` is used, never a float method, so a
  seeded generator makes the samples reproducible;
* a :class:`random.Random`-like object with ``getrandbits`` (e.g.
  :class:`random.SystemRandom`, the operating system's entropy, for deployment);
* ``None``: a fresh :class:`random.SystemRandom`.

The bits are read in blocks (1024 words from numpy, 4096 bits from ``getrandbits``) and
consumed from a buffer, so a generator advances by more than the bits actually used;
leftover bits are discarded when the :class:`RandomBits` is dropped.

The exact primitives
--------------------
* :meth:`RandomBits.below`: a uniform integer in :math:`\{0, \dots, n - 1\}` by rejection
  from :math:`\lceil \log_2 n \rceil` fresh bits (acceptance probability above 1/2).
* :func:`bernoulli_exp_neg`: :math:`\mathrm{Bernoulli}(e^{-\gamma})` for rational
  :math:`\gamma \ge 0` (Canonne, Kamath and Steinke 2020, Algorithm 1).
* :func:`geometric_exp_neg`: :math:`P(K = k) = (1 - e^{-\gamma}) e^{-\gamma k}`,
  :math:`k \ge 0`, for rational :math:`\gamma > 0` (the core of CKS Algorithm 2).
* :func:`bernoulli_real`: :math:`\mathrm{Bernoulli}(p)` for a real :math:`p` given by
  certified rational enclosures of increasing precision (lazy comparison of a uniform
  with :math:`p`); :func:`bernoulli_cuts`, the same on the integer thresholds
  (:func:`enclosure_cuts`, kept by :class:`EnclosureCuts`) of the enclosures.
* :func:`exp_neg_enclosure`: certified rational enclosures of :math:`e^{-x}`.

Limits: the running time is random (it is exact sampling, not constant-time code), so
these draws do not protect against timing side channels.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping
from fractions import Fraction
from functools import lru_cache
from typing import TypeVar

from dpsym.errors import DomainError

#: The outcome of a draw tabulated by :func:`_outcome_table`.
_T = TypeVar("_T")
#: Words requested from a numpy bit generator at a time.
_NUMPY_BLOCK = 1024
#: Bits requested from a ``getrandbits`` source at a time.
_GETRANDBITS_BLOCK = 4096
#: First precision (bits) of the certified enclosures used by :func:`bernoulli_real`.
_FIRST_PRECISION = 64
#: Bits added to the accumulator at a time: four 64-bit words.
_CHUNK_BITS = 256
_CHUNK_BYTES = _CHUNK_BITS // 8
_CHUNK = (1 << _CHUNK_BITS) - 1


# ---------------------------------------------------------------------- random bits
class RandomBits:
    r"""A buffered source of independent fair bits, read from integer output only.

    Parameters
    ----------
    rng : numpy.random.Generator, numpy.random.BitGenerator, random.Random or None
        The source (see the module docstring). ``None`` uses :class:`random.SystemRandom`.

    Notes
    -----
    The source's output is cut into 64-bit words (numpy's ``random_raw`` words as they
    are; ``getrandbits`` blocks split into words), the lowest bits first. :meth:`bits`
    takes the ``k`` lowest bits of a small integer accumulator, topped up with four words
    (256 bits, the first word lowest) at a time: the same stream as word by word, with
    fewer refills.
    """

    __slots__ = ("_acc", "_nbits", "_pos", "_refill", "_words")

    def __init__(self, rng: object = None) -> None:
        if rng is None:
            rng = random.SystemRandom()
        self._acc = 0
        self._nbits = 0
        self._words: list[int] = []
        self._pos = 0
        raw = None
        if hasattr(rng, "bit_generator"):
            raw = rng.bit_generator.random_raw
        elif hasattr(rng, "random_raw"):
            raw = rng.random_raw
        if raw is not None:
            def refill() -> list[int]:
                data = raw(_NUMPY_BLOCK).astype("<u8", copy=False).tobytes()
                return [int.from_bytes(data[i:i + _CHUNK_BYTES], "little")
                        for i in range(0, len(data), _CHUNK_BYTES)]
        elif hasattr(rng, "getrandbits"):
            getrandbits = rng.getrandbits

            def refill() -> list[int]:
                block = getrandbits(_GETRANDBITS_BLOCK)
                return [(block >> (_CHUNK_BITS * i)) & _CHUNK
                        for i in range(_GETRANDBITS_BLOCK // _CHUNK_BITS)]
        else:
            raise DomainError(
                "rng", "expected a numpy Generator or BitGenerator, an object with "
                f"getrandbits (random.SystemRandom), or None; got {type(rng).__name__}")
        self._refill = refill

    def bits(self, k: int) -> int:
        """``k`` fresh fair bits as an integer in :math:`[0, 2^k)`."""
        acc, nbits = self._acc, self._nbits
        if nbits < k:
            words, pos = self._words, self._pos
            while nbits < k:
                if pos == len(words):
                    words, pos = self._refill(), 0
                    self._words = words
                acc |= words[pos] << nbits
                pos += 1
                nbits += _CHUNK_BITS
            self._pos = pos
        self._acc, self._nbits = acc >> k, nbits - k
        return acc & ((1 << k) - 1)

    def bit(self) -> int:
        """One fair bit: :meth:`below` ``(2)`` (the same bit), read from the accumulator
        directly when it holds one."""
        nbits = self._nbits
        if nbits:
            acc = self._acc
            self._acc, self._nbits = acc >> 1, nbits - 1
            return acc & 1
        return self.below(2)

    def below(self, n: int) -> int:
        r"""A uniform integer in :math:`\{0, \dots, n - 1\}`, ``n >= 1``.

        Rejection sampling: draw :math:`\ell = \lceil \log_2 n \rceil` bits, a uniform
        integer in :math:`[0, 2^\ell)`, and accept it if it is below :math:`n`. Every
        accepted value has probability :math:`2^{-\ell}` per round, so the output is
        exactly uniform; a round succeeds with probability :math:`n / 2^\ell > 1/2`.
        """
        if n == 1:
            return 0
        ell = (n - 1).bit_length()
        mask = (1 << ell) - 1
        while True:
            nbits = self._nbits
            if nbits >= ell:  # :meth:`bits` inlined: the bits already in the accumulator
                acc = self._acc
                v = acc & mask
                self._acc = acc >> ell
                self._nbits = nbits - ell
            else:
                v = self.bits(ell)
            if v < n:
                return v


#: What the primitives need from a source: ``below(n)`` (and ``bits(k)`` for
#: :func:`bernoulli_real`).
Bits = RandomBits


def bernoulli_rational(source: Bits, num: int, den: int) -> bool:
    r""":math:`\mathrm{Bernoulli}(\mathrm{num}/\mathrm{den})`, :math:`0 \le \mathrm{num} \le
    \mathrm{den}`: a uniform integer below ``den`` compared with ``num``."""
    return source.below(den) < num


def _bernoulli_exp_neg_unit(source: Bits, num: int, den: int) -> bool:
    r""":math:`\mathrm{Bernoulli}(e^{-\gamma})` for :math:`\gamma = \mathrm{num}/\mathrm{den}
    \in [0, 1]` (CKS Algorithm 1, first part): :math:`K` counts up from 1 while a draw
    ``below(den * K) < num`` (:math:`A \sim \mathrm{Bernoulli}(\gamma / K)`) succeeds.

    The draws are :meth:`RandomBits.below`'s, in the same order, on the same bits; while
    the source's accumulator holds enough bits its rejection rounds run here, on local
    variables (the function is the innermost loop of every exact sampler), and otherwise
    ``source.below`` is called. (A source whose accumulator is empty, such as the tests'
    scripted ones, thus serves every draw through ``below``.) For a denominator up to
    :data:`_TABLE_DENS` (the geometric's coin :math:`e^{-1}` among them) the outcome on the
    next :data:`_TABLE_BITS` bits is looked up first (:func:`_coin_table`).
    """
    acc, nbits = source._acc, source._nbits
    if den <= _TABLE_DENS and nbits >= _TABLE_BITS:
        table = _TABLES[den][num]
        if table is None:
            _TABLES[den][num] = _BUILDING
            table = _TABLES[den][num] = _coin_table(num, den)
        known = table[acc & _TABLE_MASK]
        if known is not None:
            odd, used = known
            source._acc, source._nbits = acc >> used, nbits - used
            return odd
    k, n = 1, den
    while True:
        if n == 1:  # below(1) is 0 and reads no bit
            v = 0
        else:
            ell = (n - 1).bit_length()
            while True:
                if nbits < ell:
                    source._acc, source._nbits = acc, nbits
                    v = source.below(n)
                    acc, nbits = source._acc, source._nbits
                    break
                v = acc & ((1 << ell) - 1)
                acc >>= ell
                nbits -= ell
                if v < n:
                    break
        if v >= num:
            source._acc, source._nbits = acc, nbits
            return k & 1 == 1
        k += 1
        n += den


#: Bits of the patterns of :func:`_coin_table`.
_TABLE_BITS = 8
_TABLE_MASK = (1 << _TABLE_BITS) - 1


class _Pattern(RandomBits):
    """A source holding one ``width``-bit pattern and nothing more: a draw that needs more
    bits raises :class:`LookupError`."""

    __slots__ = ()

    def __init__(self, pattern: int, width: int = _TABLE_BITS) -> None:
        self._acc, self._nbits = pattern, width

    def below(self, n: int) -> int:
        raise LookupError(n)

    def bits(self, k: int) -> int:
        raise LookupError(k)


def _coin_table(num: int, den: int) -> list[tuple[bool, int] | None]:
    r"""For each :data:`_TABLE_BITS`-bit pattern (read from its lowest bit, as the
    accumulator gives its bits), the outcome of :func:`_bernoulli_exp_neg_unit` for
    ``num / den`` on those bits and the number of bits it reads, or ``None`` when it needs
    more bits than the pattern has. Computed by running the coin itself on each pattern
    (its table marked :data:`_BUILDING` meanwhile), so a lookup gives the coin's own
    outcome and consumption."""
    return _outcome_table(lambda source: _bernoulli_exp_neg_unit(source, num, den),
                          _TABLE_BITS)


def _outcome_table(draw: Callable[[RandomBits], _T], width: int
                   ) -> list[tuple[_T, int] | None]:
    """For each ``width``-bit pattern, ``draw``'s outcome on a source holding only those
    bits and the number of bits it read, or ``None`` where it needs more bits."""
    table: list[tuple[_T, int] | None] = []
    for pattern in range(1 << width):
        source = _Pattern(pattern, width)
        try:
            outcome = draw(source)
        except LookupError:
            table.append(None)
            continue
        table.append((outcome, width - source._nbits))
    return table


#: The largest denominator of the coins with a table.
_TABLE_DENS = 8
#: The table of a coin being computed: no pattern known.
_BUILDING: list[tuple[bool, int] | None] = [None] * (1 << _TABLE_BITS)
#: :func:`_coin_table` by denominator and numerator, computed on first use.
_TABLES: list[list[list[tuple[bool, int] | None] | None]] = [
    [None] * (den + 1) for den in range(_TABLE_DENS + 1)]


def bernoulli_exp_neg(source: Bits, gamma: Fraction) -> bool:
    r"""Draw :math:`\mathrm{Bernoulli}(e^{-\gamma})` exactly, for rational :math:`\gamma \ge 0`.

    Canonne, Kamath and Steinke (2020), Algorithm 1. For :math:`\gamma \in [0, 1]`: set
    :math:`K = 1` and, while a :math:`\mathrm{Bernoulli}(\gamma / K)` draw is 1, increase
    :math:`K`; return 1 iff :math:`K` is odd. Since
    :math:`P(K > k) = \gamma^k / k!`,

    .. math::

       P(K \text{ odd}) = \sum_{k \text{ odd}} \Bigl(\frac{\gamma^{k-1}}{(k-1)!}
       - \frac{\gamma^k}{k!}\Bigr) = \sum_{j \ge 0} \frac{(-\gamma)^j}{j!} = e^{-\gamma}.

    For :math:`\gamma > 1`, :math:`e^{-\gamma} = (e^{-1})^{\lfloor \gamma \rfloor}
    e^{-(\gamma - \lfloor \gamma \rfloor)}`: the product of independent draws, stopped at
    the first 0 (expected number of draws below :math:`1/(1 - e^{-1}) \approx 1.6`).

    Parameters
    ----------
    source : RandomBits
        The bit source.
    gamma : Fraction
        :math:`\gamma \ge 0`.

    Returns
    -------
    bool
        ``True`` with probability :math:`e^{-\gamma}`.
    """
    num, den = gamma.numerator, gamma.denominator
    whole, rest = divmod(num, den)
    i = 0
    while i < whole:
        if not _bernoulli_exp_neg_unit(source, 1, 1):
            return False
        i += 1
    return _bernoulli_exp_neg_unit(source, rest, den)


def geometric_exp_neg_ratio(source: Bits, s: int, t: int) -> int:
    r""":func:`geometric_exp_neg` for :math:`\gamma = s / t` given as the integers
    :math:`s, t \ge 1` (lowest terms).

    The uniform :math:`U` is ``source.below(t)``, its rejection rounds run here while the
    accumulator holds enough bits (as in :func:`_bernoulli_exp_neg_unit`: the same draws
    on the same bits). For :math:`t \le` :data:`_TABLE_DENS`, :math:`U + tV` on the next
    :data:`_GEOMETRIC_BITS` bits is looked up first (:func:`_geometric_table`)."""
    nbits = source._nbits
    if t <= _TABLE_DENS and nbits >= _GEOMETRIC_BITS:
        table = _GEOMETRIC_TABLES[t]
        if table is None:
            _GEOMETRIC_TABLES[t] = _GEOMETRIC_BUILDING
            table = _GEOMETRIC_TABLES[t] = _geometric_table(t)
        acc = source._acc
        known = table[acc & _GEOMETRIC_MASK]
        if known is not None:
            x, used = known
            source._acc, source._nbits = acc >> used, nbits - used
            return x // s
    if t == 1:  # U = 0, kept with probability e^0 = 1 by a coin that reads no bit
        u = 0
    else:
        ell = (t - 1).bit_length()
        mask = (1 << ell) - 1
        while True:
            while True:
                nbits = source._nbits
                if nbits < ell:
                    u = source.below(t)
                    break
                acc = source._acc
                u = acc & mask
                source._acc, source._nbits = acc >> ell, nbits - ell
                if u < t:
                    break
            if _bernoulli_exp_neg_unit(source, u, t):
                break
    v = 0
    while _bernoulli_exp_neg_unit(source, 1, 1):
        v += 1
    return (u + t * v) // s


def _geometric_table(t: int) -> list[tuple[int, int] | None]:
    """For each :data:`_GEOMETRIC_BITS`-bit pattern (read from its lowest bit), the
    :math:`U + tV` that :func:`geometric_exp_neg_ratio` draws on those bits (with
    :math:`s = 1`) and the number of bits it reads, or ``None`` when it needs more bits.
    Computed by running the draw itself on each pattern (its table marked
    :data:`_GEOMETRIC_BUILDING` meanwhile), as :func:`_coin_table`."""
    return _outcome_table(lambda source: geometric_exp_neg_ratio(source, 1, t),
                          _GEOMETRIC_BITS)


#: Bits of the patterns of :func:`_geometric_table`.
_GEOMETRIC_BITS = 12
_GEOMETRIC_MASK = (1 << _GEOMETRIC_BITS) - 1
#: The table of a geometric being computed: no pattern known.
_GEOMETRIC_BUILDING: list[tuple[int, int] | None] = [None] * (1 << _GEOMETRIC_BITS)
#: :func:`_geometric_table` by denominator, computed on first use.
_GEOMETRIC_TABLES: list[list[tuple[int, int] | None] | None] = [None] * (_TABLE_DENS + 1)


def geometric_exp_neg(source: Bits, gamma: Fraction) -> int:
    r"""Draw :math:`K \ge 0` with :math:`P(K = k) = (1 - e^{-\gamma}) e^{-\gamma k}` exactly.

    The core of Canonne, Kamath and Steinke (2020), Algorithm 2, with
    :math:`\gamma = s / t` in lowest terms: draw :math:`U` uniform on
    :math:`\{0, \dots, t - 1\}` and keep it with probability :math:`e^{-U/t}` (else start
    again); draw :math:`V \ge 0` geometric with ratio :math:`e^{-1}` (count the 1s of
    :math:`\mathrm{Bernoulli}(e^{-1})` draws before the first 0); return
    :math:`\lfloor (U + tV)/s \rfloor`.

    *Proof.* Every :math:`x \ge 0` is :math:`U + tV` for exactly one pair, so
    :math:`P(U + tV = x) \propto e^{-U/t} e^{-V} = e^{-x/t}`: a geometric law of ratio
    :math:`e^{-1/t}`. Grouping :math:`x` into blocks :math:`\{ks, \dots, ks + s - 1\}`
    gives :math:`P(K = k) \propto e^{-ks/t} \sum_{j < s} e^{-j/t} \propto e^{-\gamma k}`.
    ∎

    Parameters
    ----------
    source : RandomBits
        The bit source.
    gamma : Fraction
        :math:`\gamma > 0`.

    Returns
    -------
    int
        :math:`K`.
    """
    return geometric_exp_neg_ratio(source, gamma.numerator, gamma.denominator)


def bernoulli_real(source: Bits, enclosure: Callable[[int], tuple[Fraction, Fraction]]
                   ) -> bool:
    r"""Draw :math:`\mathrm{Bernoulli}(p)` for a real :math:`p \in [0, 1]` known by enclosures.

    ``enclosure(n)`` returns rationals :math:`\ell_n \le p \le h_n` with
    :math:`h_n - \ell_n \to 0` as the precision :math:`n` (bits) grows. A uniform
    :math:`U \in [0, 1)` is revealed bit by bit, :math:`n` bits at a time
    (:math:`n = 64, 128, 256, \dots`): with the first :math:`n` bits forming :math:`u`,
    :math:`U \in [u 2^{-n}, (u + 1) 2^{-n})`. The draw returns 1 as soon as
    :math:`(u + 1) 2^{-n} \le \ell_n` (then :math:`U < p`) and 0 as soon as
    :math:`u 2^{-n} \ge h_n` (then :math:`U \ge p`). Hence the result is the indicator of
    :math:`U < p` whenever the procedure stops, which it does with probability 1 (the
    undecided event shrinks to :math:`U = p`, of probability 0); so :math:`P(1) = p`
    exactly. It continues past :math:`n` bits with probability at most
    :math:`h_n - \ell_n + 2^{-n + 1}`, so the expected number of bits is about 64.

    Parameters
    ----------
    source : RandomBits
        The bit source.
    enclosure : callable
        ``enclosure(n) -> (lower, upper)``, certified rational bounds on :math:`p`.

    Returns
    -------
    bool
        ``True`` with probability :math:`p`.
    """
    return bernoulli_cuts(source, EnclosureCuts(enclosure))


def enclosure_cuts(lower: Fraction, upper: Fraction, n: int) -> tuple[int, int]:
    r"""The integer thresholds of :func:`bernoulli_real`'s decisions on :math:`n` bits.

    For an integer :math:`u`, :math:`(u + 1) 2^{-n} \le \ell` iff :math:`u + 1 \le
    \lfloor \ell 2^n \rfloor`, i.e. :math:`u < a = \lfloor \ell 2^n \rfloor`, and
    :math:`u 2^{-n} \ge h` iff :math:`u \ge b = \lceil h 2^n \rceil`.

    Parameters
    ----------
    lower, upper : Fraction
        The enclosure :math:`\ell \le p \le h`.
    n : int
        The number of bits of :math:`u`.

    Returns
    -------
    tuple of int
        :math:`(a, b)`.
    """
    return ((lower.numerator << n) // lower.denominator,
            -((-upper.numerator << n) // upper.denominator))


class EnclosureCuts(dict[int, tuple[int, int]]):
    """:func:`enclosure_cuts` of an enclosure by precision, computed on first use:
    ``cuts[n]`` for ``enclosure(n)``.

    Parameters
    ----------
    enclosure : callable
        ``enclosure(n) -> (lower, upper)``, as for :func:`bernoulli_real`.
    """

    __slots__ = ("enclosure",)

    def __init__(self, enclosure: Callable[[int], tuple[Fraction, Fraction]]) -> None:
        super().__init__()
        self.enclosure = enclosure

    def __missing__(self, n: int) -> tuple[int, int]:
        found = self[n] = enclosure_cuts(*self.enclosure(n), n)
        return found


def bernoulli_cuts(source: Bits, cuts: Mapping[int, tuple[int, int]]) -> bool:
    r""":func:`bernoulli_real` with the enclosures given by their thresholds:
    ``cuts[n]`` is :func:`enclosure_cuts` of the enclosure at precision :math:`n`
    (:class:`EnclosureCuts`; a sampler keeps them, so that a draw compares integers only).

    Parameters
    ----------
    source : RandomBits
        The bit source.
    cuts : mapping
        ``cuts[n] = (a, b)``: 1 when the first :math:`n` bits :math:`u` have
        :math:`u < a`, 0 when :math:`u \ge b`, else the next :math:`n` bits are read.

    Returns
    -------
    bool
        ``True`` with probability :math:`p`.
    """
    n = _FIRST_PRECISION
    nbits = source._nbits
    if nbits >= n:  # :meth:`RandomBits.bits` inlined: the bits already in the accumulator
        acc = source._acc
        u = acc & ((1 << n) - 1)
        source._acc, source._nbits = acc >> n, nbits - n
    else:
        u = source.bits(n)
    while True:
        below_cut, above_cut = cuts[n]
        if u < below_cut:
            return True
        if u >= above_cut:
            return False
        u = (u << n) | source.bits(n)
        n *= 2


# ---------------------------------------------------------------------- e^{-x}, certified
@lru_cache(maxsize=256)
def exp_neg_enclosure(x: Fraction, bits: int) -> tuple[Fraction, Fraction]:
    r"""Rationals :math:`\ell \le e^{-x} \le h` with :math:`h - \ell \le 2^{-\mathrm{bits}}`.

    Integer arithmetic only. For :math:`x \ge \mathrm{bits}`,
    :math:`0 < e^{-x} \le e^{-\mathrm{bits}} < 2^{-\mathrm{bits}}`. Otherwise
    :math:`e^{x}` is enclosed from its Taylor series in fixed point with :math:`W` bits:
    the terms :math:`t_j = t_{j-1} x / j` are rounded down for the lower sum and up for
    the upper sum; summation stops at a term :math:`t_N \le 1` (one unit) with
    :math:`N + 1 \ge 2x`, where the remaining tail is at most :math:`t_N` (ratio of
    consecutive terms at most 1/2), which is added to the upper sum. Inverting gives the
    enclosure of :math:`e^{-x}`; :math:`W` carries enough guard bits that its width is
    below :math:`2^{-\mathrm{bits}}`.

    Parameters
    ----------
    x : Fraction
        :math:`x \ge 0`.
    bits : int
        The absolute precision wanted.

    Returns
    -------
    tuple of Fraction
        :math:`(\ell, h)`.
    """
    if x >= bits:
        return Fraction(0), Fraction(1, 1 << bits)
    p, q = x.numerator, x.denominator
    guard = 16 + 2 * (int(x) + 2).bit_length()
    while True:
        width = bits + guard + 2 * int(x) + 8
        one = 1 << width
        lo_term = hi_term = one
        lo_sum = hi_sum = one
        j = 0
        while hi_term > 1 or j + 1 < 2 * x:
            j += 1
            lo_term = lo_term * p // (q * j)
            hi_term = -(-hi_term * p // (q * j))
            lo_sum += lo_term
            hi_sum += hi_term
        hi_sum += hi_term
        lower = Fraction(one, hi_sum)  # e^{-x} >= 2^W / upper(2^W e^x)
        upper = Fraction(one, lo_sum)
        if (upper - lower) * (1 << bits) <= 1:
            return lower, upper
        guard *= 2


__all__ = [
    "Bits",
    "EnclosureCuts",
    "RandomBits",
    "bernoulli_cuts",
    "bernoulli_exp_neg",
    "bernoulli_rational",
    "bernoulli_real",
    "enclosure_cuts",
    "exp_neg_enclosure",
    "geometric_exp_neg",
    "geometric_exp_neg_ratio",
]
