"""The views of advice: the terminal panel, Markdown and the HTML findings section show the same finding;
text that came from a log stays text in each."""

from __future__ import annotations

import re
from pathlib import Path

from rich.console import Console

from jvmlab.advise import (
    Advice,
    Confidence,
    Evidence,
    Finding,
    NotChecked,
    Recommendation,
    Severity,
    advise_log,
)
from jvmlab.report.advice.html import findings_section
from jvmlab.report.advice.markdown import advice_markdown
from jvmlab.report.advice.text import advice_renderable
from jvmlab.report.html.page import Page, render

METASPACE = Path(__file__).resolve().parents[1] / "advise" / "logs" / "metaspace-parallel-jdk21.log"
HOSTILE = "</script><img src=x onerror=alert(1)>"


def hostile_advice() -> Advice:
    finding = Finding(
        id="explicit-gc",
        severity=Severity.WARNING,
        title=f"cause {HOSTILE}",
        evidence=Evidence(figures={"collections": 3}, gc_ids=[1, 2], window_s=(1.0, 2.0), excerpts=[HOSTILE]),
        why="because",
        recommendation=Recommendation(add_flags=["-XX:+DisableExplicitGC"], action=HOSTILE),
        confidence=Confidence.HIGH,
    )
    return Advice(
        name=HOSTILE, collector="G1", jdk_major=17, flags_known=False, findings=[finding],
        not_checked=[NotChecked(id="swap-used", reason=HOSTILE)], rules_run=32,
    )  # fmt: skip


def test_the_findings_section_escapes_what_came_from_the_log():
    section = findings_section(hostile_advice())
    html = render(Page(title="t", subtitle="", sections=(section,), generated_by="test"))
    assert "<img" not in html and "&lt;img src=x onerror=alert(1)&gt;" in html
    assert "-XX:+DisableExplicitGC" in html


def test_markdown_keeps_log_text_as_text():
    text = advice_markdown([hostile_advice()])
    assert not re.search(r"(?<!\\)<", text), "a < that Markdown would read as HTML"
    assert "\\<img src=x onerror=alert(1)\\>" in text


def test_terminal_panel_lists_findings_then_what_was_not_checked():
    console = Console(width=120, record=True)
    console.print(advice_renderable(advise_log(METASPACE, flags="-XX:+UseParallelGC -Xmx256m")))
    out = console.export_text()
    assert out.index("metaspace-threshold-gc") < out.index("not checked:")
    assert "GC ids" in out and "why:" in out and "change: add -XX:MetaspaceSize=" in out


def test_the_gc_report_has_a_findings_section(tmp_path):
    from jvmlab.cli.main import main

    out = tmp_path / "r.html"
    assert main(["gc", "report", str(METASPACE), "-o", str(out)]) == 0
    html = out.read_text()
    assert "Findings (jvmlab advise)" in html and "metaspace-threshold-gc" in html
