"""Every number of the catalogue is proven: no ``"agreement"`` anywhere.

Walks every mechanism and lower bound of the catalogue (:data:`dpsym.MECHANISMS`,
:data:`dpsym.BOUNDS`) x each of its quantities x the costs it accepts, at typical
parameters (the ends of each parameter's declared ``typical`` range) and at extreme ones
(the ends of the declared domain, or far into it where the domain is unbounded), and
fails on any value whose :attr:`~dpsym.certified.evaluation.Value.certificate` is ``"agreement"``
(the two-precision heuristic) instead of ``"enclosure"`` or ``"exact"``. Then the same
for what ``compare`` and ``audit`` print.

A point may be refused only by a :class:`~dpsym.errors.DomainError` that names a declared
limit (the LP bounds' support size): every other exception fails the test.
"""

from __future__ import annotations

import json
from fractions import Fraction

import pytest
from cli_helpers import run, run_json

from dpsym import BOUNDS, MECHANISMS
from dpsym.bounds import get_entry
from dpsym.core.costs import parse_cost
from dpsym.errors import DomainError, UnsupportedError

#: The costs walked: the two classics, an integer and two non-integer moments.
COSTS = ("amplitude", "power", "moment:3", "moment:1/2", "moment:3/2")
#: Digits asked for (enough for every path's refinement to matter).
DIGITS = 25

#: Values far into an unbounded or huge domain, per parameter name.
FAR = {"eps": "1e4", "Delta": "64", "delta": "0.4", "dim": "13", "grid": "16"}
#: Values near an open lower end, per parameter name.
NEAR = {"eps": "1e-6", "delta": "1e-12", "Delta": "1/1000"}


def _extreme(param, high: bool) -> str:
    """A value of ``param`` at (or towards) one end of its declared domain."""
    dom = param.domain
    if high:
        far = Fraction(FAR.get(param.name, "1e4"))
        if dom.upper is None:
            return FAR.get(param.name, "1e4")
        top = dom.upper - (Fraction(1, 100) * dom.upper if dom.upper_open else 0)
        if dom.integer:
            top = Fraction(int(top) - (1 if dom.upper_open and top == int(top) else 0))
        return str(min(top, far) if param.name in ("dim", "grid", "Delta") else top)
    if dom.integer:
        low = int(dom.lower) + (1 if dom.lower_open else 0)
        return str(max(low, 1))
    near = Fraction(NEAR.get(param.name, "1e-6"))
    return str(max(near, dom.lower) if not dom.lower_open else near)


def _points(entry) -> list[tuple[str, dict[str, str]]]:
    """(label, parameters): the typical range's two ends, then each parameter pushed to
    each end of its domain with the others typical."""
    base = {p.name: p.typical[0] for p in entry.params if p.name != "Delta"}
    points = [("typical-low", dict(base)),
              ("typical-high", {p.name: p.typical[1] for p in entry.params
                                if p.name != "Delta"})]
    for p in entry.params:
        for high in (False, True):
            points.append((f"{p.name}-{'high' if high else 'low'}",
                           {**base, p.name: _extreme(p, high)}))
    return points


#: Extreme points inside the LP bounds' support limits (most ends of their domains are
#: outside them).
LP_EXTREMES = [
    ("discrete-lower-bound", {"eps": "32", "delta": "1e-3", "Delta": "64"}),
    ("discrete-lower-bound", {"eps": "0", "delta": "0.1", "Delta": "3"}),
    ("discrete-lower-bound", {"eps": "1/3", "delta": "0.49"}),
    ("lp-bound", {"eps": "32", "delta": "0.49", "grid": "64"}),
    ("lp-bound", {"eps": "2", "delta": "1e-3", "grid": "1", "Delta": "1/1000"}),
]


def _cases():
    for name in [*MECHANISMS, *BOUNDS]:
        entry = get_entry(name)
        for label, params in _points(entry):
            yield pytest.param(name, params, id=f"{name}-{label}")
    for k, (name, params) in enumerate(LP_EXTREMES):
        yield pytest.param(name, params, id=f"{name}-inside-limits-{k}")


def _limit_refusal(err: DomainError) -> bool:
    """A refusal by a declared limit (``dpsym list`` prints it), not a failure."""
    return "support" in str(err) or "limit" in str(err)


@pytest.mark.parametrize(("name", "params"), list(_cases()))
def test_every_quantity_and_cost_is_proven(name, params):
    entry = get_entry(name)
    try:
        m = entry(**params)
    except DomainError as err:
        assert _limit_refusal(err), err
        pytest.skip(f"outside a declared limit: {err}")
    bad, done, refused = [], 0, 0
    for cost in COSTS:
        try:
            if name in BOUNDS:
                entry._parse_bound_cost(cost)
            else:
                m._specific(parse_cost(cost))
        except (UnsupportedError, DomainError):
            continue  # the entry declares it does not answer this cost
        for quantity in m.quantities():
            try:
                v = m.value(quantity, cost, DIGITS)
            except DomainError as err:
                assert _limit_refusal(err), (quantity, cost, err)
                refused += 1
                continue
            done += 1
            if v.certificate not in ("enclosure", "exact"):
                bad.append(f"{quantity} {cost}: {v.certificate}")
    if not done and refused:
        pytest.skip("every quantity is outside a declared limit here")
    assert done, "no quantity answered"
    assert not bad, f"{name} {params}: " + "; ".join(bad)


@pytest.mark.parametrize(("eps", "delta"), [("1", "1e-6"), ("1e-3", "0.1"), ("20", "1e-10"),
                                             ("0", "1e-3"), ("1/2", "0")])
def test_every_compare_row_is_proven(capsys, eps, delta):
    out = run_json(capsys, "compare", "--eps", eps, "--delta", delta, "--digits", "20")
    rows = [r for r in out["rows"] if r.get("certificate") is not None]
    assert rows
    bad = [(r["name"], r["certificate"]) for r in rows
           if r["certificate"] not in ("enclosure", "exact")]
    assert not bad, bad


@pytest.mark.parametrize("dim", ["2", "13"])
def test_every_multidimensional_compare_row_is_proven(capsys, dim):
    out = run_json(capsys, "compare", "--eps", "1", "--dim", dim, "--digits", "20")
    assert len(out["rows"]) >= 4
    bad = [(r["name"], r["certificate"]) for r in out["rows"]
           if r["certificate"] not in ("enclosure", "exact")]
    assert not bad, bad


AUDITS = [
    ("analytic-gaussian", ["--sigma", "4"]),
    ("gaussian", ["--sigma", "4"]),
    ("laplace", ["--scale", "6/5"]),
    ("laplace", ["--scale", "1"]),
    ("laplace", ["--scale", "1/2"]),
    ("truncated-laplace", ["--scale", "1", "--bound", "12"]),
    ("staircase", ["--eps0", "1", "--gamma", "2/5"]),
    ("staircase", ["--eps0", "3/2", "--gamma", "2/5"]),
]


@pytest.mark.parametrize(("mechanism", "noise"), AUDITS)
@pytest.mark.parametrize("eps", ["1", "1e-3", "30"])
def test_every_audit_is_proven(capsys, mechanism, noise, eps):
    code, text, err = run(capsys, "audit", mechanism, "--eps", eps, *noise, "--delta",
                          "1e-6", "--digits", "20", "--json")
    assert code in (0, 1) and err == "", err  # 1: the target delta is not met
    out = json.loads(text)
    assert out["certificate"] in ("enclosure", "exact"), out
    assert out["met"] is (code == 0)


def _draw(rng, param) -> str:
    """A random value of ``param``: log-uniform over its typical range (integers rounded)."""
    lo, hi = (float(Fraction(t)) for t in param.typical)
    if param.domain.integer:
        return str(rng.randint(int(lo), int(hi)))
    if lo <= 0:
        return str(Fraction(rng.uniform(lo, hi)).limit_denominator(10**6))
    x = lo * (hi / lo) ** rng.random()
    return str(Fraction(x).limit_denominator(10**9))


@pytest.mark.parametrize("seed", range(12))
def test_property_enclosures_contain_the_two_precision_cross_check(seed):
    """Random entry x cost x parameters (seeded): the proven enclosure at 20 digits
    contains the engine's independent mpmath path (a numeric minimiser or root at two
    working precisions) evaluated to 40 digits."""
    import random

    import mpmath
    rng = random.Random(seed)
    names = sorted(n for n in MECHANISMS if n not in ("staircase-md",))
    name = rng.choice(names)
    entry = get_entry(name)
    params = {p.name: _draw(rng, p) for p in entry.params}
    m = entry(**params)
    costs = [c for c in COSTS if not _refuses(m, c)]
    cost = rng.choice(costs)
    for quantity in m.quantities():
        v = m.value(quantity, cost, 20)
        assert v.certificate in ("enclosure", "exact"), (name, params, quantity, cost)
        w = m.value(quantity, cost, 40, method="mpmath")
        with mpmath.workdps(60):
            lo, hi = (mpmath.mpf(t) for t in v.enclosure)
            x = mpmath.mpf(w.text)
            slack = abs(x) * mpmath.mpf(10) ** -38
            assert lo - slack <= x <= hi + slack, (name, params, quantity, cost, v.enclosure,
                                                   w.text)


def _refuses(m, cost: str) -> bool:
    try:
        m._specific(parse_cost(cost))
    except (UnsupportedError, DomainError):
        return True
    return False
