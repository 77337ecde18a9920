"""Per-variant figures of a stored experiment: the workload metric (mean, early vs late), time, GC summary
figures and peak RSS, each the mean over the variant's successful trials (with the spread where there are
several). Statistics with confidence intervals and significance come with `jvmlab compare`."""

from __future__ import annotations

import math
import statistics
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from jvmlab.experiment.storage import OK, ExperimentRow, Store, TrialRow


@dataclass(frozen=True)
class Figure:
    """The mean of one figure over trials, its standard deviation (None for one trial), and how many."""

    mean: float | None
    stdev: float | None
    n: int

    @staticmethod
    def of(values: Sequence[float | None]) -> Figure:
        present = [float(v) for v in values if v is not None]
        if not present:
            return Figure(None, None, 0)
        spread = statistics.stdev(present) if len(present) > 1 else None
        return Figure(statistics.fmean(present), spread, len(present))


@dataclass(frozen=True)
class Timeline:
    """The workload metric over time since the trial was ready: per bin of `bin_s` seconds, the mean of the
    readings of all the variant's successful trials in it (None where there is none)."""

    bin_s: float
    values: list[float | None]

    @staticmethod
    def of(series: Sequence[Sequence[tuple[float, float]]], most_bins: int = 40) -> Timeline | None:
        """`series`: per trial, (seconds since ready, value) points. No more bins than one trial has
        readings, so that bins are not emptier than the readings are sparse."""
        end = max((t for points in series for t, _ in points), default=0.0)
        if end <= 0:
            return None
        bins = min(most_bins, max(len(points) for points in series))
        width = end / bins
        sums, counts = [0.0] * bins, [0] * bins
        for points in series:
            for t, v in points:
                i = min(bins - 1, max(0, math.ceil(t / width) - 1))  # bin i holds (i w, (i + 1) w]
                sums[i] += v
                counts[i] += 1
        return Timeline(width, [total / n if n else None for total, n in zip(sums, counts, strict=True)])


@dataclass(frozen=True)
class VariantResult:
    variant: str
    jdk: str
    flag_set: str
    trials: int
    ok: int
    states: dict[str, int]
    reasons: list[str]
    figures: dict[str, Figure] = field(default_factory=dict)
    timeline: Timeline | None = None
    # What the trials' profiles are (or why there are none): one line when every trial agrees, else one
    # per trial ("#2: ..."); empty when no profile was asked.
    profile_notes: list[str] = field(default_factory=list)
    # Why counting calls ([telemetry] count) failed in some trials, one line per distinct reason.
    count_errors: list[str] = field(default_factory=list)
    # [telemetry] jit and perf: one line each of what the trials measured (code cache, huge pages, perf
    # stat) and the distinct notes of what they could not; empty when neither was asked.
    jit_notes: list[str] = field(default_factory=list)
    container: str | None = None  # [matrix.containers]: the container its trials ran in


def _get(d: dict[str, Any] | None, *path: str) -> Any:
    for key in path:
        if not isinstance(d, dict):
            return None
        d = d.get(key)
    return d


def _young(gc: dict[str, Any] | None, field: str) -> Any:
    """A young-collection rate: young pauses, or generational ZGC's minor collections (it has no young
    pauses; each minor collection is its young GC, and has no pause time of its own: None)."""
    if not _get(gc, "rates", "young", "count") and _get(gc, "rates", "zgc-minor", "count"):
        return _get(gc, "rates", "zgc-minor", field)
    return _get(gc, "rates", "young", field)


def ordering(t: TrialRow) -> tuple[str, str, str, int]:
    """Trials by JDK, flag set, container, then their place in the run."""
    return (t.jdk, t.flag_set, t.container or "", t.position)


# name -> how to read it from a trial
FIGURES: dict[str, Callable[[TrialRow], float | None]] = {
    "elapsed_s": lambda t: t.elapsed_s,
    "metric_mean": lambda t: _get(t.metric, "mean"),
    "metric_early": lambda t: _get(t.metric, "early_mean"),
    "metric_late": lambda t: _get(t.metric, "late_mean"),
    "gc_count": lambda t: _get(t.gc, "gc_count"),
    "young_per_min": lambda t: _young(t.gc, "mean_per_min"),
    "young_pause_ms_per_min": lambda t: _young(t.gc, "pause_ms_per_min_mean"),
    "full_gc_count": lambda t: _get(t.gc, "rates", "full", "count"),
    "full_pause_ms_per_min": lambda t: _get(t.gc, "rates", "full", "pause_ms_per_min_mean"),
    "pause_total_ms": lambda t: _get(t.gc, "pause_total_ms"),
    "pause_p99_ms": lambda t: _get(t.gc, "pause_p99_ms"),
    "pause_max_ms": lambda t: _get(t.gc, "pause_max_ms"),
    "gc_interval_s": lambda t: _get(t.gc, "gc_interval_mean_s"),
    "gc_overhead_percent": lambda t: _get(t.gc, "gc_overhead_percent"),
    "allocation_mib_s": lambda t: _get(t.gc, "allocation", "allocation_rate_mib_per_s"),
    "rss_peak_bytes": lambda t: _get(t.process, "rss_peak_bytes"),
    "cpu_s": lambda t: _cpu(t),
    "code_cache_peak_bytes": lambda t: _code_cache_peak(t),
    # the trial's container (its cgroup's counters): None without one
    "throttled_percent": lambda t: _get(t.cgroup, "usage", "throttled_percent"),
    "throttled_s": lambda t: _get(t.cgroup, "usage", "throttled_s"),
    "throttled_time_percent": lambda t: _get(t.cgroup, "usage", "throttled_time_percent"),
    "anon_peak_bytes": lambda t: _get(t.cgroup, "usage", "anon_peak_bytes"),
    "file_peak_bytes": lambda t: _get(t.cgroup, "usage", "file_peak_bytes"),
    "memory_peak_bytes": lambda t: _get(t.cgroup, "usage", "memory_peak_bytes"),
    "memory_peak_percent": lambda t: _get(t.cgroup, "usage", "memory_peak_percent"),
}

# [telemetry] perf: the figures of perf stat over the measured window (execution/perfstat.py), by name.
PERF_FIGURES = (
    "task_clock_s",
    "page_faults",
    "context_switches",
    "cpu_migrations",
    "instructions",
    "cycles",
    "ipc",
    "itlb_misses_per_kinstr",
    "l1i_misses_per_kinstr",
)


def _perf_figure(name: str) -> Callable[[TrialRow], float | None]:
    return lambda t: _get(getattr(t, "perf", None), "figures", name)


FIGURES.update({name: _perf_figure(name) for name in PERF_FIGURES})


def _code_cache_peak(t: TrialRow) -> float | None:
    """The most code cache used ([telemetry] jit): the sum over the code heaps of each one's peak."""
    heaps = _get(getattr(t, "jit", None), "codecache") or {}
    peaks = [h.get("used_peak_bytes") for h in heaps.values() if isinstance(h, dict)]
    return float(sum(p for p in peaks if p is not None)) if any(p is not None for p in peaks) else None


# A counted method's figure (and measure): "calls:" + its pattern, the calls in the trial's measured window.
CALLS = "calls:"


def calls_of(t: Any, pattern: str) -> float | None:
    """The calls a trial counted of `pattern` ([telemetry] count); None when it did not count them."""
    return _get(getattr(t, "counts", None), "calls", pattern, "invocations")


def call_figures(trials: Sequence[TrialRow]) -> dict[str, Figure]:
    """`calls:PATTERN` -> the mean calls over the trials, for each pattern a trial counted."""
    patterns = dict.fromkeys(p for t in trials for p in (_get(getattr(t, "counts", None), "calls") or {}))
    return {CALLS + p: Figure.of([calls_of(t, p) for t in trials]) for p in patterns}


def _cpu(t: TrialRow) -> float | None:
    user, system = _get(t.process, "cpu_user_s"), _get(t.process, "cpu_system_s")
    return None if user is None or system is None else user + system


def since_ready(trial: TrialRow, points: Sequence[tuple[float, float]]) -> list[tuple[float, float]]:
    """A trial's metric points from its readiness on, in seconds since then."""
    ready = trial.ready_s or 0.0
    return [(t - ready, v) for t, v in points if t >= ready]


def variant_results(
    trials: Sequence[TrialRow], metric_series: Mapping[int, Sequence[tuple[float, float]]] | None = None
) -> list[VariantResult]:
    """One result per variant, by JDK, then flag set. `metric_series` (trial id -> the workload metric's
    points, as stored) gives each variant its timeline."""
    by_variant: dict[str, list[TrialRow]] = {}
    for t in sorted(trials, key=ordering):
        by_variant.setdefault(t.variant, []).append(t)
    out = []
    for variant, rows in by_variant.items():
        ok = [t for t in rows if t.state == OK]
        states: dict[str, int] = {}
        for t in rows:
            states[t.state] = states.get(t.state, 0) + 1
        reasons = sorted({t.reason for t in rows if t.state != OK and t.reason})
        figures = {name: Figure.of([read(t) for t in ok]) for name, read in FIGURES.items()}
        figures |= call_figures(ok)
        timeline = None
        if metric_series is not None:
            timeline = Timeline.of([since_ready(t, metric_series.get(t.id, [])) for t in ok])
        first = rows[0]
        out.append(
            VariantResult(
                variant,
                first.jdk,
                first.flag_set,
                len(rows),
                len(ok),
                states,
                reasons,
                figures,
                timeline,
                profile_notes(rows),
                count_errors(rows),
                jit_notes(ok, figures) + perf_notes(rows, figures),
                first.container,
            )
        )
    return out


def count_errors(trials: Sequence[TrialRow]) -> list[str]:
    """Why counting failed, per distinct reason with the repetitions it hit ("#1, #3: ...")."""
    by_reason: dict[str, list[str]] = {}
    for t in trials:
        error = _get(getattr(t, "counts", None), "error")
        if error:
            by_reason.setdefault(str(error), []).append(f"#{t.repetition}")
    return [f"{', '.join(reps)}: {reason}" for reason, reps in by_reason.items()]


def _mean(values: Sequence[Any]) -> float | None:
    present = [float(v) for v in values if isinstance(v, int | float)]
    return statistics.fmean(present) if present else None


def _percent(v: float | None) -> str:
    return "—" if v is None else f"{v:.0f}%"


def jit_notes(ok: Sequence[TrialRow], figures: Mapping[str, Figure]) -> list[str]:
    """`jit: code cache peak 12.3 MiB; THP madvise: heap 100% on huge pages, code cache 0%`, the page sizes
    the JVM chose, and the notes of what could not be read; empty when no trial has JIT telemetry."""
    jit: list[dict[str, Any]] = [t.jit for t in ok if getattr(t, "jit", None) and t.jit is not None]
    if not jit:
        return []
    peak = figures["code_cache_peak_bytes"].mean
    head = "jit: code cache peak " + ("—" if peak is None else f"{peak / 2**20:.1f} MiB")
    thp = {_get(j, "pages", "thp") for j in jit}
    heap = _mean([_get(j, "pages", "heap", "huge_percent") for j in jit])
    code = _mean([_get(j, "pages", "code", "huge_percent") for j in jit])
    head += f"; THP {'/'.join(sorted(str(m) for m in thp))}: on huge pages heap {_percent(heap)}"
    head += f", code cache {_percent(code)} (of resident)"
    sizes = _get(jit[0], "pages", "page_size") or {}
    if sizes:
        head += "; page sizes " + ", ".join(f"{k.removeprefix('CodeHeap ')} {v}" for k, v in sizes.items())
    notes = dict.fromkeys(str(j["note"]) for j in jit if j.get("note"))
    return [head, *(f"jit: {n}" for n in notes)]


def perf_notes(trials: Sequence[TrialRow], figures: Mapping[str, Figure]) -> list[str]:
    """`perf: task clock 12.1 s, IPC 1.52, ...` and the distinct notes (no PMU, no perf)."""
    perf: list[dict[str, Any]] = [t.perf for t in trials if getattr(t, "perf", None) and t.perf is not None]
    if not perf:
        return []
    shown = [
        ("task clock", "task_clock_s", "{:.2f} s"),
        ("IPC", "ipc", "{:.2f}"),
        ("iTLB misses/1k instr", "itlb_misses_per_kinstr", "{:.3f}"),
        ("L1-i misses/1k instr", "l1i_misses_per_kinstr", "{:.2f}"),
        ("page faults", "page_faults", "{:,.0f}"),
        ("context switches", "context_switches", "{:,.0f}"),
    ]
    parts = [
        f"{label} {fmt.format(v)}" for label, name, fmt in shown if (v := figures[name].mean) is not None
    ]
    notes = dict.fromkeys(str(p["note"]) for p in perf if p.get("note"))
    return ([f"perf: {', '.join(parts)}"] if parts else []) + [f"perf: {n}" for n in notes]


def profile_notes(trials: Sequence[TrialRow]) -> list[str]:
    """The trials' profile notes: the one note when they agree, else `#REPETITION: note` per trial."""
    noted = [t for t in trials if t.profile_note]
    if len({t.profile_note for t in noted}) <= 1:
        return [noted[0].profile_note] if noted and noted[0].profile_note else []
    return [f"#{t.repetition}" + (f" @ {t.level}" if t.level else "") + f": {t.profile_note}" for t in noted]


@dataclass(frozen=True)
class LevelResult:
    """One variant at one load level: the means over its successful trials' measured windows."""

    variant: str
    jdk: str
    flag_set: str
    level: str
    rate: float
    trials: int  # successful trials that reached this level
    figures: dict[str, Figure] = field(default_factory=dict)
    container: str | None = None


def _load(lv: Any, *path: str) -> Any:
    return _get(lv.load, *path)


def _error_percent(lv: Any) -> float | None:
    sent = _load(lv, "sent")
    errors = _load(lv, "error_count")
    return None if not sent or errors is None else 100.0 * errors / sent


# name -> how to read it from a stored level (LevelRow)
LEVEL_FIGURES: dict[str, Callable[[Any], float | None]] = {
    "throughput_rps": lambda lv: _load(lv, "throughput_rps"),
    "error_percent": _error_percent,
    "p50_ms": lambda lv: _load(lv, "latency", "p50_ms"),
    "p95_ms": lambda lv: _load(lv, "latency", "p95_ms"),
    "p99_ms": lambda lv: _load(lv, "latency", "p99_ms"),
    "p999_ms": lambda lv: _load(lv, "latency", "p999_ms"),
    "max_ms": lambda lv: _load(lv, "latency", "max_ms"),
    "service_p50_ms": lambda lv: _load(lv, "service", "p50_ms"),
    "service_p95_ms": lambda lv: _load(lv, "service", "p95_ms"),
    "service_p99_ms": lambda lv: _load(lv, "service", "p99_ms"),
    "service_p999_ms": lambda lv: _load(lv, "service", "p999_ms"),
    "service_max_ms": lambda lv: _load(lv, "service", "max_ms"),
    "send_lag_p99_ms": lambda lv: _load(lv, "driver", "send_lag_p99_ms"),
    "young_per_min": lambda lv: _young(lv.gc, "mean_per_min"),
    "young_peak_per_min": lambda lv: _young(lv.gc, "peak_per_min"),
    "full_per_min": lambda lv: _get(lv.gc, "rates", "full", "mean_per_min"),
    "full_peak_per_min": lambda lv: _get(lv.gc, "rates", "full", "peak_per_min"),
    "full_count": lambda lv: _get(lv.gc, "rates", "full", "count"),
    "young_pause_ms_per_min": lambda lv: _young(lv.gc, "pause_ms_per_min_mean"),
    "full_pause_ms_per_min": lambda lv: _get(lv.gc, "rates", "full", "pause_ms_per_min_mean"),
    "full_pause_ms_per_min_peak": lambda lv: _get(lv.gc, "rates", "full", "pause_ms_per_min_peak"),
    "pause_ms_per_min": lambda lv: _get(lv.gc, "pause_time_per_min_mean_ms"),
    "pause_ms_per_min_peak": lambda lv: _get(lv.gc, "pause_time_per_min_peak_ms"),
    "pause_p50_ms": lambda lv: _get(lv.gc, "pause_p50_ms"),
    "pause_p99_ms": lambda lv: _get(lv.gc, "pause_p99_ms"),
    "pause_max_ms": lambda lv: _get(lv.gc, "pause_max_ms"),
    "gc_overhead_percent": lambda lv: _get(lv.gc, "gc_overhead_percent"),
    "rss_peak_bytes": lambda lv: _get(lv.process, "rss_peak_bytes"),
    "cpu_percent": lambda lv: _get(lv.process, "cpu_percent"),
    "throttled_percent": lambda lv: _get(lv.process, "throttled_percent"),
    "memory_peak_bytes": lambda lv: _get(lv.process, "cgroup_memory_peak_bytes"),
}


def level_results(trials: Sequence[TrialRow], levels: Mapping[int, Sequence[Any]]) -> list[LevelResult]:
    """One result per variant and level (by JDK, flag set, then the levels' order in the spec), from the
    successful trials' levels (`levels`: trial id -> its stored levels)."""
    groups: dict[tuple[str, int], list[Any]] = {}
    first: dict[tuple[str, int], TrialRow] = {}
    for t in sorted(trials, key=ordering):
        if t.state != OK:
            continue
        for lv in levels.get(t.id, []):
            key = (t.variant, lv.position)
            groups.setdefault(key, []).append(lv)
            first.setdefault(key, t)
    out = []
    for key in sorted(groups, key=lambda k: (*ordering(first[k])[:3], k[1])):
        rows, t = groups[key], first[key]
        figures = {name: Figure.of([read(lv) for lv in rows]) for name, read in LEVEL_FIGURES.items()}
        name, rate = rows[0].name, rows[0].rate
        out.append(LevelResult(t.variant, t.jdk, t.flag_set, name, rate, len(rows), figures, t.container))
    return out


def metric_series(store: Store, trials: Sequence[TrialRow]) -> dict[int, list[tuple[float, float]]]:
    """The workload metric's stored points of every successful trial, by trial id."""
    return store.series_of((t.id for t in trials if t.state == OK), "metric")


@dataclass(frozen=True)
class StoredResults:
    """What `jvmlab results` shows of a stored experiment: its trials, per variant and per load level."""

    experiment: ExperimentRow
    trials: list[TrialRow]
    variants: list[VariantResult]
    levels: list[LevelResult]


def stored_results(store: Store, ref: str | int | None) -> StoredResults:
    """The results of experiment `ref` (id or name; None: the latest); JvmLabError when there is none."""
    exp = store.find_experiment(ref)
    trials = store.trials(exp.id)
    variants = variant_results(trials, metric_series(store, trials))
    levels = level_results(trials, store.levels(t.id for t in trials))
    return StoredResults(exp, trials, variants, levels)
