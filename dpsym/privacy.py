r"""Exact privacy profiles of symmetric noise-adding mechanisms.

The privacy profile of a noise distribution :math:`P` at sensitivity :math:`\Delta` is

.. math::

   \delta(\varepsilon')
   = \sup_{|d| \le \Delta} \sup_S \bigl[P(S) - e^{\varepsilon'} P(S + d)\bigr]
   = \sup_{|d| \le \Delta} \int \bigl(f(x) - e^{\varepsilon'} f(x + d)\bigr)_+ \,dx,

the inner quantity being the hockey-stick divergence of :math:`P` from its translate
(a sum over :math:`\mathbb{Z}`, and :math:`d \in \mathbb{Z}`, for lattice noise). A mechanism
is :math:`(\varepsilon, \delta)`-differentially private exactly when
:math:`\delta(\varepsilon) \le \delta`.

Everything is computed from the :class:`~dpsym.noise.SymmetricNoise` description, without
sampling and without truncation:

* **Fixed shift** (:func:`hockey_stick`). The real line is split at every breakpoint of
  :math:`f(x)` and of :math:`f(x + d)` (the negative half-line is the mirror image of the
  description). On each elementary interval both densities are one piece expression.
  Pieces of the form :math:`C e^{a x}` (every mechanism of the package: constants and
  exponentials) are handled in closed form: the difference
  :math:`f(x) - c f(x + d)` changes sign at most once, at the root of a linear equation in
  :math:`x` (the logarithms of the two terms), and each constant-sign part is integrated (or
  summed, on a lattice) with the exact antiderivative :math:`C e^{a x}/a` (geometric sums).
  Other pieces are handled on bounded intervals with antiderivatives derived once with sympy
  and roots bracketed from sampled sign changes. The geometric tail is summed in closed
  form: beyond the head and beyond the shift, both :math:`f(x)` and :math:`f(x + d)` lie in
  the tail, so the integrand over the period :math:`k + 1` is :math:`q` times the integrand
  over the period :math:`k` and the whole far tail is the integral over one period divided
  by :math:`1 - q` (on each side). A single infinite piece (Laplace's
  :math:`e^{-x/\lambda}` on :math:`[0, \infty)`) is integrated to infinity through the limit
  of its antiderivative.
* **Supremum over the shift** (:func:`max_hockey_stick`). For piecewise-constant densities
  :math:`d \mapsto \int (f(x) - c f(x + d))_+ dx` is piecewise linear, with kinks only where
  a breakpoint of :math:`f(\cdot + d)` crosses one of :math:`f`, i.e. at differences of two
  breakpoints; its supremum over :math:`(0, \Delta]` is therefore attained at
  :math:`d = \Delta` or at a breakpoint difference in :math:`(0, \Delta)`, and all of these
  are evaluated. Lattice noise is evaluated at every integer shift :math:`1, \dots, \Delta`.
  For a log-concave density (Laplace) the maximiser is :math:`d = \Delta` by the
  following theorem, and a grid over :math:`(0, \Delta)` is evaluated only as a check.

  *Theorem (monotone likelihood ratio).* If :math:`f` is log-concave, then for every
  :math:`c > 0` the hockey-stick divergence
  :math:`H(d) = \int (f(x) - c f(x + d))_+ dx` is nondecreasing in :math:`|d|`.
  *Proof.* For :math:`d > 0` the derivative of :math:`\log f(x) - \log f(x + d)` is
  :math:`\psi(x) - \psi(x + d) \ge 0` (:math:`\psi = (\log f)'` is nonincreasing), so the
  set where :math:`f(x) > c f(x + d)` is a half-line :math:`(t, \infty)` and
  :math:`H(d) = \sup_t [\bar F(t) - c \bar F(t + d)]` with :math:`\bar F` the survival
  function. Each bracket is nondecreasing in :math:`d`, and
  :math:`H(d') \ge \sup_t [\bar F(t) - c\bar F(t + d')]` for every :math:`d'`, hence
  :math:`H(d') \ge H(d)` for :math:`d' \ge d`. Symmetry of :math:`f` gives
  :math:`H(-d) = H(d)`.

The privacy-loss view is :func:`privacy_loss_bound`:
:math:`\sup_x \log f(x)/f(x + d)`, which is :math:`\varepsilon` for the pure
:math:`\varepsilon`-DP mechanisms at :math:`d = \Delta`, and :math:`\infty` when the supports
of :math:`f` and :math:`f(\cdot + d)` differ.

Precision: every function computes at the current mpmath working precision; differences
that are zero to within rounding (such as :math:`\delta(\varepsilon) = 0` for an
:math:`\varepsilon`-DP mechanism) are returned as exact zeros, so that
:func:`~dpsym.numerics.certified` certifies them. Nothing here assigns ``mp.dps``.
"""

from __future__ import annotations

import bisect
from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache
from itertools import pairwise
from typing import TYPE_CHECKING

import mpmath
import sympy as sp

from .errors import CertificationError, DomainError, UnsupportedError
from .noise import SymmetricNoise
from .numerics import certified, check_digits, evaluate, to_mpf
from .params import parse_number
from .symbols import u, x

if TYPE_CHECKING:  # imported lazily at run time: the mechanisms may import this module
    from .mechanisms.base import Mechanism, Value

#: Largest number of shifts evaluated for the supremum over the shift.
MAX_SHIFTS = 4096
#: Largest number of lattice points summed one by one (non-exponential lattice pieces).
MAX_DIRECT_SUM = 100_000
#: Sample points per interval used to bracket the roots of non-exponential pieces.
ROOT_SAMPLES = 64
#: Grid points in :math:`(0, \Delta)` that check the log-concave maximiser :math:`d = \Delta`.
CHECK_GRID = 16

__all__ = ["PrivacyCheck", "hockey_stick", "is_private", "max_hockey_stick", "numeric_noise",
           "privacy_loss_bound", "privacy_profile"]


# ---------------------------------------------------------------------------- pieces
@dataclass(frozen=True)
class _Base:
    r"""A piece expression in its variable, analysed once.

    ``rate`` is :math:`a` when the expression is :math:`C e^{a v}` (``coef`` is then
    :math:`C`), otherwise ``None``; ``func``, ``anti`` and ``deriv`` are the expression, an
    antiderivative (``None`` if sympy finds none) and the derivative, lambdified to mpmath.
    """

    expr: sp.Expr
    rate: sp.Expr | None
    coef: sp.Expr
    func: Callable
    anti: Callable | None
    deriv: Callable


@lru_cache(maxsize=1024)
def _prepare(expr: sp.Expr, var: sp.Symbol) -> _Base:
    expr = sp.sympify(expr)
    func = sp.lambdify(var, expr, "mpmath")
    deriv = sp.lambdify(var, sp.diff(expr, var), "mpmath")
    if var not in expr.free_symbols:
        return _Base(expr, sp.Integer(0), expr, func, None, deriv)
    rate = sp.simplify(sp.diff(expr, var) / expr)
    if var not in rate.free_symbols:
        return _Base(expr, rate, sp.simplify(expr.subs(var, 0)), func, None, deriv)
    anti_expr = sp.integrate(expr, var)
    anti = None if anti_expr.has(sp.Integral) else sp.lambdify(var, anti_expr, "mpmath")
    return _Base(expr, None, sp.Integer(0), func, anti, deriv)


class _Seg:
    r"""One piece on the whole line: :math:`\text{scale}\cdot g(\sigma x + o)` on ``[lo, hi)``.

    For an exponential piece the same function is :math:`A e^{\alpha (x - x_0)}`. On a
    lattice ``lo`` and ``hi`` are integers and the piece covers ``lo, ..., hi - 1``.
    """

    __slots__ = ("A", "alpha", "base", "hi", "lo", "offset", "scale", "sigma", "x0")

    def __init__(self, lo, hi, base: _Base, scale, sigma: int, offset, consts: dict) -> None:
        self.lo, self.hi, self.base = lo, hi, base
        self.scale, self.sigma, self.offset = scale, sigma, offset
        if base.rate is not None:
            coef, rate = consts[base]
            self.A = scale * coef
            self.alpha = rate * sigma
            self.x0 = -offset * sigma
        else:
            self.A = self.alpha = self.x0 = None

    @property
    def exponential(self) -> bool:
        return self.alpha is not None

    def shifted(self, d) -> _Seg:
        """The same piece for :math:`x \\mapsto f(x + d)`."""
        out = object.__new__(_Seg)
        out.lo, out.hi, out.base = self.lo - d, self.hi - d, self.base
        out.scale, out.sigma = self.scale, self.sigma
        out.offset = self.offset + self.sigma * d
        out.A, out.alpha = self.A, self.alpha
        out.x0 = None if self.x0 is None else self.x0 - d
        return out

    def value(self, t) -> mpmath.mpf:
        if self.alpha is not None:
            return self.A * mpmath.exp(self.alpha * (t - self.x0))
        return self.scale * self.base.func(self.sigma * t + self.offset)

    def log_value(self, t) -> mpmath.mpf:
        if self.alpha is not None:
            return mpmath.log(self.A) + self.alpha * (t - self.x0)
        return mpmath.log(self.value(t))

    def is_zero(self) -> bool:
        return self.alpha is not None and self.A == 0

    def integral(self, lo, hi) -> mpmath.mpf:
        """:math:`\\int_{lo}^{hi}` of the piece (its sum over ``lo..hi-1`` on a lattice)."""
        if self.alpha is None:
            if self.base.anti is not None and mpmath.isfinite(lo) and mpmath.isfinite(hi):
                anti = self.base.anti
                return self.scale * (anti(self.sigma * hi + self.offset)
                                     - anti(self.sigma * lo + self.offset)) / self.sigma
            if not (mpmath.isfinite(lo) and mpmath.isfinite(hi)):
                raise UnsupportedError("an infinite non-exponential piece has no closed form")
            return mpmath.quad(self.value, [lo, hi])
        A, a = self.A, self.alpha
        if A == 0:
            return mpmath.mpf(0)
        if a == 0:
            if not (mpmath.isfinite(lo) and mpmath.isfinite(hi)):
                raise DomainError("noise", "the density is not integrable (constant to infinity)")
            return A * (hi - lo)
        if hi == mpmath.inf:
            if a >= 0:
                raise DomainError("noise", "the density is not integrable at +infinity")
            return A * mpmath.exp(a * (lo - self.x0)) / (-a)
        if lo == -mpmath.inf:
            if a <= 0:
                raise DomainError("noise", "the density is not integrable at -infinity")
            return A * mpmath.exp(a * (hi - self.x0)) / a
        return A * mpmath.exp(a * (lo - self.x0)) * mpmath.expm1(a * (hi - lo)) / a

    def lattice_sum(self, lo, hi) -> mpmath.mpf:
        """:math:`\\sum_{i = lo}^{hi - 1}` of the piece (``lo`` may be :math:`-\\infty`)."""
        if self.alpha is None:
            if not (mpmath.isfinite(lo) and mpmath.isfinite(hi)) or hi - lo > MAX_DIRECT_SUM:
                raise UnsupportedError("too many lattice points of a non-exponential piece")
            return mpmath.fsum(self.value(mpmath.mpf(j)) for j in range(int(lo), int(hi)))
        A, a = self.A, self.alpha
        if A == 0:
            return mpmath.mpf(0)
        if a == 0:
            if not (mpmath.isfinite(lo) and mpmath.isfinite(hi)):
                raise DomainError("noise", "the mass function is not summable")
            return A * (hi - lo)
        if hi == mpmath.inf:
            if a >= 0:
                raise DomainError("noise", "the mass function is not summable at +infinity")
            return A * mpmath.exp(a * (lo - self.x0)) / (-mpmath.expm1(a))
        if lo == -mpmath.inf:
            if a <= 0:
                raise DomainError("noise", "the mass function is not summable at -infinity")
            return A * mpmath.exp(a * (hi - 1 - self.x0)) / (-mpmath.expm1(-a))
        return A * mpmath.exp(a * (lo - self.x0)) * mpmath.expm1(a * (hi - lo)) / mpmath.expm1(a)


# ---------------------------------------------------------------------------- density
def _num(expr: sp.Expr) -> mpmath.mpf:
    return evaluate(sp.sympify(expr), {})


def _bound(expr: sp.Expr, lattice: bool):
    expr = sp.sympify(expr)
    if expr == sp.oo:
        return mpmath.inf
    if lattice:
        if not expr.is_Integer:
            raise DomainError("noise", f"a lattice piece bound must be an integer, got {expr}")
        return int(expr)
    return _num(expr)


def _check_numeric(noise: SymmetricNoise) -> None:
    if not isinstance(noise, SymmetricNoise):
        raise DomainError("noise", "expected a SymmetricNoise")
    free = noise.free_symbols()
    if free:
        names = ", ".join(sorted(map(str, free)))
        raise DomainError("noise", f"the description must be numeric; substitute {names}")


class _Density:
    """The noise on the whole line at the current precision, unrolled for shifts up to ``reach``."""

    def __init__(self, noise: SymmetricNoise, reach) -> None:
        _check_numeric(noise)
        self.lattice = noise.lattice
        lat = self.lattice
        self.atom = mpmath.mpf(0) if lat else _num(noise.atom)
        self.prec = mpmath.mp.prec
        self.tol = mpmath.mpf(2) ** (24 - self.prec)
        reach = abs(reach)
        self.reach = reach
        consts: dict[_Base, tuple] = {}

        def base_of(expr, var):
            base = _prepare(sp.sympify(expr), var)
            if base.rate is not None and base not in consts:
                consts[base] = (_num(base.coef), _num(base.rate))
            return base

        head = [(_bound(pc.lo, lat), _bound(pc.hi, lat), base_of(pc.expr, x))
                for pc in noise.head]
        finite = [v for lo, hi, _ in head for v in (lo, hi) if mpmath.isfinite(v)]
        self.head_end = max(finite, default=0)
        self.tail = noise.tail
        segs: list[_Seg] = []
        one = mpmath.mpf(1)
        for lo, hi, base in head:
            self._add(segs, lo, hi, base, one, 0, consts)
        if noise.tail is not None:
            t = noise.tail
            self.s = _bound(t.start, lat)
            self.T = _bound(t.period, lat)
            self.q = _num(t.ratio)
            if not (self.T > 0 and 0 < self.q < 1):
                raise DomainError("noise", "a geometric tail needs period > 0 and 0 < ratio < 1")
            shape = [(_bound(pc.lo, lat), _bound(pc.hi, lat), base_of(pc.expr, u))
                     for pc in t.pieces]
            self.window = max(self.s, self.head_end) + 2 * reach + 3 * self.T
            kk = 0
            while self.s + kk * self.T < self.window:
                start = self.s + kk * self.T
                scale = self.q ** kk
                for lo, hi, base in shape:
                    self._add(segs, start + lo, start + hi, base, scale, -start, consts)
                kk += 1
            self.xscale = max(self.window, 1)
        else:
            self.xscale = max(self.head_end, reach, 1)
        segs.sort(key=lambda sg: sg.lo)
        self.segs = segs
        self.los = [sg.lo for sg in segs]

    def _add(self, segs, lo, hi, base, scale, offset, consts) -> None:
        """Append a positive-side piece and its mirror image."""
        if not lo < hi:
            return
        segs.append(_Seg(lo, hi, base, scale, 1, offset, consts))
        if self.lattice:
            mlo, mhi = 1 - hi, min(1 - lo, 0)
        else:
            mlo, mhi = -hi, -lo
        if mlo < mhi:
            segs.append(_Seg(mlo, mhi, base, scale, -1, offset, consts))

    # ------------------------------------------------------------------ structure
    @property
    def piecewise_constant(self) -> bool:
        return all(sg.alpha is not None and sg.base.rate == 0 for sg in self.segs)

    def breakpoints(self) -> list:
        pts = {sg.lo for sg in self.segs} | {sg.hi for sg in self.segs}
        return sorted(pt for pt in pts if mpmath.isfinite(pt))

    def is_log_concave(self) -> bool:
        """Whether the (continuous) density is log-concave, from its exponential pieces."""
        if self.lattice or self.atom != 0:
            return False
        limit = (self.s + 2 * self.T) if self.tail is not None else mpmath.inf
        positive = [sg for sg in self.segs if sg.lo >= 0 and sg.lo < limit]
        if not positive or any(not sg.exponential for sg in positive) or positive[0].lo != 0:
            return False
        tol = self.tol
        ended = False
        prev = None
        for sg in positive:
            if sg.A == 0 or (prev is not None and sg.lo > prev.hi + tol * self.xscale):
                ended = True
            if ended:
                if sg.A != 0:
                    return False
                continue
            if prev is None:
                if sg.alpha > tol * (1 + abs(sg.alpha)):
                    return False
            else:
                if sg.alpha > prev.alpha + tol * (1 + abs(prev.alpha)):
                    return False
                left, right = prev.value(prev.hi), sg.value(sg.lo)
                if abs(left - right) > tol * (left + right):
                    return False
            prev = sg
        return True

    # ------------------------------------------------------------------ lookup
    def _find(self, segs: list[_Seg], los: list, t) -> _Seg | None:
        j = bisect.bisect_right(los, t) - 1
        if j >= 0 and t < segs[j].hi:
            return segs[j]
        return None

    def _regions(self, d) -> list[tuple[object, object, mpmath.mpf]]:
        """``(lo, hi, weight)``: the ranges to integrate and their geometric weights."""
        if self.tail is None:
            return [(-mpmath.inf, mpmath.inf, mpmath.mpf(1))]
        s, T = self.s, self.T
        right = s + max(0, -d)
        left = -s - max(0, d)
        w = 1 / (1 - self.q)
        one = mpmath.mpf(1)
        if self.lattice:
            left = min(left, right - 1)
            return [(left + 1, right, one), (left - T + 1, left + 1, w), (right, right + T, w)]
        return [(left, right, one), (left - T, left, w), (right, right + T, w)]

    def _pieces(self, lo, hi, d):
        """The elementary intervals of ``[lo, hi)`` with the pieces of f and f(. + d)."""
        shifted = [sg.shifted(d) for sg in self.segs]
        slos = [sg.lo for sg in shifted]
        pts = {lo, hi}
        for sg in self.segs:
            for pt in (sg.lo, sg.hi):
                if lo < pt < hi:
                    pts.add(pt)
        for sg in shifted:
            for pt in (sg.lo, sg.hi):
                if lo < pt < hi:
                    pts.add(pt)
        ordered = sorted(pts)
        if not self.lattice:
            gap = self.tol * self.xscale
            merged = [ordered[0]]
            for pt in ordered[1:-1]:
                if pt - merged[-1] > gap and ordered[-1] - pt > gap:
                    merged.append(pt)
            merged.append(ordered[-1])
            ordered = merged
        for a, c in pairwise(ordered):
            if not a < c:
                continue
            if self.lattice:
                m = a if mpmath.isfinite(a) else c - 1
            elif mpmath.isfinite(a) and mpmath.isfinite(c):
                m = (a + c) / 2
            elif mpmath.isfinite(a):
                m = a + 1
            elif mpmath.isfinite(c):
                m = c - 1
            else:
                m = mpmath.mpf(0)
            yield a, c, self._find(self.segs, self.los, m), self._find(shifted, slos, m)

    # ------------------------------------------------------------------ hockey stick
    def _check_reach(self, d) -> None:
        if abs(d) > self.reach:
            raise ValueError(f"shift {d} beyond the unrolled reach {self.reach}")

    def hockey(self, d, c) -> mpmath.mpf:
        self._check_reach(d)
        total = mpmath.mpf(0)
        for lo, hi, weight in self._regions(d):
            part = mpmath.mpf(0)
            for a, z, f1, f2 in self._pieces(lo, hi, d):
                part += self._positive_part(a, z, f1, f2, c)
            total += weight * part
        if self.atom != 0:
            total += self.atom if d != 0 else self._snap(self.atom, c * self.atom)
        return total

    def _snap(self, p, n) -> mpmath.mpf:
        """``p - n`` when positive beyond rounding, else 0."""
        diff = p - n
        return diff if diff > self.tol * (abs(p) + abs(n)) else mpmath.mpf(0)

    def _mass(self, sg: _Seg, lo, hi) -> mpmath.mpf:
        return sg.lattice_sum(lo, hi) if self.lattice else sg.integral(lo, hi)

    def _positive_part(self, lo, hi, f1, f2, c) -> mpmath.mpf:
        if f1 is None or f1.is_zero():
            return mpmath.mpf(0)
        if f2 is None or f2.is_zero():
            return self._mass(f1, lo, hi)
        if f1.exponential and f2.exponential:
            splits = []
            a1, a2 = f1.alpha, f2.alpha
            if abs(a1 - a2) > self.tol * (abs(a1) + abs(a2)):
                y = (mpmath.log(f1.A / (c * f2.A)) - a2 * (f1.x0 - f2.x0)) / (a2 - a1)
                root = f1.x0 + y
                if self.lattice:
                    root = mpmath.ceil(root) if mpmath.isfinite(root) else root
                    root = int(root) if mpmath.isfinite(root) else root
                if lo < root < hi:
                    splits = [root]
            bounds = [lo, *splits, hi]
            total = mpmath.mpf(0)
            for a, z in pairwise(bounds):
                total += self._snap(self._mass(f1, a, z), c * self._mass(f2, a, z))
            return total
        return self._general_part(lo, hi, f1, f2, c)

    def _general_part(self, lo, hi, f1, f2, c) -> mpmath.mpf:
        if not (mpmath.isfinite(lo) and mpmath.isfinite(hi)):
            raise UnsupportedError("an infinite non-exponential piece is not supported")
        if self.lattice:
            if hi - lo > MAX_DIRECT_SUM:
                raise UnsupportedError("too many lattice points of a non-exponential piece")
            total = mpmath.mpf(0)
            for j in range(int(lo), int(hi)):
                t = mpmath.mpf(j)
                total += self._snap(f1.value(t), c * f2.value(t))
            return total

        def diff(t):
            return f1.value(t) - c * f2.value(t)

        bounds = [lo, *_sign_changes(diff, lo, hi), hi]
        total = mpmath.mpf(0)
        for a, z in pairwise(bounds):
            total += self._snap(f1.integral(a, z), c * f2.integral(a, z))
        return total

    # ------------------------------------------------------------------ privacy loss
    def loss_bound(self, d) -> mpmath.mpf:
        self._check_reach(d)
        if self.atom != 0 and d != 0:
            return mpmath.inf
        best = -mpmath.inf
        for lo, hi, _ in self._regions(d):
            for a, z, f1, f2 in self._pieces(lo, hi, d):
                if f1 is None or f1.is_zero():
                    continue
                if f2 is None or f2.is_zero():
                    return mpmath.inf
                best = max(best, self._loss_on(a, z, f1, f2))
        return best

    def _loss_on(self, lo, hi, f1, f2) -> mpmath.mpf:
        if f1.exponential and f2.exponential:
            slope = f1.alpha - f2.alpha
            if abs(slope) <= self.tol * (abs(f1.alpha) + abs(f2.alpha)):
                slope = 0
            last = hi - 1 if self.lattice else hi
            if (slope > 0 and not mpmath.isfinite(last)) or (slope < 0
                                                             and not mpmath.isfinite(lo)):
                return mpmath.inf
            point = lo if (slope < 0 or (slope == 0 and mpmath.isfinite(lo))) else last
            return f1.log_value(point) - f2.log_value(point)
        if not (mpmath.isfinite(lo) and mpmath.isfinite(hi)):
            raise UnsupportedError("an infinite non-exponential piece is not supported")

        def ratio(t):
            return f1.log_value(t) - f2.log_value(t)

        if self.lattice:
            if hi - lo > MAX_DIRECT_SUM:
                raise UnsupportedError("too many lattice points of a non-exponential piece")
            return max(ratio(mpmath.mpf(j)) for j in range(int(lo), int(hi)))

        def slope_at(t):
            return _log_slope(f1, t) - _log_slope(f2, t)

        candidates = [lo, hi, *_sign_changes(slope_at, lo, hi)]
        return max(ratio(t) for t in candidates)


def _log_slope(sg: _Seg, t) -> mpmath.mpf:
    if sg.exponential:
        return sg.alpha
    return sg.sigma * sg.scale * sg.base.deriv(sg.sigma * t + sg.offset) / sg.value(t)


def _sign_changes(func: Callable, lo, hi) -> list:
    """The roots of ``func`` in ``(lo, hi)`` bracketed by sign changes on a sample grid."""
    grid = [lo + (hi - lo) * j / ROOT_SAMPLES for j in range(ROOT_SAMPLES + 1)]
    # Stay strictly inside: the end values belong to the neighbouring pieces.
    inset = (hi - lo) * mpmath.mpf(2) ** (-mpmath.mp.prec // 2)
    grid[0], grid[-1] = lo + inset, hi - inset
    values = [func(t) for t in grid]
    roots = []
    for j in range(ROOT_SAMPLES):
        v0, v1 = values[j], values[j + 1]
        if v0 == 0 and j > 0:
            roots.append(grid[j])
        elif v0 * v1 < 0:
            roots.append(mpmath.findroot(func, (grid[j], grid[j + 1]), solver="anderson"))
    return sorted(rt for rt in roots if lo < rt < hi)


# ---------------------------------------------------------------------------- inputs
def _real_input(value: object, name: str) -> mpmath.mpf:
    """A number at the current precision: mpf as is, sympy expressions evaluated, else exact."""
    if isinstance(value, mpmath.mpf):
        return value
    if isinstance(value, sp.Basic) and not isinstance(value, sp.Rational):
        return _num(value)
    return to_mpf(parse_number(value, name))


def _shift_input(value: object, lattice: bool):
    d = _real_input(value, "shift")
    if lattice:
        if d != mpmath.floor(d):
            raise DomainError("shift", f"must be an integer for lattice noise, got {d}")
        return int(d)
    return d


def _exact(value: object, name: str) -> Fraction | sp.Expr:
    if isinstance(value, mpmath.mpf):
        man, ex = value.man_exp
        return Fraction(int(man)) * Fraction(2) ** int(ex)
    if isinstance(value, sp.Basic) and not isinstance(value, sp.Rational):
        return value
    return parse_number(value, name)


def _mp_of(value: Fraction | sp.Expr) -> mpmath.mpf:
    return to_mpf(value) if isinstance(value, Fraction) else _num(value)


# ---------------------------------------------------------------------------- public API
def hockey_stick(noise_numeric: SymmetricNoise, shift: object,
                 eps_prime: object) -> mpmath.mpf:
    r"""Return :math:`\int \bigl(f(x) - e^{\varepsilon'} f(x + d)\bigr)_+ dx` exactly.

    On a lattice the integral is the sum over :math:`\mathbb{Z}` and the shift must be an
    integer. A point mass :math:`a` at the origin contributes :math:`a` for :math:`d \ne 0`
    (and :math:`a(1 - e^{\varepsilon'})_+` for :math:`d = 0`).

    Parameters
    ----------
    noise_numeric : SymmetricNoise
        A fully numeric description (every symbol substituted by exact numbers, e.g.
        sympy Rationals and ``exp`` of Rationals).
    shift : number
        :math:`d`, any real (integer on a lattice); :math:`H(-d) = H(d)` by symmetry.
    eps_prime : number
        :math:`\varepsilon'`; strings and fractions are read exactly, mpf and sympy
        numbers are evaluated at the current precision.

    Returns
    -------
    mpmath.mpf
        The divergence at the current mpmath working precision (an exact zero when the
        integrand vanishes up to rounding).

    Raises
    ------
    DomainError
        For a non-numeric description or a non-integer shift on a lattice.
    UnsupportedError
        For an infinite piece that is not of the form :math:`C e^{a x}`.
    """
    d = _shift_input(shift, noise_numeric.lattice)
    c = mpmath.exp(_real_input(eps_prime, "eps_prime"))
    return _Density(noise_numeric, d).hockey(d, c)


def _candidate_shifts(dens: _Density, sensitivity: mpmath.mpf) -> tuple[list, bool]:
    """The shifts to evaluate, and whether their maximum is the supremum (not a check)."""
    if dens.lattice:
        top = int(mpmath.floor(sensitivity))
        if top > MAX_SHIFTS:
            raise UnsupportedError(f"more than {MAX_SHIFTS} integer shifts to evaluate")
        return list(range(top, 0, -1)) or [0], True
    if dens.piecewise_constant:
        pts = dens.breakpoints()
        if dens.tail is not None:
            reach = max(dens.s, dens.head_end) + dens.T + sensitivity
        else:
            reach = dens.head_end + sensitivity
        pts = [pt for pt in pts if abs(pt) <= reach]
        gap = dens.tol * dens.xscale
        diffs = sorted({q - p for p in pts for q in pts if 0 < q - p < sensitivity - gap})
        shifts = [sensitivity]
        for dd in reversed(diffs):
            if shifts[-1] - dd > gap:
                shifts.append(dd)
        if len(shifts) > MAX_SHIFTS:
            raise UnsupportedError(f"more than {MAX_SHIFTS} breakpoint differences to evaluate")
        return shifts, True
    if dens.is_log_concave():
        grid = [sensitivity * j / CHECK_GRID for j in range(CHECK_GRID - 1, 0, -1)]
        return [sensitivity, *grid], False
    raise UnsupportedError(
        "the supremum over the shift is exact only for piecewise-constant, lattice or "
        "log-concave noise"
    )


def max_hockey_stick(noise_numeric: SymmetricNoise, sensitivity: object,
                     eps_prime: object) -> tuple[mpmath.mpf, object]:
    r"""Return :math:`\bigl(\sup_{|d| \le \Delta} H(d), d^*\bigr)` at the working precision.

    :math:`H(d) = \int (f(x) - e^{\varepsilon'} f(x + d))_+ dx` (see :func:`hockey_stick`).
    The supremum is exact for

    * lattice noise: every integer shift :math:`1, \dots, \lfloor\Delta\rfloor` is evaluated;
    * piecewise-constant densities: :math:`H` is piecewise linear in :math:`d` with kinks at
      differences of breakpoints, so :math:`d = \Delta` and every breakpoint difference in
      :math:`(0, \Delta)` are evaluated (and, with a point mass at the origin, the limit
      :math:`d \to 0^+`);
    * log-concave densities: :math:`H` is nondecreasing in :math:`|d|` (module docstring),
      so :math:`d^* = \Delta`; :data:`CHECK_GRID` further shifts are evaluated as a check,
      and a violation raises :class:`~dpsym.errors.CertificationError`.

    Negative shifts need no evaluation: :math:`H(-d) = H(d)` for symmetric noise.

    Parameters
    ----------
    noise_numeric : SymmetricNoise
        A fully numeric description.
    sensitivity : number
        :math:`\Delta > 0`.
    eps_prime : number
        :math:`\varepsilon'`.

    Returns
    -------
    (mpmath.mpf, number)
        The supremum and a shift :math:`d^* \in (0, \Delta]` attaining it (the largest such
        shift among ties; ``0`` for the limit :math:`d \to 0^+`).

    Raises
    ------
    UnsupportedError
        For other densities, or too many shifts to evaluate.
    """
    delta_max = _real_input(sensitivity, "Delta")
    if not delta_max > 0:
        raise DomainError("Delta", f"must be > 0, got {delta_max}")
    c = mpmath.exp(_real_input(eps_prime, "eps_prime"))
    dens = _Density(noise_numeric, delta_max)
    shifts, exact = _candidate_shifts(dens, delta_max)
    best, where = None, None
    for d in shifts:
        value = dens.hockey(d, c)
        if best is None or value > best + dens.tol * (1 + abs(best)):
            if not exact and best is not None:
                raise CertificationError(
                    f"log-concave noise: H({d}) = {value} exceeds H(Delta) = {best}"
                )
            best, where = value, d
    if dens.atom != 0 and dens.piecewise_constant:
        # The limit d -> 0+: the atom, plus the continuous part (1 - c)_+ (1 - atom).
        limit = dens.atom + max(mpmath.mpf(0), 1 - c) * (1 - dens.atom)
        if limit > best + dens.tol:
            best, where = limit, 0
    return best, where


def privacy_loss_bound(noise_numeric: SymmetricNoise, shift: object) -> mpmath.mpf:
    r"""Return :math:`\sup_x \log f(x)/f(x + d)` over the points where both are positive.

    The value is :math:`+\infty` as soon as :math:`f(x) > 0 = f(x + d)` on a set of positive
    probability (the supports differ, or a point mass at the origin with :math:`d \ne 0`).
    For the pure :math:`\varepsilon`-DP mechanisms it is :math:`\varepsilon` at
    :math:`d = \Delta`. The supremum of a log-linear ratio on an interval is taken at an end
    (as a limit for open ends).

    Parameters
    ----------
    noise_numeric : SymmetricNoise
        A fully numeric description.
    shift : number
        :math:`d` (an integer on a lattice).

    Returns
    -------
    mpmath.mpf
        The bound at the current working precision (``mpmath.inf`` if unbounded).
    """
    d = _shift_input(shift, noise_numeric.lattice)
    return _Density(noise_numeric, d).loss_bound(d)


def numeric_noise(mechanism_instance: Mechanism, cost: object = "amplitude", digits: int = 30,
                  free_value: object = None) -> tuple[SymmetricNoise, Fraction]:
    r"""The instance's normalised noise with every symbol substituted exactly.

    :math:`b = e^{-\varepsilon}` is substituted as ``exp(-eps)``; the free parameter is
    ``free_value`` (validated against its range) or the optimum for ``cost``, certified to
    ``digits + 10`` digits and substituted as the exact binary rational it is.

    Returns
    -------
    (SymmetricNoise, Fraction)
        The numeric description and the sensitivity :math:`\Delta`.
    """
    noise = mechanism_instance.numeric_noise(cost, free_value, digits + 10)
    _check_numeric(noise)
    return noise, mechanism_instance.values["Delta"]


def _target(target: Mechanism | SymmetricNoise, cost, digits, free_value, sensitivity):
    if isinstance(target, SymmetricNoise):
        if sensitivity is None:
            raise DomainError("sensitivity", "is required with a SymmetricNoise")
        _check_numeric(target)
        return target, _exact(sensitivity, "sensitivity")
    from .mechanisms.base import Mechanism

    if not isinstance(target, Mechanism):
        raise DomainError("mechanism", "expected a Mechanism instance or a SymmetricNoise")
    noise, sens = numeric_noise(target, cost, digits, free_value)
    if sensitivity is not None:
        sens = _exact(sensitivity, "sensitivity")
    return noise, sens


def _certified_profile(target, eps_prime, cost, digits, free_value, sensitivity):
    from .mechanisms.base import Value

    digits = check_digits(digits)
    noise, sens = _target(target, cost, digits, free_value, sensitivity)
    eps_exact = _exact(eps_prime, "eps_prime")
    where: list = [None]

    def compute() -> mpmath.mpf:
        value, shift = max_hockey_stick(noise, _mp_of(sens), _mp_of(eps_exact))
        where[0] = shift
        return value

    number, text = certified(compute, digits, allow_zero=True)
    return Value(number, text, digits), where[0]


def privacy_profile(mechanism_instance: Mechanism | SymmetricNoise, eps_prime: object,
                    cost: object = "amplitude", digits: int = 30, *,
                    free_value: object = None, sensitivity: object = None) -> Value:
    r"""The privacy profile :math:`\delta(\varepsilon')` at the instance's sensitivity, certified.

    .. math:: \delta(\varepsilon') = \sup_{|d| \le \Delta}
              \int \bigl(f(x) - e^{\varepsilon'} f(x + d)\bigr)_+ dx

    Parameters
    ----------
    mechanism_instance : Mechanism or SymmetricNoise
        An instance with every parameter set, e.g. ``Staircase(eps="0.5", Delta=2)``; or a
        numeric noise description together with ``sensitivity``.
    eps_prime : number
        :math:`\varepsilon'` (read exactly from strings and fractions).
    cost : str or Cost
        The cost whose optimal free parameter is used (ignored without a free parameter).
    digits : int
        Significant digits certified (:func:`dpsym.numerics.certified`).
    free_value : number, optional
        An explicit value of the free parameter instead of the optimum.
    sensitivity : number, optional
        :math:`\Delta`; required with a SymmetricNoise, overrides the instance's otherwise.

    Returns
    -------
    Value
        The certified :math:`\delta(\varepsilon')` (``text`` is ``"0"`` when it vanishes).
    """
    value, _ = _certified_profile(mechanism_instance, eps_prime, cost, digits, free_value,
                                  sensitivity)
    return value


@dataclass(frozen=True)
class PrivacyCheck:
    r"""The verdict of :func:`is_private`.

    Attributes
    ----------
    private : bool
        Whether :math:`\delta(\varepsilon) \le \delta` (up to ``tolerance``).
    delta : mpmath.mpf
        The computed :math:`\delta(\varepsilon)`.
    text : str
        Its certified decimal representation.
    shift : number
        A worst shift :math:`d^*`.
    eps, target : Fraction
        The :math:`\varepsilon` and :math:`\delta` checked.
    tolerance : mpmath.mpf
        :math:`10^{-\text{digits} + 5}`, the slack allowed above ``target``.
    """

    private: bool
    delta: mpmath.mpf
    text: str
    shift: object
    eps: Fraction | sp.Expr
    target: Fraction
    tolerance: mpmath.mpf

    def __bool__(self) -> bool:
        return self.private


def is_private(mechanism_instance: Mechanism | SymmetricNoise, eps: object, delta: object = 0,
               cost: object = "amplitude", digits: int = 30, *, free_value: object = None,
               sensitivity: object = None) -> PrivacyCheck:
    r"""Decide :math:`(\varepsilon, \delta)`-differential privacy from the exact profile.

    The mechanism is :math:`(\varepsilon, \delta)`-DP exactly when
    :math:`\delta(\varepsilon) \le \delta`; the certified :math:`\delta(\varepsilon)` is
    compared with a tolerance of :math:`10^{-\text{digits} + 5}` (for the pure
    :math:`\varepsilon`-DP mechanisms :math:`\delta(\varepsilon) = 0` exactly).

    Parameters
    ----------
    mechanism_instance : Mechanism or SymmetricNoise
        As in :func:`privacy_profile`.
    eps, delta : number
        The privacy parameters checked (:math:`\delta \ge 0`).
    cost, digits, free_value, sensitivity
        As in :func:`privacy_profile`.

    Returns
    -------
    PrivacyCheck
        The verdict, the computed :math:`\delta(\varepsilon)` and a worst shift.
    """
    digits = check_digits(digits)
    allowed = parse_number(delta, "delta")
    if allowed < 0:
        raise DomainError("delta", f"must be >= 0, got {allowed}")
    eps_exact = _exact(eps, "eps")
    value, shift = _certified_profile(mechanism_instance, eps_exact, cost, digits, free_value,
                                      sensitivity)
    with mpmath.workdps(digits + 10):
        tolerance = mpmath.mpf(10) ** (5 - digits)
        verdict = bool(value.number <= to_mpf(allowed) + tolerance)
    return PrivacyCheck(verdict, value.number, value.text, shift, eps_exact, allowed, tolerance)
