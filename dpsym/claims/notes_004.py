r"""The claims of the lecture notes on the Laplace and exponential mechanisms (source 004):
counting and histogram queries, Laplace tails and the union bound, report noisy max, the
exponential mechanism and a first look at approximate DP.

Each statement is registered where its check is written, in the order of the notes.
"""

from __future__ import annotations

import itertools
from fractions import Fraction

import mpmath
import sympy as sp

from dpsym.claims.common import count_sensitivity, fmt
from dpsym.claims.generic import affine_range, exp_increasing, log_gap
from dpsym.claims.registry import CORRECTED, Verdict, claim
from dpsym.mechanisms import Laplace
from dpsym.mechanisms.textbook import (
    exponential_mechanism,
    exponential_privacy_loss,
    hockey_stick,
    noisy_max_privacy_loss,
    sup_over_sets,
)
from dpsym.symbolic.numerics import to_mpf
from dpsym.symbols import Delta, eps

_NB_LAP, _NB_SEL = "notebooks/laplace.py", "notebooks/selection_and_approximate_dp.py"


# ----------------------------------------------------------------------------- Laplace

@claim("004.counting", "Counting queries", "Sensitivity of a counting query is 1; adding "
       "Lap(1/eps) gives eps-DP", notebook=_NB_LAP)
def _counting() -> Verdict:
    v = count_sensitivity()
    prof = Laplace(eps="0.3", Delta=1).privacy_profile("0.3").number
    return Verdict(v.printed and prof == 0, detail=v.detail + f"; Lap(1/eps): delta(eps) = {prof}")


@claim("004.k_counting", "Counting queries (k queries)", "k counting queries have "
       "sensitivity <= k; adding Lap(k/eps) gives eps-DP", notebook=_NB_LAP)
def _k_counting() -> Verdict:
    k, worst = 3, 0
    for data in itertools.product(range(2 ** k), repeat=3):
        full = [sum((v >> j) & 1 for v in data) for j in range(k)]
        for i in range(3):
            rest = data[:i] + data[i + 1:]
            part = [sum((v >> j) & 1 for v in rest) for j in range(k)]
            worst = max(worst, sum(abs(a - c) for a, c in zip(full, part, strict=False)))
    prof = Laplace(eps="0.5", Delta=k).privacy_profile("0.5").number
    return Verdict(worst <= k and prof == 0, detail=f"l1 sensitivity of {k} counting queries = "
                   f"{worst}; Lap(k/eps) at Delta = k: delta(eps) = {prof}")


@claim("004.histogram", "Histogram queries", "S_1(histogram) <= 2; adding Lap(2/eps) gives "
       "eps-DP", errata="errata.md#n1", notebook=_NB_LAP)
def _histogram_sens() -> Verdict:
    """The l1 sensitivity of a k-bucket histogram, exhaustively over all databases of n
    rows (k <= 3, n <= 4), for both neighbour relations (the maximum must be <= 2, and is 1
    for add/remove, 2 for replace), and Lap(2/eps) at Delta = 2 is eps-DP exactly."""
    worst_ar, worst_rep = 0, 0
    for k in (2, 3):
        for n in range(1, 5):
            for data in itertools.product(range(k), repeat=n):
                hist = [data.count(c) for c in range(k)]
                for i in range(n):
                    rem = data[:i] + data[i + 1:]
                    worst_ar = max(worst_ar, sum(abs(h - rem.count(c))
                                                 for c, h in enumerate(hist)))
                    for v in range(k):
                        rep = (*data[:i], v, *data[i + 1:])
                        worst_rep = max(worst_rep, sum(abs(h - rep.count(c))
                                                       for c, h in enumerate(hist)))
    prof = Laplace(eps="0.7", Delta=2).privacy_profile("0.7").number
    below = Laplace(eps="0.7", Delta=2).privacy_profile("0.69").number
    ok = worst_ar == 1 and worst_rep == 2 and prof == 0 and below > 0
    return Verdict(ok, detail=f"max l1 change (k <= 3 buckets, n <= 4 rows): add/remove "
                   f"{worst_ar}, replace {worst_rep} (both <= 2); Lap(2/eps) at Delta = 2: "
                   f"delta(eps) = {prof}, delta(0.99 eps) = {fmt(below)} > 0")


@claim("004.tail", "Remark (Laplace tail)", "If y ~ Lap(b), Pr[|y| > b t] <= e^{-t}",
       errata="errata.md#n2", notebook=_NB_LAP)
def _tail_bound() -> Verdict:
    bs, t, xx = sp.symbols("b t x", positive=True)
    tail = sp.simplify(2 * sp.integrate(sp.exp(-xx / bs) / (2 * bs), (xx, bs * t, sp.oo)))
    return Verdict(sp.simplify(tail - sp.exp(-t)) == 0,
                   detail=f"Pr[|Y| > b t] = {tail} (an equality)")


@claim("004.bucket", "Histogram with k buckets", "Pr[count in bucket i is off by more than "
       "t/eps] <= e^{-t} (with the Lap(2/eps) of the histogram remark)", status=CORRECTED,
       corrected="with Lap(1/eps) (add/remove neighbours, sensitivity 1) the probability is "
       "exactly e^{-t}; with Lap(2/eps) it is e^{-t/2}", errata="errata.md#n3",
       notebook=_NB_LAP)
def _bucket_error() -> Verdict:
    t, eps_ = sp.symbols("t epsilon", positive=True)
    xx = sp.Symbol("x", positive=True)

    def tail(scale):
        return sp.simplify(2 * sp.integrate(sp.exp(-xx / scale) / (2 * scale),
                                            (xx, t / eps_, sp.oo)))
    with_2, with_1 = tail(2 / eps_), tail(1 / eps_)
    printed = bool(sp.simplify(with_2 - sp.exp(-t)) == 0 or
                   all(to_mpf(with_2.subs(t, v)) <= to_mpf(sp.exp(-v)) for v in (1, 5)))
    corrected = sp.simplify(with_1 - sp.exp(-t)) == 0
    return Verdict(printed, corrected, f"with Lap(2/eps): {with_2}; with Lap(1/eps) "
                   f"(add/remove histogram): {with_1}")


@claim("004.union", "Remark (Union bound)", "Pr[E_1 or ... or E_k] <= Pr[E_1] + ... + "
       "Pr[E_k]; some bucket off by more than t/eps w.p. <= k e^{-t}", notebook=_NB_LAP)
def _union_bound() -> Verdict:
    """Boole's inequality exhaustively on a 4-point space with unequal exact masses (every
    family of 1 to 3 events out of the 16), and the bucket bound for every k: with
    f(p) = k p - (1 - (1 - p)^k), f(0) = 0 and f'(p) = k (1 - (1 - p)^{k-1}) >= 0 on [0, 1]
    (checked as a polynomial identity for k = 1..12), so 1 - (1 - p)^k <= k p."""
    mass = [Fraction(1, 10), Fraction(2, 10), Fraction(3, 10), Fraction(4, 10)]
    events = [frozenset(i for i in range(4) if (m >> i) & 1) for m in range(16)]

    def pr(ev):
        return sum((mass[i] for i in ev), Fraction(0))
    worst = max(pr(frozenset().union(*fam)) - sum(pr(e) for e in fam)
                for r in (1, 2, 3) for fam in itertools.combinations(events, r))
    pp = sp.Symbol("p", nonnegative=True)
    ok_k = all(sp.expand(sp.diff(k * pp - 1 + (1 - pp) ** k, pp)
                         - k * (1 - (1 - pp) ** (k - 1))) == 0
               and (k * pp - 1 + (1 - pp) ** k).subs(pp, 0) == 0 for k in range(1, 13))
    return Verdict(bool(worst <= 0 and ok_k), detail=f"max Pr(union) - sum Pr over all "
                   f"families of <= 3 events: {worst}; derivative argument for k = 1..12: "
                   f"{ok_k}")


@claim("004.union.t", "Histogram with k buckets", "With t = 10 + log k: Pr[some bucket off "
       "by more than (10 + log k)/eps] <= e^{-10}", errata="errata.md#n4", notebook=_NB_LAP)
def _union_t() -> Verdict:
    kk = sp.Symbol("k", positive=True)
    bound = sp.simplify(kk * sp.exp(-(10 + sp.log(kk))))
    exact = [sp.N(1 - (1 - sp.exp(-(10 + sp.log(k)))) ** k, 10) for k in (10, 10**4)]
    ok = sp.simplify(bound - sp.exp(-10)) == 0 and all(v <= sp.N(sp.exp(-10), 12) for v in exact)
    return Verdict(ok, detail=f"k e^-(10 + log k) = {bound}; exact (Lap(1/eps)) {exact}")


@claim("004.first_names", "Example (first names)", "t = (10 + ln 10000)/eps = 20/0.1 = 200",
       status=CORRECTED, corrected="(10 + ln 10000)/0.1 = 192.10...; an error threshold of 200 "
       "(>= 192.1) is exceeded w.p. <= e^{-10}", errata="errata.md#n5", notebook=_NB_LAP)
def _first_names() -> Verdict:
    eps_, k = sp.Rational(1, 10), 10**4
    value = (10 + sp.log(k)) / eps_
    printed = sp.Abs(value - 200) < sp.Rational(1, 100)
    threshold = sp.N(value, 8)
    prob = sp.N(1 - (1 - sp.exp(-(10 + sp.log(k)))) ** k, 8)
    corrected = bool(prob <= sp.N(sp.exp(-10), 8) and value < 200)
    return Verdict(bool(printed), corrected, f"(10 + ln 10000)/0.1 = {threshold} (printed 200); "
                   f"Pr[some bucket off by more] = {prob} <= e^-10")


# ----------------------------------------------------------------------------- selection

@claim("004.noisy_max", "Report noisy max, Theorem", "Report noisy max with Lap(1/eps) is "
       "eps-DP", status=CORRECTED, corrected="eps-DP for add/remove neighbours (all counts "
       "move in the same direction); for replace neighbours the loss exceeds eps",
       errata="errata.md#n6", notebook=_NB_SEL, budget=15)
def _noisy_max() -> Verdict:
    e = "1"
    ar2 = noisy_max_privacy_loss(2, e, [[0, 0], [0, 1], [3, 0]])
    ar3 = noisy_max_privacy_loss(3, e, [[0, 0, 0], [0, 1, 2]])
    rep = noisy_max_privacy_loss(2, e, [[0, 0], [0, 1]], "replace")
    printed = rep <= 1 + mpmath.mpf("1e-12") and ar2 <= 1 and ar3 <= 1
    corrected = ar2 <= 1 + mpmath.mpf("1e-12") and ar3 <= 1 + mpmath.mpf("1e-12")
    return Verdict(bool(printed), bool(corrected),
                   f"eps = 1: max log-ratio add/remove k=2 {fmt(ar2)}, k=3 {fmt(ar3)}; "
                   f"replace (counts may move in opposite directions) k=2 {fmt(rep)}")


@claim("004.exp.privacy", "Exponential mechanism, Claim", "The exponential mechanism "
       "(weights exp(eps u/Delta u)) is 2 eps-DP", errata="errata.md#n7", notebook=_NB_SEL)
def _exp_privacy() -> Verdict:
    rows, ok = [], True
    for u, v in (([0, 1, 2], [1, 0, 1]), ([0, 0, 5, 5], [1, 1, 4, 4]), ([3, 0], [2, 1])):
        loss = exponential_privacy_loss(u, v, 1)
        ok &= to_mpf(loss) <= 2
        rows.append(f"u={u}, u'={v}: {sp.N(loss, 8)}")
    return Verdict(ok, detail="eps = 1, Delta u = 1, exact max log-ratio <= 2 eps: "
                   + "; ".join(rows))


@claim("004.exp.utility", "Exponential mechanism, Theorem", "Pr[u(M) <= OPT - (Delta u/eps)"
       "(ln |R| + t)] <= e^{-t}", errata="errata.md#n8", notebook=_NB_SEL)
def _exp_utility() -> Verdict:
    rows, ok = [], True
    for u in ([0, 1, 2, 5], [3, 3, 0, 1, 2]):
        probs = exponential_mechanism(u, 1)
        opt, size = max(u), len(u)
        for t in (sp.Rational(1, 2), 1, 2):
            cut = opt - (sp.log(size) + t)
            bad = sp.Add(*[pr for pr, ui in zip(probs, u, strict=False) if ui <= cut])
            ok &= to_mpf(bad) <= to_mpf(sp.exp(-t))
            rows.append(f"u={u}, t={t}: {sp.N(bad, 6)} <= {sp.N(sp.exp(-t), 6)}")
    return Verdict(ok, detail="; ".join(rows))


# ----------------------------------------------------------------------------- approximate DP

@claim("004.approx.def", "Approximate differential privacy", "M is (eps, delta)-DP if for "
       "all outputs t: Pr[M(x) = t] <= e^eps Pr[M(x') = t] + delta", status=CORRECTED,
       corrected="quantify over events S: Pr[M(x) in S] <= e^eps Pr[M(x') in S] + delta",
       errata="errata.md#n9", notebook=_NB_SEL)
def _pointwise_def() -> Verdict:
    m = 10
    p = {i: Fraction(1, m) for i in range(m)}
    q = {m: Fraction(1)}
    pointwise = max(Fraction(p.get(y, 0)) for y in set(p) | set(q))
    sets = sup_over_sets(p, q, 0)
    return Verdict(pointwise == sets, sets == 1,
                   f"pointwise condition holds with delta = {pointwise}, but the event version "
                   f"needs delta = {sets}")


@claim("004.approx.junk", "Approximate DP, Example", "Output junk w.p. 1 - delta, the entire"
       " database w.p. delta: satisfies (eps, delta)-DP", notebook=_NB_SEL)
def _junk_example() -> Verdict:
    d = sp.Rational(1, 100)
    p, q = {"D1": d, "junk": 1 - d}, {"D2": d, "junk": 1 - d}
    hs = [hockey_stick(p, q, e) for e in (0, 1, 3)]
    return Verdict(all(h <= d for h in hs), detail=f"H_eps = {hs} <= delta = {d}")


@claim("004.approx.records", "Approximate DP, Example", "Keeping each record w.p. delta "
       "releases about n delta records on average", notebook=_NB_SEL)
def _per_record() -> Verdict:
    """E[#released] = n delta for every n <= 30, as polynomials in a symbolic delta (the
    binomial mean, summed exactly)."""
    d = sp.Symbol("delta", positive=True)
    bad = [n for n in range(1, 31)
           if sp.expand(sum(k * sp.binomial(n, k) * d**k * (1 - d) ** (n - k)
                            for k in range(n + 1)) - n * d) != 0]
    return Verdict(not bad, detail="E[#released] - n delta = 0 identically in delta for "
                   f"n = 1..30 (failures: {bad})")


# ----------------------------------------------------------------------------- proof steps

_NB_PF = "notebooks/proofs_004.py"


# The exponential mechanism of the notes, for every utility function: u(x, .), u(x', .) on
# m outputs (m a symbol), written u(x', r) = u(x, r) + Delta u theta_r with theta_r in
# [-1, 1] -- exactly the utilities with |u(x, r) - u(x', r)| <= Delta u.
_w = sp.Symbol("w", real=True)  # a utility value
_WEIGHT = sp.exp(eps * _w / Delta)  # the notes' weight, Pr[M(x) = r] ~ exp(eps u(x, r)/Du)
_r, _s_ = sp.symbols("r s", integer=True, positive=True)
_m = sp.Symbol("m", integer=True, positive=True)
_U, _Th = sp.IndexedBase("u", real=True), sp.IndexedBase("theta", real=True)
_u, _th = sp.symbols("u theta", real=True)  # u(x, s) and theta_s of one output s
_v = _u + Delta * _th  # u(x', s)


def _weight(value: sp.Expr) -> sp.Expr:
    return _WEIGHT.subs(_w, value)


def _norm(shifted: bool) -> sp.Expr:
    """The normaliser sum_{r = 1}^m exp(eps u(., r)/Du), at x (or at x': ``shifted``)."""
    util = _U[_r] + Delta * _Th[_r] if shifted else _U[_r]
    return sp.Sum(_weight(util), (_r, 1, _m))


def _termwise_rate() -> tuple[sp.Expr, str]:
    """The least c with exp(eps u'/Du) <= c exp(eps u/Du) for every |u - u'| <= Du: the
    log-gap eps (u' - u)/Du = eps theta is affine in (u, theta), its maximum over
    theta in [-1, 1] is eps (at theta = 1), so c = e^eps."""
    gap = log_gap(_weight(_u), _weight(_v))
    rng = affine_range(gap, [_u], [_th], [eps, Delta])
    if rng is None or rng[1] in (sp.oo, -sp.oo):
        return sp.nan, f"log(w(u')/w(u)) = {gap}: no proven maximum"
    return sp.exp(rng[1]), f"log(w(u')/w(u)) = {gap} in [{rng[0]}, {rng[1]}]"


_EXP_FORMULA = {
    1: {"weight": _WEIGHT, "bound": eps * (_w + Delta) / Delta, "rate": sp.exp(eps)},
    2: {"ratio": _weight(_U[_s_]) / _weight(_U[_s_] + Delta * _Th[_s_])
        * _norm(True) / _norm(False)},
    3: {"bound": sp.exp(eps) * sp.exp(eps * (_u - _v) / Delta)},
    4: {"final": sp.exp(2 * eps)},
}


def _exp_step1(f: dict) -> Verdict:
    r"""For every pair of utility values with |u - u'| <= Du (u' = u + Du theta, theta in
    [-1, 1]): (a) exp(bound) = rate w(u) identically (log-gap 0), (b) w(u') <= exp(bound):
    the log-gap bound - eps u'/Du (exp is increasing) is affine in (u, theta), with proven
    minimum 0 -- so the step holds for every u, u' and (c) the printed bound is attained
    (theta = 1: u' = u + Du), so no smaller rate holds."""
    weight = sp.sympify(f["weight"])
    bound, rate = sp.sympify(f["bound"]), sp.sympify(f["rate"])
    ident = sp.simplify(log_gap(rate * weight.subs(_w, _u), sp.exp(bound.subs(_w, _u))))
    gap = log_gap(weight.subs(_w, _v), sp.exp(bound.subs(_w, _u)))
    rng = affine_range(gap, [_u], [_th], [eps, Delta])
    ok = exp_increasing() and ident == 0 and rng is not None and rng[0] == 0
    return Verdict(bool(ok), detail=f"exp increasing: {exp_increasing()}; log(rate w(u)) - "
                   f"bound = {ident}; bound - log w(u') = {gap}, over u real, theta in "
                   f"[-1, 1]: {rng if rng else 'not affine'} (minimum 0: holds "
                   "for every utility, attained at u' = u + Du)")


def _exp_step2(f: dict) -> Verdict:
    r"""The identity for every utility pair and every number m of outputs: Pr[M(x) = s] =
    w(u(x, s))/sum_{r=1}^m w(u(x, r)) (the sums are generic sympy sums), so the quotient of
    the two laws minus the printed product is 0 identically (sympy ``cancel``)."""
    pr_x = _weight(_U[_s_]) / _norm(False)
    pr_y = _weight(_U[_s_] + Delta * _Th[_s_]) / _norm(True)
    diff = sp.cancel(sp.together(pr_x / pr_y - sp.sympify(f["ratio"])))
    return Verdict(bool(diff == 0), detail=f"Pr[M(x) = s]/Pr[M(x') = s] - printed = {diff} "
                   f"(m outputs, generic sums)")


def _exp_step3(f: dict) -> Verdict:
    r"""The termwise lemma with a generic number m of outputs: each term of
    sum_r [c w(u(x, r)) - w(u(x', r))] is >= 0 for c = e^eps (step 1's sharp rate, applied
    at every r), and sympy's linearity of sums gives sum_r w(u(x', r)) = c sum_r w(u(x,
    r)) - sum_r [c w(u(x, r)) - w(u(x', r))] <= c sum_r w(u(x, r)); dividing by the
    positive sum and multiplying by the positive w(u)/w(u'): ratio <= c w(u)/w(u').
    The printed bound must be >= that (log-gap with proven minimum >= 0) and equal to it at
    u(x', .) = u(x, .) + Du, where the ratio attains it (sharp)."""
    rate, why = _termwise_rate()
    term = rate * _weight(_U[_r]) - _weight(_U[_r] + Delta * _Th[_r])
    lin = sp.simplify(sp.Sum(term, (_r, 1, _m)).expand()
                      - (rate * _norm(False) - _norm(True)))
    term_rng = affine_range(log_gap(_weight(_U[_r] + Delta * _Th[_r]),
                                    rate * _weight(_U[_r])),
                            [_U[_r]], [_Th[_r]], [eps, Delta])
    positive = bool(_norm(False).is_positive and _weight(_u).is_positive)
    via = rate * _weight(_u) / _weight(_v)
    bound = sp.sympify(f["bound"])
    rng = affine_range(log_gap(via, bound), [_u], [_th], [eps, Delta])
    # equality case: theta_r = 1 for every r, in the law's quotient of step 2 (the sums'
    # terms expanded, e^eps pulled out of the sum)
    quot = (_weight(_U[_s_]) / _norm(False)) / (_weight(_U[_s_] + Delta * _Th[_s_])
                                                 / _norm(True))
    at_eq = quot.replace(lambda t: isinstance(t, sp.Indexed) and t.base == _Th,
                         lambda t: sp.Integer(1)).replace(
        lambda t: isinstance(t, sp.Sum),
        lambda t: sp.factor_terms(sp.Sum(sp.expand(t.function), *t.limits)))
    attained = sp.simplify(at_eq / bound.subs({_u: _U[_s_], _th: 1})) == 1
    ok = (lin == 0 and term_rng is not None and term_rng[0] == 0 and positive
          and rng is not None and rng[0] == 0 and attained)
    return Verdict(bool(ok), detail=f"termwise: {why}, so c = {rate} and every term c w(u_r) -"
                   f" w(u'_r) >= 0 (log-gap range {term_rng}); linearity of the sums: "
                   f"{lin == 0}; sums and weights positive: {positive}; log(bound/(c w(u)/"
                   f"w(u'))) in {rng}; at u' = u + Du the ratio equals the bound: {attained}")


def _exp_step4(f: dict) -> Verdict:
    r"""sup over |u - u'| <= Du of e^eps exp(eps (u - u')/Du): the log, eps - eps theta, is
    affine in theta in [-1, 1] with maximum 2 eps (theta = -1, u' = u - Du); the printed
    final bound must be that supremum (log-gap 0 identically)."""
    rng = affine_range(log_gap(1, _EXP_FORMULA[3]["bound"]), [_u], [_th], [eps, Delta])
    final = sp.sympify(f["final"])
    gap = sp.simplify(log_gap(sp.exp(rng[1]), final)) if rng else sp.nan
    return Verdict(bool(gap == 0), detail=f"log(e^eps exp(eps (u - u')/Du)) over theta in "
                   f"[-1, 1]: {rng}; log(final) - max = {gap} (the previous line's supremum "
                   "is the printed bound; the ratio itself only approaches it, errata N7)")


for _j, _check, _text in (
        (1, _exp_step1, "|u(x, s) - u(x', s)| <= Delta u => exp(eps u(x', s)/Delta u) <= "
            "exp(eps (u(x, s) + Delta u)/Delta u) = e^eps exp(eps u(x, s)/Delta u) (equality"
            " at u(x', s) = u(x, s) + Delta u)"),
        (2, _exp_step2, "Pr[M(x) = s]/Pr[M(x') = s] = [exp(eps u(x,s)/Du)/exp(eps u(x',s)/"
            "Du)] [sum_s exp(eps u(x',s)/Du)/sum_s exp(eps u(x,s)/Du)]"),
        (3, _exp_step3, "... <= e^eps exp(eps (u(x,s) - u(x',s))/Delta u) (equality at "
            "u(x', .) = u(x, .) + Delta u)"),
        (4, _exp_step4, "... <= e^{2 eps}")):
    claim(f"004.exp.privacy.s{_j}", "Exponential mechanism, PROOF", _text, kind="proof-step",
          theorem="004.exp.privacy", notebook=_NB_PF, formula=_EXP_FORMULA[_j])(_check)
