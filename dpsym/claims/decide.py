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

import functools
from collections.abc import Callable, Mapping, Sequence
from fractions import Fraction

import flint
import sympy as sp

from dpsym.certified.balls import enclosure
from dpsym.claims.common import V
from dpsym.core.expressions import exact_ball, exact_complex_ball
from dpsym.errors import DomainError
from dpsym.precision import arb_workprec
from dpsym.symbolic.tidy import simplified


def sign_certificate(expr: sp.Expr, variables: Sequence[sp.Symbol]) -> str | None:
    r"""The sign of ``expr`` proven on :math:`(0, \infty)^{\mathrm{len(variables)}}`:
    ``"zero"`` (identically 0), ``"positive"``, ``"nonnegative"`` (nonnegative coefficients,
    so :math:`\ge 0`; with a positive coefficient and positive variables, :math:`> 0`),
    ``"negative"``, or ``None`` (not certified: mixed signs, or not a rational function of
    ``variables``). Decided once per (expression, variables)."""
    return _sign_certificate(sp.sympify(expr), tuple(variables))


@functools.lru_cache(maxsize=4096)
def _sign_certificate(expr: sp.Expr, variables: tuple[sp.Symbol, ...]) -> str | None:
    """:func:`sign_certificate` with the variables as a tuple."""
    expr = sp.cancel(sp.together(expr))
    if expr == 0:
        return "zero"
    num, den = sp.fraction(expr)
    signs = []
    for part in (num, den):
        if variables:
            try:
                coeffs = sp.Poly(sp.expand(part), *variables).coeffs()
            except sp.PolynomialError:
                return None
        else:  # no variables left (every one closed and set to 0): a constant
            coeffs = [sp.expand(part)]
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
    if isinstance(rel, (sp.GreaterThan, sp.StrictGreaterThan)) and \
            diff.free_symbols <= set(variables):
        # a value < 0 at one point of the domain (exact) rules out both certificates
        point = dict(zip(variables, _PROBES, strict=False))
        if len(point) == len(variables) and (at := diff.subs(point)).is_Rational \
                and at < 0:
            return False, f"bound - rhs < 0 at {point}: {at}"
    sign = sign_certificate(diff, variables)
    if isinstance(rel, sp.GreaterThan):
        return sign in ("zero", "positive"), f"bound - rhs: {sign}"
    if isinstance(rel, sp.StrictGreaterThan):
        edge = sign_certificate(diff.subs({v: 0 for v in closed}),
                                [v for v in variables if v not in closed]) \
            if closed else sign
        return sign == edge == "positive", f"bound - rhs: {sign} (at the closed ends: {edge})"
    return False, f"{type(rel).__name__} does not follow from a lower bound (bound - rhs: {sign})"




# ----------------------------------------------------------------------------- identities

#: Exact probe values of free symbols for refuting an identity (general position).
_PROBES = (sp.Rational(3, 7), sp.Rational(5, 11), sp.Rational(7, 13), sp.Rational(11, 17),
           sp.Rational(13, 19), sp.Rational(17, 23), sp.Rational(19, 29), sp.Rational(23, 31))


#: Exact probe values of integer symbols (general position: distinct primes).
_INTEGER_PROBES = tuple(sp.Integer(n) for n in (7, 11, 13, 17, 19, 23, 29, 31))


def certified_sign(expr: sp.Expr, values: Mapping[sp.Symbol, object] | None = None,
                   prec: int = 256) -> int | None:
    """The sign of ``expr`` at exact ``values``, certified: +1, -1, 0 (an exact zero), or
    None (the Arb enclosure contains 0, or the expression is not one the ball evaluator
    handles). An elementary value is enclosed by one ball evaluation of the substituted
    constant (:func:`dpsym.core.expressions.exact_ball`); any other, or a ball that does
    not decide, by :func:`dpsym.certified.balls.enclosure`."""
    expr = sp.sympify(expr)
    vals = {s: Fraction(str(sp.Rational(v))) if sp.sympify(v).is_Rational else sp.sympify(v)
            for s, v in (values or {}).items()}
    if not expr.free_symbols - set(vals):
        at = _substituted(expr, vals)
        if at.is_Rational:
            val = sp.Rational(at)
            return int(bool(val > 0)) - int(bool(val < 0))
        with arb_workprec(prec):
            try:
                ball = exact_ball(at)
            except DomainError:
                ball = None
            if ball is not None and ball.is_finite() and (ball > 0 or ball < 0):
                return 1 if ball > 0 else -1
    ball = enclosure(expr, vals, prec)
    if ball is None or not ball.is_finite():
        return None
    if ball > 0:
        return 1
    if ball < 0:
        return -1
    return 0 if ball.is_exact() and ball == 0 else None


def _substituted(expr: sp.Expr, values: Mapping[sp.Symbol, object]) -> sp.Expr:
    """``expr`` at ``values`` (a Fraction as a sympy rational): a tree replacement, or
    ``subs`` when ``expr`` binds a symbol (a sum, product, integral)."""
    exact = {s: sp.Rational(v.numerator, v.denominator) if isinstance(v, Fraction) else v
             for s, v in values.items()}
    if expr.has(sp.Sum, sp.Product, sp.Integral, sp.Lambda, sp.Derivative, sp.Subs):
        return expr.subs(exact)
    return expr.xreplace(exact)


def complex_value(expr: sp.Expr, values: Mapping[sp.Symbol, object], prec: int = 256
                  ) -> flint.acb | None:
    r"""A complex Arb ball containing ``expr`` at exact rational ``values`` (principal
    branches: :math:`\log z`, :math:`z^w = e^{w \log z}`, as sympy reads them:
    :func:`dpsym.core.expressions.exact_complex_ball` of the substituted constant), or None
    (a node it does not evaluate, a symbol without a value, a ball that is not finite). A
    value that is not real where the other side of an identity is real refutes the identity
    as surely as a real difference does."""
    vals = {s: Fraction(str(sp.Rational(v))) if sp.sympify(v).is_Rational else sp.sympify(v)
            for s, v in values.items()}
    with arb_workprec(prec):
        try:
            value = exact_complex_ball(_substituted(sp.sympify(expr), vals))
        except (DomainError, ZeroDivisionError):
            return None
        return value if value.is_finite() else None


def decide_identity(lhs: sp.Expr, rhs: sp.Expr, probe: Mapping[sp.Symbol, object] | None = None
                    ) -> tuple[bool | None, str]:
    """Decide ``lhs == rhs`` identically in their symbols: ``False`` if the difference has a
    certified nonzero value at a probe point (``probe``, default rational values in general
    position), ``True`` if sympy reduces the difference to 0 (``cancel``, then
    ``simplify``), ``None`` otherwise (not decided: a check built on it rejects). Decided
    once per (lhs, rhs, probe): a claim's mutants share all but one of its identities."""
    return _decide_identity(sp.sympify(lhs), sp.sympify(rhs),
                            tuple((s, sp.sympify(v)) for s, v in (probe or {}).items()))


@functools.lru_cache(maxsize=4096)
def _decide_identity(lhs: sp.Expr, rhs: sp.Expr, probe: tuple[tuple[sp.Symbol, sp.Expr], ...]
                     ) -> tuple[bool | None, str]:
    """:func:`decide_identity` with the probe point as (symbol, value) pairs."""
    diff = lhs - rhs
    if (witness := _witness(diff, probe)) is not None:
        return False, witness
    if vanishes(diff):
        return True, "identical (sympy)"
    # powers of quotients: cancel each base first (a base that is a ratio of two negative
    # factors becomes a product of positive symbols, which sympy splits soundly)
    tidy = diff.replace(lambda e: isinstance(e, sp.Pow) and not e.exp.is_Integer,
                        lambda e: sp.Pow(sp.cancel(sp.factor(e.base)), e.exp))
    if simplified(sp.powsimp(sp.expand_power_base(tidy))) == 0:
        return True, "identical (sympy, the bases of the powers cancelled)"
    return None, f"not decided: {simplified(diff)} is not reduced to 0"


def refuted(lhs: sp.Expr, rhs: sp.Expr, probe: Mapping[sp.Symbol, object] | None = None
            ) -> bool:
    """Whether ``lhs == rhs`` is refuted by a certified nonzero value of the difference at a
    probe point (the first step of :func:`decide_identity`; one witness suffices to reject,
    a check still proves what it accepts)."""
    return _witness(sp.sympify(lhs) - sp.sympify(rhs),
                    tuple((s, sp.sympify(v)) for s, v in (probe or {}).items())) is not None


@functools.lru_cache(maxsize=4096)
def _witness(diff: sp.Expr, probe: tuple[tuple[sp.Symbol, sp.Expr], ...]) -> str | None:
    """A certified nonzero value of ``diff`` at the probe point (``probe``, the other
    symbols at rational values in general position), described; None if there is none."""
    free = sorted(diff.free_symbols, key=str)
    point = dict(probe)
    for sym, val in zip([s for s in free if s not in point], _PROBES * 4, strict=False):
        point[sym] = val
    if not free or set(free) <= set(point):
        sign = certified_sign(diff, point)
        if sign not in (0, None):
            return f"differs at {point}: sign {sign:+d} (certified)"
        if sign is None and (value := complex_value(diff, point)) is not None \
                and not value.contains(0):
            return f"differs at {point}: {value} (certified, complex)"
    return None


def vanishes(expr: sp.Expr) -> bool:
    r"""Whether ``sympy.simplify`` reduces ``expr`` to 0, decided the cheapest way first: a
    certified nonzero value at a probe point that satisfies every symbol's assumptions
    (rationals in general position, distinct primes for integer symbols, independent values
    of an unknown function at distinct arguments: :func:`_undefined_values`; then ``expr``
    is not identically 0, and no correct simplification is 0), then
    ``cancel`` of the expanded, combined fraction (0 only for an identically zero
    rational function of its atoms), then ``simplify`` itself. Decided once per
    expression."""
    return _vanishes(sp.sympify(expr))


#: Nodes whose value a probe point does not give by substitution (bound variables,
#: indexed families): such an expression goes to ``simplify`` directly. An unknown
#: function's values are probed only where its arguments are distinct numbers
#: (:func:`_undefined_values`).
_NOT_PROBED = (sp.Sum, sp.Product, sp.Integral, sp.Derivative, sp.Limit, sp.Subs, sp.Lambda,
               sp.Indexed, sp.IndexedBase, sp.Piecewise)

#: Values given to an unknown function at distinct arguments (general position).
_UNDEFINED_PROBES = tuple(sp.Rational(p, p + 6) for p in (29, 31, 37, 41, 43, 47, 53, 59))


def _undefined_values(expr: sp.Expr, point: Mapping[sp.Symbol, sp.Expr]
                      ) -> dict[sp.Basic, sp.Expr] | None:
    r"""Independent values of the unknown functions' calls in ``expr`` (``f(a)``,
    ``f`` a ``sympy.Function("f")``) at the probe ``point``, or None: every argument must be
    a number there, the arguments of one function pairwise distinct, and each value must
    satisfy the call's assumptions. An unknown function's values at distinct points are
    arbitrary, so a certified nonzero value of ``expr`` with them shows that ``expr`` is not
    identically zero for every such function (which ``simplify`` would have to prove)."""
    calls = sorted(expr.atoms(sp.core.function.AppliedUndef), key=sp.default_sort_key)
    values: dict[sp.Basic, sp.Expr] = {}
    args_seen: set[tuple] = set()
    for k, call in enumerate(calls):
        args = tuple(arg.xreplace(point) for arg in call.args)
        if not all(arg.is_Rational for arg in args) or (call.func, args) in args_seen:
            return None
        args_seen.add((call.func, args))
        val = _UNDEFINED_PROBES[k % len(_UNDEFINED_PROBES)]
        if not all(getattr(val, f"is_{fact}") is holds
                   for fact, holds in call.assumptions0.items()):
            return None
        values[call] = val
    return values


@functools.lru_cache(maxsize=8192)
def _vanishes(expr: sp.Expr) -> bool:
    """:func:`vanishes` of a sympified expression."""
    if expr == 0:
        return True
    free = sorted(expr.free_symbols, key=str)
    if all(isinstance(s, sp.Symbol) for s in free) and not expr.has(*_NOT_PROBED):
        point = {sym: (_INTEGER_PROBES if sym.is_integer else _PROBES)[k % len(_PROBES)]
                 for k, sym in enumerate(free[:4 * len(_PROBES)])}
        admissible = len(point) == len(free) and all(
            getattr(val, f"is_{fact}") is holds
            for sym, val in point.items() for fact, holds in sym.assumptions0.items())
        calls = _undefined_values(expr, point) if admissible else None
        if calls is not None and _witness(expr.xreplace(calls) if calls else expr,
                                          tuple(point.items())) is not None:
            return False
    if sp.cancel(sp.together(sp.expand(expr))) == 0:
        return True
    return simplified(expr) == 0


def rounds_to(value: sp.Expr, printed: sp.Expr, values: Mapping[sp.Symbol, object] | None = None
              ) -> tuple[bool, str]:
    r"""Whether the decimal ``printed`` (a terminating decimal: its number of decimals is
    that of its shortest expansion) is ``value`` correctly rounded to that many decimals,
    certified: the Arb enclosure of ``value`` lies in :math:`[x - h, x + h]`,
    :math:`h = 10^{-d}/2`. A printed number that is not a terminating decimal is
    refused."""
    x = sp.Rational(sp.sympify(printed)) if sp.sympify(printed).is_Rational else None
    if x is None:
        return False, f"{printed} is not an exact decimal"
    q, d = int(x.q), 0
    for prime in (2, 5):
        while q % prime == 0:
            q //= prime
    if q != 1:
        return False, f"{printed} is not a terminating decimal"
    while (x * 10**d).q != 1:
        d += 1
    half = sp.Rational(1, 2 * 10**d)
    lo = certified_sign(sp.sympify(value) - (x - half), values)
    hi = certified_sign((x + half) - sp.sympify(value), values)
    ok = lo in (1, 0) and hi in (1, 0)
    shown = sp.N(sp.sympify(value).subs(values or {}), 12)
    return ok, f"{shown} rounds to {x} at {d} decimals: {ok}"


__all__ = ["certified_sign", "complex_value", "decide_identity", "decide_lower", "refuted",
           "rounds_to", "sign_certificate", "vanishes"]
