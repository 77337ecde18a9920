"""The flag lint of an experiment's plan: every JDK x flag set judged from the JVM start the plan made
already (jvmlab.jdk.lint.judge: no second start), so that a refused, deprecated, ignored or renamed flag is
named, with what to use instead, before any trial runs."""

from __future__ import annotations

from jvmlab.experiment.execution.run import Plan
from jvmlab.experiment.execution.verdict import FlagVerdict
from jvmlab.jdk.lint import Target, TargetLint, judge
from jvmlab.jdk.lint_run import Observed, observed_lines


def _observed(verdict: FlagVerdict) -> Observed:
    errors = observed_lines([verdict.message] if verdict.message else [])
    if not verdict.accepted and not errors:
        errors = ("the JVM did not start",)
    return Observed(verdict.accepted, errors, observed_lines(verdict.warnings))


def lint_plan(plan: Plan) -> dict[str, TargetLint]:
    """Per variant key (JDK/flag set, in matrix order): the verdict of each flag on that JDK."""
    out = {}
    for variant in plan.variants:
        jdk = plan.jdks[variant.jdk]
        target = Target(jdk.name, jdk.major, jdk)
        out[variant.key] = judge(variant.flags, target, _observed(plan.verdicts[variant.key]))
    return out
