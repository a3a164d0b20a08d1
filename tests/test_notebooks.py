"""Execute the proof-check notebooks (``notebooks/*.py``, jupytext percent format).

Each notebook is converted with jupytext and executed top to bottom with nbclient in a
fresh ``python3`` kernel whose working directory is ``notebooks/``; any cell error (a
failed ``assert`` included) fails the test. The notebooks are the text source of truth:
a committed ``.ipynb`` must carry no outputs.
"""

from __future__ import annotations

import time
from pathlib import Path

import pytest

jupytext = pytest.importorskip("jupytext")
nbclient = pytest.importorskip("nbclient")
nbformat = pytest.importorskip("nbformat")

NOTEBOOKS_DIR = Path(__file__).resolve().parent.parent / "notebooks"
NOTEBOOKS = sorted(NOTEBOOKS_DIR.glob("*.py"))
#: Seconds allowed for one cell.
CELL_TIMEOUT = 300


def test_notebooks_found() -> None:
    assert NOTEBOOKS, f"no notebooks in {NOTEBOOKS_DIR}"


@pytest.mark.parametrize("path", NOTEBOOKS, ids=[p.stem for p in NOTEBOOKS])
def test_notebook_executes(path: Path) -> None:
    notebook = jupytext.read(path)
    assert any(cell.cell_type == "code" for cell in notebook.cells)
    client = nbclient.NotebookClient(
        notebook,
        kernel_name="python3",
        timeout=CELL_TIMEOUT,
        resources={"metadata": {"path": str(NOTEBOOKS_DIR)}},
    )
    start = time.perf_counter()
    try:
        client.execute()
    except nbclient.exceptions.CellExecutionError as exc:
        pytest.fail(f"{path.name}: a cell failed\n{exc}", pytrace=False)
    elapsed = time.perf_counter() - start
    errors = [out for cell in notebook.cells if cell.cell_type == "code"
              for out in cell.get("outputs", []) if out.get("output_type") == "error"]
    assert not errors, f"{path.name}: {errors[0].get('ename')}: {errors[0].get('evalue')}"
    print(f"{path.name}: executed in {elapsed:.1f} s")


def test_no_committed_outputs() -> None:
    """Any ``.ipynb`` under ``notebooks/`` (a paired copy) must have no outputs."""
    for path in sorted(NOTEBOOKS_DIR.rglob("*.ipynb")):
        if ".ipynb_checkpoints" in path.parts:
            continue
        notebook = nbformat.read(path, as_version=4)
        for cell in notebook.cells:
            if cell.cell_type == "code":
                assert not cell.get("outputs"), f"{path.name}: committed with outputs"
                assert cell.get("execution_count") is None, f"{path.name}: execution counts"
