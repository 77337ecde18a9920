"""The environment of a benchmark run, recorded with its results."""

from __future__ import annotations

import os
import platform
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]


def _read(path: str) -> str | None:
    try:
        return Path(path).read_text().strip()
    except OSError:
        return None


def _cpu_model() -> str | None:
    for line in (_read("/proc/cpuinfo") or "").splitlines():
        if line.startswith("model name"):
            return line.split(":", 1)[1].strip()
    return None


def _git(*args: str) -> str | None:
    try:
        p = subprocess.run(["git", "-C", str(ROOT), *args], capture_output=True, text=True, timeout=10)
    except (OSError, subprocess.TimeoutExpired):
        return None
    return p.stdout.strip() if p.returncode == 0 else None


def metadata() -> dict[str, Any]:
    dirty = _git("status", "--porcelain", "--", "native", "python")
    return {
        "cpu_model": _cpu_model(),
        "cpu_count": os.cpu_count(),
        "cpus_usable": len(os.sched_getaffinity(0)),
        "kernel": platform.release(),
        "python": sys.version.split()[0],
        "python_executable": sys.executable,
        "thp": _read("/sys/kernel/mm/transparent_hugepage/enabled"),
        "cgroup_cpu_max": _read("/sys/fs/cgroup/cpu.max"),
        "cgroup_memory_max": _read("/sys/fs/cgroup/memory.max"),
        "loadavg_start": os.getloadavg(),
        "git_commit": _git("rev-parse", "HEAD"),
        "git_dirty_native_or_python": bool(dirty) if dirty is not None else None,
        "polars_max_threads": os.environ.get("POLARS_MAX_THREADS"),
        "native_build": native_build(),
    }


def native_build() -> dict[str, Any]:
    """Which build of jvmlab._native was measured: the native code changes while others work on it."""
    import hashlib

    out: dict[str, Any] = {}
    for so in sorted((ROOT / "python" / "jvmlab").glob("_native*.so")):
        stat = so.stat()
        out[so.name] = {
            "sha256": hashlib.sha256(so.read_bytes()).hexdigest(),
            "mtime": time.strftime("%Y-%m-%dT%H:%M:%S%z", time.localtime(stat.st_mtime)),
        }
    return out
