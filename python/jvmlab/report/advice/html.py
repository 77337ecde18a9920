"""The findings section of the HTML reports (`jvmlab gc report`, the experiment report): a table of
findings, most severe first, and the rules that could not run. Everything from the log is text: the
template escapes it."""

from __future__ import annotations

from jvmlab.advise.engine import Advice
from jvmlab.report.advice.lines import change_line, check_line, effect_line, evidence_lines
from jvmlab.report.html.page import Block, Cell, Column, Section, Status, Table, Text

SEVERITY_STATUS: dict[str, Status] = {"critical": "fail", "warning": "inconclusive", "info": "muted"}


def findings_table(advice: Advice) -> Table:
    rows = []
    for f in advice.findings:
        change = "; ".join(x for x in (change_line(f), f.recommendation.action, check_line(f)) if x)
        rows.append(
            (
                Cell(f.severity.value, SEVERITY_STATUS[f.severity.value]),
                Cell(f"{f.title} [{f.id}, {f.confidence.value} confidence]"),
                Cell(" · ".join(evidence_lines(f))),
                Cell(f.why),
                Cell(" ".join(x for x in (change, effect_line(f)) if x)),
            )
        )
    columns = tuple(Column(t) for t in ("severity", "finding", "evidence", "why", "change"))
    return Table(columns, tuple(rows), caption="Findings (jvmlab advise)")


def findings_section(advice: Advice, prefix: str = "", title: str = "Findings") -> Section:
    blocks: list[Block] = []
    if advice.findings:
        blocks.append(findings_table(advice))
    else:
        blocks.append(Text((f"No findings: {advice.rules_run} rules found nothing to report.",)))
    if advice.not_checked:
        lines = tuple(f"{reason}: {', '.join(ids)}" for reason, ids in advice.not_checked_by_reason())
        blocks.append(Text(("Not checked:", *lines), tone="note"))
    return Section(f"{prefix}findings", title, tuple(blocks))
