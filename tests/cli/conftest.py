"""Running the real CLI entry point (`jvmlab.cli.main.main`, what the console script calls) in-process."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import pytest
from corpus import GCLOGS

from jvmlab.cli.main import main

REPO = Path(__file__).resolve().parents[2]


@dataclass(frozen=True)
class Run:
    code: int
    out: str
    err: str


@pytest.fixture
def cli(capsys):
    """cli(*args) -> Run(code, out, err)."""

    def run(*args: str) -> Run:
        code = main([str(a) for a in args])
        captured = capsys.readouterr()
        return Run(code, captured.out, captured.err)

    return run


@pytest.fixture
def gclog():
    """gclog("generated/jdk25-g1-gcstar.log") -> path in the corpus (tests/corpus.py)."""

    def path(relative: str) -> Path:
        p = GCLOGS / relative
        if not p.exists():
            pytest.skip(f"{p} is not present")
        return p

    return path
