"""Shared pytest fixtures."""

from __future__ import annotations

import numpy as np
import pytest

#: The seed of every random stream in the test-suite.
SEED = 20_240_611


@pytest.fixture
def rng() -> np.random.Generator:
    """A freshly seeded random generator (the same stream in every test)."""
    return np.random.default_rng(SEED)
