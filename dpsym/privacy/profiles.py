r"""Exact privacy profiles of symmetric noise-adding mechanisms.

The privacy profile of a noise distribution :math:`P` at sensitivity :math:`\Delta` is

.. math::

   \delta(\varepsilon^{\prime})
   = \sup_{|d| \le \Delta} \sup_S \bigl[P(S) - e^{\varepsilon^{\prime}} P(S + d)\bigr]
   = \sup_{|d| \le \Delta} \int \bigl(f(x) - e^{\varepsilon^{\prime}} f(x + d)\bigr)_+ \,dx,

the inner quantity being the hockey-stick divergence of :math:`P` from its translate
(a sum over :math:`\mathbb{Z}`, and :math:`d \in \mathbb{Z}`, for lattice noise). A mechanism
is :math:`(\varepsilon, \delta)`-differentially private exactly when
:math:`\delta(\varepsilon) \le \delta`.

Everything is computed from the :class:`~dpsym.symbolic.noise.SymmetricNoise` description, without
sampling and without truncation:

* **Fixed shift** (:func:`hockey_stick`). The real line is split at every breakpoint of
  :math:`f(x)` and of :math:`f(x + d)` (the negative half-line is the mirror image of the
  description). On each elementary interval both densities are one piece expression.
  Pieces of the form :math:`C e^{a x}` (every mechanism of the package: constants and
  exponentials) are handled in closed form: the difference
  :math:`f(x) - c f(x + d)` changes sign at most once, at the root of a linear equation in
  :math:`x` (the logarithms of the two terms), and each constant-sign part is integrated (or
  summed, on a lattice) with the exact antiderivative :math:`C e^{a x}/a` (geometric sums).
  Other pieces are handled on bounded intervals with antiderivatives derived once with sympy
  and roots bracketed from sampled sign changes. The geometric tail is summed in closed
  form: beyond the head and beyond the shift, both :math:`f(x)` and :math:`f(x + d)` lie in
  the tail, so the integrand over the period :math:`k + 1` is :math:`q` times the integrand
  over the period :math:`k` and the whole far tail is the integral over one period divided
  by :math:`1 - q` (on each side). A single infinite piece (Laplace's
  :math:`e^{-x/\lambda}` on :math:`[0, \infty)`) is integrated to infinity through the limit
  of its antiderivative.
* **Supremum over the shift** (:func:`max_hockey_stick`). For piecewise-constant densities
  :math:`d \mapsto \int (f(x) - c f(x + d))_+ dx` is piecewise linear, with kinks only where
  a breakpoint of :math:`f(\cdot + d)` crosses one of :math:`f`, i.e. at differences of two
  breakpoints; its supremum over :math:`(0, \Delta]` is therefore attained at
  :math:`d = \Delta` or at a breakpoint difference in :math:`(0, \Delta)`, and all of these
  are evaluated. Lattice noise is evaluated at every integer shift :math:`1, \dots, \Delta`.
  For a log-concave density (Laplace) the maximiser is :math:`d = \Delta` by the
  following theorem, and a grid over :math:`(0, \Delta)` is evaluated only as a check.

  *Theorem (monotone likelihood ratio).* If :math:`f` is log-concave, then for every
  :math:`c > 0` the hockey-stick divergence
  :math:`H(d) = \int (f(x) - c f(x + d))_+ dx` is nondecreasing in :math:`|d|`.
  *Proof.* For :math:`d > 0` the derivative of :math:`\log f(x) - \log f(x + d)` is
  :math:`\psi(x) - \psi(x + d) \ge 0` (:math:`\psi = (\log f)^{\prime}` is nonincreasing), so the
  set where :math:`f(x) > c f(x + d)` is a half-line :math:`(t, \infty)` and
  :math:`H(d) = \sup_t [\bar F(t) - c \bar F(t + d)]` with :math:`\bar F` the survival
  function. Each bracket is nondecreasing in :math:`d`, and
  :math:`H(d^{\prime}) \ge \sup_t [\bar F(t) - c\bar F(t + d^{\prime})]` for every
  :math:`d^{\prime}`, hence
  :math:`H(d^{\prime}) \ge H(d)` for :math:`d^{\prime} \ge d`. Symmetry of :math:`f` gives
  :math:`H(-d) = H(d)`.

The privacy-loss view is :func:`privacy_loss_bound`:
:math:`\sup_x \log f(x)/f(x + d)`, which is :math:`\varepsilon` for the pure
:math:`\varepsilon`-DP mechanisms at :math:`d = \Delta`, and :math:`\infty` when the supports
of :math:`f` and :math:`f(\cdot + d)` differ.

Precision: every function computes at the current mpmath working precision; differences
that are zero to within rounding (such as :math:`\delta(\varepsilon) = 0` for an
:math:`\varepsilon`-DP mechanism) are returned as exact zeros, so that
:func:`~dpsym.certified.agreement.agreement` certifies them. Nothing here assigns ``mp.dps``. Each
public function holds the precision lock of :mod:`dpsym.precision` while it computes
(choose its precision with :func:`dpsym.precision.workdps` when threads are about).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction

import flint
import mpmath
import sympy as sp

from dpsym.certified.agreement import agreement
from dpsym.certified.evaluation import Value
from dpsym.certified.kernel import Certified, ball, certify_ball
from dpsym.certified.rounding import check_digits
from dpsym.core.params import parse_exact, parse_number
from dpsym.errors import CertificationError, DomainError, UnsupportedError
from dpsym.precision import arb_workprec, exclusive, mpf_fraction, workdps
from dpsym.privacy.closed_forms import from_noise
from dpsym.privacy.divergence import Density, check_numeric, numeric_value
from dpsym.privacy.lattice import lattice_profile
from dpsym.symbolic.noise import SymmetricNoise
from dpsym.symbolic.numerics import to_mpf

#: Largest number of shifts evaluated for the supremum over the shift.
MAX_SHIFTS = 4096
#: Doublings of the precision before :func:`is_private` gives up separating
#: :math:`\delta(\varepsilon)` from :math:`\delta`.
DECIDE_ATTEMPTS = 10
#: Doublings after which an undecided comparison tries an exact tie (sympy).
TIE_AFTER = 2
#: Grid points in :math:`(0, \Delta)` that check the log-concave maximiser :math:`d = \Delta`.
CHECK_GRID = 16

__all__ = ["PrivacyCheck", "hockey_stick", "is_private", "max_hockey_stick",
           "privacy_loss_bound", "privacy_profile"]

# ---------------------------------------------------------------------------- inputs
def _real_input(value: object, name: str) -> mpmath.mpf:
    """A number at the current precision: mpf as is, sympy expressions evaluated, else exact."""
    if isinstance(value, mpmath.mpf):
        return value
    exact = _exact_input(value, name)
    return to_mpf(exact) if isinstance(exact, Fraction) else numeric_value(exact)


def _shift_input(value: object, lattice: bool):
    d = _real_input(value, "shift")
    if lattice:
        if d != mpmath.floor(d):
            raise DomainError("shift", f"must be an integer for lattice noise, got {d}")
        return int(d)
    return d


def _exact_input(value: object, name: str) -> Fraction | sp.Expr:
    """A user's parameter as an exact number: an mpf as the fraction it is, a constant
    sympy expression as itself, anything else by :func:`dpsym.core.params.parse_exact`."""
    if isinstance(value, mpmath.mpf):
        return mpf_fraction(value)
    if isinstance(value, sp.Basic) and not isinstance(value, sp.Rational):
        return value
    return parse_exact(value, name)  # "log(3)" as exactly as sympy.log(3)


def _mp_of(value: Fraction | sp.Expr) -> mpmath.mpf:
    return to_mpf(value) if isinstance(value, Fraction) else numeric_value(value)


# ---------------------------------------------------------------------------- public API
@exclusive
def hockey_stick(noise_numeric: SymmetricNoise, shift: object,
                 eps_prime: object) -> mpmath.mpf:
    r"""Return :math:`\int \bigl(f(x) - e^{\varepsilon^{\prime}} f(x + d)\bigr)_+ dx` exactly.

    On a lattice the integral is the sum over :math:`\mathbb{Z}` and the shift must be an
    integer. A point mass :math:`a` at the origin contributes :math:`a` for :math:`d \ne 0`
    (and :math:`a(1 - e^{\varepsilon^{\prime}})_+` for :math:`d = 0`).

    Parameters
    ----------
    noise_numeric : SymmetricNoise
        A fully numeric description (every symbol substituted by exact numbers, e.g.
        sympy Rationals and ``exp`` of Rationals).
    shift : number
        :math:`d`, any real (integer on a lattice); :math:`H(-d) = H(d)` by symmetry.
    eps_prime : number
        :math:`\varepsilon^{\prime}`; strings and fractions are read exactly, mpf and sympy
        numbers are evaluated at the current precision.

    Returns
    -------
    mpmath.mpf
        The divergence at the current mpmath working precision (an exact zero when the
        integrand vanishes up to rounding).

    Raises
    ------
    DomainError
        For a non-numeric description or a non-integer shift on a lattice.
    UnsupportedError
        For an infinite piece that is not of the form :math:`C e^{a x}`.
    """
    d = _shift_input(shift, noise_numeric.lattice)
    c = mpmath.exp(_real_input(eps_prime, "eps_prime"))
    return Density(noise_numeric, d).hockey(d, c)


def _candidate_shifts(dens: Density, sensitivity: mpmath.mpf) -> tuple[list, bool]:
    """The shifts to evaluate, and whether their maximum is the supremum (not a check)."""
    if dens.lattice:
        top = int(mpmath.floor(sensitivity))
        if top > MAX_SHIFTS:
            raise UnsupportedError(f"more than {MAX_SHIFTS} integer shifts to evaluate")
        return list(range(top, 0, -1)) or [0], True
    if dens.piecewise_constant:
        pts = dens.breakpoints()
        if dens.tail is not None:
            reach = max(dens.s, dens.head_end) + dens.T + sensitivity
        else:
            reach = dens.head_end + sensitivity
        pts = [pt for pt in pts if abs(pt) <= reach]
        gap = dens.tol * dens.xscale
        diffs = sorted({q - p for p in pts for q in pts if 0 < q - p < sensitivity - gap})
        shifts = [sensitivity]
        for dd in reversed(diffs):
            if shifts[-1] - dd > gap:
                shifts.append(dd)
        if len(shifts) > MAX_SHIFTS:
            raise UnsupportedError(f"more than {MAX_SHIFTS} breakpoint differences to evaluate")
        return shifts, True
    if dens.is_log_concave():
        grid = [sensitivity * j / CHECK_GRID for j in range(CHECK_GRID - 1, 0, -1)]
        return [sensitivity, *grid], False
    raise UnsupportedError(
        "the supremum over the shift is exact only for piecewise-constant, lattice or "
        "log-concave noise"
    )


@exclusive
def max_hockey_stick(noise_numeric: SymmetricNoise, sensitivity: object,
                     eps_prime: object) -> tuple[mpmath.mpf, object]:
    r"""Return :math:`\bigl(\sup_{|d| \le \Delta} H(d), d^*\bigr)` at the working precision.

    :math:`H(d) = \int (f(x) - e^{\varepsilon^{\prime}} f(x + d))_+ dx` (see :func:`hockey_stick`).
    The supremum is exact for

    * lattice noise: every integer shift :math:`1, \dots, \lfloor\Delta\rfloor` is evaluated;
    * piecewise-constant densities: :math:`H` is piecewise linear in :math:`d` with kinks at
      differences of breakpoints, so :math:`d = \Delta` and every breakpoint difference in
      :math:`(0, \Delta)` are evaluated (and, with a point mass at the origin, the limit
      :math:`d \to 0^+`);
    * log-concave densities: :math:`H` is nondecreasing in :math:`|d|` (module docstring),
      so :math:`d^* = \Delta`; :data:`CHECK_GRID` further shifts are evaluated as a check,
      and a violation raises :class:`~dpsym.errors.CertificationError`.

    Negative shifts need no evaluation: :math:`H(-d) = H(d)` for symmetric noise.

    Parameters
    ----------
    noise_numeric : SymmetricNoise
        A fully numeric description.
    sensitivity : number
        :math:`\Delta > 0`.
    eps_prime : number
        :math:`\varepsilon^{\prime}`.

    Returns
    -------
    (mpmath.mpf, number)
        The supremum and a shift :math:`d^* \in (0, \Delta]` attaining it (the largest such
        shift among ties; ``0`` for the limit :math:`d \to 0^+`).

    Raises
    ------
    UnsupportedError
        For other densities, or too many shifts to evaluate.
    """
    delta_max = _real_input(sensitivity, "Delta")
    if not delta_max > 0:
        raise DomainError("Delta", f"must be > 0, got {delta_max}")
    c = mpmath.exp(_real_input(eps_prime, "eps_prime"))
    dens = Density(noise_numeric, delta_max)
    shifts, exact = _candidate_shifts(dens, delta_max)
    best, where = None, None
    for d in shifts:
        value = dens.hockey(d, c)
        if best is None or value > best + dens.tol * (1 + abs(best)):
            if not exact and best is not None:
                raise CertificationError(
                    f"log-concave noise: H({d}) = {value} exceeds H(Delta) = {best}"
                )
            best, where = value, d
    if dens.atom != 0 and dens.piecewise_constant:
        # The limit d -> 0+: the atom, plus the continuous part (1 - c)_+ (1 - atom).
        limit = dens.atom + max(mpmath.mpf(0), 1 - c) * (1 - dens.atom)
        if limit > best + dens.tol:
            best, where = limit, 0
    return best, where


@exclusive
def privacy_loss_bound(noise_numeric: SymmetricNoise, shift: object) -> mpmath.mpf:
    r"""Return :math:`\sup_x \log f(x)/f(x + d)` over the points where both are positive.

    The value is :math:`+\infty` as soon as :math:`f(x) > 0 = f(x + d)` on a set of positive
    probability (the supports differ, or a point mass at the origin with :math:`d \ne 0`).
    For the pure :math:`\varepsilon`-DP mechanisms it is :math:`\varepsilon` at
    :math:`d = \Delta`. The supremum of a log-linear ratio on an interval is taken at an end
    (as a limit for open ends).

    Parameters
    ----------
    noise_numeric : SymmetricNoise
        A fully numeric description.
    shift : number
        :math:`d` (an integer on a lattice).

    Returns
    -------
    mpmath.mpf
        The bound at the current working precision (``mpmath.inf`` if unbounded).
    """
    d = _shift_input(shift, noise_numeric.lattice)
    return Density(noise_numeric, d).loss_bound(d)


def _certified_profile(noise: SymmetricNoise, eps_prime: object, digits: int,
                       sensitivity: object) -> tuple[Value, object, tuple | None]:
    check_numeric(noise)
    if sensitivity is None:
        raise DomainError("sensitivity", "is required with a SymmetricNoise")
    sens = _exact_input(sensitivity, "sensitivity")
    digits = check_digits(digits)
    eps_exact = _exact_input(eps_prime, "eps_prime")
    where: list = [None]

    def compute() -> mpmath.mpf:
        value, shift = max_hockey_stick(noise, _mp_of(sens), _mp_of(eps_exact))
        where[0] = shift
        return value

    closed = _closed_profile(noise, eps_exact, sens)
    if closed is not None:  # exact, or an Arb enclosure
        exact, enclose, shift, _ = closed
        if enclose is None:
            found = Certified.exact(exact, digits)
        else:
            found = certify_ball(enclose, digits, what="the privacy profile", within=(0, 1))
        return Value(None, None, digits, source=found), shift, closed
    number, text, coarser = agreement(compute, digits, allow_zero=True)
    return Value.from_agreement(number, text, digits, coarser), where[0], None


def _closed_profile(noise: SymmetricNoise, eps: Fraction | sp.Expr, sens: Fraction | sp.Expr
                    ) -> tuple | None:
    r"""``(exact, enclose, worst shift, parts)`` from the lattice sums
    (:func:`dpsym.privacy.lattice.lattice_profile`) or the closed forms
    (:func:`dpsym.privacy.closed_forms.from_noise`, worst shift :math:`\Delta`); None for other
    noise. ``parts``: ``(enclose, symbolic)`` pairs whose maximum is the value (one per
    shift evaluated), for :func:`_at_most`."""
    if noise.lattice:
        return lattice_profile(noise, eps, sens)
    closed = from_noise(noise, eps, sens)
    if closed is None:  # piecewise-constant densities: the same sums on the line
        return lattice_profile(noise, eps, sens)
    return closed.exact, closed.enclose, sens, [(closed.enclose, closed.symbolic)]


def _at_most(parts: list, bound: Fraction, digits: int) -> bool:
    r"""Whether the maximum of the values of ``parts`` is :math:`\le` ``bound``.

    Each part is ``(enclose, symbolic)``: its value is :math:`\le` ``bound`` once a ball
    ``enclose(bits)`` has its upper end :math:`\le` it, and above it once the lower end is,
    the precision doubling in between; after :data:`TIE_AFTER` doublings a value that still
    straddles ``bound`` is compared exactly, by sympy, when ``symbolic()`` gives its
    expression (a proven tie counts as :math:`\le`).

    Raises
    ------
    CertificationError
        If neither the balls nor sympy decide a part.
    """
    return all(_part_at_most(enclose, symbolic, bound, digits) for enclose, symbolic in parts)


def _part_at_most(enclose: Callable[[int], flint.arb], symbolic: Callable[[], sp.Expr] | None,
                  bound: Fraction, digits: int) -> bool:
    bits = int(digits * 3.33) + 32
    for attempt in range(DECIDE_ATTEMPTS):
        found = enclose(bits)
        if found.is_finite():
            with arb_workprec(bits + 64):
                target = ball(bound)
                if found <= target:
                    return True
                if found > target:
                    return False
        if attempt == TIE_AFTER and symbolic is not None:
            gap = sp.simplify(symbolic() - sp.Rational(bound.numerator, bound.denominator))
            if gap == 0:
                return True
        bits *= 2
    raise CertificationError(f"the privacy profile's enclosure was not separated from "
                             f"delta = {bound} (last precision {bits} bits)")


@exclusive
def privacy_profile(noise: SymmetricNoise, eps_prime: object, digits: int = 30, *,
                    sensitivity: object = None) -> Value:
    r"""The privacy profile :math:`\delta(\varepsilon^{\prime})` of ``noise`` at ``sensitivity``,
    certified.

    .. math:: \delta(\varepsilon^{\prime}) = \sup_{|d| \le \Delta}
              \int \bigl(f(x) - e^{\varepsilon^{\prime}} f(x + d)\bigr)_+ dx

    A mechanism instance answers the same through
    :meth:`~dpsym.mechanisms.base.Mechanism.privacy_profile`.

    Parameters
    ----------
    noise : SymmetricNoise
        A fully numeric description (e.g. ``Staircase(eps="1").numeric_noise()``).
    eps_prime : number
        :math:`\varepsilon^{\prime}` (read exactly from strings and fractions).
    digits : int
        Significant digits certified (:func:`dpsym.certified.agreement.agreement`).
    sensitivity : number
        :math:`\Delta > 0` (required; a :class:`~dpsym.errors.DomainError` without it).

    Returns
    -------
    Value
        :math:`\delta(\varepsilon^{\prime})` (``text`` is ``"0"`` when it vanishes). Lattice
        noise of constant pieces and a geometric tail (discrete Laplace, staircase and
        uniform) is summed exactly (:func:`dpsym.privacy.lattice.lattice_profile`);
        Laplace, truncated Laplace, staircase and uniform-with-atom noise with rational
        parameters, and normal noise at a rational :math:`\varepsilon^{\prime} \ge 0`, take their
        closed forms (:func:`dpsym.privacy.closed_forms.from_noise`), at a
        rational or a constant irrational :math:`\varepsilon^{\prime}` (``"log(3)"``):
        ``"exact"`` for a rational value, else an Arb enclosure; other piecewise-constant
        densities (the staircase at :math:`\varepsilon^{\prime} < 0`) by the lattice sums on the
        line. Other noise (e.g. a non-constant, non-exponential piece) is integrated
        piece by piece at two precisions (``"agreement"``).
    """
    value, _, _ = _certified_profile(noise, eps_prime, digits, sensitivity)
    return value


@dataclass(frozen=True)
class PrivacyCheck:
    r"""The verdict of :func:`is_private`.

    Attributes
    ----------
    private : bool
        Whether :math:`\delta(\varepsilon) \le \delta` (decided from the exact value or
        the enclosure; up to ``tolerance`` for noise without either).
    delta : mpmath.mpf
        The computed :math:`\delta(\varepsilon)`.
    text : str
        Its certified decimal representation.
    shift : number
        A worst shift :math:`d^*`.
    eps, target : Fraction
        The :math:`\varepsilon` and :math:`\delta` checked.
    tolerance : mpmath.mpf
        The slack allowed above ``target``: 0 when the profile is exact or enclosed,
        :math:`10^{-\text{digits} + 5}` for a profile found by agreement of precisions
        (noise that is neither lattice pieces nor one of the closed forms).
    """

    private: bool
    delta: mpmath.mpf
    text: str
    shift: object
    eps: Fraction | sp.Expr
    target: Fraction
    tolerance: mpmath.mpf

    def __bool__(self) -> bool:
        return self.private


@exclusive
def is_private(noise: SymmetricNoise, eps: object, delta: object = 0, digits: int = 30, *,
               sensitivity: object = None) -> PrivacyCheck:
    r"""Decide :math:`(\varepsilon, \delta)`-differential privacy from the exact profile.

    The noise is :math:`(\varepsilon, \delta)`-DP at ``sensitivity`` exactly when
    :math:`\delta(\varepsilon) \le \delta`. An exact profile (a rational, e.g.
    :math:`\delta(\varepsilon) = 0` for the pure :math:`\varepsilon`-DP mechanisms, or
    :math:`\delta` itself for the uniform ones) is compared exactly; an Arb enclosure
    decides it once the ball lies on one side of :math:`\delta` (upper end
    :math:`\le \delta`: private; lower end :math:`> \delta`: not), the precision doubling
    until it does (an irrational value never ties with the rational :math:`\delta`).
    Noise with neither (not lattice pieces nor a closed form) is compared with a tolerance
    of :math:`10^{-\text{digits} + 5}`. A
    mechanism instance answers the same through
    :meth:`~dpsym.mechanisms.base.Mechanism.is_private`.

    Parameters
    ----------
    noise : SymmetricNoise
        A fully numeric description.
    eps, delta : number
        The privacy parameters checked (:math:`\delta \ge 0`).
    digits : int
        Significant digits certified.
    sensitivity : number
        :math:`\Delta > 0`.

    Returns
    -------
    PrivacyCheck
        The verdict, the computed :math:`\delta(\varepsilon)` and a worst shift.
    """
    digits = check_digits(digits)
    allowed = parse_number(delta, "delta")
    if allowed < 0:
        raise DomainError("delta", f"must be >= 0, got {allowed}")
    eps_exact = _exact_input(eps, "eps")
    value, shift, closed = _certified_profile(noise, eps_exact, digits, sensitivity)
    if closed is not None:
        exact, enclose, _, parts = closed
        verdict = exact <= allowed if enclose is None else _at_most(parts, allowed, digits)
        return PrivacyCheck(bool(verdict), value.number, value.text, shift, eps_exact, allowed,
                            mpmath.mpf(0))
    with workdps(digits + 10):
        tolerance = mpmath.mpf(10) ** (5 - digits)
        verdict = bool(value.number <= to_mpf(allowed) + tolerance)
    return PrivacyCheck(verdict, value.number, value.text, shift, eps_exact, allowed, tolerance)
