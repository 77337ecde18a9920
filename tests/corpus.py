"""The shared corpus of real GC logs (../shared/gclogs) and the expectations kept for each log."""

from __future__ import annotations

import csv
import os
import re
import tomllib
from dataclasses import dataclass
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
GCLOGS = Path(os.environ.get("JVMLAB_GCLOGS", REPO.parent / "shared" / "gclogs"))
EXPECTED = REPO / "tests" / "expected" / "gclogs"


@dataclass(frozen=True)
class CorpusLog:
    path: str  # relative to GCLOGS
    format: str  # legacy | unified | openj9-xml (the index's guess)
    collector: str

    @property
    def file(self) -> Path:
        return GCLOGS / self.path

    @property
    def expected_file(self) -> Path:
        return EXPECTED / (self.path.replace("/", "__") + ".toml")

    def expected(self) -> dict:
        with open(self.expected_file, "rb") as f:
            return tomllib.load(f)


def corpus() -> list[CorpusLog]:
    index = GCLOGS / "INDEX.csv"
    if not index.exists():
        return []
    with open(index, newline="") as f:
        return [CorpusLog(r["path"], r["format"], r["collector"]) for r in csv.DictReader(f)]


def documented_kinds() -> set[str]:
    """The event kinds docs/event-table.md names: its `kind` row and its list of concurrent phases."""
    doc = (REPO / "docs" / "event-table.md").read_text()
    row = next(line for line in doc.splitlines() if line.startswith("| `kind` |"))
    section = doc[doc.index("### Concurrent phase kinds") : doc.index("Debug lines that merely start")]
    return set(re.findall(r"`([a-z][a-z-]*)`", row + section))
