"""The derivation cache (:mod:`dpsym.symbolic.cache`) and its generated module
(:mod:`dpsym.symbolic._derived`).

The committed module must be current (its fingerprint that of the sources, its text what
the main job writes now), every entry must rebuild exactly the expression a fresh
derivation gives, and a stale or foreign entry must never be used.
"""

from __future__ import annotations

import pytest
import sympy as sp

from dpsym.mechanisms import MECHANISMS, Staircase
from dpsym.mechanisms.base import Mechanism
from dpsym.reports import cachegen
from dpsym.symbolic import _derived, cache

STALE = "run `dpsym derive` from the checkout to regenerate dpsym/symbolic/_derived.py"


@pytest.fixture(autouse=True)
def _kept_derivations():
    """The process's in-memory derivations as they were before each test, which clears
    them: the tests run after these on the same worker need not derive them again."""
    kept = dict(cache._MEMO)
    yield
    cache._MEMO.clear()
    cache._MEMO.update(kept)


def test_committed_module_is_current():
    assert _derived.FINGERPRINT == cache.fingerprint(), STALE


def test_every_entry_is_the_fresh_derivation():
    values = cachegen.collect()
    assert set(values) == set(_derived.ENTRIES), STALE
    for key, value in values.items():
        rebuilt = _derived.ENTRIES[key]()
        assert rebuilt == value, key
        assert cachegen._python(rebuilt) == cachegen._python(value), key
    assert cachegen.render(values) == cache.MODULE.read_text(encoding="utf-8"), STALE


def test_the_store_covers_the_closed_forms_of_the_registry():
    keys = set(_derived.ENTRIES)
    for cls in MECHANISMS.values():
        for cost in ("amplitude", "power"):
            for quantity in cls.quantities():
                key = cache.entry_key(cls, "closed_form", (quantity, cost))
                assert key in keys, key


def _reset():
    cache._MEMO.clear()
    cache.reload()


def test_a_current_store_is_used_and_a_stale_one_ignored(monkeypatch):
    key = cache.entry_key(Staircase, "optimal_cost", ("power",))
    sentinel = sp.Symbol("sentinel")
    monkeypatch.setitem(_derived.ENTRIES, key, lambda: sentinel)
    monkeypatch.setattr(_derived, "FINGERPRINT", cache.fingerprint())  # current
    try:
        _reset()
        assert Staircase.optimal_cost("power") == sentinel  # taken from the store
        monkeypatch.setattr(_derived, "FINGERPRINT", "stale")
        _reset()
        derived = Staircase.optimal_cost("power")  # derived afresh
        assert derived != sentinel and derived.has(sp.Symbol("b", positive=True))
    finally:
        monkeypatch.undo()
        _reset()
    assert Staircase.optimal_cost("power") != sentinel


def test_a_missing_module_means_an_empty_store(monkeypatch):
    import builtins

    real_import = builtins.__import__

    def no_derived(name, globals=None, locals=None, fromlist=(), level=0):
        if fromlist and "_derived" in fromlist:
            raise ImportError("no generated module")
        return real_import(name, globals, locals, fromlist, level)

    monkeypatch.setattr(builtins, "__import__", no_derived)
    try:
        cache.reload()
        assert cache._store() == {}
    finally:
        monkeypatch.undo()
        _reset()


def test_classes_outside_the_package_never_consult_the_store(monkeypatch):
    class Staircase(Mechanism):  # same qualified name tail as the package's class
        name = "staircase"
        params = ()

        @classmethod
        @cache.derivation
        def optimal_cost(cls, cost):
            return sp.Integer(7)

    key = cache.entry_key(Staircase, "optimal_cost", ("power",))
    monkeypatch.setitem(_derived.ENTRIES, key, lambda: sp.Integer(0))
    try:
        _reset()
        assert Staircase.optimal_cost("power") == 7
    finally:
        monkeypatch.undo()
        _reset()


def test_fresh_derives_without_the_store(monkeypatch):
    key = cache.entry_key(Staircase, "optimal_cost", ("power",))
    monkeypatch.setitem(_derived.ENTRIES, key, lambda: sp.Symbol("sentinel"))
    monkeypatch.setattr(_derived, "FINGERPRINT", cache.fingerprint())
    try:
        _reset()
        with cache.fresh():
            assert Staircase.optimal_cost("power") != sp.Symbol("sentinel")
    finally:
        monkeypatch.undo()
        _reset()


def test_fingerprint_follows_the_inputs_only(tmp_path, monkeypatch):
    names = {p.name for p in cache.inputs()}
    assert "base.py" in names and "optimize.py" in names
    assert "engine.py" in names and "evaluation.py" not in names
    assert not names & {"_derived.py", "sampling.py", "derive.py", "commands.py"}
    # a copy of the package hashes alike; editing an input changes the fingerprint
    import shutil

    original = cache.fingerprint()
    copy = tmp_path / "dpsym"
    shutil.copytree(cache.PACKAGE, copy, ignore=shutil.ignore_patterns("__pycache__"))
    monkeypatch.setattr(cache, "PACKAGE", copy)
    assert cache.fingerprint() == original
    (copy / "derive.py").write_text("# edited\n")
    (copy / "cli").mkdir(exist_ok=True)
    (copy / "cli" / "extra.py").write_text("# a module of a subpackage outside the inputs\n")
    balls = copy / "certified" / "balls.py"
    balls.write_bytes(balls.read_bytes() + b"# edited\n")
    assert cache.fingerprint() == original
    optimize = copy / "symbolic" / "optimize.py"
    optimize.write_bytes(optimize.read_bytes().replace(b"\n", b"\r\n"))  # a Windows
    assert cache.fingerprint() == original                                # checkout hashes alike
    with open(optimize, "a") as fh:
        fh.write("# edited\n")
    assert cache.fingerprint() != original


def test_only_the_checkout_main_job_writes_the_module(tmp_path):
    assert not cachegen.in_checkout(tmp_path)
    expected = (cache.PACKAGE.parent / "pyproject.toml").is_file()
    assert cachegen.in_checkout(cache.PACKAGE.parent / "derivations") == expected


def test_symbolic_arguments_keep_their_assumptions():
    plain, positive = sp.Symbol("p"), sp.Symbol("p", positive=True)
    assert cache._argument_key(plain) != cache._argument_key(positive)
    assert cache._argument_key(sp.Integer(2)) == "2"
    assert cache._argument_key("power") == "power"


def test_an_entry_that_no_longer_rebuilds_is_derived_afresh(monkeypatch):
    key = cache.entry_key(Staircase, "optimal_cost", ("power",))

    def broken():
        raise NameError("a constructor this sympy does not have")

    monkeypatch.setitem(_derived.ENTRIES, key, broken)
    monkeypatch.setattr(_derived, "FINGERPRINT", cache.fingerprint())
    try:
        _reset()
        assert Staircase.optimal_cost("power").has(sp.Symbol("b", positive=True))
    finally:
        monkeypatch.undo()
        _reset()
