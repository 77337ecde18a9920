"""`[telemetry] profile` in experiments: each trial's JVM profiled from the moment it is ready, one event or
several in one async-profiler session (one artifact each), JFR's execution samples where async-profiler
cannot load, a note per trial saying which (shown by `jvmlab results` and the report), the variants' merged
flame graphs in the report (drawn in Chromium), and `jvmlab profile diff` of variants and of experiments."""

from __future__ import annotations

import os
import shutil
import sys
from pathlib import Path

import pytest

from jvmlab.cli.main import main
from jvmlab.experiment.analysis.profiles import profile_events, variant_profiles
from jvmlab.experiment.analysis.report_data import report_data
from jvmlab.experiment.storage import Store
from jvmlab.profile.collapsed import read_collapsed
from jvmlab.report.experiment.page import experiment_page
from jvmlab.report.html.page import FlameGraph, write

sys.path.insert(0, str(Path(__file__).parents[1] / "report"))
from browser import chromium, open_reports  # noqa: E402

SPEC = """
name = "{name}"
[workload]
command = ["{{java}}", "{{jvm_opts}}", "-cp", "{{classes}}", "jvmlab.workloads.GcChurn",
           "--duration-s={seconds}"]
ready = {{ log = "t_s=1 ", timeout_s = 30 }}
[matrix]
jdks = ["21"]
repetitions = {repetitions}
[matrix.flags]
{flags}
[trial]
timeout_s = 60
[telemetry]
gc_log = false
profile = {profile}
"""
ONE = "default = []"
TWO = 'g1 = []\nparallel = ["-XX:+UseParallelGC"]'

# one worker: the single-event trial (the module fixture) is made once, not once per worker
pytestmark = [pytest.mark.jvm, pytest.mark.xdist_group("profile-in-experiments")]


def run(tmp_path: Path, name: str, profile: str, *, flags: str = ONE, reps: int = 1, seconds: int = 3) -> str:
    spec = tmp_path / f"{name}.toml"
    text = SPEC.format(name=name, seconds=seconds, repetitions=reps, flags=flags, profile=profile)
    spec.write_text(text)
    db = str(tmp_path / "r.db")
    assert main(["run", str(spec), "--db", db, "--runs", str(tmp_path / "runs")]) == 0
    return db


def churn_frames(profile) -> bool:
    return any("GcChurn" in frame for stack in profile.stacks for frame in stack)


@pytest.fixture(scope="module")
def one_event(tmp_path_factory) -> str:
    """A store with one trial profiled for one event: the first test reads it, the JFR fallback's test diffs
    its own trial against it."""
    return run(tmp_path_factory.mktemp("one-event"), "one-event", '{ event = "cpu", interval = "10ms" }')


def test_each_trial_keeps_its_profile(one_event):
    store = Store.open(one_event)
    exp = store.latest_experiment("one-event")
    (trial,) = store.trials(exp.id)
    path = store.artifacts(trial.id)["profile"]
    assert profile_events(store, exp.id) == ["cpu"]
    store.close()
    profile = read_collapsed(path)
    assert profile.total > 20  # about 2 s after ready of a thread as busy as it can be
    assert churn_frames(profile)
    assert trial.profile_note.startswith("async-profiler cpu 10ms (")
    # loaded with the JVM (started at ready), inlined frames attributed from the first compilation on
    assert any(a.startswith("-agentpath:") and a.endswith("libasyncProfiler.so") for a in trial.argv)
    assert "-XX:+DebugNonSafepoints" in trial.argv


def test_several_events_variants_notes_report_and_diff(tmp_path, capsys):
    profile = '[{ event = "cpu", interval = "10ms" }, { event = "alloc" }]'
    db = run(tmp_path, "two-events", profile, flags=TWO, reps=2)
    capsys.readouterr()
    store = Store.open(db)
    try:
        exp = store.latest_experiment("two-events")
        trials = store.trials(exp.id)
        assert profile_events(store, exp.id) == ["cpu", "alloc"]
        kinds = set(store.artifacts(trials[0].id))
        assert {"profile", "profile:alloc", "profile_jfr"} <= kinds
        assert {t.profile_note for t in trials} == {
            "async-profiler cpu 10ms (perf_events software clock: no hardware counters here), alloc 512k"
        }
        variant = trials[0].variant
        cpu = variant_profiles(store, exp.id, variant)
        alloc = variant_profiles(store, exp.id, variant, "alloc")
        assert len(cpu) == 2 and all(p.event == "cpu" and p.total > 20 and churn_frames(p) for p in cpu)
        assert all(p.unit == "bytes" and p.total > 1 << 20 and churn_frames(p) for p in alloc)
        data = report_data(store, str(exp.id))
    finally:
        store.close()
    assert {(p.event, p.trials) for p in data.profiles} == {("cpu", 2), ("alloc", 2)}
    assert len(data.profiles) == 4  # 2 variants x 2 events, each its trials merged
    page = experiment_page(data, output=tmp_path / "report.html")
    blocks = [b for s in page.sections for c in s.walk() for b in c.blocks if isinstance(b, FlameGraph)]
    assert len(blocks) == 4 and len({b.id for b in blocks}) == 4
    write(page, tmp_path / "report.html")
    assert "alloc 512k" in (tmp_path / "report.html").read_text()

    assert main(["results", str(exp.id), "--db", db]) == 0
    assert "profile: async-profiler cpu 10ms" in capsys.readouterr().out.replace("\n", " ")

    out = tmp_path / "diff"
    g1, par = (f"{exp.id}:{v}" for v in sorted({t.variant for t in trials}))
    assert main(["profile", "diff", g1, par, "--db", db, "-o", str(out)]) == 0
    assert "what changed: share of all samples" in capsys.readouterr().out
    assert "GcChurn" in (out / "diff.html").read_text()  # the table has the largest changes: GC frames
    assert main(["profile", "diff", g1, par, "--db", db, "-o", str(out), "--event", "alloc"]) == 0
    assert "bytes" in (out / "diff.html").read_text()
    capsys.readouterr()
    assert main(["profile", "diff", str(exp.id), par, "--db", db, "-o", str(out)]) == 2
    err = capsys.readouterr().err
    assert (
        "has 2 variants: give EXPERIMENT:VARIANT, one of" in err and g1 in err and len(err.splitlines()) == 1
    )
    assert main(["profile", "diff", g1, par, "--db", db, "-o", str(out), "--event", "lock"]) == 2
    assert "--event lock: experiment" in capsys.readouterr().err

    if chromium() is None:
        if os.environ.get("CI"):
            pytest.fail("chromium is missing in CI: `make chromium` installs it")
        return
    (result,) = open_reports([(tmp_path / "report.html", tmp_path / "report.png")])
    assert result.errors == [] and result.blocked_requests == []


def test_without_async_profiler_trials_record_jfr_samples(one_event, tmp_path, capsys, monkeypatch):
    """JVMLAB_ASYNC_PROFILER naming a missing file stands for a machine async-profiler cannot load on."""
    shutil.copyfile(one_event, tmp_path / "r.db")  # the async-profiler experiment to diff against, in a copy
    monkeypatch.setenv("JVMLAB_ASYNC_PROFILER", str(tmp_path / "missing.so"))
    events = '[{ event = "cpu" }, { event = "wall" }, { event = "alloc" }]'
    db = run(tmp_path, "fallback", events, seconds=5)  # JFR's samples are sparser on a loaded machine
    store = Store.open(db)
    try:
        fallback = store.latest_experiment("fallback")
        (trial,) = store.trials(fallback.id)
        why = f"async-profiler could not load: {tmp_path / 'missing.so'} (JVMLAB_ASYNC_PROFILER) is missing"
        assert trial.profile_note == f"JFR execution samples: {why}"
        (cpu,) = variant_profiles(store, fallback.id, trial.variant)
        (wall,) = variant_profiles(store, fallback.id, trial.variant, "wall")
        (alloc,) = variant_profiles(store, fallback.id, trial.variant, "alloc")
        native = store.latest_experiment("one-event").id
    finally:
        store.close()
    assert cpu.source == f"JFR execution samples ({why})"
    # JFR samples threads running Java code: few of them on a loaded machine
    assert cpu.total > 3 and churn_frames(cpu) and churn_frames(wall) and churn_frames(alloc)
    assert wall.total >= cpu.total and alloc.unit == "bytes" and alloc.total > 1 << 20
    capsys.readouterr()
    # two experiments of one variant each, named alone
    out = tmp_path / "diff"
    assert main(["profile", "diff", str(native), str(fallback.id), "--db", db, "-o", str(out)]) == 0
    assert "what changed" in capsys.readouterr().out and "GcChurn" in (out / "diff.html").read_text()


def test_a_trial_that_is_not_a_jvm_says_why_it_has_no_profile(tmp_path, capsys):
    spec = tmp_path / "sh.toml"
    spec.write_text(
        'name = "not-a-jvm"\n[workload]\ncommand = ["sh", "-c", "sleep 1"]\n[matrix]\njdks = ["21"]\n'
        'repetitions = 1\n[telemetry]\ngc_log = false\nprofile = { event = "cpu" }\n'
    )
    db = str(tmp_path / "r.db")
    assert main(["run", str(spec), "--db", db, "--runs", str(tmp_path / "runs")]) == 0
    store = Store.open(db)
    (trial,) = store.trials(store.latest_experiment("not-a-jvm").id)
    store.close()
    note = trial.profile_note
    assert note.startswith("no profile: async-profiler could not load: --pid ") and "not a JVM (sh" in note
    assert "JFR could not start either" in note
    assert main(["results", "--db", db]) == 0
    assert "profile: no profile: async-profiler could not load" in capsys.readouterr().out.replace("\n", " ")
