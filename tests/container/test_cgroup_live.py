"""Real cgroups on this machine (cgroup v1 here; v2 where a machine has it): the limits hold as the cgroup's
own accounting measures them, a heap beyond the memory limit is killed by the kernel and counted, and no
cgroup or process is left, after a trial and after kill -9 of jvmlab mid-trial. Needs root (or a delegated
cgroup); skipped with the reason otherwise."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
import uuid
from pathlib import Path

import pytest
from tests.experiment.test_run_leaves_no_jvm import with_token

from jvmlab.advise.thresholds import CONTAINER_THROTTLED_WARNING_PERCENT as THROTTLED
from jvmlab.container import Limits, make, this_machine
from jvmlab.container.group import PREFIX
from jvmlab.container.usage import usage_from_file
from jvmlab.errors import ContainerError
from jvmlab.jdk.launch import start_supervised

ROOT = Path(__file__).resolve().parents[2]
CLASSES = ROOT / "build" / "java"


def _cgroups_here() -> str | None:
    """Why real cgroups cannot be tested here, or None."""
    if not sys.platform.startswith("linux"):
        return "cgroups are Linux's"
    try:
        make(this_machine(), "probe", Limits.of(cpus=1, memory="64m")).remove()
    except ContainerError as e:
        return str(e)
    return None


WHY_NOT = _cgroups_here()
pytestmark = [pytest.mark.jvm, pytest.mark.skipif(WHY_NOT is not None, reason=f"no cgroups: {WHY_NOT}")]


def _leftovers(pid: int) -> list[Path]:
    """Trial cgroups made by process `pid`, in any controller's folder of this machine."""
    hierarchy = this_machine()
    return [p for folder in set(hierarchy.own.values()) for p in folder.glob(f"{PREFIX}{pid}-*")]


def test_a_half_cpu_container_gives_half_a_cpu_second_per_second(tmp_path):
    group = make(this_machine(), "half", Limits.of(cpus=0.5, memory="256m"))
    # One allocating thread wants a whole CPU (and its GC more): the quota holds it to half of one.
    argv = ["java", "-XX:+UseSerialGC", "-Xmx64m", "-cp", str(CLASSES), "jvmlab.workloads.GcChurn"]
    started = start_supervised(
        [*argv, "--duration-s=5"], cgroup=group.supervision(tmp_path / "c.json"), stdout=subprocess.DEVNULL
    )
    time.sleep(1.5)  # past the JVM's start
    first, t1 = group.read(), time.monotonic()
    time.sleep(2.5)
    last, t2 = group.read(), time.monotonic()
    assert started.proc.wait(timeout=60) == 0
    assert first.cpu_s is not None and last.cpu_s is not None
    rate = (last.cpu_s - first.cpu_s) / (t2 - t1)
    # The quota is a ceiling: a quiet machine gives the group 0.49-0.50 CPU-s a second, a loaded one less
    # (0.447 seen on CI beside the other workers), so the floor only says the JVM ran and wanted more,
    # which the throttled periods say too (the share at which jvmlab warns, as in the experiment's test).
    assert 0.3 <= rate <= 0.55, rate
    assert last.throttled_percent is not None and last.throttled_percent > THROTTLED, last.throttled_percent
    kept = usage_from_file(group.version, tmp_path / "c.json")
    assert kept is not None and kept.cpu_s >= last.cpu_s and kept.oom_kills == 0
    assert not any(f.exists() for f in group.distinct)  # the supervisor removed it


def test_a_heap_beyond_the_memory_limit_is_killed_by_the_kernel_and_counted(tmp_path):
    group = make(this_machine(), "oom", Limits.of(memory="128m"))
    argv = ["java", "-Xms512m", "-Xmx512m", "-XX:+AlwaysPreTouch", "-version"]
    started = start_supervised(argv, cgroup=group.supervision(tmp_path / "c.json"), stderr=subprocess.DEVNULL)
    assert started.proc.wait(timeout=60) == -signal.SIGKILL
    kept = usage_from_file(group.version, tmp_path / "c.json")
    assert kept is not None and kept.oom_kills == 1 and kept.memory_peak_bytes == 128 * 2**20
    assert not any(f.exists() for f in group.distinct)


SPEC = """
name = "container-kill"
[workload]
command = ["{{java}}", "{{jvm_opts}}", "-Djvmlab.test.token={token}", "-cp", "{{classes}}",
           "jvmlab.workloads.GcChurn", "--duration-s=120", "--rate-mb-s=20", "--live-mb=8"]
[matrix]
jdks = ["17"]
repetitions = 1
[matrix.flags]
default = ["-Xmx64m"]
[matrix.containers]
small = {{ cpus = 0.5, memory = "256m" }}
[trial]
timeout_s = 300
[telemetry]
gc_log = false
"""


def test_kill_9_of_jvmlab_mid_trial_leaves_no_cgroup_and_no_process(tmp_path):
    token = uuid.uuid4().hex
    spec = tmp_path / "spec.toml"
    spec.write_text(SPEC.format(token=token))
    argv = [sys.executable, "-m", "jvmlab", "run", str(spec), "--db", str(tmp_path / "r.db")]
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)}
    with open(tmp_path / "jvmlab.log", "wb") as log:
        jvmlab = subprocess.Popen([*argv, "--runs", str(tmp_path / "runs")], stdout=log, stderr=log, env=env)
    try:
        deadline = time.monotonic() + 120
        while not (jvms := [p for p in with_token(token) if p.name().startswith("java")]):
            assert jvmlab.poll() is None, (tmp_path / "jvmlab.log").read_text()
            assert time.monotonic() < deadline, "no JVM after 120 s"
            time.sleep(0.1)
        assert _leftovers(jvmlab.pid), "the trial runs in no cgroup of jvmlab's"
        cgroup_of_jvm = Path(f"/proc/{jvms[0].pid}/cgroup").read_text()
        assert f"{PREFIX}{jvmlab.pid}-" in cgroup_of_jvm
        jvmlab.send_signal(signal.SIGKILL)
        jvmlab.wait()
        deadline = time.monotonic() + 15
        while (with_token(token) or _leftovers(jvmlab.pid)) and time.monotonic() < deadline:
            time.sleep(0.1)
        assert not with_token(token), "a process of the trial outlived jvmlab"
        assert not _leftovers(jvmlab.pid), "a cgroup of the trial outlived jvmlab"
    finally:
        for p in with_token(token):
            p.kill()
        jvmlab.kill()


def test_the_load_driver_runs_in_its_own_container_and_says_how_long_it_waited():
    """`jvmlab load --cpus`: the driver (a jvmlab process) in a cgroup of its own. At 0.05 CPU its 2,000
    requests/s run out of quota (about 0.09 CPU-s/s here): throttled periods, said beside the result; at 1 CPU
    none. The cgroup is gone afterwards."""
    from jvmlab import _native

    def load(cpus: str, *extra: str) -> subprocess.CompletedProcess[str]:
        argv = ["load", f"http://127.0.0.1:{server.port}/", "-r", "2000", "-d", "2s", "--cpus", cpus]
        return subprocess.run(
            [sys.executable, "-m", "jvmlab", *argv, "--memory", "512m", *extra],
            capture_output=True, text=True, timeout=60,
        )  # fmt: skip

    with _native.LocalServer() as server:
        tight = load("0.05", "--json")
        roomy = load("1", "--json")
        said = load("0.05")
    assert tight.returncode == roomy.returncode == said.returncode == 0, tight.stderr + said.stderr
    tight_doc, roomy_doc = json.loads(tight.stdout), json.loads(roomy.stdout)
    assert tight_doc["completed"] == roomy_doc["completed"] == 4000
    container = tight_doc["driver_container"]
    assert container["limits"]["cpus"] == 0.05 and container["limits"]["memory_bytes"] == 512 << 20
    usage = container["usage"]
    assert usage["periods"] >= 15 and usage["throttled_periods"] > 0 and usage["cpu_s"] > 0
    assert roomy_doc["driver_container"]["usage"]["throttled_periods"] == 0
    assert "driver container 0.05 CPU, 512 MiB" in said.stdout
    assert "the driver waited for its CPU quota" in said.stdout
    assert not [p for p in this_machine().own.values() for p in p.glob(f"{PREFIX}*-load-driver-*")]
