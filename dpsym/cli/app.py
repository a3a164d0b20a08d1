"""The entry point :func:`main`: run a command and turn its errors into an exit status."""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Callable, Sequence
from typing import TextIO

from ..errors import DpsymError
from ..printing import one_line
from .options import PROG, error_message
from .parser import parse_args

#: The exit status of an internal error (``EX_SOFTWARE`` of ``sysexits.h``).
EXIT_INTERNAL = 70
#: Set to ``1`` to let an internal error propagate with its traceback.
DEBUG_VARIABLE = "DPSYM_DEBUG"


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
        line ``dpsym: error: <message>`` on standard error; 70 for an internal error (any
        other exception: a bug), reported as one line ``dpsym: internal error, please
        report: <type>: <message>``; 130 when interrupted.
    """
    argv = list(sys.argv[1:] if argv is None else argv)
    if debug is None:
        debug = os.environ.get(DEBUG_VARIABLE) == "1"
    out, err = sys.stdout, sys.stderr
    try:
        args = parse_args(argv)
        handler: Callable[[argparse.Namespace, TextIO], int] = args.handler
        return handler(args, out)
    except SystemExit as exc:  # --help, --version
        code = exc.code
        return code if isinstance(code, int) else (0 if code is None else 1)
    except DpsymError as exc:
        err.write(f"{PROG}: error: {one_line(error_message(exc))}\n")
        return 2
    except KeyboardInterrupt:
        err.write(f"{PROG}: error: interrupted\n")
        return 130
    except BrokenPipeError:
        return 1
    except Exception as exc:
        if debug:
            raise
        detail = one_line(exc, 500)
        err.write(f"{PROG}: internal error, please report: {type(exc).__name__}: {detail}\n")
        return EXIT_INTERNAL
