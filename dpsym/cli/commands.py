"""The command handlers: each reads its parsed arguments, asks the engine (or
:mod:`dpsym.reports.selection`, :mod:`dpsym.reports.audit`, :mod:`dpsym.reports.sweep`,
:mod:`dpsym.claims`,
:mod:`dpsym.derive`) and prints the answer. A handler returns the exit status."""

from __future__ import annotations

import argparse
import functools
import sys
import textwrap
from typing import Any, TextIO

import sympy as sp

from dpsym.certified.rounding import check_digits
from dpsym.cli.compare import guarantee_label
from dpsym.cli.options import (
    AUDIT_RENAMES,
    OPTION_OF_PARAM,
    PARAM_ALIASES,
    CliError,
    check_symbolic_params,
    get_entry,
    given_params,
    instance,
    is_bound,
    option,
    parse_count,
    parse_order,
    registries,
    specialise,
)
from dpsym.cli.output import check_output, write_output
from dpsym.core.costs import parse_cost
from dpsym.core.params import resolve_quantity
from dpsym.errors import DomainError, UnsupportedError
from dpsym.reports.audit import audit, audit_noise
from dpsym.reports.printing import (
    ascending,
    describe_free,
    emit_json,
    expression_text,
    latex_text,
)
from dpsym.reports.sweep import failures, parse_values, sweep, to_csv, to_json
from dpsym.symbolic.regimes import get_regime
from dpsym.symbols import display_eps

# ---------------------------------------------------------------------- list
#: The width of ``dpsym list``'s text output.
LIST_WIDTH = 100


def cmd_list(args: argparse.Namespace, out: TextIO) -> int:
    """``dpsym list``: the mechanisms and the lower bounds, their guarantee, parameters with
    domains and quantities."""
    mechanisms, bounds = registries()
    rows = []
    for kind, registry in (("mechanism", mechanisms), ("lower bound", bounds)):
        for cls in registry.values():
            params = cls.describe_params()
            for prm in params:
                prm["option"] = option(prm["name"])
            rows.append({
                "name": cls.name,
                "kind": kind,
                "title": cls.title,
                "guarantee": str(cls.guarantee),
                "lattice": bool(cls.lattice),
                "params": params,
                "quantities": list(cls.quantities()),
                "free": describe_free(cls),
                "source": cls.source,
                "limits": list(getattr(cls, "limits", ())),
            })
    if args.json:
        emit_json(rows, out)
        return 0
    width = LIST_WIDTH
    for kind, heading in (("mechanism", "MECHANISMS"), ("lower bound", "LOWER BOUNDS")):
        out.write(f"{heading}\n")
        for row in (r for r in rows if r["kind"] == kind):
            out.write(f"\n  {row['name']}  [{guarantee_label(row['guarantee'])}]\n")
            parts = []
            for prm in row["params"]:
                text = f"{prm['name']} {prm['domain']}"
                if prm["default"]:
                    text += f" [default {prm['default']}]"
                parts.append(text)
            joined = "parameters: " + "; ".join(parts)
            lines = [row["title"]]
            lines += ([joined] if len(joined) + 4 <= width
                      else ["parameters:", *(f"    {part}" for part in parts)])
            lines.append("quantities: " + ", ".join(row["quantities"]))
            lines += [f"limit: {text}" for text in row["limits"]]
            for line in lines:
                out.write(textwrap.fill(line, width, initial_indent="    ",
                                        subsequent_indent="        ", break_on_hyphens=False)
                          + "\n")
        out.write("\n")
    options = ", ".join(f"{opt} sets {param}" for param, opt in OPTION_OF_PARAM.items())
    notes = [f"options of `dpsym value`: {options}; any other parameter NAME: --NAME",
             "`dpsym series` and `dpsym formula` take the integer parameters other than "
             "Delta (--dim, --grid)"]
    for note in notes:
        out.write(textwrap.fill(note, width, subsequent_indent="  ") + "\n")
    return 0


# ---------------------------------------------------------------------- value
def cmd_value(args: argparse.Namespace, out: TextIO) -> int:
    """``dpsym value``: a quantity certified to ``--digits`` significant digits (a lower
    bound's value is rounded down)."""
    cls = get_entry(args.mechanism)
    quantity = resolve_quantity(cls, args.quantity)
    cost = parse_cost(args.cost)
    digits = check_digits(args.digits)
    given = given_params(args)
    inst = instance(cls, given)
    method = {} if args.method == "auto" else {"method": args.method}
    if method and is_bound(cls):
        raise DomainError("method", f"applies to mechanisms; the lower bound {cls.name} is "
                          "certified with mpmath and rounded down")
    value = inst.value(quantity, cost, digits, **method)
    if args.json:
        params = {}
        for prm in cls.params:
            if prm.name in given:
                params[prm.name] = given[prm.name].strip()
            elif prm.default is not None:
                params[prm.name] = str(prm.default)
        record = {"mechanism": cls.name, "quantity": quantity, "cost": cost.name,
                  "params": params, "digits": digits, **value.as_record()}
        if is_bound(cls):
            record["kind"] = "lower bound"
        emit_json(record, out)
    else:
        out.write(value.text + "\n")
    return 0


# ---------------------------------------------------------------------- formula, series
def _expression_record(expr: Any, *, in_b: bool = False,
                       variable: Any = None) -> dict[str, str]:
    """The ``expression`` and ``latex`` keys for ``expr`` (written in eps unless ``in_b``;
    a series in increasing powers of its ``variable``)."""
    text, latex = _expression_texts(sp.sympify(expr), in_b, variable)
    return {"expression": text, "latex": latex}


@functools.lru_cache(maxsize=256)
def _expression_texts(expr: sp.Expr, in_b: bool, variable: Any) -> tuple[str, str]:
    """:func:`_expression_record`'s texts, once per (expression, ``in_b``, variable): a pure
    function of immutable sympy objects (the factored form in eps and the LaTeX printing
    are most of a ``formula`` or ``series`` command, asked again for ``--json`` and
    ``--latex``)."""
    if not in_b:
        expr = display_eps(expr)
    if variable is None:
        return expression_text(expr), latex_text(expr)
    expr = ascending(expr, variable)
    return expression_text(expr, ordered=True), latex_text(expr, ordered=True)


def _symbolic_entry(command: str, args: argparse.Namespace
                    ) -> tuple[Any, dict[Any, Any], dict[str, str]]:
    """The entry of ``series``/``formula`` specialised to the discrete parameters given."""
    cls = get_entry(args.mechanism)
    given = given_params(args)
    check_symbolic_params(command, cls, given)
    return specialise(cls, given)


def cmd_formula(args: argparse.Namespace, out: TextIO) -> int:
    """``dpsym formula``: the closed form of a quantity (or the cost to minimise)."""
    cls, subs, shown = _symbolic_entry("formula", args)
    quantity = resolve_quantity(cls, args.quantity)
    cost = parse_cost(args.cost)
    record: dict[str, Any] = {"mechanism": cls.name, "quantity": quantity, "cost": cost.name,
                              "params": dict(shown)}
    minimise_over = None
    try:
        expr = cls.formula(quantity, cost)
    except UnsupportedError:
        if cls.free is None:
            raise
        # No closed form for the optimum: give the cost to minimise over the free
        # parameter instead (for the quantity ``r`` this is the function whose minimiser
        # it is).
        expr = cls.cost_function(cost)
        minimise_over = describe_free(cls)
    if subs:
        expr = expr.subs(subs)
    record.update(_expression_record(expr))
    if minimise_over is not None:
        record["minimise_over"] = minimise_over
        record["note"] = (f"no closed form for the optimal {quantity}; expression is the "
                          f"expected cost as a function of {cls.free.name}, to be minimised "
                          f"over {minimise_over}")
    if args.json:
        emit_json(record, out)
    else:
        out.write((record["latex"] if args.latex else record["expression"]) + "\n")
        if minimise_over is not None:
            out.write(f"minimised over {minimise_over}\n")
    return 0


def cmd_series(args: argparse.Namespace, out: TextIO) -> int:
    """``dpsym series``: the asymptotic expansion of a quantity in a regime."""
    cls, subs, shown = _symbolic_entry("series", args)
    quantity = resolve_quantity(cls, args.quantity)
    cost = parse_cost(args.cost)
    regime = get_regime(args.regime)
    order = parse_order(args.order)
    expr = cls.series(quantity, cost, regime.name, order)
    if subs:
        expr = expr.subs(subs)
    in_b = regime.name == "eps->oo"
    record: dict[str, Any] = {"mechanism": cls.name, "quantity": quantity, "cost": cost.name,
                              "params": {**shown, "regime": regime.name, "order": order},
                              "regime": regime.name, "order": order}
    record.update(_expression_record(expr, in_b=in_b, variable=regime.variable))
    if in_b:
        record["variable"] = "b = exp(-eps)"
    if args.json:
        emit_json(record, out)
    else:
        out.write((record["latex"] if args.latex else record["expression"]) + "\n")
    return 0


# ---------------------------------------------------------------------- audit, sweep
def _audited_noise(args: argparse.Namespace) -> Any:
    """The instance of the noise declared by ``--noise`` that ``audit`` checks: its
    parameters from their options (:data:`~dpsym.cli.options.AUDIT_RENAMES`), its
    sensitivity ``--sensitivity``; the catalogue's noise options it does not take are
    refused."""
    cls = args.noise
    names = [prm.name for prm in cls.params if prm.name != "Delta"]
    names += [] if cls.free is None else [cls.free.name]
    flags = {AUDIT_RENAMES.get(name, name): name for name in names}
    for flag in ("sigma", "scale", "bound", "eps0", "gamma"):
        if flag not in flags and getattr(args, flag, None) is not None:
            raise CliError(f"--{flag}: not a parameter of {cls.name}; its options: "
                           + ", ".join(f"--{f}" for f in flags))
    given = {name: getattr(args, flag) for flag, name in flags.items()
             if getattr(args, flag, None) is not None}
    given["Delta"] = args.sensitivity
    return cls(**given)


def cmd_audit(args: argparse.Namespace, out: TextIO) -> int:
    """``dpsym audit``: the delta a noise with user-supplied parameters achieves (a
    catalogue noise, or the noise declared by ``--noise``)."""
    if getattr(args, "noise", None) is not None:
        result = audit_noise(_audited_noise(args), args.eps, args.delta, args.digits)
    else:
        noise = {name: getattr(args, name)
                 for name in ("sigma", "scale", "bound", "eps0", "gamma")}
        result = audit(args.mechanism, args.eps,
                       args.delta, args.sensitivity,
                       args.digits, **noise)
    status = 1 if result.met is False else 0
    if args.json:
        emit_json(result.as_dict(), out)
        return status
    out.write(f"delta = {result.text}\n")
    if result.met is not None:
        verdict = "met" if result.met else "NOT met"
        out.write(f"target delta = {args.delta}: {verdict}\n")
    needed = result.needed
    if needed is not None:
        if needed.value is None:
            out.write(f"no {needed.parameter} meets the target: {needed.reason}\n")
        elif len(needed.intervals) > 1 or (needed.intervals
                                            and needed.intervals[0][1] is not None):
            record = result.as_dict()["needed_set"]
            parts = [f"[{lo}, {hi}]" if hi is not None else f">= {lo}" for lo, hi in record]
            out.write(f"{needed.parameter} in {' or '.join(parts)} meets the target (the "
                      "other parameters unchanged; with the bound fixed, delta is not "
                      "monotone in the scale)\n")
        else:
            relation = "<=" if needed.parameter == "eps0" else ">="
            out.write(f"{needed.parameter} {relation} {result.as_dict()['needed']} meets the "
                      "target (the other parameters unchanged)\n")
    return status


def _sweep_error(exc: DomainError) -> CliError:
    """An error of the sweep's request in the command's words (``--param``)."""
    body = str(exc)
    name = getattr(exc, "name", None)
    if isinstance(name, str) and body.startswith(f"{name}: "):
        body = body[len(name) + 2:]
    if name == "points":
        return CliError(f"--param: {body} (the product of the numbers of values)")
    return CliError(f"--param {str(name)[:40]}: {body}")


def _sweep_grid(params: list[str] | None) -> dict[str, list[str]]:
    """The grid of ``--param NAME=VALUES`` options (each parameter once)."""
    grid: dict[str, list[str]] = {}
    for opt in params or []:
        name, sep, values = opt.partition("=")
        if not sep or not name:
            raise CliError(f"--param: expected NAME=VALUES, got {opt[:40]!r}")
        name = PARAM_ALIASES.get(name, name)
        if name in grid:
            raise CliError(f"--param: {name} given more than once; give its values in one "
                           "--param")
        try:
            grid[name] = parse_values(values, name)
        except DomainError as exc:
            raise _sweep_error(exc) from exc
    if not grid:
        raise CliError("--param: give at least one NAME=VALUES")
    return grid


def cmd_sweep(args: argparse.Namespace, out: TextIO) -> int:
    """``dpsym sweep``: a quantity over a parameter grid, written as CSV or JSON.

    Every option, ``--out`` included, is checked before any point is evaluated. Points
    that fail are rows with an ``error`` (and one line on standard error counts them).
    """
    grid = _sweep_grid(args.param)
    entry = get_entry(args.mechanism)  # names in any case, as every command takes them
    args.mechanism, args.quantity = entry.name, resolve_quantity(entry, args.quantity)
    workers = None
    if args.workers is not None:
        workers = parse_count(args.workers, "--workers", 1, 256)
    timeout, memory = args.timeout, args.memory  # checked by main: budgets per point
    if args.out is not None:
        check_output(args.out)
    progress = None
    if sys.stderr.isatty():
        def progress(done: int, total: int) -> None:
            sys.stderr.write(f"\r{done}/{total}")
            if done == total:
                sys.stderr.write("\n")
    digits = check_digits(args.digits)
    try:
        rows = sweep(args.mechanism, grid, args.quantity, args.cost, digits,
                     workers=workers, progress=progress, timeout=timeout, memory=memory)
    except DomainError as exc:
        if exc.name == "points" or exc.name in grid:
            raise _sweep_error(exc) from exc
        raise
    except KeyboardInterrupt:
        if progress is not None:
            sys.stderr.write("\n")
        raise
    meta = {"mechanism": args.mechanism, "quantity": args.quantity, "cost": args.cost,
            "digits": digits}
    text = to_json(rows, meta) if args.json or args.format == "json" else to_csv(rows)
    if args.out is None:
        out.write(text)
    else:
        write_output(args.out, text)
    failed = failures(rows)
    if failed:
        sys.stderr.write(f"dpsym: note: {failed} of {len(rows)} points have no value (see "
                         "the error column)\n")
    return 0


# ---------------------------------------------------------------------- check, derive
def cmd_check(args: argparse.Namespace, out: TextIO) -> int:
    """``dpsym check``: run the registered source claims; exit 1 if any disagrees (see
    :func:`dpsym.cli.check.run`)."""
    # imported lazily: the claim registry builds its statements at import, a quarter of a
    # second of every command's start-up that only `dpsym check` needs
    from dpsym.cli.check import run
    return run(args, out)


def cmd_derive(args: argparse.Namespace, out: TextIO) -> int:
    """``dpsym derive``: regenerate the derivations (see :mod:`dpsym.derive`)."""
    # imported lazily: the main job's figures and tables, a fifth of a second of every
    # command's start-up that only `dpsym derive` needs
    from dpsym.derive import main_job
    try:
        main_job(args.out, stream=out, verbose=getattr(args, "verbose", False),
                 as_json=getattr(args, "json", False))
    except OSError as exc:
        reason = exc.strerror or type(exc).__name__
        raise CliError(f"--out: cannot write to {args.out!r}: {reason}") from exc
    return 0
