"""Collector flags given together: the table's answer (jdk/collector_choice.py) against what the JVMs say.
The table cases run everywhere; each is also started on the installed JDK of its major when there is one
(marker jvm), and must print the same words."""

from __future__ import annotations

import pytest

from jvmlab.jdk.collector_choice import CONFLICT, CONFLICT_8, DEFNEW_WITH_CMS, PARNEW_WITH_SERIAL
from jvmlab.jdk.lint import Target, lint
from jvmlab.jdk.probe import run_java

CASES = [
    # (major, flags, the status of each flag, the JVM's words for the last differing one or None)
    (8, ["-XX:+UseParNewGC", "-XX:+UseConcMarkSweepGC"], ["ok", "ok"], None),
    (8, ["-XX:+UseParNewGC"], ["deprecated"], PARNEW_WITH_SERIAL),
    (8, ["-XX:+UseConcMarkSweepGC", "-XX:-UseParNewGC"], ["ok", "deprecated"], DEFNEW_WITH_CMS),
    (8, ["-XX:-UseParNewGC"], ["ok"], None),
    (8, ["-XX:+UseG1GC", "-XX:+UseParNewGC"], ["ok", "refused"], CONFLICT_8),
    (8, ["-XX:+UseParallelGC", "-XX:+UseParallelOldGC"], ["ok", "ok"], None),
    (
        8,
        ["-XX:+UseConcMarkSweepGC", "-XX:+CMSIncrementalMode"],
        ["ok", "deprecated"],
        "Using incremental CMS",
    ),
    (17, ["-XX:+UseG1GC", "-XX:+UseParallelGC"], ["ok", "refused"], CONFLICT),
    (17, ["-XX:+UseSerialGC", "-XX:-UseSerialGC", "-XX:+UseG1GC"], ["ok", "ok", "ok"], None),
    (25, ["-XX:+UseZGC", "-XX:+UseShenandoahGC"], ["ok", "refused"], CONFLICT),
]


@pytest.mark.parametrize(("major", "flags", "statuses", "words"), CASES)
def test_the_table_knows_collector_combinations(major, flags, statuses, words):
    (target,) = lint(flags, [Target(str(major), major)]).targets
    assert [v.status for v in target.verdicts] == statuses
    said = [v.message for v in target.verdicts if v.status != "ok"]
    if words:
        assert said and words in said[-1]
    conflicts = [v for v in target.verdicts if v.status == "refused"]
    assert all(v.cause == "conflict" for v in conflicts)


@pytest.mark.jvm
@pytest.mark.parametrize(("major", "flags", "statuses", "words"), CASES)
def test_the_installed_jdk_says_the_same(major, flags, statuses, words, machine):
    jdk = next((j for j in machine.jdks if j.major == major and j.vm != "OpenJ9"), None)
    if jdk is None:
        pytest.skip(f"no JDK {major} installed")
    out = run_java(jdk.home / "bin" / "java", [*flags, "-version"], 60.0)
    text = out.stdout + out.stderr
    if words is None:
        assert out.returncode == 0 and "warning" not in text.lower(), text
    else:
        assert words in text, text
        assert (out.returncode != 0) == ("refused" in statuses), text
