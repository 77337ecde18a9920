"""Builds large GC logs for the parse benchmark by repeating a real log with shifted time stamps and GC ids
(OpenJ9: the gencon cycles transcribed from the OpenJ9 documentation, tests/gclog/openj9/gencon.xml).

    .venv/bin/python bench/make_logs.py                 # both logs at 520 MB, under build/bench/
    .venv/bin/python bench/make_logs.py --size-mb 20    # a 20 MB slice (for profiling)
    .venv/bin/python bench/make_logs.py --verify        # also parse each result and check its event count

A log is cut into a header (start-up lines), a body (first to last line that belongs to a GC; OpenJ9: first
`<exclusive-start>` to last `<exclusive-end>`) and a trailer (exit lines). The output is header + body x
copies + trailer. Copy k is shifted by k x `period_s` seconds (uptime, uptimemillis, time/utctime and JDK 8
date and uptime stamps; OpenJ9 `timestamp` attributes) and its `GC(N)` ids (OpenJ9: every `id` and non-zero
`contextid`) by k x `id_step`,
so time and ids keep increasing. The shift is a whole number of seconds: the milliseconds of every stamp stay
as written, only the integer seconds (and, for dates, the calendar part) are re-rendered.

Stamps are found once per template; each copy is a join of the template's literal pieces and its shifted
stamps (a few seconds for 520 MB). A file is rebuilt only when its manifest (next to it) does not match the
source, target size and generator version, or the file's size differs from the manifest's.
"""

from __future__ import annotations

import argparse
import calendar
import gzip
import hashlib
import json
import math
import os
import re
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass
from pathlib import Path

import numpy as np

GENERATOR_VERSION = 2
ROOT = Path(__file__).resolve().parents[1]
OUT_DIR = ROOT / "build" / "bench"
GCLOGS = Path("/work/shared/gclogs")
MB = 1_000_000  # decimal megabytes, as in the MB/s of the report
DEFAULT_SIZE_MB = 520
WRITE_BUFFER = 16 << 20


@dataclass(frozen=True)
class LogSpec:
    """One benchmark input: the real log it repeats and the stamp grammar of that log."""

    name: str
    source: Path
    grammar: str  # "unified" (-Xlog decorators, GC(N) ids), "legacy" (JDK 8 dates, uptimes) or "openj9" (XML)
    description: str


SPECS: dict[str, LogSpec] = {
    "g1": LogSpec(
        "g1",
        GCLOGS / "generated/jdk25-g1-gcstar.log",
        "unified",
        "JDK 25 G1, -Xlog:gc*, decorators uptime,level,tags (young, mixed, remark, cleanup, full, mark)",
    ),
    "cms": LogSpec(
        "cms",
        GCLOGS / "gctoolkit-testdata/gctoolkit-gclogs/preunified/cms/parnew/details/tenuring/gc.log",
        "legacy",
        "JDK 8 ParNew+CMS, PrintGCDetails PrintGCDateStamps PrintGCTimeStamps PrintTenuringDistribution",
    ),
    # Not in the default run: the other unified decorator style (wall clock, uptimemillis, pid, tid) and
    # -Xlog:safepoint lines.
    "g1-utctime": LogSpec(
        "g1-utctime",
        GCLOGS / "generated/jdk17-g1-gcstar-safepoint-utctime-pid-tid.log",
        "unified",
        "JDK 17 G1, -Xlog:gc*,safepoint, decorators time,utctime,uptimemillis,pid,tid,level,tags",
    ),
    # Not in the default run: the concurrent collectors' unified logs (the issue's per-format table).
    "zgc": LogSpec(
        "zgc",
        GCLOGS / "generated/jdk25-zgc-gcstar.log",
        "unified",
        "JDK 25 generational ZGC, -Xlog:gc*, decorators uptime,level,tags (minor and major collections)",
    ),
    "shenandoah": LogSpec(
        "shenandoah",
        GCLOGS / "generated/jdk25-shenandoah-gcstar.log",
        "unified",
        "JDK 25 Shenandoah, -Xlog:gc*, decorators uptime,level,tags (cycles, their pauses and phases)",
    ),
    # Not in gclog_parse.py's default run: bench/openj9_parse.py runs it beside "g1".
    "openj9-gencon": LogSpec(
        "openj9-gencon",
        ROOT / "tests/gclog/openj9/gencon.xml",
        "openj9",
        "OpenJ9 gencon -verbose:gc XML: the documentation's scavenges and concurrent global cycle",
    ),
}
DEFAULT_LOGS = ("g1", "cms")

# Stamp kinds. Each stamp is the integer part that changes; what follows it (".588+0000: ", ".274s]")
# stays in the literal pieces.
UPTIME_S, UPTIME_MS, UPTIME_NS, DATE, GC_ID = range(5)

_DECORATION = re.compile(rb"\[([^\]]*)\]")
_DECO_DATE = re.compile(rb"(\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d)\.\d{3}[+-]\d{4}")
_DECO_SECONDS = re.compile(rb"(\d+)\.\d+s")
_DECO_MILLIS = re.compile(rb"(\d+)ms")
_DECO_NANOS = re.compile(rb"(\d+)ns")
_GC_ID = re.compile(rb"GC\((\d+)\)")
# JDK 8: "2014-03-04T06:08:56.588+0000: 2.573: " (date and uptime), or an uptime alone before "[".
_LEGACY_STAMP = re.compile(
    rb"(\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d)\.\d{3}[+-]\d{4}: (?:(\d+)\.\d{3}: )?|(?<![\d.])(\d+)\.\d{3}: (?=\[)"
)


# OpenJ9: timestamp="2020-10-18T13:35:44.594" (no zone), and the event ids that link cycles and increments.
_J9_DATE = re.compile(rb'timestamp="(\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d)\.\d{3}"')
_J9_ID = re.compile(rb'(?<![\w-])(?:id|contextid)="([1-9]\d*)"')


@dataclass(frozen=True)
class Stamped:
    """Text cut at its stamps: pieces[0] stamp[0] pieces[1] ... stamp[n-1] pieces[n]."""

    pieces: tuple[str, ...]  # latin-1 decoded: every byte round-trips
    kinds: np.ndarray  # int8, one of the stamp kinds
    values: np.ndarray  # int64: seconds, ms, ns, epoch seconds (dates) or GC id


@dataclass(frozen=True)
class Template:
    header: Stamped
    body: Stamped
    trailer: Stamped
    period_s: int  # shift of one copy, whole seconds, longer than the body's time span
    id_step: int  # shift of the GC ids of one copy
    body_bytes: int


@dataclass(frozen=True)
class Manifest:
    """What a generated log is; saved as <log>.json next to it."""

    format_version: int
    generator_version: int
    name: str
    description: str
    path: str
    source: str
    source_sha256: str
    target_bytes: int
    size_bytes: int
    copies: int
    period_s: int
    id_step: int
    stamps_per_copy: int
    build_seconds: float


def _cut(text: bytes, stamps: list[tuple[int, int, int, int]]) -> Stamped:
    """stamps: (start, end, kind, value), in order."""
    pieces, last = [], 0
    for start, end, _, _ in stamps:
        pieces.append(text[last:start].decode("latin-1"))
        last = end
    pieces.append(text[last:].decode("latin-1"))
    kinds = np.array([s[2] for s in stamps], dtype=np.int8)
    values = np.array([s[3] for s in stamps], dtype=np.int64)
    return Stamped(tuple(pieces), kinds, values)


def _epoch_s(date: bytes) -> int:
    """Seconds of a decorator's calendar part, read as UTC (the zone suffix is kept as written)."""
    return calendar.timegm(time.strptime(date.decode(), "%Y-%m-%dT%H:%M:%S"))


def _unified_stamps(line: bytes, at: int) -> list[tuple[int, int, int, int]]:
    out, pos = [], 0
    while (m := _DECORATION.match(line, pos)) is not None:
        inner, start = m.group(1), m.start(1)
        for pattern, kind in ((_DECO_DATE, DATE), (_DECO_SECONDS, UPTIME_S)):
            d = pattern.fullmatch(inner)
            if d:
                out.append((at + start, at + start + d.end(1), kind, _stamp_value(kind, d.group(1))))
                break
        else:
            for pattern, kind in ((_DECO_MILLIS, UPTIME_MS), (_DECO_NANOS, UPTIME_NS)):
                d = pattern.fullmatch(inner)
                if d:
                    out.append((at + start, at + start + d.end(1), kind, int(d.group(1))))
        pos = m.end()
    for m in _GC_ID.finditer(line, pos):
        out.append((at + m.start(1), at + m.end(1), GC_ID, int(m.group(1))))
    return out


def _stamp_value(kind: int, digits: bytes) -> int:
    return _epoch_s(digits) if kind == DATE else int(digits)


def _legacy_stamps(line: bytes, at: int) -> list[tuple[int, int, int, int]]:
    out = []
    for m in _LEGACY_STAMP.finditer(line):
        for group, kind in ((1, DATE), (2, UPTIME_S), (3, UPTIME_S)):
            if m.group(group) is not None:
                value = _stamp_value(kind, m.group(group))
                out.append((at + m.start(group), at + m.end(group), kind, value))
    return out


def _openj9_stamps(line: bytes, at: int) -> list[tuple[int, int, int, int]]:
    out = [(at + m.start(1), at + m.end(1), DATE, _epoch_s(m.group(1))) for m in _J9_DATE.finditer(line)]
    out += [(at + m.start(1), at + m.end(1), GC_ID, int(m.group(1))) for m in _J9_ID.finditer(line)]
    return sorted(out)


def _uptime_s(kind: int, value: int) -> float | None:
    return {UPTIME_S: value, UPTIME_MS: value / 1e3, UPTIME_NS: value / 1e9}.get(kind)


def load_template(spec: LogSpec) -> Template:
    """Finds the stamps of the source log once and cuts it into header, body and trailer."""
    text = spec.source.read_bytes()
    if not text.endswith(b"\n"):
        text += b"\n"
    lines = text.splitlines(keepends=True)
    is_gc = {
        "unified": lambda ln: b"GC(" in ln,
        "openj9": lambda ln: ln.lstrip().startswith((b"<exclusive-start", b"<exclusive-end")),
    }.get(spec.grammar, lambda ln: bool(ln.strip()))
    gc_lines = [i for i, ln in enumerate(lines) if is_gc(ln)]
    if not gc_lines:
        raise ValueError(f"{spec.source}: no GC lines to repeat")
    first, last = gc_lines[0], gc_lines[-1] + 1
    parts = [b"".join(lines[:first]), b"".join(lines[first:last]), b"".join(lines[last:])]
    find = {"unified": _unified_stamps, "openj9": _openj9_stamps}.get(spec.grammar, _legacy_stamps)
    cut = [_cut(p, _stamps_of(p, find)) for p in parts]
    if spec.grammar == "openj9":
        cut[1] = _compact_ids(cut[1])
    body = cut[1]
    pairs = zip(body.kinds.tolist(), body.values.tolist(), strict=True)
    seconds = [t for t in (_uptime_s(k, v) for k, v in pairs) if t is not None]
    dates = body.values[body.kinds == DATE]
    span = max(
        max(seconds) - min(seconds) if seconds else 0, int(dates.max() - dates.min()) if dates.size else 0
    )
    ids = body.values[body.kinds == GC_ID]
    id_step = int(ids.max() - ids.min() + 1) if ids.size else 0
    return Template(cut[0], body, cut[2], int(math.ceil(span)) + 2, id_step, len(parts[1]))


def _compact_ids(part: Stamped) -> Stamped:
    """OpenJ9 ids numbered 1, 2, 3... in their order (excerpts of one run jump, from 13 to 12362): a copy
    then takes as many ids as a real log's cycles do. `contextid` values follow their cycle's `id`."""
    mask = part.kinds == GC_ID
    ids = part.values[mask]
    if not ids.size:
        return part
    distinct = np.unique(ids)
    values = part.values.copy()
    values[mask] = np.searchsorted(distinct, ids) + distinct.min()
    return Stamped(part.pieces, part.kinds, values)


def _stamps_of(text: bytes, find: Callable[[bytes, int], list]) -> list[tuple[int, int, int, int]]:
    out: list[tuple[int, int, int, int]] = []
    at = 0
    for line in text.splitlines(keepends=True):
        out.extend(find(line, at))
        at += len(line)
    return out


class _DateCache(dict[int, str]):
    """Epoch second -> 'YYYY-MM-DDTHH:MM:SS'; stamps of one copy share few distinct seconds."""

    def __missing__(self, key: int) -> str:
        value = time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(key))
        if len(self) > 1_000_000:
            self.clear()
        self[key] = value
        return value


def render(part: Stamped, shift_s: int, shift_id: int, dates: _DateCache) -> bytes:
    """The part with every stamp shifted by shift_s seconds and every GC id by shift_id."""
    n = len(part.kinds)
    out = np.empty(2 * n + 1, dtype=object)
    out[0::2] = part.pieces
    if n:
        strings = np.empty(n, dtype=object)
        shifts = {UPTIME_S: shift_s, UPTIME_MS: shift_s * 1000, UPTIME_NS: shift_s * 10**9, GC_ID: shift_id}
        for kind, shift in shifts.items():
            mask = part.kinds == kind
            if mask.any():
                strings[mask] = list(map(str, (part.values[mask] + shift).tolist()))
        mask = part.kinds == DATE
        if mask.any():
            strings[mask] = list(map(dates.__getitem__, (part.values[mask] + shift_s).tolist()))
        out[1::2] = strings
    return "".join(out.tolist()).encode("latin-1")


def write_log(template: Template, path: Path, target_bytes: int) -> int:
    """Writes header + body copies + trailer until the file has at least target_bytes; returns copies."""
    dates = _DateCache()
    tmp = path.with_name(path.name + ".tmp")
    with open(tmp, "wb", buffering=WRITE_BUFFER) as f:
        size = f.write(render(template.header, 0, 0, dates))
        trailer_bytes = len(render(template.trailer, 0, 0, dates))
        copies = 0
        while copies == 0 or size + trailer_bytes < target_bytes:
            chunk = render(template.body, copies * template.period_s, copies * template.id_step, dates)
            size += f.write(chunk)
            copies += 1
        last = copies - 1
        f.write(render(template.trailer, last * template.period_s, last * template.id_step, dates))
    os.replace(tmp, path)
    return copies


def _sha256(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def log_path(name: str, size_mb: float, out_dir: Path = OUT_DIR) -> Path:
    return out_dir / f"{name}-{size_mb:g}MB.log"


def _manifest_path(path: Path) -> Path:
    return path.with_suffix(".json")


def read_manifest(path: Path) -> Manifest | None:
    try:
        return Manifest(**json.loads(_manifest_path(path).read_text()))
    except (OSError, ValueError, TypeError):
        return None


def _is_current(path: Path, target_bytes: int, source_sha: str) -> Manifest | None:
    m = read_manifest(path)
    if m is None or not path.exists():
        return None
    same = (m.generator_version, m.source_sha256, m.target_bytes) == (
        GENERATOR_VERSION,
        source_sha,
        target_bytes,
    )
    return m if same and path.stat().st_size == m.size_bytes else None


def ensure_gzip(path: Path) -> Path:
    """`path` gzipped (level 6, gzip's default) beside it, made again whenever the log is newer."""
    gz = path.with_name(path.name + ".gz")
    if gz.exists() and gz.stat().st_mtime >= path.stat().st_mtime:
        return gz
    tmp = gz.with_name(gz.name + ".tmp")
    with open(path, "rb") as src, gzip.open(tmp, "wb", compresslevel=6) as dst:
        while block := src.read(1 << 20):
            dst.write(block)
    tmp.replace(gz)
    return gz


def ensure(name: str, size_mb: float = DEFAULT_SIZE_MB, out_dir: Path = OUT_DIR) -> Manifest:
    """The generated log `name` of at least size_mb MB, built unless an identical one is already there."""
    spec = SPECS[name]
    path = log_path(name, size_mb, out_dir)
    target = int(size_mb * MB)
    source_sha = _sha256(spec.source)
    current = _is_current(path, target, source_sha)
    if current is not None:
        return current
    out_dir.mkdir(parents=True, exist_ok=True)
    t0 = time.perf_counter()
    template = load_template(spec)
    copies = write_log(template, path, target)
    manifest = Manifest(
        format_version=1,
        generator_version=GENERATOR_VERSION,
        name=name,
        description=spec.description,
        path=str(path),
        source=str(spec.source),
        source_sha256=source_sha,
        target_bytes=target,
        size_bytes=path.stat().st_size,
        copies=copies,
        period_s=template.period_s,
        id_step=template.id_step,
        stamps_per_copy=len(template.body.kinds),
        build_seconds=round(time.perf_counter() - t0, 3),
    )
    _manifest_path(path).write_text(json.dumps(asdict(manifest), indent=2) + "\n")
    return manifest


@dataclass(frozen=True)
class Check:
    """Events of a generated log against copies x events of one copy of its body."""

    events: int
    expected_events: int
    lines_unknown: int
    time_backwards: int
    parse_seconds: float

    @property
    def ok(self) -> bool:
        return self.events == self.expected_events and self.time_backwards == 0


def _native_counts(path: Path) -> tuple[int, int, int]:
    from jvmlab import _native

    raw = _native.parse_logs([(str(path), None)])
    diag = raw["diagnostics"]
    return len(raw["columns"]["uptime_s"]), diag["lines_unknown"], diag["time_backwards"]


def verify(manifest: Manifest) -> Check:
    """Parses the log with jvmlab's native parser. Expected events = e1 + (copies - 1) x (e2 - e1), where
    e1 and e2 are the events of the same log built with one and with two copies of the body."""
    spec, template = SPECS[manifest.name], load_template(SPECS[manifest.name])
    small = Path(manifest.path).with_name(f".{spec.name}-copies.log")
    per_copy = []
    for target in (1, template.body_bytes * 2):  # 1 byte: one copy; body x 2: two copies
        write_log(template, small, target)
        per_copy.append(_native_counts(small)[0])
    small.unlink()
    t0 = time.perf_counter()
    events, unknown, backwards = _native_counts(Path(manifest.path))
    seconds = time.perf_counter() - t0
    expected = per_copy[0] + (manifest.copies - 1) * (per_copy[1] - per_copy[0])
    return Check(events, expected, unknown, backwards, round(seconds, 3))


def main(argv: Sequence[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--logs", default=",".join(DEFAULT_LOGS), help=f"comma-separated, of: {', '.join(SPECS)}")
    p.add_argument(
        "--size-mb", type=float, default=DEFAULT_SIZE_MB, help="minimum size of each log (1 MB = 1e6 B)"
    )
    p.add_argument("--out-dir", type=Path, default=OUT_DIR)
    p.add_argument("--verify", action="store_true", help="parse each log and compare its event count")
    args = p.parse_args(argv)
    names = [n.strip() for n in args.logs.split(",") if n.strip()]
    unknown = [n for n in names if n not in SPECS]
    if unknown:
        print(f"error: unknown log {unknown[0]!r} in --logs; choose from {', '.join(SPECS)}", file=sys.stderr)
        return 2
    for name in names:
        m = ensure(name, args.size_mb, args.out_dir)
        print(f"{m.path}: {m.size_bytes / MB:.1f} MB, {m.copies} copies, built in {m.build_seconds} s")
        if args.verify:
            c = verify(m)
            status = "ok" if c.ok else "MISMATCH"
            print(
                f"  {status}: {c.events} events (expected {c.expected_events}), {c.lines_unknown} unknown "
                f"lines, {c.time_backwards} time jumps back, parsed in {c.parse_seconds} s"
            )
    return 0


if __name__ == "__main__":
    sys.exit(main())
