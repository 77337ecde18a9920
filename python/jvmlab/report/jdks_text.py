"""Terminal rendering (rich) of the `jvmlab jdks` view models; the CLI decides where they go."""

from __future__ import annotations

from rich import box
from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text

from jvmlab.report.jdks_view import CHECK_COLUMNS, CHECK_LEGEND, JDK_COLUMNS, CheckView, JdksView

_STYLES = {"error": "red", "warning": "yellow", "note": "cyan"}
_MIN_WIDTHS = {"name": 15}
_MAX_WIDTHS = {"vendor": 10, "collectors": 20}


def _table(columns: tuple[str, ...], rows: tuple[tuple[str, ...], ...], *, wrap: tuple[str, ...]) -> Table:
    """Columns not in `wrap` keep their cells on one line; the others fold."""
    table = Table(box=box.SIMPLE_HEAD, show_edge=False, pad_edge=False)
    for name in columns:
        table.add_column(
            name,
            overflow="fold",
            no_wrap=name not in wrap,
            min_width=_MIN_WIDTHS.get(name),
            max_width=_MAX_WIDTHS.get(name),
        )
    for row in rows:
        table.add_row(*(Text(cell) for cell in row))  # cells are data: "[...]" is not rich markup
    return table


def jdks_renderable(view: JdksView) -> RenderableType:
    parts: list[RenderableType] = []
    if view.rows:
        parts.append(_table(JDK_COLUMNS, view.rows, wrap=("name", "vendor", "collectors", "home")))
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
        parts += [Text(f"flags: {section.title}", style="bold"), _table(CHECK_COLUMNS, section.rows, wrap=())]
    parts.append(Text(CHECK_LEGEND, style="dim"))
    parts += [Text(f"{style}: {text}", style=_STYLES[style]) for style, text in view.messages]
    summary = f"{view.total - view.rejected} of {view.total} accepted"
    parts.append(Text(summary, style="red bold" if view.rejected else "green"))
    return Group(*parts)
