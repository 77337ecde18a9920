"""The load levels of a trial: each one run against the ready workload, by jvmlab's open-model driver or by
another load tool whose results file is imported. Each level's measured window is kept in wall-clock time,
so that afterwards the GC log and the process samples can be cut to exactly that window."""

from __future__ import annotations

import os
import subprocess
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from jvmlab.errors import JvmLabError
from jvmlab.experiment.execution.command import fill
from jvmlab.experiment.execution.process import end_tree, spawn
from jvmlab.experiment.spec import Level, Load
from jvmlab.experiment.storage import LevelOutcome
from jvmlab.load.driver import LoadPlan, drive
from jvmlab.load.result import LoadResult

# A load tool gets this long beyond its level's time before it is ended.
TOOL_GRACE_S = 60.0
POLL_S = 0.2


class Stop(Exception):  # noqa: N818 - a signal to end the trial, not an error of the program
    """Ends the levels early: the workload exited or the trial ran out of time. `state` and `reason` are
    the trial's."""

    def __init__(self, state: str, reason: str):
        super().__init__(reason)
        self.state = state
        self.reason = reason


@dataclass(frozen=True)
class LevelRun:
    """One level as run: its measured window (wall clock) and the load's result."""

    position: int
    level: Level
    start_unix_s: float
    end_unix_s: float
    result: LoadResult


def levels_of_trial(load: Load, only: str | None) -> list[tuple[int, Level]]:
    """(position in the spec, level) of the levels a trial takes: all, or the one of a fresh-JVM trial."""
    return [(i, lv) for i, lv in enumerate(load.levels) if only is None or lv.label == only]


def run_level(
    load: Load,
    position: int,
    level: Level,
    *,
    url: str,
    values: Mapping[str, str],
    run_dir: Path,
    check: Callable[[], None],
) -> LevelRun:
    """Runs one level. `check` is called about every second and raises Stop to end it."""
    if load.tool is None:
        return _drive(load, position, level, url, check)
    return _tool(load, position, level, url, values, run_dir, check)


def _drive(load: Load, position: int, level: Level, url: str, check: Callable[[], None]) -> LevelRun:
    plan = LoadPlan(
        url=url,
        rate=level.rate,
        duration_s=level.duration_s,
        warmup_s=level.warmup_s,
        timeout_s=load.timeout_s,
        connections=load.connections,
        tick_s=load.tick_s,
        mix=tuple(r.request() for r in load.request),
        seed=load.seed,
    )
    result = drive(plan, on_second=lambda _: check())
    assert result.driver is not None
    start = result.driver.start_unix_s + level.warmup_s
    return LevelRun(position, level, start, start + level.duration_s, result)


def _tool(
    load: Load,
    position: int,
    level: Level,
    url: str,
    values: Mapping[str, str],
    run_dir: Path,
    check: Callable[[], None],
) -> LevelRun:
    """Runs the load tool's command for one level, then imports its results file ({result})."""
    from jvmlab.load.importers import read

    assert load.tool is not None
    result_path = run_dir / f"load-{position}-{level.label}.out"
    tool_values = {
        **values,
        "url": url,
        "rate": f"{level.rate:g}",
        "warmup_s": f"{level.warmup_s:g}",
        "duration_s": f"{level.duration_s:g}",
        "level": level.label,
        "result": str(result_path),
    }
    argv = [fill(item, tool_values) for item in load.tool.command]
    log = run_dir / f"load-{position}-{level.label}.log"
    began = time.time()
    with open(log, "wb") as out:
        try:
            proc = spawn(argv, cwd=run_dir, env=os.environ, stdout=out, stderr=subprocess.STDOUT).proc
        except OSError as e:
            raise Stop("failed", f"level {level.label}: cannot start the load tool {argv[0]}: {e}") from None
        try:
            _wait_tool(proc, level, check)
        finally:
            end_tree(proc)
    if proc.returncode != 0:
        raise Stop("failed", f"level {level.label}: the load tool exited with {proc.returncode} (see {log})")
    try:
        result = read(result_path, format=load.tool.format, warmup_s=level.warmup_s, target_rps=level.rate,
                      corrected=load.tool.corrected)  # fmt: skip
    except JvmLabError as e:
        raise Stop("failed", f"level {level.label}: {e}") from None
    # The tool's own start-up sits in front of its first request: the window is approximate by that much.
    start = began + level.warmup_s
    return LevelRun(position, level, start, start + level.duration_s, result)


def _wait_tool(proc: subprocess.Popen[bytes], level: Level, check: Callable[[], None]) -> None:
    deadline = time.monotonic() + level.warmup_s + level.duration_s + TOOL_GRACE_S
    while proc.poll() is None:
        check()
        if time.monotonic() > deadline:
            raise Stop("failed", f"level {level.label}: the load tool ran {TOOL_GRACE_S:g} s past its time")
        time.sleep(POLL_S)


def process_in_window(
    series: Mapping[str, list[tuple[float, float]]], start_s: float, end_s: float
) -> dict[str, Any]:
    """The process samples of one window (seconds of the trial's clock): peak RSS, CPU used, threads."""

    def inside(name: str) -> list[float]:
        return [v for t, v in series.get(name, []) if start_s <= t <= end_s]

    rss, threads = inside("rss_bytes"), inside("threads")
    user, system = inside("cpu_user_s"), inside("cpu_system_s")
    cpu = (user[-1] - user[0] + system[-1] - system[0]) if len(user) > 1 and len(system) > 1 else None
    figures = {
        "samples": len(rss),
        "rss_peak_bytes": int(max(rss)) if rss else None,
        "cpu_s": cpu,
        "cpu_percent": 100 * cpu / (end_s - start_s) if cpu is not None and end_s > start_s else None,
        "threads_max": int(max(threads)) if threads else None,
    }
    throttled, memory = inside("cgroup_throttled_percent"), inside("cgroup_memory_bytes")
    if throttled or memory:  # the trial ran in a container: its cgroup's view of the window
        figures["throttled_percent"] = sum(throttled) / len(throttled) if throttled else None
        figures["cgroup_memory_peak_bytes"] = int(max(memory)) if memory else None
    return figures


def outcome(
    run: LevelRun,
    *,
    t0_unix_s: float,
    jvm_start_unix_s: float | None,
    gc: Callable[[tuple[float, float]], dict[str, Any] | None],
    series: Mapping[str, list[tuple[float, float]]],
) -> LevelOutcome:
    """What is stored of a level: the load, and the GC summary and process figures of its window. The
    window goes onto the GC log's uptime axis through the JVM's start read off the log; without it, the
    trial's start stands in for the JVM's (a little early: the JVM starts after its process)."""
    start_s, end_s = run.start_unix_s - t0_unix_s, run.end_unix_s - t0_unix_s
    base = jvm_start_unix_s if jvm_start_unix_s is not None else t0_unix_s
    uptime = (run.start_unix_s - base, run.end_unix_s - base)
    return LevelOutcome(
        position=run.position,
        name=run.level.label,
        rate=run.level.rate,
        start_s=start_s,
        end_s=end_s,
        uptime_start_s=uptime[0],
        uptime_end_s=uptime[1],
        load=run.result.to_json(),
        gc=gc(uptime),
        process=process_in_window(series, start_s, end_s),
    )
