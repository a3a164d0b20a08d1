r"""Asymptotic series of a minimiser and of the minimum when no closed form exists.

The optimal free parameter :math:`\gamma^*(t)` of a cost :math:`V(\gamma, t)` is a root of
the numerator :math:`N(\gamma, t)` of :math:`\partial V / \partial \gamma`. When that root
has no expression in radicals (the staircase for :math:`p \ge 3`), its expansion in the
regime variable :math:`t` is still computable exactly:

1. the cost is written as a rational function of :math:`\gamma`, :math:`t` and
   :math:`w = e^{-t/L}` (:math:`w` only when the regime substitutes
   :math:`b = e^{-\varepsilon}`), so that every coefficient of :math:`N` in :math:`\gamma`
   has an exact power series in :math:`t`;
2. the branch of the minimiser is identified numerically: at two small values of
   :math:`t` the real roots of every factor of :math:`N` are isolated exactly (rational
   arithmetic) and the one of least cost is kept;
3. its limit :math:`\gamma_0` is a root of the leading-order polynomial
   :math:`N_k(\gamma) = [t^k] N(\gamma, t)`; the Newton polygon of
   :math:`N(\gamma_0 + y, t)` gives the rate :math:`y \sim C t^{\alpha}`,
   :math:`\alpha = m / q` (a regular expansion :math:`\alpha = 1` when :math:`\gamma_0` is a
   simple root, a Puiseux expansion otherwise, e.g. :math:`\alpha = 1/(p + 1)` for the
   staircase as :math:`\varepsilon \to \infty`);
4. with :math:`t = s^q` and :math:`\gamma = \gamma_0 + s^m (C + z)` the equation becomes
   :math:`H(z, s) = 0` with :math:`H(0, 0) = 0`, :math:`H_z(0, 0) \neq 0`; its power series
   root :math:`z(s)` follows from Newton's iteration on power series (exact arithmetic in
   :math:`\mathbb{Q}(C)` modulo the minimal polynomial of :math:`C`);
5. the minimum is :math:`V(\gamma^*(s), s^q)`, expanded as a quotient of power series.

Every coefficient is exact; the numerics only choose between exact candidates (at
precisions scoped under the lock of :mod:`dpsym.precision`, which :func:`minimiser_series`
holds throughout). The exact power-series arithmetic, the field extensions and the Newton
polygon are in :mod:`dpsym.symbolic.powerseries`.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache
from typing import Any

import mpmath
import sympy as sp

from dpsym.errors import DomainError, UnsupportedError
from dpsym.precision import exclusive, workdps
from dpsym.symbolic.powerseries import (
    Field,
    adjoin_root,
    bisect_polynomial_root,
    lower_hull,
    mp_coeffs,
    mp_rational,
    numeric_coeffs,
    numeric_element,
    pad,
    real_roots,
    series_horner,
    series_inv,
    series_mul,
    series_root,
    valuation,
)
from dpsym.symbolic.regimes import MAX_ORDER, Regime
from dpsym.symbols import in_eps

#: Working precision (decimal digits) of the numeric choice of branch.
PROBE_DIGITS = 60

#: Largest truncation order (in t) of the coefficient series before giving up.
MAX_SERIES = 400

#: Largest accepted mismatch |log(y / (C t^alpha))| at the probes for a branch.
MATCH_TOLERANCE = 0.25

#: Default probe points: small values of the regime variable.
DEFAULT_PROBES = {"eps->oo": (sp.Rational(1, 10**30), sp.Rational(1, 10**40))}
GENERIC_PROBES = (sp.Rational(1, 10**6), sp.Rational(1, 10**8))


# ---------------------------------------------------------------------------- problem
@dataclass
class _Probe:
    """The numeric minimiser at one small value of the regime variable."""

    t: sp.Rational
    gamma: mpmath.mpf
    factor: int  # index into the factors of N; -1, -2 for the lower, upper end point


class _Problem:
    r"""The cost as :math:`\kappa\, A(\gamma, t, w) / B(\gamma, t, w)` with polynomials
    :math:`A, B` over :math:`F` and :math:`w = e^{-t/L}`."""

    def __init__(self, cost: sp.Expr, var: sp.Symbol, lo: sp.Expr, hi: sp.Expr,
                 regime: Regime, point: Mapping[sp.Symbol, object] | None) -> None:
        cost = sp.sympify(cost)
        if not cost.is_rational_function(var):
            raise UnsupportedError(
                f"regime {regime.name}: the cost is not a rational function of {var} "
                "(e.g. a non-integer moment); no series without a closed form"
            )
        if not any(s in in_eps(cost).free_symbols for s in regime.moves):
            raise UnsupportedError(
                f"regime {regime.name} moves {', '.join(map(str, regime.moves))}, "
                "which this cost does not depend on"
            )
        self.var, self.regime = var, regime
        self.t = t = regime.variable
        prepared = regime.prepare(cost)
        self.w = w = sp.Dummy("w", positive=True)
        self.scale = self._exponential_scale(prepared)
        expr = prepared.xreplace({e: w ** sp.Integer(sp.simplify(-e.args[0] / t * self.scale))
                                  for e in self._exponentials(prepared)})
        gens = (var, t, w)
        if not expr.is_rational_function(*gens):
            raise UnsupportedError(
                f"regime {regime.name}: the cost is not rational in {var} and {t} "
                "(after the regime's substitution)"
            )
        self.lo, self.hi = (regime.prepare(sp.sympify(e)) for e in (lo, hi))
        if any(e.has(var, t) for e in (self.lo, self.hi)):
            raise UnsupportedError(f"the range of {var} must not depend on {var} or {t}")
        num, den = sp.fraction(sp.together(expr))
        pre_n, num = self._split(num, gens)
        pre_d, den = self._split(den, gens)
        self.prefactor = sp.factor(pre_n / pre_d)
        params = (num.free_symbols | den.free_symbols | self.lo.free_symbols
                  | self.hi.free_symbols) - set(gens)
        self.params = tuple(sorted(params, key=str))
        self.F = sp.QQ.frac_field(*self.params) if self.params else sp.QQ
        try:
            self.A = sp.Poly(num, *gens, domain=self.F)
            self.B = sp.Poly(den, *gens, domain=self.F)
        except (sp.polys.polyerrors.PolynomialError, sp.polys.polyerrors.CoercionFailed):
            raise UnsupportedError(
                f"regime {regime.name}: the cost's coefficients are not rational"
            ) from None
        given = dict(point or {})
        self.point = {s: sp.Rational(str(given.get(s, 1))) for s in self.params}
        slope = self.A.diff(var) * self.B - self.A * self.B.diff(var)
        if slope.is_zero:
            raise UnsupportedError(f"the cost does not depend on {var}")
        _, factors = sp.factor_list(slope.as_expr(), *gens)
        self.factors = [sp.Poly(f, *gens, domain=self.F) for f, _ in factors if f.has(var)]
        self._cache: dict[tuple[sp.Poly, int], list] = {}
        self._probes: dict[sp.Rational, _Probe] = {}

    def _exponential_scale(self, expr: sp.Expr) -> int:
        """The :math:`L` of :math:`w = e^{-t/L}` that makes every exponential a power."""
        scale = 1
        for e in self._exponentials(expr):
            ratio = sp.simplify(e.args[0] / self.t)
            if not ratio.is_Rational or ratio == 0:
                raise UnsupportedError(
                    f"regime {self.regime.name}: {e} is not a power of exp({self.t})"
                )
            scale = math.lcm(scale, int(ratio.q))
        return scale

    def _exponentials(self, expr: sp.Expr) -> list[sp.Expr]:
        """The exponentials in ``expr`` that depend on the regime variable."""
        return [e for e in expr.atoms(sp.exp) if e.has(self.t)]

    @staticmethod
    def _split(expr: sp.Expr, gens: tuple) -> tuple[sp.Expr, sp.Expr]:
        """(factor free of the generators, the rest)."""
        coeff, factors = sp.factor_list(expr, *gens)
        outer: list[sp.Expr] = [coeff]
        inner: list[sp.Expr] = []
        for f, mult in factors:
            (inner if f.has(*gens) else outer).append(f**mult)
        return sp.Mul(*outer), sp.expand(sp.Mul(*inner))

    # ------------------------------------------------------------------ coefficient series
    def coefficient_series(self, poly: sp.Poly, n: int) -> list[list]:
        r"""The coefficients of ``poly`` in :math:`\gamma` as power series in :math:`t`
        modulo :math:`t^n` (elements of :math:`F`), with :math:`w = e^{-t/L}`."""
        key = (poly, n)
        if key in self._cache:
            return self._cache[key]
        F = self.F
        deg = poly.degree(self.var)
        out = [[F.zero] * n for _ in range(deg + 1)]
        taylor: dict[int, list] = {}
        for (a, bexp, cexp), coeff in poly.rep.to_dict().items():
            if cexp not in taylor:  # w^c = exp(-c t / L) = sum_j (-c/L)^j t^j / j!
                rate, term, row = F.from_sympy(sp.Rational(-cexp, self.scale)), F.one, []
                for j in range(n):
                    row.append(term)
                    term = term * rate / F.from_sympy(sp.Integer(j + 1))
                taylor[cexp] = row
            row = taylor[cexp]
            for j in range(max(0, n - bexp)):
                out[a][bexp + j] += coeff * row[j]
        self._cache[key] = out
        return out

    def series_order(self, poly: sp.Poly) -> int | None:
        r"""Smallest :math:`t`-order over the coefficients of ``poly`` in :math:`\gamma`."""
        F = Field(self.F)
        n = 8
        while n <= MAX_SERIES:
            orders = [valuation(F, c) for c in self.coefficient_series(poly, n)]
            known = [o for o in orders if o is not None]
            if known:
                return min(known)
            n *= 2
        return None

    # ------------------------------------------------------------------ numerics
    def probe(self, tv: sp.Rational) -> _Probe:
        """The global minimiser at :math:`t` = ``tv`` among the stationary points and the
        end points (once per value of :math:`t`: every order of the series shares it).

        With :math:`w` rounded to a rational of 150 digits, the real roots of every factor
        of :math:`N` are isolated exactly (rational arithmetic), each is refined by
        bisection at 150 digits and the cost is compared at the roots and the end points.
        """
        if tv not in self._probes:
            self._probes[tv] = self._probe(tv)
        return self._probes[tv]

    def _probe(self, tv: sp.Rational) -> _Probe:
        """The uncached :meth:`probe`."""
        with workdps(150):
            man, exp = mpmath.exp(-mpmath.mpf(tv.p) / tv.q / self.scale).man_exp
            wv = sp.Integer(man) * sp.Rational(2) ** exp
            subs = {self.t: tv, self.w: wv, **self.point}
            lo, hi = (_rational_at(e, subs) for e in (self.lo, self.hi))
            num = mp_coeffs(sp.Poly(self.A.as_expr().subs(subs), self.var))
            den = mp_coeffs(sp.Poly(self.B.as_expr().subs(subs), self.var))
            sign = sp.sign(sp.N(self.prefactor.subs(self.point)))
            candidates = [(mp_rational(lo), -1), (mp_rational(hi), -2)]
            for index, f in enumerate(self.factors):
                fp = sp.Poly(f.as_expr().subs(subs), self.var)
                if fp.degree() < 1:
                    continue
                fp = fp.sqf_part()
                coeffs = mp_coeffs(fp)
                for (a, c), _ in fp.intervals(inf=lo, sup=hi):
                    root = bisect_polynomial_root(coeffs, mp_rational(a), mp_rational(c))
                    candidates.append((root, index))
            best, best_value = None, None
            for g, index in candidates:
                d = mpmath.polyval(den, g)
                if d == 0:
                    continue
                value = sign * mpmath.polyval(num, g) / d
                if best_value is None or value < best_value:
                    best, best_value = (g, index), value
            assert best is not None
            return _Probe(tv, best[0], best[1])


def _rational_at(expr: sp.Expr, subs: Mapping[sp.Symbol, sp.Expr]) -> sp.Rational:
    """``expr`` at ``subs`` as an exact rational (rounded to 120 digits if irrational)."""
    value = sp.sympify(expr).subs(subs)
    if value.is_Rational:
        return value
    return sp.Rational(sp.N(value, 120))


# ---------------------------------------------------------------------------- branches
class _Branch:
    r"""The minimiser :math:`\gamma^*(s) = \gamma_0 + s^m (C + z(s))`, :math:`t = s^q`
    (``m`` None for a constant minimiser)."""

    def __init__(self, K: Field, gamma0: Any, q: int = 1, m: int | None = None,
                 C: Any = None, h_of: Any = None) -> None:
        self.K, self.gamma0, self.q, self.m, self.C = K, gamma0, q, m, C
        self._h_of = h_of
        self._z: list = []

    def z(self, n: int) -> list:
        r"""The root :math:`z(s)` of :math:`H(z, s) = 0` modulo :math:`s^n` (Newton)."""
        if n <= len(self._z):
            return self._z[:n]
        z = series_root(self.K, self._h_of(n), n)
        self._z = z
        return z

    def gamma(self, n: int) -> list:
        r"""The coefficients of :math:`\gamma^*` in powers of :math:`s`, exact modulo
        :math:`s^n`."""
        K = self.K
        out = [K.zero] * n
        if n == 0:
            return out
        out[0] = self.gamma0
        if self.m is None or self.m >= n:
            return out
        z = self.z(n - self.m)
        out[self.m] = self.C
        for j in range(1, n - self.m):
            out[self.m + j] = z[j]
        return out


def _find_branch(problem: _Problem, probes: list[_Probe]) -> _Branch:
    """The branch of the numeric minimiser, with exact coefficients."""
    kinds = {pr.factor for pr in probes}
    if len(kinds) != 1:
        raise UnsupportedError(
            f"regime {problem.regime.name}: the minimiser switches branches near the limit"
        )
    (index,) = kinds
    F = problem.F
    point = problem.point
    var, t = problem.var, problem.t
    last = probes[-1]
    if index < 0:  # an end point
        end = problem.lo if index == -1 else problem.hi
        try:
            return _Branch(Field(F), F.from_sympy(end))
        except (sp.polys.polyerrors.CoercionFailed, TypeError, ValueError):
            raise UnsupportedError(f"the end point {end} is not rational") from None
    f = problem.factors[index]
    if f.degree(t) <= 0 and f.degree(problem.w) <= 0:
        poly = sp.Poly(f.as_expr(), var)
        factors = [sp.Poly(g, var) for g, _ in sp.factor_list(poly.as_expr(), var)[1]]
        with workdps(PROBE_DIGITS):
            best = min(((abs(r - last.gamma), g) for g in factors if g.degree() > 0
                        for r in real_roots(numeric_coeffs(g, point))),
                       key=lambda pair: pair[0])
            K, root = adjoin_root(F, best[1], last.gamma, point)
        return _Branch(K, root)

    # leading-order equation N_k(gamma) = 0
    k = problem.series_order(f)
    if k is None:
        raise UnsupportedError("the optimality condition vanishes to all computed orders")
    n_t = max(2 * k + 8, 16)
    series = problem.coefficient_series(f, n_t)
    x = sp.Dummy("x")
    leading = sp.Poly(list(reversed([F.to_sympy(c[k]) for c in series])), x)
    roots = []
    with workdps(PROBE_DIGITS):
        for g, _ in sp.factor_list(leading.as_expr(), x)[1]:
            gp = sp.Poly(g, x)
            if gp.degree() > 0:
                roots += [(abs(r - last.gamma), gp, r)
                          for r in real_roots(numeric_coeffs(gp, point))]
        if not roots:
            raise UnsupportedError("the leading-order optimality condition has no real root")
        _, phi, _ = min(roots, key=lambda item: item[0])
        K, gamma0 = adjoin_root(F, phi, last.gamma, point)

    # the shifted polynomial G(y, t) = N(gamma0 + y, t) and its Newton polygon
    def shifted(n: int, K: Field, gamma0: Any) -> list[list]:
        coeffs = [[K.embed(c) for c in row] for row in problem.coefficient_series(f, n)]
        deg = len(coeffs) - 1
        out = [[K.zero] * n for _ in range(deg + 1)]
        powers = [K.one]
        for _ in range(deg):
            powers.append(K.mul(powers[-1], gamma0))
        for j in range(deg + 1):
            for i in range(j + 1):
                factor = K.mul(K.embed(F.from_sympy(sp.Integer(math.comb(j, i)))), powers[j - i])
                if K.is_zero(factor):
                    continue
                for e in range(n):
                    if not K.is_zero(coeffs[j][e]):
                        out[i][e] = K.add(out[i][e], K.mul(factor, coeffs[j][e]))
        return out

    while True:
        g = shifted(n_t, K, gamma0)
        orders = [valuation(K, c) for c in g]
        if orders[0] is not None:
            break
        n_t *= 2
        if n_t > MAX_SERIES:
            raise UnsupportedError("the limit of the minimiser is an exact root to all "
                                   "computed orders")
    points = [(i, o) for i, o in enumerate(orders) if o is not None]
    i_min = min(i for i, o in points if o == k)
    hull = lower_hull([pt for pt in points if pt[0] <= i_min])
    candidates = []
    with workdps(PROBE_DIGITS):
        g0 = numeric_element(K, gamma0, point).real
        for (i1, o1), (i2, o2) in itertools.pairwise(hull):
            alpha = Fraction(o1 - o2, i2 - i1)
            on_edge = [i for i, o in points if i1 <= i <= i2
                       and Fraction(o1 - o, 1) == alpha * (i - i1)]
            chi = {i - i1: g[i][o] for i, o in points if i in on_edge}
            chi_values = [numeric_element(K, chi.get(j, K.zero), point)
                          for j in range(i2 - i1, -1, -1)]
            for c in real_roots(chi_values):
                if c == 0:
                    continue
                score = 0
                for pr in probes:
                    tv = mpmath.mpf(pr.t.p) / pr.t.q
                    ratio = (pr.gamma - g0) / (c * tv ** (mpmath.mpf(alpha.numerator)
                                                         / alpha.denominator))
                    score = max(score, abs(mpmath.log(ratio)) if ratio > 0 else mpmath.inf)
                candidates.append((score, alpha, i1, o1, i2, chi, c))
    if not candidates:
        raise UnsupportedError("no branch of the Newton polygon matches the minimiser")
    score, alpha, i1, o1, i2, chi, c_num = min(candidates, key=lambda item: item[0])
    if score > MATCH_TOLERANCE:
        raise UnsupportedError(
            f"regime {problem.regime.name}: no branch of the Newton polygon matches the "
            "numeric minimiser"
        )

    # the exact leading coefficient C
    if i2 - i1 == 1:
        C = K.neg(K.mul(chi.get(0, K.zero), K.inv(chi[1])))
    elif K.ext:
        raise UnsupportedError("the leading coefficient needs a second algebraic extension")
    else:
        chi_poly = sp.Poly(list(reversed([F.to_sympy(chi.get(j, F.zero))
                                          for j in range(i2 - i1 + 1)])), x)
        closest = None
        with workdps(PROBE_DIGITS):
            for psi, mult in sp.factor_list(chi_poly.as_expr(), x)[1]:
                pp = sp.Poly(psi, x)
                for r in real_roots(numeric_coeffs(pp, point)):
                    if closest is None or abs(r - c_num) < closest[0]:
                        closest = (abs(r - c_num), pp, mult)
            assert closest is not None
            if closest[2] > 1:
                raise UnsupportedError(
                    f"regime {problem.regime.name}: the leading coefficient of the minimiser "
                    "is a multiple root (a degenerate Newton polygon edge)"
                )
            K2, C = adjoin_root(F, closest[1], c_num, point)
        if K2.ext:
            gamma0 = K2.embed(gamma0)
            K = K2
    m, q = alpha.numerator, alpha.denominator
    L = q * o1 + m * i1

    def h_of(n: int, K: Field = K, gamma0: Any = gamma0, C: Any = C) -> list[list]:
        r"""The coefficients in :math:`z` of :math:`H(z, s)`, as series modulo :math:`s^n`."""
        nt = (n + L) // q + 2
        g = shifted(nt, K, gamma0)
        deg = len(g) - 1
        cpow = [K.one]
        for _ in range(deg):
            cpow.append(K.mul(cpow[-1], C))
        out = [[K.zero] * n for _ in range(deg + 1)]
        for i in range(deg + 1):
            for e in range(n):
                idx, rem = divmod(e + L - m * i, q)
                if rem or idx < 0 or idx >= nt or K.is_zero(g[i][idx]):
                    continue
                for kk in range(i + 1):
                    term = K.mul(K.embed(F.from_sympy(sp.Integer(math.comb(i, kk)))), cpow[i - kk])
                    out[kk][e] = K.add(out[kk][e], K.mul(term, g[i][idx]))
        return out

    h0 = h_of(1)
    if not K.is_zero(h0[0][0]) or K.is_zero(h0[1][0]):  # pragma: no cover - safeguard
        raise UnsupportedError("internal error: the reduced equation is not regular")
    return _Branch(K, gamma0, q, m, C, h_of)


# ---------------------------------------------------------------------------- cost
def _composed(problem: _Problem, K: Field, poly: sp.Poly, gamma: list, q: int,
              n: int) -> list:
    r""":math:`P(\gamma(s), s^q)` modulo :math:`s^n`."""
    nt = (n - 1) // q + 1
    rows = problem.coefficient_series(poly, max(nt, 1))
    coeffs = []
    for row in rows:
        spread = [K.zero] * n
        for j, c in enumerate(row):
            if j * q < n:
                spread[j * q] = K.embed(c)
        coeffs.append(spread)
    return series_horner(K, coeffs, pad(K, gamma, n), n)


def _cost_series(problem: _Problem, branch: _Branch, order: int) -> list[tuple[int, Any]]:
    r"""The terms :math:`(e, c)` of :math:`A/B` at the minimiser, :math:`c\, s^e` with
    :math:`e < q \cdot \mathrm{order}`."""
    K, q = branch.K, branch.q
    Q = q * order
    a_ord, b_ord = problem.series_order(problem.A), problem.series_order(problem.B)
    if a_ord is None or b_ord is None:
        raise UnsupportedError("the cost vanishes or has no finite expansion")
    a, b_min = q * a_ord, q * b_ord
    exact = branch.m is None
    # v_B: the order of B along the curve (independent of the truncation once e + b_min > v_B)
    e0 = 4 if branch.m is None else branch.m + 2
    while True:
        n = e0 + b_min
        gamma = branch.gamma(n if exact else e0)
        v_b = valuation(K, _composed(problem, K, problem.B, gamma, q, n))
        if v_b is not None:
            break
        e0 *= 2
        if e0 > MAX_SERIES:
            raise UnsupportedError("the cost's denominator vanishes along the minimiser")
    # truncation error of gamma O(s^E) changes A/B by O(s^(E + a + b_min - 2 v_B))
    need = max(Q + 2 * v_b - a - b_min, 1)
    n_a = Q + v_b
    if n_a <= 0:
        return []
    gamma = branch.gamma(1 if exact else need)
    num = _composed(problem, K, problem.A, gamma, q, n_a)
    v_a = valuation(K, num)
    if v_a is None:
        return []
    n_b = Q + 2 * v_b - v_a
    den = _composed(problem, K, problem.B, gamma, q, n_b)
    terms = Q - (v_a - v_b)
    if terms <= 0:
        return []
    quotient = series_mul(K, num[v_a:], series_inv(K, den[v_b:], terms), terms)
    return [(v_a - v_b + j, c) for j, c in enumerate(quotient) if not K.is_zero(c)]


# ---------------------------------------------------------------------------- API
@lru_cache(maxsize=64)
def _problem(cost: sp.Expr, var: sp.Symbol, lo: sp.Expr, hi: sp.Expr, regime: Regime,
             point: tuple[tuple[sp.Symbol, object], ...]) -> _Problem:
    """The :class:`_Problem` of a cost, once for every order asked of it (its polynomials,
    factors, coefficient series and probes depend on the cost, not on the order)."""
    return _Problem(cost, var, lo, hi, regime, dict(point))


@exclusive
def minimiser_series(cost: sp.Expr, var: sp.Symbol, lo: sp.Expr, hi: sp.Expr,
                     regime: Regime, order: int, *,
                     point: Mapping[sp.Symbol, object] | None = None,
                     probes: Sequence[object] | None = None) -> tuple[sp.Expr, sp.Expr]:
    r"""Series of the minimiser :math:`\gamma^*` of a cost and of the minimum.

    The cost :math:`V(\gamma, t)` must be rational in :math:`\gamma` with coefficients
    that, after the regime's substitution (:math:`b = e^{-\varepsilon}` for ``eps->0``,
    :math:`t = b` for ``eps->oo``), are rational in :math:`t` and in
    :math:`e^{-t/L}`. The minimiser over :math:`[\mathrm{lo}, \mathrm{hi}]` is expanded as a
    Puiseux series

    .. math:: \gamma^*(t) = \gamma_0 + \sum_{j \ge 0} c_j\, t^{(m + j)/q},

    and the minimum :math:`V(\gamma^*(t), t)` as a Laurent--Puiseux series in :math:`t`.

    Parameters
    ----------
    cost : sympy.Expr
        The cost :math:`V`, e.g. ``Staircase.cost_function("moment:3")``.
    var : sympy.Symbol
        The free parameter :math:`\gamma`.
    lo, hi : sympy.Expr
        The range of ``var`` (free of ``var`` and of the regime variable).
    regime : Regime
        The regime; its variable :math:`t` is the expansion variable.
    order : int
        Every term :math:`t^e` with :math:`e < \mathrm{order}` is returned, followed by
        :math:`O(t^{\mathrm{order}})`.
    point : mapping, optional
        Numeric values of other symbols left in the coefficients (default 1), used only
        to choose the branch numerically; symbols that only multiply the cost (such as
        :math:`\Delta^p`) are factored out first and need none.
    probes : sequence, optional
        Two or more small rational values of :math:`t` at which the minimiser is located
        numerically (default :math:`10^{-30}, 10^{-40}` for ``eps->oo``, else
        :math:`10^{-6}, 10^{-8}`).

    Returns
    -------
    gamma_series, cost_series : sympy.Expr
        Both with their order term :math:`O(t^{\mathrm{order}})`.

    Raises
    ------
    DomainError
        If ``order`` is not an integer in ``[0, MAX_ORDER]``.
    UnsupportedError
        If the cost is not rational (non-integer moments), if the minimiser has no
        branch matching the numerics, or if its leading coefficient is a multiple root
        (a degenerate Newton polygon).

    Examples
    --------
    >>> from dpsym.mechanisms.staircase import Staircase
    >>> from dpsym.symbolic.regimes import get_regime
    >>> from dpsym.symbols import gamma
    >>> g, v = minimiser_series(Staircase.cost_function("amplitude"), gamma, 0, 1,
    ...                         get_regime("eps->0"), 3)
    >>> g
    1/2 - eps/8 + O(eps**3)
    """
    if isinstance(order, bool) or not isinstance(order, int) or not 0 <= order <= MAX_ORDER:
        raise DomainError("order", f"must be an integer in [0, {MAX_ORDER}]")
    problem = _problem(sp.sympify(cost), var, sp.sympify(lo), sp.sympify(hi), regime,
                       tuple(sorted(dict(point or {}).items(), key=lambda item: str(item[0]))))
    t = problem.t
    values = probes if probes is not None else DEFAULT_PROBES.get(regime.name, GENERIC_PROBES)
    values = sorted((sp.Rational(str(v)) for v in values), reverse=True)
    if len(values) < 2 or values[-1] <= 0:
        raise DomainError("probes", "need at least two positive values")
    found = [problem.probe(v) for v in values]
    branch = _find_branch(problem, found)
    K, q = branch.K, branch.q
    big_o = sp.Order(t**order, t)

    def power(e: int) -> sp.Expr:
        return t ** sp.Rational(e, q)

    gamma_terms = [K.to_sympy(c) * power(e)
                   for e, c in enumerate(branch.gamma(q * order)) if not K.is_zero(c)]
    cost_terms = [sp.expand(problem.prefactor * K.to_sympy(c)) * power(e)
                  for e, c in _cost_series(problem, branch, order)]
    return sp.Add(*gamma_terms) + big_o, sp.Add(*cost_terms) + big_o


__all__ = ["minimiser_series"]
