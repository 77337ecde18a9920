"""Evidence before tables: what a log's own JVM printed is true for that JVM. A flag on the command line a
JDK 8 log printed was accepted by that JVM, whatever the flag table says; asking about another JDK (--jdk)
still judges the flags by that JDK. Logs: excerpts of production logs (production/README.md)."""

from __future__ import annotations

from pathlib import Path

import pytest

from jvmlab.advise import advise_log, facts_of_log
from jvmlab.jdk.lint import Target, lint

PRODUCTION = Path(__file__).parent / "production"


@pytest.mark.parametrize(
    ("log", "flag"),
    [
        ("cms-parnew-fls-jdk8.log", "-XX:PrintFLSStatistics=1"),
        ("g1-dedup-unlock-jdk8.log", "-XX:+UseFastUnorderedTimeStamps"),
        ("shenandoah-jdk8u332.log", "-XX:+UseShenandoahGC"),
    ],
)
def test_a_flag_the_logs_own_jvm_ran_with_is_never_called_refused(log, flag):
    facts = facts_of_log(PRODUCTION / log)
    assert facts.jdk_major == 8 and facts.options_ran_on == 8
    assert flag in [o.raw for o in facts.options or ()]
    advice = advise_log(PRODUCTION / log)
    assert "flag-refused" not in advice.ids(), [f.title for f in advice.findings]


def test_asking_about_another_jdk_judges_the_same_flags_by_that_jdk():
    advice = advise_log(PRODUCTION / "cms-parnew-fls-jdk8.log", jdk_major=17)
    refused = next(f for f in advice.findings if f.id == "flag-refused")
    assert "-XX:+UseConcMarkSweepGC" in refused.title and "JDK 17" in refused.title


def test_flags_given_by_the_user_are_not_evidence():
    flags = "-Xmx1g -XX:+UseShenandoahGC"
    facts = facts_of_log(PRODUCTION / "shenandoah-jdk8u332.log", flags=flags)
    assert facts.options_ran_on is None


def test_parnew_with_cms_is_silent_on_jdk8_and_deprecated_without_it():
    facts = facts_of_log(PRODUCTION / "cms-parnew-gcid-jdk8.log")
    assert "-XX:+UseParNewGC" in [o.raw for o in facts.options or ()]
    advice = advise_log(PRODUCTION / "cms-parnew-gcid-jdk8.log")
    assert "flag-deprecated" not in advice.ids()
    (with_cms,) = lint(["-XX:+UseParNewGC", "-XX:+UseConcMarkSweepGC"], [Target("8", 8)]).targets
    assert [v.status for v in with_cms.verdicts] == ["ok", "ok"]
    (alone,) = lint(["-XX:+UseParNewGC"], [Target("8", 8)]).targets
    assert alone.verdicts[0].status == "deprecated"
    assert "Serial old collector" in (alone.verdicts[0].message or "")


def test_rates_of_a_rotated_file_are_over_the_span_it_covers():
    # The second file of a JDK 8 rotated set: its header (banner, CommandLine flags) is printed again after
    # `GC log file created`, at 437 s of uptime; its rates are over 437-692 s, not over the JVM's uptime.
    facts = facts_of_log(PRODUCTION / "cms-rotated-part2-jdk8.log")
    window = facts.summary.window
    assert not window.from_jvm_start and window.start_s == pytest.approx(436.981)
    young = facts.summary.rates["young"]
    assert young.mean_per_min == pytest.approx(young.count / (692.45 - 436.981) * 60, rel=1e-3)


def test_an_interval_under_a_second_is_said_in_milliseconds():
    from jvmlab.advise.rules.base import interval_text

    assert interval_text(1247) == "one every 48 ms"
    assert interval_text(30) == "one every 2.0 s"
    assert interval_text(0.2) == "one every 5.0 min"


def test_a_promotion_failure_names_the_full_collection_it_fell_back_to():
    # `ParNew (promotion failed) ... 0.19 secs]` then `[CMS: ... 2.92 secs]` in one record: the young part
    # and the full collection are rows of their own (GC ids n and n + 1); the finding names the full one
    from jvmlab.advise import Severity

    found = next(
        f
        for f in advise_log(PRODUCTION / "cms-promotion-failed-jdk6.log").findings
        if f.id == "promotion-failed"
    )
    assert found.title == "1 promotion failures, 1 ending in a full collection (longest 2.9 s)"
    assert found.severity is Severity.WARNING  # critical from 5 s (LONG_PAUSE_CRITICAL_MS)
    figures = found.evidence.figures
    assert figures["young_pause_total_ms"] == pytest.approx(192.526, abs=0.01)
    assert figures["fallback_pause_max_ms"] == pytest.approx(3115.547 - 192.526, abs=0.01)
