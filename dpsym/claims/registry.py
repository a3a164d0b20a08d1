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
"""

from __future__ import annotations

import re
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TypeVar

HOLDS = "holds"
CORRECTED = "holds as corrected"
FAILS = "fails"
STATUSES = (HOLDS, CORRECTED, FAILS)
KINDS = ("statement", "proof-step", "definition")

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
    """

    printed: bool
    corrected: bool | None = None
    detail: str = ""

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
        The statement in words, as printed.
    check : callable
        Returns a :class:`Verdict` (takes ``formula`` when the claim has one).
    status : str
        The registered status, one of :data:`STATUSES`.
    corrected : str or None
        The corrected statement (status ``"holds as corrected"``).
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
        Why the engine cannot decide the step over its whole domain (e.g. a statement about
        every probability measure); the check then confirms it on the instances it names.
        ``None`` for a claim whose check decides it.
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

    def run(self, formula: dict | None = None) -> Verdict:
        """Run the check, on ``formula`` (default: the registered one) if it has one."""
        if self.formula is None:
            return self.check()
        return self.check(self.formula if formula is None else formula)

    @property
    def decides(self) -> str:
        """The verdict field that must be true: ``"printed"`` (holds) or ``"corrected"``."""
        return "corrected" if self.status == CORRECTED else "printed"


@dataclass(frozen=True)
class Result:
    """The outcome of running one claim's check."""

    claim: Claim
    verdict: Verdict | None
    seconds: float
    detail: str

    @property
    def status(self) -> str:
        """The computed status (``"error"`` if the check raised)."""
        return self.verdict.status if self.verdict is not None else "error"

    @property
    def ok(self) -> bool:
        """The computed status is the registered one."""
        return self.status == self.claim.status


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
          undecided: str | None = None) -> Callable[[Check], Check]:
    """Decorator: register the decorated check as the claim ``cid`` (see :class:`Claim`
    for the arguments; the source file is read from the id's prefix).

    The check is returned unchanged. A factory's instance registers the same way:
    ``claim(cid, ...)(factory(args))``. With ``formula``, the check takes the formula as
    its one argument.
    """
    prefix = cid.split(".", 1)[0]
    if prefix not in SOURCES:
        raise ValueError(f"claim {cid!r}: unknown source prefix {prefix!r}")

    def decorate(check: Check) -> Check:
        register(Claim(cid, SOURCES[prefix], location, statement, check, status=status,
                       corrected=corrected, errata=errata, notebook=notebook, budget=budget,
                       formula=formula, kind=kind, theorem=theorem, no_mutants=no_mutants,
                       slack=slack, undecided=undecided))
        return check

    return decorate


# ----------------------------------------------------------------------------- coverage

#: The notebooks directory of the repository.
NOTEBOOKS = Path(__file__).resolve().parents[2] / "notebooks"


def notebook_cell(entry: Claim) -> str:
    """Where ``entry`` is reproduced: ``"notebooks/<name>.py, cell <n>"`` for the first
    notebook cell (``# %%`` separators, counted from 1) that cites the claim id; otherwise
    the registered notebook, marked as not citing the id; otherwise where else it is
    covered (the claim's check, run by ``dpsym check`` and ``tests/test_claims.py``)."""
    # an id followed by ".s1" (or ".s{j}") is another claim's id, not this one
    pattern = re.compile(r"(?<![\w.])" + re.escape(entry.id) + r"(?!\w|\.[\w{])")
    if NOTEBOOKS.is_dir():
        for path in sorted(NOTEBOOKS.glob("*.py")):
            cell = 0
            for line in path.read_text(encoding="utf-8").splitlines():
                if line.startswith("# %%"):
                    cell += 1
                if pattern.search(line):
                    return f"notebooks/{path.name}, cell {max(cell, 1)}"
    if entry.notebook:
        return f"{entry.notebook} (the section of this statement; the id is not cited)"
    return (f"covered elsewhere: tests/test_claims.py::test_claim[{entry.id}] "
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


def verify_step(cid: str) -> Result:
    """Run the check of the claim ``cid`` (a proof step or a statement), print it as a
    notebook cell shows it — the statement with its location, the verdict against the
    registered status, the corrected statement or why it is not decidable, and the
    derivation — and raise :class:`ClaimFailed` unless the verdict is the registered one.
    """
    (res,) = run_claims([cid])
    entry = get_claim(cid)
    print(f"{cid} ({entry.location}): {entry.statement}")
    print(f"  verdict: {res.status} (registered: {entry.status})")
    for label, text in (("corrected", entry.corrected),
                        ("not decidable in general", entry.undecided)):
        if text:
            print(f"  {label}: {text}")
    print(f"  derivation: {res.detail}")
    if not res.ok:
        raise ClaimFailed(f"{cid}: {res.status} ({res.detail})")
    return res


__all__ = ["CORRECTED", "FAILS", "HOLDS", "KINDS", "REGISTRY", "SOURCES", "STATUSES", "Claim",
           "ClaimFailed", "Result", "Verdict", "claim", "get_claim", "notebook_cell",
           "register", "run_claim", "run_claims", "verify_step"]
