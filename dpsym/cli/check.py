"""``dpsym check``: run the registered source claims (theorems, lemmas, corollaries of
the source texts, each with its check), or with ``--mutate`` the checks on mutated
statements; :mod:`dpsym.claims` is the registry.

The command's module is imported only when the command runs (:func:`dpsym.cli.commands.
cmd_check`): building the registry's statements is a quarter of a second that no other
command needs.
"""

from __future__ import annotations

import argparse
import sys
from typing import Any, TextIO

from dpsym.claims import CLAIMS, DECISIONS, FAILS, notebook_cell, run_claims
from dpsym.claims.mutation import mutants, mutation_report, no_mutant_reason
from dpsym.cli.options import CliError
from dpsym.reports.printing import emit_json, format_table


def _selected(ids: list[str] | None) -> list[Any]:
    """The claims named by ``ids`` as :func:`dpsym.claims.run_claims` reads them: a
    registered id names that claim, any other id (``"003"``, ``"003.thm2."``) every claim
    under it; default all."""
    if not ids:
        return list(CLAIMS)
    known = {c.id for c in CLAIMS}
    return [c for c in CLAIMS
            if any(c.id == i if i in known else c.id.startswith(i.rstrip(".") + ".")
                   for i in ids)]


def _decision_counts(claims: list[Any]) -> dict[str, int]:
    """How many of ``claims`` are decided each way (proof, instances, undecided)."""
    return {d: sum(1 for c in claims if c.decision == d) for d in DECISIONS}


def run(args: argparse.Namespace, out: TextIO) -> int:
    """``dpsym check``: run the registered source claims; exit 1 if any disagrees."""
    ids = args.claims or None
    if ids:
        known = [c.id for c in CLAIMS]
        for cid in ids:
            if not any(k == cid or k.startswith(cid + ".") for k in known):
                raise CliError(f"claim: unknown claim {cid[:40]!r}; see 'dpsym check --list'")
    if args.list:
        rows = [(c.id, c.source, c.decision, c.status_text, c.location[:50])
                for c in _selected(ids)]
        for line in format_table([("CLAIM", "SOURCE", "DECISION", "REGISTERED", "LOCATION"),
                                  *rows]):
            out.write(line + "\n")
        return 0
    total = [0]
    progress = None
    if sys.stderr.isatty() and not args.json:
        count = len(_selected(ids))

        def progress(result: Any) -> None:
            total[0] += 1
            done = int(30 * total[0] / max(count, 1))
            sys.stderr.write(f"\r[{'#' * done}{'.' * (30 - done)}] {total[0]}/{count} "
                             f"{result.claim.id[:30]:30}")
            if total[0] == count:
                sys.stderr.write("\n")
    if getattr(args, "mutate", False):
        return _check_mutate(ids, args, out)
    results = run_claims(ids, progress=progress)
    failed = [r for r in results if not r.ok]
    counts = _decision_counts([r.claim for r in results])
    if args.json:
        emit_json({"passed": len(results) - len(failed), "failed": len(failed),
                   "decisions": counts,
                   "claims": [{"id": r.claim.id, "source": r.claim.source,
                               "decision": r.claim.decision,
                               "registered": r.claim.status_text,
                               "computed": r.status_text, "status": r.status,
                               "points": list(r.points), "ok": r.ok,
                               "seconds": round(r.seconds, 3),
                               "kind": r.claim.kind, "theorem": r.claim.theorem,
                               "printed": r.claim.printed, "lost": r.claim.lost,
                               "statement": r.claim.statement,
                               "corrected": r.claim.corrected,
                               "errata": r.claim.errata,
                               "notebook": notebook_cell(r.claim),
                               "mutants": len(mutants(r.claim.formula))
                               if r.claim.formula is not None and r.claim.status != FAILS
                               else 0,
                               "no_mutants": no_mutant_reason(r.claim),
                               "undecided": r.claim.undecided,
                               "detail": r.detail} for r in results]}, out)
    else:
        table = [("CLAIM", "SOURCE", "DECISION", "VERDICT", "TIME", "")]
        for r in results:
            table.append((r.claim.id, r.claim.source, r.claim.decision, r.status_text,
                          f"{r.seconds:.2f}s", "ok" if r.ok else "MISMATCH"))
        for line in format_table(table):
            out.write(line + "\n")
        out.write(f"{len(results) - len(failed)} of {len(results)} claims as registered; "
                  f"decided by proof {counts['proof']}, at instances {counts['instances']}, "
                  f"undecided {counts['undecided']}\n")
    return 1 if failed else 0


def _check_mutate(ids: list[str] | None, args: argparse.Namespace, out: TextIO) -> int:
    """``dpsym check --mutate``: run each claim's check on the mutants of its formula;
    exit 1 if a mutant survives (an equivalent mutant of a slack inequality excepted)."""
    selected = [c.id for c in _selected(ids)]
    report = mutation_report(selected)
    by_id = {row["id"]: row for row in report["claims"]}
    if args.json:
        emit_json({**report, "claims": [
            {**by_id[c.id], "kind": c.kind, "theorem": c.theorem,
             "notebook": notebook_cell(c)} for c in _selected(ids)]}, out)
    else:
        table = [("SOURCE", "MUTANTS", "KILLED", "EQUIVALENT", "SCORE")]
        for prefix, src in report["sources"].items():
            score = "-" if src["score"] is None else f"{100 * src['score']:.1f}%"
            table.append((prefix, str(src["mutants"]), str(src["killed"]),
                          str(src["equivalent"]), score))
        for line in format_table(table):
            out.write(line + "\n")
        for row in report["claims"]:
            for desc in row["survivors"]:
                out.write(f"SURVIVES {row['id']}: {desc}\n")
        without = sum(1 for row in report["claims"] if row["reason"])
        share = 100 * (report["coverage"] or 0)
        out.write(f"{report['killed']} of {report['mutants']} mutants killed "
                  f"({report['equivalent']} equivalent, {report['survivors']} surviving); "
                  f"mutants on {report['with_mutants']} of {report['total']} claims "
                  f"({share:.1f}%), {without} without (see --json for the reasons)\n")
    return 1 if report["survivors"] else 0
