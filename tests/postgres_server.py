"""A throwaway PostgreSQL server for the store's tests: a fresh cluster in a temporary folder, on loopback,
started for the test session and stopped after it (no server is left running).

The binaries come from the Debian package (`make test` installs it: `make postgres`). As root, the cluster
runs as the `postgres` system user, since initdb refuses to run as root.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import socket
import subprocess
import tempfile
from collections.abc import Iterator
from pathlib import Path

BIN_DIRS = [Path("/usr/lib/postgresql") / v / "bin" for v in ("17", "16", "15", "14", "13")]


def pg_bin(name: str) -> Path | None:
    found = shutil.which(name)
    if found:
        return Path(found)
    for d in BIN_DIRS:
        if (d / name).is_file():
            return d / name
    return None


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _as_owner(argv: list[str], *, user: str | None) -> list[str]:
    return ["runuser", "-u", user, "--", *argv] if user else argv


@contextlib.contextmanager
def postgres_server() -> Iterator[str]:
    """Yields the URL of a running server with an empty database `jvmlab`; stops and deletes it after."""
    initdb, pg_ctl = pg_bin("initdb"), pg_bin("pg_ctl")
    if initdb is None or pg_ctl is None:
        raise RuntimeError("PostgreSQL binaries not found: run `make postgres` (apt-get install postgresql)")
    user = "postgres" if os.geteuid() == 0 else None
    root = Path(tempfile.mkdtemp(prefix="jvmlab-pg-"))
    data, sockets = root / "data", root / "sockets"
    sockets.mkdir()
    if user:
        shutil.chown(root, user)
        shutil.chown(sockets, user)
    port = _free_port()

    def run(argv: list[str]) -> None:
        subprocess.run(_as_owner(argv, user=user), check=True, capture_output=True, timeout=120)

    try:
        run([str(initdb), "-D", str(data), "-U", "jvmlab", "--auth=trust", "-E", "UTF8", "--no-sync"])
        options = f"-h 127.0.0.1 -p {port} -k {sockets} -c fsync=off -c full_page_writes=off"
        run([str(pg_ctl), "-D", str(data), "-o", options, "-l", str(root / "server.log"), "-w", "start"])
        try:
            createdb = pg_bin("createdb")
            assert createdb is not None
            run([str(createdb), "-h", "127.0.0.1", "-p", str(port), "-U", "jvmlab", "jvmlab"])
            yield f"postgresql://jvmlab@127.0.0.1:{port}/jvmlab"
        finally:
            run([str(pg_ctl), "-D", str(data), "-m", "immediate", "-w", "stop"])
    finally:
        shutil.rmtree(root, ignore_errors=True)
