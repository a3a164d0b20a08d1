"""Sphinx configuration of the dpsym documentation (Sphinx + myst-parser).

Build: ``sphinx-build -W -b html docs docs/_build/html``. The pages under ``_generated/``
are written at build time by the local extension ``_ext/dpsym_pages.py``.
"""

from __future__ import annotations

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
    "myst_parser",
    "sphinx.ext.autodoc",
    "sphinx.ext.napoleon",
    "sphinx.ext.mathjax",
    "sphinx.ext.viewcode",
    "dpsym_pages",
]
source_suffix = {".md": "markdown", ".rst": "restructuredtext"}
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

# --- MathJax: a local copy when one is installed (no CDN needed), else the default CDN.
# tests/test_docs.py renders a page in headless Chromium only when a local copy is used.
_LOCAL_MATHJAX = [
    (Path("/usr/share/nodejs/mathjax-full/es5/tex-chtml.js"), ""),  # node-mathjax-full (v3)
    (Path("/usr/share/javascript/mathjax/MathJax.js"),               # libjs-mathjax (v2)
     "?config=TeX-AMS-MML_HTMLorMML"),
]
html_static_path: list[str] = []
for _path, _query in _LOCAL_MATHJAX:
    if _path.exists():
        mathjax_path = _path.as_uri() + _query
        break

html_theme = "alabaster"
html_title = "dpsym"
