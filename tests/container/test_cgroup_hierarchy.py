"""Finding the cgroup hierarchy with the cpu and memory controllers from /proc/self/mountinfo and
/proc/self/cgroup: this machine's hybrid layout (cgroup v1 controllers, a cgroup2 mount with hugetlb only,
copied from it), a cgroup v2-only machine (a faked cgroupfs tree), and the line said when neither has them."""

from __future__ import annotations

from pathlib import Path

import pytest

from jvmlab.container.hierarchy import V1, V2, detect, mounts, own_paths
from jvmlab.errors import ContainerError

# This machine (Linux 6.18, cgroup v1 controllers mounted one per hierarchy; the memory cgroup of this
# process below /process_api/..., the others at the root).
HYBRID_MOUNTINFO = """\
31 23 0:28 / /sys/fs/cgroup rw,relatime - tmpfs tmpfs rw,mode=755
32 31 0:29 / /sys/fs/cgroup/cpu rw,relatime - cgroup cgroup rw,cpu
33 31 0:30 / /sys/fs/cgroup/cpuacct rw,relatime - cgroup cgroup rw,cpuacct
34 31 0:31 / /sys/fs/cgroup/cpuset rw,relatime - cgroup cgroup rw,cpuset
35 31 0:32 / /sys/fs/cgroup/memory rw,relatime - cgroup cgroup rw,memory
36 31 0:33 / /sys/fs/cgroup/devices rw,relatime - cgroup cgroup rw,devices
40 31 0:37 / /sys/fs/cgroup/systemd rw,relatime - cgroup cgroup rw,name=systemd
41 31 0:38 / /sys/fs/cgroup/unified rw,relatime - cgroup2 cgroup2 rw
"""
HYBRID_CGROUP = """\
9:name=systemd:/
5:devices:/
4:memory:/process_api/8c2e1a2e
3:cpuset:/
2:cpuacct:/
1:cpu:/
0::/
"""


def test_this_machines_hybrid_layout_is_cgroup_v1():
    found = detect(HYBRID_MOUNTINFO, HYBRID_CGROUP)
    assert found.version == V1
    assert found.own["cpu"] == Path("/sys/fs/cgroup/cpu")
    assert found.own["memory"] == Path("/sys/fs/cgroup/memory/process_api/8c2e1a2e")
    assert set(found.own) == {"cpu", "cpuacct", "cpuset", "memory"}


def test_co_mounted_controllers_and_a_namespaced_root():
    # Docker's layout: cpu and cpuacct in one hierarchy, the container's own cgroup as the mount root
    mountinfo = (
        "100 90 0:40 /docker/abc /sys/fs/cgroup/cpu,cpuacct ro,nosuid - cgroup cgroup rw,cpu,cpuacct\n"
        "101 90 0:41 /docker/abc /sys/fs/cgroup/memory ro,nosuid - cgroup cgroup rw,memory\n"
    )
    found = detect(mountinfo, "4:memory:/docker/abc\n3:cpu,cpuacct:/docker/abc\n")
    assert found.own["cpu"] == found.own["cpuacct"] == Path("/sys/fs/cgroup/cpu,cpuacct")
    assert found.own["memory"] == Path("/sys/fs/cgroup/memory")
    assert own_paths("3:cpu,cpuacct:/a\n0::/b\n") == {"cpu": "/a", "cpuacct": "/a", "": "/b"}


def test_a_v2_machine_is_read_from_its_controllers(tmp_path):
    (tmp_path / "cgroup.controllers").write_text("cpuset cpu io memory hugetlb pids\n")
    (tmp_path / "user.slice").mkdir()
    mountinfo = f"30 23 0:26 / {tmp_path} rw,nosuid,nodev,noexec,relatime shared:4 - cgroup2 cgroup2 rw\n"
    found = detect(mountinfo, "0::/user.slice\n")
    assert found.version == V2
    assert found.own["cpu"] == found.own["memory"] == tmp_path / "user.slice"


def test_without_the_controllers_one_line_says_what_there_is(tmp_path):
    (tmp_path / "cgroup.controllers").write_text("hugetlb\n")
    mountinfo = f"41 31 0:38 / {tmp_path} rw,relatime - cgroup2 cgroup2 rw\n"
    with pytest.raises(ContainerError) as e:
        detect(mountinfo, "0::/\n")
    message = str(e.value)
    assert "offers hugetlb" in message and "no cgroup v1 mount has cpu or memory" in message
    assert "\n" not in message


def test_escaped_mount_points_are_read_back():
    found = mounts("32 31 0:29 / /sys/fs/my\\040cgroup/cpu rw - cgroup cgroup rw,cpu\n")
    assert found[0].point == Path("/sys/fs/my cgroup/cpu")


def test_this_process_limits_are_read_from_its_own_cgroup():
    # what `host.machine()` records with every experiment: this machine's, whatever they are
    from jvmlab.container.hierarchy import own_limits
    from jvmlab.host import machine

    limits = own_limits()
    assert machine()["cgroup"] == limits
    if limits:
        assert limits["version"] in (V1, V2)
        assert limits["cpus"] is None or limits["cpus"] > 0
        assert limits["memory_bytes"] is None or limits["memory_bytes"] > 0
