r"""Rigorous enclosures of Lerch sums in ball arithmetic (Arb, through python-flint).

The non-integer moments of the staircase family are Lerch sums
(:class:`dpsym.symbolic.sums.LerchSum`)

.. math:: L(z, s, a) = \sum_{k \ge 0} z^k (k + a)^s, \qquad 0 < z < 1,\ a \ge 0,

(:math:`0^s = 0` for :math:`s > 0`), the Lerch transcendent :math:`\Phi(z, -s, a)`.
:func:`lerch_sum_ball` returns an Arb ball that contains :math:`L(z, s, a)` for every
:math:`z` in the ball ``z`` and every :math:`a \ge 0` in the ball ``a`` (an interval of
the free parameter :math:`\gamma` of :mod:`dpsym.certified.intervals`, or a point), :math:`s` an
exact rational. Every remainder is bounded explicitly; nothing is estimated.

**Direct summation** (:func:`direct_sum`), for :math:`t = -\log z` not small: with
:math:`T_k = z^k (k + a)^s`, for :math:`k \ge N` the ratio
:math:`T_{k+1}/T_k = z (1 + 1/(k + a))^s` is at most
:math:`\rho = z \max(1, (1 + 1/(N + a))^s)` (decreasing in :math:`k`), so

.. math:: 0 \le \sum_{k \ge N} T_k \le \frac{T_N}{1 - \rho}, \qquad \rho < 1.

**The Hurwitz expansion** (:func:`hurwitz_series`), for :math:`0 < t < 2\pi`, :math:`a > 0`,
:math:`s \ne -1, -2, \dots` (Erdélyi, Higher Transcendental Functions I, 1.11(8)):

.. math:: L(e^{-t}, s, a) = e^{at} \Bigl[\Gamma(1 + s)\, t^{-1-s}
          + \sum_{n \ge 0} \zeta(-s - n, a) \frac{(-t)^n}{n!}\Bigr],

each :math:`\zeta(-s - n, a)` one call of Arb's rigorous Hurwitz zeta function. For
:math:`u = 1 + s + n > 1` and :math:`0 < a \le 1`, Hurwitz's formula (DLMF 25.11.9)

.. math:: \zeta(1 - u, a) = \frac{2\Gamma(u)}{(2\pi)^u} \sum_{m \ge 1}
          \frac{\cos(\pi u/2 - 2\pi m a)}{m^u}

gives :math:`|\zeta(-s - n, a)| \le H_n = 2\Gamma(u)\zeta(u)/(2\pi)^u`; for
:math:`a \in (J, J + 1]`, :math:`\zeta(\sigma, a) = \zeta(\sigma, a - J) - \sum_{i < J}
(a - J + i)^{-\sigma}` adds at most :math:`J a^{s+n}`. The successive ratios of
:math:`h_n = H_n t^n/n!` are at most :math:`\max(1, \frac{1+s+N}{N+1})\frac{t}{2\pi}`
for :math:`n \ge N` (:math:`\zeta` decreases on :math:`(1, \infty)`), those of
:math:`J a^{s+n} t^n/n!` at most :math:`at/(N + 1)`, so the remainder after :math:`N`
terms is bounded by two geometric series. At :math:`t = 10^{-6}` a dozen zeta values
give 200 bits.

**Euler--Maclaurin summation** (:func:`euler_maclaurin`), for small :math:`t` at high
precision (where each zeta value of the expansion costs milliseconds): :math:`K` terms,
the integral of the tail as an incomplete gamma function, :math:`J` corrections from the
Taylor coefficients of :math:`e^{-tx}(x + a)^s` at :math:`K` (one product of power
series), and a remainder bounded through the periodic Bernoulli function
(:math:`|\tilde B_{2J}| \le 2(2J)!\,\zeta(2J)/(2\pi)^{2J}`) and the derivatives of the
summand. Of the three, the cheapest by a cost model is taken; each is proven.

**Balls and series in** :math:`a`. Every term :math:`(k + a)^s` is monotone in
:math:`a` (increasing for :math:`s > 0`, decreasing for :math:`s < 0`), so the values on
an interval of :math:`a` lie between the values at its ends: a ball ``a`` is evaluated
at its two (exact) ends, read as its intersection with the domain :math:`a \ge 0` (the
convention of interval arithmetic for a function's natural domain, as
:math:`\sqrt{[-1, 4]} = [0, 2]`); Arb's Hurwitz zeta of a wide ball is useless. A power
series in :math:`a` (the Taylor forms of :mod:`dpsym.certified.intervals`) takes the Taylor
coefficients :math:`\partial_a^j L / j! = \binom{s}{j} L(z, s - j, a)`; the
:math:`L(z, s - j, a)` of one :math:`a` share their zeta values (or their powers).

The caller holds the precision lock (:mod:`dpsym.precision`); the evaluation runs at
the current ``flint.ctx.prec`` plus :data:`GUARD` bits.
"""

from __future__ import annotations

import math
from fractions import Fraction
from functools import lru_cache

import flint

from dpsym.certified.kernel import ball
from dpsym.certified.lerch import methods
from dpsym.certified.lerch.methods import (
    CACHE_SIZE,
    MAX_DIRECT_TERMS,
    ball_key,
    direct_sum,
    em_sizes,
    euler_maclaurin,
    evaluate_point,
    hurwitz_series,
    magnitude,
    ratio_data,
)
from dpsym.precision import arb_fraction, arb_workprec

#: Guard bits of the internal evaluation, beyond the caller's working precision.
GUARD = 20

_FAMILIES: dict[tuple, list[flint.arb]] = {}


def exact_exponent(s: object) -> Fraction:
    """The exponent :math:`s` as an exact fraction (an int, Fraction, FLINT rational or an
    exact Arb ball of a dyadic number).

    Raises
    ------
    TypeError
        For an exponent that is not exactly known.
    """
    if isinstance(s, Fraction):
        return s
    if isinstance(s, int):
        return Fraction(s)
    if isinstance(s, flint.fmpz):
        return Fraction(int(s))
    if isinstance(s, flint.fmpq):
        return Fraction(int(s.p), int(s.q))
    if isinstance(s, flint.arb) and s.is_exact():
        return arb_fraction(s)
    raise TypeError(f"the exponent of a Lerch sum must be exact, got {s!r}")


def lerch_family(z: flint.arb, s: Fraction, a: flint.arb, count: int) -> list[flint.arb]:
    r"""Balls of :math:`L(z, s - j, a)` for :math:`j = 0, \dots, \mathrm{count} - 1`.

    Parameters
    ----------
    z : flint.arb
        A ball in :math:`(0, 1)` (otherwise every value is NaN: not enclosed).
    s : Fraction
        The exponent, exact.
    a : flint.arb
        A ball of offsets, read as its intersection with :math:`[0, \infty)`; NaN if
        that is empty.
    count : int
        How many exponents :math:`s, s - 1, \dots` (one :math:`a`, shared work).

    Returns
    -------
    list of flint.arb
        Each ball contains the sum for every :math:`z` and :math:`a` of the balls (NaN
        where the sum diverges, :math:`a = 0` with :math:`s - j < 0`).
    """
    if not (z.is_finite() and a.is_finite() and z > 0 and z < 1):
        return [flint.arb.nan() for _ in range(count)]
    if a.is_exact():
        if a < 0:
            return [flint.arb.nan() for _ in range(count)]
        return _point_family(z, s, a, count)
    if a > 0 and a.rel_accuracy_bits() > flint.ctx.prec // 2:
        # a narrow ball (an exact rational rounded): every step is ball arithmetic
        return _point_family(z, s, a, count)
    hi = a.upper()
    if hi < 0:
        return [flint.arb.nan() for _ in range(count)]
    lo = a.lower()
    if lo < 0:
        lo = flint.arb(0)
    at_lo = _point_family(z, s, lo, count)
    at_hi = _point_family(z, s, hi, count)
    # each sum is monotone in a: its values on [lo, hi] lie between those at the ends
    return [x.union(y) for x, y in zip(at_lo, at_hi, strict=True)]


def _point_family(z: flint.arb, s: Fraction, a: flint.arb, count: int) -> list[flint.arb]:
    r""":func:`lerch_family` at an exact offset :math:`a \ge 0`, or a narrow ball of
    them in :math:`(0, \infty)` (cached)."""
    prec = flint.ctx.prec
    key = (ball_key(z), s, ball_key(a), count, prec)
    found = _FAMILIES.get(key)
    if found is not None:
        return found
    if a.is_zero():
        # L(z, s, 0) = 0^s + z L(z, s, 1): 0 for s > 0, 1/(1 - z) for s = 0, divergent below
        shifted = _point_family(z, s, flint.arb(1), count)
        values = []
        for j, v in enumerate(shifted):
            sigma = s - j
            values.append(z * v if sigma > 0 else 1 / (1 - z) if sigma == 0 else flint.arb.nan())
    else:
        with arb_workprec(prec + GUARD):
            values = evaluate_point(z, s, a, count, prec + GUARD)
    if len(_FAMILIES) >= CACHE_SIZE:
        _FAMILIES.clear()
    _FAMILIES[key] = values
    return values


@lru_cache(maxsize=1024)
def _binomial(s: Fraction, j: int) -> Fraction:
    value = Fraction(1)
    for i in range(j):
        value = value * (s - i) / (i + 1)
    return value


def _constant(x: flint.arb | flint.arb_series | int | flint.fmpq) -> flint.arb:
    """A ball from an argument that must not vary along a power series."""
    if isinstance(x, flint.arb_series):
        coeffs = x.coeffs()
        if any(not c.is_zero() for c in coeffs[1:]):
            raise ValueError("a Lerch sum's ratio z as a power series is not supported")
        return coeffs[0] if coeffs else flint.arb(0)
    return x if isinstance(x, flint.arb) else flint.arb(x)


def lerch_sum_ball(z: flint.arb | flint.arb_series | int | flint.fmpq, s: object,
                   a: flint.arb | flint.arb_series | int | flint.fmpq
                   ) -> flint.arb | flint.arb_series:
    r"""A ball containing :math:`L(z, s, a) = \sum_{k \ge 0} z^k (k + a)^s`.

    Parameters
    ----------
    z : flint.arb or number
        The ratio, a ball in :math:`(0, 1)`.
    s : Fraction, int or flint.fmpq
        The exponent, exact.
    a : flint.arb, flint.arb_series or number
        The offset: a point, an interval (read within :math:`a \ge 0`) or a power series
        in a parameter (then the result is the power series of the composition, each
        coefficient enclosed over the ball of the series' constant term).

    Returns
    -------
    flint.arb or flint.arb_series
        The enclosure (NaN where it is not established: :math:`z \notin (0, 1)`, an
        offset ball below 0, a divergent sum).

    Raises
    ------
    ValueError
        If ``z`` is a power series that is not constant.
    """
    s = exact_exponent(s)
    z = _constant(z)
    if not isinstance(a, flint.arb_series):
        return lerch_family(z, s, _constant(a), 1)[0]
    length = a.prec
    coeffs = list(a.coeffs()) + [flint.arb(0)] * length
    centre = coeffs[0]
    values = lerch_family(z, s, centre, length)
    taylor = [ball(_binomial(s, j)) * values[j] for j in range(length)]
    shift = flint.arb_series([flint.arb(0), *coeffs[1:length]], prec=length)
    result = flint.arb_series([taylor[-1]], prec=length)
    for j in range(length - 2, -1, -1):
        result = result * shift + taylor[j]
    return result


def lerch_by_method(method: str, z: flint.arb, s: object, a: flint.arb, count: int = 1
                    ) -> list[flint.arb] | None:
    r"""The family :math:`L(z, s - j, a)`, :math:`j <` ``count``, at an exact
    :math:`a > 0` by one named representation (``"direct"``, ``"hurwitz"`` or
    ``"euler-maclaurin"``), or None where it does not apply: for tests that hold each
    proven remainder against independent references (at the current precision plus
    :data:`GUARD`, uncached)."""
    s = exact_exponent(s)
    if not (a.is_exact() and a > 0 and z > 0 and z < 1):
        raise ValueError("an exact offset a > 0 and a ratio z in (0, 1) are required")
    prec = flint.ctx.prec + GUARD
    with arb_workprec(prec):
        if method == "direct":
            return direct_sum(z, [s - j for j in range(count)], s, a, prec)
        if method == "hurwitz":
            if ratio_data(z, prec).t_up >= 5 or any(
                    (s - j).denominator == 1 and s - j < 0 for j in range(count)):
                return None  # |log z| < 2 pi, and no pole of Gamma(1 + s - j)
            return hurwitz_series(z, s, count, a, ball_key(a), prec)
        if method == "euler-maclaurin":
            sizes = em_sizes(prec, round(ratio_data(z, prec).log_t, 6),
                              math.floor(float(a.mid())),
                              magnitude([s - j for j in range(count)]))
            return None if sizes is None else euler_maclaurin(z, s, count, a, prec, sizes)
    raise ValueError(f"unknown method {method!r}")


def clear_cache() -> None:
    """Forget the cached point evaluations, zeta values and expansion data."""
    _FAMILIES.clear()
    methods.clear()


__all__ = ["GUARD", "MAX_DIRECT_TERMS", "clear_cache", "exact_exponent", "lerch_by_method",
           "lerch_family", "lerch_sum_ball"]
