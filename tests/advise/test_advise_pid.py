"""`jvmlab advise --pid`: a running JVM read through its attach socket (flags, command line, GC log),
without changing it; with --record, a short window watched: a JFR recording analysed by JMC's rules and,
for a JVM without a GC log, GC and safepoint logging switched on through VM.log for the window and off
afterwards (else the recording's GC events). Each JVM is killed at the end."""

from __future__ import annotations

import json
import re
import subprocess
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

from jvmlab.advise.rules import RULES
from jvmlab.cli.main import main
from jvmlab.errors import AttachError, JvmLabError
from jvmlab.jdk.attach import diagnostic, log_outputs, logging_on
from jvmlab.jfr import JmcNotInstalledError
from jvmlab.workloads import classes_dir

pytestmark = pytest.mark.jvm
JAVA = "java"  # the default JDK 17 (it has jcmd)
JMC_FETCHED = (Path(__file__).resolve().parents[2] / "build" / "jmc" / "classes").is_dir()


@contextmanager
def running(*flags: str, classes_per_s: int = 100) -> Iterator[subprocess.Popen[bytes]]:
    """GcChurn at 80 MB/s (a young collection every few tenths of a second); defining classes costs CPU, so
    only the metaspace test defines many."""
    argv = [JAVA, *flags, "-cp", str(classes_dir()), "jvmlab.workloads.GcChurn", "--duration-s=60",
            "--rate-mb-s=80", "--live-mb=16", f"--classes-per-s={classes_per_s}"]  # fmt: skip
    proc = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
    try:
        assert proc.stdout is not None
        proc.stdout.readline()  # one progress line: the JVM is up and running
        time.sleep(1.5)
        yield proc
    finally:
        proc.kill()
        proc.wait(timeout=30)


def test_a_running_jvm_with_a_gc_log(tmp_path, capsys):
    log = tmp_path / "gc.log"
    flags = (
        "-Xmx256m",
        "-XX:+UseParallelGC",
        "-XX:MetaspaceSize=8m",
        f"-Xlog:gc*:file={log}:uptime,level,tags",
    )
    with running(*flags, classes_per_s=2000) as jvm:
        # the classes it loads reach the 8 MB threshold within seconds, later on a loaded machine
        deadline = time.monotonic() + 60
        while "Metadata GC Threshold" not in log.read_text() and time.monotonic() < deadline:
            time.sleep(0.2)
        code = main(["advise", "--pid", str(jvm.pid), "--json", "--no-check"])
        out = capsys.readouterr()
        assert jvm.poll() is None  # still running: advise changed nothing
    assert code == 0, out.err
    (advice,) = json.loads(out.out)["inputs"]
    assert advice["jdk_major"] == 17 and advice["flags_known"] and advice["collector"] == "Parallel"
    assert str(log) in advice["name"]
    metaspace = next(f for f in advice["findings"] if f["id"] == "metaspace-threshold-gc")
    assert metaspace["evidence"]["figures"]["metaspace_size_given"] == "8m"
    assert "swap-used" not in {n["id"] for n in advice["not_checked"]}  # one sample of the process, read


def test_a_running_jvm_without_a_gc_log_gets_the_flag_rules_only(capsys):
    with running("-Xmx128m", "-XX:PermSize=64m", "-XX:+IgnoreUnrecognizedVMOptions") as jvm:
        assert main(["advise", "--pid", str(jvm.pid), "--json", "--no-check"]) == 0
    (advice,) = json.loads(capsys.readouterr().out)["inputs"]
    reasons = {n["id"]: n["reason"] for n in advice["not_checked"]}
    assert reasons["g1-full-gc"].startswith("no GC log") and "-Xlog:gc*" in reasons["g1-full-gc"]
    permgen = next(f for f in advice["findings"] if f["id"] == "permgen-flags")
    assert permgen["severity"] == "critical"  # refused by 17 (here only ignored by request)


def outputs(pid: int) -> list[str]:
    return log_outputs(diagnostic(pid, "VM.log", "list"))


def window_pauses(advice: dict) -> int:
    window = next(n for n in advice["notes"] if n.startswith("the window:"))
    return int(re.search(r"(\d+) pauses", window).group(1))  # type: ignore[union-attr]


def test_record_switches_gc_logging_on_for_the_window_of_a_jvm_without_a_gc_log_and_runs_jmc(capsys):
    with running("-Xmx128m", "-XX:+UseG1GC") as jvm:
        before = outputs(jvm.pid)
        code = main(["advise", "--pid", str(jvm.pid), "--record", "2s", "--json", "--no-check"])
        after = outputs(jvm.pid)
        assert jvm.poll() is None
    out = capsys.readouterr()
    assert code == 0, out.err
    assert after == before == ["stdout", "stderr"]  # the output jvmlab added is gone, the JVM's own kept
    (advice,) = json.loads(out.out)["inputs"]
    assert "GC log of a 2 s window" in advice["name"] and advice["collector"] == "G1"
    switched = next(n for n in advice["notes"] if n.startswith("GC and safepoint logging switched on for"))
    assert "through VM.log" in switched and switched.endswith("then off")
    assert window_pauses(advice) > 0
    assert not any(g["reason"].startswith("no GC log") for g in advice["not_checked_by_reason"])
    listed = {n["id"] for n in advice["not_checked"]} | {f["id"] for f in advice["findings"]}
    assert listed and not any(i.startswith("openj9-") for i in listed)  # a HotSpot JVM
    assert advice["rules_run"] == sum(r.family != "openj9" for r in RULES)
    # the window's recording analysed by JMC's rules too (`make test` fetches JMC: `make jmc`)
    if JMC_FETCHED:
        assert any(f["source"] == "jmc" for f in advice["findings"]), [f["id"] for f in advice["findings"]]


def jmc_not_installed(*args, **kwargs):
    raise JmcNotInstalledError("not installed (test)")


def test_record_reads_the_recordings_gc_events_when_vm_log_is_refused(capsys, monkeypatch):
    def refused(*args, **kwargs):
        raise AttachError("VM.log refused (test)")

    monkeypatch.setattr("jvmlab.advise.running.logging_on", refused)
    # JMC's rules (a JVM of their own, 3-4 CPU-s) are checked on the G1 window above; here they say so
    monkeypatch.setattr("jvmlab.cli.advise_run.with_jmc", jmc_not_installed)
    with running("-Xmx128m", "-XX:+UseParallelGC") as jvm:
        assert main(["advise", "--pid", str(jvm.pid), "--record", "2s", "--json", "--no-check"]) == 0
    (advice,) = json.loads(capsys.readouterr().out)["inputs"]
    assert "JFR GC events of a 2 s window" in advice["name"] and advice["collector"] == "Parallel"
    assert any("could not be switched on (VM.log refused (test))" in n for n in advice["notes"])
    assert "JMC's rules not run on the recording: not installed (test)" in advice["notes"]
    assert window_pauses(advice) > 0


def test_logging_is_switched_off_on_ctrl_c_and_errors(tmp_path):
    log = tmp_path / "gc.log"
    with running("-Xmx128m") as jvm:
        before = outputs(jvm.pid)
        for stop in (KeyboardInterrupt, JvmLabError):
            with pytest.raises(stop), logging_on(jvm.pid, log):
                assert f"file={log}" in outputs(jvm.pid)
                time.sleep(1.0)
                raise stop("stopped")
            assert outputs(jvm.pid) == before
    assert "Pause Young" in log.read_text()  # it logged while on


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--pid", "999999999"], "--pid 999999999: no such process"),
        (["--record", "5s", "x.log"], "--record takes a JFR recording of a running JVM"),
        (["--pid", "1", "x.log"], "--pid reads a running JVM"),
    ],
)
def test_pid_mistakes_are_one_line(capsys, args, message):
    assert main(["advise", *args]) == 2
    err = capsys.readouterr().err
    assert message in err and len(err.strip().splitlines()) == 1
