"""`jvmlab gc events LOG... --csv FILE | --parquet FILE`: the event table for other tools."""

from __future__ import annotations

import sys
from dataclasses import dataclass

import jvmlab.gclog
from jvmlab.errors import UsageError
from jvmlab.report.events_export import write_csv, write_parquet

STDOUT = "-"


@dataclass(frozen=True)
class EventsOptions:
    logs: tuple[str, ...]
    csv: str | None = None
    parquet: str | None = None
    strict: bool = False

    def target(self) -> tuple[str, str]:
        """("csv" | "parquet", FILE); exactly one of the two options must be given."""
        if (self.csv is None) == (self.parquet is None):
            raise UsageError("give exactly one of --csv FILE or --parquet FILE (FILE '-' writes to stdout)")
        return ("csv", self.csv) if self.csv is not None else ("parquet", self.parquet)  # type: ignore[return-value]


def run(options: EventsOptions) -> None:
    kind, path = options.target()
    events = jvmlab.gclog.load(list(options.logs), strict=options.strict).events
    write = write_csv if kind == "csv" else write_parquet
    if path == STDOUT:
        sys.stdout.flush()
        write(events, sys.stdout.buffer, "stdout")
        sys.stdout.buffer.flush()
    else:
        write(events, path, path)
