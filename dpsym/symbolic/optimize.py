r"""Minimising a cost over a mechanism's free parameter.

Two paths, and a test shows they agree:

* :func:`closed_form_minimiser` looks for the minimiser as a closed form: the stationary
  points are the roots of the numerator of :math:`dV/d\theta`, a polynomial in
  :math:`\theta` for integer cost exponents. Roots of degree at most two come from the
  quadratic formula, cubics without a linear term after the Tschirnhaus shift from a
  real cube root. A candidate is accepted only if, at several parameter points, it is
  real, lies in the parameter's domain and equals the numeric global minimiser.
* :func:`numeric_minimiser` finds the global minimiser at the working precision: sign
  changes of :math:`dV/d\theta` on a grid, each refined by a bracketing root finder, and
  the end points; the smallest cost wins.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

import mpmath
import sympy as sp

from dpsym.errors import CertificationError
from dpsym.precision import workdps, workprec
from dpsym.symbolic.numerics import evaluate
from dpsym.symbols import p

GRID = 32


def numeric_minimiser(value: Callable[[mpmath.mpf], mpmath.mpf],
                      slope: Callable[[mpmath.mpf], mpmath.mpf],
                      lo: mpmath.mpf, hi: mpmath.mpf,
                      hint: mpmath.mpf | None = None) -> mpmath.mpf:
    r"""Global minimiser of ``value`` on ``[lo, hi]`` at the working precision.

    Parameters
    ----------
    value, slope : callable
        The cost and its derivative.
    lo, hi : mpmath.mpf
        The interval.
    hint : mpmath.mpf, optional
        The minimiser found at a lower precision. If the slope changes sign in a small
        bracket around it, only that bracket is refined (the global comparison was made
        at the lower precision); otherwise the full search runs.

    Returns
    -------
    mpmath.mpf
        The minimiser: an end point or a certified root of ``slope``.

    Raises
    ------
    CertificationError
        If a bracketed root of the slope cannot be refined.

    Notes
    -----
    A cost with a pole at an end of the range (evaluation raises ``ZeroDivisionError``)
    counts as :math:`+\infty` there, its slope as :math:`\pm\infty` (pointing out of
    the range). The end points and the grid are computed from ``lo`` and ``hi``, which
    must be mpmath numbers (Python integers would give a float grid).
    """
    value, slope = _pole_safe(value, lo, hi, value=True), _pole_safe(slope, lo, hi)
    if hint is not None and lo < hint < hi:
        width = mpmath.mpf(2) ** (-mpmath.mp.prec // 3) * max(abs(hint), mpmath.mpf(2) ** -40)
        a, b = max(lo, hint - width), min(hi, hint + width)
        sa, sb = slope(a), slope(b)
        if sa < 0 < sb:
            return bisect_root(slope, a, b, sa, sb, steps=8)
    grid = [lo + (hi - lo) * j / GRID for j in range(GRID + 1)]
    slopes = [slope(t) for t in grid]
    candidates = [lo, hi]
    for (t0, s0), (t1, s1) in itertools.pairwise(zip(grid, slopes, strict=True)):
        if s0 == 0:
            candidates.append(t0)
        elif s0 < 0 < s1:  # a minimum of the cost lies in (t0, t1)
            candidates.append(bisect_root(slope, t0, t1, s0, s1))
    return min(candidates, key=value)


def refine_root(f: Callable[[mpmath.mpf], mpmath.mpf], x0: mpmath.mpf, lo: mpmath.mpf,
                hi: mpmath.mpf, bits: int) -> mpmath.mpf | None:
    r"""Refine a root of an increasing ``f`` from an approximation ``x0`` (relative error
    about :math:`2^{-\mathrm{bits}}`) to the working precision.

    Each step is a secant (a Newton step with a difference quotient) through
    :math:`x \pm h`, :math:`h = 2^{-\mathrm{bits}} |x|`, at about twice the precision of
    the current approximation, so that the number of correct bits doubles and all steps
    together cost about two evaluations at the working precision. The result is accepted
    on the criterion of :func:`bisect_root`: ``f`` changes sign across a relative
    neighbourhood :math:`2^{-p/2}` of it (``p`` the working precision in bits; the
    last secant step is taken through the two ends of that neighbourhood).

    Returns
    -------
    mpmath.mpf or None
        The certified root, or None (the caller falls back to a bracketing search) if a
        step leaves ``(lo, hi)`` or the sign change is not found.
    """
    target = mpmath.mp.prec
    x = mpmath.mpf(x0)
    acc = max(int(bits), 16)
    while True:
        work = min(target, 2 * acc + 32)
        final = work >= target
        if final:  # the last step's two points are the certificate's neighbourhood
            acc = target // 2
        with workprec(work):
            h = abs(x) * mpmath.mpf(2) ** (-acc)
            a, b = x - h, x + h
            if not (lo < a and b < hi):
                return None
            fa, fb = f(a), f(b)
            if not fb > fa:
                return None
            x = a - fa * (b - a) / (fb - fa)
        if not lo < x < hi:
            return None
        if final:
            return x if fa <= 0 <= fb else None
        acc = min(2 * acc, target)


def _pole_safe(f: Callable[[mpmath.mpf], mpmath.mpf], lo: mpmath.mpf, hi: mpmath.mpf,
               value: bool = False) -> Callable[[mpmath.mpf], mpmath.mpf]:
    def safe(t: mpmath.mpf) -> mpmath.mpf:
        try:
            return f(t)
        except ZeroDivisionError:
            if t not in (lo, hi):
                raise
            return mpmath.inf if value or t == hi else -mpmath.inf
    return safe


def bisect_root(f, a, b, fa, fb, steps: int = 24):
    r"""Root of ``f`` in ``[a, b]`` (``fa < 0 < fb``), certified at the working precision.

    A bracket ``[0, b]`` is first narrowed geometrically (roots near zero may be as small
    as :math:`e^{-700}`), wide positive brackets are bisected geometrically, then
    ``steps`` arithmetic bisections isolate the root and the Illinois variant of regula
    falsi converges superlinearly.
    The result is accepted only if ``f`` changes sign across a relative neighbourhood of
    :math:`2^{-p/2}` (``p`` the working precision in bits).

    Parameters
    ----------
    f : callable
        An increasing sign change: ``f(a) = fa < 0 < fb = f(b)``.
    a, b : mpmath.mpf
        The bracket, :math:`0 \le a < b`.
    fa, fb : mpmath.mpf
        ``f`` at ``a`` and ``b``.
    steps : int
        The arithmetic bisections before regula falsi.

    Returns
    -------
    mpmath.mpf
        The root; 0 when a bracket ``[0, b]`` still has no negative value of ``f`` at
        :math:`b\,2^{-2^{40}}`.

    Raises
    ------
    CertificationError
        If no certified root is found.
    """
    if a == 0:
        j = 1
        while True:
            t = b * mpmath.mpf(2) ** (-(2**j))
            ft = f(t)
            if ft < 0:
                a, fa = t, ft
                break
            if ft == 0:
                return t
            b, fb = t, ft
            j += 1
            if j > 40:
                return mpmath.mpf(0)
    bisections = 0
    while b > 4 * a or bisections < steps:
        # geometric bisection while the bracket spans orders of magnitude, then arithmetic
        wide = b > 4 * a
        mid = mpmath.sqrt(a * b) if wide else (a + b) / 2
        bisections += 0 if wide else 1
        fm = f(mid)
        if fm == 0:
            return mid
        if fm < 0:
            a, fa = mid, fm
        else:
            b, fb = mid, fm
    root = _illinois(f, a, b, fa, fb)
    h = mpmath.mpf(2) ** (-(mpmath.mp.prec // 2))
    if not f(root * (1 - h)) <= 0 <= f(root * (1 + h)):
        raise CertificationError("root of the optimality condition could not be certified")
    return root


#: The former private name, still imported by :mod:`dpsym.mechanisms.staircase_md`.


def _illinois(f, a, b, fa, fb):
    """Illinois regula falsi on a bracket, stopped on the bracket's relative width.

    The bracket always contains the root; a bisection step is forced whenever three
    secant steps fail to halve it, so the width goes to zero at least linearly.
    """
    tol = mpmath.mpf(2) ** (-mpmath.mp.prec + 3)
    side = 0
    stale = 0
    width = b - a
    for _ in range(4 * mpmath.mp.prec + 100):
        if b - a <= tol * max(abs(a), abs(b)):
            break
        if stale >= 3:
            m = (a + b) / 2
            stale = 0
        else:
            m = (a * fb - b * fa) / (fb - fa)
            if not a < m < b:
                m = (a + b) / 2
        fm = f(m)
        if fm == 0:
            return m
        if fm < 0:
            a, fa = m, fm
            if side == -1:
                fb /= 2
            side = -1
        else:
            b, fb = m, fm
            if side == 1:
                fa /= 2
            side = 1
        stale = 0 if b - a <= width / 2 else stale + 1
        width = min(width, b - a) if stale == 0 else width
    return (a + b) / 2


@dataclass(frozen=True)
class AlgebraicRoot:
    r"""A root :math:`\theta = s + \sigma R` with :math:`R^n = Q`, :math:`R > 0` real.

    ``s`` and ``Q`` are rational functions of the other symbols, :math:`\sigma = \pm 1`
    and :math:`n \in \{1, 2, 3\}`. Keeping the radical's defining equation lets the cost
    at the root be reduced modulo :math:`R^n - Q` to its simplest form.
    """

    shift: sp.Expr
    sign: int
    degree: int
    radicand: sp.Expr
    radical: sp.Expr
    #: End points of the parameter's range where the minimiser sticks when the root
    #: leaves the range: ``(("lower", lo), ...)``; empty for an interior root.
    clamps: tuple[tuple[str, sp.Expr], ...] = ()

    @property
    def root(self) -> sp.Expr:
        """The stationary point as one expression."""
        return sp.factor(self.shift) + self.sign * self.radical

    @property
    def expr(self) -> sp.Expr:
        """The minimiser: the root, clamped to the range where needed (``Piecewise``)."""
        return self._clamped(self.root, lambda end: end)

    def _clamped(self, inside: sp.Expr, at_end: Callable[[sp.Expr], sp.Expr]) -> sp.Expr:
        if not self.clamps:
            return inside
        branches = []
        for side, end in self.clamps:
            cond = self.root <= end if side == "lower" else self.root >= end
            branches.append((at_end(end), cond))
        return sp.Piecewise(*branches, (inside, True))

    def with_clamps(self, clamps: tuple[tuple[str, sp.Expr], ...]) -> AlgebraicRoot:
        """The same root, clamped at ``clamps``."""
        return AlgebraicRoot(self.shift, self.sign, self.degree, self.radicand, self.radical,
                             clamps)

    def reduce(self, value: sp.Expr, var: sp.Symbol) -> sp.Expr:
        """``value`` at the minimiser, the root's branch reduced modulo :math:`R^n - Q`."""
        return self._clamped(self._reduce_at_root(value, var),
                             lambda end: sp.factor(sp.cancel(value.subs(var, end))))

    def _reduce_at_root(self, value: sp.Expr, var: sp.Symbol) -> sp.Expr:
        if self.degree == 1:
            at_root = value.subs(var, self.root)
            if value.is_rational_function(var):
                return sp.factor(sp.cancel(at_root))
            return sp.simplify(at_root)
        # R = c * S with c rational and S a product of pure radicals, S**n a polynomial:
        # reducing modulo S**n - S_n keeps the rational part out of the radicals.
        radicals = [f for f in self.radical.atoms(sp.Pow) if not f.exp.is_integer]
        coeff, pure = self.radical.as_independent(*radicals, as_Add=False)
        power = sp.expand(sp.powsimp(sp.expand_power_base(pure**self.degree, force=True),
                                     force=True))
        big_r = sp.Dummy("S", positive=True)
        num, den = sp.fraction(sp.cancel(value.subs(var, self.shift
                                                    + self.sign * coeff * big_r)))
        num_q, den_q = sp.fraction(sp.cancel(power))
        modulus = sp.Poly(den_q * big_r**self.degree - num_q, big_r)
        inverse = sp.invert(sp.Poly(den, big_r), modulus)
        reduced = sp.Poly(num, big_r).mul(inverse).rem(modulus)
        return sp.factor(reduced.as_expr()).subs(big_r, pure)


def real_root(expr: sp.Expr, n: int, point: Mapping[sp.Symbol, object]) -> sp.Expr:
    """The positive real ``n``-th root of ``|expr|``, split over its factors.

    Each factor is replaced by its absolute value (its sign read at ``point``), so that the
    root of a product becomes a product of roots of positive bases. The caller verifies
    the result numerically at several points.
    """
    parts = []
    for factor in sp.Mul.make_args(sp.factor(expr)):
        base, exponent = factor.as_base_exp()
        value = sp.sign(sp.N(base.subs(point)))
        if value < 0:
            base = -base
        parts.append(sp.Pow(base, exponent / n))
    return sp.Mul(*parts)


def _sign_at(expr: sp.Expr, point: Mapping[sp.Symbol, object]) -> int:
    return int(sp.sign(sp.N(sp.sympify(expr).subs(point))))


def polynomial_roots(coeffs: Sequence[sp.Expr], point: Mapping[sp.Symbol, object]
                     ) -> list[AlgebraicRoot]:
    """Real roots, in radicals, of a polynomial of degree 1, 2, or 3 without linear term
    after the Tschirnhaus shift; signs of radicands are read at ``point``."""
    deg = len(coeffs) - 1
    if deg == 1:
        a1, a0 = coeffs
        root = sp.factor(-a0 / a1)
        return [AlgebraicRoot(root, 1, 1, sp.Integer(0), sp.Integer(0))]
    if deg == 2:
        a2, a1, a0 = coeffs
        shift = sp.factor(-a1 / (2 * a2))
        disc = sp.factor((a1**2 - 4 * a2 * a0) / (4 * a2**2))
        if _sign_at(disc, point) < 0:
            return []
        rad = real_root(disc, 2, point)
        return [AlgebraicRoot(shift, s, 2, disc, rad) for s in (1, -1)]
    if deg == 3:
        a3, a2, a1, a0 = coeffs
        shift = sp.factor(-a2 / (3 * a3))
        y = sp.Dummy("y")
        var = sp.Dummy("t")
        poly = sp.Poly(coeffs, var).as_expr().subs(var, y + shift)
        c = sp.Poly(sp.expand(poly / a3), y).all_coeffs()
        if sp.simplify(c[2]) != 0:
            return []
        q = sp.factor(-c[3])
        sign = 1 if _sign_at(q, point) >= 0 else -1
        return [AlgebraicRoot(shift, sign, 3, sign * q, real_root(q, 3, point))]
    return []


def stationary_candidates(cost: sp.Expr, var: sp.Symbol,
                          point: Mapping[sp.Symbol, object]) -> list[AlgebraicRoot]:
    """Closed-form roots of the numerator of ``d cost / d var`` (factors of degree <= 3).

    A cost that is not rational in ``var`` (a power with a symbolic exponent) is
    differentiated through its logarithm, whose derivative may be rational.
    """
    if cost.is_rational_function(var):
        slope = sp.diff(cost, var)
    else:
        slope = sp.diff(sp.expand_log(sp.log(cost), force=True), var)
    numerator = sp.numer(sp.together(slope))
    try:
        _, factors = sp.factor_list(numerator, var)
    except sp.PolynomialError:
        return []
    out: list[AlgebraicRoot] = []
    for factor, _mult in factors:
        if var not in factor.free_symbols:
            continue
        try:
            poly = sp.Poly(factor, var)
        except sp.PolynomialError:
            continue
        out.extend(polynomial_roots(poly.all_coeffs(), point))
    return out


#: Exponents at which a minimiser derived for a symbolic cost exponent :math:`p` is checked.
_TEST_EXPONENTS = (sp.Rational(1, 2), sp.Integer(1), sp.Integer(2), sp.Integer(3))


def _with_exponents(cost: sp.Expr, points: Sequence[Mapping[sp.Symbol, object]]
                    ) -> list[Mapping[sp.Symbol, object]]:
    """The test points, crossed with test exponents if ``cost`` has a symbolic exponent."""
    if p not in cost.free_symbols or any(p in pt for pt in points):
        return list(points)
    return [{**pt, p: e} for pt in points for e in _TEST_EXPONENTS]


def closed_form_minimiser(cost: sp.Expr, var: sp.Symbol, lo: sp.Expr, hi: sp.Expr,
                          test_points: Sequence[Mapping[sp.Symbol, object]]
                          ) -> AlgebraicRoot | None:
    """The minimiser of ``cost`` over ``var`` in ``[lo, hi]`` as a closed form, or None.

    Each candidate is checked at every point of ``test_points`` (exact rationals for the
    other symbols) against :func:`numeric_minimiser` at 40 digits.
    """
    test_points = _with_exponents(cost, test_points)
    candidates = stationary_candidates(cost, var, test_points[0])
    if not candidates:
        return None
    slope_expr = sp.diff(cost, var)
    accepted = []
    with workdps(40):
        for cand in candidates:
            ok = True
            clamps: dict[str, sp.Expr] = {}
            for point in test_points:
                try:
                    val = evaluate(cand.root, point)
                except (CertificationError, ZeroDivisionError, ValueError, TypeError):
                    ok = False
                    break
                low, high = evaluate(lo, point), evaluate(hi, point)
                if val < low:
                    val, clamps["lower"] = low, lo
                elif val > high:
                    val, clamps["upper"] = high, hi

                def f(t, point=point):
                    return evaluate(cost, {**point, var: t})

                def g(t, point=point):
                    return evaluate(slope_expr, {**point, var: t})

                best = numeric_minimiser(f, g, low, high)
                if abs(val - best) > mpmath.mpf(10) ** -25 * (1 + abs(best)):
                    ok = False
                    break
            if ok:
                accepted.append(cand.with_clamps(tuple(clamps.items())))
    if not accepted:
        return None
    return min(accepted, key=lambda root: sp.count_ops(root.expr))
