"""Containers for trials: limits (CPUs, memory, CPU set), a cgroup per trial made and removed by jvmlab, and
what the cgroup counted (throttling, memory peak, OOM kills)."""

from jvmlab.container.group import TrialGroup, make
from jvmlab.container.hierarchy import Hierarchy, this_machine
from jvmlab.container.limits import Limits, parse_memory
from jvmlab.container.usage import Usage, usage_of

__all__ = ["Hierarchy", "Limits", "TrialGroup", "Usage", "make", "parse_memory", "this_machine", "usage_of"]
