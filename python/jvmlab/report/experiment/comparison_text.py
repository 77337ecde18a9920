"""The comparison in the terminal (rich): one table per load level (or the whole run), the goals, the
workload metric's warm-up, and the quality warnings."""

from __future__ import annotations

from rich import box
from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text

from jvmlab.experiment.analysis.goals import FAIL, INCONCLUSIVE, PASS
from jvmlab.report.experiment.comparison_view import BETTER, DIFFERENT, WORSE, ComparisonView, TableView

TONES = {BETTER: "green", WORSE: "red", DIFFERENT: "yellow", INCONCLUSIVE: "yellow"}
VERDICT_STYLES = {PASS: "bold green", FAIL: "bold red", INCONCLUSIVE: "yellow"}


def verdict_text(verdict: str) -> Text:
    return Text(verdict, style=VERDICT_STYLES.get(verdict, "dim"))


def _table(view: TableView) -> Table:
    table = Table(
        title=view.title, box=box.SIMPLE_HEAD, show_edge=False, pad_edge=False, title_justify="left"
    )
    table.add_column("variant", no_wrap=True)
    for column in view.columns:
        table.add_column(column, justify="right")
    for variant, cells in view.rows:
        row: list[Text] = [Text(variant)]
        for c in cells:
            text = Text(c.value)
            if c.change:
                text.append("\n" + c.change, style=TONES.get(c.tone, "dim"))
            row.append(text)
        table.add_row(*row)
    return table


def _goals(view: ComparisonView) -> Table:
    table = Table(title="goals", box=box.SIMPLE_HEAD, show_edge=False, pad_edge=False, title_justify="left")
    for name, justify in (("level", "left"), ("variant", "left"), ("goal", "left"), ("value", "right")):
        table.add_column(name, justify=justify)  # type: ignore[arg-type]
    table.add_column("95% CI", justify="right")
    table.add_column("verdict")
    for g in view.goals:
        table.add_row(g.level, g.variant, g.goal, g.value, g.ci, verdict_text(g.verdict))
    return table


def _steady(view: ComparisonView) -> Table:
    table = Table(
        title="warm-up and steady state of the workload metric (PELT changepoints, Barrett et al. 2017)",
        box=box.SIMPLE_HEAD,
        show_edge=False,
        pad_edge=False,
        title_justify="left",
    )
    for name in ("variant", "repetitions", "consistent", "time to steady", "early → steady"):
        table.add_column(name, justify="right" if name in ("time to steady", "early → steady") else "left")
    for r in view.steady:
        table.add_row(r.variant, r.classes, r.consistent, r.time_to_steady, r.early_to_steady)
    return table


def comparison_renderables(view: ComparisonView) -> list[RenderableType]:
    head = [Text(view.title, style="bold"), Text(view.legend, style="dim")]
    if view.baselines:
        pairs = sorted({b for _, b in view.baselines})
        head.append(Text("baseline: " + ", ".join(pairs), style="dim"))
    out: list[RenderableType] = [Group(*head)]
    out += [_table(t) for t in view.tables]
    if view.goals:
        out.append(_goals(view))
    if view.steady:
        out.append(_steady(view))
    out.append(Group(Text("significant changes", style="bold"), *(Text("  " + f) for f in view.findings)))
    if view.warnings:
        out.append(Group(*(Text("warning: " + w, style="yellow") for w in view.warnings)))
    return out
