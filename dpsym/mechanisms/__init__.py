"""The mechanisms dpsym knows, one module per family, and their registry by CLI name."""

from __future__ import annotations

from ..evaluation import Value
from ..names import resolve
from ..params import FreeParameter
from .base import Mechanism
from .discrete_laplace import DiscreteLaplace
from .discrete_staircase import DiscreteStaircase
from .discrete_uniform import DiscreteUniform
from .gaussian import AnalyticGaussian, ClassicGaussian
from .independent_staircase import IndependentStaircase
from .laplace import Laplace
from .laplace_md import LaplaceMD
from .lattice_md import DiscreteLaplaceMD, DiscreteUniformMD
from .staircase import Staircase
from .staircase_md import StaircaseMD
from .truncated_laplace import TruncatedLaplace
from .uniform_mass import UniformMass

#: Every mechanism by its CLI name, in listing order.
MECHANISMS: dict[str, type[Mechanism]] = {
    cls.name: cls for cls in (Laplace, DiscreteLaplace, Staircase, DiscreteStaircase,
                              StaircaseMD, IndependentStaircase, LaplaceMD,
                              TruncatedLaplace, UniformMass, DiscreteUniform,
                              ClassicGaussian, AnalyticGaussian, DiscreteUniformMD,
                              DiscreteLaplaceMD)
}


def get_mechanism(name: str) -> type[Mechanism]:
    """The mechanism class called ``name``; a :class:`DomainError` lists the valid names."""
    return MECHANISMS[resolve("mechanism", "mechanism", name, MECHANISMS)]


__all__ = [
    "MECHANISMS",
    "AnalyticGaussian",
    "ClassicGaussian",
    "DiscreteLaplace",
    "DiscreteStaircase",
    "DiscreteUniform",
    "FreeParameter",
    "Laplace",
    "Mechanism",
    "Staircase",
    "TruncatedLaplace",
    "UniformMass",
    "Value",
    "get_mechanism",
]
