"""A comparison on its own page: variants of one or several experiments with their CIs, changes against
their baselines, significance, goals, warm-up and quality warnings (what `jvmlab compare` prints, as HTML;
`jvmlab serve`'s compare view)."""

from __future__ import annotations

from jvmlab.experiment.analysis.comparison import Comparison
from jvmlab.report.experiment.comparison_view import comparison_view
from jvmlab.report.experiment.page import comparison_table, goals_table, steady_table
from jvmlab.report.html.page import Block, KeyValues, Page, Section, Text


def comparison_page(c: Comparison, *, generated_at: str = "") -> Page:
    from jvmlab import __version__

    view = comparison_view(c)
    against = tuple((variant, baseline) for variant, baseline in view.baselines)
    settings = KeyValues(
        (("alpha", f"{c.alpha:g}"), ("equivalent within", f"±{c.threshold_percent:g} %"), *against),
        caption="each variant against its baseline",
    )
    blocks: list[Block] = [settings, Text((view.legend,), tone="note")]
    if view.findings:
        blocks.append(Text(view.findings))
    blocks += [comparison_table(t) for t in view.tables]
    if view.steady:
        blocks.append(steady_table(view))
    if view.warnings:
        blocks.append(Text(view.warnings, tone="warning"))
    sections = [Section("comparison", "Comparison", tuple(blocks))]
    if view.goals:
        sections.append(Section("goals", "Goals", (goals_table(view),)))
    return Page(
        title=f"jvmlab: {view.title}",
        subtitle=", ".join(v.variant for v in c.variants),
        sections=tuple(sections),
        generated_by=f"jvmlab {__version__}",
        generated_at=generated_at,
    )
