"""The claim registry: coverage of the source texts, and every check's verdict.

The coverage test scans the five source texts (``shared/seeds/``) for statement headings
("Theorem N", "Lemma N", "Corollary", "Definition N", "Def.", "Claim", "THEOREM", "CLAIM",
"Composition Theorem") and requires each to be mapped to a registered claim; slide and
note titles that carry results without such a heading are kept in a hand list. The checks
themselves run in :func:`test_claim`, each followed by its mutants (the mutation testing
of ``tests/claims/test_mutation.py``): in one test, so that the formula-independent work of
a check, computed once, serves both. The registration decorator and the registry's order
are tested at the end.
"""

from __future__ import annotations

import importlib
import re
from pathlib import Path

import pytest

from dpsym.claims import (
    CLAIMS,
    CORRECTED,
    REGISTRY,
    SOURCES,
    STATUSES,
    Claim,
    Verdict,
    get_claim,
    notes_001,
    notes_004,
    paper_003,
    paper_003_proofs,
    poster_002,
    registry,
    run_claim,
    run_claims,
    slides_000,
    slides_000_proofs,
)
from dpsym.claims.mutation import mutate_claim

#: The module of each source text.
SOURCE_MODULES = {"000": slides_000, "001": notes_001, "002": poster_002, "003": paper_003,
                  "004": notes_004}
#: The modules of the proof steps of a source, registered after its statements.
PROOF_MODULES = {"000": [slides_000_proofs], "003": [paper_003_proofs]}

SEEDS = Path(__file__).resolve().parents[3] / "shared" / "seeds"
if not SEEDS.is_dir():
    SEEDS = Path("/work/shared/seeds")

HEADING = re.compile(r"^\W*(Composition Theorem|Theorem|Lemma|Corollary|Definition|Def\.|"
                     r"Claim|THEOREM|CLAIM)\b(.*)$")

#: (source, regular expression on the heading line, claim id) for unnumbered headings.
UNNUMBERED = [
    ("000", r"Composition Theorem", "000.p2.composition"),
    ("000", r"^Theorem: If \$L\(x_1", "000.p2.theorem"),
    ("000", r"^• Theorem:", "000.p3.0d.optimal"),
    ("001", r"^Def\. We say", "001.def"),
    ("001", r"^Def\. For a k", "001.gaussian.accuracy"),
    ("001", r"^Theorem\. Gaussian mechanism is \(Σ", "001.gaussian.classic"),
    ("001", r"^Theorem\. \[Balle-Wang", "001.gaussian.analytic"),
    ("001", r"^Theorem\. If M is", "001.group"),
    ("001", r"^Claim\. This mechanism", "001.name_and_shame"),
    ("002", r"Corollary: Optimal Noise Magnitude", "002.cor.magnitude"),
    ("002", r"Corollary: Optimal Noise Power", "002.cor.power"),
    ("004", r"^### THEOREM:", "004.noisy_max"),
    ("004", r"^THEOREM:", "004.exp.utility"),
    ("004", r"^CLAIM: Exponential", "004.exp.privacy"),
]

#: Titled results without a heading keyword (slides and notes), kept by hand:
#: (source, a phrase of the source text, claim id).
HAND_KEPT = [
    ("000", "Laplace Mechanism:", "000.laplace"),
    ("000", "Make hypothesis testing hard:", "000.dp.testing"),
    ("000", "for a count query, $\\Delta = 1$", "000.sensitivity.count"),
    ("000", "Laplacian distribution is not optimal", "000.p1.optimality"),
    ("000", "V(P_{\\gamma^*}) = \\Delta \\frac{e^{\\frac{\\epsilon}{2}}}", "000.p1.l1"),
    ("000", "the additive gap $\\to 0$", "000.p1.l1.eps0"),
    ("000", "V(P_{\\gamma^*}) = \\Theta(\\Delta e^{-\\frac{\\epsilon}{2}})", "000.p1.l1.epsoo"),
    ("000", "2^{-2/3}b^{2/3}(1+b)^{2/3} + b}{(1-b)^2}", "000.p1.l2"),
    ("000", "the additive gap $\\leq c\\Delta^2$", "000.p1.l2.eps0"),
    ("000", "\\Theta(\\Delta^2 e^{-\\frac{2\\epsilon}{3}})", "000.p1.l2.epsoo"),
    ("000", "V_{Lap} = \\frac{2\\Delta^2}{\\epsilon^2}", "000.p1.laplace_costs"),
    ("000", "Properties of γ^*", "000.p1.gamma"),
    ("000", "Extension to Discrete Setting", "000.p1.discrete"),
    ("000", "Histogram query: $\\Delta = 1$", "000.p2.histogram"),
    ("000", "\\gamma^* = \\underset", "000.p2.gamma"),
    ("000", "\\frac{\\Delta \\epsilon^2}{36\\sqrt{3}}", "000.p2.eps0"),
    ("000", "\\sqrt[3]{2} \\Delta e^{-\\frac{\\epsilon}{3}}", "000.p2.epsoo"),
    ("000", "Laplacian Mechanism: $V = \\frac{2\\Delta}{\\epsilon}$", "000.p2.laplace"),
    ("000", "Independent Staircase Mechanism:", "000.p2.independent"),
    ("000", "e^{\\epsilon} P_{FA} + P_{MD} \\ge 1 - \\delta", "000.p3.testing"),
    ("000", "P_{K(D_2)}||_{TV} \\le \\delta", "000.p3.tv"),
    ("000", "Upper Bound: Uniform Noise Mechanism", "000.p3.0d.ub"),
    ("000", "V_{LB} = 2\\delta \\sum_{i=0}", "000.p3.0d.lb"),
    ("000", "V_{LB} = \\frac{\\Delta}{4\\delta} + 1 - \\frac{\\Delta}{2}", "000.p3.0d.l1"),
    ("000", "V_{UB} = \\frac{\\Delta^2}{12\\delta^2} + \\frac{1}{6}", "000.p3.0d.l2"),
    ("000", "\\lim_{\\delta \\to 0} \\frac{V_{UB}}{V_{LB}} = 1", "000.p3.0d.lm"),
    ("000", "V^* \\leq min(V_{Lap}, V_{Uniform})", "000.p3.ub"),
    ("000", "discrete:", "000.p3.dlap"),
    ("000", "{5.29}", "000.p3.ratio.l1"),
    ("000", "{40}", "000.p3.ratio.l2"),
    ("000", "Discrete Laplacian Mechanism", "000.p3.md.upper"),
    ("000", "V_{LB} \\ge \\frac{d\\Delta}{4\\delta}", "000.p3.md.l1"),
    ("000", "V_{LB} \\ge \\frac{d\\Delta^2}{12\\delta^2}", "000.p3.md.l2"),
    ("001", "we recover", "001.pure"),
    ("001", "3- A necessary condition", "001.sufficient"),
    ("001", "\\Leftrightarrow M \\text{ is } \\epsilon\\text{-DP}", "001.pure_iff"),
    ("001", "4- Definition of approximate DP implies", "001.catastrophic"),
    ("001", "1- Post-processing", "001.postprocessing"),
    ("001", "3- Basic composition", "001.composition"),
    ("002", "Sufficient and necessary condition", "002.condition"),
    ("002", "Main Result", "002.main"),
    ("003", "Theorem 2 (Upper Bound", "003.thm2.limits"),
    ("003", "A classic result on the Gaussian mechanism", "003.sec6.classic"),
    ("003", "Figure 2: Ratio of the Noise Amplitude", "003.sec6.figures"),
    ("003", "significantly reduces the noise amplitude", "003.sec6.all"),
    ("004", "COUNTING QUERIES:", "004.counting"),
    ("004", "Adding  $\\text{Lap}(k/\\epsilon)$", "004.k_counting"),
    ("004", "HISTOGRAM QUERIES", "004.histogram"),
    ("004", "\\Pr[|y| > b \\cdot t] \\leq e^{-t}", "004.tail"),
    ("004", "count in bucket  $i$  is off", "004.bucket"),
    ("004", "UNION BOUND", "004.union"),
    ("004", "If  $t \\gg 10 + \\log k$", "004.union.t"),
    ("004", "EXAMPLE (FIRST NAMES)", "004.first_names"),
    ("004", "Private if  $\\forall t \\in \\mathcal{Y}", "004.approx.def"),
    ("004", "output entire database", "004.approx.junk"),
    ("004", "people's records are released", "004.approx.records"),
    ("000", "How many people are older than 32?", "000.example"),
    ("000", "Huge improvement in low privacy regime", "000.p1.huge"),
    ("000", "In the optimal mechanism, v_t is **indep", "000.p1.independent"),
    ("000", "Approximate Optimality of Laplacian Mech", "000.p2.approx_opt"),
    ("000", "Huge Improvement in Low Privacy Regime", "000.p2.huge"),
    ("000", "Conjecture: the result holds for any d", "000.p2.conjecture"),
    ("000", "Near-Optimality of Uniform Noise Mechani", "000.p3.near_opt"),
    ("000", "(ϵ, δ) -DP is not much more general than", "000.p3.not_general"),
    ("000", "$$= \\Theta(\\min\\left(\\frac{1}{\\epsilon},", "000.p3.ratio.l1.rate"),
    ("000", "$$= \\Theta(min\\left(\\frac{1}{\\epsilon^2}", "000.p3.ratio.l2.rate"),
    ("000", "rm Noise Mechanism is Optimal when $\\Del", "000.p3.md.optimal"),
    ("000", "$$\\frac{min(V_{Lap}, V_{Uniform})}{C} \\l", "000.p3.md.eps"),
    ("001", "2- Using the expression of HS divergence", "001.def.events"),
    ("001", "Probability that at least one individual", "001.exposure"),
    ("001", "we want δ to be much smaller than", "001.delta.small"),
    ("001", "$\\delta \\approx \\frac{1}{n^{1+\\delta}} \\", "001.delta.usual"),
    ("001", "\\delta \\approx 10^{-7} - 10^{-5} \\quad \\", "001.delta.practice"),
    ("001", "Important remark: This theorem implies t", "001.gaussian.finite"),
    ("001", "* Gaussian mechanism leads to accuracy t", "001.gaussian.better"),
    ("001", "* while basic composition is optimal for", "001.composition.optimal"),
    ("002", "We show that the optimal noise probability distribution", "002.abstract"),
    ("002", "D_1,D_2 \\in \\mathcal{D}} |q(D_1) - q(D_2", "002.def.sensitivity"),
    ("002", "Constraint on the noise probability dist", "002.def.constraint"),
    ("002", "t the origin, and has a uniform distribu", "002.def.palpha"),
    ("003", "Note that for any x0𝑥0x\\geq 0, the proba", "003.laplace_rate"),
    ("003", "Laplacian distribution is not optimal as it has a heavy tail", "003.laplace.heavy"),
    ("003", "proving the tightness of the lower and u", "003.optimality"),
    ("003", "truncated Laplacian mechanism can strict", "003.sec7"),
    ("003", "our results close the previous constant multiplicative gap", "003.gap_closed"),
    ("004", "here is some bucket whose count is off b", "004.bucket.some"),
    ("004", "$$\\ln(10,000) \\approx 9.2$$", "004.first_names.ln"),
    ("004", "ages 1-10, 10-20, 20-30", "004.histogram.ages"),
    ("004", "Release the count of each disease privat", "004.selection.approach1"),
    ("004", "\"Digital Goo", "004.auction"),
    ("004", "In the digital goods auction setting, we", "004.auction.range"),
    ("004", "$\\Pr[M(x') = t] \\geq 2^{-100} \\cdot e^{-", "004.approx.example"),
    ("004", "$$\\Pr[M(x) = t] \\leq e \\cdot \\Pr[M(x') =", "004.approx.eps1"),
    ("004", "Always think", "004.approx.always"),
]


def _text(prefix: str) -> str:
    return (SEEDS / SOURCES[prefix]).read_text(encoding="utf-8")


def _headings() -> list[tuple[str, str]]:
    found = []
    for prefix in SOURCES:
        for line in _text(prefix).splitlines():
            stripped = line.strip().lstrip("#* ").strip()
            if HEADING.match(stripped) and not stripped.startswith(("Theorem 8 in",)):
                # numbered or titled headings only, not prose that mentions "Theorem 2"
                if re.match(r"^(Theorem|Lemma|Definition) \d+(\.| \(|$)", stripped) or \
                        not re.match(r"^(Theorem|Lemma|Definition) \d", stripped):
                    found.append((prefix, line.strip()))
    return found


def _numbered_id(prefix: str, line: str) -> str | None:
    m = re.match(r"^\W*(Theorem|Lemma|Definition) (\d+)", line.strip().lstrip("#* "))
    if m is None:
        return None
    kind = {"Theorem": "thm", "Lemma": "lemma", "Definition": "def"}[m.group(1)]
    return f"{prefix}.{kind}{m.group(2)}"


pytestmark = pytest.mark.skipif(not SEEDS.is_dir(), reason=f"source texts not found: {SEEDS}")


def test_every_heading_is_registered() -> None:
    missing = []
    headings = _headings()
    assert len(headings) >= 25, headings
    for prefix, line in headings:
        cid = _numbered_id(prefix, line)
        if cid is not None:
            if not any(c == cid or c.startswith(cid + ".") for c in REGISTRY):
                missing.append((prefix, line[:70], cid))
            continue
        ids = [c for src, pat, c in UNNUMBERED if src == prefix and re.search(pat, line)]
        if not ids or any(c not in REGISTRY for c in ids):
            missing.append((prefix, line[:70], ids))
    assert not missing, f"source statements without a registered claim: {missing}"


def test_numbered_statements_of_paper_and_poster() -> None:
    text = _text("003")
    for kind, label, count in (("Theorem", "thm", 7), ("Lemma", "lemma", 2),
                               ("Definition", "def", 4)):
        numbers = {int(n) for n in re.findall(rf"^{kind} (\d+)", text, flags=re.M)}
        assert numbers == set(range(1, count + 1))
        for k in numbers:
            assert any(c.startswith(f"003.{label}{k}") for c in REGISTRY), (kind, k)
    assert "002.thm3" in REGISTRY


@pytest.mark.parametrize(("prefix", "phrase", "cid"), HAND_KEPT)
def test_hand_kept_titles(prefix: str, phrase: str, cid: str) -> None:
    assert phrase in _text(prefix), f"phrase no longer in source {prefix}: {phrase!r}"
    assert cid in REGISTRY


def test_registry_fields() -> None:
    assert len(REGISTRY) == len(CLAIMS)
    root = Path(__file__).resolve().parents[2]
    for claim in CLAIMS:
        assert claim.status in STATUSES
        assert claim.source == SOURCES[claim.id.split(".")[0]]
        if claim.status == "holds as corrected":
            assert claim.corrected and claim.errata, claim.id
        if claim.errata:
            assert claim.errata.startswith("errata.md#"), claim.id
        if claim.notebook:
            assert (root / claim.notebook).is_file(), claim.notebook
        assert claim.budget > 0 and claim.statement and claim.location


def test_every_registered_claim_is_covered_by_a_statement() -> None:
    mapped = {c for _, _, c in UNNUMBERED} | {c for _, _, c in HAND_KEPT}
    for prefix, line in _headings():
        cid = _numbered_id(prefix, line)
        if cid:
            mapped |= {c for c in REGISTRY if c == cid or c.startswith(cid + ".")}
    # a proof step is covered through the statement it proves
    mapped |= {c.id for c in CLAIMS if c.kind == "proof-step" and c.theorem in mapped}
    assert set(REGISTRY) - mapped == set()


def test_kinds_and_proof_steps() -> None:
    for claim in CLAIMS:
        assert claim.kind in ("statement", "proof-step", "definition"), claim.id
        if claim.kind == "proof-step":
            assert claim.theorem in REGISTRY and claim.theorem != claim.id, claim.id
        else:
            assert claim.theorem is None, claim.id


def _normalised(text: str) -> str:
    return " ".join(text.split())


def test_printed_text_is_the_seed_text() -> None:
    """Every claim carries the source's text as printed: a verbatim excerpt of its seed file
    up to whitespace (OCR and conversion slips included), or the page/slide where the
    conversion lost it."""
    texts = {prefix: _normalised(_text(prefix)) for prefix in SOURCES}
    missing, differ = [], []
    for claim in CLAIMS:
        if claim.printed is None:
            if not (claim.lost and re.search(r"slide|page|figure|section", claim.lost, re.I)):
                missing.append(claim.id)
        elif _normalised(claim.printed) not in texts[claim.id[:3]]:
            differ.append(claim.id)
        else:
            assert len(_normalised(claim.printed)) >= 10, claim.id
    assert not missing, f"claims without their printed text: {missing}"
    assert not differ, f"printed text not found in the seed file: {differ}"


def test_corrected_text_beside_the_printed_one() -> None:
    """A claim that holds as printed but carries a corrected text names the slips it
    repairs; a corrected claim carries its erratum."""
    for claim in CLAIMS:
        if claim.corrected and claim.status == registry.HOLDS:
            assert claim.slips, claim.id
        if claim.status == CORRECTED:
            assert claim.corrected and claim.errata, claim.id


def test_every_erratum_link_has_its_entry() -> None:
    errata = (Path(__file__).resolve().parents[2] / "docs" / "errata.md").read_text(
        encoding="utf-8")
    for claim in CLAIMS:
        if claim.errata:
            label = claim.errata.split("#", 1)[1]
            assert f"({label})=\n### " in errata, (claim.id, label)


def test_decisions() -> None:
    """Every claim says how it is decided; the points of an instance check are listed; a
    claim not decided by a proof says why; at most five proof steps are not proofs; only a
    proof reads "holds"."""
    kinds = {d: [c for c in CLAIMS if c.decision == d] for d in registry.DECISIONS}
    assert sum(map(len, kinds.values())) == len(CLAIMS)
    for claim in kinds[registry.INSTANCES]:
        assert claim.points and claim.undecided, claim.id  # the points, and why only them
        assert registry.status_text(claim.status, claim.decision, len(claim.points)) \
            .endswith(f"at {len(claim.points)} instances"), claim.id
    for claim in kinds[registry.UNDECIDED]:
        assert claim.undecided and not claim.points, claim.id
        assert registry.status_text(claim.status, claim.decision) == registry.NOT_DECIDED
    for claim in kinds[registry.PROOF]:
        assert not claim.points and not claim.undecided, claim.id
    for status in STATUSES:
        for decision in (registry.INSTANCES, registry.UNDECIDED):
            assert registry.status_text(status, decision, 3) != registry.HOLDS
    steps = [c.id for c in CLAIMS if c.kind == "proof-step" and c.decision != registry.PROOF]
    assert len(steps) <= 5, steps
    # most of the registry is decided over its whole domain
    assert len(kinds[registry.PROOF]) >= 0.9 * len(CLAIMS)


def test_the_check_command_prints_the_decision(capsys) -> None:
    from dpsym.cli import main

    assert main(["check", "003.thm1", "000.p3.0d.lm"]) == 0
    out = capsys.readouterr().out
    assert "DECISION" in out and "proof" in out and "instances" in out
    assert re.search(r"holds at \d+ instances", out)
    assert re.search(r"2 of 2 claims as registered; decided by proof 1, at instances 1, "
                     r"undecided 0", out)


def test_every_claim_is_covered_by_a_notebook_cell_or_elsewhere() -> None:
    """A proof step is reproduced by a notebook cell that cites its id; any other claim by a
    cell citing it, by the notebook of its section, or it is explicitly covered elsewhere
    (its check, run by ``dpsym check`` and this file)."""
    uncovered = []
    for claim in CLAIMS:
        where = registry.notebook_cell(claim)
        cited = where.startswith("notebooks/") and ", cell " in where
        if claim.kind == "proof-step" and not cited:
            uncovered.append((claim.id, where))
        elif not (cited or where.startswith("covered elsewhere: ")
                  or (claim.notebook and where.startswith(claim.notebook))):
            uncovered.append((claim.id, where))
    assert not uncovered, uncovered


def test_notebook_cell_does_not_confuse_a_statement_with_its_steps() -> None:
    step = next(c for c in CLAIMS if c.kind == "proof-step" and c.theorem == "003.thm2")
    assert registry.notebook_cell(step).startswith("notebooks/proofs_003.py, cell ")
    # the statement 003.thm2 is not cited by the cells of its steps ("003.thm2.s{j}")
    assert "proofs_003" not in registry.notebook_cell(REGISTRY["003.thm2"])


@pytest.mark.parametrize("cid", list(REGISTRY))
def test_claim(cid: str) -> None:
    """The claim's check gives its registered verdict, and rejects every mutant of its
    formula (a constant times 1 +- 1e-3, a sign, an exponent, an inequality's direction, a
    limit point), unless the mutant is equivalent: it moves the bound of a relation of a
    claim with declared slack."""
    (result,) = run_claims([cid])
    assert result.verdict is not None, result.detail
    assert result.ok, (f"{cid}: registered {result.claim.status!r}, computed "
                       f"{result.status!r}: {result.detail}")
    assert result.verdict.points == result.claim.points, cid
    if result.claim.decision != registry.PROOF:
        assert result.status_text != registry.HOLDS, cid
    entry = REGISTRY[cid]
    mutated = mutate_claim(entry)
    survivors = [r.mutant.description for r in mutated if not r.killed and not r.equivalent]
    assert not survivors, f"{cid}: surviving mutants {survivors}"
    for r in mutated:
        if r.equivalent:
            assert entry.slack and r.mutant.operator != "relation"


def test_run_claims_selection_and_progress() -> None:
    seen = []
    results = run_claims(["004.tail", "004.union"], progress=seen.append)
    assert [r.claim.id for r in results] == ["004.tail", "004.union"] == [
        r.claim.id for r in seen]
    with pytest.raises(KeyError):
        run_claims(["no.such.claim"])


# ---------------------------------------------------------------------- registration
def _holds() -> Verdict:
    return Verdict(True, detail="fine")


def test_claim_decorator_registers_the_check(monkeypatch) -> None:
    monkeypatch.setattr(registry, "REGISTRY", {})
    decorated = registry.claim("004.x", "a location", "a statement", notebook="nb.py",
                               budget=1)(_holds)
    assert decorated is _holds
    entry = registry.REGISTRY["004.x"]
    assert (entry.source, entry.location, entry.statement, entry.notebook, entry.budget,
            entry.status) == (SOURCES["004"], "a location", "a statement", "nb.py", 1, "holds")
    assert entry.check is _holds and registry.get_claim("004.x") is entry
    assert [r.claim.id for r in registry.run_claims()] == ["004.x"]


def test_claim_decorator_refuses_duplicates_and_bad_entries(monkeypatch) -> None:
    with pytest.raises(ValueError, match="already registered"):
        registry.register(CLAIMS[0])
    assert list(REGISTRY) == [c.id for c in CLAIMS]
    monkeypatch.setattr(registry, "REGISTRY", {})
    registry.claim("001.x", "loc", "statement")(_holds)
    with pytest.raises(ValueError, match="already registered"):
        registry.claim("001.x", "loc", "another statement")(_holds)
    with pytest.raises(ValueError, match="unknown source prefix"):
        registry.claim("009.x", "loc", "statement")
    with pytest.raises(ValueError, match="unknown status"):
        registry.claim("001.y", "loc", "statement", status="true")(_holds)
    with pytest.raises(ValueError, match="corrected"):
        registry.claim("001.y", "loc", "statement", status=CORRECTED)(_holds)
    with pytest.raises(ValueError, match="does not match"):
        registry.register(Claim("001.y", SOURCES["002"], "loc", "statement", _holds))
    assert list(registry.REGISTRY) == ["001.x"]


def test_registry_keeps_source_order(monkeypatch) -> None:
    monkeypatch.setattr(registry, "REGISTRY", {})
    for cid in ("003.a", "001.a", "003.b", "000.a", "001.b"):
        registry.claim(cid, "loc", "statement")(_holds)
    assert list(registry.REGISTRY) == ["000.a", "001.a", "001.b", "003.a", "003.b"]


def test_registry_order_does_not_depend_on_the_import_order(monkeypatch) -> None:
    assert list(REGISTRY) == [c.id for c in CLAIMS]
    prefixes = [c.id.split(".")[0] for c in CLAIMS]
    assert prefixes == sorted(prefixes)
    monkeypatch.setattr(registry, "REGISTRY", {})
    for prefix, module in reversed(SOURCE_MODULES.items()):
        for mod in [module, *PROOF_MODULES.get(prefix, [])]:
            importlib.reload(mod)
    assert list(registry.REGISTRY) == [c.id for c in CLAIMS]


@pytest.mark.parametrize("prefix", list(SOURCE_MODULES))
def test_each_source_module_registers_only_its_source(monkeypatch, prefix: str) -> None:
    mine = [c.id for c in CLAIMS if c.id.startswith(prefix + ".")]
    assert mine
    modules = [SOURCE_MODULES[prefix], *PROOF_MODULES.get(prefix, [])]
    names = {m.__name__ for m in modules}
    assert all(get_claim(cid).check.__module__ in names for cid in mine)
    for proofs in PROOF_MODULES.get(prefix, []):  # a proofs module registers proof steps only
        assert all(get_claim(cid).kind == "proof-step" for cid in mine
                   if get_claim(cid).check.__module__ == proofs.__name__)
    monkeypatch.setattr(registry, "REGISTRY", {})
    for module in modules:
        importlib.reload(module)
    assert list(registry.REGISTRY) == mine


def test_a_failing_check_is_an_error() -> None:
    def broken() -> Verdict:
        raise ZeroDivisionError("no")

    result = run_claim(Claim("004.x", SOURCES["004"], "loc", "statement", broken))
    assert (result.status, result.ok, result.verdict) == ("error", False, None)
    assert result.detail == "ZeroDivisionError: no"


# ---------------------------------------------------------------------- decided for every case
def test_generic_tools_decide_and_refuse() -> None:
    import sympy as sp

    from dpsym.claims.generic import affine_range, cone_certificate, log_gap
    from dpsym.symbols import Delta, delta, eps

    u, th = sp.symbols("u theta", real=True)
    assert affine_range(eps - eps * th, [u], [th], [eps, Delta]) == (0, 2 * eps)
    assert affine_range(eps * th + u, [u], [th], [eps]) == (-sp.oo, sp.oo)
    assert affine_range(eps * th**2, [u], [th], [eps]) is None
    assert log_gap(sp.exp(eps * u), sp.exp(eps * u + eps)) == eps
    p, q = sp.symbols("p q", nonnegative=True)
    gens = {"e^eps q - p >= 0": (sp.exp(eps) * q - p, p)}
    assert cone_certificate(sp.exp(eps) * q + delta - p, [p, q, delta], gens, [eps])[0]
    assert not cone_certificate(sp.exp(eps) * q - p - delta / 2, [p, q, delta], gens,
                                [eps])[0]


def test_exponential_mechanism_steps_reject_other_calibrations() -> None:
    import sympy as sp

    from dpsym.symbols import Delta, eps

    w = sp.Symbol("w", real=True)
    s1, s3, s4 = (get_claim(f"004.exp.privacy.s{j}") for j in (1, 3, 4))
    half = {"weight": sp.exp(eps * w / (2 * Delta)), "bound": eps * (w + Delta) / Delta,
            "rate": sp.exp(eps)}
    assert not s1.run(half).printed
    assert s1.run({**half, "bound": eps * (w + Delta) / (2 * Delta),
                   "rate": sp.exp(eps / 2)}).printed
    assert not s1.run({**s1.formula, "rate": sp.exp(eps / 2)}).printed
    assert not s3.run({"bound": s3.formula["bound"] / sp.exp(eps / 2)}).printed
    assert not s4.run({"final": sp.exp(3 * eps / 2)}).printed


def test_measure_chains_reject_a_wrong_link() -> None:
    from dpsym.symbols import delta

    recipe, gauss = get_claim("001.catastrophic.s1"), get_claim("001.gaussian.classic.s1")
    assert recipe.run().printed and gauss.run().printed
    # dropping delta from a link, or halving it, is not certified
    assert not recipe.run({**recipe.formula, "l4": recipe.formula["l4"] - delta}).printed
    assert not gauss.run({**gauss.formula, "l3": gauss.formula["l3"] - delta / 2}).printed
    shame = get_claim("001.name_and_shame.s1")
    assert not shame.run({**shame.formula, "bound": shame.formula["bound"] - delta / 2}).printed


def test_name_and_shame_reduction_against_an_enumeration() -> None:
    """For n = 3 entries (delta = 1/5, entry i = 1 differs), every event of a sample: the
    probabilities computed by enumerating the product law satisfy the step, and the gap is
    delta (1 - r1 + r2) with the slice probabilities r1, r2 of the other entries."""
    import itertools
    from fractions import Fraction

    d = Fraction(1, 5)
    data, other = (1, 0, 1), (1, 1, 1)

    def law(xs):
        out = {}
        for keep in itertools.product((0, 1), repeat=3):
            z = tuple(x if k else None for x, k in zip(xs, keep, strict=True))
            pr = Fraction(1)
            for k in keep:
                pr *= d if k else 1 - d
            out[z] = out.get(z, 0) + pr
        return out
    p, q = law(data), law(other)
    space = sorted(set(p) | set(q), key=str)
    rng = __import__("random").Random(5)
    for _ in range(200):
        ev = {z for z in space if rng.random() < 0.5}
        pe, qe = sum(p.get(z, 0) for z in ev), sum(q.get(z, 0) for z in ev)
        rest: dict = {}
        for z, pr in law((data[0], None, data[2])).items():  # the law of the other entries
            rest[(z[0], z[2])] = rest.get((z[0], z[2]), 0) + pr
        r0, r1 = (sum(pr for k, pr in rest.items() if (k[0], y, k[1]) in ev) for y in (0, 1))
        assert pe <= qe + d
        assert qe + d - pe == d * (1 - r0 + r1)


def _ratio_mp(e: str, dl: str) -> tuple:
    """(amplitude, power) ratio TLap/AGauss at Delta = 1, independently: the truncated
    Laplacian's costs from the paper's closed forms and mu = 1/sigma* by bisection of the
    Gaussian profile, 40 digits."""
    import mpmath

    with mpmath.workdps(40):
        ee, dd = mpmath.mpf(e), mpmath.mpf(dl)
        c = mpmath.expm1(ee) / (2 * dd)
        L = mpmath.log1p(c)
        amp = (1 - L / c) / ee
        pw = (2 - (L**2 + 2 * L) / c) / ee**2

        def prof(mu):
            return (mpmath.ncdf(mu / 2 - ee / mu) - mpmath.exp(ee) * mpmath.ncdf(-mu / 2 - ee / mu)
                    - dd)
        lo, hi = mpmath.log(mpmath.mpf("1e-12")), mpmath.log(mpmath.mpf(1000))
        for _ in range(140):  # bisection in log mu: the profile increases with mu
            mid = (lo + hi) / 2
            lo, hi = (mid, hi) if prof(mpmath.exp(mid)) < 0 else (lo, mid)
        mu = mpmath.exp((lo + hi) / 2)
        return amp * mu * mpmath.sqrt(mpmath.pi / 2), pw * mu**2


def test_section6_enclosure_contains_independent_values() -> None:
    import math
    import random

    import mpmath

    from dpsym.claims.sec6_bound import maximise

    for cost, which in (("amplitude", 0), ("power", 1)):
        enc = maximise(cost)
        lo, hi = mpmath.mpf(enc.lower.lower().str(30, radius=False)), \
            mpmath.mpf(enc.upper.str(30, radius=False))
        assert hi - lo <= mpmath.mpf("1e-6")
        at = _ratio_mp(repr(enc.at[0]), repr(enc.at[1]))[which]
        assert lo - mpmath.mpf("1e-12") <= at <= hi
        rng = random.Random(7)
        for _ in range(25):
            e = math.exp(rng.uniform(math.log(1e-4), math.log(10)))
            dl = math.exp(rng.uniform(math.log(1e-6), math.log(0.1)))
            assert _ratio_mp(repr(e), repr(dl))[which] <= hi
        # the edge delta = 0.1 next to the located maximiser, and the ridge delta = 0.289 eps
        for e, dl in ((enc.at[0] * 0.999, 0.1), (enc.at[0] * 1.001, 0.1), (1e-3, 2.89e-4)):
            assert _ratio_mp(repr(e), repr(dl))[which] <= hi


def test_poster_duality_rejects_a_wrong_certificate(monkeypatch) -> None:
    import sympy as sp

    from dpsym.claims import unimodal
    from dpsym.mechanisms import UniformMass

    engine = UniformMass.formula("cost", "amplitude")
    assert unimodal.duality_certificate("amplitude", engine)[0]
    scaled = sp.Piecewise(*[(e * sp.Rational(1001, 1000), c) for e, c in engine.args])
    assert not unimodal.duality_certificate("amplitude", scaled)[0]
    lam, nu, L, dl = unimodal.CERTIFICATES[("amplitude", "low")]
    monkeypatch.setitem(unimodal.CERTIFICATES, ("amplitude", "low"),
                        (lam * sp.Rational(11, 10), nu, L, dl))
    assert not unimodal.duality_certificate("amplitude", engine)[0]
