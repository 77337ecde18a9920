"""How a study reads a candidate's trials: a load level that ran without a single response back (a container
too small for the load) fails that candidate with the reason, the study goes on; a measure the spec never
produces is the spec's mistake, said at once."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from jvmlab.errors import UsageError
from jvmlab.experiment.spec import parse_spec
from jvmlab.experiment.storage import OK, LevelOutcome, Store, TrialOutcome
from jvmlab.tune.objectives import constraints_of, objectives_of
from jvmlab.tune.search import NotMeasured, Search

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "experiment"))
from synthetic import Variant, spec_dict  # noqa: E402

TUNE = {
    "objectives": [{"measure": "p99_ms", "level": "high"}],
    "constraints": ["error_percent@high <= 0.1"],
    "budget": {"trials": 4},
}


def level(position: int, name: str, load: dict) -> LevelOutcome:
    return LevelOutcome(
        position=position, name=name, rate=100.0 * (position + 1), start_s=10.0 * position,
        end_s=10.0 * (position + 1), uptime_start_s=None, uptime_end_s=None, load=load, gc=None, process=None,
    )  # fmt: skip


def search_over(tmp_path, high_load: dict, tune: dict = TUNE) -> tuple[Search, list]:
    data = spec_dict("sizing", [Variant("jdk21", "default")], {}, ["low", "high"])
    data["tune"] = tune
    spec = parse_spec(data, source="test")
    store = Store.open(str(tmp_path / "s.db"))
    trial = {"position": 0, "key": "jdk21/default#1", "variant": "jdk21/default", "jdk": "jdk21",
             "flag_set": "default", "flags": [], "repetition": 1}  # fmt: skip
    exp = store.create_experiment(
        name="sizing", spec_hash="x", spec_text="", spec=spec.model_dump(mode="json"), environment={},
        run_dir=str(tmp_path), trials=[trial],
    )  # fmt: skip
    (row,) = store.trials(exp)
    low = {"throughput_rps": 100.0, "sent": 1000, "error_count": 0, "latency": {"p99_ms": 4.0}}
    store.finish_trial(
        row.id,
        TrialOutcome(state=OK, elapsed_s=60.0, levels=[level(0, "low", low), level(1, "high", high_load)]),
    )
    search = Search(
        spec=spec, store=store, runner=None, experiment_id=exp, jdk=None, check=None, study=None,  # type: ignore[arg-type]
        space=None, objectives=objectives_of(spec), constraints=constraints_of(spec), events=None,  # type: ignore[arg-type]
    )  # fmt: skip
    return search, store.trials(exp)


def test_a_level_without_a_response_fails_the_candidate_with_its_reason(tmp_path):
    search, rows = search_over(
        tmp_path, {"throughput_rps": 0.0, "sent": 3000, "error_count": 3000, "latency": None}
    )
    found = search.means(rows)
    assert found == NotMeasured("no p99_ms@high: no response came back at that level")
    search.store.close()


def test_a_level_with_responses_is_measured(tmp_path):
    search, rows = search_over(
        tmp_path, {"throughput_rps": 200.0, "sent": 2000, "error_count": 10, "latency": {"p99_ms": 40.0}}
    )
    assert search.means(rows) == ([40.0], [0.5 - 0.1])
    search.store.close()


def test_a_measure_the_trials_never_produce_is_the_specs_mistake(tmp_path):
    tune = {**TUNE, "objectives": [{"measure": "pause_p99_ms"}]}  # no GC log in these trials
    search, rows = search_over(
        tmp_path, {"throughput_rps": 200.0, "sent": 2000, "error_count": 0, "latency": {"p99_ms": 4.0}}, tune
    )
    with pytest.raises(UsageError, match="pause_p99_ms is not produced by the trials"):
        search.means(rows)
    search.store.close()
