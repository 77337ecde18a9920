"""A tuning run from a spec with `[tune]`: the JDK and its search space, the tuning experiment (this worker's
trials) and the study (shared by every worker of the spec on the store), the search, and what it found."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from jvmlab.errors import JvmLabError, UsageError
from jvmlab.experiment.execution.containers import check_containers
from jvmlab.experiment.execution.run import Plan, Runner, spec_hash
from jvmlab.experiment.execution.verdict import FlagVerdict
from jvmlab.experiment.spec import ExperimentSpec
from jvmlab.host import usable_cpus
from jvmlab.tune.objectives import Constraint, Objective, constraints_of, objectives_of
from jvmlab.tune.pruning import make_pruner
from jvmlab.tune.results import TuneResult, best_of, candidates_of, importance
from jvmlab.tune.search import Events, Search
from jvmlab.tune.space import Space, build_space, probes
from jvmlab.tune.study import make_sampler, open_study, study_name

if TYPE_CHECKING:
    import optuna

ResolveJdks = Callable[[Sequence[str]], list[Any]]
CheckFlags = Callable[[Sequence[Any], Mapping[str, Sequence[str]]], dict[tuple[str, str], FlagVerdict]]
STUDY_KEY = "tune"  # the experiment's environment: which study it belongs to


@dataclass(frozen=True)
class Setup:
    """What a tuning run works with, before anything runs: `jvmlab tune --dry-run` shows it."""

    spec: ExperimentSpec
    jdk: Any
    defaults: FlagVerdict  # the JDK without flags: its flag table decides what the space may hold
    space: Space
    objectives: list[Objective]
    constraints: list[Constraint]


def prepare(spec: ExperimentSpec, resolve: ResolveJdks, check: CheckFlags) -> Setup:
    """The JDK tuned on, its built-in space (and the user's), objectives and constraints; UsageError naming
    the key for what cannot be tuned."""
    tune = spec.tune
    if tune is None:
        raise UsageError("the spec has no [tune] section: jvmlab tune needs objectives, a budget and a space")
    objectives, constraints = objectives_of(spec), constraints_of(spec)
    limited = {c: lim for c, lim in (spec.matrix.container_limits() or {}).items() if c in tune.containers}
    if limited:
        check_containers(limited)  # no cgroup can be made here: one line before the search
    selection = tune.jdk or spec.matrix.jdks[0]
    found = resolve([selection])
    if not found:
        raise JvmLabError(f"tune.jdk = {selection!r}: no JDK matches; `jvmlab jdks` lists what is installed")
    jdk = found[0]
    defaults = check([jdk], {"defaults": []})[(jdk.name, "defaults")]
    if not defaults.accepted or not defaults.flag_table:
        raise JvmLabError(
            f"{jdk.name}: cannot read its flags ({defaults.message or 'no -XX:+PrintFlagsFinal'})"
        )
    cpus = usable_cpus()
    space = build_space(
        major=jdk.major,
        have=set(defaults.flag_table),
        cpus=cpus,
        builtin=tune.builtin,
        exclude=tune.exclude,
        params=tune.params,
        heap_mb=tune.heap_mb,
    )
    _try_user_dimensions(space, tune.params, jdk, check)
    return Setup(spec, jdk, defaults, space, objectives, constraints)


def _try_user_dimensions(space: Space, params: Mapping[str, Any], jdk: Any, check: CheckFlags) -> None:
    """Every value of the user's dimensions started once on the JVM (in parallel): one it refuses would
    waste the search's trials, so it is an error naming the parameter."""
    sets = {
        f"{d.name}:{i}": flags.split()
        for d in space.dimensions
        if d.name in params
        for i, flags in enumerate(probes(d))
    }
    if not sets:
        return
    verdicts = check([jdk], sets)
    for key, flags in sets.items():
        v = verdicts[(jdk.name, key)]
        if not v.accepted:
            name = key.rsplit(":", 1)[0]
            raise UsageError(
                f"tune.params.{name}: {jdk.name} refuses {' '.join(flags)}: {v.message or 'rejected'}"
            )


def tune(
    setup: Setup,
    spec_text: str,
    runner: Runner,
    check: CheckFlags,
    events: Events,
    *,
    resume: bool = False,
) -> tuple[int, optuna.Study, TuneResult]:
    """Runs the search until the budget is spent; (this worker's experiment, the study, the result)."""
    spec, jdk = setup.spec, setup.jdk
    assert spec.tune is not None
    plan = Plan(spec, {jdk.name: jdk}, {}, [])
    experiment = runner.resumable(plan, spec_text) if resume else runner.start(plan, spec_text)
    name = study_name(spec.name, spec_hash(spec_text))
    runner.store.add_to_environment(experiment, STUDY_KEY, {"study": name, "jdk": jdk.name})
    directions = [o.direction for o in setup.objectives]
    # Workers sharing a study each draw their own points (the spec's seed and their experiment's id).
    sampler = make_sampler(
        spec.tune.algorithm, len(directions), spec.tune.seed + experiment, spec.tune.budget.trials
    )
    pruner = make_pruner(spec, setup.objectives)
    study = open_study(runner.store.url, name, directions, sampler, pruner)

    def check_one(flags: Sequence[str]) -> FlagVerdict:
        return check([jdk], {"candidate": list(flags)})[(jdk.name, "candidate")]

    search = Search(
        spec, runner.store, runner, experiment, jdk, check_one, study, setup.space,
        setup.objectives, setup.constraints, events, pruner,
    )  # fmt: skip
    with runner.connected():
        search.run()
    runner.store.set_status(experiment, "done")
    return experiment, study, result_of(study, setup, runner.store)


def result_of(study: optuna.Study, setup: Setup, store: Any) -> TuneResult:
    cands = candidates_of(study, store, setup.objectives, setup.constraints)
    return TuneResult(
        setup.objectives,
        setup.constraints,
        cands,
        best_of(cands, setup.objectives),
        importance(study, setup.objectives[0]),
        list(setup.space.left_out),
    )


def stored_result(store: Any, experiment: Any) -> TuneResult | None:
    """What the study of a stored tuning experiment found (for its report); None when the experiment was
    not a tuning run, or its study is not in the store."""
    import optuna

    from jvmlab.experiment.spec import stored_spec

    name = ((experiment.environment or {}).get(STUDY_KEY) or {}).get("study")
    if not name or not experiment.spec:
        return None
    spec = stored_spec(experiment.spec, experiment=f"{experiment.name} (#{experiment.id})")
    if spec.tune is None:
        return None
    objectives, constraints = objectives_of(spec), constraints_of(spec)
    try:
        study = optuna.load_study(study_name=name, storage=store.url)
    except KeyError:
        return None
    cands = candidates_of(study, store, objectives, constraints)
    return TuneResult(
        objectives, constraints, cands, best_of(cands, objectives), importance(study, objectives[0]), []
    )
