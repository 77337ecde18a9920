"""Cases from real production logs that a GC tuning study turns on: CMS's scavenge before remark counted as
the young collection it is, CMS mark pauses of -verbose:gc logs that are not young collections, a CMS
record that bails out to a full collection, the collector of DefNew + CMS logs, aborted G1 marks, and logs
damaged by crashes (NUL bytes, stray binary bytes) that are still read."""

from __future__ import annotations

import gzip
import random
import re
from pathlib import Path

import polars as pl
import pytest
from corpus import GCLOGS

import jvmlab
from jvmlab.errors import InputError, StrictModeError
from jvmlab.metrics import summarize
from jvmlab.report.gclog.diagnostics_view import quality_warnings

CMS = GCLOGS / "gctoolkit-testdata/gctoolkit-gclogs/preunified/cms"
PARNEW = CMS / "parnew/details"
G1_25 = GCLOGS / "generated/jdk25-g1-gcstar.log"
CMS_8 = GCLOGS / "gcviewer/openjdk/SampleSun1_7_0CMS_PrintTenuringDistributionPromotionFailure.txt"

pytestmark = [
    pytest.mark.skipif(not CMS.exists(), reason="../shared/gclogs is not present"),
    pytest.mark.corpus,
]


def counts(log: jvmlab.gclog.GcLog) -> dict[str, int]:
    return dict(log.events.group_by(pl.col("kind").cast(pl.String)).len().iter_rows())


def test_the_scavenge_before_remark_is_a_young_collection_of_its_own():
    log = jvmlab.gclog.load(PARNEW / "apptio_gc.log")
    n = counts(log)
    text = (PARNEW / "apptio_gc.log").read_text()
    in_failures = len(re.findall(r"\[ParNew[^\]]*\][^\n]*\[CMS", text))  # young GCs that ended as full ones
    assert n["young"] == text.count("[ParNew") - in_failures == 2087  # gctoolkit: 2,091 [ParNew in all
    assert n["remark"] == text.count("CMS-remark") == 70
    ev = log.events
    first = ev.filter(pl.col("uptime_s").is_between(11.95, 11.99), pl.col("category") == "pause")
    young, remark = first.row(0, named=True), first.row(1, named=True)
    assert (young["kind"], young["pause_ms"]) == ("young", pytest.approx(19.811))
    assert (remark["kind"], remark["duration_ms"]) == ("remark", pytest.approx(46.26))
    assert remark["pause_ms"] == pytest.approx(46.26 - 19.811)  # the stopped time is counted once
    assert young["gc_id"] != remark["gc_id"]


def test_the_scavenge_before_remark_keeps_its_cause():
    log = jvmlab.gclog.load(PARNEW / "scavangeBeforeRemark.log")
    scavenges = log.events.filter(pl.col("cause") == "CMS Final Remark", pl.col("kind") == "young")
    assert scavenges.height == 1
    assert scavenges["pause_ms"][0] == pytest.approx(15.0024)


@pytest.mark.parametrize(
    ("name", "young", "initial_mark", "remark"),
    [("530_gc.log", 30, 4, 3), ("713_gc.log", 79, 24, 24)],  # gctoolkit's parser tests assert the same
)
def test_cms_marks_without_details_are_not_young_collections(name, young, initial_mark, remark):
    log = jvmlab.gclog.load(CMS / name)
    n = counts(log)
    assert (n["young"], n["initial-mark"], n["remark"]) == (young, initial_mark, remark)
    assert log.format["collector"] == "CMS"
    assert any("told apart by their order" in w for w in log.diagnostics["warnings"])


def test_a_cms_record_that_bails_out_to_a_foreground_collection_is_full():
    log = jvmlab.gclog.load(PARNEW / "1073_1.log")
    row = log.events.filter(pl.col("uptime_s") == 364.157).row(0, named=True)
    assert row["kind"] == "full" and row["pause_ms"] == pytest.approx(4905.4799)
    assert "concurrent mode failure" in row["phase"]


def test_defnew_with_cms_is_cms():
    log = jvmlab.gclog.load(CMS / "defnew/details/defnew.log.gz")
    assert log.format["collector"] == "CMS"
    assert set(log.events["collector"].cast(pl.String)) == {"CMS"}
    serial = (
        GCLOGS
        / "gctoolkit-testdata/gctoolkit-gclogs/preunified/serial/defnew/details/tenuring/180/serial180.log"
    )
    assert jvmlab.gclog.load(serial).format["collector"] == "Serial"


def test_an_aborted_concurrent_mark_is_an_event():
    legacy = jvmlab.gclog.load(GCLOGS / "gctoolkit-testdata/gctoolkit-gclogs/streaming/gcspike.log")
    aborts = legacy.events.filter(pl.col("kind") == "concurrent-mark-abort")
    assert aborts.height == 24 and set(aborts["category"].cast(pl.String)) == {"concurrent"}
    unified = jvmlab.gclog.load(G1_25)
    assert counts(unified).get("concurrent-mark-abort", 0) == G1_25.read_text().count("Concurrent Mark Abort")
    summary = summarize(legacy)
    assert summary.counts_by_kind["concurrent-mark-abort"] == 24


# ---- damaged logs ----------------------------------------------------------------------------------------


def _nul_run(data: bytes, where: str) -> bytes:
    if where == "start":
        return b"\0" * 4096 + data
    if where == "end":
        return data + b"\0" * 4096
    cut = data.index(b"\n", len(data) // 2) + 1
    return data[:cut] + b"\0" * 4096 + data[cut:]


def _stray_bytes(data: bytes) -> bytes:
    cut = data.index(b"\n", len(data) // 2) + 1
    rng = random.Random(7)
    noise = bytes(rng.randrange(256) for _ in range(200)).replace(b"\n", b"")
    return data[:cut] + noise + b"\n" + data[cut:]


@pytest.mark.parametrize("compressed", [False, True], ids=["plain", "gzip"])
@pytest.mark.parametrize("where", ["start", "middle", "end"])
@pytest.mark.parametrize("original", [G1_25, CMS_8], ids=["unified", "legacy"])
def test_a_log_with_a_run_of_nul_bytes_is_read_around_it(tmp_path, original, where, compressed):
    intact = jvmlab.gclog.load(original)
    data = _nul_run(original.read_bytes(), where)
    path = tmp_path / ("gc.log.gz" if compressed else "gc.log")
    path.write_bytes(gzip.compress(data, mtime=0) if compressed else data)
    log = jvmlab.gclog.load(path)
    assert log.events.height == intact.events.height  # every event is kept
    assert log.diagnostics["lines_damaged"] == 1
    line = {"start": 1, "middle": data[: data.index(b"\0")].count(b"\n") + 1}.get(where)
    if line is not None:
        assert log.diagnostics["damaged_at"] == [f"{path}:{line}"]
    assert any("damaged lines" in w for w in quality_warnings(log.diagnostics))
    with pytest.raises(StrictModeError, match="damaged"):
        jvmlab.gclog.load(path, strict=True)


@pytest.mark.parametrize("original", [G1_25, CMS_8], ids=["unified", "legacy"])
def test_stray_binary_bytes_damage_only_their_line(tmp_path, original):
    intact = jvmlab.gclog.load(original)
    path = tmp_path / "gc.log"
    path.write_bytes(_stray_bytes(original.read_bytes()))
    log = jvmlab.gclog.load(path)
    assert log.diagnostics["lines_damaged"] == 1
    assert log.events.height == intact.events.height


@pytest.mark.parametrize(
    ("content", "problem"),
    [
        (Path("/bin/ls"), "binary file, not a GC log"),
        (b"\0" * 100_000, "only NUL bytes"),
        (b"\x7fELF" + b"\x01" * 10 + G1_25.read_bytes()[:5000] if G1_25.exists() else b"", "binary file"),
    ],
    ids=["executable", "only-nuls", "elf-header"],
)
def test_a_file_binary_from_its_start_is_still_refused(tmp_path, content, problem):
    path = tmp_path / "gc.log"
    path.write_bytes(content.read_bytes() if isinstance(content, Path) else content)
    with pytest.raises(InputError, match=problem) as err:
        jvmlab.gclog.load(path)
    assert "\n" not in str(err.value) and str(path) in str(err.value)
