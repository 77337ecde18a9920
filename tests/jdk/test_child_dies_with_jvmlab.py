"""A process jvmlab starts with jvmlab.jdk.launch.child_setup dies with jvmlab, even when jvmlab is killed
with SIGKILL (the kernel's parent-death signal): the way every profiled and counted JVM is started. A command
started under the supervisor (start_supervised: every trial's workload and load tool) takes its whole tree
with it, however it starts its children: a start script that does not exec, one that backgrounds, a daemon
that double-forks into a session of its own."""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import psutil
import pytest

from jvmlab.jdk.launch import start_supervised

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="PR_SET_PDEATHSIG is Linux's")

PARENT = """
import subprocess, sys, time
from jvmlab.jdk.launch import child_setup
child = subprocess.Popen(["sleep", "60"], preexec_fn=child_setup())
print(child.pid, flush=True)
time.sleep(60)
"""

# jvmlab as far as the supervisor is concerned: it starts a script under it and waits.
SUPERVISING_PARENT = """
import sys, time
from jvmlab.jdk.launch import start_supervised
started = start_supervised(["sh", "-c", sys.argv[1]], grace_s=float(sys.argv[2]))
print(started.proc.pid, started.reaper, flush=True)
time.sleep(120)
"""

# Each starts `sleep 60` (its pid goes to the file $1) without exec, as server start scripts do.
SCRIPTS = {
    "not the last command": 'sleep 60 & echo $! > "$1"; wait; echo "the sleep ended"',
    "in the background": 'sleep 60 & echo $! > "$1"; wait',
    "a setsid daemon": '(setsid sh -c \'echo $$ > "$1"; exec sleep 60\' _ "$1" &); sleep 60',
    "ignoring SIGTERM": 'trap "" TERM; sleep 60 & echo $! > "$1"; wait',
}


def gone(pid: int, timeout_s: float) -> bool:
    """True once `pid` has exited (a zombie counts), within `timeout_s`."""
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        try:
            if psutil.Process(pid).status() == psutil.STATUS_ZOMBIE:
                return True
        except psutil.NoSuchProcess:
            return True
        time.sleep(0.05)
    return False


def read_pid(path: Path, timeout_s: float = 10) -> int:
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        text = path.read_text().strip() if path.exists() else ""
        if text:
            return int(text)
        time.sleep(0.05)
    raise AssertionError(f"the script never wrote {path}")


def tree(pid: int) -> list[int]:
    """`pid` and its descendants now (what a failed test kills, so that it leaves nothing running)."""
    try:
        root = psutil.Process(pid)
        return [pid, *(p.pid for p in root.children(recursive=True))]
    except psutil.NoSuchProcess:
        return []


def kill_left(pids: list[int]) -> None:
    for pid in pids:
        with contextlib.suppress(ProcessLookupError):
            os.kill(pid, signal.SIGKILL)


def test_a_child_dies_when_jvmlab_is_killed():
    parent = subprocess.Popen([sys.executable, "-c", PARENT], stdout=subprocess.PIPE, text=True)
    try:
        assert parent.stdout is not None
        child = int(parent.stdout.readline())
        assert psutil.pid_exists(child)
        os.kill(parent.pid, signal.SIGKILL)
        parent.wait()
        if not gone(child, 10):
            os.kill(child, signal.SIGKILL)
            pytest.fail("the child outlived its killed parent")
    finally:
        if parent.poll() is None:
            parent.kill()
            parent.wait()


@pytest.mark.parametrize("killed", ["jvmlab", "the supervisor"])
@pytest.mark.parametrize("how", list(SCRIPTS))
def test_the_whole_tree_of_a_supervised_script_dies_when_jvmlab_is_killed(tmp_path, how, killed):
    """SIGKILL of jvmlab; or of its child, the supervisor (as Ray does to a killed worker's children)."""
    pid_file = tmp_path / "sleep.pid"
    script = f"set -- {pid_file}; {SCRIPTS[how]}"
    grace_s = 1.0
    parent = subprocess.Popen(
        [sys.executable, "-c", SUPERVISING_PARENT, script, str(grace_s)], stdout=subprocess.PIPE, text=True
    )
    left: list[int] = []
    try:
        assert parent.stdout is not None
        supervisor, reaper = map(int, parent.stdout.readline().split())
        sleep = read_pid(pid_file)
        left = [*tree(supervisor), sleep]
        # The daemon's own parent has exited: the reaper (a subreaper) took it, not init.
        deadline = time.monotonic() + 5
        while how == "a setsid daemon" and psutil.Process(sleep).ppid() != reaper:
            assert time.monotonic() < deadline, "the daemon was not reparented to the reaper"
            time.sleep(0.05)
        left = [*tree(supervisor), sleep]
        os.kill(parent.pid if killed == "jvmlab" else supervisor, signal.SIGKILL)
        assert gone(sleep, grace_s + 5), f"the script's sleep ({how}) outlived {killed}"
        assert all(gone(pid, 1) for pid in left), f"a process of the script outlived {killed}"
    finally:
        kill_left([parent.pid, *left])
        parent.wait()


def test_stopping_the_supervisor_ends_the_tree_and_reports_the_command_status(tmp_path):
    pid_file = tmp_path / "sleep.pid"
    started = start_supervised(["sh", "-c", f"set -- {pid_file}; {SCRIPTS['a setsid daemon']}"], grace_s=1)
    daemon = read_pid(pid_file)
    left = [*tree(started.proc.pid), daemon]
    assert started.reaper in left and started.pid in left
    try:
        started.proc.terminate()
        assert started.proc.wait(timeout=10) == -signal.SIGTERM  # as the shell: the status comes through
        assert all(gone(pid, 1) for pid in left)
    finally:
        kill_left(left)
        started.proc.wait()


def test_the_command_exit_ends_what_it_left_running(tmp_path):
    pid_file = tmp_path / "sleep.pid"
    started = start_supervised(["sh", "-c", f'sleep 60 & echo $! > "{pid_file}"; exit 3'], grace_s=1)
    assert started.proc.wait(timeout=10) == 3
    assert gone(read_pid(pid_file), 1) and gone(started.pid, 1) and gone(started.reaper, 1)


def test_the_command_exit_status_and_signal_state_come_through():
    proc = start_supervised(["sh", "-c", "kill -9 $$"]).proc
    assert proc.wait(timeout=10) == -signal.SIGKILL
    # The command gets the signal state a plain subprocess gets: the supervisor's own blocked signals and
    # Python's ignored SIGPIPE do not leak into it (what the calling environment ignores still does).
    status = ["sh", "-c", "grep -E '^Sig(Blk|Ign)' /proc/self/status"]
    proc = start_supervised(status, stdout=subprocess.PIPE).proc
    out, _ = proc.communicate(timeout=10)
    assert proc.returncode == 0
    plain = subprocess.run(status, stdout=subprocess.PIPE, check=True).stdout
    assert out.decode().split() == plain.decode().split()
    assert out.decode().split()[:2] == ["SigBlk:", "0" * 16]


def test_a_command_that_cannot_start_is_an_os_error(tmp_path):
    with pytest.raises(FileNotFoundError, match="no-such-command"):
        start_supervised([str(tmp_path / "no-such-command")])
