"""`jvmlab run` with [matrix.containers] on real JVMs (GcChurn, about a second a trial): containers are a
dimension of the matrix, every trial of a limited container runs in a cgroup of its own with its counters
stored, a heap beyond the memory limit makes an `oom-killed` trial (the kernel's evidence, nothing else
lost), and results, compare and goals read the container's figures."""

from __future__ import annotations

import json

import pytest
from tests.container.test_cgroup_live import WHY_NOT

from jvmlab.advise.thresholds import CONTAINER_THROTTLED_WARNING_PERCENT as THROTTLED
from jvmlab.cli.main import main
from jvmlab.experiment.storage import OK, OOM_KILLED, Store

pytestmark = [pytest.mark.jvm, pytest.mark.skipif(WHY_NOT is not None, reason=f"no cgroups: {WHY_NOT}")]

SPEC = """
name = "containers"
[workload]
# 4 s: in half a CPU on a loaded machine the JVM answers its first attach (native memory) after seconds
command = ["{java}", "{jvm_opts}", "-cp", "{classes}", "jvmlab.workloads.GcChurn",
           "--duration-s=4", "--rate-mb-s=0", "--live-mb=16"]
[workload.metric]
name = "allocation"
regex = "rate_mb_s=(?P<value>[0-9.]+)"
unit = "MB/s"
[matrix]
jdks = ["21"]
repetitions = 1  # the cgroup's figures are per trial: one each is enough here
[matrix.flags]
default = ["-XX:NativeMemoryTracking=summary"]
pretouch = ["-Xms200m", "-XX:+AlwaysPreTouch"]
[matrix.containers]
half = { cpus = 0.5, memory = "160m" }
none = {}
[trial]
timeout_s = 60
[telemetry]
sample_interval_s = 0.25
[goals]
all = ["throttled_percent <= 1"]
"""


@pytest.fixture(autouse=True)
def wide_console(monkeypatch):
    monkeypatch.setenv("COLUMNS", "220")


def test_containers_cross_the_matrix_and_their_cgroups_are_measured(tmp_path, capsys):
    spec = tmp_path / "spec.toml"
    spec.write_text(SPEC)
    db = tmp_path / "r.db"
    code = main(["run", str(spec), "--db", str(db), "--runs", str(tmp_path / "runs")])
    out = capsys.readouterr().out
    assert code in (0, 1), out
    store = Store.open(str(db))
    trials = {
        t.variant: t for t in store.trials(store.latest_experiment("containers").id) if t.repetition == 1
    }
    store.close()
    (jdk,) = {t.jdk for t in trials.values()}
    assert set(trials) == {f"{jdk}/{fs}/{c}" for fs in ("default", "pretouch") for c in ("half", "none")}
    # 200 MiB pre-touched in 160 MiB: the kernel kills it, and says so through the cgroup
    killed = trials[f"{jdk}/pretouch/half"]
    assert killed.state == OOM_KILLED and "OOM killer" in killed.reason and "160 MiB" in killed.reason
    assert killed.cgroup["usage"]["oom_kills"] == 1
    # the same flags without a limit, and the defaults in the container, run
    unlimited = trials[f"{jdk}/pretouch/none"]
    assert unlimited.state == OK and unlimited.cgroup["usage"] is None and unlimited.cgroup["version"] is None
    half = trials[f"{jdk}/default/half"]
    assert half.state == OK and half.container == "half"
    usage = half.cgroup["usage"]
    assert half.cgroup["limits"] == {
        "cpus": 0.5,
        "memory_bytes": 160 * 2**20,
        "cpuset": None,
        "swap_bytes": 0,
    }
    # throttled in most periods on a quiet machine (76-91 % here); a loaded one gives the container less than
    # its quota, so fewer periods run out (27-36 % seen beside three test workers): above the share at which
    # jvmlab warns, which is what the figures below are for
    assert usage["throttled_percent"] > THROTTLED and 0 < usage["memory_peak_percent"] <= 100
    assert usage["cpu_s"] / half.elapsed_s < 0.6  # half a CPU at most, start-up included
    # its native memory as the JVM counts it (-XX:NativeMemoryTracking), sampled through the attach socket
    assert (
        usage["nmt_beside_heap_bytes"] > 8 * 2**20
        and usage["nmt_committed_bytes"] > usage["nmt_beside_heap_bytes"]
    )
    # the JVM's own choice in that container (checked in it before the run): Serial, half the memory as heap
    assert half.jdk_info["ergonomics"]["collector"] == "Serial"
    assert half.jdk_info["ergonomics"]["max_heap_size_bytes"] == 80 * 2**20
    seen = half.jdk_info["container"]
    assert seen["containerized"] and seen["effective_cpus"] == 1 and seen["memory_limit_bytes"] == 160 * 2**20
    assert "Serial, heap 80 MiB, 1 CPU of a 160 MiB container" in out
    assert "its trials will be oom-killed too" in out  # the pretouching variant's check in 160 MiB
    assert (tmp_path / "runs").exists() and not list((tmp_path / "runs").rglob("cgroup.json.tmp"))

    assert main(["results", "containers", "--db", str(db), "--json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert doc["containers"]["half"]["text"] == "0.5 CPU, 160 MiB"
    rows = {v["variant"]: v for v in doc["variants"]}
    assert rows[f"{jdk}/default/half"]["container"] == "half"
    assert rows[f"{jdk}/default/half"]["figures"]["throttled_percent"]["mean"] > THROTTLED
    assert rows[f"{jdk}/pretouch/half"]["states"] == {OOM_KILLED: 1}

    assert main(["results", "containers", "--db", str(db)]) == 0
    table = capsys.readouterr().out
    assert "container" in table and "thrott-" in table and "OOM killer" in table

    # the goal on the container's throttling reads the cgroup's figure; one trial gives no interval, so the
    # half-CPU variant's miss is not yet decided (tests/experiment/test_goals.py decides goals on several)
    code = main(["compare", "containers", "--db", str(db), "--format", "json"])
    doc = json.loads(capsys.readouterr().out)
    goals = {
        g["variant"]: g for b in doc["blocks"] for g in b["verdicts"] if g["measure"] == "throttled_percent"
    }
    half_goal = goals[f"{jdk}/default/half"]
    assert half_goal["verdict"] == "inconclusive" and half_goal["value"] > THROTTLED, half_goal
    assert goals[f"{jdk}/default/none"]["verdict"] == "no data"  # no container, no throttling to judge
    assert code == 0  # compare shows; `jvmlab gate` turns a failed goal into an exit code

    # the report: a containers section with the JVM's picks, the cgroup's figures and throttling beside pauses
    html_path = tmp_path / "report.html"
    assert main(["report", "containers", "--db", str(db), "-o", str(html_path)]) == 0
    capsys.readouterr()
    html = html_path.read_text()
    assert 'id="containers"' in html and "throttling-v1" in html and "CPU throttling beside GC pauses" in html
    assert "Serial, heap 80 MiB, 1 CPU of a 160 MiB container" in html and "1 of 1" in html  # OOM-killed

    # advice reads the container: throttled beyond the warning share; Serial picked in 160 MiB, said with it
    assert main(["advise", "containers", "--db", str(db), "--json", "--no-check"]) == 0
    advices = {a["name"]: a for a in json.loads(capsys.readouterr().out)["inputs"]}
    found = {f["id"]: f for f in advices[f"{jdk}/default/half"]["findings"]}
    assert found["container-cpu-throttled"]["evidence"]["figures"]["throttled_percent"] > THROTTLED
    assert found["serial-by-ergonomics"]["evidence"]["figures"]["memory_bytes"] == 160 * 2**20
    assert not any(f["id"].startswith("container-") for f in advices[f"{jdk}/default/none"]["findings"])


def test_without_a_writable_cgroup_hierarchy_one_line_before_any_trial(tmp_path, capsys, monkeypatch):
    # as for a user who is not root: the hierarchy is there, its folders cannot be made
    from jvmlab.container.hierarchy import V1, Hierarchy
    from jvmlab.experiment.execution import containers

    absent = tmp_path / "not-mounted"
    fake = Hierarchy(V1, {c: absent / c for c in ("cpu", "cpuacct", "memory")})
    monkeypatch.setattr(containers, "this_machine", lambda: fake)
    spec = tmp_path / "spec.toml"
    spec.write_text(SPEC)
    db = tmp_path / "r.db"
    assert main(["run", str(spec), "--db", str(db), "--runs", str(tmp_path / "runs")]) == 2
    err = capsys.readouterr().err.strip()
    assert err.startswith("error: container half (0.5 CPU, 160 MiB): cannot make the trial's cgroup"), err
    assert len(err.splitlines()) == 1
    assert not (tmp_path / "runs").exists()
