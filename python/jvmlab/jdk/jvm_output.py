"""Reading what `java ... -version` prints: the -XX:+PrintFlagsFinal table, -XshowSettings:properties, and the
JVM's own warnings and errors. Pure functions over text (no process is started here)."""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

# `     bool UseG1GC                    = true                {product} {ergonomic}` (9+), and JDK 8's
# `    uintx MaxHeapSize              := 268435456           {product}` (":=": a value not at its default).
_FLAG_LINE = re.compile(
    r"^\s*(?P<type>[a-z][\w]*)\s+(?P<name>[A-Za-z_]\w*)\s+(?P<set>:?=)\s*(?P<value>.*?)\s+"
    r"\{(?P<kinds>[^}]*)\}(?:\s+\{(?P<origin>[^}]*)\})?\s*$"
)
_PROPERTY = re.compile(r"^    (?P<key>[\w.]+) = (?P<value>.*)$")
# HotSpot: "OpenJDK 64-Bit Server VM warning: ...", "Java HotSpot(TM) 64-Bit Server VM warning: ...";
# unified logging: "[0.004s][warning][gc,init] ..."; the launcher and OpenJ9: "WARNING: ...", "Warning: ...".
_WARNING = re.compile(r"(^.{0,80}\bVM warning: )|(\[warning\s*\])|(^warning: )|(^JVMJ9\w+W )", re.I)
# The version banner of `-version` (HotSpot, OpenJ9, GraalVM, Zing, 8's "java version").
_BANNER = re.compile(
    r'^((openjdk|java) version "|(OpenJDK|Java\(TM\)|IBM|Eclipse|GraalVM|Zing|Azul)[^\n]*'
    r"(Runtime Environment|\bVM\b|Server|Client)|Eclipse OpenJ9 VM|JCL - |OMR - |JIT  - |OpenJ9   - )"
)
_FATAL_TAIL = "Error: A fatal exception has occurred. Program will exit."


@dataclass(frozen=True)
class FlagValue:
    """One row of -XX:+PrintFlagsFinal. origin: `default`, `ergonomic`, `command line`, ... (None on JDK 8,
    where `changed` tells a value set by the command line or ergonomics)."""

    name: str
    type: str
    value: str
    kinds: str
    origin: str | None
    changed: bool

    def as_int(self) -> int | None:
        try:
            return int(self.value)
        except ValueError:
            return None

    def as_bool(self) -> bool | None:
        return {"true": True, "false": False}.get(self.value)

    def to_dict(self) -> dict[str, Any]:
        return {"type": self.type, "value": self.value, "kinds": self.kinds, "origin": self.origin}


def parse_flags_final(text: str) -> tuple[FlagValue, ...]:
    """The rows of a -XX:+PrintFlagsFinal table; other lines (log output, banners) are skipped."""
    rows = []
    for line in text.splitlines():
        m = _FLAG_LINE.match(line)
        if m is None:
            continue
        origin = m["origin"]
        changed = m["set"] == ":=" or (origin is not None and origin != "default")
        rows.append(FlagValue(m["name"], m["type"], m["value"], m["kinds"].strip(), origin, changed))
    return tuple(rows)


def parse_properties(text: str) -> dict[str, str]:
    """`-XshowSettings:properties` -> {key: value}; multi-line values keep their first line only."""
    props: dict[str, str] = {}
    for line in text.splitlines():
        m = _PROPERTY.match(line)
        if m is not None:
            props.setdefault(m["key"], m["value"].strip())
    return props


def is_warning(line: str) -> bool:
    return _WARNING.search(line) is not None


def split_messages(stderr: str) -> tuple[list[str], list[str]]:
    """(warnings, errors) among the lines a JVM printed: banner lines, properties and the launcher's
    closing "A fatal exception has occurred" are dropped; what is left and is not a warning is an error."""
    warnings: list[str] = []
    errors: list[str] = []
    in_settings = False
    for raw in stderr.splitlines():
        line = raw.rstrip()
        if not line.strip():
            continue
        if line.startswith(("Property settings:", "VM settings:", "Operating System Metrics:")):
            in_settings = True
            continue
        if in_settings and line.startswith("    "):
            continue
        in_settings = False
        if is_warning(line):
            warnings.append(line)
        elif not (_BANNER.match(line) or line == _FATAL_TAIL):
            errors.append(line)
    return warnings, errors


def warnings_in(stdout: str) -> list[str]:
    """Warnings the JVM wrote to stdout (unified logging goes there by default)."""
    return [line.rstrip() for line in stdout.splitlines() if is_warning(line)]
