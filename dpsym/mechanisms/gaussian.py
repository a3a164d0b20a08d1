r"""The Gaussian mechanisms: classic calibration (Dwork and Roth) and the analytic
calibration (Balle and Wang).

Sources: lecture notes (001), the Gaussian mechanism; paper (003), Section 6. The noise
density is

.. math:: f(x) = \frac{1}{\sigma\sqrt{2\pi}} e^{-x^2/(2\sigma^2)},

normalised by the engine, which derives the costs :math:`\mathbb{E}|X| = \sigma\sqrt{2/\pi}`
and :math:`\mathbb{E}X^2 = \sigma^2`. The two mechanisms differ in :math:`\sigma`:

* classic: :math:`\sigma = \sqrt{2\log(1.25/\delta)}\,\Delta/\varepsilon`, proved
  :math:`(\varepsilon, \delta)`-DP for :math:`\varepsilon \in (0, 1)` (the declared
  domain; :func:`dpsym.gaussian_calibration.classic_check` shows it fails beyond);
* analytic: the smallest :math:`\sigma` whose exact privacy profile
  :math:`\Phi(\frac{\Delta}{2\sigma} - \frac{\varepsilon\sigma}{\Delta})
  - e^\varepsilon \Phi(-\frac{\Delta}{2\sigma} - \frac{\varepsilon\sigma}{\Delta})` is at
  most :math:`\delta`; it has no closed form and is computed by
  :func:`dpsym.gaussian_calibration.calibrate_sigma_value` at the working precision.

Both sample with ``numpy.random.Generator.normal`` and compute their privacy profile with
:func:`dpsym.gaussian_calibration.profile_value` (the exact hockey-stick divergence).
"""

from __future__ import annotations

from fractions import Fraction

import mpmath
import numpy as np
import sympy as sp

from ..costs import Cost
from ..evaluation import Value
from ..gaussian_calibration import calibrate_sigma_value, profile_agreement
from ..noise import Piece, SymmetricNoise
from ..params import Derived, Domain, Guarantee, Param, delta_param, eps_param, sensitivity_param
from ..sampler_checks import check_rng, check_size
from ..symbols import NORM, Delta, delta, eps, x
from .base import Mechanism

#: The standard deviation of the noise.
sigma = sp.Symbol("sigma", positive=True)


class _Gaussian(Mechanism):
    r"""Gaussian noise of standard deviation :math:`\sigma` (set by the subclass)."""

    guarantee = Guarantee.APPROXIMATE

    @classmethod
    def noise_shape(cls) -> SymmetricNoise:
        return SymmetricNoise(lattice=False,
                              head=(Piece(0, sp.oo, NORM * sp.exp(-x**2 / (2 * sigma**2))),))

    def _sigma(self, digits: int) -> str:
        return self.value("sigma", "amplitude", digits).text

    def sample(self, rng: object, size: int | tuple[int, ...],
               cost: Cost | str = "amplitude") -> np.ndarray:
        """Draw noise values with ``rng.normal`` (float64; not hardened, see
        :mod:`dpsym.sampling`)."""
        shape, generator = check_size(size), check_rng(rng)
        return generator.normal(0.0, self._sigma_float(), shape)

    def _sigma_float(self) -> float:
        r""":math:`\sigma` rounded to float64 from its certified 20-digit value, once per
        instance (whose parameters are read-only)."""
        if "_sigma64" not in self.__dict__:
            self.__dict__["_sigma64"] = float(self._sigma(20))
        return self.__dict__["_sigma64"]

    def privacy_profile(self, eps_prime: object, cost: Cost | str = "amplitude",
                        digits: int = 30) -> Value:
        r"""The exact :math:`\delta(\varepsilon')` of the noise at this instance's
        :math:`\sigma` (read back from its certified decimal value)."""
        self.require(*(prm.name for prm in self.params))
        number, text, coarser = profile_agreement(eps_prime, self._sigma(digits + 10),
                                                  self.values["Delta"], digits)
        return Value.from_agreement(number, text, digits, coarser)


class ClassicGaussian(_Gaussian):
    r"""Gaussian noise with the classic
    :math:`\sigma = \sqrt{2\log(1.25/\delta)}\,\Delta/\varepsilon`."""

    name = "gaussian"
    title = "Gaussian mechanism (classic calibration)"
    source = "001 (Gaussian mechanism); 003 Section 6"
    params = (Param("eps", eps, Domain(lower=Fraction(0), upper=Fraction(1)),
                    "privacy parameter (the classic theorem needs eps < 1)", ("0.01", "0.9")),
              delta_param(Fraction(1)), sensitivity_param())
    derived = (Derived("sigma", sigma, "standard deviation"),
               Derived("density0", NORM, "density at the origin"))

    @classmethod
    def conditions(cls) -> tuple[tuple[sp.Symbol, sp.Expr, sp.Expr], ...]:
        return ((sigma, sigma, sp.sqrt(2 * sp.log(sp.Rational(5, 4) / delta)) * Delta / eps),)


class AnalyticGaussian(_Gaussian):
    r"""Gaussian noise with the smallest :math:`\sigma` that is :math:`(\varepsilon, \delta)`-DP."""

    name = "analytic-gaussian"
    irrational_values = False  # its numerics read eps (and delta) as fractions
    title = "Analytic Gaussian mechanism (Balle and Wang)"
    source = "001 (analytic Gaussian mechanism); 003 Section 6"
    params = (eps_param(), delta_param(Fraction(1)), sensitivity_param())
    derived = (Derived("sigma", sigma, "standard deviation", numeric=True),
               Derived("density0", NORM, "density at the origin"))

    @classmethod
    def derived_numeric(cls, symbol: sp.Symbol, point) -> mpmath.mpf:
        assert symbol is sigma
        exact = {s: v for s, v in point.items() if isinstance(v, sp.Rational)}
        return calibrate_sigma_value(Fraction(int(exact[eps].p), int(exact[eps].q)),
                                     Fraction(int(exact[delta].p), int(exact[delta].q)),
                                     Fraction(int(exact[Delta].p), int(exact[Delta].q)))


__all__ = ["AnalyticGaussian", "ClassicGaussian", "sigma"]
