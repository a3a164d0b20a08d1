"""A headless Chromium driven over the DevTools protocol, for the documentation tests.

Chromium is started with ``--remote-debugging-pipe``: it reads protocol messages (JSON, each
ended by a NUL byte) on its file descriptor 3 and writes its answers and events on 4, so no
network port and no client library are needed. :meth:`Browser.evaluate` loads a page, waits
until the page has loaded and MathJax has typeset it, and returns the value of a JavaScript
expression evaluated in the page. The page waits for itself (:data:`WAIT`): one protocol call
per page, not one every few milliseconds while MathJax works.

Pages are loaded offline, from a small HTTP server of the browser's own on the loopback
address (:class:`Files`), which serves the directories given to :meth:`Browser.serve` and
nothing else, each file as it is on disk, to be kept by the browser (``Cache-Control``):
from the second page on, the scripts, style sheets and fonts every page loads (MathJax, the
theme's FontAwesome, the search index, ...) come from Chromium's cache, the scripts compiled
already (V8 keeps the code of a cached script, not of a ``file://`` one). The same pages
as from ``file://``, typeset and checked alike (the same findings on every page of the
site), for a seventh less of Chromium's work (the site's check: 40.6 -> 34.8 CPU-s).

A page loads, is typeset and is checked in a hidden tab (a background tab in no window's
tab strip): Chromium draws no frame of it (none laid out, painted, rastered and composited
for each change MathJax makes, nor for the typeset page, nor for the tab strip showing its
title while it loads: a third of Chromium's work), while the sizes and styles that MathJax
and a check ask for are computed as ever, on demand. Work a page would leave to an animation
frame is never done: the site's pages leave none (their icons are drawn as the page loads,
``docs/conf.py``), and the check finds an icon not drawn.
"""

from __future__ import annotations

import contextlib
import http.server
import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
import urllib.parse
from pathlib import Path
from typing import Any

#: The window of every page: a laptop screen.
WIDTH, HEIGHT = 1280, 900

#: True once the page has loaded and MathJax (2.x, if the page loads it) has finished
#: typesetting: its queue is empty and its startup signal has been sent.
READY = """((url) => {
  if (location.href !== url || document.readyState !== "complete") return false;
  const mj = window.MathJax;
  if (!document.querySelector('script[src*="MathJax.js"]')) return true;
  if (!mj || !mj.Hub || !mj.Hub.queue) return false;
  return mj.Hub.queue.pending === 0 && mj.Hub.queue.running === 0
    && mj.Hub.Startup.signal.posted.map(String).includes("End");
})"""


#: A promise, in the page, that resolves to true once :data:`READY` holds (checked every
#: 50 ms). Evaluated in the document before the navigation, it is destroyed with it (an
#: error: :meth:`Browser.load` asks again).
WAIT = f"""((url) => new Promise((resolve) => {{
  const ready = {READY};
  const poll = () => ready(url) ? resolve(true) : setTimeout(poll, 50);
  poll();
}}))"""

#: Chromium's background work that no page needs (updates of its components, network
#: requests of its own, extensions); a background tab's timers run as a shown one's (not
#: once a second), at the same priority.
QUIET = ("--disable-background-networking", "--disable-component-update",
         "--disable-extensions", "--disable-default-apps", "--disable-sync",
         "--disable-background-timer-throttling", "--disable-renderer-backgrounding",
         "--disable-backgrounding-occluded-windows")


#: Moves the fds given as its first two arguments to 3 and 4 (duplicating both first, so
#: that neither overwrites the other), then executes the rest of its arguments.
TRAMPOLINE = """import os, sys
r, w = (os.dup(int(fd)) for fd in sys.argv[1:3])
for old, new in ((r, 3), (w, 4)):
    if old != new:
        os.dup2(old, new)
    os.set_inheritable(new, True)
os.execv(sys.argv[3], sys.argv[3:])
"""


class _Handler(http.server.SimpleHTTPRequestHandler):
    """Answers a GET or HEAD of ``/<n>/<path on this machine>`` with that file, when it lies
    in the directory served as number ``n`` (:meth:`Files.serve`); 404 otherwise."""

    server: Files

    def translate_path(self, path: str) -> str:
        number, _, rest = urllib.parse.unquote(urllib.parse.urlsplit(path).path) \
            .lstrip("/").partition("/")
        root = self.server.roots.get(number)
        if root is None:
            return ""
        target = Path(os.path.normpath(f"/{rest}"))
        return str(target) if target.is_relative_to(root) else ""

    def send_head(self) -> Any:
        if not self.translate_path(self.path):
            self.send_error(404)
            return None
        return super().send_head()

    def end_headers(self) -> None:
        # kept by the browser and used without asking again: a served directory is not
        # changed while it is served (a directory served again gets new addresses)
        self.send_header("Cache-Control", "max-age=86400, immutable")
        super().end_headers()

    def log_message(self, format: str, *args: Any) -> None:
        pass


class Files(http.server.ThreadingHTTPServer):
    """An HTTP server on the loopback address, in a thread of this process, that serves the
    files of the directories given to :meth:`serve`."""

    daemon_threads = True

    def __init__(self) -> None:
        super().__init__(("127.0.0.1", 0), _Handler)
        #: The directories served, by the number that starts their addresses.
        self.roots: dict[str, Path] = {}
        self._thread = threading.Thread(target=self.serve_forever, daemon=True)
        self._thread.start()

    def serve(self, directory: Path) -> None:
        """Serve the files under ``directory`` (its files as they are now: served again,
        after a change, they have new addresses)."""
        self.roots[str(len(self.roots))] = Path(os.path.normpath(directory.resolve()))

    def url(self, page: Path) -> str:
        """The address of ``page``, in the directory served last that holds it."""
        page = Path(os.path.normpath(page.resolve()))
        for number, root in reversed(self.roots.items()):
            if page.is_relative_to(root):
                host, port = self.server_address[:2]
                return f"http://{host}:{port}/{number}{urllib.parse.quote(str(page))}"
        raise ValueError(f"{page}: in no directory served (Browser.serve)")

    def handle_error(self, request: Any, client_address: Any) -> None:
        pass  # a request the browser gave up (a page left before all of it loaded)

    def close(self) -> None:
        self.shutdown()
        self.server_close()


def find_chromium() -> str | None:
    """The Chromium executable on PATH (``chromium`` or ``chromium-browser``), or None."""
    return shutil.which("chromium") or shutil.which("chromium-browser")


class Browser:
    """One headless Chromium; use as a context manager."""

    def __init__(self, executable: str, timeout: float = 600.0) -> None:
        self.timeout = timeout
        #: The server of the pages the tabs load.
        self.files = Files()
        self._profile = tempfile.mkdtemp(prefix="dpsym-chromium-")
        to_browser_r, self._to_browser = os.pipe()
        self._from_browser, from_browser_w = os.pipe()
        # the child's ends are moved to its fds 3 and 4 by a small Python trampoline that
        # then executes Chromium
        self._proc = subprocess.Popen(
            [sys.executable, "-c", TRAMPOLINE, str(to_browser_r), str(from_browser_w),
             executable, "--headless", "--disable-gpu", "--no-sandbox", "--no-first-run",
             *QUIET, "--remote-debugging-pipe",
             f"--user-data-dir={self._profile}", f"--window-size={WIDTH},{HEIGHT}",
             "about:blank"],
            stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
            pass_fds=(to_browser_r, from_browser_w),
            start_new_session=True,  # its helper processes are ended with it (close)
        )
        os.close(to_browser_r)
        os.close(from_browser_w)
        self._buffer = b""
        self._next_id = 0
        # the answers read by one thread for the others, and whether one is reading
        self._answers: dict[int, dict[str, Any]] = {}
        self._reading = False
        self._lock = threading.Condition()
        self._first: Tab | None = None  # the tab of load and evaluate, once they are used

    def serve(self, directory: Path) -> None:
        """Let the tabs load the pages (and all files) under ``directory``."""
        self.files.serve(directory)

    def tab(self) -> Tab:
        """A new tab of this browser: several load pages at once (each in its own renderer
        process), each used by one thread at a time."""
        # a hidden tab: in the background, and not in the window's tab strip either (which
        # would draw its title and its spinning icon while it loads)
        target = self._call("Target.createTarget", {
            "url": "about:blank", "background": True, "hidden": True})["targetId"]
        session = self._call("Target.attachToTarget",
                             {"targetId": target, "flatten": True})["sessionId"]
        self._call("Emulation.setDeviceMetricsOverride",
                   {"width": WIDTH, "height": HEIGHT, "deviceScaleFactor": 1,
                    "mobile": False}, session=session)
        return Tab(self, session)

    def __enter__(self) -> Browser:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def close(self) -> None:
        self.files.close()
        for fd in (self._to_browser, self._from_browser):
            try:
                os.close(fd)
            except OSError:
                pass
        if self._proc.poll() is None:
            self._proc.terminate()
            try:
                self._proc.wait(10)
            except subprocess.TimeoutExpired:
                self._proc.kill()
                self._proc.wait()
        # Chromium's helpers (renderers, crash handler) may outlive it for a moment and
        # still write into the profile: they are killed first, then the profile removed
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(self._proc.pid, signal.SIGKILL)
        shutil.rmtree(self._profile, ignore_errors=True)

    # ------------------------------------------------------------------ the protocol

    def _read_message(self, deadline: float) -> dict[str, Any]:
        while b"\0" not in self._buffer:
            if time.monotonic() > deadline:
                raise TimeoutError("no answer from Chromium")
            chunk = os.read(self._from_browser, 1 << 16)
            if not chunk:
                raise RuntimeError(f"Chromium exited (code {self._proc.poll()})")
            self._buffer += chunk
        message, _, self._buffer = self._buffer.partition(b"\0")
        return json.loads(message)

    def _call(self, method: str, params: dict[str, Any] | None = None, *,
              session: str | None = None) -> dict[str, Any]:
        """Send a command (to the tab of ``session``, else to the browser) and return its
        result. Threads share the pipe: whichever waits reads the next message, keeps an
        answer for another thread, and wakes them."""
        with self._lock:
            self._next_id += 1
            ident = self._next_id
            message: dict[str, Any] = {"id": ident, "method": method, "params": params or {}}
            if session is not None:
                message["sessionId"] = session
            os.write(self._to_browser, json.dumps(message).encode() + b"\0")
            deadline = time.monotonic() + self.timeout
            while ident not in self._answers:  # events are skipped
                if self._reading:  # another thread reads
                    if not self._lock.wait(deadline - time.monotonic()):
                        raise TimeoutError("no answer from Chromium")
                    continue
                self._reading = True
                self._lock.release()
                try:
                    answer = self._read_message(deadline)
                finally:
                    self._lock.acquire()
                    self._reading = False
                    self._lock.notify_all()
                if "id" in answer:
                    self._answers[answer["id"]] = answer
            answer = self._answers.pop(ident)
        if "error" in answer:
            raise RuntimeError(f"{method}: {answer['error']}")
        return answer["result"]

    def _value(self, expression: str, session: str) -> Any:
        result = self._call("Runtime.evaluate", {"expression": expression,
                                                 "returnByValue": True}, session=session)
        if "exceptionDetails" in result:
            raise RuntimeError(f"JavaScript error: {result['exceptionDetails']}")
        return result["result"].get("value")

    # ------------------------------------------------------------------ pages

    def _own_tab(self) -> Tab:
        if self._first is None:
            self._first = self.tab()
        return self._first

    def load(self, page: Path) -> None:
        """:meth:`Tab.load` in a tab of the browser's own (the same at each call)."""
        self._own_tab().load(page)

    def evaluate(self, page: Path, expression: str) -> Any:
        """:meth:`Tab.evaluate` in the tab of :meth:`load`."""
        return self._own_tab().evaluate(page, expression)


class Tab:
    """A hidden tab of a :class:`Browser` (:meth:`Browser.tab`)."""

    def __init__(self, browser: Browser, session: str) -> None:
        self.browser = browser
        self._session = session

    def load(self, page: Path) -> None:
        """Open ``page`` (in a directory served, :meth:`Browser.serve`) and wait until it
        has loaded and its formulas are typeset."""
        browser = self.browser
        url = browser.files.url(page)
        browser._call("Page.navigate", {"url": url}, session=self._session)
        deadline = time.monotonic() + browser.timeout
        while True:
            if time.monotonic() > deadline:
                raise TimeoutError(f"{page}: not loaded and typeset in {browser.timeout} s")
            try:
                result = browser._call("Runtime.evaluate", {
                    "expression": f"{WAIT}({json.dumps(url)})", "awaitPromise": True,
                    "returnByValue": True}, session=self._session)
            except RuntimeError:  # the document before the page, destroyed meanwhile
                time.sleep(0.05)
                continue
            if "exceptionDetails" not in result and result["result"].get("value") is True:
                break
            time.sleep(0.05)

    def evaluate(self, page: Path, expression: str) -> Any:
        """Load ``page`` and return the value (JSON) of ``expression`` evaluated in it."""
        self.load(page)
        return self.browser._value(expression, self._session)
