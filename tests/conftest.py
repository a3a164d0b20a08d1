"""Shared pytest fixtures."""

from __future__ import annotations

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

#: The seed of every random stream in the test-suite.
SEED = 20_240_611


@pytest.fixture
def rng() -> np.random.Generator:
    """A freshly seeded random generator (the same stream in every test)."""
    return np.random.default_rng(SEED)


@pytest.hookimpl(trylast=True)
def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """The tests of an ``xdist_group`` first (in their random order, as the rest): a
    group runs on one worker, and the documentation site's, minutes long, then starts at
    once instead of ending the run late."""
    items.sort(key=lambda item: item.get_closest_marker("xdist_group") is None)
