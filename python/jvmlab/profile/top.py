"""Top methods of a profile: each frame's self weight (samples where it is the leaf) and total weight
(samples with it anywhere on the stack, counted once per stack even when it recurses)."""

from __future__ import annotations

from dataclasses import dataclass

from jvmlab.profile.model import Profile, frame_kind, frame_name


@dataclass(frozen=True)
class FrameWeight:
    frame: str
    kind: str
    self_weight: int
    total_weight: int
    self_share: float
    total_share: float


def top_frames(profile: Profile, *, limit: int = 20, by: str = "self") -> list[FrameWeight]:
    """The `limit` heaviest frames by self (or total) weight."""
    self_w: dict[str, int] = {}
    total_w: dict[str, int] = {}
    for stack, weight in profile.stacks.items():
        if not stack:
            continue
        leaf = frame_name(stack[-1])
        self_w[leaf] = self_w.get(leaf, 0) + weight
        for name in {frame_name(f) for f in stack}:
            total_w[name] = total_w.get(name, 0) + weight
    kinds = {frame_name(f): frame_kind(f) for stack in profile.stacks for f in stack}
    total = profile.total or 1
    rows = [
        FrameWeight(name, kinds[name], self_w.get(name, 0), t, self_w.get(name, 0) / total, t / total)
        for name, t in total_w.items()
    ]
    key = (lambda r: r.self_weight) if by == "self" else (lambda r: r.total_weight)
    return sorted(rows, key=key, reverse=True)[:limit]
