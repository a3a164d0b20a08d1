r"""Deciding an inequality over a whole parameter domain, symbolically.

A check that proves a lower bound :math:`V^* \ge B` (``B`` a closed form valid for every
admissible measure) decides a printed statement ":math:`V^* \ge R`" over its domain by
deciding :math:`B - R \ge 0` there. The domain is parametrised by variables that range over
:math:`(0, \infty)` (e.g. :math:`b = 1/(1 + \beta)` for :math:`b \in (0, 1)`, :math:`N =
N_{\min} + t`, an integer :math:`n = 1 + s`): :func:`sign_certificate` writes the difference
as one fraction and proves its sign when numerator and denominator are polynomials in those
variables whose coefficients all have one sign (a polynomial with nonnegative coefficients
is nonnegative on the positive orthant). It is a sufficient test: an expression it cannot
certify is *not proven*, and a check built on it rejects the statement.

:func:`decide_lower` applies it to a relation with the placeholder :data:`~.common.V` for the
bounded quantity: ``Ge``/``Gt`` are decided by the sign of :math:`B - R`; ``Le``/``Lt``
(the complement of a lower bound) can never follow from a lower bound and are rejected.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import sympy as sp

from dpsym.claims.common import V


def sign_certificate(expr: sp.Expr, variables: Sequence[sp.Symbol]) -> str | None:
    r"""The sign of ``expr`` proven on :math:`(0, \infty)^{\mathrm{len(variables)}}`:
    ``"zero"`` (identically 0), ``"positive"``, ``"nonnegative"`` (nonnegative coefficients,
    so :math:`\ge 0`; with a positive coefficient and positive variables, :math:`> 0`),
    ``"negative"``, or ``None`` (not certified: mixed signs, or not a rational function of
    ``variables``)."""
    expr = sp.cancel(sp.together(sp.sympify(expr)))
    if expr == 0:
        return "zero"
    num, den = sp.fraction(expr)
    signs = []
    for part in (num, den):
        try:
            poly = sp.Poly(sp.expand(part), *variables)
        except sp.PolynomialError:
            return None
        coeffs = poly.coeffs()
        if not all(cf.is_number for cf in coeffs):
            return None
        if all(cf >= 0 for cf in coeffs):
            signs.append(1)
        elif all(cf <= 0 for cf in coeffs):
            signs.append(-1)
        else:
            return None
    # a nonzero polynomial with coefficients of one sign is of that sign (strictly) on the
    # open positive orthant
    return "positive" if signs[0] * signs[1] > 0 else "negative"


def decide_lower(rel: sp.Basic, bound: sp.Expr, to_domain: Callable[[sp.Expr], sp.Expr],
                 variables: Sequence[sp.Symbol], closed: Sequence[sp.Symbol] = ()
                 ) -> tuple[bool, str]:
    r"""Decide ``rel`` (a relation of :data:`V`, the quantity known to satisfy
    :math:`V \ge` ``bound``) over the domain parametrised by ``to_domain`` (applied to
    ``bound - rhs``) and ``variables`` (each ranging over :math:`(0, \infty)`; those in
    ``closed`` over :math:`[0, \infty)`: ``\ge`` follows by continuity, a strict ``>``
    is proven with them set to 0 as well).

    Returns (holds, the certified sign of ``bound - rhs``).
    """
    if not isinstance(rel, sp.core.relational.Relational) or rel.lhs != V:
        return False, f"not a relation of the bounded quantity: {rel}"
    diff = to_domain(sp.sympify(bound - rel.rhs))
    sign = sign_certificate(diff, variables)
    if isinstance(rel, sp.GreaterThan):
        return sign in ("zero", "positive"), f"bound - rhs: {sign}"
    if isinstance(rel, sp.StrictGreaterThan):
        edge = sign_certificate(diff.subs({v: 0 for v in closed}),
                                [v for v in variables if v not in closed]) \
            if closed else sign
        return sign == edge == "positive", f"bound - rhs: {sign} (at the closed ends: {edge})"
    return False, f"{type(rel).__name__} does not follow from a lower bound (bound - rhs: {sign})"


__all__ = ["decide_lower", "sign_certificate"]
