"""Rules over the code cache as an experiment's trials sampled it ([telemetry] jit: per code heap its size
and the most it held): a code heap nearly full, segments out of balance with their use, and a large code
cache on small pages."""

from __future__ import annotations

from collections.abc import Mapping

from jvmlab.advise import thresholds as t
from jvmlab.advise.facts import Facts
from jvmlab.advise.finding import Confidence, Severity
from jvmlab.advise.rules.base import HOTSPOT, Outcome, evidence, make, mib, not_checked, rule

# The flag that sizes each code heap, by the name Compiler.codecache gives it.
HEAP_FLAGS = {
    "non-profiled nmethods": "NonProfiledCodeHeapSize",
    "profiled nmethods": "ProfiledCodeHeapSize",
    "non-nmethods": "NonNMethodCodeHeapSize",
    "CodeCache": "ReservedCodeCacheSize",
}
NO_SAMPLES = "no code cache samples: an experiment with [telemetry] jit takes them"
MIB = 1 << 20


def _used(h: Mapping[str, int | None]) -> int | None:
    """The most a code heap held: the samples' peak or the JVM's own high-water mark."""
    seen = [v for v in (h.get("used_peak_bytes"), h.get("max_used_bytes")) if v is not None]
    return max(seen) if seen else None


def _shares(f: Facts) -> dict[str, tuple[int, int, float]]:
    """code heap -> (size, most used, share) for the heaps with both figures."""
    out = {}
    for name, h in (f.code_heaps or {}).items():
        size, used = h.get("size_bytes"), _used(h)
        if size and used is not None:
            out[name] = (int(size), int(used), used / size)
    return out


def _mb(n: int) -> int:
    return max(1, -(-n // MIB))  # rounded up to whole MiB


@rule(
    "code-heap-nearly-full",
    "A code heap was nearly full: compilation is about to stop",
    needs_log=False,
    family=HOTSPOT,
)
def code_heap_nearly_full(f: Facts) -> Outcome:
    if f.code_heaps is None:
        return not_checked("code-heap-nearly-full", NO_SAMPLES)
    full = {n: v for n, v in _shares(f).items() if v[2] >= t.CODE_HEAP_FULL_SHARE}
    if not full:
        return None
    name, (size, used, share) = max(full.items(), key=lambda kv: kv[1][2])
    flag = HEAP_FLAGS.get(name)
    add = []
    if flag is not None:
        add.append(f"-XX:{flag}={_mb(2 * size)}m")
        reserved = f.flag_bytes("ReservedCodeCacheSize")
        if flag != "ReservedCodeCacheSize" and reserved:
            add.append(f"-XX:ReservedCodeCacheSize={_mb(reserved + size)}m")  # the segments must fit
    lines = [f"{n}: {mib(u)} of {mib(s)} ({100 * sh:.0f}%)" for n, (s, u, sh) in full.items()]
    return make(
        "code-heap-nearly-full",
        Severity.WARNING,
        f"code heap '{name}' held {100 * share:.0f}% of its {mib(size)}",
        'When a code heap fills, HotSpot flushes or stops compiling into it ("CodeCache is full"): new hot '
        "code stays interpreted or in slower tiers. The margin is what lets a longer run or a new code path "
        "compile.",
        evidence(None, lines, code_heap=name, size_bytes=size, used_bytes=used),
        add=add,
        action="Give that code heap room (its size doubled; the reserved code cache grows with it), or find "
        "the code that fills it (jvmlab jit: the largest compiled methods).",
        effect=("throughput", "increase", "no stalls of compilation late in the run"),
        confidence=Confidence.MEDIUM,
    )


@rule(
    "code-heaps-unbalanced",
    "One code heap is nearly full while another stays empty",
    needs_log=False,
    family=HOTSPOT,
)
def code_heaps_unbalanced(f: Facts) -> Outcome:
    if f.code_heaps is None:
        return not_checked("code-heaps-unbalanced", NO_SAMPLES)
    nmethod = {n: v for n, v in _shares(f).items() if n in ("non-profiled nmethods", "profiled nmethods")}
    busy = [n for n, v in nmethod.items() if v[2] >= t.CODE_HEAP_FULL_SHARE]
    idle = [n for n, v in nmethod.items() if v[2] <= t.CODE_HEAP_IDLE_SHARE]
    if not busy or not idle:
        return None
    (b, (bsize, bused, bshare)), (i, (isize, iused, ishare)) = (
        (busy[0], nmethod[busy[0]]),
        (idle[0], nmethod[idle[0]]),
    )
    moved = (isize - iused) // 2
    add = [f"-XX:{HEAP_FLAGS[b]}={_mb(bsize + moved)}m", f"-XX:{HEAP_FLAGS[i]}={_mb(isize - moved)}m"]
    return make(
        "code-heaps-unbalanced",
        Severity.INFO,
        f"'{b}' held {100 * bshare:.0f}% of its {mib(bsize)}, '{i}' {100 * ishare:.0f}% of {mib(isize)}",
        "The segmented code cache splits its reserved size between profiled (C1) and non-profiled (C2) code "
        "by fixed shares; a workload whose code is mostly of one kind fills one heap while the other idles.",
        evidence(None, [f"{b}: {mib(bused)} of {mib(bsize)}", f"{i}: {mib(iused)} of {mib(isize)}"]),
        add=add,
        action="Move half of the idle heap's free space to the busy one (the reserved size stays the same).",
        effect=("throughput", "increase", "the busy code heap no longer fills"),
        confidence=Confidence.LOW,
    )


@rule("code-cache-small-pages", "A large code cache on 4 KiB pages", needs_log=False, family=HOTSPOT)
def code_cache_small_pages(f: Facts) -> Outcome:
    if f.code_heaps is None:
        return not_checked("code-cache-small-pages", NO_SAMPLES)
    used = sum(v[1] for v in _shares(f).values())
    reserved = f.flag_bytes("ReservedCodeCacheSize") or sum(v[0] for v in _shares(f).values())
    if used < t.CODE_CACHE_LARGE_BYTES:
        return None
    if f.flag_on("UseTransparentHugePages") or f.flag_on("UseLargePages"):
        return None
    huge = [n for n, size in (f.code_page_sizes or {}).items() if n.startswith("CodeHeap") and size != "4K"]
    if huge:
        return None
    mode = f.machine.thp_enabled
    kernel = (
        ""
        if mode in ("madvise", "always")
        else f" (the kernel's THP mode is {mode or 'unknown'}: set it to madvise)"
    )
    return make(
        "code-cache-small-pages",
        Severity.INFO,
        f"{mib(used)} of compiled code on small pages",
        "Hundreds of MB of machine code on 4 KiB pages need many instruction-TLB entries: jumps between hot "
        "methods miss the iTLB. Huge pages for the code heap cut those misses.",
        evidence(None, [], code_cache_used_bytes=used, reserved_code_cache_bytes=reserved, thp_mode=mode),
        add=["-XX:+UseTransparentHugePages"],
        action="Put the code cache (and the heap) on transparent huge pages"
        + kernel
        + "; compare iTLB misses "
        "with [telemetry] perf where the machine has PMU counters.",
        effect=("throughput", "increase", "fewer iTLB misses (measure it)"),
        confidence=Confidence.LOW,
    )


@rule(
    "compile-backlog",
    "Methods waited long in the compile queue: too few compiler threads",
    needs_log=False,
    family=HOTSPOT,
)
def compile_backlog(f: Facts) -> Outcome:
    queue = f.jit.queue_time if f.jit is not None else {}
    if not queue.get("timed"):
        return not_checked(
            "compile-backlog", "no compile queue times: LogCompilation ([telemetry] jit = detailed)"
        )
    p99 = queue.get("p99_ms")
    if p99 is None or p99 < t.COMPILE_QUEUE_P99_MS:
        return None
    threads = f.flag("CICompilerCount")
    cpus = f.machine.cpus_available or f.machine.cpus_total
    current = int(threads) if threads and threads.isdigit() else None
    add = []
    if current is not None and cpus is not None and cpus > current:
        add = [f"-XX:CICompilerCount={min(cpus, 2 * current)}"]
    more = (
        f"more compiler threads ({current} now, {cpus} CPUs)"
        if add
        else f"more CPUs: {current or 'the'} compiler threads already match the {cpus or '?'} CPUs"
    )
    return make(
        "compile-backlog",
        Severity.WARNING,
        f"hot methods waited up to {p99 / 1000:.1f} s (p99) in the compile queue",
        "A method queued for compilation runs interpreted or in a slower tier until a compiler thread takes "
        "it: with a backlog the warm-up stretches and a late code path stays slow.",
        evidence(None, [], queue_p99_ms=p99, queue_max_ms=queue.get("max_ms"), queued=queue.get("timed")),
        add=add,
        action=f"Give the JIT {more}; or compile less (a smaller hot set, -XX:TieredStopAtLevel=1 for "
        "start-up only workloads).",
        effect=("throughput", "increase", "a shorter warm-up"),
        confidence=Confidence.LOW,
    )
