"""The HTML report of a stored experiment (jvmlab.report.html): overview and verdict, environment and the
JVMs' own flags, goals, the comparison tables with CIs, charts (the workload metric over time, GC per
minute, latency against load level, RSS over time, and per variant its heap, pauses and collections from
one trial's GC log), and every trial linked to its files.

Everything shown comes as a ReportData (jvmlab.experiment.analysis.report_data: the store's rows and the
parsed GC logs); this module only lays it out.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from jvmlab.experiment.analysis.comparison import Comparison
from jvmlab.experiment.analysis.goals import FAIL, INCONCLUSIVE, PASS
from jvmlab.experiment.analysis.report_data import ReportData
from jvmlab.experiment.analysis.results import Timeline, since_ready
from jvmlab.experiment.auto_repetitions import stored_rounds
from jvmlab.experiment.storage import OK, TrialRow
from jvmlab.report import units
from jvmlab.report.advice.html import findings_section
from jvmlab.report.advice.verification import verification_section
from jvmlab.report.experiment.comparison_view import ComparisonView, TableView, comparison_view
from jvmlab.report.experiment.container_section import container_section
from jvmlab.report.experiment.jit_section import jit_section
from jvmlab.report.experiment.tune_section import tune_section
from jvmlab.report.html.charts import Series, bar_chart, line_chart
from jvmlab.report.html.flamegraph import flamegraph_block
from jvmlab.report.html.page import Block, Cell, Chart, Column, KeyValues, Links, Page, Section, Table, Text
from jvmlab.report.rounds_view import rounds_section
from jvmlab.tune import TuneResult
from jvmlab.verify import RecommendationResult

PALETTE = (
    "#1f77b4", "#d62728", "#2ca02c", "#ff7f0e", "#9467bd", "#8c564b",
    "#e377c2", "#17becf", "#bcbd22", "#7f7f7f", "#393b79", "#637939",
)  # fmt: skip
MIB = 1 << 20
TONE_STATUS = {
    "better": "better",
    "worse": "worse",
    "equivalent": "muted",
    "different": "inconclusive",
    "inconclusive": "inconclusive",
}
VERDICT_STATUS = {PASS: "pass", FAIL: "fail", INCONCLUSIVE: "inconclusive"}


def colors(c: Comparison) -> dict[str, str]:
    return {v.variant: PALETTE[i % len(PALETTE)] for i, v in enumerate(c.variants)}


# Overview ----------------------------------------------------------------------------------------------


def verdict_text(view: ComparisonView, d: ReportData) -> Text:
    counts = {s: sum(g.verdict == s for g in view.goals) for s in (PASS, FAIL, INCONCLUSIVE)}
    failed = [t for t in d.trials if t.state != OK]
    lines = []
    if view.goals:
        head = "Goals: every goal is met." if not counts[FAIL] and not counts[INCONCLUSIVE] else "Goals: "
        if counts[FAIL] or counts[INCONCLUSIVE]:
            head += f"{counts[FAIL]} failed, {counts[INCONCLUSIVE]} inconclusive, {counts[PASS]} passed."
        lines.append(head)
    else:
        lines.append(
            "The spec sets no goals ([goals]); the tables below compare every variant with its baseline."
        )
    ok = len(d.trials) - len(failed)
    lines.append(
        f"{ok} of {len(d.trials)} trials succeeded" + (f"; {len(failed)} did not." if failed else ".")
    )
    tone = "warning" if counts[FAIL] or counts[INCONCLUSIVE] or failed else "plain"
    return Text(tuple(lines), tone=tone)  # type: ignore[arg-type]


def overview(d: ReportData, view: ComparisonView) -> Section:
    exp, c = d.experiment, d.comparison
    spec = exp.spec or {}
    rows = [
        ("experiment", f"{exp.id}: {exp.name} ({exp.status})"),
        ("description", str(spec.get("description") or "—")),
        ("variants", f"{len(c.variants)} (JDK x flag set), {len(d.trials)} trials"),
        ("baselines", ", ".join(sorted({b for _, b in view.baselines})) or "—"),
        ("significance", view.legend),
        ("run folder", exp.run_dir),
    ]
    found = Text(view.findings, tone="plain")
    blocks: list[Block] = [verdict_text(view, d), found, KeyValues(tuple(rows))]
    if view.warnings:
        blocks.append(Text(tuple(view.warnings), tone="warning"))
    return Section("overview", "Overview and verdict", tuple(blocks))


# Environment ---------------------------------------------------------------------------------------------


def _size(v: Any) -> str:
    return units.size(v) if isinstance(v, int | float) and v < (1 << 62) else "unlimited" if v else "—"


def environment(d: ReportData) -> Section:
    env = d.experiment.environment or {}
    m = env.get("machine", {})
    cgroup = m.get("cgroup") or {}
    machine = [
        (
            "CPU",
            f"{m.get('cpu_model', '—')} ({m.get('cpu_count', '—')} CPUs, {m.get('cpus_usable', '—')} usable)",
        ),
        ("memory", _size(m.get("memory_bytes"))),
        ("kernel", str(m.get("kernel", "—"))),
        ("transparent huge pages", str(m.get("thp", "—"))),
        (
            "cgroup limits",
            ", ".join(
                f"{k} {v:g}" if isinstance(v, float) else f"{k} {v if v is not None else 'none'}"
                for k, v in cgroup.items()
            )
            or "none",
        ),
        ("load average at start", " ".join(f"{x:.2f}" for x in m.get("load_average") or []) or "—"),
    ]
    jdks = env.get("jdks", {})
    jdk_rows = [
        (
            name,
            str(j.get("version", "—")),
            str(j.get("vendor", "—")),
            str(j.get("vm", "—")),
            str((j.get("release") or {}).get("JAVA_RUNTIME_VERSION", "—")),
            str(j.get("home", "—")),
        )
        for name, j in sorted(jdks.items())
    ]
    jdk_table = Table(
        tuple(Column(t) for t in ("JDK", "version", "vendor", "VM", "build", "home")),
        tuple(tuple(Cell(x) for x in r) for r in jdk_rows),
        caption="JDK builds",
    )
    return Section(
        "environment",
        "Environment",
        (KeyValues(tuple(machine), caption="machine"), jdk_table, flags_table(d)),
    )


ERGONOMICS = (
    ("collector", "collector", str),
    ("heap initial", "initial_heap_size_bytes", _size),
    ("heap max", "max_heap_size_bytes", _size),
    ("young (new)", "new_size_bytes", _size),
    ("GC threads", "parallel_gc_threads", str),
    ("concurrent GC threads", "conc_gc_threads", str),
    ("code cache", "reserved_code_cache_size_bytes", _size),
    ("metaspace max", "max_metaspace_size_bytes", _size),
)


def flags_table(d: ReportData) -> Table:
    """Per variant: its flags, and what the JVM made of them (-XX:+PrintFlagsFinal before the run)."""
    first: dict[str, TrialRow] = {}
    for t in d.trials:
        first.setdefault(t.variant, t)
    rows = []
    for v in d.comparison.variants:
        t = first[v.variant]
        info = t.jdk_info or {}
        ergo = info.get("ergonomics") or {}
        cells = [v.variant, " ".join(t.flags or []) or "(none)"]
        cells += [fmt(ergo[key]) if ergo.get(key) is not None else "—" for _, key, fmt in ERGONOMICS]
        cells.append("; ".join(info.get("warnings") or []) or "—")
        rows.append(tuple(Cell(x) for x in cells))
    columns = (Column("variant"), Column("flags")) + tuple(
        Column(t, numeric=t != "collector") for t, _, _ in ERGONOMICS
    )
    return Table(
        columns + (Column("JVM warnings"),),
        tuple(rows),
        caption="flags, and the values in force as the JVM reported them (-XX:+PrintFlagsFinal)",
    )


# Goals and comparison tables ---------------------------------------------------------------------------


def goals_table(view: ComparisonView) -> Table:
    rows = tuple(
        (
            Cell(g.level),
            Cell(g.variant),
            Cell(g.goal),
            Cell(g.value),
            Cell(g.ci),
            Cell(g.verdict, VERDICT_STATUS.get(g.verdict, "muted")),  # type: ignore[arg-type]
            Cell(g.reason),
        )
        for g in view.goals
    )
    columns = ("level", "variant", "goal", "value", "CI", "verdict", "why")
    return Table(tuple(Column(c, numeric=c in ("value", "CI")) for c in columns), rows, caption="goals")


def steady_table(view: ComparisonView) -> Table:
    """Warm-up and steady state of the workload metric, per variant over its repetitions."""
    columns = ("variant", "repetitions", "consistent", "time to steady", "early → steady")
    rows = tuple(
        (
            Cell(r.variant),
            Cell(r.classes),
            Cell(r.consistent),
            Cell(r.time_to_steady),
            Cell(r.early_to_steady),
        )
        for r in view.steady
    )
    caption = "warm-up and steady state of the workload metric (PELT changepoints, Barrett et al. 2017)"
    return Table(tuple(Column(c, numeric=c in columns[3:]) for c in columns), rows, caption=caption)


def comparison_table(t: TableView) -> Table:
    rows = []
    for variant, cells in t.rows:
        row = [Cell(variant)]
        for c in cells:
            text = c.value + (f"  {c.change} {c.change_ci}".rstrip() if c.change else "")
            row.append(Cell(text, TONE_STATUS.get(c.tone, "")))  # type: ignore[arg-type]
        rows.append(tuple(row))
    columns = (Column("variant"),) + tuple(Column(name, numeric=True) for name in t.columns)
    return Table(columns, tuple(rows), caption=t.title)


# Charts ------------------------------------------------------------------------------------------------


def metric_chart(d: ReportData) -> Chart | None:
    """The workload metric over time since ready, per variant: the mean of its repetitions per time bin."""
    c = d.comparison
    if c.metric is None or not d.metric_series:
        return None
    palette = colors(c)
    by_variant: dict[str, list[list[tuple[float, float]]]] = {}
    for t in d.trials:
        if t.id in d.metric_series:
            by_variant.setdefault(t.variant, []).append(since_ready(t, d.metric_series[t.id]))
    series = []
    for v in c.variants:
        timeline = Timeline.of(by_variant.get(v.variant, []), most_bins=300)
        if timeline is None:
            continue
        x = [(i + 1) * timeline.bin_s for i in range(len(timeline.values))]
        y = [float("nan") if y is None else y for y in timeline.values]
        series.append(Series(v.variant, x, y, color=palette[v.variant]))
    if not series:
        return None
    unit = c.measures[c.metric].unit
    label = c.measures[c.metric].label
    figure = line_chart(series, "seconds since ready", f"{label} ({unit})" if unit else label)
    return Chart("metric-over-time", f"{label} over time", figure, "mean of the repetitions per time bin")


def _error_bars(figure: dict[str, Any], cis: list[tuple[float | None, float | None, float | None]]) -> None:
    trace = figure["data"][0]
    trace["error_y"] = {
        "type": "data",
        "symmetric": False,
        "array": [None if h is None or m is None else h - m for m, _, h in cis],
        "arrayminus": [None if lo is None or m is None else m - lo for m, lo, _ in cis],
        "color": "#444",
    }


def estimate_chart(d: ReportData, measure: str, level: str | None, id: str) -> Chart | None:
    """One measure per variant: bars at the mean with the 95% CI as error bars."""
    c = d.comparison
    block = next((b for b in c.blocks if b.level == level), None)
    if block is None or measure not in block.cells:
        return None
    cells = [(v.variant, block.cells[measure].get(v.variant)) for v in c.variants]
    present = [(name, cell) for name, cell in cells if cell is not None and cell.estimate.mean is not None]
    if not present:
        return None
    m = c.measures[measure]
    means = [cell.estimate.mean or 0.0 for _, cell in present]
    figure = bar_chart(
        [Series(m.label, [n for n, _ in present], means)],
        "variant",
        _unit_title(m.label, m.unit),
        x_categorical=True,
    )
    _error_bars(
        figure, [(cell.estimate.mean, cell.estimate.ci_low, cell.estimate.ci_high) for _, cell in present]
    )
    at = "" if level is None else f" at {level}"
    return Chart(id, f"{m.label}{at}", figure, "mean of the repetitions; error bars: bootstrap 95% CI")


def _unit_title(label: str, unit: str) -> str:
    return f"{label} ({unit})" if unit and unit != "/min" else label


def gc_per_minute_chart(d: ReportData) -> Chart | None:
    """Young and full GCs per minute per variant (and load level): the means over the repetitions."""
    c = d.comparison
    series = []
    for block in c.blocks:
        for name, label in (("young_gc_per_min", "young"), ("full_gc_per_min", "full")):
            cells = block.cells.get(name)
            if not cells:
                continue
            x = [v.variant for v in c.variants if v.variant in cells]
            y = [cells[v].estimate.mean or 0.0 for v in x]
            at = "" if block.level is None else f" at {block.level}"
            series.append(Series(f"{label}{at}", x, y))
    if not series:
        return None
    figure = bar_chart(series, "variant", "GCs per minute", stacked=False, x_categorical=True)
    return Chart(
        "gc-per-minute", "GCs per minute", figure, "means over the repetitions (of each level's window)"
    )


# (measure, chart id, what it is): latency from the due time, and service time from the actual send
LATENCY_CHARTS = (
    ("p99_ms", "latency-p99", "P99 latency"),
    ("service_p99_ms", "service-p99", "P99 service time"),
    ("p95_ms", "latency-p95", "P95 latency"),
    ("p50_ms", "latency-p50", "P50 latency"),
)


def latency_charts(d: ReportData) -> list[Chart]:
    """Latency percentiles against the load level's rate: a chart per percentile, a line per variant."""
    c = d.comparison
    levels = [b for b in c.blocks if b.level is not None]
    palette = colors(c)
    out = []
    for measure, chart_id, label in LATENCY_CHARTS if levels else ():
        series = []
        for v in c.variants:
            cells = [(b.rate or 0.0, b.cells.get(measure, {}).get(v.variant)) for b in levels]
            xy = [
                (r, cell.estimate.mean)
                for r, cell in cells
                if cell is not None and cell.estimate.mean is not None
            ]
            if xy:
                x, y = [p[0] for p in xy], [p[1] for p in xy]
                series.append(Series(v.variant, x, y, color=palette[v.variant], mode="lines+markers"))
        if series:
            figure = line_chart(series, "load (requests per second)", f"{label} (ms)", y_log=True)
            caption = "means over the repetitions of each level's measured window; log scale"
            out.append(Chart(chart_id, f"{label} against load", figure, caption))
    return out


def rss_chart(d: ReportData) -> Chart | None:
    """Resident memory of the JVM's process tree over time, one line per trial."""
    palette = colors(d.comparison)
    series = []
    for t in d.trials:
        points = [p for p in d.rss_series.get(t.id, []) if p[1] > 0]  # not the sample after the exit
        if points:
            x, y = [p[0] for p in points], [p[1] / MIB for p in points]
            series.append(Series(f"{t.variant} #{t.repetition}", x, y, color=palette.get(t.variant)))
    if not series:
        return None
    return Chart(
        "rss-over-time",
        "RSS over time",
        line_chart(series, "seconds since start", "RSS (MiB)"),
        "every trial",
    )


def gc_sections(d: ReportData) -> list[Section]:
    """Per variant, the charts of one successful trial's GC log (the first repetition that has one)."""
    from jvmlab.report.gclog.page import chart_sections

    out = []
    for i, evidence in enumerate(d.gc_logs, start=1):
        children = tuple(chart_sections(evidence.events, evidence.summary, f"v{i}-"))
        note = Text((f"From the GC log of trial {evidence.trial_key}.",), tone="note")
        out.append(Section(f"gc-v{i}", evidence.variant, (note,), children))
    return out


# Profiles ----------------------------------------------------------------------------------------------

PROFILE_MAX_NODES = 20_000  # per flame graph: a report holds one per variant and event


def profiles_section(d: ReportData) -> Section:
    """Per profiled event, a flame graph per variant: its trials' profiles merged (their sum)."""
    children = []
    for event in dict.fromkeys(p.event for p in d.profiles):
        blocks: list[Block] = []
        for i, p in enumerate((p for p in d.profiles if p.event == event), start=1):
            title = f"{p.variant}: {event}, {p.trials} trial{'s' if p.trials != 1 else ''} merged"
            blocks.append(
                flamegraph_block(f"flame-{event}-{i}", title, p.merged, max_nodes=PROFILE_MAX_NODES)
            )
        children.append(Section(f"profiles-{event}", f"{event} profiles", tuple(blocks)))
    note = Text(
        (
            "Each variant's successful trials' profiles summed stack by stack, from the moment the workload "
            "was ready; `jvmlab profile diff EXPERIMENT:A EXPERIMENT:B` compares two variants "
            "(docs/profile.md). Each trial's profile note is in the trials' table.",
        ),
        tone="note",
    )
    return Section("profiles", "Profiles per variant", (note,), tuple(children))


# Trials ------------------------------------------------------------------------------------------------


def _href(path: str, base: Path | None) -> str:
    if base is None:
        return Path(path).as_uri() if Path(path).is_absolute() else path
    return os.path.relpath(path, base)


def trials_section(d: ReportData, href: Callable[[str], str]) -> Section:
    profiled = any(t.profile_note for t in d.trials)
    rows = []
    for t in sorted(d.trials, key=lambda t: t.position):
        status = "" if t.state == OK else "fail"
        rows.append(
            (
                Cell(str(t.position)),
                Cell(t.variant),
                Cell(str(t.repetition) + (f" @ {t.level}" if t.level else "")),
                Cell(t.state, status),  # type: ignore[arg-type]
                Cell(units.seconds(t.elapsed_s)),
                Cell(t.reason or ""),
                *((Cell(t.profile_note or ""),) if profiled else ()),
            )
        )
    columns: tuple[Column, ...] = (Column("#", numeric=True), Column("variant"), Column("repetition"))
    columns += (Column("state"), Column("time", numeric=True), Column("reason"))
    table = Table(
        columns + ((Column("profile"),) if profiled else ()), tuple(rows), caption="trials in run order"
    )
    links = [
        (f"{t.key}: {kind}", href(path))
        for t in sorted(d.trials, key=lambda t: t.position)
        for kind, path in sorted(d.artifacts.get(t.id, {}).items())
    ]
    blocks: list[Block] = [table]
    if links:
        blocks.append(Links(tuple(links), caption="each trial's files (GC log, output, JFR recording)"))
    return Section("trials", "Trials and their files", tuple(blocks))


# The page ----------------------------------------------------------------------------------------------


def experiment_page(
    d: ReportData,
    *,
    output: Path | None = None,
    measures: Sequence[str] | None = None,
    generated_at: str = "",
    tuning: TuneResult | None = None,
    file_href: Callable[[str], str] | None = None,
) -> Page:
    """The report page; `output`: where it will be written (links to the trials' files are relative to
    it, so the report and the run folder can move together); `file_href`: a trial file's link instead
    (a server's URL)."""
    from jvmlab import __version__

    c = d.comparison
    view = comparison_view(c, measures)
    sections = [overview(d, view), environment(d)]
    if tuning is not None:  # an experiment made by jvmlab tune: what the search found comes first
        sections.append(tune_section(tuning))
    if view.goals:
        sections.append(Section("goals", "Goals", (goals_table(view),)))
    tables: list[Block] = [Text((view.legend,), tone="note")]
    tables += [comparison_table(t) for t in view.tables]
    if view.steady:
        tables.append(steady_table(view))
    sections.append(Section("comparison", "Comparison", tuple(tables)))
    rounds = stored_rounds(d.experiment.environment)
    if rounds is not None:
        sections.append(rounds_section(rounds))
    sections.append(Section("charts", "Charts", tuple(charts(d, view))))
    verified = d.experiment.environment.get("verification")
    if verified:
        sections.append(
            verification_section(
                verified["source"], [RecommendationResult.model_validate(r) for r in verified["results"]]
            )
        )
    if d.advice:
        found = tuple(findings_section(a, f"findings-v{i}-", a.name) for i, a in enumerate(d.advice, start=1))
        note = Text(("What jvmlab advise finds in each variant's trials (docs/advise.md).",), tone="note")
        sections.append(Section("findings", "Findings per variant", (note,), found))
    if d.gc_logs:
        sections.append(Section("gc", "GC per variant", (), tuple(gc_sections(d))))
    if d.profiles:
        sections.append(profiles_section(d))
    jit = jit_section(d, colors(c))
    if jit is not None:
        sections.append(jit)
    containers = container_section(d)
    if containers is not None:
        sections.append(containers)
    base = None if output is None else output.resolve().parent
    sections.append(trials_section(d, file_href or (lambda path: _href(path, base))))
    return Page(
        title=f"jvmlab: {c.name}",
        subtitle=f"experiment {c.experiment_id} · {len(c.variants)} variants · {len(d.trials)} trials",
        sections=tuple(sections),
        generated_by=f"jvmlab {__version__}",
        generated_at=generated_at,
    )


def charts(d: ReportData, view: ComparisonView) -> list[Block]:
    c = d.comparison
    out: list[Chart | None] = [metric_chart(d)]
    if c.metric is not None and c.blocks and c.blocks[0].level is None:
        out.append(estimate_chart(d, c.metric, None, "metric-estimates"))
    top = next((b.level for b in reversed(c.blocks) if b.level is not None), None)
    if top is not None:
        out.append(estimate_chart(d, "p99_ms", top, "p99-estimates"))
    out += [gc_per_minute_chart(d), *latency_charts(d), rss_chart(d)]
    found: list[Block] = [chart for chart in out if chart is not None]
    return found or [Text(("Nothing to chart: no successful trial recorded a series.",))]
