"""Shared pytest fixtures."""

from __future__ import annotations

import gc
import os
import sys

import numpy as np
import pytest

# Byte-code caching, Python's default, even where the environment turns it off
# (PYTHONDONTWRITEBYTECODE): otherwise every process the suite starts -- each `dpsym`
# command of the README and CLI tests, each notebook kernel, Sphinx -- compiles dpsym's
# modules from source again, about half a second each. The caches go to ``__pycache__``
# (ignored by git), written atomically, so the two workers may share them.
sys.dont_write_bytecode = False
os.environ.pop("PYTHONDONTWRITEBYTECODE", None)

# sympy's cache of its core operations keeps the last 1000 results of each function by
# default: a worker runs hundreds of symbolic tests on the same few expressions, and with
# room for 100,000 (set before sympy is first imported, and inherited by the processes the
# suite starts: Sphinx, the notebooks' kernels, the CLI) it spends about 4 % less CPU on
# them. The cache returns an equal expression, so no result changes.
os.environ.setdefault("SYMPY_CACHE_SIZE", "100000")

#: The seed of every random stream in the test-suite.
SEED = 20_240_611


@pytest.fixture
def rng() -> np.random.Generator:
    """A freshly seeded random generator (the same stream in every test)."""
    return np.random.default_rng(SEED)


def pytest_collection_finish(session: pytest.Session) -> None:
    """After collection, the objects alive (modules, test items, sympy's and numpy's
    tables) are left out of the garbage collector's full passes, and a young generation
    is collected every 50,000 allocations instead of 700: the symbolic tests allocate
    millions of short-lived expressions, and the default thresholds scan them (and the
    frozen ones) again and again, about 2 % of the suite's CPU. Nothing is leaked: every
    object is still freed by reference counting, cycles by the (rarer) collections."""
    gc.collect()
    gc.freeze()
    gc.set_threshold(50_000, 20, 20)


@pytest.hookimpl(trylast=True)
def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """The tests of an ``xdist_group`` first (in their random order, as the rest): a
    group runs on one worker, and the documentation site's, minutes long, then starts at
    once instead of ending the run late."""
    items.sort(key=lambda item: item.get_closest_marker("xdist_group") is None)
