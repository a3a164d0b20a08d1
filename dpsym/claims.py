r"""The registry of the source statements, each with a check computed by the engine.

Every statement of the five source texts (``shared/seeds/``: 000 thesis slides, 001
lecture notes on approximate DP, 002 poster, 003 paper, 004 lecture notes on the Laplace
and exponential mechanisms) is a :class:`Claim`: an id such as ``"003.thm2"``, its source
file and location, the statement in words, a *check* -- a function that recomputes the
statement with the engine (sympy identities and limits from the mechanism classes'
``formula``/``series``, certified values from ``value``, exact privacy profiles from
``privacy_profile``, bounds from :mod:`dpsym.bounds`, exact finite computations from
:mod:`dpsym.textbook`) and returns a :class:`Verdict` -- the registered status and, for a
statement that is false as printed, its corrected form and the erratum that explains it.

The check decides; the registry only *states* what the check must find. A check returns
whether the statement holds as printed and, when it does not, whether the corrected
statement holds; :func:`run_claims` turns that into the computed status and compares it
with the registered one (:attr:`Result.ok`). The source's printed constants appear only
as the claim being tested.

Statuses: ``"holds"`` (true as printed; an erratum may still record that it is imprecise,
e.g. an inequality that is an equality), ``"holds as corrected"`` (false as printed, the
corrected statement holds), ``"fails"`` (false, and no correction is registered).
"""

from __future__ import annotations

import itertools
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from fractions import Fraction

import mpmath
import sympy as sp

HOLDS = "holds"
CORRECTED = "holds as corrected"
FAILS = "fails"
STATUSES = (HOLDS, CORRECTED, FAILS)

#: Source files by prefix.
SOURCES = {
    "000": "000_40cdc9fbd3c33a29.txt",
    "001": "001_78cbe2bf09a5abad.txt",
    "002": "002_b49c208d655d6f5c.txt",
    "003": "003_046dfff3fbbb1203.txt",
    "004": "004_f0c17b49e9dc2c20.txt",
}


@dataclass(frozen=True)
class Verdict:
    """What a check computed.

    Attributes
    ----------
    printed : bool
        The statement holds as printed.
    corrected : bool or None
        The registered corrected statement holds (``None``: none was checked).
    detail : str
        The numbers behind the verdict.
    """

    printed: bool
    corrected: bool | None = None
    detail: str = ""

    @property
    def status(self) -> str:
        """The computed status."""
        if self.printed:
            return HOLDS
        return CORRECTED if self.corrected else FAILS


@dataclass(frozen=True)
class Claim:
    """One source statement and its check.

    Attributes
    ----------
    id : str
        ``"<source>.<label>"``, e.g. ``"003.thm2"``.
    source : str
        The source file (``shared/seeds/<source>``).
    location : str
        Section, heading or slide title.
    statement : str
        The statement in words, as printed.
    check : callable
        Returns a :class:`Verdict`.
    status : str
        The registered status, one of :data:`STATUSES`.
    corrected : str or None
        The corrected statement (status ``"holds as corrected"``).
    errata : str or None
        Link to the erratum, ``errata.md#<entry>``.
    notebook : str or None
        The notebook that derives it (``notebooks/<name>.py``).
    budget : float
        Seconds the check may take on the reference machine.
    """

    id: str
    source: str
    location: str
    statement: str
    check: Callable[[], Verdict] = field(repr=False, compare=False)
    status: str = HOLDS
    corrected: str | None = None
    errata: str | None = None
    notebook: str | None = None
    budget: float = 5.0


@dataclass(frozen=True)
class Result:
    """The outcome of running one claim's check."""

    claim: Claim
    verdict: Verdict | None
    seconds: float
    detail: str

    @property
    def status(self) -> str:
        """The computed status (``"error"`` if the check raised)."""
        return self.verdict.status if self.verdict is not None else "error"

    @property
    def ok(self) -> bool:
        """The computed status is the registered one."""
        return self.status == self.claim.status


# ----------------------------------------------------------------------------- helpers

def _q(value: object) -> sp.Expr:
    return sp.nsimplify(value, rational=True) if isinstance(value, str) else sp.sympify(value)


def _mp(expr: object) -> mpmath.mpf:
    if isinstance(expr, mpmath.mpf):
        return expr
    if isinstance(expr, Fraction):
        expr = sp.Rational(expr.numerator, expr.denominator)
    return mpmath.mpf(sp.N(sp.sympify(expr), 30))


def _same(lhs: sp.Expr, rhs: sp.Expr, points: Sequence[dict], tol: str = "1e-20") -> bool:
    """``lhs == rhs`` symbolically, or (when simplify cannot decide) at every point."""
    diff = sp.simplify(lhs - rhs)
    if diff == 0:
        return True
    with mpmath.workdps(40):
        return all(abs(_mp(diff.subs(pt))) < mpmath.mpf(tol) * (1 + abs(_mp(rhs.subs(pt))))
                   for pt in points)


def _val(mech: type, quantity: str = "cost", cost: str = "amplitude", digits: int = 25,
         **params: object) -> mpmath.mpf:
    return mech(**params).value(quantity, cost, digits=digits).number


def _fmt(x: object) -> str:
    if isinstance(x, str):
        return x
    if isinstance(x, Fraction):
        return str(x)
    return mpmath.nstr(mpmath.mpf(x), 12)


def _from_b(expr: sp.Expr) -> sp.Expr:
    from .symbols import b, eps
    return expr.subs(b, sp.exp(-eps))


# ----------------------------------------------------------------------------- 000 slides

def _stair_l1_cost() -> Verdict:
    from .mechanisms import Staircase
    from .symbols import Delta, b, eps
    printed = Delta * sp.exp(eps / 2) / (sp.exp(eps) - 1)
    engine = _from_b(Staircase.formula("cost", "amplitude"))
    ok = _same(engine, printed, [{eps: e, Delta: 1} for e in (sp.Rational(1, 3), 2, 9)])
    return Verdict(ok, detail=f"engine V* = {sp.simplify(Staircase.formula('cost', 'amplitude'))}"
                   f" (b = e^-eps); printed {printed}; b={b}")


def _stair_l2_cost() -> Verdict:
    from .mechanisms import Staircase
    from .symbols import Delta, b
    printed = Delta**2 * (2 ** sp.Rational(-2, 3) * b ** sp.Rational(2, 3)
                          * (1 + b) ** sp.Rational(2, 3) + b) / (1 - b) ** 2
    engine = Staircase.formula("cost", "power")
    ok = _same(engine, printed, [{b: sp.Rational(k, 10), Delta: 1} for k in (1, 5, 9)])
    return Verdict(ok, detail=f"engine V* = {engine}")


def _stair_l1_gap() -> Verdict:
    from .mechanisms import Laplace, Staircase
    from .symbols import Delta, eps
    gap = _from_b(Laplace.formula("cost", "amplitude") - Staircase.formula("cost", "amplitude"))
    lim = sp.limit(gap.subs(Delta, 1), eps, 0, "+")
    ser = sp.series(gap.subs(Delta, 1), eps, 0, 3).removeO()
    return Verdict(lim == 0, detail=f"V_Lap - V* = {ser} + O(eps^3) * Delta -> {lim}")


def _stair_l2_gap() -> Verdict:
    from .mechanisms import Laplace, Staircase
    from .symbols import Delta, eps
    gap = _from_b(Laplace.formula("cost", "power") - Staircase.formula("cost", "power"))
    lim = sp.limit(gap.subs(Delta, 1), eps, 0, "+")
    return Verdict(bool(lim.is_finite), detail=f"(V_Lap - V*)/Delta^2 -> {lim} as eps->0: "
                   "bounded by c Delta^2 (c = 1/12), and it does not vanish")


def _stair_theta(cost: str, rate: sp.Expr) -> Callable[[], Verdict]:
    def check() -> Verdict:
        from .mechanisms import Staircase
        from .symbols import Delta, b
        p = 1 if cost == "amplitude" else 2
        lim = sp.limit(sp.simplify(Staircase.formula("cost", cost) / (Delta**p * rate)), b, 0, "+")
        ok = bool(lim.is_finite and lim.is_positive)
        return Verdict(ok, detail=f"V*/(Delta^{p} {rate}) -> {lim} as b = e^-eps -> 0")
    return check


def _stair_gamma_limits() -> Verdict:
    from .mechanisms import Staircase
    from .symbols import b
    lims = {}
    for cost in ("amplitude", "power"):
        g = Staircase.formula("gamma", cost)
        lims[cost] = (sp.limit(g, b, 1, "-"), sp.limit(g, b, 0, "+"))
    ok = all(lo == sp.Rational(1, 2) and hi == 0 for lo, hi in lims.values())
    return Verdict(ok, detail=f"(gamma* as eps->0, eps->oo) for m = 1, 2: {lims}")


def _laplace_costs() -> Verdict:
    from .mechanisms import Laplace
    from .symbols import Delta, eps
    amp, pw = Laplace.formula("cost", "amplitude"), Laplace.formula("cost", "power")
    ok = sp.simplify(amp - Delta / eps) == 0 and sp.simplify(pw - 2 * Delta**2 / eps**2) == 0
    prof = Laplace(eps="0.7").privacy_profile("0.7").number
    return Verdict(bool(ok and prof == 0),
                   detail=f"E|X| = {amp}, E X^2 = {pw}; delta(eps) = {prof} (eps-DP)")


def _laplace_def() -> Verdict:
    from .mechanisms import Laplace
    from .symbols import Delta, eps
    norm = Laplace.normalisation()
    profs = [Laplace(eps=e, Delta=d).privacy_profile(e).number
             for e, d in (("0.1", 1), ("1", 3), ("5", "0.5"))]
    below = Laplace(eps="1").privacy_profile("0.9").number
    ok = sp.simplify(norm - eps / (2 * Delta)) == 0 and all(p == 0 for p in profs) and below > 0
    return Verdict(ok, detail=f"a = {norm}; delta(eps) = {profs}; delta(0.9 eps) = {_fmt(below)}")


def _staircase_beats_laplace() -> Verdict:
    from .mechanisms import Laplace, Staircase
    rows, ok = [], True
    for e in ("0.1", "1", "5"):
        for cost in ("amplitude", "power"):
            s, lap = _val(Staircase, "cost", cost, eps=e), _val(Laplace, "cost", cost, eps=e)
            ok &= s < lap
            rows.append(f"eps={e} {cost}: {_fmt(s / lap)}")
    return Verdict(ok, detail="V*/V_Lap: " + "; ".join(rows))


def _discrete_staircase() -> Verdict:
    from .mechanisms import DiscreteLaplace, DiscreteStaircase
    rows, ok = [], True
    for e in ("0.5", "2"):
        s = _val(DiscreteStaircase, "cost", "amplitude", eps=e, Delta=4)
        lap = _val(DiscreteLaplace, "cost", "amplitude", eps=e, Delta=4)
        prof = DiscreteStaircase(eps=e, Delta=4).privacy_profile(e).number
        ok &= s <= lap and prof == 0
        rows.append(f"eps={e}: {_fmt(s)} <= {_fmt(lap)}, delta(eps)={prof}")
    return Verdict(ok, detail="; ".join(rows))


def _hypothesis_testing(delta: object) -> Callable[[], Verdict]:
    def check() -> Verdict:
        d = _q(delta)
        with mpmath.workdps(30):
            if d == 0:  # Laplace(1/eps), Delta = 1, eps = 1
                def sf(t):
                    return mpmath.exp(-t) / 2 if t >= 0 else 1 - mpmath.exp(t) / 2
            else:  # truncated Laplacian of Definition 3 (printed A, B), eps = 1
                from .symbols import Delta, eps
                from .symbols import delta as dsym
                A, B = _tl_paper_AB()
                pt = {eps: 1, dsym: d, Delta: 1}
                a_, b_ = _mp(A.subs(pt)), _mp(B.subs(pt))

                def sf(t):
                    if t >= a_:
                        return mpmath.mpf(0)
                    if t <= -a_:
                        return mpmath.mpf(1)
                    if t >= 0:
                        return b_ * (mpmath.exp(-t) - mpmath.exp(-a_))
                    return 1 - sf(-t)
            # a test rejects "D1" when the output exceeds t; outputs X (D1) or X + 1 (D2)
            worst = mpmath.inf
            for k in range(-800, 801):
                t = mpmath.mpf(k) / 100
                fa, md = sf(t), 1 - sf(t - 1)
                worst = min(worst, mpmath.e * fa + md, fa + mpmath.e * md)
            ok = worst >= 1 - _mp(d) - mpmath.mpf("1e-20")
        return Verdict(ok, detail=f"eps = 1: min over threshold tests of e^eps P_FA + P_MD = "
                       f"{_fmt(worst)} >= 1 - delta = {_fmt(1 - _mp(d))}")
    return check


def _count_sensitivity() -> Verdict:
    import itertools
    worst = 0
    for n in range(1, 6):
        for data in itertools.product((0, 1), repeat=n):
            for i in range(n):  # remove entry i
                worst = max(worst, abs(sum(data) - sum(data[:i] + data[i + 1:])))
    return Verdict(worst == 1, detail=f"max |q(D1) - q(D2)| over add/remove neighbours "
                   f"(n <= 5, binary property) = {worst}")


def _composition_pure() -> Verdict:
    from .mechanisms import Laplace
    from .privacy import numeric_noise, privacy_loss_bound
    from .textbook import compose, hockey_stick, randomized_response
    noise, _ = numeric_noise(Laplace(eps="0.5"))
    loss = privacy_loss_bound(noise, 1)
    p1, q1 = randomized_response("0.5")
    p2, q2 = randomized_response("0.3")
    h = hockey_stick(compose(p1, p2), compose(q1, q2), sp.Rational(4, 5))
    below = hockey_stick(compose(p1, p2), compose(q1, q2), sp.Rational(7, 10))
    ok = abs(loss - mpmath.mpf("0.5")) < mpmath.mpf("1e-12") and h == 0 and below > 0
    return Verdict(ok, detail=f"Laplace per-coordinate loss {_fmt(loss)} adds over d; "
                   f"RR(0.5) x RR(0.3): H_0.8 = {h}, H_0.7 = {_fmt(sp.N(below))} > 0")


def _histogram_l1() -> Verdict:
    import itertools
    k, worst_ar, worst_rep = 3, 0, 0
    for data in itertools.product(range(k), repeat=3):
        hist = [data.count(c) for c in range(k)]
        for i in range(3):
            rem = list(data[:i] + data[i + 1:])
            h2 = [rem.count(c) for c in range(k)]
            worst_ar = max(worst_ar, sum(abs(a - c) for a, c in zip(hist, h2, strict=False)))
            for v in range(k):
                rep = list(data)
                rep[i] = v
                h3 = [rep.count(c) for c in range(k)]
                worst_rep = max(worst_rep, sum(abs(a - c) for a, c in zip(hist, h3, strict=False)))
    return Verdict(worst_ar == 1, detail=f"l1 sensitivity of a {k}-bucket histogram: "
                   f"add/remove {worst_ar}, replace {worst_rep}")


def _md_objective() -> Verdict:
    from .mechanisms.staircase_md import StaircaseMD
    from .symbols import Delta, b, gamma
    g = gamma
    obj = ((g**3 + 3 * b / (1 - b) * g**2 + 3 * (b**2 + b) / (1 - b) ** 2 * g
            + b * (1 + 4 * b + b**2) / (1 - b) ** 3)
           / (g**2 + 2 * b / (1 - b) * g + (b + b**2) / (1 - b) ** 2))
    cost = StaircaseMD.cost_function("amplitude")
    ratio = sp.simplify(cost / obj)
    ok = sp.simplify(ratio - 2 * Delta / 3) == 0
    gs = StaircaseMD(eps="1").value("gamma", "amplitude", digits=20).number
    num = [_mp(obj.subs({b: sp.exp(-1), g: sp.Rational(k, 100)})) for k in range(1, 100)]
    ok &= abs(mpmath.mpf(num.index(min(num)) + 1) / 100 - gs) < mpmath.mpf("0.011")
    return Verdict(ok, detail=f"engine E||X||_1 / printed objective = {ratio}; "
                   f"gamma*(eps=1) = {_fmt(gs)}")


def _md_series(regime: str) -> Callable[[], Verdict]:
    def check() -> Verdict:
        from .mechanisms.staircase_md import StaircaseMD
        from .symbols import Delta, b, eps
        if regime == "eps->0":
            printed = 2 * Delta / eps - Delta * eps**2 / (36 * sp.sqrt(3))
            ser = StaircaseMD.series("cost", "amplitude", "eps->0", 3).removeO()
            ok = sp.simplify(ser - printed) == 0
        else:
            printed = (sp.cbrt(2) * Delta * b ** sp.Rational(1, 3)
                       + Delta * b ** sp.Rational(2, 3) / sp.cbrt(2))
            ser = StaircaseMD.series("cost", "amplitude", "eps->oo", 2).removeO()
            rest = sp.expand(ser - printed)
            ok = sp.limit(rest / b ** sp.Rational(2, 3), b, 0, "+") == 0
        return Verdict(ok, detail=f"engine series: {ser}")
    return check


def _md_laplace() -> Verdict:
    from .mechanisms.laplace_md import LaplaceMD
    from .symbols import Delta, eps
    f = LaplaceMD.formula("cost", "amplitude")
    return Verdict(sp.simplify(f - 2 * Delta / eps) == 0, detail=f"E||X||_1 (d = 2) = {f}")


def _md_independent() -> Verdict:
    from .mechanisms.independent_staircase import IndependentStaircase
    from .symbols import Delta, b
    f = IndependentStaircase.formula("cost", "amplitude")
    lim = sp.limit(f / (2 * Delta * b ** sp.Rational(1, 4)), b, 0, "+")
    return Verdict(bool(lim.is_finite and lim.is_positive),
                   detail=f"V = {f}; V/(2 Delta e^-eps/4) -> {lim}")


def _md_optimality() -> Verdict:
    from .mechanisms.independent_staircase import IndependentStaircase
    from .mechanisms.laplace_md import LaplaceMD
    from .mechanisms.staircase_md import StaircaseMD
    rows, ok = [], True
    for e in ("0.5", "2", "8"):
        s = _val(StaircaseMD, eps=e, digits=15)
        lap, ind = _val(LaplaceMD, eps=e, digits=15), _val(IndependentStaircase, eps=e, digits=15)
        ok &= s <= lap and s <= ind
        rows.append(f"eps={e}: {_fmt(s)} <= Lap {_fmt(lap)}, indep {_fmt(ind)}")
    return Verdict(ok, detail="evidence, not a proof: " + "; ".join(rows))


def _tv_equivalence() -> Verdict:
    from .textbook import hockey_stick
    p = {i: Fraction(1, 8) for i in range(-4, 4)}
    q = {i + 1: Fraction(1, 8) for i in range(-4, 4)}
    h = hockey_stick(p, q, 0)
    tv = sum(abs(Fraction(p.get(k, 0)) - Fraction(q.get(k, 0))) for k in set(p) | set(q)) / 2
    return Verdict(h == tv, detail=f"H_0(P||Q) = {h} = TV = {tv} (uniform on 8 points, shift 1)")


def _zero_delta_optimal() -> Verdict:
    from .bounds import DiscreteLowerBound
    from .bounds.integer import u as uu
    from .bounds.integer import uniform_cost
    from .symbols import Delta
    rows, ok = [], True
    for dl in ("0.25", "0.1"):
        lb = DiscreteLowerBound(eps=0, delta=dl, Delta=1).value("cost", "amplitude").number
        unif = uniform_cost(1).subs({Delta: 1, uu: 1 / (2 * _q(dl))})
        ok &= abs(lb - _mp(unif)) < mpmath.mpf("1e-20")
        rows.append(f"delta={dl}: LP optimum {_fmt(lb)}, uniform {unif}")
    return Verdict(ok, detail="; ".join(rows))


def _zero_delta_ub() -> Verdict:
    from .bounds.integer import u as uu
    from .bounds.integer import uniform_cost
    from .symbols import Delta
    rows, printed_ok, corrected_ok = [], True, True
    for D, dl in ((1, Fraction(1, 10)), (2, Fraction(1, 8)), (3, Fraction(1, 12))):
        true = uniform_cost(1).subs({Delta: D, uu: 1 / (2 * dl)})
        m = D / (2 * dl)
        top_printed = int(sp.floor(dl / (2 * D) - 1))
        printed = 2 * sum(dl / D * i for i in range(1, top_printed + 1)) + dl / D * m
        corrected = 2 * sum(dl / D * i for i in range(1, int(m - 1) + 1)) + dl / D * m
        printed_ok &= sp.nsimplify(printed) == true
        corrected_ok &= sp.nsimplify(corrected) == true
        rows.append(f"Delta={D}, delta={dl}: uniform cost {true}, printed {printed}, "
                    f"corrected {corrected}")
    return Verdict(printed_ok, corrected_ok, "; ".join(rows))


def _zero_delta_lb(power: int) -> Callable[[], Verdict]:
    def check() -> Verdict:
        from .bounds import DiscreteLowerBound
        from .bounds.integer import chain_bound, slides_formula
        from .bounds.integer import u as uu
        from .symbols import Delta
        rows, printed_ok, corrected_ok = [], True, True
        cost = "amplitude" if power == 1 else "power"
        for D, dl in ((1, "0.1"), (2, "0.125"), (3, "0.1")):
            pt = {Delta: D, uu: 1 / (2 * _q(dl))}
            opt = DiscreteLowerBound(eps=0, delta=dl, Delta=D).value("cost", cost).number
            s, c = _mp(slides_formula(power).subs(pt)), _mp(chain_bound(power).subs(pt))
            printed_ok &= s <= opt + mpmath.mpf("1e-20")
            corrected_ok &= c <= opt + mpmath.mpf("1e-20")
            rows.append(f"Delta={D}, delta={dl}: optimum {_fmt(opt)}, printed V_LB {_fmt(s)}, "
                        f"chain bound {_fmt(c)}")
        return Verdict(printed_ok, corrected_ok, "; ".join(rows))
    return check


def _zero_delta_formulas(power: int) -> Callable[[], Verdict]:
    def check() -> Verdict:
        from .bounds.integer import slides_formula, uniform_cost
        from .bounds.integer import u as uu
        from .symbols import Delta, delta
        if power == 1:
            lb = Delta / (4 * delta) + 1 - Delta / 2
            ub = Delta / (4 * delta)
        else:
            lb = (Delta**2 / (12 * delta**2) - Delta**2 / (4 * delta)
                  + Delta * (1 / (2 * delta) - 1) + Delta**2 / 6 + 1)
            ub = Delta**2 / (12 * delta**2) + sp.Rational(1, 6)
        sub = {uu: 1 / (2 * delta)}
        ok_lb = sp.simplify(slides_formula(power).subs(sub) - lb) == 0
        ok_ub = sp.simplify(uniform_cost(power).subs(sub) - ub) == 0
        # the printed V_LB is a lower bound only if it is below the true optimum
        from .bounds import DiscreteLowerBound
        opt = DiscreteLowerBound(eps=0, delta="0.1", Delta=1).value(
            "cost", "amplitude" if power == 1 else "power").number
        val = _mp(lb.subs({Delta: 1, delta: sp.Rational(1, 10)}))
        is_bound = val <= opt + mpmath.mpf("1e-20")
        return Verdict(bool(ok_lb and ok_ub and is_bound), bool(ok_ub),
                       f"V_LB printed = slides sum: {ok_lb}; V_UB = uniform cost: {ok_ub}; at "
                       f"Delta=1, delta=1/10 printed V_LB {_fmt(val)} vs optimum {_fmt(opt)}")
    return check


def _zero_delta_limit() -> Verdict:
    from .bounds.integer import chain_bound, uniform_cost
    from .bounds.integer import u as uu
    from .symbols import Delta
    lims = [sp.limit((uniform_cost(m) / chain_bound(m)).subs(Delta, D), uu, sp.oo)
            for m in (1, 2, 3) for D in (1, 2, 5)]
    return Verdict(all(v == 1 for v in lims), detail=f"V_UB/V_LB -> {lims} (m = 1..3, "
                   "Delta = 1, 2, 5; V_LB the rigorous chain bound)")


def _approx_upper_min() -> Verdict:
    from .mechanisms import DiscreteLaplace, DiscreteUniform
    rows, ok = [], True
    for e, dl in (("1", "0.25"), ("0.1", "0.1")):
        lap = DiscreteLaplace(eps=e, Delta=2).privacy_profile(e).number
        uni = DiscreteUniform(delta=dl, Delta=2).privacy_profile(e).number
        ok &= lap <= _mp(_q(dl)) and uni <= _mp(_q(dl)) + mpmath.mpf("1e-25")
        rows.append(f"eps={e}, delta={dl}: discrete Laplace delta(eps)={_fmt(lap)}, "
                    f"uniform delta(eps)={_fmt(uni)}")
    return Verdict(ok, detail="both are (eps, delta)-DP: " + "; ".join(rows))


def _discrete_laplace_pmf() -> Verdict:
    from .mechanisms import DiscreteLaplace
    from .symbols import Delta, b, eps
    norm = DiscreteLaplace.normalisation()
    lam = sp.exp(-eps / Delta)
    printed = (1 - lam) / (1 + lam)
    ok = _same(_from_b(norm), printed, [{eps: e, Delta: D} for e in (sp.Rational(1, 2), 3)
                                        for D in (1, 4)])
    return Verdict(ok, detail=f"engine P(0) = {norm} (b = {b})")


def _ratio_constants(cost: str, constant: str) -> Callable[[], Verdict]:
    def check() -> Verdict:
        from .bounds import DiscreteLowerBound
        from .mechanisms import DiscreteLaplace, DiscreteUniform
        rows, worst = [], mpmath.mpf(0)
        for e, dl in (("0.2", "0.1"), ("0.05", "0.05"), ("0.1", "0.025")):
            lb = DiscreteLowerBound(eps=e, delta=dl, Delta=1).value("cost", cost).number
            up = min(_val(DiscreteLaplace, "cost", cost, eps=e, Delta=1),
                     _val(DiscreteUniform, "cost", cost, delta=dl, Delta=1))
            worst = max(worst, up / lb)
            rows.append(f"eps={e}, delta={dl}: min(V_Lap, V_Unif)/V_LB = {_fmt(up / lb)}")
        return Verdict(worst <= _mp(_q(constant)), detail="; ".join(rows))
    return check


def _md_zero_delta(power: int) -> Callable[[], Verdict]:
    def check() -> Verdict:
        from .mechanisms.lattice_md import DiscreteUniformMD
        rows, ok = [], True
        for D, dl, d in ((1, "0.1", 2), (2, "0.125", 3)):
            dd, De = _q(dl), sp.Integer(D)
            ub = _val(DiscreteUniformMD, "cost", "amplitude" if power == 1 else "power",
                      delta=dl, Delta=D, dim=d)
            if power == 1:
                lb_p, ub_p = d * De / (4 * dd) - (De - 1) / 2 * d, d * De / (4 * dd)
            else:
                lb_p = (d * De**2 / (12 * dd**2) + (1 / De - 1) * d * De**2 / (4 * dd)
                        + (1 - De) / 2 * d + d * De**2 / 6)
                ub_p = d * De**2 / (12 * dd**2) + sp.Rational(d, 6)
            ok &= abs(ub - _mp(ub_p)) < mpmath.mpf("1e-15") and _mp(lb_p) <= ub
            rows.append(f"Delta={D}, delta={dl}, d={d}: V_UB engine {_fmt(ub)} printed "
                        f"{ub_p}; V_LB printed {_fmt(_mp(lb_p))}")
        return Verdict(ok, detail="; ".join(rows))
    return check


def _md_upper_mechanisms() -> Verdict:
    import itertools

    from .mechanisms.lattice_md import DiscreteLaplaceMD
    from .symbols import Delta, eps
    from .textbook import hockey_stick
    # uniform noise on the cube {-Delta/(2 delta), ..., Delta/(2 delta) - 1}^d, d = 2
    D, dl = 2, Fraction(1, 4)
    m = int(D / (2 * dl))
    cube = {pt: Fraction(dl / D) ** 2 for pt in itertools.product(range(-m, m), repeat=2)}
    worst = max(hockey_stick(cube, {(i + t1, j + t2): v for (i, j), v in cube.items()}, 0)
                for t1 in range(-D, D + 1) for t2 in range(-D, D + 1)
                if abs(t1) + abs(t2) <= D)
    # discrete Laplacian on Z^2: pointwise ratio over a window, shifts with ||t||_1 <= Delta
    lam = sp.exp(-sp.Rational(1, 2))  # eps = 1, Delta = 2

    def mass(i, j):
        return lam ** (abs(i) + abs(j))
    ratio = max(mass(i, j) / mass(i + t1, j + t2) for i in range(-4, 5) for j in range(-4, 5)
                for t1 in range(-D, D + 1) for t2 in range(-D, D + 1)
                if abs(t1) + abs(t2) <= D)
    norm = DiscreteLaplaceMD.normalisation()
    ok = worst <= dl and sp.simplify(ratio - sp.E) == 0
    if norm is not None:
        lam_s = sp.exp(-eps / Delta)
        ok &= _same(_from_b(norm), (1 - lam_s) / (1 + lam_s),
                    [{eps: 1, Delta: 2}, {eps: 3, Delta: 1}])
    return Verdict(bool(ok), detail=f"uniform cube (Delta = 2, delta = 1/4, d = 2): max H_0 over "
                   f"||t||_1 <= Delta = {worst}; discrete Laplacian max ratio = {ratio} = e^eps;"
                   f" engine normalisation {norm}")


# ----------------------------------------------------------------------------- 003 paper

def _tl_paper_AB() -> tuple[sp.Expr, sp.Expr]:
    from .symbols import Delta, delta, eps
    W = 1 + (sp.exp(eps) - 1) / (2 * delta)
    A = Delta / eps * sp.log(W)
    B = 1 / (2 * Delta / eps * (1 - 1 / W))
    return A, B


_TL_POINTS = (("0.5", "0.1"), ("2", "0.01"), ("0.05", "0.3"), ("8", "1e-6"))


def _tl_definition() -> Verdict:
    from .mechanisms import TruncatedLaplace
    from .symbols import Delta, delta, eps, x
    A, B = _tl_paper_AB()
    pts = [{eps: _q(e), delta: _q(d), Delta: 1} for e, d in _TL_POINTS]
    ok = _same(TruncatedLaplace.formula("A"), A, pts) and _same(TruncatedLaplace.formula("B"),
                                                               B, pts)
    lam = Delta / eps
    mass = sp.simplify(2 * sp.integrate(B * sp.exp(-x / lam), (x, 0, A)))
    tail = sp.simplify(sp.integrate(B * sp.exp(-x / lam), (x, A - Delta, A)))
    ok &= _same(mass, sp.Integer(1), pts) and _same(tail, delta, pts)
    return Verdict(ok, detail=f"engine A, B = printed; total mass {mass}; mass on [A-Delta, A] "
                   f"= {tail}")


def _tl_mechanism() -> Verdict:
    from .mechanisms import TruncatedLaplace
    from .privacy import numeric_noise, privacy_loss_bound
    inst = TruncatedLaplace(eps="1", delta="0.05")
    noise, _ = numeric_noise(inst)
    loss = privacy_loss_bound(noise, 1)
    prof = inst.privacy_profile("1").number
    ok = loss == mpmath.inf and abs(prof - mpmath.mpf("0.05")) < mpmath.mpf("1e-12")
    return Verdict(ok, detail=f"sup privacy loss {loss} (not pure DP); delta(eps) = {_fmt(prof)}"
                   " = delta exactly")


def _tl_private() -> Verdict:
    from .mechanisms import TruncatedLaplace
    rows, ok = [], True
    for e, d in _TL_POINTS:
        prof = TruncatedLaplace(eps=e, delta=d, Delta="1.5").privacy_profile(e).number
        ok &= prof <= _mp(_q(d)) * (1 + mpmath.mpf("1e-12"))
        rows.append(f"(eps, delta) = ({e}, {d}): delta(eps) = {_fmt(prof)}")
    return Verdict(ok, detail="; ".join(rows))


def _tl_lemma1() -> Verdict:
    """sup over half-lines S = [t, oo) of P(S) - e^eps P(S + Delta), by direct integration of
    the printed density, against the engine's profile."""
    from .mechanisms import TruncatedLaplace
    from .symbols import Delta, delta, eps
    A, B = _tl_paper_AB()
    rows, ok = [], True
    for e, d in _TL_POINTS[:2]:
        pt = {eps: _q(e), delta: _q(d), Delta: 1}
        with mpmath.workdps(30):
            a_, b_, lam = _mp(A.subs(pt)), _mp(B.subs(pt)), 1 / _mp(_q(e))

            def sf(t, a_=a_, b_=b_, lam=lam):  # P(X >= t)
                if t >= a_:
                    return mpmath.mpf(0)
                if t <= -a_:
                    return mpmath.mpf(1)
                if t >= 0:
                    return b_ * lam * (mpmath.exp(-t / lam) - mpmath.exp(-a_ / lam))
                return 1 - sf(-t)
            c = mpmath.exp(_mp(_q(e)))
            best = max(sf(t) - c * sf(t + 1) for t in
                       [a_ - 1 + mpmath.mpf(k) / 200 for k in range(-400, 201)])
        prof = TruncatedLaplace(eps=e, delta=d).privacy_profile(e).number
        ok &= abs(best - prof) < mpmath.mpf("1e-20")
        rows.append(f"({e}, {d}): sup_S = {_fmt(best)}, engine delta(eps) = {_fmt(prof)}")
    return Verdict(ok, detail="; ".join(rows))


def _definition_sets() -> Verdict:
    from .mechanisms import DiscreteUniform
    from .textbook import hockey_stick, sup_over_sets
    p = {i: Fraction(1, 8) for i in range(-4, 4)}
    q = {i + 1: Fraction(1, 8) for i in range(-4, 4)}
    rows, ok = [], True
    r = {i: Fraction(3 - abs(i), 9) for i in range(-2, 3)}
    r_shift = {i + 1: v for i, v in r.items()}
    for e in (0, sp.Rational(1, 2)):
        for a, c, name in ((p, q, "uniform"), (r, r_shift, "triangular")):
            hs, sets = hockey_stick(a, c, e), sup_over_sets(a, c, e)
            ok &= abs(_mp(hs) - _mp(sets)) < mpmath.mpf("1e-12")
            rows.append(f"{name}, eps'={e}: sum (P - e^eps Q)_+ = {sp.N(hs, 10)}, max over "
                        f"events = {_fmt(sets)}")
    eng = DiscreteUniform(delta="0.125", Delta=1).privacy_profile("0").number
    ok &= abs(eng - mpmath.mpf(1) / 8) < mpmath.mpf("1e-12")
    rows.append(f"engine (0, 1/8) profile of the discrete uniform: {_fmt(eng)}")
    return Verdict(ok, detail="; ".join(rows))


def _sensitivity_monotone() -> Verdict:
    from .mechanisms import TruncatedLaplace
    from .privacy import hockey_stick, numeric_noise
    noise, _ = numeric_noise(TruncatedLaplace(eps="1", delta="0.1"))
    hs = [hockey_stick(noise, d, "1") for d in ("0.25", "0.5", "0.75", "1")]
    ok = all(a <= c for a, c in itertools.pairwise(hs))
    return Verdict(ok, detail="H(d) at d = Delta/4 .. Delta: " + ", ".join(_fmt(h) for h in hs))


def _tl_cost(cost: str) -> Callable[[], Verdict]:
    def check() -> Verdict:
        from .mechanisms import TruncatedLaplace
        from .symbols import Delta, delta, eps
        W = (sp.exp(eps) - 1) / (2 * delta)
        if cost == "amplitude":
            printed = Delta / eps * (1 - sp.log(1 + W) / W)
        else:
            printed = 2 * Delta**2 / eps**2 * (1 - (sp.log(1 + W) ** 2 / 2 + sp.log(1 + W)) / W)
        pts = [{eps: _q(e), delta: _q(d), Delta: 1} for e, d in _TL_POINTS]
        ok = _same(TruncatedLaplace.formula("cost", cost), printed, pts)
        rows = []
        for e, d in _TL_POINTS[:3]:
            v = _val(TruncatedLaplace, "cost", cost, eps=e, delta=d)
            pv = _mp(printed.subs({eps: _q(e), delta: _q(d), Delta: 1}))
            ok &= abs(v - pv) < mpmath.mpf("1e-15") * pv
            rows.append(f"({e}, {d}): {_fmt(v)}")
        return Verdict(ok, detail="engine formula = printed; values " + "; ".join(rows))
    return check


def _tl_limits() -> Verdict:
    from .mechanisms import TruncatedLaplace
    from .symbols import Delta, delta, eps
    v = TruncatedLaplace.formula("cost", "amplitude")
    l_delta = sp.limit(v, delta, 0, "+")
    l_eps = sp.limit(v, eps, 0, "+")
    l_joint = sp.limit(sp.simplify(eps * v.subs(delta, eps)), eps, 0, "+")
    ok = (sp.simplify(l_delta - Delta / eps) == 0 and sp.simplify(l_eps - Delta / (4 * delta)) == 0
          and sp.simplify(l_joint - Delta * (1 - 2 * sp.log(sp.Rational(3, 2)))) == 0)
    return Verdict(ok, detail=f"delta->0: {l_delta}; eps->0: {l_eps}; eps=delta->0: eps V -> "
                   f"{sp.simplify(l_joint)}")


def _paper_points() -> list[tuple[sp.Expr, object, int]]:
    from .bounds.real import paper_n
    out = []
    for e, n_ in ((sp.Rational(1, 2), 3), (sp.Rational(1, 10), 8), (sp.Integer(1), 2)):
        out.append((e, paper_n(e, n_), n_))
    return out


def _lemma2() -> Verdict:
    from .mechanisms import DiscreteLaplace, DiscreteUniform
    rows, ok, N = [], True, 10
    for e, d, n_ in _paper_points():
        with mpmath.workdps(30):
            bb = mpmath.exp(-_mp(e))
            dd = (mpmath.mpf(d.numerator) / d.denominator if isinstance(d, Fraction)
                  else mpmath.mpf(d))
            a = (dd + (mpmath.exp(_mp(e)) - 1) / 2) / mpmath.exp(_mp(e))
            cond = sum(bb**i * (2 * i * N - (1 + (i - 1) * N) - (1 + i * N))
                       for i in range(1, n_))
            rhs = 2 * sum(a * bb**k * (1 + k * N) for k in range(n_))
        lap = _val(DiscreteLaplace, eps=str(sp.N(e, 30)), Delta=N)
        dstr = mpmath.nstr(dd, 25)
        try:
            uni = _val(DiscreteUniform, delta=dstr, Delta=N)
        except Exception:
            uni = mpmath.inf
        holds = (cond < 1) or (lap >= rhs and uni >= rhs)
        ok &= holds
        rows.append(f"eps={e}, n={n_}: condition (9) {_fmt(cond)} >= 1: {cond >= 1}; "
                    f"bound {_fmt(rhs)} <= discrete Laplace {_fmt(lap)}, uniform {_fmt(uni)}")
    return Verdict(ok, detail="Delta~ = 10, L = |i|: " + "; ".join(rows))


def _lower_identity(power: int) -> Callable[[], Verdict]:
    def check() -> Verdict:
        from .bounds import tightness
        from .symbols import Delta, b, delta, eps
        a, n_, k = sp.symbols("a n k", positive=True)
        nn = sp.Symbol("n", integer=True, positive=True)
        kk = sp.Symbol("k", integer=True, nonnegative=True)
        if power == 1:
            printed = 2 * a * ((b - b**nn) / (1 - b) ** 2 - (nn - 1) * b**nn / (1 - b)) * Delta
        else:
            printed = (2 * a * Delta**2 / (1 - b)
                       * (-b + 2 * (b * (1 - b ** (nn - 1)) / (1 - b) ** 2
                                    - (nn - 1) * b**nn / (1 - b))
                          - b**2 * (1 - b ** (nn - 2)) / (1 - b) - (nn - 1) ** 2 * b**nn))
        del n_, k
        rows, ok = [], True
        for nv in (2, 3, 7):
            direct = sum(2 * a * b**j * j**power * Delta**power for j in range(nv))
            ok &= sp.simplify(printed.subs(nn, nv) - direct) == 0
        del kk
        rows.append(f"closed form = 2a sum_k b^k (k Delta)^{power} for n = 2, 3, 7: {ok}")
        cost = "amplitude" if power == 1 else "power"
        upp = tightness.upper_bound(cost)
        for e, d, nv in _paper_points():
            av = (d + (sp.exp(e) - 1) / 2) / sp.exp(e)
            low = _mp(printed.subs({a: av, b: sp.exp(-e), nn: nv, Delta: 1}))
            up = _mp(upp.subs({eps: e, delta: sp.nsimplify(d) if isinstance(d, Fraction) else
                               sp.Float(d, 30), Delta: 1}))
            ok &= low <= up
            rows.append(f"eps={e}, n={nv}: V_low {_fmt(low)} <= V_upp {_fmt(up)}")
        return Verdict(ok, detail="; ".join(rows))
    return check


def _tightness(power: int, regime: str) -> Callable[[], Verdict]:
    def check() -> Verdict:
        from .bounds.real import n as nsym
        from .bounds.tightness import PAPER_CLAIMS, ratio_limit
        from .symbols import c, delta, eps
        rel, claimed = PAPER_CLAIMS[(power, regime)]
        lim = ratio_limit("amplitude" if power == 1 else "power", regime)
        if regime == "eps->0":
            pts = [{delta: sp.Rational(1, 2 * m), nsym: m} for m in (2, 5, 20)]
        elif regime == "delta->0":
            pts = [{eps: e} for e in (sp.Rational(1, 10), 1, 4)]
        else:
            pts = [{c: v} for v in (sp.Rational(1, 2), 1, 3)]
        vals = [(_mp(lim.subs(pt)), _mp(claimed.subs(pt))) for pt in pts]
        if rel == "=":
            ok = all(abs(x - y) < mpmath.mpf("1e-20") for x, y in vals)
        else:
            ok = all(x >= y - mpmath.mpf("1e-20") for x, y in vals)
        equal = all(abs(x - y) < mpmath.mpf("1e-20") for x, y in vals)
        return Verdict(ok, detail=f"exact limit {lim}; claimed {rel} {claimed}; "
                       f"{'equality' if equal else 'strict'} at the points checked")
    return check


def _joint_numeric(cost: str) -> Callable[[], Verdict]:
    def check() -> Verdict:
        from .bounds import LowerBound
        from .mechanisms import TruncatedLaplace
        gaps = []
        for e in ("1e-3", "1e-5", "1e-7"):
            low = LowerBound(eps=e, delta=e).value("cost", cost, digits=20).number
            upp = _val(TruncatedLaplace, "cost", cost, 20, eps=e, delta=e)
            gaps.append((e, 1 - low / upp))
        ok = all(0 <= g < 10 * mpmath.mpf(e) for e, g in gaps)
        ok &= all(g2 < g1 for (_, g1), (_, g2) in itertools.pairwise(gaps))
        return Verdict(ok, detail="certified 1 - V_low/V_upp at eps = delta: " + ", ".join(
            f"{e}: {_fmt(g)}" for e, g in gaps) + " (-> 0 linearly in eps)")
    return check


def _classic_gaussian(notes: bool) -> Callable[[], Verdict]:
    def check() -> Verdict:
        from .gaussian_calibration import profile_mp
        rows, printed_ok, corrected_ok = [], True, True
        grid_e = ("0.01", "0.5", "1") if notes else ("0.01", "0.5", "0.99")
        grid_d = ("1e-6", "0.01", "0.3", "0.5", "0.99")
        with mpmath.workdps(30):
            for e in grid_e:
                for d in grid_d:
                    ee, dd = mpmath.mpf(e), mpmath.mpf(d)
                    const = 1 if notes else mpmath.mpf("1.25")
                    sigma = mpmath.sqrt(2 * mpmath.log(const / dd)) / ee
                    prof = profile_mp(ee, sigma)
                    good = prof <= dd
                    printed_ok &= good
                    if dd <= mpmath.mpf("0.5"):
                        corrected_ok &= good
                    if not good:
                        rows.append(f"eps={e}, delta={d}: delta(eps; sigma) = {_fmt(prof)}")
        return Verdict(printed_ok, corrected_ok,
                       ("violations: " + "; ".join(rows)) if rows else
                       f"profile <= delta on eps in {grid_e} x delta in {grid_d}")
    return check


def _analytic_gaussian() -> Verdict:
    from .gaussian_calibration import profile_mp
    rows, printed_ok, corrected_ok = [], True, True
    with mpmath.workdps(30):
        for e, s in (("0.5", "2"), ("1", "1"), ("0.1", "5")):
            ee, ss = mpmath.mpf(e), mpmath.mpf(s)
            m = 1 / ss
            printed = mpmath.ncdf(m / 2 - ee / m) - mpmath.exp(-ee) * mpmath.ncdf(-m / 2 - ee / m)
            fixed = mpmath.ncdf(m / 2 - ee / m) - mpmath.exp(ee) * mpmath.ncdf(-m / 2 - ee / m)
            true = profile_mp(ee, ss)
            printed_ok &= abs(printed - true) < mpmath.mpf("1e-20")
            corrected_ok &= abs(fixed - true) < mpmath.mpf("1e-20")
            rows.append(f"eps={e}, sigma={s}: exact {_fmt(true)}, printed {_fmt(printed)}, "
                        f"with e^+eps {_fmt(fixed)}")
    return Verdict(printed_ok, corrected_ok, "; ".join(rows))


def _section6(grid: bool) -> Callable[[], Verdict]:
    def check() -> Verdict:
        from .mechanisms import AnalyticGaussian, TruncatedLaplace
        if grid:
            pts = [(e, d) for e in ("0.0001", "0.1", "10") for d in ("1e-6", "0.1")]
        else:
            pts = [(e, d) for e in ("0.0001", "1", "30") for d in ("0.3", "0.45")]
        rows, worst = [], mpmath.mpf(0)
        for e, d in pts:
            for cost in ("amplitude", "power"):
                r = (_val(TruncatedLaplace, "cost", cost, 15, eps=e, delta=d)
                     / _val(AnalyticGaussian, "cost", cost, 15, eps=e, delta=d))
                worst = max(worst, r)
                if r >= 1 or len(rows) < 4:
                    rows.append(f"({e}, {d}) {cost}: {_fmt(r)}")
        return Verdict(worst < 1, detail=f"max ratio TLap/AGauss {_fmt(worst)}; "
                       + "; ".join(rows))
    return check


# ----------------------------------------------------------------------------- 002 poster

def _poster_thm3() -> Verdict:
    from .mechanisms import UniformMass
    rows, ok = [], True
    for p in ("0.5", "1", "2", "3"):
        pp = _q(p)
        for d in (sp.Rational(1, 10), pp / (pp + 1), (pp / (pp + 1) + 1) / 2):
            dstr = str(sp.N(d, 30))
            cost = f"moment:{p}"
            alpha = _val(UniformMass, "alpha", cost, delta=dstr, Delta=1)
            v = _val(UniformMass, "cost", cost, delta=dstr, Delta=1)
            if d <= pp / (pp + 1):
                pa, pv = 0, 1 / (2**pp * (pp + 1) * d**pp)
            else:
                pa, pv = (pp + 1) * d - pp, (pp + 1) ** pp / (2**pp * pp**pp) * (1 - d)
            ok &= abs(alpha - _mp(pa)) < mpmath.mpf("1e-15")
            ok &= abs(v - _mp(pv)) < mpmath.mpf("1e-15") * _mp(pv)
            rows.append(f"p={p}, delta={sp.N(d, 4)}: alpha*={_fmt(alpha)}, V={_fmt(v)}")
    return Verdict(ok, detail="; ".join(rows))


def _poster_corollary(cost: str) -> Callable[[], Verdict]:
    def check() -> Verdict:
        from .mechanisms import UniformMass
        from .symbols import Delta, delta
        f = UniformMass.formula("cost", cost)
        if cost == "amplitude":
            printed = sp.Piecewise((Delta / (4 * delta), delta <= sp.Rational(1, 2)),
                                   ((1 - delta) * Delta, True))
        else:
            printed = sp.Piecewise((Delta**2 / (12 * delta**2), delta <= sp.Rational(2, 3)),
                                   (sp.Rational(9, 16) * (1 - delta) * Delta**2, True))
        pts = [sp.Rational(k, 20) for k in range(1, 20)]
        ok = all(sp.simplify((f - printed).subs({delta: d, Delta: 3})) == 0 for d in pts)
        return Verdict(ok, detail=f"engine optimal cost {f}")
    return check


def _poster_condition() -> Verdict:
    from .mechanisms import UniformMass
    from .privacy import privacy_profile
    rows, ok = [], True
    for d, frac in (("0.2", 0), ("0.2", "0.5"), ("0.8", "0.9")):
        alpha = _q(d) * _q(frac)
        prof = privacy_profile(UniformMass(delta=d, Delta=1), "0", free_value=alpha).number
        ok &= abs(prof - _mp(_q(d))) < mpmath.mpf("1e-12")
        rows.append(f"delta={d}, alpha={alpha}: delta(0) = {_fmt(prof)}")
    return Verdict(ok, detail="P_alpha([-Delta/2, Delta/2]) = delta and the (0, delta) profile "
                   "is exactly delta: " + "; ".join(rows))


def _poster_main() -> Verdict:
    from .mechanisms import TruncatedLaplace, UniformMass
    rows, ok = [], True
    for d in ("0.05", "0.2", "0.45"):
        for cost in ("amplitude", "power"):
            v = _val(UniformMass, "cost", cost, delta=d, Delta=1)
            tl = _val(TruncatedLaplace, "cost", cost, eps="1e-12", delta=d)
            ok &= v <= tl * (1 + mpmath.mpf("1e-9"))
            rows.append(f"delta={d} {cost}: P_alpha* {_fmt(v)} <= TLap(eps->0) {_fmt(tl)}")
    return Verdict(ok, detail="evidence, not a proof: " + "; ".join(rows))


# ----------------------------------------------------------------------------- 001 notes

def _pure_recovered() -> Verdict:
    from .textbook import hockey_stick, randomized_response
    p, q = randomized_response("1")
    h_eps, h_less = hockey_stick(p, q, 1), hockey_stick(p, q, sp.Rational(9, 10))
    return Verdict(h_eps == 0 and h_less > 0,
                   detail=f"RR(1): H_1 = {h_eps} (1-DP = (1, 0)-DP), H_0.9 = {sp.N(h_less, 6)}")


def _loss_sufficient() -> Verdict:
    from .gaussian_calibration import profile_mp
    rows, ok = [], True
    with mpmath.workdps(30):
        for e, s in (("0.5", "2"), ("1", "1"), ("0.2", "4")):
            ee, mu = mpmath.mpf(e), 1 / mpmath.mpf(s)
            # Z = log p(x)/p'(x) ~ N(mu^2/2, mu^2) under x ~ N(0, sigma^2), shift Delta = 1
            tail = (1 - mpmath.ncdf((ee - mu**2 / 2) / mu)) + mpmath.ncdf((-ee - mu**2 / 2) / mu)
            prof = profile_mp(ee, mpmath.mpf(s))
            ok &= prof <= tail
            rows.append(f"eps={e}, sigma={s}: delta(eps) {_fmt(prof)} <= Pr(|Z| > eps) "
                        f"{_fmt(tail)}")
    return Verdict(ok, detail="Gaussian: " + "; ".join(rows))


def _loss_pure_iff() -> Verdict:
    from .mechanisms import Laplace
    from .privacy import numeric_noise, privacy_loss_bound
    noise, _ = numeric_noise(Laplace(eps="0.8"))
    loss = privacy_loss_bound(noise, 1)
    prof = Laplace(eps="0.8").privacy_profile("0.8").number
    ok = abs(loss - mpmath.mpf("0.8")) < mpmath.mpf("1e-12") and prof == 0
    return Verdict(ok, detail=f"Laplace: sup |Z| = {_fmt(loss)} = eps and delta(eps) = {prof}")


def _catastrophic() -> Verdict:
    from .mechanisms import TruncatedLaplace
    from .symbols import Delta, delta, eps, x
    A, B = _tl_paper_AB()
    lam = Delta / eps
    # E = (A, A + Delta]: M_D(E) = 0, M_D'(E) = P(X in (A - Delta, A]) (D' shifted by Delta)
    mass = sp.simplify(sp.integrate(B * sp.exp(-x / lam), (x, A - Delta, A)))
    prof = TruncatedLaplace(eps="1", delta="0.1").privacy_profile("1").number
    ok = sp.simplify(mass - delta) == 0 and abs(prof - mpmath.mpf("0.1")) < mpmath.mpf("1e-12")
    return Verdict(ok, detail=f"truncated Laplacian: the event with M_D(E) = 0 has M_D'(E) = "
                   f"{mass}; delta(eps) = {_fmt(prof)}")


def _name_and_shame() -> Verdict:
    from .textbook import exposure_probability, hockey_stick, name_and_shame
    d = sp.Rational(1, 1000)
    hs = [hockey_stick(name_and_shame(d, "x"), name_and_shame(d, "y"), e) for e in (0, 1, 5)]
    expo = exposure_probability(50, d)
    ok = all(h == d for h in hs) and expo == 1 - (1 - d) ** 50 and expo <= 50 * d
    return Verdict(ok, detail=f"H_eps for eps = 0, 1, 5: {hs} (= delta: (0, delta)-DP and no "
                   f"better); exposure n = 50: {sp.N(expo, 8)} <= n delta = {50 * d}")


def _gaussian_accuracy() -> Verdict:
    k, n, e, dl = sp.symbols("k n epsilon delta", positive=True)
    d2 = sp.sqrt(k) / n
    d1 = k / n
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


def _post_processing() -> Verdict:
    from .textbook import hockey_stick, post_process
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


def _group_privacy() -> Verdict:
    from .mechanisms import TruncatedLaplace
    from .privacy import hockey_stick, numeric_noise
    rows, ok = [], True
    for e, d in (("0.5", "0.05"), ("1", "0.01")):
        noise, _ = numeric_noise(TruncatedLaplace(eps=e, delta=d))
        for K in (2, 3):
            h = hockey_stick(noise, K, str(sp.N(K * _q(e), 20)))
            bound = K * mpmath.exp((K - 1) * _mp(_q(e))) * _mp(_q(d))
            ok &= h <= bound
            rows.append(f"eps={e}, delta={d}, K={K}: H_(K eps) = {_fmt(h)} <= {_fmt(bound)}")
    return Verdict(ok, detail="truncated Laplacian, shift K Delta: " + "; ".join(rows))


def _basic_composition() -> Verdict:
    from .textbook import compose, hockey_stick

    def canonical(e, d):
        e, d = _q(e), _q(d)
        w = sp.exp(e) / (1 + sp.exp(e))
        return ({"a": d, "b": (1 - d) * w, "c": (1 - d) * (1 - w)},
                {"a": 0, "b": (1 - d) * (1 - w), "c": (1 - d) * w})

    rows, ok = [], True
    for (e1, d1), (e2, d2) in ((("0.5", "0.1"), ("1", "0.05")), (("0", "0.25"), ("0.3", "0"))):
        p1, q1 = canonical(e1, d1)
        p2, q2 = canonical(e2, d2)
        single = (hockey_stick(p1, q1, _q(e1)), hockey_stick(p2, q2, _q(e2)))
        h = hockey_stick(compose(p1, p2), compose(q1, q2), _q(e1) + _q(e2))
        ok &= single == (_q(d1), _q(d2)) and h <= _q(d1) + _q(d2)
        rows.append(f"({e1},{d1}) o ({e2},{d2}): H = {sp.nsimplify(h)} <= {_q(d1) + _q(d2)}")
    return Verdict(ok, detail="exact product laws of tight (eps_i, delta_i) pairs: "
                   + "; ".join(rows))


# ----------------------------------------------------------------------------- 004 notes

def _k_counting() -> Verdict:
    import itertools
    k, worst = 3, 0
    for data in itertools.product(range(2 ** k), repeat=3):
        full = [sum((v >> j) & 1 for v in data) for j in range(k)]
        for i in range(3):
            rest = data[:i] + data[i + 1:]
            part = [sum((v >> j) & 1 for v in rest) for j in range(k)]
            worst = max(worst, sum(abs(a - c) for a, c in zip(full, part, strict=False)))
    from .mechanisms import Laplace
    prof = Laplace(eps="0.5", Delta=k).privacy_profile("0.5").number
    return Verdict(worst <= k and prof == 0, detail=f"l1 sensitivity of {k} counting queries = "
                   f"{worst}; Lap(k/eps) at Delta = k: delta(eps) = {prof}")


def _counting() -> Verdict:
    from .mechanisms import Laplace
    v = _count_sensitivity()
    prof = Laplace(eps="0.3", Delta=1).privacy_profile("0.3").number
    return Verdict(v.printed and prof == 0, detail=v.detail + f"; Lap(1/eps): delta(eps) = {prof}")


def _histogram_sens() -> Verdict:
    v = _histogram_l1()
    return Verdict("replace 2" in v.detail and "add/remove 1" in v.detail,
                   detail=v.detail + " (both <= 2)")


def _tail_bound() -> Verdict:
    bs, t, xx = sp.symbols("b t x", positive=True)
    tail = sp.simplify(2 * sp.integrate(sp.exp(-xx / bs) / (2 * bs), (xx, bs * t, sp.oo)))
    return Verdict(sp.simplify(tail - sp.exp(-t)) == 0,
                   detail=f"Pr[|Y| > b t] = {tail} (an equality)")


def _bucket_error() -> Verdict:
    t, eps_ = sp.symbols("t epsilon", positive=True)
    xx = sp.Symbol("x", positive=True)

    def tail(scale):
        return sp.simplify(2 * sp.integrate(sp.exp(-xx / scale) / (2 * scale),
                                            (xx, t / eps_, sp.oo)))
    with_2, with_1 = tail(2 / eps_), tail(1 / eps_)
    printed = bool(sp.simplify(with_2 - sp.exp(-t)) == 0 or
                   all(_mp(with_2.subs(t, v)) <= _mp(sp.exp(-v)) for v in (1, 5)))
    corrected = sp.simplify(with_1 - sp.exp(-t)) == 0
    return Verdict(printed, corrected, f"with Lap(2/eps): {with_2}; with Lap(1/eps) "
                   f"(add/remove histogram): {with_1}")


def _union_bound() -> Verdict:
    t, kk = sp.Rational(3), 10
    p = sp.exp(-t)
    exact = 1 - (1 - p) ** kk
    return Verdict(bool(exact <= kk * p), detail=f"k = 10 independent buckets, p = e^-3: "
                   f"Pr[some] = {sp.N(exact, 8)} <= k p = {sp.N(kk * p, 8)}")


def _union_t() -> Verdict:
    kk = sp.Symbol("k", positive=True)
    bound = sp.simplify(kk * sp.exp(-(10 + sp.log(kk))))
    exact = [sp.N(1 - (1 - sp.exp(-(10 + sp.log(k)))) ** k, 10) for k in (10, 10**4)]
    ok = sp.simplify(bound - sp.exp(-10)) == 0 and all(v <= sp.N(sp.exp(-10), 12) for v in exact)
    return Verdict(ok, detail=f"k e^-(10 + log k) = {bound}; exact (Lap(1/eps)) {exact}")


def _first_names() -> Verdict:
    eps_, k = sp.Rational(1, 10), 10**4
    value = (10 + sp.log(k)) / eps_
    printed = sp.Abs(value - 200) < sp.Rational(1, 100)
    threshold = sp.N(value, 8)
    prob = sp.N(1 - (1 - sp.exp(-(10 + sp.log(k)))) ** k, 8)
    corrected = bool(prob <= sp.N(sp.exp(-10), 8) and value < 200)
    return Verdict(bool(printed), corrected, f"(10 + ln 10000)/0.1 = {threshold} (printed 200); "
                   f"Pr[some bucket off by more] = {prob} <= e^-10")


def _noisy_max() -> Verdict:
    from .textbook import noisy_max_privacy_loss
    e = "1"
    ar2 = noisy_max_privacy_loss(2, e, [[0, 0], [0, 1], [3, 0]])
    ar3 = noisy_max_privacy_loss(3, e, [[0, 0, 0], [0, 1, 2]])
    rep = noisy_max_privacy_loss(2, e, [[0, 0], [0, 1]], "replace")
    printed = rep <= 1 + mpmath.mpf("1e-12") and ar2 <= 1 and ar3 <= 1
    corrected = ar2 <= 1 + mpmath.mpf("1e-12") and ar3 <= 1 + mpmath.mpf("1e-12")
    return Verdict(bool(printed), bool(corrected),
                   f"eps = 1: max log-ratio add/remove k=2 {_fmt(ar2)}, k=3 {_fmt(ar3)}; "
                   f"replace (counts may move in opposite directions) k=2 {_fmt(rep)}")


def _exp_privacy() -> Verdict:
    from .textbook import exponential_privacy_loss
    rows, ok = [], True
    for u, v in (([0, 1, 2], [1, 0, 1]), ([0, 0, 5, 5], [1, 1, 4, 4]), ([3, 0], [2, 1])):
        loss = exponential_privacy_loss(u, v, 1)
        ok &= _mp(loss) <= 2
        rows.append(f"u={u}, u'={v}: {sp.N(loss, 8)}")
    return Verdict(ok, detail="eps = 1, Delta u = 1, exact max log-ratio <= 2 eps: "
                   + "; ".join(rows))


def _exp_utility() -> Verdict:
    from .textbook import exponential_mechanism
    rows, ok = [], True
    for u in ([0, 1, 2, 5], [3, 3, 0, 1, 2]):
        probs = exponential_mechanism(u, 1)
        opt, size = max(u), len(u)
        for t in (sp.Rational(1, 2), 1, 2):
            cut = opt - (sp.log(size) + t)
            bad = sp.Add(*[pr for pr, ui in zip(probs, u, strict=False) if ui <= cut])
            ok &= _mp(bad) <= _mp(sp.exp(-t))
            rows.append(f"u={u}, t={t}: {sp.N(bad, 6)} <= {sp.N(sp.exp(-t), 6)}")
    return Verdict(ok, detail="; ".join(rows))


def _pointwise_def() -> Verdict:
    from .textbook import sup_over_sets
    m = 10
    p = {i: Fraction(1, m) for i in range(m)}
    q = {m: Fraction(1)}
    pointwise = max(Fraction(p.get(y, 0)) for y in set(p) | set(q))
    sets = sup_over_sets(p, q, 0)
    return Verdict(pointwise == sets, sets == 1,
                   f"pointwise condition holds with delta = {pointwise}, but the event version "
                   f"needs delta = {sets}")


def _junk_example() -> Verdict:
    from .textbook import hockey_stick
    d = sp.Rational(1, 100)
    p, q = {"D1": d, "junk": 1 - d}, {"D2": d, "junk": 1 - d}
    hs = [hockey_stick(p, q, e) for e in (0, 1, 3)]
    return Verdict(all(h <= d for h in hs), detail=f"H_eps = {hs} <= delta = {d}")


def _per_record() -> Verdict:
    n, d = 20, sp.Rational(1, 50)
    mean = sum(k * sp.binomial(n, k) * d**k * (1 - d) ** (n - k) for k in range(n + 1))
    return Verdict(sp.simplify(mean - n * d) == 0, detail=f"E[#released] = {mean} = n delta")


# ----------------------------------------------------------------------------- registry

_E = "errata.md#"


def _c(cid: str, location: str, statement: str, check: Callable[[], Verdict], **kw) -> Claim:
    if kw.get("notebook") is None:
        kw["notebook"] = next((nb for prefix, nb in _NB_BY_PREFIX if cid.startswith(prefix)),
                              None)
    return Claim(cid, SOURCES[cid.split(".")[0]], location, statement, check, **kw)


#: The notebook deriving the claims of a source section, by claim-id prefix.
_NB_BY_PREFIX = (
    ("002.", "notebooks/optimal_zero_delta.py"),
    ("001.", "notebooks/gaussian_and_approximate_dp.py"),
    ("003.def3", "notebooks/truncated_laplace.py"),
    ("003.def4", "notebooks/truncated_laplace.py"),
    ("003.thm1", "notebooks/truncated_laplace.py"),
    ("003.thm2", "notebooks/truncated_laplace.py"),
    ("003.thm3", "notebooks/truncated_laplace.py"),
    ("003.sec6", "notebooks/truncated_laplace.py"),
    ("003.lemma2", "notebooks/lower_bounds.py"),
    ("003.thm4", "notebooks/lower_bounds.py"),
    ("003.thm5", "notebooks/lower_bounds.py"),
    ("003.thm6", "notebooks/lower_bounds.py"),
    ("003.thm7", "notebooks/lower_bounds.py"),
)


_NB_STAIR, _NB_LAP = "notebooks/staircase_1d.py", "notebooks/laplace.py"
_NB_MD, _NB_LB = "notebooks/staircase_md.py", "notebooks/lower_bounds.py"
_NB_SEL = "notebooks/selection_and_approximate_dp.py"

CLAIMS: tuple[Claim, ...] = (
    # ---- 000: thesis slides
    _c("000.dp.testing", "Background: differential privacy", "eps-DP makes hypothesis "
       "testing hard: e^eps P_FA + P_MD >= 1 and P_FA + e^eps P_MD >= 1",
       _hypothesis_testing(0), budget=5),
    _c("000.sensitivity.count", "Global sensitivity", "For a count query, Delta = 1",
       _count_sensitivity, notebook=_NB_LAP, budget=2),
    _c("000.laplace", "Laplace Mechanism", "K(D) = q(D) + Lap(Delta/eps) with density "
       "e^{-|x|/lambda}/(2 lambda), lambda = Delta/eps, gives eps-DP", _laplace_def,
       notebook=_NB_LAP),
    _c("000.p1.optimality", "Optimality of Existing work? / Our results", "The Laplacian "
       "distribution is not optimal: the staircase distribution is", _staircase_beats_laplace,
       notebook=_NB_STAIR),
    _c("000.p1.l1", "Recap of Part One: Applications", "l1: V(P_gamma*) = Delta e^{eps/2}/"
       "(e^eps - 1)", _stair_l1_cost, notebook=_NB_STAIR),
    _c("000.p1.l1.eps0", "Recap of Part One: Applications", "l1: eps -> 0, the additive gap "
       "(to V_Lap = Delta/eps) -> 0", _stair_l1_gap, errata=_E + "s1", notebook=_NB_STAIR),
    _c("000.p1.l1.epsoo", "Recap of Part One: Applications", "l1: eps -> oo, V(P_gamma*) = "
       "Theta(Delta e^{-eps/2})", _stair_theta("amplitude", sp.Symbol("b", positive=True)
                                                ** sp.Rational(1, 2)),
       errata=_E + "s3", notebook=_NB_STAIR),
    _c("000.p1.l2", "Recap of Part One: Applications", "l2: V(P_gamma*) = Delta^2 (2^{-2/3} "
       "b^{2/3} (1+b)^{2/3} + b)/(1-b)^2", _stair_l2_cost, notebook=_NB_STAIR),
    _c("000.p1.l2.eps0", "Recap of Part One: Applications", "l2: eps -> 0, the additive gap "
       "(to V_Lap = 2 Delta^2/eps^2) <= c Delta^2", _stair_l2_gap, errata=_E + "s2",
       notebook=_NB_STAIR),
    _c("000.p1.l2.epsoo", "Recap of Part One: Applications", "l2: eps -> oo, V(P_gamma*) = "
       "Theta(Delta^2 e^{-2 eps/3})", _stair_theta("power", sp.Symbol("b", positive=True)
                                                    ** sp.Rational(2, 3)),
       errata=_E + "s4", notebook=_NB_STAIR),
    _c("000.p1.laplace_costs", "Recap of Part One: Applications", "V_Lap = Delta/eps (l1), "
       "V_Lap = 2 Delta^2/eps^2 (l2)", _laplace_costs, notebook=_NB_LAP),
    _c("000.p1.gamma", "Recap of Part One: Applications", "Properties of gamma* (L = |x|^m): "
       "gamma* -> 1/2 as eps -> 0, gamma* -> 0 as eps -> oo", _stair_gamma_limits,
       errata=_E + "s5", notebook=_NB_STAIR),
    _c("000.p1.discrete", "Extension to Discrete Setting", "The staircase extends to "
       "integer-valued queries (discrete staircase, eps-DP, no worse than discrete Laplace)",
       _discrete_staircase, notebook=_NB_STAIR, budget=10),
    _c("000.p2.composition", "Composition Theorem", "For each component q_i(D) preserving "
       "eps-DP, end-to-end achieves d eps-DP", _composition_pure),
    _c("000.p2.histogram", "Multiple dimensional setting: global sensitivity", "Histogram "
       "query: Delta = 1 (l1 sensitivity)", _histogram_l1),
    _c("000.p2.theorem", "Our Result: Optimality of Staircase Mechanism", "If L = |x_1| + "
       "|x_2| (d = 2), the optimal noise has the multidimensional staircase-shaped pdf",
       _md_optimality, errata=_E + "m6", notebook=_NB_MD, budget=20),
    _c("000.p2.gamma", "Optimal gamma* for l1 cost function (d=2)", "gamma* = argmin of the "
       "printed ratio of a cubic and a quadratic in gamma", _md_objective, errata=_E + "m1",
       notebook=_NB_MD, budget=10),
    _c("000.p2.eps0", "Asymptotic analysis", "eps -> 0: V* = 2 Delta/eps - Delta eps^2/"
       "(36 sqrt 3) + O(eps^3)", _md_series("eps->0"), errata=_E + "m2", notebook=_NB_MD),
    _c("000.p2.epsoo", "Asymptotic analysis", "eps -> oo: V* = 2^{1/3} Delta e^{-eps/3} + "
       "Delta e^{-2 eps/3}/2^{1/3} + o(e^{-2 eps/3})", _md_series("eps->oo"),
       errata=_E + "m3", notebook=_NB_MD),
    _c("000.p2.laplace", "Asymptotic analysis", "Laplacian mechanism: V = 2 Delta/eps",
       _md_laplace, errata=_E + "m4", notebook=_NB_MD),
    _c("000.p2.independent", "Asymptotic analysis", "Independent staircase mechanism: "
       "V = Theta(2 Delta e^{-eps/4})", _md_independent, errata=_E + "m5", notebook=_NB_MD),
    _c("000.p3.testing", "(eps, delta)-Differential Privacy", "(eps, delta)-DP: e^eps P_FA + "
       "P_MD >= 1 - delta", _hypothesis_testing("0.05"), budget=5),
    _c("000.p3.tv", "Part Three: (eps, delta)-differential privacy", "(0, delta)-DP is "
       "||P_K(D1) - P_K(D2)||_TV <= delta", _tv_equivalence),
    _c("000.p3.0d.optimal", "(0,delta)-Differential Privacy: Theorem", "If Delta = 1 and "
       "1/(2 delta) is an integer, the optimal noise is uniform", _zero_delta_optimal,
       notebook=_NB_LB, budget=10),
    _c("000.p3.0d.ub", "(0,delta)-DP: General Delta, Upper Bound", "V* <= V_UB = 2 sum_{i=1}"
       "^{delta/(2 Delta) - 1} (delta/Delta) L(i) + (delta/Delta) L(Delta/(2 delta))",
       _zero_delta_ub, status=CORRECTED, corrected="the sum runs to Delta/(2 delta) - 1: "
       "V_UB = 2 sum_{i=1}^{Delta/(2 delta)-1} (delta/Delta) L(i) + (delta/Delta) "
       "L(Delta/(2 delta)), the uniform mechanism's cost", errata=_E + "b12", notebook=_NB_LB),
    _c("000.p3.0d.lb", "(0,delta)-DP: General Delta, Lower Bound", "V_LB = 2 delta sum_{i=0}"
       "^{1/(2 delta) - 1} L(1 + i Delta) is a lower bound (L = |i|)", _zero_delta_lb(1),
       status=CORRECTED, corrected="V_LB = 2 delta sum_{k=1}^{1/(2 delta)-1} L(k Delta) (the "
       "tail-recursion chain bound) is a lower bound", errata=_E + "b9", notebook=_NB_LB,
       budget=15),
    _c("000.p3.0d.l1", "(0,delta)-DP: Comparison of V_LB, V_UB", "L = |i|: V_LB = Delta/(4 "
       "delta) + 1 - Delta/2, V_UB = Delta/(4 delta), constant additive gap",
       _zero_delta_formulas(1), status=CORRECTED, corrected="V_UB = Delta/(4 delta) holds; "
       "the printed V_LB exceeds the optimum at Delta = 1 (use the chain bound)",
       errata=_E + "b9", notebook=_NB_LB),
    _c("000.p3.0d.l2", "(0,delta)-DP: Comparison of V_LB, V_UB", "L = |i|^2: V_LB = Delta^2/"
       "(12 delta^2) - Delta^2/(4 delta) + Delta(1/(2 delta) - 1) + Delta^2/6 + 1, V_UB = "
       "Delta^2/(12 delta^2) + 1/6", _zero_delta_formulas(2), status=CORRECTED,
       corrected="V_UB holds; the printed V_LB exceeds the optimum at Delta = 1",
       errata=_E + "b10", notebook=_NB_LB),
    _c("000.p3.0d.lm", "(0,delta)-DP: Comparison of V_LB, V_UB", "L = |i|^m: lim_{delta->0} "
       "V_UB/V_LB = 1", _zero_delta_limit, errata=_E + "b11", notebook=_NB_LB),
    _c("000.p3.ub", "(eps, delta)-DP: Upper Bound", "Both (eps,0)-DP and (0,delta)-DP imply "
       "(eps,delta)-DP: V* <= min(V_Lap, V_Uniform)", _approx_upper_min),
    _c("000.p3.dlap", "(eps, delta)-DP: Upper Bound", "discrete Laplacian P(k) = (1 - "
       "e^{-eps/Delta})/(1 + e^{-eps/Delta}) e^{-|k| eps/Delta}", _discrete_laplace_pmf,
       notebook=_NB_LAP),
    _c("000.p3.ratio.l1", "(eps, delta)-DP: Comparison of V_LB, V_UB", "L = |i|, (eps,delta)"
       " -> (0,0): min(V_Lap, V_Uniform)/5.29 <= V_LB", _ratio_constants("amplitude", "5.29"),
       errata=_E + "b13", notebook=_NB_LB, budget=20),
    _c("000.p3.ratio.l2", "(eps, delta)-DP: Comparison of V_LB, V_UB", "L = |i|^2, (eps,delta)"
       " -> (0,0): min(V_Lap, V_Uniform)/40 <= V_LB", _ratio_constants("power", "40"),
       errata=_E + "b13", notebook=_NB_LB, budget=20),
    _c("000.p3.md.upper", "Multi-dimensional (0,delta): Upper Bound", "Uniform noise on the "
       "cube (mass (delta/Delta)^d) and the discrete Laplacian ((1-lambda)/(1+lambda))^d "
       "lambda^{|i|_1} are private on Z^d", _md_upper_mechanisms),
    _c("000.p3.md.l1", "Multi-dimensional (0,delta)-DP: l1", "V_LB >= d Delta/(4 delta) - "
       "(Delta - 1) d/2, V_UB = d Delta/(4 delta)", _md_zero_delta(1), errata=_E + "b14"),
    _c("000.p3.md.l2", "Multi-dimensional (0,delta)-DP: l2", "V_LB >= d Delta^2/(12 delta^2)"
       " + (1/Delta - 1) d Delta^2/(4 delta) + (1 - Delta) d/2 + d Delta^2/6, V_UB = d "
       "Delta^2/(12 delta^2) + d/6", _md_zero_delta(2), errata=_E + "b14"),
    # ---- 001: notes, approximate DP
    _c("001.def", "Approximate DP, Def.", "M is (eps,delta)-DP iff E_eps(M_D || M_D') <= "
       "delta, equivalently M_D(A) <= e^eps M_D'(A) + delta for every event A",
       _definition_sets),
    _c("001.pure", "Remark 1", "Setting delta = 0 recovers pure eps-DP", _pure_recovered),
    _c("001.sufficient", "Remark 3", "Pr(|Z_{D,D'}| <= eps) >= 1 - delta for all D ~ D' "
       "implies (eps, delta)-DP", _loss_sufficient),
    _c("001.pure_iff", "Remark 3", "Pr(|Z_{D,D'}| <= eps) = 1 for all D ~ D' iff eps-DP",
       _loss_pure_iff),
    _c("001.catastrophic", "Remark 4", "There may be an event E with M_D(E) = 0 < M_D'(E); "
       "such events have probability <= delta", _catastrophic),
    _c("001.name_and_shame", "Example (Name-and-Shame), Claim", "The name-and-shame "
       "mechanism is (0, delta)-DP; someone is exposed w.p. 1 - (1-delta)^n ~ n delta",
       _name_and_shame),
    _c("001.gaussian.classic", "Gaussian Mechanism, Theorem", "The Gaussian mechanism is "
       "(eps, delta)-DP if sigma^2 >= 2 Delta^2 log(1/delta)/eps^2, eps <= 1, delta in (0,1)",
       _classic_gaussian(True), status=CORRECTED, corrected="holds for delta <= 1/2 (and "
       "eps <= 1) at every point checked; fails near delta = 1", errata=_E + "g2"),
    _c("001.gaussian.analytic", "Optimal Gaussian Mechanism, Theorem [Balle-Wang]", "delta = "
       "Phi(Delta/(2 sigma) - eps sigma/Delta) - e^{-eps} Phi(-Delta/(2 sigma) - eps sigma/"
       "Delta)", _analytic_gaussian, status=CORRECTED, corrected="delta = Phi(Delta/(2 sigma)"
       " - eps sigma/Delta) - e^{+eps} Phi(-Delta/(2 sigma) - eps sigma/Delta)",
       errata=_E + "g1"),
    _c("001.gaussian.accuracy", "Accuracy of Gaussian mechanism", "Delta_1 = k/n, Delta_2 = "
       "sqrt(k)/n; Gaussian noise N(0, 2k log(1/delta)/(n eps^2)); E||z - q||_2 = O(k^{3/2}/"
       "(n eps)) (Laplace), O(k/(n eps)) (Gaussian, up to log factors)", _gaussian_accuracy,
       status=CORRECTED, corrected="the variance is 2k log(1/delta)/(n^2 eps^2); the rates "
       "hold", errata=_E + "g4"),
    _c("001.postprocessing", "Properties of Approximate DP: 1- Post-processing", "If M is "
       "(eps, delta)-DP, so is any post-processing of M", _post_processing),
    _c("001.group", "Properties: 2- Group privacy, Theorem", "M_D(A) <= e^{K eps} M_D'(A) + "
       "K e^{(K-1) eps} delta for D, D' differing in K entries", _group_privacy, budget=10),
    _c("001.composition", "Properties: 3- Basic composition", "Composition of k mechanisms "
       "each (eps_i, delta_i)-DP is (sum eps_i, sum delta_i)-DP", _basic_composition),
    # ---- 002: poster
    _c("002.condition", "Proof Ideas", "For symmetric monotone P: (0, delta)-DP iff "
       "P([-Delta/2, Delta/2]) <= delta", _poster_condition),
    _c("002.main", "Main Result", "inf over symmetric monotone P of the cost = inf over "
       "alpha in [0, delta) of the cost of P_alpha", _poster_main, budget=10),
    _c("002.thm3", "Applications, Theorem 3", "For l^p (p > 0): alpha* = 0 for delta <= "
       "p/(p+1), (p+1) delta - p otherwise; V = Delta^p/(2^p (p+1) delta^p), resp. "
       "(p+1)^p/(2^p p^p) (1 - delta) Delta^p", _poster_thm3, budget=15),
    _c("002.cor.magnitude", "Corollary: Optimal Noise Magnitude", "Delta/(4 delta) for "
       "delta <= 1/2, (1 - delta) Delta for delta in (1/2, 1)", _poster_corollary("amplitude")),
    _c("002.cor.power", "Corollary: Optimal Noise Power", "Delta^2/(12 delta^2) for delta <= "
       "2/3, (9/16)(1 - delta) Delta^2 for delta in (2/3, 1)", _poster_corollary("power")),
    # ---- 003: paper
    _c("003.def1", "Section 2, Definition 1", "(eps, delta)-DP: Pr[K(D1) in S] <= e^eps "
       "Pr[K(D2) in S] + delta for all measurable S", _definition_sets),
    _c("003.def2", "Section 2, Definition 2", "Query sensitivity Delta = max |q(D1) - q(D2)|"
       " (the noise constraint is tightest at |d| = Delta)", _sensitivity_monotone),
    _c("003.lemma1", "Section 2, Lemma 1", "P preserves (eps, delta)-DP iff P(S) - e^eps "
       "P(S + d) <= delta for all |d| <= Delta and measurable S", _tl_lemma1, budget=10),
    _c("003.def3", "Section 3, Definition 3", "Truncated Laplacian density B e^{-|x|/lambda}"
       " on [-A, A], lambda = Delta/eps, A = (Delta/eps) log(1 + (e^eps - 1)/(2 delta)), "
       "B = 1/(2 lambda (1 - e^{-A/lambda}))", _tl_definition, budget=10),
    _c("003.def4", "Section 3, Definition 4", "The truncated Laplacian mechanism adds "
       "P_TLap noise (decay rate e^eps, then infinite on the last Delta)", _tl_mechanism),
    _c("003.thm1", "Section 3, Theorem 1", "The truncated Laplacian mechanism preserves "
       "(eps, delta)-DP", _tl_private),
    _c("003.thm2", "Section 3, Theorem 2", "V1* <= V1upp = (Delta/eps)(1 - log(1 + (e^eps"
       " - 1)/(2 delta))/((e^eps - 1)/(2 delta)))", _tl_cost("amplitude")),
    _c("003.thm2.limits", "Section 3, after Theorem 2", "V1upp -> Delta/eps (delta -> 0),"
       " -> Delta/(4 delta) (eps -> 0), ~ (Delta/eps)(1 - 2 log(3/2)) (eps = delta -> 0)",
       _tl_limits),
    _c("003.thm3", "Section 3, Theorem 3", "V2* <= V2upp = (2 Delta^2/eps^2)(1 - (log^2(1 + "
       "W)/2 + log(1 + W))/W), W = (e^eps - 1)/(2 delta)", _tl_cost("power")),
    _c("003.lemma2", "Section 4, Lemma 2", "Under (8) and (9): sum L(i) P(i) >= 2 sum_{k<n}"
       " a b^k L(1 + k Delta~)", _lemma2, errata=_E + "b1", notebook=_NB_LB, budget=10),
    _c("003.thm4", "Section 4, Theorem 4", "V1* >= V1low = 2a sum_{k<n} b^k k Delta = 2a((b"
       " - b^n)/(1-b)^2 - (n-1) b^n/(1-b)) Delta", _lower_identity(1), errata=_E + "b3",
       notebook=_NB_LB, budget=10),
    _c("003.thm5", "Section 4, Theorem 5", "V2* >= V2low = 2 sum_{k<n} a b^k k^2 Delta^2 "
       "(closed form (12))", _lower_identity(2), errata=_E + "b3", notebook=_NB_LB,
       budget=10),
    _c("003.thm6.eps0", "Section 5, Theorem 6", "lim_{eps->0} V1low/V1upp >= 1 - 2 delta",
       _tightness(1, "eps->0"), errata=_E + "b5", notebook=_NB_LB, budget=10),
    _c("003.thm6.delta0", "Section 5, Theorem 6", "lim_{delta->0} V1low/V1upp >= eps/(e^eps"
       " - 1)", _tightness(1, "delta->0"), errata=_E + "b7", notebook=_NB_LB, budget=10),
    _c("003.thm6.joint", "Section 5, Theorem 6", "lim_{eps=delta->0} V1low/V1upp = 1",
       _tightness(1, "eps=delta->0"), errata=_E + "b8", notebook=_NB_LB, budget=15),
    _c("003.thm7.eps0", "Section 5, Theorem 7", "lim_{eps->0} V2low/V2upp >= (1 - delta)"
       "(1 - 2 delta)", _tightness(2, "eps->0"), errata=_E + "b6", notebook=_NB_LB, budget=10),
    _c("003.thm7.delta0", "Section 5, Theorem 7", "lim_{delta->0} V2low/V2upp >= eps^2 (1 + "
       "e^eps)/(2 (e^eps - 1)^2)", _tightness(2, "delta->0"), errata=_E + "b7",
       notebook=_NB_LB, budget=10),
    _c("003.thm7.joint", "Section 5, Theorem 7", "lim_{eps=delta->0} V2low/V2upp = 1",
       _joint_numeric("power"), errata=_E + "b8", notebook=_NB_LB, budget=10),
    _c("003.sec6.classic", "Section 6", "sigma = sqrt(2 log(1.25/delta)) Delta/eps "
       "preserves (eps, delta)-DP for eps, delta in (0, 1)", _classic_gaussian(False),
       errata=_E + "g3"),
    _c("003.sec6.figures", "Section 6, Figures 2 and 3", "On eps in [1e-4, 10], delta in "
       "[1e-6, 0.1] the truncated Laplacian has smaller amplitude and power than the optimal"
       " Gaussian", _section6(True), errata=_E + "g5", budget=15),
    _c("003.sec6.all", "Abstract; Section 6", "The truncated Laplacian improves on the "
       "optimal Gaussian mechanism in all privacy regimes", _section6(False),
       status=FAILS, errata=_E + "g5", budget=15),
    # ---- 004: notes, Laplace and exponential mechanisms
    _c("004.counting", "Counting queries", "Sensitivity of a counting query is 1; adding "
       "Lap(1/eps) gives eps-DP", _counting, notebook=_NB_LAP),
    _c("004.k_counting", "Counting queries (k queries)", "k counting queries have "
       "sensitivity <= k; adding Lap(k/eps) gives eps-DP", _k_counting, notebook=_NB_LAP),
    _c("004.histogram", "Histogram queries", "S_1(histogram) <= 2; adding Lap(2/eps) gives "
       "eps-DP", _histogram_sens, errata=_E + "n1", notebook=_NB_LAP),
    _c("004.tail", "Remark (Laplace tail)", "If y ~ Lap(b), Pr[|y| > b t] <= e^{-t}",
       _tail_bound, errata=_E + "n2", notebook=_NB_LAP),
    _c("004.bucket", "Histogram with k buckets", "Pr[count in bucket i is off by more than "
       "t/eps] <= e^{-t} (with the Lap(2/eps) of the histogram remark)", _bucket_error,
       status=CORRECTED, corrected="with Lap(1/eps) (add/remove neighbours, sensitivity 1) "
       "the probability is exactly e^{-t}; with Lap(2/eps) it is e^{-t/2}",
       errata=_E + "n3", notebook=_NB_LAP),
    _c("004.union", "Remark (Union bound)", "Pr[E_1 or ... or E_k] <= Pr[E_1] + ... + "
       "Pr[E_k]; some bucket off by more than t/eps w.p. <= k e^{-t}", _union_bound,
       notebook=_NB_LAP),
    _c("004.union.t", "Histogram with k buckets", "With t = 10 + log k: Pr[some bucket off "
       "by more than (10 + log k)/eps] <= e^{-10}", _union_t, errata=_E + "n4",
       notebook=_NB_LAP),
    _c("004.first_names", "Example (first names)", "t = (10 + ln 10000)/eps = 20/0.1 = 200",
       _first_names, status=CORRECTED, corrected="(10 + ln 10000)/0.1 = 192.10...; an error "
       "threshold of 200 (>= 192.1) is exceeded w.p. <= e^{-10}", errata=_E + "n5",
       notebook=_NB_LAP),
    _c("004.noisy_max", "Report noisy max, Theorem", "Report noisy max with Lap(1/eps) is "
       "eps-DP", _noisy_max, status=CORRECTED, corrected="eps-DP for add/remove neighbours "
       "(all counts move in the same direction); for replace neighbours the loss exceeds eps",
       errata=_E + "n6", notebook=_NB_SEL, budget=15),
    _c("004.exp.privacy", "Exponential mechanism, Claim", "The exponential mechanism "
       "(weights exp(eps u/Delta u)) is 2 eps-DP", _exp_privacy, errata=_E + "n7",
       notebook=_NB_SEL),
    _c("004.exp.utility", "Exponential mechanism, Theorem", "Pr[u(M) <= OPT - (Delta u/eps)"
       "(ln |R| + t)] <= e^{-t}", _exp_utility, errata=_E + "n8", notebook=_NB_SEL),
    _c("004.approx.def", "Approximate differential privacy", "M is (eps, delta)-DP if for "
       "all outputs t: Pr[M(x) = t] <= e^eps Pr[M(x') = t] + delta", _pointwise_def,
       status=CORRECTED, corrected="quantify over events S: Pr[M(x) in S] <= e^eps "
       "Pr[M(x') in S] + delta", errata=_E + "n9", notebook=_NB_SEL),
    _c("004.approx.junk", "Approximate DP, Example", "Output junk w.p. 1 - delta, the entire"
       " database w.p. delta: satisfies (eps, delta)-DP", _junk_example, notebook=_NB_SEL),
    _c("004.approx.records", "Approximate DP, Example", "Keeping each record w.p. delta "
       "releases about n delta records on average", _per_record, notebook=_NB_SEL),
)

#: Claims by id.
REGISTRY: dict[str, Claim] = {cl.id: cl for cl in CLAIMS}


def get_claim(cid: str) -> Claim:
    """The claim called ``cid`` (``KeyError`` lists nothing: use :data:`REGISTRY`)."""
    return REGISTRY[cid]


def run_claim(claim: Claim) -> Result:
    """Run one claim's check, timing it; an exception becomes status ``"error"``."""
    start = time.perf_counter()
    try:
        verdict = claim.check()
        detail = verdict.detail
    except Exception as exc:
        verdict, detail = None, f"{type(exc).__name__}: {exc}"
    return Result(claim, verdict, time.perf_counter() - start, detail)


def run_claims(ids: Iterable[str] | None = None,
               progress: Callable[[Result], None] | None = None) -> list[Result]:
    """Run the checks of the claims ``ids`` (default: all, in registry order).

    Parameters
    ----------
    ids : iterable of str, optional
        Claim ids; an id that ends with ``"."`` or names a source (``"003"``) selects every
        claim with that prefix. An unknown id raises ``KeyError``.
    progress : callable, optional
        Called with each :class:`Result` as soon as it is computed.

    Returns
    -------
    list of Result
        ``(claim, verdict, seconds, detail)`` per claim; ``Result.ok`` compares the
        computed status with the registered one.
    """
    if ids is None:
        selected = list(CLAIMS)
    else:
        selected = []
        for cid in ids:
            if cid in REGISTRY:
                selected.append(REGISTRY[cid])
                continue
            prefix = cid if cid.endswith(".") else cid + "."
            found = [cl for cl in CLAIMS if cl.id.startswith(prefix)]
            if not found:
                raise KeyError(f"unknown claim {cid!r}")
            selected.extend(found)
    results = []
    for claim in selected:
        res = run_claim(claim)
        results.append(res)
        if progress is not None:
            progress(res)
    return results


__all__ = ["CLAIMS", "CORRECTED", "FAILS", "HOLDS", "REGISTRY", "SOURCES", "STATUSES", "Claim",
           "Result", "Verdict", "get_claim", "run_claim", "run_claims"]
