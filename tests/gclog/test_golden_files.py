"""The expectation files of the corpus (tests/expected/gclogs) cannot go stale: each one is checked against
the log text by the independent regex count of tests/expected/crosscheck.py (not by jvmlab's parser), and
each says how it was verified; regenerate.py drops that line from a file whose figures change."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "expected"))

from corpus import corpus  # noqa: E402
from crosscheck import compare, count  # noqa: E402

LOGS = [e for e in corpus() if e.expected_file.exists()]
pytestmark = [pytest.mark.skipif(not LOGS, reason="../shared/gclogs is not present"), pytest.mark.corpus]


@pytest.mark.parametrize("entry", LOGS, ids=[e.path for e in LOGS])
def test_the_expectation_agrees_with_the_independent_count(entry):
    expected = entry.expected()
    assert "verified" in expected, f"{entry.expected_file}: figures changed since they were verified"
    diffs = compare(expected, count(entry.file))
    if str(expected.get("note", "")).startswith("parser gap"):
        return  # a known gap, explained in the file
    assert not diffs, f"{entry.path}: {'; '.join(diffs)}"
