"""Property tests drawn from the parameters' declared typical ranges (hypothesis).

* the staircase never costs more than Laplace noise (it is optimal among eps-DP noises);
  the discrete staircase never more than the discrete Laplace;
* costs of |x|^p scale as Delta^p for the continuous mechanisms;
* optimal costs decrease as eps grows;
* values are identical at every precision once rounded.
"""

from __future__ import annotations

from fractions import Fraction

import mpmath
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from dpsym import DiscreteLaplace, DiscreteStaircase, Laplace, Staircase
from dpsym.symbolic.numerics import format_digits

SETTINGS = settings(max_examples=12, deadline=None, derandomize=True,
                    suppress_health_check=[HealthCheck.too_slow])


def typical(mechanism, name: str) -> st.SearchStrategy[Fraction]:
    """Decimal values (4 significant digits) log-uniform in the declared typical range."""
    prm = next(q for q in mechanism.params if q.name == name)
    lo, hi = (mpmath.log10(mpmath.mpf(v)) for v in prm.typical)
    return st.floats(float(lo), float(hi)).map(lambda e: Fraction(f"{10**e:.4g}"))


COSTS = st.sampled_from(["amplitude", "power", "moment:3", "moment:1/2"])


@SETTINGS
@given(e=typical(Staircase, "eps"), D=typical(Staircase, "Delta"), cost=COSTS)
def test_staircase_beats_laplace(e, D, cost):
    stair = Staircase(eps=e, Delta=D).value("cost", cost, 20).number
    lap = Laplace(eps=e, Delta=D).value("cost", cost, 20).number
    assert stair <= lap


@SETTINGS
@given(e=typical(DiscreteStaircase, "eps"), D=st.integers(1, 6),
       cost=st.sampled_from(["amplitude", "power"]))
def test_discrete_staircase_beats_discrete_laplace(e, D, cost):
    stair = DiscreteStaircase(eps=e, Delta=D).value("cost", cost, 20).number
    geo = DiscreteLaplace(eps=e, Delta=D).value("cost", cost, 20).number
    assert stair <= geo * (1 + mpmath.mpf(10) ** -18)


@SETTINGS
@given(e=typical(Staircase, "eps"), D=typical(Staircase, "Delta"),
       cost=st.sampled_from(["amplitude", "power", "moment:5/2"]),
       mech=st.sampled_from([Staircase, Laplace]))
def test_cost_scales_as_sensitivity_to_the_power_p(e, D, cost, mech):
    from dpsym.core.costs import parse_cost

    p = parse_cost(cost).exponent
    one = mech(eps=e, Delta=1).value("cost", cost, 25).number
    scaled = mech(eps=e, Delta=D).value("cost", cost, 25).number
    with mpmath.workdps(30):
        expected = one * (mpmath.mpf(D.numerator) / D.denominator) ** mpmath.mpf(p)
        assert abs(scaled - expected) <= mpmath.mpf(10) ** -22 * expected


@SETTINGS
@given(e=typical(Staircase, "eps"), cost=COSTS)
def test_optimal_cost_decreases_with_eps(e, cost):
    lower = Staircase(eps=e).value("cost", cost, 20).number
    higher = Staircase(eps=e * Fraction(11, 10)).value("cost", cost, 20).number
    assert higher < lower


@pytest.mark.parametrize("mech", [Staircase, Laplace, DiscreteLaplace, DiscreteStaircase])
@SETTINGS
@given(data=st.data())
def test_rounding_is_precision_independent(mech, data):
    e = data.draw(typical(mech, "eps"))
    cost = data.draw(st.sampled_from(["amplitude", "power"]))
    fine = mech(eps=e).value("cost", cost, 45)
    for digits in (3, 16, 30):
        assert mech(eps=e).value("cost", cost, digits).text == format_digits(fine.number, digits)
