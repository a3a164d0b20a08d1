"""Tests of :mod:`dpsym.distributions.floatbits`: the order of doubles as integers and the
bisection over them, against ``numpy.nextafter``."""

from __future__ import annotations

import numpy as np
import pytest

from dpsym.distributions.floatbits import STEPS, first_double, key, unkey

SPECIAL = [-np.inf, -1.7976931348623157e308, -1.0, -5e-324, 0.0, 5e-324, 2.2250738585072014e-308,
           0.1, 1.0, 1.7976931348623157e308, np.inf]


def test_key_orders_the_doubles_as_the_reals(rng):
    values = np.unique(np.concatenate([
        np.array(SPECIAL), rng.standard_normal(300) * 10.0 ** rng.integers(-300, 300, 300)]))
    keys = np.array([key(float(v)) for v in values])  # np.unique sorts
    assert np.all(np.diff(keys) > 0)
    # adjacent doubles have adjacent keys
    for v in [0.1, 1.0, -3.5, 5e-324, 1e300]:
        assert key(float(np.nextafter(v, np.inf))) == key(v) + 1
        assert key(float(np.nextafter(v, -np.inf))) == key(v) - 1


def test_key_unkey_roundtrip(rng):
    values = np.array(SPECIAL + list(rng.standard_normal(50) * 1e10))
    keys = np.array([key(float(v)) for v in values], dtype=np.int64)
    assert np.array_equal(unkey(keys), values)
    assert key(-0.0) == key(0.0) == 0
    assert key(5e-324) == 1 and key(-5e-324) == -1


@pytest.mark.parametrize("threshold", [0.1, -2.5, 1e-310, 3e300, -7e-320])
def test_first_double_is_the_threshold(threshold):
    got = first_double(lambda y: y >= threshold, (1,))
    assert got[0] == threshold


def test_first_double_of_sqrt2_is_minimal():
    got = first_double(lambda y: y * y >= 2.0, (3,))
    assert np.all(got == got[0])
    y = got[0]
    assert y * y >= 2.0
    assert np.nextafter(y, -np.inf) ** 2 < 2.0


def test_first_double_elementwise_and_extremes():
    targets = np.array([[-1.0, 0.5], [1e-300, 42.0]])
    got = first_double(lambda y: y >= targets, targets.shape)
    assert np.array_equal(got, targets)
    assert np.all(first_double(lambda y: np.ones(y.shape, bool), (2,)) == -np.inf)
    assert np.all(first_double(lambda y: np.zeros(y.shape, bool), (2,)) == np.inf)


def test_steps_cover_the_doubles():
    # the bisection range has key(inf) - key(-inf) + 1 integers: 2**STEPS exceeds it
    assert 2 ** STEPS > key(np.inf) - key(-np.inf)
