r"""The privacy loss of a symmetric noise at a shift, exactly: Rényi integrals, the
Kullback-Leibler divergence, the largest loss and the privacy-loss law.

For a noise density (or mass function) :math:`f` and a shift :math:`d`, the privacy loss
of an outcome :math:`x` is :math:`\ell(x) = \log f(x)/f(x + d)` and the privacy-loss law
is the law of :math:`\ell(X)` for :math:`X \sim f` (:math:`+\infty` where
:math:`f(x) > 0 = f(x + d)`). Everything here is computed from the
:class:`~dpsym.symbolic.noise.SymmetricNoise` description whose pieces are :math:`C e^{r x}`
(constants and exponentials: every one-dimensional mechanism of the package except the
Gaussians, which :mod:`dpsym.accounting.renyi` and :mod:`dpsym.accounting.composition` handle in
closed form):

* the real line (or :math:`\mathbb{Z}`) is cut at every breakpoint of :math:`f` and of
  :math:`f(\cdot + d)`; on each elementary interval both are one exponential
  :math:`C_i e^{r_i x}`, so :math:`\ell` is affine there, and the Rényi integrand
  :math:`f^\alpha f(\cdot + d)^{1 - \alpha}` and the KL integrand :math:`f\,\ell` have exact
  antiderivatives (geometric sums on a lattice);
* the geometric tail is summed in closed form: beyond the head and the shift, moving
  :math:`x` by one period multiplies :math:`f(x)` and :math:`f(x + d)` by :math:`q`, so
  :math:`\ell` is periodic there and every integrand above is multiplied by :math:`q`; the
  far tail is one period weighted by :math:`1/(1 - q)` on each side.

The breakpoints and constants are kept as exact sympy numbers; every number is computed
in Arb ball arithmetic (python-flint) at a precision the caller sets, so each result is a
ball that contains the exact value (:func:`certify` rounds such balls to certified digits).
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache

import flint
import mpmath
import sympy as sp

from dpsym.certified.constants import arb_of, exact_sym, sort_key
from dpsym.certified.kernel import certify, certify_directed, directed_texts, nonneg, outward
from dpsym.errors import UnsupportedError
from dpsym.precision import exclusive
from dpsym.privacy.divergence import check_numeric
from dpsym.symbolic.noise import SymmetricNoise
from dpsym.symbols import u, x

__all__ = [
    "Interval",
    "LossLaw",
    "Unrolled",
    "arb_of",
    "certify",
    "certify_directed",
    "directed_texts",
    "exact_sym",
    "kl_integral",
    "largest_loss",
    "loss_law",
    "nonneg",
    "outward",
    "piece_bins",
    "renyi_integral",
    "sort_key",
]

#: Largest number of integer shifts of a lattice noise with non-constant pieces.
MAX_LATTICE_SHIFTS = 4096
#: Largest number of lattice points with a non-constant loss enumerated one by one.
MAX_POINTS = 200_000
_BITS_PER_DIGIT = 3.3219280948873626


# ---------------------------------------------------------------------------- pieces
def _exp_form(expr: sp.Expr, var: sp.Symbol) -> tuple[sp.Expr, sp.Expr]:
    """``(C, r)`` with ``expr`` :math:`= C e^{r v}`, or UnsupportedError."""
    return _exp_form_cached(sp.sympify(expr), var)


@lru_cache(maxsize=1024)
def _exp_form_cached(expr: sp.Expr, var: sp.Symbol) -> tuple[sp.Expr, sp.Expr]:
    if var not in expr.free_symbols:
        return expr, sp.Integer(0)
    rate = sp.simplify(sp.diff(expr, var) / expr)
    if var in rate.free_symbols:
        raise UnsupportedError("the privacy loss is derived for pieces C exp(r x) only")
    return sp.simplify(expr.subs(var, 0)), rate


# ---------------------------------------------------------------------------- segments
@dataclass(frozen=True)
class Seg:
    r"""The density :math:`C e^{r (x - x_0)}` on ``[lo, hi)`` (integers ``lo..hi-1`` on a
    lattice), every field an exact sympy number."""

    lo: sp.Expr
    hi: sp.Expr
    coef: sp.Expr
    rate: sp.Expr
    x0: sp.Expr

    def shifted(self, d: sp.Expr) -> Seg:
        r"""The piece of :math:`x \mapsto f(x + d)`."""
        return Seg(self.lo - d, self.hi - d, self.coef, self.rate, self.x0 - d)

    @property
    def zero(self) -> bool:
        return self.coef == 0

    def log_at(self, t: flint.arb) -> flint.arb:
        return arb_of(self.coef).log() + arb_of(self.rate) * (t - arb_of(self.x0))

    def log_exact(self, t: sp.Expr) -> sp.Expr:
        return sp.log(self.coef) + self.rate * (t - self.x0)


@dataclass(frozen=True)
class Interval:
    r"""An elementary interval ``[a, c)`` with the pieces of :math:`f` and
    :math:`f(\\cdot + d)` there (``None`` where a density is zero) and the weight of its
    region (1, or :math:`1/(1 - q)` for a period standing for the far tail)."""

    a: sp.Expr
    c: sp.Expr
    f: Seg | None
    g: Seg | None
    weight: sp.Expr

    @property
    def ref(self) -> sp.Expr:
        """The finite end used as reference point (``a``, else ``c``)."""
        return self.a if self.a.is_finite else self.c

    def loss_exact(self, t: sp.Expr) -> sp.Expr:
        r""":math:`\\ell(t)` as an exact sympy number (both pieces positive)."""
        assert self.f is not None and self.g is not None
        return _loss_value(self.f.coef, self.g.coef, self.f.rate, self.g.rate,
                           self.f.x0, self.g.x0, t)

    @property
    def slope(self) -> sp.Expr:
        assert self.f is not None and self.g is not None
        return self.f.rate - self.g.rate


@lru_cache(maxsize=4096)
def _loss_value(c1, c2, r1, r2, x1, x2, t) -> sp.Expr:
    return sp.log(c1 / c2) + r1 * (t - x1) - r2 * (t - x2)


class Unrolled:
    r"""A numeric noise description unrolled on the whole line for shifts up to ``reach``.

    Parameters
    ----------
    noise : SymmetricNoise
        Fully numeric, with pieces :math:`C e^{r x}`.
    reach : Fraction
        The largest shift that will be asked for.
    """

    def __init__(self, noise: SymmetricNoise, reach: Fraction) -> None:
        check_numeric(noise)
        self.noise = noise
        self.lattice = noise.lattice
        self.atom = sp.sympify(noise.atom)
        reach = sp.Abs(exact_sym(reach))
        pos: list[Seg] = []
        for pc in noise.head:
            coef, rate = _exp_form(pc.expr, x)
            pos.append(Seg(sp.sympify(pc.lo), sp.sympify(pc.hi), coef, rate, sp.Integer(0)))
        ends = [s.hi for s in pos if s.hi.is_finite] + [s.lo for s in pos]
        self.head_end = max(ends, key=sort_key, default=sp.Integer(0))
        self.tail = noise.tail
        if noise.tail is not None:
            t = noise.tail
            self.s, self.T, self.q = (sp.sympify(e) for e in (t.start, t.period, t.ratio))
            shape = []
            for pc in t.pieces:
                coef, rate = _exp_form(pc.expr, u)
                shape.append((sp.sympify(pc.lo), sp.sympify(pc.hi), coef, rate))
            window = sort_key(max(self.s, self.head_end, key=sort_key)) + 2 * sort_key(reach) \
                + 3 * sort_key(self.T)
            kk = 0
            while sort_key(self.s + kk * self.T) < window:
                start = self.s + kk * self.T
                for lo, hi, coef, rate in shape:
                    pos.append(Seg(start + lo, start + hi, coef * self.q**kk, rate, start))
                kk += 1
        segs: list[Seg] = []
        for sg in pos:
            if sort_key(sg.lo) >= sort_key(sg.hi):
                continue
            segs.append(sg)
            if self.lattice:
                mlo, mhi = 1 - sg.hi, sp.Min(1 - sg.lo, 0)
            else:
                mlo, mhi = -sg.hi, -sg.lo
            if sort_key(mlo) < sort_key(mhi):
                segs.append(Seg(mlo, mhi, sg.coef, -sg.rate, -sg.x0))
        segs.sort(key=lambda sg: sort_key(sg.lo))
        self.segs = segs
        self.keys = [sort_key(sg.lo) for sg in segs]

    # ------------------------------------------------------------------ structure
    @property
    def bounded(self) -> bool:
        """Whether the support is bounded (no tail, every piece finite)."""
        return self.tail is None and all(sg.hi.is_finite for sg in self.segs)

    def breakpoints(self) -> list[sp.Expr]:
        pts: dict[str, sp.Expr] = {}
        for sg in self.segs:
            for pt in (sg.lo, sg.hi):
                if pt.is_finite:
                    pts[str(pt)] = pt
        return sorted(pts.values(), key=sort_key)

    def candidate_shifts(self, sensitivity: Fraction) -> list[sp.Expr]:
        r"""The shifts at which a function of :math:`d` that is piecewise linear with kinks
        at breakpoint differences (the Rényi and KL integrals, the hockey-stick divergence
        of a piecewise-constant noise) can take its largest value on :math:`(0, \Delta]`:
        :math:`\Delta` and the breakpoint differences below it (lattice: with the shift 1).

        Those integrals are piecewise linear in :math:`d` for piecewise-constant noise only;
        with a non-constant piece, a lattice noise's shifts are all the integers
        :math:`1, \dots, \Delta` (each evaluated: exact), and a density on the line has
        no such set.

        Raises
        ------
        UnsupportedError
            For a density on the line with a non-constant piece.
        """
        top = exact_sym(sensitivity)
        if any(sg.rate != 0 for sg in self.segs if not sg.zero):
            if not self.lattice:
                raise UnsupportedError(
                    "the worst shift is derived for log-concave or piecewise-constant "
                    "densities; this one has non-constant pieces and is not log-concave")
            count = int(sp.floor(top))
            if count > MAX_LATTICE_SHIFTS:
                raise UnsupportedError(f"more than {MAX_LATTICE_SHIFTS} integer shifts to "
                                       "evaluate")
            return [sp.Integer(d) for d in range(1, count + 1)] or [top]
        pts = self.breakpoints()
        found: dict[str, sp.Expr] = {str(top): top}
        if self.lattice:
            found["1"] = sp.Integer(1)
        for p in pts:
            for q in pts:
                diff = q - p
                if 0 < sort_key(diff) < sort_key(top):
                    found[str(diff)] = diff
        return sorted(found.values(), key=sort_key)

    def intervals(self, d: sp.Expr) -> Iterator[Interval]:
        r"""The elementary intervals for the shift :math:`d \ge 0`, with region weights."""
        d = sp.sympify(d)
        one = sp.Integer(1)
        if self.tail is None:
            regions = [(-sp.oo, sp.oo, one)]
        else:
            s, T = self.s, self.T
            right, left = s, -s - d
            w = 1 / (1 - self.q)
            if self.lattice:
                left = sp.Min(left, right - 1)
                regions = [(left + 1, right, one), (left - T + 1, left + 1, w),
                           (right, right + T, w)]
            else:
                regions = [(left, right, one), (left - T, left, w), (right, right + T, w)]
        shifted = [sg.shifted(d) for sg in self.segs]
        for lo, hi, weight in regions:
            klo, khi = sort_key(lo), sort_key(hi)
            pts: dict[str, tuple[mpmath.mpf, sp.Expr]] = {str(lo): (klo, lo),
                                                          str(hi): (khi, hi)}
            for sg in (*self.segs, *shifted):
                for pt in (sg.lo, sg.hi):
                    kp = sort_key(pt)
                    if klo < kp < khi:
                        pts.setdefault(str(pt), (kp, pt))
            ordered = sorted(pts.values(), key=lambda kv: kv[0])
            merged = [ordered[0]]
            for kv in ordered[1:]:
                if abs(kv[0] - merged[-1][0]) > mpmath.mpf(10) ** -40 or \
                        not mpmath.isfinite(kv[0]):
                    merged.append(kv)
            for (ka, a), (kc, c) in itertools.pairwise(merged):
                if self.lattice:
                    m = ka if mpmath.isfinite(ka) else kc - 1
                elif mpmath.isfinite(ka) and mpmath.isfinite(kc):
                    m = (ka + kc) / 2
                elif mpmath.isfinite(ka):
                    m = ka + 1
                elif mpmath.isfinite(kc):
                    m = kc - 1
                else:
                    m = mpmath.mpf(0)
                f = self._at(self.segs, m)
                g = self._at(shifted, m)
                yield Interval(a, c, None if f is None or f.zero else f,
                               None if g is None or g.zero else g, weight)

    @staticmethod
    def _at(segs: list[Seg], t: mpmath.mpf) -> Seg | None:
        for sg in segs:
            if sort_key(sg.lo) <= t < sort_key(sg.hi):
                return sg
        return None


# ---------------------------------------------------------------------------- integrals
def _is_zero(expr: sp.Expr) -> bool:
    return sp.simplify(expr) == 0


def _length(iv: Interval) -> flint.arb:
    return arb_of(iv.c - iv.a)


def exp_moments(iv: Interval, value_ref: flint.arb, rate: sp.Expr, lattice: bool,
                first: bool = False) -> tuple[flint.arb, flint.arb]:
    r"""``(M0, M1)``: the integral (sum) over the interval of
    :math:`V e^{r (x - x_r)}` and of :math:`V e^{r (x - x_r)} (x - x_r)`, with
    :math:`x_r` the reference end (``a`` if finite, else ``c``) and :math:`V` its value
    there. ``first=False`` skips :math:`M_1` (returned as zero)."""
    zero = _is_zero(rate)
    r = arb_of(rate)
    a_fin, c_fin = iv.a.is_finite, iv.c.is_finite
    m1 = flint.arb(0)
    if a_fin and c_fin:
        n = _length(iv)
        if lattice:
            if zero:
                m0 = n
                if first:
                    m1 = n * (n - 1) / 2
            else:
                z = r.exp()
                m0 = (r * n).expm1() / r.expm1()
                if first:
                    m1 = z * (1 - n * z ** (n - 1) + (n - 1) * z**n) / (1 - z) ** 2
        elif zero:
            m0 = n
            if first:
                m1 = n * n / 2
        else:
            m0 = (r * n).expm1() / r
            if first:
                m1 = (n * (r * n).exp() - m0) / r
    elif a_fin:  # [a, oo), decaying
        if zero or not r < 0:
            raise UnsupportedError("a piece of the noise is not integrable at +infinity")
        if lattice:
            z = r.exp()
            m0 = 1 / (1 - z)
            m1 = z / (1 - z) ** 2
        else:
            m0 = -1 / r
            m1 = 1 / (r * r)
    elif c_fin:  # (-oo, c)
        if zero or not r > 0:
            raise UnsupportedError("a piece of the noise is not integrable at -infinity")
        if lattice:
            z = r.exp()
            m0 = 1 / (z - 1)
            m1 = -z / (z - 1) ** 2
        else:
            m0 = 1 / r
            m1 = -1 / (r * r)
    else:
        raise UnsupportedError("a piece covering the whole line is not integrable")
    return value_ref * m0, value_ref * m1


def renyi_integral(unrolled: Unrolled, d: sp.Expr, order: Fraction) -> flint.arb | None:
    r""":math:`\int f^\alpha f(\cdot + d)^{1 - \alpha}` as a ball at the current Arb
    precision, or ``None`` when it is infinite (the supports differ)."""
    alpha = sp.Rational(order.numerator, order.denominator)
    aa = arb_of(alpha)
    total = flint.arb(0)
    if unrolled.atom != 0:
        if d != 0:
            return None
        total += arb_of(unrolled.atom)
    for iv in unrolled.intervals(d):
        if iv.f is None:
            continue
        if iv.g is None:
            return None
        ref = arb_of(iv.ref)
        log_v = aa * iv.f.log_at(ref) + (1 - aa) * iv.g.log_at(ref)
        rate = alpha * iv.f.rate + (1 - alpha) * iv.g.rate
        m0, _ = exp_moments(iv, log_v.exp(), rate, unrolled.lattice)
        total += arb_of(iv.weight) * m0
    return total


def kl_integral(unrolled: Unrolled, d: sp.Expr) -> flint.arb | None:
    r""":math:`\int f \log(f / f(\cdot + d))` as a ball, or ``None`` when infinite."""
    total = flint.arb(0)
    if unrolled.atom != 0 and d != 0:
        return None
    for iv in unrolled.intervals(d):
        if iv.f is None:
            continue
        if iv.g is None:
            return None
        ref = arb_of(iv.ref)
        log_f = iv.f.log_at(ref)
        loss_ref = log_f - iv.g.log_at(ref)
        m0, m1 = exp_moments(iv, log_f.exp(), iv.f.rate, unrolled.lattice, first=True)
        total += arb_of(iv.weight) * (loss_ref * m0 + arb_of(iv.slope) * m1)
    return total


def largest_loss(unrolled: Unrolled, d: sp.Expr) -> list[sp.Expr] | None:
    r"""The exact candidates for :math:`\sup_x \ell(x)` (the loss at the ends of every
    elementary interval where it is attained), or ``None`` when the supremum is
    infinite."""
    if unrolled.atom != 0 and d != 0:
        return None
    out: dict[str, sp.Expr] = {}
    for iv in unrolled.intervals(d):
        if iv.f is None:
            continue
        if iv.g is None:
            return None
        slope = sp.simplify(iv.slope)
        if slope > 0:
            if not iv.c.is_finite:
                return None
            end = iv.c - 1 if unrolled.lattice else iv.c
        elif slope < 0:
            if not iv.a.is_finite:
                return None
            end = iv.a
        else:
            end = iv.ref
        value = sp.simplify(iv.loss_exact(end))
        out[str(value)] = value
    return list(out.values())


# ---------------------------------------------------------------------------- loss law
@dataclass
class LossLaw:
    r"""The privacy-loss law at one shift.

    ``atoms`` maps each exact loss value (a sympy number) to its probability (a callable
    giving a ball at the current precision); ``pieces`` are the intervals on which the
    loss is a non-constant affine function of a continuous outcome (with their weights);
    ``infinite`` is the probability of :math:`\ell = +\infty` (a callable giving a ball).
    """

    atoms: dict[sp.Expr, list[Callable[[], flint.arb]]]
    pieces: list[Interval]
    infinite: list[Callable[[], flint.arb]]
    lattice: bool

    def atom_masses(self) -> list[tuple[sp.Expr, flint.arb]]:
        out = []
        for loss, parts in self.atoms.items():
            total = flint.arb(0)
            for p in parts:
                total += p()
            out.append((loss, total))
        return out

    def infinite_mass(self) -> flint.arb:
        total = flint.arb(0)
        for p in self.infinite:
            total += p()
        return total


def _mass(iv: Interval, lattice: bool, lo: flint.arb | None = None,
          hi: flint.arb | None = None) -> flint.arb:
    r""":math:`P(X \in [lo, hi) \cap [a, c))` on the interval (``lo``/``hi`` optional)."""
    assert iv.f is not None
    if lo is None and hi is None:
        ref = arb_of(iv.ref)
        m0, _ = exp_moments(iv, iv.f.log_at(ref).exp(), iv.f.rate, lattice)
        return m0
    a, c = arb_of(iv.a), arb_of(iv.c)
    lo = a if lo is None else lo
    hi = c if hi is None else hi
    r = arb_of(iv.f.rate)
    value = iv.f.log_at(a).exp()
    if _is_zero(iv.f.rate):
        return value * (hi - lo)
    return value * (((r * (hi - a)).expm1() - (r * (lo - a)).expm1()) / r)


@exclusive
def loss_law(unrolled: Unrolled, d: sp.Expr) -> LossLaw:
    r"""The privacy-loss law of the noise at the shift :math:`d \ge 0`.

    Atoms come from intervals where the loss is constant (and, on a lattice, from every
    point of an interval where it is not); a point mass at the origin is a loss
    :math:`+\infty` for :math:`d \ne 0`.
    """
    atoms: dict[sp.Expr, list[Callable[[], flint.arb]]] = {}
    pieces: list[Interval] = []
    infinite: list[Callable[[], flint.arb]] = []
    lattice = unrolled.lattice

    def add(loss: sp.Expr, fn: Callable[[], flint.arb]) -> None:
        for key in atoms:
            if key == loss:
                atoms[key].append(fn)
                return
        atoms[loss] = [fn]

    if unrolled.atom != 0:
        atom = unrolled.atom
        if d != 0:
            infinite.append(lambda: arb_of(atom))
        else:
            add(sp.Integer(0), lambda: arb_of(atom))
    for iv in unrolled.intervals(d):
        if iv.f is None:
            continue
        weight = iv.weight
        if iv.g is None:
            infinite.append(lambda iv=iv, w=weight: arb_of(w) * _mass(iv, lattice))
            continue
        slope = sp.simplify(iv.slope)
        if slope == 0:
            add(sp.simplify(iv.loss_exact(iv.ref)),
                lambda iv=iv, w=weight: arb_of(w) * _mass(iv, lattice))
        elif lattice:
            if not (iv.a.is_finite and iv.c.is_finite) or iv.c - iv.a > MAX_POINTS:
                raise UnsupportedError("too many lattice points with a non-constant loss")
            for j in range(int(iv.a), int(iv.c)):
                point = Interval(sp.Integer(j), sp.Integer(j + 1), iv.f, iv.g, weight)
                add(sp.simplify(point.loss_exact(point.a)),
                    lambda p=point, w=weight: arb_of(w) * _mass(p, True))
        else:
            if not (iv.a.is_finite and iv.c.is_finite):
                raise UnsupportedError("an unbounded piece with a non-constant loss")
            pieces.append(iv)
    return LossLaw(atoms, pieces, infinite, lattice)


def piece_bins(iv: Interval, h: flint.arb, h_exact: sp.Expr, up: bool) -> dict[int, flint.arb]:
    r"""The mass of a piece with affine loss on the grid :math:`h\mathbb{Z}`, as the loss
    law of a pair that dominates the piece's (``up``) or is dominated by it.

    * ``up`` ("connect the dots"): the outcomes with loss in :math:`[jh, (j+1)h]`, of
      :math:`P`-mass :math:`p` and :math:`Q`-mass :math:`q`, become two atoms at
      :math:`jh` and :math:`(j+1)h` with the same :math:`P`- and :math:`Q`-masses,
      :math:`p_{j+1} = (p - q e^{jh})/(1 - e^{-h})`, :math:`p_j = p - p_{j+1}`. Every
      likelihood ratio of the bin lies between those of the two atoms, so the bin is a
      post-processing of the two atoms: the pair dominates, with an error of second order
      in :math:`h` (rounding every loss up errs to first order).
    * down: the outcomes of each bin are merged into one atom (a post-processing, so a
      dominated pair) of loss :math:`\log(p/q)`, rounded down to the grid. Where the
      densities' rates are opposite (:math:`f \propto e^{rx}`, :math:`f(\cdot + d)
      \propto e^{-rx}`: Laplace noise) the merged loss is the loss at the bin's midpoint,
      so bins centred on the grid points, :math:`[(j - \frac12)h, (j + \frac12)h)`, merge
      exactly onto them (only the two bins cut by the piece's ends are rounded down).
      Otherwise the bins are :math:`[jh, (j+1)h)` and go to :math:`j`.
    """
    assert iv.f is not None and iv.g is not None
    la = iv.loss_exact(iv.a)
    lc = iv.loss_exact(iv.c)
    lo_loss, hi_loss = sorted((la, lc), key=sort_key)
    a = arb_of(iv.a)
    c = arb_of(iv.c)
    slope = arb_of(iv.slope)
    loss_a = arb_of(la)
    weight = arb_of(iv.weight)
    increasing = sort_key(la) < sort_key(lc)
    p_mass = _mass_function(iv.f, a)
    q_mass = _mass_function(iv.g, a)

    def x_range(t_lo: flint.arb, t_hi: flint.arb) -> tuple[flint.arb, flint.arb]:
        """The outcomes whose loss is in [t_lo, t_hi], clipped to the interval."""
        x1 = _clip(a + (t_lo - loss_a) / slope, a, c)
        x2 = _clip(a + (t_hi - loss_a) / slope, a, c)
        return (x1, x2) if increasing else (x2, x1)

    out: dict[int, flint.arb] = {}

    def add(j: int, mass: flint.arb) -> None:
        if not mass.is_zero():
            out[j] = out.get(j, flint.arb(0)) + mass

    if up:
        z = (-h).exp()
        for j in range(int(sp.floor(lo_loss / h_exact)), int(sp.ceiling(hi_loss / h_exact))):
            x1, x2 = x_range(j * h, (j + 1) * h)
            p = nonneg(p_mass(x1, x2)) * weight
            if p.is_zero():
                continue
            q = nonneg(q_mass(x1, x2)) * weight
            scaled = q * (j * h).exp()
            add(j + 1, nonneg((p - scaled) / (1 - z)))
            add(j, nonneg((scaled - p * z) / (1 - z)))
        return out
    half = sp.Rational(1, 2)
    if _is_zero(iv.f.rate + iv.g.rate):  # opposite rates: centred bins merge exactly
        first = int(sp.floor(lo_loss / h_exact + half))
        last = int(sp.floor(hi_loss / h_exact + half))
        for j in range(first, last + 1):
            target = j
            if j in (first, last):  # cut by an end: the merged loss is (u + v) / 2
                u = max(lo_loss, (j - half) * h_exact, key=sort_key)
                v = min(hi_loss, (j + half) * h_exact, key=sort_key)
                target = min(j, int(sp.floor((u + v) / (2 * h_exact))))
                x1, x2 = x_range(arb_of(u), arb_of(v))
            else:
                x1, x2 = x_range((j - 0.5) * h, (j + 0.5) * h)
            add(target, nonneg(p_mass(x1, x2)) * weight)
        return out
    for j in range(int(sp.floor(lo_loss / h_exact)), int(sp.ceiling(hi_loss / h_exact))):
        x1, x2 = x_range(j * h, (j + 1) * h)
        add(j, nonneg(p_mass(x1, x2)) * weight)
    return out


def _mass_function(seg: Seg, a: flint.arb) -> Callable[[flint.arb, flint.arb], flint.arb]:
    r"""``(lo, hi) ->`` :math:`\int_{lo}^{hi} C e^{r(x - x_0)}\,dx` for the piece ``seg``,
    its constants evaluated once (relative to the point ``a``)."""
    value = seg.log_at(a).exp()
    if _is_zero(seg.rate):
        return lambda lo, hi: value * (hi - lo)
    r = arb_of(seg.rate)
    return lambda lo, hi: value * (((r * (hi - a)).expm1() - (r * (lo - a)).expm1()) / r)


def _clip(t: flint.arb, a: flint.arb, c: flint.arb) -> flint.arb:
    if t <= a:
        return a
    if t >= c:
        return c
    if t < c and t > a:
        return t
    lo = a if t.lower() <= a.lower() else t.lower()
    hi = c if t.upper() >= c.upper() else t.upper()
    return flint.arb(lo).union(flint.arb(hi))
