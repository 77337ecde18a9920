"""`jvmlab jdks ...`: the JDKs of this machine, registering more, and checking JVM flags against them.
Each command parses its options and calls the library (jvmlab.jdk); rendering is imported when needed."""

from __future__ import annotations

import shlex
from typing import TYPE_CHECKING, Annotated

import typer

from jvmlab.cli.container_options import Cpus, Cpuset, Memory
from jvmlab.cli.output import print_renderables, print_text
from jvmlab.errors import UsageError

if TYPE_CHECKING:
    from jvmlab.jdk.model import Discovery

EXIT_REJECTED = 2

jdks_app = typer.Typer(
    help="JDKs on this machine: list them (with collectors, JFR, CDS), register more, check flags.",
    invoke_without_command=True,
)

Json = Annotated[bool, typer.Option("--json", help="Print JSON (docs/jdks-json.md) instead of a table.")]
TimeoutS = Annotated[
    float,
    typer.Option("--timeout-s", help="Seconds each `java -version` probe may take before it is killed."),
]


def _discover(refresh: bool, timeout_s: float) -> Discovery:
    from jvmlab.jdk.discovery import discover

    return discover(timeout_s=timeout_s, use_cache=not refresh)


@jdks_app.callback()
def jdks(
    ctx: typer.Context,
    json: Json = False,
    refresh: Annotated[
        bool, typer.Option("--refresh", help="Probe every JDK again (ignore the cache).")
    ] = False,
    timeout_s: TimeoutS = 30.0,
) -> None:
    """List the JDKs found: name, version, vendor, VM, arch, usable collectors, JFR, CDS archive, home."""
    if ctx.invoked_subcommand is not None:
        return
    from jvmlab.report.jdks_view import jdks_document, jdks_view

    found = _discover(refresh, timeout_s)
    if json:
        from jvmlab.report.gclog.json_export import to_json

        print_text(to_json(jdks_document(found)))
        return
    from jvmlab.report.jdks_text import jdks_renderable

    print_renderables([jdks_renderable(jdks_view(found))])


@jdks_app.command("add")
def add(
    name: Annotated[str, typer.Argument(help="The name to select it by, e.g. zulu-21-fx.")],
    path: Annotated[
        str, typer.Argument(help="The JDK home (holding bin/java), or a directory of JDK homes.")
    ],
) -> None:
    """Register a JDK (or a directory of JDKs) that discovery would not find by itself."""
    from jvmlab.jdk.discovery import discover
    from jvmlab.jdk.registry import register

    registry_file = register(name, path)
    found = discover()
    listed = [j for j in found.jdks if f"registered:{name}" in j.sources]
    what = ", ".join(f"{j.name} ({j.runtime_version}, {j.vendor})" for j in listed) or "no usable JDK yet"
    print_text(f"registered {name} -> {path} in {registry_file}: {what}")


@jdks_app.command("remove")
def remove(name: Annotated[str, typer.Argument(help="A registered name (see `jvmlab jdks`).")]) -> None:
    """Forget a registered JDK (nothing is deleted from disk)."""
    from jvmlab.jdk.registry import unregister

    print_text(f"removed {name} from {unregister(name)}")


def _flag_sets(flags_options: list[str], argv_flags: list[str]) -> dict[str, list[str]]:
    """--flags "STR" (split like a shell would, no shell runs; "LABEL=-Xmx1g ..." names the set) and the
    flags after `--` (one set)."""
    sets: dict[str, list[str]] = {}
    for text in flags_options:
        label, sep, rest = text.partition("=")
        named = sep and label and not label.startswith("-") and " " not in label
        try:
            items = shlex.split(rest if named else text)
        except ValueError as e:
            raise UsageError(f"--flags {text!r}: {e} (quote values that hold spaces)") from e
        sets[label if named else " ".join(items)] = items
    if argv_flags:
        sets[" ".join(argv_flags)] = list(argv_flags)
    if not sets:
        raise UsageError('give the flags to check (jvmlab jdks check -- -Xmx1g) or a set with --flags "..."')
    return sets


@jdks_app.command("check", context_settings={"ignore_unknown_options": True})
def check(
    flags: Annotated[
        list[str] | None,
        typer.Argument(
            metavar="[--] FLAG...",
            help="JVM options to check; after `--` nothing is read as a jvmlab option.",
            show_default=False,
        ),
    ] = None,
    jdk: Annotated[
        list[str] | None,
        typer.Option(
            "--jdk",
            help="JDKs to check: name, major (17, >=17), vendor:temurin, vm:hotspot or all (default: all).",
        ),
    ] = None,
    flags_text: Annotated[
        list[str] | None,
        typer.Option(
            "--flags",
            help='A flag set as one string, split like a shell would ("-Xmx1g -XX:+UseG1GC"); '
            '"LABEL=..." names it; repeat for a matrix; "" checks the defaults.',
        ),
    ] = None,
    json: Json = False,
    table: Annotated[
        bool, typer.Option("--flag-table/--no-flag-table", help="With --json: include every flag's value.")
    ] = True,
    timeout_s: TimeoutS = 60.0,
    cpus: Cpus = None,
    memory: Memory = None,
    cpuset: Cpuset = None,
) -> None:
    """Start each JDK with the flags: accepted or not, its warnings, the ergonomics; exit 2 if rejected.
    With --cpus/--memory, in a container of those limits: what the JVM picks there and what it sees of it."""
    from jvmlab.cli.container_options import limits_given
    from jvmlab.jdk.flags import check_matrix
    from jvmlab.jdk.select import select_jdks
    from jvmlab.report.jdks_view import check_document, check_view

    limits = limits_given(cpus, memory, cpuset)
    sets = _flag_sets(flags_text or [], flags or [])
    found = _discover(False, 30.0)
    chosen = select_jdks(list(found.jdks), jdk or ["all"])
    checks = check_matrix(chosen, sets, timeout_s=timeout_s, limits=limits)
    if json:
        from jvmlab.report.gclog.json_export import to_json

        print_text(to_json(check_document(checks, with_table=table)))
    else:
        from jvmlab.report.jdks_text import check_renderable

        print_renderables([check_renderable(check_view(checks))])
    if not all(c.accepted for c in checks):
        raise typer.Exit(EXIT_REJECTED)
