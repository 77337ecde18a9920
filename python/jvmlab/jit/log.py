"""`CompileLog`: the events and inlining tables of one compilation log (one file or several read as one)."""

from __future__ import annotations

import gzip
import re
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import polars as pl

from jvmlab import _native
from jvmlab.errors import InputError, os_error_reason

HEAD_BYTES = 65536
# Starts of binary files: ELF, PDF, PNG, JPEG, class files, xz, bzip2, 7z, zip
BINARY_MAGIC = (
    b"\x7fELF",
    b"%PDF",
    b"\x89PNG",
    b"\xff\xd8\xff",
    b"\xca\xfe\xba\xbe",
    b"\xfd7zXZ",
    b"BZh",
    b"PK\x03\x04",
)
EXPECTED = "expected -XX:+PrintCompilation output, -Xlog:jit+compilation or -XX:+LogCompilation XML"
_NULL_I64 = np.iinfo(np.int64).min

# Categorical columns of each table -> the category list their codes index.
EVENT_CATEGORIES = {
    "kind": "kind",
    "compiler": "compiler",
    "method": "method",
    "signature": "signature",
    "flags": "flags",
    "reason": "reason",
    "action": "action",
}
INLINING_CATEGORIES = {"caller": "method", "callee": "method", "reason": "reason"}
CODE_HEAP_CATEGORIES = {"heap": "heap"}


@dataclass(frozen=True)
class CompileLog:
    """A parsed compilation log. The tables' columns are documented in docs/jit.md."""

    paths: tuple[str, ...]
    events: pl.DataFrame
    inlining: pl.DataFrame
    diagnostics: dict[str, Any]
    format: dict[str, Any]
    code_heaps: pl.DataFrame  # the code heap reports the JVM printed (PrintCodeCacheOnCompilation, ...)

    @property
    def compilations_logged(self) -> bool:
        """False when the JVM's own command line (the XML header of LogCompilation or LogVMOutput) shows it
        printed no compilations: JDK 8's jit.log of `[telemetry] jit = "summary"` holds only code cache
        reports, and its zero compilations are no measurement."""
        args = self.format.get("header", {}).get("vm_arguments")
        return args is None or any(f in args for f in ("+PrintCompilation", "+LogCompilation", "-Xlog:jit"))

    @property
    def name(self) -> str:
        return self.paths[0] if len(self.paths) == 1 else f"{self.paths[0]} (+{len(self.paths) - 1} more)"


def _head(path: str) -> bytes:
    """The first bytes of `path` (decompressed when it is gzip); unreadable files are an InputError."""
    try:
        with open(path, "rb") as f:
            head = f.read(HEAD_BYTES)
        if head[:2] == b"\x1f\x8b":
            with gzip.open(path, "rb") as g:
                head = g.read(HEAD_BYTES)
    except OSError as e:
        raise InputError(path, f"cannot be read: {os_error_reason(e)}") from None
    return head


def _check_text(path: str) -> None:
    """Raises InputError when `path` is plainly not a text log: empty, binary."""
    head = _head(path)
    if not head.strip():
        raise InputError(path, "file is empty, not a compilation log")
    sample = head[:8192]
    control = sum(1 for b in sample if b < 9 or 13 < b < 32 and b != 27 or b == 127)
    not_utf8 = sample.decode("utf-8", errors="replace").count("\ufffd")
    if head.startswith(BINARY_MAGIC) or (control + not_utf8) > 0.3 * len(sample):
        raise InputError(path, f"binary file, not a compilation log ({EXPECTED})")
    other = _other_jvm(sample)
    if other:
        raise InputError(path, f"{other}, not a HotSpot compilation log ({EXPECTED})")


# OpenJ9's JIT verbose log (-Xjit:verbose): `+ (warm) java/lang/String.hashCode()I @ 0x...` per compilation.
_OPENJ9_JIT = re.compile(rb"^\+ \((?:cold|warm|hot|very-hot|scorching|profiled [a-z-]+|AOT [a-z-]+)\) ", re.M)


def _other_jvm(head: bytes) -> str | None:
    """What another JVM's log (or another kind of XML) is, from its first bytes; None when it may be ours."""
    text = head.lstrip()
    if text.startswith(b"<?xml") or text.startswith(b"<"):
        if b"<hotspot_log" in head:
            return None
        if b"<verbosegc" in head or b"<initialized" in head or b"<af type=" in head:
            return "an OpenJ9 / IBM J9 verbose GC log (jvmlab gc reads it)"
        return "XML without <hotspot_log> (LogCompilation's root)"
    if _OPENJ9_JIT.search(head) or b"#INFO:       JIT Level" in head:
        return "an OpenJ9 JIT verbose log (-Xjit:verbose), which jvmlab does not read"
    return None


def _categorical(codes: np.ndarray, values: list[str]) -> pl.Series:
    """Code 0 is null; code k is values[k - 1] (no string built per row)."""
    lookup = pl.Series([None, *values], dtype=pl.String).cast(pl.Categorical)
    return lookup.gather(pl.Series(codes, dtype=pl.UInt32))


def _column(name: str, arr: np.ndarray) -> pl.Series:
    if arr.dtype == np.float64:
        return pl.Series(name, arr, nan_to_null=True)
    series = pl.Series(name, arr)
    if arr.dtype == np.int64:
        nulls = arr == _NULL_I64
        if nulls.any():
            series = series.set(pl.Series(nulls), None)
    return series


def to_frame(
    cols: dict[str, np.ndarray], categorical: dict[str, str], cats: dict[str, list[str]]
) -> pl.DataFrame:
    """A polars table from the native columns (categorical codes, NaN and int64-min as nulls)."""
    series = [
        _categorical(arr, cats[categorical[name]]).alias(name) if name in categorical else _column(name, arr)
        for name, arr in cols.items()
    ]
    return pl.DataFrame(series)


def _paths(paths: str | Path | Iterable[str | Path]) -> list[str]:
    return [str(paths)] if isinstance(paths, str | Path) else [str(p) for p in paths]


def load_compile_log(paths: str | Path | Iterable[str | Path]) -> CompileLog:
    """Parses one compilation log (one file, or several read as one in the order given; `.gz` too).

    Each file's format is detected on its own. A file that is not a compilation log (empty, binary, a GC
    log, unreadable) raises InputError naming it. Events are ordered by file, then time."""
    names = _paths(paths)
    if not names:
        raise InputError("(no file)", f"no compilation log given ({EXPECTED})")
    for p in names:
        _check_text(p)
    try:
        raw = _native.parse_compile_logs(names)
    except OSError as e:
        path, _, problem = str(e).partition(": ")
        raise InputError(path, problem or "cannot be read") from None
    for path, fmt in zip(names, raw["format"]["formats"], strict=True):
        if fmt == "unknown":
            raise InputError(path, f"no compilation log lines found ({EXPECTED})")
    cats = raw["categories"]
    events = to_frame(raw["events"], EVENT_CATEGORIES, cats).sort(
        ["source", "uptime_s"], nulls_last=True, maintain_order=True
    )
    inlining = to_frame(raw["inlining"], INLINING_CATEGORIES, cats)
    code_heaps = to_frame(raw["code_heaps"], CODE_HEAP_CATEGORIES, cats)
    return CompileLog(tuple(names), events, inlining, raw["diagnostics"], raw["format"], code_heaps)
