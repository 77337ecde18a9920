"""The guards of a tried flag (experiment.analysis.measures.guards): what it must not make worse. GC overhead
guards only where both sides did the same work per second. Found by `make demo-regress`: the TLS fix made
TlsBench serve 5x the connections/s, and the 5x garbage that came with them turned its verification
"harmful" on GC overhead."""

from __future__ import annotations

from dataclasses import dataclass

from jvmlab.experiment.analysis.measures import guards
from jvmlab.stats import BETTER, EQUIVALENT, INCONCLUSIVE, WORSE


@dataclass(frozen=True)
class Row:
    measure: str
    level: str | None
    outcome: str


def harmed(rows: list[Row], metric: str | None = "connections_per_s") -> list[str]:
    return [f"{r.measure}@{r.level}" for r in guards(rows, metric) if r.outcome == WORSE]


def test_gc_overhead_that_comes_with_more_work_is_not_harm():
    rows = [Row("connections_per_s", None, BETTER), Row("gc_overhead_percent", None, WORSE)]
    assert harmed(rows) == []
    # ... and the steady state of the metric counts as the metric
    rows = [Row("metric_steady", None, BETTER), Row("gc_overhead_percent", None, WORSE)]
    assert harmed(rows) == []


def test_gc_overhead_at_the_same_work_guards():
    for work in (EQUIVALENT, INCONCLUSIVE, WORSE):
        rows = [Row("connections_per_s", None, work), Row("gc_overhead_percent", None, WORSE)]
        assert "gc_overhead_percent@None" in harmed(rows), work
    # without a workload metric, nothing tells that the work changed
    assert harmed([Row("gc_overhead_percent", None, WORSE)], metric=None) == ["gc_overhead_percent@None"]


def test_at_a_load_level_throughput_is_the_work():
    rows = [
        Row("throughput_rps", "high", BETTER),  # the other side saturated at this level
        Row("gc_overhead_percent", "high", WORSE),
        Row("throughput_rps", "low", EQUIVALENT),  # both kept the rate: GC overhead compares
        Row("gc_overhead_percent", "low", WORSE),
        Row("p99_ms", "high", WORSE),
    ]
    assert harmed(rows, metric=None) == ["gc_overhead_percent@low", "p99_ms@high"]


def test_only_guard_measures_guard():
    rows = [Row("full_gc_count", None, WORSE), Row("rss_peak_mb", None, WORSE), Row("p99_ms", None, WORSE)]
    assert harmed(rows) == ["p99_ms@None"]
