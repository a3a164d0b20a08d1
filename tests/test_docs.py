"""The documentation site (Sphinx + myst-parser, ``docs/``) builds with warnings as errors.

The build runs ``python -m sphinx -W -b html docs <tmp>`` in a subprocess (about 15 s); the
generated pages (``docs/_generated/``, gitignored) are written by ``docs/_ext/dpsym_pages.py``.
Every notebook is executed into its page (myst-nb). MathJax is a pinned local copy in the
site's ``_static``; with Chromium on PATH (``.ci/run`` installs it; CI fails without it),
every page with formulas is rendered headless, offline, and each formula must be typeset.
"""

from __future__ import annotations

import importlib.util
import os
import re
import shutil
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
DOCS = ROOT / "docs"

pytestmark = pytest.mark.skipif(
    any(importlib.util.find_spec(name) is None for name in ("sphinx", "myst_nb", "jupytext")),
    reason="the docs tools are not installed (pip install '.[docs]')",
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


def _pages_with_math(site: Path) -> list[Path]:
    return sorted(path for path in site.rglob("*.html")
                  if "_static" not in path.parts and 'class="math' in
                  path.read_text(encoding="utf-8"))


def test_mathjax_is_served_from_the_site(site: Path) -> None:
    """Every page with formulas loads MathJax from the site's own ``_static`` (a pinned
    local copy, no CDN): an offline build renders."""
    pages = _pages_with_math(site)
    assert len(pages) >= 20, pages
    for page in pages:
        src = _mathjax_src(page.read_text(encoding="utf-8"))
        assert src is not None, page
        assert "://" not in src and "_static/mathjax/MathJax.js" in src, (page, src)
        assert (page.parent / src.split("?")[0]).resolve().is_file(), (page, src)


def _browser() -> str | None:
    browser = shutil.which("chromium") or shutil.which("chromium-browser")
    if browser is None and os.environ.get("CI"):
        pytest.fail("CI must have chromium (.ci/run installs it)")
    return browser


def _rendered_dom(browser: str, page: Path) -> str:
    proc = subprocess.run(
        [browser, "--headless", "--disable-gpu", "--no-sandbox",
         "--allow-file-access-from-files", "--virtual-time-budget=20000", "--dump-dom",
         page.as_uri()],
        capture_output=True, text=True, timeout=180,
    )
    assert "<html" in proc.stdout, proc.stderr[-2000:]
    return proc.stdout


def _raw_tex_left(dom: str) -> list[str]:
    """TeX delimiters still in the text of the page's body (outside the
    ``<script type="math/tex">`` elements MathJax moves the source into, code blocks and
    attribute values)."""
    text = dom[dom.find("<body"):]
    text = re.sub(r"<script\b.*?</script>", "", text, flags=re.S)
    text = re.sub(r"<(pre|code)\b.*?</\1>", "", text, flags=re.S)
    text = re.sub(r"<[^>]*>", "", text)
    return re.findall(r"\\[(\[].{0,40}", text)


def test_math_is_typeset_in_chromium_on_every_page(site: Path) -> None:
    r"""Headless Chromium, offline (file:// pages): on every page with formulas MathJax
    typesets each one (one rendered frame per formula, no raw ``\(`` or ``\[`` left)."""
    browser = _browser()
    if browser is None:
        pytest.skip("no chromium or chromium-browser on PATH")
    pages = _pages_with_math(site)
    with ThreadPoolExecutor(2) as pool:
        doms = dict(zip(pages, pool.map(lambda p: _rendered_dom(browser, p), pages),
                        strict=True))
    for page, dom in doms.items():
        frames = len(re.findall(r'id="MathJax-Element-\d+-Frame"', dom))
        sources = len(re.findall(r'<script type="math/tex', dom))
        assert frames > 0 and frames == sources, (page, frames, sources)
        assert not _raw_tex_left(dom), (page, _raw_tex_left(dom)[:3])


def test_notebooks_are_rendered_with_their_outputs(site: Path) -> None:
    """Each notebook's page is the executed notebook: its code, its printed and typeset
    outputs, and its figures (image files present and valid PNG)."""
    for path in sorted((ROOT / "notebooks").glob("*.py")):
        page = site / "_generated" / "notebooks" / f"{path.stem}.html"
        html = page.read_text(encoding="utf-8")
        assert html.count("cell_output") >= 3, path.name
        source = path.read_text(encoding="utf-8")
        if "show(" in source:
            assert 'class="math' in html, path.name
        for src in re.findall(r'<img [^>]*src="([^"]+)"', html):
            image = (page.parent / src).resolve()
            assert image.is_file(), (path.name, src)
            assert image.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n", (path.name, src)
        if "show_figure(" in source:
            assert "<img " in html, path.name


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
    for path in sorted((ROOT / "notebooks").glob("*.py")):  # generated too
        assert f'href="_generated/notebooks/{path.stem}.html"' in index, path.name


def test_figures_page_shows_every_figure_of_the_main_job(site: Path) -> None:
    from dpsym.derive import FIGURE_FILES

    page = (site / "figures.html").read_text(encoding="utf-8")
    for name in FIGURE_FILES:
        if name.endswith(".png"):
            assert re.search(rf'<img [^>]*src="_images/{re.escape(name)}"', page), name
            assert (site / "_images" / name).is_file(), name
