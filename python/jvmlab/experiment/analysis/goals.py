"""Goals: bounds a variant must meet, relative to the baseline ("young_gc_per_min <= -20%") or absolute
("p99_ms <= 500"), per load level or for the whole run; each judged pass, fail or inconclusive from the
confidence interval (docs/methodology.md#goals).

A goal holds when its whole 95% CI is within the bound (pass), fails when the whole CI is beyond it, and is
inconclusive when the CI straddles the bound. A side with a single repetition has no CI: the goal is judged
on the value alone, and says so.
"""

from __future__ import annotations

import operator
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass

from jvmlab.errors import JvmLabError
from jvmlab.stats import Change, Estimate

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
class Verdict:
    """A goal judged for one variant (at one level): the value it was judged on (a % change for relative
    goals), its CI where there is one, and why."""

    goal: Goal
    variant: str
    level: str | None
    verdict: str
    value: float | None
    ci_low: float | None
    ci_high: float | None
    reason: str


def judge(goal: Goal, value: float | None, ci: tuple[float | None, float | None]) -> tuple[str, str]:
    """(verdict, reason) of `goal` for a value and its CI (None ends: no CI)."""
    if value is None:
        return NO_DATA, "not measured" if not goal.relative else "no change against the baseline"
    low, high = ci
    if low is None or high is None:
        ok = goal.holds(value)
        return (PASS if ok else FAIL), "one repetition on a side: judged on the value alone, without a CI"
    # The CI's end nearest the bound's wrong side decides a pass; its other end a fail.
    worst, best = (high, low) if goal.op in ("<=", "<") else (low, high)
    if goal.holds(worst):
        return PASS, "the whole 95% CI meets the bound"
    if not goal.holds(best):
        return FAIL, "the whole 95% CI misses the bound"
    return INCONCLUSIVE, "the 95% CI straddles the bound: add repetitions to decide"


def judge_variant(
    goal: Goal, variant: str, level: str | None, est: Estimate, change: Change | None
) -> Verdict:
    """The verdict of a goal on one variant: a relative goal on its change against the baseline, an absolute
    goal on its mean."""
    if goal.relative:
        if change is None:
            return Verdict(goal, variant, level, NO_DATA, None, None, None, "no baseline to compare with")
        ci = (change.ci_low_percent, change.ci_high_percent)
        verdict, reason = judge(goal, change.percent, ci)
        return Verdict(goal, variant, level, verdict, change.percent, *ci, reason)
    verdict, reason = judge(goal, est.mean, (est.ci_low, est.ci_high))
    return Verdict(goal, variant, level, verdict, est.mean, est.ci_low, est.ci_high, reason)


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
