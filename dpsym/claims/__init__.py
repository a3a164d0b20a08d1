r"""The registry of the source statements, each with a check computed by the engine.

Every statement of the five source texts (``shared/seeds/``: 000 thesis slides, 001
lecture notes on approximate DP, 002 poster, 003 paper, 004 lecture notes on the Laplace
and exponential mechanisms) is a :class:`Claim`: an id such as ``"003.thm2"``, its source
file and location, the statement in words, a *check* -- a function that recomputes the
statement with the engine (sympy identities and limits from the mechanism classes'
``formula``/``series``, certified values from ``value``, exact privacy profiles from
``privacy_profile``, bounds from :mod:`dpsym.bounds`, exact finite computations from
:mod:`dpsym.mechanisms.textbook`) and returns a :class:`Verdict` -- the registered status and, for a
statement that is false as printed, its corrected form and the erratum that explains it.

The check decides; the registry only *states* what the check must find. A check returns
whether the statement holds as printed and, when it does not, whether the corrected
statement holds; :func:`run_claims` turns that into the computed status and compares it
with the registered one (:attr:`Result.ok`). The source's printed constants appear only
as the claim being tested.

One module per source text registers its statements where their checks are written
(:func:`~dpsym.claims.registry.claim`): :mod:`~dpsym.claims.slides_000`,
:mod:`~dpsym.claims.notes_001`, :mod:`~dpsym.claims.poster_002`,
:mod:`~dpsym.claims.paper_003`, :mod:`~dpsym.claims.notes_004`, imported here (the proof
steps of the paper and of the slides are in :mod:`~dpsym.claims.paper_003_proofs` and
:mod:`~dpsym.claims.slides_000_proofs`, registered after their sources' statements); the
registry keeps source order (by source, then in the order of the statements in the source
text), which is the order of :data:`CLAIMS`. The data model, the registry and the
runner are in :mod:`~dpsym.claims.registry`.

Statuses: ``"holds"`` (true as printed; an erratum may still record that it is imprecise,
e.g. an inequality that is an equality), ``"holds as corrected"`` (false as printed, the
corrected statement holds), ``"fails"`` (false, and no correction is registered). Each
claim also says how its verdict is reached (``decision``: ``"proof"``, ``"instances"`` with
the points, ``"undecided"`` with the reason), and a reader sees "holds" only for a proof
(:func:`~dpsym.claims.registry.status_text`).
"""

from __future__ import annotations

from dpsym.claims import (  # noqa: F401 (registering; a proofs module imports its source's first)
    notes_001,
    notes_004,
    paper_003,
    paper_003_proofs,
    poster_002,
    slides_000,
    slides_000_proofs,
)
from dpsym.claims.registry import (
    CORRECTED,
    DECISIONS,
    FAILS,
    HOLDS,
    INSTANCES,
    PROOF,
    REGISTRY,
    SOURCES,
    STATUSES,
    UNDECIDED,
    Claim,
    ClaimFailed,
    Result,
    Verdict,
    claim_rows,
    get_claim,
    notebook_cell,
    run_claim,
    run_claims,
    status_text,
    verify_step,
)

#: Every claim, in source order.
CLAIMS: tuple[Claim, ...] = tuple(REGISTRY.values())

__all__ = ["CLAIMS", "CORRECTED", "DECISIONS", "FAILS", "HOLDS", "INSTANCES", "PROOF",
           "REGISTRY", "SOURCES", "STATUSES", "UNDECIDED", "Claim", "ClaimFailed", "Result",
           "Verdict", "claim_rows", "get_claim", "notebook_cell", "run_claim", "run_claims",
           "status_text", "verify_step"]
