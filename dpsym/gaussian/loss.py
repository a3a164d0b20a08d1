r"""The Gaussian mechanism's privacy loss under composition.

The loss of Gaussian noise (standard deviation :math:`\sigma`, shift :math:`\Delta`) is
:math:`N(\mu, 2\mu)`, :math:`\mu = \Delta^2/(2\sigma^2)`, and a composition of Gaussians
is one Gaussian with the :math:`\mu` summed: its profile is a closed form
(:func:`gaussian_delta`), inverted by bisection in balls (:func:`gaussian_inverse`), and
put on a grid for a composition with other losses (:func:`gaussian_bins`).
"""

from __future__ import annotations

import math

import flint
import sympy as sp

from dpsym.certified.constants import arb_of
from dpsym.certified.kernel import certify_directed, nonneg
from dpsym.errors import UnsupportedError
from dpsym.gaussian.enclosures import delta_ball, normal_cdf

#: Largest number of grid points of a composed loss law.
MAX_DEGREE = 2_000_000


def gaussian_delta(mu: flint.arb, e: flint.arb) -> flint.arb:
    r""":math:`\Phi(\mu/s - \varepsilon^{\prime}/s) - e^{\varepsilon^{\prime}}\Phi(-\mu/s -
    \varepsilon^{\prime}/s)`,
    :math:`s = \sqrt{2\mu}`: the profile of the loss :math:`N(\mu, 2\mu)`, the Gaussian
    profile :data:`dpsym.gaussian.enclosures.PROFILE` at :math:`\Delta/\sigma = m = s`,
    with :math:`x = \varepsilon^{\prime}/m - m/2`:
    :math:`\Phi(-x) - \varphi(x) R(x + m)` (:func:`dpsym.gaussian.enclosures.delta_ball`, the
    Mills ratio :math:`R`: no :math:`e^{\varepsilon^{\prime}}` that overflows against a
    :math:`\Phi` that underflows, at :math:`\varepsilon^{\prime} = 10^{100}`)."""
    m = (2 * mu).sqrt()
    x = e / m - m / 2
    return delta_ball(x, x + m, m)


def gaussian_bins(mu_exact: sp.Expr, h: sp.Expr, up: bool
                   ) -> tuple[dict[int, flint.arb], flint.arb]:
    r"""The loss :math:`N(\mu, 2\mu)` on :math:`h\mathbb{Z}` (its :math:`Q`-law is
    :math:`N(-\mu, 2\mu)`), truncated at 14 standard deviations: ``up``, each bin
    :math:`[jh, (j+1)h]` split between its ends with the same :math:`P`- and
    :math:`Q`-masses ("connect the dots", a dominating pair), the mass below the range at
    its first point and the mass above at :math:`+\infty`; down, each bin at its lower end
    and the mass above the range at its last point (the mass below is dropped: a lower
    bound)."""
    mu = arb_of(mu_exact)
    s = (2 * mu).sqrt()
    hf = float(h)
    muf, sf = float(mu.mid()), float(s.mid())
    j_lo = math.floor((muf - 14 * sf) / hf)
    j_hi = math.ceil((muf + 14 * sf) / hf)
    if j_hi - j_lo > MAX_DEGREE:
        raise UnsupportedError("too many grid points for the Gaussian loss; use a larger "
                               "--interval")
    hb = arb_of(h)
    points = [j * hb for j in range(j_lo, j_hi + 1)]
    cdf = [normal_cdf((t - mu) / s) for t in points]
    masses: dict[int, flint.arb] = {}
    if up:
        cdf_q = [normal_cdf((t + mu) / s) for t in points]
        z = (-hb).exp()
        for i in range(len(cdf) - 1):
            j = j_lo + i
            p = nonneg(cdf[i + 1] - cdf[i])
            scaled = nonneg(cdf_q[i + 1] - cdf_q[i]) * points[i].exp()
            top = nonneg((p - scaled) / (1 - z))
            masses[j + 1] = masses.get(j + 1, flint.arb(0)) + top
            masses[j] = masses.get(j, flint.arb(0)) + nonneg(p - top)
        masses[j_lo] = masses.get(j_lo, flint.arb(0)) + cdf[0]
        return masses, normal_cdf((mu - points[-1]) / s)
    for i in range(len(cdf) - 1):
        masses[j_lo + i] = nonneg(cdf[i + 1] - cdf[i])  # the loss in [jh, (j + 1)h)
    masses[j_hi] = masses.get(j_hi, flint.arb(0)) + normal_cdf((mu - points[-1]) / s)
    return masses, flint.arb(0)


def gaussian_inverse(mu: sp.Expr, target: sp.Expr, digits: int) -> str:
    """The smallest eps' of the Gaussian profile at ``target``, rounded up."""
    if target == 0:
        return "inf"

    def enclose(prec: int) -> flint.arb:
        m, t = arb_of(mu), arb_of(target)
        if not gaussian_delta(m, flint.arb(0)) > t:
            return flint.arb(0)
        lo, hi = flint.arb(0), flint.arb(1)
        while gaussian_delta(m, hi) > t:
            hi *= 2
        for _ in range(prec + 8):  # bisection to the working precision
            mid = (lo + hi) / 2
            mid = flint.arb(mid.mid())
            if gaussian_delta(m, mid) > t:
                lo = mid
            else:
                hi = mid
        return flint.arb(lo).union(flint.arb(hi))

    return certify_directed(enclose, digits, up=True)[1]


__all__ = ["MAX_DEGREE", "gaussian_bins", "gaussian_delta", "gaussian_inverse"]
