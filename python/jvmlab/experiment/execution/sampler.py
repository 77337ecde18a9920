"""Process metrics of a trial's whole process tree, sampled on a thread: RSS, CPU user and system time,
threads, major page faults and swap. Linux counters come from /proc (psutil has no fault or swap counter per
process); elsewhere those two are left out."""

from __future__ import annotations

import contextlib
import threading
import time
from dataclasses import dataclass, field
from typing import Any

import psutil

from jvmlab.container import TrialGroup
from jvmlab.errors import JvmLabError
from jvmlab.experiment.execution.process import descendants
from jvmlab.jdk.attach import diagnostic
from jvmlab.jdk.native_memory import ASK, NativeMemory, parse_summary


def _proc_stat(pid: int) -> tuple[int, int] | None:
    """(major faults, swap bytes) of one process from /proc, or None off Linux or once it is gone."""
    try:
        with open(f"/proc/{pid}/stat", "rb") as f:
            fields = f.read().rsplit(b")", 1)[1].split()
        majflt = int(fields[9])  # field 12 of stat, counting from the state (field 3)
        swap = 0
        with open(f"/proc/{pid}/status", "rb") as f:
            for line in f:
                if line.startswith(b"VmSwap:"):
                    swap = int(line.split()[1]) * 1024
                    break
        return majflt, swap
    except (OSError, IndexError, ValueError):
        return None


NMT_TRIES = 20  # samples in a row without an answer before native memory is given up


@dataclass
class ProcessSampler:
    """Samples the tree of `pid` every `interval_s` until stopped; `series` holds (t_s, value) per name.
    With `below_only`, `pid` itself is left out (a supervisor is no part of what is measured). With `group`
    (the trial's container), its cgroup's counters too: memory charged, CPU time, throttling per interval."""

    pid: int
    interval_s: float = 1.0
    t0: float = field(default_factory=time.monotonic)
    below_only: bool = False
    group: TrialGroup | None = None
    nmt_pid: int | None = None  # a JVM with native memory tracking on: its VM.native_memory summary too
    nmt_peak: NativeMemory | None = None  # the summary with the most committed beside the heap
    _nmt_failures: int = 0
    series: dict[str, list[tuple[float, float]]] = field(default_factory=dict)
    _stop: threading.Event = field(default_factory=threading.Event)
    _thread: threading.Thread | None = None
    _last_cpu: tuple[float, float] | None = None
    _last_periods: tuple[int, int] | None = None

    def start(self) -> ProcessSampler:
        self._thread = threading.Thread(target=self._run, name=f"sampler-{self.pid}", daemon=True)
        self._thread.start()
        return self

    def stop(self) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join(timeout=5)

    def _run(self) -> None:
        while not self._stop.is_set():
            self.sample()
            self._stop.wait(self.interval_s)

    def _add(self, name: str, t: float, value: float) -> None:
        self.series.setdefault(name, []).append((t, value))

    def sample(self) -> None:
        procs = descendants(self.pid)[1:] if self.below_only else descendants(self.pid)
        if not procs:
            return
        t = time.monotonic() - self.t0
        if self.group is not None:
            self._sample_group(self.group, t)
        if self.nmt_pid is not None:
            self._sample_nmt(self.nmt_pid, t)
        rss = user = system = threads = 0.0
        faults, swap, have_proc = 0, 0, False
        for p in procs:
            with contextlib.suppress(psutil.Error):
                with p.oneshot():
                    rss += p.memory_info().rss
                    cpu = p.cpu_times()
                    user, system = user + cpu.user, system + cpu.system
                    threads += p.num_threads()
                extra = _proc_stat(p.pid)
                if extra is not None:
                    faults, swap, have_proc = faults + extra[0], swap + extra[1], True
        self._add("rss_bytes", t, rss)
        self._add("cpu_user_s", t, user)
        self._add("cpu_system_s", t, system)
        self._add("threads", t, threads)
        if self._last_cpu is not None and t > self._last_cpu[0]:
            self._add(
                "cpu_percent",
                t,
                max(0.0, (user + system - self._last_cpu[1]) / (t - self._last_cpu[0]) * 100),
            )
        self._last_cpu = (t, user + system)
        if have_proc:
            self._add("major_faults", t, faults)
            self._add("swap_bytes", t, swap)

    def _sample_nmt(self, pid: int, t: float) -> None:
        """The JVM's native memory (through its attach socket, under a millisecond once it listens). A JVM not
        listening yet (starting, slowed by its container's quota) is asked again at the next sample, up to
        NMT_TRIES times in a row; one that says tracking is off is not asked again."""
        try:
            found = parse_summary(diagnostic(pid, *ASK, tool_fallback=False, timeout_s=2.0))
        except JvmLabError:
            self._nmt_failures += 1
            if self._nmt_failures >= NMT_TRIES:
                self.nmt_pid = None
            return
        self._nmt_failures = 0
        if found is None:
            self.nmt_pid = None
            return
        self._add("nmt_committed_bytes", t, found.committed_bytes)
        self._add("nmt_beside_heap_bytes", t, found.beside_heap_bytes)
        if self.nmt_peak is None or found.beside_heap_bytes > self.nmt_peak.beside_heap_bytes:
            self.nmt_peak = found

    def _sample_group(self, group: TrialGroup, t: float) -> None:
        """The cgroup's memory (page cache included, as its limit counts it), CPU time, and the share of the
        CFS periods since the last sample that ran out of quota."""
        u = group.read()
        for name, value in (
            ("cgroup_memory_bytes", u.memory_bytes),
            ("cgroup_anon_bytes", u.anon_bytes),
            ("cgroup_file_bytes", u.file_bytes),
            ("cgroup_cpu_s", u.cpu_s),
            ("cgroup_throttled_s", u.throttled_s),
        ):
            if value is not None:
                self._add(name, t, value)
        if u.periods is not None and u.throttled_periods is not None:
            if self._last_periods is not None and u.periods > self._last_periods[0]:
                share = (u.throttled_periods - self._last_periods[1]) / (u.periods - self._last_periods[0])
                self._add("cgroup_throttled_percent", t, 100.0 * share)
            self._last_periods = (u.periods, u.throttled_periods)

    def summary(self) -> dict[str, Any]:
        """Peaks and totals over the trial (None where never sampled)."""

        def values(name: str) -> list[float]:
            return [v for _, v in self.series.get(name, [])]

        rss, swap = values("rss_bytes"), values("swap_bytes")
        user, system = values("cpu_user_s"), values("cpu_system_s")
        threads, faults = values("threads"), values("major_faults")
        return {
            "samples": len(rss),
            "rss_peak_bytes": int(max(rss)) if rss else None,
            "rss_mean_bytes": sum(rss) / len(rss) if rss else None,
            "cpu_user_s": user[-1] if user else None,
            "cpu_system_s": system[-1] if system else None,
            "threads_max": int(max(threads)) if threads else None,
            "major_faults": int(faults[-1]) if faults else None,
            "swap_peak_bytes": int(max(swap)) if swap else None,
        }
