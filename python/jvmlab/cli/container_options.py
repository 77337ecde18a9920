"""The container options of `run`, `jdks check` and `advise` (docs/containers.md): one definition, read into
container.Limits the same way everywhere."""

from __future__ import annotations

from typing import Annotated

import typer

from jvmlab.container.limits import Limits, parse_cpu_list

Cpus = Annotated[
    float | None, typer.Option("--cpus", help="A container of this many CPUs (a CFS quota: 0.5, 2).")
]
Memory = Annotated[
    str | None, typer.Option("--memory", help="... with this memory limit (512m, 2g; no swap).")
]
Cpuset = Annotated[str | None, typer.Option("--cpuset", help="... on these CPUs (0-1, 0,2).")]


def limits_given(cpus: float | None, memory: str | None, cpuset: str | None = None) -> Limits | None:
    """The limits the options give; None when none is given."""
    limits = Limits.of(cpus, memory, parse_cpu_list(cpuset) if cpuset else None)
    return None if limits.unlimited else limits
