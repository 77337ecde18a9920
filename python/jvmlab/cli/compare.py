"""`jvmlab compare [EXPERIMENT]`: the variants side by side with CIs, changes against the baseline,
significance, goals, warm-up and quality warnings; or exported as JSON, CSV or Markdown."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from jvmlab.cli.output import export_format, print_renderables, write_output
from jvmlab.errors import UsageError
from jvmlab.experiment.analysis.comparison import Comparison, stored_comparison
from jvmlab.experiment.storage import Store
from jvmlab.report.experiment.comparison_export import to_csv, to_json, to_markdown
from jvmlab.report.experiment.comparison_text import comparison_renderables
from jvmlab.report.experiment.comparison_view import comparison_view

FORMATS = ("table", "json", "csv", "markdown")


@dataclass(frozen=True)
class CompareOptions:
    experiment: str | None
    db: str | None
    baseline: str | None = None
    alpha: float | None = None
    measures: tuple[str, ...] = ()
    format: str | None = None  # None: from the output's extension, else the table
    output: Path | None = None
    threshold_percent: float | None = None  # None: the spec's


def load(
    experiment: str | None,
    db: str | None,
    baseline: str | None,
    alpha: float | None,
    threshold_percent: float | None = None,
) -> Comparison:
    if alpha is not None and not 0 < alpha < 0.5:
        raise UsageError(f"--alpha {alpha:g}: give a significance level between 0 and 0.5, e.g. 0.01")
    if threshold_percent is not None and threshold_percent < 0:
        raise UsageError(f"--threshold {threshold_percent:g}: give a percentage >= 0, e.g. 5")
    store = Store.open(db)
    try:
        return stored_comparison(
            store, experiment, baseline=baseline, alpha=alpha, threshold_percent=threshold_percent
        )
    finally:
        store.close()


def run(options: CompareOptions) -> None:
    format = export_format(options.format, options.output, FORMATS)
    c = load(options.experiment, options.db, options.baseline, options.alpha, options.threshold_percent)
    if format == "json":
        return write_output(to_json(c), options.output)
    if format == "csv":
        return write_output(to_csv(c), options.output)
    view = comparison_view(c, options.measures or None)
    if format == "markdown":
        return write_output(to_markdown(view), options.output)
    print_renderables(comparison_renderables(view))
