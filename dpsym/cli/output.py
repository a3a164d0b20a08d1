"""The output file of an option such as ``dpsym sweep --out FILE``: checked before any
work, written like ``open(FILE, "w")`` would, atomically where that is possible.

:func:`check_output` refuses, with one line naming the option, an empty path, a path
ending with a separator (``a/sub/``), a directory, a missing or unwritable parent
directory, and a target that is neither a regular file nor a device or FIFO.
:func:`write_output` then writes through symbolic links (the link stays, its target gets
the text); a device or a FIFO (``/dev/null``, ``/dev/stdout``, a named pipe) is opened
and written like any file, never replaced; a regular file, or a new one, is written to a
temporary file in the same directory and moved over the target with :func:`os.replace`
(a reader never sees half a file). A new file gets the mode ``open`` would give it
(``0o666`` less the umask); an existing file keeps its mode (and, where permitted, its
owner and group). A file with several hard links is written in place, so that every
link sees the text.
"""

from __future__ import annotations

import os
import secrets
import stat
from dataclasses import dataclass
from pathlib import Path

from dpsym.cli.options import CliError

__all__ = ["OutputFile", "check_output", "write_output"]

#: Attempts at a fresh temporary name before giving up.
_TEMP_ATTEMPTS = 100


@dataclass(frozen=True)
class OutputFile:
    """A checked output path.

    Attributes
    ----------
    given : str
        The path as given.
    target : Path
        The file written: ``given`` with every symbolic link resolved when the file is
        replaced, ``given`` itself otherwise (``/dev/stdout`` is opened as such).
    replace : bool
        Write a temporary file and :func:`os.replace` it: a new file, or a regular file
        with one link whose directory is writable. Otherwise the target is opened and
        written in place.
    existing : os.stat_result or None
        What the target is now (``None`` for a new file): a replaced file keeps its mode
        and, where permitted, its owner.
    """

    given: str
    target: Path
    replace: bool
    existing: os.stat_result | None


def _error(option: str, path: str, reason: str) -> CliError:
    return CliError(f"{option}: cannot write to {path!r}: {reason}")


def _writable_dir(directory: Path) -> bool:
    return os.access(directory, os.W_OK | os.X_OK)


def check_output(path: str, option: str = "--out") -> OutputFile:
    """Check that ``path`` can be written, without creating or changing anything.

    Raises
    ------
    CliError
        Naming ``option``, when the path cannot be written as a file.
    """
    if not path:
        raise CliError(f"{option}: expected a file name, got an empty path")
    if "\0" in path:
        raise _error(option, path, "the path contains a NUL character")
    separators = tuple(s for s in (os.sep, os.altsep) if s)
    if path.endswith(separators):
        raise _error(option, path, "the path ends with a separator (a directory); give a "
                     "file name")
    try:
        info = os.stat(path)  # through every link, /proc's magic ones included
    except FileNotFoundError:
        info = None
    except OSError as exc:
        raise _error(option, path, exc.strerror or type(exc).__name__) from exc
    if info is None:
        # A new file, or the missing target of a dangling link: created where it points.
        target = Path(os.path.realpath(path)) if os.path.islink(path) else Path(path)
        parent = target.absolute().parent
        if not parent.is_dir():
            raise _error(option, path, f"no directory {str(parent)!r}")
        if not _writable_dir(parent):
            raise _error(option, path, f"the directory {str(parent)!r} is not writable")
        return OutputFile(path, target, replace=True, existing=None)
    if stat.S_ISDIR(info.st_mode):
        raise _error(option, path, "it is a directory")
    regular = stat.S_ISREG(info.st_mode)
    if not (regular or stat.S_ISCHR(info.st_mode) or stat.S_ISBLK(info.st_mode)
            or stat.S_ISFIFO(info.st_mode)):
        raise _error(option, path, "not a regular file, a device or a FIFO")
    if not os.access(path, os.W_OK):
        raise _error(option, path, "permission denied")
    if regular:
        target = Path(os.path.realpath(path))
        if info.st_nlink == 1 and _writable_dir(target.parent):
            return OutputFile(path, target, replace=True, existing=info)
    return OutputFile(path, Path(path), replace=False, existing=info)


def _temporary(directory: Path, name: str) -> tuple[int, Path]:
    """A new file ``.NAME.XXXXXXXX.tmp`` in ``directory``, created with mode ``0o666``
    (the umask applies, as for ``open``); its descriptor and path."""
    flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_CLOEXEC", 0)
    for _ in range(_TEMP_ATTEMPTS):
        tmp = directory / f".{name}.{secrets.token_hex(4)}.tmp"
        try:
            return os.open(tmp, flags, 0o666), tmp
        except FileExistsError:
            continue
    raise FileExistsError(f"no free temporary name in {directory}")


def _keep_owner(path: Path, info: os.stat_result) -> None:
    """Give ``path`` the owner and group of ``info``, where permitted (as ``open`` would
    keep them)."""
    chown = getattr(os, "chown", None)
    if chown is None:
        return
    try:
        chown(path, info.st_uid, info.st_gid)
    except OSError:
        try:
            chown(path, -1, info.st_gid)
        except OSError:
            pass


def write_output(path: str, text: str, option: str = "--out") -> None:
    """Write ``text`` (UTF-8) to ``path`` as described in the module docstring.

    The path is checked again (it may have changed while the results were computed).

    Raises
    ------
    CliError
        Naming ``option``, when it cannot be written.
    """
    out = check_output(path, option)
    data = text.encode("utf-8")
    try:
        if not out.replace:
            with open(out.target, "wb") as fh:
                fh.write(data)
            return
        fd, tmp = _temporary(out.target.parent, out.target.name)
        try:
            with os.fdopen(fd, "wb") as fh:
                fh.write(data)
                fh.flush()
                os.fsync(fh.fileno())
            if out.existing is not None:
                _keep_owner(tmp, out.existing)
                os.chmod(tmp, stat.S_IMODE(out.existing.st_mode))
            os.replace(tmp, out.target)
        except BaseException:
            tmp.unlink(missing_ok=True)
            raise
    except OSError as exc:
        raise _error(option, path, exc.strerror or type(exc).__name__) from exc
