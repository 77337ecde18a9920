"""Where the CLI writes: rich consoles for people, plain streams for machine-readable output. rich is
imported when a console is needed: JSON output never pays for it."""

from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import TYPE_CHECKING

from jvmlab.errors import UsageError, check_writable, write_file

if TYPE_CHECKING:
    from rich.console import Console, RenderableType

PIPE_WIDTH = 120


def stdout_console() -> Console:
    """A console on stdout; when piped (and COLUMNS is unset) tables get 120 columns instead of rich's 80."""
    from rich.console import Console

    width = None if sys.stdout.isatty() or os.environ.get("COLUMNS") else PIPE_WIDTH
    return Console(width=width, highlight=False)


def print_renderables(items: list[RenderableType]) -> None:
    from rich.rule import Rule

    console = stdout_console()
    for i, item in enumerate(items):
        if i:
            console.print(Rule())
        console.print(item)


def print_unwrapped(items: list[RenderableType]) -> None:
    """Renderables on lines of their own that the console does not fold at its width (a command line to
    paste)."""
    console = stdout_console()
    for item in items:
        console.print(item, soft_wrap=True)


def print_text(text: str) -> None:
    """Machine-readable text (JSON) on stdout, exactly as given."""
    sys.stdout.write(text if text.endswith("\n") else text + "\n")
    sys.stdout.flush()


def write_output(text: str, output: Path | None) -> None:
    """Text to the file `output`, or to stdout when None; a file that cannot be written is one error line."""
    if output is None:
        print_text(text)
    else:
        check_writable(output)
        write_file(output, text)


SUFFIX_FORMATS = {".json": "json", ".csv": "csv", ".md": "markdown", ".markdown": "markdown"}


def export_format(format: str | None, output: Path | None, formats: tuple[str, ...]) -> str:
    """The format of an export: `--format` if given, else the one `-o`'s extension names (out.csv -> csv),
    else the terminal's table. A table written to a file, or an extension naming no format, is refused
    (nothing would be written)."""
    if format is not None and format not in formats:
        raise UsageError(f"--format {format}: use one of {', '.join(formats)}")
    if output is None:
        return format or "table"
    chosen = format or SUFFIX_FORMATS.get(output.suffix.lower())
    exports = [f for f in formats if f != "table"]
    if chosen is None or chosen == "table":
        raise UsageError(
            f"-o {output}: the table is for the terminal; give --format {' or '.join(exports)} "
            f"(or a file ending {', '.join(s for s, f in SUFFIX_FORMATS.items() if f in exports)})"
        )
    return chosen
