"""Certified evaluation (:mod:`dpsym.certified.evaluation`): the Value object, the method dispatch
(ball, mpmath, exact rationals), the numeric optimum and its limits.

References are independent of the engine's numeric path: closed forms typed from their
definitions and evaluated with mpmath at a precision well above the one asked for.
"""

from __future__ import annotations

import pickle

import mpmath
import pytest

from dpsym.certified import evaluation
from dpsym.certified.evaluation import MAX_INTEGER_SCAN, METHODS, Value
from dpsym.core.costs import parse_cost
from dpsym.errors import DomainError, UnsupportedError
from dpsym.mechanisms import DiscreteStaircase, Laplace, Staircase, UniformMass


def test_value_is_immutable_comparable_and_pickles():
    v = Value(mpmath.mpf("0.125"), "0.125", 3)
    assert (v.number, v.text, v.digits) == (mpmath.mpf("0.125"), "0.125", 3)
    assert v == pickle.loads(pickle.dumps(v)) and hash(v) == hash(Value(v.number, "0.125", 3))
    with pytest.raises(TypeError):
        Value(None, "1", 1)
    with pytest.raises(AttributeError):
        v.extra = 1  # slots


def test_the_methods_agree_and_the_ball_path_really_runs(monkeypatch):
    m = Staircase(eps="0.5", Delta=2)
    ball = m.value("cost", "power", 40, method="ball")
    slow = m.value("cost", "power", 40, method="mpmath")
    assert ball.text == slow.text and ball._source is not None and slow._source is None
    # with the numeric path broken, auto still answers: it takes the ball path
    monkeypatch.setattr(type(m), "_numeric_optimum", lambda *a: 1 / 0)
    assert Staircase(eps="0.5", Delta=2).value("cost", "power", 40).text == ball.text


def test_staircase_power_against_its_definition():
    r"""E X^2 of the staircase at its optimal gamma: the certified cost is the minimum over
    gamma of the cost typed here from the density (a b^k on [k, k + gamma) Delta, a b^{k+1}
    on [k + gamma, k + 1) Delta, summed over the periods by mpmath.nsum), its stationary
    point found by mpmath.findroot."""
    e, D = mpmath.mpf("0.5"), mpmath.mpf(2)
    with mpmath.workdps(60):
        bb = mpmath.exp(-e)

        def cost(g):  # E X^2 = 2 sum_k integral over the period, a(g) normalising
            a = (1 - bb) / (2 * D * (g + bb * (1 - g)))
            period = lambda k: (a * ((k + g) ** 3 - k**3) + a * bb * ((k + 1) ** 3  # noqa: E731
                                - (k + g) ** 3)) * D**3 / 3 * bb**k
            return 2 * mpmath.nsum(period, [0, mpmath.inf])

        g_star = mpmath.findroot(lambda g: mpmath.diff(cost, g), 0.4)
        want = cost(g_star)
    got = Staircase(eps="0.5", Delta=2).value("cost", "power", 30, method="mpmath")
    assert abs(got.number - want) < mpmath.mpf(10) ** -28 * want


def test_an_exact_rational_is_rounded_exactly_on_every_path():
    # Laplace's power 2/eps^2 is rational: 3.125 rounds to 3.13 (half away from zero)
    for method in METHODS:
        v = Laplace(eps="0.8").value("cost", "power", 3, method=method)
        assert v.text == "3.13"  # 2/0.8^2 = 3.125 exactly


def test_an_integer_free_parameter_prints_as_an_integer_and_is_scanned_within_limits():
    v = DiscreteStaircase(eps=1, Delta=7).value("r", "amplitude", 10)
    assert v.text.isdigit() and 1 <= int(v.text) <= 7
    assert MAX_INTEGER_SCAN == 4096
    with pytest.raises(DomainError):
        DiscreteStaircase(eps=1, Delta=MAX_INTEGER_SCAN + 1)


def test_errors_name_the_parameter():
    m = Staircase(eps=1)
    with pytest.raises(DomainError, match="method"):
        m.value("cost", "amplitude", 10, method="fast")
    with pytest.raises(DomainError, match="quantity"):
        m.value("sigma")
    with pytest.raises(DomainError, match="eps"):
        Staircase().value()
    with pytest.raises(UnsupportedError):
        DiscreteStaircase(eps=1, Delta=3).value("r", "amplitude", 10, method="ball")


def test_guard_digits_grow_as_eps_shrinks():
    small = evaluation.guard_digits(Staircase(eps="1e-6"), parse_cost("power"))
    assert evaluation.guard_digits(Staircase(eps=2), parse_cost("power")) == 0
    assert small == 15 + 6 * (2 + 2)


def test_a_derived_parameter_of_the_optimum():
    # uniform-with-mass: the derived parameters at the optimal alpha, against the ball path
    m = UniformMass(delta="0.2", Delta=1)
    for q in m.quantities():
        assert m.value(q, "amplitude", 20, method="mpmath").text == \
            m.value(q, "amplitude", 20).text
