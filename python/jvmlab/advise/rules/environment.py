"""Rules over the machine during the run: swap, transparent huge pages, the code cache (knowledge rules 22,
29)."""

from __future__ import annotations

import re

from jvmlab.advise import thresholds as t
from jvmlab.advise.facts import Facts
from jvmlab.advise.finding import Confidence, Severity
from jvmlab.advise.rules.base import HOTSPOT, Outcome, evidence, make, mib, not_checked, rule
from jvmlab.advise.rules.code_heaps import HEAP_FLAGS
from jvmlab.jdk.options import parse_size

CODE_CACHE_FULL = (
    "CodeCache is full",
    "CodeHeap 'non-profiled nmethods' is full",
    "CodeHeap 'profiled nmethods' is full",
)


@rule("swap-used", "Parts of the JVM were swapped out during the run", needs_log=False)
def swap_used(f: Facts) -> Outcome:
    if f.process is None or not f.process.swap_bytes:
        return not_checked("swap-used", "no process samples (an experiment's trials or --pid take them)")
    peak = max(f.process.swap_bytes)
    if peak < t.SWAP_USED_BYTES:
        return None
    return make(
        "swap-used",
        Severity.WARNING,
        f"up to {mib(peak)} of the JVM in swap",
        "A collection touches every live object: swapped-out heap pages turn it into disk reads, and pauses "
        "grow by orders of magnitude.",
        evidence(None, [], swap_peak_bytes=peak, samples=len(f.process.swap_bytes)),
        action="Make the heap and native memory fit in RAM (a smaller -Xmx, fewer processes on the machine); "
        "servers running a JVM usually turn swap off or set vm.swappiness low.",
        effect=("pause_max_ms", "decrease", "no pauses stretched by page-ins"),
        confidence=Confidence.HIGH,
    )


@rule(
    "thp-not-used",
    "A large heap on 4 KiB pages: transparent huge pages are off for the JVM",
    needs_log=False,
    family=HOTSPOT,  # HotSpot's -XX:+UseTransparentHugePages and its `Large Page Support` line
)
def thp(f: Facts) -> Outcome:
    heap = f.max_heap_bytes
    if heap is None or heap < t.THP_HEAP_BYTES:
        return None
    large_pages = f.header.get("Large Page Support")
    thp_on = f.flag_on("UseTransparentHugePages") or f.flag_on("UseLargePages")
    if thp_on or (large_pages is not None and large_pages.lower().startswith("enabled")):
        return None
    if large_pages is None and not f.flags_known:
        return not_checked("thp-not-used", "neither the flags nor the log say whether large pages are used")
    if f.machine.thp_enabled == "never":
        return None
    return make(
        "thp-not-used",
        Severity.INFO,
        f"a {mib(heap)} heap without huge pages",
        "With 4 KiB pages a large heap and code cache need many TLB entries: the collector's and the "
        "application's memory accesses miss the TLB more often. With THP in madvise mode the JVM can ask "
        "for 2 MiB pages.",
        evidence(
            None,
            [f"Large Page Support: {large_pages}"] if large_pages else [],
            max_heap_bytes=heap,
            thp_mode=f.machine.thp_enabled,
        ),
        add=["-XX:+UseTransparentHugePages"],
        action="Use transparent huge pages for the heap and code cache (kernel THP mode madvise or always; "
        "with always, set defrag to madvise or defer to avoid allocation stalls).",
        effect=("throughput", "increase", "a few percent from fewer TLB misses (measure it)"),
        confidence=Confidence.LOW,
    )


@rule(
    "code-cache-full", "The code cache filled up: the JIT compiler stopped", needs_log=False, family=HOTSPOT
)
def code_cache_full(f: Facts) -> Outcome:
    if f.jvm_output is None and f.jit is None:
        return not_checked(
            "code-cache-full", "neither the JVM's own output nor a compilation log (experiments keep both)"
        )
    lines = [
        line.strip() for line in (f.jvm_output or "").splitlines() if any(m in line for m in CODE_CACHE_FULL)
    ]
    events = f.jit.codecache_full if f.jit is not None else []
    lines += [
        f"{e['heap'] or 'CodeCache'} full at {e['uptime_s']:.1f} s: {e['disabled'] or 'compilation stopped'}"
        for e in events
        if e.get("uptime_s") is not None
    ]
    if not lines:
        return None
    size = f.flag_bytes("ReservedCodeCacheSize")
    add, action = _code_cache_change(f, _full_segment(lines), size)
    return make(
        "code-cache-full",
        Severity.CRITICAL,
        "the code cache is full and the compiler was disabled",
        "New hot code stays interpreted from now on: ten times slower or worse, for the rest of the run.",
        evidence(None, lines[:3], reserved_code_cache_bytes=size, full_events=len(events) or len(lines)),
        add=add,
        action=action,
        effect=("throughput", "increase", "hot code compiled again"),
        confidence=Confidence.HIGH,
    )


def _full_segment(lines: list[str]) -> str | None:
    """The code heap named by the first `CodeHeap '...' is full` (segmented code cache), else None."""
    for line in lines:
        m = re.search(r"CodeHeap '([^']+)'", line)
        if m:
            return m.group(1)
    return None


def _code_cache_change(f: Facts, segment: str | None, reserved: int | None) -> tuple[list[str], str]:
    """The flags to change: a segment sized on the command line grows itself (and the reservation by as
    much); otherwise HotSpot derives the segments from ReservedCodeCacheSize, which doubles."""
    flag = HEAP_FLAGS.get(segment or "")
    given = f.given(flag) if flag else None
    if flag and given is not None and (seg := parse_size(given)):
        grow = max(seg, 8 << 20)
        add = [f"-XX:{flag}={(seg + grow) >> 20}m"]
        if f.given("ReservedCodeCacheSize") is not None and reserved:
            add.append(f"-XX:ReservedCodeCacheSize={(reserved + grow) >> 20}m")
        return add, (
            f"Give the '{segment}' code heap more room ({flag} is set on the command line, so it does not "
            "grow with ReservedCodeCacheSize); look for runaway generated code (scripting engines, proxies)."
        )
    where = f" (the '{segment}' heap filled first)" if segment else ""
    return [f"-XX:ReservedCodeCacheSize={max(2 * (reserved or 0) >> 20, 256)}m"], (
        f"Raise ReservedCodeCacheSize{where}: keep it at 240 MB or more for the segmented code cache; "
        "look for runaway generated code (scripting engines, proxies)."
    )


@rule(
    "huge-methods-not-compiled",
    "Hot methods too large to compile stay interpreted",
    needs_log=False,
    family=HOTSPOT,
)
def huge_methods(f: Facts) -> Outcome:
    if f.jit is None or f.jit.huge_methods_never_compiled is None:
        return not_checked(
            "huge-methods-not-compiled",
            "no LogCompilation XML (it has the invocation counts): [telemetry] jit",
        )
    huge = f.jit.huge_methods_never_compiled
    if not huge:
        return None
    if f.flag_on("DontCompileHugeMethods") is False:
        return None
    lines = [
        f"{m['method']}: {m['bytecode_bytes']:,} bytes of bytecode, {m['invocations']:,} calls" for m in huge
    ]
    return make(
        "huge-methods-not-compiled",
        Severity.WARNING,
        f"{len(huge)} hot method(s) over HugeMethodLimit ({t.HUGE_METHOD_BYTES:,} bytes) never compiled",
        "HotSpot does not compile methods larger than HugeMethodLimit (DontCompileHugeMethods is on by "
        "default): they run in the interpreter however hot they are, often generated code (parsers, "
        "templates, state machines).",
        evidence(
            None, lines[:5], huge_methods=len(huge), largest_bytes=max(m["bytecode_bytes"] for m in huge)
        ),
        add=["-XX:-DontCompileHugeMethods"],
        action="Let the JIT compile them (-XX:-DontCompileHugeMethods), or split the methods in the code "
        "that generates them; compile time and code cache use grow, so verify by experiment.",
        effect=("throughput", "increase", "the huge hot methods compiled"),
        confidence=Confidence.MEDIUM,
    )
