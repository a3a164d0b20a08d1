"""The ``dpsym[accounting]`` adapter (:mod:`dpsym.accounting.pld`): dp_accounting's composed
delta from a pessimistic dpsym PLD lies above dpsym's exact (or lower-bound) delta and
converges to it; the RDP curve feeds dp_accounting's RDP accountant."""

from __future__ import annotations

import importlib.util
import math
from fractions import Fraction

import mpmath
import pytest

from dpsym import Laplace, Staircase
from dpsym.accounting.composition import component, compose, compose_epsilon
from dpsym.accounting.renyi import renyi
from dpsym.mechanisms import MECHANISMS
from dpsym.precision import workdps

#: dp_accounting (and scipy's signal and stats, which it imports) is imported by the
#: tests that use it, on one worker, not by every worker that collects this module.
pytestmark = [
    pytest.mark.skipif(importlib.util.find_spec("dp_accounting") is None,
                       reason="dp_accounting is not installed (pip install '.[accounting]')"),
    pytest.mark.xdist_group("dp_accounting"),
]


@pytest.fixture(scope="module")
def dpa():
    """dp_accounting."""
    import dp_accounting
    import dp_accounting.pld.privacy_loss_distribution
    import dp_accounting.rdp

    return dp_accounting


@pytest.fixture(scope="module")
def adapter(dpa):
    """The adapter, :mod:`dpsym.accounting.pld`."""
    import dpsym.accounting.pld

    return dpsym.accounting.pld


@pytest.mark.parametrize(("mechanism", "count", "target"), [
    (Staircase(eps=1), 10, 3.0),
    (MECHANISMS["discrete-staircase"](eps=1, Delta=3), 5, 2.0),
    (MECHANISMS["discrete-laplace"](eps="1/2", Delta=2), 8, 1.5),
])
def test_pessimistic_pld_lies_above_the_exact_delta_and_converges(mechanism, count, target,
                                                                  adapter):
    exact = float(compose([(component(mechanism), count)], repr(target), 15).text)
    gaps = []
    for h in ("1e-1", "1e-2", "1e-3"):
        composed = adapter.to_pld(mechanism, h).self_compose(count).get_delta_for_epsilon(target)
        assert composed >= exact * (1 - 1e-12)
        gaps.append(composed - exact)
    assert gaps[-1] <= gaps[0] + 1e-12 and gaps[-1] < 1e-3 * exact + 1e-12


def test_continuous_loss_pld_above_the_lower_bound_and_converging(adapter):
    lap = Laplace(eps=1)
    bounds = compose([(component(lap), 4)], "2", 12, interval="1/1000")
    previous = None
    for h in ("1e-2", "1e-3"):
        value = adapter.to_pld(lap, h).self_compose(4).get_delta_for_epsilon(2.0)
        assert value >= float(bounds.lower) * (1 - 1e-12)
        if previous is not None:
            assert value <= previous
        previous = value
    assert previous - float(bounds.upper) < 2e-3


def test_compose_with_dp_accountings_own_gaussian(adapter, dpa):
    h = 1e-3
    staircase = adapter.to_pld(Staircase(eps=1), "1e-3")
    gauss = dpa.pld.privacy_loss_distribution.from_gaussian_mechanism(
        5.0, value_discretization_interval=h)
    mixed = staircase.self_compose(3).compose(gauss.self_compose(2))
    assert 0 < mixed.get_delta_for_epsilon(2.0) < 1
    accountant = adapter.PLDAccountant(value_discretization_interval=h)
    accountant.compose(adapter.MechanismEvent(Staircase(eps=1)), 3)
    accountant.compose(dpa.GaussianDpEvent(5.0), 2)
    assert abs(accountant.get_delta(2.0) - mixed.get_delta_for_epsilon(2.0)) < 1e-7


def test_rdp_curve_in_the_rdp_accountant(adapter, dpa):
    orders = [1.5, 2, 4, 16]
    curve = adapter.rdp_curve(Laplace(eps=1), orders)
    for order, value in zip(orders, curve, strict=True):
        exact = float(renyi(Laplace(eps=1), repr(float(order)), digits=17).text)
        assert exact <= value <= exact * (1 + 1e-15)
    ours = adapter.RdpAccountant(orders)
    ours.compose(adapter.MechanismEvent(Laplace(eps=1)), 5)
    theirs = dpa.rdp.RdpAccountant(orders)
    theirs.compose(dpa.LaplaceDpEvent(1.0), 5)
    assert abs(ours.get_epsilon(1e-6) - theirs.get_epsilon(1e-6)) < 1e-9
    truncated = MECHANISMS["truncated-laplace"](eps=1, delta="0.1")
    assert adapter.rdp_curve(truncated, [2])[0] == float("inf")


def test_dp_accountings_own_laplace_lies_above_dpsyms_lower_bound(dpa):
    bounds = compose([(component(Laplace(eps=1)), 5)], "2", 12, interval="1/1000")
    theirs = dpa.pld.privacy_loss_distribution.from_laplace_mechanism(
        1.0, value_discretization_interval=1e-4).self_compose(5).get_delta_for_epsilon(2.0)
    assert float(bounds.lower) <= theirs
    assert theirs - float(bounds.lower) < 1e-3


def _laplace_closed_form(e, a):
    return mpmath.log(a / (2 * a - 1) * mpmath.exp((a - 1) * e)
                      + (a - 1) / (2 * a - 1) * mpmath.exp(-a * e)) / (a - 1)


def test_rdp_curve_is_an_upper_bound_at_every_default_order(adapter, dpa):
    """At dp_accounting's default orders (1.1, 1.2, ... are not dyadic) each value is at
    least the exact divergence at the order's exact binary value, and at most two floats
    above it (the old float step alpha - 1 gave values below it)."""
    orders = dpa.rdp.rdp_privacy_accountant.DEFAULT_RDP_ORDERS
    curve = adapter.rdp_curve(Laplace(eps=1))
    with workdps(50):
        for order, value in zip(orders, curve, strict=True):
            exact = _laplace_closed_form(mpmath.mpf(1), mpmath.mpf(Fraction(order).numerator)
                                         / Fraction(order).denominator)
            assert mpmath.mpf(value) >= exact
            assert math.nextafter(math.nextafter(float(exact), math.inf), math.inf) >= value


@pytest.mark.parametrize("mechanism", [Staircase(eps=1),
                                       MECHANISMS["discrete-laplace"](eps=1, Delta=3)])
def test_rdp_curve_upper_bound_at_non_dyadic_orders(mechanism, adapter):
    orders = [1.1, 1.01, 7.3, 13 / 7]
    curve = adapter.rdp_curve(mechanism, orders)
    for order, value in zip(orders, curve, strict=True):
        exact = renyi(mechanism, Fraction(order), digits=40)  # at the float's exact value
        assert Fraction(value) >= adapter.certified_upper(exact.text)  # above the whole enclosure
        close = float(exact.text)
        for _ in range(3):
            close = math.nextafter(close, math.inf)
        assert value <= close


def test_float_rounding_is_directed(adapter):
    third = Fraction(1, 3)
    assert Fraction(adapter.float_down(third)) < third < Fraction(adapter.float_up(third))
    assert math.nextafter(adapter.float_down(third), math.inf) == adapter.float_up(third)
    assert adapter.float_up(Fraction(1, 4)) == adapter.float_down(Fraction(1, 4)) == 0.25
    assert adapter.certified_upper("0.123") == Fraction(1235, 10000)
    assert adapter.certified_upper("1.5e-7") == Fraction(155, 10**9)


def test_pld_grid_is_the_floats_exact_value(adapter):
    """dp_accounting multiplies the bins by the float interval: the losses are binned on
    that float's exact grid, so the pessimistic PLD still lies above the exact delta."""
    mechanism = MECHANISMS["discrete-laplace"](eps=1, Delta=3)
    exact = float(compose([(component(mechanism), 4)], "1.3", 15).text)
    for h in ("0.3", "0.07", "1e-3"):
        composed = adapter.to_pld(mechanism, h).self_compose(4).get_delta_for_epsilon(1.3)
        assert composed >= exact


def test_thousand_laplace_releases_between_dp_accountings_two_estimates(dpa):
    """dpsym's bounds for 1000 Laplace releases against dp_accounting's own Laplace PLDs
    (an independent implementation): its pessimistic epsilon is above dpsym's lower bound,
    its optimistic one below dpsym's upper bound, and the pessimistic one within
    dpsym's interval here."""
    got = compose_epsilon([(component(Laplace(eps=1)), 1000)], "1e-6", 10)
    theirs = {}
    for pessimistic in (True, False):
        pld = dpa.pld.privacy_loss_distribution.from_laplace_mechanism(
            1.0, value_discretization_interval=1e-3, pessimistic_estimate=pessimistic,
            use_connect_dots=pessimistic)
        theirs[pessimistic] = pld.self_compose(1000).get_epsilon_for_delta(1e-6)
    assert float(got.lower) <= theirs[True] <= float(got.upper)
    assert theirs[False] <= float(got.upper)


def test_the_exported_pld_is_scale_free_and_right_at_large_eps(adapter):
    """Laplace at Delta = 1e-45 exports the PLD of Delta = 1 (dp_accounting's delta(3)
    after 10 releases 0.4737, not 71.3), and the staircase at eps = 190 the law of its
    losses (-eps, 0, eps): delta(100) = 1, eps for delta 1/2 about 190 - log 2."""
    deltas = []
    for sens in ("1e-45", "1"):
        acc = adapter.PLDAccountant(value_discretization_interval=1e-3)
        acc.compose(adapter.MechanismEvent(Laplace(eps=1, Delta=sens)), 10)
        deltas.append(acc.get_delta(3.0))
    assert deltas[0] == deltas[1]
    exact = compose([(component(Laplace(eps=1)), 10)], 3, 10)
    assert float(exact.lower) <= deltas[0] < float(exact.upper) + 1e-3
    pld = adapter.to_pld(Staircase(eps=190), "1e-3")
    assert pld.get_delta_for_epsilon(100.0) == pytest.approx(1.0, abs=1e-12)
    assert pld.get_epsilon_for_delta(0.5) == pytest.approx(190 - math.log(2), abs=2e-3)
    assert adapter.rdp_curve(Staircase(eps=200), [2.0])[0] == pytest.approx(200.0, rel=1e-12)
