"""Inputs as the user names them -> ordered sources for the native parser.

An input is a file (plain or gzip), a zip archive, or a directory. Files of one rotated set (JDK 8
`gc.log.0 ... gc.log.N.current`, JDK 9+ `gc.log, gc.log.0, ...`, OpenJ9 `-Xverbosegclog:gc%seq.log,X,Y`
`gc001.log ... gc00X.log` or, without `%seq` in the name, `gc.log.001 ...`) form one log, ordered by the
time of their first line (rotation wraps around, so names alone do not give the order).
"""

from __future__ import annotations

import gzip
import re
import zipfile
from dataclasses import dataclass
from pathlib import Path

from jvmlab.errors import InputError

_ROTATION = re.compile(r"^(?P<base>.+?)(?:\.(?P<index>\d+))?(?P<current>\.current)?$")
# OpenJ9's %seq (or #) inside the name: a number of 3 or more digits (001, 002, ...), the last in the name.
_SEQUENCE = re.compile(r"^(?P<before>.*?)(?P<seq>\d{3,})(?P<after>\D+)$")
_UPTIME = re.compile(rb"^\[(?:[^\]]*\]\[)*?(\d+(?:[.,]\d+)?)(s|ms)\]|^(?:\S+: )?(\d+\.\d+): \[", re.M)
_DATE = re.compile(rb"(\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d[.,]\d{3})")


@dataclass(frozen=True)
class Source:
    """One stream of log text: a file, or an entry of a zip archive."""

    path: str
    entry: str | None = None

    @property
    def name(self) -> str:
        return self.entry or self.path

    def __str__(self) -> str:
        return f"{self.path}!{self.entry}" if self.entry else self.path


def _strip_compression(name: str) -> str:
    return name[:-3] if name.endswith(".gz") else name


def rotation_key(name: str, *, openj9: bool = False) -> tuple[str, int, bool]:
    """(base name, index, is current) of a rotated file name. `openj9`: the file is OpenJ9 verbose GC, whose
    sequence number may sit inside the name (`gc001.log`)."""
    plain = _strip_compression(Path(name).name)
    seq = _SEQUENCE.match(plain) if openj9 else None
    if seq is not None:
        return seq["before"] + "%seq" + seq["after"], int(seq["seq"]), False
    m = _ROTATION.match(plain)
    assert m is not None
    index = int(m["index"]) if m["index"] is not None else -1
    return m["base"], index, m["current"] is not None


def read_head(src: Source, n: int = 65536) -> bytes:
    """The first `n` bytes of a source, decompressed."""
    if src.entry is not None:
        with zipfile.ZipFile(src.path) as zf, zf.open(src.entry) as f:
            data = f.read(n)
    else:
        with open(src.path, "rb") as f:
            data = f.read(n)
    if data[:2] == b"\x1f\x8b":
        try:
            with gzip.open(src.path if src.entry is None else _zip_member(src), "rb") as g:
                data = g.read(n)
        except (OSError, EOFError) as e:
            raise InputError(src.path, f"corrupted gzip data ({e})") from None
    return data


def _zip_member(src: Source):  # a file object for gzip inside zip
    zf = zipfile.ZipFile(src.path)
    assert src.entry is not None
    return zf.open(src.entry)


def first_time(head: bytes) -> float | None:
    """Uptime (or, failing that, wall-clock seconds) of the first time-stamped line."""
    m = _UPTIME.search(head)
    if m:
        if m.group(1):
            v = float(m.group(1).replace(b",", b"."))
            return v / 1000 if m.group(2) == b"ms" else v
        return float(m.group(3))
    d = _DATE.search(head)
    if d:
        from datetime import datetime

        return datetime.fromisoformat(d.group(1).decode().replace(",", ".")).timestamp()
    return None


# Elements only an OpenJ9 / IBM J9 verbose GC log holds (a file of a rotated set, or output captured from
# stderr, may lack the <verbosegc> wrapper, and a rotated or trimmed file may start inside an element: its
# first tags are then end tags and the ends of windows).
_OPENJ9_TAGS = re.compile(
    rb"</?(?:verbosegc|initialized|exclusive-(?:start|end)|af-(?:start|end)|sys-(?:start|end)"
    rb"|cycle-(?:start|end|continue)|gc-(?:start|end|op)|mem-info|allocation-stats|concurrent-[a-z-]+)[\s>/]"
    rb"|<(?:af type|sys id|con event|gc type)="
    rb"|</(?:af|sys|con|gc)>|<(?:nursery|tenured|soa|loa) freebytes=|<time (?:totalms|exclusiveaccessms)="
    rb"|<(?:refs|refs_cleared) soft=|<timesms mark=|<minimum requested_bytes=|<finalization objectsqueued="
)


def is_openj9(head: bytes) -> bool:
    """Whether the start of a file is OpenJ9 / IBM J9 verbose GC XML."""
    return _OPENJ9_TAGS.search(head) is not None


def _expand(arg: str) -> list[Source]:
    p = Path(arg)
    if not p.exists():
        raise InputError(arg, "no such file")
    if p.is_dir():
        files = sorted(f for f in p.iterdir() if f.is_file() and not f.name.startswith("."))
        if not files:
            raise InputError(arg, "directory has no files")
        return [s for f in files for s in _expand(str(f))]
    if zipfile.is_zipfile(p):
        with zipfile.ZipFile(p) as zf:
            names = [i.filename for i in zf.infolist() if not i.is_dir() and not _is_junk(i.filename)]
        if not names:
            raise InputError(arg, "zip archive has no files")
        return [Source(str(p), n) for n in names]
    return [Source(str(p))]


def _is_junk(name: str) -> bool:
    return "__MACOSX/" in name or Path(name).name.startswith(".")


def _numbered_openj9(src: Source) -> bool:
    """Whether a file whose name holds a sequence number (`gc001.log`) is OpenJ9 verbose GC."""
    if _SEQUENCE.match(_strip_compression(Path(src.name).name)) is None:
        return False
    try:
        return is_openj9(read_head(src, 4096))
    except (OSError, InputError):
        return False


def order_rotated(sources: list[Source]) -> list[Source]:
    """Orders the files of one rotated set by the time of their first line, then by index."""
    if len(sources) < 2:
        return sources

    def key(s: Source) -> tuple[float, int]:
        _, index, current = rotation_key(s.name, openj9=_numbered_openj9(s))
        t = first_time(read_head(s))
        # JDK 8 writes gc.log.N.current last; JDK 9+ writes the unnumbered file last.
        fallback = 1_000_000 if current or index < 0 else index
        return (t if t is not None else float("inf"), fallback)

    return sorted(sources, key=key)


def resolve(args: list[str]) -> list[list[Source]]:
    """Groups the inputs into logs: each argument is a log, except that files of one rotated set are one
    log whether they come as several arguments, a directory or a zip archive."""
    groups: dict[tuple[str, str], list[Source]] = {}
    for arg in args:
        for src in _expand(arg):
            container = (
                str(Path(src.path).parent)
                if src.entry is None
                else src.path + "!" + str(Path(src.entry).parent)
            )
            base, _, _ = rotation_key(src.name, openj9=_numbered_openj9(src))
            groups.setdefault((container, base), []).append(src)
    return [order_rotated(g) for g in groups.values()]
