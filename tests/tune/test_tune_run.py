"""`jvmlab tune` on a real workload (GcChurn, 2 s trials on one JDK): rejected and duplicate configurations
are never measured, constraints decide the best, a run killed with SIGKILL resumes without losing a trial,
two workers share one study on PostgreSQL without measuring a configuration twice, and (on bigcode) an
interpreted candidate is pruned."""

from __future__ import annotations

import json
import os
import signal
import sqlite3
import subprocess
import sys
import time
import uuid
from pathlib import Path

import optuna
import pytest

from jvmlab.cli.main import main
from jvmlab.experiment.storage import Store

pytestmark = pytest.mark.jvm

SPEC = """
name = "{name}"
[workload]
# 50 MB/s, not as fast as it can: what these tests check is the search's bookkeeping, not which is fastest,
# and every MB/s costs CPU (a 2 s trial: 0.2 CPU-s at 50 MB/s, 0.45 at 300, 1.5 flat out)
command = ["{{java}}", "{{jvm_opts}}", "-cp", "{{classes}}", "jvmlab.workloads.GcChurn", "--duration-s=2",
           "--rate-mb-s=50"]
ready = {{ log = "t_s=1 ", timeout_s = 30 }}
metric = {{ name = "mb_per_s", regex = "rate_mb_s=(?P<value>[0-9.]+)" }}
[matrix]
jdks = ["21"]
[trial]
timeout_s = 60
[tune]
objectives = [{{ measure = "mb_per_s" }}]
builtin = false
promising_repetitions = 1
prune = false
confirm_repetitions = 2
{extra}
"""


def write_spec(tmp_path: Path, extra: str, name: str | None = None) -> Path:
    spec = tmp_path / "tune.toml"
    spec.write_text(SPEC.format(name=name or f"t-{uuid.uuid4().hex[:8]}", extra=extra))
    return spec


def study_of(url: str, name: str) -> optuna.Study:
    (summary,) = [
        s for s in optuna.get_all_study_summaries(url) if s.study_name.startswith(f"jvmlab:{name}:")
    ]
    return optuna.load_study(study_name=summary.study_name, storage=url)


def test_rejected_and_duplicate_configurations_are_never_measured(tmp_path, capsys, monkeypatch):
    """Each value starts the JVM on its own (checked before the search), but Shenandoah refuses more
    concurrent than parallel GC threads: that combination is rejected by the flag check, never run. The
    confirmation runs the best beside the defaults and the current flags; a goal no JVM meets fails it.
    Every executor the search and its confirmation open is closed again (a Ray cluster would stay up)."""
    from jvmlab.experiment.execution import executors

    opened: list[object] = []
    make = executors.make_executor

    def recording(name, address=None):
        executor = make(name, address)
        opened.append(executor)
        return executor

    monkeypatch.setattr(executors, "make_executor", recording)
    closed: list[object] = []
    monkeypatch.setattr(executors.LocalExecutor, "close", lambda self: closed.append(self))
    spec = write_spec(
        tmp_path,
        'budget = { trials = 5 }\ncurrent = ["-XX:+UseSerialGC", "-Xmx256m"]\n'
        '[tune.params.gc]\nchoices = ["-XX:+UseSerialGC", "-XX:+UseParallelGC", '
        '"-XX:+UseShenandoahGC -XX:ParallelGCThreads=1"]\n'
        '[tune.params.conc]\nchoices = ["-XX:ConcGCThreads=2"]\n'
        '[goals]\nall = ["rss_peak_mb <= 1"]',
        name="tune-dups",
    )
    db = str(tmp_path / "r.db")
    code = main(["tune", str(spec), "--db", db, "--runs", str(tmp_path / "runs")])
    out = " ".join(capsys.readouterr().out.split())
    assert code == 1, out  # the tuned flags fail the goal in the confirmation
    assert "rss_peak_mb <= 1" in out and "recommended flags:" in out
    assert "every configuration of the space was tried" in out and "recommended flags:" in out
    study = study_of(f"sqlite:///{db}", "tune-dups")
    measured = [t for t in study.trials if t.user_attrs.get("measured")]
    assert sorted(t.user_attrs["flags"] for t in measured) == [
        "-XX:+UseParallelGC -XX:ConcGCThreads=2",
        "-XX:+UseSerialGC -XX:ConcGCThreads=2",
    ]
    (rejected,) = [t for t in study.trials if str(t.user_attrs.get("reason", "")).startswith("rejected")]
    assert "ConcGCThreads" in rejected.user_attrs["reason"] and rejected.state == optuna.trial.TrialState.FAIL
    duplicates = [t for t in study.trials if "duplicate_of" in t.user_attrs]
    assert len(duplicates) >= 5  # asked again, told from the first measurement, never run
    assert opened and all(e in closed for e in opened)
    store = Store.open(db)
    try:
        tuning = store.experiment("tune-dups")
        confirmation = store.experiment("tune-dups-confirm")
        assert tuning is not None and confirmation is not None
        trials = store.trials(tuning.id)
        assert len(trials) == 2 and len({t.flag_set for t in trials}) == 2  # one trial per configuration
        confirm = store.trials(confirmation.id)
        assert sorted({t.flag_set for t in confirm}) == ["current", "defaults", "tuned"] and len(confirm) == 6
    finally:
        store.close()


def test_the_best_configuration_meets_the_constraints(tmp_path, capsys):
    """Pre-touching a 256 MiB heap costs RSS the 180 MiB bound does not allow: whatever its throughput,
    the small heap wins (peaks of about 80 and 300 MiB here: the JVM holds some 35 MiB beside its heap)."""
    spec = write_spec(
        tmp_path,
        'budget = { trials = 2 }\nconstraints = ["rss_peak_mb <= 180"]\n[tune.params.heap]\n'
        'choices = ["-XX:+UseSerialGC -Xmx48m", "-XX:+UseSerialGC -Xmx256m -Xms256m -XX:+AlwaysPreTouch"]',
        name="tune-limits",
    )
    db = str(tmp_path / "r.db")
    result = tmp_path / "tune.json"
    code = main(
        [
            "tune",
            str(spec),
            "--db",
            db,
            "--runs",
            str(tmp_path / "runs"),
            "--no-confirm",
            "--json",
            str(result),
        ]
    )
    raw = capsys.readouterr().out
    out = " ".join(raw.split())
    assert code == 0, out
    assert "breaks rss_peak_mb <= 180" in out
    assert "recommended flags: -XX:+UseSerialGC -Xmx48m" in raw.splitlines()  # one line, to paste
    doc = json.loads(result.read_text())
    (best,) = doc["best"]
    assert best["flags"] == ["-XX:+UseSerialGC", "-Xmx48m"] and best["feasible"]
    assert doc["recommended_flags"] == ["-XX:+UseSerialGC", "-Xmx48m"]
    big = next(c for c in doc["candidates"] if "-XX:+AlwaysPreTouch" in c["flags"])
    assert not big["feasible"] and big["constraint_violations"][0] > 0

    report = tmp_path / "report.html"
    assert main(["report", "tune-limits", "--db", db, "-o", str(report)]) == 0
    html = report.read_text()
    assert "Tuning" in html and "tune-progress" in html and "breaks a constraint" in html


def _rows(db: Path, experiment: str) -> list[tuple[int, str, str]]:
    with sqlite3.connect(db, timeout=30) as c:
        return c.execute(
            "SELECT t.id, t.flag_set, t.state FROM jvmlab_trials t "
            "JOIN experiments e ON e.id = t.experiment_id WHERE e.name = ? ORDER BY t.id",
            (experiment,),
        ).fetchall()


def _rows_once_created(db: Path, experiment: str) -> list[tuple[int, str, str]]:
    """The rows, or none while the store's file exists but its tables are still being created."""
    try:
        return _rows(db, experiment) if db.exists() else []
    except sqlite3.OperationalError as e:
        if "no such table" in str(e):
            return []
        raise


def _tune_process(spec: Path, db: str, runs: Path, *more: str) -> subprocess.Popen[bytes]:
    argv = [
        sys.executable,
        "-m",
        "jvmlab",
        "tune",
        str(spec),
        "--db",
        db,
        "--runs",
        str(runs),
        "--no-confirm",
    ]
    return subprocess.Popen(
        [*argv, *more], stdout=subprocess.PIPE, stderr=subprocess.STDOUT, start_new_session=True
    )


def test_a_run_killed_with_sigkill_resumes_without_losing_a_trial(tmp_path, capsys):
    spec = write_spec(
        tmp_path,
        'budget = { trials = 3 }\n[tune.params.heap]\nflag = "-XX:+UseSerialGC -Xmx{}m"\n'
        "low = 32\nhigh = 256",
        name="tune-kill",
    )
    db = tmp_path / "r.db"
    proc = _tune_process(spec, str(db), tmp_path / "runs")
    try:
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline:  # killed while its second candidate runs
            rows = _rows_once_created(db, "tune-kill")
            if any(s == "ok" for _, _, s in rows) and any(s == "running" for _, _, s in rows):
                break
            assert proc.poll() is None, proc.stdout.read().decode() if proc.stdout else ""
            time.sleep(0.2)
        else:
            pytest.fail("the tuning run never reached its second candidate")
    finally:
        os.killpg(proc.pid, signal.SIGKILL)  # the whole process group: jvmlab and its JVM, as a crash would
        proc.wait()
    before = {i: (f, s) for i, f, s in _rows(db, "tune-kill")}
    done_before = {i for i, (_, s) in before.items() if s == "ok"}
    assert any(s == "running" for _, s in before.values())

    assert (
        main(
            ["tune", str(spec), "--db", str(db), "--runs", str(tmp_path / "runs"), "--no-confirm", "--resume"]
        )
        == 0
    )
    out = " ".join(capsys.readouterr().out.split())
    assert "resumed" in out
    after = {i: (f, s) for i, f, s in _rows(db, "tune-kill")}
    assert all(after[i] == before[i] for i in done_before)  # kept, not measured again
    assert all(s in ("ok", "failed") for _, s in after.values())
    study = study_of(f"sqlite:///{db}", "tune-kill")
    assert not [t for t in study.trials if t.state == optuna.trial.TrialState.RUNNING]
    assert sum(1 for t in study.trials if t.user_attrs.get("measured")) == 3
    assert len({f for f, _ in after.values()}) == 3  # one flag set per candidate, each measured once


@pytest.mark.postgres
def test_two_workers_share_one_study_on_postgresql(tmp_path, postgres_url, capsys):
    name = f"tune-pg-{uuid.uuid4().hex[:6]}"
    spec = write_spec(
        tmp_path,
        'budget = { trials = 4 }\n[tune.params.heap]\nflag = "-XX:+UseSerialGC -Xmx{}m"\n'
        "low = 32\nhigh = 512\nstep = 32",
        name=name,
    )
    # One worker in a process of its own, the other in this one (jvmlab already imported: a second Python
    # start-up would cost more CPU than the workers' JVMs). This one joins once the other measures its first
    # candidate, so that both measure however slowly the other starts on a loaded machine.
    other = _tune_process(spec, postgres_url, tmp_path / "runs0")
    try:
        assert other.stdout is not None
        seen = []
        for line in other.stdout:
            seen.append(line.decode())
            if " measuring" in seen[-1]:
                break
        else:
            pytest.fail("the other worker never measured:\n" + "".join(seen))
        mine = main(
            ["tune", str(spec), "--db", postgres_url, "--runs", str(tmp_path / "runs1"), "--no-confirm"]
        )
        out, _ = other.communicate(timeout=300)
    finally:
        if other.poll() is None:
            os.killpg(other.pid, signal.SIGKILL)
            other.wait()
    outputs = ["".join(seen) + out.decode(), capsys.readouterr().out]
    assert other.returncode == 0 and mine == 0, outputs
    study = study_of(postgres_url, name)
    measured = [t for t in study.trials if t.user_attrs.get("measured")]
    assert 4 <= len(measured) <= 5  # a worker may start its last candidate as the other spends the budget
    flags = [t.user_attrs["flags"] for t in measured]
    assert len(set(flags)) == len(flags), flags  # no configuration measured twice
    assert len({t.user_attrs["experiment"] for t in measured}) == 2, outputs  # both workers measured
    store = Store.open(postgres_url)
    try:
        experiments = [e for e in store.experiments() if e.name == name]
        assert len(experiments) == 2
        assert all(json.dumps(e.environment["tune"]).count("jvmlab:") == 1 for e in experiments)
    finally:
        store.close()


def test_two_objectives_give_a_pareto_front(tmp_path, capsys):
    spec = write_spec(
        tmp_path,
        'budget = { trials = 3 }\nalgorithm = "nsga2"\n'
        'objectives = [{ measure = "mb_per_s" }, { measure = "rss_peak_mb" }]\n[tune.params.heap]\n'
        'choices = ["-XX:+UseSerialGC -Xmx64m", "-XX:+UseSerialGC -Xmx256m -Xms256m -XX:+AlwaysPreTouch", '
        '"-XX:+UseParallelGC -Xmx128m"]',
        name="tune-front",
    ).read_text()
    path = tmp_path / "front.toml"
    path.write_text(spec.replace('objectives = [{ measure = "mb_per_s" }]\n', "", 1))
    result = tmp_path / "front.json"
    args = ["tune", str(path), "--db", str(tmp_path / "r.db"), "--runs", str(tmp_path / "runs")]
    assert main([*args, "--no-confirm", "--json", str(result)]) == 0
    out = " ".join(capsys.readouterr().out.split())
    assert "Pareto front" in out
    doc = json.loads(result.read_text())
    measured = [c for c in doc["candidates"] if c["values"]]
    assert len(measured) == 3 and doc["best"]
    for b in doc["best"]:  # no measured candidate is better in both (more MB/s and less RSS)
        assert not any(
            c["values"][0] > b["values"][0] and c["values"][1] < b["values"][1] for c in measured
        ), (b, measured)
    front = [c["number"] for c in doc["best"]]
    assert doc["recommended_candidate"] in front
    chosen = next(c for c in doc["best"] if c["number"] == doc["recommended_candidate"])
    assert doc["recommended_flags"] == [f for f in chosen["flags"] if f in doc["recommended_flags"]]
    if len(front) > 1:
        assert "the front's balanced point" in out
    # --pick another front point (the finished study read again), or one that is not on the front
    assert main([*args, "--resume", "--no-confirm", "--json", str(result), "--pick", str(front[-1])]) == 0
    assert json.loads(result.read_text())["recommended_candidate"] == front[-1]
    assert main([*args, "--resume", "--no-confirm", "--pick", "999"]) == 2
    assert "--pick 999: not a candidate of the best found" in capsys.readouterr().err


def test_a_candidate_that_may_be_the_best_is_measured_again_before_it_wins(tmp_path, capsys):
    """With promising_repetitions = 2, the first candidate (the incumbent by default) and any that may beat
    it get a second trial; the best is chosen among the most repeated."""
    text = write_spec(
        tmp_path,
        'budget = { trials = 2 }\n[tune.params.gc]\nchoices = ["-XX:+UseSerialGC -Xmx128m", '
        '"-XX:+UseParallelGC -Xmx128m"]',
        name="tune-again",
    ).read_text()
    path = tmp_path / "again.toml"
    path.write_text(text.replace("promising_repetitions = 1", "promising_repetitions = 2"))
    result = tmp_path / "again.json"
    args = ["tune", str(path), "--db", str(tmp_path / "r.db"), "--runs", str(tmp_path / "runs")]
    assert main([*args, "--no-confirm", "--json", str(result)]) == 0
    doc = json.loads(result.read_text())
    first, second = sorted((c for c in doc["candidates"] if c["values"]), key=lambda c: c["number"])
    assert first["repetitions"] == 2
    assert second["repetitions"] in (1, 2)  # 2 when its first trial beat the first candidate's mean
    (best,) = doc["best"]
    assert best["repetitions"] == 2


PRUNE_SPEC = """
name = "tune-prune"
[workload]
# bigcode's integer arithmetic on one thread, its generated code small enough for the JIT to compile it
# within the first second: the interpreter runs it at about a tenth of the compiled speed (230-320 thousand
# calls a second against 1.7-4.1 million in the first seconds here, the machine loaded).
command = ["{java}", "{jvm_opts}", "-cp", "{classes}", "jvmlab.workloads.BigCode", "--classes=4",
           "--methods=4", "--method-size=16", "--threads=1", "--duration-s=2"]
ready = { log = "t_s=1 ", timeout_s = 30 }
metric = { name = "calls_per_s", regex = "^status: .* rate=(?P<value>[0-9.]+)/s" }
[matrix]
jdks = ["21"]
[trial]
timeout_s = 60
[tune]
objectives = [{ measure = "calls_per_s" }]
budget = { trials = 6 }
builtin = false
promising_repetitions = 1
algorithm = "random"
seed = 3
[tune.params.gc]
choices = ["-XX:+UseSerialGC", "-XX:+UseParallelGC", "-XX:+UseG1GC"]
[tune.params.jit]
choices = ["", "-Xint"]
"""


@pytest.mark.timing  # candidates' running means, each beside whatever else the machine runs
def test_a_candidate_that_trails_is_pruned_in_a_real_search(tmp_path, capsys, monkeypatch):
    """The interpreter alone (-Xint) runs bigcode's arithmetic about ten times slower than compiled code:
    once a compiled candidate is measured, an -Xint one is stopped early from its running mean; no compiled
    one is ever pruned. The pruner's start-up is shortened to one candidate and one second, as 2 s trials
    need, and its margin is 70 % (pruned below 0.3 of the earlier candidates' lower quartile), between the
    0.06-0.19 of compiled speed -Xint runs at and the 0.47 of one another compiled candidates keep at worst
    on a loaded machine (the JIT's first second): neither side of the cut hangs on the machine being quiet."""
    from jvmlab.tune import session
    from jvmlab.tune.pruning import TrailingPruner

    monkeypatch.setattr(
        session,
        "make_pruner",
        lambda spec, objectives: TrailingPruner(startup=1, warmup_steps=1, margin=0.7),
    )
    path = tmp_path / "prune.toml"
    path.write_text(PRUNE_SPEC)
    db = str(tmp_path / "r.db")
    args = ["tune", str(path), "--db", db, "--runs", str(tmp_path / "runs"), "--no-confirm"]
    assert main(args) == 0, capsys.readouterr().out
    study = study_of(f"sqlite:///{db}", "tune-prune")
    measured = sorted((t for t in study.trials if t.user_attrs.get("measured")), key=lambda t: t.number)
    pruned = [t for t in measured if t.state == optuna.trial.TrialState.PRUNED]
    assert pruned and all("-Xint" in t.user_attrs["flags"] for t in pruned)
    assert all("clearly trails" in t.user_attrs["reason"] for t in pruned)
    first_compiled = min(t.number for t in measured if "-Xint" not in t.user_attrs["flags"])
    late_xint = {t.number for t in measured if "-Xint" in t.user_attrs["flags"] and t.number > first_compiled}
    # Only late -Xint candidates are pruned. Not necessarily all: once -Xint candidates have completed, the
    # earlier candidates' lower quartile falls and a later -Xint one may stay within the margin.
    assert {t.number for t in pruned} <= late_xint, (pruned, late_xint)
    store = Store.open(db)
    try:
        trials = store.trials(store.experiment("tune-prune").id)
        assert sum(t.state == "pruned" for t in trials) == len(pruned)
    finally:
        store.close()
