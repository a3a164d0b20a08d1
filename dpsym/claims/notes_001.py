r"""The claims of the lecture notes on approximate differential privacy (source 001): the
definition, the privacy loss, the Gaussian mechanism and the properties of
:math:`(\varepsilon, \delta)`-DP.

Each statement is registered where its check is written, in the order of the notes.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable
from fractions import Fraction

import flint
import mpmath
import sympy as sp

from dpsym.claims.common import classic_gaussian, event_definition, exact, fmt
from dpsym.claims.decide import sign_certificate
from dpsym.claims.generic import cone_certificate
from dpsym.claims.registry import CORRECTED, Verdict, claim
from dpsym.gaussian.calibration import profile_mp
from dpsym.mechanisms import Laplace, TruncatedLaplace
from dpsym.mechanisms.textbook import (
    compose,
    exposure_probability,
    hockey_stick,
    name_and_shame,
    post_process,
    randomized_response,
)
from dpsym.precision import workdps
from dpsym.privacy.profiles import hockey_stick as noise_hockey_stick
from dpsym.privacy.profiles import privacy_loss_bound
from dpsym.symbolic.numerics import to_mpf
from dpsym.symbols import Delta, delta, eps, x

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
    delta(eps) = delta) and the Gaussian (Pr(|Z| > eps) > 0, and not eps-DP); and decided
    exhaustively in exact arithmetic on every pair of laws of a finite family
    (:func:`_pure_iff_exhaustive`)."""
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
    agree, pairs = _pure_iff_exhaustive()
    ok &= agree == pairs
    rows.append(f"every pair of laws on 3 points with masses in (1/6)Z, e^eps in {{2, 3/2}}:"
                f" the two sides agree on {agree} of {pairs} (neighbour pairs, both orders)")
    return Verdict(bool(ok), detail="; ".join(rows))


def _pure_iff_exhaustive() -> tuple[int, int]:
    """Both sides of the equivalence, decided exactly on every pair (p, q) of distributions on
    3 points with masses in {0, 1/6, ..., 1} and e^eps in {2, 3/2}: Pr_p(|Z| <= eps) = 1 and
    Pr_q(|Z'| <= eps) = 1 (Z = log p/q, infinite where q = 0), against eps-DP in both orders
    (sum (p - e^eps q)_+ = 0 and sum (q - e^eps p)_+ = 0). Returns (agreements, pairs)."""
    laws = [(Fraction(i, 6), Fraction(j, 6), Fraction(6 - i - j, 6))
            for i in range(7) for j in range(7 - i)]

    def loss_ok(pp, qq, eb):  # Pr_pp(|log pp/qq| <= eps) = 1
        return all(qq[o] > 0 and qq[o] / eb <= pp[o] <= eb * qq[o]
                   for o in range(3) if pp[o] > 0)

    def dp(pp, qq, eb):
        return sum(max(pp[o] - eb * qq[o], 0) for o in range(3)) == 0
    agree = pairs = 0
    for eb in (Fraction(2), Fraction(3, 2)):
        for pp in laws:
            for qq in laws:
                pairs += 1
                lhs = loss_ok(pp, qq, eb) and loss_ok(qq, pp, eb)
                agree += lhs == (dp(pp, qq, eb) and dp(qq, pp, eb))
    return agree, pairs


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


# ----------------------------------------------------------------------------- proof steps

_NB_PF = "notebooks/proofs_001.py"


# Every pair of distributions and every event A: with densities p, q of M_D, M_D' (w.r.t.
# a common measure) the sets A and Bad = {p > e^eps q} split the output space into four
# cells; each mass in the chain is a sum of cell masses. Written with generic sums over
# consecutive blocks of a countable output space (o = 1..n_1: A & Good, n_1 + 1..n_2:
# A & Bad, n_2 + 1..n_3: Bad - A, n_3 + 1..n_4: the rest); an integral is additive and
# positive in the same way, which is all the argument uses.
_o = sp.Symbol("o", integer=True, positive=True)
_nb = sp.symbols("n1:5", integer=True, positive=True)
_pD, _qD = sp.IndexedBase("p", nonnegative=True), sp.IndexedBase("q", nonnegative=True)
_BLOCK = {"A&Good": (1, _nb[0]), "A&Bad": (_nb[0] + 1, _nb[1]),
          "Bad-A": (_nb[1] + 1, _nb[2]), "rest": (_nb[2] + 1, _nb[3])}


def _mass(dens: sp.IndexedBase, lo: sp.Expr, hi: sp.Expr) -> sp.Sum:
    return sp.Sum(dens[_o], (_o, lo, hi))


_CELLS = {f"{d}({c})": _mass(dens, *_BLOCK[c]) for d, dens in (("P", _pD), ("Q", _qD))
          for c in _BLOCK}
#: The masses the notes write: each event's range of blocks and the cells it is made of.
_EVENTS = {"A": ((1, _nb[1]), ("A&Good", "A&Bad")), "A&Bad": (_BLOCK["A&Bad"], ("A&Bad",)),
           "A&Good": (_BLOCK["A&Good"], ("A&Good",)),
           "Bad": ((_nb[0] + 1, _nb[2]), ("A&Bad", "Bad-A"))}
_M = {f"{d}({e})": sp.Symbol(f"M_{d}({e})", nonnegative=True)
      for d in ("D", "D'") for e in _EVENTS}


def _as_cells() -> tuple[dict, bool]:
    """Each event mass as its sum over the event's range, and that sum as the sum of its
    cells' masses (sympy splits the range: checked, not assumed)."""
    sub, ok = {}, True
    for (d, dens), e in itertools.product((("D", _pD), ("D'", _qD)), _EVENTS):
        (lo, hi), cells = _EVENTS[e]
        total = sum((_CELLS[f"{'P' if d == 'D' else 'Q'}({c})"] for c in cells), sp.S.Zero)
        ok &= sp.simplify(_mass(dens, lo, hi) - total) == 0
        sub[_M[f"{d}({e})"]] = total
    return sub, ok


def _chain_check(links: tuple[str, ...]) -> Callable[[dict], Verdict]:
    """The chain M_D(A) = l_1 <= l_2 <= ... <= l_k = e^eps M_D'(A) + delta, for every pair
    of distributions and every event A, by an exact reduction: every link is linear in the
    eight cell masses and delta; the first must equal M_D(A) and the last e^eps M_D'(A) +
    delta identically, and each difference l_{j+1} - l_j must be a nonnegative
    combination (:func:`~.generic.cone_certificate`) of the nonnegative quantities the
    proof uses: the cell masses, sum over A & Good of (e^eps q - p) and over Good - A (the
    termwise lemma: on Good = complement of Bad, p <= e^eps q term by term), and the
    hypothesis delta - M_D(Bad) >= 0 (Step 2 of the recipe)."""
    def check(f: dict) -> Verdict:
        sub, split_ok = _as_cells()
        good_term = sp.Not(sp.StrictGreaterThan(_pD[_o], sp.exp(eps) * _qD[_o]))
        term_ok = good_term == sp.LessThan(_pD[_o], sp.exp(eps) * _qD[_o])
        gens = {}
        for c in ("A&Good", "rest"):
            lo, hi = _BLOCK[c]
            summed = sp.Sum(sp.exp(eps) * _qD[_o] - _pD[_o], (_o, lo, hi)).expand()
            gen = sp.exp(eps) * _CELLS[f"Q({c})"] - _CELLS[f"P({c})"]
            term_ok &= sp.simplify(summed - gen) == 0
            gens[f"sum over {c} of e^eps q - p"] = (gen, _CELLS[f"P({c})"])
        gens["delta - M_D(Bad)"] = (delta - sub[_M["D(Bad)"]], delta)
        chain = [_M["D(A)"], *(sp.sympify(f[k]) for k in links)]
        cells = [*_CELLS.values(), delta]
        first = sp.simplify((chain[1] - chain[0]).subs(sub)) == 0
        last = sp.simplify((chain[-1] - sp.exp(eps) * _M["D'(A)"] - delta).subs(sub)) == 0
        rows, ok = [], split_ok and term_ok and first and last
        for j, (lo_, hi_) in enumerate(itertools.pairwise(chain[1:]), start=1):
            good, cert = cone_certificate((hi_ - lo_).subs(sub), cells, gens, [eps])
            ok &= good
            rows.append(f"l{j + 1} - l{j} = {cert}" if good else f"l{j} <= l{j + 1}: {cert}")
        return Verdict(bool(ok), detail=f"event masses = sums of cell masses (generic sums): "
                       f"{split_ok}; not(p > e^eps q) is p <= e^eps q termwise: {term_ok}; "
                       f"l1 = M_D(A): {first}; last = e^eps M_D'(A) + delta: {last}; "
                       + "; ".join(rows))
    return check


_NO_MORE = ("every pair of distributions and every event: exact reduction to the masses of "
            "the four cells of A and Bad (generic sums), each link a certified nonnegative "
            "combination")
claim("001.catastrophic.s1", "Remark 4, the recipe (Step 1 + Step 2 => DP)", "M_D(A) = "
      "M_D(A & Bad) + M_D(A & Bad^c) <= M_D(A & Bad^c) + M_D(Bad) <= M_D(A & Bad^c) + delta "
      "<= e^eps M_D'(A & Bad^c) + delta <= e^eps M_D'(A) + delta", kind="proof-step",
      theorem="001.catastrophic", notebook=_NB_PF,
      formula={"l1": _M["D(A&Bad)"] + _M["D(A&Good)"], "l2": _M["D(A&Good)"] + _M["D(Bad)"],
               "l3": _M["D(A&Good)"] + delta, "l4": sp.exp(eps) * _M["D'(A&Good)"] + delta,
               "l5": sp.exp(eps) * _M["D'(A)"] + delta})(
    _chain_check(("l1", "l2", "l3", "l4", "l5")))
claim("001.gaussian.classic.s1", "Gaussian Mechanism, proof (Good/Bad decomposition)",
      "M_D(A) = M_D(A & Good) + M_D(A & Bad) <= e^eps M_D'(A & Good) + M_D(Bad) <= e^eps "
      "M_D'(A) + delta if M_D(Bad) <= delta", kind="proof-step",
      theorem="001.gaussian.classic", notebook=_NB_PF,
      formula={"l1": _M["D(A&Good)"] + _M["D(A&Bad)"],
               "l2": sp.exp(eps) * _M["D'(A&Good)"] + _M["D(Bad)"],
               "l3": sp.exp(eps) * _M["D'(A)"] + delta})(_chain_check(("l1", "l2", "l3")))

_z, _Lg = sp.Symbol("z", real=True), sp.Symbol("L", positive=True)  # L = log(1/delta)
_SIGMA2 = 2 * Delta**2 * _Lg / eps**2


@claim("001.gaussian.classic.s2", "Gaussian Mechanism, proof (the privacy loss)", "With "
       "sigma^2 = 2 Delta^2 log(1/delta)/eps^2, q_D = 0, q_D' = Delta: log f_D(z)/f_D'(z) = "
       "eps^2/(4 log 1/delta) - z eps^2/(2 Delta log 1/delta)", kind="proof-step",
       theorem="001.gaussian.classic", notebook=_NB_PF,
       formula={"loss": eps**2 / (4 * _Lg) - _z * eps**2 / (2 * Delta * _Lg)})
def _gauss_loss(f: dict) -> Verdict:
    """The log-ratio of the two normal densities, by sympy. (The notes write "q_D = 0 >= q_D'
    = Delta", impossible for Delta > 0; the computation uses q_D' = Delta.)"""
    def dens(m):
        return sp.exp(-(_z - m) ** 2 / (2 * _SIGMA2)) / sp.sqrt(2 * sp.pi * _SIGMA2)
    loss = sp.simplify(sp.expand_log(sp.log(dens(0) / dens(Delta)), force=True))
    ok = sp.simplify(loss - sp.sympify(f["loss"])) == 0
    return Verdict(bool(ok), detail=f"log f_D/f_D' = {sp.expand(loss)}")


@claim("001.gaussian.classic.s3", "Gaussian Mechanism, proof (the bad set)", "Bad = {z : "
       "eps^2/(4 log 1/delta) - z eps^2/(2 Delta log 1/delta) >= eps} is contained in {z <= "
       "-2 Delta log(1/delta)/eps}", status=CORRECTED,
       corrected="Bad = {z <= Delta/2 - 2 Delta log(1/delta)/eps}, which is not contained in "
       "the printed set (it contains (-2 Delta L/eps, Delta/2 - 2 Delta L/eps])",
       errata="errata.md#g7", kind="proof-step", theorem="001.gaussian.classic",
       notebook=_NB_PF, formula={"z_max": Delta / 2 - 2 * Delta * _Lg / eps})
def _gauss_bad(f: dict) -> Verdict:
    """The loss is decreasing and linear in z: Bad = {z <= z*}, z* the root of loss = eps
    (sympy). The printed inclusion holds iff z* <= -2 Delta L/eps; the point z = -2 Delta
    L/eps + Delta/4 (exact, at eps = 1/2, delta = 1/10, Delta = 1) is in Bad and not in the
    printed set."""
    loss = eps**2 / (4 * _Lg) - _z * eps**2 / (2 * Delta * _Lg)
    (zstar,) = sp.solve(sp.Eq(loss, eps), _z)
    printed_edge = -2 * Delta * _Lg / eps
    gap = sp.simplify(zstar - printed_edge)
    pt = {eps: sp.Rational(1, 2), Delta: 1, _Lg: sp.log(10)}
    zc = (printed_edge + Delta / 4).subs(pt)
    in_bad = bool(sp.N(loss.subs(pt).subs(_z, zc) - pt[eps], 30) >= 0)
    printed = bool(gap <= 0) and not (in_bad and bool(zc > printed_edge.subs(pt)))
    fixed = sp.simplify(zstar - sp.sympify(f["z_max"])) == 0
    return Verdict(printed, bool(fixed), detail=f"Bad = {{z <= {zstar}}}; minus the printed "
                   f"edge: {gap} > 0; z = {sp.N(zc, 8)} is in Bad and not in the printed set")


def _bad_mass(e: mpmath.mpf, xx: mpmath.mpf) -> mpmath.mpf:
    """M_D(Bad) = Phi(eps/(2x) - x) with x = sqrt(2 log(1/delta)) (the corrected bad set)."""
    return mpmath.ncdf(e / (2 * xx) - xx)


def _arb_margin(lo: flint.arb, hi: flint.arb) -> bool:
    """Phi(1/(2x) - x) < e^{-x^2/2} on [lo, hi], by Arb interval evaluation with adaptive
    bisection (depth <= 40)."""
    stack = [(lo, hi, 0)]
    while stack:
        a, c, depth = stack.pop()
        X = (a + c) / 2 + flint.arb(0, ((c - a) / 2).upper())
        phi = (-(1 / (2 * X) - X) / flint.arb(2).sqrt()).erfc() / 2
        if (phi - (-X * X / 2).exp()) < 0:
            continue
        if depth >= 40:
            return False
        mid = (a + c) / 2
        stack += [(a, mid, depth + 1), (mid, c, depth + 1)]
    return True


@claim("001.gaussian.classic.s4", "Gaussian Mechanism, proof (the last step)", "M_D(Bad) <= "
       "delta for eps <= 1, delta in (0, 1) [straightforward, but messy, computation]",
       status=CORRECTED, corrected="with the true bad set M_D(Bad) = Phi(eps/(2x) - x), x = "
       "sqrt(2 log(1/delta)); it is <= delta for every eps <= 1 and delta <= 1/2 (Mills "
       "ratio), and on eps <= 1 up to delta*(1) = 0.97381 (certified by interval arithmetic "
       "up to delta = 0.97); it fails for delta in (delta*(eps), 1)", errata="errata.md#g7",
       kind="proof-step", theorem="001.gaussian.classic", notebook=_NB_PF, budget=15,
       no_mutants="the bound is delta itself: the check locates the boundary delta*(eps) and"
       " certifies the corrected domain")
def _gauss_bad_mass() -> Verdict:
    """Phi(eps/(2x) - x) increases in eps, so eps = 1 is the worst case. (1) delta <= 1/2,
    i.e. x >= x0 = sqrt(2 log 2): with y = x - 1/(2x) >= y0 > 0, Mills' ratio gives Phi(-y)
    <= phi(y)/y <= e^{-x^2/2} e^{1/2}/(sqrt(2 pi) y), <= delta once y0 >= e^{1/2}/sqrt(2 pi)
    (decided in Arb). (2) On x in [x(0.97), x0] an Arb covering proves the strict
    inequality. (3) The boundary delta*(1) (root of Phi(1/(2x) - x) = e^{-x^2/2}) is located
    and the step fails just above it (mpmath, 30 digits)."""
    x0 = (2 * flint.arb(2).log()).sqrt()
    y0 = x0 - 1 / (2 * x0)
    mills = bool(y0 > 0 and y0 > flint.arb("0.5").exp() / (2 * flint.arb.pi()).sqrt())
    x97 = (2 * (1 / flint.arb("0.97")).log()).sqrt()
    covered = _arb_margin(x97, x0)
    with workdps(30):
        root = mpmath.findroot(lambda t: _bad_mass(mpmath.mpf(1), t) - mpmath.exp(-t**2 / 2),
                               (mpmath.mpf("0.2"), mpmath.mpf("0.4")), solver="anderson")
        dstar = mpmath.exp(-root**2 / 2)
        above = (dstar + 1) / 2
        xa = mpmath.sqrt(2 * mpmath.log(1 / above))
        fails = _bad_mass(mpmath.mpf(1), xa) > above
    return Verdict(False, bool(mills and covered and fails),
                   detail=f"Mills bound for delta <= 1/2: y0 = {y0.mid().str(8)} > "
                   f"e^(1/2)/sqrt(2 pi) = 0.65774: {mills}; Arb covering of delta in [1/2, "
                   f"0.97]: {covered}; boundary at eps = 1: delta* = {fmt(dstar)}; at delta ="
                   f" {fmt(above)}: M_D(Bad) = {fmt(_bad_mass(mpmath.mpf(1), xa))} > delta")


_r012 = sp.symbols("r0:3", nonnegative=True)
_SHAME = {k: sp.Symbol(k, nonnegative=True) for k in ("Pr(Z_D in E, B_i = 0)",
                                                      "Pr(Z_D in E | B_i = 1)",
                                                      "Pr(Z_D' in E)")}


def _shame_slices(n: int, d: Fraction) -> bool:
    """Fubini on instances: for n entries (binary data, every dataset, every differing
    entry i, every event E of the output space) P(Z_D in E) = sum_y P(Y_i = y) R(E_y),
    R the law of the other n - 1 coordinates, E_y the slice of E at Y_i = y (exact)."""
    ok = True
    for data in itertools.product((0, 1), repeat=n):
        law = [name_and_shame(d, v) for v in data]
        rest_law: dict = {}
        for i in range(n):
            rest_law = {}
            for outs in itertools.product(*[law[j].items() for j in range(n) if j != i]):
                key = tuple(o for o, _ in outs)
                rest_law[key] = rest_law.get(key, 0) + sp.Mul(*[pr for _, pr in outs])
            space = [(y, *rest) for y in law[i] for rest in rest_law]
            for mask in range(2 ** len(space)):
                ev = {o for j, o in enumerate(space) if (mask >> j) & 1}
                full = sum((law[i][o[0]] * rest_law[o[1:]] for o in ev), sp.S.Zero)
                sliced = sum((pr * sum((rest_law[k] for k in rest_law if (y, *k) in ev),
                                       sp.S.Zero)) for y, pr in law[i].items())
                ok &= sp.simplify(full - sliced) == 0
    return ok


@claim("001.name_and_shame.s1", "Example (Name-and-Shame), proof", "Pr(Z_D in E) = Pr(Z_D in "
       "E, B_i = 0) + delta Pr(Z_D in E | B_i = 1) <= Pr(Z_D' in E) + delta",
       kind="proof-step", theorem="001.name_and_shame", notebook=_NB_PF,
       formula={"split": _SHAME["Pr(Z_D in E, B_i = 0)"]
                + delta * _SHAME["Pr(Z_D in E | B_i = 1)"],
                "bound": _SHAME["Pr(Z_D' in E)"] + delta})
def _shame_chain(f: dict) -> Verdict:
    r"""For every n, every event E and neighbours D, D' differing in entry i, by an exact
    reduction: Z = (Y_i, Y_{-i}) with Y_{-i} independent of Y_i and of the same law R under
    D and D' (the other entries agree), so by Fubini Pr(Z_D in E) = sum_y Pr(Y_i = y)
    R(E_y) with the slices E_y = {z : (y, z) in E}: with r0 = R(E_bot), r1 = R(E_{x_i}),
    r2 = R(E_{x'_i}) -- any numbers in [0, 1], whatever n is -- every probability of the
    step is a polynomial in (delta, r0, r1, r2) (the entry's law from
    :func:`dpsym.mechanisms.textbook.name_and_shame` with a symbolic delta). The split must equal
    Pr(Z_D in E) identically, the bound must be the (0, delta)-DP right side Pr(Z_D' in
    E) + delta, and bound - split, multilinear in (r0, r1, r2), is >= 0 on [0, 1]^3 iff it
    is at the 8 vertices (a multilinear function is affine in each variable), each a
    polynomial in delta decided on (0, 1) (delta = 1/(1 + beta), beta > 0). Fubini itself
    is confirmed exactly for n = 2 (every dataset, entry and event, delta = 1/10)."""
    beta = sp.Symbol("beta", positive=True)
    slices = {None: _r012[0], "x": _r012[1], "x'": _r012[2]}
    law_d, law_d2 = name_and_shame(delta, "x"), name_and_shame(delta, "x'")
    pr_d = sum((pr * slices[y] for y, pr in law_d.items()), sp.S.Zero)
    pr_d2 = sum((pr * slices[y] for y, pr in law_d2.items()), sp.S.Zero)
    sub = {_SHAME["Pr(Z_D in E, B_i = 0)"]: law_d[None] * slices[None],
           _SHAME["Pr(Z_D in E | B_i = 1)"]: slices["x"], _SHAME["Pr(Z_D' in E)"]: pr_d2}
    split, bound = sp.sympify(f["split"]).subs(sub), sp.sympify(f["bound"]).subs(sub)
    ident = sp.expand(split - pr_d) == 0
    conclusion = sp.expand(bound - pr_d2 - delta) == 0
    gap = sp.expand(bound - split)
    multilinear = all(sp.degree(gap, r) <= 1 for r in _r012)
    signs = [sign_certificate(gap.subs(dict(zip(_r012, v, strict=True))).subs(
        delta, 1 / (1 + beta)), [beta]) for v in itertools.product((0, 1), repeat=3)]
    ok = ident and conclusion and multilinear and all(sg in ("zero", "positive")
                                                      for sg in signs)
    fubini = _shame_slices(2, Fraction(1, 10))
    return Verdict(bool(ok and fubini), detail=f"split - Pr(Z_D in E) = 0: {ident}; bound = "
                   f"Pr(Z_D' in E) + delta: {conclusion}; bound - split = {sp.factor(gap)}, "
                   f"multilinear: {multilinear}, signs at the 8 vertices of [0, 1]^3: "
                   f"{signs}; Fubini on every event for n = 2: {fubini}")


_nS = sp.Symbol("n", positive=True)


@claim("001.name_and_shame.s2", "Example (Name-and-Shame)", "1 - (1 - delta)^n ~ n delta "
       "(and <= n delta)", kind="proof-step", theorem="001.name_and_shame", notebook=_NB_PF,
       formula={"approx": _nS * delta})
def _shame_approx(f: dict) -> Verdict:
    """sympy: lim_{delta->0} (1 - (1 - delta)^n)/approx = 1 for symbolic n; and 1 - (1 -
    delta)^n <= n delta (the difference vanishes at 0 with derivative n(1 - (1 -
    delta)^{n-1}) >= 0), checked by sympy for n = 1..8."""
    exact_ = 1 - (1 - delta) ** _nS
    lim = sp.limit(exact_ / sp.sympify(f["approx"]), delta, 0, "+")
    deriv_ok = all(sp.expand(sp.diff(nv * delta - 1 + (1 - delta) ** nv, delta)
                             - nv * (1 - (1 - delta) ** (nv - 1))) == 0 for nv in range(1, 9))
    return Verdict(bool(lim == 1 and deriv_ok), detail=f"lim (1 - (1 - delta)^n)/approx = "
                   f"{lim}; the derivative argument for n = 1..8: {deriv_ok}")


_K = sp.Symbol("K", positive=True, integer=True)


@claim("001.group.s1", "Properties: 2- Group privacy, proof", "Applying the definition along "
       "K - 1 intermediate neighbouring datasets gives delta sum_{j<K} e^{j eps} = delta "
       "(e^{K eps} - 1)/(e^eps - 1) <= K e^{(K-1) eps} delta", kind="proof-step",
       theorem="001.group", notebook=_NB_PF,
       formula={"chain": (sp.exp(_K * eps) - 1) / (sp.exp(eps) - 1)})
def _group_chain(f: dict) -> Verdict:
    """Induction M_D0(A) <= e^eps M_D1(A) + delta <= ... gives the geometric sum (sympy,
    K = 1..8, symbolic eps); it is <= K e^{(K-1) eps} term by term (e^{j eps} <= e^{(K-1)
    eps}), decided symbolically as a sum of nonnegative terms e^{j eps}(e^{(K-1-j) eps} -
    1); and the recursion is run on a tight mechanism: the truncated Laplacian at shift
    K Delta has H_{K eps} <= delta sum_j e^{j eps}."""
    ok, rows = True, []
    for kv in range(1, 9):
        geo = sum(sp.exp(j * eps) for j in range(kv))
        ok &= sp.simplify(geo - sp.sympify(f["chain"]).subs(_K, kv)) == 0
        diff = sum(sp.exp(j * eps) * (sp.exp((kv - 1 - j) * eps) - 1) for j in range(kv))
        ok &= sp.expand(diff - (kv * sp.exp((kv - 1) * eps) - geo)) == 0
    noise = TruncatedLaplace(eps="0.5", delta="0.05").numeric_noise()
    for kv in (2, 3):
        h = noise_hockey_stick(noise, kv, str(sp.N(kv * sp.Rational(1, 2), 20)))
        bound = mpmath.mpf("0.05") * to_mpf(sp.sympify(f["chain"]).subs(
            {_K: kv, eps: sp.Rational(1, 2)}))
        ok &= h <= bound
        rows.append(f"K={kv}: H = {fmt(h)} <= delta (e^(K eps) - 1)/(e^eps - 1) = {fmt(bound)}")
    return Verdict(bool(ok), detail="geometric sum identity and termwise bound for K = 1..8; "
                   + "; ".join(rows))
