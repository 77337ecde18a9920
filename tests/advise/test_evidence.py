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
