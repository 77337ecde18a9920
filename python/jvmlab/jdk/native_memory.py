"""What a JVM started with -XX:NativeMemoryTracking=summary (or detail) says of its memory when asked
`VM.native_memory summary` (jcmd; JDK 8+): the total it committed, and per category (Java Heap, Class,
Thread, Code, GC, ...). Everything beside the Java heap is what a container must hold beyond it."""

from __future__ import annotations

import re
from dataclasses import dataclass

ASK = ("VM.native_memory", "summary")
FLAG = "-XX:NativeMemoryTracking="
HEAP = "Java Heap"
_UNITS = {"B": 1, "KB": 1024, "MB": 1024**2, "GB": 1024**3}
_TOTAL = re.compile(r"^Total: reserved=(\d+)([KMG]?B), committed=(\d+)([KMG]?B)", re.M)
_CATEGORY = re.compile(r"^-\s+(.+?) \(reserved=(\d+)([KMG]?B), committed=(\d+)([KMG]?B)", re.M)


@dataclass(frozen=True)
class NativeMemory:
    committed_bytes: int
    categories: dict[str, int]  # category -> committed bytes

    @property
    def heap_committed_bytes(self) -> int:
        return self.categories.get(HEAP, 0)

    @property
    def beside_heap_bytes(self) -> int:
        """Committed memory that is not the Java heap: metaspace, code cache, threads, GC, ..."""
        return self.committed_bytes - self.heap_committed_bytes


def tracking(argv: list[str] | tuple[str, ...]) -> bool:
    """Whether a JVM's arguments turn native memory tracking on (the last setting wins)."""
    settings = [a[len(FLAG) :] for a in argv if a.startswith(FLAG)]
    return bool(settings) and settings[-1] in ("summary", "detail")


def parse_summary(text: str) -> NativeMemory | None:
    """The summary in what the JVM answered; None when it has none (tracking off: "Native memory tracking
    is not enabled")."""
    total = _TOTAL.search(text)
    if total is None:
        return None
    categories = {m.group(1).strip(): int(m.group(4)) * _UNITS[m.group(5)] for m in _CATEGORY.finditer(text)}
    return NativeMemory(int(total.group(3)) * _UNITS[total.group(4)], categories)
