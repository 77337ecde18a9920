"""`jvmlab jit`: a compilation log's summary in the terminal and as JSON, what is not a compilation log, and
`jvmlab jit directives` from a profile, verified by experiment."""

from __future__ import annotations

import json
import tomllib
from pathlib import Path

import pytest
from corpus import GCLOGS

from jvmlab.cli.main import main

LOGS = Path(__file__).with_name("logs")
GC_LOG = GCLOGS / "generated" / "jdk25-g1-gcstar.log"


@pytest.mark.parametrize("name", ["jdk17-codecache-full.txt", "jdk25-codecache-full.txt"])
def test_codecache_full_is_shown_with_what_it_disabled(name, capsys):
    assert main(["jit", str(LOGS / name)]) == 0
    out = capsys.readouterr().out
    assert "CodeCache full: the compiler was disabled" in out and "Compiler has been disabled" in out


def test_json_is_the_summary(capsys):
    assert main(["jit", str(LOGS / "jdk17-lc.xml.gz"), "--json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert doc["format_version"] == 1 and doc["compilations"] > 100 and doc["formats"] == ["log_compilation"]
    assert doc["compile_time"]["timed"] > 100 and doc["uncommon_traps"]


def test_a_gc_log_or_nothing_is_one_line_and_exit_2(tmp_path, capsys):
    inputs = [str(GC_LOG)] if GC_LOG.is_file() else []
    for args in ([*inputs], [str(tmp_path / "missing.log")]):
        if not args:
            continue
        assert main(["jit", *args]) == 2
        err = capsys.readouterr().err.strip()
        assert len(err.splitlines()) == 1 and args[0] in err, err
    assert main(["jit"]) == 2
    assert "give compilation logs" in capsys.readouterr().err


PROFILE = """\
java.lang.Thread.run_[j];jvmlab.workloads.GcChurn.run_[j];jvmlab.workloads.GcChurn.churn_[j] 70
java.lang.Thread.run_[j];jvmlab.workloads.GcChurn.run_[j] 20
start_thread;os::sleep 100
"""


def test_directives_from_a_profile_are_written_for_the_jdk(tmp_path, capsys):
    profile = tmp_path / "p.collapsed"
    profile.write_text(PROFILE)
    out = tmp_path / "hot.json"
    assert main(["jit", "directives", str(profile), "-o", str(out), "--jdk", "17"]) == 0
    (d,) = json.loads(out.read_text())
    assert d["match"] == ["jvmlab/workloads/GcChurn.churn", "jvmlab/workloads/GcChurn.run"]
    text = " ".join(capsys.readouterr().out.split())
    assert "-XX:CompilerDirectivesFile=" in text and "no hot code heap" in text


SPEC = """
name = "directives"
[workload]
# one rate line a trial: the metric the verdict compares (any verdict will do: the test is of the flow)
command = ["{java}", "{jvm_opts}", "-cp", "{classes}", "jvmlab.workloads.GcChurn", "--duration-s=1"]
[workload.metric]
name = "alloc_mb_s"
regex = "rate_mb_s=(?P<value>[0-9.]+)"
[matrix]
jdks = ["17"]
repetitions = 2
[trial]
timeout_s = 60
"""


@pytest.mark.jvm
def test_directives_verified_as_a_variant(tmp_path, capsys):
    profile = tmp_path / "p.collapsed"
    profile.write_text(PROFILE)
    spec = tmp_path / "s.toml"
    spec.write_text(SPEC)
    args = ["jit", "directives", str(profile), "-o", str(tmp_path / "hot.json"), "--jdk", "17"]
    args += ["--verify", str(spec), "--repetitions", "2", "--db", str(tmp_path / "r.db")]
    args += ["--runs", str(tmp_path / "runs")]
    assert main(args) == 0, capsys.readouterr().out
    out = " ".join(capsys.readouterr().out.split())
    assert "directives verified (experiment" in out
    assert any(v in out for v in (": confirmed", ": harmful", ": no effect", ": inconclusive"))


@pytest.mark.parametrize("name", ["jdk11-codecache-full.txt", "jdk25-codecache-full.txt"])
def test_advise_reads_codecache_full_from_a_compilation_log(name, capsys):
    if not GC_LOG.is_file():
        pytest.skip("the shared GC log corpus is not here")
    code = main(["advise", str(GC_LOG), "--jit", str(LOGS / name), "--no-check", "--json"])
    doc = json.loads(capsys.readouterr().out)
    assert code == 0
    (finding,) = [f for a in doc["inputs"] for f in a["findings"] if f["id"] == "code-cache-full"]
    assert finding["severity"] == "critical"


def test_a_full_code_heap_sized_on_the_command_line_grows_itself(capsys):
    """The JVM's flags (from MANIFEST) set the profiled heap to 7 MiB: that heap filled, and raising
    ReservedCodeCacheSize alone would not give it room; without the flags, the reservation doubles."""
    if not GC_LOG.is_file():
        pytest.skip("the shared GC log corpus is not here")
    manifest = tomllib.loads((LOGS / "MANIFEST.toml").read_text())
    name = "jdk25-codeheap-full.txt.gz"
    base = ["advise", str(GC_LOG), "--jit", str(LOGS / name), "--no-check", "--json"]
    for flags, add in (
        (manifest[name]["flags"], ["-XX:ProfiledCodeHeapSize=15m", "-XX:ReservedCodeCacheSize=24m"]),
        ("-XX:ReservedCodeCacheSize=100m", ["-XX:ReservedCodeCacheSize=256m"]),
    ):
        assert main([*base, "--flags", flags]) == 0
        doc = json.loads(capsys.readouterr().out)
        (finding,) = [f for a in doc["inputs"] for f in a["findings"] if f["id"] == "code-cache-full"]
        assert finding["recommendation"]["add_flags"] == add, finding
        assert "profiled nmethods" in finding["recommendation"]["action"]


def test_advise_reads_the_code_heaps_a_compilation_log_reported(capsys):
    """The report the JVM printed when its profiled heap filled gives each code heap's size and use: the
    code heap rules read it as they read an experiment's samples."""
    if not GC_LOG.is_file():
        pytest.skip("the shared GC log corpus is not here")
    name = "jdk17-codeheap-full.txt.gz"
    assert main(["advise", str(GC_LOG), "--jit", str(LOGS / name), "--no-check", "--json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    (finding,) = [f for a in doc["inputs"] for f in a["findings"] if f["id"] == "code-heap-nearly-full"]
    assert "profiled nmethods" in finding["title"]
    assert finding["recommendation"]["add_flags"] == ["-XX:ProfiledCodeHeapSize=14m"]


def test_the_compilation_table_has_each_compilation_and_its_fate(tmp_path, capsys):
    log = str(LOGS / "jdk25-print.txt")
    assert main(["jit", log, "--compilations", "--top", "3"]) == 0
    out = " ".join(capsys.readouterr().out.split())  # rich folds long method names at the terminal's width
    assert "431 compilations, in time order" in out and "compile ms" in out
    csv = tmp_path / "c.csv"
    assert main(["jit", log, "--compilations", "--csv", str(csv)]) == 0
    lines = csv.read_text().splitlines()
    assert len(lines) == 432 and lines[0].startswith("uptime_s,compile_id,level,compiler,method,osr")
    assert lines[1].startswith("0.045,1,3,c1,java.lang.Object::<init>,false,1,")
    assert any(line.endswith(",not used") for line in lines)  # JDK 25 says why a method was made not entrant
    assert main(["jit", log, "--compilations", "--order", "size"]) == 2
    assert "--order size" in capsys.readouterr().err


def test_without_a_profile_the_methods_compiled_most_are_the_hot_set(tmp_path, capsys):
    out = tmp_path / "hot.json"
    assert (
        main(
            [
                "jit",
                "directives",
                str(LOGS / "jdk17-lc.xml.gz"),
                "-o",
                str(out),
                "--jdk",
                "17",
                "--limit",
                "5",
            ]
        )
        == 0
    )
    (d,) = json.loads(out.read_text())
    assert len(d["match"]) == 5 and all(m.startswith("jvmlab/workloads/chunkgen/") for m in d["match"])
    assert "hot methods (compile log)" in " ".join(capsys.readouterr().out.split())
    assert main(["jit", "directives", str(LOGS / "MANIFEST.toml"), "-o", str(out)]) == 2
    assert "not a collapsed-stacks profile" in capsys.readouterr().err


def test_queue_waits_are_task_minus_task_queued_and_feed_the_backlog_rule():
    import dataclasses
    import gzip
    import re

    from jvmlab.advise import Machine, advise, facts_of_log
    from jvmlab.jit import load_compile_log, summarize

    path = LOGS / "jdk17-lc.xml.gz"
    log = load_compile_log(path)
    text = gzip.decompress(path.read_bytes()).decode()
    queued = float(re.search(r"<task_queued compile_id='7' .*?stamp='([0-9.]+)'", text).group(1))
    started = float(re.search(r"<task compile_id='7' .*?stamp='([0-9.]+)'", text).group(1))
    row = log.events.filter((log.events["compile_id"] == 7) & log.events["kind"].is_in(["compile", "osr"]))
    assert row["queue_ms"][0] == pytest.approx((started - queued) * 1000)
    summary = summarize(log)
    assert summary.queue_time["timed"] > 100
    if not GC_LOG.is_file():
        return
    base = facts_of_log(GC_LOG, flags="-XX:CICompilerCount=2", jdk_major=25)
    backlog = dataclasses.replace(summary, queue_time={**summary.queue_time, "timed": 400, "p99_ms": 2500.0})
    facts = dataclasses.replace(base, jit=backlog, machine=Machine(cpus_total=8))
    (finding,) = [x for x in advise(facts).findings if x.id == "compile-backlog"]
    assert finding.recommendation.add_flags == ["-XX:CICompilerCount=4"]
    assert "compile-backlog" not in advise(dataclasses.replace(base, jit=summary)).ids()


def test_hot_methods_from_a_profile_pick_the_inlining_failures_shown(tmp_path, capsys):
    """A profile whose only hot Java method is java.util.Random.nextFloat: the failed inlines listed are
    nextFloat's (35 in this log), not those of the methods compiled most."""
    profile = tmp_path / "cpu.collapsed"
    profile.write_text(
        "java.lang.Thread.run_[j];jvmlab.workloads.chunkgen.Terrain.height_[j];"
        "java.util.Random.nextFloat_[j] 90\n"
        "java.lang.Thread.run_[j];Interpreter 10\n"
    )
    log = str(LOGS / "jdk17-lc.xml.gz")
    assert main(["jit", log, "--profile", str(profile), "--json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert doc["hot_methods"] == ["java.util.Random::nextFloat"]
    assert doc["hot_source"] == f"profile {profile}"
    failures = doc["hot_inlining_failures"]
    assert failures and {f["caller"] for f in failures} == {"java.util.Random::nextFloat"}
    assert sum(f["count"] for f in failures) == 35
    assert main(["jit", log, "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["hot_source"] == "compile counts"
    assert main(["jit", log, "--profile", str(LOGS / "MANIFEST.toml")]) == 2
    assert "not a collapsed-stacks profile" in capsys.readouterr().err


def test_the_summary_shows_compile_queue_waits(capsys):
    assert main(["jit", str(LOGS / "jdk17-lc.xml.gz")]) == 0
    out = " ".join(capsys.readouterr().out.split())
    assert "compile time and compile-queue wait, ms" in out and "queue wait" in out
    assert "inlining failures in hot methods (20 hot, from the compile counts)" in out
