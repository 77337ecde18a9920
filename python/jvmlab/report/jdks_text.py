"""Terminal rendering (rich) of the `jvmlab jdks` view models; the CLI decides where they go."""

from __future__ import annotations

from rich import box
from rich.console import Console, ConsoleOptions, Group, RenderableType, RenderResult
from rich.table import Table
from rich.text import Text

from jvmlab.report.jdks_view import CHECK_COLUMNS, CHECK_LEGEND, JDK_COLUMNS, CheckView, JdksView

_STYLES = {"error": "red", "warning": "yellow", "note": "cyan"}
_MIN_WIDTHS = {"name": 15}
WIDE_CONSOLE = 110  # narrower: the JDK list is shown as blocks, a 9-column table would be unreadable
_MAX_WIDTHS = {"vendor": 10, "collectors": 20}


def _table(columns: tuple[str, ...], rows: tuple[tuple[str, ...], ...]) -> Table:
    """Cells fold when the terminal is too narrow (never cropped: the last columns must stay visible)."""
    table = Table(box=box.SIMPLE_HEAD, show_edge=False, pad_edge=False)
    for name in columns:
        table.add_column(
            name,
            overflow="fold",
            min_width=_MIN_WIDTHS.get(name),
            max_width=_MAX_WIDTHS.get(name),
        )
    for row in rows:
        table.add_row(*(Text(cell) for cell in row))  # cells are data: "[...]" is not rich markup
    return table


class _Adaptive:
    """A table on wide consoles; below `min_width` columns, one block of `column: value` lines per row."""

    def __init__(self, columns: tuple[str, ...], rows: tuple[tuple[str, ...], ...], min_width: int):
        self.columns, self.rows, self.min_width = columns, rows, min_width

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        if options.max_width >= self.min_width:
            yield _table(self.columns, self.rows)
            return
        for row in self.rows:
            grid = Table.grid(padding=(0, 2))
            grid.add_column(style="bold")
            grid.add_column(overflow="fold")
            for name, cell in zip(self.columns, row, strict=True):
                grid.add_row(name, Text(cell))
            yield grid
            yield Text("")


def jdks_renderable(view: JdksView) -> RenderableType:
    parts: list[RenderableType] = []
    if view.rows:
        parts.append(_Adaptive(JDK_COLUMNS, view.rows, WIDE_CONSOLE))
    else:
        parts.append(
            Text("no JDK found; install one, or add one with `jvmlab jdks add NAME PATH`", style="yellow")
        )
    parts += [Text(f"problem: {p}", style="red") for p in view.problems]
    parts += [Text(f"note: {n}", style="dim") for n in view.notes]
    return Group(*parts)


def check_renderable(view: CheckView) -> RenderableType:
    parts: list[RenderableType] = []
    for section in view.sections:
        parts += [Text(f"flags: {section.title}", style="bold"), _table(CHECK_COLUMNS, section.rows)]
    parts.append(Text(CHECK_LEGEND, style="dim"))
    parts += [Text(f"{style}: {text}", style=_STYLES[style]) for style, text in view.messages]
    summary = f"{view.total - view.rejected} of {view.total} accepted"
    parts.append(Text(summary, style="red bold" if view.rejected else "green"))
    return Group(*parts)
