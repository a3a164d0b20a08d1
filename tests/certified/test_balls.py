"""Ball arithmetic (:mod:`dpsym.certified.balls`): rigorous closed-form values.

A certified ball must print alike at every point (near ties and powers of ten included),
and the ball path of ``Mechanism.value`` must give
the very digits of the two-precision mpmath path for every mechanism, quantity and cost,
and of an independent summation of the staircase density under extreme cancellation.
"""

from __future__ import annotations

from fractions import Fraction

import flint
import mpmath
import pytest
import reference as ref
from hypothesis import given, settings
from hypothesis import strategies as st

from dpsym.certified import balls, kernel
from dpsym.certified.rounding import format_digits
from dpsym.errors import DomainError, DpsymError, UnsupportedError
from dpsym.mechanisms import MECHANISMS, Laplace, Staircase
from dpsym.symbols import Delta, eps

DIGITS = st.sampled_from([1, 2, 3, 5, 15, 16, 30, 40, 100])


def _near_decimal(kind: int, scale: int, offset: int) -> tuple[int, int]:
    """A binary number within a few units of 2**-60 of ``5 * 10**scale`` (kind 1, a
    rounding tie for one digit fewer) or ``10**scale`` (kind 2, a power of ten)."""
    target = 5 * 10 ** scale if kind % 2 else 10 ** scale
    return target * 2**60 + offset, -60


@settings(max_examples=400, deadline=None)
@given(man=st.integers(1, 2**300), sign=st.sampled_from([1, -1]),
       exp=st.integers(-700, 300), rad_man=st.integers(0, 2**30),
       rad_shift=st.integers(-250, 30), near=st.booleans(), scale=st.integers(0, 20),
       digits=DIGITS)
def test_a_certified_ball_prints_alike_at_every_point(man, sign, exp, rad_man, rad_shift,
                                                      near, scale, digits):
    if near:  # put the midpoint next to a rounding boundary
        man, exp = _near_decimal(digits, scale, man % 17 - 8)
    man *= sign
    rad_exp = exp + rad_shift
    with flint.ctx.workprec(max(64, abs(man).bit_length() + 8)):
        ball = flint.arb(flint.arb(man) * flint.arb(2) ** exp,
                         flint.arb(rad_man) * flint.arb(2) ** rad_exp)
    found = kernel.ball_rounding(ball, digits)
    if found is None:
        return
    text = kernel.Certified(ball, found, digits).text()
    with mpmath.workprec(abs(man).bit_length() + abs(rad_shift) + 200):
        mid = mpmath.mpf(man) * mpmath.mpf(2) ** exp
        rad = mpmath.mpf(rad_man) * mpmath.mpf(2) ** rad_exp
        for t in (-1, -0.75, -0.5, 0, 0.5, 0.75, 1):
            assert format_digits(mid + t * rad, digits) == text


# ---------------------------------------------------------------------- the two paths
EPS = ("1e-6", Fraction(1, 3), "3", "700")
DELTA = ("1e-12", "0.3", "0.5", "0.8")
COSTS = ("amplitude", "power", "moment:3")


def _points(cls):
    names = {prm.name for prm in cls.params}
    for e in EPS if "eps" in names else (None,):
        for d in DELTA if "delta" in names else (None,):
            kw = {"eps": e, "delta": d, "Delta": "3" if cls.lattice else "1.5"}
            yield {k: v for k, v in kw.items() if k in names and v is not None}


@pytest.mark.parametrize("name", sorted(MECHANISMS))
def test_the_ball_path_gives_the_mpmath_digits(name):
    cls = MECHANISMS[name]
    used = 0
    for kw in _points(cls):
        try:
            mech = cls(**kw)
        except DpsymError:
            continue
        for quantity in cls.quantities():
            for cost in COSTS:
                try:
                    ball = mech.value(quantity, cost, 30, method="ball")
                except UnsupportedError:
                    continue
                used += 1
                plain = mech.value(quantity, cost, 30, method="mpmath")
                assert ball.text == plain.text, (kw, quantity, cost)
                assert mech.value(quantity, cost, 30).text == ball.text  # auto takes it
    has_closed_form = any(cls.engine.closed_form(q, c) is not None
                          for q in cls.quantities() for c in ("amplitude", "power"))
    assert (used > 0) == has_closed_form or name == "analytic-gaussian"


def test_integer_parts_of_exact_parameters_are_exact():
    # n = ceil(Delta / delta) points: 100 at delta = 0.01 (101 in binary floating point)
    mech = MECHANISMS["discrete-uniform"](delta="0.01", Delta=1)
    assert mech.value("n", "power", 20, method="ball").text == "100.00000000000000000"


def test_a_piecewise_condition_at_its_boundary_is_decided_exactly():
    mech = MECHANISMS["uniform-mass"](delta="0.5", Delta=1)
    for quantity in MECHANISMS["uniform-mass"].quantities():
        for cost in ("amplitude", "power"):
            ball = mech.value(quantity, cost, 25, method="ball")
            assert ball.text == mech.value(quantity, cost, 25, method="mpmath").text


@pytest.mark.parametrize(("e", "d", "cost", "exact"), [
    (Fraction(1, 3), Fraction(2), "amplitude", Fraction(6)),
    (Fraction(1, 3), Fraction(2), "power", Fraction(72)),
    (Fraction(7, 2), Fraction(1, 5), "amplitude", Fraction(2, 35)),
])
def test_the_enclosure_contains_the_exact_value(e, d, cost, exact):
    expr = Laplace.formula("cost", cost)
    for prec in (20, 53, 300):
        ball = balls.enclosure(expr, {eps: e, Delta: d}, prec)
        with flint.ctx.workprec(prec + 64):  # exact ends
            lo, hi = (kernel.exact(end) for end in (ball.lower(), ball.upper()))
        assert lo <= exact <= hi
        assert hi - lo <= exact * Fraction(2) ** (8 - prec)  # and it is tight


@pytest.mark.parametrize("e", ["1e-12", "1e-30"])
def test_extreme_cancellation_against_independent_summation(e):
    # the closed form in b = e^{-eps} cancels ~log10(1/eps) digits in each 1 - b
    mech = Staircase(eps=e, Delta="1.5")
    gamma = mech.value("gamma", "power", 40, method="ball")
    cost = mech.value("cost", "power", 40, method="ball")
    with mpmath.workdps(120):
        exact_eps = Fraction(e)
        reference = ref.staircase_cost_by_sympy_sum(exact_eps, Fraction(3, 2),
                                                    Fraction(gamma.text), 2, dps=120)
        assert format_digits(reference, 40) == cost.text


def test_method_selection():
    with pytest.raises(UnsupportedError, match="ball"):
        MECHANISMS["discrete-staircase"](eps=1).value("cost", "power", 20, method="ball")
    with pytest.raises(UnsupportedError):
        MECHANISMS["analytic-gaussian"](eps=1, delta="1e-6").value(
            "sigma", "power", 20, method="ball")
    with pytest.raises(DomainError, match="method"):
        Staircase(eps=1).value("cost", "power", 20, method="quad")


def test_a_formula_the_balls_do_not_handle_is_declined():
    import sympy as sp

    x = sp.Symbol("x", positive=True)
    assert balls.ball_value(sp.Float(0.1) * x, {x: Fraction(1)}, 10) is None
    assert balls.ball_value(sp.besselj(0, x), {x: Fraction(3)}, 10) is None
    # Riemann's zeta is one the balls handle: zeta(3), Apery's constant
    assert balls.ball_value(sp.zeta(x), {x: Fraction(3)}, 10)[1] == "1.202056903"
    assert balls.ball_value(x + sp.Symbol("y"), {x: Fraction(1)}, 10) is None


def test_the_command_line_selects_the_method(capsys):
    from dpsym.cli import main

    texts = set()
    for method in ("auto", "ball", "mpmath"):
        assert main(["value", "truncated-laplace", "--cost", "power", "--eps", "0.25",
                     "--delta", "1e-9", "--digits", "35", "--method", method]) == 0
        texts.add(capsys.readouterr().out)
    assert len(texts) == 1
    assert main(["value", "discrete-staircase", "--eps", "1", "--method", "ball"]) == 2
    assert "no closed form" in capsys.readouterr().err
    assert main(["value", "lower-bound", "--eps", "1", "--delta", "0.1",
                 "--method", "ball"]) == 2
    assert capsys.readouterr().err.startswith("dpsym: error: method:")


@pytest.mark.parametrize("method", ["auto", "ball", "mpmath"])
def test_exact_values_on_a_tie_are_rounded_exactly(method):
    # 2 Delta^2 / eps^2 = 3.125 at eps = 0.8 and 1/40 = 0.025: any rounded evaluation may
    # fall on either side of the tie; the exact rational is rounded half away from zero
    assert Laplace(eps="0.8").value("cost", "power", 3, method=method).text == "3.13"
    mech = MECHANISMS["discrete-uniform"](delta="0.025", Delta=1)
    assert mech.value("P0", "power", 1, method=method).text == "0.03"


def test_parameters_are_read_only_so_prepared_plans_stay_valid():
    mech = Laplace(eps="0.5")
    assert mech.value("cost", "amplitude", 10).text == "2.000000000"
    with pytest.raises(TypeError):
        mech.values["eps"] = Fraction(2)
    assert mech.value("cost", "amplitude", 10).text == "2.000000000"
    assert Laplace(eps=2).value("cost", "amplitude", 10).text == "0.5000000000"


def test_values_and_instances_pickle():
    import copy
    import pickle

    value = Staircase(eps=1).value("cost", "power", 25)
    assert pickle.loads(pickle.dumps(value)) == value
    assert copy.deepcopy(value).text == value.text
    for mech in (Staircase(eps="0.5"), MECHANISMS["staircase-md"](eps=1, dim=3)):
        text = mech.value("cost", "amplitude", 20).text
        again = pickle.loads(pickle.dumps(mech))
        assert type(again) is type(mech)
        assert again.value("cost", "amplitude", 20).text == text


def test_a_missing_parameter_is_a_domain_error_on_every_path():
    for method in ("auto", "ball", "mpmath"):
        with pytest.raises(DomainError, match="eps"):
            Laplace(Delta=1).value("cost", "power", 10, method=method)


@pytest.mark.parametrize("e", [10**9, 10**20, 10**100])
def test_extreme_eps_values_print(e):
    # values like e^{-eps/2}: decimal exponents of up to 100 digits
    for method in ("ball", "mpmath"):
        text = Staircase(eps=e).value("cost", "amplitude", 12, method=method).text
        mantissa, exponent = text.split("e")
        # e^{-eps/2}: decimal exponent -eps / (2 ln 10) = -0.2171... eps
        assert len(mantissa.replace(".", "")) == 12 and e // 5 < -int(exponent) < e // 4
    assert Staircase(eps=10**20).value("cost", "amplitude", 10).text == \
        "2.776860445e-21714724095162591383"
