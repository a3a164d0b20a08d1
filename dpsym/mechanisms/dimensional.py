r"""Mechanisms on :math:`\mathbb{R}^d` (or :math:`\mathbb{Z}^d`) whose derivations depend on
the dimension.

The dimension is the declared integer parameter ``dim``; the symbolic derivations of a
class are those of its :attr:`DimensionalMechanism.DIM` (default 2), and
``Cls.for_dim(d)`` is the (cached) class of dimension ``d``: an instance created with
``dim=d`` belongs to it. The multi-dimensional staircase, Laplace and independent
staircases and the lattice products all build on this class.
"""

from __future__ import annotations

from fractions import Fraction
from functools import cache
from types import MappingProxyType
from typing import ClassVar

import numpy as np

from dpsym.certified.evaluation import Value
from dpsym.certified.kernel import Certified, ball, ball_rounding, bits_for
from dpsym.core.costs import Cost
from dpsym.core.params import dim_param
from dpsym.errors import CertificationError, UnsupportedError
from dpsym.mechanisms.base import Mechanism
from dpsym.precision import arb_workprec
from dpsym.privacy.profiles import PrivacyCheck


@cache
def _variant(root: type, d: int) -> type:
    return type(f"{root.__name__}_dim{d}", (root,),
                {"DIM": d, "_variant_of": root, "__module__": root.__module__,
                 "__doc__": root.__doc__, "__qualname__": f"{root.__qualname__}_dim{d}"})


def _rebuild(root: type, values: dict[str, Fraction]) -> DimensionalMechanism:
    """An instance of ``root`` (or of its class of the given dimension) from its values."""
    return root(**values)


class DimensionalMechanism(Mechanism):
    r"""A mechanism on :math:`\mathbb{R}^d` whose symbolic derivations depend on ``dim``.

    The class attribute :attr:`DIM` is the dimension of the class's derivations;
    :meth:`for_dim` returns the (cached) subclass of another dimension, and
    ``Cls(dim=d, ...)`` creates an instance of it.
    """

    DIM: ClassVar[int] = 2
    _variant_of: ClassVar[type[DimensionalMechanism] | None] = None

    @classmethod
    def for_dim(cls, d: object) -> type[DimensionalMechanism]:
        """The class of dimension ``d``.

        Raises
        ------
        DomainError
            If ``d`` is not an integer in [1, :data:`DIM_MAX`].
        """
        root = cls._variant_of or cls
        value = int(dim_param().validate(d))
        return root if value == root.DIM else _variant(root, value)  # type: ignore[arg-type]  # a class is Hashable (mypy: its instances are not)

    def __new__(cls, *args: object, **values: object) -> DimensionalMechanism:
        target = cls if values.get("dim") is None else cls.for_dim(values["dim"])
        return object.__new__(target)

    def __init__(self, *args: object, **values: object) -> None:
        super().__init__(*args, **values)
        self.values = MappingProxyType({**self.values, "dim": Fraction(self.DIM)})

    def __reduce__(self) -> tuple[object, tuple[type, dict[str, Fraction]]]:
        """Pickled as its root class and parameter values (the class of each dimension is
        made at run time)."""
        return _rebuild, (self._variant_of or type(self), dict(self.values))

    #: Whether the noise is a product of one-dimensional laws, so that a cost
    #: :math:`L` of one coordinate defines the separable cost :math:`\sum_i L(X_i)` (of
    #: which :math:`\|x\|_1` and :math:`\|x\|_2^2` are the cases :math:`|x|`, :math:`x^2`).
    _separable: ClassVar[bool] = False

    @classmethod
    def _specific(cls, cost: Cost) -> None:
        if cost.is_power and cost.exponent in (1, 2):
            return
        if not cost.is_power and cls._separable:
            return
        extra = ("; a cost L given as an expression in x is the separable cost "
                 "sum_i L(X_i) of the product mechanisms") if not cost.is_power else ""
        raise UnsupportedError(
            f"{cls.name}: costs are amplitude (E||X||_1) and power (E||X||_2^2); "
            f"{cost.name} is not defined in {cls.DIM} dimensions{extra}")

    def _one_dimensional_instance(self) -> Mechanism:
        """The law of one coordinate as a one-dimensional mechanism instance (separable
        families)."""
        raise NotImplementedError

    def _general_value(self, quantity: str, cost: Cost, digits: int) -> Value | None:
        r"""The separable cost :math:`\mathbb{E}\sum_i L(X_i) = d\,\mathbb{E}\,L(X_1)`:
        :math:`d` times the one-dimensional enclosure, re-rounded (the one-dimensional
        value is certified with more digits until :math:`d` times its proven range
        rounds); the free and derived parameters are the one-dimensional ones."""
        one = self._one_dimensional_instance()
        if quantity != "cost":
            return one.value(quantity, cost, digits)
        d = Fraction(self.DIM)
        for extra in (4, 12, 40):
            found = one.value("cost", cost, digits + extra)
            lo, hi = (Fraction(t) * d for t in found.enclosure)
            if found.certificate == "exact" and lo == hi:
                return Value(None, None, digits, source=Certified.exact(lo, digits))
            bits = bits_for(digits + extra, 64)
            with arb_workprec(bits):
                box = ball(lo).union(ball(hi))
                rounded = ball_rounding(box, digits)
            if rounded is not None:
                return Value(None, None, digits, source=Certified(box, rounded, digits))
        raise CertificationError(f"{self.name}: the cost {cost.name} did not round to "
                                 f"{digits} digits")

    def sample(self, rng: np.random.Generator | None, size: int | tuple[int, ...],
               cost: Cost | str = "amplitude") -> np.ndarray:
        """Noise vectors, an array of shape ``(size, d)``."""
        raise NotImplementedError

    def privacy_profile(self, eps_prime: object, cost: Cost | str = "amplitude",
                        digits: int = 30, *, free_value: object = None) -> Value:
        """Not available: :mod:`dpsym.privacy.profiles` handles one-dimensional noise only."""
        raise UnsupportedError(
            f"{self.name}: no certified privacy profile in d dimensions; see the module's "
            "privacy functions")

    def is_private(self, eps: object, delta: object = 0, cost: Cost | str = "amplitude",
                   digits: int = 30, *, free_value: object = None) -> PrivacyCheck:
        """Not available: :mod:`dpsym.privacy.profiles` handles one-dimensional noise only."""
        raise UnsupportedError(
            f"{self.name}: no certified privacy check in d dimensions")


__all__ = ["DimensionalMechanism"]
