r"""Piecewise densities on the whole line and their hockey-stick integrals, in closed form.

The machinery behind :mod:`dpsym.privacy.profiles`: a numeric
:class:`~dpsym.symbolic.noise.SymmetricNoise` is unrolled into segments on the real line (or on
:math:`\mathbb{Z}`) at the current mpmath precision (:class:`Density`); for a shift
:math:`d` and a factor :math:`c = e^{\varepsilon^{\prime}}` the integral (sum)
:math:`\int (f(x) - c f(x + d))_+ dx` is taken piece by piece with exact antiderivatives
(geometric sums on a lattice), the geometric tail summed in closed form. The method and
its proof are in the docstring of :mod:`dpsym.privacy.profiles`.
"""

from __future__ import annotations

import bisect
from collections.abc import Callable
from dataclasses import dataclass
from functools import lru_cache
from itertools import pairwise

import mpmath
import sympy as sp

from dpsym.errors import DomainError, UnsupportedError
from dpsym.symbolic.lambdas import mpmath_function
from dpsym.symbolic.noise import SymmetricNoise
from dpsym.symbolic.numerics import evaluate
from dpsym.symbols import u, x

#: Largest number of lattice points summed one by one (non-exponential lattice pieces).
MAX_DIRECT_SUM = 100_000
#: Sample points per interval used to bracket the roots of non-exponential pieces.
ROOT_SAMPLES = 64

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
    func = mpmath_function(var, expr)
    deriv = mpmath_function(var, sp.diff(expr, var))
    if var not in expr.free_symbols:
        return _Base(expr, sp.Integer(0), expr, func, None, deriv)
    rate = sp.simplify(sp.diff(expr, var) / expr)
    if var not in rate.free_symbols:
        return _Base(expr, rate, sp.simplify(expr.subs(var, 0)), func, None, deriv)
    anti_expr = sp.integrate(expr, var)
    anti = None if anti_expr.has(sp.Integral) else mpmath_function(var, anti_expr)
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
        r"""The same piece for :math:`x \mapsto f(x + d)`."""
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
        r""":math:`\int_{lo}^{hi}` of the piece (its sum over ``lo..hi-1`` on a lattice)."""
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
        r""":math:`\sum_{i = lo}^{hi - 1}` of the piece (``lo`` may be :math:`-\infty`)."""
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
def numeric_value(expr: sp.Expr) -> mpmath.mpf:
    return evaluate(sp.sympify(expr), {})


def piece_bound(expr: sp.Expr, lattice: bool):
    expr = sp.sympify(expr)
    if expr == sp.oo:
        return mpmath.inf
    if lattice:
        if not expr.is_Integer:
            raise DomainError("noise", f"a lattice piece bound must be an integer, got {expr}")
        return int(expr)
    return numeric_value(expr)


def check_numeric(noise: SymmetricNoise) -> None:
    if not isinstance(noise, SymmetricNoise):
        raise DomainError("noise", "expected a SymmetricNoise")
    free = noise.free_symbols()
    if free:
        names = ", ".join(sorted(map(str, free)))
        raise DomainError("noise", f"the description must be numeric; substitute {names}")


class Density:
    """The noise on the whole line at the current precision, unrolled for shifts up to ``reach``."""

    def __init__(self, noise: SymmetricNoise, reach) -> None:
        check_numeric(noise)
        self.lattice = noise.lattice
        lat = self.lattice
        self.atom = mpmath.mpf(0) if lat else numeric_value(noise.atom)
        self.prec = mpmath.mp.prec
        self.tol = mpmath.mpf(2) ** (24 - self.prec)
        reach = abs(reach)
        self.reach = reach
        consts: dict[_Base, tuple] = {}

        def base_of(expr, var):
            base = _prepare(sp.sympify(expr), var)
            if base.rate is not None and base not in consts:
                consts[base] = (numeric_value(base.coef), numeric_value(base.rate))
            return base

        head = [(piece_bound(pc.lo, lat), piece_bound(pc.hi, lat), base_of(pc.expr, x))
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
            self.s = piece_bound(t.start, lat)
            self.T = piece_bound(t.period, lat)
            self.q = numeric_value(t.ratio)
            if not (self.T > 0 and 0 < self.q < 1):
                raise DomainError("noise", "a geometric tail needs period > 0 and 0 < ratio < 1")
            shape = [(piece_bound(pc.lo, lat), piece_bound(pc.hi, lat), base_of(pc.expr, u))
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
