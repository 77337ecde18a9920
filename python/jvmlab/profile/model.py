"""A profile: stack traces with their weights, as async-profiler's collapsed format gives them (one line per
distinct stack, frames root first separated by ';', then a space and the weight).

Frames keep async-profiler's type annotation (`annotate`): `_[j]` JIT-compiled Java, `_[i]` inlined Java,
`_[0]` interpreted Java, `_[1]` C1-compiled Java, `_[k]` kernel; no suffix: native (C/C++) code.
`frame_kind(frame)` reads it; `frame_name(frame)` drops it.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field

Stack = tuple[str, ...]
KINDS = {"_[j]": "java", "_[i]": "inlined", "_[0]": "interpreted", "_[1]": "java", "_[k]": "kernel"}


def frame_kind(frame: str) -> str:
    """java, inlined, interpreted, kernel or native."""
    return KINDS.get(frame[-4:], "native") if frame.endswith("]") else "native"


def frame_name(frame: str) -> str:
    return frame[:-4] if frame[-4:] in KINDS else frame


@dataclass(frozen=True)
class Profile:
    """`event`: cpu, wall, alloc, lock (or a JFR event name); `unit`: what the weights count (samples,
    bytes, ns); `source`: what recorded it and how (e.g. "async-profiler 4.1, itimer 10ms: no PMU here")."""

    event: str
    stacks: Mapping[Stack, int] = field(default_factory=dict)
    unit: str = "samples"
    source: str = ""
    interval: str | None = None

    @property
    def total(self) -> int:
        return sum(self.stacks.values())

    def collapsed_lines(self) -> Iterable[str]:
        for stack, weight in self.stacks.items():
            yield f"{';'.join(stack)} {weight}"


def merge(profiles: Iterable[Profile]) -> Profile:
    """Several profiles of one event summed stack by stack (the trials of a variant)."""
    items = list(profiles)
    if not items:
        raise ValueError("no profile to merge")
    merged: dict[Stack, int] = {}
    for p in items:
        for stack, weight in p.stacks.items():
            merged[stack] = merged.get(stack, 0) + weight
    first = items[0]
    return Profile(first.event, merged, first.unit, first.source, first.interval)
