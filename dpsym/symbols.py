r"""The symbols of dpsym, created once with their assumptions.

Every module takes its symbols from here, so that expressions built in different places
combine (sympy treats two symbols with the same name but different assumptions as
different objects).

==========  ===========================================================
symbol      meaning
==========  ===========================================================
``eps``     privacy parameter :math:`\varepsilon > 0`
``delta``   privacy parameter :math:`\delta \in (0, 1)`
``Delta``   query sensitivity :math:`\Delta > 0`
``b``       :math:`b = e^{-\varepsilon} \in (0, 1)`, the natural variable of
            geometric sums and of the regime :math:`\varepsilon \to \infty`
``gamma``   the staircase's step fraction :math:`\gamma \in [0, 1]`
``r``       the discrete staircase's step length, an integer in
            :math:`\{1, \dots, \Delta\}`
``p``       the exponent of the cost :math:`|x|^p`, :math:`p > 0`
``c``       the ratio :math:`c = \delta / \varepsilon` in the joint regime
``x``       the noise value (real)
``y``       its magnitude :math:`|x| \ge 0` (a cost on :math:`[0, \infty)`)
``u``       a local coordinate inside one period of a periodic density
``i``       an integer noise value
``k``       a period index, an integer :math:`\ge 0`
``dim``     the dimension :math:`d` of the query, a positive integer (printed ``d``)
``NORM``    a density's unknown normalising constant (printed ``a_norm``)
==========  ===========================================================
"""

from __future__ import annotations

import sympy as sp

eps = sp.Symbol("eps", positive=True)
delta = sp.Symbol("delta", positive=True)
Delta = sp.Symbol("Delta", positive=True)
b = sp.Symbol("b", positive=True)
gamma = sp.Symbol("gamma", nonnegative=True)
r = sp.Symbol("r", positive=True, integer=True)
p = sp.Symbol("p", positive=True)
c = sp.Symbol("c", positive=True)
x = sp.Symbol("x", real=True)
y = sp.Symbol("y", nonnegative=True)
u = sp.Symbol("u", nonnegative=True)
i = sp.Symbol("i", integer=True, nonnegative=True)
k = sp.Symbol("k", integer=True, nonnegative=True)
dim = sp.Symbol("d", positive=True, integer=True)
#: :math:`1 - b`, kept as one symbol where it must be evaluated without cancellation.
one_minus_b = sp.Symbol("one_minus_b", positive=True)
#: The unknown normalising constant a mechanism may leave in its density.
NORM = sp.Symbol("a_norm", positive=True)

#: Substitution that writes an expression in ``b`` in terms of ``eps``.
B_OF_EPS = {b: sp.exp(-eps)}

#: The names that a printed expression may use; ``sympy.parse_expr`` reads expressions
#: back with this table so that the symbols keep their assumptions.
PUBLIC_SYMBOLS = {"eps": eps, "delta": delta, "Delta": Delta, "b": b, "gamma": gamma,
                  "p": p, "c": c, "r": r}


def in_eps(expr: sp.Expr) -> sp.Expr:
    r"""Rewrite ``expr`` with :math:`b = e^{-\varepsilon}` substituted."""
    return sp.sympify(expr).subs(B_OF_EPS)


def display_eps(expr: sp.Expr) -> sp.Expr:
    r"""``expr`` in :math:`\varepsilon`, in the shortest of a few equivalent forms.

    The candidates are the plain substitution and its factored form over exponentials;
    both are equal to ``expr`` identically, so the choice only affects how it reads.
    """
    plain = in_eps(expr)
    if plain.has(sp.Order) or (plain.has(sp.Function) and not plain.has(sp.exp)):
        return plain
    candidates = [plain]
    if sp.count_ops(plain) < 120:  # larger expressions are shown as substituted
        candidates.append(_factored(plain))
    return min(candidates, key=sp.count_ops)


def _factored(expr: sp.Expr) -> sp.Expr:
    r"""``factor(powsimp(expand(expr)))``: sympy's polynomials read :math:`e^{k\varepsilon}`
    as the power :math:`t^k` of the generator :math:`t = e^\varepsilon`, so where every
    exponential is such a power the same factorisation is that of the rational function in
    a symbol :math:`t`, with :math:`e^\varepsilon` put back (without the expansion over
    exponentials first: seconds instead of a minute for the d-dimensional staircase's
    power cost)."""
    t = sp.Dummy("t", positive=True)
    powers = expr.replace(lambda a: isinstance(a, sp.exp) and (a.args[0] / eps).is_integer,
                          lambda a: t ** (a.args[0] / eps))
    if eps in powers.free_symbols:
        return sp.factor(sp.powsimp(sp.expand(expr)))
    return sp.factor(powers).subs(t, sp.exp(eps))


def in_b(expr: sp.Expr) -> sp.Expr:
    r"""Rewrite ``expr`` in :math:`b`: :math:`\varepsilon = -\log b`."""
    return sp.sympify(expr).subs(eps, -sp.log(b))
