"""Turning command-line arguments into GC logs: plain paths, or `label=path` for comparisons."""

from __future__ import annotations

from pathlib import Path

from jvmlab.errors import UsageError
from jvmlab.metrics.summary import GcSummary, summarize_each


def split_label(arg: str) -> tuple[str | None, str]:
    """`label=path` -> (label, path); an existing path that contains "=" stays a path."""
    if "=" in arg and not Path(arg).exists():
        label, path = arg.split("=", 1)
        if label and path:
            return label, path
    return None, arg


def default_labels(paths: list[str]) -> list[str]:
    """File names, or the paths as given when two file names are the same."""
    names = [Path(p).name or p for p in paths]
    return names if len(set(names)) == len(names) else list(paths)


def labelled(args: list[str]) -> tuple[list[str], list[str]]:
    """(labels, paths) of `label=path` or `path` arguments; labels must be distinct."""
    pairs = [split_label(a) for a in args]
    paths = [p for _, p in pairs]
    defaults = default_labels(paths)
    labels = [label or default for (label, _), default in zip(pairs, defaults, strict=True)]
    seen = {label for label in labels if labels.count(label) > 1}
    if seen:
        raise UsageError(f"label {sorted(seen)[0]!r} names two inputs: give each input its own label=path")
    return labels, paths


def summarize_labelled(
    args: list[str], *, strict: bool, threads: int | None = None
) -> tuple[list[str], list[GcSummary]]:
    """(labels, summaries): one log per argument (a file, a directory, a zip archive or a rotated set),
    summarized while parsing, `threads` logs at once (default: one per core)."""
    labels, paths = labelled(args)
    return labels, summarize_each(paths, strict=strict, threads=threads)
