"""`jvmlab gate [EXPERIMENT] [--against BASELINE]`: exit 1 when a goal fails or a measure regressed
significantly beyond the threshold against a stored baseline experiment; JUnit XML and Markdown for CI."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from rich import box
from rich.console import RenderableType
from rich.table import Table
from rich.text import Text

from jvmlab.cli.compare import load
from jvmlab.cli.output import print_renderables, write_output
from jvmlab.errors import UsageError
from jvmlab.experiment.analysis.gate import INCONCLUSIVE_FAILS, GateResult, gate
from jvmlab.report.experiment.comparison_text import verdict_text
from jvmlab.report.experiment.comparison_view import default_measures
from jvmlab.report.experiment.gate_export import to_junit, to_markdown


@dataclass(frozen=True)
class GateOptions:
    experiment: str | None
    db: str | None
    against: str | None = None
    against_db: str | None = None
    baseline: str | None = None
    measures: tuple[str, ...] = ()
    threshold_percent: float | None = None  # None: the spec's [compare] threshold_percent
    inconclusive: str = INCONCLUSIVE_FAILS
    junit: Path | None = None
    markdown: Path | None = None


def _renderable(result: GateResult) -> RenderableType:
    title = f"gate: {result.experiment}" + (f" against {result.against}" if result.against else "")
    table = Table(title=title, box=box.SIMPLE_HEAD, show_edge=False, pad_edge=False, title_justify="left")
    for name in ("", "check", "level", "variant"):
        table.add_column(name)
    table.add_column("detail", overflow="fold")
    for c in result.checks:
        table.add_row(verdict_text(c.status), c.group, c.level or "all", c.variant, c.message)
    if not result.checks:
        return Text(
            "gate: no goals in the spec and no --against experiment: nothing to check", style="yellow"
        )
    return table


def run(options: GateOptions) -> int:
    if options.threshold_percent is not None and options.threshold_percent < 0:
        raise UsageError(f"--threshold {options.threshold_percent:g}: give a percentage >= 0, e.g. 5")
    current = load(options.experiment, options.db, options.baseline, None, options.threshold_percent)
    baseline = None
    if options.against is not None:
        against_db = options.against_db or options.db
        baseline = load(options.against, against_db, options.baseline, None, options.threshold_percent)
    measures = list(options.measures) or default_measures(current)
    unknown = [m for m in measures if m not in current.measures]
    if unknown:
        raise UsageError(f"--measure {unknown[0]}: not a measure; known: {', '.join(current.measures)}")
    result = gate(
        current,
        baseline,
        measures=measures,
        threshold_percent=current.threshold_percent,
        inconclusive=options.inconclusive,
    )
    if options.junit:
        write_output(to_junit(result), options.junit)
    if options.markdown:
        write_output(to_markdown(result), options.markdown)
    failed = len(result.failed)
    summary = Text(
        f"gate {'failed' if failed else 'passed'}: {failed} of {len(result.checks)} checks failed",
        style="bold red" if result.failed else "bold green",
    )
    print_renderables([_renderable(result), summary])
    return result.exit_code
