"""Recording a profile with async-profiler: a JVM started under it (`jvmlab profile -- java ...`), or a
running JVM it is attached to for a while (JVMTI.agent_load through jvmlab.jdk.attach: the attach socket, the
jcmd tool only when that cannot be reached). The profiler is always stopped and no JVM left running: Ctrl-C
ends the started JVM and stops the attached profiler."""

from __future__ import annotations

import signal
import subprocess
import time
from collections.abc import Sequence
from pathlib import Path

from jvmlab.errors import InputError, JvmLabError, UsageError
from jvmlab.jdk.launch import child_setup
from jvmlab.jdk.model import Jdk
from jvmlab.profile.agent import Sampling, agentpath, library, option_string, stop_string
from jvmlab.profile.collapsed import read_collapsed
from jvmlab.profile.model import Profile

STOP_GRACE_S = 10.0


class ProfileError(JvmLabError):
    """The JVM ran but left no profile."""


def check_java_command(argv: Sequence[str]) -> None:
    if not argv:
        raise UsageError("give the JVM to profile after --, e.g. jvmlab profile -- java -jar app.jar")
    if not Path(argv[0]).name.startswith("java"):
        raise UsageError(f"{argv[0]!r} is not a java launcher: the command after -- must start with java")


def stop(proc: subprocess.Popen[bytes]) -> None:
    """SIGTERM (the JVM's shutdown hooks run and the profiler writes its file), then SIGKILL."""
    if proc.poll() is None:
        proc.send_signal(signal.SIGTERM)
        try:
            proc.wait(STOP_GRACE_S)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()


def profile_command(argv: Sequence[str], s: Sampling, output: Path) -> tuple[int, Profile]:
    """Runs `java ...` with the profiler loaded from the start; (the JVM's exit code, its profile)."""
    check_java_command(argv)
    command = [argv[0], agentpath(s, output), *argv[1:]]
    proc = subprocess.Popen(command, preexec_fn=child_setup())  # noqa: PLW1509 - dies with jvmlab
    try:
        code = proc.wait()
    except KeyboardInterrupt:
        stop(proc)
        raise
    finally:
        stop(proc)
    return code, load(output, s, f"JVM exited with {proc.returncode}")


def load(output: Path, s: Sampling, what: str) -> Profile:
    if not output.is_file():
        raise ProfileError(f"{output}: no profile was written ({what}); did the JVM start?")
    profile = read_collapsed(output, event=s.event, unit=s.unit, source=f"async-profiler: {s.note}")
    return Profile(profile.event, profile.stacks, profile.unit, profile.source, s.interval)


def agent_command(pid: int, options: str, installed: Sequence[Jdk] = ()) -> None:
    """`JVMTI.agent_load libasyncProfiler.so "options"`; a refusal is a ProfileError."""
    from jvmlab.jdk.attach import check_pid, diagnostic

    check_pid(pid)
    # Quoted: jcmd's own parser would read `start,event=cpu` as the argument `start,event` = `cpu`.
    said = diagnostic(pid, "JVMTI.agent_load", str(library()), f'"{options}"', installed=installed)
    code = said.strip().rsplit("return code:", 1)[-1].strip() if "return code:" in said else "0"
    if code != "0":
        raise ProfileError(f"--pid {pid}: async-profiler refused `{options}` (return code {code})")


def profile_pid(
    pid: int, s: Sampling, seconds: float, output: Path, installed: Sequence[Jdk] = ()
) -> Profile:
    """Attaches to a running JVM for `seconds`, then stops the profiler (always)."""
    agent_command(pid, option_string(s, output), installed)
    try:
        time.sleep(seconds)
    finally:
        agent_command(pid, stop_string(s, output), installed)
    if output.is_file() and output.stat().st_size == 0:
        raise InputError(str(output), f"the profiler recorded nothing in {seconds:g} s (is the JVM idle?)")
    return load(output, s, f"attached to {pid}")
