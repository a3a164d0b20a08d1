"""Sphinx configuration of the dpsym documentation (Sphinx + myst-nb, which brings myst-parser).

Build (the README's command): ``pip install '.[docs]' && python -m sphinx -W -b html docs
docs/_build/html``. The pages under ``_generated/`` are written at build time by the local
extension ``_ext/dpsym_pages.py``. The executed notebooks are cached (jupyter-cache, in
``docs/_build/.jupyter_cache``): a notebook runs again only when its code or the code of
dpsym changes (:func:`dpsym_pages.source_fingerprint`).
"""

from __future__ import annotations

import importlib.util
import logging
import os
import shutil
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE / "_ext"))
sys.path.insert(0, str(HERE.parent))

import dpsym  # noqa: E402

project = "dpsym"
author = "dpsym authors"
copyright = "dpsym authors"
release = version = getattr(dpsym, "__version__", "")

root_doc = "index"
extensions = [
    "myst_nb",  # myst-parser's Markdown, and notebooks executed into the pages
    "sphinx.ext.autodoc",
    "sphinx.ext.napoleon",
    "sphinx.ext.mathjax",
    "sphinx.ext.viewcode",
    "sphinx_copybutton",
    "dpsym_pages",
]
source_suffix = {".md": "myst-nb", ".ipynb": "myst-nb", ".rst": "restructuredtext"}
exclude_patterns = ["_build", "_build/**", "build", "Thumbs.db", ".DS_Store", "_ext",
                    "_generated/include/**"]  # fragments, included by claims/notebooks/cli
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


class _NoConfigDump(logging.Filter):
    """Drop the one-line dumps of myst-parser's and myst-nb's whole configuration."""

    def filter(self, record: logging.LogRecord) -> bool:
        args = record.args if isinstance(record.args, tuple) else ()
        return not any(type(a).__name__ in ("MdParserConfig", "NbParserConfig")
                       for a in args)


for _name in ("sphinx.myst_parser.sphinx_ext.main", "sphinx.myst_nb.sphinx_ext"):
    logging.getLogger(_name).addFilter(_NoConfigDump())

# --- MathJax: a pinned local copy (the PyPI package jupyter-server-mathjax, MathJax 2.7)
# copied into the site's _static/mathjax, so an offline build renders its formulas.
# Without the package, the default CDN copy. The copy carries only the STIX-Web fonts (not
# MathJax's default TeX fonts: a formula that needs one of those fails with "[Math
# Processing Error]"), so the HTML-CSS output is told to use them, and nothing else; long
# formulas are broken across lines at the width of the page.
_MATHJAX_SPEC = importlib.util.find_spec("jupyter_server_mathjax")
MATHJAX_STATIC = (Path(next(iter(_MATHJAX_SPEC.submodule_search_locations))) / "static"
                  if _MATHJAX_SPEC is not None else None)
html_static_path = ["_static"]
html_css_files = ["dpsym.css"]
MATHJAX2_CONFIG = {
    "tex2jax": {"inlineMath": [["\\(", "\\)"]], "displayMath": [["\\[", "\\]"]],
                "processEscapes": True, "ignoreClass": "document",
                "processClass": "math|output_area"},
    "HTML-CSS": {"availableFonts": [], "preferredFont": None, "webFont": "STIX-Web",
                 "imageFont": None, "linebreaks": {"automatic": True}},
    "showMathMenu": False,
    "messageStyle": "none",
    # no quick preview typeset first and then replaced: each formula is typeset once
    # (the check of every page in a browser takes half the time)
    "fast-preview": {"disabled": True},
}
if MATHJAX_STATIC is not None and (MATHJAX_STATIC / "MathJax.js").is_file():
    mathjax_path = "mathjax/MathJax.js?config=TeX-AMS-MML_HTMLorMML-full"
    mathjax2_config = MATHJAX2_CONFIG


def _copy_mathjax(app, exception) -> None:
    """``build-finished``: copy the local MathJax into ``_static/mathjax``."""
    if exception is None and app.builder.format == "html" and "mathjax_path" in globals():
        shutil.copytree(MATHJAX_STATIC, Path(app.outdir) / "_static" / "mathjax",
                        dirs_exist_ok=True,
                        ignore=shutil.ignore_patterns("__pycache__", "*.py"))


def setup(app) -> None:
    app.connect("build-finished", _copy_mathjax)
    # MathJax on every page: the navigation shows titles with formulas on pages without any
    app.set_html_assets_policy("always")


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
