r"""Putting derived expressions in a readable, series-friendly form.

The engine's results are exact whatever their form; the form matters for a reader and
for ``sympy``: :math:`\log(2\delta + e^\varepsilon - 1) - \log(2\delta)` is one
logarithm, :math:`\log\bigl(1 + (e^\varepsilon - 1)/(2\delta)\bigr)`, whose powers
stay readable and whose expansions stay clean.
"""

from __future__ import annotations

from collections import defaultdict

import sympy as sp


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
    if not expr.args:
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


def factor(expr: sp.Expr) -> sp.Expr:
    r"""One fraction, factored, with every logarithm left as it is.

    ``sympy.factor`` and ``sympy.cancel`` work inside logarithms and split them
    (:math:`\log(a/b) \to \log a - \log b`), undoing :func:`combine_logs`; here each
    logarithm is a fixed atom.
    """
    expr = combine_logs(expr)
    logs = {lg: sp.Dummy() for lg in expr.atoms(sp.log)}
    factored = sp.factor(sp.cancel(sp.together(expr.xreplace(logs))))
    return factored.xreplace({d: lg for lg, d in logs.items()})


def tidy(expr: sp.Expr) -> sp.Expr:
    """Keep exponentials (sympy may produce tanh), combine logarithms, factor."""
    return factor(sp.powsimp(sp.sympify(expr).rewrite(sp.exp)))
