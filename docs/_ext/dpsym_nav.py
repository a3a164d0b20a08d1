"""Sphinx extension: the site's navigation sidebar resolved from the documents' titles.

The theme's sidebar (``sbt-sidebar-nav.html``) asks Sphinx on every page for the global
table of contents with ``titles_only=True``. Sphinx resolves it from the whole table of
contents of each document (``env.tocs``: every section and, on the API pages, every
documented object): it copies all of them for each page, and only then cuts each one down
to its title and its sub-``toctree``s. Those copies were a fifth of the build.

Once the documents are read (``env-updated``), this extension cuts each document's table of
contents down the same way, once, and the sidebar of every page is resolved from those
(``html-page-context``, before the theme renders its sidebar): the same tree, so the same
HTML. A table of contents holding an ``only`` node (which Sphinx resolves against the
build's tags while it copies) is left whole. The page's own table of contents (on the
right) still comes from the whole one.
"""

from __future__ import annotations

from contextlib import contextmanager
from typing import Any

from docutils import nodes
from sphinx import addnodes


def titles_only(toc: nodes.Element) -> nodes.Element:
    """A copy of ``toc`` cut as Sphinx cuts it for ``titles_only``: each top-level entry
    keeps its title and, in place of its sub-entries, the ``toctree`` nodes among them."""
    cut = toc.deepcopy()
    for top_level in cut.children:
        if len(top_level) > 1:
            if subtrees := list(top_level.findall(addnodes.toctree)):
                top_level[1][:] = subtrees
            else:
                top_level.pop(1)
    return cut


def cut_tocs(app, env) -> list[str]:
    """``env-updated``: the titles-only table of contents of each document."""
    app.builder.dpsym_title_tocs = {
        docname: toc if any(toc.findall(addnodes.only)) else titles_only(toc)
        for docname, toc in env.tocs.items()}
    return []


@contextmanager
def _title_tocs(env, tocs):
    whole = env.tocs
    env.tocs = tocs
    try:
        yield
    finally:
        env.tocs = whole


def wrap_toctree(app, pagename: str, templatename: str, context: dict[str, Any],
                 doctree) -> None:
    """``html-page-context``: resolve the page's ``toctree(titles_only=True)`` from the
    titles-only tables of contents."""
    toctree = context.get("toctree")
    env = app.builder.env
    tocs = getattr(app.builder, "dpsym_title_tocs", None)
    if toctree is None or tocs is None:
        return

    def resolve(**kwargs: Any) -> str:
        if not kwargs.get("titles_only"):
            return toctree(**kwargs)
        with _title_tocs(env, tocs):
            return toctree(**kwargs)

    context["toctree"] = resolve


def setup(app):
    app.connect("env-updated", cut_tocs)
    # before the theme's handlers (priority 500), which render the sidebar
    app.connect("html-page-context", wrap_toctree, priority=400)
    return {"version": "1", "parallel_read_safe": True, "parallel_write_safe": True}
