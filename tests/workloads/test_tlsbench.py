"""tlsbench, the bundled TLS workload: session resumption with and without the Extended Master Secret
extension (the field report of examples/tls-regression.toml) on JDK 17 and 25, and the client JVM the server
starts never outliving it, whether the run ends, is stopped, or the server is killed."""

from __future__ import annotations

import contextlib
import queue
import re
import signal
import subprocess
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import psutil
import pytest
from tests.machine_jdks import one_jdk

from jvmlab.workloads import classes_dir

pytestmark = pytest.mark.jvm

TLSBENCH = "jvmlab.workloads.TlsBench"
EMS_OFF = "-Djdk.tls.useExtendedMasterSecret=false"
STATUS = r"client: status: t_s=\d+ connections=\d+ rate=[0-9.]+/s resumed=[0-9.]+% failed=0 handshake_ms="
TOTALS = re.compile(r"connections=(\d+) resumed=(\d+) \(([0-9.]+)%\) failed=(\d+)")


def jdk_java(major: str) -> Path:
    return one_jdk(major).java


def command(java: Path, *flags: str) -> list[str]:
    quick = "-XX:TieredStopAtLevel=1"  # C1 only: the JVMs start faster, the test is shorter
    return [
        str(java),
        "-Xmx128m",
        quick,
        f"-Dtls.clientOpts=-Xmx128m {quick}",
        *flags,
        "-cp",
        str(classes_dir("TlsBench")),
        TLSBENCH,
        "server",
    ]


def totals(lines: list[str], prefix: str) -> dict[str, float]:
    found = [m for line in lines if line.startswith(prefix) and (m := TOTALS.search(line))]
    assert len(found) == 1, (prefix, lines)
    n, resumed, percent, failed = found[0].groups()
    return {"connections": int(n), "resumed": int(resumed), "percent": float(percent), "failed": int(failed)}


class Lines:
    """The lines of a process's stdout, read by a thread so that a JVM that goes quiet fails the test after
    `timeout_s` instead of hanging it."""

    def __init__(self, stream, timeout_s: float = 120) -> None:
        self.seen: list[str] = []
        self._queue: queue.Queue[str] = queue.Queue()
        self._deadline = time.monotonic() + timeout_s
        self._thread = threading.Thread(
            target=lambda: [self._queue.put(x) for x in iter(stream.readline, "")]
        )
        self._thread.daemon = True
        self._thread.start()

    def next(self) -> str:
        try:
            line = self._queue.get(timeout=max(0.0, self._deadline - time.monotonic())).rstrip("\n")
        except queue.Empty:
            raise AssertionError(f"no line for too long; so far: {self.seen}") from None
        self.seen.append(line)
        return line

    def rest(self) -> list[str]:
        """Every line, once the stream has ended (the process exited)."""
        self._thread.join(timeout=30)
        while not self._queue.empty():
            self.seen.append(self._queue.get().rstrip("\n"))
        return self.seen


@contextlib.contextmanager
def started(argv: list[str], **popen: Any) -> Iterator[subprocess.Popen[str]]:
    """The server, killed if a failed assertion leaves it running (Popen's own exit would wait for it,
    and a server with durationS=0 never ends on its own)."""
    proc = subprocess.Popen(argv, **popen)
    try:
        yield proc
    finally:
        if proc.poll() is None:
            proc.kill()
        proc.wait(timeout=30)
        for stream in (proc.stdin, proc.stdout, proc.stderr):
            if stream is not None:
                stream.close()


CLIENT_PID = re.compile(r"client: TlsBench client: pid (\d+),")


def lines_to_client(reader: Lines) -> list[str]:
    """The server's first lines up to the one naming its client's pid (on a loaded machine the client's JVM
    starts after the server's first status lines)."""
    while not any(CLIENT_PID.match(line) for line in reader.seen):
        reader.next()
    return list(reader.seen)


def client_pid(lines: list[str]) -> int:
    pids = [int(m.group(1)) for line in lines if (m := CLIENT_PID.match(line))]
    assert len(pids) == 1, lines
    return pids[0]


def assert_gone(pid: int, timeout_s: float = 10) -> None:
    """The process has exited (a zombie waiting for a parent that is not its server counts as gone)."""
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        try:
            proc = psutil.Process(pid)
            if proc.status() == psutil.STATUS_ZOMBIE or "TlsBench" not in " ".join(proc.cmdline()):
                return
        except psutil.NoSuchProcess:
            return
        time.sleep(0.1)
    raise AssertionError(f"the client JVM {pid} is still running")


def run(java: Path, *flags: str) -> tuple[dict[str, float], dict[str, float]]:
    """30 connections of a client JVM to its server: the client's and the server's totals."""
    done = subprocess.run(
        command(java, "-Dtls.connections=30", "-Dtls.durationS=0", *flags),
        capture_output=True,
        text=True,
        timeout=60,
        stdin=subprocess.DEVNULL,
    )
    lines = done.stdout.splitlines()
    assert done.returncode == 0, (done.stdout, done.stderr)
    assert "Exception" not in done.stderr, done.stderr
    assert "TlsBench: the client exited with status 0" in lines
    assert_gone(client_pid(lines))
    client, server = totals(lines, "client: summary:"), totals(lines, "TlsBench stopped:")
    assert client["failed"] == server["failed"] == 0
    assert client["connections"] == server["connections"] == 30, lines
    return client, server


@pytest.mark.parametrize(
    ("major", "client", "server_flags", "resumed"),
    [
        ("17", "ems", [], True),  # both sides send the extension
        ("17", "noems", [], False),  # the EMS-less client against the default server: full handshakes
        ("17", "noems", [EMS_OFF], True),  # the server-side fix
        ("25", "noems", [], False),
        ("25", "noems", [EMS_OFF], True),
    ],
    ids=["17-ems", "17-noems", "17-noems-server-ems-off", "25-noems", "25-noems-server-ems-off"],
)
def test_resumption_needs_ems_on_both_sides_or_off_on_the_server(major, client, server_flags, resumed):
    mine, servers = run(jdk_java(major), f"-Dtls.client={client}", *server_flags)
    if resumed:  # every session after the first
        assert mine["resumed"] == mine["connections"] - 1, mine
        assert servers["percent"] >= 90, servers  # the server's view: created before the handshake began
    else:
        assert mine["resumed"] == servers["resumed"] == 0, (mine, servers)


def test_stop_on_stdin_and_kill_leave_no_client_jvm():
    java = jdk_java("17")
    # `stop` on stdin: the client is asked to stop first, its summary relayed, exit status 0.
    with started(
        command(java, "-Dtls.client=ems", "-Dtls.durationS=0"),
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    ) as proc:
        assert proc.stdin is not None and proc.stdout is not None
        reader = Lines(proc.stdout)
        lines = lines_to_client(reader)
        assert lines[1].startswith("TlsBench listening on port "), lines
        pid = client_pid(lines)
        # Stop once the client has connected (a loaded machine can take seconds to start its JVM).
        while not re.search(r"^client: status: .*connections=[1-9]", reader.seen[-1]):
            reader.next()
        proc.stdin.write("stop\n")
        proc.stdin.flush()
        proc.wait(timeout=30)
        err = proc.stderr.read() if proc.stderr else ""
    lines = reader.rest()
    assert proc.returncode == 0, (lines, err)
    assert totals(lines, "client: summary:")["connections"] > 0
    assert totals(lines, "TlsBench stopped:")["failed"] == 0
    assert_gone(pid)

    # SIGKILL: no shutdown hook runs, but the client's stdin closes with the server, and it exits.
    with started(
        command(java, "-Dtls.client=noems", "-Dtls.durationS=0"),
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        text=True,
    ) as proc:
        assert proc.stdout is not None
        reader = Lines(proc.stdout)
        pid = client_pid(lines_to_client(reader))
        while not (line := reader.next()).startswith("client: status:"):
            pass
        assert re.match(STATUS, line), line
        proc.send_signal(signal.SIGKILL)
        proc.wait(timeout=10)
    assert_gone(pid)
