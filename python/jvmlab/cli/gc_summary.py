"""`jvmlab gc summary LOG...`: the figures of each log, as tables or JSON."""

from __future__ import annotations

from dataclasses import dataclass

from jvmlab.cli.inputs import load_logs
from jvmlab.cli.output import print_renderables, print_text
from jvmlab.metrics import GcSummary, summarize
from jvmlab.report.json_export import summary_document, to_json
from jvmlab.report.summary_view import summary_view
from jvmlab.report.text import summary_renderable


@dataclass(frozen=True)
class SummaryOptions:
    logs: tuple[str, ...]
    json: bool = False
    strict: bool = False
    start_s: float | None = None
    end_s: float | None = None

    @property
    def window(self) -> tuple[float | None, float | None] | None:
        return None if self.start_s is None and self.end_s is None else (self.start_s, self.end_s)


def summaries(options: SummaryOptions) -> list[GcSummary]:
    logs = load_logs(list(options.logs), strict=options.strict)
    return [summarize(log, window=options.window) for log in logs]


def run(options: SummaryOptions) -> None:
    results = summaries(options)
    if options.json:
        print_text(to_json(summary_document(results)))
    else:
        print_renderables([summary_renderable(summary_view(s)) for s in results])
