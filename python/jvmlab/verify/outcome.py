"""What the follow-up experiment says of each recommendation, against the current flags:

- confirmed: the targeted measure moved the expected way, significantly (p < alpha, the CI of the change
  excludes 0: the recommendation names its measure before the run, so it is one hypothesis and its p-value
  is not adjusted), and no guard measure got significantly worse;
- harmful: the targeted measure moved the wrong way significantly, or a guard measure got significantly
  worse (the workload's own metric, throughput, P99 latency, GC overhead);
- not confirmed: neither (the data cannot tell at this many repetitions).

Measures of the whole run (GC counts, pauses, overhead) compare each trial's figures; latency and
throughput compare each load level's. Side effects and guards: every other measure that changed
significantly, q < alpha after Benjamini-Hochberg across the measures compared together.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from pydantic import BaseModel, ConfigDict

from jvmlab.experiment.analysis.comparison import Comparison
from jvmlab.experiment.storage import TrialRow
from jvmlab.stats import Change, compare_metrics, is_significant
from jvmlab.verify.plan import CURRENT, Candidate

CONFIRMED, NOT_CONFIRMED, HARMFUL = "confirmed", "not confirmed", "harmful"
GUARDS = ("throughput_rps", "p99_ms", "gc_overhead_percent")


class MeasuredChange(BaseModel):
    model_config = ConfigDict(frozen=True)

    measure: str
    level: str | None  # None: the whole run
    percent: float | None
    ci_low_percent: float | None
    ci_high_percent: float | None
    p_value: float | None = None  # absent in verdicts stored before it was kept
    q_value: float | None
    significant: bool
    better: bool | None

    def describe(self) -> str:
        where = f" at {self.level}" if self.level else ""
        if self.percent is None:
            return f"{self.measure}{where}: no change measurable"
        ci = (
            f" [{self.ci_low_percent:+.1f}, {self.ci_high_percent:+.1f}]"
            if self.ci_low_percent is not None and self.ci_high_percent is not None
            else ""
        )
        word = {True: "better", False: "worse", None: ""}[self.better]
        return f"{self.measure}{where} {self.percent:+.1f}%{ci} {word}".rstrip()


class RecommendationResult(BaseModel):
    """One recommendation as the follow-up experiment judged it (stored with that experiment)."""

    model_config = ConfigDict(frozen=True)

    finding_id: str
    title: str
    flag_set: str
    changes: str
    measure: str
    direction: str
    verdict: str
    target: list[MeasuredChange]
    side_effects: list[MeasuredChange]
    trials: int


def trial_changes(
    comparison: Comparison, ok: Mapping[str, Sequence[TrialRow]], base: str, variant: str
) -> dict[str, Change]:
    """Whole-run measures (read from each trial) of `variant` against `base`."""
    table = {n: m for n, m in comparison.measures.items() if m.of_trial is not None}

    def values(rows: Sequence[TrialRow]) -> dict[str, list[float | None]]:
        return {n: [m.of_trial(t) for t in rows] for n, m in table.items()}  # type: ignore[misc]

    return compare_metrics(values(ok[base]), values(ok[variant]), alpha=comparison.alpha)


def measured(comparison: Comparison, name: str, level: str | None, change: Change) -> MeasuredChange:
    m = comparison.measures.get(name)
    better = m.better(change.percent) if m is not None and change.percent is not None else None
    return MeasuredChange(
        measure=name,
        level=level,
        percent=change.percent,
        ci_low_percent=change.ci_low_percent,
        ci_high_percent=change.ci_high_percent,
        p_value=change.p_value,
        q_value=change.q_value,
        significant=bool(change.significant),
        better=better if change.significant else None,
    )


def as_target(c: MeasuredChange, comparison: Comparison, alpha: float) -> MeasuredChange:
    """The targeted measure judged on its own p-value (one hypothesis named before the run), its CI
    excluding 0."""
    ci = (c.ci_low_percent, c.ci_high_percent)
    significant = c.p_value is not None and is_significant(c.p_value, ci, 0.0, alpha)
    m = comparison.measures.get(c.measure)
    better = m.better(c.percent) if m is not None and c.percent is not None and significant else None
    return c.model_copy(update={"significant": significant, "better": better})


def all_changes(
    comparison: Comparison, ok: Mapping[str, Sequence[TrialRow]], base: str, variant: str
) -> list[MeasuredChange]:
    out = [measured(comparison, n, None, c) for n, c in trial_changes(comparison, ok, base, variant).items()]
    for block in comparison.blocks:
        if block.level is None:
            continue
        for name, by_variant in block.cells.items():
            cell = by_variant.get(variant)
            if cell is not None and cell.change is not None:
                out.append(measured(comparison, name, block.level, cell.change))
    return out


def judge(cand: Candidate, target: Sequence[MeasuredChange], guards: Sequence[MeasuredChange]) -> str:
    expected_better = [c for c in target if c.significant and c.better is True]
    worse = [c for c in target if c.significant and c.better is False]
    if worse or any(g.significant and g.better is False for g in guards):
        return HARMFUL
    return CONFIRMED if expected_better else NOT_CONFIRMED


def result(
    cand: Candidate, verdict: str, changes: Sequence[MeasuredChange], trials: int
) -> RecommendationResult:
    return RecommendationResult(
        finding_id=cand.finding_id,
        title=cand.title,
        flag_set=cand.flag_set,
        changes=cand.changes,
        measure=cand.measure,
        direction=cand.direction,
        verdict=verdict,
        target=[c for c in changes if c.measure == cand.measure],
        side_effects=[c for c in changes if c.measure != cand.measure and c.significant],
        trials=trials,
    )


def verification_results(
    comparison: Comparison, trials: Sequence[TrialRow], cands: Sequence[Candidate]
) -> list[RecommendationResult]:
    """Each candidate's flag set against the current flags, on the one JDK of the follow-up experiment."""
    from jvmlab.experiment.storage import OK

    ok: dict[str, list[TrialRow]] = {}
    for t in trials:
        if t.state == OK:
            ok.setdefault(t.flag_set, []).append(t)
    guards_named = set(GUARDS) | ({comparison.metric} if comparison.metric else set())
    results = []
    for cand in cands:
        mine = ok.get(cand.flag_set, [])
        if not mine or CURRENT not in ok:
            results.append(result(cand, NOT_CONFIRMED, [], len(mine)))
            continue
        base, variant = ok[CURRENT][0].variant, mine[0].variant
        changes = all_changes(comparison, {base: ok[CURRENT], variant: mine}, base, variant)
        changes = [
            as_target(c, comparison, comparison.alpha) if c.measure == cand.measure else c for c in changes
        ]
        target = [c for c in changes if c.measure == cand.measure]
        guards = [c for c in changes if c.measure in guards_named and c.measure != cand.measure]
        results.append(result(cand, judge(cand, target, guards), changes, len(mine)))
    return results
