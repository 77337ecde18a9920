"""`jvmlab gc report [LABEL=]LOG... -o FILE`: one self-contained HTML report of GC logs (docs/report.md)."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

import jvmlab.gclog
from jvmlab.cli.gc_summary import SummaryOptions
from jvmlab.cli.inputs import default_labels, labelled, split_label
from jvmlab.cli.output import print_text
from jvmlab.gclog.sources import Source, rotation_key
from jvmlab.report import units

if TYPE_CHECKING:
    from jvmlab.advise import Advice
    from jvmlab.gclog import GcLog
    from jvmlab.metrics.summary import GcSummary, Window
    from jvmlab.report.gclog.page import LabelledLog

DEFAULT_OUTPUT = "gc-report.html"


@dataclass(frozen=True)
class ReportOptions:
    logs: tuple[str, ...]
    output: str = DEFAULT_OUTPUT
    strict: bool = False
    start_s: float | None = None
    end_s: float | None = None

    @property
    def window(self) -> tuple[float | None, float | None] | None:
        return SummaryOptions(self.logs, start_s=self.start_s, end_s=self.end_s).window


def load_logs(args: list[str], *, strict: bool, window: Window | None = None) -> list[LabelledLog]:
    """Without labels, the inputs are grouped as `gc summary` groups them (the files of a rotated set are
    one log, as several arguments too); with `label=path` arguments, each argument is one log. Each is
    summarised over `window`."""
    from jvmlab.metrics import summarize
    from jvmlab.report.gclog.page import LabelledLog

    if any(label for label, _ in map(split_label, args)):
        labels, paths = labelled(args)
        logs = [jvmlab.gclog.load(path, strict=strict) for path in paths]
    else:
        logs = jvmlab.gclog.load_many(args, strict=strict)
        labels = default_labels([_log_path(log.sources) for log in logs])
    items = []
    for label, log in zip(labels, logs, strict=True):
        summary = summarize(log, window=window)
        items.append(LabelledLog(label, log, summary, advice_of(log, summary)))
    return items


def advice_of(log: GcLog, summary: GcSummary) -> Advice:
    """The findings on the log (its own command line where it prints one), for the report's section."""
    from jvmlab.advise import advise_parsed

    return advise_parsed(log, summary)


def _log_path(sources: tuple[Source, ...]) -> str:
    """The path of a one-file log; a rotated set's base name ("logs/gc.log (3 files)")."""
    first = str(sources[0])
    if len(sources) == 1:
        return first
    base, _, _ = rotation_key(sources[0].name)
    return str(Path(first).parent / f"{base} ({len(sources)} files)")


def run(options: ReportOptions) -> None:
    from jvmlab.errors import check_writable
    from jvmlab.report.gclog.page import gc_report_page
    from jvmlab.report.html.page import write

    check_writable(options.output, what="report")  # before parsing: a wrong -o fails at once
    logs = load_logs(list(options.logs), strict=options.strict, window=options.window)
    size = write(gc_report_page(logs, window=options.window), options.output)
    print_text(f"wrote {options.output} ({units.size(size)}, {size:,} bytes)")
