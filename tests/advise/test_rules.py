"""The advise rules on real logs: every provoked problem (tests/advise/logs, made by make_logs.py on the
installed JDKs) fires its rules; the healthy logs, provoked and from the shared corpus, raise no warning or
critical finding; findings never claim what the input cannot show."""

from __future__ import annotations

import dataclasses
import re
import tomllib
from pathlib import Path

import pytest
from corpus import GCLOGS

from jvmlab.advise import Advice, ProcessSamples, Severity, advise, advise_log, facts_of_log
from jvmlab.advise import thresholds as t
from jvmlab.advise.rules import RULES

HERE = Path(__file__).parent
LOGS = HERE / "logs"
MANIFEST = tomllib.loads((LOGS / "MANIFEST.toml").read_text())["cases"]
HEALTHY_CORPUS = tomllib.loads((HERE / "healthy_corpus.toml").read_text())["logs"]
DOCS = HERE.parents[1] / "docs" / "advise.md"


def advice_of(case: dict) -> Advice:
    """The advice on a case's log with its flags, and the JVM's own output where the case kept it."""
    facts = facts_of_log(LOGS / case["log"], flags=case["flags"], jdk_major=case["jdk"])
    if "jvm_output" in case:
        facts = dataclasses.replace(facts, jvm_output=(LOGS / case["jvm_output"]).read_text())
    return advise(facts)


@pytest.mark.parametrize("name", sorted(n for n, c in MANIFEST.items() if c["expect"]))
def test_a_provoked_problem_fires_its_rules(name):
    case = MANIFEST[name]
    advice = advice_of(case)
    fired = {f.id: f for f in advice.findings}
    missing = [rule for rule in case["expect"] if rule not in fired]
    assert not missing, f"{name} ({case['why']}): {missing} did not fire; fired {sorted(fired)}"
    for rule in case["expect"]:
        f = fired[rule]
        assert f.evidence.figures or f.evidence.excerpts, f
        assert f.why and f.title


@pytest.mark.parametrize("name", sorted(n for n, c in MANIFEST.items() if c["healthy"]))
def test_no_warning_on_a_healthy_provoked_log(name):
    advice = advice_of(MANIFEST[name])
    loud = [f"{f.id}: {f.title}" for f in advice.findings if f.severity is not Severity.INFO]
    assert not loud, f"{name} ({MANIFEST[name]['why']})"


@pytest.mark.corpus
@pytest.mark.parametrize("path", sorted(HEALTHY_CORPUS))
def test_no_false_alarm_on_the_healthy_logs_of_the_corpus(path):
    advice = advise_log(GCLOGS / path)
    loud = [f"{f.id}: {f.title}" for f in advice.findings if f.severity is not Severity.INFO]
    assert not loud, f"{path} ({HEALTHY_CORPUS[path]['why']})"


ROTATING_JDK7 = "gctoolkit-testdata/gctoolkit-gclogs/streaming/rotating_directory/gc.log.1.current"


@pytest.mark.corpus
def test_permgen_flags_are_read_from_the_logs_command_line_and_judged_by_its_jdk():
    # A JDK 7 log (its banner says 1.7.0_80) with -XX:MaxPermSize on its `CommandLine flags:` line:
    # right on 7.
    advice = advise_log(GCLOGS / ROTATING_JDK7)
    assert advice.jdk_major == 7 and advice.flags_known
    assert "permgen-flags" not in advice.ids()
    # The same command line on JDK 8: ignored there, so a warning, with the metaspace flag of the same size.
    permgen = next(
        f for f in advise_log(GCLOGS / ROTATING_JDK7, jdk_major=8).findings if f.id == "permgen-flags"
    )
    assert permgen.severity is Severity.WARNING
    assert permgen.recommendation.add_flags == ["-XX:MaxMetaspaceSize=1073741824"]
    assert permgen.recommendation.remove_flags == ["-XX:MaxPermSize=1073741824"]


def test_the_same_permgen_flags_are_critical_where_the_jvm_refuses_them():
    case = next(c for c in MANIFEST.values() if c["jdk"] >= 17)
    advice = advise_log(LOGS / case["log"], flags=[*case["flags"], "-XX:MaxPermSize=256m"], jdk_major=17)
    permgen = next(f for f in advice.findings if f.id == "permgen-flags")
    assert permgen.severity is Severity.CRITICAL
    assert permgen.recommendation.add_flags == ["-XX:MaxMetaspaceSize=256m"]


def test_without_flags_the_rules_that_need_them_say_so():
    case = next(c for c in MANIFEST.values() if c["healthy"] and c["jdk"] >= 17)
    advice = advise_log(LOGS / case["log"])
    reasons = {n.id: n.reason for n in advice.not_checked}
    for rule in ("permgen-flags", "heap-size-default"):
        assert "--flags" in reasons[rule]
    assert not advice.flags_known


def test_a_log_without_safepoint_lines_leaves_the_safepoint_rules_unchecked():
    log = GCLOGS / "generated" / "jdk25-g1-gcstar.log"
    reasons = {n.id: n.reason for n in advise_log(log).not_checked}
    assert "safepoint" in reasons["long-time-to-safepoint"]
    assert "safepoint" in reasons["non-gc-safepoints"]


def test_there_are_at_least_25_rules_with_stable_unique_ids():
    ids = [r.id for r in RULES]
    assert len(ids) >= 25 and len(set(ids)) == len(ids)
    assert all(re.fullmatch(r"[a-z0-9]+(-[a-z0-9]+)*", i) for i in ids), ids


def test_every_rule_is_documented():
    text = DOCS.read_text()
    missing = [r.id for r in RULES if f"`{r.id}`" not in text]
    assert not missing


def test_every_threshold_names_its_source():
    """Each constant of thresholds.py has a comment above it (its source), possibly shared with the
    constants right after it."""
    lines = Path(t.__file__).read_text().splitlines()
    for i, line in enumerate(lines):
        if re.match(r"[A-Z][A-Z0-9_]* = ", line):
            above = lines[i - 1]
            assert above.startswith("#") or re.match(r"[A-Z][A-Z0-9_]* = ", above), line


def test_flags_the_jdk_refuses_ignores_or_deprecates():
    case = next(c for c in MANIFEST.values() if c["healthy"] and c["jdk"] == 21)
    flags = [
        *case["flags"],
        "-XX:+UseG1Gc",
        "-XX:+UseConcMarkSweepGC",
        "-XX:+UseSharedSpaces",
        "-XX:+PrintGCDetails",
    ]
    findings = {f.id: f for f in advise_log(LOGS / case["log"], flags=flags, jdk_major=21).findings}
    refused = findings["flag-refused"]
    assert refused.severity is Severity.CRITICAL
    assert "-XX:+UseG1Gc (did you mean -XX:+UseG1GC?)" in refused.evidence.excerpts
    assert set(refused.recommendation.remove_flags) == {"-XX:+UseG1Gc", "-XX:+UseConcMarkSweepGC"}
    assert refused.recommendation.add_flags == ["-XX:+UseG1GC"]
    assert findings["flag-ignored"].recommendation.remove_flags == ["-XX:+UseSharedSpaces"]
    assert findings["flag-deprecated"].recommendation.add_flags == ["-Xlog:gc*"]
    # The same flags on JDK 11: CMS is only deprecated there, but beside -XX:+UseG1GC it is a second
    # collector ("Multiple garbage collectors selected", as JDK 11 says); the shared spaces flag is fine.
    on_11 = {f.id: f for f in advise_log(LOGS / case["log"], flags=flags, jdk_major=11).findings}
    assert on_11["flag-refused"].recommendation.remove_flags == ["-XX:+UseG1Gc", "-XX:+UseConcMarkSweepGC"]
    assert any("Multiple garbage collectors selected" in e for e in on_11["flag-refused"].evidence.excerpts)
    assert "flag-ignored" not in on_11


def test_a_throughput_collector_under_a_latency_load():
    # The Parallel log of a healthy run: a note on its own; a warning when the run served a latency load
    # (an experiment with load levels says so), with G1 in place of Parallel.
    case = MANIFEST["healthy-parallel-jdk21"]
    facts = facts_of_log(LOGS / case["log"], flags=case["flags"], jdk_major=21)
    assert "throughput-collector-latency" not in advise(facts).ids()  # pauses well under 100 ms
    old_gen = MANIFEST["old-gen-full-parallel-jdk17"]
    facts = facts_of_log(LOGS / old_gen["log"], flags=old_gen["flags"], jdk_major=17)
    quiet = next(f for f in advise(facts).findings if f.id == "throughput-collector-latency")
    assert quiet.severity is Severity.INFO
    loud = next(
        f
        for f in advise(dataclasses.replace(facts, workload_kind="latency")).findings
        if f.id == "throughput-collector-latency"
    )
    assert loud.severity is Severity.WARNING
    assert loud.recommendation.add_flags == ["-XX:+UseG1GC"]
    assert loud.recommendation.remove_flags == ["-XX:+UseParallelGC"]


def test_swap_in_the_process_samples():
    # Swap cannot be provoked on this machine (no swap configured): a real log with the process samples an
    # experiment takes, as /proc reports them.
    case = MANIFEST["healthy-g1-jdk17"]
    facts = facts_of_log(LOGS / case["log"], flags=case["flags"], jdk_major=17)
    swapped = dataclasses.replace(facts, process=ProcessSamples(swap_bytes=(0, 48 << 20, 96 << 20)))
    finding = next(f for f in advise(swapped).findings if f.id == "swap-used")
    assert finding.severity is Severity.WARNING and finding.evidence.figures["swap_peak_bytes"] == 96 << 20
    none = dataclasses.replace(facts, process=ProcessSamples(swap_bytes=(0, 0)))
    assert "swap-used" not in advise(none).ids()


def test_a_heap_left_to_the_jvms_default():
    case = MANIFEST["healthy-g1-jdk17"]
    no_size = [f for f in case["flags"] if not f.startswith(("-Xmx", "-Xms"))]
    finding = next(
        f
        for f in advise_log(LOGS / case["log"], flags=no_size, jdk_major=17).findings
        if f.id == "heap-size-default"
    )
    assert finding.severity is Severity.INFO and finding.evidence.figures["memory_bytes"] > 0
    assert "heap-size-default" not in advise_log(LOGS / case["log"], flags=case["flags"], jdk_major=17).ids()


def test_row_selections_are_the_tables_rows_and_are_not_kept():
    import polars as pl

    facts = facts_of_log(LOGS / "explicit-gc-g1-jdk21.log")
    events = facts.events
    for where in ({"category": "pause"}, {"category": "pause", "kind": "young"}, {"cause": "System.gc()"}):
        expected = events.filter(pl.all_horizontal([pl.col(c) == v for c, v in where.items()]))
        rows = facts.rows(**where)
        assert rows.equals(expected) and facts.count(**where) == len(expected) > 0, where
    assert facts.count() == len(events) and facts.rows().equals(events)
    # what is kept between rules is which rows match (a bit each), not the rows: a rule's selection of a
    # large log is freed with the rule
    first, again = facts.rows(category="pause"), facts.rows(category="pause")
    assert first is not again and not facts._rows
