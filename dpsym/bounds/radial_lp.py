r"""Optimal radial noise in :math:`\mathbb{R}^d` by linear programming (evidence for the
staircase conjecture of slides 000, Part Two).

Among densities :math:`f(x) = g(\|x\|_1)`, the :math:`\varepsilon`-DP constraint
:math:`f(x) \le e^{\varepsilon} f(x + t)` for all :math:`\|t\|_1 \le \Delta` is one-dimensional:
as :math:`t` ranges over the :math:`\ell^1` ball of radius :math:`\Delta`, :math:`\|x + t\|_1`
ranges over :math:`[\max(0, r - \Delta), r + \Delta]` (:math:`r = \|x\|_1`), so the constraint
is :math:`g(r) \le e^{\varepsilon} g(s)` for all :math:`r, s \ge 0` with
:math:`|r - s| \le \Delta`. The problem

.. math:: \min_g \int_0^\infty r\, g(r)\, s_d(r)\,dr \quad\text{s.t.}\quad
          \int_0^\infty g(r)\, s_d(r)\,dr = 1,\ g \ge 0,\
          g(r) \le e^{\varepsilon} g(s)\ (|r - s| \le \Delta)

(:math:`s_d(r) = 2^d r^{d-1}/(d-1)!`) is solved on cells of width :math:`h = \Delta/n`:
:math:`g` is constant on :math:`[ih, (i+1)h)`; two cells contain points at distance at most
:math:`\Delta` exactly when :math:`|i - j| \le n` (half-open cells), so the discrete problem
is the continuous one restricted to such :math:`g` (its optimum is an upper bound on the
radial optimum, attained by the staircase when :math:`\gamma^* n` is an integer). The
support is truncated after ``periods`` periods. Variables are scaled by
:math:`e^{-\varepsilon i/n}` so that the LP is well conditioned.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np


@dataclass(frozen=True)
class RadialLPResult:
    """The LP optimum: its value, the cell profile (normalised so that g(0) = 1), the grid."""

    value: float
    profile: np.ndarray
    cell_width: float
    status: str


def radial_lp(eps: float, d: int, n: int = 40, periods: int | None = None,
              Delta: float = 1.0) -> RadialLPResult:
    r"""Minimal :math:`\mathbb{E}\|X\|_1` over radial :math:`\varepsilon`-DP densities that are
    constant on cells of width :math:`\Delta/n` (scipy ``linprog``, HiGHS).

    Parameters
    ----------
    eps : float
        Privacy parameter.
    d : int
        Dimension.
    n : int
        Cells per period :math:`\Delta`.
    periods : int, optional
        Periods kept (default: enough for the tail :math:`e^{-\varepsilon K} K^{d}` to be
        below :math:`10^{-12}`).
    Delta : float
        The :math:`\ell^1` sensitivity.
    """
    # scipy.optimize takes 0.5 s to import: loaded only when an LP is solved
    from scipy.optimize import linprog
    from scipy.sparse import coo_matrix

    if periods is None:
        periods = math.ceil((28 + d * math.log(1 + 30 * d / eps)) / eps) + 2
    cells = n * periods
    h = Delta / n
    edges = h * np.arange(cells + 1)
    scale = np.exp(-eps * np.arange(cells) / n)  # g_i = scale_i * y_i
    coef = 2.0**d / math.factorial(d)  # ball volume (2r)^d / d!
    mass = coef * (edges[1:] ** d - edges[:-1] ** d) * scale
    first = coef * d / (d + 1) * (edges[1:] ** (d + 1) - edges[:-1] ** (d + 1)) * scale
    rows, cols, vals = [], [], []
    row = 0
    for shift in range(1, n + 1):
        i = np.arange(cells - shift)
        for a, c in ((i, i + shift), (i + shift, i)):
            # g_a <= e^eps g_c  <=>  s_a y_a - e^eps s_c y_c <= 0, divided by s_a
            ratio = np.exp(eps) * scale[c] / scale[a]
            r = row + np.arange(len(i))
            rows += [r, r]
            cols += [a, c]
            vals += [np.ones(len(i)), -ratio]
            row += len(i)
    A = coo_matrix((np.concatenate(vals), (np.concatenate(rows), np.concatenate(cols))),
                   shape=(row, cells)).tocsr()
    res = linprog(first, A_ub=A, b_ub=np.zeros(row), A_eq=mass[None, :], b_eq=[1.0],
                  bounds=(0, None), method="highs")
    if res.status != 0:
        raise RuntimeError(f"radial LP failed: {res.message}")
    g = res.x * scale
    return RadialLPResult(float(res.fun), g / g[0], h, res.message)


__all__ = ["RadialLPResult", "radial_lp"]
