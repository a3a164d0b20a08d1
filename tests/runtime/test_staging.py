"""Tests of :mod:`dpsym.runtime.staging`: atomic writes, staged installs and the clean-up
of the staging directories of dead processes."""

from __future__ import annotations

import os
import stat
import subprocess
import sys
from pathlib import Path

import pytest

from dpsym.runtime.staging import (
    STAGING_PREFIX,
    clean_stale_staging,
    file_status,
    install_staged,
    process_exists,
    staging_dir,
    write_atomic,
)


def dead_pid() -> int:
    """The pid of a process that has exited (and been reaped)."""
    proc = subprocess.Popen([sys.executable, "-c", "pass"])
    proc.wait()
    return proc.pid


def test_file_status(tmp_path):
    path = tmp_path / "a.txt"
    assert file_status(path, b"x") == "new"
    path.write_bytes(b"x")
    assert file_status(path, b"x") == "unchanged"
    assert file_status(path, b"y") == "changed"


def test_write_atomic(tmp_path):
    path = tmp_path / "out.txt"
    write_atomic(path, "caf\u00e9\nline\n")
    assert path.read_bytes() == "caf\u00e9\nline\n".encode()
    assert stat.S_IMODE(path.stat().st_mode) == 0o644
    write_atomic(path, "second")
    assert path.read_text(encoding="utf-8") == "second"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["out.txt"]


def test_write_atomic_failure_leaves_the_old_file(tmp_path):
    path = tmp_path / "out.txt"
    path.write_text("old", encoding="utf-8")
    with pytest.raises(UnicodeEncodeError):
        write_atomic(path, "bad \ud800 surrogate")
    assert path.read_text(encoding="utf-8") == "old"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["out.txt"]  # no temporary left


def test_install_staged(tmp_path):
    out, stage = tmp_path / "out", tmp_path / "stage"
    out.mkdir()
    stage.mkdir()
    (out / "same.txt").write_bytes(b"same")
    (out / "old.txt").write_bytes(b"before")
    before = (out / "same.txt").stat().st_ino
    staged = {}
    for name, data in (("same.txt", b"same"), ("old.txt", b"after"), ("new.txt", b"fresh")):
        staged[name] = stage / name
        staged[name].write_bytes(data)
        staged[name].chmod(0o600)
    status: dict[str, str] = {}
    written = install_staged(staged, out, status)
    assert status == {"same.txt": "unchanged", "old.txt": "changed", "new.txt": "new"}
    assert written == {name: out / name for name in staged}
    assert (out / "old.txt").read_bytes() == b"after"
    assert (out / "new.txt").read_bytes() == b"fresh"
    assert stat.S_IMODE((out / "new.txt").stat().st_mode) == 0o644
    assert (out / "same.txt").stat().st_ino == before  # untouched
    assert (stage / "same.txt").exists() and not (stage / "old.txt").exists()


def test_process_exists():
    assert process_exists(os.getpid())
    assert not process_exists(0)
    assert not process_exists(-5)
    assert not process_exists(2**40)  # beyond pid_t
    assert not process_exists(dead_pid())


@pytest.mark.skipif(os.name == "nt", reason="nothing is removed on Windows")
def test_clean_stale_staging(tmp_path):
    stale = tmp_path / f"{STAGING_PREFIX}{dead_pid()}-abc"
    live = tmp_path / f"{STAGING_PREFIX}{os.getpid()}-def"
    other = tmp_path / "keep-me"
    a_file = tmp_path / f"{STAGING_PREFIX}{dead_pid()}-file"
    no_pid = tmp_path / f"{STAGING_PREFIX}x-1"
    for d in (stale, live, other, no_pid):
        d.mkdir()
    (stale / "inside.txt").write_text("x")
    a_file.write_text("not a directory")
    removed = clean_stale_staging(tmp_path)
    assert removed == [stale]
    assert not stale.exists()
    assert live.is_dir() and other.is_dir() and no_pid.is_dir() and a_file.is_file()


def test_staging_dir(tmp_path):
    stale = tmp_path / f"{STAGING_PREFIX}{dead_pid()}-zz"
    stale.mkdir()
    first, second = staging_dir(tmp_path), staging_dir(tmp_path)
    assert not stale.exists()
    assert first != second and first.is_dir() and second.is_dir()
    for d in (first, second):
        assert d.parent == tmp_path
        assert d.name.startswith(f"{STAGING_PREFIX}{os.getpid()}-")
    assert isinstance(first, Path)
