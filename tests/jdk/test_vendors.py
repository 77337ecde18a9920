"""Vendor, VM, arch and build from system properties and the release file (pure functions)."""

from __future__ import annotations

import pytest

from jvmlab.jdk.vendors import arch_of, distribution_of, read_release, vendor_of, vm_kind


def _props(vendor: str, vm_name: str = "OpenJDK 64-Bit Server VM", **more: str) -> dict[str, str]:
    return {"java.vendor": vendor, "java.vm.vendor": vendor, "java.vm.name": vm_name, **more}


@pytest.mark.parametrize(
    ("props", "release", "vm", "distribution"),
    [
        (_props("Eclipse Adoptium"), {"IMPLEMENTOR": "Eclipse Adoptium"}, "HotSpot", "temurin"),
        (_props("Debian"), {"IMPLEMENTOR": "Debian"}, "HotSpot", "openjdk"),
        (_props("Private Build"), {}, "HotSpot", "openjdk"),
        (_props("Amazon.com Inc."), {}, "HotSpot", "corretto"),
        (_props("Azul Systems, Inc."), {}, "HotSpot", "zulu"),
        (_props("Azul Systems, Inc.", "Zing 64-Bit Tiered VM"), {}, "Zing", "zing"),
        (_props("BellSoft"), {}, "HotSpot", "liberica"),
        (_props("Microsoft"), {}, "HotSpot", "microsoft"),
        (_props("SAP SE"), {}, "HotSpot", "sapmachine"),
        (_props("Oracle Corporation", "Java HotSpot(TM) 64-Bit Server VM"), {}, "HotSpot", "oracle"),
        (_props("Oracle Corporation"), {}, "HotSpot", "openjdk"),
        (_props("IBM Corporation", "Eclipse OpenJ9 VM"), {}, "OpenJ9", "semeru"),
        (
            _props("GraalVM Community", **{"java.vendor.version": "GraalVM CE 21+35.1"}),
            {},
            "GraalVM",
            "graalvm-ce",
        ),
        (
            _props("Oracle Corporation", **{"java.vendor.version": "Oracle GraalVM 21+35.1"}),
            {},
            "GraalVM",
            "graalvm",
        ),
        (_props("Frobnicator Labs"), {}, "HotSpot", "frobnicator-labs"),
    ],
)
def test_vm_and_distribution(props, release, vm, distribution):
    assert vm_kind(props, release) == vm
    assert distribution_of(props, release, vm) == distribution


def test_vendor_prefers_the_release_file():
    assert vendor_of({"java.vendor": "Debian"}, {"IMPLEMENTOR": "Debian Project"}) == "Debian Project"
    assert vendor_of({"java.vm.vendor": "X"}, {}) == "X"
    assert vendor_of({}, {}) == "unknown"


def test_arch():
    assert arch_of({"os.arch": "amd64"}, {}) == "x86_64"
    assert arch_of({}, {"OS_ARCH": "aarch64"}) == "aarch64"
    assert arch_of({}, {}) == "unknown"


def test_read_release(tmp_path):
    (tmp_path / "release").write_text(
        'JAVA_VERSION="21.0.8"\nIMPLEMENTOR="Eclipse Adoptium"\nOS_ARCH=x86_64\n# x\n'
    )
    assert read_release(tmp_path) == {
        "JAVA_VERSION": "21.0.8",
        "IMPLEMENTOR": "Eclipse Adoptium",
        "OS_ARCH": "x86_64",
    }
    assert read_release(tmp_path / "missing") == {}
