r"""Tests of :mod:`dpsym.privacy.lattice`: the exact form :math:`R e^\theta` of constants,
and the profiles :math:`\max_{d \le \Delta} \sum_i (p(i) - c\,p(i - d))_+` of lattice laws
and of the staircase, against direct summation (mpmath), exact enumeration (fractions)
and the step-by-step integral of the staircase density."""

from __future__ import annotations

from fractions import Fraction
from itertools import pairwise

import flint
import mpmath
import pytest
import sympy as sp

from dpsym.mechanisms.discrete_laplace import DiscreteLaplace
from dpsym.mechanisms.discrete_uniform import DiscreteUniform
from dpsym.mechanisms.laplace import Laplace
from dpsym.mechanisms.staircase import Staircase
from dpsym.precision import arb_workprec, workdps
from dpsym.privacy.lattice import LatticeProfile, exp_rational, lattice_profile


@pytest.mark.parametrize(("expr", "form"), [
    (sp.Rational(3, 2), (Fraction(3, 2), Fraction(0))),
    (2 * sp.exp(-sp.Rational(1, 3)), (Fraction(2), Fraction(-1, 3))),
    (sp.sqrt(sp.E), (Fraction(1), Fraction(1, 2))),
    (sp.exp(1) * sp.exp(-sp.Rational(1, 4)) / 3, (Fraction(1, 3), Fraction(3, 4))),
    (sp.exp(sp.sqrt(2)), (Fraction(1), sp.sqrt(2))),
    (sp.Integer(-1), None),
    (sp.Integer(0), None),
    (sp.pi, None),
    (sp.exp(sp.Symbol("q")), None),
])
def test_exp_rational(expr, form):
    assert exp_rational(expr) == form


def in_ball(found: flint.arb, ref: mpmath.mpf, digits: int = 40) -> bool:
    with arb_workprec(300):
        text = mpmath.nstr(ref, digits + 5, strip_zeros=False)
        return found.overlaps(flint.arb(text, mpmath.nstr(abs(ref) * mpmath.mpf(10) ** -digits
                                                          + mpmath.mpf(10) ** -60, 3)))


def discrete_laplace_profile(e, D, eps_prime, top):
    lam = mpmath.exp(-mpmath.mpf(e) / D)
    norm = (1 - lam) / (1 + lam)
    c = mpmath.exp(eps_prime)

    def H(d):
        return mpmath.nsum(lambda i: max(0, norm * lam ** abs(i) - c * norm * lam
                                         ** abs(i - d)), [-mpmath.inf, mpmath.inf])
    return max(H(d) for d in range(1, top + 1))


@pytest.mark.parametrize(("eps_prime", "top"), [(Fraction(1, 3), 2), (Fraction(0), 3),
                                                (sp.sqrt(2) / 5, 3), (Fraction(-1, 2), 1)])
def test_discrete_laplace(eps_prime, top):
    noise = DiscreteLaplace(eps=1, Delta=3).numeric_noise()
    exact, enclose, shift, _ = lattice_profile(noise, eps_prime, Fraction(top))
    assert exact is None and 1 <= shift <= top
    with workdps(60):
        ep = mpmath.mpf(sp.N(sp.sympify(str(eps_prime)), 70))
        ref = discrete_laplace_profile(1, 3, ep, top)
    found = enclose(140)
    assert in_ball(found, ref)
    with arb_workprec(300):
        assert found.rel_accuracy_bits() >= 130


def test_tie_is_exact_zero():
    """At eps' = eps the discrete Laplace profile is 0 exactly (a tie decided exactly)."""
    noise = DiscreteLaplace(eps=1, Delta=3).numeric_noise()
    exact, enclose, _, _ = lattice_profile(noise, Fraction(1), Fraction(3))
    assert exact == 0 and enclose is None
    # just below eps the profile is positive
    exact, enclose, _, _ = lattice_profile(noise, Fraction(99, 100), Fraction(3))
    assert enclose(60) > 0


def uniform_law(n: int) -> dict[int, Fraction]:
    out: dict[int, Fraction] = {}
    for i in range(-(n // 2), -(n // 2) + n):
        for j in (i, -i):
            out[j] = out.get(j, Fraction(0)) + Fraction(1, 2 * n)
    return out


@pytest.mark.parametrize(("delta", "D", "n"), [("1/5", 2, 10), ("2/7", 2, 7), ("1/3", 3, 9)])
def test_discrete_uniform_exact(delta, D, n):
    """eps' = 0: the total variation, an exact rational, by enumeration."""
    p = uniform_law(n)
    ref = max(sum(max(Fraction(0), p.get(i, Fraction(0)) - p.get(i - d, Fraction(0)))
                  for i in range(-n - D, n + D + 1)) for d in range(1, D + 1))
    noise = DiscreteUniform(delta=delta, Delta=D).numeric_noise()
    exact, enclose, shift, _ = lattice_profile(noise, Fraction(0), Fraction(D))
    assert exact == ref and enclose is None and 1 <= shift <= D
    # eps' = 1/10: irrational masses of the shift, by balls
    with workdps(50):
        c = mpmath.exp(mpmath.mpf(1) / 10)

        def mp(q: Fraction) -> mpmath.mpf:
            return mpmath.mpf(q.numerator) / q.denominator

        ref_c = max(mpmath.fsum(max(0, mp(p.get(i, Fraction(0))) - c * mp(
            p.get(i - d, Fraction(0)))) for i in range(-n - D, n + D + 1))
            for d in range(1, D + 1))
    exact, enclose, _, _ = lattice_profile(noise, Fraction(1, 10), Fraction(D))
    if enclose is None:  # odd n: only points without a shifted mass count, exactly
        assert n % 2 == 1
        with workdps(50):
            assert abs(mpmath.mpf(exact.numerator) / exact.denominator - ref_c) < 1e-45
    else:
        assert in_ball(enclose(140), ref_c)


def staircase_H(e, g, d, c):
    """H(d) of the staircase (Delta = 1) over the common refinement of the step grids."""
    b = mpmath.exp(-e)
    a = (1 - b) / (2 * (g + (1 - g) * b))

    def f(t):
        k = int(mpmath.floor(abs(t)))
        return a * b**k * (1 if abs(t) - k < g else b)

    cuts = sorted({mpmath.mpf(k) + s for k in range(-130, 131)
                   for s in (0, g, -g, -d, g - d, -g - d)})
    return mpmath.fsum((z - a_) * max(0, f((a_ + z) / 2) - c * f((a_ + z) / 2 - d))
                       for a_, z in pairwise(cuts))


def test_staircase_on_the_line():
    """The supremum over d in (0, 1]: at 1 or a difference of breakpoints (gamma,
    1 - gamma); a grid of shifts never exceeds it."""
    g = Fraction(3, 10)
    noise = Staircase(eps=1, Delta=1, gamma=str(g)).numeric_noise()
    exact, enclose, _, parts = lattice_profile(noise, Fraction(1, 5), Fraction(1))
    assert exact is None and parts
    with workdps(40):
        gm, c = mpmath.mpf(3) / 10, mpmath.exp(mpmath.mpf(1) / 5)
        candidates = {d: staircase_H(mpmath.mpf(1), gm, d, c) for d in (gm, 1 - gm,
                                                                         mpmath.mpf(1))}
        ref = max(candidates.values())
        grid = [staircase_H(mpmath.mpf(1), gm, mpmath.mpf(j) / 17, c) for j in (3, 8, 13)]
        assert max(grid) <= ref + mpmath.mpf(10) ** -30
    assert in_ball(enclose(120), ref, 30)


def test_not_handled():
    assert lattice_profile(Laplace(eps=1).numeric_noise(), Fraction(1, 5), Fraction(1)) \
        is None
    noise = Staircase(eps=1, Delta=1, gamma="3/10").numeric_noise()
    assert lattice_profile(noise, Fraction(1, 5), sp.sqrt(2)) is None


def test_shifts_and_breakpoints():
    prof = LatticeProfile(DiscreteUniform(delta="1/5", Delta=2).numeric_noise(), Fraction(0))
    shifts = prof.shifts(7)
    assert 1 in shifts and 7 in shifts and all(1 <= d <= 7 for d in shifts)
    # H is affine between differences of breakpoints: every candidate is evaluated
    p = uniform_law(10)
    tv = {d: sum(max(Fraction(0), p.get(i, Fraction(0)) - p.get(i - d, Fraction(0)))
                 for i in range(-20, 21)) for d in range(1, 8)}
    exact, _, _, _ = prof.value(7)
    assert exact == max(tv.values())
