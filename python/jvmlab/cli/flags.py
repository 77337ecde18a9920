"""`jvmlab flags lint|migrate`: what each JDK does with a flag set, and the set rewritten for a newer JDK.
Each command reads its options and calls the library (jvmlab.jdk.lint, jvmlab.jdk.migrate); rendering is
imported when needed (docs/flags.md)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated

import typer

from jvmlab.cli.output import print_renderables, print_text
from jvmlab.errors import UsageError

if TYPE_CHECKING:
    from jvmlab.jdk.lint import FlagLint

EXIT_REFUSED = 1
EXAMPLE = 'jvmlab flags lint "-XX:+UseConcMarkSweepGC -XX:+PrintGCDetails"'

flags_app = typer.Typer(
    help="JVM flags across JDKs: lint a flag set on JDK 8 to 25, migrate one to a newer JDK.",
    no_args_is_help=True,
)

Flags = Annotated[
    list[str] | None,
    typer.Argument(
        metavar='"FLAGS"',
        help='The flags as one string, split like a shell would ("-Xmx2g -XX:+UseG1GC"), or after `--`.',
        show_default=False,
    ),
]
Json = Annotated[bool, typer.Option("--json", help="Print JSON (docs/flags.md) instead of a table.")]
TimeoutS = Annotated[float, typer.Option("--timeout-s", help="Seconds each JVM start may take.")]


def _flags(args: list[str] | None) -> list[str]:
    from jvmlab.jdk.options import split_command_line

    items = [item for arg in args or [] for item in _split_once(arg, split_command_line(arg))]
    if not items:
        raise UsageError(f"give the flags, e.g. {EXAMPLE}")
    return items


def _split_once(arg: str, items: list[str]) -> list[str]:
    """One argument split like a shell, unless that leaves words that are no option (`-XX:OnOutOfMemoryError=
    kill -9 %p` given as one argument, its first word a valued option): one option whose value has spaces."""
    from jvmlab.jdk.flags import TAKES_VALUE

    stray = [
        w
        for i, w in enumerate(items)
        if not w.startswith("-") and (i == 0 or items[i - 1] not in TAKES_VALUE)
    ]
    return [arg] if stray and "=" in items[0] and arg.startswith("-") and len(items) > 1 else items


def _major(text: str, option: str) -> int:
    from jvmlab.jdk.flag_table import MAJORS
    from jvmlab.jdk.versions import parse_major

    major = parse_major(text)
    if major is None:
        raise UsageError(f"{option} {text!r}: give a JDK major ({', '.join(map(str, MAJORS))})")
    return major


@flags_app.command("lint", context_settings={"ignore_unknown_options": True})
def lint_command(
    flags: Flags = None,
    jdk: Annotated[
        list[str] | None,
        typer.Option(
            "--jdk",
            help="Targets: 8, 11, 17, 21, 25, all, or an installed JDK's name (repeat or comma-separate; "
            "default: all majors). An installed JDK of a major is asked; the others come from the table.",
        ),
    ] = None,
    table_only: Annotated[
        bool, typer.Option("--table-only", help="Answer from the package table only: start no JVM.")
    ] = False,
    json: Json = False,
    timeout_s: TimeoutS = 30.0,
) -> None:
    """Per flag and JDK: ok, deprecated, ignored, renamed or refused, with what to use instead.
    Exits 1 when a JDK refuses a flag (or the set), 0 otherwise."""
    from jvmlab.jdk.discovery import installed_jdks
    from jvmlab.jdk.lint import lint, resolve_targets

    items = _flags(flags)
    targets = resolve_targets(jdk, [] if table_only else installed_jdks(), ask=not table_only)
    result = lint(items, targets, timeout_s=timeout_s)
    from jvmlab.report.flags_view import lint_document, lint_renderable

    if json:
        from jvmlab.report.gclog.json_export import to_json

        print_text(to_json(lint_document(result)))
    else:
        print_renderables([lint_renderable(result)])
    if result.refused:
        raise typer.Exit(EXIT_REFUSED)


@flags_app.command("migrate", context_settings={"ignore_unknown_options": True})
def migrate_command(
    flags: Flags = None,
    from_major: Annotated[
        str, typer.Option("--from", help="The JDK the flags were written for (8, 11, 17, 21).")
    ] = "8",
    to_major: Annotated[str, typer.Option("--to", help="The JDK to move to (11, 17, 21, 25).")] = "21",
    check: Annotated[
        bool,
        typer.Option(
            "--check", help="Start the installed --to JDK with the result; exit 1 if it refuses or warns."
        ),
    ] = False,
    json: Json = False,
) -> None:
    """The flags rewritten for a newer JDK: one -Xlog option for the legacy GC logging, G1 for CMS,
    MetaspaceSize for PermSize, removed flags dropped; every change with its reason."""
    from jvmlab.jdk.migrate import migrate
    from jvmlab.report.flags_view import migration_document, migration_renderable

    result = migrate(_flags(flags), _major(from_major, "--from"), _major(to_major, "--to"))
    checked = _check(list(result.flags), result.to_major) if check else None
    if json:
        from jvmlab.report.flags_view import lint_document
        from jvmlab.report.gclog.json_export import to_json

        doc = migration_document(result)
        doc["check"] = lint_document(checked) if checked is not None else None
        print_text(to_json(doc))
    else:
        from jvmlab.report.flags_view import lint_renderable

        print_renderables([migration_renderable(result), *([lint_renderable(checked)] if checked else [])])
    if checked is not None and (checked.refused or _warned(checked)):
        raise typer.Exit(EXIT_REFUSED)


def _warned(checked: FlagLint) -> bool:
    """The JVM started but said something: of a flag (deprecated, ignored, ...) or of none."""
    return any(t.notes or any(v.status != "ok" for v in t.verdicts) for t in checked.targets)


def _check(flags: list[str], major: int) -> FlagLint | None:
    """The result started on the installed JDK of `major` (java <flags> -version, files in a tmp folder)."""
    from jvmlab.jdk.discovery import installed_jdks
    from jvmlab.jdk.lint import lint, resolve_targets

    if not flags:
        return None
    targets = resolve_targets([str(major)], installed_jdks())
    if targets[0].jdk is None:
        raise UsageError(f"--check starts JDK {major} with the result: none is installed (`jvmlab jdks`)")
    return lint(flags, targets)
