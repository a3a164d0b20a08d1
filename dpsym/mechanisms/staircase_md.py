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
:math:`2^d r^{d-1}/(d-1)!` (:mod:`dpsym.l1`). Normalisation gives

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

The dimension is the declared integer parameter ``dim``; the symbolic derivations of the
class are those of :attr:`StaircaseMD.DIM` (default 2), and ``StaircaseMD.for_dim(d)`` is
the class of dimension ``d`` (an instance created with ``dim=d`` belongs to it).
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from fractions import Fraction
from functools import cache
from pathlib import Path
from types import MappingProxyType
from typing import ClassVar

import mpmath
import numpy as np
import sympy as sp

from ..costs import Cost, parse_cost
from ..errors import DomainError, UnsupportedError
from ..l1 import (
    eulerian_numbers,
    l1_sphere_measure,
    power_geometric_sum,
    shifted_power_sum,
)
from ..optimize import AlgebraicRoot, _bisect_root
from ..params import Domain, Param
from ..regimes import get_regime
from ..sums import LerchSum
from ..symbols import Delta, b, eps, gamma, k
from .base import NORM, FreeParameter, Mechanism, Value, sensitivity_param

#: Largest dimension accepted.
DIM_MAX = 50
#: Largest eps accepted by the multi-dimensional staircase: the minimiser
#: gamma* ~ (d e^{-eps})^{1/(d+1)} must stay above 2^{-2^40}, the reach of the bracketing
#: of :func:`dpsym.optimize.numeric_minimiser`.
EPS_MAX_MD = Fraction(10) ** 6

#: The dimension symbol (a positive integer); used by the general-d formulas.
dim = sp.Symbol("d", positive=True, integer=True)


def dim_param() -> Param:
    """The declaration of the dimension ``dim`` (an integer in [1, :data:`DIM_MAX`])."""
    return Param("dim", dim, Domain(lower=Fraction(1), upper=Fraction(DIM_MAX), lower_open=False,
                                    upper_open=False, integer=True),
                 "dimension d of the query", ("1", "10"), default="2")


def eps_param_md(upper: Fraction = EPS_MAX_MD) -> Param:
    """The privacy parameter, bounded by ``upper``."""
    return Param("eps", eps, Domain(lower=Fraction(0), upper=upper, upper_open=False),
                 "privacy parameter", ("0.01", "10"))


@cache
def _variant(root: type, d: int) -> type:
    return type(f"{root.__name__}_dim{d}", (root,),
                {"DIM": d, "_variant_of": root, "__module__": root.__module__,
                 "__doc__": root.__doc__, "__qualname__": f"{root.__qualname__}_dim{d}"})


def _rebuild(root: type, values: dict[str, Fraction]) -> DimensionalMechanism:
    """An instance of ``root`` (or of its class of the given dimension) from its values."""
    return root(**values)


class DimensionalMechanism(Mechanism):
    r"""A mechanism on :math:`\mathbb{R}^d` whose symbolic derivations depend on ``dim``.

    The class attribute :attr:`DIM` is the dimension of the class's derivations;
    :meth:`for_dim` returns the (cached) subclass of another dimension, and
    ``Cls(dim=d, ...)`` creates an instance of it.
    """

    DIM: ClassVar[int] = 2
    _variant_of: ClassVar[type | None] = None

    @classmethod
    def for_dim(cls, d: object) -> type[DimensionalMechanism]:
        """The class of dimension ``d``.

        Raises
        ------
        DomainError
            If ``d`` is not an integer in [1, :data:`DIM_MAX`].
        """
        root = cls._variant_of or cls
        value = int(dim_param().validate(d))
        return root if value == root.DIM else _variant(root, value)

    def __new__(cls, **values: object) -> DimensionalMechanism:
        target = cls if values.get("dim") is None else cls.for_dim(values["dim"])
        return object.__new__(target)

    def __init__(self, **values: object) -> None:
        super().__init__(**values)
        self.values = MappingProxyType({**self.values, "dim": Fraction(self.DIM)})

    def __reduce__(self) -> tuple[object, tuple[type, dict[str, Fraction]]]:
        """Pickled as its root class and parameter values (the class of each dimension is
        made at run time)."""
        return _rebuild, (self._variant_of or type(self), dict(self.values))

    @classmethod
    def _specific(cls, cost: Cost) -> None:
        if cost.exponent not in (1, 2):
            raise UnsupportedError(
                f"{cls.name}: costs are amplitude (E||X||_1) and power (E||X||_2^2); "
                f"{cost.name} is not defined in {cls.DIM} dimensions")

    def sample(self, rng: object, size: int, cost: Cost | str = "amplitude") -> np.ndarray:
        """Noise vectors, an array of shape ``(size, d)``."""
        raise NotImplementedError

    def privacy_profile(self, eps_prime: object, cost: Cost | str = "amplitude",
                        digits: int = 30) -> Value:
        """Not available: :mod:`dpsym.privacy` handles one-dimensional noise only."""
        raise UnsupportedError(
            f"{self.name}: no certified privacy profile in d dimensions; see the module's "
            "privacy functions")


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


def general_cost_function(cost: Cost | str = "amplitude") -> sp.Expr:
    r"""The cost as a function of :math:`\gamma` for symbolic dimension :math:`d`.

    With the Lerch sums :math:`L(b, m, \gamma) = \sum_k b^k (k+\gamma)^m`:
    :math:`\mathbb{E}\|X\|_1 = \Delta \frac{d}{d+1} L(b, d+1, \gamma)/L(b, d, \gamma)` and
    :math:`\mathbb{E}\|X\|_2^2 = \frac{2\Delta^2 d}{(d+1)(d+2)} L(b, d+2, \gamma)/L(b, d, \gamma)`.
    """
    cost = parse_cost(cost)
    if cost.exponent == 1:
        return Delta * dim / (dim + 1) * LerchSum(b, dim + 1, gamma) / LerchSum(b, dim, gamma)
    if cost.exponent == 2:
        return (2 * Delta**2 * dim / ((dim + 1) * (dim + 2)) * LerchSum(b, dim + 2, gamma)
                / LerchSum(b, dim, gamma))
    raise UnsupportedError(f"staircase-md: no cost {cost.name}")


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
class StaircaseMD(DimensionalMechanism):
    r"""The :math:`d`-dimensional staircase: a staircase profile in :math:`\|x\|_1`."""

    name = "staircase-md"
    title = "Multi-dimensional staircase mechanism"
    source = "000 Part Two (multidimensional staircase, optimal for d = 2, conjectured for all d)"
    params = (eps_param_md(), sensitivity_param(), dim_param())
    free = FreeParameter("gamma", gamma, 0, 1)

    @classmethod
    def noise_shape(cls) -> RadialStaircaseLaw:  # type: ignore[override]
        """The law of the radius with the unknown constant :data:`NORM`."""
        return RadialStaircaseLaw(cls.DIM)

    @classmethod
    @cache
    def calibration(cls) -> dict[sp.Symbol, sp.Expr]:
        """:math:`a(\\gamma)` from total mass = 1 (the mass is linear in :data:`NORM`)."""
        mass = RadialStaircaseLaw(cls.DIM, sp.Integer(1)).total_mass()
        return {NORM: sp.factor(sp.cancel(1 / mass))} if cls.DIM <= 6 else {NORM: 1 / mass}

    @classmethod
    @cache
    def noise(cls) -> RadialStaircaseLaw:  # type: ignore[override]
        """The normalised law of the radius."""
        return RadialStaircaseLaw(cls.DIM, cls.calibration()[NORM])

    @classmethod
    @cache
    def moment(cls, power: sp.Expr) -> sp.Expr:
        r""":math:`\mathbb{E}\|X\|_1^p` for integer :math:`p \ge 0` (the radius's moment)."""
        p = sp.sympify(power)
        if not (p.is_Integer and p >= 0):
            raise UnsupportedError(f"{cls.name}: radial moments for integer powers only")
        return radial_moment(cls.DIM, int(p))

    @classmethod
    @cache
    def cost_function(cls, cost: Cost | str) -> sp.Expr:
        r"""``amplitude``: :math:`\mathbb{E}\|X\|_1`; ``power``: :math:`\mathbb{E}\|X\|_2^2`."""
        cost = parse_cost(cost)
        cls._specific(cost)
        if cost.exponent == 1:
            return radial_moment(cls.DIM, 1)
        return sp.Rational(2, cls.DIM + 1) * radial_moment(cls.DIM, 2)

    @classmethod
    @cache
    def slope_function(cls, cost: Cost | str) -> sp.Expr:
        r"""The derivative in :math:`\gamma`, from :math:`S_m' = m S_{m-1}`:
        :math:`\frac{d}{d\gamma}\frac{S_{d+p}}{S_d}
        = \frac{(d+p) S_{d+p-1} S_d - d\, S_{d+p} S_{d-1}}{S_d^2}`."""
        cost = parse_cost(cost)
        cls._specific(cost)
        d, p = cls.DIM, int(cost.exponent)
        factor = cls.cost_function(cost) * shifted_power_sum(d) / shifted_power_sum(d + p)
        S = shifted_power_sum
        return factor * ((d + p) * S(d + p - 1) * S(d) - d * S(d + p) * S(d - 1)) / S(d) ** 2

    @classmethod
    @cache
    def _optimal_root(cls, cost: Cost | str) -> AlgebraicRoot | None:
        if cls.DIM == 1:
            return super()._optimal_root(cost)
        return None  # degree 2d >= 4: see formula() for Ferrari's d = 2 root

    @classmethod
    def formula(cls, quantity: str = "cost", cost: Cost | str = "amplitude") -> sp.Expr:
        """Closed forms: the engine's for ``dim = 1``; Ferrari's root for ``dim = 2`` and
        ``amplitude`` (:func:`gamma_star_d2`) and the cost there."""
        cls.check_quantity(quantity)
        cost = parse_cost(cost)
        cls._specific(cost)
        if cls.DIM == 2 and cost.exponent == 1:
            g = gamma_star_d2()
            return g if quantity == "gamma" else cls.cost_function(cost).subs(gamma, g)
        return super().formula(quantity, cost)

    @classmethod
    def series(cls, quantity: str = "cost", cost: Cost | str = "amplitude",
               regime: str = "eps->0", order: int = 3) -> sp.Expr:
        """Series from the optimality condition (:func:`dpsym.asymptotics.minimiser_series`)
        for ``dim >= 2``; from the closed form for ``dim = 1``."""
        reg = get_regime(regime)
        cls.check_quantity(quantity)
        cost = parse_cost(cost)
        cls._specific(cost)
        if cls.DIM == 1:
            return super().series(quantity, cost, regime, order)
        if reg.name not in ("eps->0", "eps->oo"):
            raise UnsupportedError(f"regime {reg.name} moves parameters that {cls.name} "
                                   "does not have")
        g, v = _minimiser_series_cached(cls, cost, reg.name, order)
        return v if quantity == "cost" else g

    # -------------------------------------------------------------- numerics
    def _sums(self) -> tuple[mpmath.mpf, mpmath.mpf, mpmath.mpf]:
        """(eps, b, 1 - b) at the working precision, 1 - b without cancellation."""
        self.require("eps", "Delta")
        e = self.values["eps"]
        e = mpmath.mpf(e.numerator) / e.denominator
        return e, mpmath.exp(-e), -mpmath.expm1(-e)

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
        :math:`- \to +` sign change is refined (:func:`dpsym.optimize._bisect_root`), and
        the smallest cost among those roots and the end points wins.
        """
        if self.DIM == 1:
            return super()._numeric_optimum(cost, hint)
        cost = parse_cost(cost)
        self._specific(cost)
        d, p = self.DIM, int(cost.exponent)
        _, bb, omb = self._sums()
        D = mpmath.mpf(self.values["Delta"].numerator) / self.values["Delta"].denominator
        const = D**p * mpmath.mpf(d) / (d + p) * (mpmath.mpf(2) / (d + 1) if p == 2 else 1)

        e = eulerian_sums_numeric(d + p, bb, omb)

        def value(g):
            s = shifted_power_sums_numeric(d + p, g, e)
            return const * s[d + p] / s[d]

        def slope(g):
            s = shifted_power_sums_numeric(d + p, g, e)
            return (d + p) * s[d + p - 1] * s[d] - d * s[d + p] * s[d - 1]

        if hint is not None and 0 < hint < 1:
            width = mpmath.mpf(2) ** (-mpmath.mp.prec // 3) * hint
            lo, hi = hint - width, hint + width
            s_lo, s_hi = slope(lo), slope(hi)
            if s_lo < 0 < s_hi:
                t = _bisect_root(slope, lo, hi, s_lo, s_hi, steps=8)
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
                candidates.append(_bisect_root(slope, grid[j], grid[j + 1], slopes[j],
                                               slopes[j + 1]))
        best = min(candidates, key=value)
        return best, value(best)

    def _guard_digits(self, cost: Cost) -> int:
        r"""The slope cancels to relative order :math:`\varepsilon^{d+1}` as
        :math:`\varepsilon \to 0`: add :math:`(d + 1)\log_{10}(1/\varepsilon)` digits."""
        base = super()._guard_digits(cost)
        e = self.values.get("eps")
        if e is None or e >= 1:
            return base
        lost = math.ceil(math.log10(e.denominator / e.numerator))
        return base + (self.DIM + 1) * lost

    # -------------------------------------------------------------- sampling
    def ball_sampler(self, cost: Cost | str = "amplitude",
                     gamma_value: object = None) -> BallMixtureSampler:
        r"""The (cached) sampler of :meth:`sample` at this instance's parameters.

        ``gamma_value`` overrides the optimal :math:`\gamma` for ``cost``.
        """
        self.require("eps", "Delta")
        if gamma_value is None:
            key = (type(self), self.values["eps"], self.values["Delta"], parse_cost(cost))
            g = _optimal_gamma(*key)
        else:
            g = Fraction(str(gamma_value)) if isinstance(gamma_value, float) \
                else Fraction(gamma_value)
        return _ball_sampler(self.DIM, self.values["eps"], self.values["Delta"], g)

    def sample(self, rng: object, size: int, cost: Cost | str = "amplitude") -> np.ndarray:
        r"""Noise vectors, shape ``(size, d)`` (a Fortran-ordered array).

        The density is a mixture of uniform laws on :math:`\ell^1` balls (see
        :class:`BallMixtureSampler`): :math:`X = (K + \gamma)\Delta\, V` with
        :math:`P(K = k) \propto b^k (k + \gamma)^d` and :math:`V` uniform on the unit ball.
        """
        if not isinstance(size, int) or isinstance(size, bool) or size < 0:
            raise DomainError("size", "must be a nonnegative integer")
        if rng is None:
            rng = np.random.default_rng()
        return self.ball_sampler(cost)(rng, size)

    def radial_cdf(self, r: object, gamma_value: object) -> mpmath.mpf:
        r"""The exact CDF :math:`P(\|X\|_1 \le r)` at the working precision.

        From the shells: the mass below :math:`r` is
        :math:`a\,(2\Delta)^d/d! \sum` of :math:`b^{\text{level}}` times the differences of
        :math:`(r/\Delta)^d` over the steps below :math:`r`.
        """
        self.require("eps", "Delta")
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


# ---------------------------------------------------------------------- the sampler
#: The table of the period index covers :math:`K < N` with :math:`N + 1` a power of two
#: between these bounds, the smallest whose remaining mass is below :data:`_TAIL_MASS`.
_TABLE_MIN, _TABLE_MAX = 64, 2**16
_TAIL_MASS = mpmath.mpf(2) ** -50
#: Up to this dimension the unit ball is sampled from sorted uniforms, above it from
#: normalised exponentials.
_SORTED_MAX_DIM = 5
#: Vectors drawn per block.
_BLOCK = 2**14


@cache
def _optimal_gamma(cls: type, eps_value: Fraction, Delta_value: Fraction,
                   cost: Cost) -> Fraction:
    g = cls(eps=eps_value, Delta=Delta_value, dim=cls.DIM).free_value(cost, 20)
    return Fraction(int(g.p), int(g.q))


@cache
def _ball_sampler(d: int, eps_value: Fraction, Delta_value: Fraction,
                  gamma_value: Fraction) -> BallMixtureSampler:
    return BallMixtureSampler(d, eps_value, Delta_value, gamma_value)


def _alias_table(p: list[float]) -> tuple[np.ndarray, np.ndarray]:
    """Walker's alias table of the probabilities ``p`` (``len(p)`` a power of two):
    (threshold, alias) with slot ``j`` kept when a uniform is below ``threshold[j]``."""
    m = len(p)
    scaled = [v * m for v in p]
    threshold = [1.0] * m
    alias = list(range(m))
    small = [j for j, v in enumerate(scaled) if v < 1.0]
    large = [j for j, v in enumerate(scaled) if v >= 1.0]
    while small and large:
        j, big = small.pop(), large[-1]
        threshold[j], alias[j] = scaled[j], big
        scaled[big] -= 1.0 - scaled[j]
        if scaled[big] < 1.0:
            large.pop()
            small.append(big)
    return np.array(threshold), np.array(alias, dtype=np.intp)


class BallMixtureSampler:
    r"""Exact vectorised sampler of the :math:`d`-dimensional staircase density.

    The profile is a sum of downward steps at the radii :math:`(k + \gamma)\Delta`, each
    of height :math:`a b^k (1 - b)` (a staircase has no jump at :math:`(k + 1)\Delta`):

    .. math::

       f_\gamma(x) = a (1 - b) \sum_{k \ge 0} b^k\,
           \mathbf{1}\bigl\{\|x\|_1 < (k + \gamma)\Delta\bigr\},

    so :math:`X = (K + \gamma)\Delta\, V` with :math:`V` uniform on the unit
    :math:`\ell^1` ball and :math:`P(K = k) \propto b^k (k + \gamma)^d` (the volume
    :math:`(2(k + \gamma)\Delta)^d/d!` of the :math:`k`-th ball times its weight). The
    normalisation is :math:`S_d(\gamma) = \sum_k b^k (k + \gamma)^d`, that of
    :math:`a(\gamma)`.

    * :math:`K < N` by Walker's alias method over :math:`N + 1` slots (a power of two,
      so that the slot and the uniform deciding between it and its alias come exactly
      from one uniform); the last slot is the tail :math:`K \ge N`, of mass
      :math:`b^N S_d(N + \gamma)`.
    * The tail (rare; all of it never below :math:`2^{-50}` unless
      :math:`N = 2^{16} - 1`): with :math:`c = N + \gamma`, a variable :math:`G \ge c` of
      density :math:`\propto y^d e^{-\varepsilon y}` is :math:`c + Z` with :math:`Z` the
      mixture of :math:`\Gamma(j + 1)/\varepsilon`, :math:`j = 0, \dots, d`, with weights
      :math:`\binom{d}{j} c^{d-j} j!/\varepsilon^{j+1}` (the binomial expansion of
      :math:`(c + z)^d`); then :math:`K = \lfloor G - \gamma \rfloor` is accepted with
      probability :math:`((K + \gamma)/G)^d \ge (c/(c + 1))^d`. The accepted
      :math:`K = k` has probability :math:`\propto (k + \gamma)^d
      \int_{k+\gamma}^{k+\gamma+1} e^{-\varepsilon y}\,dy \propto b^k (k + \gamma)^d`.
    * :math:`V`: for :math:`d \le 5` the spacings :math:`U_{(1)}, U_{(2)} - U_{(1)}, \dots,
      U_{(d)} - U_{(d-1)}` of :math:`d` sorted uniforms (a sorting network of
      ``numpy.minimum``/``numpy.maximum``), above that :math:`E_i / (E_0 + \dots + E_d)`,
      :math:`i = 1, \dots, d`, for standard exponentials :math:`E`; either is uniform on
      :math:`\{v \ge 0, \sum v_i \le 1\}`. Independent fair signs are set on the sign
      bits.

    Parameters
    ----------
    d : int
        The dimension.
    eps_value, Delta_value, gamma_value : Fraction
        :math:`\varepsilon`, :math:`\Delta` and :math:`\gamma \in [0, 1]`.
    """

    def __init__(self, d: int, eps_value: Fraction, Delta_value: Fraction,
                 gamma_value: Fraction) -> None:
        if not 0 <= gamma_value <= 1:
            raise DomainError("gamma", "must lie in [0, 1]")
        self.d = d
        self.eps_f = float(eps_value)
        self.Delta_f = float(Delta_value)
        self.gamma_f = float(gamma_value)
        with mpmath.workdps(30):
            e = mpmath.mpf(eps_value.numerator) / eps_value.denominator
            g = mpmath.mpf(gamma_value.numerator) / gamma_value.denominator
            bb, omb = mpmath.exp(-e), -mpmath.expm1(-e)
            sums = eulerian_sums_numeric(d, bb, omb)
            weights: list[mpmath.mpf] = []
            power = mpmath.mpf(1)  # b^k
            slots = _TABLE_MIN
            while True:
                while len(weights) < slots - 1:
                    weights.append(power * (len(weights) + g) ** d)
                    power *= bb
                n_table = slots - 1
                tail = power * shifted_power_sums_numeric(d, n_table + g, sums)[d]
                total = mpmath.fsum(weights) + tail
                if tail <= _TAIL_MASS * total or slots >= _TABLE_MAX:
                    break
                slots *= 2
            probs = [float(w / total) for w in weights] + [float(tail / total)]
            c = n_table + g
            mix = [math.comb(d, j) * c ** (d - j) * mpmath.factorial(j) / e ** (j + 1)
                   for j in range(d + 1)]
            mix_total = mpmath.fsum(mix)
            self.tail_cum = np.array([float(mpmath.fsum(mix[: j + 1]) / mix_total)
                                      for j in range(d + 1)])
            self.tail_cum[-1] = 1.0
        self.slots, self.n_table, self.tail_start = slots, n_table, float(c)
        self.tail_probability = probs[-1]
        threshold, alias = _alias_table(probs)
        radii = (np.arange(slots, dtype=float) + self.gamma_f) * self.Delta_f
        radii[-1] = np.nan  # the tail slot
        self.threshold, self.alias = threshold, alias
        self.keep_below = (np.arange(slots) + threshold) / slots
        # slot j: radius radii[2 j] when kept, radii[2 j + 1] otherwise
        self.radii = np.column_stack([radii, radii[alias]]).reshape(-1)

    def __repr__(self) -> str:
        return (f"BallMixtureSampler(d={self.d}, eps={self.eps_f}, Delta={self.Delta_f}, "
                f"gamma={self.gamma_f})")

    # ------------------------------------------------------------------ radii
    def scales(self, rng: np.random.Generator, size: int,
               work: _Workspace | None = None) -> np.ndarray:
        r"""``size`` draws of :math:`(K + \gamma)\Delta` (in ``work.scale`` if given)."""
        w = _Workspace(0, size) if work is None else work
        t, j, kb, keep = w.scale[:size], w.slot[:size], w.bound[:size], w.flag[:size]
        rng.random(size, out=t)
        # slot j = floor(t N); kept iff the fraction t N - j is below threshold[j], that is
        # iff t < (j + threshold[j]) / N (exact: N is a power of two)
        np.multiply(t, self.slots, out=j, casting="unsafe")  # truncation of t N >= 0
        self.keep_below.take(j, out=kb, mode="wrap")  # in range: the cheapest mode
        np.greater_equal(t, kb, out=keep)
        j <<= 1
        j += keep  # radii[2 j]: the slot's own radius, radii[2 j + 1]: its alias's
        self.radii.take(j, out=t, mode="wrap")
        if np.isnan(np.add.reduce(t)):  # the tail slot (a sum of finite radii is finite)
            tail = np.isnan(t)
            m = int(np.count_nonzero(tail))
            t[tail] = (self.tail_periods(rng, m) + self.gamma_f) * self.Delta_f
        return t

    def tail_periods(self, rng: np.random.Generator, size: int) -> np.ndarray:
        r"""``size`` draws of :math:`K` conditioned on :math:`K \ge N` (as floats)."""
        out = np.empty(size)
        pending = np.arange(size)
        d, g = self.d, self.gamma_f
        while pending.size:
            m = pending.size
            j = np.minimum(np.searchsorted(self.tail_cum, rng.random(m), side="right"), d)
            y = self.tail_start + rng.standard_gamma(j + 1.0) / self.eps_f
            kk = np.maximum(np.floor(y - g), self.n_table)
            accept = rng.random(m) < ((kk + g) / y) ** d
            out[pending[accept]] = kk[accept]
            pending = pending[~accept]
        return out

    # ------------------------------------------------------------------ vectors
    def _fill(self, rng: np.random.Generator, dest: np.ndarray, work: _Workspace) -> None:
        """Noise vectors into the rows of ``dest`` (shape ``(d, m)``, rows contiguous)."""
        d, m = dest.shape
        scale = self.scales(rng, m, work)
        u = work.ball[: (d + 1) * m].reshape(d + 1, m)
        if d <= _SORTED_MAX_DIM:
            rows = list(rng.random((d, m), out=u[:d]))
            spare = u[d]
            for i in range(1, d):  # insertion sorting network
                for k in range(i, 0, -1):
                    low = np.minimum(rows[k - 1], rows[k], out=spare)
                    np.maximum(rows[k - 1], rows[k], out=rows[k])
                    spare, rows[k - 1] = rows[k - 1], low
            np.multiply(rows[0], scale, out=dest[0])
            for i in range(1, d):
                np.subtract(rows[i], rows[i - 1], out=dest[i])
                dest[i] *= scale
        else:
            e = rng.standard_exponential((d + 1, m), out=u)
            total = np.add.reduce(e, axis=0, out=work.bound[:m])
            np.divide(scale, total, out=scale)
            np.multiply(e[1:], scale, out=dest)
        for i in range(d):
            bits = np.unpackbits(np.frombuffer(rng.bytes((m + 7) // 8), dtype=np.uint8),
                                 count=m)
            _flip_signs(dest[i], bits, work.mask[:m])

    def __call__(self, rng: np.random.Generator, size: int) -> np.ndarray:
        """``size`` noise vectors, shape ``(size, d)`` (the transpose of a C array).

        Drawn in blocks of :data:`_BLOCK` vectors into buffers allocated once per call,
        so that the intermediate arrays stay in the processor's cache.
        """
        out = np.empty((self.d, size))
        work = _Workspace(self.d, min(size, _BLOCK))
        for start in range(0, size, _BLOCK):
            self._fill(rng, out[:, start:min(size, start + _BLOCK)], work)
        return out.T


class _Workspace:
    """The buffers of one call of :class:`BallMixtureSampler` (``block`` vectors)."""

    def __init__(self, d: int, block: int) -> None:
        self.scale = np.empty(block)
        self.slot = np.empty(block, dtype=np.intp)
        self.bound = np.empty(block)
        self.flag = np.empty(block, dtype=np.bool_)
        self.mask = np.empty(block, dtype=np.uint64)
        self.ball = np.empty((d + 1) * block) if d else self.bound


def _flip_signs(a: np.ndarray, bits: np.ndarray, mask: np.ndarray) -> None:
    """Flip the sign of ``a[i]`` (a contiguous float64 array) where ``bits[i]`` (uint8) is 1;
    ``mask`` is a uint64 buffer of the same length."""
    np.left_shift(bits, np.uint64(63), out=mask, dtype=np.uint64)  # the sign bit
    view = a.view(np.uint64)
    np.bitwise_xor(view, mask, out=view)


def eulerian_sums_numeric(m: int, bb: mpmath.mpf, omb: mpmath.mpf) -> list[mpmath.mpf]:
    r"""[:math:`E_0, \dots, E_m`], :math:`E_j = \sum_k k^j b^k`: :math:`E_0 = 1/(1-b)`,
    :math:`E_j = b A_j(b)/(1-b)^{j+1}`; ``omb`` :math:`= 1 - b` (from ``expm1``)."""
    e = [1 / omb]
    for j in range(1, m + 1):
        e.append(bb * mpmath.polyval(list(reversed(eulerian_numbers(j))), bb) / omb ** (j + 1))
    return e


def shifted_power_sums_numeric(m: int, g: mpmath.mpf, e: list[mpmath.mpf]) -> list[mpmath.mpf]:
    r"""[:math:`S_0(\gamma), \dots, S_m(\gamma)`] at the working precision, from
    ``e`` = :func:`eulerian_sums_numeric`:
    :math:`S_n(\gamma) = \sum_{j \le n} \binom{n}{j} \gamma^{n-j} E_j`, all terms positive.
    """
    powers = [mpmath.mpf(1)]
    for _ in range(m):
        powers.append(powers[-1] * g)
    return [mpmath.fsum(math.comb(n, j) * powers[n - j] * e[j] for j in range(n + 1))
            for n in range(m + 1)]


@cache
def _minimiser_series_cached(cls: type, cost: Cost, regime: str, order: int
                             ) -> tuple[sp.Expr, sp.Expr]:
    from ..asymptotics import minimiser_series

    return minimiser_series(cls.cost_function(cost), gamma, 0, 1, get_regime(regime), order)


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
    r"""The hockey-stick divergence :math:`\delta(\varepsilon') = \int (f(x) -
    e^{\varepsilon'} f(x - t))_+\,dx` of the 2-D staircase (:math:`\Delta = 1`), float64.

    Midpoint rule on a square grid of ``cells``:sup:`2` cells covering
    :math:`\|x\|_\infty \le` ``half_width``; the integrand is written with the integer
    level difference, so at :math:`\varepsilon' = \varepsilon` every term is an exact
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
    f0 = normalisation_d2(eps_value, gamma_value) * bb ** e0.astype(float)
    gain = 1 - np.exp(eps_prime - eps_value * (e1 - e0))
    return float(np.sum(f0 * np.maximum(gain, 0.0)) * h * h)


def normalisation_d2(eps_value: float, gamma_value: float) -> float:
    r""":math:`a(\gamma)` for :math:`d = 2`, :math:`\Delta = 1`: :math:`1/(2(1-b)S_2(\gamma))`."""
    bb = math.exp(-eps_value)
    s2 = gamma_value**2 / (1 - bb) + 2 * gamma_value * bb / (1 - bb) ** 2 \
        + bb * (1 + bb) / (1 - bb) ** 3
    return 1 / (2 * (1 - bb) * s2)


# ---------------------------------------------------------------------- figure
def plot_cost_ratios(directory: str | Path, dims: tuple[int, ...] = (2, 3, 5),
                     points: int = 41) -> Path:
    r"""Write ``staircase_md_ratios.png``: the optimal cost :math:`\mathbb{E}\|X\|_1` of the
    :math:`d`-dimensional staircase divided by that of Laplace noise on each coordinate and
    by that of the independent staircase, against :math:`\varepsilon \in [10^{-2}, 30]`.

    Returns the path written. Values are certified to 10 digits (deterministic output).
    """
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    from .independent_staircase import IndependentStaircase
    from .laplace_md import LaplaceMD

    out = Path(directory)
    out.mkdir(parents=True, exist_ok=True)
    grid = [f"{10 ** (-2 + 3.4771212547 * j / (points - 1)):.4g}" for j in range(points)]
    fig, axes = plt.subplots(1, 2, figsize=(10, 4), sharex=True)
    for d in dims:
        xs, to_lap, to_ind = [], [], []
        for e in grid:
            v = float(StaircaseMD(eps=e, dim=d).value("cost", "amplitude", 10).number)
            lap = float(LaplaceMD(eps=e, dim=d).value("cost", "amplitude", 10).number)
            ind = float(IndependentStaircase(eps=e, dim=d).value("cost", "amplitude", 10).number)
            xs.append(float(e))
            to_lap.append(v / lap)
            to_ind.append(v / ind)
        axes[0].plot(xs, to_lap, label=f"d = {d}")
        axes[1].plot(xs, to_ind, label=f"d = {d}")
    axes[0].set(xscale="log", yscale="log", xlabel=r"$\varepsilon$",
                title=r"staircase-md / Laplace per coordinate ($E\|X\|_1$)")
    axes[1].set(xscale="log", yscale="log", xlabel=r"$\varepsilon$",
                title=r"staircase-md / independent staircase ($E\|X\|_1$)")
    for ax in axes:
        ax.legend()
        ax.grid(True, which="both", alpha=0.3)
    fig.tight_layout()
    path = out / "staircase_md_ratios.png"
    fig.savefig(path, dpi=100, metadata={"Software": None})
    plt.close(fig)
    return path


__all__ = ["DIM_MAX", "DimensionalMechanism", "RadialStaircaseLaw", "StaircaseMD",
           "dim", "dim_param", "gamma_star_d2", "general_cost_function", "hockey_stick_2d",
           "level_index", "plot_cost_ratios", "radial_moment"]

