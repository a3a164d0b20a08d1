r"""Section 6 of the paper: the maximum of the cost ratio truncated Laplacian / optimal
(analytic) Gaussian over the figures' domain, enclosed by a rigorous branch-and-bound.

The ratios (:math:`\Delta = 1`, both independent of :math:`\Delta`):

.. math::
    R_1(\varepsilon, \delta) = \frac{\mathbb{E}|X_{\mathrm{TLap}}|}{\sigma^*\sqrt{2/\pi}}
    = \sqrt{\tfrac{\pi}{2}}\,\frac{F(c)}{\varepsilon}\,\mu, \qquad
    R_2(\varepsilon, \delta) = \frac{\mathbb{E}X_{\mathrm{TLap}}^2}{\sigma^{*2}}
    = \frac{G(c)}{\varepsilon^2}\,\mu^2,

with :math:`c = (e^\varepsilon - 1)/(2\delta)`, :math:`L = \log(1 + c)`,
:math:`F(c) = 1 - L/c`, :math:`G(c) = 2 - (L^2 + 2L)/c` (the engine's closed forms,
rewritten) and :math:`\mu = 1/\sigma^*` the root of :math:`g(\mu; \varepsilon) =
\Phi(-x) - e^\varepsilon\Phi(-y) = \delta`, :math:`x = \varepsilon/\mu - \mu/2`,
:math:`y = x + \mu` (the Gaussian profile at :math:`\Delta/\sigma = \mu`).

**Coordinates.** :math:`s = \log\varepsilon`, :math:`t = \log\delta`,
:math:`\lambda = \log\mu`, :math:`u = \log c = \phi(s) - t` with
:math:`\phi(s) = \log((e^{\varepsilon} - 1)/2)`, and :math:`\ell(u) = \log H(e^u)`
(:math:`H = F` or :math:`G`), so that :math:`\log R_k = \log C_k + \ell(u) + k(\lambda - s)`.

The facts the bounds use, each decided by sympy in :func:`reduction`:

* :math:`\partial g/\partial\mu = \varphi(x) > 0`, :math:`\partial g/\partial\varepsilon =
  -e^\varepsilon\Phi(-y) < 0` (:math:`\Phi^{\prime} = \varphi > 0`, :math:`\Phi(-\infty) =
  0`): :math:`\mu` increases with :math:`\varepsilon` and with :math:`\delta`; :math:`c`
  increases with :math:`\varepsilon` and decreases with :math:`\delta`;
* :math:`e^\varepsilon\varphi(y) = \varphi(x)`, so with the Mills ratio
  :math:`R(z) = \Phi(-z)/\varphi(z)` the implicit derivatives are
  :math:`\lambda_s = \varepsilon R(y)/\mu` and :math:`\lambda_t = (R(x) - R(y))/\mu =
  \delta/(\mu\varphi(x))`;
* :math:`R^{\prime} = zR - 1 < 0` (:math:`(\varphi(z)/z - \Phi(-z))^{\prime} =
  -\varphi/z^2`, limit 0): :math:`R` decreases, :math:`0 < -R^{\prime}(z) < 1` for
  :math:`z > 0`. With :math:`K = \varepsilon/\mu`, :math:`x_s = K(-R^{\prime}(y))`,
  :math:`y_s = K(-R^{\prime}(y) + \mu R(y))`, :math:`x_t = -\lambda_t y`,
  :math:`y_t = -\lambda_t x` (the derivatives of :math:`x, y`; so :math:`x` increases with
  :math:`\varepsilon` and decreases with :math:`\delta`, :math:`y` increases with
  :math:`\varepsilon` and with :math:`\delta` where :math:`x < 0`, decreases with it where
  :math:`x > 0`; and :math:`K` increases with :math:`\varepsilon`, as
  :math:`\lambda_s = KR(y) < yR(y) < 1`, and decreases with :math:`\delta`):
  :math:`\lambda_{ss} = \lambda_s(1 - \lambda_s) - x_s y_s`,
  :math:`\lambda_{st} = -\lambda_s\lambda_t - x_s y_t`,
  :math:`\lambda_{tt} = \lambda_t(1 - \lambda_t) - x_t y_t`;
* :math:`\partial_s\log R_k = \ell^{\prime}\psi - k + k\lambda_s`,
  :math:`\partial_t\log R_k = -\ell^{\prime} + k\lambda_t`, and the Hessian
  :math:`(\ell^{\prime\prime}\psi^2 + \ell^{\prime}\psi_2 + k\lambda_{ss},
  -\ell^{\prime\prime}\psi + k\lambda_{st}, \ell^{\prime\prime} + k\lambda_{tt})`, with
  :math:`\psi = \phi^{\prime} = \varepsilon e^\varepsilon/(e^\varepsilon - 1)` and
  :math:`\psi_2 = \phi^{\prime\prime} = \psi(1 - \varepsilon/(e^\varepsilon - 1))`, both
  increasing in :math:`\varepsilon` (the chain rule, checked on abstract functions);
* :math:`H = D/c`, :math:`H^{\prime} = N/c^2` (the engine's closed forms), with, for
  :math:`F`, :math:`N = L - c/(1+c)`, :math:`D = c - L = E_2(L)`; for :math:`G`,
  :math:`N = L^2 + 2L - 2c(L+1)/(1+c)`, :math:`D = 2c - L^2 - 2L = 2E_3(L)`, where
  :math:`E_m(v) = e^v - \sum_{n<m} v^n/n! = \sum_{n \ge m} v^n/n!` (so
  :math:`E_m^{\prime} = E_{m-1}`, positive and increasing for :math:`v > 0`); :math:`N(0) = 0`
  and :math:`N^{\prime} = c/(1+c)^2`, resp. :math:`2cL/(1+c)^2`, are positive: :math:`F, G`
  increase.

So :math:`\ell = \log D(v) - u` with :math:`v = \log(1 + e^u)`, and its derivatives come
from :math:`E_m` without the cancellation of :math:`c - L` and :math:`2c - L^2 - 2L` for small
:math:`c`: :math:`E_m` is summed as its series (positive terms) below 4 and as
:math:`e^v` minus the polynomial above (or at a point above 1/16), and
:math:`\ell^{\prime} = E_{m-1}(v)/E_m(v)\cdot c/(1+c) - 1` at a point.

**The bounds.** On a box :math:`[\varepsilon_0, \varepsilon_1]\times[\delta_0, \delta_1]`
(split in :math:`(s, t)`) two upper bounds are computed in Arb and the smaller is kept: the
*corner bound* :math:`R_k \le C_k\,H(c(\varepsilon_1, \delta_0))\,\mu(\varepsilon_1,
\delta_1)^k/\varepsilon_0^k` (each factor monotone), and the *Taylor bound*
:math:`\log R_k(p + d) \le \log R_k(p) + \nabla\log R_k(p)\cdot d + \tfrac12 d^{\top}
\mathcal H d`, :math:`p` the box's centre, the gradient enclosed at :math:`p` and the
Hessian :math:`\mathcal H` over the box: :math:`\mu, K, x, y` over the box from its
corners (the monotonicity above), :math:`R` and :math:`-R^{\prime}` of an interval from its
end points and a mean-value form, :math:`\psi, \psi_2` from the end points,
:math:`\ell^{\prime}, \ell^{\prime\prime}` as the union over the two to four cells in
:math:`u` that cover the box's range, each no wider than it and enclosed once: from width
1/32 down by the Taylor expansion of :math:`\ell` at the cell's centre to order 6 (series
arithmetic in Arb, :math:`D(v_0 + w) = \sum_k D^{(k)}(v_0)w^k/k!`), its last coefficient
enclosed over the whole cell; wider cells (up to width 1) as the union of their halves.
The maximum of the quadratic over the box is bounded
coordinate by coordinate (the diagonal term by its upper end, which may be negative) plus
:math:`|\mathcal H_{st}|r_s r_t`. :math:`\mu` at a point is enclosed by a float root
bracketed in Arb (:math:`g(\mu_-) < \delta < g(\mu_+)`).

**The search.** A float search (a grid, then coordinate-wise golden sections) proposes a
point, where the ratio is certified: the first lower value. Boxes are split best first; a
box is dropped once its upper bound is below the best certified value (the ratio at a
box's centre, or at the proposed point); the search stops when every box left is below that
value plus the tolerance. The boxes that may still hold a value above the certified one are
then split down to log-widths of 0.01 (or excluded): their hull locates the maximiser.
"""

from __future__ import annotations

import functools
import heapq
import math
import time
from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction
from typing import TypeVar

import flint
import sympy as sp

from dpsym.claims.decide import vanishes
from dpsym.core.params import parameter_symbols
from dpsym.gaussian.enclosures import (
    PROFILE,
    Phi,
    mills,
    mills_slope,
    normal_pdf,
    phi,
    sigma,
)
from dpsym.gaussian.loss import gaussian_delta
from dpsym.mechanisms import TruncatedLaplace
from dpsym.precision import arb_workprec
from dpsym.symbols import Delta, eps, in_eps

EPS_DOMAIN, DELTA_DOMAIN = ("1e-4", "10"), ("1e-6", "0.1")
_PREC = 64
#: the order of the Taylor expansions of ell on the cells of u
_ORDER = 6

T = TypeVar("T", sp.Expr, flint.arb)

# ----------------------------------------------------------------------------- reduction

_s, _t = sp.symbols("s t", real=True)
_E = sp.exp(_s)


class _Mills(sp.Function):
    """The Mills ratio R as an abstract function with R'(z) = z R(z) - 1."""

    def fdiff(self, argindex: int = 1) -> sp.Expr:
        z = self.args[0]
        return z * _Mills(z) - 1


class _Mu(sp.Function):
    r"""mu(s, t) as an abstract function with the implicit derivatives
    :math:`\mu_s = \varepsilon R(y)`, :math:`\mu_t = R(x) - R(y)`."""

    def fdiff(self, argindex: int = 1) -> sp.Expr:
        x, y = _E / self - self / 2, _E / self + self / 2
        return _E * _Mills(y) if argindex == 1 else _Mills(x) - _Mills(y)


class _Ell2(sp.Function):
    """ell''(u), abstract."""


class _Ell1(sp.Function):
    """ell'(u), abstract."""

    def fdiff(self, argindex: int = 1) -> sp.Expr:
        return _Ell2(self.args[0])


class _Ell(sp.Function):
    """ell(u) = log H(e^u), abstract."""

    def fdiff(self, argindex: int = 1) -> sp.Expr:
        return _Ell1(self.args[0])


def _lambda_hessian(K: T, m: T, x: T, y: T, ry: T, mdry: T, lt: T) -> tuple[T, T, T, T]:
    r"""(:math:`\lambda_s, \lambda_{ss}, \lambda_{st}, \lambda_{tt}`) from
    :math:`K = \varepsilon/\mu`, :math:`\mu`, :math:`x`, :math:`y`, :math:`R(y)`,
    :math:`-R^{\prime}(y)` and :math:`\lambda_t` (sympy expressions, or balls enclosing
    them over a box): the module's formulas, written once."""
    ls = K * ry
    xs, ys, xt, yt = K * mdry, K * (mdry + m * ry), -lt * y, -lt * x
    return ls, ls * (1 - ls) - xs * ys, -ls * lt - xs * yt, lt * (1 - lt) - xt * yt


#: D = c H(c) = scale E_m(L) for F (power 1) and G (power 2): (m, scale)
_REST = {1: (2, 1), 2: (3, 2)}


def _cost_parts(c: sp.Expr, L: sp.Expr, power: int) -> tuple[sp.Expr, sp.Expr]:
    """(N, D) of the module docstring for F (power 1) or G (power 2)."""
    if power == 1:
        return L - c / (1 + c), c - L
    return L**2 + 2 * L - 2 * c * (L + 1) / (1 + c), 2 * c - L**2 - 2 * L


def _zero(expr: sp.Expr) -> bool:
    """Whether ``expr`` is identically zero, decided as a rational function of its
    generators (the exponentials and symbols in it): the numerator of its normal form over
    one denominator, with the powers of exponentials combined, expands to 0."""
    return sp.expand(sp.powsimp(sp.expand(sp.numer(sp.together(expr))))) == 0


@functools.cache
def reduction() -> dict[str, bool]:
    """The identities and signs the bounds rest on, decided by sympy (see the module)."""
    e, m, c, z = sp.symbols("epsilon mu c z", positive=True)
    w = sp.Symbol("w", real=True)
    x, y = e / m - m / 2, e / m + m / 2
    g = PROFILE.subs({sigma: 1}).subs({Delta: m, eps: e})
    out = {"g = Phi(-x) - e^eps Phi(-y)": vanishes(
               g - (Phi(-x) - sp.exp(e) * Phi(-y))),
           "dg/dmu = phi(x)": _zero(sp.diff(g, m) - phi(x)),
           "dg/deps = -e^eps Phi(-y)": vanishes(sp.diff(g, e) + sp.exp(e) * Phi(-y)),
           # phi > 0; Phi increases (Phi' = phi) from Phi(-oo) = (1 + erf(-oo))/2 = 0
           "phi > 0, Phi' = phi, Phi(-oo) = 0": bool(
               phi(w).is_positive and _zero(sp.diff(Phi(w), w) - phi(w))
               and Phi(w).subs(w, -sp.oo) == 0),
           # e^eps phi(y) / phi(x) = exp(eps - (y^2 - x^2)/2) = 1
           "e^eps phi(y) = phi(x)": sp.expand(e - y**2 / 2 + x**2 / 2) == 0}
    R = Phi(-w) / phi(w)
    # q decreases to 0 (e^{-z^2/2}/z -> 0, erf(-oo) = -1): q > 0, i.e. z R(z) < 1 for z > 0
    q = phi(z) / z - Phi(-z)
    out["R' = zR - 1 < 0"] = bool(
        vanishes(sp.diff(R, w) - (w * R - 1))
        and vanishes(sp.diff(q, z) + phi(z) / z**2) and q.subs(z, sp.oo) == 0)
    # the chain rule on abstract functions: mu with its implicit derivatives, R' = zR - 1
    mu = _Mu(_s, _t)
    K = _E / mu
    xm, ym = K - mu / 2, K + mu / 2
    lt = (_Mills(xm) - _Mills(ym)) / mu
    ls, lss, lst, ltt = _lambda_hessian(K, mu, xm, ym, _Mills(ym), 1 - ym * _Mills(ym), lt)
    lam = (ls, lt, lss, lst, ltt)
    want = {(_s,): ls, (_t,): lt, (_s, _s): lss, (_s, _t): lst, (_t, _s): lst, (_t, _t): ltt}
    out["the derivatives of lambda = log mu"] = all(
        sp.cancel(sp.expand(sp.diff(sp.log(mu), *v) - d)) == 0 for v, d in want.items())
    k = sp.Symbol("k", positive=True)
    phis = sp.log((sp.exp(_E) - 1) / 2)
    psi = _E * sp.exp(_E) / (sp.exp(_E) - 1)
    psi2 = psi * (1 - _E / (sp.exp(_E) - 1))
    u = phis - _t
    f = _Ell(u) + k * (sp.log(mu) - _s)
    l1, l2 = _Ell1(u), _Ell2(u)
    want = {(_s,): l1 * psi - k + k * lam[0], (_t,): -l1 + k * lam[1],
            (_s, _s): l2 * psi**2 + l1 * psi2 + k * lam[2], (_s, _t): -l2 * psi + k * lam[3],
            (_t, _t): l2 + k * lam[4]}
    W = sp.Symbol("W", positive=True)
    out["phi' = psi, phi'' = psi_2"] = bool(
        _zero((sp.diff(phis, _s) - psi).subs(sp.exp(_E), W))
        and _zero((sp.diff(psi, _s) - psi2).subs(sp.exp(_E), W)))
    out["the gradient and Hessian of log R"] = all(
        sp.cancel(sp.expand((sp.diff(f, *v) - d).subs(sp.exp(_E), W))) == 0
        for v, d in want.items())
    # psi = e e^e/(e^e - 1): psi' = e^e (e^e - 1 - e)/(e^e - 1)^2 and e^e - 1 - e increases
    # from 0; B = e/(e^e - 1): B' = (e^e - 1 - e e^e)/(e^e - 1)^2, whose numerator decreases
    # from 0: psi increases, 1 - B in (0, 1) increases, and so does psi_2 = psi (1 - B)
    B = e / (sp.exp(e) - 1)
    nB = sp.exp(e) - 1 - e * sp.exp(e)
    psi_e = e * sp.exp(e) / (sp.exp(e) - 1)
    out["psi, 1 - B increasing"] = bool(
        _zero(sp.diff(psi_e, e) - sp.exp(e) * (sp.exp(e) - 1 - e) / (sp.exp(e) - 1)**2)
        and sp.diff(sp.exp(e) - 1 - e, e).subs(sp.exp(e), 1 + z).is_positive
        and (sp.exp(e) - 1 - e).subs(e, 0) == 0
        and _zero(sp.diff(B, e) - nB / (sp.exp(e) - 1)**2)
        and sp.diff(nB, e).is_negative and nB.subs(e, 0) == 0)
    # the costs: the engine's closed forms, N, D, their derivatives, monotonicity
    sym = parameter_symbols(TruncatedLaplace)
    ee, dd = sym["eps"], sym["delta"]
    cc = (sp.exp(ee) - 1) / (2 * dd)
    L = sp.log(1 + c)
    yy = sp.Symbol("y", positive=True)  # e^eps = 1 + y, y > 0 for eps > 0
    out["c increasing in eps, decreasing in delta"] = bool(
        sp.diff(cc, ee).is_positive and sp.diff(cc, dd).subs(sp.exp(ee), 1 + yy).is_negative)
    v = sp.Symbol("v", positive=True)
    for name, power in (("amplitude", 1), ("power", 2)):
        N, D = _cost_parts(c, L, power)
        H = D / c
        m_rest, scale = _REST[power]
        rest = sp.exp(v) - sum(v**n / sp.factorial(n) for n in range(m_rest))
        closed = in_eps(TruncatedLaplace.formula("cost", name)).subs(sym["Delta"], 1)
        out[f"{name}: cost = H(c)/eps^{power}, H = D/c, H' = N/c^2"] = bool(
            vanishes(closed - (H / ee**power).subs(c, cc))
            and sp.cancel(sp.diff(H, c) - N / c**2) == 0)
        out[f"{name}: N(0) = 0, N' > 0 (H increasing)"] = bool(
            N.subs(c, 0) == 0 and sp.factor(sp.diff(N, c)).is_positive)
        out[f"{name}: D = {scale} E_{m_rest}(L), c = e^L - 1"] = vanishes(
            D.subs(c, sp.exp(v) - 1) - scale * rest)
    # E_m(v) = e^v - sum_{n<m} v^n/n! = sum_{n>=m} v^n/n!: E_m' = E_{m-1}, increasing
    out["E_m' = E_(m-1)"] = all(
        sp.expand(sp.diff(sp.exp(v) - sum(v**n / sp.factorial(n) for n in range(m)), v)
                  - (sp.exp(v) - sum(v**n / sp.factorial(n) for n in range(m - 1)))) == 0
        for m in range(1, 4))
    return out


# ----------------------------------------------------------------------------- Arb pieces

_SQRT2 = math.sqrt(2)


def _g_float(mu: float, e: float) -> float:
    r"""g(mu; eps) in floats (:data:`~dpsym.gaussian.enclosures.PROFILE` at
    :math:`\Delta/\sigma = \mu`): only the starting point of the root's bracket, which
    :func:`_g_arb` decides."""
    a, b = mu / 2 - e / mu, -mu / 2 - e / mu
    return 0.5 * math.erfc(-a / _SQRT2) - math.exp(e) * 0.5 * math.erfc(-b / _SQRT2)


def _g_arb(mu: flint.arb, e: flint.arb) -> flint.arb:
    r"""g(mu; eps) in balls: the profile of the privacy loss :math:`N(m, 2m)`,
    :math:`m = \mu^2/2` (:func:`dpsym.gaussian.loss.gaussian_delta`)."""
    return gaussian_delta(mu * mu / 2, e)


def _root_float(ef: float, df: float, lo: float = 1e-12, hi: float = 1e3) -> float:
    """The root of g(mu; eps) = delta in floats: safeguarded Newton (g' = phi(a)) inside a
    bracket (default [1e-12, 1e3]) that bisection in log mu shrinks whenever a Newton step
    leaves it."""
    mu = math.sqrt(lo * hi)
    for _ in range(200):
        val = _g_float(mu, ef) - df
        if val < 0:
            lo = mu
        else:
            hi = mu
        a = mu / 2 - ef / mu
        slope = math.exp(-a * a / 2) / math.sqrt(2 * math.pi)
        nxt = mu - val / slope if slope > 0 else -1.0
        if not lo < nxt < hi:
            nxt = math.sqrt(lo * hi)
        if abs(nxt - mu) <= 1e-15 * mu:
            return nxt
        mu = nxt
    return mu


#: mu enclosures by the exact (mantissa, exponent) of the balls' midpoints and radii.
_MU_CACHE: dict[tuple, flint.arb] = {}


def _mu(e: flint.arb, d: flint.arb, hint: tuple[float, float] | None = None) -> flint.arb:
    """mu(eps, delta) enclosed for every eps in the ball ``e`` and delta in ``d``: a float
    root of g = delta (safeguarded Newton, inside the bracket ``hint`` when given),
    bracketed in Arb by g(mu-) < delta < g(mu+) (g increasing in mu, continuous); the ball
    is the hull of [mu-, mu+]. (The balls are box end points: exact floats, or the tiny
    balls of the domain's decimal ends, so the float mid-points and radii identify them.)"""
    ef, df = float(e.mid()), float(d.mid())
    key = (ef, float(e.rad()), df, float(d.rad()), flint.ctx.prec)
    if key in _MU_CACHE:
        return _MU_CACHE[key]
    mu0 = _root_float(ef, df, *(hint or (1e-12, 1e3)))
    for eta in (1e-13, 1e-10, 1e-7, 1e-4, 1e-2):
        m_lo, m_hi = flint.arb(mu0 * (1 - eta)), flint.arb(mu0 * (1 + eta))
        if _g_arb(m_lo, e) < d and _g_arb(m_hi, e) > d:
            _MU_CACHE[key] = m_lo.union(m_hi)
            return _MU_CACHE[key]
    raise ArithmeticError(f"mu not bracketed at eps = {ef}, delta = {df}")


@dataclass(frozen=True)
class _Cost:
    name: str
    power: int
    const: Callable[[], flint.arb]
    H: Callable[[flint.arb], flint.arb]


def _exp_rest(m: int, v: flint.arb) -> flint.arb:
    r""":math:`E_m(v) = e^v - \sum_{n<m} v^n/n! = \sum_{n \ge m} v^n/n!` over the ball
    ``v`` (:math:`v > 0`): at a point above 1/16 :math:`e^v` minus the polynomial; else up
    to 4 the series (positive terms, so no cancellation and a tight enclosure of a ball; the
    tail after the last term kept bounded by a geometric series); else from the ends of the
    ball (:math:`E_m` increases)."""
    if m <= 0:
        return v.exp()
    thin = v.rad() <= v.mid() * 2.0 ** -40
    if thin and v > flint.arb(1) / 16:  # the subtraction loses at most 4m bits
        return v.exp() - sum((v ** n / math.factorial(n) for n in range(m)), flint.arb(0))
    if v.upper() <= 4:
        term = v ** m / math.factorial(m)
        total, n = term, m
        small = flint.arb(2) ** -(flint.ctx.prec + 8)
        while n < 2 * m + 8 or term.upper() > small * total.lower():
            n += 1
            term = term * v / n
            total += term
        tail = term * v / (n + 1) / (1 - v / (n + 2))
        return total + flint.arb(0, tail.upper())
    return _exp_rest(m, v.lower()).union(_exp_rest(m, v.upper()))


def _H(power: int) -> Callable[[flint.arb], flint.arb]:
    """H(c) = scale E_m(log(1 + c))/c (F for power 1, G for power 2)."""
    m, scale = _REST[power]
    return lambda c: scale * _exp_rest(m, c.log1p()) / c


COSTS = {"amplitude": _Cost("amplitude", 1, lambda: (flint.arb.pi() / 2).sqrt(), _H(1)),
         "power": _Cost("power", 2, lambda: flint.arb(1), _H(2))}


def _c(e: flint.arb, d: flint.arb) -> flint.arb:
    return e.expm1() / (2 * d)


def log_ratio(cost: _Cost, e: flint.arb, d: flint.arb,
              hint: tuple[float, float] | None = None) -> flint.arb:
    """log R_k at a point (balls e, d), mu enclosed (``hint``: a float bracket of mu)."""
    return (cost.const().log() + cost.H(_c(e, d)).log()
            + cost.power * (_mu(e, d, hint).log() - e.log()))


# ---------------------------------------------------------------- ell' and ell'' of a cost

def _ell_taylor(power: int, c0: flint.arb) -> list[flint.arb]:
    r"""The Taylor coefficients :math:`\ell^{(j)}(u)/j!`, :math:`1 \le j \le` ``_ORDER``
    (index 0 unused), at :math:`c = e^u` in the ball ``c0``, each an enclosure for every
    point of the ball: series arithmetic in :math:`x` with :math:`c = c_0e^x`,
    :math:`v = \log(1 + c) = v_0 + w`, :math:`D(v_0 + w) = \sum_k D^{(k)}(v_0)w^k/k!`
    (:math:`D^{(k)} = \mathrm{scale}\,E_{m-k}`, positive and increasing: over the ball
    from its end points) and :math:`\ell = \log D - \log c`."""
    n = _ORDER + 1
    x = flint.arb_series([0, 1], prec=n)
    vs = (x.exp() * c0 + 1).log()
    coeffs = vs.coeffs()
    w = flint.arb_series([flint.arb(0), *coeffs[1:]], prec=n)
    m, scale = _REST[power]
    v0 = coeffs[0]
    D = flint.arb_series([0], prec=n)
    wk = flint.arb_series([1], prec=n)
    for k in range(n):
        D += wk * (scale * _exp_rest(m - k, v0) / math.factorial(k))
        wk *= w
    return (D.log() - x).coeffs()


def _ell1(power: int, c: flint.arb) -> flint.arb:
    r""":math:`\ell^{\prime}` at a point: :math:`\ell = \log D(v) - u`,
    :math:`dv/du = c/(1 + c)`, :math:`D^{\prime} = \mathrm{scale}\,E_{m-1}`."""
    m, _ = _REST[power]
    v = c.log1p()
    return _exp_rest(m - 1, v) / _exp_rest(m, v) * c / (1 + c) - 1


def _cell_ends(level: int, i: int) -> tuple[flint.arb, flint.arb, flint.arb]:
    """c at the ends and the u of the centre of the cell u in [i, i + 1] 2^-level."""
    scale = flint.arb(2) ** -level
    return ((flint.arb(i) * scale).exp(), (flint.arb(i + 1) * scale).exp(),
            flint.arb(2 * i + 1) * scale / 2)


@functools.cache
def _ell_cell(power: int, level: int, i: int, prec: int) -> tuple[flint.arb, flint.arb]:
    r"""ell', ell'' over the cell :math:`u \in [i, i + 1]2^{-\mathrm{level}}`: from level
    5 on the Taylor expansion at the centre, the last term's coefficient enclosed over the
    cell; the union of the two halves on levels 0 to 4; not enclosed above (wider cells)."""
    if level < 0:
        return flint.arb.nan(), flint.arb.nan()
    if level < 5:
        a, b = _ell_cell(power, level + 1, 2 * i, prec), _ell_cell(power, level + 1, 2 * i + 1,
                                                                    prec)
        return a[0].union(b[0]), a[1].union(b[1])
    lo, hi, centre = _cell_ends(level, i)
    at = _ell_taylor(power, centre.exp())
    last = _ell_taylor(power, lo.union(hi))[_ORDER]
    r = flint.arb(2) ** -level / 2
    n = _ORDER

    def t(j: int) -> flint.arb:  # (u - centre)^j over the cell
        return flint.arb(0, (r ** j).upper()) if j else flint.arb(1)

    l1 = n * last * t(n - 1)
    l2 = n * (n - 1) * last * t(n - 2)
    for j in range(n - 1, 0, -1):
        l1 += j * at[j] * t(j - 1)
        if j >= 2:
            l2 += j * (j - 1) * at[j] * t(j - 2)
    return l1, l2


def _ell_over(power: int, c_lo: flint.arb, c_hi: flint.arb) -> tuple[flint.arb, flint.arb]:
    """ell', ell'' over c in [c_lo, c_hi] (exact end points): the union of the two to four
    cells, of width 2^-level at most that of the range in u, that cover it."""
    u_lo, u_hi = float(c_lo.log().lower()), float(c_hi.log().upper())
    level = min(16, max(-1, math.floor(-math.log2(max(u_hi - u_lo, 2.0**-16)))))
    h = 2.0**-level
    first, last = math.floor(u_lo / h - 1e-9), math.floor(u_hi / h + 1e-9)
    l1, l2 = _ell_cell(power, level, first, flint.ctx.prec)
    for i in range(first + 1, last + 1):
        a, b = _ell_cell(power, level, i, flint.ctx.prec)
        l1, l2 = l1.union(a), l2.union(b)
    return l1, l2


# ------------------------------------------------------------------- the Mills ratio parts

def _psi(e: flint.arb) -> tuple[flint.arb, flint.arb]:
    """psi = phi'(s) and psi_2 = phi''(s) at eps = e."""
    em1 = e.expm1()
    psi = e * e.exp() / em1
    return psi, psi * ((em1 - e) / em1)


def _minus_dR_interval(z: flint.arb, rz: flint.arb) -> flint.arb:
    r""":math:`-R^{\prime}` over the interval ``z`` (``rz`` = R over it): the mean-value form
    around the midpoint (:math:`R^{\prime\prime} = (1 + z^2)R - z`; at the midpoint
    :math:`1 - zR`, which loses at most 6 bits up to 8), intersected with :math:`1 - zR` and,
    for :math:`z > 0`, with :math:`(0, 1)`."""
    m = flint.arb(z.mid())
    at = 1 - m * mills(m) if abs(m) <= 8 else mills_slope(m)
    mean = at - ((1 + z * z) * rz - z) * (z - m)
    for other in (1 - z * rz, flint.arb(0.5, 0.5) if z > 0 else None):
        if other is not None and mean.overlaps(other):
            mean = mean.intersection(other)
    return mean


# ----------------------------------------------------------------------------- the search

@dataclass
class _Box:
    e0: flint.arb
    e1: flint.arb
    d0: flint.arb
    d1: flint.arb
    upper: flint.arb | None = None
    lower: flint.arb | None = None
    point: tuple[flint.arb, flint.arb] | None = None
    split: int = 0


def _geo_mid(lo: flint.arb, hi: flint.arb) -> flint.arb:
    return flint.arb(math.sqrt(float(lo.mid()) * float(hi.mid())))


def _quadratic_max(g: flint.arb, h: flint.arb, r: flint.arb) -> flint.arb:
    r"""An upper bound of :math:`\max_{|d| \le r} (\gamma d + h d^2/2)` for every
    :math:`|\gamma| \le |g|` and curvature at most ``h`` (exact upper ends)."""
    gamma = g.abs_upper()
    if h >= 0:
        return gamma * r + h * r * r / 2
    if gamma < -h * r:
        return gamma * gamma / (-2 * h)
    return gamma * r + h * r * r / 2


def _taylor(cost: _Cost, box: _Box, e: flint.arb, d: flint.arb, mu_p: flint.arb,
            value: flint.arb, MU: flint.arb) -> tuple[flint.arb, int]:
    """The Taylor bound of log R on the box around (e, d), and the coordinate to split."""
    k = cost.power
    # the gradient at the point
    K = e / mu_p
    x = K - mu_p / 2
    l1p = _ell1(k, _c(e, d))
    gs = l1p * _psi(e)[0] - k + k * K * mills(x + mu_p)
    gt = -l1p + k * d / (mu_p * normal_pdf(x))
    # the Hessian over the box
    D = box.d0.union(box.d1)
    # K and x increase with eps and decrease with delta; y increases with eps, and with
    # delta where x < 0, decreases where x > 0: over the box from its corners
    hint = (float(MU.lower()) * (1 - 1e-9), float(MU.upper()) * (1 + 1e-9))
    m01, m10 = _mu(box.e0, box.d1, hint), _mu(box.e1, box.d0, hint)
    k01, k10 = box.e0 / m01, box.e1 / m10
    KB = k01.union(k10)
    X = (k01 - m01 / 2).union(k10 - m10 / 2)
    if X > 0:
        Y = (k01 + m01 / 2).union(k10 + m10 / 2)
    elif X < 0:
        m00, m11 = _mu(box.e0, box.d0), _mu(box.e1, box.d1)
        Y = (box.e0 / m00 + m00 / 2).union(box.e1 / m11 + m11 / 2)
    else:
        Y = KB + MU / 2
    # R decreases: over an interval from its ends
    r_top, r_y, r_x = mills(Y.upper()), mills(Y.lower()), mills(X.lower())
    RY = r_top.union(r_y)
    mY = _minus_dR_interval(Y, RY)
    lt = D / (MU * normal_pdf(X))
    hull = X.union(Y)
    lt_mean = _minus_dR_interval(hull, r_top.union(r_x))
    if lt.overlaps(lt_mean):
        lt = lt.intersection(lt_mean)
    _, lss, lst, ltt = _lambda_hessian(KB, MU, X, Y, RY, mY, lt)
    l1, l2 = _ell_over(k, _c(box.e0, box.d1).lower(), _c(box.e1, box.d0).upper())
    p0, p1 = _psi(box.e0), _psi(box.e1)
    psi, psi2 = p0[0].union(p1[0]), p0[1].union(p1[1])
    hss = l2 * psi * psi + l1 * psi2 + k * lss
    hst = -l2 * psi + k * lst
    htt = l2 + k * ltt
    rs = max((e / box.e0).log().upper(), (box.e1 / e).log().upper())
    rt = max((d / box.d0).log().upper(), (box.d1 / d).log().upper())
    if not all(v.is_finite() for v in (gs, gt, hss, hst, htt)):
        return flint.arb.pos_inf(), 0 if float(rs) >= float(rt) else 1
    ms, mt = _quadratic_max(gs, hss.upper(), rs), _quadratic_max(gt, htt.upper(), rt)
    cross = hst.abs_upper() * rs * rt
    bound = value + ms + mt + cross
    # split the coordinate with the larger second-order term (the linear ones are the
    # ratio's own variation, which splitting does not take off the bound)
    q_s = float((hss.abs_upper() * rs * rs + cross).upper())
    q_t = float((htt.abs_upper() * rt * rt + cross).upper())
    return bound, 0 if q_s >= q_t else 1


def _evaluate(cost: _Cost, box: _Box, floor: flint.arb) -> None:
    """Upper bound (min of the corner and Taylor bounds), the certified value at the
    box's centre, and the coordinate to split; only the corner bound if that is below
    ``floor`` (the box is then dropped)."""
    k = cost.power
    corner = (cost.const() * cost.H(_c(box.e1, box.d0))
              * (_mu(box.e1, box.d1) / box.e0) ** k)
    if corner.upper() < floor:
        box.upper, box.lower, box.point = corner, None, None
        return
    MU = _mu(box.e0, box.d0).union(_mu(box.e1, box.d1))
    e, d = _geo_mid(box.e0, box.e1), _geo_mid(box.d0, box.d1)
    hint = (float(MU.lower()) * (1 - 1e-9), float(MU.upper()) * (1 + 1e-9))
    mu_p = _mu(e, d, hint)
    value = (cost.const().log() + cost.H(_c(e, d)).log() + k * (mu_p.log() - e.log()))
    taylor, box.split = _taylor(cost, box, e, d, mu_p, value, MU)
    taylor = taylor.exp()
    box.upper = corner if not taylor.is_finite() or corner.upper() < taylor.upper() else taylor
    box.lower = value.exp()
    box.point = (e, d)


def _ratio_float(cost: _Cost, ef: float, df: float) -> float:
    """The ratio in floats (a search heuristic only: nothing certified rests on it)."""
    c = math.expm1(ef) / (2 * df)
    L = math.log1p(c)
    H = 1 - L / c if cost.power == 1 else 2 - (L * L + 2 * L) / c
    mu = _root_float(ef, df)
    return float(cost.const().mid()) * H * (mu / ef) ** cost.power


def _golden(h: Callable[[float], float], lo: float, hi: float) -> float:
    """A maximiser of ``h`` on [lo, hi] by 40 golden-section steps (the better of the ends
    and the final midpoint)."""
    inv = (math.sqrt(5) - 1) / 2
    a, b = lo, hi
    for _ in range(40):
        m1, m2 = b - inv * (b - a), a + inv * (b - a)
        if h(m1) < h(m2):
            a = m1
        else:
            b = m2
    return max((h(v), v) for v in (lo, (a + b) / 2, hi))[1]


def _proposal(cost: _Cost, s_dom: tuple[float, float], t_dom: tuple[float, float]
              ) -> tuple[float, float]:
    """A point (log eps, log delta) of a large float ratio: the best of a 25 x 25 grid,
    improved by alternating golden-section searches along each coordinate."""
    def f(s: float, t: float) -> float:
        return _ratio_float(cost, math.exp(s), math.exp(t))

    n = 24
    grid = [(f(s, t), s, t) for s in (s_dom[0] + (s_dom[1] - s_dom[0]) * i / n
                                       for i in range(n + 1))
            for t in (t_dom[0] + (t_dom[1] - t_dom[0]) * j / n for j in range(n + 1))]
    _, s, t = max(grid)
    hs, ht = (s_dom[1] - s_dom[0]) / n, (t_dom[1] - t_dom[0]) / n
    for _ in range(4):
        s = _golden(functools.partial(lambda t_, v: f(v, t_), t), max(s_dom[0], s - hs),
                    min(s_dom[1], s + hs))
        t = _golden(functools.partial(f, s), max(t_dom[0], t - ht), min(t_dom[1], t + ht))
        hs, ht = hs / 4, ht / 4
    return s, t


@dataclass(frozen=True)
class Enclosure:
    """The enclosed maximum: ``lower <= max <= upper``, attained in the box hull
    ``eps`` x ``delta`` (the union of the boxes not excluded); ``at`` is the point where
    ``lower`` is certified."""

    cost: str
    lower: flint.arb
    upper: flint.arb
    at: tuple[float, float]
    eps: tuple[float, float]
    delta: tuple[float, float]
    boxes: int
    seconds: float

    @property
    def width(self) -> flint.arb:
        """upper - (the lower end of ``lower``), exact."""
        return self.upper - self.lower.lower()

    def text(self) -> str:
        """The enclosure (outward-rounded to 10 digits), its width and location."""
        return (f"{self.cost}: max ratio in [{_decimal(self.lower.lower(), False)}, "
                f"{_decimal(self.upper, True)}] (width {float(self.width.upper()):.2e}), "
                f"attained at least at eps = {self.at[0]:.8g}, delta = {self.at[1]:.8g}; "
                f"maximiser in eps [{self.eps[0]:.8g}, {self.eps[1]:.8g}] x delta "
                f"[{self.delta[0]:.8g}, {self.delta[1]:.8g}] ({self.boxes} boxes, "
                f"{self.seconds:.1f} s)")


def _decimal(x: flint.arb, up: bool, digits: int = 10) -> str:
    """The exact number ``x`` rounded to ``digits`` decimals, up or down."""
    man, exp = (int(v) for v in x.man_exp())
    value = Fraction(man) * Fraction(2) ** exp
    scaled = value * 10**digits
    q = -((-scaled.numerator) // scaled.denominator) if up else \
        scaled.numerator // scaled.denominator
    return f"{q // 10**digits}.{q % 10**digits:0{digits}d}"


def _snap(v: float, lo: flint.arb, hi: flint.arb) -> flint.arb:
    """The float ``v`` as a point of [lo, hi]: an end (its ball) when within 1e-9."""
    if v <= float(lo.mid()) * (1 + 1e-9):
        return lo
    if v >= float(hi.mid()) * (1 - 1e-9):
        return hi
    return flint.arb(v)


@functools.cache
def maximise(cost_name: str, tol: float = 1e-6, where: float = 0.01) -> Enclosure:
    r"""The maximum of a cost ratio over :math:`\varepsilon \in [10^{-4}, 10]`,
    :math:`\delta \in [10^{-6}, 0.1]`, enclosed by a best-first branch-and-bound.

    Parameters
    ----------
    cost_name : str
        ``"amplitude"`` (:math:`R_1`) or ``"power"`` (:math:`R_2`).
    tol : float
        The search stops once every box left has an upper bound below the best certified
        value plus ``0.9 tol`` (the caller checks the width of the result).
    where : float
        The log-width below which a box that is not excluded stops being split in the
        localisation phase.

    Returns
    -------
    Enclosure
        The certified lower value (a ball, at a point of the domain), the upper bound (an
        exact Arb number), the hull of the boxes that may hold the maximiser, the number of
        boxes evaluated and the time taken.
    """
    cost = COSTS[cost_name]
    start = time.perf_counter()
    with arb_workprec(_PREC):  # the precision lock held, restored after
        e_lo, e_hi = flint.arb(EPS_DOMAIN[0]), flint.arb(EPS_DOMAIN[1])
        d_lo, d_hi = flint.arb(DELTA_DOMAIN[0]), flint.arb(DELTA_DOMAIN[1])
        ends = [math.log(float(v.mid())) for v in (e_lo, e_hi, d_lo, d_hi)]
        s, t = _proposal(cost, (ends[0], ends[1]), (ends[2], ends[3]))
        best_at = (_snap(math.exp(s), e_lo, e_hi), _snap(math.exp(t), d_lo, d_hi))
        best = log_ratio(cost, *best_at).exp()
        ne, nd = 12, 8
        es = [e_lo] + [flint.arb(float(e_lo.mid()) * (float(e_hi.mid()) / float(
            e_lo.mid())) ** (i / ne)) for i in range(1, ne)] + [e_hi]
        ds = [d_lo] + [flint.arb(float(d_lo.mid()) * (float(d_hi.mid()) / float(
            d_lo.mid())) ** (j / nd)) for j in range(1, nd)] + [d_hi]
        heap: list = []
        count = 0

        def push(box: _Box) -> None:
            nonlocal best, best_at, count
            _evaluate(cost, box, best.lower())
            count += 1
            assert box.upper is not None
            if box.lower is not None and box.point is not None and \
                    box.lower.lower() > best.lower():
                best, best_at = box.lower, box.point
            if not box.upper.upper() < best.lower():
                heapq.heappush(heap, (-float(box.upper.upper()), count, box))

        for i in range(ne):
            for j in range(nd):
                push(_Box(es[i], es[i + 1], ds[j], ds[j + 1]))
        while heap:
            top = -heap[0][0]
            if top <= float(best.lower().mid()) + tol * 0.9:
                break
            _, _, box = heapq.heappop(heap)
            if box.upper.upper() < best.lower():  # exact comparison of the end points
                continue
            if box.split == 0:
                mid = _geo_mid(box.e0, box.e1)
                push(_Box(box.e0, mid, box.d0, box.d1))
                push(_Box(mid, box.e1, box.d0, box.d1))
            else:
                mid = _geo_mid(box.d0, box.d1)
                push(_Box(box.e0, box.e1, box.d0, mid))
                push(_Box(box.e0, box.e1, mid, box.d1))
        # localisation: split the boxes that may still hold a value above the certified
        # one until each is small (log-widths <= ``where``) or excluded
        floor = best.lower()
        live, todo = [], [b for _, _, b in heap]
        while todo:
            box = todo.pop()
            if box.upper.upper() < floor:
                continue
            ws, wt = (box.e1 / box.e0).log(), (box.d1 / box.d0).log()
            if ws < where and wt < where:
                live.append(box)
                continue
            along = 0 if ws > wt else 1
            lo, hi = (box.e0, box.e1) if along == 0 else (box.d0, box.d1)
            mid = _geo_mid(lo, hi)
            for a, c in ((lo, mid), (mid, hi)):
                child = (_Box(a, c, box.d0, box.d1) if along == 0
                         else _Box(box.e0, box.e1, a, c))
                _evaluate(cost, child, floor)
                count += 1
                todo.append(child)
        upper = live[0].upper.upper()
        for b in live[1:]:
            if b.upper.upper() > upper:
                upper = b.upper.upper()
        return Enclosure(
            cost_name, best, upper, (float(best_at[0].mid()), float(best_at[1].mid())),
            (min(float(b.e0.lower()) for b in live), max(float(b.e1.upper()) for b in live)),
            (min(float(b.d0.lower()) for b in live), max(float(b.d1.upper()) for b in live)),
            count, time.perf_counter() - start)


__all__ = ["COSTS", "DELTA_DOMAIN", "EPS_DOMAIN", "Enclosure", "log_ratio", "maximise",
           "reduction"]
