"""The results store, the same tests on SQLite and PostgreSQL."""

from __future__ import annotations

import math
import sqlite3

import pytest

from jvmlab.errors import StoreError
from jvmlab.experiment.storage import (
    FAILED,
    OK,
    PENDING,
    RUNNING,
    LevelOutcome,
    Store,
    TrialOutcome,
    engine_url,
)


def plan_rows(n: int = 4) -> list[dict]:
    return [
        {
            "position": i,
            "key": f"jdk17/{'default' if i % 2 == 0 else 'tuned'}#{i // 2 + 1}",
            "variant": f"jdk17/{'default' if i % 2 == 0 else 'tuned'}",
            "jdk": "jdk17",
            "flag_set": "default" if i % 2 == 0 else "tuned",
            "flags": [] if i % 2 == 0 else ["-XX:+UseParallelGC"],
            "repetition": i // 2 + 1,
        }
        for i in range(n)
    ]


def new_experiment(store: Store, name: str = "exp") -> int:
    return store.create_experiment(
        name=name,
        spec_hash="abc",
        spec_text="name = 'exp'",
        spec={"name": name},
        environment={"cpu": "test", "cpus": 2},
        run_dir="/tmp/runs/exp",
        trials=plan_rows(),
    )


def test_an_experiment_keeps_its_whole_plan(store):
    exp = new_experiment(store)
    trials = store.trials(exp)
    assert [t.position for t in trials] == [0, 1, 2, 3]
    assert {t.state for t in trials} == {PENDING}
    assert trials[1].flags == ["-XX:+UseParallelGC"]
    assert store.experiment(exp).environment == {"cpu": "test", "cpus": 2}


def test_a_trial_outcome_with_series_and_artifacts(store):
    exp = new_experiment(store)
    first = store.trials(exp)[0]
    store.start_trial(first.id, run_dir="/tmp/r/0", argv=["java", "-version"], jdk_info={"major": 17})
    assert store.trials(exp)[0].state == RUNNING
    outcome = TrialOutcome(
        state=OK,
        elapsed_s=12.5,
        exit_code=0,
        metric={"mean": 31.5, "early_mean": math.nan},
        gc={"pause_count": 3, "pause_max_ms": math.inf, "nested": {"x": [1.0, math.nan]}},
        series={"metric": [(1.0, 30.0), (2.0, 33.0)], "rss_bytes": [(1.0, 1e8)]},
        artifacts={"gc_log": "/tmp/r/0/gc.log"},
    )
    store.finish_trial(first.id, outcome)
    t = store.trials(exp)[0]
    assert (t.state, t.elapsed_s, t.exit_code, t.attempts) == (OK, 12.5, 0, 1)
    assert t.metric == {"mean": 31.5, "early_mean": None}
    assert t.gc == {"pause_count": 3, "pause_max_ms": None, "nested": {"x": [1.0, None]}}
    assert store.series(first.id, "metric") == [(1.0, 30.0), (2.0, 33.0)]
    assert store.artifacts(first.id) == {"gc_log": "/tmp/r/0/gc.log"}
    assert [u.position for u in store.unfinished(exp)] == [1, 2, 3]


def test_a_rerun_replaces_what_a_killed_attempt_left(store):
    exp = new_experiment(store)
    t = store.trials(exp)[0]
    store.start_trial(t.id, run_dir="/r", argv=["java"], jdk_info={})
    store.finish_trial(t.id, TrialOutcome(state=RUNNING, series={"metric": [(1.0, 1.0)]}))  # died mid-trial
    assert t.id in [u.id for u in store.unfinished(exp)]
    store.start_trial(t.id, run_dir="/r", argv=["java"], jdk_info={})
    assert store.series(t.id, "metric") == []
    store.finish_trial(t.id, TrialOutcome(state=FAILED, reason="exit code 1", stderr_tail="boom"))
    row = store.trials(exp)[0]
    assert (row.state, row.reason, row.attempts) == (FAILED, "exit code 1", 2)


def test_experiments_by_id_and_by_name(store):
    a = new_experiment(store, "shootout")
    b = new_experiment(store, "other")
    c = new_experiment(store, "shootout")
    assert store.experiment(a).name == "shootout"
    assert store.experiment("shootout").id == c
    assert store.latest_experiment().id == c
    assert [e.id for e in store.experiments()] == [a, b, c]
    store.set_status(b, "done")
    assert store.experiment(b).status == "done"
    assert store.experiment("missing") is None


def test_urls():
    assert engine_url(None) == "sqlite:///jvmlab.db"
    assert engine_url("results/x.db") == "sqlite:///results/x.db"
    assert engine_url("postgresql://u@h/db") == "postgresql+psycopg://u@h/db"


def test_a_store_that_cannot_be_opened_is_a_clear_error(tmp_path):
    with pytest.raises(StoreError, match="cannot open the store"):
        Store.open(str(tmp_path / "no" / "such" / "dir" / "x.db"))
    with pytest.raises(StoreError, match="cannot open the store"):
        Store.open("postgresql://nobody@127.0.0.1:1/none")


def level(position: int, name: str, p99: float) -> LevelOutcome:
    return LevelOutcome(
        position=position,
        name=name,
        rate=100.0 * (position + 1),
        start_s=10.0 * position,
        end_s=10.0 * position + 8,
        uptime_start_s=None if position else 9.5,
        uptime_end_s=None if position else 17.5,
        load={"latency": {"p99_ms": p99}, "errors": {}},
        gc={"pause_count": position, "gc_overhead_percent": math.nan},
        process={"rss_peak_bytes": 1e9},
    )


def test_load_levels_of_a_trial(store):
    exp = new_experiment(store)
    first, second = store.trials(exp)[:2]
    store.start_trial(first.id, run_dir="/r", argv=["java"], jdk_info={})
    store.finish_trial(first.id, TrialOutcome(state=OK, levels=[level(1, "high", 9.0), level(0, "low", 2.0)]))
    levels = store.levels([first.id, second.id])
    assert [lv.name for lv in levels[first.id]] == ["low", "high"] and levels[second.id] == []
    low = levels[first.id][0]
    assert (low.rate, low.uptime_start_s, low.load["latency"]["p99_ms"]) == (100.0, 9.5, 2.0)
    assert low.gc == {"pause_count": 0, "gc_overhead_percent": None}
    store.start_trial(first.id, run_dir="/r", argv=["java"], jdk_info={})  # a rerun starts afresh
    assert store.levels([first.id])[first.id] == []


def test_a_store_made_before_load_levels_is_upgraded(tmp_path):
    path = tmp_path / "old.db"
    old = sqlite3.connect(path)
    old.executescript(
        "CREATE TABLE experiments (id INTEGER PRIMARY KEY, name VARCHAR(200), spec_hash VARCHAR(64),"
        " spec_text TEXT, spec JSON, environment JSON, run_dir TEXT, created_at FLOAT, status VARCHAR(20),"
        " format_version INTEGER);"
        "CREATE TABLE trials (id INTEGER PRIMARY KEY, experiment_id INTEGER, position INTEGER,"
        " key VARCHAR(400), variant VARCHAR(400), jdk VARCHAR(200), flag_set VARCHAR(200), flags JSON,"
        " repetition INTEGER, state VARCHAR(20), reason TEXT, attempts INTEGER, started_at FLOAT,"
        " ended_at FLOAT, elapsed_s FLOAT, ready_s FLOAT, exit_code INTEGER, stderr_tail TEXT, run_dir TEXT,"
        " argv JSON, jdk_info JSON, metric JSON, process JSON, gc JSON);"
        "CREATE TABLE samples (id INTEGER PRIMARY KEY, trial_id INTEGER REFERENCES trials(id),"
        " series VARCHAR(100), t_s FLOAT, value FLOAT);"
        "INSERT INTO samples VALUES (1, 1, 'metric', 1.0, 42.0);"
        "INSERT INTO experiments VALUES (1, 'old', 'h', '', '{}', '{}', '/r', 0, 'done', 1);"
        "INSERT INTO trials VALUES (1, 1, 0, 'j/d#1', 'j/d', 'j', 'd', '[]', 1, 'ok', NULL, 1, 0, 1, 1, 0, 0,"
        " NULL, '/r', '[]', '{}', '{}', '{}', '{}');"
    )
    old.commit()
    old.close()
    store = Store.open(str(path))
    [t] = store.trials(1)
    assert (t.key, t.level, t.state) == ("j/d#1", None, OK)
    assert store.levels([1]) == {1: []}
    assert store.series(1, "metric") == [(1.0, 42.0)]
    store.close()
    # Renamed: Optuna's studies (jvmlab tune) keep their own "trials" table in the same store.
    tables = dict(sqlite3.connect(path).execute("SELECT name, sql FROM sqlite_master WHERE type = 'table'"))
    assert "trials" not in tables and "jvmlab_trials" in tables
    assert (
        'REFERENCES "jvmlab_trials"' in tables["samples"] or "REFERENCES jvmlab_trials" in tables["samples"]
    )
