"""`jvmlab advise`: typed options in, jvmlab.cli.advise_run called (imported when the command runs)."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from jvmlab.cli.container_options import Cpus, Memory


def advise_command(
    inputs: Annotated[
        list[str] | None,
        typer.Argument(
            metavar="[LABEL=]LOG... | EXPERIMENT",
            help="GC logs (.gz, .zip, folders, rotated sets), each advised on its own; or a stored "
            "experiment's id or name (per JDK x flag set).",
            show_default=False,
        ),
    ] = None,
    flags: Annotated[
        str | None,
        typer.Option(
            "--flags", help='The JVM\'s command line ("-Xmx2g -XX:+UseG1GC ..."): JDK 9+ logs lack it.'
        ),
    ] = None,
    jdk: Annotated[
        str | None,
        typer.Option(
            "--jdk", help="The JDK the log is from when it does not say: 8, 11, 17, 21, 25 or a name."
        ),
    ] = None,
    jfr: Annotated[
        Path | None,
        typer.Option("--jfr", help="A JFR recording of the same run: JMC's rules join the findings."),
    ] = None,
    jit: Annotated[
        Path | None,
        typer.Option("--jit", help="A compilation log of the same run (`jvmlab jit` reads it)."),
    ] = None,
    json: Annotated[bool, typer.Option("--json", help="Print JSON (docs/advise-json.md).")] = False,
    markdown: Annotated[bool, typer.Option("--markdown", help="Print Markdown.")] = False,
    output: Annotated[
        Path | None, typer.Option("--output", "-o", help="Write --json / --markdown to this file.")
    ] = None,
    no_check: Annotated[
        bool, typer.Option("--no-check", help="Do not start the installed JDK to check recommended flags.")
    ] = False,
    fail_on: Annotated[
        str | None,
        typer.Option("--fail-on", help="Exit 1 when a finding is this severe: warning or critical."),
    ] = None,
    strict: Annotated[
        bool, typer.Option("--strict", help="Fail when the log has lines jvmlab cannot read.")
    ] = False,
    pid: Annotated[
        int | None,
        typer.Option(
            "--pid", help="A running JVM: its flags and GC log through its attach socket (nothing changed)."
        ),
    ] = None,
    record: Annotated[
        str | None,
        typer.Option("--record", help="With --pid: a JFR recording this long (30s) for JMC's rules."),
    ] = None,
    verify: Annotated[
        bool,
        typer.Option(
            "--verify", help="Run the top recommendations as a follow-up experiment and judge each."
        ),
    ] = False,
    workload: Annotated[
        Path | None, typer.Option("--workload", help="With --verify on a log: the spec (.toml) to run.")
    ] = None,
    variant: Annotated[
        str | None,
        typer.Option("--variant", help="With --verify on an experiment: the JDK/flag set to verify."),
    ] = None,
    top: Annotated[
        int, typer.Option("--top", min=1, help="With --verify: how many recommendations to try.")
    ] = 3,
    repetitions: Annotated[
        str | None,
        typer.Option(
            "--repetitions",
            help="With --verify: trials per flag set, or auto: rounds until the targeted measures are "
            "decided (the default).",
        ),
    ] = None,
    runs: Annotated[Path, typer.Option("--runs", help="With --verify: folder for the trials' files.")] = Path(
        "runs"
    ),
    cpus: Cpus = None,
    memory: Memory = None,
    db: Annotated[
        str | None,
        typer.Option(
            "--db", help="Store of EXPERIMENT: a SQLite file (default jvmlab.db) or postgresql://..."
        ),
    ] = None,
) -> None:
    """What the evidence says and what to change: findings with evidence, why, flags for the JDK in use,
    the expected effect and a confidence, most severe first."""
    from jvmlab.cli import advise_run
    from jvmlab.cli.container_options import limits_given
    from jvmlab.experiment.spec import parse_repetitions

    limits = limits_given(cpus, memory)

    options = advise_run.AdviseOptions(
        inputs=tuple(inputs or ()), flags=flags, jdk=jdk, jfr=jfr, jit=jit, json=json, markdown=markdown,
        output=output, check=not no_check, fail_on=fail_on, strict=strict, db=db, pid=pid, record=record,
        verify=verify,
        workload=workload, variant=variant, top=top, runs=runs,
        repetitions=None if repetitions is None else parse_repetitions(repetitions),
        limits=limits,
    )  # fmt: skip
    code = advise_run.run(options)
    if code:
        raise typer.Exit(code)
