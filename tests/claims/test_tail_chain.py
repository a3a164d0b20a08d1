r"""Tests of :mod:`dpsym.claims.tail_chain`: the chains' closed forms against their
recursions iterated exactly, the bounds against direct finite sums, and the
:math:`(0, \delta)` bound against a linear program over symmetric noises."""

from __future__ import annotations

from fractions import Fraction

import numpy as np
import pytest
import sympy as sp

from dpsym.claims.tail_chain import (
    A_HYP,
    DELTA_OF_A,
    N,
    a,
    beta,
    chain_facts,
    chain_u,
    chain_v,
    condition9_lhs,
    condition9_threshold,
    g,
    h,
    lemma2_bound,
    n,
    pair_window_bound,
    polynomial_sum,
    theorem_bound,
    to_domain,
    uu,
)
from dpsym.symbols import Delta, b

POINTS = [(Fraction(1, 2), 5), (Fraction(2, 5), 7), (Fraction(9, 10), 3)]


def hyp_values(bb: Fraction, nn: int) -> tuple[Fraction, Fraction]:
    """(a, delta) under the hypothesis sum_{k<n} a b^k = 1/2, computed directly."""
    aa = Fraction(1, 2) / sum(bb**i for i in range(nn))
    return aa, aa / bb - (1 - bb) / (2 * bb)


def test_chain_facts_all_hold():
    facts = chain_facts()
    assert len(facts) == 5 and all(facts.values()), facts


@pytest.mark.parametrize(("bb", "nn"), POINTS)
def test_chain_u_is_the_recursion(bb, nn):
    aa, dd = hyp_values(bb, nn)
    assert sp.Rational(A_HYP.subs({b: sp.Rational(bb.numerator, bb.denominator), n: nn})) \
        == sp.Rational(aa.numerator, aa.denominator)
    assert DELTA_OF_A.subs({a: sp.Rational(str(aa)), b: sp.Rational(str(bb))}) \
        == sp.Rational(str(dd))
    u = Fraction(1, 2)
    v = bb * (1 - dd) / (1 + bb)
    for kk in range(nn + 1):
        at = {a: sp.Rational(str(aa)), b: sp.Rational(str(bb)), n: nn}
        assert chain_u(sp.Integer(kk)).subs(at) == sp.Rational(str(u))
        if kk >= 1:
            assert chain_v(sp.Integer(kk)).subs(at) == sp.Rational(str(v))
            v = bb * (v - dd)
        u = bb * (u - dd)
    # u_n = 0 and the chain is nonnegative up to n
    assert chain_u(n).subs(n, nn) == 0


@pytest.mark.parametrize(("bb", "nn"), POINTS)
@pytest.mark.parametrize("p", [1, 2, 3])
def test_theorem_bound_is_the_layer_cake_sum(bb, nn, p):
    aa, dd = hyp_values(bb, nn)
    D = Fraction(3, 2)
    us = [Fraction(1, 2)]
    for _ in range(nn):
        us.append(bb * (us[-1] - dd))
    direct = 2 * D**p * sum((kk**p - (kk - 1) ** p) * us[kk] for kk in range(1, nn))
    got = theorem_bound(p).subs({a: sp.Rational(str(aa)), b: sp.Rational(str(bb)), n: nn,
                                 Delta: sp.Rational(3, 2)})
    assert sp.simplify(got - sp.Rational(str(direct))) == 0


@pytest.mark.parametrize(("bb", "nn"), POINTS)
def test_lemma2_bound_is_the_block_sum(bb, nn):
    aa, dd = hyp_values(bb, nn)
    v = bb * (1 - dd) / (1 + bb)
    vs = []
    for _ in range(nn):
        vs.append(v)
        v = bb * (v - dd)
    direct = 2 * 4 * sum(vs)  # N = 4
    got = lemma2_bound().subs({a: sp.Rational(str(aa)), b: sp.Rational(str(bb)), n: nn,
                               N: 4})
    assert sp.simplify(got - sp.Rational(str(direct))) == 0


@pytest.mark.parametrize(("bb", "nn"), POINTS)
def test_condition9(bb, nn):
    B, NN = sp.Rational(str(bb)), sp.Rational(7, 2)
    geometric = sum(B**i for i in range(1, nn))
    assert sp.simplify(condition9_threshold().subs({b: B, n: nn}) - (2 + 1 / geometric)) == 0
    direct = sum(B**i * (2 * i * NN - (1 + (i - 1) * NN) - (1 + i * NN))
                 for i in range(1, nn)) - 1
    assert sp.simplify(condition9_lhs().subs({b: B, n: nn, N: NN}) - direct) == 0
    # at the threshold the left-hand side (N - 2) sum b^i - 1 vanishes
    at = condition9_lhs().subs({N: condition9_threshold()}).subs({b: B, n: nn})
    assert sp.simplify(at) == 0


def test_to_domain():
    cc = 1 / (1 + g)
    got = to_domain(b ** (n + 2) + b)
    expected = (1 / (1 + beta)) ** 3 * cc + 1 / (1 + beta)
    assert sp.simplify(got - expected) == 0
    # numerically: at b = 2/3, n = 4, g = b^{-(n-1)} - 1 the value is unchanged
    expr = (b ** (n + 1) - b**n) / (1 - b) + b ** (n - 1)
    B = sp.Rational(2, 3)
    point = {beta: 1 / B - 1, g: B ** (-3) - 1}
    assert sp.simplify(to_domain(expr).subs(point) - expr.subs({b: B, n: 4})) == 0
    with pytest.raises(ValueError, match="not of the form"):
        to_domain(b ** (2 * n))


def test_polynomial_sum():
    v, m = sp.symbols("v m", integer=True, nonnegative=True)
    expr = 3 * v**3 - v + 2
    assert polynomial_sum(expr, v, 7) == sum(expr.subs(v, i) for i in range(7))
    assert sp.simplify(polynomial_sum(expr, v, m) - sp.summation(expr, (v, 0, m - 1))) == 0


def lp_optimum(D: int, u: int, power: int, M: int) -> float:
    r"""The least :math:`E|X|^p` of symmetric :math:`(0, 1/(2u))`-DP noise on
    :math:`\{-M, \dots, M\}` (an upper bound of the optimum over all of
    :math:`\mathbb{Z}`): total variation against each shift :math:`d \le D` at most
    :math:`\delta`, linearised with one slack variable per point and shift."""
    from scipy.optimize import linprog
    points = np.arange(-M, M + 1)
    size = len(points)
    nv = size + sum(size + d for d in range(1, D + 1))
    cost = np.zeros(nv)
    cost[:size] = np.abs(points) ** power
    a_ub, b_ub = [], []
    a_eq, b_eq = [np.r_[np.ones(size), np.zeros(nv - size)]], [1.0]
    for i in range(size):
        row = np.zeros(nv)
        row[i] += 1
        row[size - 1 - i] -= 1  # the middle row is 0 = 0
        a_eq.append(row)
        b_eq.append(0.0)
    off = size
    for d in range(1, D + 1):
        span = size + d
        for j in range(span):  # p_j - p_{j-d} <= t_j
            row = np.zeros(nv)
            if j < size:
                row[j] += 1
            if 0 <= j - d < size:
                row[j - d] -= 1
            row[off + j] = -1
            a_ub.append(row)
            b_ub.append(0.0)
        row = np.zeros(nv)
        row[off:off + span] = 1
        a_ub.append(row)
        b_ub.append(1 / (2 * u))
        off += span
    res = linprog(cost, A_ub=np.array(a_ub), b_ub=b_ub, A_eq=np.array(a_eq), b_eq=b_eq,
                  bounds=(0, None), method="highs")
    assert res.status == 0
    return res.fun


@pytest.mark.parametrize("power", [1, 2])
def test_pair_window_bound_against_a_linear_program(power):
    found = pair_window_bound(power)
    assert found["argmin"] is True
    for D in (1, 2, 3):
        for u in (1, 2, 3):
            bound = found["even" if D % 2 == 0 else "odd"].subs({h: D // 2, uu: u})
            best = lp_optimum(D, u, power, 2 * u * D + 3)
            assert float(bound) <= best + 1e-9  # a lower bound
            if power == 1:  # and tight for L = |i|
                assert abs(float(bound) - best) < 1e-9


def test_pair_window_bound_amplitude_closed_form():
    found = pair_window_bound(1)
    assert sp.simplify(found["even"] - h * uu) == 0
    assert sp.simplify(found["odd"] - uu * (2 * h + 1) / 2) == 0
