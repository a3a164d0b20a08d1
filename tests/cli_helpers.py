"""Helpers shared by the command-line tests: run ``dpsym`` in process and check errors."""

from __future__ import annotations

import json

import mpmath

from dpsym.cli import main


def assert_one_line_error(code: int, out: str, err: str, needle: str = "") -> None:
    """An input error: exit 2, nothing on stdout, one line ``dpsym: error: ...``."""
    assert code == 2, (out, err)
    assert out == ""
    assert err.startswith("dpsym: error: ") and err.count("\n") == 1, err
    assert "Traceback" not in err and "internal error" not in err
    assert needle in err, err


def run(capsys, *argv: str) -> tuple[int, str, str]:
    """Run ``dpsym argv`` in process; return (status, stdout, stderr)."""
    code = main(list(argv))
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def run_json(capsys, *argv: str):
    """Run ``dpsym argv --json``, which must succeed silently on stderr; the parsed output."""
    code, out, err = run(capsys, *argv, "--json")
    assert code == 0, err
    assert err == ""
    return json.loads(out)


def mp_from_text(text: str) -> mpmath.mpf:
    """A printed decimal read back at the current precision."""
    return mpmath.mpf(text)
