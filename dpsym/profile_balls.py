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
import sympy as sp

from .ball_texts import arb_of
from .gaussian_balls import adaptive, ball, profile_enclosure
from .noise import SymmetricNoise
from .precision import arb_workprec
from .symbols import u, x

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


def truncated_laplace(eps: Fraction, scale: Fraction, bound: Fraction | sp.Expr,
                      Delta: Fraction) -> Profile | None:
    r"""The profile of Laplace noise of scale :math:`\lambda` truncated to
    :math:`[-A, A]` (module docstring). An irrational bound (a constant sympy expression,
    the truncated Laplacian mechanism's) decides the cases by balls that exclude 0; None
    when one cannot be decided (a tie)."""
    lam = scale
    if isinstance(bound, Fraction):
        A = bound

        def a_ball() -> flint.arb:
            return ball(A)

        signs = tuple((v > 0) - (v < 0)
                      for v in (2 * A - Delta, 2 * A - Delta - eps * lam, A - Delta))
    else:
        expr = sp.sympify(bound)

        def a_ball() -> flint.arb:
            return arb_of(expr)

        signs = tuple(_sign(lambda c=c: c[0] * a_ball() - ball(c[1]))
                      for c in ((2, Delta), (2, Delta + eps * lam), (1, Delta)))
        if None in signs:
            return None
    if signs[0] <= 0:  # Delta >= 2A: disjoint supports
        return Profile(exact=Fraction(1))
    if eps * lam < Delta and signs[1] > 0:  # eps lam < min(Delta, 2A - Delta)
        def compute() -> flint.arb:
            r_ratio = -a_ball() / ball(lam)
            w_gap = _one_minus_exp(ball((eps * lam - Delta) / (2 * lam)))  # 1 - w
            return (2 * w_gap + ball(eps).expm1() * r_ratio.exp()) / (
                2 * _one_minus_exp(r_ratio))
    elif signs[2] >= 0:  # Delta <= A
        def compute() -> flint.arb:
            r_ratio = -a_ball() / ball(lam)
            return (r_ratio.exp() * ball(Delta / lam).expm1()
                    / (2 * _one_minus_exp(r_ratio)))
    else:
        def compute() -> flint.arb:
            r_ratio = -a_ball() / ball(lam)
            return (arb(1) / 2 + _one_minus_exp((a_ball() - ball(Delta)) / ball(lam))
                    / (2 * _one_minus_exp(r_ratio)))
    return _enclosed(compute)


def _sign(value: Callable[[], flint.arb]) -> int | None:
    """The sign of a nonzero constant, from balls at rising precision (None if they never
    exclude 0: the constant may be 0)."""
    for bits in (64, 256, 1024, 4096):
        with arb_workprec(bits):
            found = value()
            if found > 0:
                return 1
            if found < 0:
                return -1
    return None


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


def from_noise(noise: SymmetricNoise, eps: object, Delta: object) -> Profile | None:
    r"""The closed form of a numeric noise description's profile at rational
    :math:`\varepsilon` and :math:`\Delta`, when it is one of the shapes above with
    rational parameters (checked exactly, normalisation included): one piece
    :math:`C e^{-x/\lambda}` on :math:`[0, A)` (Laplace for :math:`A = \infty`, else
    truncated), or a geometric tail of period :math:`\Delta` and ratio
    :math:`e^{-\varepsilon_0}` whose copy is one constant, or two constants in ratio
    :math:`e^{-\varepsilon_0}` split at :math:`\gamma\Delta` (the staircase). None
    otherwise (the caller then integrates piece by piece)."""
    if not (isinstance(eps, Fraction) and isinstance(Delta, Fraction)) or noise.lattice \
            or sp.sympify(noise.atom) != 0:
        return None
    if noise.tail is None and len(noise.head) == 1:
        return _exponential_piece(noise.head[0], eps, Delta)
    if noise.tail is not None and not noise.head:
        return _staircase_tail(noise.tail, eps, Delta)
    return None


def _rational(value: sp.Expr) -> Fraction | None:
    value = sp.sympify(value)
    return Fraction(int(value.p), int(value.q)) if value.is_Rational else None


def _is_zero(expr: sp.Expr) -> bool:
    return sp.simplify(expr) == 0


def _exponential_piece(piece, eps: Fraction, Delta: Fraction) -> Profile | None:
    expr = sp.sympify(piece.expr)
    if sp.sympify(piece.lo) != 0 or x not in expr.free_symbols:
        return None
    rate = _rational(sp.simplify(sp.diff(expr, x) / expr))
    if rate is None or rate >= 0:
        return None
    lam = -1 / rate
    coef = sp.simplify(expr.subs(x, 0))
    lam_s = sp.Rational(lam.numerator, lam.denominator)
    if sp.sympify(piece.hi) is sp.oo:
        return laplace(eps, lam, Delta) if _is_zero(2 * coef * lam_s - 1) else None
    hi = sp.sympify(piece.hi)
    if hi.free_symbols or not hi.is_positive:
        return None
    if not _is_zero(2 * coef * lam_s * (1 - sp.exp(-hi / lam_s)) - 1):
        return None
    bound = _rational(hi)
    return truncated_laplace(eps, lam, hi if bound is None else bound, Delta)


def _staircase_tail(tail, eps: Fraction, Delta: Fraction) -> Profile | None:
    if sp.sympify(tail.start) != 0 or _rational(tail.period) != Delta:
        return None
    ratio = sp.sympify(tail.ratio)
    if not (isinstance(ratio, sp.exp) and ratio.args[0].is_Rational and ratio.args[0] < 0):
        return None
    eps0 = -_rational(ratio.args[0])
    pieces = [pc for pc in tail.pieces if sp.sympify(pc.hi) != sp.sympify(pc.lo)]
    if any(u in sp.sympify(pc.expr).free_symbols for pc in pieces):
        return None
    period = sp.sympify(tail.period)
    if len(pieces) == 1:
        c1 = c2 = sp.sympify(pieces[0].expr)
        split, gamma = period, Fraction(1)
    elif len(pieces) == 2:
        c1, c2 = (sp.sympify(pc.expr) for pc in pieces)
        split = sp.sympify(pieces[0].hi)
        g = _rational(split)
        if g is None or not _is_zero(c2 - c1 * ratio):
            return None
        gamma = g / Delta
    else:
        return None
    ends = [sp.sympify(v) for pc in pieces for v in (pc.lo, pc.hi)]
    if ends[0] != 0 or ends[-1] != period or (len(pieces) == 2 and ends[1] != ends[2]):
        return None
    if not _is_zero(2 * (c1 * split + c2 * (period - split)) - (1 - ratio)):
        return None  # not normalised
    return staircase(eps, eps0, gamma, Delta)


__all__ = ["Profile", "from_noise", "gaussian", "laplace", "staircase", "truncated_laplace"]
