"""The experiment report's JIT section ([telemetry] jit): code cache use per code heap over time (each
variant's first trial), compilations per minute over time, and each trial's compilation figures."""

from __future__ import annotations

from jvmlab.experiment.analysis.report_data import ReportData
from jvmlab.report.html.charts import Series, line_chart
from jvmlab.report.html.page import Block, Cell, Chart, Section, Text, table
from jvmlab.report.jit_view import CODE_HEAP_COLUMNS, FULL_COLUMN, TRIAL_COLUMNS, code_heap_rows, trial_cells

MIB = 1 << 20
DASHES = ("solid", "dash", "dot", "dashdot", "longdash", "longdashdot")


def code_heap_chart(d: ReportData, colors: dict[str, str]) -> Chart | None:
    by_id = {t.id: t for t in d.trials}
    series = []
    for trial_id, heaps in d.code_heaps.items():
        t = by_id[trial_id]
        for i, (heap, points) in enumerate(sorted(heaps.items())):
            x, y = [p[0] for p in points], [p[1] / MIB for p in points]
            s = Series(f"{t.variant}: {heap}", x, y, color=colors.get(t.variant))
            series.append((s, DASHES[i % len(DASHES)]))
    if not series:
        return None
    figure = line_chart([s for s, _ in series], "seconds since start", "code heap used (MiB)")
    for trace, (_, dash) in zip(figure["data"], series, strict=True):
        trace.setdefault("line", {})["dash"] = dash
    return Chart(
        "code-heaps",
        "Code cache use per code heap",
        figure,
        "each variant's first trial; one line style per heap",
    )


def compilations_chart(d: ReportData, colors: dict[str, str]) -> Chart | None:
    """Compilations per minute per tier over time: a color per variant, a line style per tier."""
    series = []
    seen: set[str] = set()
    for tj in d.jit:
        s = tj.summary
        if s is None or tj.variant in seen or not s.per_minute.get("bins"):
            continue
        seen.add(tj.variant)
        x = [b["start_s"] for b in s.per_minute["bins"]]
        per_tier = s.per_minute.get("per_tier") or {"all": [b["per_min"] for b in s.per_minute["bins"]]}
        for i, (tier, y) in enumerate(per_tier.items()):
            name = f"{tj.variant}: tier {tier}"
            series.append((Series(name, x, y, color=colors.get(tj.variant)), DASHES[i % len(DASHES)]))
    if not series:
        return None
    figure = line_chart([s for s, _ in series], "seconds since JVM start", "compilations per minute")
    for trace, (_, dash) in zip(figure["data"], series, strict=True):
        trace.setdefault("line", {})["dash"] = dash
    return Chart(
        "compilations",
        "Compilations per minute, per tier",
        figure,
        "each variant's first trial with a compilation log; one line style per tier (1-3 C1, 4 C2)",
    )


HOT_COLUMNS = ("variant", "hot methods from", "caller", "callee", "reason", "count")


def hot_failure_rows(d: ReportData, top: int = 10) -> list[list[str | Cell]]:
    rows: list[list[str | Cell]] = []
    seen: set[str] = set()
    for tj in d.jit:
        s = tj.summary
        if s is None or tj.variant in seen:
            continue
        seen.add(tj.variant)
        for f in s.hot_inlining_failures[:top]:
            rows.append(
                [
                    tj.variant,
                    s.hot_source,
                    str(f["caller"]),
                    str(f["callee"]),
                    str(f["reason"]),
                    f"{f['count']:,}",
                ]
            )
    return rows


def jit_section(d: ReportData, colors: dict[str, str]) -> Section | None:
    if not d.jit and not d.code_heaps:
        return None
    blocks: list[Block] = [
        Text(
            (
                "From each trial's compilation log and code cache samples ([telemetry] jit, docs/jit.md); "
                "`jvmlab jit EXPERIMENT` shows the same in the terminal.",
            ),
            tone="note",
        )
    ]
    blocks += [c for c in (code_heap_chart(d, colors), compilations_chart(d, colors)) if c is not None]
    rows: list[list[str | Cell]] = []
    for tj in d.jit:
        s = tj.summary
        if s is None:
            continue
        cells: list[str | Cell] = list(trial_cells(tj.variant, tj.key, s))
        cells[FULL_COLUMN] = Cell(str(cells[FULL_COLUMN]), "fail" if s.codecache_full else "")
        rows.append(cells)
    if rows:
        blocks.append(table(TRIAL_COLUMNS, rows, "compilations per trial"))
    heaps: list[list[str | Cell]] = [list(r) for tj in d.jit for r in code_heap_rows(tj)]
    if heaps:
        blocks.append(table(CODE_HEAP_COLUMNS, heaps, "code heaps per trial: size and the most used seen"))
    failures = hot_failure_rows(d)
    if failures:
        blocks.append(
            table(HOT_COLUMNS, failures, "inlining failures in hot methods, each variant's first trial")
        )
    return Section("jit", "JIT and code cache", tuple(blocks))
