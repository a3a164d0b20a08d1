"""Parameters (:mod:`dpsym.core.params`): exact parsing, domains, the shared catalogue, the
guarantee enum and the :class:`~dpsym.core.params.Parametrised` base class."""

from __future__ import annotations

import pickle
from fractions import Fraction

import pytest
import sympy as sp

from dpsym.core.params import (
    DIM_MAX,
    EPS_MAX,
    Derived,
    Domain,
    FreeParameter,
    Guarantee,
    Param,
    Parametrised,
    check_quantity,
    delta_param,
    dim_param,
    eps_param,
    parse_number,
    require,
    sensitivity_param,
    substitution,
)
from dpsym.errors import DomainError
from dpsym.symbols import Delta, delta, eps, gamma


@pytest.mark.parametrize(("text", "value"), [
    ("2", Fraction(2)), ("-0.5", Fraction(-1, 2)), ("1e-6", Fraction(1, 10**6)),
    (" 0.1 ", Fraction(1, 10)), (".5", Fraction(1, 2)), ("3.", Fraction(3)),
    (7, Fraction(7)), (Fraction(1, 3), Fraction(1, 3)), (sp.Rational(2, 7), Fraction(2, 7)),
    (0.1, Fraction(1, 10)),  # a float means the decimal it prints as
])
def test_parse_number_is_exact(text, value):
    assert parse_number(text, "x") == value


@pytest.mark.parametrize("text", ["nan", "inf", "1/0", "0x10", "1e", "", "--1", "1e99999",
                                  float("nan"), float("inf"), True, None, [1]])
def test_parse_number_refuses_what_is_not_a_finite_decimal(text):
    with pytest.raises(DomainError) as err:
        parse_number(text, "eps")
    assert str(err.value).startswith("eps: ")


def test_domains_and_their_descriptions():
    open_unit = Domain(lower=Fraction(0), upper=Fraction(1))
    assert Fraction(1, 2) in open_unit and Fraction(0) not in open_unit
    assert Fraction(1) not in open_unit and open_unit.describe() == "(0, 1)"
    ints = Domain(lower=Fraction(1), lower_open=False, integer=True, upper=Fraction(64),
                  upper_open=False)
    assert Fraction(64) in ints and Fraction(3, 2) not in ints and Fraction(65) not in ints
    assert ints.describe() == "an integer >= 1 and <= 64"
    assert Domain().describe() == "(-inf, inf)"


def test_the_catalogue():
    e = eps_param()
    assert e.symbol is eps and e.domain.upper == EPS_MAX and not e.domain.upper_open
    with pytest.raises(DomainError, match=r"eps: must be in \(0, 1e\+?100\]|eps: must be in"):
        e.validate("0")
    assert eps_param(zero=True).validate("0") == 0
    assert eps_param(upper=Fraction(10) ** 6).validate("1e6") == 10**6
    with pytest.raises(DomainError):
        eps_param(upper=Fraction(10) ** 6).validate("1000001")
    half = delta_param(Fraction(1, 2))
    assert half.symbol is delta and half.validate("0.49") == Fraction(49, 100)
    for bad in ("0.5", "0", "-1e-3"):
        with pytest.raises(DomainError, match="delta"):
            half.validate(bad)
    assert delta_param(zero=True).validate("0") == 0
    s = sensitivity_param()
    assert s.symbol is Delta and s.default == "1" and s.validate("0.25") == Fraction(1, 4)
    si = sensitivity_param(integer=True, upper=64)
    with pytest.raises(DomainError, match="an integer >= 1 and <= 64"):
        si.validate("1.5")
    assert dim_param().validate(DIM_MAX) == DIM_MAX
    with pytest.raises(DomainError):
        dim_param().validate(DIM_MAX + 1)


def test_guarantee_is_a_string_enum():
    assert Guarantee.PURE == "eps" and Guarantee.APPROXIMATE == "eps,delta"
    assert Guarantee("0,delta") is Guarantee.ZERO_EPS
    assert [g.label for g in Guarantee] == ["eps-DP", "(eps,delta)-DP", "(0,delta)-DP"]
    with pytest.raises(ValueError):
        Guarantee("delta")


class _Toy(Parametrised):
    name = "toy"
    title = "a toy family"
    params = (eps_param(), delta_param(Fraction(1, 2)), sensitivity_param())
    free = FreeParameter("gamma", gamma, 0, 1)
    derived = (Derived("A", sp.Symbol("A", positive=True), "a derived parameter"),)

    @classmethod
    def _check_joint(cls, values):
        if "eps" in values and "delta" in values and values["eps"] * values["delta"] > 1:
            raise DomainError("eps, delta", "eps * delta must be at most 1")


def test_parametrised_validates_and_freezes_its_values():
    t = _Toy(eps="0.5", delta="0.1")
    assert dict(t.values) == {"eps": Fraction(1, 2), "delta": Fraction(1, 10),
                              "Delta": Fraction(1)}
    assert substitution(t) == {eps: sp.Rational(1, 2), delta: sp.Rational(1, 10),
                              Delta: sp.Integer(1)}
    assert repr(t) == "_Toy(eps='1/2', delta='1/10', Delta='1')"
    with pytest.raises(TypeError):
        t.values["eps"] = Fraction(1)  # read-only
    with pytest.raises(DomainError, match="beta: is not a parameter of toy"):
        _Toy(beta=1)
    assert _Toy(gamma="1/2").free_given == Fraction(1, 2)  # the free parameter, fixed
    with pytest.raises(DomainError, match="eps, delta"):
        _Toy(eps="100", delta="0.1")
    with pytest.raises(DomainError, match=r"delta: a value is required, in \(0, 0.5\)"):
        require(_Toy(eps=1), "delta")
    again = pickle.loads(pickle.dumps(t))
    assert dict(again.values) == dict(t.values)


def test_parametrised_quantities():
    assert _Toy.quantities() == ("cost", "gamma", "A")
    assert check_quantity(_Toy, "A") == "A"
    with pytest.raises(DomainError, match="valid: cost, gamma, A"):
        check_quantity(_Toy, "B")
    assert [p["name"] for p in _Toy.describe_params()] == ["eps", "delta", "Delta"]


def test_a_param_names_itself_in_its_errors():
    p = Param("x", sp.Symbol("x"), Domain(lower=Fraction(0)), "a thing", ("1", "2"))
    with pytest.raises(DomainError) as err:
        p.validate("-1")
    assert str(err.value) == "x: must be in (0, inf), got -1"


def test_fractions_and_long_numbers():
    assert parse_number("1/3", "eps") == Fraction(1, 3)
    assert parse_number(" -2/4 ", "eps") == Fraction(-1, 2)
    assert parse_number("1/2/3", "eps") == Fraction(1, 6)  # the expression grammar
    for bad, needle in (("1/0", "q > 0"), ("1/2/", "unexpected end"), ("1.5/", "end"),
                        ("9" * 5000, "at most 4000 digits"),
                        ("1/" + "3" * 5000, "at most 4000 digits")):
        with pytest.raises(DomainError, match=needle):
            parse_number(bad, "eps")
    assert parse_number("0." + "0" * 3000 + "1", "eps") == Fraction(1, 10**3001)
    assert eps_param().validate("1/3") == Fraction(1, 3)
