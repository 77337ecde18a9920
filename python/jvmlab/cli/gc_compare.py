"""`jvmlab gc compare [label=]LOG [label=]LOG...`: figures side by side, % change against the first."""

from __future__ import annotations

from dataclasses import dataclass

from jvmlab.cli.inputs import summarize_labelled
from jvmlab.cli.output import print_renderables, print_text
from jvmlab.errors import UsageError
from jvmlab.metrics.comparison import compare
from jvmlab.report.gclog.comparison_view import compare_view
from jvmlab.report.gclog.json_export import compare_document, to_json
from jvmlab.report.gclog.text import compare_renderable


@dataclass(frozen=True)
class CompareOptions:
    logs: tuple[str, ...]
    json: bool = False
    strict: bool = False
    threads: int | None = None  # logs parsed at once; None: one per core


def run(options: CompareOptions) -> None:
    if len(options.logs) < 2:
        raise UsageError("compare needs at least two logs: jvmlab gc compare [label=]LOG_A [label=]LOG_B")
    labels, summaries = summarize_labelled(list(options.logs), strict=options.strict, threads=options.threads)
    comparison = compare(summaries, labels)
    if options.json:
        print_text(to_json(compare_document(comparison, summaries)))
    else:
        print_renderables([compare_renderable(compare_view(comparison, summaries))])
