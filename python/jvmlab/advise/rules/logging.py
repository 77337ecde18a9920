"""Rules over what the log and the command line say about the configuration itself: logging that
hides what a diagnosis needs (stopped time outside GC, GC details, rotated files too small to hold an
incident), and settings on a production command line that carry known risks (explicit GC disabled while
direct buffers need it, adaptive sizing off with a heap that may resize, unlocked experimental or diagnostic
options). Each reads the log's own header and command line, says what the missing flag would have shown, and
gives the flag for the JDK in use (unified logging from JDK 9)."""

from __future__ import annotations

from jvmlab.advise.facts import Facts
from jvmlab.advise.finding import Confidence, Severity
from jvmlab.advise.rules.base import HOTSPOT, NO_FLAGS, Outcome, evidence, make, not_checked, rule, too_short

# Options that need an unlock flag and are known to trade correctness or safety for speed: the JVM's own
# docs and bug reports (UseFastUnorderedTimeStamps: time stamps may run backwards across threads; the
# verification switches: malformed bytecode runs unchecked, deprecated in 13).
HAZARDOUS_OPTIONS = {
    "UseFastUnorderedTimeStamps": "time stamps may go backwards between threads (experimental)",
    "BytecodeVerificationRemote": "off: classes from the class path run without bytecode verification",
    "AggressiveOpts": "experimental optimisations of its release, removed in JDK 12",
}
UNLOCKS = ("UnlockExperimentalVMOptions", "UnlockDiagnosticVMOptions")
# A file of the rotated set should hold at least a day of this log: an incident found the next morning is
# still on disk (GCLogFileSize x NumberOfGCLogFiles at the log's own bytes per second).
ROTATION_HOLDS_S = 24 * 3600.0
# ...judged from at least ten minutes of log (the bytes a second of a fragment say little of the JVM's rate).
ROTATION_MIN_SPAN_S = 600.0


def is_legacy(f: Facts) -> bool:
    return f.has_log and f.summary.format.generation == "legacy"


def unified(f: Facts) -> bool:
    return (f.jdk_major or 0) >= 9 or (f.has_log and f.summary.format.generation == "unified")


def options_named(f: Facts, *names: str) -> list[str]:
    return [o.raw for o in f.options or () if o.kind == "xx" and o.name in names]


@rule(
    "safepoint-logging-missing",
    "The log has no stopped-time (safepoint) lines: pauses outside GC are invisible",
    family=HOTSPOT,
)
def safepoint_logging(f: Facts) -> Outcome:
    if f.collector is None or f.summary.pause_count == 0:
        return None
    if f.summary.safepoints.count:
        return None
    flag = (
        "-Xlog:safepoint=info (beside -Xlog:gc*, in the same file)"
        if unified(f)
        else "-XX:+PrintGCApplicationStoppedTime"
    )
    add = (
        ["-Xlog:gc*,safepoint:file=gc.log:uptime,level,tags"]
        if unified(f)
        else ["-XX:+PrintGCApplicationStoppedTime"]
    )
    return make(
        "safepoint-logging-missing",
        Severity.INFO,
        f"no stopped-time lines beside {f.summary.pause_count} pauses: safepoint waits are not logged",
        "Every pause starts with all threads reaching a safepoint, and the JVM also stops for deoptimisation "
        "biased-lock revocation, thread dumps and class redefinition: none of that is in a GC-only log, so a "
        "stall that is not a collection cannot be told apart from a healthy run.",
        evidence(None, [], pauses=f.summary.pause_count, safepoint_lines=0),
        add=add,
        action=f"Log stopped time too: {flag}.",
        confidence=Confidence.HIGH,
    )


@rule(
    "gc-details-off",
    "A log without GC details (-XX:+PrintGCDetails; -Xlog:gc* from JDK 9): no generation sizes, no phases",
    family=HOTSPOT,
)
def details_off(f: Facts) -> Outcome:
    if f.collector is None or f.summary.gc_count == 0:
        return None
    if f.log_details is False:  # a unified log whose tags show `gc` alone (ZGC's shows not even its pauses)
        return make(
            "gc-details-off",
            Severity.INFO,
            "the log was written with -Xlog:gc: one line per collection, no details",
            "The `gc` tag alone prints one line per collection: no phases, no young/old or region counts, "
            "no metaspace, no CPU times, no to-space exhaustion detail: promotion, premature tenuring, "
            "the causes inside a long pause and the OS's share of it cannot be measured.",
            evidence(None, ["every line is tagged [gc]"], collections=f.summary.gc_count),
            add=["-Xlog:gc*,safepoint:file=gc.log:uptime,level,tags"],
            action="Log the gc* tag set (every GC tag at info); it costs a few lines per collection.",
            confidence=Confidence.HIGH,
        )
    if not is_legacy(f) or f.summary.pause_count == 0:
        return None
    flags = f.summary.format.decorators
    given = options_named(f, "PrintGCDetails")
    if "PrintGCDetails" in flags or (given and f.flag_on("PrintGCDetails")):
        return None
    if "command_line" not in f.header:
        # No header to read the flags from: the records themselves must show it. Details print the young
        # generations' sizes, or (JDK 6-7 G1) lines of phase times that the parser reads past.
        for column in ("young_capacity_bytes", "old_capacity_bytes"):
            if f.events.get_column(column).null_count() < len(f.events):
                return None
        if f.summary.diagnostics.get("lines_ignored", 0):
            return None
    return make(
        "gc-details-off",
        Severity.INFO,
        "the log was written without -XX:+PrintGCDetails",
        "Without details each collection is one line of whole-heap sizes: no young/old split, so promotion, "
        "premature tenuring and the old generation's growth cannot be measured, and failures inside a young "
        "collection (promotion failed) are not shown.",
        evidence(None, [f"log flags: {' '.join(flags) or 'none'}"], pauses=f.summary.pause_count),
        add=["-XX:+PrintGCDetails", "-XX:+PrintGCDateStamps"],
        action="Add -XX:+PrintGCDetails (and date stamps); on JDK 9+ the same is -Xlog:gc*.",
        confidence=Confidence.HIGH,
    )


@rule(
    "command-line-not-logged",
    "A JDK 8 log without its `CommandLine flags:` header: the settings behind it are unknown",
    family=HOTSPOT,
)
def command_line_missing(f: Facts) -> Outcome:
    if not is_legacy(f) or f.summary.pause_count == 0 or "command_line" in f.header:
        return None
    return make(
        "command-line-not-logged",
        Severity.INFO,
        "the log does not record the JVM's command line",
        "JDK 8 writes its version, memory and flags at the top of a log file (-Xloggc); a log without them "
        "was written to stdout or cut, and every rule that needs the heap size, the collector's settings or "
        "the flags in force cannot check them.",
        evidence(None, [], pauses=f.summary.pause_count),
        add=["-Xloggc:gc.log", "-XX:+PrintCommandLineFlags"],
        action="Log to a file with -Xloggc:<file> (the JVM's header comes with it), or add "
        "-XX:+PrintCommandLineFlags; meanwhile give the flags to jvmlab with --flags.",
        confidence=Confidence.MEDIUM,
    )


@rule(
    "log-rotation-too-small",
    "Rotated GC log files hold less than a day of this log: an incident is overwritten before it is read",
    family=HOTSPOT,
    needs_log=True,
)
def rotation_small(f: Facts) -> Outcome:
    if f.options is None:
        return not_checked("log-rotation-too-small", NO_FLAGS)
    if f.flag_on("UseGCLogFileRotation") is not True:
        return None
    size, files = f.flag_bytes("GCLogFileSize"), f.flag("NumberOfGCLogFiles")
    span, read = f.duration_s, f.summary.diagnostics.get("bytes_read")
    if not size or not files or not read:
        return None
    if short := too_short("log-rotation-too-small", f, ROTATION_MIN_SPAN_S):
        return short  # the log's bytes a second, over a few lines, say nothing of the JVM's rate
    assert span is not None
    rate = read / span  # bytes of log a second, as this log was written
    holds_s = size * int(files) / rate
    if holds_s >= ROTATION_HOLDS_S:
        return None
    bigger = int(min(max(size * ROTATION_HOLDS_S / holds_s, size), 1 << 30))
    return make(
        "log-rotation-too-small",
        Severity.INFO if holds_s >= 3600 else Severity.WARNING,
        f"{files} rotated files of {size // 1024} KiB hold {holds_s / 3600:.1f} h of this log",
        "With rotation the JVM overwrites the oldest file when the last one is full: at this log's rate the "
        "whole set holds only that long, so the collections before an incident are gone by the time someone "
        "looks.",
        evidence(
            None,
            options_named(f, "UseGCLogFileRotation", "GCLogFileSize", "NumberOfGCLogFiles"),
            log_bytes_per_s=rate,
            set_holds_s=holds_s,
            gc_log_file_size_bytes=size,
            files=int(files),
        ),
        add=[f"-XX:GCLogFileSize={-(-bigger // (1 << 20))}M"],
        remove=options_named(f, "GCLogFileSize"),
        action="Give the files room for a day or more of log (GC logs compress well, disk is cheap).",
        confidence=Confidence.HIGH,
    )


@rule(
    "explicit-gc-disabled",
    "System.gc() disabled: direct buffers and RMI that rely on it may run out of native memory",
    needs_log=False,
    family=HOTSPOT,
)
def explicit_gc_disabled(f: Facts) -> Outcome:
    if f.options is None:
        return not_checked("explicit-gc-disabled", NO_FLAGS)
    given = options_named(f, "DisableExplicitGC")
    if not given or f.flag_on("DisableExplicitGC") is not True:
        return None
    concurrent = f.collector in ("G1", "CMS")
    return make(
        "explicit-gc-disabled",
        Severity.INFO,
        "-XX:+DisableExplicitGC: System.gc() does nothing",
        "When direct ByteBuffers reach -XX:MaxDirectMemorySize the JDK calls System.gc() to free the buffers "
        "nobody references (their native memory goes with them); disabled, it throws OutOfMemoryError: "
        "Direct buffer memory instead. RMI's distributed GC relies on it too.",
        evidence(None, given),
        add=["-XX:+ExplicitGCInvokesConcurrent"] if concurrent else [],
        remove=given if concurrent else [],
        action=(
            "Let System.gc() run as a concurrent cycle instead (-XX:+ExplicitGCInvokesConcurrent): no long "
            "pause, and direct memory is still freed."
            if concurrent
            else "Keep it if no library uses direct buffers; else remove it and find who calls System.gc()."
        ),
        confidence=Confidence.LOW,
    )


@rule(
    "adaptive-sizing-off",
    "Parallel GC with -XX:-UseAdaptiveSizePolicy while the heap may still resize",
    needs_log=False,
    family=HOTSPOT,
)
def adaptive_off(f: Facts) -> Outcome:
    if f.options is None:
        return not_checked("adaptive-sizing-off", NO_FLAGS)
    off = [
        o.raw
        for o in f.options
        if o.kind == "xx" and o.name == "UseAdaptiveSizePolicy" and o.as_bool() is False
    ]
    initial, maximum = f.flag_bytes("InitialHeapSize"), f.flag_bytes("MaxHeapSize")
    if not off or initial is None or maximum is None or initial == maximum:
        return None
    return make(
        "adaptive-sizing-off",
        Severity.INFO,
        "adaptive sizing off, yet the initial heap is below the maximum",
        "Without UseAdaptiveSizePolicy the generations keep their initial proportions while the heap grows "
        "from -Xms toward -Xmx; eden and survivors sized for the small heap stay wrong for the large one. "
        "Either let the JVM adapt, or fix the heap's size.",
        evidence(None, off, initial_heap_bytes=initial, max_heap_bytes=maximum),
        add=[f"-Xms{maximum >> 20}m"],
        action="Set -Xms equal to -Xmx (and the young size explicitly), or drop -XX:-UseAdaptiveSizePolicy.",
        confidence=Confidence.MEDIUM,
    )


@rule(
    "unlocked-options",
    "Experimental or diagnostic options unlocked on a production command line, and known hazardous settings",
    needs_log=False,
    family=HOTSPOT,
)
def unlocked(f: Facts) -> Outcome:
    if f.options is None:
        return not_checked("unlocked-options", NO_FLAGS)
    unlocks = options_named(f, *UNLOCKS)
    hazards = []
    for o in f.options:
        if o.kind != "xx" or o.name not in HAZARDOUS_OPTIONS:
            continue
        risky = o.as_bool() is False if o.name == "BytecodeVerificationRemote" else o.as_bool() is not False
        if risky:
            hazards.append(f"{o.raw}: {HAZARDOUS_OPTIONS[o.name]}")
    if not unlocks and not hazards:
        return None
    return make(
        "unlocked-options",
        Severity.INFO,
        ", ".join(
            part
            for part in (
                f"{len(unlocks)} unlock options" if unlocks else "",
                f"{len(hazards)} hazardous settings" if hazards else "",
            )
            if part
        )
        + " on the command line",
        "Experimental options are not supported for production and diagnostic ones are for troubleshooting: "
        "they change between updates without notice; a setting known to be hazardous trades correctness "
        "for speed.",
        evidence(None, unlocks + hazards, unlock_options=len(unlocks), hazardous=len(hazards)),
        action="Keep each unlocked option only with a measured reason; remove the hazardous ones.",
        confidence=Confidence.MEDIUM,
    )
