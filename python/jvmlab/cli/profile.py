"""`jvmlab profile -- java ...` and `jvmlab profile --pid PID --duration 30s`: a profile with async-profiler,
written as collapsed stacks (and a flame graph), its top frames shown; `--count` counts calls instead.
`jvmlab profile diff BASE NEW`: what changed between two profiles. One group (cli.modes): profiling is its
main mode, diff a subcommand with its own options."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from jvmlab.cli.modes import ModeCommand, ModeGroup


class ProfileGroup(ModeGroup):
    after_dashdash = True  # what follows -- is the JVM's command line


profile_app = typer.Typer(
    cls=ProfileGroup,
    invoke_without_command=True,
    subcommand_metavar="| diff BASE NEW",
    add_completion=False,
)

Output = Annotated[
    Path, typer.Option("--output", "-o", help="Folder for profile.collapsed and flamegraph.html.")
]
Top = Annotated[int, typer.Option("--top", min=1, help="Frames in the top table.")]


@profile_app.callback()
def profile_command(
    ctx: typer.Context,
    command: Annotated[
        list[str] | None,
        typer.Argument(metavar="-- JAVA_COMMAND...", help="The JVM to run under the profiler, after --."),
    ] = None,
    pid: Annotated[
        int | None,
        typer.Option(
            "--pid",
            help="Attach to this running JVM (JVMTI.agent_load through its attach socket, "
            "the jcmd tool only when that cannot be reached).",
        ),
    ] = None,
    duration: Annotated[
        str, typer.Option("--duration", "-d", help="With --pid: how long to sample.")
    ] = "30s",
    event: Annotated[
        str | None, typer.Option("--event", "-e", help="cpu (default), wall, alloc or lock.")
    ] = None,
    interval: Annotated[
        str | None, typer.Option("--interval", help="Sampling interval (10ms; alloc: bytes, 512k).")
    ] = None,
    output: Output = Path("profile"),
    top: Top = 20,
    count: Annotated[
        list[str] | None,
        typer.Option(
            "--count",
            help="Count the calls of Class.method (or Class.*) instead of sampling (repeat it).",
        ),
    ] = None,
) -> None:
    """Profile a JVM with async-profiler: `jvmlab profile -- java -jar app.jar` runs it under the profiler;
    `--pid PID` attaches to a running one for --duration. Writes OUTPUT/profile.collapsed and
    OUTPUT/flamegraph.html and prints the top frames. The exit code is the JVM's for a command. `--count
    java.util.HashMap.resize` counts that method's calls instead (JFR method timing on JDK 25+,
    async-profiler elsewhere), with the top callers where async-profiler counted. `jvmlab profile diff BASE
    NEW` compares two profiles (its own --help)."""
    if ctx.invoked_subcommand is not None:
        return
    from jvmlab.cli import profile_run
    from jvmlab.cli.profile_options import ProfileOptions

    options = ProfileOptions(
        tuple(command or ()), pid, duration, event, interval, output, top, count=tuple(count or ())
    )
    code = profile_run.run(options)
    if code:
        raise typer.Exit(code)


@profile_app.command("diff", cls=ModeCommand)
def diff_command(
    base: Annotated[str, typer.Argument(metavar="BASE", help="The profile before.")],
    new: Annotated[str, typer.Argument(metavar="NEW", help="The profile after.")],
    db: Annotated[
        str | None, typer.Option("--db", help="Results store of EXPERIMENT:VARIANT (default jvmlab.db).")
    ] = None,
    event: Annotated[
        str | None,
        typer.Option("--event", "-e", help="The stored trials' event (default: the first they profiled)."),
    ] = None,
    output: Annotated[Path, typer.Option("--output", "-o", help="Folder for diff.html.")] = Path("profile"),
    top: Top = 20,
) -> None:
    """Compare two profiles, each a collapsed file, a folder of them (repetitions), EXPERIMENT:JDK/FLAGSET
    or an EXPERIMENT of one variant: a differential flame graph (OUTPUT/diff.html) and the frames whose
    share changed, with a CI over the repetitions."""
    from jvmlab.cli import profile_run
    from jvmlab.cli.profile_options import DiffOptions

    profile_run.diff(DiffOptions(base, new, db, event, output, top))
