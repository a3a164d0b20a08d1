"""dpsym: the theory of optimal noise-adding mechanisms in differential privacy, executable."""

from __future__ import annotations

from ._version import __version__
from .bounds import BOUNDS, DiscreteLowerBound, LowerBound, LPBound
from .composition import component, compose, compose_epsilon
from .costs import AMPLITUDE, POWER, Cost, parse_cost
from .distributions import Distribution
from .errors import CertificationError, DomainError, DpsymError, UnsupportedError
from .evaluation import Value
from .expressions import Exact
from .mechanisms import (
    MECHANISMS,
    AnalyticGaussian,
    ClassicGaussian,
    DiscreteLaplace,
    DiscreteStaircase,
    DiscreteUniform,
    Laplace,
    Mechanism,
    Staircase,
    TruncatedLaplace,
    UniformMass,
    get_mechanism,
)
from .mechanisms.independent_staircase import IndependentStaircase
from .mechanisms.laplace_md import LaplaceMD
from .mechanisms.lattice_md import DiscreteLaplaceMD, DiscreteUniformMD
from .mechanisms.staircase_md import StaircaseMD
from .params import INPUT_RULE, parse_exact, parse_number
from .renyi import RenyiValue

__all__ = [
    "AMPLITUDE",
    "BOUNDS",
    "INPUT_RULE",
    "MECHANISMS",
    "POWER",
    "AnalyticGaussian",
    "CertificationError",
    "ClassicGaussian",
    "Cost",
    "DiscreteLaplace",
    "DiscreteLaplaceMD",
    "DiscreteLowerBound",
    "DiscreteStaircase",
    "DiscreteUniform",
    "DiscreteUniformMD",
    "Distribution",
    "DomainError",
    "DpsymError",
    "Exact",
    "IndependentStaircase",
    "LPBound",
    "Laplace",
    "LaplaceMD",
    "LowerBound",
    "Mechanism",
    "RenyiValue",
    "Staircase",
    "StaircaseMD",
    "TruncatedLaplace",
    "UniformMass",
    "UnsupportedError",
    "Value",
    "__version__",
    "component",
    "compose",
    "compose_epsilon",
    "get_mechanism",
    "parse_cost",
    "parse_exact",
    "parse_number",
]
