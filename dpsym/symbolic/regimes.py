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
order is kept, fractional powers (Puiseux series) included, :math:`\log t` kept in the
coefficients. ``sympy.series`` in :math:`\varepsilon` at :math:`\infty` silently drops
every exponentially small term, which is why the regime :math:`\varepsilon \to \infty`
expands in :math:`b` instead.

The expansion itself (:func:`expand_series`) does not go through ``sympy.series``, which
took minutes on the truncated Laplacian's and the lower bound's closed forms and returned
``nan`` for non-integer moments (the logarithm :math:`\log(1 + (e^\varepsilon - 1)/(2\delta))
\to 0` was frozen as a constant atom whose value is zero): the expression is evaluated
bottom-up in exact truncated Puiseux series (:mod:`dpsym.symbolic.powerseries`) over a field of
rational functions of the parameters and atoms (:class:`dpsym.symbolic.tidy.Coefficients`). A
quantity that is piecewise constant in the expansion variable (a floor or ceiling of it)
has no power series and is refused.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache
from typing import Any

import sympy as sp

from dpsym.core.names import resolve
from dpsym.errors import DomainError, UnsupportedError
from dpsym.symbolic.powerseries import PrecisionLoss, Puiseux, PuiseuxArithmetic
from dpsym.symbolic.sums import LerchSum, LowerGammaStar
from dpsym.symbolic.tidy import POOL, Coefficients, Element, Restart
from dpsym.symbols import b, c, delta, eps, in_b, in_eps

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
        r"""The expansion of ``expr`` with order term :math:`O(t^{\mathrm{order}})`
        (:func:`expand_series` of the prepared expression; cached).

        Raises
        ------
        UnsupportedError
            If ``expr`` does not depend on the parameters this regime moves, is piecewise
            constant in the expansion variable (a floor or ceiling of it), or has no
            expansion in it.
        DomainError
            If ``order`` is not an integer in ``[0, MAX_ORDER]``.
        """
        if isinstance(order, bool) or not isinstance(order, int) or not 0 <= order <= MAX_ORDER:
            raise DomainError("order", f"must be an integer in [0, {MAX_ORDER}]")
        expr = sp.sympify(expr)
        free = in_eps(expr).free_symbols
        if not any(s in free for s in self.moves):
            raise UnsupportedError(
                f"regime {self.name} moves {', '.join(map(str, self.moves))}, "
                "which this quantity does not depend on"
            )
        return _expand_cached(self.name, expr, order)


REGIMES: dict[str, Regime] = {
    "eps->0": Regime("eps->0", eps, (eps,), "high privacy: eps -> 0+"),
    "eps->oo": Regime("eps->oo", b, (eps,), "low privacy: eps -> oo, expanded in b = exp(-eps)"),
    "delta->0": Regime("delta->0", delta, (delta,), "delta -> 0+ at fixed eps"),
    "eps=delta->0": Regime("eps=delta->0", eps, (eps, delta),
                           "delta = c*eps with c > 0 fixed, eps -> 0+"),
}


#: Shell-safe names of the regimes (no ``>``, which a shell reads as a redirection).
REGIME_ALIASES = {"eps0": "eps->0", "epsinf": "eps->oo", "eps->inf": "eps->oo",
                  "delta0": "delta->0", "epsdelta0": "eps=delta->0"}


def get_regime(name: str) -> Regime:
    """The regime called ``name`` (or one of :data:`REGIME_ALIASES`, in any case); a
    :class:`DomainError` suggests the closest name and lists the valid ones."""
    listing = ", ".join(f"{canonical} ({alias})" for alias, canonical in REGIME_ALIASES.items()
                        if "-" not in alias)
    return REGIMES[resolve("regime", "regime", name, REGIMES, REGIME_ALIASES, listing)]


def ascending(series: Any, t: sp.Symbol) -> Any:
    r"""A series :math:`\sum_k c_k t^{e_k} + O(t^K)` as an unevaluated sum in increasing
    order of :math:`e_k`, the order term last (print it with ``order="none"``, e.g.
    :func:`dpsym.reports.printing.expression_text` with ``ordered=True``).

    Terms are grouped by their exponent of ``t`` (``as_coeff_exponent``); a term in which
    ``t`` remains in the coefficient (a logarithm of ``t``) sorts by its power of ``t``.
    """
    series = sp.sympify(series)
    order = series.getO()
    main = series.removeO()
    terms: list[tuple[Any, Any]] = []
    for term in sp.Add.make_args(main):
        _, power = term.as_coeff_exponent(t)
        terms.append((power if power.is_number else sp.Integer(0), term))
    terms.sort(key=lambda item: item[0])
    parts = [term for _, term in terms] + ([order] if order is not None else [])
    return sp.Add(*parts, evaluate=False) if len(parts) > 1 else (parts[0] if parts else main)


# ---------------------------------------------------------------------------- expansion
#: Relative precision (in powers of t) carried beyond the order asked at the first attempt,
#: and the largest carried before an expansion is refused.
FIRST_MARGIN = 3
MAX_MARGIN = 64
#: Attempts (restarts with roots of generators, more precision) before giving up.
MAX_ATTEMPTS = 40
#: The most terms (of numerators and denominators) the coefficients of an expansion may
#: have: more would take minutes to simplify and print.
MAX_OUTPUT_TERMS = 6000


@lru_cache(maxsize=512)
def _expand_cached(name: str, expr: sp.Expr, order: int) -> sp.Expr:
    reg = REGIMES[name]
    t = reg.variable
    prepared = reg.prepare(expr)
    for step in prepared.atoms(sp.floor, sp.ceiling, sp.frac):
        if step.has(t):
            raise UnsupportedError(
                f"regime {name}: {step} is piecewise constant in {t} (a step function of "
                f"{t}), so this quantity has no power series in {t}; its values are exact "
                f"at each fixed {t}")
    try:
        return expand_series(prepared, t, order)
    except UnsupportedError as exc:
        raise UnsupportedError(f"regime {name}: {exc}") from None


def expand_series(expr: sp.Expr, t: sp.Symbol, order: int) -> sp.Expr:
    r"""The asymptotic expansion of ``expr`` as :math:`t \to 0^+`, every term below
    :math:`t^{\mathrm{order}}` followed by :math:`O(t^{\mathrm{order}})`.

    The expression is evaluated bottom-up in exact truncated Puiseux series
    (:class:`~dpsym.symbolic.powerseries.PuiseuxArithmetic`) whose coefficients are rational
    functions of the other symbols and of atoms (:class:`~dpsym.symbolic.tidy.Coefficients`):
    :math:`\log t` and the logarithms of leading coefficients are such atoms (an
    asymptotic series keeps them in its coefficients), exponentials of them are powers of
    :math:`t`, known special functions are expanded from their Taylor series or their
    known expansions at a singular point (:math:`\gamma(s, x)` as :math:`x \to 0`, a Lerch
    sum as :math:`z \to 1`). Leading terms that cancel are detected exactly (numerically
    where roots or logarithms are involved) and the computation is repeated with more
    precision until every term below the order is known.

    Raises
    ------
    UnsupportedError
        If a subexpression has no such expansion (a step function of :math:`t`, an
        exponential of a pole, a special function at a singular point without a known
        expansion, a branch that cannot be decided) or cancels to every order tried.
    """
    plan: dict = {}
    for p in expr.atoms(sp.Pow):  # the roots of symbols the expression takes itself
        base, e = p.args
        if e.is_Rational and not e.is_Integer and (base.is_Symbol or base is sp.pi):
            key = ("sym", base) if base.is_Symbol else ("atom", base)
            plan[key] = math.lcm(plan.get(key, 1), int(e.q))
    pool, margin = POOL, FIRST_MARGIN
    for _ in range(MAX_ATTEMPTS):
        ex = _Expander(t, order, margin, plan, pool)
        try:
            result = ex.ev(expr)
        except Restart as again:
            for key, root in again.plan.items():
                plan[key] = math.lcm(plan.get(key, 1), root)
            pool = max(pool, again.pool)
            continue
        except PrecisionLoss:
            margin *= 2
        else:
            if result.p is None or Fraction(result.p, result.q) >= order:
                return ex.output(result, order)
            margin += math.ceil(order - Fraction(result.p, result.q)) + 1
        if margin > MAX_MARGIN:
            break
    raise UnsupportedError(f"no expansion in {t} to order {order}: the expression cancels "
                           "to every order computed")


class _Expander:
    """One attempt at an expansion: the coefficient field, the precision carried and the
    series of the subexpressions met so far."""

    def __init__(self, t: sp.Symbol, order: int, margin: int, plan: dict, pool: int) -> None:
        self.t = t
        self.K = Coefficients(t, plan, pool)
        self.A = PuiseuxArithmetic(self.K, Fraction(order + margin), Fraction(order + margin))
        self.memo: dict[sp.Expr, Puiseux] = {}

    def const(self, a: Element) -> Puiseux:
        return self.A.const(a)

    def ev(self, e: sp.Expr) -> Puiseux:
        """The series of ``e``."""
        found = self.memo.get(e)
        if found is None:
            found = self.memo[e] = self._ev(e)
        return found

    def _ev(self, e: sp.Expr) -> Puiseux:
        K, A, t = self.K, self.A, self.t
        if e == t:
            return A.const(K.one, Fraction(1))
        if e.is_Rational:
            return self.const(K.const(Fraction(int(e.p), int(e.q))))
        if e.is_Float:
            if float(e) == int(float(e)):  # sympy keeps 0.0 from some integrals
                return self.const(K.const(int(float(e))))
            raise UnsupportedError(f"a floating-point number ({e}) in an exact expansion")
        if e.is_Symbol:
            return self.const(K.symbol(e))
        if e is sp.E:
            return A.exp(self.const(K.one))
        if e.is_Add:
            out = A.const(K.zero)
            for a in e.args:
                out = A.add(out, self.ev(a))
            return out
        if e.is_Mul:
            out = self.const(K.one)
            for a in e.args:
                out = A.mul(out, self.ev(a))
            return out
        if e.is_Pow:
            base, expo = e.args
            if expo.is_Integer:
                return A.power(self.ev(base), int(expo))
            if expo.is_Rational:
                return A.powr(self.ev(base), Fraction(int(expo.p), int(expo.q)))
            return A.exp(A.mul(self.ev(expo), A.log(self.ev(base))))
        if isinstance(e, sp.exp):
            return A.exp(self.ev(e.args[0]))
        if isinstance(e, sp.log):
            return A.log(self.ev(e.args[0]))
        if not e.has(t):
            return self.const(K.atom(e))
        return self._function(e)

    def _function(self, e: sp.Expr) -> Puiseux:
        """A function of an argument that moves with :math:`t`."""
        if isinstance(e, sp.Piecewise):
            return self.ev(self._branch(e))
        if isinstance(e, LerchSum):
            return self._lerch(*e.args)
        if isinstance(e, sp.lowergamma):
            return self._lowergamma(*e.args)
        if isinstance(e, LowerGammaStar):
            return self._lowergamma_star(*e.args)
        if isinstance(e, sp.uppergamma):
            return self.ev(sp.gamma(e.args[0]) - sp.lowergamma(*e.args))
        if isinstance(e, sp.Abs):
            inner = self.ev(e.args[0])
            if not inner.c:
                raise PrecisionLoss
            return inner if self.K.sign(inner.c[0]) > 0 else self.A.neg(inner)
        if isinstance(e, sp.Function) and len(e.args) == 1:
            return self._taylor(e.func, e.args[0])
        raise UnsupportedError(f"no expansion of {type(e).__name__} in {self.t}")

    def _taylor(self, func: Any, arg: sp.Expr) -> Puiseux:
        r""":math:`F(c_0 + u) = \sum_k F^{(k)}(c_0) u^k / k!` for :math:`F` (``func``, a
        callable building the function at a point) analytic at the limit :math:`c_0` of
        the argument."""
        K, A = self.K, self.A
        f = self.ev(arg)
        if f.c and f.v < 0:
            raise UnsupportedError(f"{func(self.t).func} of an argument that diverges has "
                                   f"no power series in {self.t}")
        c0 = f.c[0] if f.c and f.v == 0 else K.zero
        u = A.sub(f, self.const(c0))
        x = sp.Dummy("x")
        point = K.to_sympy(c0)
        if u.exact_zero:  # a constant of the field (with log t in it): one atom
            value = func(point)
            return self.const(K.atom(value)) if value.func == func(x).func else self.ev(value)
        derivatives = [func(x)]

        def coefficient(k: int) -> Puiseux:
            while len(derivatives) <= k:
                derivatives.append(sp.diff(derivatives[-1], x))
            ak = derivatives[k].subs(x, point) / sp.factorial(k)
            if ak.has(sp.nan, sp.zoo, sp.oo, -sp.oo):
                raise UnsupportedError(f"{func(x).func} is not analytic at {point}")
            if k == 0 and ak.func == func(x).func:
                return self.const(K.atom(ak))
            return self.ev(ak)

        return A.compose(coefficient, u)

    def _branch(self, pw: sp.Piecewise) -> sp.Expr:
        r"""The branch of ``pw`` that holds as :math:`t \to 0^+`."""
        for expr, cond in pw.args:
            if self._truth(cond):
                return expr
        raise UnsupportedError(f"no branch of {pw} holds as {self.t} -> 0")

    def _truth(self, cond: Any) -> bool:
        if cond in (sp.true, sp.false):
            return bool(cond)
        if isinstance(cond, (sp.And, sp.Or)):
            truths = [self._truth(a) for a in cond.args]
            return all(truths) if isinstance(cond, sp.And) else any(truths)
        if isinstance(cond, sp.Not):
            return not self._truth(cond.args[0])
        if isinstance(cond, (sp.StrictLessThan, sp.LessThan, sp.StrictGreaterThan,
                             sp.GreaterThan)) and cond.has(self.t):
            diff = self.ev(cond.lhs - cond.rhs)
            sign = sp.sign(self.K.to_sympy(diff.c[0])) if diff.c else None
            if sign in (1, -1):
                return (sign < 0) == isinstance(cond, (sp.StrictLessThan, sp.LessThan))
        raise UnsupportedError(f"cannot decide {cond} as {self.t} -> 0")

    def _lerch(self, z: sp.Expr, s: sp.Expr, a: sp.Expr) -> Puiseux:
        r"""The Lerch sum :math:`\sum_k z^k (k + a)^s` as :math:`z = e^{-u} \to 1`:
        :math:`e^{a u}[\Gamma(1 + s) u^{-1-s} + \sum_n \zeta(-s-n, a) (-u)^n / n!]`
        (Riemann's :math:`\zeta` for :math:`a = 0`); elsewhere its Taylor series in
        :math:`z`."""
        K, A = self.K, self.A
        if s.has(self.t) or a.has(self.t) or not s.is_Rational:
            raise UnsupportedError("a Lerch sum with a moving or irrational exponent")
        if a.is_Float and float(a) == int(float(a)):
            a = sp.Integer(int(float(a)))
        f = self.ev(z)
        if not (f.c and f.v == 0 and K.is_zero(K.sub(f.c[0], K.one))):
            x = sp.Dummy("x")
            return self._taylor(sp.Lambda(x, LerchSum(x, s, a)), z)
        u = A.neg(A.log(f))

        def coefficient(n: int) -> Puiseux:
            zeta = sp.zeta(-s - n) if a == 0 else sp.zeta(-s - n, a)
            return self.ev(zeta * (-1) ** n / sp.factorial(n))

        total = A.add(A.mul(self.ev(sp.gamma(1 + s)),
                            A.powr(u, -1 - Fraction(int(s.p), int(s.q)))),
                      A.compose(coefficient, u))
        return total if a == 0 else A.mul(total, A.exp(A.mul(self.ev(a), u)))

    def _lowergamma(self, s: sp.Expr, x: sp.Expr) -> Puiseux:
        r""":math:`\gamma(s, x) = x^s \sum_n (-x)^n / (n! (s + n))` as :math:`x \to 0`;
        its Taylor series elsewhere."""
        A = self.A
        if s.has(self.t):
            raise UnsupportedError("an incomplete gamma function of a moving order")
        f = self.ev(x)
        if not f.c or f.v <= 0:
            y = sp.Dummy("y")
            return self._taylor(sp.Lambda(y, sp.lowergamma(s, y)), x)
        series = A.compose(lambda n: self.ev((-1) ** n / (sp.factorial(n) * (s + n))), f)
        head = A.powr(f, Fraction(int(s.p), int(s.q))) if s.is_Rational else \
            A.exp(A.mul(self.ev(s), A.log(f)))
        return A.mul(head, series)

    def _lowergamma_star(self, a: sp.Expr, z: sp.Expr) -> Puiseux:
        r"""Tricomi's :math:`\gamma^*(a, z) = \sum_n (-z)^n / (n!\,(a + n)\,\Gamma(a))`, an
        entire function of :math:`z`: that series as :math:`z \to 0`, its Taylor series
        elsewhere."""
        if a.has(self.t):
            raise UnsupportedError("an incomplete gamma function of a moving order")
        f = self.ev(z)
        if not f.c or f.v <= 0:
            y = sp.Dummy("y")
            return self._taylor(sp.Lambda(y, LowerGammaStar(a, y)), z)
        return self.A.compose(
            lambda n: self.ev((-1) ** n / (sp.factorial(n) * (a + n) * sp.gamma(a))), f)

    def output(self, s: Puiseux, order: int) -> sp.Expr:
        r"""The terms of ``s`` below :math:`t^{\mathrm{order}}`, coefficients factored, and
        the order term (an unevaluated sum: sympy would compare every term with the order
        term by limits)."""
        t, K = self.t, self.K
        kept = [a for i, a in enumerate(s.c) if Fraction(s.v + i, s.q) < order]
        size = sum(len(a.n) + len(a.d) for a in kept)
        if size > MAX_OUTPUT_TERMS:
            raise UnsupportedError(
                f"the expansion to order {order} has {size} terms in its coefficients, more "
                f"than {MAX_OUTPUT_TERMS}; ask for a lower order")
        terms = []
        for i, a in enumerate(s.c):
            e = Fraction(s.v + i, s.q)
            if e >= order:
                break
            if K.is_zero(a):
                continue
            coeff = K.factored(a)
            if coeff != 0:
                terms.extend(sp.Add.make_args(coeff * t ** sp.Rational(e.numerator,
                                                                       e.denominator)))
        return sp.Add(*terms, sp.Order(t**order, t), evaluate=False)
