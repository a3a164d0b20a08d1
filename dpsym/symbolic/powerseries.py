r"""Exact truncated power series, and the tools of Puiseux expansions around them.

The coefficients live in a field :class:`Field`: a sympy domain :math:`F` (such as
:math:`\mathbb{Q}` or :math:`\mathbb{Q}(\Delta, \dots)`), possibly extended by one real
algebraic number :math:`\theta` (:func:`adjoin_root`). A power series
:math:`a(s) = \sum_i a_i s^i` is the list of its coefficients, lowest degree first, truncated
modulo :math:`s^n`:

* :func:`valuation`, :func:`pad`, :func:`series_mul`, :func:`series_inv` and
  :func:`series_horner` (:math:`\sum_i c_i(s)\, x(s)^i`) are exact arithmetic;
* :func:`series_root` solves :math:`H(z, s) = 0` for :math:`z(s)` by Newton's iteration on
  power series when :math:`H(0, 0) = 0 \neq H_z(0, 0)`;
* :func:`lower_hull` gives the edges of a Newton polygon (the exponents of a Puiseux
  expansion);
* :func:`real_roots`, :func:`bisect_polynomial_root`, :func:`numeric` and its variants
  evaluate numerically, only to choose between exact candidates (which real root to adjoin,
  which branch to follow).

This is the exact arithmetic of :func:`dpsym.symbolic.asymptotics.minimiser_series`.

:class:`PuiseuxArithmetic` is the arithmetic of truncated Puiseux series
:math:`\sum_i c_i t^{(v+i)/q}` with a precision, and their exponentials, logarithms and
rational powers, over a :class:`dpsym.symbolic.tidy.Coefficients` field: the arithmetic of
:func:`dpsym.symbolic.regimes.expand_series`.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

import mpmath
import sympy as sp
from sympy.polys.densearith import dup_add, dup_mul, dup_neg, dup_rem, dup_sub
from sympy.polys.densebasic import dup_strip
from sympy.polys.euclidtools import dup_invert

from dpsym.errors import UnsupportedError


# ---------------------------------------------------------------------------- fields
class Field:
    r"""The coefficient field: a sympy domain :math:`F`, possibly extended by one
    algebraic number :math:`\theta` (elements are then dense polynomials in
    :math:`\theta` reduced modulo its monic minimal polynomial).

    Parameters
    ----------
    base : sympy domain
        :math:`F`.
    modulus : list, optional
        The monic minimal polynomial of :math:`\theta` over :math:`F` (dense, highest
        degree first); None for :math:`F` itself.
    generator : sympy.Expr, optional
        :math:`\theta` as an expression (for :meth:`to_sympy`).
    """

    def __init__(self, base: Any, modulus: list | None = None,
                 generator: sp.Expr | None = None) -> None:
        self.base = base
        self.modulus = modulus
        self.generator = generator
        self.ext = modulus is not None
        self.zero = [] if self.ext else base.zero
        self.one = [base.one] if self.ext else base.one

    def embed(self, a: Any) -> Any:
        """An element of the base domain as an element of this field."""
        return dup_strip([a]) if self.ext else a

    def add(self, a: Any, c: Any) -> Any:
        """:math:`a + c`."""
        return dup_add(a, c, self.base) if self.ext else a + c

    def sub(self, a: Any, c: Any) -> Any:
        """:math:`a - c`."""
        return dup_sub(a, c, self.base) if self.ext else a - c

    def neg(self, a: Any) -> Any:
        """:math:`-a`."""
        return dup_neg(a, self.base) if self.ext else -a

    def mul(self, a: Any, c: Any) -> Any:
        """:math:`a c`."""
        if self.ext:
            if not a or not c:
                return []
            return dup_rem(dup_mul(a, c, self.base), self.modulus, self.base)
        return a * c

    def inv(self, a: Any) -> Any:
        """:math:`1 / a`.

        Raises
        ------
        ZeroDivisionError
            If ``a`` is zero.
        """
        if self.is_zero(a):
            raise ZeroDivisionError("inverse of zero in the coefficient field")
        if self.ext:
            return dup_invert(a, self.modulus, self.base)
        return self.base.one / a

    def is_zero(self, a: Any) -> bool:
        """Whether ``a`` is zero."""
        return not a if self.ext else self.base.is_zero(a)

    def to_sympy(self, a: Any) -> sp.Expr:
        """The element as a sympy expression (powers of the generator expanded)."""
        if not self.ext:
            return self.base.to_sympy(a)
        assert self.generator is not None  # (an extension has its generator)
        n = len(a)
        terms = [self.base.to_sympy(c) * self.generator ** (n - 1 - i) for i, c in enumerate(a)]
        return sp.expand(sp.Add(*terms))


def numeric(expr: sp.Expr, point: Mapping[sp.Symbol, sp.Expr]) -> mpmath.mpc:
    """``expr`` at ``point`` as an mpmath number at the working precision."""
    value = sp.sympify(expr).subs(point)
    return mpmath.mpmathify(sp.N(value, mpmath.mp.dps + 10))


def numeric_coeffs(poly: sp.Poly, point: Mapping[sp.Symbol, sp.Expr]) -> list[mpmath.mpc]:
    """The coefficients of ``poly`` (highest degree first) at ``point``, numerically."""
    return [numeric(c, point) for c in poly.all_coeffs()]


def numeric_element(K: Field, a: Any, point: Mapping[sp.Symbol, sp.Expr]) -> mpmath.mpc:
    """The element ``a`` of ``K`` at ``point``, numerically (see :func:`numeric`)."""
    return numeric(K.to_sympy(a), point)


def mp_rational(value: sp.Rational) -> mpmath.mpf:
    """A sympy rational as an mpmath number at the working precision."""
    return mpmath.mpf(value.p) / value.q


def mp_coeffs(poly: sp.Poly) -> list[mpmath.mpf]:
    """The rational coefficients of ``poly`` (highest degree first) as mpmath numbers."""
    return [mp_rational(sp.Rational(c)) for c in poly.all_coeffs()]


def bisect_polynomial_root(coeffs: list[mpmath.mpf], a: mpmath.mpf, c: mpmath.mpf
                           ) -> mpmath.mpf:
    """The root of the polynomial in its isolating interval ``[a, c]``, by bisection.

    ``coeffs`` are highest degree first; the polynomial must have exactly one root in
    ``[a, c]`` and change sign there (or vanish at an end point, which is returned).
    """
    fa = mpmath.polyval(coeffs, a)
    if a == c or fa == 0:
        return a
    if mpmath.polyval(coeffs, c) == 0:
        return c
    for _ in range(mpmath.mp.prec + 10):
        mid = (a + c) / 2
        fm = mpmath.polyval(coeffs, mid)
        if fm == 0 or mid in (a, c):
            return mid
        if (fm > 0) == (fa > 0):
            a, fa = mid, fm
        else:
            c = mid
    return (a + c) / 2


def real_roots(coeffs: Sequence[mpmath.mpc]) -> list[mpmath.mpf]:
    """Real roots of a polynomial with numeric coefficients (highest degree first)."""
    coeffs = list(coeffs)
    while coeffs and coeffs[0] == 0:
        coeffs.pop(0)
    if len(coeffs) < 2:
        return []
    roots = mpmath.polyroots(coeffs, maxsteps=400, extraprec=4 * mpmath.mp.prec, error=False)
    tiny = mpmath.mpf(10) ** (-mpmath.mp.dps // 2)
    return [mpmath.re(r) for r in (roots if isinstance(roots, list) else [roots])
            if abs(mpmath.im(r)) <= tiny * max(1, abs(r))]


def adjoin_root(F: Any, poly: sp.Poly, target: mpmath.mpf,
                point: Mapping[sp.Symbol, sp.Expr]) -> tuple[Field, Any]:
    r"""The real root of the irreducible ``poly`` (over :math:`F`) nearest ``target``:
    a field containing it and the root as an element of that field.

    ``target`` and the numeric values of the roots are taken with the other symbols at
    ``point``. A linear ``poly`` gives :math:`F` itself; otherwise the root is written in
    radicals (binomials, degree at most 4) or as a ``CRootOf`` (constant coefficients) and
    :math:`F(\theta)` is returned with :math:`\theta` that root.

    Raises
    ------
    UnsupportedError
        If no exact expression of a real root is found.
    """
    x = poly.gen
    coeffs = [F.from_sympy(c) for c in poly.all_coeffs()]
    if poly.degree() == 1:
        return Field(F), -coeffs[1] / coeffs[0]
    expr = poly.as_expr()
    n = poly.degree()
    candidates: list[sp.Expr] = []
    if len(poly.terms()) == 2 and poly.TC() != 0:
        radicand = sp.factor(-poly.TC() / poly.LC())
        r_num = sp.N(radicand.subs(point))
        if r_num > 0:
            root = sp.Pow(radicand, sp.Rational(1, n))
            candidates = [root] + ([-root] if n % 2 == 0 else [])
        elif n % 2 == 1:
            candidates = [-sp.Pow(-radicand, sp.Rational(1, n))]
    elif n <= 4:
        candidates = [r for r in sp.roots(expr, x, cubics=True, quartics=True)]
    elif not poly.free_symbols - {x}:
        candidates = list(sp.Poly(expr, x).real_roots())
    good = []
    for c in candidates:
        value = numeric(c, point)
        if abs(mpmath.im(value)) <= mpmath.mpf(10) ** (-20) * max(1, abs(value)):
            good.append((abs(mpmath.re(value) - target), c))
    if not good:
        raise UnsupportedError(f"no exact expression found for the root of {expr}")
    _, generator = min(good, key=lambda pair: pair[0])
    lead = coeffs[0]
    modulus = [c / lead for c in coeffs]
    K = Field(F, modulus, generator)
    return K, [F.one, F.zero]


# ---------------------------------------------------------------------------- series
def valuation(K: Field, a: Sequence) -> int | None:
    """Index of the first nonzero coefficient, None if all vanish."""
    for i, c in enumerate(a):
        if not K.is_zero(c):
            return i
    return None


def pad(K: Field, a: Sequence, n: int) -> list:
    """The first ``n`` coefficients of ``a``, completed with zeros."""
    a = list(a[:n])
    return a + [K.zero] * (n - len(a))


def series_mul(K: Field, a: Sequence, c: Sequence, n: int) -> list:
    """Product of two power series modulo :math:`s^n`."""
    out = [K.zero] * n
    lc = min(len(c), n)
    for i in range(min(len(a), n)):
        ai = a[i]
        if K.is_zero(ai):
            continue
        for j in range(min(lc, n - i)):
            if not K.is_zero(c[j]):
                out[i + j] = K.add(out[i + j], K.mul(ai, c[j]))
    return out


def series_inv(K: Field, a: Sequence, n: int) -> list:
    """Inverse of a power series with nonzero constant term, modulo :math:`s^n`."""
    inv0 = K.inv(a[0])
    out = [inv0] + [K.zero] * (n - 1)
    for k in range(1, n):
        acc = K.zero
        for i in range(1, min(k, len(a) - 1) + 1):
            if not K.is_zero(a[i]):
                acc = K.add(acc, K.mul(a[i], out[k - i]))
        out[k] = K.neg(K.mul(acc, inv0))
    return out


def series_horner(K: Field, coeffs: Sequence[Sequence], x: Sequence, n: int) -> list:
    r""":math:`\sum_i c_i(s)\, x(s)^i` modulo :math:`s^n` (``coeffs`` low degree first)."""
    out = pad(K, coeffs[-1], n)
    for c in reversed(coeffs[:-1]):
        out = series_mul(K, out, x, n)
        out = [K.add(u, v) for u, v in zip(out, pad(K, c, n), strict=True)]
    return out


def series_root(K: Field, h: Sequence[Sequence], n: int) -> list:
    r"""The root :math:`z(s)`, :math:`z(0) = 0`, of :math:`H(z, s) = \sum_k h_k(s) z^k`,
    modulo :math:`s^n`.

    Newton's iteration on power series, :math:`z \leftarrow z - H(z, s) / H_z(z, s)`, doubles
    the number of correct coefficients at each step; it needs :math:`H(0, 0) = 0` and
    :math:`H_z(0, 0) \neq 0`.

    Parameters
    ----------
    K : Field
        The coefficient field.
    h : sequence of sequences
        The coefficients :math:`h_k(s)` of :math:`H` in :math:`z` (low degree first), each
        a series modulo :math:`s^n`.
    n : int
        The truncation order.

    Raises
    ------
    UnsupportedError
        If the iteration does not give a root modulo :math:`s^n` (a safeguard).
    """
    dh = [[K.mul(K.embed(K.base.from_sympy(sp.Integer(k))), c) for c in h[k]]
          for k in range(1, len(h))]  # the coefficients of H_z
    z = [K.zero] * n
    prec = 1
    while prec < n:
        prec = min(2 * prec, n)
        value = series_horner(K, h, z, prec)
        slope = series_horner(K, dh, z, prec)
        step = series_mul(K, value, series_inv(K, slope, prec), prec)
        z = [K.sub(a, c) for a, c in zip(pad(K, z, prec), step, strict=True)] \
            + [K.zero] * (n - prec)
    if valuation(K, series_horner(K, h, z, n)) is not None:  # pragma: no cover - safeguard
        raise UnsupportedError("the power series of the minimiser did not converge")
    return z


def lower_hull(points: list[tuple[int, int]]) -> list[tuple[int, int]]:
    """Vertices of the lower convex hull of points sorted by abscissa (the Newton polygon
    of a series in two variables, from the exponents of its nonzero terms)."""
    hull: list[tuple[int, int]] = []
    for pt in points:
        while len(hull) >= 2:
            (x1, y1), (x2, y2) = hull[-2], hull[-1]
            if (y2 - y1) * (pt[0] - x1) >= (pt[1] - y1) * (x2 - x1):
                hull.pop()
            else:
                break
        hull.append(pt)
    return hull


# ---------------------------------------------------------------------------- Puiseux series
class PrecisionLoss(Exception):
    """A leading coefficient cancelled within the precision carried: more is needed."""


#: The most terms (of numerators and denominators) the coefficients of one series may have:
#: a bound on the time and memory of an expansion to a high order.
MAX_TERMS_CARRIED = 30_000


@dataclass
class Puiseux:
    r""":math:`\sum_i c_i t^{(v + i)/q}`, known modulo :math:`t^{p/q}` (``p`` None: exact,
    a finite sum).

    ``c[0]`` is nonzero; an empty ``c`` is zero, exactly (``p`` None) or to the precision
    :math:`t^{p/q}` (``v = p``). Coefficients are elements of a
    :class:`~dpsym.symbolic.tidy.Coefficients` field.
    """

    q: int
    v: int
    c: list
    p: int | None

    @property
    def exact_zero(self) -> bool:
        """Whether the series is exactly zero."""
        return self.p is None and not self.c

    @property
    def order(self) -> Fraction:
        """The exponent of the leading term (of the order term for a zero series)."""
        order = self.v if self.c else self.p
        assert order is not None  # (not an exact zero)
        return Fraction(order, self.q)


def _order_term(s: Puiseux) -> int:
    """The precision of a series that is an order term only, :math:`O(t^{p/q})`."""
    assert s.p is not None  # (a series that is not an exact zero)
    return s.p


class PuiseuxArithmetic:
    r"""Exact arithmetic of truncated Puiseux series with coefficients in ``K``.

    An infinite expansion made from an exact series (an inverse, an exponential...) carries
    the relative precision ``rel`` (in powers of :math:`t`); nothing is carried beyond the
    absolute precision :math:`t^{\mathrm{cap}}`. A cancellation of leading terms costs
    relative precision, which the caller restores by starting again with a larger ``rel``
    (:class:`PrecisionLoss` when nothing is left).
    """

    def __init__(self, K: Any, rel: Fraction, cap: Fraction) -> None:
        self.K, self.rel, self.cap = K, Fraction(rel), Fraction(cap)

    # ------------------------------------------------------------------ shapes
    def const(self, a: Any, tpow: Fraction = Fraction(0)) -> Puiseux:
        r"""The exact monomial :math:`a t^{\mathrm{tpow}}`."""
        if a.n.is_zero():
            return Puiseux(1, 0, [], None)
        return Puiseux(tpow.denominator, tpow.numerator, [a], None)

    def zero_to(self, q: int, p: int) -> Puiseux:
        """:math:`O(t^{p/q})`."""
        return Puiseux(q, p, [], p)

    def regrid(self, s: Puiseux, q: int) -> Puiseux:
        """``s`` with exponents in steps of :math:`1/q` (a multiple of ``s.q``)."""
        k = q // s.q
        if k == 1:
            return s
        c: list = []
        for i, a in enumerate(s.c):
            if i:
                c.extend([self.K.zero] * (k - 1))
            c.append(a)
        if s.p is None:
            return Puiseux(q, s.v * k, c, None)
        c.extend([self.K.zero] * ((s.p - s.v) * k - len(c)))
        return Puiseux(q, s.v * k, c, s.p * k)

    def _capped(self, s: Puiseux) -> Puiseux:
        limit = math.ceil(self.cap * s.q)
        end = s.p if s.p is not None else s.v + len(s.c)
        if end <= limit:
            return s
        c = s.c[:max(0, limit - s.v)]
        return Puiseux(s.q, s.v, c, limit) if c else self.zero_to(s.q, limit)

    def normal(self, q: int, v: int, c: list, p: int | None) -> Puiseux:
        """The series of these coefficients, leading zeros removed and capped.

        Raises
        ------
        UnsupportedError
            If the coefficients have more than :data:`MAX_TERMS_CARRIED` terms in all.
        """
        if sum(len(a.n) + len(a.d) for a in c) > MAX_TERMS_CARRIED:
            raise UnsupportedError(f"the coefficients of this expansion grow beyond "
                                   f"{MAX_TERMS_CARRIED} terms; ask for a lower order")
        start = 0
        while start < len(c) and self.K.is_zero(c[start]):
            start += 1
        c, v = c[start:], v + start
        if p is None:
            while c and c[-1].n.is_zero():
                c.pop()
            if not c:
                return Puiseux(1, 0, [], None)
        elif not c:
            return self.zero_to(q, p)
        return self._capped(Puiseux(q, v, c, p))

    def _terms(self, s: Puiseux) -> int:
        """The number of coefficients of an infinite expansion relative to ``s``."""
        return s.p - s.v if s.p is not None else max(1, math.ceil(self.rel * s.q))

    def split(self, f: Puiseux) -> tuple[Any, Puiseux]:
        """(leading coefficient, :math:`f / (c_0 t^{v/q})`, which starts with 1).

        Raises
        ------
        PrecisionLoss
            If ``f`` is zero to its precision.
        """
        if not f.c:
            raise PrecisionLoss
        il = self.K.inv(f.c[0])
        return f.c[0], Puiseux(f.q, 0, [self.K.mul(a, il) for a in f.c],
                               None if f.p is None else f.p - f.v)

    # ------------------------------------------------------------------ ring operations
    def add(self, f: Puiseux, g: Puiseux) -> Puiseux:
        """:math:`f + g`."""
        if f.exact_zero:
            return g
        if g.exact_zero:
            return f
        q = math.lcm(f.q, g.q)
        f, g = self.regrid(f, q), self.regrid(g, q)
        precs = [s.p for s in (f, g) if s.p is not None]
        p = min(precs) if precs else None
        lo = min(f.v, g.v)
        hi = p if p is not None else max(f.v + len(f.c), g.v + len(g.c))
        if hi <= lo:  # (two order terms only: p is their precision)
            assert p is not None
            return self.zero_to(q, p)
        K = self.K
        out = [K.zero] * (hi - lo)
        for s in (f, g):
            for i, a in enumerate(s.c[:hi - s.v]):
                out[s.v + i - lo] = K.add(out[s.v + i - lo], a)
        return self.normal(q, lo, out, p)

    def neg(self, f: Puiseux) -> Puiseux:
        """:math:`-f`."""
        return Puiseux(f.q, f.v, [self.K.neg(a) for a in f.c], f.p)

    def sub(self, f: Puiseux, g: Puiseux) -> Puiseux:
        """:math:`f - g`."""
        return self.add(f, self.neg(g))

    def mul(self, f: Puiseux, g: Puiseux) -> Puiseux:
        """:math:`f g`."""
        if f.exact_zero or g.exact_zero:
            return Puiseux(1, 0, [], None)
        q = math.lcm(f.q, g.q)
        f, g = self.regrid(f, q), self.regrid(g, q)
        if not f.c or not g.c:
            bounds = [_order_term(s) + (o.v if o.c else _order_term(o))
                      for s, o in ((f, g), (g, f)) if not s.c]
            return self.zero_to(q, min(bounds))
        v = f.v + g.v
        rels = [s.p - s.v for s in (f, g) if s.p is not None]
        full = len(f.c) + len(g.c) - 1
        n = min(min(rels) if rels else full, max(0, math.ceil(self.cap * q) - v))
        K = self.K
        lf, lg = len(f.c), len(g.c)
        out = [K.dot((f.c[i], g.c[k - i]) for i in range(max(0, k - lg + 1), min(k, lf - 1) + 1))
               for k in range(n)]
        if not out:
            return self.zero_to(q, v + n)
        return self.normal(q, v, out, v + n if rels or n < full else None)

    def inv(self, f: Puiseux) -> Puiseux:
        """:math:`1/f`.

        Raises
        ------
        PrecisionLoss
            If ``f`` is zero to its precision.
        """
        if not f.c:
            raise PrecisionLoss
        K = self.K
        i0 = K.inv(f.c[0])
        if f.p is None and len(f.c) == 1:
            return Puiseux(f.q, -f.v, [i0], None)
        n = self._terms(f)
        out = [i0]
        for k in range(1, n):
            acc = K.dot((f.c[i], out[k - i]) for i in range(1, min(k, len(f.c) - 1) + 1))
            out.append(K.neg(K.mul(acc, i0)))
        return self._capped(Puiseux(f.q, -f.v, out, -f.v + n))

    def power(self, f: Puiseux, k: int) -> Puiseux:
        """:math:`f^k` for an integer :math:`k`."""
        if k < 0:
            return self.power(self.inv(f), -k)
        result, base = self.const(self.K.one), f
        while k:
            if k & 1:
                result = self.mul(result, base)
            k >>= 1
            if k:
                base = self.mul(base, base)
        return result

    # ------------------------------------------------------------------ functions
    def powr(self, f: Puiseux, r: Fraction) -> Puiseux:
        r""":math:`f^r` for a rational :math:`r`: :math:`c_0^r t^{r v/q} h^r` with
        :math:`h = f/(c_0 t^{v/q})` (Miller's recurrence)."""
        if r.denominator == 1:
            return self.power(f, r.numerator)
        lead, h = self.split(f)
        K = self.K
        head = K.pow_const(lead, r)
        shift = Fraction(f.v, f.q) * r
        if h.p is None and len(h.c) == 1:
            g = Puiseux(h.q, 0, [K.one], None)
        else:
            n, g1 = self._terms(h), r + 1
            out = [K.one]
            for k in range(1, n):
                acc = K.dot((K.scale(h.c[j], g1 * j - k), out[k - j])
                            for j in range(1, min(k, len(h.c) - 1) + 1))
                out.append(K.scale(acc, Fraction(1, k)))
            g = Puiseux(h.q, 0, out, n)
        q = math.lcm(g.q, shift.denominator)
        g = self.regrid(g, q)
        s = int(shift * q)
        return self._capped(Puiseux(q, g.v + s, [K.mul(head, a) for a in g.c],
                                    None if g.p is None else g.p + s))

    def exp(self, f: Puiseux) -> Puiseux:
        r""":math:`e^f`: the constant term through
        :meth:`~dpsym.symbolic.tidy.Coefficients.exp_const`
        (which may give a power of :math:`t`), the rest by the recurrence of
        :math:`g^{\prime} = f^{\prime} g`.

        Raises
        ------
        UnsupportedError
            If ``f`` has a pole (an essential singularity).
        """
        K = self.K
        if f.c and f.v < 0:
            raise UnsupportedError("the exponential of a pole has no power series")
        head, tpow = K.one, Fraction(0)
        if f.c and f.v == 0:
            head, tpow = K.exp_const(f.c[0])
            f = self.sub(f, self.const(f.c[0]))
        if f.exact_zero:
            return self.const(head, tpow)
        n = f.p if f.p is not None else math.ceil(self.rel * f.q)
        n = max(1, min(n, math.ceil(self.cap * f.q)))
        fc = [K.zero] * n
        for i, a in enumerate(f.c[:max(0, n - f.v)]):
            fc[f.v + i] = a
        out = [K.one]
        for k in range(1, n):
            acc = K.dot((K.scale(fc[j], Fraction(j)), out[k - j]) for j in range(1, k + 1))
            out.append(K.scale(acc, Fraction(1, k)))
        return self.mul(self.const(head, tpow), self.normal(f.q, 0, out, n))

    def log(self, f: Puiseux) -> Puiseux:
        r""":math:`\log f = \log(c_0 t^{v/q}) + \log h` (the first a constant of the field,
        :meth:`~dpsym.symbolic.tidy.Coefficients.log_const`; the second by the recurrence of
        :math:`h g^{\prime} = h^{\prime}`)."""
        lead, h = self.split(f)
        K = self.K
        const = self.const(K.log_const(lead, Fraction(f.v, f.q)))
        if h.p is None and len(h.c) == 1:
            return const
        n = self._terms(h)
        hc = [h.c[i] if i < len(h.c) else K.zero for i in range(n)]
        out = [K.zero]
        for k in range(1, n):
            acc = K.dot((K.scale(out[j], Fraction(j)), hc[k - j]) for j in range(1, k))
            out.append(K.sub(hc[k], K.scale(acc, Fraction(1, k))))
        return self.add(const, self.normal(h.q, 0, out, n))

    def compose(self, coefficients: Any, u: Puiseux) -> Puiseux:
        r""":math:`\sum_k a_k u^k` for a series ``u`` of positive order, with ``a_k``
        given by ``coefficients(k)`` (a series) for as many :math:`k` as the precision
        needs."""
        if u.exact_zero:
            return coefficients(0)
        count = math.ceil(self.cap / u.order) + 1
        total, uk = coefficients(0), self.const(self.K.one)
        for k in range(1, count):
            uk = self.mul(uk, u)
            total = self.add(total, self.mul(coefficients(k), uk))
        return total


__all__ = [
    "MAX_TERMS_CARRIED",
    "Field",
    "PrecisionLoss",
    "Puiseux",
    "PuiseuxArithmetic",
    "adjoin_root",
    "bisect_polynomial_root",
    "lower_hull",
    "mp_coeffs",
    "mp_rational",
    "numeric",
    "numeric_coeffs",
    "numeric_element",
    "pad",
    "real_roots",
    "series_horner",
    "series_inv",
    "series_mul",
    "series_root",
    "valuation",
]
