r"""The Gaussian privacy profile and the analytic calibration as rigorous Arb enclosures.

**The profile, defined once.** The privacy profile of :math:`N(0, \sigma^2)` noise at
sensitivity :math:`\Delta` is :data:`PROFILE`,

.. math:: \delta(\varepsilon) = \Phi\Bigl(\frac{\Delta}{2\sigma}
   - \frac{\varepsilon\sigma}{\Delta}\Bigr) - e^\varepsilon
   \Phi\Bigl(-\frac{\Delta}{2\sigma} - \frac{\varepsilon\sigma}{\Delta}\Bigr),

with :math:`\Phi` the standard normal distribution function (:func:`Phi`, in balls
:func:`normal_cdf`) and :math:`\varphi` its density (:func:`normal_pdf`). Every evaluation
of the package (the balls below, :func:`dpsym.gaussian.calibration.profile_mp`,
:func:`dpsym.gaussian.float64.profile`, :func:`dpsym.gaussian.loss.gaussian_delta`) is this
expression in a cancellation-free form, proven equal to it by sympy in the tests.

Notation of :mod:`dpsym.gaussian.calibration`: :math:`\mu = \Delta/\sigma`,
:math:`x = \varepsilon/\mu - \mu/2`, :math:`y = x + \mu = \sqrt{x^2 + 2\varepsilon}`, the
Mills ratio :math:`R(t) = \Phi(-t)/\varphi(t)`, and

.. math::

   \delta = \Phi(-x) - e^\varepsilon\Phi(-y) = \Phi(-x) - \varphi(x) R(y)
          = \varphi(x)\bigl(R(x) - R(y)\bigr), \qquad
   1 - \delta = \Phi(x) + \varphi(x) R(y).

**The Mills ratio without overflow.** For :math:`t > 0`,
:math:`\sqrt\pi\,e^{z}\operatorname{erfc}(\sqrt z) = U(\tfrac12, \tfrac12, z)` (Kummer's
confluent function), so :math:`R(t) = U(\tfrac12, \tfrac12, t^2/2)/\sqrt2`; Arb evaluates
:math:`U` with full relative accuracy for every :math:`z > 0` (asymptotic series far out),
so neither :math:`e^{t^2/2}` nor :math:`\operatorname{erfc}(t/\sqrt2)` appears (it is used
for :math:`t > 8`; below, the erfc form has no cancellation, :math:`e^{t^2/2} \le e^{32}`
does not overflow, and it loses at most :math:`\log_2(t^2/2) \le 5` bits to the rounding
of :math:`t^2/2`, at a tenth of the cost of :math:`U`). From
:math:`\partial_z U(a, b, z) = -a\,U(a + 1, b + 1, z)`,
:math:`-R^{\prime}(t) = t\,U(\tfrac32, \tfrac32, t^2/2)/(2\sqrt2) > 0` (the same as
:math:`1 - tR(t)`, which cancels for large :math:`t`; it is used for :math:`t \le 1` only,
where :math:`tR(t) \le R(1) < 0.66`). For :math:`t \le 8`,
:math:`R(t) = \sqrt{\pi/2}\,\operatorname{erfc}(t/\sqrt2)\,e^{t^2/2}` (no cancellation).

**The difference** :math:`R(x) - R(y)`. By the mean-value theorem it lies in
:math:`\mu\cdot(-R^{\prime})([x, y])`, one ball evaluation over the interval :math:`[x, y]` whose
relative width is about :math:`\mu(|x| + 3)` (:math:`|R^{\prime\prime}/R^{\prime}| \le |t| + 3`);
when that is
below :math:`2^{-w}` at working precision :math:`w` this enclosure is used, otherwise the
direct difference, which then loses at most :math:`w` bits to cancellation. Every
evaluation is repeated at a higher precision until the ball has the relative accuracy asked
for (:func:`adaptive`): the exact inputs make every refinement tighter.

**The calibration** (:class:`Calibration`). :math:`\delta` is a strictly decreasing function of
:math:`x` (:math:`d\delta/dx = -\varphi(x)\mu/y < 0`, docstring of
:mod:`dpsym.gaussian.calibration`), and :math:`\sigma = \Delta/\mu(x)` is strictly increasing
in :math:`x`. An approximate root :math:`\tilde x` is found by Newton's method on
:math:`\log\delta(x) = \log\delta` (or on :math:`\log(1 - \delta(x))` for
:math:`\delta > 1/2`) at doubling precision, with the ball midpoints; then it is *isolated*:
two exact points :math:`x_- < \tilde x < x_+` are shown, each by a ball evaluation that
excludes the target, to lie on either side of it (:math:`\delta(x_-) > \delta > \delta(x_+)`),
and the derivative's enclosure on :math:`[x_-, x_+]` is shown negative. By the intermediate
value theorem and strict monotonicity the root is in :math:`[x_-, x_+]` and unique there,
and :math:`\sigma^* \in [\Delta/\mu(x_-), \Delta/\mu(x_+)]`. The bracket is narrowed until a
quantity of :math:`\sigma^*` rounds to the digits asked for
(:func:`certify_ball`); otherwise :class:`~dpsym.errors.CertificationError`.
"""

from __future__ import annotations

from collections.abc import Callable
from fractions import Fraction

import flint
import sympy as sp

from dpsym.certified.kernel import (
    ATTEMPTS,
    GUARD_BITS,
    adaptive,
    ball,
    ball_log2,
    ball_size,
    exact,
    size_bits,
)
from dpsym.errors import CertificationError
from dpsym.precision import arb_workprec
from dpsym.symbols import Delta as _Delta_sym
from dpsym.symbols import eps as _eps_sym

arb = flint.arb

#: The noise's standard deviation :math:`\sigma`.
sigma = sp.Symbol("sigma", positive=True)


def Phi(z: sp.Expr) -> sp.Expr:
    r"""The standard normal distribution function :math:`\Phi(z) =
    (1 + \operatorname{erf}(z/\sqrt2))/2`, symbolically (in balls: :func:`normal_cdf`)."""
    return (1 + sp.erf(z / sp.sqrt(2))) / 2


def phi(z: sp.Expr) -> sp.Expr:
    r"""The standard normal density :math:`\varphi(z) = e^{-z^2/2}/\sqrt{2\pi}`,
    symbolically (in balls: :func:`normal_pdf`)."""
    return sp.exp(-z**2 / 2) / sp.sqrt(2 * sp.pi)


#: The Gaussian privacy profile :math:`\delta(\varepsilon; \sigma, \Delta)` (module
#: docstring): its one definition.
PROFILE = (Phi(_Delta_sym / (2 * sigma) - _eps_sym * sigma / _Delta_sym)
           - sp.exp(_eps_sym) * Phi(-_Delta_sym / (2 * sigma) - _eps_sym * sigma / _Delta_sym))

# ---------------------------------------------------------------------------------------


# ---------------------------------------------------------------------------------------
# the profile
# ---------------------------------------------------------------------------------------

def _half() -> flint.arb:
    return arb(1) / 2


def mills(t: flint.arb) -> flint.arb:
    r"""The Mills ratio :math:`R(t) = \Phi(-t)/\varphi(t)` on a ball (Kummer's form
    above 8, where :math:`e^{t^2/2}` could overflow; the erfc form below, also for balls
    wide against their distance to 0)."""
    if t > 8:
        return (t * t / 2).hypgeom_u(_half(), _half()) / arb(2).sqrt()
    h = t / arb(2).sqrt()
    return (arb.pi() / 2).sqrt() * h.erfc() * (h * h).exp()


def mills_slope(t: flint.arb) -> flint.arb:
    r""":math:`-R^{\prime}(t) = 1 - tR(t) > 0` on a ball (the :math:`U(\tfrac32, \tfrac32, \cdot)`
    form above 1)."""
    if t > 1:
        three_halves = arb(3) / 2
        return t * (t * t / 2).hypgeom_u(three_halves, three_halves) / (2 * arb(2).sqrt())
    return 1 - t * mills(t)


def normal_pdf(x: flint.arb) -> flint.arb:
    r"""The standard normal density :math:`\varphi(x)` (:func:`phi`) on a ball."""
    return (-(x * x) / 2).exp() / (2 * arb.pi()).sqrt()


def normal_cdf(z: flint.arb) -> flint.arb:
    r"""The standard normal distribution function :math:`\Phi(z)` (:func:`Phi`) on a ball,
    as :math:`\operatorname{erfc}(-z/\sqrt2)/2` (no cancellation in the lower tail)."""
    return (-z / arb(2).sqrt()).erfc() / 2


def _tiny_gap(x: flint.arb, mu: flint.arb) -> bool:
    r"""Whether :math:`\mu(|x| + 3) < 2^{-w}` (the mean-value enclosure is tight)."""
    return bool(mu * (abs(x) + 3) < arb(2) ** (-flint.ctx.prec))


def delta_ball(x: flint.arb, y: flint.arb, mu: flint.arb) -> flint.arb:
    r""":math:`\delta` from balls of :math:`x`, :math:`y = x + \mu` and :math:`\mu > 0` at the
    current precision (module docstring)."""
    if _tiny_gap(x, mu):
        return normal_pdf(x) * mu * mills_slope(x.union(y))
    if x > 0:
        return normal_pdf(x) * (mills(x) - mills(y))
    return normal_cdf(-x) - normal_pdf(x) * mills(y)


def complement_ball(x: flint.arb, y: flint.arb) -> flint.arb:
    r""":math:`1 - \delta = \Phi(x) + \varphi(x)R(y)` (no cancellation)."""
    return normal_cdf(x) + normal_pdf(x) * mills(y)


def profile_enclosure(eps: Fraction, sigma: Fraction, Delta: Fraction
                      ) -> Callable[[int], flint.arb]:
    r"""``enclose(bits)``: a ball of :math:`\delta(\varepsilon; \sigma, \Delta)` with about
    ``bits`` bits of relative accuracy, from exact :math:`\varepsilon \ge 0`,
    :math:`\sigma > 0`, :math:`\Delta > 0` (:math:`x` and :math:`y` are exact rationals)."""
    mu = Delta / sigma
    x = eps / mu - mu / 2
    y = x + mu
    extra = 2 * size_bits(x) + GUARD_BITS

    def enclose(bits: int) -> flint.arb:
        return adaptive(lambda: delta_ball(ball(x), ball(y), ball(mu)), bits, extra)

    return enclose


def profile_between(eps: Fraction, sigma: Callable[[int], flint.arb], Delta: Fraction
                    ) -> Callable[[int], flint.arb]:
    r"""``enclose(bits)`` of :math:`\delta(\varepsilon; \sigma, \Delta)` for a
    :math:`\sigma` known only as balls ``sigma(bits)`` (an irrational or calibrated one):
    :math:`\delta` is decreasing in :math:`\sigma`, so it lies between its values at the
    exact ends of the ball; :math:`\sigma`'s bits grow until the union is as accurate as
    asked (its relative width is that of :math:`\sigma` times
    :math:`|d\log\delta/d\log\sigma|`)."""

    def enclose(bits: int) -> flint.arb:
        more = bits + 16
        for _ in range(ATTEMPTS):
            s = sigma(more)
            if not s > 0:
                raise CertificationError("sigma's enclosure is not positive")
            with arb_workprec(more + 64):  # the ends, rounded outwards
                lo, hi = s.lower(), s.upper()
            ends = [profile_enclosure(eps, exact(end), Delta)(bits + 8) for end in (lo, hi)]
            with arb_workprec(bits + 64):
                found = ends[0].union(ends[1])
            accuracy = found.rel_accuracy_bits()
            if accuracy >= bits:
                break
            more += bits - max(accuracy, 0) + 16
        return found

    return enclose


# ---------------------------------------------------------------------------------------
# certified rounding of a ball
# ---------------------------------------------------------------------------------------


# ---------------------------------------------------------------------------------------
# the analytic calibration
# ---------------------------------------------------------------------------------------

def _split(lo: flint.arb, hi: flint.arb, gallop: list[int]) -> flint.arb:
    r"""A point of :math:`(\mathrm{lo}, \mathrm{hi})` for the safeguarded Newton method:
    0 when the bracket contains it, then (the root may be as small as :math:`10^{-300}`
    when :math:`\varepsilon` is tiny) :math:`\mathrm{hi}\,2^{-k}` from 0 with :math:`k`
    doubling, the geometric mean of ends of one sign far apart, else the midpoint."""
    if lo < 0 < hi:
        return arb(0)
    if lo.is_zero() or hi.is_zero():
        gallop[0] *= 2
        end = hi if lo.is_zero() else lo
        return arb((end * arb(2) ** -gallop[0]).mid())
    if (lo > 0 and hi > 4 * lo) or (hi < 0 and lo < 4 * hi):
        return arb((lo / abs(lo) * (lo * hi).sqrt()).mid())
    return arb(((lo + hi) / 2).mid())


class Calibration:
    r"""The root :math:`\sigma^*` of :math:`\delta(\varepsilon; \sigma) = \delta`, isolated
    rigorously (module docstring) for exact :math:`\varepsilon > 0`,
    :math:`\delta \in (0, 1)`, :math:`\Delta > 0`.

    :meth:`sigma` returns a ball of :math:`\sigma^*`; the approximate root is kept and
    refined by later calls at more bits.
    """

    def __init__(self, eps: Fraction, delta: Fraction, Delta: Fraction) -> None:
        self.eps, self.delta, self.Delta = Fraction(eps), Fraction(delta), Fraction(Delta)
        self.upper = self.delta > Fraction(1, 2)  # compare 1 - delta(x) with 1 - delta
        self.target = 1 - self.delta if self.upper else self.delta
        self._x: flint.arb | None = None  # an exact approximate root
        self._k = 1 << 30  # within about 2^(k - 3) of the root

    def __reduce__(self) -> tuple[type, tuple[Fraction, Fraction, Fraction]]:
        """Pickled by its parameters (the approximate root is recomputed on demand)."""
        return type(self), (self.eps, self.delta, self.Delta)

    # ---------------------------------------------------------------- at a point
    def _point(self, x: flint.arb) -> tuple[flint.arb, flint.arb]:
        r""":math:`(y, \mu)` at :math:`x`, without cancellation."""
        e = ball(self.eps)
        y = (x * x + 2 * e).sqrt()
        mu = 2 * e / (x + y) if x > 0 else y - x
        return y, mu

    def _value(self, x: flint.arb, bits: int) -> flint.arb:
        r""":math:`\delta(x)`, or :math:`1 - \delta(x)` in the upper form."""
        def compute() -> flint.arb:
            y, mu = self._point(x)
            return complement_ball(x, y) if self.upper else delta_ball(x, y, mu)

        return adaptive(compute, bits, 2 * ball_size(x) + GUARD_BITS)

    def _scale_log2(self, x: flint.arb) -> int:
        r""":math:`\lceil\log_2 \min(y, 1 + |x|)\rceil`: the bracket is narrower than both
        :math:`y\,2^{-b}` (the relative width of :math:`\sigma`, :math:`d\log\sigma/dx = 1/y`)
        and :math:`(1 + |x|)2^{-b}` (so that :math:`\varphi` stays tight on it)."""
        with arb_workprec(64):
            y, _ = self._point(x)
            return ball_log2(arb.min(y, 1 + abs(x)))

    def _step(self, x: flint.arb, bits: int) -> tuple[flint.arb, flint.arb]:
        r"""One Newton step on :math:`G(x) = \log v(x) - \log v^* = 0` with :math:`v` to
        ``bits`` bits: (new exact point, :math:`|G/G^{\prime}|`);
        :math:`G^{\prime} = \mp\varphi(x)\mu/(y\,v)` (:math:`-` for :math:`v = \delta`)."""
        v = self._value(x, bits)
        with arb_workprec(bits + 2 * ball_size(x) + GUARD_BITS):
            y, mu = self._point(x)
            slope = normal_pdf(x) * mu / (y * v)
            if not self.upper:
                slope = -slope
            step = (v.log() - ball(self.target).log()) / slope
            return arb((x - step).mid()), abs(step)

    def _needed_bits(self, x: flint.arb, k: int) -> int:
        r"""Relative bits of :math:`v` that place a Newton point within :math:`2^{k-3}` of
        the root: an error :math:`\eta` of :math:`G` moves it by :math:`\eta/|G^{\prime}|`."""
        v = self._value(x, 40)
        with arb_workprec(64):
            y, mu = self._point(x)
            inverse_slope = y * v / (normal_pdf(x) * mu)
            return max(64, ball_log2(inverse_slope) - k + 12)

    def _approximate(self, k: int) -> flint.arb:
        r"""An exact point within about :math:`2^{k-3}` of the root (kept for later calls)."""
        if self._x is not None and self._k <= k:
            return self._x
        x = self._x if self._x is not None else self._bracketed()
        need = self._needed_bits(x, k)
        bits = 40
        with arb_workprec(64):
            small = arb(2) ** (k - 3)
        for _ in range(64):
            bits = min(2 * bits, need)
            x, step = self._step(x, bits)
            if bits == need and step < small:
                break
        else:
            raise CertificationError("the analytic Gaussian calibration: Newton's method did "
                                     "not converge")
        self._x, self._k = x, k
        return x

    def _bracketed(self) -> flint.arb:
        r"""Newton safeguarded by bisection on the bracket
        :math:`[-\max(1, \sqrt{2\log\frac{1}{1-\delta}}), \max(1, \sqrt{2\log\frac1\delta})]`
        at 64 bits, to about 40 bits of :math:`\min(y, 1 + |x|)`."""
        with arb_workprec(64):
            d, c = self.delta, 1 - self.delta
            log_c = ball(c).log() if self.upper else ball(-d).log1p()
            log_d = ball(-c).log1p() if self.upper else ball(d).log()
            lo = -arb.max(arb(1), (-2 * log_c).sqrt())
            hi = arb.max(arb(1), (-2 * log_d).sqrt())
            lo, hi = arb(lo.lower()), arb(hi.upper())
        x = hi if not self.upper else arb(((lo + hi) / 2).mid())
        gallop = [1]
        for _ in range(400):
            v = self._value(x, 60)
            with arb_workprec(64):
                y, mu = self._point(x)
                g = v.log() - ball(self.target).log()
                slope = normal_pdf(x) * mu / (y * v)
                if not self.upper:
                    slope = -slope
                # the root is at a larger x when g and the slope have opposite signs
                if g.mid() * slope.mid() < 0:
                    lo = x
                else:
                    hi = x
                new = arb((x - g / slope).mid())
                if not new.is_finite() or not lo < new < hi:
                    new = _split(lo, hi, gallop)
                scale = arb.min(y, 1 + abs(x))
                close = abs(new - x) <= scale * arb(2) ** -40 or hi - lo <= scale * arb(2) ** -44
            x = new
            if close:
                return x
        raise CertificationError("the analytic Gaussian calibration did not converge")

    # ---------------------------------------------------------------- isolation
    def _side(self, x: flint.arb, bits: int) -> int | None:
        r"""+1 if the root is proven to the right of ``x`` (:math:`\delta(x) > \delta`),
        -1 if to its left, None if undecided at this precision."""
        v = self._value(x, bits)
        with arb_workprec(bits + GUARD_BITS):
            t = ball(self.target)
            above, below = bool(v > t), bool(v < t)
        if not (above or below):
            return None
        # lower form: v = delta(x) decreasing, root to the right iff v > target;
        # upper form: v = 1 - delta(x) increasing, root to the right iff v < target
        return 1 if above != self.upper else -1

    def bracket(self, bits: int) -> tuple[flint.arb, flint.arb]:
        r"""Exact points :math:`x_- < x_+`, :math:`x_+ - x_- \approx y\,2^{-\mathrm{bits}}`,
        with the root proven in :math:`[x_-, x_+]` and the slope proven of one sign there.

        Raises
        ------
        CertificationError
            If the sides cannot be proven.
        """
        if self._x is None:
            self._x = self._bracketed()  # about 40 bits; self._k still promises nothing
        k = self._scale_log2(self._x) - bits - 3
        x = self._approximate(k)
        h = arb(2) ** k  # exact
        for _ in range(6):
            with arb_workprec(bits + 2 * ball_size(x) + 2 * GUARD_BITS):
                lo, hi = arb((x - h).mid()), arb((x + h).mid())  # exact points
            sides: list[int | None] = [None, None]
            for attempt in range(4):
                want = bits + 24 << attempt
                sides = [self._side(lo, want), self._side(hi, want)]
                if None not in sides:
                    break
            if sides == [1, -1]:
                self._check_slope(lo, hi, bits)
                return lo, hi
            if None in sides or sides == [-1, 1]:
                break
            h *= 4  # the approximation was off: widen around it (the root is not between)
            if sides == [1, 1]:
                x = hi
            elif sides == [-1, -1]:
                x = lo
        raise CertificationError("the analytic Gaussian calibration: the root could not be "
                                 "isolated")

    def _check_slope(self, lo: flint.arb, hi: flint.arb, bits: int) -> None:
        r"""Prove :math:`d\delta/dx = -\varphi(x)\mu/y < 0` on :math:`[x_-, x_+]` (the root
        is unique there)."""
        with arb_workprec(bits + GUARD_BITS):
            X = lo.union(hi)
            y, mu = self._point(X)
            derivative = -normal_pdf(X) * mu / y
            if not derivative < 0:
                raise CertificationError("the analytic Gaussian calibration: the slope's sign "
                                         "is not proven on the bracket")

    def sigma(self, bits: int) -> flint.arb:
        r"""A ball containing :math:`\sigma^*`, of relative width about
        :math:`2^{-\mathrm{bits}}`, at ``bits`` plus guard bits (the caller's precision is
        not changed)."""
        lo, hi = self.bracket(bits)
        with arb_workprec(bits + GUARD_BITS):
            ends = [ball(self.Delta) / self._point(x)[1] for x in (lo, hi)]
            return ends[0].union(ends[1])


__all__ = ["PROFILE", "Calibration", "Phi", "complement_ball", "delta_ball", "mills",
           "mills_slope", "normal_cdf", "normal_pdf", "phi", "profile_between",
           "profile_enclosure", "sigma"]
