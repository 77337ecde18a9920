"""`repetitions = "auto"`: rounds until every primary verdict is decided or the budget is spent, on small
Python workloads run as fake JDKs (run_driver.py) whose metric is set per flag set: a real runner, a real
store, real looks, no JVM."""

from __future__ import annotations

import json
import sys
import tomllib
from pathlib import Path

import pytest
import run_driver

from jvmlab.cli.main import main
from jvmlab.errors import UsageError
from jvmlab.experiment.analysis.comparison import stored_comparison
from jvmlab.experiment.auto_repetitions import (
    DECIDED,
    MAX_REPETITIONS,
    NOISE_KEY,
    ROUNDS_KEY,
    budget,
    run_rounds,
    stored_rounds,
)
from jvmlab.experiment.execution.planner import Variant, plan, round_of
from jvmlab.experiment.execution.run import make_plan
from jvmlab.experiment.spec import Matrix, SpecError, parse_repetitions, parse_spec, repetitions_or_auto
from jvmlab.report.regress import json_export as regress_json
from jvmlab.report.rounds_view import rounds_section
from jvmlab.stats import DECREASED, EQUIVALENT, INCONCLUSIVE, INCREASED

# The metric of a trial: -Dmean=M, spread by -Dcv=C percent with a normal draw seeded by the trial's id.
WORKLOAD = """
import random, sys
args = dict(a[2:].split("=", 1) for a in sys.argv[2:] if a.startswith("-D") and "=" in a)
rng = random.Random(sys.argv[1])
value = float(args["mean"]) * (1 + float(args.get("cv", "0")) / 100 * rng.gauss(0, 1))
for _ in range(3):
    print(f"Rate: {value:.3f} ops", flush=True)
"""


def spec_text(tmp_path: Path, flags: str, max_repetitions: int = 6, name: str = "auto") -> str:
    script = tmp_path / "work.py"
    script.write_text(WORKLOAD)
    return f"""
name = "{name}"
[workload]
command = ["{sys.executable}", "{script}", "{{trial_id}}", "{{jvm_opts}}"]
metric = {{ name = "ops", regex = 'Rate: (?P<value>[0-9.]+) ops' }}
[matrix]
jdks = ["fake-17"]
repetitions = "auto"
max_repetitions = {max_repetitions}
flags = {flags}
[compare]
baseline = "default"
[telemetry]
gc_log = false
sample_interval_s = 0.5
"""


def run_auto(tmp_path: Path, text: str):
    spec = parse_spec(tomllib.loads(text))
    p = make_plan(spec, run_driver.resolve, run_driver.check)
    runner = run_driver.runner(tmp_path / "db.sqlite", tmp_path)
    experiment = runner.start(p, text)
    looks = []
    trials = run_rounds(runner, experiment, p, lambda found, stopped: looks.append((found, stopped)))
    return runner.store, experiment, trials, looks


def test_a_clear_change_stops_at_the_first_look(tmp_path):
    flags = '{ default = ["-Dmean=100", "-Dcv=1"], faster = ["-Dmean=150", "-Dcv=1"] }'
    store, experiment, trials, looks = run_auto(tmp_path, spec_text(tmp_path, flags))
    assert len(trials) == 6 and {t.repetition for t in trials} == {1, 2, 3}
    ((found, stopped),) = looks
    assert stopped == DECIDED and found.rounds == 3 and found.decided
    (v,) = found.verdicts
    assert (v.measure, v.verdict.outcome) == ("ops", INCREASED) and v.noise_percent < 3
    env = store.experiment(experiment).environment
    assert env[ROUNDS_KEY]["stopped"] == DECIDED and len(env[ROUNDS_KEY]["looks"]) == 1
    assert set(env[NOISE_KEY]) == {"fake-17"} and env[NOISE_KEY]["fake-17"] < 3
    # The comparison judges the primary measure at the look's share of alpha, on its own: as the look did.
    c = stored_comparison(store, str(experiment))
    cell = c.blocks[0].cells["ops"]["fake-17/faster"]
    assert cell.verdict.outcome == INCREASED
    assert cell.change.level == pytest.approx(1 - found.plan.level_at(3))
    assert cell.change.q_value == cell.change.p_value  # tested alone, not among the other measures


def test_no_change_at_low_noise_is_shown_equivalent(tmp_path):
    flags = '{ default = ["-Dmean=100", "-Dcv=0.5"], same = ["-Dmean=100", "-Dcv=0.5"] }'
    store, experiment, trials, looks = run_auto(tmp_path, spec_text(tmp_path, flags))
    found, stopped = looks[-1]
    assert stopped == DECIDED and found.verdicts[0].verdict.outcome == EQUIVALENT
    assert len(trials) == 2 * found.rounds


def test_noise_beyond_the_budget_stops_at_max_repetitions_inconclusive(tmp_path):
    flags = '{ default = ["-Dmean=100", "-Dcv=30"], other = ["-Dmean=103", "-Dcv=30"] }'
    store, experiment, trials, looks = run_auto(tmp_path, spec_text(tmp_path, flags, max_repetitions=4))
    assert [f.rounds for f, _ in looks] == [3, 4]
    assert [s for _, s in looks] == [None, MAX_REPETITIONS]
    found = looks[-1][0]
    assert found.verdicts[0].verdict.outcome == INCONCLUSIVE and not found.decided
    assert sorted(t.repetition for t in trials) == [1, 1, 2, 2, 3, 3, 4, 4]
    assert [t.position for t in trials] == list(range(8))  # the added round runs after the others
    # Each look says what it did not decide, and that the budget cannot detect the threshold at this noise.
    text = looks[0][0].text(None)
    assert "ops, fake-17/other vs fake-17/default: inconclusive" in text and "not the ±5% threshold" in text
    assert "budget spent (4 rounds)" in looks[-1][0].text(MAX_REPETITIONS)
    c = stored_comparison(store, str(experiment))
    assert c.blocks[0].cells["ops"]["fake-17/other"].verdict.outcome == INCONCLUSIVE
    # The looks are kept with their verdicts, and the report shows them with why the rounds stopped.
    rounds = stored_rounds(store.experiment(experiment).environment)
    assert rounds is not None and rounds.stopped == MAX_REPETITIONS
    assert [(x.rounds, [v.outcome for v in x.verdicts]) for x in rounds.looks] == [
        (3, [INCONCLUSIVE]),
        (4, [INCONCLUSIVE]),
    ]
    first, last = (x.verdicts[0] for x in rounds.looks)
    assert last.ci_high_percent - last.ci_low_percent != first.ci_high_percent - first.ci_low_percent
    assert rounds.looks[0].alpha_share < rounds.looks[1].alpha_share < 0.01
    section = rounds_section(rounds)
    assert section.blocks[1].column("after round") == ["3", "4"]
    assert section.blocks[1].column("outcome") == [INCONCLUSIVE, INCONCLUSIVE]
    # regress --json has them too
    kept = json.loads(json.dumps(regress_json._repetitions(4, rounds)))
    assert kept["auto_stopped"] == MAX_REPETITIONS and [x["rounds"] for x in kept["looks"]] == [3, 4]
    assert kept["looks"][1]["verdicts"][0]["label"] == "ops, fake-17/other vs fake-17/default"
    store.close()
    html = tmp_path / "r.html"
    assert main(["report", str(experiment), "--db", str(tmp_path / "db.sqlite"), "-o", str(html)]) == 0
    text = html.read_text()
    assert "Repetitions until decided" in text and "the budget of rounds (max_repetitions) was spent" in text
    assert 'id="rounds-chart"' in text


def test_the_next_run_of_the_workload_reads_the_noise_kept_in_the_store(tmp_path):
    flags = '{ default = ["-Dmean=100", "-Dcv=2"], faster = ["-Dmean=200", "-Dcv=2"] }'
    text = spec_text(tmp_path, flags)
    store, experiment, _, _ = run_auto(tmp_path, text)
    spec = parse_spec(tomllib.loads(text))
    planned = budget(spec, store, ["fake-17"])
    assert planned is not None and planned.noise == store.experiment(experiment).environment[NOISE_KEY]
    assert 0 < planned.detectable_percent < 5 and not planned.too_small
    assert "budget detects changes of" in planned.text()
    noisy = budget(spec, store, ["fake-17"]).__class__(planned.plan, {"fake-17": 20.0})
    assert noisy.too_small and "expect inconclusive verdicts" in noisy.text()
    assert budget(spec, store, ["fake-21"]).noise == {}  # another JDK: nothing measured yet
    assert "noise not measured yet" in budget(spec, store, ["fake-21"]).text()


def test_a_decrease_is_decided_and_fixed_repetitions_take_no_look(tmp_path):
    flags = '{ default = ["-Dmean=100", "-Dcv=1"], slower = ["-Dmean=60", "-Dcv=1"] }'
    _, _, _, looks = run_auto(tmp_path, spec_text(tmp_path, flags))
    assert looks[-1][0].verdicts[0].verdict.outcome == DECREASED
    fixed = spec_text(tmp_path, flags, name="fixed").replace('repetitions = "auto"', "repetitions = 2")
    store, experiment, trials, looks = run_auto(tmp_path, fixed)
    assert looks == [] and len(trials) == 4
    assert ROUNDS_KEY not in store.experiment(experiment).environment
    assert NOISE_KEY in store.experiment(experiment).environment  # the noise is kept for every run


def test_an_added_round_is_the_round_the_whole_plan_would_have_run():
    vs = [Variant("j", name, ()) for name in ("a", "b", "c")]
    whole = plan(vs, 5, seed=7)
    for k in range(1, 6):
        added = round_of(vs, k, seed=7)
        assert [(t.variant, t.repetition) for t in added] == [
            (t.variant, t.repetition) for t in whole if t.repetition == k
        ]


def test_auto_in_the_spec_and_on_the_command_line():
    assert (
        Matrix(repetitions="auto").planned_repetitions == 3 and Matrix(repetitions=4).planned_repetitions == 4
    )
    with pytest.raises(ValueError, match="adds interleaved rounds"):
        Matrix(repetitions="auto", order="sequential")
    with pytest.raises(SpecError, match="matrix.max_repetitions"):
        parse_spec({"name": "x", "workload": {"command": ["x"]}, "matrix": {"max_repetitions": 2}})
    assert parse_repetitions("auto") == "auto" and parse_repetitions("AUTO") == "auto"
    assert parse_repetitions("4") == 4
    for bad in ("1", "x", "2.5"):
        with pytest.raises(UsageError, match="at least 2, or auto"):
            parse_repetitions(bad)
    # A command's comparison: what it was given, else the spec's when it says, else auto.
    assert repetitions_or_auto(Matrix(), None) == "auto"
    assert repetitions_or_auto(Matrix(repetitions=2), None, 3) == 3
    assert repetitions_or_auto(Matrix(repetitions=2), 2, 3) == 2
    assert repetitions_or_auto(Matrix(repetitions=5), "auto") == "auto"


def test_an_unknown_primary_measure_is_a_spec_error():
    data = {"name": "x", "workload": {"command": ["x"]}, "compare": {"primary": ["nosuch"]}}
    with pytest.raises(SpecError, match="compare.primary: unknown measure 'nosuch'"):
        parse_spec(data)
