"""The built-in search space on every JDK installed here: each collector it offers with every knob at
either end, every choice of every knob, and random points of the whole space, are accepted by that JDK (a
real JVM start each, `jvmlab flags check`'s way)."""

from __future__ import annotations

import optuna
import pytest

from jvmlab.experiment.execution import jdks
from jvmlab.tune.space import build_space

pytestmark = pytest.mark.jvm
POINTS = 4  # random points beside the enumerated ones (every collector, knob end and choice)


@pytest.mark.parametrize("selection", ["11", "17", "21", "25"])
def test_no_point_of_the_builtin_space_is_rejected(selection):
    found = jdks.resolve([selection])
    if not found:
        pytest.skip(f"no JDK {selection} here (make jdks)")
    jdk = found[0]
    defaults = jdks.check([jdk], {"defaults": []})[(jdk.name, "defaults")]
    # whether a JVM accepts a flag does not hang on the heap's size, and pre-touching costs CPU per MiB:
    # about 1 CPU-s for a 512 MiB ZGC heap, half that at 256 (the largest G1 region, 32 MiB, fits 8 times)
    space = build_space(
        major=jdk.major, have=set(defaults.flag_table), cpus=2, builtin=True, exclude=[], params={},
        heap_mb=(128, 256),
    )  # fmt: skip
    collectors = next(d for d in space.dimensions if d.name == "collector").choices
    assert collectors and "-XX:+UseG1GC" in collectors
    assert ("-XX:+UseConcMarkSweepGC" in collectors) == (jdk.major <= 13)  # removed in 14
    study = optuna.create_study(sampler=optuna.samplers.RandomSampler(seed=jdk.major))
    points: dict[str, list[str]] = {}
    for i in range(POINTS):
        trial = study.ask()
        points[f"p{i}"] = space.flags(space.sample(trial))
        study.tell(trial, 0.0)
    for c in collectors:  # every collector with its own knobs at least once
        study.enqueue_trial({"collector": c})
        trial = study.ask()
        points[c] = space.flags(space.sample(trial))
        study.tell(trial, 0.0)
    for c in collectors:  # every knob of the collector at its low end, then at its high end
        for end in (0, -1):
            points[f"{c}{'-high' if end else '-low'}"] = space.flags(extreme(space, c, end))
    for i in range(max(len(d.choices or ()) for d in space.dimensions)):  # every choice of every knob
        values: dict = {}
        for d in space.dimensions:
            if d.applies(values):
                values[d.name] = d.choices[i % len(d.choices)] if d.choices else d.low
        points[f"choices-{i}"] = space.flags(values)
    # each distinct point started once (choices-0 is the first collector with every knob at its low end)
    distinct = {tuple(flags): name for name, flags in points.items()}
    verdicts = jdks.check([jdk], {name: list(flags) for flags, name in distinct.items()})
    rejected = {name: (points[name], v.message) for (_, name), v in verdicts.items() if not v.accepted}
    assert not rejected, rejected


def extreme(space, collector: str, end: int) -> dict:
    """A point with `collector` and every other knob at one end: its range's low or high end, its first
    (the default) or last choice."""
    values: dict = {"collector": collector}
    for d in space.dimensions:
        if d.name != "collector" and d.applies(values):
            values[d.name] = d.choices[end] if d.choices else (d.low, d.high)[end]
    return values


def test_a_value_of_the_users_space_the_jvm_refuses_is_an_error_before_anything_runs():
    import tomllib

    from jvmlab.errors import UsageError
    from jvmlab.experiment.spec import parse_spec
    from jvmlab.tune import prepare

    text = """
name = "t"
[workload]
command = ["{java}", "-version"]
metric = { name = "ops_per_s", regex = "ops=(?P<value>[0-9.]+)" }
[matrix]
jdks = ["21"]
[tune]
objectives = [{ measure = "ops_per_s" }]
budget = { trials = 5 }
builtin = false
[tune.params.young]
choices = ["", "-XX:+UnlockExperimentalVMOptions -XX:G1NewSizePercent=20"]
[tune.params.ratio]
flag = "-XX:NewRatio={}"
low = 1
high = 4
"""
    setup = prepare(parse_spec(tomllib.loads(text), source="t.toml"), jdks.resolve, jdks.check)
    assert setup.space.names() == ["young", "ratio"]  # experimental flags: unlocked, accepted
    bad = text.replace("G1NewSizePercent=20", "G1NewSizePercent=20 -XX:+UseFancyGC")
    with pytest.raises(
        UsageError, match=r"tune.params.young: \S+ refuses .*UseFancyGC: Unrecognized VM option"
    ):
        prepare(parse_spec(tomllib.loads(bad), source="t.toml"), jdks.resolve, jdks.check)
    low = text.replace("low = 1", "low = -1")
    with pytest.raises(UsageError, match=r"tune.params.ratio: \S+ refuses -XX:NewRatio=-1"):
        prepare(parse_spec(tomllib.loads(low), source="t.toml"), jdks.resolve, jdks.check)
