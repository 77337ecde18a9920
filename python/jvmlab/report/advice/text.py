"""Advice in the terminal: one panel per input, findings most severe first, then the rules not checked."""

from __future__ import annotations

from rich.console import Group, RenderableType
from rich.padding import Padding
from rich.text import Text

from jvmlab.advise.engine import Advice
from jvmlab.advise.finding import Finding
from jvmlab.report.advice.lines import change_line, check_line, effect_line, evidence_lines

STYLES = {"critical": "bold red", "warning": "yellow", "info": "cyan"}
INDENT = 9


def indented(text: str, style: str = "") -> Padding:
    return Padding(Text(text, style=style), (0, 0, 0, INDENT))


def finding_renderable(f: Finding) -> RenderableType:
    head = Text()
    head.append(f"{f.severity.value.upper():8} ", style=STYLES[f.severity.value])
    head.append(f.title, style="bold")
    head.append(
        f"  [{f.id}, {f.confidence.value} confidence"
        + (f", {f.source}" if f.source != "jvmlab" else "")
        + "]",
        style="dim",
    )
    lines: list[RenderableType] = [head]
    lines += [indented(line, "dim") for line in evidence_lines(f)]
    lines.append(indented(f"why: {f.why}"))
    change = change_line(f)
    if change:
        lines.append(indented(f"change: {change}", "green"))
    if f.recommendation.action:
        lines.append(indented(f.recommendation.action))
    for extra, style in ((effect_line(f), ""), (check_line(f), "dim")):
        if extra:
            lines.append(indented(extra, style))
    if f.also_reported_by:
        lines.append(indented("also reported by " + ", ".join(f.also_reported_by), "dim"))
    return Group(*lines)


def advice_renderable(advice: Advice) -> RenderableType:
    jdk = f"JDK {advice.jdk_major}" if advice.jdk_major else "JDK unknown"
    counts = {s: sum(1 for f in advice.findings if f.severity.value == s) for s in STYLES}
    summary = ", ".join(f"{n} {s}" for s, n in counts.items() if n) or "no findings"
    parts: list[RenderableType] = [
        Text(advice.name, style="bold"),
        Text(f"{advice.collector or 'collector unknown'}, {jdk}; {advice.rules_run} rules: {summary}"),
        Text(""),
    ]
    if advice.notes:
        parts += [*(Text(note, style="dim") for note in advice.notes), Text("")]
    for f in advice.findings:
        parts += [finding_renderable(f), Text("")]
    if advice.not_checked:
        parts.append(Text("not checked:", style="bold dim"))
        for reason, ids in advice.not_checked_by_reason():
            parts.append(Text(f"  {reason}: {', '.join(ids)}", style="dim"))
    return Group(*parts)
