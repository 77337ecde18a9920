"""Choosing JDKs by selection strings, as experiments and `--jdk` options give them:

    temurin-17.0.9    a name (as `jvmlab jdks` lists it)
    17                a major version; also >=17, >17, <=21, <21, ==17
    vendor:temurin    a distribution (temurin, corretto, zulu, openjdk, ...) or a word of the vendor's name
    vm:openj9         a VM (hotspot, openj9, zing, graalvm)
    all               every JDK

A selection string may hold several, separated by commas. Each must match at least one JDK.
"""

from __future__ import annotations

import operator
import re
from collections.abc import Callable, Sequence

from jvmlab.errors import UsageError
from jvmlab.jdk.model import Jdk

_MAJOR = re.compile(r"^(>=|<=|==|>|<)?\s*(\d+)$")
_COMPARE: dict[str, Callable[[int, int], bool]] = {
    ">=": operator.ge,
    "<=": operator.le,
    "==": operator.eq,
    ">": operator.gt,
    "<": operator.lt,
    "": operator.eq,
}


def _matcher(spec: str) -> Callable[[Jdk], bool]:
    m = _MAJOR.match(spec)
    if m:
        compare, major = _COMPARE[m[1] or ""], int(m[2])
        return lambda jdk: compare(jdk.major, major)
    key, _, value = spec.partition(":")
    if value and key.lower() == "vendor":
        word = value.lower()
        return lambda jdk: jdk.distribution.lower() == word or word in jdk.vendor.lower().split()
    if value and key.lower() == "vm":
        return lambda jdk: jdk.vm.lower() == value.lower()
    return lambda jdk: jdk.name == spec


def _available(all_jdks: Sequence[Jdk]) -> str:
    if not all_jdks:
        return "no JDKs were found (see `jvmlab jdks`; add one with `jvmlab jdks add NAME PATH`)"
    listed = ", ".join(f"{j.name} ({j.major}, {j.distribution})" for j in all_jdks)
    return f"available: {listed}; select by name, major (17, >=17), vendor:NAME, vm:NAME or all"


def select_jdks(all_jdks: Sequence[Jdk], spec: str | Sequence[str]) -> list[Jdk]:
    """The JDKs matching any of the selections, in the order of `all_jdks`, each once.

    Raises UsageError naming the selection that matched nothing and listing what is available."""
    specs = [spec] if isinstance(spec, str) else list(spec)
    items = [s.strip() for part in specs for s in part.split(",") if s.strip()]
    if not items:
        raise UsageError(f"empty JDK selection; {_available(all_jdks)}")
    chosen: set[int] = set()
    for item in items:
        if item.lower() == "all":
            if not all_jdks:
                raise UsageError(f"JDK selection 'all': {_available(all_jdks)}")
            chosen.update(range(len(all_jdks)))
            continue
        matches = _matcher(item)
        hits = {i for i, jdk in enumerate(all_jdks) if matches(jdk)}
        if not hits:
            raise UsageError(f"no JDK matches {item!r}; {_available(all_jdks)}")
        chosen |= hits
    return [jdk for i, jdk in enumerate(all_jdks) if i in chosen]
