"""jvmlab's open-model load driver (native, `jvmlab._native.run_load`): a `LoadPlan` in, a `LoadResult`
out. Requests leave at a constant rate whatever the server does; latency runs from each request's due
time, so a stalled server shows in the tail instead of slowing the load down (no coordinated omission)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from jvmlab.errors import JvmLabError, UsageError
from jvmlab.load.result import DriverStats, Latency, LoadResult, Second

DEFAULT_TICK_S = 200e-6
# A request that leaves this late (p99) means the driver was short of CPU.
LATE_SEND_MS = 5.0
# The driver's lateness is part of every corrected latency. Below LAG_FLOOR_MS it keeps to its precision
# target (send lag p99 <= 0.1 ms on an idle machine); above it, lateness of more than LAG_SHARE_OF_P50 of the
# median latency is a distortion worth a warning (the median is what a fast service's figures turn on).
LAG_FLOOR_MS = 0.1
LAG_SHARE_OF_P50 = 0.25


@dataclass(frozen=True)
class Request:
    """One kind of request of the mix. `path` "" is the URL's; `{rand:A..B}` in it is replaced per request
    by a whole number drawn from A..B."""

    method: str = "GET"
    path: str = ""
    headers: tuple[tuple[str, str], ...] = ()
    body: bytes = b""
    weight: float = 1.0


@dataclass(frozen=True)
class LoadPlan:
    url: str
    rate: float  # requests per second
    duration_s: float  # the measured window, after the warm-up
    warmup_s: float = 0.0
    timeout_s: float = 10.0  # from the due time: no complete response by then is a timeout
    connections: int = 512  # the most open at once; beyond, requests wait (and the wait counts)
    # Requests leave at most this often: those due within one tick go together at its end. 200 us: each at
    # its own due time up to 5,000/s; 1 ms: in bursts, as oha and k6 send, for less CPU.
    tick_s: float = DEFAULT_TICK_S
    mix: Sequence[Request] = field(default_factory=lambda: (Request(),))
    seed: int = 1


def _native_config(plan: LoadPlan) -> dict[str, Any]:
    return {
        "url": plan.url,
        "rate": float(plan.rate),
        "warmup_s": float(plan.warmup_s),
        "duration_s": float(plan.duration_s),
        "timeout_s": float(plan.timeout_s),
        "connections": int(plan.connections),
        "tick_s": float(plan.tick_s),
        "seed": int(plan.seed),
        "mix": [
            {
                "method": r.method,
                "path": r.path,
                "headers": list(r.headers),
                "body": r.body,
                "weight": r.weight,
            }
            for r in plan.mix
        ],
    }


def _second(d: dict[str, Any]) -> Second:
    return Second(
        t_s=d["t_s"],
        sent=d["sent"],
        completed=d["completed"],
        errors=dict(d["errors"]),
        p50_ms=d["p50_ms"],
        p99_ms=d["p99_ms"],
        max_ms=d["max_ms"],
        service_p99_ms=d["service_p99_ms"],
    )


def send_lag_notes(
    stats: DriverStats, latency: Latency, rate: float, tick_s: float = DEFAULT_TICK_S
) -> list[str]:
    """Warnings when the driver's own lateness is large against the latencies it measured."""
    notes = []
    tick_ms = 1000 * tick_s
    if not stats.precise_timer:
        notes.append(
            "the driver's clock counts whole milliseconds on this system: requests leave up to 1 ms late, "
            "and that lateness is part of the latency figures (service time is not affected)"
        )
    if stats.timed_at_read:
        notes.append(
            f"{stats.timed_at_read:,} responses were timed when the driver read them, for want of the "
            "kernel's receive time: their latency includes the driver's own wake-up"
        )
    lag, p50 = stats.send_lag_p99_ms, latency.p50_ms
    # More than one request due per tick: those due within it leave together at its end, up to a tick late
    # by design.
    bursts = rate * tick_s > 1
    if bursts:
        notes.append(
            f"requests left in bursts, those due within each {tick_ms:g} ms tick together: the latency "
            "figures carry up to a tick of the driver's lateness; the service time does not"
        )
    if lag is None:
        return notes
    if lag > LATE_SEND_MS:
        notes.append(
            f"the driver sent late (p99 {lag:.1f} ms, max {stats.send_lag_max_ms or lag:.1f} ms behind "
            "schedule): it was short of CPU, so the server saw bursts instead of an even rate; latencies "
            "still count from the due times. Run fewer things on this machine or lower the rate."
        )
    elif p50 is not None and lag > (tick_ms if bursts else 0.0) + max(LAG_FLOOR_MS, LAG_SHARE_OF_P50 * p50):
        notes.append(
            f"the driver sent late (p99 {1000 * lag:.0f} us behind schedule) against a median latency of "
            f"{1000 * p50:.0f} us: the latency figures carry the driver's lateness; the service time (from "
            "the actual send) does not"
        )
    return notes


def to_result(plan: LoadPlan, raw: dict[str, Any]) -> LoadResult:
    lag = raw["send_lag"]
    stats = DriverStats(
        planned=raw["planned"],
        connections_opened=raw["connections_opened"],
        retries=raw["retries"],
        send_lag_p50_ms=lag["p50_ms"],
        send_lag_p99_ms=lag["p99_ms"],
        send_lag_max_ms=lag["max_ms"],
        precise_timer=raw["precise_timer"],
        timed_at_read=raw["timed_at_read"],
        elapsed_s=raw["elapsed_s"],
        start_unix_s=raw["start_unix_s"],
    )
    latency = Latency(**raw["latency"])
    return LoadResult(
        source="jvmlab",
        corrected=True,
        target_rps=plan.rate,
        warmup_s=plan.warmup_s,
        duration_s=plan.duration_s,
        sent=raw["sent"],
        completed=raw["completed"],
        errors=dict(raw["errors"]),
        latency=latency,
        service=Latency(**raw["service"]),
        per_second=[_second(s) for s in raw["per_second"]],
        distribution=[(float(p), float(v)) for p, v in raw["distribution"]],
        notes=send_lag_notes(stats, latency, plan.rate, plan.tick_s),
        driver=stats,
    )


def drive(plan: LoadPlan, on_second: Callable[[Second], None] | None = None) -> LoadResult:
    """Runs the load; `on_second` gets each second of the series as it closes. Ctrl-C stops it
    (KeyboardInterrupt). A plan that cannot run raises UsageError naming the setting."""
    from jvmlab import _native

    callback = None if on_second is None else (lambda d: on_second(_second(d)))
    try:
        raw = _native.run_load(_native_config(plan), callback)
    except ValueError as e:
        raise UsageError(str(e)) from None
    except (RuntimeError, OSError) as e:
        raise JvmLabError(f"load on {plan.url}: {e}") from None
    return to_result(plan, raw)
