"""The one way jvmlab talks to a running JVM: `diagnostic` sends any diagnostic command (what `jcmd PID
COMMAND` sends: JFR.start/stop/check, JVMTI.agent_load, Compiler.codecache, VM.flags, VM.log, ...) through
HotSpot's attach socket (jvmlab.jdk.hotspot_attach, well under a millisecond), and through the jcmd tool only
when that socket cannot be reached; every failure is one AttachError line naming the pid and the command.

Built on it, a running JVM read without changing it: its command line, version, the flags in force
(`VM.flags -all`), the GC log it writes (`VM.log list`, or JDK 8's -Xloggc) and its uptime. When asked,
`record_jfr` takes a JFR recording of a given length and `logging_on` adds a unified-logging output for a
while (JDK 9+ `VM.log`): the two things that add work to the JVM, each ending with its window.

jcmd comes from the JVM's own JDK when it has one, else from an installed JDK of the same major version.
"""

from __future__ import annotations

import contextlib
import os
import re
import time
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path

from jvmlab.errors import AttachError, UsageError
from jvmlab.jdk import hotspot_attach
from jvmlab.jdk.jvm_output import FlagValue, parse_flags_final
from jvmlab.jdk.launch import capture_jvm
from jvmlab.jdk.model import Jdk
from jvmlab.jdk.tools import find_tool
from jvmlab.jdk.versions import JavaVersion, parse_version, version_in_vm_version

TIMEOUT_S = 30.0  # for an answer to one command, through the socket or the jcmd tool
_LOG_FILE = re.compile(r"#\d+: file=(?P<path>\S+) (?P<what>\S+)")
_XLOGGC = re.compile(r"-Xloggc:(\S+)")
_OUTPUT = re.compile(r"^\s*#\d+: (\S+)", re.M)
# What `logging_on` asks for by default: every GC tag set and the safepoints, as `-Xlog:gc*,safepoint` does.
WINDOW_LOG_WHAT = "gc*=info,safepoint=info"
WINDOW_LOG_DECORATORS = "uptime,level,tags"


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


def jdk_tool(pid: int, installed: Sequence[Jdk], name: str) -> Path:
    """The JDK tool `name` (jcmd, jfr) of the JVM's own JDK, else an installed JDK's, else PATH's."""
    found = find_tool(name, java_home_of(pid), installed, on_path=True)
    if found is None:
        raise AttachError(f"no {name} found: install a JDK (jvmlab jdks) to read a running JVM")
    return found


def jcmd_for(pid: int, installed: Sequence[Jdk]) -> Path:
    """The JVM's own jcmd, else an installed JDK's, else the one on PATH."""
    return jdk_tool(pid, installed, "jcmd")


def diagnostic(
    pid: int,
    *command: str,
    installed: Sequence[Jdk] = (),
    timeout_s: float = TIMEOUT_S,
    tool_fallback: bool = True,
) -> str:
    """What the JVM `pid` answered to one diagnostic command (`jcmd PID COMMAND...`), asked through its
    attach socket; when the socket cannot be reached (SocketUnreachable: the JVM was not asked), through the
    jcmd tool, a JVM of its own that a loaded machine can keep from attaching in time (~0.25 s and a core's
    worth of CPU). A JVM that refuses the command or says nothing within `timeout_s` is not asked again:
    the tool would wait on the same listener. `tool_fallback=False` for callers that ask often (a sampler)
    and would rather stop than pay a JVM start per call."""
    text = " ".join(command)
    try:
        return hotspot_attach.dcmd(pid, text, timeout_s=timeout_s)
    except hotspot_attach.SocketUnreachable:
        if not tool_fallback:
            raise
    return _jcmd_tool(jcmd_for(pid, installed), pid, command, timeout_s)


def _jcmd_tool(tool: Path, pid: int, command: Sequence[str], timeout_s: float) -> str:
    """`jcmd PID COMMAND...` run as a tool; what it printed after its first line (the pid)."""
    out = capture_jvm([str(tool), str(pid), *command], timeout_s=timeout_s)
    text = out.stdout.split("\n", 1)[1] if "\n" in out.stdout else ""
    if out.timed_out:
        raise AttachError(f"JVM {pid}: {' '.join(command)}: no answer within {timeout_s:g} s (jcmd tool)")
    if out.returncode != 0 or "Exception" in out.stdout.split("\n", 1)[0]:
        problem = (out.stderr or out.stdout or out.error or "").strip().splitlines()
        reason = problem[-1] if problem else f"exit code {out.returncode}"
        raise AttachError(f"JVM {pid}: {' '.join(command)} failed (jcmd tool): {reason}")
    return text


def check_pid(pid: int) -> None:
    """A UsageError naming --pid for a process that does not exist, is not a JVM, or is a JVM started with
    attach disabled: said at once, rather than after waits for a socket and a jcmd tool that never answer."""
    if pid <= 0:
        raise UsageError(f"--pid {pid}: not a process id")
    if not Path(f"/proc/{pid}").exists():
        raise UsageError(f"--pid {pid}: no such process")
    try:
        maps = Path(f"/proc/{pid}/maps").read_text(errors="replace")
        argv = Path(f"/proc/{pid}/cmdline").read_bytes().split(b"\0")
    except OSError:
        return  # another user's process: attaching says why it cannot
    name = Path(argv[0].decode(errors="replace")).name if argv and argv[0] else "?"
    if not any(lib in maps for lib in ("libjvm.so", "libj9vm")):
        raise UsageError(f"--pid {pid}: not a JVM ({name}: no libjvm.so in its memory)")
    if b"-XX:+DisableAttachMechanism" in argv:
        raise UsageError(
            f"--pid {pid}: this JVM refuses attach (started with -XX:+DisableAttachMechanism): restart it "
            "without that flag, or watch it from its start (jvmlab profile -- java ..., jvmlab run)"
        )


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


def jvm_version(pid: int, installed: Sequence[Jdk] = ()) -> JavaVersion:
    """The Java version of the running JVM `pid`, as `VM.version` says it; AttachError when it names none."""
    said = diagnostic(pid, "VM.version", installed=installed)
    version = version_in_vm_version(said)
    try:
        return parse_version(version or "")
    except ValueError:
        raise AttachError(f"JVM {pid}: VM.version names no Java version: {said.strip()[:80]!r}") from None


def read_jvm(pid: int, installed: Sequence[Jdk] = ()) -> RunningJvm:
    """Everything `jvmlab advise --pid` reads of a running JVM."""
    check_pid(pid)
    command_line = diagnostic(pid, "VM.command_line", installed=installed)
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
    version = jvm_version(pid, installed)
    try:
        log_list = diagnostic(pid, "VM.log", "list", installed=installed)
    except AttachError:
        log_list = ""  # JDK 8 has no VM.log
    try:
        cwd: Path | None = Path(os.readlink(f"/proc/{pid}/cwd"))
    except OSError:
        cwd = None
    jvm_args = tuple(args.split())
    uptime = diagnostic(pid, "VM.uptime", installed=installed).strip().split()
    return RunningJvm(
        pid=pid,
        version=version.text,
        major=version.major,
        jvm_args=jvm_args,
        java_command=java_command,
        flags_final=tuple(parse_flags_final(diagnostic(pid, "VM.flags", "-all", installed=installed))),
        gc_log=gc_log_of(log_list, jvm_args, cwd),
        uptime_s=float(uptime[0]) if uptime and uptime[0].replace(".", "", 1).isdigit() else None,
        cwd=cwd,
    )


def record_jfr(pid: int, seconds: float, path: Path, installed: Sequence[Jdk] = ()) -> Path:
    """A JFR recording of the next `seconds` (profile settings) written to `path`; stopped if interrupted.
    Through `diagnostic`: the attach socket, so the window is not stretched by jcmd starting."""
    name = f"jvmlab-advise-{os.getpid()}"
    start = ("JFR.start", f"name={name}", "settings=profile", f"duration={seconds:g}s", f"filename={path}")
    diagnostic(pid, *start, installed=installed)
    try:
        deadline = time.monotonic() + seconds + TIMEOUT_S
        time.sleep(seconds * 0.9)
        while time.monotonic() < deadline:
            if name not in diagnostic(pid, "JFR.check", installed=installed):
                break
            time.sleep(min(0.2, max(0.05, seconds / 20)))
    except BaseException:
        diagnostic(pid, "JFR.stop", f"name={name}", installed=installed)
        raise
    if not path.is_file():
        raise AttachError(f"--pid {pid}: the JFR recording was not written to {path}")
    return path


def log_outputs(log_list: str) -> list[str]:
    """The names of a JVM's log outputs in `VM.log list` order (`stdout`, `stderr`, `file=/path`)."""
    return _OUTPUT.findall(log_list.split("Log output configuration:", 1)[-1])


@contextlib.contextmanager
def logging_on(
    pid: int, path: Path, installed: Sequence[Jdk] = (), *, what: str = WINDOW_LOG_WHAT
) -> Iterator[Path]:
    """Unified logging of `what` into `path` (a file of the JVM's own: JDK 9+) while the block runs: one
    output added with `VM.log output=file=PATH what=...`, removed afterwards, also on errors and Ctrl-C, by
    turning all its tags off (`what=all=off`: HotSpot drops an output that logs nothing). The JVM's own
    outputs are not touched; `VM.log disable` would turn them all off."""
    output = f"file={path}"
    if any(c.isspace() or c in ',"' for c in str(path)):
        raise AttachError(f"{path}: a VM.log output path without spaces, commas or quotes is needed")
    if output in log_outputs(diagnostic(pid, "VM.log", "list", installed=installed)):
        raise AttachError(f"JVM {pid} already logs to {path}: jvmlab adds only an output of its own")
    said = diagnostic(
        pid,
        "VM.log",
        f"output={output}",
        "output_options=filecount=0",
        f"what={what}",
        f"decorators={WINDOW_LOG_DECORATORS}",
        installed=installed,
    )
    try:
        if output not in log_outputs(diagnostic(pid, "VM.log", "list", installed=installed)):
            reason = said.strip().splitlines()[0] if said.strip() else "no output added"
            raise AttachError(f"JVM {pid}: VM.log could not log to {path}: {reason}")
        yield path
    finally:
        logging_off(pid, path, installed)


def logging_off(pid: int, path: Path, installed: Sequence[Jdk] = ()) -> None:
    """Removes the output `logging_on` added; says how to do it by hand if the JVM keeps it."""
    output = f"file={path}"
    if not Path(f"/proc/{pid}").exists():
        return  # the JVM ended: nothing left to restore
    with contextlib.suppress(AttachError):
        diagnostic(pid, "VM.log", f"output={output}", "what=all=off", installed=installed)
    try:
        left = output in log_outputs(diagnostic(pid, "VM.log", "list", installed=installed))
    except AttachError:
        left = Path(f"/proc/{pid}").exists()
    if left:
        raise AttachError(
            f"JVM {pid} still logs to {path}: remove it with `jcmd {pid} VM.log output={output} what=all=off`"
        )
