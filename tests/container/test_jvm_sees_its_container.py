"""What a JVM picks and sees in a container: `jvmlab jdks check --cpus --memory` and `jvmlab run --cpus
--memory` on real JVMs (JDK 17+ in 0.5 CPU and 512 MiB: Serial and a 128 MiB heap, one CPU), and the
-XshowSettings:system block read as JDKs 11 and 25 print it."""

from __future__ import annotations

import json

import pytest
from tests.container.test_cgroup_live import WHY_NOT

from jvmlab.cli.main import main
from jvmlab.jdk.container_view import container_view

LIMITED_11 = """\
Operating System Metrics:
    Provider: cgroupv1
    Effective CPU Count: 1
    CPU Period: 100000us
    CPU Quota: 50000us
    CPU Shares: -1
    List of Processors, 2 total:
    0 1
    Memory Limit: 512.00M
    Memory Soft Limit: Unlimited
    Memory & Swap Limit: 512.00M

openjdk version "11.0.13" 2021-10-19
"""
OUTSIDE_25 = """\
Operating System Metrics:
    Provider: cgroupv1
    System not containerized.
openjdk version "25.0.2" 2026-01-20 LTS
"""


def test_the_system_settings_block_is_read():
    seen = container_view(LIMITED_11)
    assert seen is not None and seen.containerized and seen.provider == "cgroupv1"
    assert (seen.effective_cpus, seen.cpu_quota_us, seen.cpu_period_us) == (1, 50000, 100000)
    assert seen.memory_limit_bytes == 512 * 2**20
    outside = container_view(OUTSIDE_25)
    assert outside is not None and not outside.containerized and outside.memory_limit_bytes is None
    assert container_view('openjdk version "17"\n') is None


@pytest.fixture(autouse=True)
def wide_console(monkeypatch):
    monkeypatch.setenv("COLUMNS", "200")


@pytest.mark.jvm
@pytest.mark.skipif(WHY_NOT is not None, reason=f"no cgroups: {WHY_NOT}")
def test_jdks_check_in_a_small_container_shows_the_ergonomic_serial_pick(capsys):
    args = ["jdks", "check", "--jdk", "21", "--cpus", "0.5", "--memory", "512m", "--flags", ""]
    assert main(args) == 0
    out = capsys.readouterr().out
    assert "in a container of 0.5 CPU, 512 MiB" in out and "it sees 1 CPU, 512 MiB" in out
    assert main([*args, "--json"]) == 0
    (check,) = json.loads(capsys.readouterr().out)["checks"]
    assert check["ergonomics"]["collector"] == "Serial"
    assert check["ergonomics"]["max_heap_size_bytes"] == 128 * 2**20
    assert check["container"]["effective_cpus"] == 1 and check["limits"]["memory_bytes"] == 512 * 2**20
    # outside any container the same JVM picks G1 on this 2-CPU machine
    assert main(["jdks", "check", "--jdk", "21", "--flags", "", "--json"]) == 0
    (free,) = json.loads(capsys.readouterr().out)["checks"]
    assert free["container"] is None and free["limits"] is None


@pytest.mark.jvm
@pytest.mark.skipif(WHY_NOT is not None, reason=f"no cgroups: {WHY_NOT}")
def test_run_in_a_container_given_on_the_command_line(tmp_path, capsys):
    spec = tmp_path / "spec.toml"
    spec.write_text(
        'name = "one-off"\n[workload]\ncommand = ["{java}", "{jvm_opts}", "-cp", "{classes}", '
        '"jvmlab.workloads.GcChurn", "--duration-s=1"]\n[matrix]\njdks = ["21"]\nrepetitions = 1\n'
    )
    args = ["run", str(spec), "--db", str(tmp_path / "r.db"), "--dry-run", "--cpus", "1", "--memory", "1g"]
    assert main(args) == 0
    out = capsys.readouterr().out
    assert "/default/1cpu-1g" in out and "1 CPU, 1 GiB" in out and "1 CPU of a 1 GiB container" in out
    assert main([*args[:-2], "--memory", "lots"]) == 2
    assert "memory 'lots': not a size" in capsys.readouterr().err
