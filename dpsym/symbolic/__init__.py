r"""The symbolic engine: everything a noise family's definition determines, in sympy.

Modules, bottom up: :mod:`~dpsym.symbolic.lambdas` and :mod:`~dpsym.symbolic.numerics`
(sympy to mpmath), :mod:`~dpsym.symbolic.sums` (geometric and Lerch sums over the period
index), :mod:`~dpsym.symbolic.tidy` (readable forms), :mod:`~dpsym.symbolic.powerseries`
(exact truncated Puiseux series), :mod:`~dpsym.symbolic.regimes` and
:mod:`~dpsym.symbolic.asymptotics` (the asymptotic regimes and series without a closed
form), :mod:`~dpsym.symbolic.noise` (the noise description: pieces and a geometric tail),
:mod:`~dpsym.symbolic.l1` (the :math:`\ell^1` geometry of :math:`\mathbb{R}^d`),
:mod:`~dpsym.symbolic.optimize` (minimisers), :mod:`~dpsym.symbolic.engine` (the
derivations of a family) and :mod:`~dpsym.symbolic.cache` (the derivation cache, with the
generated :mod:`~dpsym.symbolic._derived`).
"""
