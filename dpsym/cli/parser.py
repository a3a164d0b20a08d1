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
from typing import Any, NoReturn

from .._version import __version__
from .commands import (
    cmd_audit,
    cmd_check,
    cmd_compare,
    cmd_derive,
    cmd_formula,
    cmd_list,
    cmd_series,
    cmd_sweep,
    cmd_value,
)
from .options import PARAM_ALIASES, PROG, UsageError, param_names, params_of

#: Accepts negative numbers in any notation as option values (``--eps -1e-3``,
#: ``--eps -1/2``).
_NEGATIVE_NUMBER = re.compile(r"^-([0-9]+\.?[0-9]*|\.[0-9]+)([eE][+-]?[0-9]+)?$"
                              r"|^-[0-9]+/[0-9]+$|^-(inf|infinity|nan)$", re.IGNORECASE)
#: The namespace attribute where :class:`StoreOnce` records the options seen.
_SEEN = "_options_seen"
#: The commands whose options come from the registries.
REGISTRY_COMMANDS = ("value", "series", "formula")


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


class ArgumentParser(argparse.ArgumentParser):
    """An :class:`argparse.ArgumentParser` whose usage errors are one line and exit 2.

    :meth:`error` raises instead of printing the usage and exiting, so that
    :func:`dpsym.cli.main` reports every error in the same way and returns its status.
    An option that takes a value may be given once (:class:`StoreOnce`).
    """

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        kwargs.setdefault("allow_abbrev", False)
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
                         ) -> tuple[argparse.Namespace, list[str]]:
        """As :meth:`argparse.ArgumentParser.parse_known_args`, without the record of the
        options seen."""
        parsed, extras = super().parse_known_args(args, namespace)
        if hasattr(parsed, _SEEN):
            delattr(parsed, _SEEN)
        return parsed, extras

    def error(self, message: str) -> NoReturn:
        """Raise a usage error (reported by :func:`dpsym.cli.main`, exit status 2)."""
        raise UsageError(message)


def build_parser(params: Mapping[str, Sequence[str]] | None = None) -> ArgumentParser:
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
    p.add_argument("--json", action="store_true", help="print one JSON object")
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
    p.set_defaults(handler=cmd_audit)

    p = sub.add_parser(
        "sweep", help="a quantity over a parameter grid (CSV or JSON), in parallel",
        epilog="VALUES is a comma-separated list (0.1,1,10) or log:LO:HI:N (N log-spaced "
               "values). Points run on every core; the output is in grid order, identical "
               "to a serial run (--workers 1). A point that fails or exceeds --timeout is a "
               "row with an error; the other points keep their values.")
    p.add_argument("mechanism", metavar="MECHANISM")
    p.add_argument("quantity", nargs="?", default="cost", metavar="QUANTITY")
    p.add_argument("--param", action="append", metavar="NAME=VALUES",
                   help="a parameter's values (eps, delta, sensitivity or a declared name); "
                        "repeat for a grid")
    p.add_argument("--cost", default="amplitude", help="amplitude, power or moment:P")
    p.add_argument("--digits", default="30", metavar="N", help="digits (default 30)")
    p.add_argument("--format", choices=("csv", "json"), default="csv")
    p.add_argument("--out", default=None, metavar="FILE",
                   help="write here (checked before any work; a regular file is replaced "
                        "atomically, a device or FIFO written to)")
    p.add_argument("--workers", default=None, metavar="K",
                   help="worker processes (default: every core)")
    p.add_argument("--timeout", default=None, metavar="SECONDS",
                   help="time budget of each point; a point over it gets an error row")
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
    p.set_defaults(handler=cmd_check)

    p = sub.add_parser("derive", help="regenerate the derivations/ directory")
    p.add_argument("--out", default="derivations", metavar="DIR",
                   help="output directory (default: ./derivations)")
    p.set_defaults(handler=cmd_derive)
    return parser


def parse_args(argv: Sequence[str]) -> argparse.Namespace:
    """Parse ``argv``; ``value``, ``series`` and ``formula`` get an option for every
    declared parameter (checked against the named entry by the handlers)."""
    command = next((a for a in argv if not a.startswith("-")), None)
    params = param_names() if command in REGISTRY_COMMANDS else None
    return build_parser(params).parse_args(argv)
