r"""The claims of the poster on optimal :math:`(0, \delta)`-DP noise (source 002): the
sufficient and necessary condition, the reduction to the family :math:`P_\alpha`, and
Theorem 3 with its corollaries.

Each statement is registered where its check is written, in the order of the poster, with
its text as printed. Every check decides its statement for every law of the class and every
parameter: exact reductions (:mod:`~.unimodal`), symbolic identities of the engine's
derivation for a symbolic exponent p, and an exact counterexample for the poster's
sensitivity (defined without the neighbour relation).
"""

from __future__ import annotations

import functools
import itertools
import math
from collections.abc import Callable
from fractions import Fraction

import mpmath
import numpy as np
import sympy as sp

from dpsym.claims.common import cost_value, exact, fmt, sign_of
from dpsym.claims.decide import decide_identity, vanishes
from dpsym.claims.generic import cone_certificate
from dpsym.claims.registry import CORRECTED, Verdict, claim
from dpsym.claims.unimodal import (
    STEP_END,
    UNIFORM_LEVEL,
    condition_reduction,
    duality_certificate,
    rearrangement_reduction,
)
from dpsym.core.costs import Cost
from dpsym.mechanisms import UniformMass
from dpsym.mechanisms.uniform_mass import L as _L
from dpsym.mechanisms.uniform_mass import alpha as _alpha
from dpsym.symbolic.numerics import to_mpf
from dpsym.symbolic.tidy import simplified
from dpsym.symbols import Delta, delta, p

_NB = "notebooks/optimal_zero_delta.py"


@functools.cache
def _p_alpha_profiles() -> tuple[bool, str]:
    """P_alpha's (0, delta) profile at three points (evidence, computed once)."""
    rows, ok = [], True
    for d, frac in (("0.2", 0), ("0.2", "0.5"), ("0.8", "0.9")):
        alpha = exact(d) * exact(frac)
        prof = UniformMass(delta=d, Delta=1).privacy_profile("0", free_value=alpha).number
        ok &= abs(prof - to_mpf(exact(d))) < mpmath.mpf("1e-12")
        rows.append(f"delta={d}, alpha={alpha}: delta(0) = {fmt(prof)}")
    return ok, "; ".join(rows)


_SYM_L = sp.Symbol("x", real=True)
_dd = sp.Symbol("d", real=True)


#: The main result's least costs (the corollaries), for |x| and x^2.
_MAIN_FORMULA = {
    "amplitude": sp.Piecewise((Delta / (4 * delta), delta <= sp.Rational(1, 2)),
                              ((1 - delta) * Delta, True)),
    "power": sp.Piecewise((Delta**2 / (12 * delta**2), delta <= sp.Rational(2, 3)),
                          (sp.Rational(9, 16) * (1 - delta) * Delta**2, True))}


@claim("002.abstract", "Abstract", "The optimal (0, delta)-DP query-output independent "
       "noise-adding mechanism for a single real-valued query adds a uniform distribution "
       "with a probability mass at the origin (P_alpha)", notebook=_NB,
       printed=r"We show that the optimal noise probability distribution is a uniform "
       r"distribution with a probability mass at the origin.",
       undecided="the poster proves optimality within the class SP of symmetric laws with a "
       "density nonincreasing on [0, oo) (002.main, decided there by a dual certificate); "
       "over every (0, delta)-DP law, a non-monotone one included, the engine does not "
       "decide it (the interval bound P([a, a + Delta)) <= delta alone admits cheaper "
       "atomic laws, which the full constraint excludes)",
       no_mutants="an undecided sentence: its evidence is the decided 002.main")
def _poster_abstract() -> Verdict:
    """Evidence: the main result, decided over the class SP (:func:`_poster_main`)."""
    within = _poster_main(_MAIN_FORMULA)
    return Verdict(within.printed, detail="within SP: " + within.detail)


@claim("002.def.sensitivity", "Problem Formulation", "Query sensitivity Delta := max over "
       "D1, D2 in the set of datasets of |q(D1) - q(D2)|", status=CORRECTED,
       corrected="the maximum runs over neighbouring D1, D2 (differing by one element), as "
       "in the privacy definition above it: over all pairs it is the range of q (e.g. n for "
       "a count over n records instead of 1)", errata="errata.md#t8", kind="definition",
       printed=r"Query sensitivity $\Delta := \max_{D_1,D_2 \in \mathcal{D}} |q(D_1) - "
       r"q(D_2)|$",
       formula={"count": sp.Integer(1)})
def _poster_sensitivity(f: dict) -> Verdict:
    """A count query over datasets of at most 5 binary records, exactly: the maximum over
    all pairs (printed) is 5, over neighbouring pairs (one record added or removed) 1; the
    corrected definition must give the neighbours' value (the formula)."""
    data = [tuple(x) for n in range(6) for x in itertools.product((0, 1), repeat=n)]
    every = max(abs(sum(a) - sum(c)) for a in data for c in data)
    neighbours = max(abs(sum(a) - sum(a[:i] + a[i + 1:])) for a in data for i in range(len(a)))
    return Verdict(every == neighbours, bool(sp.sympify(f["count"]) == neighbours),
                   f"count query, <= 5 records: max over all pairs {every}, over neighbours "
                   f"{neighbours}")


@claim("002.def.constraint", "Problem Formulation", "P(S) <= P(S + d) + delta for all |d| <= "
       "Delta and measurable S is the optimisation's constraint |P(S) - P(S + d)| <= delta",
       kind="definition",
       printed=r"Constraint on the noise probability distribution P $$\mathcal{P}(S) \leq "
       r"\mathcal{P}(S+d) + \delta, \forall |d| \leq \Delta, \text{measurable set } S "
       r"\subset \mathbb{R}.$$",
       formula={"shift": -_dd})
def _poster_constraint(f: dict) -> Verdict:
    """The reverse inequality P(S + d) - P(S) <= delta is the printed constraint at the set
    S' = S + d with the shift d' (the formula, -d): S' + d' must be S (translation identity
    in sympy) and |d'| <= Delta for every |d| <= Delta (|d'| = |d|); so the one-sided family
    over |d| <= Delta is the two-sided one."""
    shift = sp.sympify(f["shift"])
    back = vanishes((_SYM_L + _dd) + shift - _SYM_L)
    same_size = vanishes(sp.Abs(shift) - sp.Abs(_dd))
    return Verdict(bool(back and same_size), detail=f"S + d shifted by {shift} is S: {back}; "
                   f"|shift| = |d|: {same_size}")


@claim("002.condition", "Proof Ideas", "For symmetric monotone P: (0, delta)-DP iff "
       "P([-Delta/2, Delta/2]) <= delta", notebook=_NB, budget=10,
       printed=r"Sufficient and necessary condition for preserving $(0, \delta)$ -differential"
       r" privacy (assuming P is symmetric and monotonic) $$\mathcal{P}([-\frac{\Delta}{2}, "
       r"\frac{\Delta}{2}]) \leq \delta.$$",
       formula={"half_width": Delta / 2})
def _poster_condition(f: dict) -> Verdict:
    """Both directions, for every symmetric monotone law: the sup over |d| <= Delta and S of
    P(S) - P(S + d) equals the central mass (the exact reduction of
    :func:`~.unimodal.condition_reduction`: the maximising event is a half-line for every
    law of the class), so the condition is necessary and sufficient; P_alpha's profile at 0
    is delta (evidence)."""
    ok, rows = _p_alpha_profiles()
    ident = _condition_identity(f)  # the exact reduction, with the evidence on instances
    return Verdict(bool(ok and ident.printed), detail=ident.detail + "; P_alpha([-Delta/2, "
                   "Delta/2]) = delta and the (0, delta) profile is exactly delta: " + rows)


@claim("002.main", "Main Result", "inf over symmetric monotone P of the cost = inf over "
       "alpha in [0, delta) of the cost of P_alpha (the corollaries: Delta/(4 delta) for "
       "delta <= 1/2, (1 - delta) Delta above; Delta^2/(12 delta^2) for delta <= 2/3, (9/16)"
       "(1 - delta) Delta^2 above)", notebook=_NB, budget=20,
       printed=r"$$\inf_{\mathcal{P}\in\mathcal{SP}}\int_{x\in\mathbb{R}}\mathcal{L}(x)"
       r"\mathcal{P}(dx) = \inf_{\alpha\in[0,\delta)}\int_{x\in\mathbb{R}}\mathcal{L}(x)"
       r"\mathcal{P}_{\alpha}(dx).$$",
       formula=_MAIN_FORMULA)
def _poster_main(f: dict) -> Verdict:
    """For |x| and x^2, every delta in (0, 1) and every symmetric monotone law: weak LP
    duality over the mixing measure of uniform laws with a closed-form dual certificate
    whose value is the engine's cost of P_alpha* (:func:`~.unimodal.duality_certificate`),
    so no law of the class beats P_alpha*, which belongs to it. Extra evidence: the least
    cost over the step laws of the class (an LP, :func:`step_lp`) agrees with the engine to
    1e-7 relative on both sides of the threshold p/(p + 1)."""
    rows, ok = [], True
    for cost in ("amplitude", "power"):
        printed = sp.sympify(f[cost])
        engine = UniformMass.formula("cost", cost)  # inf over alpha of V(P_alpha)
        same_inf = _same_piecewise(printed, engine)
        good, cert = duality_certificate(cost, printed)
        ok &= good and same_inf
        rows.append(f"{cost}: printed value = inf_alpha V(P_alpha): {same_inf}; {cert}")
    lp_ok, lp_rows = _step_lp_evidence()
    return Verdict(bool(ok and lp_ok), detail="; ".join(rows) + "; " + lp_rows)


def _same_piecewise(printed: sp.Basic, engine: sp.Basic) -> bool:
    """Two Piecewise expressions with the same conditions and identical branches (sympy)."""
    if not (isinstance(printed, sp.Piecewise) and isinstance(engine, sp.Piecewise)
            and len(printed.args) == len(engine.args)):
        return False
    for (pe, pc), (ee, ec) in zip(printed.args, engine.args, strict=True):
        if decide_identity(pe, ee)[0] is not True:
            return False
        if isinstance(pc, sp.core.relational.Relational) and isinstance(
                ec, sp.core.relational.Relational):
            if type(pc) is not type(ec) or simplified(pc.lhs - pc.rhs - (ec.lhs - ec.rhs)):
                return False
        elif pc != ec:
            return False
    return True


@claim("002.def.palpha", "Main Result (Figure 1)", "P_alpha: a mass alpha in [0, delta) at "
       "0 and the density (delta - alpha)/Delta on [-(1 - alpha)/(delta - alpha) Delta/2, "
       "(1 - alpha)/(delta - alpha) Delta/2]", notebook=_NB, kind="definition",
       printed=r"Figure 1: Probability distribution of $\mathcal{P}_{\alpha}$ . "
       r"$\mathcal{P}_{\alpha}$ has a probability mass $\alpha \in [0, \delta)$ at the origin,"
       r" and has a uniform distribution over $\left[-\frac{1-\alpha}{\delta-\alpha}"
       r"\frac{\Delta}{2}, \frac{1-\alpha}{\delta-\alpha}\frac{\Delta}{2}\right] \setminus "
       r"\{0\}$ with probability density $\frac{\delta-\alpha}{\Delta}$ .",
       formula={"half_width": (1 - _alpha) / (delta - _alpha) * Delta / 2,
                "density": (delta - _alpha) / Delta})
def _p_alpha(f: dict) -> Verdict:
    """The engine solves P_alpha's two conditions (total mass one, mass delta on [-Delta/2,
    Delta/2]) for the half-width and the density; the printed ones must be those (sympy
    identities), so that P_alpha is a law meeting the condition of 002.condition with
    equality."""
    solved = UniformMass.engine.calibration()
    width_ok = decide_identity(solved[_L], f["half_width"])[0] is True
    dens_ok = decide_identity(UniformMass.normalisation(), f["density"])[0] is True
    mass = simplified(_alpha + 2 * sp.sympify(f["half_width"]) * sp.sympify(f["density"]))
    inner = simplified(_alpha + Delta * sp.sympify(f["density"]))
    ok = width_ok and dens_ok and mass == 1 and vanishes(inner - delta)
    return Verdict(bool(ok), detail=f"engine: L = {solved[_L]}, h = "
                   f"{UniformMass.normalisation()}; total mass {mass}, mass of [-Delta/2, "
                   f"Delta/2] = {inner}")


@functools.cache
def _step_lp_evidence() -> tuple[bool, str]:
    """The least cost over the step laws of the class (an LP) against the engine (extra
    evidence, computed once)."""
    rows, ok = [], True
    for power, d in ((1, "0.1"), (1, "0.8"), (2, "0.25"), (2, "0.9")):
        cost = "amplitude" if power == 1 else "power"
        v = cost_value(UniformMass, "cost", cost, delta=d, Delta=1)
        lp = step_lp(Fraction(d), power)
        ok &= abs(lp - float(v)) < 1e-7 * float(v)
        rows.append(f"p={power}, delta={d}: inf_alpha V(P_alpha) = {fmt(v)}, LP over step "
                    f"laws {lp:.10g}")
    return ok, "evidence: " + "; ".join(rows)


# ----------------------------------------------------------------------------- proof steps

_NB_PF = "notebooks/proofs_002.py"
_HALF = Fraction(1, 2)  # Delta/2 at Delta = 1
_W = Fraction(1, 8)  # the cell width of the step densities (Delta/2 = 4 cells)


def step_law(seed: int, cells: int = 14) -> tuple[Fraction, list[tuple[Fraction, Fraction,
                                                                          Fraction]]]:
    """A random symmetric law with a nonincreasing step density on [0, cells/8] (Delta = 1)
    and an atom at 0, exact: (atom, [(left, right, height), ...] for x >= 0)."""
    rng = np.random.default_rng(seed)
    heights = sorted((Fraction(int(v), 16) for v in rng.integers(0, 17, cells)), reverse=True)
    atom = Fraction(int(rng.integers(0, 9)), 16)
    mass = atom + 2 * _W * sum(heights)
    if mass == 0:
        heights[0] = Fraction(1)
        mass = 2 * _W
    pieces = [(j * _W, (j + 1) * _W, h / mass) for j, h in enumerate(heights)]
    return atom / mass, pieces


def law_cost(atom: Fraction, pieces: list, power: int) -> Fraction:
    """E|X|^power, exact."""
    return sum((2 * h * (r ** (power + 1) - lft ** (power + 1)) / (power + 1)
                for lft, r, h in pieces), Fraction(0))


def central(atom: Fraction, pieces: list) -> Fraction:
    """P([-Delta/2, Delta/2]) (the pieces' end points include Delta/2)."""
    return atom + 2 * sum(((min(r, _HALF) - lft) * h for lft, r, h in pieces if lft < _HALF),
                          Fraction(0))


def tv(atom: Fraction, pieces: list, d: Fraction) -> Fraction:
    """sup_S P(S) - P(S + d) (the total variation of P and its shift by d > 0), exact: half
    the l1 distance of the two step densities plus the atoms. The difference
    g(x) = f(x) - f(x - d) of the step densities is a step function whose jumps are those of
    f and, negated, those of f shifted by d; the sweep over its sorted jump points sums
    the absolute value of g times the length of each interval, in integers over a common
    denominator."""
    lefts = [lft for lft, _, _ in pieces]
    if any(r > nxt for (_, r, _), nxt in zip(pieces, lefts[1:], strict=False)):
        raise ValueError("pieces: expected disjoint pieces sorted by their left ends")
    x_den = math.lcm(d.denominator, *(e.denominator for pc in pieces for e in pc[:2]))
    h_den = math.lcm(1, *(h.denominator for _, _, h in pieces))
    shift = d.numerator * (x_den // d.denominator)
    jumps: dict[int, int] = {}
    for lft, r, h in pieces:  # f: +h at -r and at lft, -h at -lft and at r
        lo, hi = lft.numerator * (x_den // lft.denominator), r.numerator * (x_den // r.denominator)
        hh = h.numerator * (h_den // h.denominator)
        for at, jump in ((-hi, hh), (-lo, -hh), (lo, hh), (hi, -hh)):
            jumps[at] = jumps.get(at, 0) + jump
            jumps[at + shift] = jumps.get(at + shift, 0) - jump
    points = sorted(jumps)
    l1, level = 0, 0
    for at, following in itertools.pairwise(points):  # g = level on (at, following)
        level += jumps[at]
        l1 += abs(level) * (following - at)
    return (2 * atom + Fraction(l1, x_den * h_den)) / 2


_PS, _PmS, _PSd, _PmSd = sp.symbols("P(S) P(-S) P(S+d) P(-S-d)", nonnegative=True)
_w_mix = sp.Symbol("w", positive=True)


@claim("002.main.s0", "Main Result", "The loss L is symmetric: without loss of generality P is"
       " symmetric (the mixture (P + P(-.))/2 keeps (0, delta)-DP and the cost)",
       kind="proof-step", theorem="002.main", notebook=_NB_PF,
       printed=r"As the loss function L is symmetric, without loss of generality, assume P is "
       r"symmetric.",
       formula={"weight": sp.Rational(1, 2)})
def _symmetrise(f: dict) -> Verdict:
    """For every law P and its reflection P^-(S) = P(-S), the mixture Q = w P + (1 - w) P^-:
    Q(S) - Q(S + d) = w [P(S) - P(S + d)] + (1 - w)[P(-S) - P(-S - d)], the second bracket
    the constraint at the set -S and the shift -d (|-d| <= Delta): a nonnegative
    combination of two constraints, so Q(S) - Q(S + d) <= delta
    (:func:`~.generic.cone_certificate`); Q is symmetric (Q(-S) = Q(S) for every P) iff
    w = 1/2 (sympy); the cost of Q is w E L(X) + (1 - w) E L(-X) = E L(X) for a symmetric L."""
    w = sp.sympify(f["weight"])
    gens = {"delta - (P(S) - P(S+d))": (delta - (_PS - _PSd), _PS),
            "delta - (P(-S) - P(-S-d))": (delta - (_PmS - _PmSd), _PmS)}
    q_gap = delta - (w * (_PS - _PSd) + (1 - w) * (_PmS - _PmSd))
    private, cert = cone_certificate(q_gap, [_PS, _PmS, _PSd, _PmSd, delta], gens, [])
    sym = sp.expand((w * _PmS + (1 - w) * _PS) - (w * _PS + (1 - w) * _PmS))
    symmetric = sym.coeff(_PS) == 0 and sym.coeff(_PmS) == 0
    ok = private and symmetric and sign_of(w, []) == "positive" and sign_of(1 - w, []) \
        == "positive"
    return Verdict(bool(ok), detail=f"delta - (Q(S) - Q(S + d)) = {cert}; Q(-S) - Q(S) = {sym}"
                   f" (zero for every P: {symmetric})")


@claim("002.main.s1", "Proof Ideas (the condition, both directions)", "For a symmetric P"
       " with a density nonincreasing on [0, oo) (and an atom at 0): sup_{|d| <= Delta, S} "
       "P(S) - P(S + d) = P([-Delta/2, Delta/2]); hence (0, delta)-DP iff P([-Delta/2, "
       "Delta/2]) <= delta; without monotonicity the condition is not sufficient",
       kind="proof-step", theorem="002.main", notebook=_NB_PF, budget=10,
       printed=r"Sufficient and necessary condition for preserving $(0, \delta)$ -differential"
       r" privacy (assuming P is symmetric and monotonic) $$\mathcal{P}([-\frac{\Delta}{2}, "
       r"\frac{\Delta}{2}]) \leq \delta.$$",
       formula={"half_width": Delta / 2})
def _condition_identity(f: dict) -> Verdict:
    """Decided for every law of the class by the exact reduction of
    :func:`~.unimodal.condition_reduction`. Evidence on instances: the total variation of P
    and P shifted by d, exactly, against P((-d/2, d/2]) for every d = k/16 <= Delta on 40
    random step laws; and a symmetric non-monotone law (mass 1/2 on each of +-[15/16,
    17/16]) with central mass 0 that is not (0, delta)-DP for any delta < 1."""
    red_ok, red = condition_reduction(f["half_width"])
    ev_ok, ev = _condition_evidence()
    return Verdict(bool(red_ok and ev_ok), detail=f"{red}; {ev}")


@functools.cache
def _condition_evidence() -> tuple[bool, str]:
    """The condition on 40 random step laws and a non-monotone law, exactly (computed once)."""
    worst = Fraction(0)
    for seed in range(40):
        atom, pieces = step_law(seed)
        for k in range(1, 17):
            d = Fraction(k, 16)
            mass = atom + 2 * sum(((min(r, d / 2) - lft) * h for lft, r, h in pieces
                                   if lft < d / 2), Fraction(0))
            worst = max(worst, abs(tv(atom, pieces, d) - mass))
    bimodal = tv(Fraction(0), [(Fraction(15, 16), Fraction(17, 16), Fraction(4))],
                  Fraction(1))
    central_bi = central(Fraction(0), [(Fraction(15, 16), Fraction(17, 16), Fraction(4))])
    ok = worst == 0 and central_bi == 0 and bimodal == 1
    return ok, (f"evidence: max |TV(P, P + d) - P((-d/2, d/2])| over 40 laws x 16 shifts = "
                f"{worst}; non-monotone law: central mass {central_bi}, TV at d = Delta "
                f"{bimodal}")


def rearrange_tail(atom: Fraction, pieces: list) -> tuple[Fraction, list]:
    """Step 2: the mass beyond Delta/2 as one step at the density level just below Delta/2."""
    inner = [pc for pc in pieces if pc[1] <= _HALF]
    level = inner[-1][2]
    tail = sum(((r - lft) * h for lft, r, h in pieces if lft >= _HALF), Fraction(0))
    if tail == 0:
        return atom, inner
    return atom, [*inner, (_HALF, _HALF + tail / level, level)]


def rearrange_centre(atom: Fraction, pieces: list) -> tuple[Fraction, list]:
    """Step 3: the density on (0, Delta/2) flattened to its lowest level, the excess mass
    moved to the atom at 0."""
    inner = [pc for pc in pieces if pc[1] <= _HALF]
    level = inner[-1][2]
    extra = 2 * sum(((r - lft) * (h - level) for lft, r, h in inner), Fraction(0))
    return atom + extra, [(Fraction(0), _HALF, level)] + [pc for pc in pieces if pc[1] > _HALF]


def _is_law(atom: Fraction, pieces: list) -> bool:
    hs = [h for _, _, h in pieces]
    return atom + 2 * sum(((r - lft) * h for lft, r, h in pieces), Fraction(0)) == 1 and \
        all(h1 >= h2 for h1, h2 in itertools.pairwise(hs))


def _rearrangement(which: str) -> Callable[[dict], Verdict]:
    def check(f: dict) -> Verdict:
        """Decided for every law of the class and every cost x^p by the exact reduction of
        :func:`~.unimodal.rearrangement_reduction`, with the rearranged shape of the formula
        (the end of the step, the level of the uniform part). Evidence on 40 random step
        laws whose level below Delta/2 is positive (exact): the rearranged law is a
        symmetric monotone law, has the same central mass P([-Delta/2, Delta/2]) (so stays
        (0, delta)-DP, 002.main.s1) and costs no more for |x| and x^2."""
        red_ok, red = rearrangement_reduction(which, f["end" if which == "tail" else "level"])
        ev_ok, ev = _rearrangement_evidence(which)
        return Verdict(bool(red_ok and ev_ok), detail=f"{red}; {ev}")
    return check


@functools.cache
def _rearrangement_evidence(which: str) -> tuple[bool, str]:
    ok, tested, gain = True, 0, Fraction(0)
    for seed in range(40):
        atom, pieces = step_law(seed)
        if pieces[3][2] == 0:
            continue
        tested += 1
        if which == "centre":
            atom, pieces = rearrange_tail(atom, pieces)
            new = rearrange_centre(atom, pieces)
        else:
            new = rearrange_tail(atom, pieces)
        ok &= _is_law(*new) and central(*new) == central(atom, pieces)
        for power in (1, 2):
            ok &= law_cost(*new, power) <= law_cost(atom, pieces, power)
        gain = max(gain, law_cost(atom, pieces, 1) - law_cost(*new, 1))
    ok &= tested >= 20
    return ok, (f"evidence, {tested} laws: monotone, same central mass, cost not increased "
                f"(largest amplitude saving {float(gain):.4g})")


claim("002.main.s2", "Proof Ideas, Step 2 (Figure 3)", "Re-arranging the probability in "
      "[Delta/2, +oo) to one step keeps (0, delta)-DP and does not increase the cost",
      kind="proof-step", theorem="002.main", notebook=_NB_PF,
      printed=r"Step 2: Rearrange the tail distribution Figure 3: Re-arrange the probability "
      r"distribution in $\left[\frac{\Delta}{2}, +\infty\right)$ to be a step.",
      formula={"end": STEP_END})(_rearrangement("tail"))
claim("002.main.s3", "Proof Ideas, Step 3 (Figure 4)", "Re-arranging the probability in "
      "(0, Delta/2) to be uniform, with the extra mass at the origin, keeps (0, delta)-DP and "
      "does not increase the cost (the result is P_alpha)", kind="proof-step",
      theorem="002.main", notebook=_NB_PF,
      printed=r"Step 3: Rearrange the distribution in $[0, \Delta/2]$ Figure 4: Re-arrange the "
      r"probability distribution in $(0, \frac{\Delta}{2})$ to be uniform and put the extra "
      r"probability mass at the origin.",
      formula={"level": UNIFORM_LEVEL})(_rearrangement("centre"))


def step_lp(dl: Fraction, power: int, cells_half: int = 8, span: int = 12) -> float:
    r"""The least cost :math:`E|X|^p` over symmetric laws with an atom at 0 and a
    nonincreasing step density on cells of width :math:`\Delta/(2\,\text{cells\_half})` up to
    ``span`` :math:`\Delta`, under :math:`P([-\Delta/2, \Delta/2]) \le \delta` (the
    (0, delta)-DP condition of the class, 002.main.s1), :math:`\Delta = 1`: an LP
    (HiGHS, floating point)."""
    from scipy.optimize import linprog  # 0.5 s import: only when this LP is solved

    w = 1 / (2 * cells_half)
    n = span * 2 * cells_half
    cost = [0.0] + [2 * (((j + 1) * w) ** (power + 1) - (j * w) ** (power + 1)) / (power + 1)
                    for j in range(n)]
    a_ub, b_ub = [], []
    for j in range(n - 1):  # c_{j+1} - c_j <= 0
        row = [0.0] * (n + 1)
        row[j + 1], row[j + 2] = -1.0, 1.0
        a_ub.append(row)
        b_ub.append(0.0)
    a_ub.append([1.0] + [2 * w if j < cells_half else 0.0 for j in range(n)])
    b_ub.append(float(dl))
    res = linprog(cost, A_ub=np.array(a_ub), b_ub=b_ub,
                  A_eq=np.array([[1.0] + [2 * w] * n]), b_eq=[1.0], bounds=(0, None),
                  method="highs")
    return float(res.fun)


_THM3_PRINTED = (r"**Theorem 3.** Given $0 < \delta < 1$ and the query sensitivity $\Delta > 0$ "
                 r". For the general momentum cost function $\ell^p(x) := |x|^p$ , where p > 0,"
                 r" the optimal noise probability distribution to preserve $(0, \delta)$ "
                 r"-differential privacy with query sensitivity $\Delta$ is "
                 r"$\mathcal{P}_{\alpha} *$ with $$\alpha^* = \begin{cases} 0, & for \ "
                 r"\delta \in (0, \frac{p}{p+1}] \\ (p+1)\delta - p, & for \ \delta \in "
                 r"(\frac{p}{p+1}, 1) \end{cases}$$ and the minimum cost is $$V(\mathcal{P}_"
                 r"{\alpha^*}) = \begin{cases} \frac{\Delta^p}{2^p (p+1)\delta^p}, & for \ "
                 r"\delta \in (0, \frac{p}{p+1}] \\ \frac{(p+1)^p}{2^p p^p} (1-\delta)"
                 r"\Delta^p, & for \ \delta \in (\frac{p}{p+1}, 1) \end{cases}$$")


@functools.cache
def _alpha_cost() -> sp.Expr:
    """The engine's cost of P_alpha for |x|^p, a function of alpha (symbolic p)."""
    return UniformMass.cost_function(Cost(p))


@functools.cache
def _thm3_derivation() -> dict:
    """The engine's side of Theorem 3, independent of the printed formula (computed once):
    d log c/d alpha, its root alpha_0 (``None`` unless unique), the signs of the numerator's
    slope and of the denominator on [0, delta), the threshold delta where alpha_0 = 0, and
    the costs c(0), c(alpha_0)."""
    cost = _alpha_cost()
    dlog = sp.factor(simplified(sp.diff(sp.expand_log(sp.log(cost), force=True), _alpha)))
    num, den = sp.fraction(sp.together(dlog))
    root = sp.solve(num, _alpha)
    if len(root) != 1:
        return {"dlog": dlog, "a0": None}
    a0 = root[0]
    # the numerator is increasing in alpha; the denominator's sign on [0, delta)
    slope = sp.diff(num, _alpha)
    w, beta = sp.symbols("w beta", positive=True)  # alpha = delta/(1 + w), delta < 1
    den_sign = sign_of(den.subs(_alpha, delta / (1 + w)).subs(delta, 1 / (1 + beta)),
                       [w, beta, p])
    return {"dlog": dlog, "a0": a0, "slope": slope, "slope_sign": sign_of(slope, [p]),
            "den_sign": den_sign, "thr": sp.solve(sp.Eq(a0, 0), delta),
            "v_low": simplified(cost.subs(_alpha, 0)),
            "v_high": simplified(cost.subs(_alpha, a0))}


@claim("002.thm3", "Applications, Theorem 3", "For l^p (p > 0): alpha* = 0 for delta <= "
       "p/(p+1), (p+1) delta - p otherwise; V = Delta^p/(2^p (p+1) delta^p), resp. "
       "(p+1)^p/(2^p p^p) (1 - delta) Delta^p", notebook=_NB, budget=15,
       printed=_THM3_PRINTED,
       formula={"threshold": p / (p + 1), "alpha_high": (p + 1) * delta - p,
                "V_low": Delta**p / (2**p * (p + 1) * delta**p),
                "V_high": (p + 1) ** p / (2**p * p**p) * (1 - delta) * Delta**p})
def _poster_thm3(f: dict) -> Verdict:
    """Decided for every p > 0, 0 < delta < 1: the engine's cost of P_alpha,
    c(alpha) = (1 - alpha) L^p/(p + 1) with L = (1 - alpha)Delta/(2(delta - alpha)), has
    d log c/d alpha = (alpha - ((p + 1) delta - p))/((1 - alpha)(delta - alpha)) (sympy), of
    the sign of its numerator on [0, delta): c decreases up to alpha_0 = (p + 1) delta - p
    and increases after, so alpha* = max(0, alpha_0) (alpha_0 < delta as delta < 1), and
    alpha_0 <= 0 iff delta <= p/(p + 1); the minimum costs are c(0) and c(alpha_0),
    identical to the printed ones (sympy)."""
    d = _thm3_derivation()
    rows, ok = [f"d log c/d alpha = {d['dlog']}"], d["a0"] is not None
    if ok:
        a0, thr, v_low, v_high = d["a0"], d["thr"], d["v_low"], d["v_high"]
        ok &= d["slope_sign"] == "positive" and d["den_sign"] == "positive"
        ok &= decide_identity(a0, f["alpha_high"])[0] is True
        ok &= len(thr) == 1 and decide_identity(thr[0], f["threshold"])[0] is True
        lo_ok = decide_identity(v_low, f["V_low"], {p: sp.Rational(3, 2), delta:
                                                     sp.Rational(1, 5), Delta: 2})[0]
        hi_ok = decide_identity(v_high, f["V_high"], {p: sp.Rational(3, 2), delta:
                                                       sp.Rational(9, 10), Delta: 2})[0]
        ok &= lo_ok is True and hi_ok is True
        rows.append(f"root alpha_0 = {a0}, numerator slope {d['slope']}, denominator sign on "
                    f"[0, delta): {d['den_sign']}; threshold delta = {thr}; V at alpha = 0: "
                    f"{v_low} ({lo_ok}); V at alpha_0: {v_high} ({hi_ok})")
    return Verdict(bool(ok), detail="; ".join(rows))


def _poster_corollary(cost: str) -> Callable[[dict], Verdict]:
    def check(f: dict) -> Verdict:
        """The printed corollary against the engine's optimal cost, a Piecewise in delta:
        the same conditions and identical branches (sympy), for every delta and Delta."""
        eng = UniformMass.formula("cost", cost)
        ok = _same_piecewise(sp.sympify(f["V"]), eng)
        return Verdict(bool(ok), detail=f"engine optimal cost {eng}; printed {f['V']}: "
                       f"identical branches and conditions {ok}")
    return check


claim("002.cor.magnitude", "Corollary: Optimal Noise Magnitude", "Delta/(4 delta) for "
      "delta <= 1/2, (1 - delta) Delta for delta in (1/2, 1)", notebook=_NB,
      printed=r"# **Corollary: Optimal Noise Magnitude** $$\begin{cases} \frac{\Delta}"
      r"{4\delta}, & \text{for } \delta \in (0, \frac{1}{2}] \\ (1 - \delta)\Delta, & "
      r"\text{for } \delta \in (\frac{1}{2}, 1) \end{cases}$$",
      formula={"V": sp.Piecewise((Delta / (4 * delta), delta <= sp.Rational(1, 2)),
                                 ((1 - delta) * Delta, True))})(_poster_corollary("amplitude"))
claim("002.cor.power", "Corollary: Optimal Noise Power", "Delta^2/(12 delta^2) for delta <= "
      "2/3, (9/16)(1 - delta) Delta^2 for delta in (2/3, 1)", notebook=_NB,
      printed=r"# **Corollary: Optimal Noise Power** $$\begin{cases} \frac{\Delta^2}"
      r"{12\delta^2}, & \text{for } \delta \in (0, \frac{2}{3}] \\ \frac{9}{16}(1-\delta)"
      r"\Delta^2, & \text{for } \delta \in (\frac{2}{3}, 1) \end{cases}$$",
      formula={"V": sp.Piecewise((Delta**2 / (12 * delta**2), delta <= sp.Rational(2, 3)),
                                 (sp.Rational(9, 16) * (1 - delta) * Delta**2, True))}
      )(_poster_corollary("power"))
