"""A trial's cgroup on cgroup v2, against a faked cgroupfs tree: this machine's cpu and memory controllers
are bound to its cgroup v1 hierarchies (a controller serves one hierarchy at a time, so the cgroup2 mount at
/sys/fs/cgroup/unified offers only hugetlb), and a nested cgroup2 mount in a private namespace shares that
binding; the real v1 group is tested in test_cgroup_live.py."""

from __future__ import annotations

import errno
from pathlib import Path

import pytest

from jvmlab.container import group
from jvmlab.container.group import make
from jvmlab.container.hierarchy import V2, Hierarchy
from jvmlab.container.limits import Limits
from jvmlab.errors import ContainerError


def _tree(tmp_path):
    (tmp_path / "cgroup.controllers").write_text("cpuset cpu io memory pids\n")
    (tmp_path / "cgroup.subtree_control").write_text("\n")
    (tmp_path / "cpuset.cpus.effective").write_text("0-3\n")
    return Hierarchy(V2, dict.fromkeys(("cpu", "memory", "cpuset"), tmp_path))


def test_limits_are_written_as_v2_has_them(tmp_path):
    group = make(_tree(tmp_path), "exp/default#1", Limits.of(cpus=0.5, memory="512m", cpuset=[0, 1]))
    (folder,) = group.distinct
    assert folder.parent == tmp_path and folder.name.startswith("jvmlab-") and "exp_default_1" in folder.name
    assert (tmp_path / "cgroup.subtree_control").read_text() == "+cpu +memory +cpuset"
    assert (folder / "cpu.max").read_text() == "50000 100000"
    assert (folder / "memory.max").read_text() == str(512 * 2**20)
    assert (folder / "cpuset.cpus").read_text() == "0-1"
    assert group.join_files == [str(folder / "cgroup.procs")]
    assert {p.split("/")[-1] for p in group.stat_files} >= {"cpu.stat", "memory.peak", "memory.events"}
    supervision = group.supervision(tmp_path / "counters.json")
    assert supervision["remove"] == [str(folder)] and supervision["stats_to"] == str(
        tmp_path / "counters.json"
    )


def test_a_limit_the_kernel_refuses_is_one_line_and_leaves_no_folder(tmp_path, monkeypatch):
    hierarchy = _tree(tmp_path)
    real = Path.write_text

    def refuse(path, text, *args, **kwargs):
        if path.name == "memory.max":
            raise OSError(errno.EINVAL, "Invalid argument")
        return real(path, text, *args, **kwargs)

    monkeypatch.setattr(Path, "write_text", refuse)
    removed = []
    monkeypatch.setattr(group, "remove_folders", lambda folders: removed.extend(folders))
    with pytest.raises(ContainerError) as e:
        make(hierarchy, "t", Limits.of(cpus=1, memory="64m"))
    assert "memory: the kernel refused '67108864'" in str(e.value) and "\n" not in str(e.value)
    # the folder made is removed again (a real cgroupfs folder goes with its files: test_cgroup_live.py)
    assert removed == [str(p) for p in tmp_path.iterdir() if p.is_dir()] and len(removed) == 1


def test_controllers_held_by_a_cgroup_with_processes_are_explained(tmp_path, monkeypatch):
    hierarchy = _tree(tmp_path)
    real = Path.write_text

    def busy(path, text, *args, **kwargs):
        if path.name == "cgroup.subtree_control":
            raise OSError(errno.EBUSY, "Device or resource busy")
        return real(path, text, *args, **kwargs)

    monkeypatch.setattr(Path, "write_text", busy)
    with pytest.raises(ContainerError, match="holds processes itself") as e:
        make(hierarchy, "t", Limits.of(cpus=1))
    assert "Delegate=yes" in str(e.value)
    assert not [p for p in tmp_path.iterdir() if p.is_dir()]  # refused before any folder was made
