"""The machine jvmlab runs on: CPU model and count, memory, kernel, THP mode, cgroup limits, load, and a JDK's
release file. Experiments record it with every run; advice on a running JVM reads it."""

from __future__ import annotations

import os
import platform
from pathlib import Path
from typing import Any

from jvmlab.container.hierarchy import own_limits


def _read(path: str | Path) -> str | None:
    try:
        return Path(path).read_text(errors="replace").strip()
    except OSError:
        return None


def cpu_model() -> str | None:
    text = _read("/proc/cpuinfo") or ""
    for line in text.splitlines():
        if line.startswith("model name"):
            return line.split(":", 1)[1].strip()
    return platform.processor() or None


def memory_bytes() -> int | None:
    for line in (_read("/proc/meminfo") or "").splitlines():
        if line.startswith("MemTotal:"):
            return int(line.split()[1]) * 1024
    return None


def thp_mode() -> str | None:
    """The bracketed choice of /sys/kernel/mm/transparent_hugepage/enabled ("always", "madvise", "never")."""
    text = _read("/sys/kernel/mm/transparent_hugepage/enabled")
    if text and "[" in text:
        return text.split("[", 1)[1].split("]", 1)[0]
    return text


def usable_cpus() -> int:
    """The CPUs this process may run on (its affinity mask; the machine's count where there is none)."""
    return len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1


def machine() -> dict[str, Any]:
    uname = platform.uname()
    return {
        "cpu_model": cpu_model(),
        "cpu_count": os.cpu_count(),
        "cpus_usable": len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else None,
        "memory_bytes": memory_bytes(),
        "kernel": f"{uname.system} {uname.release}",
        "machine": uname.machine,
        "hostname": uname.node,
        "thp": thp_mode(),
        "cgroup": own_limits(),  # this process's own container, if any (v1 or v2)
        "load_average": list(os.getloadavg()) if hasattr(os, "getloadavg") else None,
        "python": platform.python_version(),
    }
