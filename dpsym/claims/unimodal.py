r"""The poster's proof (source 002) for *every* symmetric law with a density nonincreasing
on :math:`[0, \infty)` and an atom at 0, by exact reductions decided in sympy.

* **The condition** (:func:`condition_reduction`). For such a law, :math:`f(x) = \varphi(|x|)`
  with :math:`\varphi` nonincreasing; let :math:`P_d` be the law of :math:`X + d` (density
  :math:`f(x - d)`; the poster's :math:`P(S + d)` is :math:`P_{-d}(S)`, and :math:`d` ranges
  over :math:`[-\Delta, \Delta]`, so the two suprema agree). For :math:`0 < d \le \Delta`:
  :math:`|x| < |x - d|` iff :math:`x < d/2` (:math:`(x - d)^2 - x^2 = d(d - 2x)`), so
  :math:`f - f(\cdot - d) \ge 0` on :math:`H = (-\infty, d/2)` and :math:`\le 0` off it (the
  atom at 0 lies in :math:`H`, the shifted atom at :math:`d` off it). For any event
  :math:`S`, split by :math:`H` into cells, :math:`P(S) - P_d(S) \le P(H) - P_d(H)` is a
  nonnegative combination of cell integrals of one sign (:func:`~.generic.cone_certificate`),
  and :math:`P(H) - P_d(H) = P(X < d/2) - P(X < -d/2) = P([-d/2, d/2))`, nested in
  :math:`d`: the supremum over :math:`|d| \le \Delta` (negative :math:`d` by the symmetry
  :math:`X \mapsto -X`) is :math:`P([-\Delta/2, \Delta/2))`, attained at :math:`d = \Delta`.
* **The optimum** (:func:`duality_certificate`). Every law of the class is a mixture of
  the uniform laws :math:`U_a` on :math:`[-a, a]` (:math:`U_0` the atom): with the mixing
  measure :math:`\pi(da) = -2a\,\varphi^{\prime}(a)\,da` (nonnegative:
  :math:`\varphi^{\prime} \le 0`),
  :math:`\int_x^R \frac{1}{2a}(-2a\varphi^{\prime}(a))\,da = \varphi(x) - \varphi(R) \to \varphi(x)`
  (sympy). The cost :math:`E|X|^p` and the central mass are linear in :math:`\pi`, with
  :math:`c(a) = a^p/(p+1)` and :math:`m(a) = \min(1, \Delta/(2a))` on :math:`U_a`. Weak
  duality: if :math:`c(a) + \lambda m(a) \ge \nu` for every :math:`a \ge 0`
  (:math:`\lambda \ge 0`), every law with central mass :math:`\le \delta` costs at least
  :math:`\nu - \lambda\delta`. The certificate :math:`(\lambda, \nu)` is in closed form in
  each regime; feasibility is decided symbolically (on :math:`[0, \Delta/2]` by
  :math:`\lambda - \nu \ge 0`, on :math:`[\Delta/2, \infty)` by writing :math:`a(c(a) +
  \lambda\Delta/(2a) - \nu)` as :math:`(a - L)^2` times a polynomial with positive
  coefficients), and :math:`\nu - \lambda\delta` is the engine's cost of :math:`P_{\alpha^*}`.
"""

from __future__ import annotations

import functools

import sympy as sp

from dpsym.claims.decide import sign_certificate, vanishes
from dpsym.claims.generic import cone_certificate
from dpsym.symbolic.tidy import simplified
from dpsym.symbols import Delta, delta

_a, _x, _d, _t, _R = sp.symbols("a x d t R", positive=True)
_beta = sp.Symbol("beta", positive=True)


def condition_reduction(half_width: sp.Expr = Delta / 2) -> tuple[bool, str]:
    """The condition's reduction for every law of the class (see the module); the central
    interval of the printed condition must be :math:`[-w, w]` with ``half_width`` w = the
    derived d/2 at the supremum d = Delta."""
    rows, ok = [], True
    # the sign pattern: |x| < |x - d| on x = d/2 - t, > on x = d/2 + t (t > 0)
    gap = sp.expand((_x - _d) ** 2 - _x**2)
    left = sign_certificate(gap.subs(_x, _d / 2 - _t), [_d, _t])
    right = sign_certificate(gap.subs(_x, _d / 2 + _t), [_d, _t])
    ok &= gap == sp.expand(_d * (_d - 2 * _x)) and left == "positive" and right == "negative"
    rows.append(f"(x - d)^2 - x^2 = {sp.factor(gap)}: {left} for x < d/2, {right} for x > d/2"
                f" (so f(x) >= f(x - d) on H = (-oo, d/2), <= off it)")
    # the supremum over events: cells S&H, S-H, H-S, rest; I_c = integral of f - f(. - d)
    cells = sp.symbols("I_SH I_SnotH I_HnotS I_rest", real=True)
    pos = {"f - f_d >= 0 on S&H": (cells[0], cells[0]), "on H-S": (cells[2], cells[2]),
           "f_d - f >= 0 on S-H": (-cells[1], cells[1]), "on the rest": (-cells[3], cells[3])}
    # P(H) - P_d(H) - (P(S) - P_d(S)) = I_SH + I_HnotS - I_SH - I_SnotH
    diff = (cells[0] + cells[2]) - (cells[0] + cells[1])
    good, cert = cone_certificate(diff, list(cells), pos, [])
    ok &= good
    rows.append(f"P(H) - P_d(H) - (P(S) - P_d(S)) = {cert}")
    # P_d(H) = P(X + d < d/2) = P(X < -d/2)
    shift_ok = vanishes((_d / 2 - _d) - (-_d / 2))
    derived = (_d / 2).subs(_d, Delta)
    width_ok = vanishes(sp.sympify(half_width) - derived)
    ok &= shift_ok and width_ok
    rows.append(f"the central interval [-w, w]: w = {derived} (printed {half_width}): {width_ok}")
    rows.append("P(H) - P_d(H) = P(X < d/2) - P(X < -d/2) = P([-d/2, d/2)): the interval "
                f"grows with d, so the sup over 0 < d <= Delta is at d = Delta: {shift_ok}")
    return bool(ok), "; ".join(rows)


@functools.cache
def _component(power: int) -> tuple[sp.Expr, sp.Expr, sp.Expr, bool]:
    """(c(a), m(a) for a <= Delta/2, m(a) for a >= Delta/2) of U_a, integrated by sympy
    (by its rules, manualintegrate: the default methods' results in a fifth of the time),
    and the mixture identity (the density of the mixture is phi); computed once."""
    cost = simplified(2 * sp.integrate(_x**power / (2 * _a), (_x, 0, _a), manual=True))
    inner = simplified(2 * sp.integrate(1 / (2 * _a), (_x, 0, _a), manual=True))
    outer = simplified(2 * sp.integrate(1 / (2 * _a), (_x, 0, Delta / 2), manual=True))
    phi = sp.Function("phi")
    mix = sp.integrate(-sp.diff(phi(_a), _a) / (2 * _a) * 2 * _a, (_a, _x, _R),
                       manual=True)
    return cost, inner, outer, vanishes(mix - (phi(_x) - phi(_R)))


#: The dual certificates (lambda, nu, the tangency point L) per cost and regime, with the
#: regime's parametrisation by beta > 0.
CERTIFICATES = {
    ("amplitude", "low"): (Delta / (4 * delta**2), Delta / (2 * delta), Delta / (2 * delta),
                           sp.Rational(1, 2) / (1 + _beta)),
    ("amplitude", "high"): (Delta, Delta, Delta, 1 - sp.Rational(1, 2) / (1 + _beta)),
    ("power", "low"): (Delta**2 / (6 * delta**3), Delta**2 / (4 * delta**2),
                       Delta / (2 * delta), sp.Rational(2, 3) / (1 + _beta)),
    ("power", "high"): (9 * Delta**2 / 16, 9 * Delta**2 / 16, 3 * Delta / 4,
                        1 - sp.Rational(1, 3) / (1 + _beta)),
}


@functools.cache
def _feasible(cost_name: str, regime: str) -> tuple[bool, str | None, sp.Expr, str | None]:
    """The feasibility of the dual certificate of ``cost_name`` in ``regime`` (independent
    of the cost under test; computed once): (feasible, the sign of lambda - nu, the
    quotient Q, its sign)."""
    power = 1 if cost_name == "amplitude" else 2
    cost = _component(power)[0]
    lam, nu, L, dl = CERTIFICATES[(cost_name, regime)]
    sub = {delta: dl, Delta: 1 + _t}  # Delta = 1 + t: any positive value, scaled
    # on [0, Delta/2]: c(a) + lambda - nu >= lambda - nu >= 0
    low = sign_certificate(simplified((lam - nu).subs(sub)), [_beta, _t])
    # on [Delta/2, oo): a (c(a) - nu) + lambda Delta/2 = (a - L)^2 Q(a), Q > 0 for a > 0
    num = sp.expand(_a * (cost - nu) + lam * Delta / 2)
    q, r = sp.div(sp.Poly(num, _a), sp.Poly(sp.expand((_a - L) ** 2), _a))
    tangent = vanishes(r.as_expr())
    q_sign = sign_certificate(simplified(q.as_expr().subs(sub)), [_a, _beta, _t])
    l_ok = sign_certificate(simplified((L - Delta / 2).subs(sub)), [_beta, _t])
    feasible = (low in ("zero", "positive") and tangent and q_sign == "positive"
                and l_ok in ("zero", "positive")
                and sign_certificate(lam.subs(sub), [_beta, _t]) == "positive")
    return bool(feasible), low, q.as_expr(), q_sign


def duality_certificate(cost_name: str, engine_cost: sp.Expr) -> tuple[bool, str]:
    """Weak duality for every law of the class, both regimes of delta (see the module):
    the dual certificate is feasible and its value is ``engine_cost`` (the optimal cost of
    P_alpha, a Piecewise in delta) in each regime."""
    power = 1 if cost_name == "amplitude" else 2
    cost, inner, outer, mix_ok = _component(power)
    ok = mix_ok and inner == 1 and vanishes(outer - Delta / (2 * _a))
    rows = [f"U_a: E|X|^{power} = {cost}, central mass 1 (a <= Delta/2), {outer} (a >= "
            f"Delta/2); mixture density = phi: {mix_ok}"]
    if not isinstance(engine_cost, sp.Piecewise) or len(engine_cost.args) != 2:
        return False, f"not a two-regime Piecewise: {engine_cost}"
    pieces = engine_cost.args
    for regime, piece in (("low", pieces[0]), ("high", pieces[1])):
        lam, nu, L, dl = CERTIFICATES[(cost_name, regime)]
        # the regime's end: delta <= (the parametrisation at beta -> 0) for "low"
        edge = sp.Le(delta, dl.subs(_beta, 0)) if regime == "low" else sp.true
        ok &= piece[1] == edge
        feasible, low, q, q_sign = _feasible(cost_name, regime)
        value = simplified((nu - lam * delta) - piece[0])
        good = feasible and value == 0
        ok &= good
        rows.append(f"{regime} delta (delta = {dl}, beta > 0): lambda = {lam}, nu = {nu}; "
                    f"lambda - nu: "
                    f"{low}; a(c + lambda Delta/(2a) - nu) = (a - {L})^2 ({q}), "
                    f"quotient {q_sign}; nu - lambda delta - engine cost = {value}")
    return bool(ok), "; ".join(rows)


#: The symbols of the rearrangements: the density level h just below Delta/2, the tail mass
#: T beyond Delta/2 (one side), the atom alpha and the central mass delta_P of the result.
LEVEL, TAIL = sp.symbols("h T", positive=True)
ATOM, CENTRAL = sp.symbols("alpha delta_P", nonnegative=True)
#: The shapes the rearrangements produce: the end of the step (Step 2), the level of the
#: uniform part (Step 3).
STEP_END = Delta / 2 + TAIL / LEVEL
UNIFORM_LEVEL = (CENTRAL - ATOM) / Delta


def rearrangement_reduction(which: str, shape: sp.Expr | None = None) -> tuple[bool, str]:
    r"""Steps 2 and 3 for every law of the class and every cost :math:`c(|x|)`,
    :math:`c(x) = x^p` (:math:`p > 0`: :math:`c(0) = 0`, :math:`c^{\prime} = p x^{p-1} \ge 0`).

    ``shape`` is the rearranged law's shape under test (default :data:`STEP_END` for Step 2,
    :data:`UNIFORM_LEVEL` for Step 3).

    Step 2 (``"tail"``): on :math:`[\Delta/2, \infty)` (one side) the density :math:`\varphi`
    with mass :math:`T` becomes :math:`g = h` on :math:`[\Delta/2, b]`, 0 beyond, with
    :math:`h = \varphi(\Delta/2^-)` and :math:`b = \Delta/2 + T/h` (same mass). Since
    :math:`\varphi \le h` there, :math:`g - \varphi \ge 0` on :math:`[\Delta/2, b]` and
    :math:`\le 0` beyond; with :math:`J_1 = \int_{[\Delta/2, b]}(c(b) - c)(g - \varphi) \ge 0`,
    :math:`J_2 = \int_{(b, \infty)}(c - c(b))(\varphi - g) \ge 0` and :math:`M_j` the cells'
    masses of :math:`g - \varphi` (:math:`M_1 + M_2 = 0`), the cost change is
    :math:`-J_1 + c(b)M_1 - J_2 + c(b)M_2 = -(J_1 + J_2) \le 0`. Step 3 (``"centre"``): on
    :math:`(0, \Delta/2)` the density becomes its lowest level :math:`h` and the excess
    :math:`E = 2\int_0^{\Delta/2}(\varphi - h) \ge 0` moves to the atom: the cost changes by
    :math:`c(0)E - 2K`, :math:`K = \int_0^{\Delta/2} c\,(\varphi - h) \ge 0`, and the law is
    :math:`P_\alpha` (atom :math:`\alpha`, level :math:`(\delta - \alpha)/\Delta`). Both keep
    the central mass (the mass moves inside or outside :math:`[-\Delta/2, \Delta/2]` only)
    and the class (nonincreasing levels), so (0, delta)-DP by the condition.
    """
    p = sp.Symbol("p", positive=True)
    c = _x**p
    rows = [f"c = x^p: c(0) = {c.subs(_x, 0)}, c' = {sp.diff(c, _x)} >= 0: "
            f"{bool(sp.diff(c, _x).is_nonnegative)}"]
    ok = c.subs(_x, 0) == 0 and bool(sp.diff(c, _x).is_nonnegative)
    if which == "tail":
        h, T = LEVEL, TAIL
        b = STEP_END if shape is None else sp.sympify(shape)
        mass_ok = vanishes(sp.integrate(h, (_x, Delta / 2, b)) - T)
        J1, J2, M1, M2, cb = sp.symbols("J1 J2 M1 M2 c_b", real=True)
        change = (-J1 + cb * M1) + (-J2 + cb * M2)
        change = change.subs(M2, -M1)  # M1 + M2 = (mass of g) - (mass of phi) = T - T = 0
        good, cert = cone_certificate(-change, [J1, J2], {}, [])
        ok &= mass_ok and good
        rows.append(f"mass of the step h (b - Delta/2) = T: {mass_ok}; g - phi >= 0 on "
                    f"[Delta/2, b] (phi <= h), <= 0 beyond; minus the cost change = {cert}")
    else:
        h, al, dl = LEVEL, ATOM, CENTRAL
        K, a0, inner = sp.symbols("K a_0 I", nonnegative=True)
        E = 2 * (inner - h * Delta / 2)  # the excess over the level h on (0, Delta/2), both sides
        change = c.subs(_x, 0) * E - 2 * K
        good, cert = cone_certificate(-change, [K], {}, [])
        # central mass before: a_0 + 2 I; after: (a_0 + E) + 2 h Delta/2
        central = simplified((a0 + E + h * Delta) - (a0 + 2 * inner))
        level = sp.solve(sp.Eq(al + h * Delta, dl), h)[0]
        want = UNIFORM_LEVEL if shape is None else sp.sympify(shape)
        p_alpha = vanishes(level - want)
        ok &= good and central == 0 and p_alpha
        rows.append(f"minus the cost change = {cert}; central mass change {central}; atom "
                    f"alpha + level h Delta = delta_P gives h = {level} (P_alpha): {p_alpha}")
    return bool(ok), "; ".join(rows)


__all__ = ["ATOM", "CENTRAL", "CERTIFICATES", "LEVEL", "STEP_END", "TAIL", "UNIFORM_LEVEL",
           "condition_reduction", "duality_certificate", "rearrangement_reduction"]
