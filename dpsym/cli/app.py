"""The entry point :func:`main`: run a command and turn its errors into an exit status.

A command that computes runs within a time budget (``--timeout``, default
:data:`~dpsym.runtime.budget.DEFAULT_TIMEOUT` seconds) and a memory budget (``--memory``, default
none), in a forked child process that is killed at the budget
(:func:`dpsym.runtime.budget.run_with_budget`); ``sweep`` applies them to each point instead
(:func:`dpsym.reports.sweep.sweep`).
"""

from __future__ import annotations

import argparse
import errno
import io
import os
import sys
from collections.abc import Callable, Sequence
from typing import TextIO

from dpsym.cli.options import PROG, error_message, request_text
from dpsym.cli.parser import parse_args
from dpsym.errors import BudgetExceeded, DpsymError
from dpsym.mechanisms import unregister
from dpsym.reports.printing import one_line
from dpsym.runtime.budget import (
    DEFAULT_TIMEOUT,
    ENFORCED,
    check_memory,
    check_timeout,
    run_with_budget,
)

#: The exit status of an internal error (``EX_SOFTWARE`` of ``sysexits.h``).
EXIT_INTERNAL = 70
#: The exit status of a computation stopped at its time or memory budget.
EXIT_BUDGET = 3
#: The exit status when the output cannot be written (``EX_IOERR`` of ``sysexits.h``).
EXIT_IO = 74
#: The errors of a write that failed for want of room or a device, not a bug.
WRITE_ERRNOS = frozenset({errno.ENOSPC, errno.EDQUOT, errno.EFBIG, errno.EIO})
#: Set to ``1`` to let an internal error propagate with its traceback.
DEBUG_VARIABLE = "DPSYM_DEBUG"

Handler = Callable[[argparse.Namespace, TextIO], int]


def _is_file(stream: object) -> bool:
    """Whether ``stream`` writes to a file descriptor (not to memory, as under pytest)."""
    try:
        stream.fileno()  # type: ignore[attr-defined]
    except (AttributeError, OSError, ValueError, io.UnsupportedOperation):
        return False
    return True


def run_budgeted(handler: Handler, args: argparse.Namespace, out: TextIO,
                 seconds: float | None, memory: int | None) -> int:
    """Run ``handler(args, out)`` within the budgets, in a forked child process.

    What the handler writes reaches ``out`` and ``sys.stderr``: directly when they are
    files (a progress line on a terminal shows at once), else collected in the child and
    written here when it is done.

    Raises
    ------
    BudgetExceeded
        When the command exceeds a budget (the child and its process group killed).
    """
    direct_out, direct_err = _is_file(out), _is_file(sys.stderr)

    def child() -> tuple[int, str, str]:
        target: TextIO = out if direct_out else io.StringIO()
        errors = None
        if not direct_err:
            errors = sys.stderr = io.StringIO()
        status = handler(args, target)
        target.flush()
        text = "" if direct_out else target.getvalue()  # type: ignore[attr-defined]
        return status, text, "" if errors is None else errors.getvalue()

    status, text, err_text = run_with_budget(child, seconds=seconds, memory=memory,
                                             what=request_text(args))
    out.write(text)
    sys.stderr.write(err_text)
    return status


def _silence_stdout() -> None:
    """Point the standard output at ``os.devnull`` so that the interpreter's final flush
    of what could not be written raises nothing more."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        os.close(devnull)
    except (OSError, ValueError, AttributeError, io.UnsupportedOperation):
        pass


def main(argv: Sequence[str] | None = None, *, debug: bool | None = None) -> int:
    """Run the command; return the exit status.

    Parameters
    ----------
    argv : sequence of str, optional
        The arguments (default ``sys.argv[1:]``).
    debug : bool, optional
        Let an internal error propagate (default: whether the environment variable
        ``DPSYM_DEBUG`` is ``1``).

    Returns
    -------
    int
        0 on success (1 when ``dpsym check`` finds a mismatch); 2 for an error of the
        input (a usage error or any :class:`~dpsym.errors.DpsymError`), reported as one
        line ``dpsym: error: <message>`` on standard error; 3 when a computation exceeds
        its time or memory budget (``--timeout``, ``--memory``;
        :class:`~dpsym.errors.BudgetExceeded`), reported as one line ``dpsym: error:
        time budget of N s exceeded while computing <what>`` (or ``memory budget of
        ...``), the computation's process killed; 70 for an internal error (any other
        exception: a bug), reported as one line ``dpsym: internal error, please report:
        <type>: <message>``; 74 when the output cannot be written (a full disk: one line
        ``dpsym: error: cannot write the output: ...``); 130 when interrupted. A closed
        pipe on the output (``dpsym list | head -1``) ends the command quietly, status 0.
    """
    as_program = argv is None
    argv = list(sys.argv[1:] if argv is None else argv)
    if debug is None:
        debug = os.environ.get(DEBUG_VARIABLE) == "1"
    out, err = sys.stdout, sys.stderr

    def dispatch() -> int:
        args = parse_args(argv)
        try:
            return run(args)
        finally:  # a noise declared by --noise is known for this command only
            if getattr(args, "noise", None) is not None:
                unregister(args.noise)

    def run(args: argparse.Namespace) -> int:
        handler: Handler = args.handler
        scope = getattr(args, "budget_scope", None)
        if scope is None:  # a command that computes nothing
            return handler(args, out)
        timeout = getattr(args, "timeout", None)
        explicit = timeout is not None or getattr(args, "memory", None) is not None
        if timeout is None and ENFORCED:
            timeout = DEFAULT_TIMEOUT
        seconds = check_timeout(timeout)
        memory = check_memory(getattr(args, "memory", None))
        if scope == "point":  # sweep: a budget per point
            args.timeout, args.memory = seconds, memory
            return handler(args, out)
        if explicit or (as_program and seconds is not None):
            return run_budgeted(handler, args, out, seconds, memory)
        # main() called from Python without a budget option: no default budget, and the
        # command runs here (with this process's warm caches, not in a child)
        return handler(args, out)

    try:
        code = dispatch()
        out.flush()  # a full device or a closed pipe is reported here, not at exit
        return code
    except SystemExit as exc:  # --help, --version
        exit_code = exc.code
        return exit_code if isinstance(exit_code, int) else (0 if exit_code is None else 1)
    except BudgetExceeded as exc:
        err.write(f"{PROG}: error: {one_line(error_message(exc))}\n")
        return EXIT_BUDGET
    except DpsymError as exc:
        err.write(f"{PROG}: error: {one_line(error_message(exc))}\n")
        return 2
    except KeyboardInterrupt:
        err.write(f"{PROG}: error: interrupted\n")
        return 130
    except BrokenPipeError:  # the reader went away (`dpsym list | head`): not an error
        _silence_stdout()
        return 0
    except Exception as exc:
        if isinstance(exc, OSError) and exc.errno in WRITE_ERRNOS:  # a full disk...
            _silence_stdout()
            err.write(f"{PROG}: error: cannot write the output: {one_line(exc)}\n")
            return EXIT_IO
        if debug:
            raise
        detail = one_line(exc, 500)
        err.write(f"{PROG}: internal error, please report: {type(exc).__name__}: {detail}\n")
        return EXIT_INTERNAL
