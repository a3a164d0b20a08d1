r"""Tests of :mod:`dpsym.mechanisms.dimensional`: the classes of each dimension, pickling,
the costs it defines in :math:`d` dimensions, and the separable costs
:math:`\mathbb{E}\sum_i L(X_i) = d\,\mathbb{E}\,L(X_1)` against direct summation."""

from __future__ import annotations

import pickle

import mpmath
import pytest

from dpsym.errors import DomainError, UnsupportedError
from dpsym.mechanisms.dimensional import DimensionalMechanism
from dpsym.mechanisms.laplace_md import LaplaceMD
from dpsym.mechanisms.lattice_md import DiscreteLaplaceMD
from dpsym.precision import workdps


def test_for_dim_classes():
    assert issubclass(LaplaceMD, DimensionalMechanism)
    assert LaplaceMD.for_dim(LaplaceMD.DIM) is LaplaceMD
    three = LaplaceMD.for_dim(3)
    assert three.DIM == 3 and issubclass(three, LaplaceMD)
    assert LaplaceMD.for_dim(3) is three  # cached
    assert three.for_dim(5) is LaplaceMD.for_dim(5)  # from a variant: the root's variant
    assert three.for_dim(LaplaceMD.DIM) is LaplaceMD
    assert three.__name__ == "LaplaceMD_dim3" and three.__module__ == LaplaceMD.__module__


def test_instances_belong_to_their_dimension():
    m = LaplaceMD(eps=1, Delta=1, dim=4)
    assert type(m) is LaplaceMD.for_dim(4)
    assert m.values["dim"] == 4
    plain = LaplaceMD(eps=1, Delta=1)
    assert type(plain) is LaplaceMD and plain.values["dim"] == LaplaceMD.DIM


def test_pickle_roundtrip():
    m = DiscreteLaplaceMD(eps="1/2", Delta=2, dim=3)
    back = pickle.loads(pickle.dumps(m))
    assert type(back) is type(m) and dict(back.values) == dict(m.values)


@pytest.mark.parametrize("dim", [0, 51, "3/2", "x"])
def test_bad_dimension(dim):
    with pytest.raises(DomainError, match="dim"):
        LaplaceMD.for_dim(dim)


def discrete_laplace_moment(lam, f):
    norm = (1 - lam) / (1 + lam)
    return norm * (f(0) + 2 * mpmath.nsum(lambda i: f(i) * lam**i, [1, mpmath.inf]))


@pytest.mark.parametrize("dim", [1, 3, 7])
def test_separable_cost_is_d_times_one_coordinate(dim):
    m = DiscreteLaplaceMD(eps=1, Delta=2, dim=dim)
    one = m._one_dimensional_instance()
    assert dict(one.values) == {"eps": 1, "Delta": 2}
    got = m.value("cost", "x**2 + abs(x)", 20)
    with workdps(40):
        lam = mpmath.exp(-mpmath.mpf(1) / 2)
        ref = dim * discrete_laplace_moment(lam, lambda i: i * i + abs(i))
        assert abs(mpmath.mpf(got.text) - ref) <= mpmath.mpf(10) ** -18 * ref
        lo, hi = (mpmath.mpf(t) for t in got.enclosure)
        assert lo <= ref <= hi


def test_amplitude_and_power_in_d_dimensions():
    m = DiscreteLaplaceMD(eps=1, Delta=1, dim=3)
    with workdps(40):
        lam = mpmath.exp(-1)
        for cost, f in (("amplitude", abs), ("power", lambda i: i * i)):
            ref = 3 * discrete_laplace_moment(lam, f)
            got = mpmath.mpf(m.value("cost", cost, 20).text)
            assert abs(got - ref) <= mpmath.mpf(10) ** -18 * ref


def test_undefined_costs_and_privacy():
    m = LaplaceMD(eps=1, Delta=1, dim=3)
    with pytest.raises(UnsupportedError, match="not defined in 3 dimensions"):
        m.value("cost", "moment:3", 10)
    with pytest.raises(UnsupportedError, match="no certified privacy profile"):
        m.privacy_profile(1)
    with pytest.raises(UnsupportedError, match="no certified privacy check"):
        m.is_private(1)
    assert isinstance(UnsupportedError("x"), ValueError)
