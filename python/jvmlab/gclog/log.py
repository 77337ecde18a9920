"""`GcLog`: the event table of one log (one file or a rotated set), its diagnostics and format."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, TypeVar

from jvmlab import _native
from jvmlab.errors import InputError, StrictModeError
from jvmlab.gclog import sniff
from jvmlab.gclog.sources import Source

if TYPE_CHECKING:
    import polars as pl


@dataclass(frozen=True)
class GcLog:
    """A parsed GC log. `events` is documented in docs/event-table.md."""

    sources: tuple[Source, ...]
    events: pl.DataFrame
    diagnostics: dict[str, Any]
    format: dict[str, Any]
    label: str = ""
    extra: dict[str, Any] = field(default_factory=dict)

    @property
    def name(self) -> str:
        return self.label or str(self.sources[0])


NativeCall = Callable[[list[tuple[str, str | None]]], dict[str, Any]]


def _native_run(sources: list[Source], call: NativeCall) -> dict[str, Any]:
    """Runs a native parse of `sources` (each checked to look like a text log); I/O errors name the file."""
    for src in sources:
        sniff.check(src)
    try:
        raw = call([(s.path, s.entry) for s in sources])
    except OSError as e:
        raise InputError(str(sources[0]), str(e).split(": ", 1)[-1]) from None
    diag = raw["diagnostics"]
    diag["damaged_at"] = [f"{sources[i]}:{line}" for i, line in diag["damaged_at"]]  # file:line
    return raw


def _log_name(sources: list[Source]) -> str:
    return str(sources[0]) if len(sources) == 1 else f"{sources[0]} (+{len(sources) - 1} rotated)"


def _check(name: str, events: int, diag: dict[str, Any], fmt: dict[str, Any], *, strict: bool) -> None:
    """A log without GC lines, or (`strict`) with unknown lines or collection elements none of which was read,
    is an input error."""
    if fmt["generation"] == "unknown" and events == 0:
        raise InputError(
            name,
            "no GC log lines found (expected JDK 9+ -Xlog:gc output, JDK 8 -XX:+PrintGCDetails output or "
            "OpenJ9 -verbose:gc XML)",
        )
    if strict and diag.get("unread_collections"):
        raise StrictModeError(
            f"{name}: no collection read from {diag['unread_collections']} collection elements (--strict): "
            "the parser could not follow this log"
        )
    if strict and diag["lines_unknown"]:
        sample = diag["unknown_samples"][0] if diag["unknown_samples"] else ""
        raise StrictModeError(f"{name}: {diag['lines_unknown']} unknown lines (--strict), first: {sample!r}")
    if strict and diag["lines_damaged"]:
        raise StrictModeError(
            f"{name}: {diag['lines_damaged']} damaged lines (--strict), first at {diag['damaged_at'][0]}"
        )


def parse(sources: list[Source], *, strict: bool = False, label: str = "") -> GcLog:
    """Parses one log (a file or a rotated set) into a GcLog."""
    log, _ = parse_with(sources, lambda raw: None, strict=strict, label=label)
    return log


T = TypeVar("T")


def parse_with(
    sources: list[Source],
    also: Callable[[dict[str, Any]], T],
    *,
    strict: bool = False,
    label: str = "",
    meanwhile: Callable[[], object] | None = None,
) -> tuple[GcLog, T]:
    """Parses one log into a GcLog, and calls `also` on the native result (its columns in the native
    encoding) before they become the event table: a second reader of the same parse (the summary).
    `meanwhile` runs while the parse does (imports of what reads the table next)."""
    from concurrent.futures import ThreadPoolExecutor

    with ThreadPoolExecutor(1) as parser:  # the native parse releases the GIL: polars loads meanwhile
        parsing = parser.submit(_native_run, sources, _native.parse_logs)
        from jvmlab.gclog.frame import to_frame  # polars: only for the event table

        if meanwhile is not None:
            meanwhile()
        raw = parsing.result()
    diag, fmt = raw["diagnostics"], raw["format"]
    name = _log_name(sources)
    _check(name, len(raw["columns"]["uptime_s"]), diag, fmt, strict=strict)
    extra = also(raw)

    return GcLog(tuple(sources), to_frame(raw), diag, fmt, label=label or name), extra


def stream_summary(
    sources: list[Source], *, window: tuple[float, float] | None, strict: bool = False, label: str = ""
) -> tuple[str, dict[str, Any], dict[str, Any], dict[str, Any]]:
    """(name, native summary, diagnostics, format) of one log, summarized while parsing (no event table);
    `window` keeps the rows that start within it."""
    raw = _native_run(sources, lambda s: _native.summarize_logs(s, window))
    diag, fmt = raw["diagnostics"], raw["format"]
    name = _log_name(sources)
    _check(name, raw["events"], diag, fmt, strict=strict)
    return label or name, raw["summary"], diag, fmt
