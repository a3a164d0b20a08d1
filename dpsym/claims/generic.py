r"""Deciding proof steps about *every* utility function, measure or event by an exact
reduction to finitely many symbolic facts.

Three tools, each sound (a statement it cannot certify is *not proven*, and a check built
on it rejects the statement):

* :func:`affine_range` -- the exact range of an expression affine in unbounded real
  variables and in bounded ones (each in :math:`[-1, 1]`), with coefficients whose signs
  are proven for positive parameters. An affine function of a real variable with a nonzero
  coefficient is unbounded; on :math:`[-1, 1]` its extremes are at the ends.
* :func:`log_gap` -- :math:`\log(\mathrm{rhs}/\mathrm{lhs})` for positive products of
  exponentials, expanded: :math:`\exp` is strictly increasing (its derivative
  :math:`\exp(x) > 0`, confirmed by sympy in :func:`exp_increasing`), so
  :math:`\mathrm{lhs} \le \mathrm{rhs}` iff the gap is :math:`\ge 0`.
* :func:`cone_certificate` -- a linear inequality between masses of the cells of a finite
  partition (generic sums of densities) decided by writing the difference as a
  nonnegative combination of quantities known to be nonnegative (masses, termwise
  bounded sums, hypotheses): the lemma "a termwise bound :math:`a_r \le c\,b_r` implies
  :math:`\sum_r a_r \le c \sum_r b_r`" is the case of one generator
  :math:`\sum_r (c\,b_r - a_r)`, a sum of nonnegative terms.
"""

from __future__ import annotations

import functools
from collections.abc import Mapping, Sequence

import sympy as sp

from dpsym.claims.decide import decide_identity, sign_certificate, vanishes
from dpsym.symbolic.tidy import simplified
from dpsym.symbols import eps


def _sign(expr: sp.Expr, positive: Sequence[sp.Symbol]) -> str | None:
    """The proven sign of ``expr`` for positive ``positive`` (``"zero"``, ``"positive"``,
    ``"negative"``) by :func:`~.decide.sign_certificate`, else by sympy's assumptions."""
    expr = simplified(expr)
    # e^a = 1 + t_a with t_a > 0 for a positive parameter a
    shifts = {sp.exp(a): 1 + sp.Symbol(f"t_{a}", positive=True) for a in positive}
    variables = [*positive, *(v - 1 for v in shifts.values())]
    cert = sign_certificate(expr.subs(shifts), variables) if variables else None
    if cert is not None:
        return "positive" if cert == "nonnegative" and expr.is_positive else cert
    if expr.is_zero:
        return "zero"
    if expr.is_positive:
        return "positive"
    if expr.is_negative:
        return "negative"
    return None


def affine_range(expr: sp.Expr, free: Sequence[sp.Basic], box: Sequence[sp.Basic],
                 positive: Sequence[sp.Symbol]) -> tuple[sp.Expr, sp.Expr] | None:
    r"""The exact (minimum, maximum) of ``expr`` over ``free`` in :math:`\mathbb{R}` and
    ``box`` in :math:`[-1, 1]` (each), for every value of the ``positive`` parameters.

    ``expr`` must be affine in ``free`` and ``box`` (total degree :math:`\le 1`); a nonzero
    coefficient of a free variable makes it unbounded (:math:`\mp\infty`); the coefficient
    :math:`\gamma` of a box variable contributes :math:`\mp|\gamma|`, its sign proven.
    Returns ``None`` if ``expr`` is not affine or a sign is not proven.
    """
    gens = [*free, *box]
    try:
        poly = sp.Poly(sp.expand(expr), *gens)
    except sp.PolynomialError:
        return None
    if poly.total_degree() > 1:
        return None
    base = poly.coeff_monomial(1)
    lo, hi = sp.sympify(base), sp.sympify(base)
    for k, g in enumerate(gens):
        mono = tuple(1 if j == k else 0 for j in range(len(gens)))
        gamma = poly.coeff_monomial(mono)
        if gamma == 0:
            continue
        sign = _sign(gamma, positive)
        if sign is None:
            return None
        if sign == "zero":
            continue
        if g in free:
            return -sp.oo, sp.oo
        mag = gamma if sign == "positive" else -gamma
        lo, hi = lo - mag, hi + mag
    return simplified(lo), simplified(hi)


def exp_increasing() -> bool:
    r""":math:`\frac{d}{dx}\exp(x) = \exp(x) > 0` for real :math:`x` (sympy): so
    :math:`\exp(a) \le \exp(b) \iff a \le b`."""
    xx = sp.Symbol("x", real=True)
    return bool(sp.diff(sp.exp(xx), xx).is_positive)


def log_gap(lhs: sp.Expr, rhs: sp.Expr) -> sp.Expr:
    r""":math:`\log \mathrm{rhs} - \log \mathrm{lhs}` for positive products of powers and
    exponentials of real expressions, expanded (``lhs <= rhs`` iff it is :math:`\ge 0`)."""
    return sp.expand(sp.expand_log(sp.log(sp.sympify(rhs)), force=True)
                     - sp.expand_log(sp.log(sp.sympify(lhs)), force=True))


def cone_certificate(diff: sp.Expr, atoms: Sequence[sp.Basic],
                     generators: Mapping[str, tuple[sp.Expr, sp.Basic]],
                     positive: Sequence[sp.Symbol]) -> tuple[bool, str]:
    r"""Decide ``diff >= 0`` where ``diff`` is linear in ``atoms`` (cell masses, a bound
    such as :math:`\delta`) with coefficients in the ``positive`` parameters, given the
    ``generators``: linear expressions known to be nonnegative, each with the atom it
    absorbs.

    Each atom is itself a nonnegative generator (a mass). The generators are used in
    order: a generator ``(g, a)`` is taken with the multiplier :math:`\lambda` that
    cancels the coefficient of ``diff`` on the atom ``a`` when that multiplier is proven
    positive (else not at all); ``diff`` is proven :math:`\ge 0` when what remains has
    proven nonnegative coefficients (then ``diff`` is a nonnegative combination of
    nonnegative quantities). Returns (proven, the certificate in words). Decided once per
    input (the links of a chain that a mutant leaves alone are not decided again).
    """
    return _cone_certificate(sp.sympify(diff), tuple(atoms), tuple(generators.items()),
                             tuple(positive))


@functools.lru_cache(maxsize=1024)
def _cone_certificate(diff: sp.Expr, atoms: tuple[sp.Basic, ...],
                      generators: tuple[tuple[str, tuple[sp.Expr, sp.Basic]], ...],
                      positive: tuple[sp.Symbol, ...]) -> tuple[bool, str]:
    """:func:`cone_certificate` with its sequences as tuples."""
    rest = sp.expand(diff)
    used = []
    for name, (gen, lead) in generators:
        gen = sp.expand(gen)
        lam = simplified(rest.coeff(lead) / gen.coeff(lead))
        sign = _sign(lam, positive)
        if sign in ("zero", "negative"):
            continue
        if sign is None:
            return False, f"multiplier of {name} has no proven sign: {lam}"
        rest = sp.expand(rest - lam * gen)
        used.append(f"{lam} * [{name}]")
    if sp.expand(rest - sum(rest.coeff(a) * a for a in atoms)) != 0:
        return False, f"not linear in the masses: {rest}"
    for a in atoms:
        cf = simplified(rest.coeff(a))
        if cf != 0 and _sign(cf, positive) not in ("positive", "zero"):
            return False, f"coefficient of {a} not proven >= 0: {cf}"
    left = " + ".join(f"{simplified(rest.coeff(a))} * {a}" for a in atoms
                      if not vanishes(rest.coeff(a)))
    return True, " + ".join(used + ([left] if left else [])) or "0"


# ----------------------------------------------------------------------------- events

# A finite output space split by an event A and the set H = {p > c q}: the four cells
# A&H, A-H, H-A and the rest, with the masses of the two laws on them.
_CELL_NAMES = ("AH", "AnotH", "HnotA", "rest")
CELLS_P = dict(zip(_CELL_NAMES, sp.symbols("P_AH P_AnotH P_HnotA P_rest", nonnegative=True),
                   strict=True))
CELLS_Q = dict(zip(_CELL_NAMES, sp.symbols("Q_AH Q_AnotH Q_HnotA Q_rest", nonnegative=True),
                   strict=True))
_c = sp.Symbol("c", positive=True)


def event_supremum(factor: sp.Expr) -> tuple[bool, str]:
    r"""For every pair of laws, every event A and c = ``factor``: P(A) - c Q(A) <= P(H) - c
    Q(H) with H = {p > c q}, by a nonnegative combination of the cell sums that the
    definition of H signs (on H - A, p - c q >= 0 termwise; on A - H, c q - p >= 0), and
    equality at A = H: the supremum over events is sum_H (p - c q) = sum (p - c q)_+, the
    hockey-stick divergence E_eps exactly when c = e^eps (sympy identity)."""
    c = sp.sympify(factor)
    gens = {"sum over H-A of p - c q": (CELLS_P["HnotA"] - c * CELLS_Q["HnotA"], CELLS_P["HnotA"]),
            "sum over A-H of c q - p": (c * CELLS_Q["AnotH"] - CELLS_P["AnotH"], CELLS_Q["AnotH"])}
    at_h = CELLS_P["AH"] + CELLS_P["HnotA"] - c * (CELLS_Q["AH"] + CELLS_Q["HnotA"])
    at_a = CELLS_P["AH"] + CELLS_P["AnotH"] - c * (CELLS_Q["AH"] + CELLS_Q["AnotH"])
    sup_ok, cert = cone_certificate(at_h - at_a, [*CELLS_P.values(), *CELLS_Q.values()], gens,
                                    [eps, _c])
    ident, why = decide_identity(c, sp.exp(eps))
    return bool(sup_ok and ident is True), (f"P(H) - c Q(H) - (P(A) - c Q(A)) = {cert}; "
                                            f"c = e^eps: {why}")


__all__ = ["CELLS_P", "CELLS_Q", "affine_range", "cone_certificate", "event_supremum",
           "exp_increasing", "log_gap"]
