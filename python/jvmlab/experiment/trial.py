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
import urllib.request
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from jvmlab.errors import JvmLabError
from jvmlab.experiment import interrupt, telemetry
from jvmlab.experiment.command import build_argv, fill
from jvmlab.experiment.process import end_tree, spawn
from jvmlab.experiment.sampler import ProcessSampler
from jvmlab.experiment.spec import ExperimentSpec, Metric
from jvmlab.experiment.store import FAILED, OK, TIMEOUT, TrialOutcome
from jvmlab.experiment.watch import Watch, pump, tail

POLL_S = 0.05


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


@dataclass(frozen=True)
class Launch:
    argv: list[str]
    workdir: Path
    gc_log: Path | None
    jfr: Path | None
    env: dict[str, str]


def prepare(spec: ExperimentSpec, setup: TrialSetup) -> Launch:
    """Creates the trial's folder (a fresh copy of the working-directory template) and its argv."""
    if setup.run_dir.exists():
        shutil.rmtree(setup.run_dir)  # what a killed attempt left
    setup.run_dir.mkdir(parents=True)
    workdir = setup.run_dir / "workdir"
    template = spec.template_dir()
    if template is not None:
        shutil.copytree(template, workdir, symlinks=True)
    else:
        workdir.mkdir()
    gc_log = setup.run_dir / "gc.log" if spec.telemetry.gc_log else None
    jfr = setup.run_dir / "recording.jfr" if spec.telemetry.jfr else None
    jvm_opts = list(setup.flags)
    if gc_log is not None:
        jvm_opts += telemetry.gc_log_flags(setup.jdk_major, gc_log, vm=setup.jdk_vm)
    if jfr is not None:
        jvm_opts += telemetry.jfr_flags(jfr)
    values = {
        "java": str(setup.java),
        "workdir": str(workdir),
        "trial_id": setup.trial_id,
        "classes": str(setup.classes),
        "jdk_home": str(setup.jdk_home),
        "spec_dir": spec.spec_dir,
    }
    argv = build_argv(spec.workload.command, values, jvm_opts)
    env = {**os.environ, **{k: fill(v, values) for k, v in spec.workload.env.items()}}
    env["JAVA_HOME"] = str(setup.jdk_home)
    return Launch(argv, workdir, gc_log, jfr, env)


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


def gc_figures(gc_log: Path | None) -> dict[str, Any] | None:
    """The GC summary of the trial's log (foundation issue), or the reason there is none."""
    if gc_log is None:
        return None
    if not gc_log.exists():
        return {"error": "no GC log was written"}
    from jvmlab.gclog import summarize  # deferred: only trials with a GC log need the parser

    try:
        return summarize(gc_log).model_dump(mode="json")
    except JvmLabError as e:
        return {"error": str(e)}


def run_trial(
    spec: ExperimentSpec,
    setup: TrialSetup,
    *,
    on_metric: Callable[[float, float], None] | None = None,
) -> TrialOutcome:
    """Runs one trial to its end and returns its outcome (the store is the caller's business)."""
    launch = prepare(spec, setup)
    w = spec.workload
    stdout_path, stderr_path = setup.run_dir / "stdout.log", setup.run_dir / "stderr.log"
    t0 = time.monotonic()
    try:
        proc = spawn(
            launch.argv,
            cwd=launch.workdir,
            env=launch.env,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            nice=spec.trial.nice,
            cpus=spec.trial.cpus,
        )
    except OSError as e:
        cannot = f"cannot start {launch.argv[0]}: {e.strerror or e}"
        return TrialOutcome(state=FAILED, reason=cannot, argv=launch.argv)
    watch = Watch(
        t0=t0,
        ready_pattern=re.compile(w.ready.log) if w.ready and w.ready.log else None,
        stop_pattern=re.compile(w.stop.log) if w.stop.log else None,
        metric=w.metric,
        sends=w.stdin,
        stdin=proc.stdin,
    )
    if w.ready is None:
        watch.ready_at = 0.0
    assert proc.stdout is not None and proc.stderr is not None
    pumps = [pump(proc.stdout, stdout_path, watch), pump(proc.stderr, stderr_path, watch)]
    sampler = ProcessSampler(proc.pid, spec.telemetry.sample_interval_s, t0=t0).start()
    state, stopped_by_us = OK, False
    reason: str | None = None
    reported = 0
    try:
        while proc.poll() is None:
            interrupt.check()
            now = time.monotonic() - t0
            if on_metric is not None and len(watch.metric_points) > reported:
                reported = len(watch.metric_points)
                on_metric(*watch.metric_points[-1])
            if now > spec.trial.timeout_s:
                state, reason = TIMEOUT, f"trial timeout: still running after {spec.trial.timeout_s:g} s"
                break
            if watch.ready_at is None:
                assert w.ready is not None
                if (w.ready.port and _port_open(w.ready.port)) or (w.ready.url and _url_answers(w.ready.url)):
                    watch.ready_at = now
                elif now > w.ready.timeout_s:
                    state, reason = FAILED, f"not ready within {w.ready.timeout_s:g} s (workload.ready)"
                    break
            elif (
                w.stop.duration_s and now - watch.ready_at >= w.stop.duration_s
            ) or watch.stop_seen.is_set():
                stopped_by_us = True
                if w.stop.send:
                    watch.send(w.stop.send)
                    with contextlib.suppress(subprocess.TimeoutExpired):
                        proc.wait(timeout=w.stop.grace_s)
                break
            time.sleep(POLL_S)
    finally:
        end_tree(proc)
        sampler.stop()
        for p in pumps:
            p.join(timeout=5)
    elapsed = time.monotonic() - t0
    code = proc.returncode
    if state == OK and not stopped_by_us and code != 0:
        state = FAILED
        reason = _failure_reason(code, watch, launch.workdir)
    series = {"metric": metric_series(watch.metric_points, w.metric)} if w.metric else {}
    series.update(sampler.series)
    artifacts = {"stdout": str(stdout_path), "stderr": str(stderr_path)}
    if state == OK and not spec.trial.keep_workdir:
        shutil.rmtree(launch.workdir, ignore_errors=True)
    else:
        artifacts["workdir"] = str(launch.workdir)
    for kind, path in (("gc_log", launch.gc_log), ("jfr", launch.jfr)):
        if path is not None and path.exists():
            artifacts[kind] = str(path)
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
    )


def _failure_reason(code: int | None, watch: Watch, workdir: Path) -> str:
    crash = sorted(workdir.glob("hs_err_pid*.log"))
    if crash:
        return f"JVM crashed (exit code {code}; {crash[0].name})"
    if watch.oom_line:
        return f"{watch.oom_line} (exit code {code})"
    if code is not None and code < 0:
        return f"killed by signal {-code}"
    return f"exit code {code}"
