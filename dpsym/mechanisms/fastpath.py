r"""Cancellation-free float64 formulas for the costs compared in the paper's Section 6.

Everything is vectorised over numpy arrays (broadcasting) and accurate to a few units in
the last place on :math:`\varepsilon \in [10^{-12}, 700]`,
:math:`\delta \in [10^{-300}, 1/2)` (tested against mpmath at 50 digits).

**Truncated Laplacian** (paper 003, Definition 3). With :math:`\lambda = \Delta/\varepsilon`
and :math:`c = (e^\varepsilon - 1)/(2\delta)`, the truncation point is
:math:`A = \lambda L`, :math:`L = \log(1 + c)`, so :math:`e^{A/\lambda} - 1 = c`, and
integrating the density :math:`B e^{-|x|/\lambda}` on :math:`[-A, A]`
(:math:`B = 1/(2\lambda(1 - e^{-L}))`) gives

.. math::

   \mathbb{E}|X| = \lambda - \frac{A}{e^{A/\lambda} - 1}
   = \frac{\Delta}{\varepsilon}\,\frac{e^L - 1 - L}{e^L - 1},
   \qquad
   \mathbb{E}X^2 = 2\lambda^2 - \frac{A^2 + 2\lambda A}{e^{A/\lambda} - 1}
   = \frac{2\Delta^2}{\varepsilon^2}\,\frac{e^L - 1 - L - L^2/2}{e^L - 1}.

(``tests/mechanisms/test_fastpath.py`` re-derives both by integrating the density with sympy.) The
numerators are the exponential series with its first two or three terms removed,
:math:`\sum_{k \ge 2} L^k/k!` and :math:`\sum_{k \ge 3} L^k/k!`: for :math:`L < 2` they are
summed as such (all terms positive, no cancellation), which handles
:math:`\varepsilon \to 0` and small :math:`c`; for :math:`L \ge 2` the direct forms
:math:`1 - L/c` and :math:`1 - (L + L^2/2)/c` lose at most one digit. :math:`c` is computed as
``expm1(eps) / (2 delta)`` and, where that overflows (:math:`\varepsilon \gtrsim 20`), only
through :math:`\log c = \log(e^\varepsilon - 1) - \log 2\delta`, with
:math:`\log(e^\varepsilon - 1) = \varepsilon + \log(1 - e^{-\varepsilon})`.

**Laplace**: :math:`\mathbb{E}|X| = \Delta/\varepsilon`,
:math:`\mathbb{E}X^2 = 2\Delta^2/\varepsilon^2`.

**Analytic Gaussian**: :math:`\mathbb{E}|X| = \sigma^*\sqrt{2/\pi}`,
:math:`\mathbb{E}X^2 = \sigma^{*2}` with :math:`\sigma^*` from
:func:`dpsym.gaussian.float64.calibrate_sigma`.

**Section-6 ratios** truncated Laplacian / analytic Gaussian: both costs scale as
:math:`\Delta` (amplitude) and :math:`\Delta^2` (power), so the ratios depend on
:math:`(\varepsilon, \delta)` only.
"""

from __future__ import annotations

import math
from typing import cast

import numpy as np
import numpy.typing as npt

from dpsym.gaussian.float64 import (
    as_float_array as as_float_array,
)
from dpsym.gaussian.float64 import (
    calibrate_sigma,
)
from dpsym.gaussian.float64 import (
    log_expm1 as log_expm1,
)

__all__ = [
    "amplitude_ratio",
    "gaussian_amplitude",
    "gaussian_power",
    "laplace_amplitude",
    "laplace_power",
    "power_ratio",
    "truncated_laplace_amplitude",
    "truncated_laplace_factors",
    "truncated_laplace_power",
]

_SERIES_TERMS = 32
_L_SWITCH = 2.0


def _out(arr: np.ndarray) -> np.ndarray | float:
    return float(arr) if arr.ndim == 0 else arr


def _eps(eps: npt.ArrayLike) -> np.ndarray:
    return as_float_array(eps, "eps", "(0, 1e300]", 0.0, 1e300, False)


def _delta_tl(delta: npt.ArrayLike) -> np.ndarray:
    return as_float_array(delta, "delta", "(0, 1/2)", 0.0, 0.5, True)


def _sens(Delta: npt.ArrayLike) -> np.ndarray:
    return as_float_array(Delta, "Delta", "(0, inf)", 0.0, math.inf, True)


def _exp_tail(L: np.ndarray, start: int) -> np.ndarray:
    r""":math:`\sum_{k \ge \mathrm{start}} L^k/k!` by Horner's rule (for :math:`0 \le L < 2`)."""
    acc = np.zeros_like(L)
    for k in range(start + _SERIES_TERMS, start, -1):
        acc = (acc + 1.0) * L / k
    # acc = sum_{j >= 1} L^j start!/(start + j)!
    return (1.0 + acc) * L**start / math.factorial(start)


def truncated_laplace_factors(eps: npt.ArrayLike, delta: npt.ArrayLike
                              ) -> tuple[np.ndarray, np.ndarray]:
    r"""The dimensionless factors :math:`h_1 = (e^L - 1 - L)/(e^L - 1)` and
    :math:`h_2 = (e^L - 1 - L - L^2/2)/(e^L - 1)`, :math:`L = \log(1 + c)`,
    :math:`c = (e^\varepsilon - 1)/(2\delta)`: the truncated Laplacian's amplitude and power
    relative to the Laplace mechanism's :math:`\Delta/\varepsilon` and
    :math:`2\Delta^2/\varepsilon^2`."""
    h1, h2 = _factors(eps, delta, (1, 2))
    return h1, h2


def _factors(eps: npt.ArrayLike, delta: npt.ArrayLike, which: tuple[int, ...]
             ) -> tuple[np.ndarray, ...]:
    """:math:`h_p` for each ``p`` of ``which``; the overflow (huge :math:`c`) and the
    series (small :math:`L`) branches are computed on their points only."""
    e, d = np.broadcast_arrays(_eps(eps), _delta_tl(delta))
    shape = e.shape
    e, d = (np.atleast_1d(np.array(a, dtype=float)).ravel() for a in (e, d))
    with np.errstate(over="ignore", divide="ignore", invalid="ignore"):
        c = np.expm1(np.minimum(e, 710.0)) / (2.0 * d)
        L = np.log1p(c)
        inv_c = 1.0 / c
        huge = ~np.isfinite(c)
        if huge.any():  # L = log(1 + c) = log c + log1p(1/c), c from log space
            log_c = log_expm1(e[huge]) - np.log(2.0 * d[huge])
            L[huge] = log_c + np.log1p(np.exp(-log_c))
            inv_c[huge] = np.exp(-log_c)
        small = L < _L_SWITCH
        out = []
        for power in which:
            # h_p = 1 - (L + ... + L^{p-1}/(p-1)!... ) / c, written for p = 1, 2
            poly = L if power == 1 else L + 0.5 * L * L
            h = 1.0 - poly * inv_c
            if small.any():
                h[small] = _exp_tail(L[small], power + 1) / c[small]
            out.append(h.reshape(shape))
    return tuple(out)


def truncated_laplace_amplitude(eps: npt.ArrayLike, delta: npt.ArrayLike,
                                Delta: npt.ArrayLike = 1.0) -> np.ndarray | float:
    r"""Truncated Laplacian :math:`\mathbb{E}|X| = (\Delta/\varepsilon)\,h_1`
    (paper 003, Theorem 2), float64, vectorised; :math:`0 < \delta < 1/2`."""
    (h1,) = _factors(eps, delta, (1,))
    return _out(_sens(Delta) / _eps(eps) * h1)


def truncated_laplace_power(eps: npt.ArrayLike, delta: npt.ArrayLike,
                            Delta: npt.ArrayLike = 1.0) -> np.ndarray | float:
    r"""Truncated Laplacian :math:`\mathbb{E}X^2 = (2\Delta^2/\varepsilon^2)\,h_2`
    (paper 003, Theorem 3), float64, vectorised; :math:`0 < \delta < 1/2`."""
    (h2,) = _factors(eps, delta, (2,))
    return _out(2.0 * (_sens(Delta) / _eps(eps)) ** 2 * h2)


#: The largest :math:`\varepsilon` accepted by the float64 paths (as ``_eps``).
_EPS_MAX = 1e300
_SQRT2 = math.sqrt(2.0)


def _common(Delta: object, eps: object) -> str | None:
    r"""``"array"`` or ``"float"`` for the common calls (a positive finite float
    :math:`\Delta` with a non-empty float64 array, or a float :math:`\varepsilon` in
    :math:`(0, 10^{300}]`), checked inline; None for any other call."""
    if not (type(Delta) is float and 0.0 < Delta < math.inf):
        return None
    if type(eps) is np.ndarray and eps.ndim and eps.dtype == np.float64 and eps.size:
        return "array"
    return "float" if type(eps) is float and 0.0 < eps <= _EPS_MAX else None


def _checked_quotient(c: float, eps: np.ndarray) -> np.ndarray | None:
    r""":math:`q = c/\varepsilon` when one reduction shows every :math:`\varepsilon` in
    :math:`(0, 10^{300}]` (see :func:`laplace_amplitude`); None otherwise, and the caller
    validates element by element."""
    try:
        with np.errstate(divide="raise", over="ignore", under="ignore"):
            q = np.divide(c, eps)
    except FloatingPointError:  # an eps = 0: the general path names it
        return None
    return q if np.minimum.reduce(q, axis=None) > c / _EPS_MAX else None


def laplace_amplitude(eps: npt.ArrayLike, Delta: npt.ArrayLike = 1.0) -> np.ndarray | float:
    r"""Laplace mechanism :math:`\mathbb{E}|X| = \Delta/\varepsilon`, float64, vectorised.

    Parameters
    ----------
    eps : array_like
        :math:`0 < \varepsilon \le 10^{300}`.
    Delta : array_like
        :math:`\Delta > 0` (finite).

    Returns
    -------
    ndarray or float
        :math:`\Delta/\varepsilon`, broadcast shape of the inputs (a float for scalars).

    Raises
    ------
    DomainError
        For an :math:`\varepsilon` or :math:`\Delta` that is NaN, infinite or out of range.

    Notes
    -----
    For a float64 array and a scalar :math:`\Delta` the domain is checked on the quotient
    :math:`q = \Delta/\varepsilon` with one reduction: :math:`\min q > t`,
    :math:`t = \mathrm{fl}(\Delta/10^{300})`, holds exactly when no :math:`\varepsilon`
    is NaN (NaN propagates through the minimum), negative (then :math:`q \le 0`),
    :math:`+\infty` or above :math:`10^{300}` (then :math:`q \le t`, rounding being
    monotone); :math:`\varepsilon = \pm 0` raises the division-by-zero flag. When the
    check fails, the general path validates element by element (an
    :math:`\varepsilon` just below :math:`10^{300}` with :math:`q = t` is accepted there).
    """
    kind = _common(Delta, eps)  # the types, checked: cast below
    if kind == "float":
        return cast(float, Delta) / cast(float, eps)
    q = _checked_quotient(cast(float, Delta), cast(np.ndarray, eps)) if kind == "array" \
        else None
    if q is not None:
        return q
    sens, e = _sens(Delta), _eps(eps)
    with np.errstate(over="ignore"):  # inf is the rounded value there
        return _out(np.asarray(sens / e))


def laplace_power(eps: npt.ArrayLike, Delta: npt.ArrayLike = 1.0) -> np.ndarray | float:
    r"""Laplace mechanism :math:`\mathbb{E}X^2 = 2\Delta^2/\varepsilon^2`, float64,
    vectorised.

    Parameters
    ----------
    eps : array_like
        :math:`0 < \varepsilon \le 10^{300}`.
    Delta : array_like
        :math:`\Delta > 0` (finite).

    Returns
    -------
    ndarray or float
        :math:`2\Delta^2/\varepsilon^2`, broadcast shape of the inputs (a float for
        scalars).

    Raises
    ------
    DomainError
        For an :math:`\varepsilon` or :math:`\Delta` that is NaN, infinite or out of range.

    Notes
    -----
    For a float64 array and a float :math:`\Delta`, :math:`q = \sqrt2\Delta/\varepsilon` is
    computed and checked with one reduction as in :func:`laplace_amplitude`, then squared in
    place: four roundings, relative error below :math:`3 \cdot 2^{-52}`. :math:`q`
    overflows (underflows) only where :math:`q^2` does, so no intermediate is out of
    range where the result is not.
    """
    kind = _common(Delta, eps)  # the types, checked: cast below
    if kind == "float":
        r = cast(float, Delta) / cast(float, eps)
        return 2.0 * r * r  # Python's ** would raise OverflowError
    q = _checked_quotient(_SQRT2 * cast(float, Delta), cast(np.ndarray, eps)) \
        if kind == "array" else None
    if q is not None:  # sqrt(2) Delta / eps, squared in place
        with np.errstate(over="ignore", under="ignore"):
            return np.multiply(q, q, out=q)
    sens, e = _sens(Delta), _eps(eps)
    with np.errstate(over="ignore", under="ignore"):  # inf and 0 are the rounded values
        return _out(np.asarray(2.0 * (sens / e) ** 2))


def gaussian_amplitude(eps: npt.ArrayLike, delta: npt.ArrayLike,
                       Delta: npt.ArrayLike = 1.0) -> np.ndarray | float:
    r"""Analytic Gaussian :math:`\mathbb{E}|X| = \sigma^*\sqrt{2/\pi}`."""
    return _out(np.asarray(calibrate_sigma(eps, delta, Delta)) * math.sqrt(2.0 / math.pi))


def gaussian_power(eps: npt.ArrayLike, delta: npt.ArrayLike,
                   Delta: npt.ArrayLike = 1.0) -> np.ndarray | float:
    r"""Analytic Gaussian :math:`\mathbb{E}X^2 = \sigma^{*2}`."""
    return _out(np.asarray(calibrate_sigma(eps, delta, Delta)) ** 2)


def _ratios(eps: npt.ArrayLike, delta: npt.ArrayLike) -> tuple[np.ndarray, np.ndarray]:
    e = _eps(eps)
    d = _delta_tl(delta)
    h1, h2 = truncated_laplace_factors(e, d)
    e, d = np.broadcast_arrays(e, d)
    # sigma* = Delta / mu*, so E|X|_TL / E|X|_G = h1 mu* / (eps sqrt(2/pi))
    mu = 1.0 / np.asarray(calibrate_sigma(e, d, 1.0))
    amp = h1 * mu / (e * math.sqrt(2.0 / math.pi))
    power = 2.0 * h2 * (mu / e) ** 2
    return amp, power


def amplitude_ratio(eps: npt.ArrayLike, delta: npt.ArrayLike) -> np.ndarray | float:
    r"""Section 6, Figure 2: truncated-Laplacian over analytic-Gaussian noise amplitude
    (independent of :math:`\Delta`); :math:`0 < \delta < 1/2`."""
    return _out(_ratios(eps, delta)[0])


def power_ratio(eps: npt.ArrayLike, delta: npt.ArrayLike) -> np.ndarray | float:
    r"""Section 6, Figure 3: truncated-Laplacian over analytic-Gaussian noise power
    (independent of :math:`\Delta`); :math:`0 < \delta < 1/2`."""
    return _out(_ratios(eps, delta)[1])
