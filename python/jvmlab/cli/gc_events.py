"""`jvmlab gc events LOG... --csv FILE | --parquet FILE`: the event table for other tools."""

from __future__ import annotations

import sys
from dataclasses import dataclass

import jvmlab.gclog
from jvmlab.errors import UsageError

STDOUT = "-"


@dataclass(frozen=True)
class EventsOptions:
    logs: tuple[str, ...]
    csv: str | None = None
    parquet: str | None = None
    strict: bool = False

    def target(self) -> tuple[str, str]:
        """("csv" | "parquet", FILE); exactly one of the two options must be given."""
        if self.csv is not None and self.parquet is None:
            return "csv", self.csv
        if self.parquet is not None and self.csv is None:
            return "parquet", self.parquet
        raise UsageError("give exactly one of --csv FILE or --parquet FILE (FILE '-' writes to stdout)")


def run(options: EventsOptions) -> None:
    from jvmlab.report.gclog.events_export import events_bytes, write_events_file  # polars

    fmt, path = options.target()
    events = jvmlab.gclog.load(list(options.logs), strict=options.strict).events
    if path != STDOUT:
        write_events_file(events, fmt, path)
        return
    sys.stdout.flush()
    sys.stdout.buffer.write(events_bytes(events, fmt))
    sys.stdout.buffer.flush()
