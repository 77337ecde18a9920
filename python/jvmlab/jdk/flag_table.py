"""What HotSpot does with a flag, per JDK major, as package data; no JVM is started here.

flag_table(): the rows of flag_table.toml (status per major 8/11/17/21/25, the JVM's words, since when,
the replacement) and the legacy-logging -> -Xlog rules of `jvmlab flags migrate`.
flag_names(major): every flag name of a major with its type and kind (product, diagnostic, experimental),
plus the names it accepts without listing them (ignored, renamed); written from the installed JDKs by
`python -m jvmlab.jdk.flag_names --write` into flag_lists/jdkN.txt (JDK 8's from OpenJDK 8u504).
"""

from __future__ import annotations

import difflib
import functools
import re
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from jvmlab.jdk.options import JvmOption

HERE = Path(__file__).resolve().parent
TABLE_FILE = HERE / "flag_table.toml"
LISTS_DIR = HERE / "flag_lists"
MAJORS = (8, 11, 17, 21, 25)
STATUSES = ("ok", "deprecated", "ignored", "renamed", "needs-unlock", "refused")
UNLOCK_DIAGNOSTIC = "UnlockDiagnosticVMOptions"
UNLOCK_EXPERIMENTAL = "UnlockExperimentalVMOptions"
UNLOCK_FOR_KIND = {"diagnostic": UNLOCK_DIAGNOSTIC, "experimental": UNLOCK_EXPERIMENTAL}
# Kinds of names a JVM lists in -XX:+PrintFlagsFinal (the others are accepted without being listed).
LISTED_KINDS = ("product", "diagnostic", "experimental")
NEAREST_CUTOFF = 0.8
UNIFIED_LOGGING_SINCE = 9  # JEP 158 and 271


@dataclass(frozen=True)
class Cell:
    """One flag on one major: its status, since when (the JVM's version text, e.g. "9.0"), the JVM's own
    message where it differs from the usual one, and whether a real JVM of that major confirmed it."""

    status: str
    since: str | None
    message: str | None
    verified: bool


@dataclass(frozen=True)
class FlagRow:
    """A row of the table. key: the -XX: name, or the -X option itself (`-Xloggc`)."""

    key: str
    example: str
    cells: Mapping[int, Cell]
    replacement: str | None
    note: str | None
    unlock: str | None
    may_fail_to_start: str | None
    # per major, the value the JVM takes when the flag is not given (read with -XX:+PrintFlagsFinal; the truth
    # test checks it): a deprecated flag that restates it can go (UseCompressedClassPointers on 25)
    defaults: Mapping[int, str] = field(default_factory=dict)

    def cell(self, major: int) -> Cell | None:
        return self.cells.get(major)


@dataclass(frozen=True)
class XlogRule:
    """A legacy logging flag as -Xlog selectors, by the first major each applies to ("" = none there)."""

    flag: str
    selectors: Mapping[int, str]
    note: str | None
    output: str  # "gc": the GC log's output; "stdout": an -Xlog option of its own to stdout

    def selector(self, major: int) -> str | None:
        """The selector on `major`: "" when the flag has none there, None when no rule applies yet."""
        applying = [m for m in self.selectors if m <= major]
        return self.selectors[max(applying)] if applying else None


@dataclass(frozen=True)
class FlagTable:
    majors: tuple[int, ...]
    rows: Mapping[str, FlagRow]
    xlog: Mapping[str, XlogRule]

    def row(self, key: str) -> FlagRow | None:
        return self.rows.get(key)


@dataclass(frozen=True)
class FlagName:
    """A name a major knows. kind: product, diagnostic, experimental (listed by PrintFlagsFinal), or the
    status of a name it accepts without listing it (ignored, renamed, deprecated) with the JVM's words."""

    name: str
    type: str
    kind: str
    message: str | None = None


@dataclass(frozen=True)
class FlagNames:
    major: int
    names: Mapping[str, FlagName]
    origin: str
    derived: bool

    def get(self, name: str) -> FlagName | None:
        return self.names.get(name)

    def nearest(self, name: str) -> str | None:
        """The listed name closest to `name` (same letters in another case first, then difflib)."""
        by_lower = {n.lower(): n for n, f in self.names.items() if f.kind in LISTED_KINDS}
        if name.lower() in by_lower:
            return by_lower[name.lower()]
        close = difflib.get_close_matches(name.lower(), list(by_lower), n=1, cutoff=NEAREST_CUTOFF)
        return by_lower[close[0]] if close else None


# ---- reading the table ---------------------------------------------------------------------------------


def _by_major(value: str | dict[str, Any], majors: tuple[int, ...]) -> dict[int, Any]:
    """`"ok"` (every major) or `{8 = "ok", 11 = ...}` -> {major: value}."""
    return {m: value for m in majors} if isinstance(value, str) else {int(k): v for k, v in value.items()}


def _cells(raw: dict[str, Any], majors: tuple[int, ...]) -> dict[int, Cell]:
    since: dict[str, str] = raw.get("since", {})
    messages: dict[str, str] = raw.get("message", {})
    unverified = set(raw.get("unverified", []))
    cells = {}
    for major, status in _by_major(raw["status"], majors).items():
        if status not in STATUSES:
            raise ValueError(f"{TABLE_FILE}: status {status!r} is not one of {', '.join(STATUSES)}")
        message = messages.get(str(major), messages.get(status))
        cells[major] = Cell(status, since.get(status), message, major not in unverified)
    return cells


def _row(key: str, raw: dict[str, Any], majors: tuple[int, ...]) -> FlagRow:
    return FlagRow(
        key=key,
        example=raw["example"],
        cells=_cells(raw, majors),
        replacement=raw.get("replacement"),
        note=raw.get("note"),
        unlock=raw.get("unlock"),
        may_fail_to_start=raw.get("may_fail_to_start"),
        defaults={int(m): str(v) for m, v in raw.get("default", {}).items()},
    )


def _xlog_rule(flag: str, raw: dict[str, Any]) -> XlogRule:
    selectors = _by_major(raw["selector"], (UNIFIED_LOGGING_SINCE,))
    return XlogRule(flag, selectors, raw.get("note"), raw.get("output", "gc"))


@functools.cache
def flag_table() -> FlagTable:
    with TABLE_FILE.open("rb") as f:
        data = tomllib.load(f)
    majors = tuple(data["majors"])
    rows = {key: _row(key, raw, majors) for key, raw in data["flag"].items()}
    xlog = {flag: _xlog_rule(flag, raw) for flag, raw in data["xlog"].items()}
    return FlagTable(majors, rows, xlog)


# ---- flag names per major ------------------------------------------------------------------------------


def list_path(major: int, directory: Path = LISTS_DIR) -> Path:
    return directory / f"jdk{major}.txt"


def parse_names(major: int, text: str) -> FlagNames:
    """`name type kind [message]` per line; `#` lines are comments, the first one says where they came from
    and a `# derived` line marks a list not read from a JVM."""
    names: dict[str, FlagName] = {}
    comments = []
    for line in text.splitlines():
        if line.startswith("#"):
            comments.append(line.lstrip("# ").strip())
            continue
        parts = line.split(" ", 3)
        if len(parts) >= 3:
            names[parts[0]] = FlagName(parts[0], parts[1], parts[2], parts[3] if len(parts) > 3 else None)
    origin = comments[0] if comments else f"JDK {major}"
    return FlagNames(major, names, origin, any(c.startswith("derived") for c in comments))


@functools.cache
def flag_names(major: int) -> FlagNames | None:
    """The names of `major` (None when the package has no list for it)."""
    path = list_path(major)
    return parse_names(major, path.read_text()) if path.is_file() else None


def majors_listing(name: str) -> list[int]:
    """The majors whose PrintFlagsFinal lists `name`."""
    found = []
    for major in MAJORS:
        names = flag_names(major)
        info = names.get(name) if names else None
        if info is not None and info.kind in LISTED_KINDS:
            found.append(major)
    return found


# ---- the JVM's usual words -----------------------------------------------------------------------------


def option_key(option: JvmOption) -> str:
    """The table key of an option: the -XX: name (also of -Xmx & co), the -X option with its dash for the
    others (`-Xloggc`, `-Xlog`), else the option as given."""
    if option.kind == "x" and option.raw.startswith(f"-{option.name}"):
        return f"-{option.name}"
    return option.name if option.kind in ("xx", "x") else option.raw


def jvm_message(status: str, option: JvmOption, since: str | None, unlock: str | None) -> str | None:
    """What HotSpot usually says of an option in `status` (None for ok and renamed: those vary)."""
    key = option_key(option)
    if status == "deprecated":
        return (
            f"Option {key} was deprecated in version {since or '?'} and will likely be removed in a future "
            "release."
        )
    if status == "ignored":
        return f"Ignoring option {key}; support was removed in {since or '?'}"
    if status == "refused":
        if option.kind == "xx":
            return f"Unrecognized VM option '{option.raw[4:].lstrip('+-')}'"
        return f"Unrecognized option: {option.raw}"
    if status == "needs-unlock" and unlock:
        kind = "experimental" if unlock == UNLOCK_EXPERIMENTAL else "diagnostic"
        return f"VM option '{key}' is {kind} and must be enabled via -XX:+{unlock}."
    return None


def fill(template: str, option: JvmOption) -> str:
    """A table text with the option's value in it: {value}, and {percent} = 100/value (RAM fractions)."""
    value = option.value or ""
    percent = f"{100 / int(value):.1f}".removesuffix(".0") if value.isdigit() and int(value) > 0 else "?"
    return template.replace("{value}", value).replace("{percent}", percent)


_VM_PREFIX = re.compile(r"^.{0,80}?\bVM warning: |^\[[^\]]*\](\[[^\]]*\])*\s*|^(Error|warning): ", re.I)
_DEPRECATED_IN = re.compile(r"deprecated in version (\S+?)\.?(?:\s|$)")
_REMOVED_IN = re.compile(r"support was removed in (\S+?)\.?$")
_WILL_USE = re.compile(r"is deprecated\. Will use (\S+) instead")


def plain_message(line: str) -> str:
    """A JVM line without its VM-name or unified-logging prefix: "OpenJDK 64-Bit Server VM warning: X" and
    "[0.001s][warning][gc] X" -> "X"."""
    return _VM_PREFIX.sub("", line.strip()).strip()


def read_warning(text: str) -> tuple[str, str | None, str | None]:
    """(status, since, successor) of a warning about a flag: deprecated / ignored / renamed, else ok."""
    if m := _WILL_USE.search(text):
        return "renamed", None, m[1]
    if m := _REMOVED_IN.search(text):
        return "ignored", m[1], None
    if m := _DEPRECATED_IN.search(text):
        return "deprecated", m[1], None
    if "deprecated" in text.lower():
        return "deprecated", None, None
    return "ok", None, None
