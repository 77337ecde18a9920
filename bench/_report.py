"""Medians of the runs, the results table, the time breakdown and quality warnings. No I/O but strings."""

from __future__ import annotations

import statistics
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from _measure import Run

MB = 1_000_000
TARGET_MB_S = 400.0
TARGET_RSS_MB = 300.0
JUDGED = ("parse", "stream", "load", "e2e")  # stages compared with the targets
CV_WARN = 0.10
CPU_SHARE_WARN = 0.85


@dataclass(frozen=True)
class Row:
    """Medians over the successful runs of one stage on one log."""

    log: str
    size_bytes: int
    stage: str
    label: str
    runs_ok: int
    runs: int
    median_s: float | None
    min_s: float | None
    max_s: float | None
    cv: float | None  # coefficient of variation of `seconds`: stdev / mean (sample stdev, n - 1)
    mb_per_s: float | None
    median_cpu_seconds: float | None  # CPU time (user + sys) of the same work as `seconds`
    mb_per_cpu_s: float | None  # what MB/s would be without waiting for a CPU (single-threaded work)
    median_rss_mb: float | None
    max_rss_mb: float | None
    median_cpu_s: float | None
    median_wall_s: float | None
    events: int | None
    errors: tuple[str, ...]

    @property
    def judged(self) -> bool:
        return self.stage in JUDGED

    @property
    def speed_ok(self) -> bool | None:
        return None if self.mb_per_s is None or not self.judged else self.mb_per_s >= TARGET_MB_S

    @property
    def rss_ok(self) -> bool | None:
        return None if self.median_rss_mb is None or not self.judged else self.median_rss_mb < TARGET_RSS_MB


@dataclass(frozen=True)
class Input:
    """One generated log a benchmark parses; `main`: the size the targets are judged on (False for the
    smaller scaling input)."""

    log: str
    path: Path
    size_bytes: int
    main: bool


def _median(xs: Sequence[float | int | None]) -> float | None:
    vals = [x for x in xs if x is not None]
    return statistics.median(vals) if vals else None


def aggregate(runs: Sequence[Run], log: str, size_bytes: int, stage: str, label: str) -> Row:
    mine = [r for r in runs if (r.log, r.size_bytes, r.stage) == (log, size_bytes, stage)]
    ok = [r for r in mine if r.ok and r.seconds is not None]
    secs = [r.seconds for r in ok if r.seconds is not None]
    med = statistics.median(secs) if secs else None
    cpu = _median([r.cpu_seconds for r in ok])
    rss = [r.maxrss_bytes / MB for r in ok if r.maxrss_bytes is not None]
    cv = statistics.stdev(secs) / statistics.fmean(secs) if len(secs) >= 2 else None
    events = _median([r.events for r in ok])
    return Row(
        log=log,
        size_bytes=size_bytes,
        stage=stage,
        label=label,
        runs_ok=len(ok),
        runs=len(mine),
        median_s=med,
        min_s=min(secs) if secs else None,
        max_s=max(secs) if secs else None,
        cv=cv,
        mb_per_s=size_bytes / MB / med if med and size_bytes else None,
        median_cpu_seconds=cpu,
        mb_per_cpu_s=size_bytes / MB / cpu if cpu and size_bytes else None,
        median_rss_mb=_median(rss),
        max_rss_mb=max(rss) if rss else None,
        median_cpu_s=_median([r.cpu_s for r in ok]),
        median_wall_s=_median([r.wall_s for r in ok]),
        events=int(events) if events is not None else None,
        errors=tuple(sorted({r.error for r in mine if r.error})),
    )


def _f(x: float | None, fmt: str) -> str:
    return "-" if x is None else format(x, fmt)


def _verdict(ok: bool | None) -> str:
    return "-" if ok is None else ("PASS" if ok else "MISS")


HEADER = (
    "log", "MB", "events", "stage", "runs", "median s", "MB/s", "/400", "MB/cpu-s", "peak RSS MB", "/300",
    "cpu/wall",
    "speed", "memory",
)  # fmt: skip


def table(rows: Sequence[Row]) -> str:
    """One line per stage and log; /400 and /300 are the ratios to the targets."""
    lines = [HEADER]
    for r in rows:
        speed_ratio = r.mb_per_s / TARGET_MB_S if r.mb_per_s and r.judged else None
        rss_ratio = r.median_rss_mb / TARGET_RSS_MB if r.median_rss_mb and r.judged else None
        cpu_wall = r.median_cpu_s / r.median_wall_s if r.median_cpu_s and r.median_wall_s else None
        lines.append((
            r.log, _f(r.size_bytes / MB if r.size_bytes else None, ".1f"),
            f"{r.events:,}" if r.events is not None else "-", r.label, f"{r.runs_ok}/{r.runs}",
            _f(r.median_s, ".3f"), _f(r.mb_per_s, ".0f"), _f(speed_ratio, ".2f"), _f(r.mb_per_cpu_s, ".0f"),
            _f(r.median_rss_mb, ".0f"),
            _f(rss_ratio, ".2f"), _f(cpu_wall, ".2f"), _verdict(r.speed_ok), _verdict(r.rss_ok),
        ))  # fmt: skip
    widths = [max(len(line[i]) for line in lines) for i in range(len(HEADER))]
    left = {0, 3}
    out = []
    for line in lines:
        cells = [
            c.ljust(w) if i in left else c.rjust(w) for i, (c, w) in enumerate(zip(line, widths, strict=True))
        ]
        out.append("  ".join(cells).rstrip())
    out.insert(1, "-" * len(out[0]))
    return "\n".join(out)


def _find(rows: Sequence[Row], log: str, size: int, stage: str) -> Row | None:
    return next((r for r in rows if (r.log, r.size_bytes, r.stage) == (log, size, stage)), None)


def breakdown(rows: Sequence[Row], log: str, size: int, startup: Row | None) -> str | None:
    """Where the end-to-end time goes: start-up + the streaming parse (which makes the summary) + the rest
    (medians of separate runs, so they need not add up exactly)."""
    e2e, stream, parse, read, lines = (
        _find(rows, log, size, s) for s in ("e2e", "stream", "parse", "read", "lines")
    )
    if not (e2e and stream and e2e.median_s and stream.median_s):
        return None
    start = startup.median_s if startup and startup.median_s else 0.0
    rest = e2e.median_s - start - stream.median_s
    text = (
        f"{log} ({size / MB:.0f} MB): end-to-end {e2e.median_s:.2f} s = start-up and imports {start:.2f} s"
        f" + native parse with summary {stream.median_s:.2f} s + the rest {rest:.2f} s (figures, output)"
    )
    if read and read.median_s:
        text += f"; the streaming parse takes {stream.median_s / read.median_s:.1f}x the time of a plain read"
    if lines and lines.median_s:
        text += (
            f" and {stream.median_s / lines.median_s:.1f}x that of the native read with a memchr line count"
            f" (the floor, {_f(lines.mb_per_s, '.0f')} MB/s)"
        )
    if parse and parse.median_s:
        text += f"; building the event table instead takes {parse.median_s:.2f} s"
        gz = _find(rows, log, size, "parse-gz")
        if gz and gz.median_s:
            text += f", {gz.median_s:.2f} s from the log gzipped ({gz.median_s / parse.median_s:.2f}x)"
    gcviewer = _find(rows, log, size, "gcviewer")
    if gcviewer and gcviewer.median_s:
        text += (
            f"; GCViewer (the reference, its whole JVM) {gcviewer.median_s:.2f} s:"
            f" {gcviewer.median_s / e2e.median_s:.1f}x jvmlab's end-to-end time"
        )
    if e2e.median_rss_mb and parse and parse.median_rss_mb:
        text += (
            f"; peak RSS {parse.median_rss_mb:.0f} MB with the event table, {e2e.median_rss_mb:.0f} MB e2e"
        )
    return text


def rss_slope(
    rows: Sequence[Row], log: str, small: int, large: int, stage: str
) -> tuple[float, float] | None:
    """(MB of peak RSS per 100 MB of log, log size in MB at which the RSS target is reached)."""
    a, b = _find(rows, log, small, stage), _find(rows, log, large, stage)
    if not (a and b and a.median_rss_mb and b.median_rss_mb) or large <= small:
        return None
    slope = (b.median_rss_mb - a.median_rss_mb) / ((large - small) / MB)  # MB RSS per MB of log
    if slope <= 0:
        return 0.0, float("inf")
    at_target = large / MB + (TARGET_RSS_MB - b.median_rss_mb) / slope
    return slope * 100, at_target


def _name(r: Row) -> str:
    return f"{r.log} {r.size_bytes / MB:.0f} MB {r.label}" if r.size_bytes else r.label


def quality_warnings(rows: Sequence[Row]) -> list[str]:
    more = max((r.runs for r in rows), default=3) + 2
    out = []
    for r in rows:
        if r.stage == "parse" and r.median_s and r.median_cpu_seconds:
            share = r.median_cpu_seconds / r.median_s
            if share < CPU_SHARE_WARN:
                out.append(
                    f"{_name(r)}: the single-threaded parse had a CPU {share:.0%} of its time:"
                    " the machine was busy; MB/cpu-s shows the speed without waiting;"
                    " rerun when the load average is below 1"
                )
        if r.cv is not None and r.cv > CV_WARN and r.stage != "startup":
            out.append(
                f"{_name(r)}: runs vary (coefficient of variation {r.cv:.0%},"
                f" {r.min_s:.3f}..{r.max_s:.3f} s):"
                f" add repetitions with --repeat {max(5, more)}, or stop other work on the machine"
            )
        for e in r.errors:
            out.append(f"{_name(r)}: {r.runs - r.runs_ok} of {r.runs} runs failed: {e}")
    return out


def input_warnings(runs: Sequence[Run]) -> list[str]:
    """The generated logs must parse cleanly, or the event counts and MB/s cover less than the file."""
    out, seen = [], set()
    for r in runs:
        diag = r.child.get("diagnostics") if r.ok and r.stage == "parse" else None
        if not diag or r.log in seen:
            continue
        seen.add(r.log)
        if diag["lines_unknown"] or diag["time_backwards"]:
            sample = (r.child.get("unknown_samples") or [""])[0]
            out.append(
                f"{r.log}: the parser reported {diag['lines_unknown']} unknown lines and"
                f" {diag['time_backwards']}"
                f" time jumps back (first unknown: {sample!r}); rebuild the log with bench/make_logs.py"
            )
    return out
