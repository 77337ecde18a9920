"""Where the CLI writes: rich consoles for people, plain streams for machine-readable output. rich is
imported when a console is needed: JSON output never pays for it."""

from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import TYPE_CHECKING

from jvmlab.errors import check_writable, write_file

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
