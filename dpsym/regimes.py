r"""Asymptotic regimes as small value objects.

==================  ==============================  ===========================
name                limit                           expansion variable
==================  ==============================  ===========================
``eps->0``          :math:`\varepsilon \to 0^+`     :math:`\varepsilon`
``eps->oo``         :math:`\varepsilon \to \infty`  :math:`b = e^{-\varepsilon} \to 0^+`
``delta->0``        :math:`\delta \to 0^+`          :math:`\delta`
``eps=delta->0``    :math:`\delta = c\varepsilon`,  :math:`\varepsilon`
                    :math:`\varepsilon \to 0^+`
==================  ==============================  ===========================

``expand(expr, order)`` returns the series with its order term
:math:`O(t^{\mathrm{order}})` in the expansion variable :math:`t`: every term of lower
order is kept, fractional powers (Puiseux series) included. ``sympy.series`` in
:math:`\varepsilon` at :math:`\infty` silently drops every exponentially small term,
which is why the regime :math:`\varepsilon \to \infty` expands in :math:`b` instead.
"""

from __future__ import annotations

from dataclasses import dataclass

import sympy as sp

from .errors import DomainError, UnsupportedError
from .symbols import b, c, delta, eps, in_b, in_eps
from .tidy import factor

MAX_ORDER = 30


@dataclass(frozen=True)
class Regime:
    """An asymptotic regime: its name, the expansion variable, the parameters it moves."""

    name: str
    variable: sp.Symbol
    moves: tuple[sp.Symbol, ...]
    description: str

    def prepare(self, expr: sp.Expr) -> sp.Expr:
        """``expr`` written in the expansion variable of the regime."""
        expr = sp.sympify(expr)
        if self.name == "eps->oo":
            return in_b(expr)
        expr = in_eps(expr)
        if self.name == "eps=delta->0":
            return expr.subs(delta, c * eps)
        return expr

    def expand(self, expr: sp.Expr, order: int) -> sp.Expr:
        r"""The expansion of ``expr`` with order term :math:`O(t^{\mathrm{order}})`.

        Raises
        ------
        UnsupportedError
            If ``expr`` does not depend on the parameters this regime moves.
        DomainError
            If ``order`` is not an integer in ``[0, MAX_ORDER]``.
        """
        if isinstance(order, bool) or not isinstance(order, int) or not 0 <= order <= MAX_ORDER:
            raise DomainError("order", f"must be an integer in [0, {MAX_ORDER}]")
        free = in_eps(expr).free_symbols
        if not any(s in free for s in self.moves):
            raise UnsupportedError(
                f"regime {self.name} moves {', '.join(map(str, self.moves))}, "
                "which this quantity does not depend on"
            )
        prepared = self.prepare(expr)
        t = self.variable
        try:
            prepared, thaw = _expand_logs(prepared, t, order)
            result = sp.series(prepared, t, 0, order)
            if not result.has(sp.Order):
                result = result + sp.Order(t**order, t)
            # write it as a sum of terms, one per power of t, followed by the order term
            main = result.removeO()
            main = sp.Add(*(factor(coeff.xreplace(thaw)) * t**power
                            for power, coeff in sorted(_by_power(main, t).items(),
                                                       key=lambda item: item[0])))
            return main + sp.expand(result - result.removeO())
        except (sp.PoleError, NotImplementedError, ValueError, ZeroDivisionError) as exc:
            # sympy's refusals (and a Lerch sum evaluated at its pole z = 1) mean that
            # this expression has no expansion sympy can give in this regime
            reason = str(exc) or type(exc).__name__
            raise UnsupportedError(
                f"regime {self.name}: sympy cannot expand this expression in {t} ({reason})"
            ) from None


#: Extra orders kept in the expansion of a logarithm, for the cancellations of the
#: expression around it (a division by a power of the variable).
LOG_MARGIN = 6


def _expand_logs(expr: sp.Expr, t: sp.Symbol, order: int
                 ) -> tuple[sp.Expr, dict[sp.Symbol, sp.Expr]]:
    r"""Replace each logarithm :math:`\log g(t)` by its expansion in :math:`t`.

    With :math:`g = a_0 t^k (1 + w)`, :math:`w = O(t)`,
    :math:`\log g = \log(a_0 t^k) + \log(1 + w)`, the last term a truncated power
    series and the first an atom (a coefficient, as :math:`\log t` is in an asymptotic
    series). Every atom is returned as a symbol with the map back to its logarithm.
    ``sympy.series`` applied to the logarithms instead splits them into terms that do
    not cancel visibly (spurious :math:`\log t` in denominators) and is slow.
    """
    depth = order + LOG_MARGIN
    swap: dict[sp.Expr, sp.Expr] = {}
    thaw: dict[sp.Symbol, sp.Expr] = {}
    for lg in expr.atoms(sp.log):
        inner = lg.args[0]
        if t not in inner.free_symbols:
            atom = sp.Dummy(real=True)
            swap[lg], thaw[atom] = atom, lg
            continue
        series = sp.series(inner, t, 0, depth).removeO()
        lead = sp.factor(series.as_leading_term(t))
        ratio = sp.collect(sp.expand(series / lead), t, evaluate=False)
        rest = sp.expand(sp.Add(*(sp.cancel(cf) * pw for pw, cf in ratio.items())) - 1)
        log_rest = sp.series(sp.log(1 + rest), t, 0, depth).removeO() if rest != 0 else 0
        atom = sp.Dummy(real=True)
        thaw[atom] = sp.log(lead)
        swap[lg] = atom + log_rest
    return (expr.xreplace(swap) if swap else expr), thaw


def _by_power(expr: sp.Expr, t: sp.Symbol) -> dict[sp.Expr, sp.Expr]:
    """The terms of a finite sum of powers of ``t`` (times coefficients), by power."""
    out: dict[sp.Expr, sp.Expr] = {}
    for term in sp.Add.make_args(sp.expand(expr)):
        term = sp.factor(term) if t in term.free_symbols else term
        coeff, power = term.as_coeff_exponent(t)
        if t in coeff.free_symbols:
            coeff, power = term, sp.Integer(0)
        out[power] = out.get(power, 0) + coeff
    return out


REGIMES: dict[str, Regime] = {
    "eps->0": Regime("eps->0", eps, (eps,), "high privacy: eps -> 0+"),
    "eps->oo": Regime("eps->oo", b, (eps,), "low privacy: eps -> oo, expanded in b = exp(-eps)"),
    "delta->0": Regime("delta->0", delta, (delta,), "delta -> 0+ at fixed eps"),
    "eps=delta->0": Regime("eps=delta->0", eps, (eps, delta),
                           "delta = c*eps with c > 0 fixed, eps -> 0+"),
}


def get_regime(name: str) -> Regime:
    """The regime called ``name``; a :class:`DomainError` lists the valid names."""
    try:
        return REGIMES[name]
    except (KeyError, TypeError):
        valid = ", ".join(REGIMES)
        shown = str(name)[:40]
        raise DomainError("regime", f"unknown regime {shown!r}; valid: {valid}") from None
