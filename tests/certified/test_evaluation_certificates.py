"""What proves each printed number (:attr:`dpsym.certified.evaluation.Value.certificate`) and the
range shown for it (:attr:`~dpsym.certified.evaluation.Value.enclosure`), through the API and every
``--json`` output.

References are computed here from the definitions (exact rationals, or mpmath sums and
roots at a precision well above the one asked for), never read from the engine.
"""

from __future__ import annotations

import pickle
from fractions import Fraction

import mpmath
import pytest
from cli_helpers import run_json

from dpsym.certified.evaluation import CERTIFICATES, Value
from dpsym.mechanisms import Laplace, Staircase


def _staircase_cost(e: mpmath.mpf, D: mpmath.mpf, power: int):
    r"""E|X|^power of the staircase at step fraction g, from its density: a b^k on
    [k, k + g) Delta, a b^{k+1} on [k + g, k + 1) Delta, summed over periods (nsum)."""
    bb = mpmath.exp(-e)

    def cost(g):
        a = (1 - bb) / (2 * D * (g + bb * (1 - g)))
        q = power + 1

        def period(k):
            return (a * ((k + g) ** q - k**q) + a * bb * ((k + 1) ** q - (k + g) ** q)) \
                * D**q / q * bb**k
        return 2 * mpmath.nsum(period, [0, mpmath.inf])
    return cost


def test_an_exact_rational_is_exact_and_its_enclosure_is_the_value():
    # Laplace noise of scale Delta/eps: E|X| = Delta/eps = 2 exactly at eps = 1/2
    want = Fraction(1) / Fraction(1, 2)
    v = Laplace(eps="1/2").value("cost", "amplitude", 25)
    assert v.certificate == "exact"
    assert v.enclosure == (str(want), str(want))
    third = Laplace(eps="3").value("cost", "amplitude", 12)  # 1/3: no terminating decimal
    lo, hi = (Fraction(t) for t in third.enclosure)
    assert third.certificate == "exact" and lo < Fraction(1, 3) < hi
    assert hi - lo <= Fraction(1, 10**12)


def test_a_closed_form_is_an_enclosure_containing_the_definition():
    digits = 30
    with mpmath.workdps(70):
        cost = _staircase_cost(mpmath.mpf("0.5"), mpmath.mpf(2), 2)
        g = mpmath.findroot(lambda t: mpmath.diff(cost, t), 0.4)
        want = cost(g)
    v = Staircase(eps="0.5", Delta=2).value("cost", "power", digits)
    assert v.certificate == "enclosure"
    with mpmath.workdps(70):
        lo, hi = (mpmath.mpf(t) for t in v.enclosure)
        assert lo <= want <= hi and lo < hi
        assert hi - lo < mpmath.mpf(10) ** -digits * want  # narrower than the last digit


def test_the_two_precision_path_says_agreement_and_shows_both_values():
    v = Staircase(eps=1).value("gamma", "moment:3", 20, method="mpmath")
    assert v.certificate == "agreement"
    with mpmath.workdps(60):
        lo, hi = (mpmath.mpf(t) for t in v.enclosure)
        assert lo <= hi and v.enclosure[0] != v.enclosure[1]
        assert all(mpmath.nstr(x, 20, strip_zeros=False) == v.text for x in (lo, hi))


@pytest.mark.parametrize("make", [
    lambda: Laplace(eps="1/2").value("cost", "amplitude", 10),
    lambda: Staircase(eps="0.5").value("cost", "power", 10),
    lambda: Staircase(eps=1).value("gamma", "moment:3", 10, method="mpmath"),
])
def test_pickling_keeps_the_certificate_and_the_enclosure(make):
    v = make()
    w = pickle.loads(pickle.dumps(v))
    assert (w.certificate, w.enclosure, w.text) == (v.certificate, v.enclosure, v.text)
    assert w.certificate in CERTIFICATES


def test_an_unknown_certificate_is_refused():
    with pytest.raises(ValueError, match="certificate"):
        Value(mpmath.mpf(1), "1", 1, certificate="proof")


def test_value_json_says_what_each_number_is(capsys):
    record = run_json(capsys, "value", "laplace", "--eps", "1/2", "--digits", "8")
    assert record["certificate"] == "exact" and record["enclosure"] == ["2", "2"]
    record = run_json(capsys, "value", "staircase", "--eps", "1", "--cost", "power")
    assert record["certificate"] == "enclosure"
    with mpmath.workdps(60):
        lo, hi = (mpmath.mpf(t) for t in record["enclosure"])
        assert lo < hi
        assert {mpmath.nstr(x, 30, strip_zeros=False) for x in (lo, hi)} == {record["value"]}


def test_compare_audit_and_sweep_json_carry_certificates(capsys):
    record = run_json(capsys, "compare", "--eps", "1", "--digits", "10")
    assert record["rows"]
    for row in record["rows"]:
        assert row["certificate"] in CERTIFICATES
        lo, hi = (mpmath.mpf(t) for t in row["enclosure"])
        assert lo <= hi
    record = run_json(capsys, "audit", "laplace", "--scale", "1", "--eps", "1")
    assert record["certificate"] in CERTIFICATES and len(record["enclosure"]) == 2
    record = run_json(capsys, "sweep", "laplace", "--param", "eps=1/2,1/4", "--digits", "5",
                      "--workers", "1")
    assert [r["certificate"] for r in record["rows"]] == ["exact", "exact"]
    assert [r["enclosure"] for r in record["rows"]] == [["2", "2"], ["4", "4"]]
