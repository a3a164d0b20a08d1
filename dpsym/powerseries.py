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

This is the exact arithmetic of :func:`dpsym.asymptotics.minimiser_series`.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import mpmath
import sympy as sp
from sympy.polys.densearith import dup_add, dup_mul, dup_neg, dup_rem, dup_sub
from sympy.polys.densebasic import dup_strip
from sympy.polys.euclidtools import dup_invert

from .errors import UnsupportedError


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


__all__ = [
    "Field",
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
