"""The terminal view of call counts (`jvmlab profile --count`): per pattern its calls and calls per second,
the methods a wildcard matched, and where async-profiler counted, the callers that made the calls."""

from __future__ import annotations

from rich import box
from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text

from jvmlab.profile.counting import JFR, Counts

BACKENDS = {
    JFR: "JFR method timing (jdk.MethodTiming)",
    "async-profiler": "async-profiler's Java method event, every call",
}


def counts_renderable(counts: Counts, *, limit: int = 10) -> RenderableType:
    window = counts.window_s
    head = Text(
        f"calls counted by {BACKENDS.get(counts.backend, counts.backend)}"
        + (f" over {window:.1f} s" if window else "")
    )
    table = Table(box=box.SIMPLE_HEAD, show_edge=False, pad_edge=False)
    table.add_column("pattern", overflow="fold")
    table.add_column("calls", justify="right")
    table.add_column("per s", justify="right")
    for c in counts.calls:
        per_s = f"{c.invocations / window:,.1f}" if window else "—"
        table.add_row(c.pattern, f"{c.invocations:,}", per_s)
        several = len(c.methods) > 1
        for method, n in list(c.methods.items())[:limit] if several else []:
            table.add_row(Text(f"  {method}", style="dim"), Text(f"{n:,}", style="dim"), "")
        if not c.methods and counts.backend == JFR:
            table.add_row(Text("  no such method was loaded, or it was never called", style="yellow"), "", "")
    parts: list[RenderableType] = [head, table]
    for c in counts.calls:
        if c.callers:
            parts.append(_callers(c.pattern, c.callers, c.invocations))
    return Group(*parts)


def _callers(pattern: str, callers: tuple[tuple[str, int], ...], total: int) -> Table:
    table = Table(
        box=box.SIMPLE_HEAD, title=f"top callers of {pattern}", title_justify="left", show_edge=False
    )
    table.add_column("calls", justify="right")
    table.add_column("%", justify="right")
    table.add_column("caller < its caller < ...", overflow="fold")
    for chain, n in callers:
        table.add_row(f"{n:,}", f"{100 * n / total:.1f}" if total else "—", chain)
    return table
