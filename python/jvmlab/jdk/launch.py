"""Running one JVM as a child process with a timeout and a kill path for its whole process tree; every JVM
jvmlab starts dies with jvmlab (child_setup: the kernel's parent-death signal), even on `kill -9`."""

from __future__ import annotations

import ctypes
import ctypes.util
import os
import signal
import subprocess
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import IO

_KILL_GRACE_S = 5.0


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


def child_setup(nice: int = 0, cpus: Sequence[int] | None = None) -> Callable[[], None]:
    """What the child runs before exec: die with its parent, then lower priority and pin CPUs if asked.
    (Only async-signal-safe work: no allocation-heavy Python, no locks.)"""
    parent = os.getpid()

    def setup() -> None:
        if _PRCTL is not None:
            _PRCTL(_PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)
            if os.getppid() != parent:  # the parent died before prctl took effect
                os._exit(1)
        if nice:
            os.nice(nice)
        if cpus:
            os.sched_setaffinity(0, cpus)

    return setup


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


def capture_jvm(argv: Sequence[str], *, timeout_s: float) -> JvmOutput:
    """Runs argv (a list, never a shell) with its output captured; on timeout kills its whole process group,
    so a child that keeps the pipes open cannot hang us."""
    start = time.monotonic()
    try:
        proc = subprocess.Popen(
            list(argv),
            stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            start_new_session=True,
        )
    except OSError as e:
        return JvmOutput(tuple(argv), None, "", "", False, 0.0, f"cannot run {argv[0]}: {e.strerror or e}")
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
