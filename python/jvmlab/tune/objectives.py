"""What `jvmlab tune` optimises and must respect: objectives (a measure to maximise or minimise, at a load
level or over the whole run) and constraints (`rss_peak_mb <= 2048`, `p99_ms@high <= 500`), read from a
candidate's successful trials as the means `jvmlab results` shows (experiment/analysis/measures.py)."""

from __future__ import annotations

import re
import statistics
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from jvmlab.errors import UsageError
from jvmlab.experiment.analysis.measures import Measure, measures, not_produced
from jvmlab.experiment.spec import ExperimentSpec
from jvmlab.profile.agent import pmu_available

_CONSTRAINT = re.compile(
    r"^\s*([A-Za-z_][A-Za-z0-9_]*(?::\S+?)?)(?:@([A-Za-z0-9_.-]+))?\s*(<=|>=|<|>)\s*([+-]?[0-9]+(?:\.[0-9]+)?)\s*$"
)


@dataclass(frozen=True)
class Target:
    """A measure over the whole run (level None) or at one load level."""

    measure: Measure
    level: str | None

    @property
    def text(self) -> str:
        return self.measure.name + (f"@{self.level}" if self.level else "")

    def values(self, trials: Sequence[Any], levels: Mapping[int, Sequence[Any]]) -> list[float]:
        """The value of each trial that has one."""
        out: list[float] = []
        for t in trials:
            if self.level is None:
                v = self.measure.of_trial(t) if self.measure.of_trial else None
            else:
                row = next((lv for lv in levels.get(t.id, []) if lv.name == self.level), None)
                v = self.measure.of_level(row) if row is not None and self.measure.of_level else None
            if v is not None:
                out.append(float(v))
        return out

    def mean(self, trials: Sequence[Any], levels: Mapping[int, Sequence[Any]]) -> float | None:
        found = self.values(trials, levels)
        return statistics.fmean(found) if found else None


@dataclass(frozen=True)
class Objective(Target):
    maximize: bool

    @property
    def direction(self) -> str:
        return "maximize" if self.maximize else "minimize"


@dataclass(frozen=True)
class Constraint(Target):
    op: str
    bound: float

    @property
    def text(self) -> str:
        return f"{Target.text.fget(self)} {self.op} {self.bound:g}"  # type: ignore[attr-defined]

    def violation(self, value: float) -> float:
        """Optuna's convention: <= 0 when the constraint holds, else by how much it does not."""
        return value - self.bound if self.op in ("<=", "<") else self.bound - value


COST = "cost_per_hour"


def cost_measure(spec: ExperimentSpec, key: str) -> Measure:
    """`cost_per_hour`: the price of the container a trial ran in, from the spec's [tune.cost] prices."""
    assert spec.tune is not None
    cost = spec.tune.cost
    if cost is None or not spec.tune.containers:
        raise UsageError(
            f"{key}: {COST} is the price of a candidate's container: give tune.containers and "
            "[tune.cost] cpu_hour and gib_hour"
        )
    limits = spec.matrix.container_limits() or {}
    unpriced = [c for c in spec.tune.containers if limits[c].cpus is None or limits[c].memory_bytes is None]
    if unpriced:
        raise UsageError(f"{key}: container {unpriced[0]!r} needs cpus and memory to have a price")

    def price(t: Any) -> float | None:
        found = limits.get(getattr(t, "container", None) or "")
        if found is None or found.cpus is None or found.memory_bytes is None:
            return None
        return found.cpus * cost.cpu_hour + found.memory_bytes / 2**30 * cost.gib_hour

    return Measure(COST, "container cost", "per hour", False, price, None)


def _target(spec: ExperimentSpec, name: str, level: str | None, key: str) -> tuple[Measure, str | None]:
    if name == COST:
        if level is not None:
            raise UsageError(f"{key}: {COST} is the container's, not a load level's: drop the level")
        return cost_measure(spec, key), None
    table = measures(spec.workload.metric, spec.telemetry.count)
    measure = table.get(name)
    if measure is None:
        raise UsageError(
            f"{key}: unknown measure {name!r} (the measures: docs/experiment-spec.md; the workload's: "
            f"{spec.workload.metric.name if spec.workload.metric else 'none, no workload.metric'})"
        )
    why = not_produced(
        name, spec.telemetry, pmu=pmu_available(), containers=spec.matrix.containers is not None
    )
    if why is not None:
        raise UsageError(f"{key}: {name} is never produced by this spec: {why}")
    levels = [lv.label for lv in spec.load.levels] if spec.load else []
    if level is not None:
        if level not in levels:
            where = f"one of {', '.join(levels)}" if levels else "none: the spec has no [load]"
            raise UsageError(f"{key}: no load level {level!r} ({where})")
        if measure.of_level is None:
            raise UsageError(
                f"{key}: {name} is measured over the whole run, not per load level: drop the level"
            )
    elif measure.of_trial is None:
        if measure.of_level is not None and levels:
            raise UsageError(f"{key}: {name} is measured per load level: give one of {', '.join(levels)}")
        if measure.of_level is None:  # metric_steady: the steady state is read per variant, not per trial
            raise UsageError(f"{key}: {name} has no value per trial: use the workload's metric")
        raise UsageError(f"{key}: {name} is never produced by this spec (it needs [load] levels)")
    return measure, level


def objectives_of(spec: ExperimentSpec) -> list[Objective]:
    assert spec.tune is not None
    out = []
    for i, o in enumerate(spec.tune.objectives):
        key = f"tune.objectives[{i}]"
        measure, level = _target(spec, o.measure, o.level, f"{key}.measure")
        if o.direction is None and measure.higher_is_better is None:
            raise UsageError(
                f"{key}.direction: {o.measure} has no better direction: give maximize or minimize"
            )
        maximize = o.direction == "maximize" if o.direction else bool(measure.higher_is_better)
        out.append(Objective(measure, level, maximize))
    if len({o.text for o in out}) < len(out):
        raise UsageError("tune.objectives: the same measure twice")
    return out


def constraints_of(spec: ExperimentSpec) -> list[Constraint]:
    assert spec.tune is not None
    out = []
    for i, text in enumerate(spec.tune.constraints):
        key = f"tune.constraints[{i}]"
        m = _CONSTRAINT.match(text)
        if m is None:
            raise UsageError(
                f"{key}: {text!r}: expected MEASURE[@LEVEL] OP NUMBER, e.g. 'rss_peak_mb <= 2048'"
            )
        name, level, op, bound = m.groups()
        measure, level = _target(spec, name, level, key)
        out.append(Constraint(measure, level, op, float(bound)))
    return out
