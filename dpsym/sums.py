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

from functools import lru_cache

import sympy as sp

from .symbols import k

_R = sp.Symbol("R", positive=True)


@lru_cache(maxsize=None)
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
    ValueError
        If ``poly_in_k`` is not a polynomial in :data:`dpsym.symbols.k`.
    """
    poly = sp.Poly(sp.expand(poly_in_k), k)
    return sp.Add(*[c * geometric_moment(m[0], ratio)
                    for m, c in zip(poly.monoms(), poly.coeffs())])


def lerch_sum(ratio: sp.Expr, s: sp.Expr, a: sp.Expr) -> sp.Expr:
    r"""Return :math:`\sum_{k \ge 0} r^k (k + a)^{s}` for :math:`s > 0`, :math:`a \ge 0`.

    This is the Lerch transcendent :math:`\Phi(r, -s, a)`, written as
    :math:`a^s + r\,\Phi(r, -s, a + 1)` so that it stays finite and differentiable at
    :math:`a = 0` (where mpmath's :math:`\Phi` has a pole for :math:`s < 0`).
    """
    if a == 0:
        return sp.polylog(-s, ratio)
    return a**s + ratio * sp.lerchphi(ratio, -s, a + 1)
