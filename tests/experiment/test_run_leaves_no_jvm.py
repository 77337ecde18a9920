"""No process of a trial outlives `jvmlab run`, however its start script starts the JVM (without exec, in the
background, as a setsid daemon) and however the run ends: kill -9 of jvmlab, Ctrl-C, the trial's timeout.
Real runs of real JVMs (GcChurn), jvmlab as a separate process."""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import sys
import time
import uuid
from pathlib import Path

import psutil
import pytest
from tests.machine_jdks import one_jdk

pytestmark = [
    pytest.mark.jvm,
    pytest.mark.skipif(not sys.platform.startswith("linux"), reason="the supervisor is Linux's"),
]

# Start scripts that do not exec java, as most server start scripts: "$@" is java and its arguments.
DAEMON = '(setsid "$@" &)\nsleep 600\n'  # the subshell exits: the JVM loses its parent
# Three JVMs in one trial, one for each way (in the background, a setsid daemon, not the last command), told
# apart by GcChurn's --seed at the end of their command lines: one jvmlab to kill -9 instead of three.
EVERY_WAY = '"$@" --seed=1 &\n(setsid "$@" --seed=2 &)\n"$@" --seed=3\necho "the JVM exited"\n'

SPEC = """
name = "tree"
[workload]
command = ["sh", "{{spec_dir}}/start.sh", "{{java}}", "{{jvm_opts}}", "-Djvmlab.test.token={token}",
           "-cp", "{{classes}}", "jvmlab.workloads.GcChurn", "--duration-s=120", "--rate-mb-s=20",
           "--live-mb=8"]
[matrix]
jdks = ["{jdk}"]
repetitions = 1
[matrix.flags]
default = ["-Xmx64m", "-XX:TieredStopAtLevel=1"]  # C1 only: the JVM is there to be ended, not to be fast
[trial]
timeout_s = {timeout_s}
[telemetry]
gc_log = false
"""


def start_run(tmp_path: Path, script: str, timeout_s: float = 300) -> tuple[subprocess.Popen[bytes], str]:
    """`jvmlab run` of a spec whose workload is the start script; (jvmlab, the token on the JVM's line)."""
    token = uuid.uuid4().hex
    (tmp_path / "start.sh").write_text("#!/bin/sh\n" + script)
    spec = tmp_path / "spec.toml"
    spec.write_text(SPEC.format(token=token, timeout_s=timeout_s, jdk=one_jdk("17").name))
    argv = [sys.executable, "-m", "jvmlab", "run", str(spec), "--db", str(tmp_path / "results.db")]
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)}
    log = open(tmp_path / "jvmlab.log", "wb")  # noqa: SIM115 - the child writes it, closed with the test
    return subprocess.Popen([*argv, "--runs", str(tmp_path / "runs")], stdout=log, stderr=log, env=env), token


def with_token(token: str) -> list[psutil.Process]:
    found = []
    for p in psutil.process_iter(["cmdline", "status"]):
        if any(token in arg for arg in p.info["cmdline"] or ()) and p.info["status"] != psutil.STATUS_ZOMBIE:
            found.append(p)
    return found


def trial_tree(
    jvmlab: subprocess.Popen[bytes], token: str, tmp_path: Path, count: int = 1
) -> list[psutil.Process]:
    """Once the trial's `count` JVMs run: every process of the trial (the supervisor, the script, the JVMs,
    and the JVMs even where they left jvmlab's tree)."""
    deadline = time.monotonic() + 120
    while len(jvms := [p for p in with_token(token) if p.name().startswith("java")]) < count:
        log = (tmp_path / "jvmlab.log").read_text(errors="replace")
        assert jvmlab.poll() is None, f"jvmlab ended before the JVM started:\n{log}"
        assert time.monotonic() < deadline, f"no JVM after 120 s:\n{log}"
        time.sleep(0.1)
    time.sleep(0.5)  # the JVM's start script has had its time to background or daemonize it
    top = next((p for p in [jvms[0], *jvms[0].parents()] if p.ppid() == jvmlab.pid), None)
    below = [top, *top.children(recursive=True)] if top is not None else []
    return below + [p for p in jvms if p not in below]


def assert_all_gone(procs: list[psutil.Process], token: str, timeout_s: float) -> None:
    _, alive = psutil.wait_procs(procs, timeout=timeout_s)
    alive = [p for p in alive if p.status() != psutil.STATUS_ZOMBIE]
    left = {p.pid: " ".join(p.cmdline())[-100:] for p in [*alive, *with_token(token)]}  # the --seed in it
    assert not left, f"outlived jvmlab: {left}"


def kill_all(procs: list[psutil.Process], token: str) -> None:
    for p in [*procs, *with_token(token)]:
        with contextlib.suppress(psutil.NoSuchProcess):
            p.kill()


def test_kill_9_of_jvmlab_ends_every_process_of_the_trial(tmp_path):
    jvmlab, token = start_run(tmp_path, EVERY_WAY)
    procs: list[psutil.Process] = []
    try:
        procs = trial_tree(jvmlab, token, tmp_path, count=3)
        jvmlab.kill()
        jvmlab.wait()
        assert_all_gone(procs, token, timeout_s=5)
    finally:
        jvmlab.kill()
        jvmlab.wait()
        kill_all(procs, token)


def test_ctrl_c_of_jvmlab_ends_a_setsid_daemon_jvm(tmp_path):
    jvmlab, token = start_run(tmp_path, DAEMON)
    procs: list[psutil.Process] = []
    try:
        procs = trial_tree(jvmlab, token, tmp_path)
        jvmlab.send_signal(signal.SIGINT)
        jvmlab.wait(timeout=60)
        assert_all_gone(procs, token, timeout_s=1)  # jvmlab ended them before it exited
    finally:
        jvmlab.kill()
        jvmlab.wait()
        kill_all(procs, token)


def test_the_trial_timeout_ends_a_setsid_daemon_jvm(tmp_path):
    jvmlab, token = start_run(tmp_path, DAEMON, timeout_s=5)
    procs: list[psutil.Process] = []
    try:
        procs = trial_tree(jvmlab, token, tmp_path)
        jvmlab.wait(timeout=120)
        assert_all_gone(procs, token, timeout_s=1)
        assert "timeout" in (tmp_path / "jvmlab.log").read_text(errors="replace")
    finally:
        jvmlab.kill()
        jvmlab.wait()
        kill_all(procs, token)
