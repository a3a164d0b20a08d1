"""The shape of the package: layers, no import cycles, where imports stand.

The layering is written as import-linter contracts in ``pyproject.toml``; ``lint-imports``
must keep them. Independently of import-linter, the import graph is rebuilt here from the
sources (module-level *and* function-level imports alike, the package root included) and
must have no cycle.
"""

from __future__ import annotations

import ast
import functools
import os
import subprocess
import sys
from collections import defaultdict
from collections.abc import Iterator
from pathlib import Path

PACKAGE = Path(__file__).resolve().parent.parent / "dpsym"
#: Imports that may stand inside a function: heavy optional dependencies, each written
#: with a comment giving the reason (IPython: half a second, needed only inside a Jupyter
#: kernel, where it is loaded already); the generated derivation cache (loaded when a
#: derivation is first looked up, after its fingerprint is checked); and the two commands
#: of the CLI whose imports no other command needs (the claim registry of `dpsym check`,
#: the main job of `dpsym derive`: a fifth of a second each in every command's start-up).
LAZY_ALLOWED = ("scipy", "matplotlib", "dask", "IPython", "dpsym.symbolic._derived",
                "dpsym.cli.check", "dpsym.derive")


def _modules() -> dict[str, Path]:
    out = {}
    for path in PACKAGE.rglob("*.py"):
        parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
        name = ".".join(parts[:-1] if parts[-1] == "__init__" else parts)
        out[name] = path
    return out


def _targets(module: str, path: Path, node: ast.AST, modules: dict[str, Path]) -> list[str]:
    """The package modules an import statement loads (submodules, else their package)."""
    if isinstance(node, ast.ImportFrom):
        if node.level:
            base = module if path.name == "__init__.py" else module.rsplit(".", 1)[0]
            for _ in range(node.level - 1):
                base = base.rsplit(".", 1)[0]
            base = f"{base}.{node.module}" if node.module else base
        else:
            base = node.module or ""
        names = [f"{base}.{alias.name}" for alias in node.names]
        found = [n if n in modules else base for n in names]
    else:
        found = [alias.name for alias in node.names]
    out = []
    for name in found:
        while name not in modules and "." in name:
            name = name.rsplit(".", 1)[0]
        if name in modules and name != module:
            out.append(name)
    return out


@functools.cache
def _parse(path: Path) -> tuple[str, ast.Module]:
    """The source of ``path`` and its syntax tree (parsed once per test process)."""
    source = path.read_text(encoding="utf-8")
    return source, ast.parse(source)


def _imports(tree: ast.AST) -> Iterator[tuple[ast.Import | ast.ImportFrom, bool]]:
    """Every import statement of ``tree`` with whether it stands inside a function (one
    pass over the tree)."""
    stack: list[tuple[ast.AST, bool]] = [(tree, False)]
    while stack:
        node, in_function = stack.pop()
        if isinstance(node, (ast.Import, ast.ImportFrom)):
            yield node, in_function
        inner = in_function or isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef))
        stack.extend((child, inner) for child in ast.iter_child_nodes(node))


@functools.cache
def _graph() -> tuple[dict[str, set[str]], list[tuple[str, int, str]]]:
    """(imports of every package module, function-level imports as (module, line, text))."""
    modules = _modules()
    edges: dict[str, set[str]] = defaultdict(set)
    lazy = []
    for module, path in modules.items():
        source, tree = _parse(path)
        for node, in_function in _imports(tree):
            edges[module].update(_targets(module, path, node, modules))
            if in_function:
                lazy.append((module, node.lineno, ast.get_source_segment(source, node)))
    return edges, lazy


def _cycles(edges: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components with more than one module (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in edges.get(v, ()):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for v in list(edges):
        if v not in index:
            visit(v)
    return found


def _private_imports(modules: dict[str, Path]) -> list[tuple[str, int, str]]:
    """``from dpsym.x import _name`` and ``dpsym_module._name`` across modules: (module,
    line, name). The generated derivation cache ``_derived`` is a module, not a name."""
    found = []
    for module, path in modules.items():
        tree = _parse(path)[1]
        imports, attributes = [], []  # one pass over the tree
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom):
                imports.append(node)
            elif isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name):
                attributes.append(node)
        imported = {}
        for node in imports:
            if (node.module or "").startswith("dpsym"):
                for alias in node.names:
                    full = f"{node.module}.{alias.name}"
                    if full in modules:
                        imported[alias.asname or alias.name] = full
                        continue
                    if alias.name.startswith("_") and not alias.name.startswith("__"):
                        found.append((module, node.lineno, full))
        for node in attributes:
            if (node.value.id in imported and node.attr.startswith("_")
                    and not node.attr.startswith("__")):
                found.append((module, node.lineno, f"{imported[node.value.id]}.{node.attr}"))
    return found


def test_no_module_imports_a_private_name_of_another():
    assert _private_imports(_modules()) == []


def test_the_private_import_finder_finds_one(tmp_path):
    (tmp_path / "a.py").write_text("from dpsym.core.params import _secret\n")
    (tmp_path / "b.py").write_text("from dpsym.core import params\nparams._hidden()\n")
    modules = {"dpsym.core.params": PACKAGE / "core" / "params.py",
               "a": tmp_path / "a.py", "b": tmp_path / "b.py"}
    found = {(m, name) for m, _, name in _private_imports(modules)}
    assert {("a", "dpsym.core.params._secret"), ("b", "dpsym.core.params._hidden")} <= found


def test_the_import_graph_has_no_cycle():
    edges, _ = _graph()
    assert _cycles(edges) == []


def test_the_cycle_finder_finds_a_cycle():
    assert _cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]


def test_no_module_imports_the_package_root():
    edges, _ = _graph()
    offenders = sorted(m for m, targets in edges.items() if "dpsym" in targets and m != "dpsym")
    assert offenders == []


def test_function_level_imports_are_heavy_optional_dependencies_only():
    _, lazy = _graph()
    wrong = [(m, line, text) for m, line, text in lazy
             if not any(f"import {name}" in text or f"from {name}" in text
                        or (name == "dpsym.symbolic._derived" and "_derived" in text)
                        for name in LAZY_ALLOWED)]
    assert wrong == []
    for module, line, _ in lazy:  # each with its reason, on the line or just above
        path = _modules()[module]
        lines = path.read_text(encoding="utf-8").splitlines()
        context = "\n".join(lines[max(0, line - 4):line])
        assert "#" in context or "imported lazily" in context, f"{module}:{line}"


def test_import_linter_contracts_are_kept():
    root = PACKAGE.parent
    code = ("import sys; from importlinter.cli import lint_imports; "
            "sys.exit(lint_imports(config_filename=sys.argv[1], no_cache=True))")
    done = subprocess.run([sys.executable, "-c", code, str(root / "pyproject.toml")],
                          cwd=root, capture_output=True, text=True, timeout=300,
                          env={**os.environ, "PYTHONPATH": str(root)})
    assert done.returncode == 0, done.stdout[-4000:] + done.stderr[-2000:]
    assert "0 broken" in done.stdout


def test_the_layers_contract_encodes_the_layering():
    import tomllib

    config = tomllib.loads((PACKAGE.parent / "pyproject.toml").read_text())
    contracts = config["tool"]["importlinter"]["contracts"]
    layers = next(c for c in contracts if c["type"] == "layers")["layers"]
    order = [{m.strip() for part in layer.split("|") for m in part.split(":")}
             for layer in layers]

    def level(module: str) -> int:
        return next(i for i, names in enumerate(order) if module in names)

    assert level("dpsym.cli") < level("dpsym.claims") < level("dpsym.bounds") \
        < level("dpsym.mechanisms") < level("dpsym.privacy") < level("dpsym.certified") \
        < level("dpsym.symbolic") < level("dpsym.core") < level("dpsym.symbols")
    # every module of the package belongs to a layer (a new module must be placed)
    top = {".".join(name.split(".")[:2]) for name in _modules() if name != "dpsym"}
    assert top <= set().union(*order), sorted(top - set().union(*order))


def test_the_layout_pictures_are_current():
    """The README's Layout and the module map of docs/architecture.md are what
    ``tests/layout.py`` renders from the contract and the docstrings."""
    import layout

    assert layout.current(layout.README) == layout.readme_picture(), \
        "run `python tests/layout.py` to regenerate the README's Layout"
    assert layout.current(layout.ARCHITECTURE) == layout.module_map(), \
        "run `python tests/layout.py` to regenerate docs/architecture.md"
    every = {m for layer in layout.layers() for m in layer}
    assert {"dpsym.certified", "dpsym.privacy", "dpsym.cli"} <= every


def test_the_sources_are_ruff_clean():
    """``ruff check`` (the rules of ``pyproject.toml``) passes on the whole tree."""
    root = PACKAGE.parent
    done = subprocess.run([sys.executable, "-m", "ruff", "check", "--no-cache", "dpsym",
                           "tests", "benchmarks", "notebooks", "docs"],
                          cwd=root, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stdout[-4000:] + done.stderr[-2000:]


#: Control characters no source text carries (a ``\v`` or ``\b`` written in a non-raw
#: string and then pasted back as the character it makes: a formula broken invisibly).
CONTROL = {chr(c) for c in range(32)} - {"\n", "\t"}


def _control_characters(root: Path) -> list[str]:
    texts = [path for pattern in ("dpsym/**/*.py", "tests/**/*.py", "notebooks/*.py",
                                  "benchmarks/*.py", "docs/*.md", "docs/_ext/*.py", "*.md")
             for path in root.glob(pattern)]
    return [f"{path.relative_to(root)}:{number}" for path in sorted(texts)
            for number, line in enumerate(path.read_text(encoding="utf-8").split("\n"), 1)
            if CONTROL & set(line)]


def test_no_source_text_carries_a_control_character(tmp_path):
    assert not _control_characters(PACKAGE.parent)
    (tmp_path / "dpsym").mkdir()
    (tmp_path / "dpsym" / "m.py").write_text('r"""e^\x0barepsilon"""\n', encoding="utf-8")
    assert _control_characters(tmp_path) == ["dpsym/m.py:1"]
