"""The GC event table (docs/event-table.md) from a JFR recording's GC events, for a JVM that writes no GC
log: one `pause` row per stop-the-world phase (jdk.GCPhasePause, else the collection's sumOfPauses), one
`safepoint` row per safepoint (jdk.SafepointBegin + jdk.ExecuteVMOperation), heap and metaspace before and
after from jdk.GCHeapSummary and jdk.MetaspaceSummary.

A collection (jdk.GarbageCollection) names its collector and kind: G1New is a G1 young (or mixed, from
jdk.G1GarbageCollection's type) collection, G1Full a full one, G1Old a concurrent cycle whose pauses are
its remark and cleanup; ParallelScavenge/ParallelOld, DefNew/SerialOld, ParNew/ConcurrentMarkSweep likewise.
An evacuation or promotion failure (jdk.EvacuationFailed, jdk.PromotionFailed) is added to the pause's
phase as the log prints it. Uptimes count from jdk.JVMInformation's jvmStartTime (printed to the
millisecond). tests/jfr/test_jfr_table.py compares the table with a GC log of the same JVM and window.
"""

from __future__ import annotations

import json
from collections import defaultdict
from collections.abc import Iterable, Mapping
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any

from jvmlab.errors import InputError
from jvmlab.jdk.versions import version_in_info
from jvmlab.jfr.events import run_jfr

if TYPE_CHECKING:
    import polars as pl

    from jvmlab.gclog import GcLog

GC_EVENTS = (
    "jdk.JVMInformation",
    "jdk.GarbageCollection",
    "jdk.GCPhasePause",
    "jdk.G1GarbageCollection",
    "jdk.GCHeapSummary",
    "jdk.MetaspaceSummary",
    "jdk.EvacuationFailed",
    "jdk.PromotionFailed",
    "jdk.SafepointBegin",
    "jdk.ExecuteVMOperation",
)
# jdk.GarbageCollection name -> (collector, kind of its pauses; None: named by each pause's own name)
COLLECTIONS: dict[str, tuple[str, str | None]] = {
    "G1New": ("G1", "young"),
    "G1Full": ("G1", "full"),
    "G1Old": ("G1", None),
    "ParallelScavenge": ("Parallel", "young"),
    "ParallelOld": ("Parallel", "full"),
    "DefNew": ("Serial", "young"),
    "SerialOld": ("Serial", "full"),
    "ParNew": ("CMS", "young"),
    "ConcurrentMarkSweep": ("CMS", None),
    "Shenandoah": ("Shenandoah", None),
    "Z": ("ZGC", None),
    "ZGC Major": ("ZGC", None),
    "ZGC Minor": ("ZGC", None),
}
# Words of a pause's own name (jdk.GCPhasePause) -> its kind, for collections of several pauses.
PAUSE_KINDS = (
    ("degenerated", "degenerated"),
    ("full", "full"),
    ("initial mark", "initial-mark"),
    ("init mark", "initial-mark"),
    ("mark start", "initial-mark"),  # ZGC
    ("remark", "remark"),
    ("final mark", "remark"),  # Shenandoah
    ("mark end", "remark"),  # ZGC
    ("final roots", "final-roots"),
    ("final evac", "final-evac"),
    ("cleanup", "cleanup"),
    ("relocate start", "relocate-start"),
    ("init update refs", "init-update-refs"),
    ("final update refs", "final-update-refs"),
)
YOUNG_PHASES = {"young": "Pause Young", "full": "Pause Full"}
INT_COLUMNS = (
    "gc_id", "heap_before_bytes", "heap_after_bytes", "heap_capacity_bytes", "metaspace_before_bytes",
    "metaspace_after_bytes", "metaspace_capacity_bytes",
)  # fmt: skip


def read_events(recording: Path, tool: Path) -> list[dict[str, Any]]:
    """The recording's GC, heap and safepoint events as `jfr print --json` gives them."""
    text = run_jfr(tool, ["print", "--json", "--events", ",".join(GC_EVENTS)], recording)
    try:
        return list(json.loads(text)["recording"]["events"])
    except (ValueError, KeyError, TypeError):
        raise InputError(
            str(recording), "jfr print --json gave no events list: not a JFR recording?"
        ) from None


def instant_s(value: str) -> float:
    """A `jfr print --json` instant ("2026-11-22T03:08:44.332458091Z") in seconds since the epoch; the
    nanoseconds kept (datetime would keep microseconds)."""
    whole, _, fraction = value.rstrip("Z").partition(".")
    seconds = datetime.fromisoformat(whole + "+00:00").timestamp()
    return seconds + (float("0." + fraction) if fraction else 0.0)


def duration_ms(value: str | float | int) -> float:
    """A `jfr print --json` duration ("PT0.005856331S", "PT1M2.5S", "PT0S"; plain numbers are ns) in ms."""
    if isinstance(value, int | float):
        return float(value) / 1e6
    text, total = value.removeprefix("PT"), 0.0
    for unit, factor in (("H", 3600.0), ("M", 60.0), ("S", 1.0)):
        if unit in text:
            number, text = text.split(unit, 1)
            total += float(number) * factor
    return total * 1000.0


def pause_kind(collection_kind: str | None, name: str, g1_type: str | None) -> str:
    if collection_kind == "young" and g1_type == "Mixed":
        return "mixed"
    if collection_kind is not None:
        return collection_kind
    lower = name.lower()
    return next((kind for words, kind in PAUSE_KINDS if words in lower), "pause-other")


def pause_phase(kind: str, name: str, g1_type: str | None, failure: str | None) -> str:
    """The log's name of the pause: `Pause Young (Normal)`, `Pause Full`, or JFR's own (`Pause Remark`)."""
    phase = name if name and name != "GC Pause" else YOUNG_PHASES.get(kind, YOUNG_PHASES["young"])
    if kind in ("young", "mixed") and g1_type:
        phase = f"Pause Young ({g1_type})"
    return f"{phase} ({failure})" if failure else phase


def by_gc_id(events: Iterable[Mapping[str, Any]]) -> dict[int, list[Mapping[str, Any]]]:
    grouped: dict[int, list[Mapping[str, Any]]] = defaultdict(list)
    for e in events:
        grouped[int(e["values"]["gcId"])].append(e["values"])
    return grouped


def sizes(summaries: list[Mapping[str, Any]], used: str, committed: str) -> dict[str, int | None]:
    """(before, after, capacity after) of a collection from its Before GC / After GC summaries."""

    def pick(when: str, path: str) -> int | None:
        for s in summaries:
            if s.get("when") == when:
                value: Any = s
                for key in path.split("."):
                    value = value.get(key) if isinstance(value, Mapping) else None
                return int(value) if isinstance(value, int | float) else None
        return None

    return {
        "before": pick("Before GC", used),
        "after": pick("After GC", used),
        "capacity": pick("After GC", committed),
    }


def gc_rows(events: list[dict[str, Any]], start_s: float) -> list[dict[str, Any]]:
    """One row per pause of every collection (ordered by start), with its heap and metaspace sizes."""
    typed: dict[str, list[dict[str, Any]]] = defaultdict(list)
    for e in events:
        typed[e["type"]].append(e)
    pauses = by_gc_id(typed["jdk.GCPhasePause"])
    heap, meta = by_gc_id(typed["jdk.GCHeapSummary"]), by_gc_id(typed["jdk.MetaspaceSummary"])
    g1_type = {int(e["values"]["gcId"]): e["values"].get("type") for e in typed["jdk.G1GarbageCollection"]}
    failed = {int(e["values"]["gcId"]): "Evacuation Failure" for e in typed["jdk.EvacuationFailed"]}
    failed |= {int(e["values"]["gcId"]): "promotion failed" for e in typed["jdk.PromotionFailed"]}
    rows = []
    for e in typed["jdk.GarbageCollection"]:
        gc = e["values"]
        gc_id = int(gc["gcId"])
        collector, kind = COLLECTIONS.get(gc["name"], ("unknown", None))
        own = sorted(pauses.get(gc_id, []), key=lambda p: instant_s(p["startTime"]))
        if not own and duration_ms(gc["sumOfPauses"]) == 0.0:
            continue  # a concurrent cycle that ended before its pauses (G1's mark aborted by a full GC)
        if not own:  # no phase events: the collection's pauses as one
            own = [{"startTime": gc["startTime"], "duration": gc["sumOfPauses"], "name": ""}]
        h = sizes(heap.get(gc_id, []), "heapUsed", "heapSpace.committedSize")
        m = sizes(meta.get(gc_id, []), "metaspace.used", "metaspace.committed")
        for i, p in enumerate(own):
            k = pause_kind(kind, p.get("name") or "", g1_type.get(gc_id))
            ms = duration_ms(p["duration"])
            last = i == len(own) - 1  # sizes go with the collection's last pause
            rows.append(
                {
                    "uptime_s": instant_s(p["startTime"]) - start_s,
                    "gc_id": gc_id,
                    "collector": collector,
                    "category": "pause",
                    "kind": k,
                    "phase": pause_phase(k, p.get("name") or "", g1_type.get(gc_id), failed.get(gc_id)),
                    "cause": gc.get("cause"),
                    "pause_ms": ms,
                    "duration_ms": ms,
                    "heap_before_bytes": h["before"] if i == 0 else None,
                    "heap_after_bytes": h["after"] if last else None,
                    "heap_capacity_bytes": h["capacity"] if last else None,
                    "metaspace_before_bytes": m["before"] if i == 0 else None,
                    "metaspace_after_bytes": m["after"] if last else None,
                    "metaspace_capacity_bytes": m["capacity"] if last else None,
                }
            )
    return rows


def safepoint_rows(events: list[dict[str, Any]], start_s: float) -> list[dict[str, Any]]:
    """One row per safepoint: its VM operation's name, time to safepoint and operation time."""
    operations = {
        e["values"]["safepointId"]: e["values"]
        for e in events
        if e["type"] == "jdk.ExecuteVMOperation" and e["values"].get("safepointId") is not None
    }
    rows = []
    for e in events:
        if e["type"] != "jdk.SafepointBegin":
            continue
        sp = e["values"]
        op = operations.get(sp["safepointId"])
        ttsp = duration_ms(sp["duration"])
        rows.append(
            {
                "uptime_s": instant_s(sp["startTime"]) - start_s,
                "category": "safepoint",
                "kind": "safepoint",
                "phase": op.get("operation") if op else None,
                "pause_ms": 0.0,
                "duration_ms": ttsp + (duration_ms(op["duration"]) if op else 0.0),
                "ttsp_ms": ttsp,
            }
        )
    return rows


def jvm_start_s(events: list[dict[str, Any]]) -> float | None:
    info = next((e["values"] for e in events if e["type"] == "jdk.JVMInformation"), None)
    return instant_s(info["jvmStartTime"]) if info and info.get("jvmStartTime") else None


def event_table(events: list[dict[str, Any]]) -> pl.DataFrame:
    """The GC event table of a recording's events (read_events), rows in time order."""
    import polars as pl

    from jvmlab.gclog.frame import CATEGORICAL, COLUMN_ORDER

    start = jvm_start_s(events)
    if start is None:
        starts = [instant_s(e["values"]["startTime"]) for e in events if "startTime" in e["values"]]
        start = min(starts, default=0.0)
    rows = sorted(gc_rows(events, start) + safepoint_rows(events, start), key=lambda r: r["uptime_s"])
    schema: dict[str, Any] = {}
    for name in COLUMN_ORDER:
        if name in CATEGORICAL:
            schema[name] = pl.Categorical()
        elif name == "wall_time":
            schema[name] = pl.Datetime("ms", "UTC")
        elif name == "source":
            schema[name] = pl.Int32()
        elif name in INT_COLUMNS or name.endswith("_bytes"):
            schema[name] = pl.Int64()
        else:
            schema[name] = pl.Float64()
    filled = [{name: r.get(name, 0 if name == "source" else None) for name in COLUMN_ORDER} for r in rows]
    return pl.DataFrame(filled, schema=schema, orient="row") if filled else pl.DataFrame(schema=schema)


def gc_log_of_recording(recording: Path, tool: Path, *, label: str = "") -> GcLog:
    """A GcLog whose event table comes from the recording's JFR events (format generation `jfr`)."""
    from jvmlab.gclog import GcLog
    from jvmlab.gclog.sources import Source

    events = read_events(recording, tool)
    table = event_table(events)
    collectors = table.get_column("collector").drop_nulls().cast(str).unique().to_list()
    times = table.get_column("uptime_s").drop_nulls()
    info: Mapping[str, Any] = next((e["values"] for e in events if e["type"] == "jdk.JVMInformation"), {})
    fmt: dict[str, Any] = {
        "generation": "jfr",
        "collector": collectors[0] if len(collectors) == 1 else "unknown",
        "decorators": [],
        "jdk_version": version_in_info(info.get("jvmVersion") or ""),
        "first_time_s": float(times.min()) if len(times) else None,  # type: ignore[arg-type]
        "last_time_s": float(times.max()) if len(times) else None,  # type: ignore[arg-type]
        "jvm_start_seen": False,
        "gc_ids": "log",
        "header": {},
    }
    diagnostics = {"jfr_events": len(events), "rows": table.height, "warnings": []}
    return GcLog(
        sources=(Source(str(recording)),), events=table, diagnostics=diagnostics, format=fmt, label=label
    )
