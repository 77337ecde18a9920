"""The code cache as `jcmd PID Compiler.codecache` prints it (JDK 9+; JDK 8 has no such command), and the
Java heap's address range as `jcmd PID GC.heap_info` prints it.

Segmented code cache (JDK 9+ by default), one entry per code heap, then on JDK 21+ a total:

    CodeHeap 'non-profiled nmethods': size=120832Kb used=28Kb max_used=28Kb free=120803Kb
     bounds [0x00007fb078a00000, 0x00007fb078c70000, 0x00007fb080000000]
    ...
    CodeCache: size=245760Kb, used=1336Kb, max_used=1359Kb, free=244421Kb     (JDK 21+: the total)

One flat code cache (JDK 8's format, and -XX:-SegmentedCodeCache on 9+), named "CodeCache" here:

    CodeCache: size=245760Kb used=1145Kb max_used=1159Kb free=244614Kb
     bounds [0x00007f60e5000000, 0x00007f60e5270000, 0x00007f60f4000000]

bounds: [start, end of what is committed, end of what is reserved].
"""

from __future__ import annotations

import dataclasses
import re
from dataclasses import dataclass

FLAT = "CodeCache"
_KB = 1024
_SIZES = r"size=(?P<size>\d+)Kb,? used=(?P<used>\d+)Kb,? max_used=(?P<max_used>\d+)Kb,? free=(?P<free>\d+)Kb"
_HEAP = re.compile(r"^CodeHeap '(?P<name>[^']+)': " + _SIZES)
_CACHE = re.compile(r"^CodeCache: " + _SIZES)
_BOUNDS = re.compile(r"^\s*bounds \[(0x[0-9a-fA-F]+), (0x[0-9a-fA-F]+), (0x[0-9a-fA-F]+)\]")
_RANGE = re.compile(r"\[(0x[0-9a-fA-F]+), (0x[0-9a-fA-F]+)(?:, (0x[0-9a-fA-F]+))?\)")


@dataclass(frozen=True)
class CodeHeap:
    """One code heap (a segment, or the whole flat code cache), sizes in bytes."""

    name: str
    size_bytes: int
    used_bytes: int
    max_used_bytes: int
    free_bytes: int
    start: int | None = None
    committed_end: int | None = None
    reserved_end: int | None = None


def _heap(name: str, m: re.Match[str]) -> CodeHeap:
    kb = {k: int(m.group(k)) * _KB for k in ("size", "used", "max_used", "free")}
    return CodeHeap(name, kb["size"], kb["used"], kb["max_used"], kb["free"])


def parse_codecache(text: str) -> list[CodeHeap]:
    """The code heaps of a Compiler.codecache output, in its order; a JDK 21+ total is left out when there
    are segments (it is their sum). Empty when the text has none (not this command's output)."""
    heaps: list[CodeHeap] = []
    flat: list[CodeHeap] = []
    last: list[CodeHeap] | None = None
    for line in text.splitlines():
        if m := _HEAP.match(line):
            heaps.append(_heap(m.group("name"), m))
            last = heaps
        elif m := _CACHE.match(line):
            flat.append(_heap(FLAT, m))
            last = flat
        elif (b := _BOUNDS.match(line)) and last:
            start, committed, reserved = (int(x, 16) for x in b.groups())
            last[-1] = _with_bounds(last[-1], start, committed, reserved)
            last = None
    return heaps or flat[:1]


def _with_bounds(h: CodeHeap, start: int, committed: int, reserved: int) -> CodeHeap:
    return dataclasses.replace(h, start=start, committed_end=committed, reserved_end=reserved)


def heap_ranges(heap_info: str) -> list[tuple[int, int]]:
    """The address ranges [start, end) a GC.heap_info output gives (G1: the whole heap; Parallel, Serial:
    each generation, whose last address is its reserved end); empty for collectors that print none (ZGC,
    Shenandoah)."""
    out = []
    for m in _RANGE.finditer(heap_info):
        start, first_end, last_end = m.group(1), m.group(2), m.group(3)
        out.append((int(start, 16), int(last_end or first_end, 16)))
    return out
