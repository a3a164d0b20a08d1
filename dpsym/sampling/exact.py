r"""Exact samplers for the integer-valued mechanisms: integers and rationals only.

The float samplers of :mod:`dpsym.sampling.samplers` are **not hardened against floating-point
attacks** (Mironov, CCS 2012): they compute with IEEE doubles, whose rounding and low-order
bits can leak the true query value. The samplers here are the exact alternative for the
integer-valued mechanisms. On the whole path from random bits to the output only Python
integers and :class:`fractions.Fraction` are used: no ``float`` is ever created (a test
traces every frame of this module and of :mod:`dpsym.sampling.exact_bits` and checks it). Each
sampler draws *exactly* from the mechanism's mass function, given ideal random bits.

Mechanisms
----------
* ``discrete-laplace``: :math:`P(i) \propto e^{-\varepsilon |i| / \Delta}` on
  :math:`\mathbb{Z}` (Canonne, Kamath and Steinke 2020, Algorithm 2).
* ``discrete-staircase``: for :math:`i = k\Delta + j \ge 0`, :math:`0 \le j < \Delta`,
  :math:`P(i) = a(r) b^k` if :math:`j < r` and :math:`a(r) b^{k+1}` otherwise,
  :math:`b = e^{-\varepsilon}`, and :math:`P(-i) = P(i)`; see
  :mod:`dpsym.mechanisms.discrete_staircase`.
* ``discrete-uniform``: the :math:`(0, \delta)` uniform noise mechanism, uniform on
  :math:`n = \lceil \Delta/\delta \rceil` consecutive integers and symmetrised:
  :math:`P(i) = 1/n` for :math:`|i| < n/2`, :math:`1/(2n)` at :math:`|i| = n/2` (see
  :class:`DiscreteUniformExact`).

The random source
-----------------
Every public function takes ``rng``, one of

* a :class:`numpy.random.Generator` (or a :class:`numpy.random.BitGenerator`): only its raw
  64-bit integer output ``bit_generator.random_raw`` is used, never a float method, so a
  seeded generator makes the samples reproducible;
* a :class:`random.Random`-like object with ``getrandbits`` (e.g.
  :class:`random.SystemRandom`, the operating system's entropy, for deployment);
* ``None``: a fresh :class:`random.SystemRandom`.

The bits are read in blocks (1024 words from numpy, 4096 bits from ``getrandbits``) and
consumed from a buffer, so a generator advances by more than the bits actually used;
leftover bits are discarded at the end of each call.

Primitives
----------
The draws are composed from the exact primitives of :mod:`dpsym.sampling.exact_bits` (re-exported
here): :class:`RandomBits` (uniform integers by rejection), :func:`bernoulli_exp_neg`
(:math:`\mathrm{Bernoulli}(e^{-\gamma})`, CKS Algorithm 1), :func:`geometric_exp_neg`
(:math:`P(K = k) = (1 - e^{-\gamma}) e^{-\gamma k}`, the core of CKS Algorithm 2) and
:func:`bernoulli_real` (:math:`\mathrm{Bernoulli}(p)` from certified enclosures of a real
:math:`p`, used for the staircase's choice between the two parts of a period, with
:func:`exp_neg_enclosure`).

Limits: the running time is random (it is exact sampling, not constant-time code), so
these samplers do not protect against timing side channels.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from functools import cached_property, lru_cache
from numbers import Integral

import numpy as np

from dpsym.core.params import EPS_MAX, parse_number
from dpsym.errors import DomainError
from dpsym.sampling.exact_bits import (
    Bits,
    EnclosureCuts,
    RandomBits,
    bernoulli_cuts,
    bernoulli_exp_neg,
    bernoulli_rational,
    bernoulli_real,
    exp_neg_enclosure,
    geometric_exp_neg,
    geometric_exp_neg_ratio,
)

#: The mechanisms with an exact sampler, by CLI name.
EXACT_MECHANISMS = ("discrete-laplace", "discrete-staircase", "discrete-uniform")

# ---------------------------------------------------------------------- parameters
def _rational(value: object, name: str) -> Fraction:
    """An exact rational by the package's input rule (:func:`dpsym.core.params.parse_number`:
    a float is the decimal it prints as, ``0.1`` is 1/10)."""
    return parse_number(value, name)


def check_eps(value: object) -> Fraction:
    r""":math:`\varepsilon` as an exact rational in :math:`(0, 10^{100}]`."""
    eps = _rational(value, "eps")
    if not 0 < eps <= EPS_MAX:
        raise DomainError("eps", f"must be a rational number in (0, 1e100], got {eps}")
    return eps


def check_delta(value: object) -> Fraction:
    r""":math:`\delta` as an exact rational in :math:`(0, 1)`."""
    delta = _rational(value, "delta")
    if not 0 < delta < 1:
        raise DomainError("delta", f"must be a rational number in (0, 1), got {delta}")
    return delta


def check_integer(value: object, name: str, lower: int, upper: int | None = None) -> int:
    """An integer in ``[lower, upper]`` (a :class:`DomainError` naming ``name`` otherwise)."""
    where = f"an integer >= {lower}" if upper is None else \
        f"an integer in [{lower}, {upper}]"
    if isinstance(value, bool):
        raise DomainError(name, f"must be {where}, got {value!r}")
    number = parse_number(value, name) if not isinstance(value, Integral) \
        else Fraction(int(value))
    if number.denominator != 1 or number < lower or (upper is not None and number > upper):
        raise DomainError(name, f"must be {where}, got {number}")
    return int(number)


def _check_size(size: object) -> tuple[int, ...]:
    shape = size if isinstance(size, tuple) else (size,)
    out = []
    for n in shape:
        if isinstance(n, bool) or not isinstance(n, Integral) or n < 0:
            raise DomainError("size", "must be a non-negative integer or a tuple of "
                              f"non-negative integers, got {size!r}")
        out.append(int(n))
    return tuple(out)


# ---------------------------------------------------------------------- samplers
class ExactSampler:
    """Base class: ``draw(source)`` gives one exact sample as a Python ``int``."""

    name: str = ""

    def draw(self, source: Bits) -> int:
        """One sample, drawn from ``source``."""
        raise NotImplementedError

    def sample(self, rng: object, size: int | tuple[int, ...] = 1) -> np.ndarray:
        """An ``int64`` array of shape ``size`` of independent exact samples.

        Raises
        ------
        DomainError
            For a negative or non-integer ``size``.
        OverflowError
            If a sample does not fit in int64 (only for noise of scale near
            :math:`2^{63}`; :meth:`draw` returns Python integers of any size).
        """
        shape = _check_size(size)
        count = 1
        for n in shape:
            count *= n
        source = RandomBits(rng)
        draw = self.draw
        values = [draw(source) for _ in range(count)]
        try:
            out = np.array(values, dtype=np.int64)
        except OverflowError:
            raise OverflowError(f"{self.name}: a sample does not fit in int64; use draw() "
                                "for Python integers") from None
        return out.reshape(shape)

    def __call__(self, rng: object, size: int | tuple[int, ...] = 1) -> np.ndarray:
        return self.sample(rng, size)


@dataclass(frozen=True)
class DiscreteLaplaceExact(ExactSampler):
    r"""Exact discrete Laplace noise: :math:`P(i) = \frac{1 - \lambda}{1 + \lambda}
    \lambda^{|i|}`, :math:`\lambda = e^{-\varepsilon/\Delta}`, :math:`i \in \mathbb{Z}`.

    Canonne, Kamath and Steinke (2020), Algorithm 2 with scale :math:`t/s = \Delta /
    \varepsilon`: draw :math:`Y \ge 0` with :math:`P(Y = y) \propto \lambda^y`
    (:func:`geometric_exp_neg` with :math:`\gamma = \varepsilon/\Delta`) and a fair sign;
    if :math:`Y = 0` with the negative sign, start again. Each :math:`i \ne 0` is then
    reached by one (value, sign) pair of weight :math:`\lambda^{|i|}/2` and 0 by one pair
    of weight :math:`1/2`, so :math:`P(i) \propto \lambda^{|i|}` and the origin is not
    counted twice.

    Parameters
    ----------
    eps : Fraction
        :math:`\varepsilon > 0`, exact.
    Delta : int
        The integer sensitivity :math:`\Delta \ge 1`.
    """

    eps: Fraction
    Delta: int
    name = "discrete-laplace"

    def __post_init__(self) -> None:
        object.__setattr__(self, "eps", check_eps(self.eps))
        object.__setattr__(self, "Delta", check_integer(self.Delta, "Delta", 1))

    @cached_property
    def _ratio(self) -> tuple[int, int]:
        r""":math:`\gamma = \varepsilon/\Delta` as (numerator, denominator)."""
        gamma = self.eps / self.Delta
        return gamma.numerator, gamma.denominator

    def draw(self, source: Bits) -> int:
        s, t = self._ratio
        while True:
            y = geometric_exp_neg_ratio(source, s, t)
            negative = source.bit() == 1
            if negative and y == 0:
                continue
            return -y if negative else y


@dataclass(frozen=True)
class DiscreteStaircaseExact(ExactSampler):
    r"""Exact discrete staircase noise with step :math:`r \in \{1, \dots, \Delta\}`.

    With :math:`b = e^{-\varepsilon}`, :math:`m = \Delta - r` and :math:`i = k\Delta + j`
    (:math:`k \ge 0`, :math:`0 \le j < \Delta`), the weight of :math:`i \ge 0` is
    :math:`w(i) = b^k` for :math:`j < r` and :math:`b^{k+1}` for :math:`j \ge r`, and
    :math:`P(\pm i) = a(r) w(i)`.

    Algorithm (one attempt; start again when the last step rejects):

    1. :math:`K` geometric, :math:`P(K = k) = (1 - b) b^k` (:func:`geometric_exp_neg`
       with :math:`\gamma = \varepsilon`);
    2. the part: the first (:math:`j < r`) with probability
       :math:`p = r / (r + m b)`, else the second (:func:`bernoulli_cuts`, the lazy
       comparison of :func:`bernoulli_real`, on the thresholds of certified enclosures of
       :math:`p` from :func:`exp_neg_enclosure`, kept by the sampler);
    3. :math:`J` uniform on the chosen part, :math:`\{0, \dots, r-1\}` or
       :math:`\{r, \dots, \Delta - 1\}`;
    4. a fair sign; :math:`Y = K\Delta + J`; if :math:`Y = 0` with the negative sign,
       reject.

    *Proof.* Steps 1–3 give :math:`Y = y \ge 0` with probability
    :math:`(1 - b) b^k \cdot \frac{r}{r + mb} \cdot \frac1r = \frac{(1-b)}{r + mb} b^k`
    for :math:`j < r` and :math:`(1 - b) b^k \cdot \frac{mb}{r + mb} \cdot \frac1m =
    \frac{(1-b)}{r + mb} b^{k+1}` for :math:`j \ge r`: that is
    :math:`\frac{1 - b}{r + mb} w(y)`. The pair (:math:`Y`, sign) reaches :math:`i \ne 0`
    in exactly one way, with probability :math:`\frac{1-b}{2(r + mb)} w(|i|)`, and
    :math:`0` in exactly one way (positive sign), with probability
    :math:`\frac{1-b}{2(r+mb)} w(0)`. Conditioning on acceptance,
    :math:`P(i) \propto w(|i|)` for every :math:`i \in \mathbb{Z}`, which is the
    definition; in particular :math:`P(0) = a(r) = \bigl(2\frac{r + mb}{1 - b} -
    1\bigr)^{-1}`, not twice that. The acceptance probability is
    :math:`1 - \frac{1-b}{2(r+mb)} \ge 1/2`. ∎

    Why step 2 is not a composition of :math:`\mathrm{Bernoulli}(b)` draws: the obvious
    one (draw :math:`J` uniform on :math:`\{0, \dots, \Delta - 1\}`, keep it if
    :math:`J < r`, else keep it with probability :math:`b`) is exact but needs
    :math:`\Delta / (r + mb)` rounds on average, about :math:`\Delta` when :math:`r^* = 1`
    and :math:`\varepsilon` is large. The lazy comparison costs about 64 bits whatever
    the parameters. The enclosure of :math:`p` follows from the one of :math:`b`, since
    :math:`p` decreases in :math:`b`: :math:`r/(r + m h) \le p \le r/(r + m \ell)`.

    Parameters
    ----------
    eps : Fraction
        :math:`\varepsilon > 0`, exact.
    Delta : int
        The integer sensitivity :math:`\Delta \ge 1`.
    r : int
        The step length, :math:`1 \le r \le \Delta`.
    """

    eps: Fraction
    Delta: int
    r: int
    name = "discrete-staircase"

    def __post_init__(self) -> None:
        object.__setattr__(self, "eps", check_eps(self.eps))
        delta_ = check_integer(self.Delta, "Delta", 1)
        object.__setattr__(self, "Delta", delta_)
        object.__setattr__(self, "r", check_integer(self.r, "r", 1, delta_))

    def first_part_enclosure(self, bits: int) -> tuple[Fraction, Fraction]:
        r"""Certified bounds on :math:`p = r / (r + (\Delta - r) e^{-\varepsilon})`,
        of width at most :math:`2^{-\mathrm{bits}}`."""
        return _part_enclosure(self.eps, self.r, self.Delta - self.r, bits)

    @cached_property
    def part_cuts(self) -> EnclosureCuts:
        """The thresholds (:func:`enclosure_cuts`) of :meth:`first_part_enclosure` by
        precision, computed as the draws ask for them and kept."""
        return EnclosureCuts(self.first_part_enclosure)

    @cached_property
    def _constants(self) -> tuple[int, int, int, int, int, EnclosureCuts]:
        r""":math:`\varepsilon = s/t`, :math:`r`, :math:`m = \Delta - r`, :math:`\Delta`
        and :attr:`part_cuts`, as :meth:`draw` uses them."""
        return (self.eps.numerator, self.eps.denominator, self.r, self.Delta - self.r,
                self.Delta, self.part_cuts)

    def draw(self, source: Bits) -> int:
        s, t, r, m, period, cuts = self._constants
        while True:
            k = geometric_exp_neg_ratio(source, s, t)
            if m == 0 or bernoulli_cuts(source, cuts):
                j = source.below(r)
            else:
                j = r + source.below(m)
            y = k * period + j
            negative = source.bit() == 1
            if negative and y == 0:
                continue
            return -y if negative else y


@lru_cache(maxsize=512)
def _part_enclosure(eps: Fraction, r: int, m: int, bits: int) -> tuple[Fraction, Fraction]:
    r"""Bounds on :math:`p = r/(r + m e^{-\varepsilon})`. Since :math:`|dp/db| \le m/r \le
    \Delta`, an enclosure of :math:`b` of width :math:`2^{-\mathrm{bits} - 2\ell - 2}`,
    :math:`\ell` the bit length of :math:`\Delta = r + m`, gives one of :math:`p` of width
    below :math:`2^{-\mathrm{bits}}`."""
    lo_b, hi_b = exp_neg_enclosure(eps, bits + 2 * (r + m).bit_length() + 2)
    return Fraction(r) / (r + m * hi_b), Fraction(r) / (r + m * lo_b)


def uniform_support_size(delta: Fraction, Delta: int) -> int:
    r"""The support size :math:`n = \lceil \Delta/\delta \rceil` of the discrete uniform
    :math:`(0, \delta)` mechanism (:class:`dpsym.mechanisms.DiscreteUniform`)."""
    return -((-Fraction(Delta)) // delta)


@dataclass(frozen=True)
class DiscreteUniformExact(ExactSampler):
    r"""Exact discrete uniform noise for :math:`(0, \delta)`-DP with integer sensitivity.

    The law of :class:`dpsym.mechanisms.DiscreteUniform`: the uniform distribution on the
    :math:`n = \lceil \Delta/\delta \rceil` integers
    :math:`-\lfloor n/2 \rfloor, \dots, n - 1 - \lfloor n/2 \rfloor`, symmetrised (averaged
    with its mirror image): :math:`P(i) = 1/n` for :math:`|i| < n/2` and :math:`1/(2n)` at
    :math:`|i| = n/2` (even :math:`n`).

    Sampling: a fair sign bit :math:`s` and a uniform integer :math:`j < n`
    (:meth:`RandomBits.below`); the output is :math:`(-1)^s (j - \lfloor n/2 \rfloor)`,
    exactly the mixture of the uniform law and its mirror.

    Parameters
    ----------
    delta : Fraction
        :math:`\delta \in (0, 1)`, exact.
    Delta : int
        The integer sensitivity :math:`\Delta \ge 1`.
    """

    delta: Fraction
    Delta: int
    name = "discrete-uniform"

    def __post_init__(self) -> None:
        object.__setattr__(self, "delta", check_delta(self.delta))
        object.__setattr__(self, "Delta", check_integer(self.Delta, "Delta", 1))

    @cached_property
    def support_size(self) -> int:
        """:math:`n`."""
        return uniform_support_size(self.delta, self.Delta)

    def draw(self, source: Bits) -> int:
        n = self.support_size
        value = source.below(n) - n // 2
        return -value if source.bit() else value


__all__ = [
    "EXACT_MECHANISMS",
    "DiscreteLaplaceExact",
    "DiscreteStaircaseExact",
    "DiscreteUniformExact",
    "ExactSampler",
    "RandomBits",
    "bernoulli_exp_neg",
    "bernoulli_rational",
    "bernoulli_real",
    "check_delta",
    "check_eps",
    "check_integer",
    "exp_neg_enclosure",
    "geometric_exp_neg",
    "uniform_support_size",
]
