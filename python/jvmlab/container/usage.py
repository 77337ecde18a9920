"""What a trial's cgroup counted: CPU time, CFS periods throttled and the time lost to them, memory peak
against the limit, anonymous and page-cache memory, OOM kills. The same figures from cgroup v1's and v2's
files."""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import asdict, dataclass
from pathlib import Path

from jvmlab.container.hierarchy import V1

# (controller, file) read for the usage.
STAT_FILES_V1 = (
    ("cpu", "cpu.stat"),
    ("cpuacct", "cpuacct.usage"),
    ("memory", "memory.max_usage_in_bytes"),
    ("memory", "memory.usage_in_bytes"),
    ("memory", "memory.limit_in_bytes"),
    ("memory", "memory.stat"),
    ("memory", "memory.oom_control"),
)
STAT_FILES_V2 = (
    ("cpu", "cpu.stat"),
    ("memory", "memory.peak"),
    ("memory", "memory.current"),
    ("memory", "memory.max"),
    ("memory", "memory.stat"),
    ("memory", "memory.events"),
)
# cgroup v1 writes "no limit" as the largest page-aligned 63-bit number.
_V1_UNLIMITED = 2**62


@dataclass(frozen=True)
class Usage:
    """Counters of a cgroup since it was made (None: the kernel does not count it here)."""

    cpu_s: float | None = None
    periods: int | None = None  # CFS periods with runnable tasks (0 without a CPU limit)
    throttled_periods: int | None = None
    throttled_s: float | None = None
    memory_peak_bytes: int | None = None
    memory_bytes: int | None = None
    memory_limit_bytes: int | None = None
    anon_bytes: int | None = None  # the processes' own memory (heap, stacks, malloc)
    file_bytes: int | None = None  # page cache charged to the group (files read and written)
    oom_kills: int | None = None

    @property
    def throttled_percent(self) -> float | None:
        """Share of the CFS periods in which the group ran out of quota (Kubernetes'
        container_cpu_cfs_throttled_periods_total / container_cpu_cfs_periods_total)."""
        if not self.periods or self.throttled_periods is None:
            return None if self.periods is None else 0.0
        return 100.0 * self.throttled_periods / self.periods

    @property
    def memory_peak_percent(self) -> float | None:
        if self.memory_peak_bytes is None or not self.memory_limit_bytes:
            return None
        return 100.0 * self.memory_peak_bytes / self.memory_limit_bytes

    def to_json(self) -> dict[str, object]:
        doc: dict[str, object] = asdict(self)
        doc["throttled_percent"] = self.throttled_percent
        doc["memory_peak_percent"] = self.memory_peak_percent
        return doc


def fields(text: str) -> dict[str, int]:
    """ "key value" lines (cpu.stat, memory.stat, memory.events, memory.oom_control) as numbers."""
    out = {}
    for line in text.splitlines():
        parts = line.split()
        if len(parts) == 2 and parts[1].lstrip("-").isdigit():
            out[parts[0]] = int(parts[1])
    return out


def _number(text: str | None) -> int | None:
    if text is None:
        return None
    text = text.strip()
    return int(text) if text.isdigit() else None


def usage_of(version: int, texts: Mapping[str, str]) -> Usage:
    """The usage from the stat files' texts (file name -> content); a missing file leaves its figures None."""
    return _v1(texts) if version == V1 else _v2(texts)


def _v1(texts: Mapping[str, str]) -> Usage:
    cpu = fields(texts.get("cpu.stat", ""))
    memory = fields(texts.get("memory.stat", ""))
    oom = fields(texts.get("memory.oom_control", ""))
    usage_ns = _number(texts.get("cpuacct.usage"))
    limit = _number(texts.get("memory.limit_in_bytes"))
    return Usage(
        cpu_s=None if usage_ns is None else usage_ns / 1e9,
        periods=cpu.get("nr_periods"),
        throttled_periods=cpu.get("nr_throttled"),
        throttled_s=cpu["throttled_time"] / 1e9 if "throttled_time" in cpu else None,
        memory_peak_bytes=_number(texts.get("memory.max_usage_in_bytes")),
        memory_bytes=_number(texts.get("memory.usage_in_bytes")),
        memory_limit_bytes=None if limit is None or limit >= _V1_UNLIMITED else limit,
        anon_bytes=memory.get("total_rss", memory.get("rss")),
        file_bytes=memory.get("total_cache", memory.get("cache")),
        oom_kills=oom.get("oom_kill"),  # kernel 4.13+
    )


def _v2(texts: Mapping[str, str]) -> Usage:
    cpu = fields(texts.get("cpu.stat", ""))
    memory = fields(texts.get("memory.stat", ""))
    events = fields(texts.get("memory.events", ""))
    return Usage(
        cpu_s=cpu["usage_usec"] / 1e6 if "usage_usec" in cpu else None,
        periods=cpu.get("nr_periods"),
        throttled_periods=cpu.get("nr_throttled"),
        throttled_s=cpu["throttled_usec"] / 1e6 if "throttled_usec" in cpu else None,
        memory_peak_bytes=_number(texts.get("memory.peak")),  # kernel 5.19+
        memory_bytes=_number(texts.get("memory.current")),
        memory_limit_bytes=_number(texts.get("memory.max")),  # "max": None
        anon_bytes=memory.get("anon"),
        file_bytes=memory.get("file"),
        oom_kills=events.get("oom_kill"),
    )


def usage_from_file(version: int, path: Path) -> Usage | None:
    """The usage the supervisor kept as the trial ended (file name -> text, as JSON); None if it kept none."""
    try:
        texts = json.loads(path.read_text())
    except (OSError, ValueError):
        return None
    return usage_of(version, texts) if isinstance(texts, dict) else None
