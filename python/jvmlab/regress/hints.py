"""Hints: known JDK changes (hints.toml) matched against the evidence of a regression, the frames whose share
of the profile grew and the JFR event counts that changed, each with the flag that tests it."""

from __future__ import annotations

import re
import tomllib
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache
from pathlib import Path

from jvmlab.profile.diff import FrameChange
from jvmlab.stats import Change

TABLE = Path(__file__).with_name("hints.toml")
# A frame is evidence when its share of all samples grew by at least this much (half a percentage point),
# significantly; without a CI (one profile on a side), by UNTESTED_SHARE_CHANGE. Smaller changes can be
# significant (a frame always present in a long run) and mean nothing.
MIN_SHARE_CHANGE = 0.005
UNTESTED_SHARE_CHANGE = 0.02
# An event count is evidence when it changed significantly by at least this much (counts identical within
# each side make any difference "significant"); without a test (one trial a side), by UNTESTED_EVENT_PERCENT.
MIN_EVENT_PERCENT = 10.0
UNTESTED_EVENT_PERCENT = 50.0
EVENT_WEIGHT = 0.05  # in hint order, a changed event counts as this share of samples gained


@dataclass(frozen=True)
class Hint:
    id: str
    title: str
    change: str
    frames: tuple[re.Pattern[str], ...]
    events: tuple[str, ...]
    calls: tuple[re.Pattern[str], ...]  # counted methods (`--count`) whose calls are evidence
    flag: str
    caveat: str
    since: int | None = None


@dataclass(frozen=True)
class EventDelta:
    """One JFR event type's count per trial on each side (means), and the change with its test."""

    event: str
    base_mean: float
    new_mean: float
    change: Change

    @property
    def changed(self) -> bool:
        p = self.change.percent
        if p is None:  # none on the base side
            return bool(self.change.significant) or (self.change.significant is None and self.new_mean > 0)
        if self.change.significant is not None:
            return self.change.significant and abs(p) >= MIN_EVENT_PERCENT
        return abs(p) >= UNTESTED_EVENT_PERCENT


@dataclass(frozen=True)
class HintMatch:
    hint: Hint
    frames: tuple[FrameChange, ...]
    events: tuple[EventDelta, ...]

    @property
    def weight(self) -> float:
        """For ordering: the largest share a matched frame gained (frames nest: not their sum), and a little
        for each changed event."""
        gained = max((f.change_total for f in self.frames), default=0.0)
        return gained + EVENT_WEIGHT * len(self.events)


@cache
def hints() -> tuple[Hint, ...]:
    data = tomllib.loads(TABLE.read_text())
    return tuple(
        Hint(
            id=h["id"],
            title=h["title"],
            change=h["change"],
            frames=tuple(re.compile(p) for p in h.get("frames", [])),
            events=tuple(h.get("events", [])),
            calls=tuple(re.compile(p) for p in h.get("calls", [])),
            flag=h.get("flag", ""),
            caveat=h.get("caveat", ""),
            since=h.get("since"),
        )
        for h in data["hint"]
    )


def grown(change: FrameChange) -> bool:
    """A frame whose total share grew: significantly, or by UNTESTED_SHARE_CHANGE where no CI exists."""
    if change.q_value is None:
        return change.change_total >= UNTESTED_SHARE_CHANGE
    return change.significant and change.change_total >= MIN_SHARE_CHANGE


def _names(hint: Hint, delta: EventDelta) -> bool:
    """Whether the hint names this event, in the direction it names: "+jdk.ClassLoad" more of them,
    "-..." fewer, a bare name either way."""
    up = delta.new_mean > delta.base_mean
    return any(
        e == delta.event
        or (e[:1] == "+" and e[1:] == delta.event and up)
        or (e[:1] == "-" and e[1:] == delta.event and not up)
        for e in hint.events
    )


def _counted(name: str, hint: Hint) -> bool:
    """Whether `name` is the calls of a counted method (`calls:PATTERN`) that the hint names, and more."""
    pattern = name.removeprefix("calls:")
    return pattern != name and any(p.search(pattern) for p in hint.calls)


def applies(hint: Hint, base_major: int | None, new_major: int | None) -> bool:
    if hint.since is None:
        return True
    return base_major is not None and new_major is not None and base_major < hint.since <= new_major


def match_hints(
    frames: Sequence[FrameChange],
    events: Sequence[EventDelta],
    *,
    base_major: int | None = None,
    new_major: int | None = None,
) -> list[HintMatch]:
    """The hints with evidence, strongest first."""
    up = [f for f in frames if grown(f)]
    changed = [e for e in events if e.changed]
    out = []
    for h in hints():
        if not applies(h, base_major, new_major):
            continue
        fs = tuple(f for f in up if any(p.search(f.frame) for p in h.frames))
        es = tuple(e for e in changed if _names(h, e) or (_counted(e.event, h) and e.new_mean > e.base_mean))
        if fs or es:
            out.append(HintMatch(h, fs, es))
    return sorted(out, key=lambda m: m.weight, reverse=True)
