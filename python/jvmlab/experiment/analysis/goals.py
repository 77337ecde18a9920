"""Goals: bounds a variant must meet, relative to the baseline ("young_gc_per_min <= -20%") or absolute
("p99_ms <= 500"), per load level or for the whole run; each judged pass, fail or inconclusive from the
confidence interval (docs/methodology.md#goals).

A goal holds when its whole CI is within the bound (pass), fails when the whole CI is beyond it, and is
inconclusive when the CI straddles the bound. The CI is the change's for a relative goal (at the level its
q-values keep, docs/methodology.md#verdicts), the mean's 95% CI for an absolute one. A side with a single
repetition has no CI: the goal is inconclusive, whatever its value alone says.
"""

from __future__ import annotations

import operator
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass

from jvmlab.errors import JvmLabError
from jvmlab.stats import CONFIDENCE, Change, Estimate, confidence_text

PASS, FAIL, INCONCLUSIVE, NO_DATA = "pass", "fail", "inconclusive", "no data"
ALL_LEVELS = "all"
_OPS: dict[str, Callable[[float, float], bool]] = {
    "<=": operator.le,
    "<": operator.lt,
    ">=": operator.ge,
    ">": operator.gt,
}
# A measure is a name, or `calls:PATTERN` (a counted method: dots, `$`, `*`, `<init>`).
_GOAL = re.compile(
    r"^\s*([A-Za-z_][A-Za-z0-9_]*(?::\S+?)?)\s*(<=|>=|<|>)\s*([+-]?[0-9]+(?:\.[0-9]+)?)\s*(%?)\s*$"
)


class GoalError(JvmLabError):
    """A goal that cannot be read; the message shows the goal and the expected form."""


@dataclass(frozen=True)
class Goal:
    measure: str
    op: str
    bound: float
    relative: bool  # the bound is a % change against the baseline

    @property
    def text(self) -> str:
        return (
            f"{self.measure} {self.op} {self.bound:+g}%"
            if self.relative
            else (f"{self.measure} {self.op} {self.bound:g}")
        )

    def holds(self, value: float) -> bool:
        return _OPS[self.op](value, self.bound)


def parse_goal(text: str) -> Goal:
    """`NAME OP NUMBER[%]`, OP one of <=, <, >=, >; a % makes the bound a change against the baseline."""
    m = _GOAL.match(text)
    if m is None:
        raise GoalError(
            f"goal {text!r}: expected MEASURE OP NUMBER[%], "
            "e.g. 'p99_ms <= 500' or 'young_gc_per_min <= -20%'"
        )
    name, op, number, percent = m.groups()
    return Goal(name, op, float(number), bool(percent))


@dataclass(frozen=True)
class GoalVerdict:
    """A goal judged for one variant (at one load level): the value it was judged on (a % change for
    relative goals), its CI where there is one and the CI's confidence level, and why."""

    goal: Goal
    variant: str
    level: str | None
    verdict: str
    value: float | None
    ci_low: float | None
    ci_high: float | None
    reason: str
    confidence: float = CONFIDENCE


def judge(
    goal: Goal, value: float | None, ci: tuple[float | None, float | None], confidence: float = CONFIDENCE
) -> tuple[str, str]:
    """(verdict, reason) of `goal` for a value and its CI at `confidence` (None ends: no CI)."""
    if value is None:
        return NO_DATA, "not measured" if not goal.relative else "no change against the baseline"
    low, high = ci
    if low is None or high is None:
        alone = "meets" if goal.holds(value) else "misses"
        return INCONCLUSIVE, f"one repetition on a side, no CI: the value alone {alone} the bound; repeat"
    # The CI's end nearest the bound's wrong side decides a pass; its other end a fail.
    worst, best = (high, low) if goal.op in ("<=", "<") else (low, high)
    shown = confidence_text(confidence)
    if goal.holds(worst):
        return PASS, f"the whole {shown} CI meets the bound"
    if not goal.holds(best):
        return FAIL, f"the whole {shown} CI misses the bound"
    return INCONCLUSIVE, f"the {shown} CI straddles the bound: add repetitions to decide"


def judge_variant(
    goal: Goal, variant: str, level: str | None, est: Estimate, change: Change | None
) -> GoalVerdict:
    """The verdict of a goal on one variant: a relative goal on its change against the baseline, an absolute
    goal on its mean."""
    if goal.relative:
        if change is None:
            return GoalVerdict(goal, variant, level, NO_DATA, None, None, None, "no baseline to compare with")
        ci = (change.ci_low_percent, change.ci_high_percent)
        verdict, reason = judge(goal, change.percent, ci, change.level)
        return GoalVerdict(goal, variant, level, verdict, change.percent, *ci, reason, change.level)
    verdict, reason = judge(goal, est.mean, (est.ci_low, est.ci_high))
    return GoalVerdict(goal, variant, level, verdict, est.mean, est.ci_low, est.ci_high, reason)


def check_goals(
    goals: Mapping[str, list[str]], measures: Mapping[str, object], levels: list[str], source: str
) -> None:
    """Spec check: goal keys are load level names or "all", each goal parses and names a known measure."""
    for key, texts in goals.items():
        if key != ALL_LEVELS and key not in levels:
            where = f"the load levels are {', '.join(levels)}" if levels else "the spec has no load levels"
            raise GoalError(f'{source}: goals.{key}: not a load level ({where}); use "all" for every level')
        for text in texts:
            try:
                goal = parse_goal(text)
            except GoalError as e:
                raise GoalError(f"{source}: goals.{key}: {e}") from None
            if goal.measure not in measures and goal.measure.startswith("calls:"):
                raise GoalError(
                    f"{source}: goals.{key}: {goal.measure!r} is not a measure: add "
                    f"{goal.measure.removeprefix('calls:')!r} to telemetry.count to count its calls"
                )
            if goal.measure not in measures:
                known = ", ".join(measures)
                raise GoalError(f"{source}: goals.{key}: {goal.measure!r} is not a measure; known: {known}")


def goals_for(goals: Mapping[str, list[str]], level: str | None) -> list[Goal]:
    """The goals that apply at a level (None: an experiment without load levels)."""
    texts = list(goals.get(ALL_LEVELS, []))
    if level is not None:
        texts += goals.get(level, [])
    return [parse_goal(t) for t in texts]
