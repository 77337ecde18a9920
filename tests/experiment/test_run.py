"""Running experiments end to end with fake JDKs and small workloads: the plan, rejected flag sets,
interruption with Ctrl-C and kill -9 of jvmlab, and --resume (no finished trial lost or redone)."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
import tomllib
from pathlib import Path

import psutil
import pytest

from jvmlab.errors import JvmLabError
from jvmlab.experiment.execution.run import make_plan
from jvmlab.experiment.spec import parse_spec
from jvmlab.experiment.storage import PENDING, REJECTED, Store

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

import run_driver  # noqa: E402


def plan_of(text: str):
    return make_plan(parse_spec(tomllib.loads(text)), run_driver.resolve, run_driver.check)


def test_every_trial_runs_once_in_interleaved_rounds(tmp_path):
    text = run_driver.spec_text(tmp_path, ticks=3)
    p = plan_of(text)
    r = run_driver.runner(tmp_path / "db.sqlite", tmp_path)
    exp = r.start(p, text)
    trials = r.run(exp, p)
    assert [t.state for t in trials] == ["ok"] * 8
    # Round 1 holds every variant once before any repeats.
    assert sorted(t.variant for t in trials[:4]) == sorted({t.variant for t in trials})
    assert all(t.repetition == 1 for t in trials[:4]) and all(t.repetition == 2 for t in trials[4:])
    assert trials[0].metric["mean"] == pytest.approx(11.0)
    assert r.store.series(trials[0].id, "metric")[0][1] == 10.0
    tuned = next(t for t in trials if t.flag_set == "tuned")
    assert tuned.jdk_info["warnings"] == ["a warning"]
    assert r.store.experiment(exp).status == "done"
    assert r.store.experiment(exp).environment["machine"]["cpu_count"] == os.cpu_count()


def test_a_rejected_flag_set_stops_the_run_before_any_trial(tmp_path):
    text = run_driver.spec_text(tmp_path, 1, flags='{ default = [], cms = ["-XX:+UseConcMarkSweepGC"] }')
    p = plan_of(text)
    assert set(p.rejected) == {"fake-17/cms", "fake-21/cms"}
    with pytest.raises(JvmLabError, match="Unrecognized VM option 'UseConcMarkSweepGC'.*--allow-rejected"):
        run_driver.runner(tmp_path / "db.sqlite", tmp_path).start(p, text)


def test_a_flag_set_for_some_jdks_only(tmp_path):
    flags = '{ default = [], cms = { jdks = ["fake-17"], flags = ["-XX:+Warn"] } }'
    text = run_driver.spec_text(tmp_path, 1, flags=flags)
    p = plan_of(text)
    assert [v.key for v in p.variants] == ["fake-17/default", "fake-17/cms", "fake-21/default"]
    assert not p.rejected and len(p.trials) == 6 and p.verdicts["fake-17/cms"].warnings == ("a warning",)
    nowhere = run_driver.spec_text(tmp_path, 1, flags='{ cms = { jdks = ["99"], flags = [] } }')
    with pytest.raises(JvmLabError, match=r"matrix.flags.cms.jdks = \['99'\]: none of the experiment's JDKs"):
        plan_of(nowhere)


def test_allow_rejected_runs_the_rest_and_stores_the_rejections(tmp_path):
    text = run_driver.spec_text(tmp_path, 1, flags='{ default = [], cms = ["-XX:+UseConcMarkSweepGC"] }')
    p = plan_of(text)
    r = run_driver.runner(tmp_path / "db.sqlite", tmp_path, allow_rejected=True)
    trials = r.run(r.start(p, text), p)
    states = {(t.variant, t.state) for t in trials}
    assert states == {
        ("fake-17/default", "ok"),
        ("fake-21/default", "ok"),
        ("fake-17/cms", REJECTED),
        ("fake-21/cms", REJECTED),
    }
    assert all("UseConcMarkSweepGC" in t.reason for t in trials if t.state == REJECTED)


def driver(tmp_path: Path, ticks: int, resume: bool = False) -> subprocess.Popen[str]:
    argv = [
        sys.executable,
        str(HERE / "run_driver.py"),
        str(tmp_path / "db.sqlite"),
        str(tmp_path),
        str(ticks),
    ]
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)}
    return subprocess.Popen(
        [*argv, "resume" if resume else "new"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=env,
    )


def wait_for_trials(db: Path, finished: int, timeout_s: float = 60) -> list:
    store = Store.open(str(db))
    deadline = time.monotonic() + timeout_s
    try:
        while time.monotonic() < deadline:
            exp = store.latest_experiment("fake")
            if exp is not None:
                trials = store.trials(exp.id)
                if sum(t.state == "ok" for t in trials) >= finished and any(
                    t.state == "running" for t in trials
                ):
                    return trials
            time.sleep(0.05)
    finally:
        store.close()
    raise AssertionError("the experiment did not get that far")


def workload_pids(tmp_path: Path) -> list[int]:
    return [int(p.read_text()) for p in tmp_path.glob("fake-*/*/workdir/pid") if p.read_text()]


def no_workload_left(tmp_path: Path) -> bool:
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline:
        alive = [
            pid for pid in workload_pids(tmp_path)
            if psutil.pid_exists(pid) and psutil.Process(pid).status() != psutil.STATUS_ZOMBIE
        ]  # fmt: skip
        if not alive:
            return True
        time.sleep(0.1)
    return False


@pytest.mark.parametrize("how", ["kill -9", "ctrl-c"])
def test_resume_after_jvmlab_dies_loses_and_redoes_nothing(tmp_path, how):
    proc = driver(tmp_path, ticks=4)
    before = wait_for_trials(tmp_path / "db.sqlite", finished=2)
    proc.send_signal(signal.SIGKILL if how == "kill -9" else signal.SIGINT)
    _, stderr = proc.communicate(timeout=30)
    assert no_workload_left(tmp_path), "a workload process outlived jvmlab"
    store = Store.open(str(tmp_path / "db.sqlite"))
    exp = store.latest_experiment("fake")
    at_stop = {t.key: (t.state, t.attempts) for t in store.trials(exp.id)}
    finished_before = {k for k, (state, _) in at_stop.items() if state == "ok"}
    assert len(finished_before) >= 2
    if how == "ctrl-c":
        assert "running" not in {s for s, _ in at_stop.values()}  # the interrupted trial went back to pending
        assert exp.status == "interrupted", stderr
    resumed = driver(tmp_path, ticks=4, resume=True)
    out, _ = resumed.communicate(timeout=120)
    assert resumed.returncode == 0 and f"experiment {exp.id}" in out
    after = store.trials(exp.id)
    assert [t.state for t in after] == ["ok"] * 8
    for t in after:
        if t.key in finished_before:
            assert t.attempts == 1, f"{t.key} was run again"
    assert len(store.experiments()) == 1
    assert {t.state for t in before} <= {"ok", "running", PENDING}
    store.close()


def test_resume_refuses_a_changed_spec(tmp_path):
    text = run_driver.spec_text(tmp_path, 1)
    p = plan_of(text)
    r = run_driver.runner(tmp_path / "db.sqlite", tmp_path)
    r.start(p, text)
    with pytest.raises(JvmLabError, match="the spec changed"):
        r.resumable(p, text + "\n# edited\n")
