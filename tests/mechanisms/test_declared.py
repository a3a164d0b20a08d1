r"""Tests of :mod:`dpsym.mechanisms.declared`: a user's noise through the whole pipeline.

* The catalogue's Laplace, staircase (at a given :math:`\gamma`, and with :math:`\gamma`
  free) and truncated Laplacian declared from scratch, in a TOML file and in Python, give
  byte-identical values, profiles, Rényi divergences and samples (same seed).
* Invalid declarations are refused with one line naming the key and the fault.
* Values of declared noises agree with an independent mpmath quadrature (or summation) to
  every printed digit: the quadrature's value rounds to the printed digits and lies in the
  certified enclosure.
* The samplers of two declared noises pass exact-moment z-tests and a Kolmogorov-Smirnov
  test.

Statistical checks
------------------
Each statistical check is a test at level :data:`ALPHA` :math:`= 10^{-8}`: z-tests of the
empirical mean of :math:`|X|^k` (:math:`k = 1, 2, 4`) against the engine's exact moment
with the exact variance :math:`m_{2k} - m_k^2`, passing when :math:`|z| <`
:data:`Z_CRIT` (the two-sided normal tail at :data:`Z_CRIT` is :data:`ALPHA`), and a
Kolmogorov-Smirnov test against the exact distribution function with the exact
finite-:math:`n` critical value (``scipy.stats.kstwo.isf(ALPHA, n)``). With
:data:`N_CHECKS` :math:`= 8` checks, the probability that a correct sampler fails any of
them is at most :math:`8 \cdot 10^{-8} < 10^{-6}` (union bound; asserted below). The
seeds are fixed, so the outcome is deterministic.
"""

from __future__ import annotations

import json
import math
from decimal import Decimal
from fractions import Fraction
from pathlib import Path

import mpmath
import numpy as np
import pytest
import sympy as sp
from cli_helpers import assert_one_line_error, run
from scipy import stats

from dpsym import Laplace, Staircase, TruncatedLaplace
from dpsym.accounting.composition import component, compose
from dpsym.accounting.renyi import renyi
from dpsym.errors import CertificationError, DomainError, UnsupportedError
from dpsym.mechanisms import MECHANISMS, registered
from dpsym.mechanisms.base import Engine
from dpsym.mechanisms.declared import (
    DeclarationError,
    DeclaredNoise,
    declare_noise,
    load_noise,
    noise_from_mapping,
    validate,
)
from dpsym.reports.selection import compare, compare_inputs
from dpsym.sampling.samplers import cdf

#: Level of each statistical check.
ALPHA = 1e-8
#: Two-sided z threshold at level ALPHA.
Z_CRIT = float(stats.norm.isf(ALPHA / 2))
#: Statistical checks in this module: per sampled noise three z-tests and one KS test.
N_CHECKS = 2 * (3 + 1)
assert N_CHECKS * ALPHA < 1e-6
#: Samples per statistical check.
N = 200_000

# ---------------------------------------------------------------------- declarations
LAPLACE_TOML = """
name = "my-laplace"
normalise = true
params = ["eps", "Delta"]

[[pieces]]
lo = "0"
hi = "oo"
density = "exp(-x/(Delta/eps))"
"""

STAIRCASE_GAMMA_TOML = """
name = "my-staircase"
normalise = true

[params.eps]
[params.Delta]
[params.gamma]
domain = "[0, 1]"

[tail]
period = "Delta"
ratio = "b"
pieces = [["0", "gamma*Delta", "1"], ["gamma*Delta", "Delta", "b"]]
"""

STAIRCASE_FREE = {
    "name": "my-free-staircase", "normalise": True, "params": ["eps", "Delta"],
    "free": {"name": "gamma", "lower": "0", "upper": "1"},
    "tail": {"start": "0", "period": "Delta", "ratio": "b",
             "pieces": [["0", "gamma*Delta", "1"], ["gamma*Delta", "Delta", "b"]]},
}

TRUNCATED_TOML = """
name = "my-truncated-laplace"
normalise = true
guarantee = "eps,delta"

[params.eps]
[params.delta]
upper = "1/2"
[params.Delta]

[derived.A]
mass = ["A - Delta", "A"]
equals = "delta"
description = "truncation point"

[derived.B]
normaliser = true
description = "density at the origin"

[[pieces]]
lo = "0"
hi = "A"
density = "exp(-x/(Delta/eps))"
"""


def _toml(tmp_path: Path, name: str, text: str) -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


@pytest.fixture(scope="module")
def files(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    where = tmp_path_factory.mktemp("noises")
    return {"laplace": _toml(where, "laplace.toml", LAPLACE_TOML),
            "staircase": _toml(where, "staircase.toml", STAIRCASE_GAMMA_TOML),
            "truncated": _toml(where, "truncated.toml", TRUNCATED_TOML),
            "free": _toml(where, "free.json", json.dumps(STAIRCASE_FREE))}


@pytest.fixture(scope="module")
def declared(files: dict[str, Path]) -> dict[str, type[DeclaredNoise]]:
    return {name: load_noise(path) for name, path in files.items()}


# ---------------------------------------------------------------------- byte identity
def _outputs(m, profile_at: str, *, gamma: object = None) -> dict[str, object]:
    """What a mechanism answers: values of every cost, a profile, Rényi divergences,
    samples."""
    out: dict[str, object] = {}
    for cost in ("amplitude", "power", "moment:3/2"):
        out[cost] = m.value("cost", cost, 30).text
    out["profile"] = m.privacy_profile(profile_at, digits=25).text
    for order in (2, "inf"):
        out[f"renyi {order}"] = renyi(m, order, digits=20).text
    out["samples"] = m.sample(np.random.default_rng(7), 2000).tobytes()
    out["cdf"] = np.asarray(m.cdf([0.25, 1.5])).tobytes()
    return out


def test_laplace_declared_from_scratch(declared: dict[str, type[DeclaredNoise]]) -> None:
    ours = declared["laplace"](eps="1/2", Delta=2)
    assert _outputs(ours, "1/4") == _outputs(Laplace(eps="1/2", Delta=2), "1/4")
    assert declared["laplace"].density == Laplace.density  # the very same tree
    python = declare_noise("my-laplace", pieces=[("0", "oo", "exp(-x/(Delta/eps))")],
                           normalise=True, params=["eps", "Delta"])
    assert python.density == Laplace.density


def test_the_same_declarations_in_python(declared: dict[str, type[DeclaredNoise]]) -> None:
    """:func:`declare_noise` with the keys of the files declares the same noises."""
    staircase = declare_noise(
        "my-staircase", normalise=True,
        params={"eps": {}, "Delta": {}, "gamma": {"domain": "[0, 1]"}},
        tail={"period": "Delta", "ratio": "b",
              "pieces": [("0", "gamma*Delta", "1"), ("gamma*Delta", "Delta", "b")]})
    truncated = declare_noise(
        "my-truncated-laplace", normalise=True, guarantee="eps,delta",
        params={"eps": {}, "delta": {"upper": "1/2"}, "Delta": {}},
        derived={"A": {"mass": ["A - Delta", "A"], "equals": "delta",
                       "description": "truncation point"},
                 "B": {"normaliser": True, "description": "density at the origin"}},
        pieces=[("0", "A", "exp(-x/(Delta/eps))")])
    for ours, theirs in ((staircase, declared["staircase"]),
                         (truncated, declared["truncated"])):
        assert ours.density == theirs.density and ours.params == theirs.params
        assert ours.derived == theirs.derived
        assert ours.engine.conditions() == theirs.engine.conditions()
    assert truncated.engine.conditions() == TruncatedLaplace.engine.conditions()


def test_staircase_at_a_given_gamma(declared: dict[str, type[DeclaredNoise]]) -> None:
    ours = declared["staircase"](eps=1, Delta=1, gamma="1/3")
    theirs = Staircase(eps=1, Delta=1, gamma="1/3")
    assert _outputs(ours, "1/2") == _outputs(theirs, "1/2")


def test_staircase_with_free_gamma(declared: dict[str, type[DeclaredNoise]]) -> None:
    cls = declared["free"]
    assert cls.density == Staircase.density and cls.free == Staircase.free
    ours, theirs = cls(eps=2), Staircase(eps=2)
    for cost in ("amplitude", "power"):
        assert ours.value("gamma", cost, 40).text == theirs.value("gamma", cost, 40).text
        assert ours.value("cost", cost, 40).text == theirs.value("cost", cost, 40).text
    assert ours.sample(np.random.default_rng(3), 500, "power").tobytes() == \
        theirs.sample(np.random.default_rng(3), 500, "power").tobytes()


def test_truncated_laplacian_declared_from_scratch(
        declared: dict[str, type[DeclaredNoise]]) -> None:
    cls = declared["truncated"]
    assert cls.quantities() == TruncatedLaplace.quantities()
    assert cls.engine.calibration() == TruncatedLaplace.engine.calibration()
    ours, theirs = cls(eps=1, delta="0.05"), TruncatedLaplace(eps=1, delta="0.05")
    for quantity in ("A", "B"):
        assert ours.value(quantity, digits=30).text == theirs.value(quantity, digits=30).text
    assert _outputs(ours, "1/2") == _outputs(theirs, "1/2")


def test_the_command_line_prints_the_same(capsys, files: dict[str, Path]) -> None:
    pairs = [
        (["value", "--noise", str(files["laplace"])], ["value", "laplace"],
         ["--eps", "1/3", "--sensitivity", "2", "--cost", "power", "--digits", "40"]),
        (["renyi", "--noise", str(files["laplace"])], ["renyi", "laplace"],
         ["--eps", "1", "--order", "3"]),
        (["value", "--noise", str(files["truncated"]), "A"], ["value", "truncated-laplace", "A"],
         ["--eps", "1", "--delta", "1e-3"]),
    ]
    for ours, theirs, common in pairs:
        assert run(capsys, *ours, *common) == run(capsys, *theirs, *common)
    # the staircase at a given gamma composes as the catalogue's at that gamma
    code, out, err = run(capsys, "compose", "--noise", str(files["staircase"]), "--gamma",
                         "1/2", "--eps", "1", "--count", "4", "--eps-target", "2")
    expected = compose([(component(Staircase(eps=1, gamma="1/2")), 4)], "2")
    assert (code, out, err) == (0, f"delta = {expected.text}\n", "")
    assert "my-laplace" not in MECHANISMS  # known for the command only


def test_the_catalogue_is_declared() -> None:
    """The catalogue's one-dimensional noises are declarations the validator accepts, with
    nothing left to their instances but the discrete uniform's step (its derived n)."""
    declared = {name: cls for name, cls in MECHANISMS.items()
                if issubclass(cls, DeclaredNoise)}
    assert set(declared) == {"laplace", "staircase", "truncated-laplace", "discrete-laplace",
                             "discrete-staircase", "uniform-mass", "discrete-uniform"}
    for name, cls in declared.items():
        assert cls._private_by_theorem
        checks = validate(cls)
        assert checks.moments_below is None and not checks.below_one
        assert not checks.nonnegative or name == "discrete-uniform"


# ---------------------------------------------------------------------- refusals
@pytest.mark.parametrize("spec, key, fault", [
    ({"pieces": [["0", "oo", "exp(-x)"]]}, "pieces", "total mass is 2"),
    ({"pieces": [["0", "1", "3/2 - 2*x"]], "normalise": True}, "pieces[1].density",
     "negative"),
    ({"density": "exp(-x)/2", "support": "1"}, "density", "not symmetric"),
    ({"density": "exp(-abs(x) + x/2)"}, "density", "not symmetric"),
    ({"pieces": [["0", "1", "1/2"], ["2", "3", "0"]]}, "pieces[2].lo", "contiguous"),
    ({"pieces": [["0", "oo", "1/(1 + x)"]], "normalise": True}, "pieces[1].density",
     "mass is infinite"),
    ({"pieces": [["0", "oo", "exp(-lam*x)"]], "normalise": True}, "pieces[1].density",
     "unknown name 'lam'"),
    ({"pieces": [["0", "1", "y"]]}, "pieces[1].density", "unknown name 'y'"),
    ({"pieces": [["0", "1", "1/2"]], "params": {"A": {"domain": "(1, 0)"}}},
     "params.A.domain", "empty interval"),
    ({"pieces": [["0", "1", "1/2"]], "colour": "red"}, "colour", "unknown key"),
    ({"tail": {"period": "1", "ratio": "3/2", "pieces": [["0", "1", "1"]]},
      "normalise": True}, "tail.ratio", "must be"),
    ({"pieces": [["0", "1", sp.Float(0.5)]]}, "pieces[1].density", "Float is not exact"),
    ({"pieces": [["0", "1", "__import__('os')"]]}, "pieces[1].density", "unexpected"),
])
def test_invalid_declarations_are_refused(spec: dict, key: str, fault: str) -> None:
    with pytest.raises(DeclarationError) as info:
        noise_from_mapping({"name": "bad", **spec})
    message = str(info.value)
    assert message.startswith(f"{key}: ") and fault in message, message
    assert "\n" not in message


def test_python_numbers_and_sympy_expressions() -> None:
    """Numbers are exact (a float is the decimal it prints as) and a caller's own sympy
    symbols are read by their names."""
    t, lam = sp.symbols("x lam")  # no assumptions: the declaration's own are used
    cls = declare_noise("py", pieces=[(0, sp.oo, sp.exp(-t / lam))], normalise=True,
                        params={"lam": {"domain": "(0, oo)", "default": 0.5}})
    assert cls.density == noise_from_mapping(
        {"name": "py", "pieces": [["0", "oo", "exp(-x/lam)"]], "normalise": True,
         "params": {"lam": {"domain": "(0, oo)", "default": "1/2"}}}).density
    assert cls().value("cost", "power", 10).text == "0.5000000000"  # 2 lam^2
    half = declare_noise("half", pieces=[(0, 1, 0.5)])
    assert half().value("cost", "power", 5).text == "0.33333"


def test_a_divergent_moment_is_refused() -> None:
    cauchy = declare_noise("cauchy", density="1/(pi*(1 + x^2))")
    m = cauchy()
    with pytest.raises(DomainError, match=r"^cost: amplitude: E\|X\|\^1 diverges"):
        m.value("cost", "amplitude")
    # E|X|^(1/2) = 1/cos(pi/4) = sqrt(2)
    assert m.value("cost", "moment:1/2", 30).text == "1.41421356237309504880168872421"


def test_a_negative_piece_is_refused_at_the_instance() -> None:
    """A sign sympy cannot decide for every parameter is decided at each instance."""
    cls = declare_noise("slope", pieces=[("0", "1", "c0 - x")], normalise=True,
                        params={"c0": {"domain": "(0, 2)", "typical": ["3/2", "7/4"]}})
    assert cls(c0="3/2").value("cost", "power", 10).text
    with pytest.raises(DomainError, match=r"^pieces\[1\]\.density: is negative"):
        cls(c0="1/2")


def test_uncertified_paths_are_refused() -> None:
    triangle = declare_noise("triangle", density="1 - abs(x)", support="1")()
    assert triangle.value("cost", "power", 20).text == "0.16666666666666666667"  # 1/6
    with pytest.raises(UnsupportedError, match="privacy profile is certified for"):
        triangle.privacy_profile("1/2")
    with pytest.raises(UnsupportedError, match="privacy profile is certified for"):
        triangle.is_private(1, "0.1")
    with pytest.raises(UnsupportedError):
        renyi(triangle, 2)
    bumpy = declare_noise("bumpy", pieces=[("0", "1", "exp(-x)"), ("1", "oo", "exp(-x/2)")],
                          normalise=True)()
    with pytest.raises(UnsupportedError, match="worst shift"):
        renyi(bumpy, 2)


def test_the_command_line_reports_file_errors(capsys, tmp_path: Path) -> None:
    bad = _toml(tmp_path, "bad.toml", 'name = "bad"\n[[pieces]]\nlo = "0"\nhi = "1"\n'
                'density = "2*x"\n')
    assert_one_line_error(*run(capsys, "value", "--noise", str(bad)),
                          f"--noise {bad}: pieces: the total mass is 2, not 1;")
    broken = _toml(tmp_path, "broken.toml", 'name = "x"\n[[pieces]\n')
    assert_one_line_error(*run(capsys, "value", "--noise", str(broken)), "not valid TOML")
    assert_one_line_error(*run(capsys, "value", "--noise", str(tmp_path / "none.toml")),
                          "cannot read")
    unknown = _toml(tmp_path, "u.toml", 'name = "u"\n[[pieces]]\nlo = "0"\nhi = "1"\n'
                    'density = "q"\n')
    assert_one_line_error(*run(capsys, "formula", "--noise", str(unknown)),
                          "pieces[1].density: unknown name 'q'")
    clash = _toml(tmp_path, "c.toml", LAPLACE_TOML.replace("my-laplace", "laplace"))
    assert_one_line_error(*run(capsys, "value", "--noise", str(clash), "--eps", "1"),
                          "already an entry")
    assert_one_line_error(*run(capsys, "check", "--noise", str(clash)), "not an option")


# ---------------------------------------------------------------------- independent values
CLIPPED = {"name": "clipped", "normalise": True, "pieces": [["0", "A", "exp(-x/lam)"]],
           "params": {"lam": {"domain": "(0, oo)", "default": "1"},
                      "A": {"domain": "(0, oo)", "default": "3"}}}
TWO_LEVEL = {"name": "two-level", "normalise": True, "params": ["eps", "Delta"],
             "tail": {"period": "Delta", "ratio": "b",
                      "pieces": [["0", "Delta/2", "1"], ["Delta/2", "Delta", "1/3"]]}}
LATTICE = {"name": "lattice", "lattice": True,
           "pieces": [["0", "1", "1/3"]],
           "tail": {"start": "1", "period": "2", "ratio": "1/4",
                    "pieces": [["0", "1", "1/6"], ["1", "2", "1/12"]]}}


def _mp(value: object) -> mpmath.mpf:
    exact = Fraction(str(value))
    return mpmath.mpf(exact.numerator) / exact.denominator


def _independent_moment(spec: dict, point: dict[str, object], p: mpmath.mpf) -> mpmath.mpf:
    r""":math:`\mathbb{E}|X|^p` written independently of the engine: quadrature of the
    clipped Laplace density; the two-level staircase's levels :math:`c` and :math:`c/3` on
    the halves of each period of length 1 (ratio :math:`b` per period, :math:`c = 3(1 -
    b)/4`), integrated exactly on each half and summed over the periods."""
    if spec["name"] == "clipped":
        lam, a = _mp(point["lam"]), _mp(point["A"])
        const = 1 / (2 * lam * -mpmath.expm1(-a / lam))
        return 2 * mpmath.quad(lambda t: t**p * const * mpmath.exp(-t / lam), [0, a])
    b = mpmath.exp(-_mp(point["eps"]))
    const = 3 * (1 - b) / 4

    def period(k: mpmath.mpf) -> mpmath.mpf:
        k = int(k)
        half = mpmath.mpf(1) / 2
        first = (k + half) ** (p + 1) - mpmath.mpf(k) ** (p + 1)
        second = (k + 1) ** (p + 1) - (k + half) ** (p + 1)
        return const * b**k * (first + second / 3) / (p + 1)
    return 2 * mpmath.nsum(period, [0, mpmath.inf])


def _assert_same_digits(value, exact: mpmath.mpf, digits: int) -> None:
    lo, hi = (mpmath.mpf(t) for t in value.enclosure)
    slack = abs(exact) * mpmath.mpf(10) ** (-digits - 12)
    assert lo - slack <= exact <= hi + slack, (value.enclosure, exact)
    text = mpmath.nstr(exact, digits, strip_zeros=False, min_fixed=-30, max_fixed=30)
    assert Decimal(text) == Decimal(value.text), (text, value.text)


@pytest.mark.parametrize("spec, point, cost", [
    (CLIPPED, {"lam": "1", "A": "3"}, 2),
    (CLIPPED, {"lam": "2/3", "A": "1/2"}, Fraction(3, 2)),
    (TWO_LEVEL, {"eps": "1/2"}, 1),
    (TWO_LEVEL, {"eps": "3"}, Fraction(1, 3)),
])
def test_values_agree_with_quadrature(spec: dict, point: dict, cost: Fraction) -> None:
    digits = 25
    m = noise_from_mapping(spec)(**point)
    text = f"moment:{cost}" if cost not in (1, 2) else ("amplitude", "power")[cost - 1]
    value = m.value("cost", text, digits)
    with mpmath.workdps(digits + 20):
        exact = _independent_moment(spec, point, _mp(cost))
        _assert_same_digits(value, exact, digits)


def test_a_lattice_noise_against_summation() -> None:
    m = noise_from_mapping(LATTICE)()
    digits = 30
    with mpmath.workdps(60):
        def mass(i: int) -> mpmath.mpf:
            if i == 0:
                return mpmath.mpf(1) / 3
            k, j = divmod(i - 1, 2)
            return (mpmath.mpf(1) / 4) ** k * (mpmath.mpf(1) / 6 if j == 0 else
                                               mpmath.mpf(1) / 12)
        assert abs(mass(0) + 2 * mpmath.nsum(lambda i: mass(int(i)), [1, mpmath.inf])
                   - 1) < 1e-50
        for cost, p in (("amplitude", 1), ("moment:5/2", mpmath.mpf(5) / 2)):
            exact = 2 * mpmath.nsum(lambda i, p=p: i**p * mass(int(i)), [1, mpmath.inf])
            _assert_same_digits(m.value("cost", cost, digits), exact, digits)
        profile = m.privacy_profile("1/2", digits=digits)
        exact = sum(max(mass(abs(i)) - mpmath.exp(mpmath.mpf(1) / 2) * mass(abs(i - 1)), 0)
                    for i in range(-200, 201))
        _assert_same_digits(profile, exact, digits)
    assert profile.certificate == "enclosure"


# ---------------------------------------------------------------------- samplers
@pytest.mark.parametrize("spec, point, seed", [
    (CLIPPED, {"lam": "1", "A": "3"}, 11),
    (TWO_LEVEL, {"eps": "1/2"}, 12),
])
def test_sampler_exact_moments_and_ks(spec: dict, point: dict, seed: int) -> None:
    m = noise_from_mapping(spec)(**point)
    draws = m.sample(np.random.default_rng(seed), N)
    moments = {k: float(m.value("cost", f"moment:{k}", 17).number) for k in (1, 2, 4, 8)}
    for k in (1, 2, 4):
        values = np.abs(draws) ** k
        variance = moments[2 * k] - moments[k] ** 2
        z = (values.mean() - moments[k]) / math.sqrt(variance / N)
        assert abs(z) < Z_CRIT, (k, z)
    noise = m.numeric_noise()
    statistic = stats.kstest(draws, lambda v: cdf(noise, v)).statistic
    assert statistic < float(stats.kstwo.isf(ALPHA, N))


# ---------------------------------------------------------------------- compare
def test_compare_ranks_a_declared_noise_once_its_privacy_is_proven() -> None:
    private = noise_from_mapping({**CLIPPED, "name": "clipped-wide",
                                  "params": {"lam": {"domain": "(0, oo)", "default": "1"},
                                             "A": {"domain": "(0, oo)", "default": "8"}},
                                  "guarantee": "eps,delta"})
    leaky = noise_from_mapping({**CLIPPED, "name": "clipped-narrow",
                                "params": {"lam": {"domain": "(0, oo)", "default": "1/10"},
                                           "A": {"domain": "(0, oo)", "default": "1"}},
                                "guarantee": "eps,delta"})
    inputs = compare_inputs("1", "0.001", "1", "amplitude", 6)
    with registered(private), registered(leaky):
        result = compare(inputs)
    ranked = {row.name for row in result.rows}
    skipped = {row.name: str(row.error) for row in result.skipped}
    assert "clipped-wide" in ranked and "clipped-narrow" not in ranked
    assert "clipped-narrow is not (1, 0.001)-DP" in skipped["clipped-narrow"]
    assert "clipped-wide" not in MECHANISMS


def test_a_certified_value_or_a_refusal() -> None:
    """A minimiser the interval method cannot prove is refused, never printed uncertified;
    ``method="mpmath"`` gives the cross-check on request."""
    cls = noise_from_mapping(STAIRCASE_FREE)
    m = cls(eps=1)
    assert m.value("cost", "amplitude", 20).certificate in ("exact", "enclosure")
    try:
        found = m.value("cost", "moment:7/3", 15)
    except CertificationError as err:
        assert "no certified path" in str(err)
    else:
        assert found.certificate in ("exact", "enclosure")


# ---------------------------------------------------------------------- more shapes
def test_a_mass_function_on_the_line_and_a_power_tail() -> None:
    """A two-sided geometric mass function given on the whole line is the geometric tail
    it is; a density decaying as a power has the moments below its exponent only."""
    geometric = declare_noise("geometric", lattice=True, density="(1-q)/(1+q)*q^abs(x)",
                              params={"q": {"domain": "(0, 1)", "default": "1/2"}})
    assert geometric.density.tail is not None and not geometric.density.head
    for q in ("1/2", "9/10"):
        exact = 2 * Fraction(q) / (1 - Fraction(q) ** 2)  # E|X| = 2q/(1 - q^2)
        with mpmath.workdps(40):
            expected = mpmath.nstr(mpmath.mpf(exact.numerator) / exact.denominator, 20,
                                   strip_zeros=False)
        assert geometric(q=q).value("cost", digits=20).text == expected
    power_tail = declare_noise("power-tail", density="(a - 1)/(2*(1 + abs(x))^a)",
                               params={"a": {"domain": "(1, oo)", "default": "4"}})
    assert power_tail._checks.moments_below == power_tail.params[0].symbol - 1
    assert power_tail().value("cost", "power", 20).text == "1.0000000000000000000"
    with pytest.raises(DomainError, match="only the moments of order below 3"):
        power_tail().value("cost", "moment:5")
    assert power_tail(a=7).value("cost", "moment:5", 20).text  # finite below 6
    with pytest.raises(DeclarationError, match="write the decay as exp"):
        declare_noise("base-power", density="q^abs(x)*log(1/q)/2",
                      params={"q": {"domain": "(0, 1)", "default": "1/2"}})


def test_a_closed_form_that_disagrees_with_quadrature_is_refused() -> None:
    """The cross-check of a declared noise's costs: a wrong closed form (here a moment
    doubled on purpose) is refused, not printed."""
    cls = noise_from_mapping(CLIPPED)

    class WrongEngine(Engine):
        def cost_function(self, cost):
            return 2 * cls.cost_function(cost)

    wrong = type("Wrong", (cls,), {"_engine_type": WrongEngine, "__module__": "declared"})
    assert cls().value("cost", "power", 20).certificate == "enclosure"
    with pytest.raises(CertificationError, match="disagrees with a quadrature"):
        wrong().value("cost", "power", 20)


def test_every_command_takes_a_noise_file(capsys, tmp_path: Path) -> None:
    clipped = _toml(tmp_path, "clipped.json", json.dumps(CLIPPED))
    two = _toml(tmp_path, "two.json", json.dumps({
        **TWO_LEVEL, "name": "half-step", "free": {"name": "gamma"},
        "tail": {"period": "Delta", "ratio": "b",
                 "pieces": [["0", "gamma*Delta", "1"], ["gamma*Delta", "Delta", "1/2"]]}}))
    code, out, _ = run(capsys, "formula", "--noise", str(two), "gamma")
    assert (code, out) == (0, "-1 + sqrt(2)\n")  # the amplitude's optimum, whatever eps
    code, out, _ = run(capsys, "series", "--noise", str(two), "--regime", "eps0", "--order",
                       "2")
    assert (code, out) == (0, "Delta/eps + Delta*(-3 + 2*sqrt(2))/2 + Delta*eps/12 + "
                              "O(eps**2)\n")
    code, out, _ = run(capsys, "sweep", "--noise", str(clipped), "--param", "A=1,2",
                       "--digits", "8", "--workers", "1")
    assert (code, out) == (0, "A,value,error\n1,0.41802329,\n2,0.68696471,\n")
    code, out, _ = run(capsys, "audit", "--noise", str(clipped), "--eps", "1", "--A", "2",
                       "--delta", "0.1")
    assert code == 1 and out == ("delta = 0.134470710684997560374420379089\n"
                                 "target delta = 0.1: NOT met\n")
    assert_one_line_error(*run(capsys, "audit", "--noise", str(clipped), "--eps", "1",
                               "--sigma", "2"), "--sigma: not a parameter of clipped")
    assert_one_line_error(*run(capsys, "renyi", "--noise", str(clipped), "--order", "2",
                               "--lam", "0"), "lam: must be in (0, inf), got 0")
    assert "clipped" not in MECHANISMS and "half-step" not in MECHANISMS
