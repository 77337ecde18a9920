"""Explain and advise: rules that read the evidence of a GC log, an experiment's trial or a running JVM
and say what is wrong, why it matters, what to change (flags for the JDK in use) and how sure they are.

    advice = jvmlab.advise.advise_log("gc.log", flags="-Xmx2g -XX:+UseParallelGC", jdk_major=17)
    for finding in advice.findings: ...

Rules are in jvmlab.advise.rules (docs/advise.md lists them); thresholds in jvmlab.advise.thresholds.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from jvmlab.advise.engine import ADVICE_FORMAT_VERSION, Advice, advise
from jvmlab.advise.facts import ContainerFacts, Facts, Machine, ProcessSamples, facts_from_log
from jvmlab.advise.finding import Confidence, Effect, Evidence, Finding, NotChecked, Recommendation, Severity

if TYPE_CHECKING:
    from jvmlab.gclog import GcLog
    from jvmlab.metrics import GcSummary

__all__ = [
    "ADVICE_FORMAT_VERSION",
    "Advice",
    "Confidence",
    "ContainerFacts",
    "Effect",
    "Evidence",
    "Facts",
    "Finding",
    "Machine",
    "NotChecked",
    "ProcessSamples",
    "Recommendation",
    "Severity",
    "advise",
    "advise_log",
    "advise_parsed",
    "facts_of_log",
]


def facts_of_log(
    path: str | Path | Sequence[str | Path],
    *,
    flags: str | Sequence[str] | None = None,
    jdk_major: int | None = None,
    strict: bool = False,
    label: str = "",
) -> Facts:
    """Loads one GC log (a file, a zip, a folder or a rotated set) and gathers its facts."""
    from jvmlab.metrics import load_summarized

    def import_rules() -> None:
        import jvmlab.advise.rules  # noqa: F401  (polars and the rules load while the log is parsed)

    log, summary = load_summarized(path, strict=strict, label=label, meanwhile=import_rules)
    return facts_from_log(log, summary, flags=flags, jdk_major=jdk_major)


def advise_parsed(log: GcLog, summary: GcSummary) -> Advice:
    """The findings on a parsed log and its summary, with the log's own command line where it prints one."""
    return advise(facts_from_log(log, summary))


def advise_log(
    path: str | Path | Sequence[str | Path],
    *,
    flags: str | Sequence[str] | None = None,
    jdk_major: int | None = None,
    strict: bool = False,
) -> Advice:
    """The findings on one GC log. JDK 9+ logs do not print the command line: `flags` gives it (without
    it the rules that read flags say "not checked"); `jdk_major` overrides the JDK the log shows."""
    return advise(facts_of_log(path, flags=flags, jdk_major=jdk_major, strict=strict))
