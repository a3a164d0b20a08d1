r"""The claims of the lecture notes on approximate differential privacy (source 001): the
definition, the privacy loss, the Gaussian mechanism and the properties of
:math:`(\varepsilon, \delta)`-DP.

Each statement is registered where its check is written, in the order of the notes.
"""

from __future__ import annotations

from fractions import Fraction

import mpmath
import sympy as sp

from ..gaussian_calibration import profile_mp
from ..mechanisms import Laplace, TruncatedLaplace
from ..numerics import to_mpf
from ..precision import workdps
from ..privacy import hockey_stick as noise_hockey_stick
from ..privacy import privacy_loss_bound
from ..symbols import Delta, delta, eps, x
from ..textbook import (
    compose,
    exposure_probability,
    hockey_stick,
    name_and_shame,
    post_process,
    randomized_response,
)
from .common import classic_gaussian, event_definition, exact, fmt
from .registry import CORRECTED, Verdict, claim

_NB = "notebooks/gaussian_and_approximate_dp.py"


_DEFINITION = ("a definition: no printed formula to perturb (the check confirms the "
               "engine's reading of it)")


@claim("001.def", "Approximate DP, Def.", "M is (eps,delta)-DP iff E_eps(M_D || M_D') <= "
       "delta, equivalently M_D(A) <= e^eps M_D'(A) + delta for every event A", notebook=_NB,
       kind="definition", no_mutants=_DEFINITION)
def _definition_sets() -> Verdict:
    return event_definition()


@claim("001.pure", "Remark 1", "Setting delta = 0 recovers pure eps-DP", notebook=_NB)
def _pure_recovered() -> Verdict:
    p, q = randomized_response("1")
    h_eps, h_less = hockey_stick(p, q, 1), hockey_stick(p, q, sp.Rational(9, 10))
    return Verdict(h_eps == 0 and h_less > 0,
                   detail=f"RR(1): H_1 = {h_eps} (1-DP = (1, 0)-DP), H_0.9 = {sp.N(h_less, 6)}")


def _gaussian_loss_tail(ee: mpmath.mpf, s: mpmath.mpf) -> mpmath.mpf:
    """Pr(|Z| > eps) for the Gaussian mechanism: Z = log p(x)/p'(x) ~ N(mu^2/2, mu^2),
    mu = 1/sigma, x ~ N(0, sigma^2), shift Delta = 1."""
    mu = 1 / s
    return (1 - mpmath.ncdf((ee - mu**2 / 2) / mu)) + mpmath.ncdf((-ee - mu**2 / 2) / mu)


@claim("001.sufficient", "Remark 3", "A necessary condition: Pr(|Z_{D,D'}| <= eps) >= 1 - "
       "delta for all D ~ D' => (eps, delta)-DP", status=CORRECTED, corrected="the displayed "
       "implication holds: the condition is sufficient; it is not necessary (the Gaussian "
       "mechanism is (eps, delta(eps))-DP with Pr(|Z| > eps) > delta(eps))",
       errata="errata.md#g6", notebook=_NB)
def _loss_sufficient() -> Verdict:
    """Printed "necessary": (eps, delta)-DP => Pr(|Z| <= eps) >= 1 - delta, refuted by the
    Gaussian mechanism at delta = its exact profile delta(eps); corrected (the displayed
    sufficient direction): delta(eps) = E[(1 - e^{eps - Z})_+] <= Pr(Z > eps) <= Pr(|Z| >
    eps), checked at each point."""
    rows, necessary, sufficient = [], True, True
    with workdps(30):
        for e, s in (("0.5", "2"), ("1", "1"), ("0.2", "4"), ("3", "0.5")):
            ee, ss = mpmath.mpf(e), mpmath.mpf(s)
            tail, prof = _gaussian_loss_tail(ee, ss), profile_mp(ee, ss)
            sufficient &= prof <= tail
            necessary &= tail <= prof  # (eps, prof)-DP would force Pr(|Z| > eps) <= prof
            rows.append(f"eps={e}, sigma={s}: delta(eps) {fmt(prof)} < Pr(|Z| > eps) "
                        f"{fmt(tail)}")
    return Verdict(bool(necessary), bool(sufficient), "Gaussian: " + "; ".join(rows))


@claim("001.pure_iff", "Remark 3", "Pr(|Z_{D,D'}| <= eps) = 1 for all D ~ D' iff eps-DP",
       notebook=_NB)
def _loss_pure_iff() -> Verdict:
    """Both directions, on mechanisms where each side is computed independently (the
    privacy loss's supremum, the exact profile at eps): Laplace (|Z| <= eps surely, and
    eps-DP), the truncated Laplacian (|Z| = oo with probability delta > 0, and not eps-DP:
    delta(eps) = delta) and the Gaussian (Pr(|Z| > eps) > 0, and not eps-DP)."""
    rows, ok = [], True
    lap = Laplace(eps="0.8")
    loss = privacy_loss_bound(lap.numeric_noise(), 1)
    prof = lap.privacy_profile("0.8").number
    ok &= abs(loss - mpmath.mpf("0.8")) < mpmath.mpf("1e-12") and prof == 0
    rows.append(f"Laplace: sup |Z| = {fmt(loss)} = eps and delta(eps) = {prof}")
    tl = TruncatedLaplace(eps="0.8", delta="0.05")
    tl_loss, tl_prof = privacy_loss_bound(tl.numeric_noise(), 1), tl.privacy_profile("0.8").number
    ok &= tl_loss == mpmath.inf and tl_prof > 0
    rows.append(f"truncated Laplacian: sup |Z| = {tl_loss}, delta(eps) = {fmt(tl_prof)} > 0")
    with workdps(30):
        g_tail = _gaussian_loss_tail(mpmath.mpf("0.8"), mpmath.mpf(2))
        g_prof = profile_mp(mpmath.mpf("0.8"), mpmath.mpf(2))
    ok &= g_tail > 0 and g_prof > 0
    rows.append(f"Gaussian sigma = 2: Pr(|Z| > eps) = {fmt(g_tail)}, delta(eps) = "
                f"{fmt(g_prof)} > 0")
    return Verdict(bool(ok), detail="; ".join(rows))


@claim("001.catastrophic", "Remark 4", "There may be an event E with M_D(E) = 0 < M_D'(E); "
       "such events have probability <= delta", notebook=_NB)
def _catastrophic() -> Verdict:
    A, B = TruncatedLaplace.formula("A"), TruncatedLaplace.formula("B")
    lam = Delta / eps
    # E = (A, A + Delta]: M_D(E) = 0, M_D'(E) = P(X in (A - Delta, A]) (D' shifted by Delta)
    mass = sp.simplify(sp.integrate(B * sp.exp(-x / lam), (x, A - Delta, A)))
    prof = TruncatedLaplace(eps="1", delta="0.1").privacy_profile("1").number
    ok = sp.simplify(mass - delta) == 0 and abs(prof - mpmath.mpf("0.1")) < mpmath.mpf("1e-12")
    return Verdict(ok, detail=f"truncated Laplacian: the event with M_D(E) = 0 has M_D'(E) = "
                   f"{mass}; delta(eps) = {fmt(prof)}")


@claim("001.name_and_shame", "Example (Name-and-Shame), Claim", "The name-and-shame "
       "mechanism is (0, delta)-DP; someone is exposed w.p. 1 - (1-delta)^n ~ n delta",
       notebook=_NB)
def _name_and_shame() -> Verdict:
    d = sp.Rational(1, 1000)
    hs = [hockey_stick(name_and_shame(d, "x"), name_and_shame(d, "y"), e) for e in (0, 1, 5)]
    expo = exposure_probability(50, d)
    ok = all(h == d for h in hs) and expo == 1 - (1 - d) ** 50 and expo <= 50 * d
    return Verdict(ok, detail=f"H_eps for eps = 0, 1, 5: {hs} (= delta: (0, delta)-DP and no "
                   f"better); exposure n = 50: {sp.N(expo, 8)} <= n delta = {50 * d}")


@claim("001.gaussian.classic", "Gaussian Mechanism, Theorem", "The Gaussian mechanism is "
       "(eps, delta)-DP if sigma^2 >= 2 Delta^2 log(1/delta)/eps^2, eps <= 1, delta in (0,1)",
       status=CORRECTED, corrected="holds for delta <= 1/2 (and eps <= 1) at every point "
       "checked; fails near delta = 1", errata="errata.md#g2", notebook=_NB)
def _classic_gaussian() -> Verdict:
    return classic_gaussian("1", ("0.01", "0.5", "1"))


def _hockey_stick_quad(ee: mpmath.mpf, ss: mpmath.mpf) -> mpmath.mpf:
    """The (eps) hockey-stick divergence of N(0, s^2) from N(1, s^2) by quadrature of
    (p - e^eps q)_+ (p > e^eps q exactly for x < 1/2 - eps s^2): independent of any closed
    form in Phi."""
    def dens(x, m):
        return mpmath.exp(-(x - m) ** 2 / (2 * ss**2)) / (ss * mpmath.sqrt(2 * mpmath.pi))
    top = mpmath.mpf(1) / 2 - ee * ss**2
    return mpmath.quad(lambda x: dens(x, 0) - mpmath.exp(ee) * dens(x, 1),
                       [-mpmath.inf, top - 10 * ss, top - ss, top])


_SIG, _EPS_S, _SENS = sp.symbols("sigma epsilon Delta", positive=True)


def _phi(z: sp.Expr) -> sp.Expr:
    return (1 + sp.erf(z / sp.sqrt(2))) / 2


@claim("001.gaussian.analytic", "Optimal Gaussian Mechanism, Theorem [Balle-Wang]", "delta = "
       "Phi(Delta/(2 sigma) - eps sigma/Delta) - e^{-eps} Phi(-Delta/(2 sigma) - eps sigma/"
       "Delta)", status=CORRECTED, corrected="delta = Phi(Delta/(2 sigma) - eps sigma/Delta) "
       "- e^{+eps} Phi(-Delta/(2 sigma) - eps sigma/Delta)", errata="errata.md#g1",
       notebook=_NB,
       formula={"delta": _phi(_SENS / (2 * _SIG) - _EPS_S * _SIG / _SENS)
                - sp.exp(_EPS_S) * _phi(-_SENS / (2 * _SIG) - _EPS_S * _SIG / _SENS)})
def _analytic_gaussian(f: dict) -> Verdict:
    """The printed profile (e^{-eps}) and the corrected one (the formula) against the
    hockey-stick divergence computed by quadrature of the two densities (no closed form)."""
    rows, printed_ok, corrected_ok = [], True, True
    printed_f = (_phi(_SENS / (2 * _SIG) - _EPS_S * _SIG / _SENS)
                 - sp.exp(-_EPS_S) * _phi(-_SENS / (2 * _SIG) - _EPS_S * _SIG / _SENS))
    with workdps(30):
        for e, s, D in (("0.5", "2", 1), ("1", "1", 1), ("0.1", "5", 1), ("3", "0.8", 2)):
            ee, ss = mpmath.mpf(e), mpmath.mpf(s)
            true = _hockey_stick_quad(ee, ss / D)  # the profile depends on sigma/Delta only
            pt = {_EPS_S: exact(e), _SIG: exact(s), _SENS: D}
            printed = to_mpf(printed_f.subs(pt))
            fixed = to_mpf(sp.sympify(f["delta"]).subs(pt))
            tol = mpmath.mpf("1e-20") * (1 + abs(true))
            printed_ok &= abs(printed - true) < tol
            corrected_ok &= abs(fixed - true) < tol
            rows.append(f"eps={e}, sigma={s}: quadrature {fmt(true)}, printed {fmt(printed)}, "
                        f"with e^+eps {fmt(fixed)}")
    return Verdict(bool(printed_ok), bool(corrected_ok), "; ".join(rows))


@claim("001.gaussian.accuracy", "Accuracy of Gaussian mechanism", "Delta_1 = k/n, Delta_2 = "
       "sqrt(k)/n; Gaussian noise N(0, 2k log(1/delta)/(n eps^2)); E||z - q||_2 = O(k^{3/2}/"
       "(n eps)) (Laplace), O(k/(n eps)) (Gaussian, up to log factors)", status=CORRECTED,
       corrected="the variance is 2k log(1/delta)/(n^2 eps^2); the rates hold",
       errata="errata.md#g4", notebook=_NB)
def _gaussian_accuracy() -> Verdict:
    k, n, e, dl = sp.symbols("k n epsilon delta", positive=True)
    d2 = sp.sqrt(k) / n
    d1 = k / n
    # the notes' calibration sigma^2 = 2 Delta_2^2 log(1/delta)/eps^2 and the printed variance
    sigma2 = 2 * d2**2 * sp.log(1 / dl) / e**2
    printed = 2 * k / (n * e**2) * sp.log(1 / dl)
    lap_scale = d1 / e
    lap_l2 = sp.sqrt(k * 2 * lap_scale**2)
    gauss_l2 = sp.sqrt(k * sigma2)
    rates = (sp.simplify(lap_l2 / (k ** sp.Rational(3, 2) / (n * e))),
             sp.simplify(gauss_l2 / (k / (n * e))))
    ok_printed = sp.simplify(sigma2 - printed) == 0
    ok_rates = all(not r.has(k) and not r.has(n) for r in rates)
    return Verdict(bool(ok_printed and ok_rates), bool(ok_rates),
                   f"classic sigma^2 with Delta_2 = sqrt(k)/n: {sigma2} (printed {printed}); "
                   f"E||N||_2 rates (root-mean-square) / claimed: {rates}")


@claim("001.postprocessing", "Properties of Approximate DP: 1- Post-processing", "If M is "
       "(eps, delta)-DP, so is any post-processing of M", notebook=_NB)
def _post_processing() -> Verdict:
    p = {0: Fraction(1, 2), 1: Fraction(3, 10), 2: Fraction(1, 5)}
    q = {0: Fraction(1, 5), 1: Fraction(3, 10), 2: Fraction(1, 2)}

    def kernel(y):
        return {"lo": Fraction(1, 1 + y), "hi": 1 - Fraction(1, 1 + y)}

    pp, qq = post_process(p, kernel), post_process(q, kernel)
    rows, ok = [], True
    for e in (0, sp.Rational(1, 2), 1):
        before, after = hockey_stick(p, q, e), hockey_stick(pp, qq, e)
        ok &= after <= before
        rows.append(f"eps={e}: {sp.N(after, 6)} <= {sp.N(before, 6)}")
    return Verdict(ok, detail="H_eps after/before a random map: " + "; ".join(rows))


@claim("001.group", "Properties: 2- Group privacy, Theorem", "M_D(A) <= e^{K eps} M_D'(A) + "
       "K e^{(K-1) eps} delta for D, D' differing in K entries", notebook=_NB, budget=10)
def _group_privacy() -> Verdict:
    rows, ok = [], True
    for e, d in (("0.5", "0.05"), ("1", "0.01")):
        noise = TruncatedLaplace(eps=e, delta=d).numeric_noise()
        for K in (2, 3):
            h = noise_hockey_stick(noise, K, str(sp.N(K * exact(e), 20)))
            bound = K * mpmath.exp((K - 1) * mpmath.mpf(e)) * mpmath.mpf(d)
            ok &= h <= bound
            rows.append(f"eps={e}, delta={d}, K={K}: H_(K eps) = {fmt(h)} <= {fmt(bound)}")
    return Verdict(ok, detail="truncated Laplacian, shift K Delta: " + "; ".join(rows))


@claim("001.composition", "Properties: 3- Basic composition", "Composition of k mechanisms "
       "each (eps_i, delta_i)-DP is (sum eps_i, sum delta_i)-DP", notebook=_NB)
def _basic_composition() -> Verdict:
    def canonical(e, d):
        e, d = exact(e), exact(d)
        w = sp.exp(e) / (1 + sp.exp(e))
        return ({"a": d, "b": (1 - d) * w, "c": (1 - d) * (1 - w)},
                {"a": 0, "b": (1 - d) * (1 - w), "c": (1 - d) * w})

    rows, ok = [], True
    for (e1, d1), (e2, d2) in ((("0.5", "0.1"), ("1", "0.05")), (("0", "0.25"), ("0.3", "0"))):
        p1, q1 = canonical(e1, d1)
        p2, q2 = canonical(e2, d2)
        single = (hockey_stick(p1, q1, exact(e1)), hockey_stick(p2, q2, exact(e2)))
        h = hockey_stick(compose(p1, p2), compose(q1, q2), exact(e1) + exact(e2))
        ok &= single == (exact(d1), exact(d2)) and h <= exact(d1) + exact(d2)
        rows.append(f"({e1},{d1}) o ({e2},{d2}): H = {sp.nsimplify(h)} <= "
                    f"{exact(d1) + exact(d2)}")
    return Verdict(ok, detail="exact product laws of tight (eps_i, delta_i) pairs: "
                   + "; ".join(rows))
