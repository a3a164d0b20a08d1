"""Sphinx extension: Sphinx's work on each module's source, kept between builds.

Analysis.

autodoc and viewcode read the source of every documented module with Sphinx's own parser
(:class:`sphinx.pycode.ModuleAnalyzer`: the comments that document attributes (``#:``),
the overloads, where each class and function is defined): a tenth of the build, the same
result each time for the same source. At the end of a build (``build-finished``) the
results are written to ``_build/.pycode_cache`` beside the configuration (the directory
of the notebooks' execution cache), keyed by the module's name, its source and the
version of Sphinx; at the start of the next one (``builder-inited``) each module whose
source is unchanged gets its analysis from there: the same attributes, so the same pages.
A module changed since, or new, is analysed as before.

Highlighting. viewcode shows the source of every module highlighted by Pygments, another
tenth of the build. The builder's highlighter is wrapped (``builder-inited``): a block
highlighted with the same text, lexer, options, style and versions of Sphinx and Pygments
as one of the previous build gets that one's HTML (kept in ``_build/.highlight_cache``);
a block whose highlighting warned (its lexer failed on it) is never kept, so that it warns
again.
"""

from __future__ import annotations

import hashlib
import logging
import os
import pickle
import sys
from pathlib import Path
from typing import Any

import pygments
import sphinx
from sphinx import highlighting
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
    _write(_path(app), data)


class _Warnings(logging.Handler):
    """Counts the warnings of Sphinx's highlighting module."""

    def __init__(self) -> None:
        super().__init__(logging.WARNING)
        self.count = 0

    def emit(self, record: logging.LogRecord) -> None:
        self.count += 1


def _highlight_key(highlighter, source: str, args: tuple, kwargs: dict[str, Any]) -> str:
    settings = {**kwargs, **highlighter.formatter_args}
    style = settings.get("style")
    if isinstance(style, type):
        settings["style"] = f"{style.__module__}.{style.__qualname__}"
    text = repr((sphinx.__version__, pygments.__version__, highlighter.dest,
                 f"{highlighter.formatter.__module__}.{highlighter.formatter.__qualname__}",
                 args, sorted(settings.items(), key=lambda item: item[0]), source))
    return hashlib.sha256(text.encode()).hexdigest()


def keep_highlighting(app) -> None:
    """``builder-inited``: the builder's highlighter answers from the previous build's
    blocks; the blocks of this build are written at its end."""
    highlighter = getattr(app.builder, "highlighter", None)
    if highlighter is None or not _wanted(app):
        return
    try:
        kept: dict[str, str] = pickle.loads(_highlight_path(app).read_bytes())
    except (OSError, pickle.UnpicklingError, EOFError, AttributeError, ImportError):
        kept = {}
    used: dict[str, str] = {}
    app.builder.dpsym_highlighted = used
    highlight_block = highlighter.highlight_block
    warnings = _Warnings()
    highlighting.logger.logger.addHandler(warnings)

    def kept_highlight_block(source: str, lang: str, *args: Any, **kwargs: Any) -> str:
        location = kwargs.pop("location", None)
        key = _highlight_key(highlighter, source, (lang, *args), kwargs)
        if key in kept:
            used[key] = kept[key]
            return used[key]
        before = warnings.count
        html = highlight_block(source, lang, *args, location=location, **kwargs)
        if warnings.count == before:
            used[key] = html
        return html

    highlighter.highlight_block = kept_highlight_block


def _highlight_path(app) -> Path:
    return Path(app.confdir) / "_build" / ".highlight_cache"


def store_highlighting(app, exception) -> None:
    """``build-finished``: the blocks highlighted in this build."""
    used = getattr(app.builder, "dpsym_highlighted", None)
    if exception is None and used:
        _write(_highlight_path(app), pickle.dumps(used, protocol=pickle.HIGHEST_PROTOCOL))


def _write(path: Path, data: bytes) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    partial = path.with_name(f"{path.name}.{os.getpid()}")
    partial.write_bytes(data)
    partial.replace(path)  # whole, even with another build writing at the same time


def setup(app):
    app.connect("builder-inited", restore)
    app.connect("build-finished", store)
    app.connect("builder-inited", keep_highlighting)
    app.connect("build-finished", store_highlighting)
    return {"version": "1", "parallel_read_safe": True, "parallel_write_safe": True}
