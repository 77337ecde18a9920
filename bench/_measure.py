"""Stages of the benchmark and one measurement of a stage: a fresh child process under bench/_spawn.py."""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

BENCH = Path(__file__).resolve().parent
SPAWN = BENCH / "_spawn.py"
CHILD = BENCH / "_child.py"
JVMLAB = Path(sys.executable).with_name("jvmlab")
GCVIEWER_JAR = BENCH.parent / "build" / "gcviewer" / "gcviewer.jar"  # `make bench` fetches it


@dataclass(frozen=True)
class Stage:
    """What one child process runs. `timed_in_child`: the child times its own work (MB/s excludes
    interpreter start-up and imports); otherwise the time is the whole process, start to exit."""

    name: str
    label: str
    timed_in_child: bool
    needs_log: bool = True

    def argv(self, path: str, cli: bool) -> list[str]:
        if self.name == "e2e" and cli:
            return [str(JVMLAB), "gc", "summary", path, "--json"]
        if self.name == "parse-gz":
            return [sys.executable, str(CHILD), "parse", path + ".gz"]
        if self.name == "gcviewer":  # headless: parse, then write the summary table (-t SUMMARY)
            summary = f"{path}.gcviewer-summary.csv"
            java = shutil.which("java") or "java"  # posix_spawn takes a path, not a command name
            return [java, "-Xmx8g", "-jar", str(GCVIEWER_JAR), path, summary, "-t", "SUMMARY"]
        mode = "load" if self.name in ("e2e", "load") else self.name
        return [sys.executable, str(CHILD), mode] + ([path] if self.needs_log else [])


READ = Stage("read", "read, 1 MB chunks", timed_in_child=True)
LINES = Stage("lines", "native read + memchr line count (floor)", timed_in_child=True)
PARSE = Stage("parse", "native parse -> table", timed_in_child=True)
# The same log gzipped (-6): MB/s of the log as written, inflated on a thread of its own beside the parse
PARSE_GZ = Stage("parse-gz", "native parse of .gz -> table", timed_in_child=True)
STREAM = Stage("stream", "native parse -> summary", timed_in_child=True)
STARTUP = Stage("startup", "start-up + imports", timed_in_child=False, needs_log=False)
LOAD = Stage("load", "gclog.load().events", timed_in_child=False)
E2E = Stage("e2e", "jvmlab gc summary --json", timed_in_child=False)
E2E_FALLBACK = Stage("e2e", "gclog.load().events (no CLI)", timed_in_child=False)
# The reference: GCViewer 1.36 reading the same log and writing its summary, the whole JVM timed
GCVIEWER = Stage("gcviewer", "GCViewer 1.36 (whole JVM)", timed_in_child=False)


@dataclass(frozen=True)
class Run:
    """One measurement. `seconds` and `cpu_seconds` (user + sys) are what MB/s and MB/cpu-s divide by:
    the child's own timing of its work, or the whole process (see Stage.timed_in_child)."""

    log: str
    size_bytes: int
    stage: str
    rep: int
    ok: bool
    error: str | None
    seconds: float | None
    cpu_seconds: float | None
    wall_s: float | None
    cpu_s: float | None
    maxrss_bytes: int | None
    spawner_maxrss_bytes: int | None
    events: int | None
    child: dict[str, Any]


def _tail(path: Path, n: int = 400) -> str:
    try:
        return path.read_text(errors="replace")[-n:].strip()
    except OSError:
        return ""


def _spawn(argv: list[str], out: Path, err: Path, timeout_s: float) -> dict[str, Any]:
    cmd = [sys.executable, "-I", "-S", str(SPAWN), str(out), str(err), "--", *argv]
    p = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, start_new_session=True)
    try:
        stdout, stderr = p.communicate(timeout=timeout_s)
    except subprocess.TimeoutExpired:
        os.killpg(p.pid, signal.SIGKILL)  # the spawner and the child share this new session's group
        p.communicate()
        raise TimeoutError(f"no result after {timeout_s:g} s (raise it with --timeout)") from None
    if p.returncode != 0:
        raise RuntimeError(f"spawner failed: {stderr.decode(errors='replace').strip()}")
    return json.loads(stdout)


def measure(
    stage: Stage, log: str, path: Path | None, rep: int, cli: bool, work_dir: Path, timeout_s: float
) -> Run:
    """Runs the stage once in a fresh process; a failure is a Run with ok=False and the reason."""
    size = path.stat().st_size if path else 0
    out = work_dir / f"{log}.{stage.name}.out"
    err = work_dir / f"{log}.{stage.name}.err"
    try:
        r = _spawn(stage.argv(str(path), cli), out, err, timeout_s)
    except (TimeoutError, RuntimeError, ValueError) as e:
        return Run(log, size, stage.name, rep, ok=False, error=str(e), seconds=None, cpu_seconds=None,
                   wall_s=None, cpu_s=None, maxrss_bytes=None, spawner_maxrss_bytes=None, events=None,
                   child={})  # fmt: skip
    child, error = _child_output(stage, cli, out)
    if r["exit_code"] != 0:
        error = f"exit code {r['exit_code']}: {_tail(err)}"
    cpu_s = r["user_s"] + r["sys_s"]
    seconds = child.get("timed_s") if stage.timed_in_child else r["wall_s"]
    cpu_seconds = child.get("timed_cpu_s") if stage.timed_in_child else cpu_s
    return Run(
        log,
        size,
        stage.name,
        rep,
        ok=error is None,
        error=error,
        seconds=seconds,
        cpu_seconds=cpu_seconds,
        wall_s=r["wall_s"],
        cpu_s=cpu_s,
        maxrss_bytes=r["maxrss_bytes"],
        spawner_maxrss_bytes=r["spawner_maxrss_bytes"],
        events=child.get("events"),
        child=child,
    )


def _child_output(stage: Stage, cli: bool, out: Path) -> tuple[dict[str, Any], str | None]:
    """The child's JSON. For the CLI it is the summary: kept only as a check that it is JSON. GCViewer
    prints a log, not JSON: its exit code says whether it read the file."""
    if stage.name == "gcviewer":
        return {}, None
    try:
        data = json.loads(out.read_text())
    except (OSError, ValueError) as e:
        return {}, f"output is not JSON ({e}): {_tail(out, 200)!r}"
    if stage.name == "e2e" and cli:
        return {"summary_keys": sorted(data)[:20] if isinstance(data, dict) else type(data).__name__}, None
    return data, None


def probe_cli(timeout_s: float = 60) -> str | None:
    """None when `jvmlab gc summary --help` works, else why not."""
    if not JVMLAB.exists():
        return f"{JVMLAB} does not exist"
    try:
        p = subprocess.run(
            [str(JVMLAB), "gc", "summary", "--help"], capture_output=True, timeout=timeout_s, text=True
        )
    except subprocess.TimeoutExpired:
        return f"`jvmlab gc summary --help` did not finish in {timeout_s:g} s"
    if p.returncode != 0:
        last = (p.stderr.strip().splitlines() or ["no output"])[-1]
        return f"`jvmlab gc summary --help` exited with {p.returncode}: {last}"
    return None
