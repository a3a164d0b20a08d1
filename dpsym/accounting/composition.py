r"""Tight composition: the privacy profile :math:`\delta(\varepsilon^{\prime})` after :math:`k`-fold
(and heterogeneous) composition, from the exact privacy-loss laws.

For a mechanism with noise :math:`f` and a shift :math:`d`, the privacy loss
:math:`L = \log f(X)/f(X + d)`, :math:`X \sim f`, determines the hockey-stick divergence
:math:`\delta(\varepsilon^{\prime}) = \mathbb{E}[(1 - e^{\varepsilon^{\prime} - L})_+]` (with
:math:`L = +\infty` contributing 1). For independent releases the losses add, so the
composed profile is the same expectation for the sum of independent losses; because every
pair here is symmetric (the reflection :math:`x \mapsto -x - d` swaps the noise and its
shift), the direction of each shift does not matter.

**The worst shift under composition.** For a log-concave noise every hockey-stick
divergence is nondecreasing in :math:`|d|` (:mod:`dpsym.privacy.profiles`), so the pair at
:math:`d = \Delta` dominates every other pair in the sense of Blackwell (their
trade-off curves are ordered), and by post-processing so does any composition containing
it: :math:`d = \Delta`. For the staircase family the loss at every shift lies in
:math:`\{-\varepsilon, 0, \varepsilon\}` (the level of the staircase changes by at most one
over a shift of at most :math:`\Delta`), plus :math:`+\infty` for a point mass. Such a law
is fixed by :math:`p = P(L = \varepsilon)` and :math:`p_\infty` (a symmetric pair has
:math:`P(L = -\varepsilon) = e^{-\varepsilon} p`), and is the mixture of a randomised
response, a disjoint pair and an identical pair; a shift with the largest :math:`p` and
:math:`p_\infty` dominates, and is found among the candidate shifts of
:mod:`dpsym.accounting.renyi`.

**Exact values.** When every loss lies on one lattice :math:`g\mathbb{Z}` (the staircase,
discrete staircase, discrete Laplace and uniform mechanisms, and any mixture of them with
commensurable :math:`g`), the composed law is a product of Laurent polynomials computed
exactly in Arb balls (python-flint's ``arb_poly``) and :math:`\delta(\varepsilon^{\prime})` is
certified. The Gaussian's loss is normal, :math:`N(\mu, 2\mu)` with
:math:`\mu = \Delta^2/(2\sigma^2)`; Gaussians compose in closed form.

**Bounds.** Otherwise (Laplace, truncated Laplace, a Gaussian among others) the loss law
is replaced by two laws on a grid :math:`h\mathbb{Z}`: that of a pair which dominates the
mechanism's pair ("connect the dots": the outcomes with loss in :math:`[jh, (j+1)h]`
become two atoms at its ends with the same :math:`P`- and :math:`Q`-masses, of which the
bin is a post-processing) and that of a pair it dominates (the outcomes of each loss bin
merged into one atom, a post-processing, whose loss is rounded down to the grid; for
Laplace noise the merged loss is the bin's midpoint, so bins centred on the grid merge
exactly onto it), :func:`dpsym.privacy.loss.piece_bins`. Domination is preserved by
composition, so the two composed profiles are an upper and a lower bound, computed in
Arb balls (rigorous, rounded outward); for Laplace noise both err to second order in
:math:`h`, whatever the count (no loss is rounded). The grid (:func:`grid_interval`) is
a divisor :math:`g/N` of the atoms' common step (the atoms stay on it), at most the
requested interval, and coarsened as the count grows so that the composed law spans at
most :data:`GRID_POINTS` points (1000 Laplace releases compose in seconds); after each
product, tails of negligible mass are moved the safe way (:func:`_trim`).

**The inverse.** :func:`compose_epsilon` gives the smallest :math:`\varepsilon^{\prime}` with
:math:`\delta(\varepsilon^{\prime}) \le \delta`, always rounded in the safe direction: an exact
value *up* to its digits (so that the printed :math:`\varepsilon^{\prime}` meets the target), the
bounds outward.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction

import flint
import mpmath
import sympy as sp

from dpsym.accounting.renyi import (
    MAX_SHIFTS,
    gaussian_sigma2,
    is_gaussian,
    is_log_concave,
    one_dimensional,
)
from dpsym.certified.rounding import check_digits
from dpsym.core.costs import Cost
from dpsym.core.params import parse_exact, parse_number
from dpsym.errors import DomainError, UnsupportedError
from dpsym.gaussian.loss import MAX_DEGREE, gaussian_bins, gaussian_delta, gaussian_inverse
from dpsym.mechanisms import Mechanism
from dpsym.precision import arb_workprec, exclusive
from dpsym.privacy.loss import (
    LossLaw,
    Unrolled,
    arb_of,
    certify,
    certify_directed,
    exact_sym,
    loss_law,
    nonneg,
    outward,
    piece_bins,
    sort_key,
)

__all__ = ["GRID_POINTS", "MAX_COUNT", "MAX_DEGREE", "Component", "Composed", "component",
           "component_bins", "compose", "compose_epsilon", "grid_interval", "merge_gaussians",
           "parse_count", "parse_interval"]

#: Largest number of compositions.
MAX_COUNT = 100_000
#: Largest degree of the composed (grid) loss polynomial.
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
    return _common_step(losses) if losses else sp.Integer(1)


def _common_step(losses: list[sp.Expr]) -> sp.Expr | None:
    r"""The largest :math:`g` with every (nonzero) loss in :math:`g\mathbb{Z}`, or None."""
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
    r""":math:`p_\infty + \sum_m c_m (1 - e^{\varepsilon^{\prime} - (m + o)g})_+`."""
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
    r"""The composed privacy profile at one :math:`\varepsilon^{\prime}` (or the
    :math:`\varepsilon^{\prime}` of one :math:`\delta`).

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
    r"""The privacy profile :math:`\delta(\varepsilon^{\prime})` of the composition of ``count``
    copies of each component (heterogeneous allowed).

    Parameters
    ----------
    items : list of (Component, int)
        The loss laws (:func:`component`) and how many times each is composed.
    eps_target : number
        :math:`\varepsilon^{\prime} \ge 0`.
    digits : int
        Significant digits (certified for exact results; bounds are rounded outward).
    interval : number
        The finest grid :math:`h` of the bounds for continuous losses (the grid used,
        :func:`grid_interval`, is reported in the result).

    Returns
    -------
    Composed
        Exact (lattice losses, Gaussians; certified digits, rounded to nearest) or lower
        and upper bounds (rounded outward).
    """
    items = _components(items)
    target = _nonneg_number(eps_target, "eps_target")
    digits = check_digits(digits)
    h = parse_interval(interval)
    comps = [c for c, _ in items]
    shifts = tuple(str(c.shift) for c in comps)
    if all(c.gaussian for c in comps):
        mu = sum((c.mu * k for c, k in items), sp.Integer(0))
        _, text = certify(lambda prec: gaussian_delta(arb_of(mu), arb_of(target)),
                          digits, allow_zero=True)
        return Composed(True, text=text, method="gaussian closed form", shifts=shifts)
    g = _generator(comps)
    if g is not None:
        def enclose(prec: int) -> flint.arb:
            offset, poly, p_inf = _lattice(items, g)
            return _delta(offset, poly, arb_of(g), p_inf, target, g)

        _number, text = certify(enclose, digits, allow_zero=True)
        return Composed(True, text=text, method="exact lattice convolution", shifts=shifts)
    items = merge_gaussians(items)
    h = grid_interval(items, h)
    prec = int(digits * _BITS) + 96
    with arb_workprec(prec):
        bounds = []
        for up in (False, True):
            offset, poly, p_inf = _grid(items, h, up)
            bounds.append(nonneg(_delta(offset, poly, arb_of(h), p_inf, target, h)))
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
    r"""The loss law of ``comp`` on the grid :math:`h\mathbb{Z}`, as the law of a pair
    that dominates the component's (``up``) or is dominated by it: the mass of each
    multiple :math:`jh` and of :math:`+\infty`, as balls at the current Arb precision.

    An atom off the grid is split between its two neighbours with the same :math:`P`- and
    :math:`Q`-masses (``up``: "connect the dots", a dominating pair) or moved down to the
    grid; the continuous pieces as :func:`dpsym.privacy.loss.piece_bins`; the Gaussian's
    loss as :func:`dpsym.gaussian.loss.gaussian_bins`."""
    hb = arb_of(h)
    masses: dict[int, flint.arb] = {}
    if comp.gaussian:
        return gaussian_bins(comp.mu, h, up)

    def add(j: int, mass: flint.arb) -> None:
        masses[j] = masses.get(j, flint.arb(0)) + mass

    z = (-hb).exp()
    for loss, mass in comp.law.atom_masses():
        ratio = sp.sympify(loss / h)
        j = int(sp.floor(ratio))
        if ratio.is_Integer or not up or sp.simplify(ratio - j) == 0:
            add(j, mass)
            continue
        # P-masses m_j + m_{j+1} = m, Q-masses m_j e^{-jh} + m_{j+1} e^{-(j+1)h} = m e^{-loss}
        upper = mass * nonneg((j * hb - arb_of(loss)).expm1() / (z - 1))
        add(j + 1, upper)
        add(j, nonneg(mass - upper))
    for iv in comp.law.pieces:
        for j, mass in piece_bins(iv, hb, h, up).items():
            add(j, mass)
    return masses, comp.law.infinite_mass()


@dataclass
class _GridLaw:
    r"""A loss law on a grid: the masses of :math:`(\mathrm{offset} + i)h` (the
    coefficients of ``poly``) and of :math:`+\infty`."""

    offset: int
    poly: flint.arb_poly
    infinite: flint.arb

    def total(self) -> flint.arb:
        return self.poly(flint.arb(1))


def _times(x: _GridLaw, y: _GridLaw, up: bool, tol: flint.arb) -> _GridLaw:
    r"""The law of the sum of independent losses, its negligible tails trimmed
    (:func:`_trim`). An infinite loss plus a finite one is infinite: the infinite mass is
    :math:`i_x (m_y + i_y) + m_x i_y` (finite masses :math:`m`; a mass trimmed to
    :math:`-\infty` by the lower bound stays there, the lower side)."""
    if x.poly.degree() + y.poly.degree() > MAX_DEGREE:
        raise UnsupportedError(f"the composed loss has more than {MAX_DEGREE} grid "
                               "points; use a larger --interval or fewer compositions")
    mx, my = x.total(), y.total()
    infinite = x.infinite * (my + y.infinite) + mx * y.infinite
    return _trim(_GridLaw(x.offset + y.offset, x.poly * y.poly, infinite), up, tol)


def _trim(law: _GridLaw, up: bool, tol: flint.arb) -> _GridLaw:
    r"""The law with its tails of mass below ``tol`` moved, so that the composed degree
    stays near the width of the law's bulk: for an upper bound the low tail moves up to
    the first kept point and the high tail to :math:`+\infty`; for a lower bound the low
    tail to :math:`-\infty` (dropped) and the high tail down to the last kept point.
    Either move is monotone in every loss, so the bound stays a bound."""
    coeffs = law.poly.coeffs()
    n = len(coeffs)
    if n < 64:
        return law
    lo, low = 0, flint.arb(0)
    while lo < n - 1:
        nxt = low + coeffs[lo]
        if not nxt < tol:
            break
        low, lo = nxt, lo + 1
    hi, high = n - 1, flint.arb(0)
    while hi > lo:
        nxt = high + coeffs[hi]
        if not nxt < tol:
            break
        high, hi = nxt, hi - 1
    if lo == 0 and hi == n - 1:
        return law
    kept = coeffs[lo:hi + 1]
    infinite = law.infinite
    if up:
        kept[0] = kept[0] + low
        infinite = infinite + high
    else:
        kept[-1] = kept[-1] + high
    return _GridLaw(law.offset + lo, flint.arb_poly(kept), infinite)


def _grid(items, h: sp.Expr, up: bool) -> tuple[int, flint.arb_poly, flint.arb]:
    r"""The composed law on the grid :math:`h\mathbb{Z}` (``up``: of a dominating pair,
    else of a dominated one), by binary powering with tails below
    :math:`2^{-\mathrm{prec} - 16}` trimmed after each product."""
    tol = flint.arb(2) ** -(flint.ctx.prec + 16)
    result: _GridLaw | None = None
    for comp, count in items:
        masses, p_inf = component_bins(comp, h, up)
        if not masses:
            masses[0] = flint.arb(0)
        lo, poly = _poly(masses)
        base = _trim(_GridLaw(lo, poly, p_inf), up, tol)
        power: _GridLaw | None = None
        while count:
            if count & 1:
                power = base if power is None else _times(power, base, up, tol)
            count >>= 1
            if count:
                base = _times(base, base, up, tol)
        result = power if result is None else _times(result, power, up, tol)
    return result.offset, result.poly, result.infinite


#: Largest number of points of the composed grid law (before its tails are trimmed) for
#: which the requested interval is kept; beyond, the interval is coarsened.
GRID_POINTS = 2**17


def merge_gaussians(items: list[tuple[Component, int]]) -> list[tuple[Component, int]]:
    r"""``items`` with every Gaussian component replaced by one: the sum of independent
    normal losses :math:`N(\mu_i, 2\mu_i)` is :math:`N(\mu, 2\mu)`,
    :math:`\mu = \sum k_i \mu_i`, exactly (so it is put on the grid once)."""
    gaussians = [(c, k) for c, k in items if c.gaussian]
    if (len(gaussians) == 1 and gaussians[0][1] == 1) or not gaussians:
        return items
    mu = sum((c.mu * k for c, k in gaussians), sp.Integer(0))
    merged = Component("+".join(sorted({c.name for c, _ in gaussians})), gaussians[0][0].shift,
                       mu=mu)
    return [(c, k) for c, k in items if not c.gaussian] + [(merged, 1)]


def grid_interval(items: list[tuple[Component, int]], interval: object) -> sp.Expr:
    r"""The grid :math:`h` of the bounds: at most ``interval``, a divisor :math:`g/N` of
    the atoms' common step :math:`g` when there is one (then the atoms lie on the grid and
    the lower bound does not move them), and coarsened when the composed law would span
    more than :data:`GRID_POINTS` points: :math:`\sum_i k_i\,\mathrm{span}_i / h \le`
    :data:`GRID_POINTS` (so that :math:`k = 1000` Laplace releases compose in seconds;
    the bounds' gap grows with :math:`h` only to second order for Laplace noise,
    :func:`dpsym.privacy.loss.piece_bins`)."""
    h = parse_interval(interval)
    atoms: list[sp.Expr] = []
    span = sp.Integer(0)
    for comp, count in items:
        if comp.gaussian:
            span += count * 28 * sp.sqrt(2 * comp.mu)
            continue
        ends = [loss for loss in comp.law.atoms]
        atoms += [loss for loss in comp.law.atoms if loss != 0]
        for iv in comp.law.pieces:
            ends += [iv.loss_exact(iv.a), iv.loss_exact(iv.c)]
        if ends:
            span += count * (max(ends, key=sort_key) - min(ends, key=sort_key))
    g = _common_step(atoms) if atoms else None
    if g is not None:
        h = g / math.ceil(sort_key(g / h))
    width = sort_key(span)
    if width > GRID_POINTS * sort_key(h):
        coarse = width / GRID_POINTS
        if g is not None and sort_key(g) >= coarse:
            h = g / int(mpmath.floor(sort_key(g) / coarse))
        else:
            h = sp.Rational(1, int(mpmath.floor(1 / coarse))) if coarse < 1 \
                else sp.Integer(int(mpmath.ceil(coarse)))
    return h


# ---------------------------------------------------------------------------- inverse
@exclusive
def compose_epsilon(items: list[tuple[Component, int]], delta_target: object,
                    digits: int = 10, *, interval: object = DEFAULT_INTERVAL) -> Composed:
    r"""The smallest :math:`\varepsilon^{\prime} \ge 0` with composed
    :math:`\delta(\varepsilon^{\prime}) \le \delta` (``"inf"`` when even
    :math:`\varepsilon^{\prime} \to \infty` leaves more than :math:`\delta`: the probability of an
    infinite loss).

    Every reported :math:`\varepsilon^{\prime}` is rounded in the safe direction: an exact result
    (lattice losses, Gaussians) is the exact solution rounded *up* to ``digits``
    significant digits, so that :math:`\delta(\varepsilon^{\prime}) \le \delta` holds at the
    printed value; bounds are the solutions for the dominated and dominating grid laws
    (:func:`compose`), the lower rounded down and the upper rounded up, and the upper one
    is the safe :math:`\varepsilon^{\prime}`.
    """
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
        text = gaussian_inverse(mu, target_exact, digits)
        return Composed(True, text=text, method="gaussian closed form", shifts=shifts)
    g = _generator(comps)
    if g is not None:
        def enclose(prec: int) -> flint.arb:
            offset, poly, p_inf = _lattice(items, g)
            return _invert(offset, poly, arb_of(g), p_inf, arb_of(target_exact))

        try:
            _, text = certify_directed(enclose, digits, up=True)
        except _Infinite:
            text = "inf"
        return Composed(True, text=text, method="exact lattice convolution", shifts=shifts)
    items = merge_gaussians(items)
    h = grid_interval(items, h)
    prec = int(digits * _BITS) + 96
    out = []
    with arb_workprec(prec):
        for up in (False, True):
            offset, poly, p_inf = _grid(items, h, up)
            try:
                ball = _invert(offset, poly, arb_of(h), p_inf, arb_of(target_exact))
            except _Infinite:
                out.append("inf")
                continue
            if ball.is_finite():
                out.append(outward(ball, digits)[1 if up else 0])
            else:  # undecided against the infinite mass: the safe ends
                out.append("inf" if up else "0")
    return Composed(False, lower=out[0], upper=out[1], interval=str(h),
                    method="discretised loss", shifts=shifts)


class _Infinite(Exception):
    """The target is below the probability of an infinite loss."""


def _invert(offset: int, poly: flint.arb_poly, step: flint.arb, p_inf: flint.arb,
            target: flint.arb) -> flint.arb:
    r"""Solve :math:`\delta(\varepsilon^{\prime}) = \delta` on the lattice law: a ball containing
    the smallest :math:`\varepsilon^{\prime} \ge 0` with
    :math:`\delta(\varepsilon^{\prime}) \le \delta`.

    With the losses :math:`L_i = (i + o)g` and masses :math:`c_i`,
    :math:`\delta(\varepsilon^{\prime}) = A_i - B_i e^{\varepsilon^{\prime}}` on
    :math:`[L_{i-1}, L_i]`, :math:`A_i = p_\infty + \sum_{m \ge i} c_m`,
    :math:`B_i = \sum_{m \ge i} c_m e^{-L_m} = e^{-L_i} b_i`,
    :math:`b_i = c_i + e^{-g} b_{i+1}` (Horner, no exponential per point), and
    :math:`\delta(L_i) = A_{i+1} - e^{-g} b_{i+1}`. The points are walked down from the
    largest loss until :math:`\delta(L_i)` exceeds the target (for a small target only
    the top of the law is visited); where the comparison is undecided at this precision,
    the solutions of both neighbouring pieces are enclosed.
    """
    if p_inf > target:
        raise _Infinite
    coeffs = poly.coeffs()
    if target.is_zero() and p_inf.is_zero() and coeffs and coeffs[-1] > 0:
        # delta(eps') = 0 exactly from the largest loss on
        return ((len(coeffs) - 1 + offset) * step).max(flint.arb(0))
    z = (-step).exp()
    a_next, b_next = p_inf, flint.arb(0)  # A_{i+1}, b_{i+1}
    first_positive = max(0, 1 - offset)  # the first index with L_i > 0

    def solve(a: flint.arb, bb: flint.arb, i: int) -> flint.arb:
        r"""The root of :math:`A_i - e^{-L_i} b_i e^{\varepsilon^{\prime}} = \delta` (at least
        0)."""
        root = (i + offset) * step + ((a - target) / bb).log()
        return root.max(flint.arb(0))

    for i in range(len(coeffs) - 1, first_positive - 1, -1):
        at_point = a_next - z * b_next  # delta(L_i)
        a_here, b_here = a_next + coeffs[i], coeffs[i] + z * b_next
        if at_point > target:  # the root lies in (L_i, L_{i+1}]
            return solve(a_next, b_next, i + 1)
        if not at_point <= target:  # undecided: either neighbouring piece
            if b_next.is_zero():  # p_inf against the target: not decided here
                return flint.arb(0).union(flint.arb.pos_inf())
            return solve(a_next, b_next, i + 1).union(solve(a_here, b_here, i))
        a_next, b_next = a_here, b_here
    # every positive loss passed: delta(0) = A - B on the piece (L_{i-1}, L_i] holding 0
    i = max(first_positive, 0)
    if i >= len(coeffs):
        return flint.arb(0)  # no loss above 0: delta(0) = p_inf <= target
    at_zero = a_next - (-(i + offset) * step).exp() * b_next
    if at_zero <= target:
        return flint.arb(0)
    if at_zero > target:
        return solve(a_next, b_next, i)
    return solve(a_next, b_next, i).union(flint.arb(0))
