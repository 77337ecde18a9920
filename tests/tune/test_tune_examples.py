"""The tuning examples (examples/tune-*.toml) read, and their search space builds on the JDK they name."""

from __future__ import annotations

from pathlib import Path

import pytest

from jvmlab.cli.main import main

EXAMPLES = sorted((Path(__file__).parents[2] / "examples").glob("tune-*.toml"))
pytestmark = pytest.mark.jvm


@pytest.mark.parametrize("spec", EXAMPLES, ids=lambda p: p.name)
def test_the_example_plans_its_search(spec, capsys):
    assert main(["tune", str(spec), "--dry-run"]) == 0
    out = " ".join(capsys.readouterr().out.split())
    assert "search space on" in out and "objectives:" in out


def test_there_are_two():
    assert [p.name for p in EXAMPLES] == ["tune-api.toml", "tune-chunkgen.toml"]
