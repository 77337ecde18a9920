"""Terminal tables of experiments: the plan before a run (JDKs, flag sets and what the JVM said of them,
the trial order) and the results per variant after it."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from rich import box
from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text

from jvmlab.experiment.results import Figure, VariantResult
from jvmlab.report import units


def plan_renderable(plan: Any, *, store_url: str) -> RenderableType:
    """The plan of `jvmlab run`: per variant, the verdict of the flag check; then the order."""
    spec = plan.spec
    table = Table(box=box.SIMPLE_HEAD, show_edge=False, pad_edge=False, title_justify="left")
    for name in ("JDK", "flag set", "version", "flags", "JVM says"):
        table.add_column(name, overflow="fold", no_wrap=name in ("JDK", "flag set"))
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
        table.add_row(
            v.key, f"{jdk.version} ({getattr(jdk, 'vendor', '') or ''})", " ".join(v.flags) or "—", said
        )
    order = ", ".join(t.key for t in plan.trials[:6]) + (" ..." if len(plan.trials) > 6 else "")
    head = Text.assemble(
        (f"{spec.name}", "bold"),
        f": {len(plan.variants)} variants x {spec.matrix.repetitions} repetitions = {len(plan.trials)} trials"
        f" ({spec.matrix.order} order, seed {spec.matrix.seed}), timeout {spec.trial.timeout_s:g} s each;"
        f" results to {store_url}",
    )
    return Group(head, table, Text(f"order: {order}", style="dim"))


def _mean(f: Figure, fmt: Any, *, spread: bool = True) -> str:
    if f.mean is None:
        return units.MISSING
    text: str = fmt(f.mean)
    if spread and f.stdev is not None and f.mean:
        text += f" ±{abs(f.stdev / f.mean) * 100:.0f}%"
    return text


def _num(v: float) -> str:
    return f"{v:,.1f}" if abs(v) >= 10 else f"{v:.2f}"


def results_renderable(title: str, results: Sequence[VariantResult], metric: Any | None) -> RenderableType:
    """Per variant: trials ok, time, workload metric (mean and early -> late), GC and RSS figures; means
    over the variant's successful trials, ± the coefficient of variation."""
    table = Table(box=box.SIMPLE_HEAD, show_edge=False, pad_edge=False)
    unit = f" ({metric.unit})" if metric is not None and metric.unit else ""
    columns = ["JDK", "flags", "ok", "time"]
    if metric is not None:
        columns += [f"{metric.name}{unit}", "early → late"]
    columns += ["GCs", "young/min", "full", "p99 pause", "max pause", "GC interval", "overhead", "RSS peak"]
    for i, name in enumerate(columns):
        table.add_column(name, justify="left" if i < 2 else "right", overflow="fold", no_wrap=i < 2)
    notes: list[Text] = []
    for r in results:
        f = r.figures
        row = [r.jdk, r.flag_set, f"{r.ok}/{r.trials}", _mean(f["elapsed_s"], units.seconds)]
        if metric is not None:
            early, late = f["metric_early"].mean, f["metric_late"].mean
            warm = units.MISSING if early is None or late is None else f"{_num(early)} → {_num(late)}"
            row += [_mean(f["metric_mean"], _num), warm]
        row += [
            _mean(f["gc_count"], lambda v: f"{v:,.0f}", spread=False),
            _mean(f["young_per_min"], units.per_min, spread=False),
            _mean(f["full_gc_count"], lambda v: f"{v:,.1f}", spread=False),
            _mean(f["pause_p99_ms"], units.ms),
            _mean(f["pause_max_ms"], units.ms, spread=False),
            _mean(f["gc_interval_s"], units.seconds, spread=False),
            _mean(f["gc_overhead_percent"], lambda v: f"{v:.2f} %", spread=False),
            _mean(f["rss_peak_bytes"], units.size, spread=False),
        ]
        table.add_row(*row)
        for reason in r.reasons:
            notes.append(Text(f"{r.variant}: {reason}", style="red"))
    return Group(Text(title, style="bold"), table, *notes)
