"""The real-world check: every log of the corpus (tests/corpus.py) goes through `jvmlab advise`, and its
warning and critical findings are exactly those real_world.toml lists for it, each with the log line that
proves it and why a reviewer accepts it. A warning the table does not list is a false alarm (fix the rule or,
when it is right, review it in with tests/advise/review_real_world.py); a listed one that no longer fires is a
lost finding. Without ../shared it runs over the logs packed in the repository."""

from __future__ import annotations

import csv
import tomllib
from pathlib import Path

import pytest
from corpus import FULL_CORPUS, GCLOGS

from jvmlab.advise import Severity, advise_log

TABLE = tomllib.loads((Path(__file__).parent / "real_world.toml").read_text())["logs"]
INDEX = GCLOGS / "INDEX.csv"
PATHS = [row["path"] for row in csv.DictReader(INDEX.open())] if INDEX.exists() else []

pytestmark = pytest.mark.corpus


def test_the_table_is_reviewed_and_names_only_logs_of_the_corpus():
    assert PATHS, f"{INDEX} lists no log"
    unknown = sorted(set(TABLE) - set(PATHS)) if FULL_CORPUS else []  # the packed part lacks some
    assert not unknown, f"real_world.toml names logs the corpus does not have: {unknown}"
    for path, entries in TABLE.items():
        for e in entries:
            assert e["line"].strip(), f"{path}: {e['id']} cites no line of the log"
            assert e["why"].strip(), f"{path}: {e['id']} says not why it is right"
            assert e["severity"] in ("warning", "critical"), e


@pytest.mark.parametrize("path", PATHS)
def test_advise_raises_only_the_reviewed_warnings(path):
    advice = advise_log(GCLOGS / path)
    loud = {(f.id, f.severity.value): f.title for f in advice.findings if f.severity is not Severity.INFO}
    expected = {(e["id"], e["severity"]) for e in TABLE.get(path, [])}
    unreviewed = [
        f"{id_} ({severity}): {loud[(id_, severity)]}" for id_, severity in sorted(set(loud) - expected)
    ]
    lost = sorted(expected - set(loud))
    assert not unreviewed, f"{path}: findings no reviewer accepted: {unreviewed}"
    assert not lost, f"{path}: reviewed findings that no longer fire: {lost}"
