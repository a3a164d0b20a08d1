"""Tests of :mod:`dpsym.reports.audit` against closed forms computed here from the densities."""

from __future__ import annotations

import json
from fractions import Fraction

import mpmath
import pytest

from dpsym.errors import DomainError
from dpsym.gaussian.calibration import calibrate_sigma_mp
from dpsym.precision import workdps
from dpsym.reports.audit import AUDITED, audit


def mp(text: str) -> mpmath.mpf:
    return mpmath.mpf(text)


def test_gaussian_round_trip():
    """The certified analytic sigma achieves delta; rounding it down breaks the target."""
    _, text = calibrate_sigma_mp("1", "1e-12", 1, 40)
    result = audit("analytic-gaussian", eps="1", delta="1e-12", sigma=text, digits=25)
    with mpmath.workdps(40):
        assert abs(mp(result.text) - mp("1e-12")) < mp("1e-35")
    low = audit("analytic-gaussian", eps="1", delta="1e-12", sigma="3.5", digits=10)
    assert low.met is False and mp(low.text) > mp("1e-12")
    assert result.as_dict()["delta"] == result.text


@pytest.mark.parametrize("scale, e, sens", [("2", "0.4", "1"), ("0.5", "1", "0.75"),
                                            ("3", "0.1", "2")])
def test_laplace_closed_form(scale, e, sens):
    """delta(eps) = max(0, 1 - exp((eps - Delta/scale)/2)) for Laplace noise."""
    result = audit("laplace", eps=e, Delta=sens, scale=scale, digits=30)
    with mpmath.workdps(50):
        expected = max(mpmath.mpf(0),
                       1 - mpmath.exp((mp(e) - mp(sens) / mp(scale)) / 2))
        assert abs(mp(result.text) - expected) <= mp("1e-29") * max(expected, 1e-300)


def test_truncated_laplace_last_interval():
    """At eps = Delta/scale the profile is the mass of the last interval of length Delta."""
    result = audit("truncated-laplace", eps="1", Delta="1", scale="1", bound="5",
                   delta="0.01", digits=30)
    with mpmath.workdps(50):
        mass = (mpmath.exp(-4) - mpmath.exp(-5)) / (2 * (1 - mpmath.exp(-5)))
        assert abs(mp(result.text) - mass) < mp("1e-29") * mass
    assert result.met is True


def test_staircase_is_exactly_private_at_its_eps():
    assert audit("staircase", eps="1", eps0="1", gamma="0.3", digits=10).text == "0"
    assert mp(audit("staircase", eps="0.9", eps0="1", gamma="0.3", digits=10).text) > 0


@pytest.mark.parametrize("kwargs, name", [
    ({"mechanism": "nope", "eps": "1"}, "mechanism"),
    ({"mechanism": "laplace", "eps": "1"}, "scale"),
    ({"mechanism": "laplace", "eps": "1", "scale": "-1"}, "scale"),
    ({"mechanism": "laplace", "eps": "nan", "scale": "1"}, "eps"),
    ({"mechanism": "laplace", "eps": "1", "scale": "1", "sigma": "2"}, "sigma"),
    ({"mechanism": "gaussian", "eps": "1", "sigma": "1", "delta": "2"}, "delta"),
    ({"mechanism": "gaussian", "eps": "1", "sigma": "1e999999"}, "sigma"),
    ({"mechanism": "staircase", "eps": "1", "eps0": "1", "gamma": "1.5"}, "gamma"),
    ({"mechanism": "laplace", "eps": "1", "scale": "1", "digits": 0}, "digits"),
])
def test_bad_input(kwargs, name):
    mechanism = kwargs.pop("mechanism")
    with pytest.raises(DomainError, match=name):
        audit(mechanism, **kwargs)


def test_every_audited_mechanism_answers():
    noise = {"sigma": "2", "scale": "1", "bound": "4", "eps0": "1", "gamma": "0.5"}
    for name, needed in AUDITED.items():
        result = audit(name, eps="1", **{k: noise[k] for k in needed})
        assert 0 <= mp(result.text) < 1 and result.eps == Fraction(1)
        # a proven zero is "exact"; every other value an Arb enclosure
        assert result.certificate == ("exact" if result.text == "0" else "enclosure")


def test_a_bound_beyond_the_precision_range_is_refused():
    """--bound 1e300 used to end in OverflowError (and 1e9 in a gmp abort)."""
    from dpsym.reports.audit import audit

    ok = audit("truncated-laplace", "1", scale="1", bound="1e6", digits=10)
    assert ok.text.endswith("e-434295")
    with pytest.raises(DomainError, match="bound: must be at most 1000000 times the scale"):
        audit("truncated-laplace", "1", scale="1", bound="1e300")


# ------------------------------------------------------------------ the scale that is needed
def _up6(x: mpmath.mpf) -> Fraction:
    """``x`` rounded up to 6 significant digits."""
    e = int(mpmath.floor(mpmath.log10(x))) + 1
    return Fraction(int(mpmath.ceil(x * mpmath.mpf(10) ** (6 - e)))) / Fraction(10) ** (6 - e)


@pytest.mark.parametrize(("eps", "target", "scale"), [("1", "0.1", "0.5"), ("0.3", "1e-3", "7"),
                                                      ("2", "0", "0.1")])
def test_needed_laplace_scale_is_the_closed_form_rounded_up(eps, target, scale):
    r"""Laplace: delta(eps) = 1 - exp((eps - Delta/lambda)/2) for eps < Delta/lambda, so the
    least scale meeting delta_t is Delta/(eps - 2 log(1 - delta_t))."""
    result = audit("laplace", eps=eps, delta=target, Delta="1.5", scale=scale, digits=20)
    with mpmath.workdps(40):
        exact = mpmath.mpf("1.5") / (mpmath.mpf(eps) - 2 * mpmath.log1p(-mpmath.mpf(target)))
        assert result.needed.parameter == "scale"
        assert result.needed.value == _up6(exact)
    met = audit("laplace", eps=eps, delta=target, Delta="1.5", digits=20,
                scale=str(result.needed.value))
    assert met.met is True


def test_needed_sigma_is_the_analytic_calibration_rounded_up():
    from dpsym.mechanisms import AnalyticGaussian

    result = audit("analytic-gaussian", eps="0.5", delta="1e-6", sigma="2", digits=15)
    assert result.met is False
    sigma = AnalyticGaussian(eps="0.5", delta="1e-6").value("sigma", digits=30).number
    assert result.needed.value == _up6(sigma)


def test_needed_staircase_eps0_is_tight():
    """The staircase's eps0 <= value meets the target; one unit more in the 6th digit does
    not (the search found the boundary, not merely a safe value)."""
    result = audit("staircase", eps="1", delta="0.01", eps0="2", gamma="0.3", digits=15)
    value = result.needed.value
    assert result.needed.parameter == "eps0" and result.met is False
    assert audit("staircase", eps="1", delta="0.01", eps0=str(value), gamma="0.3").met
    above = value + Fraction(2, 10**5)
    assert not audit("staircase", eps="1", delta="0.01", eps0=str(above), gamma="0.3").met


def test_needed_is_none_with_a_reason_when_no_scale_meets_the_target():
    result = audit("truncated-laplace", eps="1", delta="0.01", scale="1", bound="0.6")
    assert result.needed.value is None and "no scale" in result.needed.reason
    assert audit("gaussian", eps="1", delta="0", sigma="3").needed.value is None


def test_cli_audit_exit_status_gates_on_the_target(capsys):
    from cli_helpers import run

    code, out, err = run(capsys, "audit", "laplace", "--eps", "1", "--delta", "0.1",
                         "--scale", "0.5")
    assert (code, err) == (1, "") and "NOT met" in out and "scale >= 0.825955" in out
    code, out, err = run(capsys, "audit", "laplace", "--eps", "1", "--delta", "0.5",
                         "--scale", "0.5", "--json")
    data = json.loads(out)
    assert (code, data["met"], data["needed_parameter"]) == (0, True, "scale")
    assert Fraction(data["needed"]) <= Fraction(1, 2)
    code, out, _ = run(capsys, "audit", "laplace", "--eps", "1", "--scale", "0.5")
    assert code == 0 and "met" not in out


# ------------------------------------------------------------ the truncated Laplacian's scales
def test_truncated_laplace_scales_form_an_interval_found_whole():
    """eps = 1, bound 2, target 0.2: delta tends to 1 as the scale tends to 0 and to
    Delta/(2A) = 1/4 as it grows, through a minimum, so the meeting scales form
    [0.810823, 1/log(1.5)] (above lambda_0 = 1, delta = 1/(2(e^{1/lambda} + 1))): each end
    rounded inwards meets the target, one unit of the 6th digit outside does not. The old
    search said "no scale up to 1e+300" from scale 5 and "scale >= 0.810823" (false at 3)."""
    for scale, value in (("5", "2.4663"), ("3", "2.4663"), ("1", "0.810823"),
                         ("1e200", "2.4663"), ("0.01", "0.810823")):
        result = audit("truncated-laplace", eps="1", delta="0.2", scale=scale, bound="2")
        (lo, hi), = result.needed.intervals
        assert (lo, hi) == (Fraction("0.810823"), Fraction("2.4663"))
        assert result.needed.value == Fraction(value)
    with workdps(30):
        right = 1 / mpmath.log(mpmath.mpf(3) / 2)
    assert Fraction("2.46630") <= Fraction(mpmath.nstr(right, 20)) < Fraction("2.46631")

    def met(scale):
        return audit("truncated-laplace", eps="1", delta="0.2", scale=scale, bound="2").met

    assert met("0.810823") and met("2.4663") and not met("0.810822") and not met("2.4664")
    assert not met("3")


def test_truncated_laplace_scales_report(capsys):
    from cli_helpers import run

    code, out, _ = run(capsys, "audit", "truncated-laplace", "--eps", "1", "--delta", "0.2",
                       "--scale", "5", "--bound", "2")
    assert code == 1 and "scale in [0.810823, 2.4663] meets the target" in out
    code, out, _ = run(capsys, "audit", "truncated-laplace", "--eps", "1", "--delta", "0.2",
                       "--scale", "5", "--bound", "2", "--json")
    data = json.loads(out)
    assert data["needed"] == "2.4663" and data["needed_set"] == [["0.810823", "2.4663"]]
    # a target above Delta/(2A): every large scale meets it, one half-line as before
    result = audit("truncated-laplace", eps="1", delta="0.01", scale="1", bound="100")
    assert result.needed.intervals == ((result.needed.value, None),)
    code, out, _ = run(capsys, "audit", "truncated-laplace", "--eps", "1", "--delta", "0.01",
                       "--scale", "1", "--bound", "100")
    assert f"scale >= {result.as_dict()['needed']} meets the target" in out
