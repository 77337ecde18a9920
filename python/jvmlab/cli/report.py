"""`jvmlab report [EXPERIMENT] -o report.html`: the experiment's single-file offline HTML report, or its
comparison exported as JSON, CSV or Markdown (`--format`)."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from jvmlab.cli.compare import load
from jvmlab.cli.output import print_text, write_output
from jvmlab.errors import UsageError, check_writable
from jvmlab.experiment.storage import Store
from jvmlab.report.experiment.comparison_export import to_csv, to_json, to_markdown
from jvmlab.report.experiment.comparison_view import comparison_view

FORMATS = ("html", "json", "csv", "markdown")
DEFAULT_OUTPUT = {"html": "report.html", "json": "report.json", "csv": "report.csv", "markdown": "report.md"}


@dataclass(frozen=True)
class ReportOptions:
    experiment: str | None
    db: str | None
    output: Path | None = None
    format: str = "html"
    baseline: str | None = None
    alpha: float | None = None
    measures: tuple[str, ...] = ()
    threshold_percent: float | None = None  # None: the spec's


def run(options: ReportOptions) -> None:
    if options.format not in FORMATS:
        raise UsageError(f"--format {options.format}: use one of {', '.join(FORMATS)}")
    if options.threshold_percent is not None and options.threshold_percent < 0:
        raise UsageError(f"--threshold {options.threshold_percent:g}: give a percentage >= 0, e.g. 5")
    output = options.output or Path(DEFAULT_OUTPUT[options.format])
    check_writable(output, what="report")  # before the work: a wrong -o fails at once
    if options.format != "html":
        c = load(options.experiment, options.db, options.baseline, options.alpha, options.threshold_percent)
        text = {"json": lambda: to_json(c), "csv": lambda: to_csv(c)}.get(
            options.format, lambda: to_markdown(comparison_view(c, options.measures or None))
        )()
        write_output(text, output)
    else:
        from jvmlab.experiment.analysis.report_data import report_data
        from jvmlab.report.experiment.page import experiment_page
        from jvmlab.report.html.page import write
        from jvmlab.tune.session import stored_result

        store = Store.open(options.db)
        try:
            data = report_data(
                store,
                options.experiment,
                baseline=options.baseline,
                alpha=options.alpha,
                threshold_percent=options.threshold_percent,
            )
            tuning = stored_result(store, data.experiment)
        finally:
            store.close()
        page = experiment_page(data, output=output, measures=options.measures or None, tuning=tuning)
        write(page, output)
    print_text(f"wrote {output} ({output.stat().st_size / 1e6:.1f} MB)")
