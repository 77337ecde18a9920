"""Runs every rule over one input's Facts and returns its Advice: findings most severe first, and the rules
that could not run with the reason."""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict

from jvmlab.advise.facts import Facts
from jvmlab.advise.finding import Finding, NotChecked, sort_key

ADVICE_FORMAT_VERSION = 1


class Advice(BaseModel):
    """The findings on one input (a log, a trial, a running JVM)."""

    model_config = ConfigDict(frozen=True)

    name: str
    collector: str | None
    jdk_major: int | None
    flags_known: bool
    findings: list[Finding]
    not_checked: list[NotChecked]
    rules_run: int

    def worst(self) -> str | None:
        return self.findings[0].severity.value if self.findings else None

    def ids(self) -> list[str]:
        return [f.id for f in self.findings]


def advise(facts: Facts, *, only: set[str] | None = None) -> Advice:
    """Every rule (or those of `only`) over the facts."""
    from jvmlab.advise.rules import RULES  # polars: imported while a log is being parsed (gclog.log)
    from jvmlab.advise.rules.base import NO_LOG

    findings: list[Finding] = []
    skipped: list[NotChecked] = []
    rules = [r for r in RULES if only is None or r.id in only]
    for r in rules:
        if r.needs_log and not facts.has_log:
            skipped.append(NotChecked(id=r.id, reason=NO_LOG))
            continue
        outcome = r.check(facts)
        if isinstance(outcome, Finding):
            findings.append(outcome)
        elif isinstance(outcome, NotChecked):
            skipped.append(outcome)
    return Advice(
        name=facts.name,
        collector=facts.collector,
        jdk_major=facts.jdk_major,
        flags_known=facts.flags_known,
        findings=sorted(findings, key=sort_key),
        not_checked=skipped,
        rules_run=len(rules),
    )


def with_findings(advice: Advice, extra: list[Finding]) -> Advice:
    """The advice with more findings (JMC's), re-sorted."""
    return advice.model_copy(update={"findings": sorted([*advice.findings, *extra], key=sort_key)})
