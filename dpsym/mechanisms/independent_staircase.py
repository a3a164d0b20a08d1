r"""The independent staircase: a 1-D staircase on each coordinate, the budget split.

Source: the baseline of thesis slides (000), Part Two ("Independent Staircase Mechanism:
:math:`V = \Theta(2\Delta e^{-\varepsilon/4})`" for :math:`d = 2`). A shift with
:math:`\|t\|_1 \le \Delta` moves each coordinate by at most :math:`\Delta`, so each coordinate
receives the 1-D staircase noise of sensitivity :math:`\Delta` and privacy parameter
:math:`\varepsilon/d` (:class:`~dpsym.mechanisms.staircase.Staircase`); by composition the
vector is :math:`\varepsilon`-DP. With :math:`b = e^{-\varepsilon}` each coordinate lives in
:math:`b^{1/d} = e^{-\varepsilon/d}`; the costs are :math:`d` times the 1-D costs, and the
common step fraction :math:`\gamma` is optimised per cost (it is the 1-D optimum at
:math:`\varepsilon/d`, e.g. :math:`1/(1 + e^{\varepsilon/(2d)})` for ``amplitude``).
"""

from __future__ import annotations

import numpy as np
import sympy as sp

from dpsym.core.costs import Cost, parse_cost
from dpsym.core.params import FreeParameter, dim_param, eps_param, require, sensitivity_param
from dpsym.mechanisms.base import Engine
from dpsym.mechanisms.dimensional import DimensionalMechanism
from dpsym.mechanisms.staircase import Staircase
from dpsym.sampling.checks import check_rng, check_size
from dpsym.symbolic.noise import SymmetricNoise
from dpsym.symbols import b, gamma


class IndependentEngine(Engine):
    r"""The engine of independent staircases: the one-dimensional staircase's derivations at
    :math:`\varepsilon/d` (:math:`b \to b^{1/d}`), the cost :math:`d` times one
    coordinate's."""

    mechanism: type[IndependentStaircase]

    def calibration(self) -> dict[sp.Symbol, sp.Expr]:
        r"""The 1-D staircase normalisation at :math:`\varepsilon/d`."""
        per_coordinate = self.mechanism._per_coordinate
        return {s: per_coordinate(e) for s, e in Staircase.engine.calibration().items()}

    def cost_function(self, cost: Cost | str) -> sp.Expr:
        r"""``amplitude``: :math:`d\,\mathbb{E}|X_1|`; ``power``: :math:`d\,\mathbb{E}X_1^2`."""
        cost = parse_cost(cost)
        self.mechanism._specific(cost)
        return self.mechanism.DIM * self.mechanism._per_coordinate(Staircase.cost_function(cost))

    def optimal_parameter(self, cost: Cost | str) -> sp.Expr | None:
        r"""The 1-D optimum at :math:`\varepsilon/d`."""
        cost = parse_cost(cost)
        self.mechanism._specific(cost)
        return self.mechanism._per_coordinate(Staircase.optimal_parameter(cost))

    def optimal_cost(self, cost: Cost | str) -> sp.Expr | None:
        r""":math:`d` times the optimal 1-D cost at :math:`\varepsilon/d`."""
        cost = parse_cost(cost)
        self.mechanism._specific(cost)
        return self.mechanism.DIM * self.mechanism._per_coordinate(Staircase.optimal_cost(cost))


class IndependentStaircase(DimensionalMechanism):
    r"""Independent 1-D staircases with privacy parameter :math:`\varepsilon/d` per
    coordinate."""

    name = "independent-staircase"
    title = "Independent staircase on each coordinate (budget eps/d each)"
    source = "000 Part Two (baseline: independent staircase mechanism, Theta(2 Delta e^{-eps/4}))"
    params = (eps_param(), sensitivity_param(), dim_param())
    free = FreeParameter("gamma", gamma, 0, 1)
    _separable = True

    _engine_type = IndependentEngine

    def _one_dimensional_instance(self) -> Staircase:
        r"""The staircase of one coordinate, at :math:`\varepsilon/d`."""
        require(self, "eps", "Delta")
        return Staircase(eps=self.values["eps"] / self.DIM, Delta=self.values["Delta"])

    @classmethod
    def _per_coordinate(cls, expr: sp.Expr) -> sp.Expr:
        r"""``expr`` of the 1-D staircase with :math:`b \to b^{1/d}`."""
        return sp.sympify(expr).subs(b, b ** sp.Rational(1, cls.DIM))

    @classmethod
    def _noise_shape(cls) -> SymmetricNoise:
        r"""The law of one coordinate (the 1-D staircase at :math:`\varepsilon/d`)."""
        return Staircase.engine.noise_shape().subs({b: b ** sp.Rational(1, cls.DIM)})

    def sample(self, rng: object, size: int | tuple[int, ...],
               cost: Cost | str = "amplitude") -> np.ndarray:
        r"""Noise vectors, shape ``(size, d)`` (``size + (d,)`` for a tuple ``size``): the
        1-D staircase sampler at :math:`\varepsilon/d`; ``rng`` a
        :class:`numpy.random.Generator` or ``None`` (a fresh unseeded one)."""
        shape, generator = check_size(size), check_rng(rng)
        require(self, "eps", "Delta")
        one = Staircase(eps=self.values["eps"] / self.DIM, Delta=self.values["Delta"])
        return one.sample(generator, (*shape, self.DIM), cost)


__all__ = ["IndependentStaircase"]
