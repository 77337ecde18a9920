"""The compilation logs of a stored experiment's trials ([telemetry] jit), each summarized (jvmlab.jit) with
the variant's hot methods from its CPU profile when the trials were profiled ([telemetry] profile), and the
code heaps each trial sampled."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from jvmlab.errors import JvmLabError, UsageError
from jvmlab.experiment.analysis.profiles import events_of, safe_variant_profiles
from jvmlab.experiment.storage import OK, ExperimentRow, Store
from jvmlab.experiment.storage.artifacts import CODE_HEAP_SERIES
from jvmlab.jit import JitSummary, load_compile_log, summarize
from jvmlab.jit.directives import hot_from_profile
from jvmlab.profile.model import merge

# Profiled events whose self samples say where the CPU time goes, in order of preference.
CPU_EVENTS = ("cpu", "itimer", "cycles", "wall")


@dataclass(frozen=True)
class TrialJit:
    variant: str
    key: str
    summary: JitSummary | None
    note: str  # which log was read, or why there is none
    # per code heap: size_bytes, used_peak_bytes, max_used_bytes, used_last_bytes (the trial's `jit` column)
    codecache: dict[str, dict[str, Any]] = field(default_factory=dict)
    # per code heap: (seconds since the JVM was ready, bytes used)
    code_heaps: dict[str, list[tuple[float, float]]] = field(default_factory=dict)


def variant_hot_methods(store: Store, exp: ExperimentRow, variant: str) -> tuple[list[str] | None, str]:
    """The hot methods of the variant's merged CPU profile and where they came from; (None, why) when its
    trials were not profiled on a CPU event."""
    events = events_of(exp)
    event = next((e for e in CPU_EVENTS if e in events), None)
    if event is None:
        return None, "no CPU profile"
    profiles = safe_variant_profiles(store, exp.id, variant, event)
    if not profiles:
        return None, f"no {event} profile stored"
    return [
        h.name for h in hot_from_profile(merge(profiles))
    ], f"{event} profile of {len(profiles)} trial{'s' if len(profiles) > 1 else ''}"


def experiment_jit(store: Store, ref: str) -> list[TrialJit]:
    """Per successful trial: its LogCompilation XML when it has one (more detail), else its jit log."""
    exp = store.experiment(ref)
    if exp is None:
        raise UsageError(f"no experiment {ref!r} in {store.url}")
    out = []
    hot_of: dict[str, tuple[list[str] | None, str]] = {}
    for t in store.trials(exp.id):
        if t.state != OK:
            continue
        heaps = {
            name.removeprefix(CODE_HEAP_SERIES): points
            for name, points in store.series_named(t.id, CODE_HEAP_SERIES).items()
        }
        codecache = dict((t.jit or {}).get("codecache") or {})
        artifacts = store.artifacts(t.id)
        path = artifacts.get("compile_log") or artifacts.get("jit_log")
        if not path or not Path(path).is_file():
            why = "no compilation log ([telemetry] jit in the spec)"
            out.append(TrialJit(t.variant, t.key, None, why, codecache, heaps))
            continue
        if t.variant not in hot_of:
            hot_of[t.variant] = variant_hot_methods(store, exp, t.variant)
        hot, source = hot_of[t.variant]
        try:
            log = load_compile_log(path)
            if not log.compilations_logged:
                why = f'{path}: code cache reports only, no compilations (JDK 8 with jit = "summary")'
                out.append(TrialJit(t.variant, t.key, None, why, codecache, heaps))
                continue
            summary = summarize(log, hot=hot, hot_source=source)
            out.append(TrialJit(t.variant, t.key, summary, path, codecache, heaps))
        except JvmLabError as e:
            out.append(TrialJit(t.variant, t.key, None, str(e), codecache, heaps))
    if not out:
        raise UsageError(f"experiment {exp.id} ({exp.name}) has no successful trial")
    return out
