r"""The claims of the lecture notes on the Laplace and exponential mechanisms (source 004):
counting and histogram queries, Laplace tails and the union bound, the first-names and
digital-goods examples, report noisy max, the exponential mechanism and a first look at
approximate DP.

Each statement is registered where its check is written, in the order of the notes, with
the text as printed (the seed's LaTeX, conversion slips included). Every check is decided
over the statement's whole domain: symbolic identities and inequalities (the Laplace
privacy loss :func:`~.common.laplace_loss_sup`, the tail integral, affine ranges of
log-gaps), exact finite computations, and certified counterexamples.
"""

from __future__ import annotations

import functools
from fractions import Fraction

import sympy as sp

from dpsym.claims.common import (
    V,
    count_change,
    exposure_limit,
    histogram_change,
    laplace_private,
    sign_of,
)
from dpsym.claims.decide import certified_sign, decide_identity, rounds_to, vanishes
from dpsym.claims.generic import affine_range, cone_certificate, exp_increasing, log_gap
from dpsym.claims.registry import CORRECTED, Verdict, claim
from dpsym.mechanisms.textbook import hockey_stick, sup_over_sets
from dpsym.symbolic.tidy import simplified
from dpsym.symbols import Delta, delta, eps

_NB_LAP, _NB_SEL = "notebooks/laplace.py", "notebooks/selection_and_approximate_dp.py"

_k = sp.Symbol("k", integer=True, positive=True)  # buckets, queries, events
_n = sp.Symbol("n", integer=True, positive=True)  # records
_t = sp.Symbol("t", positive=True)
_j = sp.Symbol("j", integer=True, positive=True)
_I = sp.IndexedBase("I")  # a record's indicators (0 or 1)


# ----------------------------------------------------------------------------- Laplace

_MORE_NOISE = ("more noise stays private: any scale >= the printed one is eps-DP (the "
               "printed scale is the least)")


@claim("004.counting", "Counting queries", "Sensitivity of a counting query is 1; adding "
       "Lap(1/eps) gives eps-DP", notebook=_NB_LAP,
       printed=r"$$\text{Sensitivity } S_1(\text{counting query}) = 1$$ $\Rightarrow$ Adding "
       r"Laplacian noise $\text{Lap}(1/\epsilon)$ gives us $\epsilon$ -DP.",
       formula={"S1": sp.Integer(1), "scale": 1 / eps}, weaker={"scale": 1},
       slack=_MORE_NOISE)
def _counting(f: dict) -> Verdict:
    sens, why = count_change(sp.Integer(1))
    private, pwhy = laplace_private(f["scale"], f["S1"])
    ok = vanishes(sens - f["S1"]) and private
    return Verdict(bool(ok), detail=f"{why}; {pwhy}")


@claim("004.k_counting", "Counting queries (k queries)", "k counting queries have "
       "sensitivity <= k; adding Lap(k/eps) gives eps-DP", notebook=_NB_LAP,
       printed=r"I make $k$ counting queries. $$f: X^n \rightarrow \mathbb{R}^k$$ "
       r"$$\text{Sensitivity} \leq k$$ $\Rightarrow$ Adding $\text{Lap}(k/\epsilon)$ gives "
       r"us $\epsilon$ -DP.",
       formula={"S1": sp.LessThan(V, _k), "scale": _k / eps}, weaker={"scale": 1},
       slack="the sensitivity is exactly k (a larger bound is also true); " + _MORE_NOISE)
def _k_counting(f: dict) -> Verdict:
    """The l1 sensitivity of k counts is exactly k (:func:`~.common.count_change`); Lap(s) on
    each coordinate has privacy loss sum_q |d_q|/s <= ||d||_1/s, so the bound of the
    relation is the sensitivity the noise is calibrated to."""
    sens, why = count_change(_k)
    rel = f["S1"]
    holds = sign_of(rel.rhs - sens, [_k]) in ("zero", "positive") if isinstance(
        rel, sp.LessThan) else sign_of(rel.rhs - sens, [_k]) == "positive"
    private, pwhy = laplace_private(f["scale"], rel.rhs)
    return Verdict(bool(holds and private and isinstance(rel, (sp.LessThan,
                                                               sp.StrictLessThan))),
                   detail=f"{why}; per coordinate, summed over the l1 shift: {pwhy}")


@claim("004.histogram", "Histogram queries", "S_1(histogram) <= 2; adding Lap(2/eps) gives "
       "eps-DP", errata="errata.md#n1", notebook=_NB_LAP,
       printed=r"$$S_i(\text{Histogram Query}) \leq 2$$ $\Rightarrow$ Adding "
       r"$\text{Lap}(2/\epsilon)$ gives us $\epsilon$ -DP.",
       corrected=r"S_1(Histogram Query) <= 2 (exactly 2 for replace-one neighbours, 1 for "
       r"add/remove); adding Lap(2/eps) gives eps-DP",
       slips="S_i is the conversion's S_1 (the l1 sensitivity)",
       formula={"S1": sp.LessThan(V, 2), "scale": 2 / eps}, weaker={"scale": 1},
       slack="the sensitivity is exactly 2 (replace) or 1 (add/remove); " + _MORE_NOISE)
def _histogram_sens(f: dict) -> Verdict:
    rep, ar = histogram_change("replace"), histogram_change("add/remove")
    rel = f["S1"]
    holds = isinstance(rel, (sp.LessThan, sp.StrictLessThan)) and bool(
        rel.func(max(rep, ar), rel.rhs))
    private, pwhy = laplace_private(f["scale"], rel.rhs)
    return Verdict(bool(holds and private), detail=f"l1 change of the count vector: "
                   f"replace {rep}, add/remove {ar} (the cases a = c, a != c); {pwhy}")


_ts = sp.Symbol("t", positive=True)


@functools.cache
def _laplace_tail(scale: sp.Expr, threshold: sp.Expr) -> sp.Expr:
    """Pr[|Y| > threshold] for Y ~ Lap(scale), integrated by sympy (by its antiderivative:
    the Meijer G-function method, sympy's first try for an integral to infinity, takes
    twice as long on these exponentials and gives the same result)."""
    xx = sp.Symbol("x", positive=True)
    return simplified(2 * sp.integrate(sp.exp(-xx / scale) / (2 * scale),
                                        (xx, threshold, sp.oo), meijerg=False))


def _decide_on_t(rel: sp.Basic, value: sp.Expr) -> tuple[bool, str]:
    """The relation ``rel`` (of :data:`V`) with ``value`` substituted, for every t > 0:
    both sides positive, the log-gap affine in t with proven coefficient signs."""
    if not isinstance(rel, sp.core.relational.Relational):
        return False, f"not a relation: {rel}"
    lo, hi = (value, rel.rhs) if isinstance(rel, (sp.LessThan, sp.StrictLessThan)) \
        else (rel.rhs, value)
    gap = sp.expand(log_gap(lo, hi))  # log hi - log lo: >= 0 wanted
    if not gap.is_polynomial(_ts) or sp.degree(gap, _ts) > 1:
        return False, f"log-gap {gap}: not affine in t"
    slope, const = gap.coeff(_ts, 1), gap.coeff(_ts, 0)
    ss, cs = sign_of(slope, [_ts]), sign_of(const, [_ts])
    strict = isinstance(rel, (sp.StrictLessThan, sp.StrictGreaterThan))
    ok = ss in ("zero", "positive") and cs in ("zero", "positive") and (
        not strict or "positive" in (ss, cs))
    return ok, f"log(bound) - log(value) = {gap} for t > 0: slope {ss}, at t = 0 {cs}"


@claim("004.tail", "Remark (Laplace tail)", "If y ~ Lap(b), Pr[|y| > b t] <= e^{-t}",
       errata="errata.md#n2", notebook=_NB_LAP,
       printed=r"If $y \sim \text{Lap}(b)$ , then $$\Pr[|y| > b \cdot t] \leq e^{-t}$$",
       formula={"tail": sp.LessThan(V, sp.exp(-_ts))},
       slack="an equality: Pr[|y| > b t] = e^{-t} exactly (errata N2)")
def _tail_bound(f: dict) -> Verdict:
    """Pr[|Y| > b t] integrated by sympy for a symbolic scale b, then the relation decided
    for every t > 0."""
    bs = sp.Symbol("b", positive=True)
    tail = _laplace_tail(bs, bs * _ts)
    ok, why = _decide_on_t(f["tail"], tail)
    return Verdict(ok, detail=f"Pr[|Y| > b t] = {tail}; {why}")


_ONE_OVER_EPS = 1 / eps


@claim("004.bucket", "Histogram with k buckets", "Pr[count in bucket i is off by more than "
       "t/eps] <= e^{-t} (with the Lap(2/eps) of the histogram remark)", status=CORRECTED,
       corrected="with Lap(1/eps) (add/remove neighbours, sensitivity 1) the probability is "
       "exactly e^{-t}; with Lap(2/eps) it is e^{-t/2}", errata="errata.md#n3",
       notebook=_NB_LAP,
       printed=r"Pr [count in bucket $i$ is off by more than $t/\epsilon$ ] $\leq e^{-t}$",
       formula={"scale": 1 / eps, "tail": sp.LessThan(V, sp.exp(-_ts))}, weaker={"scale": -1},
       slack="an equality with Lap(1/eps); less noise keeps the bound")
def _bucket_error(f: dict) -> Verdict:
    """The tail Pr[|Y| > t/eps] integrated by sympy with the notes' Lap(2/eps) (the printed
    reading: it is e^{-t/2}, refuted) and with the formula's scale (decided for every t)."""
    printed = _laplace_tail(2 / eps, _ts / eps)
    ok_printed, why_p = _decide_on_t(sp.LessThan(V, sp.exp(-_ts)), printed)
    fixed = _laplace_tail(sp.sympify(f["scale"]), _ts / eps)
    ok_fixed, why_f = _decide_on_t(f["tail"], fixed)
    return Verdict(ok_printed, ok_fixed, f"with Lap(2/eps): {printed} ({why_p}); with "
                   f"Lap({f['scale']}): {fixed} ({why_f})")


@claim("004.bucket.some", "Histogram with k buckets", "Pr[some bucket's count is off by "
       "more than t/eps] <= k e^{-t} (with the Lap(2/eps) of the histogram remark)",
       status=CORRECTED, corrected="with Lap(1/eps) for every k >= 1 and t > 0 (union bound "
       "over the k buckets, each e^{-t}); with the notes' Lap(2/eps) it fails (k = 1, t = 2: "
       "the probability is e^{-t/2} = e^{-1} > k e^{-t} = e^{-2})", errata="errata.md#n3",
       notebook=_NB_LAP,
       printed=r"Pr [there is some bucket whose count is off by more than $t/\epsilon$ ] "
       r"$\leq k \cdot e^{-t}$",
       formula={"bound": sp.LessThan(V, _k * sp.exp(-_ts))},
       slack="not sharp: the exact probability 1 - (1 - e^{-t})^k is below k e^{-t}")
def _bucket_some(f: dict) -> Verdict:
    """Printed (Lap(2/eps)): for k = 1 bucket and t = 2 the probability e^{-1} exceeds
    k e^{-t} = e^{-2} (certified). Corrected (Lap(1/eps)): each bucket's tail is e^{-t}
    (sympy), the union bound (004.union) sums them: the relation is decided with the sum
    k e^{-t} for every k >= 1 and t > 0 (log-gap affine in t and log k)."""
    one = _laplace_tail(2 / eps, _ts / eps).subs({_ts: 2})
    printed_ok = certified_sign(sp.exp(-2) - one) in (0, 1)
    union = _k * _laplace_tail(_ONE_OVER_EPS, _ts / eps)
    rel = f["bound"]
    gap = sp.expand(log_gap(union, rel.rhs), force=True).subs(sp.log(_k), _Lk) if \
        isinstance(rel, (sp.LessThan, sp.StrictLessThan)) else sp.nan
    ok = _affine_nonneg(gap, (_Lk, _ts))
    return Verdict(bool(printed_ok), bool(ok), f"with Lap(2/eps), k = 1, t = 2: {one} > "
                   f"e^-2 (certified); with Lap(1/eps): union bound {union}, log(bound/union) "
                   f"= {gap}")


_Lk = sp.Symbol("L", nonnegative=True)  # log k >= 0


def _affine_nonneg(expr: sp.Expr, variables: tuple[sp.Symbol, ...]) -> bool:
    """``expr >= 0`` for every nonnegative value of ``variables``: ``expr`` affine in them
    with a constant term and coefficients proven >= 0 (a sufficient test)."""
    expr = sp.expand(sp.sympify(expr))
    if expr.has(sp.nan) or not all(expr.is_polynomial(v) and sp.degree(expr, v) <= 1
                                   for v in variables):
        return False
    poly = sp.Poly(expr, *variables)
    if poly.total_degree() > 1:
        return False
    coeffs = [*poly.coeffs(), poly.coeff_monomial(1)]
    return all(sign_of(c, list(variables)) in ("zero", "positive") for c in coeffs)


_pA, _pB, _cAB = sp.symbols("P_A_only P_B_only P_AB", nonnegative=True)
_PA, _PB = sp.symbols("P(E1) P(E2)", nonnegative=True)


@claim("004.union", "Remark (Union bound)", "Pr[E_1 or ... or E_k] <= Pr[E_1] + ... + "
       "Pr[E_k]", notebook=_NB_LAP,
       printed=r'"UNION BOUND" $\Pr [\overset{\text{event 1}}{\epsilon_1} \vee '
       r'\overset{\text{event 2}}{\epsilon_2} \vee \dots \vee \epsilon_k] \leq \Pr[\epsilon_1]'
       r' + \Pr[\epsilon_2] + \dots + \Pr[\epsilon_k]$',
       corrected="Pr[E_1 or ... or E_k] <= Pr[E_1] + ... + Pr[E_k]",
       slips="the events E_i are printed as epsilon_i (the conversion's letter)",
       formula={"two": sp.LessThan(V, _PA + _PB)},
       slack="not sharp when the events overlap (the gap is P(E1 & E2))")
def _union_bound(f: dict) -> Verdict:
    """For every pair of events: with the cell masses P(E1 - E2), P(E2 - E1), P(E1 & E2)
    (nonnegative), P(E1 or E2) is their sum and the printed bound minus it is a
    nonnegative combination (:func:`~.generic.cone_certificate`); for k events by induction,
    Pr[U_{i<=k+1}] <= Pr[U_{i<=k}] + Pr[E_{k+1}] and sum_{i<=k+1} = sum_{i<=k} + term
    (sympy joins the ranges)."""
    cells = {_PA: _pA + _cAB, _PB: _pB + _cAB}
    rel = f["two"]
    union = _pA + _pB + _cAB
    if not isinstance(rel, (sp.LessThan, sp.StrictLessThan)):
        return Verdict(False, detail=f"not an upper bound: {rel}")
    good, cert = cone_certificate(sp.sympify(rel.rhs).subs(cells) - union, [_pA, _pB, _cAB],
                                  {}, [])
    P = sp.IndexedBase("P")
    step = vanishes(sp.Sum(P[_j], (_j, 1, _k)) + sp.Sum(P[_j], (_j, _k + 1, _k + 1))
                       - sp.Sum(P[_j], (_j, 1, _k + 1)))
    return Verdict(bool(good and step), detail=f"two events: bound - P(E1 or E2) = {cert}; "
                   f"induction on k, the sums join: {step}")


@claim("004.union.t", "Histogram with k buckets", "If t >> 10 + log k: Pr[some bucket off by "
       "more than (10 + log k)/eps] <= e^{-10} (with the Lap(2/eps) of the histogram remark)",
       status=CORRECTED, corrected="with Lap(1/eps) and t = 10 + ln k (no '>>' needed): "
       "Pr[some bucket off by more than (10 + ln k)/eps] <= k e^{-(10 + ln k)} = e^{-10} for "
       "every k; with the notes' Lap(2/eps) it fails (k = 10^4: 0.49)",
       errata="errata.md#n4", notebook=_NB_LAP,
       printed=r"If $t \gg 10 + \log k$ , then Pr [there is some bucket whose count is off by "
       r"more than $\frac{10 + \log k}{\epsilon}] \leq e^{-10}$",
       formula={"t": 10 + sp.log(_k), "bound": sp.LessThan(V, sp.exp(-10))},
       weaker={"t": 1}, slack="a larger threshold keeps the bound (the union bound is an "
       "equality only to first order: the exact probability is below e^{-10})")
def _union_t(f: dict) -> Verdict:
    """Printed: with Lap(2/eps), k = 10^4 buckets, t = 10 + ln k, the exact probability
    1 - (1 - e^{-t/2})^k exceeds e^{-10} (certified). Corrected: the union bound k e^{-t}
    at the formula's t, with L = log k >= 0: the relation is decided for every k by the
    log-gap, affine in L, with proven coefficient signs."""
    kk = 10**4
    exact2 = 1 - (1 - sp.exp(-(10 + sp.log(kk)) / 2)) ** kk
    printed_ok = certified_sign(sp.exp(-10) - exact2) in (0, 1)
    rel = f["bound"]
    union = (_k * sp.exp(-sp.sympify(f["t"]))).subs(_k, sp.exp(_Lk))
    gap = sp.expand(log_gap(union, rel.rhs), force=True) if isinstance(
        rel, (sp.LessThan, sp.StrictLessThan)) else sp.nan
    ok = _affine_nonneg(gap, (_Lk,))
    return Verdict(bool(printed_ok), bool(ok), f"Lap(2/eps), k = 10^4: Pr = "
                   f"{sp.N(exact2, 10)} > e^-10 (certified); Lap(1/eps): union bound k "
                   f"e^(-t) = {simplified(union.subs(_Lk, sp.log(_k)))}, log(bound/union) = "
                   f"{gap} (L = log k >= 0)")


@claim("004.first_names.ln", "Example (first names)", "ln(10,000) ~ 9.2", notebook=_NB_LAP,
       printed=r"$$\ln(10,000) \approx 9.2$$", formula={"ln": sp.Rational(46, 5)})
def _first_names_ln(f: dict) -> Verdict:
    ok, why = rounds_to(sp.log(10**4), f["ln"])
    return Verdict(ok, detail=why + " (certified)")


@claim("004.first_names", "Example (first names)", "t = (10 + ln 10000)/eps = 20/0.1 = 200: "
       "with ln 10,000 ~ 9.2 rounded up, 200 is an error threshold exceeded with probability "
       "<= e^{-10}", corrected="(10 + ln 10,000)/0.1 = 192.103... <= 20/0.1 = 200: the source "
       "rounds 10 + ln 10,000 ~ 19.2 up to 20, so 200 is a valid (conservative) threshold; "
       "the quantity computed is the error threshold t/eps (t = 20 >= 10 + ln 10,000), "
       "exceeded w.p. <= 10^4 e^{-20} <= e^{-10} with Lap(1/eps)",
       slips="the second '=' is the rounding announced by 'ln(10,000) ~ 9.2' (19.2 rounded up "
       "to 20), and the quantity named t is the threshold t/eps", errata="errata.md#n5",
       notebook=_NB_LAP,
       printed=r"$$\ln(10,000) \approx 9.2$$ → If we want privacy with $\epsilon \approx 0.1$"
       r" , then $$\text{taking } t = \frac{10 + \ln(10,000)}{\epsilon} = \frac{20}{0.1} = "
       r"200 //$$",
       formula={"threshold": sp.LessThan(V, 200)},
       slack="not sharp: (10 + ln 10^4)/0.1 = 192.10, so every threshold in [192.11, oo) is "
       "valid; 200 is the source's round number")
def _first_names(f: dict) -> Verdict:
    """The exact value (10 + ln 10^4)/0.1 = 192.10... against the threshold of the relation
    (certified: the threshold is at least the exact value, so it is the rounding up the
    source announces, never down), and with t = threshold * eps the union bound
    k e^{-t} <= e^{-10} (certified)."""
    value = (10 + sp.log(10**4)) / sp.Rational(1, 10)
    rel = f["threshold"]
    ok = isinstance(rel, sp.core.relational.Relational) and certified_sign(
        (rel.rhs - value) if isinstance(rel, (sp.LessThan, sp.StrictLessThan))
        else (value - rel.rhs)) == 1
    if ok:
        ok = certified_sign(sp.exp(-10) - 10**4 * sp.exp(-rel.rhs / 10)) in (0, 1)
    return Verdict(bool(ok), detail=f"(10 + ln 10^4)/0.1 = {sp.N(value, 12)} (certified; "
                   f"rounded up to 200); union bound at the threshold 200: 10^4 e^-20 = "
                   f"{sp.N(10**4 * sp.exp(-20), 8)} <= e^-10 = {sp.N(sp.exp(-10), 8)}")


@claim("004.histogram.ages", "Histogram queries, Example", "Histogram of ages 1-10, 10-20, "
       "20-30, ... (each person is in one of k categories)", status=CORRECTED,
       corrected="half-open buckets [0, 10), [10, 20), [20, 30), ... (or 1-10, 11-20, ... for "
       "whole years): as printed the ages 10, 20, ... fall in two buckets, so a person is not "
       "in one category and adding one changes two counts", errata="errata.md#n10",
       notebook=_NB_LAP, printed=r"Example: Histogram of ages 1-10, 10-20, 20-30, ...",
       formula={"end1": sp.Integer(10), "end2": sp.Integer(20)})
def _histogram_ages(f: dict) -> Verdict:
    """Buckets partition the ages exactly when each bucket ends where the next begins and
    the ends belong to one side only: the printed closed buckets [1, 10], [10, 20], [20, 30]
    share the ages 10 and 20 (an age there changes two counts: l1 change 2); the corrected
    half-open buckets [0, end1), [10, end2), [20, 30) partition [0, 30) iff end1 = 10 and
    end2 = 20 (exact)."""
    def count(age: sp.Expr, buckets: list[tuple[sp.Expr, sp.Expr, bool]]) -> int:
        return sum(1 for lo, hi, closed in buckets
                   if lo <= age and (age <= hi if closed else age < hi))
    printed = [(1, 10, True), (10, 20, True), (20, 30, True)]
    shared = [a for a in (10, 20) if count(sp.Integer(a), printed) == 2]
    e1, e2 = sp.sympify(f["end1"]), sp.sympify(f["end2"])
    fixed = [(0, e1, False), (10, e2, False), (20, 30, False)]
    partition = e1 == 10 and e2 == 20 and all(count(sp.Rational(a, 4), fixed) == 1
                                                for a in range(0, 120))
    return Verdict(not shared, bool(partition), f"printed: ages {shared} are in two buckets "
                   f"(l1 change 2); corrected buckets partition [0, 30): {partition}")


# ----------------------------------------------------------------------------- selection

@claim("004.selection.approach1", "Differentially private selection, Approach 1", "Releasing"
       " each of k disease counts privately needs Lap(k/eps) (a user may have every "
       "disease): the noise grows with k", notebook=_NB_SEL,
       printed=r"APPROACH 1: $$f: X^n \rightarrow \mathbb{R}^k$$ - Release the count of each "
       r"disease privately. - Compute the max of the released counts. noise needed grows "
       r"with $k$ $$\text{Lap}(k/\epsilon) \rightarrow \text{Larger errors.",
       formula={"scale": _k / eps}, weaker={"scale": 1}, slack=_MORE_NOISE)
def _approach1(f: dict) -> Verdict:
    """A user with every disease moves all k counts: the l1 sensitivity is k
    (:func:`~.common.count_change`), so Lap(k/eps) per count is eps-DP and Lap(s) with s <
    k/eps is not; the expected error E|Y| = k/eps grows linearly in k."""
    sens, why = count_change(_k)
    private, pwhy = laplace_private(f["scale"], sens)
    grows = sign_of(sp.diff(sp.sympify(f["scale"]), _k), [_k, eps]) == "positive"
    return Verdict(bool(private and grows), detail=f"{why}; {pwhy}; E|Y| = scale grows "
                   f"with k: {grows}")


_cs = sp.symbols("c_i c_j cp_i cp_j r_i r_j", real=True)


@functools.cache
def _survival_lemma() -> tuple[bool, str]:
    r"""For :math:`Y \sim \mathrm{Lap}(s)`, :math:`S(r) = \Pr[Y \ge r]`: :math:`S(r + 1) \ge
    e^{-1/s} S(r)` for every real :math:`r`, by the three pieces of :math:`S` (:math:`E =
    e^{1/s} > 1`, :math:`u = e^{r/s}`): :math:`r \ge 0` (an equality), :math:`r \le -1`
    (:math:`u = 1/(E(1 + w))`) and :math:`-1 < r < 0` (:math:`u = 1/(1 + w)`), each a
    difference certified nonnegative in :math:`w, \eta > 0` (:math:`E = 1 + \eta`)."""
    w, eta = sp.symbols("w eta", positive=True)
    E = 1 + eta
    rows, ok = [], True
    # r >= 0: S(r + 1)/S(r) = e^{-1/s} exactly
    pieces = {
        "r <= -1": ((1 - 1 / (E * (1 + w)) * E / 2) - (1 - 1 / (E * (1 + w)) / 2) / E),
        "-1 < r < 0": (1 / (2 * E / (1 + w)) - (1 - 1 / (2 * (1 + w))) / E),
    }
    for name, diff in pieces.items():
        sign = sign_of(simplified(diff), [w, eta])
        ok &= sign in ("zero", "positive")
        rows.append(f"{name}: S(r + 1) - S(r)/E is {sign}")
    return ok, "r >= 0: equality; " + "; ".join(rows)


def _winner_lemma(neighbour: str) -> tuple[bool, str]:
    """If i wins at D with noise r_i (c_i + r_i > c_j + r_j), it wins at D' with r_i + 1, and
    conversely: linear consequences of the neighbour relation, certified as nonnegative
    combinations (add/remove: 0 <= c'_q - c_q <= 1 for every count q)."""
    ci, cj, cpi, cpj, ri, rj = _cs
    if neighbour != "add/remove":
        return False, "replace-one neighbours move counts both ways: no such combination"
    hyp = {"c'_i - c_i >= 0": (cpi - ci, cpi), "c_j + 1 - c'_j >= 0": (cj + 1 - cpj, cpj),
           "win at D": (ci + ri - cj - rj, ri)}
    forward, why_f = cone_certificate(cpi + ri + 1 - cpj - rj, [], hyp, [])
    hyp2 = {"c_i + 1 - c'_i >= 0": (ci + 1 - cpi, ci), "c'_j - c_j >= 0": (cpj - cj, cj),
            "win at D'": (cpi + ri - cpj - rj, ri)}
    backward, why_b = cone_certificate(ci + ri + 1 - cj - rj, [], hyp2, [])
    return forward and backward, f"D -> D' with r_i + 1: {why_f}; D' -> D: {why_b}"


@functools.cache
def _difference_cdf() -> sp.Expr:
    """P(Y2 - Y1 <= z), z <= 0, for independent Lap(1/eps): the density of the difference by
    sympy convolution, integrated (by antiderivatives, meijerg=False: the same results as
    with the Meijer G-function method tried first, in two thirds of the time)."""
    yy, zz = sp.Symbol("y", real=True), sp.Symbol("z", negative=True)
    # f_D(-v) = int f(y) f(y - v) dy, v > 0: the pieces y < 0, 0 < y < v, y > v
    v = sp.Symbol("v", positive=True)
    part1 = sp.integrate((eps / 2) ** 2 * sp.exp(eps * yy) * sp.exp(eps * (yy - v)),
                         (yy, -sp.oo, 0), meijerg=False)
    part2 = sp.integrate((eps / 2) ** 2 * sp.exp(-eps * yy) * sp.exp(eps * (yy - v)),
                         (yy, 0, v), meijerg=False)
    part3 = sp.integrate((eps / 2) ** 2 * sp.exp(-eps * yy) * sp.exp(-eps * (yy - v)),
                         (yy, v, sp.oo), meijerg=False)
    density = simplified(part1 + part2 + part3)  # f_D(-v)
    u = sp.Symbol("u", positive=True)
    cdf = simplified(sp.integrate(density.subs(v, u), (u, v, sp.oo),  # P(D <= -v)
                                   meijerg=False))
    return cdf.subs(v, -zz), zz


@claim("004.noisy_max", "Report noisy max, Theorem", "Report noisy max with Lap(1/eps) is "
       "eps-DP", status=CORRECTED, corrected="eps-DP for add/remove neighbours (all counts "
       "move in the same direction); for replace neighbours the loss exceeds eps (it "
       "approaches 2 eps)", errata="errata.md#n6", notebook=_NB_SEL, budget=15,
       printed=r"### THEOREM: Noisy Max is $\epsilon$ -Differentially Private.",
       formula={"scale": 1 / eps}, weaker={"scale": 1}, slack=_MORE_NOISE)
def _noisy_max(f: dict) -> Verdict:
    """Corrected, for every k and every count vector (the Dwork-Roth argument, each step
    decided): conditioning on the other noises, output i wins at D' with noise r_i + 1
    whenever it wins at D with r_i, and conversely (:func:`_winner_lemma`), and a Laplace
    survival function satisfies S(r + 1) >= e^{-1/s} S(r) (:func:`_survival_lemma`), so
    Pr[M(D') = i] >= e^{-1/s} Pr[M(D) = i] both ways: eps-DP iff 1/s <= eps (proven sign).
    Printed (every neighbour relation): k = 2, replace-one neighbours (c_1 - c_2 moves by
    2), the exact probability F(m) = P(Y2 - Y1 <= m) (sympy convolution) gives the loss
    log F(-10)/F(-12) > eps at eps = 1 (certified)."""
    lemma, why_l = _survival_lemma()
    winner, why_w = _winner_lemma("add/remove")
    rate = sign_of(eps - 1 / sp.sympify(f["scale"]), [eps])
    fixed = lemma and winner and rate in ("zero", "positive") and sign_of(
        sp.sympify(f["scale"]), [eps]) == "positive"
    cdf, zz = _difference_cdf()
    loss = sp.log(cdf.subs(zz, -10) / cdf.subs(zz, -12)).subs(eps, 1)
    printed = certified_sign(1 - loss) in (0, 1)
    return Verdict(printed, bool(fixed), f"survival lemma: {why_l}; winner lemma: {why_w}; "
                   f"eps - 1/scale: {rate}; replace-one, k = 2, eps = 1: P(D <= z) = "
                   f"{simplified(cdf)}, loss at m = -10 = {sp.N(loss, 10)} > eps")


_BIDS = (sp.Integer(1), sp.Integer(1), sp.Integer(1), sp.Rational(301, 100))


def _revenue(price: sp.Expr) -> sp.Expr:
    """The revenue at ``price``: the price times the number of bids >= it."""
    return price * sum(1 for bid in _BIDS if bid >= price)


@claim("004.auction", "Exponential mechanism: digital goods auction", "Bids 1, 1, 1, 3.01: "
       "price 3.02 gives revenue 0, price 1 gives 4, price 3.01 gives 3.01", notebook=_NB_SEL,
       printed=r'"Digital Good" User 1 → 1 Painting User 2 → 1 User 3 → 1 User 4 → 3.01 If '
       r"Price is 3.02 1 3.01 RANGE , → → → Revenue is zero 4 3.01 UTILITY",
       formula={"at 3.02": sp.Integer(0), "at 1": sp.Integer(4),
                "at 3.01": sp.Rational(301, 100)})
def _auction(f: dict) -> Verdict:
    """The revenues, exactly (the buyers are the bids >= the price)."""
    got = {"at 3.02": _revenue(sp.Rational(302, 100)), "at 1": _revenue(sp.Integer(1)),
           "at 3.01": _revenue(sp.Rational(301, 100))}
    ok = all(sp.sympify(f[key]) == val for key, val in got.items())
    return Verdict(ok, detail=f"revenues (exact): {got}")


_pr, _mb = sp.symbols("p m", positive=True)


@claim("004.auction.range", "Exponential mechanism: digital goods auction, Remark", "In the "
       "digital goods auction the range can be the bids: |R| = # users (the best price is "
       "one of the bid values)", notebook=_NB_SEL,
       printed=r"In the digital goods auction setting, we can take $|R| = \# \text{ users}$ "
       r"(price is one of the bid values),",
       formula={"R": _n})
def _auction_range(f: dict) -> Verdict:
    """For n bids and a price p strictly between two consecutive sorted bids (or below the
    smallest), the number m of buyers is constant and the revenue p m increases in p
    (derivative m > 0): the supremum over prices is at a bid, so the n bid values (one per
    user) are a range that loses nothing; the example's revenues confirm it (the best
    price over a grid of 1/100 is a bid)."""
    slope = sp.diff(_pr * _mb, _pr)
    increasing = sign_of(slope, [_mb, _pr]) == "positive"
    grid = max((_revenue(sp.Rational(c, 100)), sp.Rational(c, 100)) for c in range(1, 400))
    at_bid = grid[1] in _BIDS
    ok = increasing and at_bid and vanishes(sp.sympify(f["R"]) - _n)
    return Verdict(bool(ok), detail=f"d(p m)/dp = {slope} > 0 between bids: the best price is"
                   f" a bid, so |R| = n; example: best price over a grid {grid[1]} (revenue "
                   f"{grid[0]}), a bid: {at_bid}")


# ----------------------------------------------------------------------------- exponential

_M = sp.Symbol("M", positive=True)


@functools.cache
def _exp_sup_loss() -> tuple[sp.Expr, str]:
    """The supremum of the exponential mechanism's privacy loss over every utility pair
    with |u - u'| <= Du: at most 2 eps by the proof's steps (004.exp.privacy.s1-s4, each
    decided for every utility), and approached: with R = {s, r}, u(x) = (0, M), u(x') =
    (-Du, M + Du) the ratio at s tends to e^{2 eps} as M -> oo (sympy limit)."""
    upper = affine_range(log_gap(1, _EXP_FORMULA[3]["bound"]), [_u], [_th], [eps, Delta])
    ratio = sp.exp(eps) * (sp.exp(-eps) + sp.exp(eps * (_M + 1))) / (1 + sp.exp(eps * _M))
    lim = sp.limit(ratio, _M, sp.oo)
    top = upper[1] if upper else sp.nan
    attained = vanishes(sp.log(lim) - top)
    return (top if attained else sp.nan), (f"the proof's bound: log ratio <= {top} for every "
                                           f"utility pair; the pair u(x) = (0, M), u(x') = "
                                           f"(-1, M + 1) (Du = 1) has ratio -> {lim}")


@claim("004.exp.privacy", "Exponential mechanism, Claim", "The exponential mechanism "
       "(weights exp(eps u/Delta u)) is 2 eps-DP", errata="errata.md#n7", notebook=_NB_SEL,
       printed=r"CLAIM: Exponential Mechanism is $2\epsilon$ -Differentially Private.",
       formula={"dp": sp.LessThan(V, 2 * eps)},
       slack="tight: the supremum 2 eps is approached, not attained (errata N7); any larger "
       "bound is also true")
def _exp_privacy(f: dict) -> Verdict:
    """Decided for every utility pair and every finite range: the privacy loss's supremum
    is 2 eps (:func:`_exp_sup_loss`), and the relation is decided on it (the sign of the
    difference, proven for eps > 0)."""
    top, why = _exp_sup_loss()
    rel = f["dp"]
    diff = (rel.rhs - top) if isinstance(rel, (sp.LessThan, sp.StrictLessThan)) else sp.nan
    sign = sign_of(diff, [eps])
    ok = sign in ("zero", "positive") and not (isinstance(rel, sp.StrictLessThan)
                                               and sign == "zero")
    return Verdict(bool(ok), detail=f"{why}; bound - supremum: {sign}")


_R, _tu = sp.Symbol("R", positive=True), sp.Symbol("t", positive=True)  # |R| >= 1


@claim("004.exp.utility", "Exponential mechanism, Theorem", "Pr[u(M) <= OPT - (Delta u/eps)"
       "(ln |R| + t)] <= e^{-t}", errata="errata.md#n8", notebook=_NB_SEL,
       printed=r"$$\Pr[u(M_\epsilon(x, u, R)) \leq \text{OPT}_u(x) - \frac{\Delta u}{\epsilon} "
       r"\cdot (\ln |R| + t)] \leq e^{-t}.$$",
       formula={"threshold": Delta / eps * (sp.log(_R) + _tu), "bound": sp.exp(-_tu)},
       weaker={"threshold": 1, "bound": 1},
       slack="tight only as |R| -> oo (errata N8): a larger threshold or bound keeps it true")
def _exp_utility(f: dict) -> Verdict:
    """For every utility and range: each output r with u(x, r) <= OPT - tau has
    Pr[M = r] <= exp(eps (u(x, r) - OPT)/Du) (the normaliser is at least the optimum's
    weight) <= e^{-eps tau/Du}, and there are at most |R| of them, so Pr[bad] <= |R|
    e^{-eps tau/Du}; the printed bound is decided against that for every |R| >= 1 and t > 0
    (log-gap affine in log |R| and t, coefficients of proven sign). Extra evidence of
    tightness: one optimal output and |R| - 1 outputs at the threshold."""
    tau, bound = sp.sympify(f["threshold"]), sp.sympify(f["bound"])
    per = sp.exp(-eps * tau / Delta)
    gap = sp.expand(sp.expand_log(sp.log(bound), force=True)
                    - sp.expand_log(sp.log(_R * per), force=True))
    gap = gap.subs(sp.log(_R), _Lk)
    ok = _affine_nonneg(gap, (_Lk, _tu))
    # the witness: R - 1 outputs exactly at the threshold, one at OPT (Du = 1, eps = 1)
    rv, tv = sp.Integer(10) ** 6, sp.Integer(1)
    x = (rv - 1) * per.subs({Delta: 1, eps: 1, _R: rv, _tu: tv})
    bad = x / (1 + x)
    witness = sp.N(bad, 10)
    return Verdict(bool(ok), detail=f"Pr[bad] <= |R| exp(-eps tau/Du) = {_R * per}; "
                   f"log(bound) - log(that) = {gap} (L = log |R| >= 0, t > 0); witness |R| = "
                   f"10^6, t = 1: Pr[bad] = {witness} <= e^-1 = {sp.N(sp.exp(-1), 10)}")


# ----------------------------------------------------------------------------- approximate DP

@claim("004.approx.example", "Approximate differential privacy", "eps-DP with Pr[M(x) = t] ="
       " 2^{-100} needs Pr[M(x') = t] >= 2^{-100} e^{-eps}", notebook=_NB_SEL,
       printed=r"As an example if $\Pr[M(x) = t]$ is $2^{-100}$ then we need $\Pr[M(x') = t] "
       r"\geq 2^{-100} \cdot e^{-\epsilon}$ .",
       formula={"least": sp.Integer(2) ** -100 * sp.exp(-eps)})
def _approx_example(f: dict) -> Verdict:
    """The ratio condition with x and x' exchanged, Pr[M(x) = t] <= e^eps Pr[M(x') = t], is
    Pr[M(x') = t] >= e^{-eps} Pr[M(x) = t]: the least value is e^{-eps} 2^{-100} (sympy
    identity) and it is allowed (equality)."""
    p = sp.Integer(2) ** -100
    least = sp.solve(sp.Eq(p, sp.exp(eps) * sp.Symbol("q")), sp.Symbol("q"))[0]
    ok, why = decide_identity(least, f["least"])
    return Verdict(bool(ok), detail=f"least Pr[M(x') = t] = {least}; {why}")


@claim("004.approx.eps1", "Approximate differential privacy, Example", "eps = 1: Pr[M(x) = t]"
       " <= e Pr[M(x') = t] (pure DP), <= e Pr[M(x') = t] + delta ((eps, delta)-DP)",
       notebook=_NB_SEL,
       printed=r"$$\epsilon = 1$$ $$\epsilon = 1$$ In Pure DP then In $(\epsilon, \delta)$ -DP, "
       r"$$\Pr[M(x) = t] \leq e \cdot \Pr[M(x') = t]$$ $$\Pr[M(x) = t] \leq e \cdot \Pr[M(x')"
       r" = t] + \delta$$",
       formula={"factor": sp.E})
def _approx_eps1(f: dict) -> Verdict:
    ok, why = decide_identity(sp.exp(eps).subs(eps, 1), f["factor"])
    return Verdict(bool(ok), detail=f"e^eps at eps = 1 = {sp.exp(1)}: {why}")


@claim("004.approx.def", "Approximate differential privacy", "M is (eps, delta)-DP if for "
       "all outputs t: Pr[M(x) = t] <= e^eps Pr[M(x') = t] + delta", status=CORRECTED,
       corrected="quantify over events S: Pr[M(x) in S] <= e^eps Pr[M(x') in S] + delta",
       errata="errata.md#n9", notebook=_NB_SEL, kind="definition",
       printed=r"A mechanism $M: \mathcal{X}^n \rightarrow \mathcal{Y}$ is $(\epsilon, \delta)$"
       r" -Differentially Private if $\forall t \in \mathcal{Y}, x, x'$ neighboring databases,"
       r" $$\Pr[M(x) = t] \leq e^\epsilon \cdot \Pr[M(x') = t] + \delta.$$",
       formula={"pointwise": sp.Rational(1, 10), "events": sp.Integer(1)})
def _pointwise_def(f: dict) -> Verdict:
    """A counterexample, exact: M(x) uniform on 10 outputs, M(x') on an 11th. The pointwise
    condition holds with delta = 1/10 and eps = 0, but an event (the 10 outputs) needs
    delta = 1 (the hockey-stick divergence, equal to the supremum over events by
    enumeration): the printed definition admits a mechanism that reveals x."""
    m = 10
    p = {i: Fraction(1, m) for i in range(m)}
    q = {m: Fraction(1)}
    pointwise = max(Fraction(p.get(y, 0)) - Fraction(q.get(y, 0)) for y in set(p) | set(q))
    sets = sup_over_sets(p, q, 0)
    hs = hockey_stick(p, q, 0)
    ok = (sp.Rational(pointwise) == sp.sympify(f["pointwise"])
          and sp.Rational(sets) == sp.sympify(f["events"]) == hs)
    return Verdict(pointwise == sets, bool(ok), f"pointwise condition holds with delta = "
                   f"{pointwise}; the event version needs delta = sup over events = {sets} = "
                   f"hockey-stick {hs}")


@claim("004.approx.junk", "Approximate DP, Example", "Output junk w.p. 1 - delta, the entire"
       " database w.p. delta: satisfies (eps, delta)-DP", notebook=_NB_SEL,
       printed=r"$\left\{ \begin{array}{l} M \text{ is with probability } 1-\delta \text{ "
       r"output junk} \\ \text{with probability } \delta \text{ output entire database.} "
       r"\end{array} \right.$ ↓ Satisfies $(\epsilon, \delta)$ -DP!",
       formula={"dp": sp.LessThan(V, delta)},
       slack="an equality: the hockey-stick divergence is exactly delta for every eps")
def _junk_example(f: dict) -> Verdict:
    """The two output laws with a symbolic delta: the divergence sum_y (P(y) - e^eps Q(y))_+
    is delta for every eps >= 0 (the junk outcome contributes (1 - delta)(1 - e^eps)_+ = 0;
    sympy), and the relation is decided on it."""
    beta = sp.Symbol("beta", positive=True)  # delta = 1/(1 + beta), e^eps = 1 + t
    d_junk = (1 - delta) * (1 - sp.exp(eps))
    junk_sign = sign_of(-d_junk.subs(sp.exp(eps), 1 + _t).subs(delta, 1 / (1 + beta)),
                        [_t, beta])
    h = delta  # the database outcome of x: Q puts no mass on it
    rel = f["dp"]
    diff = (rel.rhs - h) if isinstance(rel, (sp.LessThan, sp.StrictLessThan)) else sp.nan
    sign = sign_of(diff, [delta, eps])
    ok = junk_sign in ("zero", "positive") and sign in ("zero", "positive") and not (
        isinstance(rel, sp.StrictLessThan) and sign == "zero")
    return Verdict(bool(ok), detail=f"junk term (1 - delta)(1 - e^eps) <= 0: {junk_sign}; "
                   f"H_eps = delta; bound - H_eps: {sign}")


@claim("004.approx.records", "Approximate DP, Example", "Keeping each record w.p. delta "
       "releases about n delta records on average", notebook=_NB_SEL,
       printed=r"→ For each person - $1-\delta$ → Replace record with junk - $\delta$ → Keep "
       r"record ⇒ On average $\approx n \cdot \delta$ people's records are released as is.",
       formula={"mean": _n * delta})
def _per_record(f: dict) -> Verdict:
    """E[#released] = sum_{j=1}^n E[1_j] = sum_{j=1}^n delta (linearity, for every n; sympy
    sums the generic range): exactly n delta."""
    mean = sp.summation(delta, (_j, 1, _n))
    ok, why = decide_identity(mean, f["mean"])
    return Verdict(bool(ok), detail=f"E[#released] = {mean}: {why}")


@claim("004.approx.always", "Approximate DP", "Always think of delta << 1/n (the scale at "
       "which one record in n is expected to be released)", notebook=_NB_SEL,
       printed=r"Always think of $\delta \ll 1/n$",
       formula={"scale": 1 / _n})
def _always(f: dict) -> Verdict:
    """At delta equal to the scale, the record-keeping example releases n delta = 1 record
    on average and the name-and-shame mechanism of notes 001 exposes someone with
    probability 1 - (1 - 1/n)^n >= 1 - 1/e: the scale below which delta must stay is 1/n
    (sympy, every n)."""
    released = simplified(_n * sp.sympify(f["scale"]))
    ok, why = decide_identity(released, 1)
    lim = exposure_limit()
    return Verdict(bool(ok), detail=f"n x scale = {released} ({why}); exposure 1 - (1 - 1/n)^n "
                   f"-> {lim} as n -> oo")


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
    ident = simplified(log_gap(rate * weight.subs(_w, _u), sp.exp(bound.subs(_w, _u))))
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
    lin = simplified(sp.Sum(term, (_r, 1, _m)).expand()
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
    attained = simplified(at_eq / bound.subs({_u: _U[_s_], _th: 1})) == 1
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
    gap = simplified(log_gap(sp.exp(rng[1]), final)) if rng else sp.nan
    return Verdict(bool(gap == 0), detail=f"log(e^eps exp(eps (u - u')/Du)) over theta in "
                   f"[-1, 1]: {rng}; log(final) - max = {gap} (the previous line's supremum "
                   "is the printed bound; the ratio itself only approaches it, errata N7)")


_STEP_PRINTED = {
    1: r"By definition for any $s \in R$ $$|u(x, s) - u(x', s)| \leq \Delta u$$ $$\Rightarrow "
       r"\exp\left(\frac{\epsilon u(x', s)}{\Delta u}\right) \leq \exp\left(\frac{\epsilon "
       r"\cdot (u(x, s) + \Delta u)}{\Delta u}\right)$$ $$= e^\epsilon \cdot e^{\epsilon "
       r"u(x,s)/\Delta u}$$",
    2: r"$$\frac{\Pr[M_\epsilon(x) = s]}{\Pr[M_\epsilon(x') = s]} = \frac{\exp\left("
       r"\frac{\epsilon u(x,s)}{\Delta u}\right)}{\exp\left(\frac{\epsilon u(x',s)}{\Delta "
       r"u}\right)} \cdot \frac{\sum_s \exp\left(\frac{\epsilon u(x',s)}{\Delta u}\right)}"
       r"{\sum_s \exp\left(\frac{\epsilon u(x,s)}{\Delta u}\right)}$$",
    3: r"$$\leq e^\epsilon \cdot \exp\left(\frac{\epsilon (u(x,s) - u(x',s))}{\Delta u}"
       r"\right)$$",
    4: r"$$\leq e^{2\epsilon}.$$",
}
for _step, _check, _text in (
        (1, _exp_step1, "|u(x, s) - u(x', s)| <= Delta u => exp(eps u(x', s)/Delta u) <= "
            "exp(eps (u(x, s) + Delta u)/Delta u) = e^eps exp(eps u(x, s)/Delta u)"),
        (2, _exp_step2, "Pr[M(x) = s]/Pr[M(x') = s] = [exp(eps u(x,s)/Du)/exp(eps u(x',s)/"
            "Du)] [sum_s exp(eps u(x',s)/Du)/sum_s exp(eps u(x,s)/Du)]"),
        (3, _exp_step3, "... <= e^eps exp(eps (u(x,s) - u(x',s))/Delta u)"),
        (4, _exp_step4, "... <= e^{2 eps}")):
    claim(f"004.exp.privacy.s{_step}", "Exponential mechanism, PROOF", _text,
          kind="proof-step", theorem="004.exp.privacy", notebook=_NB_PF,
          formula=_EXP_FORMULA[_step], printed=_STEP_PRINTED[_step])(_check)
