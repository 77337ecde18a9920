"""`--jdk 8|11|17|21|25|NAME`: the JDK major a log's advice is for, from a version or an installed
JDK's name."""

from __future__ import annotations

from collections.abc import Sequence

from jvmlab.errors import UsageError
from jvmlab.jdk.model import Jdk

# The majors whose flags and log strings jvmlab knows (../shared/knowledge/jvm-diagnosis.md; docs/advise.md).
KNOWN_MAJORS = tuple(range(8, 26))


def jdk_major(spec: str, installed: Sequence[Jdk] | None = None) -> int:
    """`17`, `jdk17`, `1.8` -> the major; an installed JDK's name -> its major; else a usage error."""
    from jvmlab.jdk.versions import parse_major

    text = spec.strip()
    major = parse_major(text)
    if major is not None:
        if major not in KNOWN_MAJORS:
            raise UsageError(
                f"--jdk {spec}: jvmlab knows JDK {KNOWN_MAJORS[0]} to {KNOWN_MAJORS[-1]}; give one of those"
            )
        return major
    if installed is None:
        from jvmlab.jdk.discovery import installed_jdks

        installed = installed_jdks()
    for jdk in installed:
        if jdk.name == text:
            return jdk.major
    names = ", ".join(j.name for j in installed) or "none installed"
    raise UsageError(f"--jdk {spec}: not a JDK version (8-25) nor an installed JDK's name ({names})")
