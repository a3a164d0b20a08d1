r"""Rigorous minimisers without a closed form (:mod:`dpsym.certified.intervals`): interval Newton on
the slope and a sign covering of the parameter's range.

References are independent of the interval path: the staircase's cost typed here from its
density (a sum over periods, of power sums summed term by term) minimised by
``mpmath.findroot`` on a numerically differentiated cost at twice the digits (or in
:math:`\log \gamma` at large eps); the d-dimensional staircase also from its density, and
against the engine's two-precision mpmath path (``method="mpmath"``) at more digits;
synthetic costs whose minima are known exactly.
"""

from __future__ import annotations

import math
from fractions import Fraction

import flint
import mpmath
import pytest
import sympy as sp
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from reference import near_tie_eps

from dpsym.certified.balls import BallFunction
from dpsym.certified.intervals import (
    CompiledCost,
    SignPolynomial,
    certify_minimum,
    tropical_covering,
)
from dpsym.certified.rounding import GUARD
from dpsym.core.costs import parse_cost
from dpsym.errors import CertificationError
from dpsym.mechanisms import Staircase, StaircaseMD


def _power_sums(t: mpmath.mpf, n: int) -> list[mpmath.mpf]:
    r"""[:math:`P_0, \dots, P_n`], :math:`P_j = \sum_{k \ge 0} k^j b^k` (:math:`0^0 = 1`,
    :math:`b = e^{-t}`), summed term by term at the working precision: past
    :math:`k = 2n/t` each sum's terms fall by a factor :math:`e^{-t/2}` at least, and the
    summation stops when every term is below :math:`2^{-\mathrm{prec}-10}` of its sum times
    :math:`1 - e^{-t/2}` (the rest is then below :math:`2^{-\mathrm{prec}-10}` of the sum)."""
    bb = mpmath.exp(-t)
    cut = mpmath.mpf(2) ** (-mpmath.mp.prec - 10) * -mpmath.expm1(-t / 2)
    sums = [mpmath.mpf(0)] * (n + 1)
    k, w = 0, mpmath.mpf(1)
    while True:
        terms, kj = [], mpmath.mpf(1)
        for _ in range(n + 1):
            terms.append(w * kj)
            kj *= k
        sums = [x + y for x, y in zip(sums, terms, strict=True)]
        if k > 2 * n / t and all(y <= cut * x for x, y in zip(sums, terms, strict=True)):
            return sums
        k, w = k + 1, w * bb


def _shifted_sum(sums: list[mpmath.mpf], m: int):
    r"""The function :math:`x \mapsto \sum_{k \ge 0} b^k (k + x)^m = \sum_{j \le m}
    \binom{m}{j} x^{m-j} P_j` (the binomial expansion of :math:`(k + x)^m`, :math:`P_j` of
    :func:`_power_sums`): a polynomial in :math:`x` of positive coefficients, its
    coefficients computed once, evaluated by Horner's rule (for :math:`x > 0` a relative
    rounding error of at most :math:`2m` units of the working precision)."""
    coefficients = [math.comb(m, j) * sums[j] for j in range(m + 1)]  # of x^m first
    return lambda x: mpmath.polyval(coefficients, x)


def _staircase_moment(e: mpmath.mpf, power: int):
    r"""E|X|^power of the staircase (Delta = 1) at step fraction g, from its density:
    a b^k on [k, k + g), a b^{k+1} on [k + g, k + 1), a = (1 - b)/(2(g + b(1 - g))), so
    with :math:`q` = power + 1 the cost is :math:`\frac{2a}{q} \sum_k b^k [(k + g)^q - k^q
    + b((k + 1)^q - (k + g)^q)]`; its sums over the periods are
    :func:`_shifted_sum` of the power sums, summed once per eps (:func:`_power_sums`)."""
    bb = mpmath.exp(-e)
    q = power + 1
    sums = _power_sums(e, q)
    shifted = _shifted_sum(sums, q)
    ends = bb * shifted(mpmath.mpf(1)) - sums[q]  # sum_k b^k (b (k+1)^q - k^q)

    def cost(g):
        a = (1 - bb) / (2 * (g + bb * (1 - g)))
        return 2 * a * ((1 - bb) * shifted(g) + ends) / q
    return cost


def _reference(e: str, power: int, digits: int) -> tuple[mpmath.mpf, mpmath.mpf]:
    """(gamma*, optimal cost) from the definition at 2 * digits + 20 digits."""
    with mpmath.workdps(2 * digits + 20):
        cost = _staircase_moment(mpmath.mpf(Fraction(e).numerator) / Fraction(e).denominator,
                                 power)
        g = mpmath.findroot(lambda t: mpmath.diff(cost, t), mpmath.mpf("0.45"))
        return g, cost(g)


def _log_minimiser(cost, lo_u: mpmath.mpf, steps: int) -> tuple[mpmath.mpf, mpmath.mpf]:
    r"""(argmin, min) of ``cost`` over :math:`\gamma = e^u`, :math:`u \in [lo_u, 0]`, at
    the working precision: grids in :math:`u` (129 points, then 17 on the two cells
    around the previous grid's best point), until the bracket is narrower than 1/4; then, with
    :math:`\gamma = e^{u_0} e^v` (:math:`u_0` the bracket's centre: :math:`v` small keeps
    every digit where :math:`|u| \sim \varepsilon` would not), ``steps`` bisections of
    the sign of the numerical logarithmic derivative :math:`(\log V)'(v)` and
    ``findroot`` (secant) on it, which must stay in the bracket. Minimisers as small as
    :math:`e^{-\varepsilon/4}` at :math:`\varepsilon = 10^{100}` are reached."""
    a, c, n = lo_u, mpmath.mpf(0), 128  # the first grid finer: the well may be narrow
    while c - a > mpmath.mpf(1) / 4:
        grid = [a + (c - a) * mpmath.mpf(k) / n for k in range(n + 1)]
        values = [cost(mpmath.exp(u)) for u in grid]
        j = min(range(n + 1), key=values.__getitem__)
        a, c, n = grid[max(j - 1, 0)], grid[min(j + 1, n)], 16
    u0 = (a + c) / 2
    g0 = mpmath.exp(u0)
    a, c = a - u0, c - u0

    def f(v):
        return cost(g0 * mpmath.exp(v))

    def dlog(v):
        return mpmath.diff(f, v) / f(v)

    for _ in range(steps):
        m = (a + c) / 2
        a, c = (a, m) if dlog(m) > 0 else (m, c)
    v = mpmath.findroot(dlog, (a, c))
    assert a - (c - a) <= v <= c + (c - a), "the reference left its bracket"
    g = g0 * mpmath.exp(v)
    return g, cost(g)


def _eps_mpf(e: str) -> mpmath.mpf:
    q = Fraction(e)
    return mpmath.mpf(q.numerator) / q.denominator


def _dps(e: str, digits: int) -> int:
    """Twice the digits, and the digits of eps's size (u = log gamma ~ -eps)."""
    return 2 * digits + 20 + max(0, len(str(int(Fraction(e)))))


def _reference_any_eps(e: str, power: int, digits: int) -> tuple[mpmath.mpf, mpmath.mpf]:
    """(gamma*, optimal cost) of the staircase's moment from its density, minimised in
    log gamma (:func:`_log_minimiser`) at :func:`_dps` digits."""
    with mpmath.workdps(_dps(e, digits)):
        t = _eps_mpf(e)
        return _log_minimiser(_staircase_moment(t, power), -max(t, mpmath.mpf(40)), 12)


def _md_cost(t: mpmath.mpf, d: int, power: int):
    r"""The d-dimensional staircase's cost at step fraction g, from its density
    :math:`a\,b^{\text{level}(\|x\|_1)}`: the radius :math:`R = \|x\|_1` has density
    :math:`\propto b^{\text{level}(r)} r^{d-1}`, so per period :math:`[k, k + 1)`
    :math:`\int r^{m-1} = b^k (((k+g)^m - k^m) + b((k+1)^m - (k+g)^m))/m` and
    :math:`\mathbb{E}R^p = M_{d+p}/M_d`, the sums over the periods
    :func:`_shifted_sum` of the power sums (:func:`_power_sums`, summed once). ``amplitude``
    is :math:`\mathbb{E}R`; ``power`` is
    :math:`\mathbb{E}\|X\|_2^2 = 2\,\mathbb{E}R^2/(d + 1)` (given
    :math:`\|X\|_1 = r`, :math:`X` is uniform on the sphere and
    :math:`\mathbb{E}X_i^2 = 2r^2/(d(d+1))`)."""
    bb = mpmath.exp(-t)
    sums = _power_sums(t, d + power)
    shifted = {m: _shifted_sum(sums, m) for m in (d, d + power)}
    ends = {m: bb * shifted[m](mpmath.mpf(1)) - sums[m] for m in (d, d + power)}

    def moment(m, g):
        return ((1 - bb) * shifted[m](g) + ends[m]) / m

    def cost(g):
        ratio = moment(d + power, g) / moment(d, g)
        return ratio if power == 1 else 2 * ratio / (d + 1)
    return cost


def _md_reference(e: str, d: int, power: int, digits: int
                  ) -> tuple[mpmath.mpf, mpmath.mpf]:
    with mpmath.workdps(_dps(e, digits)):
        t = _eps_mpf(e)
        return _log_minimiser(_md_cost(t, d, power), -max(t, mpmath.mpf(40)), 12)


def _contains(value, reference: mpmath.mpf, digits: int) -> None:
    with mpmath.workdps(3 * digits + 20):
        lo, hi = (mpmath.mpf(t) for t in value.enclosure)
        assert lo <= reference <= hi, (value.enclosure, reference)
        assert hi - lo <= mpmath.mpf(10) ** (1 - digits) * abs(reference)  # narrow enough
        assert value.certificate == "enclosure"
        assert mpmath.nstr(reference, digits, strip_zeros=False) == value.text or \
            abs(mpmath.mpf(value.text) - reference) <= mpmath.mpf(10) ** (1 - digits) * \
            abs(reference)


@pytest.mark.parametrize("power", [3, 4, 6])
def test_staircase_moment_minimiser_is_enclosed(power):
    digits = 25
    g, v = _reference("1", power, digits)
    m = Staircase(eps=1)
    gamma = m.value("gamma", f"moment:{power}", digits)
    cost = m.value("cost", f"moment:{power}", digits)
    assert gamma.certificate == cost.certificate == "enclosure"
    _contains(gamma, g, digits)
    _contains(cost, v, digits)
    # the two-precision path is only a cross-check, and says so
    slow = m.value("gamma", f"moment:{power}", digits, method="mpmath")
    assert slow.certificate == "agreement" and slow.text == gamma.text


def test_fifty_and_a_thousand_digits_agree_with_the_mpmath_path():
    m = Staircase(eps="1/3")
    for digits in (50, 1000):
        for quantity in ("gamma", "cost"):
            fast = m.value(quantity, "moment:5", digits)
            assert fast.certificate == "enclosure"
            assert fast.text == m.value(quantity, "moment:5", digits, method="mpmath").text


@pytest.mark.parametrize(("dim", "e"), [(2, "1"), (3, "1/3"), (4, "1e-4"), (4, "20"),
                                        (3, "1e-25"), (13, "1e-25"), (50, "1e-6")])
def test_multidimensional_staircase_power_is_enclosed(dim, e):
    """The references (a cross-check only): the minimiser of the engine's two-precision
    mpmath path at 45 digits, and the engine's numeric cost there (what that path returns
    as the cost: a 45-digit minimiser moves the cost at second order only), at the
    precision of that path's finer evaluation (45 digits and twice its guard digits: at
    eps = 1e-25 the cost lies within 1e-103 of the end of its 40-digit enclosure)."""
    m = StaircaseMD(eps=e, dim=dim)
    g_ref = m.value("gamma", "power", 45, method="mpmath").number
    with mpmath.workdps(45 + 2 * max(GUARD, m._guard_digits(parse_cost("power")))):
        refs = {"gamma": g_ref, "cost": m.cost_at(g_ref, "power")}
    for quantity, ref in refs.items():
        v = m.value(quantity, "power", 20)
        assert v.certificate == "enclosure"
        with mpmath.workdps(60):
            lo, hi = (mpmath.mpf(t) for t in v.enclosure)
            assert lo <= ref <= hi


def _compiled(cost: sp.Expr, lo: Fraction, hi: Fraction) -> CompiledCost:
    t = sp.Symbol("t")
    cost = cost.subs(sp.Symbol("x"), t)
    slope = sp.diff(cost, t)
    parts = [BallFunction.prepare(e, {}, t) for e in (cost, slope, sp.diff(slope, t))]
    return CompiledCost(*parts, lo, hi)


def test_the_global_minimum_among_several_local_ones_is_chosen():
    x = sp.Symbol("x")
    # minima near 1/5 and 4/5; the tilt x/10 makes 1/5 the global one
    f = _compiled((x - sp.Rational(1, 5)) ** 2 * (x - sp.Rational(4, 5)) ** 2 + x / 10,
                  Fraction(0), Fraction(1))
    g = certify_minimum(f, 20, quantity="parameter")
    with mpmath.workdps(50):
        # the reference: the slope 2 P P' + 1/10, P = x^2 - x + 4/25, expanded by hand,
        # its real roots by polyroots; the smaller cost among them
        one = mpmath.mpf(1)
        roots = mpmath.polyroots([4, -6, 66 * one / 25, -22 * one / 100], extraprec=100)
        real = [r.real for r in roots if abs(r.imag) < mpmath.mpf(10) ** -30]
        want = min(real, key=lambda r: (r - one / 5) ** 2 * (r - 4 * one / 5) ** 2 + r / 10)
        assert abs(mpmath.mpf(g.text()) - want) < mpmath.mpf(10) ** -18
        assert abs(want - one / 5) < one / 10  # the tilt picks the left well


def test_a_minimum_at_an_end_is_proven_by_the_sign_of_the_slope():
    x = sp.Symbol("x")
    f = _compiled((x + 1) ** 2, Fraction(0), Fraction(1))  # increasing on [0, 1]
    assert certify_minimum(f, 10, quantity="parameter").text() == "0"
    assert certify_minimum(f, 10).text() == "1.000000000"
    f = _compiled((x - 3) ** 2, Fraction(0), Fraction(1))  # decreasing on [0, 1]
    assert certify_minimum(f, 10, quantity="parameter").text() == "1.000000000"
    assert certify_minimum(f, 10).text() == "4.000000000"


def test_equal_minima_cannot_be_separated():
    x = sp.Symbol("x")
    f = _compiled((x - sp.Rational(1, 4)) ** 2 * (x - sp.Rational(3, 4)) ** 2,
                  Fraction(0), Fraction(1))
    with pytest.raises(CertificationError, match=r"separate|did not round"):
        certify_minimum(f, 10)


def test_a_double_root_of_the_slope_gives_up_with_a_reason():
    x = sp.Symbol("x")
    f = _compiled((x - sp.Rational(1, 2)) ** 4, Fraction(0), Fraction(1))  # s' = 0 at 1/2
    with pytest.raises(CertificationError, match=r"intervals|separate|round"):
        certify_minimum(f, 10)


@settings(max_examples=14, deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.too_slow])
@given(log_eps=st.floats(-6, 2), power=st.integers(1, 6))
def test_property_enclosures_contain_the_mpmath_reference(log_eps, power):
    r"""eps log-uniform in [1e-6, 100] (the large eps of the declared domain (0, 1e100]
    are in :func:`test_property_large_eps_enclosures_contain_the_density_reference`),
    P = 1..6 (1 and 2 have closed forms: the ball path). The reference is the mpmath path
    at twice the digits."""
    e = Fraction(f"{10**log_eps:.4g}")
    m = Staircase(eps=e)
    for quantity in ("gamma", "cost"):
        v = m.value(quantity, f"moment:{power}", 15)
        assert v.certificate in ("enclosure", "exact")
        ref = m.value(quantity, f"moment:{power}", 40, method="mpmath")
        with mpmath.workdps(60):
            lo, hi = (mpmath.mpf(t) for t in v.enclosure)
            assert lo <= ref.number <= hi, (e, power, quantity)


def test_the_ball_function_takes_an_interval_of_the_free_parameter():
    t = sp.Symbol("t")
    f = BallFunction.prepare(t**2 - 2 * t, {}, t)
    with flint.ctx.workprec(64):
        ball = f(flint.arb(1).union(flint.arb(2)))
    assert ball.contains(flint.arb(-1)) and ball.contains(flint.arb(0))


def test_the_isolation_is_kept_per_instance_and_reused_at_any_digits():
    m = Staircase(eps="2/3")
    low = m.value("cost", "moment:4", 12)
    high = m.value("cost", "moment:4", 60)  # from the kept (and contracted) root box
    fresh = Staircase(eps="2/3").value("cost", "moment:4", 60)
    assert high.text == fresh.text and high.certificate == "enclosure"
    assert m.value("cost", "moment:4", 12).text == low.text
    with mpmath.workdps(80):
        assert mpmath.nstr(mpmath.mpf(high.text), 12, strip_zeros=False) == low.text


# ---------------------------------------------------------------------- large eps, high d
@pytest.mark.parametrize(("power", "e"), [(3, "1e3"), (3, "1e4"), (5, "1e4"), (12, "100"),
                                          (3, "1e20"), (4, "4.91e29"), (7, "1e60"),
                                          (5, "1e100")])
def test_large_eps_staircase_minimiser_is_enclosed(power, e):
    """Up to the top of the declared domain: the minimiser ~ e^{-eps/(P+1)} and the roots
    of the slope spread over eps/log(2) bits (the slope's sign polynomial and its
    tropical covering)."""
    digits = 25
    g, v = _reference_any_eps(e, power, digits)
    m = Staircase(eps=e)
    _contains(m.value("gamma", f"moment:{power}", digits), g, digits)
    _contains(m.value("cost", f"moment:{power}", digits), v, digits)


@pytest.mark.parametrize(("dim", "e", "cost"), [(3, "1e4", "amplitude"), (3, "1e6", "power"),
                                                (4, "20", "amplitude"), (13, "1", "amplitude"),
                                                (50, "20", "power"), (30, "1e6", "amplitude")])
def test_multidimensional_staircase_minimiser_at_large_eps_and_dimension(dim, e, cost):
    """eps up to the declared top (1e6) and d up to 50, beyond the sympy slope's size
    limit (the family's ball polynomials)."""
    digits = 20
    g, v = _md_reference(e, dim, 1 if cost == "amplitude" else 2, digits)
    m = StaircaseMD(eps=e, dim=dim)
    _contains(m.value("gamma", cost, digits), g, digits)
    _contains(m.value("cost", cost, digits), v, digits)


def test_a_value_within_a_thousandth_of_an_ulp_of_a_rounding_boundary_rounds_correctly():
    """eps is chosen (by the mpmath reference, secant on eps) so that the optimal
    moment-3 cost lies within 10^-(d+3) of a midpoint between two d-digit decimals; the
    printed digits must be those of the reference, on the correct side."""
    digits = 8
    dps = 60

    def optimum(t):
        with mpmath.workdps(dps):
            return _log_minimiser(_staircase_moment(t, 3), mpmath.mpf(-40), 12)[1]

    with mpmath.workdps(dps):
        e, want, scale = near_tie_eps(optimum, digits)
        value = Staircase(eps=e).value("cost", "moment:3", digits)
        assert value.certificate == "enclosure"
        assert abs(mpmath.mpf(value.text) - want) < scale / 1000, value.text


@settings(max_examples=8, deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.too_slow])
@given(log_eps=st.floats(2, 100), power=st.integers(3, 8))
def test_property_large_eps_enclosures_contain_the_density_reference(log_eps, power):
    """eps log-uniform in [100, 1e100] (the declared domain's top end), P = 3..8."""
    e = f"{10**log_eps:.4g}" if log_eps < 15 else f"1e{round(log_eps)}"
    digits = 15
    g, v = _reference_any_eps(e, power, digits)
    m = Staircase(eps=e)
    _contains(m.value("gamma", f"moment:{power}", digits), g, digits)
    _contains(m.value("cost", f"moment:{power}", digits), v, digits)


@settings(max_examples=8, deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.too_slow])
@given(log_eps=st.floats(1.3, 6), dim=st.integers(3, 50), power=st.integers(1, 2))
def test_property_multidimensional_enclosures_contain_the_density_reference(log_eps, dim,
                                                                            power):
    """eps log-uniform in [20, 1e6] (the declared top), d = 3..50."""
    e = f"{10**log_eps:.3g}"
    digits = 15
    g, v = _md_reference(e, dim, power, digits)
    m = StaircaseMD(eps=e, dim=dim)
    cost = "amplitude" if power == 1 else "power"
    _contains(m.value("gamma", cost, digits), g, digits)
    _contains(m.value("cost", cost, digits), v, digits)


def test_a_minimiser_of_size_two_to_the_minus_ten_thousand_is_isolated_in_few_steps():
    """Slope x^3 - 2^-30000 on [0, 1] (cost x^4/4 - 2^-30000 x): its sign polynomial's
    tropical root 2^-10000 is the minimiser; the sign covering takes a handful of
    intervals where the halving covering would need thousands."""
    x = sp.Symbol("x")
    c = sp.Rational(1, 2**30000)
    f = _compiled(x**4 / 4 - c * x, Fraction(0), Fraction(1))
    tiny = flint.fmpq(1, 2**30000)
    f = CompiledCost(f.cost, f.slope, f.dslope, f.lo, f.hi,
                     numerator=lambda: [-flint.arb(tiny), flint.arb(0), flint.arb(0),
                                        flint.arb(1)])
    g = certify_minimum(f, 20, quantity="parameter")
    with mpmath.workdps(40):
        assert abs(mpmath.mpf(g.text()) / mpmath.ldexp(1, -10000) - 1) < mpmath.mpf(10) ** -19
    with flint.ctx.workprec(128):
        pieces = tropical_covering(SignPolynomial(f))
    assert len(pieces) < 200 and sum(p.root for p in pieces) == 1


def test_one_monomial_above_the_others_proves_the_sign():
    """N = 1 - x: positive on (0, 1/2] (1 > x there), unproven on (0, 2] (it changes
    sign); N = x^2 - 2^-100: negative near 0, positive from 2^-49 on."""
    f = _compiled(sp.Symbol("x"), Fraction(0), Fraction(1))
    with flint.ctx.workprec(64):
        g = SignPolynomial(CompiledCost(f.cost, f.slope, f.dslope, f.lo, f.hi,
                                        numerator=lambda: [flint.arb(1), flint.arb(-1)]))
        assert g.dominance(flint.arb(0), flint.arb("0.5")) == 1
        assert g.dominance(flint.arb(0), flint.arb(2)) == 0
        h = SignPolynomial(CompiledCost(f.cost, f.slope, f.dslope, f.lo, f.hi, numerator=lambda: [
            -flint.arb(2) ** -100, flint.arb(0), flint.arb(1)]))
        assert h.dominance(flint.arb(0), flint.arb(2) ** -52) == -1
        assert h.dominance(flint.arb(2) ** -48, flint.arb(1)) == 1
        assert h.dominance(flint.arb(2) ** -51, flint.arb(2) ** -49) == 0
        assert h.tropical_roots() == [-50]


@pytest.mark.parametrize(("e", "dim"), [("1", 3), ("1e4", 3), ("1/3", 13)])
def test_independent_staircase_quantities_are_enclosed(e, dim):
    """Each coordinate is the 1-D staircase at eps/d: the costs are d times its costs and
    gamma its optimum; the reference from the 1-D density (:func:`_reference_any_eps` at
    eps/d, amplitude P = 1, power P = 2)."""
    from dpsym.mechanisms import IndependentStaircase

    digits = 20
    m = IndependentStaircase(eps=e, dim=dim)
    for cost, power in (("amplitude", 1), ("power", 2)):
        g, v = _reference_any_eps(str(Fraction(e) / dim), power, digits)
        gamma = m.value("gamma", cost, digits)
        total = m.value("cost", cost, digits)
        assert gamma.certificate == total.certificate == "enclosure"
        _contains(gamma, g, digits)
        with mpmath.workdps(_dps(e, digits)):
            _contains(total, dim * v, digits)
