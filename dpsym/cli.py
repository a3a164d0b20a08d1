r"""The ``dpsym`` command.

.. code-block:: text

   dpsym list    [--json]
   dpsym value   MECHANISM [QUANTITY] [--eps E] [--delta D] [--sensitivity S] [--NAME VALUE]
                 [--cost C] [--digits N] [--method auto|ball|mpmath] [--json]
   dpsym series  MECHANISM [QUANTITY] --cost C --regime R --order K [--dim D] [--json]
                 [--latex]
   dpsym formula MECHANISM [QUANTITY] --cost C [--dim D] [--json] [--latex]
   dpsym compare --eps E [--delta D] [--cost C] [--sensitivity S] [--digits N]
                 [--dim D] [--lp [--grid N]] [--json]
   dpsym derive  [--out DIR]

``MECHANISM`` is a mechanism or a lower bound from ``dpsym list`` (the registries
:data:`dpsym.mechanisms.MECHANISMS` and :data:`dpsym.bounds.BOUNDS`, looked up by
:func:`get_entry`). ``QUANTITY`` defaults to ``cost``; the optimal free parameter of a
family and its derived parameters are quantities too (``gamma`` for the staircase, ``r``
for the discrete staircase, ``A`` and ``B`` for the truncated Laplacian, ...). ``--cost``
is one of ``amplitude``, ``power`` or ``moment:P`` and defaults to ``amplitude``.

The options of ``value``, ``series`` and ``formula`` are built from the declared
parameters of the named entry (:attr:`dpsym.mechanisms.base.Mechanism.params`):

* ``value`` takes every parameter: ``--eps`` sets ``eps``, ``--delta`` sets ``delta``
  and ``--sensitivity`` sets ``Delta`` (default 1); any other parameter ``NAME`` (``dim``,
  ``grid``) is set with ``--NAME VALUE``.
* ``series`` and ``formula`` are symbolic in the continuous parameters and take only the
  discrete parameters the expression depends on (integer parameters other than
  ``Delta``): ``--dim D`` for ``staircase-md``, ``independent-staircase``, ``laplace-md``,
  ..., (the class of that dimension) and ``--grid N`` for ``lp-bound``.

A parameter the command does not use for that entry is refused with a one-line error.
Numbers are handed to the engine as the strings typed and parsed there exactly
(:func:`dpsym.params.parse_number`).

``compare`` answers "which mechanism should I use?": every registered mechanism that is
(eps, delta)-DP at the given parameters (decided from its ``guarantee``: ``eps``
mechanisms for any delta >= 0 and eps > 0, ``eps,delta`` ones when eps and delta lie in
their declared domains, ``0,delta`` ones for any eps >= 0 and delta > 0), with its
certified optimal cost, sorted, and its ratio to the best, in two sections (real-valued and
integer-valued queries); the section's lower bound (``lower-bound``,
``discrete-lower-bound``; ``lp-bound`` with ``--lp``) on a separate line with the ratio
best / bound. ``--delta`` defaults to 0 (pure eps-DP). Multi-dimensional mechanisms (a
``dim`` parameter) are compared only, and alone, with ``--dim D``. An entry whose value
fails is listed as skipped, with the reason.

Exit status: 0 on success; 2 for every error caused by the input (a usage error, a value
outside its domain, an unsupported request, a value that cannot be certified), reported
as one line ``dpsym: error: <message>`` on standard error; 1 for an internal error,
reported as one line ``dpsym: internal error: <message>``. No traceback is ever printed.

Only :mod:`argparse` and :mod:`json` are imported up front; sympy and the engine are
imported by the command handlers (and by the parser of ``value``, ``series`` and
``formula``, whose options come from the registries).
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from collections.abc import Callable, Iterator, Mapping, Sequence
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
        if option is None and name in _param_names():
            option = f"--{name}"
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


# ---------------------------------------------------------------------- registries
def _registries() -> tuple[dict[str, Any], dict[str, Any]]:
    """(``MECHANISMS``, ``BOUNDS``), imported on first use."""
    from .bounds import BOUNDS
    from .mechanisms import MECHANISMS

    return MECHANISMS, BOUNDS


def get_entry(name: str) -> Any:
    """The mechanism or lower-bound class called ``name`` (mechanisms first).

    Raises
    ------
    DomainError
        If no entry has that name; the message lists every valid name.
    """
    from .errors import DomainError

    mechanisms, bounds = _registries()
    if isinstance(name, str):
        for registry in (mechanisms, bounds):
            if name in registry:
                return registry[name]
    shown = str(name)[:40]
    raise DomainError("mechanism", f"unknown mechanism or bound {shown!r}; valid mechanisms: "
                      f"{', '.join(mechanisms)}; lower bounds: {', '.join(bounds)}")


def is_bound(cls: Any) -> bool:
    """Whether ``cls`` is a lower-bound object (an entry of ``BOUNDS``)."""
    _, bounds = _registries()
    return bounds.get(getattr(cls, "name", None)) is cls


def _param_names() -> dict[str, list[str]]:
    """Every declared parameter name, with the entries that declare it (listing order)."""
    names: dict[str, list[str]] = {}
    for registry in _registries():
        for cls in registry.values():
            for prm in cls.params:
                names.setdefault(prm.name, []).append(cls.name)
    return names


def _option(name: str) -> str:
    """The command-line option of the parameter ``name``."""
    return OPTION_OF_PARAM.get(name, f"--{name}")


def _structural(cls: Any) -> list[Any]:
    """The discrete parameters that closed forms and series depend on (``dim``, ``grid``):
    the integer parameters other than those with a fixed option (``eps``, ``delta``,
    ``Delta``)."""
    return [prm for prm in cls.params
            if prm.domain.integer and prm.name not in PARAM_ALIASES.values()]


def _is_multidimensional(cls: Any) -> bool:
    """Whether ``cls`` declares a dimension ``dim``."""
    return any(prm.name == "dim" for prm in cls.params)


def _check_symbolic_params(command: str, cls: Any, given: dict[str, str]) -> None:
    """Refuse the parameters that ``series``/``formula`` do not use for ``cls``."""
    from .errors import DomainError

    used = [prm.name for prm in _structural(cls)]
    accepted = ", ".join(_option(n) for n in used) or "none"
    for name in given:
        if name in used:
            continue
        opt = _option(name)
        if name in {prm.name for prm in cls.params}:
            why = f"not used by `dpsym {command}` (the expression is symbolic in {name})"
        else:
            why = f"{cls.name} has no parameter {name} ({opt})"
        raise DomainError(name, f"{why}; parameter options of `dpsym {command}` for "
                          f"{cls.name}: {accepted}")


def _specialise(cls: Any, given: dict[str, str]) -> tuple[Any, dict[Any, Any], dict[str, str]]:
    """The class, substitution and shown values for the discrete parameters of ``cls``.

    ``dim`` selects the class of that dimension (``cls.for_dim``) where the class has one;
    any other discrete parameter is substituted into the expression. Each value is
    validated by the declared :class:`~dpsym.params.Param`.
    """
    import sympy as sp

    subs: dict[Any, Any] = {}
    shown: dict[str, str] = {}
    for prm in _structural(cls):
        text = given.get(prm.name, prm.default)
        if text is None:
            continue
        value = prm.validate(text)
        shown[prm.name] = str(value)
        if prm.name == "dim" and hasattr(cls, "for_dim"):
            cls = cls.for_dim(value)
        else:
            subs[prm.symbol] = sp.Integer(value.numerator) / value.denominator
    return cls, subs, shown


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
#: How each guarantee is shown.
GUARANTEE_LABELS: dict[str, str] = {"eps": "eps-DP", "eps,delta": "(eps,delta)-DP",
                                    "0,delta": "(0,delta)-DP"}


def cmd_list(args: argparse.Namespace, out: TextIO) -> int:
    """``dpsym list``: the mechanisms and the lower bounds, their guarantee, parameters with
    domains and quantities."""
    mechanisms, bounds = _registries()
    rows = []
    for kind, registry in (("mechanism", mechanisms), ("lower bound", bounds)):
        for cls in registry.values():
            params = cls.describe_params()
            for prm in params:
                prm["option"] = _option(prm["name"])
            rows.append({
                "name": cls.name,
                "kind": kind,
                "title": cls.title,
                "guarantee": cls.guarantee,
                "lattice": bool(cls.lattice),
                "params": params,
                "quantities": list(cls.quantities()),
                "free": _describe_free(cls),
                "source": cls.source,
            })
    if args.json:
        _emit(rows, out)
        return 0
    table = [("NAME", "KIND", "GUARANTEE", "TITLE", "PARAMETERS", "QUANTITIES")]
    for row in rows:
        parts = []
        for prm in row["params"]:
            text = f"{prm['name']} {prm['domain']}"
            if prm["default"]:
                text += f" [default {prm['default']}]"
            parts.append(text)
        table.append((row["name"], row["kind"], GUARANTEE_LABELS.get(row["guarantee"],
                                                                      row["guarantee"]),
                      row["title"], "; ".join(parts), ", ".join(row["quantities"])))
    for line in format_table(table):
        out.write(line + "\n")
    options = ", ".join(f"{opt} sets {param}" for param, opt in OPTION_OF_PARAM.items())
    out.write(f"\noptions of `dpsym value`: {options}; any other parameter NAME: --NAME\n")
    out.write("`dpsym series` and `dpsym formula` take the integer parameters other than "
              "Delta (--dim, --grid)\n")
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
            valid = ", ".join(f"{n} ({_option(n)})" for n in names)
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
    """``dpsym value``: a quantity certified to ``--digits`` significant digits (a lower
    bound's value is rounded down)."""
    from .costs import parse_cost
    from .errors import DomainError
    from .numerics import check_digits

    cls = get_entry(args.mechanism)
    quantity = cls.check_quantity(args.quantity)
    cost = parse_cost(args.cost)
    digits = check_digits(args.digits)
    given = _given_params(args)
    inst = _instance(cls, given)
    method = {} if args.method == "auto" else {"method": args.method}
    if method and is_bound(cls):
        raise DomainError("method", f"applies to mechanisms; the lower bound {cls.name} is "
                          "certified with mpmath and rounded down")
    with _engine(f"value of {quantity} for {cls.name}"):
        value = inst.value(quantity, cost, digits, **method)
    if args.json:
        params = {}
        for prm in cls.params:
            if prm.name in given:
                params[prm.name] = given[prm.name].strip()
            elif prm.default is not None:
                params[prm.name] = str(prm.default)
        record = {"mechanism": cls.name, "quantity": quantity, "cost": cost.name,
                  "params": params, "digits": digits, "value": value.text}
        if is_bound(cls):
            record["kind"] = "lower bound"
        _emit(record, out)
    else:
        out.write(value.text + "\n")
    return 0


def _expression_record(expr: Any, *, in_b: bool = False) -> dict[str, str]:
    """The ``expression`` and ``latex`` keys for ``expr`` (written in eps unless ``in_b``)."""
    from .symbols import display_eps

    if not in_b:
        expr = display_eps(expr)
    return {"expression": expression_text(expr), "latex": latex_text(expr)}


def _symbolic_entry(command: str, args: argparse.Namespace
                    ) -> tuple[Any, dict[Any, Any], dict[str, str]]:
    """The entry of ``series``/``formula`` specialised to the discrete parameters given."""
    cls = get_entry(args.mechanism)
    given = _given_params(args)
    _check_symbolic_params(command, cls, given)
    return _specialise(cls, given)


def cmd_formula(args: argparse.Namespace, out: TextIO) -> int:
    """``dpsym formula``: the closed form of a quantity (or the cost to minimise)."""
    from .costs import parse_cost
    from .errors import UnsupportedError

    cls, subs, shown = _symbolic_entry("formula", args)
    quantity = cls.check_quantity(args.quantity)
    cost = parse_cost(args.cost)
    record: dict[str, Any] = {"mechanism": cls.name, "quantity": quantity, "cost": cost.name,
                              "params": dict(shown)}
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
        if subs:
            expr = expr.subs(subs)
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
    from .regimes import get_regime

    cls, subs, shown = _symbolic_entry("series", args)
    quantity = cls.check_quantity(args.quantity)
    cost = parse_cost(args.cost)
    regime = get_regime(args.regime)
    order = _parse_order(args.order)
    with _engine(f"series of {quantity} for {cls.name} in regime {regime.name}"):
        expr = cls.series(quantity, cost, regime.name, order)
        if subs:
            expr = expr.subs(subs)
    in_b = regime.name == "eps->oo"
    record: dict[str, Any] = {"mechanism": cls.name, "quantity": quantity, "cost": cost.name,
                              "params": {**shown, "regime": regime.name, "order": order},
                              "regime": regime.name, "order": order}
    record.update(_expression_record(expr, in_b=in_b))
    if in_b:
        record["variable"] = "b = exp(-eps)"
    if args.json:
        _emit(record, out)
    else:
        out.write((record["latex"] if args.latex else record["expression"]) + "\n")
    return 0


# ---------------------------------------------------------------------- compare
#: Lower bounds left out of ``compare`` unless their flag is given.
OPT_IN_BOUNDS: dict[str, str] = {"lp-bound": "lp"}
#: Significant digits of the printed ratios.
RATIO_DIGITS = 6


def _compare_inputs(args: argparse.Namespace) -> dict[str, Any]:
    """The validated inputs of ``compare``: exact values and the strings typed."""
    from fractions import Fraction

    from .bounds.integer import eps_zero_param
    from .bounds.lp import grid_param
    from .costs import parse_cost
    from .errors import DomainError
    from .mechanisms.base import sensitivity_param
    from .mechanisms.staircase_md import dim_param
    from .numerics import check_digits
    from .params import Domain, Param
    from .symbols import delta

    delta_any = Param("delta", delta, Domain(lower=Fraction(0), lower_open=False,
                                             upper=Fraction(1)), "privacy parameter", ("0", "0.1"))
    inputs: dict[str, Any] = {
        "cost": parse_cost(args.cost),
        "digits": check_digits(args.digits),
        "eps": eps_zero_param().validate(args.eps),
        "delta": delta_any.validate(args.delta),
        "Delta": sensitivity_param().validate(args.sensitivity),
        "dim": None if args.dim is None else dim_param().validate(args.dim),
        "grid": None,
        "text": {"eps": args.eps.strip(), "delta": args.delta.strip(),
                 "Delta": args.sensitivity.strip()},
    }
    if args.grid is not None:
        if not args.lp:
            raise DomainError("grid", "used only with --lp (the grid refinement of "
                              "lp-bound)")
        inputs["grid"] = grid_param().validate(args.grid)
        inputs["text"]["grid"] = args.grid.strip()
    if inputs["eps"] == 0 and inputs["delta"] == 0:
        raise CliError("--eps, --delta: cannot both be 0 ((0, 0)-DP noise cannot depend on "
                       "the data); give --eps > 0 or --delta in (0, 1)")
    if inputs["dim"] is not None:
        inputs["text"]["dim"] = str(inputs["dim"])
    return inputs


def _compare_kwargs(cls: Any, inputs: dict[str, Any]) -> dict[str, str]:
    """The parameters ``compare`` gives ``cls``; a :class:`CliError` says why it does not
    qualify at these (eps, delta)."""
    guarantee = cls.guarantee
    if guarantee not in GUARANTEE_LABELS:
        raise CliError(f"unknown guarantee {guarantee!r}")
    if guarantee == "eps" and inputs["eps"] == 0:
        raise CliError("pure eps-DP: needs --eps > 0")
    if guarantee != "eps" and inputs["delta"] == 0:
        raise CliError(f"{GUARANTEE_LABELS[guarantee]}: needs --delta > 0")
    text = inputs["text"]
    kwargs: dict[str, str] = {}
    for prm in cls.params:
        unused = (prm.name == "eps" and guarantee == "0,delta") or \
            (prm.name == "delta" and guarantee == "eps")
        if prm.name in text and not unused:
            kwargs[prm.name] = text[prm.name]
        elif prm.default is None:
            raise CliError(f"needs the parameter {prm.name}, which compare does not set")
    return kwargs


def _compare_value(cls: Any, inputs: dict[str, Any]) -> Any:
    """The certified optimal cost of ``cls`` at the inputs, or the one-line reason it has
    none (a string)."""
    from .errors import DomainError, DpsymError

    try:
        kwargs = _compare_kwargs(cls, inputs)
        inst = _instance(cls, kwargs)
        with _engine(f"cost of {cls.name}"):
            return inst.value("cost", inputs["cost"], inputs["digits"])
    except DomainError as exc:
        return _one_line(_domain_message(exc), 300)
    except (DpsymError, CliError) as exc:
        return _one_line(exc, 300)
    except Exception as exc:  # one entry's bug must not hide the others
        return f"internal error: {type(exc).__name__}: {_one_line(exc, 200)}"


def _ratio_text(ratio: Any) -> str:
    """A ratio to :data:`RATIO_DIGITS` significant digits (exactly ``1`` prints ``1``)."""
    import mpmath

    if ratio == 1:
        return "1"
    return mpmath.nstr(ratio, RATIO_DIGITS)


def compare(inputs: dict[str, Any], lp: bool = False) -> dict[str, Any]:
    """The comparison behind ``dpsym compare``, as the JSON-ready record.

    Parameters
    ----------
    inputs : dict
        From :func:`_compare_inputs`.
    lp : bool
        Include ``lp-bound`` among the lower bounds.

    Returns
    -------
    dict
        ``rows`` (mechanisms ranked within their query section, then the section's lower
        bounds), ``skipped`` (name, query, reason) and ``excluded`` (multi-dimensional
        mechanisms left out, or in ``--dim`` mode the one-dimensional ones).
    """
    import mpmath

    mechanisms, bounds = _registries()
    multi = inputs["dim"] is not None
    rows: list[dict[str, Any]] = []
    skipped: list[dict[str, str]] = []
    excluded: list[str] = []

    def entry(cls: Any, kind: str) -> dict[str, Any] | None:
        query = "integer" if cls.lattice else "real"
        value = _compare_value(cls, inputs)
        if isinstance(value, str):
            skipped.append({"name": cls.name, "kind": kind, "query": query, "reason": value})
            return None
        return {"name": cls.name, "title": cls.title, "kind": kind, "query": query,
                "guarantee": cls.guarantee, "cost": value.text, "ratio": None,
                "_number": value.number}

    found = []
    for cls in mechanisms.values():
        if _is_multidimensional(cls) != multi:
            excluded.append(cls.name)
            continue
        row = entry(cls, "mechanism")
        if row is not None:
            found.append(row)
    lower = []
    for cls in bounds.values():
        flag = OPT_IN_BOUNDS.get(cls.name)
        if flag == "lp" and not lp:
            continue
        if multi:
            skipped.append({"name": cls.name, "kind": "lower bound",
                            "query": "integer" if cls.lattice else "real",
                            "reason": "a one-dimensional bound: not compared with --dim"})
            continue
        row = entry(cls, "lower bound")
        if row is not None:
            lower.append(row)
    with mpmath.workdps(inputs["digits"] + 10):
        for query in ("real", "integer"):
            section = sorted((r for r in found if r["query"] == query),
                             key=lambda r: r["_number"])
            best = section[0]["_number"] if section else None
            for rank, row in enumerate(section, 1):
                row["rank"] = rank
                row["ratio"] = _ratio_text(row["_number"] / best)
            rows.extend(section)
            for row in (r for r in lower if r["query"] == query):
                if best is not None and row["_number"] > 0:
                    row["ratio"] = _ratio_text(best / row["_number"])
                rows.append(row)
    for row in rows:
        del row["_number"]
    cost = inputs["cost"]
    text = inputs["text"]
    return {"eps": text["eps"], "delta": text["delta"], "sensitivity": text["Delta"],
            "cost": cost.name, "digits": inputs["digits"],
            "dim": None if inputs["dim"] is None else int(inputs["dim"]),
            "rows": rows, "skipped": skipped, "excluded": excluded}


def cmd_compare(args: argparse.Namespace, out: TextIO) -> int:
    """``dpsym compare``: the mechanisms that are (eps, delta)-DP at the given parameters,
    ranked by their optimal cost, with the lower bounds."""
    inputs = _compare_inputs(args)
    record = compare(inputs, lp=args.lp)
    if args.json:
        _emit(record, out)
        return 0
    head = (f"eps = {record['eps']}, delta = {record['delta']}, sensitivity = "
            f"{record['sensitivity']}, cost {record['cost']}, {record['digits']} digits")
    if record["dim"] is not None:
        head += f", dimension {record['dim']}"
    out.write(head + "\n")
    for query in ("real", "integer"):
        section = [r for r in record["rows"] if r["query"] == query]
        out.write(f"\n{query}-valued query\n")
        if not any(r["kind"] == "mechanism" for r in section):
            out.write("  (no mechanism)\n")
        table = [("RANK", "MECHANISM", "GUARANTEE", "COST", "RATIO")]
        for r in section:
            label = GUARANTEE_LABELS.get(r["guarantee"], r["guarantee"])
            if r["kind"] == "mechanism":
                table.append((str(r["rank"]), r["name"], label, r["cost"], r["ratio"]))
            else:
                ratio = "-" if r["ratio"] is None else f"{r['ratio']} (best / bound)"
                table.append(("lower bound", r["name"], label, r["cost"], ratio))
        if len(table) > 1:
            for line in format_table(table):
                out.write("  " + line + "\n")
    if record["skipped"]:
        out.write("\nskipped\n")
        for s in record["skipped"]:
            kind = " (lower bound)" if s["kind"] == "lower bound" else ""
            out.write(f"  {s['name']}{kind}: {s['reason']}\n")
    if record["excluded"]:
        why = ("one-dimensional" if record["dim"] is not None
               else "multi-dimensional; compare them with --dim D")
        out.write(f"\nnot compared ({why}): {', '.join(record['excluded'])}\n")
    return 0


def cmd_audit(args: argparse.Namespace, out: TextIO) -> int:
    """``dpsym audit``: the delta a noise with user-supplied parameters achieves."""
    from .audit import audit

    noise = {name: getattr(args, name) for name in ("sigma", "scale", "bound", "eps0", "gamma")}
    result = audit(args.mechanism, args.eps, args.delta, args.sensitivity, args.digits,
                   **noise)
    if args.json:
        _emit(result.as_dict(), out)
        return 0
    out.write(f"delta = {result.text}\n")
    if result.met is not None:
        verdict = "met" if result.met else "NOT met"
        out.write(f"target delta = {args.delta}: {verdict}\n")
    return 0


def cmd_sweep(args: argparse.Namespace, out: TextIO) -> int:
    """``dpsym sweep``: a quantity over a parameter grid, written as CSV or JSON."""
    from .sweep import parse_values, sweep, to_csv, to_json

    grid = {}
    for option in args.param or []:
        name, sep, values = option.partition("=")
        if not sep or not name:
            raise CliError(f"--param: expected NAME=VALUES, got {option[:40]!r}")
        name = PARAM_ALIASES.get(name, name)
        grid[name] = parse_values(values, name)
    if not grid:
        raise CliError("--param: give at least one NAME=VALUES")
    workers = None
    if args.workers is not None:
        text = args.workers
        if not (text.isascii() and text.isdigit()) or not 1 <= int(text) <= 256:
            raise CliError("--workers: must be an integer in [1, 256]")
        workers = int(args.workers)
    progress = None
    if sys.stderr.isatty():
        def progress(done: int, total: int) -> None:
            sys.stderr.write(f"\r{done}/{total}")
            if done == total:
                sys.stderr.write("\n")
    digits = _digits(args.digits)
    rows = sweep(args.mechanism, grid, args.quantity, args.cost, digits,
                 workers=workers, progress=progress)
    meta = {"mechanism": args.mechanism, "quantity": args.quantity, "cost": args.cost,
            "digits": digits}
    text = to_json(rows, meta) if args.format == "json" else to_csv(rows)
    if args.out is None:
        out.write(text)
    else:
        from pathlib import Path

        from .derive import write_atomic

        write_atomic(Path(args.out), text)
    return 0


def _digits(text: str) -> int:
    from .numerics import check_digits

    return check_digits(text)


def cmd_check(args: argparse.Namespace, out: TextIO) -> int:
    """``dpsym check``: run the registered source claims; exit 1 if any disagrees."""
    from .claims import CLAIMS, run_claims

    ids = args.claims or None
    if ids:
        known = [c.id for c in CLAIMS]
        for cid in ids:
            if not any(k == cid or k.startswith(cid + ".") for k in known):
                raise CliError(f"claim: unknown claim {cid[:40]!r}; see 'dpsym check --list'")
    if args.list:
        rows = [(c.id, c.source, c.status, c.location[:50]) for c in CLAIMS
                if not ids or any(c.id == i or c.id.startswith(i + ".") for i in ids)]
        for line in format_table([("CLAIM", "SOURCE", "REGISTERED", "LOCATION"), *rows]):
            out.write(line + "\n")
        return 0
    total = [0]
    progress = None
    if sys.stderr.isatty() and not args.json:
        count = len([c for c in CLAIMS
                     if not ids or any(c.id == i or c.id.startswith(i + ".") for i in ids)])

        def progress(result: Any) -> None:
            total[0] += 1
            done = int(30 * total[0] / max(count, 1))
            sys.stderr.write(f"\r[{'#' * done}{'.' * (30 - done)}] {total[0]}/{count} "
                             f"{result.claim.id[:30]:30}")
            if total[0] == count:
                sys.stderr.write("\n")
    results = run_claims(ids, progress=progress)
    failed = [r for r in results if not r.ok]
    if args.json:
        _emit({"passed": len(results) - len(failed), "failed": len(failed),
               "claims": [{"id": r.claim.id, "source": r.claim.source,
                           "registered": r.claim.status, "computed": r.status,
                           "ok": r.ok, "seconds": round(r.seconds, 3),
                           "detail": r.detail} for r in results]}, out)
    else:
        table = [("CLAIM", "SOURCE", "VERDICT", "TIME", "")]
        for r in results:
            table.append((r.claim.id, r.claim.source, r.status, f"{r.seconds:.2f}s",
                          "ok" if r.ok else "MISMATCH"))
        for line in format_table(table):
            out.write(line + "\n")
        out.write(f"{len(results) - len(failed)} of {len(results)} claims as registered\n")
    return 1 if failed else 0


def cmd_derive(args: argparse.Namespace, out: TextIO) -> int:
    """``dpsym derive``: regenerate the derivations (see :mod:`dpsym.derive`)."""
    from . import cache
    from .derive import run

    try:
        run(args.out, stream=out)
    except OSError as exc:
        reason = exc.strerror or type(exc).__name__
        raise CliError(f"--out: cannot write to {args.out!r}: {reason}") from exc
    if cache.in_checkout(args.out):
        path = cache.write()
        out.write(f"derivation cache: {path.name} ({cache.fingerprint()[:12]})\n")
    return 0


# ---------------------------------------------------------------------- parser
def build_parser(params: Mapping[str, Sequence[str]] | None = None) -> ArgumentParser:
    """The argument parser.

    Parameters
    ----------
    params : mapping of str to sequence of str, optional
        Every declared parameter name with the entries that declare it
        (:func:`_param_names`). ``value``, ``series`` and ``formula`` get an option for
        each (``--eps``, ``--delta``, ``--sensitivity``, ``--NAME``); the handlers accept
        those the named entry and the command use and refuse the others by name. Without
        it only ``value``'s ``--eps``, ``--delta`` and ``--sensitivity`` exist.
    """
    from . import __version__

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
                          for prm in _params_of(owners))
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
               "to a serial run (--workers 1).")
    p.add_argument("mechanism", metavar="MECHANISM")
    p.add_argument("quantity", nargs="?", default="cost", metavar="QUANTITY")
    p.add_argument("--param", action="append", metavar="NAME=VALUES",
                   help="a parameter's values (eps, delta, sensitivity or a declared name); "
                        "repeat for a grid")
    p.add_argument("--cost", default="amplitude", help="amplitude, power or moment:P")
    p.add_argument("--digits", default="30", metavar="N", help="digits (default 30)")
    p.add_argument("--format", choices=("csv", "json"), default="csv")
    p.add_argument("--out", default=None, metavar="FILE", help="write here (atomically)")
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
    p.set_defaults(handler=cmd_check)

    p = sub.add_parser("derive", help="regenerate the derivations/ directory")
    p.add_argument("--out", default="derivations", metavar="DIR",
                   help="output directory (default: ./derivations)")
    p.set_defaults(handler=cmd_derive)
    return parser


def _params_of(names: Sequence[str]) -> list[Any]:
    """The declared parameters of the entries called ``names``."""
    out = []
    for registry in _registries():
        for cls in registry.values():
            if cls.name in names:
                out.extend(cls.params)
    return out


#: The commands whose options come from the registries.
_REGISTRY_COMMANDS = ("value", "series", "formula")


def parse_args(argv: Sequence[str]) -> argparse.Namespace:
    """Parse ``argv``; ``value``, ``series`` and ``formula`` get an option for every
    declared parameter (checked against the named entry by the handlers)."""
    command = next((a for a in argv if not a.startswith("-")), None)
    params = _param_names() if command in _REGISTRY_COMMANDS else None
    return build_parser(params).parse_args(argv)


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
