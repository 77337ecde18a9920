"""Generates the JFR cross-check runs up front, two JVMs at a time (see jfr_runs.py)."""

from __future__ import annotations

import os
from concurrent.futures import ThreadPoolExecutor

import jfr_runs
import pytest

from jvmlab.errors import JvmLabError

PARALLEL_JVMS = 2


def _selected_runs(session: pytest.Session) -> list[jfr_runs.Run]:
    runs = {
        item.callspec.params["case"].run
        for item in session.items
        if hasattr(item, "callspec") and isinstance(item.callspec.params.get("case"), jfr_runs.Case)
    }
    return sorted(runs, key=lambda r: r.id)


@pytest.fixture(scope="session")
def prefetched(request: pytest.FixtureRequest) -> None:
    """Runs the missing JVMs of the selected cases before the first test needs them.

    Without pytest-xdist: in a pool of PARALLEL_JVMS threads. Under xdist (one JVM per worker): even
    workers go through the runs in order, odd workers in reverse, so two workers rarely wait on the
    same run (a file lock per run keeps a run from being executed twice).
    """
    runs = _selected_runs(request.session)
    worker = os.environ.get("PYTEST_XDIST_WORKER")
    try:
        if worker is None:
            with ThreadPoolExecutor(PARALLEL_JVMS) as pool:
                list(pool.map(jfr_runs.generate, runs))
            return
        for run in reversed(runs) if int(worker.lstrip("gw") or 0) % 2 else runs:
            jfr_runs.generate(run)
    except JvmLabError as e:
        pytest.fail(str(e))
