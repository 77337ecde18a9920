"""The terminal view of a profile: what was sampled, and the top frames by self and total share."""

from __future__ import annotations

from rich import box
from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text

from jvmlab.profile.model import Profile
from jvmlab.profile.top import top_frames

KIND_STYLE = {"java": "green", "inlined": "cyan", "interpreted": "green", "native": "yellow", "kernel": "red"}


def top_renderable(profile: Profile, *, limit: int = 20) -> RenderableType:
    table = Table(box=box.SIMPLE_HEAD, title=f"top frames by self {profile.unit}", title_justify="left")
    for name in ("self %", "total %", profile.unit):
        table.add_column(name, justify="right")
    table.add_column("kind")
    table.add_column("frame", overflow="fold")
    for r in top_frames(profile, limit=limit):
        table.add_row(
            f"{100 * r.self_share:.1f}",
            f"{100 * r.total_share:.1f}",
            f"{r.self_weight:,}",
            Text(r.kind, style=KIND_STYLE.get(r.kind, "")),
            r.frame,
        )
    head = Text(
        f"{profile.event} profile: {profile.total:,} {profile.unit} in {len(profile.stacks):,} distinct "
        f"stacks; {profile.source}",
    )
    return Group(head, table)
