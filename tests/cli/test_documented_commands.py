"""Every `jvmlab` command line the README and docs/*.md show exists as written: each example line of a code
block parses with its options (`--help` appended: typer checks every option before the eager help), and each
command named inline (`jvmlab gc summary`) is a real command path. A doc that names `jvmlab flags check`
when the command is `jvmlab jdks check` fails here."""

from __future__ import annotations

import re
import shlex
from pathlib import Path

import pytest
import typer
from click.testing import CliRunner

from jvmlab.cli.main import app

REPO = Path(__file__).resolve().parents[2]
DOCS = [REPO / "README.md", *sorted((REPO / "docs").glob("*.md"))]
COMMAND = typer.main.get_command(app)


def documented() -> list[tuple[str, str, bool]]:
    """(file, command line, whole example?) for each jvmlab command line of the docs."""
    found = []
    for path in DOCS:
        text = path.read_text()
        for block in re.findall(r"```[a-z]*\n(.*?)```", text, re.S):
            for line in block.splitlines():
                line = line.strip().removeprefix("$ ")
                if line.startswith("jvmlab "):
                    found.append((path.name, re.split(r"\s{2,}#|\s#\s", line)[0].strip(), True))
        found += [(path.name, inline, False) for inline in re.findall(r"`(jvmlab [a-z][^`]*)`", text)]
    return found


def argv_of(line: str, whole: bool) -> list[str] | None:
    """The arguments to check: an example's up to `--` (what follows is the JVM's); of an inline mention,
    its command path only (an inline `--count` names the option without its value)."""
    try:
        words = shlex.split(line)[1:]
    except ValueError:
        return None
    if any("|" in w or "..." in w or w.isupper() and not w.startswith("-") for w in words[:1]):
        return None
    if "--" in words:
        words = words[: words.index("--")]
    if not whole:
        words = words[: next((i for i, w in enumerate(words) if w.startswith("-")), len(words))]
        words = [w for w in words if re.fullmatch(r"[a-z][a-z-]*", w)]
    return words


CASES = [(f, line, whole) for f, line, whole in documented() if argv_of(line, whole) is not None]


def test_the_docs_show_commands():
    assert len(CASES) > 100


@pytest.mark.parametrize(("doc", "line", "whole"), CASES, ids=[f"{c[0]}:{c[1][:60]}" for c in CASES])
def test_a_documented_command_line_parses(doc, line, whole):
    argv = argv_of(line, whole)
    assert argv is not None
    result = CliRunner().invoke(COMMAND, [*argv, "--help"])
    assert result.exit_code == 0, f"{doc}: `{line}`: {result.output.strip().splitlines()[-3:]}"
