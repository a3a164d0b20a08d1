r"""Audit a calibration made elsewhere: the :math:`\delta` a noise distribution with
user-supplied parameters actually achieves at a given :math:`\varepsilon`.

Another library calibrates a mechanism (a Gaussian's :math:`\sigma`, a Laplace scale, a
truncation bound); :func:`audit` computes, at high precision and certified to the digits
asked for, the privacy profile

.. math:: \delta(\varepsilon)
   = \sup_{|d| \le \Delta} \int \bigl(f(x) - e^{\varepsilon} f(x + d)\bigr)_+\,dx

of that exact noise, and, when a target :math:`\delta` is given, whether it is met. The
profile is a closed form for every audited noise (:mod:`dpsym.privacy.closed_forms`, and
:mod:`dpsym.gaussian.enclosures` for Gaussians): its discrete parts are decided exactly from the
exact inputs, a rational value (an exact 0 or 1) is reported as ``"exact"``, any other is
enclosed in Arb balls refined until its digits are decided (``"enclosure"``). Whether the
target is met is decided by a ball that excludes the target, and the scale parameter that
meets it by rigorous root isolation (:func:`needed_scale`).

========================  ===================================  ========================
mechanism                 noise parameters                     density
========================  ===================================  ========================
``analytic-gaussian``,    ``sigma``                            :math:`N(0, \sigma^2)`
``gaussian``
``laplace``               ``scale`` :math:`\lambda`            :math:`e^{-|x|/\lambda}/(2\lambda)`
``truncated-laplace``     ``scale`` :math:`\lambda`,           :math:`\propto e^{-|x|/\lambda}`
                          ``bound`` :math:`A`                  on :math:`[-A, A]`
``staircase``             ``eps0`` :math:`\varepsilon_0`,      the staircase density
                          ``gamma`` :math:`\gamma`             of :math:`(\varepsilon_0, \gamma)`
========================  ===================================  ========================
"""

from __future__ import annotations

import functools
from dataclasses import dataclass
from decimal import Decimal, localcontext
from fractions import Fraction
from itertools import pairwise
from typing import Any

import flint
import mpmath
import sympy as sp

from dpsym.certified.evaluation import Value
from dpsym.certified.kernel import Certified, ball, certify_ball, decide_at_most, directed_texts
from dpsym.certified.rounding import check_digits
from dpsym.core.params import POSITIVE, Domain, Param
from dpsym.errors import CertificationError, DomainError
from dpsym.gaussian.enclosures import ATTEMPTS, Calibration
from dpsym.mechanisms.base import Mechanism
from dpsym.precision import arb_workprec, exclusive, mpf_fraction, workdps
from dpsym.privacy import closed_forms as profile_balls

#: What each audited mechanism needs, besides ``eps`` and ``Delta`` (any other noise is
#: audited as a mechanism instance, :func:`audit_noise`).
AUDITED: dict[str, tuple[str, ...]] = {
    "analytic-gaussian": ("sigma",),
    "gaussian": ("sigma",),
    "laplace": ("scale",),
    "truncated-laplace": ("scale", "bound"),
    "staircase": ("eps0", "gamma"),
}

_LARGE = Fraction(10) ** 300
#: Largest truncation bound, in units of the scale, that the audit evaluates.
MAX_BOUND_RATIO = 10**6
_PARAMS = {
    "sigma": Param("sigma", sp.Symbol("sigma", positive=True),
                   Domain(lower=Fraction(0), upper=_LARGE, upper_open=False),
                   "standard deviation of the Gaussian noise", ("0.1", "10")),
    "scale": Param("scale", sp.Symbol("scale", positive=True),
                   Domain(lower=Fraction(0), upper=_LARGE, upper_open=False),
                   "Laplace scale (lambda)", ("0.1", "10")),
    "bound": Param("bound", sp.Symbol("bound", positive=True),
                   Domain(lower=Fraction(0), upper=_LARGE, upper_open=False),
                   "truncation bound A", ("1", "100")),
    "eps0": Param("eps0", sp.Symbol("eps0", positive=True),
                  Domain(lower=Fraction(0), upper=Fraction(10**6), upper_open=False),
                  "the staircase's design epsilon", ("0.1", "10")),
    "gamma": Param("gamma", sp.Symbol("gamma_a", nonnegative=True),
                   Domain(lower=Fraction(0), upper=Fraction(1), lower_open=False,
                          upper_open=False), "the staircase's step fraction", ("0", "1")),
    "eps": Param("eps", sp.Symbol("eps_a", nonnegative=True),
                 Domain(lower=Fraction(0), upper=Fraction(10**6), lower_open=False,
                        upper_open=False), "privacy parameter at which delta is audited",
                 ("0.01", "10")),
    "delta": Param("delta", sp.Symbol("delta_a", positive=True),
                   Domain(lower=Fraction(0), upper=Fraction(1), lower_open=False),
                   "target delta", ("1e-10", "0.1")),
    "Delta": Param("Delta", sp.Symbol("Delta_a", positive=True), POSITIVE,
                   "query sensitivity", ("0.5", "4")),
}


@dataclass(frozen=True)
class Audit:
    r"""The result of :func:`audit`.

    Attributes
    ----------
    mechanism : str
        The audited mechanism.
    eps : Fraction
        :math:`\varepsilon` at which :math:`\delta` was computed.
    delta : mpmath.mpf
        The achieved :math:`\delta(\varepsilon)`.
    text : str
        It, certified to ``digits`` significant digits.
    target : Fraction or None
        The target :math:`\delta`, if given.
    met : bool or None
        Whether the achieved :math:`\delta` is at most the target (decided exactly, or by
        an enclosure of :math:`\delta` that excludes the exact target).
    needed : Needed or None
        With a target: the value of the noise's scale parameter (:data:`SCALE_PARAMETER`)
        at which the target is met, the others unchanged (:func:`needed_scale`).
    certificate : str
        What proves the digits of ``text`` (:attr:`dpsym.certified.evaluation.Value.certificate`):
        ``"exact"`` or ``"enclosure"``.
    enclosure : tuple of str
        The range of :math:`\delta` shown for it
        (:attr:`dpsym.certified.evaluation.Value.enclosure`).
    """

    mechanism: str
    eps: Fraction
    delta: mpmath.mpf
    text: str
    digits: int
    target: Fraction | None
    met: bool | None
    needed: Needed | None = None
    certificate: str = "enclosure"
    enclosure: tuple[str, str] = ("", "")

    def as_dict(self) -> dict[str, Any]:
        """Plain JSON-ready values (numbers as decimal strings)."""
        needed = self.needed
        return {"mechanism": self.mechanism, "eps": str(self.eps), "delta": self.text,
                "digits": self.digits, "certificate": self.certificate,
                "enclosure": list(self.enclosure),
                "target": None if self.target is None else _decimal(self.target),
                "met": self.met,
                "needed": None if needed is None or needed.value is None
                else _decimal(needed.value),
                "needed_parameter": None if needed is None else needed.parameter,
                "needed_reason": None if needed is None else needed.reason,
                **({"needed_set": [[_decimal(lo), None if hi is None else _decimal(hi)]
                                   for lo, hi in needed.intervals]}
                   if needed is not None and self.mechanism == "truncated-laplace"
                   else {})}


@dataclass(frozen=True)
class Needed:
    r"""The scale parameter's value that meets a target :math:`\delta`.

    Attributes
    ----------
    parameter : str
        ``sigma``, ``scale`` or ``eps0`` (:data:`SCALE_PARAMETER`).
    value : Fraction or None
        A value with :data:`NEEDED_DIGITS` significant digits, rounded in the safe
        direction (up for ``sigma``/``scale``, down for ``eps0``), whose certified
        :math:`\delta` is at most the target; None if no value in the search range meets
        it.
    reason : str or None
        Why there is no value.
    intervals : tuple of (Fraction, Fraction or None)
        For the truncated Laplacian (its bound fixed, :math:`\delta` is not monotone in
        the scale): the set of scales meeting the target, as intervals rounded inwards
        (:func:`needed_scales`); ``value`` is then the meeting scale nearest to the one
        audited, or, when that one meets, the low end of its interval.
    """

    parameter: str
    value: Fraction | None
    reason: str | None = None
    #: The scales that meet the target when they are not one half-line (the truncated
    #: Laplacian with its bound fixed): intervals ``(lo, hi)``, ``hi`` None for the end of
    #: the domain, each end rounded inwards to :data:`NEEDED_DIGITS` digits.
    intervals: tuple[tuple[Fraction, Fraction | None], ...] = ()


@exclusive
def audit(mechanism: str, eps: object, delta: object = None, Delta: object = 1,
          digits: int = 30, **noise: object) -> Audit:
    r"""The :math:`\delta` achieved at :math:`\varepsilon` by a noise with given parameters.

    Parameters
    ----------
    mechanism : str
        One of :data:`AUDITED`.
    eps : number
        :math:`\varepsilon \ge 0`.
    delta : number, optional
        A target :math:`\delta \in [0, 1)`; the result says whether it is met.
    Delta : number
        The sensitivity :math:`\Delta > 0`.
    digits : int
        Significant digits of the certified :math:`\delta`.
    **noise
        The noise parameters listed in :data:`AUDITED` for ``mechanism``.

    Raises
    ------
    DomainError
        For an unknown mechanism, a missing or unexpected noise parameter, or any value
        outside its domain.
    """
    if mechanism not in AUDITED:
        raise DomainError("mechanism", f"cannot audit {str(mechanism)[:40]!r}; valid: "
                          + ", ".join(AUDITED))
    names = AUDITED[mechanism]
    extra = sorted({k for k, v in noise.items() if v is not None} - set(names))
    if extra:
        raise DomainError(extra[0], f"is not a parameter of {mechanism}; valid: "
                          + ", ".join(names))
    for name in names:
        if noise.get(name) is None:
            raise DomainError(name, f"is required to audit {mechanism}")
    values = {name: _PARAMS[name].validate(noise[name]) for name in names}
    if "bound" in values and values["bound"] > MAX_BOUND_RATIO * values["scale"]:
        raise DomainError("bound", f"must be at most {MAX_BOUND_RATIO} times the scale "
                          "(beyond, the truncated mass e^(-bound/scale) is below every "
                          "precision; audit it as laplace)")
    e = _PARAMS["eps"].validate(eps)
    target = None if delta is None else _PARAMS["delta"].validate(delta)
    sens = _PARAMS["Delta"].validate(Delta)
    digits = check_digits(digits)
    profile = _profile(mechanism, e, sens, values)
    found = _certified(profile, digits)
    met: bool | None = None
    needed: Needed | None = None
    if target is not None:
        met = _meets(profile, target)
        needed = needed_scale(mechanism, e, sens, values, target)
    return Audit(mechanism, e, found.number, found.text, digits, target, met, needed,
                 found.certificate, found.enclosure)


@exclusive
def audit_noise(mechanism: Mechanism, eps: object, delta: object = None, digits: int = 30
                ) -> Audit:
    r"""The :math:`\delta` achieved at :math:`\varepsilon` by a mechanism instance with
    every parameter given (a declared noise, :mod:`dpsym.mechanisms.declared`), at its
    sensitivity: its certified privacy profile
    (:meth:`~dpsym.mechanisms.base.Mechanism.privacy_profile`) and, with a target, whether
    it is met (:meth:`~dpsym.mechanisms.base.Mechanism.is_private`, decided exactly or by
    an enclosure that excludes the target). No needed value is searched (``needed`` is
    None): the noise's scale parameter is not known.

    Raises
    ------
    DomainError
        For a value outside its domain.
    UnsupportedError
        If the noise's profile has no certified path.
    """
    e = _PARAMS["eps"].validate(eps)
    target = None if delta is None else _PARAMS["delta"].validate(delta)
    digits = check_digits(digits)
    found = mechanism.privacy_profile(e, digits=digits)
    met = None if target is None else mechanism.is_private(e, target, digits=digits).private
    return Audit(mechanism.name, e, found.number, found.text, digits, target, met, None,
                 found.certificate, found.enclosure)


#: The parameter :func:`needed_scale` solves for, and whether more of it means less
#: :math:`\delta` (+1) or more (-1).
SCALE_PARAMETER: dict[str, tuple[str, int]] = {
    "analytic-gaussian": ("sigma", 1), "gaussian": ("sigma", 1), "laplace": ("scale", 1),
    "truncated-laplace": ("scale", 0), "staircase": ("eps0", -1)}
#: Significant digits of a needed value.
NEEDED_DIGITS = 6
#: Steps allowed to bracket the needed value, their largest factor, bisection steps.
_BRACKET_STEPS, _MAX_FACTOR, _BISECTIONS = 40, Fraction(10) ** 64, 60


def _meets(profile: profile_balls.Profile, target: Fraction) -> bool:
    r"""Whether :math:`\delta \le` ``target``: exactly for an exact value, else by a ball
    of :math:`\delta` that excludes the target (refined as needed).

    Raises
    ------
    CertificationError
        If no ball separates :math:`\delta` from the target.
    """
    if profile.exact is not None:
        return profile.exact <= target
    assert profile.enclose is not None  # (a profile is exact or enclosed)
    decided = decide_at_most(profile.enclose, target)
    if decided is None:
        raise CertificationError("delta could not be separated from the target delta")
    return decided


def needed_scale(mechanism: str, e: Fraction, sens: Fraction, values: dict[str, Fraction],
                 target: Fraction) -> Needed:
    r"""The value of the noise's scale parameter at which :math:`\delta(\varepsilon)` meets
    ``target``, the other noise parameters unchanged, with :data:`NEEDED_DIGITS`
    significant digits rounded in the safe direction.

    The truncated Laplacian: :func:`needed_scales` (not monotone).

    Gaussians: :math:`\delta` is strictly decreasing in :math:`\sigma`, and the least
    :math:`\sigma` is the analytic calibration's root, isolated rigorously
    (:class:`dpsym.gaussian.enclosures.Calibration`; at :math:`\varepsilon = 0`,
    :math:`\delta = \operatorname{erf}(\Delta/(2\sqrt2\sigma))` is inverted in balls);
    its enclosure is rounded up. The others: :math:`\delta` is monotone in the parameter (a
    larger Laplace scale, a smaller staircase :math:`\varepsilon_0`, adds noise); the
    boundary is bracketed by steps of growing factors and bisected in :math:`\log` of the
    parameter, every comparison with the target decided by an enclosure that excludes it
    (:func:`_meets`); of the tighter rounding, the safe rounding and two further steps of
    one unit in the last digit, the first that meets the target is returned.
    """
    name, sign = SCALE_PARAMETER[mechanism]
    top = _PARAMS[name].domain.upper
    assert top is not None  # (every audited parameter is bounded above)
    if name == "sigma":
        return _needed_sigma(e, sens, target, top)
    if mechanism == "truncated-laplace":
        return needed_scales(e, sens, values, target)

    def meets(v: Fraction) -> bool:
        return _meets(_profile(mechanism, e, sens, {**values, name: v}), target)

    # bracket: `good` meets the target, `bad` does not; the step factor squares each time
    # (2, 4, 16, 256, ...), so the whole domain is covered in a few steps
    v = values[name]
    good = bad = None
    factor = Fraction(2)
    for _ in range(_BRACKET_STEPS):
        if meets(v):
            good = v
            if bad is not None:
                break
            v = v / factor if sign > 0 else min(v * factor, top)  # less noise
        else:
            bad = v
            if good is not None:
                break
            v = v * factor if sign > 0 else v / factor  # more noise
        factor = min(factor * factor, _MAX_FACTOR)
        if v > top or v <= 0 or (good is not None and v == good):
            break
    if good is None:
        limit = f"up to {float(top):.0e}" if sign > 0 else "above 0"
        return Needed(name, None, f"no {name} {limit} meets the target (the other "
                                  "parameters unchanged)")
    if bad is None:  # met at every value tried: the least noise is the domain's end
        return Needed(name, good, None)
    with workdps(30):
        lo, hi = sorted((good, bad))
        for _ in range(_BISECTIONS):
            mid = mpf_fraction(mpmath.sqrt(mpmath.mpf(lo.numerator) / lo.denominator
                                           * hi.numerator / hi.denominator))
            if not lo < mid < hi:
                break
            if (sign > 0) == meets(mid):
                hi = mid
            else:
                lo = mid
            if hi / lo - 1 < Fraction(1, 10 ** (NEEDED_DIGITS + 3)):
                break
        candidate = hi if sign > 0 else lo
    # the tighter rounding first (it meets when the boundary is itself a short decimal)
    tries = [_round_significant(candidate, NEEDED_DIGITS, up=sign < 0)]
    for _ in range(3):
        tries.append(_round_significant(candidate, NEEDED_DIGITS, up=sign > 0))
        candidate = tries[-1] * (1 + Fraction(sign, 10 ** NEEDED_DIGITS))
    for rounded in tries:
        if meets(rounded):
            return Needed(name, rounded, None)
    return Needed(name, None, "the search did not converge")


#: Relative width below which a box of scales straddling the target is not split.
_RESOLUTION = Fraction(1, 10**9)
#: Most boxes of scales examined by :func:`needed_scales`.
_MAX_BOXES = 20_000


def needed_scales(e: Fraction, sens: Fraction, values: dict[str, Fraction],
                  target: Fraction) -> Needed:
    r"""The scales :math:`\lambda` of a truncated Laplacian with its bound :math:`A` fixed
    whose :math:`\delta(\varepsilon)` meets ``target``: with :math:`A` fixed,
    :math:`\delta` is not monotone in :math:`\lambda` (it tends to 1 as
    :math:`\lambda \to 0` and to :math:`\Delta/(2A)` as :math:`\lambda \to \infty`,
    through a minimum), so the set is found whole (:func:`meeting_scales`, which does not
    depend on the audited scale). The needed value is the low end of the run holding the
    audited scale, else the end of a run nearest to it.
    """
    top = _PARAMS["scale"].domain.upper
    assert top is not None
    intervals = meeting_scales(e, sens, values["bound"], target)
    if not intervals:
        return Needed("scale", None, f"no scale up to {float(top):.0e} meets the target "
                                     "(the other parameters unchanged)")
    given = values["scale"]
    value = None
    for low, high in intervals:  # the run holding the audited scale: its low end
        if low <= given and (high is None or given <= high):
            value = low
    if value is None:  # else the meeting scale nearest to it
        ends = [v for low, high in intervals for v in (low, high) if v is not None]
        value = min(ends, key=lambda v: abs(v - given))
    return Needed("scale", value, None, intervals)


@functools.lru_cache(maxsize=256)
def meeting_scales(e: Fraction, sens: Fraction, A: Fraction, target: Fraction
                   ) -> tuple[tuple[Fraction, Fraction | None], ...]:
    r"""The runs of scales :math:`\lambda` at which a truncated Laplacian with bound
    :math:`A` meets ``target`` at :math:`\varepsilon` (:func:`needed_scales`), each
    ``(low, high)`` with its ends rounded inwards to :data:`NEEDED_DIGITS` digits (``high``
    None: up to the domain's end); empty when no scale meets it. A pure function of exact
    arguments, kept for the audits of other scales of the same noise.

    The profile's closed form (:func:`dpsym.privacy.closed_forms.truncated_laplace_case`) is
    evaluated on boxes of scales in ball arithmetic (an interval extension, one case per
    box: the boxes are split at :math:`\lambda_0 = \min(\Delta, 2A - \Delta)/\varepsilon`);
    a box whose values are all above the target is discarded, one whose values are all at
    most the target is kept, any other is halved (geometrically) down to a relative width
    of :data:`_RESOLUTION`. Below :math:`\lambda_*` no scale meets: there
    :math:`\delta \ge 1 - w`, :math:`w = e^{(\varepsilon - \Delta/\lambda)/2}`
    increasing in :math:`\lambda`, and :math:`1 - w(\lambda_*) > \delta` is proven. The
    runs of kept boxes are the meeting set up to the resolution; each is reported with its
    ends rounded inwards to :data:`NEEDED_DIGITS` digits and confirmed by the profile at
    those ends.

    Raises
    ------
    CertificationError
        If the meeting scales cannot be isolated within :data:`_MAX_BOXES` boxes.
    """
    top = _PARAMS["scale"].domain.upper
    assert top is not None
    if 2 * A <= sens or target == 0:  # delta = 1, or delta > 0 at every scale
        return ()
    lam0 = min(sens, 2 * A - sens) / e if e > 0 else None
    start = _lowest_scale(e, sens, target, lam0)
    cuts = [start] + ([lam0] if lam0 is not None and start < lam0 < top else []) + [top]
    kept: list[tuple[Fraction, Fraction]] = []
    stack = list(pairwise(cuts))
    boxes = 0
    while stack:
        lo, hi = stack.pop()
        boxes += 1
        if boxes > _MAX_BOXES:
            raise CertificationError("the scales meeting the target could not be isolated")
        case = 1 if lam0 is not None and hi <= lam0 else (2 if sens <= A else 3)
        if lam0 is None:
            case = 1
        with arb_workprec(128):
            found = profile_balls.truncated_laplace_case(
                case, ball(e), ball(lo).union(ball(hi)), ball(A), ball(sens))
            if found > ball(target):
                continue
            if found <= ball(target):
                kept.append((lo, hi))
                continue
        if hi - lo <= lo * _RESOLUTION:
            continue  # straddles the target: left out (inward)
        mid = _geometric_mid(lo, hi)
        if not lo < mid < hi:
            continue
        stack += [(mid, hi), (lo, mid)]
    runs: list[list[Fraction]] = []
    for lo, hi in sorted(kept):
        if runs and runs[-1][1] == lo:
            runs[-1][1] = hi
        else:
            runs.append([lo, hi])
    intervals: list[tuple[Fraction, Fraction | None]] = []
    for lo, hi in runs:
        low = _round_significant(lo, NEEDED_DIGITS, up=True)
        high = None if hi == top else _round_significant(hi, NEEDED_DIGITS, up=False)
        if high is not None and high < low:
            continue  # a sliver narrower than the digits reported
        ends = [low] if high is None else [low, high]
        if all(_meets(_profile("truncated-laplace", e, sens, {"scale": v, "bound": A}),
                      target) for v in ends):
            intervals.append((low, high))
    return tuple(intervals)


def _lowest_scale(e: Fraction, sens: Fraction, target: Fraction,
                  lam0: Fraction | None) -> Fraction:
    r"""A scale :math:`\lambda_* \le \lambda_0` below which :math:`\delta` exceeds the
    target (:func:`needed_scales`): :math:`w(\lambda_*) < 1 - \delta`, proven in balls."""
    with workdps(30):
        guess = mpmath.mpf(sens.numerator) / sens.denominator / (
            mpmath.mpf(e.numerator) / e.denominator
            - 2 * mpmath.log1p(-mpmath.mpf(target.numerator) / target.denominator)) / 2
        lam = mpf_fraction(guess)
    if lam0 is not None:
        lam = min(lam, lam0 / 2)
    for _ in range(64):
        with arb_workprec(128):
            w = ((ball(e) - ball(sens) / ball(lam)) / 2).exp()
            if w < 1 - ball(target):
                return lam
        lam /= 2
    raise CertificationError("no scale below which delta exceeds the target was found")


def _geometric_mid(lo: Fraction, hi: Fraction) -> Fraction:
    """A short dyadic number near the geometric mean of ``lo`` and ``hi``."""
    with workdps(20):
        mid = mpmath.sqrt(mpmath.mpf(lo.numerator) / lo.denominator
                          * mpmath.mpf(hi.numerator) / hi.denominator)
    return mpf_fraction(mid)


def _needed_sigma(e: Fraction, sens: Fraction, target: Fraction, top: Fraction) -> Needed:
    r"""The least :math:`\sigma` meeting ``target``, rounded up to :data:`NEEDED_DIGITS`
    digits from its rigorous enclosure (both ends of the ball round up alike, or else the
    upper end's rounding: still safe)."""
    if target == 0:  # delta > 0 for every sigma
        return Needed("sigma", None, "no sigma meets delta = 0 (the Gaussian's delta is "
                                     "positive at every eps)")
    if e == 0:
        def enclose(bits: int) -> flint.arb:  # delta = erf(Delta/(2 sqrt(2) sigma))
            with arb_workprec(bits + 32):
                return ball(sens) / (2 * flint.arb(2).sqrt() * ball(target).erfinv())
    else:
        enclose = Calibration(e, target, sens).sigma
    bits = int(NEEDED_DIGITS * 3.33) + 32
    ends = ("", "")
    for _ in range(ATTEMPTS):
        found = enclose(bits)
        if found.is_finite() and found > 0:
            with arb_workprec(bits + 64):  # the ends exactly (Arb rounds them outwards)
                (_, lo_up), (_, hi_up) = directed_texts(found, NEEDED_DIGITS)
            ends = (lo_up, hi_up)
            if lo_up == hi_up:
                break
        bits *= 2
    if not ends[1]:
        raise CertificationError("the needed sigma could not be enclosed")
    value = Fraction(ends[1])
    if value > top:
        return Needed("sigma", None, f"no sigma up to {float(top):.0e} meets the target")
    return Needed("sigma", value, None)


def _round_significant(value: Fraction, digits: int, *, up: bool) -> Fraction:
    """``value`` rounded to ``digits`` significant decimal digits, up or down."""
    exponent = len(str(value.numerator // value.denominator)) if value >= 1 else \
        -len(str(value.denominator // value.numerator)) + 1
    scale = Fraction(10) ** (digits - exponent)
    scaled = value * scale
    whole = -(-scaled.numerator // scaled.denominator) if up else \
        scaled.numerator // scaled.denominator
    return Fraction(whole) / scale


def _profile(mechanism: str, e: Fraction, sens: Fraction, values: dict[str, Fraction]
             ) -> profile_balls.Profile:
    r"""The audited noise's profile at :math:`\varepsilon`, exact or as balls."""
    if mechanism in ("analytic-gaussian", "gaussian"):
        return profile_balls.gaussian(e, values["sigma"], sens)
    if mechanism == "staircase":
        return profile_balls.staircase(e, values["eps0"], values["gamma"], sens)
    if mechanism == "laplace":
        return profile_balls.laplace(e, values["scale"], sens)
    return profile_balls.truncated_laplace(e, values["scale"], values["bound"], sens)


def _certified(profile: profile_balls.Profile, digits: int) -> Value:
    """The profile's value rounded to ``digits`` digits: ``"exact"`` for a rational value,
    else ``"enclosure"`` (:func:`dpsym.certified.kernel.certify_ball`)."""
    if profile.exact is not None:
        return Value(None, None, digits, source=Certified.exact(profile.exact, digits))
    assert profile.enclose is not None
    return Value(None, None, digits,
                 source=certify_ball(profile.enclose, digits, what="the audited delta",
                                     within=(0, 1)))


def _decimal(value: Fraction) -> str:
    """An exact decimal string for a terminating fraction, else ``p/q``."""
    with localcontext() as ctx:
        ctx.prec = 400
        text = format(Decimal(value.numerator) / Decimal(value.denominator), "f")
    return text if Fraction(text) == value else str(value)


__all__ = ["AUDITED", "Audit", "audit", "audit_noise"]
