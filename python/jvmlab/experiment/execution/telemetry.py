"""The flags jvmlab adds to every trial's JVM to capture its telemetry, by JDK generation and VM."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from jvmlab.jdk.launch import xlog_file_option

UNIFIED_GC_SELECTION = "gc*,safepoint"
UNIFIED_GC_DECORATORS = "uptime,time,level,tags"
LEGACY_GC_FLAGS = (
    "-XX:+PrintGCDetails",
    "-XX:+PrintGCDateStamps",
    "-XX:+PrintGCTimeStamps",
    "-XX:+PrintGCApplicationStoppedTime",
)


def gc_log_flags(major: int, gc_log: Path, *, vm: str = "HotSpot") -> list[str]:
    """GC logging to `gc_log`: unified logging on 9+ (no rotation: one file per trial), the JDK 8 flags
    on 8, verbose GC on OpenJ9."""
    if vm == "OpenJ9":
        return [f"-Xverbosegclog:{gc_log}"]
    if major >= 9:
        return [xlog_file_option(UNIFIED_GC_SELECTION, gc_log, UNIFIED_GC_DECORATORS) + ":filecount=0"]
    return [*LEGACY_GC_FLAGS, f"-Xloggc:{gc_log}"]


def jfr_flags(recording: Path, settings: Path | None = None) -> list[str]:
    """A JFR recording of the whole run, written when the JVM exits (JDK 11+, 8u262+); `settings`: a .jfc
    file instead of the JDK's default settings."""
    chosen = settings or "default"
    return [f"-XX:StartFlightRecording=filename={recording},settings={chosen},dumponexit=true"]


def jfr_settings(events: Sequence[str], jdk_home: Path, run_dir: Path) -> Path | None:
    """The JDK's default settings with `events` on, written into the trial's folder; None when there are no
    events to add or the JDK has no default.jfc (it then records with its defaults)."""
    from jvmlab.jfr.events import default_settings, settings_with

    default = default_settings(jdk_home)
    if not events or default is None:
        return None
    return settings_with(default, events, run_dir / "jfr-settings.jfc")
