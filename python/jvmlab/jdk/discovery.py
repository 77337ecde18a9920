"""Finds the JDK homes usable on this machine: JAVA_HOME, `java` on PATH and /usr/lib/jvm/*.

A home is a directory with an executable bin/java. Its major version comes from the `release` file
(`JAVA_VERSION="17.0.15"`, `"1.8.0_412"`) or, failing that, from `java -version`. Homes reached through
several symlinks are reported once, by their resolved path.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

SYSTEM_JVM_DIR = Path("/usr/lib/jvm")
_VERSION_TIMEOUT_S = 20
_RELEASE_VERSION = re.compile(r'^JAVA_VERSION="([^"]+)"', re.M)
_VERSION_OUTPUT = re.compile(r'version "([^"]+)"')


@dataclass(frozen=True)
class Jdk:
    """One installed JDK (or JRE) home."""

    home: Path
    major: int
    version: str
    has_jfr: bool

    @property
    def java(self) -> Path:
        return self.home / "bin" / "java"

    @property
    def jfr(self) -> Path:
        return self.home / "bin" / "jfr"


def major_of(version: str) -> int:
    """Major version of a Java version string: "1.8.0_412" -> 8, "17.0.15" -> 17, "25" -> 25."""
    parts = re.split(r"[._+-]", version)
    if parts[0] == "1" and len(parts) > 1:
        return int(parts[1])
    return int(parts[0])


def _version_from_release(home: Path) -> str | None:
    try:
        text = (home / "release").read_text(errors="replace")
    except OSError:
        return None
    m = _RELEASE_VERSION.search(text)
    return m.group(1) if m else None


def _version_from_java(java: Path) -> str | None:
    try:
        out = subprocess.run(
            [str(java), "-version"], capture_output=True, text=True, timeout=_VERSION_TIMEOUT_S
        )
    except (OSError, subprocess.TimeoutExpired):
        return None
    m = _VERSION_OUTPUT.search(out.stderr + out.stdout)
    return m.group(1) if m else None


def jdk_at(home: str | Path) -> Jdk | None:
    """The JDK at `home`, or None when it has no runnable bin/java or no recognisable version."""
    home = Path(home).resolve()
    java = home / "bin" / "java"
    if not (java.is_file() and os.access(java, os.X_OK)):
        return None
    version = _version_from_release(home) or _version_from_java(java)
    if version is None:
        return None
    try:
        major = major_of(version)
    except ValueError:
        return None
    return Jdk(home=home, major=major, version=version, has_jfr=(home / "bin" / "jfr").is_file())


def _home_of_java_on_path() -> Path | None:
    """`java` on PATH -> its home (bin/java resolved through symlinks such as /etc/alternatives)."""
    java = shutil.which("java")
    if java is None:
        return None
    real = Path(java).resolve()
    home = real.parent.parent
    # JDK 8 layout: <jdk>/jre/bin/java; prefer the JDK home, which also has the tools.
    if home.name == "jre" and (home.parent / "bin" / "java").is_file():
        return home.parent
    return home


def candidate_homes() -> list[Path]:
    """Candidate homes in order of preference: JAVA_HOME, `java` on PATH, /usr/lib/jvm/*."""
    candidates: list[Path] = []
    if os.environ.get("JAVA_HOME"):
        candidates.append(Path(os.environ["JAVA_HOME"]))
    on_path = _home_of_java_on_path()
    if on_path is not None:
        candidates.append(on_path)
    if SYSTEM_JVM_DIR.is_dir():
        candidates.extend(sorted(p for p in SYSTEM_JVM_DIR.iterdir() if p.is_dir()))
    return candidates


def _unique(homes: Iterable[Path]) -> list[Path]:
    seen: dict[Path, None] = {}
    for home in homes:
        seen.setdefault(home.resolve(), None)
    return list(seen)


def installed_jdks() -> list[Jdk]:
    """The usable JDK homes, each once (by resolved path), in order of preference."""
    jdks = (jdk_at(home) for home in _unique(candidate_homes()))
    return [jdk for jdk in jdks if jdk is not None]


def default_jdk() -> Jdk | None:
    """The JDK of `java` on PATH, or the first installed one."""
    on_path = _home_of_java_on_path()
    jdk = jdk_at(on_path) if on_path is not None else None
    if jdk is not None:
        return jdk
    found = installed_jdks()
    return found[0] if found else None
