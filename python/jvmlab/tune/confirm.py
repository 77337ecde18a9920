"""The confirmation experiment after a search: the best configuration against the JDK's defaults (and the
flags in use today, when the spec gives them), with enough repetitions for a confidence interval, compared
with the defaults as the baseline and judged against the spec's [goals]."""

from __future__ import annotations

from collections.abc import Sequence

from jvmlab.experiment.spec import ExperimentSpec

DEFAULTS, TUNED, CURRENT = "defaults", "tuned", "current"


def confirmation_spec(source: ExperimentSpec, jdk: str, tuned: Sequence[str]) -> ExperimentSpec:
    assert source.tune is not None
    flags: dict[str, list[str]] = {DEFAULTS: [], TUNED: list(tuned)}
    if source.tune.current is not None:
        flags[CURRENT] = list(source.tune.current)
    data = source.model_dump(mode="json")
    data["name"] = f"{source.name}-confirm"
    data["description"] = f"jvmlab tune: the best configuration of {source.name} confirmed"
    data["matrix"] = {
        **data["matrix"],
        "jdks": [jdk],
        "flags": flags,
        "repetitions": source.tune.confirm_repetitions,
    }
    data["compare"] = {**data["compare"], "baseline": DEFAULTS}
    data["tune"] = None
    spec = ExperimentSpec.model_validate(data)
    return spec.model_copy(update={"spec_dir": source.spec_dir})
