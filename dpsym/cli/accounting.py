"""The handlers of ``dpsym renyi`` (the Rényi curve, its closed form and series) and
``dpsym compose`` (the composed privacy profile and its inverse)."""

from __future__ import annotations

import argparse
import math
from collections.abc import Callable
from typing import Any, TextIO

import sympy as sp

from dpsym.accounting.composition import component, compose, compose_epsilon, parse_count
from dpsym.accounting.renyi import MAX_TERMS, parse_order, renyi, renyi_formula, renyi_series
from dpsym.certified.rounding import check_digits
from dpsym.cli.options import (
    PARAM_ALIASES,
    CliError,
    get_entry,
    given_params,
    instance,
    registries,
)
from dpsym.core.costs import parse_cost
from dpsym.errors import DomainError
from dpsym.reports.printing import emit_json, expression_text, latex_text

#: The option of each parameter these commands name in their errors.
_OPTIONS = {"order": "--order", "count": "--count", "eps_target": "--eps-target",
            "delta_target": "--delta-target", "interval": "--interval", "terms": "--terms",
            "regime": "--series"}


def _named(exc: DomainError) -> CliError | DomainError:
    """An error of one of this module's options, named by its option."""
    option = _OPTIONS.get(getattr(exc, "name", ""))
    if option is None:
        return exc
    body = str(exc).partition(": ")[2]
    return CliError(f"{option}: {body}")


def cmd_renyi(args: argparse.Namespace, out: TextIO) -> int:
    """``dpsym renyi`` (see :func:`_renyi`), errors named by their options."""
    try:
        return _renyi(args, out)
    except DomainError as exc:
        raise _named(exc) from exc


def _also(spec: str) -> tuple[Any, int, dict[str, str]]:
    """A ``--and NAME:COUNT[:PARAM=VALUE,...]`` composed with the main mechanism."""
    parts = str(spec).split(":", 2)
    if len(parts) < 2 or not parts[0]:
        raise CliError(f"--and: expected NAME:COUNT[:PARAM=VALUE,...], got {spec[:60]!r}")
    cls = get_entry(parts[0].strip())
    if cls.name not in _mechanism_names():
        raise CliError(f"--and: {cls.name} is a lower bound, not a mechanism")
    try:
        count = parse_count(parts[1])
    except DomainError as exc:
        raise CliError(f"--and {cls.name}: COUNT {str(exc).partition(': ')[2]}") from exc
    given: dict[str, str] = {}
    for item in (parts[2].split(",") if len(parts) == 3 and parts[2].strip() else []):
        name, sep, value = item.partition("=")
        name = PARAM_ALIASES.get(name.strip(), name.strip())
        if not sep or not name or name in given:
            raise CliError(f"--and: expected PARAM=VALUE once each, got {item[:40]!r}")
        given[name] = value.strip()
    return instance(cls, given), count, given


def _terms(text: str) -> int:
    s = str(text).strip()
    if not (s.isascii() and s.isdigit() and 1 <= int(s) <= MAX_TERMS):
        raise CliError(f"--terms: must be an integer in [1, {MAX_TERMS}], got {s[:40]!r}")
    return int(s)


def cmd_compose(args: argparse.Namespace, out: TextIO) -> int:
    """``dpsym compose`` (see :func:`_compose`), errors named by their options."""
    try:
        return _compose(args, out)
    except DomainError as exc:
        raise _named(exc) from exc


def _instance(args: argparse.Namespace) -> tuple[Any, dict[str, str]]:
    cls = get_entry(args.mechanism)
    if getattr(cls, "name", None) not in _mechanism_names():
        raise DomainError("mechanism", f"{cls.name} is a lower bound, not a mechanism")
    given = given_params(args)
    return instance(cls, given), given


def _mechanism_names() -> set[str]:
    return set(registries()[0])


def _renyi(args: argparse.Namespace, out: TextIO) -> int:
    """``dpsym renyi``: the certified Rényi divergence at ``--order`` (or its closed form
    with ``--formula``, its expansion with ``--series``)."""
    if args.formula or args.series:
        return _symbolic(args, out)
    if args.order is None:
        raise CliError("--order: required (a number > 1, 1 for the KL divergence, or inf)")
    order = parse_order(args.order)
    digits = check_digits(args.digits)
    cost = parse_cost(args.cost)
    inst, given = _instance(args)
    result = renyi(inst, order, cost, digits)
    if args.json:
        record: dict[str, Any] = {
            "mechanism": inst.name, "params": {k: v.strip() for k, v in given.items()},
            "order": "inf" if order == math.inf else str(order), "cost": cost.name,
            "digits": digits, "value": result.text, "certificate": result.certificate}
        if result.reason is not None:
            record["reason"] = result.reason
        if result.shift is not None:
            record["shift"] = result.shift
        emit_json(record, out)
    else:
        out.write(result.text + "\n")
        if result.reason is not None:
            out.write(f"({result.reason})\n")
    return 0


def _symbolic(args: argparse.Namespace, out: TextIO) -> int:
    if args.formula and args.series:
        raise CliError("--formula and --series: give one of them")
    name = get_entry(args.mechanism).name
    if args.formula:
        expr = renyi_formula(name)
        record: dict[str, Any] = {"mechanism": name, "kind": "formula"}
        if name == "staircase":
            record["note"] = ("at the shift Delta, for gamma <= 1/2 (every optimal gamma); "
                              "the certified values take the supremum over the shifts")
    else:
        terms = 3 if args.terms is None else _terms(args.terms)
        expr = renyi_series(name, args.series, terms)
        record = {"mechanism": name, "kind": "series", "regime": args.series, "terms": terms}
    record.update({"expression": _ordered(expr, expression_text),
                   "latex": _ordered(expr, latex_text)})
    if args.json:
        emit_json(record, out)
    else:
        out.write((record["latex"] if args.latex else record["expression"]) + "\n")
    return 0


def _ordered(expr: Any, render: Callable[[Any], str]) -> str:
    """The text of ``expr``; a sum's terms in the order they are given (a series from
    :func:`dpsym.accounting.renyi.renyi_series`: increasing powers, the O-term last), each term
    printed as usual."""
    if not isinstance(expr, sp.Add):
        return render(expr)
    text = ""
    for term in expr.args:
        part = render(term)
        if not text:
            text = part
        elif part.startswith("-"):
            text += " - " + part[1:].lstrip()
        else:
            text += " + " + part
    return text


def _compose(args: argparse.Namespace, out: TextIO) -> int:
    """``dpsym compose``: the privacy profile after ``--count`` compositions at
    ``--eps-target`` (exact, or rigorous lower and upper bounds), or the smallest eps for
    ``--delta-target``, rounded up (bounds: the lower down, the upper up), so that the
    printed eps meets the target; the JSON record says so (``"rounding"``)."""
    if (args.eps_target is None) == (args.delta_target is None):
        raise CliError("--eps-target or --delta-target: give exactly one")
    count = parse_count(args.count)
    digits = check_digits(args.digits)
    cost = parse_cost(args.cost)
    inst, given = _instance(args)
    comp = component(inst, cost, digits)
    items = [(comp, count)]
    others = []
    for spec in args.also or []:
        other, other_count, other_given = _also(spec)
        items.append((component(other, cost, digits), other_count))
        others.append({"mechanism": other.name, "count": other_count, "params": other_given,
                       "shift": str(items[-1][0].shift)})
    interval = args.interval
    if args.eps_target is not None:
        target = args.eps_target
        result = compose(items, target, digits, interval=interval)
        key = "delta"
    else:
        target = args.delta_target
        result = compose_epsilon(items, target, digits, interval=interval)
        key = "eps"
    record: dict[str, Any] = {
        "mechanism": inst.name, "params": {k: v.strip() for k, v in given.items()},
        "count": count, "cost": cost.name, "digits": digits, "shift": str(comp.shift),
        "method": result.method}
    if others:
        record["with"] = others
    if args.eps_target is not None:
        record["eps_target"] = str(args.eps_target).strip()
    else:
        record["delta_target"] = str(args.delta_target).strip()
    if args.delta_target is not None:
        record["rounding"] = ("up: delta(eps) <= delta_target at the printed eps" if
                              result.exact else "outward: the upper bound is the safe eps")
    if result.exact:
        record[key] = result.text
    else:
        record["lower"], record["upper"] = result.lower, result.upper
        record["interval"] = result.interval
    if args.json:
        emit_json(record, out)
    elif result.exact:
        out.write(f"{key} = {result.text}\n")
    elif result.lower == result.upper == "inf":
        out.write(f"{key} = inf\n")
    else:
        out.write(f"{result.lower} <= {key} <= {result.upper}  (interval {result.interval})\n")
    return 0
