"""A running JVM, read through `jcmd` without changing it: its command line, version, the flags in force
(`VM.flags -all`), the GC log it writes (`VM.log list`, or JDK 8's -Xloggc) and its uptime. `record_jfr`
takes a JFR recording of a given length, when asked (the one thing that adds work to the JVM, and ends
with the recording).

jcmd comes from the JVM's own JDK when it has one, else from an installed JDK of the same major version.
"""

from __future__ import annotations

import os
import re
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from jvmlab.errors import JvmLabError, UsageError
from jvmlab.jdk.jvm_output import FlagValue, parse_flags_final
from jvmlab.jdk.launch import capture_jvm
from jvmlab.jdk.model import Jdk, major_of

JCMD_TIMEOUT_S = 30.0
_VERSION = re.compile(r"^JDK (\S+)", re.M)
_LOG_FILE = re.compile(r"#\d+: file=(?P<path>\S+) (?P<what>\S+)")
_XLOGGC = re.compile(r"-Xloggc:(\S+)")


class AttachError(JvmLabError):
    """The JVM of --pid cannot be read: gone, not a JVM, another user's, or jcmd refused."""


@dataclass(frozen=True)
class RunningJvm:
    pid: int
    version: str
    major: int
    jvm_args: tuple[str, ...]
    java_command: str
    flags_final: tuple[FlagValue, ...]
    gc_log: Path | None
    uptime_s: float | None
    cwd: Path | None


def java_home_of(pid: int) -> Path | None:
    """The JDK home of a running process (its executable is <home>/bin/java); None if /proc says nothing."""
    try:
        exe = Path(os.readlink(f"/proc/{pid}/exe"))
    except OSError:
        return None
    return exe.parent.parent if exe.name == "java" else None


def jcmd_for(pid: int, installed: Sequence[Jdk]) -> Path:
    """The JVM's own jcmd, else an installed JDK's, else the one on PATH."""
    home = java_home_of(pid)
    if home is not None and (home / "bin" / "jcmd").is_file():
        return home / "bin" / "jcmd"
    for jdk in installed:
        if (jdk.home / "bin" / "jcmd").is_file():
            return jdk.home / "bin" / "jcmd"
    from shutil import which

    found = which("jcmd")
    if found is None:
        raise AttachError("no jcmd found: install a JDK (jvmlab jdks) to read a running JVM")
    return Path(found)


def jcmd(tool: Path, pid: int, *command: str, timeout_s: float = JCMD_TIMEOUT_S) -> str:
    """Runs `jcmd PID COMMAND...`; what it printed after its first line (the pid)."""
    out = capture_jvm([str(tool), str(pid), *command], timeout_s=timeout_s)
    text = out.stdout.split("\n", 1)[1] if "\n" in out.stdout else ""
    if out.returncode != 0 or out.timed_out or "Exception" in out.stdout.split("\n", 1)[0]:
        problem = (out.stderr or out.stdout).strip().splitlines()
        reason = problem[-1] if problem else f"exit code {out.returncode}"
        raise AttachError(f"--pid {pid}: jcmd {' '.join(command)} failed: {reason}")
    return text


def diagnostic(pid: int, installed: Sequence[Jdk], *command: str) -> str:
    """A diagnostic command (`jcmd PID COMMAND...`) through HotSpot's attach socket (well under a
    millisecond), else through the jcmd tool (a JVM of its own, which a loaded machine can keep from
    attaching in time); what the JVM answered."""
    from jvmlab.jdk.hotspot_attach import dcmd

    try:
        return dcmd(pid, " ".join(command))
    except AttachError:
        return jcmd(jcmd_for(pid, installed), pid, *command)


def check_pid(pid: int) -> None:
    if pid <= 0:
        raise UsageError(f"--pid {pid}: not a process id")
    if not Path(f"/proc/{pid}").exists():
        raise UsageError(f"--pid {pid}: no such process")


def gc_log_of(log_list: str, jvm_args: Sequence[str], cwd: Path | None) -> Path | None:
    """The file the JVM writes its GC log to: a `VM.log list` output with gc tags, or JDK 8's -Xloggc."""
    for m in _LOG_FILE.finditer(log_list):
        if "gc" in m.group("what").replace("all=off", ""):
            return resolve(m.group("path"), cwd)
    for arg in jvm_args:
        if m2 := _XLOGGC.match(arg):
            return resolve(m2.group(1), cwd)
    return None


def resolve(path: str, cwd: Path | None) -> Path:
    p = Path(path.strip('"'))
    return p if p.is_absolute() or cwd is None else cwd / p


def read_jvm(pid: int, installed: Sequence[Jdk] = ()) -> RunningJvm:
    """Everything `jvmlab advise --pid` reads of a running JVM."""
    check_pid(pid)
    tool = jcmd_for(pid, installed)
    command_line = jcmd(tool, pid, "VM.command_line")
    args = next(
        (line.split(":", 1)[1] for line in command_line.splitlines() if line.startswith("jvm_args:")), ""
    )
    java_command = next(
        (
            line.split(":", 1)[1].strip()
            for line in command_line.splitlines()
            if line.startswith("java_command:")
        ),
        "",
    )
    version_text = jcmd(tool, pid, "VM.version")
    m = _VERSION.search(version_text)
    version = m.group(1) if m else version_text.strip().splitlines()[-1]
    major = major_of(version)
    try:
        log_list = jcmd(tool, pid, "VM.log", "list")
    except AttachError:
        log_list = ""  # JDK 8 has no VM.log
    try:
        cwd: Path | None = Path(os.readlink(f"/proc/{pid}/cwd"))
    except OSError:
        cwd = None
    jvm_args = tuple(args.split())
    uptime = jcmd(tool, pid, "VM.uptime").strip().split()
    return RunningJvm(
        pid=pid,
        version=version,
        major=major,
        jvm_args=jvm_args,
        java_command=java_command,
        flags_final=tuple(parse_flags_final(jcmd(tool, pid, "VM.flags", "-all"))),
        gc_log=gc_log_of(log_list, jvm_args, cwd),
        uptime_s=float(uptime[0]) if uptime and uptime[0].replace(".", "", 1).isdigit() else None,
        cwd=cwd,
    )


def record_jfr(pid: int, seconds: float, path: Path, installed: Sequence[Jdk] = ()) -> Path:
    """A JFR recording of the next `seconds` (profile settings) written to `path`; stopped if interrupted."""
    tool = jcmd_for(pid, installed)
    name = f"jvmlab-advise-{os.getpid()}"
    jcmd(
        tool,
        pid,
        "JFR.start",
        f"name={name}",
        "settings=profile",
        f"duration={seconds:g}s",
        f"filename={path}",
    )
    try:
        deadline = time.monotonic() + seconds + JCMD_TIMEOUT_S
        while time.monotonic() < deadline:
            time.sleep(min(1.0, max(0.1, seconds / 10)))
            if name not in jcmd(tool, pid, "JFR.check"):
                break
    except BaseException:
        jcmd(tool, pid, "JFR.stop", f"name={name}")
        raise
    if not path.is_file():
        raise AttachError(f"--pid {pid}: the JFR recording was not written to {path}")
    return path
