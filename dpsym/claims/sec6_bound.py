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
rewritten: checked by sympy in :func:`reduction`) and :math:`\mu = 1/\sigma^*` the root of
:math:`g(\mu; \varepsilon) = \Phi(\mu/2 - \varepsilon/\mu) - e^\varepsilon\Phi(-\mu/2 -
\varepsilon/\mu) = \delta`.

The facts the bounds use, each checked by sympy in :func:`reduction`:

* :math:`c` is increasing in :math:`\varepsilon` and decreasing in :math:`\delta`, and the
  gradient of :math:`\log R_k` enclosed below is the chain rule of these formulas;
* :math:`\partial g/\partial\mu = \varphi(\mu/2 - \varepsilon/\mu) > 0` and
  :math:`\partial g/\partial\varepsilon = -e^\varepsilon\Phi(-\mu/2 - \varepsilon/\mu) < 0`:
  :math:`\mu` is increasing in :math:`\delta` and in :math:`\varepsilon`, with
  :math:`\partial\mu/\partial\log\varepsilon = \varepsilon e^\varepsilon\Phi(b)/\varphi(a)`,
  :math:`\partial\mu/\partial\log\delta = \delta/\varphi(a)` (implicit functions);
* :math:`F^{\prime} = h(c)/c^2`, :math:`h = L - c/(1+c)`, :math:`h(0) = 0`,
  :math:`h^{\prime} = c/(1+c)^2 > 0`;
  :math:`G^{\prime} = k(c)/c^2`, :math:`k = L^2 + 2L - 2c(L+1)/(1+c)`, :math:`k(0) = 0`,
  :math:`k^{\prime} = 2cL/(1+c)^2 > 0`: :math:`F, G` are increasing in :math:`c` (and positive).

On a box :math:`[\varepsilon_0, \varepsilon_1]\times[\delta_0, \delta_1]` (split in
:math:`(\log\varepsilon, \log\delta)`) two upper bounds are computed in Arb and the smaller
is kept: the *corner bound*
:math:`R_k \le C_k\,H_k(c(\varepsilon_1, \delta_0))\,\mu(\varepsilon_1, \delta_1)^k/\varepsilon_0^k`
(each factor monotone), and the *mean-value bound*
:math:`\log R_k(x) \le \log R_k(p) + \sum_j \sup_{\mathrm{box}}|\partial_j \log R_k|\,|x_j -
p_j|` with the gradient enclosed over the box by interval evaluation (:math:`\mu` over the
box from its two extreme corners) and :math:`p` the end of a coordinate where the gradient
has a proven sign, else its middle. :math:`\mu` at a point is enclosed by a float root
bracketed in Arb (:math:`g(\mu_-) < \delta < g(\mu_+)`). A box is dropped once its upper
bound is below the best certified value :math:`R_k(p)`; the search stops when every box
left is below that value plus the tolerance. The boxes that may still hold a value above
the certified one are then split down to log-widths of 0.01 (or excluded): their hull
locates the maximiser.
"""

from __future__ import annotations

import functools
import heapq
import math
import time
from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction

import flint
import sympy as sp

from dpsym.core.params import parameter_symbols
from dpsym.gaussian.enclosures import PROFILE, Phi, phi, sigma
from dpsym.gaussian.loss import gaussian_delta
from dpsym.mechanisms import TruncatedLaplace
from dpsym.precision import arb_workprec
from dpsym.reports.figures import in_eps
from dpsym.symbols import Delta, eps

EPS_DOMAIN, DELTA_DOMAIN = ("1e-4", "10"), ("1e-6", "0.1")
_PREC = 64


# ----------------------------------------------------------------------------- reduction

@functools.cache
def reduction() -> dict[str, bool]:
    """The identities and signs the bounds rest on, decided by sympy (see the module)."""
    e, m, c = sp.symbols("epsilon mu c", positive=True)
    t = sp.Symbol("t", real=True)

    a, b = m / 2 - e / m, -m / 2 - e / m
    g = PROFILE.subs({sigma: 1}).subs({Delta: m, eps: e})
    sym = parameter_symbols(TruncatedLaplace)
    ee, dd = sym["eps"], sym["delta"]
    cc = (sp.exp(ee) - 1) / (2 * dd)
    L = sp.log(1 + c)
    F, G = 1 - L / c, 2 - (L**2 + 2 * L) / c
    h, k = L - c / (1 + c), L**2 + 2 * L - 2 * c * (L + 1) / (1 + c)
    out = {"dg/dmu = phi(a)": sp.simplify(sp.diff(g, m) - phi(a)) == 0,
           "dg/deps = -e^eps Phi(b)": sp.simplify(sp.diff(g, e) + sp.exp(e) * Phi(b)) == 0,
           # Phi(b) is the integral of the positive density phi over (-oo, b)
           "phi > 0, Phi(b) = int_{-oo}^b phi > 0": bool(
               phi(t).is_positive and sp.simplify(sp.integrate(phi(t), (t, -sp.oo, b))
                                                  - Phi(b)) == 0)}
    for name, cost, H, power in (("amplitude", "amplitude", F, 1), ("power", "power", G, 2)):
        closed = in_eps(TruncatedLaplace.formula("cost", cost)).subs(sym["Delta"], 1)
        out[f"{name} = H(c)/eps^{power}"] = sp.simplify(closed - (H / ee**power).subs(c, cc)) == 0
    out["F' = h/c^2"] = sp.simplify(sp.diff(F, c) - h / c**2) == 0
    out["G' = k/c^2"] = sp.simplify(sp.diff(G, c) - k / c**2) == 0
    # the gradient of log R_k that _gradient encloses: the chain rule with the implicit
    # derivatives d mu/d eps = -g_eps/g_mu, d mu/d delta = 1/g_mu
    E_, D_ = sp.symbols("varepsilon delta_", positive=True)
    M = sp.Function("mu")(E_, D_)
    cE = (sp.exp(E_) - 1) / (2 * D_)
    am, bm = M / 2 - E_ / M, -M / 2 - E_ / M
    dmu = {sp.Derivative(M, E_): sp.exp(E_) * Phi(bm) / phi(am),
           sp.Derivative(M, D_): 1 / phi(am)}
    y = sp.Symbol("y", positive=True)  # e^eps = 1 + y, y > 0 for eps > 0 (exp increasing)
    out["c increasing in eps, decreasing in delta"] = bool(
        sp.diff(cE, E_).is_positive
        and sp.diff(cE, D_).subs(sp.exp(E_), 1 + y).is_negative)
    for name, H, dH, power in (("amplitude", F, h / c**2, 1), ("power", G, k / c**2, 2)):
        logR = sp.log(H.subs(c, cE)) + power * (sp.log(M) - sp.log(E_))
        rel = (dH / H).subs(c, cE)
        gs = rel * E_ * sp.exp(E_) / (2 * D_) - power + power * E_ * sp.exp(E_) * Phi(bm) / (
            phi(am) * M)
        gt = -rel * cE + power * D_ / (phi(am) * M)
        out[f"{name}: d log R/d log eps, d log R/d log delta"] = bool(
            sp.simplify((E_ * sp.diff(logR, E_)).subs(dmu) - gs) == 0
            and sp.simplify((D_ * sp.diff(logR, D_)).subs(dmu) - gt) == 0)
    out["h(0+) = 0, h' = c/(1+c)^2 > 0"] = bool(sp.limit(h, c, 0, "+") == 0 and sp.simplify(
        sp.diff(h, c) - c / (1 + c)**2) == 0)
    out["k(0+) = 0, k' = 2cL/(1+c)^2 > 0"] = bool(sp.limit(k, c, 0, "+") == 0 and sp.simplify(
        sp.diff(k, c) - 2 * c * L / (1 + c)**2) == 0 and (2 * c * L / (1 + c)**2).is_positive)
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
    dH: Callable[[flint.arb], flint.arb]


def _F(c: flint.arb) -> flint.arb:
    return 1 - c.log1p() / c


def _dF(c: flint.arb) -> flint.arb:
    return (c.log1p() - c / (1 + c)) / (c * c)


def _G(c: flint.arb) -> flint.arb:
    L = c.log1p()
    return 2 - (L * L + 2 * L) / c


def _dG(c: flint.arb) -> flint.arb:
    L = c.log1p()
    return (L * L + 2 * L - 2 * c * (L + 1) / (1 + c)) / (c * c)


COSTS = {"amplitude": _Cost("amplitude", 1, lambda: (flint.arb.pi() / 2).sqrt(), _F, _dF),
         "power": _Cost("power", 2, lambda: flint.arb(1), _G, _dG)}


def _c(e: flint.arb, d: flint.arb) -> flint.arb:
    return e.expm1() / (2 * d)


def log_ratio(cost: _Cost, e: flint.arb, d: flint.arb,
              hint: tuple[float, float] | None = None) -> flint.arb:
    """log R_k at a point (balls e, d), mu enclosed (``hint``: a float bracket of mu)."""
    return (cost.const().log() + cost.H(_c(e, d)).log()
            + cost.power * (_mu(e, d, hint).log() - e.log()))


def _gradient(cost: _Cost, E: flint.arb, D: flint.arb, MU: flint.arb
              ) -> tuple[flint.arb, flint.arb]:
    """(d log R/d log eps, d log R/d log delta) enclosed over the balls E, D, MU."""
    s2pi = (2 * flint.arb.pi()).sqrt()
    a, b = MU / 2 - E / MU, -MU / 2 - E / MU
    phia = (-a * a / 2).exp() / s2pi
    Phib = (-b / flint.arb(2).sqrt()).erfc() / 2
    c = _c(E, D)
    rel = cost.dH(c) / cost.H(c)
    k = cost.power
    gs = rel * E * E.exp() / (2 * D) - k + k * (E * E.exp() * Phib / phia) / MU
    gt = -rel * c + k * (D / phia) / MU
    return gs, gt


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


def _evaluate(cost: _Cost, box: _Box) -> None:
    """Upper bound (min of the corner and mean-value bounds), a certified value at a point
    of the box, and the coordinate to split."""
    k = cost.power
    corner = (cost.const() * cost.H(_c(box.e1, box.d0))
              * (_mu(box.e1, box.d1) / box.e0) ** k).log()
    E, D = box.e0.union(box.e1), box.d0.union(box.d1)
    MU = _mu(box.e0, box.d0).union(_mu(box.e1, box.d1))
    gs, gt = _gradient(cost, E, D, MU)
    coords, extra = [], flint.arb(0)
    contrib = []
    for g, lo, hi in ((gs, box.e0, box.e1), (gt, box.d0, box.d1)):
        if g.is_finite() and g > 0:
            coords.append(hi)
            contrib.append(0.0)
        elif g.is_finite() and g < 0:
            coords.append(lo)
            contrib.append(0.0)
        else:
            mid = _geo_mid(lo, hi)
            half = max((mid / lo).log().upper(), (hi / mid).log().upper())
            coords.append(mid)
            term = g.abs_upper() * half if g.is_finite() else flint.arb.pos_inf()
            extra += term
            contrib.append(float(term.upper()) if g.is_finite() else math.inf)
    hint = (float(MU.lower()) * (1 - 1e-9), float(MU.upper()) * (1 + 1e-9))
    value = log_ratio(cost, coords[0], coords[1], hint)
    mean_value = value + extra
    box.upper = (corner if not mean_value.is_finite() or corner.upper() < mean_value.upper()
                 else mean_value).exp()
    box.lower = value.exp()
    box.point = (coords[0], coords[1])
    ws = (box.e1 / box.e0).log().upper()
    wt = (box.d1 / box.d0).log().upper()
    if math.isinf(contrib[0]) or math.isinf(contrib[1]) or contrib == [0.0, 0.0]:
        box.split = 0 if float(ws) >= float(wt) else 1
    else:
        box.split = 0 if contrib[0] >= contrib[1] else 1


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
        ne, nd = 12, 8
        es = [e_lo] + [flint.arb(float(e_lo.mid()) * (float(e_hi.mid()) / float(
            e_lo.mid())) ** (i / ne)) for i in range(1, ne)] + [e_hi]
        ds = [d_lo] + [flint.arb(float(d_lo.mid()) * (float(d_hi.mid()) / float(
            d_lo.mid())) ** (j / nd)) for j in range(1, nd)] + [d_hi]
        heap: list = []
        best, best_at = flint.arb(-1), (flint.arb(0), flint.arb(0))
        count = 0

        def push(box: _Box) -> None:
            nonlocal best, best_at, count
            _evaluate(cost, box)
            assert box.lower is not None and box.upper is not None and box.point is not None
            count += 1
            if box.lower.lower() > best.lower():
                best, best_at = box.lower, box.point
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
                _evaluate(cost, child)
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
