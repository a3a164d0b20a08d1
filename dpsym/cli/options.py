"""What the command's options and messages share: the registries of entries, the option of
each parameter, the command's own errors and the one-line rendering of every error."""

from __future__ import annotations

import argparse
import re
from collections.abc import Sequence
from fractions import Fraction
from typing import Any

import sympy as sp

from dpsym.bounds import BOUNDS, get_entry  # noqa: F401  (re-exported: the CLI looks names up here)
from dpsym.errors import DomainError, DpsymError
from dpsym.mechanisms import MECHANISMS
from dpsym.reports.printing import one_line
from dpsym.reports.selection import SelectionError
from dpsym.symbolic.regimes import MAX_ORDER

PROG = "dpsym"

#: Options with a fixed name, and the parameter each one sets.
PARAM_ALIASES: dict[str, str] = {"eps": "eps", "delta": "delta", "sensitivity": "Delta"}
#: The option that sets a parameter, by parameter name (other names use ``--NAME``).
OPTION_OF_PARAM: dict[str, str] = {param: f"--{opt}" for opt, param in PARAM_ALIASES.items()}
#: The options of ``audit`` for a declared noise's parameters whose own names are the
#: audit's options (``--eps`` is the eps audited, ``--delta`` the target).
AUDIT_RENAMES: dict[str, str] = {"eps": "eps0", "delta": "delta0"}
#: The option behind an error's parameter name, for messages.
OPTION_OF_NAME: dict[str, str] = {**OPTION_OF_PARAM, "digits": "--digits", "cost": "--cost",
                                  "regime": "--regime", "order": "--order",
                                  "timeout": "--timeout", "memory": "--memory"}


class CliError(DpsymError):
    """An error of the command's input, reported as one line with exit status 2."""


class UsageError(CliError):
    """A command-line usage error raised by :meth:`ArgumentParser.error`."""


# ---------------------------------------------------------------------- registries
def registries() -> tuple[dict[str, Any], dict[str, Any]]:
    """(``MECHANISMS``, ``BOUNDS``): every entry of the command."""
    return MECHANISMS, BOUNDS


def is_bound(cls: Any) -> bool:
    """Whether ``cls`` is a lower-bound object (an entry of ``BOUNDS``)."""
    return BOUNDS.get(getattr(cls, "name", "")) is cls


def param_names() -> dict[str, list[str]]:
    """Every declared parameter name, with the entries that declare it (listing order)."""
    names: dict[str, list[str]] = {}
    for registry in registries():
        for cls in registry.values():
            for prm in cls.params:
                names.setdefault(prm.name, []).append(cls.name)
    return names


def params_of(names: Sequence[str]) -> list[Any]:
    """The declared parameters of the entries called ``names``."""
    out = []
    for registry in registries():
        for cls in registry.values():
            if cls.name in names:
                out.extend(cls.params)
    return out


def option(name: str) -> str:
    """The command-line option of the parameter ``name``."""
    return OPTION_OF_PARAM.get(name, f"--{name}")


# ---------------------------------------------------------------------- parameters
def given_params(args: argparse.Namespace) -> dict[str, str]:
    """The parameter values given on the command line, by parameter name."""
    given = {}
    for dest, value in vars(args).items():
        if dest.startswith("param:") and value is not None:
            given[dest[len("param:"):]] = value
    return given


def instance(cls: Any, given: dict[str, str]) -> Any:
    """``cls(**given)``, each error naming the parameter (and its option) at fault."""
    names = [prm.name for prm in cls.params]
    for name in given:
        if name not in names:
            valid = ", ".join(f"{n} ({option(n)})" for n in names)
            raise DomainError(name, f"{cls.name} has no parameter {name}; its parameters: "
                              f"{valid}")
    inst = cls(**{name: text for name, text in given.items()})
    for prm in cls.params:
        if prm.name not in inst.values:
            raise DomainError(prm.name, f"a value is required, in {prm.domain.describe()}")
    return inst


def structural(cls: Any) -> list[Any]:
    """The discrete parameters that closed forms and series depend on (``dim``, ``grid``):
    the integer parameters other than those with a fixed option (``eps``, ``delta``,
    ``Delta``)."""
    return [prm for prm in cls.params
            if prm.domain.integer and prm.name not in PARAM_ALIASES.values()]


def check_symbolic_params(command: str, cls: Any, given: dict[str, str]) -> None:
    """Refuse the parameters that ``series``/``formula`` do not use for ``cls``."""
    used = [prm.name for prm in structural(cls)]
    accepted = ", ".join(option(n) for n in used) or "none"
    for name in given:
        if name in used:
            continue
        opt = option(name)
        if name in {prm.name for prm in cls.params}:
            why = f"not used by `dpsym {command}` (the expression is symbolic in {name})"
        else:
            why = f"{cls.name} has no parameter {name} ({opt})"
        raise DomainError(name, f"{why}; parameter options of `dpsym {command}` for "
                          f"{cls.name}: {accepted}")


def specialise(cls: Any, given: dict[str, str]) -> tuple[Any, dict[Any, Any], dict[str, str]]:
    """The class, substitution and shown values for the discrete parameters of ``cls``.

    ``dim`` selects the class of that dimension (``cls.for_dim``) where the class has one;
    any other discrete parameter is substituted into the expression. Each value is
    validated by the declared :class:`~dpsym.core.params.Param`.
    """
    subs: dict[Any, Any] = {}
    shown: dict[str, str] = {}
    for prm in structural(cls):
        text = given.get(prm.name, prm.default)
        if text is None:
            continue
        value: Fraction = prm.validate(text)
        shown[prm.name] = str(value)
        if prm.name == "dim" and hasattr(cls, "for_dim"):
            cls = cls.for_dim(value)
        else:
            subs[prm.symbol] = sp.Integer(value.numerator) / value.denominator
    return cls, subs, shown


def parse_order(text: str) -> int:
    """Read ``--order`` (an integer in ``[0, MAX_ORDER]``) without eval or float."""
    s = text.strip()
    valid = f"must be an integer in [0, {MAX_ORDER}]"
    if not re.fullmatch(r"[+-]?[0-9]{1,6}", s):
        raise DomainError("order", f"{valid}, got {one_line(s, 40)!r}")
    order = int(s)
    if not 0 <= order <= MAX_ORDER:
        raise DomainError("order", f"{valid}, got {order}")
    return order


def parse_count(text: str, option: str, lower: int, upper: int) -> int:
    """Read an integer option in ``[lower, upper]`` written in ASCII digits."""
    s = text.strip()
    if not (re.fullmatch(r"\+?[0-9]{1,9}", s) and lower <= int(s) <= upper):
        raise CliError(f"{option}: must be an integer in [{lower}, {upper}]")
    return int(s)


def request_text(args: argparse.Namespace) -> str:
    """What the command computes, in a few words, for the message of an exceeded budget:
    ``staircase gamma (moment:1.5, 40 digits, eps=0.01)``, ``the comparison (eps=1,
    delta=0, amplitude, 15 digits)``..."""
    command = getattr(args, "command", None)

    def get(name: str) -> str:
        return one_line(getattr(args, name, None) or "", 60)

    params = [f"{name}={one_line(text, 60)}" for name, text in given_params(args).items()]
    if command in ("value", "series", "formula"):
        parts = [get("cost")]
        if command == "value":
            parts.append(f"{get('digits')} digits")
        if command == "series":
            parts += [get("regime"), f"order {get('order')}"]
        head = "" if command == "value" else f"the {command} of "
        text = f"{head}{get('mechanism')} {get('quantity')} ({', '.join(parts + params)})"
    elif command == "compare":
        text = (f"the comparison (eps={get('eps')}, delta={get('delta')}, {get('cost')}, "
                f"{get('digits')} digits)")
    elif command == "audit":
        text = f"the audit of {get('mechanism')} (eps={get('eps')})"
    elif command == "check":
        claims = getattr(args, "claims", None) or ["all"]
        text = f"the claims ({one_line(', '.join(claims), 100)})"
    elif command == "derive":
        text = "the derivations"
    else:  # a command without its own words: its mechanism and options as given
        mechanism = getattr(args, "mechanism", None)
        text = f"`{PROG} {command}{'' if mechanism is None else ' ' + get('mechanism')}`"
        given = [f"{name.removeprefix('param:')}={one_line(value, 60)}"
                 for name, value in vars(args).items()
                 if isinstance(value, str) and name not in
                 ("command", "mechanism", "timeout", "memory", "budget_scope")]
        if given:
            text += f" ({', '.join(given)})"
    return one_line(text, 300)


# ---------------------------------------------------------------------- messages
def domain_message(err: DomainError) -> str:
    """The message of a :class:`~dpsym.errors.DomainError`, naming the option too."""
    name = getattr(err, "name", None)
    text = str(err)
    if isinstance(name, str) and text.startswith(f"{name}: "):
        opt = OPTION_OF_NAME.get(name)
        if opt is None and name in param_names():
            opt = f"--{name}"
        body = text[len(name) + 2:]
        if opt is not None and opt != f"--{name}":
            return f"{name} ({opt}): {body}"
        if opt is not None:
            return f"{opt}: {body}"
    return text


def error_message(err: DpsymError) -> str:
    """An error of dpsym in the command's words (parameters named by their options)."""
    if isinstance(err, DomainError):
        return domain_message(err)
    if isinstance(err, SelectionError):
        return err.render(option)
    return str(err)
