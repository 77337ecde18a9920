"""regress's plan: two sides that differ in one thing, the spec that runs them."""

from __future__ import annotations

from dataclasses import dataclass

import pytest

from jvmlab.errors import UsageError
from jvmlab.experiment.spec import parse_spec
from jvmlab.jfr.events import REGRESSION_EVENTS
from jvmlab.regress import plan_regress, verify_spec


@dataclass(frozen=True)
class FakeJdk:
    name: str


INSTALLED = {"17": ["openjdk-17.0.15", "temurin-17.0.9"], "21": ["temurin-21.0.8"], "25": ["temurin-25.0.1"]}


def resolve(selections):
    out = []
    for s in selections:
        if s == "all":
            return [FakeJdk(n) for names in INSTALLED.values() for n in names]
        names = INSTALLED.get(s) or [n for ns in INSTALLED.values() for n in ns if n == s]
        if not names:
            raise UsageError(f"no JDK matches {s!r}")
        out += [FakeJdk(n) for n in names]
    return out


def spec(jdks='["21"]'):
    return parse_spec(
        {
            "name": "w",
            "workload": {"command": ["{java}", "{jvm_opts}", "-version"]},
            "matrix": {"jdks": eval(jdks), "flags": {"default": [], "ems": ["-Dtls.client=ems"]}},
            "goals": {"all": ["elapsed_s <= 100"]},
        }
    )


def test_two_flag_sets_run_on_the_specs_only_jdk_with_profiles_and_jfr_events():
    p = plan_regress(spec(), "ems", "default", resolve)
    assert (p.base.variant, p.new.variant, p.axis) == (
        "temurin-21.0.8/ems",
        "temurin-21.0.8/default",
        "flags",
    )
    s = p.spec
    assert s.matrix.jdks == ["temurin-21.0.8"] and list(s.matrix.flags) == ["ems", "default"]
    assert s.matrix.repetitions == "auto" and s.matrix.order == "interleaved"  # the spec sets none
    assert s.compare.baseline == "temurin-21.0.8/ems" and s.goals == {}
    assert [p.event for p in s.telemetry.profile] == ["cpu"]
    assert set(REGRESSION_EVENTS) <= set(s.telemetry.jfr_events)


def test_two_jdks_run_one_flag_set_and_an_ambiguous_major_takes_the_first_and_says_so():
    p = plan_regress(spec('["all"]'), "17", "25", resolve, flag_set="ems", repetitions=4)
    assert (p.base.variant, p.new.variant, p.axis) == ("openjdk-17.0.15/ems", "temurin-25.0.1/ems", "jdk")
    assert "matched 2 JDKs" in p.base.note and "temurin-17.0.9" in p.base.note
    assert p.spec.matrix.jdks == ["openjdk-17.0.15", "temurin-25.0.1"] and p.spec.matrix.repetitions == 4


@pytest.mark.parametrize(
    ("base", "new", "kwargs", "message"),
    [
        ("ems", "default", {"jdk_spec": '["all"]'}, "say which one runs both flag sets with --jdk"),
        ("17/ems", "25/default", {}, "differ in both JDK and flag set"),
        ("ems", "ems", {}, "are the same variant"),
        ("ems", "nosuch", {}, "neither a flag set of the spec"),
        ("21/nosuch", "ems", {}, "'nosuch' is not a flag set"),
    ],
)
def test_sides_that_cannot_be_compared_are_one_line_usage_errors(base, new, kwargs, message):
    s = spec(kwargs.get("jdk_spec", '["21"]'))
    with pytest.raises(UsageError, match=message):
        plan_regress(s, base, new, resolve)


def test_the_verify_spec_runs_the_new_side_with_and_without_the_hints_flag():
    p = plan_regress(spec(), "ems", "default", resolve)
    v = verify_spec(p, "tls-ems", ["-Djdk.tls.useExtendedMasterSecret=false"], 3)
    assert v.matrix.jdks == ["temurin-21.0.8"]
    assert v.matrix.flags == {"default": [], "default.tls-ems": ["-Djdk.tls.useExtendedMasterSecret=false"]}
    assert v.compare.baseline == "temurin-21.0.8/default" and v.telemetry.profile is None
