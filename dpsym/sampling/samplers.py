r"""Samplers and exact distribution functions derived from a :class:`SymmetricNoise`.

Nothing here is written per mechanism: every function reads the structure of a fully
numeric :class:`~dpsym.symbolic.noise.SymmetricNoise` (the point at 0, the head pieces and the
geometric tail) and derives from it, symbolically and once,

* the exact mass of every piece (sympy integration or summation) and of the whole tail,
  :math:`M_{\text{tail}} = \sum_k q^k M_{\text{period}} = M_{\text{period}}/(1 - q)`;
* the upper partial mass :math:`U_j(t) = \int_t^{h_j} f_j` (lattice:
  :math:`\sum_{i=t}^{h_j - 1} f_j(i)`) of every piece as an expression in :math:`t`;
* for a piece whose density is not constant, the inverse of :math:`U_j`
  (:mod:`dpsym.sampling.inversion`: explicit for :math:`C e^{a t}`, bisection otherwise; no
  symbolic solver).

**Sampling** (:func:`sampler`) is a composition of exact choices, vectorised over the
sample: the value 0 is drawn with its exact probability (the atom, or the lattice point
0, which is split off the first piece so that it is never counted twice); otherwise a
head piece or the tail is chosen by mass (``numpy.searchsorted`` over the cumulative
masses); in the tail the period index is geometric, :math:`P(k) = (1 - q) q^k`, and the
piece within the period is chosen by mass; the position inside a piece is uniform
(continuous or on the integers) for a constant density and is the inverse of
:math:`U_j` at a uniform variate otherwise; finally a fair sign is attached.

**Distribution functions** (:func:`cdf` in numpy float64, :func:`cdf_mp` in mpmath at the
working precision) use the same structure. With :math:`S(y)` the mass of
:math:`[y, \infty)` on the positive half line, :math:`F(x) = 1 - S(x)` for
:math:`x \ge 0` and :math:`F(x) = S(-x)` for :math:`x < 0` (lattice:
:math:`P(X \le n) = 1 - S(n + 1)` for :math:`n \ge 0` and :math:`S(-n)` for
:math:`n < 0`). In the tail, at :math:`y = s + kT + u`,

.. math::

   S(y) = q^k \Bigl( U_j(u) + \sum_{j^{\prime} > j} M_{j^{\prime}} + \frac{q\, M_{\text{period}}}{1
   - q} \Bigr),

a sum of non-negative terms, so that far tails keep their relative precision.

.. warning::

   The float samplers are **not hardened against floating-point attacks** (Mironov,
   "On significance of the least significant bits for differential privacy", CCS 2012):
   their outputs are IEEE doubles whose low-order bits can leak the true query value.
   They are meant for simulation and testing. For the integer-valued mechanisms
   (``discrete-laplace``, ``discrete-staircase``, ``discrete-uniform``) use
   :mod:`dpsym.sampling.exact` instead: its samplers draw exactly from the mass function
   with integer and rational arithmetic only (no ``float`` on the path from the random
   bits to the output); their running time is random, so they do not protect against
   timing side channels. For the continuous mechanisms no hardened sampler exists yet
   (snapping is a separate issue).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache
from math import prod
from typing import TypedDict, cast

import mpmath
import numpy as np
import sympy as sp

from dpsym.core.zero import is_identically_zero
from dpsym.precision import workdps
from dpsym.sampling.checks import LATTICE_REACH_MAX, REACH_MAX, ScaleError, check_rng, check_size
from dpsym.sampling.inversion import FLOAT_DIGITS, CompiledPiece, float_constant, mp_constant
from dpsym.symbolic.noise import GeometricTail, Piece, SymmetricNoise
from dpsym.symbolic.numerics import to_mpf
from dpsym.symbols import u, x

#: A sampler: ``draw(rng, size)`` returns an array of shape ``size`` (int64 on a lattice).
SamplerFunction = Callable[[np.random.Generator, "int | tuple[int, ...]"], np.ndarray]

#: Largest deviation of the total mass from 1 that a description may have (in float64).
_MASS_TOLERANCE = 1e-12
#: Samples drawn at once: the working arrays of a block stay in the processor's cache.
_BLOCK = 1 << 16

# ---------------------------------------------------------------------- structure
class _Constants(TypedDict, total=False):
    """A sampler's exact constants at one working precision (mpf; the tail's only with a
    tail)."""

    head_hi: list[mpmath.mpf]
    head_end: mpmath.mpf
    head_after: list[mpmath.mpf]
    q: mpmath.mpf
    log_inv_q: mpmath.mpf
    start: mpmath.mpf
    period: mpmath.mpf
    period_hi: list[mpmath.mpf]
    period_after: list[mpmath.mpf]


@dataclass
class _TailParts:
    start: sp.Expr
    period: sp.Expr
    ratio: sp.Expr
    parts: list[CompiledPiece]

    def log_inv_q(self) -> mpmath.mpf:
        r""":math:`\log(1/q)` at the working precision, accurate for :math:`q` near 1."""
        return mp_constant(-sp.log(self.ratio))

    def one_minus_q(self) -> mpmath.mpf:
        """:math:`1 - q` at the working precision, without cancellation."""
        return -mpmath.expm1(-self.log_inv_q())


class _Compiled:
    """Everything the samplers and distribution functions need, derived once per noise."""

    def __init__(self, noise: SymmetricNoise) -> None:
        remaining = noise.free_symbols()
        if remaining:
            names = ", ".join(sorted(map(str, remaining)))
            raise ValueError(f"the noise description is not numeric: no value for {names}")
        self.lattice = noise.lattice
        head = [pc for pc in noise.head if not is_identically_zero(pc.hi - pc.lo)]
        tail = noise.tail
        if tail is not None:
            tail = GeometricTail(tail.start, tail.period, tail.ratio,
                                 tuple(pc for pc in tail.pieces
                                       if not is_identically_zero(pc.hi - pc.lo)))
        if self.lattice:
            self.zero = sp.sympify(noise.mass_at_zero())
            head, tail = _split_zero(head, tail)
        else:
            self.zero = sp.sympify(noise.atom)
        self.head = [CompiledPiece(pc.lo, pc.hi, pc.expr, x, self.lattice) for pc in head]
        self.tail = None if tail is None else _TailParts(
            sp.sympify(tail.start), sp.sympify(tail.period), sp.sympify(tail.ratio),
            [CompiledPiece(pc.lo, pc.hi, pc.expr, u, self.lattice) for pc in tail.pieces])
        self._check_layout()
        self._floats()
        self._check_reach()
        self.single_piece = (self.tail is None and len(self.head) == 1
                             and is_identically_zero(self.zero))
        self._mp_cache: dict[int, _Constants] = {}

    # ------------------------------------------------------------------ structure
    def _check_layout(self) -> None:
        first = sp.Integer(1 if self.lattice else 0)
        edge = first
        for part in self.head:
            if not is_identically_zero(part.lo - edge):
                raise ValueError(f"head pieces must be contiguous from {first}; gap at {edge}")
            edge = part.hi
        if self.tail is None:
            return
        t = self.tail
        if self.head and not is_identically_zero(t.start - edge):
            raise ValueError(f"the tail must start where the head ends ({edge}), not {t.start}")
        with workdps(FLOAT_DIGITS):
            if not (mp_constant(t.ratio) > 0 and 0 < t.log_inv_q() < mpmath.inf):
                raise ValueError(f"the tail ratio must lie in (0, 1), got {t.ratio}")
        edge = sp.Integer(0)
        for part in t.parts:
            if not is_identically_zero(part.lo - edge):
                raise ValueError(f"tail pieces must be contiguous from 0; gap at {edge}")
            edge = part.hi
        if not is_identically_zero(edge - t.period):
            raise ValueError("tail pieces must cover one period")

    def _floats(self) -> None:
        """Masses, cumulative choice tables and the constants of the float64 paths."""
        with workdps(FLOAT_DIGITS):
            zero = mp_constant(self.zero)
            head = [mp_constant(pt.mass) for pt in self.head]
            tail_total = mpmath.mpf(0)
            period: list[mpmath.mpf] = []
            if self.tail is not None:
                q = mp_constant(self.tail.ratio)
                period = [mp_constant(pt.mass) for pt in self.tail.parts]
                tail_total = mpmath.fsum(period) / self.tail.one_minus_q()
            total = zero + 2 * (mpmath.fsum(head) + tail_total)
            if abs(total - 1) > _MASS_TOLERANCE:
                raise ValueError(f"the noise description has total mass {mpmath.nstr(total, 15)}")
            # categories: 0, head pieces..., tail
            weights = [zero] + [2 * m for m in head] + ([2 * tail_total] if self.tail else [])
            cum = [mpmath.fsum(weights[: i + 1]) / total for i in range(len(weights))]
            self.category_cum = np.array([float(c) for c in cum])
            self.category_cum[-1] = 1.0
            self.zero_f = float(zero)
            self.head_hi = np.array([pt.hi_f for pt in self.head])
            self.head_after = [float(mpmath.fsum(head[j + 1:]) + tail_total)
                               for j in range(len(head))]
            self.head_end_f = (self.head[-1].hi_f if self.head else 0.0) if self.tail is None \
                else float_constant(self.tail.start)
            if self.tail is not None:
                t = self.tail
                mp_period = mpmath.fsum(period)
                self.q_f = float(q)
                self.log_inv_q_f = float(t.log_inv_q())
                self.start_f, self.period_f = float_constant(t.start), float_constant(t.period)
                self.period_hi = np.array([pt.hi_f for pt in t.parts])
                self.period_cum = np.array([float(mpmath.fsum(period[: i + 1]) / mp_period)
                                            for i in range(len(period))])
                self.period_cum[-1] = 1.0
                beyond = q * mp_period / t.one_minus_q()
                self.period_after = [float(mpmath.fsum(period[j + 1:]) + beyond)
                                     for j in range(len(period))]
                # every part of the period has a constant density: one uniform picks the
                # part (by mass) and, rescaled, the position inside it (only when no part
                # is so unlikely that the rescaling would cost more than 20 bits)
                self.period_prev = np.concatenate(([0.0], self.period_cum[:-1]))
                self.period_p = self.period_cum - self.period_prev
                self.period_constant = (all(pt.constant for pt in t.parts)
                                        and bool(np.all(self.period_p > 2.0**-20)))
                self.period_lo = np.array([pt.lo_f for pt in t.parts])
                self.period_width = np.array([pt.hi_f - pt.lo_f for pt in t.parts])

    def _check_reach(self) -> None:
        """Raise :class:`ScaleError` if the samples could leave the range of their type."""
        # a constant piece on a lattice is drawn in int64 arithmetic (numpy's integers)
        exact = [pt.reach for pt in self.head if self.lattice and pt.constant]
        reach = max([pt.reach for pt in self.head if not (self.lattice and pt.constant)],
                    default=0.0)
        if self.tail is not None:
            periods = 1 / self.log_inv_q_f if self.log_inv_q_f > 0 else np.inf
            reach = max(reach, self.start_f + self.period_f * (1 + periods))
        limit = LATTICE_REACH_MAX if self.lattice else REACH_MAX
        if not reach <= limit:
            raise ScaleError(reach, limit, self.lattice)
        if not max(exact, default=0.0) < 2.0**62:
            raise ScaleError(max(exact), 2.0**62, self.lattice)

    def _mp(self) -> _Constants:
        """The exact constants at the current working precision (cached per precision)."""
        prec = mpmath.mp.prec
        if prec not in self._mp_cache:
            head = [mp_constant(pt.mass) for pt in self.head]
            c: _Constants = {"head_hi": [mp_constant(pt.hi) for pt in self.head]}
            tail_total = mpmath.mpf(0)
            if self.tail is not None:
                t = self.tail
                q = mp_constant(t.ratio)
                period = [mp_constant(pt.mass) for pt in t.parts]
                mp_period = mpmath.fsum(period)
                tail_total = mp_period / t.one_minus_q()
                c.update({"q": q, "log_inv_q": t.log_inv_q(), "start": mp_constant(t.start),
                          "period": mp_constant(t.period),
                          "period_hi": [mp_constant(pt.hi) for pt in t.parts],
                          "period_after": [mpmath.fsum(period[j + 1:]) + q * tail_total
                                           for j in range(len(period))]})
                c["head_end"] = c["start"]
            else:
                c["head_end"] = c["head_hi"][-1] if self.head else mpmath.mpf(0)
            c["head_after"] = [mpmath.fsum(head[j + 1:]) + tail_total for j in range(len(head))]
            self._mp_cache[prec] = c
        return self._mp_cache[prec]

    # ------------------------------------------------------------------ sampling
    def draw(self, rng: np.random.Generator, size: int | tuple[int, ...]) -> np.ndarray:
        """Draw samples of shape ``size`` (see the module docstring for the algorithm).

        A large sample is drawn in blocks of :data:`_BLOCK` values, so that the
        intermediate arrays of :meth:`_draw` stay in the processor's cache.
        """
        shape = (int(cast(int, size)),) if np.ndim(size) == 0 \
            else tuple(int(n) for n in cast(tuple[int, ...], size))
        n = prod(shape)
        dtype = np.int64 if self.lattice else np.float64
        if n <= _BLOCK:
            return self._draw(rng, n, dtype).reshape(shape)
        out = np.empty(n, dtype=dtype)
        for start in range(0, n, _BLOCK):
            stop = min(n, start + _BLOCK)
            out[start:stop] = self._draw(rng, stop - start, dtype)
        return out.reshape(shape)

    def _draw(self, rng: np.random.Generator, n: int, dtype: type) -> np.ndarray:
        """``n`` samples, a flat array of ``dtype``."""
        if self.tail is not None and not self.head:  # the value 0 or the tail
            out = self._draw_tail(rng, n)
            if self.zero_f > 0.0:  # a tail draw is cheaper than a boolean gather
                out = np.where(rng.random(n) < self.category_cum[0], 0, out)
            return _signed(rng, out, dtype)
        if self.single_piece:  # one head piece carries all the mass: no choice to make
            return _signed(rng, self.head[0].draw(rng, n), dtype)
        out = np.zeros(n, dtype=dtype)
        category = np.searchsorted(self.category_cum, rng.random(n), side="right")
        category = np.minimum(category, len(self.category_cum) - 1)
        for j, part in enumerate(self.head):
            chosen = category == j + 1
            m = int(np.count_nonzero(chosen))
            if m:
                out[chosen] = part.draw(rng, m)
        if self.tail is not None:
            chosen = category == len(self.head) + 1
            m = int(np.count_nonzero(chosen))
            if m:
                out[chosen] = self._draw_tail(rng, m)
        return _signed(rng, out, dtype)

    def _draw_tail(self, rng: np.random.Generator, m: int) -> np.ndarray:
        assert self.tail is not None
        # P(k) = (1 - q) q^k: k = floor(E / log(1/q)) with E standard exponential
        # (P(k' >= k) = e^{-k log(1/q)} = q^k), faster than numpy's geometric
        period_index = np.floor(rng.standard_exponential(m) / self.log_inv_q_f)
        if self.lattice:
            start, period = int(self.tail.start), int(self.tail.period)
            pos: np.ndarray = start + period_index.astype(np.int64) * period
        else:
            pos = self.start_f + period_index * self.period_f
        if self.period_constant and len(self.period_cum) == 1:  # one piece per period
            lo, width = self.period_lo[0], self.period_width[0]
            if self.lattice:
                if width == 1.0:
                    return pos + int(lo)
                return pos + int(lo) + rng.integers(0, int(width), size=m)
            return pos + lo + width * rng.random(m)
        if self.period_constant:
            v = rng.random(m)
            if len(self.period_cum) == 2:
                which = (v >= self.period_cum[0]).astype(np.intp)
            else:
                which = np.minimum(np.searchsorted(self.period_cum, v, side="right"),
                                   len(self.period_cum) - 1)
            within = (v - self.period_prev[which]) / self.period_p[which]
            within = np.clip(within, 0.0, np.nextafter(1.0, 0.0))
            offset = self.period_width[which] * within
            if self.lattice:
                offset = np.floor(offset).astype(np.int64)
                return pos + self.period_lo[which].astype(np.int64) + offset
            return pos + self.period_lo[which] + offset
        which = np.searchsorted(self.period_cum, rng.random(m), side="right")
        which = np.minimum(which, len(self.period_cum) - 1)
        local = np.zeros(m, dtype=pos.dtype)
        for j, part in enumerate(self.tail.parts):
            chosen = which == j
            count = int(np.count_nonzero(chosen))
            if count:
                local[chosen] = part.draw(rng, count)
        return pos + local

    # ------------------------------------------------------------------ float64 S(y)
    def upper_np(self, y: np.ndarray) -> np.ndarray:
        r""":math:`S(y)`, the mass of :math:`[y, \infty)` on the positive half (y >= 0)."""
        out = np.zeros_like(y)
        in_head = y < self.head_end_f
        if self.head and in_head.any():
            yh = y[in_head]
            idx = np.minimum(np.searchsorted(self.head_hi, yh, side="right"),
                             len(self.head) - 1)
            res = np.zeros_like(yh)
            for j, part in enumerate(self.head):
                sel = idx == j
                if sel.any():
                    res[sel] = part.upper_np(yh[sel]) + self.head_after[j]
            out[in_head] = res
        if self.tail is None:
            return out
        in_tail = ~in_head & np.isfinite(y)
        if in_tail.any():
            z = y[in_tail] - self.start_f
            kk = np.floor(z / self.period_f)
            local = z - kk * self.period_f
            low, high = local < 0, local >= self.period_f  # rounding at period edges
            kk, local = np.where(low, kk - 1, kk), np.where(low, local + self.period_f, local)
            kk, local = np.where(high, kk + 1, kk), np.where(high, local - self.period_f, local)
            local = np.clip(local, 0.0, self.period_f)
            idx = np.minimum(np.searchsorted(self.period_hi, local, side="right"),
                             len(self.tail.parts) - 1)
            res = np.zeros_like(z)
            for j, part in enumerate(self.tail.parts):
                sel = idx == j
                if sel.any():
                    res[sel] = part.upper_np(local[sel]) + self.period_after[j]
            out[in_tail] = np.exp(-kk * self.log_inv_q_f) * res  # q^k, q may round to 1
        return out

    # ------------------------------------------------------------------ mpmath S(y)
    def upper_mp(self, y: mpmath.mpf) -> mpmath.mpf:
        """:math:`S(y)` at the working precision (``y >= 0``)."""
        c = self._mp()
        if y < c["head_end"]:
            for j, part in enumerate(self.head):
                if y < c["head_hi"][j] or j == len(self.head) - 1:
                    return mpmath.mpf(part.upper_mp(y)) + c["head_after"][j]
        if self.tail is None or mpmath.isinf(y):
            return mpmath.mpf(0)
        z = y - c["start"]
        kk = int(mpmath.floor(z / c["period"]))
        local = z - kk * c["period"]
        if local < 0:
            kk, local = kk - 1, local + c["period"]
        elif local >= c["period"]:
            kk, local = kk + 1, local - c["period"]
        parts = self.tail.parts
        for j, part in enumerate(parts):
            if local < c["period_hi"][j] or j == len(parts) - 1:
                return (mpmath.exp(-kk * c["log_inv_q"])
                        * (mpmath.mpf(part.upper_mp(local)) + c["period_after"][j]))
        raise AssertionError("unreachable")


def _signed(rng: np.random.Generator, values: np.ndarray, dtype: type) -> np.ndarray:
    """``values`` (a flat array of magnitudes) with independent fair signs, as ``dtype``
    (a zero magnitude stays ``+0.0``: ``x + 0.0`` turns ``-0.0`` into ``+0.0``)."""
    sign = 1 - 2 * rng.integers(0, 2, size=values.size, dtype=np.int8)
    signed: np.ndarray = (values * sign).astype(dtype, copy=False)
    if signed.dtype.kind == "f":
        np.add(signed, 0.0, out=signed)
    return signed


def _split_zero(head: list[Piece], tail: GeometricTail | None
                ) -> tuple[list[Piece], GeometricTail | None]:
    r"""Remove the lattice point 0 from the pieces (its mass is handled separately).

    Without a head, the tail is rotated by one point instead: it starts at 1, its period
    is the old one shifted by 1 (:math:`u \mapsto u + 1`), the old period's first point
    (times :math:`q`) closes it, and adjacent constant pieces of equal level are merged.
    The law is unchanged and no head is created, so that the sampler keeps its tail-only
    path (one exponential per period index, no category draw).
    """
    if not head:
        if tail is None:
            raise ValueError("an empty noise description")
        s, T, q = tail.start, tail.period, tail.ratio
        if not is_identically_zero(s):
            raise ValueError("a lattice description without head must start its tail at 0")
        first = tail.pieces[0]
        if not is_identically_zero(first.lo):
            raise ValueError("a lattice description must start at 0")
        pieces = [Piece(pc.lo - 1 if k else pc.lo, pc.hi - 1, pc.expr.subs(u, u + 1))
                  for k, pc in enumerate(tail.pieces)]
        pieces.append(Piece(T - 1, T, q * first.expr.subs(u, u + 1 - T)))
        merged: list[Piece] = []
        for pc in pieces:
            if is_identically_zero(pc.hi - pc.lo):
                continue
            if (merged and u not in pc.expr.free_symbols
                    and u not in merged[-1].expr.free_symbols
                    and is_identically_zero(merged[-1].expr - pc.expr)):
                merged[-1] = Piece(merged[-1].lo, pc.hi, merged[-1].expr)
            else:
                merged.append(pc)
        return [], GeometricTail(s + 1, T, q, tuple(merged))
    first = head[0]
    if not is_identically_zero(first.lo):
        raise ValueError("a lattice description must start at 0")
    rest = [] if is_identically_zero(first.hi - 1) else [Piece(sp.Integer(1), first.hi, first.expr)]
    return rest + list(head[1:]), tail


@lru_cache(maxsize=128)
def _compile(noise: SymmetricNoise) -> _Compiled:
    return _Compiled(noise)


# ---------------------------------------------------------------------- public API
class Sampler:
    """A reusable vectorised sampler of a numeric noise distribution.

    Calling ``draw(rng, size)`` returns an array of shape ``size``: float64 for a
    density, int64 for a mass function on the integers.

    Parameters
    ----------
    noise : SymmetricNoise
        A fully numeric description.
    """

    def __init__(self, noise: SymmetricNoise) -> None:
        self.noise = noise
        self._compiled = _compile(noise)

    @property
    def lattice(self) -> bool:
        """Whether the samples are integers."""
        return self.noise.lattice

    def __call__(self, rng: np.random.Generator | None,
                 size: int | tuple[int, ...]) -> np.ndarray:
        """Draw an array of shape ``size`` (``rng=None``: a fresh unseeded generator).

        Raises
        ------
        DomainError
            If ``size`` is not a non-negative integer or a tuple of them, or ``rng`` is
            neither a :class:`numpy.random.Generator` nor ``None``.
        """
        shape = check_size(size)
        return self._compiled.draw(check_rng(rng), shape)

    def __repr__(self) -> str:
        kind = "lattice" if self.lattice else "continuous"
        return f"Sampler({kind}, P(0)={self._compiled.zero_f:.6g})"


def sampler(noise_numeric: SymmetricNoise) -> Sampler:
    r"""A vectorised sampler of the distribution described by ``noise_numeric``.

    Parameters
    ----------
    noise_numeric : SymmetricNoise
        A description with every symbol substituted (e.g.
        :meth:`dpsym.mechanisms.base.Mechanism.numeric_noise`).

    Returns
    -------
    Sampler
        ``draw(rng, size) -> numpy.ndarray``.

    Raises
    ------
    ValueError
        If the description still has free symbols, is not laid out contiguously, or
        its total mass differs from 1 by more than :math:`10^{-12}`.
    ScaleError
        If the noise's scale exceeds :data:`~dpsym.sampling.checks.REACH_MAX` (on a
        lattice :data:`~dpsym.sampling.checks.LATTICE_REACH_MAX`).

    Examples
    --------
    >>> import numpy as np
    >>> from dpsym import Staircase
    >>> draw = sampler(Staircase(eps="1", Delta=1).numeric_noise(digits=17))
    >>> draw(np.random.default_rng(0), 3).shape
    (3,)
    """
    return Sampler(noise_numeric)


def cdf(noise_numeric: SymmetricNoise, x: float | Sequence[float] | np.ndarray) -> np.ndarray:
    r"""The distribution function :math:`F(x) = P(X \le x)` in float64, vectorised.

    On a lattice, :math:`F(x) = P(X \le \lfloor x \rfloor)`.

    Parameters
    ----------
    noise_numeric : SymmetricNoise
        A fully numeric description.
    x : array_like
        Points.

    Returns
    -------
    numpy.ndarray
        :math:`F(x)`, of the shape of ``x``.
    """
    compiled = _compile(noise_numeric)
    xs = np.asarray(x, dtype=float)
    flat = xs.reshape(-1)
    out = np.full_like(flat, np.nan)
    finite = np.isfinite(flat)
    out[flat == np.inf] = 1.0
    out[flat == -np.inf] = 0.0
    xf = flat[finite]
    if compiled.lattice:
        n = np.floor(xf)
        y = np.where(n >= 0, n + 1, -n)
        s = compiled.upper_np(y)
        out[finite] = np.where(n >= 0, 1.0 - s, s)
    else:
        s = compiled.upper_np(np.abs(xf))
        out[finite] = np.where(xf >= 0, 1.0 - s, s)
    return out.reshape(xs.shape)


def cdf_mp(noise_numeric: SymmetricNoise, x: object) -> mpmath.mpf:
    r"""The distribution function :math:`F(x) = P(X \le x)` at the mpmath working precision.

    Use ``mpmath.workdps`` to choose the precision; every constant is evaluated from its
    exact sympy form at that precision.

    Parameters
    ----------
    noise_numeric : SymmetricNoise
        A fully numeric description.
    x : mpmath.mpf, int, str, Fraction or sympy.Rational
        The point.

    Returns
    -------
    mpmath.mpf
        :math:`F(x)`.
    """
    compiled = _compile(noise_numeric)
    if isinstance(x, (Fraction, sp.Rational)):
        xm = to_mpf(x)
    else:
        xm = mpmath.mpf(x)
    if mpmath.isnan(xm):
        return xm
    if compiled.lattice:
        n = mpmath.floor(xm)
        if n >= 0:
            return 1 - compiled.upper_mp(n + 1)
        return compiled.upper_mp(-n)
    if xm >= 0:
        return 1 - compiled.upper_mp(xm)
    return compiled.upper_mp(-xm)


__all__ = ["Sampler", "SamplerFunction", "cdf", "cdf_mp", "sampler"]
