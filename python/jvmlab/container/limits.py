"""A container's limits as a trial gets them: CPUs (a CFS quota), memory (a hard limit, no swap unless asked)
and a CPU set; the sizes written as Docker and Kubernetes users write them ("512m", "2g", "1.5Gi")."""

from __future__ import annotations

import math
import re
from collections.abc import Sequence
from dataclasses import dataclass

from jvmlab.errors import UsageError

# The CFS period the quota is a share of: the kernel's and Docker's default, 100 ms.
CFS_PERIOD_US = 100_000
# Below this a JVM does not start at all (its own minimum heap, metaspace, code cache and threads).
MIN_MEMORY_BYTES = 32 * 1024 * 1024

_UNITS = {"": 1, "b": 1, "k": 1024, "m": 1024**2, "g": 1024**3, "t": 1024**4}
_SIZE = re.compile(r"(?P<number>\d+(?:\.\d+)?)\s*(?P<unit>[kmgt]?)(?:i?b?)?", re.IGNORECASE)


def parse_memory(text: str | int) -> int:
    """Bytes of "512m", "2g", "1.5Gi", "1073741824" (binary units: m = MiB, as Docker and -Xmx read them)."""
    if isinstance(text, int) and not isinstance(text, bool):
        value = text
    else:
        found = _SIZE.fullmatch(str(text).strip())
        if found is None:
            raise UsageError(f"memory {text!r}: not a size (examples: 512m, 2g, 1.5Gi, 1073741824)")
        value = int(float(found["number"]) * _UNITS[found["unit"].lower()])
    if value < MIN_MEMORY_BYTES:
        raise UsageError(f"memory {text!r}: below {MIN_MEMORY_BYTES // 2**20} MiB no JVM starts")
    return value


def memory_text(value: int) -> str:
    """512 MiB, 1.5 GiB: a size as the limits are shown."""
    for unit, size in (("GiB", 1024**3), ("MiB", 1024**2)):
        if value >= size:
            return f"{value / size:.3g} {unit}"
    return f"{value} B"


@dataclass(frozen=True)
class Limits:
    """What a trial's cgroup holds it to; None: not limited. `swap_bytes` is swap on top of memory (0: none,
    Kubernetes' default; Docker's is as much again)."""

    cpus: float | None = None
    memory_bytes: int | None = None
    cpuset: tuple[int, ...] | None = None
    swap_bytes: int = 0

    def __post_init__(self) -> None:
        if self.cpus is not None and not (0.01 <= self.cpus <= 4096 and math.isfinite(self.cpus)):
            raise UsageError(f"cpus {self.cpus:g}: a share of CPUs between 0.01 and the machine's count")
        if self.cpuset is not None and (not self.cpuset or min(self.cpuset) < 0):
            raise UsageError(f"cpuset {list(self.cpuset)}: CPU numbers, at least one, from 0")
        if self.swap_bytes < 0:
            raise UsageError("swap: a size, 0 for none")

    @classmethod
    def of(
        cls,
        cpus: float | None = None,
        memory: str | int | None = None,
        cpuset: Sequence[int] | None = None,
        swap: str | int | None = None,
    ) -> Limits:
        return cls(
            cpus=cpus,
            memory_bytes=None if memory is None else parse_memory(memory),
            cpuset=None if cpuset is None else tuple(sorted(set(cpuset))),
            swap_bytes=0 if swap in (None, 0, "0") else parse_memory(swap),  # type: ignore[arg-type]
        )

    @property
    def unlimited(self) -> bool:
        return self.cpus is None and self.memory_bytes is None and self.cpuset is None

    @property
    def quota_us(self) -> int | None:
        """The CFS quota per CFS_PERIOD_US of the CPU limit."""
        return None if self.cpus is None else max(1000, round(self.cpus * CFS_PERIOD_US))

    def text(self) -> str:
        """ "0.5 CPU, 512 MiB", "2 CPUs (0-1), 2 GiB", "no limits"."""
        parts = []
        if self.cpus is not None:
            parts.append(f"{self.cpus:g} CPU{'' if self.cpus <= 1 else 's'}")
        if self.cpuset is not None:
            parts.append(f"CPUs {cpu_list(self.cpuset)}")
        if self.memory_bytes is not None:
            swap = f" + {memory_text(self.swap_bytes)} swap" if self.swap_bytes else ""
            parts.append(memory_text(self.memory_bytes) + swap)
        return ", ".join(parts) or "no limits"

    def name(self) -> str:
        """A container's name made of its limits: 0.5cpu-512m, 2cpu-cpus0-1-2g."""
        parts = [f"{self.cpus:g}cpu"] if self.cpus is not None else []
        parts += [f"cpus{cpu_list(self.cpuset).replace(',', '_')}"] if self.cpuset is not None else []
        if self.memory_bytes is not None:
            mib = self.memory_bytes / 2**20
            parts.append(f"{mib / 1024:g}g" if mib >= 1024 and mib % 1024 == 0 else f"{mib:g}m")
        return "-".join(parts) or "none"

    def to_json(self) -> dict[str, object]:
        return {
            "cpus": self.cpus,
            "memory_bytes": self.memory_bytes,
            "cpuset": list(self.cpuset) if self.cpuset is not None else None,
            "swap_bytes": self.swap_bytes,
        }


def parse_cpu_list(text: str) -> list[int]:
    """CPU numbers of "0-3,6" (the kernel's list format) or "0,1"."""
    cpus: list[int] = []
    for part in text.replace(" ", "").split(","):
        low, dash, high = part.partition("-")
        if not low.isdigit() or (dash and not high.isdigit()):
            raise UsageError(f"cpuset {text!r}: CPU numbers and ranges, as 0-3,6")
        cpus += range(int(low), int(high if dash else low) + 1)
    return cpus


def cpu_list(cpus: Sequence[int]) -> str:
    """0-3,6: the kernel's list format of cpuset.cpus."""
    ranges: list[list[int]] = []
    for c in sorted(set(cpus)):
        if ranges and c == ranges[-1][1] + 1:
            ranges[-1][1] = c
        else:
            ranges.append([c, c])
    return ",".join(f"{a}" if a == b else f"{a}-{b}" for a, b in ranges)
