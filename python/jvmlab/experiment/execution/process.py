"""Starting a trial's process tree and ending all of it.

The command runs under jvmlab's supervisor (jdk/supervisor.py), which leads a new session (its own process
group, so one signal reaches everything that stays in it) and keeps the command's whole tree below itself,
even what double-forks or calls setsid. The supervisor dies with jvmlab (PR_SET_PDEATHSIG) and ends the tree
when it does: even `kill -9` of jvmlab leaves no JVM behind, however a start script starts it. Ending a
tree: SIGTERM to the group and to every descendant found (some leave the group), a grace period, then SIGKILL.
"""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import time
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import IO, Any

import psutil

from jvmlab.jdk.launch import Supervised, start_supervised


def spawn(
    argv: Sequence[str],
    *,
    cwd: str | Path,
    env: Mapping[str, str],
    stdout: int | IO[bytes],
    stderr: int | IO[bytes],
    nice: int = 0,
    cpus: Sequence[int] | None = None,
    cgroup: Mapping[str, Any] | None = None,
) -> Supervised:
    """Starts argv (a list, never a shell string) under the supervisor, with a pipe for stdin; in the cgroup
    of `cgroup` (container.TrialGroup.supervision) when given."""
    return start_supervised(
        argv,
        nice=nice,
        cpus=cpus,
        cgroup=cgroup,
        cwd=cwd,
        env=dict(env),
        stdin=subprocess.PIPE,
        stdout=stdout,
        stderr=stderr,
    )


def descendants(pid: int) -> list[psutil.Process]:
    """The process `pid` and everything it started that still runs."""
    try:
        root = psutil.Process(pid)
        return [root, *root.children(recursive=True)]
    except psutil.Error:
        return []


def _signal_all(pgid: int, procs: Sequence[psutil.Process], sig: int) -> None:
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(pgid, sig)
    for p in procs:
        with contextlib.suppress(psutil.Error):
            p.send_signal(sig)


def end_tree(proc: subprocess.Popen[bytes], *, grace_s: float = 5.0) -> None:
    """Ends the process and all its descendants: SIGTERM, up to `grace_s` to exit, then SIGKILL; reaps it."""
    procs = descendants(proc.pid)
    if proc.poll() is None or len(procs) > 1:
        _signal_all(proc.pid, procs, signal.SIGTERM)
        _, alive = psutil.wait_procs(procs, timeout=grace_s)
        if alive or proc.poll() is None:
            _signal_all(proc.pid, alive or procs, signal.SIGKILL)
            psutil.wait_procs(alive or procs, timeout=grace_s)
    try:
        proc.wait(timeout=grace_s)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait()
    # Whatever is left in the group (a grandchild that ignored SIGTERM and was missed above).
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(proc.pid, signal.SIGKILL)


def wait_gone(pids: Sequence[int], timeout_s: float = 5.0) -> bool:
    """True when none of `pids` runs any more (zombies count as gone)."""
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        alive = []
        for pid in pids:
            with contextlib.suppress(psutil.Error):
                if psutil.Process(pid).status() != psutil.STATUS_ZOMBIE:
                    alive.append(pid)
        if not alive:
            return True
        time.sleep(0.05)
    return False
