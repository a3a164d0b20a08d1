r"""Costs on the noise: a symmetric cost :math:`L(x)`, non-decreasing in :math:`|x|`.

The sources minimise the expected cost :math:`\mathbb{E}\,L(X)` of the noise for *any*
symmetric cost that is non-decreasing in :math:`|x|` (the staircase theorem of the slides'
Part One, the :math:`(0, \delta)` optimum of the poster, Lemma 2 of the paper). The CLI
names three families of powers :math:`L(x) = |x|^p`: ``amplitude`` (:math:`p = 1`, the
expected noise magnitude), ``power`` (:math:`p = 2`, the noise power) and ``moment:P``
(any :math:`0 < p \le 20`); every other cost is written as an expression in ``x``
(:func:`dpsym.core.expressions.parse_function`: rationals, ``log``, ``exp``, ``sqrt``,
``pi``, ``e``, ``+ - * / ^``, ``abs``, ``min``, ``max`` and the indicators
``abs(x) > T``, ``abs(x) >= T``), e.g. ``min(abs(x), 3)``, ``abs(x) + x^2``,
``log(1 + abs(x))``, ``abs(x) > 2``. An expression that is a power :math:`|x|^p` is that
named cost (``abs(x)`` is ``amplitude``, ``x^2`` is ``power``: the same object, the same
output).

:func:`parse_cost` *decides* the theorems' hypotheses on :math:`L` (:func:`shape`), and
refuses a cost that fails one with a :class:`~dpsym.errors.DomainError` naming it:

* **symmetric**, :math:`L(-x) = L(x)`: identically after sympy's automatic rewriting
  (:math:`|-x| = |x|`, even powers), or refuted at a point where the two differ;
* **defined and finite** on the whole line;
* **non-decreasing** on :math:`[0, \infty)`: the cost is cut at the points where an
  ``abs``, ``min``, ``max`` or indicator switches (the exact roots of its switching
  function, ``sympy.solveset``), each piece is decided by
  :func:`dpsym.core.monotone.behaviour` (rules, or exact polynomial arithmetic), and at
  every cut the value lies between the two one-sided limits;
* **non-negative**: :math:`L(0) \ge 0` (the minimum of a symmetric cost non-decreasing in
  :math:`|x|`).

That :math:`\mathbb{E}\,L(X)` is finite depends on the noise; it is decided where the
expectation is computed (:mod:`dpsym.certified.expectation`).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from fractions import Fraction
from functools import lru_cache

import sympy as sp
from sympy.printing.str import StrPrinter

from dpsym.core.expressions import (
    enclosure,
    from_sympy,
    function_from_expression,
    parse_function,
)
from dpsym.core.expressions import sign as exact_sign
from dpsym.core.monotone import (
    Behaviour,
    behaviour,
    decrease_witness,
    ext_compare,
    shown,
)
from dpsym.core.names import unknown
from dpsym.core.params import POSITIVE, Domain, parse_number
from dpsym.errors import DomainError
from dpsym.precision import exclusive
from dpsym.symbols import x, y

#: The exponents accepted for ``moment:P`` (p > 0, at most 20: beyond, non-integer
#: moments at small eps need Lerch sums far outside any documented time bound).
EXPONENT_DOMAIN = Domain(lower=POSITIVE.lower, upper=parse_number("20", "p"),
                         upper_open=False)
#: Most pieces a cost is cut into.
MAX_PIECES = 64


@dataclass(frozen=True)
class Piece:
    r"""The cost on the open interval :math:`(lo, hi)` of :math:`y = |x|`: one analytic
    expression ``expr`` in :data:`dpsym.symbols.y`.

    Attributes
    ----------
    lo, hi : sympy.Expr
        Exact ends, :math:`0 \le lo < hi \le \infty`.
    expr : sympy.Expr
        The cost there (no ``abs``, ``min``, ``max`` or indicator).
    terms : tuple of (sympy.Expr, sympy.Rational), or None
        ``expr`` as :math:`\sum_i c_i y^{p_i}` (exact :math:`c_i`, rational
        :math:`p_i \ge 0`) when it is one (a generalised polynomial), else None.
    behaviour : Behaviour
        Its direction, one-sided limits at the ends and sign
        (:func:`dpsym.core.monotone.behaviour`).
    """

    lo: sp.Expr
    hi: sp.Expr
    expr: sp.Expr
    terms: tuple[tuple[sp.Expr, sp.Rational], ...] | None
    behaviour: Behaviour

    @property
    def polynomial_terms(self) -> tuple[tuple[sp.Expr, sp.Rational], ...]:
        """``terms``, of a piece that is a generalised polynomial."""
        if self.terms is None:
            raise TypeError(f"{self.expr} is not a generalised polynomial")
        return self.terms


@dataclass(frozen=True)
class Shape:
    r"""A cost on :math:`[0, \infty)` (it is symmetric): the cuts
    :math:`0 = t_0 < t_1 < \dots < t_m`, the values :math:`L(t_j)` there and the pieces
    :math:`(t_j, t_{j+1})` (the last to :math:`\infty`), every hypothesis decided."""

    cuts: tuple[sp.Expr, ...]
    values: tuple[sp.Expr, ...]
    pieces: tuple[Piece, ...]

    @property
    def at_zero(self) -> sp.Expr:
        """:math:`L(0)`."""
        return self.values[0]

    @property
    def limit(self) -> sp.Expr:
        r""":math:`\lim_{|x| \to \infty} L(x)` (:math:`\infty` for an unbounded cost)."""
        return self.pieces[-1].behaviour.end

    @property
    def bounded(self) -> bool:
        """Whether the cost is bounded (its limit at infinity is finite)."""
        return self.limit is not sp.oo

    @property
    def piecewise_polynomial(self) -> bool:
        """Whether every piece is a generalised polynomial (closed forms exist)."""
        return all(pc.terms is not None for pc in self.pieces)

    @property
    def rational(self) -> bool:
        """Whether every cut, value and coefficient is rational and every exponent an
        integer: the cost of rational noise is then an exact rational."""
        if not self.piecewise_polynomial:
            return False
        numbers = [*self.cuts, *self.values]
        for pc in self.pieces:
            numbers += [c for c, _ in pc.polynomial_terms]
            if not all(p.is_Integer for _, p in pc.polynomial_terms):
                return False
        return all(v.is_Rational for v in numbers)

    def value(self, t: sp.Expr) -> sp.Expr:
        r""":math:`L(t)` at an exact :math:`t \ge 0` (a cut's own value at a cut)."""
        for j, cut in enumerate(self.cuts):
            order = ext_compare(t, cut)
            if order == 0:
                return self.values[j]
            if order < 0:
                return self.pieces[j - 1].expr.subs(y, t)
        return self.pieces[-1].expr.subs(y, t)


@dataclass(frozen=True)
class Cost:
    r"""A cost :math:`L(x)`: :math:`|x|^p` with an exact positive exponent (``amplitude``,
    ``power``, ``moment:P``), or a user's expression whose hypotheses are decided
    (:func:`parse_cost`), kept as a function of :math:`y = |x|`.

    Parameters
    ----------
    exponent : sympy.Rational or None
        The exponent :math:`p > 0` of a power; None for an expression.
    expression : sympy.Expr or None
        The cost as a function of :math:`y = |x|` (:data:`dpsym.symbols.y`), None for a
        power.
    """

    exponent: sp.Rational | None
    expression: sp.Expr | None = field(default=None)

    def __post_init__(self) -> None:
        if (self.exponent is None) == (self.expression is None):
            raise TypeError("a Cost has an exponent or an expression, not both")

    @property
    def name(self) -> str:
        """``amplitude``, ``power``, ``moment:P`` or the expression's canonical text."""
        if self.exponent is None:
            return expression_text(self.expression)
        if self.exponent == 1:
            return "amplitude"
        if self.exponent == 2:
            return "power"
        e = self.exponent
        if not e.is_Rational:  # a symbolic exponent (API only)
            return f"moment:{e}"
        return f"moment:{e.p}" if e.q == 1 else f"moment:{e.p}/{e.q}"

    @property
    def is_power(self) -> bool:
        r"""Whether the cost is a power :math:`|x|^p` (a named cost)."""
        return self.exponent is not None

    @property
    def power(self) -> sp.Rational:
        r"""The exponent :math:`p` of a power cost (:attr:`is_power`)."""
        if self.exponent is None:
            raise TypeError(f"the cost {self.name} is not a power")
        return self.exponent

    @property
    def is_integer(self) -> bool:
        """Whether :math:`p` is an integer (then every closed form is elementary); False
        for an expression."""
        return self.exponent is not None and bool(self.exponent.is_integer)

    @property
    def half(self) -> sp.Expr:
        r""":math:`L` as a function of :math:`y = |x| \ge 0` (:data:`dpsym.symbols.y`)."""
        return y ** self.exponent if self.exponent is not None else self.expression

    @property
    def function(self) -> sp.Expr:
        r""":math:`L(x)` as a sympy expression in ``x``."""
        return self.half.subs(y, sp.Abs(x))

    @property
    def shape(self) -> Shape:
        """The cost cut into analytic pieces, its hypotheses decided (:func:`shape`)."""
        return shape(self.function)

    @property
    def terms(self) -> tuple[tuple[sp.Expr, sp.Rational], ...] | None:
        r""":math:`L = \sum_i c_i |x|^{p_i}` as ``((c_i, p_i), ...)`` (:math:`p_i = 0`
        the constant) when the cost is one such sum on the whole line, else None."""
        if self.exponent is not None:
            return ((sp.Integer(1), self.exponent),)
        found = self.shape
        return found.pieces[0].terms if len(found.pieces) == 1 else None

    def __str__(self) -> str:
        return self.name


AMPLITUDE = Cost(sp.Integer(1))
POWER = Cost(sp.Integer(2))


#: Other names of the costs (matched in any case): the l1 and squared l2 norms of the
#: noise, as the sources name them.
COST_ALIASES = {"l1": "amplitude", "l2": "power"}


class _Printer(StrPrinter):
    """The cost grammar's own notation for a cost in :math:`y = |x|` (``abs(x)``,
    ``x^2`` for an even power, ``min``, ``^``, ``e``)."""

    def _print_Symbol(self, expr: sp.Symbol) -> str:
        return "abs(x)" if expr == y else super()._print_Symbol(expr)

    def _print_Abs(self, expr: sp.Abs) -> str:
        return f"abs({self._print(expr.args[0])})"

    def _selection(self, name: str, expr: sp.Expr) -> str:
        args = sorted(expr.args, key=lambda a: (not a.free_symbols, sp.default_sort_key(a)))
        return f"{name}({', '.join(self._print(a) for a in args)})"

    def _print_Min(self, expr: sp.Min) -> str:
        return self._selection("min", expr)

    def _print_Max(self, expr: sp.Max) -> str:
        return self._selection("max", expr)

    def _print_Exp1(self, expr: sp.Expr) -> str:
        return "e"

    def _print_Piecewise(self, expr: sp.Piecewise) -> str:
        relation = expr.args[0].cond
        text = f"{self._print(relation.lhs)} {relation.rel_op} {self._print(relation.rhs)}"
        return f"({text})" if expr.args[0].expr == 1 else f"(1 - ({text}))"

    def _print_Pow(self, expr: sp.Pow, rational: bool = False) -> str:
        base, power = expr.args
        if base == y and power.is_Integer and power > 0 and int(power) % 2 == 0:
            return f"x^{power}"
        if base == y and power.is_Rational and power > 0 and power != sp.Rational(1, 2):
            return f"abs(x)^{power}" if power.is_Integer else f"abs(x)^({power})"
        return super()._print_Pow(expr, rational).replace("**", "^")


def expression_text(half: sp.Expr) -> str:
    """The canonical text of a cost given as a function of :math:`y = |x|`, in the
    grammar of :func:`dpsym.core.expressions.parse_function` (read back to the same
    cost)."""
    text = _Printer({"order": "none"}).doprint(half).replace("**", "^")
    if isinstance(half, sp.Piecewise) and text.startswith("(") and text.endswith(")") \
            and half.args[0].expr == 1:
        return text[1:-1]  # one indicator: no parentheses
    return text


def _is_identifier(text: str) -> bool:
    return text.isidentifier() and text != "x"


def parse_cost(text: str | Cost | int | sp.Basic) -> Cost:
    r"""Read a cost: a name (``amplitude`` or ``l1``, ``power`` or ``l2``, ``moment:P`` with
    ``P`` a decimal or ``a/b``, in any case), an expression in ``x`` (``"min(abs(x), 3)"``)
    or a sympy expression in one symbol; its hypotheses are decided (see the module).

    Raises
    ------
    DomainError
        For an unknown name, an exponent outside ``(0, 20]``, text outside the grammar,
        or a cost that is not symmetric, not defined everywhere, decreasing somewhere on
        :math:`[0, \\infty)` or negative (the message names the hypothesis), or whose
        hypotheses cannot be decided.
    """
    if isinstance(text, Cost):
        return text
    if isinstance(text, int) and not isinstance(text, bool):
        text = f"moment:{text}"
    if isinstance(text, sp.Basic):
        return _from_function(function_from_expression(text, "cost", x))
    if not isinstance(text, str):
        raise DomainError("cost", "expected amplitude, power, moment:P with P in (0, 20], "
                          "or an expression in x such as min(abs(x), 3)")
    s = text.strip()
    named = {"amplitude": AMPLITUDE, "power": POWER}
    if s.casefold() in COST_ALIASES or s.casefold() in named:
        return named[COST_ALIASES.get(s.casefold(), s.casefold())]
    if s.casefold().startswith("moment:"):
        body = s[len("moment:"):]
        num, slash, den = body.partition("/")
        value = parse_number(num, "cost")
        if slash:
            d = parse_number(den, "cost")
            if d == 0:
                raise DomainError("cost", "moment:P needs a nonzero denominator")
            value /= d
        if value not in EXPONENT_DOMAIN:
            raise DomainError("cost", f"moment:P needs P in {EXPONENT_DOMAIN.describe()}")
        return Cost(sp.Rational(value.numerator, value.denominator))
    if not s or _is_identifier(s):
        raise unknown("cost", "cost", s, [*named, *COST_ALIASES, "moment:P"],
                      "amplitude (l1), power (l2), moment:P with P > 0, or an expression "
                      "in x such as min(abs(x), 3)")
    return _from_function(parse_function(s, "cost", x))


@lru_cache(maxsize=256)
def _from_function(expr: sp.Expr) -> Cost:
    """The cost of an expression in ``x``: a power :math:`|x|^p` (``0 < p <= 20``) is the
    named cost; any other expression is kept, once its hypotheses are decided."""
    found = shape(expr)
    if len(found.pieces) == 1 and found.pieces[0].terms is not None:
        terms = found.pieces[0].terms
        if len(terms) == 1 and terms[0][0] == 1 and terms[0][1].is_Rational:
            p = terms[0][1]
            if Fraction(int(p.p), int(p.q)) in EXPONENT_DOMAIN:
                return {1: AMPLITUDE, 2: POWER}.get(p, Cost(p))
    return Cost(None, expr.subs(x, y))


# ------------------------------------------------------------------------- hypotheses
def _fail(message: str) -> DomainError:
    return DomainError("cost", message)


def _number(v: sp.Expr) -> str:
    return shown(v) if not v.is_Rational else str(v)


def _text(expr: sp.Expr) -> str:
    """The text of a cost given in ``x`` (its half-line form if it is symmetric)."""
    half = expr.subs(x, y)
    return expression_text(half) if x not in half.free_symbols else \
        _Printer({"order": "none"}).doprint(expr).replace("**", "^")


def _plain(expr: sp.Expr) -> str:
    return _Printer({"order": "none"}).doprint(expr).replace("**", "^")


def _check_symmetric(expr: sp.Expr) -> None:
    mirrored = expr.subs(x, -x)
    if mirrored == expr or sp.expand(mirrored - expr) == 0:
        return
    for t in (1, 2, 3, Fraction(1, 2), Fraction(1, 3), Fraction(5, 2), 7, 10, 100):
        point = sp.Rational(t.numerator, t.denominator) if isinstance(t, Fraction) \
            else sp.Integer(t)
        plus, minus = _value_at(expr, x, point), _value_at(expr, x, -point)
        if plus is None or minus is None:
            continue
        if exact_sign(from_sympy(plus - minus), "cost") != 0:
            raise _fail(f"the theorems need a symmetric cost, L(-x) = L(x); "
                        f"{_plain(expr)} is {_number(plus)} at x = {point} and "
                        f"{_number(minus)} at x = -{point}")
    raise _fail(f"cannot decide whether {_plain(expr)} is symmetric "
                "(L(-x) = L(x)); write it in abs(x)")


_SWITCHES = (sp.Abs, sp.Min, sp.Max, sp.Piecewise)


def _innermost_switch(expr: sp.Expr) -> sp.Expr | None:
    """A node ``abs``, ``min``, ``max`` or indicator depending on ``y`` whose arguments
    have none."""
    for node in sp.postorder_traversal(expr):
        if isinstance(node, _SWITCHES) and y in node.free_symbols:
            return node
    return None


def _switch_functions(node: sp.Expr) -> list[sp.Expr]:
    """The functions whose sign chooses the branch of ``node``."""
    if isinstance(node, sp.Abs):
        return [node.args[0]]
    if isinstance(node, (sp.Min, sp.Max)):
        args = node.args
        return [a - c for j, a in enumerate(args) for c in args[j + 1:]]
    relation = node.args[0].cond
    return [relation.lhs - relation.rhs]


def _branch(node: sp.Expr, point: sp.Expr) -> sp.Expr:
    """The expression ``node`` is on a neighbourhood of the sample ``point`` (strictly
    inside a piece: every switching function has a nonzero sign there)."""
    if isinstance(node, sp.Abs):
        s = _sign_at(node.args[0], point)
        return node.args[0] if s >= 0 else -node.args[0]
    if isinstance(node, (sp.Min, sp.Max)):
        best = node.args[0]
        for a in node.args[1:]:
            order = _sign_at(a - best, point)
            if (order < 0 and isinstance(node, sp.Min)) or (order > 0
                                                            and isinstance(node, sp.Max)):
                best = a
        return best
    relation = node.args[0].cond
    holds = _relation_holds(relation, _sign_at(relation.lhs - relation.rhs, point))
    return node.args[0].expr if holds else node.args[1].expr


def _relation_holds(relation: sp.Basic, difference_sign: int) -> bool:
    return {">": difference_sign > 0, ">=": difference_sign >= 0,
            "<": difference_sign < 0, "<=": difference_sign <= 0}[relation.rel_op]


def _sign_at(f: sp.Expr, point: sp.Expr) -> int:
    value = f.subs(y, point)
    if not value.is_number or value.has(sp.zoo, sp.nan, sp.oo, -sp.oo, sp.I):
        raise _fail(f"{shown(f)} is not defined at |x| = {_number(point)}")
    try:
        return exact_sign(from_sympy(value), "cost")
    except DomainError as err:
        raise _fail(f"{shown(f)} is not a real number at |x| = {_number(point)}") from err


def _inside(lo: sp.Expr, hi: sp.Expr) -> sp.Expr:
    """A rational point strictly between the exact ``lo`` and ``hi`` (or ``oo``)."""
    if hi is sp.oo:
        if lo.is_Rational:
            return lo + 1
        return sp.Integer(math.floor(float(enclosure(from_sympy(lo), 64).upper())) + 1)
    if lo.is_Rational and hi.is_Rational:
        return (lo + hi) / 2
    with_lo = enclosure(from_sympy(lo), 256)
    with_hi = enclosure(from_sympy(hi), 256)
    mid = (with_lo + with_hi) / 2
    man, exp = mid.mid().man_exp()
    t = sp.Rational(int(man)) * sp.Integer(2) ** int(exp)
    if ext_compare(t, lo) <= 0 or ext_compare(t, hi) >= 0:
        raise _fail("two cuts of the cost are too close to separate")
    return t


def _roots(f: sp.Expr, lo: sp.Expr, hi: sp.Expr) -> list[sp.Expr]:
    """The exact roots of ``f`` in :math:`(lo, hi)` (``sympy.solveset``); an interval of
    zeros gives none (both branches agree there)."""
    found = sp.solveset(f, y, sp.Interval.open(lo, hi))
    if found is sp.S.EmptySet:
        return []
    if isinstance(found, sp.FiniteSet):
        roots = [r for r in found if r.is_real is not False]
        if all(r.is_number and not r.has(sp.I) for r in roots):
            return roots
    if isinstance(found, sp.Interval) and f.subs(y, _inside(found.start, found.end)) == 0:
        return []
    raise _fail(f"cannot locate where {shown(f)} changes sign (an abs, min, max or "
                "indicator of this cost); write its switching points as numbers, "
                "e.g. min(abs(x), 3)")


def _resolve(expr: sp.Expr, lo: sp.Expr, hi: sp.Expr, out: list) -> None:
    """Cut ``expr`` on :math:`(lo, hi)` into analytic pieces appended to ``out``."""
    node = _innermost_switch(expr)
    if node is None:
        out.append((lo, hi, expr))
        return
    cuts: list[sp.Expr] = []
    for f in _switch_functions(node):
        cuts += _roots(f, lo, hi)
    cuts = _sorted_distinct(cuts)
    if len(cuts) + len(out) > MAX_PIECES:
        raise _fail(f"the cost switches at more than {MAX_PIECES} points")
    for a, c in zip([lo, *cuts], [*cuts, hi], strict=True):
        branch = _branch(node, _inside(a, c))
        _resolve(expr.xreplace({node: branch}), a, c, out)


def _sorted_distinct(values: list[sp.Expr]) -> list[sp.Expr]:
    out: list[sp.Expr] = []
    for v in values:
        if all(ext_compare(v, w) != 0 for w in out):
            out.append(v)
    return sorted(out, key=lambda v: float(enclosure(from_sympy(v), 128).mid()))


def _value_at(expr: sp.Expr, var: sp.Symbol, point: sp.Expr) -> sp.Expr | None:
    """``expr`` at the exact ``point``, every switch decided exactly (None where it is
    not a finite real number)."""
    def evaluate(e: sp.Expr) -> sp.Expr:
        if var not in e.free_symbols:
            return e
        if e == var:
            return point
        args = [evaluate(a) for a in e.args] if not isinstance(e, sp.Piecewise) else []
        if isinstance(e, sp.Abs):
            return args[0] if _exact_sign(args[0]) >= 0 else -args[0]
        if isinstance(e, (sp.Min, sp.Max)):
            best = args[0]
            for a in args[1:]:
                order = _exact_sign(a - best)
                if (order < 0 and isinstance(e, sp.Min)) or (order > 0
                                                             and isinstance(e, sp.Max)):
                    best = a
            return best
        if isinstance(e, sp.Piecewise):
            relation = e.args[0].cond
            s = _exact_sign(evaluate(relation.lhs) - evaluate(relation.rhs))
            return e.args[0].expr if _relation_holds(relation, s) else e.args[1].expr
        return e.func(*args)

    try:
        value = evaluate(expr)
    except DomainError:
        return None
    if not value.is_number or value.has(sp.zoo, sp.nan, sp.oo, -sp.oo, sp.I):
        return None
    try:
        if not enclosure(from_sympy(value), 64).is_finite():
            return None
    except DomainError:
        return None
    return value


def _exact_sign(v: sp.Expr) -> int:
    if not v.is_number or v.has(sp.zoo, sp.nan, sp.oo, -sp.oo, sp.I):
        raise DomainError("cost", "not a number")
    return exact_sign(from_sympy(v), "cost")


def _terms(expr: sp.Expr) -> tuple[tuple[sp.Expr, sp.Rational], ...] | None:
    r""":math:`\sum_i c_i y^{p_i}` as ``((c_i, p_i), ...)`` sorted by exponent, or None."""
    collected: dict[sp.Rational, sp.Expr] = {}
    for term in sp.Add.make_args(sp.expand(expr)):
        coeff, power = term.as_coeff_exponent(y)
        if coeff.free_symbols or not power.is_Rational or power < 0:
            return None
        collected[power] = collected.get(power, sp.Integer(0)) + coeff
    return tuple(sorted(((c, p) for p, c in collected.items() if c != 0),
                        key=lambda cp: cp[1]))


def _where(lo: sp.Expr, hi: sp.Expr) -> str:
    return f"|x| in ({_number(lo)}, {'oo' if hi is sp.oo else _number(hi)})"


@lru_cache(maxsize=256)
@exclusive
def shape(expr: sp.Expr) -> Shape:
    r"""The cost ``expr`` (in ``x``) on :math:`[0, \infty)`, cut into analytic pieces,
    with the theorems' hypotheses decided: symmetric, defined and finite everywhere,
    non-decreasing in :math:`|x|`, non-negative.

    Raises
    ------
    DomainError
        Naming the hypothesis that fails, or that cannot be decided.
    """
    _check_symmetric(expr)
    half = expr.subs(x, y)
    raw: list[tuple[sp.Expr, sp.Expr, sp.Expr]] = []
    _resolve(half, sp.Integer(0), sp.oo, raw)
    # merge neighbours that are one expression (a switch whose branches agree there)
    merged: list[tuple[sp.Expr, sp.Expr, sp.Expr]] = []
    for lo, hi, e in raw:
        if merged and sp.expand(merged[-1][2] - e) == 0 \
                and _value_at(half, y, lo) == merged[-1][2].subs(y, lo):
            merged[-1] = (merged[-1][0], hi, merged[-1][2])
        else:
            merged.append((lo, hi, e))
    pieces = []
    for lo, hi, e in merged:
        where = _where(lo, hi)
        found = behaviour(e, y, lo, hi, where)
        if found.direction is None:
            witness = decrease_witness(e, y, lo, hi)
            if witness is not None:
                s, t = witness
                raise _fail(f"the theorems need a cost non-decreasing in |x|; "
                            f"{_text(expr)} decreases from |x| = {s} to "
                            f"|x| = {t}")
            raise _fail(f"cannot decide whether {_text(expr)} is non-decreasing "
                        f"for {where}")
        if found.direction < 0:
            raise _fail(f"the theorems need a cost non-decreasing in |x|; "
                        f"{_text(expr)} decreases for {where}")
        pieces.append(Piece(lo, hi, e, _terms(e), found))
    cuts = tuple(lo for lo, _, _ in merged)
    values = []
    for j, cut in enumerate(cuts):
        value = _value_at(half, y, cut)
        if value is None:
            raise _fail(f"the cost must be finite everywhere; {_text(expr)} is "
                        f"not a finite real number at |x| = {_number(cut)}")
        left = pieces[j - 1].behaviour.end if j else None
        right = pieces[j].behaviour.start
        if (left is not None and ext_compare(left, value) > 0) or \
                (right is None or ext_compare(value, right) > 0):
            raise _fail(f"the theorems need a cost non-decreasing in |x|; "
                        f"{_text(expr)} decreases at |x| = {_number(cut)}")
        values.append(value)
    if ext_compare(values[0], sp.Integer(0)) < 0:
        raise _fail(f"the theorems need a non-negative cost; {_text(expr)} is "
                    f"{_number(values[0])} at x = 0")
    return Shape(cuts, tuple(values), tuple(pieces))


def general_costs_note() -> str:
    """One line on what a cost may be (for messages and help texts)."""
    return ("a cost is amplitude, power, moment:P or an expression in x, symmetric and "
            "non-decreasing in |x| (e.g. min(abs(x), 3), log(1 + abs(x)), abs(x) > 2)")


__all__ = ["AMPLITUDE", "COST_ALIASES", "EXPONENT_DOMAIN", "MAX_PIECES", "POWER", "Cost",
           "Piece", "Shape", "expression_text", "general_costs_note",
           "parse_cost", "shape"]
