"""Exact checks of the lecture-note mechanisms in :mod:`dpsym.mechanisms.textbook`."""

from __future__ import annotations

from fractions import Fraction

import mpmath
import sympy as sp

from dpsym.mechanisms import textbook as tb


def test_exponential_mechanism_law_sums_to_one() -> None:
    probs = tb.exponential_mechanism([0, 1, 2], 1)
    assert sp.simplify(sp.Add(*probs) - 1) == 0
    assert sp.simplify(probs[2] / probs[0] - sp.exp(2)) == 0


def test_exponential_privacy_loss_at_most_two_eps() -> None:
    loss = tb.exponential_privacy_loss([0, 0, 5, 5], [1, 1, 4, 4], 1)
    assert 1 < float(loss) <= 2


def test_report_noisy_max_law() -> None:
    probs = tb.report_noisy_max([0, 0], 1)
    assert abs(probs[0] - mpmath.mpf("0.5")) < mpmath.mpf("1e-15")
    assert abs(sum(tb.report_noisy_max([0, 1, 2], "0.5")) - 1) < mpmath.mpf("1e-15")


def test_hockey_stick_equals_sup_over_sets() -> None:
    p = {0: Fraction(1, 2), 1: Fraction(1, 3), 2: Fraction(1, 6)}
    q = {0: Fraction(1, 6), 1: Fraction(1, 3), 2: Fraction(1, 2)}
    assert tb.hockey_stick(p, q, 0) == tb.sup_over_sets(p, q, 0) == Fraction(1, 3)


def test_name_and_shame_and_composition() -> None:
    d = sp.Rational(1, 100)
    assert tb.hockey_stick(tb.name_and_shame(d, "x"), tb.name_and_shame(d, "y"), 1) == d
    p1, q1 = tb.randomized_response(1)
    assert tb.hockey_stick(tb.compose(p1, p1), tb.compose(q1, q1), 2) == 0
    assert tb.exposure_probability(2, d) == 1 - (1 - d) ** 2
