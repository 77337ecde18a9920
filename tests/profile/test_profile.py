"""Profiles with async-profiler: collapsed stacks read and summed, top frames with a known answer, a JVM run
under the profiler on every installed JDK, a running JVM attached to and left as it was, one-line errors."""

from __future__ import annotations

import subprocess
import sys
import time
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from jvmlab.cli.main import main
from jvmlab.errors import InputError, UsageError
from jvmlab.experiment.spec import SpecError, parse_spec
from jvmlab.jdk.discovery import installed_jdks
from jvmlab.profile.agent import option_string, sampling, session_options, stop_string
from jvmlab.profile.collapsed import parse_collapsed, read_collapsed
from jvmlab.profile.jfr import fallback_events, fallback_settings, jfc_period
from jvmlab.profile.model import frame_kind, frame_name, merge
from jvmlab.profile.top import top_frames
from jvmlab.workloads import classes_dir

SAMPLE = """\
java/lang/Thread.run_[j];app/Main.work_[j];app/Main.hash_[i] 30
java/lang/Thread.run_[j];app/Main.work_[j] 10
java/lang/Thread.run_[j];app/Main.work_[j];app/Main.work_[j];app/Main.hash_[i] 10
start_thread;GCTask::run;clear_page_erms_[k] 50
"""
# C1 only: what is profiled is a busy Java thread, whichever tier compiled it (no C2 threads beside it)
CHURN = ["-XX:TieredStopAtLevel=1", "-cp", str(classes_dir()), "jvmlab.workloads.GcChurn"]
# a JVM to attach to, left running: 400 MB/s takes a third of a CPU where flat out took all of one, and gives
# as many samples on a loaded machine (15-25 a second at 10 ms, as flat out gets no more than its share there)
STEADY = [*CHURN, "--rate-mb-s=400"]


def test_collapsed_stacks_and_their_top_frames():
    p = parse_collapsed(SAMPLE, name="sample")
    assert p.total == 100 and len(p.stacks) == 4
    top = {r.frame: r for r in top_frames(p)}
    assert top["clear_page_erms"].self_weight == 50 and top["clear_page_erms"].kind == "kernel"
    assert top["app/Main.hash"].self_weight == 40 and top["app/Main.hash"].kind == "inlined"
    # work is on 50 samples' stacks: counted once per stack, although it recurses in one of them
    assert top["app/Main.work"].total_weight == 50 and top["app/Main.work"].self_weight == 10
    assert [frame_kind(f) for f in ("a_[j]", "a_[0]", "a_[k]", "GCTask::run")] == [
        "java", "interpreted", "kernel", "native",
    ]  # fmt: skip
    assert frame_name("app/Main.hash_[i]") == "app/Main.hash"
    assert merge([p, p]).total == 200


def test_a_file_that_is_not_a_profile_is_named(tmp_path):
    bad = tmp_path / "notes.txt"
    bad.write_text("hello world\nthis is not\n")
    with pytest.raises(InputError, match="not a collapsed-stacks profile"):
        read_collapsed(bad)
    binary = tmp_path / "x.jfr"
    binary.write_bytes(b"FLR\0\x02\x00" * 10)
    with pytest.raises(InputError, match="binary"):
        read_collapsed(binary)


def test_events_and_the_options_the_agent_gets(tmp_path):
    instead = sampling("cycles", pmu=False)  # these virtual machines: no PMU
    assert instead.event in ("cpu", "itimer") and instead.asked == "cycles"
    assert "no hardware counters" in instead.note and "instead" in instead.label
    counted = sampling("cycles", pmu=True)
    assert (counted.event, counted.interval) == ("cycles", "1000000")
    with pytest.raises(UsageError, match="choose one of cpu, wall, alloc, lock"):
        sampling("cpus")
    out = tmp_path / "p.collapsed"
    assert (
        option_string(sampling("wall", "5ms"), out)
        == f"start,event=wall,interval=5ms,file={out},collapsed,ann,dot,norm"
    )
    assert (
        option_string(sampling("alloc"), out) == f"start,alloc=512k,file={out},collapsed,total,ann,dot,norm"
    )
    assert stop_string(sampling("lock"), out) == f"stop,file={out},collapsed,total,ann,dot,norm"


def test_several_events_are_one_session_written_as_jfr(tmp_path):
    out = tmp_path / "p.jfr"
    asked = [sampling("cpu", "10ms"), sampling("wall", "20ms"), sampling("alloc"), sampling("lock")]
    timer = asked[0].event  # itimer where perf_events is closed
    assert session_options(asked, out) == (
        f"start,event={timer},interval=10ms,wall=20ms,alloc=512k,lock=0,file={out},jfr"
    )
    assert session_options(asked[1:3], out) == f"start,event=wall,interval=20ms,alloc=512k,file={out},jfr"
    assert asked[2].label == "alloc 512k" and asked[1].label == "wall 20ms"


def test_the_jfr_fallback_records_the_events_that_stand_in(tmp_path):
    asked = [sampling("cpu", "5ms"), sampling("wall", "20ms"), sampling("alloc"), sampling("lock")]
    events = fallback_events(asked, 21)
    assert events["jdk.ExecutionSample"]["period"] == "5 ms"
    assert events["jdk.NativeMethodSample"]["period"] == "20 ms"
    assert "jdk.ObjectAllocationSample" in events and "jdk.ObjectAllocationInNewTLAB" not in events
    assert "jdk.ObjectAllocationInNewTLAB" in fallback_events(asked, 11)  # no allocation sampling before 16
    assert events["jdk.JavaMonitorEnter"]["threshold"] == "0 ms"
    jfc = ET.fromstring(fallback_settings(asked, 17))
    assert {e.get("name") for e in jfc} == set(fallback_events(asked, 17))
    assert jfc_period("250us") == "250 us" and jfc_period("1000000") == "1000000 ns"


def test_profile_specs_one_table_or_a_list_of_distinct_events():
    base = {"name": "p", "workload": {"command": ["{java}", "-version"]}}
    one = parse_spec({**base, "telemetry": {"profile": {"event": "wall"}}})
    assert [p.event for p in one.telemetry.profile] == ["wall"]
    two = parse_spec({**base, "telemetry": {"profile": [{"event": "cpu"}, {"event": "lock"}]}})
    assert [p.event for p in two.telemetry.profile] == ["cpu", "lock"]
    with pytest.raises(SpecError, match="telemetry.profile: event 'cpu' is asked twice"):
        parse_spec({**base, "telemetry": {"profile": [{"event": "cpu"}, {"event": "cpu"}]}})
    with pytest.raises(SpecError, match="telemetry.profile.event"):
        parse_spec({**base, "telemetry": {"profile": [{"event": "cycles"}]}})


def one_per_major() -> list:
    """The installed JDKs found by discovery, one per major version (build/jdks' own first)."""
    found: dict[int, object] = {}
    for jdk in sorted(installed_jdks(), key=lambda j: "build/jdks" not in str(j.home)):
        found.setdefault(jdk.major, jdk)
    return [found[m] for m in sorted(found)]


@pytest.mark.jvm
@pytest.mark.parametrize("jdk", one_per_major(), ids=lambda j: f"jdk{j.major}")
def test_a_jvm_profiled_from_its_start_on_every_installed_jdk(jdk, tmp_path, capsys):
    churn = [*CHURN, "--rate-mb-s=800", "--duration-s=2"]
    code = main(["profile", "-o", str(tmp_path), "--", str(jdk.java), *churn])
    out = capsys.readouterr().out
    assert code == 0, out
    p = read_collapsed(tmp_path / "profile.collapsed")
    # 2 s at 800 MB/s: 60-90 samples at 10 ms, loaded or not (flat out: 60-150 for 1.4 times the CPU)
    assert p.total > 20, p.total
    assert any("GcChurn" in f for stack in p.stacks for f in stack)
    assert "top frames" in out and "GcChurn" in out
    assert "flamegraph" in (tmp_path / "flamegraph.html").read_text()


@pytest.mark.jvm
def test_attach_to_a_running_jvm_and_leave_it_as_it_was(tmp_path, capsys):
    proc = subprocess.Popen(
        ["java", *STEADY, "--duration-s=60"], stdout=subprocess.PIPE, stderr=subprocess.DEVNULL
    )
    try:
        assert proc.stdout is not None
        proc.stdout.readline()
        for round_ in range(2):  # the second attach works only if the first stopped the profiler
            out = tmp_path / f"r{round_}"
            code = main(["profile", "--pid", str(proc.pid), "--duration", "1s", "-o", str(out)])
            assert code == 0, capsys.readouterr().err
            assert read_collapsed(out / "profile.collapsed").total > 5
        assert proc.poll() is None
    finally:
        proc.kill()
        proc.wait()


def one_line(capsys) -> str:
    err = capsys.readouterr().err
    assert len(err.strip().splitlines()) == 1, err
    return err


def no_profiler_in(pid: int) -> bool:
    return "libasyncProfiler" not in Path(f"/proc/{pid}/maps").read_text()


def test_a_sleep_process_a_missing_pid_and_a_jvm_refusing_attach_are_one_line(tmp_path, capsys):
    out = str(tmp_path / "p")
    sleeper = subprocess.Popen(["sleep", "60"])
    try:
        assert main(["profile", "--pid", str(sleeper.pid), "-d", "1s", "-o", out]) == 2
        assert f"--pid {sleeper.pid}: not a JVM (sleep" in one_line(capsys)
        assert no_profiler_in(sleeper.pid)
    finally:
        sleeper.kill()
        sleeper.wait()
    assert main(["profile", "--pid", str(sleeper.pid), "-d", "1s", "-o", out]) == 2  # gone now
    assert f"--pid {sleeper.pid}: no such process" in one_line(capsys)


@pytest.mark.jvm
def test_a_jvm_that_refuses_attach_is_one_line_and_left_as_it_was(tmp_path, capsys):
    jvm = subprocess.Popen(
        # alive is all it has to be: 10 MB/s is a few percent of a CPU
        ["java", "-XX:+DisableAttachMechanism", *CHURN, "--rate-mb-s=10", "--duration-s=30"],
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
    )
    try:
        assert jvm.stdout is not None
        jvm.stdout.readline()
        assert main(["profile", "--pid", str(jvm.pid), "-d", "1s", "-o", str(tmp_path / "p")]) == 2
        assert "refuses attach (started with -XX:+DisableAttachMechanism)" in one_line(capsys)
        assert jvm.poll() is None and no_profiler_in(jvm.pid)
    finally:
        jvm.kill()
        jvm.wait()


@pytest.mark.parametrize(
    ("content", "message"),
    [
        (b"\x7fELF\x02\x01\x01\x00" * 64, "a binary file, not a collapsed-stacks profile"),
        (b"Exception in thread main\n  at Foo.bar\n", "not a collapsed-stacks profile (line 1"),
    ],
)
def test_diff_of_a_file_that_is_not_a_profile_is_one_line(content, message, tmp_path, capsys):
    bad, good = tmp_path / "bad.collapsed", tmp_path / "good.collapsed"
    bad.write_bytes(content)
    good.write_text("a;b 3\n")
    assert main(["profile", "-o", str(tmp_path / "o"), "diff", str(good), str(bad)]) == 2
    err = one_line(capsys)
    assert f"{bad}: {message}" in err


def test_a_pid_that_is_not_a_jvm_is_one_line(capsys):
    sleeper = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(30)"])
    try:
        time.sleep(0.2)
        assert main(["profile", "--pid", str(sleeper.pid), "--duration", "1s", "-o", "/tmp/jvmlab-none"]) == 2
        err = capsys.readouterr().err
        assert f"--pid {sleeper.pid}" in err and len(err.strip().splitlines()) == 1
    finally:
        sleeper.kill()
        sleeper.wait()


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--", "python3", "x.py"], "not a java launcher"),
        ([], "give either a command after --"),
        (["--event", "cpus", "--", "java", "-version"], "choose one of cpu, wall, alloc, lock"),
    ],
)
def test_mistakes_are_one_line(args, message, capsys, tmp_path):
    assert main(["profile", "-o", str(tmp_path / "p"), *args]) == 2
    err = capsys.readouterr().err
    assert message in err and len(err.strip().splitlines()) == 1, err


def test_output_folder_is_a_file(tmp_path, capsys):
    f = Path(tmp_path / "file")
    f.write_text("x")
    assert main(["profile", "-o", str(f), "--", "java", "-version"]) == 2
    assert "cannot make the output folder" in capsys.readouterr().err


@pytest.mark.jvm
def test_a_hardware_event_without_counters_is_sampled_on_a_timer_and_said(tmp_path, capsys, monkeypatch):
    monkeypatch.setattr("jvmlab.profile.agent.pmu_available", lambda *a: False)  # as on these VMs
    code = main(["profile", "--event", "cycles", "-o", str(tmp_path), "--", "java", *CHURN, "--duration-s=1"])
    out = " ".join(capsys.readouterr().out.split())  # rich wraps the line
    assert code == 0, out
    assert "cycles asked, but this machine has no hardware counters" in out and "instead" in out
    assert read_collapsed(tmp_path / "profile.collapsed").total > 5  # 1 s at 10 ms: 28-53 on a loaded machine
