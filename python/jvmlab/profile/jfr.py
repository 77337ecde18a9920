"""Profiles from JFR recordings: async-profiler's own (several events in one session are written as JFR) and
the JDK's JFR samples where async-profiler cannot load (the fallback: another OS or architecture, no
library, a JVM it refuses), both turned into collapsed stacks per event by async-profiler's jfr-converter.

The fallback records, from `jcmd PID JFR.start` on: cpu, jdk.ExecutionSample at the asked interval (Java
threads running Java code); wall, jdk.ExecutionSample and jdk.NativeMethodSample (threads in native code as
well; threads blocked in Java are not sampled by JFR); alloc, jdk.ObjectAllocationSample (JDK 16+, throttled
to a rate: JFR has no byte interval) or allocations in new TLABs and outside them (JDK 11-15); lock,
jdk.JavaMonitorEnter (every contended monitor, weighted by wait time).
"""

from __future__ import annotations

import re
import subprocess
from collections.abc import Sequence
from dataclasses import replace
from pathlib import Path
from xml.sax.saxutils import quoteattr

from jvmlab.jdk.model import Jdk
from jvmlab.profile.agent import Sampling, converter
from jvmlab.profile.collapsed import read_collapsed
from jvmlab.profile.model import Profile, frame_kind
from jvmlab.profile.record import ProfileError

RECORDING_NAME = "jvmlab-profile"
FALLBACK_NOTE = "JFR execution samples: "  # how a trial's note and a profile's source begin
CONVERT_TIMEOUT_S = 300.0
ALLOCATION_RATE = "300/s"  # jdk.ObjectAllocationSample's throttle in the JDK's profile.jfc
# async-profiler's recordings tell its CPU samples from its wall-clock ones by thread state.
ASYNC_FLAGS = {
    "cpu": ("--cpu",),
    "itimer": ("--cpu",),
    "wall": ("--wall",),
    "alloc": ("--alloc", "--total"),
    "lock": ("--lock", "--total"),
}
# JFR's own samples are all of runnable threads: the execution samples are read whole.
JFR_FLAGS = {
    "cpu": (),
    "itimer": (),
    "wall": (),
    "alloc": ("--alloc", "--total"),
    "lock": ("--lock", "--total"),
}
_INTERVAL = re.compile(r"^(?P<n>\d+)(?P<unit>ns|us|ms|s)?$")


def convert(
    recording: Path, s: Sampling, output: Path, *, java: Path, standard: bool, root: Path | None = None
) -> None:
    """`java -jar jfr-converter.jar --EVENT -o collapsed RECORDING OUTPUT`; `standard`: a recording of the
    JDK's own JFR (the fallback) rather than async-profiler's."""
    flags = (JFR_FLAGS if standard else ASYNC_FLAGS)[s.event]
    # --dot: java.lang.String, as async-profiler's own collapsed output names classes; --norm: one name for
    # a lambda or hidden class in every run, so that profiles of different runs line up frame by frame.
    argv = [str(java), "-jar", str(converter(root)), *flags, "--dot", "--norm", "-o", "collapsed"]
    argv += [str(recording), str(output)]
    try:
        done = subprocess.run(argv, capture_output=True, text=True, timeout=CONVERT_TIMEOUT_S, check=False)
    except (OSError, subprocess.TimeoutExpired) as e:
        raise ProfileError(f"jfr-converter could not convert {recording.name}: {e}") from None
    if done.returncode != 0 or not output.is_file():
        said = (done.stderr or done.stdout).strip().splitlines()
        reason = said[-1] if said else f"exit code {done.returncode}"
        raise ProfileError(f"jfr-converter could not convert {recording.name} ({s.asked}): {reason}")


def load_converted(path: Path, s: Sampling, source: str, *, java_leaves_only: bool = False) -> Profile:
    """The converted file as a Profile; `java_leaves_only` drops the stacks that end in a native method
    (JFR's native-method samples, when the fallback's cpu profile shares a recording with wall)."""
    p = read_collapsed(path, event=s.asked, unit=s.unit, source=source)
    if java_leaves_only:
        p = replace(p, stacks={k: w for k, w in p.stacks.items() if k and frame_kind(k[-1]) != "native"})
    return replace(p, interval=s.interval)


def jfc_period(interval: str) -> str:
    """async-profiler's interval (`10ms`, `500us`, or nanoseconds) as a JFR period (`10 ms`)."""
    m = _INTERVAL.match(interval.strip())
    if m is None:
        return "10 ms"
    return f"{m.group('n')} {m.group('unit') or 'ns'}"


def fallback_events(samplings: Sequence[Sampling], major: int) -> dict[str, dict[str, str]]:
    """The JFR events (name -> settings) that stand in for what was asked of async-profiler."""
    events: dict[str, dict[str, str]] = {}
    by_event = {s.asked: s for s in samplings}
    timer = by_event.get("cpu") or by_event.get("wall")
    if timer is not None:
        events["jdk.ExecutionSample"] = {"enabled": "true", "period": jfc_period(timer.interval)}
    if "wall" in by_event:
        period = jfc_period(by_event["wall"].interval)
        events["jdk.NativeMethodSample"] = {"enabled": "true", "period": period}
    if "alloc" in by_event and major >= 16:
        events["jdk.ObjectAllocationSample"] = {
            "enabled": "true",
            "throttle": ALLOCATION_RATE,
            "stackTrace": "true",
        }
    elif "alloc" in by_event:
        for name in ("jdk.ObjectAllocationInNewTLAB", "jdk.ObjectAllocationOutsideTLAB"):
            events[name] = {"enabled": "true", "stackTrace": "true"}
    if "lock" in by_event:
        events["jdk.JavaMonitorEnter"] = {"enabled": "true", "threshold": "0 ms", "stackTrace": "true"}
    return events


def fallback_settings(samplings: Sequence[Sampling], major: int) -> str:
    """A .jfc file that records only the fallback's events (JDK 11+; JFR.start settings=FILE)."""
    lines = [
        '<?xml version="1.0" encoding="UTF-8"?>',
        '<configuration version="2.0" label="jvmlab profile" description="JFR samples in place of '
        'async-profiler">',
    ]
    for name, settings in fallback_events(samplings, major).items():
        lines.append(f"  <event name={quoteattr(name)}>")
        lines += [f"    <setting name={quoteattr(k)}>{v}</setting>" for k, v in settings.items()]
        lines.append("  </event>")
    return "\n".join([*lines, "</configuration>", ""])


def fallback_note(samplings: Sequence[Sampling], major: int) -> str:
    """What the fallback records, in words: `cpu 10ms (jdk.ExecutionSample), alloc (...)`."""
    events = fallback_events(samplings, major)
    names = {
        "cpu": ["jdk.ExecutionSample"],
        "wall": ["jdk.ExecutionSample", "jdk.NativeMethodSample"],
        "alloc": [n for n in events if "Allocation" in n],
        "lock": ["jdk.JavaMonitorEnter"],
    }
    parts = []
    for s in samplings:
        every = f" {s.interval}" if s.asked in ("cpu", "wall") else ""
        parts.append(f"{s.asked}{every} ({' + '.join(names[s.asked])})")
    return ", ".join(parts)


def jfr_start(pid: int, settings: Path, recording: Path, installed: Sequence[Jdk] = ()) -> None:
    """JFR.start with the fallback's settings; the recording is written when stopped, or when
    the JVM exits (a workload that ends by itself)."""
    from jvmlab.jdk.attach import check_pid, diagnostic

    check_pid(pid)
    diagnostic(
        pid,
        "JFR.start",
        f"name={RECORDING_NAME}",
        f"settings={settings}",
        f"filename={recording}",
        "dumponexit=true",
        installed=installed,
    )


def jfr_stop(pid: int, recording: Path, installed: Sequence[Jdk] = ()) -> None:
    """JFR.stop: the recording written to `recording` and ended."""
    from jvmlab.jdk.attach import diagnostic

    diagnostic(pid, "JFR.stop", f"name={RECORDING_NAME}", f"filename={recording}", installed=installed)
