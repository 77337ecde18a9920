"""OpenJ9 / IBM J9 logs that are damaged the way production logs are: the `<initialized>` header
never closed, a file cut at a top-level element boundary or inside an element (a rotated or trimmed file
starting or ending in the middle), two logs in one file. Each gives the pauses the intact log gives for the
collections it holds, and says what it skipped.

What a piece of a log "holds" is found here by a scan of the intact text, independent of the parser: a modern
window's pause is its `<exclusive-end durationms>` (held when that tag is whole in the piece); a Java 5-6
record's is its own `<time totalms>` (held when the record, `<af>` to `</af>`, is whole); a metronome
heartbeat's is its quanta's count x mean time, a synchronous GC's its `timems` (held when the `<gc-op>` is
whole). Cut points: every top-level element boundary, and a deterministic sample of byte offsets inside
elements. Inputs: the logs of tests/gclog/openj9/ (README.md there) and, when present, the IBM J9 logs of
../shared/gclogs.
"""

from __future__ import annotations

import math
import re
import sys
from dataclasses import dataclass
from pathlib import Path

import polars as pl
import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from corpus import corpus  # noqa: E402

import jvmlab  # noqa: E402
from jvmlab.cli.main import main  # noqa: E402
from jvmlab.errors import StrictModeError  # noqa: E402

HERE = Path(__file__).resolve().parent / "openj9"
DOC_LOGS = sorted(HERE.glob("*.xml"))
IBM = [e.file for e in corpus() if e.format == "openj9-xml"]
ALL = DOC_LOGS + IBM
MID_ELEMENT_CUTS = 24  # byte offsets inside elements per log, spread over the file

_MARKUP = re.compile(rb"<!--.*?-->|<[^>]*>", re.S)
_ATTR = re.compile(rb'([\w-]+)="([^"]*)"')


@dataclass(frozen=True)
class Tag:
    start: int
    end: int
    name: str
    closing: bool
    empty: bool
    attrs: dict[str, str]


def tags(text: bytes) -> list[Tag]:
    """The tags of a log, declarations and comments left out."""
    out = []
    for m in _MARKUP.finditer(text):
        raw = m.group()
        if raw.startswith((b"<?", b"<!")):
            continue
        inner = raw[1:-1].strip()
        closing, empty = inner.startswith(b"/"), inner.endswith(b"/")
        name = inner.lstrip(b"/").split(None, 1)[0].rstrip(b"/").decode()
        attrs = {k.decode(): v.decode() for k, v in _ATTR.findall(raw)}
        out.append(Tag(m.start(), m.end(), name, closing, empty, attrs))
    return out


@dataclass(frozen=True)
class Held:
    """A pause and the span of the log that must be whole for a reader to have it."""

    start: int
    end: int
    pause_ms: float


def pauses_in(text: bytes) -> list[Held]:
    """Every pause of an intact log with the span that carries it (module docstring)."""
    out: list[Held] = []
    record: Tag | None = None  # an open <af>, <sys> or <con event="collection">
    depth, record_depth, total = 0, 0, None
    op: Tag | None = None
    quanta = None
    for t in tags(text):
        if t.name in ("af", "sys") or (t.name == "con" and t.attrs.get("event") == "collection"):
            if not t.closing:
                record, record_depth, total = t, depth, None
            elif record is not None and depth - 1 == record_depth:
                out.append(Held(record.start, t.end, float(total)))
                record = None
        elif t.name == "time" and record is not None and depth == record_depth + 1 and "totalms" in t.attrs:
            total = t.attrs["totalms"]
        elif t.name == "exclusive-end" and "durationms" in t.attrs:
            out.append(Held(t.start, t.end, float(t.attrs["durationms"])))
        elif t.name == "gc-op" and t.attrs.get("type") in ("heartbeat", "syncgc") and not t.closing:
            op, quanta = t, None
            if t.attrs["type"] == "syncgc" and t.empty:
                out.append(Held(t.start, t.end, float(t.attrs["timems"])))
        elif t.name == "quanta" and op is not None:
            quanta = float(t.attrs["quantumCount"]) * float(t.attrs["meanTimeMs"])
        elif t.name == "gc-op" and t.closing and op is not None:
            ms = quanta if op.attrs["type"] == "heartbeat" else float(op.attrs["timems"])
            if ms is not None:
                out.append(Held(op.start, t.end, ms))
            op = None
        if t.name == "con" and not t.closing and t.empty:
            continue
        if t.closing:
            depth -= 1
        elif not t.empty:
            depth += 1
    return out


def top_level_boundaries(text: bytes) -> list[int]:
    """Offsets where a top-level element starts (a child of <verbosegc>, or of nothing without one), and the
    end of the file."""
    cuts, depth = [], 0
    root = 1 if b"<verbosegc" in text else 0
    for t in tags(text):
        if t.closing:
            depth -= 1
        if depth == root and not t.closing and t.name != "verbosegc":
            cuts.append(t.start)
        if not t.closing and not t.empty:
            depth += 1
    return cuts + [len(text)]


def mid_element_cuts(text: bytes) -> list[int]:
    """A deterministic spread of byte offsets that fall inside a tag or between the tags of an element."""
    boundaries = set(top_level_boundaries(text))
    step = max(1, len(text) // (MID_ELEMENT_CUTS + 1))
    return [i for i in range(step, len(text), step) if i not in boundaries][:MID_ELEMENT_CUTS]


def parsed_pauses(path: Path) -> tuple[list[float], dict]:
    log = jvmlab.gclog.load(path)
    pauses = log.events.filter(pl.col("category") == "pause")["pause_ms"].to_list()
    return pauses, log.diagnostics


def same(got: list[float], want: list[float]) -> bool:
    if len(got) != len(want):
        return False
    return all(math.isclose(g, w, abs_tol=1e-6) for g, w in zip(got, want, strict=True))


def write(tmp_path: Path, name: str, data: bytes) -> Path:
    path = tmp_path / name
    path.write_bytes(data)
    return path


@pytest.mark.parametrize("path", ALL, ids=[p.name for p in ALL])
def test_the_scan_finds_the_parsers_pauses_on_the_intact_log(path):
    """The independent scan agrees with the parser on every intact log (what the properties below rest on)."""
    text = path.read_bytes()
    got, _ = parsed_pauses(path)
    assert same(got, [h.pause_ms for h in pauses_in(text)])
    assert got, "a log with no pause proves nothing here"


@pytest.mark.parametrize("path", ALL, ids=[p.name for p in ALL])
def test_pieces_cut_anywhere_keep_the_pauses_they_hold(path, tmp_path):
    """Each cut point splits the log in a head and a tail (a log killed mid-write, a rotated or trimmed
    file): each piece gives exactly the pauses whose span it holds whole, in order. A piece cut at a
    top-level boundary has no unknown line."""
    text = path.read_bytes()
    held = pauses_in(text)
    boundaries = top_level_boundaries(text)
    for cut in boundaries + mid_element_cuts(text):
        for name, lo, hi in (("head.xml", 0, cut), ("tail.xml", cut, len(text))):
            piece = text[lo:hi]
            if not piece.strip():
                continue
            want = [h.pause_ms for h in held if lo <= h.start and h.end <= hi]
            if not want and b"<" not in piece:
                continue  # no tag at all: not a GC log
            got, diag = parsed_pauses(write(tmp_path, name, piece))
            where = f"{path.name} {name} cut at byte {cut}"
            assert same(got, want), f"{where}: {got} != {want}; {diag['warnings']}"
            if cut in boundaries:
                assert diag["lines_unknown"] == 0, (where, diag["unknown_samples"])
            assert not diag["unread_collections"], where


@pytest.mark.parametrize("path", ALL, ids=[p.name for p in ALL])
def test_a_header_never_closed_loses_nothing(path, tmp_path):
    """The `</initialized>` line deleted (58 pauses had become 0): the same pauses, no unknown line,
    and a warning that says the header was not closed."""
    text = path.read_bytes()
    if b"</initialized>" not in text:
        pytest.skip("no <initialized> stanza")
    damaged = write(tmp_path, "verbosegc.xml", re.sub(rb"[ \t]*</initialized>[ \t]*\r?\n?", b"", text))
    got, diag = parsed_pauses(damaged)
    want, _ = parsed_pauses(path)
    assert same(got, want) and want
    assert diag["lines_unknown"] == 0, diag["unknown_samples"]
    assert any("<initialized> header is not closed" in w for w in diag["warnings"])


@pytest.mark.parametrize("path", ALL, ids=[p.name for p in ALL])
def test_two_logs_in_one_file_give_both_logs_pauses(path, tmp_path):
    """A log, then the documented gencon log appended (a JVM restarted on the same file, or two logs
    concatenated): the pauses of both, in order, no unknown line."""
    other = HERE / "gencon.xml"
    joined = write(tmp_path, "verbosegc.xml", path.read_bytes() + other.read_bytes())
    got, diag = parsed_pauses(joined)
    want = parsed_pauses(path)[0] + parsed_pauses(other)[0]
    assert same(got, want)
    assert diag["lines_unknown"] == 0, diag["unknown_samples"]


def test_a_restart_inside_a_window_skips_only_that_window_and_says_so(tmp_path):
    """A JVM killed inside a window, restarted on the same file: every other pause is kept."""
    text = (HERE / "gencon.xml").read_bytes()
    cut = text.index(b'<exclusive-end id="13"')
    got, diag = parsed_pauses(write(tmp_path, "verbosegc.xml", text[:cut] + text))
    want, _ = parsed_pauses(HERE / "gencon.xml")
    assert same(got, want)
    assert any("new log starts inside a collection" in w for w in diag["warnings"])


def test_a_rotated_file_starting_with_an_end_tag_keeps_its_first_pause(tmp_path):
    """A rotated file whose first line is `</gc-op>` lost its first pause although its
    `<exclusive-end durationms>` is intact. gencon.xml cut after the scavenge's `<gc-op>` start: the pause
    (31.984 ms, docs/vgclog.md) is kept, a young one, with the heap after from its `<gc-end>`."""
    text = (HERE / "gencon.xml").read_bytes()
    start = text.index(b"</gc-op>", text.index(b'<gc-op id="7"'))
    path = write(tmp_path, "verbosegc.003.xml", text[start:])
    assert path.read_bytes().startswith(b"</gc-op>")
    log = jvmlab.gclog.load(path)
    first = log.events.filter(pl.col("category") == "pause").row(0, named=True)
    assert (first["pause_ms"], first["kind"], first["phase"]) == (31.984, "young", "scavenge")
    assert first["heap_after_bytes"] is not None
    assert any("starts inside an element" in w for w in log.diagnostics["warnings"])
    assert log.diagnostics["lines_unknown"] == 0


def test_collection_elements_with_nothing_read_fail_strict(tmp_path, capsys):
    """A log whose collection elements give no row (here: `<exclusive-end>` without `durationms`) is said
    loudly, and refused with exit 2 under --strict by gc summary and advise."""
    text = (HERE / "gencon.xml").read_bytes()
    broken = re.sub(rb'(<exclusive-end[^>]*?) durationms="[^"]*"', rb"\1", text)
    path = write(tmp_path, "verbosegc.xml", broken)
    log = jvmlab.gclog.load(path)
    assert log.events.filter(pl.col("category") == "pause").is_empty()
    assert log.diagnostics["unread_collections"] == text.count(b"<exclusive-end")
    assert any("NO COLLECTION READ" in w for w in log.diagnostics["warnings"])
    with pytest.raises(StrictModeError, match="no collection read"):
        jvmlab.gclog.load(path, strict=True)
    assert main(["gc", "summary", "--strict", str(path)]) == 2
    assert "no collection read" in capsys.readouterr().err
    assert main(["advise", "--strict", str(path)]) == 2
    assert "no collection read" in capsys.readouterr().err
    assert main(["gc", "summary", str(path)]) == 0
    out = capsys.readouterr()
    assert "no collection was read" in out.out + out.err


def test_j9_24_log_has_no_unknown_element():
    """j9-2.4-gencon.xml (README: IBM J9 VM 2.4 records after the documented formats): `<failed
    type="flipped">`, `<classunloading>` and `<pending-finalizers>` are known, so --strict accepts it, and
    its pauses are the records' own `<time totalms>`."""
    path = HERE / "j9-2.4-gencon.xml"
    log = jvmlab.gclog.load(path, strict=True)
    assert log.diagnostics["lines_unknown"] == 0
    pauses = log.events.filter(pl.col("category") == "pause")
    assert pauses["pause_ms"].to_list() == [h.pause_ms for h in pauses_in(path.read_bytes())]
    text = path.read_bytes()
    assert all(t in text for t in (b'<failed type="flipped"', b"<classunloading ", b"<pending-finalizers "))
    assert main(["gc", "summary", "--strict", str(path)]) == 0
