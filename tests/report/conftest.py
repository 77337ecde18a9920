"""Fixtures of the HTML report's tests: real GC logs of the shared corpus (skipped when absent)."""

from __future__ import annotations

from pathlib import Path

import pytest
from browser import shared_chromium  # noqa: F401  (the browser tests' fixture)
from report_logs import corpus_log, hostile_copy


@pytest.fixture
def gclog():
    """gclog("generated/jdk25-g1-gcstar.log") -> its path; skips when the corpus is absent."""
    return corpus_log


@pytest.fixture
def hostile_log(tmp_path) -> Path:
    """A copy of the G1 log with lines carrying <script> and <img onerror> appended."""
    return hostile_copy(tmp_path)
