r"""Symmetric noise distributions described by their density or mass function.

A noise distribution :math:`P` on :math:`\mathbb{R}` (or on :math:`\mathbb{Z}`) that is
symmetric about the origin is described by its restriction to :math:`[0, \infty)`:

* an optional point mass ``atom`` at the origin (continuous case only);
* a finite ``head``: pieces :math:`[l, h)` on which the density (or the mass of each
  integer point) is a given expression in :math:`x`;
* an optional :class:`GeometricTail`: a shape on one period :math:`[0, T)` repeated on
  :math:`[s + kT, s + (k + 1)T)` for :math:`k = 0, 1, \dots` and scaled by :math:`q^k`,
  :math:`0 < q < 1`. This is how the staircase's infinite piecewise density is written
  exactly.

The density on :math:`(-\infty, 0)` is the mirror image. From this description the
module derives, symbolically, the total mass and the moments
:math:`\mathbb{E}|X|^p` for every :math:`p > 0` (closed forms for integer :math:`p`, Lerch
transcendents otherwise), and numerically (mpmath), the same quantities and the
distribution function.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field, replace

import mpmath
import sympy as sp

from dpsym.errors import NoClosedFormError
from dpsym.symbolic.cache import memoised
from dpsym.symbolic.lambdas import mpmath_function
from dpsym.symbolic.sums import lerch_sum, polynomial_geometric_sum
from dpsym.symbols import k, u, x

#: Integer moments up to this order are expanded into closed rational forms; higher ones
#: use Lerch sums (their polynomial expansions grow too large to be useful).
MAX_POLYNOMIAL_DEGREE = 12


def integral(integrand: sp.Expr, var: sp.Symbol, lo: sp.Expr, hi: sp.Expr) -> sp.Expr:
    r""":math:`\int_{lo}^{hi}` ``integrand`` :math:`d\,`\ ``var`` by ``sympy.integrate``
    (``conds="none"``), kept per arguments (:func:`dpsym.symbolic.cache.memoised`: the same
    piece is integrated by a noise's validation, its calibration and each family declared
    with it)."""
    return _integral(*map(sp.sympify, (integrand, var, lo, hi)))


@memoised(1024)
def _integral(integrand: sp.Expr, var: sp.Symbol, lo: sp.Expr, hi: sp.Expr) -> sp.Expr:
    return sp.integrate(integrand, (var, lo, hi), conds="none")


def lattice_sum(summand: sp.Expr, var: sp.Symbol, lo: sp.Expr, hi: sp.Expr) -> sp.Expr:
    r""":math:`\sum_{var = lo}^{hi}` ``summand`` by ``sympy.summation``, kept per
    arguments (as :func:`integral`)."""
    return _lattice_sum(*map(sp.sympify, (summand, var, lo, hi)))


@memoised(1024)
def _lattice_sum(summand: sp.Expr, var: sp.Symbol, lo: sp.Expr, hi: sp.Expr) -> sp.Expr:
    return sp.summation(summand, (var, lo, hi))


@dataclass(frozen=True)
class Piece:
    r"""The density (or per-point mass) ``expr`` on the interval :math:`[lo, hi)`.

    In a head, ``expr`` is a function of :data:`dpsym.symbols.x`; in a tail it is a
    function of the local coordinate :data:`dpsym.symbols.u`. On a lattice the piece
    covers the integers :math:`lo, lo + 1, \dots, hi - 1`.
    """

    lo: sp.Expr
    hi: sp.Expr
    expr: sp.Expr

    def subs(self, values: Mapping) -> Piece:
        """The piece with ``values`` substituted in its bounds and expression."""
        return Piece(*(sp.sympify(e).subs(values) for e in (self.lo, self.hi, self.expr)))


@dataclass(frozen=True)
class GeometricTail:
    r"""A shape repeated on every period and decaying geometrically.

    Copy :math:`k \ge 0` covers :math:`[s + kT, s + (k+1)T)`; at
    :math:`x = s + kT + u` its density is :math:`q^k g(u)`, where :math:`g` is given by
    ``pieces`` on :math:`[0, T)` in the variable :data:`dpsym.symbols.u`.

    Parameters
    ----------
    start : sympy.Expr
        :math:`s`, where the first copy begins.
    period : sympy.Expr
        :math:`T > 0`.
    ratio : sympy.Expr
        :math:`q \in (0, 1)`.
    pieces : tuple of Piece
        The shape :math:`g` on one period, covering :math:`[0, T)`.
    """

    start: sp.Expr
    period: sp.Expr
    ratio: sp.Expr
    pieces: tuple[Piece, ...]

    def subs(self, values: Mapping) -> GeometricTail:
        """The tail with ``values`` substituted everywhere."""
        return GeometricTail(
            sp.sympify(self.start).subs(values), sp.sympify(self.period).subs(values),
            sp.sympify(self.ratio).subs(values), tuple(pc.subs(values) for pc in self.pieces),
        )


@dataclass(frozen=True)
class SymmetricNoise:
    r"""A symmetric noise distribution given on :math:`[0, \infty)`.

    Parameters
    ----------
    lattice : bool
        ``False`` for a density on :math:`\mathbb{R}`, ``True`` for a mass function on
        :math:`\mathbb{Z}`.
    head : tuple of Piece
        Explicit pieces on :math:`[0, s)`.
    tail : GeometricTail or None
        The geometrically decaying remainder on :math:`[s, \infty)`.
    atom : sympy.Expr
        Point mass at the origin (continuous case; on a lattice the mass at 0 belongs
        to the pieces).
    """

    lattice: bool
    head: tuple[Piece, ...] = ()
    tail: GeometricTail | None = None
    atom: sp.Expr = field(default=sp.Integer(0))

    # ------------------------------------------------------------------ structure
    def subs(self, values: Mapping) -> SymmetricNoise:
        """The description with ``values`` substituted everywhere."""
        return SymmetricNoise(
            self.lattice, tuple(pc.subs(values) for pc in self.head),
            None if self.tail is None else self.tail.subs(values),
            sp.sympify(self.atom).subs(values),
        )

    def scaled(self, factor: sp.Expr) -> SymmetricNoise:
        """The same description with every density and the atom multiplied by ``factor``."""
        tail = self.tail
        if tail is not None:
            tail = replace(tail, pieces=tuple(Piece(pc.lo, pc.hi, factor * pc.expr)
                                              for pc in tail.pieces))
        return SymmetricNoise(
            self.lattice, tuple(Piece(pc.lo, pc.hi, factor * pc.expr) for pc in self.head),
            tail, factor * sp.sympify(self.atom),
        )

    def free_symbols(self) -> set[sp.Symbol]:
        """Every symbol the description depends on (except its integration variables)."""
        out: set[sp.Symbol] = set(sp.sympify(self.atom).free_symbols)
        for pc in self.head:
            for e in (pc.lo, pc.hi, pc.expr):
                out |= sp.sympify(e).free_symbols
        if self.tail is not None:
            t = self.tail
            for e in (t.start, t.period, t.ratio):
                out |= sp.sympify(e).free_symbols
            for pc in t.pieces:
                for e in (pc.lo, pc.hi, pc.expr):
                    out |= sp.sympify(e).free_symbols
        return out - {x, u}

    def mass_at_zero(self) -> sp.Expr:
        """The probability of the value 0 (atom, or the lattice point 0)."""
        if not self.lattice:
            return sp.sympify(self.atom)
        if self.head:
            return self.head[0].expr.subs(x, 0)
        assert self.tail is not None
        return self.tail.pieces[0].expr.subs(u, 0)

    # ------------------------------------------------------------------ symbolic
    def half_moment(self, power: sp.Expr) -> sp.Expr:
        r"""Return :math:`\int_0^\infty x^p f(x)\,dx` (lattice: :math:`\sum_{i \ge 0} i^p P(i)`).

        For :math:`p = 0` on a lattice the point :math:`i = 0` is included.
        """
        power = sp.sympify(power)
        total = sp.Integer(0)
        for pc in self.head:
            total += self._piece_moment(pc, x, power)
        if self.tail is not None:
            total += self._tail_moment(self.tail, power)
        return total

    def total_mass(self) -> sp.Expr:
        """The total probability, which a normalised description makes 1."""
        half = self.half_moment(sp.Integer(0))
        if self.lattice:
            return 2 * half - self.mass_at_zero()
        return sp.sympify(self.atom) + 2 * half

    def moment(self, power: sp.Expr) -> sp.Expr:
        r"""Return :math:`\mathbb{E}|X|^p` for :math:`p > 0`."""
        return 2 * self.half_moment(power)

    def expected_cost(self, cuts: tuple[sp.Expr, ...], values: tuple[sp.Expr, ...],
                      pieces: tuple[tuple[sp.Expr, sp.Expr, tuple], ...]) -> sp.Expr:
        r"""Return :math:`\mathbb{E}\,L(X)` for a cost cut at :math:`0 = t_0 < \dots < t_m`
        into generalised polynomials: ``values`` are :math:`L(t_j)` and ``pieces``
        ``(t_j, t_{j+1}, ((c_i, p_i), ...))``, :math:`L = \sum_i c_i y^{p_i}` on
        :math:`(t_j, t_{j+1})` (:class:`dpsym.core.costs.Shape`). Each term is a moment of a
        piece of the noise over the intersection of the two intervals, written with
        ``Min``/``Max`` of the ends and a ``Piecewise`` where the intersection may be empty
        (a finite sum of elementary terms for the explicit pieces).

        Raises
        ------
        NoClosedFormError
            For a noise with a geometric tail (its periods meet the cuts at
            :math:`\lfloor t_j/T \rfloor`, not a closed form in the parameters).
        """
        if self.tail is not None:
            raise NoClosedFormError(
                "a cost with cuts meets the periods of a geometric tail at floor(t/period): "
                "no closed form in the parameters; its values are certified numerically")
        total = sp.Integer(0)
        for pc in self.head:
            for a, c, terms in pieces:
                # on a lattice the points strictly above the cut a (those of the piece from
                # pc.lo on are chosen in _between): Max(a, pc.lo) would drop pc.lo > a
                lo = a if self.lattice else sp.Max(a, pc.lo)
                hi = sp.Min(c, pc.hi)
                for coef, power in terms:
                    total += coef * self._between(pc, power, lo, hi)
            if self.lattice:
                for cut, value in zip(cuts[1:], values[1:], strict=True):
                    if cut.is_Integer:
                        inside = sp.And(cut >= pc.lo, cut < pc.hi)
                        total += sp.Piecewise((value * pc.expr.subs(x, cut), inside),
                                              (0, True))
        at_zero = values[0]
        if self.lattice:
            return 2 * (total + at_zero * self.mass_at_zero()) - at_zero * self.mass_at_zero()
        return sp.sympify(self.atom) * at_zero + 2 * total

    def _between(self, pc: Piece, power: sp.Expr, lo: sp.Expr, hi: sp.Expr) -> sp.Expr:
        r""":math:`\int_{lo}^{hi} y^p f` (lattice: the sum over the integers strictly
        between the cuts ``lo``, ``hi`` that the piece holds: the point 0, and a cut
        that is an integer, are counted by the caller), zero where the interval is
        empty."""
        weight = x**power if power != 0 else sp.Integer(1)
        if self.lattice:
            first = sp.Max(pc.lo, sp.floor(lo) + 1)
            first = sp.Max(first, 1) if power.is_positive else first
            last = sp.Min(pc.hi - 1, sp.ceiling(hi) - 1)
            found = lattice_sum(weight * pc.expr, x, first, last)
            return sp.Piecewise((found, first <= last), (0, True))
        found = integral(weight * pc.expr, x, lo, hi)
        return sp.Piecewise((found, lo < hi), (0, True))

    def _piece_moment(self, pc: Piece, var: sp.Symbol, power: sp.Expr) -> sp.Expr:
        weight = var**power if power != 0 else sp.Integer(1)
        if self.lattice:
            lo = pc.lo if power == 0 or pc.lo != 0 or not power.is_positive else 1
            # (0**p = 0 for p > 0: the sum starts at 1 so that sympy never sees 0**p)
            if power.is_integer is False and var not in pc.expr.free_symbols:
                # a flat piece: sum_{lo <= x < hi} x^p = zeta(-p, lo) - zeta(-p, hi),
                # Hurwitz zeta functions (enclosed in ball arithmetic)
                return pc.expr * (sp.zeta(-power, lo) - sp.zeta(-power, pc.hi))
            return lattice_sum(weight * pc.expr, var, lo, pc.hi - 1)
        return integral(weight * pc.expr, var, pc.lo, pc.hi)

    def _tail_moment(self, tail: GeometricTail, power: sp.Expr) -> sp.Expr:
        s, T, q = tail.start, tail.period, tail.ratio
        total = sp.Integer(0)
        for pc in tail.pieces:
            if power.is_integer and 0 <= power <= MAX_POLYNOMIAL_DEGREE:
                weight = sp.expand((s + k * T + u) ** power)
                if self.lattice:
                    f_of_k = lattice_sum(weight * pc.expr, u, pc.lo, pc.hi - 1)
                else:
                    f_of_k = integral(weight * pc.expr, u, pc.lo, pc.hi)
                total += polynomial_geometric_sum(f_of_k, q)
                continue
            if u in pc.expr.free_symbols:
                raise NoClosedFormError(
                    "non-integer moments of a non-constant periodic shape have no closed form"
                )
            if self.lattice:
                span = sp.simplify(pc.hi - pc.lo)
                if not span.is_Integer:
                    raise NoClosedFormError(
                        "non-integer moments of a lattice tail need a numeric period"
                    )
                total += sp.Add(*[pc.expr * T**power * lerch_sum(q, power, (s + pc.lo + j) / T)
                                  for j in range(int(span))])
            else:
                total += (pc.expr * T ** (power + 1) / (power + 1)
                          * (lerch_sum(q, power + 1, (s + pc.hi) / T)
                             - lerch_sum(q, power + 1, (s + pc.lo) / T)))
        return total

    # ------------------------------------------------------------------ numeric
    def numeric_pieces(self, periods: int) -> Iterator[tuple[mpmath.mpf, mpmath.mpf, object]]:
        r"""Yield ``(lo, hi, f)`` on :math:`[0, \infty)` with ``f`` an mpmath callable.

        The description must be fully numeric. The tail is unrolled for ``periods``
        periods; the caller accounts for the remainder.
        """
        for pc in self.head:
            yield (mpmath.mpf(sp.N(pc.lo, mpmath.mp.dps + 10)),
                   mpmath.mpf(sp.N(pc.hi, mpmath.mp.dps + 10)) if pc.hi != sp.oo else mpmath.inf,
                   mpmath_function(x, pc.expr))
        if self.tail is None:
            return
        t = self.tail
        s0, T, q = (mpmath.mpf(sp.N(e, mpmath.mp.dps + 10)) for e in (t.start, t.period, t.ratio))
        shapes = [(mpmath.mpf(sp.N(pc.lo, mpmath.mp.dps + 10)),
                   mpmath.mpf(sp.N(pc.hi, mpmath.mp.dps + 10)),
                   mpmath_function(u, pc.expr)) for pc in t.pieces]
        for kk in range(periods):
            base = s0 + kk * T
            scale = q**kk
            for lo, hi, g in shapes:
                yield (base + lo, base + hi,
                       (lambda z, g=g, base=base, scale=scale: scale * g(z - base)))
