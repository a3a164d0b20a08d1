r"""Interval-arithmetic check of lower bound <= optimal <= upper bounds on a parameter grid.

The truncated Laplacian's and the Laplace mechanism's costs are evaluated from the
engine's closed forms in mpmath's interval context (``mpmath.iv``: every input is an
interval enclosing the exact decimal, every operation rounds outwards), so each cost is
rigorously enclosed. The lower bound is dpsym's printed value, which is rounded *down*
(:mod:`dpsym.bounds`), compared exactly. Then

.. math:: V^{low} \le V^* \le V_{\text{TLap}} \le V_{\text{Lap}}

holds at each grid point when the interval of each upper bound lies above the one below
it; the middle inequality is the optimum's definition (the truncated Laplacian is an
(eps, delta)-DP mechanism, Theorem 1, whose privacy profile is tested elsewhere).
"""

from __future__ import annotations

from contextlib import contextmanager
from fractions import Fraction

import mpmath
import pytest
import sympy as sp

from dpsym.bounds import BOUNDS
from dpsym.mechanisms import Laplace, TruncatedLaplace, UniformMass
from dpsym.symbols import Delta, delta, eps

GRID = [(e, d) for e in ("1e-4", "0.01", "0.5", "2", "10", "40")
        for d in ("1e-12", "1e-6", "0.01", "0.2", "0.45")]
IV_FUNCTIONS = {"exp": mpmath.iv.exp, "log": mpmath.iv.log, "sqrt": mpmath.iv.sqrt}


@contextmanager
def iv_precision(dps: int):
    """Scoped precision of mpmath's interval context (it has no ``workdps``)."""
    saved = mpmath.iv.prec
    mpmath.iv.dps = dps
    try:
        yield
    finally:
        mpmath.iv.prec = saved


def enclose(expr: sp.Expr, values: dict) -> mpmath.ctx_iv.ivmpf:
    symbols = sorted(expr.free_symbols, key=str)
    f = sp.lambdify(symbols, expr, modules=[IV_FUNCTIONS, mpmath.iv])
    return f(*(mpmath.iv.mpf(values[s]) for s in symbols))


@pytest.mark.parametrize("cost", ["amplitude", "power"])
@pytest.mark.parametrize("e, d", GRID)
def test_lower_le_truncated_laplace_le_laplace(e, d, cost):
    with iv_precision(40):
        point = {eps: e, delta: d, Delta: "1"}
        tl = enclose(TruncatedLaplace.formula("cost", cost), point)
        lap = enclose(Laplace.formula("cost", cost), point)
        assert tl.b <= lap.a  # the whole interval of V_TLap below that of V_Lap
        lower = Fraction(BOUNDS["lower-bound"](eps=e, delta=d).value("cost", cost, 25).text)
        assert mpmath.mpf(lower.numerator) / lower.denominator <= tl.a or lower == 0
        # and the (0, delta) upper bound (uniform with a point mass) is above the lower one
        uni = UniformMass(delta=d).value("cost", cost, 25).number
        assert lower <= Fraction(str(uni))


def test_interval_encloses_the_certified_value():
    with iv_precision(40):
        tl = enclose(TruncatedLaplace.formula("cost", "power"),
                     {eps: "0.1", delta: "1e-6", Delta: "1"})
    value = TruncatedLaplace(eps="0.1", delta="1e-6").value("cost", "power", 35).number
    assert tl.a <= value <= tl.b and tl.delta < mpmath.mpf("1e-30") * value
