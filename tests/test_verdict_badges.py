"""The verdict badge of a checked claim (:mod:`dpsym.notebook`, :func:`dpsym.claims.verify_step`).

A notebook cell that runs a claim's check shows its printed text, its reading, the
derivation and a badge saying how the verdict was reached: HTML in Jupyter (a ``<span>``
with the classes ``dpsym-verdict`` and ``dpsym-verdict-<kind>``, styled by the
documentation's theme), a bracketed line of plain text elsewhere; never an object's repr.
"""

from __future__ import annotations

import pytest

from dpsym import notebook
from dpsym.claims import REGISTRY, registry, verify_step
from dpsym.notebook import VERDICT_KINDS, show_verdict, verdict_badge, verdict_kind


@pytest.mark.parametrize(("decision", "status", "kind"), [
    ("proof", "holds", "proof"),
    ("proof", "holds as corrected", "proof"),
    ("instances", "holds at 3 instances", "instances"),
    ("undecided", "not decided", "undecided"),
    ("proof", "fails", "fails"),
    ("instances", "fails at 2 instances", "fails"),
    ("proof", "error", "fails"),
])
def test_badge_kind_and_classes(decision: str, status: str, kind: str) -> None:
    assert verdict_kind(decision, status) == kind
    html = verdict_badge(decision, status)
    assert html == (f'<span class="dpsym-verdict dpsym-verdict-{kind}">'
                    f"{decision} · {status}</span>")
    assert verdict_badge(decision, status, html_output=False) == f"[{decision} · {status}]"


def test_badge_kinds_are_the_themed_classes() -> None:
    assert VERDICT_KINDS == ("proof", "instances", "undecided", "fails")
    with pytest.raises(ValueError, match="decision"):
        verdict_kind("sampled", "holds")


def test_badge_escapes_html() -> None:
    assert "&lt;b&gt;" in verdict_badge("proof", "<b>")


def test_plain_text_lists_the_instances(capsys: pytest.CaptureFixture[str]) -> None:
    show_verdict("x.y (somewhere)", [("statement", "a < b")], "instances",
                 "holds at 2 instances", ("a = 1", "a = 2"))
    out = capsys.readouterr().out.splitlines()
    assert out[0] == "x.y (somewhere) [instances · holds at 2 instances]"
    assert "  statement: a < b" in out and "  instances (2):" in out
    assert out[-2:] == ["    1. a = 1", "    2. a = 2"]


def test_html_in_jupyter(monkeypatch: pytest.MonkeyPatch) -> None:
    shown = []
    display = pytest.importorskip("IPython.display")  # imported where it is shown
    monkeypatch.setattr(notebook, "in_jupyter", lambda: True)
    monkeypatch.setattr(display, "HTML", lambda text: text)
    monkeypatch.setattr(display, "display", shown.append)
    show_verdict("x.y <z>", [("derivation", "1 < 2")], "undecided", "not decided")
    (html,) = shown
    assert '<span class="dpsym-verdict dpsym-verdict-undecided">undecided · not decided</span>' \
        in html
    assert "x.y &lt;z&gt;" in html and "<dd>1 &lt; 2</dd>" in html


def test_verify_step_shows_a_proof_without_reprs(capsys: pytest.CaptureFixture[str]) -> None:
    assert verify_step("004.tail") is None
    out = capsys.readouterr().out
    assert out.startswith("004.tail (") and "[proof · holds]" in out.splitlines()[0]
    assert "printed: " in out and "derivation: " in out
    for junk in ("Result(", "Claim(", "Verdict(", "object at 0x"):
        assert junk not in out


def test_verify_step_shows_the_points_of_an_instance_check(
        capsys: pytest.CaptureFixture[str]) -> None:
    entry = REGISTRY["000.p3.0d.lm"]
    assert entry.decision == registry.INSTANCES
    verify_step("000.p3.0d.lm")
    out = capsys.readouterr().out
    n = len(entry.points)
    assert f"[instances · holds at {n} instances]" in out
    assert f"  instances ({n}):" in out and f"    {n}. {entry.points[-1]}" in out


def test_verify_step_of_an_undecided_step_never_reads_holds(
        capsys: pytest.CaptureFixture[str]) -> None:
    undecided = [c for c in REGISTRY.values() if c.decision == registry.UNDECIDED]
    assert undecided
    verify_step(undecided[0].id)
    first = capsys.readouterr().out.splitlines()[0]
    assert first.endswith("[undecided · not decided]")


def test_printed_text_is_shown_verbatim(monkeypatch: pytest.MonkeyPatch) -> None:
    r"""A source's text as printed keeps its own markup (``$``, ``\epsilon``, primes): in
    HTML it is code, never typeset; the other rows are text."""
    shown = []
    display = pytest.importorskip("IPython.display")  # imported where it is shown
    monkeypatch.setattr(notebook, "in_jupyter", lambda: True)
    monkeypatch.setattr(display, "HTML", lambda text: text)
    monkeypatch.setattr(display, "display", shown.append)
    show_verdict("x.y", [("printed", r"$e^{\epsilon'} < 1$"), ("statement", "a < b")],
                 "proof", "holds")
    (html,) = shown
    assert r"<dt>printed</dt><dd><code>$e^{\epsilon&#x27;} &lt; 1$</code></dd>" in html
    assert "<dt>statement</dt><dd>a &lt; b</dd>" in html
