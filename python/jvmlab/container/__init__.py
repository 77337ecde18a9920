"""Containers for trials: limits (CPUs, memory, CPU set), a cgroup per trial made and removed by jvmlab, and
what the cgroup counted (throttling, memory peak, OOM kills)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from jvmlab.lazy import exports

if TYPE_CHECKING:
    from jvmlab.container.group import TrialGroup, make
    from jvmlab.container.hierarchy import Hierarchy, this_machine
    from jvmlab.container.limits import Limits, parse_memory
    from jvmlab.container.usage import Usage, usage_of

# The modules behind the names, imported on first use: the CLI's options read container.limits alone, and
# every jvmlab command started without the cgroup code and psutil (12-18 ms of each start-up).
_HOMES = {
    "TrialGroup": "group",
    "make": "group",
    "Hierarchy": "hierarchy",
    "this_machine": "hierarchy",
    "Limits": "limits",
    "parse_memory": "limits",
    "Usage": "usage",
    "usage_of": "usage",
}


__getattr__ = exports(__name__, _HOMES)


__all__ = ["Hierarchy", "Limits", "TrialGroup", "Usage", "make", "parse_memory", "this_machine", "usage_of"]
