"""JDK Mission Control's rules run headless (jvmlab.jfr.jmc_rules) and their findings (advise.jmc_findings).

The parser's tests read jmc_report_sample.xml: JMC 9.1.1's report on a recording of SystemGcLoop (below),
cut to seven rules. The jvm tests record SystemGcLoop on JDK 17 (one JVM, ~3 s) and run JMC on it.
"""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from jvmlab.advise.finding import Confidence, Evidence, Finding, Recommendation, Severity
from jvmlab.advise.jmc_findings import JMC_OVERLAPS, jmc_findings, kebab_case, merge, plain_text
from jvmlab.errors import InputError
from jvmlab.jdk import installed_jdks
from jvmlab.jfr import JmcError, JmcNotInstalledError, JmcReport, find_install, parse_report, run_jmc_rules
from jvmlab.jfr.jmc_rules import severity_of

HERE = Path(__file__).parent
SAMPLE = HERE / "jmc_report_sample.xml"
PROGRAM = HERE / "programs" / "SystemGcLoop.java"
RECORD_TIMEOUT_S = 60
# Every collection a System.gc(): the young generation is larger than what the program allocates.
RECORD_FLAGS = ("-XX:+UseG1GC", "-Xmx256m", "-Xmn64m")
# one worker: the recording and JMC's report on it are made once (5 CPU-s), not once per worker
pytestmark = pytest.mark.xdist_group("jmc-rules")


def sample_report() -> JmcReport:
    results, errors = parse_report(SAMPLE.read_text(), Path("SystemGcLoop.jfr"))
    return JmcReport(Path("SystemGcLoop.jfr"), "9.1.1", Path("java"), results, errors, 0.5)


def jvmlab_finding(rule_id: str) -> Finding:
    return Finding(
        id=rule_id,
        severity=Severity.WARNING,
        title="65 System.gc() calls",
        evidence=Evidence(),
        why="",
        recommendation=Recommendation(add_flags=["-XX:+DisableExplicitGC"]),
        confidence=Confidence.HIGH,
    )


# --- the parser, on JMC's stored report ---------------------------------------------------------------


def test_sample_gives_every_rule_with_jmc_severity_and_score():
    report = sample_report()
    assert [r.rule_id for r in report.results] == [
        "Allocations.class",
        "ApplicationHalts",
        "CodeCache",
        "FullGc",
        "GcPauseRatio",
        "SystemGc",
        "VMOperations",
    ]
    system_gc = report.result("SystemGc")
    assert system_gc is not None
    assert (system_gc.score, system_gc.severity) == (93.8, "warning")
    assert system_gc.explanation.startswith("Calling System.gc()")
    assert "<p>" in system_gc.explanation  # JMC's markup, unescaped from the XML, kept in the record
    assert report.rule_errors == ()


def test_not_applicable_rules_are_kept_and_marked():
    code_cache = sample_report().result("CodeCache")
    assert code_cache is not None
    assert (code_cache.severity, code_cache.score, code_cache.applicable) == ("not applicable", -1.0, False)


def test_a_severity_without_score_stays_unscored():
    full_gc = sample_report().result("FullGc")
    assert full_gc is not None
    assert (full_gc.severity, full_gc.score) == ("warning", None)


def test_jmc_severity_is_severity_get_of_its_score():
    scored = [r for r in sample_report().results if r.score is not None and r.score >= 0]
    assert scored
    assert all(severity_of(r.score) == r.severity for r in scored if r.score is not None)
    assert [severity_of(s) for s in (75, 74.9, 25, 24.9, 0, -1, -3)] == [
        "warning",
        "info",
        "info",
        "ok",
        "ok",
        "not applicable",
        "ignore",
    ]


def test_a_failed_rule_is_reported_apart():
    xml = (
        "<reportcollection><report><file>r.jfr</file>"
        "<rule><id>HeapContent</id><name>Heap Content</name><error>java.lang.NullPointerException\n"
        "\tat somewhere</error></rule></report></reportcollection>"
    )
    results, errors = parse_report(xml, Path("r.jfr"))
    assert results == ()
    assert [(e.rule_id, e.error) for e in errors] == [("HeapContent", "java.lang.NullPointerException")]


def test_a_report_error_for_a_non_recording_names_the_file():
    xml = (
        "<reportcollection><report><file>x.txt</file><error>org.openjdk.jmc.flightrecorder.internal."
        "InvalidJfrFileException: No readable chunks in recording\n\tat ...</error></report>"
        "</reportcollection>"
    )
    with pytest.raises(InputError, match=r"^x\.txt: not a JFR recording \(JMC: InvalidJfrFileException"):
        parse_report(xml, Path("x.txt"))


def test_entity_declarations_are_refused():
    xml = '<!DOCTYPE r [<!ENTITY a "aaaa">]><reportcollection><report/></reportcollection>'
    with pytest.raises(JmcError, match="DOCTYPE"):
        parse_report(xml, Path("r.jfr"))


def test_missing_jars_say_to_run_make_jmc(tmp_path, monkeypatch):
    monkeypatch.setenv("JVMLAB_JMC_DIR", str(tmp_path))
    recording = tmp_path / "r.jfr"
    recording.write_bytes(b"FLR\0")
    with pytest.raises(JmcNotInstalledError, match="make jmc") as raised:
        run_jmc_rules(recording)
    assert "\n" not in str(raised.value)


# --- findings and the merge ---------------------------------------------------------------------------


def test_warning_and_info_results_become_findings():
    findings = {f.id: f for f in jmc_findings(sample_report())}
    assert set(findings) == {"jmc-allocations-class", "jmc-full-gc", "jmc-system-gc"}
    system_gc = findings["jmc-system-gc"]
    assert (system_gc.severity, system_gc.source, system_gc.jmc_rule, system_gc.jmc_score) == (
        Severity.WARNING,
        "jmc",
        "SystemGc",
        93.8,
    )
    assert system_gc.title == "100 % of the garbage collections were caused by System.gc()."
    assert "<p>" not in system_gc.why and "\n" in system_gc.why
    assert findings["jmc-allocations-class"].severity == Severity.INFO
    assert "'byte[]'" in findings["jmc-allocations-class"].title


def test_plain_text_and_kebab_case():
    assert plain_text("a&lt;b &amp; <b>c</b><p>d&nbsp;e''f''") == "a<b & c\nd e'f'"
    ids = ("SystemGc", "VMOperations", "PID1Rule", "Fatal Errors", "GcPauseTargetRule")
    assert [kebab_case(i) for i in ids] == [
        "system-gc",
        "vm-operations",
        "pid1-rule",
        "fatal-errors",
        "gc-pause-target-rule",
    ]


def test_merge_drops_a_jmc_finding_whose_twin_fired():
    jmc = jmc_findings(sample_report())
    ours = [jvmlab_finding("explicit-gc"), jvmlab_finding("long-gc-pause")]
    merged = merge(ours, jmc)
    assert [f.id for f in merged] == ["explicit-gc", "long-gc-pause", "jmc-allocations-class", "jmc-full-gc"]
    assert merged[0].also_reported_by == ["jmc:SystemGc"]
    assert merged[1].also_reported_by == []
    assert ours[0].also_reported_by == []  # findings are frozen: merge copies


def test_merge_keeps_a_jmc_finding_whose_twin_did_not_fire():
    merged = merge([jvmlab_finding("gc-overhead-high")], jmc_findings(sample_report()))
    assert "jmc-system-gc" in {f.id for f in merged}


def test_overlaps_name_jmc_rules_of_this_version():
    known = {r.rule_id for r in sample_report().results} | {
        "HighGc", "LongGcPause", "GcPauseTargetRule", "GcStall", "GcLocker", "IncreasingLiveSet",
        "GcOptions", "Options",
    }  # fmt: skip
    assert set(JMC_OVERLAPS) <= known


# --- JMC on a real recording --------------------------------------------------------------------------


@pytest.fixture(scope="module")
def system_gc_recording(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A ~2 s JFR recording (profile settings) of SystemGcLoop on JDK 17 with G1."""
    jdk = next((j for j in installed_jdks() if j.major == 17), None)
    if jdk is None:
        pytest.skip("no JDK 17 installed")
    recording = tmp_path_factory.mktemp("jmc") / "system-gc.jfr"
    argv = [
        str(jdk.java),
        f"-XX:StartFlightRecording=filename={recording},settings=profile",
        *RECORD_FLAGS,
        str(PROGRAM),
        "2",
    ]
    subprocess.run(argv, check=True, capture_output=True, timeout=RECORD_TIMEOUT_S)
    return recording


@pytest.fixture(scope="module")
def system_gc_report(system_gc_recording: Path) -> JmcReport:
    try:
        find_install()
    except JmcNotInstalledError as e:
        pytest.fail(str(e))
    return run_jmc_rules(system_gc_recording, timeout_s=120)


@pytest.mark.jvm
def test_jmc_scores_system_gc_high(system_gc_report: JmcReport):
    result = system_gc_report.result("SystemGc")
    assert result is not None and result.score is not None
    assert result.score >= 75 and result.severity == "warning"
    assert system_gc_report.jmc_version == find_install().version
    assert system_gc_report.rule_errors == ()
    assert any(not r.applicable for r in system_gc_report.results)  # "not applicable" kept


@pytest.mark.jvm
def test_system_gc_becomes_a_warning_finding_that_merge_folds_into_explicit_gc(system_gc_report: JmcReport):
    findings = jmc_findings(system_gc_report)
    system_gc = next(f for f in findings if f.id == "jmc-system-gc")
    assert system_gc.severity == Severity.WARNING and system_gc.jmc_rule == "SystemGc"
    merged = merge([jvmlab_finding("explicit-gc")], findings)
    assert "jmc-system-gc" not in {f.id for f in merged}
    assert merged[0].also_reported_by == ["jmc:SystemGc"]


@pytest.mark.jvm
def test_a_file_that_is_not_a_recording_is_a_one_line_input_error(tmp_path: Path):
    try:
        find_install()
    except JmcNotInstalledError as e:
        pytest.fail(str(e))
    not_jfr = tmp_path / "gc.log"
    not_jfr.write_text("[0.010s][info][gc] Using G1\n")
    with pytest.raises(InputError) as raised:
        run_jmc_rules(not_jfr, timeout_s=60)
    message = str(raised.value)
    assert message.startswith(f"{not_jfr}: not a JFR recording") and "\n" not in message
