"""The optimal mechanisms for any cost the theorems allow: the staircase's gamma*, P_alpha's
alpha*, the discrete staircase's r*, the separable costs of the product mechanisms, each
against references built from the definitions by another route (mpmath quadrature of the
density period by period, numerical differentiation, direct summation); flat and kinked
optima; the command line (byte-identical output for abs(x) and x^2, one-line refusals),
compare, formula and series."""

from __future__ import annotations

from fractions import Fraction

import mpmath
import pytest
import sympy as sp
from cli_helpers import assert_one_line_error, run

from dpsym.certified.evaluation import cost_balls
from dpsym.certified.expectation import expectation
from dpsym.core.costs import parse_cost
from dpsym.errors import UnsupportedError
from dpsym.mechanisms import DiscreteStaircase, Staircase, UniformMass
from dpsym.mechanisms.independent_staircase import IndependentStaircase
from dpsym.mechanisms.laplace_md import LaplaceMD
from dpsym.mechanisms.staircase import StaircaseSlope
from dpsym.precision import arb_workprec, workdps
from dpsym.symbols import PUBLIC_SYMBOLS, Delta, eps, x


def _function(text: str):
    return sp.lambdify(x, parse_cost(text).function, "mpmath")


def _staircase_sum(f, cuts, eps, Delta, g, periods=90):
    r""":math:`S(\gamma) = \sum_k b^k[\int_{k\Delta}^{(k+\gamma)\Delta} L
    + b\int_{(k+\gamma)\Delta}^{(k+1)\Delta} L]` by quadrature period by period (the
    terms past ``periods`` are below :math:`e^{-2 \cdot 90}` times the cost's growth)."""
    b = mpmath.exp(-eps)
    total = mpmath.mpf(0)
    for k in range(periods):
        lo, mid, hi = k * Delta, (k + g) * Delta, (k + 1) * Delta
        first = mpmath.quad(f, [lo, *[c for c in cuts if lo < c < mid], mid])
        second = mpmath.quad(f, [mid, *[c for c in cuts if mid < c < hi], hi])
        total += b**k * (first + b * second)
    return total


def _staircase_cost(f, cuts, eps, Delta, g, periods=90):
    b = mpmath.exp(-eps)
    return (1 - b) / (Delta * (g + b * (1 - g))) * _staircase_sum(f, cuts, eps, Delta, g,
                                                                   periods)


def _stationarity(f, cuts, eps, Delta, g, periods=90):
    r"""The sign of :math:`C^{\prime}(\gamma)`: :math:`C = 2a(\gamma)S(\gamma)` with
    :math:`a = (1 - b)/(2\Delta D)`, :math:`D = b + (1 - b)\gamma`, and, by Leibniz's
    rule on the integrals, :math:`S^{\prime} = (1 - b)\Delta\sum_k b^k L((k + \gamma)
    \Delta)`; :math:`C^{\prime}` has the sign of :math:`S^{\prime} D - (1 - b) S`."""
    b = mpmath.exp(-eps)
    s = _staircase_sum(f, cuts, eps, Delta, g, periods)
    ds = (1 - b) * Delta * mpmath.fsum(b**k * f((k + g) * Delta) for k in range(periods))
    return ds * (b + (1 - b) * g) - (1 - b) * s


@pytest.mark.parametrize(("text", "cuts"), [("min(abs(x), 3)", (3,)),
                                            ("log(1 + abs(x))", ())])
def test_staircase_optimum_against_quadrature(text, cuts):
    m = Staircase(eps=4, Delta=1)
    gamma = m.value("gamma", text, 40)
    cost = m.value("cost", text, 40)
    assert gamma.certificate == cost.certificate == "enclosure"
    f = _function(text)
    with workdps(60):
        g50 = mpmath.mpf(m.value("gamma", text, 55).text)
        # 50 periods: the rest is below e^-200 times the cost's growth
        reference = _staircase_cost(f, cuts, mpmath.mpf(4), 1, g50, periods=50)
        assert cost.text == mpmath.nstr(reference, 40, strip_zeros=False)
        # the printed gamma* is the rounding of the root: C' changes sign within half a
        # unit of its last digit on either side
        g40 = mpmath.mpf(gamma.text)
        half = mpmath.mpf(10) ** (int(mpmath.floor(mpmath.log10(g40))) - 39) / 2
        assert _stationarity(f, cuts, 4, 1, g40 - half, periods=50) < 0
        assert _stationarity(f, cuts, 4, 1, g40 + half, periods=50) > 0


def test_staircase_cost_is_the_expectation_over_its_noise():
    """The family's closed reduction C = (1 - b)^2 Phi/(Delta D) against the generic
    expectation over the noise description at exact gamma."""
    for text in ("min(abs(x), 3)", "abs(x) > 2", "log(1 + abs(x))"):
        for g in (Fraction(1, 3), Fraction(7, 10)):
            m = Staircase(eps="3/2", Delta=2, gamma=g)
            problem = StaircaseSlope(Fraction(3, 2), Fraction(2), cost_balls(parse_cost(text)))
            noise = m.numeric_noise("amplitude", g)
            with arb_workprec(200):
                assert (problem.cost(g) - expectation(noise, cost_balls(parse_cost(text)))
                        ).contains(0)


def test_staircase_indicator_kink_and_flat_cost():
    # T = 2, Delta = 3: the cost jumps at gamma = 2/3 and is minimal exactly there
    m = Staircase(eps=1, Delta=3)
    gamma = m.value("gamma", "abs(x) > 2", 30)
    assert gamma.certificate == "exact" and gamma.text == "0." + "6" * 29 + "7"
    f = _function("abs(x) > 2")
    with workdps(40):
        at = _staircase_cost(f, (2,), mpmath.mpf(1), 3, mpmath.mpf(2) / 3, periods=90)
        assert m.value("cost", "abs(x) > 2", 30).text == mpmath.nstr(at, 30,
                                                                      strip_zeros=False)
        for g in (mpmath.mpf("0.6"), mpmath.mpf("0.7")):
            assert _staircase_cost(f, (2,), mpmath.mpf(1), 3, g, periods=90) > at
    # T a multiple of Delta: every period keeps its mass whatever gamma, the cost is flat
    flat = Staircase(eps=1, Delta=1)
    with pytest.raises(UnsupportedError, match=r"every gamma in \[0, 1\]"):
        flat.value("gamma", "abs(x) > 2", 20)
    with workdps(30):  # P(|X| > 2) = b^2
        assert flat.value("cost", "abs(x) > 2", 20).text == \
            mpmath.nstr(mpmath.exp(-2), 20, strip_zeros=False)


def _uniform_mass_cost(f, cuts, delta, Delta, alpha):
    half = (1 - alpha) * Delta / (2 * (delta - alpha))
    h = (delta - alpha) / Delta
    return alpha * f(0) + 2 * h * mpmath.quad(f, [0, *[c for c in cuts if c < half], half])


def test_uniform_mass_optimum_by_the_chain_rule():
    r"""alpha* is the root of dC/dalpha = L(0) - 2F(W)/Delta + 2h L(W) W'(alpha), by the
    chain rule on C = alpha L(0) + 2h F(W), h = (delta - alpha)/Delta, W = (1 - alpha)
    Delta/(2(delta - alpha)), F by quadrature."""
    for text in ("log(1 + abs(x))", "abs(x)^(1/2) + x^4"):
        m = UniformMass(delta="0.9", Delta=1)
        alpha, cost = m.value("alpha", text, 40), m.value("cost", text, 40)
        f = _function(text)
        with workdps(60):
            delta = mpmath.mpf(9) / 10

            def slope(a, f=f, delta=delta):
                w = (1 - a) / (2 * (delta - a))
                dw = (1 - delta) / (2 * (delta - a) ** 2)
                return f(0) - 2 * mpmath.quad(f, [0, w]) + 2 * (delta - a) * f(w) * dw
            root = mpmath.findroot(slope, mpmath.mpf(alpha.text))
            assert alpha.text == mpmath.nstr(root, 40, strip_zeros=False)
            assert cost.text == mpmath.nstr(_uniform_mass_cost(f, (), delta, 1, root), 40,
                                            strip_zeros=False)


def test_uniform_mass_indicator_optimum_exactly():
    # W(0) = Delta/(2 delta) = 5: the mass beyond T = 2 is 2h(W - T); 2T > Delta: alpha* = 0
    m = UniformMass(delta="0.1", Delta=1)
    assert m.value("cost", "abs(x) > 2", 20).text == "0.60000000000000000000"
    assert m.value("alpha", "abs(x) > 2", 20).text == "0"
    # 2T = Delta: the cost 1 - alpha - 2(delta - alpha)T/Delta is flat in alpha
    with pytest.raises(UnsupportedError, match=r"every alpha in \[0, 1/10\)"):
        m.value("alpha", "abs(x) > 1/2", 20)
    assert m.value("cost", "abs(x) > 1/2", 10).certificate == "exact"
    # 2T < Delta: the infimum 1 - delta is approached as alpha -> delta, not attained
    assert m.value("cost", "abs(x) > 1/4", 10).text == "0.9000000000"
    with pytest.raises(UnsupportedError, match="not attained"):
        m.value("alpha", "abs(x) > 1/4", 10)
    # W(0) <= T: no mass beyond T for alpha up to alpha_T = (2T delta - Delta)/(2T - Delta)
    assert m.value("cost", "abs(x) >= 6", 10).text == "0"
    with pytest.raises(UnsupportedError, match=r"every alpha in \[0, 1/55\]"):
        m.value("alpha", "abs(x) >= 6", 10)


def _discrete_staircase(f, eps, Delta, r, periods=125):
    b = mpmath.exp(-mpmath.mpf(eps))

    def mass(i):
        k, j = divmod(i, Delta)
        return b**k * (1 if j < r else b)

    norm = 2 * mpmath.fsum(mass(i) for i in range(periods * Delta)) - mass(0)
    total = 2 * mpmath.fsum(f(mpmath.mpf(i)) * mass(i) for i in range(periods * Delta))
    return (total - f(0) * mass(0)) / norm


def test_discrete_staircase_optimum_by_direct_summation():
    for text in ("min(abs(x), 3)", "abs(x) >= 2", "log(1 + abs(x))"):
        m = DiscreteStaircase(eps=1, Delta=5)
        f = _function(text)
        with workdps(50):
            costs = [_discrete_staircase(f, 1, 5, r) for r in range(1, 6)]
        best = min(range(5), key=lambda i: costs[i])
        assert m.value("r", text, 10).text == str(best + 1)
        assert m.value("cost", text, 40).text == mpmath.nstr(costs[best], 40,
                                                              strip_zeros=False)


def test_separable_costs_of_the_product_mechanisms():
    one = Staircase(eps="2/3", Delta=1).value("cost", "min(abs(x), 3)", 45)
    three = IndependentStaircase(eps=2, dim=3).value("cost", "min(abs(x), 3)", 40)
    with workdps(50):
        assert three.text == mpmath.nstr(3 * mpmath.mpf(one.text), 40, strip_zeros=False)
    assert IndependentStaircase(eps=2, dim=3).value("gamma", "min(abs(x), 3)", 30).text \
        == Staircase(eps="2/3").value("gamma", "min(abs(x), 3)", 30).text
    with workdps(30):
        assert LaplaceMD(eps=1, dim=2).value("cost", "abs(x) > 2", 20).text == \
            mpmath.nstr(2 * mpmath.exp(-2), 20, strip_zeros=False)


# --------------------------------------------------------------------- command line
BYTE_IDENTICAL = [
    ("value", "staircase", "--eps", "1", "--digits", "40"),
    ("value", "staircase", "gamma", "--eps", "1/3", "--json"),
    ("value", "discrete-staircase", "r", "--eps", "1", "--Delta", "7"),
    ("value", "laplace-md", "--eps", "1", "--dim", "3", "--json"),
    ("value", "lower-bound", "--eps", "1", "--delta", "0.05"),
    ("formula", "staircase"),
    ("series", "staircase", "--regime", "eps0", "--order", "3"),
]


@pytest.mark.parametrize("argv", BYTE_IDENTICAL, ids=[" ".join(a[:2]) for a in BYTE_IDENTICAL])
@pytest.mark.parametrize(("name", "text"), [("amplitude", "abs(x)"), ("power", "x^2")])
def test_abs_and_square_are_byte_identical_to_the_names(capsys, argv, name, text):
    assert run(capsys, *argv, "--cost", name) == run(capsys, *argv, "--cost", text)


@pytest.mark.parametrize(("argv", "needle"), [
    (("value", "staircase", "--eps", "1", "--cost", "exp(-abs(x))"), "non-decreasing"),
    (("value", "staircase", "--eps", "1", "--cost", "abs(x) + x"), "symmetric"),
    (("value", "laplace", "--eps", "1/2", "--cost", "exp(abs(x))"), "infinite"),
    (("value", "uniform-mass", "alpha", "--delta", "0.1", "--cost", "abs(x) > 1/2"),
     "every alpha"),
    (("value", "staircase-md", "--eps", "1", "--cost", "min(abs(x), 3)"), "separable"),
    (("formula", "staircase", "--cost", "log(1 + abs(x))"), "no closed form"),
    (("series", "laplace", "--cost", "log(1 + abs(x))", "--regime", "eps0", "--order",
      "2"), "no closed form"),
    (("value", "lower-bound", "--eps", "1", "--delta", "0.05", "--cost", "abs(x) - 1"),
     "non-negative"),
])
def test_refusals_are_one_line(capsys, argv, needle):
    assert_one_line_error(*run(capsys, *argv), needle)


def test_compare_is_byte_identical_for_abs(capsys):
    argv = ("compare", "--eps", "1", "--delta", "0.05", "--digits", "8", "--json")
    assert run(capsys, *argv, "--cost", "amplitude") == run(capsys, *argv, "--cost",
                                                            "abs(x)")


def test_compare_ranks_under_the_users_cost(capsys):
    code, out, err = run(capsys, "compare", "--eps", "1", "--delta", "0.05", "--cost",
                         "min(abs(x), 3)", "--digits", "8", "--json")
    assert code == 0 and err == ""
    assert '"cost": "min(abs(x), 3)"' in out and '"certificate": "agreement"' not in out


def test_formula_and_series_of_clipped_and_polynomial_costs(capsys):
    code, out, _ = run(capsys, "formula", "laplace", "--cost", "min(abs(x), 3)")
    assert code == 0
    expr = sp.parse_expr(out.strip(), local_dict=PUBLIC_SYMBOLS)
    lam = sp.Rational(2, 1) / sp.Rational(1, 2)  # Delta = 2, eps = 1/2
    value = expr.subs({Delta: 2, eps: sp.Rational(1, 2)})
    assert abs(sp.N(value - lam * (1 - sp.exp(-3 / lam)), 40)) < sp.Float("1e-35")
    code, out, _ = run(capsys, "series", "staircase", "--cost", "abs(x) + x^2",
                       "--regime", "eps0", "--order", "2")
    assert code == 0 and out.startswith("2*Delta**2/eps**2 + Delta/eps")
