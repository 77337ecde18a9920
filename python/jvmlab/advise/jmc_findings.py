"""JDK Mission Control's rule results as findings, and their merge with jvmlab's (docs/jmc.md).

A JMC result becomes a finding when JMC rates it: Severity.get(score) is WARNING (score >= 75) -> warning,
INFO (25 <= score < 75) -> info; OK (< 25) and "not applicable" give none. Where a JMC rule reports the same
problem as a jvmlab rule (JMC_OVERLAPS), the problem is reported once: by jvmlab's rule when it fired, with
"jmc:<RuleId>" in its also_reported_by; by JMC's when jvmlab's did not fire.
"""

from __future__ import annotations

import re
from html.parser import HTMLParser

from jvmlab.advise.finding import Confidence, Evidence, Finding, Recommendation, Severity
from jvmlab.jfr.jmc_rules import JmcReport, JmcResult

# JMC rule id -> the jvmlab rules that report the same problem (ids from JMC 9.1.1's rules jar).
JMC_OVERLAPS: dict[str, tuple[str, ...]] = {
    "SystemGc": ("explicit-gc",),
    "GcPauseRatio": ("gc-overhead-high",),
    "HighGc": ("gc-overhead-high",),
    "ApplicationHalts": ("gc-overhead-high", "non-gc-safepoints"),  # halts: GC pauses and other safepoints
    "LongGcPause": ("long-gc-pause",),
    "GcPauseTargetRule": ("pause-target-missed",),
    "FullGc": ("g1-full-gc",),
    # CMS concurrent mode failures; a Serial Old full collection the collector fell back to (CMS, JDK 8's G1)
    "GcStall": ("cms-concurrent-mode-failure", "promotion-failed", "g1-full-gc", "g1-evacuation-failure"),
    "GcLocker": ("gclocker-gc",),
    "IncreasingLiveSet": ("live-set-growth",),
    "GcOptions": ("serial-by-ergonomics",),
    "Options": ("flag-deprecated",),
    "VMOperations": ("long-gc-pause", "non-gc-safepoints"),  # the longest VM operation, GC or not
    "CodeCache": ("code-cache-full",),
}

_SEVERITIES = {"warning": Severity.WARNING, "info": Severity.INFO}
_BREAKS = {"p", "br", "li", "ul", "ol", "div", "pre", "tr"}


class _TextOnly(HTMLParser):
    """Collects the text of an HTML fragment; block tags become line breaks, entities are decoded."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.parts: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in _BREAKS:
            self.parts.append("\n")

    def handle_endtag(self, tag: str) -> None:
        if tag in _BREAKS:
            self.parts.append("\n")

    def handle_data(self, data: str) -> None:
        self.parts.append(data)


def plain_text(markup: str) -> str:
    """JMC's text without HTML: tags dropped (paragraphs kept as blank-line-free line breaks), entities
    decoded, no-break spaces as spaces, and MessageFormat's doubled quotes ('') as one."""
    parser = _TextOnly()
    parser.feed(markup)
    parser.close()
    text = "".join(parser.parts).replace("\xa0", " ").replace("''", "'")
    lines = (re.sub(r"[ \t]+", " ", line).strip() for line in text.splitlines())
    return "\n".join(line for line in lines if line)


def kebab_case(rule_id: str) -> str:
    """JMC's rule ids as jvmlab ids: "SystemGc" -> "system-gc", "VMOperations" -> "vm-operations",
    "Allocations.class" -> "allocations-class", "PID1Rule" -> "pid1-rule",
    "Fatal Errors" -> "fatal-errors"."""
    words = re.sub(r"(?<=[a-z0-9])(?=[A-Z])|(?<=[A-Z])(?=[A-Z][a-z])", "-", rule_id)
    return re.sub(r"[^a-z0-9]+", "-", words.lower()).strip("-")


def finding_severity(result: JmcResult) -> Severity | None:
    """JMC's own severity (Severity.get of its score where it gave one): warning, info, or no finding."""
    return _SEVERITIES.get(result.severity)


def to_finding(result: JmcResult, report: JmcReport) -> Finding | None:
    """One JMC result as a finding (source "jmc"), None when JMC rates it OK or not applicable."""
    severity = finding_severity(result)
    if severity is None:
        return None
    summary = plain_text(result.summary) or result.name
    figures: dict[str, float | int | str] = {"jmc_rule": result.rule_id}
    if result.score is not None:
        figures["jmc_score"] = result.score
    source = f"{report.recording.name}: JMC {report.jmc_version} rule {result.rule_id} ({result.name})"
    return Finding(
        id="jmc-" + kebab_case(result.rule_id),
        severity=severity,
        title=summary,
        evidence=Evidence(
            figures=figures,
            excerpts=[source],
        ),
        why=plain_text(result.explanation) or summary,
        recommendation=Recommendation(action=plain_text(result.solution)),
        confidence=Confidence.MEDIUM,  # a JMC score past its limits, from the recording's events
        source="jmc",
        jmc_rule=result.rule_id,
        jmc_score=result.score,
    )


def jmc_findings(report: JmcReport) -> list[Finding]:
    """The findings of JMC's warning and info results, in JMC's order (by rule id)."""
    return [f for r in report.results if (f := to_finding(r, report)) is not None]


def merge(ours: list[Finding], jmc: list[Finding]) -> list[Finding]:
    """jvmlab's findings then JMC's, each problem once: a JMC finding whose jvmlab twin (JMC_OVERLAPS) fired
    is dropped and named in the twin's also_reported_by as "jmc:<RuleId>"; one whose twins did not fire
    is kept."""
    fired = {f.id for f in ours}
    reported_by: dict[str, list[str]] = {}
    kept: list[Finding] = []
    for finding in jmc:
        twins = [t for t in JMC_OVERLAPS.get(finding.jmc_rule or "", ()) if t in fired]
        if not twins:
            kept.append(finding)
        for twin in twins:
            reported_by.setdefault(twin, []).append(f"jmc:{finding.jmc_rule}")
    return [_also_reported_by(f, reported_by.get(f.id, [])) for f in ours] + kept


def _also_reported_by(finding: Finding, reporters: list[str]) -> Finding:
    added = [r for r in reporters if r not in finding.also_reported_by]
    if not added:
        return finding
    return finding.model_copy(update={"also_reported_by": [*finding.also_reported_by, *added]})
