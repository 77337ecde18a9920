"""Profiles with async-profiler: collapsed stacks read and summed, top frames with a known answer, a JVM run
under the profiler on every installed JDK, a running JVM attached to and left as it was, one-line errors."""

from __future__ import annotations

import subprocess
import sys
import time
from pathlib import Path

import pytest

from jvmlab.cli.main import main
from jvmlab.errors import InputError, UsageError
from jvmlab.jdk.discovery import installed_jdks
from jvmlab.profile.agent import option_string, sampling
from jvmlab.profile.collapsed import parse_collapsed, read_collapsed
from jvmlab.profile.model import frame_kind, frame_name, merge
from jvmlab.profile.top import top_frames
from jvmlab.workloads import classes_dir

SAMPLE = """\
java/lang/Thread.run_[j];app/Main.work_[j];app/Main.hash_[i] 30
java/lang/Thread.run_[j];app/Main.work_[j] 10
java/lang/Thread.run_[j];app/Main.work_[j];app/Main.work_[j];app/Main.hash_[i] 10
start_thread;GCTask::run;clear_page_erms_[k] 50
"""
CHURN = ["-cp", str(classes_dir()), "jvmlab.workloads.GcChurn", "--duration-s=2"]


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
    with pytest.raises(UsageError, match="hardware counters are not available"):
        sampling("cycles")
    with pytest.raises(UsageError, match="choose one of cpu, wall, alloc, lock"):
        sampling("cpus")
    out = tmp_path / "p.collapsed"
    assert (
        option_string(sampling("wall", "5ms"), out)
        == f"start,event=wall,interval=5ms,file={out},collapsed,ann"
    )
    assert option_string(sampling("alloc"), out) == f"start,alloc=512k,file={out},collapsed,ann"


@pytest.mark.jvm
@pytest.mark.parametrize("jdk", installed_jdks(), ids=lambda j: j.name)
def test_a_jvm_profiled_from_its_start_on_every_installed_jdk(jdk, tmp_path, capsys):
    code = main(["profile", "-o", str(tmp_path), "--", str(jdk.java), *CHURN])
    out = capsys.readouterr().out
    assert code == 0, out
    p = read_collapsed(tmp_path / "profile.collapsed")
    assert p.total > 20, p.total  # 2 s of a busy thread at 10 ms
    assert any("GcChurn" in f for stack in p.stacks for f in stack)
    assert "top frames" in out and "GcChurn" in out
    assert "flamegraph" in (tmp_path / "flamegraph.html").read_text()


@pytest.mark.jvm
def test_attach_to_a_running_jvm_and_leave_it_as_it_was(tmp_path, capsys):
    proc = subprocess.Popen(
        ["java", *CHURN[:-1], "--duration-s=60"], stdout=subprocess.PIPE, stderr=subprocess.DEVNULL
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
        (["--event", "cycles", "--", "java", "-version"], "hardware counters are not available"),
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
