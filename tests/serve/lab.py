"""The stored experiments the serve tests show: synthetic ones (tests/experiment/synthetic.py) with a real
GC log of the corpus as every trial's log, one of them with a hostile description."""

from __future__ import annotations

import sys
from pathlib import Path

TESTS = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(TESTS / "experiment"), str(TESTS / "report")]
from report_logs import G1, HOSTILE_LINES, ZGC, corpus_log  # noqa: E402
from synthetic import Variant, store_experiment  # noqa: E402

from jvmlab.experiment.storage import Store  # noqa: E402

HOSTILE = "<script>alert(1)</script><img src=x onerror=alert(2)>"
TOKEN = "s3cret-t0ken-of-the-team"

__all__ = [
    "G1",
    "ZGC",
    "corpus_log",
    "HOSTILE",
    "HOSTILE_LINES",
    "TOKEN",
    "Variant",
    "make_lab",
    "store_experiment",
]


def make_lab(tmp_path: Path) -> dict[str, Path | str]:
    """A store with two experiments: `synthetic` (2 variants x 3, a hostile description) and `levels` (2
    variants at two load levels); the runs and uploads folders beside it."""
    db = str(tmp_path / "jvmlab.db")
    store = Store.open(db)
    gc_log = corpus_log(G1)
    store_experiment(
        store,
        [Variant("jdk21", "default"), Variant("jdk21", "tuned", metric=330.0, pause_p99_ms=8.0)],
        gc_log=gc_log,
        description=HOSTILE,
        repetitions=3,
    )
    store_experiment(
        store,
        [
            Variant("jdk25", "default", p99_ms={"low": 5.0, "high": 50.0}),
            Variant("jdk25", "zgc", p99_ms={"low": 2.0, "high": 10.0}),
        ],
        name="levels",
        levels=["low", "high"],
        gc_log=gc_log,
    )
    store.close()
    return {"db": db, "runs": tmp_path / "runs", "uploads": tmp_path / "uploads", "gc_log": gc_log}
