"""summarize_paths() and summarize_each() over several logs at once: the same summaries, in the order of
the inputs, and the same error, whatever the number of threads."""

from __future__ import annotations

from pathlib import Path

import pytest

from jvmlab.errors import JvmLabError
from jvmlab.metrics import summarize_each, summarize_paths

HERE = Path(__file__).resolve().parents[1]
LOGS = sorted((HERE / "gclog" / "jdk8").glob("*.log")) + sorted((HERE / "gclog" / "openj9").glob("*.xml"))


def test_several_threads_give_the_summaries_of_one_in_the_same_order():
    assert len(LOGS) >= 6
    one = summarize_paths(LOGS, threads=1)
    assert [s.name for s in one] == [str(p) for p in LOGS]
    for threads in (2, 3, None):
        assert [s.model_dump() for s in summarize_paths(LOGS, threads=threads)] == [
            s.model_dump() for s in one
        ]
        # one log per argument (gc compare): the same again
        assert [s.model_dump() for s in summarize_each(LOGS, threads=threads)] == [
            s.model_dump() for s in one
        ]


def test_an_input_that_fails_raises_the_error_of_one_thread(tmp_path):
    """Inputs are resolved first (a missing file fails before any parse), then the first log in input order
    whose parse fails raises, though a later one may have been parsed meanwhile."""
    empty, damaged = tmp_path / "empty.log", tmp_path / "binary.log"
    empty.write_bytes(b"")
    damaged.write_bytes(bytes(range(256)) * 64)
    for inputs in (
        [LOGS[0], empty, LOGS[1], damaged],
        [LOGS[0], damaged, LOGS[1], empty],
        [LOGS[0], empty, tmp_path / "missing.log"],
    ):
        with pytest.raises(JvmLabError) as alone:
            summarize_paths(inputs, threads=1)
        with pytest.raises(JvmLabError) as together:
            summarize_paths(inputs, threads=3)
        assert str(together.value) == str(alone.value)
        if inputs[-1].exists():  # each argument its own log: the same error
            with pytest.raises(JvmLabError) as each:
                summarize_each(inputs, threads=3)
            assert str(each.value) == str(alone.value)
