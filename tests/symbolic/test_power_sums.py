r"""Non-integer moments of flat lattice pieces (the discrete uniform mechanisms) are
Hurwitz zeta differences, :math:`\sum_{lo \le x < hi} x^p = \zeta(-p, lo) - \zeta(-p, hi)`,
enclosed in ball arithmetic: certificate ``"enclosure"``, fast at any support size.

References are written here from the definition: the mass function of uniform noise on
``n = ceil(Delta/delta)`` lattice points (half masses at the two ends when ``n`` is even),
summed term by term with mpmath, or (for a support of :math:`10^{12}` points) by the
Euler-Maclaurin expansion of the power sum written out here, whose terms fall like
:math:`m^{p - 2k + 1}`.
"""

from __future__ import annotations

from fractions import Fraction
from math import ceil

import mpmath
import pytest

from dpsym.mechanisms import DiscreteUniform


def _uniform_moment(n: int, p: mpmath.mpf, direct: bool = True) -> mpmath.mpf:
    r""":math:`\mathbb{E}|X|^p` for uniform noise on ``n`` lattice points."""
    half = n // 2

    def power_sum(m: int) -> mpmath.mpf:  # sum_{x=1}^{m} x^p
        if direct:
            return mpmath.fsum(mpmath.mpf(x) ** p for x in range(1, m + 1))
        # zeta(-p) + m^(p+1)/(p+1) + m^p/2 + sum_k B_2k/(2k)! p(p-1)...(p-2k+2) m^(p-2k+1)
        total = mpmath.zeta(-p) + mpmath.mpf(m) ** (p + 1) / (p + 1) + mpmath.mpf(m) ** p / 2
        for k in range(1, 6):
            falling = mpmath.ff(p, 2 * k - 1)
            total += (mpmath.bernoulli(2 * k) / mpmath.factorial(2 * k) * falling
                      * mpmath.mpf(m) ** (p - 2 * k + 1))
        return total
    if n % 2:
        return 2 * power_sum(half) / n
    return (2 * power_sum(half - 1) + mpmath.mpf(half) ** p) / n


@pytest.mark.parametrize("delta", ["0.3", "1/7", "1e-3", "3e-5"])
@pytest.mark.parametrize("Delta", [1, 3])
@pytest.mark.parametrize("p", ["1/2", "3/2", "7/3"])
def test_the_enclosure_contains_the_term_by_term_sum(delta, Delta, p):
    digits = 30
    v = DiscreteUniform(delta=delta, Delta=Delta).value("cost", f"moment:{p}", digits)
    assert v.certificate == "enclosure"
    n = ceil(Delta / Fraction(delta))
    with mpmath.workdps(60):
        want = _uniform_moment(n, mpmath.mpf(Fraction(p).numerator) / Fraction(p).denominator)
        lo, hi = (mpmath.mpf(t) for t in v.enclosure)
        assert lo <= want <= hi
        assert hi - lo < want * mpmath.mpf(10) ** -digits
        assert mpmath.nstr(want, digits, strip_zeros=False) == v.text


def test_a_support_of_a_trillion_points_is_enclosed_at_once():
    v = DiscreteUniform(delta="1e-12", Delta=1).value("cost", "moment:1/2", 25)
    assert v.certificate == "enclosure"
    with mpmath.workdps(50):
        want = _uniform_moment(10**12, mpmath.mpf(1) / 2, direct=False)
        lo, hi = (mpmath.mpf(t) for t in v.enclosure)
        assert lo <= want <= hi
