"""The real GC logs the HTML report's tests use, and hostile lines to append to a copy of one."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from corpus import GCLOGS

G1 = "generated/jdk25-g1-gcstar.log"
ZGC = "generated/jdk25-zgc-gcstar.log"
CMS = "gcviewer/openjdk/SampleSun1_8_0CmsPrintGcId.txt"
PARALLEL = "generated/jdk25-parallel-gcstar.log"

SCRIPT = "<script>alert(1)</script>"
IMG = "</script><img src=x onerror=alert(1)>"
# Unknown lines (they look like GC data, so the parser keeps them as samples) and a pause whose cause
# carries markup into the chart data (hover text).
HOSTILE_LINES = (
    f"[12.960s][info][gc] GC(1001) Frob {SCRIPT} 1M->0M(2M)\n"
    f"[12.970s][info][gc] GC(1002) Frob {IMG} 1M->0M(2M)\n"
    "[12.975s][info][gc] GC(1003) Frob line\u2028separator\u2029here 1M->0M(2M)\n"
    f"[12.980s][info][gc] GC(1004) Pause Young (Normal) ({IMG}) 100M->50M(256M) 5.000ms\n"
)


def corpus_log(relative: str) -> Path:
    path = GCLOGS / relative
    if not path.exists():
        pytest.skip(f"{path} is not present (shared GC log corpus)")
    return path


def hostile_copy(folder: Path) -> Path:
    """A copy of the G1 log in `folder` with HOSTILE_LINES appended."""
    path = folder / "hostile.log"
    shutil.copy(corpus_log(G1), path)
    with open(path, "a", encoding="utf-8") as f:
        f.write(HOSTILE_LINES)
    return path
