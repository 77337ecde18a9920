"""`jvmlab flags lint|migrate` as JSON documents (docs/flags.md) and rich renderables, and the lint lines of
an experiment's plan. Views only: the verdicts come made (jvmlab.jdk.lint, jvmlab.jdk.migrate); no JVM runs
here."""

from __future__ import annotations

import os
import platform
import shlex
from collections.abc import Mapping
from typing import Any

from rich import box
from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text

from jvmlab.jdk.lint import FlagLint, TargetLint, Verdict
from jvmlab.jdk.migrate import Migration

FORMAT_VERSION = 1
STATUS_STYLES = {
    "ok": "green",
    "deprecated": "yellow",
    "renamed": "cyan",
    "ignored": "magenta",
    "refused": "bold red",
}
CAUSE_WORDS = {
    "unknown": "unknown flag",
    "removed": "removed",
    "not-yet": "not yet",
    "locked": "needs unlock",
    "invalid": "invalid value",
    "rejected": "JVM stops",
}


# ---- lint ----------------------------------------------------------------------------------------------


def _header(kind: str) -> dict[str, Any]:
    from jvmlab import __version__

    host = {"os": platform.system(), "arch": platform.machine(), "cpus": os.cpu_count()}
    return {
        "format_version": FORMAT_VERSION,
        "kind": kind,
        "tool": "jvmlab",
        "tool_version": __version__,
        "host": host,
    }


def lint_document(lint: FlagLint) -> dict[str, Any]:
    return {
        **_header("flags-lint"),
        "flags": list(lint.options),
        "refused": lint.refused,
        "targets": [
            {
                **t.target.to_dict(),
                "refused": t.refused,
                "error": t.error,
                "notes": list(t.notes),
                "verdicts": [v.to_dict() for v in t.verdicts],
            }
            for t in lint.targets
        ],
    }


def _cell(v: Verdict) -> Text:
    text = Text(v.status, style=STATUS_STYLES.get(v.status, ""))
    if v.since and v.status in ("deprecated", "ignored", "renamed"):
        text.append(f" {v.since}", style="dim")
    if v.status == "refused" and v.cause:
        text.append(f"\n{CAUSE_WORDS.get(v.cause, v.cause)}", style="dim")
    return text


def _column(t: TargetLint) -> str:
    jdk = t.target.jdk
    if jdk is None:
        return f"{t.target.label}\ntable"
    return t.target.label if t.target.label == jdk.name else f"{t.target.label}\n{jdk.name}"


def _advice(lint: FlagLint, option: str) -> str | None:
    """What to do about a flag, once for all targets: the replacements and nearest names seen, the note."""
    verdicts = [v for t in lint.targets for v in t.verdicts if v.option == option and v.status != "ok"]
    nearest = list(dict.fromkeys(v.nearest for v in verdicts if v.nearest))
    instead = list(dict.fromkeys(v.replacement for v in verdicts if v.replacement))
    notes = list(dict.fromkeys(v.note for v in verdicts if v.note and v.status != "ok"))
    parts = [f"did you mean {n}?" for n in nearest] + [f"use {r}" for r in instead] + notes[:1]
    return "; ".join(parts) or None


def _sources(lint: FlagLint) -> str:
    asked = [f"{t.target.label} ({t.target.jdk.name})" for t in lint.targets if t.target.jdk is not None]
    table = [t.target for t in lint.targets if t.target.jdk is None and t.target.vm != "OpenJ9"]
    openj9 = [t.target.label for t in lint.targets if t.target.jdk is None and t.target.vm == "OpenJ9"]
    parts = [f"asked {', '.join(asked)}"] if asked else []
    if openj9:
        parts.append(f"{', '.join(openj9)} from OpenJ9's documented options (no OpenJ9 JVM here)")
    if table:
        derived = [str(t.major) for t in table if t.to_dict()["flag_names_derived"]]
        caveat = f" (JDK {', '.join(derived)}: flag names derived, not read from a JVM)" if derived else ""
        parts.append(f"{', '.join(t.label for t in table)} from the package table{caveat}")
    return "answers: " + "; ".join(parts)


def lint_renderable(lint: FlagLint) -> RenderableType:
    """Flags x targets, coloured; below: what to use instead, what the JVMs said of no flag, the sources."""
    table = Table(box=box.SIMPLE_HEAD, show_edge=False, pad_edge=False)
    table.add_column("flag", overflow="fold", no_wrap=False)
    for t in lint.targets:
        table.add_column(_column(t), no_wrap=True)
    for option in lint.options:
        cells = [_cell(next(v for v in t.verdicts if v.option == option)) for t in lint.targets]
        table.add_row(Text(option), *cells)
    lines: list[RenderableType] = [table]
    for option in lint.options:
        advice = _advice(lint, option)
        if advice:
            lines.append(Text.assemble((option, "bold"), f": {advice}"))
    for t in lint.targets:
        if t.error:
            lines.append(Text(f"{t.target.label}: refused together: {t.error}", style="red"))
        for note in t.notes:
            lines.append(Text(f"{t.target.label}: the JVM also said: {note}", style="yellow"))
    lines.append(Text(_sources(lint), style="dim"))
    return Group(*lines)


# ---- migrate -------------------------------------------------------------------------------------------


def migration_document(m: Migration) -> dict[str, Any]:
    return {
        **_header("flags-migrate"),
        "from": m.from_major,
        "to": m.to_major,
        "original": list(m.original),
        "flags": list(m.flags),
        "command_line": shlex.join(m.flags),
        "changes": [
            {"original": list(c.original), "result": list(c.result), "action": c.action, "note": c.note}
            for c in m.changes
        ],
    }


def migration_renderable(m: Migration) -> RenderableType:
    """The new flag set (one line, shell-quoted) and each change with its reason."""
    line = shlex.join(m.flags) or "(no flags)"
    head = Text.assemble((f"JDK {m.from_major} -> {m.to_major}: ", "bold"), line)
    if not m.changes:
        return Group(head, Text("nothing to change", style="green"))
    table = Table(box=box.SIMPLE_HEAD, show_edge=False, pad_edge=False)
    for name in ("was", "now", "why"):
        table.add_column(name, overflow="fold")
    styles = {"dropped": "red", "rewritten": "cyan", "kept": "yellow", "added": "green"}
    for c in m.changes:
        now = Text("\n".join(c.result) if c.result else "dropped", style=styles.get(c.action, ""))
        table.add_row(Text("\n".join(c.original)), now, Text(c.note))
    return Group(head, table)


# ---- an experiment's plan ------------------------------------------------------------------------------


def plan_lint_lines(by_variant: Mapping[str, TargetLint]) -> list[Text]:
    """One line per flag that is not fine on a variant's JDK: refused in red (with what to use instead),
    deprecated, ignored or renamed in yellow; and the sets a JDK refuses as a whole."""
    lines = []
    for key, lint in by_variant.items():
        for v in lint.verdicts:
            if v.status != "ok":
                style = "red" if v.status == "refused" else "yellow"
                lines.append(Text(_plan_line(key, lint.target.major, v), style=style))
        if lint.error:
            lines.append(Text(f"{key}: the JVM refuses the set together: {lint.error}", style="red"))
    return lines


def _plan_line(key: str, major: int, v: Verdict) -> str:
    if v.status == "refused":
        detail = CAUSE_WORDS.get(v.cause or "", v.cause or "")
    else:
        detail = f"since {v.since}" if v.since else (v.message or "")
    fix = f"did you mean {v.nearest}?" if v.nearest else (f"use {v.replacement}" if v.replacement else "")
    source = ", by the package table: the JVM stopped at another flag" if v.source == "table" else ""
    return (
        f"{key}: {v.option} is {v.status} on JDK {major}"
        + (f" ({detail}{source})" if detail or source else "")
        + (f"; {fix}" if fix else "")
    )


def plan_lint_renderable(by_variant: Mapping[str, TargetLint]) -> RenderableType | None:
    lines = plan_lint_lines(by_variant)
    if not lines:
        return None
    return Group(Text("flag lint (jvmlab flags lint):", style="bold"), *lines)
