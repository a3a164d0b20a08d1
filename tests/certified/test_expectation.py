"""The expected cost of any cost the theorems allow, against independent references: mpmath
quadrature of the density and direct summation of the mass function at 50 digits, each
printed digit at 40 (``dpsym.certified.expectation`` and the mechanisms without a free
parameter)."""

from __future__ import annotations

from fractions import Fraction

import flint
import mpmath
import pytest
import sympy as sp

from dpsym.certified.expectation import CostBalls, Weight
from dpsym.core.costs import parse_cost
from dpsym.errors import DomainError, UnsupportedError
from dpsym.mechanisms import (
    AnalyticGaussian,
    DiscreteLaplace,
    DiscreteUniform,
    Laplace,
    TruncatedLaplace,
)
from dpsym.mechanisms.gaussian import ClassicGaussian
from dpsym.precision import arb_workprec, workdps
from dpsym.symbols import x

COSTS = {
    "min(abs(x), 3)": (3,),
    "abs(x) > 2": (2,),
    "abs(x) >= 2": (2,),
    "log(1 + abs(x))": (),
    "sqrt(1 + abs(x))": (),
    "abs(x) + x^2": (),
    "min(exp(abs(x)), 5)": (),
}


def _function(text: str):
    """The cost as an mpmath function of |x| (the indicator's value at its cut kept)."""
    return sp.lambdify(x, parse_cost(text).function, "mpmath")


def _rounded(value: mpmath.mpf, digits: int = 40) -> str:
    return mpmath.nstr(value, digits, strip_zeros=False, min_fixed=-30, max_fixed=30)


def _agrees(text: str, reference: mpmath.mpf, digits: int = 40) -> None:
    """The printed digits are the reference's, up to one unit of the last digit (the
    reference is good to 50 digits; a tie within 10^-48 is not expected)."""
    assert abs(mpmath.mpf(text) - reference) <= abs(reference) * mpmath.mpf(10) ** (1 - digits)
    assert text == _rounded(reference, digits)


@pytest.mark.parametrize("text", list(COSTS))
def test_sums_and_integrals_against_mpmath(text):
    cost = parse_cost(text)
    balls = CostBalls(cost)
    f = _function(text)
    with arb_workprec(200):
        q, one_minus_q = flint.arb(-1).exp(), -(flint.arb(-1).expm1())
        found = {
            "integral": balls.integral(Weight.from_density(sp.exp(-x)), Fraction(0), None),
            "L": balls.geometric_sum("L", q, one_minus_q, Fraction(1, 3), Fraction(1),
                                     rate=flint.arb(1)),
            "F": balls.geometric_sum("F", q, one_minus_q, Fraction(1, 3), Fraction(1),
                                     rate=flint.arb(1)),
            "lattice": balls.lattice_sum(0, 50),
            "finite": balls.geometric_sum("L", q, one_minus_q, Fraction(2), Fraction(3),
                                          stop=7),
        }
    with workdps(50):
        cuts = sorted({mpmath.mpf(str(sp.N(c, 60))) for c in cost.shape.cuts})

        third = mpmath.mpf(1) / 3
        # F(t) = the integral of the cost over [0, t], at t = 1/3 + k: accumulated one
        # period at a time, each split at the cost's cuts
        F, total, start = [], mpmath.mpf(0), mpmath.mpf(0)
        for k in range(140):
            end = third + k
            total += mpmath.quad(f, [start, *[c for c in cuts if start < c < end], end])
            F.append(total)
            start = end
        reference = {
            "integral": mpmath.quad(lambda t: f(t) * mpmath.exp(-t), [0, *cuts[1:],
                                                                      mpmath.inf]),
            # terms past k = 140 are below e^-140 (1e-61) times the cost's growth
            "L": mpmath.fsum(mpmath.exp(-k) * f(third + k) for k in range(140)),
            "F": mpmath.fsum(mpmath.exp(-k) * F[k] for k in range(140)),
            "lattice": mpmath.fsum(f(mpmath.mpf(i)) for i in range(50)),
            "finite": mpmath.fsum(mpmath.exp(-k) * f(mpmath.mpf(2 + 3 * k))
                                  for k in range(7)),
        }
        for key, ball in found.items():
            assert ball.rad() < 1e-50
            mid = mpmath.mpf(ball.mid().str(60, radius=False))
            assert abs(mid - reference[key]) <= mpmath.mpf(10) ** -44 * max(
                1, abs(reference[key])), (key, ball, reference[key])


def _laplace(f, cuts, eps, Delta):
    lam = mpmath.mpf(Delta) / eps
    return mpmath.quad(lambda t: f(t) * mpmath.exp(-t / lam) / lam, [0, *cuts, mpmath.inf])


def _truncated(f, cuts, eps, delta, Delta):
    lam = mpmath.mpf(Delta) / eps
    A = lam * mpmath.log(1 + mpmath.expm1(eps) / (2 * delta))
    B = 1 / (2 * lam * (1 - mpmath.exp(-A / lam)))
    return 2 * B * mpmath.quad(lambda t: f(t) * mpmath.exp(-t / lam),
                               [0, *[c for c in cuts if c < A], A])


def _gaussian(f, cuts, sigma):
    return 2 * mpmath.quad(lambda t: f(t) * mpmath.npdf(t, 0, sigma),
                           [0, *cuts, mpmath.inf])


def _discrete_laplace(f, eps, Delta):
    lam = mpmath.exp(-mpmath.mpf(eps) / Delta)
    return (1 - lam) / (1 + lam) * (f(0) + 2 * mpmath.nsum(lambda i: f(i) * lam**i,
                                                           [1, mpmath.inf]))


def _discrete_uniform(f, delta, Delta):
    n = int(mpmath.ceil(mpmath.mpf(Delta) / delta))
    total = mpmath.fsum(f(mpmath.mpf(abs(i))) for i in range(-(n // 2), n // 2 + 1)
                        if 2 * abs(i) < n)
    if n % 2 == 0:
        total += f(mpmath.mpf(n // 2))  # two half masses at +-n/2
    return total / n


CASES = [
    ("laplace", lambda: Laplace(eps="1/2", Delta=2),
     lambda f, c: _laplace(f, c, mpmath.mpf(1) / 2, 2)),
    ("truncated-laplace", lambda: TruncatedLaplace(eps=1, delta="0.05", Delta=1),
     lambda f, c: _truncated(f, c, mpmath.mpf(1), mpmath.mpf("0.05"), 1)),
    ("gaussian", lambda: ClassicGaussian(eps="0.5", delta="1e-5", Delta=1),
     lambda f, c: _gaussian(f, c, mpmath.sqrt(2 * mpmath.log(mpmath.mpf("1.25e5")))
                            / mpmath.mpf("0.5"))),
    ("discrete-laplace", lambda: DiscreteLaplace(eps=1, Delta=2),
     lambda f, c: _discrete_laplace(f, 1, 2)),
    ("discrete-uniform", lambda: DiscreteUniform(delta="0.03", Delta=2),
     lambda f, c: _discrete_uniform(f, mpmath.mpf("0.03"), 2)),
]


@pytest.mark.parametrize("text", ["min(abs(x), 3)", "abs(x) > 2", "abs(x) >= 2",
                                  "log(1 + abs(x))"])
@pytest.mark.parametrize(("name", "make", "reference"), CASES, ids=[c[0] for c in CASES])
def test_fixed_mechanisms_against_quadrature(name, make, reference, text):
    found = make().value("cost", text, 40)
    assert found.certificate in ("exact", "enclosure")
    with workdps(50):
        cuts = [mpmath.mpf(c) for c in COSTS[text]]
        _agrees(found.text, reference(_function(text), cuts))


def test_analytic_gaussian_on_its_sigma():
    m = AnalyticGaussian(eps=1, delta="1e-5", Delta=1)
    sigma = m.value("sigma", "amplitude", 60).text  # certified by its own tests
    for text in ("min(abs(x), 3)", "abs(x) > 2"):
        found = m.value("cost", text, 40)
        assert found.certificate == "enclosure"
        with workdps(55):
            _agrees(found.text, _gaussian(_function(text), [mpmath.mpf(c) for c in
                                                            COSTS[text]], mpmath.mpf(sigma)))


def test_polynomial_costs_take_the_closed_forms():
    # a sum of powers has the engine's closed form: exact for Laplace at rational eps
    found = Laplace(eps=1).value("cost", "abs(x) + x^2", 30)
    assert found.certificate == "exact" and found.text.startswith("3.000")
    assert Laplace(eps=1).value("cost", "2*abs(x)", 12).text == "2.00000000000"


def test_divergent_costs_are_refused():
    with pytest.raises(DomainError, match="infinite"):
        Laplace(eps="1/2").value("cost", "exp(abs(x))", 20)
    with pytest.raises(DomainError, match="finite"):
        DiscreteLaplace(eps=1, Delta=2).value("cost", "exp(abs(x)/2)", 20)
    with pytest.raises(DomainError, match="finite"):
        Laplace(eps=1).value("cost", "exp(x^2)", 20)
    # finite for bounded noise whatever the growth, and for faster-decaying noise
    assert TruncatedLaplace(eps=1, delta="0.05").value("cost", "exp(x^2)", 10).certificate \
        == "enclosure"
    assert Laplace(eps=2).value("cost", "exp(abs(x))", 10).text == "2.000000000"


def test_slowly_convergent_sums_are_refused_not_truncated():
    with pytest.raises(UnsupportedError, match="periods"):
        DiscreteLaplace(eps="1e-4", Delta=1).value("cost", "log(1 + abs(x))", 10)
