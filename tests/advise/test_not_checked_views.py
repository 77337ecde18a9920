"""Rules not checked are grouped by reason in every view: the reason once, then its rule ids; the JSON keeps
the flat `not_checked` list (format_version 1) and adds `not_checked_by_reason`."""

from __future__ import annotations

import json

from rich.console import Console

from jvmlab.advise.engine import Advice
from jvmlab.advise.finding import NotChecked
from jvmlab.report.advice.json_export import advice_document, to_json
from jvmlab.report.advice.markdown import advice_markdown
from jvmlab.report.advice.text import advice_renderable

NO_LOG = "no GC log: the JVM writes none"
ADVICE = Advice(
    name="pid 1 (Main)",
    collector="G1",
    jdk_major=17,
    flags_known=True,
    findings=[],
    not_checked=[
        NotChecked(id="g1-full-gc", reason=NO_LOG),
        NotChecked(id="swap-used", reason="no process samples"),
        NotChecked(id="long-gc-pause", reason=NO_LOG),
    ],
    rules_run=40,
    notes=[
        "GC and safepoint logging switched on for 5.2 s through VM.log (what=gc*=info,safepoint=info), "
        "then off"
    ],
)


def test_the_terminal_view_says_each_reason_once():
    console = Console(width=200, record=True)
    console.print(advice_renderable(ADVICE))
    text = console.export_text()
    assert text.count(NO_LOG) == 1 and f"{NO_LOG}: g1-full-gc, long-gc-pause" in text
    assert "switched on for 5.2 s through VM.log" in text


def test_markdown_says_each_reason_once():
    md = advice_markdown([ADVICE])
    assert md.count(NO_LOG) == 1 and "`g1-full-gc`, `long-gc-pause`" in md


def test_json_keeps_the_flat_list_and_adds_the_groups():
    (doc,) = json.loads(to_json(advice_document([ADVICE])))["inputs"]
    assert [n["id"] for n in doc["not_checked"]] == ["g1-full-gc", "swap-used", "long-gc-pause"]
    assert doc["not_checked_by_reason"] == [
        {"reason": NO_LOG, "ids": ["g1-full-gc", "long-gc-pause"]},
        {"reason": "no process samples", "ids": ["swap-used"]},
    ]
    assert doc["notes"] == ADVICE.notes
