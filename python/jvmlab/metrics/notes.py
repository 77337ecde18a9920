"""Plain-language notes that go with a summary: what could not be computed, and why, and what to do."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from jvmlab.metrics.rates import PEAK_WINDOW_S
from jvmlab.metrics.windows import RunWindow

NO_TIME_STAMPS = (
    "the log has no time stamps: rates, overhead, intervals and allocation rates are not computed; "
    "run the JVM with -Xlog:gc*:file=gc.log:uptime,level,tags (JDK 9+) or -XX:+PrintGCTimeStamps (JDK 8)"
)


def window_notes(fmt: Mapping[str, Any], window: RunWindow) -> list[str]:
    if window.start_s is None:
        return [NO_TIME_STAMPS]
    notes = []
    if window.duration_s is None:
        notes.append("the run window is empty (one time stamp): rates and overhead are not computed")
    elif window.duration_s < PEAK_WINDOW_S:
        notes.append(f"the run is shorter than {PEAK_WINDOW_S:g} s: peak per-minute figures are not computed")
    if not window.from_jvm_start and not window.narrowed:
        first = f"{window.start_s:g} s"
        notes.append(
            f"the log does not show the JVM start: the run window starts at its first line ({first})"
        )
    if fmt.get("uptime_from_wall_clock"):
        notes.append("uptime is derived from wall-clock dates (the log prints no uptime)")
    return notes


def gc_id_notes(fmt: Mapping[str, Any], event_count: int) -> list[str]:
    ids = fmt.get("gc_ids")
    if ids == "assigned":
        return ["GC ids are jvmlab's own numbering in log order (the log prints none)"]
    if ids in (None, "none") and event_count:
        return ["the log has no GC ids: the GC count covers no events"]
    return []


def summary_notes(fmt: Mapping[str, Any], window: RunWindow, event_count: int) -> list[str]:
    return window_notes(fmt, window) + gc_id_notes(fmt, event_count)


ROUNDED_PERCENTILES = (
    "the log has over a million distinct pause durations: pause percentiles are rounded to 5 significant "
    "digits (count, total, mean and max are exact)"
)
