"""What the follow-up experiment says of each recommendation, against the current flags, in the three
outcomes of every verdict of jvmlab (docs/methodology.md#verdicts) read as a flag's:

- confirmed: the targeted measure got better (significant, p < alpha: the recommendation names its measure
  before the run, so it is one hypothesis and its p-value is not adjusted; and beyond the threshold), and
  no guard measure got worse;
- harmful: the targeted measure got worse, or a guard measure did (the workload's own metric, throughput,
  P99 latency, GC overhead);
- no effect: the targeted measure is equivalent (its whole CI within +-threshold);
- inconclusive: none of these at this many repetitions; more decide it (the follow-up runs rounds until the
  targeted measures are decided, within its budget: experiment.auto_repetitions).

Measures of the whole run (GC counts, pauses, overhead) compare each trial's figures; latency and
throughput compare each load level's. Side effects and guards: every other measure judged with the
Benjamini-Hochberg correction across the measures compared together.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence

from pydantic import BaseModel, ConfigDict

from jvmlab.experiment.analysis.comparison import Comparison
from jvmlab.experiment.analysis.measures import guards
from jvmlab.experiment.storage import TrialRow
from jvmlab.stats import (
    BETTER,
    DEFAULT_THRESHOLD_PERCENT,
    INCONCLUSIVE,
    WORSE,
    Change,
    compare_metrics,
    directed,
    flag_verdict,
    judge,
    tested_alone,
)
from jvmlab.verify.plan import CURRENT, Candidate


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
    outcome: str | None = None  # better, worse, equivalent, inconclusive (absent in older stored verdicts)
    ci_level: float | None = None  # the CI's confidence level

    def describe(self) -> str:
        where = f" at {self.level}" if self.level else ""
        if self.percent is None:
            return f"{self.measure}{where}: no change measurable"
        ci = (
            f" [{self.ci_low_percent:+.1f}, {self.ci_high_percent:+.1f}]"
            if self.ci_low_percent is not None and self.ci_high_percent is not None
            else ""
        )
        word = self.outcome or {True: "better", False: "worse", None: ""}[self.better]
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


def measured(
    comparison: Comparison,
    name: str,
    level: str | None,
    change: Change,
    threshold_percent: float = DEFAULT_THRESHOLD_PERCENT,
) -> MeasuredChange:
    m = comparison.measures.get(name)
    higher = m.higher_is_better if m is not None else None
    outcome = directed(judge(change, threshold_percent).outcome, higher)
    return MeasuredChange(
        measure=name,
        level=level,
        percent=change.percent,
        ci_low_percent=_bounded(change.ci_low_percent),  # stored as JSON: an unbounded end is none
        ci_high_percent=_bounded(change.ci_high_percent),
        p_value=change.p_value,
        q_value=change.q_value,
        significant=bool(change.significant),
        better={BETTER: True, WORSE: False}.get(outcome),
        outcome=outcome,
        ci_level=change.level,
    )


def _bounded(x: float | None) -> float | None:
    return x if x is not None and math.isfinite(x) else None


def all_changes(
    comparison: Comparison,
    ok: Mapping[str, Sequence[TrialRow]],
    base: str,
    variant: str,
    target: str | None = None,
    threshold_percent: float = DEFAULT_THRESHOLD_PERCENT,
) -> list[MeasuredChange]:
    """Every measure of `variant` against `base`; `target`, the measure a recommendation names before the
    run, tested on its own (its p-value unadjusted, its CI at 1 - alpha)."""

    def one(name: str, level: str | None, change: Change) -> MeasuredChange:
        if name == target:
            change = tested_alone(change, target_alpha(comparison, change))
        return measured(comparison, name, level, change, threshold_percent)

    out = [one(n, None, c) for n, c in trial_changes(comparison, ok, base, variant).items()]
    for block in comparison.blocks:
        if block.level is None:
            continue
        for name, by_variant in block.cells.items():
            cell = by_variant.get(variant)
            if cell is not None and cell.change is not None:
                out.append(one(name, block.level, cell.change))
    return out


def target_alpha(comparison: Comparison, change: Change) -> float:
    """The targeted measure's test level: alpha, or under `repetitions = "auto"` the share of alpha of the
    look at its number of values a side."""
    if comparison.sequential is None:
        return comparison.alpha
    return comparison.sequential.level_at(min(change.n_baseline, change.n_variant))


def judge_candidate(target: Sequence[MeasuredChange], guarding: Sequence[MeasuredChange]) -> str:
    """The flag verdict (stats.flag_verdict) from the targeted measure's outcomes and the guards'."""
    return flag_verdict(
        [c.outcome or INCONCLUSIVE for c in target], [g.outcome or INCONCLUSIVE for g in guarding]
    )


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
        side_effects=[c for c in changes if c.measure != cand.measure and c.outcome in (BETTER, WORSE)],
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
    results = []
    for cand in cands:
        mine = ok.get(cand.flag_set, [])
        if not mine or CURRENT not in ok:
            results.append(result(cand, INCONCLUSIVE, [], len(mine)))
            continue
        base, variant = ok[CURRENT][0].variant, mine[0].variant
        sides = {base: ok[CURRENT], variant: mine}
        changes = all_changes(comparison, sides, base, variant, cand.measure, comparison.threshold_percent)
        target = [c for c in changes if c.measure == cand.measure]
        guarding = [c for c in guards(changes, comparison.metric) if c.measure != cand.measure]
        results.append(result(cand, judge_candidate(target, guarding), changes, len(mine)))
    return results
