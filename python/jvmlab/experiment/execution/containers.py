"""A trial's container: its cgroup made before the trial starts (none without limits), what it counted once
the trial ended, and the check before an experiment that cgroups can be made here at all."""

from __future__ import annotations

import contextlib
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from jvmlab.container import Limits, TrialGroup, make, this_machine
from jvmlab.container.group import remove_abandoned
from jvmlab.container.limits import memory_text
from jvmlab.container.usage import Usage, usage_from_file
from jvmlab.errors import ContainerError
from jvmlab.jdk.native_memory import NativeMemory


def container_of(trial: str, limits: Limits | None) -> TrialGroup | None:
    """The cgroup of a trial with `limits`; None without a limit. ContainerError when it cannot be made."""
    if limits is None or limits.unlimited:
        return None
    return make(this_machine(), trial, limits)


def container_result(
    name: str | None,
    limits: Limits | None,
    group: TrialGroup | None,
    counters: Path,
    series: Mapping[str, list[tuple[float, float]]],
    elapsed_s: float,
    nmt: NativeMemory | None = None,
) -> dict[str, Any] | None:
    """The trial's `cgroup` column: the limits, what the cgroup counted (kept by the supervisor in
    `counters` as it removed the cgroup), the peaks of its anonymous and page-cache memory and its throttled
    time as a share of the trial (from the samples, `series`), and `oom_killed`, the reason when the kernel
    killed a process."""
    if name is None and group is None:
        return None
    usage: Usage | None = None
    if group is not None:
        usage = usage_from_file(group.version, counters)
        if usage is None:  # the supervisor kept nothing: read what is left, then make sure it is gone
            usage = group.read()
        with contextlib.suppress(ContainerError):
            group.remove()
    doc = usage.to_json() if usage is not None else None
    if doc is not None:
        for peak, samples in (
            ("anon_peak_bytes", "cgroup_anon_bytes"),
            ("file_peak_bytes", "cgroup_file_bytes"),
        ):
            values = [v for _, v in series.get(samples, [])]
            doc[peak] = int(max(values)) if values else None
        throttled = usage.throttled_s if usage is not None else None
        doc["throttled_time_percent"] = (
            100.0 * throttled / elapsed_s if throttled is not None and elapsed_s else None
        )
        if nmt is not None:  # -XX:NativeMemoryTracking: the JVM's own count of what it holds beside the heap
            doc["nmt_committed_bytes"] = nmt.committed_bytes
            doc["nmt_beside_heap_bytes"] = nmt.beside_heap_bytes
    return {
        "name": name,
        "limits": (limits or Limits()).to_json(),
        "version": group.version if group is not None else None,
        "usage": doc,
        "oom_killed": _oom_reason(usage),
    }


def _oom_reason(usage: Usage | None) -> str | None:
    if usage is None or not usage.oom_kills:
        return None
    n = usage.oom_kills
    limit = f" of {memory_text(usage.memory_limit_bytes)}" if usage.memory_limit_bytes else ""
    peak = f", peak {memory_text(usage.memory_peak_bytes)}" if usage.memory_peak_bytes else ""
    return (
        f"killed by the kernel's OOM killer ({n} process{'es' if n > 1 else ''}, the cgroup's oom_kill "
        "count): "
        f"the container's memory limit{limit} was reached{peak}"
    )


def check_containers(containers: Mapping[str, Limits]) -> None:
    """Makes and removes a cgroup with each container's limits: ContainerError (one line) before any trial
    when this machine cannot (no cgroup controllers, not root, a limit the kernel refuses)."""
    hierarchy = this_machine()
    remove_abandoned(hierarchy)  # what an earlier jvmlab, killed at the wrong moment, could not remove
    for name, limits in containers.items():
        if limits.unlimited:
            continue
        try:
            make(hierarchy, f"check-{name}", limits).remove()
        except ContainerError as e:
            raise ContainerError(f"container {name} ({limits.text()}): {e}") from None
