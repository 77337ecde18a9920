"""Test helpers for apiservice: the service as a child process (started, waited for, stopped, always
killed), raw HTTP exchanges on a socket, and a small parser of the responses that come back."""

from __future__ import annotations

import contextlib
import http.client
import os
import re
import signal
import socket
import subprocess
import threading
import time
from dataclasses import dataclass
from pathlib import Path

from jvmlab.workloads import API_SERVICE, classes_dir

LISTENING = re.compile(r"^ApiService listening on port (\d+)$")
TOTALS = re.compile(
    r"^ApiService stopped: requests=(\d+) errors=(\d+) client_errors=(\d+) rejected=(\d+) uptime_s=[0-9.]+$"
)
STATUS = re.compile(
    r"^status: t_s=\d+ requests=\d+ rate=[0-9.]+/s .* batches=\d+ last_batch_ms=\d+ heap_used_mb=\d+$"
)
# Small and quick unless a test says otherwise: few rule classes, no batch report, a 64 MB cache budget; on
# loopback only (the service's own default is every address).
QUICK = {"ruleClasses": "100", "batchIntervalMs": "0", "host": "127.0.0.1"}
# C1 only: what the tests check (HTTP, counters, GC logs) does not depend on the JIT tier, and C2 compiling
# the service's hot paths costs 2 to 3 times the CPU of a short run (idle: 0.14 CPU-s a second against 0.05).
C1_ONLY = "-XX:TieredStopAtLevel=1"


class Service:
    """`java -XX:TieredStopAtLevel=1 [jvm] -Dapi.host=127.0.0.1 -Dapi.port=0 [-Dapi.K=V]
    jvmlab.workloads.ApiService`, ready once it prints its port."""

    def __init__(
        self,
        props: dict[str, str] | None = None,
        *,
        java: str | Path = "java",
        jvm: tuple[str, ...] = ("-Xmx256m",),
        start_timeout_s: float = 15.0,
    ) -> None:
        settings = {**QUICK, **(props or {}), "port": "0"}
        argv = [str(java), C1_ONLY, *jvm, *(f"-Dapi.{k}={v}" for k, v in settings.items())]
        argv += ["-cp", str(classes_dir("ApiService")), API_SERVICE]
        self.argv = argv
        self.lines: list[str] = []
        self.errors: list[str] = []
        self._changed = threading.Condition()
        self.proc = subprocess.Popen(
            argv,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            start_new_session=True,
        )
        self._readers = [
            threading.Thread(target=self._read, args=(self.proc.stdout, self.lines), daemon=True),
            threading.Thread(target=self._read, args=(self.proc.stderr, self.errors), daemon=True),
        ]
        for reader in self._readers:
            reader.start()
        try:
            self.port = int(self.wait_for(LISTENING, start_timeout_s)[1])
        except BaseException:
            self.kill()
            raise

    def _read(self, stream, into: list[str]) -> None:
        for line in stream:
            with self._changed:
                into.append(line.rstrip("\n"))
                self._changed.notify_all()
        with self._changed:
            self._changed.notify_all()

    def wait_for(self, pattern: re.Pattern[str], timeout_s: float) -> re.Match[str]:
        """The first stdout line matching `pattern`, waiting for it; fails with the output so far."""
        deadline = time.monotonic() + timeout_s
        with self._changed:
            while True:
                for line in self.lines:
                    if m := pattern.match(line):
                        return m
                left = deadline - time.monotonic()
                if left <= 0 or (self.proc.poll() is not None and not self._readers[0].is_alive()):
                    raise AssertionError(
                        f"no line matching {pattern.pattern!r} in {timeout_s} s (exit {self.proc.poll()})\n"
                        f"stdout: {self.lines}\nstderr: {self.errors[-20:]}"
                    )
                self._changed.wait(min(left, 0.2))

    def connection(self, timeout_s: float = 10.0) -> http.client.HTTPConnection:
        return http.client.HTTPConnection("127.0.0.1", self.port, timeout=timeout_s)

    def stop(self, timeout_s: float = 15.0) -> int:
        """`stop` on stdin; the exit status."""
        assert self.proc.stdin is not None
        self.proc.stdin.write("stop\n")
        self.proc.stdin.flush()
        return self._wait(timeout_s)

    def terminate(self, timeout_s: float = 15.0) -> int:
        """SIGTERM; the exit status."""
        self.proc.send_signal(signal.SIGTERM)
        return self._wait(timeout_s)

    def _wait(self, timeout_s: float) -> int:
        status = self.proc.wait(timeout_s)
        for reader in self._readers:
            reader.join(5)
        return status

    def totals(self) -> dict[str, int]:
        """The figures of the last line, `ApiService stopped: ...`."""
        m = TOTALS.match(self.lines[-1]) if self.lines else None
        assert m, f"no totals line at the end of stdout: {self.lines[-3:]}"
        names = ("requests", "errors", "client_errors", "rejected")
        return dict(zip(names, map(int, m.groups()), strict=True))

    def kill(self) -> None:
        if self.proc.poll() is None:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(self.proc.pid, signal.SIGKILL)
            self.proc.wait(10)
        for stream in (self.proc.stdin, self.proc.stdout, self.proc.stderr):
            if stream is not None:
                with contextlib.suppress(OSError):
                    stream.close()

    def __enter__(self) -> Service:
        return self

    def __exit__(self, *exc: object) -> None:
        self.kill()


@dataclass(frozen=True)
class Response:
    status: int
    headers: dict[str, str]  # names in lower case
    body: bytes


def parse_responses(data: bytes) -> tuple[list[Response], bytes]:
    """The whole responses at the start of `data` (bodies by Content-Length), and what is left."""
    responses = []
    while (end := data.find(b"\r\n\r\n")) >= 0:
        head = data[:end].decode("latin-1").split("\r\n")
        version, status, _ = head[0].split(" ", 2)
        assert version == "HTTP/1.1", head[0]
        headers = {}
        for line in head[1:]:
            name, _, value = line.partition(":")
            headers[name.strip().lower()] = value.strip()
        length = int(headers["content-length"])
        if len(data) < end + 4 + length:
            break
        responses.append(Response(int(status), headers, data[end + 4 : end + 4 + length]))
        data = data[end + 4 + length :]
    return responses, data


def exchange(
    port: int, data: bytes, *, expect: int = 1, timeout_s: float = 5.0
) -> tuple[list[Response], bool]:
    """Sends raw bytes, reads until `expect` responses came or the server closed; the responses, and
    whether the server closed the connection (end of stream within 1 s after the last response)."""
    with socket.create_connection(("127.0.0.1", port), timeout=timeout_s) as s:
        s.sendall(data)
        received = b""
        responses: list[Response] = []
        while len(responses) < expect:
            chunk = s.recv(65536)
            if not chunk:
                return parse_responses(received)[0], True
            received += chunk
            responses, _ = parse_responses(received)
        s.settimeout(1.0)
        try:
            closed = s.recv(1) == b""
        except TimeoutError:
            closed = False
        return responses, closed
