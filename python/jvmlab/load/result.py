"""What a load run measured, whichever tool drove it: jvmlab's own open-model driver, or a tool whose
output is imported (JMeter, k6, wrk2). Immutable records with units in their names; `to_json()` is the
`jvmlab load --json` document (docs/load-json.md).

Definitions (the same for every source, where the source has the data):
- the measured window is the run after its warm-up; every figure but `per_second` is over it;
- latency is measured per response, any HTTP status, in ms; for jvmlab's driver it is taken from the
  request's intended send time (open model: no coordinated omission); imported tools measure from their
  actual send (closed-model tools hide stalls: `corrected` says which);
- service time is measured from the actual send (the request had its connection) to the end of the
  response: what the server took, without the time a request waited to be sent. A stall of the server
  shows in the latency of every request due during it, but in the service time only of those sent into
  it. For tools that measure from the actual send it is their latency;
- errors are counted by kind: `connect` (no connection), `timeout` (no response in time), `io` (the connection
  broke mid-request), `status_NNN` (a response with status >= 400; it is in the latency figures too); tools
  that report whole-run counts only add `status_xxx` (statuses >= 400 without their codes: wrk2) and
  `unclassified` (failures without their kind: a k6 summary);
- `throughput_rps` is responses received (any status) per second of the measured window.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Any

FORMAT_VERSION = 1
PERCENTILES = (50.0, 90.0, 95.0, 99.0, 99.9)


@dataclass(frozen=True)
class Latency:
    """Latency of the responses in a window, ms. Percentiles are nearest-rank (HDR histogram for the
    driver, 3 significant digits); None when the window has no response."""

    count: int
    mean_ms: float | None = None
    min_ms: float | None = None
    p50_ms: float | None = None
    p90_ms: float | None = None
    p95_ms: float | None = None
    p99_ms: float | None = None
    p999_ms: float | None = None
    max_ms: float | None = None


@dataclass(frozen=True)
class Second:
    """One second of the run (from its start, warm-up included): requests sent (by their send time),
    responses and errors (by the time they ended), latency of the responses that ended in it."""

    t_s: int
    sent: int
    completed: int
    errors: dict[str, int] = field(default_factory=dict)
    p50_ms: float | None = None
    p99_ms: float | None = None
    max_ms: float | None = None
    service_p99_ms: float | None = None

    @property
    def error_count(self) -> int:
        return sum(self.errors.values())


@dataclass(frozen=True)
class DriverStats:
    """How jvmlab's own driver kept to its schedule. A driver short of CPU sends late: its latencies still
    run from the due times, but the server saw a lower rate than planned."""

    planned: int  # requests in the schedule (warm-up included)
    connections_opened: int
    retries: int  # requests sent again on a new connection after the server closed an idle one
    # How late the measured window's requests left, behind their due time (ms).
    send_lag_p50_ms: float | None
    send_lag_p99_ms: float | None
    send_lag_max_ms: float | None
    precise_timer: bool  # the schedule runs on a microsecond clock (Linux), else on the next millisecond
    # Responses timed when the driver read them, for want of the kernel's receive time (0 on Linux).
    timed_at_read: int
    elapsed_s: float
    start_unix_s: float  # when the schedule began (wall clock); the measured window starts warmup_s later


@dataclass(frozen=True)
class LoadResult:
    source: str  # "jvmlab", "jmeter", "k6", "wrk2"
    corrected: bool  # latency from the intended send time (no coordinated omission)
    target_rps: float | None  # the arrival rate asked for; None for a closed-model tool
    warmup_s: float
    duration_s: float  # the measured window
    sent: int  # requests sent in the measured window
    completed: int  # responses received in it (any status)
    errors: dict[str, int]
    latency: Latency
    # From the actual send; None when the source measured from the intended send time only (wrk2).
    service: Latency | None = None
    per_second: list[Second] = field(default_factory=list)
    # Percentile distribution of the measured window: (percentile, ms) pairs, for charts.
    distribution: list[tuple[float, float]] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)  # what the source could not give, what was assumed
    driver: DriverStats | None = None  # jvmlab's driver only

    @property
    def throughput_rps(self) -> float | None:
        return self.completed / self.duration_s if self.duration_s > 0 else None

    @property
    def error_count(self) -> int:
        return sum(self.errors.values())

    def to_json(self) -> dict[str, Any]:
        doc = {"format_version": FORMAT_VERSION, **asdict(self)}
        doc["throughput_rps"] = self.throughput_rps
        doc["error_count"] = self.error_count
        return doc
