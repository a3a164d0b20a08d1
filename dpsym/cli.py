r"""The ``dpsym`` command.

.. code-block:: text

   dpsym list [--json]
   dpsym value   MECHANISM [QUANTITY] --eps E [--delta D] [--sensitivity S] [--cost C]
                 [--digits N] [--json]
   dpsym series  MECHANISM [QUANTITY] --cost C --regime R --order K [--json] [--latex]
   dpsym formula MECHANISM [QUANTITY] --cost C [--json] [--latex]
   dpsym derive  [--out DIR]

``QUANTITY`` defaults to ``cost``; the optimal free parameter of a family is a quantity
too (``gamma`` for the staircase, ``r`` for the discrete staircase). ``--cost`` is one of
``amplitude``, ``power`` or ``moment:P`` and defaults to ``amplitude``.

The options of ``value`` are built from the mechanisms' declared parameters
(:attr:`dpsym.mechanisms.base.Mechanism.params`): ``--eps`` sets ``eps``, ``--delta`` sets
``delta`` and ``--sensitivity`` sets ``Delta`` (default 1); any other parameter ``NAME``
is set with ``--NAME VALUE``. Numbers are handed to the engine as the strings typed, and
parsed there exactly (:func:`dpsym.params.parse_number`).

Exit status: 0 on success; 2 for every error caused by the input (a usage error, a value
outside its domain, an unsupported request, a value that cannot be certified), reported
as one line ``dpsym: error: <message>`` on standard error; 1 for an internal error,
reported as one line ``dpsym: internal error: <message>``. No traceback is ever printed.

Only :mod:`argparse` and :mod:`json` are imported up front; sympy and the engine are
imported by the command handlers.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from typing import Any, NoReturn, TextIO

PROG = "dpsym"

#: Options with a fixed name, and the parameter each one sets.
PARAM_ALIASES: dict[str, str] = {"eps": "eps", "delta": "delta", "sensitivity": "Delta"}
#: The option that sets a parameter, by parameter name (other names use ``--NAME``).
OPTION_OF_PARAM: dict[str, str] = {param: f"--{opt}" for opt, param in PARAM_ALIASES.items()}
#: The option behind an error's parameter name, for messages.
_OPTION_OF_NAME: dict[str, str] = {**OPTION_OF_PARAM, "digits": "--digits", "cost": "--cost",
                                   "regime": "--regime", "order": "--order"}
#: Exceptions of the engine that mark a limitation of the computation rather than a bug
#: of the command: reported with exit status 2.
_LIMITATION_NAMES = ("NotImplementedError", "ZeroDivisionError", "OverflowError",
                     "PoleError", "ValueError", "RecursionError")
#: Accepts negative numbers in any notation as option values (``--eps -1e-3``).
_NEGATIVE_NUMBER = re.compile(r"^-(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$|^-(inf|infinity|nan)$",
                              re.IGNORECASE)


class CliError(Exception):
    """An error reported as one line with exit status 2."""


class _UsageError(CliError):
    """A command-line usage error raised by :meth:`ArgumentParser.error`."""


class ArgumentParser(argparse.ArgumentParser):
    """An :class:`argparse.ArgumentParser` whose usage errors are one line and exit 2.

    :meth:`error` raises instead of printing the usage and exiting, so that :func:`main`
    reports every error in the same way and returns its status.
    """

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        kwargs.setdefault("allow_abbrev", False)
        super().__init__(*args, **kwargs)
        # Negative numbers in every notation are values, not options.
        self._negative_number_matcher = _NEGATIVE_NUMBER

    def error(self, message: str) -> NoReturn:
        """Raise a usage error (reported by :func:`main`, exit status 2)."""
        raise _UsageError(message)


# ---------------------------------------------------------------------- helpers
def _one_line(text: object, limit: int = 2000) -> str:
    """``text`` on one line (whitespace runs collapsed), at most ``limit`` characters."""
    line = " ".join(str(text).split())
    return line if len(line) <= limit else line[: limit - 3] + "..."


def _domain_message(err: Exception) -> str:
    """The message of a :class:`~dpsym.errors.DomainError`, naming the option too."""
    name = getattr(err, "name", None)
    text = str(err)
    if isinstance(name, str) and text.startswith(f"{name}: "):
        option = _OPTION_OF_NAME.get(name)
        body = text[len(name) + 2:]
        if option is not None and option != f"--{name}":
            return f"{name} ({option}): {body}"
        if option is not None:
            return f"{option}: {body}"
    return text


@contextmanager
def _engine(what: str) -> Iterator[None]:
    """Turn the engine's limitations inside the block into :class:`CliError`.

    Errors of the dpsym hierarchy pass through (they are reported by :func:`main`);
    exceptions named in :data:`_LIMITATION_NAMES` (sympy's ``PoleError``, a division by
    zero at the working precision, ...) are reported as a limitation of ``what``.
    """
    from .errors import DpsymError

    try:
        yield
    except DpsymError:
        raise
    except Exception as exc:
        if any(cls.__name__ in _LIMITATION_NAMES for cls in type(exc).__mro__):
            detail = _one_line(exc, 300) or "no detail"
            raise CliError(f"{what}: not supported by the engine "
                           f"({type(exc).__name__}: {detail})") from exc
        raise


def _parse_order(text: str) -> int:
    """Read ``--order`` (an integer in ``[0, MAX_ORDER]``) without eval or float."""
    from .errors import DomainError
    from .regimes import MAX_ORDER

    s = text.strip()
    valid = f"must be an integer in [0, {MAX_ORDER}]"
    if not re.fullmatch(r"[+-]?\d{1,6}", s):
        raise DomainError("order", f"{valid}, got {_one_line(s, 40)!r}")
    order = int(s)
    if not 0 <= order <= MAX_ORDER:
        raise DomainError("order", f"{valid}, got {order}")
    return order


def _describe_free(cls: Any) -> str | None:
    """``r in {1, ..., Delta}`` or ``gamma in [0, 1]``: the range of the free parameter."""
    fp = cls.free
    if fp is None:
        return None
    if fp.integer:
        return f"{fp.name} in {{{fp.lower}, ..., {fp.upper}}}"
    return f"{fp.name} in [{fp.lower}, {fp.upper}]"


def expression_text(expr: Any) -> str:
    r"""``expr`` as plain ``str()`` text that ``sympy.parse_expr`` reads back.

    The text is read with ``local_dict=dpsym.symbols.PUBLIC_SYMBOLS``, where ``gamma``
    is the staircase's parameter; the Gamma *function* is therefore written
    ``uppergamma(z, 0)`` (which sympy evaluates back to ``gamma(z)``), and the engine's
    ``LerchSum(z, s, a)`` as the sum it denotes, :math:`\sum_{k \ge 0} z^k (k + a)^s`
    (from :math:`k = 1` when :math:`a = 0`, since the engine takes :math:`0^s = 0`).
    """
    import sympy as sp
    from sympy.printing.str import StrPrinter

    k = sp.Symbol("k", integer=True, nonnegative=True)

    class _Printer(StrPrinter):
        def _print_gamma(self, e: Any) -> str:
            return f"uppergamma({self._print(e.args[0])}, 0)"

        def _print_LerchSum(self, e: Any) -> str:
            z, s, a = e.args
            start = 1 if a == 0 else 0
            return self._print(sp.Sum(z**k * (k + a) ** s, (k, start, sp.oo)))

    return _Printer().doprint(expr)


def latex_text(expr: Any) -> str:
    r"""``expr`` in LaTeX, with :math:`\varepsilon` for ``eps``."""
    import sympy as sp

    from .symbols import eps

    return sp.latex(expr, symbol_names={eps: r"\varepsilon"})


def parse_expression(text: str) -> Any:
    """Read an expression printed by :func:`expression_text` (the public symbols)."""
    import sympy as sp

    from .symbols import PUBLIC_SYMBOLS

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


def _emit(obj: Any, out: TextIO) -> None:
    out.write(json.dumps(obj, ensure_ascii=False, sort_keys=False) + "\n")


# ---------------------------------------------------------------------- commands
def cmd_list(args: argparse.Namespace, out: TextIO) -> int:
    """``dpsym list``: the mechanisms, their parameters with domains and quantities."""
    from .mechanisms import MECHANISMS

    rows = []
    for cls in MECHANISMS.values():
        params = cls.describe_params()
        for prm in params:
            prm["option"] = OPTION_OF_PARAM.get(prm["name"], f"--{prm['name']}")
        rows.append({
            "name": cls.name,
            "title": cls.title,
            "lattice": bool(cls.lattice),
            "params": params,
            "quantities": list(cls.quantities()),
            "free": _describe_free(cls),
            "source": cls.source,
        })
    if args.json:
        _emit(rows, out)
        return 0
    table = [("MECHANISM", "TITLE", "PARAMETERS", "QUANTITIES")]
    for row in rows:
        parts = []
        for prm in row["params"]:
            text = f"{prm['name']} {prm['domain']}"
            if prm["default"]:
                text += f" [default {prm['default']}]"
            parts.append(text)
        table.append((row["name"], row["title"], "; ".join(parts), ", ".join(row["quantities"])))
    for line in format_table(table):
        out.write(line + "\n")
    options = ", ".join(f"{opt} sets {param}" for param, opt in OPTION_OF_PARAM.items())
    out.write(f"\noptions of `dpsym value`: {options}; any other parameter NAME: --NAME\n")
    return 0


def _given_params(args: argparse.Namespace) -> dict[str, str]:
    """The parameter values given on the command line, by parameter name."""
    given = {}
    for dest, value in vars(args).items():
        if dest.startswith("param:") and value is not None:
            given[dest[len("param:"):]] = value
    return given


def _instance(cls: Any, given: dict[str, str]) -> Any:
    """``cls(**given)``, each error naming the parameter (and its option) at fault."""
    from .errors import DomainError, DpsymError

    names = [prm.name for prm in cls.params]
    for name in given:
        if name not in names:
            valid = ", ".join(f"{n} ({OPTION_OF_PARAM.get(n, '--' + n)})" for n in names)
            raise DomainError(name, f"{cls.name} has no parameter {name}; its parameters: "
                              f"{valid}")
    try:
        inst = cls(**given)
    except DpsymError:
        raise
    except ValueError as exc:
        # An unexpected ValueError while validating: find the parameter at fault.
        for prm in cls.params:
            if prm.name in given:
                try:
                    prm.validate(given[prm.name])
                except DpsymError:
                    raise
                except ValueError:
                    where = prm.domain.describe()
                    where = where if prm.domain.integer else f"in {where}"
                    raise DomainError(prm.name, f"must be {where}; the value given could "
                                      f"not be checked ({_one_line(exc, 200)})") from exc
        raise
    for prm in cls.params:
        if prm.name not in inst.values:
            raise DomainError(prm.name, f"a value is required, in {prm.domain.describe()}")
    return inst


def cmd_value(args: argparse.Namespace, out: TextIO) -> int:
    """``dpsym value``: a quantity certified to ``--digits`` significant digits."""
    from .costs import parse_cost
    from .mechanisms import get_mechanism
    from .numerics import check_digits

    cls = get_mechanism(args.mechanism)
    quantity = cls.check_quantity(args.quantity)
    cost = parse_cost(args.cost)
    digits = check_digits(args.digits)
    given = _given_params(args)
    inst = _instance(cls, given)
    with _engine(f"value of {quantity} for {cls.name}"):
        value = inst.value(quantity, cost, digits)
    if args.json:
        params = {}
        for prm in cls.params:
            if prm.name in given:
                params[prm.name] = given[prm.name].strip()
            elif prm.default is not None:
                params[prm.name] = str(prm.default)
        _emit({"mechanism": cls.name, "quantity": quantity, "cost": cost.name,
               "params": params, "digits": digits, "value": value.text}, out)
    else:
        out.write(value.text + "\n")
    return 0


def _expression_record(expr: Any, *, in_b: bool = False) -> dict[str, str]:
    """The ``expression`` and ``latex`` keys for ``expr`` (written in eps unless ``in_b``)."""
    from .symbols import display_eps

    if not in_b:
        expr = display_eps(expr)
    return {"expression": expression_text(expr), "latex": latex_text(expr)}


def cmd_formula(args: argparse.Namespace, out: TextIO) -> int:
    """``dpsym formula``: the closed form of a quantity (or the cost to minimise)."""
    from .costs import parse_cost
    from .errors import UnsupportedError
    from .mechanisms import get_mechanism

    cls = get_mechanism(args.mechanism)
    quantity = cls.check_quantity(args.quantity)
    cost = parse_cost(args.cost)
    record: dict[str, Any] = {"mechanism": cls.name, "quantity": quantity, "cost": cost.name,
                              "params": {}}
    minimise_over = None
    with _engine(f"formula of {quantity} for {cls.name}"):
        try:
            expr = cls.formula(quantity, cost)
        except UnsupportedError:
            if cls.free is None:
                raise
            # No closed form for the optimum: give the cost to minimise over the free
            # parameter instead (for the quantity ``r`` this is the function whose
            # minimiser it is).
            expr = cls.cost_function(cost)
            minimise_over = _describe_free(cls)
    record.update(_expression_record(expr))
    if minimise_over is not None:
        record["minimise_over"] = minimise_over
        record["note"] = (f"no closed form for the optimal {quantity}; expression is the "
                          f"expected cost as a function of {cls.free.name}, to be minimised "
                          f"over {minimise_over}")
    if args.json:
        _emit(record, out)
    else:
        out.write((record["latex"] if args.latex else record["expression"]) + "\n")
        if minimise_over is not None:
            out.write(f"minimised over {minimise_over}\n")
    return 0


def cmd_series(args: argparse.Namespace, out: TextIO) -> int:
    """``dpsym series``: the asymptotic expansion of a quantity in a regime."""
    from .costs import parse_cost
    from .mechanisms import get_mechanism
    from .regimes import get_regime

    cls = get_mechanism(args.mechanism)
    quantity = cls.check_quantity(args.quantity)
    cost = parse_cost(args.cost)
    regime = get_regime(args.regime)
    order = _parse_order(args.order)
    with _engine(f"series of {quantity} for {cls.name} in regime {regime.name}"):
        expr = cls.series(quantity, cost, regime.name, order)
    in_b = regime.name == "eps->oo"
    record: dict[str, Any] = {"mechanism": cls.name, "quantity": quantity, "cost": cost.name,
                              "params": {"regime": regime.name, "order": order},
                              "regime": regime.name, "order": order}
    record.update(_expression_record(expr, in_b=in_b))
    if in_b:
        record["variable"] = "b = exp(-eps)"
    if args.json:
        _emit(record, out)
    else:
        out.write((record["latex"] if args.latex else record["expression"]) + "\n")
    return 0


def cmd_derive(args: argparse.Namespace, out: TextIO) -> int:
    """``dpsym derive``: regenerate the derivations (see :mod:`dpsym.derive`)."""
    from .derive import run

    try:
        run(args.out, stream=out)
    except OSError as exc:
        reason = exc.strerror or type(exc).__name__
        raise CliError(f"--out: cannot write to {args.out!r}: {reason}") from exc
    return 0


# ---------------------------------------------------------------------- parser
def build_parser(extra_params: Sequence[str] = ()) -> ArgumentParser:
    """The argument parser; ``extra_params`` adds ``--NAME`` options to ``value``."""
    from . import __version__

    parser = ArgumentParser(
        prog=PROG,
        description="Optimal noise-adding mechanisms in differential privacy: closed forms, "
                    "series and certified values.",
    )
    parser.add_argument("--version", action="version", version=f"{PROG} {__version__}")
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND",
                                parser_class=ArgumentParser)

    p = sub.add_parser("list", help="list the mechanisms")
    p.add_argument("--json", action="store_true", help="print a JSON array")
    p.set_defaults(handler=cmd_list)

    def common(p: ArgumentParser) -> None:
        p.add_argument("mechanism", metavar="MECHANISM", help="a name from `dpsym list`")
        p.add_argument("quantity", metavar="QUANTITY", nargs="?", default="cost",
                       help="cost (default) or the optimal free parameter (gamma, r)")
        p.add_argument("--cost", default="amplitude",
                       help="amplitude (default), power or moment:P")
        p.add_argument("--json", action="store_true", help="print one JSON object")

    p = sub.add_parser(
        "value", help="a certified value",
        epilog="Parameters of a mechanism other than eps, delta and Delta (see `dpsym list`) "
               "are given as --NAME VALUE.")
    common(p)
    p.add_argument("--eps", dest="param:eps", metavar="E", help="privacy parameter eps > 0")
    p.add_argument("--delta", dest="param:delta", metavar="D",
                   help="privacy parameter delta (mechanisms that declare it)")
    p.add_argument("--sensitivity", dest="param:Delta", metavar="S",
                   help="query sensitivity Delta (default 1)")
    for name in extra_params:
        if name not in PARAM_ALIASES.values():
            p.add_argument(f"--{name}", dest=f"param:{name}", metavar="VALUE",
                           help=f"the parameter {name}")
    p.add_argument("--digits", default="30", metavar="N",
                   help="significant digits, in [1, 10000] (default 30)")
    p.set_defaults(handler=cmd_value)

    p = sub.add_parser("series", help="an asymptotic expansion")
    common(p)
    p.add_argument("--regime", required=True, metavar="R",
                   help="eps->0, eps->oo, delta->0 or eps=delta->0")
    p.add_argument("--order", required=True, metavar="K",
                   help="order of the remainder O(t^K), an integer")
    p.add_argument("--latex", action="store_true", help="print LaTeX")
    p.set_defaults(handler=cmd_series)

    p = sub.add_parser("formula", help="a closed form")
    common(p)
    p.add_argument("--latex", action="store_true", help="print LaTeX")
    p.set_defaults(handler=cmd_formula)

    p = sub.add_parser("derive", help="regenerate the derivations/ directory")
    p.add_argument("--out", default="derivations", metavar="DIR",
                   help="output directory (default: ./derivations)")
    p.set_defaults(handler=cmd_derive)
    return parser


def parse_args(argv: Sequence[str]) -> argparse.Namespace:
    """Parse ``argv``; ``value`` also accepts ``--NAME`` for every declared parameter."""
    args, extras = build_parser().parse_known_args(argv)
    if extras:
        if getattr(args, "command", None) == "value":
            from .mechanisms import MECHANISMS

            names = sorted({prm.name for cls in MECHANISMS.values() for prm in cls.params})
            return build_parser(names).parse_args(argv)
        raise _UsageError(f"unrecognized arguments: {' '.join(extras)}")
    return args


# ---------------------------------------------------------------------- entry point
def main(argv: Sequence[str] | None = None) -> int:
    """Run the command; return the exit status (0, 1 or 2).

    Parameters
    ----------
    argv : sequence of str, optional
        The arguments (default ``sys.argv[1:]``).
    """
    argv = list(sys.argv[1:] if argv is None else argv)
    out, err = sys.stdout, sys.stderr
    try:
        try:
            args = parse_args(argv)
            handler: Callable[[argparse.Namespace, TextIO], int] = args.handler
            return handler(args, out)
        except SystemExit as exc:  # --help, --version
            code = exc.code
            return code if isinstance(code, int) else (0 if code is None else 1)
        except CliError as exc:
            err.write(f"{PROG}: error: {_one_line(exc)}\n")
            return 2
        except Exception as exc:
            from .errors import DomainError, DpsymError

            if isinstance(exc, DomainError):
                err.write(f"{PROG}: error: {_one_line(_domain_message(exc))}\n")
                return 2
            if isinstance(exc, DpsymError):
                err.write(f"{PROG}: error: {_one_line(exc)}\n")
                return 2
            raise
    except KeyboardInterrupt:
        err.write(f"{PROG}: error: interrupted\n")
        return 130
    except BrokenPipeError:
        return 1
    except Exception as exc:
        detail = _one_line(exc, 500)
        err.write(f"{PROG}: internal error: {type(exc).__name__}: {detail}\n")
        return 1


if __name__ == "__main__":
    sys.exit(main())
