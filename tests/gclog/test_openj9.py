"""OpenJ9 / IBM J9 verbose GC logs (docs/event-table.md, "OpenJ9 / IBM J9").

Inputs: the IBM J9 samples of the shared corpus (gcviewer/ibm/, marked `corpus`) and the logs transcribed from
the OpenJ9 documentation's annotated examples in tests/gclog/openj9/ (README.md there names the source of
each). Pause counts and times are checked against an independent reading of the same file with Python's
xml.etree (tests/expected/crosscheck.py `count_openj9`: each `<exclusive-end durationms>`, each Java 5-6
record's own `<time totalms>`, each metronome heartbeat's quantumCount x meanTimeMs), and against the figures
the documentation states in its prose around each example.
"""

from __future__ import annotations

import json
import math
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

import polars as pl
import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "expected"))

from corpus import corpus  # noqa: E402
from crosscheck import count_openj9, openj9_elements  # noqa: E402

import jvmlab  # noqa: E402
from jvmlab.cli.main import main  # noqa: E402
from jvmlab.errors import InputError  # noqa: E402
from jvmlab.metrics import summarize  # noqa: E402

HERE = Path(__file__).resolve().parent / "openj9"
DOC_LOGS = sorted(HERE.glob("*.xml"))
IBM = [e.file for e in corpus() if e.format == "openj9-xml"]
HOTSPOT_LOG = Path(__file__).resolve().parents[1] / "advise" / "logs" / "healthy-g1-jdk25.log"


def pauses(log: jvmlab.gclog.GcLog) -> pl.DataFrame:
    return log.events.filter(pl.col("category") == "pause")


def row(log: jvmlab.gclog.GcLog, **where: object) -> dict:
    """The one event row matching `where` (column = value)."""
    ev = log.events
    for column, value in where.items():
        ev = ev.filter(pl.col(column) == value)
    assert len(ev) == 1, where
    return ev.row(0, named=True)


def check_against_xml(path: Path) -> None:
    """The parser's pauses against the independent xml.etree count of the same file."""
    log = jvmlab.gclog.load(path)
    want = count_openj9(path.read_text())
    got = pauses(log)
    assert log.format["generation"] == "openj9"
    assert log.diagnostics["lines_unknown"] == 0, log.diagnostics["unknown_samples"]
    assert len(got) == want.pause_count
    assert math.isclose(float(got["pause_ms"].sum()), want.pause_total_ms, abs_tol=1e-6)
    for kind, xml_kind in (("full", "full"), ("young", "young"), ("pause-other", "other")):
        assert int((got["kind"] == kind).sum()) == want.n(xml_kind), kind


@pytest.mark.parametrize("path", DOC_LOGS, ids=[p.name for p in DOC_LOGS])
def test_documented_logs_parse_fully_and_agree_with_the_xml(path):
    """Logs transcribed from the OpenJ9 documentation (tests/gclog/openj9/README.md): no unknown element,
    and the pauses xml.etree finds in the same file."""
    check_against_xml(path)


@pytest.mark.corpus
@pytest.mark.skipif(not IBM, reason="../shared/gclogs is not present")
@pytest.mark.parametrize("path", IBM, ids=[p.name for p in IBM])
def test_ibm_samples_parse_fully_and_agree_with_the_xml(path):
    check_against_xml(path)


def test_gencon_scavenge_example():
    """eclipse-openj9/openj9-docs docs/vgclog_examples.md, "Scavenge partial GC cycle" (ids 12392-12403): a
    12.319 ms pause; the tenure area has 414,960,320 B free before and 414,331,440 B after (objects copied
    to it), 97 % of the allocate space free after (235,142,120 B of the nursery)."""
    log = jvmlab.gclog.load(HERE / "gencon.xml")
    r = row(log, gc_id=12394)
    assert (r["kind"], r["phase"], r["cause"], r["pause_ms"]) == (
        "young",
        "scavenge",
        "Allocation Failure",
        12.319,
    )
    tenure, nursery = 805306368, 268435456
    assert (r["old_before_bytes"], r["old_after_bytes"]) == (tenure - 414960320, tenure - 414331440)
    assert (r["young_before_bytes"], r["young_after_bytes"]) == (nursery, nursery - 235142120)
    assert r["heap_capacity_bytes"] == 1073741824


def test_gencon_global_cycle_example():
    """docs/vgclog_examples.md, "`gencon` global GC cycle" (ids 12362-12391): a kickoff for "threshold
    reached" and a 0.048 ms pause that starts the global cycle 12364; concurrent marking until the final
    increment, which a card cleaning threshold triggered; its pause 24.679 ms; the tenure area from
    42,439,200 B free to 414,960,416 B (it gained 372,521,216 B), the nursery from 234,609,440 B to
    235,516,088 B."""
    log = jvmlab.gclog.load(HERE / "gencon.xml")
    cycle = log.events.filter(pl.col("gc_id") == 12364)
    assert cycle["kind"].to_list() == ["pause-other", "concurrent-mark", "full"]
    kickoff, mark, final = cycle.iter_rows(named=True)
    assert (kickoff["pause_ms"], kickoff["cause"], kickoff["phase"]) == (
        0.048,
        "threshold reached",
        "concurrent kickoff",
    )
    # marking runs from the end of the kickoff pause (13:35:44.344) to the final increment (13:35:44.594)
    assert (mark["duration_ms"], mark["pause_ms"], mark["cause"]) == (250.0, 0.0, "threshold reached")
    assert (final["pause_ms"], final["cause"]) == (24.679, "card cleaning threshold reached")
    assert final["old_before_bytes"] - final["old_after_bytes"] == 372521216
    nursery = 268435456
    assert (final["young_before_bytes"], final["young_after_bytes"]) == (
        nursery - 234609440,
        nursery - 235516088,
    )
    assert final["heap_before_bytes"] == 1073741824 - 277048640


def test_gencon_header_and_time():
    """docs/vgclog.md, "Initialization": the <initialized> stanza names the policy and the heap; time counts
    from it (13:27:07.691), so the first scavenge (13:27:09.603) starts at 1.912 s."""
    log = jvmlab.gclog.load(HERE / "gencon.xml")
    assert log.format["collector"] == "gencon"
    assert log.format["jvm_start_seen"] and log.format["uptime_from_wall_clock"]
    header = log.format["header"]
    assert header["gcPolicy"] == "-Xgcpolicy:gencon"
    assert (header["maxHeapSize"], header["numCPUs"]) == ("0x40000000", "28")
    assert (
        header["command_line"]
        == "-Dfile.encoding=bestfit936 -Xms1024m -Xmx1024m -Xverbosegclog:verbosegc.xml"
    )
    first = log.events.row(0, named=True)
    assert math.isclose(first["uptime_s"], 1.912)
    assert str(first["wall_time"]) == "2020-10-18 13:27:09.603000+00:00"
    assert log.format["gc_ids"] == "log"


def test_balanced_partial_gc_example():
    """docs/vgclog_examples.md, "`balanced` partial GC cycle" (ids 184-194): an allocation taxation
    threshold triggers it; 856 MB (897,581,056 B) of the 4096 MB heap free before, 2864 MB
    (3,003,121,664 B) after; the eden space full before, 100 % free after; pause 404.145 ms."""
    log = jvmlab.gclog.load(HERE / "balanced.xml")
    r = row(log, gc_id=186)
    assert (r["kind"], r["phase"], r["cause"], r["pause_ms"]) == (
        "young",
        "partial gc",
        "Allocation Taxation",
        404.145,
    )
    heap, eden = 4294967296, 2147483648
    assert (r["heap_before_bytes"], r["heap_after_bytes"]) == (heap - 897581056, heap - 3003121664)
    assert (r["young_before_bytes"], r["young_after_bytes"], r["young_capacity_bytes"]) == (eden, 0, eden)
    assert r["old_before_bytes"] is None  # balanced prints no old space
    assert log.format["collector"] == "balanced"


def test_balanced_global_mark_example():
    """docs/vgclog_examples.md, "Global mark phase" (cycle 1154): three stop-the-world increments
    (123.936, 0.816 and 170.186 ms) and two concurrent work-packet increments that met their work target
    (311.867 and 279.311 ms of marking); the heap's free memory (1,442,840,576 B) does not change in the
    first increment."""
    log = jvmlab.gclog.load(HERE / "balanced.xml")
    cycle = log.events.filter(pl.col("gc_id") == 1154)
    assert cycle["kind"].to_list() == [
        "pause-other",
        "concurrent-global-mark",
        "pause-other",
        "concurrent-global-mark",
        "pause-other",
    ]
    assert cycle.filter(pl.col("category") == "pause")["pause_ms"].to_list() == [123.936, 0.816, 170.186]
    marks = cycle.filter(pl.col("category") == "concurrent")
    assert marks["duration_ms"].to_list() == [311.867, 279.311]
    assert set(marks["cause"].to_list()) == {"Work target met"}
    assert set(marks["phase"].to_list()) == {"GMP work packet processing"}
    first = cycle.row(0, named=True)
    assert first["heap_before_bytes"] == first["heap_after_bytes"] == 4294967296 - 1442840576
    assert first["phase"] == "global mark phase"


def test_balanced_global_gc_example():
    """docs/vgclog_examples.md, "`balanced` global GC cycle" (ids 2009-2025): an allocation failure ends
    the global mark's concurrent increment ("Termination requested") and turns the cycle into a global
    collection; the heap goes from 0 B free to 1.5 MB (1,572,864 B) free, all of it eden; pause 1130.358 ms.
    The documentation shows no <exclusive-start>: the pause starts 1130.358 ms before its end."""
    log = jvmlab.gclog.load(HERE / "balanced-global.xml")
    concurrent, pause = log.events.iter_rows(named=True)
    assert (concurrent["kind"], concurrent["cause"], concurrent["duration_ms"]) == (
        "concurrent-global-mark",
        "Termination requested",
        0.893,
    )
    assert (pause["kind"], pause["phase"], pause["cause"], pause["pause_ms"]) == (
        "full",
        "global garbage collect",
        "Allocation Failure",
        1130.358,
    )
    total = 838860800
    assert (pause["heap_before_bytes"], pause["heap_after_bytes"]) == (total, total - 1572864)
    assert (pause["young_before_bytes"], pause["young_after_bytes"]) == (524288, 0)
    assert str(pause["wall_time"]) == "2021-03-05 12:16:43.107000+00:00"  # 44.237 - 1.130


LOA_COLUMNS = ("loa_before_bytes", "loa_after_bytes", "loa_capacity_bytes", "request_bytes")


def loa_used(mem: ET.Element | None, free: str, total: str) -> tuple[int | None, int | None]:
    """(total - free, total) of an LOA element, (None, None) without one."""
    if mem is None:
        return None, None
    return int(mem.get(total, "0")) - int(mem.get(free, "0")), int(mem.get(total, "0"))


def modern_loa(mem_info: ET.Element | None) -> tuple[int | None, int | None]:
    tenure = None if mem_info is None else mem_info.find("mem[@type='tenure']")
    return loa_used(None if tenure is None else tenure.find("mem[@type='loa']"), "free", "total")


def loa_and_request_from_xml(path: Path) -> list[tuple[int | None, ...]]:
    """Per pause, in log order, (LOA used before, after, LOA total after, bytes requested), read with
    xml.etree: a modern window's first <gc-start> and last <gc-end> <mem-info>, its <af-start
    totalBytesRequested> (or the one just before it opened); a Java 5-6 <af>/<sys> record's <tenured><loa>
    before its <gc>, the one inside <gc>, and its <minimum requested_bytes>."""
    out: list[tuple[int | None, ...]] = []
    start: ET.Element | None = None
    end: ET.Element | None = None
    request: int | None = None
    pending: int | None = None
    in_window = False
    for el in openj9_elements(path.read_text()):
        if el.tag == "exclusive-start":
            in_window, start, end, request, pending = True, None, None, pending, None
        elif el.tag == "af-start":
            if not in_window:
                pending = int(el.get("totalBytesRequested", "0"))
            elif request is None:
                request = int(el.get("totalBytesRequested", "0"))
        elif el.tag == "gc-start" and in_window and start is None:
            start = el.find("mem-info")
        elif el.tag == "gc-end" and in_window and el.find("mem-info") is not None:
            end = el.find("mem-info")
        elif el.tag == "exclusive-end":
            (before, _), (after, capacity) = modern_loa(start), modern_loa(end)
            out.append((before, after, capacity, request))
            in_window = False
        elif el.tag in ("af", "sys"):
            gc = el.find("gc")
            before, _ = loa_used(el.find("tenured/loa"), "freebytes", "totalbytes")
            after, capacity = loa_used(
                None if gc is None else gc.find("tenured/loa"), "freebytes", "totalbytes"
            )
            minimum = el.find("minimum")
            req = None if minimum is None else int(minimum.get("requested_bytes", "0"))
            out.append((before, after, capacity, req))
    return out


LOA_LOGS = [HERE / "gencon.xml", *IBM]


@pytest.mark.parametrize("path", LOA_LOGS, ids=[p.name for p in LOA_LOGS])
def test_loa_and_request_columns_agree_with_the_xml(path):
    """docs/event-table.md, OpenJ9: loa_before/after_bytes = LOA total - free before / after the collection,
    loa_capacity_bytes = the LOA total after, request_bytes = the failed allocation's size; null on other
    rows."""
    if not path.exists():
        pytest.skip("../shared/gclogs is not present")
    log = jvmlab.gclog.load(path)
    want = loa_and_request_from_xml(path)
    got = [tuple(r) for r in pauses(log).select(LOA_COLUMNS).iter_rows()]
    assert got == want
    if 'type="loa"' in path.read_text() or "<loa " in path.read_text():
        assert any(r[0] is not None for r in want)  # the log's figures were read
    others = log.events.filter(pl.col("category") != "pause").select(LOA_COLUMNS)
    assert others.null_count().sum_horizontal().item() == others.height * len(LOA_COLUMNS)


def test_loa_used_and_request_of_a_java5_record():
    """SampleIBMJ9_5_0af-global-20090417_AA.txt's <af type="tenured">: a 34,603,032 B request; the LOA from
    16,935,888 B free of 51,538,944 B before to 179,283,792 B free of 180,387,840 B in the collection
    (it was expanded)."""
    path = next((p for p in IBM if p.name == "SampleIBMJ9_5_0af-global-20090417_AA.txt"), None)
    if path is None:
        pytest.skip("../shared/gclogs is not present")
    r = pauses(jvmlab.gclog.load(path)).row(0, named=True)
    assert r["request_bytes"] == 34603032
    assert (r["loa_before_bytes"], r["loa_after_bytes"]) == (51538944 - 16935888, 180387840 - 179283792)
    assert r["loa_capacity_bytes"] == 180387840


def test_loa_and_request_are_null_on_hotspot_rows():
    log = jvmlab.gclog.load(HOTSPOT_LOG)
    assert len(log.events) > 0
    ev = log.events.select(LOA_COLUMNS)
    assert ev.dtypes == [pl.Int64] * len(LOA_COLUMNS)
    assert ev.null_count().sum_horizontal().item() == ev.height * len(LOA_COLUMNS)


def test_older_concurrent_end_form():
    """An earlier revision of docs/vgclog.md (ids 345-355): the concurrent increment's end reason in a
    <concurrent-mark-end reasonForTermination> child; no inner <gc-op>, so its time is end - start."""
    log = jvmlab.gclog.load(HERE / "balanced-gmp-2020.xml")
    mark = row(log, category="concurrent")
    assert (mark["cause"], mark["duration_ms"], mark["gc_id"]) == ("Work target met", 139.0, 347)


def test_metronome_heartbeats():
    """IBM SDK 8 documentation, "Using verbose:gc information": heartbeat 27 sums 321 mark quanta of 0.524 ms
    on average (tests/gclog/openj9/README.md says which parts of metronome.xml are transcribed)."""
    log = jvmlab.gclog.load(HERE / "metronome.xml")
    beat = row(log, gc_id=26, phase="heartbeat (mark)")
    assert math.isclose(beat["pause_ms"], 321 * 0.524)
    assert beat["kind"] == "pause-other"
    sync = row(log, phase="syncgc")
    assert (sync["kind"], sync["cause"], sync["pause_ms"]) == ("full", "out of memory", 78.312)
    assert log.format["collector"] == "metronome"
    assert any("per heartbeat" in w for w in log.diagnostics["warnings"])


def test_truncated_log_parses_up_to_the_cut(tmp_path):
    """A JVM killed in the middle of writing the final increment's <gc-end>: every pause before the cut is
    kept, the global cycle's final pause is not counted, and the diagnostics say so."""
    text = (HERE / "gencon.xml").read_text()
    cut = text.index('<gc-end id="12387"') + 40
    path = tmp_path / "verbosegc.xml"
    path.write_text(text[:cut])
    log = jvmlab.gclog.load(path)
    assert pauses(log)["pause_ms"].to_list() == [31.984, 0.048]
    assert log.events["kind"].to_list() == ["young", "pause-other", "concurrent-mark"]
    assert log.diagnostics["truncated"]
    warnings = " ".join(log.diagnostics["warnings"])
    assert "middle of an element" in warnings and "stop-the-world window" in warnings


def test_empty_verbosegc_is_an_empty_log_with_a_warning(tmp_path, capsys):
    """A JVM that logged no collection: an empty table and a warning, not an error (the summary says 0)."""
    path = tmp_path / "verbosegc.xml"
    path.write_text(
        '<?xml version="1.0" ?>\n<verbosegc xmlns="http://www.ibm.com/j9/verbosegc">\n</verbosegc>\n'
    )
    log = jvmlab.gclog.load(path)
    assert log.events.is_empty()
    assert any("no collection" in w for w in log.diagnostics["warnings"])
    assert main(["gc", "summary", "--json", str(path)]) == 0
    (entry,) = json.loads(capsys.readouterr().out)["inputs"]
    assert entry["pause_count"] == 0


def test_xml_that_is_not_a_gc_log_is_one_line_and_exit_2(tmp_path, capsys):
    pom = tmp_path / "pom.xml"
    pom.write_text('<?xml version="1.0"?>\n<project><modelVersion>4.0.0</modelVersion></project>\n')
    with pytest.raises(InputError, match="not a GC log"):
        jvmlab.gclog.load(pom)
    assert main(["gc", "summary", str(pom)]) == 2
    err = capsys.readouterr().err.strip()
    assert "not a GC log" in err and "\n" not in err


def test_gc_summary_end_to_end(capsys):
    """`jvmlab gc summary` and `--json` on an OpenJ9 log: exit 0 and the counts of the event table."""
    path = HERE / "gencon.xml"
    assert main(["gc", "summary", str(path)]) == 0
    table = capsys.readouterr().out
    assert "gencon" in table and "openj9" in table
    assert main(["gc", "summary", "--json", str(path)]) == 0
    (entry,) = json.loads(capsys.readouterr().out)["inputs"]
    assert entry["format"]["generation"] == "openj9"
    assert entry["pause_count"] == 4
    assert math.isclose(entry["pause_total_ms"], 31.984 + 0.048 + 24.679 + 12.319)
    assert entry["counts_by_kind"] == {"young": 2, "full": 1, "pause-other": 1, "concurrent-mark": 1}
    assert entry["full_gc_causes"] == {"card cleaning threshold reached": 1}
    assert entry["diagnostics"]["lines_unknown"] == 0


def rotated_set(tmp_path: Path) -> list[Path]:
    """gencon.xml's three collections written as -Xverbosegclog:gc%seq.log,3,1 would: one per file, each
    file with the header, the set wrapped around (gc001.log holds the newest)."""
    text = (HERE / "gencon.xml").read_text()
    header = text[: text.index('<exclusive-start id="2"')]
    bodies = [
        text[text.index('<exclusive-start id="2"') : text.index('<concurrent-kickoff id="12362"')],
        text[text.index('<concurrent-kickoff id="12362"') : text.index("<!-- Start of gencon scavenge")],
        text[text.index("<!-- Start of gencon scavenge") : text.index("</verbosegc>")],
    ]
    # A file opened later starts with a copy of the <initialized> stanza, of a later id and stamped when the
    # file was opened (OMR's VerboseHandlerOutput::outputInitializedStanza).
    first = '<initialized id="1" timestamp="2020-10-18T13:27:07.691">'
    restamped = [
        first,
        '<initialized id="12361" timestamp="2020-10-18T13:35:44.300">',
        '<initialized id="12390" timestamp="2020-10-18T13:35:44.990">',
    ]
    files = []
    names = ("gc002.log", "gc003.log", "gc001.log")
    for name, stanza, body in zip(names, restamped, bodies, strict=True):
        path = tmp_path / name
        path.write_text(header.replace(first, stanza) + body + "</verbosegc>\n")
        files.append(path)
    return files


def test_rotated_files_are_one_log_in_time_order(tmp_path):
    rotated_set(tmp_path)
    (log,) = jvmlab.gclog.load_many([tmp_path])
    assert [Path(s.path).name for s in log.sources] == ["gc002.log", "gc003.log", "gc001.log"]
    assert pauses(log)["pause_ms"].to_list() == [31.984, 0.048, 24.679, 12.319]
    assert log.events["source"].to_list() == [0, 1, 1, 1, 2]
    assert log.diagnostics["lines_unknown"] == 0 and not log.diagnostics["warnings"]
    assert log.format["jvm_start_seen"]  # from gc002.log's stanza of id 1
    assert math.isclose(log.events["uptime_s"][-1], 517.309)


def test_sequence_numbers_in_names():
    """-Xverbosegclog's %seq (or #) is a 3-digit number from 001 anywhere in the name; without one the JVM
    appends `.%seq` (OMR's VerboseWriterFileLogging::initializeFilename)."""
    from jvmlab.gclog.sources import rotation_key

    assert rotation_key("gc001.log", openj9=True) == ("gc%seq.log", 1, False)
    assert rotation_key("verbosegc.002.xml.gz", openj9=True) == ("verbosegc.%seq.xml", 2, False)
    assert rotation_key("verbosegc.xml.003", openj9=True)[:2] == ("verbosegc.xml", 3)
    assert rotation_key("gc001.log") == ("gc001.log", -1, False)  # a HotSpot log keeps its whole name


def test_stderr_capture_without_the_wrapper(tmp_path):
    """-verbose:gc on stderr, captured from its middle: no declaration, no <verbosegc>; still OpenJ9."""
    text = (HERE / "gencon.xml").read_text()
    path = tmp_path / "stderr.txt"
    path.write_text(
        "Starting the app\n" + text[text.index('<exclusive-start id="12363"') : text.index("</verbosegc>")]
    )
    log = jvmlab.gclog.load(path)
    assert pauses(log)["pause_ms"].to_list() == [0.048, 24.679, 12.319]
    assert log.diagnostics["lines_unknown"] == 0


def test_optthruput_global_collection_forced_by_an_allocation_failure():
    """optthruput.xml (README: gencon's documented global collection, ids 12380-12391, as optthruput writes
    it: no nursery, no concurrent phase, an <af-start type="tenure"> of 272 bytes before it): one full
    pause of the documented 24.679 ms; the tenure area 42,439,200 B free before, 414,960,416 B after; the
    large object area untouched; the failed request's size."""
    log = jvmlab.gclog.load(HERE / "optthruput.xml")
    assert log.format["collector"] == "optthruput" and log.diagnostics["lines_unknown"] == 0
    (r,) = log.events.rows(named=True)
    assert (r["kind"], r["category"], r["cause"], r["pause_ms"]) == (
        "full",
        "pause",
        "Allocation Failure",
        24.679,
    )
    tenure = 805306368
    assert (r["heap_before_bytes"], r["heap_after_bytes"]) == (tenure - 42439200, tenure - 414960416)
    assert (r["loa_before_bytes"], r["loa_after_bytes"], r["request_bytes"]) == (0, 0, 272)
    assert r["young_before_bytes"] is None  # no nursery


def test_optavgpause_concurrent_global_cycle():
    """optavgpause.xml (README: gencon's documented global cycle, ids 12362-12391, without the nursery and
    its remembered set): the kickoff's 0.048 ms pause, concurrent marking until the final collection, whose
    pause is the documented 24.679 ms; no young collection."""
    log = jvmlab.gclog.load(HERE / "optavgpause.xml")
    assert log.format["collector"] == "optavgpause" and log.diagnostics["lines_unknown"] == 0
    ev = log.events
    assert ev["kind"].cast(pl.String).to_list() == ["pause-other", "concurrent-mark", "full"]
    assert ev.filter(pl.col("category") == "pause")["pause_ms"].to_list() == [0.048, 24.679]
    s = summarize(log)
    assert (s.pause_count, round(s.pause_total_ms, 3)) == (2, 24.727)
