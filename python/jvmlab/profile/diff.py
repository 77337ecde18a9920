"""What changed between two sets of profiles (base, new): per frame, its self and total share of each side
and the change, with a bootstrap CI over the profiles of each side (the trials of a variant), so that noise
between repetitions is not read as a cause.

Shares, not weights: each profile is normalised by its own total, so a longer or busier run does not look
like a change. The CI resamples the profiles of each side with replacement (2,000 times); the p-value is
the bootstrap's two-sided tail; frames are significant when their Benjamini-Hochberg q-value is below
`alpha` across all frames compared (many frames: one of them crosses a plain 95 % CI by chance).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from jvmlab.profile.model import Profile, frame_kind, frame_name

RESAMPLES = 2000
DEFAULT_ALPHA = 0.01


@dataclass(frozen=True)
class FrameChange:
    frame: str
    kind: str
    base_self: float  # share of the total, 0-1, mean over the side's profiles
    new_self: float
    base_total: float
    new_total: float
    ci_low: float | None  # of new_total - base_total; None with fewer than 2 profiles a side
    ci_high: float | None
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


def _bh(p: np.ndarray) -> np.ndarray:
    """Benjamini-Hochberg q-values (Benjamini & Hochberg 1995)."""
    order = np.argsort(p)
    ranked = p[order] * len(p) / (np.arange(len(p)) + 1)
    q = np.minimum.accumulate(ranked[::-1])[::-1].clip(max=1.0)
    out = np.empty_like(q)
    out[order] = q
    return out


def frame_changes(
    base: Sequence[Profile], new: Sequence[Profile], *, alpha: float = DEFAULT_ALPHA, seed: int = 0
) -> list[FrameChange]:
    """Every frame of either side, largest change of total share first."""
    b = [shares(p) for p in base]
    n = [shares(p) for p in new]
    names = sorted({k for s in b + n for k in s[1]})
    kinds = {k: v for s in b + n for k, v in s[2].items()}
    bt, nt = _matrix([s[1] for s in b], names), _matrix([s[1] for s in n], names)
    bs, ns = _matrix([s[0] for s in b], names), _matrix([s[0] for s in n], names)
    change = nt.mean(axis=0) - bt.mean(axis=0)
    ci_low = ci_high = q = None
    if len(base) >= 2 and len(new) >= 2:
        rng = np.random.default_rng(seed)
        bi = rng.integers(0, len(base), (RESAMPLES, len(base)))
        ni = rng.integers(0, len(new), (RESAMPLES, len(new)))
        boot = nt[ni].mean(axis=1) - bt[bi].mean(axis=1)  # resamples x frames
        ci_low, ci_high = np.percentile(boot, 2.5, axis=0), np.percentile(boot, 97.5, axis=0)
        p = 2 * np.minimum((boot <= 0).mean(axis=0), (boot >= 0).mean(axis=0))
        p = np.clip(p, 1 / RESAMPLES, 1.0)
        q = _bh(p)
    rows = []
    for i, name in enumerate(names):
        qv = None if q is None else float(q[i])
        rows.append(
            FrameChange(
                frame=name,
                kind=kinds.get(name, "native"),
                base_self=float(bs[:, i].mean()),
                new_self=float(ns[:, i].mean()),
                base_total=float(bt[:, i].mean()),
                new_total=float(nt[:, i].mean()),
                ci_low=None if ci_low is None else float(ci_low[i]),
                ci_high=None if ci_high is None else float(ci_high[i]),
                q_value=qv,
                significant=bool(qv is not None and qv < alpha and abs(change[i]) > 0),
            )
        )
    return sorted(rows, key=lambda r: abs(r.change_total), reverse=True)
