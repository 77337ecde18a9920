"""Rules over the JVM's configuration against the machine: dead PermGen flags, a collector picked by
ergonomics, GC threads against CPUs, heap size against memory (knowledge rules 3, 11, 17, 31)."""

from __future__ import annotations

import math

from jvmlab.advise import thresholds as t
from jvmlab.advise.facts import Facts
from jvmlab.advise.finding import Confidence, Severity
from jvmlab.advise.rules.base import (
    HOTSPOT,
    NO_FLAGS,
    Outcome,
    evidence,
    make,
    mib,
    not_checked,
    rule,
    size_flag,
)
from jvmlab.jdk.collectors import collector, selecting_flags

PERM_FLAGS = {"PermSize": "MetaspaceSize", "MaxPermSize": "MaxMetaspaceSize"}
G1 = collector("G1")
HEAP_SIZE_CHOICES = ("MaxHeapSize", "MaxRAMPercentage", "MaxRAMFraction", "MaxRAM")


@rule(
    "permgen-flags",
    "PermSize/MaxPermSize on JDK 8+: ignored on 8 and 11, the JVM refuses them from 17",
    needs_log=False,
    family=HOTSPOT,
)
def permgen(f: Facts) -> Outcome:
    if f.options is None:
        return not_checked("permgen-flags", NO_FLAGS)
    perm = [o for o in f.options if o.kind == "xx" and o.name in PERM_FLAGS]
    if not perm:
        return None
    if f.jdk_major is None:
        return not_checked(
            "permgen-flags", "the JDK version is not known (PermGen exists up to JDK 7): give --jdk"
        )
    if f.jdk_major < 8:
        return None
    refused = f.jdk_major >= 17
    replacement = [f"-XX:{PERM_FLAGS[o.name]}={o.value}" for o in perm if o.value]
    return make(
        "permgen-flags",
        Severity.CRITICAL if refused else Severity.WARNING,
        ("PermGen flags the JVM refuses: " if refused else "PermGen flags ignored since JDK 8: ")
        + " ".join(o.raw for o in perm),
        "The permanent generation was removed in JDK 8: these flags do nothing on 8 and 11 (a warning at "
        "start-up) and stop the JVM from starting on 17+. Meanwhile metaspace runs on its defaults, which "
        "is what the metadata-threshold collections come from.",
        evidence(None, [o.raw for o in perm], jdk_major=f.jdk_major),
        add=replacement,
        remove=[o.raw for o in perm],
        action="Replace them with the metaspace flags of the same sizes.",
        effect=(
            "full_gc_count",
            "decrease",
            "metaspace sized as intended, so no metadata-threshold collections",
        ),
        confidence=Confidence.HIGH,
    )


@rule(
    "serial-by-ergonomics",
    "Serial GC chosen by the JVM because it saw one CPU or little memory",
    needs_log=False,
    family=HOTSPOT,
)
def serial_by_ergonomics(f: Facts) -> Outcome:
    if f.collector != "Serial":
        return None
    if f.options is None:
        return not_checked(
            "serial-by-ergonomics", NO_FLAGS + "; it tells a chosen Serial GC from a default one"
        )
    if any(f.given(name) == "true" for name in selecting_flags()):
        return None
    cpus = f.machine.cpus_available
    memory = f.machine.container_memory_limit_bytes or f.machine.memory_bytes  # a container's, where known
    processors = f.given("ActiveProcessorCount")
    return make(
        "serial-by-ergonomics",
        Severity.WARNING,
        "Serial GC was picked by ergonomics, not by choice",
        "With fewer than 2 CPUs or under 1792 MB of memory visible, HotSpot does not consider the machine a "
        "server and falls back to the single-threaded Serial collector: long pauses on any sizeable heap. "
        "In containers this is usually a CPU limit or a memory limit the JVM saw.",
        evidence(
            None,
            [f"ActiveProcessorCount={processors}"] if processors else [],
            cpus_available=cpus,
            memory_bytes=memory,
        ),
        add=[G1.option],
        action="Choose the collector explicitly; if the container has more CPUs than the JVM saw, say so "
        "with -XX:ActiveProcessorCount.",
        effect=("pause_max_ms", "decrease", "parallel collections"),
        confidence=Confidence.HIGH if cpus is not None else Confidence.MEDIUM,
    )


@rule(
    "gc-threads-exceed-cpus",
    "More GC threads than CPUs: GC threads fight each other and the application",
    needs_log=False,
)
def gc_threads(f: Facts) -> Outcome:
    # The CPUs the JVM may use: those it counts, or its container's CPU quota rounded up where that is fewer
    # (a JVM told -XX:ActiveProcessorCount=8 in a 1-CPU container counts 8).
    counted = f.machine.cpus_available
    quota = max(1, math.ceil(f.container.cpus)) if f.container is not None and f.container.cpus else None
    cpus = min(x for x in (counted, quota) if x is not None) if counted or quota else None
    of_quota = quota is not None and cpus == quota and (counted is None or quota < counted)
    openj9 = "gcthreads" in f.header  # OpenJ9's <initialized> says how many GC threads it started
    given = f.header["gcthreads"] if openj9 else f.given("ParallelGCThreads")
    workers = int(given) if given and given.isdigit() else None
    if cpus is None:
        return not_checked(
            "gc-threads-exceed-cpus",
            "the number of CPUs is not known (JDK 17+ and OpenJ9 log it at start-up)",
        )
    if workers is None or workers <= cpus:
        return None
    if openj9:
        return make(
            "gc-threads-exceed-cpus",
            Severity.WARNING,
            f"{workers} GC threads on {cpus} CPUs",
            "Stop-the-world phases run with every GC thread busy; with more threads than CPUs they "
            "time-slice, and the pause lasts longer than with fewer threads.",
            evidence(None, [f'gcthreads="{workers}"'], gc_threads=workers, cpus_available=cpus),
            add=[f"-Xgcthreads{cpus}"],
            action="Leave the GC threads to the JVM or set -Xgcthreads to the CPUs available.",
            effect=("pause_p99_ms", "decrease", "pauses no longer stretched by time-slicing"),
            confidence=Confidence.MEDIUM,
        )
    where = f" (its container's CPU quota of {f.container.cpus:g})" if of_quota and f.container else ""
    return make(
        "gc-threads-exceed-cpus",
        Severity.WARNING,
        f"ParallelGCThreads={workers} on {cpus} CPU{'s' if cpus != 1 else ''}{where}",
        "Stop-the-world phases run with every GC thread busy; with more threads than CPUs they time-slice, "
        "and the pause lasts longer than with fewer threads. In a container a CPU quota also runs out "
        "sooner, and the pause waits for the next period.",
        evidence(
            None,
            [f"-XX:ParallelGCThreads={workers}"],
            parallel_gc_threads=workers,
            cpus_available=counted,
            cpu_quota=f.container.cpus if f.container is not None else None,
        ),
        add=[f"-XX:ParallelGCThreads={cpus}"],
        remove=[f"-XX:ParallelGCThreads={workers}"],
        action="Leave ParallelGCThreads to ergonomics or set it to the CPUs available.",
        effect=("pause_p99_ms", "decrease", "pauses no longer stretched by time-slicing"),
        confidence=Confidence.MEDIUM,
    )


@rule(
    "heap-size-default",
    "No heap size given: the JVM took a quarter of the machine's memory",
    needs_log=False,
    family=HOTSPOT,  # HotSpot's MaxRAMPercentage default
)
def heap_default(f: Facts) -> Outcome:
    if f.options is None:
        return not_checked("heap-size-default", NO_FLAGS)
    if any(f.given(name) is not None for name in HEAP_SIZE_CHOICES):
        return None
    memory = f.machine.container_memory_limit_bytes or f.machine.memory_bytes
    heap = f.max_heap_bytes
    return make(
        "heap-size-default",
        Severity.INFO,
        "the heap size is the JVM's default"
        + (f" ({mib(heap)} of {mib(memory)})" if heap and memory else ""),
        f"Without -Xmx or MaxRAMPercentage the heap is {t.DEFAULT_MAX_RAM_PERCENTAGE:.0f} % of the memory "
        "the JVM sees: far too little for a dedicated server or container, and a different size on every "
        "machine, so results do not carry over.",
        evidence(None, [], max_heap_bytes=heap, memory_bytes=memory),
        add=["-XX:MaxRAMPercentage=75"] if f.machine.container_memory_limit_bytes else [],
        action="Size the heap on purpose: -Xmx from the live set (about 3x), or MaxRAMPercentage in a "
        "container sized for the JVM.",
        confidence=Confidence.MEDIUM,
    )


@rule("heap-exceeds-memory", "The maximum heap is larger than the memory the machine has", needs_log=False)
def heap_exceeds(f: Facts) -> Outcome:
    heap = f.configured_max_heap_bytes
    memory = f.machine.container_memory_limit_bytes or f.machine.memory_bytes
    if memory is None:
        return not_checked("heap-exceeds-memory", "the machine's memory is not known")
    if heap is None or heap < memory * 0.9:
        return None
    return make(
        "heap-exceeds-memory",
        Severity.CRITICAL,
        f"a {mib(heap)} heap on {mib(memory)} of memory",
        "The heap plus the JVM's native memory do not fit: the system swaps (every GC touches the whole "
        "heap) or the kernel's OOM killer ends the JVM.",
        evidence(None, [], max_heap_bytes=heap, memory_bytes=memory),
        add=[f"-Xmx{size_flag(memory * 0.7)}"],
        action="Keep the heap to about 70-75 % of the memory, leaving room for metaspace, code cache, "
        "threads and direct buffers.",
        confidence=Confidence.HIGH,
    )
