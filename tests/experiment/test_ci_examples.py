"""The pipeline examples (examples/ci/) call jvmlab commands and options that exist."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
import typer

from jvmlab.cli.main import app

EXAMPLES = Path(__file__).parents[2] / "examples" / "ci"
CALL = re.compile(r"jvmlab (compare|gate|report|run|results)\b([^|;\n]*)")


def calls(text: str) -> list[tuple[str, list[str]]]:
    joined = re.sub(r"\\\n\s*", " ", text)  # continued shell lines
    return [
        (m.group(1), re.findall(r"(?<![\w-])(--?[a-z][a-z-]*)", m.group(2))) for m in CALL.finditer(joined)
    ]


@pytest.mark.parametrize("name", ["github-actions.yml", "Jenkinsfile"])
def test_the_examples_use_real_commands_and_options(name):
    command = typer.main.get_command(app)
    found = calls((EXAMPLES / name).read_text())
    assert {c for c, _ in found} >= {"run", "gate", "report"}
    for sub, options in found:
        known = {opt for p in command.commands[sub].params for opt in p.opts}  # type: ignore[attr-defined]
        assert set(options) <= known, (sub, set(options) - known)
    gate = [opts for sub, opts in found if sub == "gate"]
    assert any({"--junit", "--markdown"} <= set(opts) for opts in gate)
    assert "--against" in (EXAMPLES / name).read_text()  # in GitHub's example, through a shell array
