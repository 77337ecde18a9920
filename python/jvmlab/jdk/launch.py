"""Running one JVM as a child process with a timeout and a kill path for its whole process tree; every JVM
jvmlab starts dies with jvmlab (child_setup: the kernel's parent-death signal), even on `kill -9`, and so
does everything a command started under the supervisor starts (start_supervised, jdk/supervisor.py)."""

from __future__ import annotations

import ctypes
import ctypes.util
import json
import os
import signal
import subprocess
import sys
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Any

_KILL_GRACE_S = 5.0
SUPERVISOR = Path(__file__).with_name("supervisor.py")


_PR_SET_PDEATHSIG = 1


def _libc_prctl() -> Callable[..., int] | None:
    if not sys.platform.startswith("linux"):
        return None
    try:
        libc = ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6", use_errno=True)
        return libc.prctl  # type: ignore[no-any-return]
    except (OSError, AttributeError):
        return None


_PRCTL = _libc_prctl()


def child_setup(
    nice: int = 0, cpus: Sequence[int] | None = None, death_signal: int = signal.SIGKILL
) -> Callable[[], None]:
    """What the child runs before exec: get `death_signal` when its parent dies, then lower priority and pin
    CPUs if asked. (Only async-signal-safe work: no allocation-heavy Python, no locks.)"""
    parent = os.getpid()

    def setup() -> None:
        if _PRCTL is not None:
            _PRCTL(_PR_SET_PDEATHSIG, death_signal, 0, 0, 0)
            if os.getppid() != parent:  # the parent died before prctl took effect
                os._exit(1)
        if nice:
            os.nice(nice)
        if cpus:
            os.sched_setaffinity(0, cpus)

    return setup


@dataclass(frozen=True)
class Supervised:
    """A command started under the supervisor (jdk/supervisor.py)."""

    proc: subprocess.Popen[bytes]  # the supervisor: exits as the command did, once none of its tree is left
    pid: int  # the command's own
    reaper: int  # the supervisor's process that the command's whole tree stays below


def start_supervised(
    argv: Sequence[str],
    *,
    grace_s: float = _KILL_GRACE_S,
    nice: int = 0,
    cpus: Sequence[int] | None = None,
    cgroup: Mapping[str, Any] | None = None,
    **popen: Any,
) -> Supervised:
    """Starts argv (a list, never a shell string) under the supervisor, in a session of its own. SIGTERM to
    the supervisor ends the command's whole tree (SIGTERM, `grace_s`, SIGKILL), and so does jvmlab's death.
    `cgroup` (container.TrialGroup.supervision): the command's tree runs in that cgroup, which the supervisor
    removes at the end. Raises OSError when the command cannot be started. Off Linux, argv runs directly."""
    if not sys.platform.startswith("linux"):
        proc = subprocess.Popen(list(argv), start_new_session=True, **popen)
        return Supervised(proc, proc.pid, proc.pid)
    # The pids, or why the command could not start, come back on a pipe.
    read_fd, write_fd = os.pipe()
    try:
        supervisor = [
            *(sys.executable, "-I", "-S", str(SUPERVISOR), f"{grace_s:g}", str(write_fd)),
            json.dumps(dict(cgroup)) if cgroup else "-",
        ]
        proc = subprocess.Popen(
            [*supervisor, *argv],
            pass_fds=(write_fd,),
            start_new_session=True,
            preexec_fn=child_setup(nice, cpus, signal.SIGTERM),  # noqa: PLW1509 - no locks in the child
            **popen,
        )
    except BaseException:
        os.close(read_fd)
        raise
    finally:
        os.close(write_fd)
    try:
        with os.fdopen(read_fd, "rb") as f:
            said = f.read().decode().split()
    except BaseException:  # Ctrl-C: the supervisor ends what it started
        proc.terminate()
        proc.wait()
        raise
    if len(said) == 2 and all(word.isdigit() for word in said):
        return Supervised(proc, int(said[1]), int(said[0]))
    code = proc.wait()
    if said[:1] == ["error"]:
        errno = int(said[1])
        raise OSError(errno, os.strerror(errno), argv[0])
    raise OSError(f"the supervisor of {argv[0]} exited with {code} before starting it")


@dataclass(frozen=True)
class JvmOutput:
    """What a short JVM run printed (`java ... -version`): decoded stdout and stderr, exit status.

    returncode is None when it timed out (and was killed) or could not be started (`error` says why).
    """

    argv: tuple[str, ...]
    returncode: int | None
    stdout: str
    stderr: str
    timed_out: bool
    elapsed_s: float
    error: str | None = None


@dataclass(frozen=True)
class JvmRun:
    """The outcome of one JVM process: a timeout is a state, not an exception."""

    argv: tuple[str, ...]
    returncode: int | None
    timed_out: bool
    elapsed_s: float

    @property
    def ok(self) -> bool:
        return self.returncode == 0 and not self.timed_out


def kill_tree(proc: subprocess.Popen[bytes]) -> None:
    """Kills the process group the child leads (it was started in a new session), then reaps it."""
    if proc.poll() is not None:
        return
    try:
        os.killpg(proc.pid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        proc.kill()
    proc.wait(timeout=_KILL_GRACE_S)


def run_jvm(
    argv: Sequence[str],
    *,
    timeout_s: float,
    stdout: IO[bytes] | int | None = None,
    cwd: str | Path | None = None,
) -> JvmRun:
    """Runs argv (java and its arguments) to completion; kills the whole tree on timeout, error or Ctrl-C.

    stdout: None inherits ours; a file or subprocess.DEVNULL redirects it. stderr follows stdout.
    """
    start = time.monotonic()
    err = subprocess.STDOUT if stdout is not None else None
    proc = subprocess.Popen(list(argv), stdout=stdout, stderr=err, cwd=cwd, start_new_session=True)
    timed_out = False
    try:
        proc.wait(timeout=timeout_s)
    except subprocess.TimeoutExpired:
        timed_out = True
    finally:
        kill_tree(proc)
    return JvmRun(tuple(argv), proc.returncode, timed_out, time.monotonic() - start)


def joining(procs_files: Sequence[str]) -> Callable[[], None]:
    """What a child runs before exec to move itself into a cgroup (its cgroup.procs files: "0" is itself)."""

    def join() -> None:
        for procs in procs_files:
            fd = os.open(procs, os.O_WRONLY)
            try:
                os.write(fd, b"0")
            finally:
                os.close(fd)

    return join


def capture_jvm(argv: Sequence[str], *, timeout_s: float, join: Sequence[str] = ()) -> JvmOutput:
    """Runs argv (a list, never a shell) with its output captured; on timeout kills its whole process group,
    so a child that keeps the pipes open cannot hang us. `join`: the cgroup.procs files of a cgroup to run
    it in (container.TrialGroup.join_files)."""
    start = time.monotonic()
    try:
        proc = subprocess.Popen(
            list(argv),
            stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            start_new_session=True,
            preexec_fn=joining(join) if join else None,  # noqa: PLW1509 - no locks in the child
        )
    except (OSError, subprocess.SubprocessError) as e:
        why = e.strerror if isinstance(e, OSError) and e.strerror else str(e)
        return JvmOutput(tuple(argv), None, "", "", False, 0.0, f"cannot run {argv[0]}: {why}")
    timed_out = False
    try:
        out, err = proc.communicate(timeout=timeout_s)
    except subprocess.TimeoutExpired:
        timed_out = True
        kill_tree(proc)
        out, err = proc.communicate()
    finally:
        kill_tree(proc)
    return JvmOutput(
        tuple(argv),
        None if timed_out else proc.returncode,
        out.decode(errors="replace"),
        err.decode(errors="replace"),
        timed_out,
        time.monotonic() - start,
    )


def xlog_file_option(selection: str, path: str | Path, decorators: str) -> str:
    """-Xlog:<selection>:file=<path>:<decorators>, quoting the path when it holds a ':' or a space."""
    name = str(path)
    if any(c in name for c in ': ,"'):
        name = '"' + name.replace('"', '\\"') + '"'
    return f"-Xlog:{selection}:file={name}:{decorators}"
