"""`jvmlab jdks`, `jdks add/remove`, `jdks check`: output, JSON documents, exit codes."""

from __future__ import annotations

import json

from jvmlab.jdk.flags import check_flags
from jvmlab.report.jdks_view import check_view, jdks_view, short_size


def test_table_lists_the_jdks(cli, jdk17, jdk25):
    run = cli("jdks")
    assert run.code == 0 and run.err == ""
    for name in (jdk17.name, jdk25.name):
        assert name in run.out
    assert "Shenandoah(gen)" in run.out and "Epsilon(x)" in run.out


def test_view_rows(machine, jdk17):
    view = jdks_view(machine)
    row = next(r for r in view.rows if r[0].startswith(jdk17.name))
    assert row[1] == f"{jdk17.version}+{jdk17.build}" and row[2:5] == (jdk17.vendor, "HotSpot", jdk17.arch)
    assert row[5].startswith("Serial Parallel G1 ZGC") and row[5].endswith("Epsilon(x)")
    assert row[6:] == ("yes", "yes", str(jdk17.home))


def test_json_document(cli, jdk17):
    run = cli("jdks", "--json")
    assert run.code == 0
    doc = json.loads(run.out)
    assert (doc["format_version"], doc["kind"], doc["tool"]) == (1, "jdks", "jvmlab")
    assert set(doc["host"]) == {"os", "arch", "cpus"}
    found = next(j for j in doc["jdks"] if j["home"] == str(jdk17.home))
    analyses = found.pop("analyses")
    assert found == jdk17.to_dict()
    assert all(a["applies"] == "yes" for a in analyses.values())  # HotSpot: every analysis
    assert {c["name"] for c in found["collectors"]} == {
        "Serial",
        "Parallel",
        "CMS",
        "G1",
        "ZGC",
        "Shenandoah",
        "Epsilon",
    }
    assert doc["problems"] == []


def test_add_and_remove(cli, fake_jdk, jvmlab_home):
    fake = fake_jdk("mine", version="21.0.66")
    run = cli("jdks", "add", "lab-21", fake.home)
    assert run.code == 0 and "registered lab-21" in run.out and "lab-21 (21.0.66+7, Acme Corp)" in run.out
    doc = json.loads(cli("jdks", "--json").out)
    assert any(j["name"] == "lab-21" and j["sources"] == ["registered:lab-21"] for j in doc["jdks"])
    run = cli("jdks", "remove", "lab-21")
    assert run.code == 0 and str(jvmlab_home / "jdks.toml") in run.out
    run = cli("jdks", "remove", "lab-21")
    assert run.code == 2 and run.out == "" and run.err.startswith("error: no JDK registered as 'lab-21'")


def test_problems_are_shown(cli, fake_jdk, jvmlab_home):
    broken = fake_jdk("broken", behaviour="garbage")
    assert cli("jdks", "add", "broken", broken.home).code == 0
    run = cli("jdks")
    text = " ".join(run.out.split())  # long lines wrap
    assert run.code == 0 and f"problem: {broken.home} [registered:broken]" in text
    assert "printed no Java version, is it a JDK?" in text


def test_check_rejected_exits_2(cli, jdk17):
    run = cli("jdks", "check", "--jdk", jdk17.name, "--", "-XX:+UseConcMarkSweepGC")
    assert run.code == 2
    assert "flags: -XX:+UseConcMarkSweepGC" in run.out and "REJECTED" in run.out
    assert f"error: {jdk17.name}: Unrecognized VM option 'UseConcMarkSweepGC'" in run.out
    assert "0 of 1 accepted" in run.out


def test_check_accepted_with_ergonomics(cli, jdk17):
    run = cli(
        "jdks", "check", "--jdk", "17", "--jdk", "vendor:debian", "--flags", "-Xmx256m -XX:+UseSerialGC"
    )
    assert run.code == 0, run.out + run.err
    row = next(line for line in run.out.splitlines() if line.startswith(jdk17.name))
    assert row.split()[1:5] == ["accepted", "Serial", "256M/256M", "85.3M/85.3M"]


def test_check_without_double_dash(cli, jdk17):
    run = cli("jdks", "check", "-XX:+UseSerialGC", "--jdk", jdk17.name, "-Xmx64m", "-cp", "/tmp", "--json")
    assert run.code == 0
    assert json.loads(run.out)["checks"][0]["flags"] == ["-XX:+UseSerialGC", "-Xmx64m", "-cp", "/tmp"]


def test_check_warnings_are_listed(cli, jdk17):
    run = cli("jdks", "check", "--jdk", jdk17.name, "--", "-XX:+UseBiasedLocking")
    assert run.code == 0 and "warnings" in run.out
    assert "warning: " in run.out and "UseBiasedLocking was deprecated" in run.out


def test_check_json(cli, jdk17, jdk25):
    sets = ["--flags", "serial=-XX:+UseSerialGC -Xmx64m", "--flags", "cms=-XX:+UseConcMarkSweepGC"]
    run = cli("jdks", "check", "--jdk", f"{jdk17.name},{jdk25.name}", "--json", "--no-flag-table", *sets)
    assert run.code == 2
    doc = json.loads(run.out)
    assert (doc["format_version"], doc["kind"], doc["all_accepted"]) == (1, "jdks-check", False)
    assert [(c["jdk"], c["label"], c["accepted"]) for c in doc["checks"]] == [
        (jdk.name, label, ok) for jdk in (jdk17, jdk25) for label, ok in (("serial", True), ("cms", False))
    ]
    serial = doc["checks"][0]
    assert serial["flags"] == ["-XX:+UseSerialGC", "-Xmx64m"]
    assert (
        serial["ergonomics"]["collector"] == "Serial"
        and serial["ergonomics"]["max_heap_size_bytes"] == 64 << 20
    )
    assert "flag_table" not in serial
    full = json.loads(cli("jdks", "check", "--jdk", jdk17.name, "--json", "--", "-Xmx64m").out)
    table = full["checks"][0]["flag_table"]
    assert table["MaxHeapSize"] == {
        "type": "size_t",
        "value": "67108864",
        "kinds": "product",
        "origin": "command line",
    }


def test_check_usage_errors(cli, jdk17):
    run = cli("jdks", "check", "--jdk", jdk17.name)
    assert run.code == 2 and "give the flags to check (jvmlab jdks check -- -Xmx1g)" in run.err
    run = cli("jdks", "check", "--jdk", "temurin-99", "--", "-Xmx1g")
    assert run.code == 2 and "no JDK matches 'temurin-99'" in run.err and jdk17.name in run.err
    run = cli("jdks", "check", "--jdk", jdk17.name, "--", "-Xmx1g", "Main")
    assert run.code == 2 and "'Main' is not a JVM option" in run.err
    run = cli("jdks", "check", "--jdk", jdk17.name, "--flags", "-Dx='unclosed")
    assert run.code == 2 and "No closing quotation" in run.err


def test_check_view(jdk17):
    checks = [check_flags(jdk17, ["-Xmx256m"], label="small"), check_flags(jdk17, ["-XX:+UseParallelOldGC"])]
    view = check_view(checks)
    assert [s.title for s in view.sections] == ["small: -Xmx256m", "-XX:+UseParallelOldGC"]
    assert view.sections[1].rows[0][:3] == (jdk17.name, "REJECTED", "—")
    assert (view.rejected, view.total) == (1, 2)
    assert view.messages[0][0] == "error" and "Did you mean '(+/-)UseParallelGC'?" in view.messages[0][1]


def test_short_size():
    sizes = (None, 512, 640 << 10, 256 << 20, int(85.3 * (1 << 20)), 4 << 30, 2**64 - 1)
    assert [short_size(v) for v in sizes] == ["—", "512B", "640K", "256M", "85.3M", "4G", "max"]
