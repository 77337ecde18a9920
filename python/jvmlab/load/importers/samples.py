"""Raw per-request samples of an imported run -> `LoadResult`, with the definitions of jvmlab.load.result.

A sample is one request: when it was sent, when it ended, its latency, its HTTP status and, when it got no
response, why (`Failure`). Importers fill the columns (numpy arrays, one element per request) and
`to_result` computes every figure:

- the measured window starts `warmup_s` after the first sample's send time and ends at the run's last
  event (send or end); requests belong to it by their send time, as in jvmlab's driver (a request sent
  during the warm-up is out of every window figure however late it ends): `sent`, `completed`, `errors`
  and `latency` are over the requests sent in it;
- percentiles are nearest-rank over every latency of the window (no histogram, no interpolation):
  the value at rank ceil(p/100 * n) of the sorted latencies, rank 1 for p = 0 (Hyndman & Fan 1996,
  definition 1; numpy's `method="inverted_cdf"`). The rank is computed in integers, so p99 of 100 values
  is the 99th value, never the 100th through float rounding;
- `per_second` covers the whole run, warm-up included: second t_s holds the requests sent in
  [s0 + t_s, s0 + t_s + 1) where s0 is the first sample's whole epoch second, and the responses and errors
  that ended in it;
- `distribution` is (percentile, ms) at `DISTRIBUTION_PERCENTILES`, nearest-rank like the rest.
"""

from __future__ import annotations

import gzip
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import UTC, datetime
from enum import IntEnum
from typing import IO, cast

import numpy as np
import numpy.typing as npt

from jvmlab.errors import InputError, UsageError
from jvmlab.load.result import Latency, LoadResult, Second

# The same percentiles as jvmlab's driver (native/src/load/record.rs), so that distributions line up.
DISTRIBUTION_PERCENTILES = (
    0.0, 10.0, 20.0, 30.0, 40.0, 50.0, 60.0, 70.0, 75.0, 80.0, 90.0, 95.0, 97.0, 98.0, 99.0, 99.5,
    99.7, 99.9, 99.95, 99.99, 99.999, 100.0,
)  # fmt: skip


MAX_SPAN_S = 14 * 86_400  # a longer run is a wrong time stamp (and 1.2 M per-second rows)


class Failure(IntEnum):
    """Why a request got no response (RESPONSE: it got one, whatever its status)."""

    RESPONSE = 0
    CONNECT = 1  # no connection: refused, unreachable, DNS, TLS handshake, connect timeout
    TIMEOUT = 2  # connected, no response in time
    IO = 3  # the connection broke mid-request (reset, closed, protocol error)


FAILURE_KINDS = {Failure.CONNECT: "connect", Failure.TIMEOUT: "timeout", Failure.IO: "io"}

FloatArray = npt.NDArray[np.float64]
IntArray = npt.NDArray[np.int64]


@dataclass(frozen=True)
class Samples:
    """One element per request. Times are ms since the epoch (any common origin works)."""

    start_ms: FloatArray  # sent
    end_ms: FloatArray  # response received or failure noticed
    latency_ms: FloatArray  # meaningful where failure == RESPONSE
    status: IntArray  # HTTP status; 0 when there was no response (or the source does not say)
    failure: IntArray  # Failure values

    def __post_init__(self) -> None:
        n = len(self.start_ms)
        if any(len(a) != n for a in (self.end_ms, self.latency_ms, self.status, self.failure)):
            raise ValueError("sample columns differ in length")

    def __len__(self) -> int:
        return len(self.start_ms)


@dataclass(frozen=True)
class Source:
    """What the importer knows of the run besides its samples."""

    path: str
    name: str  # LoadResult.source
    corrected: bool
    target_rps: float | None
    notes: Sequence[str] = ()


def to_result(samples: Samples, source: Source, *, warmup_s: float = 0.0) -> LoadResult:
    if len(samples) == 0:
        raise InputError(source.path, "no request samples in the file")
    t0 = float(samples.start_ms.min())
    w0 = t0 + warmup_s * 1000.0
    t_end = max(float(samples.end_ms.max()), float(samples.start_ms.max()))
    if t_end - t0 > MAX_SPAN_S * 1000.0:
        first, last = (_utc(t) for t in (t0, t_end))
        raise InputError(source.path, f"the samples span {first} to {last}: a time stamp is wrong")
    if warmup_s < 0 or w0 >= t_end:
        run_s = (t_end - t0) / 1000.0
        raise UsageError(f"warmup_s={warmup_s:g} leaves no measured window: the run lasts {run_s:.3f} s")
    response = samples.failure == Failure.RESPONSE
    in_window = samples.start_ms >= w0
    window_latencies = np.sort(samples.latency_ms[in_window & response])
    latency = latency_of(window_latencies)
    return LoadResult(
        source=source.name,
        corrected=source.corrected,
        target_rps=source.target_rps,
        warmup_s=float(warmup_s),
        duration_s=(t_end - w0) / 1000.0,
        sent=int(np.count_nonzero(in_window)),
        completed=len(window_latencies),
        errors=_error_counts(samples, in_window),
        latency=latency,
        service=latency,  # JMeter and k6 time each request from its actual send
        per_second=per_second(samples, t0),
        distribution=distribution(window_latencies),
        notes=list(source.notes),
    )


def _utc(ms: float) -> str:
    return datetime.fromtimestamp(ms / 1000.0, UTC).strftime("%Y-%m-%d %H:%M:%S UTC")


def rank_index(n: int, percentile: float) -> int:
    """0-based index of the nearest-rank percentile in n sorted values: ceil(p/100 * n) - 1, at least 0.
    p is taken to 1/1000 of a percent and the ceiling is done in integers (no float rounding)."""
    milli = round(percentile * 1000)
    return max(0, -(-milli * n // 100_000) - 1)


def nearest_rank(sorted_values: FloatArray, percentile: float) -> float | None:
    if len(sorted_values) == 0:
        return None
    return float(sorted_values[rank_index(len(sorted_values), percentile)])


def latency_of(sorted_ms: FloatArray) -> Latency:
    if len(sorted_ms) == 0:
        return Latency(count=0)
    p50, p90, p95, p99, p999 = (nearest_rank(sorted_ms, p) for p in (50.0, 90.0, 95.0, 99.0, 99.9))
    return Latency(
        count=len(sorted_ms),
        mean_ms=float(sorted_ms.mean()),
        min_ms=float(sorted_ms[0]),
        p50_ms=p50,
        p90_ms=p90,
        p95_ms=p95,
        p99_ms=p99,
        p999_ms=p999,
        max_ms=float(sorted_ms[-1]),
    )


def distribution(sorted_ms: FloatArray) -> list[tuple[float, float]]:
    if len(sorted_ms) == 0:
        return []
    return [(p, float(sorted_ms[rank_index(len(sorted_ms), p)])) for p in DISTRIBUTION_PERCENTILES]


def error_kind(failure: int, status: int) -> str | None:
    if failure != Failure.RESPONSE:
        return FAILURE_KINDS[Failure(failure)]
    return f"status_{status}" if status >= 400 else None


def _error_keys(samples: Samples, mask: npt.NDArray[np.bool_]) -> IntArray:
    """One integer per request of `mask`: the failure (1-3), 1000 + status for a status >= 400, else 0."""
    failure = samples.failure[mask]
    status = samples.status[mask]
    return np.where(failure != Failure.RESPONSE, failure, np.where(status >= 400, 1000 + status, 0))


def _key_name(key: int) -> str:
    return f"status_{key - 1000}" if key >= 1000 else FAILURE_KINDS[Failure(key)]


def _error_counts(samples: Samples, mask: npt.NDArray[np.bool_]) -> dict[str, int]:
    """Kinds in the order connect, timeout, io, then statuses: the order of their integer keys."""
    keys = _error_keys(samples, mask)
    values, counts = np.unique(keys[keys != 0], return_counts=True)
    return {_key_name(int(k)): int(c) for k, c in zip(values, counts, strict=True)}


def per_second(samples: Samples, t0_ms: float) -> list[Second]:
    s0 = np.floor(t0_ms / 1000.0)
    sent_sec = (np.floor(samples.start_ms / 1000.0) - s0).astype(np.int64)
    end_sec = (np.floor(samples.end_ms / 1000.0) - s0).astype(np.int64)
    # A source whose end times precede the send of the first sample (clock skew) still lands in second 0.
    np.maximum(end_sec, 0, out=end_sec)
    n_sec = int(max(sent_sec.max(), end_sec.max())) + 1
    sent = np.bincount(sent_sec, minlength=n_sec)
    response = samples.failure == Failure.RESPONSE
    stats = _per_second_latency(end_sec[response], samples.latency_ms[response], n_sec)
    errors = _per_second_errors(samples, end_sec, n_sec)
    return [
        Second(
            t_s=t,
            sent=int(sent[t]),
            completed=int(stats.count[t]),
            errors=errors.get(t, {}),
            p50_ms=stats.value(0, t),
            p99_ms=stats.value(1, t),
            max_ms=stats.value(2, t),
            service_p99_ms=stats.value(1, t),  # JMeter and k6 measure from the actual send
        )
        for t in range(n_sec)
    ]


@dataclass(frozen=True)
class _SecondStats:
    count: IntArray
    values: FloatArray  # (3, n_sec): p50, p99, max; NaN where the second has no response

    def value(self, row: int, t: int) -> float | None:
        v = self.values[row, t]
        return None if np.isnan(v) else float(v)


def _per_second_latency(sec: IntArray, latency: FloatArray, n_sec: int) -> _SecondStats:
    """Nearest-rank p50 and p99 and the max per second, vectorised: sort by (second, latency), then index
    each second's slice at its own rank."""
    order = np.lexsort((latency, sec))
    sorted_lat = latency[order]
    count = np.bincount(sec, minlength=n_sec)
    first = np.concatenate(([0], np.cumsum(count)[:-1]))
    values = np.full((3, n_sec), np.nan)
    has = count > 0
    for row, p in enumerate((50.0, 99.0)):
        milli = round(p * 1000)
        idx = first + np.maximum(0, -(-milli * count // 100_000) - 1)
        values[row, has] = sorted_lat[idx[has]]
    values[2, has] = sorted_lat[(first + count - 1)[has]]
    return _SecondStats(count=count, values=values)


def _per_second_errors(samples: Samples, end_sec: IntArray, n_sec: int) -> dict[int, dict[str, int]]:
    keys = _error_keys(samples, np.ones(len(samples), dtype=bool))
    is_error = keys != 0
    if not is_error.any():
        return {}
    width = int(keys.max()) + 1
    # One integer per (second, kind): np.unique sorts them by second, then in _error_counts' kind order.
    combined, counts = np.unique(end_sec[is_error] * width + keys[is_error], return_counts=True)
    out: dict[int, dict[str, int]] = {}
    for c, k in zip(combined, counts, strict=True):
        sec, key = divmod(int(c), width)
        out.setdefault(sec, {})[_key_name(key)] = int(k)
    return out


@contextmanager
def open_binary(path: str) -> Iterator[IO[bytes]]:
    """The file's bytes, gunzipped when it starts with the gzip magic number."""
    with open(path, "rb") as raw:
        gz = raw.read(2) == b"\x1f\x8b"
    stream = cast(IO[bytes], gzip.open(path, "rb") if gz else open(path, "rb"))  # noqa: SIM115 (closed below)
    try:
        yield stream
    finally:
        stream.close()
