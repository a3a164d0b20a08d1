r"""Tests of :mod:`dpsym.certified.slope_argmin` on small problems whose minimiser is known
exactly (closed forms, kinks, flat minima, ends, an open end) and on undecidable ones."""

from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction

import flint
import mpmath
import pytest

from dpsym.certified.slope_argmin import MAX_STEPS, Minimum, certify_minimum, locate
from dpsym.errors import CertificationError
from dpsym.precision import workdps


def B(t: Fraction) -> flint.arb:
    return flint.arb(t.numerator) / t.denominator


@dataclass
class Quadratic:
    r""":math:`C(t) = (t - r)^2 + r` on :math:`[lo, hi]`, :math:`r = \sqrt{2}/2`: slope
    :math:`N = 2(t - r)`, minimum :math:`r` at :math:`r`."""

    lo: Fraction = Fraction(0)
    hi: Fraction | None = Fraction(1)
    open_limit: Fraction | None = None
    calls: list = field(default_factory=list)

    @staticmethod
    def r() -> flint.arb:
        return flint.arb(2).sqrt() / 2

    def slope(self, t, side):
        self.calls.append(t)
        return 2 * (B(t) - self.r())

    def slope_derivative(self, t):
        return flint.arb(2)

    def jumps_at(self, t):
        return False

    def kinks(self):
        return []

    def cost(self, t):
        return (B(t) - self.r()) ** 2 + self.r()

    def cost_box(self, a, c):
        top = max(abs(B(a) - self.r()), abs(B(c) - self.r())).upper()
        return self.r() + flint.arb(0).union(top**2)

    def zero_set(self, t):
        return None

    def open_end(self):
        return None, None


def test_smooth_minimiser_and_value():
    with workdps(60):
        r = mpmath.sqrt(2) / 2
        cert, found = certify_minimum(Quadratic(), 30, "parameter")
        assert found.lo < found.hi and not found.flat and found.attained
        assert abs(mpmath.mpf(cert.text()) - r) < mpmath.mpf(10) ** -29
        assert cert.certificate == "enclosure"
        cert, _ = certify_minimum(Quadratic(), 30, "cost")
        assert abs(mpmath.mpf(cert.text()) - r) < mpmath.mpf(10) ** -29


def test_locate_brackets_the_root_to_the_width():
    width = Fraction(1, 2**40)
    found = locate(Quadratic(), width, 128)
    assert found.hi - found.lo <= width
    assert found.lo ** 2 * 2 < 1 < found.hi ** 2 * 2  # sqrt(2)/2 lies inside


class Kink(Quadratic):
    """C(t) = |t - 1/3|: N = -1 left of 1/3, +1 right of it."""

    K = Fraction(1, 3)

    def slope(self, t, side):
        self.calls.append(t)
        if t == self.K:
            return flint.arb(side)
        return flint.arb(-1 if t < self.K else 1)

    def slope_derivative(self, t):
        return None

    def jumps_at(self, t):
        return t == self.K

    def kinks(self):
        return [self.K, Fraction(5)]  # a kink outside the range is ignored

    def cost(self, t):
        return abs(t - self.K)


def test_kink_is_the_exact_minimiser():
    cert, found = certify_minimum(Kink(), 20, "parameter")
    assert found == Minimum(Fraction(1, 3), Fraction(1, 3))
    assert cert.certificate == "exact"
    assert cert.text().startswith("0.3333333333333333333")
    value, _ = certify_minimum(Kink(), 20, "cost")
    assert value.text() == "0"


class Shifted(Quadratic):
    """The quadratic with its minimiser moved to ``root`` (rational), possibly outside."""

    def __init__(self, root: Fraction, **kw):
        super().__init__(**kw)
        self.root = root

    def slope(self, t, side):
        return 2 * (B(t) - B(self.root))

    def cost(self, t):
        return (t - self.root) ** 2

    def zero_set(self, t):
        return (t, t) if t == self.root else None


def test_minimum_at_an_end():
    assert locate(Shifted(Fraction(-1)), Fraction(1, 2**20), 64) == Minimum(Fraction(0),
                                                                            Fraction(0))
    assert locate(Shifted(Fraction(3)), Fraction(1, 2**20), 64) == Minimum(Fraction(1),
                                                                           Fraction(1))
    cert, _ = certify_minimum(Shifted(Fraction(3)), 10, "cost")
    assert cert.certificate == "exact" and cert.text() == "4.000000000"


def test_exact_rational_root_is_proven_by_the_zero_set():
    # the middle 1/2 is tried first: N(1/2) = 0 exactly, an isolated zero
    found = locate(Shifted(Fraction(1, 2)), Fraction(1, 2**30), 64)
    assert found == Minimum(Fraction(1, 2), Fraction(1, 2))


class Flat(Quadratic):
    """N = -1 below 1/4, 0 on [1/4, 1/2], +1 above: every point of [1/4, 1/2] minimises."""

    def slope(self, t, side):
        if t < Fraction(1, 4):
            return flint.arb(-1)
        if t > Fraction(1, 2):
            return flint.arb(1)
        return flint.arb(0)

    def slope_derivative(self, t):
        return None

    def cost(self, t):
        return Fraction(7)

    def zero_set(self, t):
        return (Fraction(1, 4), Fraction(1, 2)) if Fraction(1, 4) <= t <= Fraction(1, 2) \
            else None


def test_flat_minimum():
    cert, found = certify_minimum(Flat(), 15, "parameter")
    assert found.flat and (found.lo, found.hi) == (Fraction(1, 4), Fraction(1, 2))
    assert cert.text() == "0"  # no single minimiser to print
    value, _ = certify_minimum(Flat(), 15, "cost")
    assert value.certificate == "exact" and value.text().startswith("7.0000")


class OpenEnd(Quadratic):
    """N < 0 on [0, 2) with an open end: the infimum 1/5 is approached, not attained."""

    def __init__(self):
        super().__init__(hi=None, open_limit=Fraction(2))

    def slope(self, t, side):
        return flint.arb(-1)

    def open_end(self):
        return None, Fraction(1, 5)


def test_open_end_infimum():
    cert, found = certify_minimum(OpenEnd(), 12, "cost")
    assert not found.attained and found.lo == found.hi == Fraction(2)
    assert cert.certificate == "exact" and cert.text().startswith("0.2000")
    # the parameter is refused: no point attains the infimum (the open limit is no
    # minimiser)
    param, _ = certify_minimum(OpenEnd(), 12, "parameter")
    assert param.text() == "0" and param.enclosure() == ("0", "0")


class Undecided(Quadratic):
    """A slope whose ball always contains 0 and no proven zero set."""

    def slope(self, t, side):
        return flint.arb(0, 1)


def test_undecided_sign_raises():
    with pytest.raises(CertificationError, match="not decided"):
        locate(Undecided(), Fraction(1, 2**20), 64)
    with pytest.raises(CertificationError, match="minimum"):
        certify_minimum(Undecided(), 10, "cost")


class Third(Quadratic):
    """N = sign(t - 1/3), exact: pure bisection on dyadic points that never reach 1/3."""

    def slope(self, t, side):
        self.calls.append(t)
        return flint.arb(-1 if t < Fraction(1, 3) else 1)

    def slope_derivative(self, t):
        return None


def test_bisection_without_newton():
    problem = Third()
    found = locate(problem, Fraction(1, 2**50), 64)
    assert found.lo < Fraction(1, 3) < found.hi and found.hi - found.lo <= Fraction(1, 2**50)
    assert len(problem.calls) < 120


def test_search_gives_up_after_max_steps():
    # a bracket of width 2**-5000 needs more bisections than MAX_STEPS allows
    assert MAX_STEPS < 5000
    with pytest.raises(CertificationError, match="did not converge"):
        locate(Third(), Fraction(1, 2**5000), 64)
