"""Goals: their syntax, the spec's check, and the judgement from a value and its CI (pass, fail,
inconclusive when the CI straddles the bound or there is no CI)."""

from __future__ import annotations

import pytest
from synthetic import Variant, spec_dict

from jvmlab.experiment.analysis.goals import (
    FAIL,
    INCONCLUSIVE,
    NO_DATA,
    PASS,
    Goal,
    GoalError,
    goals_for,
    judge,
    parse_goal,
)
from jvmlab.experiment.spec import SpecError, parse_spec


def test_goal_syntax():
    assert parse_goal("young_gc_per_min <= -20%") == Goal("young_gc_per_min", "<=", -20.0, True)
    assert parse_goal(" p99_ms<500 ") == Goal("p99_ms", "<", 500.0, False)
    assert parse_goal("ops_per_s >= +5%") == Goal("ops_per_s", ">=", 5.0, True)
    assert parse_goal("rss_peak_mb <= 3000").text == "rss_peak_mb <= 3000"
    assert parse_goal("p99_ms <= -30%").text == "p99_ms <= -30%"
    for bad in ("p99_ms = 5", "p99_ms <= fast", "<= 5", "p99_ms <= 5%%", ""):
        with pytest.raises(GoalError, match="expected MEASURE OP NUMBER"):
            parse_goal(bad)


@pytest.mark.parametrize(
    ("goal", "value", "ci", "verdict"),
    [
        ("p99_ms <= 500", 400.0, (380.0, 420.0), PASS),
        ("p99_ms <= 500", 600.0, (550.0, 650.0), FAIL),
        ("p99_ms <= 500", 490.0, (450.0, 530.0), INCONCLUSIVE),  # straddles
        ("p99_ms <= 500", 500.0, (480.0, 500.0), PASS),  # the bound itself meets <=
        ("p99_ms < 500", 499.0, (480.0, 500.0), INCONCLUSIVE),  # ... but not <
        ("x >= +5%", 9.0, (6.0, 12.0), PASS),
        ("x >= +5%", 2.0, (0.5, 4.0), FAIL),
        ("x >= +5%", 6.0, (3.0, 9.0), INCONCLUSIVE),
        ("young_gc_per_min <= -20%", -25.0, (-30.0, -21.0), PASS),
        ("young_gc_per_min <= -20%", -25.0, (-30.0, -15.0), INCONCLUSIVE),
        ("p99_ms <= 500", 400.0, (None, None), INCONCLUSIVE),  # one repetition: no CI to judge by
        ("p99_ms <= 500", 600.0, (None, None), INCONCLUSIVE),
        ("p99_ms <= 500", None, (None, None), NO_DATA),
    ],
)
def test_judgement(goal, value, ci, verdict):
    got, reason = judge(parse_goal(goal), value, ci)
    assert got == verdict
    if ci == (None, None) and value is not None:
        assert "no CI" in reason and ("the value alone meets" in reason) == (value < 500)


def test_goals_apply_per_level_and_all():
    goals = {"all": ["rss_peak_mb <= 3000"], "high": ["p99_ms <= -30%"]}
    assert [g.measure for g in goals_for(goals, "high")] == ["rss_peak_mb", "p99_ms"]
    assert [g.measure for g in goals_for(goals, "low")] == ["rss_peak_mb"]
    assert [g.measure for g in goals_for(goals, None)] == ["rss_peak_mb"]


def _spec(goals, levels=()):
    return spec_dict("g", [Variant("a", "default")], goals, list(levels))


def test_the_spec_checks_its_goals():
    assert parse_spec(_spec({"all": ["ops_per_s >= +5%", "young_gc_per_min <= -20%"]})).goals
    assert parse_spec(_spec({"high": ["p99_ms <= 500"]}, ["low", "high"])).goals
    cases = [
        (_spec({"all": ["p99 <= 5"]}), "goals.all: 'p99' is not a measure; known: ops_per_s, metric_steady"),
        (_spec({"all": ["p99_ms = 5"]}), "goals.all: goal 'p99_ms = 5': expected MEASURE OP NUMBER"),
        (_spec({"peak": ["p99_ms <= 5"]}, ["low"]), "goals.peak: not a load level (the load levels are low)"),
        (_spec({"high": ["p99_ms <= 5"]}), "goals.high: not a load level (the spec has no load levels)"),
    ]
    for data, message in cases:
        with pytest.raises(SpecError, match=r"^spec\.toml: ") as e:
            parse_spec(data, source="spec.toml")
        assert message in str(e.value)


def test_goals_on_the_pause_time_of_a_kind_of_gc():
    spec = parse_spec(
        _spec({"all": ["full_gc_pause_ms_per_min <= -50%", "young_gc_pause_ms_per_min <= 200"]})
    )
    assert goals_for(spec.goals, None) == [
        Goal("full_gc_pause_ms_per_min", "<=", -50.0, True),
        Goal("young_gc_pause_ms_per_min", "<=", 200.0, False),
    ]
    by_level = parse_spec(_spec({"high": ["full_gc_pause_ms_per_min_peak <= -50%"]}, ["low", "high"]))
    assert [g.measure for g in goals_for(by_level.goals, "high")] == ["full_gc_pause_ms_per_min_peak"]
