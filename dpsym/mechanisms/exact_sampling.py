r"""The exact samplers of the integer-valued mechanisms, by name or by instance.

The samplers themselves (integers and rationals only, from fair random bits) are in
:mod:`dpsym.sampling.exact` and take every parameter, the discrete staircase's step
:math:`r` included; this front door reads a mechanism's parameters from an instance or
from keywords, and takes the optimal step :math:`r^*` for a cost from the mechanism
(:meth:`DiscreteStaircase.free_value <dpsym.mechanisms.base.Mechanism.free_value>`, a
certified integer minimisation) when none is given.
"""

from __future__ import annotations

from collections.abc import Mapping
from fractions import Fraction
from functools import lru_cache
from typing import Any

import numpy as np

from dpsym.errors import DomainError
from dpsym.mechanisms.base import Mechanism
from dpsym.mechanisms.discrete_staircase import DiscreteStaircase
from dpsym.sampling.exact import (
    EXACT_MECHANISMS,
    DiscreteLaplaceExact,
    DiscreteStaircaseExact,
    DiscreteUniformExact,
    ExactSampler,
    check_delta,
    check_eps,
    check_integer,
)
from dpsym.sampling.exact_bits import RandomBits


@lru_cache(maxsize=128)
def _optimal_r(eps: Fraction, Delta: int, cost: str) -> int:
    """The discrete staircase's optimal step for ``cost``."""
    return int(DiscreteStaircase(eps=eps, Delta=Delta).free_value(cost))


def exact_sampler(mechanism: object, *, eps: object = None, delta: object = None,
                  Delta: object = None, r: object = None,
                  cost: str = "amplitude") -> ExactSampler:
    r"""The exact sampler of an integer-valued mechanism.

    Parameters
    ----------
    mechanism : str or Mechanism
        A name in :data:`EXACT_MECHANISMS`, or an instance of such a mechanism (its
        ``values`` are read; ``type(instance).name`` picks the sampler).
    eps : Fraction, int or str, optional
        :math:`\varepsilon`, exact (``"0.5"``, ``"1/3"``, ``Fraction(1, 3)``).
    delta : Fraction, int or str, optional
        :math:`\delta` (discrete uniform).
    Delta : int, optional
        The integer sensitivity (default 1).
    r : int, optional
        The discrete staircase's step; by default the optimal :math:`r^*` for ``cost``
        (``DiscreteStaircase.free_value(cost)``, a certified integer minimisation).
    cost : str
        The cost that picks :math:`r^*`.

    Returns
    -------
    ExactSampler
        ``draw(RandomBits(rng)) -> int``, ``sample(rng, size) -> numpy.ndarray``.

    Raises
    ------
    DomainError
        For an unknown mechanism or a parameter outside its domain (the message names
        the parameter and its valid range).
    """
    if isinstance(mechanism, str):
        name = mechanism
        values: Mapping[str, object] = {"eps": eps, "delta": delta, "Delta": Delta}
        instance = None
    else:
        found_name = getattr(type(mechanism), "name", None)
        found_values = getattr(mechanism, "values", None)
        if not isinstance(found_name, str) or not isinstance(found_values, Mapping):
            raise DomainError("mechanism", "expected a mechanism name or instance, got "
                              f"{type(mechanism).__name__}")
        name, values = found_name, found_values
        for key, given in (("eps", eps), ("delta", delta), ("Delta", Delta)):
            if given is not None:
                raise DomainError(key, "is read from the mechanism instance; pass it to "
                                  "the instance instead")
        instance = mechanism
    if name not in EXACT_MECHANISMS:
        raise DomainError("mechanism", f"no exact sampler for {str(name)[:40]!r}; valid: "
                          + ", ".join(EXACT_MECHANISMS))

    def need(key: str) -> object:
        value = values.get(key)
        if value is None:
            if key == "Delta":
                return 1
            raise DomainError(key, f"a value is required for {name}")
        return value

    if name != "discrete-staircase" and r is not None:
        raise DomainError("r", f"is a parameter of discrete-staircase only, not {name}")
    if name == "discrete-laplace":
        return DiscreteLaplaceExact(check_eps(need("eps")),
                                    check_integer(need("Delta"), "Delta", 1))
    if name == "discrete-uniform":
        return DiscreteUniformExact(check_delta(need("delta")),
                                    check_integer(need("Delta"), "Delta", 1))
    e, big = check_eps(need("eps")), check_integer(need("Delta"), "Delta", 1)
    if r is None:
        if isinstance(instance, Mechanism):
            r = int(instance.free_value(cost))
        else:
            r = _optimal_r(e, big, str(cost))
    return DiscreteStaircaseExact(e, big, check_integer(r, "r", 1, big))


def sample_exact(mechanism: object, rng: object = None, size: int | tuple[int, ...] = 1,
                 **params: Any) -> np.ndarray:
    r"""Exact noise samples of an integer-valued mechanism, as an ``int64`` array.

    ``sample_exact("discrete-laplace", numpy.random.default_rng(0), 1000, eps="1/2",
    Delta=2)`` or ``sample_exact(DiscreteStaircase(eps="1", Delta=4), rng, 1000,
    cost="power")``. Only integer random bits are used (see the module docstring); the
    result is exact, unlike :func:`dpsym.sampling.samplers.sample`, whose float samplers are not
    hardened against floating-point attacks.

    Parameters
    ----------
    mechanism : str or Mechanism
        See :func:`exact_sampler`.
    rng : numpy.random.Generator, random.Random-like or None
        The random source; only its integer bits are used.
    size : int or tuple of int
        The output shape.
    **params
        ``eps``, ``delta``, ``Delta``, ``r``, ``cost`` as in :func:`exact_sampler`.

    Returns
    -------
    numpy.ndarray
        ``int64`` samples of shape ``size``.
    """
    return exact_sampler(mechanism, **params).sample(rng, size)


def draw_exact(mechanism: object, rng: object = None, **params: Any) -> int:
    """One exact sample as a Python ``int`` (scalar form of :func:`sample_exact`)."""
    return exact_sampler(mechanism, **params).draw(RandomBits(rng))


__all__ = ["draw_exact", "exact_sampler", "sample_exact"]
