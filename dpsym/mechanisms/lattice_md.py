r"""Integer-valued queries on :math:`\mathbb{Z}^d` with :math:`\ell^1` sensitivity
:math:`\Delta`: the uniform and the discrete Laplacian noise of the thesis slides (000,
Part Three, the :math:`d`-dimensional upper bounds).

* ``discrete-uniform-md``: independent discrete uniform noise on each coordinate (the
  one-dimensional law of :class:`~dpsym.mechanisms.DiscreteUniform` with the same
  :math:`\delta` and :math:`\Delta`). For a shift :math:`t` with :math:`\|t\|_1 \le \Delta`
  the total variation of a product is at most the sum of the coordinates' total
  variations, :math:`\sum_m |t_m|/n \le \Delta/n \le \delta`, so the noise is
  :math:`(0, \delta)`-DP. The slides' version (mass :math:`(\delta/\Delta)^d` on a cube,
  :math:`\Delta/(2\delta)` an integer) is the unsymmetrised special case, with the same
  costs.
* ``discrete-laplace-md``: independent discrete Laplace noise of ratio
  :math:`\lambda = e^{-\varepsilon/\Delta}` on each coordinate; its mass
  :math:`\propto \lambda^{\|i\|_1}` changes by at most :math:`e^{\varepsilon}` under an
  :math:`\ell^1` shift of size :math:`\Delta`, so it is :math:`\varepsilon`-DP.

The costs :math:`\mathbb{E}\|X\|_1` (``amplitude``) and :math:`\mathbb{E}\|X\|_2^2`
(``power``) are :math:`d` times the one-dimensional ones, derived by the engine.
"""

from __future__ import annotations

from fractions import Fraction

import numpy as np
import sympy as sp

from dpsym.core.costs import Cost, parse_cost
from dpsym.core.params import Guarantee, delta_param, dim_param, eps_param, sensitivity_param
from dpsym.errors import DomainError
from dpsym.mechanisms.base import Engine, Mechanism
from dpsym.mechanisms.dimensional import DimensionalMechanism
from dpsym.mechanisms.discrete_laplace import DiscreteLaplace
from dpsym.mechanisms.discrete_uniform import DiscreteUniform
from dpsym.symbolic.noise import SymmetricNoise


class ProductEngine(Engine):
    r"""The engine of a product of one-dimensional lattice laws: one coordinate's calibration, the
    cost :math:`d` times one coordinate's."""

    mechanism: type[_Product]

    def calibration(self) -> dict[sp.Symbol, sp.Expr]:
        """The one-dimensional calibration."""
        return self.mechanism._one_dimensional.engine.calibration()

    def cost_function(self, cost: Cost | str) -> sp.Expr:
        r"""``amplitude``: :math:`d\,\mathbb{E}|X_1|`; ``power``: :math:`d\,\mathbb{E}X_1^2`."""
        cost = parse_cost(cost)
        self.mechanism._specific(cost)
        return self.mechanism.DIM * self.mechanism._one_dimensional.cost_function(cost)


class _Product(DimensionalMechanism):
    """Independent copies of a one-dimensional lattice mechanism on each coordinate."""

    lattice = True
    _one_dimensional: type[Mechanism]
    _separable = True

    _engine_type = ProductEngine

    def _one_dimensional_instance(self) -> Mechanism:
        """The law of one coordinate."""
        return self._one_dimensional(**{k: v for k, v in self.values.items() if k != "dim"})

    @classmethod
    def _noise_shape(cls) -> SymmetricNoise:
        """The law of one coordinate."""
        return cls._one_dimensional.engine.noise_shape()

    @classmethod
    def _conditions(cls) -> tuple[tuple[sp.Symbol, sp.Expr, sp.Expr], ...]:
        return cls._one_dimensional.engine.conditions()

    def sample(self, rng: np.random.Generator | None, size: int | tuple[int, ...],
               cost: Cost | str = "amplitude") -> np.ndarray:
        """Noise vectors, an int64 array of shape ``(size, d)``."""
        if not isinstance(size, int) or isinstance(size, bool) or size < 0:
            raise DomainError("size", "must be a nonnegative integer")
        values = {k: v for k, v in self.values.items() if k != "dim"}
        return self._one_dimensional(**values).sample(rng, (size, self.DIM))


class DiscreteUniformMD(_Product):
    r"""Discrete uniform noise on each coordinate, :math:`(0, \delta)`-DP on
    :math:`\mathbb{Z}^d`."""

    name = "discrete-uniform-md"
    title = "Discrete uniform noise on each coordinate (l1 sensitivity)"
    source = "000 Part Three (d-dimensional upper bound: uniform noise mechanism)"
    guarantee = Guarantee.ZERO_EPS
    _one_dimensional = DiscreteUniform
    params = (delta_param(Fraction(1)), sensitivity_param(integer=True, upper=10**6),
              dim_param())
    derived = DiscreteUniform.derived


class DiscreteLaplaceMD(_Product):
    r"""Discrete Laplace noise of ratio :math:`e^{-\varepsilon/\Delta}` on each coordinate."""

    name = "discrete-laplace-md"
    title = "Discrete Laplace noise on each coordinate (l1 sensitivity)"
    source = "000 Part Three (d-dimensional upper bound: discrete Laplacian mechanism)"
    _one_dimensional = DiscreteLaplace
    params = (eps_param(), sensitivity_param(integer=True), dim_param())


__all__ = ["DiscreteLaplaceMD", "DiscreteUniformMD"]
