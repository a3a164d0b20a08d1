"""Independent reference computations, written from the source definitions.

Nothing here uses dpsym's engine: each density is coded directly from its definition in
the source texts, normalised numerically, and its moments are computed by mpmath
quadrature (continuous) or direct summation (lattice), period by period, until the
remaining geometric tail is below the working precision. The optimal free parameter is
found by minimising that numeric cost. Callers set the precision with ``mpmath.workdps``.
"""

from __future__ import annotations

import mpmath


def _periods(b: mpmath.mpf) -> int:
    """Periods after which b**K is below the working precision (with margin)."""
    return int(mpmath.ceil((mpmath.mp.prec + 40) * mpmath.log(2) / -mpmath.log(b))) + 2


def staircase_half_integral(eps, Delta, gamma, p, quad: bool = False
                            ) -> tuple[mpmath.mpf, mpmath.mpf]:
    """(mass, p-th moment) of the *unnormalised* staircase density on [0, oo).

    The density is 1 on [k D, (k + gamma) D) and b on [(k + gamma) D, (k + 1) D), times
    b**k (000, Part One). The integral of x**p over each step is its elementary
    antiderivative, or mpmath.quad with ``quad=True``; the periods are summed directly.
    """
    eps, Delta, gamma = mpmath.mpf(eps), mpmath.mpf(Delta), mpmath.mpf(gamma)
    b = mpmath.exp(-eps)
    mass = mpmath.mpf(0)
    moment = mpmath.mpf(0)
    for k in range(_periods(b)):
        for lo, hi, level in ((k, k + gamma, 1), (k + gamma, k + 1, b)):
            if hi <= lo:
                continue
            weight = b**k * level
            mass += weight * (hi - lo) * Delta
            if quad:
                piece = mpmath.quad(lambda x: x**p, [lo * Delta, hi * Delta])
            else:
                piece = ((hi * Delta) ** (p + 1) - (lo * Delta) ** (p + 1)) / (p + 1)
            moment += weight * piece
    return mass, moment


def staircase_cost(eps, Delta, gamma, p, quad: bool = False) -> mpmath.mpf:
    """E|X|**p of the staircase noise with step fraction gamma."""
    mass, moment = staircase_half_integral(eps, Delta, gamma, p, quad)
    return moment / mass


def staircase_cost_by_sympy_sum(eps, Delta, gamma, p: int, dps: int) -> mpmath.mpf:
    """E|X|**p of the staircase for integer p, for any eps (also eps -> 0).

    The sum over periods is done by ``sympy.summation`` (its own geometric-series rules,
    independent of dpsym's), the integral over each step by ``sympy.integrate``; the
    result is evaluated with ``evalf`` at ``dps`` digits from exact inputs.
    """
    import sympy as sp

    k = sp.Symbol("k", integer=True, nonnegative=True)
    x = sp.Symbol("x", positive=True)
    bb = sp.Symbol("bb", positive=True)
    gam, D = sp.Rational(gamma), sp.Rational(Delta)
    pieces = ((k * D, (k + gam) * D, 1), ((k + gam) * D, (k + 1) * D, bb))
    mass = sum(sp.integrate(lvl, (x, lo, hi)) for lo, hi, lvl in pieces)
    mom = sum(sp.integrate(lvl * x**p, (x, lo, hi)) for lo, hi, lvl in pieces)

    def total(expr):
        s = sp.summation(sp.expand(bb**k * expr), (k, 0, sp.oo))
        return s.args[0][0] if isinstance(s, sp.Piecewise) else s

    ratio = sp.cancel(total(mom) / total(mass))
    value = ratio.subs(bb, sp.exp(-sp.Rational(eps)))
    with mpmath.workdps(dps):
        return mpmath.mpf(str(sp.N(value, dps)))


def laplace_cost(eps, Delta, p) -> mpmath.mpf:
    """E|X|**p of Laplace noise with scale Delta / eps, by quadrature of the density."""
    lam = mpmath.mpf(Delta) / mpmath.mpf(eps)
    return 2 * mpmath.quad(lambda x: x**p * mpmath.exp(-x / lam) / (2 * lam), [0, lam, mpmath.inf])


def lattice_cost(mass_fn, p, eps, Delta) -> mpmath.mpf:
    """E|X|**p for a symmetric mass function mass_fn(i) (unnormalised), by summation."""
    b = mpmath.exp(-mpmath.mpf(eps))
    n = _periods(b) * int(Delta) + 5
    total = mass_fn(0)
    moment = mpmath.mpf(0)
    for i in range(1, n):
        m = mass_fn(i)
        total += 2 * m
        moment += 2 * m * mpmath.mpf(i) ** p
    return moment / total


def discrete_staircase_mass(eps, Delta: int, r: int):
    """The unnormalised discrete staircase mass function (000, Part One, discrete setting)."""
    b = mpmath.exp(-mpmath.mpf(eps))

    def mass(i: int) -> mpmath.mpf:
        k, j = divmod(abs(i), Delta)
        return b**k * (1 if j < r else b)

    return mass


def discrete_laplace_mass(eps, Delta: int):
    """The unnormalised discrete Laplace mass function, lambda**|i|, lambda = e^{-eps/Delta}."""
    lam = mpmath.exp(-mpmath.mpf(eps) / Delta)
    return lambda i: lam ** abs(i)


def minimise(fn, lo, hi, grid: int = 24) -> mpmath.mpf:
    """Minimiser of a smooth unimodal-near-optimum fn on [lo, hi]: grid, then golden section."""
    lo, hi = mpmath.mpf(lo), mpmath.mpf(hi)
    pts = [lo + (hi - lo) * j / grid for j in range(grid + 1)]
    vals = [fn(t) for t in pts]
    j = min(range(len(pts)), key=vals.__getitem__)
    a, c = pts[max(j - 1, 0)], pts[min(j + 1, grid)]
    invphi = (mpmath.sqrt(5) - 1) / 2
    x1, x2 = c - invphi * (c - a), a + invphi * (c - a)
    f1, f2 = fn(x1), fn(x2)
    tol = mpmath.mpf(2) ** (-mpmath.mp.prec // 2 + 4)
    while c - a > tol * (1 + abs(a)):
        if f1 < f2:
            c, x2, f2 = x2, x1, f1
            x1 = c - invphi * (c - a)
            f1 = fn(x1)
        else:
            a, x1, f1 = x1, x2, f2
            x2 = a + invphi * (c - a)
            f2 = fn(x2)
    return (a + c) / 2


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
