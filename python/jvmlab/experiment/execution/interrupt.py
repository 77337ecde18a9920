"""Ctrl-C and SIGTERM during a run: KeyboardInterrupt where the program is, and a flag that remembers it.

A KeyboardInterrupt can be swallowed by library code it lands in (a database driver returning a connection
to its pool); the flag makes the run stop at its next check anyway, between two polls of a trial or two
trials. Install the handlers from the main thread (the CLI does), and restore them after.
"""

from __future__ import annotations

import signal
import threading
from collections.abc import Callable
from types import FrameType

_requested = threading.Event()


def _handler(signum: int, frame: FrameType | None) -> None:
    _requested.set()
    raise KeyboardInterrupt


def install() -> Callable[[], None]:
    """Routes SIGINT and SIGTERM to the handler; returns what restores the previous handlers."""
    _requested.clear()
    previous = {sig: signal.signal(sig, _handler) for sig in (signal.SIGINT, signal.SIGTERM)}

    def restore() -> None:
        for sig, handler in previous.items():
            signal.signal(sig, handler)

    return restore


def check() -> None:
    """Raises KeyboardInterrupt if an interrupt arrived (even one that was swallowed where it landed)."""
    if _requested.is_set():
        raise KeyboardInterrupt
