"""The runner's view of the JDKs: the spec's selections resolved against what `jvmlab jdks` finds, and the
flag check of every JDK x flag set (jvmlab.jdk.flags), as the verdicts the plan keeps."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from jvmlab.container import Limits
from jvmlab.experiment.execution.verdict import FlagVerdict
from jvmlab.experiment.spec import ExperimentSpec


def resolve(selections: Sequence[str]) -> list[Any]:
    from jvmlab.jdk import installed_jdks
    from jvmlab.jdk.select import select_jdks

    return select_jdks(installed_jdks(), list(selections))


def check(
    jdks: Sequence[Any], flag_sets: Mapping[str, Sequence[str]], limits: Limits | None = None
) -> dict[tuple[str, str], FlagVerdict]:
    """Every JDK x flag set, in a container with `limits` when given."""
    from jvmlab.jdk.flags import check_matrix

    verdicts = {}
    for c in check_matrix(jdks, flag_sets, limits=limits):
        verdicts[(c.jdk_name, c.label)] = FlagVerdict(
            accepted=c.accepted,
            message=c.error,
            warnings=tuple(c.warnings),
            ergonomics=c.ergonomics.to_dict() if c.ergonomics else {},
            flag_table={f.name: str(f.value) for f in c.flag_table},
            container=c.container.to_dict() if c.container else None,
        )
    return verdicts


def classes_for(spec: ExperimentSpec) -> Path:
    """The bundled Java classes, checked only when the workload's command uses `{classes}`."""
    from jvmlab.workloads import classes_dir

    if any("{classes}" in item for item in spec.workload.command):
        return classes_dir()
    return Path(".")
