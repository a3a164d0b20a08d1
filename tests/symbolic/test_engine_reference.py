"""The engine against independent computations from the definitions (tests/reference.py).

Every closed form the engine derives is compared with mpmath quadrature or summation of
the density written directly from the source definition, at 30 or more digits.
"""

from __future__ import annotations

import functools

import mpmath
import pytest
import reference as ref
import sympy as sp
from reference import staircase_cost_by_sympy_sum

from dpsym import DiscreteLaplace, DiscreteStaircase, Laplace, Staircase
from dpsym.certified.rounding import format_digits
from dpsym.mechanisms import MECHANISMS
from dpsym.symbolic.noise import GeometricTail, Piece, SymmetricNoise
from dpsym.symbolic.numerics import evaluate
from dpsym.symbols import NORM, Delta, b, eps, gamma, in_eps, r

DIGITS = 30


def close(a, b_, digits: int = DIGITS) -> bool:
    return abs(a - b_) <= mpmath.mpf(10) ** (-digits) * max(abs(a), abs(b_), 1e-300)


@pytest.mark.parametrize("name", list(MECHANISMS))
def test_normalised_noise_has_total_mass_one(name):
    mech = MECHANISMS[name]
    mass = mech.engine.noise().total_mass()
    # powsimp(force): the calibrated parameters are positive on the declared domains
    mass = sp.powsimp(sp.together(mass.rewrite(sp.exp)), force=True)
    assert sp.simplify(mass - 1) == 0


@pytest.mark.parametrize(("e", "D", "g"), [("0.5", "1", "0.3"), ("2", "1.5", "0.8"),
                                           ("7", "3", "0.05")])
@pytest.mark.parametrize("p", [1, 2, 3, sp.Rational(3, 2), sp.Rational(1, 3)])
def test_staircase_moment_matches_summation(e, D, g, p):
    expr = Staircase.engine.moment(p)
    with mpmath.workdps(DIGITS + 15):
        point = {eps: sp.Rational(e), Delta: sp.Rational(D), gamma: sp.Rational(g)}
        got = evaluate(expr, point)
        want = ref.staircase_cost(mpmath.mpf(sp.Rational(e)), mpmath.mpf(sp.Rational(D)),
                                  mpmath.mpf(sp.Rational(g)), mpmath.mpf(p))
    assert close(got, want)


def test_staircase_moment_matches_quadrature():
    with mpmath.workdps(40):
        got = evaluate(Staircase.engine.moment(2), {eps: 1, Delta: 2, gamma: sp.Rational(1, 4)})
        want = ref.staircase_cost(1, 2, mpmath.mpf(1) / 4, 2, quad=True)
    assert close(got, want)


@pytest.mark.parametrize(("e", "D"), [("0.3", 1), ("1", 2), ("4", 3)])
@pytest.mark.parametrize("p", [1, 2, sp.Rational(5, 2)])
def test_laplace_moment_matches_quadrature(e, D, p):
    with mpmath.workdps(DIGITS + 10):
        got = evaluate(Laplace.engine.moment(p), {eps: sp.Rational(e), Delta: D})
        want = ref.laplace_cost(mpmath.mpf(sp.Rational(e)), D, mpmath.mpf(p))
    assert close(got, want)


@pytest.mark.parametrize(("e", "D", "rr"), [("0.4", 1, 1), ("1", 3, 2), ("2.5", 4, 1),
                                            ("0.7", 5, 5)])
@pytest.mark.parametrize("p", [1, 2, 3])
def test_discrete_staircase_moment_matches_summation(e, D, rr, p):
    with mpmath.workdps(DIGITS + 10):
        got = evaluate(DiscreteStaircase.engine.moment(p), {eps: sp.Rational(e), Delta: D, r: rr})
        want = ref.lattice_cost(ref.discrete_staircase_mass(mpmath.mpf(sp.Rational(e)), D, rr),
                                p, sp.Rational(e), D)
    assert close(got, want)


@pytest.mark.parametrize(("e", "D"), [("0.4", 1), ("1", 3), ("3", 2)])
@pytest.mark.parametrize("p", [1, 2, 4])
def test_discrete_laplace_moment_matches_summation(e, D, p):
    with mpmath.workdps(DIGITS + 10):
        got = evaluate(DiscreteLaplace.engine.moment(p), {eps: sp.Rational(e), Delta: D})
        e_mp = mpmath.mpf(sp.Rational(e))
        want = ref.lattice_cost(ref.discrete_laplace_mass(e_mp, D), p, e_mp / D, 1)
    assert close(got, want)


@pytest.mark.parametrize("cost", ["amplitude", "power", "moment:3/2", "moment:3"])
@pytest.mark.parametrize("e", ["0.2", "2", "9"])
def test_staircase_optimum_matches_independent_minimisation(cost, e):
    from dpsym.core.costs import parse_cost

    power = parse_cost(cost).exponent
    mech = Staircase(eps=e, Delta="1.5")
    got_cost = mech.value("cost", cost, 40)
    got_gamma = mech.value("gamma", cost, 40)
    with mpmath.workdps(60):
        e_mp, p_mp = mpmath.mpf(sp.Rational(e)), mpmath.mpf(power)
        best = ref.minimise(lambda g: ref.staircase_cost(e_mp, 1.5, g, p_mp), 0, 1)
        want = ref.staircase_cost(e_mp, 1.5, best, p_mp)
        assert format_digits(want, 40) == got_cost.text
        # the minimiser is known to half the working precision
        assert abs(best - got_gamma.number) < mpmath.mpf(10) ** -25


@pytest.mark.parametrize(("e", "D"), [("0.3", 3), ("1", 5), ("3", 4), ("0.05", 6)])
@pytest.mark.parametrize("cost", ["amplitude", "power", "moment:1/2"])
def test_discrete_staircase_optimum_is_the_best_integer(e, D, cost):
    from dpsym.core.costs import parse_cost

    power = parse_cost(cost).exponent
    mech = DiscreteStaircase(eps=e, Delta=D)
    got = mech.value("cost", cost, 30)
    rstar = int(mech.value("r", cost, 30).text)
    with mpmath.workdps(45):
        e_mp = mpmath.mpf(sp.Rational(e))
        costs = {rr: ref.lattice_cost(_staircase_masses(e, D, rr), mpmath.mpf(power), e_mp, D)
                 for rr in range(1, D + 1)}
    best = min(costs, key=costs.__getitem__)
    assert rstar == best
    assert format_digits(costs[best], 30) == got.text


@functools.cache
def _staircase_masses(e: str, D: int, rr: int):
    """``ref.discrete_staircase_mass`` at 45 digits with its values kept: the three costs
    of a case sum the very same masses (the same mpf values, read once)."""
    with mpmath.workdps(45):
        return functools.cache(ref.discrete_staircase_mass(mpmath.mpf(sp.Rational(e)), D, rr))


def test_discrete_staircase_with_unit_sensitivity_is_discrete_laplace():
    for cost in ("amplitude", "power"):
        ds = DiscreteStaircase.cost_function(cost).subs({Delta: 1, r: 1})
        dl = DiscreteLaplace.cost_function(cost).subs(Delta, 1)
        assert sp.simplify(in_eps(ds) - dl.rewrite(sp.exp)) == 0


def test_changing_the_density_changes_the_derived_cost():
    """A three-step variant of the staircase: the engine derives its own cost."""

    class ThreeStep(Staircase):
        name = "three-step"

        @classmethod
        def _noise_shape(cls) -> SymmetricNoise:
            half = (1 + gamma) / 2
            period = (Piece(0, gamma * Delta, NORM),
                      Piece(gamma * Delta, half * Delta, NORM * sp.sqrt(b)),
                      Piece(half * Delta, Delta, NORM * b))
            return SymmetricNoise(lattice=False,
                                  tail=GeometricTail(0, Delta, b, period))

    point = {eps: sp.Rational(3, 2), Delta: 1, gamma: sp.Rational(2, 5)}
    with mpmath.workdps(40):
        # the amplitude costs differ: their values at a point differ in the third digit
        # (a proof that the functions differ, where "simplify leaves a nonzero
        # difference" is not one)
        assert not close(evaluate(ThreeStep.cost_function("amplitude"), point),
                         evaluate(Staircase.cost_function("amplitude"), point), 3)
        got = evaluate(ThreeStep.cost_function("power"), point)
        bb = mpmath.exp(-mpmath.mpf(3) / 2)
        g = mpmath.mpf(2) / 5
        mass = moment = mpmath.mpf(0)
        steps = ((0, g, 1), (g, (1 + g) / 2, mpmath.sqrt(bb)), ((1 + g) / 2, 1, bb))
        # on [k + lo, k + hi], x = k + u: the integral of x^2 is k^2 I_0 + 2 k I_1 + I_2,
        # I_j the quadrature of u^j over [lo, hi] (once per step)
        quads = [[mpmath.quad(lambda u, j=j: u**j, [lo, hi]) for j in range(3)]
                 for lo, hi, _ in steps]
        # the periods k >= 100 weigh below b^100 (k + 1)^2 / (1 - b)^3 < 1e-60: far
        # inside the 30 digits compared
        for k in range(100):
            for (lo, hi, level), (i0, i1, i2) in zip(steps, quads, strict=True):
                mass += bb**k * level * (hi - lo)
                moment += bb**k * level * (k**2 * i0 + 2 * k * i1 + i2)
        assert close(got, moment / mass)
        assert not close(got, evaluate(Staircase.cost_function("power"), point), 3)


def test_closed_forms_are_derived_for_amplitude_and_power():
    for cost in ("amplitude", "power"):
        assert Staircase.optimal_parameter(cost) is not None
        assert Staircase.optimal_cost(cost) is not None


def test_slide_statements_part_one():
    """000 Part One: the printed optimal costs, confirmed from the engine's derivation."""
    v1 = in_eps(Staircase.optimal_cost("amplitude"))
    assert sp.simplify(v1 - Delta * sp.exp(eps / 2) / (sp.exp(eps) - 1)) == 0
    v2 = Staircase.optimal_cost("power")
    slide = Delta**2 * (2 ** sp.Rational(-2, 3) * b ** sp.Rational(2, 3)
                        * (1 + b) ** sp.Rational(2, 3) + b) / (1 - b) ** 2
    with mpmath.workdps(50):
        for bb in ("0.001", "0.3", "0.77", "0.999"):
            pt = {b: sp.Rational(bb), Delta: sp.Rational(3, 2)}
            assert close(evaluate(v2, pt), evaluate(slide, pt), 45)
    assert Laplace.optimal_cost("amplitude") == Delta / eps
    assert Laplace.optimal_cost("power") == 2 * Delta**2 / eps**2
    lam = sp.exp(-eps / Delta)
    assert sp.simplify(DiscreteLaplace.normalisation() - (1 - lam) / (1 + lam)) == 0


def in_b(expr: sp.Expr) -> sp.Expr:
    r"""``expr`` in :math:`b = e^{-\varepsilon}` alone (:math:`\varepsilon = -\log b`).
    The map :math:`\varepsilon \mapsto b` is a continuous decreasing bijection of
    :math:`(0, \infty)` onto :math:`(0, 1)`, so a limit as :math:`\varepsilon \to 0^+`
    (:math:`\infty`) is the limit as :math:`b \to 1^-` (:math:`0^+`): sympy takes those of
    the algebraic forms in :math:`b` in a fifth of the time of those in
    :math:`e^{-\varepsilon}`."""
    found = sp.sympify(expr).subs(eps, -sp.log(b))
    assert eps not in found.free_symbols
    return found


@pytest.mark.parametrize("cost", ["amplitude", "power"])
def test_gamma_limits(cost):
    g = in_b(Staircase.optimal_parameter(cost))
    assert sp.limit(g, b, 1, "-") == sp.Rational(1, 2)  # eps -> 0+
    assert sp.limit(g, b, 0, "+") == 0  # eps -> oo


@pytest.mark.parametrize(("cost", "tol"), [("moment:3", 1e-3), ("moment:1/2", 1e-2)])
def test_gamma_limits_numerically(cost, tol):
    near_zero = Staircase(eps="1e-3").value("gamma", cost, 20).number
    assert abs(near_zero - mpmath.mpf(1) / 2) < tol
    far = [Staircase(eps=e).value("gamma", cost, 20).number for e in ("20", "40")]
    assert far[1] < far[0] < 1e-2


def test_additive_gaps_to_laplace():
    gap1 = in_b(Laplace.optimal_cost("amplitude") - Staircase.optimal_cost("amplitude"))
    gap2 = in_b(Laplace.optimal_cost("power") - Staircase.optimal_cost("power"))
    assert sp.limit(gap1, b, 1, "-") == 0  # eps -> 0+ (in_b)
    limit2 = sp.simplify(sp.limit(gap2, b, 1, "-"))
    small = sp.Rational(1, 10**6)
    gstar = sp.Rational(Staircase(eps=small).value("gamma", "power", 30).text)
    numeric = 2 / mpmath.mpf(small) ** 2 - staircase_cost_by_sympy_sum(small, 1, gstar, 2, 60)
    assert abs(numeric - sp.N(limit2.subs(Delta, 1), 30)) < 1e-6
    assert limit2 == Delta**2 / 12


@pytest.mark.parametrize(("name", "params", "cost"), [
    ("staircase", {"eps": "0.75"}, "power"),
    ("staircase", {"eps": "30"}, "moment:5/2"),
    ("laplace", {"eps": "0.1", "Delta": "2"}, "amplitude"),
    ("discrete-laplace", {"eps": "1.3", "Delta": 2}, "power"),
    ("discrete-staircase", {"eps": "0.9", "Delta": 4}, "amplitude"),
])
def test_values_identical_at_every_precision(name, params, cost):
    mech = MECHANISMS[name](**params)
    fine = mech.value("cost", cost, 60)
    for digits in (5, 17, 33):
        assert mech.value("cost", cost, digits).text == format_digits(fine.number, digits)


@pytest.mark.parametrize("e", ["1e-6", "0.001", "50"])
@pytest.mark.parametrize("power", [1, 2])
def test_staircase_values_across_the_eps_range(e, power):
    cost = "amplitude" if power == 1 else "power"
    mech = Staircase(eps=e)
    got = mech.value("cost", cost, 40)
    gstar = mech.value("gamma", cost, 40)

    def at(g):
        return staircase_cost_by_sympy_sum(sp.Rational(e), 1, g, power, 90)

    want = at(sp.Rational(gstar.text))
    assert format_digits(want, 40) == got.text
    # optimality: moving gamma either way costs more
    g = sp.Rational(gstar.text)
    h = max(g, sp.Rational(1, 10**12)) / 10**6
    assert at(g - h) > want < at(g + h)
