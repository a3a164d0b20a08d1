"""The mechanisms dpsym knows, one module per family, and their registry by CLI name."""

from __future__ import annotations

from dpsym.certified.evaluation import Value
from dpsym.core.names import resolve
from dpsym.core.params import FreeParameter
from dpsym.mechanisms.base import Mechanism
from dpsym.mechanisms.discrete_laplace import DiscreteLaplace
from dpsym.mechanisms.discrete_staircase import DiscreteStaircase
from dpsym.mechanisms.discrete_uniform import DiscreteUniform
from dpsym.mechanisms.gaussian import AnalyticGaussian, ClassicGaussian
from dpsym.mechanisms.independent_staircase import IndependentStaircase
from dpsym.mechanisms.laplace import Laplace
from dpsym.mechanisms.laplace_md import LaplaceMD
from dpsym.mechanisms.lattice_md import DiscreteLaplaceMD, DiscreteUniformMD
from dpsym.mechanisms.staircase import Staircase
from dpsym.mechanisms.staircase_md import StaircaseMD
from dpsym.mechanisms.truncated_laplace import TruncatedLaplace
from dpsym.mechanisms.uniform_mass import UniformMass

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
