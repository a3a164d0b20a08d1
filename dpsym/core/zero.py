"""Whether a symbolic expression is identically zero, decided exactly.

The one exact zero test that the sampler's structure, the closed-form privacy profiles and
the claim checks share: sympy's assumptions first (a proven zero or a proven nonzero), then
the cheap exact reductions (expansion, rational cancellation in the expression's atoms),
then ``simplify``. ``False`` means *not shown to be zero*: a caller that needs a zero
treats it as a refusal, never as a proof of a nonzero value.
"""

from __future__ import annotations

import sympy as sp


def is_identically_zero(expr: object) -> bool:
    r"""Whether ``expr`` is identically :math:`0` in its symbols.

    Parameters
    ----------
    expr : sympy expression or number
        The expression.

    Returns
    -------
    bool
        ``True`` when sympy's assumptions prove :math:`\mathrm{expr} = 0`, or its
        expansion, its cancellation (``cancel``: rational arithmetic in its atoms) or
        ``simplify`` reduces it to :math:`0`; ``False`` otherwise (proven nonzero, or not
        decided).
    """
    value: sp.Expr = sp.sympify(expr)
    if value.is_zero is not None:
        return bool(value.is_zero)
    return sp.expand(value) == 0 or sp.cancel(value) == 0 or sp.simplify(value) == 0
