r"""Privacy profiles of lattice noise and of piecewise-constant densities, exact or
enclosed in Arb balls, without truncation.

For a symmetric mass function :math:`p` on :math:`\mathbb{Z}` (a :class:`~dpsym.symbolic.noise.
SymmetricNoise` with ``lattice=True``: constant pieces on integer ranges and an optional
geometric tail of integer period :math:`T` and ratio :math:`q`) and an integer shift
:math:`d`,

.. math:: H(d) = \sum_{i \in \mathbb{Z}} \bigl(p(i) - c\,p(i - d)\bigr)_+,
          \qquad c = e^{\varepsilon^{\prime}},

and the profile at sensitivity :math:`\Delta` is :math:`\max_{0 \le d \le \Delta} H(d)`
(:math:`H(-d) = H(d)` by symmetry).

**Runs.** On :math:`[0, \infty)` the mass is a list of runs on which
:math:`p(i) = L\,q^{e + s(i - a)}` with a level :math:`L`, an exponent :math:`e \ge 0` and a
step :math:`s \in \{-1, 0, 1\}`: the constant head pieces (:math:`s = 0`), the copies of
a tail of period :math:`T > 1` (:math:`s = 0`, :math:`e = k` on copy :math:`k`) and a tail of
period 1 as one geometric run (:math:`s = 1`); the mirror image gives the negative side
(:math:`s \to -s`). On the intersection of a run of :math:`p` with a run of
:math:`p(\cdot - d)`, :math:`p(i)/(c\,p(i - d)) = (L_a/L_b)\,q^{m(j)}/c` with :math:`m`
affine in :math:`j = i - a`, so the positive terms are a prefix or a suffix of the run: its
end is found by bisection on exact sign decisions, and the run's positive terms are
summed in closed form (geometric sums).

**Exact decisions.** Every ratio of levels, :math:`q` and :math:`c` is written as
:math:`R\,e^{\theta}` with rationals :math:`R > 0` and :math:`\theta` (checked by sympy;
e.g. the staircase's two levels are in ratio :math:`b = e^{-\varepsilon}`), and a term is
positive iff :math:`\log R + \theta > 0` for the product. If :math:`R = 1` that is the sign
of the rational :math:`\theta`, if :math:`\theta = 0` that of :math:`R - 1` (ties, such as
:math:`\varepsilon^{\prime} = \varepsilon` for the pure :math:`\varepsilon`-DP mechanisms, are
exact); otherwise :math:`R e^\theta \ne 1` (Lindemann–Weierstrass: :math:`e^\theta` is
transcendental for rational :math:`\theta \ne 0`), and Arb balls at rising precision
exclude the tie. An :math:`\varepsilon^{\prime}` that is not of this form (say
:math:`\sqrt 2`) is compared by balls, a possible tie by sympy; an undecided one raises
:class:`~dpsym.errors.CertificationError`.

**The infinite parts.** Beyond :math:`i \ge s + d` (:math:`s` the tail's start) both
:math:`i` and :math:`i - d` lie in the right tail, so term :math:`i + T` is :math:`q` times
term :math:`i`: the sum from :math:`s + d` on is the sum over one period divided by
:math:`1 - q`. Likewise for :math:`i \le -s` on the left. No truncation.

**The supremum over the shift.** Between two consecutive differences of breakpoints
(boundaries of runs, both sides), the elementary runs keep their levels and their lengths
are affine in :math:`d`, so :math:`H` is affine there: its maximum over
:math:`\{1, \dots, \Delta\}` is at :math:`1`, :math:`\Delta` or a breakpoint difference,
and only those are evaluated. A pure geometric mass (the discrete Laplace) is log-concave,
and then :math:`H` is nondecreasing in :math:`d` (the theorem of :mod:`dpsym.privacy.profiles`,
whose proof holds on :math:`\mathbb{Z}`): only :math:`d = \Delta`. The maximum of balls
is a ball of the maximum. A value whose every ingredient is rational (e.g.
:math:`\varepsilon^{\prime} = 0` with rational masses) is summed in fractions: ``"exact"``.

**On the line.** A density made of constant pieces with rational ends (and a geometric
tail of rational period: the staircase) is handled by the same runs, with lengths in place
of counts, the mirror :math:`x \mapsto -x` and the windows :math:`[-s, s + d)`; the
supremum over :math:`d \in (0, \Delta]` is at :math:`\Delta` or a breakpoint difference
(:mod:`dpsym.privacy.profiles`), the limit :math:`d \to 0^+` never exceeding it
(:math:`H(d) \ge P(S) - e^{\varepsilon^{\prime}}Q(S)` for :math:`S` the line without the
translate's atom, which is that limit). A point mass :math:`\alpha` at the origin adds
:math:`\alpha` for every :math:`d > 0`. This covers the staircase at
:math:`\varepsilon^{\prime} < 0`,
where its closed form (:mod:`dpsym.privacy.closed_forms`) does not apply.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction

import flint
import sympy as sp

from dpsym.certified.constants import arb_of
from dpsym.certified.kernel import adaptive, ball
from dpsym.errors import CertificationError, UnsupportedError
from dpsym.precision import arb_workprec
from dpsym.symbolic.noise import SymmetricNoise
from dpsym.symbols import u, x

#: Largest number of shifts evaluated for the supremum over the shift.
MAX_SHIFTS = 4096
#: Largest number of tail copies unrolled in the window of one shift.
MAX_COPIES = 1 << 16
#: Precisions (bits) at which balls try to exclude a tie.
SIGN_BITS = (64, 256, 1024, 4096, 16384)

#: ``(R, theta)``, the number :math:`R e^\theta`: a rational :math:`R > 0` and
#: :math:`\theta` a rational, or a real constant sympy expression (``-sqrt(2)``).
ExpRat = tuple[Fraction, "Fraction | sp.Expr"]


def exp_rational(expr: object) -> ExpRat | None:
    r"""``expr`` (a positive constant) as :math:`R e^\theta` with rational :math:`R, \theta`,
    or None when sympy does not bring it to that form."""
    e = sp.sympify(expr)
    if e.is_Rational:
        return (Fraction(int(e.p), int(e.q)), Fraction(0)) if e > 0 else None
    e = sp.simplify(sp.powsimp(e, combine="exp"))
    coeff, rest = e.as_coeff_Mul()
    if not coeff.is_Rational or coeff <= 0:
        return None
    if rest == 1:
        theta = sp.Integer(0)
    elif isinstance(rest, sp.exp):
        theta = rest.args[0]
    elif rest.is_Pow and rest.base == sp.E:
        theta = rest.exp
    else:
        return None
    r = Fraction(int(coeff.p), int(coeff.q))
    if theta.is_Rational:
        return r, Fraction(int(theta.p), int(theta.q))
    if theta.free_symbols or theta.is_real is not True:
        return None
    return r, theta


def _erat_ball(value: ExpRat) -> flint.arb:
    r, t = value
    return ball(r) if t == 0 else ball(r) * _theta_ball(t).exp()


def _theta_ball(t: Fraction | sp.Expr) -> flint.arb:
    return ball(t) if isinstance(t, Fraction) else arb_of(t)


def _add(a: Fraction | sp.Expr, b: Fraction | sp.Expr) -> Fraction | sp.Expr:
    """A sum of exponents: a fraction while both are, else a sympy expression (a rational
    one brought back to a fraction)."""
    if isinstance(a, Fraction) and isinstance(b, Fraction):
        return a + b
    total = sp.expand(_sym(a) + _sym(b))
    return Fraction(int(total.p), int(total.q)) if total.is_Rational else total


def _sym(v: Fraction | sp.Expr) -> sp.Expr:
    return sp.Rational(v.numerator, v.denominator) if isinstance(v, Fraction) else v


#: A position: an integer on the lattice, a rational on the line.
Point = int | Fraction


@dataclass(frozen=True)
class _Run:
    """``p(i) = level * q**(e + s*(i - a))`` for ``a <= i < b`` (level -1: mass 0); the ends
    are integers on the lattice, rationals on the line (where ``s`` is 0)."""

    a: Point
    b: Point
    level: int
    e: int
    s: int

    def clip(self, lo: Point, hi: Point) -> _Run | None:
        a, b = max(self.a, lo), min(self.b, hi)
        if a >= b:
            return None
        return _Run(a, b, self.level, self.e + self.s * int(a - self.a), self.s)

    def mirror(self, one: int) -> _Run:
        """The run of ``p(-i)``: the same masses on ``(-b, -a]``, i.e. on
        ``[one - b, one - a)`` (``one`` = 1 on the lattice, 0 on the line)."""
        return _Run(one - self.b, one - self.a, self.level,
                    self.e + self.s * int(self.b - 1 - self.a), -self.s)


# one term of a plan: (sign, level, times c, exponent, step, count, over 1 - q)
Term = tuple[int, int, bool, int, int, Point, bool]


class LatticeProfile:
    r"""The profile of one numeric lattice (or piecewise-constant) noise at one
    :math:`\varepsilon^{\prime}`."""

    def __init__(self, noise: SymmetricNoise, eps: Fraction | sp.Expr) -> None:
        levels: list[sp.Expr] = []

        def level_of(expr: object) -> int:
            e = sp.sympify(expr)
            if e.free_symbols & {x, u} or e.free_symbols:
                raise _NotLattice
            if e == 0:
                return -1
            for j, old in enumerate(levels):
                if e == old:
                    return j
            levels.append(e)
            return len(levels) - 1

        self.lattice = noise.lattice
        self.one = 1 if noise.lattice else 0  # mirror: i -> 1 - i on Z, x -> -x on R

        def integer(value: sp.Expr | Fraction | int) -> Point:
            v = sp.sympify(value)
            if v.is_Integer:
                return int(v)
            if v.is_Rational and not noise.lattice:
                return Fraction(int(v.p), int(v.q))
            raise _NotLattice

        atom = sp.sympify(noise.atom)
        if atom.free_symbols or (noise.lattice and atom != 0):
            raise _NotLattice
        self.atom = atom

        self.head: list[tuple[Point, Point, int]] = []
        pos: Point = 0
        for pc in noise.head:
            lo, hi = integer(pc.lo), integer(pc.hi)
            if hi <= lo:
                continue
            if lo < pos:
                raise _NotLattice
            self.head.append((lo, hi, level_of(pc.expr)))
            pos = hi
        self.head_end = pos
        self.tail = None
        if noise.tail is not None:
            t = noise.tail
            start, period = integer(t.start), integer(t.period)
            if start < pos or period <= 0 or (noise.lattice and period < 1):
                raise _NotLattice
            shape: list[tuple[Point, Point, int]] = []
            spos: Point = 0
            for pc in t.pieces:
                lo, hi = integer(pc.lo), integer(pc.hi)
                if hi <= lo:
                    continue
                if lo < spos or hi > period:
                    raise _NotLattice
                if lo > spos:
                    shape.append((spos, lo, -1))
                shape.append((lo, hi, level_of(pc.expr)))
                spos = hi
            if spos < period:
                shape.append((spos, period, -1))
            q = exp_rational(t.ratio)
            if q is None or not _sign_of(q) < 0:
                raise _NotLattice
            self.tail = (start, period, shape)
            self.q = q
            self.q_expr = sp.sympify(t.ratio)
        else:
            self.q = (Fraction(1, 2), Fraction(0))  # unused
            self.q_expr = sp.Rational(1, 2)
        if not levels:
            raise _NotLattice
        self.levels = levels
        found = [exp_rational(lv / levels[0]) for lv in levels]
        ratios = [r for r in found if r is not None]
        if len(ratios) < len(found):
            raise _NotLattice
        self.ratios: list[ExpRat] = ratios
        self.base_rational = sp.sympify(levels[0]).is_Rational
        eps_s = sp.Rational(eps.numerator, eps.denominator) if isinstance(eps, Fraction) \
            else sp.sympify(eps)
        self.eps = eps_s
        self.c = (Fraction(1), Fraction(eps)) if isinstance(eps, Fraction) \
            else exp_rational(sp.exp(eps_s))
        self.rational_masses = bool(self.base_rational and self.q[1] == 0 and atom.is_Rational
                                    and all(r[1] == 0 for r in self.ratios))
        self.exact = self.rational_masses and self.c is not None and self.c[1] == 0
        self._signs: dict[tuple[int, int, int], int] = {}

    # ------------------------------------------------------------------ the mass
    def _positive(self, upto: Point) -> list[_Run]:
        """Runs covering ``[0, upto)``."""
        out: list[_Run] = []
        pos: Point = 0
        for lo, hi, lv in self.head:
            if lo > pos:
                out.append(_Run(pos, lo, -1, 0, 0))
            out.append(_Run(lo, hi, lv, 0, 0))
            pos = hi
        if self.tail is None:
            out.append(_Run(pos, max(upto, pos + 1), -1, 0, 0))
        else:
            start, period, shape = self.tail
            if start > pos:
                out.append(_Run(pos, start, -1, 0, 0))
            if period == 1 and self.lattice:
                out.append(_Run(start, max(upto, start + 1), shape[0][2], 0, 1))
            else:
                copies = max(0, -(-(upto - start) // period))
                if copies > MAX_COPIES:
                    raise UnsupportedError(f"more than {MAX_COPIES} tail copies to unroll")
                for kk in range(copies):
                    base = start + kk * period
                    out.extend(_Run(base + lo, base + hi, lv, kk, 0) for lo, hi, lv in shape)
        return [r for r in (run.clip(0, upto) for run in out) if r is not None]

    def runs(self, lo: Point, hi: Point) -> list[_Run]:
        """Runs of ``p`` covering ``[lo, hi)``."""
        out: list[_Run] = []
        one = self.one
        if lo < 0:
            top = min(hi, 0)
            neg = [r.clip(one - top, one - lo) for r in self._positive(one - lo)]
            out.extend(sorted((r.mirror(one) for r in neg if r is not None), key=lambda r: r.a))
        if hi > 0:
            out.extend(r for r in (r.clip(max(lo, 0), hi) for r in self._positive(hi))
                       if r is not None)
        return out

    def breakpoints(self, reach: Point) -> set[Point]:
        """Every run boundary in ``[-reach, reach]`` (a superset of the points where
        ``p`` changes)."""
        pts: set[Point] = set()
        for r in self.runs(-reach, reach + 1):
            if r.s == 0:
                pts.update((r.a, r.b))
            else:
                pts.update(range(int(r.a), int(r.b) + 1))  # (integers: a lattice)
        return {p for p in pts if -reach <= p <= reach}

    # ------------------------------------------------------------------ decisions
    def _sign(self, num: int, den: int, m: int) -> int:
        r"""The sign of :math:`\log\bigl(L_{num} q^m / (c L_{den})\bigr)`."""
        key = (num, den, m)
        if key not in self._signs:
            self._signs[key] = self._decide(num, den, m)
        return self._signs[key]

    def _decide(self, num: int, den: int, m: int) -> int:
        (ra, ta), (rb, tb), (rq, tq) = self.ratios[num], self.ratios[den], self.q
        r = ra / rb * rq ** m
        t = _add(_add(ta, -tb), m * tq)
        if self.c is not None:
            return _sign_of((r / self.c[0], _add(t, -self.c[1])))
        for bits in SIGN_BITS:  # an epsilon' not of the form log(R) + theta
            with arb_workprec(bits):
                v = ball(r).log() + _theta_ball(t) - arb_of(self.eps)
                if v > 0:
                    return 1
                if v < 0:
                    return -1
        if sp.simplify(sp.log(_sym(r)) + _sym(t) - self.eps) == 0:
            return 0
        raise CertificationError(f"cannot decide the sign of log({r}) + {t} - eps' "
                                 f"(eps' = {self.eps})")

    def _positive_range(self, pa: _Run, pb: _Run, n: Point) -> tuple[int, Point]:
        """The ``j`` in ``[0, n)`` whose terms are positive, as a range."""
        def positive(j: int) -> bool:
            m = pa.e - pb.e + (pa.s - pb.s) * j
            return self._sign(pa.level, pb.level, m) > 0

        if pa.s == pb.s:
            return (0, n) if positive(0) else (0, 0)
        count = int(n)  # (steps differ on the lattice only)
        first, last = positive(0), positive(count - 1)
        if first == last:
            return (0, n) if first else (0, 0)
        lo, hi = 0, count - 1  # positive(lo) == first != positive(hi)
        while hi - lo > 1:
            mid = (lo + hi) // 2
            if positive(mid) == first:
                lo = mid
            else:
                hi = mid
        return (0, hi) if first else (hi, n)

    # ------------------------------------------------------------------ plans
    def _window(self, d: Point, lo: Point, hi: Point, tail: bool) -> list[Term]:
        terms: list[Term] = []
        mine, moved = self.runs(lo, hi), self.runs(lo - d, hi - d)
        moved = [_Run(r.a + d, r.b + d, r.level, r.e, r.s) for r in moved]
        ia = ib = 0
        pos = lo
        while pos < hi:
            ra, rb = mine[ia], moved[ib]
            end = min(ra.b, rb.b)
            pa, pb = ra.clip(pos, end), rb.clip(pos, end)
            assert pa is not None and pb is not None
            n = end - pos
            if pa.level >= 0:
                if pb.level < 0:
                    terms.append((1, pa.level, False, pa.e, pa.s, n, tail))
                else:
                    j0, j1 = self._positive_range(pa, pb, n)
                    if j1 > j0:
                        terms.append((1, pa.level, False, pa.e + pa.s * j0, pa.s, j1 - j0, tail))
                        terms.append((-1, pb.level, True, pb.e + pb.s * j0, pb.s, j1 - j0,
                                      tail))
            pos = end
            if ra.b == end:
                ia += 1
            if rb.b == end:
                ib += 1
        return terms

    def plan(self, d: Point) -> list[Term]:
        r"""The terms of :math:`H(d)`: the window where a head is involved, and one
        period of each far tail (over :math:`1 - q`)."""
        one = self.one
        if self.tail is None:
            return self._window(d, one - self.head_end, self.head_end, False)
        start, period, _ = self.tail
        return (self._window(d, one - start, start + d, False)
                + self._window(d, start + d, start + d + period, True)
                + self._window(d, one - start - period, one - start, True))

    def shifts(self, top: Point) -> list[Point]:
        """The shifts whose maximum is the supremum over ``|d| <= top`` (module docstring)."""
        if top < 1 and self.lattice:
            return [0]
        if self.lattice and not self.head and self.tail is not None and self.tail[0] == 0 \
                and self.tail[1] == 1:
            return [top]  # log-concave: H nondecreasing in d
        reach = self.head_end + top + 2 * (self.tail[1] if self.tail else 0) \
            + (self.tail[0] if self.tail else 0)
        pts = sorted(self.breakpoints(reach))
        found = {1, top} if self.lattice else {top}
        for i, p1 in enumerate(pts):
            for p2 in pts[i + 1:]:
                if p2 - p1 >= top:
                    break
                found.add(p2 - p1)
                if len(found) > MAX_SHIFTS:
                    raise UnsupportedError(
                        f"more than {MAX_SHIFTS} breakpoint differences to evaluate")
        return sorted(found, reverse=True)

    # ------------------------------------------------------------------ values
    def _sum_exact(self, terms: list[Term]) -> Fraction:
        q = self.q[0]
        c = self.c[0] if self.c else Fraction(1)
        base = Fraction(int(sp.sympify(self.levels[0]).p), int(sp.sympify(self.levels[0]).q))
        total = Fraction(0)
        for sign, lv, with_c, e, s, n, tail in terms:
            if s == 0:
                geo = n * q ** e
            else:  # (a step: on the lattice, n an integer)
                low = e if s > 0 else e - int(n) + 1
                geo = q ** low * (1 - q ** int(n)) / (1 - q)
            value = sign * self.ratios[lv][0] * geo * (c if with_c else 1)
            total += value / (1 - q) if tail else value
        return total * base

    def _sum_ball(self, terms: list[Term]) -> flint.arb:
        lq = ball(self.q[0]).log() + _theta_ball(self.q[1])
        one_minus_q = -lq.expm1()
        c = _erat_ball(self.c) if self.c is not None else arb_of(sp.exp(self.eps))
        levels = [_erat_ball(r) for r in self.ratios]
        total = flint.arb(0)
        for sign, lv, with_c, e, s, n, tail in terms:
            if s == 0:
                geo = ball(n) * (e * lq).exp() if e else ball(n)
            else:  # (a step: on the lattice, n an integer)
                low = e if s > 0 else e - int(n) + 1
                geo = (low * lq).exp() * -(int(n) * lq).expm1() / one_minus_q
            value = levels[lv] * geo * (c if with_c else 1)
            if tail:
                value = value / one_minus_q
            total = total + value if sign > 0 else total - value
        return total * arb_of(self.levels[0])

    def _sum_symbolic(self, terms: list[Term]) -> sp.Expr:
        """The sum of a plan as a sympy expression (for exact ties)."""
        q = self.q_expr
        c = sp.exp(self.eps)
        total = sp.Integer(0)
        for sign, lv, with_c, e, s, n, tail in terms:
            n_s = _sym(Fraction(n))
            if s == 0:
                geo = n_s * q ** e
            else:
                low = e if s > 0 else e - n + 1
                geo = q ** low * (1 - q ** n) / (1 - q)
            value = sign * self.levels[lv] * geo * (c if with_c else 1)
            total += value / (1 - q) if tail else value
        return total + self.atom

    def value(self, top: int | Fraction) -> tuple:
        """``(exact, enclose, shift, parts)``: the profile at sensitivity ``top`` as an exact
        rational, or a ball function of the bits of accuracy; a worst shift; and the
        ``(enclose, symbolic)`` of every shift evaluated, whose maximum is the value. A point
        mass at the origin (on the line) adds itself for every shift :math:`d > 0` (the
        translate has no mass there)."""
        plans = [(d, self.plan(d)) for d in self.shifts(top)]
        plans_nonzero = [(d, p) for d, p in plans if p] or plans[:1]
        if not plans_nonzero[0][1] and self.atom == 0:
            return Fraction(0), None, plans[0][0], []
        rational_c = self.c is not None and self.c[1] == 0
        if self.exact or (self.rational_masses and (rational_c or not any(
                t[2] for _, p in plans_nonzero for t in p))):
            values = [(self._sum_exact(p), d) for d, p in plans_nonzero]
            best = max(values, key=lambda v: (v[0], v[1]))
            atom = Fraction(int(self.atom.p), int(self.atom.q))
            return max(best[0], Fraction(0)) + atom, None, best[1], []

        def compute() -> flint.arb:
            balls = [self._sum_ball(p) for _, p in plans_nonzero]
            out = balls[0]
            for b in balls[1:]:
                out = out.max(b)
            return out + arb_of(self.atom) if self.atom != 0 else out

        with arb_workprec(128):
            ups = [float(self._sum_ball(p).mid()) for _, p in plans_nonzero]
        worst = plans_nonzero[max(range(len(ups)), key=lambda i: ups[i])][0]

        def part(plan: list[Term]) -> tuple:
            def one() -> flint.arb:
                found = self._sum_ball(plan)
                return found + arb_of(self.atom) if self.atom != 0 else found
            return (lambda bits: adaptive(one, bits)), (lambda: self._sum_symbolic(plan))

        parts = [part(p) for _, p in plans_nonzero]
        return None, (lambda bits: adaptive(compute, bits)), worst, parts


class _NotLattice(Exception):
    """The description is not of the shape handled here."""


def _sign_of(value: ExpRat) -> int:
    r"""The sign of :math:`\log R + \theta` for rationals :math:`R > 0`, :math:`\theta`
    (exact; balls when :math:`R \ne 1 \ne e^{-\theta}`, which cannot tie). An irrational
    :math:`\theta` is compared by balls, a tie proven by sympy."""
    r, t = value
    if not isinstance(t, Fraction):
        return _sign_symbolic(r, t)
    if r == 1:
        return (t > 0) - (t < 0)
    if t == 0:
        return (r > 1) - (r < 1)
    found = _ball_sign(r, lambda: ball(t))
    if found is None:
        raise CertificationError(f"log({r}) + {t} not separated from 0 at {SIGN_BITS[-1]} "
                                 "bits")
    return found


def _ball_sign(r: Fraction, theta: Callable[[], flint.arb]) -> int | None:
    r"""The sign of :math:`\log r + \theta` (``theta()`` a ball at the current precision)
    where a ball at one of :data:`SIGN_BITS` excludes 0, else None."""
    for bits in SIGN_BITS:
        with arb_workprec(bits):
            v = ball(r).log() + theta()
            if v > 0:
                return 1
            if v < 0:
                return -1
    return None


def _sign_symbolic(r: Fraction, t: sp.Expr) -> int:
    found = _ball_sign(r, lambda: arb_of(t))
    if found is not None:
        return found
    if sp.simplify(sp.log(_sym(r)) + t) == 0:
        return 0
    raise CertificationError(f"cannot decide the sign of log({r}) + {t}")


def lattice_profile(noise: SymmetricNoise, eps: Fraction | sp.Expr, Delta: Fraction | sp.Expr
                    ) -> tuple | None:
    r"""The profile of a numeric lattice noise, or a piecewise-constant density, at
    :math:`\varepsilon^{\prime}` and sensitivity :math:`\Delta` (``(exact, enclose, worst shift,
    parts)``,
    see :meth:`LatticeProfile.value`), or None when the description is not constant pieces
    (rational ends on the line) plus a tail of ratio :math:`R e^\theta`."""
    try:
        prof = LatticeProfile(noise, eps)
    except _NotLattice:
        return None
    if not noise.lattice:
        return prof.value(Delta) if isinstance(Delta, Fraction) and Delta > 0 else None
    top = int(sp.floor(sp.Rational(Delta.numerator, Delta.denominator)
                       if isinstance(Delta, Fraction) else sp.sympify(Delta)))
    return prof.value(top)


__all__ = ["MAX_SHIFTS", "LatticeProfile", "exp_rational", "lattice_profile"]
