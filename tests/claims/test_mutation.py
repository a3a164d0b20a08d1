"""Mutation testing of the claim registry (``dpsym check --mutate``).

Each claim with a formula is re-checked on perturbed statements (a constant times
1 +- 1e-3, a sign, an exponent, an inequality's direction, a limit point); every mutant must
be rejected by the claim's own check, or be equivalent: a moved bound of an inequality with
declared slack, an entry moved the way the statement is monotone in (``Claim.weaker``), a
rate times a constant. At most ``PER_CLAIM`` mutants per claim keep the whole registry's
run to a few minutes (the formula-independent work of a check is cached). Every claim's
mutants run in its own test of the registry (``tests/claims/test_registry.py``,
``test_claim``), after its check as registered; here, the mutation operators, the
report and the command line.
"""

from __future__ import annotations

import json

import sympy as sp

from dpsym.claims import CLAIMS, FAILS, REGISTRY, Verdict, registry
from dpsym.claims.common import V, rel_holds
from dpsym.claims.mutation import (
    PER_CLAIM,
    mutants,
    mutate_claim,
    mutation_report,
    no_mutant_reason,
)
from dpsym.cli import main

x, y = sp.symbols("x y", positive=True)


def test_every_operator_produces_mutants() -> None:
    formula = {"f": 3 * x**2 + sp.Rational(1, 2) * y, "rel": sp.GreaterThan(V, 1 - x),
               "limit x": 0, "limit y": sp.oo}
    ops = {(m.key, m.operator) for m in mutants(formula)}
    assert {("f", "scale"), ("f", "sign"), ("f", "exponent"), ("rel", "relation"),
            ("rel", "scale"), ("limit x", "limit"), ("limit y", "limit")} <= ops
    for m in mutants(formula):  # one entry changed at a time, never to itself
        changed = [k for k in formula if m.formula[k] != sp.sympify(formula[k])]
        assert changed == [m.key]
    rel = next(m for m in mutants(formula) if m.operator == "relation").formula["rel"]
    assert isinstance(rel, sp.StrictLessThan)


def test_rel_holds() -> None:
    assert rel_holds(sp.GreaterThan(V, 1 - x), sp.Rational(1, 2), {x: sp.Rational(1, 2)})
    assert not rel_holds(sp.StrictGreaterThan(V, 1 - x), sp.Rational(1, 2),
                         {x: sp.Rational(1, 2)})
    assert rel_holds(sp.Eq(V, sp.pi), sp.pi)


def test_a_check_that_ignores_its_statement_has_survivors(monkeypatch) -> None:
    monkeypatch.setattr(registry, "REGISTRY", dict(registry.REGISTRY))

    @registry.claim("003.zz.weak", "test", "x^2 = x x", formula={"f": x**2})
    def weak(f: dict) -> Verdict:
        return Verdict(True)

    @registry.claim("003.zz.strong", "test", "x^2 = x x", formula={"f": x**2})
    def strong(f: dict) -> Verdict:
        return Verdict(all(sp.sympify(f["f"]).subs(x, v) == v * v for v in (2, 3)))

    weak_res = mutate_claim(registry.REGISTRY["003.zz.weak"])
    assert weak_res and not any(r.killed for r in weak_res)
    strong_res = mutate_claim(registry.REGISTRY["003.zz.strong"])
    assert strong_res and all(r.killed for r in strong_res)
    report = mutation_report(["003.zz.weak"])
    assert report["survivors"] == len(weak_res) and report["sources"]["003"]["score"] == 0


def test_every_claim_has_mutants_or_a_reason() -> None:
    for c in CLAIMS:
        if c.formula is None or c.status == FAILS:
            assert no_mutant_reason(c)
        else:
            assert mutants(c.formula), c.id


def test_mutants_on_nine_claims_in_ten() -> None:
    """At least 90 % of the registered claims take their statement as input and have
    mutants; the others are registered as failing or say why they have none."""
    with_mutants = [c.id for c in CLAIMS if c.formula is not None and c.status != FAILS
                    and mutants(c.formula)]
    assert len(with_mutants) >= 0.9 * len(CLAIMS), (len(with_mutants), len(CLAIMS))
    assert all(len(mutants(REGISTRY[cid].formula)) <= PER_CLAIM for cid in with_mutants)


def test_every_kind_of_claim_can_fail() -> None:
    """Proof steps, definitions and claims decided at instances have mutants too."""
    for kind in ("proof-step", "definition", "statement"):
        have = [c for c in CLAIMS if c.kind == kind]
        with_mutants = [c for c in have if c.formula is not None and c.status != FAILS]
        assert len(with_mutants) >= 0.8 * len(have), kind
    assert any(c.decision == registry.INSTANCES and c.formula is not None for c in CLAIMS)


def test_cli_mutate_json(capsys) -> None:
    assert main(["check", "003.thm2", "003.sec6.classic", "003.sec6.all", "002.thm3",
                 "--mutate", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["survivors"] == 0
    assert out["mutants"] == out["killed"] + out["equivalent"]
    rows = {c["id"]: c for c in out["claims"]}
    assert rows["003.thm2"]["mutants"] > 0 and rows["003.thm2"]["killed"] == \
        rows["003.thm2"]["mutants"]
    assert rows["002.thm3"]["mutants"] > 0 and not rows["002.thm3"]["survivors"]
    assert rows["003.sec6.all"]["mutants"] == 0 and rows["003.sec6.all"]["reason"]
    assert rows["003.sec6.classic"]["equivalent"] and rows["003.sec6.classic"]["slack"]
    assert out["with_mutants"] == 3 and out["total"] == 4 and out["coverage"] == 0.75
    assert main(["check", "003.thm2", "--mutate"]) == 0
    text = capsys.readouterr().out
    assert "SCORE" in text and "mutants killed" in text
    assert "mutants on 1 of 1 claims (100.0%)" in text


def test_cli_check_json_fields(capsys) -> None:
    assert main(["check", "000.p3.0d.vstar", "003.thm4", "000.p3.0d.lm", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    rows = {c["id"]: c for c in out["claims"]}
    step, stmt, sampled = rows["000.p3.0d.vstar"], rows["003.thm4"], rows["000.p3.0d.lm"]
    assert step["kind"] == "proof-step" and step["theorem"] == "000.p3.0d.l2"
    assert stmt["kind"] == "statement" and stmt["theorem"] is None
    assert stmt["mutants"] > 0 and stmt["decision"] == "proof" and stmt["points"] == []
    assert stmt["computed"] == "holds" and stmt["printed"]
    assert step["mutants"] == 0 and step["no_mutants"]
    assert sampled["decision"] == "instances" and sampled["points"]
    assert sampled["computed"] == f"holds at {len(sampled['points'])} instances"
    assert out["decisions"] == {"proof": 1, "instances": 2, "undecided": 0}
    for row in rows.values():
        assert row["notebook"].startswith(("notebooks/", "covered elsewhere:"))
