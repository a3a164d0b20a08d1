r"""The derivation cache: symbolic results derived once, kept in memory and on disk.

The engine's symbolic derivations (a normalisation solved from total mass one, a cost
integrated over the staircase's periods, a minimiser solved in radicals and verified) take
seconds; a cold ``dpsym value`` should not redo them. A classmethod decorated with
:func:`derivation` is computed once per process (in memory) and, for the classes of the
package, looked up first in the generated module :mod:`dpsym._derived`.

That module is Python source written by :func:`render`: each expression as the calls of
its sympy constructors, replayed without evaluation so that the very same expression trees
come back. Loading it is importing code that ships with the package; nothing is
``eval``-ed or unpickled. It carries the :func:`fingerprint` of the source files the
derivations depend on (:func:`inputs`: all but :data:`NOT_INPUTS`); when the sources
change, the fingerprint no longer matches, the module is ignored and every result is
derived afresh, so a stale cache costs time, never correctness. The main job
(``dpsym derive``, run from the source checkout) regenerates it (:func:`write`), and a
test checks that the committed module is current and that each of its entries equals a
fresh derivation.
"""

from __future__ import annotations

import functools
import hashlib
import os
import tempfile
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

#: The package directory.
PACKAGE = Path(__file__).resolve().parent
#: The generated module.
MODULE = PACKAGE / "_derived.py"
#: Modules that do not take part in the symbolic derivations (numeric paths, samplers,
#: reports, the command line): editing them leaves the cache valid.
NOT_INPUTS = frozenset({
    "__init__.py", "__main__.py", "_derived.py", "audit.py", "balls.py", "cache.py",
    "claims.py", "cli.py", "derive.py", "exact_sampling.py", "fastpath.py", "figures.py",
    "gaussian_calibration.py", "privacy.py", "sampling.py", "sweep.py", "textbook.py",
})

_MISSING = object()
#: In-memory results, by (class, method, arguments).
_MEMO: dict[tuple[Any, ...], Any] = {}
_state = {"store": None, "enabled": True}


def inputs() -> list[Path]:
    """The source files whose content the cached derivations depend on (sorted)."""
    return sorted(p for p in PACKAGE.rglob("*.py")
                  if p.name not in NOT_INPUTS or p.parent != PACKAGE)


def fingerprint() -> str:
    """SHA-256 of the derivations' source files (names and contents, line ends normalised)."""
    digest = hashlib.sha256()
    for path in inputs():
        digest.update(path.relative_to(PACKAGE).as_posix().encode())
        digest.update(b"\0")
        digest.update(path.read_bytes().replace(b"\r\n", b"\n"))
        digest.update(b"\0")
    return digest.hexdigest()


def _store() -> dict[str, Callable[[], Any]]:
    """The generated module's entries, or an empty store if it is missing or stale."""
    if _state["store"] is None:
        entries: dict[str, Callable[[], Any]] = {}
        try:
            from . import _derived
        except Exception:  # missing or unloadable (e.g. another sympy): derive afresh
            pass
        else:
            if getattr(_derived, "FINGERPRINT", None) == fingerprint():
                entries = _derived.ENTRIES
        _state["store"] = entries
    return _state["store"]


def class_key(cls: type) -> str:
    """The name of a class in the store: its module and qualified name."""
    return f"{cls.__module__}.{cls.__qualname__}"


def _argument_key(arg: object) -> str:
    name = getattr(arg, "name", None)  # a Cost
    if isinstance(name, str) and hasattr(arg, "exponent"):
        return name
    if getattr(arg, "is_Number", True) is False:
        import sympy as sp

        return sp.srepr(arg)  # a symbolic argument, with the assumptions str() drops
    return str(arg)


def entry_key(cls: type, method: str, args: tuple[object, ...]) -> str:
    """The store key of ``cls.method(*args)``, e.g.
    ``dpsym.mechanisms.staircase.Staircase.optimal_cost(power)``."""
    return f"{class_key(cls)}.{method}({', '.join(map(_argument_key, args))})"


def derivation(method: Callable[..., Any]) -> Callable[..., Any]:
    """Decorate a symbolic classmethod (put it under ``@classmethod``): its result is
    computed once per class and arguments, and taken from the generated module when that
    is current."""
    name = method.__name__

    @functools.wraps(method)
    def wrapper(cls: type, *args: Any) -> Any:
        memo_key = (cls, name, *map(_argument_key, args))
        value = _MEMO.get(memo_key, _MISSING)
        if value is _MISSING:
            if _state["enabled"] and cls.__module__.startswith("dpsym."):
                build = _store().get(entry_key(cls, name, args))
                if build is not None:
                    try:
                        value = build()
                    except Exception:  # a stored entry that no longer rebuilds
                        value = _MISSING
            if value is _MISSING:
                value = method(cls, *args)
            _MEMO[memo_key] = value
        return value

    wrapper.derivation = True  # type: ignore[attr-defined]
    return wrapper


@contextmanager
def fresh() -> Iterator[None]:
    """Derive everything afresh inside the block: the in-memory results are dropped and
    the generated module is not consulted."""
    enabled = _state["enabled"]
    _MEMO.clear()
    _state["enabled"] = False
    try:
        yield
    finally:
        _state["enabled"] = enabled
        _MEMO.clear()


# ---------------------------------------------------------------------- generation
def calls() -> Iterator[tuple[type, str, tuple[object, ...]]]:
    """The derivations the generated module holds: for every mechanism of the registry
    and every cost of :data:`dpsym.derive.COSTS`, the calibration, the cost function, its
    slope, the optimal parameter and cost, and each quantity's closed form."""
    from .costs import parse_cost
    from .derive import COSTS
    from .mechanisms import MECHANISMS

    for cls in MECHANISMS.values():
        yield cls, "calibration", ()
        for cost in map(parse_cost, COSTS):
            yield cls, "moment", (cost.exponent,)
            if cls.free is not None:
                yield cls, "slope_function", (cost,)
                yield cls, "optimal_parameter", (cost,)
            yield cls, "optimal_cost", (cost,)
            for quantity in cls.quantities():
                yield cls, "_closed_form", (quantity, cost)


def _python(value: Any) -> str:
    """Python source that rebuilds ``value`` (a sympy object, None, or a dict of them):
    atoms as :func:`sympy.srepr` prints them, every other node as its class called on its
    arguments in their stored order (replayed without evaluation, the same tree)."""
    import sympy as sp

    if value is None:
        return "None"
    if isinstance(value, dict):
        items = sorted(value.items(), key=lambda kv: sp.srepr(kv[0]))
        return "{" + ", ".join(f"{_python(k)}: {_python(v)}" for k, v in items) + "}"
    if isinstance(value, sp.Dummy):
        raise TypeError(f"cannot store a dummy symbol ({value})")
    if value.is_Atom:
        return sp.srepr(value)
    return f"{type(value).__name__}({', '.join(map(_python, value.args))})"


def collect() -> dict[str, Any]:
    """Every derivation of :func:`calls` that exists, derived afresh, by store key."""
    from .errors import DpsymError

    values: dict[str, Any] = {}
    with fresh():
        for cls, method, args in calls():
            try:
                values[entry_key(cls, method, args)] = getattr(cls, method)(*args)
            except (DpsymError, NotImplementedError):  # no such derivation: nothing to store
                continue
    return values


def render(values: dict[str, Any] | None = None) -> str:
    """The text of the generated module (deterministic), from ``values`` (default: a
    fresh :func:`collect`)."""
    from . import __version__

    bodies = {key: _python(value) for key, value in (collect() if values is None
                                                     else values).items()}
    lines = [
        f'"""Derivations cached by ``dpsym derive`` (dpsym {__version__}): generated, do '
        'not edit."""',
        "# ruff: noqa",
        "from sympy import *",
        "from sympy.core.parameters import evaluate",
        "from sympy.functions.elementary.piecewise import ExprCondPair",
        "from dpsym.sums import LerchSum",
        "",
        f"FINGERPRINT = {fingerprint()!r}",
        "",
    ]
    table = []
    for i, (key, body) in enumerate(sorted(bodies.items())):
        lines.append(f"def _e{i}():\n    with evaluate(False):\n        return {body}\n")
        table.append(f"    {key!r}: _e{i},")
    lines += ["ENTRIES = {", *table, "}", ""]
    return "\n".join(lines)


def in_checkout(out_dir: str | os.PathLike[str]) -> bool:
    """Whether a main job writing into ``out_dir`` regenerates the cache too: the package
    is the source checkout (its parent holds ``pyproject.toml``), ``out_dir`` is that
    checkout's ``derivations/`` and the package directory is writable. An installed copy,
    or a job writing elsewhere (the tests), leaves the generated module alone."""
    checkout = PACKAGE.parent
    return ((checkout / "pyproject.toml").is_file()
            and Path(out_dir).resolve() == (checkout / "derivations").resolve()
            and os.access(PACKAGE, os.W_OK))


def write(path: str | os.PathLike[str] = MODULE) -> Path:
    """Regenerate the generated module (atomically) and drop the loaded store."""
    path = Path(path)
    text = render()
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=".derived-", suffix=".tmp")
    try:
        with os.fdopen(fd, "w", encoding="utf-8", newline="\n") as fh:
            fh.write(text)
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
    _state["store"] = None
    return path
