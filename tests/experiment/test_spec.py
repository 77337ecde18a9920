"""Spec validation: errors name the file, the key and the fix."""

from __future__ import annotations

import tomllib
from pathlib import Path

import pytest

from jvmlab.experiment.spec import SpecError, load_spec, parse_spec

REPO = Path(__file__).resolve().parents[2]
BASE = """
name = "x"
[workload]
command = ["{java}", "{jvm_opts}", "-cp", "{classes}", "Main"]
"""


def spec(extra: str = "", base: str = BASE):
    return parse_spec(tomllib.loads(base + extra), source="x.toml")


def error(extra: str = "", base: str = BASE) -> str:
    with pytest.raises(SpecError) as e:
        spec(extra, base)
    return str(e.value)


def test_defaults():
    s = spec()
    assert s.matrix.jdks == ["all"] and s.matrix.flags == {"default": []} and s.matrix.repetitions == 3
    assert s.workload.stop.exit and s.telemetry.gc_log and s.trial.timeout_s == 600


def test_the_bundled_example_is_valid():
    s = load_spec(REPO / "examples" / "jdk-shootout.toml")
    assert s.name == "jdk-shootout" and set(s.matrix.flags) == {"default", "tuned"}


@pytest.mark.parametrize("path", sorted((REPO / "examples").glob("*.toml")), ids=lambda p: p.name)
def test_every_example_is_valid(path):
    assert load_spec(path).name


def test_the_code_cache_example_compares_the_code_cache_settings():
    s = load_spec(REPO / "examples" / "code-cache.toml")
    assert "jvmlab.workloads.BigCode" in s.workload.command and s.workload.metric is not None
    assert {"default", "full", "small", "generous", "unsegmented", "segmented", "thp"} == set(s.matrix.flags)


@pytest.mark.parametrize(
    ("extra", "message"),
    [
        ("[matrix]\nrepetition = 3\n", "x.toml: matrix.repetition: unknown key"),
        (
            "[matrix]\nrepetitions = 0\n",
            'x.toml: matrix.repetitions: a whole number from 1 to 1000, or "auto"',
        ),
        (
            "[matrix]\norder = 'random'\n",
            "x.toml: matrix.order: Input should be 'interleaved' or 'sequential'",
        ),
        ("[matrix.flags]\n'bad name' = []\n", "matrix.flags: flag set name 'bad name'"),
        ("[workload.stop]\nexit = true\nduration_s = 5\n", "workload.stop: give exactly one of exit = true"),
        (
            "[workload.ready]\ntimeout_s = 5\n",
            "workload.ready: give exactly one of log (a regex), port or url",
        ),
        ("[workload.metric]\nname = 'cps'\nregex = 'Rate: ([0-9.]+)'\n", "needs a group named value"),
        (
            "[workload.metric]\nname = 'cps'\nregex = 'Rate: (?P<value>[0-9.]+'\n",
            "workload.metric.regex: not a valid regex",
        ),
        ("[trial]\ntimeout_s = -1\n", "trial.timeout_s: Input should be greater than 0"),
        ("workdir_template = 'no/such/dir'\n", None),
    ],
)
def test_errors_name_the_key(extra, message):
    if message is None:  # a key of [workload]: appended to that table
        assert "workload.workdir_template:" in error(extra) and "is not a directory" in error(extra)
        return
    assert message in error(extra)


def test_placeholders_are_checked():
    base = 'name = "x"\n[workload]\ncommand = ["{java}", "-Dx={jvm_opts}", "{jdk}"]\n'
    assert "unknown placeholder {jdk}" in error(base=base) or "{jvm_opts} must be an argv item" in error(
        base=base
    )
    base = 'name = "x"\n[workload]\ncommand = ["{java}", "{workdirr}"]\n'
    assert "unknown placeholder {workdirr}" in error(base=base)


def test_a_missing_name_and_a_missing_file():
    assert "x.toml: name: required key is missing" in error(base='[workload]\ncommand = ["java"]\n')
    with pytest.raises(SpecError, match="no such file"):
        load_spec("/no/such/spec.toml")


def test_bad_toml(tmp_path):
    bad = tmp_path / "bad.toml"
    bad.write_text("name = \n")
    with pytest.raises(SpecError, match=r"bad.toml: not valid TOML"):
        load_spec(bad)
