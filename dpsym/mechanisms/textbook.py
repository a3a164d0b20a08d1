r"""The lecture notes' mechanisms (notes 001 and 004), computed exactly.

Small finite objects whose privacy can be computed *exactly* rather than argued:

* :func:`exponential_mechanism` -- the law :math:`\Pr[M_\varepsilon(x) = r] \propto
  \exp(\varepsilon u(x, r)/\Delta u)` on a finite range, as exact sympy numbers, and
  :func:`exponential_privacy_loss`, the exact
  :math:`\max_r \log \Pr[M(x) = r]/\Pr[M(x^{\prime}) = r]` over a neighbouring pair;
* :func:`report_noisy_max` -- the law of :math:`\arg\max_i (c_i + Y_i)`,
  :math:`Y_i \sim \mathrm{Lap}(1/\varepsilon)` i.i.d., by integrating the Laplace
  densities with mpmath, :math:`\Pr[\arg\max = i] = \int f_i(x)\prod_{j \ne i} F_j(x)\,dx`,
  and :func:`noisy_max_privacy_loss` over a set of neighbouring count vectors;
* :func:`name_and_shame` -- the per-entry output law of the name-and-shame mechanism;
* :func:`hockey_stick`, :func:`sup_over_sets`, :func:`compose`, :func:`group_chain` --
  exact hockey-stick divergences :math:`H_\varepsilon(P\|Q) = \sum_y (P(y) -
  e^\varepsilon Q(y))_+` of finite laws, the brute-force supremum over events, product
  (composition) laws;
* :func:`randomized_response` -- the binary randomized response pair.

Finite laws are dictionaries ``{outcome: probability}`` with exact (``Fraction`` or sympy)
or mpmath probabilities. Nothing here assigns ``mp.dps``; the functions that evaluate
numerically (mpmath, or sympy's numeric comparisons) hold the precision lock of
:mod:`dpsym.precision` while they compute.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Hashable, Mapping, Sequence
from fractions import Fraction
from typing import Any

import mpmath
import sympy as sp

from dpsym.precision import exclusive, workdps

#: A finite law: outcome (any hashable value) -> probability (an int, a fraction or an
#: exact sympy number).
Law = Mapping[Any, int | Fraction | sp.Expr]


@exclusive
def exponential_mechanism(utilities: Sequence[object], eps: object,
                          sensitivity: object = 1) -> list[sp.Expr]:
    r"""The exact output law of the notes' exponential mechanism on a finite range.

    .. math:: \Pr[M_\varepsilon(x) = r] = \frac{\exp(\varepsilon u(x, r)/\Delta u)}
              {\sum_{s \in R} \exp(\varepsilon u(x, s)/\Delta u)}

    Parameters
    ----------
    utilities : sequence
        :math:`u(x, r)` for each :math:`r \in R` (exact numbers).
    eps : number
        :math:`\varepsilon > 0` (read exactly).
    sensitivity : number
        :math:`\Delta u > 0`.

    Returns
    -------
    list of sympy.Expr
        The probabilities, in the order of ``utilities``; they sum to 1 exactly.
    """
    e, s = sp.nsimplify(eps), sp.nsimplify(sensitivity)
    weights = [sp.exp(e * sp.nsimplify(u) / s) for u in utilities]
    total = sp.Add(*weights)
    return [w / total for w in weights]


@exclusive
def exponential_privacy_loss(u: Sequence[object], u_prime: Sequence[object], eps: object,
                             sensitivity: object = 1) -> sp.Expr:
    r"""The exact privacy loss :math:`\max_r |\log \Pr[M(x) = r]/\Pr[M(x^{\prime}) = r]|`.

    Parameters
    ----------
    u, u_prime : sequence
        Utilities at the neighbouring datasets :math:`x, x^{\prime}`
        (:math:`|u(x, r) - u(x^{\prime}, r)| \le \Delta u` for every :math:`r`).
    eps, sensitivity : number
        :math:`\varepsilon` and :math:`\Delta u`.

    Returns
    -------
    sympy.Expr
        The exact loss, a combination of :math:`\varepsilon` and logarithms.
    """
    p = exponential_mechanism(u, eps, sensitivity)
    q = exponential_mechanism(u_prime, eps, sensitivity)
    losses = [sp.simplify(sp.expand_log(sp.log(a / c), force=True))
              for a, c in zip(p, q, strict=True)]
    return sp.Max(*[sp.Abs(v) for v in losses])


@exclusive
def laplace_cdf(x: mpmath.mpf, centre: mpmath.mpf, scale: mpmath.mpf) -> mpmath.mpf:
    r"""CDF of :math:`\mathrm{Lap}(\text{scale})` centred at ``centre``."""
    z = (x - centre) / scale
    return mpmath.exp(z) / 2 if z < 0 else 1 - mpmath.exp(-z) / 2


@exclusive
def laplace_pdf(x: mpmath.mpf, centre: mpmath.mpf, scale: mpmath.mpf) -> mpmath.mpf:
    r"""Density :math:`e^{-|x - c|/s}/(2s)` of :math:`\mathrm{Lap}(s)` centred at :math:`c`."""
    return mpmath.exp(-abs(x - centre) / scale) / (2 * scale)


@exclusive
def report_noisy_max(counts: Sequence[object], eps: object, digits: int = 20
                     ) -> list[mpmath.mpf]:
    r"""The law of report noisy max with :math:`\mathrm{Lap}(1/\varepsilon)` noise.

    .. math:: \Pr[\arg\max_j (c_j + Y_j) = i] = \int_{\mathbb R} f_i(x)
              \prod_{j \ne i} F_j(x)\,dx

    integrated with mpmath on the pieces between the sorted counts (where the integrand is
    smooth), at ``digits`` significant digits.

    Parameters
    ----------
    counts : sequence
        The true counts :math:`c_1, \dots, c_k`.
    eps : number
        :math:`\varepsilon > 0`.
    digits : int
        Working precision.

    Returns
    -------
    list of mpmath.mpf
        :math:`\Pr[\text{output} = i]` for each :math:`i`.
    """
    with workdps(digits + 10):
        e = mpmath.mpf(sp.Rational(sp.nsimplify(eps)).p) / sp.Rational(sp.nsimplify(eps)).q
        scale = 1 / e
        cs = [mpmath.mpf(sp.Rational(sp.nsimplify(c)).p) / sp.Rational(sp.nsimplify(c)).q
              for c in counts]
        knots = [mpmath.ninf, *sorted(set(cs)), mpmath.inf]
        out = []
        for i, ci in enumerate(cs):
            def integrand(x, i=i, ci=ci):
                prod = laplace_pdf(x, ci, scale)
                for j, cj in enumerate(cs):
                    if j != i:
                        prod *= laplace_cdf(x, cj, scale)
                return prod
            out.append(mpmath.quad(integrand, knots))
        return [+v for v in out]


@exclusive
def noisy_max_privacy_loss(k: int, eps: object, base_counts: Sequence[Sequence[int]],
                           neighbour: str = "add/remove", digits: int = 20) -> mpmath.mpf:
    r"""The largest :math:`|\log \Pr[M(c) = i]/\Pr[M(c^{\prime}) = i]|` of report noisy max.

    Neighbours of a count vector :math:`c`: ``"add/remove"`` -- :math:`c^{\prime} = c + s` with
    :math:`s \in \{0, 1\}^k` (adding one person raises each count by at most one);
    ``"replace"`` -- :math:`c^{\prime} - c \in \{-1, 0, 1\}^k`.

    Parameters
    ----------
    k : int
        Number of counts.
    eps : number
        :math:`\varepsilon`.
    base_counts : sequence of sequences
        The vectors :math:`c` to try (length ``k`` each).
    neighbour : str
        ``"add/remove"`` or ``"replace"``.
    digits : int
        Working precision.

    Returns
    -------
    mpmath.mpf
        The maximum over the given :math:`c`, their neighbours and the outputs.
    """
    steps = (0, 1) if neighbour == "add/remove" else (-1, 0, 1)
    worst = mpmath.mpf(0)
    with workdps(digits + 10):
        for c in base_counts:
            p = report_noisy_max(c, eps, digits)
            for s in itertools.product(steps, repeat=k):
                if not any(s):
                    continue
                q = report_noisy_max([ci + si for ci, si in zip(c, s, strict=False)], eps, digits)
                for a, bq in zip(p, q, strict=False):
                    worst = max(worst, abs(mpmath.log(a / bq)))
        return +worst


def name_and_shame(delta: object, secret: Hashable) -> dict[Any, sp.Expr]:
    r"""The output law of one entry of the name-and-shame mechanism: the secret with
    probability :math:`\delta`, :math:`\bot` (``None``) with probability :math:`1 - \delta`."""
    d = sp.nsimplify(delta)
    return {secret: d, None: 1 - d}


def exposure_probability(n: int, delta: object) -> sp.Expr:
    r""":math:`\Pr[\text{at least one of } n \text{ entries is released}] = 1 - (1-\delta)^n`,
    computed as the exact complement of the product law of the :math:`n` Bernoulli releases."""
    d = sp.nsimplify(delta)
    none_released = sp.Integer(1)
    for _ in range(n):
        none_released *= (1 - d)
    return sp.expand(1 - none_released)


def randomized_response(eps: object) -> tuple[dict[int, sp.Expr], dict[int, sp.Expr]]:
    r"""Binary randomized response: report the true bit with probability
    :math:`e^\varepsilon/(1 + e^\varepsilon)`. Returns the laws for bits 1 and 0."""
    e = sp.nsimplify(eps)
    keep = sp.exp(e) / (1 + sp.exp(e))
    return {1: keep, 0: 1 - keep}, {1: 1 - keep, 0: keep}


@exclusive
def hockey_stick(p: Law, q: Law, eps: object) -> sp.Expr:
    r"""Exact :math:`H_\varepsilon(P\|Q) = \sum_y (P(y) - e^\varepsilon Q(y))_+`."""
    c = sp.exp(sp.nsimplify(eps))
    total = sp.Integer(0)
    for y in set(p) | set(q):
        diff = sp.nsimplify(p.get(y, 0)) - c * sp.nsimplify(q.get(y, 0))
        if diff.is_positive or (diff.is_positive is None and float(diff) > 0):
            total += diff
    return sp.simplify(total)


@exclusive
def sup_over_sets(p: Law, q: Law, eps: object, digits: int = 30) -> object:
    r""":math:`\max_S [P(S) - e^\varepsilon Q(S)]` by enumerating every event :math:`S`
    (finite outcome sets only; :math:`2^{|Y|}` events). Exact (``Fraction``) when
    :math:`\varepsilon = 0` and the probabilities are rational, otherwise an mpmath number
    at ``digits`` digits."""
    outcomes = sorted(set(p) | set(q), key=repr)
    exact = sp.nsimplify(eps) == 0 and all(
        isinstance(v, (int, Fraction)) for v in (*p.values(), *q.values()))
    with workdps(digits):
        if exact:
            terms: list = [Fraction(p.get(y, 0)) - Fraction(q.get(y, 0)) for y in outcomes]
            best: object = Fraction(0)
        else:
            c = mpmath.exp(mpmath.mpf(sp.N(sp.nsimplify(eps), digits + 5)))
            terms = [mpmath.mpf(sp.N(sp.nsimplify(p.get(y, 0)), digits + 5))
                     - c * mpmath.mpf(sp.N(sp.nsimplify(q.get(y, 0)), digits + 5))
                     for y in outcomes]
            best = mpmath.mpf(0)
        for r in range(1, len(outcomes) + 1):
            for event in itertools.combinations(terms, r):
                val = sum(event)
                if val > best:
                    best = val
        return best


def compose(*laws: Law) -> dict[tuple, object]:
    r"""The product law of independent mechanisms (non-adaptive composition)."""
    out: dict[tuple, object] = {}
    for combo in itertools.product(*[list(law.items()) for law in laws]):
        key = tuple(y for y, _ in combo)
        prob = sp.Integer(1)
        for _, pr in combo:
            prob *= sp.nsimplify(pr)
        out[key] = prob
    return out


def post_process(law: Law, kernel: Callable[[Hashable], Law]) -> dict[Hashable, object]:
    r"""The law of :math:`g(Y)` for a randomised map ``kernel(y) = law of g(y)``."""
    out: dict[Hashable, object] = {}
    for y, pr in law.items():
        for z, qz in kernel(y).items():
            out[z] = out.get(z, 0) + sp.nsimplify(pr) * sp.nsimplify(qz)
    return out


@exclusive
def group_chain(laws: Sequence[Law], eps: object) -> tuple[sp.Expr, list[sp.Expr]]:
    r"""For laws :math:`M_{D_0}, \dots, M_{D_K}` along a chain of neighbours: the exact
    :math:`H_{K\varepsilon}(M_{D_0}\|M_{D_K})` and the neighbouring
    :math:`H_\varepsilon(M_{D_{j}}\|M_{D_{j+1}})`."""
    k = len(laws) - 1
    steps = [hockey_stick(laws[j], laws[j + 1], eps) for j in range(k)]
    return hockey_stick(laws[0], laws[-1], k * sp.nsimplify(eps)), steps


__all__ = ["compose", "exponential_mechanism", "exponential_privacy_loss",
           "exposure_probability", "group_chain", "hockey_stick", "laplace_cdf",
           "laplace_pdf", "name_and_shame", "noisy_max_privacy_loss", "post_process",
           "randomized_response", "report_noisy_max", "sup_over_sets"]
