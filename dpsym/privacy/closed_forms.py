r"""Closed-form privacy profiles of the audited noises, exact or enclosed in Arb balls.

The profile :math:`\delta(\varepsilon) = \sup_{|d| \le \Delta}
\int (f(x) - e^\varepsilon f(x + d))_+\,dx` of each noise audited by :mod:`dpsym.reports.audit`
has a closed form whose discrete parts (a positive part, a minimum, which piece of the
density the crossing point falls in) are decided here **exactly**, by comparisons of
rationals of the exact inputs (an irrational :math:`\varepsilon` such as
:math:`\log 3` by balls that exclude the tie, a tie proven by sympy, :func:`compare`);
only then are the transcendental pieces evaluated, in
Arb balls, each written without cancellation (:math:`1 - e^{-t}` as
:math:`-\operatorname{expm1}(-t)`). A value that is a rational number (an exact zero, an
exact one) is returned as such (:class:`Profile`).

**Laplace** (scale :math:`\lambda`). For :math:`d > 0` the loss
:math:`(|z - d| - |z|)/\lambda` decreases from :math:`d/\lambda` to :math:`-d/\lambda`, and
:math:`f(z) > e^\varepsilon f(z - d)` exactly for :math:`z < t = (d - \varepsilon\lambda)/2`;
with both tails, :math:`H(d) = (1 - e^{(\varepsilon - d/\lambda)/2})_+`, largest at
:math:`d = \Delta` (log-concave noise, :mod:`dpsym.privacy.profiles`):

.. math:: \delta(\varepsilon) = \bigl(1 - e^{(\varepsilon - \Delta/\lambda)/2}\bigr)_+,
   \qquad \delta = 0 \iff \varepsilon\lambda \ge \Delta,

for :math:`\varepsilon\lambda > -\Delta`; for :math:`\varepsilon\lambda \le -\Delta` every
loss exceeds :math:`\varepsilon` and :math:`\delta = 1 - e^{\varepsilon}`. The truncated
Laplace and staircase forms below assume :math:`\varepsilon \ge 0` (a negative
:math:`\varepsilon` is left to the caller).

**Uniform with a point mass** (mass :math:`\alpha` at 0, density :math:`h` on
:math:`[-L, L]`). For :math:`d > 0` the atom is where the translate has none
(:math:`\alpha`), the density :math:`h` on the :math:`\min(d, 2L)` outside the translate's
support, and :math:`h(1 - e^\varepsilon)_+` on the overlap of length
:math:`(2L - d)_+`: nondecreasing in :math:`d`, so with :math:`m = \min(\Delta, 2L)`

.. math:: \delta(\varepsilon) = \alpha + h\,m + (1 - e^\varepsilon)_+\,h\,(2L - m),

exactly :math:`\alpha + hm` (rational) for :math:`\varepsilon \ge 0`.

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

import itertools
from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction
from typing import TypeAlias, overload

import flint
import sympy as sp

from dpsym.certified.constants import arb_of
from dpsym.certified.kernel import adaptive, ball
from dpsym.core.zero import is_identically_zero
from dpsym.errors import CertificationError, NoClosedFormError
from dpsym.gaussian.enclosures import profile_between, profile_enclosure
from dpsym.precision import arb_workprec
from dpsym.symbolic.noise import SymmetricNoise
from dpsym.symbolic.tidy import simplified
from dpsym.symbols import u, x

arb = flint.arb
#: An exact number: a fraction, or a constant sympy expression (``log(3)``).
Exact: TypeAlias = Fraction | sp.Expr


@dataclass(frozen=True)
class Profile:
    r"""A privacy profile value: ``exact`` when it is a rational number (decided exactly
    from the exact inputs), else ``enclose(bits)``, a ball of it with about ``bits`` bits
    of relative accuracy."""

    exact: Fraction | None = None
    enclose: Callable[[int], flint.arb] | None = None
    #: The value as a sympy expression, built on demand: what decides an exact tie with a
    #: rational (the truncated Laplace's profile at its own (eps, delta) is delta itself).
    symbolic: Callable[[], sp.Expr] | None = None


def _enclosed(compute: Callable[[], flint.arb],
              symbolic: Callable[[], sp.Expr] | None = None) -> Profile:
    return Profile(enclose=lambda bits: adaptive(compute, bits), symbolic=symbolic)


def _one_minus_exp(t: flint.arb) -> flint.arb:
    r""":math:`1 - e^{t}` without cancellation."""
    return -t.expm1()


def laplace(eps: Exact, scale: Exact, Delta: Fraction) -> Profile:
    r"""The profile of Laplace noise of scale :math:`\lambda` (module docstring)."""
    top = Delta / scale if isinstance(scale, Fraction) else sp.simplify(_sym(Delta) / scale)
    if compare(eps, top) >= 0:
        return Profile(exact=Fraction(0))
    if compare(eps, -top) <= 0:  # every loss exceeds eps: 1 - e^eps
        return _enclosed(lambda: _one_minus_exp(ball_of(eps)))
    return _enclosed(lambda: laplace_form(ball_of(eps), ball_of(top)))


def laplace_form(eps: flint.arb, top: flint.arb) -> flint.arb:
    r"""The Laplace profile :math:`1 - e^{(\varepsilon - \Delta/\lambda)/2}` for
    :math:`|\varepsilon| < \Delta/\lambda` = ``top``, without cancellation (on balls, or on
    any numbers with ``exp`` and ``expm1``: proven equal to :func:`derived_profile` of the
    Laplace mechanism's density in the tests)."""
    return _one_minus_exp((eps - top) / 2)


@overload
def truncated_laplace(eps: Exact, scale: Fraction, bound: Fraction, Delta: Fraction
                      ) -> Profile: ...


@overload
def truncated_laplace(eps: Exact, scale: Fraction, bound: Fraction | sp.Expr,
                      Delta: Fraction) -> Profile | None: ...


def truncated_laplace(eps: Exact, scale: Fraction, bound: Fraction | sp.Expr,
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

        signs = (_sign_exact(2 * A - Delta), compare(2 * A - Delta, eps * lam),
                 _sign_exact(A - Delta))
    else:
        expr = sp.sympify(bound)

        def a_ball() -> flint.arb:
            return arb_of(expr)

        def gap(k: int, j: int) -> int | None:  # the sign of k A - Delta - j eps lam
            return _sign(lambda: k * a_ball() - ball(Delta) - j * ball_of(eps) * ball(lam))

        s0, s1, s2 = gap(2, 0), gap(2, 1), gap(1, 0)
        if s0 is None or s1 is None or s2 is None:
            return None
        signs = (s0, s1, s2)
    if signs[0] <= 0:  # Delta >= 2A: disjoint supports
        return Profile(exact=Fraction(1))
    if compare(eps, Delta / lam) < 0 and signs[1] > 0:  # eps lam < min(Delta, 2A - Delta)
        case = 1
    elif signs[2] >= 0:  # Delta <= A
        case = 2
    else:
        case = 3
    return _enclosed(lambda: truncated_laplace_case(case, ball_of(eps), ball(lam), a_ball(),
                                                    ball(Delta)))


def truncated_laplace_case(case: int, eps: flint.arb, lam: flint.arb, A: flint.arb,
                           Delta: flint.arb) -> flint.arb:
    r"""The truncated Laplace profile's closed form (module docstring) on balls, in its
    ``case``: 1 for :math:`\varepsilon\lambda < \min(\Delta, 2A - \Delta)`, else 2 for
    :math:`\Delta \le A` and 3 for :math:`A < \Delta < 2A`. A ball ``lam`` of scales in
    one case gives a ball of every profile value over it (an interval extension: the
    audit's search for the scales that meet a target, :mod:`dpsym.reports.audit`)."""
    r_ratio = -A / lam
    if case == 1:
        w_gap = _one_minus_exp((eps - Delta / lam) / 2)  # 1 - w
        return (2 * w_gap + eps.expm1() * r_ratio.exp()) / (2 * _one_minus_exp(r_ratio))
    if case == 2:
        return r_ratio.exp() * (Delta / lam).expm1() / (2 * _one_minus_exp(r_ratio))
    return (1 + _one_minus_exp((A - Delta) / lam) / _one_minus_exp(r_ratio)) / 2


def truncated_laplace_general(eps: Exact, scale: Exact, bound: Exact, Delta: Fraction
                              ) -> Profile:
    r"""The truncated Laplace profile for every :math:`\varepsilon` (negative included) and
    irrational :math:`\lambda` or :math:`A` (module docstring):
    :math:`F(\tau) - e^\varepsilon F(\tau - \Delta)` with :math:`F` the distribution
    function and :math:`\tau` the end of the region where the loss exceeds
    :math:`\varepsilon`, every case decided by :func:`compare`."""
    lam, A = _sym(scale), _sym(bound)
    if compare(2 * A, Delta) <= 0:  # disjoint supports
        return Profile(exact=Fraction(1))
    slope = sp.simplify(_sym(eps) * lam)
    if compare(slope, Delta) >= 0:  # the loss never exceeds eps
        tau = Delta - A
    elif compare(slope, -Delta) <= 0:  # it always does
        tau = A
    else:
        t = (Delta - slope) / 2
        tau = Delta - A if compare(t, Delta - A) <= 0 else (A if compare(t, A) >= 0 else t)
    tau = sp.simplify(tau)
    sides = (compare(tau, Fraction(0)), compare(tau - Delta, Fraction(0)))

    def compute() -> flint.arb:
        lam_b, r = ball_of(lam), (-ball_of(A) / ball_of(lam)).exp()
        scale_b = 2 * _one_minus_exp(-ball_of(A) / lam_b)  # 2(1 - r)

        def cdf(point: sp.Expr, side: int) -> flint.arb:
            if side <= 0:
                return ((ball_of(point) / lam_b).exp() - r) / scale_b
            return 1 - ((-ball_of(point) / lam_b).exp() - r) / scale_b

        return cdf(tau, sides[0]) - ball_of(eps).exp() * cdf(tau - Delta, sides[1])

    def symbolic() -> sp.Expr:
        r, scale_s = sp.exp(-A / lam), 2 * (1 - sp.exp(-A / lam))

        def cdf(point: sp.Expr, side: int) -> sp.Expr:
            if side <= 0:
                return (sp.exp(point / lam) - r) / scale_s
            return 1 - (sp.exp(-point / lam) - r) / scale_s

        return cdf(tau, sides[0]) - sp.exp(_sym(eps)) * cdf(tau - Delta, sides[1])

    return _enclosed(compute, symbolic)


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


def _sign_exact(v: Fraction) -> int:
    return (v > 0) - (v < 0)


def ball_of(v: Exact) -> flint.arb:
    """An exact number (a fraction or a constant sympy expression) as a ball."""
    return ball(v) if isinstance(v, Fraction) else arb_of(v)


def _sym(v: Exact) -> sp.Expr:
    return sp.Rational(v.numerator, v.denominator) if isinstance(v, Fraction) else sp.sympify(v)


def compare(a: Exact, b: Exact) -> int:
    r"""The sign of :math:`a - b`, exactly: fractions compared as such, constant sympy
    expressions by balls that exclude 0, a tie proven by sympy.

    Raises
    ------
    CertificationError
        If neither the balls nor sympy decide (a tie sympy cannot prove).
    """
    if isinstance(a, Fraction) and isinstance(b, Fraction):
        return _sign_exact(a - b)
    found = _sign(lambda: ball_of(a) - ball_of(b))
    if found is not None:
        return found
    if sp.simplify(_sym(a) - _sym(b)) == 0:
        return 0
    raise CertificationError(f"cannot decide the sign of {_sym(a)} - {_sym(b)}")


def uniform_atom(eps: Exact, atom: Fraction, height: Fraction, half: Fraction,
                 Delta: Fraction) -> Profile:
    r"""The profile of a point mass :math:`\alpha` at 0 plus a density :math:`h` on
    :math:`[-L, L]` (module docstring)."""
    m = min(Delta, 2 * half)
    base = atom + height * m
    rest = height * (2 * half - m)
    if rest == 0 or compare(eps, Fraction(0)) >= 0:
        return Profile(exact=base)
    c = sp.exp(_sym(eps))
    if c.is_Rational:  # eps = -log(3): e^eps = 1/3
        return Profile(exact=base + (1 - Fraction(int(c.p), int(c.q))) * rest)
    return _enclosed(lambda: uniform_atom_form(ball_of(eps), ball(base), ball(rest)))


def uniform_atom_form(eps: flint.arb, base: flint.arb, rest: flint.arb) -> flint.arb:
    r""":math:`\alpha + hm + (1 - e^\varepsilon)h(2L - m)` for :math:`\varepsilon < 0`, with
    ``base`` :math:`= \alpha + hm` and ``rest`` :math:`= h(2L - m)` (module docstring)."""
    return base + _one_minus_exp(eps) * rest


def staircase(eps: Exact, eps0: Exact, gamma: Fraction, Delta: Fraction) -> Profile:
    r"""The profile of the staircase noise :math:`(\varepsilon_0, \gamma)` of step
    :math:`\Delta` at sensitivity :math:`\Delta` (module docstring; it does not depend on
    :math:`\Delta`)."""
    del Delta  # the profile is scale free: step and shift are both Delta
    if compare(eps, eps0) >= 0:
        return Profile(exact=Fraction(0))
    m = min(gamma, 1 - gamma)

    return _enclosed(lambda: staircase_form(ball_of(eps), ball_of(eps0), ball(gamma),
                                            ball(m)))


def staircase_form(eps: flint.arb, eps0: flint.arb, gamma: flint.arb, m: flint.arb
                   ) -> flint.arb:
    r"""The staircase profile for :math:`0 \le \varepsilon < \varepsilon_0`, with
    ``m`` :math:`= \min(\gamma, 1 - \gamma)` (module docstring), without cancellation."""
    b = (-eps0).exp()
    one_minus_b = _one_minus_exp(-eps0)
    share = (one_minus_b * (gamma + m) + b) / (2 * (gamma + b * (1 - gamma)))
    return _one_minus_exp(eps - eps0) * share


def gaussian(eps: Fraction, sigma: Fraction, Delta: Fraction) -> Profile:
    r"""The profile of :math:`N(0, \sigma^2)` noise (:mod:`dpsym.gaussian.enclosures`)."""
    return Profile(enclose=profile_enclosure(eps, sigma, Delta))


def from_noise(noise: SymmetricNoise, eps: Exact, Delta: object) -> Profile | None:
    r"""The closed form of a numeric noise description's profile at a rational
    :math:`\Delta` and a rational or constant irrational :math:`\varepsilon`, when it is
    one of the shapes above (checked exactly, normalisation included): one piece
    :math:`C e^{-x/\lambda}` on :math:`[0, A)` (Laplace for :math:`A = \infty`, else
    truncated; :math:`\lambda`, :math:`A` may be irrational constants), one constant piece
    with a point mass at 0 (uniform with a mass), a normal density (rational
    :math:`\varepsilon \ge 0`), or a geometric tail of period :math:`\Delta` and ratio
    :math:`e^{-\varepsilon_0}` whose copy is one constant, or two constants in ratio
    :math:`e^{-\varepsilon_0}` split at a rational :math:`\gamma\Delta` (the staircase,
    :math:`\varepsilon \ge 0`). None otherwise (the caller then tries the
    piecewise-constant sums of :mod:`dpsym.privacy.lattice`)."""
    if not isinstance(Delta, Fraction) or noise.lattice:
        return None
    if not isinstance(eps, Fraction):
        eps = sp.sympify(eps)
        if eps.free_symbols or not eps.is_real:
            return None
    if sp.sympify(noise.atom) != 0 or (len(noise.head) == 1
                                       and x not in sp.sympify(noise.head[0].expr).free_symbols):
        return _uniform_with_atom(noise, eps, Delta)
    if noise.tail is None and len(noise.head) == 1:
        gauss = _gaussian_piece(noise.head[0], eps, Delta)
        if gauss is not None:
            return gauss
        return _exponential_piece(noise.head[0], eps, Delta)
    if noise.tail is not None and not noise.head:
        if compare(eps, Fraction(0)) < 0:
            return None  # the staircase's closed form assumes eps >= 0
        return _staircase_tail(noise.tail, eps, Delta)
    return None


def _rational(value: sp.Expr) -> Fraction | None:
    value = sp.sympify(value)
    return Fraction(int(value.p), int(value.q)) if value.is_Rational else None


def _uniform_with_atom(noise: SymmetricNoise, eps: Exact, Delta: Fraction) -> Profile | None:
    atom = _rational(noise.atom)
    if noise.tail is not None or len(noise.head) != 1 or atom is None:
        return None
    (piece,) = noise.head
    expr = sp.sympify(piece.expr)
    height, lo, half = _rational(expr), _rational(piece.lo), _rational(piece.hi)
    if x in expr.free_symbols or height is None or lo is None or half is None or lo != 0 \
            or half <= 0:
        return None
    return uniform_atom(eps, atom, height, half, Delta)


def _gaussian_piece(piece, eps: Exact, Delta: Fraction) -> Profile | None:
    r"""Normal noise :math:`e^{-x^2/(2\sigma^2)}/(\sigma\sqrt{2\pi})` on :math:`[0, \infty)`
    (normalisation checked exactly) at a rational :math:`\varepsilon \ge 0`: the enclosure of
    :func:`dpsym.gaussian.enclosures.profile_between`, :math:`\sigma` as balls of the exact
    :math:`\sqrt{\sigma^2}` (log-concave: :math:`d^* = \Delta`)."""
    expr = sp.sympify(piece.expr)
    if sp.sympify(piece.lo) != 0 or sp.sympify(piece.hi) is not sp.oo \
            or not isinstance(eps, Fraction) or eps < 0:
        return None
    rate = simplified(-sp.diff(expr, x) / (2 * x * expr))  # 1/(2 sigma^2)
    if rate.free_symbols or rate.is_positive is not True:
        return None
    var = simplified(1 / (2 * rate))
    sigma = sp.sqrt(var)
    if not is_identically_zero(expr.subs(x, 0) * sigma * sp.sqrt(2 * sp.pi) - 1):
        return None
    exact_sigma = _rational(sigma)
    if exact_sigma is not None:
        return gaussian(eps, exact_sigma, Delta)
    return Profile(enclose=profile_between(eps, lambda bits: _sigma_ball(sigma, bits), Delta))


def _sigma_ball(sigma: sp.Expr, bits: int) -> flint.arb:
    with arb_workprec(bits):
        return arb_of(sigma)


def _exponential_piece(piece, eps: Exact, Delta: Fraction) -> Profile | None:
    expr = sp.sympify(piece.expr)
    if sp.sympify(piece.lo) != 0 or x not in expr.free_symbols:
        return None
    rate_s = simplified(sp.diff(expr, x) / expr)
    if rate_s.free_symbols or rate_s.is_negative is not True:
        return None
    rate = _rational(rate_s)
    lam_s = -1 / rate_s
    coef = simplified(expr.subs(x, 0))
    if sp.sympify(piece.hi) is sp.oo:
        if not is_identically_zero(2 * coef * lam_s - 1):
            return None
        return laplace(eps, -1 / rate if rate is not None else lam_s, Delta)
    hi = sp.sympify(piece.hi)
    if hi.free_symbols or not hi.is_positive:
        return None
    if not is_identically_zero(2 * coef * lam_s * (1 - sp.exp(-hi / lam_s)) - 1):
        return None
    bound = _rational(hi)
    general = truncated_laplace_general(eps, lam_s, hi, Delta)
    if rate is not None and compare(eps, Fraction(0)) >= 0:
        found = truncated_laplace(eps, -1 / rate, hi if bound is None else bound, Delta)
        if found is not None:  # the cancellation-free form, the same value
            return Profile(found.exact, found.enclose, general.symbolic)
    return general


def _staircase_tail(tail, eps: Exact, Delta: Fraction) -> Profile | None:
    if sp.sympify(tail.start) != 0 or _rational(tail.period) != Delta:
        return None
    ratio = sp.sympify(tail.ratio)
    if isinstance(ratio, sp.exp) and ratio.args[0].is_Rational and ratio.args[0] < 0:
        eps0: Exact = -Fraction(int(ratio.args[0].p), int(ratio.args[0].q))
    elif not ratio.free_symbols and ratio.is_positive and (ratio < 1) is sp.true:
        eps0 = simplified(-sp.log(ratio))  # log(3), sqrt(2)
    else:
        return None
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
        if g is None or not is_identically_zero(c2 - c1 * ratio):
            return None
        gamma = g / Delta
    else:
        return None
    ends = [sp.sympify(v) for pc in pieces for v in (pc.lo, pc.hi)]
    if ends[0] != 0 or ends[-1] != period or (len(pieces) == 2 and ends[1] != ends[2]):
        return None
    if not is_identically_zero(2 * (c1 * split + c2 * (period - split)) - (1 - ratio)):
        return None  # not normalised
    return staircase(eps, eps0, gamma, Delta)


# --------------------------------------------------------------------------- derivation

#: A piece of a density on the line: :math:`[lo, hi)` and the density there, in :math:`x`.
LinePiece: TypeAlias = tuple[sp.Expr, sp.Expr, sp.Expr]


def _at(expr: sp.Expr, point: dict) -> sp.Expr:
    value = sp.sympify(expr).subs(point)
    if value.free_symbols:
        raise ValueError(f"the point {point} leaves {value} undetermined")
    return value


def _interior(lo: sp.Expr, hi: sp.Expr) -> sp.Expr:
    """A point strictly inside the numeric interval (lo, hi), whose ends may be infinite."""
    if lo == -sp.oo:
        return hi - 1 if hi != sp.oo else sp.Integer(0)
    return lo + 1 if hi == sp.oo else (lo + hi) / 2


def _inside(pieces: list[LinePiece], z: sp.Expr, point: dict) -> sp.Expr:
    """The density of ``pieces`` at the numeric ``z`` (0 outside them)."""
    for lo, hi, expr in pieces:
        if bool(_at(lo, point) <= z) and bool(z < _at(hi, point)):
            return expr
    return sp.Integer(0)


def hockey_stick(p_pieces: list[LinePiece], q_pieces: list[LinePiece], eps: sp.Expr,
                 point: dict) -> sp.Expr:
    r""":math:`\int (p(x) - e^\varepsilon q(x))_+\,dx` for densities given by pieces on the
    line, symbolically, in the case of the parameters that ``point`` (numeric values of
    every symbol) lies in: the ends of the pieces are sorted at ``point``; on each interval
    between consecutive ends, where both densities are one expression each, the crossing
    points :math:`p(x) = e^\varepsilon q(x)` are solved by sympy; on each piece of the
    split the sign of :math:`p - e^\varepsilon q` at ``point`` decides whether sympy
    integrates it. The expression holds for every parameter in the same case (the same
    order of the ends and the crossing points, the same signs)."""
    ends = {sp.sympify(v) for lo, hi, _ in (*p_pieces, *q_pieces) for v in (lo, hi)}
    finite = sorted((e for e in ends if e not in (sp.oo, -sp.oo)),
                    key=lambda e: _at(e, point))
    cuts: list[sp.Expr] = []
    for e in finite:  # one end per value at the point
        if not cuts or _at(e, point) != _at(cuts[-1], point):
            cuts.append(e)
        elif sp.simplify(e - cuts[-1]) != 0:
            raise ValueError(f"the point {point} is on a boundary between cases: "
                             f"{e} = {cuts[-1]} there")
    cuts = [-sp.oo, *cuts, sp.oo]
    total = sp.Integer(0)
    for lo, hi in itertools.pairwise(cuts):
        lo_v, hi_v = _at(lo, point), _at(hi, point)
        gap = (_inside(p_pieces, _interior(lo_v, hi_v), point)
               - sp.exp(eps) * _inside(q_pieces, _interior(lo_v, hi_v), point))
        if gap == 0:
            continue
        # (a gap free of x, two constant pieces, has no crossing: solve would return [])
        roots = sp.solve(sp.Eq(gap, 0), x) if gap.has(x) else []
        crossings = [t for t in roots
                     if t.is_real is not False and bool(lo_v < _at(t, point) < hi_v)]
        crossings.sort(key=lambda t: _at(t, point))
        bounds = [lo, *crossings, hi]
        for a, c in itertools.pairwise(bounds):
            inner = _interior(_at(a, point), _at(c, point))
            if _at(gap.subs(x, inner), point) > 0:
                # (exponentials and constants: sympy's other methods integrate them in a
                # third of the Risch algorithm's time)
                total += sp.integrate(gap, (x, a, c), conds="none", risch=False)
    return total


def _line_pieces(noise: SymmetricNoise) -> list[LinePiece]:
    """The head of a description as pieces on the whole line (mirrored)."""
    out: list[LinePiece] = []
    for pc in noise.head:
        expr = sp.sympify(pc.expr)
        out.append((sp.sympify(pc.lo), sp.sympify(pc.hi), expr))
        out.append((-sp.sympify(pc.hi), -sp.sympify(pc.lo), expr.subs(x, -x)))
    return out


def _shifted(pieces: list[LinePiece], d: sp.Expr) -> list[LinePiece]:
    return [(lo + d, hi + d, expr.subs(x, x - d)) for lo, hi, expr in pieces]


def derived_profile(noise: SymmetricNoise, eps: sp.Expr, shift: sp.Expr, point: dict
                    ) -> sp.Expr:
    r"""The hockey-stick divergence :math:`\int (f(x) - e^\varepsilon f(x - d))_+\,dx`
    (plus the atom at 0, which the translate does not have) of a continuous description
    (:class:`~dpsym.symbolic.noise.SymmetricNoise`) at the shift :math:`d` = ``shift > 0``,
    derived by sympy from its pieces (:func:`hockey_stick`) in the case ``point`` lies in.
    A geometric tail is taken when it starts at 0 and its period is the shift (the
    staircase): then copy :math:`k` of the tail on either side meets copy :math:`k \pm 1`
    of the translate at the same local coordinate, the ratio of the densities is constant
    there, and the copies sum as a geometric series; the central copy
    :math:`[0, T)` meets the translate's mirrored copy :math:`g(T - u)`.

    Raises
    ------
    NoClosedFormError
        For a lattice, a head with a tail, or a tail whose period is not the shift.
    """
    if noise.lattice:
        raise NoClosedFormError("the derivation integrates densities on the line")
    total = sp.Integer(0) if _at(shift, point) == 0 else sp.sympify(noise.atom)
    if noise.tail is None:
        pieces = _line_pieces(noise)
        return total + hockey_stick(pieces, _shifted(pieces, shift), eps, point)
    tail = noise.tail
    if noise.head or sp.sympify(tail.start) != 0 or sp.simplify(tail.period - shift) != 0:
        raise NoClosedFormError("a tail is derived at a shift of one period, from 0")
    q, period = sp.sympify(tail.ratio), sp.sympify(tail.period)
    shape = [(sp.sympify(pc.lo), sp.sympify(pc.hi), sp.sympify(pc.expr).subs(u, x))
             for pc in tail.pieces]
    copy_mass = sum((sp.integrate(expr, (x, lo, hi), conds="none") for lo, hi, expr in shape),
                    sp.Integer(0))
    # negative side, copy k >= 0: q^k g (1 - e^eps q); positive side, copy k >= 1:
    # q^(k-1) g (q - e^eps); both sum to (factor) * mass / (1 - q)
    for factor in (1 - sp.exp(eps) * q, q - sp.exp(eps)):
        if _at(factor, point) > 0:
            total += factor * copy_mass / (1 - q)
    mirrored = [(period - hi, period - lo, expr.subs(x, period - x)) for lo, hi, expr in shape]
    return total + hockey_stick(shape, mirrored, eps, point)


__all__ = ["Exact", "Profile", "ball_of", "compare", "derived_profile", "from_noise", "gaussian",
           "hockey_stick", "laplace", "laplace_form", "staircase", "staircase_form",
           "truncated_laplace", "truncated_laplace_case", "truncated_laplace_general",
           "uniform_atom", "uniform_atom_form"]
