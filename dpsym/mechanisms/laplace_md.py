r"""Laplace noise on each coordinate of a query with :math:`\ell^1` sensitivity :math:`\Delta`.

Source: the baseline of thesis slides (000), Part Two ("Laplacian Mechanism:
:math:`V = 2\Delta/\varepsilon`" for :math:`d = 2`). Each coordinate receives independent
Laplace noise of scale :math:`\lambda = \Delta/\varepsilon`; the density
:math:`\prod_i e^{-|x_i|/\lambda}/(2\lambda) \propto e^{-\|x\|_1 \varepsilon/\Delta}` changes by
at most :math:`e^{\varepsilon}` under a shift with :math:`\|t\|_1 \le \Delta`, so the
mechanism is :math:`\varepsilon`-DP. Its costs are :math:`d` times the one-dimensional ones:
:math:`\mathbb{E}\|X\|_1 = d\Delta/\varepsilon` and
:math:`\mathbb{E}\|X\|_2^2 = 2d\Delta^2/\varepsilon^2`.
"""

from __future__ import annotations

import numpy as np
import sympy as sp

from dpsym.core.costs import Cost, parse_cost
from dpsym.core.params import dim_param, eps_param, require, sensitivity_param
from dpsym.errors import DomainError
from dpsym.mechanisms.base import Engine
from dpsym.mechanisms.dimensional import DimensionalMechanism
from dpsym.mechanisms.laplace import Laplace
from dpsym.sampling.checks import REACH_MAX, check_rng, check_size
from dpsym.symbolic.noise import SymmetricNoise


class LaplaceMDEngine(Engine):
    r"""The engine of independent Laplace noise: the one-dimensional Laplace derivations, the cost
    :math:`d` times one coordinate's."""

    mechanism: type[LaplaceMD]

    def calibration(self) -> dict[sp.Symbol, sp.Expr]:
        """The 1-D Laplace normalisation."""
        return Laplace.engine.calibration()

    def cost_function(self, cost: Cost | str) -> sp.Expr:
        r"""``amplitude``: :math:`d\,\mathbb{E}|X_1|`; ``power``: :math:`d\,\mathbb{E}X_1^2`;
        a separable cost :math:`d\,\mathbb{E}\,L(X_1)`."""
        cost = parse_cost(cost)
        self.mechanism._specific(cost)
        return self.mechanism.DIM * Laplace.cost_function(cost)


class LaplaceMD(DimensionalMechanism):
    r"""Independent Laplace noise of scale :math:`\Delta/\varepsilon` on each of :math:`d`
    coordinates."""

    name = "laplace-md"
    title = "Laplace noise on each coordinate (l1 sensitivity)"
    source = "000 Part Two (baseline: Laplacian mechanism, V = 2 Delta / eps for d = 2)"
    params = (eps_param(), sensitivity_param(), dim_param())
    _separable = True

    _engine_type = LaplaceMDEngine

    def _one_dimensional_instance(self) -> Laplace:
        """The Laplace noise of one coordinate."""
        require(self, "eps", "Delta")
        return Laplace(eps=self.values["eps"], Delta=self.values["Delta"])

    @classmethod
    def _noise_shape(cls) -> SymmetricNoise:
        """The law of one coordinate (the 1-D Laplace noise)."""
        return Laplace.engine.noise_shape()

    def sample(self, rng: object, size: int | tuple[int, ...],
               cost: Cost | str = "amplitude") -> np.ndarray:
        """Noise vectors, shape ``(size, d)`` (``size + (d,)`` for a tuple ``size``);
        ``rng`` a :class:`numpy.random.Generator` or ``None`` (a fresh unseeded one)."""
        shape, generator = check_size(size), check_rng(rng)
        require(self, "eps", "Delta")
        scale = self.values["Delta"] / self.values["eps"]
        if scale > REACH_MAX:
            raise DomainError("eps/Delta", f"the float64 sampler draws noise of scale up to "
                              f"{REACH_MAX:.3g}, this noise has scale Delta/eps > {REACH_MAX:.3g}")
        return generator.laplace(0.0, float(scale), (*shape, self.DIM))


__all__ = ["LaplaceMD"]
