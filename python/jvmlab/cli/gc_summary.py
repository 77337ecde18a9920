"""`jvmlab gc summary LOG...`: the figures of each log, as tables or JSON."""

from __future__ import annotations

from dataclasses import dataclass

from jvmlab.cli.output import print_renderables, print_text
from jvmlab.metrics import GcSummary, summarize_paths
from jvmlab.report.gclog.json_export import summary_document, to_json


@dataclass(frozen=True)
class SummaryOptions:
    logs: tuple[str, ...]
    json: bool = False
    strict: bool = False
    start_s: float | None = None
    end_s: float | None = None
    threads: int | None = None  # logs parsed at once; None: one per core

    @property
    def window(self) -> tuple[float | None, float | None] | None:
        return None if self.start_s is None and self.end_s is None else (self.start_s, self.end_s)


def summaries(options: SummaryOptions) -> list[GcSummary]:
    """One summary per input, made while parsing (no event table: memory does not grow with the log)."""
    return summarize_paths(
        list(options.logs), strict=options.strict, window=options.window, threads=options.threads
    )


def run(options: SummaryOptions) -> None:
    results = summaries(options)
    if options.json:
        print_text(to_json(summary_document(results)))
    else:
        from jvmlab.report.gclog.summary_view import summary_view
        from jvmlab.report.gclog.text import summary_renderable  # rich: only for tables

        print_renderables([summary_renderable(summary_view(s)) for s in results])
