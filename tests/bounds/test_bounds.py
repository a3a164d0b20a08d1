"""Lower bounds (dpsym.bounds.real, .integer, .tightness) against independent computations.

The references here are written from the definitions: the tail recursion
x_{k+1} = b (x_k - delta) summed directly, the paper's stated closed forms (11)-(12) as
claims, the truncated Laplacian cost integrated numerically from its Definition 3
density, and exact LP optima for integer queries.
"""

from __future__ import annotations

from fractions import Fraction

import flint
import mpmath
import pytest
import sympy as sp

from dpsym.bounds import BOUNDS, DiscreteLowerBound, LowerBound
from dpsym.bounds.common import round_down, round_exact
from dpsym.bounds.integer import chain_bound, pair_bound_amplitude, slides_formula, u, uniform_cost
from dpsym.bounds.lp import certified_lp_lower_bound
from dpsym.bounds.real import finite_sum, n, tail_bound
from dpsym.bounds.tightness import PAPER_CLAIMS, lower_bound, ratio_limit, upper_bound
from dpsym.core.params import Parametrised
from dpsym.errors import DomainError, UnsupportedError
from dpsym.mechanisms import Mechanism
from dpsym.precision import arb_workprec
from dpsym.symbols import Delta, b, c, delta, eps, k


def F(text) -> mpmath.mpf:
    """An exact decimal as an mpf at the working precision."""
    q = Fraction(text)
    return mpmath.mpf(q.numerator) / q.denominator


def direct_bound(e, d, D, p) -> mpmath.mpf:
    """2 sum_k max(x_k, 0) ((k D)^p - ((k-1) D)^p), x_0 = 1/2, x_{k+1} = b (x_k - d)."""
    bb = mpmath.exp(-e)
    x, total, kk = mpmath.mpf(1) / 2, mpmath.mpf(0), 0
    while True:
        kk += 1
        x = bb * (x - d)
        if x <= 0:
            return 2 * total
        total += x * ((kk * D) ** p - ((kk - 1) * D) ** p)


def tlap_cost(e, d, D, p) -> mpmath.mpf:
    """Truncated Laplacian cost by quadrature of its Definition 3 density."""
    lam = D / e
    A = lam * mpmath.log(1 + mpmath.expm1(e) / (2 * d))
    B = 1 / (2 * lam * (1 - mpmath.exp(-A / lam)))
    return 2 * mpmath.quad(lambda t: B * mpmath.exp(-t / lam) * t**p, [0, A])


POINTS = [("1", "0.05", "1"), ("0.3", "0.01", "2"), ("2", "0.001", "0.5"),
          ("0.05", "0.2", "1"), ("5", "0.3", "3"), ("0.001", "0.01", "1")]


@pytest.mark.parametrize(("e", "d", "D"), POINTS)
@pytest.mark.parametrize("cost", ["amplitude", "power"])
def test_lower_bound_matches_direct_recursion(e, d, D, cost):
    p = 1 if cost == "amplitude" else 2
    got = LowerBound(eps=e, delta=d, Delta=D).value("cost", cost, 30)
    with mpmath.workdps(60):
        want = direct_bound(F(e), F(d),
                            F(D), p)
        # rounded down: never above the exact value, and within one unit of the last digit
        assert mpmath.mpf(got.text) <= want
        assert want - mpmath.mpf(got.text) <= 2 * want * mpmath.mpf(10) ** -29


@pytest.mark.parametrize(("e", "d", "D"), POINTS)
@pytest.mark.parametrize("p", [1, 2])
def test_lower_bound_is_below_the_truncated_laplacian(e, d, D, p):
    got = LowerBound(eps=e, delta=d, Delta=D).value("cost", p, 30).number
    with mpmath.workdps(40):
        assert got <= tlap_cost(F(e), F(d),
                                F(D), p)


@pytest.mark.parametrize(("e", "nn"), [("1", 5), ("0.3", 7), ("0.02", 30), ("3", 2)])
def test_integer_assumption_points_give_theorems_4_and_5(e, nn):
    """At delta_n = (e^eps - 1)/(2(e^{n eps} - 1)) (the paper's assumption holds with n)
    the bound equals the paper's closed forms (11) and (12) to 30 digits."""
    with mpmath.workdps(80):
        ee = F(e)
        dn = mpmath.expm1(ee) / (2 * mpmath.expm1(nn * ee))
        d_text = mpmath.nstr(dn, 70)
        dd = mpmath.mpf(d_text)
        bb = mpmath.exp(-ee)
        a = (dd + mpmath.expm1(ee) / 2) / mpmath.exp(ee)
        p11 = 2 * a * ((bb - bb**nn) / (1 - bb) ** 2 - (nn - 1) * bb**nn / (1 - bb))
        p12 = 2 * a / (1 - bb) * (-bb + 2 * (bb * (1 - bb ** (nn - 1)) / (1 - bb) ** 2
                                             - (nn - 1) * bb**nn / (1 - bb))
                                  - bb**2 * (1 - bb ** (nn - 2)) / (1 - bb)
                                  - (nn - 1) ** 2 * bb**nn)
        for cost, paper in (("amplitude", p11), ("power", p12)):
            got = LowerBound(eps=e, delta=d_text, Delta=1).value("cost", cost, 30)
            assert got.text == round_down(paper, 30)[1]


def test_closed_forms_equal_the_sums_symbolically():
    """tail_bound(p) at delta = delta_n equals sympy's sum 2 sum_{k<n} a b^k k^p Delta^p."""
    for p in (1, 2, 3):
        for nn in (2, 3, 6):
            dn = (1 - b) * b ** (nn - 1) / (2 * (1 - b**nn))
            a = b * dn + (1 - b) / 2
            want = 2 * a * Delta**p * sp.summation(b**k * k**p, (k, 0, nn - 1))
            got = tail_bound(p).subs({n: nn, delta: dn})
            assert sp.simplify(got - want) == 0
    assert sp.simplify(finite_sum(b**k) - (b - b**n) / (1 - b)) == 0


def test_value_is_continuous_across_integer_n():
    """On both sides of an integer-assumption point the two formulas (n and n + 1 terms)
    give the same number: the fractional last mass vanishes there."""
    with mpmath.workdps(50):
        dn = mpmath.expm1(1) / (2 * mpmath.expm1(4))
        lo = LowerBound(eps=1, delta=mpmath.nstr(dn * (1 - mpmath.mpf(10) ** -20), 45))
        hi = LowerBound(eps=1, delta=mpmath.nstr(dn * (1 + mpmath.mpf(10) ** -20), 45))
        assert abs(lo.value().number - hi.value().number) < mpmath.mpf(10) ** -18


def test_round_down_never_rounds_up():
    with mpmath.workdps(60):
        v = mpmath.mpf("0.123456789012345678901234567899999999999999999")
        _, text = round_down(v, 30)
        assert text == "0.123456789012345678901234567899"
        assert mpmath.mpf(text) <= v
        # a value at a decimal boundary (within the uncertainty) steps one unit down
        _num, text = round_down(mpmath.mpf(1) / 4, 5)
        assert text in ("0.24999", "0.25000") and mpmath.mpf(text) <= mpmath.mpf(1) / 4
    assert round_exact(Fraction(1, 3), 5)[1] == "0.33333"
    assert round_exact(Fraction(2, 3), 5)[1] == "0.66666"
    assert round_exact(Fraction(2, 3), 5, down=False)[1] == "0.66667"
    assert round_exact(Fraction(1, 4), 5)[1] == "0.25000"
    assert round_exact(Fraction(-2, 3), 3)[1] == "-0.667"


@pytest.mark.parametrize("e", ["5e49", "9e49", "1e60", "1e99"])
def test_lower_bound_at_huge_eps_rounds_without_losing_the_mantissa(e):
    """At eps ~ 1e50 the bound is about 10^(-2e49): its decimal exponent has 50 digits,
    which must cost no precision (the rounding once printed wrong digits, 0 or crashed).
    The 15-digit text is the 40-digit one rounded down, and the mantissa agrees with an
    independent Arb evaluation of log10 of the 60-digit value."""
    bound = LowerBound(eps=e, delta="0.1")
    short, long = bound.value(digits=15).text, bound.value(digits=40).text
    m15, x15 = short.split("e")
    m40, x40 = long.split("e")
    assert x15 == x40 and m15 != "0"
    assert m15 == m40[:16]
    _, man, exp, _ = bound.value(digits=60).number._mpf_
    with arb_workprec(400):
        lg = flint.arb(int(man)).log() / flint.arb(10).log() + exp * (
            flint.arb(2).log() / flint.arb(10).log())
        power = int(lg.floor().unique_fmpz())
        mantissa = (lg - power) * flint.arb(10).log()
        digits15 = (mantissa.exp() * 10**14).floor().unique_fmpz()
    assert int(x15) == power
    assert m15.replace(".", "") == str(digits15)


def test_lower_bound_at_tiny_eps_beyond_python_int_string_limit():
    """eps = 1e-4300 and 1e-5000 (their denominators have more digits than Python's
    int-to-string limit): the bound is computed, equal to its eps -> 0 limit's digits."""
    near = LowerBound(eps="1e-300", delta="0.1").value(digits=20).text
    for e in ("1e-4300", "1e-5000"):
        assert LowerBound(eps=e, delta="0.1").value(digits=20).text == near


def test_domain_errors_name_the_parameter():
    with pytest.raises(DomainError, match="delta"):
        LowerBound(eps=1, delta="0.5")
    with pytest.raises(DomainError, match="eps"):
        LowerBound(eps=0, delta="0.1")
    with pytest.raises(DomainError, match="cost"):
        LowerBound(eps=1, delta="0.1").value("cost", "moment:1/2")
    with pytest.raises(DomainError, match="Delta"):
        DiscreteLowerBound(eps=0, delta="0.1", Delta="1.5")
    with pytest.raises(DomainError, match="quantity"):
        LowerBound(eps=1, delta="0.1").value("gamma")
    DiscreteLowerBound(eps=0, delta="0.1", Delta=2)  # eps = 0 is valid here


def test_cli_objects_follow_the_contract():
    for name, cls in BOUNDS.items():
        assert cls.name == name and "cost" in cls.quantities()
        assert cls.free is None and cls.params
    assert LowerBound.formula("cost", "amplitude").has(sp.ceiling)
    with pytest.raises(UnsupportedError):
        DiscreteLowerBound.formula()
    # a bound shares the parameters and quantities of a mechanism without being one
    assert issubclass(LowerBound, Parametrised) and not issubclass(LowerBound, Mechanism)
    assert not hasattr(LowerBound(eps=1, delta="0.1"), "sample")


def test_series_regimes_agree_with_values():
    s = LowerBound.series("cost", "amplitude", "eps->oo", 3).removeO()
    assert sp.simplify(s - (Delta * b - 2 * Delta * b * delta)) == 0  # n = 2: 2 Delta x_1
    with mpmath.workdps(40):
        got = LowerBound(eps=30, delta="0.1", Delta=2).value("cost", "amplitude", 25).number
        want = (2 * b * (sp.Rational(1, 2) - delta) * Delta).subs(
            {b: sp.exp(-30), delta: sp.Rational(1, 10), Delta: 2})
        assert abs(got - mpmath.mpf(sp.N(want, 40))) < mpmath.mpf(10) ** -24 * got
    s0 = LowerBound.series("cost", "power", "eps->0", 2).removeO()
    with mpmath.workdps(40):
        got = LowerBound(eps="1e-8", delta="0.07").value("cost", "power", 20).number
        want = sp.N(s0.subs({delta: sp.Rational(7, 100), Delta: 1, eps: sp.Rational(1, 10**8)}),
                    40)
        assert abs(got - mpmath.mpf(want)) < 1e-12 * got


# ----------------------------------------------------------------------------- tightness
def test_upper_bound_from_definition_matches_quadrature():
    for p in (1, 2):
        expr = upper_bound(p)
        with mpmath.workdps(40):
            got = mpmath.mpf(sp.N(expr.subs({eps: sp.Rational(7, 10), delta: sp.Rational(3, 100),
                                             Delta: 2}), 40))
            assert abs(got - tlap_cost(mpmath.mpf("0.7"), mpmath.mpf("0.03"), 2, p)) \
                < mpmath.mpf(10) ** -30 * got


def test_upper_bound_agrees_with_the_mechanism_module():
    tl = pytest.importorskip("dpsym.mechanisms.truncated_laplace")
    mech = tl.TruncatedLaplace(eps="0.7", delta="0.03", Delta=2)
    for p, cost in ((1, "amplitude"), (2, "power")):
        with mpmath.workdps(40):
            mine = mpmath.mpf(sp.N(upper_bound(p).subs({eps: sp.Rational(7, 10),
                                                        delta: sp.Rational(3, 100), Delta: 2}), 40))
        assert abs(mine - mech.value("cost", cost, 30).number) < mpmath.mpf(10) ** -28 * mine


@pytest.mark.parametrize("p", [1, 2])
def test_eps_to_zero_limit_and_the_papers_inequality(p):
    lim = ratio_limit(p, "eps->0")
    claim = PAPER_CLAIMS[(p, "eps->0")][1]
    for dd in (sp.Rational(1, 10), sp.Rational(1, 7), sp.Rational(3, 40), sp.Rational(1, 100)):
        exact = lim.subs(n, sp.ceiling(1 / (2 * dd))).subs(delta, dd)
        bound = claim.subs(delta, dd)
        assert exact >= bound
        assert (exact == bound) == (1 / (2 * dd)).is_integer
        # the value at tiny eps approaches the exact limit
        with mpmath.workdps(40):
            low = LowerBound(eps="1e-9", delta=dd).value("cost", p, 20).number
            up = mpmath.mpf(sp.N(upper_bound(p).subs({eps: sp.Rational(1, 10**9), delta: dd,
                                                      Delta: 1}), 40))
            assert abs(low / up - mpmath.mpf(sp.N(exact, 30))) < 1e-7


@pytest.mark.parametrize("p", [1, 2])
def test_delta_to_zero_limit_is_an_equality(p):
    lim = ratio_limit(p, "delta->0")
    assert sp.simplify(lim - PAPER_CLAIMS[(p, "delta->0")][1]) == 0
    assert sp.series(lim, eps, 0, 2).removeO() == 1 - eps / 2
    with mpmath.workdps(40):
        low = LowerBound(eps="0.5", delta="1e-40").value("cost", p, 30).number
        up = mpmath.mpf(sp.N(upper_bound(p).subs({eps: sp.Rational(1, 2),
                                                  delta: sp.Rational(1, 10**40), Delta: 1}), 40))
        assert abs(low / up - mpmath.mpf(sp.N(lim.subs(eps, sp.Rational(1, 2)), 40))) < 1e-28


def test_eps_equals_delta_limit_amplitude():
    assert ratio_limit(1, "eps=delta->0") == 1


@pytest.mark.slow
def test_eps_equals_delta_limit_power_symbolic():
    assert ratio_limit(2, "eps=delta->0") == 1


@pytest.mark.parametrize("p", [1, 2])
@pytest.mark.parametrize("cc", ["1", "0.25", "3"])
def test_eps_equals_delta_ratio_tends_to_one_numerically(p, cc):
    """delta = c eps: the ratio approaches 1 like O(eps) (any rounding gap)."""
    gaps = []
    for e in ("1e-4", "1e-6"):
        d = Fraction(cc) * Fraction(e)
        low = LowerBound(eps=e, delta=d).value("cost", p, 20).number
        with mpmath.workdps(40):
            up = mpmath.mpf(sp.N(upper_bound(p).subs({eps: sp.Rational(Fraction(e)),
                                                      delta: sp.Rational(d), Delta: 1}), 40))
        gaps.append(abs(1 - low / up))
    assert gaps[1] < 1e-4 and gaps[1] < gaps[0]
    assert lower_bound(p, "eps=delta->0").has(sp.Symbol("theta", nonnegative=True))
    assert c not in lower_bound(p, "eps=delta->0").free_symbols


# ----------------------------------------------------------------------------- integer
def test_uniform_and_slides_formulas_against_direct_sums():
    for D in (1, 2, 3):
        for uu in (3, 5):
            mass = Fraction(1, 2 * uu * D)
            direct = sum(mass * abs(i) for i in range(-D * uu + 1, D * uu + 1))
            assert uniform_cost(1).subs({u: uu, Delta: D}) == sp.Rational(direct)
            direct2 = sum(mass * i * i for i in range(-D * uu + 1, D * uu + 1))
            assert uniform_cost(2).subs({u: uu, Delta: D}) == sp.Rational(direct2)
            s = sum(Fraction(1, uu) * (1 + i * D) for i in range(uu))
            assert slides_formula(1).subs({u: uu, Delta: D}) == sp.Rational(s)


@pytest.mark.parametrize("D", [1, 2, 3, 4])
def test_zero_delta_amplitude_lp_equals_uniform_and_pair_bound(D):
    for dd in (Fraction(1, 10), Fraction(3, 40), Fraction(1, 7)):
        lp = certified_lp_lower_bound(0, dd, D, D, 1, lattice=True).bound
        pair = pair_bound_amplitude().subs({delta: sp.Rational(dd), Delta: D})
        assert abs(lp - Fraction(str(pair))) < Fraction(1, 10**9)
        if (1 / (2 * dd)).denominator == 1:
            uu = int(1 / (2 * dd))
            assert pair == uniform_cost(1).subs({u: uu, Delta: D})  # uniform is optimal


def test_slides_zero_delta_lower_bound_exceeds_the_optimum_at_unit_sensitivity():
    """Erratum: at Delta = 1 the slides' V_LB is above the uniform mechanism's cost."""
    for p in (1, 2):
        diff = sp.expand(slides_formula(p) - uniform_cost(p)).subs(Delta, 1)
        assert all(diff.subs(u, uu) > 0 for uu in (2, 5, 50))
        lp = certified_lp_lower_bound(0, Fraction(1, 10), 1, 1, p, lattice=True).bound
        assert Fraction(str(uniform_cost(p).subs({u: 5, Delta: 1}))) - lp < Fraction(1, 10**9)


@pytest.mark.parametrize("D", [1, 2, 3])
@pytest.mark.parametrize("p", [1, 2])
def test_chain_bound_is_below_the_lp_and_ratio_tends_to_one(D, p):
    uu = 6
    lp = certified_lp_lower_bound(0, Fraction(1, 2 * uu), D, D, p, lattice=True).bound
    assert Fraction(str(chain_bound(p).subs({u: uu, Delta: D}))) <= lp
    ratio = sp.limit(uniform_cost(p) / chain_bound(p), u, sp.oo)
    assert ratio == 1


def test_discrete_lower_bound_value_is_exact_and_rounded_down():
    v = DiscreteLowerBound(eps=0, delta="0.1", Delta=3).value("cost", "amplitude", 30)
    assert v.text == "7.50000000000000000000000000000"
    w = DiscreteLowerBound(eps="0.2", delta="0.05", Delta=2).value("cost", "power", 25)
    cert = DiscreteLowerBound(eps="0.2", delta="0.05", Delta=2).certificate("power")
    assert Fraction(w.text) <= cert.check()


def test_formula_with_ceiling_evaluates_to_the_value():
    for cost in ("amplitude", "power"):
        expr = LowerBound.formula("cost", cost).subs({eps: sp.Rational(3, 10),
                                                       delta: sp.Rational(1, 50), Delta: 2})
        with mpmath.workdps(40):
            want = mpmath.mpf(sp.N(expr, 40))
        got = LowerBound(eps="0.3", delta="0.02", Delta=2).value("cost", cost, 30).number
        assert got <= want and want - got < mpmath.mpf(10) ** -28 * want


@pytest.mark.parametrize(("e", "d", "D"), [("0.5", "0.05", 1), ("1", "0.01", 3), ("2", "0.2", 2)])
def test_integer_lp_bound_is_below_integer_mechanisms(e, d, D):
    from dpsym import DiscreteLaplace, DiscreteStaircase

    for cost in ("amplitude", "power"):
        low = DiscreteLowerBound(eps=e, delta=d, Delta=D).value("cost", cost, 30).number
        for mech in (DiscreteLaplace(eps=e, Delta=D), DiscreteStaircase(eps=e, Delta=D)):
            assert low <= mech.value("cost", cost, 30).number


def _ulp(value: mpmath.mpf, digits: int) -> mpmath.mpf:
    """One unit in the last of ``digits`` significant digits of ``value``."""
    return mpmath.mpf(10) ** (int(mpmath.floor(mpmath.log10(value))) - digits + 1)


def _check_rounded_down(got, e, d, D, p, digits):
    """The printed bound is an enclosure rounded down: at most the definition's value
    (the recursion summed directly at high precision), within one unit of its last
    digit, and the enclosure contains that value."""
    assert got.certificate == "enclosure"
    with mpmath.workdps(digits + 40):
        want = direct_bound(F(e), F(d), F(D), p)
        printed = mpmath.mpf(got.text)
        assert printed <= want
        assert want - printed < _ulp(want, digits)
        lo, hi = (mpmath.mpf(x) for x in got.enclosure)
        assert lo <= want <= hi


@pytest.mark.parametrize("e", ["1e-3", "1", "30", "1e4"])
@pytest.mark.parametrize(("cost", "p"), [("amplitude", 1), ("power", 2), ("moment:3", 3)])
def test_lower_bound_is_an_enclosure_rounded_down(e, cost, p):
    got = LowerBound(eps=e, delta="1e-6", Delta=1).value("cost", cost, 30)
    _check_rounded_down(got, e, "1e-6", "1", p, 30)


def test_lower_bound_property_over_random_parameters():
    """Random eps, delta, Delta, moment and digits (fixed seed)."""
    import random

    rng = random.Random(20261126)
    for _ in range(14):
        e = f"{rng.uniform(1, 9):.3f}e{rng.randint(-3, 1)}"
        d = f"{rng.uniform(1, 4.8):.4f}e{rng.randint(-12, -1)}"
        D = rng.choice(["1", "2", "1/3", "7/2"])
        p = rng.randint(1, 3)
        digits = rng.randint(5, 40)
        got = LowerBound(eps=e, delta=d, Delta=D).value("cost", p, digits)
        _check_rounded_down(got, e, d, D, p, digits)


@pytest.mark.parametrize("side", [-1, 1])
def test_lower_bound_next_to_an_integer_nu(side):
    """delta within 10^-60 (relative) of delta_n: nu within about 10^-60 of the integer
    n, where the number of terms is decided from a ball of nu (or, undecided, the
    larger of the two sums, which is the bound): still rounded down and within a unit."""
    with mpmath.workdps(120):
        dn = mpmath.expm1(1) / (2 * mpmath.expm1(5))
        d = mpmath.nstr(dn * (1 + side * mpmath.mpf(10) ** -60), 100)
    for cost, p in (("amplitude", 1), ("moment:3", 3)):
        got = LowerBound(eps=1, delta=d, Delta=1).value("cost", cost, 30)
        _check_rounded_down(got, "1", d, "1", p, 30)


def test_term_counts_decide_n_from_a_ball():
    bound = LowerBound(eps=1, delta="0.01")
    with mpmath.workdps(50):
        nu = 1 + mpmath.log(mpmath.exp(-1) + (1 - mpmath.exp(-1)) / F("0.02"))
    assert bound._term_counts(200) == [int(mpmath.ceil(nu))]
    # eps = 1e99: nu = 1 + 10^-99-ish, a coarse ball cannot tell 1 from 2; n >= 2 anyway
    assert LowerBound(eps="1e99", delta="0.1")._term_counts(64) == [2]


def test_compare_row_of_the_lower_bound_is_an_enclosure(capsys):
    from cli_helpers import run_json

    data = run_json(capsys, "compare", "--eps", "1", "--delta", "1e-6")
    rows = {row["name"]: row for row in data["rows"]}
    assert rows["lower-bound"]["certificate"] == "enclosure"
    assert rows["discrete-lower-bound"]["certificate"] == "exact"
    assert rows["discrete-staircase"]["certificate"] == "enclosure"


def test_more_term_counts_change_nothing(monkeypatch):
    """V(n) is largest at n = ceil(nu) (its increments have the sign of x_{n-1}): the
    bound taken as the largest over n - 1, n, n + 1 is the same number."""
    plain = LowerBound(eps=1, delta="0.01").value("cost", "power", 30).text
    counts = LowerBound._term_counts
    monkeypatch.setattr(LowerBound, "_term_counts", lambda self, prec: [
        x + s for x in counts(self, prec) for s in (-1, 0, 1)])
    assert LowerBound(eps=1, delta="0.01").value("cost", "power", 30).text == plain
