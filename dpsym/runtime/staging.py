r"""Files written so that a reader never sees half of them: atomic replacement, staged
directories, and the clean-up of the staging directories of killed runs.

A run stages its files in ``<out>/.derive-staging-<pid>-<random>`` (:func:`staging_dir`),
then moves each into ``out`` with :func:`os.replace` (same file system: atomic), leaving
a file whose bytes are unchanged untouched (:func:`install_staged`). A run killed before
that leaves its staging directory behind; the next run removes those whose process no
longer exists (:func:`clean_stale_staging`).
"""

from __future__ import annotations

import os
import re
import shutil
import tempfile
from pathlib import Path

#: The name prefix of a staging directory (then the pid of its run, ``-``, random).
STAGING_PREFIX = ".derive-staging-"
_STAGING = re.compile(re.escape(STAGING_PREFIX) + r"([0-9]{1,10})-[^/\\]*")


def file_status(path: Path, data: bytes) -> str:
    """``new``, ``changed`` or ``unchanged``: ``path`` against the bytes ``data``."""
    try:
        return "unchanged" if path.read_bytes() == data else "changed"
    except FileNotFoundError:
        return "new"


def write_atomic(path: Path, text: str) -> None:
    """Write ``text`` (UTF-8) to ``path`` atomically: temporary file, then ``os.replace``."""
    path = Path(path)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        with os.fdopen(fd, "w", encoding="utf-8", newline="\n") as fh:
            fh.write(text)
            fh.flush()
            os.fsync(fh.fileno())
        os.chmod(tmp, 0o644)
        os.replace(tmp, path)
    except BaseException:
        try:
            os.unlink(tmp)
        except FileNotFoundError:
            pass
        raise


def install_staged(staged: dict[str, Path], out: Path,
                   status: dict[str, str] | None = None) -> dict[str, Path]:
    """Move each staged file into ``out`` atomically (``fsync``, mode 0644, then
    :func:`os.replace` within the same file system); a file whose bytes are already there
    is left alone. Each file's status goes into ``status`` (see :func:`file_status`)."""
    written = {}
    for name, path in staged.items():
        state = file_status(out / name, path.read_bytes())
        if status is not None:
            status[name] = state
        written[name] = out / name
        if state == "unchanged":
            continue
        with open(path, "rb") as fh:
            os.fsync(fh.fileno())
        os.chmod(path, 0o644)
        os.replace(path, out / name)
    return written


def process_exists(pid: int) -> bool:
    """Whether a process ``pid`` exists (when in doubt, that it does)."""
    if pid < 1:
        return False
    try:
        os.kill(pid, 0)
    except (ProcessLookupError, OverflowError):
        return False
    except OSError:  # PermissionError: it exists, under another user
        return True
    return True


def clean_stale_staging(out: Path) -> list[Path]:
    """Remove the staging directories left in ``out`` by runs that were killed: those
    named ``.derive-staging-<pid>-...`` whose process ``pid`` no longer exists.

    The directories of live processes (a concurrent run) are kept, and so is anything
    else. On Windows, where probing a pid is not harmless, nothing is removed.

    Returns
    -------
    list of Path
        The directories removed.
    """
    removed: list[Path] = []
    if os.name == "nt":
        return removed
    with os.scandir(out) as entries:
        for entry in entries:
            match = _STAGING.fullmatch(entry.name)
            if match is None or not entry.is_dir(follow_symlinks=False):
                continue
            if not process_exists(int(match.group(1))):
                shutil.rmtree(entry.path, ignore_errors=True)
                removed.append(Path(entry.path))
    return removed


def staging_dir(out: Path) -> Path:
    """A fresh staging directory in ``out``, named after this process, once the stale ones
    are removed."""
    clean_stale_staging(out)
    return Path(tempfile.mkdtemp(dir=out, prefix=f"{STAGING_PREFIX}{os.getpid()}-"))


__all__ = ["STAGING_PREFIX", "clean_stale_staging", "file_status", "install_staged",
           "process_exists", "staging_dir", "write_atomic"]
