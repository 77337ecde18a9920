"""async-profiler as a JVM agent: where its library is (`make profiler` extracts it into build/), which event
it can sample on this machine, and the option strings of `-agentpath:` and `jcmd JVMTI.agent_load`.

CPU profiles sample on a timer: `cpu` is perf_events' software CPU clock (kernel frames included), `itimer`
the process's CPU timer where perf_events is closed (perf_event_paranoid > 2). Hardware events (cycles,
cache misses) need PMU counters, which these virtual machines do not have: asked for, they are refused
with that reason.
"""

from __future__ import annotations

import os
import platform
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from jvmlab.errors import JvmLabError, UsageError
from jvmlab.jdk.dirs import build_dir

EVENTS = ("cpu", "wall", "alloc", "lock", "itimer")
HARDWARE_EVENTS = (
    "cycles",
    "instructions",
    "cache-misses",
    "branch-misses",
    "bus-cycles",
    "L1-dcache-load-misses",
)
DEFAULT_INTERVAL = "10ms"
HARDWARE_INTERVAL = "1000000"  # events between samples of a hardware counter (cycles: about 0.3 ms at 3 GHz)
PLATFORMS = {("Linux", "x86_64"): "linux-x64", ("Linux", "aarch64"): "linux-arm64"}
# Where libasyncProfiler.so is, instead of build/async-profiler (a missing file: async-profiler cannot load,
# and trials fall back to JFR's execution samples; docs/profile.md).
LIBRARY_ENV = "JVMLAB_ASYNC_PROFILER"
CONVERTER = "jfr-converter.jar"


class ProfilerMissingError(JvmLabError):
    """async-profiler's library is not where `make profiler` puts it, or not built for this platform."""


class ConverterMissingError(ProfilerMissingError):
    """jfr-converter.jar is not where `make profiler` puts it: JFR recordings cannot be read."""


@dataclass(frozen=True)
class Sampling:
    """What will be sampled: the event async-profiler gets, its interval, and why, in words."""

    event: str
    interval: str
    asked: str
    note: str

    @property
    def unit(self) -> str:
        return {"alloc": "bytes", "lock": "ns"}.get(self.event, "samples")

    @property
    def label(self) -> str:
        """`cpu 10ms (perf_events software clock: no hardware counters here)`, `alloc 512k`: for notes."""
        why = {
            "cpu": " (perf_events software clock: no hardware counters here)",
            "itimer": " (itimer: perf_events is closed here)",
        }
        if self.event == "lock":
            return "lock (every contended monitor)"
        if self.asked != self.event and self.asked in HARDWARE_EVENTS:
            return f"{self.event} {self.interval} (instead of {self.asked}: no hardware counters here)"
        return f"{self.asked} {self.interval}{why.get(self.event, '')}"


def library(root: Path | None = None) -> Path:
    """libasyncProfiler.so for this platform ($JVMLAB_ASYNC_PROFILER when set)."""
    given = os.environ.get(LIBRARY_ENV)
    if given:
        if not Path(given).is_file():
            raise ProfilerMissingError(f"{given} ({LIBRARY_ENV}) is missing")
        return Path(given)
    key = (platform.system(), platform.machine())
    folder = PLATFORMS.get(key)
    if folder is None:
        raise ProfilerMissingError(
            f"async-profiler has no library for {key[0]} {key[1]}: profiling needs Linux on x64 or arm64"
        )
    path = (root or build_dir() / "async-profiler") / folder / "libasyncProfiler.so"
    if not path.is_file():
        raise ProfilerMissingError(f"{path} is missing: run `make profiler` (it fetches async-profiler)")
    return path


def converter(root: Path | None = None) -> Path:
    """async-profiler's jfr-converter.jar (`make profiler`): JFR recordings to collapsed stacks."""
    path = (root or build_dir() / "async-profiler") / CONVERTER
    if not path.is_file():
        raise ConverterMissingError(f"{path} is missing: run `make profiler` (it fetches jfr-converter)")
    return path


def perf_events_open() -> bool:
    """Whether this process may open perf_events for its own threads (perf_event_paranoid <= 2)."""
    try:
        return int(Path("/proc/sys/kernel/perf_event_paranoid").read_text().strip()) <= 2
    except (OSError, ValueError):
        return False


def pmu_available(root: Path = Path("/sys/bus/event_source/devices")) -> bool:
    """Whether the kernel exposes hardware performance counters (a PMU: devices `cpu`, `cpu_core`,
    `armv8_pmuv3*`); virtual machines often have none."""
    try:
        return any(
            d.name in ("cpu", "cpu_core", "cpu_atom") or d.name.startswith("armv8_pmu")
            for d in root.iterdir()
        )
    except OSError:
        return False


def sampling(event: str, interval: str | None = None, *, pmu: bool | None = None) -> Sampling:
    """The event to record for what the user asked: a hardware event where the machine has counters, else
    timer-based CPU sampling instead, said in the note; a usage error for events nothing can record."""
    has_pmu = pmu_available() if pmu is None else pmu
    if event in HARDWARE_EVENTS and has_pmu:
        every = interval or HARDWARE_INTERVAL
        return Sampling(event, every, event, f"hardware counter {event}, a sample every {every} events")
    if event not in EVENTS and event not in HARDWARE_EVENTS:
        raise UsageError(f"--event {event}: choose one of {', '.join(EVENTS[:4])}")
    every = interval or ("512k" if event == "alloc" else DEFAULT_INTERVAL)
    if event in HARDWARE_EVENTS:
        every = interval if interval and interval[-1:] == "s" else DEFAULT_INTERVAL
        timer = "cpu" if perf_events_open() else "itimer"
        return Sampling(
            timer,
            every,
            event,
            f"{event} asked, but this machine has no hardware counters (no PMU, as in most virtual "
            f"machines): CPU time sampled on a timer ({timer}) instead",
        )
    if event == "cpu" and not perf_events_open():
        return Sampling("itimer", every, event, "CPU time sampled with itimer: perf_events is closed here")
    counters = "" if has_pmu else " (no hardware counters on this machine)"
    notes = {
        "cpu": f"CPU time sampled on perf_events' software clock{counters}",
        "wall": "wall-clock samples of every thread, running or not",
        "alloc": f"allocations sampled every {every} (TLAB and outside-TLAB allocations)",
        "lock": "contended Java monitors, weighted by wait time",
        "itimer": "CPU time sampled with itimer",
    }
    return Sampling(event, every, event, notes[event])


def option_string(s: Sampling, output: Path, *, action: str = "start") -> str:
    """`start,event=cpu,interval=10ms,file=out.collapsed,collapsed,ann,dot,norm` (annotated frames: Java /
    kernel; dotted class names, as Java writes them; one name for a lambda in every run, so that profiles
    of different runs line up); alloc and lock weighted by bytes and ns (`total`), not by samples."""
    rate = f"alloc={s.interval}" if s.event == "alloc" else f"interval={s.interval}"
    event = "" if s.event == "alloc" else f"event={s.event},"
    if s.event == "lock":
        event, rate = "lock=0,", ""
    total = "total" if s.event in ("alloc", "lock") else ""
    parts = [action, f"{event}{rate}".strip(","), f"file={output}", "collapsed", total, "ann", "dot", "norm"]
    return ",".join(p for p in parts if p)


def stop_string(s: Sampling, output: Path) -> str:
    """`stop,file=out.collapsed,collapsed,ann,dot,norm`: the stop that writes what `option_string` started."""
    total = ",total" if s.event in ("alloc", "lock") else ""
    return f"stop,file={output},collapsed{total},ann,dot,norm"


def session_options(samplings: Sequence[Sampling], output: Path, *, action: str = "start") -> str:
    """One session for several events, written as JFR (one collapsed file holds one event):
    `start,event=cpu,interval=10ms,wall=10ms,alloc=512k,lock=0,file=profile.jfr,jfr`. async-profiler 4.1
    takes one CPU-time engine (cpu or itimer) with wall, alloc and lock beside it."""
    by_event = {s.event: s for s in samplings}
    parts = [action]
    timer = by_event.get("cpu") or by_event.get("itimer")
    if timer is not None:
        parts.append(f"event={timer.event},interval={timer.interval}")
    if "wall" in by_event:
        wall = by_event["wall"].interval
        parts.append(f"wall={wall}" if timer is not None else f"event=wall,interval={wall}")
    if "alloc" in by_event:
        parts.append(f"alloc={by_event['alloc'].interval}")
    if "lock" in by_event:
        parts.append("lock=0")
    return ",".join([*parts, f"file={output}", "jfr"])


def agentpath(s: Sampling, output: Path, root: Path | None = None) -> str:
    return f"-agentpath:{library(root)}={option_string(s, output)}"
