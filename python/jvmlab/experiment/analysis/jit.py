"""The compilation logs of a stored experiment's trials ([telemetry] jit), each summarized (jvmlab.jit)."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from jvmlab.errors import JvmLabError, UsageError
from jvmlab.experiment.storage import OK, Store
from jvmlab.jit import JitSummary, load_compile_log, summarize


@dataclass(frozen=True)
class TrialJit:
    variant: str
    key: str
    summary: JitSummary | None
    note: str  # which log was read, or why there is none


def experiment_jit(store: Store, ref: str) -> list[TrialJit]:
    """Per successful trial: its LogCompilation XML when it has one (more detail), else its jit log."""
    exp = store.experiment(ref)
    if exp is None:
        raise UsageError(f"no experiment {ref!r} in {store.url}")
    out = []
    for t in store.trials(exp.id):
        if t.state != OK:
            continue
        artifacts = store.artifacts(t.id)
        path = artifacts.get("compile_log") or artifacts.get("jit_log")
        if not path or not Path(path).is_file():
            out.append(TrialJit(t.variant, t.key, None, "no compilation log ([telemetry] jit in the spec)"))
            continue
        try:
            out.append(TrialJit(t.variant, t.key, summarize(load_compile_log(path)), path))
        except JvmLabError as e:
            out.append(TrialJit(t.variant, t.key, None, str(e)))
    if not out:
        raise UsageError(f"experiment {exp.id} ({exp.name}) has no successful trial")
    return out
