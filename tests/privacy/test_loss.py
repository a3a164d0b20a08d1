"""The privacy-loss engine (:mod:`dpsym.privacy.loss`): scale-free laws with exact
breakpoints, lattice runs and their grid bins against point-by-point sums, and a property
walk of every mechanism of ``renyi``/``compose`` over eps in [1e-300, 1e100] and Delta in
[1e-60, 1e60] (scale invariance, monotonicity in eps, delta in [0, 1], closed forms)."""

from __future__ import annotations

import itertools
import math
from fractions import Fraction

import flint
import mpmath
import pytest
import sympy as sp

from dpsym import Laplace, Staircase
from dpsym.accounting.composition import component, compose, compose_epsilon
from dpsym.accounting.renyi import alpha, closed_form, noise_renyi, renyi, renyi_formula
from dpsym.mechanisms import MECHANISMS
from dpsym.precision import arb_workprec, workdps
from dpsym.privacy.loss import Unrolled, exp_moments, loss_law, order, piece_bins, run_points
from dpsym.symbols import Delta, eps


def _mp(text: str) -> mpmath.mpf:
    return mpmath.mpf(text)


# ---------------------------------------------------------------------------- exact engine
def test_order_is_exact_where_floats_are_not():
    tiny = sp.Rational(1, 10**70)
    assert order(1 + tiny, sp.Integer(1)) == 1 and order(sp.Integer(1), 1 + tiny) == -1
    assert order(sp.log(8), 3 * sp.log(2)) == 0  # a tie proven, not guessed
    assert order(-sp.oo, sp.Integer(0)) == -1 and order(sp.oo, sp.oo) == 0


def test_staircase_steps_far_below_any_absolute_threshold_stay_breakpoints():
    """A step of width gamma ~ 1e-66 next to steps of width 1 (eps = 300): the engine keeps
    it (the old absolute 1e-40 merge turned D_2 = 300 into 99.5)."""
    m = Staircase(eps=300)
    noise = m.numeric_noise("power", None, 40)
    unrolled = Unrolled(noise, 1)
    g = sp.Rational(m.free_value("power", 40))
    assert 0 < g < sp.Rational(1, 10**40)  # below the old merge threshold
    points = unrolled.breakpoints()
    assert g in points and -g in points and 1 + g in points
    got = noise_renyi(noise, 1, Fraction(2), 30)
    assert got.text == renyi(m, 2, "power", 30).text == "300.000000000000000000000000000"


@pytest.mark.parametrize("sens", ["1e-60", "1e-40", "1", "1e40", "1e60"])
def test_densities_are_described_in_units_of_the_sensitivity(sens):
    """The same intervals, losses and masses at every Delta (positions x / Delta)."""
    m = Laplace(eps="1/3", Delta=sens)
    unrolled = Unrolled(m.numeric_noise(), sp.Rational(Fraction(sens)))
    ivs = list(unrolled.intervals(sp.Rational(Fraction(sens))))
    assert [(iv.a, iv.c) for iv in ivs] == [(-sp.oo, -1), (-1, 0), (0, sp.oo)]
    law = loss_law(unrolled, sp.Rational(Fraction(sens)))
    with arb_workprec(100):
        masses = dict(law.atom_masses())
        assert sorted(masses) == [-sp.Rational(1, 3), sp.Rational(1, 3)]
        assert abs(masses[sp.Rational(1, 3)] - flint.arb(1) / 2) < flint.arb(2) ** -90


def test_log_concavity_is_decided_exactly():
    """Discrete Laplace at eps = log 2 (sqrt(2)/2 per point, once undecided, which made
    compose refuse with "no dominating worst shift"), Laplace at tiny eps (e^{-1e-45} is
    1 at 40 digits), and the staircase (not log-concave)."""
    dl = MECHANISMS["discrete-laplace"](eps="log(2)", Delta=2).numeric_noise()
    assert Unrolled(dl, 2).log_concave()
    lap = Laplace(eps="1e-45").numeric_noise()
    assert Unrolled(lap, 1).log_concave()
    st = Staircase(eps=1).numeric_noise(digits=20)
    assert not Unrolled(st, 1).log_concave()


def test_huge_rates_give_finite_masses():
    """Moments of a piece of rate 1e95 (discrete Laplace, eps 1e100, Delta 1e5), from the
    end where the integrand is largest, its exponent simplified exactly."""
    noise = MECHANISMS["discrete-laplace"](eps="1e100", Delta=100000).numeric_noise()
    unrolled = Unrolled(noise, 100000)
    with arb_workprec(128):
        total = flint.arb(0)
        for iv in unrolled.intervals(100000):
            m0, _, _ = exp_moments(iv, iv.f.log_exact, iv.f.rate, True)
            assert m0.is_finite()
            total += iv.weight_ball() * m0
        assert abs(total - 1) < flint.arb(2) ** -100


@pytest.mark.parametrize(("e", "sens", "h"), [("1", 7, "2/7"), ("1", 7, "1/7"),
                                              ("2", 9, "2/3"), ("1/2", 12, "1/10")])
@pytest.mark.parametrize("up", [False, True])
def test_lattice_run_bins_are_the_sums_of_their_points(e, sens, h, up):
    """Each grid bin of a discrete Laplace run holds exactly the points whose loss lies in
    it: the P-masses of the bins (down: merged at the lower end) and the two atoms of
    "connect the dots" (up: P- and Q-masses kept) against point-by-point sums."""
    m = MECHANISMS["discrete-laplace"](eps=e, Delta=sens)
    law = loss_law(Unrolled(m.numeric_noise(), sens), sens)
    (iv,) = law.runs
    h_exact = sp.Rational(Fraction(h))
    with arb_workprec(120):
        found, below, above = piece_bins(iv, flint.arb(flint.fmpq(*Fraction(h).as_integer_ratio())),
                                         h_exact, up, lattice=True)
        assert below.is_zero() and above.is_zero()
        loss0, step, _, masses = run_points(iv)
        want: dict[int, flint.arb] = {}
        hb = flint.arb(flint.fmpq(*Fraction(h).as_integer_ratio()))
        for j, p in enumerate(masses()):
            loss = loss0 + j * step
            k = int(sp.floor(loss / h_exact))
            if not up or loss / h_exact == k:
                want[k] = want.get(k, flint.arb(0)) + p
                continue
            # P- and Q-masses of the point kept by the two atoms k, k + 1
            lb = flint.arb(flint.fmpq(*Fraction(loss).as_integer_ratio())) \
                if loss.is_Rational else flint.arb(float(loss))
            top = p * (-(k * hb - lb).expm1()) / (-(-hb).expm1())
            want[k + 1] = want.get(k + 1, flint.arb(0)) + top
            want[k] = want.get(k, flint.arb(0)) + p - top
        assert set(found) <= set(want) | {k + 1 for k in want}
        for k in set(found) | set(want):
            got, ref = found.get(k, flint.arb(0)), want.get(k, flint.arb(0))
            assert abs(got - ref) < flint.arb(2) ** -90, (k, got, ref)


# ---------------------------------------------------------------------------- property walk
EPS = ["1e-300", "1e-45", "1e-3", "1/3", "1", "7", "200", "1e5", "1e100"]
SENS = ["1e-60", "1e-7", "1e30", "1e60"]
ORDERS = ["3/2", "2", "7", "1", "inf"]


def _mironov(e: mpmath.mpf, a: mpmath.mpf) -> mpmath.mpf:
    if a == 1:
        return e + mpmath.expm1(-e)
    return mpmath.log(a / (2 * a - 1) * mpmath.exp((a - 1) * e)
                      + (a - 1) / (2 * a - 1) * mpmath.exp(-a * e)) / (a - 1)


def _formula(name: str, subs: dict, order_text: str) -> mpmath.mpf:
    """The sympy closed form (:func:`dpsym.accounting.renyi.renyi_formula`) in mpmath at 900 digits
    (enough for eps = 1e-300, where D is about eps^2)."""
    expr = renyi_formula(name).subs({alpha: sp.Rational(Fraction(order_text)), **subs})
    with workdps(900):
        return mpmath.mpf(sp.N(expr, 900))


def _staircase_formula(e: sp.Expr, gamma_text: str, a: Fraction) -> mpmath.mpf:
    """The staircase's D_alpha at the shift Delta (gamma <= 1/2), from its density in
    mpmath at 900 digits (gamma ~ e^{-eps/2} may be far below any sympy rational):
    (b^{1-a} + b^a)/2 + c (gamma b^{1-a} + (1 - 2 gamma) b + gamma b^a), c the density at
    0 over Delta, b = e^{-eps}."""
    with workdps(900):
        ee, g = mpmath.mpf(e), mpmath.mpf(gamma_text)
        aa = mpmath.mpf(a.numerator) / a.denominator
        bb = mpmath.exp(-ee)
        c = -mpmath.expm1(-ee) / (2 * (g + bb * (1 - g)))
        total = (mpmath.exp((aa - 1) * ee) + mpmath.exp(-aa * ee)) / 2 + c * (
            g * mpmath.exp((aa - 1) * ee) + (1 - 2 * g) * bb + g * mpmath.exp(-aa * ee))
        return mpmath.log(total) / (aa - 1)


def _agree(text: str, exact: mpmath.mpf, digits: int = 12) -> bool:
    with workdps(40):
        return abs(_mp(text) - exact) <= abs(exact) * mpmath.mpf(10) ** (1 - digits)


@pytest.mark.parametrize("name", ["laplace", "staircase"])
def test_renyi_walk_is_scale_free_monotone_and_closed_form(name):
    """Every order over eps in [1e-300, 1e100]: the same digits at every Delta in
    [1e-60, 1e60] (both mechanisms are scale-free), nondecreasing in eps for each order
    and across orders (KL <= D_3/2 <= D_2 <= D_7 <= D_inf = eps), and equal to the closed
    forms (Mironov's for Laplace; the staircase's at the shift Delta, in mpmath)."""
    cls = MECHANISMS[name]
    previous: dict[str, mpmath.mpf] = {}
    for k, e in enumerate(EPS):
        values = {}
        for o in ORDERS:
            text = renyi(cls(eps=e), o, digits=15).text
            values[o] = _mp(text)
            # scale invariance: the same text at two Delta, rotating through SENS
            for sens in (SENS[k % len(SENS)], SENS[(k + 1) % len(SENS)]):
                assert renyi(cls(eps=e, Delta=sens), o, digits=15).text == text
            if o == "inf":
                assert text == renyi(cls(eps=e), "inf", digits=15).text
                assert _agree(text, mpmath.mpf(sp.Rational(Fraction(e))))
            elif name == "laplace":
                with workdps(900):
                    ref = _mironov(mpmath.mpf(sp.Rational(Fraction(e))),
                                   mpmath.mpf(sp.Rational(Fraction(o))))
                assert _agree(text, ref), (e, o, text, ref)
            elif o != "1":
                g = cls(eps=e).value("gamma", "amplitude", 25).text
                ref = _staircase_formula(sp.Rational(Fraction(e)), g, Fraction(o))
                assert _agree(text, ref), (e, o, text, ref)
            if o in previous:
                assert values[o] >= previous[o]
        ordered = [values[o] for o in ("1", "3/2", "2", "7", "inf")]
        assert all(x <= y for x, y in itertools.pairwise(ordered)), (e, ordered)
        previous = values


@pytest.mark.parametrize("sens", [1, 3, 1000, 10**60])
def test_discrete_laplace_walk_matches_its_closed_form(sens):
    """Discrete Laplace at Delta up to 1e60 (time independent of Delta): the closed form
    of renyi_formula in mpmath, monotone in eps; the KL divergence (the generic sums over
    the one-piece tail) is its limit at orders near 1."""
    previous = None
    for e in EPS:
        m = MECHANISMS["discrete-laplace"](eps=e, Delta=sens)
        text = renyi(m, 2, digits=15).text
        ref = _formula("discrete-laplace", {eps: sp.Rational(Fraction(e)), Delta: sens}, "2")
        assert _agree(text, ref), (e, sens, text, ref)
        kl = _mp(renyi(m, 1, digits=15).text)
        assert 0 <= kl <= _mp(text)
        if previous is not None:
            assert _mp(text) >= previous
        previous = _mp(text)


def _probability(text: str) -> Fraction:
    value = Fraction(text)
    assert 0 <= value <= 1, text
    return value


COMPOSED = [("laplace", {}), ("staircase", {}), ("truncated-laplace", {"delta": "0.1"}),
            ("discrete-laplace", {}), ("uniform-mass", {"delta": "0.1"})]


@pytest.mark.parametrize(("name", "extra"), COMPOSED, ids=[n for n, _ in COMPOSED])
def test_compose_walk_is_a_probability_scale_free_and_monotone(name, extra):
    """Three releases, delta at eps' = eps: a probability (bounds within [0, 1] and never
    inverted), the same digits at Delta = 1e-60 and 1e60 for the scale-free mechanisms,
    nondecreasing in the mechanism's eps (the lower bound at eps never above the upper
    one at the next eps); at eps' = 0 a probability, and the inverse never below 0."""
    cls = MECHANISMS[name]
    grid = {"laplace": ["1e-300", "1", "20"], "uniform-mass": ["1"],
            "truncated-laplace": ["1e-300", "1", "1e100"]}.get(
        name, ["1e-300", "1e-3", "1", "20", "1e100"])
    sensitivities = [1, 5] if name == "discrete-laplace" else [1, "1e-60", "1e60"]
    previous = None
    for e in grid:
        params = dict(extra) if name == "uniform-mass" else {"eps": e, **extra}
        texts = []
        for sens in sensitivities:
            comp = component(cls(**params, Delta=sens), digits=10)
            got = compose([(comp, 3)], params.get("eps", "1"), 10)
            pair = (_probability(got.text),) * 2 if got.exact else \
                (_probability(got.lower), _probability(got.upper))
            texts.append(got.text if got.exact else (got.lower, got.upper))
            assert pair[0] <= pair[1]
        zero = compose([(comp, 3)], "0", 10)
        _probability(zero.text if zero.exact else zero.upper)
        inv = compose_epsilon([(comp, 3)], "0.01", 10)
        for t in ((inv.text,) if inv.exact else (inv.lower, inv.upper)):
            assert t == "inf" or Fraction(t) >= 0
        if name != "discrete-laplace":
            assert len(set(texts)) == 1, texts
        if previous is not None:
            assert previous[0] <= pair[1], (e, previous, pair)
        previous = pair


def test_gaussian_renyi_is_alpha_mu_at_every_scale():
    """alpha Delta^2 / (2 sigma^2), the same digits at Delta = 1e-60 and 1e60."""
    for e in ("1e-300", "1e-3", "1/2", "7", "1e100"):
        m = MECHANISMS["analytic-gaussian"](eps=e, delta="1e-5")
        text = renyi(m, 3, digits=15).text
        sigma = _mp(m.value("sigma", digits=40).text)
        with workdps(40):
            assert _agree(text, 3 / (2 * sigma**2))
        for sens in ("1e-60", "1e60"):
            assert renyi(MECHANISMS["analytic-gaussian"](eps=e, delta="1e-5", Delta=sens),
                         3, digits=15).text == text


def test_closed_forms_agree_with_the_generic_sums():
    """The closed forms (dpsym.accounting.renyi.closed_form) and the generic piecewise sums of the
    same noise give the same certified digits (orders 2, 7/3, 1, inf)."""
    for m in (Laplace(eps="2/3"), Staircase(eps=3), Staircase(eps="1/5"),
              MECHANISMS["discrete-laplace"](eps="3/2", Delta=4)):
        closed = closed_form(m, "amplitude", 25)
        assert closed is not None
        noise = m.numeric_noise("amplitude", None, 35)
        for o in (Fraction(2), Fraction(7, 3), Fraction(1), math.inf):
            if o == 1 and closed.kl is None:
                continue
            generic = noise_renyi(noise, m.values["Delta"], o, 25)
            assert closed.renyi(o, 25, m.values["Delta"]).text == generic.text, (m, o)
