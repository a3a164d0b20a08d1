"""Sphinx extension: the notebooks' kernels forked from one process that imported their
modules once.

A notebook kernel (ipykernel) pays about two CPU-seconds before its first cell: Python,
IPython, ipykernel, debugpy, zmq and tornado, then the notebook's own ``import dpsym``,
matplotlib and its font list, and the pieces sympy imports on first use. Every notebook of
the site pays the same. Here a *fork server*, a process started with the build, imports
all of it once, at the first kernel asked of it (a build whose notebooks all come from the
execution cache imports nothing), and each kernel is a fork of it: a fresh process, with
no state of another notebook, that starts where the imports end.

The notebooks' kernel (:data:`NAME`, a kernelspec in a temporary directory of the build,
found through ``JUPYTER_PATH``) runs this file as a *launcher*, which imports only the
standard library: it sends the server its working directory, environment, ``sys.path`` and
standard streams, and the server forks a child that takes them and runs
``ipykernel_launcher -f <connection file>`` as ``python -m ipykernel_launcher`` would. The
launcher is the process the notebook's client started: it stays while its kernel lives,
forwards SIGINT (an interrupt, the execution timeout's) and SIGTERM to the kernel's process
group, and exits as the kernel did (its exit code, or killed by the same signal). The
kernel exits when its launcher is gone (killed: its connection to the kernel closes), and
the launcher when the build's process is gone (as ipykernel's own parent poller does). The
server exits at ``build-finished`` and with the build's process, whatever ends it (its
standard input is a pipe from the build), killing any kernel still alive and removing its
temporary directory.

The server forks only while it is one thread, without a zmq context or an asyncio event
loop (else, and where no server answers, the launcher runs the kernel itself), and each
child draws fresh seeds for :mod:`random`, numpy's legacy global generator and sympy's, as
a new process would. Without ``os.fork`` (or Unix sockets) the notebooks use the
``python3`` kernel, as before.
"""

from __future__ import annotations

import atexit
import contextlib
import io
import json
import os
import select
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

#: The kernelspec of the forked kernels.
NAME = "dpsym-forked"
#: The environment variable giving the launchers the server's socket.
SOCKET_ENV = "DPSYM_KERNEL_FORKS"
#: What the server imports before its first fork: what each kernel imports at its start
#: (ipykernel's application imports all of these, its debugger debugpy, its shell jedi),
#: and what every notebook imports or pays at its first use (matplotlib with its font list
#: and PNG writer, sympy with the units its ``simplify`` imports, dpsym with its claims and
#: notebook helpers). Not ``ipykernel.kernelapp``, a small module whose defaults are read
#: from the environment at its import (the client's process id), nor
#: ``matplotlib_inline.backend_inline``, whose import wires the inline figures to the
#: kernel's shell: each kernel imports them itself.
PRELOAD = (
    "zmq", "tornado.ioloop", "zmq.eventloop.zmqstream", "jupyter_client.connect",
    "jupyter_client.session", "jupyter_core.paths", "IPython", "IPython.core.application",
    "IPython.core.profiledir", "IPython.core.shellapp", "IPython.core.completer",
    "IPython.core.pylabtools", "ipykernel.connect", "ipykernel.control",
    "ipykernel.heartbeat", "ipykernel.iostream", "ipykernel.ipkernel",
    "ipykernel.parentpoller", "ipykernel.shellchannel", "ipykernel.zmqshell",
    "ipykernel.debugger", "ipykernel.comm", "jedi", "psutil", "sqlite3",
    "matplotlib", "matplotlib.pyplot", "matplotlib.font_manager",
    "matplotlib.backends.backend_agg", "PIL.PngImagePlugin",
    "numpy", "mpmath", "flint", "sympy", "sympy.physics.units",
    "dpsym", "dpsym.notebook", "dpsym.claims", "dpsym.mechanisms",
)
#: The inline backend a kernel gives matplotlib when the environment names none
#: (ipykernel's ``IPKernelApp.init_gui_pylab``); matplotlib reads it at its import.
INLINE = "module://matplotlib_inline.backend_inline"
_LENGTH = 8  # digits of a request's length


def available() -> bool:
    """Whether kernels can be forked here (a POSIX fork and Unix sockets passing fds)."""
    return (hasattr(os, "fork") and hasattr(socket, "AF_UNIX")
            and hasattr(socket, "send_fds") and sys.platform != "win32")


def kernel_name() -> str:
    """The notebooks' kernel: :data:`NAME` where kernels are forked, else ``python3``."""
    return NAME if available() else "python3"


# ----------------------------------------------------------------------------- the build

class Server:
    """The fork server of one build: its process, its socket and the kernelspec
    :data:`NAME`, both in a temporary directory of the build."""

    def __init__(self, preload: bool = True) -> None:
        self.directory = tempfile.mkdtemp(prefix="dpsym-kernels-")
        self.path = os.path.join(self.directory, "socket")
        # listening before the server runs: a launcher may connect at once. The server's
        # standard input is a pipe from the build: closed, by the build or by the build's
        # end, it ends the server
        with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as listener:
            listener.bind(self.path)
            listener.listen(16)
            self.process = subprocess.Popen(
                [sys.executable, __file__, "--serve" if preload else "--serve-bare",
                 str(listener.fileno()), self.directory], stdin=subprocess.PIPE,
                pass_fds=[listener.fileno()])
        write_kernelspec(Path(self.directory))
        self.environ = {name: os.environ.get(name) for name in (SOCKET_ENV, "JUPYTER_PATH")}
        os.environ[SOCKET_ENV] = self.path
        os.environ["JUPYTER_PATH"] = os.pathsep.join(
            [self.directory, *filter(None, os.environ.get("JUPYTER_PATH", "").split(
                os.pathsep))])

    def stop(self) -> None:
        """End the server (and any kernel still alive), and put the environment back."""
        if self.process.stdin is not None and not self.process.stdin.closed:
            self.process.stdin.close()
        try:
            self.process.wait(timeout=30)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()
        shutil.rmtree(self.directory, ignore_errors=True)
        for name, value in self.environ.items():
            if value is None:
                os.environ.pop(name, None)
            else:
                os.environ[name] = value


_SERVERS: list[Server] = []


def write_kernelspec(jupyter_dir: Path) -> None:
    """Write the kernelspec :data:`NAME` (``python3``'s, with this file as its launcher)
    under ``jupyter_dir/kernels``."""
    from jupyter_client.kernelspec import KernelSpecManager

    spec = KernelSpecManager().get_kernel_spec("python3").to_dict()
    spec["argv"] = [sys.executable, str(Path(__file__).resolve()), "-f", "{connection_file}"]
    spec["display_name"] = f"{spec['display_name']}, forked"
    path = jupyter_dir / "kernels" / NAME / "kernel.json"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(spec, indent=1) + "\n", encoding="utf-8")


def start(app: Any, config: Any) -> None:
    """``config-inited``: when notebooks may run here, start the build's fork server."""
    if available() and config.nb_execution_mode != "off":
        _SERVERS.append(Server())


def stop(app: Any = None, exception: BaseException | None = None) -> None:
    """``build-finished`` (and at exit): stop the build's fork servers."""
    while _SERVERS:
        _SERVERS.pop().stop()


def setup(app: Any) -> dict[str, Any]:
    app.connect("config-inited", start)
    app.connect("build-finished", stop)
    atexit.register(stop)
    return {"parallel_read_safe": True, "parallel_write_safe": True}


# ----------------------------------------------------------------------------- the server

def _send(conn: socket.socket, message: str) -> None:
    try:
        conn.sendall(message.encode() + b"\n")
    except OSError:
        pass  # the launcher is gone


def _receive(conn: socket.socket) -> tuple[dict[str, Any], list[int]]:
    """A launcher's request and its standard streams."""
    data, fds, _, _ = socket.recv_fds(conn, 1 << 16, 3)
    while len(data) < _LENGTH or len(data) < _LENGTH + int(data[:_LENGTH]):
        more = conn.recv(1 << 16)
        if not more:
            raise EOFError("the launcher left before its request was whole")
        data += more
    return json.loads(data[_LENGTH:]), fds


_BACKEND = ""  # matplotlib's backend in the server's environment


def _preload(env: dict[str, str]) -> None:
    """Import :data:`PRELOAD`, with matplotlib's backend of the first launcher."""
    import importlib

    global _BACKEND
    _BACKEND = env.get("MPLBACKEND") or INLINE

    os.environ["MPLBACKEND"] = _BACKEND
    for name in PRELOAD:
        # debugpy warns at its import (of frozen modules) on the standard error, which a
        # kernel has already sent to its client then, as output of no cell: none to show
        quiet = name == "ipykernel.debugger"
        try:
            with contextlib.redirect_stderr(io.StringIO() if quiet else sys.stderr):
                importlib.import_module(name)
        except ImportError:
            pass  # not installed: the kernel that needs it fails the same way


def _fork_safe() -> bool:
    """Whether this process is still one thread, without a zmq context or an asyncio
    event loop (none of which a fork takes along whole)."""
    import threading

    zmq = sys.modules.get("zmq")
    events = sys.modules.get("asyncio.events")
    policy = getattr(events, "_event_loop_policy", None)
    return (threading.active_count() == 1
            and (zmq is None or getattr(zmq.Context, "_instance", None) is None)
            and getattr(getattr(policy, "_local", None), "_loop", None) is None)


def _kernel(conn: socket.socket, request: dict[str, Any], fds: list[int]) -> None:
    """In the forked child: become the kernel the launcher asked for; never returns."""
    code: Any = 1
    try:
        os.setsid()  # its own process group, as the launcher's kernel would have
        for target, fd in enumerate(fds):
            os.dup2(fd, target)
            os.close(fd)
        os.chdir(request["cwd"])
        os.environ.clear()
        os.environ.update(request["env"])
        backend = os.environ.get("MPLBACKEND") or INLINE
        if "matplotlib" in sys.modules and backend != _BACKEND:  # read at its import
            sys.modules["matplotlib"].rcParams["backend"] = backend
        _reseed()
        # the launcher gone (killed), the kernel goes too
        import threading

        def watch() -> None:
            while True:
                try:
                    if not conn.recv(1 << 10):
                        break
                except InterruptedError:
                    continue
                except OSError:
                    break
            os._exit(1)

        threading.Thread(target=watch, name="launcher-watch", daemon=True).start()
        import runpy

        sys.path[:] = [os.getcwd(), *request["path"]]
        sys.argv[:] = ["ipykernel_launcher", *request["argv"]]
        try:
            runpy.run_module("ipykernel_launcher", run_name="__main__", alter_sys=True)
            code = 0
        except SystemExit as exc:
            code = exc.code
        threading._shutdown()  # type: ignore[attr-defined]  # as the interpreter's end
        atexit._run_exitfuncs()
    except KeyboardInterrupt:  # uncaught: killed by SIGINT, as Python ends then
        signal.signal(signal.SIGINT, signal.SIG_DFL)
        os.kill(os.getpid(), signal.SIGINT)
    except BaseException:  # reported like an uncaught error, then exit 1
        import traceback
        traceback.print_exc()
        code = 1
    finally:
        for stream in (sys.stdout, sys.stderr):
            try:
                stream.flush()
            except Exception:  # a closed stream: nothing to flush
                pass
        if code is None:
            code = 0
        elif not isinstance(code, int):
            print(code, file=sys.stderr)
            code = 1
        os._exit(code)


def _reseed() -> None:
    """Fresh seeds for the generators a new process seeds from the system at import."""
    import random
    random.seed()
    if "numpy" in sys.modules:
        import numpy
        numpy.random.seed()
    if "sympy.core.random" in sys.modules:
        sys.modules["sympy.core.random"].rng.seed()


def serve(fd: int, directory: str, preload: bool = True) -> None:
    """Fork a kernel for each launcher connecting to the listening socket ``fd``, until
    standard input ends, then remove ``directory`` (the socket's and the kernelspec's);
    import :data:`PRELOAD` first unless not ``preload``."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # the build's interrupt ends its input
    wake_r, wake_w = os.pipe()
    os.set_blocking(wake_w, False)
    signal.set_wakeup_fd(wake_w)
    signal.signal(signal.SIGCHLD, lambda signum, frame: None)
    listener = socket.socket(fileno=fd)
    kernels: dict[int, socket.socket] = {}
    loaded = not preload
    try:
        while True:
            ready, _, _ = select.select([listener, sys.stdin, wake_r], [], [])
            if sys.stdin in ready and not os.read(sys.stdin.fileno(), 1 << 10):
                return
            if wake_r in ready:
                os.read(wake_r, 1 << 10)
                _reap(kernels)
            if listener in ready:
                conn, _ = listener.accept()
                try:
                    conn.settimeout(60)
                    request, fds = _receive(conn)
                    conn.settimeout(None)
                except (OSError, ValueError, EOFError):
                    conn.close()
                    continue
                if not loaded:
                    _preload(request["env"])
                    loaded = True
                if not _fork_safe():  # the launcher runs the kernel itself
                    for fd in fds:
                        os.close(fd)
                    conn.close()
                    continue
                for stream in (sys.stdout, sys.stderr):
                    stream.flush()
                pid = os.fork()
                if pid == 0:  # the kernel: none of the server's signals, files, sockets
                    for signum in (signal.SIGCHLD, signal.SIGTERM, signal.SIGHUP):
                        signal.signal(signum, signal.SIG_DFL)
                    signal.signal(signal.SIGINT, signal.default_int_handler)
                    signal.set_wakeup_fd(-1)
                    for other in (listener, *kernels.values()):
                        other.close()
                    os.close(wake_r)
                    os.close(wake_w)
                    _kernel(conn, request, fds)
                for fd in fds:
                    os.close(fd)
                kernels[pid] = conn
                _send(conn, f"pid {pid}")
                _reap(kernels)
    finally:
        for pid in kernels:
            try:
                os.killpg(pid, signal.SIGKILL)
            except OSError:
                pass
        for pid in list(kernels):
            os.waitpid(pid, 0)
            kernels.pop(pid).close()
        listener.close()
        shutil.rmtree(directory, ignore_errors=True)


def _reap(kernels: dict[int, socket.socket]) -> None:
    """Tell each launcher whose kernel has ended how it ended."""
    while kernels:
        try:
            pid, status = os.waitpid(-1, os.WNOHANG)
        except ChildProcessError:
            return
        if pid == 0:
            return
        conn = kernels.pop(pid, None)
        if conn is not None:
            _send(conn, f"status {status}")
            conn.close()


# ----------------------------------------------------------------------------- the launcher

def launch(argv: list[str]) -> int:
    """Run a forked kernel with the arguments ``argv`` (``-f <connection file>``) and
    return its exit code; ``python -m ipykernel_launcher`` in this process where no fork
    server answers (outside the build)."""
    path = os.environ.get(SOCKET_ENV)
    conn = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    try:
        if not path:
            raise OSError("no fork server")
        conn.connect(path)
    except OSError:
        conn.close()
        os.execv(sys.executable, [sys.executable, "-m", "ipykernel_launcher", *argv])
    request = json.dumps({"cwd": os.getcwd(), "env": dict(os.environ),
                          "path": sys.path[1:], "argv": argv}).encode()
    socket.send_fds(conn, [b"%0*d" % (_LENGTH, len(request)) + request], [0, 1, 2])
    parent = os.getppid()
    pid = 0
    signals: list[int] = []

    def forward(signum: int, frame: Any) -> None:
        if pid:
            try:
                os.killpg(pid, signum)
            except OSError:
                pass
        else:
            signals.append(signum)

    for signum in (signal.SIGINT, signal.SIGTERM):
        signal.signal(signum, forward)
    buffer = b""
    while True:
        ready, _, _ = select.select([conn], [], [], 1.0)
        if not ready:
            if os.getppid() != parent:  # the build is gone: so is its kernel
                if pid:
                    os.killpg(pid, signal.SIGKILL)
                return 1
            continue
        data = conn.recv(1 << 10)
        if not data and not pid:  # no fork: the kernel in this process
            conn.close()
            os.execv(sys.executable, [sys.executable, "-m", "ipykernel_launcher", *argv])
        if not data:
            return 1  # the server ended without a word about the kernel
        buffer += data
        while b"\n" in buffer:
            line, _, buffer = buffer.partition(b"\n")
            word, _, value = line.decode().partition(" ")
            if word == "pid":
                pid = int(value)
                for early in signals:  # arrived before the kernel
                    forward(early, None)
            elif word == "status":
                code = os.waitstatus_to_exitcode(int(value))
                if code < 0:  # killed by a signal: so is the launcher
                    signal.signal(-code, signal.SIG_DFL)
                    os.kill(os.getpid(), -code)
                return code


if __name__ == "__main__":
    if sys.argv[1:2] in (["--serve"], ["--serve-bare"]):
        serve(int(sys.argv[2]), sys.argv[3], preload=sys.argv[1] == "--serve")
    else:
        sys.exit(launch(sys.argv[1:]))
