"""`jvmlab`: the command line. Thin: parse -> typed options -> library -> render. How it ends is
jvmlab.entry's: a JvmLabError (a user mistake or unusable input) is one line on stderr and exit 2, anything
unexpected one line and exit 3."""

from __future__ import annotations

import sys
from typing import Annotated

import typer

from jvmlab import __version__
from jvmlab.cli.advise import advise_command
from jvmlab.cli.experiments import (
    compare_command,
    gate_command,
    report_command,
    results_command,
    run_command,
)
from jvmlab.cli.flags import flags_app
from jvmlab.cli.gc import gc_app
from jvmlab.cli.jdks import jdks_app
from jvmlab.cli.jit import jit_app
from jvmlab.cli.load import load_command
from jvmlab.cli.profile import profile_app
from jvmlab.cli.regress import regress_command
from jvmlab.cli.serve import serve_command
from jvmlab.cli.tune import tune_command
from jvmlab.entry import guarded

app = typer.Typer(
    name="jvmlab",
    help="A lab for quantified JVM tuning.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)
app.add_typer(gc_app, name="gc")
app.add_typer(jdks_app, name="jdks")
app.add_typer(flags_app, name="flags")
app.command("run")(run_command)
app.command("results")(results_command)
app.command("compare")(compare_command)
app.command("gate")(gate_command)
app.command("report")(report_command)
app.command("load")(load_command)
app.command("advise")(advise_command)
app.command("regress")(regress_command)
app.command("tune")(tune_command)
app.command("serve")(serve_command)
app.add_typer(jit_app, name="jit")
app.add_typer(profile_app, name="profile")


def _show_version(value: bool) -> None:
    if value:
        print(f"jvmlab {__version__}")
        raise typer.Exit()


@app.callback()
def _root(
    version: Annotated[
        bool, typer.Option("--version", callback=_show_version, is_eager=True, help="Print the version.")
    ] = False,
) -> None:
    """A lab for quantified JVM tuning."""


def _exit_code(e: SystemExit) -> int:
    if e.code is None:
        return 0
    return e.code if isinstance(e.code, int) else 1


def main(argv: list[str] | None = None) -> int:
    """Runs the CLI and returns the exit code: 0 ok, 1 what a command says it means (`jvmlab gate`: a goal
    failed or a measure regressed), 2 user error, 3 internal error, 130 interrupted (typer itself exits 1
    quietly when the reader of stdout goes away, as in `jvmlab gc events gc.log --csv - | head`)."""

    def run() -> int:
        command = typer.main.get_command(app)
        try:
            command.main(args=argv, prog_name="jvmlab", standalone_mode=True)
        except SystemExit as e:
            return _exit_code(e)
        return 0

    return guarded(run)


if __name__ == "__main__":
    sys.exit(main())
