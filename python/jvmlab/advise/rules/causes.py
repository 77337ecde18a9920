"""Rules that read the cause a collection was started for (knowledge rules 1, 2, 6, 7, 14)."""

from __future__ import annotations

import polars as pl

from jvmlab.advise import thresholds as t
from jvmlab.advise.facts import Facts
from jvmlab.advise.finding import Confidence, Severity
from jvmlab.advise.rules.base import (
    HOTSPOT,
    OPENJ9_COLLECTORS,
    Outcome,
    evidence,
    excerpt_counts,
    make,
    mib,
    not_enough,
    rule,
    size_flag,
    with_cause,
)

EXPLICIT_CAUSES = (
    "System.gc()",
    "System",  # JDK 6 and 7's words for it: `[Full GC (System) ...`
    "Diagnostic Command",
    "Heap Inspection Initiated GC",
    "Heap Dump Initiated GC",
)
METADATA_CAUSES = ("Metadata GC Threshold",)
LAST_DITCH_CAUSES = ("Last ditch collection", "Metadata GC Clear Soft References")
CONCURRENT_COLLECTORS = ("G1", "CMS")


@rule("explicit-gc", "Collections requested by the application or tools: System.gc(), jcmd, jmap")
def explicit_gc(f: Facts) -> Outcome:
    rows = with_cause(f, *EXPLICIT_CAUSES).filter(pl.col("category") == "pause")
    if rows.is_empty():
        return None
    by_app = rows.filter(pl.col("cause") == "System.gc()")
    full = rows.filter(pl.col("kind") == "full")
    severity = Severity.WARNING if len(full) >= t.REPEATED else Severity.INFO
    pause_ms = float(rows.get_column("pause_ms").sum())
    if by_app.is_empty():
        action = (
            "Collections came from diagnostic tools (jcmd GC.run, jmap -histo:live, heap dumps): "
            "run them less often."
        )
        return make(
            "explicit-gc",
            Severity.INFO,
            f"{len(rows)} collections requested by diagnostic tools",
            "Each one stops the application for a full collection that the heap did not need.",
            evidence(rows, excerpt_counts(rows, "cause"), collections=len(rows), pause_total_ms=pause_ms),
            action=action,
            confidence=Confidence.HIGH,
        )
    concurrent = f.collector in CONCURRENT_COLLECTORS
    add = ["-XX:+ExplicitGCInvokesConcurrent"] if concurrent else ["-XX:+DisableExplicitGC"]
    if f.collector in OPENJ9_COLLECTORS:  # OpenJ9 takes DisableExplicitGC for compatibility; this is its own
        add = ["-Xdisableexplicitgc"]
    return make(
        "explicit-gc",
        severity,
        f"{len(by_app)} System.gc() calls, {len(full)} of them full collections",
        "System.gc() runs a full stop-the-world collection the heap did not need (RMI's distributed GC, "
        "libraries, or code calling it); every one is a pause and throws away the collector's pacing.",
        evidence(
            rows,
            excerpt_counts(rows, "phase"),
            collections=len(by_app),
            full_collections=len(full),
            pause_total_ms=pause_ms,
        ),
        add=add,
        action="Find the caller (a JFR recording's jdk.SystemGC event has its stack). With RMI, raise "
        "-Dsun.rmi.dgc.server.gcInterval and -Dsun.rmi.dgc.client.gcInterval."
        + (
            " ExplicitGCInvokesConcurrent keeps the request but runs it as a concurrent cycle."
            if concurrent
            else f" {add[0]} ignores the calls."
        ),
        effect=("full_gc_count", "decrease", f"about {len(full)} fewer full collections"),
        confidence=Confidence.HIGH,
    )


def metaspace_peak(f: Facts) -> int | None:
    """The most metaspace the log shows, used before or after a collection, or committed on JDK 17+ (what
    the high-water mark is compared with; before 17 the log prints the reserved size instead)."""
    columns = ["metaspace_before_bytes", "metaspace_after_bytes"]
    if (f.jdk_major or 0) >= 17:
        columns.append("metaspace_capacity_bytes")
    value = f.events.select(pl.max_horizontal(*columns).max()).item()
    return int(value) if value is not None else f.summary.heap.metaspace_used_max_bytes


@rule("metaspace-threshold-gc", "Collections started because metaspace reached MetaspaceSize", family=HOTSPOT)
def metaspace_threshold(f: Facts) -> Outcome:
    rows = with_cause(f, *METADATA_CAUSES).filter(pl.col("category") == "pause")
    if rows.is_empty():
        return None
    full = rows.filter(pl.col("kind") == "full")
    peak = metaspace_peak(f)
    set_size = f.given("MetaspaceSize")
    size = max(peak, t.DEFAULT_METASPACE_SIZE_BYTES) * t.METASPACE_HEADROOM if peak else t.METASPACE_UNSIZED
    # a young pause or two at start-up while metaspace grows to its size is cheap: a warning takes a full
    # collection, or a pattern past the start-up's (more than REPEATED young ones)
    severity = Severity.WARNING if len(full) >= 1 or len(rows) > t.REPEATED else Severity.INFO
    why = (
        "Metaspace grew past its high-water mark (MetaspaceSize, 21 MB by default) and each time the JVM "
        "collected to see if classes could be unloaded"
        + (", with full stop-the-world collections on this collector." if len(full) else ".")
        + " At start-up this is class loading that a larger MetaspaceSize avoids; if it goes on all run, "
        "classes leak (a class loader kept alive)."
    )
    return make(
        "metaspace-threshold-gc",
        severity,
        f"{len(rows)} collections for Metadata GC Threshold ({len(full)} full)",
        why,
        evidence(
            rows,
            excerpt_counts(rows),
            collections=len(rows),
            full_collections=len(full),
            metaspace_peak_bytes=peak,
            metaspace_size_given=set_size,
            pause_total_ms=float(rows.get_column("pause_ms").sum()),
        ),
        add=[f"-XX:MetaspaceSize={size_flag(size)}"],
        action=(
            f"Set MetaspaceSize above the steady-state metaspace ({mib(peak)} seen)."
            if peak
            else "The log shows no metaspace sizes (log with -Xlog:gc*): the size given is a common "
            "server setting, not one measured here."
        )
        + " If metaspace keeps rising run after run, look for a class loader leak instead (heap dump: class "
        "loader instances).",
        effect=(
            "full_gc_count" if len(full) else "gc_count",
            "decrease",
            f"the {len(rows)} metadata-threshold collections go away",
        ),
        confidence=Confidence.HIGH,
    )


@rule(
    "last-ditch-collection", "Metaspace exhausted: the JVM cleared soft references to find room for classes"
)
def last_ditch(f: Facts) -> Outcome:
    rows = with_cause(f, *LAST_DITCH_CAUSES)
    if rows.is_empty():
        return None
    limit = f.flag("MaxMetaspaceSize")
    return make(
        "last-ditch-collection",
        Severity.CRITICAL,
        f"{len(rows)} last-ditch collections: metaspace ran out",
        "The JVM could not allocate class metadata even after a collection: the next step is "
        "OutOfMemoryError: Metaspace.",
        evidence(
            rows,
            excerpt_counts(rows, "cause"),
            collections=len(rows),
            max_metaspace_size=limit,
            metaspace_peak_bytes=metaspace_peak(f),
        ),
        remove=[f"-XX:MaxMetaspaceSize={limit}"] if limit and f.given("MaxMetaspaceSize") else [],
        action="Raise or remove MaxMetaspaceSize if the limit is too tight for the application; if metaspace "
        "grows without end, find the class loader leak (heap dump, class loader histogram).",
        effect=("full_gc_count", "decrease", "no more last-ditch full collections"),
        confidence=Confidence.HIGH,
    )


@rule(
    "gclocker-gc", "Collections delayed and then forced by JNI critical sections (GCLocker)", family=HOTSPOT
)
def gclocker(f: Facts) -> Outcome:
    rows = with_cause(f, "GCLocker Initiated GC")
    if len(rows) < t.REPEATED:
        return None
    upgrade = (f.jdk_major or 0) < 22 and f.collector == "G1"
    collections = f.summary.gc_count
    # frequent: a tenth of the collections or more, over enough collections to make it a share
    frequent = collections >= t.MIN_COLLECTIONS_FOR_SHARE and len(rows) >= collections * t.GCLOCKER_SHARE
    return make(
        "gclocker-gc",
        Severity.WARNING if frequent else Severity.INFO,
        f"{len(rows)} collections started when a JNI critical section ended"
        + (f" ({len(rows) / collections:.0%} of all)" if collections else ""),
        "While native code holds a JNI critical region the GC cannot run; allocations that need a collection "
        "wait, and the collection runs when the region ends. Extra collections, and premature "
        "OutOfMemoryError when retries run out (JDK-8192647).",
        evidence(rows, excerpt_counts(rows), collections=len(rows)),
        action="Find the native code holding critical regions (Get*Critical: compression, crypto, NIO). "
        + ("On JDK 22+ G1 pins regions instead (JEP 423). " if upgrade else "")
        + "On JDK 8-21, -XX:+UnlockDiagnosticVMOptions -XX:GCLockerRetryAllocationCount=100 avoids the early "
        "OutOfMemoryError (refused by JDK 25).",
        confidence=Confidence.HIGH,
    )


@rule("g1-humongous-allocation", "G1 collections started by humongous allocations (objects >= half a region)")
def humongous(f: Facts) -> Outcome:
    if f.collector != "G1":
        return None
    rows = with_cause(f, "G1 Humongous Allocation")
    pauses = f.count(category="pause")
    share = len(rows) / max(pauses, 1)
    if len(rows) < t.HUMONGOUS_COUNT and share < t.HUMONGOUS_SHARE:
        return None
    if len(rows) < t.HUMONGOUS_COUNT and (
        short := not_enough("g1-humongous-allocation", pauses, t.MIN_COLLECTIONS_FOR_SHARE, "pauses")
    ):
        return short  # a share of a handful of pauses
    region = region_size_of(f)
    max_region = 32 << 20 if (f.jdk_major or 0) < 18 else 512 << 20
    add = (
        [f"-XX:G1HeapRegionSize={min(region * 2, max_region) >> 20}m"]
        if region and region < max_region
        else []
    )
    return make(
        "g1-humongous-allocation",
        Severity.WARNING,
        f"{len(rows)} collections for humongous allocations ({share:.0%} of pauses)",
        "Objects of half a region or more get whole regions of their own: they fill the old generation, "
        "start concurrent cycles early and fragment the heap, up to evacuation failures.",
        evidence(
            rows, excerpt_counts(rows), collections=len(rows), share_of_pauses=share, region_size_bytes=region
        ),
        add=add,
        action="Larger regions make fewer objects humongous ("
        + (f"now {mib(region)}" if region else "the region size is not in the log")
        + "); better, allocate large arrays and buffers in chunks or "
        "reuse them (a JFR allocation profile names them).",
        effect=("gc_count", "decrease", "fewer collections started by humongous allocations"),
        confidence=Confidence.HIGH,
    )


def region_size_of(f: Facts) -> int | None:
    """G1's region size: the flag, else what the log printed."""
    from jvmlab.jdk.options import parse_size

    given = f.flag_bytes("G1HeapRegionSize")
    if given:
        return given
    fmt_size = f.header.get("Heap Region Size")
    return parse_size(fmt_size) if fmt_size else f.summary.format.region_size_bytes


@rule("g1-preventive-collection", "G1 collected early to avoid an evacuation failure (JDK 17-19)")
def preventive(f: Facts) -> Outcome:
    rows = with_cause(f, "G1 Preventive Collection")
    if len(rows) < t.REPEATED:
        return None
    heap = f.max_heap_bytes
    return make(
        "g1-preventive-collection",
        Severity.INFO,
        f"{len(rows)} G1 preventive collections",
        "G1 predicted it would run out of free regions during the next evacuation and collected early: the "
        "heap has little headroom for what survives young collections.",
        evidence(rows, excerpt_counts(rows), collections=len(rows), max_heap_bytes=heap),
        add=[f"-Xmx{size_flag(heap * 1.5)}"] if heap else [],
        action="Give the heap more room (a larger -Xmx) or raise -XX:G1ReservePercent (default 10).",
        effect=("gc_count", "decrease", "no preventive collections"),
        confidence=Confidence.HIGH,
    )
