"""`jvmlab jit LOG... | EXPERIMENT` (compilations, code cache, deoptimizations, inlining) and `jvmlab jit
directives SOURCE` (hot methods as compiler directives, verified by experiment with --verify SPEC). One group
(cli.modes): reading logs is its main mode, directives a subcommand with its own options."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from jvmlab.cli.modes import ModeCommand, ModeGroup

jit_app = typer.Typer(
    cls=ModeGroup,
    invoke_without_command=True,
    subcommand_metavar="| directives SOURCE",
    add_completion=False,
)

Db = Annotated[str | None, typer.Option("--db", help="Results store (default jvmlab.db).")]


@jit_app.callback()
def jit_command(
    ctx: typer.Context,
    inputs: Annotated[
        list[str] | None,
        typer.Argument(
            metavar="LOG... | EXPERIMENT",
            help="Compilation logs (read as one), or a stored experiment's id or name.",
        ),
    ] = None,
    json: Annotated[bool, typer.Option("--json", help="Print the summary as JSON (docs/jit.md).")] = False,
    top: Annotated[int, typer.Option("--top", min=1, help="Rows in the tables.")] = 15,
    compilations: Annotated[
        bool, typer.Option("--compilations", help="The compilation table: one row per compilation.")
    ] = False,
    order: Annotated[
        str, typer.Option("--order", help="--compilations: time, compile_ms, native_bytes or bytecode_bytes.")
    ] = "time",
    csv: Annotated[
        Path | None, typer.Option("--csv", help="--compilations: write every row to this CSV file.")
    ] = None,
    profile: Annotated[
        str | None,
        typer.Option(
            "--profile",
            help="Hot methods from this CPU profile (collapsed file, folder or EXPERIMENT:VARIANT), "
            "not from compile counts.",
        ),
    ] = None,
    db: Db = None,
) -> None:
    """Read compilation logs (-XX:+PrintCompilation, -Xlog:jit+compilation, LogCompilation XML) or a stored
    experiment's: compilations per tier, compile time, code cache use, CodeCache-full events,
    deoptimizations, huge methods, inlining failures on hot methods. `jvmlab jit directives SOURCE` writes
    the hot methods of a profile as compiler directives (its own --help)."""
    if ctx.invoked_subcommand is not None:
        return
    from jvmlab.cli.jit_run import JitOptions
    from jvmlab.cli.jit_run import run as run_jit

    code = run_jit(JitOptions(tuple(inputs or ()), db, json, top, compilations, order, csv, profile))
    if code:
        raise typer.Exit(code)


@jit_app.command("directives", cls=ModeCommand)
def directives_command(
    source: Annotated[
        str,
        typer.Argument(
            metavar="SOURCE",
            help="A CPU profile (collapsed file, folder of them, EXPERIMENT:VARIANT) or a compilation log.",
        ),
    ],
    output: Annotated[Path, typer.Option("--output", "-o", help="The file to write.")] = Path(
        "hot-methods.json"
    ),
    cover: Annotated[
        float, typer.Option("--cover", help="The hot set holds this share of Java samples.")
    ] = 0.8,
    limit: Annotated[int, typer.Option("--limit", min=1, help="Methods at most.")] = 50,
    action: Annotated[
        list[str] | None,
        typer.Option("--action", help="c2 (skip C1 for them) and/or inline (default both)."),
    ] = None,
    jdk: Annotated[
        str | None, typer.Option("--jdk", help="The JDK they are for (default: the first found).")
    ] = None,
    verify: Annotated[
        Path | None, typer.Option("--verify", help="Run SPEC with and without them, and judge.")
    ] = None,
    flags: Annotated[
        str | None, typer.Option("--flags", help="--verify: the spec's flag set (default its first).")
    ] = None,
    repetitions: Annotated[
        str | None,
        typer.Option(
            "--repetitions", help="--verify: trials per variant, or auto: rounds until decided (the default)."
        ),
    ] = None,
    db: Db = None,
    runs: Annotated[Path, typer.Option("--runs", help="--verify: folder for trials.")] = Path("runs"),
) -> None:
    """Write the hot methods of a profile (or, from a compilation log, the methods compiled most often) as
    compiler directives for the JDK in use (CompileCommand lines on JDK 8); with --verify SPEC, run SPEC's
    workload with and without them and judge the difference."""
    from jvmlab.cli import jit_directives
    from jvmlab.experiment.spec import parse_repetitions

    options = jit_directives.DirectivesOptions(
        source, output, cover, limit, tuple(action or ("c2", "inline")), jdk, verify, flags,
        None if repetitions is None else parse_repetitions(repetitions), db, runs,
    )  # fmt: skip
    code = jit_directives.run(options)
    if code:
        raise typer.Exit(code)
