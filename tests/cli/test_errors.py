"""Errors and exit statuses of the ``dpsym`` command (:mod:`dpsym.cli`).

Every error of the input (a usage error, any :class:`~dpsym.errors.DpsymError`) exits with
status 2 and one line ``dpsym: error: ...``; any other exception is a bug: status 70 and
one line ``dpsym: internal error, please report: ...``, or its traceback with
``DPSYM_DEBUG=1`` (``main(argv, debug=True)``). A few cases run as real subprocesses to
show that no traceback escapes.
"""

from __future__ import annotations

import functools
import json
import os
import subprocess
import sys

import pytest
from cli_helpers import assert_one_line_error, run

import dpsym.cli.parser as parser
from dpsym.cli import EXIT_INTERNAL, main
from dpsym.mechanisms import MECHANISMS, Laplace

ENV = {**os.environ, "PYTHONHASHSEED": "0"}
ENV.pop("DPSYM_DEBUG", None)




# ---------------------------------------------------------------------- input errors
V = ("value", "laplace")
S = ("series", "laplace")
BAD = [
    ((), "COMMAND"),
    (("frobnicate",), "COMMAND"),
    (("value",), "MECHANISM"),
    (("value", "nosuch", "--eps", "1"), "mechanism"),
    (("value", "", "--eps", "1"), "mechanism"),
    ((*V, "nosuch", "--eps", "1"), "quantity"),
    ((*V, "gamma", "--eps", "1"), "quantity"),
    ((*V, "--eps", "-1"), "eps"),
    ((*V, "--eps", "0"), "eps"),
    ((*V, "--eps", "nan"), "eps"),
    ((*V, "--eps", "NaN"), "eps"),
    ((*V, "--eps", "inf"), "eps"),
    ((*V, "--eps", "-inf"), "eps"),
    ((*V, "--eps", ""), "eps"),
    ((*V, "--eps", " "), "eps"),
    ((*V, "--eps", "1e999999"), "eps"),
    ((*V, "--eps", "-1e-5000"), "eps"),
    ((*V, "--eps", "abc"), "eps"),
    ((*V, "--eps", "1/0"), "--eps: a fraction p/q needs q > 0"),
    ((*V, "--eps", "-1/2"), "--eps: must be in (0, 1.0e+100]"),
    ((*V, "--eps", "1/2/"), "eps"),
    ((*V, "--eps", "1.5/"), "eps"),
    ((*V, "--eps", "1/-2"), "eps"),
    ((*V, "--eps", "\uff11/2"), "eps"),
    ((*V, "--eps", "0x10"), "eps"),
    ((*V, "--eps", "1_000"), "eps"),
    ((*V, "--eps", "2**"), "eps"),
    ((*V, "--eps"), "--eps"),
    (V, "eps"),
    ((*V, "--eps", "1", "--sensitivity", "0"), "sensitivity"),
    ((*V, "--eps", "1", "--sensitivity", "-2"), "sensitivity"),
    ((*V, "--eps", "1", "--sensitivity", "nan"), "sensitivity"),
    ((*V, "--eps", "1", "--sensitivity", "1e-99999"), "sensitivity"),
    (("value", "discrete-laplace", "--eps", "1", "--sensitivity", "1.5"), "sensitivity"),
    (("value", "discrete-staircase", "--eps", "1", "--sensitivity", "0"), "sensitivity"),
    (("value", "discrete-staircase", "--eps", "1", "--sensitivity", "5000"), "<= 4096"),
    ((*V, "--eps", "1", "--delta", "0.1"), "delta"),
    (("value", "staircase", "--eps", "1", "--delta", "1e-6"), "delta"),
    ((*V, "--eps", "1", "--digits", "0"), "digits"),
    ((*V, "--eps", "1", "--digits", "10001"), "digits"),
    (("value", "staircase", "--eps", "1", "--digits", "99999"), "digits"),
    ((*V, "--eps", "1", "--digits", "-5"), "digits"),
    ((*V, "--eps", "1", "--digits", "1.5"), "digits"),
    ((*V, "--eps", "1", "--digits", ""), "digits"),
    ((*V, "--eps", "1", "--digits", "abc"), "digits"),
    ((*V, "--eps", "1", "--digits", "1e3"), "digits"),
    ((*V, "--eps", "1", "--cost", "nosuch"), "cost"),
    ((*V, "--eps", "1", "--cost", ""), "cost"),
    ((*V, "--eps", "1", "--cost", "moment:0"), "cost"),
    ((*V, "--eps", "1", "--cost", "moment:-1"), "cost"),
    ((*V, "--eps", "1", "--cost", "moment:21"), "cost"),
    ((*V, "--eps", "1", "--cost", "moment:1/0"), "cost"),
    ((*V, "--eps", "1", "--cost", "moment:nan"), "cost"),
    ((*V, "--eps", "1", "--foo", "3"), "--foo"),
    ((*V, "--eps", "1", "extra", "args"), "unrecognized"),
    ((*S, "--regime", "nosuch", "--order", "3"), "regime"),
    ((*S, "--regime", "", "--order", "3"), "regime"),
    ((*S, "--regime", "eps->0", "--order", "1.5"), "order"),
    ((*S, "--regime", "eps->0", "--order", "abc"), "order"),
    ((*S, "--regime", "eps->0", "--order", ""), "order"),
    ((*S, "--regime", "eps->0", "--order", "31"), "order"),
    ((*S, "--regime", "eps->0", "--order", "-1"), "order"),
    ((*S, "--regime", "eps->0", "--order", "1e1"), "order"),
    ((*S, "--regime", "eps->0"), "--order"),
    ((*S, "--order", "3"), "--regime"),
    ((*S, "--regime", "delta->0", "--order", "3"), "delta"),
    ((*S, "nosuch", "--regime", "eps->0", "--order", "3"), "quantity"),
    ((*S, "--regime", "eps->0", "--order", "3", "--cost", "moment:0"), "cost"),
    (("series", "discrete-staircase", "--regime", "eps->0", "--order", "3"), "closed form"),
    (("series", "uniform-mass", "--regime", "eps->oo", "--order", "3"), "eps->oo"),
    (("formula", "nosuch"), "mechanism"),
    (("formula", "laplace", "r"), "quantity"),
    (("formula", "laplace", "--cost", "bad"), "cost"),
    (("formula", "discrete-staircase", "--cost", "moment:1/2"), "numeric period"),
    (("list", "--bogus"), "--bogus"),
    (("list", "extra"), "unrecognized"),
    (("derive", "--out", "/dev/null/impossible"), "--out"),
    # an option given twice is refused, never silently the last one
    ((*V, "--eps", "1", "--eps", "2"), "argument --eps: given more than once"),
    ((*V, "--eps", "1", "--digits", "5", "--digits", "6"), "argument --digits"),
    ((*V, "--eps", "1", "--method", "ball", "--method", "mpmath"), "argument --method"),
    ((*V, "--eps", "1", "--sensitivity", "1", "--sensitivity", "1"), "--sensitivity"),
    ((*S, "--regime", "eps->0", "--order", "3", "--order", "4"), "argument --order"),
    (("value", "staircase-md", "--eps", "1", "--dim", "2", "--dim", "3"), "argument --dim"),
    (("compare", "--eps", "1", "--eps", "2"), "argument --eps"),
    (("audit", "laplace", "--scale", "1", "--scale", "2", "--eps", "1"), "argument --scale"),
    (("sweep", "laplace", "--param", "eps=1", "--out", "a", "--out", "b"), "argument --out"),
    (("derive", "--out", "a", "--out", "b"), "argument --out"),
    # integers in ASCII digits only
    ((*S, "--regime", "eps->0", "--order", "\uff13"), "--order"),
    ((*S, "--regime", "eps->0", "--order", "\u0663"), "--order"),
    ((*V, "--eps", "1", "--digits", "\uff13"), "--digits"),
    (("value", "staircase-md", "--eps", "1", "--dim", "\uff13"), "--dim"),
    (("series", "staircase-md", "--regime", "eps->0", "--order", "1", "--dim", "\uff13"),
     "--dim"),
    (("compare", "--eps", "1", "--dim", "\uff13"), "--dim"),
    (("compare", "--eps", "1", "--lp", "--grid", "\uff14"), "--grid"),
    (("audit", "laplace", "--scale", "1", "--eps", "1", "--digits", "\uff13"), "--digits"),
    (("sweep", "laplace", "--param", "eps=1", "--workers", "\uff12"), "--workers"),
    (("sweep", "laplace", "--param", "eps=1", "--digits", "\uff13"), "--digits"),
    (("sweep", "laplace", "--param", "eps=log:1:2:\uff13"), "--param eps"),
    (("derive", "--bogus"), "--bogus"),
]


@pytest.mark.parametrize(("argv", "needle"), BAD, ids=[" ".join(a) or "<empty>" for a, _ in BAD])
def test_bad_invocation_exits_2_with_one_line(capsys, argv, needle):
    code, out, err = run(capsys, *argv)
    assert code == 2
    assert out == ""
    lines = err.splitlines()
    assert len(lines) == 1, err
    assert err.endswith("\n")
    assert lines[0].startswith("dpsym: error: ")
    assert "internal error" not in lines[0] and "Traceback" not in err
    assert needle in lines[0]


def test_at_least_40_bad_invocations():
    assert len(BAD) >= 40


def test_error_messages_give_the_valid_range(capsys):
    _, _, err = run(capsys, *V, "--eps", "-1")
    assert "(0, 1.0e+100]" in err
    _, _, err = run(capsys, *V, "--eps", "1", "--digits", "0")
    assert "[1, 10000]" in err
    _, _, err = run(capsys, *S, "--regime", "eps->0", "--order", "x")
    assert "[0, 30]" in err
    _, _, err = run(capsys, *V, "--eps", "1", "--delta", "0.1")
    assert "eps" in err and "Delta" in err  # the parameters laplace does have


def test_internal_error_is_one_line_exit_70(capsys, monkeypatch):
    def boom(*args, **kwargs):
        raise TypeError("unexpected")

    monkeypatch.setattr(Laplace, "value", boom)
    code, out, err = run(capsys, *V, "--eps", "1")
    assert code == EXIT_INTERNAL == 70 and out == ""
    assert err == "dpsym: internal error, please report: TypeError: unexpected\n"


def replace_handler(monkeypatch, name, handler):
    """Replace the handler ``name`` of :mod:`dpsym.cli.parser`, with a new cache of its
    parsers for the test (the parsers built before hold the real handler, and keep it)."""
    monkeypatch.setattr(parser, name, handler)
    monkeypatch.setattr(parser, "shared_parser",
                        functools.lru_cache(parser.shared_parser.__wrapped__))


@pytest.mark.parametrize("exc", [ZeroDivisionError("division by zero"), ValueError("bad"),
                                 NotImplementedError("not yet"), OverflowError("big")])
def test_a_bug_in_a_handler_is_exit_70_never_2(capsys, monkeypatch, exc):
    def handler(args, out):
        raise exc

    replace_handler(monkeypatch, "cmd_value", handler)
    code, out, err = run(capsys, *V, "--eps", "1")
    assert code == 70 and out == ""
    assert err == f"dpsym: internal error, please report: {type(exc).__name__}: {exc}\n"


def test_debug_lets_the_traceback_through(capsys, monkeypatch):
    def handler(args, out):
        raise ZeroDivisionError("division by zero")

    replace_handler(monkeypatch, "cmd_value", handler)
    with pytest.raises(ZeroDivisionError):
        main([*V, "--eps", "1"], debug=True)
    monkeypatch.setenv("DPSYM_DEBUG", "1")
    with pytest.raises(ZeroDivisionError):
        main([*V, "--eps", "1"])
    monkeypatch.setenv("DPSYM_DEBUG", "0")
    assert main([*V, "--eps", "1"]) == 70
    capsys.readouterr()
    monkeypatch.undo()
    # input errors stay one line, exit 2, in debug mode too
    code = main([*V, "--eps", "-1"], debug=True)
    captured = capsys.readouterr()
    assert_one_line_error(code, captured.out, captured.err, "--eps")


def test_sweep_out_that_cannot_be_written_is_an_input_error(capsys, tmp_path):
    target = tmp_path / "missing" / "out.csv"
    code, out, err = run(capsys, "sweep", "laplace", "--param", "eps=1", "--digits", "5",
                         "--out", str(target))
    assert_one_line_error(code, out, err, "--out: cannot write to")


# ---------------------------------------------------------------------- subprocesses
def subprocess_run(*argv: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "dpsym.cli", *argv], capture_output=True,
                          text=True, env=ENV, timeout=120, check=False)


@pytest.mark.parametrize("argv", [
    # an error of the engine, raised in the budgeted child of the real program
    ("series", "uniform-mass", "--regime", "eps->oo", "--order", "3"),
    # a usage error of the argument parser (its SystemExit)
    ("nosuch",),
])
def test_subprocess_errors_have_no_traceback(argv):
    """What the shell sees of an input error: status 2, one line, no traceback (every
    other input error is checked in process, ``BAD``)."""
    proc = subprocess_run(*argv)
    assert proc.returncode == 2
    assert proc.stdout == ""
    assert "Traceback" not in proc.stderr
    assert len(proc.stderr.splitlines()) == 1
    assert proc.stderr.startswith("dpsym: error: ")


def test_subprocess_value_json():
    proc = subprocess_run("value", "staircase", "gamma", "--eps", "1", "--json")
    assert proc.returncode == 0, proc.stderr
    data = json.loads(proc.stdout)
    assert data["value"] == MECHANISMS["staircase"](eps="1").value("gamma").text




def test_subprocess_internal_error(tmp_path):
    """A bug escapes a real process as exit 70 and one line (``DPSYM_DEBUG=1`` lets it
    through as an exception: ``test_debug_lets_the_traceback_through``)."""
    script = tmp_path / "bug.py"
    script.write_text("import sys\n"
                      "import dpsym.cli.parser as parser\n"
                      "def handler(args, out):\n"
                      "    raise ZeroDivisionError('division by zero')\n"
                      "parser.cmd_value = handler\n"
                      "from dpsym.cli import main\n"
                      "sys.exit(main(['value', 'laplace', '--eps', '1']))\n")
    proc = subprocess.run([sys.executable, str(script)], capture_output=True, text=True,
                          env=ENV, timeout=120, check=False)
    assert proc.returncode == 70
    assert proc.stderr == ("dpsym: internal error, please report: ZeroDivisionError: "
                           "division by zero\n")


@pytest.mark.skipif(not os.path.exists("/dev/full"), reason="needs Linux's /dev/full")
@pytest.mark.parametrize("argv", [["list"], ["value", "staircase", "--eps", "1"]])
def test_a_full_output_device_is_one_line_exit_74(argv):
    """A full disk is no bug: one line naming the write error, exit 74 (EX_IOERR), from
    the command itself and from a command run in a budgeted child alike."""
    with open("/dev/full", "w") as full:
        proc = subprocess.run([sys.executable, "-m", "dpsym", *argv], stdout=full,
                              stderr=subprocess.PIPE, text=True, timeout=120)
    assert proc.returncode == 74, proc.stderr
    assert proc.stderr.count("\n") == 1, proc.stderr
    assert proc.stderr.startswith("dpsym: error: cannot write the output: ")
    assert "No space left" in proc.stderr and "Traceback" not in proc.stderr


def test_a_closed_pipe_ends_the_command_quietly():
    """``dpsym list | head -1``: the reader leaves early; status 0, nothing on stderr."""
    proc = subprocess.run(["bash", "-c", f"'{sys.executable}' -m dpsym list | head -c 1 "
                           ">/dev/null; echo ${PIPESTATUS[0]}"],
                          capture_output=True, text=True, timeout=120)
    assert proc.stdout.strip() == "0" and proc.stderr == "", (proc.stdout, proc.stderr)
