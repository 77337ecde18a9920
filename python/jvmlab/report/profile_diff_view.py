"""The terminal table of `jvmlab profile diff`: frames ranked by the change of their total share."""

from __future__ import annotations

from collections.abc import Sequence

from rich import box
from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text

from jvmlab.profile.diff import FrameChange
from jvmlab.stats import DEFAULT_ALPHA, confidence_text


def pp(x: float) -> str:
    return f"{100 * x:+.1f}"


def diff_renderable(
    changes: Sequence[FrameChange], n_base: int, n_new: int, *, limit: int = 20, alpha: float = DEFAULT_ALPHA
) -> RenderableType:
    table = Table(box=box.SIMPLE_HEAD, title="what changed: share of all samples, new against base",
                  title_justify="left")  # fmt: skip
    level = f"{confidence_text(changes[0].level)} " if changes else ""
    for name in ("total base %", "total new %", "change (pp)", f"{level}CI (pp)", "self change (pp)"):
        table.add_column(name, justify="right")
    table.add_column("frame", overflow="fold")
    for c in changes[:limit]:
        ci = "n/a" if c.ci_low is None or c.ci_high is None else f"[{pp(c.ci_low)}, {pp(c.ci_high)}]"
        style = ("red" if c.change_total > 0 else "blue") if c.significant else "dim"
        change = Text(pp(c.change_total), style=style)
        table.add_row(
            f"{100 * c.base_total:.1f}", f"{100 * c.new_total:.1f}", change, ci, pp(c.change_self), c.frame
        )
    if n_base < 2 or n_new < 2:
        note = f"one profile a side ({n_base} vs {n_new}): no CI; noise cannot be told from change"
    else:
        sig = sum(1 for c in changes if c.significant)
        note = (
            f"{n_base} vs {n_new} profiles; {sig} frames changed significantly "
            f"(Welch's test, Benjamini-Hochberg q < {alpha:g}, the CI at the level the q-values keep)"
        )
    return Group(table, Text(note, style="dim"))
