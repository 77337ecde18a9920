"""`jvmlab advise LOG... [--flags "..."] [--jdk N] [--jfr FILE]`: what the evidence says and what to change.

Exit code 0, or 1 with `--fail-on warning|critical` when a finding is that severe (for CI); 2 for a user
mistake."""

from __future__ import annotations

import math
from dataclasses import dataclass, replace
from pathlib import Path
from typing import TYPE_CHECKING, Literal

from jvmlab.cli.inputs import labelled, split_label
from jvmlab.cli.output import print_renderables, write_output
from jvmlab.container.limits import Limits
from jvmlab.errors import UsageError
from jvmlab.jdk.options import split_command_line

if TYPE_CHECKING:
    from jvmlab.advise import Advice, Facts

FAIL_ON = ("warning", "critical")


@dataclass(frozen=True)
class AdviseOptions:
    inputs: tuple[str, ...]
    flags: str | None = None
    jdk: str | None = None
    jfr: Path | None = None
    jit: Path | None = None
    json: bool = False
    markdown: bool = False
    output: Path | None = None
    check: bool = True
    fail_on: str | None = None
    strict: bool = False
    db: str | None = None
    pid: int | None = None
    record: str | None = None
    verify: bool = False
    workload: Path | None = None
    variant: str | None = None
    top: int = 3
    repetitions: int | Literal["auto"] | None = None  # with --verify; None: "auto"
    runs: Path = Path("runs")
    limits: Limits | None = None  # --cpus/--memory: the container the logged JVM ran in


def validate(options: AdviseOptions) -> None:
    if options.json and options.markdown:
        raise UsageError("--json and --markdown: choose one output format")
    if options.fail_on is not None and options.fail_on not in FAIL_ON:
        raise UsageError(f"--fail-on {options.fail_on}: give one of {', '.join(FAIL_ON)}")
    if options.pid is not None and options.inputs:
        raise UsageError("--pid reads a running JVM: give no LOG or EXPERIMENT with it")
    if options.record is not None and options.pid is None:
        raise UsageError("--record takes a JFR recording of a running JVM: give --pid too")
    if options.pid is None and not options.inputs:
        raise UsageError("give GC logs, an experiment, or --pid PID")
    if options.limits is not None and (options.pid is not None or is_experiment(options)):
        raise UsageError(
            "--cpus/--memory describe the container of a logged JVM: an experiment knows its containers "
            "([matrix.containers]), a running JVM its own"
        )
    if options.verify and (options.pid is not None or len(options.inputs) != 1):
        raise UsageError(
            "--verify takes one input: an experiment spec (.toml), a stored experiment, or a log"
        )
    if options.workload is not None and not options.verify:
        raise UsageError("--workload gives the workload of --verify: add --verify")


def is_experiment(options: AdviseOptions) -> bool:
    """One argument that is no file (nor `label=file`) but an experiment's id or name, when there is a store
    to look in."""
    if len(options.inputs) != 1 or Path(split_label(options.inputs[0])[1]).exists():
        return False
    from jvmlab.experiment.storage import DEFAULT_DB  # SQLAlchemy: only when there may be a store to read

    return options.db is not None or Path(DEFAULT_DB).is_file()


def advise_experiment(options: AdviseOptions) -> list[Advice]:
    from jvmlab.experiment.analysis.advice import experiment_advice
    from jvmlab.experiment.storage import Store

    if options.flags or options.jdk or options.jfr or options.jit:
        raise UsageError("--flags, --jdk, --jfr and --jit are for logs: an experiment knows its own")
    from jvmlab.jdk.options import parse_options

    store = Store.open(options.db)
    try:
        advices = experiment_advice(store, options.inputs[0])
        exp = store.find_experiment(options.inputs[0])
        flags = {t.variant: [str(f) for f in t.flags] for t in store.trials(exp.id)}
    finally:
        store.close()
    # each variant's recommendations started on a JDK of its version, from its own flags
    return [checked(a, parse_options(flags.get(a.name, [])), options.check) for a in advices]


def advise_running(options: AdviseOptions) -> list[Advice]:
    """A running JVM through jcmd; with --record, a window of that long watched (a JFR recording, and GC
    logging switched on for it when the JVM writes none): the GC rules read the window, JMC's rules the
    recording (when JMC is installed: `make jmc`)."""
    import tempfile

    from jvmlab.advise import advise
    from jvmlab.advise.running import NO_LOG_PID, facts_of_running, observe, window_note
    from jvmlab.durations import parse_duration
    from jvmlab.jdk.attach import read_jvm
    from jvmlab.jdk.discovery import installed_jdks
    from jvmlab.jfr import JmcNotInstalledError

    assert options.pid is not None
    seconds = parse_duration(options.record, option="--record") if options.record else None
    installed = installed_jdks()
    jvm = read_jvm(options.pid, installed)
    if seconds is None:
        facts = facts_of_running(jvm, strict=options.strict)
        return [checked(advise(facts, no_log_reason=NO_LOG_PID), facts.options, options.check)]
    with tempfile.TemporaryDirectory(prefix="jvmlab-advise-") as folder:
        window = observe(jvm, seconds, Path(folder), installed)
        facts = facts_of_running(jvm, strict=options.strict, window=window, installed=installed)
        advice = checked(advise(facts, no_log_reason=NO_LOG_PID), facts.options, options.check)
        notes = [*window.notes, *filter(None, [window_note(facts)])]
        try:
            advice = with_jmc(advice, window.recording)
        except JmcNotInstalledError as e:
            notes.append(f"JMC's rules not run on the recording: {e}")
    return [advice.model_copy(update={"notes": [*advice.notes, *notes]})]


def advise_inputs(options: AdviseOptions) -> list[Advice]:
    """One advice per log (labels as `label=path`), JMC's findings merged when --jfr is given; or one per
    variant of a stored experiment; or one for a running JVM."""
    if options.pid is not None:
        return advise_running(options)
    if is_experiment(options):
        return advise_experiment(options)
    from jvmlab.advise import advise, facts_of_log
    from jvmlab.advise.jdk_spec import jdk_major

    major = jdk_major(options.jdk) if options.jdk else None
    labels, paths = labelled(list(options.inputs))
    results = []
    for label, path in zip(labels, paths, strict=True):
        facts = facts_of_log(path, flags=options.flags, jdk_major=major, strict=options.strict, label=label)
        if options.limits is not None:
            facts = in_container(facts, options.limits)
        if options.jit is not None:
            from jvmlab.jit import load_compile_log, reported_code_heaps, summarize

            jit = summarize(load_compile_log(options.jit))
            facts = replace(facts, jit=jit, code_heaps=reported_code_heaps(jit) or None)
        advice = checked(advise(facts), facts.options, options.check)
        if options.jfr is not None:
            advice = with_jmc(advice, options.jfr)
        results.append(advice)
    return results


def in_container(facts: Facts, limits: Limits) -> Facts:
    """The facts of a JVM that ran in a container of `limits` (the user's word: nothing measured it)."""
    from jvmlab.advise import ContainerFacts

    container = ContainerFacts(cpus=limits.cpus, memory_limit_bytes=limits.memory_bytes)
    machine = replace(
        facts.machine,
        container_memory_limit_bytes=limits.memory_bytes or facts.machine.container_memory_limit_bytes,
        cpus_available=(math.ceil(limits.cpus) if limits.cpus else None) or facts.machine.cpus_available,
    )
    return replace(facts, container=container, machine=machine)


def checked(advice: Advice, options: object, check: bool = True) -> Advice:
    """The advice with its recommended flags started on an installed JDK (not with --no-check)."""
    if not check:
        return advice
    from jvmlab.advise.flag_check import check_recommendations
    from jvmlab.jdk.discovery import installed_jdks

    return check_recommendations(advice, options, installed_jdks())  # type: ignore[arg-type]


def with_jmc(advice: Advice, recording: Path) -> Advice:
    from jvmlab.advise.finding import sort_key
    from jvmlab.advise.jmc_findings import jmc_findings, merge
    from jvmlab.jfr.jmc_rules import run_jmc_rules

    merged = merge(advice.findings, jmc_findings(run_jmc_rules(recording)))
    return advice.model_copy(update={"findings": sorted(merged, key=sort_key)})


def exit_code(advices: list[Advice], fail_on: str | None) -> int:
    if fail_on is None:
        return 0
    worst = {"critical": 0, "warning": 1, "info": 2}
    limit = worst[fail_on]
    return int(any(worst[f.severity.value] <= limit for a in advices for f in a.findings))


def is_spec(options: AdviseOptions) -> bool:
    return (
        len(options.inputs) == 1 and options.inputs[0].endswith(".toml") and Path(options.inputs[0]).is_file()
    )


def verify(options: AdviseOptions) -> int:
    """Advice, shown, then verified by a follow-up experiment."""
    from jvmlab.cli import advise_verify as v

    settings = v.VerifyOptions(options.db, options.runs, options.top, options.repetitions)
    if is_spec(options):
        from jvmlab.cli.run import RunOptions, execute
        from jvmlab.experiment.spec import load_spec

        path = Path(options.inputs[0])
        experiment, _ = execute(load_spec(path), path.read_text(), RunOptions(path, options.db, options.runs))
        options = replace(options, inputs=(str(experiment),))
    if is_experiment(options):
        advices = advise_experiment(options)
        show(advices, options)
        subject = v.subject_of_experiment(options.db, options.inputs[0], advices, options.variant)
    elif options.workload is not None:
        advices = advise_inputs(options)
        show(advices, options)
        flags = split_command_line(options.flags) if options.flags else []
        subject = v.subject_of_log(advices[0], options.workload, flags, options.jdk)
    else:
        raise UsageError("--verify on a log needs the workload to run: give --workload SPEC (a .toml spec)")
    v.verify(subject, settings)
    return 0


def show(advices: list[Advice], options: AdviseOptions) -> None:
    if options.json:
        from jvmlab.report.advice.json_export import advice_document, to_json

        write_output(to_json(advice_document(advices)), options.output)
    elif options.markdown:
        from jvmlab.report.advice.markdown import advice_markdown

        write_output(advice_markdown(advices), options.output)
    else:
        from jvmlab.report.advice.text import advice_renderable

        print_renderables([advice_renderable(a) for a in advices])


def run(options: AdviseOptions) -> int:
    validate(options)
    if options.verify:
        return verify(options)
    advices = advise_inputs(options)
    show(advices, options)
    return exit_code(advices, options.fail_on)
