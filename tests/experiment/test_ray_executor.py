"""Trials on a real Ray cluster of two nodes on this machine (head and worker, each with `jvmlab_trial: 1`,
both on 127.0.0.1 only): `jvmlab run --executor ray --address ...` runs trials on both nodes and ships their
folders back; a node killed under a trial costs a rerun on the other node, recorded as a loss; SIGTERM to the
driver leaves no JVM; and no Ray process outlives the module."""

from __future__ import annotations

import signal
import sqlite3
import subprocess
import sys
import threading
import time
import tomllib
import uuid
from pathlib import Path

import psutil
import pytest
import ray.cluster_utils as ray_cluster_utils  # a dev dependency: missing fails, never skips
from ray._private import ray_constants

from jvmlab.cli.main import main
from jvmlab.experiment.execution import jdks, ray_executor
from jvmlab.experiment.execution.executor import TrialJob
from jvmlab.experiment.execution.ray_executor import RayExecutor
from jvmlab.experiment.execution.trial import TrialSetup
from jvmlab.experiment.spec import parse_spec
from jvmlab.experiment.storage import OK, PENDING, Store

pytestmark = [
    pytest.mark.jvm,
    pytest.mark.ray,
    pytest.mark.xdist_group("ray-cluster"),
]  # one cluster at a time

LOOPBACK = "127.0.0.1"
NODE = {
    "num_cpus": 1,
    "resources": {"jvmlab_trial": 1},
    "object_store_memory": 80 * 1024 * 1024,
    "node_ip_address": LOOPBACK,
}
# A dead node is noticed within about a second (Ray's default: 3 s x 5 heartbeats).
HEAD = {
    **NODE,
    "include_dashboard": False,
    "_system_config": {"health_check_period_ms": 300, "health_check_failure_threshold": 3},
}


WORKLOAD = "jvmlab.workloads.GcChurn"


# A start script that does not exec java: the parent-death signal reaches it, not the JVM.
START_SCRIPT = '"sh", "-c", "\\"$@\\" & wait", "sh", '


def spec_text(
    mark: str, duration_s: int, flag_sets: dict[str, str], repetitions: int, script: bool = False
) -> str:
    flags = ", ".join(f'{name} = ["{flag}", "-Djvmlab.test={mark}"]' for name, flag in flag_sets.items())
    launcher = START_SCRIPT if script else ""
    return f"""
name = "ray-churn"
[workload]
command = [{launcher}"{{java}}", "{{jvm_opts}}", "-cp", "{{classes}}", "{WORKLOAD}",
           "--duration-s={duration_s}", "--rate-mb-s=100"]
ready = {{ log = "t_s=1 ", timeout_s = 30 }}
[matrix]
jdks = ["21"]
repetitions = {repetitions}
flags = {{ {flags} }}
[trial]
timeout_s = 60
[telemetry]
sample_interval_s = 0.5
"""


def jvms(mark: str) -> list[psutil.Process]:
    """The running trial JVMs of one test (the workload, with the test's mark; not the flag checks, nor the
    supervisor or a start script, whose command lines hold the JVM's)."""
    out = []
    for p in psutil.process_iter(["name", "cmdline", "status"]):
        cmd = p.info["cmdline"] or []
        running = p.info["status"] != psutil.STATUS_ZOMBIE and (p.info["name"] or "").startswith("java")
        if running and f"-Djvmlab.test={mark}" in cmd and WORKLOAD in cmd:
            out.append(p)
    return out


def no_jvm_left(mark: str, within_s: float = 10.0) -> bool:
    deadline = time.monotonic() + within_s
    while jvms(mark) and time.monotonic() < deadline:
        time.sleep(0.2)
    return not jvms(mark)


def ray_processes(session: str) -> list[psutil.Process]:
    """The cluster's processes (GCS, raylets, agents, workers: each is told its session)."""
    found = []
    for p in psutil.process_iter(["cmdline", "status"]):
        if session in " ".join(p.info["cmdline"] or []) and p.info["status"] != psutil.STATUS_ZOMBIE:
            found.append(p)
    return found


@pytest.fixture(scope="module")
def cluster():
    # Ray reads a loopback address as "this machine" and puts the machine's network address in its place
    # (services.resolve_ip_for_localhost): nodes would register there, and a driver's ray.init of
    # 127.0.0.1:PORT would wait for minutes for a GCS at NETWORK_ADDRESS:PORT. Its single-machine mode (meant
    # for Windows and macOS) keeps 127.0.0.1: asked for here (this process read the variable when it imported
    # Ray) and for every process started from here (the nodes, and `jvmlab run` as a driver).
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv(ray_constants.ENABLE_RAY_CLUSTERS_ENV_VAR, "0")
        mp.setattr(ray_constants, "ENABLE_RAY_CLUSTER", False)
        c = ray_cluster_utils.Cluster(initialize_head=True, head_node_args=HEAD)
        c.add_node(**NODE)
        session = c.head_node.session_name
        assert any("raylet" in " ".join(p.info["cmdline"]) for p in ray_processes(session))
        try:
            yield c
        finally:
            import ray

            ray.shutdown()
            c.shutdown()
            deadline = time.monotonic() + 10
            while ray_processes(session) and time.monotonic() < deadline:
                time.sleep(0.2)
            left = [" ".join(p.info["cmdline"])[:80] for p in ray_processes(session)]
            assert not left, f"processes of the test's Ray cluster still run: {left}"


def test_the_cluster_is_on_loopback_only(cluster):
    assert cluster.address.partition(":")[0] == LOOPBACK
    assert {n.node_ip_address for n in cluster.list_all_nodes()} == {LOOPBACK}
    pids = {p.pid for p in ray_processes(cluster.head_node.session_name)}
    listening = {
        (c.pid, c.laddr.ip.removeprefix("::ffff:"), c.laddr.port)  # an IPv6 socket bound to 127.0.0.1
        for c in psutil.net_connections("inet")
        if c.pid in pids and c.status == psutil.CONN_LISTEN
    }
    assert listening and {ip for _, ip, _ in listening} == {LOOPBACK}, listening


def run(tmp_path: Path, cluster, text: str) -> tuple[int, Path]:
    spec, db = tmp_path / "ray.toml", tmp_path / "r.db"
    spec.write_text(text)
    argv = ["run", str(spec), "--db", str(db), "--runs", str(tmp_path / "runs")]
    return main([*argv, "--executor", "ray", "--address", cluster.address]), db


def test_trials_run_on_both_nodes_and_their_files_come_back(tmp_path, cluster, capsys):
    mark = uuid.uuid4().hex[:12]
    code, db = run(
        tmp_path, cluster, spec_text(mark, 3, {"serial": "-XX:+UseSerialGC", "par": "-XX:+UseParallelGC"}, 2)
    )
    out = capsys.readouterr().out
    assert code == 0, out

    store = Store.open(str(db))
    trials = store.trials(store.latest_experiment().id)
    assert [t.state for t in trials] == [OK] * 4, [(t.key, t.reason) for t in trials]
    nodes = {n.node_id for n in cluster.list_all_nodes()}
    assert {t.node.partition("@")[0] for t in trials} == nodes  # both nodes ran trials
    for node in nodes:  # never two trials on one node at once (the jvmlab_trial resource)
        runs = sorted((t.started_at, t.ended_at) for t in trials if t.node.startswith(node))
        assert all(b[0] >= a[1] - 0.05 for a, b in zip(runs, runs[1:], strict=False)), runs
    for t in trials:
        artifacts = store.artifacts(t.id)
        assert Path(artifacts["stdout"]).parent == Path(t.run_dir), artifacts  # in the driver's folder
        assert "t_s=1 " in Path(artifacts["stdout"]).read_text()
        assert Path(artifacts["gc_log"]).stat().st_size > 0
        assert all(str(tmp_path) in a for a in t.argv if "gc.log" in a), t.argv  # the paths moved here
        assert not t.lost
    store.close()
    assert " on " in out and "@" in out  # each trial's line names its node
    assert no_jvm_left(mark)


def test_a_cluster_without_the_resource_fails_at_once_saying_how_to_start_nodes(
    tmp_path, cluster, capsys, monkeypatch
):
    monkeypatch.setattr(ray_executor, "RESOURCE", "jvmlab_trial_nowhere")
    code, db = run(tmp_path, cluster, spec_text("none", 3, {"serial": "-XX:+UseSerialGC"}, 1))
    err = capsys.readouterr().err.strip()
    assert code == 2 and "no live node of the Ray cluster has the resource jvmlab_trial_nowhere" in err
    assert "ray start" in err and len(err.splitlines()) == 1, err
    assert not db.exists()  # nothing stored


def test_sigterm_to_the_driver_cancels_its_trials_and_their_jvms(tmp_path, cluster):
    mark = uuid.uuid4().hex[:12]
    spec, db = tmp_path / "ray.toml", tmp_path / "r.db"
    spec.write_text(spec_text(mark, 60, {"serial": "-XX:+UseSerialGC"}, 2))
    argv = [
        sys.executable,
        "-m",
        "jvmlab",
        "run",
        str(spec),
        "--db",
        str(db),
        "--runs",
        str(tmp_path / "runs"),
    ]
    driver = subprocess.Popen(
        [*argv, "--executor", "ray", "--address", cluster.address],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
    )
    try:
        deadline = time.monotonic() + 60
        while len(jvms(mark)) < 2 and time.monotonic() < deadline and driver.poll() is None:
            time.sleep(0.2)
        assert len(jvms(mark)) == 2, driver.stderr.read().decode() if driver.poll() is not None else "no JVMs"
        driver.send_signal(signal.SIGTERM)
        assert driver.wait(timeout=30) != 0
    finally:
        if driver.poll() is None:
            driver.kill()
    assert no_jvm_left(mark)
    with sqlite3.connect(db) as conn:
        states = [s for (s,) in conn.execute("select state from jvmlab_trials")]
        (status,) = conn.execute("select status from experiments").fetchone()
    assert states == [PENDING, PENDING] and status == "interrupted"  # both run again on --resume


@pytest.mark.parametrize("script", [False, True], ids=["java", "start script"])
def test_cancel_ends_the_tasks_and_their_jvms_while_connected(tmp_path, cluster, script):
    mark = uuid.uuid4().hex[:12]
    spec = parse_spec(tomllib.loads(spec_text(mark, 60, {"serial": "-XX:+UseSerialGC"}, 1, script)))
    (jdk,) = jdks.resolve(spec.matrix.jdks)
    setup = TrialSetup(
        trial_id="t#1",
        java=jdk.java,
        jdk_home=jdk.home,
        jdk_major=jdk.major,
        jdk_vm=jdk.vm,
        flags=("-XX:+UseSerialGC", f"-Djvmlab.test={mark}"),
        run_dir=tmp_path / "001-t-1",
        classes=jdks.classes_for(spec),
    )
    executor = RayExecutor(cluster.address)
    executor.open()
    try:
        assert executor.capacity() == 2
        for i in range(2):
            executor.submit(TrialJob(i, spec, setup, jdk.name))
        deadline = time.monotonic() + 60
        while len(jvms(mark)) < 2 and time.monotonic() < deadline:
            time.sleep(0.2)
        assert len(jvms(mark)) == 2
        executor.cancel()
        assert no_jvm_left(mark, within_s=5)  # still connected: the cancel did it, not the end of the job
    finally:
        executor.close()


def test_a_node_killed_under_a_trial_costs_a_rerun_on_the_other(tmp_path, cluster, capsys):
    """Last in the module: it takes the worker node away."""
    mark = uuid.uuid4().hex[:12]
    worker = next(n for n in cluster.list_all_nodes() if n is not cluster.head_node)
    killed: list[str] = []
    run_over = threading.Event()

    def kill_the_worker_mid_trial() -> None:
        # Both nodes run a trial of 7 s: a wide window, as listing processes is slow on a loaded machine.
        while len(jvms(mark)) < 2 and not run_over.is_set():
            time.sleep(0.1)
        if run_over.wait(1.0):
            return  # the trials ended first: the assertion below says so; the cluster is left alone
        killed.append(worker.node_id)
        cluster.remove_node(worker, allow_graceful=False)

    killer = threading.Thread(target=kill_the_worker_mid_trial, daemon=True)
    killer.start()
    try:
        code, db = run(tmp_path, cluster, spec_text(mark, 7, {"serial": "-XX:+UseSerialGC"}, 2))
    finally:
        run_over.set()
        killer.join(timeout=30)
    out = capsys.readouterr().out
    assert code == 0 and killed, out

    store = Store.open(str(db))
    trials = store.trials(store.latest_experiment().id)
    store.close()
    assert [t.state for t in trials] == [OK, OK], [(t.key, t.reason) for t in trials]
    (rerun,) = [t for t in trials if t.lost]
    assert [loss["node"].partition("@")[0] for loss in rerun.lost] == killed, rerun.lost
    assert rerun.lost[0]["reason"] and rerun.lost[0]["at"] <= rerun.started_at  # then it ran again
    assert rerun.node.partition("@")[0] == cluster.head_node.node_id and rerun.attempts == 2
    assert f"lost {rerun.key} on {killed[0][:12]}" in " ".join(out.split())
    assert no_jvm_left(mark)  # the killed node's JVM died with its Ray worker


def test_tune_measures_a_candidate_per_node_at_once(tmp_path, cluster, capsys):
    """`jvmlab tune --executor ray`: candidates measured in batches as wide as the cluster (two nodes)."""
    if not cluster.worker_nodes:  # the node-loss test took the worker away
        cluster.add_node(**NODE)
        cluster.wait_for_nodes()
    mark = uuid.uuid4().hex[:12]
    text = f"""
name = "ray-tune-{mark}"
[workload]
command = ["{{java}}", "{{jvm_opts}}", "-Djvmlab.test={mark}", "-cp", "{{classes}}", "{WORKLOAD}",
           "--duration-s=3", "--rate-mb-s=100"]
ready = {{ log = "t_s=1 ", timeout_s = 30 }}
metric = {{ name = "mb_per_s", regex = "rate_mb_s=(?P<value>[0-9.]+)" }}
[matrix]
jdks = ["21"]
[trial]
timeout_s = 60
[tune]
objectives = [{{ measure = "mb_per_s" }}]
builtin = false
promising_repetitions = 1
budget = {{ trials = 4 }}
[tune.params.heap]
choices = ["-Xmx64m", "-Xmx128m", "-Xmx256m", "-Xmx512m"]
"""
    spec, db = tmp_path / "tune.toml", tmp_path / "r.db"
    spec.write_text(text)
    argv = ["tune", str(spec), "--db", str(db), "--runs", str(tmp_path / "runs"), "--no-confirm"]
    assert main([*argv, "--executor", "ray", "--address", cluster.address]) == 0, capsys.readouterr().out
    store = Store.open(str(db))
    try:
        exp = store.experiment(f"ray-tune-{mark}")
        assert exp is not None
        trials = store.trials(exp.id)
    finally:
        store.close()
    assert len(trials) == 4 and all(t.state == OK for t in trials)
    assert len({t.node for t in trials}) == 2  # both nodes measured
    starts = sorted(t.started_at for t in trials)
    ends = sorted(t.ended_at for t in trials)
    assert starts[1] < ends[0]  # the first two candidates ran at the same time
    assert no_jvm_left(mark)
