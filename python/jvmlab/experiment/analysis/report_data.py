"""Everything the HTML report of a stored experiment shows, read at once: the comparison, the trials and
their files, the workload metric's and RSS's series, the load levels, and per variant one trial's GC log,
parsed and summarised. The report's page (jvmlab.report.experiment.page) only lays this out."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

import polars as pl

from jvmlab.advise import Advice
from jvmlab.errors import UsageError
from jvmlab.experiment.analysis.advice import experiment_advice
from jvmlab.experiment.analysis.comparison import Comparison, stored_comparison
from jvmlab.experiment.analysis.jit import TrialJit, experiment_jit
from jvmlab.experiment.analysis.profiles import events_of, safe_variant_profiles
from jvmlab.experiment.storage import OK, ExperimentRow, LevelRow, Store, TrialRow
from jvmlab.experiment.storage.artifacts import CODE_HEAP_SERIES
from jvmlab.metrics.summary import GcSummary
from jvmlab.profile.model import Profile, merge


@dataclass(frozen=True)
class GcEvidence:
    """The GC log of one successful trial of a variant, for its charts: its event table and summary."""

    variant: str
    trial_key: str
    path: str
    events: pl.DataFrame
    summary: GcSummary


@dataclass(frozen=True)
class VariantProfile:
    """One event's profiles of a variant's successful trials, merged stack by stack (their sum)."""

    variant: str
    event: str
    merged: Profile
    trials: int  # profiles merged


@dataclass(frozen=True)
class ReportData:
    experiment: ExperimentRow
    comparison: Comparison
    trials: list[TrialRow]
    artifacts: dict[int, dict[str, str]]  # trial id -> kind -> path
    metric_series: dict[int, list[tuple[float, float]]]
    rss_series: dict[int, list[tuple[float, float]]]
    levels: dict[int, list[LevelRow]]
    gc_logs: list[GcEvidence] = field(default_factory=list)
    advice: list[Advice] = field(default_factory=list)  # per variant (jvmlab advise EXPERIMENT)
    profiles: list[VariantProfile] = field(default_factory=list)  # per event, then variant
    jit: list[TrialJit] = field(default_factory=list)  # per successful trial with [telemetry] jit
    # the first successful trial of each variant with code cache samples: trial id -> code heap -> points
    code_heaps: dict[int, dict[str, list[tuple[float, float]]]] = field(default_factory=dict)
    # per variant in a container: one successful trial's cgroup series (that of its GC evidence where it has
    # one), by name ("cgroup_throttled_percent", ...)
    cgroup_series: dict[str, dict[str, list[tuple[float, float]]]] = field(default_factory=dict)


def gc_evidence(variant: str, trial_key: str, path: str) -> GcEvidence:
    from jvmlab.gclog import load  # deferred: a report without GC logs does not load the parser
    from jvmlab.metrics import summarize

    log = load(path)
    return GcEvidence(variant, trial_key, path, log.events, summarize(log))


def report_data(
    store: Store,
    ref: str | None,
    *,
    baseline: str | None = None,
    alpha: float | None = None,
    threshold_percent: float | None = None,
) -> ReportData:
    """Everything the report shows, read from the store (and, per variant, the GC log of its first
    successful repetition that left one)."""
    c = stored_comparison(store, ref, baseline=baseline, alpha=alpha, threshold_percent=threshold_percent)
    exp = store.experiment(c.experiment_id)
    assert exp is not None
    trials = store.trials(exp.id)
    artifacts = store.artifacts_of(t.id for t in trials)
    ok = [t for t in trials if t.state == OK]
    first: dict[str, tuple[str, str]] = {}
    for t in sorted(ok, key=lambda t: t.repetition):
        log = artifacts[t.id].get("gc_log")
        if log and t.variant not in first and Path(log).is_file():
            first[t.variant] = (t.key, log)
    return ReportData(
        exp,
        c,
        trials,
        artifacts,
        store.series_of((t.id for t in ok), "metric"),
        store.series_of((t.id for t in ok), "rss_bytes"),
        store.levels(t.id for t in trials),
        [gc_evidence(v.variant, *first[v.variant]) for v in c.variants if v.variant in first],
        advice_of(store, exp),
        profiles_of(store, exp, [v.variant for v in c.variants]),
        jit_of(store, exp),
        code_heaps_of(store, ok),
        cgroup_series_of(store, ok, {variant: key for variant, (key, _) in first.items()}),
    )


def cgroup_series_of(
    store: Store, ok: list[TrialRow], with_gc_log: dict[str, str]
) -> dict[str, dict[str, list[tuple[float, float]]]]:
    """Per variant in a container, the cgroup series of its trial with GC evidence (else its first)."""
    out: dict[str, dict[str, list[tuple[float, float]]]] = {}
    limited = [t for t in ok if (t.cgroup or {}).get("usage")]
    named = store.series_named_of((t.id for t in limited), "cgroup_")
    for t in sorted(limited, key=lambda t: (t.key != with_gc_log.get(t.variant), t.repetition)):
        if t.variant in out:
            continue
        series = named[t.id]
        if series:
            out[t.variant] = series
    return out


def jit_of(store: Store, exp: ExperimentRow) -> list[TrialJit]:
    """The trials' compilation logs summarized (summary None where a trial has none) and their code heaps;
    none when the spec asked for no JIT telemetry."""
    if not (exp.spec or {}).get("telemetry", {}).get("jit"):
        return []
    try:
        return experiment_jit(store, str(exp.id))
    except UsageError:
        return []


def code_heaps_of(store: Store, ok: list[TrialRow]) -> dict[int, dict[str, list[tuple[float, float]]]]:
    """Per variant, its first trial's code cache use per code heap ([telemetry] jit)."""
    out: dict[int, dict[str, list[tuple[float, float]]]] = {}
    seen: set[str] = set()
    named = store.series_named_of((t.id for t in ok), CODE_HEAP_SERIES)
    for t in sorted(ok, key=lambda t: t.repetition):
        if t.variant in seen:
            continue
        heaps = named[t.id]
        if heaps:
            out[t.id] = {name.removeprefix(CODE_HEAP_SERIES): points for name, points in heaps.items()}
            seen.add(t.variant)
    return out


def profiles_of(store: Store, exp: ExperimentRow, variants: list[str]) -> list[VariantProfile]:
    """Per profiled event, then variant (in the comparison's order), the merged profile of its trials."""
    out = []
    for event in events_of(exp):
        for variant in variants:
            found = safe_variant_profiles(store, exp.id, variant, event)
            if found and sum(p.total for p in found):
                out.append(VariantProfile(variant, event, merge(found), len(found)))
    return out


def advice_of(store: Store, exp: ExperimentRow) -> list[Advice]:
    """The findings per variant; none when no trial left a GC log."""
    try:
        return experiment_advice(store, str(exp.id))
    except UsageError:
        return []
