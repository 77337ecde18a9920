"""The search of `jvmlab tune` (docs/tune.md#search): Optuna asks for a point of the space, jvmlab measures it
as trials of the tuning experiment (a flag set per candidate, `c0007`), Optuna is told the means.

What keeps it honest:
- a configuration the JVM rejects is told as failed with the JVM's words, for the cost of one flag check,
  and is never measured; a crashed one is failed with its trials' reason;
- a configuration already measured (or rejected, or being measured) is not measured again: the proposal
  is told as failed with `duplicate_of` the earlier number, and costs no budget;
- a candidate that may be the best is measured again up to `promising_repetitions`, and so is the
  incumbent, so that one lucky run cannot win (the best is chosen among the most repeated: results.py);
- with one objective that is the workload's metric, a candidate's first trial reports its running mean to
  Optuna's pruner, which stops it when it trails most earlier candidates at the same time (`pruned`).
"""

from __future__ import annotations

import statistics
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Protocol

from jvmlab.errors import UsageError
from jvmlab.experiment.execution.run import Plan, Runner
from jvmlab.experiment.execution.verdict import FlagVerdict
from jvmlab.experiment.spec import ExperimentSpec
from jvmlab.experiment.storage import OK, PRUNED, Store, TrialRow, variant_key
from jvmlab.tune.objectives import Constraint, Objective, Target
from jvmlab.tune.pruning import PruningProgress
from jvmlab.tune.space import Space
from jvmlab.tune.study import CONSTRAINTS_ATTR

if TYPE_CHECKING:
    import optuna

FLAGS_ATTR, VARIANT_ATTR, EXPERIMENT_ATTR = "flags", "flag_set", "experiment"
CONTAINER = "container"  # the parameter (and user attribute) of a candidate's container (tune.containers)
REASON_ATTR, DUPLICATE_ATTR, MEASURED_ATTR = "reason", "duplicate_of", "measured"
INTERRUPTED = "interrupted before it was measured"
CLAIMED_ATTR = "claimed_at"  # when the proposal claimed its flags (epoch seconds): the first claim measures
RANDOM_AFTER_DUPLICATES = 5  # proposals already measured in a row before an unmeasured random point
RANDOM_TRIES = 500  # random draws to find an unmeasured point before the space counts as exhausted


def tell_duplicate(study: optuna.Study, trial: optuna.Trial, earlier: optuna.trial.FrozenTrial) -> None:
    """A proposal measured before: TPE and random search are told the earlier result, so that their model
    moves on (told as failed, TPE ignores it and proposes the point again and again); NSGA-II is told it
    failed, so that copies of one point do not fill its population."""
    import optuna

    nsga = isinstance(study.sampler, optuna.samplers.NSGAIISampler)
    if earlier.state == optuna.trial.TrialState.COMPLETE and not nsga:
        violations = earlier.user_attrs.get(CONSTRAINTS_ATTR, [])
        trial.set_user_attr(CONSTRAINTS_ATTR, violations)
        for key, v in earlier.system_attrs.items():  # where Trial.set_constraint keeps them
            if key.startswith("constraints:"):
                trial.set_constraint(key.removeprefix("constraints:"), v)
        study.tell(trial, earlier.values)
    else:
        study.tell(trial, state=optuna.trial.TrialState.FAIL)


def candidate_key(flags: Sequence[str], container: str | None) -> str:
    """What makes two candidates the same: their flags, and their container where the search has one."""
    return " ".join(flags) + (f" @{container}" if container is not None else "")


def unmeasured_point(
    space: Space, tried: set[str], *, seed: int, containers: Sequence[str] = ()
) -> dict[str, Any] | None:
    """A random point of the space (and container) not in `tried`; None after RANDOM_TRIES draws."""
    import optuna

    draws = optuna.create_study(sampler=optuna.samplers.RandomSampler(seed=seed))
    for _ in range(RANDOM_TRIES):
        trial = draws.ask()
        values = space.sample(trial)
        if containers:
            values[CONTAINER] = trial.suggest_categorical(CONTAINER, list(containers))
        draws.tell(trial, 0.0)
        if candidate_key(space.flags(values), values.get(CONTAINER)) not in tried:
            return values
    return None


def figure(v: float) -> str:
    """4 significant digits, without an exponent for the sizes measures have."""
    return f"{v:,.0f}" if abs(v) >= 1000 else f"{v:.4g}"


@dataclass(frozen=True)
class NotMeasured:
    """A candidate whose trials ran but left an objective or constraint nothing to read, and why."""

    reason: str


class _LevelEmpty(Exception):
    pass


class Events(Protocol):
    """What a search reports as it goes (the CLI prints it)."""

    def candidate(self, number: int, flags: Sequence[str], what: str) -> None: ...
    def note(self, text: str) -> None: ...


CheckFlags = Callable[[Sequence[str]], FlagVerdict]
# What to measure: (flag set, flags, repetitions, the JVM's verdict, container)
Wanted = tuple[str, list[str], int, FlagVerdict, str | None]


@dataclass
class Search:
    spec: ExperimentSpec
    store: Store
    runner: Runner
    experiment_id: int
    jdk: Any
    check: CheckFlags
    study: optuna.Study
    space: Space
    objectives: list[Objective]
    constraints: list[Constraint]
    events: Events
    pruner: optuna.pruners.BasePruner | None = None
    started: float = field(default_factory=time.monotonic)

    @property
    def tune(self) -> Any:
        assert self.spec.tune is not None
        return self.spec.tune

    # -- budget ---------------------------------------------------------------------------------------
    def measured(self) -> int:
        """Candidates measured (or failed while measured) in the whole study, by every worker."""
        return sum(1 for t in self.study.get_trials(deepcopy=False) if t.user_attrs.get(MEASURED_ATTR))

    def budget_left(self) -> bool:
        b = self.tune.budget
        if b.trials is not None and self.measured() >= b.trials:
            return False
        if b.time is not None:
            from jvmlab.durations import parse_duration

            return time.monotonic() - self.started < parse_duration(b.time, option="tune.budget.time")
        return True

    # -- the loop -------------------------------------------------------------------------------------
    def run(self) -> None:
        self.finish_interrupted()
        duplicates = 0
        while self.budget_left():
            if self.step():
                duplicates = 0
                continue
            duplicates += 1
            if duplicates >= RANDOM_AFTER_DUPLICATES:  # the sampler is stuck on what it knows
                tried = {
                    candidate_key(str(t.user_attrs.get(FLAGS_ATTR)).split(), t.user_attrs.get(CONTAINER))
                    for t in self.study.get_trials(deepcopy=False)
                }
                point = unmeasured_point(self.space, tried, seed=len(tried), containers=self.tune.containers)
                if point is None:
                    self.events.note("every configuration of the space was tried: the search ends")
                    return
                self.study.enqueue_trial(point)
                duplicates = 0

    def finish_interrupted(self) -> None:
        """Candidates of this worker's experiment left running by a run that was killed: their trials that
        did not finish run again, then Optuna is told; a proposal killed before its measuring began is
        failed as interrupted (and blocks no later proposal of its flags)."""
        import optuna

        left = []
        for t in self.study.get_trials(deepcopy=False, states=(optuna.trial.TrialState.RUNNING,)):
            if t.user_attrs.get(EXPERIMENT_ATTR) != self.experiment_id:
                continue
            if VARIANT_ATTR not in t.user_attrs:  # killed before it was measured: not tried, nor to block
                orphan = optuna.Trial(self.study, t._trial_id)
                orphan.set_user_attr(REASON_ATTR, INTERRUPTED)
                self.study.tell(orphan, state=optuna.trial.TrialState.FAIL)
                continue
            flags = list(t.user_attrs[FLAGS_ATTR].split())
            container = t.user_attrs.get(CONTAINER)
            self.events.candidate(t.number, flags, "resumed")
            trial = optuna.Trial(self.study, t._trial_id)
            left.append(_Candidate(trial, flags, self._verdict(flags), container))
        if left:
            self._measure_and_tell(left)

    def step(self) -> bool:
        """One batch of new candidates, as many as the executor runs at once (one on this machine, one
        per node on Ray); False when every proposal was a duplicate (no budget spent)."""
        width = max(1, self.runner.executor.capacity())
        b = self.tune.budget
        if b.trials is not None:
            width = min(width, b.trials - self.measured())
        batch: list[_Candidate] = []
        fresh = False
        for _ in range(max(1, width)):
            proposed, new = self._propose()
            fresh |= new
            if proposed is not None:
                batch.append(proposed)
        if batch:
            self._measure_and_tell(batch)
        return fresh

    def _propose(self) -> tuple[_Candidate | None, bool]:
        """A new point to measure (None when it was a duplicate or the JVM rejects it), and whether it
        was new (not a duplicate)."""
        import optuna

        trial = self.study.ask()
        values = self.space.sample(trial)
        flags = self.space.flags(values)
        container = (
            trial.suggest_categorical(CONTAINER, self.tune.containers) if self.tune.containers else None
        )
        claimed = time.time()
        trial.set_user_attr(FLAGS_ATTR, " ".join(flags))
        if container is not None:
            trial.set_user_attr(CONTAINER, container)
        trial.set_user_attr(CLAIMED_ATTR, claimed)
        trial.set_user_attr(EXPERIMENT_ATTR, self.experiment_id)
        earlier = self._same(candidate_key(flags, container), trial.number, claimed)
        if earlier is not None:
            trial.set_user_attr(DUPLICATE_ATTR, earlier.number)
            trial.set_user_attr(REASON_ATTR, f"duplicate of #{earlier.number}")
            tell_duplicate(self.study, trial, earlier)
            return None, False
        verdict = self._verdict(flags)
        if not verdict.accepted:
            reason = verdict.message or "rejected by the JVM"
            trial.set_user_attr(REASON_ATTR, f"rejected: {reason}")
            self.study.tell(trial, state=optuna.trial.TrialState.FAIL)
            self.events.candidate(trial.number, flags, f"rejected: {reason}")
            return None, True
        trial.set_user_attr(VARIANT_ATTR, f"c{trial.number:04d}")
        trial.set_user_attr(MEASURED_ATTR, True)
        self.events.candidate(trial.number, flags, "measuring" + (f" in {container}" if container else ""))
        return _Candidate(trial, flags, verdict, container), True

    def _same(self, key: str, number: int, claimed: float) -> optuna.trial.FrozenTrial | None:
        """Another trial of the study with these flags that came first: measured, rejected, or being
        measured by this worker or another. Each proposal stores its flags with the time it claimed them
        before it looks, so of two workers proposing one point at once at least one sees the other, and
        both agree which came first (claim time, then trial number)."""
        import optuna

        live = (
            optuna.trial.TrialState.COMPLETE,
            optuna.trial.TrialState.FAIL,
            optuna.trial.TrialState.PRUNED,
            optuna.trial.TrialState.RUNNING,
        )
        mine = (claimed, number)
        for t in self.study.get_trials(deepcopy=False, states=live):
            theirs_key = candidate_key(
                str(t.user_attrs.get(FLAGS_ATTR, "")).split(), t.user_attrs.get(CONTAINER)
            )
            if t.number == number or theirs_key != key or DUPLICATE_ATTR in t.user_attrs:
                continue
            if t.user_attrs.get(REASON_ATTR) == INTERRUPTED:
                continue
            theirs = (float(t.user_attrs.get(CLAIMED_ATTR, 0.0)), t.number)
            if theirs < mine:
                return t
        return None

    def _set_constraints(self, trial: optuna.Trial, violations: Sequence[float]) -> None:
        trial.set_user_attr(CONSTRAINTS_ATTR, list(violations))
        for c, v in zip(self.constraints, violations, strict=True):
            trial.set_constraint(c.text, v)

    def _verdict(self, flags: Sequence[str]) -> FlagVerdict:
        return self.check(flags)

    # -- measuring ------------------------------------------------------------------------------------
    def _measure_and_tell(self, batch: Sequence[_Candidate]) -> None:
        """Measures the batch (its trials run together), the promising ones again with the incumbent, and
        tells Optuna each candidate's means, or that it was pruned or failed."""
        import optuna

        pruned_by = batch[0].trial if self.pruner is not None and len(batch) == 1 else None
        rows = self.measure(
            [(c.flag_set, c.flags, self.tune.repetitions, c.verdict, c.container) for c in batch], pruned_by
        )
        more = [c for c in batch if not _pruned(rows[c.flag_set]) and self._promising(rows[c.flag_set])]
        if more:
            extra = [
                (c.flag_set, c.flags, self.tune.promising_repetitions, c.verdict, c.container) for c in more
            ]
            rows |= self.measure(extra + self._incumbent_top_up({c.flag_set for c in more}), None)
        for c in batch:
            mine = rows[c.flag_set]
            if _pruned(mine):
                reason = next((t.reason for t in mine if t.state == PRUNED), None) or PRUNED
                c.trial.set_user_attr(REASON_ATTR, reason)
                self.study.tell(c.trial, state=optuna.trial.TrialState.PRUNED)
                self.events.candidate(c.trial.number, c.flags, reason)
                continue
            means = self.means(mine)
            if means is None or isinstance(means, NotMeasured):
                failed = [t for t in mine if t.state != OK]
                reason = (
                    means.reason
                    if isinstance(means, NotMeasured)
                    else failed[0].reason
                    if failed and failed[0].reason
                    else "no successful trial"
                )
                c.trial.set_user_attr(REASON_ATTR, f"failed: {reason}")
                self.study.tell(c.trial, state=optuna.trial.TrialState.FAIL)
                self.events.candidate(c.trial.number, c.flags, f"failed: {reason}")
                continue
            values, violations = means
            self._set_constraints(c.trial, violations)
            self.study.tell(c.trial, values)
            shown = ", ".join(f"{o.text} {figure(v)}" for o, v in zip(self.objectives, values, strict=True))
            broken = [k.text for k, v in zip(self.constraints, violations, strict=True) if v > 0]
            self.events.candidate(
                c.trial.number, c.flags, shown + (f" (breaks {', '.join(broken)})" if broken else "")
            )

    def measure(self, wanted: Sequence[Wanted], pruned_by: optuna.Trial | None) -> dict[str, list[TrialRow]]:
        """Runs each (flag set, flags, repetitions, verdict, container) until it has that many trials (more
        are added, unfinished ones run), all in one run of the runner; each flag set's trials."""
        have = self.store.trials(self.experiment_id)
        levels: list[str | None] = [None]
        if self.spec.load is not None and self.spec.load.mode == "fresh":
            levels = [lv.label for lv in self.spec.load.levels]
        new: list[dict[str, Any]] = []
        verdicts: dict[str, FlagVerdict] = {}
        for flag_set, flags, repetitions, verdict, container in wanted:
            variant = variant_key(self.jdk.name, flag_set, container)
            verdicts[variant] = verdict
            reps = {t.repetition for t in have if t.variant == variant}
            new += [
                {
                    "key": f"{variant}{'@' + lv if lv else ''}#{rep}",
                    "variant": variant,
                    "jdk": self.jdk.name,
                    "flag_set": flag_set,
                    "container": container,
                    "flags": list(flags),
                    "repetition": rep,
                    "level": lv,
                }
                for rep in range(1, repetitions + 1)
                if rep not in reps
                for lv in levels
            ]
        if new:
            self.store.add_trials(self.experiment_id, new)
        plan = Plan(self.spec, {self.jdk.name: self.jdk}, verdicts, [])
        progress = self.runner.progress
        if pruned_by is not None:
            self.runner.progress = PruningProgress(progress, pruned_by)
        try:
            self.runner.run(self.experiment_id, plan)
        finally:
            self.runner.progress = progress
        trials = self.store.trials(self.experiment_id)
        return {w[0]: [t for t in trials if t.flag_set == w[0]] for w in wanted}

    def means(self, rows: Sequence[TrialRow]) -> tuple[list[float], list[float]] | NotMeasured | None:
        """The objectives' means over the successful trials and the constraints' violations; None when
        no trial succeeded; NotMeasured when a load level ran but gave a measure nothing to read (no
        response came back: a candidate too small for the load). A measure the trials do not produce at
        all is the spec's mistake: UsageError."""
        ok = [t for t in rows if t.state == OK]
        if not ok:
            return None
        levels = self.store.levels(t.id for t in ok)

        def mean(target: Target, key: str) -> float:
            v = target.mean(ok, levels)
            if v is None:
                ran = target.level is not None and any(
                    lv.name == target.level for t in ok for lv in levels.get(t.id, [])
                )
                if ran:
                    raise _LevelEmpty(
                        f"no {target.measure.name}@{target.level}: no response came back at that level"
                    )
                raise UsageError(
                    f"{key}: {target.measure.name} is not produced by the trials of {ok[0].variant} "
                    "(check [telemetry] and [load] in the spec)"
                )
            return v

        try:
            values = [mean(o, f"tune.objectives[{i}]") for i, o in enumerate(self.objectives)]
            violations = [
                c.violation(mean(c, f"tune.constraints[{i}]")) for i, c in enumerate(self.constraints)
            ]
        except _LevelEmpty as e:
            return NotMeasured(str(e))
        return values, violations

    def _promising(self, rows: Sequence[TrialRow]) -> bool:
        """Worth more repetitions: with one objective better than the incumbent's mean (or within its
        spread); with several, not dominated by any candidate measured so far."""
        if self.tune.promising_repetitions <= max((t.repetition for t in rows), default=0):
            return False
        mine = self.means(rows)
        if mine is None or isinstance(mine, NotMeasured) or any(v > 0 for v in mine[1]):
            return False
        others = [v for v in self._candidate_values() if v[0] != rows[0].flag_set]
        if not others:
            return True
        signs = [1.0 if o.maximize else -1.0 for o in self.objectives]
        mine_s = [s * v for s, v in zip(signs, mine[0], strict=True)]
        if len(self.objectives) == 1:
            best = max(s[0] * v[1][0] for s, v in ((signs, o) for o in others))
            spread = statistics.pstdev([signs[0] * v[1][0] for v in others]) if len(others) > 1 else 0.0
            return mine_s[0] >= best - spread
        return not any(
            all(s * a >= b for s, a, b in zip(signs, o[1], mine_s, strict=True))
            and any(s * a > b for s, a, b in zip(signs, o[1], mine_s, strict=True))
            for o in others
        )

    def _candidate_values(self) -> list[tuple[str, list[float]]]:
        """(flag set, objective means) of every feasible candidate of this experiment."""
        by: dict[str, list[TrialRow]] = {}
        for t in self.store.trials(self.experiment_id):
            by.setdefault(t.flag_set, []).append(t)
        out = []
        for flag_set, rows in by.items():
            m = self.means(rows)
            if m is not None and not isinstance(m, NotMeasured) and not any(v > 0 for v in m[1]):
                out.append((flag_set, m[0]))
        return out

    def _incumbent_top_up(self, challengers: set[str]) -> list[Wanted]:
        """The incumbent (best mean among the others, one objective) to be measured up to
        `promising_repetitions` beside its challengers; [] when it already is."""
        if len(self.objectives) != 1:
            return []
        sign = 1.0 if self.objectives[0].maximize else -1.0
        others = [c for c in self._candidate_values() if c[0] not in challengers]
        if not others:
            return []
        incumbent = max(others, key=lambda c: sign * c[1][0])[0]
        rows = [t for t in self.store.trials(self.experiment_id) if t.flag_set == incumbent]
        if max(t.repetition for t in rows) >= self.tune.promising_repetitions:
            return []
        flags = [str(f) for f in rows[0].flags]
        self.events.note(f"re-measuring the incumbent {incumbent} against {', '.join(sorted(challengers))}")
        top_up = self.tune.promising_repetitions
        return [(incumbent, flags, top_up, self._verdict(flags), rows[0].container)]


@dataclass(frozen=True)
class _Candidate:
    """A proposal being measured: Optuna's trial, its flags, the JVM's verdict on them."""

    trial: optuna.Trial
    flags: list[str]
    verdict: FlagVerdict
    container: str | None = None  # tune.containers: the container it runs in

    @property
    def flag_set(self) -> str:
        return f"c{self.trial.number:04d}"


def _pruned(rows: Sequence[TrialRow]) -> bool:
    return any(t.state == PRUNED for t in rows)
