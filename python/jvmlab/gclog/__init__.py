"""GC logs: sources (rotated, gz, zip), format detection and the native parser -> event table. The
figures made from it are jvmlab.metrics' (`metrics.summarize(log)`, `metrics.summarize_path(path)`)."""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path

from jvmlab.gclog.log import GcLog, parse
from jvmlab.gclog.sources import Source, resolve

__all__ = ["GcLog", "Source", "load", "load_many", "one_log"]


def load_many(paths: Iterable[str | Path], *, strict: bool = False) -> list[GcLog]:
    """One GcLog per input; files of one rotated set make one log."""
    return [parse(group, strict=strict) for group in resolve([str(p) for p in paths])]


def one_log(path_or_paths: str | Path | Iterable[str | Path]) -> list[Source]:
    """The sources of one log: a file (plain, .gz), a zip archive, a directory or the files of a rotated set.
    Several unrelated files given as one log are read in the order given."""
    paths = [path_or_paths] if isinstance(path_or_paths, str | Path) else list(path_or_paths)
    groups = resolve([str(p) for p in paths])
    return groups[0] if len(groups) == 1 else [s for g in groups for s in g]


def load(path_or_paths: str | Path | Iterable[str | Path], *, strict: bool = False) -> GcLog:
    """Loads one GC log (see `one_log`) into its event table."""
    return parse(one_log(path_or_paths), strict=strict)
