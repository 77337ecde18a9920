"""JVM options as data: `-XX:+UseG1GC`, `-XX:MaxGCPauseMillis=50`, `-Xmx2g`, `-Xlog:gc*:file=gc.log`.

`parse_options(items)` reads an argv list (or a command line split with `split_command_line`) into
JvmOption records; `option_values` gives the value in force per name (the last one wins, as in HotSpot).
Sizes are read the way HotSpot reads them (`k`, `m`, `g`, `t`, either case, no suffix = bytes).
"""

from __future__ import annotations

import re
import shlex
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from jvmlab.errors import UsageError

SIZE_UNITS = {"": 1, "k": 1 << 10, "m": 1 << 20, "g": 1 << 30, "t": 1 << 40}
_SIZE = re.compile(r"(\d+)([kmgt]?)", re.IGNORECASE)
# -X options with a size glued on, as HotSpot names them in -XX: form.
X_SIZE_OPTIONS = {
    "-Xmx": "MaxHeapSize",
    "-Xms": "InitialHeapSize",
    "-Xmn": "NewSize",
    "-Xss": "ThreadStackSize",
}


@dataclass(frozen=True)
class JvmOption:
    """One option. `kind`: "xx" (-XX:), "x" (-X...), "system_property" (-D), "other" (-server, -verbose:gc,
    --add-opens ...). For -XX: options `name` is the flag and `value` "true"/"false" for +/- booleans, the
    text after `=` otherwise; -Xmx/-Xms/-Xmn/-Xss are named by their -XX: flag."""

    raw: str
    kind: str
    name: str
    value: str | None

    def as_bool(self) -> bool | None:
        return {"true": True, "false": False}.get((self.value or "").lower())

    def as_bytes(self) -> int | None:
        return parse_size(self.value) if self.value is not None else None


def parse_size(text: str) -> int | None:
    """`256m` -> 268435456; None when `text` is not a HotSpot size."""
    m = _SIZE.fullmatch(text.strip())
    return int(m.group(1)) * SIZE_UNITS[m.group(2).lower()] if m else None


def split_command_line(text: str) -> list[str]:
    """A command line as typed (quotes allowed) -> argv items; a quote left open is a usage error."""
    try:
        return shlex.split(text)
    except ValueError as e:
        raise UsageError(f"cannot read the flags {text!r}: {e} (check the quotes)") from None


def parse_option(item: str) -> JvmOption:
    if item.startswith("-XX:"):
        body = item[4:]
        if body[:1] in "+-" and body[1:]:
            return JvmOption(item, "xx", body[1:], "true" if body[0] == "+" else "false")
        name, _, value = body.partition("=")
        return JvmOption(item, "xx", name, value if "=" in body else None)
    for prefix, flag in X_SIZE_OPTIONS.items():
        if item.startswith(prefix) and len(item) > len(prefix):
            return JvmOption(item, "x", flag, item[len(prefix) :])
    if item.startswith("-D"):
        name, _, value = item[2:].partition("=")
        return JvmOption(item, "system_property", name, value)
    if item.startswith("-X"):
        name, _, value = item[1:].partition(":")
        return JvmOption(item, "x", name, value or None)
    return JvmOption(item, "other", item, None)


def parse_options(items: Iterable[str]) -> list[JvmOption]:
    return [parse_option(i) for i in items if i]


def option_values(options: Sequence[JvmOption]) -> dict[str, str | None]:
    """-XX: flags (and -Xmx & co under their flag names) -> the value in force: the last one given."""
    return {o.name: o.value for o in options if o.kind in ("xx", "x")}
