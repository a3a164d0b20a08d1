"""Sphinx configuration of the dpsym documentation (Sphinx + myst-nb, which brings myst-parser).

Build (the README's command): ``pip install '.[docs]' && python -m sphinx -W -b html docs
docs/_build/html``. The pages under ``_generated/`` are written at build time by the local
extension ``_ext/dpsym_pages.py``. The executed notebooks are cached (jupyter-cache, in
``docs/_build/.jupyter_cache``): a notebook runs again only when its code or the code of
dpsym changes (:func:`dpsym_pages.source_fingerprint`). Beside that cache, ``_ext/dpsym_pycode.py``
keeps Sphinx's analysis and highlighting of each module's source for the next build, keyed
by the source: a build that changes nothing else shows the same pages. Two more local
extensions do Sphinx's work faster with the same result, for the first build too:
``dpsym_xref`` (the Python domain's look-up of a reference by the end of its name) and
``dpsym_search`` (the search index's stems).
"""

from __future__ import annotations

import importlib.util
import logging
import os
import runpy
import shutil
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
# nbformat (myst-nb's, jupytext's) imports jsonschema, which, when the package rfc3987-syntax
# is installed, compiles its 39 grammars at import (~2.7 CPU-s) for the "iri" format checks;
# nbformat validates notebooks without a format checker, so nothing here uses them. The
# package is left unimported (the checks are then absent, as without it), unless some
# other tool imported it already.
sys.modules.setdefault("rfc3987_syntax", None)  # type: ignore[arg-type]
sys.path.insert(0, str(HERE / "_ext"))
sys.path.insert(0, str(HERE.parent))

project = "dpsym"
author = "dpsym authors"
copyright = "dpsym authors"
# the version from its own file, without importing the package (all of its modules: the
# documented ones are autodoc's and the local extensions' to import; the small sites of
# tests/test_docs.py and docs/notebook_html.py read this configuration and document none)
release = version = runpy.run_path(str(HERE.parent / "dpsym" / "_version.py"))["__version__"]

root_doc = "index"
extensions = [
    "myst_nb",  # myst-parser's Markdown, and notebooks executed into the pages
    "sphinx.ext.autodoc",
    "sphinx.ext.napoleon",
    "sphinx.ext.mathjax",
    "sphinx.ext.viewcode",
    "sphinx_copybutton",
    "dpsym_pages",
    "dpsym_pycode",  # Sphinx's analysis of each module's source, kept between builds
    "dpsym_nav",  # the navigation sidebar from the documents' titles alone
    "dpsym_xref",  # the Python domain's fuzzy look-up of references through an index
    "dpsym_search",  # the search index's stemming, each word stemmed once
]
source_suffix = {".md": "myst-nb", ".ipynb": "myst-nb", ".rst": "restructuredtext"}
exclude_patterns = ["_build", "_build/**", "node_modules", "build", "Thumbs.db", ".DS_Store",
                    "_ext", "_generated/include/**"]  # fragments, included by claims/notebooks/cli
templates_path: list[str] = []

# --- myst
myst_enable_extensions = ["dollarmath", "amsmath"]
# a $$...$$ display written inside a paragraph (no blank line around it) is a display too
myst_dmath_double_inline = True
myst_heading_anchors = 3

# --- autodoc / napoleon (numpydoc style)
napoleon_google_docstring = False
napoleon_numpy_docstring = True
napoleon_use_rtype = False
# "number" in a numpydoc type means any real number, not an attribute of that name
napoleon_preprocess_types = True
napoleon_type_aliases = {"number": "numbers.Real"}
autodoc_member_order = "bysource"
autodoc_typehints = "description"
# dpsym annotates in the signatures, never in "# type:" comments: autodoc need not read each
# function's source again to look for them (a twentieth of the build)
autodoc_use_type_comments = False
# members are listed by each directive (``:members:``): Sphinx 9 ignores a directive's own
# list of members when members are a default option
autodoc_default_options = {"show-inheritance": True}
# the page's table of contents names a method ``value()``, not ``Mechanism.value()``
toc_object_entries_show_parents = "hide"

suppress_warnings: list[str] = []

# --- notebooks (myst-nb): every notebook is executed in a temporary directory, and a cell
# that raises fails the build (its claims' assertions included). Outputs are cached by
# jupyter-cache, keyed by the notebook's code and a fingerprint of dpsym's code and of the
# libraries it computes with (written into the notebook's kernelspec by dpsym_pages): an
# unchanged notebook is not run again, a change of the engine runs every notebook again.
# One cache for every output directory (the README's build and the test's share it).
nb_execution_mode = "cache"
nb_execution_cache_path = str(HERE / "_build" / ".jupyter_cache")
nb_execution_timeout = 900
nb_execution_raise_on_error = True
nb_execution_show_tb = True
nb_execution_in_temp = True
nb_merge_streams = True

# The kernels read their configuration from an IPython directory of the build: their
# log is quiet (ipykernel warns at every start that its local TCP sockets are not
# encrypted), their history in memory.
_IPYTHONDIR = HERE / "_build" / ".ipython"
(_IPYTHONDIR / "profile_default").mkdir(parents=True, exist_ok=True)
(_IPYTHONDIR / "profile_default" / "ipython_kernel_config.py").write_text(
    "c.IPKernelApp.log_level = 'ERROR'\nc.HistoryManager.enabled = False\n", encoding="utf-8")
os.environ["IPYTHONDIR"] = str(_IPYTHONDIR)
# The kernels are forked from one process of the build that imported, at the first kernel,
# what each of them imports (IPython, ipykernel, matplotlib, sympy, dpsym, ...): a fresh
# process for each notebook, without the ~2 CPU-s of imports each (``_ext/forked_kernels.py``;
# the plain ``python3`` kernel where there is no fork). A kernel starts in 0.13 CPU-s
# instead of 0.9 before the notebook's imports; a cold build, kernels included, two builds
# side by side on a busy 2-core machine: 224 -> 178 CPU-s, the same pages.
extensions.append("forked_kernels")


class _NoConfigDump(logging.Filter):
    """Drop the one-line dumps of myst-parser's and myst-nb's whole configuration."""

    def filter(self, record: logging.LogRecord) -> bool:
        args = record.args if isinstance(record.args, tuple) else ()
        return not any(type(a).__name__ in ("MdParserConfig", "NbParserConfig")
                       for a in args)


for _name in ("sphinx.myst_parser.sphinx_ext.main", "sphinx.myst_nb.sphinx_ext"):
    logging.getLogger(_name).addFilter(_NoConfigDump())

# --- MathJax 2.7: a pinned local copy, copied into the site's _static/mathjax, so an
# offline build renders its formulas. Two copies serve, the first one installed:
#
# * ``npm``: MathJax 2.7.9 from the npm registry (``docs/package.json``; ``npm ci --prefix
#   docs`` installs it in docs/node_modules), whose CommonHTML output and TeX fonts typeset
#   the site's pages about twice as fast as the HTML-CSS output (the check of every page
#   in headless Chromium, tests/test_docs.py, two browsers on 2 cores: 122 s -> 67 s);
# * ``jupyter-server-mathjax``: the PyPI package (a dependency of the ``docs`` extra),
#   which carries the HTML-CSS output and only the STIX-Web fonts (not MathJax's default
#   TeX fonts: a formula that needs one of those fails with "[Math Processing Error]"),
#   so the HTML-CSS output is told to use them, and nothing else.
#
# The environment variable DPSYM_DOCS_MATHJAX names one of them to use it. Without either,
# the default CDN copy. Long formulas are broken across lines at the width of the page.
# The CommonHTML output shows all of a page's formulas at once when all are typeset, not in
# chunks of 100, 150, 225, ... with a pause after each (every chunk shown laid the whole
# page out again: the check of every page spends a tenth less); the typeset page is the same.
MATHJAX_COPIES = {
    "npm": (HERE / "node_modules" / "mathjax", "TeX-AMS_CHTML-full",
            {"CommonHTML": {"linebreaks": {"automatic": True}, "EqnChunk": 100000}}),
    "jupyter-server-mathjax": (
        (Path(next(iter(_spec.submodule_search_locations))) / "static"
         if (_spec := importlib.util.find_spec("jupyter_server_mathjax")) is not None
         else None),
        "TeX-AMS-MML_HTMLorMML-full",
        {"HTML-CSS": {"availableFonts": [], "preferredFont": None, "webFont": "STIX-Web",
                      "imageFont": None, "linebreaks": {"automatic": True}}}),
}
_wanted = os.environ.get("DPSYM_DOCS_MATHJAX")
if _wanted is not None and _wanted not in MATHJAX_COPIES:
    raise ValueError(f"DPSYM_DOCS_MATHJAX: {_wanted!r} is none of {sorted(MATHJAX_COPIES)}")
#: The MathJax copy the site uses: (name, directory, combined configuration file), or None.
MATHJAX = next(((name, static, config_file)
                for name, (static, config_file, _) in MATHJAX_COPIES.items()
                if (_wanted is None or name == _wanted)
                and static is not None and (static / "MathJax.js").is_file()), None)
#: The parts of a copy the site does not load (other outputs, fonts and formats).
MATHJAX_UNUSED = shutil.ignore_patterns(
    "__pycache__", "*.py", "unpacked", "test", "docs", "*.md", "latest.js", "package.json",
    "Asana-Math", "Gyre-Pagella", "Gyre-Termes", "Latin-Modern", "Neo-Euler", "eot", "otf",
    "svg", "png", "NativeMML", "PlainSource", "PreviewHTML", "SVG")
html_static_path = ["_static"]
html_css_files = ["dpsym.css"]
MATHJAX2_CONFIG = {
    "tex2jax": {"inlineMath": [["\\(", "\\)"]], "displayMath": [["\\[", "\\]"]],
                "processEscapes": True, "ignoreClass": "document",
                "processClass": "math|output_area"},
    **(MATHJAX_COPIES[MATHJAX[0]][2] if MATHJAX is not None else {}),
    "showMathMenu": False,
    "messageStyle": "none",
    # no quick preview typeset first and then replaced: each formula is typeset once
    # (the check of every page in a browser takes half the time)
    "fast-preview": {"disabled": True},
    # no pause every 250 ms to let the browser draw the page half typeset
    "processUpdateTime": 100000,
}
if MATHJAX is not None:
    #: The copy's directory (``docs/notebook_html.py`` copies it beside a page).
    MATHJAX_STATIC = MATHJAX[1]
    #: The script a page loads, relative to the copy's directory.
    MATHJAX_SCRIPT = f"MathJax.js?config={MATHJAX[2]}"
    mathjax_path = f"mathjax/{MATHJAX_SCRIPT}"
    mathjax2_config = MATHJAX2_CONFIG


def _copy_mathjax(app, exception) -> None:
    """``build-finished``: copy the local MathJax into ``_static/mathjax``."""
    if exception is None and app.builder.format == "html" and "mathjax_path" in globals():
        shutil.copytree(MATHJAX_STATIC, Path(app.outdir) / "_static" / "mathjax",
                        dirs_exist_ok=True, ignore=MATHJAX_UNUSED)


def setup(app) -> None:
    app.connect("build-finished", _copy_mathjax)
    # MathJax on every page: the navigation shows titles with formulas on pages without any
    app.set_html_assets_policy("always")
    # The theme's FontAwesome (a deferred script: it reads this configuration when it runs,
    # after the page is parsed) replaces each icon of the page by its SVG once, at load.
    # It would also watch every change of the page for icons added later, and MathJax
    # changes the page for each formula it typesets: a tenth of the check of every page in
    # a browser. The theme adds icons later only to a version-switcher or announcement
    # banner, which this site has not: every icon is in the page at load. It replaces them
    # at once ("sync"), not in the page's next animation frame: the same icons, in the page
    # before it is first drawn, and in a page never drawn (the check of every page in a
    # hidden tab, tests/browser.py).
    app.add_js_file(None, body="window.FontAwesomeConfig = "
                               '{observeMutations: false, mutateApproach: "sync"};')


# --- the theme: sphinx-book-theme (Jupyter Book's), for executed notebooks and long
# formulas: the content takes the width of the window (docs/_static/dpsym.css), each page
# has its table of contents on the right, code blocks a copy button (sphinx-copybutton),
# and a notebook's plumbing cells (tag ``hide-input``) are folded under "Show code cell
# source".
html_theme = "sphinx_book_theme"
html_title = "dpsym"
html_theme_options = {
    "home_page_in_toc": True,
    "show_toc_level": 2,
    "use_download_button": False,
    "use_fullscreen_button": False,
    "navigation_with_keys": False,
}
html_show_sourcelink = False
# the highlighted source of each module (sphinx.ext.viewcode, about a hundred pages) has no
# navigation sidebar: its links lead back to the documented objects ("[docs]"), and the
# site's navigation, rendered for each of those pages, took a third of the build
html_sidebars = {"_modules/**": []}

# the prompts of console examples ("$ ") and Python's (">>> ", "... ") are not copied
copybutton_prompt_text = r"\$ |>>> |\.\.\. "
copybutton_prompt_is_regexp = True
copybutton_only_copy_prompt_lines = False
