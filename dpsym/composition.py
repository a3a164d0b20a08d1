r"""Tight composition: the privacy profile :math:`\delta(\varepsilon')` after :math:`k`-fold
(and heterogeneous) composition, from the exact privacy-loss laws.

For a mechanism with noise :math:`f` and a shift :math:`d`, the privacy loss
:math:`L = \log f(X)/f(X + d)`, :math:`X \sim f`, determines the hockey-stick divergence
:math:`\delta(\varepsilon') = \mathbb{E}[(1 - e^{\varepsilon' - L})_+]` (with
:math:`L = +\infty` contributing 1). For independent releases the losses add, so the
composed profile is the same expectation for the sum of independent losses; because every
pair here is symmetric (the reflection :math:`x \mapsto -x - d` swaps the noise and its
shift), the direction of each shift does not matter.

**The worst shift under composition.** For a log-concave noise every hockey-stick
divergence is nondecreasing in :math:`|d|` (:mod:`dpsym.privacy`), so the pair at
:math:`d = \Delta` dominates every other pair in the sense of Blackwell (their
trade-off curves are ordered), and by post-processing so does any composition containing
it: :math:`d = \Delta`. For the staircase family the loss at every shift lies in
:math:`\{-\varepsilon, 0, \varepsilon\}` (the level of the staircase changes by at most one
over a shift of at most :math:`\Delta`), plus :math:`+\infty` for a point mass. Such a law
is fixed by :math:`p = P(L = \varepsilon)` and :math:`p_\infty` (a symmetric pair has
:math:`P(L = -\varepsilon) = e^{-\varepsilon} p`), and is the mixture of a randomised
response, a disjoint pair and an identical pair; a shift with the largest :math:`p` and
:math:`p_\infty` dominates, and is found among the candidate shifts of
:mod:`dpsym.renyi`.

**Exact values.** When every loss lies on one lattice :math:`g\mathbb{Z}` (the staircase,
discrete staircase, discrete Laplace and uniform mechanisms, and any mixture of them with
commensurable :math:`g`), the composed law is a product of Laurent polynomials computed
exactly in Arb balls (python-flint's ``arb_poly``) and :math:`\delta(\varepsilon')` is
certified. The Gaussian's loss is normal, :math:`N(\mu, 2\mu)` with
:math:`\mu = \Delta^2/(2\sigma^2)`; Gaussians compose in closed form.

**Bounds.** Otherwise (Laplace, truncated Laplace, a Gaussian among others) the loss is
rounded to the grid :math:`h\mathbb{Z}`: up (pessimistic) and down (optimistic). Since
:math:`\delta(\varepsilon')` is nondecreasing in every loss value, the rounded-up law gives
an upper bound and the rounded-down law a lower bound of the composed profile; both are
computed in Arb balls (rigorous, outward) and differ by :math:`O(kh)`, converging as
:math:`h \to 0`.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction

import flint
import sympy as sp

from .costs import Cost
from .errors import DomainError, UnsupportedError
from .mechanisms import Mechanism
from .numerics import check_digits
from .params import parse_exact, parse_number
from .precision import arb_workprec, exclusive
from .privacy_loss import (
    LossLaw,
    Unrolled,
    arb_of,
    certify,
    exact_sym,
    loss_law,
    outward,
    piece_bins,
    sort_key,
)
from .renyi import MAX_SHIFTS, gaussian_sigma2, is_gaussian, is_log_concave, one_dimensional

__all__ = ["MAX_COUNT", "MAX_DEGREE", "Component", "Composed", "component", "component_bins",
           "compose", "compose_epsilon", "parse_count", "parse_interval"]

#: Largest number of compositions.
MAX_COUNT = 100_000
#: Largest degree of the composed (grid) loss polynomial.
MAX_DEGREE = 2_000_000
#: The default discretisation interval of a continuous loss.
DEFAULT_INTERVAL = Fraction(1, 1000)
_BITS = 3.3219280948873626


def parse_count(value: object) -> int:
    """A composition count: an integer in ``[1, MAX_COUNT]``."""
    text = str(value).strip()
    valid = f"must be an integer in [1, {MAX_COUNT}]"
    if isinstance(value, bool) or not (text.isascii() and text.lstrip("+").isdigit()):
        raise DomainError("count", f"{valid}, got {text[:40]!r}")
    count = int(text)
    if not 1 <= count <= MAX_COUNT:
        raise DomainError("count", f"{valid}, got {count}")
    return count


def _nonneg_number(value: object, name: str) -> sp.Expr:
    """An exact number >= 0 (rational, or an exact expression such as ``log(3)``)."""
    number = exact_sym(parse_exact(value, name))
    if sort_key(number) < 0:
        raise DomainError(name, f"must be >= 0, got {str(number)[:40]}")
    return number


def parse_interval(value: object) -> sp.Expr:
    """The discretisation interval :math:`h`, a rational in ``(0, 1]``."""
    number = parse_number(value, "interval")
    if not 0 < number <= 1 or number < Fraction(1, 10**9):
        raise DomainError("interval", f"must be in [1e-9, 1], got {number}")
    return sp.Rational(number.numerator, number.denominator)


# ---------------------------------------------------------------------------- components
@dataclass(frozen=True)
class Component:
    r"""One mechanism's privacy-loss law at its worst shift.

    ``law`` for a noise with pieces :math:`C e^{rx}`; ``mu`` (:math:`\Delta^2/(2\sigma^2)`)
    for a Gaussian, whose loss is :math:`N(\mu, 2\mu)`.
    """

    name: str
    shift: sp.Expr
    law: LossLaw | None = None
    mu: sp.Expr | None = None

    @property
    def gaussian(self) -> bool:
        return self.mu is not None


@exclusive
def component(mechanism: Mechanism, cost: Cost | str = "amplitude", digits: int = 30, *,
              free_value: object = None) -> Component:
    """The privacy-loss law of ``mechanism`` at its worst shift under composition
    (module docstring); the free parameter is the optimum for ``cost`` (certified to
    ``digits + 10`` digits and read back exactly) or ``free_value``."""
    if "dim" in mechanism.values and int(mechanism.values["dim"]) > 1:
        raise UnsupportedError(f"{mechanism.name}: composition is derived for "
                               "one-dimensional noise; the worst shift of a product under "
                               "composition is not")
    reduced = one_dimensional(mechanism, composition=True)
    if isinstance(reduced, str):
        raise UnsupportedError(f"{mechanism.name}: {reduced}")
    mechanism = reduced
    mechanism.require(*(prm.name for prm in mechanism.params))
    sens = exact_sym(mechanism.values["Delta"])
    if is_gaussian(mechanism):
        return Component(mechanism.name, sens, mu=sens**2 / (2 * gaussian_sigma2(mechanism,
                                                                                  digits)))
    noise = mechanism.numeric_noise(cost, free_value, digits + 10)
    unrolled = Unrolled(noise, sens)
    if noise.atom == 0 and is_log_concave(noise):
        return Component(mechanism.name, sens, law=loss_law(unrolled, sens))
    shifts = unrolled.candidate_shifts(sens)
    if len(shifts) > MAX_SHIFTS:
        raise UnsupportedError(f"more than {MAX_SHIFTS} candidate shifts to evaluate")
    laws = [(d, loss_law(unrolled, d)) for d in shifts]
    return Component(mechanism.name, *_dominant(mechanism.name, laws))


def _dominant(name: str, laws: list[tuple[sp.Expr, LossLaw]]) -> tuple[sp.Expr, LossLaw]:
    """The shift whose three-point law dominates the others (module docstring)."""
    g = None
    scores = []
    with arb_workprec(128):
        for d, law in laws:
            if law.pieces:
                raise UnsupportedError(f"{name}: no dominating worst shift is derived")
            top = flint.arb(0)
            for loss, mass in law.atom_masses():
                if loss == 0:
                    continue
                if g is None:
                    g = abs(loss)
                if abs(loss) != g:
                    raise UnsupportedError(f"{name}: no dominating worst shift is derived "
                                           "(losses beyond three values)")
                if loss > 0:
                    top = mass
            scores.append((float(top.mid()), float(law.infinite_mass().mid()), d, law))
    best = max(scores, key=lambda s: (s[0] + s[1], sort_key(s[2])))
    tol = 1e-12
    for s in scores:
        if s[0] > best[0] + tol or s[1] > best[1] + tol:
            raise UnsupportedError(f"{name}: the laws at the candidate shifts are not "
                                   "ordered; no dominating worst shift")
    return best[2], best[3]


# ---------------------------------------------------------------------------- lattices
def _generator(components: list[Component]) -> sp.Expr | None:
    """A common lattice step :math:`g` of every finite loss, or None."""
    losses = []
    for comp in components:
        if comp.gaussian or comp.law is None or comp.law.pieces:
            return None
        losses += [loss for loss in comp.law.atoms if loss != 0]
    if not losses:
        return sp.Integer(1)
    g0 = min((abs(v) for v in losses), key=sort_key)
    num, den = 0, 1
    for v in losses:
        ratio = sp.nsimplify(v / g0) if not (v / g0).is_Rational else v / g0
        if not ratio.is_Rational or sp.simplify(v / g0 - ratio) != 0:
            return None
        num = math.gcd(num, abs(int(ratio.p)))
        den = den * int(ratio.q) // math.gcd(den, int(ratio.q))
    return g0 * sp.Rational(num, den)


def _poly(masses: dict[int, flint.arb]) -> tuple[int, flint.arb_poly]:
    lo = min(masses)
    hi = max(masses)
    coeffs = [flint.arb(0)] * (hi - lo + 1)
    for j, m in masses.items():
        coeffs[j - lo] = coeffs[j - lo] + m
    return lo, flint.arb_poly(coeffs)


def _power(parts: list[tuple[int, flint.arb_poly, int]]) -> tuple[int, flint.arb_poly]:
    offset, poly = 0, flint.arb_poly([1])
    degree = 0
    for lo, p, count in parts:
        degree += p.degree() * count
        if degree > MAX_DEGREE:
            raise UnsupportedError(f"the composed loss has more than {MAX_DEGREE} grid "
                                   "points; use a larger --interval or fewer compositions")
        offset += lo * count
        poly = poly * (p**count)
    return offset, poly


def _infinite_total(parts: list[tuple[flint.arb, int]]) -> flint.arb:
    r""":math:`1 - \prod (1 - p_i)^{k_i}` without cancellation."""
    total = flint.arb(0)
    for p, count in parts:
        if p.is_zero():
            continue
        total += count * (-p).log1p()
    return -total.expm1()


def _delta(offset: int, poly: flint.arb_poly, step: flint.arb, p_inf: flint.arb,
           eps_target: sp.Expr, step_exact: sp.Expr) -> flint.arb:
    r""":math:`p_\infty + \sum_m c_m (1 - e^{\varepsilon' - (m + o)g})_+`."""
    start = int(sp.floor(eps_target / step_exact)) + 1 - offset
    coeffs = poly.coeffs()
    start = max(start, 0)
    if start >= len(coeffs):
        return p_inf
    tail = flint.arb_poly(coeffs[start:])
    e = arb_of(eps_target)
    z = (-step).exp()
    base = (start + offset) * step
    # sum c_m - e^{eps'} sum c_m e^{-m g}, m >= start
    value = tail(flint.arb(1)) - (e - base).exp() * tail(z)
    if not value >= 0:
        value = flint.arb(0).union(flint.arb(value.upper())) if value.upper() >= 0 \
            else flint.arb(0)
    return p_inf + value


# ---------------------------------------------------------------------------- results
@dataclass(frozen=True)
class Composed:
    r"""The composed privacy profile at one :math:`\varepsilon'` (or the
    :math:`\varepsilon'` of one :math:`\delta`).

    ``exact`` results have ``text`` (certified digits); bounds have ``lower`` and
    ``upper`` (rigorous, rounded outward) and the discretisation ``interval``.
    """

    exact: bool
    text: str | None = None
    lower: str | None = None
    upper: str | None = None
    interval: str | None = None
    method: str = ""
    shifts: tuple[str, ...] = ()


def _components(items: list[tuple[Component, int]]) -> list[tuple[Component, int]]:
    if not items:
        raise DomainError("mechanisms", "give at least one mechanism to compose")
    out = []
    for comp, count in items:
        out.append((comp, parse_count(count)))
    return out


@exclusive
def compose(items: list[tuple[Component, int]], eps_target: object, digits: int = 10, *,
            interval: object = DEFAULT_INTERVAL) -> Composed:
    r"""The privacy profile :math:`\delta(\varepsilon')` of the composition of ``count``
    copies of each component (heterogeneous allowed).

    Parameters
    ----------
    items : list of (Component, int)
        The loss laws (:func:`component`) and how many times each is composed.
    eps_target : number
        :math:`\varepsilon' \ge 0`.
    digits : int
        Significant digits (certified for exact results; bounds are rounded outward).
    interval : number
        The grid :math:`h` of the bounds for continuous losses.

    Returns
    -------
    Composed
        Exact (lattice losses, Gaussians) or lower and upper bounds.
    """
    items = _components(items)
    target = _nonneg_number(eps_target, "eps_target")
    digits = check_digits(digits)
    h = parse_interval(interval)
    comps = [c for c, _ in items]
    shifts = tuple(str(c.shift) for c in comps)
    if all(c.gaussian for c in comps):
        mu = sum((c.mu * k for c, k in items), sp.Integer(0))
        _, text = certify(lambda prec: _gaussian_delta(arb_of(mu), arb_of(target)),
                          digits, allow_zero=True)
        return Composed(True, text=text, method="gaussian closed form", shifts=shifts)
    g = _generator(comps)
    if g is not None:
        def enclose(prec: int) -> flint.arb:
            offset, poly, p_inf = _lattice(items, g)
            return _delta(offset, poly, arb_of(g), p_inf, target, g)

        _number, text = certify(enclose, digits, allow_zero=True)
        return Composed(True, text=text, method="exact lattice convolution", shifts=shifts)
    prec = int(digits * _BITS) + 96
    with arb_workprec(prec):
        bounds = []
        for up in (False, True):
            offset, poly, p_inf = _grid(items, h, up)
            bounds.append(_delta(offset, poly, arb_of(h), p_inf, target, h))
        lo, _ = outward(bounds[0], digits)
        _, hi = outward(bounds[1], digits)
    return Composed(False, lower=lo, upper=hi, interval=str(h), method="discretised loss",
                    shifts=shifts)


def _lattice(items, g) -> tuple[int, flint.arb_poly, flint.arb]:
    parts, infs = [], []
    for comp, count in items:
        masses: dict[int, flint.arb] = {}
        for loss, mass in comp.law.atom_masses():
            m = sp.simplify(loss / g)
            if not m.is_Integer:
                raise UnsupportedError("a loss off the lattice")  # not reached
            masses[int(m)] = masses.get(int(m), flint.arb(0)) + mass
        if not masses:
            masses[0] = flint.arb(0)
        lo, poly = _poly(masses)
        parts.append((lo, poly, count))
        infs.append((comp.law.infinite_mass(), count))
    offset, poly = _power(parts)
    return offset, poly, _infinite_total(infs)


def component_bins(comp: Component, h: sp.Expr, up: bool
                   ) -> tuple[dict[int, flint.arb], flint.arb]:
    r"""The loss of ``comp`` rounded up (``up``) or down to the grid :math:`h\mathbb{Z}`:
    the mass of each multiple :math:`jh` and of :math:`+\infty`, as balls at the current
    Arb precision."""
    hb = arb_of(h)
    masses: dict[int, flint.arb] = {}
    if comp.gaussian:
        return _gaussian_bins(comp.mu, h, up)
    for loss, mass in comp.law.atom_masses():
        j = int(sp.ceiling(loss / h)) if up else int(sp.floor(loss / h))
        masses[j] = masses.get(j, flint.arb(0)) + mass
    for iv in comp.law.pieces:
        for j, mass in piece_bins(iv, hb, h, up).items():
            masses[j] = masses.get(j, flint.arb(0)) + mass
    return masses, comp.law.infinite_mass()


def _grid(items, h: sp.Expr, up: bool) -> tuple[int, flint.arb_poly, flint.arb]:
    parts, infs = [], []
    for comp, count in items:
        masses, p_inf = component_bins(comp, h, up)
        if not masses:
            masses[0] = flint.arb(0)
        lo, poly = _poly(masses)
        parts.append((lo, poly, count))
        infs.append((p_inf, count))
    offset, poly = _power(parts)
    return offset, poly, _infinite_total(infs)


# ---------------------------------------------------------------------------- gaussian
def _phi(z: flint.arb) -> flint.arb:
    return (-z / flint.arb(2).sqrt()).erfc() / 2


def _gaussian_delta(mu: flint.arb, e: flint.arb) -> flint.arb:
    r""":math:`\Phi(\mu/s - \varepsilon'/s) - e^{\varepsilon'}\Phi(-\mu/s - \varepsilon'/s)`,
    :math:`s = \sqrt{2\mu}`: the profile of the loss :math:`N(\mu, 2\mu)`."""
    s = (2 * mu).sqrt()
    return _phi((mu - e) / s) - e.exp() * _phi((-mu - e) / s)


def _gaussian_bins(mu_exact: sp.Expr, h: sp.Expr, up: bool
                   ) -> tuple[dict[int, flint.arb], flint.arb]:
    r"""The loss :math:`N(\\mu, 2\\mu)` binned on :math:`h\\mathbb{Z}` (truncated at 14
    standard deviations: the mass beyond goes to :math:`+\\infty` or to the last bin, up;
    to the last bin or nowhere, down)."""
    mu = arb_of(mu_exact)
    s = (2 * mu).sqrt()
    hf = float(h)
    muf, sf = float(mu.mid()), float(s.mid())
    j_lo = math.floor((muf - 14 * sf) / hf)
    j_hi = math.ceil((muf + 14 * sf) / hf)
    if j_hi - j_lo > MAX_DEGREE:
        raise UnsupportedError("too many grid points for the Gaussian loss; use a larger "
                               "--interval")
    hb = arb_of(h)
    cdf = [_phi((j * hb - mu) / s) for j in range(j_lo, j_hi + 1)]
    masses: dict[int, flint.arb] = {}
    for i in range(len(cdf) - 1):
        j = j_lo + i  # the loss in (j h, (j + 1) h]
        mass = cdf[i + 1] - cdf[i]
        key = j + 1 if up else j
        masses[key] = mass
    below, above = cdf[0], 1 - cdf[-1]
    if up:
        masses[j_lo] = masses.get(j_lo, flint.arb(0)) + below
        return masses, above
    masses[j_hi] = masses.get(j_hi, flint.arb(0)) + above
    return masses, flint.arb(0)


# ---------------------------------------------------------------------------- inverse
@exclusive
def compose_epsilon(items: list[tuple[Component, int]], delta_target: object,
                    digits: int = 10, *, interval: object = DEFAULT_INTERVAL) -> Composed:
    r"""The smallest :math:`\varepsilon' \ge 0` with composed
    :math:`\delta(\varepsilon') \le \delta` (``"inf"`` when even
    :math:`\varepsilon' \to \infty` leaves more than :math:`\delta`: the probability of an
    infinite loss)."""
    items = _components(items)
    target_exact = _nonneg_number(delta_target, "delta_target")
    if target_exact > 1:
        raise DomainError("delta_target", f"must be in [0, 1], got {target_exact}")
    digits = check_digits(digits)
    h = parse_interval(interval)
    comps = [c for c, _ in items]
    shifts = tuple(str(c.shift) for c in comps)
    if all(c.gaussian for c in comps):
        mu = sum((c.mu * k for c, k in items), sp.Integer(0))
        text = _gaussian_inverse(mu, target_exact, digits)
        return Composed(True, text=text, method="gaussian closed form", shifts=shifts)
    g = _generator(comps)
    if g is not None:
        def enclose(prec: int) -> flint.arb:
            offset, poly, p_inf = _lattice(items, g)
            return _invert(offset, poly, arb_of(g), p_inf, arb_of(target_exact))

        try:
            _, text = certify(enclose, digits, allow_zero=True)
        except _Infinite:
            text = "inf"
        return Composed(True, text=text, method="exact lattice convolution", shifts=shifts)
    prec = int(digits * _BITS) + 96
    out = []
    with arb_workprec(prec):
        for up in (False, True):
            offset, poly, p_inf = _grid(items, h, up)
            try:
                ball = _invert(offset, poly, arb_of(h), p_inf, arb_of(target_exact))
                out.append(outward(ball, digits)[1 if up else 0])
            except _Infinite:
                out.append("inf")
    return Composed(False, lower=out[0], upper=out[1], interval=str(h),
                    method="discretised loss", shifts=shifts)


class _Infinite(Exception):
    """The target is below the probability of an infinite loss."""


def _invert(offset: int, poly: flint.arb_poly, step: flint.arb, p_inf: flint.arb,
            target: flint.arb) -> flint.arb:
    r"""Solve :math:`\delta(\varepsilon') = \delta` on the lattice law (each piece of
    :math:`\delta` between consecutive losses is :math:`A - B e^{\varepsilon'}`)."""
    if p_inf > target:
        raise _Infinite
    coeffs = poly.coeffs()
    n = len(coeffs)
    # suffix sums A_j = p_inf + sum_{m >= j} c_m, B_j = sum_{m >= j} c_m e^{-L_m}
    a_suffix = [flint.arb(0)] * (n + 1)
    b_suffix = [flint.arb(0)] * (n + 1)
    a_suffix[n] = p_inf
    for i in range(n - 1, -1, -1):
        loss = (i + offset) * step
        a_suffix[i] = a_suffix[i + 1] + coeffs[i]
        b_suffix[i] = b_suffix[i + 1] + coeffs[i] * (-loss).exp()
    zero = flint.arb(0)

    def delta_at(e: flint.arb) -> flint.arb:  # first index with loss > e
        i = max(0, min(n, math.floor(float((e / step).mid())) - offset + 1))
        return a_suffix[i] - e.exp() * b_suffix[i], i

    d0, _ = delta_at(zero)
    if not d0 > target:
        return zero
    # the loss values L_i > 0: find the last i with delta(L_i) > target
    lo_i = max(0, -offset)
    for i in range(max(lo_i, 0), n):
        loss = (i + offset) * step
        if not loss > 0:
            continue
        d = a_suffix[i + 1] - loss.exp() * b_suffix[i + 1]
        if not d > target:
            # the solution lies in (L_{i-1}, L_i]: delta = A_i - B_i e^{eps}
            return ((a_suffix[i] - target) / b_suffix[i]).log()
    raise _Infinite


def _gaussian_inverse(mu: sp.Expr, target: sp.Expr, digits: int) -> str:
    if target == 0:
        return "inf"

    def enclose(prec: int) -> flint.arb:
        m, t = arb_of(mu), arb_of(target)
        if not _gaussian_delta(m, flint.arb(0)) > t:
            return flint.arb(0)
        lo, hi = flint.arb(0), flint.arb(1)
        while _gaussian_delta(m, hi) > t:
            hi *= 2
        for _ in range(prec + 8):  # bisection to the working precision
            mid = (lo + hi) / 2
            mid = flint.arb(mid.mid())
            if _gaussian_delta(m, mid) > t:
                lo = mid
            else:
                hi = mid
        return flint.arb(lo).union(flint.arb(hi))

    return certify(enclose, digits, allow_zero=True)[1]
