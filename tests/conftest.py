"""Shared test set-up: the corpus of real GC logs (../shared/gclogs) must be there in CI."""

from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))

from corpus import GCLOGS  # noqa: E402


def pytest_sessionstart(session: pytest.Session) -> None:
    # Locally a missing corpus skips the tests that read it; in CI a skip would hide a broken set-up.
    if os.environ.get("CI") and not (GCLOGS / "INDEX.csv").exists():
        raise pytest.UsageError(f"CI run without the shared GC log corpus: {GCLOGS} is missing")
