"""Tests of :mod:`dpsym.mechanisms.base`: a mechanism's public face is exactly what the
documentation lists.

A mechanism is composed of its parameters, its noise description and its engine services
(:class:`dpsym.mechanisms.base.Engine`, the component ``engine``): the derivation steps
are the component's, not names of the mechanism. The documented names are read from the
API page (``docs/api.md``): the ``:members:`` of each ``autoclass`` directive (a bare
``:members:`` stands for every public name the class defines itself) and the
``Attributes`` sections of the docstrings of the classes it renders. Every class of the
registries of mechanisms and bounds must have no other public name, so that a new public
name without documentation fails here.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

import dpsym
from dpsym.bounds import BOUNDS
from dpsym.mechanisms import MECHANISMS
from dpsym.mechanisms.base import Engine, Mechanism
from dpsym.mechanisms.staircase import Staircase

API = Path(__file__).resolve().parents[2] / "docs" / "api.md"
_DIRECTIVE = re.compile(r"^\.\. autoclass:: (\S+)\n((?:   :[^\n]*\n)*)", re.M)


def _resolve(name: str) -> type:
    """The class an ``autoclass`` directive names (``currentmodule`` is ``dpsym``)."""
    if "." not in name:
        return getattr(dpsym, name)
    module, _, attr = name.rpartition(".")
    return getattr(__import__(module, fromlist=[attr]), attr)


def _public(cls: type) -> set[str]:
    return {n for n in dir(cls) if not n.startswith("_")}


def _attributes(cls: type) -> set[str]:
    """The names of the numpydoc ``Attributes`` section of ``cls``'s docstring."""
    doc = cls.__doc__ or ""
    found = re.search(r"\n\s*Attributes\n\s*-+\n(.*?)(?:\n\s*\n\s*[A-Z][a-z]+\n\s*-+\n|\Z)",
                      doc, re.S)
    if found is None:
        return set()
    return set(re.findall(r"^\s{4}(\w+) :", found.group(1), re.M))


def documented(text: str) -> dict[type, set[str]]:
    """Per class rendered by an ``autoclass`` directive of ``text``: the names the page
    lists for it (its ``:members:`` and its docstring's attributes)."""
    out: dict[type, set[str]] = {}
    for name, options in _DIRECTIVE.findall(text):
        cls = _resolve(name)
        if not isinstance(cls, type):  # an alias (Exact)
            continue
        names = _attributes(cls)
        for option in options.splitlines():
            key, _, value = option.strip().partition(" ")
            if key == ":members:":
                listed = {n.strip() for n in value.split(",") if n.strip()}
                names |= listed or {n for n in vars(cls) if not n.startswith("_")}
        out[cls] = out.get(cls, set()) | names
    return out


def undocumented(cls: type, docs: dict[type, set[str]]) -> set[str]:
    """The public names of ``cls`` that the page lists for neither it nor a base class."""
    listed = set().union(*(docs.get(base, set()) for base in cls.__mro__))
    return _public(cls) - listed


@pytest.fixture(scope="module")
def docs() -> dict[type, set[str]]:
    return documented(API.read_text(encoding="utf-8"))


@pytest.mark.parametrize("cls", [*MECHANISMS.values(), *BOUNDS.values()],
                         ids=[*MECHANISMS, *BOUNDS])
def test_the_public_names_are_the_documented_ones(cls, docs):
    assert undocumented(cls, docs) == set()


@pytest.mark.parametrize("cls", MECHANISMS.values(), ids=list(MECHANISMS))
def test_every_mechanism_has_the_documented_contract(cls, docs):
    assert docs[Mechanism] - _attributes(Mechanism) <= _public(cls)
    assert docs[dpsym.Distribution] <= _public(cls)


def test_a_name_added_without_documentation_is_found(docs):
    class Louder(Staircase):
        name = "louder-staircase"

        def shout(self) -> str:
            return "!"

        noise_shape = Staircase.engine.noise_shape  # an engine step put back on the face

    assert undocumented(Louder, docs) == {"shout", "noise_shape"}
    text = API.read_text(encoding="utf-8")
    dropped = text.replace("   :members: scale\n\n.. autoclass:: ClassicGaussian",
                           "\n.. autoclass:: ClassicGaussian")
    assert dropped != text
    assert "scale" in undocumented(dpsym.TruncatedLaplace, documented(dropped))


def test_the_staircase_face_is_small(docs):
    # the contract, the scipy face and the declaration; no engine internals
    assert {"noise_shape", "calibration", "conditions", "slope_function", "derived_form",
            "check_free", "require", "substitution", "validate", "pending",
            "checks"} & _public(Staircase) == set()
    assert isinstance(Staircase.engine, Engine) and Staircase.engine.mechanism is Staircase


def test_each_family_has_its_own_engine():
    engines = {cls.engine for cls in MECHANISMS.values()}
    assert len(engines) == len(MECHANISMS)
    assert MECHANISMS["staircase-md"].for_dim(3).engine.mechanism.DIM == 3
