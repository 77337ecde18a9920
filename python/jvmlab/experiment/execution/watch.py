"""Reading a trial's output as it comes: every line is written to its file and checked against the spec's
patterns (readiness, stdin triggers, stop, the workload metric)."""

from __future__ import annotations

import contextlib
import re
import threading
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO

from jvmlab.experiment.spec import Metric, Send


@dataclass
class Watch:
    """What the output of one trial has shown so far. Shared by the reader threads of stdout and stderr."""

    t0: float
    ready_pattern: re.Pattern[str] | None = None
    stop_pattern: re.Pattern[str] | None = None
    metric: Metric | None = None
    sends: Sequence[Send] = ()
    stdin: IO[bytes] | None = None
    ready_at: float | None = None
    stop_seen: threading.Event = field(default_factory=threading.Event)
    metric_points: list[tuple[float, float]] = field(default_factory=list)
    oom_line: str | None = None
    lines: int = 0
    _next_send: int = 0
    _metric_re: re.Pattern[str] | None = None
    _lock: threading.Lock = field(default_factory=threading.Lock)

    def __post_init__(self) -> None:
        self._metric_re = re.compile(self.metric.regex) if self.metric else None

    def line(self, text: str) -> None:
        t = time.monotonic() - self.t0
        with self._lock:
            self.lines += 1
            if self.ready_at is None and self.ready_pattern is not None and self.ready_pattern.search(text):
                self.ready_at = t
            if self.stop_pattern is not None and self.stop_pattern.search(text):
                self.stop_seen.set()
            if self._metric_re is not None and (m := self._metric_re.search(text)):
                with contextlib.suppress(ValueError):  # a match that is not a number is not a reading
                    self.metric_points.append((t, float(m.group("value").replace(",", ""))))
            if self.oom_line is None and "java.lang.OutOfMemoryError" in text:
                self.oom_line = text.strip()[:300]
            if self._next_send < len(self.sends) and re.search(self.sends[self._next_send].when, text):
                self.send(self.sends[self._next_send].send)
                self._next_send += 1

    def send(self, text: str) -> bool:
        """Writes a line to the process's stdin; False when the pipe is closed."""
        if self.stdin is None:
            return False
        try:
            self.stdin.write(text.encode() + b"\n")
            self.stdin.flush()
            return True
        except (BrokenPipeError, OSError, ValueError):
            return False


def pump(stream: IO[bytes], out: Path, watch: Watch) -> threading.Thread:
    """Starts a thread that copies `stream` to the file `out`, line by line, feeding `watch`."""

    def run() -> None:
        with open(out, "wb") as f:
            for raw in iter(stream.readline, b""):
                f.write(raw)
                f.flush()
                watch.line(raw.decode("utf-8", "replace"))
        stream.close()

    thread = threading.Thread(target=run, name=f"pump-{out.name}", daemon=True)
    thread.start()
    return thread


def tail(path: Path, max_lines: int = 20, max_bytes: int = 4000) -> str:
    """The last lines of a file (for a failed trial's reason)."""
    try:
        with open(path, "rb") as f:
            f.seek(0, 2)
            size = f.tell()
            f.seek(max(0, size - max_bytes))
            text = f.read().decode("utf-8", "replace")
    except OSError:
        return ""
    return "\n".join(text.splitlines()[-max_lines:])
