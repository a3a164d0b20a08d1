"""dpsym: the theory of optimal noise-adding mechanisms in differential privacy, executable."""

from __future__ import annotations

from dpsym._version import __version__
from dpsym.accounting.composition import component, compose, compose_epsilon
from dpsym.accounting.renyi import RenyiValue
from dpsym.bounds import BOUNDS, DiscreteLowerBound, LowerBound, LPBound
from dpsym.certified.evaluation import Value
from dpsym.core.costs import AMPLITUDE, POWER, Cost, parse_cost
from dpsym.core.expressions import Exact
from dpsym.core.params import INPUT_RULE, parse_exact, parse_number
from dpsym.distributions.scipy_face import Distribution
from dpsym.errors import CertificationError, DomainError, DpsymError, UnsupportedError
from dpsym.mechanisms import (
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
from dpsym.mechanisms.independent_staircase import IndependentStaircase
from dpsym.mechanisms.laplace_md import LaplaceMD
from dpsym.mechanisms.lattice_md import DiscreteLaplaceMD, DiscreteUniformMD
from dpsym.mechanisms.staircase_md import StaircaseMD

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
