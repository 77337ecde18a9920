"""Where the CLI writes: rich consoles for people, plain streams for machine-readable output. rich is
imported when a console is needed: JSON output never pays for it."""

from __future__ import annotations

import os
import sys
from typing import TYPE_CHECKING

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


def print_text(text: str) -> None:
    """Machine-readable text (JSON) on stdout, exactly as given."""
    sys.stdout.write(text if text.endswith("\n") else text + "\n")
    sys.stdout.flush()


def print_error(message: str) -> None:
    """The one error printer: one red line "error: <message>" on stderr."""
    from rich.console import Console
    from rich.text import Text

    line = " ".join(message.split("\n"))
    Console(stderr=True, highlight=False, soft_wrap=True).print(Text(f"error: {line}", style="red"))
