"""The report's tuning section for an experiment made by `jvmlab tune`: each candidate's objective and the
best so far, the Pareto front (several objectives), parameter importance, the best configuration(s) and
every candidate with its fate."""

from __future__ import annotations

from collections import Counter
from typing import Any

from jvmlab.report.html.charts import Series, bar_chart, line_chart, scatter_chart
from jvmlab.report.html.page import Block, Cell, Chart, Section, Status, Text, table
from jvmlab.tune import Candidate, TuneResult
from jvmlab.tune.search import figure

BEST, OTHERS, INFEASIBLE = "#1f77b4", "#9aa5b1", "#d62728"


def _progress_chart(r: TuneResult) -> Chart | None:
    o = r.objectives[0]
    done = [c for c in r.candidates if c.values is not None]
    if not done:
        return None
    feasible = [c for c in done if c.feasible]
    best: list[float] = []
    best_so_far: list[int] = []
    for c in feasible:
        assert c.values is not None
        v = c.values[0]
        best.append(v if not best else (max if o.maximize else min)(best[-1], v))
        best_so_far.append(c.number)
    series = [
        Series("feasible", [c.number for c in feasible], [c.values[0] for c in feasible if c.values], OTHERS,
               text=[" ".join(c.flags) for c in feasible], mode="markers"),
        Series("best so far", best_so_far, best, BEST, shape="hv"),
    ]  # fmt: skip
    infeasible = [c for c in done if not c.feasible]
    if infeasible:
        series.append(
            Series("breaks a constraint", [c.number for c in infeasible],
                   [c.values[0] for c in infeasible if c.values], INFEASIBLE, mode="markers")
        )  # fmt: skip
    return Chart("tune-progress", f"{o.text} over the candidates", line_chart(series, "candidate", o.text),
                 "each candidate's mean over its trials; the line: the best feasible one so far")  # fmt: skip


def _pareto_chart(r: TuneResult) -> Chart | None:
    if len(r.objectives) < 2:
        return None
    a, b = r.objectives[0], r.objectives[1]
    front = {c.number for c in r.best}
    pts = [c for c in r.candidates if c.values is not None and c.feasible]
    if not pts:
        return None

    def series(name: str, cs: list[Candidate], color: str) -> Series:
        xs, ys = [c.values[0] for c in cs if c.values], [c.values[1] for c in cs if c.values]
        return Series(
            name, xs, ys, color, text=[f"#{c.number}: {' '.join(c.flags)}" for c in cs], mode="markers"
        )

    chart = scatter_chart(
        [series("measured", [c for c in pts if c.number not in front], OTHERS),
         series("Pareto front", [c for c in pts if c.number in front], BEST)],
        a.text, b.text,
    )  # fmt: skip
    return Chart("tune-pareto", f"Pareto front: {a.direction} {a.text}, {b.direction} {b.text}", chart,
                 "feasible candidates; on the front none is better in both")  # fmt: skip


def _importance_chart(r: TuneResult) -> Chart | None:
    if not r.importance:
        return None
    names = list(r.importance)
    figure_ = bar_chart([Series("importance", names, list(r.importance.values()), BEST)], "parameter",
                        "importance", x_categorical=True)  # fmt: skip
    return Chart(
        "tune-importance",
        f"Parameter importance for {r.objectives[0].text}",
        figure_,
        "Optuna's PED-ANOVA: how much each parameter decides whether a candidate is among the best",
    )


def tune_section(r: TuneResult) -> Section:
    objs = [o.text for o in r.objectives]
    blocks: list[Block] = [
        Text(
            (
                f"Made by `jvmlab tune`: {', '.join(f'{o.direction} {o.text}' for o in r.objectives)}"
                + (f" subject to {', '.join(c.text for c in r.constraints)}" if r.constraints else "")
                + ". Each candidate is a flag set of this experiment (c0007: candidate 7).",
            ),
            tone="note",
        )
    ]
    blocks += [c for c in (_progress_chart(r), _pareto_chart(r), _importance_chart(r)) if c is not None]
    if r.best:
        rows = [[str(c.number), *(figure(v) for v in c.values or []), str(c.repetitions), " ".join(c.flags)]
                for c in r.best]  # fmt: skip
        title = "best configuration" if len(r.objectives) == 1 else "Pareto front"
        blocks.append(table(["#", *objs, "trials", "flags"], rows, title))
    rows2: list[list[str | Cell]] = []
    for c in r.candidates:
        if c.state == "duplicate":
            continue
        values = [figure(v) for v in c.values] if c.values else ["—"] * len(objs)
        status: Status = (
            "fail" if c.state == "fail" else ("muted" if c.state == "pruned" or not c.feasible else "")
        )
        fate = c.reason if c.state != "complete" and c.reason else " ".join(c.flags)
        rows2.append(
            [str(c.number), Cell(c.state, status), *values, str(c.repetitions), fate or "(defaults)"]
        )
    blocks.append(table(["#", "state", *objs, "trials", "flags / reason"], rows2, "candidates"))
    return Section("tuning", "Tuning", tuple(blocks))


def live_tuning(r: TuneResult) -> dict[str, Any]:
    """A running study as `jvmlab serve`'s live panel draws it: a line of where it stands and the section's
    charts (objective over the candidates, Pareto front, importance) as plotly figures, made as the report
    makes them."""
    measured = [c for c in r.candidates if c.values is not None]
    counts = Counter(c.state for c in r.candidates if c.state != "duplicate")
    states = ", ".join(f"{n} {s}" for s, n in sorted(counts.items()))
    noun = "candidate" if len(measured) == 1 else "candidates"
    summary = f"{len(measured)} {noun} measured ({states})" if counts else "no candidate measured yet"
    if r.best:
        o = r.objectives[0]
        best = r.best[0]
        flags = " ".join(best.flags) or "(defaults)"
        values = best.values or []
        if len(r.objectives) == 1:
            summary += f" · best so far #{best.number}: {o.text} {figure(values[0])} with {flags}"
        else:
            summary += f" · Pareto front: {len(r.best)} candidates"
    charts = [c for c in (_progress_chart(r), _pareto_chart(r), _importance_chart(r)) if c is not None]
    return {
        "summary": summary,
        "charts": [{"id": c.id, "title": c.title, "figure": c.figure} for c in charts],
    }
