r"""``sympy.lambdify`` to mpmath for expressions with exact integers of any size.

Exact constants such as :math:`\gamma^* \approx e^{-\varepsilon/2}` at
:math:`\varepsilon = 10^5`, read back from their certified digits, are rationals whose
numerator and denominator have tens of thousands of digits. ``sympy.lambdify`` prints
them as decimal literals (and once more into the function's docstring), which Python
refuses beyond 4300 digits (``sys.set_int_max_str_digits``); here long integers are
printed as hexadecimal literals, which have no such limit, and no docstring is made.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import mpmath
import sympy as sp
from sympy.printing.pycode import MpmathPrinter

#: Integers of at least this many bits are printed in hexadecimal (4300 decimal digits
#: are about 14284 bits; decimal below, for readable generated code).
HEX_BITS = 4000


def literal(n: int) -> str:
    """``n`` as a Python literal: decimal, or hexadecimal when it is long."""
    return str(n) if n.bit_length() < HEX_BITS else hex(n)


class LongIntMpmathPrinter(MpmathPrinter):
    """sympy's mpmath printer with long integers as hexadecimal literals."""

    def _print_int(self, expr: int) -> str:
        return literal(expr)

    def _print_Integer(self, expr: sp.Integer) -> str:
        return literal(int(expr))


def mpmath_function(args: sp.Symbol | Sequence[sp.Symbol], expr: Any) -> Callable[..., Any]:
    """``sympy.lambdify(args, expr, "mpmath")`` with long integers printed exactly."""
    return sp.lambdify(args, expr, [{"mpmath": mpmath}, "mpmath"],
                       printer=LongIntMpmathPrinter, docstring_limit=0)
