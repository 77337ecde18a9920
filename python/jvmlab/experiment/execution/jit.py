"""A trial's JIT telemetry ([telemetry] jit): from the moment the workload is ready, the code cache's use
per code heap sampled every sample interval (Compiler.codecache through the JVM's attach socket:
jvmlab.jdk.attach.diagnostic without the jcmd tool's fallback, well under a millisecond per sample), and how
much of the Java heap and of the code cache sits on transparent huge pages (/proc/PID/smaps, read every
PAGES_EVERY_S and once more before jvmlab stops the JVM). The compilation logs themselves are the JVM's
(execution/telemetry.py).

Like profiling and counting it never fails a trial: what it could not read, its note says.
"""

from __future__ import annotations

import re
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import polars as pl

from jvmlab.errors import JvmLabError
from jvmlab.experiment.storage.artifacts import CODE_HEAP_SERIES
from jvmlab.jdk.codecache import CodeHeap, heap_ranges, parse_codecache

SERIES = CODE_HEAP_SERIES  # + the code heap's name, e.g. "codecache_used_bytes:profiled nmethods"
# One sample costs the JVM 50-90 us (attach socket, measured on JDK 11 to 25); `jcmd` would cost a JVM
# start of its own (~0.25 s, a core's worth of CPU) per sample. The floor keeps a tiny sample_interval_s
# from turning the code cache into a busy loop.
MIN_INTERVAL_S = 0.25
PAGES_EVERY_S = 5.0  # smaps walks the JVM's page tables under its mmap lock: not every sample
_PAGE_SIZE = re.compile(r"\[pagesize\]\s*(Heap|CodeHeap '[^']+'):.*?page_size=(\d+[KMG])")
_LOG_HEAP = re.compile(r"\[pagesize\]\s*Heap:.*?base=(0x[0-9a-f]+).*?size=(\d+)([KMG])")
_UNITS = {"K": 1 << 10, "M": 1 << 20, "G": 1 << 30}


def page_sizes(jit_log: Path | None) -> dict[str, str]:
    """The page size the JVM chose for its heap and each code heap, from -Xlog:pagesize in the jit log."""
    if jit_log is None or not jit_log.is_file():
        return {}
    text = jit_log.read_text(errors="replace")
    return {m.group(1): m.group(2) for m in _PAGE_SIZE.finditer(text)}


def heap_range_from_log(jit_log: Path | None) -> list[tuple[int, int]]:
    """The Java heap's reserved range as -Xlog:pagesize printed it ("Heap: ... base=0x... size=64M")."""
    if jit_log is None or not jit_log.is_file():
        return []
    m = _LOG_HEAP.search(jit_log.read_text(errors="replace"))
    if m is None:
        return []
    start = int(m.group(1), 16)
    return [(start, start + int(m.group(2)) * _UNITS[m.group(3)])]


@dataclass
class JitWatch:
    """Samples the code cache of `pid` on a thread; `series` holds (t_s since t0, bytes) per code heap."""

    pid: int
    interval_s: float
    t0: float
    thp_mode: str | None
    jit_log: Path | None = None
    series: dict[str, list[tuple[float, float]]] = field(default_factory=dict)
    heaps: dict[str, CodeHeap] = field(default_factory=dict)  # the latest sample of each code heap
    peaks: dict[str, int] = field(default_factory=dict)  # the most used seen per code heap
    pages: dict[str, Any] | None = None
    problems: list[str] = field(default_factory=list)
    _stop: threading.Event = field(default_factory=threading.Event)
    _thread: threading.Thread | None = None
    _heap_ranges: list[tuple[int, int]] | None = None
    _pages_at: float = -PAGES_EVERY_S
    _sampling: bool = True

    def start(self) -> JitWatch:
        self._thread = threading.Thread(target=self._run, name=f"jit-{self.pid}", daemon=True)
        self._thread.start()
        return self

    def _run(self) -> None:
        while not self._stop.is_set():
            self.tick()
            self._stop.wait(max(self.interval_s, MIN_INTERVAL_S))

    def tick(self) -> None:
        """A code cache sample (until one fails: JDK 8 has no Compiler.codecache), huge pages when due."""
        if self._sampling:
            self._sampling = self.sample()
        if time.monotonic() - self._pages_at >= PAGES_EVERY_S:
            self.read_pages()

    def sample(self) -> bool:
        """One code cache sample; False (and a note) when the JVM cannot be asked."""
        from jvmlab.jdk.attach import diagnostic

        try:  # the socket only: the jcmd tool would cost a JVM start per sample
            heaps = parse_codecache(diagnostic(self.pid, "Compiler.codecache", tool_fallback=False))
        except JvmLabError as e:
            self._problem(f"no code cache samples: {e}")
            return False
        if not heaps:
            self._problem("no code cache samples: Compiler.codecache printed no code heap")
            return False
        t = time.monotonic() - self.t0
        for h in heaps:
            self.series.setdefault(SERIES + h.name, []).append((t, float(h.used_bytes)))
            self.heaps[h.name] = h
            self.peaks[h.name] = max(self.peaks.get(h.name, 0), h.used_bytes)
        return True

    def read_pages(self) -> None:
        """THP use of the Java heap and the code cache now (replaces the previous reading)."""
        from jvmlab.jdk.smaps import pages_in, read_smaps

        self._pages_at = time.monotonic()
        try:
            mappings = read_smaps(self.pid)
        except JvmLabError as e:
            self._problem(f"no huge page figures: {e}")
            return
        code = [(h.start, h.reserved_end) for h in self.heaps.values() if h.start and h.reserved_end]
        heap = self._heap()
        self.pages = {
            "at_s": round(time.monotonic() - self.t0, 3),
            "heap": pages_in(mappings, heap).to_json() if heap else None,
            "code": pages_in(mappings, code).to_json() if code else None,
        }

    def _heap(self) -> list[tuple[int, int]]:
        """The Java heap's address range: GC.heap_info's (asked once), else -Xlog:pagesize's."""
        if self._heap_ranges is None:
            from jvmlab.jdk.attach import diagnostic

            try:
                self._heap_ranges = heap_ranges(diagnostic(self.pid, "GC.heap_info", tool_fallback=False))
            except JvmLabError:
                self._heap_ranges = []
            if not self._heap_ranges:
                self._heap_ranges = heap_range_from_log(self.jit_log)
            if not self._heap_ranges:
                self._problem("the collector gives no heap address range: no huge page figure for the heap")
        return self._heap_ranges

    def _problem(self, text: str) -> None:
        if text not in self.problems:
            self.problems.append(text)

    def finish(self, *, alive: bool) -> None:
        """Stops sampling; while the JVM still runs (the end of the measured window), one last sample and
        huge page reading. Without samples, the code heaps the JVM reported in its log stand in."""
        self._stop.set()
        if self._thread is not None:
            self._thread.join(timeout=15)
        if alive:
            self._pages_at = -PAGES_EVERY_S
            self.tick()
        if not self.heaps:
            self.heaps_from_log()

    def heaps_from_log(self) -> None:
        """JDK 8 has no Compiler.codecache: the code heaps the JVM printed after each compilation
        (-XX:+PrintCodeCacheOnCompilation in the jit log, at JVM uptime, which the series' time since launch
        follows to within the JVM's start-up) take the samples' place."""
        if self.jit_log is None or not self.jit_log.is_file():
            return
        from jvmlab.jit import load_compile_log

        try:
            rows = load_compile_log(self.jit_log).code_heaps
        except JvmLabError:
            return
        for (name,), r in rows.filter(pl.col("uptime_s").is_not_null()).group_by("heap", maintain_order=True):
            name = str(name)
            self.series[SERIES + name] = list(
                zip(r["uptime_s"].to_list(), r["used_bytes"].cast(float).to_list(), strict=True)
            )
            last = r.row(-1, named=True)
            self.heaps[name] = CodeHeap(
                name, last["size_bytes"], last["used_bytes"], last["max_used_bytes"], last["free_bytes"]
            )
            self.peaks[name] = int(r["used_bytes"].max())  # type: ignore[arg-type]
        if self.heaps:
            self.problems = [p for p in self.problems if not p.startswith("no code cache samples")]
            self._problem("code heaps from the JVM's reports after each compilation (no Compiler.codecache)")

    def result(self) -> dict[str, Any]:
        """The trial's `jit` column: per code heap its size, the most used seen and the JVM's own high-water
        mark; huge pages; the sample count and a note of what is missing."""
        samples = max((len(v) for v in self.series.values()), default=0)
        codecache = {
            name: {
                "size_bytes": h.size_bytes,
                "used_peak_bytes": self.peaks.get(name),
                "max_used_bytes": h.max_used_bytes,
                "used_last_bytes": h.used_bytes,
            }
            for name, h in self.heaps.items()
        }
        pages = {"thp": self.thp_mode, **(self.pages or {}), "page_size": page_sizes(self.jit_log)}
        note = "; ".join(self.problems) if self.problems else None
        return {"samples": samples, "codecache": codecache, "pages": pages, "note": note}


def jit_not_started(why: str, thp_mode: str | None) -> dict[str, Any]:
    """The `jit` column of a trial whose code cache was never sampled."""
    return {"samples": 0, "codecache": {}, "pages": {"thp": thp_mode}, "note": why}


def start_jit(
    pid: int, interval_s: float, t0: float, *, argv: list[str], vm: str, jit_log: Path | None
) -> JitWatch | str:
    """Starts sampling the code cache of the ready JVM `pid`; or why it cannot be (a note)."""
    from jvmlab.host import thp_mode

    if vm == "OpenJ9":
        return "no code cache samples: OpenJ9 has no Compiler.codecache"
    refused = [a for a in argv if a in ("-Xrs", "-XX:+DisableAttachMechanism")]
    if refused:
        return f"no code cache samples: the JVM runs with {refused[0]} (no attach)"
    return JitWatch(pid, interval_s, t0, thp_mode(), jit_log).start()
