r"""Closed-form privacy profiles of the audited noises, exact or enclosed in Arb balls.

The profile :math:`\delta(\varepsilon) = \sup_{|d| \le \Delta}
\int (f(x) - e^\varepsilon f(x + d))_+\,dx` of each noise audited by :mod:`dpsym.audit`
has a closed form whose discrete parts (a positive part, a minimum, which piece of the
density the crossing point falls in) are decided here **exactly**, by comparisons of
rationals of the exact inputs; only then are the transcendental pieces evaluated, in
Arb balls, each written without cancellation (:math:`1 - e^{-t}` as
:math:`-\operatorname{expm1}(-t)`). A value that is a rational number (an exact zero, an
exact one) is returned as such (:class:`Profile`).

**Laplace** (scale :math:`\lambda`). For :math:`d > 0` the loss
:math:`(|z - d| - |z|)/\lambda` decreases from :math:`d/\lambda` to :math:`-d/\lambda`, and
:math:`f(z) > e^\varepsilon f(z - d)` exactly for :math:`z < t = (d - \varepsilon\lambda)/2`;
with both tails, :math:`H(d) = (1 - e^{(\varepsilon - d/\lambda)/2})_+`, largest at
:math:`d = \Delta` (log-concave noise, :mod:`dpsym.privacy`):

.. math:: \delta(\varepsilon) = \bigl(1 - e^{(\varepsilon - \Delta/\lambda)/2}\bigr)_+,
   \qquad \delta = 0 \iff \varepsilon\lambda \ge \Delta.

**Truncated Laplace** (:math:`\propto e^{-|x|/\lambda}` on :math:`[-A, A]`, mass
:math:`2\lambda(1 - r)`, :math:`r = e^{-A/\lambda}`); the density is log-concave, so
:math:`d = \Delta`. If :math:`\Delta \ge 2A` the supports are disjoint and
:math:`\delta = 1`. Otherwise :math:`P` has the mass of :math:`[-A, \Delta - A)` where
:math:`Q` (the translate) has none, and on the overlap :math:`[\Delta - A, A]` the loss is
Laplace's: it exceeds :math:`\varepsilon` on :math:`[\Delta - A, t)` exactly when
:math:`\varepsilon\lambda < \min(\Delta, 2A - \Delta)` (then :math:`0 < t` and
:math:`\Delta - A < t < A`). With :math:`w = e^{(\varepsilon\lambda - \Delta)/(2\lambda)}`,

.. math::

   \delta = \begin{cases}
     \dfrac{2(1 - w) + (e^\varepsilon - 1)\,r}{2(1 - r)}
       & \varepsilon\lambda < \min(\Delta, 2A - \Delta), \\[1ex]
     \dfrac{r\,(e^{\Delta/\lambda} - 1)}{2(1 - r)} & \text{else, } \Delta \le A, \\[1ex]
     \dfrac12 + \dfrac{1 - e^{(A - \Delta)/\lambda}}{2(1 - r)} & \text{else}
   \end{cases}

(:math:`P(Z < t) - e^\varepsilon Q(Z < t)`, and :math:`P(Z < \Delta - A)`, with the
Laplace antiderivatives; every term is positive).

**Staircase** (:math:`\varepsilon_0`, :math:`\gamma`, step :math:`\Delta`;
:math:`b = e^{-\varepsilon_0}`). The density is :math:`a\,b^{L(x)}`,
:math:`L(x) = \lceil |x|/\Delta - \gamma\rceil`, :math:`a = (1 - b)/(2\Delta(\gamma +
b(1 - \gamma)))`. For :math:`0 < d \le \Delta`, :math:`|L(x + d) - L(x)| \le 1`, so the
loss :math:`\log f(x)/f(x + d)` is :math:`-\varepsilon_0`, :math:`0` or
:math:`\varepsilon_0`, and for :math:`\varepsilon \ge 0`

.. math:: H(d) = (1 - e^{\varepsilon - \varepsilon_0})_+\; P\bigl(L(X + d) = L(X) + 1\bigr).

That probability is :math:`a\,[\min(d, \gamma\Delta) + d\,b/(1 - b) +
\max(0, \min(\gamma\Delta, d - \gamma\Delta))]` (crossing a step :math:`(k + \gamma)\Delta`
to the right on the positive side, level :math:`k \ge 0`, and crossing from the central
plateau :math:`(-\gamma\Delta, 0)` to beyond :math:`\gamma\Delta`), nondecreasing in
:math:`d`; at :math:`d = \Delta`, with :math:`m = \min(\gamma, 1 - \gamma)`,

.. math:: \delta(\varepsilon) = (1 - e^{\varepsilon - \varepsilon_0})_+ \,
   \frac{(1 - b)(\gamma + m) + b}{2(\gamma + b(1 - \gamma))}, \qquad
   \delta = 0 \iff \varepsilon \ge \varepsilon_0.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction

import flint

from .gaussian_balls import adaptive, ball, profile_enclosure

arb = flint.arb


@dataclass(frozen=True)
class Profile:
    r"""A privacy profile value: ``exact`` when it is a rational number (decided exactly
    from the exact inputs), else ``enclose(bits)``, a ball of it with about ``bits`` bits
    of relative accuracy."""

    exact: Fraction | None = None
    enclose: Callable[[int], flint.arb] | None = None


def _enclosed(compute: Callable[[], flint.arb]) -> Profile:
    return Profile(enclose=lambda bits: adaptive(compute, bits))


def _one_minus_exp(t: flint.arb) -> flint.arb:
    r""":math:`1 - e^{t}` without cancellation."""
    return -t.expm1()


def laplace(eps: Fraction, scale: Fraction, Delta: Fraction) -> Profile:
    r"""The profile of Laplace noise of scale :math:`\lambda` (module docstring)."""
    if eps * scale >= Delta:
        return Profile(exact=Fraction(0))
    return _enclosed(lambda: _one_minus_exp(ball((eps - Delta / scale) / 2)))


def truncated_laplace(eps: Fraction, scale: Fraction, bound: Fraction, Delta: Fraction
                      ) -> Profile:
    r"""The profile of Laplace noise of scale :math:`\lambda` truncated to
    :math:`[-A, A]` (module docstring)."""
    lam, A = scale, bound
    if Delta >= 2 * A:
        return Profile(exact=Fraction(1))
    if eps * lam < min(Delta, 2 * A - Delta):
        def compute() -> flint.arb:
            r_over = _one_minus_exp(ball(-A / lam))  # 1 - r
            w_gap = _one_minus_exp(ball((eps * lam - Delta) / (2 * lam)))  # 1 - w
            r = ball(-A / lam).exp()
            return (2 * w_gap + ball(eps).expm1() * r) / (2 * r_over)
    elif Delta <= A:
        def compute() -> flint.arb:
            return (ball(-A / lam).exp() * ball(Delta / lam).expm1()
                    / (2 * _one_minus_exp(ball(-A / lam))))
    else:
        def compute() -> flint.arb:
            return (arb(1) / 2 + _one_minus_exp(ball((A - Delta) / lam))
                    / (2 * _one_minus_exp(ball(-A / lam))))
    return _enclosed(compute)


def staircase(eps: Fraction, eps0: Fraction, gamma: Fraction, Delta: Fraction) -> Profile:
    r"""The profile of the staircase noise :math:`(\varepsilon_0, \gamma)` of step
    :math:`\Delta` at sensitivity :math:`\Delta` (module docstring; it does not depend on
    :math:`\Delta`)."""
    del Delta  # the profile is scale free: step and shift are both Delta
    if eps >= eps0:
        return Profile(exact=Fraction(0))
    m = min(gamma, 1 - gamma)

    def compute() -> flint.arb:
        b = ball(-eps0).exp()
        one_minus_b = _one_minus_exp(ball(-eps0))
        share = (one_minus_b * ball(gamma + m) + b) / (2 * (ball(gamma) + b * ball(1 - gamma)))
        return _one_minus_exp(ball(eps - eps0)) * share

    return _enclosed(compute)


def gaussian(eps: Fraction, sigma: Fraction, Delta: Fraction) -> Profile:
    r"""The profile of :math:`N(0, \sigma^2)` noise (:mod:`dpsym.gaussian_balls`)."""
    return Profile(enclose=profile_enclosure(eps, sigma, Delta))


__all__ = ["Profile", "gaussian", "laplace", "staircase", "truncated_laplace"]
