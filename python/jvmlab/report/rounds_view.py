"""The looks of a `repetitions = "auto"` experiment (jvmlab.experiment.auto_repetitions) in the HTML reports
of experiments and regressions: after each round, every primary verdict with its CI at the look's share of
alpha and the noise it had to see through, a chart of how the CIs closed in, and why the rounds stopped."""

from __future__ import annotations

import math

from jvmlab.experiment.auto_repetitions import DECIDED, MAX_MINUTES, MAX_REPETITIONS, Rounds, StoredLook
from jvmlab.report.html.charts import Series, line_chart
from jvmlab.report.html.page import Block, Cell, Chart, Column, Section, Table, Text
from jvmlab.report.verdicts import OUTCOME_STATUS
from jvmlab.stats import confidence_text

STOPPED = {
    DECIDED: "every primary verdict was decided (changed beyond the threshold, or equivalent within it)",
    MAX_REPETITIONS: "the budget of rounds (max_repetitions) was spent: what is undecided stays inconclusive",
    MAX_MINUTES: "the time budget (max_minutes) was spent: what is undecided stays inconclusive",
}
CHARTED = 6  # primary verdicts drawn in the chart (the table has them all)
COLUMNS = ("after round", "CI level", "primary verdict", "change", "CI", "outcome", "noise (CV)")


def _percent(v: float | None) -> str:
    if v is None:
        return "—"
    return "unbounded" if math.isinf(v) else f"{v:+.1f}%"


def _level(look: StoredLook) -> str:
    return confidence_text(1.0 - look.alpha_share)


def summary(rounds: Rounds) -> str:
    if not rounds.looks:
        return "Repetitions auto: no look yet."
    last = rounds.looks[-1]
    how = STOPPED.get(rounds.stopped or "", "the rounds have not stopped yet (the experiment is running)")
    return (
        f"Repetitions auto: {len(rounds.looks)} look{'s' if len(rounds.looks) != 1 else ''}, the last after "
        f"{last.rounds} rounds; stopped because {how}. Each look tests at its share of alpha "
        "(O'Brien-Fleming spending), so that the chance of a false verdict over all the looks stays under "
        "alpha (docs/methodology.md#repetitions-until-decided)."
    )


def looks_table(rounds: Rounds) -> Table:
    rows: list[tuple[Cell, ...]] = []
    for look in rounds.looks:
        noise = "—" if look.noise_percent is None else f"{look.noise_percent:.1f}%"
        if not look.verdicts:  # kept before the looks stored their verdicts
            undecided = ", ".join(look.undecided) or "all decided"
            rows.append(
                (Cell(str(look.rounds)), Cell(_level(look)), Cell(f"undecided: {undecided}"), Cell("—"),
                 Cell("—"), Cell("—"), Cell(noise))
            )  # fmt: skip
            continue
        for v in look.verdicts:
            ci = f"[{_percent(v.ci_low_percent)}, {_percent(v.ci_high_percent)}]"
            cv = "—" if v.noise_percent is None else f"{v.noise_percent:.1f}%"
            rows.append(
                (Cell(str(look.rounds)), Cell(_level(look)), Cell(v.label), Cell(_percent(v.percent)),
                 Cell(ci if v.ci_low_percent is not None else "—"),
                 Cell(v.outcome, OUTCOME_STATUS.get(v.outcome, "")), Cell(cv))
            )  # fmt: skip
    numeric = {"after round", "change", "CI", "noise (CV)"}
    return Table(
        tuple(Column(c, numeric=c in numeric) for c in COLUMNS),
        tuple(rows),
        caption="the primary verdicts at each look; noise: the larger CV of single runs of the two sides",
    )


def looks_chart(rounds: Rounds, chart_id: str) -> Chart | None:
    """Each primary verdict's change and its CI bounds against the rounds: the CI narrowing as rounds come."""
    labels = list(dict.fromkeys(v.label for look in rounds.looks for v in look.verdicts))[:CHARTED]
    series = []
    for label in labels:
        points = [(look.rounds, v) for look in rounds.looks for v in look.verdicts if v.label == label]
        change = [(r, v.percent) for r, v in points if v.percent is not None]
        if not change:
            continue
        series.append(Series(label, [r for r, _ in change], [p for _, p in change], mode="lines+markers"))
        for name, bound in (("CI low", "ci_low_percent"), ("CI high", "ci_high_percent")):
            xy = [(r, getattr(v, bound)) for r, v in points]
            finite = [(r, b) for r, b in xy if b is not None and math.isfinite(b)]
            if finite:
                series.append(
                    Series(f"{label}: {name}", [r for r, _ in finite], [b for _, b in finite], dash="dot")
                )
    if not series:
        return None
    figure = line_chart(series, "rounds (values a side)", "change against the baseline (%)")
    caption = "each primary verdict's change (solid) and its CI at the look's level (dotted)"
    return Chart(chart_id, "Primary verdicts at each look", figure, caption)


def rounds_section(rounds: Rounds, section_id: str = "rounds") -> Section:
    blocks: list[Block] = [Text((summary(rounds),), tone="note"), looks_table(rounds)]
    chart = looks_chart(rounds, f"{section_id}-chart")
    if chart is not None:
        blocks.append(chart)
    return Section(section_id, "Repetitions until decided", tuple(blocks))
