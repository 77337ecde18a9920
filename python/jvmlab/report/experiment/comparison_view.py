"""The view model of a comparison (jvmlab.experiment.analysis.comparison): strings laid out in tables,
shared by the terminal, Markdown and the HTML report, and asserted on by tests.

A cell shows a variant's mean with its 95% CI half-width, and its change against its baseline with its
verdict (docs/methodology.md#verdicts): ▲ better, ▼ worse (significant and beyond the threshold), ● changed
where no direction is better, ≈ equivalent (the whole CI within +-threshold), ? inconclusive (neither).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

from jvmlab.errors import UsageError
from jvmlab.experiment.analysis.comparison import Block, Cell, Comparison, VariantInfo
from jvmlab.experiment.analysis.measures import Measure, headline_measures
from jvmlab.report import units
from jvmlab.stats import BETTER, EQUIVALENT, FLAT, INCONCLUSIVE, WORSE, directed
from jvmlab.stats.steady import SHORTEST_SERIES

DIFFERENT, UNTESTED = "different", "untested"
MARKS = {BETTER: "▲", WORSE: "▼", DIFFERENT: "●", EQUIVALENT: "≈", INCONCLUSIVE: "?", UNTESTED: ""}
LEGEND = (
    "mean ± 95% CI half-width, then the change against the baseline and its CI (Welch's test, Fieller's "
    "interval of the ratio of the means, at the level the q-values keep: 1 - {alpha:g} R/m, R of the m "
    "measures significant): ▲ better, ▼ worse (q < {alpha:g} and beyond ±{threshold:g}%), ≈ equivalent "
    "(the whole CI within ±{threshold:g}%), ? inconclusive (neither: more repetitions decide); no mark: "
    "one repetition on a side, nothing to test"
)


@dataclass(frozen=True)
class CellView:
    value: str  # "303.4 ±3.1"
    change: str  # "+12.6% ▲", "" for a baseline
    tone: str  # BETTER, WORSE, DIFFERENT, EQUIVALENT, INCONCLUSIVE, UNTESTED or "" (a baseline)
    change_ci: str  # "[+9.1%, +16.0%]" or ""


@dataclass(frozen=True)
class TableView:
    title: str
    columns: tuple[str, ...]  # measure labels with units
    rows: tuple[tuple[str, tuple[CellView, ...]], ...]  # (variant, cells)


@dataclass(frozen=True)
class GoalRow:
    level: str
    variant: str
    goal: str
    value: str
    ci: str
    verdict: str
    reason: str


@dataclass(frozen=True)
class SteadyRow:
    variant: str
    classes: str  # "warm-up ×3" or "warm-up, flat, warm-up"
    consistent: str
    time_to_steady: str
    early_to_steady: str


@dataclass(frozen=True)
class ComparisonView:
    title: str
    legend: str
    baselines: tuple[tuple[str, str], ...]  # (variant, its baseline)
    tables: tuple[TableView, ...]
    goals: tuple[GoalRow, ...]
    steady: tuple[SteadyRow, ...]
    warnings: tuple[str, ...]
    findings: tuple[str, ...] = ()  # the significant changes, in words


def decimals(v: float) -> int:
    """Decimals that give a figure 3-4 significant digits."""
    a = abs(v)
    if a >= 100:
        return 0
    if a >= 10:
        return 1
    if a >= 0.1 or a == 0:
        return 2
    return min(9, 2 - math.floor(math.log10(a)))


def number(v: float | None, places: int | None = None) -> str:
    """A figure with 3-4 significant digits (or `places` decimals), thousands separated."""
    if v is None:
        return units.MISSING
    return f"{v:,.{decimals(v) if places is None else places}f}"


def signed_percent(v: float | None) -> str:
    return units.MISSING if v is None else f"{v:+.1f}%"


def tone(measure: Measure, cell: Cell) -> str:
    change, verdict = cell.change, cell.verdict
    if change is None or change.percent is None or verdict is None:
        return ""
    if change.significant is None:
        return UNTESTED
    outcome = directed(verdict.outcome, measure.higher_is_better)
    return outcome if outcome in MARKS else DIFFERENT  # increased or decreased: no better direction


def cell_view(measure: Measure, cell: Cell | None, noise: bool = False) -> CellView:
    """A measure of a variant: its mean ± the CI's half width, its change and verdict; `noise`: with the CV
    of its single runs (for the primary measures: the noise each verdict had to see through)."""
    if cell is None or cell.estimate.n == 0:
        return CellView(units.MISSING, "", "", "")
    e = cell.estimate
    value = number(e.mean)
    if e.mean is not None and e.ci_low is not None and e.ci_high is not None and e.n > 1:
        value += f" ±{number((e.ci_high - e.ci_low) / 2, decimals(e.mean))}"  # as precise as the mean
    if noise and e.cv_percent is not None:
        value += f" CV {e.cv_percent:.1f}%"
    t = tone(measure, cell)
    c = cell.change
    if not t or c is None:
        return CellView(value, "", "", "")
    ci = ""
    if c.ci_low_percent is not None and c.ci_high_percent is not None:
        ci = f"[{signed_percent(c.ci_low_percent)}, {signed_percent(c.ci_high_percent)}]"
    return CellView(value, f"{signed_percent(c.percent)} {MARKS[t]}".strip(), t, ci)


def column_label(m: Measure) -> str:
    return f"{m.label} ({m.unit})" if m.unit and m.unit != "/min" else m.label


def default_measures(c: Comparison) -> list[str]:
    """The workload metric (mean, steady state) first, then the GC and process headline figures; with load
    levels, throughput, latency and GC per minute."""
    return headline_measures(c.metric, any(b.level is not None for b in c.blocks), c.measures)


def table_view(c: Comparison, block: Block, names: Sequence[str]) -> TableView:
    shown = [n for n in names if n in block.cells]
    title = "whole run" if block.level is None else f"level {block.level} ({block.rate:g} req/s)"
    rows = tuple(
        (
            v.variant,
            tuple(cell_view(c.measures[n], block.cells[n].get(v.variant), n in c.primary) for n in shown),
        )
        for v in c.variants
        if any(v.variant in block.cells[n] for n in shown)
    )
    return TableView(title, tuple(column_label(c.measures[n]) for n in shown), rows)


def goal_rows(c: Comparison) -> tuple[GoalRow, ...]:
    out = []
    for block in c.blocks:
        for v in block.verdicts:
            fmt = signed_percent if v.goal.relative else number
            ci = "" if v.ci_low is None or v.ci_high is None else f"[{fmt(v.ci_low)}, {fmt(v.ci_high)}]"
            level = v.level or "all"
            out.append(GoalRow(level, v.variant, v.goal.text, fmt(v.value), ci, v.verdict, v.reason))
    return tuple(out)


def _median(values: Sequence[float]) -> float:
    ordered = sorted(values)
    return ordered[len(ordered) // 2]


def ranking_change(c: Comparison) -> str:
    """When warm-up reorders the variants: their order by early mean and by steady-state mean (best first),
    e.g. the JDK that is slowest at first and fastest once warm. "" when the order stays."""
    pairs: dict[str, tuple[float, float]] = {}
    for v in c.variants:
        both = [(s.early_mean, s.steady_mean) for s in v.steady]
        known = [(e, m) for e, m in both if e is not None and m is not None]
        if known:
            pairs[v.variant] = (_median([e for e, _ in known]), _median([m for _, m in known]))
    higher = c.metric is None or c.measures[c.metric].higher_is_better is not False
    early_order = sorted(pairs, key=lambda v: pairs[v][0], reverse=higher)
    steady_order = sorted(pairs, key=lambda v: pairs[v][1], reverse=higher)
    if len(pairs) < 2 or early_order == steady_order:
        return ""
    early, steady = ", ".join(early_order), ", ".join(steady_order)
    return f"warm-up changes the order (best first): early {early}; steady {steady}"


def steady_row(v: VariantInfo) -> SteadyRow | None:
    if not v.steady:
        return None
    readings = max(sum(seg.n for seg in s.segments) for s in v.steady)
    if readings < SHORTEST_SERIES:
        short = f"too short to tell ({readings} readings; {SHORTEST_SERIES} needed)"
        return SteadyRow(v.variant, short, "—", "—", "")
    classes = [s.classification for s in v.steady]
    label = f"{classes[0]} ×{len(classes)}" if len(set(classes)) == 1 else ", ".join(classes)
    consistent = "—" if v.consistent is None else ("yes" if v.consistent else "no")
    times = sorted(s.time_to_steady_s for s in v.steady if s.time_to_steady_s is not None)
    time = units.seconds(times[len(times) // 2]) if times else "never steady"  # the median repetition's
    if set(classes) == {FLAT}:
        time = "from the start"
    pairs = [(s.early_mean, s.steady_mean) for s in v.steady if s.early_mean is not None]
    early = ""
    if pairs:
        e = sorted(p[0] for p in pairs if p[0] is not None)[len(pairs) // 2]
        s_values = sorted(p[1] for p in pairs if p[1] is not None)
        early = f"{number(e)} → {number(s_values[len(s_values) // 2])}" if s_values else number(e)
    return SteadyRow(v.variant, label, consistent, time, early)


def findings(tables: Sequence[TableView]) -> tuple[str, ...]:
    """One line per variant with a significant change in a measure shown: "level high: jdk17/g1: P99
    latency -35.2% ▲, Young GC per minute -21.0% ▲"; or that there is none."""
    out = []
    for t in tables:
        at = "" if t.title == "whole run" else f"{t.title}: "
        for variant, cells in t.rows:
            changed = [
                f"{col} {c.change}" for col, c in zip(t.columns, cells, strict=True) if c.tone in MOVED
            ]
            if changed:
                out.append(f"{at}{variant}: " + ", ".join(changed))
        for variant, cells in t.rows:
            undecided = [col for col, c in zip(t.columns, cells, strict=True) if c.tone == INCONCLUSIVE]
            if undecided:
                out.append(f"{at}{variant}: inconclusive, more repetitions decide: " + ", ".join(undecided))
    return tuple(out) or ("No change beyond the threshold against the baselines in the measures shown.",)


MOVED = (BETTER, WORSE, DIFFERENT)


def comparison_view(c: Comparison, names: Sequence[str] | None = None) -> ComparisonView:
    names = list(names) if names else default_measures(c)
    unknown = [n for n in names if n not in c.measures]
    if unknown:
        raise UsageError(f"unknown measure {unknown[0]!r}; known: {', '.join(c.measures)}")
    baselines = tuple((v.variant, v.baseline or "none") for v in c.variants if v.baseline != v.variant)
    tables = tuple(table_view(c, b, names) for b in c.blocks)
    return ComparisonView(
        title=f"experiment {c.experiment_id} ({c.name}, {c.status})",
        legend=LEGEND.format(alpha=c.alpha, threshold=c.threshold_percent),
        baselines=baselines,
        tables=tables,
        goals=goal_rows(c),
        steady=tuple(r for v in c.variants if (r := steady_row(v)) is not None),
        warnings=tuple(w.message for w in c.warnings),
        findings=findings(tables) + ((ranked,) if (ranked := ranking_change(c)) else ()),
    )
