"""Sphinx extension: Sphinx's analysis of each module's source, kept between builds.

autodoc and viewcode read the source of every documented module with Sphinx's own parser
(:class:`sphinx.pycode.ModuleAnalyzer`: the comments that document attributes (``#:``),
the overloads, where each class and function is defined): a tenth of the build, the same
result each time for the same source. At the end of a build (``build-finished``) the
results are written to ``_build/.pycode_cache`` beside the configuration (the directory
of the notebooks' execution cache), keyed by the module's name, its source and the
version of Sphinx; at the start of the next one (``builder-inited``) each module whose
source is unchanged gets its analysis from there: the same attributes, so the same pages.
A module changed since, or new, is analysed as before.
"""

from __future__ import annotations

import hashlib
import os
import pickle
import sys
from pathlib import Path
from typing import Any

import sphinx
from sphinx.errors import PycodeError
from sphinx.pycode import ModuleAnalyzer

#: The attributes :meth:`ModuleAnalyzer.analyze` sets.
RESULTS = ("attr_docs", "annotations", "finals", "overloads", "tags", "tagorder")


class _Analysed(ModuleAnalyzer):
    """A module's analyzer whose results come from the cache: nothing left to analyse."""

    def analyze(self) -> None:
        return None


def _key(source: str) -> str:
    return hashlib.sha256(f"{sphinx.__version__}\0{source}".encode()).hexdigest()


def _path(app) -> Path:
    return Path(app.confdir) / "_build" / ".pycode_cache"


def _wanted(app) -> bool:
    return "sphinx.ext.autodoc" in app.extensions or "sphinx.ext.viewcode" in app.extensions


def restore(app) -> None:
    """``builder-inited``: every cached analysis whose module's source is unchanged."""
    if not _wanted(app):
        return
    try:
        cached: dict[str, tuple[str, dict[str, Any]]] = pickle.loads(_path(app).read_bytes())
    except (OSError, pickle.UnpicklingError, EOFError, AttributeError, ImportError):
        return
    for modname, (key, results) in cached.items():
        parent = modname.rpartition(".")[0]
        if ("module", modname) in ModuleAnalyzer.cache or (parent and parent not in sys.modules):
            continue  # (finding a module imports its package: only those imported already)
        try:
            filename, source = ModuleAnalyzer.get_module_source(modname)
        except PycodeError:
            continue
        if source is None or _key(source) != key:
            continue
        analyzer = _Analysed(source, modname, filename or "<string>")
        for name in RESULTS:
            setattr(analyzer, name, results[name])
        ModuleAnalyzer.cache["module", modname] = analyzer


def store(app, exception) -> None:
    """``build-finished``: the analysis of every module analysed in this build."""
    if exception is not None or not _wanted(app):
        return
    cached = {}
    for (kind, modname), analyzer in list(ModuleAnalyzer.cache.items()):
        if (kind == "module" and isinstance(analyzer, ModuleAnalyzer)
                and all(hasattr(analyzer, name) for name in RESULTS)):
            cached[modname] = (_key(analyzer.code),
                               {name: getattr(analyzer, name) for name in RESULTS})
    try:
        data = pickle.dumps(cached, protocol=pickle.HIGHEST_PROTOCOL)
    except (pickle.PicklingError, TypeError, AttributeError):
        return
    path = _path(app)
    path.parent.mkdir(parents=True, exist_ok=True)
    partial = path.with_name(f"{path.name}.{os.getpid()}")
    partial.write_bytes(data)
    partial.replace(path)  # whole, even with another build writing at the same time


def setup(app):
    app.connect("builder-inited", restore)
    app.connect("build-finished", store)
    return {"version": "1", "parallel_read_safe": True, "parallel_write_safe": True}
