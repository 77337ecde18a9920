"""`jvmlab advise ... --verify`: the top recommendations run as a follow-up experiment against the current
flags; each comes out confirmed, not confirmed or harmful (jvmlab.verify), stored with that experiment and
shown. The advice comes from a spec run first, a stored experiment, or a log with --workload SPEC."""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

from jvmlab.advise import Advice
from jvmlab.cli.output import print_renderables
from jvmlab.errors import UsageError
from jvmlab.experiment.spec import ExperimentSpec
from jvmlab.verify import Candidate, RecommendationResult

VERIFICATION_KEY = "verification"


@dataclass(frozen=True)
class Subject:
    """What is verified: one advice, the workload it came from, the JDK and the flags it ran with."""

    advice: Advice
    spec: ExperimentSpec
    jdk: str
    flags: tuple[str, ...]
    source: str  # "experiment 12 (api), variant temurin-17.0.9/default" or the log's path
    container: str | None = None  # the variant's container ([matrix.containers]): the follow-up runs in it


@dataclass(frozen=True)
class VerifyOptions:
    db: str | None
    runs: Path
    top: int
    repetitions: int | Literal["auto"] | None  # None: "auto"


def subject_of_experiment(
    db: str | None, ref: str, advices: Sequence[Advice], variant: str | None
) -> Subject:
    """The variant to verify: `variant`, else the first whose advice changes flags."""
    from jvmlab.experiment.spec import stored_spec
    from jvmlab.experiment.storage import Store

    chosen = [a for a in advices if variant is None or a.name == variant]
    if variant is not None and not chosen:
        names = ", ".join(a.name for a in advices)
        raise UsageError(f"--variant {variant}: not a variant of experiment {ref} ({names})")
    with_changes = [a for a in chosen if any(f.recommendation.changes_flags for f in a.findings)]
    advice = (with_changes or chosen)[0]
    store = Store.open(db)
    try:
        exp = store.experiment(ref)
        assert exp is not None
        trial = next(t for t in store.trials(exp.id) if t.variant == advice.name)
        spec = stored_spec(exp.spec, experiment=f"{exp.name} (#{exp.id})")
    finally:
        store.close()
    source = f"experiment {exp.id} ({exp.name}), variant {advice.name}"
    return Subject(advice, spec, trial.jdk, tuple(str(f) for f in trial.flags), source, trial.container)


def subject_of_log(advice: Advice, workload: Path, flags: Sequence[str], jdk: str | None) -> Subject:
    from jvmlab.experiment.spec import load_spec

    spec = load_spec(workload)
    chosen = jdk or (str(advice.jdk_major) if advice.jdk_major else spec.matrix.jdks[0])
    return Subject(advice, spec, chosen, tuple(flags), advice.name)


def verify(subject: Subject, options: VerifyOptions) -> list[RecommendationResult]:
    """Runs the follow-up experiment and judges each recommendation; stores the verdicts with it."""
    from jvmlab.cli.run import RunOptions, execute
    from jvmlab.verify import candidates, follow_up_spec

    cands = candidates(
        subject.advice, subject.flags, has_levels=subject.spec.load is not None, top=options.top
    )
    if not cands:
        raise UsageError(
            f"{subject.source}: no finding recommends a flag change with a measurable effect: "
            "nothing to verify"
        )
    repetitions = options.repetitions or "auto"
    spec = follow_up_spec(
        subject.spec, subject.jdk, subject.flags, cands, repetitions=repetitions, container=subject.container
    )
    text = "# made by jvmlab advise --verify\n" + json.dumps(spec.model_dump(mode="json"), indent=1)
    experiment, trials = execute(spec, text, RunOptions(Path("-"), options.db, options.runs))
    results = judge_and_store(options.db, experiment, trials, cands, subject)
    from jvmlab.report.advice.verification import verification_renderable

    print_renderables([verification_renderable(subject.source, results)])
    return results


def judge_and_store(
    db: str | None, experiment: int, trials: list, cands: list[Candidate], subject: Subject
) -> list[RecommendationResult]:
    from jvmlab.experiment.analysis.comparison import stored_comparison
    from jvmlab.experiment.storage import Store
    from jvmlab.verify import verification_results

    store = Store.open(db)
    try:
        comparison = stored_comparison(store, str(experiment))
        results = verification_results(comparison, trials, cands)
        stored = {"source": subject.source, "results": [r.model_dump(mode="json") for r in results]}
        store.add_to_environment(experiment, VERIFICATION_KEY, stored)
    finally:
        store.close()
    return results
