"""Independent reference computations, written from the source definitions.

Nothing here uses dpsym's engine: each density is coded directly from its definition in
the source texts, normalised numerically, and its moments are computed by mpmath
quadrature (continuous) or direct summation (lattice), period by period, until the
remaining geometric tail is below the working precision. The optimal free parameter is
found by minimising that numeric cost. Callers set the precision with ``mpmath.workdps``.
"""

from __future__ import annotations

import functools

import mpmath


def _periods(b: mpmath.mpf) -> int:
    """Periods after which b**K is below the working precision (with margin)."""
    return int(mpmath.ceil((mpmath.mp.prec + 40) * mpmath.log(2) / -mpmath.log(b))) + 2


@functools.lru_cache(maxsize=32)
def _staircase_periods(eps, Delta, p, prec: int) -> tuple:
    """The gamma-free part of the staircase's period sums at precision ``prec``: b, the
    direct sum of b**k, and per period k the pair (b**k, (k Delta)**(p + 1)), k = 0..K."""
    with mpmath.workprec(prec):
        b = mpmath.exp(-eps)
        K = _periods(b)
        rows = tuple((b**k, (k * Delta) ** (p + 1)) for k in range(K + 1))
        return b, mpmath.fsum(w for w, _ in rows[:K]), rows


def staircase_half_integral(eps, Delta, gamma, p, quad: bool = False
                            ) -> tuple[mpmath.mpf, mpmath.mpf]:
    """(mass, p-th moment) of the *unnormalised* staircase density on [0, oo).

    The density is 1 on [k D, (k + gamma) D) and b on [(k + gamma) D, (k + 1) D), times
    b**k (000, Part One). The integral of x**p over each step is its elementary
    antiderivative, or mpmath.quad with ``quad=True``; the periods are summed directly.
    The terms that do not depend on gamma (b**k and the antiderivative at the period
    ends) are computed once per (eps, Delta, p, precision): a minimisation over gamma
    pays only for the antiderivative at (k + gamma) Delta.
    """
    eps, Delta, gamma, p = (mpmath.mpf(v) for v in (eps, Delta, gamma, p))
    b, geometric, rows = _staircase_periods(eps, Delta, p, mpmath.mp.prec)
    if quad:
        moment = mpmath.mpf(0)
        for k, (weight, _) in enumerate(rows[:-1]):
            for lo, hi, level in ((k, k + gamma, 1), (k + gamma, k + 1, b)):
                if hi > lo:
                    moment += weight * level * mpmath.quad(lambda x: x**p,
                                                           [lo * Delta, hi * Delta])
    else:
        moment = mpmath.fsum(
            weight * ((mid - start) + b * (end - mid))
            for (weight, start), (_, end), mid in (
                (rows[k], rows[k + 1], ((k + gamma) * Delta) ** (p + 1))
                for k in range(len(rows) - 1))) / (p + 1)
    # the steps [k D, (k + gamma) D) at level 1 and [(k + gamma) D, (k + 1) D) at level b
    mass = geometric * (gamma + b * (1 - gamma)) * Delta
    return mass, moment


def staircase_cost(eps, Delta, gamma, p, quad: bool = False) -> mpmath.mpf:
    """E|X|**p of the staircase noise with step fraction gamma."""
    mass, moment = staircase_half_integral(eps, Delta, gamma, p, quad)
    return moment / mass


@functools.lru_cache(maxsize=8)
def _staircase_sums_by_sympy(p: int) -> tuple:
    """(moment, mass) of the unnormalised staircase on [0, oo) for symbolic step fraction
    ``g``, sensitivity ``D`` and ratio ``bb``: each step integrated by ``sympy.integrate``,
    the periods summed by ``sympy.summation`` term by term (its convergent branch, bb < 1)."""
    import sympy as sp

    k = sp.Symbol("k", integer=True, nonnegative=True)
    x = sp.Symbol("x", positive=True)
    bb, g, D = (sp.Symbol(name, positive=True) for name in ("bb", "g", "D"))
    pieces = ((k * D, (k + g) * D, 1), ((k + g) * D, (k + 1) * D, bb))
    mass = sum(sp.integrate(lvl, (x, lo, hi)) for lo, hi, lvl in pieces)
    mom = sum(sp.integrate(lvl * x**p, (x, lo, hi)) for lo, hi, lvl in pieces)

    def convergent(piecewise):
        value, condition = piecewise.args[0]
        assert condition == (bb < 1), condition
        return value

    def total(expr):
        # term by term of the expanded sum (each a constant times bb**k k**j): the same
        # geometric-series rules, without sympy's attempts to telescope pairs of terms
        terms = sp.Add.make_args(sp.expand(bb**k * expr))
        s = sp.Add(*(sp.summation(term, (k, 0, sp.oo)) for term in terms))
        return s.replace(lambda e: isinstance(e, sp.Piecewise), convergent)

    return total(mom), total(mass), (bb, g, D)


def staircase_cost_by_sympy_sum(eps, Delta, gamma, p: int, dps: int) -> mpmath.mpf:
    """E|X|**p of the staircase for integer p, for any eps (also eps -> 0).

    The sum over periods is done by ``sympy.summation`` (its own geometric-series rules,
    independent of dpsym's), the integral over each step by ``sympy.integrate``, both once
    per p with gamma and Delta symbolic; the ratio is a rational function of b = e^{-eps}
    after substituting the exact gamma and Delta, evaluated with ``evalf`` at ``dps``
    digits from exact inputs.
    """
    import sympy as sp

    mom, mass, (bb, g, D) = _staircase_sums_by_sympy(int(p))
    point = {g: sp.Rational(gamma), D: sp.Rational(Delta)}
    ratio = sp.cancel(mom.subs(point) / mass.subs(point))
    value = ratio.subs(bb, sp.exp(-sp.Rational(eps)))
    with mpmath.workdps(dps):
        return mpmath.mpf(str(sp.N(value, dps)))


def laplace_cost(eps, Delta, p) -> mpmath.mpf:
    """E|X|**p of Laplace noise with scale Delta / eps, by quadrature of the density."""
    lam = mpmath.mpf(Delta) / mpmath.mpf(eps)
    return 2 * mpmath.quad(lambda x: x**p * mpmath.exp(-x / lam) / (2 * lam), [0, lam, mpmath.inf])


@functools.lru_cache(maxsize=16)
def _lattice_powers(n: int, p, prec: int) -> list:
    """i**p for i = 1..n-1 at precision ``prec`` (shared by the mass functions summed
    over the same lattice)."""
    with mpmath.workprec(prec):
        return [mpmath.mpf(i) ** p for i in range(1, n)]


def lattice_cost(mass_fn, p, eps, Delta) -> mpmath.mpf:
    """E|X|**p for a symmetric mass function mass_fn(i) (unnormalised), by summation."""
    b = mpmath.exp(-mpmath.mpf(eps))
    n = _periods(b) * int(Delta) + 5
    masses = [mass_fn(i) for i in range(1, n)]
    total = mass_fn(0) + 2 * mpmath.fsum(masses)
    moment = 2 * mpmath.fdot(masses, _lattice_powers(n, mpmath.mpf(p), mpmath.mp.prec))
    return moment / total


def discrete_staircase_mass(eps, Delta: int, r: int):
    """The unnormalised discrete staircase mass function (000, Part One, discrete setting)."""
    b = mpmath.exp(-mpmath.mpf(eps))
    powers: dict[int, mpmath.mpf] = {}  # b**k, once per period k

    def mass(i: int) -> mpmath.mpf:
        k, j = divmod(abs(i), Delta)
        if k not in powers:
            powers[k] = b**k
        return powers[k] * (1 if j < r else b)

    return mass


def discrete_laplace_mass(eps, Delta: int):
    """The unnormalised discrete Laplace mass function, lambda**|i|, lambda = e^{-eps/Delta}."""
    lam = mpmath.exp(-mpmath.mpf(eps) / Delta)
    return lambda i: lam ** abs(i)


def minimise(fn, lo, hi, grid: int = 24) -> mpmath.mpf:
    """Minimiser of a smooth unimodal-near-optimum fn on [lo, hi]: a grid, then Brent's
    method (parabolic steps through the three best points, a golden-section step whenever
    a parabola is not trusted) inside the grid cells around the best grid point. The
    bracket that holds the minimiser shrinks below 2^(-prec/2 + 6) (1 + |x|)."""
    lo, hi = mpmath.mpf(lo), mpmath.mpf(hi)
    pts = [lo + (hi - lo) * j / grid for j in range(grid + 1)]
    vals = [fn(t) for t in pts]
    j = min(range(len(pts)), key=vals.__getitem__)
    a, c = pts[max(j - 1, 0)], pts[min(j + 1, grid)]
    cgold = (3 - mpmath.sqrt(5)) / 2
    tol = mpmath.mpf(2) ** (-mpmath.mp.prec // 2 + 4)
    x = w = v = pts[j]
    fx = fw = fv = vals[j]
    d = e = mpmath.mpf(0)
    while True:
        mid = (a + c) / 2
        tol1 = tol * (1 + abs(x))
        if abs(x - mid) <= 2 * tol1 - (c - a) / 2:
            return x
        parabolic = False
        if abs(e) > tol1:  # the parabola through (v, w, x): its vertex is x + num / den
            r = (x - w) * (fx - fv)
            q = (x - v) * (fx - fw)
            num, den = (x - v) * q - (x - w) * r, 2 * (q - r)
            if den > 0:
                num = -num
            den, e_prev, e = abs(den), e, d
            # trusted only inside the bracket and moving less than half the step before last
            if abs(num) < abs(den * e_prev / 2) and den * (a - x) < num < den * (c - x):
                d = num / den
                parabolic = True
                if (x + d) - a < 2 * tol1 or c - (x + d) < 2 * tol1:
                    d = tol1 if mid >= x else -tol1
        if not parabolic:
            e = (a if x >= mid else c) - x
            d = cgold * e
        u = x + (d if abs(d) >= tol1 else (tol1 if d > 0 else -tol1))
        fu = fn(u)
        if fu <= fx:
            if u >= x:
                a = x
            else:
                c = x
            v, w, x, fv, fw, fx = w, x, u, fw, fx, fu
        else:
            if u < x:
                a = u
            else:
                c = u
            if fu <= fw or w == x:
                v, w, fv, fw = w, u, fw, fu
            elif fu <= fv or v in (x, w):
                v, fv = u, fu


def near_tie_eps(optimum, digits: int) -> tuple:
    """(eps, want, scale): a rational eps near 1 at which ``optimum`` (a decreasing
    function of eps, computed from the definition at the working precision) lies within
    10^-(digits+3) of a midpoint between two ``digits``-digit decimals, the decimal it
    must round to, and one unit in the last digit. The midpoint is the one next to
    ``optimum(1)``; eps is found by a secant on eps and rationalised to 25 digits."""
    from fractions import Fraction

    v0 = optimum(mpmath.mpf(1))
    scale = mpmath.mpf(10) ** (int(mpmath.floor(mpmath.log10(v0))) - digits + 1)
    boundary = (mpmath.floor(v0 / scale) + mpmath.mpf(1) / 2) * scale  # a midpoint
    t = mpmath.findroot(lambda s: optimum(s) - boundary,
                        (mpmath.mpf(1), mpmath.mpf("1.0000001")))
    e = Fraction(mpmath.nstr(t, 25, min_fixed=-1, max_fixed=2))
    exact = optimum(mpmath.mpf(e.numerator) / e.denominator)
    gap = exact - boundary
    assert 0 < abs(gap) < mpmath.mpf(10) ** -(digits + 3) * exact  # a near tie
    return e, (boundary + scale / 2 if gap > 0 else boundary - scale / 2), scale
