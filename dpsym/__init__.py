"""dpsym: the theory of optimal noise-adding mechanisms in differential privacy, executable."""

from __future__ import annotations

from ._version import __version__
from .costs import AMPLITUDE, POWER, Cost, parse_cost
from .errors import CertificationError, DomainError, DpsymError, UnsupportedError
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

__all__ = [
    "AMPLITUDE",
    "MECHANISMS",
    "POWER",
    "AnalyticGaussian",
    "CertificationError",
    "ClassicGaussian",
    "Cost",
    "DiscreteLaplace",
    "DiscreteStaircase",
    "DiscreteUniform",
    "DomainError",
    "DpsymError",
    "Laplace",
    "Mechanism",
    "Staircase",
    "TruncatedLaplace",
    "UniformMass",
    "UnsupportedError",
    "__version__",
    "get_mechanism",
    "parse_cost",
]
