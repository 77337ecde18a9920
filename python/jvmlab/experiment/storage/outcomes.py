"""What a finished trial reports to the store: its outcome, and one per load level it measured."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class LevelOutcome:
    """One load level of a trial, as measured."""

    position: int
    name: str
    rate: float
    start_s: float
    end_s: float
    uptime_start_s: float | None
    uptime_end_s: float | None
    load: dict[str, Any] | None
    gc: dict[str, Any] | None
    process: dict[str, Any] | None


@dataclass(frozen=True)
class TrialOutcome:
    """What a finished trial reports to the store."""

    state: str
    reason: str | None = None
    elapsed_s: float | None = None
    ready_s: float | None = None
    exit_code: int | None = None
    stderr_tail: str | None = None
    metric: dict[str, Any] | None = None
    process: dict[str, Any] | None = None
    gc: dict[str, Any] | None = None
    series: dict[str, list[tuple[float, float]]] | None = None
    artifacts: dict[str, str] | None = None
    argv: list[str] | None = None
    levels: list[LevelOutcome] | None = None
    profile_note: str | None = None  # what the profile is, or why there is none (None: none was asked)
    # [telemetry] count: backend, window_s and per pattern its invocations (or an error)
    counts: dict[str, Any] | None = None
    # [telemetry] jit: code cache per code heap, huge pages of the heap and the code cache, a note
    jit: dict[str, Any] | None = None
    # [telemetry] perf: perf stat's counts by event, the figures measured, a note of what is missing
    perf: dict[str, Any] | None = None
    # The container: {"limits", "version", "usage"} (container.Usage.to_json); None: no container
    cgroup: dict[str, Any] | None = None
