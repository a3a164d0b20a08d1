r"""Privacy profiles of the lattice mechanisms and the uniform noise with a point mass:
exact or Arb enclosures (dpsym.privacy.lattice, dpsym.privacy.closed_forms) against sums
written here from the mass functions' definitions.

The reference is :math:`\max_{1 \le d \le \Delta} \sum_i (p(i) - e^{\varepsilon'}p(i - d))_+`
summed directly with mpmath over :math:`|i| \le K`, the mass function written from its
definition (never the engine's normalisation), and :math:`K` chosen so that the neglected
mass, which bounds every neglected positive part, is below :math:`10^{-(\text{digits}+5)}`
(the bound is computed in each reference).
"""

from __future__ import annotations

import functools
import math
import random
from fractions import Fraction

import mpmath
import pytest

from dpsym import DiscreteLaplace, DiscreteStaircase, DiscreteUniform, UniformMass
from dpsym.errors import CertificationError

DIGITS = 20
GUARD = 15  # working digits above DIGITS for the references


def mp_of(value: Fraction | str) -> mpmath.mpf:
    """An exact rational (or ``log(k)``) at the current precision."""
    if isinstance(value, str):
        assert value.startswith("log(") and value.endswith(")")
        return mpmath.log(Fraction(value[4:-1]).numerator) - mpmath.log(
            Fraction(value[4:-1]).denominator)
    f = Fraction(value)
    return mpmath.mpf(f.numerator) / f.denominator


def hockey_reference(mass, support: int, sens: int, eps_prime) -> mpmath.mpf:
    r""":math:`\max_{1 \le d \le \Delta} \sum_{|i| \le K + d} (p(i) - c p(i - d))_+`."""
    c = mpmath.exp(mp_of(eps_prime))
    best = mpmath.mpf(0)
    mass = functools.cache(mass)  # each p(i) once (at the caller's precision)
    for d in range(1, sens + 1):
        total = mpmath.fsum(max(mpmath.mpf(0), mass(i) - c * mass(i - d))
                            for i in range(-support, support + d + 1))
        best = max(best, total)
    return best


def laplace_reference(eps: Fraction, sens: int, eps_prime) -> mpmath.mpf:
    r"""Discrete Laplace: :math:`p(i) = \frac{1 - \lambda}{1 + \lambda}\lambda^{|i|}`,
    :math:`\lambda = e^{-\varepsilon/\Delta}`; neglected mass beyond :math:`K`:
    :math:`2\frac{1-\lambda}{1+\lambda}\lambda^{K+1}/(1 - \lambda)`."""
    with mpmath.workdps(DIGITS + GUARD):
        lam = mpmath.exp(-mp_of(eps) / sens)
        norm = (1 - lam) / (1 + lam)
        support = 1
        while 2 * norm * lam ** (support + 1) / (1 - lam) > mpmath.mpf(10) ** -(DIGITS + 5):
            support *= 2
        return +hockey_reference(lambda i: norm * lam ** abs(i), support, sens, eps_prime)


def staircase_reference(eps: Fraction, sens: int, step: int, eps_prime) -> mpmath.mpf:
    r"""Discrete staircase: for :math:`i = k\Delta + j \ge 0`, :math:`p(i) = a b^k` if
    :math:`j < r`, :math:`a b^{k+1}` else; :math:`a` from
    :math:`\sum_i p(i) = a\,[2(r + b(\Delta - r))/(1 - b) - 1] = 1`. Neglected mass beyond
    :math:`K = k\Delta`: at most :math:`2a\Delta b^k/(1 - b)`."""
    with mpmath.workdps(DIGITS + GUARD):
        b = mpmath.exp(-mp_of(eps))
        a = 1 / (2 * (step + b * (sens - step)) / (1 - b) - 1)

        def mass(i: int) -> mpmath.mpf:
            k, j = divmod(abs(i), sens)
            return a * b ** (k if j < step else k + 1)

        copies = 1
        while 2 * a * sens * b ** copies / (1 - b) > mpmath.mpf(10) ** -(DIGITS + 5):
            copies *= 2
        return +hockey_reference(mass, copies * sens, sens, eps_prime)


def uniform_reference(delta: Fraction, sens: int, eps_prime) -> mpmath.mpf:
    r"""Discrete uniform: :math:`n = \lceil \Delta/\delta\rceil`, :math:`p(i) = 1/n` for
    :math:`|i| < n/2`, :math:`1/(2n)` for :math:`|i| = n/2` (finite support: no tail)."""
    n = math.ceil(Fraction(sens) / delta)
    with mpmath.workdps(DIGITS + GUARD):
        def mass(i: int) -> mpmath.mpf:
            if 2 * abs(i) < n:
                return mpmath.mpf(1) / n
            return mpmath.mpf(1) / (2 * n) if 2 * abs(i) == n else mpmath.mpf(0)
        return +hockey_reference(mass, n, sens, eps_prime)


def contains(value, reference: mpmath.mpf) -> bool:
    """Whether the proven range of ``value`` holds ``reference`` (to the reference's own
    accuracy, 10^-(DIGITS+5))."""
    with mpmath.workdps(DIGITS + GUARD):
        lo, hi = (mpmath.mpf(t) for t in value.enclosure)
        slack = mpmath.mpf(10) ** -(DIGITS + 4)
        return lo - slack <= reference <= hi + slack


def check(value, reference: mpmath.mpf) -> None:
    assert value.certificate in ("exact", "enclosure")
    assert contains(value, reference), (value.enclosure, reference)
    with mpmath.workdps(DIGITS + 10):
        assert abs(value.number - reference) <= mpmath.mpf(10) ** -(DIGITS - 1) * max(
            mpmath.mpf(1) / 10**10, abs(reference))


# ------------------------------------------------------------------ discrete Laplace
@pytest.mark.parametrize("sens", [1, 2, 5])
@pytest.mark.parametrize("eps", [Fraction(1, 2), Fraction(1), Fraction(3)])
def test_discrete_laplace_against_the_sum(eps, sens):
    mech = DiscreteLaplace(eps=eps, Delta=sens)
    for eps_prime in (Fraction(0), eps / 3, eps - Fraction(1, 10**6), Fraction(-1, 2),
                      "log(2)"):
        value = mech.privacy_profile(eps_prime, digits=DIGITS)
        reference = laplace_reference(eps, sens, eps_prime)
        if reference == 0:  # log(2) >= eps
            assert value.certificate == "exact" and value.text == "0"
        else:
            check(value, reference)
            assert value.certificate == "enclosure"  # irrational masses
    for eps_prime in (eps, eps + 1):  # eps-DP: exactly 0, a tie at eps' = eps
        value = mech.privacy_profile(eps_prime, digits=DIGITS)
        assert value.certificate == "exact" and value.text == "0"


# ------------------------------------------------------------------ discrete staircase
@pytest.mark.parametrize("sens", [1, 2, 5])
@pytest.mark.parametrize("eps", [Fraction(1, 2), Fraction(2)])
def test_discrete_staircase_against_the_sum(eps, sens):
    for step in sorted({1, (sens + 1) // 2, sens}):
        mech = DiscreteStaircase(eps=eps, Delta=sens)
        for eps_prime in (Fraction(0), eps / 2, eps - Fraction(1, 10**8)):
            value = mech.privacy_profile(eps_prime, digits=DIGITS, free_value=step)
            check(value, staircase_reference(eps, sens, step, eps_prime))
        for eps_prime in (eps, 2 * eps):
            value = mech.privacy_profile(eps_prime, digits=DIGITS, free_value=step)
            assert value.certificate == "exact" and value.text == "0"


# ------------------------------------------------------------------ discrete uniform
@pytest.mark.parametrize("sens", [1, 2, 5])
@pytest.mark.parametrize("delta", [Fraction(1, 10), Fraction(3, 10), Fraction(2, 7)])
def test_discrete_uniform_against_the_sum(delta, sens):
    mech = DiscreteUniform(delta=delta, Delta=sens)
    exact = mech.privacy_profile(0, digits=DIGITS)
    assert exact.certificate == "exact"
    reference = uniform_reference(delta, sens, Fraction(0))
    check(exact, reference)
    assert mech.is_private(0, delta)  # (0, delta)-DP, decided exactly
    for eps_prime in (Fraction(1, 2), Fraction(-1, 3), "log(2)", "log(3)"):
        check(mech.privacy_profile(eps_prime, digits=DIGITS),
              uniform_reference(delta, sens, eps_prime))


def test_rational_lattice_values_are_exact():
    """Rational masses at eps' = 0, or at log(2) where e^eps' = 2 is rational."""
    mech = DiscreteUniform(delta=Fraction(3, 10), Delta=2)  # n = 7: rational masses
    for eps_prime in (0, "log(2)", "-log(3)"):
        assert mech.privacy_profile(eps_prime, digits=DIGITS).certificate == "exact"


# ------------------------------------------------------------------ uniform with a mass
@pytest.mark.parametrize("delta,sens", [(Fraction(1, 10), 1), (Fraction(3, 10), 2),
                                        (Fraction(4, 5), 2), (Fraction(19, 20), 5)])
def test_uniform_mass_profile(delta, sens):
    r"""Reference: the atom :math:`\alpha` plus the density :math:`h` on
    :math:`[-L, L]` (read from the description), integrated by mpmath quadrature of
    :math:`(f(x) - c f(x + \Delta))_+` over the breakpoints."""
    mech = UniformMass(delta=delta, Delta=sens)
    noise = mech.numeric_noise("amplitude", None, DIGITS + 10)
    (piece,) = noise.head
    alpha, height, half = (Fraction(str(v)) for v in (noise.atom, piece.expr, piece.hi))
    for eps_prime in (Fraction(0), Fraction(1, 2), Fraction(-1, 2), "log(2)", "-log(3)"):
        with mpmath.workdps(DIGITS + GUARD):
            c = mpmath.exp(mp_of(eps_prime) if eps_prime != "-log(3)" else -mpmath.log(3))
            h, lh = mp_of(height), mp_of(half)

            def f(z, h=h, lh=lh):
                return h if -lh <= z <= lh else mpmath.mpf(0)

            def integrand(z, c=c):
                return max(mpmath.mpf(0), f(z) - c * f(z + sens))

            pts = sorted({-lh - sens, -lh, lh - sens, lh})
            integral = mpmath.quad(integrand, pts)
            reference = mp_of(alpha) + integral
        value = mech.privacy_profile(eps_prime, digits=DIGITS)
        check(value, reference)
        if eps_prime in (Fraction(0), Fraction(1, 2), "log(2)"):  # exactly delta
            assert value.certificate == "exact"
            assert Fraction(value.enclosure[0]) == Fraction(value.enclosure[1]) == delta


# ------------------------------------------------------------------ near ties
def test_near_tie_rounding():
    r""":math:`\varepsilon' = \varepsilon - 10^{-30}`: the profile is of order
    :math:`10^{-30}`, its 20 digits still proven (relative accuracy, not absolute)."""
    eps = Fraction(1)
    mech = DiscreteLaplace(eps=eps, Delta=1)
    eps_prime = eps - Fraction(1, 10**30)
    value = mech.privacy_profile(eps_prime, digits=DIGITS)
    assert value.certificate == "enclosure"
    with mpmath.workdps(80):
        lam = mpmath.exp(-1)
        norm = (1 - lam) / (1 + lam)
        # d = 1: the positive terms are i <= 0, where p(i)/p(i - 1) = e > c
        c = mpmath.exp(mp_of(eps_prime))
        reference = sum(norm * (lam ** abs(i) - c * lam ** abs(i - 1))
                        for i in range(-400, 1))
        assert abs(value.number - reference) <= abs(reference) * mpmath.mpf(10) ** -19


# ------------------------------------------------------------------ random property
def test_random_lattice_profiles():
    rng = random.Random(20261126)
    for _ in range(12):
        sens = rng.choice([1, 2, 3, 5])
        eps = Fraction(rng.randint(1, 40), rng.randint(4, 16))
        eps_prime = Fraction(rng.randint(-20, 60), 16)
        kind = rng.choice(["laplace", "staircase", "uniform"])
        if kind == "laplace":
            value = DiscreteLaplace(eps=eps, Delta=sens).privacy_profile(eps_prime,
                                                                         digits=DIGITS)
            reference = laplace_reference(eps, sens, eps_prime)
        elif kind == "staircase":
            step = rng.randint(1, sens)
            value = DiscreteStaircase(eps=eps, Delta=sens).privacy_profile(
                eps_prime, digits=DIGITS, free_value=step)
            reference = staircase_reference(eps, sens, step, eps_prime)
        else:
            delta = Fraction(rng.randint(1, 9), 10)
            value = DiscreteUniform(delta=delta, Delta=sens).privacy_profile(
                eps_prime, digits=DIGITS)
            reference = uniform_reference(delta, sens, eps_prime)
        if reference == 0:
            assert value.certificate == "exact" and value.text == "0"
        else:
            check(value, reference)


# ------------------------------------------------------------------ is_private
@pytest.mark.parametrize("mech", [DiscreteLaplace(eps=1, Delta=1),
                                  DiscreteLaplace(eps=Fraction(3, 2), Delta=5),
                                  DiscreteStaircase(eps=1, Delta=2)])
def test_is_private_at_the_boundary(mech):
    eps = mech.values["eps"]
    at = mech.is_private(eps, 0)
    assert at.private and at.text == "0" and at.tolerance == 0
    assert not mech.is_private(eps - Fraction(1, 10**12), 0)
    below = mech.privacy_profile(eps - Fraction(1, 10**12), digits=DIGITS)
    # the enclosure decides: private at a delta just above the value, not just below
    up = Fraction(below.enclosure[1]) * (1 + Fraction(1, 10**15))
    down = Fraction(below.enclosure[0]) * (1 - Fraction(1, 10**15))
    assert mech.is_private(eps - Fraction(1, 10**12), up)
    assert not mech.is_private(eps - Fraction(1, 10**12), down)


@pytest.mark.parametrize(("mech", "delta"), [
    # uniform on n = 7 points shifted by 2: total variation 2/7 (< delta = 3/10)
    (DiscreteUniform(delta=Fraction(3, 10), Delta=2), Fraction(2, 7)),
    # n = 10, even: masses 1/10 inside, 1/20 at +-5; shifted by 2, TV = 2/10
    (DiscreteUniform(delta=Fraction(1, 5), Delta=2), Fraction(1, 5)),
    (UniformMass(delta=Fraction(3, 10), Delta=2), Fraction(3, 10)),
    (UniformMass(delta=Fraction(4, 5), Delta=2), Fraction(4, 5))])
def test_is_private_zero_eps(mech, delta):
    """At eps = 0 the profile is the total variation, exactly rational: decided exactly
    at delta and just below."""
    at = mech.is_private(0, delta)
    assert at.private and at.tolerance == 0
    assert not mech.is_private(0, delta - Fraction(1, 10**25))


def test_undecidable_tie_is_an_error():
    """An enclosure never separated from delta raises instead of guessing."""
    from dpsym.privacy.profiles import _at_most

    with pytest.raises(CertificationError):
        _at_most([(mpmath_ball, None)], Fraction(1, 3), 20)


def mpmath_ball(bits: int):
    """A ball of 1/3 that never shrinks below a fixed radius (a stand-in for an
    enclosure that cannot decide)."""
    import flint

    return flint.arb(flint.fmpq(1, 3)) + flint.arb(0, 2.0**-20)


# ------------------------------------------------------------------ custom lattice noise
def test_random_custom_lattice_noise():
    r"""Random symmetric mass functions: rational masses on a head of integer pieces, then
    a geometric tail of period :math:`T` and ratio :math:`e^{-a}` (one or two constant
    levels per period), normalised; the profile (every shift :math:`1..\Delta`, which the
    engine reduces to breakpoint differences) against the direct sum, the neglected tail
    bounded by the mass beyond the window."""
    import sympy as sp

    from dpsym.privacy.profiles import privacy_profile
    from dpsym.symbolic.noise import GeometricTail, Piece, SymmetricNoise

    rng = random.Random(1126)
    for _ in range(10):
        head, pos = [], 0
        for _ in range(rng.randint(0, 3)):
            width = rng.randint(1, 3)
            head.append((pos, pos + width, Fraction(rng.randint(1, 9), 10)))
            pos += width
        period = rng.randint(1, 3)
        rate = Fraction(rng.randint(1, 8), rng.randint(1, 4))
        cut = rng.randint(1, period - 1) if period > 1 and rng.random() < 0.5 else period
        first, second = Fraction(rng.randint(1, 9), 10), Fraction(rng.randint(1, 9), 10)
        sens = rng.randint(1, 5)
        eps_prime = Fraction(rng.randint(-10, 20), 8)
        with mpmath.workdps(DIGITS + GUARD):
            q = mpmath.exp(-mp_of(rate))

            def raw(i: int, q=q, head=tuple(head), start=pos, period=period, cut=cut,
                    first=first, second=second) -> mpmath.mpf:
                i = abs(i)
                for lo, hi, v in head:
                    if lo <= i < hi:
                        return mp_of(v)
                k, j = divmod(i - start, period)
                return (mp_of(first) if j < cut else mp_of(second) * q) * q ** k

            total = 2 * mpmath.fsum(raw(i) for i in range(pos)) - raw(0) if head else -raw(0)
            per_period = cut * mp_of(first) + (period - cut) * mp_of(second) * q
            total += 2 * per_period / (1 - q)
            support = pos + period
            while 2 * per_period * q ** ((support - pos) // period) / (1 - q) / total \
                    > mpmath.mpf(10) ** -(DIGITS + 5):
                support *= 2
            reference = hockey_reference(lambda i, total=total, raw=raw: raw(i) / total,
                                         support, sens, eps_prime)
        norm = 1 / (sp.Rational(sum(v * (hi - lo) for lo, hi, v in head)) * 2
                    - (sp.Rational(head[0][2]) if head else 0)
                    + 2 * (cut * sp.Rational(first) + (period - cut) * sp.Rational(second)
                           * sp.exp(-sp.Rational(rate))) / (1 - sp.exp(-sp.Rational(rate)))
                    - (0 if head else sp.Rational(first)))
        b = sp.exp(-sp.Rational(rate))
        shape = [Piece(0, cut, sp.Rational(first) * norm)]
        if cut < period:
            shape.append(Piece(cut, period, sp.Rational(second) * b * norm))
        noise = SymmetricNoise(True, tuple(Piece(lo, hi, sp.Rational(v) * norm)
                                           for lo, hi, v in head),
                               GeometricTail(pos, period, b, tuple(shape)))
        value = privacy_profile(noise, eps_prime, DIGITS, sensitivity=sens)
        if reference == 0:
            assert value.certificate == "exact" and value.text == "0"
        else:
            check(value, reference)
