r"""The privacy loss of a symmetric noise at a shift, exactly: Rényi integrals, the
Kullback-Leibler divergence, the largest loss and the privacy-loss law.

For a noise density (or mass function) :math:`f` and a shift :math:`d`, the privacy loss
of an outcome :math:`x` is :math:`\ell(x) = \log f(x)/f(x + d)` and the privacy-loss law
is the law of :math:`\ell(X)` for :math:`X \sim f` (:math:`+\infty` where
:math:`f(x) > 0 = f(x + d)`). Everything here is computed from the
:class:`~dpsym.symbolic.noise.SymmetricNoise` description whose pieces are :math:`C e^{r x}`
(constants and exponentials: every one-dimensional mechanism of the package except the
Gaussians, which :mod:`dpsym.accounting.renyi` and :mod:`dpsym.accounting.composition`
handle in closed form):

* the real line (or :math:`\mathbb{Z}`) is cut at every breakpoint of :math:`f` and of
  :math:`f(\cdot + d)`; on each elementary interval both are one exponential
  :math:`C_i e^{r_i x}`, so :math:`\ell` is affine there, and the Rényi integrand
  :math:`f^\alpha f(\cdot + d)^{1 - \alpha}` and the KL integrand :math:`f\,\ell` have exact
  antiderivatives (geometric sums on a lattice);
* the geometric tail is summed in closed form: beyond the head and the shift, moving
  :math:`x` by one period multiplies :math:`f(x)` and :math:`f(x + d)` by :math:`q`, so
  :math:`\ell` is periodic there and every integrand above is multiplied by :math:`q`; the
  far tail is one period weighted by :math:`1/(1 - q)` on each side. On a lattice, a tail
  of period 1 (the discrete Laplace) is one exponential :math:`C q^{x - s}` and is kept as
  one piece, so nothing is enumerated point by point.

**Scale-free.** Every loss, Rényi and KL integral and probability is unchanged when the
line is rescaled (:math:`x \mapsto x/c`, densities times :math:`c`), so a density on the
real line is described in units of the largest shift asked for (the sensitivity): its
positions are the exact numbers :math:`x/\Delta`, its rates :math:`r\Delta`, and nothing
depends on the magnitude of :math:`\Delta` (a lattice keeps its integer unit).
Breakpoints are exact sympy numbers and are compared exactly (:func:`order`: rationals as
such, other constants by balls that exclude the tie, a tie proven by sympy), never against
an absolute threshold: a step of width :math:`10^{-60}` next to one of width 1 is two
breakpoints.

Every number is computed in Arb ball arithmetic (python-flint) at a precision the caller
sets, so each result is a ball that contains the exact value (:func:`certify` rounds such
balls to certified digits).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from fractions import Fraction
from functools import cmp_to_key, lru_cache
from itertools import pairwise
from typing import TYPE_CHECKING

import flint
import sympy as sp

from dpsym.certified.constants import arb_of, exact_sym, sort_key
from dpsym.certified.kernel import (
    certify,
    certify_directed,
    directed_texts,
    exact_integer,
    nonneg,
    outward,
    precisions,
)
from dpsym.errors import CertificationError, UnsupportedError
from dpsym.precision import arb_workprec, exclusive
from dpsym.privacy.closed_forms import compare
from dpsym.privacy.divergence import check_numeric
from dpsym.symbolic.noise import SymmetricNoise
from dpsym.symbols import u, x

__all__ = [
    "Interval",
    "LossLaw",
    "Unrolled",
    "arb_of",
    "ball",
    "certify",
    "certify_directed",
    "directed_texts",
    "exact_ceil",
    "exact_floor",
    "exact_sym",
    "kl_integral",
    "largest_loss",
    "loss_law",
    "magnitude_bits",
    "nonneg",
    "one_minus_exp",
    "order",
    "outward",
    "piece_bins",
    "renyi_integral",
    "run_points",
    "significant_losses",
    "sort_key",
    "to_float",
]

#: Largest number of periods of a geometric tail unrolled for one shift.
MAX_PERIODS = 4096
#: Largest number of integer shifts of a lattice noise with non-constant pieces.
MAX_LATTICE_SHIFTS = 4096


# ---------------------------------------------------------------------------- exact numbers
def order(a: sp.Expr, b: sp.Expr) -> int:
    r"""The sign of :math:`a - b` for exact constants (``oo`` allowed), decided exactly:
    rationals as such, other constants by balls that exclude 0 and a tie proven by sympy
    (:func:`dpsym.privacy.closed_forms.compare`).

    Raises
    ------
    CertificationError
        If the sign cannot be decided (a tie sympy cannot prove).
    """
    if a == b:
        return 0
    if a is sp.oo or b is sp.S.NegativeInfinity:
        return 1
    if a is sp.S.NegativeInfinity or b is sp.oo:
        return -1
    if a.is_Rational and b.is_Rational:
        return 1 if a > b else -1
    return compare(a, b)


_KEY = cmp_to_key(order)


def _sorted_unique(points: list[sp.Expr]) -> list[sp.Expr]:
    """The points in increasing order, exact ties merged."""
    out: list[sp.Expr] = []
    for pt in sorted(set(points), key=_KEY):
        if not out or order(out[-1], pt) != 0:
            out.append(pt)
    return out


def _max(points: list[sp.Expr], default: sp.Expr) -> sp.Expr:
    best = default
    for pt in points:
        if order(pt, best) > 0:
            best = pt
    return best


def _sign(expr: sp.Expr) -> int | None:
    """The sign of a constant, or None if it cannot be decided."""
    try:
        return order(expr, sp.Integer(0))
    except CertificationError:
        return None


@lru_cache(maxsize=8192)
def canon(expr: sp.Expr) -> sp.Expr:
    """A canonical form of a loss value: the logarithm of a product of powers of
    exponentials and rationals split into its sum (``log(exp(-2)/3)`` is ``-2 - log(3)``),
    so that equal losses are equal expressions; other logarithms are left as they are."""
    expr = sp.sympify(expr)
    if expr.is_Rational or not expr.has(sp.log):
        return expr
    return expr.replace(lambda e: isinstance(e, sp.log), lambda e: _split_log(e.args[0]))


def _split_log(arg: sp.Expr) -> sp.Expr:
    if isinstance(arg, sp.exp):
        return arg.args[0]
    if isinstance(arg, sp.Pow) and arg.base is sp.E:
        return arg.exp
    if isinstance(arg, sp.Pow) and arg.exp.is_Rational and (
            isinstance(arg.base, sp.exp) or arg.base.is_Rational):
        return arg.exp * _split_log(arg.base)
    if isinstance(arg, sp.Mul) and all(
            isinstance(f, sp.exp) or f.is_Rational or (isinstance(f, sp.Pow) and (
                f.base is sp.E or isinstance(f.base, sp.exp) or f.base.is_Rational))
            for f in arg.args):
        return sp.Add(*(_split_log(f) for f in arg.args))
    return sp.log(arg)


def exact_floor(expr: sp.Expr) -> int:
    r""":math:`\lfloor v \rfloor` of an exact constant: exactly for a rational, else from
    balls that exclude the integers (sympy's evaluation when they never do)."""
    expr = sp.sympify(expr)
    if expr.is_Rational:
        return int(expr.p // expr.q)
    for bits in (64, 256, 1024):
        with arb_workprec(bits + magnitude_bits(expr)):
            found = arb_of(expr)
            if found.is_finite():
                lo = found.lower().floor()
                if lo == found.upper().floor():
                    return exact_integer(lo)
    return int(sp.floor(expr))


def exact_ceil(expr: sp.Expr) -> int:
    r""":math:`\lceil v \rceil` of an exact constant (:func:`exact_floor`)."""
    return -exact_floor(-sp.sympify(expr))


def magnitude_bits(expr: sp.Expr) -> int:
    """Bits to add so that a ball of ``expr`` resolves its integer part."""
    try:
        with arb_workprec(64):
            mag = flint.arb(arb_of(expr).abs_upper())
            if not mag.is_finite() or not mag > 1:
                return 0
            bits = (mag.log() / flint.arb(2).log()).upper().ceil()
            return exact_integer(bits) + 4
    except (ValueError, UnsupportedError):
        return 0


@lru_cache(maxsize=65536)
def _ball_at(expr: sp.Expr, prec: int) -> flint.arb:
    found = arb_of(expr)
    if expr.is_Rational or found.is_zero() or found.rel_accuracy_bits() >= prec - 16:
        return found
    # cancellation inside the expression (1 - e^{-t} for a tiny t): evaluate it again at
    # more bits until the ball has the working precision's relative accuracy
    for bits in precisions(2 * prec, 8):
        with arb_workprec(bits):
            found = arb_of(expr)
        if found.rel_accuracy_bits() >= prec - 16:
            break
    return +found


def ball(expr: sp.Expr) -> flint.arb:
    """A ball of the constant ``expr`` at the current Arb precision, with about that
    relative accuracy (re-evaluated at more bits where the expression cancels; cached)."""
    return _ball_at(sp.sympify(expr), flint.ctx.prec)


def one_minus_exp(t: flint.arb) -> flint.arb:
    r""":math:`1 - e^{t}` without cancellation."""
    return -t.expm1()


def _one_minus(q: sp.Expr) -> flint.arb:
    r""":math:`1 - q` for a ratio :math:`q \in (0, 1)`, without cancellation when
    :math:`q = e^{t}` (a tiny :math:`t`)."""
    q = sp.sympify(q)
    if isinstance(q, sp.exp):
        return one_minus_exp(ball(q.args[0]))
    if isinstance(q, sp.Pow) and q.base is sp.E:
        return one_minus_exp(ball(q.exp))
    return ball(1 - q)


# ---------------------------------------------------------------------------- pieces
def _exp_form(expr: sp.Expr, var: sp.Symbol) -> tuple[sp.Expr, sp.Expr]:
    """``(C, r)`` with ``expr`` :math:`= C e^{r v}`, or UnsupportedError."""
    return _exp_form_cached(sp.sympify(expr), var)


@lru_cache(maxsize=1024)
def _exp_form_cached(expr: sp.Expr, var: sp.Symbol) -> tuple[sp.Expr, sp.Expr]:
    if var not in expr.free_symbols:
        return expr, sp.Integer(0)
    found = _exp_factors(expr, var)
    if found is not None:
        return found
    rate = sp.simplify(sp.diff(expr, var) / expr)
    if var in rate.free_symbols:
        raise UnsupportedError("the privacy loss is derived for pieces C exp(r x) only")
    return sp.simplify(expr.subs(var, 0)), rate


def _exp_factors(expr: sp.Expr, var: sp.Symbol) -> tuple[sp.Expr, sp.Expr] | None:
    r"""``(C, r)`` read off the factors of ``expr`` (constants times :math:`e^{a v + b}`
    and :math:`c^{a v + b}`), without :func:`sympy.simplify` (whose numeric guesses
    overflow on :math:`e^{10^{100}}`); None if a factor has another form."""
    coef, rate = sp.Integer(1), sp.Integer(0)
    for factor in sp.Mul.make_args(expr):
        if var not in factor.free_symbols:
            coef *= factor
            continue
        if isinstance(factor, sp.exp):
            base, power = sp.E, factor.args[0]
        elif isinstance(factor, sp.Pow) and var not in factor.base.free_symbols:
            base, power = factor.base, factor.exp
        else:
            return None
        const, linear = sp.expand(power).as_independent(var, as_Add=True)
        slope = sp.expand(linear / var)
        if var in slope.free_symbols:
            return None
        log_base = sp.Integer(1) if base is sp.E else sp.log(base)
        coef *= base**const
        rate += slope * log_base
    return coef, rate


@dataclass(frozen=True)
class Seg:
    r"""The density :math:`C e^{r (x - x_0)}` on ``[lo, hi)`` (integers ``lo..hi-1`` on a
    lattice), every field an exact sympy number (in the units of :class:`Unrolled`)."""

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
        return ball(self.coef).log() + ball(self.rate) * (t - ball(self.x0))

    def log_exact(self, t: sp.Expr) -> sp.Expr:
        return sp.log(self.coef) + self.rate * (t - self.x0)


@dataclass(frozen=True)
class Interval:
    r"""An elementary interval ``[a, c)`` with the pieces of :math:`f` and
    :math:`f(\cdot + d)` there (``None`` where a density is zero), in the units of
    :class:`Unrolled`, and the ratio :math:`q` of the far tail it stands for (its weight
    is :math:`1/(1 - q)`; ``None``: weight 1)."""

    a: sp.Expr
    c: sp.Expr
    f: Seg | None
    g: Seg | None
    ratio: sp.Expr | None = None

    @property
    def weight(self) -> sp.Expr:
        return sp.Integer(1) if self.ratio is None else 1 / (1 - self.ratio)

    def weight_ball(self) -> flint.arb:
        """The weight as a ball, :math:`1/(1 - q)` without cancellation."""
        return flint.arb(1) if self.ratio is None else 1 / _one_minus(self.ratio)

    @property
    def ref(self) -> sp.Expr:
        """The finite end used as reference point (``a``, else ``c``)."""
        return self.a if self.a.is_finite else self.c

    def loss_exact(self, t: sp.Expr) -> sp.Expr:
        r""":math:`\ell(t)` as an exact sympy number (both pieces positive)."""
        assert self.f is not None and self.g is not None
        return _loss_value(self.f.coef, self.g.coef, self.f.rate, self.g.rate,
                           self.f.x0, self.g.x0, t)

    @property
    def slope(self) -> sp.Expr:
        assert self.f is not None and self.g is not None
        return canon(self.f.rate - self.g.rate)


@lru_cache(maxsize=4096)
def _loss_value(c1, c2, r1, r2, x1, x2, t) -> sp.Expr:
    return canon(sp.log(c1 / c2) + r1 * (t - x1) - r2 * (t - x2))


class Unrolled:
    r"""A numeric noise description unrolled on the whole line for shifts up to ``reach``.

    A density on the real line is described in units of ``reach`` (module docstring:
    positions :math:`x/\Delta`, densities times :math:`\Delta`, rates times
    :math:`\Delta`); shifts are given and returned in the noise's own units.

    Parameters
    ----------
    noise : SymmetricNoise
        Fully numeric, with pieces :math:`C e^{r x}`.
    reach : Fraction
        The largest shift that will be asked for.
    """

    def __init__(self, noise: SymmetricNoise, reach: Fraction | int | sp.Expr) -> None:
        check_numeric(noise)
        self.noise = noise
        self.lattice = lattice = noise.lattice
        self.atom = sp.sympify(noise.atom)
        reach = abs(exact_sym(reach))
        one = sp.Integer(1)
        self.unit = reach if not lattice and reach != 0 else one
        self.reach = reach / self.unit
        unit = self.unit

        def seg(lo, hi, coef, rate, x0) -> Seg:
            return Seg(sp.sympify(lo) / unit, sp.sympify(hi) / unit, coef * unit,
                       rate * unit, sp.sympify(x0) / unit)

        pos: list[Seg] = []
        for pc in noise.head:
            coef, rate = _exp_form(pc.expr, x)
            pos.append(seg(pc.lo, pc.hi, coef, rate, 0))
        ends = [s.hi for s in pos if s.hi.is_finite] + [s.lo for s in pos]
        self.head_end = _max(ends, sp.Integer(0))
        self.tail: tuple[sp.Expr, sp.Expr, sp.Expr] | None = None
        if noise.tail is not None:
            t = noise.tail
            s, T, q = (sp.sympify(t.start) / unit, sp.sympify(t.period) / unit,
                       sp.sympify(t.ratio))
            shape = []
            for pc in t.pieces:
                coef, rate = _exp_form(pc.expr, u)
                lo, hi = sp.sympify(pc.lo) / unit, sp.sympify(pc.hi) / unit
                if order(lo, hi) < 0:
                    shape.append((lo, hi, coef * unit, rate * unit))
            if lattice and T == 1 and len(shape) == 1:
                # one point per period: C q^k at s + k is one exponential of rate log q
                pos.append(Seg(s, sp.oo, shape[0][2], canon(sp.log(q)), s))
            else:
                self.tail = (s, T, q)
                window = _max([s, self.head_end], s) + 2 * self.reach + 3 * T
                if order(window, MAX_PERIODS * T) > 0:
                    raise UnsupportedError(f"the shift spans more than {MAX_PERIODS} periods "
                                           "of the noise's geometric tail")
                kk = 0
                while order(s + kk * T, window) < 0:
                    start = s + kk * T
                    for lo, hi, coef, rate in shape:
                        pos.append(Seg(start + lo, start + hi, coef * q**kk, rate, start))
                    kk += 1
        segs: list[Seg] = []
        for sg in pos:
            if order(sg.lo, sg.hi) >= 0:
                continue
            segs.append(sg)
            if lattice:
                mlo = 1 - sg.hi
                mhi = 1 - sg.lo if order(1 - sg.lo, sp.Integer(0)) < 0 else sp.Integer(0)
            else:
                mlo, mhi = -sg.hi, -sg.lo
            if order(mlo, mhi) < 0:
                segs.append(Seg(mlo, mhi, sg.coef, -sg.rate, -sg.x0))
        segs.sort(key=lambda sg: _KEY(sg.lo))
        self.segs = segs

    # ------------------------------------------------------------------ structure
    @property
    def bounded(self) -> bool:
        """Whether the support is bounded (no tail, every piece finite)."""
        return self.tail is None and all(sg.hi.is_finite and sg.lo.is_finite
                                         for sg in self.segs)

    def breakpoints(self) -> list[sp.Expr]:
        """Every finite breakpoint, in units of the description, increasing."""
        return _sorted_unique([pt for sg in self.segs for pt in (sg.lo, sg.hi)
                               if pt.is_finite])

    def candidate_shifts(self, sensitivity: object) -> list[sp.Expr]:
        r"""The shifts at which a function of :math:`d` that is piecewise linear with kinks
        at breakpoint differences (the Rényi and KL integrals, the hockey-stick divergence
        of a piecewise-constant noise) can take its largest value on :math:`(0, \Delta]`:
        :math:`\Delta` and the breakpoint differences below it (lattice: with the shift 1),
        in the noise's own units, increasing.

        Those integrals are piecewise linear in :math:`d` for piecewise-constant noise only;
        with a non-constant piece, a lattice noise's shifts are all the integers
        :math:`1, \dots, \Delta` (each evaluated: exact), and a density on the line has
        no such set.

        Raises
        ------
        UnsupportedError
            For a density on the line with a non-constant piece, or a lattice noise with
            more than :data:`MAX_LATTICE_SHIFTS` integer shifts.
        """
        sens = abs(exact_sym(sensitivity))
        if any(sg.rate != 0 for sg in self.segs if not sg.zero):
            if not self.lattice:
                raise UnsupportedError(
                    "the worst shift is derived for log-concave or piecewise-constant "
                    "densities; this one has non-constant pieces and is not log-concave")
            count = exact_floor(sens)
            if count > MAX_LATTICE_SHIFTS:
                raise UnsupportedError(f"more than {MAX_LATTICE_SHIFTS} integer shifts to "
                                       "evaluate")
            return [sp.Integer(d) for d in range(1, count + 1)] or [sens]
        top = sens / self.unit
        pts = self.breakpoints()
        found = [top]
        if self.lattice and order(top, sp.Integer(1)) >= 0:
            found.append(sp.Integer(1))
        zero = sp.Integer(0)
        for p in pts:
            for q in pts:
                diff = q - p
                if order(diff, zero) > 0 and order(diff, top) < 0:
                    found.append(diff)
        return [d * self.unit for d in _sorted_unique(found)]

    def at(self, segs: list[Seg], t: sp.Expr) -> Seg | None:
        """The piece of ``segs`` (sorted, disjoint) holding the exact point ``t``."""
        lo, hi = 0, len(segs)
        while lo < hi:
            mid = (lo + hi) // 2
            if order(segs[mid].lo, t) <= 0:
                lo = mid + 1
            else:
                hi = mid
        if lo > 0 and order(t, segs[lo - 1].hi) < 0:
            return segs[lo - 1]
        return None

    def intervals(self, d: object) -> Iterator[Interval]:
        r"""The elementary intervals for the shift :math:`d \ge 0` (in the noise's own
        units), with their far-tail ratios."""
        ds = exact_sym(d) / self.unit
        regions: list[tuple[sp.Expr, sp.Expr, sp.Expr | None]]
        if self.tail is None:
            regions = [(sp.S.NegativeInfinity, sp.oo, None)]
        else:
            s, T, q = self.tail
            right, left = s, -s - ds
            if self.lattice:
                if order(left, right - 1) > 0:
                    left = right - 1
                regions = [(left + 1, right, None), (left - T + 1, left + 1, q),
                           (right, right + T, q)]
            else:
                regions = [(left, right, None), (left - T, left, q), (right, right + T, q)]
        shifted = [sg.shifted(ds) for sg in self.segs]
        for lo, hi, ratio in regions:
            pts = [lo, hi]
            for sg in (*self.segs, *shifted):
                for pt in (sg.lo, sg.hi):
                    if pt.is_finite and order(pt, lo) > 0 and order(pt, hi) < 0:
                        pts.append(pt)
            for a, c in pairwise(_sorted_unique(pts)):
                if self.lattice:
                    m = a if a.is_finite else c - 1
                elif a.is_finite and c.is_finite:
                    m = (a + c) / 2
                elif a.is_finite:
                    m = a + 1
                elif c.is_finite:
                    m = c - 1
                else:
                    m = sp.Integer(0)
                f = self.at(self.segs, m)
                g = self.at(shifted, m)
                yield Interval(a, c, None if f is None or f.zero else f,
                               None if g is None or g.zero else g, ratio)

    # ------------------------------------------------------------------ log-concavity
    def log_concave(self) -> bool:
        r"""Whether the density (continuous) or mass function (lattice) is log-concave,
        decided exactly; an undecided comparison counts as a violation (the caller then
        evaluates every candidate shift: safe)."""
        if self.atom != 0:
            return False
        zero = sp.Integer(0)
        positive = [sg for sg in self.segs if order(sg.lo, zero) >= 0]
        if self.tail is not None:  # the periods repeat: two of them hold every junction
            s, T, _ = self.tail
            positive = [sg for sg in positive if order(sg.lo, s + 2 * T) < 0]
        if not positive or order(positive[0].lo, zero) != 0:
            return False
        if self.lattice:
            return self._lattice_log_concave(positive)
        ended, prev = False, None
        for sg in positive:
            if sg.zero or (prev is not None and order(sg.lo, prev.hi) > 0):
                ended = True
            if ended:
                if not sg.zero:
                    return False
                continue
            if prev is None:
                if _sign(sg.rate) not in (0, -1):
                    return False
            elif _sign(canon(prev.rate - sg.rate)) not in (0, 1) or \
                    _sign(canon(prev.log_exact(prev.hi) - sg.log_exact(sg.lo))) != 0:
                return False
            prev = sg
        return True

    def _lattice_log_concave(self, positive: list[Seg]) -> bool:
        r""":math:`p(j)^2 \ge p(j-1) p(j+1)` where :math:`j - 1, j, j + 1` are not in one
        log-linear piece, and a support without gaps."""

        def log_p(i: int) -> sp.Expr | None:
            sg = self.at(self.segs, sp.Integer(abs(i)))
            if sg is None or sg.zero:
                return None
            return sg.log_exact(sp.Integer(abs(i)))

        points = {0}
        for sg in positive:
            for edge in (sg.lo, sg.hi):
                if edge.is_finite:
                    points |= {int(edge) - 1, int(edge)}
        for j in sorted(points):
            if j < 0:
                continue
            here, after = log_p(j), log_p(j + 1)
            if here is None:
                if after is not None:
                    return False  # a gap in the support
                continue
            before = log_p(j - 1)
            if before is None or after is None:
                continue  # p(j - 1) p(j + 1) = 0 <= p(j)^2
            if _sign(canon(2 * here - before - after)) not in (0, 1):
                return False
        return True


# ---------------------------------------------------------------------------- integrals
def _zero(expr: sp.Expr) -> bool:
    return _sign(canon(expr)) == 0


def _exp_of(log_value: sp.Expr) -> flint.arb:
    r""":math:`e^{v}` of an exact exponent, its rational parts combined by sympy first (so
    that :math:`-10^{100} + 10^{100}` cancels exactly, not in balls), and :math:`v`
    evaluated with the bits of its magnitude added (the relative error of :math:`e^v` is
    the absolute error of :math:`v`)."""
    v = canon(log_value)
    with arb_workprec(flint.ctx.prec + magnitude_bits(v)):
        found = ball(v).exp()
    return +found


def _moments(n: flint.arb, r: flint.arb, zero: bool, lattice: bool, first: bool
             ) -> tuple[flint.arb, flint.arb]:
    r""":math:`\int_0^n e^{ry}\,dy` and :math:`\int_0^n e^{ry} y\,dy` (lattice: sums over
    :math:`0, \dots, n - 1`)."""
    m1 = flint.arb(0)
    if zero:
        m0 = n
        if first:
            m1 = n * (n - 1) / 2 if lattice else n * n / 2
        return m0, m1
    if lattice:
        m0 = (r * n).expm1() / r.expm1()
        if first:
            z = r.exp()
            m1 = z * (1 - n * z ** (n - 1) + (n - 1) * z**n) / (1 - z) ** 2
        return m0, m1
    m0 = (r * n).expm1() / r
    if first:
        m1 = (n * (r * n).exp() - m0) / r
    return m0, m1


def exp_moments(iv: Interval, log_value: Callable[[sp.Expr], sp.Expr], rate: sp.Expr,
                lattice: bool, first: bool = False
                ) -> tuple[flint.arb, flint.arb, sp.Expr]:
    r"""``(M0, M1, x_r)``: the integral (sum) over the interval of
    :math:`e^{v(x)}` and of :math:`e^{v(x)} (x - x_r)`, for
    :math:`v(x) = v(x_r) + r(x - x_r)` given by ``log_value`` (exact), with the reference
    :math:`x_r` the end where the integrand is largest (the finite end of an unbounded
    interval): every exponential then has an argument :math:`\le 0`, and
    :math:`v(x_r)` is simplified exactly, so a rate of :math:`10^{100}` loses nothing.
    ``first=False`` skips :math:`M_1` (returned as zero)."""
    zero = _zero(rate)
    r = ball(rate)
    a_fin, c_fin = iv.a.is_finite, iv.c.is_finite
    if a_fin and c_fin:
        right = not zero and _sign(rate) == 1
        ref = (iv.c - 1 if lattice else iv.c) if right else iv.a
        m0, m1 = _moments(ball(iv.c - iv.a), -r if right else r, zero, lattice, first)
        if right:
            m1 = -m1
    elif a_fin:  # [a, oo), decaying
        if zero or not r < 0:
            raise UnsupportedError("a piece of the noise is not integrable at +infinity")
        ref = iv.a
        if lattice:
            m0 = 1 / one_minus_exp(r)
            m1 = r.exp() / one_minus_exp(r) ** 2
        else:
            m0 = -1 / r
            m1 = 1 / (r * r)
    elif c_fin:  # (-oo, c)
        if zero or not r > 0:
            raise UnsupportedError("a piece of the noise is not integrable at -infinity")
        ref = iv.c
        if lattice:  # 1/(e^r - 1), from e^{-r} (no overflow at a huge rate)
            m0 = (-r).exp() / one_minus_exp(-r)
            m1 = -(-r).exp() / one_minus_exp(-r) ** 2
        else:
            m0 = 1 / r
            m1 = -1 / (r * r)
    else:
        raise UnsupportedError("a piece covering the whole line is not integrable")
    value = _exp_of(log_value(ref))
    return value * m0, value * m1, ref


def renyi_integral(unrolled: Unrolled, d: object, order_: Fraction) -> flint.arb | None:
    r""":math:`\int f^\alpha f(\cdot + d)^{1 - \alpha}` as a ball at the current Arb
    precision, or ``None`` when it is infinite (the supports differ)."""
    alpha = sp.Rational(order_.numerator, order_.denominator)
    total = flint.arb(0)
    if unrolled.atom != 0:
        if d != 0:
            return None
        total += ball(unrolled.atom)
    for iv in unrolled.intervals(d):
        if iv.f is None:
            continue
        if iv.g is None:
            return None
        f, g = iv.f, iv.g
        rate = alpha * f.rate + (1 - alpha) * g.rate
        def mixed(t: sp.Expr, f: Seg = f, g: Seg = g) -> sp.Expr:
            return alpha * f.log_exact(t) + (1 - alpha) * g.log_exact(t)

        m0, _, _ = exp_moments(iv, mixed, rate, unrolled.lattice)
        total += iv.weight_ball() * m0
    return total


def kl_integral(unrolled: Unrolled, d: object) -> flint.arb | None:
    r""":math:`\int f \log(f / f(\cdot + d))` as a ball, or ``None`` when infinite."""
    total = flint.arb(0)
    if unrolled.atom != 0 and d != 0:
        return None
    for iv in unrolled.intervals(d):
        if iv.f is None:
            continue
        if iv.g is None:
            return None
        m0, m1, ref = exp_moments(iv, iv.f.log_exact, iv.f.rate, unrolled.lattice,
                                  first=True)
        total += iv.weight_ball() * (ball(iv.loss_exact(ref)) * m0 + ball(iv.slope) * m1)
    return total


def largest_loss(unrolled: Unrolled, d: object) -> list[sp.Expr] | None:
    r"""The exact candidates for :math:`\sup_x \ell(x)` (the loss at the ends of every
    elementary interval where it is attained), or ``None`` when the supremum is
    infinite."""
    if unrolled.atom != 0 and d != 0:
        return None
    out: list[sp.Expr] = []
    for iv in unrolled.intervals(d):
        if iv.f is None:
            continue
        if iv.g is None:
            return None
        slope = _sign(iv.slope)
        if slope is None:
            raise CertificationError("the sign of a privacy-loss slope is undecided")
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
        value = iv.loss_exact(end)
        if value not in out:
            out.append(value)
    return out


# ---------------------------------------------------------------------------- loss law
@dataclass
class LossLaw:
    r"""The privacy-loss law at one shift.

    ``atoms`` maps each exact loss value (a sympy number) to its probability (callables
    giving balls at the current precision); ``pieces`` are the intervals on which the
    loss is a non-constant affine function of a continuous outcome, ``runs`` the lattice
    intervals on which it is a non-constant affine function of the point (one atom per
    point, kept as one run: :func:`run_points`); ``infinite`` is the probability of
    :math:`\ell = +\infty`.
    """

    atoms: dict[sp.Expr, list[Callable[[], flint.arb]]]
    pieces: list[Interval]
    infinite: list[Callable[[], flint.arb]]
    lattice: bool
    runs: list[Interval] = field(default_factory=list)

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

    @property
    def affine(self) -> list[Interval]:
        """The pieces and runs (intervals with a non-constant affine loss)."""
        return [*self.pieces, *self.runs]


def _mass(iv: Interval, lattice: bool) -> flint.arb:
    r""":math:`P(X \in [a, c))` on the interval, unweighted."""
    assert iv.f is not None
    return exp_moments(iv, iv.f.log_exact, iv.f.rate, lattice)[0]


@exclusive
def loss_law(unrolled: Unrolled, d: object) -> LossLaw:
    r"""The privacy-loss law of the noise at the shift :math:`d \ge 0` (in the noise's own
    units).

    Atoms come from intervals where the loss is constant; a lattice interval where it is
    not is a run (:func:`run_points`); a point mass at the origin is a loss
    :math:`+\infty` for :math:`d \ne 0`.
    """
    atoms: dict[sp.Expr, list[Callable[[], flint.arb]]] = {}
    pieces: list[Interval] = []
    runs: list[Interval] = []
    infinite: list[Callable[[], flint.arb]] = []
    lattice = unrolled.lattice

    def add(loss: sp.Expr, fn: Callable[[], flint.arb]) -> None:
        atoms.setdefault(loss, []).append(fn)

    if unrolled.atom != 0:
        atom = unrolled.atom
        if d != 0:
            infinite.append(lambda: ball(atom))
        else:
            add(sp.Integer(0), lambda: ball(atom))
    for iv in unrolled.intervals(d):
        if iv.f is None:
            continue
        def weighted(iv: Interval = iv) -> flint.arb:
            return iv.weight_ball() * _mass(iv, lattice)

        if iv.g is None:
            infinite.append(weighted)
            continue
        if _zero(iv.slope):
            add(iv.loss_exact(iv.ref), weighted)
        elif not (iv.a.is_finite and iv.c.is_finite):
            raise UnsupportedError("an unbounded piece with a non-constant loss")
        elif lattice:
            runs.append(iv)
        else:
            pieces.append(iv)
    return LossLaw(atoms, pieces, infinite, lattice, runs)


def run_points(iv: Interval) -> tuple[sp.Expr, sp.Expr, int, Callable[[], list[flint.arb]]]:
    r"""A lattice run as ``(loss0, step, n, masses)``: point :math:`j = 0, \dots, n - 1`
    (the outcome :math:`a + j`) has the loss ``loss0 + j * step`` and the probability
    ``masses()[j]`` (balls: the largest point's mass from its exact exponent, the others
    by repeated multiplication by :math:`e^{\mp r}` away from it)."""
    n = int(iv.c - iv.a)
    loss0 = iv.loss_exact(iv.a)

    def masses() -> list[flint.arb]:
        assert iv.f is not None
        right = _sign(iv.f.rate) == 1
        top = n - 1 if right else 0
        value = iv.weight_ball() * _exp_of(iv.f.log_exact(iv.a + top))
        rho = (-ball(iv.f.rate) if right else ball(iv.f.rate)).exp()
        out = []
        for _ in range(n):
            out.append(value)
            value = value * rho
        return out[::-1] if right else out

    return loss0, iv.slope, n, masses


# ---------------------------------------------------------------------------- grid laws
@dataclass(frozen=True)
class _Affine:
    r"""An interval with affine loss :math:`\ell(x) = \ell_a + s (x - a)` (on a lattice,
    its points :math:`a + j`), written in the loss :math:`t` from its heavy end
    :math:`t_h`, where the :math:`P`-density per unit of loss is largest: the
    :math:`P`-density is :math:`D e^{\kappa (t - t_h)}` and the :math:`Q`-density times
    :math:`e^{t_h}` is :math:`D e^{(\kappa - 1)(t - t_h)}`, :math:`\kappa = r/s`
    (:math:`r` the rate of the density, :math:`D` its value at the heavy end over
    :math:`|s|`, from its exact exponent; lattice: the masses of the points). No
    exponential then exceeds one on the losses that carry mass, whatever their size."""

    iv: Interval
    lattice: bool
    if TYPE_CHECKING:  # derived in __post_init__
        la: sp.Expr = field(init=False)
        lc: sp.Expr = field(init=False)
        slope: sp.Expr = field(init=False)
        increasing: bool = field(init=False)
        lo_loss: sp.Expr = field(init=False)
        hi_loss: sp.Expr = field(init=False)
        kappa: sp.Expr = field(init=False)
        x_h: sp.Expr = field(init=False)
        t_h: sp.Expr = field(init=False)

    def __post_init__(self) -> None:
        iv = self.iv
        assert iv.f is not None and iv.g is not None
        la = iv.loss_exact(iv.a)
        last = iv.c - 1 if self.lattice else iv.c
        lc = iv.loss_exact(last)
        s = iv.slope
        increasing = order(s, sp.Integer(0)) > 0
        kappa = canon(iv.f.rate / s)
        heavy_high = _sign(kappa) != -1  # the density grows with the loss
        x_h = (last if increasing else iv.a) if heavy_high else (iv.a if increasing else last)
        put = object.__setattr__
        put(self, "la", la)
        put(self, "lc", lc)
        put(self, "slope", s)
        put(self, "increasing", increasing)
        put(self, "lo_loss", la if increasing else lc)
        put(self, "hi_loss", lc if increasing else la)
        put(self, "kappa", kappa)
        put(self, "x_h", x_h)
        put(self, "t_h", iv.loss_exact(x_h))

    def density(self) -> flint.arb:
        """:math:`D`, the weighted density (mass of the point) at the heavy end per unit
        of loss (lattice: the mass of the heavy point)."""
        assert self.iv.f is not None
        value = self.iv.weight_ball() * _exp_of(self.iv.f.log_exact(self.x_h))
        return value if self.lattice else value / abs(ball(self.slope))


def _exp_integral(k: sp.Expr, u1: sp.Expr, u2: sp.Expr, extra: sp.Expr) -> flint.arb:
    r""":math:`e^{E}\int_{u_1}^{u_2} e^{k u}\,du` for exact :math:`k, u_1 \le u_2, E`, from
    the end where the integrand is largest: the exponent there, :math:`k u_i + E`, is
    formed exactly before it is exponentiated (no overflow, no cancellation, whatever the
    magnitudes: a loss of :math:`10^{100}` against one of :math:`-10^{100}`)."""
    w = ball(u2 - u1)
    sign = _sign(k)
    if sign == 0:
        return _exp_of(extra) * w
    kb = ball(k)
    if sign == 1:
        return _exp_of(k * u2 + extra) * one_minus_exp(-kb * w) / kb
    return _exp_of(k * u1 + extra) * one_minus_exp(kb * w) / (-kb)


def _exp_sum(k: sp.Expr, j1: int, width: int, extra: sp.Expr) -> flint.arb:
    r""":math:`e^{E}\sum_{i = j_1}^{j_1 + w - 1} e^{k i}` (exact :math:`k`, :math:`E`) from
    its largest term, its exponent formed exactly (in fractions when :math:`k` and
    :math:`E` are rational: the lattice runs' many bins)."""
    sign = _sign(k)
    if sign == 0:
        return _exp_of(extra) * width
    kb = ball(k)
    top = j1 + width - 1 if sign == 1 else j1
    if k.is_Rational and extra.is_Rational:
        v = Fraction(int(k.p), int(k.q)) * top + Fraction(int(extra.p), int(extra.q))
        bits = max(v.numerator.bit_length() - v.denominator.bit_length(), 0)
        with arb_workprec(flint.ctx.prec + bits + 8):
            peak = flint.arb(flint.fmpq(v.numerator, v.denominator)).exp()
        peak = +peak
    else:
        peak = _exp_of(k * top + extra)
    if sign == 1:
        return peak * one_minus_exp(-kb * width) / one_minus_exp(-kb)
    return peak * one_minus_exp(kb * width) / one_minus_exp(kb)


def piece_bins(iv: Interval, h: flint.arb, h_exact: sp.Expr, up: bool, *,
               lattice: bool = False, window: tuple[int, int] | None = None
               ) -> tuple[dict[int, flint.arb], flint.arb, flint.arb]:
    r"""The mass of an interval with affine loss (a continuous piece, or a lattice run) on
    the grid :math:`h\mathbb{Z}`, as the loss law of a pair that dominates the piece's
    (``up``) or is dominated by it; only the grid points ``window = (lo, hi)`` are used.

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

    The masses are integrals (sums) in the loss from the interval's heavy end
    (:class:`_Affine`), each exponent formed exactly (:func:`_exp_integral`). On a
    continuous piece the full bins' masses are geometric in :math:`j`:
    :math:`p_{j+1} = e^{\kappa h} p_j` and :math:`q_{j+1} e^{(j+1)h} = e^{\kappa h} q_j
    e^{jh}`, so both atoms of "connect the dots" are too; they are formed by one
    multiplication each.

    Returns
    -------
    (dict, arb, arb)
        The masses of the grid points in the window, and the :math:`P`-masses of the
        outcomes whose loss lies below and above the window (the caller moves them the
        safe way: up to the window or to :math:`+\infty`, or down).
    """
    # "connect the dots" subtracts q e^{jh} from p, equal to a fraction 1 - e^{-h} of
    # them: the bins are formed with the bits of 1/h added, then rounded back
    extra = magnitude_bits(1 / h_exact)
    if not extra:
        return _bins(iv, h, h_exact, up, lattice, window)
    with arb_workprec(flint.ctx.prec + extra):
        out, below, above = _bins(iv, ball(h_exact), h_exact, up, lattice, window)
    return {j: +m for j, m in out.items()}, +below, +above


def _bins(iv: Interval, h: flint.arb, h_exact: sp.Expr, up: bool, lattice: bool,
          window: tuple[int, int] | None
          ) -> tuple[dict[int, flint.arb], flint.arb, flint.arb]:
    """:func:`piece_bins` at the current precision."""
    aff = _Affine(iv, lattice)
    assert iv.f is not None and iv.g is not None
    lo_loss, hi_loss, t_h = aff.lo_loss, aff.hi_loss, aff.t_h
    density = aff.density()
    out: dict[int, flint.arb] = {}
    zero_e = sp.Integer(0)

    def add(j: int, mass: flint.arb) -> None:
        if not mass.is_zero():
            out[j] = out[j] + mass if j in out else mass

    if lattice:
        masses, full_bins = _run_masses(aff, h_exact, density)
        ratio = (ball(aff.kappa) * h).exp()  # of successive full bins
    else:
        kappa = aff.kappa

        def masses_at(t1: sp.Expr, t2: sp.Expr, shift: int | None = None
                      ) -> tuple[flint.arb, flint.arb]:
            r"""The :math:`P`-mass of the outcomes with loss in :math:`[t_1, t_2]` (exact
            losses), and their :math:`Q`-mass times :math:`e^{jh}` (``shift`` :math:`= j`;
            None: times :math:`e^{t_h}`)."""
            if order(t1, lo_loss) < 0:
                t1 = lo_loss
            if order(t2, hi_loss) > 0:
                t2 = hi_loss
            if order(t2, t1) <= 0:
                return flint.arb(0), flint.arb(0)
            u1, u2 = t1 - t_h, t2 - t_h
            extra = zero_e if shift is None else shift * h_exact - t_h
            return (density * nonneg(_exp_integral(kappa, u1, u2, zero_e)),
                    density * nonneg(_exp_integral(kappa - 1, u1, u2, extra)))

        def masses(t1: int, t2: int, shift: int | None = None
                   ) -> tuple[flint.arb, flint.arb]:
            return masses_at(t1 * h_exact, t2 * h_exact, shift)

        ratio = (ball(kappa) * h).exp()  # of successive full bins

    first = exact_floor(lo_loss / h_exact)
    # the bins [j h, (j + 1) h), first <= j < last, hold every loss (a lattice point's
    # loss may lie on the grid: the last bin is the one holding it)
    last = exact_floor(hi_loss / h_exact) + 1 if lattice else exact_ceil(hi_loss / h_exact)
    lo_w, hi_w = (first, last) if window is None else window
    j_lo, j_hi = max(first, lo_w), min(last, hi_w)
    if j_lo >= j_hi:  # the whole piece is outside the window
        total = masses(first, last)[0]
        return out, (total if last <= lo_w else flint.arb(0)), \
            (total if last > lo_w else flint.arb(0))
    below = masses(first, j_lo)[0] if j_lo > first else flint.arb(0)
    above = masses(j_hi, last)[0] if j_hi < last else flint.arb(0)
    # the full bins (continuous): geometric masses
    if lattice:  # bins of equally many points (h a multiple of the points' step)
        k1, k2 = full_bins()
        full_lo = max(j_lo, k1)
        full_hi = max(full_lo, min(j_hi, k2))
    else:
        full_lo = max(j_lo, exact_ceil(lo_loss / h_exact))
        full_hi = max(full_lo, min(j_hi, exact_floor(hi_loss / h_exact)))
    singles = [j for j in range(j_lo, j_hi) if not full_lo <= j < full_hi]
    if up:
        z, gap = (-h).exp(), one_minus_exp(-h)
        for j in singles:
            p, scaled = masses(j, j + 1, j)  # scaled = q e^{jh}
            p = nonneg(p)
            if p.is_zero():
                continue
            scaled = nonneg(scaled)
            add(j + 1, nonneg((p - scaled) / gap))
            add(j, nonneg((scaled - p * z) / gap))
        if full_hi > full_lo:
            p0, scaled = masses(full_lo, full_lo + 1, full_lo)
            to_next, to_here = nonneg((p0 - scaled) / gap), nonneg((scaled - p0 * z) / gap)
            for j in range(full_lo, full_hi):
                add(j, to_here)
                add(j + 1, to_next)
                to_here, to_next = to_here * ratio, to_next * ratio
        return out, below, above
    if not lattice and _zero(canon(iv.f.rate + iv.g.rate)):  # opposite rates: centred
        half = sp.Rational(1, 2)
        c_first = exact_floor(lo_loss / h_exact + half)
        c_last = exact_floor(hi_loss / h_exact + half)
        lo_c, hi_c = max(c_first, lo_w), min(c_last, hi_w)
        below = above = flint.arb(0)
        if lo_c > c_first:
            below = masses_at(lo_loss, (lo_c - half) * h_exact)[0]
        if hi_c < c_last:
            above = masses_at((hi_c + half) * h_exact, hi_loss)[0]
        inner = [j for j in range(lo_c, hi_c + 1) if j not in (c_first, c_last)]
        for j in sorted({c_first, c_last}):  # cut by an end: the merged loss is (u + v)/2
            if not lo_c <= j <= hi_c:
                continue
            uu = lo_loss if order(lo_loss, (j - half) * h_exact) > 0 else \
                (j - half) * h_exact
            vv = hi_loss if order(hi_loss, (j + half) * h_exact) < 0 else \
                (j + half) * h_exact
            add(min(j, exact_floor((uu + vv) / (2 * h_exact))), masses_at(uu, vv)[0])
        if inner:
            mass = masses_at((inner[0] - half) * h_exact, (inner[0] + half) * h_exact)[0]
            for j in inner:
                add(j, mass)
                mass = mass * ratio
        return out, below, above
    for j in singles:
        add(j, nonneg(masses(j, j + 1)[0]))
    if full_hi > full_lo:
        mass = nonneg(masses(full_lo, full_lo + 1)[0])
        for j in range(full_lo, full_hi):
            add(j, mass)
            mass = mass * ratio
    return out, below, above


def _run_masses(aff: _Affine, h_exact: sp.Expr, density: flint.arb
                ) -> tuple[Callable[..., tuple[flint.arb, flint.arb]],
                           Callable[[], tuple[int, int]]]:
    r"""``masses(t1, t2, shift=None)``: the :math:`P`-mass of a lattice run's points whose loss
    lies in :math:`[t_1 h, t_2 h)`, and their :math:`Q`-mass times :math:`e^{jh}`
    (``shift`` :math:`= j`; None: times :math:`e^{t_h}`): point :math:`j` (:math:`0 \le j
    < n`) has the loss :math:`\ell_a + js`, so these are the points below
    :math:`\lceil (th - \ell_a)/s \rceil` (:math:`s > 0`), counted exactly (integer
    arithmetic when :math:`h/s` and :math:`\ell_a/s` are rational); their masses are
    geometric sums from their largest term (:func:`_exp_sum`). ``full_bins()``: the
    range ``[k1, k2)`` of the bins holding :math:`|h/s|` points each, all in the run,
    when :math:`h/s` is an integer (their masses are then geometric in the bin, as on a
    continuous piece), else an empty range."""
    iv = aff.iv
    assert iv.f is not None
    n = int(iv.c - iv.a)
    la, s, increasing = aff.la, aff.slope, aff.increasing
    j_h = int(aff.x_h - iv.a)
    r_p, r_q = iv.f.rate, canon(iv.f.rate - s)
    alpha_e, beta_e = sp.sympify(-la / s), sp.sympify(h_exact / s)
    rational = alpha_e.is_Rational and beta_e.is_Rational
    if rational:
        alpha_f = Fraction(int(alpha_e.p), int(alpha_e.q))
        beta_f = Fraction(int(beta_e.p), int(beta_e.q))

    def cut(t_index: int) -> int:
        """The number of points whose loss is below ``t_index * h`` (increasing), or at
        least it (decreasing), clipped to [0, n]."""
        if rational:
            v = alpha_f + t_index * beta_f
            k = -((-v.numerator) // v.denominator) if increasing else \
                v.numerator // v.denominator + 1
        else:
            v = alpha_e + t_index * beta_e
            k = exact_ceil(v) if increasing else exact_floor(v) + 1
        return min(max(k, 0), n)

    def masses(t1: int, t2: int, shift: int | None = None) -> tuple[flint.arb, flint.arb]:
        j1, j2 = (cut(t1), cut(t2)) if increasing else (cut(t2), cut(t1))
        if j2 <= j1:
            return flint.arb(0), flint.arb(0)
        extra = 0 if shift is None else shift * h_exact - aff.t_h
        return (density * _exp_sum(r_p, j1 - j_h, j2 - j1, sp.Integer(0)),
                density * _exp_sum(r_q, j1 - j_h, j2 - j1, sp.sympify(extra)))

    def full_bins() -> tuple[int, int]:
        if not (rational and beta_f.denominator == 1):
            return 0, 0
        # unclipped: bin k holds the points [c(k), c(k) + |beta|) (increasing, from
        # c(k) = ceil(alpha + k beta)) or (c(k + 1), c(k + 1) + |beta|] (decreasing, from
        # floor(alpha + (k + 1) beta)); full when they lie in [0, n)
        m = abs(beta_f.numerator)
        if increasing:
            c0 = -((-alpha_f.numerator) // alpha_f.denominator)  # ceil(alpha)
            return -(c0 // m), (n - c0) // m
        f0 = alpha_f.numerator // alpha_f.denominator  # floor(alpha)
        # bin k holds the points f0 - (k + 1) m + 1, ..., f0 - k m
        return -((n - f0 - 1) // m), (f0 + 1) // m

    return masses, full_bins


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


def significant_losses(iv: Interval, lattice: bool, tol: float, ref: sp.Expr
                       ) -> tuple[float, float]:
    r"""The range of losses of an affine interval outside which its :math:`P`-mass is
    below about ``tol``, as floats relative to the exact loss ``ref`` (an estimate, for
    choosing grids: the masses themselves are computed exactly). The :math:`P`-mass per
    unit of loss is proportional to :math:`e^{\kappa \ell}`, :math:`\kappa = r/s`, so the
    mass beyond a distance :math:`t` from the heavy end is at most about
    :math:`M e^{-|\kappa| t}` (:math:`M` the mass of the interval)."""
    aff = _Affine(iv, lattice)
    lo_f, hi_f = sorted((to_float(aff.la - ref), to_float(aff.lc - ref)))
    kappa = to_float(aff.kappa)
    slope_exact = aff.slope
    if kappa == 0 or not math.isfinite(kappa):
        return lo_f, hi_f
    total = _float_ball(iv.weight_ball() * _mass(iv, lattice))
    reach = math.log(total / tol) / abs(kappa) if total > tol else 0.0
    if lattice:
        reach += abs(to_float(slope_exact))
    if kappa > 0:
        return max(lo_f, hi_f - reach), hi_f
    return lo_f, min(hi_f, lo_f + reach)


def to_float(expr: sp.Expr) -> float:
    """A float of an exact constant (a rational rounded from its exact value; another
    constant from a ball with the bits of its magnitude added)."""
    expr = sp.sympify(expr)
    if expr.is_Rational:
        try:
            return float(Fraction(int(expr.p), int(expr.q)))
        except OverflowError:
            return math.inf if expr > 0 else -math.inf
    with arb_workprec(64 + magnitude_bits(expr)):
        return _float_ball(ball(expr))


def _float_ball(value: flint.arb) -> float:
    mid = value.mid()
    try:
        out = float(mid)
    except OverflowError:  # pragma: no cover - beyond the doubles
        return math.inf if mid > 0 else -math.inf
    return out
