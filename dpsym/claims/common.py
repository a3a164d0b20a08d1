r"""Helpers of the claim checks, and the checks that two source texts share.

The shared checks return a :class:`~dpsym.claims.registry.Verdict` and are registered by
each source module through a check of its own (so every registered check is written in
the module of its source).
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from fractions import Fraction

import mpmath
import sympy as sp

from dpsym.claims.registry import Verdict
from dpsym.core.params import parse_number
from dpsym.gaussian.calibration import classic_sigma_mp, profile_mp
from dpsym.mechanisms import DiscreteUniform
from dpsym.mechanisms.textbook import hockey_stick, sup_over_sets
from dpsym.precision import workdps
from dpsym.symbolic.numerics import to_mpf
from dpsym.symbolic.tidy import simplified
from dpsym.symbols import eps


def exact(value: object) -> sp.Rational:
    """``value`` (a decimal string or a number) as an exact sympy rational."""
    return sp.Rational(parse_number(value, "value"))


def as_mpf(value: object) -> mpmath.mpf:
    """An exact number (:func:`dpsym.symbolic.numerics.to_mpf`) or an mpf, as an mpf at the
    working precision."""
    return value if isinstance(value, mpmath.mpf) else to_mpf(value)


def fmt(x: object) -> str:
    """A number for a verdict's detail: 12 significant digits (strings, fractions as is)."""
    if isinstance(x, str):
        return x
    if isinstance(x, Fraction):
        return str(x)
    return mpmath.nstr(mpmath.mpf(x), 12)


def same(lhs: sp.Expr, rhs: sp.Expr, points: Sequence[dict], tol: str = "1e-20") -> bool:
    """``lhs == rhs`` at every point of ``points`` (to ``tol`` relative, at 40 digits): an
    identity of analytic functions checked at points in general position (a difference at
    any point decides ``False``)."""
    with workdps(40):
        for pt in points:
            try:
                lv, rv = to_mpf(sp.sympify(lhs).subs(pt)), to_mpf(sp.sympify(rhs).subs(pt))
            except (TypeError, ValueError, ZeroDivisionError):
                return False
            if not abs(lv - rv) < mpmath.mpf(tol) * (1 + abs(rv)):
                return False
    return True


@functools.cache
def exposure_limit() -> sp.Expr:
    """The limit of the exposure 1 - (1 - 1/n)^n (at delta = 1/n, one record in n released)
    as n -> oo (sympy; computed once: the checks that use it and their mutants share it)."""
    n = sp.Symbol("n", integer=True, positive=True)
    return sp.limit(1 - (1 - 1 / n) ** n, n, sp.oo)


#: The placeholder of a relation's computed side: ``Ge(V, bound)`` reads "the computed value
#: is at least ``bound``" (:func:`rel_holds` substitutes the value).
V = sp.Symbol("_V")


def rel_holds(rel: sp.Basic, value: object, point: dict | None = None,
              tol: str = "1e-25") -> bool:
    """The relation ``rel`` with :data:`V` replaced by ``value`` (an mpf, a sympy number or
    expression) and the symbols of ``point`` substituted, decided numerically at the
    working precision (an equality up to ``tol`` relative)."""
    point = point or {}
    val = value if isinstance(value, sp.Basic) else sp.Float(mpmath.nstr(mpmath.mpf(value),
                                                                         40), 40)
    lhs, rhs = (sp.sympify(side).subs({V: val, **point}) for side in (rel.lhs, rel.rhs))
    with workdps(40):
        lv, rv = to_mpf(lhs), to_mpf(rhs)
        t = mpmath.mpf(tol) * (1 + abs(rv))
        if isinstance(rel, sp.Eq):
            return bool(abs(lv - rv) <= t)
        if isinstance(rel, sp.GreaterThan):
            return bool(lv >= rv - t)
        if isinstance(rel, sp.StrictGreaterThan):
            return bool(lv > rv + t)
        if isinstance(rel, sp.LessThan):
            return bool(lv <= rv + t)
        if isinstance(rel, sp.StrictLessThan):
            return bool(lv < rv - t)
    raise TypeError(f"not a relation: {rel}")


def cost_value(mech: type, quantity: str = "cost", cost: str = "amplitude", digits: int = 25,
               **params: object) -> mpmath.mpf:
    """The certified ``quantity`` of ``mech(**params)`` for ``cost``, as an mpf."""
    return mech(**params).value(quantity, cost, digits=digits).number


# ----------------------------------------------------------------------------- shared checks

def event_definition() -> Verdict:
    r"""(eps, delta)-DP through the hockey-stick divergence equals the definition over
    events (001 notes, 003 Definition 1)."""
    p = {i: Fraction(1, 8) for i in range(-4, 4)}
    q = {i + 1: Fraction(1, 8) for i in range(-4, 4)}
    rows, ok = [], True
    r = {i: Fraction(3 - abs(i), 9) for i in range(-2, 3)}
    r_shift = {i + 1: v for i, v in r.items()}
    for e in (0, sp.Rational(1, 2)):
        for a, c, name in ((p, q, "uniform"), (r, r_shift, "triangular")):
            hs, sets = hockey_stick(a, c, e), sup_over_sets(a, c, e)
            ok &= abs(to_mpf(hs) - as_mpf(sets)) < mpmath.mpf("1e-12")
            rows.append(f"{name}, eps'={e}: sum (P - e^eps Q)_+ = {sp.N(hs, 10)}, max over "
                        f"events = {fmt(sets)}")
    eng = DiscreteUniform(delta="0.125", Delta=1).privacy_profile("0").number
    ok &= abs(eng - mpmath.mpf(1) / 8) < mpmath.mpf("1e-12")
    rows.append(f"engine (0, 1/8) profile of the discrete uniform: {fmt(eng)}")
    return Verdict(ok, detail="; ".join(rows))


#: The grid of delta of :func:`classic_gaussian_ratios`.
CLASSIC_DELTAS = ("1e-6", "0.01", "0.3", "0.5", "0.99")


def classic_gaussian_ratios(eps_grid: tuple[str, ...]
                            ) -> tuple[tuple[mpmath.mpf, ...], tuple[str, ...]]:
    r"""The classic calibration (:data:`dpsym.gaussian.calibration.CLASSIC_SIGMA`) against
    the exact Gaussian profile: :math:`\delta(\varepsilon; \sigma)/\delta` at every point of
    ``eps_grid`` x :data:`CLASSIC_DELTAS` (mpmath, 30 digits), with the points."""
    vals, points = [], []
    with workdps(30):
        for e in eps_grid:
            for d in CLASSIC_DELTAS:
                ee, dd = mpmath.mpf(e), mpmath.mpf(d)
                vals.append(profile_mp(ee, classic_sigma_mp(ee, dd)) / dd)
                points.append(f"eps = {e}, delta = {d}")
    return tuple(vals), tuple(points)


# ----------------------------------------------------------------------------- sensitivities

_QUERIES = sp.Symbol("k", integer=True, positive=True)
_NN = sp.Symbol("n", integer=True, positive=True)
_JJ = sp.Symbol("j", integer=True, positive=True)
_IND = sp.IndexedBase("I")  # a record's indicators (0 or 1)


def count_change(queries: sp.Expr) -> tuple[sp.Expr, str]:
    r"""The :math:`\ell^1` sensitivity of ``queries`` counting queries, derived: a count is
    :math:`\sum_{j \le n} I_j` over the records (:math:`I_j \in \{0, 1\}` the record's
    property); adding a record :math:`n + 1` adds the one-term sum :math:`\sum_{j=n+1}^{n+1}
    I_j` (sympy joins the ranges), so each count moves by :math:`I_{n+1} \in \{0, 1\}` and the
    vector by :math:`\sum_{q} I^{(q)}_{n+1} \le` ``queries``, attained by a record with every
    property (add/remove neighbours; replacing a record moves each count by
    :math:`I^{\prime} - I \in \{-1, 0, 1\}`: the same maximum)."""
    step = _count_step()
    q = sp.Symbol("q", integer=True, positive=True)
    worst = sp.summation(sp.Integer(1), (q, 1, queries))  # every indicator 1
    return worst if step else sp.nan, (f"a record moves each count by its indicator "
                                       f"(sum identity: {step}); the l1 change is at most "
                                       f"{worst}, attained")


@functools.cache
def _count_step() -> bool:
    r"""Whether adding record :math:`n + 1` adds :math:`I_{n+1}` to a count: the sum identity
    :math:`\sum_{j \le n} I_j + \sum_{j=n+1}^{n+1} I_j = \sum_{j \le n+1} I_j` (sympy;
    decided once)."""
    before, after = sp.Sum(_IND[_JJ], (_JJ, 1, _NN)), sp.Sum(_IND[_JJ], (_JJ, 1, _NN + 1))
    return simplified(before + sp.Sum(_IND[_JJ], (_JJ, _NN + 1, _NN + 1)) - after) == 0


def laplace_private(scale: sp.Expr, sens: sp.Expr) -> tuple[bool, str]:
    """Lap(scale) noise is eps-DP for the sensitivity ``sens``: the largest privacy loss
    sens/scale (:func:`~.common.laplace_loss_sup`) is proven <= eps."""
    if sign_of(sp.sympify(scale), [eps, _QUERIES]) != "positive":
        return False, f"Lap({scale}) is not a law (the scale is not proven positive)"
    loss = simplified(laplace_sup_at(sp.sympify(scale), sp.sympify(sens)))
    sign = sign_of(eps - loss, [eps, _QUERIES])
    return sign in ("zero", "positive"), f"largest privacy loss of Lap({scale}) at shift " \
        f"<= {sens}: {loss}; eps - loss: {sign}"


def histogram_change(neighbour: str) -> int:
    """The largest l1 change of a histogram when one record is added/removed (its bucket
    a: e_a) or replaced (a -> c: e_c - e_a), by the two cases a = c and a != c of the
    exact count vectors (every number of buckets >= 2 behaves like three)."""
    def change(a: int, c: int | None) -> int:
        vec = [(1 if c == m else 0) - (1 if a == m else 0) for m in range(3)]
        return sum(abs(v) for v in vec)
    if neighbour == "add/remove":
        return change(0, None)
    return max(change(0, 0), change(0, 1))


# ----------------------------------------------------------------------------- Laplace lemma

_SCALE, _SHIFT, _T = sp.symbols("s d t", positive=True)
_XR = sp.Symbol("x", real=True)


@functools.cache
def laplace_loss_sup() -> tuple[sp.Expr, str]:
    r"""The largest privacy loss :math:`\sup_x \log f(x)/f(x + d)` of the Laplace density
    :math:`f(x) \propto e^{-|x|/s}` for a shift :math:`d > 0` (by symmetry :math:`-d` gives
    the same), derived piece by piece: the log-ratio :math:`(|x + d| - |x|)/s` on
    :math:`x = -d - t`, :math:`x = -d/(1 + t)` and :math:`x = t` (:math:`t > 0` covers each
    piece; sympy resolves the absolute values there), each piece's supremum from its
    monotonicity (the sign of its derivative in :math:`t`, certified). Returns
    (:math:`d/s`, the derivation in words)."""
    loss = (sp.Abs(_XR + _SHIFT) - sp.Abs(_XR)) / _SCALE
    rows, sups = [], []
    for name, at in (("x <= -d", -_SHIFT - _T), ("-d <= x <= 0", -_SHIFT / (1 + _T)),
                     ("x >= 0", _T)):
        piece = simplified(loss.subs(_XR, at))
        slope = sign_of(sp.diff(piece, _T), (_SCALE, _SHIFT, _T))
        if slope == "zero":
            top = piece
        elif slope == "positive":
            top = sp.limit(piece, _T, sp.oo)
        elif slope == "negative":
            top = sp.limit(piece, _T, 0, "+")
        else:
            raise ValueError(f"no proven monotonicity on {name}: {piece}")
        sups.append(simplified(top))
        rows.append(f"{name}: {piece} (sup {sups[-1]})")
    best = sups[0]
    for cand in sups[1:]:
        if sign_of(cand - best, (_SCALE, _SHIFT)) in ("positive", "zero"):
            best = cand
    if any(sign_of(best - other, (_SCALE, _SHIFT)) not in ("positive", "zero")
           for other in sups):
        raise ValueError(f"no proven maximum among {sups}")
    return best, "log f(x)/f(x + d) = (|x + d| - |x|)/s: " + "; ".join(rows)


def laplace_sup_at(scale: sp.Expr, sensitivity: sp.Expr) -> sp.Expr:
    """The largest privacy loss of ``Lap(scale)`` noise over shifts ``|d| <= sensitivity``
    (:func:`laplace_loss_sup`, increasing in d: its value at d = sensitivity)."""
    best, _ = laplace_loss_sup()
    return best.subs({_SCALE: scale, _SHIFT: sensitivity})


def sign_of(expr: sp.Expr, positive: Sequence[sp.Symbol]) -> str | None:
    """The proven sign of ``expr`` for positive ``positive`` symbols: ``"zero"``,
    ``"positive"`` or ``"negative"`` (sympy's assumptions, then a polynomial certificate in
    the symbols), else None. Decided once per (expression, symbols): the checks of a claim
    and of its mutants ask the same questions."""
    return _sign_of(sp.sympify(expr), tuple(positive))


@functools.lru_cache(maxsize=4096)
def _sign_of(expr: sp.Expr, positive: tuple[sp.Symbol, ...]) -> str | None:
    """:func:`sign_of` with the symbols as a tuple."""
    expr = simplified(expr)
    if expr == 0:
        return "zero"
    if expr.is_positive:
        return "positive"
    if expr.is_negative:
        return "negative"
    num, den = sp.fraction(sp.cancel(sp.together(expr)))
    signs = []
    for part in (num, den):
        try:
            coeffs = sp.Poly(sp.expand(part), *positive).coeffs()
        except sp.PolynomialError:
            return None
        if not all(c.is_number for c in coeffs):
            return None
        if all(c >= 0 for c in coeffs):
            signs.append(1)
        elif all(c <= 0 for c in coeffs):
            signs.append(-1)
        else:
            return None
    return "positive" if signs[0] * signs[1] > 0 else "negative"


__all__ = [
    "CLASSIC_DELTAS",
    "V",
    "as_mpf",
    "classic_gaussian_ratios",
    "cost_value",
    "count_change",
    "event_definition",
    "exact",
    "exposure_limit",
    "fmt",
    "histogram_change",
    "laplace_loss_sup",
    "laplace_private",
    "laplace_sup_at",
    "rel_holds",
    "same",
    "sign_of",
]
