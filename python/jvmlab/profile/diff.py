"""What changed between two sets of profiles (base, new): per frame, its self and total share of each side
and the change, with a CI over the profiles of each side (the trials of a variant), so that noise between
repetitions is not read as a cause.

Shares, not weights: each profile is normalised by its own total, so a longer or busier run does not look
like a change. The CI, the test and the correction are jvmlab.stats's, as for every other verdict
(`stats.mean_differences`: Welch's test, Benjamini-Hochberg across the frames compared, since with many
frames one of them crosses a plain 95 % CI by chance, and Welch's CI at the level those q-values keep;
docs/methodology.md).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from jvmlab.profile.model import Profile, frame_kind, frame_name
from jvmlab.stats import DEFAULT_ALPHA, mean_differences

# Frames below this share of the samples on both sides together are shown but not tested: thousands of
# rare frames would otherwise inflate the q-values of the ones that matter (independent filtering).
MIN_TESTED_SHARE = 0.001


@dataclass(frozen=True)
class FrameChange:
    frame: str
    kind: str
    base_self: float  # share of the total, 0-1, mean over the side's profiles
    new_self: float
    base_total: float
    new_total: float
    ci_low: float | None  # of new_total - base_total at `level`; None with fewer than 2 profiles a side
    ci_high: float | None
    level: float
    q_value: float | None
    significant: bool

    @property
    def change_total(self) -> float:
        return self.new_total - self.base_total

    @property
    def change_self(self) -> float:
        return self.new_self - self.base_self


def shares(profile: Profile) -> tuple[dict[str, float], dict[str, float], dict[str, str]]:
    """(self share, total share, kind) per frame name of one profile."""
    total = profile.total or 1
    own: dict[str, float] = {}
    whole: dict[str, float] = {}
    kinds: dict[str, str] = {}
    for stack, weight in profile.stacks.items():
        if not stack:
            continue
        leaf = frame_name(stack[-1])
        own[leaf] = own.get(leaf, 0.0) + weight / total
        for frame in stack:
            kinds.setdefault(frame_name(frame), frame_kind(frame))
        for name in {frame_name(f) for f in stack}:
            whole[name] = whole.get(name, 0.0) + weight / total
    return own, whole, kinds


def _matrix(per_profile: list[dict[str, float]], names: list[str]) -> np.ndarray:
    return np.array([[p.get(n, 0.0) for n in names] for p in per_profile])


def frame_changes(
    base: Sequence[Profile], new: Sequence[Profile], *, alpha: float = DEFAULT_ALPHA
) -> list[FrameChange]:
    """Every frame of either side, largest change of total share first."""
    b = [shares(p) for p in base]
    n = [shares(p) for p in new]
    names = sorted({k for s in b + n for k in s[1]})
    kinds = {k: v for s in b + n for k, v in s[2].items()}
    bt, nt = _matrix([s[1] for s in b], names), _matrix([s[1] for s in n], names)
    bs, ns = _matrix([s[0] for s in b], names), _matrix([s[0] for s in n], names)
    tested = mean_differences(bt.T, nt.T, alpha=alpha, min_mean=MIN_TESTED_SHARE)
    rows = []
    for i, name in enumerate(names):
        d = tested[i]
        rows.append(
            FrameChange(
                frame=name,
                kind=kinds.get(name, "native"),
                base_self=float(bs[:, i].mean()),
                new_self=float(ns[:, i].mean()),
                base_total=float(bt[:, i].mean()),
                new_total=float(nt[:, i].mean()),
                ci_low=d.ci_low,
                ci_high=d.ci_high,
                level=d.level,
                q_value=d.q_value,
                significant=d.significant,
            )
        )
    return sorted(rows, key=lambda r: abs(r.change_total), reverse=True)
