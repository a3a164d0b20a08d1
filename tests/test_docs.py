"""The documentation site (Sphinx + myst-parser, ``docs/``) builds with warnings as errors.

The build runs ``python -m sphinx -W -b html docs <tmp>`` in a subprocess (about 15 s); the
generated pages (``docs/_generated/``, gitignored) are written by ``docs/_ext/dpsym_pages.py``.
When Chromium and a local MathJax are available, a page with formulas is rendered headless
and the typeset math is looked for in the DOM.
"""

from __future__ import annotations

import importlib.util
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
DOCS = ROOT / "docs"

pytestmark = pytest.mark.skipif(
    importlib.util.find_spec("sphinx") is None or importlib.util.find_spec("myst_parser") is None,
    reason="sphinx and myst-parser are not installed (pip install -r docs/requirements.txt)",
)


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("docs") / "html"
    proc = subprocess.run(
        [sys.executable, "-m", "sphinx", "-W", "--keep-going", "-q", "-b", "html",
         str(DOCS), str(out)],
        cwd=ROOT, capture_output=True, text=True, timeout=600,
    )
    assert proc.returncode == 0, f"sphinx-build -W failed:\n{proc.stdout}\n{proc.stderr}"
    return out


def test_site_builds_without_warnings(site: Path) -> None:
    for page in ("index.html", "mechanisms.html", "claims.html", "notebooks.html",
                 "cli.html", "api.html", "errata.html"):
        assert (site / page).is_file(), page
    index = (site / "index.html").read_text(encoding="utf-8")
    for page in ("mechanisms.html", "claims.html", "api.html", "errata.html"):
        assert f'href="{page}' in index, page


def test_mechanism_pages(site: Path) -> None:
    from dpsym.bounds import BOUNDS
    from dpsym.mechanisms import MECHANISMS

    for name in (*MECHANISMS, *BOUNDS):
        assert (site / "_generated" / "mechanisms" / f"{name}.html").is_file(), name
    page = (site / "_generated" / "mechanisms" / "staircase.html").read_text(encoding="utf-8")
    assert "Staircase mechanism" in page
    assert r"\frac{\Delta \sqrt{b}}{b - 1}" in page   # the closed form, amplitude
    discrete = (site / "_generated" / "mechanisms" / "discrete-staircase.html").read_text(
        encoding="utf-8")
    assert "computed numerically" in discrete


def test_claims_page(site: Path) -> None:
    from dpsym.claims import CLAIMS

    page = (site / "claims.html").read_text(encoding="utf-8")
    for claim in CLAIMS:
        assert claim.id in page, claim.id
    errata = (site / "errata.html").read_text(encoding="utf-8")
    for anchor in {c.errata.split("#")[1] for c in CLAIMS if c.errata}:
        assert f'href="errata.html#{anchor}"' in page, anchor
        assert f'id="{anchor}"' in errata, anchor


def test_notebooks_and_cli_pages(site: Path) -> None:
    notebooks = (site / "notebooks.html").read_text(encoding="utf-8")
    for path in sorted((ROOT / "notebooks").glob("*.py")):
        assert f"_generated/notebooks/{path.stem}.html" in notebooks, path.name
    cli = (site / "cli.html").read_text(encoding="utf-8")
    assert "usage: dpsym" in cli
    assert "dpsym formula MECHANISM" in cli


def _mathjax_src(page: str) -> str | None:
    match = re.search(r'<script[^>]+src="([^"]*(?:mathjax|MathJax)[^"]*)"', page)
    return match.group(1) if match else None


def test_math_renders_in_chromium(site: Path) -> None:
    browser = shutil.which("chromium") or shutil.which("chromium-browser")
    if browser is None:
        pytest.skip("no chromium or chromium-browser on PATH")
    page = site / "_generated" / "mechanisms" / "staircase.html"
    src = _mathjax_src(page.read_text(encoding="utf-8"))
    if src is None or not src.startswith("file:"):
        pytest.skip(f"MathJax is loaded from {src!r}, not a local copy (no internet here; "
                    "install Debian's node-mathjax-full or libjs-mathjax for a local one)")
    proc = subprocess.run(
        [browser, "--headless", "--disable-gpu", "--no-sandbox",
         "--allow-file-access-from-files", "--virtual-time-budget=10000", "--dump-dom",
         page.as_uri()],
        capture_output=True, text=True, timeout=120,
    )
    dom = proc.stdout
    assert "<html" in dom, proc.stderr[-2000:]
    assert "mjx-container" in dom or "MathJax_CHTML" in dom or "MathJax_SVG" in dom, \
        "MathJax did not typeset the page"


def test_bibliography_lists_every_source(site: Path) -> None:
    """Every source text named by a claim or a mechanism has a section in the
    bibliography (by its three-digit id)."""
    from dpsym.claims import CLAIMS
    from dpsym.mechanisms import MECHANISMS

    text = (DOCS / "bibliography.md").read_text(encoding="utf-8")
    ids = {c.source[:3] for c in CLAIMS}
    ids |= {m for cls in MECHANISMS.values() for m in re.findall(r"\b(00[0-9])\b", cls.source)}
    assert ids
    for source in sorted(ids):
        assert f"## `{source}`" in text, source
    assert (site / "bibliography.html").is_file()
    assert 'href="bibliography.html"' in (site / "index.html").read_text(encoding="utf-8")


def test_index_lists_every_mechanism_and_links_the_cli_reference(site: Path) -> None:
    """The front page's mechanism table is generated from the registry (never stale)."""
    from dpsym.bounds import BOUNDS
    from dpsym.mechanisms import MECHANISMS

    index = (site / "index.html").read_text(encoding="utf-8")
    for name in (*MECHANISMS, *BOUNDS):
        assert f'href="_generated/mechanisms/{name}.html"' in index, name
    assert 'href="cli.html"' in index


def test_figures_page_shows_every_figure_of_the_main_job(site: Path) -> None:
    from dpsym.derive import FIGURE_FILES

    page = (site / "figures.html").read_text(encoding="utf-8")
    for name in FIGURE_FILES:
        if name.endswith(".png"):
            assert re.search(rf'<img [^>]*src="_images/{re.escape(name)}"', page), name
            assert (site / "_images" / name).is_file(), name
