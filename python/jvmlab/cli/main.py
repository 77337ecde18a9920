"""`jvmlab`: the command line. Thin: parse -> typed options -> library -> render, and one error printer:
a JvmLabError (a user mistake or unusable input) becomes one red line on stderr and exit code 2."""

from __future__ import annotations

import sys
from typing import Annotated

import typer

from jvmlab import __version__
from jvmlab.cli.experiments import (
    compare_command,
    gate_command,
    report_command,
    results_command,
    run_command,
)
from jvmlab.cli.gc import gc_app
from jvmlab.cli.jdks import jdks_app
from jvmlab.cli.load import load_command
from jvmlab.cli.output import print_error
from jvmlab.errors import JvmLabError

EXIT_USER_ERROR = 2
EXIT_INTERRUPTED = 130

app = typer.Typer(
    name="jvmlab",
    help="A lab for quantified JVM tuning.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)
app.add_typer(gc_app, name="gc")
app.add_typer(jdks_app, name="jdks")
app.command("run")(run_command)
app.command("results")(results_command)
app.command("compare")(compare_command)
app.command("gate")(gate_command)
app.command("report")(report_command)
app.command("load")(load_command)


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
    """Runs the CLI and returns the exit code: 0 ok, 2 user error, 130 interrupted (typer itself exits 1
    quietly when the reader of stdout goes away, as in `jvmlab gc events gc.log --csv - | head`)."""
    command = typer.main.get_command(app)
    try:
        command.main(args=argv, prog_name="jvmlab", standalone_mode=True)
    except SystemExit as e:
        return _exit_code(e)
    except JvmLabError as e:
        print_error(str(e))
        return EXIT_USER_ERROR
    except KeyboardInterrupt:
        return EXIT_INTERRUPTED
    return 0


if __name__ == "__main__":
    sys.exit(main())
