r"""Property tests of the approximate-DP mechanisms, drawn from their declared typical
ranges (hypothesis; see tests/test_properties.py for the pure-DP ones).

* values are identical at every precision once rounded;
* the cost of :math:`|x|^p` scales as :math:`\Delta^p` (continuous mechanisms);
* costs decrease as :math:`\delta` grows and as :math:`\varepsilon` grows;
* lower bound <= truncated Laplacian <= Laplace, and the truncated Laplacian is no worse
  than the analytic Gaussian on the paper's plotted range.
"""

from __future__ import annotations

from fractions import Fraction

import mpmath
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from dpsym import (
    AnalyticGaussian,
    ClassicGaussian,
    DiscreteUniform,
    Laplace,
    TruncatedLaplace,
    UniformMass,
)
from dpsym.bounds import BOUNDS
from dpsym.mechanisms import MECHANISMS
from dpsym.symbolic.numerics import format_digits

SETTINGS = settings(max_examples=8, deadline=None, derandomize=True,
                    suppress_health_check=[HealthCheck.too_slow])
MECHS = [TruncatedLaplace, UniformMass, DiscreteUniform, ClassicGaussian, AnalyticGaussian]


def typical(mechanism, name: str) -> st.SearchStrategy[Fraction]:
    """Decimal values (4 significant digits) log-uniform in the declared typical range."""
    prm = next(q for q in mechanism.params if q.name == name)
    lo, hi = (mpmath.log10(mpmath.mpf(v)) for v in prm.typical)
    return st.floats(float(lo), float(hi)).map(lambda e: Fraction(f"{10**e:.4g}"))


def draw_params(data, mech) -> dict[str, Fraction]:
    return {prm.name: data.draw(typical(mech, prm.name)) for prm in mech.params
            if prm.name != "Delta"}


@pytest.mark.parametrize("mech", MECHS, ids=[m.name for m in MECHS])
@SETTINGS
@given(data=st.data())
def test_rounding_is_precision_independent(mech, data):
    values = draw_params(data, mech)
    cost = data.draw(st.sampled_from(["amplitude", "power"]))
    fine = mech(**values).value("cost", cost, 45)
    for digits in (3, 16, 30):
        assert mech(**values).value("cost", cost, digits).text \
            == format_digits(fine.number, digits)


@pytest.mark.parametrize("mech", [TruncatedLaplace, UniformMass, ClassicGaussian,
                                  AnalyticGaussian], ids=lambda m: m.name)
@SETTINGS
@given(data=st.data())
def test_cost_scales_as_sensitivity_to_the_power_p(mech, data):
    values = draw_params(data, mech)
    sens = data.draw(st.sampled_from(["0.25", "3", "1e5"]))
    power = data.draw(st.sampled_from([1, 2, 3]))
    cost = f"moment:{power}"
    with mpmath.workdps(40):
        one = mech(**values, Delta=1).value("cost", cost, 30).number
        scaled = mech(**values, Delta=sens).value("cost", cost, 30).number
        assert abs(scaled / one - mpmath.mpf(sens) ** power) < mpmath.mpf(10) ** -25 * (
            mpmath.mpf(sens) ** power)


@pytest.mark.parametrize("mech", MECHS, ids=[m.name for m in MECHS])
@SETTINGS
@given(data=st.data())
def test_cost_decreases_in_delta_and_eps(mech, data):
    values = draw_params(data, mech)
    cost = data.draw(st.sampled_from(["amplitude", "power"]))
    base = mech(**values).value("cost", cost, 20).number
    more_delta = {**values, "delta": values["delta"] * Fraction(11, 10)}
    assert mech(**more_delta).value("cost", cost, 20).number <= base
    if "eps" in values and (mech is not ClassicGaussian or values["eps"] * 11 / 10 < 1):
        more_eps = {**values, "eps": values["eps"] * Fraction(11, 10)}
        assert mech(**more_eps).value("cost", cost, 20).number <= base


@SETTINGS
@given(e=typical(TruncatedLaplace, "eps"), d=typical(TruncatedLaplace, "delta"),
       cost=st.sampled_from(["amplitude", "power"]))
def test_lower_bound_below_truncated_laplace_below_laplace(e, d, cost):
    lower = BOUNDS["lower-bound"](eps=e, delta=d).value("cost", cost, 20).number
    tl = TruncatedLaplace(eps=e, delta=d).value("cost", cost, 20).number
    lap = Laplace(eps=e).value("cost", cost, 20).number
    assert lower <= tl <= lap


@SETTINGS
@given(e=st.floats(-4, 1).map(lambda v: Fraction(f"{10**v:.3g}")),
       d=st.floats(-6, -1).map(lambda v: Fraction(f"{10**v:.3g}")))
def test_truncated_laplace_beats_analytic_gaussian_on_the_papers_range(e, d):
    for cost in ("amplitude", "power"):
        tl = TruncatedLaplace(eps=e, delta=d).value("cost", cost, 15).number
        ag = AnalyticGaussian(eps=e, delta=d).value("cost", cost, 15).number
        assert tl < ag


MD_MECHS = [MECHANISMS[n] for n in ("staircase-md", "independent-staircase", "laplace-md",
                                     "discrete-laplace-md", "discrete-uniform-md")]


@pytest.mark.parametrize("mech", MD_MECHS, ids=[m.name for m in MD_MECHS])
@settings(max_examples=4, deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_multidimensional_properties(mech, data):
    """Precision independence, Delta^p scaling (continuous), and cost growing with d."""
    values = draw_params(data, mech)
    values.pop("dim", None)
    dim = data.draw(st.sampled_from([2, 3]))
    cost = data.draw(st.sampled_from(["amplitude", "power"]))
    fine = mech(**values, dim=dim).value("cost", cost, 40)
    assert mech(**values, dim=dim).value("cost", cost, 12).text == format_digits(
        fine.number, 12)
    if not mech.lattice:
        scaled = mech(**values, dim=dim, Delta="3").value("cost", cost, 30).number
        power = 1 if cost == "amplitude" else 2
        assert abs(scaled / fine.number - 3**power) < mpmath.mpf(10) ** -25
    assert mech(**values, dim=dim + 1).value("cost", cost, 20).number > fine.number
