"""Machine-readable comparisons: JSON (everything), CSV (one row per level, variant and measure) and
Markdown (the tables, goals and warnings, for a pull-request or pipeline comment). Formats in
docs/compare-json.md."""

from __future__ import annotations

import csv
import io
import json
from dataclasses import asdict
from typing import Any

from jvmlab.experiment.analysis.comparison import Cell, Comparison
from jvmlab.report.experiment.comparison_view import MARKS, ComparisonView
from jvmlab.report.json_values import finite
from jvmlab.stats import directed

COMPARE_FORMAT_VERSION = 2  # 2: verdicts (three outcomes), the change CI's level, the threshold
CSV_COLUMNS = (
    "level",
    "variant",
    "baseline",
    "measure",
    "unit",
    "n",
    "mean",
    "median",
    "stdev",
    "ci_low",
    "ci_high",
    "change_percent",
    "change_ci_low_percent",
    "change_ci_high_percent",
    "change_ci_level",
    "p_value",
    "q_value",
    "significant",
    "verdict",
)


def comparison_document(c: Comparison) -> dict[str, Any]:
    measures = {
        n: {"label": m.label, "unit": m.unit, "higher_is_better": m.higher_is_better}
        for n, m in c.measures.items()
    }
    blocks = []
    for b in c.blocks:
        cells = {
            name: {
                variant: {
                    "estimate": asdict(cell.estimate),
                    "change": None if cell.change is None else asdict(cell.change),
                    "verdict": _verdict(c, name, cell),
                    "values": list(cell.values),
                }
                for variant, cell in by_variant.items()
            }
            for name, by_variant in b.cells.items()
        }
        verdicts = [
            {**asdict(v), "goal": v.goal.text, "measure": v.goal.measure, "relative": v.goal.relative}
            for v in b.verdicts
        ]
        blocks.append({"level": b.level, "rate": b.rate, "cells": cells, "verdicts": verdicts})
    variants = [{**asdict(v), "steady": [asdict(s) for s in v.steady]} for v in c.variants]
    return finite(
        {
            "format_version": COMPARE_FORMAT_VERSION,
            "experiment": {"id": c.experiment_id, "name": c.name, "status": c.status},
            "alpha": c.alpha,
            "threshold_percent": c.threshold_percent,
            "metric": c.metric,
            "measures": measures,
            "variants": variants,
            "blocks": blocks,
            "warnings": [asdict(w) for w in c.warnings],
        }
    )


def _verdict(c: Comparison, measure: str, cell: Cell) -> str | None:
    """better, worse, increased, decreased, equivalent or inconclusive; None for a baseline."""
    if cell.verdict is None:
        return None
    return directed(cell.verdict.outcome, c.measures[measure].higher_is_better)


def to_json(c: Comparison) -> str:
    return json.dumps(comparison_document(c), indent=2)


def to_csv(c: Comparison) -> str:
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(CSV_COLUMNS)
    baselines = {v.variant: v.baseline for v in c.variants}
    for b in c.blocks:
        for name, by_variant in b.cells.items():
            unit = c.measures[name].unit
            for variant, cell in by_variant.items():
                e, ch = cell.estimate, cell.change
                change = (
                    [
                        ch.percent,
                        ch.ci_low_percent,
                        ch.ci_high_percent,
                        ch.level,
                        ch.p_value,
                        ch.q_value,
                        ch.significant,
                        _verdict(c, name, cell),
                    ]
                    if ch is not None
                    else [None] * 8
                )
                row = [b.level or "", variant, baselines.get(variant) or "", name, unit, e.n]
                row += [e.mean, e.median, e.stdev, e.ci_low, e.ci_high, *change]
                writer.writerow(["" if v is None else v for v in row])
    return out.getvalue()


def _md_escape(text: str) -> str:
    return text.replace("|", "\\|").replace("\n", " ")


def _md_table(header: list[str], rows: list[list[str]]) -> list[str]:
    lines = ["| " + " | ".join(_md_escape(h) for h in header) + " |"]
    lines.append("|" + "|".join("---" if i == 0 else "---:" for i in range(len(header))) + "|")
    lines += ["| " + " | ".join(_md_escape(c) for c in row) + " |" for row in rows]
    return lines


def to_markdown(view: ComparisonView) -> str:
    lines = [f"### jvmlab: {view.title}", "", view.legend, ""]
    if view.baselines:
        lines += ["Baseline: " + ", ".join(sorted({b for _, b in view.baselines})), ""]
    lines += [f"- {_md_escape(f)}" for f in view.findings] + [""]
    for t in view.tables:
        lines += [f"**{t.title}**", ""]
        rows = [
            [variant] + [f"{c.value} {c.change} {c.change_ci}".strip() for c in cells]
            for variant, cells in t.rows
        ]
        lines += _md_table(["variant", *t.columns], rows) + [""]
    if view.goals:
        icons = {"pass": "✅ pass", "fail": "❌ fail", "inconclusive": "⚠️ inconclusive"}
        rows = [
            [g.level, g.variant, g.goal, g.value, g.ci, icons.get(g.verdict, g.verdict)] for g in view.goals
        ]
        lines += ["**goals**", ""] + _md_table(["level", "variant", "goal", "value", "CI", "verdict"], rows)
        lines.append("")
    if view.warnings:
        lines += [f"- ⚠️ {_md_escape(w)}" for w in view.warnings] + [""]
    lines.append(
        f"Marks: {MARKS['better']} better, {MARKS['worse']} worse, {MARKS['equivalent']} equivalent, "
        f"{MARKS['inconclusive']} inconclusive."
    )
    return "\n".join(lines) + "\n"
