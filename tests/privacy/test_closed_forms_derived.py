r"""The closed-form profiles of :mod:`dpsym.privacy.closed_forms` against their derivation.

:func:`dpsym.privacy.closed_forms.derived_profile` integrates
:math:`(f(x) - e^\varepsilon f(x - \Delta))_+` over the pieces of each mechanism's declared
density (the crossing point solved by sympy); the cancellation-free forms evaluated in
balls (``laplace_form``, ``truncated_laplace_case``, ``uniform_atom_form``,
``staircase_form``), run on sympy expressions, are proven equal to it by sympy in every
case of the exact case decisions. The values are checked against mpmath quadrature of the
densities, at the boundaries between the cases too."""

from __future__ import annotations

import bisect
import functools
import itertools
from fractions import Fraction

import mpmath
import pytest
import sympy as sp

from dpsym.mechanisms.laplace import Laplace
from dpsym.mechanisms.staircase import Staircase
from dpsym.mechanisms.truncated_laplace import A, TruncatedLaplace
from dpsym.mechanisms.uniform_mass import L, UniformMass, alpha
from dpsym.precision import arb_workprec, workdps
from dpsym.privacy import closed_forms as cf
from dpsym.symbolic.noise import SymmetricNoise
from dpsym.symbols import NORM, Delta, b, eps, gamma

lam = sp.Symbol("lambda", positive=True)
eps0 = sp.Symbol("eps0", positive=True)
e = sp.Symbol("e", real=True)  # the profile's epsilon


class S:
    """A sympy expression with the methods the ball forms call (exp, expm1)."""

    def __init__(self, v):
        self.v = sp.sympify(v)

    @staticmethod
    def _of(o):
        return o.v if isinstance(o, S) else sp.sympify(o)

    def __add__(self, o): return S(self.v + S._of(o))
    __radd__ = __add__
    def __sub__(self, o): return S(self.v - S._of(o))
    def __rsub__(self, o): return S(S._of(o) - self.v)
    def __mul__(self, o): return S(self.v * S._of(o))
    __rmul__ = __mul__
    def __truediv__(self, o): return S(self.v / S._of(o))
    def __rtruediv__(self, o): return S(S._of(o) / self.v)
    def __neg__(self): return S(-self.v)
    def exp(self): return S(sp.exp(self.v))
    def expm1(self): return S(sp.exp(self.v) - 1)


def same(a, c) -> bool:
    diff = sp.sympify(a) - sp.sympify(c)
    return any(f(diff) == 0 for f in (sp.simplify, lambda t: sp.simplify(sp.expand(t)),
                                       lambda t: sp.simplify(sp.powsimp(sp.expand(t)))))


def normalised(noise: SymmetricNoise) -> SymmetricNoise:
    (norm,) = sp.solve(sp.Eq(noise.total_mass(), 1), NORM)
    return noise.subs({NORM: norm})


@functools.cache
def laplace_noise() -> SymmetricNoise:
    return normalised(Laplace.density.subs({eps: Delta / lam}))


@functools.cache
def truncated_noise() -> SymmetricNoise:
    return normalised(TruncatedLaplace.density.subs({eps: Delta / lam}))


@functools.cache
def staircase_noise() -> SymmetricNoise:
    return normalised(Staircase.density).subs({b: sp.exp(-eps0)})


def uniform_noise() -> SymmetricNoise:
    return UniformMass.density


_DERIVED: dict = {}


def derived(noise, point: dict) -> sp.Expr:
    """:func:`dpsym.privacy.closed_forms.derived_profile` of ``noise()`` at ``point``,
    derived once per point (the quadrature cases share some with the derivation cases)."""
    key = (noise.__name__, frozenset(point.items()))
    if key not in _DERIVED:
        _DERIVED[key] = cf.derived_profile(noise(), e, Delta, point)
    return _DERIVED[key]


@pytest.mark.parametrize(("point", "case"), [
    ({e: sp.Rational(1, 2)}, "inside"), ({e: -sp.Rational(1, 2)}, "inside"),
    ({e: 2}, "zero"), ({e: -2}, "all")])
def test_laplace_is_derived(point, case):
    at = {lam: 1, Delta: 1, **point}
    derived_form = derived(laplace_noise, at)
    form = {"inside": cf.laplace_form(S(e), S(Delta / lam)).v, "zero": 0,
            "all": (-S(e).expm1()).v}[case]
    assert same(derived_form, form)


@pytest.mark.parametrize(("point", "case"), [
    ({A: 2, e: sp.Rational(1, 2)}, 1), ({A: sp.Rational(3, 4), e: sp.Rational(1, 4)}, 1),
    ({A: 2, e: 3}, 2), ({A: 2, e: 1}, 2), ({A: sp.Rational(3, 4), e: 1}, 3),
    ({A: sp.Rational(3, 4), e: sp.Rational(3, 4)}, 3), ({A: sp.Rational(1, 3), e: 1}, 0)])
def test_truncated_laplace_is_derived(point, case):
    at = {lam: 1, Delta: 1, **point}
    derived_form = derived(truncated_noise, at)
    form = 1 if case == 0 else cf.truncated_laplace_case(case, S(e), S(lam), S(A), S(Delta)).v
    assert same(derived_form, form)


@pytest.mark.parametrize(("point", "overlap"), [
    ({L: sp.Rational(3, 2), e: sp.Rational(1, 2)}, True),
    ({L: sp.Rational(3, 2), e: -sp.Rational(1, 2)}, True),
    ({L: sp.Rational(1, 3), e: -1}, False), ({L: sp.Rational(1, 3), e: 1}, False)])
def test_uniform_with_mass_is_derived(point, overlap):
    at = {alpha: sp.Rational(1, 10), NORM: sp.Rational(1, 5), Delta: 1, **point}
    derived_form = derived(uniform_noise, at)
    m = Delta if overlap else 2 * L
    base, rest = alpha + NORM * m, NORM * (2 * L - m)
    form = base if at[e] >= 0 else cf.uniform_atom_form(S(e), S(base), S(rest)).v
    assert same(derived_form, form)


@pytest.mark.parametrize(("point", "low"), [
    ({gamma: sp.Rational(1, 3), e: sp.Rational(1, 2)}, True),
    ({gamma: sp.Rational(2, 3), e: sp.Rational(1, 2)}, False),
    ({gamma: sp.Rational(1, 3), e: 0}, True)])
def test_staircase_is_derived(point, low):
    at = {eps0: 1, Delta: 1, **point}
    derived_form = derived(staircase_noise, at)
    m = gamma if low else 1 - gamma
    form = cf.staircase_form(S(e), S(eps0), S(gamma), S(m)).v
    assert same(derived_form, form)


# ------------------------------------------------------------------ quadrature references

def quadrature(noise: SymmetricNoise, e_value, shift) -> mpmath.mpf:
    r""":math:`\int (f(x) - e^\varepsilon f(x - d))_+` by mpmath, from the numeric
    description (pieces unrolled, the tail's remainder below 1e-40), plus the atom.

    Between two consecutive ends of the pieces of :math:`f` and of its translate, each
    density is a constant or an exponential of :math:`x` (these four families), so the
    ratio :math:`f(x)/f(x - d)` is the exponential of an affine function, monotone: the
    integrand changes sign at most once there, where its values at the two ends differ
    in sign (found by bisection)."""
    pieces = sorted(noise.numeric_pieces(periods=120), key=lambda piece: piece[0])
    starts = [lo for lo, _, _ in pieces]

    def f(t):
        a = abs(t)
        k = bisect.bisect_right(starts, a) - 1
        if k >= 0 and a < pieces[k][1]:
            return pieces[k][2](a)
        return mpmath.mpf(0)

    d = mpmath.mpf(shift.numerator) / shift.denominator
    ee = mpmath.mpf(e_value.numerator) / e_value.denominator
    ends = sorted({*(v for lo, hi, _ in pieces for v in (lo, -lo, hi, -hi)),
                   *(v + d for lo, hi, _ in pieces for v in (lo, -lo, hi, -hi))})
    ends = [v for v in ends if mpmath.isfinite(v)]
    far = [mpmath.mpf(2) ** j for j in range(9)]  # the tails, in chunks out to 256
    ends = [*(ends[0] - v for v in reversed(far)), *ends, *(ends[-1] + v for v in far)]

    factor = mpmath.exp(ee)

    def h(t):
        return f(t) - factor * f(t - d)

    cuts = [ends[0]]
    for a, c in itertools.pairwise(ends):
        lo, hi = a + (c - a) / 10**30, c - (c - a) / 10**30  # inside: one form each
        if h(lo) * h(hi) < 0:
            for _ in range(160):
                mid = (lo + hi) / 2
                lo, hi = (mid, hi) if h(mid) * h(hi) < 0 else (lo, mid)
            cuts.append(lo)
        cuts.append(c)
    # (Gauss-Legendre: on each cut the integrand is a constant or an exponential, where
    # it converges in a few degrees; tanh-sinh, mpmath's default, takes four times as long)
    total = mpmath.quad(lambda t: max(h(t), 0), cuts, method="gauss-legendre")
    return total + mpmath.mpf(sp.N(noise.atom, 50))


def runtime(noise: SymmetricNoise, e_value: Fraction, shift: Fraction) -> mpmath.mpf:
    found = cf.from_noise(noise, e_value, shift)
    assert found is not None
    if found.exact is not None:
        return mpmath.mpf(found.exact.numerator) / found.exact.denominator
    with arb_workprec(200):
        ball = found.enclose(120)
    return mpmath.mpf(ball.mid().str(40, radius=False))


CASES = [  # (noise, values, eps): the boundaries between the cases included
    ("laplace", {lam: 1, Delta: 1}, "1/2"), ("laplace", {lam: 1, Delta: 1}, "1"),
    ("laplace", {lam: 2, Delta: 1}, "-1/4"),
    ("truncated", {lam: 1, Delta: 1, A: 2}, "1/2"),
    ("truncated", {lam: 1, Delta: 1, A: 1}, "1"),  # Delta = A, eps lam = Delta
    ("truncated", {lam: 1, Delta: 1, A: sp.Rational(3, 4)}, "1/2"),  # eps lam = 2A - Delta
    ("truncated", {lam: 1, Delta: 1, A: sp.Rational(3, 4)}, "1/4"),
    ("truncated", {lam: 1, Delta: 1, A: sp.Rational(1, 2)}, "1/4"),  # Delta = 2A
    ("staircase", {eps0: 1, Delta: 1, gamma: sp.Rational(1, 3)}, "1/2"),
    ("staircase", {eps0: 1, Delta: 1, gamma: sp.Rational(1, 2)}, "0"),  # gamma = 1 - gamma
    ("staircase", {eps0: 2, Delta: 1, gamma: sp.Rational(3, 4)}, "1"),
    ("uniform", {alpha: sp.Rational(1, 10), NORM: sp.Rational(9, 20), L: 1, Delta: 2}, "-1/2"),
    ("uniform", {alpha: sp.Rational(1, 10), NORM: sp.Rational(9, 20), L: 1, Delta: 2}, "1/3"),
    ("uniform", {alpha: sp.Rational(1, 10), NORM: sp.Rational(9, 20), L: 1,
                 Delta: sp.Rational(3, 2)}, "-1"),
]


@pytest.mark.parametrize(("family", "values", "e_text"), CASES)
def test_profiles_against_quadrature(family, values, e_text):
    family_noise = {"laplace": laplace_noise, "truncated": truncated_noise,
                    "staircase": staircase_noise, "uniform": uniform_noise}[family]
    numeric = family_noise().subs(values)
    shift = Fraction(str(values[Delta]))
    e_value = Fraction(e_text)
    with workdps(40):
        ref = quadrature(numeric, e_value, shift)
        got = runtime(numeric, e_value, shift)
        assert abs(got - ref) < mpmath.mpf(10) ** -25
        at = {**values, e: sp.Rational(e_text)}
        try:
            derived_form = derived(family_noise, at)
        except ValueError:  # a boundary between the cases: the runtime's exact decisions
            return
        assert abs(mpmath.mpf(sp.N(derived_form.subs(at), 45)) - ref) < mpmath.mpf(10) ** -25
