r"""Output of the notebooks, in Jupyter and in a plain terminal.

The proof-check notebooks (``notebooks/*.py``, jupytext percent format) run two ways: as
notebooks in Jupyter (``jupyter lab notebooks/``), where formulas are typeset with
IPython's :class:`~IPython.display.Math` and figures are drawn inline, and as scripts
(``python notebooks/laplace.py``), possibly with only ``pip install .`` (no IPython),
where :func:`show` prints each formula as a line of LaTeX text and :func:`show_figure`
saves each figure as a PNG file and prints its path. Which way is decided by
:func:`in_jupyter`: a running IPython *kernel*, not merely an importable IPython.

Figures of a script go to the directory named by the environment variable
``DPSYM_FIGURES``, by default ``dpsym-figures`` in the system's temporary directory (never
into the checkout), as ``<notebook>-<n>.png``.

A checked claim is shown by :func:`show_verdict`: its text, its derivation and a *verdict
badge* saying how the verdict was reached (:func:`verdict_badge`: ``proof``,
``instances`` or ``undecided``, or ``fails``), as HTML in Jupyter (a ``<span>`` with the
classes ``dpsym-verdict`` and ``dpsym-verdict-<kind>``, which the documentation's theme
styles) and as a bracketed line of plain text elsewhere.
"""

from __future__ import annotations

import html
import os
import sys
import tempfile
from collections import Counter
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import sympy as sp

from dpsym.symbols import eps

__all__ = ["FIGURES_ENV", "VERBATIM_ROWS", "VERDICT_KINDS", "figure_directory", "in_jupyter",
           "math_text", "show", "show_figure", "show_verdict", "verdict_badge", "verdict_kind"]

#: The badge kinds: how a verdict was reached, or that the statement fails.
VERDICT_KINDS = ("proof", "instances", "undecided", "fails")

#: The environment variable naming the directory where a script's figures are saved.
FIGURES_ENV = "DPSYM_FIGURES"
_COUNTS: Counter[str] = Counter()


def in_jupyter() -> bool:
    """Whether this code runs in a Jupyter kernel (an IPython shell with a kernel: the
    notebook front ends, ``nbclient``), where rich output is displayed."""
    ipython = sys.modules.get("IPython")  # a kernel has imported it; nothing else needs to
    if ipython is None:
        return False
    shell = ipython.get_ipython()
    return shell is not None and getattr(shell, "kernel", None) is not None


def math_text(label: str, expr: Any) -> str:
    r"""The LaTeX text ``label = expr`` (``label`` is LaTeX already, e.g. ``r"\gamma^*"``;
    the symbol ``eps`` is written :math:`\varepsilon`)."""
    return label + " = " + sp.latex(expr, symbol_names={eps: r"\varepsilon"})


def show(label: str, expr: Any) -> None:
    r"""Show ``label = expr``: typeset in Jupyter, one line of LaTeX text elsewhere.

    Parameters
    ----------
    label : str
        The left-hand side, in LaTeX (``r"\mathbb{E}|X|"``).
    expr : sympy expression or number
        The right-hand side, printed with :func:`sympy.latex`.
    """
    text = math_text(label, expr)
    if in_jupyter():
        from IPython.display import Math, display  # optional: loaded in a kernel already

        display(Math(text))
    else:
        print(text, flush=True)


def figure_directory() -> Path:
    """Where a script's figures are saved: ``$DPSYM_FIGURES``, else ``dpsym-figures`` in
    the temporary directory (created if needed)."""
    directory = Path(os.environ.get(FIGURES_ENV) or
                     Path(tempfile.gettempdir()) / "dpsym-figures")
    directory.mkdir(parents=True, exist_ok=True)
    return directory


def show_figure(fig: Any = None, name: str | None = None) -> Path | None:
    """Show a matplotlib figure (default the current one): inline in Jupyter; elsewhere
    saved as PNG into :func:`figure_directory` (its path printed) and closed.

    Parameters
    ----------
    fig : matplotlib.figure.Figure, optional
        The figure (default :func:`matplotlib.pyplot.gcf`).
    name : str, optional
        The file name's stem (default the running script's name, e.g. ``laplace``).

    Returns
    -------
    Path or None
        The PNG file written, or None in Jupyter.
    """
    import matplotlib.pyplot as plt  # optional and slow to import: only figures need it

    if in_jupyter():
        plt.show()
        return None
    fig = plt.gcf() if fig is None else fig
    stem = name or Path(sys.argv[0] if sys.argv and sys.argv[0] else "figure").stem
    stem = stem if stem not in ("", "-c", "-") else "figure"
    _COUNTS[stem] += 1
    path = figure_directory() / f"{stem}-{_COUNTS[stem]}.png"
    fig.savefig(path, dpi=100)
    plt.close(fig)
    print(f"[figure saved to {path}]", flush=True)
    return path


def verdict_kind(decision: str, status: str) -> str:
    """The badge kind of a verdict: ``"fails"`` for a statement that fails (or a check that
    did not run), else the ``decision`` (``"proof"``, ``"instances"``, ``"undecided"``)."""
    if status.startswith(("fails", "error")):
        return "fails"
    if decision not in VERDICT_KINDS:
        raise ValueError(f"decision: unknown {decision!r}; one of {VERDICT_KINDS[:3]}")
    return decision


def verdict_badge(decision: str, status: str, html_output: bool = True) -> str:
    """The badge ``"<decision> · <status>"`` of a verdict: an HTML ``<span>`` with the
    classes ``dpsym-verdict dpsym-verdict-<kind>`` (:func:`verdict_kind`), or, with
    ``html_output=False``, the same text in square brackets.

    Examples
    --------
    >>> verdict_badge("proof", "holds")
    '<span class="dpsym-verdict dpsym-verdict-proof">proof · holds</span>'
    >>> verdict_badge("instances", "holds at 3 instances", html_output=False)
    '[instances · holds at 3 instances]'
    """
    kind = verdict_kind(decision, status)
    text = f"{decision} · {status}"
    if not html_output:
        return f"[{text}]"
    return f'<span class="dpsym-verdict dpsym-verdict-{kind}">{html.escape(text)}</span>'


#: The labels of the rows of :func:`show_verdict` that quote a source's own markup (its
#: LaTeX as printed, ``$`` and all): shown verbatim, as code, never typeset.
VERBATIM_ROWS = ("printed",)


def show_verdict(title: str, rows: Sequence[tuple[str, str]], decision: str, status: str,
                 points: Sequence[str] = ()) -> None:
    """Show a checked claim: ``title`` (its id and place), the labelled ``rows`` (the
    printed text, the corrected one, the derivation, ...), the verdict badge and, for a
    verdict reached at instances, the ``points``. HTML in Jupyter, plain text elsewhere
    (never an object's repr). A row labelled as in :data:`VERBATIM_ROWS` (the source's
    text as printed, with its own markup) is a ``<code>`` element in HTML."""
    if in_jupyter():
        from IPython.display import HTML, display  # optional: loaded in a kernel already

        items = "".join(
            f"<dt>{html.escape(label)}</dt><dd>"
            + (f"<code>{html.escape(text)}</code>" if label in VERBATIM_ROWS
               else html.escape(text)) + "</dd>"
            for label, text in rows)
        if points:
            listed = "".join(f"<li>{html.escape(p)}</li>" for p in points)
            items += f"<dt>instances</dt><dd><ol>{listed}</ol></dd>"
        display(HTML(f'<div class="dpsym-claim"><p><strong>{html.escape(title)}</strong> '
                     f"{verdict_badge(decision, status)}</p><dl>{items}</dl></div>"))
        return
    lines = [f"{title} {verdict_badge(decision, status, html_output=False)}"]
    lines += [f"  {label}: {text}" for label, text in rows]
    if points:
        lines.append(f"  instances ({len(points)}):")
        lines += [f"    {j}. {p}" for j, p in enumerate(points, start=1)]
    print("\n".join(lines), flush=True)
