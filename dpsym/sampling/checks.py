r"""What every float sampler checks: its arguments, and that its noise fits in float64.

Shared by the one-dimensional samplers (:mod:`dpsym.sampling.samplers`), the ball-mixture sampler
(:mod:`dpsym.sampling.ball_sampling`) and the mechanisms' ``sample`` methods, so that each refuses
a bad ``size`` or ``rng`` with the same :class:`~dpsym.errors.DomainError` (the exact
samplers of :mod:`dpsym.sampling.exact` accept more random sources and check their own).

A sample is at most about 45 scales of its noise (numpy's largest standard exponential
and :math:`-\log` of its smallest uniform are below 45), so a noise whose scale is at most
:data:`REACH_MAX` has finite float64 samples, and one whose scale is at most
:data:`LATTICE_REACH_MAX` has integer samples below :math:`2^{53}`, where float64 (used
on the way) still holds every integer. A larger noise raises :class:`ScaleError`.
"""

from __future__ import annotations

from numbers import Integral

import numpy as np

from dpsym.errors import DomainError, UnsupportedError

#: Largest noise scale of a float64 sampler.
REACH_MAX = 1e305
#: Largest noise scale of an integer sampler.
LATTICE_REACH_MAX = 2.0**47


class ScaleError(UnsupportedError):
    """The noise reaches further than float64 samples (integer samples: below
    :math:`2^{53}`) hold: its scale ``reach`` exceeds ``limit``."""

    def __init__(self, reach: float, limit: float, lattice: bool = False) -> None:
        self.reach, self.limit = reach, limit
        shown = f"{reach:.3g}" if np.isfinite(reach) else "beyond the float64 range"
        kind = "integer" if lattice else "float64"
        super().__init__(f"the {kind} sampler draws noise of scale up to {limit:.3g}, "
                         f"this noise has scale {shown}")


def check_size(size: object) -> tuple[int, ...]:
    """``size`` as a shape: a non-negative integer or a tuple of them (``bool``, float and
    str are refused), else :class:`~dpsym.errors.DomainError`."""
    shape = size if isinstance(size, tuple) else (size,)
    for n in shape:
        if isinstance(n, bool) or not isinstance(n, Integral) or n < 0:
            shown = repr(size) if len(repr(size)) <= 40 else repr(size)[:37] + "..."
            raise DomainError("size", "must be a non-negative integer or a tuple of "
                              f"non-negative integers, got {shown}")
    return tuple(int(n) for n in shape)


def check_rng(rng: object) -> np.random.Generator:
    """``rng`` if it is a :class:`numpy.random.Generator`, a fresh unseeded one for
    ``None``, else :class:`~dpsym.errors.DomainError`."""
    if rng is None:
        return np.random.default_rng()
    if not isinstance(rng, np.random.Generator):
        raise DomainError("rng", "must be a numpy.random.Generator or None, got "
                          f"{type(rng).__name__}")
    return rng


def check_random_state(random_state: object) -> np.random.Generator:
    """A :class:`numpy.random.Generator` from scipy's ``random_state`` conventions.

    ``None`` gives a fresh unseeded generator, an int or a
    :class:`~numpy.random.SeedSequence` seeds a new one (reproducibly), a
    :class:`~numpy.random.Generator` is used as it is, and a legacy
    :class:`~numpy.random.RandomState` lends its bit generator (its state advances).

    Raises
    ------
    DomainError
        For anything else.
    """
    if random_state is None or isinstance(random_state, np.random.SeedSequence):
        return np.random.default_rng(random_state)
    if isinstance(random_state, Integral) and not isinstance(random_state, bool):
        if random_state < 0:
            raise DomainError("random_state", f"a seed must be >= 0, got {random_state}")
        return np.random.default_rng(int(random_state))
    if isinstance(random_state, np.random.Generator):
        return random_state
    if isinstance(random_state, np.random.RandomState):
        return np.random.Generator(random_state._bit_generator)  # shares (and advances) it
    raise DomainError("random_state", "must be None, an int, a numpy SeedSequence, "
                      f"Generator or RandomState, got {type(random_state).__name__}")


__all__ = ["LATTICE_REACH_MAX", "REACH_MAX", "ScaleError", "check_random_state", "check_rng",
           "check_size"]
