r"""The derivation cache: symbolic results derived once, kept in memory and on disk.

The engine's symbolic derivations (a normalisation solved from total mass one, a cost
integrated over the staircase's periods, a minimiser solved in radicals and verified) take
seconds; a cold ``dpsym value`` should not redo them. A function of a family class
decorated with :func:`derivation` (the derivations of :mod:`dpsym.symbolic.engine`) is computed
once per process (in memory) and, for the classes of the package, looked up first in the
generated module :mod:`dpsym.symbolic._derived`.

That module is Python source written by :func:`dpsym.reports.cachegen.render`: each expression as
the calls of its sympy constructors, replayed without evaluation so that the very same
expression trees come back. Loading it is importing code that ships with the package; nothing is
``eval``-ed or unpickled. It carries the :func:`fingerprint` of the source files the
derivations depend on (:func:`inputs`: all but :data:`NOT_INPUTS`); when the sources
change, the fingerprint no longer matches, the module is ignored and every result is
derived afresh, so a stale cache costs time, never correctness. The main job
(``dpsym derive``, run from the source checkout) regenerates it
(:func:`dpsym.reports.cachegen.write`), and a test checks that the committed module is current
and that each of its entries equals a fresh derivation.

Below the derivations, :func:`memoised` keeps in memory the results of pure sympy steps
that several derivations (of several families) meet with the same arguments: an integral
of a piece of a density, a normalisation solved. Each is a pure function of its exact
arguments (sympy expressions are immutable and compare structurally, assumptions and the
precision of a float included) and of sympy's evaluation flags: a later call returns the
very expression the first one computed.
"""

from __future__ import annotations

import functools
import hashlib
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any, TypedDict, TypeVar

import sympy as sp
from sympy.core.parameters import global_parameters

from dpsym.precision import exclusive

#: The package directory (where it is installed).
#:
#: :meta hide-value:
PACKAGE = Path(__file__).resolve().parent.parent
#: The generated module, ``symbolic/_derived.py`` of the package directory.
#:
#: :meta hide-value:
MODULE = PACKAGE / "symbolic" / "_derived.py"
#: The modules and subpackages of the package (paths relative to it; a path ending in
#: ``/`` is a subpackage) whose content the symbolic derivations depend on: the symbols,
#: the costs and parameters, the symbolic engine, the interval plans derived from it, the
#: mechanisms' definitions and the bounds. Editing any other module (numeric paths,
#: samplers, reports, the command line) leaves the cache valid.
INPUTS = ("symbols.py", "errors.py", "core/costs.py", "core/params.py", "symbolic/",
          "certified/intervals.py", "certified/interval_plans.py", "mechanisms/", "bounds/")
#: The modules inside :data:`INPUTS` that are not inputs: the cache itself and the
#: numeric paths that live beside the definitions.
NOT_INPUTS = frozenset({"symbolic/cache.py", "symbolic/_derived.py", "symbolic/lambdas.py",
                        "mechanisms/fastpath.py", "mechanisms/textbook.py"})

_MISSING = object()
#: In-memory results, by (class, method, arguments).
_MEMO: dict[tuple[Any, ...], Any] = {}


class _State(TypedDict):
    store: dict[str, Callable[[], Any]] | None  # the generated module's entries, once read
    enabled: bool


_state: _State = {"store": None, "enabled": True}


def inputs() -> list[Path]:
    """The source files whose content the cached derivations depend on (sorted): the
    modules of :data:`INPUTS` but those of :data:`NOT_INPUTS`."""
    def wanted(rel: str) -> bool:
        return rel not in NOT_INPUTS and any(
            rel.startswith(item) if item.endswith("/") else rel == item for item in INPUTS)

    return sorted(p for p in PACKAGE.rglob("*.py")
                  if wanted(p.relative_to(PACKAGE).as_posix()))


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
    store = _state["store"]
    if store is None:
        entries: dict[str, Callable[[], Any]] = {}
        try:
            # generated code, loaded at the first lookup (it may be stale or missing)
            from dpsym.symbolic import _derived
        except Exception:  # missing or unloadable (e.g. another sympy): derive afresh
            pass
        else:
            if getattr(_derived, "FINGERPRINT", None) == fingerprint():
                entries = _derived.ENTRIES
        _state["store"] = store = entries
    return store


def class_key(cls: type) -> str:
    """The name of a class in the store: its module and qualified name."""
    return f"{cls.__module__}.{cls.__qualname__}"


def _argument_key(arg: object) -> str:
    name = getattr(arg, "name", None)  # a Cost
    if isinstance(name, str) and hasattr(arg, "exponent"):
        return name
    if getattr(arg, "is_Number", True) is False:
        return sp.srepr(arg)  # a symbolic argument, with the assumptions str() drops
    return str(arg)


def entry_key(cls: type, method: str, args: tuple[object, ...]) -> str:
    """The store key of ``cls.method(*args)``, e.g.
    ``dpsym.mechanisms.staircase.Staircase.optimal_cost(power)``."""
    return f"{class_key(cls)}.{method}({', '.join(map(_argument_key, args))})"


def derivation(method: Callable[..., Any]) -> Callable[..., Any]:
    """Decorate a symbolic derivation ``method(fam, *args)`` of a family (a function of
    :mod:`dpsym.symbolic.engine`, or a method of an engine component, whose ``mechanism``
    class names it): its result is computed once per class and arguments, and taken from
    the generated module when that is current."""
    name = method.__name__

    @functools.wraps(method)
    def wrapper(fam: Any, *args: Any) -> Any:
        cls = getattr(fam, "mechanism", fam)  # an engine component: its mechanism class
        memo_key = (cls, name, *map(_argument_key, args))
        value = _MEMO.get(memo_key, _MISSING)
        if value is _MISSING:
            # a derivation evaluates numerically inside sympy (evalf changes mpmath's
            # precision): it runs under the precision lock (dpsym.precision)
            with exclusive():
                if _state["enabled"] and cls.__module__.startswith("dpsym."):
                    build = _store().get(entry_key(cls, name, args))
                    if build is not None:
                        try:
                            value = build()
                        except Exception:  # a stored entry that no longer rebuilds
                            value = _MISSING
                if value is _MISSING:
                    value = method(fam, *args)
                _MEMO[memo_key] = value
        return value

    wrapper.derivation = True  # type: ignore[attr-defined]
    return wrapper


F = TypeVar("F", bound=Callable[..., Any])


def memoised(maxsize: int) -> Callable[[F], F]:
    """Decorate a pure function of hashable (sympy) arguments: its result is kept for the
    arguments and sympy's evaluation flags (``evaluate``, ``distribute``), the last
    ``maxsize`` of them (``cache_clear`` drops them). A family declared by its user
    integrates the same pieces in its validation and its calibration, and one declared
    twice (a file and Python, the catalogue's noises declared again) solves the same
    normalisation: each once."""

    def decorate(function: F) -> F:
        @functools.lru_cache(maxsize=maxsize)
        def kept(evaluate: bool, distribute: bool, *args: Any) -> Any:
            return function(*args)

        @functools.wraps(function)
        def wrapper(*args: Any) -> Any:
            return kept(global_parameters.evaluate, global_parameters.distribute, *args)

        wrapper.cache_clear = kept.cache_clear  # type: ignore[attr-defined]
        return wrapper  # type: ignore[return-value]

    return decorate


def reload() -> None:
    """Drop the loaded store: the generated module is read again on the next lookup."""
    _state["store"] = None


@contextmanager
def fresh() -> Iterator[None]:
    """Derive everything afresh inside the block: the in-memory results are set aside and
    the generated module is not consulted. The results derived inside are dropped after
    it and those set aside come back (the same values, each a pure function of its class
    and arguments: the process need not derive them a third time)."""
    enabled = _state["enabled"]
    kept = dict(_MEMO)
    _MEMO.clear()
    _state["enabled"] = False
    try:
        yield
    finally:
        _state["enabled"] = enabled
        _MEMO.clear()
        _MEMO.update(kept)
