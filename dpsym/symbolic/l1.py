r"""The :math:`\ell^1` geometry of :math:`\mathbb{R}^d` and radial (staircase) sums.

A density on :math:`\mathbb{R}^d` that depends on :math:`x` only through
:math:`r = \|x\|_1` is described by its radial profile :math:`g(r)`; the law of the radius
:math:`R = \|X\|_1` then has density :math:`g(r)\, s_d(r)`, with :math:`s_d(r)` the
surface measure of the :math:`\ell^1` sphere of radius :math:`r`,

.. math:: V_d(r) = \frac{(2r)^d}{d!}, \qquad s_d(r) = V_d^{\prime}(r) = \frac{2^d r^{d-1}}{(d-1)!},

and given :math:`R` the direction :math:`X/R` is uniform on the unit :math:`\ell^1` sphere:
:math:`X/R = (\sigma_1 D_1, \dots, \sigma_d D_d)` with independent uniform signs
:math:`\sigma_i` and :math:`D \sim \mathrm{Dirichlet}(1, \dots, 1)`, so that

.. math:: \mathbb{E}|X_1| = \frac{\mathbb{E}R}{d}, \qquad
          \mathbb{E}X_1^2 = \frac{2\,\mathbb{E}R^2}{d(d+1)}, \qquad
          \mathbb{E}\|X\|_2^2 = \frac{2\,\mathbb{E}R^2}{d+1}.

For staircase-shaped profiles every moment is a combination of the sums
:math:`S_m(\gamma) = \sum_{k \ge 0} b^k (k + \gamma)^m` (:func:`shifted_power_sum`), written
with the Eulerian polynomials :math:`\sum_{k \ge 0} k^j b^k = b A_j(b) / (1 - b)^{j+1}`.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from functools import cache
from typing import overload

import mpmath
import sympy as sp

from dpsym.precision import workprec
from dpsym.symbols import b, gamma, one_minus_b


def l1_ball_volume(d: int, r: sp.Expr) -> sp.Expr:
    r"""Volume :math:`(2r)^d / d!` of the :math:`\ell^1` ball of radius ``r`` in
    :math:`\mathbb{R}^d`."""
    return (2 * r) ** d / sp.factorial(d)


def l1_sphere_measure(d: int, r: sp.Expr) -> sp.Expr:
    r"""Surface measure :math:`2^d r^{d-1} / (d - 1)!` of the :math:`\ell^1` sphere of radius
    ``r`` (the derivative of :func:`l1_ball_volume` in ``r``)."""
    return 2**d * r ** (d - 1) / sp.factorial(d - 1)


@cache
def eulerian_numbers(j: int) -> tuple[int, ...]:
    r"""The Eulerian numbers :math:`A(j, 0), \dots, A(j, j - 1)` (``(1,)`` for ``j = 0``).

    By the recurrence :math:`A(j, m) = (m + 1) A(j - 1, m) + (j - m) A(j - 1, m - 1)`.
    """
    if j < 0:
        raise ValueError("j must be a nonnegative integer")
    row = [1]
    for n in range(2, j + 1):
        row = [(m + 1) * (row[m] if m < len(row) else 0)
               + (n - m) * (row[m - 1] if m >= 1 else 0) for m in range(n)]
    return tuple(row)


@cache
def power_geometric_sum(j: int) -> sp.Expr:
    r"""Return :math:`\sum_{k \ge 0} k^j b^k` (:math:`0^0 = 1`), :math:`0 < b < 1`.

    :math:`1/(1-b)` for :math:`j = 0`, else :math:`b A_j(b) / (1 - b)^{j + 1}` with the
    Eulerian polynomial :math:`A_j(b) = \sum_m A(j, m) b^m`.
    """
    if j == 0:
        return 1 / (1 - b)
    poly = sp.Add(*[c * b**m for m, c in enumerate(eulerian_numbers(j))])
    return b * poly / (1 - b) ** (j + 1)


@cache
def shifted_power_sum(m: int) -> sp.Expr:
    r"""Return :math:`S_m(\gamma) = \sum_{k \ge 0} b^k (k + \gamma)^m`, a polynomial in
    :math:`\gamma` whose coefficients are rational in :math:`b`, all positive.

    .. math:: S_m(\gamma) = \sum_{j=0}^{m} \binom{m}{j} \gamma^{m-j} \sum_{k \ge 0} k^j b^k .
    """
    return sp.Add(*[sp.binomial(m, j) * gamma ** (m - j) * power_geometric_sum(j)
                    for j in range(m + 1)])


@cache
def _geometric_sum_function(j: int):
    """:func:`power_geometric_sum` compiled to mpmath in ``(b, 1 - b)``."""
    return sp.lambdify((b, one_minus_b), power_geometric_sum(j).subs(1 - b, one_minus_b),
                       "mpmath")


def power_geometric_sums_numeric(m: int, bb: mpmath.mpf, omb: mpmath.mpf
                                 ) -> list[mpmath.mpf]:
    r"""[:math:`E_0, \dots, E_m`], :math:`E_j = \sum_k k^j b^k`, at the working precision.

    :func:`power_geometric_sum` compiled with :math:`1 - b` as the separate argument
    ``omb`` (from ``expm1``), so that nothing cancels as :math:`b \to 1`.
    """
    return [_geometric_sum_function(j)(bb, omb) for j in range(m + 1)]


class ShiftedPowerSums(Sequence):
    r"""[:math:`S_0(\gamma), \dots, S_m(\gamma)`] from
    :func:`power_geometric_sums_numeric`, each computed when first read (a slope reads
    four of them, a cost two, out of :math:`m + 1`) and kept, at the working precision of
    the call that made the sequence (:func:`shifted_power_sums_numeric`)."""

    __slots__ = ("_e", "_powers", "_prec", "_values")

    def __init__(self, m: int, g: mpmath.mpf, e: list[mpmath.mpf]) -> None:
        self._prec = mpmath.mp.prec
        powers = [mpmath.mpf(1)]
        for _ in range(m):
            powers.append(powers[-1] * g)
        self._powers, self._e = powers, e
        self._values: list[mpmath.mpf | None] = [None] * (m + 1)

    def __len__(self) -> int:
        return len(self._values)

    @overload
    def __getitem__(self, n: int) -> mpmath.mpf: ...

    @overload
    def __getitem__(self, n: slice) -> list[mpmath.mpf]: ...

    def __getitem__(self, n: int | slice) -> mpmath.mpf | list[mpmath.mpf]:
        if isinstance(n, slice):
            return [self[j] for j in range(len(self))[n]]
        n = range(len(self))[n]  # negative indices, and IndexError past the end
        value = self._values[n]
        if value is None:
            powers, e = self._powers, self._e
            with workprec(self._prec):
                value = mpmath.fsum(math.comb(n, j) * powers[n - j] * e[j]
                                    for j in range(n + 1))
            self._values[n] = value
        return value


def shifted_power_sums_numeric(m: int, g: mpmath.mpf, e: list[mpmath.mpf]
                               ) -> ShiftedPowerSums:
    r"""[:math:`S_0(\gamma), \dots, S_m(\gamma)`] at the working precision from
    ``e`` = :func:`power_geometric_sums_numeric`:
    :math:`S_n(\gamma) = \sum_{j \le n} \binom{n}{j} \gamma^{n-j} E_j`, the expansion of
    :func:`shifted_power_sum` (all terms positive; a test holds the two equal at exact
    rational points). A sequence (:class:`ShiftedPowerSums`) whose sums are computed as
    they are read.
    """
    return ShiftedPowerSums(m, g, e)


def shifted_power_sum_remainders(orders: list[int], g: mpmath.mpf, t: mpmath.mpf,
                                 reflected: bool = False) -> dict[int, mpmath.mpf]:
    r"""The relative remainders :math:`R_m` of :math:`S_m(\gamma) = \sum_{k \ge 0}
    e^{-kt} (k + \gamma)^m` (:func:`shifted_power_sum` at :math:`b = e^{-t}`) beyond their
    leading term, at the working precision, for each ``m`` in ``orders``:

    .. math:: S_m(\gamma) = e^{\gamma t} \frac{m!}{t^{m+1}} (1 + R_m), \qquad
              R_m = -\frac{t^{m+1}}{m!} \sum_{n \ge 0}
                    \frac{B_{m+n+1}(\gamma)}{m + n + 1} \frac{(-t)^n}{n!},

    (with ``reflected``, ``g`` is :math:`1 - \gamma`, for :math:`\gamma` closer to 1 than
    the working precision resolves), the expansion of the Lerch sum in Hurwitz zeta functions
    (:func:`dpsym.symbolic.sums._mp_lerch_sum`) with
    :math:`\zeta(-j, \gamma) = -B_{j+1}(\gamma)/(j + 1)` (Bernoulli polynomials),
    convergent for :math:`0 < t < 2\pi` like :math:`(t/2\pi)^n`. As
    :math:`t = \varepsilon \to 0` the sums themselves grow like :math:`t^{-m-1}` and every
    combination of them that cancels to leading order (the :math:`d`-dimensional
    staircase's slope cancels to relative order :math:`\varepsilon^{d+1}`) is written with
    the :math:`R_m` instead, without cancellation; :math:`t` is :math:`\varepsilon`
    itself, exact. A test holds this equal to :func:`shifted_power_sums_numeric`.
    """
    tiny = mpmath.mpf(2) ** (-mpmath.mp.prec - 10)
    # B_j(g) = (-1)^j B_j(1 - g): near g = 1 the polynomial is evaluated at the small
    # 1 - g (exact for g >= 1/2), where it does not cancel
    if reflected:
        flip, x = True, g
    else:
        flip = g > 0.5
        x = 1 - g if flip else g
    out = {}
    values: dict[int, mpmath.mpf] = {}  # B_j(gamma) / j, shared by the orders
    for m in orders:
        total = mpmath.mpf(0)
        factor = mpmath.mpf(1)  # (-t)^n / n!
        n = 0
        while True:
            j = m + n + 1
            if j not in values:
                values[j] = (-1 if flip and j % 2 else 1) * mpmath.bernpoly(j, x) / j
            term = values[j] * factor
            total += term
            if n > 2 and abs(term) <= tiny * max(abs(total), tiny):
                break
            n += 1
            factor *= -t / n
        out[m] = -t ** (m + 1) / math.factorial(m) * total
    return out


__all__ = ["ShiftedPowerSums", "eulerian_numbers", "l1_ball_volume", "l1_sphere_measure",
           "power_geometric_sum", "power_geometric_sums_numeric", "shifted_power_sum",
           "shifted_power_sum_remainders", "shifted_power_sums_numeric"]
