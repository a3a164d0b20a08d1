"""Execute the proof-check notebooks (``notebooks/*.py``, jupytext percent format).

Every notebook runs top to bottom once per suite: in a Jupyter kernel as the documentation
build runs it (myst-nb, ``tests/test_docs.py``, a test per notebook, where a cell that
raises fails the test), or here when the documentation tools are not installed. Here,
notebooks run as plain scripts with IPython made unimportable (what ``pip install .``
without the ``notebooks`` extra gives), working directory ``notebooks/`` and this checkout's
``dpsym`` first on ``PYTHONPATH``: any error (a failed ``assert`` included) fails the test,
formulas come out as LaTeX text and figures as PNG files (:mod:`dpsym.notebook`). The
notebooks are the text source of truth: a committed ``.ipynb`` must carry no outputs.
"""

from __future__ import annotations

import importlib.util
import os
import subprocess
import sys
from pathlib import Path

import pytest

from dpsym.notebook import in_jupyter, show
from dpsym.symbols import Delta, eps

pytestmark = pytest.mark.skipif(
    any(importlib.util.find_spec(name) is None for name in ("jupytext", "nbformat")),
    reason="jupytext and nbformat are not installed (pip install '.[notebooks]')")

ROOT = Path(__file__).resolve().parent.parent
NOTEBOOKS_DIR = ROOT / "notebooks"
NOTEBOOKS = sorted(NOTEBOOKS_DIR.glob("*.py"))
#: Whether this suite builds the documentation (``tests/test_docs.py``), which executes
#: every notebook in a Jupyter kernel (a test each) and fails on any cell that raises.
DOCS_BUILD = all(importlib.util.find_spec(name) is not None for name in (
    "sphinx", "myst_nb", "jupytext", "sphinx_book_theme", "sphinx_copybutton"))
#: The notebooks run here as plain scripts: every one when the documentation is not built;
#: otherwise (each notebook already runs once, in the kernel) those whose plain-text path
#: shows something of its own -- formulas and figures (``laplace``, :data:`SCRIPT_OUTPUT`),
#: verdict badges as text (``proofs_004``), a selection table (``optimal_zero_delta``).
#: Each runs once here, in :func:`test_notebook_runs_as_a_script_without_ipython`.
SCRIPTED = NOTEBOOKS if not DOCS_BUILD else [
    p for p in NOTEBOOKS if p.stem in {"laplace", "proofs_004", "optimal_zero_delta"}]
#: What a notebook's plain-script run must print (whole lines) and the figures it must save.
SCRIPT_OUTPUT: dict[str, tuple[list[str], list[str]]] = {
    "laplace": ([r"\mathbb{E}|X|^2 = \frac{2 \Delta^{2}}{\varepsilon^{2}}"],
                ["laplace-1.png", "laplace-2.png"]),
}


def test_notebooks_found() -> None:
    assert NOTEBOOKS, f"no notebooks in {NOTEBOOKS_DIR}"


def test_no_committed_outputs() -> None:
    """Any ``.ipynb`` under ``notebooks/`` (a paired copy) must have no outputs."""
    paths = [path for path in sorted(NOTEBOOKS_DIR.rglob("*.ipynb"))
             if ".ipynb_checkpoints" not in path.parts]
    if not paths:
        return
    import nbformat  # (imported where a notebook is read: two seconds, jsonschema's formats)
    for path in paths:
        notebook = nbformat.read(path, as_version=4)
        for cell in notebook.cells:
            if cell.cell_type == "code":
                assert not cell.get("outputs"), f"{path.name}: committed with outputs"
                assert cell.get("execution_count") is None, f"{path.name}: execution counts"


#: Runs the script ``sys.argv[1]`` as ``__main__`` with IPython (and Jupyter's kernel and
#: inline backend) unimportable, then checks that none of them was imported.
WITHOUT_IPYTHON = """
import importlib.abc, runpy, sys
BLOCKED = {"IPython", "ipykernel", "matplotlib_inline"}
class NoIPython(importlib.abc.MetaPathFinder):
    def find_spec(self, name, path=None, target=None):
        if name.split(".")[0] in BLOCKED:
            raise ModuleNotFoundError(f"No module named {name!r} (blocked)", name=name)
        return None
sys.meta_path.insert(0, NoIPython())
sys.argv = sys.argv[1:]
runpy.run_path(sys.argv[0], run_name="__main__")
assert not BLOCKED & {name.split(".")[0] for name in sys.modules}
"""


def _run_without_ipython(name: str, figures: Path) -> subprocess.CompletedProcess:
    env = {**os.environ, "DPSYM_FIGURES": str(figures), "PYTHONPATH": os.pathsep.join(
        filter(None, [str(ROOT), os.environ.get("PYTHONPATH")]))}
    env.pop("MPLBACKEND", None)
    return subprocess.run([sys.executable, "-c", WITHOUT_IPYTHON, name],
                          cwd=NOTEBOOKS_DIR, env=env, capture_output=True, text=True,
                          timeout=900)


@pytest.mark.parametrize("path", SCRIPTED, ids=[p.stem for p in SCRIPTED])
def test_notebook_runs_as_a_script_without_ipython(path: Path, tmp_path: Path) -> None:
    """``python notebooks/<name>.py`` with IPython unimportable (``pip install .``): every
    cell's assertions pass, formulas print as LaTeX text (never an object's repr), figures
    are saved as PNG files outside the checkout. (In a Jupyter kernel every notebook is
    executed as the documentation build executes it, ``tests/test_docs.py``, where a cell
    that raises fails that notebook's test.) For the notebooks of :data:`SCRIPT_OUTPUT`,
    the given lines are printed and exactly the given figures saved."""
    proc = _run_without_ipython(path.name, tmp_path)
    assert proc.returncode == 0, f"{path.name}:\n{proc.stderr[-3000:]}"
    for junk in ("IPython", "object at 0x", "np.float64(", "<Figure size"):
        assert junk not in proc.stdout, (path.name, junk)
    lines = proc.stdout.splitlines()
    for figure in tmp_path.glob("*.png"):
        assert figure.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
        assert f"[figure saved to {figure}]" in lines
    assert list(NOTEBOOKS_DIR.glob("*.png")) == []  # nothing written into the checkout
    if path.stem in SCRIPT_OUTPUT:
        printed, figures = SCRIPT_OUTPUT[path.stem]
        for line in printed:
            assert line in lines, (path.name, line)
        assert sorted(p.name for p in tmp_path.glob("*.png")) == figures


def test_script_output_names_scripted_notebooks() -> None:
    """Every notebook with an expected plain-script output is one that runs here."""
    assert set(SCRIPT_OUTPUT) <= {p.stem for p in SCRIPTED}


def test_show_prints_latex_text_outside_jupyter(capsys: pytest.CaptureFixture[str]) -> None:
    assert not in_jupyter()
    show(r"\mathbb{E}|X|", Delta / eps)
    assert capsys.readouterr().out == "\\mathbb{E}|X| = \\frac{\\Delta}{\\varepsilon}\n"


def test_saving_from_jupyter_keeps_the_files_as_committed() -> None:
    """With ``notebooks/jupytext.toml``, a notebook opened, run and saved in Jupyter (kernel
    metadata, version stamps, cell metadata and outputs added) is written back byte for
    byte as committed."""
    import jupytext
    import nbformat

    config = jupytext.config.load_jupytext_configuration_file(
        str(NOTEBOOKS_DIR / "jupytext.toml"))
    for path in NOTEBOOKS:
        text = path.read_text(encoding="utf-8")
        notebook = jupytext.reads(text, fmt="py:percent")
        notebook.metadata["language_info"] = {"name": "python", "version": "3.11"}
        notebook.metadata["jupytext"]["text_representation"].update(
            format_version="1.3", jupytext_version=jupytext.__version__)
        for cell in notebook.cells:
            if cell.cell_type == "code":
                cell.metadata["execution"] = {"iopub.status.idle": "2026-01-01T00:00:00Z"}
                cell.outputs = [nbformat.v4.new_output("stream", text="out\n")]
                cell.execution_count = 1
        assert jupytext.writes(notebook, fmt="py:percent", config=config) == text, path.name
