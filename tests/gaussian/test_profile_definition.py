r"""The Gaussian profile is defined once (:data:`dpsym.gaussian.enclosures.PROFILE`): every
evaluation of the package is that expression, proven so by sympy (the cancellation-free
forms) and checked numerically against the definition evaluated in mpmath at a precision
that swallows its cancellation, and against quadrature of the two densities."""

from __future__ import annotations

from fractions import Fraction

import flint
import mpmath
import pytest
import sympy as sp

from dpsym.gaussian import float64 as g64
from dpsym.gaussian.calibration import CLASSIC_SIGMA, classic_sigma_mp, profile_mp
from dpsym.gaussian.enclosures import (
    PROFILE,
    Phi,
    delta_ball,
    normal_cdf,
    normal_pdf,
    phi,
    profile_enclosure,
    sigma,
)
from dpsym.gaussian.loss import gaussian_delta
from dpsym.precision import arb_workprec, workdps
from dpsym.symbols import Delta, delta, eps

POINTS = [("0", "1", "1"), ("1/2", "3/2", "1"), ("1", "1/3", "2"), ("3", "7/10", "1/2"),
          ("10", "1/5", "1")]


def _definition(e: str, s: str, d: str, dps: int = 80) -> mpmath.mpf:
    """PROFILE evaluated naively at ``dps`` digits (its cancellation is far below)."""
    value = PROFILE.subs({eps: sp.Rational(e), sigma: sp.Rational(s), Delta: sp.Rational(d)})
    with workdps(dps):
        return mpmath.mpf(sp.N(value, dps))


def _quadrature(e: str, s: str, d: str) -> mpmath.mpf:
    r""":math:`\int (f(x) - e^\varepsilon f(x - \Delta))_+ dx` from the normal density."""
    ee, ss, dd = (mpmath.mpf(sp.Rational(v).p) / sp.Rational(v).q for v in (e, s, d))

    def f(t):
        return mpmath.npdf(t, 0, ss)

    cross = dd / 2 - ee * ss**2 / dd  # f(x) = e^eps f(x - Delta)
    points = [cross - 60 * ss, *(cross - k * ss for k in range(30, 0, -1)), cross]
    return mpmath.quad(lambda t: f(t) - mpmath.exp(ee) * f(t - dd), points)


def test_the_stable_form_is_the_definition_symbolically():
    r""":math:`\varphi(x)(R(x) - R(y))` and :math:`\Phi(-x) - \varphi(x)R(y)`, with
    :math:`R = \Phi(-t)/\varphi(t)`, :math:`\mu = \Delta/\sigma`,
    :math:`x = \varepsilon/\mu - \mu/2`, :math:`y = x + \mu`, are PROFILE (sympy)."""
    mu = Delta / sigma
    x = eps / mu - mu / 2
    y = x + mu

    def mills(t):
        return Phi(-t) / phi(t)

    for form in (phi(x) * (mills(x) - mills(y)), Phi(-x) - phi(x) * mills(y)):
        assert sp.simplify(sp.expand(form - PROFILE)) == 0
    # and 1 - delta = Phi(x) + phi(x) R(y)
    assert sp.simplify(sp.expand(Phi(x) + phi(x) * mills(y) - (1 - PROFILE))) == 0


def test_names_phi_is_the_density_and_Phi_the_cdf():
    z = sp.Symbol("z", real=True)
    assert sp.simplify(sp.diff(Phi(z), z) - phi(z)) == 0
    assert sp.limit(Phi(z), z, -sp.oo) == 0 and sp.limit(Phi(z), z, sp.oo) == 1
    with arb_workprec(200), workdps(60):
        for t in ("-3", "1/7", "4"):
            q = sp.Rational(t)
            tb = flint.arb(int(q.p)) / int(q.q)
            assert normal_cdf(tb).overlaps(flint.arb(str(sp.N(Phi(q), 60))))
            assert normal_pdf(tb).overlaps(flint.arb(str(sp.N(phi(q), 60))))


@pytest.mark.parametrize(("e", "s", "d"), POINTS)
def test_every_evaluation_is_the_definition(e, s, d):
    ref = _definition(e, s, d)
    with workdps(40):
        assert abs(_quadrature(e, s, d) - ref) < mpmath.mpf(10) ** -30
    ball = profile_enclosure(Fraction(e), Fraction(s), Fraction(d))(120)
    assert ball.overlaps(flint.arb(mpmath.nstr(ref, 70)))
    with arb_workprec(200):
        ratio = Fraction(d) / Fraction(s)
        mu = flint.arb(flint.fmpq(ratio.numerator, ratio.denominator))
        eb = flint.arb(flint.fmpq(Fraction(e).numerator, Fraction(e).denominator))
        x = eb / mu - mu / 2
        assert delta_ball(x, x + mu, mu).overlaps(flint.arb(mpmath.nstr(ref, 70)))
        # the loss N(m, 2m) with m = mu^2/2: the same profile
        assert gaussian_delta(mu * mu / 2, eb).overlaps(flint.arb(mpmath.nstr(ref, 70)))
    with workdps(40):
        got = profile_mp(Fraction(e), Fraction(s), Fraction(d))
        assert abs(got / ref - 1) < mpmath.mpf(10) ** -35
    fast = g64.profile(float(Fraction(e)) or 1e-300, float(Fraction(s)), float(Fraction(d)))
    if Fraction(e) > 0:
        assert abs(fast / float(ref) - 1) < 1e-13


@pytest.mark.parametrize(("e", "d"), [("1/100", "1e-6"), ("1/2", "1/100"), ("9/10", "1/2")])
def test_classic_sigma_is_one_formula(e, d):
    """The mpmath and float64 paths are the one definition (and the textbook formula)."""
    ee, dd = sp.Rational(e), sp.Rational(d)
    exact = CLASSIC_SIGMA.subs({eps: ee, delta: dd, Delta: 1})
    assert sp.simplify(exact - sp.sqrt(2 * sp.log(sp.Rational(125, 100) / dd)) / ee) == 0
    with workdps(40):
        got = classic_sigma_mp(mpmath.mpf(ee.p) / ee.q, mpmath.mpf(dd.p) / dd.q)
        assert abs(got - mpmath.mpf(sp.N(exact, 50))) < mpmath.mpf(10) ** -30
    assert abs(g64.classic_sigma(float(ee), float(dd)) / float(exact) - 1) < 1e-14
