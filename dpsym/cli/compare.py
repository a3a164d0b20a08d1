"""``dpsym compare``: which mechanism to use, as a table, Markdown, LaTeX, CSV or JSON.

Costs and ratios are shown in one style (:func:`dpsym.reports.printing.display_number`): every
cost with the digits asked for, every ratio with :data:`dpsym.reports.selection.RATIO_DIGITS`,
positional or scientific as the magnitude requires. JSON keeps the certified texts.
"""

from __future__ import annotations

import argparse
import csv
import io
from typing import Any, TextIO

from dpsym.cli.options import error_message
from dpsym.core.params import Guarantee
from dpsym.errors import DpsymError
from dpsym.reports.printing import display_number, emit_json, format_table, one_line
from dpsym.reports.selection import (
    QUERIES,
    RATIO_DIGITS,
    Comparison,
    Skipped,
    compare,
    compare_inputs,
)

#: The output formats of ``dpsym compare --format``.
FORMATS = ("table", "md", "latex", "csv", "json")
_COLUMNS = ("RANK", "MECHANISM", "GUARANTEE", "COST", "RATIO")


def guarantee_label(guarantee: str) -> str:
    """How a guarantee is shown in tables (``eps-DP``, ``(eps,delta)-DP``, ...)."""
    try:
        return Guarantee(guarantee).label
    except ValueError:
        return str(guarantee)


def skip_reason(skipped: Skipped) -> str:
    """Why an entry was left out, on one line, in the command's words."""
    error = skipped.error
    if not isinstance(error, DpsymError):  # (internal: a bug of that entry)
        return f"internal error: {type(error).__name__}: {one_line(error, 200)}"
    return one_line(error_message(error), 300)


def comparison_record(result: Comparison) -> dict[str, Any]:
    """The JSON object of ``dpsym compare --json``."""
    inputs = result.inputs
    rows = []
    for r in result.rows:
        row: dict[str, Any] = {"name": r.name, "title": r.title, "kind": r.kind,
                               "query": r.query, "guarantee": str(r.guarantee),
                               "cost": r.cost, "certificate": r.certificate,
                               "enclosure": list(r.enclosure), "ratio": r.ratio}
        if r.rank is not None:
            row["rank"] = r.rank
        rows.append(row)
    skipped = [{"name": s.name, "kind": s.kind, "query": s.query, "reason": skip_reason(s)}
               for s in result.skipped]
    return {"eps": inputs.text["eps"], "delta": inputs.text["delta"],
            "sensitivity": inputs.text["Delta"], "cost": inputs.cost.name,
            "digits": inputs.digits, "dim": None if inputs.dim is None else int(inputs.dim),
            "rows": rows, "skipped": skipped, "excluded": list(result.excluded)}


def section_rows(record: dict[str, Any], query: str) -> list[tuple[str, ...]]:
    """The rows of one section (``real`` or ``integer``), numbers in the display style."""
    table: list[tuple[str, ...]] = []
    for r in record["rows"]:
        if r["query"] != query:
            continue
        cost = display_number(r["cost"], record["digits"])
        ratio = "-" if r["ratio"] is None else display_number(r["ratio"], RATIO_DIGITS)
        if r["kind"] == "mechanism":
            table.append((str(r["rank"]), r["name"], guarantee_label(r["guarantee"]), cost,
                          ratio))
        else:
            shown = ratio if r["ratio"] is None else f"{ratio} (best / bound)"
            table.append(("lower bound", r["name"], guarantee_label(r["guarantee"]), cost,
                          shown))
    return table


def _heading(record: dict[str, Any]) -> str:
    head = (f"eps = {record['eps']}, delta = {record['delta']}, sensitivity = "
            f"{record['sensitivity']}, cost {record['cost']}, {record['digits']} digits")
    if record["dim"] is not None:
        head += f", dimension {record['dim']}"
    return head


def _notes(record: dict[str, Any]) -> list[str]:
    """The skipped entries and those not compared, as lines."""
    lines = []
    if record["skipped"]:
        lines += ["", "skipped"]
        for s in record["skipped"]:
            kind = " (lower bound)" if s["kind"] == "lower bound" else ""
            lines.append(f"  {s['name']}{kind}: {s['reason']}")
    if record["excluded"]:
        why = ("one-dimensional" if record["dim"] is not None
               else "multi-dimensional; compare them with --dim D")
        lines += ["", f"not compared ({why}): {', '.join(record['excluded'])}"]
    return lines


def render_table(record: dict[str, Any]) -> str:
    """Aligned text tables, one per section, then the notes."""
    lines = [_heading(record)]
    for query in QUERIES:
        rows = section_rows(record, query)
        lines += ["", f"{query}-valued query"]
        if not any(r[0] != "lower bound" for r in rows):
            lines.append("  (no mechanism)")
        if rows:
            lines += ["  " + line for line in format_table([_COLUMNS, *rows])]
    return "\n".join(lines + _notes(record)) + "\n"


def render_markdown(record: dict[str, Any]) -> str:
    """GitHub-flavoured Markdown: a heading line, one table per section, the notes."""
    lines = [f"**{_heading(record)}**"]
    for query in QUERIES:
        rows = section_rows(record, query)
        lines += ["", f"*{query}-valued query*", ""]
        if not rows:
            lines.append("(no mechanism)")
            continue
        lines.append("| " + " | ".join(c.lower() for c in _COLUMNS) + " |")
        lines.append("|" + "|".join(["---"] * 3 + ["---:"] * 2) + "|")
        lines += ["| " + " | ".join(f"`{c}`" if i == 1 else c for i, c in enumerate(r)) + " |"
                  for r in rows]
    return "\n".join(lines + [line.replace("  ", "- ", 1) if line.startswith("  ") else line
                              for line in _notes(record)]) + "\n"


def _latex_escape(text: str) -> str:
    for a, b in (("\\", r"\textbackslash{}"), ("&", r"\&"), ("%", r"\%"), ("_", r"\_"),
                 ("#", r"\#"), ("$", r"\$"), ("{", r"\{"), ("}", r"\}")):
        text = text.replace(a, b) if a != "\\" else text.replace(a, "\0")
    return text.replace("\0", r"\textbackslash{}")


def _latex_number(text: str) -> str:
    mantissa, e, exponent = text.partition("e")
    return f"${mantissa} \\times 10^{{{int(exponent)}}}$" if e else f"${text}$"


def render_latex(record: dict[str, Any]) -> str:
    """A booktabs ``tabular`` with one block per section (notes as LaTeX comments)."""
    lines = [f"% {_heading(record)}", r"\begin{tabular}{llllr}", r"\toprule",
             " & ".join(c.capitalize() for c in _COLUMNS) + r" \\"]
    for query in QUERIES:
        rows = section_rows(record, query)
        lines += [r"\midrule", rf"\multicolumn{{5}}{{l}}{{\emph{{{query}-valued query}}}} \\"]
        for r in rows:
            ratio = r[4].replace(" (best / bound)", "")
            cells = [_latex_escape(r[0]), rf"\texttt{{{_latex_escape(r[1])}}}",
                     _latex_escape(r[2]).replace("eps", r"$\varepsilon$").replace(
                         "delta", r"$\delta$"), _latex_number(r[3]),
                     "--" if ratio == "-" else _latex_number(ratio)
                     + (" (best/bound)" if r[0] == "lower bound" else "")]
            lines.append(" & ".join(cells) + r" \\")
    lines += [r"\bottomrule", r"\end{tabular}"]
    return "\n".join(lines + [f"% {line.strip()}" for line in _notes(record) if line]) + "\n"


def render_csv(record: dict[str, Any]) -> str:
    """One row per entry (the certified texts), then one per skipped entry."""
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    writer.writerow(["query", "rank", "kind", "name", "guarantee", "cost", "ratio", "reason"])
    for r in record["rows"]:
        writer.writerow([r["query"], r.get("rank", ""), r["kind"], r["name"], r["guarantee"],
                         r["cost"], r["ratio"] or "", ""])
    for s in record["skipped"]:
        writer.writerow([s["query"] or "", "", s["kind"], s["name"], "", "", "", s["reason"]])
    return buffer.getvalue()


RENDERERS = {"table": render_table, "md": render_markdown, "latex": render_latex,
             "csv": render_csv}


def cmd_compare(args: argparse.Namespace, out: TextIO) -> int:
    """``dpsym compare``: the mechanisms that are (eps, delta)-DP at the given parameters,
    ranked by their optimal cost, with the lower bounds."""
    inputs = compare_inputs(args.eps, args.delta,
                            args.sensitivity, args.cost, args.digits,
                            dim=args.dim, lp=args.lp,
                            grid=args.grid)
    record = comparison_record(compare(inputs))
    fmt = "json" if args.json else args.format
    if fmt == "json":
        emit_json(record, out)
    else:
        out.write(RENDERERS[fmt](record))
    return 0
