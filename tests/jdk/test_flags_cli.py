"""`jvmlab flags lint|migrate` through the real entry point: tables, JSON, exit codes (1: a JDK refuses a
flag; 2: a usage error, one line)."""

from __future__ import annotations

import json

import pytest

SAMPLE = "-XX:PermSize=256m -XX:+UseConcMarkSweepGC -XX:+PrintGCDetails -XX:+UseG1Gc"


def test_lint_from_the_table_exits_1_on_a_refused_flag(cli):
    run = cli("flags", "lint", SAMPLE, "--table-only")
    assert run.code == 1, run.err
    for text in ("ignored 8.0", "deprecated 9.0", "renamed 9", "removed", "unknown flag"):
        assert text in run.out
    assert "-XX:+UseG1Gc: did you mean -XX:+UseG1GC?" in run.out
    assert "-XX:PermSize=256m: use -XX:MetaspaceSize=256m" in run.out
    assert "answers: 8, 11, 17, 21, 25 from the package table\n" in run.out  # JDK 8's list: read, not derived


def test_lint_json(cli):
    run = cli("flags", "lint", SAMPLE, "--table-only", "--json", "--jdk", "8,17")
    doc = json.loads(run.out)
    assert run.code == 1 and doc["format_version"] == 1 and doc["refused"] is True
    assert doc["flags"] == SAMPLE.split()
    assert [t["label"] for t in doc["targets"]] == ["8", "17"]
    g1 = doc["targets"][1]["verdicts"][3]
    assert (g1["status"], g1["cause"], g1["nearest"], g1["source"]) == (
        "refused",
        "unknown",
        "-XX:+UseG1GC",
        "table",
    )


def test_lint_of_fine_flags_exits_0_and_takes_flags_after_a_double_dash(cli):
    assert cli("flags", "lint", "-XX:+UseG1GC -Xmx1g", "--table-only").code == 0
    run = cli("flags", "lint", "--table-only", "--jdk", "17", "--", "-XX:+UseG1GC", "-XX:MaxGCPauseMillis=50")
    assert run.code == 0, run.err
    assert "-XX:MaxGCPauseMillis=50" in run.out


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (
            ("flags", "lint", "-XX:+UseG1GC", "--jdk", "22", "--table-only"),
            "give a major of the table (8, 11, 17, 21, 25)",
        ),  # noqa: E501
        (("flags", "lint", "--table-only"), "give the flags"),
        (("flags", "lint", "-XX:+UseG1GC Main", "--table-only"), "'Main' is not a JVM option"),
        (("flags", "lint", '-Dx="open', "--table-only"), "check the quotes"),
        (
            ("flags", "migrate", "-XX:+UseG1GC", "--from", "9"),
            "--from 9: the table knows JDK 8, 11, 17, 21, 25",
        ),
        (("flags", "migrate", "-XX:+UseG1GC", "--from", "21", "--to", "17"), "older than --from 21"),
        (("flags", "migrate", "-XX:+UseG1GC", "--to", "latest"), "--to 'latest': give a JDK major"),
    ],
)
def test_usage_errors_are_one_line_and_exit_2(cli, args, message):
    run = cli(*args)
    assert run.code == 2
    assert message in run.err and run.err.count("\n") == 1


def test_migrate_prints_the_new_line_and_every_change(cli):
    run = cli(
        "flags", "migrate", "-XX:+UseConcMarkSweepGC -XX:+PrintGCDetails -Xloggc:gc.log", "--from", "1.8"
    )
    assert run.code == 0, run.err
    assert "JDK 8 -> 21: -XX:+UseG1GC '-Xlog:gc*:file=gc.log:uptime,level,tags'" in run.out
    assert "CMS was removed in JDK 14" in run.out


def test_migrate_json(cli):
    run = cli(
        "flags", "migrate", "-XX:PermSize=256m -XX:+AggressiveOpts", "--from", "8", "--to", "17", "--json"
    )
    doc = json.loads(run.out)
    assert doc["format_version"] == 1 and (doc["from"], doc["to"]) == (8, 17)
    assert doc["flags"] == ["-XX:MetaspaceSize=256m"] and doc["command_line"] == "-XX:MetaspaceSize=256m"
    assert [c["action"] for c in doc["changes"]] == ["rewritten", "dropped"]
    assert doc["check"] is None


@pytest.mark.jvm
def test_lint_asks_an_installed_jdk(cli, jdk17):
    run = cli("flags", "lint", SAMPLE, "--jdk", "17", "--json")
    doc = json.loads(run.out)
    assert run.code == 1
    target = doc["targets"][0]
    assert target["jdk"] == jdk17.name and target["source"] == f"asked {jdk17.name}"
    assert [v["status"] for v in target["verdicts"]] == ["refused", "refused", "renamed", "refused"]


@pytest.mark.jvm
def test_migrate_check_lints_the_result_on_the_target(cli, jdk17, tmp_path):
    log = tmp_path / "gc.log"
    run = cli("flags", "migrate", f"-XX:+UseConcMarkSweepGC -Xloggc:{log}", "--to", "17", "--check", "--json")
    doc = json.loads(run.out)
    assert run.code == 0, run.err
    assert doc["check"]["refused"] is False
    assert doc["check"]["targets"][0]["jdk"] is not None


def test_migrate_keeps_a_value_with_spaces_as_one_argument(cli):
    one = cli("flags", "migrate", "-XX:OnOutOfMemoryError=kill -9 %p", "--to", "21", "--json")
    assert json.loads(one.out)["flags"] == [
        "-XX:OnOutOfMemoryError=kill -9 %p"
    ]  # not "'%p' is not a JVM option"
    quoted = cli("flags", "migrate", '-Xmx1g "-XX:OnOutOfMemoryError=kill -9 %p"', "--json")
    assert json.loads(quoted.out)["flags"] == ["-Xmx1g", "-XX:OnOutOfMemoryError=kill -9 %p"]


@pytest.mark.jvm
def test_migrate_check_starts_the_target_and_exits_1_when_it_warns(cli, machine):
    if not any(j.major == 11 and j.vm == "HotSpot" for j in machine.jdks):
        pytest.skip("no JDK 11 installed")
    warned = cli("flags", "migrate", "-XX:+AggressiveOpts", "--to", "11", "--check")
    assert warned.code == 1 and "deprecated" in warned.out
    clean = cli("flags", "migrate", "-XX:+UseConcMarkSweepGC -XX:OldPLABSize=16", "--to", "11", "--check")
    assert clean.code == 0, clean.out
