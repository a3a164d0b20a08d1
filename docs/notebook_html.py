"""One notebook as a standalone HTML page that renders offline.

Usage (after ``pip install '.[notebooks]'``)::

    python docs/notebook_html.py notebooks/laplace.py               # -> notebook-html/laplace.html
    python docs/notebook_html.py notebooks/laplace.py -o /tmp/pages  # another directory
    python docs/notebook_html.py executed.ipynb --no-execute         # an executed notebook

A jupytext script (``notebooks/*.py``) or an ``.ipynb`` is executed (nbclient, working
directory ``notebooks/`` as for ``python notebooks/laplace.py``) and converted by nbconvert's
``lab`` template, figures embedded. ``jupyter nbconvert --to html`` alone loads MathJax from a
CDN, so offline its formulas stay raw ``$...$``: here MathJax is the pinned local copy of the
documentation site (``docs/conf.py``: MathJax 2.7.9 from ``npm ci --prefix docs``, else the
``jupyter-server-mathjax`` package), copied next to the page (``<out>/mathjax``), with the
site's MathJax configuration (the copy's output and fonts, line breaking), so the page
renders with no network. ``jupyter lab notebooks/`` is the interactive alternative
(JupyterLab bundles its own MathJax).
"""

from __future__ import annotations

import argparse
import json
import runpy
import shutil
import sys
from collections.abc import Callable
from pathlib import Path

HERE = Path(__file__).resolve().parent
NOTEBOOKS = HERE.parent / "notebooks"

#: The ``lab`` template, with MathJax loaded from ``resources.mathjax_url`` and configured
#: as on the documentation site (``$...$`` and ``$$...$$`` delimiters: the cells' Markdown),
#: and without require.js (a CDN script, only for interactive widgets).
TEMPLATE = """{%- extends 'lab/index.html.j2' -%}
{%- block html_head_js_requirejs -%}{%- endblock html_head_js_requirejs -%}
{%- block html_head_js_mathjax -%}
<script type="text/x-mathjax-config">MathJax.Hub.Config(CONFIG);</script>
<script src="{{ resources.mathjax_url }}"></script>
{%- endblock html_head_js_mathjax -%}
"""


def site_mathjax() -> tuple[Path, str, dict, Callable]:
    """The local MathJax directory, the script a page loads (relative to it), the site's
    MathJax 2 configuration and the parts of the directory a page does not load (an
    ``ignore`` of :func:`shutil.copytree`), as ``docs/conf.py`` has them."""
    conf = runpy.run_path(str(HERE / "conf.py"))
    if conf["MATHJAX"] is None:
        raise SystemExit("notebook_html: no local MathJax (npm ci --prefix docs, or "
                         "pip install 'jupyter-server-mathjax==0.2.6')")
    config = json.loads(json.dumps(conf["MATHJAX2_CONFIG"]))
    config["tex2jax"] = {"inlineMath": [["$", "$"], ["\\(", "\\)"]],
                         "displayMath": [["$$", "$$"], ["\\[", "\\]"]],
                         "processEscapes": True, "processEnvironments": True}
    return conf["MATHJAX_STATIC"], conf["MATHJAX_SCRIPT"], config, conf["MATHJAX_UNUSED"]


def read_notebook(path: Path):
    """The notebook at ``path``: a jupytext percent script or an ``.ipynb``."""
    import jupytext

    return jupytext.read(path)


def execute(notebook, cwd: Path) -> None:
    from nbclient import NotebookClient

    notebook.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3",
                                       "language": "python"}
    NotebookClient(notebook, timeout=900, kernel_name="python3",
                   resources={"metadata": {"path": str(cwd)}}).execute()


def to_html(notebook, out: Path, name: str, static: Path, script: str, config: dict,
            unused: Callable) -> Path:
    """Write ``<out>/<name>.html`` and the local MathJax ``static`` beside it
    (``<out>/mathjax``, without its ``unused`` parts; the page loads its ``script``),
    configured by ``config``."""
    import jinja2
    from nbconvert import HTMLExporter

    template = TEMPLATE.replace("CONFIG", json.dumps(config))
    exporter = HTMLExporter(template_name="lab", template_file="dpsym_offline.html.j2",
                            extra_loaders=[jinja2.DictLoader({"dpsym_offline.html.j2": template})])
    exporter.mathjax_url = f"mathjax/{script}"
    body, _ = exporter.from_notebook_node(notebook)
    out.mkdir(parents=True, exist_ok=True)
    if not (out / "mathjax" / "MathJax.js").is_file():
        shutil.copytree(static, out / "mathjax", dirs_exist_ok=True, ignore=unused)
    page = out / f"{name}.html"
    page.write_text(body, encoding="utf-8")
    return page


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("notebook", type=Path, help="a notebooks/*.py script or an .ipynb")
    parser.add_argument("-o", "--out", type=Path, default=Path("notebook-html"),
                        help="output directory (default: ./notebook-html)")
    parser.add_argument("--no-execute", action="store_true",
                        help="convert as it is (an .ipynb executed already)")
    args = parser.parse_args(argv)
    # reads docs/conf.py, which also quiets the kernel's log
    static, script, config, unused = site_mathjax()
    notebook = read_notebook(args.notebook)
    if not args.no_execute:
        execute(notebook, NOTEBOOKS if args.notebook.suffix == ".py" else args.notebook.parent)
    page = to_html(notebook, args.out, args.notebook.stem, static, script, config, unused)
    print(page)
    return 0


if __name__ == "__main__":
    sys.exit(main())
