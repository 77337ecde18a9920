"""Repetitions until decided (`repetitions = "auto"`): an experiment runs in interleaved rounds, and after
each round from the first look on, its primary measures (experiment.analysis.measures.primary_measures) are
judged against their baselines at the look's share of alpha (stats.sequential). Rounds are added until
every one is decided (changed beyond the threshold, or equivalent within it) or the budget is spent
(`max_repetitions` rounds, `max_minutes`); the finished experiment's comparison judges them at the last
look's share, so that what stopped the rounds is what the report says.

The noise of every run (the coefficient of variation of single runs of the primary measure, per JDK) is kept
in the experiment's environment: the next run of the same workload reads it before its first trial and says
the smallest change its budget can detect (docs/methodology.md#repetitions-until-decided).
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass

from jvmlab.experiment.analysis.comparison import Comparison, sequential_plan, stored_comparison
from jvmlab.experiment.execution.run import Plan, Runner, trial_rows
from jvmlab.experiment.spec import ExperimentSpec
from jvmlab.experiment.storage import Store, TrialRow
from jvmlab.stats import (
    SequentialPlan,
    Verdict,
    coefficient_of_variation_percent,
    confidence_text,
    directed,
)

NOISE_KEY = "noise"  # the experiment environment's key of the measured noise
ROUNDS_KEY = "rounds"  # ... and of the looks of an "auto" experiment
# How many earlier experiments of the same name the noise history reads (the latest).
HISTORY = 5

DECIDED, MAX_REPETITIONS, MAX_MINUTES = "decided", "max_repetitions", "max_minutes"


@dataclass(frozen=True)
class PrimaryVerdict:
    """One primary measure of one variant against its baseline (at one load level) at a look."""

    variant: str
    baseline: str
    level: str | None
    measure: str
    verdict: Verdict
    noise_percent: float | None  # the larger CV of single runs of the two sides
    higher_is_better: bool | None = None  # the measure's better direction (None: neither)

    @property
    def label(self) -> str:
        at = f" at {self.level}" if self.level else ""
        return f"{self.measure}{at}, {self.variant} vs {self.baseline}"

    def to_json(self) -> dict[str, object]:
        c = self.verdict.change
        return {
            "label": self.label,
            "outcome": directed(self.verdict.outcome, self.higher_is_better),
            "percent": c.percent,
            "ci_low_percent": c.ci_low_percent,
            "ci_high_percent": c.ci_high_percent,
            "ci_level": c.level,
            "noise_percent": self.noise_percent,
        }


@dataclass(frozen=True)
class Look:
    rounds: int
    plan: SequentialPlan
    verdicts: tuple[PrimaryVerdict, ...]
    noise: dict[str, float]  # JDK -> the largest CV of single runs of a primary measure among its variants

    @property
    def decided(self) -> bool:
        """Every primary verdict decided; also when there is none to judge (no baseline, or the primary
        measures are not measured): more rounds would not change that."""
        return all(v.verdict.decided for v in self.verdicts)

    @property
    def undecided(self) -> tuple[PrimaryVerdict, ...]:
        return tuple(v for v in self.verdicts if not v.verdict.decided)

    @property
    def noise_percent(self) -> float | None:
        return max(self.noise.values(), default=None)

    @property
    def level(self) -> float:
        """The look's share of alpha."""
        return self.plan.level_at(self.rounds)

    def text(self, stopped: str | None = None) -> str:
        """One line for the run's log: what this look decided, what it did not, and why the rounds stop."""
        decided = len(self.verdicts) - len(self.undecided)
        noise = f", noise CV {self.noise_percent:.1f}%" if self.noise_percent is not None else ""
        parts = [f"look after {self.rounds} rounds: {decided} of {len(self.verdicts)} decided{noise}"]
        for v in self.undecided[:3]:
            c = v.verdict.change
            size = f" {c.percent:+.1f}% ({c.ci_text()})" if c.percent is not None else ""
            parts.append(f"{v.label}: inconclusive{size}")
        if len(self.undecided) > 3:
            parts.append(f"and {len(self.undecided) - 3} more")
        ending = {
            DECIDED: "every primary verdict decided: no more rounds",
            MAX_REPETITIONS: f"budget spent ({self.plan.max_repetitions} rounds): the rest is inconclusive",
            MAX_MINUTES: "time budget spent (max_minutes): the rest is inconclusive",
        }
        if stopped is not None:
            parts.append(ending[stopped])
        d = self.noise_percent
        if (
            d is not None
            and stopped is None
            and self.plan.detectable_percent(d) > self.plan.threshold_percent
        ):
            parts.append(
                f"at this noise the budget detects {self.plan.detectable_percent(d):.1f}% or more, not the "
                f"±{self.plan.threshold_percent:g}% threshold"
            )
        return "; ".join(parts)

    def to_json(self) -> dict[str, object]:
        return {
            "rounds": self.rounds,
            "alpha_share": self.level,
            "decided": self.decided,
            "undecided": [v.label for v in self.undecided],
            "noise_percent": self.noise_percent,
            "verdicts": [v.to_json() for v in self.verdicts],
        }


@dataclass(frozen=True)
class StoredVerdict:
    """A primary verdict at a look, as the experiment's environment keeps it."""

    label: str
    outcome: str
    percent: float | None
    ci_low_percent: float | None
    ci_high_percent: float | None
    ci_level: float | None
    noise_percent: float | None


@dataclass(frozen=True)
class StoredLook:
    rounds: int
    alpha_share: float
    noise_percent: float | None
    verdicts: tuple[StoredVerdict, ...]  # empty for experiments stored before the looks kept them
    undecided: tuple[str, ...]


@dataclass(frozen=True)
class Rounds:
    """The looks of a finished (or running) `repetitions = "auto"` experiment and why its rounds stopped
    (None while it runs)."""

    looks: tuple[StoredLook, ...]
    stopped: str | None


def stored_rounds(environment: dict | None) -> Rounds | None:
    """The rounds kept in an experiment's environment; None for a fixed number of repetitions."""
    kept = (environment or {}).get(ROUNDS_KEY)
    if not isinstance(kept, dict):
        return None
    looks = []
    for x in kept.get("looks") or []:
        verdicts = tuple(
            StoredVerdict(
                str(v.get("label", "")),
                str(v.get("outcome", "")),
                v.get("percent"),
                v.get("ci_low_percent"),
                v.get("ci_high_percent"),
                v.get("ci_level"),
                v.get("noise_percent"),
            )  # fmt: skip
            for v in x.get("verdicts") or []
        )
        looks.append(
            StoredLook(
                int(x.get("rounds", 0)),
                float(x.get("alpha_share", 0.0)),
                x.get("noise_percent"),
                verdicts,
                tuple(str(u) for u in x.get("undecided") or []),
            )  # fmt: skip
        )
    return Rounds(tuple(looks), kept.get("stopped"))


def look(comparison: Comparison, rounds: int) -> Look:
    """The verdicts of the primary measures of a `repetitions = "auto"` experiment's comparison."""
    plan = comparison.sequential
    assert plan is not None, "a look is for an experiment with repetitions = 'auto'"
    return Look(rounds, plan, primary_verdicts(comparison), noise_by_jdk(comparison))


def primary_verdicts(c: Comparison) -> tuple[PrimaryVerdict, ...]:
    found = []
    for block in c.blocks:
        for info in c.variants:
            if info.baseline is None or info.baseline == info.variant:
                continue
            for measure in c.primary:
                cells = block.cells.get(measure, {})
                cell, base = cells.get(info.variant), cells.get(info.baseline)
                if cell is None or base is None or cell.verdict is None:
                    continue
                noise = _larger(
                    coefficient_of_variation_percent(base.values),
                    coefficient_of_variation_percent(cell.values),
                )
                known = c.measures.get(measure)
                better = known.higher_is_better if known is not None else None
                found.append(
                    PrimaryVerdict(
                        info.variant, info.baseline, block.level, measure, cell.verdict, noise, better
                    )
                )
    return tuple(found)


def noise_by_jdk(c: Comparison) -> dict[str, float]:
    """JDK -> the largest coefficient of variation of single runs of a primary measure among its variants
    (and load levels): the noise a comparison on that JDK has to see through."""
    noise: dict[str, float] = {}
    for block in c.blocks:
        for info in c.variants:
            for measure in c.primary:
                cell = block.cells.get(measure, {}).get(info.variant)
                cv = coefficient_of_variation_percent(cell.values) if cell is not None else None
                if cv is not None:
                    noise[info.jdk] = max(noise.get(info.jdk, 0.0), cv)
    return noise


def _larger(a: float | None, b: float | None) -> float | None:
    known = [x for x in (a, b) if x is not None]
    return max(known) if known else None


def noise_history(
    store: Store, name: str, jdks: Iterable[str], *, before: int | None = None
) -> dict[str, float]:
    """JDK -> the noise measured by the latest earlier experiments of this name (HISTORY of them) on it."""
    wanted = set(jdks)
    earlier = [e for e in store.experiments() if e.name == name and (before is None or e.id < before)]
    found: dict[str, float] = {}
    for exp in sorted(earlier, key=lambda e: e.id, reverse=True)[:HISTORY]:
        for jdk, cv in ((exp.environment or {}).get(NOISE_KEY) or {}).items():
            if jdk in wanted and jdk not in found and isinstance(cv, int | float):
                found[jdk] = float(cv)
    return found


@dataclass(frozen=True)
class Budget:
    """What a `repetitions = "auto"` plan can tell at a given noise, said before the first trial."""

    plan: SequentialPlan
    noise: dict[str, float]  # JDK -> CV of single runs, from the history (empty: not measured yet)

    @property
    def noise_percent(self) -> float | None:
        return max(self.noise.values(), default=None)

    @property
    def detectable_percent(self) -> float | None:
        n = self.noise_percent
        return None if n is None else self.plan.detectable_percent(n)

    @property
    def too_small(self) -> bool:
        """Whether the budget cannot detect a change of the threshold at this noise."""
        d = self.detectable_percent
        return d is not None and d > self.plan.threshold_percent

    def text(self) -> str:
        p = self.plan
        head = (
            f"repetitions auto: {p.min_repetitions} to {p.max_repetitions} a variant, a look after each round"
            f" from round {p.min_repetitions} on, {confidence_text(1 - p.alpha)} over all the looks"
        )
        n, d = self.noise_percent, self.detectable_percent
        if n is None or d is None:
            return head + "; noise not measured yet: the first look says what the budget can detect"
        return head + (
            f"; at the noise measured before (CV {n:.1f}%) the budget detects changes of {d:.1f}% or more"
            + (f", not the ±{p.threshold_percent:g}% threshold: expect inconclusive verdicts; raise "
               "max_repetitions, or quieten the machine" if self.too_small else "")
        )  # fmt: skip


def budget(spec: ExperimentSpec, store: Store, jdks: Iterable[str]) -> Budget | None:
    """The plan's budget at the noise kept in the store (None without `repetitions = "auto"`)."""
    plan = sequential_plan(spec)
    return None if plan is None else Budget(plan, noise_history(store, spec.name, jdks))


def run_rounds(
    runner: Runner,
    experiment_id: int,
    plan: Plan,
    on_look: Callable[[Look, str | None], None] = lambda look, stopped: None,
    clock: Callable[[], float] = time.monotonic,
) -> list[TrialRow]:
    """Runs the experiment's trials; with `repetitions = "auto"`, then a round at a time until its primary
    measures are decided or its budget is spent. Keeps the noise measured (and the looks) in its
    environment."""
    matrix, store = plan.spec.matrix, runner.store
    started = clock()
    looks: list[dict[str, object]] = []
    with runner.connected():
        while True:
            round_started = clock()
            trials = runner.run(experiment_id, plan)
            comparison = stored_comparison(store, str(experiment_id))
            noise = noise_by_jdk(comparison)
            if noise:
                store.add_to_environment(experiment_id, NOISE_KEY, noise)
            if not matrix.auto:
                return trials
            rounds = max((t.repetition for t in trials), default=0)
            found = look(comparison, rounds)
            looks.append(found.to_json())
            # another round would end after the time budget: stop now
            late = matrix.max_minutes is not None and (
                2 * clock() - started - round_started > matrix.max_minutes * 60
            )
            stop = (
                DECIDED if found.decided
                else MAX_REPETITIONS if rounds >= matrix.max_repetitions
                else MAX_MINUTES if late
                else None
            )  # fmt: skip
            store.add_to_environment(experiment_id, ROUNDS_KEY, {"looks": looks, "stopped": stop})
            on_look(found, stop)
            if stop is not None:
                return trials
            store.add_trials(experiment_id, trial_rows(plan.round(rounds + 1)))
