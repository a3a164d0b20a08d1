"""Sphinx configuration of the dpsym documentation (Sphinx + myst-nb, which brings myst-parser).

Build: ``sphinx-build -W -b html docs docs/_build/html``. The pages under ``_generated/``
are written at build time by the local extension ``_ext/dpsym_pages.py``.
"""

from __future__ import annotations

import importlib.util
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
    "dpsym_pages",
]
source_suffix = {".md": "myst-nb", ".ipynb": "myst-nb", ".rst": "restructuredtext"}
exclude_patterns = ["_build", "_build/**", "build", "Thumbs.db", ".DS_Store", "_ext",
                    "_generated/include/**"]  # fragments, included by claims/notebooks/cli
templates_path: list[str] = []

# --- myst
myst_enable_extensions = ["dollarmath", "amsmath"]
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
autodoc_default_options = {"members": True, "show-inheritance": True}

suppress_warnings: list[str] = []

# --- notebooks (myst-nb): every notebook is executed at each build, in a temporary
# directory, and a cell that raises fails the build (its claims' assertions included)
nb_execution_mode = "force"
nb_execution_timeout = 900
nb_execution_raise_on_error = True
nb_execution_show_tb = True
nb_execution_in_temp = True
nb_merge_streams = True

# --- MathJax: a pinned local copy (the PyPI package jupyter-server-mathjax, MathJax 2.7)
# copied into the site's _static/mathjax (its web fonts included), so an offline build
# renders its formulas. Without the package, the default CDN copy.
_MATHJAX_SPEC = importlib.util.find_spec("jupyter_server_mathjax")
MATHJAX_STATIC = (Path(next(iter(_MATHJAX_SPEC.submodule_search_locations))) / "static"
                  if _MATHJAX_SPEC is not None else None)
html_static_path: list[str] = []
if MATHJAX_STATIC is not None and (MATHJAX_STATIC / "MathJax.js").is_file():
    mathjax_path = "mathjax/MathJax.js?config=TeX-AMS-MML_HTMLorMML-full"
    mathjax2_config = {
        "tex2jax": {"inlineMath": [["\\(", "\\)"]], "displayMath": [["\\[", "\\]"]],
                    "processEscapes": True, "ignoreClass": "document",
                    "processClass": "math|output_area"},
        "showMathMenu": False,
        "messageStyle": "none",
    }


def _copy_mathjax(app, exception) -> None:
    """``build-finished``: copy the local MathJax into ``_static/mathjax``."""
    if exception is None and app.builder.format == "html" and "mathjax_path" in globals():
        shutil.copytree(MATHJAX_STATIC, Path(app.outdir) / "_static" / "mathjax",
                        dirs_exist_ok=True,
                        ignore=shutil.ignore_patterns("__pycache__", "*.py"))


def setup(app) -> None:
    app.connect("build-finished", _copy_mathjax)


html_theme = "alabaster"
html_title = "dpsym"
