"""float64 fast paths (dpsym.mechanisms.fastpath) and the Section-6 figures
(dpsym.reports.figures)."""

from __future__ import annotations

import json

import mpmath
import numpy as np
import pytest
import sympy as sp

from dpsym.certified.agreement import agreement
from dpsym.errors import DomainError
from dpsym.mechanisms import fastpath as fp
from dpsym.reports import figures


def _tl_sympy():
    """Re-derive the truncated Laplacian's costs from Definition 3 by integration."""
    x, lam, A, B, dl, Dl = sp.symbols("x lambda A B delta Delta", positive=True)
    dens = B * sp.exp(-x / lam)
    Bsol = sp.solve(sp.Eq(2 * sp.integrate(dens, (x, 0, A), conds="none"), 1), B)[0]
    mass = sp.integrate(dens.subs(B, Bsol), (x, A - Dl, A), conds="none")
    amp = sp.simplify(2 * sp.integrate(x * dens.subs(B, Bsol), (x, 0, A), conds="none"))
    power = sp.simplify(2 * sp.integrate(x**2 * dens.subs(B, Bsol), (x, 0, A), conds="none"))
    return (x, lam, A, dl, Dl), Bsol, mass, amp, power


def test_sympy_derivation_matches_definition_3_and_the_fast_path():
    (_x, lam, A, dl, Dl), _Bsol, mass, amp, power = _tl_sympy()
    e = sp.Symbol("eps", positive=True)
    A_def = Dl / e * sp.log(1 + (sp.exp(e) - 1) / (2 * dl))
    subs = {lam: Dl / e, A: A_def}
    # the definition's A puts mass delta on [A - Delta, A]
    assert sp.simplify(sp.expand_log(mass.subs(subs), force=True) - dl) == 0
    # the closed forms quoted in the brief / Theorems 2-3
    c = sp.exp(A / lam) - 1
    assert sp.simplify(amp - (lam - A / c)) == 0
    assert sp.simplify(power - (2 * lam**2 - (A**2 + 2 * lam * A) / c)) == 0
    f_amp = sp.lambdify((e, dl, Dl), amp.subs(subs), "mpmath")
    f_pow = sp.lambdify((e, dl, Dl), power.subs(subs), "mpmath")
    for ev, dv, Dv in [("0.5", "1e-3", "1"), ("1e-6", "0.1", "2"), ("7", "1e-9", "0.5")]:
        args = (ev, dv, Dv)
        ref_a, _, _ = agreement(lambda a=args: f_amp(*map(mpmath.mpf, a)), 20)
        ref_p, _, _ = agreement(lambda a=args: f_pow(*map(mpmath.mpf, a)), 20)
        a = fp.truncated_laplace_amplitude(float(ev), float(dv), float(Dv))
        p = fp.truncated_laplace_power(float(ev), float(dv), float(Dv))
        assert abs(a - ref_a) <= 1e-14 * ref_a
        assert abs(p - ref_p) <= 1e-14 * ref_p


def _tl_ref(e: float, d: float) -> tuple[mpmath.mpf, mpmath.mpf]:
    def amp():
        return figures.truncated_laplace_mp(mpmath.mpf(e), mpmath.mpf(d))[0]

    def power():
        return figures.truncated_laplace_mp(mpmath.mpf(e), mpmath.mpf(d))[1]

    return agreement(amp, 50)[0], agreement(power, 50)[0]


@pytest.mark.parametrize("eps_range,delta_range", [
    ((1e-4, 10), (1e-6, 0.1)), ((1e-12, 700), (1e-300, 0.4999999)),
])
def test_truncated_laplace_against_mpmath_50_digits(eps_range, delta_range):
    E = np.geomspace(*eps_range, 13)
    D = np.geomspace(*delta_range, 13)
    EE, DD = np.meshgrid(E, D)
    amp = fp.truncated_laplace_amplitude(EE, DD)
    power = fp.truncated_laplace_power(EE, DD)
    h1, h2 = fp.truncated_laplace_factors(EE, DD)
    assert np.all((h1 > 0) & (h1 <= 1) & (h2 > 0) & (h2 <= 1))
    for e, d, a, p in zip(EE.flat, DD.flat, amp.flat, power.flat, strict=True):
        ra, rp = _tl_ref(e, d)
        assert abs(a - ra) <= 1e-14 * ra, (e, d)
        assert abs(p - rp) <= 1e-14 * rp, (e, d)


def test_laplace_and_gaussian_costs():
    assert fp.laplace_amplitude(0.5, 2.0) == 4.0
    assert fp.laplace_power(0.5, 2.0) == 32.0
    from dpsym.gaussian.calibration import calibrate_sigma_mp

    sigma, _ = calibrate_sigma_mp("0.5", "1e-5", "2", digits=25)
    with mpmath.workdps(25):
        assert abs(fp.gaussian_amplitude(0.5, 1e-5, 2.0)
                   - sigma * mpmath.sqrt(2 / mpmath.pi)) <= 1e-14 * sigma
        assert abs(fp.gaussian_power(0.5, 1e-5, 2.0) - sigma**2) <= 1e-14 * sigma**2


@pytest.mark.parametrize("e,d", [
    (1e-4, 1e-6), (1e-4, 0.1), (10.0, 1e-6), (10.0, 0.1), (0.3365, 0.1), (1e-12, 1e-300),
    (700.0, 1e-300), (1.5, 0.45), (3e-3, 2e-5),
])
def test_ratios_against_mpmath(e, d):
    with mpmath.workdps(30):
        ra, rp = figures.ratios_mp(mpmath.mpf(e), mpmath.mpf(d))
    assert abs(fp.amplitude_ratio(e, d) - ra) <= 1e-14 * ra
    assert abs(fp.power_ratio(e, d) - rp) <= 1e-14 * rp


def test_section6_claim_fails_near_delta_one_half():
    """Inside the truncated Laplacian's domain but outside the plotted grid, the
    truncated Laplacian is worse than the analytic Gaussian (ratio > 1)."""
    with mpmath.workdps(30):
        ra, rp = figures.ratios_mp(mpmath.mpf("1.5"), mpmath.mpf("0.45"))
        assert ra > 1
        ra, rp = figures.ratios_mp(mpmath.mpf("2"), mpmath.mpf("0.45"))
        assert rp > 1


def test_section6_writes_deterministic_figures(tmp_path):
    first = figures.section6(tmp_path / "a", n_eps=25, n_delta=25, digits=8)
    figures.section6(tmp_path / "b", n_eps=25, n_delta=25, digits=8)
    for name in figures.FILES:
        assert (tmp_path / "a" / name).read_bytes() == (tmp_path / "b" / name).read_bytes()
    assert (tmp_path / "a" / figures.FILES[0]).read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    data = json.loads((tmp_path / "a" / figures.FILES[2]).read_text())
    for name in ("amplitude", "power"):
        entry = first[name]
        assert data[name]["all_below_one"] is True
        assert entry["min"]["refined"]["where"] == "corner"
        assert entry["max"]["refined"]["where"] == "edge delta = 0.1"
        # the refined maximum is at least the grid maximum
        assert entry["max"]["refined"]["value_float"] >= entry["max"]["grid_value"] - 1e-15
        assert entry["max"]["refined"]["value_float"] < 1


@pytest.mark.parametrize("call", [
    lambda: fp.truncated_laplace_amplitude(1.0, 0.5),
    lambda: fp.truncated_laplace_power(0.0, 0.1),
    lambda: fp.amplitude_ratio(1.0, np.nan),
    lambda: fp.power_ratio(np.inf, 0.1),
    lambda: fp.laplace_amplitude(1.0, -1.0),
])
def test_bad_input(call):
    with pytest.raises(DomainError):
        call()


_BAD_EPS = [np.nan, 0.0, -0.0, -1.0, np.inf, -np.inf, 1.0000000000000002e300, 1e308]


@pytest.mark.parametrize("func", [fp.laplace_amplitude, fp.laplace_power])
@pytest.mark.parametrize("bad", _BAD_EPS)
@pytest.mark.parametrize("where", [0, 500, 999])
def test_laplace_rejects_every_bad_eps_in_an_array(func, bad, where):
    """The one-reduction check of the array fast path misses no bad element."""
    eps = np.geomspace(1e-6, 500.0, 1000)
    eps[where] = bad
    with pytest.raises(DomainError, match=r"eps: .*\(0, 1e300\]"):
        func(eps)
    with pytest.raises(DomainError, match=r"eps: .*\(0, 1e300\]"):
        func(bad)
    with pytest.raises(DomainError, match=r"eps: .*\(0, 1e300\]"):
        func(eps.reshape(10, 100))


@pytest.mark.parametrize("func", [fp.laplace_amplitude, fp.laplace_power])
@pytest.mark.parametrize("Delta", [0.0, -1.0, np.nan, np.inf, np.array([1.0, -1.0])])
def test_laplace_rejects_bad_sensitivity(func, Delta):
    with pytest.raises(DomainError, match=r"Delta: .*\(0, inf\)"):
        func(np.array([0.5, 1.0]), Delta)


def test_laplace_accepts_the_domain_edges_and_every_input_form():
    edges = np.array([1e300, np.nextafter(1e300, 0.0), 5e-324, 2.2250738585072014e-308, 1.0])
    with mpmath.workdps(40):
        for func, ref in [(fp.laplace_amplitude, lambda e, D: D / e),
                          (fp.laplace_power, lambda e, D: 2 * D**2 / e**2)]:
            for Delta in (1.0, 3, 1e-200, 1e200, np.float64(0.5), np.array([2.0])):
                out = func(edges, Delta)
                assert isinstance(out, np.ndarray) and out.shape == edges.shape
                D = mpmath.mpf(float(np.asarray(Delta).ravel()[0]))
                for e, v in zip(edges, out, strict=True):
                    r = ref(mpmath.mpf(float(e)), D)
                    if r > 1.7e308:
                        assert v == np.inf
                    elif r < 2.3e-308:  # subnormal or zero result: absolute error
                        assert abs(v - r) <= mpmath.mpf(2) ** -1074
                    else:
                        assert abs(v - r) <= 4e-16 * r, (func.__name__, e, Delta)
            assert isinstance(func(2.0), float) and isinstance(func(np.float64(2.0)), float)
            assert func([2.0, 4.0]).shape == (2,)
            assert func(np.array(2.0)) == func(2.0) == func(2)
            assert func(np.ones((2, 0))).shape == (2, 0)


def test_laplace_grid_against_mpmath():
    """Relative error on a random grid of the benchmark's range, both functions."""
    rng = np.random.default_rng(11)
    eps = 10.0 ** rng.uniform(-12, np.log10(700.0), 2000)
    amp, power = fp.laplace_amplitude(eps, 1.7), fp.laplace_power(eps, 1.7)
    with mpmath.workdps(40):
        D = mpmath.mpf(1.7)
        for e, a, p in zip(eps, amp, power, strict=True):
            e = mpmath.mpf(float(e))
            assert abs(a / (D / e) - 1) <= 2.3e-16
            assert abs(p / (2 * D**2 / e**2) - 1) <= 7e-16


# ---------------------------------------------------------------------- one source of truth
def _engine_cost(cost: str) -> sp.Expr:
    from dpsym.mechanisms.truncated_laplace import TruncatedLaplace
    from dpsym.symbols import in_eps

    return in_eps(TruncatedLaplace.formula("cost", cost))


@pytest.mark.parametrize("cost", ["amplitude", "power"])
def test_the_stable_rewrite_is_the_engines_closed_form(cost):
    r"""The module's cancellation-free form (Laplace's cost times h_p, with
    L = log(1 + c)) is the engine's closed form of the truncated Laplacian: their
    difference simplifies to 0, and vanishes at exact rational points to 60 digits."""
    from dpsym.symbols import Delta, delta, eps

    L = sp.log(1 + (sp.exp(eps) - 1) / (2 * delta))
    if cost == "amplitude":
        fast = Delta / eps * (sp.exp(L) - 1 - L) / (sp.exp(L) - 1)
    else:
        fast = 2 * Delta**2 / eps**2 * (sp.exp(L) - 1 - L - L**2 / 2) / (sp.exp(L) - 1)
    engine = _engine_cost(cost)
    assert sp.simplify(sp.expand_log(fast - engine, force=True)) == 0
    for e, d, D in (("1/3", "1/7", "3/2"), ("25", "1/1000", "1"), ("1/1000", "49/100", "2")):
        point = {eps: sp.Rational(e), delta: sp.Rational(d), Delta: sp.Rational(D)}
        assert abs(sp.N((fast - engine).subs(point), 60)) < sp.Float("1e-55")


@pytest.mark.parametrize("cost", ["amplitude", "power"])
def test_float64_paths_match_the_engines_formula(cost):
    """The float64 functions against the engine's closed form compiled to mpmath (not
    another hand-written formula), over the module's stated domain."""
    from dpsym.symbols import Delta, delta, eps

    engine = sp.lambdify((eps, delta, Delta), _engine_cost(cost), "mpmath")
    fast = fp.truncated_laplace_amplitude if cost == "amplitude" \
        else fp.truncated_laplace_power
    worst = 0.0
    with mpmath.workdps(60):
        for e in ("1e-9", "1e-4", "0.3", "1", "7", "40", "300"):
            for d in ("1e-300", "1e-12", "1e-3", "0.1", "0.49"):
                want = engine(mpmath.mpf(e), mpmath.mpf(d), mpmath.mpf("1.5"))
                got = fast(float(e), float(d), 1.5)
                worst = max(worst, float(abs(got - want) / want))
    assert worst < 1e-14, worst
