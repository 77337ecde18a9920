"""Rules over a JVM in a container: the heap plus its native memory near the memory limit (the kernel's OOM
killer ends such a JVM without a Java error), a default-sized heap wasting the container while the GC works,
CPU throttling (and the pauses it stretches), a JVM that sizes itself for more CPUs than its quota, and GC or
JIT thread counts set above it."""

from __future__ import annotations

import math

from jvmlab.advise import thresholds as t
from jvmlab.advise.facts import ContainerFacts, Facts
from jvmlab.advise.finding import Confidence, Severity
from jvmlab.advise.rules.base import HOTSPOT, Outcome, evidence, make, mib, not_checked, rule
from jvmlab.jdk.options import JvmOption

MIB = 1024 * 1024
MIN_HEAP_BYTES = 64 * MIB  # below this a recommended heap is no recommendation: the container is too small
HEAP_CHOICES = ("MaxHeapSize", "MaxRAMPercentage", "MaxRAMFraction", "MaxRAM")


def heap_flag(n_bytes: int) -> str:
    """-Xmx of at most `n_bytes`, down to a 16 MiB step: a heap bounded by a limit is never rounded up."""
    return f"-Xmx{n_bytes // (16 * MIB) * 16}m"


def _limit(f: Facts) -> int | None:
    c = f.container
    return (c.memory_limit_bytes if c is not None else None) or f.machine.container_memory_limit_bytes


def non_heap_bytes(f: Facts) -> tuple[int, str]:
    """The JVM's memory beside its heap, and how it is known: its own native memory tracking where it was on;
    else the container's anonymous memory (or the process's RSS) at its peak less the most heap the GC log
    shows committed; else an assumption."""
    committed = f.log_summary.heap.heap_capacity_max_bytes if f.log_summary is not None else None
    c = f.container
    if c is not None and c.nmt_beside_heap_bytes is not None:
        return c.nmt_beside_heap_bytes, "measured: native memory tracking's committed memory beside the heap"
    if committed is not None and c is not None and c.anon_peak_bytes:
        return max(c.anon_peak_bytes - committed, 0), "measured: the cgroup's anonymous memory less the heap"
    rss = f.process.rss_bytes if f.process is not None else ()
    if committed is not None and rss:
        return max(max(rss) - committed, 0), "measured: the process's RSS less the heap"
    return t.CONTAINER_NON_HEAP_DEFAULT_BYTES, "assumed (nothing measured it)"


def _given_heap(f: Facts) -> list[str]:
    """The heap-size options of the command line (-Xmx is named MaxHeapSize): what a new size replaces."""
    return [o.raw for o in f.options or () if o.kind in ("xx", "x") and o.name in HEAP_CHOICES]


@rule(
    "container-memory-near-limit",
    "The heap plus the JVM's native memory near the container's memory limit: the OOM killer's reach",
    needs_log=False,
    family=HOTSPOT,
)
def memory_near_limit(f: Facts) -> Outcome:
    limit = _limit(f)
    if limit is None:
        return None
    heap = f.configured_max_heap_bytes
    if heap is None:
        return not_checked("container-memory-near-limit", "the maximum heap is not known (give --flags)")
    non_heap, how = non_heap_bytes(f)
    c = f.container or ContainerFacts()
    peak = 100.0 * c.memory_peak_bytes / limit if c.memory_peak_bytes else None
    need = 100.0 * (heap + non_heap) / limit
    worst = max(need, peak or 0.0)
    if worst < t.CONTAINER_MEMORY_NEAR_PERCENT:
        return None
    room = int(limit * (1 - t.CONTAINER_HEADROOM_SHARE)) - non_heap
    sized = room >= MIN_HEAP_BYTES and room < heap
    seen = f", the cgroup's peak {peak:.0f} % of it" if peak is not None else ""
    return make(
        "container-memory-near-limit",
        Severity.CRITICAL if worst >= t.CONTAINER_MEMORY_CRITICAL_PERCENT else Severity.WARNING,
        f"a {mib(heap)} heap and about {mib(non_heap)} beside it in a {mib(limit)} container{seen}",
        "The container's limit counts everything the JVM holds: heap, metaspace, code cache, thread stacks, "
        "direct buffers, GC structures. Once they reach it, the kernel's OOM killer ends the JVM with "
        "SIGKILL: no OutOfMemoryError, no heap dump, only exit code 137.",
        evidence(
            None,
            [f"non-heap {how}"],
            max_heap_bytes=heap,
            non_heap_bytes=non_heap,
            memory_limit_bytes=limit,
            memory_peak_percent=peak,
            heap_and_non_heap_percent=need,
        ),
        add=[heap_flag(room)] if sized else [],
        remove=_given_heap(f) if sized else [],
        action=(
            f"Keep the heap to what leaves {t.CONTAINER_HEADROOM_SHARE:.0%} of the limit free beside the "
            "non-heap memory, or give the container more memory."
            if sized
            else f"Give the container more memory: the heap and non-heap need about {mib(heap + non_heap)}, "
            f"plus {t.CONTAINER_HEADROOM_SHARE:.0%} headroom."
        ),
        effect=("memory_peak_percent", "decrease", "room between the JVM's memory and the limit"),
        confidence=Confidence.HIGH if peak is not None else Confidence.MEDIUM,
    )


@rule(
    "container-heap-wasted",
    "A small default heap in a larger container while the GC works hard (MaxRAMPercentage 25 %)",
    family=HOTSPOT,
)
def heap_wasted(f: Facts) -> Outcome:
    limit = _limit(f)
    heap = f.configured_max_heap_bytes
    if limit is None or heap is None or heap > t.CONTAINER_HEAP_WASTE_SHARE * limit:
        return None
    overhead = f.summary.gc_overhead_percent
    fulls = f.summary.rates["full"].count if "full" in f.summary.rates else 0
    if (overhead or 0.0) < t.CONTAINER_WASTE_MIN_GC_OVERHEAD_PERCENT and not fulls:
        return None
    non_heap, how = non_heap_bytes(f)
    room = int(limit * (1 - t.CONTAINER_HEADROOM_SHARE)) - non_heap
    if room < t.CONTAINER_HEAP_GROWTH * heap:
        return None
    explicit = any(f.given(name) is not None for name in HEAP_CHOICES)
    percent = math.floor(100.0 * room / limit)
    add = [heap_flag(room)] if explicit else [f"-XX:MaxRAMPercentage={percent}"]
    return make(
        "container-heap-wasted",
        Severity.WARNING,
        f"a {mib(heap)} heap in a {mib(limit)} container with {overhead or 0:.1f} % GC overhead",
        "The heap holds a small share of the container's memory while collections take a visible share of "
        "the time: the memory the container is paid for sits unused. HotSpot sizes the heap at "
        "MaxRAMPercentage (25 %) of the limit unless told otherwise.",
        evidence(
            None,
            [f"non-heap {how}"],
            max_heap_bytes=heap,
            memory_limit_bytes=limit,
            non_heap_bytes=non_heap,
            gc_overhead_percent=overhead,
        ),
        add=add,
        remove=_given_heap(f),
        action=f"Give the heap what the container holds beside the non-heap memory ({mib(room)}, "
        f"{t.CONTAINER_HEADROOM_SHARE:.0%} of the limit left free).",
        effect=("gc_overhead_percent", "decrease", "fewer collections in a larger heap"),
        confidence=Confidence.MEDIUM,
    )


def pauses_in_throttling(f: Facts, c: ContainerFacts) -> tuple[int, int]:
    """(pauses that fell in a sample interval with most of its CFS periods throttled, pauses), by uptime."""
    if not f.has_log or not c.throttled or "pause_ms" not in f.events.columns:
        return 0, 0
    pauses = f.events.filter(f.events["pause_ms"].is_not_null())
    times = [float(x) for x in pauses["uptime_s"].drop_nulls().to_list()]
    samples = sorted(c.throttled)
    inside = 0
    for at in times:
        later = next((share for s, share in samples if s >= at), None)
        inside += later is not None and later > t.CONTAINER_THROTTLED_SAMPLE_PERCENT
    return inside, len(times)


@rule(
    "container-cpu-throttled",
    "The container used up its CPU quota in many CFS periods: work, and GC pauses, wait for the next",
    needs_log=False,
    family=HOTSPOT,
)
def cpu_throttled(f: Facts) -> Outcome:
    c = f.container
    if (
        c is None
        or c.throttled_percent is None
        or c.throttled_percent < t.CONTAINER_THROTTLED_WARNING_PERCENT
    ):
        return None
    inside, pauses = pauses_in_throttling(f, c)
    threads = f.flag("ParallelGCThreads")
    workers = int(threads) if threads and threads.isdigit() else None
    fits = max(1, math.floor(c.cpus)) if c.cpus else None
    # GC threads set on the command line above the CPUs are gc-threads-exceed-cpus's finding
    fewer = (
        workers is not None and fits is not None and workers > fits and f.given("ParallelGCThreads") is None
    )
    beside = f"; {inside} of {pauses} GC pauses fell in throttled intervals" if pauses else ""
    quota = f" of {c.cpus:g} CPU{'s' if c.cpus != 1 else ''}" if c.cpus else ""
    return make(
        "container-cpu-throttled",
        Severity.WARNING,
        f"the CPU quota{quota} ran out in {c.throttled_percent:.0f} % of the periods{beside}",
        "A CFS quota gives the container so much CPU time per 100 ms period; once its threads used it up "
        "they wait for the next period. Parallel GC threads use the quota several times faster than one "
        "thread, so a pause that starts late in a period is frozen until the next one.",
        evidence(
            None,
            [f"ParallelGCThreads={workers}"] if workers is not None else [],
            throttled_percent=c.throttled_percent,
            throttled_time_percent=c.throttled_time_percent,
            cpu_quota=c.cpus,
            pauses_in_throttling=inside if pauses else None,
            pauses=pauses or None,
        ),
        add=[f"-XX:ParallelGCThreads={fits}"] if fewer else [],
        remove=[o.raw for o in f.options or () if o.name == "ParallelGCThreads"] if fewer else [],
        action=(
            "Give the container more CPU, or fewer GC threads than the quota holds so that a pause does "
            "not use it up."
            if fewer
            else "Give the container more CPU (a CPU limit at the peak, not the mean, of its use)."
        ),
        effect=("pause_p99_ms", "decrease", "pauses no longer frozen by the quota") if fewer else None,
        confidence=Confidence.LOW if fewer else Confidence.MEDIUM,
    )


@rule(
    "container-processors-above-quota",
    "The JVM sizes its GC and JIT threads for more CPUs than its container's quota",
    needs_log=False,
    family=HOTSPOT,
)
def processors_above_quota(f: Facts) -> Outcome:
    c = f.container
    if c is None or c.cpus is None or c.effective_cpus is None:
        return None
    fits = math.ceil(c.cpus)
    if c.effective_cpus <= fits:
        return None
    return make(
        "container-processors-above-quota",
        Severity.WARNING,
        f"the JVM uses {c.effective_cpus} CPUs in a container of {c.cpus:g}",
        "The JVM sizes its GC threads, JIT compiler threads and common pool from the CPUs it counts; with "
        "container support off (-XX:-UseContainerSupport) or a JDK before 8u191 it counts the machine's, "
        "and its threads use up the quota together.",
        evidence(None, [], effective_cpus=c.effective_cpus, cpu_quota=c.cpus),
        add=[f"-XX:ActiveProcessorCount={fits}"],
        action="Tell the JVM the CPUs it has.",
        effect=("pause_p99_ms", "decrease", "GC threads that fit the quota"),
        confidence=Confidence.MEDIUM,
    )


# The thread counts beside the application's a command line can set, and what each thread does (the GC's
# stop-the-world workers, ParallelGCThreads, are gc-threads-exceed-cpus's, which counts the quota too).
THREAD_FLAGS = {
    "ConcGCThreads": "concurrent GC",
    "CICompilerCount": "JIT compiler",
}


def thread_bound(name: str, fits: int) -> int:
    return max(fits, t.CONTAINER_MIN_COMPILER_THREADS) if name == "CICompilerCount" else fits


def threads_set_above(f: Facts, fits: int) -> list[tuple[JvmOption, int]]:
    """The thread counts the command line sets above what `fits` CPUs run at once, with their values (the
    last of a repeated flag is the one in force)."""
    given = {o.name: o for o in f.options or () if o.kind == "xx" and o.name in THREAD_FLAGS}
    return [
        (o, int(o.value))
        for o in given.values()
        if o.value and o.value.isdigit() and int(o.value) > thread_bound(o.name, fits)
    ]


@rule(
    "container-threads-above-quota",
    "The command line sets more concurrent GC or JIT threads than the container's CPU quota runs at once",
    needs_log=False,
    family=HOTSPOT,
)
def threads_above_quota(f: Facts) -> Outcome:
    c = f.container
    if c is None or c.cpus is None:
        return None
    fits = max(1, math.ceil(c.cpus))
    above = threads_set_above(f, fits)
    if not above:
        return None
    said = ", ".join(f"{n} {THREAD_FLAGS[o.name]} threads" for o, n in above)
    gc = any(o.name != "CICompilerCount" for o, _ in above)
    quota = f"{c.cpus:g} CPU{'s' if c.cpus != 1 else ''}"
    return make(
        "container-threads-above-quota",
        Severity.WARNING if gc else Severity.INFO,
        f"{said} set in a container of {quota}",
        "A CFS quota lets the container's threads run for so much CPU time per 100 ms period, whatever their "
        "number. Threads above the quota do not add speed: beside the application's they use the period's "
        "time up sooner, and then every thread waits for the next period: concurrent GC threads during each "
        "GC cycle, compiler threads during warm-up.",
        evidence(None, [o.raw for o, _ in above], cpu_quota=c.cpus, throttled_percent=c.throttled_percent),
        add=[f"-XX:{o.name}={thread_bound(o.name, fits)}" for o, _ in above],
        remove=[o.raw for o, _ in above],
        action=f"Set the thread counts to what {quota} run{'s' if fits == 1 else ''} at once (or remove "
        "them: with container support the JVM sizes them from the quota).",
        effect=("throttled_percent", "decrease", "threads beside the application's that fit the quota"),
        confidence=Confidence.MEDIUM if gc else Confidence.LOW,
    )
