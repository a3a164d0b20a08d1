"""Sphinx extension: write the generated pages of the dpsym documentation.

Hooked on ``builder-inited``, before the sources are read, it writes into
``docs/_generated/`` (gitignored):

* ``mechanisms/index.md`` and ``mechanisms/<name>.md``: one page per mechanism
  (:data:`dpsym.mechanisms.MECHANISMS`) and lower bound (:data:`dpsym.bounds.BOUNDS`),
  with its parameters, quantities and the closed forms of the optimal cost for
  ``amplitude`` and ``power`` (LaTeX from :func:`dpsym.reports.printing.latex_text`);
* ``include/mechanisms_table.md``: the same table, for ``index.md``;
* ``include/claims_table.md``: the claim registry :data:`dpsym.claims.CLAIMS` (the checks are
  *not* run);
* ``include/notebooks_table.md`` (for ``index.md``), ``include/notebooks_list.md`` and
  ``notebooks/<name>.ipynb``: the proof-check notebooks with their titles and first
  markdown cell, converted from their jupytext source (``notebooks/*.py``)
  and executed by myst-nb when the site is built, so each page shows the notebook with its
  outputs (typeset formulas, figures, the assertions' verdicts); a notebook that raises
  fails the build;
* ``include/cli_reference.md``: the usage block of :mod:`dpsym.cli` and the ``--help`` text of
  the parser and of every command;
* ``api/index.md`` and ``api/<package>.md``: the internals of the API reference, one page
  per entry of the layers contract in ``pyproject.toml`` (``[tool.importlinter]``, from
  the top layer down), with every public module of that subpackage (autodoc).

A file is rewritten only when its content changes, so that incremental builds stay
incremental. A formula that takes longer than :data:`FORMULA_SECONDS` is left out (the
page says so); at the time of writing all of them take well under a second.
"""

from __future__ import annotations

import os
import re
import signal
import textwrap
import threading
import time
from contextlib import contextmanager
from pathlib import Path

#: Seconds allowed for one closed form before it is skipped.
FORMULA_SECONDS = 20

COSTS = ("amplitude", "power")

GUARANTEES = {"eps": r"$\varepsilon$-DP", "eps,delta": r"$(\varepsilon, \delta)$-DP",
              "0,delta": r"$(0, \delta)$-DP"}


class _Timeout(Exception):
    pass


@contextmanager
def _time_limit(seconds: int):
    """Raise :class:`_Timeout` after ``seconds`` (main thread only; no limit elsewhere)."""
    if threading.current_thread() is not threading.main_thread() or not hasattr(
            signal, "SIGALRM"):
        yield
        return

    def handler(signum, frame):
        raise _Timeout

    previous = signal.signal(signal.SIGALRM, handler)
    signal.alarm(seconds)
    try:
        yield
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, previous)


def _write(path: Path, text: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    if not path.exists() or path.read_text(encoding="utf-8") != text:
        path.write_text(text, encoding="utf-8")


def _cell(text: str) -> str:
    """Text safe inside a Markdown table cell."""
    return " ".join(str(text).split()).replace("|", r"\|")


def _code(text: str) -> str:
    return f"`{text}`" if "`" not in text else f"``{text}``"


# ----------------------------------------------------------------------------- mechanisms

def _formula(cls, subs, cost: str) -> tuple[str, float]:
    """The LaTeX of the optimal cost (or a note), and the seconds it took."""
    from dpsym.errors import DpsymError, UnsupportedError
    from dpsym.reports.printing import latex_text

    start = time.perf_counter()
    try:
        with _time_limit(FORMULA_SECONDS):
            expr = cls.formula("cost", cost)
            if subs:
                expr = expr.subs(subs)
            text = latex_text(expr)
    except UnsupportedError:
        text = "computed numerically"
    except _Timeout:
        text = f"not shown (no closed form within {FORMULA_SECONDS} s; `dpsym formula`)"
    except DpsymError as exc:
        text = f"not available ({_cell(str(exc))})"
    return text, time.perf_counter() - start


def _mechanism_page(name: str, cls0, kind: str) -> tuple[str, str]:
    """The page of one registry entry, and its summary-table row."""
    from dpsym.cli.options import specialise as _specialise
    from dpsym.reports.printing import describe_free as _describe_free

    cls, subs, shown = _specialise(cls0, {})
    lines = [f"(entry-{name})=", "", f"# {cls0.title} (`{name}`)", ""]
    lines += [
        "| | |", "| --- | --- |",
        f"| name | `{name}` |",
        f"| kind | {kind} |",
        f"| class | `{cls0.__module__}.{cls0.__qualname__}` |",
        f"| source | {_cell(cls0.source) or '—'} |",
        f"| guarantee | {GUARANTEES.get(cls0.guarantee, _cell(cls0.guarantee))} |",
        f"| lattice (integer-valued queries) | {'yes' if cls0.lattice else 'no'} |",
        f"| free parameter | {_code(_describe_free(cls0)) if cls0.free else '—'} |",
        f"| quantities | {', '.join(_code(q) for q in cls0.quantities())} |",
        "",
        "## Parameters", "",
        "| name | domain | default | description |", "| --- | --- | --- | --- |",
    ]
    for prm in cls0.describe_params():
        lines.append(f"| `{prm['name']}` | `{prm['domain']}` | "
                     f"{_code(prm['default']) if prm['default'] else '—'} | "
                     f"{_cell(prm['description'])} |")
    lines += ["", "## Optimal cost", "",
              r"In the symbols of {py:mod}`dpsym.symbols`: $b = e^{-\varepsilon}$, "
              r"$\Delta$ the sensitivity.", ""]
    if shown:
        at = ", ".join(f"`{k} = {v}`" for k, v in shown.items())
        lines += [f"Shown at the default {at} (`dpsym formula {name} --cost C` with "
                  f"{', '.join('`--' + k + '`' for k in shown)} for other values).", ""]
    for cost in COSTS:
        text, _seconds = _formula(cls, subs, cost)
        lines.append(f"**{cost}** (`dpsym formula {name} --cost {cost}`):")
        lines.append("")
        if text.startswith(("computed numerically", "not ")):
            lines.append(text + ".")
        else:
            lines += ["$$", text, "$$"]
        lines.append("")
    doc = cls0.__doc__ or ""
    summary = doc.strip().split("\n\n")[0].strip() if doc.strip() else ""
    if summary:
        lines += ["## Description", "", "```{eval-rst}", textwrap.dedent(summary), "```", ""]
    lines += ["## API", "", f"{{py:class}}`{cls0.__module__}.{cls0.__qualname__}` "
              f"(module {{py:mod}}`{cls0.__module__}`).", ""]
    row = (f"| [`{name}`]({name}.md) | {kind} | {_cell(cls0.title)} | "
           f"{GUARANTEES.get(cls0.guarantee, _cell(cls0.guarantee))} | "
           f"{_cell(cls0.source) or '—'} |")
    return "\n".join(lines), row


def write_mechanisms(out: Path) -> list[tuple[str, float]]:
    from dpsym.bounds import BOUNDS
    from dpsym.mechanisms import MECHANISMS

    rows, names, timings = [], [], []
    for kind, registry in (("mechanism", MECHANISMS), ("lower bound", BOUNDS)):
        for name, cls in registry.items():
            start = time.perf_counter()
            page, row = _mechanism_page(name, cls, kind)
            timings.append((name, time.perf_counter() - start))
            _write(out / "mechanisms" / f"{name}.md", page)
            rows.append(row)
            names.append(name)
    index = [
        "# Registry: mechanisms and lower bounds", "",
        "Generated from {py:data}`dpsym.mechanisms.MECHANISMS` and "
        "{py:data}`dpsym.bounds.BOUNDS` (the entries of `dpsym list`).", "",
        "| name | kind | title | guarantee | source |", "| --- | --- | --- | --- | --- |",
        *rows, "",
        "```{toctree}", ":hidden:", "", *names, "```", "",
    ]
    _write(out / "mechanisms" / "index.md", "\n".join(index))
    # the same table for docs/index.md (links relative to the docs root)
    table = ["| name | kind | title | guarantee | source |", "| --- | --- | --- | --- | --- |",
             *(row.replace(f"]({name}.md)", f"](_generated/mechanisms/{name}.md)", 1)
               for row, name in zip(rows, names, strict=True)), ""]
    _write(out / "include" / "mechanisms_table.md", "\n".join(table))
    return timings


# ----------------------------------------------------------------------------- claims

def write_claims(out: Path) -> None:
    from dpsym.claims import CLAIMS

    lines = ["| id | source | location | statement | decision | registered status | "
             "erratum |",
             "| --- | --- | --- | --- | --- | --- | --- |"]
    for claim in CLAIMS:
        statement = _cell(claim.statement)
        if claim.corrected:
            statement += f" *Corrected:* {_cell(claim.corrected)}"
        erratum = "—"
        if claim.errata:
            anchor = claim.errata.split("#", 1)[-1]
            erratum = f"{{ref}}`{anchor.upper()} <{anchor}>`"
        notebook = f" ({_code(claim.notebook)})" if claim.notebook else ""
        decision = claim.decision
        if claim.points:
            decision += f" ({len(claim.points)})"
        lines.append(f"| `{claim.id}` | `{_cell(claim.source)}` | {_cell(claim.location)} | "
                     f"{statement}{notebook} | {decision} | {claim.status_text} | "
                     f"{erratum} |")
    lines.append("")
    _write(out / "include" / "claims_table.md", "\n".join(lines))


# ----------------------------------------------------------------------------- notebooks

def first_markdown_cell(source: str) -> str:
    """The first ``# %% [markdown]`` cell of a jupytext percent script, as Markdown."""
    lines = source.splitlines()
    try:
        start = next(i for i, line in enumerate(lines)
                     if line.startswith("# %%") and "[markdown]" in line)
    except StopIteration:
        return ""
    body = []
    for line in lines[start + 1:]:
        if line.startswith("# %%") or not line.startswith("#"):
            break
        body.append(line[2:] if line.startswith("# ") else line[1:])
    return "\n".join(body).strip()


#: The libraries whose results the notebooks print: a new version runs them again.
FINGERPRINT_LIBRARIES = ("sympy", "mpmath", "numpy", "scipy", "python-flint", "gmpy2",
                         "matplotlib")


def _code_only(source: str) -> str:
    """The syntax tree of a module without its docstrings (comments are not in it)."""
    import ast

    tree = ast.parse(source)
    for node in ast.walk(tree):
        body = getattr(node, "body", None)
        if (isinstance(body, list) and body and isinstance(body[0], ast.Expr)
                and isinstance(body[0].value, ast.Constant)
                and isinstance(body[0].value.value, str)):
            body[0] = ast.Pass()
    return ast.dump(tree)


def source_fingerprint(package: Path, memo: Path | None = None) -> str:
    """A hash of the code of ``package`` (every ``*.py`` below it, docstrings and comments
    left out) and of the versions of :data:`FINGERPRINT_LIBRARIES`: the notebooks' outputs
    depend on nothing else, so a cached execution with the same fingerprint and the same
    code cells is the one a new run would give. ``memo`` (a JSON file) keeps the
    fingerprint, keyed by the text of the files and the libraries' versions."""
    import hashlib
    import json
    from importlib.metadata import PackageNotFoundError, version

    paths = sorted(package.rglob("*.py"))
    sources = [path.read_text(encoding="utf-8") for path in paths]
    libraries = []
    for name in FINGERPRINT_LIBRARIES:
        try:
            libraries.append(f"{name}=={version(name)}")
        except PackageNotFoundError:
            libraries.append(f"{name} missing")
    # the same files (names and text) and libraries give the same fingerprint: ``memo``
    # keeps it (parsing every module is a quarter of the build's start)
    text = hashlib.sha256()
    for path, source in zip(paths, sources, strict=True):
        text.update(f"{path.relative_to(package)}\0{len(source)}\0{source}".encode())
    text.update("\0".join(libraries).encode())
    try:
        kept = json.loads(memo.read_text(encoding="utf-8")) if memo is not None else {}
    except (OSError, ValueError):
        kept = {}
    if isinstance(kept, dict) and isinstance(kept.get(text.hexdigest()), str):
        return kept[text.hexdigest()]
    digest = hashlib.sha256()
    for path, source in zip(paths, sources, strict=True):
        digest.update(str(path.relative_to(package)).encode())
        digest.update(_code_only(source).encode())
    for library in libraries:
        digest.update(library.encode())
    fingerprint = digest.hexdigest()[:16]
    if memo is not None:
        memo.parent.mkdir(parents=True, exist_ok=True)
        partial = memo.with_name(f"{memo.name}.{os.getpid()}")
        partial.write_text(json.dumps({text.hexdigest(): fingerprint}), encoding="utf-8")
        partial.replace(memo)  # whole, even with another build writing at the same time
    return fingerprint


def notebook_json(path: Path, fingerprint: str = "") -> str:
    """The jupytext percent script ``path`` as an unexecuted ``.ipynb`` (JSON text) whose
    kernel is :func:`kernelspec`'s. ``fingerprint`` (of :func:`source_fingerprint`) goes
    into the kernelspec, part of what the execution cache matches a notebook by. Cell
    tags of the script (``# %% tags=["hide-input"]``) are kept. Each cell's id is its
    number (jupytext draws random ones): the same script gives the same text, and an
    incremental build does not read the page again."""
    import jupytext
    import nbformat

    nb = jupytext.reads(path.read_text(encoding="utf-8"), fmt="py:percent")
    for number, cell in enumerate(nb.cells):
        cell.id = f"cell-{number}"
    nb.metadata["kernelspec"] = kernelspec(fingerprint)
    nb.metadata.pop("jupytext", None)
    return nbformat.writes(nb) + "\n"


def kernelspec(fingerprint: str = "") -> dict[str, str]:
    """The notebooks' kernelspec: the build's forked kernels
    (:func:`forked_kernels.kernel_name`, ``python3`` where there are none), and
    ``fingerprint``."""
    from forked_kernels import kernel_name

    spec = {"name": kernel_name(), "display_name": "Python 3", "language": "python"}
    if fingerprint:
        spec["dpsym_fingerprint"] = fingerprint
    return spec


def site_fingerprint(srcdir: Path) -> str:
    """:func:`source_fingerprint` of the package beside the documentation ``srcdir``, kept
    in the build's ``_build/.source_fingerprint.json``."""
    return source_fingerprint(srcdir.parent / "dpsym",
                              srcdir / "_build" / ".source_fingerprint.json")


def write_notebook(out: Path, path: Path, fingerprint: str) -> Path:
    """Write ``out/notebooks/<name>.ipynb``, the page the build reads and executes for the
    notebook ``path`` (:func:`notebook_json`), and return its path."""
    page = out / "notebooks" / f"{path.stem}.ipynb"
    _write(page, notebook_json(path, fingerprint))
    return page


def write_notebooks(out: Path, notebooks: Path, fingerprint: str) -> None:
    entries, names, titles = [], [], []
    for stale in (out / "notebooks").glob("*.md"):  # pages of an earlier layout
        stale.unlink()
    for path in sorted(notebooks.glob("*.py")):
        cell = first_markdown_cell(path.read_text(encoding="utf-8"))
        title, _, rest = cell.partition("\n")
        title = title.lstrip("#").strip() or path.stem
        names.append(path.stem)
        titles.append((path.stem, title))
        entries += [f"## {title}", "",
                    f"`notebooks/{path.name}` — [rendered, with its outputs]"
                    f"(_generated/notebooks/{path.stem}.ipynb)", "", rest.strip(), ""]
        write_notebook(out, path, fingerprint)
    _write(out / "include" / "notebooks_table.md", "\n".join(
        ["| notebook | what it checks |", "| --- | --- |",
         *(f"| [`notebooks/{name}.py`](/_generated/notebooks/{name}.ipynb) | {title} |"
           for name, title in titles), ""]))
    entries += ["```{toctree}", ":hidden:", "",
                *(f"_generated/notebooks/{name}" for name in names), "```", ""]
    _write(out / "include" / "notebooks_list.md", "\n".join(entries))


# ----------------------------------------------------------------------------- CLI

def _usage_block(doc: str) -> str:
    """The ``.. code-block:: text`` block of the module docstring of :mod:`dpsym.cli`."""
    match = re.search(r"\.\. code-block:: text\n\n((?:[ ]{3}.*\n|\n)+)", doc)
    return textwrap.dedent(match.group(1)).strip("\n") if match else ""


def write_cli(out: Path) -> None:
    import dpsym.cli as cli
    from dpsym.cli.options import param_names
    from dpsym.cli.parser import build_parser

    old = os.environ.get("COLUMNS")
    os.environ["COLUMNS"] = "88"
    try:
        parser = build_parser(param_names())
        sub = next(a for a in parser._actions if a.__class__.__name__ == "_SubParsersAction")
        helps = [("dpsym --help", parser.format_help())]
        helps += [(f"dpsym {name} --help", p.format_help()) for name, p in sub.choices.items()]
    finally:
        if old is None:
            del os.environ["COLUMNS"]
        else:
            os.environ["COLUMNS"] = old
    lines = ["## Usage", "", "From the docstring of {py:mod}`dpsym.cli`:", "",
             "```text", _usage_block(cli.__doc__ or ""), "```", "",
             "## `--help`", "",
             "The help texts printed by the argument parser "
             "({py:func}`dpsym.cli.parser.build_parser`).", ""]
    for title, text in helps:
        lines += [f"### `{title}`", "", "```text", text.rstrip(), "```", ""]
    _write(out / "include" / "cli_reference.md", "\n".join(lines))


# ----------------------------------------------------------------------------- internals

def _layers(pyproject: Path) -> list[list[str]]:
    """The layers of the import contract named "dpsym layers", top first, each a list of
    modules or packages."""
    import tomllib

    config = tomllib.loads(pyproject.read_text(encoding="utf-8"))
    contract = next(c for c in config["tool"]["importlinter"]["contracts"]
                    if c["type"] == "layers")
    return [[name.strip() for name in re.split(r"[|:]", layer)]
            for layer in contract["layers"]]


def _public_modules(name: str, root: Path) -> list[str]:
    """``name`` and, for a package, each of its modules and subpackages (depth first), less
    the private ones (``_*``) and ``__main__``."""
    path = root.joinpath(*name.split("."))
    if not path.is_dir():
        return [name] if path.with_suffix(".py").is_file() else []
    found = [name]
    for child in sorted(path.iterdir()):
        stem = child.stem if child.suffix == ".py" else child.name
        if stem.startswith("_") or not (child.suffix == ".py" or (child / "__init__.py").is_file()):
            continue
        found += _public_modules(f"{name}.{stem}", root)
    return found


def write_internals(out: Path, root: Path) -> None:
    pages, names = [], []
    for layer in _layers(root / "pyproject.toml"):
        for package in layer:
            modules = _public_modules(package, root)
            if not modules or package.rsplit(".", 1)[-1].startswith("_"):
                continue
            lines = [f"# `{package}`", ""]
            for module in modules:
                if module != package:
                    lines += [f"## `{module}`", ""]
                lines += ["```{eval-rst}", f".. automodule:: {module}", "   :members:"]
                if root.joinpath(*module.split(".")).is_dir():  # its own names, not re-exports
                    lines.append("   :ignore-module-all:")
                lines += ["```", ""]
            slug = package.replace(".", "-")
            _write(out / "api" / f"{slug}.md", "\n".join(lines))
            pages.append(f"| [`{package}`]({slug}.md) | {len(modules)} |")
            names.append(slug)
    index = ["# Internals", "",
             "The modules behind the [API reference](../../api.md), one page per subpackage, "
             "in the order of the layers of `pyproject.toml` (`[tool.importlinter]`): a "
             "module imports only from the layers below its own (see "
             "[the architecture](../../architecture.md)).", "",
             "| package | modules |", "| --- | --- |", *pages, "",
             "```{toctree}", ":hidden:", "", *names, "```", ""]
    _write(out / "api" / "index.md", "\n".join(index))


# ----------------------------------------------------------------------------- hook

def generate(app) -> None:
    srcdir = Path(app.srcdir)
    out = srcdir / "_generated"
    start = time.perf_counter()
    timings = write_mechanisms(out)
    write_claims(out)
    write_notebooks(out, srcdir.parent / "notebooks", site_fingerprint(srcdir))
    write_cli(out)
    write_internals(out, srcdir.parent)
    slow = ", ".join(f"{n} {s:.1f} s" for n, s in timings if s > 2)
    from sphinx.util import logging

    logging.getLogger(__name__).info(
        f"dpsym_pages: generated pages in {time.perf_counter() - start:.1f} s"
        + (f" (slow: {slow})" if slow else ""))


def setup(app):
    app.connect("builder-inited", generate)
    return {"version": "1", "parallel_read_safe": True, "parallel_write_safe": True}
