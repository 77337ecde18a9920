"""Where a JDK keeps its tools (java, jcmd, jfr, javac, ...), and which JDK home a `java` belongs to.

A JDK home keeps every tool in bin/; a JDK 8 JRE (`<jdk>/jre`) keeps the runtime's in its own bin/. A JDK
may lack a tool another one has (a jlink'ed runtime image has no javac; JDK 8 had no jfr before 8u262), so
`find_tool` lets another installed JDK stand in when the caller says which ones may.
"""

from __future__ import annotations

import shutil
from collections.abc import Iterable
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from jvmlab.jdk.model import Jdk


def tool_path(home: Path, name: str) -> Path:
    """Where the JDK at `home` keeps the tool `name`: bin/NAME, else jre/bin/NAME (a tool only JDK 8's JRE
    has). bin/NAME when neither exists: `.is_file()` says whether the JDK has it."""
    path = home / "bin" / name
    jre = home / "jre" / "bin" / name
    return jre if not path.is_file() and jre.is_file() else path


def find_tool(
    name: str,
    home: Path | None,
    installed: Iterable[Jdk] = (),
    *,
    min_major: int = 0,
    on_path: bool = False,
) -> Path | None:
    """The tool `name` of the JDK at `home` (whatever its version), else of the first of `installed` of
    `min_major` or newer that has it, else (`on_path`) the one on PATH; None when none has it."""
    homes = [home] if home is not None else []
    homes += [jdk.home for jdk in installed if jdk.major >= min_major]
    found = next((p for p in (tool_path(h, name) for h in homes) if p.is_file()), None)
    if found is None and on_path and (which := shutil.which(name)) is not None:
        return Path(which)
    return found


def home_of_java(java: Path) -> Path:
    """The JDK home of a `java` executable, <home>/bin/java; a JDK 8 JRE's (<jdk>/jre/bin/java) is its
    JDK's when that JDK has its own bin/java (it also has the tools)."""
    home = java.parent.parent
    if home.name == "jre" and (home.parent / "bin" / "java").is_file():
        return home.parent
    return home
