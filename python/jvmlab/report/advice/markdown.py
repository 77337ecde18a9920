"""Advice as Markdown (`jvmlab advise --markdown`): for tickets, pull requests and wikis. Text taken from
logs (excerpts, names) is escaped so it cannot become markup."""

from __future__ import annotations

from collections.abc import Sequence

from jvmlab.advise.engine import Advice
from jvmlab.advise.finding import Finding
from jvmlab.report.advice.lines import change_line, check_line, effect_line, evidence_lines

_SPECIAL = "\\`*_[]<>|"


def escape(text: str) -> str:
    """Text that stays text: the characters Markdown reads as markup inside a line are escaped, and a `#`
    that would start a heading."""
    escaped = "".join("\\" + c if c in _SPECIAL else c for c in text)
    return "\\" + escaped if escaped.startswith("#") else escaped


def finding_markdown(f: Finding) -> list[str]:
    out = [
        f"### {f.severity.value.upper()}: {escape(f.title)}",
        "",
        f"`{f.id}` · {f.confidence.value} confidence" + (f" · {f.source}" if f.source != "jvmlab" else ""),
        "",
    ]
    out += [f"- {escape(line)}" for line in evidence_lines(f)]
    out += ["", f"**Why:** {escape(f.why)}", ""]
    change = change_line(f)
    if change:
        out.append(f"**Change:** `{change}`" if "`" not in change else f"**Change:** {escape(change)}")
    if f.recommendation.action:
        out.append(escape(f.recommendation.action))
    for extra in (effect_line(f), check_line(f)):
        if extra:
            out += ["", f"_{escape(extra)}_"]
    return [*out, ""]


def advice_markdown(advices: Sequence[Advice]) -> str:
    out: list[str] = ["# jvmlab advice", ""]
    for a in advices:
        out += [
            f"## {escape(a.name)}",
            "",
            f"{escape(a.collector or 'collector unknown')}, JDK {a.jdk_major or 'unknown'}; "
            f"{a.rules_run} rules, {len(a.findings)} finding{'' if len(a.findings) == 1 else 's'}",
            "",
        ]
        if a.notes:
            out += [*(f"_{escape(note)}_" for note in a.notes), ""]
        for f in a.findings:
            out += finding_markdown(f)
        if a.not_checked:
            out += ["**Not checked:**", ""]
            out += [
                f"- {escape(reason)}: " + ", ".join(f"`{i}`" for i in ids)
                for reason, ids in a.not_checked_by_reason()
            ]
            out.append("")
    return "\n".join(out)
