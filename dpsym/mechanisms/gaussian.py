r"""The Gaussian mechanisms: classic calibration (Dwork and Roth) and the analytic
calibration (Balle and Wang).

Sources: lecture notes (001), the Gaussian mechanism; paper (003), Section 6. The noise
density is

.. math:: f(x) = \frac{1}{\sigma\sqrt{2\pi}} e^{-x^2/(2\sigma^2)},

normalised by the engine, which derives the costs :math:`\mathbb{E}|X| = \sigma\sqrt{2/\pi}`
and :math:`\mathbb{E}X^2 = \sigma^2`. The two mechanisms differ in :math:`\sigma`:

* classic: :math:`\sigma = \sqrt{2\log(1.25/\delta)}\,\Delta/\varepsilon`, proved
  :math:`(\varepsilon, \delta)`-DP for :math:`\varepsilon \in (0, 1)` (the declared
  domain; :func:`dpsym.gaussian.calibration.classic_check` shows it fails beyond);
* analytic: the smallest :math:`\sigma` whose exact privacy profile
  :math:`\Phi(\frac{\Delta}{2\sigma} - \frac{\varepsilon\sigma}{\Delta})
  - e^\varepsilon \Phi(-\frac{\Delta}{2\sigma} - \frac{\varepsilon\sigma}{\Delta})` is at
  most :math:`\delta`; it has no closed form. :meth:`AnalyticGaussian.value` isolates the
  root rigorously in Arb balls (:class:`dpsym.gaussian.enclosures.Calibration`) and evaluates
  :math:`\sigma`, the costs
  :math:`\mathbb{E}|X|^p = \sigma^p 2^{p/2}\Gamma(\frac{p+1}{2})/\sqrt\pi` (the engine's
  closed forms in :math:`\sigma`) and the density at the origin on that enclosure: every
  digit printed is proven (certificate ``"enclosure"``).

Both sample with ``numpy.random.Generator.normal`` and enclose their privacy profile (the
exact hockey-stick divergence) at their exact :math:`\sigma`: it is decreasing in
:math:`\sigma`, so it lies between its values at the ends of :math:`\sigma`'s enclosure
(:func:`dpsym.gaussian.calibration.profile_on`).
"""

from __future__ import annotations

from fractions import Fraction

import flint
import mpmath
import numpy as np
import sympy as sp

from dpsym.certified.balls import BallFunction, enclosure
from dpsym.certified.evaluation import Value, cost_balls
from dpsym.certified.expectation import expectation
from dpsym.certified.kernel import certify_ball, exact
from dpsym.certified.rounding import check_digits
from dpsym.core.costs import Cost, parse_cost
from dpsym.core.params import (
    Derived,
    Domain,
    Guarantee,
    Param,
    check_quantity,
    delta_param,
    eps_param,
    parameter_symbols,
    parse_exact,
    require,
    sensitivity_param,
)
from dpsym.errors import CertificationError
from dpsym.gaussian.calibration import CLASSIC_SIGMA, calibrate_sigma_value, profile_on
from dpsym.gaussian.enclosures import Calibration, sigma
from dpsym.mechanisms.base import Mechanism
from dpsym.precision import arb_workprec
from dpsym.privacy.profiles import PrivacyCheck
from dpsym.sampling.checks import check_rng, check_size
from dpsym.symbolic.noise import Piece, SymmetricNoise
from dpsym.symbols import NORM, Delta, delta, eps, x


class _Gaussian(Mechanism):
    r"""Gaussian noise of standard deviation :math:`\sigma` (set by the subclass)."""

    guarantee = Guarantee.APPROXIMATE

    @classmethod
    def _noise_shape(cls) -> SymmetricNoise:
        return SymmetricNoise(lattice=False,
                              head=(Piece(0, sp.oo, NORM * sp.exp(-x**2 / (2 * sigma**2))),))

    def _sigma(self, digits: int) -> str:
        return self.value("sigma", "amplitude", digits).text

    def sample(self, rng: object, size: int | tuple[int, ...],
               cost: Cost | str = "amplitude") -> np.ndarray:
        """Draw noise values with ``rng.normal`` (float64; not hardened, see
        :mod:`dpsym.sampling.samplers`)."""
        shape, generator = check_size(size), check_rng(rng)
        return generator.normal(0.0, self._sigma_float(), shape)

    def _sigma_float(self) -> float:
        r""":math:`\sigma` rounded to float64 from its certified 20-digit value, once per
        instance (whose parameters are read-only)."""
        if "_sigma64" not in self.__dict__:
            self.__dict__["_sigma64"] = float(self._sigma(20))
        return self.__dict__["_sigma64"]

    def privacy_profile(self, eps_prime: object, cost: Cost | str = "amplitude",
                        digits: int = 30, *, free_value: object = None) -> Value:
        r"""The exact :math:`\delta(\varepsilon^{\prime})` of the noise at this instance's exact
        :math:`\sigma`, enclosed (between the profiles at the ends of :math:`\sigma`'s
        enclosure, :func:`dpsym.gaussian.calibration.profile_on`) and rounded to ``digits``
        proven digits (``free_value`` is accepted as by every mechanism; a Gaussian has no
        free parameter)."""
        require(self, *(prm.name for prm in self.params))
        enclose = profile_on(eps_prime, self._sigma_ball, self.values["Delta"])
        found = certify_ball(enclose, check_digits(digits), what="the Gaussian profile",
                             within=(0, 1))
        return Value(None, None, digits, source=found)

    def _sigma_ball(self, bits: int) -> flint.arb:
        r"""A ball of the exact :math:`\sigma` with about ``bits`` bits of relative
        accuracy."""
        raise NotImplementedError

    def _calibrated_at(self, eps_exact: Fraction, target: Fraction) -> bool:
        r"""Whether :math:`\sigma` is, by definition, the root of
        :math:`\delta(\varepsilon; \sigma) =` ``target`` at ``eps_exact`` (the profile then
        equals the target exactly: a tie no enclosure separates)."""
        return False

    def is_private(self, eps: object, delta: object = 0, cost: Cost | str = "amplitude",
                   digits: int = 30, *, free_value: object = None) -> PrivacyCheck:
        r"""Decide :math:`(\varepsilon, \delta)`-DP of the noise at this instance's exact
        :math:`\sigma` from the enclosure of its profile (:meth:`privacy_profile`): true
        when the enclosure's upper end is :math:`\le \delta`, false when its lower end is
        :math:`> \delta`, the digits doubled in between; at the analytic calibration's own
        :math:`(\varepsilon, \delta)` true by the definition of :math:`\sigma^*`.

        Raises
        ------
        CertificationError
            If the enclosure does not separate the profile from :math:`\delta` at 4 times
            the digits.
        """
        eps_exact = parse_exact(eps, "eps")
        target = parse_exact(delta, "delta")
        for k in range(3):
            found = self.privacy_profile(eps_exact, cost, digits * 2**k)
            lo, hi = (Fraction(t) for t in found.enclosure)
            if self._calibrated_at(eps_exact, target) or hi <= target or lo > target:
                private = self._calibrated_at(eps_exact, target) or hi <= target
                return PrivacyCheck(private, found.number, found.text, self.values["Delta"],
                                    eps_exact, target, mpmath.mpf(0))
        raise CertificationError(f"{self.name}: the profile at eps = {eps} is not separated "
                                 f"from delta = {delta} at {digits * 4} digits")


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
    def _conditions(cls) -> tuple[tuple[sp.Symbol, sp.Expr, sp.Expr], ...]:
        return ((sigma, sigma, CLASSIC_SIGMA),)

    def _sigma_ball(self, bits: int) -> flint.arb:
        r""":data:`~dpsym.gaussian.calibration.CLASSIC_SIGMA` in balls."""
        require(self, *(prm.name for prm in self.params))
        found = enclosure(CLASSIC_SIGMA, {s: self.values[str(s)] for s in (eps, delta, Delta)},
                          bits + 32)
        assert found is not None  # (an elementary expression at exact rationals)
        return found


def _monotone_in_sigma(m: _Gaussian, cost: Cost, digits: int) -> Value:
    r""":math:`\mathbb{E}\,L(X)` for a cost :math:`L` that is not a power, on the enclosure
    :math:`[\sigma_1, \sigma_2]` of :math:`\sigma`: :math:`|X| = \sigma|Z|` grows with
    :math:`\sigma` and :math:`L` is non-decreasing in :math:`|x|`, so the expectation lies
    between its values at the two exact ends, each enclosed over the noise description
    (:func:`dpsym.certified.expectation.expectation`)."""
    balls = cost_balls(cost)
    shape = m.engine.noise_shape().subs(m.engine.calibration())

    def enclose(bits: int) -> flint.arb:
        s = m._sigma_ball(bits + 16)
        ends = []
        for end in (s.lower(), s.upper()):
            exact_end = exact(end)
            noise = shape.subs({sigma: sp.Rational(exact_end.numerator,
                                                   exact_end.denominator)})
            ends.append(expectation(noise, balls))
        return ends[0].union(ends[1])

    found = certify_ball(enclose, digits, what=f"{m.name} expected {cost.name}")
    return Value(None, None, digits, source=found)


class AnalyticGaussian(_Gaussian):
    r"""Gaussian noise with the smallest :math:`\sigma` that is :math:`(\varepsilon, \delta)`-DP."""

    name = "analytic-gaussian"
    _irrational_values = False  # its numerics read eps (and delta) as fractions
    title = "Analytic Gaussian mechanism (Balle and Wang)"
    source = "001 (analytic Gaussian mechanism); 003 Section 6"
    params = (eps_param(), delta_param(Fraction(1)), sensitivity_param())
    derived = (Derived("sigma", sigma, "standard deviation", numeric=True),
               Derived("density0", NORM, "density at the origin"))

    @classmethod
    def _derived_numeric(cls, symbol: sp.Symbol, point) -> mpmath.mpf:
        r""":math:`\sigma^*` at the working precision (mpmath, not certified: the
        ``method="mpmath"`` path and cross-checks)."""
        assert symbol is sigma
        exact = {s: v for s, v in point.items() if isinstance(v, sp.Rational)}
        return calibrate_sigma_value(Fraction(int(exact[eps].p), int(exact[eps].q)),
                                     Fraction(int(exact[delta].p), int(exact[delta].q)),
                                     Fraction(int(exact[Delta].p), int(exact[Delta].q)))

    def _root(self) -> Calibration:
        r"""The rigorous root isolation of :math:`\sigma^*`, kept per instance (its
        parameters are read-only)."""
        if "_calibration" not in self.__dict__:
            require(self, *(prm.name for prm in self.params))
            v = self.values
            self.__dict__["_calibration"] = Calibration(v["eps"], v["delta"], v["Delta"])
        return self.__dict__["_calibration"]

    def _sigma_ball(self, bits: int) -> flint.arb:
        return self._root().sigma(bits)

    def _general_value(self, quantity: str, cost: Cost, digits: int) -> Value | None:
        r"""The expected cost on the enclosure of the calibrated :math:`\sigma^*`
        (:func:`_monotone_in_sigma`); the other quantities do not depend on the cost."""
        if quantity != "cost":
            return self.value(quantity, "amplitude", digits)
        require(self, *(prm.name for prm in self.params))
        return _monotone_in_sigma(self, cost, digits)

    def _calibrated_at(self, eps_exact: Fraction, target: Fraction) -> bool:
        require(self, "eps", "delta")
        return (eps_exact, target) == (self.values["eps"], self.values["delta"])

    def value(self, quantity: str = "cost", cost: Cost | str = "amplitude", digits: int = 30,
              *, method: str = "auto") -> Value:
        r"""``quantity`` (``cost``, ``sigma`` or ``density0``) enclosed rigorously: the
        engine's closed form of it in :math:`\sigma` (the cost
        :math:`\sigma^p 2^{p/2}\Gamma(\frac{p+1}{2})/\sqrt\pi`, the density
        :math:`1/(\sigma\sqrt{2\pi})`) evaluated in Arb on the enclosure of the calibrated
        :math:`\sigma^*` (:meth:`dpsym.gaussian.enclosures.Calibration.sigma`), refined until
        the digits are decided: certificate ``"enclosure"``. Other methods are those of
        :func:`dpsym.certified.evaluation.value` (``"ball"`` needs a closed form, which
        :math:`\sigma^*`
        has not; ``"mpmath"`` is the two-precision heuristic, ``"agreement"``).

        Raises
        ------
        DomainError
            For an unknown quantity, cost, method or an invalid ``digits``.
        CertificationError
            If the root cannot be isolated or the rounding decided.
        """
        cost = parse_cost(cost)
        if method != "auto" or not cost.is_power:
            return super().value(quantity, cost, digits, method=method)
        check_quantity(self, quantity)
        self._specific(cost)
        digits = check_digits(digits)
        require(self, *(prm.name for prm in self.params))
        if quantity == "cost":
            expr = self.cost_function(cost)
        elif quantity == "sigma":
            expr = sigma
        else:
            der = next(d for d in self.derived if d.name == quantity)
            expr = self.engine.calibration()[der.symbol]
        symbol = parameter_symbols(self)
        exact = {symbol[n]: v for n, v in self.values.items()}
        function = BallFunction.prepare(expr, exact, sigma)
        if function is None:  # pragma: no cover - every closed form here is elementary
            raise CertificationError(f"{self.name}: {quantity} has no ball form in sigma")
        root = self._root()
        # a power p of sigma multiplies its relative width by p
        extra = 8 + int(float(cost.power)).bit_length() if quantity == "cost" else 8

        def enclose(bits: int) -> flint.arb:
            s = root.sigma(bits + extra)
            with arb_workprec(bits + extra + 32):
                return function(s)

        found = certify_ball(enclose, digits, what=f"{self.name} {quantity}")
        return Value(None, None, digits, source=found)


__all__ = ["AnalyticGaussian", "ClassicGaussian", "sigma"]
