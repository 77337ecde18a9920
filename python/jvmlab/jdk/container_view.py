"""What a JVM sees of its container, as it prints it with -XshowSettings:system (JDK 11+; 8u191+ on Linux):
whether it found cgroup limits, the CPUs it will use, the quota and the memory limit. Read from the block
"Operating System Metrics:" of its standard error."""

from __future__ import annotations

import re
from dataclasses import asdict, dataclass
from typing import Any

SETTINGS_HEADER = "Operating System Metrics:"
SHOW_SYSTEM = "-XshowSettings:system"
_UNITS = {"": 1, "K": 1024, "M": 1024**2, "G": 1024**3, "T": 1024**4}
_SIZE = re.compile(r"([0-9.]+)\s*([KMGT]?)")


@dataclass(frozen=True)
class ContainerView:
    """The JVM's own view of its container (None: it did not say)."""

    provider: str | None  # cgroupv1, cgroupv2
    containerized: bool
    effective_cpus: int | None
    cpu_quota_us: int | None  # None: no quota
    cpu_period_us: int | None
    memory_limit_bytes: int | None  # None: unlimited

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


def _size(text: str) -> int | None:
    found = _SIZE.fullmatch(text.strip())
    if found is None:
        return None
    return int(float(found[1]) * _UNITS[found[2]])


def _micros(text: str) -> int | None:
    text = text.strip().removesuffix("us")
    return int(text) if text.isdigit() else None


def container_view(stderr: str) -> ContainerView | None:
    """The view in what the JVM printed; None when it printed no system settings."""
    lines = stderr.splitlines()
    try:
        start = next(i for i, line in enumerate(lines) if line.strip() == SETTINGS_HEADER)
    except StopIteration:
        return None
    values: dict[str, str] = {}
    containerized = True
    for line in lines[start + 1 :]:
        if not line.startswith("    "):
            break
        text = line.strip()
        if text.startswith(("System not containerized", "No metrics available")):
            containerized = False
        key, sep, value = text.partition(":")
        if sep:
            values[key.strip()] = value.strip()
    memory = values.get("Memory Limit", "")
    cpus = values.get("Effective CPU Count", "")
    return ContainerView(
        provider=values.get("Provider"),
        containerized=containerized,
        effective_cpus=int(cpus) if cpus.isdigit() else None,
        cpu_quota_us=_micros(values.get("CPU Quota", "")),
        cpu_period_us=_micros(values.get("CPU Period", "")),
        memory_limit_bytes=None if memory in ("", "Unlimited") else _size(memory),
    )
