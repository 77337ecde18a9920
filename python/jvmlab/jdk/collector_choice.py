"""What HotSpot says of the collector flags given together, where the flag table answers each flag alone.

More than one collector selected stops the JVM (JDK 8: "Conflicting collector combinations in option list";
JDK 9+: "Multiple garbage collectors selected"). On JDK 8 the young/old pairings speak too: ParNew without
CMS and CMS without ParNew (DefNew) start with a deprecation warning, ParNew with CMS starts silently.
Verified on OpenJDK 8u504, Temurin 11.0.13, 17.0.9, 21.0.8 and 25.0.3 (tests/jdk/test_collector_choice.py
asks the installed JDKs).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from jvmlab.jdk.collectors import PARNEW, collector, family_of
from jvmlab.jdk.options import JvmOption

CMS = collector("CMS")
CONFLICT_8 = (
    "Conflicting collector combinations in option list; please refer to the release notes for the "
    "combinations allowed"
)
CONFLICT = "Multiple garbage collectors selected"
PARNEW_WITH_SERIAL = (
    "Using the ParNew young collector with the Serial old collector is deprecated and will likely be "
    "removed in a future release"
)
DEFNEW_WITH_CMS = (
    "Using the DefNew young collector with the CMS collector is deprecated and will likely be removed in a "
    "future release"
)


@dataclass(frozen=True)
class Said:
    """What the JVM says because of one option of the set: `status` (refused, deprecated, ok), its words."""

    index: int  # the option's place in the set
    status: str
    message: str | None
    note: str


def final_values(options: Sequence[JvmOption]) -> dict[str, tuple[int, bool]]:
    """Use*GC flag -> (index of its last occurrence, its value): the last one given wins. Flags of one
    collector family go together (JDK 8's ParNew is CMS's young collector, UseParallelOldGC Parallel's old
    one)."""
    values: dict[str, tuple[int, bool]] = {}
    for i, o in enumerate(options):
        if o.kind == "xx" and family_of(o.name) is not None and o.as_bool() is not None:
            values[o.name] = (i, bool(o.as_bool()))
    return values


def said_of(options: Sequence[JvmOption], major: int) -> list[Said]:
    """What the JVM of `major` says of the collector flags of `options` taken together."""
    values = final_values(options)
    on = {name: i for name, (i, value) in values.items() if value}
    families = {_family(name) for name in on}
    if len(families) > 1:
        last = max(on.values())
        others = sorted(f for f in families if f != _family(options[last].name))
        return [
            Said(
                last,
                "refused",
                CONFLICT_8 if major == 8 else CONFLICT,
                f"another collector is selected too ({', '.join(others)})",
            )
        ]
    if major != 8:
        return []
    parnew = values.get(PARNEW)
    if parnew is None:
        return []
    index, parnew_on = parnew
    cms = CMS.flag in on
    if parnew_on and cms:
        return [Said(index, "ok", None, "ParNew is CMS's young collector: accepted silently with CMS")]
    if parnew_on:
        return [Said(index, "deprecated", PARNEW_WITH_SERIAL, "ParNew without CMS runs with Serial's old GC")]
    if cms:
        return [
            Said(index, "deprecated", DEFNEW_WITH_CMS, "CMS without ParNew runs with the DefNew young GC")
        ]
    return [Said(index, "ok", None, "ParNew off is JDK 8's default without CMS")]


def _family(flag: str) -> str:
    found = family_of(flag)
    assert found is not None, flag  # only flags of a family are in final_values
    return found.name
