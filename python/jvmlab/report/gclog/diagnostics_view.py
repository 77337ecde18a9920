"""What the parser saw, as lines for a person: counts of lines, unknown samples, time going backwards, and
warnings that name the cause and the next step."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from jvmlab.report.units import plural

SAMPLE_CHARS = 160


def _clip(line: str) -> str:
    line = line.rstrip("\n")
    return line if len(line) <= SAMPLE_CHARS else line[: SAMPLE_CHARS - 1] + "…"


def lines_line(d: Mapping[str, Any]) -> str:
    damaged = f" · {d['lines_damaged']:,} damaged" if d.get("lines_damaged") else ""
    return (
        f"lines: {d.get('lines_total', 0):,} total · {d.get('lines_matched', 0):,} matched · "
        f"{d.get('lines_ignored', 0):,} ignored · {d.get('lines_unknown', 0):,} unknown{damaged}"
    )


def _damaged_places(d: Mapping[str, Any]) -> str:
    shown = list(d.get("damaged_at", []))[:5]
    rest = d.get("lines_damaged", 0) - len(shown)
    return ", ".join(shown) + (f" and {rest:,} more" if rest > 0 else "")


def diagnostics_lines(d: Mapping[str, Any]) -> list[str]:
    """The lines count, then samples of unknown lines and of time going backwards, then parser warnings."""
    out = [lines_line(d)]
    if d.get("lines_unknown"):
        out.append(f"unknown lines ({d.get('lines_unknown_gc', 0):,} look like GC data), e.g.:")
        out += [f"  {_clip(s)}" for s in d.get("unknown_samples", [])]
    if d.get("time_backwards"):
        out.append(f"time goes backwards {plural(d['time_backwards'], 'time')}, e.g.:")
        out += [f"  {_clip(s)}" for s in d.get("time_backwards_samples", [])]
    out += [f"parser: {w}" for w in d.get("warnings", [])]
    return out


def quality_warnings(d: Mapping[str, Any]) -> list[str]:
    """Warnings about the trust one can put in the figures, each with what to do."""
    out = []
    unknown, unknown_gc = d.get("lines_unknown", 0), d.get("lines_unknown_gc", 0)
    if d.get("unread_collections"):
        out.append(
            f"no collection was read from a log that holds {d['unread_collections']:,} collection elements: "
            "every figure from it is missing; report the log (--strict makes this an error)"
        )
    if unknown_gc:
        out.append(
            f"{unknown_gc:,} of {unknown:,} unknown lines look like GC data: the figures may miss events; "
            "report the samples, or use --strict to make unknown lines an error"
        )
    if d.get("time_backwards"):
        out.append(
            "time stamps go backwards: several runs written to one file, or files given out of order; "
            "give one run per log (rotated files as one set)"
        )
    if d.get("truncated"):
        out.append("the log ends in the middle of an event (truncated): the last event is incomplete")
    if d.get("lines_damaged"):
        out.append(
            f"{d['lines_damaged']:,} damaged lines (NUL bytes or binary data, as a crash leaves in a file) "
            f"at {_damaged_places(d)}: skipped; every intact event around them is kept"
        )
    return out
