"""`jvmlab jit LOG... | EXPERIMENT` (compilations, code cache, deoptimizations, inlining) and `jvmlab jit
directives SOURCE` (hot methods as compiler directives, verified by experiment with --verify SPEC)."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer


def jit_command(
    ctx: typer.Context,
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
    db: Annotated[str | None, typer.Option("--db", help="Results store (default jvmlab.db).")] = None,
    output: Annotated[Path, typer.Option("--output", "-o", help="directives: the file to write.")] = Path(
        "hot-methods.json"
    ),
    cover: Annotated[
        float, typer.Option("--cover", help="directives: the hot set holds this share of Java samples.")
    ] = 0.8,
    limit: Annotated[int, typer.Option("--limit", min=1, help="directives: methods at most.")] = 50,
    action: Annotated[
        list[str] | None,
        typer.Option("--action", help="directives: c2 (skip C1 for them) and/or inline (default both)."),
    ] = None,
    jdk: Annotated[
        str | None, typer.Option("--jdk", help="directives: the JDK they are for (default: the first found).")
    ] = None,
    verify: Annotated[
        Path | None, typer.Option("--verify", help="directives: run SPEC with and without them, and judge.")
    ] = None,
    flags: Annotated[
        str | None, typer.Option("--flags", help="directives --verify: the spec's flag set (default first).")
    ] = None,
    repetitions: Annotated[
        int | None, typer.Option("--repetitions", min=2, help="directives --verify: trials per variant.")
    ] = None,
    runs: Annotated[Path, typer.Option("--runs", help="directives --verify: folder for trials.")] = Path(
        "runs"
    ),
) -> None:
    """Read compilation logs (-XX:+PrintCompilation, -Xlog:jit+compilation, LogCompilation XML) or a stored
    experiment's: compilations per tier, compile time, code cache use, CodeCache-full events,
    deoptimizations, huge methods, inlining failures on hot methods. `jvmlab jit directives SOURCE` writes
    the hot methods of a profile (file, folder or EXPERIMENT:VARIANT) as compiler directives."""
    args = tuple(ctx.args)
    if args[:1] == ("directives",):
        from jvmlab.cli import jit_directives

        if len(args) != 2:
            from jvmlab.errors import UsageError

            raise UsageError("jvmlab jit directives SOURCE: one profile (file, folder or EXPERIMENT:VARIANT)")
        options = jit_directives.DirectivesOptions(
            args[1], output, cover, limit, tuple(action or ("c2", "inline")), jdk, verify, flags,
            repetitions, db, runs,
        )  # fmt: skip
        code = jit_directives.run(options)
    else:
        from jvmlab.cli.jit_run import JitOptions
        from jvmlab.cli.jit_run import run as run_jit

        code = run_jit(JitOptions(args, db, json, top, compilations, order, csv, profile))
    if code:
        raise typer.Exit(code)
