"""Terminal tables of experiments: the plan before a run (JDKs, flag sets and what the JVM said of them,
the trial order) and the results per variant after it."""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from rich import box
from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text

from jvmlab.container.limits import Limits, memory_text
from jvmlab.experiment.analysis.nodes import NodeLoss
from jvmlab.experiment.analysis.results import CALLS, Figure, LevelResult, VariantResult
from jvmlab.report import units
from jvmlab.report.sparkline import sparkline


def _flag_sets_table(plan: Any) -> Table:
    """Each flag set once: its flags, and the JDKs it runs on."""
    table = Table(box=box.SIMPLE_HEAD, show_edge=False, pad_edge=False, title_justify="left")
    table.add_column("flag set", no_wrap=True)
    table.add_column("flags", overflow="fold")
    table.add_column("on", overflow="fold")
    on: dict[str, list[str]] = {}
    flags: dict[str, tuple[str, ...]] = {}
    for v in plan.variants:  # (a variant per container: each JDK once)
        if v.jdk not in on.setdefault(v.flag_set, []):
            on[v.flag_set].append(v.jdk)
        flags[v.flag_set] = v.flags
    for name, jdks in on.items():
        everywhere = len(jdks) == len(plan.jdks)
        table.add_row(
            name, " ".join(flags[name]) or "— (the JVM's defaults)", "all" if everywhere else ", ".join(jdks)
        )
    return table


def plan_renderable(plan: Any, *, store_url: str) -> RenderableType:
    """The plan of `jvmlab run`: the flag sets, the verdict of the flag check per variant, the order."""
    spec = plan.spec
    containers = spec.matrix.container_limits()
    table = Table(box=box.SIMPLE_HEAD, show_edge=False, pad_edge=False, title_justify="left")
    for name in ("JDK / flag set", "version", "JVM says", *(["the JVM picks"] if containers else [])):
        table.add_column(name, overflow="fold", no_wrap=name not in ("JVM says", "the JVM picks"))
    for v in plan.variants:
        verdict = plan.verdicts[v.key]
        jdk = plan.jdks[v.jdk]
        said = (
            Text("accepted", style="green")
            if verdict.accepted
            else Text(verdict.message or "rejected", "red")
        )
        if verdict.accepted and verdict.warnings:
            said = Text("accepted, warns: " + "; ".join(verdict.warnings), style="yellow")
        picks = [jvm_picks(verdict.ergonomics, verdict.container)] if containers else []
        table.add_row(v.key, f"{jdk.version} ({getattr(jdk, 'vendor', '') or ''})", said, *picks)
    order = ", ".join(t.key for t in plan.trials[:6]) + (" ..." if len(plan.trials) > 6 else "")
    levels = ""
    if spec.load is not None:
        rates = ", ".join(f"{lv.label} {lv.rate:g}/s" for lv in spec.load.levels)
        levels = f"; load levels ({spec.load.mode}): {rates}"
    head = Text.assemble(
        (f"{spec.name}", "bold"),
        f": {len(plan.variants)} variants x {spec.matrix.repetitions} repetitions = {len(plan.trials)} trials"
        f" ({spec.matrix.order} order, seed {spec.matrix.seed}), timeout {spec.trial.timeout_s:g} s each"
        f"{levels}; results to {store_url}",
    )
    sizes = [_containers_table(containers)] if containers else []
    return Group(head, _flag_sets_table(plan), *sizes, table, Text(f"order: {order}", style="dim"))


def _containers_table(containers: Mapping[str, Limits]) -> Table:
    table = Table(box=box.SIMPLE_HEAD, show_edge=False, pad_edge=False, title_justify="left")
    table.add_column("container", no_wrap=True)
    table.add_column("limits (a cgroup per trial)", overflow="fold")
    for name, limits in containers.items():
        table.add_row(name, limits.text() if not limits.unlimited else "none: no cgroup")
    return table


def jvm_picks(ergonomics: Mapping[str, Any], container: Mapping[str, Any] | None) -> str:
    """What the JVM chose by itself in the variant's container: "Serial, heap 128 MiB, 1 CPU of a 512 MiB
    container (cgroupv1)", from its -XX:+PrintFlagsFinal and -XshowSettings:system in that container."""
    parts = []
    if ergonomics.get("collector"):
        parts.append(str(ergonomics["collector"]))
    if ergonomics.get("max_heap_size_bytes"):
        parts.append(f"heap {memory_text(int(ergonomics['max_heap_size_bytes']))}")
    if container and container.get("containerized"):
        cpus = container.get("effective_cpus")
        memory = container.get("memory_limit_bytes")
        seen = f"{cpus} CPU{'' if cpus == 1 else 's'}" if cpus else ""
        seen += (" of a " if seen else "a ") + f"{memory_text(memory)} container" if memory else ""
        parts.append(f"{seen} ({container.get('provider') or 'cgroup'})" if seen else "")
    elif container is not None:
        parts.append("no container seen")
    return ", ".join(p for p in parts if p) or "—"


@dataclass(frozen=True)
class Column:
    """A results column: header (with its unit), the figure it shows, how, and whether with its spread."""

    header: str
    figure: str
    fmt: Callable[[float], str]
    spread: bool = False


def _fixed(digits: int) -> Callable[[float], str]:
    return lambda v: f"{v:,.{digits}f}"


def _num(v: float) -> str:
    return f"{v:,.1f}" if abs(v) >= 10 else f"{v:.2f}"


RESULT_COLUMNS = (
    Column("GCs", "gc_count", _fixed(0)),
    Column("young\n/min", "young_per_min", _fixed(1)),
    Column("full", "full_gc_count", _fixed(1)),
    Column("p99\nms", "pause_p99_ms", _num),
    Column("max\nms", "pause_max_ms", _num),
    Column("interval\ns", "gc_interval_s", _fixed(2)),
    Column("overhead\n%", "gc_overhead_percent", _fixed(2)),
    Column("RSS\nMiB", "rss_peak_bytes", lambda v: f"{v / units.MIB:,.0f}"),
)
# Where the trials ran in containers: what their cgroups counted.
CONTAINER_COLUMNS = (
    Column("thrott-\nled %", "throttled_percent", _fixed(1)),
    Column("memory\nMiB", "memory_peak_bytes", lambda v: f"{v / units.MIB:,.0f}"),
    Column("of limit\n%", "memory_peak_percent", _fixed(0)),
)


def _cell(f: Figure, fmt: Callable[[float], str], *, spread: bool) -> str:
    """The mean, with the coefficient of variation (±%) where there are several trials and it is asked."""
    if f.mean is None:
        return units.MISSING
    text = fmt(f.mean)
    if spread and f.stdev is not None and f.mean:
        text += f" ±{abs(f.stdev / f.mean) * 100:.0f}%"
    return text


def _warmup(f: dict[str, Figure]) -> str:
    early, late = f["metric_early"].mean, f["metric_late"].mean
    return units.MISSING if early is None or late is None else f"{_num(early)} → {_num(late)}"


def _where_headers(results: Sequence[VariantResult] | Sequence[LevelResult]) -> list[str]:
    """JDK and flag set, and the container where the trials ran in one ([matrix.containers])."""
    return ["JDK", "flags", *(["container"] if any(r.container for r in results) else [])]


def _where(r: VariantResult | LevelResult, headers: Sequence[str]) -> list[str]:
    return [r.jdk, r.flag_set, *([r.container or "none"] if "container" in headers else [])]


def results_renderable(title: str, results: Sequence[VariantResult], metric: Any | None) -> RenderableType:
    """Per variant: trials ok, time, workload metric (mean, and the first third of the measured part
    against the last), GC and RSS figures; means over the variant's successful trials, ± the coefficient
    of variation. GC pauses (p99, max) in ms; interval: mean time between GCs."""
    table = Table(box=box.SIMPLE_HEAD, show_edge=False, pad_edge=False, collapse_padding=True)
    where = _where_headers(results)
    headers = [*where, "ok", "time\ns"]
    if metric is not None:
        unit = metric.unit or metric.name
        headers += [f"{unit}\nmean", "early → late\n(warm-up)"]
    columns = RESULT_COLUMNS + (CONTAINER_COLUMNS if "container" in where else ())
    headers += [c.header for c in columns]
    for i, name in enumerate(headers):
        table.add_column(name, justify="left" if i < len(where) else "right", no_wrap=True)
    notes: list[Text] = []
    for r in results:
        f = r.figures
        row = [*_where(r, where), f"{r.ok}/{r.trials}", _cell(f["elapsed_s"], _fixed(1), spread=False)]
        if metric is not None:
            row += [_cell(f["metric_mean"], _num, spread=True), _warmup(f)]
        row += [_cell(f[c.figure], c.fmt, spread=c.spread) for c in columns]
        table.add_row(*row)
        notes += [Text(f"{r.variant}: {reason}", style="red") for reason in r.reasons]
        notes += [Text(f"{r.variant}: profile: {note}", style="dim") for note in r.profile_notes]
        notes += [Text(f"{r.variant}: calls not counted: {e}", style="red") for e in r.count_errors]
        notes += [Text(f"{r.variant}: {note}", style="dim") for note in r.jit_notes]
    calls = calls_table(results)
    return Group(Text(title, style="bold"), table, *notes, *([calls] if calls is not None else []))


def calls_table(results: Sequence[VariantResult]) -> Table | None:
    """The counted methods' calls in the measured window ([telemetry] count): per variant the mean over its
    successful trials, ± the coefficient of variation; None when nothing was counted."""
    names = list(dict.fromkeys(n for r in results for n in r.figures if n.startswith(CALLS)))
    if not names:
        return None
    table = Table(box=box.SIMPLE_HEAD, show_edge=False, pad_edge=False, title_justify="left")
    table.title = "calls counted from readiness to the end (mean per trial)"
    where = _where_headers(results)
    for header in where:
        table.add_column(header, no_wrap=True)
    for name in names:
        table.add_column(name.removeprefix(CALLS), justify="right", overflow="fold")
    missing = Figure(None, None, 0)
    for r in results:
        cells = [_cell(r.figures.get(n, missing), _fixed(0), spread=True) for n in names]
        table.add_row(*_where(r, where), *cells)
    return table


def timeline_renderable(results: Sequence[VariantResult], metric: Any) -> RenderableType | None:
    """The workload metric over time per variant, all on one scale, so that warm-up and slowdowns show."""
    shown = [r for r in results if r.timeline is not None]
    if not shown:
        return None
    top = max((v for r in shown for v in r.timeline.values if v is not None), default=0.0)  # type: ignore[union-attr]
    unit = metric.unit or metric.name
    table = Table(box=None, show_header=False, pad_edge=False, collapse_padding=True)
    where = _where_headers(shown)
    for justify in (*["left"] * len(where), "left", "right"):
        table.add_column(justify=justify, no_wrap=True)  # type: ignore[arg-type]
    for r in shown:
        t = r.timeline
        assert t is not None
        span = f"{t.bin_s * len(t.values):.0f} s"
        table.add_row(*_where(r, where), sparkline(t.values, top), span)
    head = Text(
        f"{unit} over time, from ready to the end (mean of the trials; one scale, █ = {_num(top)} {unit})",
        style="bold",
    )
    return Group(head, table)


def _pair(peak: Figure, mean: Figure) -> str:
    """ "peak/mean" of a per-minute figure ("68/63.2"); the peak needs a window of a minute or more."""
    if mean.mean is None:
        return units.MISSING
    top = units.MISSING if peak.mean is None else f"{peak.mean:,.0f}"
    return f"{top}/{mean.mean:,.1f}"


def _levels_table(where: Sequence[str], container: bool) -> Table:
    table = Table(box=box.SIMPLE_HEAD, show_edge=False, pad_edge=False, collapse_padding=True)
    headers = [*where, "level", "n", "req/s", "err\n%", "young/min\npeak/mean", "pause\nms/min"]
    headers += ["max\npause", "full/min\npeak/mean", "P95\nms", "P99\nms", "P99 svc\nms", "RSS\nMiB"]
    headers += ["thrott-\nled %", "memory\nMiB"] if container else []
    for i, name in enumerate(headers):
        table.add_column(name, justify="left" if i <= len(where) else "right", no_wrap=True)
    return table


def levels_renderable(title: str, results: Sequence[LevelResult]) -> RenderableType:
    """Per variant and load level, in the layout of a GC tuning study: young GCs per minute (peak / mean),
    pause time per minute (cumulative) and the longest pause (single), full GCs, then the latency the
    clients saw. Means over the variant's successful trials; GC figures of each level's measured window.
    Every other figure (max latency, pause percentiles, GC overhead, CPU) is in `jvmlab results --json`."""
    where = _where_headers(results)
    container = "container" in where
    table = _levels_table(where, container)
    for r in results:
        f = r.figures
        cgroup = [
            _cell(f["throttled_percent"], _fixed(1), spread=False),
            _cell(f["memory_peak_bytes"], lambda v: f"{v / units.MIB:,.0f}", spread=False),
        ]
        table.add_row(
            *_where(r, where),
            r.level,
            str(r.trials),
            _cell(f["throughput_rps"], _fixed(1), spread=False),
            _cell(f["error_percent"], _fixed(2), spread=False),
            _pair(f["young_peak_per_min"], f["young_per_min"]),
            _cell(f["pause_ms_per_min"], _fixed(0), spread=False),
            _cell(f["pause_max_ms"], _num, spread=False),
            _pair(f["full_peak_per_min"], f["full_per_min"]),
            _cell(f["p95_ms"], _num, spread=False),
            _cell(f["p99_ms"], _num, spread=True),
            _cell(f["service_p99_ms"], _num, spread=False),
            _cell(f["rss_peak_bytes"], lambda v: f"{v / units.MIB:,.0f}", spread=False),
            *(cgroup if container else []),
        )
    note = Text(
        "young/min, full/min: GCs in the busiest minute / per minute on average; pause ms/min: "
        "stop-the-world time per minute; max pause: the longest; P95, P99: the clients' latency from each "
        "request's due time; P99 svc: service time, from the actual send"
        + (
            "; throttled %: the CFS periods in which the container ran out of CPU quota; memory: the most "
            "its cgroup held (page cache included)"
            if container
            else ""
        ),
        style="dim",
    )
    return Group(Text(title, style="bold"), table, note)


def short_node(node: str | None) -> str:
    """A Ray node as "node-id@ip" with the id cut to 12 characters (the store keeps it whole)."""
    if not node:
        return "this machine"
    node_id, at, ip = node.partition("@")
    return f"{node_id[:12]}{at}{ip}"


def nodes_renderable(per_node: dict[str, int], losses: Sequence[NodeLoss]) -> RenderableType | None:
    """Where the trials ran and each node lost under a trial, one line each; None when all ran here."""
    if not per_node and not losses:
        return None
    ran = ", ".join(f"{short_node(n)} {k} trial{'s' if k != 1 else ''}" for n, k in per_node.items())
    lines = [Text(f"ran on {len(per_node)} node{'s' if len(per_node) != 1 else ''}: {ran}", style="dim")]
    for loss in losses:
        at = time.strftime("%H:%M:%S", time.localtime(loss.at))
        lines.append(
            Text(f"lost {loss.trial} on {short_node(loss.node)} at {at}: {loss.reason}", style="yellow")
        )
    return Group(*lines)
