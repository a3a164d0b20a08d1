"""The documentation site (Sphinx + myst-nb, ``docs/``) builds with warnings as errors, and
every page of it reads cleanly in a browser.

The build runs ``python -m sphinx -W -b html docs <tmp>`` in a subprocess, paused between
its parts so that each is a test of its own (:class:`SiteBuild`): the start and the
generated pages, the reading of the sources, the writing of the pages. The generated
pages (``docs/_generated/``, gitignored) are written by ``docs/_ext/dpsym_pages.py``, and the
notebooks executed into their pages come from the execution cache the README's build
shares (``docs/_build/.jupyter_cache``, keyed by each notebook's code and a fingerprint of
dpsym's code). Each notebook runs first in a test of its own, as the build would run it
(:func:`test_notebook_runs_in_a_kernel`), into that cache: the build then runs none (built
alone, with a cold cache, it runs them all, a minute or two). MathJax is a pinned
local copy in the site's ``_static`` (``docs/conf.py``: MathJax 2.7.9 from ``npm ci --prefix
docs``, which ``.ci/run`` installs, else the ``jupyter-server-mathjax`` package). With
Chromium on PATH (``.ci/run`` installs it; CI
fails without it) every page is loaded headless, offline (from a server of the test's own on
the loopback address), and checked after MathJax has
typeset it (:data:`PAGE_DEFECTS`): no MathJax error of any kind, every formula typeset and
its TeX in the house style, no TeX left raw in the text, every image loaded, every icon of
the theme drawn, no code or output block cut at its right edge. A small site built with the
same configuration proves that the check finds each of these defects.
"""

from __future__ import annotations

import contextlib
import importlib.util
import json
import os
import queue
import re
import runpy
import subprocess
import sys
import threading
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest
from browser import Browser, Tab, find_chromium

ROOT = Path(__file__).resolve().parent.parent
DOCS = ROOT / "docs"

pytestmark = pytest.mark.skipif(
    any(importlib.util.find_spec(name) is None
        for name in ("sphinx", "myst_nb", "jupytext", "sphinx_book_theme", "sphinx_copybutton")),
    reason="the docs tools are not installed (pip install '.[docs]')",
)
#: The tests of the built site share one worker, which builds the site once (the probe
#: sites' tests, which build theirs, may run on the other, together: one build of both).
on_the_site = pytest.mark.xdist_group("docs")
on_the_probes = pytest.mark.xdist_group("docs-probes")

#: Runs ``sphinx -b html`` on each (source, out, MathJax copy) triple of its arguments in
#: turn, in this one process (Sphinx and its extensions imported once); the copy is named
#: to ``docs/conf.py`` by DPSYM_DOCS_MATHJAX ("" for its default), which it reads anew at
#: each build.
BUILDS = """import os, sys
from sphinx.cmd.build import build_main
args = sys.argv[1:]
for source, out, mathjax in zip(args[::3], args[1::3], args[2::3]):
    os.environ.pop("DPSYM_DOCS_MATHJAX", None)
    if mathjax:
        os.environ["DPSYM_DOCS_MATHJAX"] = mathjax
    if build_main(["-q", "-b", "html", source, out]):
        sys.exit(f"sphinx-build failed: {source}")
"""


def _run(args: list[str]) -> None:
    proc = subprocess.run([sys.executable, *args], cwd=ROOT, capture_output=True, text=True,
                          timeout=1800)
    assert proc.returncode == 0, f"sphinx-build failed:\n{proc.stdout}\n{proc.stderr}"


def _build_each(builds: list[tuple[Path, Path, str | None]]) -> None:
    """``sphinx -b html source out`` of each (source, out, mathjax) in one process;
    ``mathjax`` names the local MathJax copy to use (``docs/conf.py``'s
    ``MATHJAX_COPIES``; None: the first one installed)."""
    _run(["-c", BUILDS, *(str(part or "") for build in builds for part in build)])


class Chromiums:
    """One headless Chromium shared by a module's tests, started when first needed, and its
    tabs (one Chromium with two tabs, each page in a renderer process of its tab, costs a
    Chromium's start less than two)."""

    def __init__(self) -> None:
        self._stack = contextlib.ExitStack()
        self._browser: Browser | None = None
        self._tabs: list[Tab] = []
        self._served: set[Path] = set()

    def take(self, count: int) -> list[Tab]:
        if self._browser is None:
            self._browser = self._stack.enter_context(Browser(_chromium()))
        while len(self._tabs) < count:
            self._tabs.append(self._browser.tab())
        return self._tabs[:count]

    def serve(self, directory: Path) -> None:
        """Let the tabs load the files under ``directory``, at the same addresses each time
        it is asked (the scripts Chromium cached, compiled, stay cached)."""
        if directory not in self._served:
            self.take(1)[0].browser.serve(directory)
            self._served.add(directory)

    def close(self) -> None:
        self._stack.close()


@pytest.fixture(scope="module")
def chromiums() -> Iterator[Chromiums]:
    pool = Chromiums()
    yield pool
    pool.close()


NOTEBOOKS = sorted((ROOT / "notebooks").glob("*.py"))


class _Log:
    """The logger myst-nb's execution client writes to (``info``, ``warning``, ... with a
    ``subtype``): its lines kept."""

    def __init__(self) -> None:
        self.lines: list[str] = []

    def _log(self, message: object, *args: object, subtype: str | None = None,
             **kwargs: object) -> None:
        self.lines.append(str(message))

    debug = info = warning = error = critical = _log


@pytest.fixture(scope="module")
def run_notebook() -> Iterator[Callable[[Path], dict]]:
    """Runs a notebook as the site's build runs it, into the execution cache the build
    reads: the build's configuration (``docs/conf.py``: myst-nb's options, the kernels'
    IPython directory), its page for the notebook (``dpsym_pages.write_notebook``), its
    kernels (``forked_kernels``) and myst-nb's own client. Gives myst-nb's execution
    metadata (``succeeded``, ``traceback``, ...)."""
    environ, path, modules = os.environ.copy(), sys.path.copy(), set(sys.modules)
    conf = runpy.run_path(str(DOCS / "conf.py"))  # (puts docs/_ext on sys.path)
    import dpsym_pages
    import forked_kernels
    import nbformat
    from jupyter_cache import get_cache
    from myst_nb.core.config import NbParserConfig
    from myst_nb.core.execute import create_client
    from myst_nb.core.read import standard_nb_read

    config = NbParserConfig(**{name: conf[f"nb_{name}"]
                               for name, *_ in NbParserConfig().as_triple()
                               if f"nb_{name}" in conf})
    # a cell that raises is reported here, with its traceback, rather than raised
    config = config.copy(execution_raise_on_error=False)
    fingerprint = dpsym_pages.site_fingerprint(DOCS)
    cache = get_cache(config.execution_cache_path)
    server = forked_kernels.Server() if forked_kernels.available() else None

    def run(notebook: Path) -> dict:
        page = dpsym_pages.write_notebook(DOCS / "_generated", notebook, fingerprint)
        node: nbformat.NotebookNode = standard_nb_read(page.read_text(encoding="utf-8"))
        log = _Log()
        with create_client(node, str(page), config, log) as client:  # type: ignore[arg-type]
            result = {**client.exec_metadata, "log": log.lines}
        # what the build will look up: its page, read anew, matched by its content
        try:
            cache.match_cache_notebook(standard_nb_read(page.read_text(encoding="utf-8")))
        except KeyError:
            return {**result, "cached": False}
        return {**result, "cached": True}

    yield run
    if server is not None:
        server.stop()
    os.environ.clear()
    os.environ.update(environ)
    sys.path[:] = path
    for name in {name for name, module in sys.modules.items() if module is None} - modules:
        del sys.modules[name]  # (what conf.py keeps from being imported)


@on_the_site
@pytest.mark.parametrize("notebook", NOTEBOOKS, ids=[path.stem for path in NOTEBOOKS])
def test_notebook_runs_in_a_kernel(notebook: Path, run_notebook: Callable[[Path], dict]
                                   ) -> None:
    """Each notebook runs top to bottom in a Jupyter kernel, as the site's build runs it,
    and every cell's assertions pass; its outputs go into the build's execution cache,
    which the build (:class:`SiteBuild`, next on this worker) reads instead of running the
    notebook again. (Built alone, the site runs each notebook itself.)"""
    result = run_notebook(notebook)
    assert result["succeeded"], f"{notebook.name}:\n{result['traceback']}"
    assert result["cached"], (notebook.name, result["log"])


#: ``python -m sphinx`` (the README's docs command) paused before each phase of the build,
#: reading the sources and writing the pages: it prints the phase's name in brackets, a
#: line of its own on stdout, and waits for a line on stdin.
PAUSED_BUILD = """import sys
from sphinx.builders import Builder
from sphinx.cmd.build import main


def when_asked(phase, run):
    def paused(self, *args, **kwargs):
        sys.stderr.flush()
        print(f"[{phase}]", flush=True)
        sys.stdin.readline()
        return run(self, *args, **kwargs)
    return paused


Builder.read = when_asked("read", Builder.read)
Builder.write = when_asked("write", Builder.write)
sys.exit(main(sys.argv[1:]))
"""


class SiteBuild:
    """The site's build, ``python -m sphinx -W --keep-going -q -b html docs <out>``, in a
    process of its own, run a part at a time: its start (the configuration, the extensions,
    the pages ``dpsym_pages`` generates) up to the reading of the sources, the reading, and
    the writing of the pages to the end. One build, the same as the README's; each part
    gives its own warnings (the build's stderr, ``log``), to a test of its own."""

    PHASES = ("read", "write")
    #: a part that runs longer than this has hung (however loaded the machine is)
    TIMEOUT = 1800

    def __init__(self, out: Path, log: Path) -> None:
        self.out = out
        self.log = log
        with log.open("w", encoding="utf-8") as stderr:
            self._proc = subprocess.Popen(
                [sys.executable, "-c", PAUSED_BUILD, "-W", "--keep-going", "-q", "-b", "html",
                 str(DOCS), str(out)],
                cwd=ROOT, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=stderr,
                text=True)
        self._log = log.open(encoding="utf-8")  # read where the build writes (its own offset)
        self._lines: queue.Queue[str | None] = queue.Queue()
        threading.Thread(target=self._read_stdout, daemon=True).start()
        self.at = -1  # the index of the phase it waits before; len(PHASES): ended
        self.output: list[str] = []  # what it printed on stdout beside the phases' names

    def _read_stdout(self) -> None:
        assert self._proc.stdout is not None
        for line in self._proc.stdout:
            self._lines.put(line)
        self._lines.put(None)

    def run_to(self, phase: str | None) -> str:
        """Runs the build on to the start of ``phase`` (None: to its end), from where it
        waits; the warnings it gave on the way (its stderr)."""
        start = self._log.tell()
        stop = len(self.PHASES) if phase is None else self.PHASES.index(phase)
        while self.at < stop:
            if self.at >= 0:
                assert self._proc.stdin is not None
                self._proc.stdin.write("\n")
                self._proc.stdin.flush()
            line = self._next_line(phase)
            while line is not None and line.rstrip("\n")[1:-1] not in self.PHASES:
                self.output.append(line)
                line = self._next_line(phase)
            if line is None:
                self._proc.wait()
                self.at = len(self.PHASES)
            else:
                self.at = self.PHASES.index(line.rstrip("\n")[1:-1])
        self._log.seek(start)
        return self._log.read()

    def _next_line(self, phase: str | None) -> str | None:
        try:
            return self._lines.get(timeout=self.TIMEOUT)
        except queue.Empty:
            self.stop()
            raise AssertionError(f"the build hung before {phase or 'its end'}") from None

    @property
    def returncode(self) -> int | None:
        return self._proc.returncode

    def stop(self) -> None:
        if self._proc.poll() is None:
            self._proc.kill()
        self._proc.wait()
        self._log.close()


@pytest.fixture(scope="module")
def site_build(tmp_path_factory: pytest.TempPathFactory) -> Iterator[SiteBuild]:
    work = tmp_path_factory.mktemp("docs")
    build = SiteBuild(work / "html", work / "warnings.log")
    yield build
    build.stop()


@pytest.fixture(scope="module")
def site(site_build: SiteBuild) -> Path:
    """The built site (the build run to its end)."""
    site_build.run_to(None)
    assert site_build.returncode == 0, \
        f"sphinx-build failed:\n{site_build.log.read_text(encoding='utf-8')}"
    return site_build.out


@on_the_site
def test_site_starts_building_without_warnings(site_build: SiteBuild) -> None:
    """The build's start: ``docs/conf.py``, the extensions, and the pages ``dpsym_pages``
    generates into ``docs/_generated``, one for each mechanism and module."""
    from dpsym.bounds import BOUNDS
    from dpsym.mechanisms import MECHANISMS

    warnings = site_build.run_to("read")
    assert site_build.at == 0 and not warnings, (site_build.output, warnings)
    for name in (*MECHANISMS, *BOUNDS):
        assert (DOCS / "_generated" / "mechanisms" / f"{name}.md").is_file(), name
    assert (DOCS / "_generated" / "api" / "dpsym-mechanisms.md").is_file()


@on_the_site
def test_site_reads_without_warnings(site_build: SiteBuild) -> None:
    """The reading of every source: the Markdown pages, the notebooks (their outputs from
    the execution cache), autodoc's docstrings."""
    warnings = site_build.run_to("write")
    assert site_build.at == 1 and not warnings, (site_build.output, warnings)


@on_the_site
def test_site_builds_without_warnings(site: Path) -> None:
    """The writing of every page, to the build's end (the setup: :func:`site`)."""
    for page in ("index.html", "mechanisms.html", "claims.html", "notebooks.html",
                 "cli.html", "api.html", "errata.html"):
        assert (site / page).is_file(), page
    index = (site / "index.html").read_text(encoding="utf-8")
    for page in ("mechanisms.html", "claims.html", "api.html", "errata.html"):
        assert f'href="{page}' in index, page
    # nothing of the machine that built it (a path value of the package, say)
    leaks = [str(path.relative_to(site)) for path in site.rglob("*.html")
             if str(ROOT) in path.read_text(encoding="utf-8")]
    assert not leaks, leaks


@on_the_site
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


@on_the_site
def test_claims_page(site: Path) -> None:
    from dpsym.claims import CLAIMS

    page = (site / "claims.html").read_text(encoding="utf-8")
    for claim in CLAIMS:
        assert claim.id in page, claim.id
    errata = (site / "errata.html").read_text(encoding="utf-8")
    for anchor in {c.errata.split("#")[1] for c in CLAIMS if c.errata}:
        assert f'href="errata.html#{anchor}"' in page, anchor
        assert f'id="{anchor}"' in errata, anchor


@on_the_site
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


@on_the_site
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
    if os.environ.get("CI"):  # .ci/run installs the npm copy, the faster one
        assert src.endswith("?config=TeX-AMS_CHTML-full"), src


#: Run in a page once MathJax has finished: the defects a reader would see, by kind, each a
#: short description (empty lists on a clean page). ``formulas`` counts the typeset ones.
PAGE_DEFECTS = r"""(() => {
  const clip = (s) => s.replace(/\s+/g, " ").trim().slice(0, 120);
  const found = {mathjax: [], unrendered: [], style: [], raw_tex: [], images: [],
                 icons: [], clipped: [], formulas: 0};
  const mj = window.MathJax;
  if (mj && mj.Hub) {
    // every message MathJax posted: TeX parse errors, "Math Processing Error", files
    // (fonts, extensions) that failed to load, characters missing from the font
    for (const message of mj.Hub.signal.posted.concat(mj.Hub.Startup.signal.posted)) {
      const text = String(message);
      if (/error|unknown char|not found|failed/i.test(text) && !/ Ready$/.test(text))
        found.mathjax.push(clip(text));
    }
  }
  for (const el of document.querySelectorAll(
      ".MathJax_Error, .noError, .merror, merror, [data-mathml*='merror']"))
    found.mathjax.push(clip("error node: " + (el.getAttribute("data-mathml") || el.textContent)));
  // an undefined macro is drawn in red by MathJax's noUndefined extension
  for (const el of document.querySelectorAll("[data-mathml*='mathcolor=\"red\"']"))
    found.mathjax.push(clip("undefined macro: " + el.textContent));
  // (the text a reader sees, asked for only when the page's text has those words: the text
  // shown has no character the page's has not, but for a change of case and spaces)
  if (/\[\s*math\s*processing\s*error\s*\]/i.test(document.body.textContent)
      && /\[Math Processing Error\]/.test(document.body.innerText))
    found.mathjax.push("[Math Processing Error] in the text");
  // each formula's TeX: typeset (a MathJax frame follows its script) and in the house style
  for (const script of document.querySelectorAll('script[type^="math/tex"]')) {
    const tex = script.textContent;
    // the typeset formula precedes its script (inside a MathJax_Display for a display)
    const before = script.previousElementSibling;
    const frame = before && (/-Frame$/.test(before.id) ? before
                             : before.querySelector('[id^="MathJax-Element-"][id$="-Frame"]'));
    // (HTML-CSS output: class MathJax; CommonHTML output: MathJax_CHTML)
    if (!frame || !["MathJax", "MathJax_CHTML"].some((c) => frame.classList.contains(c)))
      found.unrendered.push(clip(tex));
    else found.formulas += 1;
    if (/'/.test(tex)) found.style.push(clip("prime written ': " + tex));
    if (/\\epsilon(?![a-zA-Z])/.test(tex)) found.style.push(clip("\\epsilon: " + tex));
  }
  // TeX delimiters left in the text a reader sees (outside code, scripts and formulas)
  // (an element of these is passed over with all it contains, as the walker meets it: not
  // each text node in a formula asked for its ancestors)
  const outside = "script, style, pre, code, kbd, samp, textarea, .highlight, .MathJax, "
    + ".MathJax_Display, .MathJax_Preview, [class^='MathJax'], .mjx-chtml";
  const walker = document.createTreeWalker(document.body,
    NodeFilter.SHOW_ELEMENT | NodeFilter.SHOW_TEXT, {acceptNode: (node) => {
      if (node.nodeType === Node.ELEMENT_NODE)
        return node.matches(outside) ? NodeFilter.FILTER_REJECT : NodeFilter.FILTER_SKIP;
      const parent = node.parentElement;
      return parent.offsetParent === null && getComputedStyle(parent).position !== "fixed"
        ? NodeFilter.FILTER_REJECT : NodeFilter.FILTER_ACCEPT;
    }});
  for (let node = document.body.closest(outside) ? null : walker.nextNode(); node;
       node = walker.nextNode()) {
    const match = node.textContent.match(/.{0,30}(\$|\\\(|\\\)|\\\[|\\\]).{0,30}/);
    if (match) found.raw_tex.push(clip(match[0]));
  }
  for (const img of document.images)
    if (!img.complete || img.naturalWidth === 0) found.images.push(img.getAttribute("src"));
  // the theme's icons: FontAwesome replaces each <i class="fa-..."> by its SVG when the page
  // loads, and only then (docs/conf.py: it does not watch the page for icons added later)
  for (const el of document.querySelectorAll("i[class*='fa-'], span[class*='fa-']"))
    found.icons.push(clip(`${el.tagName.toLowerCase()}.${el.className}`));
  // code and output blocks cut at their right edge (a horizontal scrollbar, or hidden)
  for (const el of document.querySelectorAll(
      "pre, div.highlight, div.cell_output, div.output, div.cell_input, div.math, "
      + ".bd-sidebar-primary, .bd-sidebar-secondary"))
    if (el.offsetParent !== null && el.scrollWidth > el.clientWidth + 1)
      found.clipped.push(clip(`${el.tagName.toLowerCase()}.${el.className} `
        + `(${el.scrollWidth} > ${el.clientWidth} px): ${el.textContent}`));
  return JSON.stringify(found);
})()"""

#: The kinds of defect :data:`PAGE_DEFECTS` reports.
DEFECTS = ("mathjax", "unrendered", "style", "raw_tex", "images", "icons", "clipped")


def _chromium() -> str:
    browser = find_chromium()
    if browser is None:
        if os.environ.get("CI"):
            pytest.fail("CI must have chromium (.ci/run installs it)")
        pytest.skip("no chromium or chromium-browser on PATH")
    return browser


def _defects(chromiums: Chromiums, site: Path, pages: list[Path],
             workers: int = 2) -> dict[Path, dict]:
    """:data:`PAGE_DEFECTS` of each page of ``site`` (a directory: the pages and all they
    load), rendered in ``workers`` tabs of a headless Chromium."""
    tabs = chromiums.take(workers)
    chromiums.serve(site)
    chunks = [pages[i::workers] for i in range(workers)]

    def check(tab: Tab, chunk: list[Path]) -> dict[Path, dict]:
        return {page: json.loads(tab.evaluate(page, PAGE_DEFECTS)) for page in chunk}

    found: dict[Path, dict] = {}
    with ThreadPoolExecutor(workers) as pool:
        for result in pool.map(check, tabs, chunks):
            found.update(result)
    return found


def _pages(site: Path) -> list[Path]:
    """Every page of the site, but of the highlighted sources (``_modules/``, one template
    for about a hundred modules) only their index and the first module's page."""
    pages = sorted(path for path in site.rglob("*.html")
                   if "_static" not in path.parts and "_modules" not in path.parts)
    sources = sorted((site / "_modules").rglob("*.html"))
    return [*pages, site / "_modules" / "index.html",
            next(path for path in sources if path.name != "index.html")]


#: The page check is this many tests, each on every ``PARTS``-th page of :func:`_pages`.
PARTS = 3
#: The least number of formulas typeset on each of these pages (about half of those each
#: held when this was written: 187, 42, 1414 and 214), and on each part of the site (1521,
#: 4332 and 1871).
FORMULAS = {"api.html": 100, "index.html": 20, "errata.html": 500,
            "_generated/notebooks/staircase_1d.html": 100}
PART_FORMULAS = 700


@on_the_site
@pytest.mark.parametrize("part", range(PARTS), ids=[f"part{n + 1}" for n in range(PARTS)])
def test_every_page_reads_cleanly_in_chromium(site: Path, chromiums: Chromiums,
                                              part: int) -> None:
    r"""Headless Chromium, offline (the site served on the loopback address by the test's
    own server, ``tests/browser.py``), a 1280 px wide window: on every page of the site
    (:func:`_pages`, in :data:`PARTS` parts) MathJax reports no error and typesets every
    formula, each formula's TeX is in the house style (primes as ``^{\prime}``,
    ``\varepsilon``), no ``$``, ``\(`` or ``\[`` is left in the text, every image loads,
    every icon of the theme is drawn (an SVG), and no code or output block is cut at its
    right edge. Pages known to hold formulas (:data:`FORMULAS`) have them typeset."""
    pages = _pages(site)
    assert len(pages) >= 60, len(pages)
    assert set(FORMULAS) <= {page.relative_to(site).as_posix() for page in pages}
    found = _defects(chromiums, site, pages[part::PARTS])
    bad = {str(page.relative_to(site)): {kind: items[:3] for kind, items in defects.items()
                                         if kind in DEFECTS and items}
           for page, defects in found.items()}
    bad = {page: defects for page, defects in bad.items() if defects}
    assert not bad, json.dumps(bad, indent=1, ensure_ascii=False)[:6000]
    typeset = {page.relative_to(site).as_posix(): found[page]["formulas"] for page in found}
    assert sum(typeset.values()) >= PART_FORMULAS, typeset
    few = {page: typeset[page] for page, least in FORMULAS.items()
           if page in typeset and typeset[page] < least}
    assert not few, few


#: A small site, built with the documentation's own configuration (theme, MathJax, CSS),
#: one page per defect the browser check must find, and one clean page.
PROBE_PAGES = {
    "index": "# Probe\n\n```{toctree}\n:hidden:\n\n"
             + "\n".join(("clean", "prime", "epsilon", "parse_error", "undefined_macro",
                          "raw_dollar", "missing_image", "late_icon", "clipped"))
             + "\n```\n",
    "clean": ("# Clean\n\nA profile $\\delta(\\varepsilon^{\\prime})$ and\n\n"
              "$$V_1^{\\prime}(\\gamma) = \\frac{\\Delta\\sqrt b}{1 - b}$$\n\n"
              '<span class="dpsym-verdict dpsym-verdict-proof">proof</span>\n'
              '<span class="dpsym-verdict dpsym-verdict-instances">instances</span>\n'
              '<span class="dpsym-verdict dpsym-verdict-undecided">undecided</span>\n'
              '<span class="dpsym-verdict dpsym-verdict-fails">fails</span>\n\n'
              "```python\nprint('a long line of code' + ' and more' * 30)\n```\n"),
    "prime": "# Prime\n\nThe profile $\\delta(\\varepsilon')$ at $\\varepsilon'$.\n",
    "epsilon": "# Epsilon\n\nThe profile $\\delta(\\epsilon)$.\n",
    "parse_error": "# Parse error\n\nA brace missing: $\\frac{1}{2$.\n",
    "undefined_macro": "# Undefined macro\n\n$\\notamacro x$\n",
    "raw_dollar": "# Raw dollar\n\nA formula left as text: \\$x^2\\$.\n",
    "missing_image": '# Missing image\n\n<img src="nowhere.png" alt="missing">\n',
    # an icon added once the page has loaded, as the theme's banners would add theirs
    "late_icon": ('# Late icon\n\n<p id="late"></p>\n\n<script>window.addEventListener("load", '
                  '() => document.getElementById("late").append(Object.assign('
                  'document.createElement("i"), {className: "fa-solid fa-xmark"})));'
                  '</script>\n'),
    "clipped": ('# Clipped\n\n<div class="cell_output"><pre style="white-space: pre; '
                'overflow-x: auto">' + "x = 1; " * 400 + "</pre></div>\n"),
}

def _probe_conf(conf: Path) -> str:
    return (
        "from pathlib import Path\n"
        f"_CONF = Path({str(conf)!r})\n"
        "_ns = {'__file__': str(_CONF), '__name__': 'docs_conf'}\n"
        "exec(compile(_CONF.read_text(encoding='utf-8'), str(_CONF), 'exec'), _ns)\n"
        "globals().update({k: v for k, v in _ns.items() if not k.startswith('__')})\n"
        "extensions = [e for e in extensions if e not in ('dpsym_pages', 'sphinx.ext.autodoc',\n"
        "                                                 'sphinx.ext.viewcode')]\n"
        "html_static_path = [str(_CONF.parent / '_static')]\n"
        "exclude_patterns = ['_build']\n"
        "nb_execution_mode = 'off'\n"
    )


#: The probe site of :func:`test_the_old_mathjax_fonts_fail_the_check`: MathJax's
#: default HTML-CSS fonts (the site's configuration before), one page with a prime.
OLD_FONTS_CONF = (
    "mathjax2_config = {k: v for k, v in mathjax2_config.items() if k != 'HTML-CSS'}\n")


@pytest.fixture(scope="module")
def probe_sites(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """The probe sites, built in one Sphinx process: ``"defects"`` (:data:`PROBE_PAGES`,
    the site's configuration) and, with the ``jupyter-server-mathjax`` copy installed,
    ``"old-fonts"`` (that copy, :data:`OLD_FONTS_CONF`); each name gives its output."""
    _chromium()
    root = tmp_path_factory.mktemp("probes")
    sources = {"defects": (_probe_conf(DOCS / "conf.py"), PROBE_PAGES, None)}
    if importlib.util.find_spec("jupyter_server_mathjax") is not None:
        sources["old-fonts"] = (_probe_conf(DOCS / "conf.py") + OLD_FONTS_CONF,
                                {"index": PROBE_PAGES["prime"]}, "jupyter-server-mathjax")
    builds = []
    for name, (conf, pages, mathjax) in sources.items():
        source = root / name
        source.mkdir()
        (source / "conf.py").write_text(conf, encoding="utf-8")
        for page, text in pages.items():
            (source / f"{page}.md").write_text(text, encoding="utf-8")
        builds.append((source, root / f"{name}-html", mathjax))
    _build_each(builds)
    return {name: root / f"{name}-html" for name in sources}


@on_the_probes
def test_the_browser_check_finds_each_defect(probe_sites: dict[str, Path],
                                             chromiums: Chromiums) -> None:
    r"""The check of :func:`test_every_page_reads_cleanly_in_chromium` on a probe site built
    with the documentation's configuration: a page with a prime written ``'`` is caught,
    and so are ``\epsilon``, a TeX parse error, an undefined macro, a raw ``$``, a missing
    image, an icon added after the page loaded (not drawn) and a clipped output block —
    each exactly as that kind, while the clean page (primes as ``^{\prime}``, a display
    formula, verdict badges, a long code line, the theme's icons) has none. The badges are
    styled by ``docs/_static/dpsym.css``: four distinct colours."""
    out = probe_sites["defects"]
    pages = {name: out / f"{name}.html" for name in PROBE_PAGES if name != "index"}
    found = _defects(chromiums, out, list(pages.values()))
    kinds = {name: sorted(kind for kind in DEFECTS if found[page][kind])
             for name, page in pages.items()}
    assert kinds == {"clean": [], "prime": ["style"], "epsilon": ["style"],
                     "parse_error": ["mathjax"], "undefined_macro": ["mathjax"],
                     "raw_dollar": ["raw_tex"], "missing_image": ["images"],
                     "late_icon": ["icons"], "clipped": ["clipped"]}, json.dumps(
                         {p.name: d for p, d in found.items()})
    assert found[pages["clean"]]["formulas"] == 2
    assert found[pages["prime"]]["formulas"] == 2
    colours, icons = json.loads(chromiums.take(1)[0].evaluate(pages["clean"], """JSON.stringify([
            [...document.querySelectorAll('.dpsym-verdict')].map(el => {
              const style = getComputedStyle(el);
              return [style.color, style.backgroundColor, style.borderRadius];
            }), document.querySelectorAll('svg.svg-inline--fa').length])"""))
    assert icons >= 5, icons  # the theme's icons, drawn
    assert len(colours) == 4 and len({tuple(c[:2]) for c in colours}) == 4, colours
    assert all(c[1] not in ("rgba(0, 0, 0, 0)", "transparent") for c in colours), colours


@on_the_probes
def test_the_old_mathjax_fonts_fail_the_check(probe_sites: dict[str, Path],
                                              chromiums: Chromiums) -> None:
    """MathJax's default HTML-CSS fonts are not in the ``jupyter-server-mathjax`` copy (the
    site's MathJax when the npm copy is not installed): with them (the site's configuration
    before) a formula with a prime fails with "[Math Processing Error]", and the check
    says so. The site's configuration names the STIX-Web fonts that copy has."""
    pytest.importorskip("jupyter_server_mathjax")
    page = probe_sites["old-fonts"] / "index.html"
    found = _defects(chromiums, page.parent, [page], workers=1)[page]
    assert any("Math Processing Error" in item for item in found["mathjax"]), found


@on_the_site
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


@on_the_site
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


@on_the_site
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


@on_the_site
def test_figures_page_shows_every_figure_of_the_main_job(site: Path) -> None:
    from dpsym.derive import FIGURE_FILES

    page = (site / "figures.html").read_text(encoding="utf-8")
    for name in FIGURE_FILES:
        if name.endswith(".png"):
            assert re.search(rf'<img [^>]*src="_images/{re.escape(name)}"', page), name
            assert (site / "_images" / name).is_file(), name


@on_the_probes
def test_a_notebook_as_a_standalone_page_renders_offline(tmp_path: Path,
                                                         chromiums: Chromiums) -> None:
    """``python docs/notebook_html.py NOTEBOOK`` (the README's offline page of one
    notebook): executed, converted by nbconvert, MathJax beside the page, no script from
    the network, and the browser check finds every formula typeset (the Markdown's
    ``$...$`` and ``$$...$$``, a displayed ``Math`` output) and nothing wrong."""
    pytest.importorskip("nbconvert")
    pytest.importorskip("nbclient")
    _chromium()
    notebook = tmp_path / "tiny.py"
    notebook.write_text(
        "# %% [markdown]\n# # Tiny\n#\n# A profile $\\delta(\\varepsilon^{\\prime})$ and\n"
        "# $$V_1^{\\prime}(\\gamma) = \\frac{\\Delta\\sqrt b}{1 - b}.$$\n\n"
        "# %%\nfrom IPython.display import Math, display\n\n"
        "display(Math(r\"\\delta(\\varepsilon^{\\prime}) = e^{\\varepsilon^{\\prime}}\"))\n",
        encoding="utf-8")
    proc = subprocess.run([sys.executable, str(DOCS / "notebook_html.py"), str(notebook),
                           "-o", str(tmp_path / "out")],
                          cwd=tmp_path, capture_output=True, text=True, timeout=600)
    assert proc.returncode == 0, proc.stderr[-3000:]
    page = tmp_path / "out" / "tiny.html"
    assert proc.stdout.strip() == str(page)
    assert (tmp_path / "out" / "mathjax" / "MathJax.js").is_file()
    html = page.read_text(encoding="utf-8")
    assert not [src for src in re.findall(r'<script[^>]+src="([^"]*)"', html) if "://" in src]
    found = _defects(chromiums, page.parent, [page], workers=1)[page]
    assert found["formulas"] == 3, found
    assert not any(found[kind] for kind in DEFECTS), found


def test_a_forked_kernel_lives_and_ends_with_its_launcher(tmp_path: Path,
                                                          monkeypatch: pytest.MonkeyPatch) -> None:
    """The site's notebook kernels (``docs/_ext/forked_kernels.py``), forked by a server of
    the build (here one that imports nothing first): each kernel is a fresh process, not its
    launcher (the process the notebook's client started) and not the server; an interrupt
    sent to the launcher stops the running cell; a normal shutdown ends the launcher with
    the kernel's exit code 0; a launcher killed takes its kernel with it; the server's end
    (the build's) takes every kernel still alive, and leaves no process behind."""
    import signal
    import threading
    import time

    pytest.importorskip("ipykernel")
    monkeypatch.syspath_prepend(str(DOCS / "_ext"))
    import forked_kernels
    from jupyter_client.manager import KernelManager

    if not forked_kernels.available():
        pytest.skip("no fork here: the notebooks use the python3 kernel")
    environ = {name: os.environ.get(name) for name in (forked_kernels.SOCKET_ENV, "JUPYTER_PATH")}
    server = forked_kernels.Server(preload=False)

    def alive(pid: int) -> bool:
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            return False
        stat = Path(f"/proc/{pid}/stat")  # a zombie (dead, not yet reaped) is gone too
        return not stat.exists() or stat.read_text().split(")")[-1].split()[0] != "Z"

    def gone(pid: int) -> bool:  # within a minute, however loaded the machine is
        for _ in range(1200):
            if not alive(pid):
                return True
            time.sleep(0.05)
        return False

    def run(client, code: str) -> tuple[str, list[str]]:
        texts: list[str] = []
        reply = client.execute_interactive(code, timeout=60, output_hook=lambda msg: texts.append(
            msg["content"].get("text", "")) if msg["msg_type"] == "stream" else None)
        return reply["content"]["status"], texts

    kernels = []
    try:
        for _ in range(2):
            # a clean exit is waited for however loaded the machine is (by default the
            # manager sends SIGTERM once 2.5 s have passed after its shutdown request)
            manager = KernelManager(kernel_name=forked_kernels.NAME, shutdown_wait_time=240)
            manager.start_kernel(cwd=str(tmp_path))
            client = manager.client()
            client.start_channels()
            client.wait_for_ready(timeout=60)
            status, texts = run(client, "import os; print(os.getpid(), os.getppid(), "
                                        "os.getcwd())")
            assert status == "ok"
            pid, parent, cwd = "".join(texts).split()
            launcher = manager.provisioner.process.pid
            assert int(pid) not in (launcher, server.process.pid, os.getpid())
            assert int(parent) == server.process.pid and cwd == str(tmp_path)
            kernels.append((manager, client, int(pid), launcher))
        assert kernels[0][2] != kernels[1][2]
        manager, client, pid, launcher = kernels[0]
        reply: list[str] = []
        thread = threading.Thread(target=lambda: reply.append(run(client, "import time\n"
                                                                           "time.sleep(60)")[0]))
        thread.start()
        time.sleep(1.0)
        manager.interrupt_kernel()  # SIGINT to the launcher's process group
        thread.join(30)
        assert reply == ["error"]
        assert run(client, "print('after')") == ("ok", ["after\n"])
        client.stop_channels()
        process = manager.provisioner.process
        manager.shutdown_kernel()  # a shutdown request, then the launcher's exit
        assert process.returncode == 0 and gone(pid)
        manager, client, pid, launcher = kernels[1]
        os.kill(launcher, signal.SIGKILL)
        assert gone(pid), "the kernel outlived its launcher"
        client.stop_channels()
        manager.cleanup_resources()
        # a kernel alive when the server ends goes with it
        manager = KernelManager(kernel_name=forked_kernels.NAME)
        manager.start_kernel(cwd=str(tmp_path))
        client = manager.client()
        client.start_channels()
        client.wait_for_ready(timeout=60)
        status, texts = run(client, "import os; print(os.getpid())")
        pid = int("".join(texts))
        kernels.append((manager, client, pid, manager.provisioner.process.pid))
    finally:
        # the end of the build's pipe, as at the build's death: the server ends, with every
        # kernel still alive, and removes its directory
        assert server.process.stdin is not None
        server.process.stdin.close()
        server.process.wait(timeout=60)
        left = os.path.exists(server.directory)
        server.stop()
    assert server.process.returncode == 0 and not left
    assert {name: os.environ.get(name) for name in environ} == environ  # as it was
    assert gone(kernels[-1][2])
    kernels[-1][1].stop_channels()
    kernels[-1][0].shutdown_kernel(now=True)
