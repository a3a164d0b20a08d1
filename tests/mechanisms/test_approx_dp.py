r"""The approximate-DP mechanisms against independent computations from their definitions.

* Truncated Laplacian (paper 003, Definition 3): :math:`A` and :math:`B` re-solved here
  numerically from the two defining conditions; costs by mpmath quadrature of the density;
  Theorem 1 by the certified privacy profile (:math:`\delta` attained, not exceeded);
  series remainders against quadrature; the :math:`\varepsilon = \delta \to 0` constant
  against the numerical limit.
* :math:`\mathcal{P}_\alpha` (poster 002): :math:`\alpha^*` by direct minimisation of the
  quadrature cost, the symbolic-:math:`p` optimum against the numeric ones.
* Discrete uniform (slides 000, Part Three): costs and the exact :math:`(0, \delta)`
  constraint in rational arithmetic.
* Gaussian mechanisms: the analytic :math:`\sigma` against an independent hockey-stick
  quadrature; the classic formula; costs by quadrature.

Statistical checks: z-tests of :math:`\mathbb{E}|X|^k`, :math:`k = 1, 2`, with the exact
variance, at :math:`|z| <` :data:`Z_CRIT` (two-sided level :math:`10^{-8}` each); with
:data:`N_CHECKS` checks the probability that correct samplers fail any is below
:math:`10^{-6}` (union bound, asserted below). Seeds are fixed.
"""

from __future__ import annotations

import functools
import math
from fractions import Fraction

import mpmath
import numpy as np
import pytest
import sympy as sp
from scipy import stats

from dpsym import (
    AnalyticGaussian,
    ClassicGaussian,
    DiscreteUniform,
    DomainError,
    TruncatedLaplace,
    UniformMass,
)
from dpsym.core.costs import Cost
from dpsym.core.params import substitution
from dpsym.errors import UnsupportedError
from dpsym.symbols import Delta, c, delta, eps, p

DIGITS = 40
Z_CRIT = float(stats.norm.isf(0.5e-8))
N_SAMPLES = 400_000
SAMPLER_CASES = [
    (TruncatedLaplace, {"eps": "0.5", "delta": "0.01", "Delta": "2"}),
    (TruncatedLaplace, {"eps": "3", "delta": "0.2", "Delta": "1"}),
    (UniformMass, {"delta": "0.3", "Delta": "1"}),
    (UniformMass, {"delta": "0.8", "Delta": "2"}),
    (ClassicGaussian, {"eps": "0.5", "delta": "1e-5", "Delta": "1"}),
    (AnalyticGaussian, {"eps": "2", "delta": "1e-6", "Delta": "3"}),
]
N_CHECKS = 2 * len(SAMPLER_CASES) + 6
assert N_CHECKS * 1e-8 < 1e-6


def close(a: mpmath.mpf, b: mpmath.mpf, digits: int = DIGITS) -> bool:
    return abs(a - b) <= mpmath.mpf(10) ** (-digits) * abs(b)


# ---------------------------------------------------------------------- truncated Laplacian
@functools.lru_cache(maxsize=32)
def _tlap_solution(e: str, d: str, sens: str, prec: int) -> tuple[mpmath.mpf, mpmath.mpf]:
    """(A, B) solved from Definition 3's two conditions at precision ``prec`` (once per
    parameter point: the amplitude and power cases share them)."""
    mp: dict[str, mpmath.mpf] = {}  # the parameters at the current precision

    def set_precision() -> None:
        mp["d"], mp["sens"] = mpmath.mpf(d), mpmath.mpf(sens)
        mp["lam"] = mp["sens"] / mpmath.mpf(e)

    def b_of(a):  # total mass one
        return 1 / (2 * mpmath.quad(lambda t: mpmath.exp(-t / mp["lam"]), [0, a]))

    def last(a):  # mass of the last interval of length Delta
        return b_of(a) * mpmath.quad(lambda t: mpmath.exp(-t / mp["lam"]),
                                     [a - mp["sens"], a]) - mp["d"]

    # bisection (last is decreasing) to a bracket 2^-40 of its first width, at 64 bits
    # (it only gives the starting points: a sign misread near the root still leaves them
    # within 2^-50 of it), then the secant method at precision ``prec``, which findroot
    # runs to the working precision and verifies (else it raises)
    with mpmath.workprec(64):
        set_precision()
        lo = mp["sens"]
        hi = lo + 2 * mp["lam"] * mpmath.log(1 + 1 / mp["d"]) + 1
        for _ in range(40):
            mid = (lo + hi) / 2
            lo, hi = (mid, hi) if last(mid) > 0 else (lo, mid)
    with mpmath.workprec(prec):
        set_precision()
        a = mpmath.findroot(last, (lo, hi))
        return a, b_of(a)


def tlap_reference(e: str, d: str, sens: str, power: int) -> tuple[mpmath.mpf, ...]:
    """(A, B, E|X|^power) solved from Definition 3's conditions, by quadrature."""
    a, b = _tlap_solution(str(e), str(d), str(sens), mpmath.mp.prec)
    lam = mpmath.mpf(sens) / mpmath.mpf(e)
    moment = 2 * b * mpmath.quad(lambda t: t**power * mpmath.exp(-t / lam), [0, a])
    return a, b, moment


@pytest.mark.parametrize("e, d, sens", [("0.1", "1e-6", "1"), ("1e-4", "0.3", "2"),
                                        ("50", "1e-12", "1"), ("2", "0.49", "0.5"),
                                        ("7", "1e-9", "3")])
@pytest.mark.parametrize("cost, power", [("amplitude", 1), ("power", 2)])
def test_truncated_laplace_values(e, d, sens, cost, power):
    m = TruncatedLaplace(eps=e, delta=d, Delta=sens)
    with mpmath.workdps(DIGITS + 30):
        a, b, moment = tlap_reference(e, d, sens, power)
        assert close(m.value("cost", cost, DIGITS).number, moment, DIGITS - 1)
        assert close(m.value("A", cost, DIGITS).number, a, DIGITS - 1)
        assert close(m.value("B", cost, DIGITS).number, b, DIGITS - 1)


def test_truncated_laplace_domain():
    with pytest.raises(DomainError, match="delta"):
        TruncatedLaplace(eps="1", delta="0.5")
    with pytest.raises(DomainError, match="eps"):
        TruncatedLaplace(eps="0", delta="0.1")


@pytest.mark.parametrize("e, d", [("0.5", "0.01"), ("3", "0.2")])
def test_theorem_1_delta_attained_not_exceeded(e, d):
    m = TruncatedLaplace(eps=e, delta=d, Delta="1.5")
    # certified to 20 digits, the profile at eps is delta exactly
    assert Fraction(m.privacy_profile(e, digits=20).text) == Fraction(d)
    # at a smaller eps' the profile is larger than delta, at a larger one smaller
    assert m.privacy_profile(str(float(e) * 0.9), digits=10).number > mpmath.mpf(d)
    assert m.privacy_profile(str(float(e) * 1.1), digits=10).number < mpmath.mpf(d)


def series_error(cls, cost, regime, order, reference, t_values, subs):
    """Largest |series - reference| / t^order over ``t_values`` (must stay bounded)."""
    expr = cls.series("cost", cost, regime, order).removeO().subs(subs)
    var = eps if regime in ("eps->0", "eps=delta->0") else delta
    out = []
    with mpmath.workdps(60):
        for t in t_values:
            approx = mpmath.mpf(sp.N(expr.subs(var, sp.Rational(t)), 60))
            out.append(abs(approx - reference(mpmath.mpf(sp.Rational(t)))) / mpmath.mpf(
                sp.Rational(t)) ** order)
    return out


@pytest.mark.parametrize("cost, power", [("amplitude", 1), ("power", 2)])
@pytest.mark.parametrize("regime", ["eps->0", "delta->0", "eps=delta->0"])
def test_truncated_laplace_series_remainders(cost, power, regime):
    order = 3
    if regime == "eps->0":
        subs = {delta: sp.Rational(1, 10), Delta: 1}

        def reference(t):
            return tlap_reference(str(t), "0.1", "1", power)[2]
    elif regime == "delta->0":
        subs = {eps: sp.Rational(1, 2), Delta: 1}

        def reference(t):
            return tlap_reference("0.5", str(t), "1", power)[2]
    else:
        subs = {c: 1, Delta: 1}

        def reference(t):
            return tlap_reference(str(t), str(t), "1", power)[2]
    ts = ["0.02", "0.01", "0.005"]
    errors = series_error(TruncatedLaplace, cost, regime, order, reference, ts, subs)
    # the remainder is O(t^order): error / t^order stays bounded (does not grow like 1/t)
    assert max(errors) < 20 * min(errors) + 1e-30
    assert errors[-1] <= 2 * errors[0] + 1e-30


def test_eps_equals_delta_constant_from_the_engine():
    """The leading constant of eps*V1/Delta along delta = eps is the numerical limit."""
    lead = TruncatedLaplace.series("cost", "amplitude", "eps=delta->0", 0)
    constant = sp.limit((lead.removeO() * eps / Delta).subs(c, 1), eps, 0)
    with mpmath.workdps(40):
        t = mpmath.mpf("1e-12")
        numeric = t * tlap_reference(str(t), str(t), "1", 1)[2]
        assert abs(mpmath.mpf(sp.N(constant, 40)) - numeric) < mpmath.mpf("1e-11")
    # and it is the closed form the paper states, computed here independently
    assert sp.simplify(constant - (1 - 2 * sp.log(sp.Rational(3, 2)))) == 0


# ---------------------------------------------------------------------- P_alpha
@functools.lru_cache(maxsize=16)
def _unit_moment(power: mpmath.mpf, prec: int) -> mpmath.mpf:
    """The integral of t^power over [0, 1], by quadrature at precision ``prec``."""
    with mpmath.workprec(prec):
        return mpmath.quad(lambda t: t**power, [0, 1])


def uniform_mass_cost(alpha, d, sens, power):
    r"""E|X|^p of P_alpha written from the poster's figure 1: a point mass
    :math:`\alpha` at 0 and the density :math:`(\delta - \alpha)/\Delta` on :math:`|x| \le h`,
    :math:`h = (1 - \alpha)/(\delta - \alpha) \cdot \Delta/2`, and the integral of
    :math:`t^p` over :math:`[0, h]` is :math:`h^{p+1}` times its quadrature over
    :math:`[0, 1]` (computed once per p)."""
    half = (1 - alpha) / (d - alpha) * sens / 2
    return 2 * (d - alpha) / sens * half ** (power + 1) * _unit_moment(power, mpmath.mp.prec)


@pytest.mark.parametrize("d", ["1e-12", "0.3", "0.55", "0.7", "0.9", "0.999"])
@pytest.mark.parametrize("power", ["1", "2", "0.5", "3.5"])
def test_uniform_mass_optimum_by_direct_minimisation(d, power):
    cost = f"moment:{power}"
    m = UniformMass(delta=d, Delta="2")
    with mpmath.workdps(50):
        dd, pp = mpmath.mpf(d), mpmath.mpf(power)

        def f(a):
            return uniform_mass_cost(a, dd, 2, pp)

        # golden-section search on [0, delta), independent of the engine's minimiser
        lo, hi = mpmath.mpf(0), dd * (1 - mpmath.mpf(10) ** -30)
        g = (mpmath.sqrt(5) - 1) / 2
        for _ in range(260):
            x1, x2 = hi - g * (hi - lo), lo + g * (hi - lo)
            if f(x1) < f(x2):
                hi = x2
            else:
                lo = x1
        best = (lo + hi) / 2
        alpha = m.value("alpha", cost, 30).number
        assert abs(alpha - best) < mpmath.mpf(10) ** -20
        assert close(m.value("cost", cost, 30).number, f(alpha), 29)


def test_uniform_mass_symbolic_exponent():
    alpha_star = UniformMass.optimal_parameter(Cost(p))
    cost_star = UniformMass.optimal_cost(Cost(p))
    for pv in (sp.Rational(1, 3), sp.Rational(5, 2), 7):
        for text in ("0.2", "0.9", "0.99"):
            dv = sp.Rational(text)
            m = UniformMass(delta=text, Delta="3")
            cost = f"moment:{pv}"
            point = {p: pv, delta: dv, Delta: 3}
            with mpmath.workdps(30):
                assert close(mpmath.mpf(sp.N(cost_star.subs(point), 40)),
                             m.value("cost", cost, 25).number, 24)
                assert abs(mpmath.mpf(sp.N(alpha_star.subs(point), 40))
                           - m.value("alpha", cost, 25).number) < 1e-20
    # the threshold between the two branches is delta = p/(p+1)
    cond = alpha_star.args[0].cond
    assert sp.simplify(sp.solve(sp.Eq(cond.lhs, cond.rhs), delta)[0] - p / (p + 1)) == 0


def test_uniform_mass_is_zero_delta_private():
    m = UniformMass(delta="0.3", Delta="1")
    assert Fraction(m.privacy_profile("0", digits=15).text) == Fraction("0.3")


# ---------------------------------------------------------------------- discrete uniform
def discrete_uniform_counts(d: Fraction, sens: int) -> tuple[dict[int, int], int]:
    """The mass function as integer counts over the common denominator :math:`2n`."""
    n = math.ceil(Fraction(sens) / d)
    base = list(range(-(n // 2), -(n // 2) + n))  # n consecutive integers
    counts: dict[int, int] = {}
    for support in (base, [-i for i in base]):  # symmetrised
        for i in support:
            counts[i] = counts.get(i, 0) + 1
    return counts, 2 * n


def discrete_uniform_pmf(d: Fraction, sens: int) -> dict[int, Fraction]:
    counts, denominator = discrete_uniform_counts(d, sens)
    return {i: Fraction(c, denominator) for i, c in counts.items()}


@pytest.mark.parametrize("d, sens", [("0.1", 1), ("0.3", 2), ("0.07", 3), ("0.9", 5),
                                     ("1e-4", 7)])
def test_discrete_uniform_costs_and_privacy(d, sens):
    counts, denominator = discrete_uniform_counts(Fraction(d), sens)
    m = DiscreteUniform(delta=d, Delta=sens)
    for cost, power in (("amplitude", 1), ("power", 2), ("moment:3", 3)):
        # the exact moment, summed in integers over the common denominator
        exact = Fraction(sum(abs(i) ** power * c for i, c in counts.items()), denominator)
        assert m.value("cost", cost, 30).text == _format(exact, 30)
    # (0, delta)-DP exactly: sup_S P(S) - P(S + s) = sum (P(i) - P(i + s))_+ <= delta
    if len(counts) < 2000:
        pmf = discrete_uniform_pmf(Fraction(d), sens)
        for s in range(1, sens + 1):
            tv = sum(max(Fraction(0), q - pmf.get(i + s, Fraction(0))) for i, q in pmf.items())
            assert tv <= Fraction(d)


def _format(value: Fraction, digits: int) -> str:
    from dpsym.certified.rounding import format_digits

    with mpmath.workdps(digits + 20):
        return format_digits(mpmath.mpf(value.numerator) / value.denominator, digits)


def test_discrete_uniform_slides_closed_forms():
    """Delta/(2 delta) an integer: E|X| = Delta/(4 delta), E X^2 = Delta^2/(12 delta^2) + 1/6."""
    for d, sens in (("0.1", 1), ("0.05", 3), ("0.25", 2)):
        m = DiscreteUniform(delta=d, Delta=sens)
        dd = Fraction(d)
        assert Fraction(m.value("cost", "amplitude", 30).text) == sens / (4 * dd)
        assert Fraction(m.value("cost", "power", 30).text).limit_denominator(10**6) \
            == Fraction(sens**2) / (12 * dd**2) + Fraction(1, 6)


# ---------------------------------------------------------------------- Gaussians
def hockey_gaussian(e, s, sens):
    """sup over shifts = shift sens: integral of (phi_0 - e^eps phi_sens)_+ by quadrature."""
    def pdf(t, mu):
        return mpmath.npdf(t, mu, s)
    # the integrand is positive left of the crossing point t* (equal densities)
    cross = sens / 2 - e * s**2 / sens
    return mpmath.quad(lambda t: pdf(t, 0) - mpmath.exp(e) * pdf(t, sens),
                       [-mpmath.inf, cross - 10 * s, cross])


@pytest.mark.parametrize("e, d", [("0.1", "1e-6"), ("1", "0.01"), ("50", "1e-12"),
                                  ("3", "0.5")])
def test_analytic_gaussian_sigma_by_hockey_stick_quadrature(e, d):
    m = AnalyticGaussian(eps=e, delta=d, Delta="2")
    s = m.value("sigma", "amplitude", 30).number
    with mpmath.workdps(50):
        achieved = hockey_gaussian(mpmath.mpf(e), s, 2)
        assert abs(achieved - mpmath.mpf(d)) < mpmath.mpf(10) ** -25 * mpmath.mpf(d)
        # a slightly smaller sigma is not private
        assert hockey_gaussian(mpmath.mpf(e), s * (1 - mpmath.mpf(10) ** -20), 2) \
            > mpmath.mpf(d)
        amp = 2 * mpmath.quad(lambda t: t * mpmath.npdf(t, 0, s), [0, mpmath.inf])
        assert close(m.value("cost", "amplitude", 30).number, amp, 28)
        assert close(m.value("cost", "power", 30).number, s**2, 28)


def test_classic_gaussian_sigma_and_domain():
    m = ClassicGaussian(eps="0.5", delta="1e-5", Delta="3")
    with mpmath.workdps(50):
        s = mpmath.sqrt(2 * mpmath.log(mpmath.mpf("1.25") / mpmath.mpf("1e-5"))) * 3 / 0.5
        assert close(m.value("sigma", "power", 40).number, s, 39)
        assert close(m.value("cost", "power", 40).number, s**2, 39)
    with pytest.raises(DomainError, match="eps"):
        ClassicGaussian(eps="1", delta="0.1")
    # the analytic calibration never needs more noise than the classic one
    a = AnalyticGaussian(eps="0.5", delta="1e-5", Delta="3")
    assert a.value("sigma", "power", 20).number < m.value("sigma", "power", 20).number


# ---------------------------------------------------------------------- samplers
@pytest.mark.parametrize("cls, params", SAMPLER_CASES,
                         ids=[f"{c.name}-{i}" for i, (c, _) in enumerate(SAMPLER_CASES)])
def test_sampler_moments(cls, params, rng):
    m = cls(**params)
    values = np.abs(np.asarray(m.sample(rng, N_SAMPLES, "amplitude"), dtype=float))
    if m.free is None:
        exact = {k: float(m.value("cost", f"moment:{k}", 20).number) for k in (1, 2, 4)}
    else:  # the moments at the free parameter the sampler uses (optimal for amplitude)
        point = {**substitution(m), m.free.symbol: m.free_value("amplitude", 30)}
        exact = {k: float(sp.N(cls.engine.moment(k).subs(point), 30)) for k in (1, 2, 4)}
    for k in (1, 2):
        var = exact[2 * k] - exact[k] ** 2
        z = (np.mean(values**k) - exact[k]) / math.sqrt(var / N_SAMPLES)
        assert abs(z) < Z_CRIT, (k, z)


def test_discrete_uniform_sampler_chi_square(rng):
    for d, sens in (("0.1", 1), ("0.3", 2)):
        pmf = discrete_uniform_pmf(Fraction(d), sens)
        draws = DiscreteUniform(delta=d, Delta=sens).sample(rng, N_SAMPLES)
        support = sorted(pmf)
        observed = np.array([np.count_nonzero(draws == i) for i in support])
        assert observed.sum() == N_SAMPLES
        expected = np.array([float(pmf[i]) * N_SAMPLES for i in support])
        assert stats.chisquare(observed, expected).pvalue > 1e-8


# ---------------------------------------------------------------------- Z^d
@pytest.mark.parametrize("dim", [1, 2, 5])
def test_lattice_md_costs(dim):
    from dpsym.mechanisms import DiscreteLaplace
    from dpsym.mechanisms.lattice_md import DiscreteLaplaceMD, DiscreteUniformMD

    u = DiscreteUniformMD(delta="0.1", Delta=2, dim=dim)
    # the slides' V_UB on Z^d for Delta/(2 delta) an integer: d Delta/(4 delta) and
    # d Delta^2/(12 delta^2) + d/6, here from the exact pmf of one coordinate
    pmf = discrete_uniform_pmf(Fraction("0.1"), 2)
    for cost, power in (("amplitude", 1), ("power", 2)):
        exact = dim * sum(abs(i) ** power * q for i, q in pmf.items())
        assert Fraction(u.value("cost", cost, 30).text) == exact
    lap = DiscreteLaplaceMD(eps="0.7", Delta=3, dim=dim)
    one = DiscreteLaplace(eps="0.7", Delta=3)
    with mpmath.workdps(40):
        assert close(lap.value("cost", "power", 30).number,
                     dim * one.value("cost", "power", 35).number, 29)
    with pytest.raises(UnsupportedError, match="amplitude"):
        lap.value("cost", "moment:3", 10)


def test_lattice_md_sampler_shape_and_marginal(rng):
    from dpsym.mechanisms.lattice_md import DiscreteUniformMD

    draws = DiscreteUniformMD(delta="0.3", Delta=2, dim=3).sample(rng, N_SAMPLES // 4)
    assert draws.shape == (N_SAMPLES // 4, 3) and draws.dtype.kind == "i"
    pmf = discrete_uniform_pmf(Fraction("0.3"), 2)
    column = draws[:, 1]
    support = sorted(pmf)
    observed = np.array([np.count_nonzero(column == i) for i in support])
    assert observed.sum() == column.size
    expected = np.array([float(pmf[i]) * column.size for i in support])
    assert stats.chisquare(observed, expected).pvalue > 1e-8


@pytest.mark.parametrize("e, d", [("0.5", "0.01"), ("3", "0.2")])
def test_truncated_laplace_sampler_ks(e, d, rng):
    """KS test against the CDF written here from Definition 3 (level 1e-8)."""
    m = TruncatedLaplace(eps=e, delta=d, Delta="1")
    lam = 1 / float(e)
    big_b = float(m.value("B", "amplitude", 20).number)
    samples = m.sample(rng, N_SAMPLES)

    def cdf(v):
        return 0.5 + np.sign(v) * big_b * lam * (-np.expm1(-np.abs(v) / lam))

    assert stats.kstest(samples, cdf).pvalue > 1e-8


def test_gaussian_sampler_ks(rng):
    m = AnalyticGaussian(eps="1", delta="1e-5", Delta="2")
    sigma = float(m.value("sigma", "amplitude", 20).number)
    assert stats.kstest(m.sample(rng, N_SAMPLES), stats.norm(0, sigma).cdf).pvalue > 1e-8


def test_gaussian_sampler_calibrates_once(monkeypatch):
    """sigma is certified on the first draw only (an instance's parameters are read-only),
    and pickling keeps the instance usable."""
    import pickle

    m = AnalyticGaussian(eps="0.5", delta="1e-9")
    calls = []
    original = type(m)._sigma

    def counting(self, digits):
        calls.append(digits)
        return original(self, digits)

    monkeypatch.setattr(type(m), "_sigma", counting)
    first = m.sample(np.random.default_rng(1), 5)
    again = m.sample(np.random.default_rng(1), 5)
    assert len(calls) == 1 and np.array_equal(first, again)
    clone = pickle.loads(pickle.dumps(m))
    assert np.array_equal(clone.sample(np.random.default_rng(1), 5), first)
