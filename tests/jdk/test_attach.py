"""jvmlab.jdk.attach.diagnostic, the one way to ask a running JVM: the attach socket first, the jcmd tool
only when the socket cannot be reached, and one AttachError line (naming the pid and the command) for a JVM
that refuses or does not answer. The socket is replaced by a file or a silent listener of the test's own,
the jcmd tool by a shell script; one test asks a real JVM through the real jcmd tool."""

from __future__ import annotations

import os
import re
import socket
import subprocess
import threading
import time
from pathlib import Path

import psutil
import pytest

from jvmlab.errors import AttachError, UsageError
from jvmlab.jdk import attach, hotspot_attach
from jvmlab.workloads import classes_dir

PID = os.getpid()  # a process that exists; never signalled, the socket is always given


@pytest.fixture
def tool(tmp_path: Path, monkeypatch) -> Path:
    """A fake jcmd: prints its pid line, then what it was asked; leaves a mark that it ran."""
    script = tmp_path / "jcmd"
    mark = tmp_path / "jcmd-ran"
    script.write_text(f'#!/bin/sh\ntouch {mark}\necho "$1:"\nshift\necho "tool said: $*"\n')
    script.chmod(0o755)
    monkeypatch.setattr(attach, "jcmd_for", lambda pid, installed: script)
    return mark


def socket_at(monkeypatch, path: Path) -> None:
    monkeypatch.setattr(hotspot_attach, "socket_path", lambda pid: path)


def one_line(e: pytest.ExceptionInfo[AttachError], command: str) -> str:
    text = str(e.value)
    assert "\n" not in text and f"JVM {PID}" in text and command in text, text
    return text


def test_a_socket_that_cannot_be_reached_falls_back_to_the_jcmd_tool(tmp_path, monkeypatch, tool):
    bad = tmp_path / "not-a-socket"
    bad.write_text("")
    socket_at(monkeypatch, bad)
    assert attach.diagnostic(PID, "VM.flags", "-all").strip() == "tool said: VM.flags -all"
    assert tool.exists()


def test_without_the_fallback_an_unreachable_socket_is_one_line(tmp_path, monkeypatch, tool):
    bad = tmp_path / "not-a-socket"
    bad.write_text("")
    socket_at(monkeypatch, bad)
    with pytest.raises(AttachError) as e:
        attach.diagnostic(PID, "Compiler.codecache", tool_fallback=False)
    assert "unreachable" in one_line(e, "Compiler.codecache")
    assert not tool.exists()


def test_a_jvm_that_does_not_answer_is_one_line_and_not_asked_again(tmp_path, monkeypatch, tool):
    path = tmp_path / "silent"
    with socket.socket(socket.AF_UNIX) as listener:
        listener.bind(str(path))
        listener.listen(1)  # connections queue up, nothing ever answers
        socket_at(monkeypatch, path)
        start = time.monotonic()
        with pytest.raises(AttachError) as e:
            attach.diagnostic(PID, "VM.uptime", timeout_s=0.3)
        took = time.monotonic() - start
    assert "no answer within 0.3 s" in one_line(e, "VM.uptime")
    assert 0.25 < took < 3.0 and not tool.exists()  # the jcmd tool would wait on the same listener


def test_a_refused_command_is_the_jvms_own_line_and_not_asked_again(tmp_path, monkeypatch, tool):
    path = tmp_path / "refusing"
    asked: list[bytes] = []
    with socket.socket(socket.AF_UNIX) as listener:
        listener.bind(str(path))
        listener.listen(1)

        def answer() -> None:
            conn, _ = listener.accept()
            with conn:
                asked.append(conn.recv(4096))
                conn.sendall(b"1\njava.lang.IllegalArgumentException: Unknown diagnostic command\n")

        server = threading.Thread(target=answer)
        server.start()
        socket_at(monkeypatch, path)
        with pytest.raises(AttachError) as e:
            attach.diagnostic(PID, "Compiler.codecache")
        server.join(5)
    assert "Unknown diagnostic command" in one_line(e, "Compiler.codecache")
    assert asked == [b"1\0jcmd\0Compiler.codecache\0\0\0"] and not tool.exists()


def test_a_jcmd_tool_that_hangs_is_one_line(tmp_path, monkeypatch):
    bad = tmp_path / "not-a-socket"
    bad.write_text("")
    socket_at(monkeypatch, bad)
    script = tmp_path / "jcmd"
    script.write_text("#!/bin/sh\nexec sleep 30\n")
    script.chmod(0o755)
    monkeypatch.setattr(attach, "jcmd_for", lambda pid, installed: script)
    with pytest.raises(AttachError) as e:
        attach.diagnostic(PID, "JFR.check", timeout_s=0.5)
    assert "no answer within 0.5 s (jcmd tool)" in one_line(e, "JFR.check")


@pytest.mark.jvm
def test_a_real_jvm_answers_through_the_jcmd_tool_when_the_socket_path_fails(tmp_path, monkeypatch):
    # a JVM that is up is all it needs: C1 only, 10 MB/s (a few percent of a CPU; flat out took all of one)
    churn = ["jvmlab.workloads.GcChurn", "--rate-mb-s=10", "--duration-s=60"]
    argv = ["java", "-Xmx64m", "-XX:TieredStopAtLevel=1", "-cp", str(classes_dir()), *churn]
    jvm = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
    try:
        assert jvm.stdout is not None
        jvm.stdout.readline()  # up and running
        direct = attach.diagnostic(jvm.pid, "VM.version")
        bad = tmp_path / "not-a-socket"
        bad.write_text("")
        socket_at(monkeypatch, bad)
        tools: list[Path] = []
        real = attach.jcmd_for
        monkeypatch.setattr(
            attach, "jcmd_for", lambda pid, installed: tools.append(real(pid, installed)) or tools[-1]
        )
        through_tool = attach.diagnostic(jvm.pid, "VM.version")
        assert [t.name for t in tools] == ["jcmd"]
        assert re.search(r"^JDK \d+", through_tool, re.M) and through_tool.strip() == direct.strip()
        assert jvm.poll() is None
    finally:
        jvm.kill()
        jvm.wait(timeout=30)


def test_only_the_attach_module_speaks_the_socket_protocol():
    """Every caller asks through jvmlab.jdk.attach: no other module imports the protocol module, and the
    protocol module imports nothing of attach (no loop)."""
    package = Path(attach.__file__).resolve().parents[1]
    imports = re.compile(r"^\s*(?:from|import) [\w. ,]*\bhotspot_attach\b", re.M)
    users = sorted(
        str(p.relative_to(package)) for p in package.rglob("*.py") if imports.search(p.read_text())
    )
    assert users == ["jdk/attach.py"]
    protocol = Path(hotspot_attach.__file__).read_text()
    assert not re.search(r"^\s*(?:from|import) [\w. ]*\battach\b", protocol, re.M)


def test_a_process_that_is_no_jvm_is_said_at_once():
    """check_pid (every --pid) refuses a process without a JVM in its memory before any wait for a socket."""
    sleeper = subprocess.Popen(["sleep", "60"])
    try:
        while psutil.Process(sleeper.pid).name() != "sleep":  # exec'd (a loaded machine takes a moment)
            time.sleep(0.01)
        start = time.monotonic()
        with pytest.raises(UsageError, match=rf"^--pid {sleeper.pid}: not a JVM \(sleep: no libjvm.so"):
            attach.check_pid(sleeper.pid)
        assert time.monotonic() - start < 1.0
    finally:
        sleeper.kill()
        sleeper.wait()
    with pytest.raises(UsageError, match=rf"^--pid {sleeper.pid}: no such process$"):
        attach.check_pid(sleeper.pid)
