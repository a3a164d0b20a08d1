"""Tests of :mod:`dpsym.certified.constants` against mpmath at high precision."""

from __future__ import annotations

from fractions import Fraction

import flint
import mpmath
import pytest
import sympy as sp

from dpsym.certified.constants import arb_of, exact_sym, sort_key
from dpsym.errors import UnsupportedError
from dpsym.precision import arb_workprec, workdps

CONSTANTS = [
    (sp.Rational(1, 3), lambda: mpmath.mpf(1) / 3),
    (sp.exp(-sp.Rational(1, 2)) + sp.sqrt(2), lambda: mpmath.exp(-0.5) + mpmath.sqrt(2)),
    (sp.log(3) / sp.pi, lambda: mpmath.log(3) / mpmath.pi),
    (sp.erfc(sp.Rational(7, 2)), lambda: mpmath.erfc(mpmath.mpf(7) / 2)),
    (sp.gamma(sp.Rational(1, 3)) * sp.zeta(3), lambda: mpmath.gamma(mpmath.mpf(1) / 3)
     * mpmath.zeta(3)),
]


@pytest.mark.parametrize(("expr", "reference"), CONSTANTS)
def test_arb_of_encloses_the_constant(expr, reference):
    with arb_workprec(200):
        ball = arb_of(expr)
    with workdps(80):
        ref = reference()
        assert ball.rad() < mpmath.mpf(2) ** -150 * max(1, abs(ref))
        # the reference to 75 digits, as a ball of radius 1e-72 (relative)
        with arb_workprec(300):
            exact = flint.arb(mpmath.nstr(ref, 75, strip_zeros=False),
                              mpmath.nstr(abs(ref) * mpmath.mpf(10) ** -72, 5))
            assert ball.overlaps(exact)
            # and a ball 1e-55 away is excluded (the test can fail)
            assert not ball.overlaps(exact + flint.arb(10) ** -55 * max(1, abs(float(ref))))


def test_arb_of_exact_rational_is_exact():
    with arb_workprec(64):
        ball = arb_of(sp.Rational(3, 8))
    assert ball.is_exact() and ball == flint.arb(3) / 8


def test_arb_of_accepts_plain_numbers():
    with arb_workprec(64):
        assert arb_of(5) == flint.arb(5)


def test_arb_of_refuses_a_symbol():
    with pytest.raises(UnsupportedError, match="cannot evaluate"):
        arb_of(sp.Symbol("zz") + 1)


def test_exact_sym():
    assert exact_sym(Fraction(-7, 3)) == sp.Rational(-7, 3)
    assert exact_sym(4) == sp.Integer(4)
    assert exact_sym(sp.sqrt(2)) == sp.sqrt(2)
    assert isinstance(exact_sym(Fraction(1, 2)), sp.Rational)


def test_sort_key_orders_close_constants():
    # pi - 355/113 is about -2.7e-7: both keys must be ordered at 60 digits
    close = [sp.Rational(355, 113), sp.pi, -sp.oo, sp.oo, sp.Rational(-1, 2),
             sp.exp(-40), sp.Integer(0)]
    ordered = sorted(close, key=sort_key)
    assert ordered == [-sp.oo, sp.Rational(-1, 2), sp.Integer(0), sp.exp(-40), sp.pi,
                       sp.Rational(355, 113), sp.oo]
    with workdps(70):
        assert abs(sort_key(sp.pi) - mpmath.pi) < mpmath.mpf(10) ** -58
    assert sort_key(sp.oo) == mpmath.inf and sort_key(-sp.oo) == -mpmath.inf
