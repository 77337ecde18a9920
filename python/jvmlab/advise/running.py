"""Facts of a running JVM (`jvmlab advise --pid`): what it answers to diagnostic commands
(jvmlab.jdk.attach), the GC log it writes if any, this machine, and the process's memory right now.

Without `--record` nothing about the JVM is changed. With it, `observe` watches a window: a JFR recording,
and, on a JDK 9+ JVM that writes no GC log, GC and safepoint logging switched on through `VM.log` for the
same window and off afterwards (also on errors and Ctrl-C). The window's log is read like any GC log; when
there is none (JDK 8, VM.log refused) the recording's GC events make the event table (jvmlab.jfr.gc_events).
"""

from __future__ import annotations

import contextlib
import dataclasses
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from jvmlab import host
from jvmlab.advise.facts import Facts, Machine, ProcessSamples, facts_from_log, machine_recorded
from jvmlab.errors import AttachError
from jvmlab.jdk.attach import WINDOW_LOG_WHAT, RunningJvm, jdk_tool, logging_on, record_jfr
from jvmlab.jdk.flags import ergonomics_of
from jvmlab.jdk.model import Jdk
from jvmlab.jdk.options import parse_options

if TYPE_CHECKING:
    from jvmlab.gclog import GcLog
    from jvmlab.metrics.summary import GcSummary

NO_LOG_PID = (
    "no GC log: the JVM writes none; give --record 10s to read the collections of a window "
    "(or start it with -Xlog:gc*,safepoint:file=gc.log:uptime,level,tags)"
)


@dataclass(frozen=True)
class Window:
    """What jvmlab watched of a running JVM for `seconds`: a JFR recording, and the GC and safepoint log it
    had the JVM write meanwhile (None: the JVM logs GC already, is JDK 8, or VM.log refused)."""

    seconds: float
    recording: Path
    gc_log: Path | None
    notes: tuple[str, ...] = ()


def observe(jvm: RunningJvm, seconds: float, folder: Path, installed: Sequence[Jdk] = ()) -> Window:
    """A JFR recording of the next `seconds`, with GC and safepoint logging on for that window when the JVM
    writes no GC log and can switch it on (JDK 9+)."""
    recording = folder / "advise.jfr"
    if jvm.gc_log is not None:
        return Window(seconds, record_jfr(jvm.pid, seconds, recording, installed), None)
    if jvm.major < 9:
        note = f"JDK {jvm.major} cannot switch GC logging on at run time: GC figures from the JFR recording"
        return Window(seconds, record_jfr(jvm.pid, seconds, recording, installed), None, (note,))
    log: Path | None = folder / "gc.log"
    with contextlib.ExitStack() as stack:
        try:
            stack.enter_context(logging_on(jvm.pid, folder / "gc.log", installed))
            on = time.monotonic()
        except AttachError as e:
            log, note = None, f"GC logging could not be switched on ({e}): GC figures from the JFR recording"
        record_jfr(jvm.pid, seconds, recording, installed)
    if log is not None:
        note = (
            f"GC and safepoint logging switched on for {time.monotonic() - on:.1f} s through VM.log "
            f"(what={WINDOW_LOG_WHAT}), then off"
        )
    return Window(seconds, recording, log, (note,))


def this_machine() -> Machine:
    return machine_recorded(host.machine())


def process_now(pid: int) -> ProcessSamples | None:
    """RSS and swap of the process at this moment (one sample)."""
    import psutil

    try:
        mem = psutil.Process(pid).memory_full_info()
    except (psutil.Error, OSError):
        return None
    return ProcessSamples(swap_bytes=(int(getattr(mem, "swap", 0)),), rss_bytes=(int(mem.rss),))


def window_log(
    jvm: RunningJvm, window: Window, installed: Sequence[Jdk], strict: bool
) -> tuple[GcLog, GcSummary, str]:
    """(GcLog, GcSummary, what it is) of the window: the log VM.log wrote, else the recording's GC events."""
    from jvmlab.metrics import load_summarized

    seconds = f"{window.seconds:g} s"
    if window.gc_log is not None and window.gc_log.is_file() and window.gc_log.stat().st_size:
        log, summary = load_summarized(window.gc_log, strict=strict)
        return log, summary, f"GC log of a {seconds} window"
    from jvmlab.jfr.gc_events import gc_log_of_recording
    from jvmlab.metrics.summary import summarize

    log = gc_log_of_recording(window.recording, jdk_tool(jvm.pid, installed, "jfr"))
    return log, summarize(log), f"JFR GC events of a {seconds} window"


def facts_of_running(
    jvm: RunningJvm, *, strict: bool = False, window: Window | None = None, installed: Sequence[Jdk] = ()
) -> Facts:
    """The facts of a running JVM; with its GC log when it writes one that can be read, else with the GC
    evidence of the `window` jvmlab watched (`observe`)."""
    flags_final = {f.name: f.value for f in jvm.flags_final}
    common = {
        "flags_final": flags_final or None,
        "machine": this_machine(),
        "process": process_now(jvm.pid),
    }
    name = f"pid {jvm.pid} ({jvm.java_command.split()[0] if jvm.java_command else 'java'})"
    collector = ergonomics_of(jvm.flags_final, jvm.major).collector if jvm.flags_final else None
    if jvm.gc_log is not None and jvm.gc_log.is_file():
        from jvmlab.metrics import load_summarized

        log, summary = load_summarized(jvm.gc_log, strict=strict)
        base = facts_from_log(log, summary, flags=list(jvm.jvm_args), jdk_major=jvm.major, flags_ran=True)
        return dataclasses.replace(base, **common, name=f"{name}, {jvm.gc_log}")  # type: ignore[arg-type]
    if window is not None:
        log, summary, source = window_log(jvm, window, installed, strict)
        base = facts_from_log(log, summary, flags=list(jvm.jvm_args), jdk_major=jvm.major, flags_ran=True)
        known = base.collector if base.collector not in (None, "unknown") else collector
        return dataclasses.replace(
            base,
            **common,  # type: ignore[arg-type]
            name=f"{name}, {source}",
            collector=known,
            jdk_version=base.jdk_version or jvm.version,
        )
    return Facts(
        name=name,
        log_events=None,
        log_summary=None,
        collector=collector,
        jdk_major=jvm.major,
        jdk_version=jvm.version,
        options=tuple(parse_options(jvm.jvm_args)),
        options_ran_on=jvm.major,
        **common,  # type: ignore[arg-type]
    )


def window_note(facts: Facts) -> str | None:
    """What the window's GC evidence holds, in one line (None: no GC evidence)."""
    if facts.log_summary is None:
        return None
    s = facts.log_summary
    return (
        f"the window: {s.gc_count} collections, {s.pause_count} pauses, "
        f"{s.pause_total_ms or 0:,.1f} ms of GC pauses ({facts.name.split(', ', 1)[-1]})"
    )
