"""The multi-dimensional staircase and its baselines (issue 5) against independent references.

References are written here from the definition in slides 000, Part Two: the radial law
is integrated step by step with mpmath quadrature of r**p times the l1 shell measure
(normalised numerically), or summed term by term, or, at small eps, by mpmath.lerchphi;
the optimal gamma is checked by the reference cost's own optimality, not by the engine.
"""

from __future__ import annotations

import math
from fractions import Fraction

import mpmath
import numpy as np
import pytest
import sympy as sp
from scipy import stats

from dpsym import Staircase
from dpsym.bounds.radial_lp import radial_lp
from dpsym.certified.rounding import format_digits
from dpsym.core.params import substitution
from dpsym.errors import DomainError, UnsupportedError
from dpsym.mechanisms.independent_staircase import IndependentStaircase
from dpsym.mechanisms.laplace_md import LaplaceMD
from dpsym.mechanisms.staircase_md import (
    NORM,
    RadialStaircaseLaw,
    StaircaseMD,
    gamma_star_d2,
    hockey_stick_2d,
    level_index,
    radial_moment,
)
from dpsym.reports.figures import plot_cost_ratios
from dpsym.symbolic.numerics import evaluate
from dpsym.symbols import Delta, b, eps, gamma


# ---------------------------------------------------------------------- references
def quad_power(m, lo, hi):
    r"""``mpmath.quad`` of :math:`r^m` over :math:`[lo, hi]` (:math:`0 \le lo < hi`), as
    :math:`hi^{m+1} \int_{lo/hi}^1 u^m\,du`: mpmath's error estimate is absolute, so an
    integrand of size :math:`hi^m \gg 1` would take every degree up to the maximum.
    Gauss-Legendre (exact for polynomials of degree below twice its nodes)."""
    return hi ** (m + 1) * mpmath.quad(lambda u: u**m, [lo / hi, 1], method="gauss-legendre")


def ref_cost_quad(e, D, g, d, p=1):
    """E R**p by quadrature of r**p * r**(d-1) over each step (the shell measure's constant
    cancels in the ratio), periods summed until negligible."""
    e, D, g = mpmath.mpf(e), mpmath.mpf(D), mpmath.mpf(g)
    bb = mpmath.exp(-e)
    periods = int((mpmath.mp.prec + 40 + 3 * d * 10) * mpmath.log(2) / e) + 5
    mass = mom = mpmath.mpf(0)
    for kk in range(periods):
        for lo, hi, lev in ((kk, kk + g, bb**kk), (kk + g, kk + 1, bb ** (kk + 1))):
            if hi > lo:
                mass += lev * quad_power(d - 1, lo * D, hi * D)
                mom += lev * quad_power(d - 1 + p, lo * D, hi * D)
    return mom / mass


#: Below this eps the sums of :func:`ref_cost_lerch` are mpmath's ``lerchphi``: term by
#: term they take about (digits + d log(d/eps))/eps terms (270,000 at eps = 1e-3, d = 10,
#: 70 digits), where ``lerchphi`` agrees with that sum to 1e-68 (d = 2, 3, 10).
LERCHPHI_EPS = mpmath.mpf("0.01")


def ref_cost_lerch(e, D, g, d, p=1):
    """E R**p = D**p d/(d+p) sum_k b^k (k+g)^(d+p) / sum_k b^k (k+g)^d, summed term by term,
    or by mpmath.lerchphi below :data:`LERCHPHI_EPS` (it is not accurate to 40 digits at
    b = e^-50)."""
    e = mpmath.mpf(e)
    bb = mpmath.exp(-e)
    if e < LERCHPHI_EPS:
        num, den = (mpmath.lerchphi(bb, -m, g) for m in (d + p, d))
        return mpmath.mpf(D) ** p * mpmath.mpf(d) / (d + p) * num / den
    top = int((mpmath.mp.prec * mpmath.log(2) + (d + p) * mpmath.log(1 + (d + p) / e)
               + 10) / e) + int((d + p) / e) + 10
    num = den = mpmath.mpf(0)
    w = mpmath.mpf(1)
    for kk in range(top):
        x = kk + g
        xd = x**d
        den += w * xd
        num += w * xd * x**p
        w *= bb
    return mpmath.mpf(D) ** p * mpmath.mpf(d) / (d + p) * num / den


SLIDES_D2 = ((gamma**3 + 3 * b / (1 - b) * gamma**2 + 3 * (b**2 + b) / (1 - b) ** 2 * gamma
              + b * (1 + 4 * b + b**2) / (1 - b) ** 3)
             / (gamma**2 + 2 * b / (1 - b) * gamma + (b + b**2) / (1 - b) ** 2))


# ---------------------------------------------------------------------- definition
def is_zero_rational(expr: sp.Expr) -> bool:
    """Whether ``expr``, a rational function of its symbols, is identically zero: its
    element of the field of rational functions over the rationals in those symbols
    (sympy's sparse field arithmetic, exact: numerator and denominator as polynomials, the
    fraction reduced) is zero. Sympy's expressions are not put over one fraction and
    expanded (three times slower), nor cancelled (slower still)."""
    field, *_ = sp.field(sorted(expr.free_symbols, key=str), sp.QQ)
    return field.from_expr(expr) == 0


@pytest.mark.parametrize("d", [1, 2, 3, 4])
def test_normalisation_and_moments_from_the_shells(d):
    cls = StaircaseMD.for_dim(d)
    law = RadialStaircaseLaw(d)
    assert NORM in law.period_integral(0).free_symbols
    mass = cls.engine.noise().total_mass()
    assert is_zero_rational(mass - 1)
    for p in (1, 2):
        derived = cls.engine.noise().moment(p)
        assert is_zero_rational(derived - radial_moment(d, p))
    # a(gamma) = d! / ((2 Delta)^d (1 - b) S_d(gamma)) checked numerically against quadrature
    point = {b: sp.Rational(1, 3), gamma: sp.Rational(2, 7), Delta: sp.Rational(3, 2)}
    with mpmath.workdps(30):
        a_val = evaluate(cls.normalisation(), point)
        e, g, D = -mpmath.log(mpmath.mpf(1) / 3), mpmath.mpf(2) / 7, mpmath.mpf(3) / 2
        bb = mpmath.exp(-e)
        shell = 2**d / mpmath.factorial(d - 1)
        total = sum(lev * shell * quad_power(d - 1, lo * D, hi * D)
                    for kk in range(200)
                    for lo, hi, lev in ((kk, kk + g, bb**kk), (kk + g, kk + 1, bb ** (kk + 1))))
        assert abs(a_val * total - 1) < mpmath.mpf(10) ** -25


def test_d2_objective_is_the_slides_rational_function_times_2Delta_over_3():
    assert sp.cancel(StaircaseMD.cost_function("amplitude") - 2 * Delta / 3 * SLIDES_D2) == 0


def test_dim_one_reproduces_the_1d_staircase():
    one = StaircaseMD.for_dim(1)
    assert sp.cancel(one.cost_function("amplitude") - Staircase.cost_function("amplitude")) == 0
    assert sp.cancel(one.cost_function("power") - Staircase.cost_function("power")) == 0
    for e in ("0.5", "3"):
        for cost in ("amplitude", "power"):
            for q in ("cost", "gamma"):
                assert (StaircaseMD(eps=e, dim=1).value(q, cost, 30).text
                        == Staircase(eps=e).value(q, cost, 30).text)


# ---------------------------------------------------------------------- values
@pytest.mark.parametrize(("d", "e"), [(2, "0.001"), (2, "1"), (2, "50"), (3, "2.5"),
                                      pytest.param(10, "0.001", marks=pytest.mark.slow), (10, "1"),
                                      (10, "50")])
def test_forty_digit_values_against_references(d, e):
    mech = StaircaseMD(eps=e, dim=d)
    got = mech.value("cost", "amplitude", 40)
    g = sp.Rational(mech.value("gamma", "amplitude", 45).text)
    with mpmath.workdps(70):
        gm = mpmath.mpf(g.p) / g.q
        quad_ok = d <= 3 and sp.Rational(e) >= 1

        def ref(t):
            return ref_cost_quad(e, 1, t, d) if quad_ok else ref_cost_lerch(e, 1, t, d)

        want = ref(gm)
        assert format_digits(want, 40) == got.text
        # independent optimality: the reference cost is larger on both sides of gamma*
        h = gm * mpmath.mpf(10) ** -8
        assert ref(gm - h) > want and ref(gm + h) > want


def test_power_cost_against_quadrature():
    mech = StaircaseMD(eps="1.5", dim=2)
    g = sp.Rational(mech.value("gamma", "power", 40).text)
    with mpmath.workdps(50):
        gm = mpmath.mpf(g.p) / g.q
        want = 2 * ref_cost_quad("1.5", 1, gm, 2, p=2) / 3  # E||X||_2^2 = 2 E R^2 / (d + 1)
    assert format_digits(want, 30) == mech.value("cost", "power", 30).text


@pytest.mark.parametrize("e", ["0.01", "0.7", "5", "40"])
def test_ferrari_closed_form_is_the_minimiser(e):
    with mpmath.workdps(50):
        closed = evaluate(gamma_star_d2(), {eps: sp.Rational(e)})
    got = StaircaseMD(eps=e).value("gamma", "amplitude", 30)
    assert format_digits(closed, 30) == got.text
    assert StaircaseMD.formula("gamma", "amplitude") == gamma_star_d2()


def test_extreme_parameters_answer_or_fail_cleanly():
    big = StaircaseMD(eps="700", dim=50)
    g = sp.Rational(big.value("gamma", "amplitude", 30).text)
    with mpmath.workdps(40):
        want = ref_cost_lerch(700, 1, mpmath.mpf(g.p) / g.q, 50)
    assert big.value("cost", "amplitude", 20).text == format_digits(want, 20)
    v = StaircaseMD(eps="700", dim=2).value("cost", "amplitude", 30).number
    with mpmath.workdps(40):  # leading behaviour Delta (2 b)^(1/3)
        assert abs(v / mpmath.cbrt(2 * mpmath.exp(-700)) - 1) < 1e-70
    for bad, name in (({"dim": 0}, "dim"), ({"dim": 51}, "dim"), ({"dim": "2.5"}, "dim"),
                      ({"eps": "2e6"}, "eps"), ({"eps": "-1"}, "eps")):
        with pytest.raises(DomainError) as info:
            StaircaseMD(**{"eps": "1", **bad})
        assert info.value.name == name
    with pytest.raises(UnsupportedError):
        StaircaseMD(eps=1).value("cost", "moment:3")


# ---------------------------------------------------------------------- series
def check_remainder(series, t_sym, values, reference, order):
    truncated = series.removeO()
    rem = []
    with mpmath.workdps(60):
        for t in values:
            approx = evaluate(truncated, {t_sym: t, Delta: 1})
            rem.append(abs(reference(t) - approx))
        t1, t2 = (mpmath.mpf(sp.N(v, 60)) for v in values)
        assert rem[0] <= 1e3 * t1**order
        assert rem[1] / rem[0] <= 1.6 * (t2 / t1) ** order


@pytest.mark.parametrize("regime", ["eps->0", "eps->oo"])
@pytest.mark.parametrize("quantity", ["cost", "gamma"])
def test_d2_series_order_4_against_high_precision(regime, quantity):
    series = StaircaseMD.series(quantity, "amplitude", regime, 4)
    t_sym = eps if regime == "eps->0" else b
    points = ((sp.Rational(1, 20), sp.Rational(1, 40)) if regime == "eps->0"
              else (sp.exp(-12), sp.exp(-14)))

    def reference(t):
        e = t if t.is_Rational else sp.Rational(str(sp.N(-sp.log(t), 80)))
        mech = StaircaseMD(eps=e)
        g = sp.Rational(mech.value("gamma", "amplitude", 55).text)
        gm = mpmath.mpf(g.p) / g.q
        return gm if quantity == "gamma" else ref_cost_lerch(e, 1, gm, 2)

    check_remainder(series, t_sym, points, reference, 4)


def test_series_against_the_slides():
    small = StaircaseMD.series("cost", "amplitude", "eps->0", 3)
    slides = 2 * Delta / eps - Delta * eps**2 / (36 * sp.sqrt(3))
    assert sp.simplify(small.removeO() - slides) == 0
    large = StaircaseMD.series("cost", "amplitude", "eps->oo", 1).removeO()
    assert sp.simplify(large - (sp.cbrt(2) * Delta * b ** sp.Rational(1, 3)
                                + Delta * b ** sp.Rational(2, 3) / sp.cbrt(2))) == 0


@pytest.mark.parametrize("d", [3, 4, 5])
def test_general_d_leading_behaviour(d):
    x = sp.Symbol("x")
    bern = sp.bernoulli(d + 1, x)
    crit = [r for r in sp.Poly(sp.diff(bern, x), x).nroots(n=40) if r.is_real and 0 < r < 1]
    low = min(sp.N(bern.subs(x, v), 40) for v in [0, 1, *crit])
    e = sp.Rational(1, 20)
    v = StaircaseMD(eps=e, dim=d).value("cost", "amplitude", 40).number
    with mpmath.workdps(40):
        gap = (v - d / mpmath.mpf(e)) / (d * mpmath.mpf(low) / mpmath.factorial(d + 1)
                                         * mpmath.mpf(e) ** d)
    assert abs(gap - 1) < 0.1  # next term is O(eps) relative
    big = StaircaseMD(eps=200, dim=d).value("cost", "amplitude", 20).number
    with mpmath.workdps(30):
        lead = (d * mpmath.exp(-200)) ** (mpmath.mpf(1) / (d + 1))
        assert abs(big / lead - 1) < 1e-10


# ---------------------------------------------------------------------- baselines
def test_baselines():
    for d in (1, 2, 5):
        lap = LaplaceMD(eps="0.8", dim=d)
        assert lap.value("cost", "amplitude", 30).text == format_digits(
            mpmath.mpf(d) / mpmath.mpf("0.8"), 30)
        ind = IndependentStaircase(eps="0.8", dim=d)
        one = Staircase(eps=sp.Rational(4, 5) / d)
        with mpmath.workdps(40):
            assert ind.value("cost", "power", 30).text == format_digits(
                d * one.value("cost", "power", 35).number, 30)
        assert ind.value("gamma", "amplitude", 25).text == one.value("gamma", "amplitude", 25).text
    lead = IndependentStaircase.series("cost", "amplitude", "eps->oo", 1).removeO()
    # 2 Delta b^{1/4} / (1 - b^{1/2}): Theta(2 Delta e^{-eps/4}) as in the slides
    assert sp.simplify(lead - 2 * Delta * (b ** sp.Rational(1, 4) + b ** sp.Rational(3, 4))) == 0
    assert LaplaceMD.series("cost", "amplitude", "eps->0", 2).removeO() == 2 * Delta / eps
    # the d-dim staircase beats both for every eps checked
    for e in ("0.01", "1", "10"):
        v = StaircaseMD(eps=e).value("cost", "amplitude", 20).number
        assert v < LaplaceMD(eps=e).value("cost", "amplitude", 20).number
        assert v < IndependentStaircase(eps=e).value("cost", "amplitude", 20).number


def test_plot_writes_the_figure(tmp_path):
    path = plot_cost_ratios(tmp_path, dims=(2,), points=4)
    assert path.exists() and path.stat().st_size > 1000


# ---------------------------------------------------------------------- privacy
def test_level_differences_bounded_by_one(rng):
    r = rng.uniform(0, 30, 200_000)
    s = np.clip(r + rng.uniform(-1, 1, r.size), 0, None)
    for g in (0.0, 0.3, 0.9):
        assert np.max(np.abs(level_index(s, g) - level_index(r, g))) == 1


def test_hockey_stick_over_shift_directions_d2():
    e, g = 1.0, float(StaircaseMD(eps=1).value("gamma", "amplitude", 16).number)
    for theta in np.linspace(0, 2 * np.pi, 9)[:-1]:
        c, s = np.cos(theta), np.sin(theta)
        t = (c / (abs(c) + abs(s)), s / (abs(c) + abs(s)))  # ||t||_1 = 1
        assert hockey_stick_2d(e, e, t, g, cells=600) == 0.0
        assert hockey_stick_2d(e, 0.9 * e, t, g, cells=600) > 1e-4


# ---------------------------------------------------------------------- sampler
def exact_radial_moments(e, d, g, powers):
    with mpmath.workdps(30):
        return [float(ref_cost_lerch(e, 1, g, d, p)) for p in powers]


@pytest.mark.parametrize("d", [2, 3, 7])  # 2, 3: sorted uniforms; 7: exponentials
def test_sampler_moments_and_radial_cdf(rng, d):
    mech = StaircaseMD(eps="0.9", dim=d)
    g = float(mech.free_value("amplitude", 20))
    n = 200_000
    x = mech.sample(rng, n)
    assert x.shape == (n, d)
    m1, m2, m4 = exact_radial_moments("0.9", d, g, (1, 2, 4))
    r = np.abs(x).sum(axis=1)
    dir2 = 2 / (d * (d + 1))                       # E D_1^2, D ~ Dirichlet(1, ..., 1)
    dir4 = 24 * math.factorial(d - 1) / math.factorial(d + 3)
    checks = [(r, m1, m2 - m1**2),                               # ||X||_1
              (np.abs(x[:, 0]), m1 / d, dir2 * m2 - (m1 / d) ** 2),  # |X_1|
              (x[:, 0] ** 2, dir2 * m2, dir4 * m4 - (dir2 * m2) ** 2)]  # X_1^2
    # each |z| < 5.7 fails with probability 1.2e-8 (normal approximation); with the KS
    # test below (p < 1e-7) a correct sampler fails with probability below 1e-6
    for sample, mean, var in checks:
        z = (sample.mean() - mean) / math.sqrt(var / n)
        assert abs(z) < 5.7, z
    bb = math.exp(-0.9)

    # exact law of R from the steps' masses: the steps [k, k + g), [k + g, k + 1) in order,
    # the mass of those below v summed once (cumulatively), plus the part of v's own step
    kk = np.arange(400, dtype=float)
    lo, hi, lev = (np.ravel(np.column_stack(pair)) for pair in
                   ((kk, kk + g), (kk + g, kk + 1), (bb**kk, bb ** (kk + 1))))
    mass = lev * (hi**d - lo**d)
    below = np.concatenate([[0.0], np.cumsum(mass)])

    def cdf(v):
        v = np.clip(np.asarray(v, dtype=float), 0.0, hi[-1])
        j = np.searchsorted(lo, v, side="right") - 1  # the step with lo <= v
        return (below[j] + lev[j] * (np.minimum(v, hi[j]) ** d - lo[j] ** d)) / mass.sum()

    with mpmath.workdps(30):
        for v in (0.3, 1.7, 4.2):
            assert abs(float(mech.radial_cdf(v, g)) - cdf([v])[0]) < 1e-12
    sub = r[:20_000]
    assert stats.kstest(sub, cdf).pvalue > 1e-7


def test_ball_sampler_alias_table_is_exact():
    s = StaircaseMD(eps=1, dim=3).ball_sampler()
    g, bb = s.gamma_f, math.exp(-1.0)
    w = np.array([bb**k * (k + g) ** 3 for k in range(s.slots - 1)])
    with mpmath.workdps(30):
        tail = sum(mpmath.mpf(bb) ** k * (k + g) ** 3 for k in range(s.slots - 1, 400))
    w = np.append(w, float(tail))
    slot_mass = s.threshold.copy()
    np.add.at(slot_mass, s.alias, 1 - s.threshold)
    assert np.allclose(slot_mass / s.slots, w / w.sum(), rtol=1e-12, atol=1e-17)
    assert s.radii[0] == g and np.isnan(s.radii[2 * (s.slots - 1)])


def test_ball_sampler_signs_and_tail(rng):
    d, n = 3, 400_000
    s = StaircaseMD(eps=1, dim=d).ball_sampler()
    x = s(rng, n)
    # sign symmetry: each sign and each product of two signs has mean 0 and variance 1;
    # six |z| < 5.7 checks fail with probability 6 * 1.2e-8
    sg = np.sign(x)
    for v in (*sg.T, sg[:, 0] * sg[:, 1], sg[:, 1] * sg[:, 2], sg[:, 0] * sg[:, 2]):
        assert abs(v.mean() * math.sqrt(n)) < 5.7
    # the tail route alone: K >= N with P(K = k) proportional to b^k (k + gamma)^d;
    # chi-square with bins of expected count >= 50, p >= 1e-7
    m = 200_000
    kk = s.tail_periods(rng, m).astype(np.int64) - s.n_table
    assert kk.min() >= 0
    j = np.arange(200)
    pmf = np.exp(-j) * ((j + s.n_table + s.gamma_f) / (s.n_table + s.gamma_f)) ** d
    pmf /= pmf.sum()
    last = int(np.nonzero(m * pmf >= 50)[0].max())
    expected = np.append(m * pmf[:last], m * pmf[last:].sum())
    observed = np.bincount(np.minimum(kk, last), minlength=last + 1)
    assert stats.chisquare(observed, expected).pvalue > 1e-7
    # a law mostly in the tail (eps = 1e-5: N + 1 = 2^16 slots hold 3% of the mass):
    # |z| < 5.7 on E||X||_1 and E||X||_1^2 (exact variances), each fails w.p. 1.2e-8
    mech = StaircaseMD(eps="0.00001", dim=2)
    big = mech.ball_sampler(gamma_value=Fraction(1, 2))
    assert big.tail_probability > 0.9
    point = {eps: Fraction(1, 10**5), Delta: 1, gamma: Fraction(1, 2)}
    with mpmath.workdps(30):
        mom = {p: float(evaluate(type(mech).engine.moment(p), point)) for p in (1, 2, 4)}
    r = np.abs(big(rng, m)).sum(axis=1)
    for p in (1, 2):
        z = ((r**p).mean() - mom[p]) / math.sqrt((mom[2 * p] - mom[p] ** 2) / m)
        assert abs(z) < 5.7, z


def test_baseline_samplers(rng):
    n = 100_000
    x = LaplaceMD(eps=2, dim=3).sample(rng, n)
    assert x.shape == (n, 3)
    # E|X_i| = 1/2, Var|X_i| = 1/4 (scale 1/2); |z| < 5.7: false alarm 1.2e-8
    z = (np.abs(x).mean() - 0.5) / math.sqrt(0.25 / (3 * n))
    assert abs(z) < 5.7
    ind = IndependentStaircase(eps=2, dim=2)
    y = ind.sample(rng, n)
    assert y.shape == (n, 2)
    one = Staircase(eps=1)
    with mpmath.workdps(30):
        m1 = float(one.value("cost", "amplitude", 20).number)
        g1 = one.free_value("amplitude", 20)
        m2 = float(evaluate(Staircase.engine.moment(2), {eps: 1, Delta: 1, gamma: g1}))
    z = (np.abs(y).mean() - m1) / math.sqrt((m2 - m1**2) / (2 * n))
    assert abs(z) < 5.7


def d_dimensional_samplers() -> list:
    return [StaircaseMD(eps=1, dim=2), IndependentStaircase(eps=2, dim=2),
            LaplaceMD(eps=2, dim=3)]


@pytest.mark.parametrize("size", [2.7, "5", True, -1, (2, 2.0), [3], None, np.float64(3.0)],
                         ids=repr)
def test_d_dimensional_samplers_refuse_bad_sizes(size):
    for mech in d_dimensional_samplers():
        with pytest.raises(DomainError, match=r"^size: must be a non-negative integer or a "
                                              r"tuple of non-negative integers"):
            mech.sample(np.random.default_rng(0), size)
    with pytest.raises(DomainError, match=r"^size: "):
        StaircaseMD(eps=1, dim=2).ball_sampler()(np.random.default_rng(0), size)


@pytest.mark.parametrize("bad", [5, "abc", np.random.RandomState(0), np.random.PCG64(0)],
                         ids=lambda r: type(r).__name__)
def test_d_dimensional_samplers_refuse_bad_rngs(bad):
    for mech in d_dimensional_samplers():
        with pytest.raises(DomainError, match=r"^rng: must be a numpy.random.Generator or None"):
            mech.sample(bad, 3)


def test_d_dimensional_samplers_take_shapes_and_no_rng():
    """``size`` may be a tuple (shape ``size + (d,)``, the same draws as its product);
    ``rng=None`` draws from a fresh generator (LaplaceMD raised AttributeError)."""
    for mech in d_dimensional_samplers():
        d = mech.DIM
        assert mech.sample(None, 4).shape == (4, d)
        assert mech.sample(np.random.default_rng(0), np.int64(4)).shape == (4, d)
        a = mech.sample(np.random.default_rng(1), (2, 3))
        b = mech.sample(np.random.default_rng(1), 6)
        assert a.shape == (2, 3, d) and b.shape == (6, d)
        np.testing.assert_array_equal(a.reshape(6, d), b)
        assert mech.sample(np.random.default_rng(1), 0).shape == (0, d)


def test_d_dimensional_noise_beyond_float64_names_the_parameters():
    with pytest.raises(DomainError, match=r"^eps/Delta: the float64 sampler draws noise"):
        LaplaceMD(eps="1e-310", dim=2).sample(np.random.default_rng(0), 3)
    with pytest.raises(DomainError, match=r"^eps/Delta: the float64 sampler draws noise"):
        StaircaseMD(eps="1e-310", dim=2).ball_sampler(gamma_value=Fraction(1, 2))


# ---------------------------------------------------------------------- radial LP
def test_radial_lp_matches_the_staircase():
    res = radial_lp(2.0, 2, n=10)
    best_grid = min(float(StaircaseMD(eps=2).cost_at(j / 10)) for j in range(11))
    optimum = float(StaircaseMD(eps=2).value("cost", "amplitude", 15).number)
    assert optimum <= res.value * (1 + 1e-9)
    assert abs(res.value - best_grid) < 1e-6 * best_grid
    # the LP's optimal profile is a staircase: each cell is b^0 or b^1 times the period
    # start, and successive periods are scaled by b
    prof = res.profile
    assert np.allclose(prof[10:40] / prof[:30], math.exp(-2.0), rtol=1e-5)


# ---------------------------------------------------------------------- one source of truth
@pytest.mark.parametrize("d", [1, 2, 3, 5])
def test_numeric_sums_are_the_engines_sums_at_exact_points(d):
    """l1's cancellation-free sums (generated from power_geometric_sum, expanded
    binomially) equal the engine's S_m(gamma) at exact rational points."""
    from dpsym.symbolic.l1 import (
        power_geometric_sums_numeric,
        shifted_power_sum,
        shifted_power_sums_numeric,
    )

    for bb, g in ((sp.Rational(1, 3), sp.Rational(2, 7)), (sp.Rational(99, 100), sp.Integer(0)),
                  (sp.Rational(1, 10**6), sp.Integer(1))):
        with mpmath.workdps(60):
            e = power_geometric_sums_numeric(d + 2, mpmath.mpf(bb.p) / bb.q,
                                             mpmath.mpf((1 - bb).p) / (1 - bb).q)
            got = shifted_power_sums_numeric(d + 2, mpmath.mpf(g.p) / g.q, e)
            for m in range(d + 3):
                exact = shifted_power_sum(m).subs({b: bb, gamma: g})
                assert exact.is_Rational
                assert abs(got[m] - mpmath.mpf(exact.p) / exact.q) <= \
                    mpmath.mpf(10) ** -55 * abs(got[m])


@pytest.mark.parametrize(("d", "cost"), [(2, "amplitude"), (3, "amplitude"), (2, "power")])
def test_numeric_cost_and_slope_are_the_engines(d, cost):
    """The numeric path's cost C S_{d+p}/S_d is the engine's cost function, and the sign
    it follows, (d+p) S_{d+p-1} S_d - d S_{d+p} S_{d-1}, is the engine's slope times
    S_d^2 / C (an identity at exact rational points)."""
    from dpsym.mechanisms.staircase_md import cost_constant
    from dpsym.symbolic.l1 import shifted_power_sum as S

    cls = StaircaseMD.for_dim(d)
    p = 1 if cost == "amplitude" else 2
    C = cost_constant(d, p)
    assert sp.simplify(cls.cost_function(cost) - C * S(d + p) / S(d)) == 0
    numerator = (d + p) * S(d + p - 1) * S(d) - d * S(d + p) * S(d - 1)
    slope = sp.diff(cls.cost_function(cost), gamma)
    for bb, g in ((sp.Rational(1, 3), sp.Rational(2, 7)), (sp.Rational(4, 5), sp.Rational(1, 9))):
        point = {b: bb, gamma: g, Delta: sp.Rational(3, 2)}
        assert (slope * S(d) ** 2 / C - numerator).subs(point) == 0
    with mpmath.workdps(40):
        inst = StaircaseMD(eps="0.7", Delta="1.5", dim=d)
        for g in ("0.1", "0.5", "0.9"):
            want = evaluate(cls.cost_function(cost), {**substitution(inst), gamma: sp.Rational(g)})
            assert abs(inst.cost_at(g, cost) - want) < mpmath.mpf(10) ** -35 * want


def test_normalisation_float_is_the_engines():
    from dpsym.mechanisms.staircase_md import normalisation

    for d in (2, 3):
        a = StaircaseMD.for_dim(d).engine.calibration()[NORM]
        want = float(evaluate(a, {b: sp.exp(-sp.Rational(1, 2)), gamma: sp.Rational(1, 4),
                                  Delta: 1}))
        assert abs(normalisation(d, 0.5, 0.25) - want) < 1e-14 * want
