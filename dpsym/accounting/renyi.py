r"""Rényi differential privacy of every mechanism: the exact Rényi curve.

The Rényi divergence of order :math:`\alpha > 1` of a noise :math:`f` from its shift by
:math:`d` is

.. math:: D_\alpha(f \,\|\, f(\cdot + d))
          = \frac{1}{\alpha - 1} \log \int f(x)^\alpha f(x + d)^{1 - \alpha}\,dx,

and the Rényi curve of a mechanism at sensitivity :math:`\Delta` is its supremum over
:math:`|d| \le \Delta` (by the symmetry of the noise, :math:`D_\alpha` of the pair in either
order is the same). The limits are the Kullback-Leibler divergence (:math:`\alpha \to 1`)
and the largest privacy loss :math:`\sup_x \log f(x)/f(x + d)` (:math:`\alpha \to \infty`,
the pure :math:`\varepsilon`).

**The worst shift.** For every convex :math:`\varphi`, the :math:`\varphi`-divergence is an
integral of hockey-stick divergences :math:`H_c` against
:math:`\varphi^{\prime\prime}(c)\,dc` (plus a constant), and
:math:`\int f^\alpha g^{1-\alpha}` and :math:`\int f \log(f/g)` are such divergences.
For a log-concave noise each :math:`H_c` is nondecreasing in :math:`|d|`
(:mod:`dpsym.privacy.profiles`), so the supremum is at :math:`d = \Delta`. For a piecewise-constant
density (the staircase) the integrals are piecewise linear in :math:`d` with kinks at the
differences of breakpoints, and for lattice noise at integer differences of breakpoints, so
the supremum is attained at :math:`\Delta` or at one of those differences; all are
evaluated (:meth:`dpsym.privacy.loss.Unrolled.candidate_shifts`).

**Values.** Each integral is summed exactly over the pieces of the noise
(:mod:`dpsym.privacy.loss`) in Arb ball arithmetic and rounded to certified digits; the
Gaussian's curve is the closed form :math:`\alpha\Delta^2/(2\sigma^2)`. A point mass at the
origin, or a bounded support, makes every divergence infinite (the shifted noise puts no
mass where the noise does): the result is ``inf`` with the reason.

**Products.** Independent Laplace (discrete Laplace) noise on each coordinate has
:math:`D_\alpha(t) = \sum_i D^{(1)}_\alpha(t_i)`; :math:`D^{(1)}_\alpha` is convex in
:math:`t \ge 0` with :math:`D^{(1)}_\alpha(0) = 0` (the logarithm of a sum of exponentials
of :math:`t` with positive weights, on :math:`\mathbb{Z}` too), hence superadditive, and
the supremum over :math:`\|t\|_1 \le \Delta` puts the whole shift on one coordinate.
"""

from __future__ import annotations

import itertools
import math
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from fractions import Fraction

import flint
import mpmath
import sympy as sp

from dpsym.certified.rounding import MAX_DIGITS, check_digits, decimal_ball, decimal_parts
from dpsym.core.costs import Cost
from dpsym.core.expressions import to_sympy
from dpsym.core.names import redirection_hint
from dpsym.core.params import check_free, parse_number, require
from dpsym.errors import CertificationError, DomainError, UnsupportedError
from dpsym.mechanisms import (
    AnalyticGaussian,
    ClassicGaussian,
    DiscreteLaplace,
    DiscreteUniform,
    Laplace,
    Mechanism,
    Staircase,
)
from dpsym.precision import arb_workprec, exclusive
from dpsym.privacy.divergence import check_numeric
from dpsym.privacy.loss import (
    Unrolled,
    arb_of,
    ball,
    certify,
    exact_sym,
    kl_integral,
    largest_loss,
    magnitude_bits,
    nonneg,
    one_minus_exp,
    renyi_integral,
)
from dpsym.privacy.loss import order as exact_order
from dpsym.symbolic.noise import SymmetricNoise
from dpsym.symbolic.regimes import expand_series
from dpsym.symbolic.tidy import FACTOR_TERMS, factor
from dpsym.symbols import Delta, b, delta, eps, gamma

__all__ = ["MAX_ORDER", "MAX_SHIFTS", "RenyiValue", "parse_order", "renyi", "renyi_formula",
           "renyi_series"]

#: Largest finite order accepted (larger orders: use ``inf``).
MAX_ORDER = Fraction(10) ** 9
#: Largest number of candidate shifts evaluated.
MAX_SHIFTS = 4096
#: The symbol of the order in formulas.
alpha = sp.Symbol("alpha", positive=True)
#: The standard deviation of the Gaussian.
sigma = sp.Symbol("sigma", positive=True)

_INFINITE = re.compile(r"^\+?(inf|infinity|oo)$", re.IGNORECASE)


def parse_order(value: object) -> Fraction | float:
    r"""Read a Rényi order: a rational :math:`\alpha > 1` (at most :data:`MAX_ORDER`),
    ``1`` for the limit :math:`\alpha \to 1` (Kullback-Leibler) or ``inf`` for
    :math:`\alpha \to \infty` (``math.inf`` is returned).

    Raises
    ------
    DomainError
        Naming ``order``, with the valid range.
    """
    valid = (f"must be a number in (1, {MAX_ORDER}], 1 (the limit alpha -> 1, the "
             "Kullback-Leibler divergence) or inf")
    if isinstance(value, float) and math.isinf(value) and value > 0:
        return math.inf
    if isinstance(value, str) and _INFINITE.match(value.strip()):
        return math.inf
    if value is sp.oo:
        return math.inf
    try:
        order = parse_number(value, "order")
    except DomainError as exc:
        raise DomainError("order", f"{valid}; {str(exc).partition(': ')[2]}") from None
    if order < 1 or order > MAX_ORDER:
        raise DomainError("order", f"{valid}, got {order}")
    return order


@dataclass(frozen=True)
class RenyiValue:
    r"""A point of the Rényi curve.

    Attributes
    ----------
    order : Fraction or float
        :math:`\alpha` (``1`` for the KL limit, ``math.inf`` for the largest loss).
    number : mpmath.mpf
        The value (``mpmath.inf`` when infinite).
    text : str
        Certified digits, or ``"inf"``.
    reason : str or None
        Why the value is infinite.
    shift : str or None
        A worst shift :math:`d^*` (as text).
    certificate : str
        What proves ``text`` (:data:`dpsym.certified.evaluation.CERTIFICATES`):
        ``"enclosure"`` (a rounded Arb ball) or ``"exact"`` (an infinite value, decided
        exactly).
    """

    order: Fraction | float
    number: mpmath.mpf
    text: str
    reason: str | None = None
    shift: str | None = None
    certificate: str = "enclosure"
    digits: int = 30
    notes: tuple[str, ...] = field(default=())

    @property
    def infinite(self) -> bool:
        return self.text == "inf"


def _infinite(order: Fraction | float, reason: str, digits: int) -> RenyiValue:
    return RenyiValue(order, mpmath.inf, "inf", reason, None, "exact", digits)


def _sym_value(mechanism: Mechanism, name: str) -> sp.Expr:
    return exact_sym(mechanism.values[name])


# ---------------------------------------------------------------------------- log-concavity
@exclusive
def is_log_concave(noise: SymmetricNoise, reach: object = None) -> bool:
    """Whether the density (continuous) or mass function (lattice) is log-concave on the
    line, decided exactly (:meth:`dpsym.privacy.loss.Unrolled.log_concave`); then every
    hockey-stick divergence, hence every Rényi and KL divergence, is nondecreasing in the
    shift (:mod:`dpsym.privacy.profiles`, :mod:`dpsym.accounting.renyi`). ``reach`` is the
    scale the noise is described in (default: its tail's period, else 1)."""
    check_numeric(noise)
    if reach is None:
        reach = noise.tail.period if noise.tail is not None else 1
    return Unrolled(noise, exact_sym(reach)).log_concave()


def noise_digits(digits: int) -> int:
    """The digits to which a noise's optimal free parameter (and a Gaussian's sigma) is
    certified for a result of ``digits`` digits: ten more, within the package's limit."""
    return min(digits + 10, MAX_DIGITS)


# ---------------------------------------------------------------------------- reductions
def one_dimensional(mechanism: Mechanism, *, composition: bool = False) -> Mechanism | str:
    r"""The one-dimensional mechanism whose curve is that of ``mechanism``, or the reason
    the curve is infinite (text). A :math:`d`-dimensional product of Laplace or discrete
    Laplace noise reduces to one coordinate (module docstring)."""
    name = mechanism.name
    values = dict(mechanism.values)
    if "dim" not in values:
        return mechanism
    dim = int(values.pop("dim"))
    if name == "laplace-md":
        return Laplace(**values)
    if name == "discrete-laplace-md":
        return DiscreteLaplace(**values)
    if name == "discrete-uniform-md":
        if composition and dim == 1:
            return DiscreteUniform(**values)
        return ("the noise has bounded support: a shift moves mass where the shifted noise "
                "has none")
    if dim == 1 and name in ("staircase-md", "independent-staircase"):
        return Staircase(**values)
    raise UnsupportedError(
        f"{name}: the Rényi curve is derived in one dimension and for the products of "
        "Laplace noise (laplace-md, discrete-laplace-md); the worst shift of this "
        f"{dim}-dimensional noise is not")


def gaussian_sigma2(mechanism: Mechanism, digits: int) -> sp.Expr:
    r""":math:`\sigma^2` of a Gaussian mechanism: the classic closed form from its
    defining condition, or the analytic calibration certified to ``digits + 10`` digits
    and read back exactly (the noise :mod:`dpsym.privacy.profiles` certifies too)."""
    if isinstance(mechanism, ClassicGaussian):
        ((_, _, expr),) = ClassicGaussian.engine.conditions()
        subs = {eps: _sym_value(mechanism, "eps"), delta: _sym_value(mechanism, "delta"),
                Delta: _sym_value(mechanism, "Delta")}
        return sp.expand_power_base(expr.subs(subs) ** 2, force=True)
    text = mechanism.value("sigma", "amplitude", digits + 10).text
    return sp.Rational(parse_number(text, "sigma")) ** 2


def is_gaussian(mechanism: Mechanism) -> bool:
    return isinstance(mechanism, (ClassicGaussian, AnalyticGaussian))


# ---------------------------------------------------------------------------- closed forms
@dataclass(frozen=True)
class ClosedForm:
    r"""A mechanism's privacy loss at its worst shift :math:`\Delta` in closed form.

    ``largest`` is the exact largest loss; ``divergence(alpha)`` the Rényi divergence of
    order :math:`\alpha > 1` and ``kl()`` the KL divergence (None: the generic sums of
    :mod:`dpsym.privacy.loss`) as balls at the current Arb precision; ``masses()`` the
    law on the lattice :math:`\varepsilon\mathbb{Z}` (staircase: the masses of the losses
    :math:`-\varepsilon, 0, \varepsilon`; None for the others)."""

    name: str
    largest: sp.Expr
    divergence: Callable[[Fraction], flint.arb]
    kl: Callable[[], flint.arb] | None = None
    masses: Callable[[], tuple[flint.arb, flint.arb, flint.arb]] | None = None

    def renyi(self, order_: Fraction | float, digits: int, shift: sp.Expr) -> RenyiValue:
        """The certified value at ``order_`` (1: KL, inf: the largest loss)."""
        if order_ == math.inf:
            enclose = lambda prec: ball(self.largest)  # noqa: E731
        elif order_ == 1:
            kl = self.kl
            assert kl is not None
            enclose = lambda prec: kl()  # noqa: E731
        else:
            enclose = lambda prec: self.divergence(Fraction(order_))  # noqa: E731
        number, text = certify(enclose, digits, allow_zero=True)
        return RenyiValue(order_, number, text, None, str(shift), "enclosure", digits)


def closed_form(mechanism: Mechanism, cost: Cost | str = "amplitude", digits: int = 30,
                free_value: object = None) -> ClosedForm | None:
    r"""The closed form of the Laplace, discrete Laplace and staircase mechanisms' privacy
    loss at the shift :math:`\Delta` (their worst shift: the first two are log-concave;
    for the staircase, :math:`P(\ell = \varepsilon)` is nondecreasing in the shift,
    :mod:`dpsym.privacy.closed_forms`), or None for another mechanism.

    Every form depends on :math:`\varepsilon` alone (Laplace, staircase: they are
    scale-free) or on :math:`\varepsilon` and the integer :math:`\Delta` through
    geometric sums in closed form (discrete Laplace): the time depends on neither
    magnitude."""
    kind = type(mechanism)
    if kind is Laplace:
        return _laplace_form(_sym_value(mechanism, "eps"))
    if kind is DiscreteLaplace:
        return _discrete_laplace_form(_sym_value(mechanism, "eps"),
                                      int(mechanism.values["Delta"]))
    if kind is Staircase:
        gamma_ball, small = staircase_gamma(mechanism, cost, digits, free_value)
        return _staircase_form(_sym_value(mechanism, "eps"), gamma_ball, small)
    return None


def _alpha(order_: Fraction) -> tuple[flint.arb, flint.arb]:
    r""":math:`\alpha` and :math:`\alpha - 1` as exact balls (an order such as 11/10 is not
    a float)."""
    return (ball(sp.Rational(order_.numerator, order_.denominator)),
            ball(sp.Rational((order_ - 1).numerator, (order_ - 1).denominator)))


def _laplace_form(eps_exact: sp.Expr) -> ClosedForm:
    r"""Laplace noise, :math:`\lambda = \Delta/\varepsilon` (Mironov):
    :math:`D_\alpha = \frac{1}{\alpha-1}\log\bigl(\frac{\alpha}{2\alpha-1}
    e^{(\alpha-1)\varepsilon} + \frac{\alpha-1}{2\alpha-1}e^{-\alpha\varepsilon}\bigr)`,
    :math:`D_1 = \varepsilon + e^{-\varepsilon} - 1`; written as :math:`\log(1 + s)`
    with :math:`s` of expm1 terms when :math:`(\alpha - 1)\varepsilon < 1`, else with
    :math:`\varepsilon` taken out of the logarithm (no overflow at any
    :math:`\varepsilon`)."""

    def divergence(order_: Fraction) -> flint.arb:
        e = ball(eps_exact)
        a, am1 = _alpha(order_)
        x, two = am1 * e, 2 * a - 1
        if x < 1:
            s = (a * x.expm1() + am1 * (-(a * e)).expm1()) / two
            return s.log1p() / am1
        return e + ((a + am1 * (-(two * e)).exp()) / two).log() / am1

    def kl() -> flint.arb:
        e = ball(eps_exact)
        return e + (-e).expm1()

    return ClosedForm("laplace", eps_exact, divergence, kl)


def _discrete_laplace_form(eps_exact: sp.Expr, big: int) -> ClosedForm:
    r"""Discrete Laplace noise, :math:`P(i) \propto \lambda^{|i|}`,
    :math:`\lambda = e^{-t}`, :math:`t = \varepsilon/\Delta`: at the shift :math:`\Delta`
    the loss is :math:`\varepsilon` on :math:`i \ge 0` (mass :math:`1/(1+\lambda)`),
    :math:`-\varepsilon` on :math:`i \le -\Delta` (mass :math:`e^{-\varepsilon}/(1+\lambda)`)
    and :math:`\varepsilon - 2jt` at :math:`i = -j`, :math:`0 < j < \Delta` (mass
    :math:`c\lambda^j`, :math:`c = \tanh(t/2)`), so with :math:`x = (\alpha-1)\varepsilon`
    and :math:`\rho = e^{-(2\alpha-1)t}`

    .. math:: \int f^\alpha f(\cdot+\Delta)^{1-\alpha} = e^{x}\Bigl(
              \frac{1 + e^{-\varepsilon - 2x}}{1 + \lambda}
              + c\,\frac{\rho(1 - \rho^{\Delta-1})}{1 - \rho}\Bigr)

    (every term positive; :func:`renyi_formula` is the same sum)."""
    t_exact = eps_exact / big

    def divergence(order_: Fraction) -> flint.arb:
        e, t = ball(eps_exact), ball(t_exact)
        a, am1 = _alpha(order_)
        x, k = am1 * e, (2 * a - 1) * t
        inner = flint.arb(0) if big == 1 else \
            (-k).exp() * one_minus_exp(-k * (big - 1)) / one_minus_exp(-k)
        bracket = (1 + (-(e + 2 * x)).exp()) / (1 + (-t).exp()) + (t / 2).tanh() * inner
        return (x + bracket.log()) / am1

    return ClosedForm("discrete-laplace", eps_exact, divergence)


def staircase_gamma(mechanism: Mechanism, cost: Cost | str, digits: int,
                    free_value: object = None) -> tuple[Callable[[], flint.arb], bool]:
    r"""The staircase's :math:`\gamma` as a ball function, and whether
    :math:`\gamma \le 1/2`: the given free value, or the optimum for ``cost`` certified to
    :func:`noise_digits` digits and read as the exact decimal it prints (at any
    exponent: :math:`\gamma^* \approx e^{-\varepsilon/2}`)."""
    given = free_value if free_value is not None else getattr(mechanism, "free_given", None)
    if given is not None:
        exact = to_sympy(check_free(mechanism, given))
        return (lambda: ball(exact)), exact_order(exact, sp.Rational(1, 2)) <= 0
    text = mechanism.value("gamma", cost, noise_digits(digits)).text
    man, power = decimal_parts(text)
    return (lambda: decimal_ball(text)), _at_most_half(man, power)


def _at_most_half(man: int, power: int) -> bool:
    r"""Whether :math:`m \cdot 10^p \le 1/2`, exactly."""
    if man <= 0:
        return True
    if power >= 0:
        return False
    if -power > man.bit_length():  # m < 2^bits <= 10^{-p}/2
        return True
    return 2 * man <= 10**-power


def _staircase_form(eps_exact: sp.Expr, gamma: Callable[[], flint.arb],
                    small: bool) -> ClosedForm:
    r"""The staircase noise :math:`(\varepsilon, \gamma)` at the shift :math:`\Delta`: the
    loss is :math:`\varepsilon`, 0 or :math:`-\varepsilon` with probabilities :math:`p`,
    :math:`p_0`, :math:`bp` (:math:`b = e^{-\varepsilon}`, :math:`D = \gamma +
    b(1 - \gamma)`; the profile of :mod:`dpsym.privacy.closed_forms` is
    :math:`(1 - e^{\varepsilon^{\prime} - \varepsilon})p`):

    .. math:: p = \frac{(1 - b)(\gamma + m) + b}{2D}, \qquad
              p_0 = \frac{(1 - b)\,|1 - 2\gamma|\,b^{[\gamma \le 1/2]}}{2D},
              \qquad m = \min(\gamma, 1 - \gamma),

    every term positive. :math:`D_\alpha = \frac{1}{\alpha-1}\log(p_0 + p e^{x} +
    bp e^{-x})`, :math:`x = (\alpha - 1)\varepsilon`, as :math:`\log(1 + s)`,
    :math:`s = p(1 - b)(e^x - 1) + 4pb\sinh^2(x/2)`, for :math:`x < 1`, else
    :math:`\varepsilon + \log(p + e^{-x}(p_0 + bpe^{-x}))/(\alpha - 1)`;
    :math:`D_1 = \varepsilon p (1 - b)`."""

    extra = magnitude_bits(eps_exact)

    def parts() -> tuple[flint.arb, flint.arb, flint.arb, flint.arb, flint.arb]:
        # b = e^{-eps} is resolved against gamma ~ e^{-eps/2}: eps itself to the working
        # precision needs the bits of its magnitude on top
        with arb_workprec(flint.ctx.prec + extra):
            e = ball(eps_exact)
            b, one_b, g = (-e).exp(), one_minus_exp(-e), gamma()
            twice_d = 2 * (g + b * (1 - g))
            if small:
                p, p0 = (2 * g * one_b + b) / twice_d, b * one_b * (1 - 2 * g) / twice_d
            else:
                p, p0 = 1 / twice_d, one_b * (2 * g - 1) / twice_d
        return +e, +b, +one_b, +nonneg(p), +nonneg(p0)

    def divergence(order_: Fraction) -> flint.arb:
        e, b, one_b, p, p0 = parts()
        _, am1 = _alpha(order_)
        x = am1 * e
        if x < 1:
            s = p * one_b * x.expm1() + 4 * p * b * (x / 2).sinh() ** 2
            return s.log1p() / am1
        w = (-x).exp()
        return e + (p + w * (p0 + p * b * w)).log() / am1

    def kl() -> flint.arb:
        e, _, one_b, p, _ = parts()
        return e * p * one_b

    def masses() -> tuple[flint.arb, flint.arb, flint.arb]:
        _, b, _, p, p0 = parts()
        return b * p, p0, p

    return ClosedForm("staircase", eps_exact, divergence, kl, masses)


# ---------------------------------------------------------------------------- the curve
@exclusive
def renyi(mechanism: Mechanism, order: object, cost: Cost | str = "amplitude",
          digits: int = 30, *, free_value: object = None) -> RenyiValue:
    r"""The Rényi divergence of order :math:`\alpha` of ``mechanism`` at its sensitivity,
    :math:`\sup_{|d| \le \Delta} D_\alpha(f \,\|\, f(\cdot + d))`, certified.

    Parameters
    ----------
    mechanism : Mechanism
        An instance with every parameter (e.g. ``Staircase(eps=1, Delta=1)``).
    order : number or "inf"
        :math:`\alpha > 1`; ``1`` gives the KL divergence, ``"inf"`` the largest loss
        (:func:`parse_order`).
    cost : Cost or str
        The cost whose optimal free parameter defines the noise (staircase family).
    digits : int
        Significant digits certified.
    free_value : number, optional
        The free parameter instead of its optimum.

    Returns
    -------
    RenyiValue
        The certified value (``"inf"`` with the reason when infinite) and a worst shift.
        As for :meth:`~dpsym.mechanisms.base.Mechanism.privacy_profile`, the noise is the
        one with the optimal free parameter (and the analytic Gaussian's :math:`\sigma`)
        certified to ``digits + 10`` digits and read back exactly; the digits are certified
        for that noise.

    Raises
    ------
    DomainError
        For an order outside its range or bad digits.
    UnsupportedError
        For a mechanism whose worst shift is not derived (multi-dimensional staircases).
    """
    a = parse_order(order)
    digits = check_digits(digits)
    reduced = one_dimensional(mechanism)
    if isinstance(reduced, str):
        return _infinite(a, reduced, digits)
    mechanism = reduced
    require(mechanism, *(prm.name for prm in mechanism.params))
    sensitivity = _sym_value(mechanism, "Delta")
    if is_gaussian(mechanism):
        if a == math.inf:
            return _infinite(a, "the Gaussian privacy loss is unbounded (an affine function "
                             "of a normal variable)", digits)
        s2 = gaussian_sigma2(mechanism, digits)
        assert isinstance(a, Fraction)  # (the float is inf)
        factor = sp.Integer(1) if a == 1 else sp.Rational(a.numerator, a.denominator)
        expr = factor * sensitivity**2 / (2 * s2)
        number, text = certify(lambda prec: arb_of(expr), digits)
        return RenyiValue(a, number, text, None, str(sensitivity), "enclosure", digits)
    closed = closed_form(mechanism, cost, digits, free_value)
    if closed is not None and not (a == 1 and closed.kl is None):
        return closed.renyi(a, digits, sensitivity)
    noise = mechanism.numeric_noise(cost, free_value, noise_digits(digits))
    return noise_renyi(noise, sensitivity, a, digits)


def _shifts(unrolled: Unrolled, sensitivity: sp.Expr) -> list[sp.Expr]:
    if unrolled.log_concave():
        return [sensitivity]
    shifts = unrolled.candidate_shifts(sensitivity)
    if len(shifts) > MAX_SHIFTS:
        raise UnsupportedError(f"more than {MAX_SHIFTS} candidate shifts to evaluate")
    return shifts


@exclusive
def noise_renyi(noise, sensitivity: object, order: Fraction | float,
                digits: int = 30) -> RenyiValue:
    r"""The Rényi curve at ``order`` of a numeric :class:`~dpsym.symbolic.noise.SymmetricNoise`
    with pieces :math:`C e^{r x}` at ``sensitivity`` (see :func:`renyi`)."""
    sens = exact_sym(sensitivity)
    if noise.atom != 0:
        return _infinite(order, "the noise has a point mass at 0 that the shifted noise "
                         "does not have", digits)
    unrolled = Unrolled(noise, sens)
    if unrolled.bounded:
        return _infinite(order, "the noise has bounded support: a shift moves mass where "
                         "the shifted noise has none", digits)
    shifts = _shifts(unrolled, sens)
    if order == math.inf:
        candidates: list[tuple[sp.Expr, sp.Expr]] = []
        probe = list(shifts)
        if len(shifts) > 1 and not noise.lattice:  # inside the cells as well
            ends = [sp.Integer(0), *shifts]
            probe += [(p + q) / 2 for p, q in itertools.pairwise(ends)]
        for d in probe:
            found = largest_loss(unrolled, d)
            if found is None:
                return _infinite(order, "the privacy loss is unbounded", digits)
            candidates += [(d, v) for v in found]

        def enclose_max(prec: int) -> flint.arb:
            return _ball_max([arb_of(v) for _, v in candidates])

        number, text = certify(enclose_max, digits, allow_zero=True)
        best = candidates[0]
        for dv in candidates[1:]:  # exactly: the largest loss, then the largest shift
            step = _order_or_mid(dv[1], best[1])
            if step > 0 or (step == 0 and exact_order(dv[0], best[0]) > 0):
                best = dv
        return RenyiValue(order, number, text, None, str(best[0]), "enclosure", digits)
    kl = order == 1
    a = None if kl else Fraction(order)
    for d in shifts:
        if (kl_integral(unrolled, d) if a is None else renyi_integral(unrolled, d, a)) is None:
            return _infinite(order, "the supports of the noise and of its shift differ",
                             digits)
    chosen: list[sp.Expr] = [shifts[-1]]
    # alpha - 1 is an exact rational: its ball is exact (never a float, which is wrong
    # after 16 digits for a non-dyadic order such as 11/10)
    a_minus_1 = None if a is None else exact_sym(a - 1)

    def value_at(d: sp.Expr) -> flint.arb:
        found = kl_integral(unrolled, d) if a is None else renyi_integral(unrolled, d, a)
        assert found is not None  # (finite at every shift: decided above)
        return found if a is None else found.log() / arb_of(a_minus_1)

    def enclose(prec: int) -> flint.arb:
        balls = [value_at(d) for d in shifts]
        chosen[0] = shifts[_argmax(balls)]
        return _ball_max(balls)

    number, text = certify(enclose, digits, allow_zero=True)
    return RenyiValue(order, number, text, None, str(chosen[0]), "enclosure", digits)


def _argmax(balls: list[flint.arb]) -> int:
    """The index of a largest ball: one whose lower end is the largest (so no other ball
    is certainly above it); among equal ones, the last (the largest shift)."""
    best = 0
    for i in range(1, len(balls)):
        if balls[i] > balls[best] or (not balls[i] < balls[best]
                                      and balls[i].mid() >= balls[best].mid()):
            best = i
    return best


def _order_or_mid(a: sp.Expr, b: sp.Expr) -> int:
    """The sign of ``a - b`` exactly, or of their 30-digit values when undecided."""
    try:
        return exact_order(a, b)
    except CertificationError:
        return (sp.N(a, 30) > sp.N(b, 30)) - (sp.N(a, 30) < sp.N(b, 30))


def _ball_max(balls: list[flint.arb]) -> flint.arb:
    best = balls[0]
    for bl in balls[1:]:
        best = best.max(bl)
    return best


# ---------------------------------------------------------------------------- formulas
def renyi_formula(name: str) -> sp.Expr:
    r"""The Rényi curve :math:`D_\alpha` in closed form, in :math:`\alpha` and the
    mechanism's parameters.

    * ``laplace``: Mironov's
      :math:`\frac{1}{\alpha-1}\log\bigl(\frac{\alpha}{2\alpha-1}e^{(\alpha-1)\varepsilon}
      + \frac{\alpha-1}{2\alpha-1}e^{-\alpha\varepsilon}\bigr)` (also ``laplace-md``);
    * ``discrete-laplace``: with :math:`\lambda = e^{-\varepsilon/\Delta}` and
      :math:`\Delta` an integer, from the geometric sums over :math:`i \ge 0`,
      :math:`i \le -\Delta` and :math:`-\Delta < i < 0` (also ``discrete-laplace-md``);
    * ``gaussian``: :math:`\alpha\Delta^2/(2\sigma^2)` with the classic
      :math:`\sigma`; ``analytic-gaussian``: the same in :math:`\sigma`;
    * ``staircase``: at the shift :math:`\Delta` and :math:`\gamma \le 1/2` (the optimal
      :math:`\gamma` of every cost is below 1/2), in :math:`b = e^{-\varepsilon}` and
      :math:`\gamma`: :math:`\int f^\alpha f(\cdot+\Delta)^{1-\alpha}
      = \frac{b^{1-\alpha} + b^\alpha}{2} + a\Delta\bigl(\gamma b^{1-\alpha}
      + (1 - 2\gamma) b + \gamma b^\alpha\bigr)`, :math:`a = (1-b)/(2\Delta(\gamma +
      b(1-\gamma)))`.

    Raises
    ------
    UnsupportedError
        For the other mechanisms (their values are computed by :func:`renyi`).
    """
    a = alpha
    if name in ("laplace", "laplace-md"):
        return sp.log(a / (2 * a - 1) * sp.exp((a - 1) * eps)
                      + (a - 1) / (2 * a - 1) * sp.exp(-a * eps)) / (a - 1)
    if name in ("discrete-laplace", "discrete-laplace-md"):
        lam = sp.exp(-eps / Delta)
        c = (1 - lam) / (1 + lam)
        r = lam ** (2 * a - 1)
        total = c * (lam ** ((1 - a) * Delta) / (1 - lam) + lam ** (a * Delta) / (1 - lam)
                     + lam ** ((1 - a) * Delta) * (r - r**Delta) / (1 - r))
        return sp.log(total) / (a - 1)
    if name == "gaussian":
        ((_, _, expr),) = ClassicGaussian.engine.conditions()
        return sp.simplify(a * Delta**2 / (2 * expr**2))
    if name == "analytic-gaussian":
        return a * Delta**2 / (2 * sigma**2)
    if name == "staircase":
        norm = (1 - b) / (2 * Delta * (gamma + b * (1 - gamma)))
        total = (b ** (1 - a) + b**a) / 2 + norm * Delta * (
            gamma * b ** (1 - a) + (1 - 2 * gamma) * b + gamma * b**a)
        return sp.log(total) / (a - 1)
    raise UnsupportedError(f"{name}: no closed form of the Rényi curve; `dpsym renyi` "
                           "computes its certified values")


REGIMES = ("eps->0", "alpha->1")
#: Largest number of series terms.
MAX_TERMS = 6


def _sympy_factored(coeff: sp.Expr) -> bool:
    """Whether every sum in ``coeff`` has at most :data:`~dpsym.symbolic.tidy.FACTOR_TERMS`
    terms (an expansion's coefficient of that size is factored by sympy)."""
    return all(len(s.args) <= FACTOR_TERMS for s in coeff.atoms(sp.Add))


def renyi_series(name: str, regime: str, terms: int) -> sp.Expr:
    r"""The expansion of :func:`renyi_formula` as :math:`\varepsilon \to 0` or
    :math:`\alpha \to 1` (the first ``terms`` orders, with the O-term), as an unevaluated
    sum in increasing powers of the variable (print it with ``order="none"``, e.g.
    :func:`dpsym.reports.printing.expression_text` with ``ordered=True``).

    The expansion is computed in exact truncated power-series arithmetic
    (:func:`dpsym.symbolic.regimes.expand_series`), not by :func:`sympy.series` (minutes for the
    discrete Laplace curve). The Gaussian's curve is exact (a polynomial in the
    variable); the staircase's is in :math:`\gamma` (at every :math:`\gamma \le 1/2`), its
    leading term :math:`\alpha\varepsilon^2/2` free of :math:`\gamma`."""
    if regime not in REGIMES:
        quote = redirection_hint(regime, REGIMES)
        raise DomainError("regime", f"must be one of {', '.join(REGIMES)}, got "
                          f"{str(regime)[:40]!r}" + ("" if quote is None else f"; {quote}"))
    if not (isinstance(terms, int) and 1 <= terms <= MAX_TERMS):
        raise DomainError("terms", f"must be an integer in [1, {MAX_TERMS}], got {terms}")
    expr = renyi_formula(name)
    if name == "staircase":
        expr = expr.subs(b, sp.exp(-eps))
    t = sp.Symbol("t", positive=True)
    if regime == "eps->0":
        var, shown = eps, eps
    else:
        var, shown = alpha, alpha - 1
    expr = expr.subs(var, 1 + t if var is alpha else t)
    if t not in expr.free_symbols:
        raise UnsupportedError(f"{name}: the curve does not depend on {var}")
    expansion = expand_series(expr, t, terms + 1).removeO()
    by_power: dict[sp.Expr, sp.Expr] = {}
    terms_at: dict[sp.Expr, int] = {}  # the number of the expansion's terms per power
    for term in sp.Add.make_args(expansion):
        # coeff * t**power split by the factors free of t (as_coeff_exponent collects the
        # whole term first: seconds for the discrete Laplace curve's coefficients)
        coeff, tpart = term.as_independent(t, as_Add=False)
        base, power = tpart.as_base_exp() if tpart != 1 else (t, sp.Integer(0))
        if base != t:  # pragma: no cover - the expansion is in powers of t
            raise UnsupportedError(f"{name}: no power series in {var}")
        terms_at[power] = terms_at.get(power, 0) + 1
        by_power[power] = by_power.get(power, sp.Integer(0)) + coeff
    # The coefficients come factored, their exponentials as powers of atoms (the
    # expansion's output): ``tidy`` without its ``powsimp``, which took half of the time
    # here and left the factored result unchanged on every name, regime and number of
    # terms of this function (a finite domain, compared exhaustively). A power's single
    # coefficient that the expansion factored by sympy (every sum in it of at most
    # FACTOR_TERMS terms) is its own ``factor`` form: factoring it again, the larger part of
    # the time here, changed none of them on that domain (compared exhaustively); a larger
    # one (python-flint's factors, kept expanded) is factored here.
    parts = [(coeff if terms_at[power] == 1 and _sympy_factored(coeff)
              else factor(sp.sympify(coeff).rewrite(sp.exp))) * shown**power
             for power, coeff in sorted(by_power.items()) if coeff != 0]
    order = sp.Order(shown ** (terms + 1), (var, 0 if var is eps else 1))
    return sp.Add(*parts, order, evaluate=False)
