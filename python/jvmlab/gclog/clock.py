"""When a JVM started, as wall-clock time, read off its GC log: lines that carry both a date and an uptime
(unified logging with the `time` or `utctime` and `uptime` decorators; JDK 8 with -XX:+PrintGCDateStamps
and -XX:+PrintGCTimeStamps) give start = date - uptime. This maps a load level's wall-clock window onto the
log's uptime axis exactly, whatever the JVM's start-up took."""

from __future__ import annotations

import re
import statistics
from datetime import datetime
from pathlib import Path

_STAMP = r"(\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}(?:[+-]\d{4}|Z))"
_UNIFIED = re.compile(r"^\[" + _STAMP + r"\]\[(\d+\.\d+)s\]")
_LEGACY = re.compile(r"^" + _STAMP + r": (\d+\.\d+): ")
_SAMPLES = 20


def _epoch(stamp: str) -> float:
    return datetime.strptime(stamp.replace("Z", "+0000"), "%Y-%m-%dT%H:%M:%S.%f%z").timestamp()


def jvm_start_epoch(path: str | Path, *, max_lines: int = 2000) -> float | None:
    """Seconds since the epoch at JVM uptime 0 (the median over the first lines that have both stamps), or
    None when the log's lines do not carry both (or it cannot be read)."""
    estimates: list[float] = []
    try:
        with open(path, encoding="utf-8", errors="replace") as f:
            for i, line in enumerate(f):
                if i >= max_lines or len(estimates) >= _SAMPLES:
                    break
                m = _UNIFIED.match(line) or _LEGACY.match(line)
                if m:
                    estimates.append(_epoch(m[1]) - float(m[2]))
    except OSError:
        return None
    return statistics.median(estimates) if estimates else None
