"""A progress indicator on standard error (:class:`Progress`), used by ``dpsym derive``.

On a terminal it is one line redrawn in place; in a pipe or a CI log it degrades to one
line per phase, so that logs stay readable. It writes nothing to standard output.
"""

from __future__ import annotations

import sys
import time
from typing import TextIO

__all__ = ["Progress"]


class Progress:
    """A progress indicator on ``stream`` (default standard error), ``total`` steps, for
    the program ``name``.

    On a terminal: one line redrawn in place (a bar, steps done, elapsed seconds, the
    phase and step), erased by :meth:`close`. Elsewhere (a pipe, a CI log): one line when
    a phase begins, nothing per step. ``enabled=False`` prints nothing.
    """

    WIDTH = 79

    def __init__(self, total: int, stream: TextIO | None = None, enabled: bool = True,
                 name: str = "dpsym"):
        self.name = name
        self.stream = sys.stderr if stream is None else stream
        self.enabled = enabled
        self.tty = enabled and bool(getattr(self.stream, "isatty", lambda: False)())
        self.total, self.done, self.phase = max(total, 1), 0, ""
        self.start = time.monotonic()

    def begin(self, phase: str, detail: str = "") -> None:
        """Start the phase ``phase`` (``detail`` says how much it covers)."""
        self.phase = phase
        if self.tty:
            self._draw("")
        elif self.enabled:
            self.stream.write(f"{self.name}: {phase}{f' ({detail})' if detail else ''}\n")
            self.stream.flush()

    def step(self, label: str = "") -> None:
        """One step of the current phase is done."""
        self.done = min(self.done + 1, self.total)
        if self.tty:
            self._draw(label)

    def _draw(self, label: str) -> None:
        filled = 20 * self.done // self.total
        text = (f"[{'#' * filled}{'.' * (20 - filled)}] {self.done}/{self.total} "
                f"{time.monotonic() - self.start:3.0f}s {self.phase}: {label}")
        self.stream.write("\r" + text[:self.WIDTH].ljust(self.WIDTH))
        self.stream.flush()

    def close(self) -> None:
        """Erase the line (terminal only)."""
        if self.tty:
            self.stream.write("\r" + " " * self.WIDTH + "\r")
            self.stream.flush()
