"""What the log and the command line say about the configuration itself: stopped time not logged, details
off, rotated files too small to hold an incident, explicit GC disabled, adaptive sizing off with a heap that
resizes, unlocked and hazardous options; GCLocker collections at warning level when they are frequent. On
excerpts of production logs (production/README.md) and the provoked logs (logs/MANIFEST.toml)."""

from __future__ import annotations

import dataclasses
from pathlib import Path

from jvmlab.advise import Severity, advise, advise_log, facts_of_log

HERE = Path(__file__).parent
PRODUCTION = HERE / "production"
ROTATED_SET = [PRODUCTION / f"cms-rotated-part{n}-jdk8.log" for n in (1, 2, 3)]


def findings(advice) -> dict:
    return {f.id: f for f in advice.findings}


def reasons(advice) -> dict:
    return {n.id: n.reason for n in advice.not_checked}


def test_rotated_files_that_hold_less_than_a_day_of_their_log():
    # -XX:+UseGCLogFileRotation -XX:NumberOfGCLogFiles=10 -XX:GCLogFileSize=20480 on the files' own
    # command line; three files cover 0-1,100 s of uptime in 62 kB: 66 bytes a second.
    found = findings(advise_log(ROTATED_SET))["log-rotation-too-small"]
    assert found.severity is Severity.WARNING
    figures = found.evidence.figures
    assert figures["files"] == 10 and figures["gc_log_file_size_bytes"] == 20480
    assert 2400 < figures["set_holds_s"] < 3600  # under an hour: a warning
    assert found.recommendation.add_flags == ["-XX:GCLogFileSize=1M"]
    assert "-XX:GCLogFileSize=20480" in found.evidence.excerpts
    # one file of 255 s is too little to tell the JVM's rate of logging
    one = advise_log(ROTATED_SET[1])
    assert "log-rotation-too-small" not in findings(one)
    assert reasons(one)["log-rotation-too-small"].startswith("not enough evidence (255.5 s of log")


def test_stopped_time_not_logged_with_the_flag_of_the_jdk_in_use():
    jdk8 = findings(advise_log(PRODUCTION / "cms-parnew-fls-jdk8.log"))["safepoint-logging-missing"]
    assert jdk8.severity is Severity.INFO
    assert jdk8.recommendation.add_flags == ["-XX:+PrintGCApplicationStoppedTime"]
    log = HERE / "logs" / "healthy-g1-jdk21.log"
    facts = facts_of_log(log, jdk_major=21)
    assert facts.summary.safepoints.count  # this log has them: nothing to say
    assert "safepoint-logging-missing" not in findings(advise(facts))
    without = dataclasses.replace(
        facts, log_events=facts.events.filter(facts.events["category"] != "safepoint")
    )
    without = dataclasses.replace(
        without,
        log_summary=facts.summary.model_copy(
            update={"safepoints": facts.summary.safepoints.model_copy(update={"count": 0})}
        ),
    )
    unified = findings(advise(without))["safepoint-logging-missing"]
    assert unified.recommendation.add_flags == ["-Xlog:gc*,safepoint:file=gc.log:uptime,level,tags"]


def test_settings_with_known_risks_on_the_command_line():
    found = findings(advise_log(PRODUCTION / "g1-dedup-unlock-jdk8.log"))
    disabled = found["explicit-gc-disabled"]
    assert disabled.recommendation.add_flags == ["-XX:+ExplicitGCInvokesConcurrent"]  # G1: a concurrent cycle
    assert disabled.recommendation.remove_flags == ["-XX:+DisableExplicitGC"]
    hazards = found["unlocked-options"]
    assert any(
        e.startswith("-XX:+UseFastUnorderedTimeStamps: time stamps may go backwards")
        for e in hazards.evidence.excerpts
    )
    unlocked = findings(advise_log(PRODUCTION / "shenandoah-jdk8u332.log"))["unlocked-options"]
    assert unlocked.evidence.excerpts == ["-XX:+UnlockExperimentalVMOptions"]
    assert all(f.severity is Severity.INFO for f in (disabled, hazards, unlocked))


def test_adaptive_sizing_off_while_the_heap_may_resize():
    log = HERE / "logs" / "healthy-parallel-jdk21.log"
    flags = "-Xms256m -Xmx1g -XX:+UseParallelGC -XX:-UseAdaptiveSizePolicy"
    found = findings(advise_log(log, flags=flags, jdk_major=21))["adaptive-sizing-off"]
    assert found.recommendation.add_flags == ["-Xms1024m"]
    fixed = advise_log(log, flags="-Xms1g -Xmx1g -XX:+UseParallelGC -XX:-UseAdaptiveSizePolicy", jdk_major=21)
    assert "adaptive-sizing-off" not in findings(fixed)


def test_details_off_only_where_the_log_shows_it():
    # its command line has +PrintGCDetails: details on
    assert "gc-details-off" not in findings(advise_log(PRODUCTION / "cms-parnew-fls-jdk8.log"))
    lines = (PRODUCTION / "cms-parnew-fls-jdk8.log").read_text().splitlines()
    header = [line.replace(" -XX:+PrintGCDetails", "") for line in lines if line.startswith("CommandLine")]
    assert header and "PrintGCDetails" not in header[0]


def test_a_unified_log_of_the_gc_tag_alone_has_no_details():
    plain = facts_of_log(PRODUCTION / "g1-xlog-gc-only.log")
    assert plain.log_details is False
    found = findings(advise(plain))["gc-details-off"]
    assert found.recommendation.add_flags == ["-Xlog:gc*,safepoint:file=gc.log:uptime,level,tags"]
    detailed = facts_of_log(HERE / "logs" / "healthy-g1-jdk21.log", jdk_major=21)
    assert detailed.log_details is True
    assert "gc-details-off" not in findings(advise(detailed))
