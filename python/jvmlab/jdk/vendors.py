"""Who built a JDK and which VM it runs, from its `release` file and the JVM's system properties.

Pure functions: `release` is the parsed `release` file, `props` what `-XshowSettings:properties` printed.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from pathlib import Path

# (pattern in the vendor strings, lower case) -> short distribution name. First match wins.
_DISTRIBUTIONS = (
    ("graalvm community", "graalvm-ce"),
    ("graalvm", "graalvm"),
    ("adoptium", "temurin"),
    ("temurin", "temurin"),
    ("adoptopenjdk", "adoptopenjdk"),
    ("amazon", "corretto"),
    ("corretto", "corretto"),
    ("bellsoft", "liberica"),
    ("microsoft", "microsoft"),
    ("sap se", "sapmachine"),
    ("red hat", "redhat"),
    ("openj9", "semeru"),
    ("international business machines", "semeru"),
    ("ibm", "semeru"),
    ("alibaba", "dragonwell"),
    ("tencent", "kona"),
    ("jetbrains", "jbr"),
    ("loongson", "loongson"),
)
# Linux distributions and unbranded builds: plain OpenJDK.
_PLAIN_OPENJDK = ("debian", "ubuntu", "private build", "n/a", "homebrew", "arch linux", "alpine", "openjdk")
_ARCHES = {"amd64": "x86_64", "x86_64": "x86_64", "x64": "x86_64", "aarch64": "aarch64", "arm64": "aarch64"}
_RELEASE_LINE = re.compile(r'^([A-Z_][A-Z0-9_]*)="?(.*?)"?\s*$')


def read_release(home: Path) -> dict[str, str]:
    """The `release` file as {KEY: value}; {} when there is none (old JREs may have none)."""
    try:
        text = (home / "release").read_text(errors="replace")
    except OSError:
        return {}
    pairs = (_RELEASE_LINE.match(line) for line in text.splitlines())
    return {m[1]: m[2] for m in pairs if m is not None}


def vendor_strings(props: Mapping[str, str], release: Mapping[str, str]) -> str:
    keys = ("java.vendor", "java.vm.vendor", "java.vendor.version", "java.vm.name")
    return " | ".join([props.get(k, "") for k in keys] + [release.get("IMPLEMENTOR", "")]).lower()


def vm_kind(props: Mapping[str, str], release: Mapping[str, str]) -> str:
    """HotSpot, OpenJ9, Zing or GraalVM."""
    name = props.get("java.vm.name", "")
    text = vendor_strings(props, release)
    if "openj9" in name.lower() or " j9" in f" {name.lower()}":
        return "OpenJ9"
    if "zing" in text or "prime" in props.get("java.vendor.version", "").lower():
        return "Zing"
    if "graalvm" in text or "GRAALVM_VERSION" in release:
        return "GraalVM"
    return "HotSpot"


def vendor_of(props: Mapping[str, str], release: Mapping[str, str]) -> str:
    """The vendor as the JDK names itself: release IMPLEMENTOR, else java.vendor, else java.vm.vendor."""
    for value in (release.get("IMPLEMENTOR"), props.get("java.vendor"), props.get("java.vm.vendor")):
        if value:
            return value
    return "unknown"


def distribution_of(props: Mapping[str, str], release: Mapping[str, str], vm: str) -> str:
    """Short vendor name for JDK names and `vendor:` selections: temurin, corretto, zulu, openjdk, ..."""
    text = vendor_strings(props, release)
    if "azul" in text:
        return "zing" if vm == "Zing" else "zulu"
    for pattern, short in _DISTRIBUTIONS:
        if pattern in text:
            return short
    if "oracle" in text:
        return "oracle" if "java(tm)" in text or "hotspot(tm)" in text else "openjdk"
    vendor = vendor_of(props, release).lower()
    if vendor == "unknown" or any(v in vendor for v in _PLAIN_OPENJDK):
        return "openjdk"
    return re.sub(r"[^a-z0-9]+", "-", vendor).strip("-") or "openjdk"


def arch_of(props: Mapping[str, str], release: Mapping[str, str]) -> str:
    raw = props.get("os.arch") or release.get("OS_ARCH") or "unknown"
    return _ARCHES.get(raw.lower(), raw)
