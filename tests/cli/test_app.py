"""Tests of :mod:`dpsym.cli.app`: the exit statuses of :func:`main` for each kind of
outcome, and the budgeted run in a child process."""

from __future__ import annotations

import argparse
import errno
import io
import sys
import time

import pytest

from dpsym.cli import app
from dpsym.cli.app import (
    DEBUG_VARIABLE,
    EXIT_BUDGET,
    EXIT_INTERNAL,
    EXIT_IO,
    WRITE_ERRNOS,
    main,
    run_budgeted,
)
from dpsym.errors import BudgetExceeded, DomainError


def fake_parse(handler, **extra):
    """A replacement of ``parse_args`` returning a namespace with ``handler``."""
    def parse(argv):
        return argparse.Namespace(command="fake", handler=handler, **extra)
    return parse


def raising(exc):
    def handler(args, out):
        raise exc
    return handler


@pytest.mark.parametrize(("exc", "status", "line"), [
    (DomainError("eps", "must be > 0"), 2, "dpsym: error: --eps: must be > 0\n"),
    (BudgetExceeded("the thing", "time", "1 s"), EXIT_BUDGET,
     "dpsym: error: time budget of 1 s exceeded while computing the thing\n"),
    (KeyboardInterrupt(), 130, "dpsym: error: interrupted\n"),
    (RuntimeError("boom\nsecond line"), EXIT_INTERNAL,
     "dpsym: internal error, please report: RuntimeError: boom second line\n"),
])
def test_exit_status_of_each_outcome(monkeypatch, capsys, exc, status, line):
    monkeypatch.setattr(app, "parse_args", fake_parse(raising(exc)))
    assert main(["fake"], debug=False) == status
    captured = capsys.readouterr()
    assert captured.err == line and captured.out == ""


def test_debug_lets_an_internal_error_through(monkeypatch):
    monkeypatch.setattr(app, "parse_args", fake_parse(raising(RuntimeError("bug"))))
    with pytest.raises(RuntimeError, match="bug"):
        main(["fake"], debug=True)
    monkeypatch.setenv(DEBUG_VARIABLE, "1")
    with pytest.raises(RuntimeError, match="bug"):
        main(["fake"])


def test_full_disk_and_broken_pipe(monkeypatch, capsys):
    assert errno.ENOSPC in WRITE_ERRNOS
    monkeypatch.setattr(app, "parse_args",
                        fake_parse(raising(OSError(errno.ENOSPC, "No space left"))))
    assert main(["fake"], debug=False) == EXIT_IO
    assert capsys.readouterr().err.startswith("dpsym: error: cannot write the output: ")
    monkeypatch.setattr(app, "parse_args", fake_parse(raising(BrokenPipeError())))
    assert main(["fake"], debug=False) == 0
    # another OSError is a bug
    monkeypatch.setattr(app, "parse_args",
                        fake_parse(raising(OSError(errno.EACCES, "denied"))))
    assert main(["fake"], debug=False) == EXIT_INTERNAL


def test_success_writes_the_handlers_output(monkeypatch, capsys):
    def handler(args, out):
        out.write("hello\n")
        return 0
    monkeypatch.setattr(app, "parse_args", fake_parse(handler))
    assert main(["fake"]) == 0
    assert capsys.readouterr().out == "hello\n"


def test_real_commands(capsys):
    assert main(["--version"]) == 0
    assert capsys.readouterr().out.strip()
    assert main(["value", "laplace", "--eps", "-1"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("dpsym: error: ") and "--eps" in err and err.count("\n") == 1
    assert main(["no-such-command"]) == 2
    assert main(["value", "laplace", "--eps", "1", "--digits", "12"]) == 0
    assert capsys.readouterr().out.strip() == "1.00000000000"  # E|X| = Delta/eps


def test_run_budgeted_collects_the_output():
    def handler(args, out):
        out.write("to stdout\n")
        sys.stderr.write("to stderr\n")
        return 5

    out, err = io.StringIO(), io.StringIO()
    saved = sys.stderr
    sys.stderr = err
    try:
        status = run_budgeted(handler, argparse.Namespace(command="fake"), out, 60, None)
    finally:
        sys.stderr = saved
    assert status == 5 and out.getvalue() == "to stdout\n" and err.getvalue() == "to stderr\n"


def test_run_budgeted_stops_at_the_budget(capsys):
    def handler(args, out):
        while True:
            time.sleep(0.05)

    with pytest.raises(BudgetExceeded) as info:
        run_budgeted(handler, argparse.Namespace(command="fake"), io.StringIO(), 0.5, None)
    assert info.value.budget == "time"
    assert "fake" in info.value.what


def test_timeout_option_reaches_the_budget(capsys):
    assert main(["value", "laplace", "--eps", "1", "--timeout", "0"]) == 2
    assert "--timeout" in capsys.readouterr().err


def test_a_reused_parser_starts_every_parse_afresh():
    """:func:`dpsym.cli.parser.parse_args` reuses one parser per registry state: nothing of
    one parse (options given, the record of options seen) reaches the next; a registered
    entry gets a parser with its parameters."""
    from dpsym.cli.options import registries
    from dpsym.cli.parser import parse_args, shared_parser
    from dpsym.errors import DpsymError
    from dpsym.mechanisms import register, unregister
    from dpsym.mechanisms.declared import declare_noise

    first = parse_args(["value", "laplace", "--eps", "1", "--digits", "5", "--json"])
    again = parse_args(["value", "laplace", "--eps", "2"])
    assert (first.digits, first.json, getattr(first, "param:eps")) == ("5", True, "1")
    assert (again.digits, again.json, getattr(again, "param:eps")) == ("30", False, "2")
    entries = tuple(cls for table in registries() for cls in table.values())
    assert shared_parser(entries) is shared_parser(entries)
    noise = declare_noise("reuse-test-noise", pieces=[("0", "oo", "exp(-x*kappa)")],
                          normalise=True, params={"kappa": {"domain": "(0, oo)"}})
    with pytest.raises(DpsymError, match="kappa"):
        parse_args(["value", "laplace", "--kappa", "1"])
    register(noise)
    try:
        assert getattr(parse_args(["value", "reuse-test-noise", "--kappa", "1"]),
                       "param:kappa") == "1"
    finally:
        unregister(noise)
