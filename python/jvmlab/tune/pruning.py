"""Pruning a candidate from its early time series (docs/tune.md#pruning): while its first trial runs, the
running mean of the workload's metric is reported to Optuna each second; the candidate is stopped when
that mean is clearly worse than most earlier candidates' at the same second: below their lower quartile by
more than a margin (for a metric to maximise; above the upper quartile to minimise). The margin keeps the
noise of one trial from pruning a candidate that would have been as good (bench/tune_search.py measures
how often that happens)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import numpy as np
import optuna

from jvmlab.experiment.spec import ExperimentSpec

if TYPE_CHECKING:
    from jvmlab.tune.objectives import Objective

QUARTILE = 25.0  # compared with the earlier candidates' lower quartile (upper, to minimise)
MARGIN = 0.10  # and clearly beyond it: by more than 10 %
PRUNE_STARTUP = 4  # candidates measured in full before any is pruned
PRUNE_WARMUP_S = 5  # no pruning in the first seconds of a trial (beyond the spec's trial.warmup_s)


def _at(values: dict[int, float], step: int) -> float | None:
    """The value reported at `step`, else the last one before it."""
    earlier = [k for k in values if k <= step]
    return values[max(earlier)] if earlier else None


class TrailingPruner(optuna.pruners.BasePruner):
    """Prunes a trial whose latest value is worse than the earlier complete trials' quartile at the same
    step by more than `margin` (relative)."""

    def __init__(self, *, startup: int = PRUNE_STARTUP, warmup_steps: int = PRUNE_WARMUP_S,
                 quartile: float = QUARTILE, margin: float = MARGIN) -> None:  # fmt: skip
        self.startup, self.warmup_steps, self.quartile, self.margin = startup, warmup_steps, quartile, margin

    def prune(self, study: optuna.Study, trial: optuna.trial.FrozenTrial) -> bool:
        step = trial.last_step
        if step is None or step < self.warmup_steps:
            return False
        complete = study.get_trials(deepcopy=False, states=(optuna.trial.TrialState.COMPLETE,))
        others = [v for t in complete if (v := _at(t.intermediate_values, step)) is not None]
        if len(others) < self.startup:
            return False
        mine = trial.intermediate_values[step]
        if study.direction == optuna.study.StudyDirection.MAXIMIZE:
            return mine < float(np.percentile(others, self.quartile)) * (1 - self.margin)
        return mine > float(np.percentile(others, 100 - self.quartile)) * (1 + self.margin)


class PruningProgress:
    """The runner's progress, with the pruner fed the running mean of the workload's metric."""

    def __init__(self, inner: Any, trial: optuna.Trial):
        self.inner, self.trial = inner, trial
        self.sum, self.n, self.last_step = 0.0, 0, -1

    def trial_started(self, *args: Any) -> None:
        self.inner.trial_started(*args)

    def trial_finished(self, *args: Any) -> None:
        self.inner.trial_finished(*args)

    def metric(self, t_s: float, value: float) -> str | None:
        self.inner.metric(t_s, value)
        self.sum, self.n = self.sum + value, self.n + 1
        step = int(t_s)
        if step <= self.last_step:
            return None
        self.last_step = step
        mean = self.sum / self.n
        self.trial.report(mean, step)
        if self.trial.should_prune():
            shown = f"{mean:,.0f}" if abs(mean) >= 1000 else f"{mean:.4g}"
            return f"pruned at {t_s:.0f} s: running mean {shown} clearly trails the earlier candidates"
        return None


def make_pruner(spec: ExperimentSpec, objectives: Sequence[Objective]) -> optuna.pruners.BasePruner | None:
    """The trailing pruner when the one objective is the workload's metric over the whole run."""
    tune = spec.tune
    metric = spec.workload.metric
    if tune is None or not tune.prune or len(objectives) != 1 or metric is None:
        return None
    if objectives[0].measure.name != metric.name or objectives[0].level is not None:
        return None
    # Steps are seconds since the JVM started: its start-up and the first seconds of work say little.
    return TrailingPruner(warmup_steps=int(spec.trial.warmup_s) + PRUNE_WARMUP_S)
