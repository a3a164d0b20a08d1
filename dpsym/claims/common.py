r"""Helpers of the claim checks, and the checks that two source texts share.

The shared checks return a :class:`~dpsym.claims.registry.Verdict` and are registered by
each source module through a check of its own (so every registered check is written in
the module of its source).
"""

from __future__ import annotations

import functools
import itertools
from collections.abc import Sequence
from fractions import Fraction

import mpmath
import sympy as sp

from ..gaussian_calibration import profile_mp
from ..mechanisms import DiscreteUniform
from ..numerics import to_mpf
from ..params import parse_number
from ..precision import workdps
from ..textbook import hockey_stick, sup_over_sets
from .registry import Verdict


def exact(value: object) -> sp.Rational:
    """``value`` (a decimal string or a number) as an exact sympy rational."""
    return sp.Rational(parse_number(value, "value"))


def as_mpf(value: object) -> mpmath.mpf:
    """An exact number (:func:`dpsym.numerics.to_mpf`) or an mpf, as an mpf at the
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

def count_sensitivity() -> Verdict:
    """A count query has add/remove sensitivity 1 (000 slides, 004 notes)."""
    worst = 0
    for n in range(1, 6):
        for data in itertools.product((0, 1), repeat=n):
            for i in range(n):  # remove entry i
                worst = max(worst, abs(sum(data) - sum(data[:i] + data[i + 1:])))
    return Verdict(worst == 1, detail=f"max |q(D1) - q(D2)| over add/remove neighbours "
                   f"(n <= 5, binary property) = {worst}")


def histogram_sensitivity() -> Verdict:
    """The l1 sensitivity of a histogram: 1 (add/remove), 2 (replace) (000, 004)."""
    k, worst_ar, worst_rep = 3, 0, 0
    for data in itertools.product(range(k), repeat=3):
        hist = [data.count(c) for c in range(k)]
        for i in range(3):
            rem = list(data[:i] + data[i + 1:])
            h2 = [rem.count(c) for c in range(k)]
            worst_ar = max(worst_ar, sum(abs(a - c) for a, c in zip(hist, h2, strict=False)))
            for v in range(k):
                rep = list(data)
                rep[i] = v
                h3 = [rep.count(c) for c in range(k)]
                worst_rep = max(worst_rep, sum(abs(a - c) for a, c in zip(hist, h3, strict=False)))
    return Verdict(worst_ar == 1, detail=f"l1 sensitivity of a {k}-bucket histogram: "
                   f"add/remove {worst_ar}, replace {worst_rep}")


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


def classic_gaussian(constant: str, eps_grid: tuple[str, ...]) -> Verdict:
    r"""The printed classic calibration :math:`\sigma = \sqrt{2\log(c/\delta)}\,\Delta/
    \varepsilon` against the exact Gaussian profile (001 notes: :math:`c = 1`; 003 paper:
    :math:`c = 1.25`); the corrected statement restricts to :math:`\delta \le 1/2`."""
    rows, printed_ok, corrected_ok = [], True, True
    grid_d = ("1e-6", "0.01", "0.3", "0.5", "0.99")
    with workdps(30):
        const = mpmath.mpf(constant)
        for e in eps_grid:
            for d in grid_d:
                ee, dd = mpmath.mpf(e), mpmath.mpf(d)
                sigma = mpmath.sqrt(2 * mpmath.log(const / dd)) / ee
                prof = profile_mp(ee, sigma)
                good = prof <= dd
                printed_ok &= good
                if dd <= mpmath.mpf("0.5"):
                    corrected_ok &= good
                if not good:
                    rows.append(f"eps={e}, delta={d}: delta(eps; sigma) = {fmt(prof)}")
    return Verdict(printed_ok, corrected_ok,
                   ("violations: " + "; ".join(rows)) if rows else
                   f"profile <= delta on eps in {eps_grid} x delta in {grid_d}")




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
        piece = sp.simplify(loss.subs(_XR, at))
        slope = sign_of(sp.diff(piece, _T), (_SCALE, _SHIFT, _T))
        if slope == "zero":
            top = piece
        elif slope == "positive":
            top = sp.limit(piece, _T, sp.oo)
        elif slope == "negative":
            top = sp.limit(piece, _T, 0, "+")
        else:
            raise ValueError(f"no proven monotonicity on {name}: {piece}")
        sups.append(sp.simplify(top))
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
    the symbols), else None."""
    expr = sp.simplify(expr)
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
    "V",
    "as_mpf",
    "classic_gaussian",
    "cost_value",
    "count_sensitivity",
    "event_definition",
    "exact",
    "fmt",
    "histogram_sensitivity",
    "laplace_loss_sup",
    "laplace_sup_at",
    "rel_holds",
    "same",
    "sign_of",
]
