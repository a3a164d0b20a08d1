"""The mechanisms dpsym knows, one module per family, and their registry by CLI name."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

from dpsym.certified.evaluation import Value
from dpsym.core.names import resolve
from dpsym.core.params import FreeParameter
from dpsym.errors import DomainError
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
#: The names of the catalogue's own mechanisms (never unregistered).
CATALOGUE = frozenset(MECHANISMS)


def register(cls: type[Mechanism]) -> None:
    """Add a mechanism class (a declared noise, :mod:`dpsym.mechanisms.declared`) to
    :data:`MECHANISMS` under its name, so that :func:`get_mechanism`, ``compare``, sweeps
    and the command line know it.

    Raises
    ------
    DomainError
        If another class already has that name.
    """
    if MECHANISMS.get(cls.name, cls) is not cls:
        raise DomainError("name", f"{cls.name!r} is already a mechanism; choose another name")
    MECHANISMS[cls.name] = cls


def unregister(cls: type[Mechanism]) -> None:
    """Remove a class added by :func:`register` (the catalogue's entries stay)."""
    if MECHANISMS.get(cls.name) is cls and cls.name not in CATALOGUE:
        del MECHANISMS[cls.name]


@contextmanager
def registered(cls: type[Mechanism]) -> Iterator[type[Mechanism]]:
    """:func:`register` ``cls`` for the duration of a ``with`` block."""
    register(cls)
    try:
        yield cls
    finally:
        unregister(cls)


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
    "register",
    "registered",
    "unregister",
]
