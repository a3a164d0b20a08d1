r"""Tests of :mod:`dpsym.sampling.exact`: exact samplers of the integer-valued mechanisms.

The primitives they are built on (:mod:`dpsym.sampling.exact_bits`) are verified exactly in
``test_exact_bits.py``.

What is verified and how
------------------------
* The samplers' mass functions exactly, by enumerating every path of their draws with
  the verified primitives replaced by scripted draws of known probabilities.
* The staircase's certified enclosure of the probability of the first part of a period,
  through :func:`bernoulli_real` on bit streams that follow its binary expansion.
* The samplers' output laws by chi-square goodness of fit against mass functions
  computed here from the definitions (mpmath, or Fractions for the uniform), and the mass
  at 0 of the staircase by a z-test.
* That no float appears on the sampling path (a trace of every frame of this module and
  of :mod:`dpsym.sampling.exact_bits`).
* The optimal step :math:`r^*` (the mechanism's certified minimiser, by name or instance) and
  domain errors.

False-alarm rate
----------------
Every statistical assertion is a test at level :data:`ALPHA` :math:`= 10^{-8}`: the
chi-square statistic must stay below the :math:`1 - 10^{-8}` quantile of the chi-square law
with the test's degrees of freedom (asymptotic law; every cell has expected count at least
:data:`MIN_EXPECTED`), and z-statistics below :data:`Z_CRIT` :math:`\approx 5.73`. With
:data:`N_CHECKS` statistical checks in the default run, a correct sampler fails one of them
with probability at most ``N_CHECKS * ALPHA`` :math:`< 2 \cdot 10^{-7} < 10^{-6}` (union
bound; asserted below). The seeds are fixed, so the outcome is deterministic. The slow test
(``-m slow``) states its own level.
"""

from __future__ import annotations

import functools
import math
import random
import sys
from collections.abc import Callable
from fractions import Fraction

import mpmath
import numpy as np
import pytest
from scipy import stats
from scripted_draws import ScriptedBelow, ScriptedBits, enumerate_outcomes

import dpsym.sampling.exact as ex
import dpsym.sampling.exact_bits as eb
from dpsym import DiscreteLaplace, DiscreteStaircase
from dpsym.errors import DomainError
from dpsym.mechanisms.exact_sampling import draw_exact, exact_sampler, sample_exact
from dpsym.sampling.exact import (
    DiscreteLaplaceExact,
    DiscreteStaircaseExact,
    DiscreteUniformExact,
    uniform_support_size,
)
from dpsym.sampling.exact_bits import RandomBits, bernoulli_cuts, bernoulli_real

#: The seed of the explicit generators here (the same as the ``rng`` fixture's).
SEED = 20_240_611

#: Level of each statistical check.
ALPHA = 1e-8
#: Two-sided z threshold at level ALPHA.
Z_CRIT = float(stats.norm.isf(ALPHA / 2))
#: Smallest expected count of a chi-square cell.
MIN_EXPECTED = 50
#: Samples per goodness-of-fit test.
N = 150_000


# ---------------------------------------------------------------------- exact mass functions
def mass_discrete_laplace(eps: Fraction, Delta: int) -> Callable[[int], mpmath.mpf]:
    r""":math:`P(i) = \frac{1-\lambda}{1+\lambda}\lambda^{|i|}`,
    :math:`\lambda = e^{-\varepsilon/\Delta}`."""
    with mpmath.workdps(45):
        lam = mpmath.exp(-mpmath.mpf(eps.numerator) / (eps.denominator * Delta))
        c = (1 - lam) / (1 + lam)

    def mass(i: int) -> mpmath.mpf:
        with mpmath.workdps(45):
            return c * lam ** abs(i)

    return mass


def mass_discrete_staircase(eps: Fraction, Delta: int, r: int) -> Callable[[int], mpmath.mpf]:
    r"""The definition: weights :math:`b^k` / :math:`b^{k+1}`, normalised by direct summation."""
    with mpmath.workdps(45):
        b = mpmath.exp(-mpmath.mpf(eps.numerator) / eps.denominator)

    def weight(i: int) -> mpmath.mpf:
        k, j = divmod(abs(i), Delta)
        return b**k if j < r else b ** (k + 1)

    # sum |i| <= top, with top so large that the remaining mass is below 1e-45
    with mpmath.workdps(45):
        periods = int(mpmath.ceil(105 / (mpmath.mpf(eps.numerator) / eps.denominator)))
        top = (periods + 1) * Delta
        total = weight(0) + 2 * mpmath.fsum(weight(i) for i in range(1, top + 1))

    def mass(i: int) -> mpmath.mpf:
        with mpmath.workdps(45):
            return weight(i) / total

    return mass


def mass_discrete_uniform(delta: Fraction, Delta: int) -> dict[int, Fraction]:
    r"""Uniform on the :math:`n` integers from :math:`-\lfloor n/2 \rfloor`, :math:`n` the
    least integer with :math:`n \ge \Delta/\delta`, averaged with its mirror image."""
    n = 1
    while n < Fraction(Delta) / delta:
        n += 1
    mass: dict[int, Fraction] = {}
    for i in range(-(n // 2), n - n // 2):
        for j in (i, -i):
            mass[j] = mass.get(j, Fraction(0)) + Fraction(1, 2 * n)
    return mass


# ---------------------------------------------------------------------- chi-square
def chi_square(samples: np.ndarray, mass: Callable[[int], object], support: int | None = None,
               n_expected: int | None = None) -> tuple[float, int]:
    """Chi-square statistic and degrees of freedom; cells -L..L, end cells pool the tails.

    ``mass(i)`` is the exact probability of ``i`` (an mpf or a Fraction).
    """
    n = samples.size if n_expected is None else n_expected
    with mpmath.workdps(40):
        def mp(q: object) -> mpmath.mpf:
            if isinstance(q, Fraction):
                return mpmath.mpf(q.numerator) / q.denominator
            return mpmath.mpf(q)

        p = {0: mp(mass(0))}
        lim = 0
        # grow while both the next point and everything beyond it can be their own cells
        while True:
            nxt = lim + 1
            p[nxt], p[-nxt] = mp(mass(nxt)), mp(mass(-nxt))
            central = mpmath.fsum(p[i] for i in range(-nxt, nxt + 1))
            tail = (1 - central) / 2
            if support is not None and nxt >= support:
                lim = nxt
                break
            if n * p[nxt] < MIN_EXPECTED or n * tail < MIN_EXPECTED \
                    or n * min(p[nxt], p[-nxt]) < MIN_EXPECTED:
                break
            lim = nxt
        central = mpmath.fsum(p[i] for i in range(-lim, lim + 1))
        tail = (1 - central) / 2
        probs = [p[i] for i in range(-lim, lim + 1)]
        if support is None:
            probs[0] += tail
            probs[-1] += tail
        probs = np.array([float(q) for q in probs])
    assert abs(probs.sum() - 1) < 1e-12
    observed = np.bincount(np.clip(samples, -lim, lim) + lim, minlength=2 * lim + 1)
    if support is not None:
        assert np.all(np.abs(samples) <= support), "a sample outside the support"
    expected = samples.size * probs
    assert expected.min() >= MIN_EXPECTED
    statistic = float(((observed - expected) ** 2 / expected).sum())
    return statistic, len(probs) - 1


def assert_fits(samples: np.ndarray, mass: Callable[[int], object], **kw: object) -> None:
    statistic, dof = chi_square(samples, mass, **kw)
    critical = float(stats.chi2.isf(ALPHA, dof))
    assert statistic < critical, (
        f"chi-square {statistic:.1f} >= {critical:.1f} on {dof} dof "
        f"(p = {stats.chi2.sf(statistic, dof):.2e})")


# ---------------------------------------------------------------------- cases
LAPLACE_CASES = [(Fraction(1, 2), 1), (Fraction(3), 3), (Fraction(1, 3), 2)]
STAIRCASE_CASES = [
    (Fraction(1, 2), 3, 2),  # r* for amplitude and power
    (Fraction(3), 4, 1),  # r* = 1 at large eps: the second part is rarely chosen
    (Fraction(3), 4, 4),  # r = Delta: no second part (a discrete Laplace of ratio e^{-eps/4})
    (Fraction(7, 5), 5, 3),
]
UNIFORM_CASES = [(Fraction(1, 10), 2), (Fraction(3, 7), 3), (Fraction(1, 4), 1)]

# chi-square per case, plus the staircase's zero-mass z-tests
N_CHECKS = len(LAPLACE_CASES) + 2 * len(STAIRCASE_CASES) + len(UNIFORM_CASES) + 1
assert N_CHECKS * ALPHA < 2e-7


@pytest.mark.parametrize(("eps", "Delta"), LAPLACE_CASES)
def test_discrete_laplace_fits(eps: Fraction, Delta: int, rng: np.random.Generator) -> None:
    samples = sample_exact("discrete-laplace", rng, N, eps=eps, Delta=Delta)
    assert samples.dtype == np.int64 and samples.shape == (N,)
    assert_fits(samples, mass_discrete_laplace(eps, Delta))


@pytest.mark.parametrize(("eps", "Delta", "r"), STAIRCASE_CASES)
def test_discrete_staircase_fits(eps: Fraction, Delta: int, r: int,
                                 rng: np.random.Generator) -> None:
    samples = sample_exact("discrete-staircase", rng, N, eps=eps, Delta=Delta, r=r)
    mass = mass_discrete_staircase(eps, Delta, r)
    assert_fits(samples, mass)
    # the mass at 0 (the origin must not be counted twice): z-test against a(r)
    with mpmath.workdps(40):
        p0 = float(mass(0))
        b = mpmath.exp(-mpmath.mpf(eps.numerator) / eps.denominator)
        closed = 1 / (2 * (r + (Delta - r) * b) / (1 - b) - 1)
        assert abs(mass(0) - closed) < mpmath.mpf("1e-25")
    z = (np.mean(samples == 0) - p0) / math.sqrt(p0 * (1 - p0) / N)
    assert abs(z) < Z_CRIT, f"P(0): z = {z}"


@pytest.mark.parametrize(("delta", "Delta"), UNIFORM_CASES)
def test_discrete_uniform_fits(delta: Fraction, Delta: int, rng: np.random.Generator) -> None:
    masses = mass_discrete_uniform(delta, Delta)
    m = max(masses)
    samples = sample_exact("discrete-uniform", rng, N, delta=delta, Delta=Delta)
    assert samples.min() >= -m and samples.max() <= m
    assert_fits(samples, lambda i: masses.get(i, Fraction(0)), support=m)


def test_staircase_with_Delta_1_is_a_discrete_laplace(rng: np.random.Generator) -> None:
    """Delta = r = 1 (one point per period) is the discrete Laplace of ratio e^{-eps}."""
    samples = sample_exact("discrete-staircase", rng, N, eps="1/2", Delta=1, r=1)
    assert_fits(samples, mass_discrete_laplace(Fraction(1, 2), 1))


# ---------------------------------------------------------------------- discrete uniform
@pytest.mark.parametrize("Delta", [1, 2, 3, 5])
@pytest.mark.parametrize("delta", ["1/2", "1/3", "1/10", "3/7", "2/9", "0.99", "0.05"])
def test_discrete_uniform_is_0_delta_private_and_narrowest(delta: str, Delta: int) -> None:
    r""":math:`P(S) \le P(S + d) + \delta` for all :math:`S`, :math:`|d| \le \Delta`, exactly.

    The worst set for a shift :math:`d` is :math:`\{s : P(s) > P(s + d)\}`, so the
    constraint reads :math:`\sum_s \max(0, P(s) - P(s + d)) \le \delta`.
    """
    d_ = Fraction(delta.split("/")[0]) / Fraction(delta.split("/")[1]) if "/" in delta \
        else Fraction(delta)
    n = DiscreteUniformExact(d_, Delta).support_size

    def worst(size: int, d: int) -> Fraction:
        p = {i: Fraction(1, size) for i in range(size)}  # a shift does not change TV
        return sum((max(Fraction(0), q - p.get(s + d, Fraction(0))) for s, q in p.items()),
                   Fraction(0))

    mass = mass_discrete_uniform(d_, Delta)
    assert sum(mass.values()) == 1
    for d in range(-Delta, Delta + 1):
        assert worst(n, d) <= d_, (n, d)
        # the symmetrised law too (a mixture of two private laws)
        tv = sum((max(Fraction(0), q - mass.get(s + d, Fraction(0))) for s, q in mass.items()),
                 Fraction(0))
        assert tv <= d_
    if n >= 2:  # one point fewer breaks the constraint at d = Delta
        assert worst(n - 1, Delta) > d_


def test_uniform_support_size_values() -> None:
    assert uniform_support_size(Fraction(1, 10), 2) == 20
    assert uniform_support_size(Fraction(1, 4), 1) == 4
    assert uniform_support_size(Fraction(3, 10), 2) == 7
    assert uniform_support_size(Fraction(99, 100), 1) == 2
    assert uniform_support_size(Fraction(1, 2), 1) == 2


# ---------------------------------------------------------------------- mass functions, exactly
@pytest.mark.parametrize("sampler", [
    DiscreteLaplaceExact(Fraction(1, 2), 1), DiscreteLaplaceExact(Fraction(3), 2),
    DiscreteStaircaseExact(Fraction(1, 2), 3, 2), DiscreteStaircaseExact(Fraction(3), 4, 1),
    DiscreteStaircaseExact(Fraction(2), 2, 2), DiscreteStaircaseExact(Fraction(7, 5), 5, 3),
], ids=repr)
def test_sampler_mass_function_exactly(sampler: ex.ExactSampler,
                                       monkeypatch: pytest.MonkeyPatch) -> None:
    r"""The probability of every value :math:`|i| \le 2\Delta + 1` (0 included: the origin is
    not double-counted), by enumerating every draw of the sampler, equals the definition
    to 29 digits. The verified primitives are replaced by scripted draws with their exact
    probabilities: the geometric :math:`P(K = k) = (1 - e^{-\gamma})e^{-\gamma k}`
    (:math:`k` up to where the remaining mass is below :math:`10^{-45}`) and the
    staircase's part choice :math:`p = r/(r + (\Delta - r)e^{-\varepsilon})`."""

    @functools.cache  # (the same law at every branching of the enumeration)
    def geometric_options(s: int, t: int) -> list[tuple[object, object]]:
        with mpmath.workdps(50):
            q = mpmath.exp(-mpmath.mpf(s) / t)
            out, k = [], 0
            while q**k > mpmath.mpf(10) ** -45:
                out.append((k, (1 - q) * q**k))
                k += 1
            return out

    def geometric(source: ScriptedBelow, s: int, t: int) -> int:
        return source.next_value(lambda: geometric_options(s, t))

    monkeypatch.setattr(ex, "geometric_exp_neg_ratio", geometric)

    @functools.cache
    def part_options() -> list[tuple[object, object]]:
        with mpmath.workdps(50):
            b = mpmath.exp(-mpmath.mpf(sampler.eps.numerator) / sampler.eps.denominator)
            p = sampler.r / (sampler.r + (sampler.Delta - sampler.r) * b)
            return [(True, p), (False, 1 - p)]

    def part(source: ScriptedBelow, cuts: object) -> bool:
        return source.next_value(part_options)

    monkeypatch.setattr(ex, "bernoulli_cuts", part)
    if isinstance(sampler, DiscreteLaplaceExact):
        mass = mass_discrete_laplace(sampler.eps, sampler.Delta)
    else:
        mass = mass_discrete_staircase(sampler.eps, sampler.Delta, sampler.r)
    with mpmath.workdps(50):
        outcomes, unfinished = enumerate_outcomes(sampler.draw, mpmath.mpf(10) ** -40)
        accepted = mpmath.fsum(outcomes.values())  # the rejection at (0, -) is a restart:
        # the enumeration follows it, so `accepted + unfinished` is 1 (up to the 1e-45
        # geometric remainder left out)
        assert abs(accepted + unfinished - 1) < mpmath.mpf(10) ** -38
        assert unfinished < mpmath.mpf(10) ** -30
        for i in range(-2 * sampler.Delta - 1, 2 * sampler.Delta + 2):
            assert abs(outcomes.get(i, 0) - mass(i)) < mpmath.mpf(10) ** -29, i


@pytest.mark.parametrize(("eps", "Delta", "r"), [(Fraction(3), 4, 1), (Fraction(1, 2), 3, 2),
                                                 (Fraction(10), 4096, 1)])
def test_staircase_part_choice_refines_exactly(eps: Fraction, Delta: int, r: int) -> None:
    r"""The staircase's choice of part, :func:`bernoulli_real` on
    :meth:`DiscreteStaircaseExact.first_part_enclosure` and :func:`bernoulli_cuts` on its
    thresholds :attr:`DiscreteStaircaseExact.part_cuts` (what the draws use), is the
    comparison of the uniform with :math:`p = r / (r + (\Delta - r) e^{-\varepsilon})`: bit
    streams that follow the expansion of :math:`p` for 300 bits force the refinement.

    With :math:`U` = those 300 bits followed by zeros, :math:`U < p` (p is irrational);
    followed by ones, :math:`U > p`. Either way the comparison needs 512 bits.
    """
    sampler = DiscreteStaircaseExact(eps, Delta, r)
    with mpmath.workdps(200):
        b = mpmath.exp(-mpmath.mpf(eps.numerator) / eps.denominator)
        p = r / (r + (Delta - r) * b)
        prefix = int(mpmath.floor(p * mpmath.mpf(2) ** 300))
    head = format(prefix, "0300b")
    for tail, expected in (("0", True), ("1", False)):
        source = ScriptedBits(head + tail * 2000)
        assert bernoulli_real(source, sampler.first_part_enclosure) is expected
        assert source.pos == 512
        source = ScriptedBits(head + tail * 2000)
        assert bernoulli_cuts(source, sampler.part_cuts) is expected
        assert source.pos == 512


@pytest.mark.parametrize("bits", [1, 64, 200])
def test_first_part_enclosure(bits: int) -> None:
    sampler = DiscreteStaircaseExact(Fraction(7, 5), 5, 3)
    lo, hi = sampler.first_part_enclosure(bits)
    assert lo < hi and hi - lo <= Fraction(1, 2**bits)
    with mpmath.workdps(100):
        p = 3 / (3 + 2 * mpmath.exp(-mpmath.mpf(7) / 5))
        assert mpmath.mpf(lo.numerator) / lo.denominator <= p
        assert p <= mpmath.mpf(hi.numerator) / hi.denominator


def test_staircase_part_choice_decides_early() -> None:
    """A stream clearly below p is decided on the first 64 bits."""
    sampler = DiscreteStaircaseExact(Fraction(3), 4, 1)
    source = ScriptedBits("0" * 64)
    assert bernoulli_real(source, sampler.first_part_enclosure) is True and source.pos == 64
    source = ScriptedBits("1" * 64)
    assert bernoulli_real(source, sampler.first_part_enclosure) is False
    for stream, expected in (("0" * 64, True), ("1" * 64, False)):
        source = ScriptedBits(stream)
        assert bernoulli_cuts(source, sampler.part_cuts) is expected and source.pos == 64


# ---------------------------------------------------------------------- no floats
class IntegerOnlyRandom(random.Random):
    """A ``random.Random`` whose float methods raise: only ``getrandbits`` may be used."""

    def random(self) -> float:
        raise AssertionError("random() called: a float was requested")

    def uniform(self, *args: object) -> float:
        raise AssertionError("uniform() called")


class IntegerOnlyGenerator:
    """Exposes a numpy generator's ``bit_generator`` only; anything else raises."""

    def __init__(self, seed: int) -> None:
        self.bit_generator = np.random.default_rng(seed).bit_generator

    def __getattr__(self, name: str) -> object:
        raise AssertionError(f"{name} requested from the generator")


SAMPLERS = [DiscreteLaplaceExact(Fraction(1, 3), 2), DiscreteLaplaceExact(Fraction(4), 1),
            DiscreteStaircaseExact(Fraction(1, 2), 3, 2),
            DiscreteStaircaseExact(Fraction(10), 64, 1),
            DiscreteUniformExact(Fraction(1, 10), 3)]


@pytest.mark.parametrize("sampler", SAMPLERS, ids=repr)
def test_no_float_on_the_sampling_path(sampler: ex.ExactSampler) -> None:
    """Trace every line executed in dpsym.sampling.exact and dpsym.sampling.exact_bits: no local is
    ever a float; the sources are integer-only objects; every sample is a Python int."""
    seen: list[str] = []
    traced = {ex.__name__, eb.__name__}
    frames: set[str] = set()

    def tracer(frame, event, arg):
        if frame.f_globals.get("__name__") not in traced:
            return None
        frames.add(frame.f_globals["__name__"])

        def local(frame, event, arg):
            for name, value in frame.f_locals.items():
                if isinstance(value, (float, complex, np.floating)):
                    seen.append(f"{frame.f_code.co_name}:{name}={value!r}")
            if event == "return" and isinstance(arg, (float, np.floating)):
                seen.append(f"{frame.f_code.co_name} returned {arg!r}")
            return local

        return local

    sources = [RandomBits(IntegerOnlyRandom(1)), RandomBits(IntegerOnlyGenerator(2))]
    old = sys.gettrace()
    sys.settrace(tracer)
    try:
        values = [sampler.draw(s) for s in sources for _ in range(300)]
    finally:
        sys.settrace(old)
    assert not seen, seen[:5]
    assert frames == traced  # both modules were traced
    assert all(type(v) is int for v in values)
    assert len(set(values)) > 1


def test_tracer_detects_floats() -> None:
    """The float detector of the previous test does fire on a float local."""
    seen: list[str] = []

    def tracer(frame, event, arg):
        def local(frame, event, arg):
            seen.extend(n for n, v in frame.f_locals.items() if isinstance(v, float))
            return local
        return local if frame.f_code.co_name == "has_float" else None

    def has_float() -> int:
        x = 0.5
        return int(x * 2)

    old = sys.gettrace()
    sys.settrace(tracer)
    try:
        has_float()
    finally:
        sys.settrace(old)
    assert "x" in seen


def test_sample_exact_with_integer_only_sources() -> None:
    for rng in (IntegerOnlyRandom(5), IntegerOnlyGenerator(5), random.SystemRandom(), None):
        out = sample_exact("discrete-staircase", rng, 50, eps="1/2", Delta=3, r=2)
        assert out.dtype == np.int64 and out.shape == (50,)


# ---------------------------------------------------------------------- API
def test_reproducible_shapes_and_scalar() -> None:
    a = sample_exact("discrete-laplace", np.random.default_rng(SEED), (3, 4), eps="1/2")
    b = sample_exact("discrete-laplace", np.random.default_rng(SEED), (3, 4), eps="0.5")
    assert a.shape == (3, 4) and a.dtype == np.int64
    np.testing.assert_array_equal(a, b)
    assert sample_exact("discrete-uniform", None, 0, delta="0.1").shape == (0,)
    assert sample_exact("discrete-uniform", None, (2, 0), delta="0.1").shape == (2, 0)
    x = draw_exact("discrete-staircase", random.Random(1), eps="2", Delta=3, r=1)
    assert type(x) is int
    same = [draw_exact("discrete-laplace", random.Random(9), eps=1) for _ in range(2)]
    assert same[0] == same[1]


def test_instances_and_optimal_r() -> None:
    dl = exact_sampler(DiscreteLaplace(eps="0.5", Delta=2))
    assert dl == DiscreteLaplaceExact(Fraction(1, 2), 2)
    m = DiscreteStaircase(eps="3", Delta=4)
    assert exact_sampler(m, cost="amplitude").r == 1
    assert exact_sampler(m, cost="power").r == 2
    assert exact_sampler(m, r=3).r == 3
    assert exact_sampler("discrete-staircase", eps="0.5", Delta=3).r == 2
    assert exact_sampler("discrete-staircase", eps=3, Delta=4, cost="power").r == 2


def test_the_optimal_step_of_a_name_is_the_mechanism_s() -> None:
    """By name, :math:`r^*` is the mechanism's certified integer minimiser, as for an
    instance, and an explicit ``r`` wins."""
    for eps, big, cost in (("3", 4, "amplitude"), ("3", 4, "power"), ("7/3", 5, "power")):
        by_name = exact_sampler("discrete-staircase", eps=eps, Delta=big, cost=cost).r
        assert by_name == int(DiscreteStaircase(eps=eps, Delta=big).free_value(cost))
    assert exact_sampler("discrete-staircase", eps=3, Delta=4, cost="amplitude").r == 1
    assert exact_sampler("discrete-staircase", eps=3, Delta=4, cost="power").r == 2
    assert exact_sampler("discrete-staircase", eps="7/3", Delta=5, r=2).r == 2


def test_discrete_uniform_instance() -> None:
    """Any object with ``type(x).name == 'discrete-uniform'`` and ``values`` works (the
    mechanism class is written separately)."""
    class DiscreteUniform:
        name = "discrete-uniform"

        def __init__(self, **values: object) -> None:
            self.values = {k: Fraction(v) for k, v in values.items()}

    s = exact_sampler(DiscreteUniform(delta="1/10", Delta=2))
    assert s == DiscreteUniformExact(Fraction(1, 10), 2) and s.support_size == 20


def test_real_discrete_uniform_class_if_present() -> None:
    mod = pytest.importorskip("dpsym.mechanisms.discrete_uniform")
    m = mod.DiscreteUniform(delta="0.1", Delta=2)
    s = exact_sampler(m)
    assert isinstance(s, DiscreteUniformExact) and s.support_size == 20


# ---------------------------------------------------------------------- domain errors
@pytest.mark.parametrize(("kwargs", "name", "text"), [
    ({"eps": "0"}, "eps", "(0, 1e100]"),
    ({"eps": "-1/2"}, "eps", "(0, 1e100]"),
    ({"eps": float("nan")}, "eps", "nan"),
    ({"eps": "pi"}, "eps", "decimal"),
    ({"eps": "1/0"}, "eps", "q > 0"),
    ({"eps": "1e101"}, "eps", "(0, 1e100]"),
    ({"eps": "1", "Delta": 0}, "Delta", "integer >= 1"),
    ({"eps": "1", "Delta": "1.5"}, "Delta", "integer >= 1"),
    ({"eps": "1", "Delta": True}, "Delta", "integer >= 1"),
    ({"eps": "1", "Delta": 3, "r": 0}, "r", "[1, 3]"),
    ({"eps": "1", "Delta": 3, "r": 4}, "r", "[1, 3]"),
    ({}, "eps", "required"),
])
def test_staircase_and_laplace_domain_errors(kwargs: dict, name: str, text: str) -> None:
    mech = "discrete-staircase" if "r" in kwargs else "discrete-laplace"
    with pytest.raises(DomainError, match=None) as info:
        exact_sampler(mech, **kwargs)
    assert info.value.name == name and text in str(info.value), str(info.value)


@pytest.mark.parametrize(("delta", "Delta", "name", "text"), [
    ("0", 1, "delta", "(0, 1)"), ("1", 1, "delta", "(0, 1)"), ("-0.1", 1, "delta", "(0, 1)"),
    ("1.5", 1, "delta", "(0, 1)"), (1.0, 1, "delta", "(0, 1)"), (None, 1, "delta", "required"),
    ("0.1", -2, "Delta", "integer >= 1"),
])
def test_uniform_domain_errors(delta: object, Delta: int, name: str, text: str) -> None:
    with pytest.raises(DomainError) as info:
        exact_sampler("discrete-uniform", delta=delta, Delta=Delta)
    assert info.value.name == name and text in str(info.value), str(info.value)


@pytest.mark.parametrize("size", [-1, 2.0, (3, -1), "3", True])
def test_bad_size(size: object) -> None:
    with pytest.raises(DomainError) as info:
        sample_exact("discrete-laplace", None, size, eps=1)
    assert info.value.name == "size" and "non-negative integer" in str(info.value)


def test_other_bad_inputs() -> None:
    with pytest.raises(DomainError, match="valid: discrete-laplace"):
        exact_sampler("staircase", eps=1)
    with pytest.raises(DomainError, match="only"):
        exact_sampler("discrete-laplace", eps=1, r=1)
    with pytest.raises(DomainError) as info:
        exact_sampler(DiscreteLaplace(eps="1"), eps=2)
    assert info.value.name == "eps"
    with pytest.raises(DomainError) as info:
        sample_exact("discrete-laplace", object(), 3, eps=1)
    assert info.value.name == "rng"


def test_int64_overflow_is_reported() -> None:
    s = DiscreteLaplaceExact(Fraction(1, 10**30), 1)
    assert type(s.draw(RandomBits(random.Random(0)))) is int  # Python ints of any size
    with pytest.raises(OverflowError, match="int64"):
        s.sample(random.Random(0), 20)


# ---------------------------------------------------------------------- slow
SLOW_LEVEL = 0.2
SLOW_SEEDS = 30
SLOW_N = 20_000


@pytest.mark.slow
def test_chi_square_rejection_rate_matches_the_level() -> None:
    r"""Rerun chi-square tests at nominal level 0.2 under many seeds.

    Over :math:`3 \times 30 = 90` independent tests the number of rejections of a correct
    sampler is :math:`\mathrm{Binomial}(90, 0.2)` (up to the chi-square approximation,
    expected counts :math:`\ge 50`); the test passes when it lies in the central
    interval of probability :math:`1 - 10^{-6}` of that law (so a correct sampler fails
    with probability below :math:`10^{-6}`). Too few rejections would reveal a sampler
    that copies the mass function too closely (e.g. a non-random one); too many, a wrong
    law.
    """
    cases = [
        (DiscreteLaplaceExact(Fraction(1, 2), 1), mass_discrete_laplace(Fraction(1, 2), 1), {}),
        (DiscreteStaircaseExact(Fraction(3), 4, 1), mass_discrete_staircase(Fraction(3), 4, 1),
         {}),
        (DiscreteUniformExact(Fraction(1, 10), 2),
         lambda i: mass_discrete_uniform(Fraction(1, 10), 2).get(i, Fraction(0)),
         {"support": 10}),
    ]
    rejections = 0
    for sampler, mass, kw in cases:
        for seed in range(SLOW_SEEDS):
            samples = sampler.sample(np.random.default_rng([SEED, seed]), SLOW_N)
            statistic, dof = chi_square(samples, mass, **kw)
            rejections += statistic >= stats.chi2.isf(SLOW_LEVEL, dof)
    total = len(cases) * SLOW_SEEDS
    law = stats.binom(total, SLOW_LEVEL)
    low, high = law.ppf(0.5e-6), law.isf(0.5e-6)
    assert low <= rejections <= high, (rejections, low, high)


def test_floats_mean_the_decimal_they_print_as() -> None:
    """The package's one input rule (``dpsym.core.params.INPUT_RULE``) holds for the exact
    samplers too: 0.1 is 1/10 and 2.0 is 2, not their binary doubles."""
    a = exact_sampler("discrete-laplace", eps=0.1, Delta=2.0)
    b = exact_sampler("discrete-laplace", eps="1/10", Delta=2)
    assert a.sample(random.Random(5), 50).tolist() == b.sample(random.Random(5), 50).tolist()
    c = exact_sampler("discrete-uniform", delta=0.1)
    d = exact_sampler("discrete-uniform", delta="1/10")
    assert c.sample(random.Random(5), 50).tolist() == d.sample(random.Random(5), 50).tolist()
