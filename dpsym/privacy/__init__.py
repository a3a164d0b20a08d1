r"""Privacy of a noise description at a sensitivity: the exact privacy profile
:math:`\delta(\varepsilon^{\prime})` (hockey-stick divergence), ``is_private`` and the
privacy loss.

Modules: :mod:`~dpsym.privacy.divergence` (piecewise densities and their hockey-stick
integrals), :mod:`~dpsym.privacy.closed_forms` (closed-form profiles, exact or in Arb),
:mod:`~dpsym.privacy.lattice` (lattice and piecewise-constant noise, run by run),
:mod:`~dpsym.privacy.profiles` (the profile and ``is_private`` of any noise),
:mod:`~dpsym.privacy.loss` (the privacy loss at a shift: Rényi integrals, KL, the loss
law).
"""
