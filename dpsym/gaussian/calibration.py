r"""The Gaussian mechanism: exact privacy profile and calibration (classic and analytic).

Sources: lecture notes (001), "Gaussian Mechanism" and "Optimal Gaussian Mechanism"
(Balle and Wang 2018); paper (003), Section 6.

**The profile.** Let :math:`P = N(0, \sigma^2)` and :math:`Q_d = N(d, \sigma^2)`. The
mechanism is :math:`(\varepsilon, \delta)`-DP exactly when
:math:`\delta \ge \delta(\varepsilon) = \sup_{|d| \le \Delta} H_\varepsilon(P \| Q_d)`, the
hockey-stick divergence :math:`H_\varepsilon(P \| Q) = \int (p - e^\varepsilon q)_+`. For
:math:`d > 0` the log-likelihood ratio :math:`\log p(z)/q_d(z) = (d^2 - 2 d z)/(2\sigma^2)` is
decreasing in :math:`z`, so :math:`p > e^\varepsilon q_d` exactly on the half-line
:math:`z < d/2 - \varepsilon\sigma^2/d`, and

.. math::

   H(d) = \Phi\Bigl(\frac{d}{2\sigma} - \frac{\varepsilon\sigma}{d}\Bigr)
        - e^\varepsilon \Phi\Bigl(-\frac{d}{2\sigma} - \frac{\varepsilon\sigma}{d}\Bigr).

*The supremum is at* :math:`|d| = \Delta`. Write :math:`m = d/\sigma`,
:math:`a = m/2 - \varepsilon/m`, :math:`b = -m/2 - \varepsilon/m`. Then
:math:`b^2 - a^2 = (b - a)(b + a) = 2\varepsilon`, i.e.
:math:`e^\varepsilon \varphi(b) = \varphi(a)`, and

.. math::

   \frac{dH}{dm} = \varphi(a)\Bigl(\frac12 + \frac{\varepsilon}{m^2}\Bigr)
   - e^\varepsilon\varphi(b)\Bigl(-\frac12 + \frac{\varepsilon}{m^2}\Bigr) = \varphi(a) > 0,

so :math:`H` is increasing in :math:`|d|` (and :math:`H(-d) = H(d)` by symmetry): the
supremum over :math:`|d| \le \Delta` is at :math:`|d| = \Delta`. With
:math:`\mu = \Delta/\sigma` the profile depends on :math:`\mu` only,
:math:`\delta(\varepsilon; \mu) = \Phi(\mu/2 - \varepsilon/\mu)
- e^\varepsilon\Phi(-\mu/2 - \varepsilon/\mu)`, and the same computation gives
:math:`\partial\delta/\partial\mu = \varphi(\mu/2 - \varepsilon/\mu) > 0`:
:math:`\delta(\varepsilon; \sigma)` is **strictly decreasing in** :math:`\sigma`, from
:math:`1` (:math:`\sigma \to 0`) to :math:`0` (:math:`\sigma \to \infty`). Hence for every
:math:`\varepsilon > 0` and :math:`\delta \in (0, 1)` there is exactly one
:math:`\sigma^* > 0` with :math:`\delta(\varepsilon; \sigma^*) = \delta`, and it is the
smallest :math:`\sigma` for which the mechanism is :math:`(\varepsilon, \delta)`-DP (the
analytic calibration). No edge case sends :math:`\sigma^*` to :math:`0` or :math:`\infty`
inside the domain; :math:`\delta \to 1` gives :math:`\sigma^* \to 0` and :math:`\delta \to 0`
gives :math:`\sigma^* \to \infty`.

**Cancellation-free form.** With the Mills ratio :math:`R(t) = \Phi(-t)/\varphi(t)` and
:math:`x = -a = \varepsilon/\mu - \mu/2`, :math:`y = -b = x + \mu`,

.. math::

   \delta = \varphi(x)\,\bigl(R(x) - R(y)\bigr), \qquad
   1 - \delta = \varphi(x)\,\bigl(R(-x) + R(y)\bigr),

because :math:`\varphi(x) R(y) = e^{(y^2 - x^2)/2}\Phi(-y) = e^\varepsilon\Phi(b)`. Neither
:math:`e^\varepsilon` nor any other overflowing factor appears; the only subtraction left is
:math:`R(x) - R(y)`, which the arbitrary-precision path evaluates with as many extra bits
as it cancels, and the float64 path (:mod:`dpsym.gaussian.float64`) evaluates as
:math:`\int_x^y (1 - tR(t))\,dt` (:math:`-R^{\prime} = 1 - tR > 0`) by Gauss-Legendre
quadrature when :math:`\mu` is small against :math:`x`.

**Calibration variable.** The root is sought in :math:`x` rather than :math:`\sigma`:
:math:`\mu = \sqrt{x^2 + 2\varepsilon} - x` (written :math:`2\varepsilon/(x + s)` for
:math:`x > 0`, :math:`s = \sqrt{x^2 + 2\varepsilon}`), :math:`d\mu/dx = -\mu/s`, and
:math:`d\delta/dx = -\varphi(x)\mu/s < 0`. The root always lies in the bracket
:math:`-\max(1, \sqrt{2\log(1/(1-\delta))}) \le x \le \max(1, \sqrt{2\log(1/\delta)})`
(from :math:`\delta < \Phi(-x) \le \varphi(x)/x` and
:math:`1 - \delta \le 2\varphi(x)/|x|` for :math:`x \le -1`), whatever :math:`\varepsilon`:
this is what keeps :math:`\varepsilon = 10^{100}` as easy as :math:`\varepsilon = 1`. The
equation solved is :math:`\log\delta(x) = \log\delta` (or
:math:`\log(1-\delta(x)) = \log(1-\delta)` when :math:`\delta > 1/2`), whose conditioning in
:math:`\log\sigma` is :math:`\delta/(\mu\varphi(x)) \le 1`-ish: an absolute error
:math:`\eta` in the logarithm moves :math:`\log\sigma` by at most about :math:`\eta`.

**Proven digits.** :func:`profile_certified` and :func:`calibrate_sigma_mp` enclose the
profile and :math:`\sigma^*` in Arb balls and isolate the root rigorously
(:mod:`dpsym.gaussian.enclosures`); the mpmath functions (``*_mp``, :func:`calibrate_sigma_value`)
compute at the working precision without a proof, as an independent cross-check.

**Classic calibration** (Dwork and Roth, Theorem A.1; paper 003, Section 6):
:math:`\sigma = \sqrt{2\log(1.25/\delta)}\,\Delta/\varepsilon`, stated for
:math:`\varepsilon, \delta \in (0, 1)`, defined once (:data:`CLASSIC_SIGMA`):
:func:`classic_sigma_mp` computes it and :func:`classic_check` measures it with the exact
profile.
"""

from __future__ import annotations

from collections.abc import Callable
from fractions import Fraction

import flint
import mpmath
import sympy as sp

from dpsym.certified.kernel import Certified, certify_ball
from dpsym.certified.rounding import check_digits
from dpsym.core.params import Domain, Param, parse_number
from dpsym.errors import CertificationError
from dpsym.gaussian.enclosures import Calibration, profile_between, profile_enclosure
from dpsym.precision import exclusive, extraprec, mpf_fraction, workprec
from dpsym.symbolic.lambdas import mpmath_function
from dpsym.symbolic.numerics import to_mpf
from dpsym.symbols import Delta as _Delta_sym
from dpsym.symbols import delta as _delta_sym
from dpsym.symbols import eps as _eps_sym

__all__ = [
    "CLASSIC_DOMAIN",
    "CLASSIC_SIGMA",
    "EPS_MAX",
    "calibrate_sigma_mp",
    "calibrate_sigma_value",
    "classic_check",
    "classic_sigma_mp",
    "profile_certified",
    "profile_mp",
    "profile_on",
    "profile_value",
]

#: Largest privacy parameter accepted (as for the other mechanisms of the package).
EPS_MAX = Fraction(10) ** 100

#: The domain the classic calibration is stated for (Dwork and Roth, Theorem A.1).
CLASSIC_DOMAIN = {"eps": "(0, 1)", "delta": "(0, 1)"}

#: The classic calibration :math:`\sigma = \sqrt{2\log(1.25/\delta)}\,\Delta/\varepsilon`
#: (Dwork and Roth, Theorem A.1): its one definition. The mechanism
#: (:class:`dpsym.mechanisms.gaussian.ClassicGaussian`) takes it as its condition, and the
#: mpmath path below and the float64 path (:func:`dpsym.gaussian.float64.classic_sigma`)
#: are generated from it.
CLASSIC_SIGMA = sp.sqrt(2 * sp.log(sp.Rational(5, 4) / _delta_sym)) * _Delta_sym / _eps_sym
_classic_mp = mpmath_function((_eps_sym, _delta_sym, _Delta_sym), CLASSIC_SIGMA)

EPS = Param("eps", _eps_sym, Domain(lower=Fraction(0), upper=EPS_MAX, upper_open=False),
            "privacy parameter", ("0.01", "10"))
DELTA = Param("delta", _delta_sym, Domain(lower=Fraction(0), upper=Fraction(1)),
              "privacy parameter", ("1e-12", "0.5"))
SENSITIVITY = Param("Delta", _Delta_sym, Domain(lower=Fraction(0)), "l2 sensitivity",
                    ("0.5", "4"), default="1")
SIGMA = Param("sigma", _Delta_sym, Domain(lower=Fraction(0)), "noise standard deviation",
              ("0.1", "10"))

_MAX_EXTRA_BITS = 1 << 22  # the largest cancellation the mpmath profile repairs (bits)


# ------ mpmath (working precision; each public function holds the precision lock) ------

def _bits(t: mpmath.mpf) -> int:
    """The binary exponent of a finite nonzero ``t`` (0 for zero), at least 0."""
    return max(0, int(mpmath.mag(t))) if t else 0


def _mills_mp(t: mpmath.mpf) -> mpmath.mpf:
    r"""The Mills ratio :math:`R(t) = \Phi(-t)/\varphi(t)`, for any real :math:`t`.

    :math:`R(t) = \sqrt{\pi/2}\,\mathrm{erfc}(t/\sqrt2)\,e^{t^2/2}`; both factors are
    computed with :math:`2\log_2|t|` extra bits, which absorbs the error of
    :math:`t^2/2` in the exponents.
    """
    extra = 2 * _bits(t) + 16
    with extraprec(extra):
        h = t / mpmath.sqrt(2)
        r = mpmath.sqrt(mpmath.pi / 2) * mpmath.erfc(h) * mpmath.exp(h * h)
    return +r


def _log_phi_mp(t: mpmath.mpf) -> mpmath.mpf:
    r""":math:`\log\varphi(t) = -t^2/2 - \log\sqrt{2\pi}`, with :math:`2\log_2|t|` extra bits
    (so that :math:`e^{\log\varphi}` keeps the working relative precision)."""
    with extraprec(2 * _bits(t) + 16):
        v = -t * t / 2 - mpmath.log(2 * mpmath.pi) / 2
    return v


def _x_to_mu_mp(x: mpmath.mpf, eps: mpmath.mpf) -> tuple[mpmath.mpf, mpmath.mpf]:
    r""":math:`(\mu, s)` from :math:`x = \varepsilon/\mu - \mu/2`, without cancellation."""
    s = mpmath.sqrt(x * x + 2 * eps)
    mu = 2 * eps / (x + s) if x > 0 else s - x
    return mu, s


def _parts_mp(x: mpmath.mpf, mu: mpmath.mpf) -> tuple[mpmath.mpf, mpmath.mpf]:
    r""":math:`(\log\delta, \log(1-\delta))` at :math:`x`, :math:`y = x + \mu`.

    :math:`R(x) - R(y)` is recomputed with as many extra bits as it cancels, so the
    result carries the full working precision.
    """
    prec = mpmath.mp.prec
    extra = 32
    while True:
        with workprec(prec + extra):
            y = x + mu
            rx, ry = _mills_mp(x), _mills_mp(y)
            diff = rx - ry
            if diff > 0:
                lost = int(mpmath.mag(rx)) - int(mpmath.mag(diff))
                if lost + 16 <= extra:
                    lphi = _log_phi_mp(x)
                    log_d = lphi + mpmath.log(diff)
                    log_1md = lphi + mpmath.log(_mills_mp(-x) + ry)
                    break
                extra = lost + 48
            else:
                extra *= 2
            if extra > _MAX_EXTRA_BITS:
                raise CertificationError("the Gaussian profile cancels beyond repair")
    return +log_d, +log_1md


def _profile_mu_mp(eps: mpmath.mpf, mu: mpmath.mpf) -> tuple[mpmath.mpf, mpmath.mpf]:
    r""":math:`(\log\delta, \log(1-\delta))` of :math:`\delta(\varepsilon; \mu)`."""
    # x carries 2 log2|x| extra bits: phi(x) = exp(-x^2/2) needs x^2 to absolute precision
    with extraprec(2 * (_bits(eps / mu) + _bits(mu)) + 32):
        x = eps / mu - mu / 2
    with extraprec(2 * _bits(x) + 16):
        return _parts_mp(x, mu)


@exclusive
def profile_mp(eps: object, sigma: object, Delta: object = 1) -> mpmath.mpf:
    r"""The exact privacy profile :math:`\delta(\varepsilon)` of :math:`N(0, \sigma^2)` noise,
    :data:`dpsym.gaussian.enclosures.PROFILE`, evaluated at the current mpmath working
    precision in the cancellation-free form :math:`\varphi(x)(R(x) - R(y))` (module
    docstring).

    Parameters
    ----------
    eps : number or decimal string
        :math:`\varepsilon \ge 0`, at most :data:`EPS_MAX`.
    sigma : number or decimal string
        The noise standard deviation, :math:`\sigma > 0`.
    Delta : number or decimal string
        The :math:`\ell_2` sensitivity, :math:`\Delta > 0`.

    Returns
    -------
    mpmath.mpf
        :math:`\delta(\varepsilon)`, with full relative precision (also when it is as
        small as :math:`10^{-10^6}`).
    """
    e = _validate_eps(eps, allow_zero=True)
    s = _validate(SIGMA, sigma)
    d = _validate(SENSITIVITY, Delta)
    return _exp_of_log(_profile_mu_mp(*_eps_mu_mp(e, d / s))[0])


@exclusive
def profile_value(eps: object, sigma: object, Delta: object = 1,
                  digits: int = 30) -> tuple[mpmath.mpf, str]:
    """:func:`profile_certified` as (value, text): the ball's midpoint and its digits."""
    found = profile_certified(eps, sigma, Delta, digits)
    return found.number(), found.text()


@exclusive
def profile_certified(eps: object, sigma: object, Delta: object = 1,
                      digits: int = 30) -> Certified:
    r"""The exact profile :math:`\delta(\varepsilon; \sigma, \Delta)` enclosed in Arb balls
    and rounded to ``digits`` digits, every one proven (:func:`dpsym.gaussian.enclosures.
    profile_enclosure`: the cancellation-free form with the Mills ratio as Kummer's
    :math:`U`, refined until the rounding is decided).

    Raises
    ------
    DomainError
        For a parameter outside its domain.
    CertificationError
        If the rounding cannot be decided.
    """
    e = _validate_eps(eps, allow_zero=True)
    s = _validate(SIGMA, sigma)
    d = _validate(SENSITIVITY, Delta)
    return certify_ball(profile_enclosure(e, s, d), check_digits(digits),
                        what="the Gaussian privacy profile")


def profile_on(eps: object, sigma: Callable[[int], flint.arb], Delta: object = 1
               ) -> Callable[[int], flint.arb]:
    r""":func:`dpsym.gaussian.enclosures.profile_between` (:math:`\delta` for a :math:`\sigma`
    known as balls) at validated :math:`\varepsilon \ge 0` and :math:`\Delta`."""
    return profile_between(_validate_eps(eps, allow_zero=True), sigma,
                           _validate(SENSITIVITY, Delta))


def _validate(param: Param, value: object) -> Fraction:
    """``param.validate``, taking an mpmath number at its exact binary value (not via float)."""
    if isinstance(value, mpmath.mpf) and mpmath.isfinite(value):
        value = mpf_fraction(value)
    return param.validate(value)


def _log2(v: Fraction) -> int:
    return abs(v.numerator.bit_length() - v.denominator.bit_length()) + 1


def _eps_mu_mp(eps: Fraction, mu: Fraction) -> tuple[mpmath.mpf, mpmath.mpf]:
    r""":math:`\varepsilon` and :math:`\mu` as mpf with :math:`2\log_2|x|` extra bits: the
    profile's relative sensitivity to :math:`\mu` is about :math:`x^2`, so rounding an
    exact input to the working precision alone would spoil it when :math:`|x|` is large."""
    extra = 2 * (_log2(eps / mu) + _log2(mu)) + 32 if eps else 32
    with extraprec(extra):
        return to_mpf(eps), to_mpf(mu)


def _exp_of_log(log_v: mpmath.mpf) -> mpmath.mpf:
    """``exp(log_v)`` at the working relative precision also for a huge ``|log_v|``."""
    with extraprec(_bits(log_v) + 16):
        v = mpmath.exp(log_v)
    return +v


def _validate_eps(eps: object, allow_zero: bool = False) -> Fraction:
    if allow_zero:
        v = parse_number(eps, "eps") if not isinstance(eps, mpmath.mpf) else None
        if v == 0:
            return v
    return _validate(EPS, eps)


def _solve_x_mp(eps: mpmath.mpf, delta: mpmath.mpf, one_minus: mpmath.mpf) -> mpmath.mpf:
    r"""The root :math:`x` of :math:`\delta(\varepsilon; \mu(x)) = \delta`, to the current
    precision: safeguarded Newton on the bracket of the module docstring at 64 bits, then
    Newton steps at doubling precision."""
    target = mpmath.mp.prec
    upper_form = delta > mpmath.mpf(1) / 2  # solve in log(1 - delta)

    def g_and_slope(x: mpmath.mpf) -> tuple[mpmath.mpf, mpmath.mpf, mpmath.mpf]:
        mu, s = _x_to_mu_mp(x, eps)
        log_d, log_1md = _parts_mp(x, mu)
        lphi = _log_phi_mp(x)
        if upper_form:
            g = mpmath.log(one_minus) - log_1md
            slope = -mpmath.exp(lphi - log_1md) * mu / s
        else:
            g = log_d - mpmath.log(delta)
            slope = -mpmath.exp(lphi - log_d) * mu / s
        return g, slope, s

    with workprec(64):
        lo = -max(mpmath.mpf(1), mpmath.sqrt(-2 * mpmath.log(one_minus)))
        hi = max(mpmath.mpf(1), mpmath.sqrt(-2 * mpmath.log(delta)))
        x = hi
        for _ in range(400):
            g, slope, s = g_and_slope(x)
            if g == 0:
                break
            if g > 0:
                lo = x
            else:
                hi = x
            step = -g / slope
            new = x + step
            if not lo < new < hi:
                new = (lo + hi) / 2
            if abs(new - x) <= s * mpmath.mpf(2) ** -56 or hi - lo <= s * mpmath.mpf(2) ** -60:
                x = new
                break
            x = new
        else:  # pragma: no cover - the bracket halves at least every other step
            raise CertificationError("the analytic Gaussian calibration did not converge")
    prec = 64
    while True:
        prec = min(2 * prec, target)
        with workprec(prec + 32):
            for _ in range(3 if prec == target else 1):
                g, slope, s = g_and_slope(x)
                step = -g / slope
                x = x + step
                if abs(step) <= s * mpmath.mpf(2) ** (-prec - 8):
                    break
        if prec == target:
            return +x


def _mu_mp(eps: Fraction, delta: Fraction) -> mpmath.mpf:
    e, d, om = to_mpf(eps), to_mpf(delta), to_mpf(1 - delta)
    x = _solve_x_mp(e, d, om)
    mu, _ = _x_to_mu_mp(x, e)
    return mu


@exclusive
def calibrate_sigma_mp(eps: object, delta: object, Delta: object = 1,
                       digits: int = 30) -> tuple[mpmath.mpf, str]:
    r"""The analytic Gaussian calibration (Balle and Wang), certified.

    The smallest :math:`\sigma` such that :math:`N(0, \sigma^2)` noise is
    :math:`(\varepsilon, \delta)`-DP at :math:`\ell_2` sensitivity :math:`\Delta`: the
    unique root of :math:`\delta(\varepsilon; \sigma) = \delta`
    (:math:`\delta(\varepsilon; \sigma)` is strictly decreasing in :math:`\sigma`, module
    docstring), isolated rigorously in Arb balls (:class:`dpsym.gaussian.enclosures.Calibration`:
    Newton's method, then two points proven on either side of the root and the slope's
    sign proven between them) and rounded to digits that every point of the enclosure
    shares.

    Parameters
    ----------
    eps : number or decimal string
        :math:`0 < \varepsilon \le 10^{100}`.
    delta : number or decimal string
        :math:`0 < \delta < 1` (decimal strings are exact: ``"1e-5000"`` is accepted).
    Delta : number or decimal string
        :math:`\Delta > 0`.
    digits : int
        Significant digits, 1 to 10000.

    Returns
    -------
    (mpmath.mpf, str)
        :math:`\sigma^*` and its rounding to ``digits`` digits.

    Raises
    ------
    DomainError
        For a parameter outside its domain, naming it and the valid range.
    CertificationError
        If the root cannot be isolated or its rounding decided.
    """
    root = Calibration(_validate(EPS, eps), _validate(DELTA, delta),
                       _validate(SENSITIVITY, Delta))
    found = certify_ball(root.sigma, check_digits(digits),
                         what="the analytic Gaussian sigma")
    return found.number(), found.text()


@exclusive
def calibrate_sigma_value(eps: object, delta: object, Delta: object = 1) -> mpmath.mpf:
    r"""The analytic :math:`\sigma^*` at the current working precision (not certified)."""
    e = _validate(EPS, eps)
    d = _validate(DELTA, delta)
    sens = _validate(SENSITIVITY, Delta)
    return to_mpf(sens) / _mu_mp(e, d)


@exclusive
def classic_sigma_mp(eps: object, delta: object, Delta: object = 1) -> mpmath.mpf:
    r"""The classic calibration :math:`\sqrt{2\log(1.25/\delta)}\,\Delta/\varepsilon` at the
    current working precision.

    Dwork and Roth (Theorem A.1) prove :math:`(\varepsilon, \delta)`-DP for
    :math:`\varepsilon \in (0, 1)`; the formula is defined for :math:`\delta < 1.25` and is
    computed for every :math:`\varepsilon > 0`, :math:`\delta \in (0, 1)` so that
    :func:`classic_check` can show where it is and is not private.
    """
    e = _validate(EPS, eps)
    d = _validate(DELTA, delta)
    sens = _validate(SENSITIVITY, Delta)
    return _classic_mp(to_mpf(e), to_mpf(d), to_mpf(sens))


@exclusive
def classic_check(eps: object, delta: object) -> dict[str, mpmath.mpf | bool]:
    r"""Measure the classic calibration with the exact profile.

    Returns
    -------
    dict
        ``sigma_classic``, ``sigma_analytic`` (both at :math:`\Delta = 1`), ``profile`` the
        exact :math:`\delta(\varepsilon; \sigma_{\mathrm{classic}})`, ``ratio`` =
        profile / :math:`\delta` and ``private`` (profile :math:`\le \delta`), at the
        current working precision.
    """
    e = _validate(EPS, eps)
    d = _validate(DELTA, delta)
    sc = classic_sigma_mp(e, d)
    with extraprec(2 * _bits(to_mpf(e) * sc) + 32):
        prof = _exp_of_log(_profile_mu_mp(to_mpf(e), 1 / classic_sigma_mp(e, d))[0])
    sa = 1 / _mu_mp(e, d)
    return {"sigma_classic": sc, "sigma_analytic": sa, "profile": prof,
            "ratio": prof / to_mpf(d), "private": bool(prof <= to_mpf(d))}
