r"""Printers shared by the command (:mod:`dpsym.cli`) and the main job (:mod:`dpsym.derive`).

Expressions as plain text that sympy reads back (:func:`expression_text`,
:func:`parse_expression`) and as LaTeX (:func:`latex_text`); aligned text tables
(:func:`format_table`); JSON, as one line (:func:`emit_json`) or as a deterministic
document with a stamp (:func:`json_document`); and short descriptions used in listings
(:func:`describe_free`, :func:`one_line`).

This module formats only: it computes nothing and imports neither the command nor the
main job.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any, TextIO

import sympy as sp
from sympy.printing.str import StrPrinter

from dpsym.certified.rounding import display_number
from dpsym.symbolic.regimes import ascending
from dpsym.symbols import PUBLIC_SYMBOLS, eps

__all__ = ["ascending", "describe_free", "display_number", "emit_json", "expression_text",
           "format_table", "json_document", "latex_text", "one_line", "parse_expression"]

#: The summation index of a ``LerchSum`` printed as the sum it denotes.
_K = sp.Symbol("k", integer=True, nonnegative=True)


class _ExpressionPrinter(StrPrinter):
    """``str()`` printing, with the Gamma function and ``LerchSum`` spelled so that
    :func:`parse_expression` reads them back."""

    def _print_gamma(self, e: Any) -> str:
        return f"uppergamma({self._print(e.args[0])}, 0)"

    def _print_LerchSum(self, e: Any) -> str:
        z, s, a = e.args
        start = 1 if a == 0 else 0
        return self._print(sp.Sum(z**_K * (_K + a) ** s, (_K, start, sp.oo)))


def expression_text(expr: Any, *, ordered: bool = False) -> str:
    r"""``expr`` as plain ``str()`` text that ``sympy.parse_expr`` reads back.

    The text is read with ``local_dict=dpsym.symbols.PUBLIC_SYMBOLS``, where ``gamma``
    is the staircase's parameter; the Gamma *function* is therefore written
    ``uppergamma(z, 0)`` (which sympy evaluates back to ``gamma(z)``), and the engine's
    ``LerchSum(z, s, a)`` as the sum it denotes, :math:`\sum_{k \ge 0} z^k (k + a)^s`
    (from :math:`k = 1` when :math:`a = 0`, since the engine takes :math:`0^s = 0`).
    """
    return _ExpressionPrinter({"order": "none"} if ordered else {}).doprint(expr)


def latex_text(expr: Any, *, ordered: bool = False) -> str:
    r"""``expr`` in LaTeX, with :math:`\varepsilon` for ``eps`` (the terms of a sum in
    the order given when ``ordered``, see :func:`ascending`)."""
    return sp.latex(expr, symbol_names={eps: r"\varepsilon"},
                    **({"order": "none"} if ordered else {}))


def parse_expression(text: str) -> sp.Expr:
    """Read an expression printed by :func:`expression_text` (the public symbols).

    Meant for text this package printed (tests, round trips), never for user input.
    """
    return sp.parse_expr(text, local_dict=dict(PUBLIC_SYMBOLS))


def format_table(rows: Sequence[Sequence[str]]) -> list[str]:
    """The rows as lines of aligned columns (the last column is not padded)."""
    if not rows:
        return []
    ncols = len(rows[0])
    widths = [max(len(r[i]) for r in rows) for i in range(ncols - 1)]
    lines = []
    for r in rows:
        cells = [c.ljust(w) for c, w in zip(r[:-1], widths, strict=True)]
        lines.append("  ".join([*cells, r[-1]]).rstrip())
    return lines


def emit_json(obj: Any, out: TextIO) -> None:
    """Write ``obj`` to ``out`` as one line of JSON (keys in their order, UTF-8 text)."""
    out.write(json.dumps(obj, ensure_ascii=False, sort_keys=False) + "\n")


def json_document(payload: dict[str, Any], stamp: str) -> str:
    """``payload`` with ``stamp`` as deterministic JSON text: keys sorted, indented by two,
    UTF-8 text, one final newline."""
    return json.dumps({"stamp": stamp, **payload}, indent=2, sort_keys=True,
                      ensure_ascii=False) + "\n"


def one_line(text: object, limit: int = 2000) -> str:
    """``text`` on one line (whitespace runs collapsed), at most ``limit`` characters."""
    line = " ".join(str(text).split())
    return line if len(line) <= limit else line[: limit - 3] + "..."


def describe_free(cls: Any) -> str | None:
    """``r in {1, ..., Delta}`` or ``gamma in [0, 1]``: the range of the free parameter of
    a mechanism class (``None`` when it has none)."""
    fp = cls.free
    if fp is None:
        return None
    if fp.integer:
        return f"{fp.name} in {{{fp.lower}, ..., {fp.upper}}}"
    return f"{fp.name} in [{fp.lower}, {fp.upper}]"
