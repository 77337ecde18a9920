"""How much of a process's memory is backed by transparent huge pages, by address range: /proc/PID/smaps,
one block per mapping ("START-END perms offset dev inode [path]", then "Key: N kB" lines), summed over the
mappings that overlap a range (the Java heap, the code cache).

A mapping only partly inside a range counts whole: the JVM reserves the heap and each code heap as mappings
of their own, which the kernel may merge with a neighbour of the same permissions (the code heaps with each
other), but does not split across an unrelated mapping.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from jvmlab.errors import InputError, os_error_reason

_HEADER = re.compile(r"^([0-9a-f]+)-([0-9a-f]+) (\S+)")
_FIELD = re.compile(r"^(\w+):\s+(\d+) kB")
_KB = 1024


@dataclass(frozen=True)
class Mapping:
    start: int
    end: int
    perms: str
    kb: dict[str, int] = field(default_factory=dict)  # "Rss", "AnonHugePages", ... in kB

    def bytes_of(self, key: str) -> int:
        return self.kb.get(key, 0) * _KB


def parse_smaps(text: str) -> list[Mapping]:
    """The mappings of a /proc/PID/smaps text, with their kB fields."""
    out: list[Mapping] = []
    for line in text.splitlines():
        if m := _HEADER.match(line):
            out.append(Mapping(int(m.group(1), 16), int(m.group(2), 16), m.group(3)))
        elif out and (f := _FIELD.match(line)):
            out[-1].kb[f.group(1)] = int(f.group(2))
    return out


def read_smaps(pid: int) -> list[Mapping]:
    path = Path(f"/proc/{pid}/smaps")
    try:
        return parse_smaps(path.read_text(errors="replace"))
    except OSError as e:
        raise InputError(str(path), os_error_reason(e)) from None


@dataclass(frozen=True)
class PagesUse:
    """The mappings over some address ranges: their size, resident memory and what of it is on THP."""

    mappings: int
    size_bytes: int
    rss_bytes: int
    anon_huge_bytes: int

    @property
    def huge_percent(self) -> float | None:
        """The share of the resident memory on huge pages (None: nothing resident)."""
        return 100.0 * self.anon_huge_bytes / self.rss_bytes if self.rss_bytes else None

    def to_json(self) -> dict[str, float | int | None]:
        return {
            "mappings": self.mappings,
            "size_bytes": self.size_bytes,
            "rss_bytes": self.rss_bytes,
            "anon_huge_bytes": self.anon_huge_bytes,
            "huge_percent": self.huge_percent,
        }


def pages_in(mappings: Iterable[Mapping], ranges: Sequence[tuple[int, int]]) -> PagesUse:
    """The sums over the mappings that overlap any of `ranges` ([start, end) addresses)."""
    hit = [m for m in mappings if any(m.start < end and start < m.end for start, end in ranges)]
    return PagesUse(
        len(hit),
        sum(m.end - m.start for m in hit),
        sum(m.bytes_of("Rss") for m in hit),
        sum(m.bytes_of("AnonHugePages") for m in hit),
    )
