"""A headless Chromium driven over the DevTools protocol, for the documentation tests.

Chromium is started with ``--remote-debugging-pipe``: it reads protocol messages (JSON, each
ended by a NUL byte) on its file descriptor 3 and writes its answers and events on 4, so no
network port and no client library are needed. :meth:`Browser.evaluate` loads a page
(``file://``, offline), waits until the page has loaded and MathJax has typeset it, and
returns the value of a JavaScript expression evaluated in the page. The page waits for
itself (:data:`WAIT`): one protocol call per page, not one every few milliseconds while
MathJax works.

A page loads and is typeset in a background tab: hidden, so Chromium draws no frame of it
while MathJax changes it formula by formula (each frame laid out and painted the whole page
again: a fifth of Chromium's work), while the sizes that MathJax (and a check) asks for
are computed as ever, on demand. Once typeset, its tab is brought to the front and shown
(:data:`SHOWN`): what the page leaves to its next frames (the theme's icons, drawn by
FontAwesome in an animation frame) is done, and the page is then what a reader sees.
"""

from __future__ import annotations

import contextlib
import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
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

#: True after the page's next two animation frames (its tab shown): the work the page did
#: in the first one is drawn.
SHOWN = """new Promise((resolve) => requestAnimationFrame(
  () => requestAnimationFrame(() => resolve(document.visibilityState === "visible"))))"""

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


def find_chromium() -> str | None:
    """The Chromium executable on PATH (``chromium`` or ``chromium-browser``), or None."""
    return shutil.which("chromium") or shutil.which("chromium-browser")


class Browser:
    """One headless Chromium; use as a context manager."""

    def __init__(self, executable: str, timeout: float = 600.0) -> None:
        self.timeout = timeout
        self._profile = tempfile.mkdtemp(prefix="dpsym-chromium-")
        to_browser_r, self._to_browser = os.pipe()
        self._from_browser, from_browser_w = os.pipe()
        # the child's ends are moved to its fds 3 and 4 by a small Python trampoline that
        # then executes Chromium
        self._proc = subprocess.Popen(
            [sys.executable, "-c", TRAMPOLINE, str(to_browser_r), str(from_browser_w),
             executable, "--headless", "--disable-gpu", "--no-sandbox", "--no-first-run",
             *QUIET, "--remote-debugging-pipe", "--allow-file-access-from-files",
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
        # the blank tab Chromium opens with stays in front while a page loads in the
        # background tab
        tabs = [target["targetId"] for target in self._call("Target.getTargets")["targetInfos"]
                if target["type"] == "page"]
        self._blank = (tabs[0] if tabs else
                       self._call("Target.createTarget", {"url": "about:blank"})["targetId"])
        self._target = self._call("Target.createTarget",
                                  {"url": "about:blank", "background": True})["targetId"]
        self._session = self._call("Target.attachToTarget",
                                   {"targetId": self._target, "flatten": True})["sessionId"]
        self._call("Emulation.setDeviceMetricsOverride",
                   {"width": WIDTH, "height": HEIGHT, "deviceScaleFactor": 1,
                    "mobile": False}, session=True)

    def __enter__(self) -> Browser:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def close(self) -> None:
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
              session: bool = False) -> dict[str, Any]:
        self._next_id += 1
        message: dict[str, Any] = {"id": self._next_id, "method": method,
                                   "params": params or {}}
        if session:
            message["sessionId"] = self._session
        os.write(self._to_browser, json.dumps(message).encode() + b"\0")
        deadline = time.monotonic() + self.timeout
        while True:  # events and other answers are skipped
            answer = self._read_message(deadline)
            if answer.get("id") == self._next_id:
                if "error" in answer:
                    raise RuntimeError(f"{method}: {answer['error']}")
                return answer["result"]

    def _value(self, expression: str) -> Any:
        result = self._call("Runtime.evaluate", {"expression": expression,
                                                 "returnByValue": True}, session=True)
        if "exceptionDetails" in result:
            raise RuntimeError(f"JavaScript error: {result['exceptionDetails']}")
        return result["result"].get("value")

    # ------------------------------------------------------------------ pages

    def load(self, page: Path) -> None:
        """Open ``page`` and wait until it has loaded and its formulas are typeset."""
        url = page.resolve().as_uri()
        self._call("Target.activateTarget", {"targetId": self._blank})
        self._call("Page.navigate", {"url": url}, session=True)
        deadline = time.monotonic() + self.timeout
        while True:
            if time.monotonic() > deadline:
                raise TimeoutError(f"{page}: not loaded and typeset in {self.timeout} s")
            try:
                result = self._call("Runtime.evaluate", {
                    "expression": f"{WAIT}({json.dumps(url)})", "awaitPromise": True,
                    "returnByValue": True}, session=True)
            except RuntimeError:  # the document before the page, destroyed meanwhile
                time.sleep(0.05)
                continue
            if "exceptionDetails" not in result and result["result"].get("value") is True:
                break
            time.sleep(0.05)
        self._call("Target.activateTarget", {"targetId": self._target})
        result = self._call("Runtime.evaluate", {"expression": SHOWN, "awaitPromise": True,
                                                 "returnByValue": True}, session=True)
        if result.get("result", {}).get("value") is not True:
            raise RuntimeError(f"{page}: not shown after typesetting: {result}")

    def evaluate(self, page: Path, expression: str) -> Any:
        """Load ``page`` and return the value (JSON) of ``expression`` evaluated in it."""
        self.load(page)
        return self._value(expression)
