r"""Exact privacy profiles (dpsym.privacy.profiles) against independent derivations.

The references here never call the engine's normalisation or integration code: the Laplace
profile is integrated by sympy from the two densities, the staircase and the discrete
mechanisms are integrated (summed) by brute force over many periods with an explicit bound
on the neglected tail.
"""

from __future__ import annotations

import functools
import math
from fractions import Fraction
from itertools import pairwise

import mpmath
import pytest
import sympy as sp

from dpsym import DiscreteLaplace, DiscreteStaircase, Laplace, Staircase, TruncatedLaplace
from dpsym.errors import DomainError, UnsupportedError
from dpsym.privacy.profiles import (
    PrivacyCheck,
    hockey_stick,
    is_private,
    max_hockey_stick,
    privacy_loss_bound,
    privacy_profile,
)
from dpsym.symbolic.noise import GeometricTail, Piece, SymmetricNoise
from dpsym.symbols import u, x

R = sp.Rational


def numeric_noise(inst, cost="amplitude", digits=30, free_value=None):
    """The instance's numeric noise and sensitivity, as its privacy methods build them."""
    return inst.numeric_noise(cost, free_value, digits + 10), inst.values["Delta"]


def mpq(text: str | int | Fraction) -> mpmath.mpf:
    """An exact decimal as an mpf at the current precision."""
    f = Fraction(text)
    return mpmath.mpf(f.numerator) / f.denominator


def close(a, b_, digits: int) -> bool:
    """Agreement to ``digits`` significant digits (absolute near zero)."""
    return abs(a - b_) <= mpmath.mpf(10) ** (-digits) * max(1, abs(b_))


# ---------------------------------------------------------------------------- Laplace
@pytest.fixture(scope="module")
def laplace_closed_form():
    r"""δ(ε') at d = Δ by direct sympy integration of the two Laplace densities."""
    e, ep, dd = sp.symbols("e ep D", positive=True)
    lam = dd / e
    c = sp.exp(ep)
    z = sp.Symbol("z", real=True)

    def f(arg, sign):  # the Laplace density on the side where |arg| = sign * arg
        return sp.exp(-sign * arg / lam) / (2 * lam)

    # On [-Δ, 0] f(z)/f(z+Δ) = exp((2z + Δ)/λ) increases through c at the root z0; below
    # -Δ the ratio is e^{-ε} < c, above 0 it is e^{ε} ≥ c: f > c f(·+Δ) on (z0, ∞).
    (z0,) = sp.solve(sp.Eq(sp.log(f(z, -1)) - sp.log(f(z + dd, 1)), ep), z)
    middle = sp.integrate(f(z, -1) - c * f(z + dd, 1), (z, z0, 0))
    right = sp.integrate(f(z, 1) - c * f(z + dd, 1), (z, 0, sp.oo))
    closed = sp.simplify(middle + right)
    return sp.lambdify((e, ep, dd), closed, "mpmath"), closed


LAPLACE_CASES = [("0.5", "0.3", "2"), ("1", "0", "1"), ("2.5", "1.25", "0.75"),
                 ("0.1", "0.05", "3"), ("3", "-1", "1.5")]


@pytest.mark.parametrize(("e", "ep", "dd"), LAPLACE_CASES)
def test_laplace_profile_matches_sympy_integration(laplace_closed_form, e, ep, dd):
    closed, _ = laplace_closed_form
    inst = Laplace(eps=e, Delta=dd)
    value = inst.privacy_profile(ep, digits=35)
    noise, _ = numeric_noise(inst)
    with mpmath.workdps(60):
        expected = closed(mpq(e), mpq(ep), mpq(dd))
        assert close(value.number, expected, 34)
        assert close(hockey_stick(noise, dd, ep), expected, 50)
        assert close(hockey_stick(noise, "-" + dd, ep), expected, 50)


def test_laplace_closed_form_is_the_textbook_one(laplace_closed_form):
    _, closed = laplace_closed_form
    e, ep = sp.symbols("e ep", positive=True)
    textbook = 1 - sp.exp((ep - e) / 2)
    probe = {e: R(7, 5), ep: R(2, 5), sp.Symbol("D", positive=True): R(3, 2)}
    assert abs(sp.N((closed.subs(probe) - textbook.subs(probe)), 40)) < 1e-35


@pytest.mark.parametrize(("e", "dd"), [("0.5", "2"), ("1", "1"), ("2.5", "0.75")])
@pytest.mark.parametrize("above", ["0", "0.01", "1"])
def test_laplace_pure_dp(e, dd, above):
    inst = Laplace(eps=e, Delta=dd)
    ep = Fraction(e) + Fraction(above)
    value = inst.privacy_profile(ep, digits=30)
    assert value.text == "0" and value.number == 0


def test_laplace_monotone_in_shift():
    noise, _ = numeric_noise(Laplace(eps="0.8", Delta="1.5"))
    with mpmath.workdps(40):
        values = [hockey_stick(noise, mpq("1.5") * j / 20, "0.2") for j in range(21)]
        assert values[0] == 0
        assert all(a <= b_ for a, b_ in pairwise(values))
        best, shift = max_hockey_stick(noise, "1.5", "0.2")
        assert shift == mpq("1.5") and best == values[-1]


def test_laplace_privacy_loss():
    noise, _ = numeric_noise(Laplace(eps="0.7", Delta=2))
    with mpmath.workdps(40):
        assert close(privacy_loss_bound(noise, 2), mpq("0.7"), 35)
        assert close(privacy_loss_bound(noise, -1), mpq("0.35"), 35)
        assert privacy_loss_bound(noise, 0) == 0


# ---------------------------------------------------------------------------- staircase
def staircase_density(e: mpmath.mpf, dd: mpmath.mpf, g: mpmath.mpf):
    """The Geng–Viswanath staircase density, written from the paper's formula."""
    bb = mpmath.exp(-e)
    a = (1 - bb) / (2 * dd * (g + bb * (1 - g)))
    levels: dict[int, mpmath.mpf] = {}  # a b^k, by period (at the caller's precision)

    def f(t):
        u = abs(t) / dd
        k = mpmath.floor(u)
        level = levels.get(int(k))
        if level is None:
            level = levels[int(k)] = a * bb**k
        return level * (1 if u - k < g else bb)

    return f, bb


def brute_staircase(e, dd, g, shift, ep) -> tuple[mpmath.mpf, mpmath.mpf]:
    """∫ (f(x) - e^{ε'} f(x + d))_+ over K periods on each side, piece by piece between
    the breakpoints of f(x) and f(x + d), where the integrand is constant: its value at
    the piece's midpoint times its length (checked equal to its value at a third of
    every piece that the precision resolves).

    Returns the value and a bound on the neglected mass beyond the window.
    """
    f, bb = staircase_density(e, dd, g)
    periods = int(mpmath.ceil(mpmath.mp.dps * math.log(10) / e)) + 2
    window = periods * dd
    pts = set()
    for k in range(-periods - 2, periods + 3):
        for base in (k * dd, (k + g) * dd, -(k + g) * dd):
            for p in (base, base - shift):
                if -window <= p <= window:
                    pts.add(p)
    pts |= {-window, window}
    ordered = sorted(pts)
    c = mpmath.exp(ep)

    def integrand(t):
        return max(mpmath.mpf(0), f(t) - c * f(t + shift))

    # The integrand is constant between consecutive points: exact on each of them.
    resolved = window * mpmath.mpf(2) ** (-mpmath.mp.prec // 2)
    pieces = []
    for p, q in pairwise(ordered):
        value = integrand((p + q) / 2)
        if q - p > resolved:
            assert integrand(p + (q - p) / 3) == value
        pieces.append(value * (q - p))
    total = mpmath.fsum(pieces)
    # Beyond the window the integrand is at most f: bound its mass 2 P(X > window - |d|).
    remainder = 2 * f(0) * dd * bb ** (periods - 2) / (1 - bb)
    return total, remainder


STAIR_POINTS = [("0.5", "2"), ("1", "0.5"), ("2", "3")]
STAIR_CHOICES = [("amplitude", None), ("power", None), ("amplitude", "0.2"),
                 ("amplitude", "0.7")]


@pytest.mark.parametrize(("e", "dd"), STAIR_POINTS)
@pytest.mark.parametrize(("cost", "free"), STAIR_CHOICES)
def test_staircase_pure_dp(e, dd, cost, free):
    inst = Staircase(eps=e, Delta=dd)
    for above in ("0", "0.001", "0.5"):
        value = inst.privacy_profile(Fraction(e) + Fraction(above), cost, 30, free_value=free)
        assert value.text == "0" and value.number == 0
    below = inst.privacy_profile(Fraction(e) * Fraction(9, 10), cost, 30, free_value=free)
    assert below.number > 0
    verdict = inst.is_private(e, cost=cost, free_value=free)
    assert isinstance(verdict, PrivacyCheck) and verdict.private and bool(verdict)
    assert verdict.delta == 0


@pytest.mark.parametrize(("e", "dd", "ep"), [("0.5", "2", "0.3"), ("1", "0.5", "0"),
                                             ("2", "3", "1.5")])
@pytest.mark.parametrize(("cost", "free"), [("amplitude", None), ("power", None),
                                            ("amplitude", "0.2")])
def test_staircase_profile_brute_force(e, dd, ep, cost, free):
    inst = Staircase(eps=e, Delta=dd)
    value = inst.privacy_profile(ep, cost, 30, free_value=free)
    noise, _ = numeric_noise(inst, cost, 40, free)
    g_exact = noise.tail.pieces[0].hi / noise.tail.period
    with mpmath.workdps(40):
        g = mpmath.mpf(sp.Rational(g_exact).p) / sp.Rational(g_exact).q
        best, shift = max_hockey_stick(noise, dd, ep)
        assert close(best, value.number, 30)
        reference, remainder = brute_staircase(mpq(e), mpq(dd), g, shift, mpq(ep))
        assert remainder < mpmath.mpf(10) ** -30
        assert close(reference, best, 27)
        # An interior shift, whose breakpoints fall between those of f.
        inner = mpq(dd) * mpq("0.37")
        reference, _ = brute_staircase(mpq(e), mpq(dd), g, inner, mpq(ep))
        assert close(reference, hockey_stick(noise, inner, ep), 27)


@pytest.mark.parametrize(("e", "dd", "ep", "free"), [("0.5", "2", "0.3", None),
                                                     ("1", "1", "0.2", "0.2"),
                                                     ("0.3", "1.5", "0", "0.85")])
def test_staircase_sup_over_shift_beats_grid(e, dd, ep, free):
    inst = Staircase(eps=e, Delta=dd)
    noise, _ = numeric_noise(inst, "amplitude", 30, free)
    with mpmath.workdps(30):
        best, shift = max_hockey_stick(noise, dd, ep)
        assert 0 < shift <= mpq(dd)
        assert close(hockey_stick(noise, shift, ep), best, 25)
        slack = mpmath.mpf(10) ** -25
        for j in range(201):
            d = mpq(dd) * j / 200
            assert hockey_stick(noise, d, ep) <= best + slack


def test_sup_over_shift_at_an_interior_breakpoint_difference():
    """Two bumps at ±[1, 2): the worst shift lies strictly inside (0, Δ], not at Δ = 3."""
    noise = SymmetricNoise(lattice=False, head=(Piece(0, 1, 0), Piece(1, 2, R(1, 2))))
    with mpmath.workdps(30):
        for ep in (mpq(0), mpq("0.4")):
            best, shift = max_hockey_stick(noise, 3, ep)
            # At 1 <= d <= 2 the shifted bumps miss both bumps of f: H = 1.
            assert close(best, mpq(1), 28) and 1 <= shift <= 2
            assert hockey_stick(noise, 3, ep) < best - mpq("0.1")
            grid = [hockey_stick(noise, mpq(3) * j / 300, ep) for j in range(301)]
            assert max(grid) <= best + mpmath.mpf(10) ** -25


@pytest.mark.parametrize("cls", [Laplace, Staircase, DiscreteLaplace, DiscreteStaircase])
def test_profile_is_symmetric_in_shift(cls):
    noise, _ = numeric_noise(cls(eps="0.6", Delta=3))
    with mpmath.workdps(40):
        shifts = [1, 2, 3] if noise.lattice else [mpq("0.37"), mpq("1.5"), mpq(3)]
        for d in shifts:
            for ep in ("0", "0.25", "0.6"):
                assert close(hockey_stick(noise, d, ep), hockey_stick(noise, -d, ep), 35)


def test_staircase_privacy_loss():
    noise, _ = numeric_noise(Staircase(eps="0.8", Delta=2))
    with mpmath.workdps(40):
        assert close(privacy_loss_bound(noise, 2), mpq("0.8"), 35)
        assert close(privacy_loss_bound(noise, "0.5"), mpq("0.8"), 35)
        assert privacy_loss_bound(noise, 0) == 0


# ---------------------------------------------------------------------------- non-private
def laplace_noise(scale: sp.Expr) -> SymmetricNoise:
    return SymmetricNoise(lattice=False,
                          head=(Piece(0, sp.oo, sp.exp(-x / scale) / (2 * scale)),))


def staircase_noise(dd: sp.Expr, g: sp.Expr, ratio: sp.Expr) -> SymmetricNoise:
    """A staircase shape with level ratio ``ratio`` per period Δ, normalised by hand."""
    level = (1 - ratio) / (2 * dd * (g + ratio * (1 - g)))
    pieces = (Piece(0, g * dd, level), Piece(g * dd, dd, level * ratio))
    return SymmetricNoise(lattice=False, tail=GeometricTail(0, dd, ratio, pieces))


def test_hand_built_noises_are_normalised():
    for noise in (laplace_noise(R(3, 4)), staircase_noise(R(2), R(1, 5), sp.exp(-R(3)))):
        assert sp.simplify(noise.total_mass() - 1) == 0


@pytest.mark.parametrize(("e", "dd"), [("0.5", "2"), ("1.5", "1")])
def test_laplace_too_narrow_is_not_private(e, dd):
    e_, dd_ = R(e), R(dd)
    noise = laplace_noise(dd_ / (2 * e_))  # the Laplace mechanism for 2ε
    verdict = is_private(noise, e, sensitivity=dd)
    assert not verdict.private and verdict.delta > 0
    with mpmath.workdps(40):
        assert close(verdict.delta, 1 - mpmath.exp(-mpq(e) / 2), 28)
        assert close(privacy_loss_bound(noise, dd), 2 * mpq(e), 35)
    # It is (ε, δ)-DP for δ = the upper end of its profile's enclosure, not for the lower
    # end (decided from the enclosure, without tolerance), and 2ε-DP.
    lo, hi = privacy_profile(noise, e, sensitivity=dd).enclosure
    assert is_private(noise, e, hi, sensitivity=dd).private
    assert not is_private(noise, e, lo, sensitivity=dd).private
    assert is_private(noise, 2 * Fraction(e), sensitivity=dd).private


@pytest.mark.parametrize("g", ["0.2", "0.5"])
def test_staircase_decaying_too_fast_is_not_private(g):
    e, dd = R(1, 2), R(2)
    noise = staircase_noise(dd, R(g), sp.exp(-2 * e))  # ratio e^{-2ε} < e^{-ε}
    verdict = is_private(noise, e, sensitivity=dd)
    assert not verdict.private and verdict.delta > 0
    with mpmath.workdps(40):
        reference, _ = brute_staircase(2 * mpq("0.5"), mpq(2), mpq(g), verdict.shift, mpq("0.5"))
        assert close(reference, verdict.delta, 25)
        assert close(privacy_loss_bound(noise, dd), mpq(1), 35)
    # A ratio above e^{-ε} is flatter, hence private (it is even ε/2-DP).
    flatter = staircase_noise(dd, R(g), sp.exp(-e / 2))
    assert is_private(flatter, e, sensitivity=dd).private
    assert is_private(flatter, e / 2, sensitivity=dd).private


# ---------------------------------------------------------------------------- lattice
def brute_lattice(mass, shift: int, ep, span: int) -> mpmath.mpf:
    c = mpmath.exp(ep)
    return mpmath.fsum(max(mpmath.mpf(0), mass(i) - c * mass(i + shift))
                       for i in range(-span, span + 1))


def discrete_laplace_mass(e, dd):
    lam = mpmath.exp(-e / dd)
    return lambda i: (1 - lam) / (1 + lam) * lam ** abs(i), lam


def discrete_staircase_mass(e, dd: int, r: int, span: int):
    bb = mpmath.exp(-e)

    def raw(i):
        k, j = divmod(abs(i), dd)
        return bb**k * (1 if j < r else bb)

    norm = mpmath.fsum(raw(i) for i in range(-span, span + 1))

    @functools.cache  # (each shift's brute-force sum reads the same masses)
    def mass(i):
        return raw(i) / norm

    return mass, bb


@pytest.mark.parametrize(("e", "dd"), [("0.5", 1), ("0.5", 3), ("1.2", 5)])
def test_discrete_laplace(e, dd):
    inst = DiscreteLaplace(eps=e, Delta=dd)
    assert inst.privacy_profile(e).text == "0"
    assert inst.is_private(e).private
    noise, _ = numeric_noise(inst)
    for ep in ("0", Fraction(e) / 2):
        value = inst.privacy_profile(ep, digits=30)
        assert value.number > 0
        with mpmath.workdps(45):
            mass, lam = discrete_laplace_mass(mpq(e), dd)
            span = int(40 * math.log(10) / float(-mpmath.log(lam))) + dd + 2
            brute = max(brute_lattice(mass, d, mpq(ep), span) for d in range(1, dd + 1))
            assert close(brute, value.number, 29)
            assert close(hockey_stick(noise, dd, ep), brute, 38)
            assert close(privacy_loss_bound(noise, dd), mpq(e), 40)


@pytest.mark.parametrize(("e", "dd"), [("0.5", 2), ("1", 4), ("0.3", 6)])
@pytest.mark.parametrize("free", [None, 1, "last"])
def test_discrete_staircase(e, dd, free):
    inst = DiscreteStaircase(eps=e, Delta=dd)
    free = dd if free == "last" else free
    assert inst.privacy_profile(e, free_value=free).text == "0"
    assert inst.privacy_profile(Fraction(e) + 1, free_value=free).text == "0"
    noise, _ = numeric_noise(inst, free_value=free)
    r = int(noise.tail.pieces[0].hi)
    ep = Fraction(e) / 3
    value = inst.privacy_profile(ep, digits=30, free_value=free)
    assert value.number > 0
    with mpmath.workdps(45):
        span = int(40 * math.log(10) / float(e)) * dd + 2 * dd
        mass, _ = discrete_staircase_mass(mpq(e), dd, r, span)
        per_shift = [brute_lattice(mass, d, mpq(ep), span - dd) for d in range(1, dd + 1)]
        assert close(max(per_shift), value.number, 29)
        for d, brute in zip(range(1, dd + 1), per_shift, strict=True):
            assert close(hockey_stick(noise, d, ep), brute, 35)
            assert close(hockey_stick(noise, d, e), 0, 40)


# ---------------------------------------------------------------------------- generic cases
def test_non_exponential_pieces_triangle():
    """A triangular density: roots found by bracketing, sympy antiderivatives."""
    noise = SymmetricNoise(lattice=False, head=(Piece(0, 1, 1 - x),))
    with mpmath.workdps(40):
        for d, ep in [(mpq("0.3"), mpq("0.2")), (mpq("1.5"), mpq(0)), (mpq("0.05"), mpq(1))]:
            c = mpmath.exp(ep)

            def tri(t):
                return max(mpmath.mpf(0), 1 - abs(t))

            def integrand(t, d=d, c=c):
                return max(mpmath.mpf(0), tri(t) - c * tri(t + d))

            # tri(t) - c tri(t + d) is continuous and linear between these kinks; add
            # its zeros (by linear interpolation) as the integrand's further kinks.
            kinks = sorted({-1 - d, -1, -d, 0, 1 - d, 1})
            zeros = []
            for p, q in pairwise(kinks):
                fp, fq = tri(p) - c * tri(p + d), tri(q) - c * tri(q + d)
                if fp * fq < 0:
                    zeros.append(p + (q - p) * fp / (fp - fq))
            kinks = sorted(kinks + zeros)
            ref = mpmath.quad(integrand, kinks)
            assert close(hockey_stick(noise, d, ep), ref, 35)
        assert privacy_loss_bound(noise, mpq("0.3")) == mpmath.inf
        with pytest.raises(UnsupportedError):
            max_hockey_stick(noise, 1, 0)


def test_same_noise_described_with_head_and_exponential_tail():
    """Laplace and discrete Laplace re-described with a head and a shifted geometric tail."""
    lam = R(5, 2)
    cc = 1 / (2 * lam)
    split = SymmetricNoise(lattice=False, head=(Piece(0, 1, cc * sp.exp(-x / lam)),),
                           tail=GeometricTail(1, R(1, 2), sp.exp(-1 / (2 * lam)),
                                              (Piece(0, R(1, 2), cc * sp.exp(-(1 + u) / lam)),)))
    plain = laplace_noise(lam)
    gl = sp.exp(-R(1, 3))
    kk = (1 - gl) / (1 + gl)
    split_lat = SymmetricNoise(lattice=True, head=(Piece(0, 3, kk * gl**x),),
                               tail=GeometricTail(3, 2, gl**2, (Piece(0, 2, kk * gl**(3 + u)),)))
    plain_lat = SymmetricNoise(lattice=True, tail=GeometricTail(0, 1, gl, (Piece(0, 1, kk),)))
    for noise in (split, split_lat):
        assert abs(sp.N(noise.total_mass() - 1, 40)) < 1e-35
    with mpmath.workdps(40):
        for d in (mpq("0.3"), mpq(2), mpq(-5), mpq("7.25")):
            for ep in ("0", "0.2", "0.4"):
                assert close(hockey_stick(split, d, ep), hockey_stick(plain, d, ep), 35)
                if d == int(d):
                    assert close(hockey_stick(split_lat, int(d), ep),
                                 hockey_stick(plain_lat, int(d), ep), 35)
            assert close(privacy_loss_bound(split, d), privacy_loss_bound(plain, d), 35)
        assert close(max_hockey_stick(split, 3, "0.5")[0], 1 - mpmath.exp(mpq("-0.35")), 35)
        assert close(max_hockey_stick(split_lat, 4, "0.5")[0],
                     max_hockey_stick(plain_lat, 4, "0.5")[0], 35)


def test_atom_and_finite_support():
    noise = SymmetricNoise(lattice=False, head=(Piece(0, R(1, 2), R(1, 2)),), atom=R(1, 2))
    assert noise.total_mass() == 1
    with mpmath.workdps(30):
        assert close(hockey_stick(noise, R(1, 4), 0), mpq("0.625"), 28)
        assert close(hockey_stick(noise, 0, -1), 1 - mpmath.exp(-1), 28)
        assert hockey_stick(noise, 0, 0) == 0
        assert privacy_loss_bound(noise, R(1, 4)) == mpmath.inf
        best, shift = max_hockey_stick(noise, 1, 0)
        assert close(best, mpq(1), 28) and shift == 1  # disjoint supports at d = 1


def test_zero_shift_and_negative_eps_prime():
    noise, _ = numeric_noise(Staircase(eps=1, Delta=1))
    with mpmath.workdps(30):
        assert hockey_stick(noise, 0, "0.5") == 0
        assert close(hockey_stick(noise, 0, "-0.5"), 1 - mpmath.exp(mpq("-0.5")), 28)


def test_errors():
    with pytest.raises(DomainError):
        hockey_stick(Staircase.engine.noise(), 1, 0)
    noise, _ = numeric_noise(DiscreteLaplace(eps=1, Delta=2))
    with pytest.raises(DomainError):
        hockey_stick(noise, "0.5", 0)
    with pytest.raises(DomainError):
        Staircase(eps=1, Delta=1).privacy_profile(0, free_value="1.5")
    with pytest.raises(DomainError):
        DiscreteStaircase(eps=1, Delta=3).privacy_profile(0, free_value="1.5")
    with pytest.raises(DomainError):
        Laplace(eps=1).is_private(1, delta="-0.1")
    with pytest.raises(DomainError):
        is_private(noise, 1)  # a SymmetricNoise needs its sensitivity


def test_the_noise_api_and_the_mechanism_methods_agree():
    """privacy takes a noise description and a sensitivity; the Mechanism methods only
    supply them (the same certified digits either way)."""
    inst = Staircase(eps="0.7", Delta=2)
    noise, sens = numeric_noise(inst, digits=25)
    for ep in ("0.3", "0.7"):
        direct = privacy_profile(noise, ep, 25, sensitivity=sens)
        assert direct == inst.privacy_profile(ep, digits=25)
        lo, hi = direct.enclosure
        assert is_private(noise, ep, hi, 25, sensitivity=sens).private
        assert is_private(noise, ep, lo, 25, sensitivity=sens).private == (lo == hi == "0")
    with pytest.raises(DomainError):
        privacy_profile(noise, "0.5", sensitivity=None)


# ------------------------------------------------------------------ irrational eps', eps
def laplace_integral(lam, dd, ep) -> mpmath.mpf:
    r"""∫ (f(x) - e^{ε'} f(x + Δ))_+ for f(x) = e^{-|x|/λ}/(2λ), by mpmath.quad split at
    0, -Δ and the crossing point (λε' - Δ)/2 (written from the definition)."""
    c = mpmath.exp(ep)

    def f(t):
        return mpmath.exp(-abs(t) / lam) / (2 * lam)

    cross = (lam * ep - dd) / 2
    pts = sorted({-dd, mpmath.mpf(0), min(max(cross, -dd), mpmath.mpf(0))})
    return mpmath.quad(lambda t: max(mpmath.mpf(0), f(t) - c * f(t + dd)),
                       [-mpmath.inf, *pts, mpmath.inf])


@pytest.mark.parametrize(("e", "dd"), [("1", 1), ("log(3)", 1), ("sqrt(2)", 2)])
def test_laplace_irrational_eps_prime_is_enclosed(e, dd):
    """ε' = log 2, √2/2, -2 (below -Δ/λ: δ = 1 - e^{ε'}) and ε' = ε (exact 0), with an
    irrational ε of the mechanism too: enclosures against quadrature."""
    inst = Laplace(eps=e, Delta=dd)
    for ep in ("log(2)", "sqrt(2)/2", "-2", "-log(5)"):
        value = inst.privacy_profile(ep, digits=20)
        assert value.certificate == "enclosure"
        with mpmath.workdps(40):
            lam = dd / mpmath.mpf(sp.N(sp.sympify(e), 50))
            reference = laplace_integral(lam, dd, mpmath.mpf(sp.N(sp.sympify(ep), 50)))
            lo, hi = (mpmath.mpf(t) for t in value.enclosure)
            assert lo - mpmath.mpf(10) ** -30 <= reference <= hi + mpmath.mpf(10) ** -30
    at = inst.privacy_profile(e, digits=20)
    assert at.certificate == "exact" and at.text == "0"
    assert inst.is_private(e, 0).private


@pytest.mark.parametrize("e", ["1", "log(3)", "sqrt(2)"])
def test_staircase_irrational_eps_prime_is_enclosed(e):
    inst = Staircase(eps=e, Delta=1)
    noise, _ = numeric_noise(inst, digits=20)
    gamma = sp.sympify(noise.tail.pieces[0].hi)  # the step, read from the description
    for ep in ("log(2)", "sqrt(2)/3"):
        value = inst.privacy_profile(ep, digits=20)
        with mpmath.workdps(40):
            eps0 = mpmath.mpf(sp.N(sp.sympify(e), 50))
            epv = mpmath.mpf(sp.N(sp.sympify(ep), 50))
            reference, remainder = brute_staircase(eps0, mpmath.mpf(1), mpmath.mpf(
                sp.N(gamma, 50)), mpmath.mpf(1), epv)
            assert remainder < mpmath.mpf(10) ** -30
            lo, hi = (mpmath.mpf(t) for t in value.enclosure)
            if epv < eps0:
                assert value.certificate == "enclosure"
                assert lo - mpmath.mpf(10) ** -28 <= reference <= hi + mpmath.mpf(10) ** -28
            else:
                assert value.certificate == "exact" and value.text == "0"
    at = inst.privacy_profile(e, digits=20)
    assert at.certificate == "exact" and at.text == "0"


@pytest.mark.parametrize(("e", "d"), [("1", "0.1"), ("log(3)", "0.01")])
def test_truncated_laplace_every_eps_prime_is_enclosed(e, d):
    r"""Negative ε' (the loss exceeds it on part or all of the overlap) and an irrational
    ε of the mechanism: against mpmath quadrature of the truncated density
    :math:`e^{-|x|/\lambda}/(2\lambda(1 - e^{-A/\lambda}))` on :math:`[-A, A]`, with
    :math:`\lambda` and :math:`A` read from the description."""
    inst = TruncatedLaplace(eps=e, delta=d)
    noise, dd = numeric_noise(inst, digits=20)
    (piece,) = noise.head
    with mpmath.workdps(40):
        A = mpmath.mpf(sp.N(piece.hi, 50))
        expr = sp.sympify(piece.expr)
        lam = mpmath.mpf(sp.N(-1 / sp.simplify(sp.diff(expr, x) / expr), 50))
        shift = mpmath.mpf(sp.N(dd, 50))

        def f(t):
            if abs(t) > A:
                return mpmath.mpf(0)
            return mpmath.exp(-abs(t) / lam) / (2 * lam * (1 - mpmath.exp(-A / lam)))

    for ep in ("-3", "-1/2", "0", "1/2", "log(2)"):
        value = inst.privacy_profile(ep, digits=20)
        assert value.certificate == "enclosure"
        with mpmath.workdps(40):
            c = mpmath.exp(mpmath.mpf(sp.N(sp.sympify(ep), 50)))
            cross = (lam * mpmath.log(c) - shift) / 2
            pts = sorted({-A - shift, -A, A - shift, A, -shift, mpmath.mpf(0),
                          min(max(cross, -shift), mpmath.mpf(0))})
            reference = mpmath.quad(lambda t, c=c: max(mpmath.mpf(0), f(t) - c * f(t + shift)),
                                    pts)
            lo, hi = (mpmath.mpf(t) for t in value.enclosure)
            assert lo - mpmath.mpf(10) ** -28 <= reference <= hi + mpmath.mpf(10) ** -28


@pytest.mark.parametrize(("e", "dd"), [("1", "1"), ("2", "3")])
def test_staircase_negative_eps_prime_is_enclosed(e, dd):
    r"""ε' < 0 (where the staircase's closed form does not apply): the piecewise-constant
    sums (dpsym.privacy.lattice on the line) against the maximum over shifts on a grid and
    at the breakpoint differences γΔ, (1 - γ)Δ of brute-force quadratures, which the
    value must contain (the grid cannot exceed the supremum; the kinks attain it)."""
    inst = Staircase(eps=e, Delta=dd)
    noise, _ = numeric_noise(inst, digits=20)
    gamma = sp.sympify(noise.tail.pieces[0].hi) / sp.sympify(dd)
    for ep in ("-1/2", "-log(3)", "-3"):
        value = inst.privacy_profile(ep, digits=20)
        assert value.certificate == "enclosure"
        with mpmath.workdps(30):
            big, g = mpq(dd), mpmath.mpf(sp.N(gamma, 40))
            epv = mpmath.mpf(sp.N(sp.sympify(ep), 40))
            shifts = {big * j / 6 for j in range(1, 7)} | {g * big, (1 - g) * big}
            found = []
            for d in shifts:
                got, remainder = brute_staircase(mpq(e), big, g, d, epv)
                assert remainder < mpmath.mpf(10) ** -22
                found.append(got)
            reference = max(found)
            lo, hi = (mpmath.mpf(t) for t in value.enclosure)
            assert lo - mpmath.mpf(10) ** -20 <= reference <= hi + mpmath.mpf(10) ** -20


@pytest.mark.parametrize(("e", "d", "dd"), [("1", "0.1", "1"), ("1/2", "0.01", "3/2"),
                                           ("1", "0.1", "3")])
def test_is_private_exact_tie_of_an_enclosure(e, d, dd):
    r"""The truncated Laplace mechanism's profile at its own ε is δ itself, an irrational
    expression whose balls never separate from δ: the tie is proven by sympy (private),
    and δ just below is not."""
    inst = TruncatedLaplace(eps=e, delta=d, Delta=dd)
    at = inst.is_private(e, d)
    assert at.private and at.tolerance == 0
    assert not inst.is_private(e, Fraction(d) - Fraction(1, 10**40))


def test_is_private_exact_tie_of_the_piecewise_sums():
    r"""Staircase at ε' = -log 3: every loss exceeds ε', δ = 1 - 1/3 = 2/3 exactly, from
    sums over irrational masses (e^{-1}); the tie is proven by sympy."""
    inst = Staircase(eps=1)
    value = inst.privacy_profile("-log(3)", digits=20)
    assert value.certificate == "enclosure" and value.text == "0.66666666666666666667"
    assert inst.is_private("-log(3)", "2/3").private
    assert not inst.is_private("-log(3)", Fraction(2, 3) - Fraction(1, 10**30)).private


@pytest.mark.parametrize(("cls", "e", "d"), [("analytic-gaussian", "1", "0.1"),
                                             ("gaussian", "1/2", "0.1")])
def test_gaussian_noise_profile_is_enclosed(cls, e, d):
    r"""A normal noise description (σ² rational or irrational, read from the density's
    exponent) through the noise API: an enclosure containing
    :math:`\Phi(-\varepsilon/\mu + \mu/2) - e^{\varepsilon}\Phi(-\varepsilon/\mu - \mu/2)`,
    :math:`\mu = \Delta/\sigma`, written here with mpmath's erfc."""
    from dpsym.mechanisms import get_mechanism

    inst = get_mechanism(cls)(eps=e, delta=d)
    noise, dd = numeric_noise(inst, digits=20)
    (piece,) = noise.head
    expr = sp.sympify(piece.expr)
    var = sp.simplify(x * expr / -sp.diff(expr, x))  # sigma^2
    for ep in ("0", "1/4", e):
        value = privacy_profile(noise, ep, 20, sensitivity=dd)
        assert value.certificate == "enclosure"
        with mpmath.workdps(50):
            mu = mpq(dd) / mpmath.sqrt(mpmath.mpf(sp.N(var, 70)))
            epv = mpq(ep)

            def phi(t):
                return mpmath.erfc(-t / mpmath.sqrt(2)) / 2

            reference = phi(-epv / mu + mu / 2) - mpmath.exp(epv) * phi(-epv / mu - mu / 2)
            lo, hi = (mpmath.mpf(t) for t in value.enclosure)
            assert lo - mpmath.mpf(10) ** -40 <= reference <= hi + mpmath.mpf(10) ** -40
