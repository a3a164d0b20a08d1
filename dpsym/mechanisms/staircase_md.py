r"""The multi-dimensional staircase mechanism (:math:`\ell^1` sensitivity, :math:`\ell^1` cost).

Source: thesis slides (000), Part Two. A query :math:`q(D) \in \mathbb{R}^d` with
:math:`\ell^1` sensitivity :math:`\Delta` is released as :math:`q(D) + X`. With
:math:`b = e^{-\varepsilon}`, :math:`\gamma \in [0, 1]` and :math:`k = 0, 1, 2, \dots` the
noise density depends on :math:`x` only through :math:`r = \|x\|_1`:

.. math::

   f_\gamma(x) = \begin{cases}
       a(\gamma)\, b^k & \|x\|_1 \in [k\Delta, (k + \gamma)\Delta) \\
       a(\gamma)\, b^{k+1} & \|x\|_1 \in [(k + \gamma)\Delta, (k + 1)\Delta).
   \end{cases}

The slides prove it optimal for :math:`L(x) = \|x\|_1` when :math:`d = 2` and conjecture it
for every :math:`d`. Everything follows from the law of the radius :math:`R = \|X\|_1`,
whose density is :math:`f_\gamma` times the :math:`\ell^1` shell measure
:math:`2^d r^{d-1}/(d-1)!` (:mod:`dpsym.symbolic.l1`). Normalisation gives

.. math:: a(\gamma) = \frac{d!}{(2\Delta)^d (1 - b)\, S_d(\gamma)}, \qquad
          S_m(\gamma) = \sum_{k \ge 0} b^k (k + \gamma)^m,

and the moments of the radius are
:math:`\mathbb{E}R^p = \Delta^p \frac{d}{d + p} \frac{S_{d+p}(\gamma)}{S_d(\gamma)}`. The costs:
``amplitude`` is :math:`\mathbb{E}\|X\|_1 = \mathbb{E}R`, ``power`` is
:math:`\mathbb{E}\|X\|_2^2 = 2\,\mathbb{E}R^2/(d + 1)`.

The stationarity condition of :math:`\mathbb{E}R` is
:math:`(d+1) S_d(\gamma)^2 = d\, S_{d+1}(\gamma) S_{d-1}(\gamma)`, a polynomial of degree
:math:`2d` in :math:`\gamma`: the engine's closed form for :math:`d = 1`, Ferrari's quartic
formula for :math:`d = 2` (:func:`gamma_star_d2`), and a certified arbitrary-precision root
in general.

The dimension is the declared integer parameter ``dim``
(:class:`~dpsym.mechanisms.dimensional.DimensionalMechanism`): the symbolic derivations
of the class are those of :attr:`StaircaseMD.DIM` (default 2), and
``StaircaseMD.for_dim(d)`` is the class of dimension ``d``. The cost is
:math:`C_{d,p}\, S_{d+p}(\gamma)/S_d(\gamma)` with the constant of
:func:`cost_constant`; the numeric path evaluates the same two factors, the sums without
cancellation (:func:`dpsym.symbolic.l1.shifted_power_sums_numeric`).
"""

from __future__ import annotations

import math
import numbers
from collections.abc import Mapping
from fractions import Fraction
from functools import cache
from typing import TypedDict

import flint
import mpmath
import numpy as np
import sympy as sp

from dpsym.certified.balls import BallLike
from dpsym.certified.intervals import IntervalFunctions, polynomial_at
from dpsym.certified.rounding import decimal_digits
from dpsym.core.costs import Cost, parse_cost
from dpsym.core.params import (
    FreeParameter,
    dim_param,
    eps_param,
    require,
    sensitivity_param,
    substitution,
)
from dpsym.errors import UnsupportedError
from dpsym.mechanisms.base import Engine
from dpsym.mechanisms.dimensional import DimensionalMechanism
from dpsym.sampling.ball_sampling import BallMixtureSampler, ball_sampler
from dpsym.sampling.checks import check_rng, check_size
from dpsym.symbolic.asymptotics import minimiser_series
from dpsym.symbolic.l1 import (
    eulerian_numbers,
    l1_sphere_measure,
    power_geometric_sum,
    power_geometric_sums_numeric,
    shifted_power_sum,
    shifted_power_sum_remainders,
    shifted_power_sums_numeric,
)
from dpsym.symbolic.numerics import evaluate
from dpsym.symbolic.optimize import AlgebraicRoot, bisect_root
from dpsym.symbolic.regimes import ascending, get_regime
from dpsym.symbols import NORM, Delta, b, gamma, k

#: Largest eps accepted by the multi-dimensional staircase: the minimiser
#: gamma* ~ (d e^{-eps})^{1/(d+1)} must stay above 2^{-2^40}, the reach of the bracketing
#: of :func:`dpsym.symbolic.optimize.numeric_minimiser`.
EPS_MAX_MD = Fraction(10) ** 6


# ---------------------------------------------------------------------- the radial law
def _sum_over_periods(poly_in_k: sp.Expr) -> sp.Expr:
    r""":math:`\sum_{k \ge 0} b^k F(k)` for a polynomial :math:`F` in ``k``."""
    poly = sp.Poly(sp.expand(poly_in_k), k)
    return sp.Add(*[c * power_geometric_sum(m[0]) for m, c in zip(poly.monoms(), poly.coeffs(),
                                                                   strict=True)])


class RadialStaircaseLaw:
    r"""The law of :math:`R = \|X\|_1` for the :math:`d`-dimensional staircase density.

    Parameters
    ----------
    d : int
        The dimension.
    norm : sympy.Expr
        The density's constant :math:`a(\gamma)` (or :data:`NORM`, unknown).
    """

    def __init__(self, d: int, norm: sp.Expr = NORM) -> None:
        self.d = d
        self.norm = norm

    def __repr__(self) -> str:
        return f"RadialStaircaseLaw(d={self.d}, a={self.norm})"

    def free_symbols(self) -> set[sp.Symbol]:
        """The symbols of the description."""
        return set(sp.sympify(self.norm).free_symbols) | {b, gamma, Delta}

    def period_integral(self, p: int) -> sp.Expr:
        r""":math:`\int_{k\Delta}^{(k+1)\Delta} r^p f_\gamma(r)\, s_d(r)\,dr`, a polynomial in
        ``k`` times :math:`b^k` (the factor :math:`b^k` left out)."""
        r = sp.Symbol("r_", positive=True)
        density = self.norm * l1_sphere_measure(self.d, r) * r**p
        antider = sp.integrate(density, r)
        high = antider.subs(r, (k + gamma) * Delta) - antider.subs(r, k * Delta)
        low = antider.subs(r, (k + 1) * Delta) - antider.subs(r, (k + gamma) * Delta)
        return high + b * low

    def total_mass(self) -> sp.Expr:
        """The total mass, summed over the periods."""
        return self.moment(0)

    def moment(self, power: object) -> sp.Expr:
        r""":math:`\mathbb{E}R^p` (without normalisation if :data:`NORM` is left unknown)."""
        p = sp.sympify(power)
        if not (p.is_Integer and p >= 0):
            raise UnsupportedError("radial moments are derived for integer powers only")
        return _sum_over_periods(self.period_integral(int(p)))

    def subs(self, values: Mapping) -> RadialStaircaseLaw:
        """Substitute into the constant (other symbols are substituted by callers)."""
        return RadialStaircaseLaw(self.d, sp.sympify(self.norm).subs(values))


def radial_moment(d: int, p: int) -> sp.Expr:
    r""":math:`\mathbb{E}R^p = \Delta^p \frac{d}{d+p} S_{d+p}(\gamma) / S_d(\gamma)`."""
    return Delta**p * sp.Rational(d, d + p) * shifted_power_sum(d + p) / shifted_power_sum(d)


def cost_constant(d: int, p: int) -> sp.Expr:
    r"""The constant :math:`C_{d,p}` of the cost :math:`C_{d,p} S_{d+p}(\gamma)/S_d(\gamma)`:
    :math:`\mathbb{E}\|X\|_1 = \mathbb{E}R` (:math:`p = 1`) and
    :math:`\mathbb{E}\|X\|_2^2 = 2\,\mathbb{E}R^2/(d + 1)` (:math:`p = 2`), from
    :func:`radial_moment`."""
    factor = sp.Integer(1) if p == 1 else sp.Rational(2, d + 1)
    return factor * sp.cancel(radial_moment(d, p) * shifted_power_sum(d)
                              / shifted_power_sum(d + p))


def gamma_star_d2() -> sp.Expr:
    r"""The minimiser of :math:`\mathbb{E}\|X\|_1` for :math:`d = 2` in radicals (Ferrari).

    With :math:`w = (1 - b)\gamma + b` the stationarity condition is the depressed quartic
    :math:`w^4 - 2b(1+b)\,w + 3b^2 = 0`. Its resolvent cubic
    :math:`m^3 - 3b^2 m - b^2(1+b)^2/2 = 0` has one real root (discriminant
    :math:`\propto -(1-b)^2(1+6b+b^2) < 0`), given by Cardano, and
    :math:`(w^2 + m)^2 = (\sqrt{2m}\,w + b(1+b)/\sqrt{2m})^2`; the minimiser is the larger
    real root :math:`w = \bigl(\sqrt{2m} + \sqrt{4b(1+b)/\sqrt{2m} - 2m}\bigr)/2`.
    """
    root = sp.sqrt(1 + 6 * b + b**2)
    m = (b ** sp.Rational(2, 3) / sp.cbrt(4)) * (sp.cbrt((1 + b) ** 2 + (1 - b) * root)
                                                 + sp.cbrt((1 + b) ** 2 - (1 - b) * root))
    s = sp.sqrt(2 * m)
    w = (s + sp.sqrt(4 * b * (1 + b) / s - 2 * m)) / 2
    return (w - b) / (1 - b)


# ---------------------------------------------------------------------- the mechanism
#: Below this :math:`\varepsilon` the :math:`d`-dimensional staircase's sums are expanded
#: in :math:`\varepsilon` (:meth:`StaircaseMD._small_eps`); above it they are summed in
#: closed form with :math:`(d + 1)\log_{10}(1/\varepsilon)` guard digits.
SERIES_EPS = Fraction(1, 10**20)


class RadialEngine(Engine):
    r"""The engine of the :math:`d`-dimensional staircase: the law of the radius
    :math:`\|X\|_1` (:class:`RadialStaircaseLaw`) summed over the periods in closed form,
    the costs :math:`\mathbb{E}\|X\|_1` and :math:`\mathbb{E}\|X\|_2^2` as ratios of
    the sums :math:`S_m(\gamma)` (:mod:`dpsym.symbolic.l1`), Ferrari's root for
    :math:`d = 2` and the series from the optimality condition."""

    mechanism: type[StaircaseMD]

    @cache  # noqa: B019  (one engine per class, kept for the process)
    def calibration(self) -> dict[sp.Symbol, sp.Expr]:
        r""":math:`a(\gamma)` from total mass = 1 (the mass is linear in :data:`NORM`)."""
        d = self.mechanism.DIM
        mass = RadialStaircaseLaw(d, sp.Integer(1)).total_mass()
        return {NORM: sp.factor(sp.cancel(1 / mass))} if d <= 6 else {NORM: 1 / mass}

    @cache  # noqa: B019  (one engine per class, kept for the process)
    def noise(self) -> RadialStaircaseLaw:  # type: ignore[override]  # the radial law
        """The normalised law of the radius."""
        return RadialStaircaseLaw(self.mechanism.DIM, self.calibration()[NORM])

    @cache  # noqa: B019  (one engine per class, kept for the process)
    def moment(self, power: sp.Expr) -> sp.Expr:
        r""":math:`\mathbb{E}\|X\|_1^p` for integer :math:`p \ge 0` (the radius's moment)."""
        p = sp.sympify(power)
        if not (p.is_Integer and p >= 0):
            raise UnsupportedError(f"{self.name}: radial moments for integer powers only")
        return radial_moment(self.mechanism.DIM, int(p))

    @cache  # noqa: B019  (one engine per class, kept for the process)
    def cost_function(self, cost: Cost | str) -> sp.Expr:
        r"""``amplitude``: :math:`\mathbb{E}\|X\|_1`; ``power``: :math:`\mathbb{E}\|X\|_2^2`."""
        cost = parse_cost(cost)
        self.mechanism._specific(cost)
        p = int(cost.power)
        return cost_constant(self.mechanism.DIM, p) * shifted_power_sum(self.mechanism.DIM + p) \
            / shifted_power_sum(self.mechanism.DIM)

    @cache  # noqa: B019  (one engine per class, kept for the process)
    def slope_function(self, cost: Cost | str) -> sp.Expr:
        r"""The derivative in :math:`\gamma`, from :math:`S_m^{\prime} = m S_{m-1}`:
        :math:`\frac{d}{d\gamma}\frac{S_{d+p}}{S_d}
        = \frac{(d+p) S_{d+p-1} S_d - d\, S_{d+p} S_{d-1}}{S_d^2}`."""
        cost = parse_cost(cost)
        self.mechanism._specific(cost)
        d, p = self.mechanism.DIM, int(cost.power)
        factor = self.cost_function(cost) * shifted_power_sum(d) / shifted_power_sum(d + p)
        S = shifted_power_sum
        return factor * ((d + p) * S(d + p - 1) * S(d) - d * S(d + p) * S(d - 1)) / S(d) ** 2

    @cache  # noqa: B019  (one engine per class, kept for the process)
    def optimal_root(self, cost: Cost | str) -> AlgebraicRoot | None:
        if self.mechanism.DIM == 1:
            return super().optimal_root(cost)
        return None  # degree 2d >= 4: see derived_form() for Ferrari's d = 2 root

    def derived_form(self, quantity: str = "cost", cost: Cost | str = "amplitude") -> sp.Expr:
        """Closed forms: the engine's for ``dim = 1``; Ferrari's root for ``dim = 2`` and
        ``amplitude`` (:func:`gamma_star_d2`) and the cost there."""
        self.check_quantity(quantity)
        cost = parse_cost(cost)
        self.mechanism._specific(cost)
        if self.mechanism.DIM == 2 and cost.exponent == 1:
            g = gamma_star_d2()
            return g if quantity == "gamma" else self.cost_function(cost).subs(gamma, g)
        return super().derived_form(quantity, cost)

    def series(self, quantity: str = "cost", cost: Cost | str = "amplitude",
               regime: str = "eps->0", order: int = 3) -> sp.Expr:
        """Series from the optimality condition
        (:func:`dpsym.symbolic.asymptotics.minimiser_series`)
        for ``dim >= 2``; from the closed form for ``dim = 1``."""
        reg = get_regime(regime)
        self.check_quantity(quantity)
        cost = parse_cost(cost)
        self.mechanism._specific(cost)
        if self.mechanism.DIM == 1:
            return super().series(quantity, cost, regime, order)
        if reg.name not in ("eps->0", "eps->oo"):
            raise UnsupportedError(f"regime {reg.name} moves parameters that {self.name} "
                                   "does not have")
        g, v = _minimiser_series_cached(self, cost, reg.name, order)
        return ascending(v if quantity == "cost" else g, reg.variable)


class StaircaseMD(DimensionalMechanism):
    r"""The :math:`d`-dimensional staircase: a staircase profile in :math:`\|x\|_1`."""

    name = "staircase-md"
    _irrational_values = False  # its numerics read eps (and delta) as fractions
    title = "Multi-dimensional staircase mechanism"
    source = "000 Part Two (multidimensional staircase, optimal for d = 2, conjectured for all d)"
    params = (eps_param(upper=EPS_MAX_MD), sensitivity_param(), dim_param())
    free = FreeParameter("gamma", gamma, 0, 1)
    _engine_type = RadialEngine

    @classmethod
    def _noise_shape(cls) -> RadialStaircaseLaw:  # type: ignore[override]
        """The law of the radius with the unknown constant :data:`NORM`."""
        return RadialStaircaseLaw(cls.DIM)

    # -------------------------------------------------------------- numerics
    def _sums(self) -> tuple[mpmath.mpf, mpmath.mpf, mpmath.mpf]:
        """(eps, b, 1 - b) at the working precision, 1 - b without cancellation."""
        require(self, "eps", "Delta")
        e = self.values["eps"]
        e = mpmath.mpf(e.numerator) / e.denominator
        return e, mpmath.exp(-e), -mpmath.expm1(-e)

    def _cost_evaluator(self, cost: Cost):
        r"""(cost as a function of :math:`\gamma`, the sums :math:`E_j`) at the working
        precision: :math:`C_{d,p}\,S_{d+p}(\gamma)/S_d(\gamma)` with :func:`cost_constant`
        and the sums of :func:`dpsym.symbolic.l1.shifted_power_sums_numeric`."""
        d, p = self.DIM, int(cost.power)
        t, bb, omb = self._sums()
        const = evaluate(cost_constant(d, p), substitution(self))
        if self._small_eps():
            lead = const * mpmath.mpf(math.factorial(d + p)) / math.factorial(d) / t**p

            def series_value(g):
                r = shifted_power_sum_remainders([d, d + p], g, t)
                return lead * (1 + r[d + p]) / (1 + r[d])

            return series_value, None
        e = power_geometric_sums_numeric(d + p, bb, omb)

        def value(g):
            s = shifted_power_sums_numeric(d + p, g, e)
            return const * s[d + p] / s[d]

        return value, e

    def _small_eps(self) -> bool:
        r"""Whether :math:`\varepsilon \le` :data:`SERIES_EPS`: the sums are then written
        as their leading terms times :math:`1 + R_m`
        (:func:`dpsym.symbolic.l1.shifted_power_sum_remainders`, a few terms), and the slope,
        which cancels to relative order :math:`\varepsilon^{d+1}` in the sums
        themselves, is formed from the :math:`R_m` without cancellation."""
        e = self.values.get("eps")
        return e is not None and e <= SERIES_EPS

    def cost_at(self, gamma_value: object, cost: Cost | str = "amplitude") -> mpmath.mpf:
        r"""The expected cost at :math:`\gamma` = ``gamma_value`` (not necessarily optimal),
        at the working precision."""
        cost = parse_cost(cost)
        self._specific(cost)
        return self._cost_evaluator(cost)[0](mpmath.mpf(gamma_value))

    def _numeric_optimum(self, cost: Cost, hint: mpmath.mpf | None = None
                         ) -> tuple[mpmath.mpf | None, mpmath.mpf]:
        r"""(:math:`\gamma^*`, optimal cost) at the working precision.

        The cost :math:`C\,S_{d+p}(\gamma)/S_d(\gamma)` and the sign of its slope
        :math:`(d+p) S_{d+p-1} S_d - d\,S_{d+p} S_{d-1}` are evaluated directly
        (:func:`shifted_power_sums_numeric`, :math:`1 - b` from ``expm1``). For
        :math:`d \ge 2` the cost has a local maximum very close to :math:`\gamma = 0`
        (the slope at 0 is :math:`\approx b^2 > 0`) and its minimum near
        :math:`(d b)^{1/(d+1)}`: the slope is scanned on a grid geometric below
        :math:`2^{-5}` (down to :math:`b^{1/(d+p)}/64`) and uniform above, every
        :math:`- \to +` sign change is refined (:func:`dpsym.symbolic.optimize.bisect_root`), and
        the smallest cost among those roots and the end points wins.
        """
        if self.DIM == 1:
            return super()._numeric_optimum(cost, hint)
        cost = parse_cost(cost)
        self._specific(cost)
        d, p = self.DIM, int(cost.power)
        _, bb, _ = self._sums()
        value, e = self._cost_evaluator(cost)

        def slope(g):
            if e is None:  # small eps: the slope over its positive leading factor
                t = self._sums()[0]
                r = shifted_power_sum_remainders([d - 1, d, d + p - 1, d + p], g, t)
                return (r[d + p - 1] + r[d] + r[d + p - 1] * r[d]
                        - r[d + p] - r[d - 1] - r[d + p] * r[d - 1])
            s = shifted_power_sums_numeric(d + p, g, e)
            return (d + p) * s[d + p - 1] * s[d] - d * s[d + p] * s[d - 1]

        if hint is not None and 0 < hint < 1:
            width = mpmath.mpf(2) ** (-mpmath.mp.prec // 3) * hint
            lo, hi = hint - width, hint + width
            s_lo, s_hi = slope(lo), slope(hi)
            if s_lo < 0 < s_hi:
                t = bisect_root(slope, lo, hi, s_lo, s_hi, steps=8)
                return t, value(t)
        top = mpmath.mpf(2) ** -5
        bottom = min(top, bb ** (mpmath.mpf(1) / (d + p)) / 64)
        n_log = 48
        grid = [bottom * (top / bottom) ** (mpmath.mpf(j) / n_log) for j in range(n_log)]
        grid += [top + (1 - top) * mpmath.mpf(j) / 32 for j in range(33)]
        grid = [mpmath.mpf(0), *grid]
        slopes = [slope(g) for g in grid]
        candidates = [mpmath.mpf(0), mpmath.mpf(1)]
        for j in range(len(grid) - 1):
            if slopes[j] < 0 < slopes[j + 1]:
                candidates.append(bisect_root(slope, grid[j], grid[j + 1], slopes[j],
                                               slopes[j + 1]))
        if e is None:  # small eps: costs differ at relative order eps^(d+1)
            t = self._sums()[0]

            def reduced(g, reflected=False):
                r = shifted_power_sum_remainders([d, d + p], g, t, reflected)
                return mpmath.log1p(r[d + p]) - mpmath.log1p(r[d])

            def slope_reflected(u):  # the slope in u = 1 - gamma (increasing in u)
                r = shifted_power_sum_remainders([d - 1, d, d + p - 1, d + p], u, t, True)
                return -(r[d + p - 1] + r[d] + r[d + p - 1] * r[d]
                         - r[d + p] - r[d - 1] - r[d + p] * r[d - 1])

            # a minimiser within about eps of gamma = 1 (odd d): search in 1 - gamma
            ugrid = [t * mpmath.mpf(2) ** (j - 20) for j in range(0, 64, 2)]
            uslopes = [slope_reflected(u) for u in ugrid]
            near_one = [bisect_root(slope_reflected, ugrid[j], ugrid[j + 1], uslopes[j],
                                    uslopes[j + 1]) for j in range(len(ugrid) - 1)
                        if uslopes[j] < 0 < uslopes[j + 1]]
            # costs equal to the working precision are a tie won by an interior root: a
            # minimum where the slope goes from - to + lies below its neighbouring end
            # points (gamma = 0 and 1 give the same law, shifted by one period)
            ends = (mpmath.mpf(0), mpmath.mpf(1))
            keyed = [(reduced(g), g in ends, g) for g in candidates]
            keyed += [(reduced(u, True), False, 1 - u) for u in near_one]
            low = min(k[0] for k in keyed)
            close = abs(low) * mpmath.mpf(2) ** (20 - mpmath.mp.prec)
            best = min((k for k in keyed if k[0] <= low + close), key=lambda k: k[1])[2]
        else:
            best = min(candidates, key=value)
        return best, value(best)

    def _interval_functions(self, cost: Cost) -> IntervalFunctions | None:
        r"""The cost, its slope, the slope's derivative and the slope's sign polynomial
        as ball functions of :math:`\gamma` for the interval minimiser
        (:func:`dpsym.certified.evaluation.interval_plan`), from the polynomials
        :math:`S_m(\gamma) = \sum_j \binom{m}{j} E_j \gamma^{m-j}` with Arb's
        :math:`E_j = b A_j(b)/(1 - b)^{j+1}` (:math:`1 - b` from ``expm1``): no sympy
        expression, at any dimension. The slope is
        :math:`C\,N/S_d^2` with :math:`N = (d+p) S_{d+p-1} S_d - d\,S_{d+p} S_{d-1}`,
        whose sign it has (:math:`C, S_d > 0`); its coefficients cancel to relative
        order :math:`\varepsilon^{d+1}` as :math:`\varepsilon \to 0`, which the
        minimiser's precision probe meets by raising the precision. None for
        :math:`d = 1`."""
        if self.DIM == 1:
            return None
        require(self, "eps", "Delta")
        delta = self.values["Delta"]
        const = cost_constant(self.DIM, int(cost.power)).subs(
            Delta, sp.Rational(delta.numerator, delta.denominator))
        if not const.is_Rational:
            return None
        const = Fraction(int(const.p), int(const.q))
        return _RadialPolynomials(self.DIM, int(cost.power), self.values["eps"],
                                  const).functions()

    def _guard_digits(self, cost: Cost) -> int:
        r"""The slope cancels to relative order :math:`\varepsilon^{d+1}` as
        :math:`\varepsilon \to 0`: add :math:`(d + 1)\log_{10}(1/\varepsilon)` digits."""
        base = super()._guard_digits(cost)
        e = self.values.get("eps")
        if e is None or e >= 1:
            return base
        if self.DIM > 1 and self._small_eps():  # nothing cancels (see _small_eps)
            return 30
        lost = decimal_digits(e.denominator) - decimal_digits(e.numerator) + 1
        return base + (self.DIM + 1) * lost

    # -------------------------------------------------------------- sampling
    def ball_sampler(self, cost: Cost | str = "amplitude",
                     gamma_value: numbers.Rational | float | str | None = None
                     ) -> BallMixtureSampler:
        r"""The (cached) sampler of :meth:`sample` at this instance's parameters.

        ``gamma_value`` overrides the optimal :math:`\gamma` for ``cost``.
        """
        require(self, "eps", "Delta")
        if gamma_value is None:
            key = (type(self), self.values["eps"], self.values["Delta"], parse_cost(cost))
            g = _optimal_gamma(*key)  # type: ignore[arg-type]  # a class is Hashable (mypy: its instances are not)
        else:
            g = Fraction(str(gamma_value)) if isinstance(gamma_value, float) \
                else Fraction(gamma_value)
        return ball_sampler(self.DIM, self.values["eps"], self.values["Delta"], g)

    def sample(self, rng: object, size: int | tuple[int, ...],
               cost: Cost | str = "amplitude") -> np.ndarray:
        r"""Noise vectors, shape ``(size, d)`` (a Fortran-ordered array; ``size + (d,)``
        for a tuple ``size``); ``rng`` a :class:`numpy.random.Generator` or ``None`` (a
        fresh unseeded one).

        The density is a mixture of uniform laws on :math:`\ell^1` balls (see
        :class:`BallMixtureSampler`): :math:`X = (K + \gamma)\Delta\, V` with
        :math:`P(K = k) \propto b^k (k + \gamma)^d` and :math:`V` uniform on the unit ball.
        """
        shape, generator = check_size(size), check_rng(rng)
        return self.ball_sampler(cost)(generator, shape)

    def radial_cdf(self, r: object, gamma_value: object) -> mpmath.mpf:
        r"""The exact CDF :math:`P(\|X\|_1 \le r)` at the working precision.

        From the shells: the mass below :math:`r` is
        :math:`a\,(2\Delta)^d/d! \sum` of :math:`b^{\text{level}}` times the differences of
        :math:`(r/\Delta)^d` over the steps below :math:`r`.
        """
        require(self, "eps", "Delta")
        d = self.DIM
        e = mpmath.mpf(self.values["eps"].numerator) / self.values["eps"].denominator
        D = mpmath.mpf(self.values["Delta"].numerator) / self.values["Delta"].denominator
        g = mpmath.mpf(gamma_value)
        bb = mpmath.exp(-e)
        x = mpmath.mpf(r) / D
        if x <= 0:
            return mpmath.mpf(0)
        kmax = int(mpmath.floor(x))
        mass = mpmath.mpf(0)
        for kk in range(kmax + 1):
            for lo, hi, lev in ((kk, kk + g, bb**kk), (kk + g, kk + 1, bb ** (kk + 1))):
                top = min(hi, x)
                if top > lo:
                    mass += lev * (top**d - lo**d)
        total = (1 - bb) * mpmath.nsum(lambda j: bb**j * (j + g) ** d, [0, mpmath.inf])
        return mass / total


class _Polys(TypedDict):
    """The polynomials of :class:`_RadialPolynomials` at one precision."""

    top: flint.arb_poly
    bottom: flint.arb_poly
    dbottom: flint.arb_poly
    n: flint.arb_poly
    dn: flint.arb_poly
    coeffs: list[flint.arb]
    c: flint.arb


class _RadialPolynomials:
    r"""The :math:`d`-dimensional staircase's cost :math:`C S_{d+p}/S_d` and its slope as
    ball functions of :math:`\gamma` (:meth:`StaircaseMD._interval_functions`), their
    polynomial coefficients computed once per working precision."""

    def __init__(self, d: int, p: int, eps_value: Fraction, const: Fraction) -> None:
        self.d, self.p, self.eps, self.const = d, p, eps_value, const
        self._cache: dict[int, _Polys] = {}

    def _polys(self) -> _Polys:
        prec = flint.ctx.prec
        if prec not in self._cache:
            d, p = self.d, self.p
            t = flint.arb(flint.fmpq(self.eps.numerator, self.eps.denominator))
            bb, omb = (-t).exp(), -(-t).expm1()
            e = [1 / omb]
            for j in range(1, d + p + 1):
                a = flint.arb(0)
                for c in reversed(eulerian_numbers(j)):
                    a = a * bb + c
                e.append(bb * a / omb ** (j + 1))

            def s(m: int) -> flint.arb_poly:  # ascending coefficients of S_m
                return flint.arb_poly([math.comb(m, i) * e[m - i] for i in range(m + 1)])

            n = (d + p) * s(d + p - 1) * s(d) - d * s(d + p) * s(d - 1)
            self._cache[prec] = {
                "top": s(d + p), "bottom": s(d), "dbottom": d * s(d - 1), "n": n,
                "dn": n.derivative(), "coeffs": n.coeffs(), "c": flint.arb(flint.fmpq(
                    self.const.numerator, self.const.denominator))}
        return self._cache[prec]

    def cost(self, x: BallLike) -> BallLike:
        """:math:`C S_{d+p}(x)/S_d(x)`."""
        q = self._polys()
        return q["c"] * polynomial_at(q["top"], x, True) / polynomial_at(q["bottom"], x,
                                                                         True)

    def slope(self, x: BallLike) -> BallLike:
        """:math:`C N(x)/S_d(x)^2`."""
        q = self._polys()
        return q["c"] * polynomial_at(q["n"], x) / polynomial_at(q["bottom"], x, True) ** 2

    def dslope(self, x: BallLike) -> BallLike:
        r""":math:`C (N^{\prime} S_d - 2 N S_d^{\prime})/S_d^3`."""
        q = self._polys()
        sd = polynomial_at(q["bottom"], x, True)
        return q["c"] * (polynomial_at(q["dn"], x) * sd - 2 * polynomial_at(q["n"], x)
                         * polynomial_at(q["dbottom"], x, True)) / sd ** 3

    def numerator(self) -> list[flint.arb]:
        """The coefficients of :math:`N` (the slope's sign)."""
        return self._polys()["coeffs"]

    def functions(self) -> IntervalFunctions:
        r"""(cost, slope, slope derivative, sign numerator), and the digits they lose below
        :data:`SERIES_EPS`: there the guard digits are those of the series path, where
        nothing cancels (:meth:`StaircaseMD._guard_digits`), but these polynomials still
        cancel to relative order :math:`\varepsilon^{d+1}`, and the costs of the
        candidate minimisers differ at that order."""
        lost = 0
        if self.eps <= SERIES_EPS:
            lost = (self.d + 1) * (decimal_digits(self.eps.denominator)
                                   - decimal_digits(self.eps.numerator) + 1)
        return IntervalFunctions(self.cost, self.slope, self.dslope, self.numerator, lost)


@cache
def _optimal_gamma(cls: type[StaircaseMD], eps_value: Fraction, Delta_value: Fraction,
                   cost: Cost) -> Fraction:
    g = cls(eps=eps_value, Delta=Delta_value, dim=cls.DIM).free_value(cost, 20)
    return Fraction(int(g.p), int(g.q))


@cache
def _minimiser_series_cached(fam: RadialEngine, cost: Cost, regime: str, order: int
                             ) -> tuple[sp.Expr, sp.Expr]:
    return minimiser_series(fam.cost_function(cost), gamma, 0, 1, get_regime(regime), order)


# ---------------------------------------------------------------------- privacy
def level_index(radius: np.ndarray, gamma_value: float, Delta_value: float = 1.0) -> np.ndarray:
    r"""The exponent :math:`e(r)` with :math:`f_\gamma = a\, b^{e(r)}`:
    :math:`e(r) = \lfloor r/\Delta \rfloor + [\,\{r/\Delta\} \ge \gamma\,]`.

    :math:`e` is nondecreasing and :math:`e(r + \Delta) = e(r) + 1`, so
    :math:`|e(r) - e(s)| \le 1` whenever :math:`|r - s| \le \Delta`.
    """
    x = np.asarray(radius, dtype=float) / Delta_value
    whole = np.floor(x)
    return (whole + ((x - whole) >= gamma_value)).astype(np.int64)


def hockey_stick_2d(eps_value: float, eps_prime: float, shift: tuple[float, float],
                    gamma_value: float, half_width: float | None = None,
                    cells: int = 1200) -> float:
    r"""The hockey-stick divergence :math:`\delta(\varepsilon^{\prime}) = \int (f(x) -
    e^{\varepsilon^{\prime}} f(x - t))_+\,dx` of the 2-D staircase (:math:`\Delta = 1`), float64.

    Midpoint rule on a square grid of ``cells``:sup:`2` cells covering
    :math:`\|x\|_\infty \le` ``half_width``; the integrand is written with the integer
    level difference, so at :math:`\varepsilon^{\prime} = \varepsilon` every term is an exact
    zero when :math:`e(\|x - t\|_1) - e(\|x\|_1) \le 1`.
    """
    bb = math.exp(-eps_value)
    if half_width is None:
        half_width = 40.0 / eps_value + 3
    h = 2 * half_width / cells
    axis = -half_width + h * (np.arange(cells) + 0.5)
    xx, yy = np.meshgrid(axis, axis, indexing="ij")
    r0 = np.abs(xx) + np.abs(yy)
    r1 = np.abs(xx - shift[0]) + np.abs(yy - shift[1])
    e0 = level_index(r0, gamma_value)
    e1 = level_index(r1, gamma_value)
    # f(x) (1 - e^{eps' - eps (e1 - e0)})_+ with f(x) = a b^{e0}
    f0 = normalisation(2, eps_value, gamma_value) * bb ** e0.astype(float)
    gain = 1 - np.exp(eps_prime - eps_value * (e1 - e0))
    return float(np.sum(f0 * np.maximum(gain, 0.0)) * h * h)


@cache
def _normalisation_function(d: int):
    r"""The engine's :math:`a(\gamma)` of dimension ``d`` compiled to numpy in
    :math:`(b, \gamma, \Delta)`."""
    return sp.lambdify((b, gamma, Delta),
                       StaircaseMD.for_dim(d).engine.calibration()[NORM], "numpy")


def normalisation(d: int, eps_value: float, gamma_value: float, Delta_value: float = 1.0
                  ) -> float:
    r""":math:`a(\gamma)` of the :math:`d`-dimensional staircase in float64 (the engine's
    :meth:`~StaircaseMD.calibration`)."""
    return float(_normalisation_function(d)(math.exp(-eps_value), gamma_value, Delta_value))


__all__ = ["EPS_MAX_MD", "RadialStaircaseLaw", "StaircaseMD", "cost_constant",
           "gamma_star_d2", "hockey_stick_2d", "level_index",
           "normalisation", "radial_moment"]
