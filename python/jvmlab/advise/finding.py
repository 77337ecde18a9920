"""A finding: what a rule read in the evidence, why it matters, what to change, and how sure it is.

Findings are immutable records (pydantic, frozen) so that the terminal, Markdown, JSON and HTML views and
the store all show the same thing. A rule that could not look at its evidence says so with a NotChecked.
"""

from __future__ import annotations

from enum import StrEnum

from pydantic import BaseModel, ConfigDict, Field


class Severity(StrEnum):
    """How much it matters: critical (the JVM fails or stalls for long), warning (costs latency, throughput
    or memory now), info (worth knowing; no measured harm)."""

    CRITICAL = "critical"
    WARNING = "warning"
    INFO = "info"

    @property
    def rank(self) -> int:
        return {"critical": 0, "warning": 1, "info": 2}[self.value]


class Confidence(StrEnum):
    """high: the log states it (a cause string, a refused flag); medium: figures past a threshold with
    enough events; low: a pattern over few events, or a guess about the environment."""

    HIGH = "high"
    MEDIUM = "medium"
    LOW = "low"


class Evidence(BaseModel):
    """What the finding rests on: figures with units in their names, the GC ids (first few), the time
    window (seconds of uptime) and short excerpts (a cause, a flag, a log line)."""

    model_config = ConfigDict(frozen=True)

    figures: dict[str, float | int | str] = Field(default_factory=dict)
    gc_ids: list[int] = Field(default_factory=list)
    window_s: tuple[float, float] | None = None
    excerpts: list[str] = Field(default_factory=list)


class Recommendation(BaseModel):
    """The change to make: flags to add (`-XX:MetaspaceSize=256m`), flags to remove, and what else to do
    in words. `checked_on` names the JDK the flags were checked on (`jvmlab jdks check`), None when that JDK
    is not installed here; `check_error` is what that JDK said when it refused them."""

    model_config = ConfigDict(frozen=True)

    add_flags: list[str] = Field(default_factory=list)
    remove_flags: list[str] = Field(default_factory=list)
    action: str = ""
    checked_on: str | None = None
    check_error: str | None = None

    @property
    def changes_flags(self) -> bool:
        return bool(self.add_flags or self.remove_flags)


class Effect(BaseModel):
    """The expected effect on a named measure: `measure` as jvmlab names it (`full_gc_count`,
    `pause_p99_ms`, `gc_overhead_percent`, `young_gc_rate_per_min`, `throughput`, `latency_p99_ms`),
    `direction` "decrease" or "increase", `text` the effect in words."""

    model_config = ConfigDict(frozen=True)

    measure: str
    direction: str
    text: str


class Finding(BaseModel):
    """One rule's reading. `id` is stable across versions (tests, docs and suppressions use it); `source`
    is "jvmlab" or "jmc" (JDK Mission Control's rule, `jmc_rule` its id and `jmc_score` 0-100)."""

    model_config = ConfigDict(frozen=True)

    id: str
    severity: Severity
    title: str
    evidence: Evidence
    why: str
    recommendation: Recommendation
    effect: Effect | None = None
    confidence: Confidence
    source: str = "jvmlab"
    jmc_rule: str | None = None
    jmc_score: float | None = None
    also_reported_by: list[str] = Field(default_factory=list)


class NotChecked(BaseModel):
    """A rule that could not run, and why: the data it needs is not in the input ("the log has no heap
    sizes", "no command line: give --flags")."""

    model_config = ConfigDict(frozen=True)

    id: str
    reason: str


def sort_key(f: Finding) -> tuple[int, int, str]:
    """Most severe first; then the surer; then by id, so the order is stable."""
    confidence = {"high": 0, "medium": 1, "low": 2}[f.confidence.value]
    return f.severity.rank, confidence, f.id
