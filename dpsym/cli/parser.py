"""The argument parser of the ``dpsym`` command.

The options of ``value``, ``series`` and ``formula`` come from the declared parameters of
the registered entries (:func:`~dpsym.cli.options.param_names`); every other option is
fixed. Usage errors raise :class:`~dpsym.cli.options.UsageError` (exit status 2, one line)
instead of printing the usage and exiting.
"""

from __future__ import annotations

import argparse
import re
from collections.abc import Mapping, Sequence
from functools import lru_cache
from typing import Any, NoReturn

from dpsym._version import __version__
from dpsym.cli.accounting import cmd_compose, cmd_renyi
from dpsym.cli.commands import (
    cmd_audit,
    cmd_check,
    cmd_derive,
    cmd_formula,
    cmd_list,
    cmd_series,
    cmd_sweep,
    cmd_value,
)
from dpsym.cli.compare import FORMATS, cmd_compare
from dpsym.cli.options import (
    AUDIT_RENAMES,
    PARAM_ALIASES,
    PROG,
    CliError,
    UsageError,
    param_names,
    params_of,
    registries,
)
from dpsym.core.names import suggestion
from dpsym.mechanisms import register, unregister
from dpsym.mechanisms.declared import DeclarationError, DeclaredNoise, load_noise
from dpsym.runtime.budget import DEFAULT_TIMEOUT, MAX_TIMEOUT, MIN_TIMEOUT

#: Accepts negative numbers in any notation as option values (``--eps -1e-3``,
#: ``--eps -1/2``).
_NEGATIVE_NUMBER = re.compile(r"^-([0-9]+\.?[0-9]*|\.[0-9]+)([eE][+-]?[0-9]+)?$"
                              r"|^-[0-9]+/[0-9]+$|^-(inf|infinity|nan)$", re.IGNORECASE)
#: argparse's message for an unknown choice (the choice, the valid ones).
_INVALID_CHOICE = re.compile(r"invalid choice: '([^']*)' \(choose from (.*)\)")
#: The namespace attribute where :class:`StoreOnce` records the options seen.
_SEEN = "_options_seen"
#: The commands whose options come from the registries.
REGISTRY_COMMANDS = ("value", "series", "formula")
#: The commands without a budget (they compute nothing); and those whose budgets are per
#: point rather than for the whole command.
UNBUDGETED = ("list",)
PER_POINT = ("sweep",)
#: The commands that take ``--noise FILE`` (a declared noise) where they take a
#: mechanism's name, and those of them without the name (the noise joins the ranking).
NOISE_COMMANDS = ("value", "series", "formula", "compare", "audit", "renyi", "compose",
                  "sweep")
UNNAMED = ("compare",)


class StoreOnce(argparse.Action):
    """Store an option's value, refusing the option given a second time (argparse would
    silently keep the last value)."""

    def __call__(self, parser: argparse.ArgumentParser, namespace: argparse.Namespace,
                 values: Any, option_string: str | None = None) -> None:
        seen = getattr(namespace, _SEEN, None)
        if seen is None:
            seen = set()
            setattr(namespace, _SEEN, seen)
        if self.dest in seen:
            raise argparse.ArgumentError(self, "given more than once; give it once")
        seen.add(self.dest)
        setattr(namespace, self.dest, values)


#: Examples shown at the end of each command's ``--help`` (a test runs every one).
EXAMPLES: dict[str, tuple[str, ...]] = {
    "list": ("list", "list --json"),
    "value": ("value staircase --eps 1 --digits 40", "value staircase gamma --eps 1/3 --cost power",
              "value truncated-laplace --eps 0.5 --delta 1e-6 --cost moment:3/2",
              "value staircase-md --eps 1 --dim 3"),
    "series": ("series staircase --cost power --regime eps0 --order 3",
               "series staircase gamma --regime epsinf --order 2",
               "series truncated-laplace --cost moment:5/2 --regime eps0 --order 2"),
    "formula": ("formula staircase --cost amplitude", "formula laplace --cost power --latex"),
    "compare": ("compare --eps 1 --delta 0.05 --digits 6",
                "compare --eps 1 --delta 1e-6 --cost power --format md"),
    "audit": ("audit analytic-gaussian --eps 1 --delta 1e-5 --sigma 4",
              "audit laplace --eps 1 --scale 1.2 --delta 0"),
    "sweep": ("sweep staircase --param eps=log:0.01:10:5 --digits 10",
              "sweep laplace --param eps=0.5,1 --param sensitivity=1,2 --json"),
    "check": ("check 003.thm2", "check --list"),
    "renyi": ("renyi laplace --eps 1 --order 2", "renyi staircase --eps 1 --order 4 --json"),
    "compose": ("compose laplace --eps 1 --count 10 --eps-target 5",
                "compose staircase --eps 0.5 --count 20 --delta-target 1e-6"),
    "derive": ("derive", "derive --out /tmp/derivations --verbose"),
}


class HelpFormatter(argparse.HelpFormatter):
    """argparse's formatter, keeping the lines of an example (indented, ``$ ...``) as
    written."""

    def _fill_text(self, text: str, width: int, indent: str) -> str:
        return "\n\n".join(
            "\n".join(indent + line for line in part.splitlines())
            if any(line.startswith("  $ ") for line in part.splitlines())
            else super(HelpFormatter, self)._fill_text(part, width, indent)
            for part in text.split("\n\n"))


class ArgumentParser(argparse.ArgumentParser):
    """An :class:`argparse.ArgumentParser` whose usage errors are one line and exit 2.

    :meth:`error` raises instead of printing the usage and exiting, so that
    :func:`dpsym.cli.main` reports every error in the same way and returns its status.
    An option that takes a value may be given once (:class:`StoreOnce`).
    """

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        kwargs.setdefault("allow_abbrev", False)
        kwargs.setdefault("formatter_class", HelpFormatter)
        super().__init__(*args, **kwargs)
        # Negative numbers in every notation are values, not options.
        self._negative_number_matcher = _NEGATIVE_NUMBER

    def add_argument(self, *args: Any, **kwargs: Any) -> argparse.Action:
        """As :meth:`argparse.ArgumentParser.add_argument`; an option that stores a value
        is refused when repeated."""
        if args and str(args[0]).startswith("-") and kwargs.get("action", "store") == "store":
            kwargs["action"] = StoreOnce
        return super().add_argument(*args, **kwargs)

    def parse_known_args(self, args: Any = None, namespace: Any = None
                         ) -> tuple[Any, list[str]]:  # (the namespace given, or a new one)
        """As :meth:`argparse.ArgumentParser.parse_known_args`, without the record of the
        options seen."""
        parsed, extras = super().parse_known_args(args, namespace)
        if hasattr(parsed, _SEEN):
            delattr(parsed, _SEEN)
        for token in extras:  # an unknown option: name the closest one this command has
            if token.startswith("--") and len(token) > 2:
                flag = token.split("=", 1)[0]
                near = suggestion(flag, [o for o in self._option_string_actions
                                         if o.startswith("--")])
                hint = f"; did you mean {near}?" if near else ""
                self.error(f"unrecognized option {flag[:40]}{hint} (see "
                           f"'{self.prog} --help')")
        return parsed, extras

    def error(self, message: str) -> NoReturn:
        """Raise a usage error (reported by :func:`dpsym.cli.main`, exit status 2), with
        the closest valid choice when a choice (a command, ``--method``...) is unknown."""
        found = _INVALID_CHOICE.search(message)
        if found:
            near = suggestion(found.group(1), re.findall(r"'([^']*)'", found.group(2)))
            if near:
                message = f"{message}; did you mean {near!r}?"
        raise UsageError(message)


def build_parser(params: Mapping[str, Sequence[str]] | None = None,
                 noise: type[DeclaredNoise] | None = None) -> ArgumentParser:
    """The argument parser.

    Parameters
    ----------
    params : mapping of str to sequence of str, optional
        Every declared parameter name with the entries that declare it
        (:func:`~dpsym.cli.options.param_names`). ``value``, ``series`` and ``formula``
        get an option for each (``--eps``, ``--delta``, ``--sensitivity``, ``--NAME``);
        the handlers accept those the named entry and the command use and refuse the
        others by name. Without it only ``value``'s ``--eps``, ``--delta`` and
        ``--sensitivity`` exist.
    noise : type of DeclaredNoise, optional
        The noise declared by ``--noise FILE``: ``renyi`` and ``compose`` get an option
        ``--NAME`` for each of its parameters, ``audit`` one for each of its parameters
        and its free parameter (its ``eps`` is ``--eps0``, its ``delta`` ``--delta0``:
        ``--eps`` and ``--delta`` are the audit's own).
    """
    params = dict(params or {})
    parser = ArgumentParser(
        prog=PROG,
        description="Optimal noise-adding mechanisms in differential privacy: closed forms, "
                    "series, certified values and lower bounds.",
    )
    parser.add_argument("--version", action="version", version=f"{PROG} {__version__}")
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND",
                                parser_class=ArgumentParser)

    p = sub.add_parser("list", help="list the mechanisms and the lower bounds")
    p.add_argument("--json", action="store_true", help="print a JSON array")
    p.set_defaults(handler=cmd_list)

    def common(p: ArgumentParser) -> None:
        p.add_argument("mechanism", metavar="MECHANISM",
                       help="a mechanism or a lower bound from `dpsym list`")
        p.add_argument("quantity", metavar="QUANTITY", nargs="?", default="cost",
                       help="cost (default), the optimal free parameter (gamma, r) or a "
                            "derived parameter (see `dpsym list`)")
        p.add_argument("--cost", default="amplitude",
                       help="amplitude (default), power or moment:P")
        p.add_argument("--json", action="store_true", help="print one JSON object")

    def declared(p: ArgumentParser, symbolic: bool) -> None:
        """One option per declared parameter (hidden from ``--help`` where unused)."""
        for name, owners in params.items():
            if name in PARAM_ALIASES.values():
                continue
            integer = any(prm.name == name and prm.domain.integer
                          for prm in params_of(owners))
            shown = not symbolic or integer
            text = (f"the parameter {name} of {', '.join(owners)}" if shown
                    else argparse.SUPPRESS)
            p.add_argument(f"--{name}", dest=f"param:{name}",
                           metavar="D" if name == "dim" else "VALUE", help=text)

    p = sub.add_parser(
        "value", help="a certified value (a lower bound's is rounded down)",
        epilog="Parameters other than eps, delta and Delta (see `dpsym list`) are given as "
               "--NAME VALUE; those the named entry does not declare are refused.")
    common(p)
    p.add_argument("--eps", dest="param:eps", metavar="E", help="privacy parameter eps > 0")
    p.add_argument("--delta", dest="param:delta", metavar="D",
                   help="privacy parameter delta (entries that declare it)")
    p.add_argument("--sensitivity", dest="param:Delta", metavar="S",
                   help="query sensitivity Delta (default 1)")
    declared(p, symbolic=False)
    p.add_argument("--digits", default="30", metavar="N",
                   help="significant digits, in [1, 10000] (default 30)")
    p.add_argument("--method", default="auto", choices=("auto", "ball", "mpmath"),
                   help="ball: one rigorous ball-arithmetic evaluation of the closed form; "
                        "mpmath: the engine's two-precision path; auto (default): ball "
                        "where a closed form exists (mechanisms only)")
    p.set_defaults(handler=cmd_value)

    def unused_aliases(p: ArgumentParser) -> None:
        """``--eps``, ``--delta``, ``--sensitivity`` parsed only to be refused by name."""
        if params:
            for opt, name in PARAM_ALIASES.items():
                p.add_argument(f"--{opt}", dest=f"param:{name}", help=argparse.SUPPRESS)

    epilog = ("Symbolic in eps, delta and Delta; the discrete parameters the expression "
              "depends on are options (--dim D for the multi-dimensional mechanisms).")
    p = sub.add_parser("series", help="an asymptotic expansion", epilog=epilog)
    common(p)
    p.add_argument("--regime", required=True, metavar="R",
                   help="eps->0, eps->oo, delta->0 or eps=delta->0")
    p.add_argument("--order", required=True, metavar="K",
                   help="order of the remainder O(t^K), an integer")
    p.add_argument("--latex", action="store_true", help="print LaTeX")
    declared(p, symbolic=True)
    unused_aliases(p)
    p.set_defaults(handler=cmd_series)

    p = sub.add_parser("formula", help="a closed form", epilog=epilog)
    common(p)
    p.add_argument("--latex", action="store_true", help="print LaTeX")
    declared(p, symbolic=True)
    unused_aliases(p)
    p.set_defaults(handler=cmd_formula)

    p = sub.add_parser(
        "compare", help="which mechanism should I use? (ranked by optimal cost)",
        epilog="Every registered mechanism that is (eps, delta)-DP at these parameters, with "
               "its certified optimal cost and its ratio to the best, for real-valued and "
               "integer-valued queries separately, and the lower bound of each section "
               "with the ratio best / bound. Entries whose value fails are listed as "
               "skipped, with the reason.")
    p.add_argument("--eps", required=True, metavar="E",
                   help="privacy parameter eps, in [0, 1e100] (0: (0, delta)-DP)")
    p.add_argument("--delta", default="0", metavar="D",
                   help="privacy parameter delta, in [0, 1) (default 0: pure eps-DP)")
    p.add_argument("--cost", default="amplitude",
                   help="amplitude (default), power or moment:P")
    p.add_argument("--sensitivity", default="1", metavar="S",
                   help="query sensitivity Delta > 0 (default 1; integer-valued queries "
                        "need an integer)")
    p.add_argument("--digits", default="15", metavar="N",
                   help="significant digits of the costs, in [1, 10000] (default 15)")
    p.add_argument("--dim", default=None, metavar="D",
                   help="compare the multi-dimensional mechanisms in dimension D instead")
    p.add_argument("--lp", action="store_true",
                   help="add the certified LP bound lp-bound to the real-valued section")
    p.add_argument("--grid", default=None, metavar="N",
                   help="grid refinement of lp-bound (with --lp; default 8)")
    p.add_argument("--format", choices=FORMATS, default="table",
                   help="table (default), md (Markdown), latex (booktabs tabular), csv or json")
    p.add_argument("--json", action="store_true", help="print one JSON object (--format json)")
    p.set_defaults(handler=cmd_compare)

    p = sub.add_parser(
        "audit", help="the delta that a noise calibrated elsewhere achieves",
        epilog="Noise parameters: analytic-gaussian and gaussian --sigma; laplace --scale; "
               "truncated-laplace --scale and --bound; staircase --eps0 and --gamma.")
    p.add_argument("mechanism", metavar="MECHANISM",
                   help="analytic-gaussian, gaussian, laplace, truncated-laplace, staircase")
    p.add_argument("--eps", required=True, metavar="E", help="eps at which delta is computed")
    p.add_argument("--delta", default=None, metavar="D", help="a target delta to check")
    p.add_argument("--sensitivity", default="1", metavar="S", help="Delta > 0 (default 1)")
    p.add_argument("--digits", default="30", metavar="N", help="digits (default 30)")
    for name, text in (("sigma", "Gaussian standard deviation"), ("scale", "Laplace scale"),
                       ("bound", "truncation bound A"), ("eps0", "the staircase's eps"),
                       ("gamma", "the staircase's gamma")):
        p.add_argument(f"--{name}", default=None, metavar="X", help=text)
    p.add_argument("--json", action="store_true", help="print one JSON object")
    if noise is not None:
        names = [prm.name for prm in noise.params if prm.name != "Delta"]
        names += [] if noise.free is None else [noise.free.name]
        for name in names:
            flag = AUDIT_RENAMES.get(name, name)
            if f"--{flag}" not in p._option_string_actions:
                p.add_argument(f"--{flag}", default=None, metavar="X",
                               help=f"the parameter {name} of {noise.name}")
    p.set_defaults(handler=cmd_audit)

    p = sub.add_parser(
        "sweep", help="a quantity over a parameter grid (CSV or JSON), in parallel",
        epilog="VALUES is a comma-separated list (0.1,1,10) or log:LO:HI:N (N log-spaced "
               "values). Points run on every core; the output is in grid order, identical "
               "to a serial run (--workers 1). A point that fails or exceeds its budget "
               "(--timeout, --memory: per point) is a row with an error; the other points "
               "keep their values.")
    p.add_argument("mechanism", metavar="MECHANISM",
                   help="a mechanism or a lower bound from `dpsym list`")
    p.add_argument("quantity", nargs="?", default="cost", metavar="QUANTITY",
                   help="cost (default), the optimal free parameter or a derived parameter")
    p.add_argument("--param", action="append", metavar="NAME=VALUES",
                   help="a parameter's values (eps, delta, sensitivity or a declared name); "
                        "repeat for a grid")
    p.add_argument("--cost", default="amplitude", help="amplitude, power or moment:P")
    p.add_argument("--digits", default="30", metavar="N", help="digits (default 30)")
    p.add_argument("--format", choices=("csv", "json"), default="csv",
                   help="csv (default) or json")
    p.add_argument("--json", action="store_true", help="the same as --format json")
    p.add_argument("--out", default=None, metavar="FILE",
                   help="write here (checked before any work; a regular file is replaced "
                        "atomically, a device or FIFO written to)")
    p.add_argument("--workers", default=None, metavar="K",
                   help="worker processes (default: every core)")
    p.set_defaults(handler=cmd_sweep)

    p = sub.add_parser(
        "check", help="run the source claims (theorems, lemmas, corollaries) and report",
        epilog="Each claim is a statement of a source text with a check computed by the "
               "engine; the verdict is holds, holds as corrected (see docs/errata.md) or "
               "fails, and must match the registered one. Exit status 1 if any does not.")
    p.add_argument("claims", nargs="*", metavar="CLAIM",
                   help="claim ids or prefixes (e.g. 003.thm2, 002); default: all")
    p.add_argument("--list", action="store_true", help="list the claims without running them")
    p.add_argument("--json", action="store_true", help="print one JSON object")
    p.add_argument("--mutate", action="store_true",
                   help="mutation testing: run each check on perturbed statements (a "
                        "constant times 1 +- 1e-3, a sign, an exponent, an inequality, a "
                        "limit point); report the score per source and the survivors")
    p.set_defaults(handler=cmd_check)

    def accounting_params(p: ArgumentParser) -> None:
        p.add_argument("mechanism", metavar="MECHANISM", help="a mechanism from `dpsym list`")
        p.add_argument("--eps", dest="param:eps", metavar="E", help="privacy parameter eps")
        p.add_argument("--delta", dest="param:delta", metavar="D",
                       help="privacy parameter delta (mechanisms that declare it)")
        p.add_argument("--sensitivity", dest="param:Delta", metavar="S",
                       help="query sensitivity Delta (default 1)")
        p.add_argument("--dim", dest="param:dim", metavar="D",
                       help="dimension (multi-dimensional mechanisms)")
        p.add_argument("--cost", default="amplitude",
                       help="the cost whose optimal free parameter defines the noise "
                            "(amplitude, power or moment:P)")
        p.add_argument("--json", action="store_true", help="print one JSON object")
        owner = None if noise is None else noise.name
        for prm in () if noise is None else noise.params:
            if prm.name not in (*PARAM_ALIASES.values(), "dim"):
                p.add_argument(f"--{prm.name}", dest=f"param:{prm.name}", metavar="VALUE",
                               help=f"the parameter {prm.name} of {owner}")

    p = sub.add_parser(
        "renyi", help="the Rényi divergence of a mechanism (its Rényi DP curve)",
        epilog="The supremum over shifts |d| <= Delta of D_alpha(f || f(. + d)), certified; "
               "inf (with the reason) for a point mass or a bounded support. --order 1 is "
               "the limit alpha -> 1 (Kullback-Leibler), --order inf the largest privacy "
               "loss. --formula prints the closed form in alpha, --series eps->0 or "
               "alpha->1 its expansion (--terms K).")
    accounting_params(p)
    p.add_argument("--order", default=None, metavar="ALPHA",
                   help="the order alpha: a number > 1, 1 (KL) or inf")
    p.add_argument("--digits", default="30", metavar="N",
                   help="significant digits, in [1, 10000] (default 30)")
    p.add_argument("--formula", action="store_true", help="print the closed form")
    p.add_argument("--series", default=None, metavar="R", help="eps->0 or alpha->1")
    p.add_argument("--terms", default=None, metavar="K", help="series terms (default 3)")
    p.add_argument("--latex", action="store_true", help="print LaTeX")
    p.set_defaults(handler=cmd_renyi)

    p = sub.add_parser(
        "compose", help="the privacy profile after k-fold composition (tight)",
        epilog="delta(eps') of K independent releases at their worst shift: exact for "
               "lattice losses (staircase family, discrete mechanisms) and Gaussians, "
               "otherwise rigorous lower and upper bounds from grid laws of a dominated and "
               "a dominating pair (--interval is the finest grid, aligned to the atoms and "
               "coarsened for large counts; the grid used is printed). --delta-target "
               "gives the smallest eps' instead, rounded up (delta(eps') <= D2 at the "
               "printed value).")
    accounting_params(p)
    p.add_argument("--count", required=True, metavar="K",
                   help="number of compositions, an integer in [1, 100000]")
    p.add_argument("--eps-target", default=None, metavar="E2", help="eps' >= 0")
    p.add_argument("--delta-target", default=None, metavar="D2",
                   help="delta in [0, 1]: print the smallest eps' instead (rounded up: "
                        "delta(eps') <= D2 at the printed value)")
    p.add_argument("--and", dest="also", action="append", metavar="NAME:COUNT[:P=V,...]",
                   help="compose with COUNT releases of another mechanism too (heterogeneous "
                        "composition; parameters as eps=1,delta=1e-5,sensitivity=2); "
                        "repeatable")
    p.add_argument("--interval", default="1/1000", metavar="H",
                   help="the finest grid of continuous losses (default 1/1000; coarsened "
                        "for large counts, the grid used is printed)")
    p.add_argument("--digits", default="10", metavar="N",
                   help="significant digits, in [1, 10000] (default 10)")
    p.set_defaults(handler=cmd_compose)

    p = sub.add_parser("derive", help="regenerate the derivations/ directory")
    p.add_argument("--out", default="derivations", metavar="DIR",
                   help="output directory (default: ./derivations)")
    p.add_argument("--verbose", "-v", action="store_true",
                   help="print the full tables of formulas and values before the summary")
    p.add_argument("--json", action="store_true",
                   help="print the summary as one JSON object")
    p.set_defaults(handler=cmd_derive)

    # Budgets: one loop, so that every command added above gets them (sweep's per point).
    for name, p in sub.choices.items():
        if name in UNBUDGETED:
            continue
        point = name in PER_POINT
        scope = "each point" if point else "the command"
        over = ("a point over it is a row with an error, the other points complete" if point
                else "over it the computation is stopped: exit status 3")
        if "--timeout" not in p._option_string_actions:
            p.add_argument("--timeout", default=None, metavar="SECONDS",
                           help=f"wall-time budget of {scope}, in [{float(MIN_TIMEOUT)}, "
                                f"{MAX_TIMEOUT}] seconds (default {DEFAULT_TIMEOUT}); {over}")
        if "--memory" not in p._option_string_actions:
            p.add_argument("--memory", default=None, metavar="SIZE",
                           help=f"memory budget of {scope}: what it may allocate beyond the "
                                "loaded program, with a unit K, M, G or T (powers of 1024), "
                                f"at least 64M (default: none); {over}")
        p.set_defaults(budget_scope="point" if point else "command")
    for name, p in sub.choices.items():  # every command's help ends with examples
        shown = "\n".join(f"  $ {PROG} {example}" for example in EXAMPLES.get(name, ()))
        if shown:
            p.epilog = (f"{p.epilog}\n\n" if p.epilog else "") + f"examples:\n{shown}"
    return parser


def _declared_noise(argv: Sequence[str]) -> tuple[list[str], type[DeclaredNoise] | None]:
    """``argv`` with ``--noise FILE`` replaced by the declared noise's name (where the
    command takes a mechanism's name), and the noise, read from the file and registered
    (:func:`dpsym.mechanisms.register`); its validation runs at its first use, within the
    command's budgets (``_pending``).

    Raises
    ------
    CliError
        For ``--noise`` given twice, to a command that takes none, or a file refused (one
        line naming the file, the key at fault and the fault).
    """
    args = list(argv)
    at = [j for j, a in enumerate(args) if a == "--noise" or a.startswith("--noise=")]
    if not at:
        return args, None
    if len(at) > 1:
        raise CliError("--noise: given more than once; give it once")
    j = at[0]
    if args[j] == "--noise":
        if j + 1 >= len(args):
            raise CliError("--noise: expected a noise file (TOML or JSON)")
        path = args[j + 1]
        del args[j:j + 2]
    else:
        path = args[j].partition("=")[2]
        del args[j]
    command = next((a for a in args if not a.startswith("-")), None)
    if command not in NOISE_COMMANDS:
        raise CliError(f"--noise: not an option of `{PROG} {command}`; the commands that "
                       f"take it: {', '.join(NOISE_COMMANDS)}")
    try:
        cls = load_noise(path, defer=True, origin=f"--noise {path}")
    except DeclarationError as err:
        raise CliError(f"--noise {path}: {err}") from None
    mechanisms, bounds = registries()
    if cls.name in mechanisms or cls.name in bounds:
        raise CliError(f"--noise {path}: name: {cls.name!r} is already an entry of "
                       f"`{PROG} list`; choose another name")
    register(cls)
    if command not in UNNAMED:
        args.insert(args.index(command) + 1, cls.name)
    return args, cls


@lru_cache(maxsize=8)
def shared_parser(entries: tuple[type, ...] | None) -> ArgumentParser:
    """:func:`build_parser` without a ``--noise`` noise: for the registries' ``entries``
    (their classes, in listing order), or without the declared parameters (``None``).
    Built once per registry state and reused by :func:`parse_args`: parsing does not
    change a parser (every parse starts from a new namespace). Its handlers are those of
    this module when it was built (code that replaces a handler here gives this function
    a new cache for that time)."""
    return build_parser(None if entries is None else param_names())


def parse_args(argv: Sequence[str]) -> argparse.Namespace:
    """Parse ``argv``; ``value``, ``series`` and ``formula`` get an option for every
    declared parameter (checked against the named entry by the handlers). ``--noise
    FILE`` declares a noise (:func:`_declared_noise`), kept as ``noise`` in the result
    (the caller unregisters it when the command is done)."""
    argv, noise = _declared_noise(argv)
    command = next((a for a in argv if not a.startswith("-")), None)
    try:
        registry = command in REGISTRY_COMMANDS
        if noise is None:
            entries = (tuple(cls for table in registries() for cls in table.values())
                       if registry else None)
            parser = shared_parser(entries)
        else:
            parser = build_parser(param_names() if registry else None, noise)
        parsed = parser.parse_args(argv)
    except BaseException:
        if noise is not None:
            unregister(noise)
        raise
    parsed.noise = noise
    return parsed
