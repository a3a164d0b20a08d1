r"""The scipy.stats face of the mechanisms: rvs, pdf/pmf, cdf, sf, ppf, moments, entropy.

References are independent of the engine where it matters: the staircase's density is
written here from its definition, its moments are mpmath quadratures of that density, and
the sampler is tested against the cdf by a Kolmogorov-Smirnov statistic with the
Dvoretzky-Kiefer-Wolfowitz bound :math:`P(\sup|F_n - F| > t) \le 2 e^{-2 n t^2}`: with
:math:`t = \sqrt{\ln(2 / 10^{-7}) / (2n)}` a correct sampler fails with probability at
most :math:`10^{-7}` (the bound holds for any distribution function, discrete too).
"""

from __future__ import annotations

import math
import pickle
from fractions import Fraction
from typing import Any

import mpmath
import numpy as np
import pytest
import sympy as sp

import dpsym
from dpsym import (
    AnalyticGaussian,
    ClassicGaussian,
    DiscreteLaplace,
    DiscreteStaircase,
    DiscreteUniform,
    DomainError,
    Laplace,
    Staircase,
    StaircaseMD,
    TruncatedLaplace,
    UniformMass,
    UnsupportedError,
    Value,
)
from dpsym.mechanisms import MECHANISMS
from dpsym.precision import workdps
from dpsym.sampling.samplers import cdf_mp
from dpsym.symbols import Delta, b, eps

#: False-failure probability of each statistical test (below the suite's 1e-6).
ALPHA = 1e-7


def _dkw(n: int) -> float:
    return math.sqrt(math.log(2 / ALPHA) / (2 * n))


# ---------------------------------------------------------------------- references
def _density(e: mpmath.mpf, gamma: mpmath.mpf, Delta: mpmath.mpf = 1):
    """The staircase density from its definition (not from the engine)."""
    bb = mpmath.exp(-e)
    a = (1 - bb) / (2 * Delta * (gamma + bb * (1 - gamma)))

    def f(t):
        y = abs(mpmath.mpf(t)) / Delta
        k = mpmath.floor(y)
        return a * bb**k * (1 if y - k < gamma else bb)

    return f


def _quad_moment(e, gamma, p, periods=140):
    f = _density(e, gamma)
    total = mpmath.mpf(0)
    for k in range(periods):
        for lo, hi in ((k, k + gamma), (k + gamma, k + 1)):
            level = f((lo + hi) / 2)  # the density is constant on each piece
            total += level * mpmath.quad(lambda t: t**p, [lo, hi])
    return 2 * total


# ---------------------------------------------------------------------- rvs
def test_rvs_is_reproducible_and_follows_scipy_conventions() -> None:
    m = Staircase(epsilon=0.3, sensitivity=1)
    first = m.rvs(1000, random_state=1)
    assert first.shape == (1000,) and first.dtype == np.float64
    assert np.array_equal(first, m.rvs(1000, random_state=1))
    assert not np.array_equal(first, m.rvs(1000, random_state=2))
    assert np.array_equal(m.rvs(5, random_state=np.random.SeedSequence(7)),
                          m.rvs(5, random_state=np.random.SeedSequence(7)))
    assert np.array_equal(m.rvs(5, random_state=np.random.default_rng(3)),
                          m.rvs(5, random_state=np.random.default_rng(3)))
    assert np.array_equal(m.rvs(5, random_state=np.random.RandomState(3)),
                          m.rvs(5, random_state=np.random.RandomState(3)))
    assert np.isscalar(m.rvs()) and m.rvs((2, 3)).shape == (2, 3)
    assert DiscreteLaplace(eps=1).rvs(4, random_state=0).dtype == np.int64
    for bad in ("seed", 1.5, -1):
        with pytest.raises(DomainError, match=r"^random_state: "):
            m.rvs(3, random_state=bad)
    with pytest.raises(DomainError, match=r"^size: "):
        m.rvs(-1)


def test_multidimensional_rvs_and_refusals() -> None:
    m = StaircaseMD(eps=1, dim=3)
    assert m.rvs(10, random_state=0).shape == (10, 3)
    assert m.rvs((2, 5), random_state=0).shape == (2, 5, 3)
    assert m.rvs(random_state=0).shape == (3,)
    assert np.array_equal(m.rvs(4, random_state=9), m.rvs(4, random_state=9))
    assert MECHANISMS["discrete-laplace-md"](eps=1, dim=2).rvs(3, random_state=0).shape == (3, 2)
    for method in ("pdf", "cdf", "ppf"):
        with pytest.raises(UnsupportedError, match="3-dimensional"):
            getattr(m, method)(0.5)
    with pytest.raises(UnsupportedError, match="3-dimensional"):
        m.var()


@pytest.mark.parametrize("name", list(MECHANISMS))
def test_every_mechanism_has_the_scipy_face(name: str) -> None:
    cls = MECHANISMS[name]
    values = {"eps": "1/2", "delta": "1/10", "Delta": 1}
    m = cls(**{k: v for k, v in values.items() if k in {p.name for p in cls.params}})
    draws = m.rvs(8, random_state=0)
    assert np.array_equal(draws, m.rvs(8, random_state=0))
    if "dim" in m.values:
        return
    q = np.array([0.01, 0.3, 0.5, 0.8, 0.999])
    x = m.ppf(q)
    assert np.all(np.diff(x) >= 0)
    assert m.mean() == 0.0 and m.var() > 0 and m.std() == pytest.approx(math.sqrt(m.var()))
    assert np.all(m.cdf(x) >= q * (1 - 1e-12))
    lo, hi = m.support()
    assert lo == -hi and np.all(np.abs(draws) <= hi)
    density = m.pmf if m.lattice else m.pdf
    assert np.all(density(x) >= 0)


# ---------------------------------------------------------------------- exact values
def test_mean_var_cdf_ppf_agree_with_the_engine() -> None:
    m = Staircase(epsilon=0.3, sensitivity=1)
    assert m.mean() == 0.0 and m.median() == 0.0 and m.moment(3) == 0.0 and m.moment(0) == 1
    # the distribution's gamma is the amplitude optimum; var is the power cost there
    gamma = Staircase.optimal_parameter("amplitude")
    power = Staircase.cost_function("power").subs(Staircase.free.symbol, gamma)
    exact = sp.N(power.subs({b: sp.exp(-sp.Rational(3, 10)), Delta: 1, eps: sp.Rational(3, 10)}),
                 40)
    with workdps(40):
        assert mpmath.almosteq(mpmath.mpf(m.moment_value(2, 25).text), mpmath.mpf(str(exact)),
                               rel_eps=mpmath.mpf(10)**-24)
    assert m.var() == float(m.moment_value(2, 17)) == m.moment(2)
    # with gamma fixed, var is exactly the engine's power cost of that staircase
    fixed = Staircase(epsilon=0.3, sensitivity=1, gamma="1/3")
    assert fixed.var() == pytest.approx(float(fixed.value("cost", "power", 30)), rel=1e-16)
    assert fixed.abs_moment(1) == pytest.approx(float(fixed.value("cost", "amplitude", 30)),
                                                rel=1e-16)
    # cdf against the engine's exact description at 30 digits (mpmath)
    points = np.array([-40.0, -3.7, -0.2, 0.0, 0.45, 2.0, 11.5, 80.0])
    with workdps(30):
        noise = m._dist_noise()
        exact_cdf = [float(cdf_mp(noise, mpmath.mpf(t))) for t in points]
    assert np.allclose(m.cdf(points), exact_cdf, rtol=1e-13, atol=0)
    assert np.allclose(m.sf(-points), exact_cdf, rtol=1e-13, atol=0)  # symmetry, both tails
    # ppf is the inverse: cdf(ppf(q)) = q to float64 rounding, across 300 decades
    q = np.concatenate([10.0 ** -np.arange(1, 300, 7), np.linspace(0.01, 0.99, 99),
                        1 - 10.0 ** -np.arange(1, 16)])
    back = m.cdf(m.ppf(q))
    assert np.allclose(back, q, rtol=1e-12, atol=0)
    assert m.ppf(0.5) == 0.0 and m.ppf(0) == -np.inf and m.ppf(1) == np.inf
    assert np.isnan(m.ppf(1.5)) and m.isf(0.1) == pytest.approx(-m.ppf(0.1), rel=1e-15)


def test_moments_against_quadrature_of_the_density() -> None:
    m = Staircase(eps=1, gamma="2/5")
    with workdps(30):
        e, g = mpmath.mpf(1), mpmath.mpf(2) / 5
        f = _density(e, g)
        points = [0.1, 0.39, 0.41, 1.2, 1.5, 7.3, -7.3]
        assert np.allclose(m.pdf(points), [float(f(t)) for t in points], rtol=1e-14)
        references = {p: _quad_moment(e, g, p) for p in (1, 2, 3, mpmath.mpf(1) / 2)}
        for p, reference in references.items():
            text = m.moment_value(Fraction(1, 2) if p == 0.5 else p, 20).text
            assert mpmath.almosteq(mpmath.mpf(text), reference, rel_eps=mpmath.mpf(10)**-18)
        assert mpmath.almosteq(mpmath.mpf(m.value("cost", "power", 20).text),
                               references[2], rel_eps=mpmath.mpf(10)**-18)
    assert m.value("gamma").text.startswith("0.4000000")
    with pytest.raises(DomainError, match=r"^gamma: must be a number in \[0, 1\]"):
        Staircase(eps=1, gamma="1.5")
    assert repr(m) == "Staircase(eps='1', Delta='1', gamma='2/5')"


def test_the_default_gamma_is_the_amplitude_optimum() -> None:
    m = Staircase(eps=2)
    with workdps(30):
        expected = 1 / (1 + mpmath.exp(mpmath.mpf(1)))  # 1 / (1 + e^{eps/2})
        assert mpmath.almosteq(mpmath.mpf(m.value("gamma", "amplitude", 25).text), expected,
                               rel_eps=mpmath.mpf(10)**-24)
        f = _density(mpmath.mpf(2), expected)
        assert np.allclose(m.pdf([0.1, 0.5, 3.2]), [float(f(t)) for t in (0.1, 0.5, 3.2)],
                           rtol=1e-14)
        assert mpmath.almosteq(mpmath.mpf(m.moment_value(2, 20).text),
                               _quad_moment(mpmath.mpf(2), expected, 2),
                               rel_eps=mpmath.mpf(10)**-18)


def test_lattice_mass_function_and_quantiles() -> None:
    m = DiscreteLaplace(eps=1)
    k = np.arange(-30, 31)
    bb = math.exp(-1)
    assert np.allclose(m.pmf(k), (1 - bb) / (1 + bb) * bb ** np.abs(k), rtol=1e-14)
    assert m.pmf(0.5) == 0.0 and m.pmf(k).sum() == pytest.approx(1, abs=1e-12)
    q = np.linspace(0.001, 0.999, 101)
    n = m.ppf(q)
    assert np.all(n == np.floor(n))
    assert np.all(m.cdf(n) >= q) and np.all(m.cdf(n - 1) < q)
    assert np.allclose(m.sf(k), 1 - m.cdf(k), atol=1e-15)
    with pytest.raises(UnsupportedError, match="pmf"):
        m.pdf(0)
    with pytest.raises(UnsupportedError, match="pdf"):
        Laplace(eps=1).pmf(0)


def test_entropy() -> None:
    assert Laplace(eps=2, Delta=3).entropy() == pytest.approx(1 + math.log(3.0), rel=1e-14)
    bb = math.exp(-1)
    p = (1 - bb) / (1 + bb) * bb ** np.abs(np.arange(-200, 201))
    assert DiscreteLaplace(eps=1).entropy() == pytest.approx(-(p * np.log(p)).sum(), rel=1e-12)
    ds = DiscreteStaircase(eps=1, Delta=4)
    mass = ds.pmf(np.arange(-400, 401))
    mass = mass[mass > 0]
    assert ds.entropy() == pytest.approx(-(mass * np.log(mass)).sum(), rel=1e-12)
    m = Staircase(eps=1, gamma="2/5")
    with workdps(20):
        f = _density(mpmath.mpf(1), mpmath.mpf(2) / 5)
        h = -2 * sum(mpmath.quad(lambda t: f(t) * mpmath.log(f(t)), [lo, hi])
                     for k in range(120) for lo, hi in ((k, k + 0.4), (k + 0.4, k + 1)))
    assert m.entropy() == pytest.approx(float(h), rel=1e-12)
    uniform = UniformMass(delta="1/10")
    if float(sp.N(uniform._dist_noise().atom)) > 0:
        with pytest.raises(UnsupportedError, match="point mass"):
            uniform.entropy()


# ---------------------------------------------------------------------- which law
def test_law_chooses_the_cost_whose_optimal_parameter_defines_the_distribution() -> None:
    default = Staircase(epsilon=0.3)
    power = default.law("power")
    assert default.law_cost == "amplitude" and power.law_cost == "power"
    # the power-optimal law's variance is the optimal power cost, to float precision
    optimal = float(Staircase(eps="0.3").value("cost", "power", 30))
    assert abs(power.var() - optimal) <= math.ulp(optimal)
    assert power.moment(2) == power.var() and power.std() == pytest.approx(math.sqrt(optimal))
    # the default law is still the amplitude-optimal one, whose variance is larger
    assert default.var() == pytest.approx(22.139169220956223, rel=1e-15)
    assert default.var() > optimal * (1 + 1e-6)
    assert abs(default.abs_moment(1) - float(default.value("cost", "amplitude"))) \
        <= math.ulp(default.abs_moment(1))
    # every method describes the power-optimal staircase: its density from the definition
    gamma = power.value("gamma", "power", 25)
    with workdps(30):
        f = _density(mpmath.mpf(3) / 10, mpmath.mpf(gamma.text))
        points = [0.05, 0.3, 0.6, 4.2, -9.9]
        assert np.allclose(power.pdf(points), [float(f(t)) for t in points], rtol=1e-14)
    assert np.array_equal(power.rvs(50, random_state=4),
                          default.sample(np.random.default_rng(4), 50, "power"))
    assert not np.array_equal(power.cdf([0.45, 2.0]), default.cdf([0.45, 2.0]))
    # the law survives repr and pickling; law() does not change the instance it is called on
    assert repr(power) == "Staircase(eps='3/10', Delta='1').law('power')"
    assert eval(repr(power), {"Staircase": Staircase}).var() == power.var()
    assert pickle.loads(pickle.dumps(power)).var() == power.var()
    assert repr(default) == "Staircase(eps='3/10', Delta='1')"
    # the other families with a free parameter, and one without
    for m in (DiscreteStaircase(eps=1, Delta=4), UniformMass(delta="0.8"), Laplace(eps=1)):
        exact = float(m.value("cost", "power", 30))
        assert abs(m.law("power").var() - exact) <= math.ulp(exact), m
    assert UniformMass(delta="0.8").var() > UniformMass(delta="0.8").law("power").var()
    with pytest.raises(DomainError, match=r"^cost: staircase: gamma was given"):
        Staircase(eps=1, gamma="1/2").law("power")
    with pytest.raises(DomainError, match=r"^cost: "):
        default.law("cubic")


# ---------------------------------------------------------------------- quantiles
#: Real-valued laws whose quantiles are checked: tails with a geometric, exponential and
#: Gaussian decay, bounded supports, a point mass, and a staircase whose float64 cdf is
#: flat on most of each period (eps = 20: a density ratio e^-20 between its two steps).
CONTINUOUS = {
    "staircase": lambda: Staircase(epsilon=0.3),
    "staircase-power": lambda: Staircase(epsilon=0.3).law("power"),
    "staircase-fixed": lambda: Staircase(eps="log(3)", gamma="1/4", Delta=2),
    "staircase-eps20": lambda: Staircase(eps=20),
    "laplace": lambda: Laplace(eps="1/2", Delta=3),
    "truncated-laplace": lambda: TruncatedLaplace(eps=1, delta="0.05"),
    "gaussian": lambda: ClassicGaussian(eps="1/2", delta="1/10"),
    "analytic-gaussian": lambda: AnalyticGaussian(eps=2, delta="1e-5"),
    "uniform-mass": lambda: UniformMass(delta="0.8"),
    "uniform": lambda: UniformMass(delta="1/10"),
}
#: Points of both signs from 1e-300 to 3000, and a dense grid of the body.
_MAGNITUDES = np.concatenate([10.0 ** np.linspace(-300, 3.5, 400), np.linspace(0.01, 50, 500)])
_XS = np.concatenate([-_MAGNITUDES, [0.0], _MAGNITUDES])


@pytest.mark.parametrize("name", list(CONTINUOUS))
def test_ppf_and_isf_are_the_exact_inverses_of_cdf_and_sf(name: str) -> None:
    r"""``ppf(q)`` is a double ``y`` with ``cdf(prev(y)) < q <= cdf(y)`` (the smallest one
    where the float64 cdf is monotone) and ``isf`` the same for ``sf``; so ``ppf(cdf(x))``
    lies in the run of doubles where ``cdf`` equals ``cdf(x)``. That run is narrow: the
    float64 cdf is within a few units of its last place of the exact one, so
    :math:`|y - x| \le 2\,\mathrm{ulp}(x) + 4 \cdot 2^{-52} F(x) / \min f` (the density
    between them is at least the smaller of ``pdf(x)``, ``pdf(y)``: it decreases in
    :math:`|x|`); on the upper side ``isf(sf(x))`` obeys the same bound with ``sf(x)``."""
    m = CONTINUOUS[name]()
    x = _XS
    ulp = np.spacing(np.abs(x))
    for forward, inverse, sign in ((m.cdf, m.ppf, 1.0), (m.sf, m.isf, -1.0)):
        q = forward(x)
        y = inverse(q)
        inside = (q > 0) & (q < 1) & (q != 0.5)  # 0, 1: the support's ends; 0.5: the median
        # sign * forward increases: sign * forward(prev(y)) < sign * q <= sign * forward(y)
        assert np.all((sign * forward(y) >= sign * q)[inside]), name
        prev = np.nextafter(y, -np.inf)
        assert np.all((sign * forward(prev) < sign * q)[inside]), name
        density = np.minimum(m.pdf(x), m.pdf(y))
        body = inside & (density > 0) & (q > 1e-280)
        bound = 2 * ulp + 4 * 2.0**-52 * q / np.where(body, density, 1.0)
        assert np.all((np.abs(y - x) <= bound)[body]), (name, x[body & (np.abs(y - x) > bound)])


def test_quantile_round_trips_recover_x_far_in_the_tails() -> None:
    """Where the float64 cdf (lower tail) or sf (upper tail) resolves x, the round trip
    returns x to two ulp: the reviewer's isf(sf(130)) and isf(1e-17) included."""
    m = Staircase(epsilon=0.3)
    assert math.isfinite(m.isf(1e-17)) and m.sf(m.isf(1e-17)) <= 1e-17
    assert m.sf(np.nextafter(m.isf(1e-17), 0)) > 1e-17
    assert m.isf(m.sf(130.0)) == pytest.approx(130.0, abs=2 * math.ulp(130.0))
    for law in (m, Laplace(eps="1/2", Delta=3), ClassicGaussian(eps="1/2", delta="1/10"),
                AnalyticGaussian(eps=2, delta="1e-5")):
        tiny = law.isf(5e-324)
        assert math.isfinite(tiny) and tiny > 0 and law.isf(0) == np.inf, law
        assert math.isfinite(law.to_scipy().isf(1e-17)), law
        x = np.linspace(16, tiny, 400)[:-1]
        x = x[law.sf(x) > 1e-300]  # normal doubles: subnormals lose relative precision
        assert np.all(np.abs(law.isf(law.sf(x)) - x) <= 2 * np.spacing(x)), law
        assert np.all(np.abs(law.ppf(law.cdf(-x)) + x) <= 2 * np.spacing(x)), law
    # the body: ppf(cdf(0.5)) is at or below 0.5 (the first double of its cdf value)
    assert m.ppf(m.cdf(0.5)) <= 0.5 and m.cdf(m.ppf(m.cdf(0.5))) == m.cdf(0.5)
    assert m.ppf(m.cdf(40.0)) <= 40.0 and m.cdf(m.ppf(m.cdf(40.0))) == m.cdf(40.0)


def test_support_ends_follow_scipy() -> None:
    for m in (TruncatedLaplace(eps=1, delta="0.05"), UniformMass(delta="0.8"),
              UniformMass(delta="1/10")):
        low, high = m.support()
        assert np.isfinite(high) and low == -high
        assert m.ppf(0.0) == low and m.ppf(1.0) == high
        assert m.isf(1.0) == low and m.isf(0.0) == high
        assert m.interval(1.0) == (low, high) == tuple(m.to_scipy().support())
        assert m.interval(1.0) == tuple(m.to_scipy().interval(1.0))
        assert np.all(np.abs(m.ppf([1e-300, 1 - 1e-16])) <= high)
    for m in (DiscreteUniform(delta="0.3"), DiscreteUniform(delta="1/10")):
        low, high = m.support()  # scipy's rv_discrete: ppf(0) = isf(1) = low - 1
        frozen = m.to_scipy()
        assert np.array_equal(m.ppf([0.0, 1.0]), [low - 1, high])
        assert np.array_equal(m.isf([0.0, 1.0]), [high, low - 1])
        assert np.array_equal(m.ppf([0.0, 1.0]), frozen.ppf([0.0, 1.0]))
        assert m.interval(1.0) == (low - 1, high) == tuple(frozen.interval(1.0))
        assert m.isf(1e-300) == high
    m = Staircase(eps=1)
    assert m.interval(1.0) == (-np.inf, np.inf) and m.ppf(0) == -np.inf and m.isf(0) == np.inf
    with pytest.raises(DomainError, match=r"^confidence: "):
        m.interval(1.5)


@pytest.mark.parametrize("m", [DiscreteLaplace(eps=1), DiscreteLaplace(eps="1/2", Delta=3),
                               DiscreteStaircase(eps=1, Delta=4), DiscreteUniform(delta="0.3"),
                               DiscreteUniform(delta="1/10")], ids=repr)
def test_lattice_quantiles_invert_cdf_and_sf(m: Any) -> None:
    """On the integers ``ppf(cdf(k)) = k`` wherever the float64 cdf separates ``k`` from
    ``k - 1`` (the lower tail and the body), ``isf(sf(k)) = k`` wherever sf does (the
    upper tail and the body, down to the smallest doubles); both return integers."""
    k = np.arange(-800.0, 801.0)
    q, s = m.cdf(k), m.sf(k)
    y, z = m.ppf(q), m.isf(s)
    resolved = (m.cdf(k - 1) < q) & (q > 0) & (q < 1)
    assert np.array_equal(y[resolved], k[resolved])
    resolved = (m.sf(k - 1) > s) & (s > 0) & (s < 1)
    assert np.array_equal(z[resolved], k[resolved])
    assert resolved.sum() >= min(400, np.sum(m.pmf(k) > 0) - 2)
    qs = np.concatenate([10.0 ** -np.arange(1, 300, 3), np.linspace(0.001, 0.999, 101)])
    for inverse in (m.ppf, m.isf):
        n = inverse(qs)
        assert np.all(n == np.floor(n))
    n = m.ppf(qs)
    assert np.all(m.cdf(n) >= qs) and np.all(m.cdf(n - 1) < qs)
    n = m.isf(qs)
    assert np.all(m.sf(n) <= qs) and np.all(m.sf(n - 1) > qs)


# ---------------------------------------------------------------------- point mass
def test_point_mass_draws_are_positive_zeros() -> None:
    m = UniformMass(delta="0.8")  # alpha* = 2 delta - 1 = 3/5 for the amplitude cost
    draws = m.rvs(100_000, random_state=11)
    zeros = draws[draws == 0]
    assert zeros.size > 50_000 and not np.signbit(zeros).any()  # +0.0, never -0.0
    scalars = [m.rvs(random_state=seed) for seed in range(40)]
    assert any(v == 0 for v in scalars) and not any(np.signbit(v) for v in scalars if v == 0)


def test_point_mass_cdf_and_sf_at_zero_are_exactly_rounded() -> None:
    m = UniformMass(delta="0.8")
    assert m.sf(0) == 0.2 and m.cdf(0) == 0.8 and m.sf(-0.0) == 0.2
    assert m.cdf(np.nextafter(0, -1)) == 0.2 and m.sf(np.nextafter(0, 1)) <= 0.2
    for delta in ("0.55", "0.7", "0.93"):  # P(X > 0) = (1 - alpha)/2, the nearest double
        u = UniformMass(delta=delta)
        alpha = Fraction(u.value("alpha", "amplitude", 30).text)
        assert u.sf(0) == float((1 - alpha) / 2) and u.cdf(0) == float((1 + alpha) / 2)
    assert np.array_equal(m.sf([-1.0, 0.0, 0.5]), [1.0, 0.2, 0.1])


def test_a_mixed_law_has_no_differential_entropy() -> None:
    m = UniformMass(delta="0.8")
    with pytest.raises(UnsupportedError, match=r"^uniform-mass: .*a mixed law has no "
                       r"differential entropy"):
        m.entropy()
    assert UniformMass(delta="1/10").entropy() == pytest.approx(math.log(10), rel=1e-14)


# ---------------------------------------------------------------------- KS tests
def test_ks_continuous_sampler_against_cdf() -> None:
    """KS of rvs against cdf, n = 20000, threshold from the DKW bound (false failure
    probability <= 1e-7 each), for staircases (the amplitude- and the power-optimal law,
    a fixed gamma) and a truncated Laplacian."""
    n = 20_000
    for m in (Staircase(epsilon=0.3, sensitivity=1), TruncatedLaplace(eps=1, delta="0.05"),
              Staircase(eps="log(3)", gamma="1/4", Delta=2),
              Staircase(epsilon=0.3).law("power")):
        x = np.sort(m.rvs(n, random_state=20240611))
        f = m.cdf(x)
        i = np.arange(1, n + 1)
        statistic = max(np.max(i / n - f), np.max(f - (i - 1) / n))
        assert statistic < _dkw(n), (m, statistic)


def test_ks_lattice_sampler_against_cdf() -> None:
    """The same for integer-valued noise: both distribution functions jump at integers
    only, so the supremum is over the integers in the sample's range."""
    n = 20_000
    for m in (DiscreteLaplace(eps="1/2"), DiscreteStaircase(eps=1, Delta=5)):
        x = m.rvs(n, random_state=7)
        k = np.arange(x.min() - 1, x.max() + 1)
        empirical = np.searchsorted(np.sort(x), k, side="right") / n
        assert np.max(np.abs(empirical - m.cdf(k))) < _dkw(n), m


# ---------------------------------------------------------------------- adapters, values
def test_to_scipy_is_a_frozen_scipy_distribution() -> None:
    stats = pytest.importorskip("scipy.stats")
    m = Staircase(eps=1)
    frozen = m.to_scipy()
    assert frozen.cdf(1.0) == m.cdf(1.0) and frozen.ppf(0.9) == m.ppf(0.9)
    assert frozen.var() == pytest.approx(m.var(), rel=1e-15)
    draws = frozen.rvs(size=500, random_state=1)
    assert np.array_equal(draws, frozen.rvs(size=500, random_state=1))
    assert stats.kstest(m.rvs(2000, random_state=5), m.cdf).pvalue > ALPHA
    lattice = DiscreteLaplace(eps=1).to_scipy()
    assert lattice.pmf(1) == DiscreteLaplace(eps=1).pmf(1)
    # scipy's new infrastructure (make_distribution)
    new = m.to_scipy(infrastructure="new")
    assert new.cdf(1.0) == m.cdf(1.0) and new.icdf(0.9) == m.ppf(0.9)
    assert new.variance() == pytest.approx(m.var(), rel=1e-15)
    assert np.array_equal(new.sample(4, rng=np.random.default_rng(2)),
                          m.rvs(4, random_state=np.random.default_rng(2)))
    assert DiscreteLaplace(eps=1).to_scipy(infrastructure="new").pmf(1) == lattice.pmf(1)


def test_value_behaves_like_a_number() -> None:
    v = Staircase(eps=1).value("cost", "power", 40)
    assert isinstance(v, Value) and str(v) == v.text and f"{v}" == v.text
    assert float(v) == float(v.number) and f"{v:.3f}" == "1.918"
    with workdps(50):
        assert mpmath.mpf(v) == v.number


def test_public_names_are_importable_from_dpsym() -> None:
    for cls in MECHANISMS.values():
        assert getattr(dpsym, cls.__name__) is cls
    from dpsym import StaircaseMD as Imported  # the example

    assert Imported is StaircaseMD
    for name in dpsym.__all__:
        assert hasattr(dpsym, name)
    # the engine's symbolic E|X|^p is the engine component's
    assert isinstance(Staircase.engine.moment(2), sp.Expr)
