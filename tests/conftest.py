"""Shared pytest fixtures."""

from __future__ import annotations

import collections
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


def _group(item: pytest.Item) -> str | None:
    """The name of the ``xdist_group`` of ``item``, if any."""
    marker = item.get_closest_marker("xdist_group")
    return None if marker is None else str(marker.args[0] if marker.args
                                           else marker.kwargs.get("name", "default"))


def _module(item: pytest.Item) -> str:
    return item.nodeid.split("::")[0]


def pytest_itemcollected(item: pytest.Item) -> None:
    """Under ``--dist loadgroup`` (the README's command) a test outside an explicit
    ``xdist_group`` is put in its module's group, so that a module runs on one worker:
    its module-scoped fixtures and the caches its tests warm (derivations, sympy's) are
    paid once, not on each worker (a tenth of the CPU of the tests outside the
    documentation's, measured)."""
    # (an xdist worker's option ``loadgroup``: the run's ``--dist loadgroup``)
    if getattr(item.config.option, "loadgroup", False) and _group(item) is None:
        item.add_marker(pytest.mark.xdist_group(_module(item)))


@pytest.hookimpl(trylast=True)
def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """The order in which xdist hands the groups to the workers
    (``--no-loadscope-reorder``: the order of their first tests): the explicit groups
    first, the documentation site's (minutes long) at their head, so that they start at
    once instead of ending the run late; then the modules' groups, the most tests first
    (the run ends on modules of few tests, which fill the two workers' ends evenly)."""
    counts = collections.Counter(_module(item) for item in items)

    def rank(item: pytest.Item) -> tuple[int, int]:
        group = _group(item)
        if group is None or group == _module(item):
            return (2, -counts[_module(item)])
        return (0, 0) if group == "docs" else (1, 0)

    items.sort(key=rank)
