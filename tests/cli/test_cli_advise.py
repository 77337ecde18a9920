"""`jvmlab advise` end to end: terminal, JSON and Markdown of the same findings, exit codes for CI, and one
line for each user mistake."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

ADVISE_LOGS = Path(__file__).resolve().parents[1] / "advise" / "logs"
METASPACE = ADVISE_LOGS / "metaspace-parallel-jdk21.log"
HEALTHY = ADVISE_LOGS / "healthy-g1-jdk21.log"
FINDING_FIELDS = {
    "id", "severity", "title", "evidence", "why", "recommendation", "effect", "confidence", "source",
    "jmc_rule", "jmc_score", "also_reported_by",
}  # fmt: skip


def test_terminal_shows_the_finding_its_evidence_and_the_change(cli):
    r = cli("advise", METASPACE, "--flags", "-XX:+UseParallelGC -Xmx256m", "--no-check")
    assert r.code == 0, r.err
    assert "metaspace-threshold-gc" in r.out and "Metadata GC Threshold" in r.out
    assert "-XX:MetaspaceSize=" in r.out
    assert "not checked:" in r.out


def test_json_has_a_format_version_and_every_field(cli):
    r = cli("advise", METASPACE, "--flags", "-XX:+UseParallelGC -Xmx256m", "--no-check", "--json")
    doc = json.loads(r.out)
    assert doc["format_version"] == 1 and doc["tool"] == "jvmlab"
    (advice,) = doc["inputs"]
    assert advice["jdk_major"] == 21 and advice["flags_known"] is True
    finding = next(f for f in advice["findings"] if f["id"] == "metaspace-threshold-gc")
    assert set(finding) == FINDING_FIELDS
    assert finding["evidence"]["gc_ids"] and finding["evidence"]["figures"]["collections"] >= 2
    severities = [f["severity"] for f in advice["findings"]]
    order = {"critical": 0, "warning": 1, "info": 2}
    assert severities == sorted(severities, key=order.__getitem__)


def test_markdown_escapes_what_comes_from_the_log(cli, tmp_path):
    out = tmp_path / "advice.md"
    r = cli("advise", f"<b>evil|label={METASPACE}", "--no-check", "--markdown", "-o", out)
    assert r.code == 0, r.err
    text = out.read_text()
    assert "## \\<b\\>evil\\|label" in text and "<b>" not in text
    assert "### WARNING" in text or "### CRITICAL" in text


def test_fail_on_gates_by_severity(cli):
    assert cli("advise", METASPACE, "--no-check", "--fail-on", "warning").code == 1
    assert cli("advise", HEALTHY, "--no-check", "--fail-on", "warning").code == 0


@pytest.mark.jvm
def test_recommended_flags_are_checked_on_the_installed_jdk_of_the_logs_version(cli):
    r = cli("advise", METASPACE, "--flags", "-XX:+UseParallelGC -Xmx256m", "--json")
    finding = next(
        f for f in json.loads(r.out)["inputs"][0]["findings"] if f["id"] == "metaspace-threshold-gc"
    )
    assert finding["recommendation"]["checked_on"].startswith("temurin-21")
    assert finding["recommendation"]["check_error"] is None


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--jdk", "7"], "--jdk 7: jvmlab knows JDK 8 to 25"),
        (["--jdk", "zulu-99"], "--jdk zulu-99: not a JDK version"),
        (["--flags", "-Xmx2g '-XX:+UseG1GC"], "check the quotes"),
        (["--fail-on", "info"], "--fail-on info: give one of warning, critical"),
        (["--json", "--markdown"], "choose one output format"),
    ],
)
def test_a_user_mistake_is_one_line_and_exit_2(cli, args, message):
    r = cli("advise", HEALTHY, "--no-check", *args)
    assert r.code == 2 and message in r.err and len(r.err.strip().splitlines()) == 1, r.err


def test_a_file_that_is_not_a_gc_log_is_named(cli, tmp_path):
    bad = tmp_path / "notes.txt"
    bad.write_text("hello\nworld\n")
    r = cli("advise", bad)
    assert r.code == 2 and str(bad) in r.err and len(r.err.strip().splitlines()) == 1


def test_a_labelled_log_is_a_log_even_beside_a_store(cli, tmp_path, monkeypatch):
    """`label=path` of an existing file is never taken for an experiment's name, store or not."""
    monkeypatch.chdir(tmp_path)
    (tmp_path / "jvmlab.db").write_bytes(b"")
    r = cli("advise", f"mine={METASPACE}", "--no-check", "--json")
    assert r.code == 0, r.err
