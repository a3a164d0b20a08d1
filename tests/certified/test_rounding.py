"""Correct decimal rounding of certified values (:func:`dpsym.certified.rounding.format_digits`).

The exact rounding is checked against Python's :mod:`decimal` (exact arithmetic on the
same binary numbers, an independent implementation), near rounding ties and powers of ten
included; the layout against mpmath's ``nstr`` on numbers whose decimal expansion is
short (where no rounding question arises).
"""

from __future__ import annotations

import decimal

import mpmath
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from dpsym.certified.rounding import decimal_rounding, decimal_text, format_digits

DIGITS = st.sampled_from([1, 2, 3, 5, 15, 16, 30, 40, 100])


def _reference(man: int, exp: int, digits: int) -> tuple[int, str, int]:
    """(sign, digits, decimal exponent) of man * 2**exp rounded half away from zero, by
    Python's decimal module: the product is formed exactly, then rounded once."""
    exact_ctx = decimal.Context(prec=4000, Emin=-10**6, Emax=10**6)
    x = exact_ctx.multiply(decimal.Decimal(man), exact_ctx.power(decimal.Decimal(2), exp))
    assert exact_ctx.flags[decimal.Inexact] == 0  # the product is exact
    rounded = decimal.Context(prec=digits, rounding=decimal.ROUND_HALF_UP,
                              Emin=-10**6, Emax=10**6).plus(x)
    sign, tup, _ = rounded.as_tuple()
    text = "".join(map(str, tup)).ljust(digits, "0")[:digits]
    return sign, text, rounded.adjusted()


@settings(max_examples=500, deadline=None)
@given(man=st.integers(1, 2**300), sign=st.sampled_from([1, -1]),
       exp=st.integers(-1200, 1000), digits=DIGITS)
def test_rounding_is_exact(man, sign, exp, digits):
    assert decimal_rounding(sign * man, exp, digits) == _reference(sign * man, exp, digits)


@settings(max_examples=500, deadline=None)
@given(kind=st.sampled_from(["tie", "power"]), scale=st.integers(-30, 30),
       offset=st.integers(-3, 3), digits=DIGITS, bits=st.integers(60, 400))
def test_rounding_at_ties_and_powers_of_ten(kind, scale, offset, digits, bits):
    # a binary number a few units of 2**-bits (relative) from a tie of the `digits`-digit
    # grid, or from a power of ten; exactly on it when the target is a dyadic rational
    unit = decimal.Decimal(10) ** (scale - digits + 1)
    base = decimal.Decimal(10) ** scale
    target = base + unit * decimal.Decimal("0.5") * 3 if kind == "tie" else base
    exp = -bits + int(target.adjusted() * 3.33)
    man = int((target * decimal.Decimal(2) ** -exp).to_integral_value()) + offset
    assert decimal_rounding(man, exp, digits) == _reference(man, exp, digits)


def test_a_value_just_above_a_tie_rounds_up():
    # 4499999999999.8125000000000031250000000000124...: the 30-digit rounding ends in 3
    # (mpmath's nstr, truncating to 33 digits first, prints ...312)
    with mpmath.workdps(60):
        value = mpmath.mpf("4499999999999.81250000000000312500000000012401")
        assert format_digits(value, 30) == "4499999999999.81250000000000313"
        assert mpmath.nstr(value, 30, strip_zeros=False) == "4499999999999.81250000000000312"


@settings(max_examples=500, deadline=None)
@given(mantissa=st.integers(1, 10**12), power=st.integers(-40, 40), sign=st.booleans(),
       digits=st.integers(12, 60))
def test_layout_is_mpmaths(mantissa, power, sign, digits):
    # a short decimal, so mpmath's conversion needs no rounding decision
    text = f"{'-' if sign else ''}{mantissa}e{power}"
    with mpmath.workdps(digits + 40):
        value = mpmath.mpf(text)
        expected = mpmath.nstr(value, digits, strip_zeros=False, min_fixed=-6,
                               max_fixed=max(digits, 15))
    assert format_digits(value, digits) == expected


def test_zero_and_special_values():
    assert format_digits(mpmath.mpf(0), 10) == "0"
    assert format_digits(mpmath.inf, 10) == "+inf"
    assert decimal_text(0, "1000", 0, 4) == "1.000"
    assert decimal_text(1, "1234", -7, 4) == "-1.234e-7"
    assert decimal_text(0, "1234", 20, 4) == "1.234e+20"


@settings(max_examples=300, deadline=None)
@given(num=st.integers(1, 10**60), den=st.integers(1, 10**60), sign=st.sampled_from([1, -1]),
       digits=DIGITS)
def test_fraction_rounding_is_exact(num, den, sign, digits):
    from fractions import Fraction

    from dpsym.certified.rounding import fraction_rounding

    ctx = decimal.Context(prec=digits, rounding=decimal.ROUND_HALF_UP, Emin=-10**6,
                          Emax=10**6)
    # exact quotient first (to far more digits than asked, then a single rounding is
    # the same as rounding the exact value unless it lies on a tie, which the +1 digit
    # exactness check below covers)
    q = decimal.Context(prec=400).divide(decimal.Decimal(sign * num), decimal.Decimal(den))
    exact = Fraction(sign * num, den)
    if Fraction(q) == exact:  # a terminating decimal: the reference is exact
        rounded = ctx.plus(q)
        sgn, tup, _ = rounded.as_tuple()
        expected = (sgn, "".join(map(str, tup)).ljust(digits, "0")[:digits],
                    rounded.adjusted())
        assert fraction_rounding(exact, digits) == expected
    got_sign, got_digits, power = fraction_rounding(exact, digits)
    low = Fraction(int(got_digits) * 2 - 1, 2) * Fraction(10) ** (power - digits + 1)
    high = Fraction(int(got_digits) * 2 + 1, 2) * Fraction(10) ** (power - digits + 1)
    assert low <= abs(exact) < high  # within half a unit, ties away from zero
    assert got_sign == (1 if sign < 0 else 0)


def test_exact_ties_round_away_from_zero():
    from fractions import Fraction

    from dpsym.certified.rounding import fraction_rounding

    assert fraction_rounding(Fraction(25, 8), 3) == (0, "313", 0)  # 3.125
    assert fraction_rounding(Fraction(-1, 40), 1) == (1, "3", -2)  # -0.025
    assert fraction_rounding(Fraction(9995, 10000), 3) == (0, "100", 0)  # carry: 1.00


@pytest.mark.parametrize("exponent", ["-1e20", "1e20", "-1e100", "-1e9", "5e4"])
def test_huge_decimal_exponents(exponent):
    # beyond the exact integer scale the rounding goes through Arb logarithms
    with mpmath.workdps(60):
        x = mpmath.exp(mpmath.mpf(exponent))
        for digits in (1, 10, 40):
            assert format_digits(x, digits) == mpmath.nstr(
                x, digits, strip_zeros=False, min_fixed=-6, max_fixed=max(digits, 15))


def test_zero_has_no_digits():
    with pytest.raises(ValueError):
        decimal_rounding(0, 0, 5)
