"""Tests of :mod:`dpsym.cli.output`: the checks of an output path and the writes through
links, to FIFOs, over hard-linked files and of new files."""

from __future__ import annotations

import os
import stat
import threading

import pytest

from dpsym.cli.options import CliError
from dpsym.cli.output import OutputFile, check_output, write_output

ROOT = hasattr(os, "geteuid") and os.geteuid() == 0


def test_new_file(tmp_path):
    path = str(tmp_path / "new.csv")
    out = check_output(path)
    assert out == OutputFile(path, tmp_path / "new.csv", replace=True, existing=None)
    assert not os.path.exists(path)  # the check creates nothing
    old = os.umask(0o027)
    try:
        write_output(path, "x,y\n\u03b5,1\n")
    finally:
        os.umask(old)
    assert (tmp_path / "new.csv").read_bytes() == "x,y\n\u03b5,1\n".encode()
    assert stat.S_IMODE(os.stat(path).st_mode) == 0o640  # 0o666 less the umask
    assert sorted(p.name for p in tmp_path.iterdir()) == ["new.csv"]  # no temporary left


def test_existing_file_keeps_its_mode(tmp_path):
    path = tmp_path / "old.txt"
    path.write_text("before")
    path.chmod(0o600)
    out = check_output(str(path))
    assert out.replace and out.existing is not None
    write_output(str(path), "after")
    assert path.read_text() == "after"
    assert stat.S_IMODE(path.stat().st_mode) == 0o600


def test_symlink_is_kept_and_its_target_written(tmp_path):
    target = tmp_path / "real.txt"
    target.write_text("old")
    link = tmp_path / "link.txt"
    link.symlink_to(target)
    out = check_output(str(link))
    assert out.target == target and out.replace
    write_output(str(link), "new")
    assert link.is_symlink() and target.read_text() == "new"


def test_dangling_symlink_creates_its_target(tmp_path):
    link = tmp_path / "link.txt"
    link.symlink_to(tmp_path / "missing.txt")
    write_output(str(link), "made")
    assert link.is_symlink() and (tmp_path / "missing.txt").read_text() == "made"


def test_hard_linked_file_is_written_in_place(tmp_path):
    first = tmp_path / "a.txt"
    first.write_text("old")
    second = tmp_path / "b.txt"
    os.link(first, second)
    out = check_output(str(first))
    assert not out.replace
    write_output(str(first), "shared")
    assert second.read_text() == "shared" and first.stat().st_ino == second.stat().st_ino


def test_device_and_fifo_are_written_not_replaced(tmp_path):
    out = check_output("/dev/null")
    assert not out.replace and out.target.as_posix() == "/dev/null"
    write_output("/dev/null", "discarded")
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    got = []
    reader = threading.Thread(target=lambda: got.append(fifo.read_text()))
    reader.start()
    write_output(str(fifo), "through the pipe")
    reader.join(timeout=60)
    assert got == ["through the pipe"]
    assert stat.S_ISFIFO(fifo.stat().st_mode)


@pytest.mark.parametrize(("make", "needle"), [
    (lambda d: "", "expected a file name"),
    (lambda d: str(d / "a\0b"), "NUL"),
    (lambda d: str(d / "sub") + os.sep, "ends with a separator"),
    (lambda d: str(d), "it is a directory"),
    (lambda d: str(d / "nowhere" / "f.txt"), "no directory"),
    (lambda d: str(d / "file.txt" / "below"), "cannot write"),  # a file as a directory
])
def test_refused_paths(tmp_path, make, needle):
    (tmp_path / "file.txt").write_text("x")
    with pytest.raises(CliError, match=needle) as info:
        check_output(make(tmp_path), "--out")
    assert str(info.value).startswith("--out: ")
    assert isinstance(info.value, CliError)


def test_option_is_named(tmp_path):
    with pytest.raises(CliError, match=r"^--figure: "):
        write_output(str(tmp_path), "x", "--figure")


def test_socket_is_refused(tmp_path):
    import socket
    path = tmp_path / "s"
    server = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    try:
        server.bind(str(path))
        with pytest.raises(CliError, match="not a regular file, a device or a FIFO"):
            check_output(str(path))
    finally:
        server.close()


@pytest.mark.skipif(ROOT, reason="root may write anywhere")
def test_unwritable(tmp_path):
    ro = tmp_path / "ro"
    ro.mkdir()
    (ro / "f.txt").write_text("x")
    (ro / "f.txt").chmod(0o444)
    ro.chmod(0o555)
    try:
        with pytest.raises(CliError, match="not writable"):
            check_output(str(ro / "new.txt"))
        with pytest.raises(CliError, match="permission denied"):
            check_output(str(ro / "f.txt"))
    finally:
        ro.chmod(0o755)
