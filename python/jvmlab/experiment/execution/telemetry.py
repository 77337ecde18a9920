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


# [telemetry] jit: what each level adds to the JVM's flags (the code cache is sampled through attach).
JIT_LOG, COMPILE_LOG = "jit.log", "compilation.xml"
# JIT compilations (what -XX:+PrintCompilation prints, one line per compile and per nmethod made not
# entrant; JDK 25 adds the reason after "made not entrant:"), the code cache's warnings ("CodeCache is full")
# and the page sizes the JVM chose for the heap and each code heap (-Xlog:pagesize), in one file.
UNIFIED_JIT_SELECTION = "jit+compilation=debug,codecache=warning,pagesize=info"
UNIFIED_JIT_SELECTION_9 = "jit+compilation=debug"  # JDK 9 and 10: no codecache nor pagesize tags yet
UNIFIED_JIT_DECORATORS = "uptime,level,tags"
DIAGNOSTIC = "-XX:+UnlockDiagnosticVMOptions"


def jit_log_flags(level: str | None, major: int, run_dir: Path, *, vm: str = "HotSpot") -> list[str]:
    """The flags of [telemetry] jit: none for "summary" (sampling needs none) or on OpenJ9; "compilations":
    the compilation log `jit.log`; "detailed": also HotSpot's LogCompilation XML `compilation.xml`.

    JDK 8 has no unified logging: -XX:+PrintCompilation prints to the JVM's tty, which LogVMOutput copies
    into `jit.log` (an XML file: the lines are in its <tty> element) and -DisplayVMOutput keeps out of
    stdout. Nor has it Compiler.codecache to sample: -XX:+PrintCodeCacheOnCompilation prints the code
    cache's use after each compilation (and -XX:+PrintCodeCache at exit), at every level, "summary" too,
    with PrintCompilation, whose lines date the reports (they carry no time of their own: without them
    every sample of a real 8u504 trial was at 0 s). There LogCompilation writes into that same file
    (HotSpot has one LogFile)."""
    if level is None or vm == "OpenJ9" or (level == "summary" and major >= 9):
        return []
    jit_log = run_dir / JIT_LOG
    if major < 9:
        flags = [DIAGNOSTIC, "-XX:+LogVMOutput", f"-XX:LogFile={jit_log}", "-XX:-DisplayVMOutput"]
        flags += ["-XX:+PrintCodeCacheOnCompilation", "-XX:+PrintCodeCache", "-XX:+PrintCompilation"]
        return flags + (["-XX:+LogCompilation"] if level == "detailed" else [])
    selection = UNIFIED_JIT_SELECTION if major >= 11 else UNIFIED_JIT_SELECTION_9
    flags = [xlog_file_option(selection, jit_log, UNIFIED_JIT_DECORATORS) + ":filecount=0"]
    if level == "detailed":
        flags += [DIAGNOSTIC, "-XX:+LogCompilation", f"-XX:LogFile={run_dir / COMPILE_LOG}"]
    return flags


def jit_artifacts(level: str | None, major: int, run_dir: Path) -> dict[str, Path]:
    """The files jit_log_flags asks the JVM to write, by artifact kind (on JDK 8 both kinds are jit.log)."""
    if level is None or (level == "summary" and major >= 9):
        return {}
    out = {"jit_log": run_dir / JIT_LOG}
    if level == "detailed":
        out["compile_log"] = run_dir / (JIT_LOG if major < 9 else COMPILE_LOG)
    return out


def profiler_flags(profiling: bool, vm: str) -> list[str]:
    """With a profile asked: async-profiler loaded at launch (`-agentpath`, not started: it starts when the
    workload is ready, through the attach socket, and covers the measured window), and DebugNonSafepoints,
    so that inlined frames are attributed from the first compilation on (async-profiler's advice for a
    profiler that starts late). Nothing on OpenJ9, or where the library is missing (the trial falls back to
    JFR's samples)."""
    from jvmlab.errors import JvmLabError
    from jvmlab.profile.agent import library

    if not profiling or vm != "HotSpot":
        return []
    try:
        path = library()
    except JvmLabError:
        return []
    return ["-XX:+UnlockDiagnosticVMOptions", "-XX:+DebugNonSafepoints", f"-agentpath:{path}"]
