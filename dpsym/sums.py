r"""Geometric sums over the period index :math:`k \ge 0`.

The staircase family repeats a fixed shape on every period, scaled by
:math:`r^k` (:math:`r = e^{-\varepsilon}` for the staircase). Every moment is therefore a
sum :math:`\sum_k r^k F(k)`; when :math:`F` is a polynomial in :math:`k` the sum is a
rational function of :math:`r`, obtained from

.. math:: \sum_{k \ge 0} k^j r^k = \Bigl(r \frac{d}{dr}\Bigr)^j \frac{1}{1 - r},
          \qquad 0 < r < 1,

and otherwise (non-integer moments) it is a Lerch transcendent
:math:`\Phi(r, s, a) = \sum_{k \ge 0} r^k (k + a)^{-s}`.
"""

from __future__ import annotations

from functools import cache, lru_cache

import mpmath
import sympy as sp
from sympy.core.function import ArgumentIndexError

from .precision import extraprec, workprec
from .symbols import k

_R = sp.Symbol("R", positive=True)


@cache
def _eulerian(j: int) -> sp.Expr:
    expr = 1 / (1 - _R)
    for _ in range(j):
        expr = sp.factor(_R * sp.diff(expr, _R))
    return expr


def geometric_moment(j: int, ratio: sp.Expr) -> sp.Expr:
    r"""Return :math:`\sum_{k \ge 0} k^j r^k` for ``ratio`` :math:`= r \in (0, 1)`.

    Parameters
    ----------
    j : int
        A nonnegative integer power (:math:`0^0 = 1`).
    ratio : sympy.Expr
        The common ratio, assumed to lie in :math:`(0, 1)`.
    """
    if j < 0:
        raise ValueError("j must be a nonnegative integer")
    return _eulerian(int(j)).subs(_R, ratio)


def polynomial_geometric_sum(poly_in_k: sp.Expr, ratio: sp.Expr) -> sp.Expr:
    r"""Return :math:`\sum_{k \ge 0} r^k F(k)` for a polynomial :math:`F` in ``k``.

    Raises
    ------
    sympy.PolynomialError
        If ``poly_in_k`` is not a polynomial in :data:`dpsym.symbols.k`.
    """
    poly = sp.Poly(sp.expand(poly_in_k), k)
    return sp.Add(*[c * geometric_moment(m[0], ratio)
                    for m, c in zip(poly.monoms(), poly.coeffs(), strict=True)])


class LerchSum(sp.Function):
    r"""The Lerch sum :math:`L(r, s, a) = \sum_{k \ge 0} r^k (k + a)^s`, :math:`0 < r < 1`.

    This is the Lerch transcendent :math:`\Phi(r, -s, a)` (with :math:`0^s = 0`). Its
    derivatives are again such sums,

    .. math:: \partial_a L = s\,L(r, s - 1, a), \qquad
              \partial_r L = \bigl(L(r, s + 1, a) - a\,L(r, s, a)\bigr) / r,

    so that optimality conditions stay in closed form; numerically it is evaluated by
    :func:`mp_lerch_sum`.
    """

    nargs = 3

    def fdiff(self, argindex: int = 1) -> sp.Expr:
        z, s, a = self.args
        if argindex == 3:
            return s * LerchSum(z, s - 1, a)
        if argindex == 1:
            return (LerchSum(z, s + 1, a) - a * LerchSum(z, s, a)) / z
        raise ArgumentIndexError(self, argindex)

    def _eval_evalf(self, prec: int) -> sp.Float:
        with workprec(prec + 20):
            z, s, a = (mpmath.mpf(sp.N(v, mpmath.mp.dps)) for v in self.args)
            return sp.Float(mp_lerch_sum(z, s, a), precision=prec)


def mp_lerch_sum(z, s, a):
    """Cached front end of :func:`_mp_lerch_sum` (the same sums recur in a minimisation)."""
    return _mp_lerch_cached(mpmath.mpf(z), mpmath.mpf(s), mpmath.mpf(a), mpmath.mp.prec)


@lru_cache(maxsize=4096)
def _mp_lerch_cached(z, s, a, prec):
    with workprec(prec):
        return _mp_lerch_sum(z, s, a)


#: Largest number of terms summed directly before the Hurwitz-zeta expansion is used.
DIRECT_TERMS = 8_000


def _mp_lerch_sum(z, s, a):
    r"""Evaluate :math:`\sum_{k \ge 0} z^k (k + a)^s` with mpmath at the working precision.

    When at most :data:`DIRECT_TERMS` terms reach the working precision
    (:math:`t = -\log z` not too small) the terms are summed directly.
    Closer to :math:`z = 1` the expansion in Hurwitz zeta functions

    .. math:: \sum_{k \ge 0} e^{-kt} (k + a)^s = e^{at} \Bigl[\Gamma(1 + s)\, t^{-1-s}
              + \sum_{n \ge 0} \zeta(-s - n, a) \frac{(-t)^n}{n!}\Bigr],
              \qquad 0 < t < 2\pi,

    converges geometrically like :math:`(t / 2\pi)^n`.
    """
    z, s, a = mpmath.mpf(z), mpmath.mpf(s), mpmath.mpf(a)
    if a == 0:
        return z * _mp_lerch_sum(z, s, 1) if s > 0 else mpmath.lerchphi(z, -s, a)
    t = -mpmath.log(z)
    tiny = mpmath.mpf(2) ** (-mpmath.mp.prec - 10)
    terms = ((mpmath.mp.prec + 10) * mpmath.ln2 + s * mpmath.log(1 + s / t)) / t + s / t
    if terms <= DIRECT_TERMS or (mpmath.isint(s) and s <= 0):
        total = mpmath.mpf(0)
        kk = 0
        zk = mpmath.mpf(1)
        while True:
            term = zk * (kk + a) ** s
            total += term
            if kk * t > s and abs(term) <= tiny * abs(total):
                return total
            kk += 1
            zk *= z
    with extraprec(30):
        total = mpmath.gamma(1 + s) * t ** (-1 - s)
        n = 0
        factor = mpmath.mpf(1)
        while True:
            term = mpmath.zeta(-s - n, a) * factor
            total += term
            if n > s + 2 and abs(term) <= tiny * abs(total):
                return mpmath.exp(a * t) * total
            n += 1
            factor *= -t / n


def lerch_sum(ratio: sp.Expr, s: sp.Expr, a: sp.Expr) -> sp.Expr:
    r"""Return :math:`\sum_{k \ge 0} r^k (k + a)^{s}` for :math:`s > 0`, :math:`a \ge 0`."""
    return LerchSum(ratio, s, a)


#: Extra names for ``sympy.lambdify(..., modules=[NUMERIC_FUNCTIONS, "mpmath"])``.
NUMERIC_FUNCTIONS = {"LerchSum": mp_lerch_sum}
