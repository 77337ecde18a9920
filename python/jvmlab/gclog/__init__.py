"""GC logs: sources (rotated, gz, zip), format detection and the native parser -> event table."""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path

from jvmlab.gclog.log import GcLog, parse
from jvmlab.gclog.sources import Source, resolve

__all__ = ["GcLog", "Source", "load", "load_many"]


def load_many(paths: Iterable[str | Path], *, strict: bool = False) -> list[GcLog]:
    """One GcLog per input; files of one rotated set make one log."""
    return [parse(group, strict=strict) for group in resolve([str(p) for p in paths])]


def load(path_or_paths: str | Path | Iterable[str | Path], *, strict: bool = False) -> GcLog:
    """Loads one GC log: a file (plain, .gz), a zip archive, a directory or the files of a rotated set."""
    paths = [path_or_paths] if isinstance(path_or_paths, str | Path) else list(path_or_paths)
    groups = resolve([str(p) for p in paths])
    if len(groups) == 1:
        return parse(groups[0], strict=strict)
    # Several unrelated files given as one log: parse them in the order given.
    return parse([s for g in groups for s in g], strict=strict)
