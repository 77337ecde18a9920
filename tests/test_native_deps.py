"""The released native module leaves the test server out, and with it tokio and hyper: the dependency tree of
the features maturin builds the wheel with (pyproject.toml's, on top of the crate's defaults) has none of
them, nor has the bare crate's."""

from __future__ import annotations

import subprocess
import tomllib
from pathlib import Path

ROOT = Path(__file__).parents[1]
MANIFEST = ROOT / "native" / "Cargo.toml"
# The test server's runtime and HTTP stack (tokio-macros, http-body... come with them).
SERVER_ONLY = ("tokio", "hyper", "http-body")


def crates(*feature_args: str) -> set[str]:
    """Names of the crates the library links, with these feature arguments (normal dependencies only)."""
    cmd = ["cargo", "tree", "--manifest-path", str(MANIFEST), "-e", "normal", "--prefix", "none"]
    done = subprocess.run([*cmd, *feature_args], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    return {line.split()[0] for line in done.stdout.splitlines() if line.strip()}


def server_only(names: set[str]) -> set[str]:
    return {n for n in names if n.startswith(SERVER_ONLY)}


def release_features() -> list[str]:
    return tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["maturin"]["features"]


def test_the_release_build_does_not_build_the_test_server():
    cargo = tomllib.loads(MANIFEST.read_text())["features"]
    assert "test-server" not in cargo["default"]
    assert "test-server" not in release_features()
    released = crates("--features", ",".join(release_features()))
    assert "pyo3" in released and "mio" in released
    assert server_only(released) == set()
    assert server_only(crates("--no-default-features")) == set()


def test_the_test_server_brings_tokio_and_hyper():
    # The check above would pass on a tree it failed to read: the feature does bring them.
    assert {"tokio", "hyper", "hyper-util", "http-body-util"} <= server_only(
        crates("--no-default-features", "--features", "test-server")
    )
