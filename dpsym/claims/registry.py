r"""The claim data model, the registry, the registration decorator and the runner.

A source module (``slides_000``, ``notes_001``, ...) registers each statement where its
check is written::

    @claim("003.thm2", "Section 3, Theorem 2", "V1* <= V1upp = ...",
           notebook="notebooks/truncated_laplace.py")
    def _tl_cost_amplitude() -> Verdict:
        ...

and a parametrised check registers each instance explicitly,
``claim("000.p2.eps0", ...)(_md_series("eps->0"))``. :data:`REGISTRY` is in source
order: by source (``"000"`` to ``"004"``), then in registration order, which is the order
of the statements in the source text.

Statuses: :data:`HOLDS` (true as printed; an erratum may still record that it is
imprecise, e.g. an inequality that is an equality), :data:`CORRECTED` (false as printed,
the corrected statement holds), :data:`FAILS` (false, and no correction is registered).

Decisions say how a verdict is reached: :data:`PROOF` (decided over the whole stated
domain: a symbolic identity, an inequality proven over the domain, an interval covering
with rigorous bounds, an LP dual certificate checked exactly, a counterexample with
certified numbers), :data:`INSTANCES` (checked at the listed points only) or
:data:`UNDECIDED` (with the reason). The status a reader sees says it
(:func:`status_text`): "holds" only for a proof; "holds at N instances" and "not decided"
otherwise.

Every claim carries the source's text as printed (``printed``, conversion slips included,
a verbatim excerpt of the seed file up to whitespace) or says where the conversion lost it
(``lost``); ``statement`` is its reading in plain text and ``corrected`` the corrected form
where the two differ (a mathematical erratum, or a slip of the source or of its conversion,
``slips``).
"""

from __future__ import annotations

import re
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TypeVar

from dpsym.notebook import show_verdict

HOLDS = "holds"
CORRECTED = "holds as corrected"
FAILS = "fails"
STATUSES = (HOLDS, CORRECTED, FAILS)
KINDS = ("statement", "proof-step", "definition")
PROOF = "proof"
INSTANCES = "instances"
UNDECIDED = "undecided"
DECISIONS = (PROOF, INSTANCES, UNDECIDED)
NOT_DECIDED = "not decided"


def status_text(status: str, decision: str, points: int = 0) -> str:
    """The status as a reader sees it: ``status`` (one of :data:`STATUSES`, or
    ``"error"``) for a proof; ``"<status> at N instances"`` for a claim checked at ``points``
    instances only; ``"not decided"`` for an undecided claim whose evidence agrees
    (a failing evidence, or an error, is reported as such)."""
    if status == "error":
        return status
    if decision == INSTANCES:
        return f"{status} at {points} instance{'s' if points != 1 else ''}"
    if decision == UNDECIDED:
        return NOT_DECIDED if status != FAILS else f"{FAILS} (evidence of an undecided claim)"
    return status

#: Source files by prefix.
SOURCES = {
    "000": "000_40cdc9fbd3c33a29.txt",
    "001": "001_78cbe2bf09a5abad.txt",
    "002": "002_b49c208d655d6f5c.txt",
    "003": "003_046dfff3fbbb1203.txt",
    "004": "004_f0c17b49e9dc2c20.txt",
}


@dataclass(frozen=True)
class Verdict:
    """What a check computed.

    Attributes
    ----------
    printed : bool
        The statement holds as printed.
    corrected : bool or None
        The registered corrected statement holds (``None``: none was checked).
    detail : str
        The numbers behind the verdict.
    points : tuple of str
        The instances a check of decision :data:`INSTANCES` checked (empty for a proof).
    """

    printed: bool
    corrected: bool | None = None
    detail: str = ""
    points: tuple[str, ...] = ()

    @property
    def status(self) -> str:
        """The computed status."""
        if self.printed:
            return HOLDS
        return CORRECTED if self.corrected else FAILS


@dataclass(frozen=True)
class Claim:
    """One source statement and its check.

    Attributes
    ----------
    id : str
        ``"<source>.<label>"``, e.g. ``"003.thm2"``.
    source : str
        The source file (``shared/seeds/<source>``).
    location : str
        Section, heading or slide title.
    statement : str
        The statement in plain text, as the source means it (its reading of ``printed``).
    check : callable
        Returns a :class:`Verdict` (takes ``formula`` when the claim has one).
    status : str
        The registered status, one of :data:`STATUSES`.
    corrected : str or None
        The corrected statement (status ``"holds as corrected"``), or the printed text with
        its slips repaired (status ``"holds"``, with ``slips``).
    errata : str or None
        Link to the erratum, ``errata.md#<entry>``.
    notebook : str or None
        The notebook that derives it (``notebooks/<name>.py``).
    budget : float
        Seconds the check may take on the reference machine.
    formula : dict or None
        The statement the check decides, as sympy objects by name (expressions, relations
        with a placeholder for the computed side, limit points under keys ``"limit..."``):
        the printed statement for a claim that holds, the corrected one for a claim that
        holds as corrected. The check is then called as ``check(formula)``, so a mutant of
        the formula (:mod:`dpsym.claims.mutation`) is decided by the same check.
    kind : str
        ``"statement"``, ``"proof-step"`` or ``"definition"``.
    theorem : str or None
        The parent claim of a proof step.
    no_mutants : str or None
        Why a claim without a formula has no mutants.
    slack : str or None
        For an inequality that is not sharp: the located extreme showing the slack (a
        surviving mutant that moves the bound of a relation is then *equivalent*).
    undecided : str or None
        Why the engine does not decide the claim over its whole domain (decision
        :data:`UNDECIDED`, e.g. a step the source gives only as a title: the check then
        reports the evidence it has; or :data:`INSTANCES`: why only the points).
    decision : str
        How the verdict is reached: :data:`PROOF`, :data:`INSTANCES` or :data:`UNDECIDED`.
    points : tuple of str
        The instances of an :data:`INSTANCES` claim (its check reports the same ones).
    printed : str or None
        The source's text as printed, conversion slips included: a verbatim excerpt of the
        seed file (up to whitespace).
    lost : str or None
        Where the conversion lost the printed text (a figure, a slide), when ``printed``
        cannot be given.
    slips : str or None
        For a claim that holds but whose ``corrected`` text differs from ``printed``: the
        slips (of the source or of its conversion) the corrected text repairs.
    weaker : dict
        Formula entries (not relations) in which the statement is monotone, by name: +1
        if a larger value keeps it true (a noise scale: more noise stays private), -1 if a
        smaller one does, 0 for a rate (O, Theta: any positive multiple is the same
        statement). A surviving mutant that moves such an entry that way is *equivalent*
        (reported with ``slack``, which must say why).
    """

    id: str
    source: str
    location: str
    statement: str
    check: Callable[..., Verdict] = field(repr=False, compare=False)
    status: str = HOLDS
    corrected: str | None = None
    errata: str | None = None
    notebook: str | None = None
    budget: float = 5.0
    formula: dict | None = field(default=None, compare=False)
    kind: str = "statement"
    theorem: str | None = None
    no_mutants: str | None = None
    slack: str | None = None
    undecided: str | None = None
    decision: str = PROOF
    points: tuple[str, ...] = ()
    printed: str | None = None
    lost: str | None = None
    slips: str | None = None
    weaker: dict = field(default_factory=dict, compare=False)

    def __repr__(self) -> str:
        return f"Claim({self.id!r}, {self.status_text!r})"

    def run(self, formula: dict | None = None) -> Verdict:
        """Run the check, on ``formula`` (default: the registered one) if it has one."""
        if self.formula is None:
            return self.check()
        return self.check(self.formula if formula is None else formula)

    @property
    def status_text(self) -> str:
        """The registered status as a reader sees it (:func:`status_text`)."""
        return status_text(self.status, self.decision, len(self.points))

    @property
    def decides(self) -> str:
        """The verdict field that must be true: ``"printed"`` (holds) or ``"corrected"``."""
        return "corrected" if self.status == CORRECTED else "printed"


@dataclass(frozen=True)
class Result:
    """The outcome of running one claim's check."""

    claim: Claim = field(repr=False)
    verdict: Verdict | None = field(repr=False)
    seconds: float
    detail: str = field(repr=False)

    def __repr__(self) -> str:
        return f"Result({self.claim.id!r}, {self.status_text!r}, ok={self.ok})"

    @property
    def status(self) -> str:
        """The computed status (``"error"`` if the check raised)."""
        return self.verdict.status if self.verdict is not None else "error"

    @property
    def points(self) -> tuple[str, ...]:
        """The instances the check reported."""
        return self.verdict.points if self.verdict is not None else ()

    @property
    def status_text(self) -> str:
        """The computed status as a reader sees it (:func:`status_text`)."""
        return status_text(self.status, self.claim.decision, len(self.points))

    @property
    def ok(self) -> bool:
        """The computed status is the registered one, reached the registered way (a check
        of an :data:`INSTANCES` claim reports exactly the registered points; a proof
        reports none)."""
        return self.status == self.claim.status and self.points == self.claim.points


# ----------------------------------------------------------------------------- registry

#: Claims by id, in source order (by source, then in registration order).
REGISTRY: dict[str, Claim] = {}

Check = TypeVar("Check", bound=Callable[..., Verdict])


def register(entry: Claim) -> Claim:
    """Add ``entry`` to :data:`REGISTRY` (after the claims of its source and of the
    sources before it) and return it.

    Raises
    ------
    ValueError
        If the id is already registered, its prefix is not a source of :data:`SOURCES` (or
        ``entry.source`` is not that source's file), the status is not one of
        :data:`STATUSES`, or a ``"holds as corrected"`` claim has no corrected statement
        or erratum.
    """
    prefix = entry.id.split(".", 1)[0]
    if SOURCES.get(prefix) != entry.source:
        raise ValueError(f"claim {entry.id!r}: source {entry.source!r} does not match its "
                         f"prefix {prefix!r} (sources: {', '.join(SOURCES)})")
    if entry.id in REGISTRY:
        raise ValueError(f"claim {entry.id!r} is already registered")
    if entry.status not in STATUSES:
        raise ValueError(f"claim {entry.id!r}: unknown status {entry.status!r}")
    if entry.kind not in KINDS:
        raise ValueError(f"claim {entry.id!r}: unknown kind {entry.kind!r}")
    if entry.status == CORRECTED and not (entry.corrected and entry.errata):
        raise ValueError(f"claim {entry.id!r}: a corrected claim needs its corrected "
                         "statement and erratum")
    if entry.status == HOLDS and entry.corrected and not entry.slips:
        raise ValueError(f"claim {entry.id!r}: a claim that holds has a corrected text only "
                         "for the slips it repairs (give slips)")
    if entry.decision not in DECISIONS:
        raise ValueError(f"claim {entry.id!r}: unknown decision {entry.decision!r}")
    if (entry.decision == INSTANCES) != bool(entry.points):
        raise ValueError(f"claim {entry.id!r}: the points are listed exactly for a claim "
                         "decided at instances")
    if entry.weaker and not entry.slack:
        raise ValueError(f"claim {entry.id!r}: monotone entries need the slack that says why")
    if (entry.decision != PROOF) != bool(entry.undecided):
        raise ValueError(f"claim {entry.id!r}: a claim not decided by a proof (and only it) "
                         "gives the reason")
    REGISTRY[entry.id] = entry
    if any(other.split(".", 1)[0] > prefix for other in REGISTRY):
        # keep source order whatever order the source modules are imported in
        ordered = sorted(REGISTRY.values(), key=lambda cl: cl.id.split(".", 1)[0])
        REGISTRY.clear()
        REGISTRY.update((cl.id, cl) for cl in ordered)
    return entry


def claim(cid: str, location: str, statement: str, *, status: str = HOLDS,
          corrected: str | None = None, errata: str | None = None,
          notebook: str | None = None, budget: float = 5.0, formula: dict | None = None,
          kind: str = "statement", theorem: str | None = None,
          no_mutants: str | None = None, slack: str | None = None,
          undecided: str | None = None, decision: str | None = None,
          points: tuple[str, ...] = (), printed: str | None = None, lost: str | None = None,
          slips: str | None = None, weaker: dict | None = None) -> Callable[[Check], Check]:
    """Decorator: register the decorated check as the claim ``cid`` (see :class:`Claim`
    for the arguments; the source file is read from the id's prefix).

    The check is returned unchanged. A factory's instance registers the same way:
    ``claim(cid, ...)(factory(args))``. With ``formula``, the check takes the formula as
    its one argument. The decision defaults to :data:`INSTANCES` when ``points`` are given,
    to :data:`UNDECIDED` with a reason ``undecided``, else to :data:`PROOF`.
    """
    if decision is None:
        decision = INSTANCES if points else UNDECIDED if undecided else PROOF
    prefix = cid.split(".", 1)[0]
    if prefix not in SOURCES:
        raise ValueError(f"claim {cid!r}: unknown source prefix {prefix!r}")

    def decorate(check: Check) -> Check:
        register(Claim(cid, SOURCES[prefix], location, statement, check, status=status,
                       corrected=corrected, errata=errata, notebook=notebook, budget=budget,
                       formula=formula, kind=kind, theorem=theorem, no_mutants=no_mutants,
                       slack=slack, undecided=undecided, decision=decision,
                       points=tuple(points), printed=printed, lost=lost, slips=slips,
                       weaker=dict(weaker or {})))
        return check

    return decorate


# ----------------------------------------------------------------------------- coverage

#: The notebooks directory of the repository.
NOTEBOOKS = Path(__file__).resolve().parents[2] / "notebooks"


def notebook_cell(entry: Claim) -> str:
    """Where ``entry`` is reproduced: ``"notebooks/<name>.py, cell <n>"`` for the first
    notebook cell (``# %%`` separators, counted from 1) that cites the claim id; otherwise
    the registered notebook, marked as not citing the id; otherwise where else it is
    covered (the claim's check, run by ``dpsym check`` and ``tests/claims/test_registry.py``)."""
    # an id followed by ".s1" (or ".s{j}") is another claim's id, not this one
    pattern = re.compile(r"(?<![\w.])" + re.escape(entry.id) + r"(?!\w|\.[\w{])")
    if NOTEBOOKS.is_dir():
        for path in sorted(NOTEBOOKS.glob("*.py")):
            text = path.read_text(encoding="utf-8")
            if entry.id not in text or (found := pattern.search(text)) is None:
                continue
            # the cells begun up to the line of the first citation (that line included)
            upto = text.find("\n", found.start())
            cell = sum(line.startswith("# %%")
                       for line in text[:len(text) if upto < 0 else upto].splitlines())
            return f"notebooks/{path.name}, cell {max(cell, 1)}"
    if entry.notebook:
        return f"{entry.notebook} (the section of this statement; the id is not cited)"
    return (f"covered elsewhere: tests/claims/test_registry.py::test_claim[{entry.id}] "
            "(dpsym check)")


# ----------------------------------------------------------------------------- runner

def get_claim(cid: str) -> Claim:
    """The claim called ``cid`` (``KeyError`` lists nothing: use :data:`REGISTRY`)."""
    return REGISTRY[cid]


def run_claim(entry: Claim) -> Result:
    """Run one claim's check, timing it; an exception becomes status ``"error"``."""
    start = time.perf_counter()
    try:
        verdict = entry.run()
        detail = verdict.detail
    except Exception as exc:
        verdict, detail = None, f"{type(exc).__name__}: {exc}"
    return Result(entry, verdict, time.perf_counter() - start, detail)


def run_claims(ids: Iterable[str] | None = None,
               progress: Callable[[Result], None] | None = None) -> list[Result]:
    """Run the checks of the claims ``ids`` (default: all, in registry order).

    Parameters
    ----------
    ids : iterable of str, optional
        Claim ids; an id that ends with ``"."`` or names a source (``"003"``) selects every
        claim with that prefix. An unknown id raises ``KeyError``.
    progress : callable, optional
        Called with each :class:`Result` as soon as it is computed.

    Returns
    -------
    list of Result
        ``(claim, verdict, seconds, detail)`` per claim; ``Result.ok`` compares the
        computed status with the registered one.
    """
    if ids is None:
        selected = list(REGISTRY.values())
    else:
        selected = []
        for cid in ids:
            if cid in REGISTRY:
                selected.append(REGISTRY[cid])
                continue
            prefix = cid if cid.endswith(".") else cid + "."
            found = [cl for cl in REGISTRY.values() if cl.id.startswith(prefix)]
            if not found:
                raise KeyError(f"unknown claim {cid!r}")
            selected.extend(found)
    results = []
    for entry in selected:
        res = run_claim(entry)
        results.append(res)
        if progress is not None:
            progress(res)
    return results


class ClaimFailed(AssertionError):
    """A claim's check did not give its registered status (:func:`verify_step`)."""


def claim_rows(entry: Claim, result: Result | None = None) -> list[tuple[str, str]]:
    """The labelled lines a reader sees for ``entry``: the text as printed (or where the
    conversion lost it), its reading, the corrected form or the slips it repairs, why it is
    undecided, and -- with a ``result`` -- the verdict against the registered one and the
    engine's derivation."""
    rows = [("printed", entry.printed) if entry.printed else
            ("printed text lost", entry.lost or "not transcribed"),
            ("statement", entry.statement)]
    if entry.corrected:
        rows.append(("corrected" if entry.status != HOLDS else "read as", entry.corrected))
    for label, text in (("slips", entry.slips), ("erratum", entry.errata),
                        ("not decided over the domain because", entry.undecided)):
        if text:
            rows.append((label, text))
    if result is not None:
        rows.append(("verdict", f"{result.status_text} (registered: {entry.status_text})"))
        rows.append(("derivation", result.detail))
    return rows


def verify_step(cid: str) -> None:
    """Run the check of the claim ``cid`` (a proof step or a statement) and show it as a
    notebook cell shows it (:func:`dpsym.notebook.show_verdict`): the statement as printed
    and as read, the corrected statement or why it is undecided, the verdict badge (how the
    verdict was reached), the instances of a check at points, and the derivation; raise
    :class:`ClaimFailed` unless the verdict is the registered one. Returns nothing (a cell
    shows no object)."""
    (res,) = run_claims([cid])
    entry = get_claim(cid)
    show_verdict(f"{cid} ({entry.location})", claim_rows(entry, res), entry.decision,
                 res.status_text, res.points)
    if not res.ok:
        raise ClaimFailed(f"{cid}: {res.status_text}, registered {entry.status_text} "
                          f"({res.detail})")


__all__ = ["CORRECTED", "DECISIONS", "FAILS", "HOLDS", "INSTANCES", "KINDS", "NOT_DECIDED",
           "PROOF", "REGISTRY", "SOURCES", "STATUSES", "UNDECIDED", "Claim", "ClaimFailed",
           "Result", "Verdict", "claim", "claim_rows", "get_claim", "notebook_cell",
           "register", "run_claim", "run_claims", "status_text", "verify_step"]
