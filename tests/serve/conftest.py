"""A real `jvmlab serve` (uvicorn in its own process) for the server and browser tests: started on a free
loopback port, waited for, and killed after the test."""

from __future__ import annotations

import socket
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest
from lab import make_lab  # also puts tests/report on sys.path, for browser below

# isort: split
from browser import shared_chromium  # noqa: F401  (the browser tests' fixture)

START_TIMEOUT_S = 30


@pytest.fixture
def lab(tmp_path) -> dict[str, Path | str]:
    return make_lab(tmp_path)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@dataclass
class Server:
    port: int
    process: subprocess.Popen[str]
    uploads: Path

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"


@pytest.fixture
def serve(tmp_path) -> Iterator[Callable[..., Server]]:
    """serve(db, *options) -> a running server over `db` (runs and uploads in tmp_path)."""
    started: list[Server] = []

    def start(db: str, *options: str, runs: Path | None = None) -> Server:
        port = free_port()
        uploads = tmp_path / f"uploads-{port}"
        argv = [
            sys.executable, "-m", "jvmlab", "serve", "--db", db, "--port", str(port),
            "--runs", str(runs or tmp_path / "runs"), "--uploads", str(uploads), *options,
        ]  # fmt: skip
        proc = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        server = Server(port, proc, uploads)
        started.append(server)
        deadline = time.monotonic() + START_TIMEOUT_S
        while True:
            try:
                socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
                return server
            except OSError:
                if proc.poll() is not None or time.monotonic() > deadline:
                    proc.kill()
                    said = proc.stdout.read() if proc.stdout else ""
                    pytest.fail(f"jvmlab serve did not start: {said}")
                time.sleep(0.1)

    try:
        yield start
    finally:
        for server in started:
            if server.process.poll() is None:
                server.process.kill()
                server.process.wait()
