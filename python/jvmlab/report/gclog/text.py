"""Terminal rendering (rich) of the view models. Returns renderables; the CLI decides where they go."""

from __future__ import annotations

from rich import box
from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text

from jvmlab.report.gclog.comparison_view import CompareView
from jvmlab.report.gclog.summary_view import SummaryView


def _rates_table(view: SummaryView) -> Table:
    table = Table(box=box.SIMPLE_HEAD, show_edge=False, pad_edge=False)
    table.add_column("collections")
    for name in ("count", "mean", "peak (busiest minute)"):
        table.add_column(name, justify="right")
    for row in view.rate_rows:
        table.add_row(row.label, row.count, row.mean, row.peak)
    return table


def _figures_table(view: SummaryView) -> Table:
    table = Table(box=box.SIMPLE_HEAD, show_edge=False, pad_edge=False, show_header=False)
    table.add_column("figure", style="bold")
    table.add_column("value", overflow="fold")
    for section in view.sections:
        table.add_row(Text(section.title, style="bold underline"), "")
        for label, value in section.rows:
            table.add_row(f"  {label}", value)
    return table


def _lines(lines: tuple[str, ...], style: str, prefix: str = "") -> list[Text]:
    return [Text(prefix + line, style=style) for line in lines]


def summary_renderable(view: SummaryView) -> RenderableType:
    parts: list[RenderableType] = [
        Text(view.title, style="bold"),
        Text(f"format  {view.format_line}"),
        Text(f"run     {view.window_line}"),
        Text(""),
        _rates_table(view),
    ]
    if view.other_kinds_line:
        parts.append(Text(view.other_kinds_line, style="dim"))
    parts += [Text(""), _figures_table(view), Text("")]
    parts += _lines(view.diagnostics, "dim")
    parts += _lines(view.warnings, "yellow", "warning: ")
    parts += _lines(view.notes, "cyan", "note: ")
    return Group(*parts)


def compare_renderable(view: CompareView) -> RenderableType:
    table = Table(box=box.SIMPLE_HEAD, show_edge=False, pad_edge=False)
    table.add_column("figure", style="bold")
    for i, label in enumerate(view.labels):
        table.add_column(label, justify="right", overflow="fold")
        if i:
            table.add_column(f"vs {view.labels[0]}", justify="right")
    for row in view.rows:
        cells = [row.label, row.shown[0]]
        for shown, change in zip(row.shown[1:], row.changes[1:], strict=True):
            cells += [shown, change]
        table.add_row(*cells)
    parts: list[RenderableType] = [Text(line, style="bold") for line in view.headlines]
    parts += [Text(""), table]
    parts += _lines(view.inputs, "dim")
    parts += _lines(view.warnings, "yellow", "warning: ")
    return Group(*parts)
