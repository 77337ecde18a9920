"""Advice on a stored experiment: per variant (JDK x flag set), the rules over each successful trial's GC
log with everything the run recorded beside it: the flags and their final values, the JDK, the machine,
the process's swap and RSS, the JVM's own output, and whether the load was latency-bound (load levels).
A finding is kept when it fires in at least half of the variant's trials (noted in its evidence)."""

from __future__ import annotations

import dataclasses
import math
from pathlib import Path
from typing import Any

from jvmlab.advise import Advice, ContainerFacts, Facts, Machine, ProcessSamples, advise
from jvmlab.advise.facts import facts_from_log, machine_recorded
from jvmlab.advise.finding import Finding, sort_key
from jvmlab.errors import UsageError
from jvmlab.experiment.storage import OK, ExperimentRow, Store, TrialRow
from jvmlab.jit import JitSummary

OUTPUT_TAIL_BYTES = 1 << 20  # of stdout/stderr read for the JVM's warnings (code cache full, ...)


def machine_of(environment: dict[str, Any]) -> Machine:
    return machine_recorded(environment.get("machine", {}))


def compile_log_summary(artifacts: dict[str, str]) -> JitSummary | None:
    """The trial's compilation log ([telemetry] jit), summarized; None without one or when unreadable."""
    from jvmlab.errors import JvmLabError
    from jvmlab.jit import load_compile_log, summarize

    path = artifacts.get("compile_log") or artifacts.get("jit_log")
    if not path or not Path(path).is_file():
        return None
    try:
        return summarize(load_compile_log(path))
    except JvmLabError:
        return None


def jvm_output(artifacts: dict[str, str]) -> str | None:
    texts = []
    for kind in ("stdout", "stderr"):
        path = artifacts.get(kind)
        if path and Path(path).is_file():
            with open(path, "rb") as f:
                f.seek(max(0, Path(path).stat().st_size - OUTPUT_TAIL_BYTES))
                texts.append(f.read().decode("utf-8", "replace"))
    return "\n".join(texts) if texts else None


def trial_facts(
    store: Store, exp: ExperimentRow, trial: TrialRow, artifacts: dict[str, str] | None = None
) -> Facts | None:
    """The facts of one trial (its files by kind when already read), None when it left no GC log."""
    from jvmlab.metrics import load_summarized

    if artifacts is None:
        artifacts = store.artifacts(trial.id)
    path = artifacts.get("gc_log")
    if not path or not Path(path).is_file():
        return None
    log, summary = load_summarized(path)
    checks = exp.environment.get("flag_checks", {}).get(trial.variant, {})
    base = facts_from_log(
        log,
        summary,
        flags=[str(f) for f in trial.flags],
        jdk_major=(trial.jdk_info or {}).get("major"),
        machine=machine_of(exp.environment),
        flags_ran=True,  # only successful trials are advised: their JVM started with these flags
    )
    swap = [int(v) for _, v in store.series(trial.id, "swap_bytes")]
    rss = [int(v) for _, v in store.series(trial.id, "rss_bytes")]
    container = container_facts(trial, store.series(trial.id, "cgroup_throttled_percent"))
    return dataclasses.replace(
        base,
        container=container,
        machine=in_container(base.machine, container),
        name=f"{trial.variant} (trial {trial.key})",
        flags_final=checks.get("flags_final") or None,
        process=ProcessSamples(tuple(swap), tuple(rss)) if swap or rss else None,
        workload_kind="latency" if exp.spec.get("load") else "throughput",
        jvm_output=jvm_output(artifacts),
        jit=compile_log_summary(artifacts),
        code_heaps=(trial.jit or {}).get("codecache") or None,
        code_page_sizes=((trial.jit or {}).get("pages") or {}).get("page_size") or None,
    )


def container_facts(trial: TrialRow, throttled: list[tuple[float, float]]) -> ContainerFacts | None:
    """The trial's container as advice reads it: its limits, its cgroup's counters, the JVM's view of it."""
    cgroup = trial.cgroup or {}
    limits, usage = cgroup.get("limits") or {}, cgroup.get("usage")
    if not usage:
        return None
    seen = (trial.jdk_info or {}).get("container") or {}
    return ContainerFacts(
        cpus=limits.get("cpus"),
        memory_limit_bytes=limits.get("memory_bytes"),
        throttled_percent=usage.get("throttled_percent") if limits.get("cpus") else None,
        throttled_time_percent=usage.get("throttled_time_percent"),
        memory_peak_bytes=usage.get("memory_peak_bytes"),
        anon_peak_bytes=usage.get("anon_peak_bytes"),
        nmt_beside_heap_bytes=usage.get("nmt_beside_heap_bytes"),
        effective_cpus=seen.get("effective_cpus") if seen.get("containerized") else None,
        throttled=tuple(throttled),
    )


def in_container(machine: Machine, container: ContainerFacts | None) -> Machine:
    """The machine as a JVM in `container` sees it: the container's memory limit, and as many CPUs as the
    JVM counted there (else the quota, rounded up as HotSpot rounds it)."""
    if container is None:
        return machine
    cpus = container.effective_cpus or (math.ceil(container.cpus) if container.cpus else None)
    return dataclasses.replace(
        machine,
        cpus_available=cpus or machine.cpus_available,
        container_memory_limit_bytes=container.memory_limit_bytes or machine.container_memory_limit_bytes,
    )


def variant_advice(variant: str, advices: list[Advice]) -> Advice:
    """One advice for a variant's trials: the findings of at least half of them, each with its count."""
    fired: dict[str, list[Finding]] = {}
    for a in advices:
        for f in a.findings:
            fired.setdefault(f.id, []).append(f)
    kept = []
    for found in fired.values():
        if 2 * len(found) >= len(advices):
            first = found[0]
            note = f"in {len(found)} of {len(advices)} trials"
            evidence = first.evidence.model_copy(update={"excerpts": [*first.evidence.excerpts, note]})
            kept.append(first.model_copy(update={"evidence": evidence}))
    seen = {n.id: n for a in advices for n in a.not_checked}
    return advices[0].model_copy(
        update={"name": variant, "findings": sorted(kept, key=sort_key), "not_checked": list(seen.values())}
    )


def experiment_advice(store: Store, ref: str | None) -> list[Advice]:
    """Per variant with a successful trial that left a GC log, in the experiment's order."""
    exp = store.experiment(ref) if ref is not None else store.latest_experiment()
    if exp is None:
        raise UsageError(f"no experiment {ref!r} in {store.url}" if ref else f"no experiment in {store.url}")
    by_variant: dict[str, list[Advice]] = {}
    ok = [t for t in store.trials(exp.id) if t.state == OK]
    artifacts = store.artifacts_of(t.id for t in ok)
    for trial in ok:
        facts = trial_facts(store, exp, trial, artifacts[trial.id])
        if facts is not None:
            by_variant.setdefault(trial.variant, []).append(advise(facts))
    if not by_variant:
        raise UsageError(
            f"experiment {exp.name} (#{exp.id}) has no successful trial with a GC log to advise on"
        )
    return [variant_advice(v, a) for v, a in by_variant.items()]
