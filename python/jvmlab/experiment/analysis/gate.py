"""The CI gate: an experiment passes when none of its goals fails and, against a stored baseline experiment
(e.g. the current JDK build, when testing a new one), no measure got worse: significantly, and by more than
a threshold. Each regression check is one of three verdicts (docs/methodology.md#verdicts): worse (fail),
better or equivalent (pass: the whole CI within +-threshold), or inconclusive, which fails the gate unless
told otherwise, since a gate that passes what it cannot judge guards nothing. Results as checks that
render to JUnit XML and Markdown (report/gate_export.py).

Exit codes (docs/ci-gate.md): 0 passed; 1 a goal failed or a measure got worse, or (with inconclusive
"fail", the default) a check is inconclusive; 2 a usage error (no such experiment, bad option).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from jvmlab.errors import JvmLabError
from jvmlab.experiment.analysis.comparison import Block, Comparison
from jvmlab.experiment.analysis.goals import FAIL, INCONCLUSIVE, NO_DATA, PASS
from jvmlab.stats import (
    BETTER,
    DEFAULT_THRESHOLD_PERCENT,
    EQUIVALENT,
    WORSE,
    Change,
    compare_metrics,
    confidence_text,
    directed,
    judge,
    repetitions_to_decide,
)

GOALS, REGRESSIONS = "goals", "regressions"
EXIT_PASSED, EXIT_FAILED = 0, 1
# What an inconclusive check does to the gate's exit code (`--inconclusive`)
INCONCLUSIVE_FAILS, INCONCLUSIVE_PASSES = "fail", "pass"


@dataclass(frozen=True)
class Check:
    group: str  # GOALS or REGRESSIONS
    level: str | None
    variant: str
    name: str  # the goal, or the measure
    status: str  # PASS, FAIL, INCONCLUSIVE or NO_DATA
    message: str


@dataclass(frozen=True)
class GateResult:
    experiment: str
    against: str | None
    threshold_percent: float
    inconclusive: str  # INCONCLUSIVE_FAILS or INCONCLUSIVE_PASSES
    checks: tuple[Check, ...]

    @property
    def failed(self) -> list[Check]:
        bad = (FAIL, INCONCLUSIVE) if self.inconclusive == INCONCLUSIVE_FAILS else (FAIL,)
        return [c for c in self.checks if c.status in bad]

    @property
    def exit_code(self) -> int:
        return EXIT_FAILED if self.failed else EXIT_PASSED


def goal_checks(c: Comparison) -> list[Check]:
    out = []
    for block in c.blocks:
        for v in block.verdicts:
            shown = "—" if v.value is None else (f"{v.value:+.1f}%" if v.goal.relative else f"{v.value:.4g}")
            ci = (
                ""
                if v.ci_low is None or v.ci_high is None
                else f", {confidence_text(v.confidence)} CI [{v.ci_low:.4g}, {v.ci_high:.4g}]"
            )
            message = f"{v.goal.text}: {shown}{ci}: {v.reason}"
            out.append(Check(GOALS, v.level, v.variant, v.goal.text, v.verdict, message))
    return out


def match_variants(current: Comparison, baseline: Comparison) -> dict[str, str]:
    """current variant -> baseline variant: the same name, else the same flag set when each experiment has
    one JDK (a new JDK build against the current one)."""
    theirs = {v.variant for v in baseline.variants}
    matched = {v.variant: v.variant for v in current.variants if v.variant in theirs}
    if matched:
        return matched
    if len({v.jdk for v in current.variants}) == 1 and len({v.jdk for v in baseline.variants}) == 1:
        by_flags = {v.flag_set: v.variant for v in baseline.variants}
        return {v.variant: by_flags[v.flag_set] for v in current.variants if v.flag_set in by_flags}
    return {}


def _regressions(
    c: Comparison, block: Block, base: Block, pairs: dict[str, str], measures: Sequence[str], threshold: float
) -> list[Check]:
    out = []
    for variant, theirs in pairs.items():
        names = [m for m in measures if _measured(block, m, variant) and _measured(base, m, theirs)]
        changes = compare_metrics(
            {m: list(base.cells[m][theirs].values) for m in names},
            {m: list(block.cells[m][variant].values) for m in names},
            alpha=c.alpha,
        )
        for m, change in changes.items():
            both_zero = base.cells[m][theirs].estimate.mean == block.cells[m][variant].estimate.mean == 0
            status, message = (
                (PASS, f"{c.measures[m].label}: 0 here and in {theirs}")
                if both_zero
                else judge_regression(c, m, change, threshold, theirs)
            )
            out.append(Check(REGRESSIONS, block.level, variant, m, status, message))
    return out


def _measured(block: Block, measure: str, variant: str) -> bool:
    cell = block.cells.get(measure, {}).get(variant)
    return cell is not None and cell.estimate.n > 0


def judge_regression(
    c: Comparison, measure: str, change: Change, threshold: float, theirs: str
) -> tuple[str, str]:
    """(status, message) of one measure's change against `theirs`: FAIL when worse (significant and beyond
    `threshold` percent), PASS when better or equivalent (its whole CI within +-threshold), INCONCLUSIVE
    otherwise, with the repetitions a side that would decide it at this noise."""
    m = c.measures[measure]
    if change.percent is None:
        return NO_DATA, f"{m.label}: no change to measure against {theirs}"
    text = f"{m.label}: {change.percent:+.1f}% against {theirs}"
    if change.ci_text():
        text += f" ({change.ci_text()})"
    if change.significant is None:
        return INCONCLUSIVE, text + ": one repetition on a side, no CI: add repetitions to judge it"
    verdict = judge(change, threshold)
    outcome = directed(verdict.outcome, m.higher_is_better)
    q = f"q = {change.q_value:.2g}" if change.q_value is not None else ""
    if outcome == WORSE:
        return FAIL, f"{text}: worse ({q}) beyond the {threshold:g}% threshold"
    if outcome == BETTER:
        return PASS, f"{text}: better ({q}) beyond the {threshold:g}% threshold"
    if outcome == EQUIVALENT:
        return PASS, f"{text}: equivalent, the whole CI within ±{threshold:g}%"
    if verdict.decided:  # changed, on a measure with no better direction
        return PASS, f"{text}: changed ({q}) beyond the {threshold:g}% threshold"
    more = repetitions_to_decide(verdict)
    decide = f": about {more} repetitions a side would decide it" if more else ""
    return INCONCLUSIVE, f"{text}: inconclusive, neither beyond nor within ±{threshold:g}%{decide}"


def gate(
    current: Comparison,
    baseline: Comparison | None = None,
    *,
    measures: Sequence[str] = (),
    threshold_percent: float = DEFAULT_THRESHOLD_PERCENT,
    inconclusive: str = INCONCLUSIVE_FAILS,
) -> GateResult:
    """The gate's checks: every goal of `current`; with `baseline`, each matched variant's `measures` (those
    with a better direction) at each load level present in both."""
    checks = goal_checks(current)
    if baseline is not None:
        pairs = match_variants(current, baseline)
        if not pairs:
            raise JvmLabError(
                f"--against: no variant of experiment {current.experiment_id} matches one of experiment "
                f"{baseline.experiment_id} (by name, or by flag set when each has one JDK)"
            )
        names = [m for m in measures if current.measures[m].higher_is_better is not None]
        base_blocks = {b.level: b for b in baseline.blocks}
        for block in current.blocks:
            if block.level in base_blocks:
                base = base_blocks[block.level]
                checks += _regressions(current, block, base, pairs, names, threshold_percent)
    title = f"{current.name} (experiment {current.experiment_id})"
    against = None if baseline is None else f"{baseline.name} (experiment {baseline.experiment_id})"
    return GateResult(title, against, threshold_percent, inconclusive, tuple(checks))
