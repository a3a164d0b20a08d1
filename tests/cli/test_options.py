"""Tests of :mod:`dpsym.cli.options`: registries, parameter options, instances, the
symbolic commands' parameters, the integer options, the budget message and the error
messages."""

from __future__ import annotations

import argparse

import pytest
import sympy as sp

from dpsym.bounds import BOUNDS
from dpsym.cli.options import (
    AUDIT_RENAMES,
    OPTION_OF_PARAM,
    CliError,
    UsageError,
    check_symbolic_params,
    domain_message,
    error_message,
    given_params,
    instance,
    is_bound,
    option,
    param_names,
    params_of,
    parse_count,
    parse_order,
    registries,
    request_text,
    specialise,
    structural,
)
from dpsym.errors import DomainError, DpsymError
from dpsym.mechanisms import MECHANISMS
from dpsym.symbolic.regimes import MAX_ORDER


def test_registries_and_bounds():
    mechanisms, bounds = registries()
    assert mechanisms is MECHANISMS and bounds is BOUNDS
    assert all(is_bound(cls) for cls in bounds.values())
    assert not any(is_bound(cls) for cls in mechanisms.values())
    assert not is_bound(object())


def test_options_of_parameters():
    assert OPTION_OF_PARAM == {"eps": "--eps", "delta": "--delta", "Delta": "--sensitivity"}
    assert option("Delta") == "--sensitivity" and option("gamma") == "--gamma"
    assert AUDIT_RENAMES == {"eps": "eps0", "delta": "delta0"}


def test_param_names_and_params_of():
    names = param_names()
    # every entry is listed under each of its parameters, and nowhere else
    for registry in registries():
        for cls in registry.values():
            for prm in cls.params:
                assert cls.name in names[prm.name]
    assert sum(len(v) for v in names.values()) == sum(
        len(cls.params) for registry in registries() for cls in registry.values())
    got = params_of(["laplace", "discrete-uniform"])
    assert [p.name for p in got] == [p.name for p in MECHANISMS["laplace"].params] + \
        [p.name for p in MECHANISMS["discrete-uniform"].params]
    assert params_of([]) == []


def test_given_params():
    ns = argparse.Namespace(command="value", digits="30",
                            **{"param:eps": "1/2", "param:Delta": None, "param:dim": "3"})
    assert given_params(ns) == {"eps": "1/2", "dim": "3"}


def test_instance():
    inst = instance(MECHANISMS["laplace"], {"eps": "1/2", "Delta": "3"})
    assert dict(inst.values) == {"eps": sp.Rational(1, 2), "Delta": 3}
    with pytest.raises(DomainError, match="laplace has no parameter delta") as info:
        instance(MECHANISMS["laplace"], {"eps": "1", "Delta": "1", "delta": "0.1"})
    assert info.value.name == "delta" and "eps (--eps)" in str(info.value)
    with pytest.raises(DomainError, match="a value is required") as info:
        instance(MECHANISMS["laplace"], {"Delta": "1"})
    assert info.value.name == "eps"
    assert dict(instance(MECHANISMS["laplace"], {"eps": "2"}).values)["Delta"] == 1  # default


def test_structural_and_specialise():
    md = MECHANISMS["staircase-md"]
    assert [p.name for p in structural(md)] == ["dim"]
    assert structural(MECHANISMS["laplace"]) == []
    cls, subs, shown = specialise(md, {"dim": "3"})
    assert cls is md.for_dim(3) and subs == {} and shown == {"dim": "3"}
    with pytest.raises(DomainError, match="dim"):
        specialise(md, {"dim": "0"})
    lp = BOUNDS["lp-bound"]
    grid = next(p for p in lp.params if p.name == "grid")
    cls, subs, shown = specialise(lp, {"grid": "4"})
    assert cls is lp and subs == {grid.symbol: 4} and shown["grid"] == "4"


def test_check_symbolic_params():
    md = MECHANISMS["staircase-md"]
    check_symbolic_params("formula", md, {"dim": "3"})
    with pytest.raises(DomainError, match="not used by `dpsym series`") as info:
        check_symbolic_params("series", md, {"eps": "1"})
    assert info.value.name == "eps" and "--dim" in str(info.value)
    with pytest.raises(DomainError, match="laplace has no parameter delta") as info:
        check_symbolic_params("formula", MECHANISMS["laplace"], {"delta": "1"})
    assert "options of `dpsym formula` for laplace: none" in str(info.value)


@pytest.mark.parametrize(("text", "value"), [("0", 0), (" 7 ", 7), ("+3", 3),
                                             (str(MAX_ORDER), MAX_ORDER)])
def test_parse_order(text, value):
    assert parse_order(text) == value


@pytest.mark.parametrize("text", ["-1", str(MAX_ORDER + 1), "2.0", "1e3", "x", "", "٣",
                                  "1234567"])
def test_parse_order_refuses(text):
    with pytest.raises(DomainError, match=r"must be an integer in \[0, ") as info:
        parse_order(text)
    assert info.value.name == "order"


def test_parse_count():
    assert parse_count(" 12", "--workers", 1, 64) == 12
    assert parse_count("+1", "--workers", 1, 64) == 1
    for bad in ("0", "65", "-3", "1.5", "", "١٢", "1" * 10):
        with pytest.raises(CliError, match=r"^--workers: must be an integer in \[1, 64\]"):
            parse_count(bad, "--workers", 1, 64)


def test_request_text():
    ns = argparse.Namespace(command="value", mechanism="staircase", quantity="gamma",
                            cost="moment:1.5", digits="40", **{"param:eps": "0.01"})
    assert request_text(ns) == "staircase gamma (moment:1.5, 40 digits, eps=0.01)"
    ns = argparse.Namespace(command="series", mechanism="laplace", quantity="cost",
                            cost="power", regime="eps->0", order="3")
    assert request_text(ns) == "the series of laplace cost (power, eps->0, order 3)"
    ns = argparse.Namespace(command="compare", eps="1", delta="0", cost="amplitude",
                            digits="15")
    assert request_text(ns) == "the comparison (eps=1, delta=0, amplitude, 15 digits)"
    assert request_text(argparse.Namespace(command="check", claims=None)) == \
        "the claims (all)"
    assert request_text(argparse.Namespace(command="derive")) == "the derivations"
    ns = argparse.Namespace(command="list", mechanism=None, timeout="3", foo="a\nb")
    assert request_text(ns) == "`dpsym list` (foo=a b)"  # one line, no timeout
    long = argparse.Namespace(command="audit", mechanism="x" * 1000, eps="1")
    assert len(request_text(long)) <= 300 and "\n" not in request_text(long)


def test_domain_and_error_messages():
    assert domain_message(DomainError("Delta", "must be > 0")) == \
        "Delta (--sensitivity): must be > 0"
    assert domain_message(DomainError("digits", "too many")) == "--digits: too many"
    assert domain_message(DomainError("dim", "bad")) == "--dim: bad"  # a declared parameter
    assert domain_message(DomainError("unheard", "bad")) == "unheard: bad"
    assert error_message(DomainError("eps", "must be > 0")) == "--eps: must be > 0"
    assert error_message(CliError("--out: nope")) == "--out: nope"
    assert issubclass(UsageError, CliError) and issubclass(CliError, DpsymError)
