"""The Rényi curves (:mod:`dpsym.accounting.renyi`): known closed forms, independent quadratures and
lattice sums in mpmath, the infinite cases with their reasons, limits, input checks and
the ``dpsym renyi`` command."""

from __future__ import annotations

import itertools

import mpmath
import pytest
import sympy as sp
from cli_helpers import assert_one_line_error, run, run_json

from dpsym import DomainError, Laplace, Staircase, UnsupportedError
from dpsym.accounting.renyi import alpha, parse_order, renyi, renyi_formula, renyi_series
from dpsym.mechanisms import MECHANISMS
from dpsym.precision import workdps
from dpsym.symbolic.tidy import tidy
from dpsym.symbols import Delta, b, eps, gamma


def _mp(text: str) -> mpmath.mpf:
    return mpmath.mpf(text)


def _laplace(e, a):
    """Mironov's closed form, evaluated with mpmath (a: mpf order, e: mpf eps)."""
    return mpmath.log(a / (2 * a - 1) * mpmath.exp((a - 1) * e)
                      + (a - 1) / (2 * a - 1) * mpmath.exp(-a * e)) / (a - 1)


@pytest.mark.parametrize(("e", "order"), [("1/2", "3"), ("2", "3/2"), ("0.1", "20")])
def test_laplace_matches_mironov_to_every_digit(e, order):
    got = renyi(Laplace(eps=e, Delta=3), order, digits=25)
    with workdps(60):
        ee, a = mpmath.mpf(sp.Rational(e)), mpmath.mpf(sp.Rational(order))
        assert got.text == mpmath.nstr(_laplace(ee, a), 25, strip_zeros=False)
    assert got.shift == "3"


def test_laplace_limits_kl_and_pure_eps():
    kl = renyi(Laplace(eps="1/3"), 1, digits=20)
    with workdps(40):
        e = mpmath.mpf(1) / 3
        assert kl.text == mpmath.nstr(e + mpmath.expm1(-e), 20, strip_zeros=False)
        near = _laplace(e, 1 + mpmath.mpf(10) ** -20)  # the limit alpha -> 1
        assert abs(near - _mp(kl.text)) < 1e-18
    assert renyi(Laplace(eps="1/3"), "inf", digits=10).text == "0.3333333333"


def test_gaussians_match_alpha_delta2_over_2sigma2():
    m = MECHANISMS["gaussian"](eps="1/2", delta="1e-5", Delta=2)
    got = renyi(m, "7/2", digits=25)
    with workdps(50):
        sigma2 = 2 * mpmath.log(mpmath.mpf(5) / 4 / mpmath.mpf("1e-5")) * 4 / mpmath.mpf(0.25)
        assert got.text == mpmath.nstr(mpmath.mpf(7) / 2 * 4 / (2 * sigma2), 25,
                                       strip_zeros=False)
    inf = renyi(m, "inf")
    assert inf.infinite and "unbounded" in inf.reason
    a = MECHANISMS["analytic-gaussian"](eps=1, delta="1e-5")
    sigma = _mp(a.value("sigma", digits=30).text)
    assert abs(_mp(renyi(a, 2, digits=20).text) - 1 / sigma**2) < 1e-18


def _staircase_density(e, g, x):
    bb = mpmath.exp(-e)
    a = (1 - bb) / (2 * (g + bb * (1 - g)))
    y = abs(x)
    k = mpmath.floor(y)
    return a * bb ** (k if y - k < g else k + 1)


def test_staircase_sup_by_independent_quadrature():
    m = Staircase(eps=1)
    got = renyi(m, 3, digits=15)
    g = mpmath.mpf(m.value("gamma", digits=30).text)
    with workdps(25):
        def div(d):
            pts = sorted({mpmath.mpf(k) + s for k in range(-30, 31)
                          for s in (0, g, -g, -d, g - d, -g - d)})
            # the integrand is constant between breakpoints: midpoint times length
            total = mpmath.fsum((q - p) * _staircase_density(1, g, (p + q) / 2) ** 3
                                * _staircase_density(1, g, (p + q) / 2 + d) ** -2
                                for p, q in itertools.pairwise(pts))
            return mpmath.log(total) / 2
        best = max(div(mpmath.mpf(j) / 8) for j in range(1, 9))
        assert abs(best - _mp(got.text)) < 1e-12
    expr = renyi_formula("staircase").subs({alpha: 3, Delta: 1, b: sp.exp(-1), gamma:
                                            sp.Rational(str(g))})
    assert abs(sp.N(expr, 20) - sp.Float(got.text, 20)) < 1e-13


def _lattice_renyi(mass, d, a, n=400):
    return mpmath.log(mpmath.fsum(mass(i) ** a * mass(i + d) ** (1 - a)
                                  for i in range(-n, n))) / (a - 1)


def test_discrete_laplace_and_staircase_by_lattice_sums():
    got = renyi(MECHANISMS["discrete-laplace"](eps=1, Delta=3), 4, digits=20)
    with workdps(30):
        lam = mpmath.exp(-mpmath.mpf(1) / 3)
        c = (1 - lam) / (1 + lam)
        assert abs(_lattice_renyi(lambda i: c * lam ** abs(i), 3, 4) - _mp(got.text)) < 1e-20
    kl = renyi(MECHANISMS["discrete-laplace"](eps=1, Delta=3), 1, digits=20)
    with workdps(30):
        direct = mpmath.fsum(c * lam ** abs(i) * (abs(i + 3) - abs(i)) / 3
                             for i in range(-400, 400))
        assert abs(direct - _mp(kl.text)) < 1e-19
    expr = renyi_formula("discrete-laplace").subs({alpha: 4, Delta: 3, eps: 1})
    assert abs(sp.N(expr, 25) - sp.Float(got.text, 25)) < 1e-18
    m = MECHANISMS["discrete-staircase"](eps=1, Delta=4)
    got = renyi(m, 2, digits=20)
    r = int(m.value("r").number)
    with workdps(30):
        bb = mpmath.exp(-1)
        raw = [bb ** (i // 4 + (0 if i % 4 < r else 1)) for i in range(200)]
        norm = 2 * mpmath.fsum(raw) - raw[0]

        def mass(i):
            return raw[abs(i)] / norm if abs(i) < 200 else mpmath.mpf(0)

        best = max(_lattice_renyi(mass, d, 2, n=190) for d in range(1, 5))
        assert abs(best - _mp(got.text)) < 1e-18


@pytest.mark.parametrize(("name", "params", "word"), [
    ("truncated-laplace", {"eps": 1, "delta": "0.1"}, "bounded support"),
    ("uniform-mass", {"delta": "0.95"}, "point mass"),
    ("discrete-uniform", {"delta": "0.3"}, "bounded support"),
    ("discrete-uniform-md", {"delta": "0.3", "dim": 2}, "bounded support"),
])
def test_infinite_with_reason(name, params, word):
    for order in ("2", "1", "inf"):
        got = renyi(MECHANISMS[name](**params), order)
        assert got.infinite and word in got.reason


def test_products_reduce_to_one_coordinate():
    one = renyi(Laplace(eps=1, Delta=2), 3, digits=20)
    assert renyi(MECHANISMS["laplace-md"](eps=1, Delta=2, dim=3), 3, digits=20).text == one.text


@pytest.mark.parametrize("bad", ["0.5", "-1", "abc", "1e10", ""])
def test_order_domain(bad):
    with pytest.raises(DomainError, match="order"):
        parse_order(bad)


def test_series_and_formula():
    s = renyi_series("laplace", "eps->0", 2)
    assert sp.simplify(s.removeO() - alpha * eps**2 / 2) == 0
    with pytest.raises(DomainError, match="regime"):
        renyi_series("laplace", "eps->oo", 2)


def test_cli(capsys):
    data = run_json(capsys, "renyi", "staircase", "--eps", "1", "--order", "3", "--digits",
                    "12")
    assert data["value"] == "0.827191385411" and data["certificate"] == "enclosure"
    data = run_json(capsys, "renyi", "truncated-laplace", "--eps", "1", "--delta", "0.1",
                    "--order", "2")
    assert data["value"] == "inf" and "bounded support" in data["reason"]
    code, out, err = run(capsys, "renyi", "laplace", "--eps", "1", "--order", "0.5")
    assert_one_line_error(code, out, err, "--order")
    code, out, err = run(capsys, "renyi", "laplace", "--eps", "1", "--order", "2",
                         "--digits", "0")
    assert_one_line_error(code, out, err, "digits")
    code, out, _ = run(capsys, "renyi", "laplace", "--series", "eps->0", "--terms", "2")
    assert code == 0 and "alpha*eps**2/2" in out
    data = run_json(capsys, "renyi", "gaussian", "--formula")
    assert data["kind"] == "formula" and "alpha" in data["expression"]
    data = run_json(capsys, "renyi", "laplace-md", "--eps", "1", "--dim", "3", "--order", "inf")
    assert data["value"] == "1.00000000000000000000000000000"
    code, out, err = run(capsys, "renyi", "staircase-md", "--eps", "1", "--dim", "2",
                         "--order", "2")
    assert_one_line_error(code, out, err, "staircase-md")


@pytest.mark.parametrize(("name", "params"), [
    ("staircase", {"eps": "3/2"}),
    ("discrete-staircase", {"eps": 2, "Delta": 3}),
    ("discrete-laplace", {"eps": "1/2", "Delta": 2}),
])
def test_curve_is_monotone_between_kl_and_eps(name, params):
    m = MECHANISMS[name](**params)
    values = [_mp(renyi(m, order, digits=15).text) for order in ("1", "3/2", "3", "50", "inf")]
    assert all(v1 < v2 for v1, v2 in itertools.pairwise(values))
    assert values[-1] == _mp(str(sp.Rational(params["eps"])))  # D_inf is the pure eps


# ---------------------------------------------------------------------------- exact orders
NON_DYADIC = ("1.1", "1.01", "7.3", "13/7")


def _order(text: str) -> mpmath.mpf:
    q = sp.Rational(text)
    return mpmath.mpf(q.p) / q.q


@pytest.mark.parametrize("order", NON_DYADIC)
@pytest.mark.parametrize(("e", "sens"), [("1", 1), ("1/2", 3)])
def test_laplace_non_dyadic_orders_to_every_digit(order, e, sens):
    """alpha - 1 is exact: no float step (1.1 - 1 as a float is wrong after 16 digits)."""
    got = renyi(Laplace(eps=e, Delta=sens), order, digits=30)
    with workdps(60):
        assert got.text == mpmath.nstr(_laplace(_order(e), _order(order)), 30,
                                       strip_zeros=False)


def test_laplace_order_1_1_from_the_command_line(capsys):
    code, out, _ = run(capsys, "renyi", "laplace", "--eps", "1", "--order", "1.1")
    assert code == 0 and out == "0.400017528164021277369747907137\n"
    with workdps(40):  # the closed form, and a quadrature of the densities
        a = _order("1.1")
        closed = _laplace(mpmath.mpf(1), a)
        quad = mpmath.log(mpmath.quad(lambda x: mpmath.exp(-a * abs(x) - (1 - a) * abs(x + 1))
                                      / 2, [-mpmath.inf, -1, 0, mpmath.inf])) / (a - 1)
        assert abs(closed - quad) < 1e-35
        assert out.strip() == mpmath.nstr(closed, 30, strip_zeros=False)


def _staircase_divergence(e, g, a, d, n=130):
    """D_alpha at the shift d by summing the piecewise-constant integrand exactly over
    the cells between breakpoints (the tails beyond n periods are below 1e-50)."""
    bb = mpmath.exp(-e)
    norm = (1 - bb) / (2 * (g + bb * (1 - g)))

    def density(x):
        y = abs(x)
        k = mpmath.floor(y)
        return norm * bb ** (k if y - k < g else k + 1)

    pts = sorted({mpmath.mpf(k) + s for k in range(-n, n + 1)
                  for s in (0, g, -g, -d, g - d, -g - d)})
    total = mpmath.fsum((q - p) * density((p + q) / 2) ** a * density((p + q) / 2 + d)
                        ** (1 - a) for p, q in itertools.pairwise(pts))
    return mpmath.log(total) / (a - 1)


@pytest.mark.parametrize("order", NON_DYADIC)
def test_staircase_non_dyadic_orders_to_every_digit(order):
    m = Staircase(eps=1)
    got = renyi(m, order, digits=30)
    g = sp.Rational(m.value("gamma", digits=40).text)  # the noise renyi certifies for
    with workdps(50):
        gg, a = mpmath.mpf(g.p) / g.q, _order(order)
        # the supremum over the shifts: at Delta or a breakpoint difference (gamma, 1 - gamma)
        best = max(_staircase_divergence(1, gg, a, d) for d in (gg, 1 - gg, mpmath.mpf(1)))
        assert got.text == mpmath.nstr(best, 30, strip_zeros=False)


@pytest.mark.parametrize("order", NON_DYADIC)
def test_discrete_laplace_non_dyadic_orders_to_every_digit(order):
    got = renyi(MECHANISMS["discrete-laplace"](eps=1, Delta=3), order, digits=30)
    with workdps(60):
        lam = mpmath.exp(-mpmath.mpf(1) / 3)
        c = (1 - lam) / (1 + lam)
        direct = _lattice_renyi(lambda i: c * lam ** abs(i), 3, _order(order), n=500)
        assert got.text == mpmath.nstr(direct, 30, strip_zeros=False)


# ---------------------------------------------------------------------------- series
FORMULAS = ["laplace", "discrete-laplace", "gaussian", "analytic-gaussian", "staircase"]


@pytest.mark.parametrize("name", FORMULAS)
@pytest.mark.parametrize("regime", ["eps->0", "alpha->1"])
def test_series_fast_ascending_and_right(name, regime):
    """Every series in seconds (sympy.series took minutes for discrete-laplace), its terms
    in increasing powers with the O-term last, and the remainder of the claimed order."""
    var, shown = (eps, eps) if regime == "eps->0" else (alpha, alpha - 1)
    formula = renyi_formula(name)
    if name == "staircase":
        formula = formula.subs(b, sp.exp(-eps))
    if var not in formula.free_symbols:
        with pytest.raises(UnsupportedError, match="does not depend"):
            renyi_series(name, regime, 3)
        return
    terms = 6
    series = renyi_series(name, regime, terms)
    *parts, order_term = series.args
    assert order_term.is_Order and order_term.expr == shown ** (terms + 1)
    t = sp.Symbol("t", positive=True)
    base = 1 if var is alpha else 0
    powers = [part.subs(var, base + t).as_coeff_exponent(t)[1] for part in parts]
    assert powers == sorted(powers) and len(set(powers)) == len(powers)
    # the remainder is O(t^(terms + 1)): halving t divides it by about 2^(terms + 1)
    point = {eps: sp.Rational(3, 2), Delta: 3, gamma: sp.Rational(2, 5), alpha: 3,
             sp.Symbol("delta", positive=True): sp.Rational(1, 10**5),
             sp.Symbol("sigma", positive=True): 2}
    point.pop(var)
    main = series.removeO().subs(point)
    exact = formula.subs(point)
    with workdps(80):
        rem = [abs(mpmath.mpf(sp.N((exact - main).subs(var, base + sp.Rational(1, q)), 80)))
               for q in (200, 400)]
    ratio = rem[0] / rem[1] if rem[1] else mpmath.mpf(2) ** (terms + 1)
    assert 2 ** (terms + 1) * 0.8 < ratio < 2 ** (terms + 1) * 1.25 or rem[0] < 1e-60


@pytest.mark.parametrize(("name", "regime"), [("discrete-laplace", "eps->0"),
                                              ("laplace", "alpha->1")])
def test_series_coefficients_are_tidy(name, regime):
    """Each coefficient is its own ``tidy`` form: the series factors them without tidy's
    ``powsimp``, which changed none of them."""
    var = eps if regime == "eps->0" else alpha
    for part in renyi_series(name, regime, 3).args[:-1]:
        coeff = part.as_independent(var, as_Add=False)[0]
        assert coeff != 0 and tidy(coeff) == coeff, part


def test_series_matches_sympy_and_prints_ascending(capsys):
    got = renyi_series("laplace", "eps->0", 4).removeO()
    # the Taylor polynomial from its definition, sum_k f^(k)(0) eps^k / k! (the curve is
    # analytic at eps = 0; sympy.series gives the same in 14 times the time)
    want, derivative = sp.Integer(0), renyi_formula("laplace")
    for k in range(5):
        want += derivative.subs(eps, 0) / sp.factorial(k) * eps**k
        derivative = sp.diff(derivative, eps)
    assert sp.cancel(sp.together(got - want)) == 0  # identically, in alpha and eps
    code, out, _ = run(capsys, "renyi", "discrete-laplace", "--series", "eps->0",
                       "--terms", "3")
    assert code == 0
    assert out == "alpha*eps**2/2 - alpha*eps**3*(Delta - 1)*(Delta + 1)/(6*Delta**2) " \
                  "+ O(eps**4)\n"
    data = run_json(capsys, "renyi", "staircase", "--series", "alpha->1", "--terms", "2")
    expression = data["expression"]
    assert expression.index("(alpha - 1)*") < expression.index("(alpha - 1)**2*") \
        < expression.index("O((alpha - 1)**3")


# ---------------------------------------------------------------------------- the edges
def _staircase_d(e: str, g_text: str, a: str) -> mpmath.mpf:
    """D_alpha of the staircase at the shift Delta, from the three-point loss law in
    mpmath at 200 digits: P(eps) = p, P(0) = p0, P(-eps) = b p (gamma <= 1/2)."""
    with workdps(200):
        ee, g = mpmath.mpf(sp.Rational(e)), mpmath.mpf(g_text)
        aa = mpmath.mpf(sp.Rational(a))
        bb = mpmath.exp(-ee)
        d = g + bb * (1 - g)
        p = ((1 - bb) * 2 * g + bb) / (2 * d)
        p0 = bb * (1 - bb) * (1 - 2 * g) / (2 * d)
        if aa == 1:
            return ee * p * (1 - bb)
        total = p0 + p * mpmath.exp((aa - 1) * ee) + bb * p * mpmath.exp(-(aa - 1) * ee)
        return mpmath.log(total) / (aa - 1)


@pytest.mark.parametrize(("e", "order", "cost", "sens"), [
    ("200", "2", "amplitude", "1"), ("200", "1", "amplitude", "1"),
    ("300", "2", "power", "1"), ("175", "2", "amplitude", "1e-3"),
    ("100", "2", "moment:0.001", "1"), ("160", "7/2", "amplitude", "1e-7"),
    ("186", "3/2", "amplitude", "1")])
def test_staircase_at_large_eps_against_its_three_point_law(e, order, cost, sens):
    """Steps of width gamma* Delta far below 1e-40 (eps > 185): D_alpha by the loss law in
    mpmath (D_2 = 200, not 99.3; KL = 200, not 3.7e-42), at the shift Delta."""
    m = Staircase(eps=e, Delta=sens)
    got = renyi(m, order, cost, 25)
    g = m.value("gamma", cost, 35).text
    with workdps(60):
        assert got.text == mpmath.nstr(_staircase_d(e, g, order), 25, strip_zeros=False)
    assert got.shift == str(sp.Rational(sens))
    if (e, cost) == ("100", "moment:0.001"):
        assert got.text.startswith("99.99499263027")


def test_json_shift_is_the_worst_shift(capsys):
    data = run_json(capsys, "renyi", "staircase", "--eps", "160", "--order", "2")
    assert data["shift"] == "1" and data["value"].startswith("160.0000000")


@pytest.mark.parametrize(("sens", "order", "want"), [
    ("1e-40", "2", "0.619123629998592883399788536544"),
    ("1e-45", "1", "0.367879441171442321595523770161"),
    ("1e60", "7/3", None)])
def test_laplace_is_scale_free(sens, order, want):
    got = renyi(Laplace(eps=1, Delta=sens), order, digits=30)
    assert got.text == renyi(Laplace(eps=1), order, digits=30).text
    if want is not None:
        assert got.text == want
    assert got.shift == str(sp.Rational(sens))


@pytest.mark.parametrize("sens", [200, 1000, 10**9])
def test_discrete_laplace_at_large_sensitivity_by_its_closed_form(sens):
    """renyi_formula's sum in mpmath (the geometric sums over i >= 0, i <= -Delta and the
    Delta - 1 points between), at any Delta in the same time."""
    got = renyi(MECHANISMS["discrete-laplace"](eps=1, Delta=sens), 2, digits=25)
    expr = renyi_formula("discrete-laplace").subs({alpha: 2, eps: 1, Delta: sens})
    with workdps(80):
        assert got.text == mpmath.nstr(mpmath.mpf(sp.N(expr, 80)), 25, strip_zeros=False)


@pytest.mark.parametrize(("e", "want"), [
    ("1e5", "100000.000000000000000000000"), ("1e20", "100000000000000000000.000000"),
    ("1e100", "1.00000000000000000000000000e+100"),
    ("1e-45", "1.00000000000000000000000000e-90")])
def test_staircase_at_extreme_eps(e, want):
    """Huge eps: D_2 = eps - O(e^{-eps/2}) (gamma* ~ e^{-eps/2} is held as the decimal it
    prints, not as a fraction of 1e20 digits); tiny eps: D_2 = eps^2 + O(eps^4)."""
    assert renyi(Staircase(eps=e), 2, digits=27).text == want


def test_ten_thousand_digits_take_the_noise_at_the_limit(capsys):
    code, out, err = run(capsys, "renyi", "staircase", "--eps", "1", "--order", "3",
                         "--digits", "10000")
    assert code == 0 and err == ""
    digits = out.strip().replace("0.", "", 1)
    assert len(digits) == 10000 and out.startswith("0.82719138541053016506")
