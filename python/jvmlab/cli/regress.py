"""`jvmlab regress SPEC --base X --new Y`: typed options in, jvmlab.cli.regress_run called."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from jvmlab.cli.experiments import Inconclusive


def regress_command(
    spec: Annotated[Path, typer.Argument(help="The experiment spec (.toml) whose workload is run.")],
    base: Annotated[
        str,
        typer.Option(
            "--base", help="The side that was fine: a JDK (17, temurin-21), a flag set, or JDK/FLAGSET."
        ),
    ],
    new: Annotated[
        str, typer.Option("--new", help="The side suspected of a regression, given the same way.")
    ],
    jdk: Annotated[
        str | None,
        typer.Option("--jdk", help="Two flag sets: the JDK both run on (default: the spec's only one)."),
    ] = None,
    flags: Annotated[
        str | None,
        typer.Option("--flags", help="Two JDKs: the flag set both run (default: the spec's first)."),
    ] = None,
    repetitions: Annotated[
        str | None,
        typer.Option(
            "--repetitions",
            help="Trials per side, or auto: rounds until the primary measure is decided, up to the spec's "
            "max_repetitions (default: the spec's repetitions, at least 3, else auto).",
        ),
    ] = None,
    count: Annotated[
        list[str] | None,
        typer.Option(
            "--count",
            help="Count calls of this Java method per trial (Class.method; repeatable; docs/counting.md).",
        ),
    ] = None,
    threshold: Annotated[
        float,
        typer.Option(
            "--threshold", min=0, help="Worse beyond this % regresses; within +-it a measure is equivalent."
        ),
    ] = 5.0,
    inconclusive: Annotated[
        Inconclusive,
        typer.Option(
            "--inconclusive", help="What a measure the trials cannot decide does: exit 1 (fail) or 0 (pass)."
        ),
    ] = Inconclusive.FAIL,
    verify: Annotated[
        bool, typer.Option("--verify", help="Run the top hint's flag as a third variant and judge it.")
    ] = False,
    output: Annotated[
        Path, typer.Option("--output", "-o", help="Folder for regress.html and regress.json.")
    ] = Path("regress"),
    db: Annotated[str | None, typer.Option("--db", help="Results store (default jvmlab.db).")] = None,
    runs: Annotated[Path, typer.Option("--runs", help="Folder for the trials' files.")] = Path("runs"),
) -> None:
    """Hunt a regression: run SPEC's workload on --base and --new (two JDKs, or two flag sets) with CPU
    profiles and JFR event counts; say whether the new side is slower (each measure with a CI), where
    (frames whose share changed, a differential flame graph), what else differs (flags in force, JFR events)
    and which known JDK change fits, with the flag that tests it (--verify runs it). Exit 0: no significant
    regression (every measure better or equivalent); 1: regressed, or inconclusive unless --inconclusive
    pass (as `jvmlab gate`); 2: a usage error."""
    from jvmlab.cli import regress_run
    from jvmlab.experiment.spec import parse_repetitions

    code = regress_run.run(
        regress_run.RegressOptions(
            spec,
            base,
            new,
            jdk,
            flags,
            None if repetitions is None else parse_repetitions(repetitions),
            threshold,
            verify,
            output,
            db,
            runs,
            count=tuple(count or ()),
            inconclusive=inconclusive.value,
        )
    )
    if code:
        raise typer.Exit(code)
