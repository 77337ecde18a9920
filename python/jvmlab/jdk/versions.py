"""Java version strings, read in one place: `1.8.0_504`, `17.0.15+6-Debian-1deb12u1`, `25`, `11.0.2-ea`.

Two schemes share the strings: JDK 8 and older `1.<major>.<minor>_<update>[-<milestone>]-b<build>`
(`1.8.0_504-8u504-ga-1-b01`; `jcmd VM.version` of JDK 8 says `8.0_504`), and JDK 9+ (JEP 223, JEP 322)
`<feature>.<interim>.<update>[.<patch>...][-<pre>][+<build>][-<opt>]` (`25.0.3+9-LTS`, `25-ea+27-2262`).

Also where a version stands in what a JVM prints (`version_in_info`, `version_in_vm_version`), the major a
user names (`parse_major`: 17, jdk17, 1.8) and the version a JDK home's `release` file gives.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path

from jvmlab.jdk.vendors import read_release

# The leading numbers: `1.8.0_504` (the legacy `1.` prefix), `17.0.15.1`, `8.0_504`; then what follows.
_NUMBERS = re.compile(
    r"(?:1\.(?=\d))?(?P<major>\d+)(?:\.(?P<minor>\d+))?(?:\.(?P<update>\d+))?(?:\.\d+)*"
    r"(?:_(?P<legacy_update>\d+))?(?P<rest>.*)",
    re.S,
)
_PRE = re.compile(r"^-(?!b\d)(?P<pre>[A-Za-z][A-Za-z0-9]*)")  # `-b15` is a legacy build, not a pre-release
_BUILD = re.compile(r"\+(?P<build>\d+)|-b(?P<legacy_build>\d+)")
# HotSpot's VM info string (a JDK 8 GC log's first line, JFR's jvmVersion): `... for linux-amd64 JRE
# (1.8.0_504-8u504-ga-1-b01), built on ...`, Zulu's with its own name first (`JRE (Zulu17.46+19-CA)
# (17.0.9+8-LTS)`); OpenJ9's and IBM J9's build line: `(build 2.9, JRE 1.8.0 Linux amd64-64-Bit ...)`. The
# version in the parentheses after `VM` is the VM's own (25.504-b01 on JDK 8), not Java's.
_JRE = re.compile(r"\bJRE (?:\((?!\d)[^)]*\) )?\(?(?P<version>\d[^\s),]*)")
# `jcmd PID VM.version`: `OpenJDK 64-Bit Server VM version 17.0.15+6-...` then `JDK 17.0.15`.
_JDK_LINE = re.compile(r"^JDK (\S+)", re.M)
# What a user names a major by: `17`, `jdk17`, `jdk-17`, `java17`, `1.8`.
_MAJOR_SPEC = re.compile(r"(?:jdk-?|java-?)?((?:1\.)?\d+)")


@dataclass(frozen=True, order=True)
class JavaVersion:
    """A Java version's numbers (ordered by them): 8u504 is major 8, update 504; 17.0.15 is major 17, minor
    0, update 15. build: the build number as written (`1.8.0_412-b08` -> "08", `17.0.9+9` -> "9"); pre: the
    pre-release tag (`ea`); text: the string read."""

    major: int
    minor: int = 0
    update: int = 0
    build: str | None = field(default=None, compare=False)
    pre: str | None = field(default=None, compare=False)
    text: str = field(default="", compare=False)


def parse_version(text: str) -> JavaVersion:
    """The numbers of a Java version string (either scheme, see the module docstring); ValueError naming
    the text when it starts with no version or goes on with something else than `-`, `+` or a space."""
    stripped = text.strip()
    m = _NUMBERS.fullmatch(stripped)
    rest = m["rest"] if m else ""
    if m is None or (rest and rest[0] not in "-+ \t\n"):
        raise ValueError(f"{text!r} is not a Java version (e.g. 1.8.0_504, 17.0.15+6, 25)")
    update = m["legacy_update"] or m["update"]
    build = _BUILD.search(rest.split()[0]) if rest.strip() else None
    pre = _PRE.match(rest)
    return JavaVersion(
        major=int(m["major"]),
        minor=int(m["minor"] or 0),
        update=int(update or 0),
        build=(build["build"] or build["legacy_build"]) if build else None,
        pre=pre["pre"] if pre else None,
        text=stripped,
    )


def parse_major(text: str) -> int | None:
    """A major as a user names it (`17`, `jdk17`, `jdk-17`, `1.8`) -> the major; None when the text is
    not one (a full version or a JDK's name are not)."""
    m = _MAJOR_SPEC.fullmatch(text.strip().lower())
    return parse_version(m[1]).major if m else None


def version_in_info(text: str) -> str | None:
    """The Java version in a VM's info or build string (`JRE (17.0.15+6-...)`, OpenJ9's `JRE 1.8.0 ...`)."""
    m = _JRE.search(text)
    return m["version"] if m else None


def version_in_vm_version(text: str) -> str | None:
    """The Java version `jcmd PID VM.version` printed (its `JDK 17.0.15` line; JDK 8: `JDK 8.0_504`)."""
    m = _JDK_LINE.search(text)
    return m[1] if m else None


def version_of_home(home: Path) -> JavaVersion | None:
    """The version a JDK home's `release` file gives (JAVA_VERSION); None without one or when unreadable."""
    version = read_release(home).get("JAVA_VERSION", "").strip('"')
    try:
        return parse_version(version) if version else None
    except ValueError:
        return None
