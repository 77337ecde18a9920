"""`[tune]` read from a spec: objectives, constraints and the space, and the one-line errors naming the key
for an unknown measure, a measure the spec never produces, an empty space, a flag the JDK does not have."""

from __future__ import annotations

import tomllib

import pytest

from jvmlab.errors import JvmLabError, UsageError
from jvmlab.experiment.spec import parse_spec
from jvmlab.jdk.collectors import collector
from jvmlab.tune.objectives import constraints_of, objectives_of
from jvmlab.tune.results import is_default, without_defaults
from jvmlab.tune.space import build_space, builtin_dimensions

BASE = """
name = "t"
[workload]
command = ["{java}", "-version"]
metric = { name = "ops_per_s", regex = "ops=(?P<value>[0-9.]+)" }
[tune]
budget = { trials = 5 }
"""
G1, PARALLEL, SERIAL = (collector(n).option for n in ("G1", "Parallel", "Serial"))
HAVE = {"UseG1GC", "UseParallelGC", "UseSerialGC", "MaxGCPauseMillis", "G1HeapRegionSize", "NewRatio",
        "InitiatingHeapOccupancyPercent", "ParallelGCThreads", "ConcGCThreads", "MetaspaceSize",
        "ReservedCodeCacheSize", "TieredStopAtLevel", "TieredCompilation", "AlwaysPreTouch"}  # fmt: skip


def spec(extra: str):
    return parse_spec(tomllib.loads(BASE + extra), source="t.toml")


def test_objectives_take_the_measures_better_direction_unless_told():
    s = spec('objectives = [{ measure = "ops_per_s" }, { measure = "rss_peak_mb" }]\n'
             'constraints = ["rss_peak_mb <= 2048", "cpu_s < 30"]')  # fmt: skip
    (ops, rss) = objectives_of(s)
    assert (ops.maximize, rss.maximize) == (True, False)
    limit, cpu = constraints_of(s)
    assert (limit.text, limit.violation(2000.0), limit.violation(2100.0)) == (
        "rss_peak_mb <= 2048",
        -48.0,
        52.0,
    )
    assert cpu.violation(10.0) < 0


@pytest.mark.parametrize(
    ("extra", "message"),
    [
        ('objectives = [{ measure = "chunks" }]', "tune.objectives[0].measure: unknown measure 'chunks'"),
        ('objectives = [{ measure = "p99_ms" }]', "tune.objectives[0].measure: p99_ms is never produced"),
        ('objectives = [{ measure = "ops_per_s", level = "high" }]', "no load level 'high'"),
        ('objectives = [{ measure = "allocation_mib_s" }]', "tune.objectives[0].direction: allocation_mib_s"),
        (
            'objectives = [{ measure = "ops_per_s" }]\nconstraints = ["rss <= 1"]',
            "tune.constraints[0]: unknown",
        ),
        ('objectives = [{ measure = "ops_per_s" }]\nconstraints = ["rss_peak_mb = 1"]', "expected MEASURE"),
        ('objectives = [{ measure = "ops_per_s" }]\nconstraints = ["p99_ms@x <= 5"]', "no load level 'x'"),
        # measures that the spec's [telemetry] never produces: caught before any trial runs
        (
            'objectives = [{ measure = "ops_per_s" }]\nconstraints = ["code_cache_peak_mb <= 50"]',
            "tune.constraints[0]: code_cache_peak_mb is never produced by this spec: "
            'it comes from the code cache samples: set [telemetry] jit = "summary"',
        ),
        (
            'objectives = [{ measure = "task_clock_s" }]',
            "tune.objectives[0].measure: task_clock_s is never produced by this spec: it comes from perf",
        ),
        (
            'objectives = [{ measure = "ops_per_s" }]\nconstraints = ["pause_p99_ms <= 5"]\n'
            "[telemetry]\ngc_log = false",
            "pause_p99_ms is never produced by this spec: it comes from the GC log",
        ),
        ('objectives = [{ measure = "metric_steady" }]', "metric_steady has no value per trial"),
    ],
)
def test_what_cannot_be_tuned_is_one_line_naming_the_key(extra, message):
    s = spec(extra)
    with pytest.raises(UsageError) as e:
        objectives_of(s)
        constraints_of(s)
    assert message in str(e.value) and "\n" not in str(e.value)


def test_a_spec_error_names_the_tune_key():
    with pytest.raises(JvmLabError, match=r"t.toml: tune.budget: Value error, give trials|tune.budget"):
        parse_spec(tomllib.loads(BASE.replace("budget = { trials = 5 }", "budget = {}")
                                 + 'objectives = [{ measure = "ops_per_s" }]'), source="t.toml")  # fmt: skip
    with pytest.raises(JvmLabError, match="tune.params.x: .*low"):
        spec(
            'objectives = [{ measure = "ops_per_s" }]\n'
            '[tune.params.x]\nflag = "-XX:NewRatio={}"\nlow = 3\nhigh = 1'
        )


def test_the_space_keeps_what_the_jdk_has_and_refuses_an_empty_one():
    dims = {d.name: d for d in builtin_dimensions(21, HAVE, 2, (64, 512))}
    assert dims["collector"].choices == (G1, PARALLEL, SERIAL)  # no ZGC, Shenandoah in HAVE
    assert "shenandoah_heuristics" not in dims and dims["g1_pause_ms"].when == {"collector": (G1,)}
    space = build_space(
        major=21, have=HAVE, cpus=2, builtin=True, exclude=["tiered"], params={}, heap_mb=(64, 512)
    )
    assert "tiered" not in space.names() and any(x.startswith("thp") for x in space.left_out)
    with pytest.raises(UsageError, match="tune: the search space is empty"):
        build_space(major=21, have=HAVE, cpus=2, builtin=False, exclude=[], params={}, heap_mb=(64, 512))
    with pytest.raises(UsageError, match="tune.exclude: nope: no such built-in parameter"):
        build_space(major=21, have=HAVE, cpus=2, builtin=True, exclude=["nope"], params={}, heap_mb=(64, 512))


def test_a_point_of_the_space_is_its_flags_in_order():
    import optuna

    space = build_space(major=21, have=HAVE, cpus=2, builtin=True, exclude=[], params={}, heap_mb=(64, 512))
    study = optuna.create_study(sampler=optuna.samplers.RandomSampler(seed=3))
    seen = set()
    for _ in range(30):
        trial = study.ask()
        values = space.sample(trial)
        flags = space.flags(values)
        study.tell(trial, 0.0)
        assert flags[0] == values["collector"] and flags[1] == f"-Xmx{values['heap_mb']}m"
        assert ("g1_pause_ms" in values) == (values["collector"] == G1)  # a collector's own knobs under it
        if values["xms"]:
            assert f"-Xms{values['heap_mb']}m" in flags
        seen.add(values["collector"])
    assert len(seen) == 3


def test_flags_equal_to_the_defaults_are_left_out():
    defaults = {"MaxGCPauseMillis": "200", "MaxHeapSize": "4294967296", "AlwaysPreTouch": "false",
                "MetaspaceSize": "22020096", "UseG1GC": "true"}  # fmt: skip
    assert is_default("-XX:MaxGCPauseMillis=200", defaults) and not is_default(
        "-XX:MaxGCPauseMillis=50", defaults
    )
    assert is_default("-Xmx4g", defaults) and is_default("-XX:-AlwaysPreTouch", defaults)
    assert is_default("-XX:MetaspaceSize=21m", defaults) and is_default("-XX:+UseG1GC", defaults)
    kept, dropped = without_defaults(["-XX:+UseG1GC", "-Xmx512m", "-XX:MaxGCPauseMillis=200"], defaults)
    assert (kept, dropped) == (["-Xmx512m"], ["-XX:+UseG1GC", "-XX:MaxGCPauseMillis=200"])


def test_a_duplicate_is_told_the_earlier_result_except_to_nsga2_and_random_points_fill_the_gaps():
    import optuna

    from jvmlab.tune.search import tell_duplicate, unmeasured_point
    from jvmlab.tune.study import make_sampler, startup_trials

    for algorithm, state in (
        ("tpe", optuna.trial.TrialState.COMPLETE),
        ("nsga2", optuna.trial.TrialState.FAIL),
    ):
        study = optuna.create_study(directions=["maximize"], sampler=make_sampler(algorithm, 1, 1))
        first = study.ask()
        first.set_constraint("rss_peak_mb <= 2048", -10.0)
        study.tell(first, 5.0)
        again = study.ask()
        tell_duplicate(study, again, study.trials[0])
        assert study.trials[1].state == state
        if state == optuna.trial.TrialState.COMPLETE:
            assert study.trials[1].values == [5.0]
            assert study.trials[1].system_attrs["constraints:rss_peak_mb <= 2048"] == -10.0
    space = build_space(
        major=21, have=HAVE, cpus=1, builtin=False, exclude=[], heap_mb=(64, 512),
        params=spec('objectives = [{ measure = "ops_per_s" }]\n[tune.params.gc]\n'
                    'choices = ["-XX:+UseG1GC", "-XX:+UseSerialGC"]').tune.params,  # type: ignore[union-attr]
    )  # fmt: skip
    assert unmeasured_point(space, {"-XX:+UseG1GC"}, seed=1) == {"gc": "-XX:+UseSerialGC"}
    assert unmeasured_point(space, {"-XX:+UseG1GC", "-XX:+UseSerialGC"}, seed=1) is None
    assert [startup_trials(b) for b in (None, 6, 24, 40, 400)] == [10, 3, 6, 10, 10]


def test_the_balanced_point_of_a_front_is_the_best_in_its_worst_objective():
    """Throughput up, RSS down, scaled over the front: #2 is 0.8 / 0.75 of the way, #1 and #3 are best in
    one and worst in the other."""
    from jvmlab.tune.objectives import Objective
    from jvmlab.tune.results import Candidate, balanced

    def cand(n, values):
        return Candidate(n, "complete", [], f"c{n}", 1, values, [], 3, None, {})

    up, down = Objective(None, None, True), Objective(None, None, False)  # type: ignore[arg-type]
    front = [cand(1, [100.0, 900.0]), cand(2, [90.0, 300.0]), cand(3, [50.0, 100.0])]
    assert balanced(front, [up, down]).number == 2
    assert balanced(front[:1], [up, down]).number == 1


def test_a_hardware_counter_needs_a_pmu(monkeypatch):
    import jvmlab.tune.objectives as objectives

    s = spec('objectives = [{ measure = "ipc" }]\n[telemetry]\nperf = true')
    monkeypatch.setattr(objectives, "pmu_available", lambda: False)
    with pytest.raises(UsageError, match="ipc is never produced by this spec: it is a hardware counter"):
        objectives_of(s)
    monkeypatch.setattr(objectives, "pmu_available", lambda: True)
    assert objectives_of(s)[0].maximize


def test_of_two_workers_claiming_one_point_the_first_claim_measures():
    """Both proposals are in the study before either looks (workers asking at once): each sees the other,
    and both agree that the earlier claim measures, whatever the trial numbers."""
    from types import SimpleNamespace

    import optuna

    from jvmlab.tune.search import CLAIMED_ATTR, FLAGS_ATTR, INTERRUPTED, REASON_ATTR, Search

    optuna.logging.set_verbosity(optuna.logging.WARNING)
    study = optuna.create_study()
    first, second = study.ask(), study.ask()
    for t, at in ((first, 20.0), (second, 10.0)):  # the higher number claimed first
        t.set_user_attr(FLAGS_ATTR, "-XX:+UseSerialGC")
        t.set_user_attr(CLAIMED_ATTR, at)
    me = SimpleNamespace(study=study)
    assert Search._same(me, "-XX:+UseSerialGC", first.number, 20.0).number == second.number
    assert Search._same(me, "-XX:+UseSerialGC", second.number, 10.0) is None
    assert Search._same(me, "-XX:+UseParallelGC", first.number, 20.0) is None
    # a proposal killed before it was measured blocks nobody
    second.set_user_attr(REASON_ATTR, INTERRUPTED)
    study.tell(second, state=optuna.trial.TrialState.FAIL)
    assert Search._same(me, "-XX:+UseSerialGC", first.number, 20.0) is None


def test_a_proposal_killed_before_its_measuring_is_failed_on_resume():
    from types import SimpleNamespace

    import optuna

    from jvmlab.tune.search import EXPERIMENT_ATTR, FLAGS_ATTR, INTERRUPTED, REASON_ATTR, Search

    study = optuna.create_study()
    orphan, other = study.ask(), study.ask()
    orphan.set_user_attr(FLAGS_ATTR, "-XX:+UseSerialGC")
    orphan.set_user_attr(EXPERIMENT_ATTR, 7)
    other.set_user_attr(EXPERIMENT_ATTR, 8)  # another worker's: left alone
    measured: list = []
    me = SimpleNamespace(study=study, experiment_id=7, _measure_and_tell=measured.extend)
    Search.finish_interrupted(me)
    t0, t1 = study.get_trials()
    assert (t0.state, t0.user_attrs[REASON_ATTR]) == (optuna.trial.TrialState.FAIL, INTERRUPTED)
    assert t1.state == optuna.trial.TrialState.RUNNING and not measured


def test_the_incumbent_is_measured_again_beside_a_challenger():
    """One objective: the best of the other candidates (c0002) gets as many trials as the challenger will
    have, unless it has them already; with several objectives there is no single incumbent."""
    from types import SimpleNamespace

    from jvmlab.tune.search import Search

    def trials(reps: int) -> list:
        rows = [SimpleNamespace(flag_set="c0001", repetition=1, flags=["-XX:+UseSerialGC"], container=None)]
        return rows + [
            SimpleNamespace(flag_set="c0002", repetition=r, flags=["-XX:+UseParallelGC"], container="small")
            for r in range(1, reps + 1)
        ]

    notes: list[str] = []

    def me(reps: int, objectives: int = 1) -> SimpleNamespace:
        return SimpleNamespace(
            objectives=[SimpleNamespace(maximize=True)] * objectives,
            _candidate_values=lambda: [("c0001", [100.0]), ("c0002", [120.0]), ("c0003", [130.0])],
            store=SimpleNamespace(trials=lambda _: trials(reps)),
            experiment_id=1,
            tune=SimpleNamespace(promising_repetitions=3),
            events=SimpleNamespace(note=notes.append),
            _verdict=lambda flags: "accepted",
        )

    # (with its container: a right-sizing study measures the incumbent where it ran)
    assert Search._incumbent_top_up(me(1), {"c0003"}) == [
        ("c0002", ["-XX:+UseParallelGC"], 3, "accepted", "small")
    ]
    assert notes == ["re-measuring the incumbent c0002 against c0003"]
    assert Search._incumbent_top_up(me(3), {"c0003"}) == []
    assert Search._incumbent_top_up(me(1, objectives=2), {"c0003"}) == []
