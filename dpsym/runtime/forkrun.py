"""Forked worker processes that evaluate calls within a time and a memory budget.

The machinery of :mod:`dpsym.runtime.budget` (read its docstring for the guarantees): a
:class:`Worker` forks a child process, hands it one request at a time through a pipe and
waits for the answer until the request's deadline; at the deadline it kills the child's
process group. The child limits its own address space before each request. A worker
whose child was killed, or died, forks a new one at its next request.
"""

from __future__ import annotations

import contextlib
import ctypes
import faulthandler
import io
import os
import pickle
import select
import signal
import struct
import sys
import tempfile
import threading
import time
import traceback
import warnings
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, NoReturn

from dpsym.errors import BudgetExceeded

try:
    import resource
except ImportError:  # not POSIX
    resource = None  # type: ignore[assignment]

#: Whether budgets are enforced on this platform (a child process by ``fork``).
ENFORCED = hasattr(os, "fork") and resource is not None
#: Whether the memory budget is enforced too (``RLIMIT_AS``, on Linux).
MEMORY_ENFORCED = ENFORCED and sys.platform.startswith("linux")
#: Seconds an idle child is given to exit once its worker is closed, before it is killed.
EXIT_GRACE = 2.0
#: How often a child's exit is polled where ``pidfd_open`` is missing (s).
POLL = 0.05
#: The binary units of memory sizes.
UNITS = {"K": 2**10, "M": 2**20, "G": 2**30, "T": 2**40, "P": 2**50}

_HEADER = struct.Struct(">Q")
_PR_SET_PDEATHSIG = 1
#: Exit status of a child whose own machinery failed (not the computation).
_CHILD_FAILED = 70
#: Serialises the forks of this module: a child never inherits another child's pipe half
#: open (it closes every descriptor listed in ``_OPEN`` that is not its own).
_SPAWN_LOCK = threading.Lock()
_OPEN: set[int] = set()


@dataclass(frozen=True)
class Outcome:
    """The outcome of one request: its ``value``, or the ``error`` it raised
    (:class:`~dpsym.errors.BudgetExceeded` when it exceeded its budget)."""

    value: Any = None
    error: BaseException | None = None


def format_seconds(seconds: float) -> str:
    """``1 s``, ``0.25 s``: a time budget as messages show it."""
    return f"{int(seconds)} s" if seconds == int(seconds) else f"{seconds:g} s"


def format_size(size: int) -> str:
    """``512 MiB``, ``2 GiB``: a memory budget as messages show it."""
    for unit, factor in sorted(UNITS.items(), key=lambda kv: -kv[1]):
        if size >= factor and size % factor == 0:
            return f"{size // factor} {unit}iB"
    if size >= 2**20:
        return f"{size / 2**20:.4g} MiB"
    return f"{size} bytes"



def _flush_std() -> None:
    for stream in (sys.stdout, sys.stderr):
        with contextlib.suppress(Exception):
            if stream is not None:
                stream.flush()


def _address_space() -> int:
    """This process's virtual size in bytes (Linux)."""
    with open("/proc/self/statm", encoding="ascii") as f:
        pages = int(f.read().split()[0])
    return pages * os.sysconf("SC_PAGE_SIZE")


def _limit_memory(budget: int | None, inherited: tuple[int, int]) -> None:
    """Limit the address space to its present size plus ``budget`` (within the
    ``inherited`` limits); none: back to the inherited limit (Linux)."""
    if not MEMORY_ENFORCED:
        return
    soft, hard = inherited
    limit = soft
    if budget is not None:
        limit = _address_space() + budget
        if soft != resource.RLIM_INFINITY:
            limit = min(limit, soft)
    resource.setrlimit(resource.RLIMIT_AS, (limit, hard))


def _die_with(parent: int) -> None:
    """Ask the kernel to kill this process when the thread that forked it ends (Linux);
    elsewhere a thread exits it soon after the parent has gone (between Python
    bytecodes only)."""
    if sys.platform.startswith("linux"):
        with contextlib.suppress(OSError, AttributeError):
            libc = ctypes.CDLL(None, use_errno=True)
            libc.prctl(_PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)
    else:
        def watch() -> None:
            while os.getppid() == parent:
                time.sleep(0.5)
            os._exit(_CHILD_FAILED)

        threading.Thread(target=watch, daemon=True, name="dpsym-budget-parent").start()
    if os.getppid() != parent:  # the parent died before prctl took effect
        os._exit(_CHILD_FAILED)


def _capture_fd2(capture: int) -> None:
    """Send what C libraries write on descriptor 2 to ``capture``; Python's
    ``sys.stderr``, when it wrote there, goes on writing where it did."""
    real = False
    with contextlib.suppress(AttributeError, OSError, ValueError, io.UnsupportedOperation):
        real = sys.stderr is not None and sys.stderr.fileno() == 2
    if real:
        old = sys.stderr
        sys.stderr = open(os.dup(2), "w", buffering=1,
                          encoding=old.encoding, errors=old.errors)
    os.dup2(capture, 2)


def _is_memory(exc: BaseException | None) -> bool:
    """Whether ``exc`` is, or was caused by, a :class:`MemoryError`."""
    for _ in range(20):
        if exc is None:
            return False
        if isinstance(exc, MemoryError):
            return True
        exc = exc.__cause__ or exc.__context__
    return False


def _pack(exc: BaseException) -> tuple[Any, ...]:
    """An exception as ``(type, args, attributes, traceback)``, picklable."""
    tb = "".join(traceback.format_exception(type(exc), exc, exc.__traceback__))[-20000:]
    state = {}
    for key, item in vars(exc).items():
        with contextlib.suppress(Exception):
            pickle.dumps(item)
            state[key] = item
    packed = (type(exc), exc.args, state, tb)
    try:
        pickle.loads(pickle.dumps(packed))
        return packed
    except Exception:
        name = f"{type(exc).__module__}.{type(exc).__qualname__}"
        return (None, (f"{name}: {' '.join(str(exc).split())[:500]}",), {}, tb)


def _unpack(packed: tuple[Any, ...]) -> BaseException:
    """The exception of :func:`_pack`, rebuilt in the parent."""
    cls, args, state, tb = packed
    exc: BaseException
    try:
        if cls is None:
            raise TypeError
        try:  # the constructor sets what lives outside args (an OSError's errno)
            exc = cls(*args)
        except Exception:
            exc = cls.__new__(cls)
        exc.args = args
        exc.__dict__.update(state)
    except Exception:
        exc = RuntimeError(*args)
    with contextlib.suppress(Exception):
        exc.add_note("raised in the child process of a budget (dpsym.runtime.budget):\n" + tb)
    return exc


def _answer(request: tuple[Any, ...], context: tuple[Any, Sequence[Any]] | None,
            memory: int | None) -> bytes:
    """The pickled answer to a request (``("index", i)``: ``fn(items[i])`` of the fork's
    ``context``; ``("call", fn, args)``): ``("ok", value)``, ``("error", packed)`` or
    ``("memory",)``."""
    try:
        try:
            if request[0] == "index":
                fn, items = context  # type: ignore[misc]
                result: tuple[Any, ...] = ("ok", fn(items[request[1]]))
            else:
                result = ("ok", request[1](*request[2]))
        except BaseException as exc:
            if memory is not None and _is_memory(exc):
                return pickle.dumps(("memory",))
            result = ("error", _pack(exc))
        try:
            return pickle.dumps(result, pickle.HIGHEST_PROTOCOL)
        except Exception as exc:
            if memory is not None and _is_memory(exc):
                return pickle.dumps(("memory",))
            return pickle.dumps(("error", _pack(exc)))
    except MemoryError:
        return pickle.dumps(("memory",))


def _send(fd: int, data: bytes) -> None:
    view = memoryview(_HEADER.pack(len(data)) + data)
    while view:
        view = view[os.write(fd, view):]


def _receive(fd: int) -> Any:
    """One message from ``fd`` (blocking); ``None`` at the end of the file."""
    data = bytearray()
    while len(data) < _HEADER.size or len(data) < _HEADER.size + _HEADER.unpack_from(data)[0]:
        chunk = os.read(fd, 1 << 20)
        if not chunk:
            return None
        data += chunk
    return pickle.loads(bytes(data[_HEADER.size:]))


def _child_main(context: tuple[Any, Sequence[Any]] | None, fds: tuple[int, int, int],
                parent: int, mask: Any) -> NoReturn:
    """The child: answer requests until the end of the request pipe. Never returns."""
    global _SPAWN_LOCK, _OPEN
    requests, replies, capture = fds
    code = _CHILD_FAILED
    try:
        with contextlib.suppress(OSError):
            os.setpgid(0, 0)
        _die_with(parent)
        for fd in _OPEN - set(fds):
            with contextlib.suppress(OSError):
                os.close(fd)
        # the parent's thread held the lock at the fork: a budget inside this child
        # (a nested one) starts afresh, its children closing this child's descriptors
        _SPAWN_LOCK, _OPEN = threading.Lock(), set(fds)
        _capture_fd2(capture)
        signal.pthread_sigmask(signal.SIG_SETMASK, mask)
        inherited = resource.getrlimit(resource.RLIMIT_AS) if MEMORY_ENFORCED else (0, 0)
        while (request := _receive(requests)) is not None:
            memory = request[-1]
            _limit_memory(memory, inherited)
            if memory is not None:  # GMP's abort on a refused allocation is no crash
                faulthandler.disable()
            data = _answer(request[:-1], context, memory)
            if memory is not None:  # receiving the next request is no part of this one
                _limit_memory(None, inherited)
            _flush_std()
            _send(replies, data)
        code = 0
    finally:
        _flush_std()
        os._exit(code)


class _Child:
    """One forked child process and the parent's ends of its pipes."""

    def __init__(self, context: tuple[Any, Sequence[Any]] | None) -> None:
        self.status: int | None = None
        _flush_std()  # a buffer inherited unflushed would be written twice
        with _SPAWN_LOCK:
            req_read, self.requests = os.pipe()
            self.replies, rep_write = os.pipe()
            self.capture = tempfile.TemporaryFile()
            fds = (req_read, rep_write, self.capture.fileno())
            mine = {*fds, self.requests, self.replies}
            _OPEN.update(mine)
            parent = os.getpid()
            mask = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
            try:
                with warnings.catch_warnings():
                    # Python >= 3.12 warns when a process with threads (OpenBLAS's count)
                    # forks; the child here runs only dpsym, whose lock is fork-safe
                    warnings.filterwarnings("ignore", r".*fork\(\) may lead to deadlocks",
                                            DeprecationWarning)
                    pid = os.fork()
                if pid == 0:
                    _child_main(context, fds, parent, mask)
            except BaseException:
                _OPEN.difference_update(mine)
                for fd in mine - {self.capture.fileno()}:
                    os.close(fd)
                self.capture.close()
                raise
            finally:
                signal.pthread_sigmask(signal.SIG_SETMASK, mask)
            for fd in (req_read, rep_write):
                os.close(fd)
                _OPEN.discard(fd)
        self.pid = pid
        with contextlib.suppress(OSError):
            os.setpgid(pid, pid)  # also done by the child: whichever runs first
        self.pidfd: int | None = None
        with contextlib.suppress(AttributeError, OSError):
            self.pidfd = os.pidfd_open(pid)

    def exited(self, timeout: float | None) -> bool:
        """Whether the child has exited, waiting at most ``timeout`` s (not reaping)."""
        if self.pidfd is not None:
            ready, _, _ = select.select([self.pidfd], [], [], timeout)
            return bool(ready)
        deadline = None if timeout is None else time.monotonic() + timeout
        while True:
            try:
                if os.waitid(os.P_PID, self.pid, os.WEXITED | os.WNOHANG | os.WNOWAIT):
                    return True
            except ChildProcessError:
                return True
            if deadline is not None and time.monotonic() >= deadline:
                return False
            time.sleep(POLL)

    def read(self, buffer: bytearray, timeout: float | None) -> bool:
        """Read what the child sent within ``timeout`` s; whether it has exited."""
        fds = [self.replies] if self.pidfd is None else [self.replies, self.pidfd]
        if self.pidfd is None:
            timeout = POLL if timeout is None else min(timeout, POLL)
        ready, _, _ = select.select(fds, [], [], timeout)
        if self.replies in ready:
            chunk = os.read(self.replies, 1 << 20)
            buffer += chunk
            return not chunk  # end of file: the child has exited
        if self.pidfd is not None:
            return self.pidfd in ready
        return self.exited(0)

    def drain(self, buffer: bytearray) -> None:
        """Read everything left in the pipe (the child has exited)."""
        os.set_blocking(self.replies, False)
        with contextlib.suppress(BlockingIOError, OSError):
            while chunk := os.read(self.replies, 1 << 20):
                buffer += chunk

    def end_requests(self) -> None:
        """Close the request pipe: the child exits once it has answered."""
        if self.requests >= 0:
            with contextlib.suppress(OSError):
                os.close(self.requests)
            with _SPAWN_LOCK:
                _OPEN.discard(self.requests)
            self.requests = -1

    def interrupt(self) -> None:
        """Interrupt the child's process group (``SIGINT``: its clean-up runs, as it would
        in the caller's process); kill it if it has not exited after :data:`EXIT_GRACE`."""
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(self.pid, signal.SIGINT)
        self.end_requests()
        if not self.exited(EXIT_GRACE):
            self.kill()

    def kill(self) -> None:
        """Kill the child's process group, then the child (in case it has none)."""
        for kill in (os.killpg, os.kill):
            with contextlib.suppress(ProcessLookupError, PermissionError):
                kill(self.pid, signal.SIGKILL)

    def reap(self) -> int:
        """Kill what is left of the child's process group, reap the child; its exit code
        (negative: the signal that killed it)."""
        if self.status is None:
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.killpg(self.pid, signal.SIGKILL)  # the child, a zombie, keeps the id
            try:
                _, self.status = os.waitpid(self.pid, 0)
            except ChildProcessError:  # reaped elsewhere (SIGCHLD ignored)
                self.status = 0
        return os.waitstatus_to_exitcode(self.status) if self.status else 0

    def close(self, relay: bool) -> None:
        """End the child (asked to exit by the end of its request pipe, killed after
        :data:`EXIT_GRACE`), close the pipes and relay what it wrote on descriptor 2."""
        try:
            self.end_requests()
            if self.status is None and not self.exited(EXIT_GRACE):
                self.kill()
            self.reap()
        finally:
            with _SPAWN_LOCK:
                _OPEN.difference_update({self.replies, self.capture.fileno()})
            os.close(self.replies)
            if self.pidfd is not None:
                os.close(self.pidfd)
            with contextlib.suppress(Exception):
                if relay:
                    self.capture.seek(0)
                    text = self.capture.read().decode("utf-8", "replace")
                    if text and sys.stderr is not None:
                        sys.stderr.write(text)
            self.capture.close()


class Worker:
    """A forked child process that answers requests one at a time, each within its own
    time and memory budget.

    The child is forked at the first request, from the state of the process at that
    moment, and kept for the next requests (what one request caches serves the next). A
    request over its budget, or whose child dies, kills the child; the next request forks
    a new one. Use it as a context manager, or call :meth:`close`.

    Parameters
    ----------
    context : tuple, optional
        ``(fn, items)``, for requests ``("index", i)``: the child computes
        ``fn(items[i])``, with ``fn`` and ``items`` inherited by the fork (not pickled).
    """

    def __init__(self, context: tuple[Callable[[Any], Any], Sequence[Any]] | None = None
                 ) -> None:
        self.context = context
        self.child: _Child | None = None
        self.owner = os.getpid()

    def __enter__(self) -> Worker:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def close(self, relay: bool = True) -> None:
        """End the child, if any (it exits when its request pipe closes)."""
        child, self.child = self.child, None
        if child is not None and os.getpid() == self.owner:
            child.close(relay)

    def call(self, request: tuple[Any, ...], seconds: float | None, memory: int | None,
             what: str) -> Outcome:
        """Answer ``request``: ``("index", i)`` (see ``context``) or ``("call", fn,
        args)`` (``fn`` and ``args`` pickled) within ``seconds`` of wall time and
        ``memory`` bytes beyond the child's size when the request starts.

        Returns
        -------
        Outcome
            The value, the exception the call raised (rebuilt with its type), or a
            :class:`~dpsym.errors.BudgetExceeded` naming ``what``.
        """
        message = pickle.dumps((*request, memory), pickle.HIGHEST_PROTOCOL)
        buffer = bytearray()
        done = False
        child: _Child | None = None
        try:  # from the request on: a Ctrl-C at any moment interrupts the child
            for attempt in (0, 1):
                if self.child is None:
                    self.child = _Child(self.context)
                try:
                    _send(self.child.requests, message)
                    break
                except BrokenPipeError:  # the idle child died (killed from outside)
                    self.close()
                    if attempt:
                        raise
            child = self.child
            assert child is not None
            deadline = None if seconds is None else time.monotonic() + seconds
            while True:
                left = None if deadline is None else max(deadline - time.monotonic(), 0.0)
                exited = child.read(buffer, left)
                if exited:
                    child.drain(buffer)
                if len(buffer) >= _HEADER.size and (
                        len(buffer) >= _HEADER.size + _HEADER.unpack_from(buffer)[0]):
                    outcome = self._outcome(pickle.loads(bytes(buffer[_HEADER.size:])),
                                            memory, what)
                    done = not exited
                    if exited:
                        self.close()
                    return outcome
                if exited:
                    return self._died(memory, what)
                if deadline is not None and time.monotonic() >= deadline:
                    child.kill()
                    self.close()
                    return Outcome(error=BudgetExceeded(what, "time", format_seconds(
                        seconds or 0)))
        except KeyboardInterrupt:  # Ctrl-C reaches this process group, not the child's
            if child is None:
                child = self.child
            if child is not None:
                child.interrupt()
            raise
        finally:
            if not done and child is not None and self.child is child:
                child.kill()  # interrupted, or the answer is lost
                self.close()

    def _outcome(self, message: tuple[Any, ...], memory: int | None, what: str) -> Outcome:
        if message[0] == "ok":
            return Outcome(value=message[1])
        if message[0] == "memory":
            return Outcome(error=BudgetExceeded(what, "memory", format_size(memory or 0)))
        return Outcome(error=_unpack(message[1]))

    def _died(self, memory: int | None, what: str) -> Outcome:
        """The outcome of a request whose child died without answering: the memory budget
        exceeded when a signal killed it under a memory budget (GMP and FLINT abort on a
        refused allocation), else an internal error."""
        child = self.child
        assert child is not None
        code = child.reap()
        self.close(relay=memory is None or code >= 0)
        if memory is not None and code < 0:
            return Outcome(error=BudgetExceeded(what, "memory", format_size(memory)))
        how = f"exit status {code}"
        if code < 0:
            try:
                how = f"killed by {signal.Signals(-code).name}"
            except ValueError:
                how = f"killed by signal {-code}"
        return Outcome(error=RuntimeError(f"the process computing {what} died ({how})"))


__all__ = ["ENFORCED", "MEMORY_ENFORCED", "UNITS", "Outcome", "Worker", "format_seconds",
           "format_size"]
