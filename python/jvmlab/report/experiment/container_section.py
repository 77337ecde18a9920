"""The experiment report's containers section ([matrix.containers]): per variant its container's limits, what
the JVM picked and saw in it, what its cgroup counted (throttling, memory against the limit, anonymous and
page-cache memory, OOM kills), and per variant one trial's CPU throttling over time beside its GC pauses."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from jvmlab.experiment.analysis.report_data import GcEvidence, ReportData
from jvmlab.experiment.analysis.results import VariantResult, variant_results
from jvmlab.experiment.spec import stored_spec
from jvmlab.experiment.storage import OOM_KILLED
from jvmlab.report import units
from jvmlab.report.experiment.run_view import jvm_picks
from jvmlab.report.html.charts import Series, line_chart
from jvmlab.report.html.page import Block, Cell, Chart, Section, Text, table

MIB = 1 << 20
COLUMNS = (
    "variant",
    "container",
    "the JVM picks",
    "throttled % of periods",
    "throttled % of time",
    "memory peak MiB",
    "of limit %",
    "anonymous MiB",
    "page cache MiB",
    "OOM-killed",
)


def _mean(r: VariantResult, figure: str, fmt: str = "{:,.1f}", scale: float = 1.0) -> str:
    f = r.figures.get(figure)
    return units.MISSING if f is None or f.mean is None else fmt.format(f.mean / scale)


def _row(r: VariantResult, limits: str, picks: str) -> list[str | Cell]:
    killed = r.states.get(OOM_KILLED, 0)
    peak = r.figures.get("memory_peak_percent")
    near = peak is not None and peak.mean is not None and peak.mean >= 85
    return [
        r.variant,
        f"{r.container}: {limits}",
        picks,
        _mean(r, "throttled_percent"),
        _mean(r, "throttled_time_percent"),
        _mean(r, "memory_peak_bytes", "{:,.0f}", MIB),
        Cell(_mean(r, "memory_peak_percent", "{:,.0f}"), "fail" if near else ""),
        _mean(r, "anon_peak_bytes", "{:,.0f}", MIB),
        _mean(r, "file_peak_bytes", "{:,.0f}", MIB),
        Cell(f"{killed} of {r.trials}" if killed else "0", "fail" if killed else ""),
    ]


def throttling_chart(
    variant: str, series: Mapping[str, list[tuple[float, float]]], gc: GcEvidence | None, index: int
) -> Chart | None:
    """One trial's throttled share of CFS periods per sample interval (left) and its GC pauses (right)."""
    throttled = series.get("cgroup_throttled_percent", [])
    if not throttled:
        return None
    x, y = [p[0] for p in throttled], [p[1] for p in throttled]
    line = Series("CPU throttled (% of the periods since the last sample)", x, y)
    figure = line_chart([line], "seconds since the trial started", "throttled %")
    caption = "the JVM's uptime stands in for the trial's clock (the JVM starts a moment after its process)"
    if gc is not None and "pause_ms" in gc.events.columns:
        pauses = gc.events.filter(gc.events["pause_ms"].is_not_null())
        if pauses.height:
            trace = line_chart(
                [
                    Series(
                        "GC pause (ms)",
                        pauses["uptime_s"].to_list(),
                        pauses["pause_ms"].to_list(),
                        mode="markers",
                    )
                ],
                "seconds since the trial started",
                "pause ms",
            )["data"][0]
            trace["yaxis"] = "y2"
            trace["marker"]["color"] = "#d1495b"
            figure["data"].append(trace)
            figure["layout"]["yaxis2"] = {
                "title": {"text": "GC pause (ms)"},
                "overlaying": "y",
                "side": "right",
                "rangemode": "tozero",
                "showgrid": False,
            }
            figure["layout"]["margin"]["r"] = 60
        caption = f"{gc.trial_key}; {caption}"
    return Chart(f"throttling-v{index}", f"{variant}: CPU throttling beside GC pauses", figure, caption)


def container_section(d: ReportData) -> Section | None:
    """None when the experiment ran without containers."""
    spec = stored_spec(d.experiment.spec, experiment=d.experiment.name) if d.experiment.spec else None
    containers = spec.matrix.container_limits() if spec is not None else None
    if not containers:
        return None
    results = [r for r in variant_results(d.trials) if r.container is not None]
    picks: dict[str, str] = {}
    for t in d.trials:
        info: dict[str, Any] = t.jdk_info or {}
        if t.variant not in picks and info.get("ergonomics") is not None:
            picks[t.variant] = jvm_picks(info.get("ergonomics") or {}, info.get("container"))
    rows = [
        _row(r, _limits_text(containers, r.container), picks.get(r.variant, units.MISSING)) for r in results
    ]
    blocks: list[Block] = [
        Text(
            (
                "Each trial ran in a cgroup of its own with its container's limits (docs/containers.md). "
                "Throttled % of periods: the CFS periods in which the container used up its CPU quota; of "
                "time: the time its processes waited for the next period. Memory peak: the most the cgroup "
                "held, page cache included, against the limit (85 % and more marked). OOM-killed: trials a "
                "process of which the kernel's OOM killer ended.",
            ),
            tone="note",
        ),
        table(COLUMNS, rows, "per variant: means over its successful trials"),
    ]
    evidence = {g.variant: g for g in d.gc_logs}
    for i, r in enumerate(results, start=1):
        series = d.cgroup_series.get(r.variant)
        chart = throttling_chart(r.variant, series, evidence.get(r.variant), i) if series else None
        if chart is not None:
            blocks.append(chart)
    return Section("containers", "Containers", tuple(blocks))


def _limits_text(containers: Mapping[str, Any], name: str | None) -> str:
    limits = containers.get(name or "")
    return "no limits" if limits is None or limits.unlimited else limits.text()
