r"""The slow corners of ``value`` (issue 19): the fast paths that replaced them, proven
equal to the engine's formulas and to quadrature of the density, the worst requests of
the probe (``benchmarks/probe.py``) as regression tests, and a bounded run of the probe's
property-based search.

Reference values: quadrature of the density (mpmath ``quad``) at 50 digits where stated;
otherwise the value printed by the former slow path (dpsym at commit b4a297d, before
these fast paths), named in each case. No test asserts a wall-clock time except the
bounded search, whose per-request limit (:data:`HANG`) only detects a hang.
"""

from __future__ import annotations

import importlib.util
import math
import sys
from datetime import timedelta
from fractions import Fraction
from pathlib import Path

import mpmath
import pytest
import sympy as sp
from hypothesis import HealthCheck, given, seed, settings

from dpsym.certified.evaluation import cost_at, numeric_point
from dpsym.core.costs import parse_cost
from dpsym.mechanisms import get_mechanism
from dpsym.mechanisms import staircase_md as md
from dpsym.precision import workdps
from dpsym.symbolic.l1 import shifted_power_sum_remainders, shifted_power_sums_numeric
from dpsym.symbolic.optimize import refine_root
from dpsym.symbolic.sums import (
    LerchSum,
    LowerGammaStar,
    _euler_maclaurin,
    _hurwitz_expansion,
    mp_lerch_sum,
    mp_lower_gamma_star,
)
from dpsym.symbols import b, gamma

PROBE = Path(__file__).resolve().parents[2] / "benchmarks" / "probe.py"
#: Seconds after which a request of the bounded search counts as hung (not a benchmark).
HANG = 120.0


@pytest.fixture(scope="module")
def probe():
    spec = importlib.util.spec_from_file_location("dpsym_benchmarks_probe", PROBE)
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look their module up
    spec.loader.exec_module(module)
    return module


# ---------------------------------------------------------------------- the Lerch sums
def test_integer_offsets_shift_to_zero() -> None:
    r""":math:`L(r, s, n) = r^{-n}(L(r, s, 0) - \sum_{j<n} r^j j^s)`, symbolically applied,
    numerically true (the direct sums, without the rule)."""
    s = sp.Rational(5, 2)
    assert LerchSum(b, s, 1) == LerchSum(b, s, 0) / b
    assert LerchSum(b, s, gamma).args[2] == gamma  # a symbolic offset stays
    with workdps(40):
        z = mpmath.mpf("0.7")
        for n in (1, 2, 3):
            shifted = LerchSum(sp.Rational(7, 10), s, n)
            direct = mp_lerch_sum(z, s, n)
            assert abs(sp.N(shifted, 40) - sp.Float(direct, 40)) < 1e-35 * abs(direct)


@pytest.mark.parametrize("t", ["0.05", "1e-3"])
def test_hurwitz_expansion_against_euler_maclaurin(t: str) -> None:
    with workdps(50):
        tt, s, a = mpmath.mpf(t), mpmath.mpf("2.5"), mpmath.mpf("0.3")
        ref = _euler_maclaurin(tt, s, a)  # an independent summation
        assert abs(_hurwitz_expansion(tt, s, a) / ref - 1) < mpmath.mpf(10) ** -45


def _staircase_quadrature(eps: str, g: str, p: str, periods: int) -> mpmath.mpf:
    r""":math:`\mathbb{E}|X|^p` of the staircase (:math:`\Delta = 1`) by quadrature of its
    density over ``periods`` periods (the rest is below the tolerance at ``eps``)."""
    e, gg, pp = mpmath.mpf(eps), mpmath.mpf(g), mpmath.mpf(p)
    bb = mpmath.exp(-e)
    a = (1 - bb) / (2 * (gg + bb * (1 - gg)))
    total = mpmath.mpf(0)
    for k in range(periods):
        total += bb**k * (mpmath.quad(lambda x: x**pp, [k, k + gg])
                          + bb * mpmath.quad(lambda x: x**pp, [k + gg, k + 1]))
    return 2 * a * total


def test_staircase_non_integer_moment_is_one_fraction_equal_to_quadrature() -> None:
    r"""The cost for :math:`p = 3/2` is one fraction with a single Lerch sum (nothing
    cancels as :math:`\varepsilon \to 0`), equal to quadrature of the density."""
    cls = get_mechanism("staircase")
    expr = cls.cost_function("moment:3/2")
    assert expr.atoms(LerchSum) == {LerchSum(b, sp.Rational(5, 2), gamma)}
    m = cls(eps=2)
    with workdps(30):
        value = cost_at(m, parse_cost("moment:3/2"), numeric_point(m))(mpmath.mpf("0.3"))
        ref = _staircase_quadrature("2", "0.3", "1.5", 40)
    assert abs(value / ref - 1) < 1e-25


# ---------------------------------------------------------------------- incomplete gamma
def test_lower_gamma_star() -> None:
    a, z = sp.Rational(33, 4), sp.Symbol("z", positive=True)
    assert sp.diff(LowerGammaStar(a, z), z) == -a * LowerGammaStar(a + 1, z)
    with workdps(40):
        for aa, zz in (("8.25", "1e-30"), ("2.5", "0.3"), ("8.25", "700")):
            ref = (mpmath.gammainc(mpmath.mpf(aa), 0, mpmath.mpf(zz), regularized=True)
                   * mpmath.mpf(zz) ** -mpmath.mpf(aa))
            assert abs(mp_lower_gamma_star(aa, zz) / ref - 1) < 1e-35
    # the power series at z -> 0 (the regimes expand it)
    x = sp.Symbol("x", positive=True)
    series = LowerGammaStar(sp.Rational(5, 2), x).series(x, 0, 2).removeO()
    expected = (sp.Rational(2, 5) - sp.Rational(2, 7) * x) / sp.gamma(sp.Rational(5, 2))
    assert sp.simplify(series - expected) == 0


def _truncated_laplace_quadrature(eps: str, delta: str, p: str) -> mpmath.mpf:
    e, d = mpmath.mpf(eps), mpmath.mpf(delta)
    pp = mpmath.mpf(Fraction(p).numerator) / Fraction(p).denominator
    lam = 1 / e
    big_a = lam * mpmath.log(1 + (mpmath.exp(e) - 1) / (2 * d))
    big_b = 1 / (2 * lam * (1 - mpmath.exp(-big_a / lam)))
    return 2 * big_b * mpmath.quad(lambda x: x**pp * mpmath.exp(-x / lam), [0, big_a])


@pytest.mark.parametrize(("eps", "delta", "p"), [
    ("0.5", "0.4999", "29/4"),   # the request that hung for more than ten minutes
    ("1e-3", "0.25", "3/2"),     # a half-integer: sympy's erf form cancels here
    ("3", "1e-9", "1/3"),
])
def test_truncated_laplace_non_integer_moments_against_quadrature(eps, delta, p) -> None:
    m = get_mechanism("truncated-laplace")(eps=eps, delta=delta)
    v = m.value("cost", f"moment:{p}", 40)
    with workdps(60):
        ref = _truncated_laplace_quadrature(eps, delta, p)
        assert abs(v.number / ref - 1) < mpmath.mpf(10) ** -39


def test_the_hung_request_answers_with_the_quadrature_digits() -> None:
    m = get_mechanism("truncated-laplace")(eps="0.5", delta="0.4999")
    v = m.value("cost", "moment:7.25", 40)
    assert v.text == "0.09884097332903037754228555632795914907987"  # quadrature, 50 digits


# ---------------------------------------------------------------------- the minimiser
def test_refine_root_doubles_to_the_working_precision() -> None:
    with workdps(1000):
        two = mpmath.mpf(2)
        with workdps(10):
            hint = mpmath.sqrt(two)
        root = refine_root(lambda x: x * x - two, hint, mpmath.mpf(0), two, 30)
        assert root is not None and abs(root - mpmath.sqrt(two)) < mpmath.mpf(10) ** -990
        # no sign change near the hint: refused (the caller falls back to bracketing)
        assert refine_root(lambda x: x * x + 1, hint, mpmath.mpf(0), two, 30) is None


# ---------------------------------------------------------------------- staircase-md
@pytest.mark.parametrize("d", [2, 3, 5])
def test_staircase_md_series_equals_the_sums(d: int) -> None:
    r"""The small-eps form :math:`e^{\gamma t} m!\,t^{-m-1}(1 + R_m)` equals the closed
    sums :math:`S_m(\gamma)` (evaluated with ample guard digits)."""
    with workdps(300):  # the closed sums lose about (d + 1) 25 digits at t = 1e-25
        t = mpmath.mpf("1e-25")  # the series path's regime: eps below SERIES_EPS = 1e-20
        bb, omb = mpmath.exp(-t), -mpmath.expm1(-t)
        from dpsym.symbolic.l1 import power_geometric_sums_numeric

        e = power_geometric_sums_numeric(d + 1, bb, omb)
        for g in ("0.1", "0.5", "0.97"):
            gg = mpmath.mpf(g)
            sums = shifted_power_sums_numeric(d + 1, gg, e)
            r = shifted_power_sum_remainders([d, d + 1], gg, t)
            for m in (d, d + 1):
                series = mpmath.exp(gg * t) * math.factorial(m) / t ** (m + 1) * (1 + r[m])
                assert abs(series / sums[m] - 1) < mpmath.mpf(10) ** -100
            u = shifted_power_sum_remainders([d], 1 - gg, t, reflected=True)[d]
            assert abs(u - r[d]) <= mpmath.mpf(10) ** -100 * abs(r[d])


@pytest.mark.parametrize(("d", "quantity", "cost"), [(3, "gamma", "amplitude"),
                                                     (4, "cost", "power"),
                                                     (2, "gamma", "power")])
def test_staircase_md_small_eps_path_equals_the_direct_path(monkeypatch, d, quantity,
                                                            cost) -> None:
    r"""Below :data:`~dpsym.mechanisms.staircase_md.SERIES_EPS` the value is the one the
    direct sums give with their :math:`(d+1)\log_{10}(1/\varepsilon)` guard digits."""
    cls = get_mechanism("staircase-md")
    fast = cls(eps="1e-25", dim=d).value(quantity, cost, 30)
    monkeypatch.setattr(md, "SERIES_EPS", Fraction(0))
    slow = cls(eps="1e-25", dim=d).value(quantity, cost, 30)
    assert fast.text == slow.text


# ---------------------------------------------------------------------- worst requests
#: The worst requests found (issue 19 and the probe), each with its reference value.
WORST = [
    # (mechanism, quantity, cost, digits, params, expected text, provenance)
    ("staircase", "cost", "moment:3/2", 40, {"eps": "1e-5"},
     "42037434.12280930926904253265637506743280",
     "former slow path agrees to its 30 digits (42037434.1228093092690425326564)"),
    ("staircase", "cost", "moment:20", 40, {"eps": "1e-300"},
     "2.432902008176640000000000000000000000000e+6018",
     "20! eps^-20: the moment's leading term; the next is smaller by eps^21"),
    ("staircase-md", "cost", "amplitude", 40, {"eps": "1e-300", "dim": 50},
     "5.000000000000000000000000000000000000000e+301", "d/eps, the leading term"),
    ("staircase-md", "gamma", "amplitude", 40, {"eps": "1e-300", "dim": 3},
     "1.000000000000000000000000000000000000000", "1 - eps/12 + ..., rounded"),
]


@pytest.mark.parametrize(("name", "quantity", "cost", "digits", "params", "text", "why"),
                         WORST, ids=[f"{w[0]}-{w[1]}-{w[2]}-{w[4]}" for w in WORST])
def test_worst_requests(name, quantity, cost, digits, params, text, why) -> None:
    assert get_mechanism(name)(**params).value(quantity, cost, digits).text == text, why


@pytest.mark.slow
@pytest.mark.parametrize(("name", "quantity", "cost", "digits", "params"), [
    ("staircase", "cost", "moment:3/2", 1000, {"eps": "1e-5"}),
    ("staircase-md", "gamma", "amplitude", 1000, {"eps": "1e-300", "dim": 50}),
    ("truncated-laplace", "cost", "moment:29/4", 1000, {"eps": "0.5", "delta": "0.4999"}),
])
def test_worst_requests_at_1000_digits_agree_with_40(name, quantity, cost, digits,
                                                      params) -> None:
    m = get_mechanism(name)(**params)
    high, low = m.value(quantity, cost, digits), m.value(quantity, cost, 40)
    with workdps(60):
        assert abs(high.number / low.number - 1) < mpmath.mpf(10) ** -39


# ---------------------------------------------------------------------- bounded search
@pytest.mark.slow
def test_bounded_probe_finds_no_hang(probe) -> None:
    """A few requests of the probe's search (in fresh processes, 40 digits at most): none
    hangs (:data:`HANG` seconds is a hang detector, not a benchmark)."""
    found = []

    @settings(max_examples=4, deadline=timedelta(seconds=2 * HANG), database=None,
              suppress_health_check=list(HealthCheck))
    @given(probe.requests(digits_max=40))
    def run(request) -> None:
        result = probe.measure(request, HANG)
        found.append(result)
        assert result.status != "timeout", request.command()
        assert result.status != "error" or "Error" in result.error, result.error

    seed(19)(run)()
    assert found


def test_discrete_staircase_non_integer_moment_domain_is_declared() -> None:
    """A non-integer moment of the discrete staircase sums one Lerch sum per lattice
    point of a period: beyond DELTA_MAX_LERCH it is refused, naming the parameter and its
    range, before any sum (integer moments keep the whole declared range)."""
    from dpsym.errors import DomainError
    from dpsym.mechanisms.discrete_staircase import DELTA_MAX_LERCH, DiscreteStaircase

    m = DiscreteStaircase(eps="1e-3", Delta=DELTA_MAX_LERCH + 1)
    with pytest.raises(DomainError, match=rf"Delta.*\[1, {DELTA_MAX_LERCH}\]"):
        m.value("cost", "moment:29/4", 40)
    # an integer moment (one the derivation cache does not hold, derived here: 3 takes a
    # second, 7 four): its closed form, beyond DELTA_MAX_LERCH too
    assert m.value("cost", "moment:3", 20).text
