"""Pruning: Optuna's percentile pruner fed with the running mean of the workload's metric stops a candidate
that trails the earlier ones, not one that keeps up; a progress that asks to stop ends a real trial early
as `pruned`, its JVM gone."""

from __future__ import annotations

import tomllib

import optuna
import pytest

from jvmlab.experiment.spec import parse_spec
from jvmlab.tune.objectives import objectives_of
from jvmlab.tune.pruning import PRUNE_STARTUP, PRUNE_WARMUP_S, PruningProgress, make_pruner

SPEC = """
name = "p"
[workload]
# 50 MB/s: a real trial is stopped early, how fast it churns does not matter (flat out costs 5 times the CPU)
command = ["{java}", "{jvm_opts}", "-cp", "{classes}", "jvmlab.workloads.GcChurn", "--duration-s=20",
           "--rate-mb-s=50"]
ready = { log = "t_s=1 ", timeout_s = 30 }
metric = { name = "mb_per_s", regex = "rate_mb_s=(?P<value>[0-9.]+)" }
[tune]
objectives = [{ measure = "mb_per_s" }]
budget = { trials = 5 }
"""


class Quiet:
    def trial_started(self, *args):
        pass

    def trial_finished(self, *args):
        pass

    def metric(self, t_s, value):
        return None


def study_with_history(level: float = 100.0) -> tuple[optuna.Study, object]:
    spec = parse_spec(tomllib.loads(SPEC), source="p.toml")
    pruner = make_pruner(spec, objectives_of(spec))
    assert pruner is not None
    study = optuna.create_study(direction="maximize", pruner=pruner)
    for _ in range(PRUNE_STARTUP + 1):  # earlier candidates, measured in full
        t = study.ask()
        for step in range(30):
            t.report(level + step % 3, step)
        study.tell(t, level)
    return study, spec


def feed(study: optuna.Study, spec, value: float, seconds: int = 20) -> str | None:
    progress = PruningProgress(Quiet(), study.ask())
    for t_s in range(seconds):
        stop = progress.metric(float(t_s), value)
        if stop:
            return stop
    return None


def test_a_candidate_that_trails_is_pruned_after_the_warm_up_and_one_that_keeps_up_is_not():
    study, spec = study_with_history()
    stop = feed(study, spec, 50.0)
    assert stop is not None and stop.startswith(f"pruned at {PRUNE_WARMUP_S} s")
    assert feed(study, spec, 95.0) is None  # worse than all, but within the 10 % margin: noise, not pruned
    assert feed(study, spec, 85.0) is not None


def test_no_pruning_before_enough_candidates_or_for_other_objectives():
    spec = parse_spec(tomllib.loads(SPEC), source="p.toml")
    study = optuna.create_study(direction="maximize", pruner=make_pruner(spec, objectives_of(spec)))
    assert feed(study, spec, 1.0) is None  # nothing to compare with yet
    rss = parse_spec(
        tomllib.loads(SPEC.replace('measure = "mb_per_s"', 'measure = "rss_peak_mb"')), source="p"
    )
    assert make_pruner(rss, objectives_of(rss)) is None  # no time series to read early
    off = parse_spec(tomllib.loads(SPEC + "prune = false\n"), source="p")
    assert make_pruner(off, objectives_of(off)) is None


@pytest.mark.jvm
def test_a_progress_that_asks_to_stop_ends_the_trial_as_pruned(tmp_path):
    import psutil

    from jvmlab.experiment.execution import jdks
    from jvmlab.experiment.execution.trial import TrialSetup, run_trial
    from jvmlab.experiment.storage import PRUNED

    spec = parse_spec(tomllib.loads(SPEC), source="p.toml")
    (jdk,) = jdks.resolve(["21"])
    setup = TrialSetup(
        "p#1", jdk.java, jdk.home, jdk.major, "HotSpot", (), tmp_path / "t", jdks.classes_for(spec)
    )
    setup.run_dir.mkdir()
    seen: list[float] = []

    def stop_after_two(t_s: float, value: float) -> str | None:
        seen.append(t_s)
        return "pruned: trails" if len(seen) >= 2 else None

    outcome = run_trial(spec, setup, on_metric=stop_after_two)
    assert outcome.state == PRUNED and outcome.reason == "pruned: trails"
    assert outcome.elapsed_s is not None and outcome.elapsed_s < 15  # the workload would run 20 s
    java = [
        p for p in psutil.process_iter(["cmdline"]) if str(setup.run_dir) in " ".join(p.info["cmdline"] or [])
    ]
    assert not java
