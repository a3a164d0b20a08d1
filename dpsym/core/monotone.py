r"""Monotonicity, sign, limits and growth of a function of one variable, decided.

A user's cost (:mod:`dpsym.core.costs`) is cut into pieces on which it is one analytic
expression :math:`g(y)` of :math:`y = |x| \ge 0` (no ``abs``, ``min``, ``max`` or
indicator left). On a piece :math:`(a, b)`, :func:`behaviour` decides, by rules that are
theorems and never by sampling:

* the *direction* of :math:`g`: non-decreasing, non-increasing or constant, by the
  calculus of monotone functions (a sum of non-decreasing functions is non-decreasing, a
  product of non-negative non-decreasing ones too, :math:`\exp`, :math:`\log` and
  positive powers preserve the direction on their domain, a negative power or a negative
  factor reverses it), and, where these rules say nothing, exactly for a polynomial in
  :math:`y^{1/q}` with rational coefficients (the real roots of its derivative isolated
  in rationals, its sign decided between them);
* the values (limits) of :math:`g` at both ends, in the extended reals, carried through
  the same rules (:math:`\exp(-\infty) = 0`, :math:`\log(0^+) = -\infty`...);
* its *sign* on the open piece (an analytic non-constant monotone function is strictly
  monotone, so its values on :math:`(a, b)` lie strictly between those at the ends);
* where :math:`g` is defined: a logarithm's argument must be positive, a fractional
  power's base non-negative, a divisor nonzero, on the whole piece; a
  :class:`~dpsym.errors.DomainError` says where it is not.

:func:`decrease_witness` looks for two points where :math:`g` decreases (Arb balls that
separate the two values); :func:`majorant` bounds :math:`|g(y)| \le A\,e^{cy}\,y^m` for
:math:`y \ge Y \ge 1`, with :math:`A` an exact upper bound, by rules that are
inequalities (the bound of a sum is the sum of the bounds, the exponential of a
function below :math:`cy + m\log y + k` is below :math:`e^k e^{cy} y^m`...): it proves an
expectation finite and bounds the tail of a sum or an integral.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction

import flint
import sympy as sp

from dpsym.core.expressions import enclosure, from_sympy
from dpsym.core.expressions import sign as exact_sign
from dpsym.errors import DomainError
from dpsym.precision import arb_fraction, arb_workprec, exclusive

#: Points of a piece at which :func:`decrease_witness` compares values.
WITNESS_POINTS = 48


@dataclass(frozen=True)
class Behaviour:
    r"""What is decided about a function on an interval :math:`(a, b)`.

    Attributes
    ----------
    direction : int or None
        1 non-decreasing, -1 non-increasing, 0 constant, None undecided.
    start, end : sympy.Expr or None
        The values (limits) at :math:`a^+` and :math:`b^-`, exact, :math:`\pm\infty`
        allowed; None if undecided.
    sign : int or None
        The sign on the open interval: 1 positive, -1 negative, 0 identically zero, None
        mixed or undecided.
    """

    direction: int | None
    start: sp.Expr | None
    end: sp.Expr | None
    sign: int | None


def ext_sign(v: sp.Expr) -> int:
    r"""The sign of an exact constant or :math:`\pm\infty`, decided rigorously."""
    if v is sp.oo:
        return 1
    if v is sp.S.NegativeInfinity:
        return -1
    return exact_sign(from_sympy(v), "cost")


def ext_compare(a: sp.Expr, c: sp.Expr) -> int:
    r"""-1, 0 or 1 as :math:`a <, =, > c` in the extended reals."""
    if a == c:
        return 0
    if a is sp.oo or c is sp.S.NegativeInfinity:
        return 1
    if a is sp.S.NegativeInfinity or c is sp.oo:
        return -1
    return ext_sign(a - c)


def _finite(v: sp.Expr | None) -> bool:
    return v is not None and v.is_number and not v.has(sp.oo, -sp.oo, sp.zoo, sp.nan) \
        and v.is_real is not False


def _clean(v: sp.Expr | None) -> sp.Expr | None:
    """An extended real, or None for nan/complex infinity/an imaginary value."""
    if v is None or v.has(sp.nan, sp.zoo, sp.I):
        return None
    if v in (sp.oo, sp.S.NegativeInfinity) or _finite(v):
        return v
    return None


def sign_from(direction: int | None, start: sp.Expr | None, end: sp.Expr | None
              ) -> int | None:
    """The sign on the open interval of a monotone analytic function with these end
    values."""
    if direction is None or start is None or end is None:
        return None
    if direction == 0:
        return ext_sign(start)
    lo, hi = (start, end) if direction > 0 else (end, start)
    if ext_sign(lo) >= 0:
        return 1
    if ext_sign(hi) <= 0:
        return -1
    return None


def shown(expr: sp.Expr) -> str:
    """A short text of an expression for messages (``|x|`` for the piece's variable)."""
    text = str(expr).replace("**", "^")
    return text if len(text) <= 50 else text[:47] + "..."


class _Analysis:
    """The rules of :func:`behaviour` on one interval, memoised per node."""

    def __init__(self, var: sp.Symbol, a: sp.Expr, b: sp.Expr, where: str) -> None:
        self.var, self.a, self.b, self.where = var, a, b, where
        self.memo: dict[sp.Expr, Behaviour] = {}

    def fail(self, message: str) -> DomainError:
        return DomainError("cost", f"{message} for {self.where}")

    def __call__(self, f: sp.Expr) -> Behaviour:
        if f not in self.memo:
            self.memo[f] = self._behave(f)
        return self.memo[f]

    def _behave(self, f: sp.Expr) -> Behaviour:
        if self.var not in f.free_symbols:
            if not _finite(f):
                raise self.fail(f"{shown(f)} is not a finite real number")
            return Behaviour(0, f, f, ext_sign(f))
        if f == self.var:
            return Behaviour(1, self.a, self.b, sign_from(1, self.a, self.b))
        found = self._rule(f)
        if found.direction is None:
            found = polynomial_behaviour(f, self.var, self.a, self.b) or found
        return found

    def _rule(self, f: sp.Expr) -> Behaviour:
        unknown = Behaviour(None, None, None, None)
        if isinstance(f, sp.Add):
            parts = [self(t) for t in f.args]
            return self._combine(parts, lambda vs: sp.Add(*vs), _sum_direction(parts))
        if isinstance(f, sp.Mul):
            return self._product(f)
        if isinstance(f, sp.Pow):
            base, power = f.args
            if self.var in power.free_symbols:  # c^g = exp(g log c), c > 0
                return self(sp.exp(power * sp.log(base)))
            return self._power(base, power)
        if isinstance(f, sp.exp):
            inner = self(f.args[0])
            return self._monotone_map(inner, 1, _exp)
        if isinstance(f, sp.log):
            inner = self(f.args[0])
            if inner.sign is None or inner.sign < 0 or inner.sign == 0:
                raise self.fail(f"log({shown(f.args[0])}) needs a positive argument and it "
                                "is not proven positive")
            return self._monotone_map(inner, 1, _log)
        if isinstance(f, sp.Abs):
            inner = self(f.args[0])
            if inner.sign is None:
                return unknown
            return self(f.args[0] if inner.sign >= 0 else -f.args[0])
        return unknown

    def _combine(self, parts: list[Behaviour], op, direction: int | None) -> Behaviour:
        starts = [q.start for q in parts]
        ends = [q.end for q in parts]
        start = None if None in starts else _clean(op(starts))
        end = None if None in ends else _clean(op(ends))
        return Behaviour(direction, start, end, sign_from(direction, start, end))

    def _product(self, f: sp.Expr) -> Behaviour:
        constant = sp.Mul(*[t for t in f.args if self.var not in t.free_symbols])
        factors = [self(t) for t in f.args if self.var in t.free_symbols]
        # |F| has the direction sign(F) * dir(F); a product of non-negative functions of
        # one direction has that direction
        size_dir: int | None = 0
        sgn = ext_sign(constant)
        for q in factors:
            if q.sign is None or q.direction is None or q.sign == 0:
                size_dir = None
                break
            d = q.sign * q.direction
            if d != 0:
                if size_dir not in (0, d):
                    size_dir = None
                    break
                size_dir = d
            sgn *= q.sign
        direction = None if size_dir is None else sgn * size_dir
        return self._combine([Behaviour(0, constant, constant, ext_sign(constant)), *factors],
                             lambda vs: _product(vs), direction)

    def _power(self, base: sp.Expr, power: sp.Expr) -> Behaviour:
        inner = self(base)
        if not power.is_Rational:
            raise self.fail(f"the exponent {shown(power)} is not rational")
        integer = power.is_Integer
        if inner.sign is None:
            if integer and power > 0 and int(power) % 2 == 1:
                return self._monotone_map(inner, 1, lambda v: _pow(v, power, 1))
            if not integer:
                raise self.fail(f"{shown(base)} to the power {power} needs a non-negative "
                                "base and it is not proven non-negative")
            return Behaviour(None, None, None, None)
        if inner.sign < 0 and not integer:
            raise self.fail(f"{shown(base)} to the power {power} needs a non-negative base")
        if power < 0 and inner.sign == 0:
            raise self.fail(f"{shown(base)} to a negative power divides by zero")
        if inner.sign == 0:
            return Behaviour(0, sp.Integer(0), sp.Integer(0), 0)
        # on the open piece the base has one sign: |base|^power, times (-1)^power
        flip = 1 if inner.sign > 0 else (-1) ** int(power)
        size_dir = None if inner.direction is None else inner.sign * inner.direction
        direction = None if size_dir is None else flip * size_dir * (1 if power > 0 else -1)
        start = _pow(inner.start, power, inner.sign)
        end = _pow(inner.end, power, inner.sign)
        return Behaviour(direction, start, end, flip)

    def _monotone_map(self, inner: Behaviour, direction: int, op) -> Behaviour:
        d = None if inner.direction is None else inner.direction * direction
        start = None if inner.start is None else _clean(op(inner.start))
        end = None if inner.end is None else _clean(op(inner.end))
        return Behaviour(d, start, end, sign_from(d, start, end))


def _sum_direction(parts: list[Behaviour]) -> int | None:
    dirs = {q.direction for q in parts}
    if None in dirs:
        return None
    if dirs <= {0}:
        return 0
    if dirs <= {0, 1}:
        return 1
    if dirs <= {0, -1}:
        return -1
    return None


def _product(values: list[sp.Expr]) -> sp.Expr:
    out = sp.Integer(1)
    for v in values:
        out = out * v
    return out


def _exp(v: sp.Expr) -> sp.Expr:
    if v is sp.S.NegativeInfinity:
        return sp.Integer(0)
    return sp.exp(v)


def _log(v: sp.Expr) -> sp.Expr:
    if v == 0:
        return sp.S.NegativeInfinity
    return sp.log(v)


def _pow(v: sp.Expr | None, power: sp.Rational, sign: int) -> sp.Expr | None:
    """``v^power`` in the extended reals, ``v`` a limit of a base of sign ``sign``."""
    if v is None:
        return None
    if v == 0 and power < 0:
        return sp.oo if sign > 0 or int(power) % 2 == 0 else sp.S.NegativeInfinity
    if v in (sp.oo, sp.S.NegativeInfinity):
        if power < 0:
            return sp.Integer(0)
        return sp.oo if v is sp.oo or int(power) % 2 == 0 else sp.S.NegativeInfinity
    return _clean(sp.Pow(v, power))


@exclusive
def behaviour(f: sp.Expr, var: sp.Symbol, a: sp.Expr, b: sp.Expr, where: str
              ) -> Behaviour:
    r"""Direction, end values and sign of ``f`` on :math:`(a, b)` (``b`` may be
    :math:`\infty`), decided by the rules of the module docstring.

    Raises
    ------
    DomainError
        If ``f`` is not defined on the whole interval (``where`` names it in the message),
        or where that cannot be decided.
    """
    return _Analysis(var, a, b, where)(f)


def _rational(v: sp.Expr) -> Fraction | None:
    return Fraction(int(v.p), int(v.q)) if v.is_Rational else None


def polynomial_behaviour(f: sp.Expr, var: sp.Symbol, a: sp.Expr, b: sp.Expr
                         ) -> Behaviour | None:
    r"""The behaviour of a polynomial in :math:`y^{1/q}` with rational coefficients on
    :math:`(a, b)`, decided exactly (None for any other function, or for ends that are
    irrational after the substitution): the sign of the derivative on the interval is
    constant where its factors of odd multiplicity have no root inside (Sturm counts,
    ``sympy.Poly.count_roots``), and is then its sign at a rational point."""
    q, poly = _as_polynomial(f, var)
    if poly is None:
        return None
    z = sp.Symbol("z", nonnegative=True)
    lo = sp.Integer(0) if a == 0 else (sp.Pow(a, sp.Rational(1, q)) if q > 1 else a)
    hi = b if b is sp.oo else (sp.Pow(b, sp.Rational(1, q)) if q > 1 else b)
    lo_r = _rational(lo)
    hi_r = None if hi is sp.oo else _rational(hi)
    if lo_r is None or (hi is not sp.oo and hi_r is None):
        return None
    p = sp.Poly(poly, z)
    start = _clean(p.as_expr().subs(z, lo))
    if hi is sp.oo:
        end = start if p.degree() <= 0 else _clean(p.LC() * sp.oo)
    else:
        end = _clean(p.as_expr().subs(z, hi))
    if p.degree() <= 0:
        return Behaviour(0, start, start, ext_sign(start))
    direction = sign_on(p.diff(z), lo_r, hi_r)
    return Behaviour(direction, start, end, sign_on(p, lo_r, hi_r))


def _as_polynomial(f: sp.Expr, var: sp.Symbol) -> tuple[int, sp.Expr | None]:
    """``(q, P(z))`` with ``f = P(var^(1/q))``, ``P`` with rational coefficients, or
    ``(1, None)``."""
    terms = sp.Add.make_args(sp.expand(f))
    q = 1
    split = []
    for term in terms:
        coeff, power = term.as_coeff_exponent(var)
        if coeff.free_symbols or not coeff.is_Rational or not power.is_Rational \
                or power < 0:
            return 1, None
        q = math.lcm(q, int(power.q))
        split.append((coeff, power))
    z = sp.Symbol("z", nonnegative=True)
    return q, sp.Add(*[coeff * z ** int(power * q) for coeff, power in split])


def sign_on(p: sp.Poly, lo: Fraction, hi: Fraction | None) -> int | None:
    r"""The sign of the polynomial ``p`` (rational coefficients) on the open interval
    :math:`(lo, hi)` (``hi`` None: :math:`\infty`) where it is one sign apart from
    isolated zeros: 1, -1, 0 for the zero polynomial, None where it changes sign."""
    if p.is_zero:
        return 0
    odd = sp.Poly(1, *p.gens)
    for factor, multiplicity in p.sqf_list()[1]:
        if multiplicity % 2:
            odd *= factor
    if odd.degree() > 0:
        lo_q = sp.Rational(lo.numerator, lo.denominator)
        hi_q = None if hi is None else sp.Rational(hi.numerator, hi.denominator)
        inside = odd.count_roots(lo_q, hi_q) - int(odd.eval(lo_q) == 0) \
            - int(hi_q is not None and odd.eval(hi_q) == 0)
        if inside > 0:
            return None
    top = hi if hi is not None else lo + 1
    for j in range(1, 2 * p.degree() + 3):
        t = lo + (top - lo) * Fraction(j, 2 * p.degree() + 3)
        value = p.eval(sp.Rational(t.numerator, t.denominator))
        if value != 0:
            return int(sp.sign(value))
    raise AssertionError("a nonzero polynomial vanished at more points than its degree")


@exclusive
def decrease_witness(f: sp.Expr, var: sp.Symbol, a: sp.Expr, b: sp.Expr
                     ) -> tuple[Fraction, Fraction] | None:
    r"""Two rational points :math:`s < t` of :math:`(a, b)` with :math:`f(s) > f(t)`
    proven by Arb balls, or None if none of the points tried shows a decrease."""
    lo = Fraction(_upper_rational(a)) if a != 0 else Fraction(0)
    if b is sp.oo:
        points = [lo + Fraction(j, 8) for j in range(1, 17)] \
            + [lo + Fraction(2) ** j for j in range(1, WITNESS_POINTS - 16)]
    else:
        hi = _lower_rational(b)
        if hi <= lo:
            return None
        points = [lo + (hi - lo) * Fraction(j, WITNESS_POINTS)
                  for j in range(1, WITNESS_POINTS)]
    points = [t for t in points if ext_compare(sp.Rational(t.numerator, t.denominator), a) > 0
              and (b is sp.oo or ext_compare(sp.Rational(t.numerator, t.denominator), b) < 0)]
    balls: list[flint.arb | None] = []
    for t in points:
        value = f.subs(var, sp.Rational(t.numerator, t.denominator))
        if not _finite(value):
            balls.append(None)
            continue
        try:
            balls.append(enclosure(from_sympy(value), 128))
        except DomainError:
            balls.append(None)
    best: tuple[Fraction, flint.arb] | None = None
    for t, ball in zip(points, balls, strict=True):
        if ball is None or not ball.is_finite():
            continue
        if best is not None and ball < best[1]:
            return best[0], t
        if best is None or ball > best[1]:
            best = (t, ball)
    return None


def _upper_rational(v: sp.Expr) -> Fraction:
    """A rational at or just above the exact ``v`` (at most 2^-40 relative above)."""
    if v.is_Rational:
        return Fraction(int(v.p), int(v.q))
    with arb_workprec(128):
        ball = enclosure(from_sympy(v), 128)
    return arb_fraction(ball.upper().mid()) + Fraction(1, 2**40)


def _lower_rational(v: sp.Expr) -> Fraction:
    """A rational at or just below the exact ``v``."""
    if v.is_Rational:
        return Fraction(int(v.p), int(v.q))
    with arb_workprec(128):
        ball = enclosure(from_sympy(v), 128)
    return arb_fraction(ball.lower().mid()) - Fraction(1, 2**40)


# ------------------------------------------------------------------------- growth
@dataclass(frozen=True)
class Majorant:
    r""":math:`|g(y)| \le A\,e^{c y}\,y^m` for every :math:`y \ge Y` (:math:`Y \ge 1`).

    Attributes
    ----------
    scale : flint.arb
        An upper bound of :math:`A` (an exact Arb number, the upper end of a ball).
    rate : Fraction
        :math:`c` (an exact rational upper bound of the exponential rate).
    power : Fraction
        :math:`m`.
    """

    scale: flint.arb
    rate: Fraction
    power: Fraction


@dataclass(frozen=True)
class _Linear:
    r"""An upper bound :math:`c y + m \log y + k` (:math:`k` an Arb upper bound)."""

    rate: Fraction
    power: Fraction
    shift: flint.arb


def _upper(x: flint.arb) -> flint.arb:
    return flint.arb(x.upper())


def _frac_up(v: sp.Expr) -> Fraction | None:
    """A rational upper bound of an exact constant (tight to about 2^-100)."""
    if v.is_Rational:
        return Fraction(int(v.p), int(v.q))
    ball = enclosure(from_sympy(v), 128)
    if not ball.is_finite():
        return None
    return arb_fraction(ball.upper().mid())


class _Growth:
    r"""The rules of :func:`majorant` for :math:`y \\ge Y \\ge 1`."""

    def __init__(self, var: sp.Symbol, start: Fraction, slack: Fraction) -> None:
        self.var, self.start, self.slack = var, start, slack

    def bound(self, f: sp.Expr) -> Majorant | None:
        if self.var not in f.free_symbols:
            return Majorant(_upper(abs(enclosure(from_sympy(f), 128))), Fraction(0),
                            Fraction(0))
        if f == self.var:
            return Majorant(flint.arb(1), Fraction(0), Fraction(1))
        if isinstance(f, sp.Add):
            found = [self.bound(t) for t in f.args]
            parts = [q for q in found if q is not None]
            if len(parts) < len(found):
                return None
            return Majorant(_upper(sum((q.scale for q in parts), flint.arb(0))),
                            max(q.rate for q in parts), max(q.power for q in parts))
        if isinstance(f, sp.Mul):
            found = [self.bound(t) for t in f.args]
            parts = [q for q in found if q is not None]
            if len(parts) < len(found):
                return None
            scale = flint.arb(1)
            for q in parts:
                scale *= q.scale
            return Majorant(_upper(scale), sum((q.rate for q in parts), Fraction(0)),
                            sum((q.power for q in parts), Fraction(0)))
        if isinstance(f, sp.Pow):
            base, power = f.args
            if self.var in power.free_symbols:
                return self.bound(sp.exp(power * sp.log(base)))
            if not power.is_Rational:
                return None
            r = Fraction(int(power.p), int(power.q))
            if r < 0:
                low = self.lower_at_start(base)
                if low is None:
                    return None
                return Majorant(_upper(low ** flint.arb(flint.fmpq(r.numerator,
                                                                      r.denominator))),
                                Fraction(0), Fraction(0))
            inner = self.bound(base)
            if inner is None:
                return None
            rr = flint.arb(flint.fmpq(r.numerator, r.denominator))
            return Majorant(_upper(inner.scale ** rr), inner.rate * r, inner.power * r)
        if isinstance(f, sp.exp):
            lin = self.linear(f.args[0])
            if lin is None:
                return None
            return Majorant(_upper(lin.shift.exp()), lin.rate, lin.power)
        if isinstance(f, sp.log):
            # log g <= log A + c y + m log y <= |log A| + (c + |m|) y for y >= 1, and
            # log g >= log g(Y) where g is non-decreasing (checked by the caller's rules)
            inner = self.bound(f.args[0])
            low = self.lower_at_start(f.args[0])
            if inner is None or low is None or not low > 0:
                return None
            top = _upper(abs(inner.scale.log()) + abs(low.log()))
            rate = inner.rate + abs(inner.power)
            return Majorant(_upper(top + flint.arb(flint.fmpq(rate.numerator,
                                                                rate.denominator))),
                            Fraction(0), Fraction(1))
        return None

    def lower_at_start(self, f: sp.Expr) -> flint.arb | None:
        r"""A positive lower bound of ``f`` on :math:`[Y, \infty)`, where ``f`` is proven
        non-decreasing there (its value at :math:`Y`)."""
        y0 = sp.Rational(self.start.numerator, self.start.denominator)
        try:
            found = behaviour(f, self.var, y0, sp.oo, f"|x| >= {self.start}")
        except DomainError:
            return None
        if found.direction not in (0, 1) or found.start is None or not _finite(found.start):
            return None
        ball = enclosure(from_sympy(found.start), 128)
        return flint.arb(ball.lower()) if ball > 0 else None

    def linear(self, f: sp.Expr) -> _Linear | None:
        r"""An upper bound :math:`f(y) \le c y + m \log y + k` on :math:`[Y, \infty)`."""
        if self.var not in f.free_symbols:
            return _Linear(Fraction(0), Fraction(0),
                           _upper(enclosure(from_sympy(f), 128)))
        if f == self.var:
            return _Linear(Fraction(1), Fraction(0), flint.arb(0))
        if isinstance(f, sp.Add):
            found = [self.linear(t) for t in f.args]
            parts = [q for q in found if q is not None]
            if len(parts) < len(found):
                return None
            return _Linear(sum((q.rate for q in parts), Fraction(0)),
                           sum((q.power for q in parts), Fraction(0)),
                           _upper(sum((q.shift for q in parts), flint.arb(0))))
        if isinstance(f, sp.Mul):
            constant = sp.Mul(*[t for t in f.args if self.var not in t.free_symbols])
            rest = sp.Mul(*[t for t in f.args if self.var in t.free_symbols])
            c = _frac_up(constant) if constant.is_Rational else None
            if c is not None and rest != f:
                if c >= 0:
                    inner = self.linear(rest)
                    return None if inner is None else _Linear(
                        inner.rate * c, inner.power * c, _upper(inner.shift * _ball(c)))
                low = self.lower_linear(rest)
                return None if low is None else _Linear(
                    low.rate * c, low.power * c, _upper(low.shift * _ball(c)))
        if isinstance(f, sp.log):
            argument = self.bound(f.args[0])
            if argument is None or not argument.scale > 0:
                return None
            return _Linear(argument.rate, argument.power, _upper(argument.scale.log()))
        return self._sublinear(f)

    def lower_linear(self, f: sp.Expr) -> _Linear | None:
        r"""A lower bound :math:`f(y) \ge c y + m \log y + k` (``shift`` a lower bound)."""
        if self.var not in f.free_symbols:
            ball = enclosure(from_sympy(f), 128)
            return _Linear(Fraction(0), Fraction(0), flint.arb(ball.lower()))
        if f == self.var:
            return _Linear(Fraction(1), Fraction(0), flint.arb(0))
        if isinstance(f, sp.Add):
            found = [self.lower_linear(t) for t in f.args]
            parts = [q for q in found if q is not None]
            if len(parts) < len(found):
                return None
            return _Linear(sum((q.rate for q in parts), Fraction(0)),
                           sum((q.power for q in parts), Fraction(0)),
                           flint.arb(sum((q.shift for q in parts), flint.arb(0)).lower()))
        if isinstance(f, sp.Mul):
            constant = sp.Mul(*[t for t in f.args if self.var not in t.free_symbols])
            rest = sp.Mul(*[t for t in f.args if self.var in t.free_symbols])
            if constant.is_Rational and rest != f:
                c = Fraction(int(constant.p), int(constant.q))
                inner = self.lower_linear(rest) if c >= 0 else self.linear(rest)
                return None if inner is None else _Linear(
                    inner.rate * c, inner.power * c, flint.arb((inner.shift * _ball(c))
                                                               .lower()))
        low = self.lower_at_start(f)  # a non-decreasing function is above its start
        if low is not None:
            return _Linear(Fraction(0), Fraction(0), low)
        return None

    def _sublinear(self, f: sp.Expr) -> _Linear | None:
        r"""For :math:`|f| \le A y^m`, :math:`m < 1` (no exponential growth): :math:`A y^m
        \le \eta y + (1 - m) A^{1/(1-m)} (m/\eta)^{m/(1-m)}` for any :math:`\eta > 0`
        (the maximum of :math:`A y^m - \eta y`); :math:`\eta` is the slack left. For
        :math:`m \le 0`, :math:`A`."""
        found = self.bound(f)
        if found is None or found.rate > 0:
            return None
        if found.rate < 0 or found.power <= 0:
            return _Linear(Fraction(0), Fraction(0), found.scale)
        if found.power == 1:
            return _Linear(_frac_up_arb(found.scale), Fraction(0), flint.arb(0))
        if found.power > 1:
            return None
        m, eta = found.power, self.slack
        mm = _ball(m)
        shift = (1 - mm) * found.scale ** (1 / (1 - mm)) * (mm / _ball(eta)) ** (mm / (1 - mm))
        return _Linear(eta, Fraction(0), _upper(shift))


def _ball(v: Fraction) -> flint.arb:
    return flint.arb(flint.fmpq(v.numerator, v.denominator))


def _frac_up_arb(x: flint.arb) -> Fraction:
    return arb_fraction(x.upper().mid())


@exclusive
def majorant(f: sp.Expr, var: sp.Symbol, start: Fraction, slack: Fraction = Fraction(1, 64)
             ) -> Majorant | None:
    r"""A bound :math:`|f(y)| \le A e^{cy} y^m` for every :math:`y \ge` ``start``
    (:math:`\ge 1`), or None where the rules give none (a growth faster than every
    exponential, :math:`e^{y^2}`). ``slack``: the exponential rate a sub-linear exponent
    may add (:math:`e^{\sqrt y} \le C_\eta e^{\eta y}`)."""
    if start < 1:
        raise ValueError("majorant: the start must be at least 1")
    with arb_workprec(128):
        return _Growth(var, start, slack).bound(f)


__all__ = ["Behaviour", "Majorant", "behaviour", "decrease_witness", "ext_compare",
           "ext_sign", "majorant", "polynomial_behaviour", "shown", "sign_from", "sign_on"]
