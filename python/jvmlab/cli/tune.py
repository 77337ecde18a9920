"""`jvmlab tune SPEC`: typed options in, jvmlab.cli.tune_run called."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer


def tune_command(
    spec: Annotated[Path, typer.Argument(help="An experiment spec (.toml) with a tune section.")],
    db: Annotated[
        str | None, typer.Option("--db", help="Results store (default jvmlab.db); the study lives there too.")
    ] = None,
    runs: Annotated[Path, typer.Option("--runs", help="Folder for the trials' files.")] = Path("runs"),
    resume: Annotated[
        bool,
        typer.Option("--resume", help="Go on with this spec's last tuning run (after a kill or Ctrl-C)."),
    ] = False,
    dry_run: Annotated[
        bool, typer.Option("--dry-run", help="Show the search space and objectives only.")
    ] = False,
    json: Annotated[
        Path | None, typer.Option("--json", help="Also write the result as JSON to this file (docs/tune.md).")
    ] = None,
    executor: Annotated[
        str, typer.Option("--executor", help="Where trials run: local (default) or ray (docs/ray.md).")
    ] = "local",
    address: Annotated[
        str | None, typer.Option("--address", help="--executor ray: the head node's HOST:PORT, or auto.")
    ] = None,
    confirm: Annotated[
        bool,
        typer.Option("--confirm/--no-confirm", help="Run the best against the JDK's defaults at the end."),
    ] = True,
    pick: Annotated[
        int | None,
        typer.Option(
            "--pick",
            help="Several objectives: the Pareto front's candidate (#N) to confirm and recommend; default "
            "the front's balanced point. With --resume, the finished study's front is read again.",
        ),
    ] = None,
) -> None:
    """Search JVM flags for the spec's tune objectives under its constraints and budget (Optuna: TPE for
    one objective, NSGA-II for several), each candidate measured as trials; workers running the same spec on
    the same --db join one study. Then the best configuration is confirmed against the JDK's defaults and
    printed as one line of flags (docs/tune.md). Exit 0: found (and its goals pass); 1: no feasible
    configuration or a goal fails; 2: a usage error."""
    from jvmlab.cli import tune_run

    code = tune_run.run(
        tune_run.TuneOptions(spec, db, runs, resume, dry_run, confirm, json, executor, address, pick)
    )
    if code:
        raise typer.Exit(code)
