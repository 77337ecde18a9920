"""Where this machine's cgroups are and which version holds the CPU and memory controllers, from
/proc/self/mountinfo and /proc/self/cgroup (the way the JVM finds its own container limits).

cgroup v1 mounts one hierarchy per controller (or a few together: "cpu,cpuacct"); cgroup v2 one hierarchy for
all. A hybrid machine mounts both, with each controller in one of them only (a controller serves one
hierarchy at a time): the version that has `cpu` and `memory` is the one a trial's limits go into.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from jvmlab.errors import ContainerError

V1, V2 = 1, 2
# What a trial's cgroup needs: v1 controllers (cpuacct for CPU time where cpu does not count it; cpuset
# only when a CPU set is asked).
NEEDED = ("cpu", "memory")
V1_CONTROLLERS = ("cpu", "cpuacct", "memory", "cpuset")


@dataclass(frozen=True)
class Mount:
    version: int
    root: str  # the cgroup path the mount shows at its mount point ("/" outside a cgroup namespace)
    point: Path
    controllers: frozenset[str]


@dataclass(frozen=True)
class Hierarchy:
    """The cgroup version a trial's limits go into, and per controller the cgroup this process is in
    (for v2 one folder serves every controller): a trial's cgroup is made below it."""

    version: int
    own: dict[str, Path]  # controller -> this process's cgroup folder

    def parent(self, controller: str) -> Path:
        return self.own[controller]


def mounts(mountinfo: str) -> list[Mount]:
    """The cgroup and cgroup2 mounts of a /proc/PID/mountinfo text."""
    found = []
    for line in mountinfo.splitlines():
        fields = line.split()
        if "-" not in fields:
            continue
        dash = fields.index("-")
        if len(fields) < dash + 4 or len(fields) < 5:
            continue
        fstype, options = fields[dash + 1], fields[dash + 3].split(",")
        root, point = _unescape(fields[3]), Path(_unescape(fields[4]))
        if fstype == "cgroup":
            known = frozenset(o for o in options if o in V1_CONTROLLERS)
            if known:
                found.append(Mount(V1, root, point, known))
        elif fstype == "cgroup2":
            found.append(Mount(V2, root, point, _v2_controllers(point)))
    return found


def _v2_controllers(point: Path) -> frozenset[str]:
    try:
        return frozenset((point / "cgroup.controllers").read_text().split())
    except OSError:
        return frozenset()


def _unescape(field: str) -> str:
    """mountinfo escapes space, tab, newline and backslash as octal (\\040)."""
    for code, char in (("\\040", " "), ("\\011", "\t"), ("\\012", "\n"), ("\\134", "\\")):
        field = field.replace(code, char)
    return field


def own_paths(proc_cgroup: str) -> dict[str, str]:
    """/proc/PID/cgroup: controller -> cgroup path (v1 lines `ID:cpu,cpuacct:/path`), and "" -> the v2 path
    (`0::/path`)."""
    paths: dict[str, str] = {}
    for line in proc_cgroup.splitlines():
        parts = line.split(":", 2)
        if len(parts) != 3:
            continue
        for controller in parts[1].split(",") if parts[1] else [""]:
            paths[controller] = parts[2]
    return paths


def _below(mount: Mount, path: str) -> Path:
    """The folder of cgroup `path` under `mount` (a path outside the mount's root is the mount's root)."""
    if mount.root != "/" and (path == mount.root or path.startswith(mount.root + "/")):
        path = path[len(mount.root) :]
    elif mount.root != "/":
        path = "/"
    return mount.point / path.lstrip("/")


def detect(mountinfo: str, proc_cgroup: str) -> Hierarchy:
    """The hierarchy holding `cpu` and `memory`: v1 where both are mounted as v1 controllers, else v2 where
    its root offers both. ContainerError says what is missing."""
    found = mounts(mountinfo)
    paths = own_paths(proc_cgroup)
    v1 = {c: m for m in found if m.version == V1 for c in m.controllers}
    if all(c in v1 for c in NEEDED):
        own = {c: _below(m, paths.get(c, "/")) for c, m in v1.items()}
        return Hierarchy(V1, own)
    for m in found:
        if m.version == V2 and all(c in m.controllers for c in NEEDED):
            here = _below(m, paths.get("", "/"))
            return Hierarchy(V2, dict.fromkeys((*NEEDED, "cpuset"), here))
    v2 = [m for m in found if m.version == V2]
    said = (
        f"the cgroup2 mount at {v2[0].point} offers {', '.join(sorted(v2[0].controllers)) or 'no controller'}"
        if v2
        else "no cgroup2 mount"
    )
    missing = [c for c in NEEDED if c not in v1]
    raise ContainerError(
        f"containers need the cpu and memory cgroup controllers: {said}, and no cgroup v1 mount has "
        f"{' or '.join(missing)} (/proc/self/mountinfo)"
    )


def this_machine() -> Hierarchy:
    """The hierarchy of this process, read from /proc."""
    try:
        mountinfo = Path("/proc/self/mountinfo").read_text()
        proc_cgroup = Path("/proc/self/cgroup").read_text()
    except OSError as e:
        raise ContainerError(
            f"containers need Linux cgroups: cannot read /proc/self ({e.strerror})"
        ) from None
    return detect(mountinfo, proc_cgroup)


def own_limits() -> dict[str, float | int | None]:
    """The CPU and memory limits of this process's own cgroup (what a JVM started here would see): `cpus`
    (quota / period), `memory_bytes`, `version`; {} where no cgroup hierarchy has the controllers."""
    try:
        h = this_machine()
    except ContainerError:
        return {}
    if h.version == V1:
        quota = _read_int(h.own["cpu"] / "cpu.cfs_quota_us")
        period = _read_int(h.own["cpu"] / "cpu.cfs_period_us")
        memory = _read_int(h.own["memory"] / "memory.limit_in_bytes")
        unlimited_memory = memory is not None and memory >= 2**62
    else:
        cpu_max = _read(h.own["cpu"] / "cpu.max").split()
        quota = int(cpu_max[0]) if cpu_max[:1] and cpu_max[0].isdigit() else None
        period = int(cpu_max[1]) if len(cpu_max) > 1 and cpu_max[1].isdigit() else None
        memory = _read_int(h.own["memory"] / "memory.max")
        unlimited_memory = False
    cpus = quota / period if quota is not None and quota > 0 and period else None
    return {"version": h.version, "cpus": cpus, "memory_bytes": None if unlimited_memory else memory}


def _read(path: Path) -> str:
    try:
        return path.read_text().strip()
    except OSError:
        return ""


def _read_int(path: Path) -> int | None:
    text = _read(path)
    return int(text) if text.lstrip("-").isdigit() else None
