r"""Every series request: a finite expansion the value path confirms, or a clear refusal.

For every mechanism and bound, every quantity, the costs ``amplitude``, ``power``,
``moment:5/2`` and ``moment:1/2`` and the four regimes, ``series`` at order
:data:`ORDER` either raises a :class:`~dpsym.errors.DpsymError` (a refusal, one line) or
returns a sum of finite terms followed by :math:`O(t^{\mathrm{ORDER}})` -- no ``nan``,
``zoo``, ``oo``, ``AccumBounds``, unevaluated integral, limit or branch. Its terms are then
checked against the certified value path (``cls(...).value(...)``) at a small value of the
expansion variable :math:`t` (:data:`POINTS`): with :math:`S_K` the series to order
:math:`K`, :math:`|V - S_K| \le 4 |S_{K+2} - S_K|` (the omitted terms, from the series two
orders further), or :math:`|V - S_K|` negligible when the series stops. A wrong term of
order below :math:`K` gives an error of its own size, far above that bound.
"""

from __future__ import annotations

from fractions import Fraction

import mpmath
import pytest
import sympy as sp

from dpsym.bounds import BOUNDS
from dpsym.bounds.real import nu_of, theta
from dpsym.errors import DomainError, DpsymError, UnsupportedError
from dpsym.mechanisms import MECHANISMS
from dpsym.symbolic.regimes import REGIMES
from dpsym.symbols import Delta, b, c, delta, eps

ENTRIES = {**MECHANISMS, **BOUNDS}
COSTS = ("amplitude", "power", "moment:5/2", "moment:1/2")
ORDER = 2
#: Digits of the value path.
DIGITS = 30

#: The parameters at which each regime is checked: the expansion variable small, the
#: others fixed (delta = c eps for eps=delta->0). eps->oo is checked at eps = 14, b = e^-14.
POINTS = {
    "eps->0": {"eps": Fraction(1, 10**4), "delta": Fraction(7, 100)},
    "eps->oo": {"eps": Fraction(14), "delta": Fraction(7, 100)},
    "delta->0": {"eps": Fraction(1, 2), "delta": Fraction(1, 10**6)},
    "eps=delta->0": {"eps": Fraction(1, 10**4), "delta": Fraction(1, 2 * 10**4)},
}
C_VALUE = Fraction(1, 2)

#: Requests whose value path is too slow at the check point to run here, and why.
SLOW_VALUES: dict[tuple[str, str], str] = {}

BAD = (sp.nan, sp.zoo, sp.oo, -sp.oo)
BAD_TYPES = (sp.AccumBounds, sp.Integral, sp.Limit, sp.Piecewise, sp.Sum)


def params_at(cls: type, regime: str) -> dict[str, Fraction]:
    """The declared parameters of ``cls`` at the check point of ``regime``."""
    out = {}
    for prm in cls.params:
        if prm.name in ("eps", "delta"):
            out[prm.name] = POINTS[regime][prm.name]
        elif prm.name == "Delta":
            out["Delta"] = Fraction(1) if cls.lattice else Fraction(3, 2)
    return out


def substitution(cls: type, regime: str, values: dict[str, Fraction]) -> dict:
    """The series' symbols at the check point (theta: the lower bound's rounding gap)."""
    e = sp.Rational(values.get("eps", POINTS[regime]["eps"]))
    subs = {eps: e, b: sp.exp(-e), delta: sp.Rational(POINTS[regime]["delta"]),
            c: sp.Rational(C_VALUE), Delta: sp.Rational(values.get("Delta", 1))}
    if cls.name == "lower-bound":
        with mpmath.workdps(60):
            ev = mpmath.mpf(e.p) / e.q
            dv = mpmath.mpf(subs[delta].p) / subs[delta].q
            nu = nu_of(ev, dv)
            subs[theta] = sp.Float(mpmath.ceil(nu) - nu, 50)
    return subs


def check_finite(expr: sp.Expr, t: sp.Symbol, order: int) -> None:
    assert expr.getO() == sp.Order(t**order, t), expr
    main = expr.removeO()
    assert not main.has(sp.Order), expr
    assert not any(main.has(x) for x in BAD), expr
    assert not any(main.atoms(kind) for kind in BAD_TYPES), expr


#: Nodes that bind a variable: there ``subs`` (which leaves bound variables alone) is needed.
BINDERS = (sp.Sum, sp.Product, sp.Integral, sp.Lambda, sp.Subs, sp.Derivative)


def numeric(expr: sp.Expr, subs: dict) -> mpmath.mpf:
    # exact values replaced in the tree (the same expression as ``subs`` gives where no
    # variable is bound, in a fraction of its time); a float (theta) by ``subs``, whose
    # products of floats xreplace evaluates in another order
    exact = not expr.has(*BINDERS) and not any(sp.sympify(v).has(sp.Float)
                                               for v in subs.values())
    at = expr.xreplace(subs) if exact else expr.subs(subs)
    with mpmath.workdps(50):
        value = sp.N(at, 50)
        assert value.is_number and value.is_finite, (expr, value)
        return mpmath.mpf(sp.re(value))


CASES = [(name, q, regime) for name, cls in ENTRIES.items() for q in cls.quantities()
         for regime in REGIMES]


@pytest.mark.parametrize(("name", "quantity", "regime"), CASES)
def test_series_is_finite_and_confirmed_or_refused(name, quantity, regime):
    cls = ENTRIES[name]
    t = REGIMES[regime].variable
    for cost in COSTS:
        try:
            low = cls.series(quantity, cost, regime, ORDER)
        except (UnsupportedError, DomainError) as exc:
            assert str(exc).strip(), (name, quantity, cost, regime)
            continue
        high = cls.series(quantity, cost, regime, ORDER + 2)
        check_finite(low, t, ORDER)
        check_finite(high, t, ORDER + 2)
        if (name, regime) in SLOW_VALUES:
            continue
        values = params_at(cls, regime)
        try:
            exact = cls(**values).value(quantity, cost, DIGITS).number
        except DpsymError:  # the check point is outside the entry's domain (gaussian, eps > 1)
            continue
        subs = substitution(cls, regime, values)
        s_low, s_high = numeric(low.removeO(), subs), numeric(high.removeO(), subs)
        error, omitted = abs(exact - s_low), abs(s_high - s_low)
        scale = max(abs(exact), abs(s_low))
        tv = numeric(t, subs)  # a remainder beyond the terms computed, where they vanish
        slack = scale * (10 * tv ** (ORDER + 2) + mpmath.mpf(10) ** (4 - DIGITS))
        assert error <= 4 * omitted + slack, (name, quantity, cost, regime, exact, s_low, s_high)


def test_the_reproducers_of_issue_20():
    """The non-integer moments of the truncated Laplacian as eps -> 0 (formerly ``nan``):
    the limit is (Delta/(2 delta))^p / (p + 1)."""
    from dpsym.mechanisms import TruncatedLaplace

    for p in (sp.Rational(5, 2), sp.Rational(1, 2)):
        s = TruncatedLaplace.series("cost", f"moment:{p}", "eps->0", 4)
        lead = s.removeO().subs(eps, 0)
        assert sp.simplify(lead - (Delta / (2 * delta)) ** p / (p + 1)) == 0
    for name in ("discrete-uniform", "discrete-uniform-md"):
        for regime in ("delta->0", "eps=delta->0"):
            with pytest.raises(UnsupportedError, match="piecewise constant"):
                ENTRIES[name].series("n", "amplitude", regime, 3)
