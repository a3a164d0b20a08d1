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
commensurable :math:`g`), the composed law is a product of Laurent polynomials, computed
twice in fixed point (python-flint's ``fmpz_poly``, every mass and product rounded down,
then up: :class:`_GridLaw`), and :math:`\delta(\varepsilon^{\prime})`, nondecreasing in
every mass, lies between the two values: it is certified. The Gaussian's loss is
normal, :math:`N(\mu, 2\mu)` with :math:`\mu = \Delta^2/(2\sigma^2)`; Gaussians compose
in closed form.

**Bounds.** Otherwise (Laplace, truncated Laplace, a Gaussian among others) the loss law
is replaced by two laws on a grid :math:`h\mathbb{Z}`: that of a pair which dominates the
mechanism's pair ("connect the dots": the outcomes with loss in :math:`[jh, (j+1)h]`
become two atoms at its ends with the same :math:`P`- and :math:`Q`-masses, of which the
bin is a post-processing) and that of a pair it dominates (the outcomes of each loss bin
merged into one atom, a post-processing, whose loss is rounded down to the grid; for
Laplace noise the merged loss is the bin's midpoint, so bins centred on the grid merge
exactly onto it), :func:`dpsym.privacy.loss.piece_bins`. Domination is preserved by
composition, so the two composed profiles are an upper and a lower bound, computed in
fixed point rounded up for the upper one and down for the lower one (rigorous); for
Laplace noise both err to second order in
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
import sympy as sp

from dpsym.accounting.renyi import (
    MAX_SHIFTS,
    closed_form,
    gaussian_sigma2,
    is_gaussian,
    noise_digits,
    one_dimensional,
)
from dpsym.certified.kernel import BITS_PER_DIGIT
from dpsym.certified.rounding import check_digits, decimal_parts
from dpsym.core.costs import Cost
from dpsym.core.params import parse_exact, parse_number, require
from dpsym.errors import CertificationError, DomainError, UnsupportedError
from dpsym.gaussian.loss import MAX_DEGREE, gaussian_bins, gaussian_delta, gaussian_inverse
from dpsym.mechanisms import Mechanism, Staircase
from dpsym.precision import arb_workprec, exclusive
from dpsym.privacy.loss import (
    LossLaw,
    Unrolled,
    arb_of,
    ball,
    certify,
    certify_directed,
    exact_ceil,
    exact_floor,
    exact_sym,
    loss_law,
    nonneg,
    one_minus_exp,
    order,
    outward,
    piece_bins,
    run_points,
    significant_losses,
    to_float,
)

__all__ = ["GRID_POINTS", "MAX_COUNT", "MAX_DEGREE", "Component", "Composed", "component",
           "component_bins", "compose", "compose_epsilon", "grid_interval", "merge_gaussians",
           "parse_count", "parse_interval"]

#: Largest number of compositions.
MAX_COUNT = 100_000
#: The default discretisation interval of a continuous loss.
DEFAULT_INTERVAL = Fraction(1, 1000)
#: Grid points at least across the widest loss range of one release: a finer grid is used
#: when the interval asked for is coarser than the losses it should resolve.
RANGE_POINTS = 16
#: Fewest grid points across the widest loss range of one release; a composition that
#: would need a coarser grid is refused (its bounds would say little).
MIN_RANGE_POINTS = 4
#: Largest number of lattice points of one release's exact loss law (beyond, bounds).
EXACT_POINTS = 2**15


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
    if order(number, sp.Integer(0)) < 0:
        raise DomainError(name, f"must be >= 0, got {str(number)[:40]}")
    return number


def parse_interval(value: object) -> sp.Expr:
    """The discretisation interval :math:`h`, a rational in ``(0, 1]``."""
    number = parse_number(value, "interval")
    if not 0 < number <= 1 or number < Fraction(1, 10**9):
        raise DomainError("interval", f"must be in [1e-9, 1], got {number}")
    return sp.Rational(number.numerator, number.denominator)


def interval_text(h: sp.Expr) -> str:
    """The grid step as text: exact (``1/100``), or a power of ten (``1e-300``), or six
    significant digits after ``~`` when the exact text is long."""
    text = str(h)
    if len(text) <= 40:
        return text
    if h.is_Rational and h.p == 1 and str(h.q).strip("0") == "1":
        return f"1e-{len(str(h.q)) - 1}"
    with arb_workprec(64):
        return "~" + ball(h).str(6, radius=False)


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

    @property
    def loss_law(self) -> LossLaw:
        """``law``, of a component that is not Gaussian."""
        if self.law is None:
            raise TypeError(f"{self.name}: a Gaussian component has no loss law")
        return self.law

    @property
    def gaussian_mu(self) -> sp.Expr:
        """``mu``, of a Gaussian component."""
        if self.mu is None:
            raise TypeError(f"{self.name}: not a Gaussian component")
        return self.mu


@exclusive
def component(mechanism: Mechanism, cost: Cost | str = "amplitude", digits: int = 30, *,
              free_value: object = None) -> Component:
    r"""The privacy-loss law of ``mechanism`` at its worst shift under composition
    (module docstring); the free parameter is the optimum for ``cost`` (certified to
    ``digits + 10`` digits and read back exactly) or ``free_value``. The staircase's law
    is its closed form (:func:`dpsym.accounting.renyi.closed_form`), at any :math:`\varepsilon`."""
    if "dim" in mechanism.values and int(mechanism.values["dim"]) > 1:
        raise UnsupportedError(f"{mechanism.name}: composition is derived for "
                               "one-dimensional noise; the worst shift of a product under "
                               "composition is not")
    reduced = one_dimensional(mechanism, composition=True)
    if isinstance(reduced, str):
        raise UnsupportedError(f"{mechanism.name}: {reduced}")
    mechanism = reduced
    require(mechanism, *(prm.name for prm in mechanism.params))
    sens = exact_sym(mechanism.values["Delta"])
    if is_gaussian(mechanism):
        return Component(mechanism.name, sens, mu=sens**2 / (2 * gaussian_sigma2(mechanism,
                                                                                  digits)))
    if type(mechanism) is Staircase:
        closed = closed_form(mechanism, cost, digits, free_value)
        assert closed is not None and closed.masses is not None
        return Component(mechanism.name, sens, law=_three_point(closed.largest,
                                                                 closed.masses))
    noise = mechanism.numeric_noise(cost, free_value, noise_digits(digits))
    unrolled = Unrolled(noise, sens)
    if noise.atom == 0 and unrolled.log_concave():
        return Component(mechanism.name, sens, law=loss_law(unrolled, sens))
    shifts = unrolled.candidate_shifts(sens)
    if len(shifts) > MAX_SHIFTS:
        raise UnsupportedError(f"more than {MAX_SHIFTS} candidate shifts to evaluate")
    laws = [(d, loss_law(unrolled, d)) for d in shifts]
    return Component(mechanism.name, *_dominant(mechanism.name, laws))


def _three_point(eps_exact: sp.Expr, masses) -> LossLaw:
    r"""The law with losses :math:`-\varepsilon, 0, \varepsilon` of probabilities
    ``masses()`` (balls at the current precision)."""
    return LossLaw({-eps_exact: [lambda: masses()[0]], sp.Integer(0): [lambda: masses()[1]],
                    eps_exact: [lambda: masses()[2]]}, [], [], True)


def _dominant(name: str, laws: list[tuple[sp.Expr, LossLaw]]) -> tuple[sp.Expr, LossLaw]:
    r"""The shift whose three-point law dominates the others (module docstring): the
    largest :math:`p = P(\ell = g)` and :math:`p_\infty`, compared by balls (rising
    precision; balls that never separate are equal to 2000 bits, and either law is
    taken)."""
    g = None
    for _, law in laws:
        if law.affine:
            raise UnsupportedError(f"{name}: no dominating worst shift is derived")
        for loss in law.atoms:
            if loss == 0:
                continue
            if g is None:
                g = abs(loss)
            if order(abs(loss), g) != 0:
                raise UnsupportedError(f"{name}: no dominating worst shift is derived "
                                       "(losses beyond three values)")
    for bits in (128, 512, 2048):
        with arb_workprec(bits):
            scores = []
            for d, law in laws:
                top = flint.arb(0)
                for loss, mass in law.atom_masses():
                    if loss != 0 and order(loss, sp.Integer(0)) > 0:
                        top += mass
                scores.append((top, law.infinite_mass(), d, law))
            best = max(scores, key=lambda s: (float((s[0] + s[1]).mid()), order_key(s[2])))
            if all(not s[0] > best[0] and not s[1] > best[1] for s in scores):
                undecided = any(not (s[0] <= best[0] and s[1] <= best[1]) for s in scores)
                if not undecided or bits == 2048:
                    return best[2], best[3]
                continue
            raise UnsupportedError(f"{name}: the laws at the candidate shifts are not "
                                   "ordered; no dominating worst shift")
    raise AssertionError("not reached")  # pragma: no cover


def order_key(value: sp.Expr) -> float:
    """A float of an exact shift, for breaking ties towards the larger shift."""
    with arb_workprec(64):
        return float(ball(value).mid())


# ---------------------------------------------------------------------------- lattices
def _losses(law: LossLaw) -> list[sp.Expr]:
    """The exact losses that a lattice step must divide: the atoms', and each run's first
    loss and step."""
    out = [loss for loss in law.atoms if loss != 0]
    for iv in law.runs:
        loss0, step, _, _ = run_points(iv)
        out += [loss0, step] if loss0 != 0 else [step]
    return out


def _generator(components: list[Component]) -> sp.Expr | None:
    """A common lattice step :math:`g` of every finite loss, or None."""
    losses: list[sp.Expr] = []
    for comp in components:
        if comp.gaussian or comp.law is None or comp.law.pieces:
            return None
        losses += _losses(comp.law)
    return _common_step(losses) if losses else sp.Integer(1)


def _common_step(losses: list[sp.Expr]) -> sp.Expr | None:
    r"""The largest :math:`g` with every (nonzero) loss in :math:`g\mathbb{Z}`, or None."""
    losses = [v for v in losses if v != 0]
    if not losses:
        return None
    g0 = abs(losses[0])
    for v in losses[1:]:
        if order(abs(v), g0) < 0:
            g0 = abs(v)
    num, den = 0, 1
    for v in losses:
        ratio = sp.simplify(v / g0)
        if not ratio.is_Rational:
            ratio = sp.nsimplify(ratio)
            if not ratio.is_Rational or sp.simplify(v / g0 - ratio) != 0:
                return None
        num = math.gcd(num, abs(int(ratio.p)))
        den = den * int(ratio.q) // math.gcd(den, int(ratio.q))
    return g0 * sp.Rational(num, den)


def _index(value: sp.Expr, g: sp.Expr) -> int:
    """``value / g`` as an integer (the caller knows it is one)."""
    m = sp.simplify(value / g)
    if not m.is_Integer:
        raise UnsupportedError("a loss off the lattice")  # not reached
    return int(m)


def lattice_span(law: LossLaw, g: sp.Expr) -> int:
    r"""The number of lattice points :math:`g\mathbb{Z}` between the smallest and the
    largest finite loss of ``law``."""
    indices = [_index(loss, g) for loss in law.atoms if loss != 0] or [0]
    for iv in law.runs:
        loss0, step, n, _ = run_points(iv)
        i0, di = _index(loss0, g), _index(step, g)
        indices += [i0, i0 + di * (n - 1)]
    return max(indices) - min(indices) + 1


def lattice_masses(law: LossLaw, g: sp.Expr) -> dict[int, flint.arb]:
    r"""The finite losses of ``law`` on :math:`g\mathbb{Z}` (index :math:`\to` mass), runs
    expanded point by point."""
    masses: dict[int, flint.arb] = {}
    for loss, mass in law.atom_masses():
        j = 0 if loss == 0 else _index(loss, g)
        masses[j] = masses.get(j, flint.arb(0)) + mass
    for iv in law.runs:
        loss0, step, _, fn = run_points(iv)
        i0, di = _index(loss0, g), _index(step, g)
        for j, mass in enumerate(fn()):
            k = i0 + j * di
            masses[k] = masses.get(k, flint.arb(0)) + mass
    return masses


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
    r""":math:`p_\infty + \sum_m c_m (1 - e^{\varepsilon^{\prime} - (m + o)g})_+`, every term
    positive: from the first loss :math:`L_s > \varepsilon^{\prime}`, with :math:`w =
    e^{\varepsilon^{\prime} - L_s} \le 1` and :math:`z = e^{-g}`, the term of :math:`c_{s+j}` is
    :math:`c_{s+j}((1 - w) + w(1 - z^j))`; :math:`\sum_j c_{s+j}(1 - z^j)` is
    :math:`\sum c - \sum c z^j` (Horner) for :math:`g > 2^{-20}`, where it loses at most
    20 bits, else summed with :math:`1 - z^{j+1} = (1 - z^j) + z^j(1 - z)`."""
    start = max(exact_floor(eps_target / step_exact) + 1 - offset, 0)
    coeffs = poly.coeffs()
    if start >= len(coeffs):
        return p_inf
    tail = coeffs[start:]
    gap_l = one_minus_exp(ball(eps_target - (start + offset) * step_exact))  # 1 - w
    w = 1 - gap_l
    total = flint.arb(0)
    for c in tail:
        total += c
    if step > flint.arb(2) ** -20:
        rest = flint.arb_poly(tail)
        spread = total - rest((-step).exp())  # sum_j c_{s+j} (1 - z^j)
    else:
        z, gap_z = (-step).exp(), one_minus_exp(-step)
        spread, one_minus_zj, zj = flint.arb(0), flint.arb(0), flint.arb(1)
        for c in tail[1:]:
            one_minus_zj += zj * gap_z
            zj *= z
            spread += c * one_minus_zj
    return p_inf + nonneg(total * gap_l + w * nonneg(spread))


def _clip01(value: flint.arb) -> flint.arb:
    r"""A probability's ball intersected with :math:`[0, 1]`."""
    value = nonneg(value)
    if value.is_nan() or value <= 1:
        return value
    if not value.lower() < 1:
        return flint.arb(1)
    return flint.arb(value.lower()).union(flint.arb(1))


def _texts(lower: flint.arb, upper: flint.arb, digits: int) -> tuple[str, str]:
    r"""The lower bound rounded down and the upper one up, clipped to :math:`[0, 1]`.

    Raises
    ------
    CertificationError
        If a bound's ball is not finite (nothing is printed rather than a vacuous end).
    """
    if not (lower.is_finite() and upper.is_finite()):
        raise CertificationError("the bounds of delta could not be enclosed at this "
                                 "precision")
    lo = outward(_clip01(lower), digits)[0] if not lower.upper() <= 0 else "0"
    hi = outward(_clip01(upper), digits)[1] if not upper.lower() >= 1 else "1"
    if lo.startswith("-"):
        lo = "0"
    if _greater_than_one(hi):
        hi = "1"
    return lo, hi


def _greater_than_one(text: str) -> bool:
    man, power = decimal_parts(text)
    return man > 0 and ((power >= 0 and man * 10**power > 1) or
                        (power < 0 and man > 10**-power) if -power < 12000 else False)


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


def _exact_lattice(items: list[tuple[Component, int]]) -> sp.Expr | None:
    """The lattice step of an exact composition, or None (bounds instead): every loss on
    one lattice, each release's law spanning at most :data:`EXACT_POINTS` points."""
    g = _generator([c for c, _ in items])
    if g is None or any(lattice_span(c.loss_law, g) > EXACT_POINTS for c, _ in items):
        return None
    return g


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
        and upper bounds (rounded outward), always within :math:`[0, 1]`.
    """
    items = _components(items)
    target = _nonneg_number(eps_target, "eps_target")
    digits = check_digits(digits)
    h = parse_interval(interval)
    comps = [c for c, _ in items]
    shifts = tuple(str(c.shift) for c in comps)
    if all(c.gaussian for c in comps):
        mu = sum((c.gaussian_mu * k for c, k in items), sp.Integer(0))
        _, text = certify(lambda prec: _clip01(gaussian_delta(arb_of(mu), arb_of(target))),
                          digits, allow_zero=True)
        return Composed(True, text=text, method="gaussian closed form", shifts=shifts)
    g = _exact_lattice(items)
    if g is not None:
        def enclose(prec: int) -> flint.arb:
            offset, poly, p_inf, _ = _lattice(items, g, False)
            below = _delta(offset, poly, ball(g), p_inf, target, g)
            offset, poly, p_inf, lost = _lattice(items, g, True)
            return _clip01(below.union(_delta(offset, poly, ball(g), p_inf, target, g)
                                       + lost))

        _number, text = certify(enclose, digits, allow_zero=True)
        return Composed(True, text=text, method="exact lattice convolution", shifts=shifts)
    items = merge_gaussians(items)
    prec = int(digits * BITS_PER_DIGIT) + 96
    h = grid_interval(items, h, prec=_coarse_bits(digits))
    with arb_workprec(prec):
        for tol_bits in (_coarse_bits(digits), prec + 16):
            bounds = []
            for up in (False, True):
                offset, poly, p_inf = _grid(items, h, up, tol_bits)
                bounds.append(_delta(offset, poly, ball(h), p_inf, target, h))
            if _trims_negligible(bounds[0], tol_bits):
                break
        lo, hi = _texts(bounds[0], bounds[1], digits)
    return Composed(False, lower=lo, upper=hi, interval=interval_text(h),
                    method="discretised loss", shifts=shifts)


def _coarse_bits(digits: int) -> int:
    r"""The first trimming tolerance of the bounds, :math:`2^{-b}`: 50 bits below the
    digits asked for (:func:`_trims_negligible` decides whether it suffices)."""
    return int(digits * BITS_PER_DIGIT) + 50


def _trims_negligible(value: flint.arb, tol_bits: int) -> bool:
    r"""Whether the tails trimmed at :math:`2^{-b}` (at most 64 trims of the composed law,
    each moving less than that mass) change a :math:`\delta` of this size by less than
    :math:`2^{-30}` of it."""
    return bool(value.lower() > flint.arb(2) ** (36 - tol_bits))


def _lattice(items, g, round_up: bool) -> tuple[int, flint.arb_poly, flint.arb, flint.arb]:
    r"""A bound of the composed finite loss law on :math:`g\mathbb{Z}`, by binary powering
    in fixed point (:class:`_GridLaw`, every mass rounded up with ``round_up``, else down)
    with the tails below :math:`2^{-\mathrm{prec}-16}` dropped after each product, the
    probability of an infinite loss, and an upper bound of the mass dropped (with
    ``round_up``). The exact :math:`\delta` lies between the value of the law rounded down
    and that of the law rounded up plus the mass dropped: :math:`\delta` is nondecreasing in
    every mass, and each outcome dropped contributes between 0 and its probability."""
    bits = flint.ctx.prec + 16 + FIXED_GUARD_BITS
    result: _GridLaw | None = None
    infs = []
    for comp, count in items:
        masses = lattice_masses(comp.law, g)
        if not masses:
            masses[0] = flint.arb(0)
        lo, poly = _fixed(masses, bits, round_up)
        infs.append((comp.law.infinite_mass(), count))
        power = _power(_GridLaw(lo, poly, bits, round_up, flint.arb(0)), count, None)
        result = power if result is None else _times(result, power, None)
    assert result is not None
    return result.offset, result.balls(), _infinite_total(infs), _scaled(result.lost, bits)


def component_bins(comp: Component, h: sp.Expr, up: bool, *,
                   window: tuple[int, int] | None = None
                   ) -> tuple[dict[int, flint.arb], flint.arb]:
    r"""The loss law of ``comp`` on the grid :math:`h\mathbb{Z}`, as the law of a pair
    that dominates the component's (``up``) or is dominated by it: the mass of each
    multiple :math:`jh` and of :math:`+\infty`, as balls at the current Arb precision.

    An atom off the grid is split between its two neighbours with the same :math:`P`- and
    :math:`Q`-masses (``up``: "connect the dots", a dominating pair) or moved down to the
    grid; the continuous pieces and lattice runs as :func:`dpsym.privacy.loss.piece_bins`;
    the Gaussian's loss as :func:`dpsym.gaussian.loss.gaussian_bins`. Only the grid points
    of ``window`` (default: :func:`law_window`) are used: a loss below it moves up to its
    first point (``up``) or is dropped, a loss above it to :math:`+\infty` (``up``) or
    down to its last point; each move is monotone in the loss, so the law stays on its
    side (only negligible masses are moved)."""
    hb = ball(h)
    masses: dict[int, flint.arb] = {}
    if comp.gaussian:
        return gaussian_bins(comp.mu, h, up)
    law = comp.law
    assert law is not None
    if window is None:
        window = law_window(law, h, flint.ctx.prec)
    k_lo, k_hi = window
    infinite = law.infinite_mass()
    low = high = flint.arb(0)

    def add(j: int, mass: flint.arb) -> None:
        nonlocal low, high
        if j < k_lo:
            low += mass
        elif j > k_hi:
            high += mass
        else:
            masses[j] = masses.get(j, flint.arb(0)) + mass

    gap = one_minus_exp(-hb)
    for loss, mass in law.atom_masses():
        ratio = sp.sympify(loss / h)
        j = exact_floor(ratio)
        if not up or ratio.is_Integer or order(ratio, sp.Integer(j)) == 0:
            add(j, mass)
            continue
        if j < k_lo or j >= k_hi:  # outside the window: up, to the grid point above
            add(j + 1, mass)
            continue
        # P-masses m_j + m_{j+1} = m, Q-masses m_j e^{-jh} + m_{j+1} e^{-(j+1)h} = m e^{-loss}
        upper = mass * nonneg(-ball(j * h - loss).expm1() / gap)
        add(j + 1, upper)
        add(j, nonneg(mass - upper))
    for iv in law.affine:
        found, below, above = piece_bins(iv, hb, h, up, lattice=law.lattice,
                                         window=window)
        for j, mass in found.items():
            add(j, mass)
        low += below
        high += above
    if up:
        if not low.is_zero():
            masses[k_lo] = masses.get(k_lo, flint.arb(0)) + low
        infinite += high
    elif not high.is_zero():
        masses[k_hi] = masses.get(k_hi, flint.arb(0)) + high
    return masses, infinite


def law_range(law: LossLaw, prec: int) -> tuple[sp.Expr, float, float] | None:
    r"""The range of the losses whose probability is not negligible (below
    :math:`2^{-\mathrm{prec}-16}`), as an exact reference loss and two float offsets from
    it (a loss of :math:`10^{100}` keeps its digits): for choosing grids and windows."""
    tol = 2.0 ** -(prec + 16)
    lo, hi, ref = math.inf, -math.inf, None
    with arb_workprec(64):
        for loss, mass in law.atom_masses():
            if not mass.upper() < tol:
                ref = loss if ref is None else ref
                v = to_float(loss - ref)
                lo, hi = min(lo, v), max(hi, v)
        for iv in law.affine:
            if ref is None:
                ref = iv.loss_exact(iv.a)
            a, c = significant_losses(iv, law.lattice, tol, ref)
            lo, hi = min(lo, a), max(hi, c)
    return (ref, lo, hi) if ref is not None and lo <= hi else None


def law_window(law: LossLaw, h: sp.Expr, prec: int) -> tuple[int, int]:
    """The grid indices holding the losses that are not negligible (:func:`law_range`),
    with a margin of two points."""
    found = law_range(law, prec)
    if found is None:
        return (0, 0)
    ref, lo, hi = found
    base, hf = exact_floor(ref / h), to_float(h)
    return base + math.floor(lo / hf) - 2, base + math.ceil(hi / hf) + 2


#: Bits of the fixed-point masses below the trimming tolerance: each product rounds every
#: mass by at most :math:`2^{-b}` of that tolerance, so that all the rounding of a
#: composed law of at most :math:`2^{17}` points over 64 products moves less than
#: :math:`2^{-17}` of one trim.
FIXED_GUARD_BITS = 40


@dataclass
class _GridLaw:
    r"""A loss law on a grid in fixed point, every mass rounded one way: the mass of
    :math:`(\mathrm{offset} + i)h` is the coefficient :math:`c_i` of ``poly`` times
    :math:`2^{-\mathrm{bits}}`, at least the exact one (``round_up``) or at most it; the
    mass of :math:`+\infty` (a ball) and an upper bound of the mass dropped
    (:func:`_trim` with ``up=None``), in units of :math:`2^{-\mathrm{bits}}`.

    Every mass is nonnegative and every product and sum of them is nondecreasing in each
    factor, so the law computed from masses rounded up and each product's coefficients
    rounded up (down) bounds the exact one coefficient by coefficient, and so does the
    :math:`\delta` of every :math:`\varepsilon^{\prime}`. Integer polynomials multiply
    far faster than ball polynomials whose coefficients span many orders of magnitude (a
    composed law's tails), and an absolute error of :math:`2^{-\mathrm{bits}}` is all the
    tails trimmed at a fixed mass leave anyway."""

    offset: int
    poly: flint.fmpz_poly
    bits: int
    round_up: bool
    infinite: flint.arb
    lost: int = 0

    def total(self) -> flint.arb:
        return _scaled(self.poly(1), self.bits)

    def balls(self) -> flint.arb_poly:
        """The masses as balls at the current Arb precision."""
        return flint.arb_poly(self.poly) * _scaled(1, self.bits)


def _scaled(units: int | flint.fmpz, bits: int) -> flint.arb:
    r""":math:`\mathrm{units} \cdot 2^{-\mathrm{bits}}` as a ball."""
    return flint.arb(units) * flint.arb(2) ** -bits


def _fixed(masses: dict[int, flint.arb], bits: int, round_up: bool
           ) -> tuple[int, flint.fmpz_poly]:
    r"""The masses (balls, on grid indices) in fixed point: the first index and the
    integers :math:`\lceil m 2^{\mathrm{bits}} \rceil` of each ball's upper end
    (``round_up``), else :math:`\lfloor m 2^{\mathrm{bits}} \rfloor` of its lower end
    (at least 0: a mass is nonnegative).

    Raises
    ------
    CertificationError
        If a mass's ball is not finite.
    """
    lo = min(masses)
    coeffs = [0] * (max(masses) - lo + 1)
    for j, mass in masses.items():
        try:
            man, exp = (mass.upper() if round_up else mass.lower()).man_exp()
        except ValueError:  # an infinite or NaN end
            raise CertificationError("a mass of the loss law could not be enclosed at "
                                     "this precision") from None
        m, shift = int(man), int(exp) + bits
        if shift >= 0:
            units = m << shift
        else:
            units = -((-m) >> -shift) if round_up else m >> -shift
        coeffs[j - lo] += max(units, 0)
    return lo, flint.fmpz_poly(coeffs)


def rounded_product(x: flint.fmpz_poly, y: flint.fmpz_poly | None, bits: int, up: bool
                    ) -> flint.fmpz_poly:
    r"""The product of two polynomials of fixed-point masses (nonnegative integers, in
    units of :math:`2^{-\mathrm{bits}}`) back in those units, every coefficient rounded up
    (``up``: :math:`\lceil c/2^{\mathrm{bits}} \rceil`) or down; ``y`` None: the square
    of ``x`` (the cheaper product)."""
    product = x**2 if y is None else x * y
    unit = flint.fmpz(2) ** bits
    if up:  # ceil(c/u) = floor((c + u - 1)/u), coefficient by coefficient
        product += flint.fmpz_poly([unit - 1] * (product.degree() + 1))
    return product // unit  # nonnegative coefficients: the truncated quotient is the floor


def _times(x: _GridLaw, y: _GridLaw, up: bool | None) -> _GridLaw:
    r"""The law of the sum of independent losses, its negligible tails trimmed
    (:func:`_trim`). An infinite loss plus a finite one is infinite: the infinite mass is
    :math:`i_x (m_y + i_y) + m_x i_y` (finite masses :math:`m`; a mass trimmed to
    :math:`-\infty` by the lower bound stays there, the lower side). The masses dropped
    add up (both laws have total mass at most one). The product's coefficients are
    rounded back to ``bits`` in the law's direction."""
    if x.poly.degree() + y.poly.degree() > MAX_DEGREE:
        raise UnsupportedError(f"the composed loss has more than {MAX_DEGREE} grid "
                               "points; use a larger --interval or fewer compositions")
    mx, my = x.total(), y.total()
    infinite = x.infinite * (my + y.infinite) + mx * y.infinite
    poly = rounded_product(x.poly, None if x is y else y.poly, x.bits, x.round_up)
    law = _GridLaw(x.offset + y.offset, poly, x.bits, x.round_up, infinite, x.lost + y.lost)
    return _trim(law, up)


def _power(base: _GridLaw, count: int, up: bool | None) -> _GridLaw:
    """``base`` composed ``count`` times, by binary powering."""
    return _power_of_squares([_trim(base, up)], count, up)


def _power_of_squares(squares: list[_GridLaw], count: int, up: bool | None) -> _GridLaw:
    r"""The law ``squares[0]`` composed ``count`` times, by binary powering:
    ``squares[j]`` is its :math:`2^j`-fold composition (each square trimmed), the list
    extended in place as far as ``count`` needs, so that a list kept across calls
    (:data:`_SQUARES_MEMO`) gives the same laws, product for product, without squaring
    again."""
    power: _GridLaw | None = None
    j = 0
    while count:
        if j == len(squares):
            squares.append(_times(squares[j - 1], squares[j - 1], up))
        if count & 1:
            power = squares[j] if power is None else _times(power, squares[j], up)
        count >>= 1
        j += 1
    assert power is not None
    return power


def _trim(law: _GridLaw, up: bool | None) -> _GridLaw:
    r"""The law with its tails of mass below :math:`2^{-(\mathrm{bits} -}`
    :data:`FIXED_GUARD_BITS`:math:`)` moved, so that the composed degree stays near the
    width of the law's bulk: for an upper bound the low tail moves up to the first kept
    point and the high tail to :math:`+\infty`; for a lower bound the low tail to
    :math:`-\infty` (dropped) and the high tail down to the last kept point. Either move
    is monotone in every loss, so the bound stays a bound. ``up=None`` (an exact law)
    drops both tails and counts their mass in ``lost``."""
    poly = law.poly
    n = poly.length()
    if n < 64:
        return law
    tol = 1 << FIXED_GUARD_BITS
    lo, low = 0, flint.fmpz(0)  # the tails are read coefficient by coefficient, the bulk
    while lo < n - 1 and low + poly[lo] < tol:  # is cut out in C (no list of the whole law)
        low, lo = low + poly[lo], lo + 1
    hi, high = n - 1, flint.fmpz(0)
    while hi > lo and high + poly[hi] < tol:
        high, hi = high + poly[hi], hi - 1
    if lo == 0 and hi == n - 1:
        return law
    kept = poly.truncate(hi + 1).right_shift(lo)  # the coefficients lo..hi
    infinite, lost = law.infinite, law.lost
    if up is None:
        lost = lost + int(low) + int(high)
    elif up:
        kept[0] = kept[0] + low
        infinite = infinite + _scaled(high, law.bits)
    else:
        kept[hi - lo] = kept[hi - lo] + high
    return _GridLaw(law.offset + lo, kept, law.bits, law.round_up, infinite, lost)


#: The composed grid laws of the latest composition (its two bounds), by the identity of
#: its components and the grid, trimming and precision: the profile of one composition at
#: several :math:`\varepsilon^{\prime}` (:func:`compose`, :func:`compose_epsilon`) convolves
#: the laws once. The components are held, so their identities stay theirs.
_GRID_MEMO: dict[tuple, tuple[list[Component], tuple[int, flint.arb_poly, flint.arb]]] = {}
GRID_MEMO_SIZE = 2


def _grid(items, h: sp.Expr, up: bool, tol_bits: int | None = None
          ) -> tuple[int, flint.arb_poly, flint.arb]:
    r"""The composed law on the grid :math:`h\mathbb{Z}` (``up``: of a dominating pair,
    else of a dominated one), by binary powering with tails below
    :math:`2^{-\mathrm{tol\_bits}}` (default: the precision plus 16 bits) trimmed after
    each product; each trim moves less than that mass, the safe way. The laws of the
    latest composition are kept (:data:`_GRID_MEMO`)."""
    bits = flint.ctx.prec + 16 if tol_bits is None else tol_bits
    key = (tuple((id(c), k) for c, k in items), h, up, bits, flint.ctx.prec)
    found = _GRID_MEMO.get(key)
    if found is not None:
        return found[1]
    law = _grid_law(items, h, up, bits)
    while len(_GRID_MEMO) >= GRID_MEMO_SIZE:
        del _GRID_MEMO[next(iter(_GRID_MEMO))]
    _GRID_MEMO[key] = ([c for c, _ in items], law)
    return law


def _grid_law(items, h: sp.Expr, up: bool, tol_bits: int
              ) -> tuple[int, flint.arb_poly, flint.arb]:
    """:func:`_grid`, computed in fixed point (:class:`_GridLaw`), rounded up for the
    dominating law and down for the dominated one."""
    bits = tol_bits + FIXED_GUARD_BITS
    result: _GridLaw | None = None
    for comp, count in items:
        power = _power_of_squares(_squares(comp, h, up, bits), count, up)
        result = power if result is None else _times(result, power, up)
    assert result is not None
    return result.offset, result.balls(), result.infinite


#: The repeated squares of the latest components' grid laws (:func:`_squares`), by the
#: identity of the component and the grid, direction, fixed-point bits and precision:
#: compositions of one component a different number of times on one grid
#: (:func:`compose_epsilon` for several :math:`k`) square its law once. The components are
#: held, so their identities stay theirs.
_SQUARES_MEMO: dict[tuple, tuple[Component, list[_GridLaw]]] = {}
SQUARES_MEMO_SIZE = 2


def _squares(comp: Component, h: sp.Expr, up: bool, bits: int) -> list[_GridLaw]:
    r"""The list of the component's grid law in fixed point (``bits``), its tails trimmed,
    and of the squares computed so far (:func:`_power_of_squares` extends it), kept for
    the latest components (:data:`_SQUARES_MEMO`)."""
    key = (id(comp), h, up, bits, flint.ctx.prec)
    found = _SQUARES_MEMO.get(key)
    if found is not None:
        return found[1]
    masses, p_inf = component_bins(comp, h, up)
    if not masses:
        masses[0] = flint.arb(0)
    lo, poly = _fixed(masses, bits, up)
    squares = [_trim(_GridLaw(lo, poly, bits, up, p_inf), up)]
    while len(_SQUARES_MEMO) >= SQUARES_MEMO_SIZE:
        del _SQUARES_MEMO[next(iter(_SQUARES_MEMO))]
    _SQUARES_MEMO[key] = (comp, squares)
    return squares


#: Largest number of points of the composed grid law's bulk for which the requested
#: interval is kept; beyond, the interval is coarsened.
GRID_POINTS = 2**16


def merge_gaussians(items: list[tuple[Component, int]]) -> list[tuple[Component, int]]:
    r"""``items`` with every Gaussian component replaced by one: the sum of independent
    normal losses :math:`N(\mu_i, 2\mu_i)` is :math:`N(\mu, 2\mu)`,
    :math:`\mu = \sum k_i \mu_i`, exactly (so it is put on the grid once)."""
    gaussians = [(c, k) for c, k in items if c.gaussian]
    if (len(gaussians) == 1 and gaussians[0][1] == 1) or not gaussians:
        return items
    mu = sum((c.gaussian_mu * k for c, k in gaussians), sp.Integer(0))
    merged = Component("+".join(sorted({c.name for c, _ in gaussians})), gaussians[0][0].shift,
                       mu=mu)
    return [(c, k) for c, k in items if not c.gaussian] + [(merged, 1)]


def grid_interval(items: list[tuple[Component, int]], interval: object, *,
                  prec: int = 130) -> sp.Expr:
    r"""The grid :math:`h` of the bounds.

    * At most ``interval``, and at most :math:`w/`:data:`RANGE_POINTS`, :math:`w` the
      widest range of one release's non-negligible losses (:func:`law_range`): a grid
      coarser than the losses says little.
    * Coarsened when the composed law's bulk would span more than :data:`GRID_POINTS`
      points. The bulk is what the tails trimmed after each product leave: by Hoeffding's
      inequality the sum of independent losses of ranges :math:`w_i` leaves its mean by
      more than :math:`t` with probability at most :math:`2e^{-2t^2/\sum k_i w_i^2}`, so
      it spans at most :math:`\min(\sum k_i w_i, 2\sqrt{\ln(2/\tau)\sum k_i w_i^2/2})`,
      :math:`\tau = 2^{-\mathrm{prec}-16}` (so :math:`k = 1000` Laplace releases compose
      in seconds; the bounds' gap grows with :math:`h` only to second order for Laplace
      noise, :func:`dpsym.privacy.loss.piece_bins`).
    * A divisor :math:`g/N` (or a multiple :math:`Ng`) of the losses' common step
      :math:`g` when there is one: the atoms stay on the grid, and a lattice run's points
      fall into the bins by exact integer arithmetic.

    Raises
    ------
    DomainError
        Naming ``count`` when the grid would have fewer than :data:`MIN_RANGE_POINTS`
        points across the widest loss range.
    """
    h = parse_interval(interval)
    losses: list[sp.Expr] = []
    widest, total, squares = 0.0, 0.0, 0.0
    for comp, count in items:
        if comp.gaussian:
            w = 28 * math.sqrt(2 * to_float(comp.mu))
        else:
            found = law_range(comp.loss_law, prec)
            w = 0.0 if found is None else found[2] - found[1]
            losses += [loss for loss in comp.loss_law.atoms if loss != 0]
            for iv in comp.loss_law.runs:
                losses += [run_points(iv)[1]]
        widest = max(widest, w)
        total += count * w
        squares += count * w * w
    g = _common_step(losses) if losses else None
    hf = to_float(h)
    coarsened = False
    if 0 < widest < RANGE_POINTS * hf:
        hf = widest / RANGE_POINTS
    bulk = min(total, 2 * math.sqrt(math.log(2) * (prec + 17) * squares / 2))
    if bulk > GRID_POINTS * hf:
        hf, coarsened = bulk / GRID_POINTS, True
        if widest > 0 and hf > widest / MIN_RANGE_POINTS:
            raise DomainError("count", "the composed losses span too many grid points for "
                              "bounds that say something; compose fewer releases")
    step = h if hf == to_float(h) else _rational_near(hf, up=coarsened)
    if g is not None:
        if order(g, step) >= 0:
            step = g / exact_ceil(g / step)
        else:
            n = exact_ceil(step / g) if coarsened else exact_floor(step / g)
            step = g * max(n, 1)
    return step


def _rational_near(value: float, *, up: bool) -> sp.Expr:
    """A short rational near ``value``, at least it (``up``) or at most it: an integer,
    1/N, or m 2^-e below 1e-9."""
    if value >= 1:
        return sp.Integer(math.ceil(value) if up else max(1, math.floor(value)))
    if value > 1e-9:
        n = 1 / value
        return sp.Rational(1, max(1, math.floor(n) if up else math.ceil(n)))
    man, exp = math.frexp(value)
    top = math.ceil(man * 2**20) if up else math.floor(man * 2**20)
    return sp.Rational(top, 2 ** (20 - exp))


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
        mu = sum((c.gaussian_mu * k for c, k in items), sp.Integer(0))
        text = gaussian_inverse(mu, target_exact, digits)
        return Composed(True, text=text, method="gaussian closed form", shifts=shifts)
    g = _exact_lattice(items)
    if g is not None:
        if target_exact == 0:  # the largest finite loss, exactly (no tail is trimmed)
            return Composed(True, text=_largest_loss_text(items, g, digits),
                            method="exact lattice convolution", shifts=shifts)

        def enclose(prec: int) -> flint.arb:
            t = arb_of(target_exact)
            offset, poly, p_inf, _ = _lattice(items, g, False)
            found = _invert(offset, poly, ball(g), p_inf, t)
            offset, poly, p_inf, lost = _lattice(items, g, True)
            try:  # the exact delta is at most the law rounded up's plus the mass dropped
                return found.union(_invert(offset, poly, ball(g), p_inf, t - lost))
            except _Infinite:
                return found.union(flint.arb.pos_inf())

        try:
            _, text = certify_directed(enclose, digits, up=True)
        except _Infinite:
            text = "inf"
        return Composed(True, text=text, method="exact lattice convolution", shifts=shifts)
    items = merge_gaussians(items)
    prec = int(digits * BITS_PER_DIGIT) + 96
    h = grid_interval(items, h, prec=_coarse_bits(digits))
    tol_bits = _coarse_bits(digits)
    if not _trims_negligible(arb_of(target_exact), tol_bits):
        tol_bits = prec + 16
    out = []
    with arb_workprec(prec):
        for up in (False, True):
            offset, poly, p_inf = _grid(items, h, up, tol_bits)
            try:
                found = _invert(offset, poly, ball(h), p_inf, arb_of(target_exact))
            except _Infinite:
                out.append("inf")
                continue
            if found.is_finite():
                text = outward(found, digits)[1 if up else 0]
                out.append("0" if text.startswith("-") else text)
            else:  # undecided against the infinite mass: the safe ends
                out.append("inf" if up else "0")
    return Composed(False, lower=out[0], upper=out[1], interval=interval_text(h),
                    method="discretised loss", shifts=shifts)


def _largest_loss_text(items: list[tuple[Component, int]], g: sp.Expr, digits: int) -> str:
    r"""The smallest :math:`\varepsilon^{\prime}` with :math:`\delta(\varepsilon^{\prime}) = 0`:
    the sum of each release's largest finite loss of positive probability (``inf`` with an infinite
    loss), rounded up."""
    top = 0
    for comp, count in items:
        with arb_workprec(64):
            if not comp.loss_law.infinite_mass().is_zero():
                return "inf"
            masses = lattice_masses(comp.loss_law, g)
        top += count * max(j for j, m in masses.items() if not m.is_zero())
    if top <= 0:
        return "0"
    return certify_directed(lambda prec: top * ball(g), digits, up=True)[1]


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
