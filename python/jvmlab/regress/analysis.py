"""The reading of a regress experiment: did the new side regress (each headline measure against the base,
judged as `jvmlab gate` judges), where (the frames whose share of the CPU profile changed, with a CI over
the trials), what else differs (the flags in force, JFR event counts per trial), and which known JDK
changes fit that evidence (hints.py)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from jvmlab.experiment.analysis.comparison import Cell, Comparison, sequential_change, stored_comparison
from jvmlab.experiment.analysis.gate import judge_regression
from jvmlab.experiment.analysis.goals import FAIL, INCONCLUSIVE, NO_DATA
from jvmlab.experiment.analysis.measures import headline_measures
from jvmlab.experiment.analysis.results import CALLS, calls_of
from jvmlab.experiment.auto_repetitions import DECIDED, MAX_MINUTES, MAX_REPETITIONS, Rounds, stored_rounds
from jvmlab.experiment.storage import OK, Store, TrialRow
from jvmlab.profile.diff import FrameChange, frame_changes
from jvmlab.profile.model import Profile
from jvmlab.regress.hints import EventDelta, HintMatch, match_hints
from jvmlab.regress.plan import Side
from jvmlab.stats import (
    DEFAULT_THRESHOLD_PERCENT,
    Change,
    Estimate,
    compare_metrics,
    directed,
    judge,
    relative_change,
    repetitions_to_decide,
    tested_alone,
)

EXIT_NO_REGRESSION, EXIT_REGRESSED = 0, 1
# Flags whose value differs from one start of the same JVM to the next (address-space layout randomisation
# of the CDS archive): not a difference between the sides.
RANDOM_FLAGS = frozenset({"SharedBaseAddress"})
# Event types shown when they differ; the counters of a run, not its configuration or periodic samples.
COUNTED_EVENTS = (
    "jdk.TLSHandshake",
    "jdk.X509Validation",
    "jdk.X509Certificate",
    "jdk.ClassLoad",
    "jdk.ClassDefine",
    "jdk.Deoptimization",
    "throwables",
    "jdk.JavaErrorThrow",
    "jdk.SafepointBegin",
    "jdk.GarbageCollection",
    "jdk.ThreadStart",
    "jdk.JavaMonitorEnter",
    "jdk.JavaMonitorInflate",
    "jdk.ObjectAllocationOutsideTLAB",
    "jdk.SecurityPropertyModification",
)


@dataclass(frozen=True)
class MeasureRow:
    measure: str
    label: str
    unit: str
    level: str | None
    base: Estimate
    new: Estimate
    status: str  # gate's PASS / FAIL / INCONCLUSIVE / NO_DATA
    message: str
    change_percent: float | None
    ci_low_percent: float | None
    ci_high_percent: float | None
    q_value: float | None
    worse: bool  # the change goes the measure's bad way (significant or not)
    significant: bool = False
    outcome: str = INCONCLUSIVE  # better, worse, equivalent or inconclusive (stats.verdict)
    ci_level: float | None = None  # the CI's confidence level
    to_decide: int | None = None  # repetitions a side that would decide an inconclusive outcome

    @property
    def is_calls(self) -> bool:
        return self.measure.startswith(CALLS)


@dataclass(frozen=True)
class FlagDiff:
    name: str
    base: str | None  # None: the flag does not exist on that side's JDK
    new: str | None


@dataclass(frozen=True)
class Regression:
    experiment_id: int
    name: str
    base: Side
    new: Side
    threshold_percent: float
    alpha: float
    measures: tuple[MeasureRow, ...]
    frames: tuple[FrameChange, ...]  # every frame of either side, largest change of total share first
    profiles: tuple[int, int]  # profiles read per side
    base_profile: Profile | None  # each side's trials merged (for the differential flame graph)
    new_profile: Profile | None
    profile_note: str
    flags: tuple[FlagDiff, ...]
    events: tuple[EventDelta, ...]
    event_note: str
    hints: tuple[HintMatch, ...]
    repetitions: int = 0  # successful trials on the side with fewer
    rounds: Rounds | None = None  # repetitions = "auto": the looks and why they stopped

    @property
    def stopped(self) -> str | None:
        return None if self.rounds is None else self.rounds.stopped

    @property
    def regressed(self) -> tuple[MeasureRow, ...]:
        """Measures of performance significantly worse (call counts are evidence, not the verdict)."""
        return tuple(m for m in self.measures if m.status == FAIL and not m.is_calls)

    @property
    def inconclusive(self) -> tuple[MeasureRow, ...]:
        return tuple(m for m in self.measures if m.status == INCONCLUSIVE)

    def exit_code(self, inconclusive_fails: bool = True) -> int:
        """1 when regressed, or when a measure is inconclusive and that fails (as `jvmlab gate`)."""
        undecided = inconclusive_fails and any(not m.is_calls for m in self.inconclusive)
        return EXIT_REGRESSED if self.regressed or undecided else EXIT_NO_REGRESSION

    @property
    def significant_frames(self) -> tuple[FrameChange, ...]:
        return tuple(f for f in self.frames if f.significant)


def primary_change(c: Comparison, base: Cell, new: Cell) -> Change:
    """The primary measure's change tested on its own: named before the run, it is one hypothesis, not
    one of many (its q-value is its p-value), as jvmlab.verify judges a targeted measure."""
    if c.sequential is not None:  # repetitions = "auto": at the share of alpha of the look that stopped
        return sequential_change(c.sequential, base.values, new.values)
    return tested_alone(relative_change(base.values, new.values, alpha=c.alpha), c.alpha)


def measure_rows(
    c: Comparison, base: str, new: str, threshold: float, extra: Sequence[str] = ()
) -> list[MeasureRow]:
    """Each headline measure of `new` against `base` at each level (or the whole run). The first, the
    workload's own metric (or throughput at each load level), is the primary measure, tested on its own;
    the others' q-values are adjusted together (Benjamini-Hochberg), as in `jvmlab compare`."""
    names = headline_measures(c.metric, any(b.level is not None for b in c.blocks), c.measures)
    primary = names[0] if names else None
    names = list(dict.fromkeys([*names, *(m for m in extra if m in c.measures)]))
    names = [n for n in names if not n.startswith(CALLS)]  # calls are evidence: beside the JFR events
    rows = []
    for block in c.blocks:
        for name in names:
            cells = block.cells.get(name, {})
            b, n = cells.get(base), cells.get(new)
            if b is None or n is None or n.change is None or b.estimate.n == 0 or n.estimate.n == 0:
                continue
            m = c.measures[name]
            if m.higher_is_better is None:
                continue
            if b.estimate.mean == n.estimate.mean == 0:
                continue
            ch = primary_change(c, b, n) if name == primary else n.change
            status, message = judge_regression(c, name, ch, threshold, base)
            verdict = judge(ch, threshold)
            rows.append(
                MeasureRow(
                    name,
                    m.label,
                    m.unit,
                    block.level,
                    b.estimate,
                    n.estimate,
                    status,
                    message,
                    ch.percent,
                    ch.ci_low_percent,
                    ch.ci_high_percent,
                    ch.q_value,
                    ch.percent is not None and m.better(ch.percent) is False,
                    bool(ch.significant),
                    directed(verdict.outcome, m.higher_is_better),
                    ch.level if ch.ci_low_percent is not None else None,
                    repetitions_to_decide(verdict),
                )
            )
    return rows


def flag_diff(environment: dict, base: str, new: str) -> list[FlagDiff]:
    """The -XX:+PrintFlagsFinal values that differ between the two variants (ergonomics included)."""
    checks = environment.get("flag_checks", {})
    b = checks.get(base, {}).get("flags_final") or {}
    n = checks.get(new, {}).get("flags_final") or {}
    names = sorted((set(b) | set(n)) - RANDOM_FLAGS)
    return [FlagDiff(k, b.get(k), n.get(k)) for k in names if b.get(k) != n.get(k)]


def event_deltas(
    base: Sequence[dict[str, int]], new: Sequence[dict[str, int]], alpha: float
) -> list[EventDelta]:
    """Per counted event type present on either side: mean count per trial and its change, judged as every
    metric of jvmlab is (stats.compare_metrics: the log ratio's CI and test, Benjamini-Hochberg across the
    event types)."""
    calls = sorted({k for c in [*base, *new] for k in c if k.startswith(CALLS)})
    names = [e for e in [*COUNTED_EVENTS, *calls] if any(c.get(e) for c in [*base, *new])]
    if not base or not new or not names:
        return []
    b = {e: [float(c.get(e, 0)) for c in base] for e in names}
    n = {e: [float(c.get(e, 0)) for c in new] for e in names}
    changes = compare_metrics(b, n, alpha=alpha)
    out = [EventDelta(e, float(np.mean(b[e])), float(np.mean(n[e])), changes[e]) for e in names]
    return sorted(out, key=lambda d: (not d.changed, -abs(d.change.percent or 0.0)))


def _jfr_tool() -> Path | None:
    """The newest installed JDK's `jfr` (a newer tool reads older recordings)."""
    from jvmlab.jdk.discovery import installed_jdks
    from jvmlab.jdk.tools import find_tool

    return find_tool("jfr", None, sorted(installed_jdks(), key=lambda j: j.major, reverse=True))


def trial_events(store: Store, trials: Sequence[TrialRow]) -> tuple[list[dict[str, int]], str]:
    """JFR event counts of each trial with a recording, and its counted methods' calls (`calls:PATTERN`); a
    note when some could not be read."""
    from jvmlab.errors import JvmLabError
    from jvmlab.jfr.events import event_counts

    tool = _jfr_tool()
    if tool is None:
        return [], "no installed JDK has the jfr tool to read the recordings: no event counts"
    counts, problems = [], []
    for t in trials:
        counted = {CALLS + p: int(calls_of(t, p) or 0) for p in ((t.counts or {}).get("calls") or {})}
        path = store.artifacts(t.id).get("jfr")
        if not path or not Path(path).is_file():
            problems.append(f"trial {t.key}: no recording")
            continue
        try:
            counts.append({**event_counts(Path(path), tool), **counted})
        except JvmLabError as e:
            problems.append(f"trial {t.key}: {e}")
    return counts, "; ".join(problems)


def _profiles(store: Store, experiment_id: int, variant: str) -> list[Profile]:
    from jvmlab.experiment.analysis.profiles import safe_variant_profiles

    return safe_variant_profiles(store, experiment_id, variant, "cpu")


def analyse(
    store: Store,
    experiment_id: int,
    base: Side,
    new: Side,
    *,
    threshold_percent: float = DEFAULT_THRESHOLD_PERCENT,
    extra_measures: Sequence[str] = (),
) -> Regression:
    from jvmlab.profile.model import merge

    c = stored_comparison(store, str(experiment_id), baseline=base.variant)  # as regress_spec sets it
    exp = store.experiment(str(experiment_id))
    assert exp is not None
    trials = [t for t in store.trials(experiment_id) if t.state == OK]
    by_side = {v: [t for t in trials if t.variant == v] for v in (base.variant, new.variant)}
    rows = measure_rows(c, base.variant, new.variant, threshold_percent, extra_measures)
    bp, np_ = _profiles(store, experiment_id, base.variant), _profiles(store, experiment_id, new.variant)
    frames: list[FrameChange] = []
    note = ""
    if bp and np_:
        frames = frame_changes(bp, np_, alpha=c.alpha)
        if min(len(bp), len(np_)) < 2:
            note = "one profile on a side: frame changes without a CI"
    else:
        note = "no profiles on " + " and ".join(s.variant for s, p in ((base, bp), (new, np_)) if not p)
    b_counts, b_note = trial_events(store, by_side[base.variant])
    n_counts, n_note = trial_events(store, by_side[new.variant])
    events = event_deltas(b_counts, n_counts, c.alpha) if b_counts and n_counts else []
    majors = {v: (ts[0].jdk_info or {}).get("major") if ts else None for v, ts in by_side.items()}
    hints = match_hints(frames, events, base_major=majors[base.variant], new_major=majors[new.variant])
    return Regression(
        experiment_id=experiment_id,
        name=exp.name,
        base=base,
        new=new,
        threshold_percent=threshold_percent,
        alpha=c.alpha,
        measures=tuple(rows),
        frames=tuple(frames),
        profiles=(len(bp), len(np_)),
        base_profile=merge(bp) if bp else None,
        new_profile=merge(np_) if np_ else None,
        profile_note=note,
        flags=tuple(flag_diff(exp.environment, base.variant, new.variant)),
        events=tuple(events),
        event_note="; ".join(x for x in (b_note, n_note) if x),
        hints=tuple(hints),
        repetitions=min(len(ts) for ts in by_side.values()),
        rounds=stored_rounds(exp.environment),
    )


def repetitions_text(repetitions: int, stopped: str | None) -> str:
    """'3 repetitions a side', with how "auto" ended."""
    how = {DECIDED: "auto: decided", MAX_REPETITIONS: "auto: budget spent", MAX_MINUTES: "auto: time spent"}
    said = f" ({how[stopped]})" if stopped in how else ""
    return f"{repetitions} repetitions a side{said}"


def without_data(r: Regression) -> bool:
    return all(m.status == NO_DATA for m in r.measures)
