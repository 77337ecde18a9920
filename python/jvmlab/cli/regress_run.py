"""`jvmlab regress`: the plan made, the experiment run, read (jvmlab.regress), shown and written; with
--verify the top hint's flag run as a third variant."""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

from jvmlab.cli.output import print_renderables
from jvmlab.regress import HintMatch, Regression, RegressPlan, Verification


@dataclass(frozen=True)
class RegressOptions:
    spec: Path
    base: str
    new: str
    jdk: str | None
    flags: str | None
    repetitions: int | Literal["auto"] | None
    threshold: float
    verify: bool
    output: Path
    db: str | None
    runs: Path
    count: tuple[str, ...] = ()
    inconclusive: str = "fail"  # what an inconclusive measure does to the exit code: "fail" or "pass"


def _run_spec(plan_spec: object, db: str | None, runs: Path, why: str) -> int:
    from jvmlab.cli.run import RunOptions, execute
    from jvmlab.experiment.spec import ExperimentSpec

    assert isinstance(plan_spec, ExperimentSpec)
    text = f"# made by {why}\n" + json.dumps(plan_spec.model_dump(mode="json"), indent=1)
    experiment, _ = execute(plan_spec, text, RunOptions(Path("-"), db, runs))
    return experiment


def refused_flags(plan: RegressPlan, hints: tuple[HintMatch, ...]) -> dict[str, str]:
    """hint id -> why the new side's JDK refuses its flag (checked with -XX:+PrintFlagsFinal)."""
    from jvmlab.experiment.execution import jdks

    with_flags = [m.hint for m in hints if m.hint.flag]
    if not with_flags:
        return {}
    jdk = jdks.resolve([plan.new.jdk])[:1]
    verdicts = jdks.check(jdk, {h.id: [h.flag] for h in with_flags})
    return {
        h.id: v.message or "refused"
        for h in with_flags
        if (v := verdicts.get((jdk[0].name, h.id))) is not None and not v.accepted
    }


def verify(
    plan: RegressPlan, r: Regression, refused: dict[str, str], options: RegressOptions
) -> Verification | None:
    from jvmlab.experiment.storage import Store
    from jvmlab.regress import judge, verify_spec

    hint = next((m.hint for m in r.hints if m.hint.flag and m.hint.id not in refused), None)
    if hint is None:
        return None
    reps = plan.spec.matrix.repetitions
    spec = verify_spec(plan, hint.id, [hint.flag], reps)
    experiment = _run_spec(spec, options.db, options.runs, f"jvmlab regress --verify ({hint.id})")
    store = Store.open(options.db)
    try:
        return judge(r, store, experiment, hint.id, hint.flag)
    finally:
        store.close()


def make_folder(folder: Path) -> None:
    from jvmlab.errors import InputError, os_error_reason

    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as e:
        raise InputError(str(folder), f"cannot make the output folder: {os_error_reason(e)}") from None


def run(options: RegressOptions) -> int:
    from jvmlab.errors import write_file
    from jvmlab.experiment.execution import jdks
    from jvmlab.experiment.spec import load_spec
    from jvmlab.experiment.storage import Store
    from jvmlab.regress import analyse, plan_regress
    from jvmlab.report.html.page import write
    from jvmlab.report.regress.html import regress_page
    from jvmlab.report.regress.json_export import to_json
    from jvmlab.report.regress.text import regress_renderables

    spec = load_spec(options.spec)
    plan = plan_regress(
        spec,
        options.base,
        options.new,
        jdks.resolve,
        jdk=options.jdk,
        flag_set=options.flags,
        repetitions=options.repetitions,
        count=options.count,
    )
    make_folder(options.output)  # before the run: an unusable folder is said in seconds, not minutes
    experiment = _run_spec(plan.spec, options.db, options.runs, "jvmlab regress")
    store = Store.open(options.db)
    try:
        r = analyse(store, experiment, plan.base, plan.new, threshold_percent=options.threshold)
    finally:
        store.close()
    refused = refused_flags(plan, r.hints)
    note = ""
    verification = None
    if options.verify:
        verification = verify(plan, r, refused, options)
        if verification is None:
            note = "--verify: no hint with a flag this JDK accepts: nothing to verify"
    html, doc = options.output / "regress.html", options.output / "regress.json"
    write(regress_page(r, refused, verification), html)
    write_file(doc, to_json(r, refused, verification), what="regress JSON")
    print_renderables([*regress_renderables(r, refused, verification, note), f"wrote {html} and {doc}"])
    return r.exit_code(inconclusive_fails=options.inconclusive == "fail")
