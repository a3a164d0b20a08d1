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


@claim("001.def", "Approximate DP, Def.", "M is (eps,delta)-DP iff E_eps(M_D || M_D') <= "
       "delta, equivalently M_D(A) <= e^eps M_D'(A) + delta for every event A", notebook=_NB)
def _definition_sets() -> Verdict:
    return event_definition()


@claim("001.pure", "Remark 1", "Setting delta = 0 recovers pure eps-DP", notebook=_NB)
def _pure_recovered() -> Verdict:
    p, q = randomized_response("1")
    h_eps, h_less = hockey_stick(p, q, 1), hockey_stick(p, q, sp.Rational(9, 10))
    return Verdict(h_eps == 0 and h_less > 0,
                   detail=f"RR(1): H_1 = {h_eps} (1-DP = (1, 0)-DP), H_0.9 = {sp.N(h_less, 6)}")


@claim("001.sufficient", "Remark 3", "Pr(|Z_{D,D'}| <= eps) >= 1 - delta for all D ~ D' "
       "implies (eps, delta)-DP", notebook=_NB)
def _loss_sufficient() -> Verdict:
    rows, ok = [], True
    with workdps(30):
        for e, s in (("0.5", "2"), ("1", "1"), ("0.2", "4")):
            ee, mu = mpmath.mpf(e), 1 / mpmath.mpf(s)
            # Z = log p(x)/p'(x) ~ N(mu^2/2, mu^2) under x ~ N(0, sigma^2), shift Delta = 1
            tail = (1 - mpmath.ncdf((ee - mu**2 / 2) / mu)) + mpmath.ncdf((-ee - mu**2 / 2) / mu)
            prof = profile_mp(ee, mpmath.mpf(s))
            ok &= prof <= tail
            rows.append(f"eps={e}, sigma={s}: delta(eps) {fmt(prof)} <= Pr(|Z| > eps) "
                        f"{fmt(tail)}")
    return Verdict(ok, detail="Gaussian: " + "; ".join(rows))


@claim("001.pure_iff", "Remark 3", "Pr(|Z_{D,D'}| <= eps) = 1 for all D ~ D' iff eps-DP",
       notebook=_NB)
def _loss_pure_iff() -> Verdict:
    mech = Laplace(eps="0.8")
    loss = privacy_loss_bound(mech.numeric_noise(), 1)
    prof = mech.privacy_profile("0.8").number
    ok = abs(loss - mpmath.mpf("0.8")) < mpmath.mpf("1e-12") and prof == 0
    return Verdict(ok, detail=f"Laplace: sup |Z| = {fmt(loss)} = eps and delta(eps) = {prof}")


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


@claim("001.gaussian.analytic", "Optimal Gaussian Mechanism, Theorem [Balle-Wang]", "delta = "
       "Phi(Delta/(2 sigma) - eps sigma/Delta) - e^{-eps} Phi(-Delta/(2 sigma) - eps sigma/"
       "Delta)", status=CORRECTED, corrected="delta = Phi(Delta/(2 sigma) - eps sigma/Delta) "
       "- e^{+eps} Phi(-Delta/(2 sigma) - eps sigma/Delta)", errata="errata.md#g1",
       notebook=_NB)
def _analytic_gaussian() -> Verdict:
    rows, printed_ok, corrected_ok = [], True, True
    with workdps(30):
        for e, s in (("0.5", "2"), ("1", "1"), ("0.1", "5")):
            ee, ss = mpmath.mpf(e), mpmath.mpf(s)
            m = 1 / ss
            # the printed profile and its correction, under test against the exact profile
            printed = mpmath.ncdf(m / 2 - ee / m) - mpmath.exp(-ee) * mpmath.ncdf(-m / 2 - ee / m)
            fixed = mpmath.ncdf(m / 2 - ee / m) - mpmath.exp(ee) * mpmath.ncdf(-m / 2 - ee / m)
            true = profile_mp(ee, ss)
            printed_ok &= abs(printed - true) < mpmath.mpf("1e-20")
            corrected_ok &= abs(fixed - true) < mpmath.mpf("1e-20")
            rows.append(f"eps={e}, sigma={s}: exact {fmt(true)}, printed {fmt(printed)}, "
                        f"with e^+eps {fmt(fixed)}")
    return Verdict(printed_ok, corrected_ok, "; ".join(rows))


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
