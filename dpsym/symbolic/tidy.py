r"""Putting derived expressions in a readable, series-friendly form.

The engine's results are exact whatever their form; the form matters for a reader and
for ``sympy``: :math:`\log(2\delta + e^\varepsilon - 1) - \log(2\delta)` is one
logarithm, :math:`\log\bigl(1 + (e^\varepsilon - 1)/(2\delta)\bigr)`, whose powers
stay readable and whose expansions stay clean.

:class:`Coefficients` is the canonical form of the coefficients of an asymptotic expansion
(:func:`dpsym.symbolic.regimes.expand_series`): rational functions of the parameters and of atoms
(logarithms, exponentials, roots, special values), exact and fast, with :func:`factor`'s
form on output.
"""

from __future__ import annotations

import math
from collections import defaultdict
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache
from typing import Any

import flint
import mpmath
import sympy as sp
from sympy.core.parameters import global_parameters

from dpsym.errors import UnsupportedError
from dpsym.precision import workdps


def combine_logs(expr: sp.Expr) -> sp.Expr:
    r"""Combine the logarithms of every sum whose coefficients differ by rational factors.

    :math:`C q_1 \log a_1 + C q_2 \log a_2 \to C \log(a_1^{q_1} a_2^{q_2})` for rational
    :math:`q_j` and a common factor :math:`C`, applied bottom-up. The identity needs
    positive arguments: an argument sympy knows to be non-positive is never combined, and
    one whose sign sympy cannot decide (such as :math:`2\delta + e^\varepsilon - 1`) is
    taken to be positive, which holds for every logarithm of a real cost or calibration on
    its parameters' declared domains (the engine's results are checked numerically there).
    """
    expr = sp.sympify(expr)
    if not expr.has(sp.log):  # nothing to combine: the expression as it is, not rebuilt
        return expr
    expr = expr.func(*(combine_logs(a) for a in expr.args))
    if not isinstance(expr, sp.Add):
        return expr
    groups: dict[sp.Expr, list[tuple[sp.Rational, sp.Expr]]] = defaultdict(list)
    rest = []
    for term in expr.args:
        rational, factors = term.as_coeff_Mul()
        logs = [f for f in sp.Mul.make_args(factors) if isinstance(f, sp.log)]
        if len(logs) == 1 and logs[0].args[0].is_positive is not False:
            (lg,) = logs
            groups[sp.Mul(*(f for f in sp.Mul.make_args(factors) if f is not lg))].append(
                (rational, lg.args[0]))
        else:
            rest.append(term)
    for common, items in groups.items():
        if len(items) == 1:
            q, arg = items[0]
            rest.append(q * common * sp.log(arg))
            continue
        q0 = items[0][0]
        argument = sp.Mul(*(arg ** (q / q0) for q, arg in items))
        rest.append(q0 * common * sp.log(sp.factor(sp.cancel(argument))))
    return sp.Add(*rest)


def factor(expr: sp.Expr, *, polynomials: bool = False) -> sp.Expr:
    r"""One fraction, factored, with every logarithm left as it is.

    ``sympy.factor`` and ``sympy.cancel`` work inside logarithms and split them
    (:math:`\log(a/b) \to \log a - \log b`), undoing :func:`combine_logs`; here each
    logarithm is a fixed atom.

    With ``polynomials``, ``expr`` is a quotient of two polynomials in its atoms with
    integer exponents (:meth:`Coefficients.to_sympy`), and unless an atom is an algebraic
    number (:math:`\sqrt{2}`, which ``sympy.cancel`` takes into the coefficients) it is not
    put over one cancelled fraction first: ``sympy.factor`` factors the numerator and the
    denominator apart into primitive irreducible factors normalised alike, so that common
    ones cancel as powers of one base and the result is the same (the ``sympy.cancel``
    took half the time of the expansions' output).

    A pure function of its arguments (sympy expressions are immutable and compare
    structurally, assumptions and the precision of a float included): the result is kept
    for each argument and sympy's evaluation flags (:func:`_factored`), and an expansion
    that meets the same coefficient again does not factor it twice.
    """
    flags = global_parameters
    return _factored(sp.sympify(expr), polynomials, flags.evaluate, flags.distribute)


@lru_cache(maxsize=2048)
def _factored(expr: sp.Expr, polynomials: bool, evaluate: bool, distribute: bool
              ) -> sp.Expr:
    """:func:`factor` of ``expr`` (computed once per arguments and evaluation flags)."""
    expr = combine_logs(expr)
    logs = {lg: sp.Dummy() for lg in expr.atoms(sp.log)}
    fraction = sp.together(expr.xreplace(logs))
    if not polynomials or any(p.base.is_Number and not p.exp.is_Integer
                              for p in fraction.atoms(sp.Pow)):
        fraction = sp.cancel(fraction)
    return sp.factor(fraction).xreplace({d: lg for lg, d in logs.items()})


def simplified(expr: sp.Expr) -> sp.Expr:
    r"""``sympy.simplify(expr)``, kept per expression and sympy's evaluation flags (a pure
    function: sympy expressions are immutable and compare structurally). The claims'
    checks and their mutants simplify the same derived expressions again and again, and a
    noise's pieces are simplified again for every :math:`\varepsilon` of its profile."""
    flags = global_parameters
    return _simplified(sp.sympify(expr), flags.evaluate, flags.distribute)


@lru_cache(maxsize=8192)
def _simplified(expr: sp.Expr, evaluate: bool, distribute: bool) -> sp.Expr:
    """:func:`simplified` of a sympified expression (once per expression and flags)."""
    return sp.simplify(expr)


def tidy(expr: sp.Expr) -> sp.Expr:
    """Keep exponentials (sympy may produce tanh), combine logarithms, factor."""
    return factor(sp.powsimp(sp.sympify(expr).rewrite(sp.exp)))


#: Largest size (``sympy.count_ops``) of an expression offered to ``sympy.simplify`` by
#: :func:`shortest` (larger ones get the rational candidates only).
SIMPLIFY_OPS = 40
#: Largest size of an expression :func:`shortest` rewrites (a larger one is kept as it is:
#: its candidates are as long and take seconds).
SHORTEST_OPS = 100


def _roots_as_symbols(expr: sp.Expr) -> tuple[sp.Expr, dict[sp.Symbol, sp.Expr]]:
    r"""``expr`` with each positive symbol :math:`s` that appears under a rational power
    of denominator :math:`q` written :math:`t^q` (:math:`t` a new positive symbol), so
    that :math:`\sqrt{b}/(1 - b) + b/(b - 1)` becomes the rational function
    :math:`t/(1 - t^2) + t^2/(t^2 - 1)`; and the substitution back (:math:`t = s^{1/q}`)."""
    orders: dict[sp.Symbol, int] = {}
    for power in expr.atoms(sp.Pow):
        base, exponent = power.args
        if base.is_Symbol and base.is_positive and exponent.is_Rational \
                and not exponent.is_Integer:
            orders[base] = math.lcm(orders.get(base, 1), int(exponent.q))
    forward, back = {}, {}
    for symbol, q in orders.items():
        t = sp.Dummy(f"{symbol}_root", positive=True)
        forward[symbol] = t**q
        back[t] = symbol ** sp.Rational(1, q)
    return expr.subs(forward), back


def _proven_equal(candidate: sp.Expr, expr: sp.Expr) -> bool:
    r"""Whether ``candidate`` equals ``expr`` identically: their difference is the zero
    rational function once roots of symbols are symbols (:func:`_roots_as_symbols`), or
    ``sympy.simplify`` reduces it to zero."""
    difference, _ = _roots_as_symbols(candidate - expr)
    try:
        if sp.cancel(sp.together(difference)) == 0:
            return True
    except sp.PolynomialError:
        pass
    return sp.count_ops(difference) <= 2 * SIMPLIFY_OPS and sp.simplify(candidate - expr) == 0


@lru_cache(maxsize=512)
def shortest(expr: sp.Expr) -> sp.Expr:
    r"""The shortest form of ``expr`` (by ``sympy.count_ops``, :func:`_size`) among sympy's
    ``cancel``, ``factor``, ``together`` and ``simplify`` (of small expressions) of it and
    of its rational form in the roots of its symbols (:func:`_roots_as_symbols`:
    :math:`\sqrt{b}/(1 - b) + b/(b - 1) = \sqrt{b}/(\sqrt{b} + 1)`), keeping only a
    candidate proven equal to ``expr`` (:func:`_proven_equal`); ``expr`` itself on a tie.
    Logarithms are left as they are (:func:`factor`); an expression larger than
    :data:`SHORTEST_OPS` is kept."""
    expr = sp.sympify(expr)
    if not expr.free_symbols or expr.has(sp.Piecewise, sp.Sum, sp.Integral) \
            or sp.count_ops(expr) > SHORTEST_OPS:
        return expr
    logs = {lg: sp.Dummy() for lg in expr.atoms(sp.log)}
    plain = expr.xreplace(logs)
    restore = {d: lg for lg, d in logs.items()}
    rational, back = _roots_as_symbols(plain)
    candidates = []
    for source, undo in ((plain, {}), (rational, back)):
        for transform in (sp.cancel, sp.factor, sp.together):
            try:
                candidates.append(transform(source).subs(undo))
            except sp.PolynomialError:
                continue
    if sp.count_ops(plain) <= SIMPLIFY_OPS:
        candidates.append(sp.simplify(plain))
    # the first of the shortest candidates proven equal: tried shortest first (the order
    # of the list breaks ties), so a longer candidate is never put to the (costly) proof
    size = _size(expr)
    ranked = sorted(((ops, k, candidate) for k, candidate in
                     enumerate(c.xreplace(restore) for c in candidates)
                     if (ops := _size(candidate)) < size), key=lambda item: item[:2])
    refuted: set[sp.Expr] = set()
    for _, _, candidate in ranked:
        if candidate not in refuted:
            if _proven_equal(candidate, expr):
                return candidate
            refuted.add(candidate)
    return expr


def _size(expr: sp.Expr) -> tuple[int, int]:
    r"""``sympy.count_ops`` of ``expr`` with the roots of its symbols counted as symbols
    (:math:`\sqrt{b}/(\sqrt{b} + 1)` is as short as :math:`t/(t + 1)`), then of ``expr``."""
    return sp.count_ops(_roots_as_symbols(expr)[0]), sp.count_ops(expr)


# ---------------------------------------------------------------------------- coefficients
#: Generators of one field of coefficients (symbols and atoms) before a larger pool is taken.
POOL = 24
#: The value of the expansion variable, and of the other symbols by name, at which the
#: signs of coefficients are read and relations between generators are detected.
TEST_T = sp.Rational(1, 10**6)
TEST_VALUES = {"Delta": sp.Rational(137, 100), "delta": sp.Rational(73, 1000),
               "c": sp.Rational(613, 1000), "theta": sp.Rational(291, 1000),
               "eps": sp.Rational(853, 1000), "gamma": sp.Rational(417, 1000)}
TEST_DEFAULT = sp.Rational(618, 1000)
#: Working digits of those numeric checks, and the relative size under which a value that
#: is formally nonzero is zero.
CHECK_DIGITS = 60
ZERO_TOLERANCE = mpmath.mpf(10) ** -40


class Restart(Exception):
    """Start the computation again with the roots ``plan`` of some generators (``key ->
    root``) or a pool of ``pool`` generators."""

    def __init__(self, plan: dict | None = None, pool: int = 0) -> None:
        super().__init__("restart")
        self.plan = plan or {}
        self.pool = pool


class Element:
    r"""A rational function ``n / d`` of the generators (python-flint polynomials over
    :math:`\mathbb{Q}`; ``d`` monic, coprime to ``n``)."""

    __slots__ = ("d", "n")

    def __init__(self, n: Any, d: Any) -> None:
        self.n, self.d = n, d


@dataclass
class Generator:
    """One generator: ``atom ** (1/root)`` (``root`` from the plan, 1 by default).

    ``kind`` is ``sym`` (a symbol), ``log t`` (the logarithm of the expansion variable),
    ``log`` (``payload``: the argument ``(a, m)`` of ``log(a t**m)``), ``exp``
    (``payload``: the exponent), ``rad`` (a root of a sum or of a prime, ``payload``: the
    radicand) or ``atom`` (anything else). ``flagged`` generators may satisfy relations the
    field does not know (:meth:`Coefficients.is_zero` checks them numerically).
    """

    key: Any
    kind: str
    atom: sp.Expr
    root: int
    payload: Any = None
    flagged: bool = False
    value: Any = None

    @property
    def expr(self) -> sp.Expr:
        """The generator as a sympy expression."""
        return self.atom if self.root == 1 else sp.Pow(self.atom, sp.Rational(1, self.root))


class Coefficients:
    r"""The coefficients of one asymptotic expansion in :math:`t`: rational functions over
    :math:`\mathbb{Q}` of generators (the symbols and the atoms met on the way), exact and
    fast (python-flint's multivariate polynomials).

    The functions of constants are written canonically, so that equal quantities are equal
    elements: :math:`e^{m \log t}` is the power :math:`t^m` (:meth:`exp_const` returns
    it apart), :math:`e^{\log a} = a`, :math:`a^{k}` for rational :math:`k` is a product of
    powers of irreducible factors, whose roots are generators -- a symbol's root replaces
    the symbol (the computation starts again, :class:`Restart`), a root of a sum, of a prime
    or a logarithm is *flagged*: the relations it satisfies are detected numerically at the
    test point (:data:`TEST_VALUES`), by :meth:`is_zero`.

    Parameters
    ----------
    t : sympy.Symbol
        The expansion variable (its logarithm is a generator, ``log t``).
    plan : dict
        The roots taken of generators, by key (grown by :class:`Restart`).
    pool : int
        The number of generators available.
    """

    def __init__(self, t: sp.Symbol, plan: dict, pool: int = POOL) -> None:
        self.t, self.plan, self.pool = t, plan, pool
        self.ctx = flint.fmpq_mpoly_ctx.get(tuple(f"g{i}" for i in range(pool)), "lex")
        self.vars = self.ctx.gens()
        self.gens: list[Generator] = []
        self.keys: dict[Any, Element] = {}
        unit = self.ctx.constant(1)
        self.zero, self.one = Element(self.ctx.constant(0), unit), Element(unit, unit)

    # ------------------------------------------------------------------ arithmetic
    def _norm(self, n: Any, d: Any) -> Element:
        if n.is_zero():
            return self.zero
        if not d.is_constant():
            g = n.gcd(d)
            if not g.is_constant():
                n, d = n / g, d / g
        lc = d.leading_coefficient()
        if lc != 1:
            n, d = n / lc, d / lc
        return Element(n, d)

    def const(self, value: Fraction | int) -> Element:
        """A rational number."""
        value = Fraction(value)
        return Element(self.ctx.constant(flint.fmpq(value.numerator, value.denominator)),
                       self.one.d)

    def poly(self, p: Any) -> Element:
        """A polynomial of the generators (or a rational number) as an element."""
        return self.const(p) if isinstance(p, int) else Element(p, self.one.d)

    def add(self, a: Element, b: Element) -> Element:
        """:math:`a + b`."""
        if a.n.is_zero():
            return b
        if b.n.is_zero():
            return a
        if a.d == b.d:
            return Element(a.n + b.n, a.d) if a.d.is_constant() else self._norm(a.n + b.n, a.d)
        return self._norm(a.n * b.d + b.n * a.d, a.d * b.d)

    def neg(self, a: Element) -> Element:
        """:math:`-a`."""
        return Element(-a.n, a.d)

    def sub(self, a: Element, b: Element) -> Element:
        """:math:`a - b`."""
        return self.add(a, self.neg(b))

    def mul(self, a: Element, b: Element) -> Element:
        """:math:`a b`."""
        if a.n.is_zero() or b.n.is_zero():
            return self.zero
        if a.d.is_constant() and b.d.is_constant():
            return Element(a.n * b.n, a.d)
        return self._norm(a.n * b.n, a.d * b.d)

    def dot(self, pairs: Any) -> Element:
        r""":math:`\sum_i a_i b_i` over the pairs :math:`(a_i, b_i)`, on the least common
        denominator and reduced once (not term by term)."""
        nums, dens = [], []
        for a, b in pairs:
            if not (a.n.is_zero() or b.n.is_zero()):
                nums.append(a.n * b.n)
                dens.append(a.d * b.d)
        if not nums:
            return self.zero
        common = dens[0]
        for d in dens[1:]:
            if d != common:
                common = common * (d / common.gcd(d))
        total = nums[0] * (common / dens[0]) if dens[0] != common else nums[0]
        for n, d in zip(nums[1:], dens[1:], strict=True):
            total += n if d == common else n * (common / d)
        if common.is_constant():
            return Element(total, common) if not total.is_zero() else self.zero
        return self._norm(total, common)

    def inv(self, a: Element) -> Element:
        """:math:`1/a` (``a`` nonzero)."""
        return self._norm(a.d, a.n)

    def power(self, a: Element, k: int) -> Element:
        """:math:`a^k` for an integer :math:`k`."""
        if k < 0:
            a, k = self.inv(a), -k
        return Element(a.n**k, a.d**k)

    def scale(self, a: Element, r: Fraction) -> Element:
        """:math:`r a` for a rational :math:`r`."""
        return Element(a.n * flint.fmpq(r.numerator, r.denominator), a.d) if r else self.zero

    def is_zero(self, a: Element) -> bool:
        """Whether ``a`` is zero: formally, or numerically when it involves a flagged
        generator."""
        if a.n.is_zero():
            return True
        degrees = a.n.degrees()
        if not any(g.flagged and degrees[i] for i, g in enumerate(self.gens)):
            return False
        value, size = self._numeric_poly(a.n)
        return abs(value) <= ZERO_TOLERANCE * size

    def as_fraction(self, a: Element) -> Fraction | None:
        """``a`` as a rational number, or None if it is not one."""
        if not (a.n.is_constant() and a.d.is_constant()):
            return None
        q = (a.n.leading_coefficient() if not a.n.is_zero() else flint.fmpq(0)) \
            / a.d.leading_coefficient()
        return Fraction(int(q.p), int(q.q))

    # ------------------------------------------------------------------ numerics
    def _gen_value(self, i: int) -> Any:
        g = self.gens[i]
        if g.value is None:
            point = {s: TEST_VALUES.get(s.name, TEST_DEFAULT) for s in g.expr.free_symbols}
            point[self.t] = TEST_T
            with workdps(CHECK_DIGITS + 10):
                g.value = mpmath.mpmathify(sp.N(g.expr.subs(point), CHECK_DIGITS + 10))
        return g.value

    def _numeric_poly(self, p: Any) -> tuple[Any, Any]:
        """The value of a polynomial at the test point, and the sum of its terms' sizes."""
        with workdps(CHECK_DIGITS):
            total, size = mpmath.mpf(0), mpmath.mpf(0)
            for monom, coeff in p.terms():
                term = mpmath.mpf(int(coeff.p)) / int(coeff.q)
                for i, e in enumerate(monom):
                    if e:
                        term *= self._gen_value(i) ** int(e)
                total += term
                size += abs(term)
            return total, size

    def sign(self, a: Element) -> int:
        """The sign of ``a`` at the test point (-1, 0 or 1).

        Raises
        ------
        UnsupportedError
            If ``a`` is not real there.
        """
        num, _ = self._numeric_poly(a.n)
        den, _ = self._numeric_poly(a.d)
        with workdps(CHECK_DIGITS):
            value = num / den
            if abs(mpmath.im(value)) > ZERO_TOLERANCE * abs(value):
                raise UnsupportedError("a coefficient of the expansion is not real")
            value = mpmath.re(value)
            return 1 if value > 0 else -1 if value < 0 else 0

    # ------------------------------------------------------------------ generators
    def generator(self, key: Any, kind: str, atom: sp.Expr, payload: Any = None,
                  flagged: bool = False) -> Element:
        """The element ``atom`` (``y**root`` with ``y`` the generator if the plan takes a
        root of it), created on first use."""
        found = self.keys.get(key)
        if found is not None:
            return found
        if len(self.gens) == self.pool:
            raise Restart(pool=2 * self.pool)
        root = self.plan.get(key, 1)
        self.gens.append(Generator(key, kind, atom, root, payload, flagged))
        found = Element(self.vars[len(self.gens) - 1] ** root, self.one.d)
        self.keys[key] = found
        return found

    def symbol(self, s: sp.Symbol) -> Element:
        """The symbol ``s``."""
        return self.generator(("sym", s), "sym", s)

    def atom(self, expr: sp.Expr) -> Element:
        """``expr``, a constant the field knows nothing about, as a generator."""
        return self.generator(("atom", expr), "atom", expr)

    def log_t(self) -> Element:
        r""":math:`\log t`."""
        return self.generator(("log t",), "log t", sp.log(self.t))

    def _single(self, a: Element) -> tuple[int, int] | None:
        """(index, exponent) if ``a`` is a power of one generator."""
        if not a.d.is_constant() or a.d.leading_coefficient() != 1 or len(a.n) != 1:
            return None
        monom, coeff = next(iter(a.n.terms()))
        used = [(i, int(e)) for i, e in enumerate(monom) if e]
        return used[0] if coeff == 1 and len(used) == 1 else None

    # ------------------------------------------------------------------ functions
    def factors(self, a: Element) -> tuple[Fraction, list[tuple[Any, int]]]:
        """``a = u * prod f**e`` with ``u`` rational and monic irreducible ``f`` (up to
        sign) positive at the test point."""
        out = []
        u = Fraction(1)
        for poly, sgn in ((a.n, 1), (a.d, -1)):
            content, facs = poly.factor()
            u *= Fraction(int(content.p), int(content.q)) ** sgn
            for f, e in facs:
                if self.sign(self.poly(f)) < 0:
                    f, u = -f, u * (-1) ** int(e)
                out.append((f, sgn * int(e)))
        return u, out

    def _root_power(self, f: Any, k: Fraction) -> Element:
        """``f ** k`` for an irreducible ``f`` (or a prime) positive at the test point."""
        if k.denominator == 1:
            return self.power(self.poly(f), k.numerator)
        single = None if isinstance(f, int) else self._single(self.poly(f))
        if single is not None and single[1] == 1:
            g = self.gens[single[0]]
            if g.kind != "rad":  # a root of a generator replaces it
                raise Restart({g.key: g.root * k.denominator})
        atom = sp.Integer(f) if isinstance(f, int) else self.to_sympy(self.poly(f))
        key = ("rad", atom)
        root = self.plan.get(key, 1)
        if root % k.denominator:
            raise Restart({key: math.lcm(root, k.denominator)})
        self.generator(key, "rad", atom, payload=f, flagged=True)
        y = self.vars[next(i for i, g in enumerate(self.gens) if g.key == key)]
        return self.power(self.poly(y), int(k * root))

    def pow_const(self, a: Element, k: Fraction) -> Element:
        """``a ** k`` for a constant ``a`` (positive if ``k`` is not an integer).

        Raises
        ------
        UnsupportedError
            For a fractional power of a negative quantity.
        """
        if k.denominator == 1:
            return self.power(a, k.numerator)
        u, facs = self.factors(a)
        if u < 0:
            raise UnsupportedError("a fractional power of a negative quantity")
        out = self.one
        for f, e in facs:
            out = self.mul(out, self._root_power(f, e * k))
        primes = [(p, e) for p, e in sp.factorint(u.numerator).items()]
        primes += [(p, -e) for p, e in sp.factorint(u.denominator).items()]
        for p, e in primes:
            out = self.mul(out, self._root_power(int(p), e * k))
        return out

    def log_const(self, a: Element, m: Fraction = Fraction(0)) -> Element:
        r""":math:`\log(a t^m)` for a constant ``a > 0``: :math:`m \log t` for
        :math:`a = 1`, the exponent of an exponential, else one (flagged) atom.

        Raises
        ------
        UnsupportedError
            If ``a`` is not positive at the test point.
        """
        out = self.scale(self.log_t(), m) if m else self.zero
        if self.as_fraction(a) == 1:
            return out
        single = self._single(a)
        if single is not None and not m and self.gens[single[0]].kind == "exp":
            g = self.gens[single[0]]
            return self.scale(g.payload, Fraction(single[1], g.root))
        if self.sign(a) <= 0:
            raise UnsupportedError("the logarithm of a quantity that is not positive")
        atom = sp.log(sp.factor(self.to_sympy(a)) * self.t ** sp.Rational(m.numerator,
                                                                           m.denominator))
        key = ("log", str(a.n), str(a.d), m)
        return self.generator(key, "log", atom, payload=(a, m), flagged=True)

    def exp_const(self, a: Element) -> tuple[Element, Fraction]:
        r""":math:`e^a` for a constant ``a``, as (coefficient, power of :math:`t`):
        :math:`e^{k \log t} = t^k`, :math:`e^{k \log(b t^m)} = b^k t^{k m}`, other terms
        are exponential atoms (their integer powers shared)."""
        if a.n.is_zero():
            return self.one, Fraction(0)
        if not a.d.is_constant():
            atom = sp.exp(self.to_sympy(a))
            return self.generator(("exp", atom), "exp", atom, payload=a), Fraction(0)
        dc = a.d.leading_coefficient()
        coeff, tpow = self.one, Fraction(0)
        for monom, q in a.n.terms():
            k = Fraction(int(q.p), int(q.q)) / Fraction(int(dc.p), int(dc.q))
            used = [(i, int(e)) for i, e in enumerate(monom) if e]
            if len(used) == 1 and used[0][1] == self.gens[used[0][0]].root:
                g = self.gens[used[0][0]]
                if g.kind == "log t":
                    tpow += k
                    continue
                if g.kind == "log":
                    base, m = g.payload
                    coeff = self.mul(coeff, self.pow_const(base, k))
                    tpow += m * k
                    continue
            mono = self.poly(self.ctx.term(1, monom))
            atom = sp.exp(self.to_sympy(mono))
            e = self.generator(("exp", atom), "exp", atom, payload=mono)
            coeff = self.mul(coeff, self.pow_const(e, k))
        return coeff, tpow

    # ------------------------------------------------------------------ output
    def _poly_sympy(self, p: Any) -> sp.Expr:
        exprs = [g.expr for g in self.gens]
        return sp.Add(*(sp.Mul(sp.Rational(int(coeff.p), int(coeff.q)),
                               *(exprs[i] ** int(e) for i, e in enumerate(monom) if e))
                        for monom, coeff in p.terms()))

    def to_sympy(self, a: Element) -> sp.Expr:
        """``a`` as a sympy expression."""
        return self._poly_sympy(a.n) / self._poly_sympy(a.d)

    def factored(self, a: Element) -> sp.Expr:
        """``a`` in the form of :func:`factor`; a large one (over :data:`FACTOR_TERMS`
        terms) factored by python-flint, each irreducible factor in that form if it is small,
        else with integer coefficients without common factor (sympy's factorisation of a
        large polynomial in logarithms takes seconds)."""
        if len(a.n) + len(a.d) <= FACTOR_TERMS:
            return factor(self.to_sympy(a), polynomials=True)
        parts = []
        for poly, sgn in ((a.n, 1), (a.d, -1)):
            content, facs = poly.factor()
            parts.append(sp.Rational(int(content.p), int(content.q)) ** sgn)
            for f, e in facs:
                if len(f) <= FACTOR_TERMS:
                    parts.append(factor(self._poly_sympy(f), polynomials=True)
                                 ** (sgn * int(e)))
                    continue
                coeffs = [Fraction(int(q.p), int(q.q)) for q in f.coeffs()]
                scale = Fraction(math.lcm(*(q.denominator for q in coeffs)),
                                 math.gcd(*(q.numerator for q in coeffs)))
                parts.append(sp.Rational(scale.denominator, scale.numerator) ** (sgn * int(e)))
                parts.append(self._poly_sympy(f * flint.fmpq(scale.numerator,
                                                             scale.denominator))
                             ** (sgn * int(e)))
        return sp.Mul(*parts)


#: The size (terms of numerator and denominator) up to which a coefficient is factored by
#: sympy as a whole.
FACTOR_TERMS = 40
