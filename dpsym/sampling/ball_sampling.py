r"""Exact vectorised sampling of the :math:`d`-dimensional staircase as a mixture of balls.

The :math:`d`-dimensional staircase density (:mod:`dpsym.mechanisms.staircase_md`) is a
mixture of uniform laws on :math:`\ell^1` balls; :class:`BallMixtureSampler` draws from it
exactly (up to float64 rounding of the constants), vectorised over the sample, given
:math:`d`, :math:`\varepsilon`, :math:`\Delta` and :math:`\gamma`.
"""

from __future__ import annotations

import math
from fractions import Fraction
from functools import cache

import mpmath
import numpy as np

from dpsym.errors import DomainError
from dpsym.precision import workdps
from dpsym.sampling.checks import REACH_MAX, check_rng, check_size
from dpsym.symbolic.l1 import power_geometric_sums_numeric, shifted_power_sums_numeric

#: The table of the period index covers :math:`K < N` with :math:`N + 1` a power of two
#: between these bounds, the smallest whose remaining mass is below :data:`_TAIL_MASS`.
_TABLE_MIN, _TABLE_MAX = 64, 2**16
_TAIL_MASS = mpmath.mpf(2) ** -50
#: Up to this dimension the unit ball is sampled from sorted uniforms, above it from
#: normalised exponentials.
_SORTED_MAX_DIM = 5
#: Vectors drawn per block.
_BLOCK = 2**14


@cache
def ball_sampler(d: int, eps_value: Fraction, Delta_value: Fraction,
                 gamma_value: Fraction) -> BallMixtureSampler:
    """The (cached) :class:`BallMixtureSampler` of these parameters."""
    return BallMixtureSampler(d, eps_value, Delta_value, gamma_value)


def _alias_table(p: list[float]) -> tuple[np.ndarray, np.ndarray]:
    """Walker's alias table of the probabilities ``p`` (``len(p)`` a power of two):
    (threshold, alias) with slot ``j`` kept when a uniform is below ``threshold[j]``."""
    m = len(p)
    scaled = [v * m for v in p]
    threshold = [1.0] * m
    alias = list(range(m))
    small = [j for j, v in enumerate(scaled) if v < 1.0]
    large = [j for j, v in enumerate(scaled) if v >= 1.0]
    while small and large:
        j, big = small.pop(), large[-1]
        threshold[j], alias[j] = scaled[j], big
        scaled[big] -= 1.0 - scaled[j]
        if scaled[big] < 1.0:
            large.pop()
            small.append(big)
    return np.array(threshold), np.array(alias, dtype=np.intp)


class BallMixtureSampler:
    r"""Exact vectorised sampler of the :math:`d`-dimensional staircase density.

    The profile is a sum of downward steps at the radii :math:`(k + \gamma)\Delta`, each
    of height :math:`a b^k (1 - b)` (a staircase has no jump at :math:`(k + 1)\Delta`):

    .. math::

       f_\gamma(x) = a (1 - b) \sum_{k \ge 0} b^k\,
           \mathbf{1}\bigl\{\|x\|_1 < (k + \gamma)\Delta\bigr\},

    so :math:`X = (K + \gamma)\Delta\, V` with :math:`V` uniform on the unit
    :math:`\ell^1` ball and :math:`P(K = k) \propto b^k (k + \gamma)^d` (the volume
    :math:`(2(k + \gamma)\Delta)^d/d!` of the :math:`k`-th ball times its weight). The
    normalisation is :math:`S_d(\gamma) = \sum_k b^k (k + \gamma)^d`, that of
    :math:`a(\gamma)`.

    * :math:`K < N` by Walker's alias method over :math:`N + 1` slots (a power of two,
      so that the slot and the uniform deciding between it and its alias come exactly
      from one uniform); the last slot is the tail :math:`K \ge N`, of mass
      :math:`b^N S_d(N + \gamma)`.
    * The tail (rare; all of it never below :math:`2^{-50}` unless
      :math:`N = 2^{16} - 1`): with :math:`c = N + \gamma`, a variable :math:`G \ge c` of
      density :math:`\propto y^d e^{-\varepsilon y}` is :math:`c + Z` with :math:`Z` the
      mixture of :math:`\Gamma(j + 1)/\varepsilon`, :math:`j = 0, \dots, d`, with weights
      :math:`\binom{d}{j} c^{d-j} j!/\varepsilon^{j+1}` (the binomial expansion of
      :math:`(c + z)^d`); then :math:`K = \lfloor G - \gamma \rfloor` is accepted with
      probability :math:`((K + \gamma)/G)^d \ge (c/(c + 1))^d`. The accepted
      :math:`K = k` has probability :math:`\propto (k + \gamma)^d
      \int_{k+\gamma}^{k+\gamma+1} e^{-\varepsilon y}\,dy \propto b^k (k + \gamma)^d`.
    * :math:`V`: for :math:`d \le 5` the spacings :math:`U_{(1)}, U_{(2)} - U_{(1)}, \dots,
      U_{(d)} - U_{(d-1)}` of :math:`d` sorted uniforms (a sorting network of
      ``numpy.minimum``/``numpy.maximum``), above that :math:`E_i / (E_0 + \dots + E_d)`,
      :math:`i = 1, \dots, d`, for standard exponentials :math:`E`; either is uniform on
      :math:`\{v \ge 0, \sum v_i \le 1\}`. Independent fair signs are set on the sign
      bits.

    Parameters
    ----------
    d : int
        The dimension.
    eps_value, Delta_value, gamma_value : Fraction
        :math:`\varepsilon`, :math:`\Delta` and :math:`\gamma \in [0, 1]`.
    """

    def __init__(self, d: int, eps_value: Fraction, Delta_value: Fraction,
                 gamma_value: Fraction) -> None:
        if not 0 <= gamma_value <= 1:
            raise DomainError("gamma", "must lie in [0, 1]")
        if (d + 1) * Delta_value / eps_value > REACH_MAX:  # the radius is about d Delta/eps
            raise DomainError("eps/Delta", f"the float64 sampler draws noise of scale up to "
                              f"{REACH_MAX:.3g}, this noise has scale (d + 1) Delta/eps > "
                              f"{REACH_MAX:.3g}")
        self.d = d
        self.eps_f = float(eps_value)
        self.Delta_f = float(Delta_value)
        self.gamma_f = float(gamma_value)
        with workdps(30):
            e = mpmath.mpf(eps_value.numerator) / eps_value.denominator
            g = mpmath.mpf(gamma_value.numerator) / gamma_value.denominator
            bb, omb = mpmath.exp(-e), -mpmath.expm1(-e)
            sums = power_geometric_sums_numeric(d, bb, omb)
            weights: list[mpmath.mpf] = []
            power = mpmath.mpf(1)  # b^k
            slots = _TABLE_MIN
            while True:
                while len(weights) < slots - 1:
                    weights.append(power * (len(weights) + g) ** d)
                    power *= bb
                n_table = slots - 1
                tail = power * shifted_power_sums_numeric(d, n_table + g, sums)[d]
                total = mpmath.fsum(weights) + tail
                if tail <= _TAIL_MASS * total or slots >= _TABLE_MAX:
                    break
                slots *= 2
            probs = [float(w / total) for w in weights] + [float(tail / total)]
            c = n_table + g
            mix = [math.comb(d, j) * c ** (d - j) * mpmath.factorial(j) / e ** (j + 1)
                   for j in range(d + 1)]
            mix_total = mpmath.fsum(mix)
            self.tail_cum = np.array([float(mpmath.fsum(mix[: j + 1]) / mix_total)
                                      for j in range(d + 1)])
            self.tail_cum[-1] = 1.0
        self.slots, self.n_table, self.tail_start = slots, n_table, float(c)
        self.tail_probability = probs[-1]
        threshold, alias = _alias_table(probs)
        radii = (np.arange(slots, dtype=float) + self.gamma_f) * self.Delta_f
        radii[-1] = np.nan  # the tail slot
        self.threshold, self.alias = threshold, alias
        self.keep_below = (np.arange(slots) + threshold) / slots
        # slot j: radius radii[2 j] when kept, radii[2 j + 1] otherwise
        self.radii = np.column_stack([radii, radii[alias]]).reshape(-1)

    def __repr__(self) -> str:
        return (f"BallMixtureSampler(d={self.d}, eps={self.eps_f}, Delta={self.Delta_f}, "
                f"gamma={self.gamma_f})")

    # ------------------------------------------------------------------ radii
    def scales(self, rng: np.random.Generator, size: int,
               work: _Workspace | None = None) -> np.ndarray:
        r"""``size`` draws of :math:`(K + \gamma)\Delta` (in ``work.scale`` if given)."""
        w = _Workspace(0, size) if work is None else work
        t, j, kb, keep = w.scale[:size], w.slot[:size], w.bound[:size], w.flag[:size]
        rng.random(size, out=t)
        # slot j = floor(t N); kept iff the fraction t N - j is below threshold[j], that is
        # iff t < (j + threshold[j]) / N (exact: N is a power of two)
        np.multiply(t, self.slots, out=j, casting="unsafe")  # truncation of t N >= 0
        self.keep_below.take(j, out=kb, mode="wrap")  # in range: the cheapest mode
        np.greater_equal(t, kb, out=keep)
        j <<= 1
        j += keep  # radii[2 j]: the slot's own radius, radii[2 j + 1]: its alias's
        self.radii.take(j, out=t, mode="wrap")
        if np.isnan(np.add.reduce(t)):  # the tail slot (a sum of finite radii is finite)
            tail = np.isnan(t)
            m = int(np.count_nonzero(tail))
            t[tail] = (self.tail_periods(rng, m) + self.gamma_f) * self.Delta_f
        return t

    def tail_periods(self, rng: np.random.Generator, size: int) -> np.ndarray:
        r"""``size`` draws of :math:`K` conditioned on :math:`K \ge N` (as floats)."""
        out = np.empty(size)
        pending = np.arange(size)
        d, g = self.d, self.gamma_f
        while pending.size:
            m = pending.size
            j = np.minimum(np.searchsorted(self.tail_cum, rng.random(m), side="right"), d)
            y = self.tail_start + rng.standard_gamma(j + 1.0) / self.eps_f
            kk = np.maximum(np.floor(y - g), self.n_table)
            accept = rng.random(m) < ((kk + g) / y) ** d
            out[pending[accept]] = kk[accept]
            pending = pending[~accept]
        return out

    # ------------------------------------------------------------------ vectors
    def _fill(self, rng: np.random.Generator, dest: np.ndarray, work: _Workspace) -> None:
        """Noise vectors into the rows of ``dest`` (shape ``(d, m)``, rows contiguous)."""
        d, m = dest.shape
        scale = self.scales(rng, m, work)
        u = work.ball[: (d + 1) * m].reshape(d + 1, m)
        if d <= _SORTED_MAX_DIM:
            rows = list(rng.random((d, m), out=u[:d]))
            spare = u[d]
            for i in range(1, d):  # insertion sorting network
                for k in range(i, 0, -1):
                    low = np.minimum(rows[k - 1], rows[k], out=spare)
                    np.maximum(rows[k - 1], rows[k], out=rows[k])
                    spare, rows[k - 1] = rows[k - 1], low
            np.multiply(rows[0], scale, out=dest[0])
            for i in range(1, d):
                np.subtract(rows[i], rows[i - 1], out=dest[i])
                dest[i] *= scale
        else:
            e = rng.standard_exponential((d + 1, m), out=u)
            total = np.add.reduce(e, axis=0, out=work.bound[:m])
            np.divide(scale, total, out=scale)
            np.multiply(e[1:], scale, out=dest)
        for i in range(d):
            bits = np.unpackbits(np.frombuffer(rng.bytes((m + 7) // 8), dtype=np.uint8),
                                 count=m)
            _flip_signs(dest[i], bits, work.mask[:m])

    def __call__(self, rng: np.random.Generator | None, size: int | tuple[int, ...]
                 ) -> np.ndarray:
        """``size`` noise vectors, shape ``(size, d)`` (the transpose of a C array;
        ``size + (d,)`` for a tuple ``size``); ``rng=None``: a fresh unseeded generator.

        Drawn in blocks of :data:`_BLOCK` vectors into buffers allocated once per call,
        so that the intermediate arrays stay in the processor's cache.

        Raises
        ------
        DomainError
            If ``size`` is not a non-negative integer or a tuple of them, or ``rng`` is
            neither a :class:`numpy.random.Generator` nor ``None``.
        """
        shape, rng = check_size(size), check_rng(rng)
        n = math.prod(shape)
        out = np.empty((self.d, n))
        work = _Workspace(self.d, min(n, _BLOCK))
        for start in range(0, n, _BLOCK):
            self._fill(rng, out[:, start:min(n, start + _BLOCK)], work)
        return out.T.reshape((*shape, self.d))


class _Workspace:
    """The buffers of one call of :class:`BallMixtureSampler` (``block`` vectors)."""

    def __init__(self, d: int, block: int) -> None:
        self.scale = np.empty(block)
        self.slot = np.empty(block, dtype=np.intp)
        self.bound = np.empty(block)
        self.flag = np.empty(block, dtype=np.bool_)
        self.mask = np.empty(block, dtype=np.uint64)
        self.ball = np.empty((d + 1) * block) if d else self.bound


def _flip_signs(a: np.ndarray, bits: np.ndarray, mask: np.ndarray) -> None:
    """Flip the sign of ``a[i]`` (a contiguous float64 array) where ``bits[i]`` (uint8) is 1;
    ``mask`` is a uint64 buffer of the same length."""
    np.left_shift(bits, np.uint64(63), out=mask, dtype=np.uint64)  # the sign bit
    view = a.view(np.uint64)
    np.bitwise_xor(view, mask, out=view)


__all__ = ["BallMixtureSampler", "ball_sampler"]
