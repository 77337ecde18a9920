"""The comparison of a stored experiment's variants: per measure (and per load level), each variant's
estimate over its repetitions and its change against its baseline with significance, the goals judged, the
workload metric's warm-up and steady state, and the measurement's quality warnings (docs/methodology.md).

Built from the store's rows only: the CLI, the HTML report, the exports and the gate all read this.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from jvmlab.errors import JvmLabError
from jvmlab.experiment.analysis.goals import GoalVerdict, goals_for, judge_variant
from jvmlab.experiment.analysis.measures import STEADY, Measure, measures, primary_measures
from jvmlab.experiment.analysis.results import metric_series, ordering
from jvmlab.experiment.spec import ExperimentSpec, stored_spec
from jvmlab.experiment.storage import OK, ExperimentRow, LevelRow, Store, TrialRow, variant_key
from jvmlab.stats import (
    Change,
    Estimate,
    Observation,
    QualityWarning,
    SequentialPlan,
    SteadyState,
    Verdict,
    compare_metrics,
    consistency,
    estimates,
    judge,
    quality_warnings,
    relative_change,
    steady_state,
    tested_alone,
)

Values = dict[str, list[float | None]]  # measure -> one value per successful trial


@dataclass(frozen=True)
class Cell:
    """One measure of one variant: its estimate over the repetitions, and its change against the variant's
    baseline with its verdict against the threshold (None for the baseline itself, or without one)."""

    estimate: Estimate
    change: Change | None
    values: tuple[float | None, ...]
    verdict: Verdict | None = None


@dataclass(frozen=True)
class Block:
    """The comparison at one load level (`level` None: the whole run of an experiment without levels)."""

    level: str | None
    rate: float | None
    cells: dict[str, dict[str, Cell]]  # measure -> variant -> cell
    verdicts: list[GoalVerdict]


@dataclass(frozen=True)
class VariantInfo:
    variant: str
    jdk: str
    flag_set: str
    baseline: str | None  # the variant it is compared with; itself for a baseline
    trials: int
    ok: int
    steady: list[SteadyState] = field(default_factory=list)  # per successful trial with a metric series
    consistent: bool | None = None  # whether its repetitions' series got the same class
    container: str | None = None  # [matrix.containers]: the container its trials ran in


@dataclass(frozen=True)
class Comparison:
    experiment_id: int
    name: str
    status: str
    alpha: float
    threshold_percent: float  # within +-it a change is equivalent; beyond it, better or worse
    metric: str | None  # the workload's own metric, by name
    measures: dict[str, Measure]
    variants: list[VariantInfo]
    blocks: list[Block]
    warnings: list[QualityWarning]
    # repetitions = "auto": the looks' plan; each primary measure is then judged on its own at the share of
    # alpha of its last look (the look that stopped the rounds), not among the other measures
    sequential: SequentialPlan | None = None
    primary: tuple[str, ...] = ()

    def variant(self, name: str) -> VariantInfo:
        return next(v for v in self.variants if v.variant == name)


Coordinates = tuple[str, str] | tuple[str, str, str | None]  # (JDK, flag set[, container])


def resolve_baselines(variants: Sequence[Coordinates], baseline: str | None) -> dict[str, str | None]:
    """variant -> the variant it is compared with. `baseline`: a variant "JDK/flag set[/container]"
    (everything against it), a flag set (each variant against the same JDK and container with that flag
    set), a JDK (against that JDK's, same flag set and container) or a container (against that container's).
    Default: the flag set "default" where a JDK (in a container) has another flag set to compare with it, else
    the first variant."""
    full = [(v[0], v[1], v[2] if len(v) > 2 else None) for v in variants]
    keys = [variant_key(*v) for v in full]
    if baseline is None:
        per_jdk = resolve_baselines(full, "default") if any(fs == "default" for _, fs, _ in full) else {}
        if any(base not in (None, v) for v, base in per_jdk.items()):
            return per_jdk
        baseline = keys[0] if keys else None  # no JDK has another flag set: the JDKs against the first
    if baseline is None or baseline in keys:
        return {k: baseline for k in keys}
    for axis in range(3):  # a flag set, a JDK, a container
        at = (1, 0, 2)[axis]
        if any(v[at] == baseline for v in full):
            out: dict[str, str | None] = {}
            for v in full:
                base = variant_key(*(baseline if i == at else x for i, x in enumerate(v)))  # type: ignore[arg-type]
                out[variant_key(*v)] = base if base in keys else None
            return out
    raise JvmLabError(
        f"baseline {baseline!r} is neither a variant, a flag set, a JDK nor a container of this experiment; "
        f"variants: {', '.join(keys)}"
    )


def _steady(trial: TrialRow, series: Sequence[tuple[float, float]], higher: bool) -> SteadyState | None:
    if not series:
        return None
    points = np.asarray(series, dtype=float)
    ready = trial.ready_s or 0.0
    t, v = points[:, 0] - ready, points[:, 1]  # since readiness, as since_ready gives them
    kept = points[:, 0] >= ready
    t, v = t[kept], v[kept]
    order = np.lexsort((v, t))  # by time, then value: sorted() of the pairs
    t, v = t[order], v[order]
    first = np.concatenate([[True], np.diff(t) > 0])  # readings in the same instant: the first one
    if int(first.sum()) < 2:
        return None
    return steady_state(t[first], v[first], higher_is_better=higher)


def _trial_values(
    table: Mapping[str, Measure], trials: Sequence[TrialRow], steady: Mapping[int, SteadyState | None]
) -> Values:
    out: Values = {}
    for name, m in table.items():
        if name == STEADY:
            states = [steady.get(t.id) for t in trials]
            out[name] = [s.steady_mean if s is not None else None for s in states]
        elif m.of_trial is not None:
            out[name] = [m.of_trial(t) for t in trials]
    return out


def _level_values(table: Mapping[str, Measure], rows: Sequence[LevelRow]) -> Values:
    return {name: [m.of_level(r) for r in rows] for name, m in table.items() if m.of_level is not None}


def sequential_change(
    plan: SequentialPlan, base: Sequence[float | None], own: Sequence[float | None]
) -> Change:
    """A primary measure's change under `repetitions = "auto"`: on its own, at its look's share of alpha."""
    level = plan.level_at(min(_count(base), _count(own)))
    return tested_alone(relative_change(base, own, alpha=level), level)


def _count(values: Sequence[float | None]) -> int:
    return sum(v is not None for v in values)


def _block(
    level: tuple[str, float] | None,
    values: Mapping[str, Values],
    baselines: Mapping[str, str | None],
    spec: ExperimentSpec,
    sequential: SequentialPlan | None = None,
) -> Block:
    alpha, threshold = spec.compare.alpha, spec.compare.threshold_percent
    primary = primary_of(spec)
    cells: dict[str, dict[str, Cell]] = {}
    changes: dict[str, dict[str, Change]] = {}
    for variant, own in values.items():
        base = baselines.get(variant)
        if base is not None and base != variant and base in values:
            # the primary measures are the hypotheses named before the run: each on its own (at its look's
            # share of alpha under "auto"); the others together, Benjamini-Hochberg
            changes[variant] = compare_metrics(
                {m: v for m, v in values[base].items() if m not in primary},
                {m: v for m, v in own.items() if m not in primary},
                alpha=alpha,
            )
            for m in primary:
                if m in own and m in values[base]:
                    changes[variant][m] = (
                        sequential_change(sequential, values[base][m], own[m])
                        if sequential is not None
                        else tested_alone(relative_change(values[base][m], own[m], alpha=alpha), alpha)
                    )
    keys = [(variant, measure) for variant, own in values.items() for measure in own]
    figures = estimates([values[variant][measure] for variant, measure in keys])
    for (variant, measure), figure in zip(keys, figures, strict=True):
        change = changes.get(variant, {}).get(measure)
        judged = None if change is None else judge(change, threshold)
        cells.setdefault(measure, {})[variant] = Cell(figure, change, tuple(values[variant][measure]), judged)
    name = level[0] if level else None
    verdicts = []
    for goal in goals_for(spec.goals, name):
        for variant in values:
            if goal.relative and baselines.get(variant) == variant:
                continue  # a baseline is not compared with itself
            found = cells.get(goal.measure, {}).get(variant)
            if found is not None:
                verdicts.append(judge_variant(goal, variant, name, found.estimate, found.change))
    return Block(name, level[1] if level else None, cells, verdicts)


def compare_experiment(
    exp: ExperimentRow,
    trials: Sequence[TrialRow],
    levels: Mapping[int, Sequence[LevelRow]],
    metric_series: Mapping[int, Sequence[tuple[float, float]]],
    *,
    baseline: str | None = None,
    alpha: float | None = None,
    threshold_percent: float | None = None,
) -> Comparison:
    """The comparison of an experiment from its stored rows (`levels`: trial id -> its levels;
    `metric_series`: trial id -> the workload metric's points); `baseline`, `alpha` and
    `threshold_percent` override the spec's [compare]."""
    spec = _with_compare(
        stored_spec(exp.spec, experiment=f"{exp.name} (#{exp.id})"), baseline, alpha, threshold_percent
    )
    by_variant = _by_variant(trials)
    pairs = [(rows[0].jdk, rows[0].flag_set, rows[0].container) for rows in by_variant.values()]
    baselines = resolve_baselines(pairs, spec.compare.baseline)
    return _compared(spec, exp, by_variant, baselines, levels, metric_series, sequential_plan(spec))


def _with_compare(
    spec: ExperimentSpec, baseline: str | None, alpha: float | None, threshold_percent: float | None
) -> ExperimentSpec:
    given = {"baseline": baseline, "alpha": alpha, "threshold_percent": threshold_percent}
    update = {k: v for k, v in given.items() if v is not None}
    if update:
        spec = spec.model_copy(update={"compare": spec.compare.model_copy(update=update)})
    return spec


def _by_variant(trials: Sequence[TrialRow]) -> dict[str, list[TrialRow]]:
    by_variant: dict[str, list[TrialRow]] = {}
    for t in sorted(trials, key=ordering):
        by_variant.setdefault(t.variant, []).append(t)
    return by_variant


def _compared(
    spec: ExperimentSpec,
    exp: ExperimentRow,
    by_variant: Mapping[str, Sequence[TrialRow]],
    baselines: Mapping[str, str | None],
    levels: Mapping[int, Sequence[LevelRow]],
    metric_series: Mapping[int, Sequence[tuple[float, float]]],
    sequential: SequentialPlan | None,
) -> Comparison:
    metric = spec.workload.metric
    table = measures(metric, spec.telemetry.count)
    ordered = sorted((t for rows in by_variant.values() for t in rows), key=ordering)
    higher = metric.higher_is_better if metric else True
    # Under load levels the metric follows the load's steps: its changepoints are not warm-up.
    series = metric_series if spec.load is None else {}
    steady = {t.id: _steady(t, series.get(t.id, []), higher) for t in ordered if t.state == OK}
    infos = [_info(v, rows, baselines[v], steady) for v, rows in by_variant.items()]
    ok = {v: [t for t in rows if t.state == OK] for v, rows in by_variant.items()}
    blocks = []
    if spec.load is None:
        values = {v: _trial_values(table, rows, steady) for v, rows in ok.items()}
        blocks.append(_block(None, values, baselines, spec, sequential))
    for position, lv in enumerate(spec.load.levels if spec.load else []):
        at = {
            v: [r for t in rows for r in levels.get(t.id, []) if r.position == position]
            for v, rows in ok.items()
        }
        values = {v: _level_values(table, rows) for v, rows in at.items() if rows}
        blocks.append(_block((lv.label, lv.rate), values, baselines, spec, sequential))
    warnings = _warnings(spec, ordered, levels)
    name = metric.name if metric else None
    return Comparison(
        exp.id,
        exp.name,
        exp.status,
        spec.compare.alpha,
        spec.compare.threshold_percent,
        name,
        table,
        infos,
        blocks,
        warnings,
        sequential,
        primary_of(spec),
    )


Pick = tuple[int, str]  # (experiment id, variant)


def picked_comparison(
    store: Store,
    picks: Sequence[Pick],
    *,
    alpha: float | None = None,
    threshold_percent: float | None = None,
) -> Comparison:
    """Variants picked from stored experiments of one workload, each against the first, as `jvmlab compare`
    compares the variants of one experiment (the first experiment's [compare] settings). A variant is named
    `#ID VARIANT`. JvmLabError when a pick names nothing, or the experiments ran different workloads."""
    if len(picks) < 2:
        raise JvmLabError("pick two variants or more (experiment id and variant)")
    if len(set(picks)) != len(picks):
        raise JvmLabError("a variant is picked twice")
    rows: dict[str, list[TrialRow]] = {}
    specs: list[tuple[ExperimentRow, ExperimentSpec]] = []
    for exp_id, variant in picks:
        exp = store.experiment(exp_id)
        if exp is None:
            raise JvmLabError(f"no experiment {exp_id}")
        trials = store.trials(exp.id)
        mine = [t for t in trials if t.variant == variant]
        if not mine:
            have = ", ".join(dict.fromkeys(t.variant for t in trials))
            raise JvmLabError(f"experiment {exp_id} has no variant {variant!r} (it has {have})")
        specs.append((exp, stored_spec(exp.spec, experiment=f"{exp.name} (#{exp.id})")))
        label = f"#{exp_id} {variant}"
        for t in mine:
            t.variant = label  # the trials are detached from the store: a name for this comparison only
        rows[label] = sorted(mine, key=ordering)
    first, spec = specs[0]
    for exp, other in specs[1:]:
        if _workload(other) != _workload(spec):
            raise JvmLabError(
                f"experiments {first.id} and {exp.id} ran different workloads (command, metric or load "
                "levels): their variants do not compare"
            )
    spec = _with_compare(spec, None, alpha, threshold_percent)
    labels = list(rows)
    baselines = {label: (None if i == 0 else labels[0]) for i, label in enumerate(labels)}
    trials = [t for r in rows.values() for t in r]
    levels = store.levels(t.id for t in trials)
    return _compared(spec, first, rows, baselines, levels, metric_series(store, trials), None)


def _workload(spec: ExperimentSpec) -> tuple[Any, ...]:
    metric = spec.workload.metric
    steps = tuple((lv.label, lv.rate) for lv in spec.load.levels) if spec.load else ()
    return (tuple(spec.workload.command), metric.name if metric else None, steps)


def primary_of(spec: ExperimentSpec) -> tuple[str, ...]:
    """The spec's primary measures ([compare] primary), else the workload's (measures.primary_measures)."""
    if spec.compare.primary:
        return tuple(spec.compare.primary)
    metric = spec.workload.metric
    return primary_measures(metric.name if metric else None, spec.load is not None)


def sequential_plan(spec: ExperimentSpec) -> SequentialPlan | None:
    """The looks of a `repetitions = "auto"` experiment (None for a fixed number of repetitions)."""
    if not spec.matrix.auto:
        return None
    c = spec.compare
    return SequentialPlan(
        c.alpha, c.threshold_percent, spec.matrix.planned_repetitions, spec.matrix.max_repetitions
    )


def _info(
    variant: str, rows: Sequence[TrialRow], baseline: str | None, steady: Mapping[int, SteadyState | None]
) -> VariantInfo:
    states = [s for t in rows if (s := steady.get(t.id)) is not None]
    consistent = consistency([s.classification for s in states]) if len(states) > 1 else None
    ok = sum(t.state == OK for t in rows)
    first = rows[0]
    return VariantInfo(
        variant, first.jdk, first.flag_set, baseline, len(rows), ok, states, consistent, first.container
    )


def _observation(t: TrialRow, value: float | None) -> Observation:
    process: dict[str, Any] = t.process or {}
    return Observation(
        t.variant,
        t.repetition,
        t.position,
        value,
        process.get("swap_peak_bytes"),
        process.get("major_faults"),
    )


def _warnings(
    spec: ExperimentSpec, trials: Sequence[TrialRow], levels: Mapping[int, Sequence[LevelRow]]
) -> list[QualityWarning]:
    """Quality warnings on the main measure: the workload metric, else the run time; with load levels, the
    P99 latency at the highest level."""
    ok = [t for t in trials if t.state == OK]
    metric = spec.workload.metric
    table = measures(metric, spec.telemetry.count)
    if spec.load is not None:
        top = len(spec.load.levels) - 1
        read = table["p99_ms"].of_level
        assert read is not None
        obs = [_observation(t, read(r)) for t in ok for r in levels.get(t.id, []) if r.position == top]
        label = f"P99 latency at {spec.load.levels[top].label}"
        return quality_warnings(obs, metric=label, higher_is_better=False)
    name = metric.name if metric else "elapsed_s"
    read_trial = table[name].of_trial
    assert read_trial is not None
    obs = [_observation(t, read_trial(t)) for t in ok]
    return quality_warnings(obs, metric=name, higher_is_better=table[name].higher_is_better is not False)


def stored_comparison(
    store: Store,
    ref: str | None,
    *,
    baseline: str | None = None,
    alpha: float | None = None,
    threshold_percent: float | None = None,
) -> Comparison:
    """The comparison of a stored experiment (`ref`: its id or name; None: the latest)."""
    exp = store.find_experiment(ref)
    trials = store.trials(exp.id)
    levels = store.levels(t.id for t in trials)
    series = metric_series(store, trials)
    return compare_experiment(
        exp, trials, levels, series, baseline=baseline, alpha=alpha, threshold_percent=threshold_percent
    )
