r"""The Gaussian noise in one place: its exact privacy profile, the classic and analytic
calibrations of :math:`\sigma`, and its privacy loss under composition.

Modules: :mod:`~dpsym.gaussian.enclosures` (the profile and the analytic calibration's
root as rigorous Arb enclosures), :mod:`~dpsym.gaussian.calibration` (the calibrations at
any precision and in float64), :mod:`~dpsym.gaussian.loss` (the privacy loss under
composition). The mechanisms themselves are in :mod:`dpsym.mechanisms.gaussian`.
"""
