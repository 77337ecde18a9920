"""The measures an experiment compares and sets goals on: each a name (used in goals and exports), a label,
a unit, which direction is better, and how to read it from a trial and from a load level of a trial.

The values are the figures `jvmlab results` shows (analysis/results.py), read the same way; sizes are
given in MiB here (`rss_peak_mb`: mebibytes, 2^20 bytes, the unit of -Xmx512m).
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Iterable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Protocol, TypeVar

from jvmlab.experiment.analysis.results import CALLS, FIGURES, LEVEL_FIGURES, calls_of
from jvmlab.stats import BETTER

if TYPE_CHECKING:
    from jvmlab.experiment.spec import Metric, Telemetry

Read = Callable[[Any], float | None]
MIB = 1 << 20
# The workload's metric after its warm-up: filled in from the steady-state analysis of its time series.
STEADY = "metric_steady"


@dataclass(frozen=True)
class Measure:
    name: str
    label: str
    unit: str
    # True: higher is better; False: lower is better; None: neither (e.g. the allocation rate).
    higher_is_better: bool | None
    of_trial: Read | None = None
    of_level: Read | None = None

    def better(self, change_percent: float) -> bool | None:
        """Whether a change of this sign is an improvement (None: the measure has no better direction)."""
        if self.higher_is_better is None or change_percent == 0:
            return None
        return (change_percent > 0) == self.higher_is_better


def _mib(read: Read) -> Read:
    def mib(x: Any) -> float | None:
        v = read(x)
        return None if v is None else v / MIB

    return mib


def _m(
    name: str, label: str, unit: str, better: bool | None, trial: str | None, level: str | None
) -> Measure:
    of_trial = FIGURES[trial] if trial else None
    of_level = LEVEL_FIGURES[level] if level else None
    if unit == "MiB":
        of_trial = _mib(of_trial) if of_trial else None
        of_level = _mib(of_level) if of_level else None
    return Measure(name, label, unit, better, of_trial, of_level)


LOWER, HIGHER = False, True
MEASURES: tuple[Measure, ...] = (
    # load levels: what the clients saw
    _m("throughput_rps", "throughput", "req/s", HIGHER, None, "throughput_rps"),
    _m("error_percent", "errors", "%", LOWER, None, "error_percent"),
    _m("p50_ms", "P50 latency", "ms", LOWER, None, "p50_ms"),
    _m("p95_ms", "P95 latency", "ms", LOWER, None, "p95_ms"),
    _m("p99_ms", "P99 latency", "ms", LOWER, None, "p99_ms"),
    _m("p999_ms", "P99.9 latency", "ms", LOWER, None, "p999_ms"),
    _m("max_ms", "max latency", "ms", LOWER, None, "max_ms"),
    # service time: from the actual send, without the wait behind a stall (what a closed-model tool shows)
    _m("service_p50_ms", "P50 service time", "ms", LOWER, None, "service_p50_ms"),
    _m("service_p95_ms", "P95 service time", "ms", LOWER, None, "service_p95_ms"),
    _m("service_p99_ms", "P99 service time", "ms", LOWER, None, "service_p99_ms"),
    _m("service_p999_ms", "P99.9 service time", "ms", LOWER, None, "service_p999_ms"),
    _m("service_max_ms", "max service time", "ms", LOWER, None, "service_max_ms"),
    # the driver: how late its requests left (part of every latency above, none of the service times)
    _m("send_lag_p99_ms", "P99 send lag", "ms", LOWER, None, "send_lag_p99_ms"),
    # the run
    _m("elapsed_s", "time", "s", LOWER, "elapsed_s", None),
    # GC
    _m("gc_count", "GCs", "", LOWER, "gc_count", None),
    _m("young_gc_per_min", "Young GC per minute", "/min", LOWER, "young_per_min", "young_per_min"),
    _m("young_gc_peak_per_min", "Young GC peak per minute", "/min", LOWER, None, "young_peak_per_min"),
    _m(
        "young_gc_pause_ms_per_min",
        "Young GC pause time per minute",
        "ms",
        LOWER,
        "young_pause_ms_per_min",
        "young_pause_ms_per_min",
    ),
    _m("full_gc_count", "Full GC", "", LOWER, "full_gc_count", "full_count"),
    _m("full_gc_per_min", "Full GC per minute", "/min", LOWER, None, "full_per_min"),
    _m("full_gc_peak_per_min", "Full GC peak per minute", "/min", LOWER, None, "full_peak_per_min"),
    _m(
        "full_gc_pause_ms_per_min",
        "Full GC pause time per minute",
        "ms",
        LOWER,
        "full_pause_ms_per_min",
        "full_pause_ms_per_min",
    ),
    _m(
        "full_gc_pause_ms_per_min_peak",
        "Full GC pause time peak per minute",
        "ms",
        LOWER,
        None,
        "full_pause_ms_per_min_peak",
    ),
    _m("pause_total_ms", "pause time", "ms", LOWER, "pause_total_ms", None),
    _m("pause_ms_per_min", "pause time per minute", "ms", LOWER, None, "pause_ms_per_min"),
    _m("pause_ms_per_min_peak", "pause time peak per minute", "ms", LOWER, None, "pause_ms_per_min_peak"),
    _m("pause_p50_ms", "p50 pause", "ms", LOWER, None, "pause_p50_ms"),
    _m("pause_p99_ms", "p99 pause", "ms", LOWER, "pause_p99_ms", "pause_p99_ms"),
    _m("pause_max_ms", "max pause", "ms", LOWER, "pause_max_ms", "pause_max_ms"),
    _m("gc_overhead_percent", "GC overhead", "%", LOWER, "gc_overhead_percent", "gc_overhead_percent"),
    _m("gc_interval_s", "mean GC interval", "s", HIGHER, "gc_interval_s", None),
    _m("allocation_mib_s", "allocation rate", "MiB/s", None, "allocation_mib_s", None),
    # the process
    _m("rss_peak_mb", "peak RSS", "MiB", LOWER, "rss_peak_bytes", "rss_peak_bytes"),
    _m("cpu_s", "CPU time", "s", LOWER, "cpu_s", None),
    _m("cpu_percent", "CPU", "%", LOWER, None, "cpu_percent"),
    # a trial's container ([matrix.containers]): CFS periods out of quota, memory against its limit
    _m("throttled_percent", "CPU throttled", "%", LOWER, "throttled_percent", "throttled_percent"),
    _m("throttled_s", "CPU throttled time", "s", LOWER, "throttled_s", None),
    _m("throttled_time_percent", "CPU throttled time of the run", "%", LOWER, "throttled_time_percent", None),
    _m("anon_peak_mb", "container anonymous memory peak", "MiB", LOWER, "anon_peak_bytes", None),
    _m("page_cache_peak_mb", "container page cache peak", "MiB", None, "file_peak_bytes", None),
    _m("memory_peak_mb", "container memory peak", "MiB", LOWER, "memory_peak_bytes", "memory_peak_bytes"),
    _m("memory_peak_percent", "container memory peak of its limit", "%", LOWER, "memory_peak_percent", None),
    # the code cache ([telemetry] jit): neither direction is better (more compiled code can be faster)
    _m("code_cache_peak_mb", "code cache peak use", "MiB", None, "code_cache_peak_bytes", None),
    # perf stat ([telemetry] perf) over the measured window; the hardware ones only on a machine with a PMU
    _m("task_clock_s", "task clock", "s", LOWER, "task_clock_s", None),
    _m("page_faults", "page faults", "", LOWER, "page_faults", None),
    _m("context_switches", "context switches", "", LOWER, "context_switches", None),
    _m("cpu_migrations", "CPU migrations", "", LOWER, "cpu_migrations", None),
    # as many instructions for the same work is better fewer; a run of fixed length does more work with more
    _m("instructions", "instructions", "", None, "instructions", None),
    _m("cycles", "cycles", "", None, "cycles", None),
    _m("ipc", "instructions per cycle", "", HIGHER, "ipc", None),
    _m(
        "itlb_misses_per_kinstr", "iTLB misses per 1k instructions", "", LOWER, "itlb_misses_per_kinstr", None
    ),
    _m("l1i_misses_per_kinstr", "L1-i misses per 1k instructions", "", LOWER, "l1i_misses_per_kinstr", None),
)


# What a measure needs beyond a successful trial: the [telemetry] that produces it, or the machine's PMU.
_GC = (
    "gc_count", "young_gc_per_min", "young_gc_peak_per_min", "young_gc_pause_ms_per_min", "full_gc_count",
    "full_gc_per_min", "full_gc_peak_per_min", "full_gc_pause_ms_per_min", "full_gc_pause_ms_per_min_peak",
    "pause_total_ms", "pause_ms_per_min", "pause_ms_per_min_peak", "pause_p50_ms", "pause_p99_ms",
    "pause_max_ms", "gc_overhead_percent", "gc_interval_s", "allocation_mib_s",
)  # fmt: skip
_PERF = ("task_clock_s", "page_faults", "context_switches", "cpu_migrations")
_PMU = ("instructions", "cycles", "ipc", "itlb_misses_per_kinstr", "l1i_misses_per_kinstr")
CONTAINER_MEASURES = (
    "throttled_percent", "throttled_s", "throttled_time_percent", "memory_peak_mb", "memory_peak_percent",
    "anon_peak_mb", "page_cache_peak_mb",
)  # fmt: skip


def not_produced(name: str, telemetry: Telemetry, *, pmu: bool, containers: bool = False) -> str | None:
    """Why trials under `telemetry` (in containers or not) never produce the measure `name` (None: do)."""
    if name in CONTAINER_MEASURES and not containers:
        return "it comes from a trial's cgroup: give the trials containers ([matrix.containers])"
    if name in _GC and not telemetry.gc_log:
        return "it comes from the GC log: set [telemetry] gc_log = true"
    if name == "code_cache_peak_mb" and telemetry.jit is None:
        return 'it comes from the code cache samples: set [telemetry] jit = "summary" (or more)'
    if name in _PERF + _PMU and not telemetry.perf:
        return "it comes from perf stat: set [telemetry] perf = true"
    if name in _PMU and not pmu:
        return "it is a hardware counter and this machine has no PMU (perf counts software events only)"
    return None


def calls_measure(pattern: str) -> Measure:
    """The calls of a counted method ([telemetry] count) in a trial's measured window, `calls:PATTERN`.
    Fewer is better: the counted methods are the suspects of a slowdown (a full TLS handshake per connection,
    a resize per insert); a goal bounds them either way."""

    def read(t: Any) -> float | None:
        return calls_of(t, pattern)

    return Measure(CALLS + pattern, f"calls to {pattern}", "calls", LOWER, read)


def measures(metric: Metric | None, counted: Sequence[str] = ()) -> dict[str, Measure]:
    """Every measure by name: the workload's own metric first (under its name in the spec, and its steady
    state as `metric_steady`), then MEASURES, then `calls:PATTERN` of each counted method (`counted`: the
    spec's [telemetry] count, whose measures depend on the spec like the metric's)."""
    out: dict[str, Measure] = {}
    if metric is not None:
        unit = metric.unit
        better = metric.higher_is_better
        label = metric.name.replace("_", " ")  # chunks_per_s: "chunks per s", which a column header can wrap
        out[metric.name] = Measure(metric.name, label, unit, better, FIGURES["metric_mean"])
        out[STEADY] = Measure(STEADY, f"{label}, steady state", unit, better)
    for m in MEASURES:
        out.setdefault(m.name, m)  # the workload's metric keeps its name
    for pattern in counted:
        out[CALLS + pattern] = calls_measure(pattern)
    return out


# The headline measures of a comparison: the whole run's, and those of load levels.
RUN_MEASURES = ("young_gc_per_min", "full_gc_count", "pause_p99_ms", "gc_overhead_percent", "rss_peak_mb")
LEVEL_MEASURES = (
    "throughput_rps",
    "p99_ms",
    "service_p99_ms",
    "p95_ms",
    "young_gc_per_min",
    "full_gc_per_min",
    "pause_ms_per_min",
    "rss_peak_mb",
)


# What a tried flag must not make worse, whatever it aims at (jvmlab.stats.flag_verdict's guards): the
# service's throughput and tail latency and the time lost to GC, plus the workload's own metric.
GC_OVERHEAD = "gc_overhead_percent"
GUARD_MEASURES = ("throughput_rps", "p99_ms", GC_OVERHEAD)


def guard_measures(metric: str | None) -> frozenset[str]:
    return frozenset(GUARD_MEASURES) | ({metric, STEADY} if metric else frozenset())


class Judged(Protocol):
    """A measure's directed outcome (stats.directed) in one comparison, at a load level or the whole run."""

    @property
    def measure(self) -> str: ...
    @property
    def level(self) -> str | None: ...
    @property
    def outcome(self) -> str | None: ...


J = TypeVar("J", bound=Judged)


def guards(judged: Iterable[J], metric: str | None) -> list[J]:
    """The outcomes that guard a tried flag (GUARD_MEASURES and the workload's metric), among `judged`.
    GC overhead (the share of the wall time spent in GC pauses) guards only where both sides did the same
    work per second: not where the work measure got better, the workload's own metric for the whole run (a
    closed-model workload doing 5x the connections allocates, and collects, 5x as much per second) or the
    throughput at a load level (the other side saturated). There the work measure is the guard that
    counts; GC overhead rising with the work done is not harm."""
    rows = list(judged)

    def is_work(r: J) -> bool:  # the whole run's work: the workload's metric; at a level: throughput
        return r.measure == "throughput_rps" if r.level is not None else r.measure in (metric, STEADY)

    more_work = {r.level for r in rows if r.outcome == BETTER and is_work(r)}
    named = guard_measures(metric)
    return [r for r in rows if r.measure in named and not (r.measure == GC_OVERHEAD and r.level in more_work)]


def primary_measures(metric: str | None, has_levels: bool) -> tuple[str, ...]:
    """What an experiment is about, judged before anything else (`repetitions = "auto"` runs rounds until
    these are decided): the workload's own metric, else its run time; with load levels, throughput and P99
    latency at each level (an open-model load keeps throughput at the rate until the service saturates)."""
    if has_levels:
        return ("throughput_rps", "p99_ms")
    return (metric or "elapsed_s",)


def headline_measures(metric: str | None, has_levels: bool, known: Collection[str]) -> list[str]:
    """The workload metric (mean, steady state) first, then the GC and process headline figures; with load
    levels, throughput, latency and GC per minute."""
    if has_levels:
        return [m for m in LEVEL_MEASURES if m in known]
    head = [metric, STEADY] if metric else ["elapsed_s"]
    return head + list(RUN_MEASURES) + [m for m in known if m.startswith(CALLS)]
