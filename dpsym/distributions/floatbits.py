r"""Exact float64 inverses of monotone functions, by bisection over the doubles.

A double's 64-bit pattern, negated below zero (:func:`key`), is an integer that orders
the doubles as the reals: a bisection over these integers (:func:`first_double`) finds,
in at most :data:`STEPS` halvings, the smallest double at which a monotone predicate
holds, with no tolerance to choose. :mod:`dpsym.distributions.scipy_face` builds ``ppf`` and
``isf`` on it: the smallest :math:`y` with :math:`F(y) \ge q`, the largest with
:math:`S(y) \le q`, exactly for the float64 :math:`F` and :math:`S` it has.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

#: Bisection steps (the 64-bit patterns of doubles: 64 halvings and a margin).
STEPS = 66


def first_double(reached: Callable[[np.ndarray], np.ndarray], shape: tuple[int, ...]
           ) -> np.ndarray:
    """The smallest double ``y`` with ``reached(y)``, elementwise: a bisection over the
    64-bit patterns of doubles (:func:`key`) keeping ``reached(lo)`` false and
    ``reached(hi)`` true, from ``-inf`` (taken as false) and ``inf`` (taken as true)."""
    lo = np.full(shape, key(-np.inf), dtype=np.int64)
    hi = np.full(shape, key(np.inf), dtype=np.int64)
    for _ in range(STEPS):
        mid = (lo >> 1) + (hi >> 1) + (lo & hi & 1)
        ok = reached(unkey(mid))
        hi, lo = np.where(ok, mid, hi), np.where(ok, lo, mid)
    return unkey(hi)


def key(value: float) -> int:
    """The order-preserving integer of a double (its bit pattern, negated below 0)."""
    bits = int(np.array(abs(value)).view(np.int64))
    return -bits if value < 0 else bits


def unkey(keys: np.ndarray) -> np.ndarray:
    """The doubles of order-preserving integers (:func:`key`)."""
    magnitude = np.abs(keys).astype(np.int64).view(np.float64)
    return np.where(keys < 0, -magnitude, magnitude)


__all__ = ["STEPS", "first_double", "key", "unkey"]
