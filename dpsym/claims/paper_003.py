r"""The claims of the paper on the truncated Laplacian mechanism (source 003): the
definitions (Section 2), the truncated Laplacian and its costs (Section 3), the lower
bounds (Section 4), their tightness (Section 5) and the comparison with the Gaussian
mechanism (Section 6).

Each statement is registered where its check is written, in the order of the paper.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable
from fractions import Fraction

import mpmath
import sympy as sp

from ..bounds import LowerBound
from ..bounds.real import n as nsym
from ..bounds.real import paper_n
from ..bounds.tightness import PAPER_CLAIMS, ratio_limit
from ..mechanisms import AnalyticGaussian, DiscreteLaplace, DiscreteUniform, TruncatedLaplace
from ..numerics import to_mpf
from ..precision import workdps
from ..privacy import hockey_stick as noise_hockey_stick
from ..privacy import privacy_loss_bound
from ..symbols import Delta, b, c, delta, eps, x
from .common import classic_gaussian, cost_value, event_definition, exact, fmt, same
from .registry import FAILS, Verdict, claim

_NB_TL, _NB_LB = "notebooks/truncated_laplace.py", "notebooks/lower_bounds.py"

#: (eps, delta) points of the truncated Laplacian's checks.
_TL_POINTS = (("0.5", "0.1"), ("2", "0.01"), ("0.05", "0.3"), ("8", "1e-6"))


# ----------------------------------------------------------------------------- section 2

@claim("003.def1", "Section 2, Definition 1", "(eps, delta)-DP: Pr[K(D1) in S] <= e^eps "
       "Pr[K(D2) in S] + delta for all measurable S")
def _definition_sets() -> Verdict:
    return event_definition()


@claim("003.def2", "Section 2, Definition 2", "Query sensitivity Delta = max |q(D1) - q(D2)|"
       " (the noise constraint is tightest at |d| = Delta)")
def _sensitivity_monotone() -> Verdict:
    noise = TruncatedLaplace(eps="1", delta="0.1").numeric_noise()
    hs = [noise_hockey_stick(noise, d, "1") for d in ("0.25", "0.5", "0.75", "1")]
    ok = all(h1 <= h2 for h1, h2 in itertools.pairwise(hs))
    return Verdict(ok, detail="H(d) at d = Delta/4 .. Delta: " + ", ".join(fmt(h) for h in hs))


@claim("003.lemma1", "Section 2, Lemma 1", "P preserves (eps, delta)-DP iff P(S) - e^eps "
       "P(S + d) <= delta for all |d| <= Delta and measurable S", budget=10)
def _tl_lemma1() -> Verdict:
    """sup over half-lines S = [t, oo) of P(S) - e^eps P(S + Delta), by direct integration of
    the truncated Laplacian's density (the engine's A and B), against the engine's profile."""
    A, B = TruncatedLaplace.formula("A"), TruncatedLaplace.formula("B")
    rows, ok = [], True
    for e, d in _TL_POINTS[:2]:
        pt = {eps: exact(e), delta: exact(d), Delta: 1}
        with workdps(30):
            a_, b_, lam = to_mpf(A.subs(pt)), to_mpf(B.subs(pt)), 1 / to_mpf(exact(e))

            def sf(t, a_=a_, b_=b_, lam=lam):  # P(X >= t)
                if t >= a_:
                    return mpmath.mpf(0)
                if t <= -a_:
                    return mpmath.mpf(1)
                if t >= 0:
                    return b_ * lam * (mpmath.exp(-t / lam) - mpmath.exp(-a_ / lam))
                return 1 - sf(-t)
            c_ = mpmath.exp(to_mpf(exact(e)))
            best = max(sf(t) - c_ * sf(t + 1) for t in
                       [a_ - 1 + mpmath.mpf(k) / 200 for k in range(-400, 201)])
        prof = TruncatedLaplace(eps=e, delta=d).privacy_profile(e).number
        ok &= abs(best - prof) < mpmath.mpf("1e-20")
        rows.append(f"({e}, {d}): sup_S = {fmt(best)}, engine delta(eps) = {fmt(prof)}")
    return Verdict(ok, detail="; ".join(rows))


# ----------------------------------------------------------------------------- section 3

@claim("003.def3", "Section 3, Definition 3", "Truncated Laplacian density B e^{-|x|/lambda}"
       " on [-A, A], lambda = Delta/eps, A = (Delta/eps) log(1 + (e^eps - 1)/(2 delta)), "
       "B = 1/(2 lambda (1 - e^{-A/lambda}))", notebook=_NB_TL, budget=10)
def _tl_definition() -> Verdict:
    # the printed A and B are the statement under test: compared with the engine's
    W = 1 + (sp.exp(eps) - 1) / (2 * delta)
    A = Delta / eps * sp.log(W)
    B = 1 / (2 * Delta / eps * (1 - 1 / W))
    pts = [{eps: exact(e), delta: exact(d), Delta: 1} for e, d in _TL_POINTS]
    ok = (same(TruncatedLaplace.formula("A"), A, pts)
          and same(TruncatedLaplace.formula("B"), B, pts))
    lam = Delta / eps
    mass = sp.simplify(2 * sp.integrate(B * sp.exp(-x / lam), (x, 0, A)))
    tail = sp.simplify(sp.integrate(B * sp.exp(-x / lam), (x, A - Delta, A)))
    ok &= same(mass, sp.Integer(1), pts) and same(tail, delta, pts)
    return Verdict(ok, detail=f"engine A, B = printed; total mass {mass}; mass on [A-Delta, A] "
                   f"= {tail}")


@claim("003.def4", "Section 3, Definition 4", "The truncated Laplacian mechanism adds "
       "P_TLap noise (decay rate e^eps, then infinite on the last Delta)", notebook=_NB_TL)
def _tl_mechanism() -> Verdict:
    inst = TruncatedLaplace(eps="1", delta="0.05")
    loss = privacy_loss_bound(inst.numeric_noise(), 1)
    prof = inst.privacy_profile("1").number
    ok = loss == mpmath.inf and abs(prof - mpmath.mpf("0.05")) < mpmath.mpf("1e-12")
    return Verdict(ok, detail=f"sup privacy loss {loss} (not pure DP); delta(eps) = {fmt(prof)}"
                   " = delta exactly")


@claim("003.thm1", "Section 3, Theorem 1", "The truncated Laplacian mechanism preserves "
       "(eps, delta)-DP", notebook=_NB_TL)
def _tl_private() -> Verdict:
    rows, ok = [], True
    for e, d in _TL_POINTS:
        prof = TruncatedLaplace(eps=e, delta=d, Delta="1.5").privacy_profile(e).number
        ok &= prof <= to_mpf(exact(d)) * (1 + mpmath.mpf("1e-12"))
        rows.append(f"(eps, delta) = ({e}, {d}): delta(eps) = {fmt(prof)}")
    return Verdict(ok, detail="; ".join(rows))


def _tl_cost(cost: str) -> Callable[[], Verdict]:
    def check() -> Verdict:
        # the printed cost is the statement under test: compared with the engine's
        W = (sp.exp(eps) - 1) / (2 * delta)
        if cost == "amplitude":
            printed = Delta / eps * (1 - sp.log(1 + W) / W)
        else:
            printed = 2 * Delta**2 / eps**2 * (1 - (sp.log(1 + W) ** 2 / 2 + sp.log(1 + W)) / W)
        pts = [{eps: exact(e), delta: exact(d), Delta: 1} for e, d in _TL_POINTS]
        ok = same(TruncatedLaplace.formula("cost", cost), printed, pts)
        rows = []
        for e, d in _TL_POINTS[:3]:
            v = cost_value(TruncatedLaplace, "cost", cost, eps=e, delta=d)
            pv = to_mpf(printed.subs({eps: exact(e), delta: exact(d), Delta: 1}))
            ok &= abs(v - pv) < mpmath.mpf("1e-15") * pv
            rows.append(f"({e}, {d}): {fmt(v)}")
        return Verdict(ok, detail="engine formula = printed; values " + "; ".join(rows))
    return check


claim("003.thm2", "Section 3, Theorem 2", "V1* <= V1upp = (Delta/eps)(1 - log(1 + (e^eps - 1)"
      "/(2 delta))/((e^eps - 1)/(2 delta)))", notebook=_NB_TL)(_tl_cost("amplitude"))


@claim("003.thm2.limits", "Section 3, after Theorem 2", "V1upp -> Delta/eps (delta -> 0), -> "
       "Delta/(4 delta) (eps -> 0), ~ (Delta/eps)(1 - 2 log(3/2)) (eps = delta -> 0)",
       notebook=_NB_TL)
def _tl_limits() -> Verdict:
    v = TruncatedLaplace.formula("cost", "amplitude")
    l_delta = sp.limit(v, delta, 0, "+")
    l_eps = sp.limit(v, eps, 0, "+")
    l_joint = sp.limit(sp.simplify(eps * v.subs(delta, eps)), eps, 0, "+")
    ok = (sp.simplify(l_delta - Delta / eps) == 0 and sp.simplify(l_eps - Delta / (4 * delta)) == 0
          and sp.simplify(l_joint - Delta * (1 - 2 * sp.log(sp.Rational(3, 2)))) == 0)
    return Verdict(ok, detail=f"delta->0: {l_delta}; eps->0: {l_eps}; eps=delta->0: eps V -> "
                   f"{sp.simplify(l_joint)}")


# the second instance of the factory _tl_cost (above, at 003.thm2)
claim("003.thm3", "Section 3, Theorem 3", "V2* <= V2upp = (2 Delta^2/eps^2)(1 - (log^2(1 + W)"
      "/2 + log(1 + W))/W), W = (e^eps - 1)/(2 delta)", notebook=_NB_TL)(_tl_cost("power"))


# ----------------------------------------------------------------------------- section 4

def _paper_points() -> list[tuple[sp.Expr, object, int]]:
    """(eps, delta_n, n): the points where the paper's integer assumption holds."""
    return [(e, paper_n(e, n_), n_)
            for e, n_ in ((sp.Rational(1, 2), 3), (sp.Rational(1, 10), 8), (sp.Integer(1), 2))]


@claim("003.lemma2", "Section 4, Lemma 2", "Under (8) and (9): sum L(i) P(i) >= 2 sum_{k<n}"
       " a b^k L(1 + k Delta~)", errata="errata.md#b1", notebook=_NB_LB, budget=10)
def _lemma2() -> Verdict:
    rows, ok, N = [], True, 10
    for e, d, n_ in _paper_points():
        with workdps(30):
            bb = mpmath.exp(-to_mpf(e))
            dd = (mpmath.mpf(d.numerator) / d.denominator if isinstance(d, Fraction)
                  else mpmath.mpf(d))
            # the printed condition (9) and bound, under test against the engine's costs
            a = (dd + (mpmath.exp(to_mpf(e)) - 1) / 2) / mpmath.exp(to_mpf(e))
            cond = sum(bb**i * (2 * i * N - (1 + (i - 1) * N) - (1 + i * N))
                       for i in range(1, n_))
            rhs = 2 * sum(a * bb**k * (1 + k * N) for k in range(n_))
        lap = cost_value(DiscreteLaplace, eps=str(sp.N(e, 30)), Delta=N)
        dstr = mpmath.nstr(dd, 25)
        try:
            uni = cost_value(DiscreteUniform, delta=dstr, Delta=N)
        except Exception:
            uni = mpmath.inf
        holds = (cond < 1) or (lap >= rhs and uni >= rhs)
        ok &= holds
        rows.append(f"eps={e}, n={n_}: condition (9) {fmt(cond)} >= 1: {cond >= 1}; "
                    f"bound {fmt(rhs)} <= discrete Laplace {fmt(lap)}, uniform {fmt(uni)}")
    return Verdict(ok, detail="Delta~ = 10, L = |i|: " + "; ".join(rows))


def _lower_identity(power: int) -> Callable[[], Verdict]:
    def check() -> Verdict:
        a = sp.Symbol("a", positive=True)
        nn = sp.Symbol("n", integer=True, positive=True)
        # the printed closed forms are the statement under test
        if power == 1:
            printed = 2 * a * ((b - b**nn) / (1 - b) ** 2 - (nn - 1) * b**nn / (1 - b)) * Delta
        else:
            printed = (2 * a * Delta**2 / (1 - b)
                       * (-b + 2 * (b * (1 - b ** (nn - 1)) / (1 - b) ** 2
                                    - (nn - 1) * b**nn / (1 - b))
                          - b**2 * (1 - b ** (nn - 2)) / (1 - b) - (nn - 1) ** 2 * b**nn))
        rows, ok = [], True
        for nv in (2, 3, 7):
            direct = sum(2 * a * b**j * j**power * Delta**power for j in range(nv))
            ok &= sp.simplify(printed.subs(nn, nv) - direct) == 0
        rows.append(f"closed form = 2a sum_k b^k (k Delta)^{power} for n = 2, 3, 7: {ok}")
        upp = TruncatedLaplace.formula("cost", "amplitude" if power == 1 else "power")
        for e, d, nv in _paper_points():
            av = (d + (sp.exp(e) - 1) / 2) / sp.exp(e)  # the paper's a, printed
            low = to_mpf(printed.subs({a: av, b: sp.exp(-e), nn: nv, Delta: 1}))
            up = to_mpf(upp.subs({eps: e, delta: sp.nsimplify(d) if isinstance(d, Fraction) else
                                  sp.Float(d, 30), Delta: 1}))
            ok &= low <= up
            rows.append(f"eps={e}, n={nv}: V_low {fmt(low)} <= V_upp {fmt(up)}")
        return Verdict(ok, detail="; ".join(rows))
    return check


claim("003.thm4", "Section 4, Theorem 4", "V1* >= V1low = 2a sum_{k<n} b^k k Delta = 2a((b"
      " - b^n)/(1-b)^2 - (n-1) b^n/(1-b)) Delta", errata="errata.md#b3", notebook=_NB_LB,
      budget=10)(_lower_identity(1))
claim("003.thm5", "Section 4, Theorem 5", "V2* >= V2low = 2 sum_{k<n} a b^k k^2 Delta^2 "
      "(closed form (12))", errata="errata.md#b3", notebook=_NB_LB,
      budget=10)(_lower_identity(2))


# ----------------------------------------------------------------------------- section 5

def _tightness(power: int, regime: str) -> Callable[[], Verdict]:
    def check() -> Verdict:
        rel, claimed = PAPER_CLAIMS[(power, regime)]
        lim = ratio_limit("amplitude" if power == 1 else "power", regime)
        if regime == "eps->0":
            pts = [{delta: sp.Rational(1, 2 * m), nsym: m} for m in (2, 5, 20)]
        elif regime == "delta->0":
            pts = [{eps: e} for e in (sp.Rational(1, 10), 1, 4)]
        else:
            pts = [{c: v} for v in (sp.Rational(1, 2), 1, 3)]
        vals = [(to_mpf(lim.subs(pt)), to_mpf(claimed.subs(pt))) for pt in pts]
        if rel == "=":
            ok = all(abs(u - v) < mpmath.mpf("1e-20") for u, v in vals)
        else:
            ok = all(u >= v - mpmath.mpf("1e-20") for u, v in vals)
        equal = all(abs(u - v) < mpmath.mpf("1e-20") for u, v in vals)
        return Verdict(ok, detail=f"exact limit {lim}; claimed {rel} {claimed}; "
                       f"{'equality' if equal else 'strict'} at the points checked")
    return check


claim("003.thm6.eps0", "Section 5, Theorem 6", "lim_{eps->0} V1low/V1upp >= 1 - 2 delta",
      errata="errata.md#b5", notebook=_NB_LB, budget=10)(_tightness(1, "eps->0"))
claim("003.thm6.delta0", "Section 5, Theorem 6", "lim_{delta->0} V1low/V1upp >= eps/(e^eps"
      " - 1)", errata="errata.md#b7", notebook=_NB_LB, budget=10)(_tightness(1, "delta->0"))
claim("003.thm6.joint", "Section 5, Theorem 6", "lim_{eps=delta->0} V1low/V1upp = 1",
      errata="errata.md#b8", notebook=_NB_LB, budget=15)(_tightness(1, "eps=delta->0"))
claim("003.thm7.eps0", "Section 5, Theorem 7", "lim_{eps->0} V2low/V2upp >= (1 - delta)"
      "(1 - 2 delta)", errata="errata.md#b6", notebook=_NB_LB, budget=10)(_tightness(2, "eps->0"))
claim("003.thm7.delta0", "Section 5, Theorem 7", "lim_{delta->0} V2low/V2upp >= eps^2 (1 + "
      "e^eps)/(2 (e^eps - 1)^2)", errata="errata.md#b7", notebook=_NB_LB,
      budget=10)(_tightness(2, "delta->0"))


@claim("003.thm7.joint", "Section 5, Theorem 7", "lim_{eps=delta->0} V2low/V2upp = 1",
       errata="errata.md#b8", notebook=_NB_LB, budget=10)
def _joint_numeric() -> Verdict:
    gaps = []
    for e in ("1e-3", "1e-5", "1e-7"):
        low = LowerBound(eps=e, delta=e).value("cost", "power", digits=20).number
        upp = cost_value(TruncatedLaplace, "cost", "power", 20, eps=e, delta=e)
        gaps.append((e, 1 - low / upp))
    ok = all(0 <= g < 10 * mpmath.mpf(e) for e, g in gaps)
    ok &= all(g2 < g1 for (_, g1), (_, g2) in itertools.pairwise(gaps))
    return Verdict(ok, detail="certified 1 - V_low/V_upp at eps = delta: " + ", ".join(
        f"{e}: {fmt(g)}" for e, g in gaps) + " (-> 0 linearly in eps)")


# ----------------------------------------------------------------------------- section 6

@claim("003.sec6.classic", "Section 6", "sigma = sqrt(2 log(1.25/delta)) Delta/eps "
       "preserves (eps, delta)-DP for eps, delta in (0, 1)", errata="errata.md#g3",
       notebook=_NB_TL)
def _classic_gaussian() -> Verdict:
    return classic_gaussian("1.25", ("0.01", "0.5", "0.99"))


def _section6(grid: bool) -> Callable[[], Verdict]:
    def check() -> Verdict:
        if grid:
            pts = [(e, d) for e in ("0.0001", "0.1", "10") for d in ("1e-6", "0.1")]
        else:
            pts = [(e, d) for e in ("0.0001", "1", "30") for d in ("0.3", "0.45")]
        rows, worst = [], mpmath.mpf(0)
        for e, d in pts:
            for cost in ("amplitude", "power"):
                r = (cost_value(TruncatedLaplace, "cost", cost, 15, eps=e, delta=d)
                     / cost_value(AnalyticGaussian, "cost", cost, 15, eps=e, delta=d))
                worst = max(worst, r)
                if r >= 1 or len(rows) < 4:
                    rows.append(f"({e}, {d}) {cost}: {fmt(r)}")
        return Verdict(worst < 1, detail=f"max ratio TLap/AGauss {fmt(worst)}; "
                       + "; ".join(rows))
    return check


claim("003.sec6.figures", "Section 6, Figures 2 and 3", "On eps in [1e-4, 10], delta in "
      "[1e-6, 0.1] the truncated Laplacian has smaller amplitude and power than the optimal"
      " Gaussian", errata="errata.md#g5", notebook=_NB_TL, budget=15)(_section6(True))
claim("003.sec6.all", "Abstract; Section 6", "The truncated Laplacian improves on the "
      "optimal Gaussian mechanism in all privacy regimes", status=FAILS,
      errata="errata.md#g5", notebook=_NB_TL, budget=15)(_section6(False))
