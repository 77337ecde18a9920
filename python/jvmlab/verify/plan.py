"""From advice to a follow-up experiment: which recommendations to try, the flag set of each, and the measure
it should move: the follow-up's primary measures, which `repetitions = "auto"` (the default) runs rounds
until decided (docs/methodology.md#repetitions-until-decided)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from jvmlab.advise import Advice, Finding
from jvmlab.experiment.spec import ExperimentSpec, Repetitions

CURRENT = "current"  # the flag set of the flags as they are: every recommendation is compared with it
DEFAULT_TOP = 3
# The effect a finding names -> the experiment measure that shows it (experiment/analysis/measures.py).
# Latency and throughput are read from the load levels when the experiment has them.
MEASURE_OF_EFFECT = {
    "full_gc_count": "full_gc_count",
    "gc_count": "gc_count",
    "young_gc_rate_per_min": "young_gc_per_min",
    "pause_max_ms": "pause_max_ms",
    "pause_p99_ms": "pause_p99_ms",
    "pause_total_ms": "pause_total_ms",
    "gc_overhead_percent": "gc_overhead_percent",
    "latency_p99_ms": "p99_ms",
    "throughput": "throughput_rps",
    "memory_peak_percent": "memory_peak_percent",
    "throttled_percent": "throttled_percent",
}


@dataclass(frozen=True)
class Candidate:
    """One recommendation to verify: the finding, the flag set it becomes, the measure it should move."""

    finding_id: str
    title: str
    flag_set: str
    flags: tuple[str, ...]
    changes: str
    measure: str
    direction: str  # "decrease" or "increase"
    expected: str


def measure_for(finding: Finding, has_levels: bool) -> str | None:
    if finding.effect is None:
        return None
    measure = MEASURE_OF_EFFECT.get(finding.effect.measure)
    if measure in ("p99_ms", "throughput_rps") and not has_levels:
        return "pause_p99_ms" if measure == "p99_ms" else None
    return measure


def applied(current: Sequence[str], finding: Finding) -> tuple[str, ...]:
    """The current flags without those the finding removes (and any earlier value of a flag it sets),
    then the flags it adds."""
    rec = finding.recommendation
    names = {flag_name(f) for f in rec.add_flags}
    kept = [f for f in current if f not in rec.remove_flags and flag_name(f) not in names]
    return (*kept, *rec.add_flags)


def flag_name(flag: str) -> str:
    """`-XX:MetaspaceSize=64m` -> `MetaspaceSize`, `-XX:+UseG1GC` -> `UseG1GC`, `-Xmn64m` -> `-Xmn`."""
    if flag.startswith("-XX:"):
        return flag[4:].lstrip("+-").split("=", 1)[0]
    for prefix in ("-Xmx", "-Xms", "-Xmn", "-Xss"):
        if flag.startswith(prefix):
            return prefix
    return flag


def candidates(
    advice: Advice, current: Sequence[str], *, has_levels: bool, top: int = DEFAULT_TOP
) -> list[Candidate]:
    """The most severe findings that change flags (refused flags excluded: nothing runs with them), whose
    effect has a measure and whose flags differ from the current ones, at most `top`."""
    out: list[Candidate] = []
    for f in advice.findings:
        measure = measure_for(f, has_levels)
        rec = f.recommendation
        if len(out) >= top or measure is None or not rec.changes_flags or rec.check_error or f.effect is None:
            continue
        flags = applied(current, f)
        if list(flags) == list(current) or any(c.flags == flags for c in out):
            continue
        parts = [("add " + " ".join(rec.add_flags)) if rec.add_flags else ""]
        parts.append(("remove " + " ".join(rec.remove_flags)) if rec.remove_flags else "")
        changes = "; ".join(p for p in parts if p)
        out.append(Candidate(f.id, f.title, f.id, flags, changes, measure, f.effect.direction, f.effect.text))
    return out


def follow_up_spec(
    source: ExperimentSpec,
    jdk: str,
    current: Sequence[str],
    cands: Sequence[Candidate],
    *,
    repetitions: Repetitions,
    name: str | None = None,
    container: str | None = None,
) -> ExperimentSpec:
    """The source's workload, load and telemetry on one JDK (in one of its containers): the current flags and
    one flag set per candidate, compared with the current ones."""
    flags: dict[str, list[str]] = {CURRENT: list(current)}
    flags.update({c.flag_set: list(c.flags) for c in cands})
    data = source.model_dump(mode="json")
    data["name"] = name or f"{source.name}-verify"
    data["description"] = "jvmlab advise --verify: " + ", ".join(c.finding_id for c in cands)
    containers = data["matrix"].get("containers") or {}
    kept = {container: containers[container]} if container in containers else None
    data["matrix"] = {
        **data["matrix"],
        "jdks": [jdk],
        "flags": flags,
        "repetitions": repetitions,
        "containers": kept,
    }
    # the measures the recommendations name are what the follow-up is about ("auto" runs until decided)
    targets = list(dict.fromkeys(c.measure for c in cands))
    data["compare"] = {**data["compare"], "baseline": CURRENT, "primary": targets}
    data["goals"] = {}
    spec = ExperimentSpec.model_validate(data)
    return spec.model_copy(update={"spec_dir": source.spec_dir})
