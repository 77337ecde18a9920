"""`jvmlab profile -- java ...` and `jvmlab profile --pid PID --duration 30s`: a profile with async-profiler,
written as collapsed stacks (and a flame graph), its top frames shown."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer


def profile_command(
    ctx: typer.Context,
    pid: Annotated[
        int | None, typer.Option("--pid", help="Attach to this running JVM (jcmd JVMTI.agent_load).")
    ] = None,
    duration: Annotated[
        str, typer.Option("--duration", "-d", help="With --pid: how long to sample.")
    ] = "30s",
    event: Annotated[
        str | None,
        typer.Option(
            "--event", "-e", help="cpu (default), wall, alloc or lock; with diff: the stored trials' event."
        ),
    ] = None,
    interval: Annotated[
        str | None, typer.Option("--interval", help="Sampling interval (10ms; alloc: bytes, 512k).")
    ] = None,
    output: Annotated[
        Path, typer.Option("--output", "-o", help="Folder for profile.collapsed and flamegraph.html.")
    ] = Path("profile"),
    top: Annotated[int, typer.Option("--top", min=1, help="Frames in the top table.")] = 20,
    db: Annotated[
        str | None, typer.Option("--db", help="Store of EXPERIMENT:VARIANT profiles (jvmlab profile diff).")
    ] = None,
    count: Annotated[
        list[str] | None,
        typer.Option(
            "--count",
            help="Count the calls of Class.method (or Class.*) instead of sampling (repeat it).",
        ),
    ] = None,
) -> None:
    """Profile a JVM with async-profiler: `jvmlab profile -- java -jar app.jar` runs it under the profiler;
    `--pid PID` attaches to a running one for --duration. Writes OUTPUT/profile.collapsed and prints the top
    frames. The exit code is the JVM's for a command. `--count java.util.HashMap.resize` counts that method's
    calls instead (JFR method timing on JDK 25+, async-profiler elsewhere), with the top callers where
    async-profiler counted. `jvmlab profile diff BASE NEW` compares two profiles
    (collapsed files, folders of them, EXPERIMENT:JDK/FLAGSET, or an EXPERIMENT of one variant; --event
    picks the event when the trials profiled several): a differential flame graph and the frames whose
    share changed, with a CI over the repetitions."""
    from jvmlab.cli import profile_run
    from jvmlab.cli.profile_options import ProfileOptions

    code = profile_run.run(
        ProfileOptions(
            tuple(ctx.args), pid, duration, event, interval, output, top, db, count=tuple(count or ())
        )
    )
    if code:
        raise typer.Exit(code)
