"""Views of `jvmlab advise --verify`: per recommendation, its verdict, the change of its targeted measure
with the CI, and its side effects; in the terminal and as a section of the experiment report."""

from __future__ import annotations

from collections.abc import Sequence

from rich import box
from rich.console import Group, RenderableType
from rich.table import Table as RichTable
from rich.text import Text as RichText

from jvmlab.report.html.page import Cell, Column, Section, Table, Text
from jvmlab.report.verdicts import FLAG_NOTE, FLAG_STATUS, FLAG_STYLE
from jvmlab.verify import RecommendationResult


def rows(results: Sequence[RecommendationResult]) -> list[tuple[str, str, str, str, str]]:
    out = []
    for r in results:
        target = "; ".join(c.describe() for c in r.target) or "not measured"
        side = "; ".join(c.describe() for c in r.side_effects) or "none"
        out.append((f"{r.finding_id} ({r.trials} trials)", r.changes, r.verdict, target, side))
    return out


def verification_renderable(source: str, results: Sequence[RecommendationResult]) -> RenderableType:
    table = RichTable(box=box.SIMPLE_HEAD, title=f"advice verified: {source}", title_justify="left")
    for name in ("recommendation", "change", "verdict", "targeted measure", "side effects"):
        table.add_column(name, overflow="fold")
    for rec, change, verdict, target, side in rows(results):
        table.add_row(rec, change, RichText(verdict, style=FLAG_STYLE.get(verdict, "")), target, side)
    return Group(table, RichText(FLAG_NOTE, style="dim"))


def verification_section(source: str, results: Sequence[RecommendationResult]) -> Section:
    columns = tuple(
        Column(t) for t in ("recommendation", "change", "verdict", "targeted measure", "side effects")
    )
    cells = tuple(
        (Cell(rec), Cell(change), Cell(verdict, FLAG_STATUS.get(verdict, "")), Cell(target), Cell(side))
        for rec, change, verdict, target, side in rows(results)
    )
    blocks = (
        Text((f"Recommendations of jvmlab advise for {source}.", FLAG_NOTE), tone="note"),
        Table(columns, cells),
    )
    return Section("verification", "Advice verified", blocks)
