"""select_jdks: by name, major (17, >=17), vendor:, vm:, all; unknown selections list what is available."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest

from jvmlab.errors import UsageError
from jvmlab.jdk.model import Jdk
from jvmlab.jdk.select import select_jdks

TEMPLATE = Jdk(
    name="", home=Path("/jdk"), version="", major=0, build=None, runtime_version="", vendor="",
    distribution="", vm="HotSpot", vm_name="", arch="x86_64", collectors=(), has_jfr=True,
    has_jfr_tool=True, has_cds_archive=True, has_javac=True, sources=("test",),
)  # fmt: skip


def _jdk(name: str, major: int, vendor: str, distribution: str, vm: str = "HotSpot") -> Jdk:
    return replace(
        TEMPLATE,
        name=name,
        major=major,
        version=f"{major}.0.1",
        vendor=vendor,
        distribution=distribution,
        vm=vm,
    )


JDKS = [
    _jdk("openjdk-17.0.15", 17, "Debian", "openjdk"),
    _jdk("temurin-11.0.13", 11, "Eclipse Adoptium", "temurin"),
    _jdk("temurin-21.0.8", 21, "Eclipse Adoptium", "temurin"),
    _jdk("temurin-25.0.3", 25, "Eclipse Adoptium", "temurin"),
    _jdk("semeru-21.0.2", 21, "IBM Corporation", "semeru", vm="OpenJ9"),
]


def _names(spec):
    return [j.name for j in select_jdks(JDKS, spec)]


@pytest.mark.parametrize(
    ("spec", "names"),
    [
        ("temurin-21.0.8", ["temurin-21.0.8"]),
        ("17", ["openjdk-17.0.15"]),
        (">=21", ["temurin-21.0.8", "temurin-25.0.3", "semeru-21.0.2"]),
        ("<17", ["temurin-11.0.13"]),
        ("<=17", ["openjdk-17.0.15", "temurin-11.0.13"]),
        (">21", ["temurin-25.0.3"]),
        ("==25", ["temurin-25.0.3"]),
        ("vendor:temurin", ["temurin-11.0.13", "temurin-21.0.8", "temurin-25.0.3"]),
        ("vendor:Adoptium", ["temurin-11.0.13", "temurin-21.0.8", "temurin-25.0.3"]),
        ("vendor:debian", ["openjdk-17.0.15"]),
        ("vm:openj9", ["semeru-21.0.2"]),
        ("all", [j.name for j in JDKS]),
        ("25,11", ["temurin-11.0.13", "temurin-25.0.3"]),  # in discovery order, each once
        (["21", "vendor:temurin"], ["temurin-11.0.13", "temurin-21.0.8", "temurin-25.0.3", "semeru-21.0.2"]),
    ],
)
def test_selections(spec, names):
    assert _names(spec) == names


@pytest.mark.parametrize("spec", ["temurin-99", "8", ">=26", "vendor:corretto", "vm:zing"])
def test_unknown_selection_lists_what_is_available(spec):
    with pytest.raises(UsageError) as error:
        select_jdks(JDKS, spec)
    message = str(error.value)
    assert f"no JDK matches {spec!r}" in message
    assert "temurin-21.0.8 (21, temurin)" in message and "vendor:NAME" in message


def test_empty_selection_and_no_jdks():
    with pytest.raises(UsageError, match="empty JDK selection"):
        select_jdks(JDKS, " , ")
    with pytest.raises(UsageError, match="no JDKs were found"):
        select_jdks([], "all")
