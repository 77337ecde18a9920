"""Every `jvmlab` command line the README and docs/*.md show exists as written: each example line of a code
block parses with its options (`--help` appended: click checks every option, and jvmlab refuses an option of
another mode, before the eager help), and each command named inline (`jvmlab gc summary`, `jdks remove NAME`,
`jvmlab profile --count`) is a real command path with real options. A doc that names `jvmlab flags check`
when the command is `jvmlab jdks check` fails here, and so does a command of the CLI without an example in
the README."""

from __future__ import annotations

import re
import shlex
from pathlib import Path
from typing import Any

import pytest
import typer
from click.testing import CliRunner

from jvmlab.cli.main import app

REPO = Path(__file__).resolve().parents[2]
DOCS = [REPO / "README.md", *sorted((REPO / "docs").glob("*.md"))]
COMMAND = typer.main.get_command(app)
GROUPS = sorted(name for name, c in COMMAND.commands.items() if hasattr(c, "commands"))
WORD = re.compile(r"[a-z][a-z-]*")


def examples(text: str) -> list[str]:
    """The `jvmlab ...` lines of the code blocks, their comments cut off."""
    found = []
    for block in re.findall(r"```[a-z]*\n(.*?)```", text, re.S):
        for line in block.splitlines():
            line = line.strip().removeprefix("$ ")
            if line.startswith("jvmlab "):
                found.append(re.split(r"\s{2,}#|\s#\s", line)[0].strip())
    return found


def mentions(text: str) -> list[tuple[str, bool]]:
    """(command line, whole example?) for each `jvmlab ...` of a text: example lines, inline mentions."""
    return [(line, True) for line in examples(text)] + [
        (inline, False) for inline in re.findall(r"`(jvmlab [a-z][^`]*)`", text)
    ]


def documented() -> list[tuple[str, str, bool]]:
    """(file, command line, whole example?) for each jvmlab command line of the docs."""
    found = []
    groups = "|".join(GROUPS)
    for path in DOCS:
        text = path.read_text()
        found += [(path.name, line, whole) for line, whole in mentions(text)]
        # `jdks remove NAME`, `profile diff`: a group's subcommand named without `jvmlab`
        named = re.findall(rf"`((?:{groups}) [a-z][^`]*)`", text)
        found += [(path.name, f"jvmlab {m}", False) for m in named]
    return found


def argv_of(line: str, whole: bool) -> list[str] | None:
    """The arguments to check: an example's up to `--` (what follows is the JVM's), `[--opt VALUE]` read as
    `--opt VALUE`; of an inline mention, its command path and the names of its options (an inline
    `--count` names the option without its value). None for a placeholder command (`jvmlab COMMAND`)."""
    try:
        words = shlex.split(line)[1:]
    except ValueError:
        return None
    if any("|" in w or "..." in w or w.isupper() and not w.startswith("-") for w in words[:1]):
        return None
    if "--" in words:
        words = words[: words.index("--")]
    if whole:
        return [w.removeprefix("[").removesuffix("]") for w in words if w not in ("[", "]")]
    options = [w for w in words if w.startswith("-")]
    path = words[: next((i for i, w in enumerate(words) if w.startswith("-")), len(words))]
    return [w for w in path if WORD.fullmatch(w)] + options


def resolve(words: list[str]) -> tuple[Any, list[str], str | None]:
    """(command, its path, problem): the command the words name, walking groups; a bare word where a group
    expects its subcommand (`jvmlab jit directivez`) is a problem."""
    command, path = COMMAND, []
    for w in words:
        subcommands = getattr(command, "commands", {})
        if w in subcommands:
            command, path = subcommands[w], [*path, w]
            continue
        if subcommands and WORD.fullmatch(w):
            return command, path, f"`{' '.join(['jvmlab', *path])}` has no subcommand {w!r}"
        break
    return command, path, None


def option_names(command: Any) -> set[str]:
    return {"--help"} | {n for p in command.params for n in (*p.opts, *p.secondary_opts) if n.startswith("-")}


def problem(line: str, whole: bool) -> str | None:
    """What is wrong with a documented command line, or None."""
    argv = argv_of(line, whole)
    assert argv is not None
    command, path, wrong = resolve(argv)
    if wrong:
        return wrong
    if whole:
        result = CliRunner().invoke(COMMAND, [*argv, "--help"])
        if result.exit_code != 0:
            return str(result.exception or "") or " ".join(result.output.strip().splitlines()[-3:])
        return None
    unknown = [w for w in argv[len(path) :] if w.split("=", 1)[0] not in option_names(command)]
    return f"`{' '.join(['jvmlab', *path])}` has no option {unknown[0]}" if unknown else None


CASES = [(f, line, whole) for f, line, whole in documented() if argv_of(line, whole) is not None]


def test_the_docs_show_commands():
    assert len(CASES) > 150
    assert {"README.md", "profile.md", "jit.md", "counting.md"} <= {doc for doc, _, _ in CASES}
    assert any(line.startswith("jvmlab jdks remove") for _, line, _ in CASES)


@pytest.mark.parametrize("path", DOCS, ids=lambda p: p.name)
def test_every_command_a_doc_names_is_checked(path):
    """A command named where neither regex looks (prose without backticks, another kind of block) would
    escape the checks: each `jvmlab COMMAND` of the text is one of the lines checked."""
    text = path.read_text()
    command = rf"jvmlab (?:{'|'.join(COMMAND.commands)})\b"
    checked = [line for line, whole in mentions(text) if argv_of(line, whole) is not None]
    assert len(re.findall(rf"\b{command}", text)) <= sum(len(re.findall(command, line)) for line in checked)


@pytest.mark.parametrize(("doc", "line", "whole"), CASES, ids=[f"{c[0]}:{c[1][:60]}" for c in CASES])
def test_a_documented_command_line_parses(doc, line, whole):
    assert problem(line, whole) is None, f"{doc}: `{line}`: {problem(line, whole)}"


@pytest.mark.parametrize(
    ("line", "whole"),
    [
        ("jvmlab flags check -- -Xmx2g", True),
        ("jvmlab flags check", False),
        ("jvmlab jit directivez profile/", True),
        ("jvmlab jit directivez", False),
        ("jvmlab profile dif base.collapsed new.collapsed", True),
        ("jvmlab profile --frobnicate 3 -- java -jar app.jar", True),
        ("jvmlab profile --frobnicate", False),
        ("jvmlab profile diff a b --pid 4242", True),
        ("jvmlab profile diff --count", False),
        ("jvmlab profile --db jvmlab.db -- java -jar app.jar", True),
        ("jvmlab jit gc.log -o hot.json", True),
        ("jvmlab jit directives profile/ [--json]", True),
        ("jvmlab jit directives --top", False),
    ],
)
def test_a_command_or_option_that_does_not_exist_is_found(line, whole):
    assert problem(line, whole) is not None


def commands(command: Any = COMMAND, path: tuple[str, ...] = ()) -> list[tuple[str, ...]]:
    """The path of every command that runs: leaf commands, and groups with a main mode of their own."""
    subcommands = getattr(command, "commands", None)
    if subcommands is None:
        return [path]
    own = [path] if path and command.invoke_without_command else []
    return own + [p for name, sub in subcommands.items() for p in commands(sub, (*path, name))]


@pytest.mark.parametrize("path", commands(), ids=" ".join)
def test_the_readme_has_an_example_of_every_command(path):
    readme = [resolve(argv_of(line, True) or [])[1] for line in examples((REPO / "README.md").read_text())]
    assert list(path) in readme, f"README.md: no example of `jvmlab {' '.join(path)}`"
