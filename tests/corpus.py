"""The corpus of real GC logs and the expectations kept for each log. The whole corpus (../shared/gclogs, or
$JVMLAB_GCLOGS) when it is there; otherwise the part of it the tests name, packed in the repository
(tests/gclogs/corpus.tar.xz, same paths, its own INDEX.csv) and unpacked once under build/."""

from __future__ import annotations

import csv
import hashlib
import os
import re
import shutil
import tarfile
import tempfile
import tomllib
from dataclasses import dataclass
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
SHARED_GCLOGS = Path(os.environ.get("JVMLAB_GCLOGS", REPO.parent / "shared" / "gclogs"))
PACKED = REPO / "tests" / "gclogs" / "corpus.tar.xz"
EXPECTED = REPO / "tests" / "expected" / "gclogs"


def unpacked() -> Path:
    """The packed corpus as a folder, unpacked once per archive content (test workers may race: the first
    rename wins, the others use its folder)."""
    digest = hashlib.sha256(PACKED.read_bytes()).hexdigest()[:16]
    target = REPO / "build" / "test-gclogs" / digest
    if not target.exists():
        target.parent.mkdir(parents=True, exist_ok=True)
        scratch = Path(tempfile.mkdtemp(dir=target.parent))
        with tarfile.open(PACKED) as tar:
            tar.extractall(scratch, filter="data")
        try:
            scratch.rename(target)
        except OSError:  # another worker unpacked it first
            shutil.rmtree(scratch, ignore_errors=True)
        for stale in target.parent.glob("?" * len(digest)):  # earlier versions of the archive
            if stale != target:
                shutil.rmtree(stale, ignore_errors=True)
    return target


FULL_CORPUS = (SHARED_GCLOGS / "INDEX.csv").exists()
GCLOGS = SHARED_GCLOGS if FULL_CORPUS else unpacked()


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
