"""`jvmlab run SPEC` and `jvmlab results [EXPERIMENT]`: typed options in, the run module called (imported
when the command runs)."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

Db = Annotated[
    str | None,
    typer.Option(
        "--db", help="Results store: a SQLite file (default jvmlab.db) or postgresql://user@host/db."
    ),
]


def run_command(
    spec: Annotated[
        Path, typer.Argument(help="Experiment spec (TOML; docs/experiment-spec.md).", show_default=False)
    ],
    dry_run: Annotated[
        bool, typer.Option("--dry-run", help="Show the plan and the flag checks, run nothing.")
    ] = False,
    resume: Annotated[
        bool,
        typer.Option("--resume", help="Continue the latest experiment of this spec: only unfinished trials."),
    ] = False,
    allow_rejected: Annotated[
        bool,
        typer.Option("--allow-rejected", help="Run the JDK x flag sets the JVM accepts; store the others."),
    ] = False,
    db: Db = None,
    runs: Annotated[
        Path, typer.Option("--runs", help="Folder for the trials' files (logs, working dirs).")
    ] = Path("runs"),
) -> None:
    """Run an experiment: every JDK x flag set of the spec, repeated, each trial in a fresh JVM and folder.

    Exit code 0 when every trial succeeded, 1 when some failed, 2 for a bad spec or rejected flags."""
    from jvmlab.cli import run

    code = run.run(run.RunOptions(spec, db, runs, dry_run, resume, allow_rejected))
    if code:
        raise typer.Exit(code)


def results_command(
    experiment: Annotated[
        str | None, typer.Argument(help="Experiment id or name (default: the latest).", show_default=False)
    ] = None,
    db: Db = None,
    json: Annotated[bool, typer.Option("--json", help="Print JSON instead of a table.")] = False,
) -> None:
    """The results of a stored experiment, per JDK x flag set."""
    from jvmlab.cli import run

    run.results(experiment, db, json)
