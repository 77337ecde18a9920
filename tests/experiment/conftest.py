"""Every store test runs against each backend: a SQLite file and a real PostgreSQL server (conformance)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from jvmlab.experiment.storage import Store


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
