"""Running an experiment: resolve the JDKs, validate every JDK x flag set before any trial runs, plan, store
the plan, run the trials through an executor (one by one on this machine by default, or one per node of a
cluster: executor.py), each committed when it ends, and resume what an interrupted run left.

The library never prints: what happens is reported to a `Progress` (the CLI draws it), and the results are in
the store.
"""

from __future__ import annotations

import hashlib
import json
import time
from collections import deque
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol, runtime_checkable

from jvmlab import host
from jvmlab.container import Limits
from jvmlab.errors import InputError, JvmLabError, os_error_reason
from jvmlab.experiment.execution import interrupt
from jvmlab.experiment.execution.containers import check_containers
from jvmlab.experiment.execution.counting import check_counting
from jvmlab.experiment.execution.executor import Executor, Finished, LocalExecutor, TrialJob
from jvmlab.experiment.execution.planner import PlannedTrial, Variant, plan, round_of, variants
from jvmlab.experiment.execution.trial import TrialSetup
from jvmlab.experiment.execution.verdict import FlagVerdict
from jvmlab.experiment.spec import ExperimentSpec
from jvmlab.experiment.storage import FAILED, PENDING, Store, TrialOutcome, TrialRow
from jvmlab.jdk.vendors import read_release


class JdkLike(Protocol):
    """What the runner needs of a JDK (jvmlab.jdk.discovery.Jdk)."""

    @property
    def name(self) -> str: ...
    @property
    def home(self) -> Path: ...
    @property
    def major(self) -> int: ...
    @property
    def version(self) -> str: ...
    @property
    def java(self) -> Path: ...


# A trial whose node is lost this many times fails (it may be what brings its nodes down).
MAX_LOSSES = 3

ResolveJdks = Callable[[Sequence[str]], list[Any]]
# (JDKs, flag sets by name) -> verdict per (JDK name, flag set name); the checks may run in parallel.
# (JDKs, flag sets, container limits or None) -> (JDK, flag set) -> verdict
CheckFlags = Callable[
    [Sequence[Any], Mapping[str, Sequence[str]], Limits | None], dict[tuple[str, str], FlagVerdict]
]


class Progress(Protocol):
    """What a run reports as it goes (the CLI draws a progress bar from it)."""

    def trial_started(self, trial: TrialRow, done: int, total: int) -> None: ...
    # Returns a reason to stop the running trial early (jvmlab tune's pruner), or None.
    def metric(self, t_s: float, value: float) -> str | None: ...
    def trial_finished(self, trial: TrialRow, outcome: TrialOutcome, done: int, total: int) -> None: ...


@runtime_checkable
class LossProgress(Protocol):
    """A Progress that is also told when a node is lost under a trial (which then runs again)."""

    def trial_lost(self, trial: TrialRow, node: str | None, reason: str) -> None: ...


class Silent:
    def trial_started(self, trial: TrialRow, done: int, total: int) -> None:
        pass

    def metric(self, t_s: float, value: float) -> None:
        pass

    def trial_finished(self, trial: TrialRow, outcome: TrialOutcome, done: int, total: int) -> None:
        pass


@dataclass(frozen=True)
class Plan:
    """What an experiment will run: the JDKs, the verdict on each JDK x flag set, the trials in order."""

    spec: ExperimentSpec
    jdks: dict[str, Any]
    verdicts: dict[str, FlagVerdict]  # by variant key, in matrix order (JDKs, then flag sets)
    trials: list[PlannedTrial]

    @property
    def rejected(self) -> dict[str, FlagVerdict]:
        return {k: v for k, v in self.verdicts.items() if not v.accepted}

    @property
    def variants(self) -> list[Variant]:
        """In matrix order: JDKs as resolved, flag sets as in the spec."""
        by_key = {t.variant.key: t.variant for t in self.trials}
        return [by_key[key] for key in self.verdicts]

    def round(self, repetition: int) -> list[PlannedTrial]:
        """Round `repetition` (from 1) of the interleaved order: what `repetitions = "auto"` adds after a
        look."""
        return round_of(
            self.variants, repetition, seed=self.spec.matrix.seed, levels=_fresh_levels(self.spec)
        )


def make_plan(spec: ExperimentSpec, resolve: ResolveJdks, check: CheckFlags) -> Plan:
    """Resolves the spec's JDKs and checks every JDK x flag set (rejections are kept, not raised)."""
    jdks = {j.name: j for j in resolve(spec.matrix.jdks)}
    if not jdks:
        raise JvmLabError(
            f"matrix.jdks = {spec.matrix.jdks}: no JDK matches; `jvmlab jdks` lists what is installed"
        )
    check_counting(spec, jdks.values())  # what a JDK cannot count is refused before anything runs
    applies = _flag_set_jdks(spec, jdks, resolve)
    containers = spec.matrix.container_limits()
    if containers is not None and any(not limits.unlimited for limits in containers.values()):
        check_containers(containers)  # no cgroup can be made: one line before any trial
    named = list(containers) if containers is not None else None
    all_variants = [v for v in variants(list(jdks), _flag_lists(spec), named) if v.jdk in applies[v.flag_set]]
    # One check per set of JDKs (the checks run in parallel), and per container with limits: in it, where the
    # JVM's ergonomics are the container's.
    checked: dict[tuple[str, str, str | None], FlagVerdict] = {}
    limited = {name: lim for name, lim in (containers or {}).items() if not lim.unlimited}
    for names, group in _groups(applies).items():
        sets = {fs: _flag_lists(spec)[fs] for fs in group}
        outside = [(None, None)] if len(limited) < len(containers or {None: None}) else []
        for where, limits in [*outside, *limited.items()]:
            found = check([jdks[n] for n in names], sets, limits)
            checked |= {(jdk, fs, where): verdict for (jdk, fs), verdict in found.items()}
    verdicts = {
        v.key: checked[(v.jdk, v.flag_set, v.container if v.container in limited else None)]
        for v in all_variants
    }
    levels = _fresh_levels(spec)
    trials = plan(
        all_variants,
        spec.matrix.planned_repetitions,
        order=spec.matrix.order,
        seed=spec.matrix.seed,
        levels=levels,
    )
    return Plan(spec, jdks, verdicts, trials)


def _fresh_levels(spec: ExperimentSpec) -> list[str] | None:
    """The load levels when each takes a fresh JVM (a trial per variant x level), else None."""
    if spec.load is None or spec.load.mode != "fresh":
        return None
    return [lv.label for lv in spec.load.levels]


def _flag_lists(spec: ExperimentSpec) -> dict[str, list[str]]:
    return {name: fs.flags for name, fs in spec.matrix.flag_sets().items()}


def _flag_set_jdks(
    spec: ExperimentSpec, jdks: Mapping[str, Any], resolve: ResolveJdks
) -> dict[str, list[str]]:
    """Per flag set, the names of the experiment's JDKs it applies to (in the experiment's order)."""
    out = {}
    for name, fs in spec.matrix.flag_sets().items():
        if fs.jdks is None:
            out[name] = list(jdks)
            continue
        chosen = {j.name for j in resolve(fs.jdks)}
        out[name] = [n for n in jdks if n in chosen]
        if not out[name]:
            raise JvmLabError(
                f"matrix.flags.{name}.jdks = {fs.jdks}: none of the experiment's JDKs ({', '.join(jdks)}); "
                "widen matrix.jdks or change the selection"
            )
    return out


def _groups(applies: Mapping[str, list[str]]) -> dict[tuple[str, ...], list[str]]:
    """Flag sets grouped by the JDKs they apply to."""
    groups: dict[tuple[str, ...], list[str]] = {}
    for flag_set, names in applies.items():
        groups.setdefault(tuple(names), []).append(flag_set)
    return groups


def rejection_error(p: Plan) -> JvmLabError:
    lines = [f"{key}: {v.message or 'rejected'}" for key, v in p.rejected.items()]
    return JvmLabError(
        f"{len(lines)} JDK x flag set combination(s) rejected by the JVM: "
        + "; ".join(lines)
        + " (fix the flags, narrow matrix.jdks, or run the rest with --allow-rejected)"
    )


def spec_hash(text: str) -> str:
    return hashlib.sha256(text.encode()).hexdigest()


def jdk_info(jdk: Any, verdict: FlagVerdict | None) -> dict[str, Any]:
    return {
        "name": jdk.name,
        "home": str(jdk.home),
        "version": jdk.version,
        "major": jdk.major,
        "vendor": getattr(jdk, "vendor", None),
        "vm": getattr(jdk, "vm", None),
        "release": read_release(Path(jdk.home)),
        "warnings": list(verdict.warnings) if verdict else [],
        "ergonomics": verdict.ergonomics if verdict else {},
        "container": verdict.container if verdict else None,
    }


def trial_rows(trials: Sequence[PlannedTrial]) -> list[dict[str, Any]]:
    return [
        {
            "position": t.position,
            "key": t.key,
            "variant": t.variant.key,
            "jdk": t.variant.jdk,
            "flag_set": t.variant.flag_set,
            "container": t.variant.container,
            "flags": list(t.variant.flags),
            "repetition": t.repetition,
            "level": t.level,
        }
        for t in trials
    ]


@dataclass
class _Work:
    """The trials of one run: still to run (in plan order), in flight (by store id), how many ended."""

    todo: deque[TrialRow]
    running: dict[int, TrialRow]
    done: int
    total: int


@dataclass
class Runner:
    """Runs a planned experiment against a store. `classes` is the bundled Java classes' directory;
    `executor` is where the trials run (this machine, one at a time, unless told otherwise)."""

    store: Store
    run_root: Path
    classes: Path
    progress: Progress = field(default_factory=Silent)
    allow_rejected: bool = False
    executor: Executor = field(default_factory=LocalExecutor)
    _held: bool = field(default=False, init=False)

    @contextmanager
    def connected(self) -> Iterator[None]:
        """Keeps the executor open across several runs (jvmlab tune runs one per batch of candidates):
        one connection to a Ray cluster instead of one per run."""
        self.executor.open()
        self._held = True
        try:
            yield
        finally:
            self._held = False
            self.executor.close()

    def start(self, p: Plan, spec_text: str) -> int:
        """Stores a new experiment with its plan; returns its id."""
        if p.rejected and not self.allow_rejected:
            raise rejection_error(p)
        stamp = time.strftime("%Y%m%d-%H%M%S")
        run_dir = (self.run_root / f"{p.spec.name}-{stamp}").resolve()
        try:  # before the experiment is stored: a --runs folder that cannot be written fails at once
            run_dir.mkdir(parents=True, exist_ok=True)
        except OSError as e:
            raise InputError(
                str(self.run_root), f"cannot make the trials' folder: {os_error_reason(e)}"
            ) from None
        env = {
            "machine": host.machine(),
            "jdks": {name: jdk_info(j, None) for name, j in p.jdks.items()},
            "flag_checks": {k: _verdict_json(v) for k, v in p.verdicts.items()},
        }
        return self.store.create_experiment(
            name=p.spec.name,
            spec_hash=spec_hash(spec_text),
            spec_text=spec_text,
            spec=p.spec.model_dump(mode="json"),
            environment=env,
            run_dir=str(run_dir),
            trials=trial_rows(p.trials),
        )

    def resumable(self, p: Plan, spec_text: str) -> int:
        """The latest experiment of this spec's name started on this host (a store shared by several hosts
        holds theirs too), which must have been made from the same spec."""
        named = [e for e in self.store.experiments() if e.name == p.spec.name]
        here = host.machine().get("hostname")
        mine = [
            e for e in named if ((e.environment or {}).get("machine") or {}).get("hostname") in (None, here)
        ]
        if not mine:
            elsewhere = (
                f" (those of that name ran on other hosts: experiment {named[-1].id})" if named else ""
            )
            raise JvmLabError(
                f"--resume: no experiment named {p.spec.name!r} from this host in {self.store.url}"
                f"{elsewhere}; run without --resume"
            )
        exp = max(mine, key=lambda e: e.id)
        if exp.spec_hash != spec_hash(spec_text):
            raise JvmLabError(
                f"--resume: the spec changed since experiment {exp.id} ({p.spec.name}) started; "
                "run without --resume to start a new experiment"
            )
        return exp.id

    def run(self, experiment_id: int, p: Plan) -> list[TrialRow]:
        """Runs every unfinished trial of the experiment, started in plan order, as many at once as the
        executor can; stores each as it ends; returns all the experiment's trials at the end."""
        exp = self.store.experiment(experiment_id)
        assert exp is not None
        todo = self.store.unfinished(experiment_id)
        total = len(self.store.trials(experiment_id))
        work = _Work(deque(todo), {}, total - len(todo), total)
        self.executor.open()
        self.store.set_status(experiment_id, "running")
        try:
            while work.todo or work.running:
                self._submit_more(exp.run_dir, work, p)
                if work.running:
                    self._take(self.executor.next_finished(), work)
                interrupt.check()
        except BaseException:
            self.executor.cancel()  # Ctrl-C: no trial (nor its JVM) outlives the run
            for trial in work.running.values():  # they run again on --resume
                self.store.finish_trial(trial.id, TrialOutcome(state=PENDING, reason="interrupted"))
            self.store.set_status(experiment_id, "interrupted")
            raise
        finally:
            if not self._held:
                self.executor.close()
        self.store.set_status(experiment_id, "done")
        return self.store.trials(experiment_id)

    def _submit_more(self, run_dir: str, work: _Work, p: Plan) -> None:
        """Starts trials until the executor is full; rejected ones are stored as such on the way."""
        while work.todo and len(work.running) < self.executor.capacity():
            trial = work.todo.popleft()
            verdict = p.verdicts.get(trial.variant)
            jdk = p.jdks.get(trial.jdk)
            if verdict is not None and not verdict.accepted:
                self.store.reject_trial(trial.id, verdict.message or "flags rejected by the JVM")
                work.done += 1
            elif jdk is None:
                self.store.reject_trial(trial.id, f"JDK {trial.jdk} is no longer installed")
                work.done += 1
            else:
                self._submit(run_dir, trial, jdk, verdict, work, p)

    def _submit(
        self, run_dir: str, trial: TrialRow, jdk: Any, verdict: FlagVerdict | None, work: _Work, p: Plan
    ) -> None:
        at = f"-{_safe(trial.level)}" if trial.level else ""
        folder = Path(run_dir) / f"{trial.position:03d}-{_safe(trial.variant)}{at}-{trial.repetition}"
        setup = TrialSetup(
            trial_id=trial.key,
            java=jdk.java,
            jdk_home=jdk.home,
            jdk_major=jdk.major,
            jdk_vm=getattr(jdk, "vm", None) or "HotSpot",
            flags=tuple(trial.flags),
            run_dir=folder,
            classes=self.classes,
            level=trial.level,
            container=trial.container,
            limits=(p.spec.matrix.container_limits() or {}).get(trial.container or ""),
        )
        job = TrialJob(trial.id, p.spec, setup, jdk.name, on_metric=self.progress.metric)
        node = self.executor.submit(job)
        work.running[trial.id] = trial
        self.store.start_trial(
            trial.id, run_dir=str(folder), argv=[str(jdk.java)], jdk_info=jdk_info(jdk, verdict)
        )
        self.store.set_trial_node(trial.id, node)
        trial.node = node
        self.progress.trial_started(trial, work.done, work.total)

    def _take(self, end: Finished, work: _Work) -> None:
        """Stores a trial that ended, or queues it again (first) when the node under it was lost."""
        trial = work.running.pop(end.job.trial_id)
        outcome = end.outcome
        if outcome is None:
            reason = end.lost or "node lost"
            losses = self.store.record_loss(trial.id, node=end.node, reason=reason)
            if isinstance(self.progress, LossProgress):
                self.progress.trial_lost(trial, end.node, reason)
            if losses < MAX_LOSSES:
                work.todo.appendleft(trial)
                return
            outcome = TrialOutcome(
                state=FAILED, reason=f"{losses} nodes lost under this trial (last: {reason})"
            )
        self.store.finish_trial(trial.id, outcome)
        work.done += 1
        self.progress.trial_finished(trial, outcome, work.done, work.total)


def _safe(text: str) -> str:
    return "".join(c if c.isalnum() or c in "._-" else "_" for c in text)


def _verdict_json(v: FlagVerdict) -> dict[str, Any]:
    return json.loads(
        json.dumps(
            {
                "accepted": v.accepted,
                "message": v.message,
                "warnings": list(v.warnings),
                "flags_final": v.flag_table,  # the advice's rules read the values in force
            }
        )
    )
