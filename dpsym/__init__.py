"""dpsym: the theory of optimal noise-adding mechanisms in differential privacy, executable."""

from __future__ import annotations

from .costs import AMPLITUDE, POWER, Cost, parse_cost
from .errors import CertificationError, DomainError, DpsymError, UnsupportedError
from .mechanisms import (
    MECHANISMS,
    DiscreteLaplace,
    DiscreteStaircase,
    Laplace,
    Mechanism,
    Staircase,
    get_mechanism,
)

__version__ = "0.1.0"

__all__ = [
    "AMPLITUDE",
    "MECHANISMS",
    "POWER",
    "CertificationError",
    "Cost",
    "DiscreteLaplace",
    "DiscreteStaircase",
    "DomainError",
    "DpsymError",
    "Laplace",
    "Mechanism",
    "Staircase",
    "UnsupportedError",
    "__version__",
    "get_mechanism",
    "parse_cost",
]
