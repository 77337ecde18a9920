"""Every store test runs against each backend: a SQLite file and a real PostgreSQL server (conformance)."""

from __future__ import annotations

import os
from collections.abc import Iterator

import pytest
from postgres_server import pg_bin, postgres_server

from jvmlab.experiment.storage import Store


@pytest.fixture(scope="session")
def postgres_url() -> Iterator[str]:
    if pg_bin("initdb") is None:
        if os.environ.get("CI"):
            pytest.fail("CI run without PostgreSQL binaries: `make test` should have installed them")
        pytest.skip("PostgreSQL binaries not installed (make postgres)")
    with postgres_server() as url:
        yield url


@pytest.fixture(params=["sqlite", pytest.param("postgresql", marks=pytest.mark.postgres)])
def store(request: pytest.FixtureRequest, tmp_path) -> Iterator[Store]:
    if request.param == "sqlite":
        s = Store.open(str(tmp_path / "jvmlab.db"))
    else:
        url = request.getfixturevalue("postgres_url")
        s = Store.open(url)
        from jvmlab.experiment.storage.tables import Base

        Base.metadata.drop_all(s.engine)  # every test starts from an empty database
        Base.metadata.create_all(s.engine)
    yield s
    s.close()
