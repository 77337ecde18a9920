"""async-profiler as a JVM agent: where its library is (`make profiler` extracts it into build/), which event
it can sample on this machine, and the option strings of `-agentpath:` and `jcmd JVMTI.agent_load`.

CPU profiles sample on a timer: `cpu` is perf_events' software CPU clock (kernel frames included), `itimer`
the process's CPU timer where perf_events is closed (perf_event_paranoid > 2). Hardware events (cycles,
cache misses) need PMU counters, which these virtual machines do not have: asked for, they are refused
with that reason.
"""

from __future__ import annotations

import platform
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
PLATFORMS = {("Linux", "x86_64"): "linux-x64", ("Linux", "aarch64"): "linux-arm64"}


class ProfilerMissingError(JvmLabError):
    """async-profiler's library is not where `make profiler` puts it, or not built for this platform."""


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


def library(root: Path | None = None) -> Path:
    """libasyncProfiler.so for this platform."""
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


def perf_events_open() -> bool:
    """Whether this process may open perf_events for its own threads (perf_event_paranoid <= 2)."""
    try:
        return int(Path("/proc/sys/kernel/perf_event_paranoid").read_text().strip()) <= 2
    except (OSError, ValueError):
        return False


def sampling(event: str, interval: str | None = None) -> Sampling:
    """The event to record for what the user asked; a usage error for events nothing here can record."""
    if event in HARDWARE_EVENTS:
        raise UsageError(
            f"--event {event}: hardware counters are not available on this machine (a virtual machine "
            "without PMU counters); use --event cpu (timer-based CPU sampling)"
        )
    if event not in EVENTS:
        raise UsageError(f"--event {event}: choose one of {', '.join(EVENTS[:4])}")
    every = interval or ("512k" if event == "alloc" else DEFAULT_INTERVAL)
    if event == "cpu" and not perf_events_open():
        return Sampling("itimer", every, event, "CPU time sampled with itimer: perf_events is closed here")
    notes = {
        "cpu": "CPU time sampled on perf_events' software clock (no hardware counters on this machine)",
        "wall": "wall-clock samples of every thread, running or not",
        "alloc": f"allocations sampled every {every} (TLAB and outside-TLAB allocations)",
        "lock": "contended Java monitors, weighted by wait time",
        "itimer": "CPU time sampled with itimer",
    }
    return Sampling(event, every, event, notes[event])


def option_string(s: Sampling, output: Path, *, action: str = "start") -> str:
    """`start,event=cpu,interval=10ms,file=out.collapsed,collapsed,ann` (annotated frames: Java / kernel)."""
    rate = f"alloc={s.interval}" if s.event == "alloc" else f"interval={s.interval}"
    event = "" if s.event == "alloc" else f"event={s.event},"
    if s.event == "lock":
        event, rate = "lock=0,", ""
    parts = [action, f"{event}{rate}".strip(","), f"file={output}", "collapsed", "ann"]
    return ",".join(p for p in parts if p)


def agentpath(s: Sampling, output: Path, root: Path | None = None) -> str:
    return f"-agentpath:{library(root)}={option_string(s, output)}"
