"""The distribution of a mechanism's noise, as ``scipy.stats`` users know it.

Modules: :mod:`~dpsym.distributions.scipy_face` (``rvs``, ``pdf``/``pmf``, ``cdf``,
``ppf``, moments, ``to_scipy``), :mod:`~dpsym.distributions.entropy` (the entropy of a
noise), :mod:`~dpsym.distributions.floatbits` (exact float64 inverses by bisection).
"""
