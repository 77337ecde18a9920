"""`jvmlab advise`: typed options in, jvmlab.cli.advise_run called (imported when the command runs)."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer


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
        typer.Option("--pid", help="A running JVM: its flags and GC log through jcmd (nothing changed)."),
    ] = None,
    record: Annotated[
        str | None,
        typer.Option("--record", help="With --pid: a JFR recording this long (30s) for JMC's rules."),
    ] = None,
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

    options = advise_run.AdviseOptions(
        tuple(inputs or ()),
        flags,
        jdk,
        jfr,
        json,
        markdown,
        output,
        not no_check,
        fail_on,
        strict,
        db,
        pid,
        record,
    )
    code = advise_run.run(options)
    if code:
        raise typer.Exit(code)
