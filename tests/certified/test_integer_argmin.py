"""The discrete staircase's integer step r* proven (dpsym.certified.integer_argmin) against
independent references.

The reference is written here from the mass function (slides 000, Part One): for
i = k Delta + j >= 0, P_r(i) = a b^k (j < r) or a b^(k+1) (r <= j < Delta), symmetric,
a normalising; the cost E|X|^p = 2 sum_{i >= 1} i^p P_r(i) is summed term by term with
mpmath at 60 digits (truncated where the geometric tail is below 10^-70), and r* found by
scanning every r in [1, Delta]. Nothing of the engine path under test is called.
"""

from __future__ import annotations

from fractions import Fraction

import flint
import mpmath
import pytest

from dpsym.certified.integer_argmin import (
    Monotone,
    excluded_ranges,
    integer_minimum,
    integer_optimum,
    remaining,
)
from dpsym.core.costs import parse_cost
from dpsym.errors import CertificationError, UnsupportedError
from dpsym.mechanisms.discrete_staircase import DiscreteStaircase
from dpsym.precision import arb_workprec


def ref_costs(e: mpmath.mpf, D: int, p: int) -> list[mpmath.mpf]:
    """The cost at r = 1..D by direct summation of the mass function (working precision):
    the unnormalised mass of i = k D + j is b^k w_j(r), w_j(r) = 1 (j < r) or b, so each
    residue j's sums over k (of the mass and of 2 i^p times it) are summed term by term
    once, and weighted by w_j(r) for every r."""
    bb = mpmath.exp(-e)
    periods = int(mpmath.ceil(mpmath.log(mpmath.mpf(10) ** (mpmath.mp.dps + 10)) / e)) + 2
    periods += int(3 * p * mpmath.log(periods + 2) / e) + 2  # the i^p growth of the terms
    norms, moments = [mpmath.mpf(0)] * D, [mpmath.mpf(0)] * D
    for i in range(periods * D):
        kk, j = divmod(i, D)
        mass = bb**kk
        norms[j] += mass if i == 0 else 2 * mass
        moments[j] += 2 * mass * mpmath.mpf(i) ** p
    out = []
    for r in range(1, D + 1):
        norm = mpmath.fsum(n if j < r else bb * n for j, n in enumerate(norms))
        moment = mpmath.fsum(m if j < r else bb * m for j, m in enumerate(moments))
        out.append(moment / norm)
    return out


def ref_argmin(e: mpmath.mpf, D: int, p: int) -> tuple[int, mpmath.mpf, mpmath.mpf]:
    """(r*, its cost, the gap to the second best cost)."""
    costs = ref_costs(e, D, p)
    order = sorted(range(D), key=lambda i: costs[i])
    gap = costs[order[1]] - costs[order[0]] if D > 1 else mpmath.inf
    return order[0] + 1, costs[order[0]], gap


GRID = [(e, D) for e in ("1/2", "1", "3", "30") for D in (1, 2, 7, 16)]


@pytest.mark.parametrize(("e", "D"), GRID)
@pytest.mark.parametrize(("cost", "p"), [("amplitude", 1), ("power", 2), ("moment:3", 3)])
def test_argmin_and_cost_enclose_the_direct_sum(e, D, cost, p):
    m = DiscreteStaircase(eps=e, Delta=D)
    r_value = m.value("r", cost, 30)
    c_value = m.value("cost", cost, 30)
    with mpmath.workdps(60):
        q = Fraction(e)
        want_r, want_cost, _ = ref_argmin(mpmath.mpf(q.numerator) / q.denominator, D, p)
        assert r_value.certificate == "enclosure" and c_value.certificate == "enclosure"
        assert r_value.text == str(want_r) and r_value.enclosure == (str(want_r),) * 2
        lo, hi = (mpmath.mpf(x) for x in c_value.enclosure)
        assert lo <= want_cost <= hi
        assert abs(mpmath.mpf(c_value.text) - want_cost) <= abs(want_cost) * mpmath.mpf(10) ** -29


@pytest.mark.parametrize(("e", "D", "cost", "p"), [("1/1000", 64, "power", 2),
                                                   ("1", 512, "moment:3", 3),
                                                   ("20", 64, "amplitude", 1)])
def test_larger_sensitivities_against_the_direct_sum(e, D, cost, p):
    """The candidates come from the slope's sign covering (not a scan): the argmin still
    agrees with the reference's full scan."""
    m = DiscreteStaircase(eps=e, Delta=D)
    got = integer_optimum(m, parse_cost(cost), 20)
    with mpmath.workdps(30):
        q = Fraction(e)
        ee = mpmath.mpf(q.numerator) / q.denominator
        costs = ref_closed(ee, D, p) if D > 16 or ee < 1 else ref_costs(ee, D, p)
        want = min(range(D), key=lambda i: costs[i]) + 1
        assert got[0] == want
        assert got[1].certificate == "enclosure"
        lo, hi = (mpmath.mpf(x) for x in got[1].enclosure())
        assert lo <= costs[want - 1] * (1 + mpmath.mpf(10) ** -25)
        assert costs[want - 1] * (1 - mpmath.mpf(10) ** -25) <= hi


def ref_closed(e: mpmath.mpf, D: int, p: int) -> list[mpmath.mpf]:
    """The same costs with each residue's geometric sum in closed form:
    sum_k b^k (k D + j)^p = sum_s C(p, s) D^s j^(p-s) sum_k k^s b^k, the inner sums
    Li_{-s}(b) (s >= 1) and 1/(1 - b) (s = 0, the term k = 0 included)."""
    bb = mpmath.exp(-e)
    geo = [1 / (1 - bb)] + [mpmath.polylog(-s, bb) for s in range(1, p + 1)]
    tails = [sum(mpmath.binomial(p, s) * D**s * mpmath.mpf(j) ** (p - s) * geo[s]
                 for s in range(p + 1)) for j in range(D)]
    out = []
    below, total = mpmath.mpf(0), mpmath.fsum(tails)
    for r in range(1, D + 1):
        below += tails[r - 1]
        norm = (2 * (r + (D - r) * bb) - (1 - bb)) / (1 - bb)
        out.append(2 * (below + bb * (total - below)) / norm)
    return out


def _best(costs: list[mpmath.mpf]) -> tuple[int, mpmath.mpf]:
    order = sorted(range(len(costs)), key=lambda i: costs[i])
    return order[0] + 1, costs[order[1]] - costs[order[0]]


def _tie_eps(D: int, p: int, lo: mpmath.mpf, hi: mpmath.mpf) -> mpmath.mpf:
    """The eps in [lo, hi] where the reference argmin first switches (bisection)."""
    first = _best(ref_closed(lo, D, p))[0]
    for _ in range(160):
        mid = (lo + hi) / 2
        if _best(ref_closed(mid, D, p))[0] == first:
            lo = mid
        else:
            hi = mid
    return (lo + hi) / 2


@pytest.mark.parametrize("offset", ["1e-12", "-1e-12", "1e-40", "-1e-40"])
def test_near_tie_is_resolved_correctly_or_refused(offset):
    """Near the eps where r* switches (Delta = 7, amplitude) the two best costs differ by
    about the offset: the proven argmin is the reference's, or the proof is refused."""
    with mpmath.workdps(80):
        star = _tie_eps(7, 1, mpmath.mpf(1), mpmath.mpf(10))
        e = Fraction(mpmath.nstr(star * (1 + mpmath.mpf(offset)), 60))
        ee = mpmath.mpf(e.numerator) / e.denominator
        want, gap = _best(ref_closed(ee, 7, 1))
        assert 0 < gap < mpmath.mpf(offset.lstrip("-")) * 1000
        assert ref_argmin(ee, 7, 1)[0] == want  # the direct sum agrees
    m = DiscreteStaircase(eps=e, Delta=7)
    try:
        got, _ = integer_optimum(m, parse_cost("amplitude"), 30, "parameter")
    except CertificationError as exc:
        assert "separated" in str(exc)
    else:
        assert got == want


def test_genuine_tie_is_refused_naming_the_integers():
    def costs(cands, prec):
        return [flint.arb(1) / 3 if x in (4, 5) else flint.arb(x) for x in cands]

    with pytest.raises(CertificationError, match="r = 4, 5"):
        integer_minimum(costs, [4, 5, 6], 20, quantity="parameter")
    # the least cost is proven all the same, whichever integer attains it
    tied, found = integer_minimum(costs, [4, 5, 6], 20)
    assert tied is None and found.text() == "0.33333333333333333333"
    best, found = integer_minimum(lambda c, p: [x / flint.arb(1000) if x == 1 else y
                                                for x, y in zip(c, costs(c, p), strict=True)],
                                  [1, 4, 5], 20)
    assert best == 1 and found.text() == "0.0010000000000000000000"


def test_separation_drops_beaten_candidates_and_rounds_the_winner():
    seen = []

    def costs(cands, prec):
        seen.append((prec, list(cands)))
        with arb_workprec(prec):
            return [flint.arb(x - 10) ** 2 + flint.arb(1) / 7 for x in cands]

    best, found = integer_minimum(costs, list(range(1, 30)), 25)
    assert best == 10 and found.text() == "0.1428571428571428571428571"
    assert len(seen[-1][1]) == 1  # only the winner refined


def test_excluded_ranges_follow_the_slope_sign():
    pieces = [Monotone(Fraction(1), Fraction(9, 2), -1),
              Monotone(Fraction(9, 2), Fraction(31, 4), -1),
              Monotone(Fraction(8), Fraction(20), 1)]
    # decreasing on [1, 7.75]: r = 1..6 beaten by r + 1; increasing on [8, 20]: 9..20
    assert excluded_ranges(pieces) == [(1, 6), (9, 20)]
    assert remaining(1, 20, excluded_ranges(pieces)) == [7, 8]
    # a gap in the covering leaves its integers as candidates
    gap = [Monotone(Fraction(1), Fraction(3), -1), Monotone(Fraction(5), Fraction(20), 1)]
    assert remaining(1, 20, excluded_ranges(gap)) == [3, 4, 5]
    with pytest.raises(CertificationError):
        integer_minimum(lambda c, p: [], [], 10)


def test_large_sensitivity_and_eps_extremes_are_proven():
    """Delta = 4096 at the ends of the eps range: every value an enclosure; r* = 1 at
    eps = 1e4 (the order-one terms of the cost vanish there: its value is of order b)."""
    for e, want in (("1e-3", None), ("1e4", 1)):
        m = DiscreteStaircase(eps=e, Delta=4096)
        for cost in ("amplitude", "moment:3"):
            r_value = m.value("r", cost, 20)
            assert r_value.certificate == "enclosure"
            if want is not None:
                assert r_value.text == str(want)
            assert m.value("cost", cost, 20).certificate == "enclosure"
    big = DiscreteStaircase(eps="1e-3", Delta=4096)
    assert int(big.value("r", "power", 20).text) in (2048, 2049)


def test_non_integer_moment_is_enclosed_or_left_to_the_heuristic():
    """A non-integer moment's cost has no closed form in r: its Lerch sums are enclosed
    by the generic ball evaluator when that handles them (every r of the range is then
    enclosed); until then the proof declines with UnsupportedError, never a guess."""
    m = DiscreteStaircase(eps=1, Delta=5)
    cost = parse_cost("moment:3/2")
    try:
        best, found = integer_optimum(m, cost, 20)
    except UnsupportedError as exc:
        assert "Lerch" in str(exc) or "ball" in str(exc)
        return
    with mpmath.workdps(40):
        bb = mpmath.exp(-1)
        terms = [sum(bb**k * (5 * k + j) ** mpmath.mpf(1.5) for k in range(400))
                 for j in range(5)]
        costs = []
        for r in range(1, 6):
            norm = (2 * (r + (5 - r) * bb) - (1 - bb)) / (1 - bb)
            costs.append(2 * (sum(terms[:r]) + bb * sum(terms[r:])) / norm)
        want = min(range(5), key=lambda i: costs[i]) + 1
        assert best == want
        lo, hi = (mpmath.mpf(x) for x in found.enclosure())
        assert lo <= costs[want - 1] * (1 + mpmath.mpf(10) ** -30)
        assert costs[want - 1] * (1 - mpmath.mpf(10) ** -30) <= hi


def test_exact_tie_refuses_the_step_but_proves_the_cost():
    """At eps = log(25/4) (b = 4/25) the costs at r = 2 and r = 3 (Delta = 7, amplitude)
    are equal: r* is refused naming both, the optimal cost is still enclosed. Reference:
    the mass function's sums in exact rationals (sum_k b^k = 1/(1-b),
    sum_k k b^k = b/(1-b)^2 per residue j)."""
    bb, D = Fraction(4, 25), 7
    tails = [D * bb / (1 - bb) ** 2 + j / (1 - bb) for j in range(D)]
    exact = [2 * (sum(tails[:r]) + bb * sum(tails[r:]))
             / ((2 * (r + (D - r) * bb) - (1 - bb)) / (1 - bb)) for r in range(1, D + 1)]
    assert exact[1] == exact[2] == min(exact)
    m = DiscreteStaircase(eps="log(25/4)", Delta=7)
    with pytest.raises(CertificationError, match="r = 2, 3"):
        m.value("r", "amplitude", 20)
    got = m.value("cost", "amplitude", 30)
    assert got.certificate == "enclosure"
    lo, hi = (Fraction(x) for x in got.enclosure)
    assert lo <= exact[1] <= hi
