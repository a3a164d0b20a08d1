"""Samplers of a noise description: vectorised numpy samplers, exact integer samplers, and
the checks every sampler makes of its arguments.

Modules: :mod:`~dpsym.sampling.checks` (arguments and float64 range),
:mod:`~dpsym.sampling.inversion` (one piece compiled for sampling),
:mod:`~dpsym.sampling.samplers` (samplers and exact distribution functions of a noise),
:mod:`~dpsym.sampling.ball_sampling` (the :math:`d`-dimensional staircase as a mixture of
balls), :mod:`~dpsym.sampling.exact_bits` and :mod:`~dpsym.sampling.exact` (exact
samplers from fair random bits).
"""
