"""A trial's own cgroup: made below jvmlab's, given the limits, joined by the trial's command before it runs
(so its whole tree is inside), read while and after it runs, and removed afterwards, by jvmlab's supervisor
even when jvmlab is killed (jdk/supervisor.py).

cgroup v1 (a folder per controller): cpu.cfs_quota_us / cpu.cfs_period_us, memory.limit_in_bytes and
memory.memsw.limit_in_bytes (no swap unless asked), cpuset.cpus; cgroup v2 (one folder): cpu.max,
memory.max, memory.swap.max, cpuset.cpus.
"""

from __future__ import annotations

import contextlib
import errno
import os
import re
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import psutil

from jvmlab.container.hierarchy import V1, Hierarchy
from jvmlab.container.limits import CFS_PERIOD_US, Limits, cpu_list
from jvmlab.container.usage import STAT_FILES_V1, STAT_FILES_V2, Usage, usage_of
from jvmlab.errors import ContainerError, os_error_reason

PREFIX = "jvmlab-"
REMOVE_WAIT_S = 2.0  # a cgroup whose last process just exited can refuse rmdir (EBUSY) for a moment


@dataclass(frozen=True)
class TrialGroup:
    """A made cgroup: `folders` per controller (one folder for every controller on v2)."""

    version: int
    name: str
    limits: Limits
    folders: dict[str, Path]

    @property
    def distinct(self) -> list[Path]:
        return sorted(set(self.folders.values()))

    @property
    def join_files(self) -> list[str]:
        """The cgroup.procs files a process writes "0" into to move itself into the group."""
        return [str(folder / "cgroup.procs") for folder in self.distinct]

    @property
    def stat_files(self) -> list[str]:
        """Every file the usage is read from, as paths (their names are distinct across controllers)."""
        names = STAT_FILES_V1 if self.version == V1 else STAT_FILES_V2
        return [str(self.folders[c] / name) for c, name in names if c in self.folders]

    def read(self) -> Usage:
        """The usage so far (files gone or unreadable are left out)."""
        texts = {}
        for path in self.stat_files:
            with contextlib.suppress(OSError):
                texts[Path(path).name] = Path(path).read_text()
        return usage_of(self.version, texts)

    def remove(self) -> None:
        """Removes the group's folders (its processes must be gone); a folder already gone is fine."""
        remove_folders([str(f) for f in self.distinct])

    def supervision(self, stats_to: Path) -> dict[str, object]:
        """What jvmlab's supervisor does with the group (jdk/supervisor.py): the command joins it, and once
        its tree has ended the counters go to `stats_to` and the folders are removed."""
        return {
            "join": self.join_files,
            "stats": self.stat_files,
            "stats_to": str(stats_to),
            "remove": [str(f) for f in self.distinct],
        }

    def to_json(self) -> dict[str, object]:
        return {
            "version": self.version,
            "name": self.name,
            "limits": self.limits.to_json(),
            "folders": {c: str(f) for c, f in self.folders.items()},
        }


@contextlib.contextmanager
def this_process_in(group: TrialGroup, hierarchy: Hierarchy) -> Iterator[TrialGroup]:
    """This process, all its threads, inside `group` while the block runs (what jvmlab runs itself, e.g. the
    load driver), then back in its own cgroup and the group removed. Memory this process held before is
    charged where it was; the group counts what it takes inside."""
    pid = str(os.getpid())
    back = sorted({hierarchy.parent(c) / "cgroup.procs" for c in group.folders})
    try:
        for joined in group.join_files:
            _write(Path(joined), pid, "join the cgroup")
        yield group
    finally:
        try:
            for path in back:
                _write(path, pid, "leave the cgroup")
        finally:
            group.remove()


def remove_folders(folders: list[str], wait_s: float = REMOVE_WAIT_S) -> None:
    deadline = time.monotonic() + wait_s
    for folder in folders:
        while True:
            try:
                os.rmdir(folder)
            except FileNotFoundError:
                pass
            except OSError as e:
                if e.errno == errno.EBUSY and time.monotonic() < deadline:
                    time.sleep(0.02)
                    continue
                raise ContainerError(
                    f"cannot remove the trial's cgroup {folder}: {os_error_reason(e)}"
                ) from None
            break


_OWNED = re.compile(rf"^{PREFIX}(\d+)-")


def remove_abandoned(hierarchy: Hierarchy) -> list[Path]:
    """Removes the trial cgroups below this process's own that a jvmlab no longer running left behind (the
    pid in their name runs no more, no process is in them): a removal that failed once, e.g. a kill at the
    wrong moment. Those that cannot be removed stay, silently. The removed folders."""
    removed = []
    for parent in sorted(set(hierarchy.own.values())):
        with contextlib.suppress(OSError):
            for folder in sorted(parent.iterdir()):
                owner = _OWNED.match(folder.name)
                if (
                    owner is None
                    or not folder.is_dir()
                    or psutil.pid_exists(int(owner[1]))
                    or _holds_processes(folder)
                ):
                    continue
                with contextlib.suppress(OSError):
                    os.rmdir(folder)
                    removed.append(folder)
    return removed


def _holds_processes(folder: Path) -> bool:
    try:
        return bool((folder / "cgroup.procs").read_text().strip())
    except FileNotFoundError:
        return False
    except OSError:
        return True


def group_name(trial: str) -> str:
    """jvmlab-<pid>-<the trial's key, as a file name>-<random>: unique, and whose it was."""
    safe = re.sub(r"[^A-Za-z0-9_.-]+", "_", trial)[:80]
    # os.urandom, not secrets: importing secrets loads OpenSSL (21 ms) into every jvmlab command's start-up
    return f"{PREFIX}{os.getpid()}-{safe}-{os.urandom(3).hex()}"


def make(hierarchy: Hierarchy, trial: str, limits: Limits) -> TrialGroup:
    """Makes the cgroup of `trial` with `limits` below this process's own; ContainerError (nothing left
    behind) when the hierarchy is not writable or the kernel refuses a limit."""
    name = group_name(trial)
    wanted = _controllers(hierarchy, limits)
    folders = {c: hierarchy.parent(c) / name for c in wanted}
    group = TrialGroup(hierarchy.version, name, limits, folders)
    made: list[Path] = []
    try:
        if hierarchy.version != V1:
            _enable_v2(hierarchy.parent("cpu"), wanted)
        for folder in group.distinct:
            _mkdir(folder)
            made.append(folder)
        (_limit_v1 if hierarchy.version == V1 else _limit_v2)(group, hierarchy)
    except BaseException:
        with contextlib.suppress(ContainerError):  # what went wrong first is what the user needs to read
            remove_folders([str(f) for f in made])
        raise
    return group


def _controllers(hierarchy: Hierarchy, limits: Limits) -> list[str]:
    wanted = ["cpu", "memory"]
    if hierarchy.version == V1 and "cpuacct" in hierarchy.own:
        wanted.append("cpuacct")
    if limits.cpuset is not None:
        if "cpuset" not in hierarchy.own:
            raise ContainerError("cpuset: this machine mounts no cpuset cgroup controller")
        wanted.append("cpuset")
    return wanted


def _mkdir(folder: Path) -> None:
    try:
        folder.mkdir()
    except OSError as e:
        hint = " (containers need root, or a cgroup delegated to this user)" if e.errno in (13, 1, 30) else ""
        raise ContainerError(f"cannot make the trial's cgroup {folder}: {os_error_reason(e)}{hint}") from None


def _write(path: Path, value: str, what: str) -> None:
    try:
        path.write_text(value)
    except OSError as e:
        raise ContainerError(
            f"{what}: the kernel refused {value!r} in {path}: {os_error_reason(e)}"
        ) from None


def _limit_v1(group: TrialGroup, hierarchy: Hierarchy) -> None:
    limits, cpu, memory = group.limits, group.folders["cpu"], group.folders["memory"]
    if limits.quota_us is not None:
        _write(cpu / "cpu.cfs_period_us", str(CFS_PERIOD_US), f"cpus {limits.cpus:g}")
        _write(cpu / "cpu.cfs_quota_us", str(limits.quota_us), f"cpus {limits.cpus:g}")
    if limits.memory_bytes is not None:
        _write(memory / "memory.limit_in_bytes", str(limits.memory_bytes), "memory")
        swap = memory / "memory.memsw.limit_in_bytes"
        if swap.exists():  # swap accounting on: memory + swap together
            _write(swap, str(limits.memory_bytes + limits.swap_bytes), "swap")
        elif not limits.swap_bytes:
            _write(memory / "memory.swappiness", "0", "memory")
    if limits.cpuset is not None:
        folder = group.folders["cpuset"]
        mems = (hierarchy.parent("cpuset") / "cpuset.mems").read_text().strip()
        _write(folder / "cpuset.mems", mems, "cpuset")
        _cpuset(folder, limits, hierarchy)


def _limit_v2(group: TrialGroup, hierarchy: Hierarchy) -> None:
    limits, folder = group.limits, group.folders["cpu"]
    if limits.quota_us is not None:
        _write(folder / "cpu.max", f"{limits.quota_us} {CFS_PERIOD_US}", f"cpus {limits.cpus:g}")
    if limits.memory_bytes is not None:
        _write(folder / "memory.max", str(limits.memory_bytes), "memory")
        if (folder / "memory.swap.max").exists():
            _write(folder / "memory.swap.max", str(limits.swap_bytes), "swap")
    if limits.cpuset is not None:
        _cpuset(folder, limits, hierarchy)


def _cpuset(folder: Path, limits: Limits, hierarchy: Hierarchy) -> None:
    assert limits.cpuset is not None
    try:
        (folder / "cpuset.cpus").write_text(cpu_list(limits.cpuset))
    except OSError as e:
        here = ""
        with contextlib.suppress(OSError):
            parent = hierarchy.parent("cpuset")
            name = "cpuset.cpus.effective" if (parent / "cpuset.cpus.effective").exists() else "cpuset.cpus"
            here = f"; the CPUs here are {(parent / name).read_text().strip()}"
        raise ContainerError(f"cpuset {cpu_list(limits.cpuset)}: {os_error_reason(e)}{here}") from None


def _enable_v2(parent: Path, controllers: list[str]) -> None:
    """Turns the controllers on for the children of `parent` (cgroup.subtree_control). The kernel refuses
    when `parent` holds processes itself and is not the root (the no-internal-process rule)."""
    control = parent / "cgroup.subtree_control"
    try:
        on = set(control.read_text().split())
    except OSError as e:
        raise ContainerError(f"cannot read {control}: {os_error_reason(e)}") from None
    missing = [c for c in dict.fromkeys(controllers) if c not in on]
    if not missing:
        return
    try:
        control.write_text(" ".join(f"+{c}" for c in missing))
    except OSError as e:
        why = (
            ": it holds processes itself (cgroup v2 lets only a cgroup without processes give controllers to "
            "its children); run jvmlab in a delegated cgroup, e.g. `systemd-run --scope -p Delegate=yes`"
            if e.errno == errno.EBUSY
            else f": {os_error_reason(e)}"
        )
        raise ContainerError(f"cannot enable {', '.join(missing)} below {parent}{why}") from None
