"""One trial: a fresh working directory, one JVM (with jvmlab's telemetry flags), readiness, stdin script,
stop condition, timeout; then the outcome with the workload metric, process metrics and GC summary.

A failure of the workload (rejected flags, crash, OutOfMemoryError, not ready in time, timeout) is a state
of the trial with its reason, never an exception. Ctrl-C ends the whole process tree, then propagates.
"""

from __future__ import annotations

import contextlib
import os
import re
import shutil
import socket
import subprocess
import time
import urllib.error
import urllib.parse
import urllib.request
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from jvmlab.container import Limits
from jvmlab.errors import ContainerError, InputError, JvmLabError, os_error_reason
from jvmlab.experiment.execution import interrupt, levels, telemetry
from jvmlab.experiment.execution.command import build_argv, fill
from jvmlab.experiment.execution.containers import container_of, container_result
from jvmlab.experiment.execution.counting import Counting, start_counting
from jvmlab.experiment.execution.jit import JitWatch, jit_not_started, start_jit
from jvmlab.experiment.execution.perfstat import PerfStat, start_perf
from jvmlab.experiment.execution.process import end_tree, spawn
from jvmlab.experiment.execution.profiling import Profiling, start_profiling
from jvmlab.experiment.execution.sampler import ProcessSampler
from jvmlab.experiment.execution.watch import Watch, pump, tail
from jvmlab.experiment.spec import ExperimentSpec, Load, Metric
from jvmlab.experiment.storage import FAILED, OK, OOM_KILLED, PRUNED, TIMEOUT, LevelOutcome, TrialOutcome
from jvmlab.experiment.storage.artifacts import STDERR_FILE, STDOUT_FILE
from jvmlab.gclog.clock import jvm_start_epoch
from jvmlab.jdk.native_memory import tracking

POLL_S = 0.05
DEFAULT_READY_TIMEOUT_S = 120.0


@dataclass(frozen=True)
class TrialSetup:
    """Everything a trial needs besides the spec: which JVM, which flags, where to put its files."""

    trial_id: str
    java: Path
    jdk_home: Path
    jdk_major: int
    jdk_vm: str
    flags: tuple[str, ...]
    run_dir: Path
    classes: Path
    level: str | None = None  # the one load level of a fresh-JVM trial; None: all of them
    container: str | None = None  # the name of its container ([matrix.containers]); None: none
    limits: Limits | None = None  # that container's limits


@dataclass(frozen=True)
class Launch:
    argv: list[str]
    workdir: Path
    gc_log: Path | None
    jfr: Path | None
    env: dict[str, str]
    values: dict[str, str]  # the placeholders' values
    url: str | None = None  # the load's URL, placeholders filled
    ready_port: int | None = None  # with a load and no workload.ready: ready when this port accepts


def free_port() -> int:
    """A TCP port free on loopback now (for {port}: the workload is told to listen on it)."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def prepare(spec: ExperimentSpec, setup: TrialSetup) -> Launch:
    """Creates the trial's folder (a fresh copy of the working-directory template) and its argv."""
    workdir = setup.run_dir / "workdir"
    template = spec.template_dir()
    try:
        if setup.run_dir.exists():
            shutil.rmtree(setup.run_dir)  # what a killed attempt left
        setup.run_dir.mkdir(parents=True)
        if template is not None:
            shutil.copytree(template, workdir, symlinks=True)
        else:
            workdir.mkdir()
    except OSError as e:
        where = e.filename or setup.run_dir
        raise InputError(str(where), f"cannot make the trial's folder: {os_error_reason(e)}") from None
    gc_log = setup.run_dir / "gc.log" if spec.telemetry.gc_log else None
    jfr = setup.run_dir / "recording.jfr" if spec.telemetry.jfr or spec.telemetry.jfr_events else None
    jvm_opts = list(setup.flags)
    if gc_log is not None:
        jvm_opts += telemetry.gc_log_flags(setup.jdk_major, gc_log, vm=setup.jdk_vm)
    if jfr is not None:
        settings = telemetry.jfr_settings(spec.telemetry.jfr_events, setup.jdk_home, setup.run_dir)
        jvm_opts += telemetry.jfr_flags(jfr, settings)
    jvm_opts += telemetry.jit_log_flags(spec.telemetry.jit, setup.jdk_major, setup.run_dir, vm=setup.jdk_vm)
    jvm_opts += telemetry.profiler_flags(bool(spec.telemetry.profile), setup.jdk_vm)
    values = {
        "java": str(setup.java),
        "workdir": str(workdir),
        "trial_id": setup.trial_id,
        "classes": str(setup.classes),
        "jdk_home": str(setup.jdk_home),
        "spec_dir": spec.spec_dir,
        "port": str(free_port()),
    }
    argv = build_argv(spec.workload.command, values, jvm_opts)
    env = {**os.environ, **{k: fill(v, values) for k, v in spec.workload.env.items()}}
    env["JAVA_HOME"] = str(setup.jdk_home)
    url = fill(spec.load.url, values) if spec.load is not None else None
    ready_port = None
    if url is not None and spec.workload.ready is None:
        ready_port = urllib.parse.urlsplit(url).port or 80
    return Launch(argv, workdir, gc_log, jfr, env, values, url, ready_port)


def _port_open(port: int) -> bool:
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=0.2):
            return True
    except OSError:
        return False


def _url_answers(url: str) -> bool:
    try:
        with urllib.request.urlopen(url, timeout=0.5):  # noqa: S310 - the user's own readiness URL
            return True
    except urllib.error.HTTPError:
        return True  # it answers, even if with an error status
    except (urllib.error.URLError, OSError, ValueError):
        return False


def metric_series(points: list[tuple[float, float]], metric: Metric) -> list[tuple[float, float]]:
    """The metric as a rate over time: as printed for a rate, per second between readings for a counter."""
    if metric.kind == "rate":
        return list(points)
    out = []
    for (t0, v0), (t1, v1) in zip(points, points[1:], strict=False):
        if t1 > t0:
            out.append((t1, (v1 - v0) / (t1 - t0)))
    return out


def metric_summary(series: list[tuple[float, float]], ready_s: float, warmup_s: float) -> dict[str, Any]:
    """Mean over the measured part (after readiness + warm-up), and early vs late thirds of it."""
    measured = [v for t, v in series if t >= ready_s + warmup_s]
    if not measured:
        return {"points": len(series), "mean": None, "early_mean": None, "late_mean": None, "last": None}
    third = max(1, len(measured) // 3)
    return {
        "points": len(series),
        "measured_points": len(measured),
        "mean": sum(measured) / len(measured),
        "early_mean": sum(measured[:third]) / third,
        "late_mean": sum(measured[-third:]) / third,
        "min": min(measured),
        "max": max(measured),
        "last": measured[-1],
    }


def gc_figures(gc_log: Path | None, window: tuple[float, float] | None = None) -> dict[str, Any] | None:
    """The GC summary of the trial's log (foundation issue), or the reason there is none; `window`
    (uptime seconds) restricts it to what happened then."""
    if gc_log is None:
        return None
    if not gc_log.exists():
        return {"error": "no GC log was written"}
    from jvmlab.metrics import summarize_path  # deferred: only trials with a GC log need the parser

    try:
        return summarize_path(gc_log, window=window).model_dump(mode="json")
    except JvmLabError as e:
        return {"error": str(e)}


@dataclass
class Running:
    """A trial's process as it runs, and what watching it needs."""

    spec: ExperimentSpec
    launch: Launch
    proc: subprocess.Popen[bytes]
    watch: Watch
    t0: float
    on_metric: Callable[[float, float], str | None] | None
    reported: int = 0

    def now(self) -> float:
        return time.monotonic() - self.t0

    def tick(self) -> tuple[str, str] | None:
        """What every poll does: Ctrl-C, the live metric, the trial timeout (returned as the trial's end)."""
        interrupt.check()
        points = self.watch.metric_points
        if self.on_metric is not None and len(points) > self.reported:
            self.reported = len(points)
            stop = self.on_metric(*points[-1])  # a reason to stop early (jvmlab tune's pruner), or None
            if stop:
                return PRUNED, stop
        if self.now() > self.spec.trial.timeout_s:
            return TIMEOUT, f"trial timeout: still running after {self.spec.trial.timeout_s:g} s"
        return None

    def until_ready(self) -> tuple[str, str] | None:
        """Waits for readiness (a log line, a port, a URL); the trial's end if it never comes."""
        ready = self.spec.workload.ready
        port = ready.port if ready is not None and ready.port else self.launch.ready_port
        if ready is None and port is None:
            self.watch.ready_at = 0.0
            return None
        timeout_s = ready.timeout_s if ready is not None else DEFAULT_READY_TIMEOUT_S
        url = fill(ready.url, self.launch.values) if ready is not None and ready.url else None
        while self.proc.poll() is None:
            ended = self.tick()
            if ended:
                return ended
            if self.watch.ready_at is not None:
                return None
            if (port and _port_open(port)) or (url and _url_answers(url)):
                self.watch.ready_at = self.now()
                return None
            if self.now() > timeout_s:
                what = "workload.ready" if ready is not None else f"port {port} of load.url"
                return FAILED, f"not ready within {timeout_s:g} s ({what})"
            time.sleep(POLL_S)
        return None  # it exited: its exit code tells

    def until_stop(self) -> tuple[tuple[str, str] | None, bool]:
        """Waits for the stop condition; (the trial's end if not ok, whether jvmlab stopped it)."""
        stop = self.spec.workload.stop
        while self.proc.poll() is None:
            ended = self.tick()
            if ended:
                return ended, False
            assert self.watch.ready_at is not None
            if (stop.duration_s and self.now() - self.watch.ready_at >= stop.duration_s) or (
                self.watch.stop_seen.is_set()
            ):
                self.stop_gracefully()
                return None, True
            time.sleep(POLL_S)
        return None, False

    def stop_gracefully(self) -> None:
        """Sends the stop text, if any, and gives the process its grace time to exit."""
        stop = self.spec.workload.stop
        if stop.send:
            self.watch.send(stop.send)
            with contextlib.suppress(subprocess.TimeoutExpired):
                self.proc.wait(timeout=stop.grace_s)

    def check_during_load(self) -> None:
        """Raises levels.Stop when the workload has exited or the trial is out of time."""
        if self.proc.poll() is not None:
            raise levels.Stop(FAILED, f"the workload exited (code {self.proc.returncode}) during the load")
        ended = self.tick()
        if ended:
            raise levels.Stop(*ended)

    def load_levels(
        self, load: Load, only: str | None
    ) -> tuple[list[levels.LevelRun], tuple[str, str] | None]:
        """Runs the trial's load levels; (the levels done, the trial's end if not ok)."""
        done: list[levels.LevelRun] = []
        try:
            for position, level in levels.levels_of_trial(load, only):
                run = levels.run_level(
                    load,
                    position,
                    level,
                    url=self.launch.url or "",
                    values=self.launch.values,
                    run_dir=self.launch.workdir.parent,
                    check=self.check_during_load,
                )
                done.append(run)
        except levels.Stop as e:
            return done, (e.state, e.reason)
        except JvmLabError as e:
            return done, (FAILED, str(e))
        self.stop_gracefully()
        return done, None


def run_trial(
    spec: ExperimentSpec,
    setup: TrialSetup,
    *,
    on_metric: Callable[[float, float], str | None] | None = None,
) -> TrialOutcome:
    """Runs one trial to its end and returns its outcome (the store is the caller's business)."""
    launch = prepare(spec, setup)
    w = spec.workload
    stdout_path, stderr_path = setup.run_dir / STDOUT_FILE, setup.run_dir / STDERR_FILE
    try:
        group = container_of(setup.trial_id, setup.limits)
    except ContainerError as e:
        return TrialOutcome(state=FAILED, reason=str(e), argv=launch.argv)
    counters = setup.run_dir / "cgroup.json"
    t0, t0_unix = time.monotonic(), time.time()
    try:
        started = spawn(
            launch.argv,
            cwd=launch.workdir,
            env=launch.env,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            nice=spec.trial.nice,
            cpus=spec.trial.cpus,
            cgroup=group.supervision(counters) if group is not None else None,
        )
    except OSError as e:
        if group is not None:
            group.remove()
        cannot = f"cannot start {launch.argv[0]}: {e.strerror or e}"
        return TrialOutcome(state=FAILED, reason=cannot, argv=launch.argv)
    # proc is the supervisor (process.py): the samples are of the tree below its reaper, attaching is to the
    # command itself.
    proc, pid = started.proc, started.pid
    watch = Watch(
        t0=t0,
        ready_pattern=re.compile(w.ready.log) if w.ready and w.ready.log else None,
        stop_pattern=re.compile(w.stop.log) if w.stop.log else None,
        metric=w.metric,
        sends=w.stdin,
        stdin=proc.stdin,
    )
    assert proc.stdout is not None and proc.stderr is not None
    pumps = [pump(proc.stdout, stdout_path, watch), pump(proc.stderr, stderr_path, watch)]
    sampler = ProcessSampler(
        started.reaper,
        spec.telemetry.sample_interval_s,
        t0=t0,
        below_only=True,
        group=group,
        nmt_pid=pid if tracking(launch.argv) else None,
    ).start()
    running = Running(spec, launch, proc, watch, t0, on_metric)
    ended: tuple[str, str] | None = None
    stopped_by_us = False
    level_runs: list[levels.LevelRun] = []
    profiling = None
    counting: Counting | None = None
    jit: JitWatch | str | None = None
    perf: PerfStat | None = None
    try:
        ended = running.until_ready()
        if ended is None and proc.poll() is None and spec.telemetry.perf:
            perf = start_perf(pid, setup.run_dir)
        if ended is None and proc.poll() is None and spec.telemetry.jit is not None:
            jit_log = telemetry.jit_artifacts(spec.telemetry.jit, setup.jdk_major, setup.run_dir).get(
                "jit_log"
            )
            jit = start_jit(
                pid,
                spec.telemetry.sample_interval_s,
                t0,
                argv=launch.argv,
                vm=setup.jdk_vm,
                jit_log=jit_log,
            )
        if ended is None and proc.poll() is None and spec.telemetry.profile is not None:
            profiling = start_profiling(
                spec.telemetry.profile, pid, setup.run_dir, setup.java, setup.jdk_major
            )
        if ended is None and proc.poll() is None and spec.telemetry.count:
            counting = start_counting(
                spec.telemetry.count, pid, setup.jdk_major, setup.jdk_home, setup.run_dir
            )
        if ended is None and proc.poll() is None:
            if spec.load is not None:
                level_runs, ended = running.load_levels(spec.load, setup.level)
                stopped_by_us = ended is None
            else:
                ended, stopped_by_us = running.until_stop()
    finally:
        try:  # the measured window ends here: perf is never left running, the JVM never outlives an error
            if perf is not None:
                perf.stop()
            if isinstance(jit, JitWatch):
                jit.finish(alive=proc.poll() is None)
        finally:
            if perf is not None:
                perf.kill()
        if counting is not None:
            counting.stop(alive=proc.poll() is None)
        if profiling is not None and proc.poll() is None:
            profiling.stop()
        end_tree(proc)
        sampler.stop()
        for p in pumps:
            p.join(timeout=5)
    elapsed = time.monotonic() - t0
    code = proc.returncode
    state, reason = ended if ended is not None else (OK, None)
    if state == OK and not stopped_by_us and code != 0:
        state = FAILED
        reason = _failure_reason(code, watch, launch.workdir)
    cgroup = container_result(
        setup.container, setup.limits, group, counters, sampler.series, elapsed, sampler.nmt_peak
    )
    if cgroup is not None and cgroup["oom_killed"]:
        state, reason = OOM_KILLED, cgroup["oom_killed"]
    series = {"metric": metric_series(watch.metric_points, w.metric)} if w.metric else {}
    series.update(sampler.series)
    if isinstance(jit, JitWatch):
        series.update(jit.series)
    artifacts = {"stdout": str(stdout_path), "stderr": str(stderr_path)}
    if state == OK and not spec.trial.keep_workdir:
        shutil.rmtree(launch.workdir, ignore_errors=True)
    else:
        artifacts["workdir"] = str(launch.workdir)
    for kind, path in (("gc_log", launch.gc_log), ("jfr", launch.jfr)):
        if path is not None and path.exists():
            artifacts[kind] = str(path)
    for kind, path in telemetry.jit_artifacts(spec.telemetry.jit, setup.jdk_major, setup.run_dir).items():
        if path.is_file():
            artifacts[kind] = str(path)
    if perf is not None and perf.output.is_file():
        artifacts["perf"] = str(perf.output)
    if profiling is not None:
        artifacts.update(profiling.collect())
    counts = counting.result() if counting is not None else None
    if counting is not None and counting.output is not None and counting.output.is_file():
        artifacts["counts"] = str(counting.output)
    ready = watch.ready_at
    return TrialOutcome(
        state=state,
        reason=reason,
        elapsed_s=elapsed,
        ready_s=ready,
        exit_code=code,
        stderr_tail=tail(stderr_path) or tail(stdout_path) if state != OK else None,
        metric=metric_summary(series["metric"], ready or 0.0, spec.trial.warmup_s) if w.metric else None,
        process=sampler.summary(),
        gc=gc_figures(launch.gc_log),
        series=series,
        artifacts=artifacts,
        argv=launch.argv,
        levels=_level_outcomes(level_runs, launch, t0_unix, series) if spec.load is not None else None,
        profile_note=_profile_note(spec, profiling),
        counts=counts,
        jit=_jit_result(spec, jit),
        perf=perf.result() if perf is not None else _not_ready(spec.telemetry.perf),
        cgroup=cgroup,
    )


def _jit_result(spec: ExperimentSpec, jit: JitWatch | str | None) -> dict[str, Any] | None:
    """The trial's `jit` column; None when no JIT telemetry was asked."""
    if spec.telemetry.jit is None:
        return None
    from jvmlab.host import thp_mode

    if jit is None:
        return jit_not_started(
            "no code cache samples: the trial ended before its workload was ready", thp_mode()
        )
    return jit_not_started(jit, thp_mode()) if isinstance(jit, str) else jit.result()


def _not_ready(asked: bool) -> dict[str, Any] | None:
    if not asked:
        return None
    return {"events": {}, "figures": {}, "note": "no counters: the trial ended before its workload was ready"}


def _profile_note(spec: ExperimentSpec, profiling: Profiling | None) -> str | None:
    """The trial's profile note; None when no profile was asked."""
    if not spec.telemetry.profile:
        return None
    if profiling is None:
        return "no profile: the trial ended before its workload was ready"
    return profiling.note


def _level_outcomes(
    runs: list[levels.LevelRun], launch: Launch, t0_unix: float, series: dict[str, list[tuple[float, float]]]
) -> list[LevelOutcome]:
    gc_log = launch.gc_log
    jvm_start = jvm_start_epoch(gc_log) if gc_log is not None else None
    return [
        levels.outcome(
            run,
            t0_unix_s=t0_unix,
            jvm_start_unix_s=jvm_start,
            gc=lambda window: gc_figures(gc_log, window),
            series=series,
        )
        for run in runs
    ]


def _failure_reason(code: int | None, watch: Watch, workdir: Path) -> str:
    crash = sorted(workdir.glob("hs_err_pid*.log"))
    if crash:
        return f"JVM crashed (exit code {code}; {crash[0].name})"
    if watch.oom_line:
        return f"{watch.oom_line} (exit code {code})"
    if code is not None and code < 0:
        return f"killed by signal {-code}"
    return f"exit code {code}"
