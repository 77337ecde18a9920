"""Runs every rule over one input's Facts and returns its Advice: findings most severe first, and the rules
that could not run with the reason. Rules of another VM family than the input's (OpenJ9 rules on a HotSpot
log, HotSpot-only rules on an OpenJ9 log) are not run and not listed."""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field

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
    # where the evidence came from when jvmlab gathered it (`--pid --record`: logging switched on and off)
    notes: list[str] = Field(default_factory=list)

    def worst(self) -> str | None:
        return self.findings[0].severity.value if self.findings else None

    def ids(self) -> list[str]:
        return [f.id for f in self.findings]

    def not_checked_by_reason(self) -> list[tuple[str, list[str]]]:
        """(reason, rule ids) per distinct reason, in the order the reasons first come: one line each."""
        groups: dict[str, list[str]] = {}
        for n in self.not_checked:
            groups.setdefault(n.reason, []).append(n.id)
        return list(groups.items())


def advise(facts: Facts, *, only: set[str] | None = None, no_log_reason: str | None = None) -> Advice:
    """Every rule (or those of `only`) of the input's VM family over the facts; `no_log_reason` is what the
    rules that need a GC log say when there is none (default: start the JVM with -Xlog:gc*)."""
    from jvmlab.advise.rules import RULES  # polars: imported while a log is being parsed (gclog.log)
    from jvmlab.advise.rules.base import NO_LOG, applies_to, vm_family

    findings: list[Finding] = []
    skipped: list[NotChecked] = []
    family = vm_family(facts.collector)
    rules = [r for r in RULES if (only is None or r.id in only) and applies_to(r, family)]
    for r in rules:
        if r.needs_log and not facts.has_log:
            skipped.append(NotChecked(id=r.id, reason=no_log_reason or NO_LOG))
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
