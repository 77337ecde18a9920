"""Trial cgroups that an earlier jvmlab left behind (killed between a trial's end and its cgroup's removal)
are removed at the next run with containers: only those whose jvmlab runs no more and that hold no process;
another tool's cgroups and a running jvmlab's stay. On folders standing in for a cgroup hierarchy."""

from __future__ import annotations

import os
import subprocess
import sys

from jvmlab.container.group import remove_abandoned
from jvmlab.container.hierarchy import V1, Hierarchy


def a_gone_pid() -> int:
    child = subprocess.Popen([sys.executable, "-c", "pass"])
    child.wait()
    return child.pid


def test_only_the_groups_of_a_jvmlab_that_is_gone_and_that_hold_no_process_are_removed(tmp_path):
    cpu, memory = tmp_path / "cpu", tmp_path / "memory"
    gone = a_gone_pid()
    folders = {
        "abandoned": cpu / f"jvmlab-{gone}-openjdk-21_default_1-a1b2c3",
        "abandoned memory": memory / f"jvmlab-{gone}-openjdk-21_default_1-a1b2c3",
        "a running jvmlab's": cpu / f"jvmlab-{os.getpid()}-openjdk-21_default_2-d4e5f6",
        "another tool's": cpu / "docker-1234",
        "still holding a process": memory / f"jvmlab-{gone}-openjdk-21_default_3-0a0b0c",
    }
    for folder in folders.values():
        folder.mkdir(parents=True)
    (folders["still holding a process"] / "cgroup.procs").write_text(f"{os.getpid()}\n")
    hierarchy = Hierarchy(V1, {"cpu": cpu, "cpuacct": cpu, "memory": memory})

    removed = remove_abandoned(hierarchy)

    assert sorted(removed) == sorted([folders["abandoned"], folders["abandoned memory"]])
    left = {name for name, folder in folders.items() if folder.exists()}
    assert left == {"a running jvmlab's", "another tool's", "still holding a process"}
    assert remove_abandoned(hierarchy) == []  # nothing more to do
