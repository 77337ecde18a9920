"""What `jvmlab serve` is given: the store, the folders it may serve from, where it listens, its token and
its upload limits; and the rule that a server reachable from other machines needs a token."""

from __future__ import annotations

import ipaddress
from dataclasses import dataclass
from pathlib import Path

from jvmlab.errors import UsageError

TOKEN_VARIABLE = "JVMLAB_TOKEN"
DEFAULT_MAX_UPLOAD_BYTES = 1 << 30  # 1 GiB: weeks of a busy service's rotated logs, gzipped
DEFAULT_MAX_UPLOAD_FILES = 64


@dataclass(frozen=True)
class ServeSettings:
    db: str | None
    runs: Path  # trials' files are served from here only
    uploads: Path  # uploaded GC logs are kept here
    host: str = "127.0.0.1"
    port: int = 8000
    token: str | None = None
    allow_uploads: bool = False
    max_upload_bytes: int = DEFAULT_MAX_UPLOAD_BYTES
    max_upload_files: int = DEFAULT_MAX_UPLOAD_FILES
    # Render the newest ended experiments' reports when the server starts, and an experiment's when it ends
    # (`jvmlab serve` does; tests and embedders render on request only)
    prerender: bool = False


def is_loopback(host: str) -> bool:
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False  # a host name: it may resolve to any address


def check_bind(settings: ServeSettings) -> None:
    """A non-loopback address without a token is refused: anyone who reaches the port would read the store
    (and, with --allow-uploads, write to this machine's disk)."""
    if not is_loopback(settings.host) and not settings.token:
        raise UsageError(
            f"--host {settings.host}: other machines could reach the server; give --token (or set "
            f"{TOKEN_VARIABLE}) so that every request must carry it"
        )
    if settings.token is not None and len(settings.token) < 16:
        raise UsageError("--token: give at least 16 characters (e.g. `openssl rand -hex 16`)")
    if settings.max_upload_bytes <= 0 or settings.max_upload_files <= 0:
        raise UsageError("--max-upload-mb and --max-upload-files: give numbers above 0")
