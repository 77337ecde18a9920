"""jvmlab's open-model load driver (native, `jvmlab._native.run_load`): a `LoadPlan` in, a `LoadResult`
out. Requests leave at a constant rate whatever the server does; latency runs from each request's due
time, so a stalled server shows in the tail instead of slowing the load down (no coordinated omission)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from jvmlab.errors import JvmLabError, UsageError
from jvmlab.load.result import DriverStats, Latency, LoadResult, Second

# A request that leaves this late (p99) means the driver was short of CPU.
LATE_SEND_MS = 5.0


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
    )


def _notes(plan: LoadPlan, stats: DriverStats) -> list[str]:
    notes = []
    if stats.send_lag_p99_ms > LATE_SEND_MS:
        notes.append(
            f"the driver sent late (p99 {stats.send_lag_p99_ms:.1f} ms, max {stats.send_lag_max_ms:.1f} ms "
            "behind schedule): it was short of CPU, so the server saw bursts instead of an even rate; "
            "latencies still count from the due times. Run fewer things on this machine or lower the rate."
        )
    return notes


def to_result(plan: LoadPlan, raw: dict[str, Any]) -> LoadResult:
    stats = DriverStats(
        planned=raw["planned"],
        connections_opened=raw["connections_opened"],
        retries=raw["retries"],
        send_lag_p99_ms=raw["send_lag_p99_ms"],
        send_lag_max_ms=raw["send_lag_max_ms"],
        elapsed_s=raw["elapsed_s"],
        start_unix_s=raw["start_unix_s"],
    )
    return LoadResult(
        source="jvmlab",
        corrected=True,
        target_rps=plan.rate,
        warmup_s=plan.warmup_s,
        duration_s=plan.duration_s,
        sent=raw["sent"],
        completed=raw["completed"],
        errors=dict(raw["errors"]),
        latency=Latency(**raw["latency"]),
        per_second=[_second(s) for s in raw["per_second"]],
        distribution=[(float(p), float(v)) for p, v in raw["distribution"]],
        notes=_notes(plan, stats),
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
    except RuntimeError as e:
        raise JvmLabError(f"load on {plan.url}: {e}") from None
    return to_result(plan, raw)
