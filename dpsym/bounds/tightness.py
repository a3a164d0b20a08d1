r"""Tightness of the lower and upper bounds (paper 003, Theorems 6 and 7).

The upper bounds are the truncated Laplacian's costs as the engine derives them from its
Definition 3 density (:func:`upper_bound`); the lower bounds are
:class:`~dpsym.bounds.real.LowerBound`'s rigorous closed forms with :math:`n` at its
eventual value in each regime (:meth:`LowerBound.regime_formula`). The three regimes:

* ``eps->0`` at fixed :math:`\delta`: :math:`n = \lceil 1/(2\delta)\rceil` for small
  :math:`\varepsilon`; the limit is computed with :math:`n` a symbol, then
  :math:`n = \lceil 1/(2\delta)\rceil`.
* ``delta->0`` at fixed :math:`\varepsilon`: :math:`n = \nu + \theta \to \infty`; the
  limit does not depend on the rounding gap :math:`\theta \in [0, 1)`.
* ``eps=delta->0``: :math:`\delta = c\varepsilon`; the limits of
  :math:`\varepsilon^p V^{\mathrm{low}}_p` and :math:`\varepsilon^p V^{\mathrm{upp}}_p`
  are taken separately (both finite and nonzero), for every :math:`c > 0` and every
  :math:`\theta`; the paper's regime is :math:`c = 1`.
"""

from __future__ import annotations

from functools import cache

import sympy as sp

from dpsym.bounds.real import LowerBound, n, tail_bound
from dpsym.core.costs import parse_cost
from dpsym.errors import DomainError, UnsupportedError
from dpsym.mechanisms.truncated_laplace import TruncatedLaplace
from dpsym.symbolic.regimes import expand_series, get_regime
from dpsym.symbols import b, c, delta, eps, in_eps

REGIMES = ("eps->0", "delta->0", "eps=delta->0")


def _power(cost: object) -> int:
    p = parse_cost(cost).exponent
    if p not in (1, 2):
        raise DomainError("cost", "tightness is derived for amplitude and power")
    return int(p)


@cache
def upper_bound(cost: object = "amplitude") -> sp.Expr:
    r"""The truncated Laplacian's cost :math:`V_p^{\mathrm{upp}}` (the engine's closed form
    of :class:`~dpsym.mechanisms.truncated_laplace.TruncatedLaplace`, in
    :math:`\varepsilon`)."""
    return in_eps(TruncatedLaplace.formula("cost", ("amplitude", "power")[_power(cost) - 1]))


@cache
def lower_bound(cost: object = "amplitude", regime: str = "eps->0") -> sp.Expr:
    r""":math:`V_p^{\mathrm{low}}` in the form valid throughout ``regime`` (in
    :math:`\varepsilon`; with :math:`n` a symbol for ``eps->0``)."""
    p = _power(cost)
    if regime == "eps->0":
        return tail_bound(p).subs(b, sp.exp(-eps))
    if regime not in REGIMES:
        raise DomainError("regime", f"tightness regimes: {', '.join(REGIMES)}")
    return LowerBound.regime_formula(parse_cost(p), regime).subs(b, sp.exp(-eps))


def _simplify_logs(expr: sp.Expr) -> sp.Expr:
    """``expr`` with every logarithm split into logarithms of irreducible factors, then
    simplified (so that equal limits written with different log arguments cancel)."""
    split = sp.expand_log(sp.expand(expr), force=True)
    split = sp.expand_log(split.replace(sp.log, lambda a: sp.log(sp.factor(a))), force=True)
    return sp.simplify(sp.factor(split))


def _limit_at_zero(expr: sp.Expr, var: sp.Symbol) -> sp.Expr:
    r"""The finite limit of ``expr`` as ``var`` :math:`\to 0^+`: the constant term of its
    asymptotic expansion (:func:`~dpsym.symbolic.regimes.expand_series`), which must have
    no term of negative order and no :math:`\log` of ``var`` left."""
    head = expand_series(expr, var, 1).removeO()
    if head.has(var):
        raise UnsupportedError(f"no finite limit as {var} -> 0: the expansion starts {head}")
    return head


@cache
def ratio_limit(cost: object = "amplitude", regime: str = "eps->0") -> sp.Expr:
    r"""The exact limit of :math:`V_p^{\mathrm{low}}/V_p^{\mathrm{upp}}` in ``regime``.

    ``eps->0``: a function of :math:`\delta` and :math:`n = \lceil 1/(2\delta)\rceil`
    (the symbol :data:`~dpsym.bounds.real.n`); ``delta->0``: a function of
    :math:`\varepsilon`; ``eps=delta->0``: a function of :math:`c = \delta/\varepsilon`.
    Each limit is the constant term of the engine's exact expansion of the bound
    (:func:`~dpsym.symbolic.regimes.expand_series`) in the variable that tends to 0.
    """
    p = _power(cost)
    low, up = lower_bound(p, regime), upper_bound(p)
    if regime == "eps->0":
        return sp.factor(_limit_at_zero(low, eps) / _limit_at_zero(up, eps))
    if regime == "delta->0":
        return sp.simplify(_limit_at_zero(low, delta) / _limit_at_zero(up, delta))
    scaled_low = _limit_at_zero((eps**p * low).subs(delta, c * eps), eps)
    scaled_up = _limit_at_zero((eps**p * up).subs(delta, c * eps), eps)
    return _simplify_logs(scaled_low / scaled_up)


def ratio_series(cost: object = "amplitude", regime: str = "delta->0", order: int = 3
                 ) -> sp.Expr:
    r"""The series of the limit ratio in its remaining variable: in :math:`\varepsilon`
    for ``delta->0`` (Theorem 6/7's :math:`1 - \varepsilon/2 + O(\varepsilon^2)`), in
    :math:`\delta` for ``eps->0`` along :math:`1/(2\delta) = n` integer."""
    lim = ratio_limit(cost, regime)
    if regime == "delta->0":
        return get_regime("eps->0").expand(lim, order)
    if regime == "eps->0":
        return sp.series(lim.subs(n, 1 / (2 * delta)), delta, 0, order)
    raise DomainError("regime", "the eps=delta->0 limit is a constant")


#: The paper's statements, as claims to check (Theorem 6: amplitude, Theorem 7: power).
PAPER_CLAIMS = {
    (1, "eps->0"): (">=", 1 - 2 * delta),
    (1, "delta->0"): (">=", eps / (sp.exp(eps) - 1)),
    (1, "eps=delta->0"): ("=", sp.Integer(1)),
    (2, "eps->0"): (">=", (1 - delta) * (1 - 2 * delta)),
    (2, "delta->0"): (">=", eps**2 * (1 + sp.exp(eps)) / (2 * (sp.exp(eps) - 1) ** 2)),
    (2, "eps=delta->0"): ("=", sp.Integer(1)),
}


__all__ = ["PAPER_CLAIMS", "REGIMES", "lower_bound", "ratio_limit", "ratio_series",
           "upper_bound"]
