"""The package type-checks: mypy, configured by ``[tool.mypy]`` in ``pyproject.toml``, finds
no issue in ``dpsym``; the configuration keeps its strictness; every ``type: ignore`` is
targeted. Then regressions of the defects the type check found.

The type check keeps its cache in ``.mypy_cache`` at the repository root: the first run of
a clean clone analyses every module (about a minute on two cores), later runs only what
changed (a few seconds).
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
import tomllib
from fractions import Fraction
from pathlib import Path

import flint
import pytest

ROOT = Path(__file__).resolve().parent.parent


def test_the_package_type_checks():
    done = subprocess.run([sys.executable, "-m", "mypy", "--cache-dir",
                           str(ROOT / ".mypy_cache")],
                          cwd=ROOT, capture_output=True, text=True, timeout=900,
                          env={**os.environ, "PYTHONPATH": str(ROOT)})
    assert done.returncode == 0, done.stdout[-12000:] + done.stderr[-2000:]
    assert "Success: no issues found" in done.stdout, done.stdout[-2000:]


def test_the_type_check_configuration_stays_strict():
    config = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["mypy"]
    assert config["files"] == ["dpsym"]
    for flag in ("check_untyped_defs", "no_implicit_optional", "strict_equality",
                 "warn_unused_ignores", "warn_redundant_casts"):
        assert config[flag] is True, flag
    overrides = config["overrides"]
    # errors are silenced in the generated module only; untyped libraries are declared
    assert [o["module"] for o in overrides if o.get("ignore_errors")] == [
        "dpsym.symbolic._derived"]
    untyped = [m for o in overrides if o.get("ignore_missing_imports") for m in o["module"]]
    assert not [m for m in untyped if m.split(".")[0] == "dpsym"]
    # modules not followed: none of the package's, none that the package imports itself
    skipped = [m for o in overrides if o.get("follow_imports") == "skip" for m in o["module"]]
    assert all(o.get("follow_imports") in (None, "skip") for o in overrides)
    imported = set()
    for path in (ROOT / "dpsym").rglob("*.py"):
        imported |= set(re.findall(r"^\s*(?:from|import)\s+([\w.]+)", path.read_text(),
                                   re.MULTILINE))
    for pattern in skipped:
        prefix = pattern.removesuffix(".*")
        assert prefix.split(".")[0] != "dpsym", pattern
        assert not [m for m in imported if m == prefix or m.startswith(prefix + ".")], pattern


def test_every_ignore_names_its_error_code():
    bare = []
    for path in sorted((ROOT / "dpsym").rglob("*.py")):
        for number, line in enumerate(path.read_text().splitlines(), 1):
            if re.search(r"#\s*type:\s*ignore(?!\[[a-z-]+(, *[a-z-]+)*\])", line):
                bare.append(f"{path.relative_to(ROOT)}:{number}")
    assert not bare, bare


# ------------------------------------------------------------------------ regressions
def test_a_gaussian_profile_takes_free_value_like_every_mechanism():
    # the Gaussian's privacy_profile lacked the keyword every mechanism takes (TypeError)
    from dpsym.mechanisms.gaussian import AnalyticGaussian, ClassicGaussian
    for cls in (AnalyticGaussian, ClassicGaussian):
        m = cls(eps="1/2", delta="1/100000")
        assert m.privacy_profile("1/2", free_value=None).text == m.privacy_profile("1/2").text


def test_exact_values_of_a_cost_that_has_none_are_refused():
    from dpsym.certified.expectation import CostBalls
    from dpsym.core.costs import parse_cost
    from dpsym.errors import UnsupportedError
    balls = CostBalls(parse_cost("log(1 + abs(x))"))
    for method in (balls.exact_value, balls.exact_antiderivative):
        with pytest.raises(UnsupportedError, match="not rational"):
            method(Fraction(1))
    rational = CostBalls(parse_cost("min(abs(x), 3)"))
    assert rational.exact_value(Fraction(5)) == 3
    assert rational.exact_antiderivative(Fraction(5)) == Fraction(9, 2) + 6


def test_the_exponent_of_a_cost_that_is_not_a_power_is_refused():
    from dpsym.core.costs import parse_cost
    assert parse_cost("moment:3/2").power == Fraction(3, 2)
    with pytest.raises(TypeError, match="not a power"):
        parse_cost("log(1 + abs(x))").power  # noqa: B018


def test_an_exact_integer_ball_is_read_back_and_a_wider_one_refused():
    from dpsym.certified.kernel import exact_integer
    assert exact_integer(flint.arb(-7)) == -7
    with pytest.raises(ValueError, match="not one integer"):
        exact_integer(flint.arb("7.5"))
