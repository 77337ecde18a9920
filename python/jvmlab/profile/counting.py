"""Call counting: how often chosen Java methods are invoked in a window of a JVM's run, by one of two
backends, whichever the JVM's JDK has:

- JDK 25+: JFR method timing (JEP 520): a recording with only `jdk.MethodTiming` on, its filter
  `Class::method` (or `Class` for every method of a class). The event is emitted at every chunk's begin and
  end with the invocations since the method was instrumented: a window's count is the last event's minus the
  one at the recording's start (non-zero only when another recording already timed the method).
- Other JDKs: async-profiler's Java method event (`event=Class.method,interval=1`): every call is a sample,
  with its caller's stack (collapsed output). async-profiler 4.1 has one such event per session and one
  session per JVM: one pattern at a time, and not beside a CPU profile of the same JVM.

A pattern is written once, `Class.method` (or `Class::method`): a fully qualified class (nested classes
with `$`), and a method name, `<init>`, `*` (every method of the class) or a prefix with `*` (`get*`:
async-profiler only). Class wildcards are refused: neither backend counts them (async-profiler 4.1 silently
counts nothing).
"""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from jvmlab.errors import JvmLabError, UsageError, os_error_reason
from jvmlab.jdk.launch import child_setup
from jvmlab.jdk.tools import find_tool, home_of_java
from jvmlab.jdk.versions import version_of_home

JFR, ASYNC_PROFILER = "jfr", "async-profiler"
JFR_FIRST_MAJOR = 25  # JEP 520: jdk.MethodTiming
RECORDING = "jvmlab-count"
TOP_CALLERS = 10
CALLER_DEPTH = 3  # frames of a caller chain, nearest first
JFR_PRINT_TIMEOUT_S = 120.0
_IDENT = r"[A-Za-z_$][A-Za-z0-9_$]*"
_CLASS = re.compile(rf"^{_IDENT}(?:\.{_IDENT})*$")
_METHOD = re.compile(rf"^(?:<init>|\*|{_IDENT}\*?)$")


class CountError(JvmLabError):
    """Counting ran but its result cannot be read (no recording, a `jfr` tool that fails)."""


@dataclass(frozen=True)
class MethodPattern:
    """`class_name.method`: class_name a binary name with dots (`a.B$C`), method a name, `<init>`, `*` or
    `prefix*`."""

    class_name: str
    method: str

    @property
    def text(self) -> str:
        return f"{self.class_name}.{self.method}"

    def matches(self, class_name: str, method: str) -> bool:
        if class_name != self.class_name:
            return False
        if self.method.endswith("*"):
            return method.startswith(self.method[:-1]) and (self.method != "*" or method != "<clinit>")
        return method == self.method

    def jfr_filter(self) -> str:
        return self.class_name if self.method == "*" else f"{self.class_name}::{self.method}"

    def async_event(self) -> str:
        return self.text


def parse_pattern(text: str, where: str = "--count") -> MethodPattern:
    """A pattern as users write it (`java.util.HashMap.resize`, `a.B$C::run`, `a.B.*`); a UsageError
    naming it."""
    raw = text.strip()
    if "::" in raw:
        cls, _, method = raw.partition("::")
    else:
        cls, _, method = raw.rpartition(".")
    if "*" in cls:
        raise UsageError(
            f"{where} {text}: a class wildcard cannot be counted (neither JFR method timing nor "
            "async-profiler 4.1 matches classes by pattern); name the class, e.g. java.util.HashMap.*"
        )
    if not cls or not _CLASS.match(cls) or not _METHOD.match(method):
        raise UsageError(
            f"{where} {text}: expected CLASS.METHOD with a fully qualified class, e.g. "
            "java.util.HashMap.resize, a.B$Inner.run, a.B.* (every method) or a.B.get* (async-profiler)"
        )
    return MethodPattern(cls, method)


def parse_patterns(texts: Sequence[str], where: str = "--count") -> list[MethodPattern]:
    out: list[MethodPattern] = []
    for text in texts:
        p = parse_pattern(text, where)
        if p in out:
            raise UsageError(f"{where} {text}: given twice")
        out.append(p)
    return out


def backend_for(major: int) -> str:
    return JFR if major >= JFR_FIRST_MAJOR else ASYNC_PROFILER


def check_patterns(patterns: Sequence[MethodPattern], major: int, where: str = "--count") -> str:
    """The backend that counts these patterns on a JDK of this major version; UsageError for what it cannot
    express, naming the pattern."""
    backend = backend_for(major)
    if backend == JFR:
        for p in patterns:
            if p.method.endswith("*") and p.method != "*":
                raise UsageError(
                    f"{where} {p.text}: JFR method timing (JDK {major}) counts one method or every method of "
                    f"a class ({p.class_name}.*), not methods by prefix; name the methods one by one"
                )
    elif len(patterns) > 1:
        raise UsageError(
            f"{where} {patterns[1].text}: on JDK {major} async-profiler 4.1 counts one pattern per JVM; "
            "give one (or Class.* for every method of a class), or count several on JDK 25+ (JFR)"
        )
    return backend


# Option strings ------------------------------------------------------------------------------------------


def jfr_settings(patterns: Sequence[MethodPattern]) -> list[str]:
    """The recording's settings: nothing but jdk.MethodTiming, emitted at each chunk's begin and end."""
    joined = ";".join(p.jfr_filter() for p in patterns)
    return [
        "settings=none",
        "+jdk.MethodTiming#enabled=true",
        f"+jdk.MethodTiming#filter={joined}",
        "+jdk.MethodTiming#period=everyChunk",
    ]


def jfr_start_flag(patterns: Sequence[MethodPattern], output: Path) -> str:
    """-XX:StartFlightRecording for a JVM counted from its start."""
    return "-XX:StartFlightRecording:" + ",".join(
        [*jfr_settings(patterns), f"name={RECORDING}", f"filename={output}", "dumponexit=true"]
    )


def async_options(pattern: MethodPattern, output: Path, action: str = "start") -> str:
    """`start,event=a.B.run,interval=1,...`: every call a sample (interval 1), with its stack."""
    return f"{action},event={pattern.async_event()},interval=1,file={output},collapsed,ann"


# Results -------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class CallCount:
    """The calls of one pattern: in all, per method it matched, and (async-profiler) per caller chain."""

    pattern: str
    invocations: int
    methods: dict[str, int] = field(default_factory=dict)
    callers: tuple[tuple[str, int], ...] = ()

    def to_json(self, window_s: float | None) -> dict[str, Any]:
        per_s = self.invocations / window_s if window_s else None
        return {
            "invocations": self.invocations,
            "per_s": per_s,
            "methods": dict(self.methods),
            "callers": [list(c) for c in self.callers],
        }


@dataclass(frozen=True)
class Counts:
    """What a counting session found: the backend, the window's length (s) and a count per pattern."""

    backend: str
    window_s: float | None
    calls: tuple[CallCount, ...]

    def to_json(self) -> dict[str, Any]:
        """The form stored with a trial (its `counts` column) and written by `jvmlab profile --count`."""
        return {
            "backend": self.backend,
            "window_s": self.window_s,
            "calls": {c.pattern: c.to_json(self.window_s) for c in self.calls},
        }


def _class_of(name: str) -> str:
    return name.replace("/", ".")


def counts_of_jfr(document: dict[str, Any], patterns: Sequence[MethodPattern]) -> list[CallCount]:
    """Counts from `jfr print --json --events jdk.MethodTiming`: per method, its last event's invocations
    minus those of its event at the recording's start (a method first timed later has none there)."""
    events = document.get("recording", {}).get("events", [])
    by_method: dict[tuple[str, str, str], list[tuple[str, int]]] = {}
    for e in events:
        v = e.get("values", {})
        m = v.get("method") or {}
        key = (_class_of((m.get("type") or {}).get("name", "")), m.get("name", ""), m.get("descriptor", ""))
        by_method.setdefault(key, []).append((str(v.get("startTime", "")), int(v.get("invocations", 0))))
    start = min((t for seen in by_method.values() for t, _ in seen), default="")
    totals: dict[tuple[str, str], int] = {}
    for (cls, name, _), seen in by_method.items():
        seen.sort()
        before = seen[0][1] if len(seen) > 1 and seen[0][0] == start else 0
        totals[(cls, name)] = totals.get((cls, name), 0) + max(0, seen[-1][1] - before)
    out = []
    for p in patterns:
        methods = {f"{c}.{n}": k for (c, n), k in sorted(totals.items()) if p.matches(c, n)}
        out.append(CallCount(p.text, sum(methods.values()), methods))
    return out


def _frame(frame: str) -> str:
    from jvmlab.profile.model import frame_name

    return _class_of(frame_name(frame))


def counts_of_stacks(stacks: dict[tuple[str, ...], int], pattern: MethodPattern) -> CallCount:
    """Counts from async-profiler's collapsed stacks of a method event: each stack ends in the counted method
    (its weight the calls); callers are the chains of up to CALLER_DEPTH frames below it."""
    methods: dict[str, int] = {}
    callers: dict[str, int] = {}
    for stack, calls in stacks.items():
        frames = [_frame(f) for f in stack]
        if not frames:
            continue
        methods[frames[-1]] = methods.get(frames[-1], 0) + calls
        chain = " < ".join(reversed(frames[-1 - CALLER_DEPTH : -1])) or "(no Java caller)"
        callers[chain] = callers.get(chain, 0) + calls
    top = tuple(sorted(callers.items(), key=lambda kv: (-kv[1], kv[0]))[:TOP_CALLERS])
    return CallCount(pattern.text, sum(methods.values()), dict(sorted(methods.items())), top)


def run_jfr_print(tool: Path, recording: Path) -> dict[str, Any]:
    """`jfr print --json --events jdk.MethodTiming RECORDING`, parsed."""
    argv = [str(tool), "print", "--json", "--events", "jdk.MethodTiming", str(recording)]
    try:
        done = subprocess.run(argv, capture_output=True, text=True, timeout=JFR_PRINT_TIMEOUT_S, check=False)
    except OSError as e:
        raise CountError(f"{tool}: cannot run it: {os_error_reason(e)}") from None
    except subprocess.TimeoutExpired:
        raise CountError(f"{tool} print {recording}: no answer in {JFR_PRINT_TIMEOUT_S:g} s") from None
    if done.returncode != 0:
        said = (done.stderr or done.stdout).strip().splitlines()
        raise CountError(f"{recording}: jfr print cannot read it: {said[0] if said else 'no reason'}")
    try:
        parsed: dict[str, Any] = json.loads(done.stdout)
    except json.JSONDecodeError as e:
        raise CountError(f"{recording}: jfr print wrote no JSON ({e})") from None
    return parsed


# Sessions ------------------------------------------------------------------------------------------------


@dataclass
class Session:
    """One counting session on one JVM: started (attached, or from the JVM's start), stopped, read.
    `output` is the recording (JFR) or the collapsed stacks (async-profiler)."""

    backend: str
    patterns: tuple[MethodPattern, ...]
    output: Path
    jfr_tool: Path | None = None  # JFR: the `jfr` that prints the recording
    pid: int | None = None
    started_at: float | None = None
    stopped_at: float | None = None

    @property
    def running(self) -> bool:
        return self.started_at is not None and self.stopped_at is None

    def start_flag(self, root: Path | None = None) -> str:
        """The JVM option that counts from the JVM's start (`jvmlab profile --count -- java ...`)."""
        if self.backend == JFR:
            return jfr_start_flag(self.patterns, self.output)
        from jvmlab.profile.agent import library

        return f"-agentpath:{library(root)}={async_options(self.patterns[0], self.output)}"

    def attach(self, pid: int, installed: Sequence[Any] = ()) -> None:
        """Starts counting in a running JVM (JFR.start, or async-profiler through JVMTI.agent_load)."""
        self.pid = pid
        self.output.unlink(missing_ok=True)
        if self.backend == JFR:
            from jvmlab.jdk.attach import diagnostic

            settings = jfr_settings(self.patterns)
            diagnostic(
                pid,
                "JFR.start",
                f"name={RECORDING}",
                *settings,
                f"filename={self.output}",
                "dumponexit=true",
                installed=installed,
            )
        else:
            from jvmlab.profile.record import agent_command

            agent_command(pid, async_options(self.patterns[0], self.output), installed)
        self.started_at = time.monotonic()

    def started_with_jvm(self) -> None:
        self.started_at = time.monotonic()

    def stop(self, installed: Sequence[Any] = ()) -> None:
        """Stops counting in the running JVM (the file is written); the window ends now."""
        if not self.running or self.pid is None:
            return
        self.stopped_at = time.monotonic()
        if self.backend == JFR:
            from jvmlab.jdk.attach import diagnostic

            diagnostic(self.pid, "JFR.stop", f"name={RECORDING}", installed=installed)
        else:
            from jvmlab.profile.record import agent_command

            agent_command(self.pid, async_options(self.patterns[0], self.output, action="stop"), installed)

    def ended_with_jvm(self) -> None:
        """The JVM exited while counting: it wrote the file as it exited; the window ended then."""
        if self.running:
            self.stopped_at = time.monotonic()

    def read(self) -> Counts:
        window = None
        if self.started_at is not None and self.stopped_at is not None:
            window = self.stopped_at - self.started_at
        if self.backend == JFR:
            if not self.output.is_file():
                raise CountError(f"{self.output}: the JVM wrote no recording of its calls")
            if self.jfr_tool is None:
                raise CountError("no `jfr` tool to read the recording: install a JDK 25+ (jvmlab jdks)")
            calls = counts_of_jfr(run_jfr_print(self.jfr_tool, self.output), self.patterns)
            return Counts(JFR, window, tuple(calls))
        return Counts(ASYNC_PROFILER, window, (self._read_stacks(),))

    def _read_stacks(self) -> CallCount:
        pattern = self.patterns[0]
        if not self.output.is_file() or self.output.stat().st_size == 0:
            return CallCount(pattern.text, 0)  # async-profiler writes nothing when nothing was called
        from jvmlab.profile.collapsed import read_collapsed

        return counts_of_stacks(dict(read_collapsed(self.output).stacks), pattern)


def session(
    texts: Sequence[str], major: int, output_dir: Path, jfr_tool: Path | None = None, where: str = "--count"
) -> Session:
    """A session counting `texts` on a JVM of this major version, its file in `output_dir`."""
    patterns = tuple(parse_patterns(texts, where))
    backend = check_patterns(patterns, major, where)
    name = "counts.jfr" if backend == JFR else "counts.collapsed"
    return Session(backend, patterns, output_dir / name, jfr_tool)


def jfr_tool_for(home: Path | None, installed: Sequence[Any] = ()) -> Path | None:
    """The `jfr` of the JVM's own JDK, else of an installed JDK 25+ (an older one cannot print
    jdk.MethodTiming)."""
    return find_tool("jfr", home, installed, min_major=JFR_FIRST_MAJOR)


# `jvmlab profile --count` --------------------------------------------------------------------------------

Installed = Callable[[], Sequence[Any]]


def _none() -> Sequence[Any]:
    return ()


def count_command(
    argv: Sequence[str], texts: Sequence[str], output_dir: Path, installed: Installed = _none
) -> tuple[int, Counts]:
    """Runs `java ...` counting from its start to its exit; (the JVM's exit code, the counts)."""
    from jvmlab.profile.record import check_java_command, stop

    check_java_command(argv)
    home = home_of_java(Path(shutil.which(argv[0]) or argv[0]).resolve())
    version = version_of_home(home)
    if version is None:
        raise UsageError(
            f"{argv[0]}: cannot tell its JDK's version (no release file in {home}); give the java of a JDK "
            "home (e.g. $JAVA_HOME/bin/java) to count calls"
        )
    s = session(texts, version.major, output_dir)
    if s.backend == JFR:
        s.jfr_tool = jfr_tool_for(home) or jfr_tool_for(None, installed())
    proc = subprocess.Popen([argv[0], s.start_flag(), *argv[1:]], preexec_fn=child_setup())  # noqa: PLW1509
    s.started_with_jvm()
    try:
        code = proc.wait()
    except KeyboardInterrupt:
        stop(proc)
        raise
    finally:
        stop(proc)
        s.ended_with_jvm()
    return code, s.read()


def _major_of_pid(pid: int, installed: Sequence[Any]) -> int:
    """From the release file of the JVM's JDK, else (a home without one) from the JVM itself."""
    from jvmlab.jdk.attach import java_home_of, jvm_version

    home = java_home_of(pid)
    version = version_of_home(home) if home is not None else None
    return (version or jvm_version(pid, installed)).major


def count_pid(
    pid: int, texts: Sequence[str], seconds: float, output_dir: Path, installed: Installed = _none
) -> Counts:
    """Counts in a running JVM for `seconds`, then stops counting (always)."""
    from jvmlab.jdk.attach import check_pid, java_home_of

    for text in texts:
        parse_pattern(text)  # a bad pattern is said before anything touches the JVM
    check_pid(pid)
    jdks = installed()
    s = session(texts, _major_of_pid(pid, jdks), output_dir)
    if s.backend == JFR:
        s.jfr_tool = jfr_tool_for(java_home_of(pid), jdks)
    s.attach(pid, jdks)
    try:
        time.sleep(seconds)
    finally:
        if Path(f"/proc/{pid}").exists():
            s.stop(jdks)
        else:
            s.ended_with_jvm()
    return s.read()
