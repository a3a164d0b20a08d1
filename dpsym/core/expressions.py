r"""Exact numbers from text: a small, safe grammar of exact real expressions.

Every number a user gives dpsym (the API's parameters, the command line's options) is read
by :func:`parse` into an *exact* value: a :class:`fractions.Fraction` when it is rational,
otherwise a constant sympy expression built from rationals, :math:`\log`, :math:`\exp`,
square roots and rational powers, :math:`\pi` and :math:`e`. The text is tokenised and
parsed here by a recursive-descent parser; it is never given to ``eval`` or
``sympify``. The grammar (``^`` and ``**`` are the same operator, right-associative and
binding tighter than a unary minus, as in Python)::

    expression := term (("+" | "-") term)*
    term       := unary (("*" | "/") unary)*
    unary      := ("+" | "-") unary | power
    power      := atom (("^" | "**") unary)?
    atom       := NUMBER | CONSTANT | FUNCTION "(" expression ")" | "(" expression ")"
    NUMBER     := a decimal such as 2, 0.5, .5, 1e-6, 2.5E+3
    CONSTANT   := pi | e | E
    FUNCTION   := log | ln | exp | sqrt          (log and ln are the natural logarithm)

Examples: ``"1/3"``, ``"log(3)"``, ``"ln(2)/2"``, ``"exp(-1)"``, ``"sqrt(2)/4"``,
``"2^(1/3)"``, ``"1 + log(1.5)"``.

Inputs are bounded so that no text makes the parser (or sympy) work for long: at most
:data:`MAX_LENGTH` characters, :data:`MAX_DEPTH` nested parentheses and function calls,
:data:`MAX_DIGITS_READ` digits in a number, decimal exponents up to :data:`MAX_EXPONENT`,
exponents of powers rational with at most :data:`MAX_EXPONENT_DIGITS` digits, and every
intermediate value's magnitude in :math:`[10^{-L}, 10^{L}]` (or zero), with :math:`L` =
:data:`MAX_EXPONENT` + :data:`MAX_DIGITS_READ`. Every error is a
:class:`~dpsym.errors.DomainError` naming the parameter.

Signs and comparisons of irrational values are decided rigorously (:func:`compare`): by
Arb ball arithmetic (python-flint) at increasing precision, and, when a ball cannot
exclude equality (an exact zero such as :math:`\log 6 - \log 2 - \log 3`), by an exact
symbolic simplification; a comparison that neither decides is refused, never guessed.
"""

from __future__ import annotations

import math
import re
from collections.abc import Mapping
from decimal import Decimal
from fractions import Fraction
from functools import lru_cache
from typing import Any, TypeAlias

import flint
import sympy as sp

from dpsym.errors import DomainError
from dpsym.precision import arb_fraction, arb_workprec, exclusive

#: Longest text accepted.
MAX_LENGTH = 1000
#: Deepest nesting of parentheses, function calls and unary signs.
MAX_DEPTH = 40
#: Largest decimal exponent accepted in a number (``1e999999`` is refused, not expanded).
MAX_EXPONENT = 10_000
#: Largest number of digits read in a mantissa, a numerator or a denominator.
MAX_DIGITS_READ = 4000
#: Largest number of digits in the numerator or denominator of a power's exponent.
MAX_EXPONENT_DIGITS = 6
#: Largest decimal order of magnitude of any value built (and smallest of a nonzero one).
MAX_MAGNITUDE = MAX_EXPONENT + MAX_DIGITS_READ
#: Largest size in bits of the numerator or denominator of an exact rational built.
MAX_RATIONAL_BITS = 1 << 17
#: Precisions (bits) at which a sign is sought before symbolic simplification.
SIGN_PRECISIONS = (64, 256, 1024, 4096, 16384)

_MAGNITUDE_BITS = int(MAX_MAGNITUDE * math.log2(10)) + 1
_TOKEN = re.compile(r"""
    (?P<space>\s+)
  | (?P<number>(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)(?:[eE][+-]?[0-9]+)?)
  | (?P<name>[A-Za-z_][A-Za-z_0-9]*)
  | (?P<op>\*\*|>=|<=|[-+*/^()<>,])
""", re.VERBOSE)
_FUNCTIONS = {"log": sp.log, "ln": sp.log, "exp": sp.exp, "sqrt": sp.sqrt}
_CONSTANTS = {"pi": sp.pi, "e": sp.E, "E": sp.E}
#: The sympy node classes an exact value may contain (what :func:`enclosure` evaluates).
_NODES = (sp.Rational, sp.Add, sp.Mul, sp.Pow, sp.exp, sp.log, type(sp.pi), type(sp.E))

Exact: TypeAlias = Fraction | sp.Expr


def _shown(text: str) -> str:
    return repr(text if len(text) <= 40 else text[:37] + "...")


# ---------------------------------------------------------------------- decimals
def decimal(text: str, name: str) -> Fraction:
    """One decimal literal (``"2"``, ``"-0.5"``, ``"1e-6"``) as the rational it denotes.

    Raises
    ------
    DomainError
        For too many digits or a decimal exponent beyond :data:`MAX_EXPONENT`.
    """
    mantissa, _, exponent = text.lower().partition("e")
    if exponent and (len(exponent) > 12 or abs(int(exponent)) > MAX_EXPONENT):
        raise DomainError(name, f"exponent {exponent[:12]} is out of range "
                          f"(|exponent| <= {MAX_EXPONENT})")
    if len(mantissa.lstrip("+-")) > MAX_DIGITS_READ + 1:
        raise DomainError(name, f"at most {MAX_DIGITS_READ} digits are read in a number")
    value = Fraction(Decimal(mantissa))  # Decimal: no limit on the digits Python converts
    if exponent:
        value *= Fraction(10) ** int(exponent)
    return value


# ---------------------------------------------------------------------- rigorous balls
def exact_ball(expr: sp.Expr) -> flint.arb:
    r"""A ball containing ``expr`` at the current Arb precision: integers, rationals,
    :math:`\pi`, :math:`e`, sums, products, ``exp``, ``log`` and rational powers (a
    :class:`~dpsym.errors.DomainError` for any other node)."""
    return _ball(expr, flint.arb)


def exact_complex_ball(expr: sp.Expr) -> flint.acb:
    r""":func:`exact_ball` in the complex plane, with the principal branches sympy reads
    (:math:`\log z`, :math:`z^w = e^{w \log z}`): also :math:`i`, and powers whose exponent
    is not rational (a :class:`~dpsym.errors.DomainError` for any other node)."""
    return _ball(expr, flint.acb)


def _ball(expr: sp.Expr, kind: type[flint.arb] | type[flint.acb]) -> Any:
    """:func:`exact_ball` (``kind`` ``flint.arb``) or :func:`exact_complex_ball`
    (``flint.acb``)."""
    if isinstance(expr, sp.Integer):
        return kind(int(expr))
    if isinstance(expr, sp.Rational):
        return kind(flint.fmpq(int(expr.p), int(expr.q)))
    if expr is sp.pi:
        return kind.pi()
    if expr is sp.E:
        return kind(flint.arb.const_e())
    if expr is sp.I and kind is flint.acb:
        return flint.acb(0, 1)
    if isinstance(expr, sp.Add):
        total = kind(0)
        for term in expr.args:
            total += _ball(term, kind)
        return total
    if isinstance(expr, sp.Mul):
        product = kind(1)
        for factor in expr.args:
            product *= _ball(factor, kind)
        return product
    if isinstance(expr, sp.exp):
        return _ball(expr.args[0], kind).exp()
    if isinstance(expr, sp.log) and len(expr.args) == 1:
        return _ball(expr.args[0], kind).log()
    if isinstance(expr, sp.Pow) and expr.exp.is_Rational:
        base, p, q = _ball(expr.base, kind), int(expr.exp.p), int(expr.exp.q)
        if q != 1:
            base = base.root(q)
        return base ** p if p >= 0 else 1 / base ** (-p)
    if isinstance(expr, sp.Pow) and kind is flint.acb:
        return (_ball(expr.exp, kind) * _ball(expr.base, kind).log()).exp()
    raise DomainError("value", f"not an exact number dpsym evaluates: {str(expr)[:40]}")


@exclusive
def enclosure(value: Exact, prec: int = 64) -> flint.arb:
    """A ball containing the exact ``value``, computed at ``prec`` bits (rigorous)."""
    with arb_workprec(prec):
        if isinstance(value, Fraction):
            return flint.arb(flint.fmpq(value.numerator, value.denominator))
        return exact_ball(value)


@lru_cache(maxsize=1024)
def _sign(expr: sp.Expr) -> int | None:
    """The sign of a constant expression, decided rigorously, or None if undecided."""
    if expr.is_Rational:
        return int(sp.sign(expr))
    for prec in SIGN_PRECISIONS:
        ball = enclosure(expr, prec)
        if not ball.is_finite():
            continue
        if ball > 0:
            return 1
        if ball < 0:
            return -1
        if ball.is_zero():
            return 0
    simplified = sp.simplify(sp.logcombine(expr, force=True))  # exact transformations
    if simplified == 0:
        return 0
    if simplified.is_Rational:
        return int(sp.sign(simplified))
    return None


def sign(value: Exact, name: str = "value") -> int:
    """The sign (-1, 0 or 1) of an exact value, decided rigorously.

    Raises
    ------
    DomainError
        If neither ball arithmetic up to :data:`SIGN_PRECISIONS` bits nor exact
        simplification decides it (a value indistinguishable from zero).
    """
    if isinstance(value, Fraction):
        return (value > 0) - (value < 0)
    found = _sign(value)
    if found is None:
        raise DomainError(name, f"cannot decide the sign of {str(value)[:60]} (equal to "
                          f"zero to {SIGN_PRECISIONS[-1]} bits); give it in a simpler form")
    return found


def compare(value: Exact, bound: Exact, name: str = "value") -> int:
    """-1, 0 or 1 as ``value`` is below, equal to or above ``bound``, decided rigorously
    (see :func:`sign`)."""
    if isinstance(value, Fraction) and isinstance(bound, Fraction):
        return (value > bound) - (value < bound)
    return sign(to_sympy(value) - to_sympy(bound), name)


def to_sympy(value: Exact) -> sp.Expr:
    """An exact value as a sympy number (a Fraction as a sympy Rational)."""
    if isinstance(value, Fraction):
        return sp.Rational(value.numerator, value.denominator)
    return value


def from_sympy(expr: sp.Expr) -> Exact:
    """A sympy number as an exact value: a Fraction when it is rational."""
    if expr.is_Rational:
        return Fraction(int(expr.p), int(expr.q))
    return expr


def approximation(value: Exact) -> Fraction:
    """A rational within :math:`2^{-60}` relative of ``value`` (the midpoint of a ball);
    for sizes and guard digits, never for a decision."""
    if isinstance(value, Fraction):
        return value
    return arb_fraction(enclosure(value, 64).mid())


# ---------------------------------------------------------------------- construction
class _Builder:
    """Builds exact values node by node, checking each against the limits."""

    def __init__(self, name: str) -> None:
        self.name = name

    def fail(self, message: str) -> DomainError:
        return DomainError(self.name, message)

    def checked(self, expr: sp.Expr) -> sp.Expr:
        """``expr`` if its magnitude is within the limits (a function of the variable: if
        it is a finite real expression)."""
        if expr.free_symbols:
            if expr.has(sp.zoo, sp.oo, -sp.oo, sp.nan, sp.I):
                raise self.fail("expected a finite real function")
            return expr
        if expr.is_Rational:
            if max(abs(int(expr.p)), int(expr.q)).bit_length() > MAX_RATIONAL_BITS:
                raise self.fail(f"an exact number with more than {MAX_RATIONAL_BITS} bits "
                                "is out of range")
            if expr == 0:
                return expr
        if not expr.is_number or expr.has(sp.zoo, sp.oo, sp.nan, sp.I):
            raise self.fail("expected a finite real number")
        ball = enclosure(expr, 64)
        if not ball.is_finite():
            raise self.fail(f"a value beyond 1e{MAX_MAGNITUDE} is out of range")
        magnitude = abs(ball)
        if magnitude > flint.arb(2) ** _MAGNITUDE_BITS:
            raise self.fail(f"a value beyond 1e{MAX_MAGNITUDE} is out of range")
        if (not expr.is_Rational and magnitude.upper() < flint.arb(2) ** -_MAGNITUDE_BITS) \
                or (expr.is_Rational and magnitude < flint.arb(2) ** -_MAGNITUDE_BITS):
            raise self.fail(f"a nonzero value below 1e-{MAX_MAGNITUDE} is out of range")
        return expr

    def sign(self, expr: sp.Expr) -> int:
        return sign(from_sympy(expr), self.name)

    def add(self, a: sp.Expr, c: sp.Expr) -> sp.Expr:
        return self.checked(a + c)

    def mul(self, a: sp.Expr, c: sp.Expr) -> sp.Expr:
        return self.checked(a * c)

    def div(self, a: sp.Expr, c: sp.Expr) -> sp.Expr:
        if not c.free_symbols and self.sign(c) == 0:
            raise self.fail("division by zero")
        return self.checked(a / c)

    def power(self, base: sp.Expr, exponent: sp.Expr) -> sp.Expr:
        if exponent.free_symbols:  # c^f(x): a positive constant base only
            if base.free_symbols:
                raise self.fail("a power whose base and exponent both depend on the "
                                "variable is not read")
            if self.sign(base) <= 0:
                raise self.fail("a power with a variable exponent needs a positive base")
            return self.checked(sp.Pow(base, exponent))
        if not exponent.is_Rational:
            raise self.fail(f"exponents must be rational numbers, got {str(exponent)[:40]}")
        if max(abs(int(exponent.p)), int(exponent.q)) >= 10 ** MAX_EXPONENT_DIGITS:
            raise self.fail(f"an exponent takes at most {MAX_EXPONENT_DIGITS} digits in its "
                            "numerator and denominator")
        if base.free_symbols:  # f(x)^q: its domain is the function's, decided by its user
            return self.checked(sp.Pow(base, exponent))
        s = self.sign(base)
        if s == 0 and exponent <= 0:
            raise self.fail("zero to a non-positive power is undefined")
        if s < 0 and not exponent.is_Integer:
            raise self.fail("a negative number to a fractional power is not real")
        if s != 0:
            log2 = abs(enclosure(base, 64)).log() / math.log(2) * float(exponent)
            if abs(log2) > _MAGNITUDE_BITS:
                raise self.fail(f"a value beyond 1e{MAX_MAGNITUDE} is out of range")
            if base.is_Rational:
                size = max(abs(int(base.p)), int(base.q)).bit_length() * abs(int(exponent.p))
                if size > MAX_RATIONAL_BITS:
                    raise self.fail(f"an exact number with more than {MAX_RATIONAL_BITS} "
                                    "bits is out of range")
        return self.checked(sp.Pow(base, exponent))

    def call(self, function: str, argument: sp.Expr) -> sp.Expr:
        if argument.free_symbols:  # a function of the variable: its domain is its user's
            return self.checked(_FUNCTIONS[function](argument))
        if function in ("log", "ln"):
            if self.sign(argument) <= 0:
                raise self.fail(f"{function}(x) needs x > 0, got {str(argument)[:40]}")
            return self.checked(sp.log(argument))
        if function == "sqrt":
            if self.sign(argument) < 0:
                raise self.fail(f"sqrt(x) needs x >= 0, got {str(argument)[:40]}")
            return self.checked(sp.sqrt(argument))
        bound = int(_MAGNITUDE_BITS * math.log(2))  # exp(x) stays within 10^(+-L)
        if abs(enclosure(argument, 64)) > bound:
            raise self.fail(f"exp(x) needs |x| <= {bound}")
        return self.checked(sp.exp(argument))


    def select(self, function: str, arguments: list[sp.Expr]) -> sp.Expr:
        """``abs``, ``min`` or ``max`` of the arguments."""
        if function == "abs":
            if len(arguments) != 1:
                raise self.fail("abs takes one argument")
            return self.checked(sp.Abs(arguments[0]))
        if len(arguments) < 2:
            raise self.fail(f"{function} takes at least two arguments")
        if not any(a.free_symbols for a in arguments):  # exact constants, compared exactly
            best = arguments[0]
            for a in arguments[1:]:
                order = compare(from_sympy(a), from_sympy(best), self.name)
                if (order < 0) == (function == "min") and order != 0:
                    best = a
            return best
        return self.checked((sp.Min if function == "min" else sp.Max)(*arguments))

    def indicator(self, left: sp.Expr, relation: str, right: sp.Expr) -> sp.Expr:
        """The 0/1 function of ``left relation right`` (``>``, ``>=``, ``<``, ``<=``)."""
        if not (left.free_symbols or right.free_symbols):
            order = compare(from_sympy(left), from_sympy(right), self.name)
            holds = {">": order > 0, ">=": order >= 0, "<": order < 0, "<=": order <= 0}
            return sp.Integer(int(holds[relation]))
        condition = _RELATIONS[relation](left, right)
        return self.checked(sp.Piecewise((sp.Integer(1), condition), (sp.Integer(0), True)))


_RELATION_TOKENS = (("op", ">"), ("op", ">="), ("op", "<"), ("op", "<="))
_RELATIONS = {">": sp.StrictGreaterThan, ">=": sp.GreaterThan, "<": sp.StrictLessThan,
              "<=": sp.LessThan}
#: The functions of a variable's expression only (:func:`parse_function`).
_SELECTIONS = ("abs", "min", "max")


class _DeclarationBuilder(_Builder):
    """Builds expressions in several named variables (a declared density and its
    parameters): a part with a variable is built as it is, powers included, its domain
    being the declaration's to decide; a constant part is checked as in :func:`parse`."""

    def div(self, a: sp.Expr, c: sp.Expr) -> sp.Expr:
        return self.checked(a / c) if c.free_symbols else super().div(a, c)

    def power(self, base: sp.Expr, exponent: sp.Expr) -> sp.Expr:
        if base.free_symbols or exponent.free_symbols:
            return self.checked(sp.Pow(base, exponent))
        return super().power(base, exponent)


class _Parser:
    """Recursive descent over the tokens of one text; ``variables`` are the names that
    stand for symbols in a function's text (None for a number)."""

    def __init__(self, text: str, name: str,
                 variables: Mapping[str, sp.Symbol] | None = None,
                 builder: _Builder | None = None) -> None:
        self.text, self.builder = text, builder or _Builder(name)
        self.variables = variables
        self.tokens = self._tokenise(text)
        self.position, self.depth = 0, 0

    def fail(self, message: str) -> DomainError:
        return self.builder.fail(f"{message} in {_shown(self.text)}")

    def _tokenise(self, text: str) -> list[tuple[str, str]]:
        tokens: list[tuple[str, str]] = []
        at = 0
        while at < len(text):
            match = _TOKEN.match(text, at)
            if match is None:
                raise self.fail(f"unexpected character {text[at]!r} at position {at + 1}")
            kind = match.lastgroup
            assert kind is not None  # (every alternative of the pattern is a group)
            if kind != "space":
                tokens.append((kind, match.group()))
            at = match.end()
        return tokens

    def peek(self) -> tuple[str, str] | None:
        return self.tokens[self.position] if self.position < len(self.tokens) else None

    def take(self) -> tuple[str, str]:
        token = self.peek()
        if token is None:
            raise self.fail("unexpected end")
        self.position += 1
        return token

    def expect(self, op: str) -> None:
        token = self.peek()
        if token != ("op", op):
            shown = "the end" if token is None else repr(token[1])
            raise self.fail(f"expected {op!r}, found {shown}")
        self.position += 1

    def nested(self) -> None:
        self.depth += 1
        if self.depth > MAX_DEPTH:
            raise self.fail(f"nesting deeper than {MAX_DEPTH}")

    def parse(self) -> sp.Expr:
        if not self.tokens:
            raise self.fail("expected a number" if self.variables is None
                            else "expected an expression")
        value = self.relation()
        token = self.peek()
        if token is not None:
            raise self.fail(f"unexpected {token[1]!r}")
        return value

    def relation(self) -> sp.Expr:
        """An expression, or (a function's text only) an indicator ``f > g``."""
        value = self.expression()
        token = self.peek()
        if self.variables is not None and token in _RELATION_TOKENS:
            self.take()
            right = self.expression()
            if self.peek() in _RELATION_TOKENS:
                raise self.fail("a comparison of a comparison (use parentheses)")
            return self.builder.indicator(value, token[1], right)
        return value

    def expression(self) -> sp.Expr:
        value = self.term()
        while self.peek() in (("op", "+"), ("op", "-")):
            op = self.take()[1]
            right = self.term()
            value = self.builder.add(value, right if op == "+" else -right)
        return value

    def term(self) -> sp.Expr:
        value = self.unary()
        while self.peek() in (("op", "*"), ("op", "/")):
            op = self.take()[1]
            right = self.unary()
            value = self.builder.mul(value, right) if op == "*" \
                else self.builder.div(value, right)
        return value

    def unary(self) -> sp.Expr:
        token = self.peek()
        if token in (("op", "-"), ("op", "+")):
            self.take()
            if self.peek() in (("op", "-"), ("op", "+")):
                raise self.fail("two signs in a row")
            self.nested()
            value = self.unary()
            self.depth -= 1
            return -value if token[1] == "-" else value
        return self.power()

    def power(self) -> sp.Expr:
        base = self.atom()
        if self.peek() in (("op", "^"), ("op", "**")):
            self.take()
            self.nested()
            exponent = self.unary()
            self.depth -= 1
            return self.builder.power(base, exponent)
        return base

    def atom(self) -> sp.Expr:
        kind, text = self.take()
        if kind == "number":
            return self.builder.checked(to_sympy(decimal(text, self.builder.name)))
        if kind == "name":
            if text in _CONSTANTS:
                return _CONSTANTS[text]
            if self.variables is not None and text in self.variables:
                return self.variables[text]
            selection = self.variables is not None and text in _SELECTIONS
            if text not in _FUNCTIONS and not selection:
                if self.variables is None:
                    valid = ", ".join([*_FUNCTIONS, *_CONSTANTS])
                    raise self.fail(f"expected a finite number (a decimal, p/q or an exact "
                                    f"expression); unknown name {text[:20]!r} (valid: "
                                    f"{valid})")
                valid = ", ".join([*self.variables, *_FUNCTIONS, *_SELECTIONS, *_CONSTANTS])
                raise self.fail(f"unknown name {text[:20]!r} (valid: {valid})")
            self.expect("(")
            self.nested()
            arguments = [self.relation()]
            while selection and self.peek() == ("op", ","):
                self.take()
                arguments.append(self.relation())
            self.depth -= 1
            self.expect(")")
            if selection:
                return self.builder.select(text, arguments)
            return self.builder.call(text, arguments[0])
        if text == "(":
            self.nested()
            value = self.relation()
            self.depth -= 1
            self.expect(")")
            return value
        raise self.fail(f"unexpected {text!r}")


@exclusive
def parse(text: str, name: str) -> Exact:
    r"""Read ``text`` as an exact real number.

    Parameters
    ----------
    text : str
        A decimal, a fraction ``p/q`` or an exact expression of the grammar above
        (``"log(3)"``, ``"sqrt(2)/2"``, ``"exp(-1)"``).
    name : str
        The parameter's name, used in error messages.

    Returns
    -------
    Fraction or sympy.Expr
        A :class:`~fractions.Fraction` when the value is rational (after sympy's automatic
        simplifications, e.g. ``exp(log(3))`` is 3), otherwise a constant sympy expression.

    Raises
    ------
    DomainError
        Naming ``name``, for text outside the grammar or the limits.
    """
    if len(text) > MAX_LENGTH:
        raise DomainError(name, f"at most {MAX_LENGTH} characters are read in a number")
    return from_sympy(_Parser(text.strip(), name).parse())


@exclusive
def parse_function(text: str, name: str,
                   variables: sp.Symbol | Mapping[str, sp.Symbol]) -> sp.Expr:
    r"""Read ``text`` as a real function of one variable, written ``x`` (a cost), or an
    expression in named variables (a declared density and its parameters): the grammar of
    :func:`parse` plus the name ``x``, ``abs(f)``, ``min(f, g, ...)``, ``max(f, g, ...)``
    and the indicators ``f > g``, ``f >= g``, ``f < g``, ``f <= g`` (1 where the relation
    holds, 0 elsewhere; lowest precedence, e.g. ``abs(x) > 2`` or
    ``abs(x) + 3*(abs(x) >= 1)``)::

        relation := expression ((">" | ">=" | "<" | "<=") expression)?
        atom     := ... | "x" | SELECTION "(" relation ("," relation)* ")"
                    | FUNCTION "(" relation ")" | "(" relation ")"
        SELECTION := abs | min | max

    Constant parts obey the limits of numbers; where the function is defined (a
    logarithm's argument positive...) is left to its user. With named variables, a power
    whose base or exponent holds a variable is built as it is (its domain is the
    declaration's to decide); with the one variable ``x``, ``c^f(x)`` needs a positive
    constant base and ``f(x)^g(x)`` is not read.

    Parameters
    ----------
    text : str
        The text, e.g. ``"min(abs(x), 3)"``, ``"log(1 + abs(x))"``, ``"abs(x) > 2"``.
    name : str
        The parameter's name, used in error messages.
    variables : sympy.Symbol or mapping of str to sympy.Symbol
        The symbol that ``x`` stands for, or the names that may appear and their
        symbols (``{"x": x, "eps": eps, "Delta": Delta}``).

    Returns
    -------
    sympy.Expr
        The function, with ``Abs``, ``Min``, ``Max`` and an indicator as
        ``Piecewise((1, relation), (0, True))``.

    Raises
    ------
    DomainError
        Naming ``name``, for text outside the grammar or the limits.
    """
    if not isinstance(text, str):
        raise DomainError(name, f"expected an expression as text, got {type(text).__name__}")
    if len(text) > MAX_LENGTH:
        raise DomainError(name, f"at most {MAX_LENGTH} characters are read in an "
                          "expression")
    if isinstance(variables, sp.Symbol):
        return _Parser(text.strip(), name, {"x": variables}).parse()
    return _Parser(text.strip(), name, dict(variables), _DeclarationBuilder(name)).parse()


def _combine(expr: sp.Basic, args: list[sp.Expr], builder: _Builder) -> sp.Expr:
    """The arithmetic node ``expr`` (a sum, product, power, log or exp) rebuilt from its
    rebuilt ``args``, each step checked by ``builder``."""
    if isinstance(expr, (sp.Add, sp.Mul)):
        step = builder.add if isinstance(expr, sp.Add) else builder.mul
        value = args[0]
        for arg in args[1:]:
            value = step(value, arg)
        return value
    if isinstance(expr, sp.Pow):
        return builder.power(*args)
    return builder.call("log" if isinstance(expr, sp.log) else "exp", args[0])


def _rebuild(expr: sp.Basic, builder: _Builder, depth: int) -> sp.Expr:
    if depth > MAX_DEPTH:
        raise builder.fail(f"nesting deeper than {MAX_DEPTH}")
    if isinstance(expr, sp.Rational) or expr in (sp.pi, sp.E):
        return builder.checked(expr)
    if not isinstance(expr, _NODES):
        raise builder.fail(f"not an exact number dpsym reads: {str(expr)[:40]} (exact "
                           "numbers are rationals, log, exp, sqrt, rational powers, pi, e)")
    args = [_rebuild(arg, builder, depth + 1) for arg in expr.args]
    return _combine(expr, args, builder)


@exclusive
def from_expression(expr: sp.Basic, name: str) -> Exact:
    """A sympy number given by the caller (``sympy.log(3)``, ``sympy.Rational(1, 3)``),
    checked node by node against the grammar's functions and limits.

    Raises
    ------
    DomainError
        For a symbol, a float, a function outside the grammar, or a value out of range.
    """
    if isinstance(expr, sp.Float):
        raise DomainError(name, "a sympy Float is not exact; give a decimal string")
    if not isinstance(expr, sp.Expr) or expr.free_symbols:
        raise DomainError(name, f"expected a number, got {str(expr)[:40]}")
    if sp.count_ops(expr) > MAX_LENGTH:
        raise DomainError(name, f"an expression larger than {MAX_LENGTH} operations")
    return from_sympy(_rebuild(expr, _Builder(name), 0))


_FUNCTION_NODES = (sp.Abs, sp.Min, sp.Max, sp.Piecewise)


def _rebuild_function(expr: sp.Basic, builder: _Builder, variable: sp.Symbol,
                      depth: int) -> sp.Expr:
    if depth > MAX_DEPTH:
        raise builder.fail(f"nesting deeper than {MAX_DEPTH}")
    if not expr.free_symbols:
        return _rebuild(expr, builder, depth) if not isinstance(expr, sp.Piecewise) \
            else _rebuild_function(expr.args[0].expr if expr.args[0].cond is sp.true
                                   else expr.args[-1].expr, builder, variable, depth + 1)
    if isinstance(expr, sp.Symbol):
        return variable
    if isinstance(expr, sp.Piecewise):
        shape = len(expr.args) == 2 and expr.args[1].cond is sp.true \
            and {expr.args[0].expr, expr.args[1].expr} == {sp.Integer(0), sp.Integer(1)}
        relation = expr.args[0].cond
        if not shape or type(relation) not in _RELATIONS.values():
            raise builder.fail("a Piecewise is read only as an indicator "
                               "Piecewise((1, f > g), (0, True))")
        op = next(k for k, v in _RELATIONS.items() if type(relation) is v)
        left, right = (_rebuild_function(a, builder, variable, depth + 1)
                       for a in relation.args)
        value = builder.indicator(left, op, right)
        return value if expr.args[0].expr == 1 else 1 - value
    if not isinstance(expr, (*_NODES, *_FUNCTION_NODES)):
        raise builder.fail(f"not a function dpsym reads: {str(expr)[:40]} (functions are "
                           "built from x, rationals, log, exp, sqrt, rational powers, abs, "
                           "min, max, indicators, pi, e)")
    args = [_rebuild_function(arg, builder, variable, depth + 1) for arg in expr.args]
    if isinstance(expr, sp.Abs):
        return builder.select("abs", args)
    if isinstance(expr, (sp.Min, sp.Max)):
        return builder.select("min" if isinstance(expr, sp.Min) else "max", args)
    return _combine(expr, args, builder)


@exclusive
def function_from_expression(expr: sp.Basic, name: str, variable: sp.Symbol) -> sp.Expr:
    """A sympy function of one symbol given by the caller (``sympy.Abs(t) + t**2``,
    ``sympy.Min(sympy.Abs(t), 3)``), rebuilt node by node in ``variable`` with the
    grammar's functions and limits (:func:`parse_function`).

    Raises
    ------
    DomainError
        For two symbols or more, a float, a node outside the grammar, or a constant out of
        range.
    """
    if not isinstance(expr, sp.Basic):
        raise DomainError(name, f"expected a text or a sympy expression, got "
                          f"{type(expr).__name__}")
    if expr.has(sp.Float):
        raise DomainError(name, "a sympy Float is not exact; give a decimal string")
    if len(expr.free_symbols) > 1:
        raise DomainError(name, f"expected a function of one variable, got "
                          f"{sorted(map(str, expr.free_symbols))}")
    if sp.count_ops(expr) > MAX_LENGTH:
        raise DomainError(name, f"an expression larger than {MAX_LENGTH} operations")
    return _rebuild_function(expr, _Builder(name), variable, 0)


def is_rational(value: object) -> bool:
    """Whether an exact value is a :class:`~fractions.Fraction`."""
    return isinstance(value, Fraction)


__all__ = ["MAX_DEPTH", "MAX_DIGITS_READ", "MAX_EXPONENT", "MAX_LENGTH", "MAX_MAGNITUDE",
           "Exact", "approximation", "compare", "decimal", "enclosure", "exact_ball",
           "exact_complex_ball",
           "from_expression", "from_sympy", "function_from_expression", "is_rational",
           "parse", "parse_function", "sign", "to_sympy"]
