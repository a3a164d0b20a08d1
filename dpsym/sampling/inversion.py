r"""One piece of a noise description, compiled for sampling: its exact mass, its upper
partial mass and the position of a uniform variate inside it.

A piece on :math:`[l, h)` with density :math:`f` has the upper partial mass
:math:`U(t) = \int_t^h f` (on a lattice :math:`\sum_{i=t}^{h-1} f(i)`), which falls from
:math:`M = U(l)` to :math:`0`; :class:`CompiledPiece` derives :math:`M` and :math:`U`
exactly (sympy integration or summation) and their float64 forms. For :math:`v` uniform
on :math:`(0, 1]`, the :math:`t` with :math:`U(t) = vM` is distributed as :math:`f`
restricted to the piece (on a lattice: the largest integer :math:`n` with
:math:`U(n) \ge vM`, that is :math:`l + \lfloor s \rfloor` for the continuous solution
:math:`t = l + s` below). :math:`U` is inverted in one of two ways, neither of which
calls a symbolic solver:

* :math:`f(t) = C e^{a t}` (every non-constant piece of the package's mechanisms: the
  Laplace and truncated Laplacian densities, the discrete Laplace mass): with
  :math:`W = h - l` and :math:`s = t - l`,
  :math:`U(t)/M = (e^{aW} - e^{as})/(e^{aW} - 1)` (on a lattice too, with
  :math:`e^a` the ratio of consecutive masses), inverted explicitly by
  :func:`exponential_offset` in a form without cancellation (``log1p``/``expm1``) and
  evaluated in numpy. :func:`exponential_rate` recognises the form: the logarithmic
  derivative :math:`f^{\prime}/f` is a constant :math:`a \ne 0`.
* any other density: vectorised bisection of :math:`U` (:func:`bisect_upper`).

Exact constants are rounded to float64 from a ball evaluation (:func:`mp_constant`), so
that they keep every digit whatever the cancellation in their closed form (e.g.
:math:`e^{\varepsilon} - 1` at :math:`\varepsilon = 10^{-300}`).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Protocol

import mpmath
import numpy as np
import sympy as sp

from dpsym.certified.balls import ball_value
from dpsym.precision import workdps
from dpsym.symbolic.lambdas import mpmath_function

#: Decimal digits used to round exact constants to float64.
FLOAT_DIGITS = 30
#: Bisection steps; every float64 interval is exhausted well before (at most ~2100 halvings).
_BISECTION_STEPS = 200
#: Doublings of the upper end of an unbounded piece before the bisection.
_DOUBLINGS = 2000

_t = sp.Symbol("t", real=True)


# ---------------------------------------------------------------------- exact constants
def mp_constant(expr: sp.Expr) -> mpmath.mpf:
    """An exact numeric sympy expression as an mpf at the working precision, to every
    digit whatever the cancellation (a ball evaluation, :func:`dpsym.certified.balls.ball_value`;
    plain mpmath for an expression the balls do not handle)."""
    expr = sp.sympify(expr)
    if expr == sp.oo:
        return mpmath.inf
    found = ball_value(expr, {}, mpmath.mp.dps, allow_zero=True)
    if found is not None:
        return +found[0]
    return mpmath.mpf(mpmath_function([], expr)())


def float_constant(expr: sp.Expr) -> float:
    """An exact numeric sympy expression correctly rounded (from 30 digits) to float64."""
    expr = sp.sympify(expr)
    if expr == sp.oo:
        return float("inf")
    with workdps(FLOAT_DIGITS):
        return float(mp_constant(expr))


def numpy_function(expr: sp.Expr, var: sp.Symbol) -> Callable[[np.ndarray], np.ndarray]:
    """``expr`` in ``var`` compiled to numpy (scipy.special for ``erfc`` and the like),
    its constants rounded from 30 digits."""
    body = sp.N(expr, FLOAT_DIGITS)
    f = sp.lambdify(var, body, ["scipy", "numpy"])

    def call(y: np.ndarray) -> np.ndarray:
        y = np.asarray(y, dtype=float)
        return np.asarray(f(y), dtype=float) + np.zeros_like(y)

    return call


# ---------------------------------------------------------------------- one piece
class CompiledPiece:
    r"""One piece :math:`[lo, hi)` of the positive half with its derived quantities.

    ``var`` is the piece's variable (:data:`~dpsym.symbols.x` in the head,
    :data:`~dpsym.symbols.u` in the tail's period). ``mass`` and ``upper`` are exact
    (``upper`` in the symbol ``t``); ``upper_np`` and ``upper_mp`` evaluate :math:`U` in
    float64 and at the mpmath working precision, and :meth:`inverse` inverts it.
    """

    def __init__(self, lo: sp.Expr, hi: sp.Expr, expr: sp.Expr, var: sp.Symbol,
                 lattice: bool) -> None:
        self.lo, self.hi, self.expr = sp.sympify(lo), sp.sympify(hi), sp.sympify(expr)
        self.lattice = lattice
        self.constant = var not in self.expr.free_symbols
        rate = None if self.constant else exponential_rate(self.expr, var)
        density = self.expr.subs(var, _t)
        if self.constant:
            self.mass = sp.sympify(self.expr * (self.hi - self.lo))
            self.upper = self.expr * (self.hi - _t)
        elif rate is not None:
            self.mass, self.upper = exponential_upper(self.expr.subs(var, 0), rate, self.lo,
                                                      self.hi, lattice)
        elif lattice:
            self.mass = sp.summation(density, (_t, self.lo, self.hi - 1))
            s = sp.Dummy("s", integer=True)
            self.upper = sp.summation(density.subs(_t, s), (s, _t, self.hi - 1))
        else:
            self.mass = sp.integrate(density, (_t, self.lo, self.hi), conds="none")
            s = sp.Dummy("s", real=True)
            self.upper = sp.integrate(density.subs(_t, s), (s, _t, self.hi), conds="none")
        if self.mass.has(sp.Sum, sp.Integral) or self.upper.has(sp.Sum, sp.Integral):
            raise NotImplementedError(f"no closed-form mass for the piece {self.expr}")
        if self.lattice and not (self.lo.is_Integer and (self.hi.is_Integer or self.hi == sp.oo)):
            raise ValueError(f"lattice piece bounds must be integers, got [{lo}, {hi})")
        # float64 forms
        self.lo_f, self.hi_f = float_constant(self.lo), float_constant(self.hi)
        self.mass_f = float_constant(self.mass)
        if not self.mass_f >= 0:
            raise ValueError(f"negative or undefined mass {self.mass} of a piece")
        self.width_f = float_constant(self.hi - self.lo)
        self.rate, self.rate_f = rate, None if rate is None else float_constant(rate)
        self._mp_cache: dict[int, tuple[mpmath.mpf, ...]] = {}
        if rate is None:
            self._upper_np = numpy_function(self.upper, _t)
            self._upper_mp = mpmath_function(_t, self.upper)
        if self.constant and self.hi != sp.oo:
            # h (hi - t), not h hi - h t (sympy distributes the product): hi - t is exact
            # in float64 near hi (Sterbenz), so the tail keeps its relative precision
            height, hi_f = float_constant(self.expr), self.hi_f
            self._upper_np = lambda t: height * (hi_f - np.asarray(t, dtype=float))

    @property
    def reach(self) -> float:
        """The magnitude up to which the piece's samples reach: its end (infinite if it
        overflows float64), for an unbounded exponential piece its start plus the scale
        :math:`1/|a|`, for another unbounded piece its start (the bisection is bounded)."""
        if self.hi != sp.oo:
            return self.hi_f
        if self.rate_f is None:
            return self.lo_f
        return self.lo_f + (1 / abs(self.rate_f) if self.rate_f else np.inf)

    # ------------------------------------------------------------------ U(t)
    def upper_np(self, t: np.ndarray) -> np.ndarray:
        """:math:`U(t)` in float64, vectorised."""
        if self.rate is None:
            return self._upper_np(t)
        offset = np.clip(np.asarray(t, dtype=float) - self.lo_f, 0.0, self.width_f)
        with np.errstate(invalid="ignore"):  # inf - inf at the end of an unbounded piece
            fraction = exponential_fraction(np, offset, self.rate_f, self.width_f)
        return np.where(offset < self.width_f, self.mass_f * fraction, 0.0)

    def upper_mp(self, t: mpmath.mpf) -> mpmath.mpf:
        """:math:`U(t)` at the working precision."""
        if self.rate is None:
            return mpmath.mpf(self._upper_mp(t))
        prec = mpmath.mp.prec
        if prec not in self._mp_cache:
            self._mp_cache[prec] = tuple(mp_constant(e) for e in (
                self.lo, self.hi - self.lo, self.rate, self.mass))
        lo, width, rate, mass = self._mp_cache[prec]
        offset = max(t - lo, mpmath.mpf(0))
        if offset >= width:
            return mpmath.mpf(0)
        return mass * exponential_fraction(mpmath, offset, rate, width)

    # ------------------------------------------------------------------ positions
    def draw(self, rng: np.random.Generator, m: int) -> np.ndarray:
        """``m`` positions in the piece, distributed as its (normalised) density."""
        if self.constant:
            if self.lattice:
                width = int(self.hi - self.lo)
                return int(self.lo) + rng.integers(0, width, size=m)
            return self.lo_f + (self.hi_f - self.lo_f) * rng.random(m)
        v = 1.0 - rng.random(m)  # uniform on (0, 1]
        return self.inverse(v)

    def inverse(self, v: np.ndarray) -> np.ndarray:
        r"""The position :math:`t` with :math:`U(t) = v M` (lattice: the largest such integer)."""
        if self.rate_f is not None:
            t = self.lo_f + exponential_offset(v, self.rate_f, self.width_f)
        else:
            t = bisect_upper(self.upper_np, v, self.mass_f, self.lo_f, self.hi_f)
        if not self.lattice:
            return np.clip(t, self.lo_f, self.hi_f)
        return self._lattice_fix(t, v)

    def _lattice_fix(self, t: np.ndarray, v: np.ndarray) -> np.ndarray:
        r"""The largest integer :math:`n \in [lo, hi)` with :math:`U(n) \ge v M`."""
        lo, top = self.lo_f, self.hi_f - 1
        n = np.clip(np.floor(np.nan_to_num(t, nan=lo, posinf=top)), lo, top)
        target = v * self.mass_f
        for _ in range(2):  # the inverse is exact up to rounding: fix off-by-one
            up = (n + 1 <= top) & (self.upper_np(n + 1) >= target)
            n = np.where(up, n + 1, n)
            down = (n - 1 >= lo) & (self.upper_np(n) < target)
            n = np.where(down, n - 1, n)
        return n.astype(np.int64)


# ---------------------------------------------------------------------- the inverse of U
def exponential_rate(expr: sp.Expr, var: sp.Symbol) -> sp.Expr | None:
    r"""The rate :math:`a` if ``expr`` is :math:`C e^{a\,\mathrm{var}}` with numeric
    :math:`C` and real :math:`a \ne 0`, else ``None``.

    The test is that the logarithmic derivative :math:`f^{\prime}/f` is free of ``var``; sympy
    cancels the common factors of :math:`f^{\prime}` and :math:`f` on construction, so this is a
    differentiation and a division (no simplification, no solver). A form it does not
    recognise falls back to the bisection, which is correct for every density.
    """
    expr = sp.sympify(expr)
    if var not in expr.free_symbols or expr.free_symbols - {var}:
        return None
    rate = sp.diff(expr, var) / expr
    if var in rate.free_symbols:
        rate = sp.powsimp(rate)
    if rate.free_symbols or rate.is_extended_real is not True or rate.is_zero is not False:
        return None
    return rate


def exponential_upper(c: sp.Expr, rate: sp.Expr, lo: sp.Expr, hi: sp.Expr, lattice: bool
                      ) -> tuple[sp.Expr, sp.Expr]:
    r""":math:`M` and :math:`U(t)` (in the symbol ``t``) of :math:`C e^{a t}` on
    :math:`[l, h)` in closed form, without calling sympy's integrator:
    :math:`U(t) = \frac{C}{a}(e^{ah} - e^{at})`, on a lattice
    :math:`\sum_{i=t}^{h-1} C e^{ai} = C \frac{e^{at} - e^{ah}}{1 - e^{a}}`
    (:math:`e^{ah} = 0` for :math:`h = \infty`, :math:`a < 0`), and :math:`M = U(l)`.
    A test proves them equal to sympy's integral and sum."""

    def upper(t: sp.Expr) -> sp.Expr:
        if lattice:
            return c * (sp.exp(rate * t) - sp.exp(rate * hi)) / (1 - sp.exp(rate))
        return c * (sp.exp(rate * hi) - sp.exp(rate * t)) / rate

    return upper(lo), upper(_t)


class ExpFunctions(Protocol):
    """``exp`` and ``expm1`` of a numeric namespace (numpy, mpmath)."""

    def exp(self, x: Any, /) -> Any: ...
    def expm1(self, x: Any, /) -> Any: ...


def exponential_fraction(ns: ExpFunctions, s: np.ndarray | float | mpmath.mpf,
                         rate: float | mpmath.mpf, width: float | mpmath.mpf
                         ) -> np.ndarray | float | mpmath.mpf:
    r""":math:`U(l + s)/M` for :math:`C e^{a t}` on :math:`[l, l + W)`, in numpy or mpmath
    (``ns``), without cancellation: with :math:`A = |a|`,

    .. math::

       \frac{U}{M} = e^{-As} \frac{1 - e^{-A(W - s)}}{1 - e^{-AW}} \ (a < 0), \qquad
       \frac{U}{M} = \frac{1 - e^{-A(W - s)}}{1 - e^{-AW}} \ (a > 0),

    each :math:`1 - e^{-y}` computed as ``-expm1(-y)`` (:math:`W = \infty` allowed for
    :math:`a < 0`). On a lattice the same holds at integer :math:`s`."""
    if rate < 0:
        A = -rate
        return ns.exp(-A * s) * ns.expm1(-A * (width - s)) / ns.expm1(-A * width)
    return ns.expm1(-rate * (width - s)) / ns.expm1(-rate * width)


def exponential_offset(v: np.ndarray, rate: float, width: float) -> np.ndarray:
    r"""The offset :math:`s \in [0, W]` with :math:`U(l + s) = vM` for the density
    :math:`C e^{a t}` on :math:`[l, l + W)` (:math:`W = \infty` allowed when :math:`a < 0`).

    For :math:`a = -A < 0`, with :math:`E = 1 - e^{-AW}` (``-expm1(-A W)``), the upper
    fraction :math:`v` and its complement :math:`\bar v = 1 - v`,

    .. math::

       x = e^{-As} = e^{-AW} + vE = 1 - \bar v E, \qquad
       s = -\frac{\log x}{A} \cdot \frac{\bar v E}{1 - x}
         = -\frac{\operatorname{log1p}(-\bar v E)}{A}:

    :math:`x` is computed as the sum of non-negative terms :math:`e^{-AW} + vE`, accurate
    to a few ulps even where it is tiny (far in the tail of a long piece), and the factor
    :math:`\bar v E/(1 - x)` (Kahan's ``log1p`` from ``log``; 1 where :math:`x = 1`)
    restores the relative precision of :math:`s` near the start, where :math:`x` rounds
    to 1. So :math:`s` keeps its relative precision for every :math:`v \in (0, 1]` and
    every :math:`A`, at the cost of one vectorised ``log``. Two cases take one operation:
    :math:`W = \infty`, where :math:`s = -\log(v)/A` (``v`` is exact, so its logarithm is
    accurate, :math:`v \to 1` included), and :math:`AW < 10^{-200}`, where the density is
    flat to 200 digits and :math:`s = \bar v W` (the products above would underflow).
    For :math:`a > 0` the piece is read from its upper end: :math:`s = W - s^{\prime}` with
    :math:`s^{\prime}` the offset of the reflected (decreasing) density at the upper fraction
    :math:`1 - v`.

    Parameters
    ----------
    v : numpy.ndarray
        Upper fractions in :math:`[0, 1]` (:math:`(0, 1]` when :math:`W = \infty`).
    rate : float
        :math:`a \ne 0`.
    width : float
        :math:`W > 0`, finite when :math:`a > 0`.

    Returns
    -------
    numpy.ndarray
        :math:`s`, of the shape of ``v``, clipped to :math:`[0, W]`.
    """
    v = np.asarray(v, dtype=float)
    flat = v.reshape(-1)
    if rate < 0:
        s = _decreasing_offset(flat, 1.0 - flat, -rate, width)
    else:
        s = width - _decreasing_offset(1.0 - flat, flat, rate, width)
    return np.clip(s, 0.0, width).reshape(v.shape)


def _decreasing_offset(g: np.ndarray, cg: np.ndarray, A: float, width: float) -> np.ndarray:
    """The offset of the upper fraction ``g`` (complement ``cg``, both flat) for the
    density e^{-A s} on [0, width) (see :func:`exponential_offset`)."""
    with np.errstate(divide="ignore", invalid="ignore"):  # v = 0 (outside): s = inf
        if not np.isfinite(width):
            return np.log(g) / -A
        aw = A * width
        if aw < 1e-200:
            return cg * width
        total = -np.expm1(-aw)  # E
        x = g * total
        x += np.exp(-aw)  # e^{-A s}, a sum of non-negative terms
        prod = cg * total  # 1 - x, accurate where x is near 1
        s = np.log(x)
        s *= prod / np.subtract(1.0, x)  # log x (1 - x_exact)/(1 - x): log1p(-prod)
        s = np.where(x < 1.0, s, -prod)  # x rounds to 1: log1p(-prod) = -prod
        s /= -A
    return s


def bisect_upper(upper: Callable[[np.ndarray], np.ndarray], v: np.ndarray, mass: float,
                 lo: float, hi: float) -> np.ndarray:
    r"""The largest :math:`t \in [l, h]` with :math:`U(t) \ge vM`, by vectorised bisection
    of the decreasing ``upper`` (:math:`U` in float64); an unbounded piece's upper end is
    first doubled until :math:`U` falls below every target.

    Parameters
    ----------
    upper : callable
        :math:`U`, vectorised.
    v : numpy.ndarray
        Upper fractions.
    mass : float
        :math:`M`.
    lo, hi : float
        The piece's ends (``hi`` may be infinite).

    Returns
    -------
    numpy.ndarray
        :math:`t`, to the last float64 bit of the bisection (or after
        :data:`_BISECTION_STEPS` halvings).
    """
    v = np.asarray(v, dtype=float)
    target = v * mass
    low = np.full_like(v, lo)
    if np.isfinite(hi):
        high = np.full_like(v, hi)
    else:
        high = low + 1.0
        for _ in range(_DOUBLINGS):
            short = upper(high) > target
            if not short.any():
                break
            high = np.where(short, low + 2 * (high - low), high)
    for _ in range(_BISECTION_STEPS):
        mid = 0.5 * (low + high)
        if np.all((mid == low) | (mid == high)):
            break
        right = upper(mid) >= target
        low, high = np.where(right, mid, low), np.where(right, high, mid)
    return low


__all__ = ["FLOAT_DIGITS", "CompiledPiece", "bisect_upper", "exponential_fraction",
           "exponential_offset", "exponential_rate", "exponential_upper", "float_constant",
           "mp_constant", "numpy_function"]
