"""The run window: the span of JVM uptime a log covers, the denominator of every rate and of GC overhead.

From 0 when the log shows the JVM start (`format["jvm_start_seen"]`: not a JDK 8 rotated file, whose header is
printed again in every file), else from the first time stamp of any line (`format["first_time_s"]`), to the
last time stamp of any line (`format["last_time_s"]`): the span the log covers, never the JVM's uptime.
A caller may narrow it (`start_s`, `end_s`), e.g. to leave out a warm-up. A log without time stamps has no
run window.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from pydantic import BaseModel, ConfigDict, computed_field

from jvmlab.errors import UsageError


class RunWindow(BaseModel):
    """Seconds of JVM uptime. `start_s`/`end_s` are None when the log has no time stamps."""

    model_config = ConfigDict(frozen=True)

    start_s: float | None
    end_s: float | None
    from_jvm_start: bool
    narrowed: bool = False
    # When time went backwards (a restarted JVM appending to the file, logs pasted together), the span
    # from first to last stamp means nothing: the time covered by the forward-running segments is used.
    covered_s: float | None = None

    @computed_field  # type: ignore[prop-decorator]
    @property
    def duration_s(self) -> float | None:
        """end - start (or the covered time of a log whose time restarts), None when empty."""
        if self.covered_s is not None and not self.narrowed:
            return self.covered_s if self.covered_s > 0 else None
        if self.start_s is None or self.end_s is None or self.end_s <= self.start_s:
            return None
        return self.end_s - self.start_s


def run_window(fmt: Mapping[str, Any]) -> RunWindow:
    """The run window of a log from its `GcLog.format`."""
    first, last = fmt.get("first_time_s"), fmt.get("last_time_s")
    if first is None or last is None:
        return RunWindow(start_s=None, end_s=None, from_jvm_start=False)
    from_start = bool(fmt.get("jvm_start_seen"))
    covered = None
    if (fmt.get("time_segments") or 1) > 1 and fmt.get("time_covered_s") is not None:
        covered = float(fmt["time_covered_s"]) + (float(first) if from_start else 0.0)
    return RunWindow(
        start_s=0.0 if from_start else float(first),
        end_s=float(last),
        from_jvm_start=from_start,
        covered_s=covered,
    )


def narrow(window: RunWindow, start_s: float | None, end_s: float | None) -> RunWindow:
    """The part of `window` between `start_s` and `end_s` (either may be None: no bound)."""
    if window.start_s is None or window.end_s is None:
        raise UsageError("the log has no time stamps, so a time window (--start-s/--end-s) cannot be applied")
    if start_s is not None and end_s is not None and end_s <= start_s:
        raise UsageError(
            f"time window ends ({end_s} s) before it starts ({start_s} s): check --start-s/--end-s"
        )
    start = window.start_s if start_s is None else max(window.start_s, start_s)
    end = window.end_s if end_s is None else min(window.end_s, end_s)
    if end <= start:
        raise UsageError(
            f"time window {start_s}..{end_s} s lies outside the log ({window.start_s:g}..{window.end_s:g} s)"
        )
    return RunWindow(
        start_s=start, end_s=end, from_jvm_start=window.from_jvm_start and start == 0.0, narrowed=True
    )
