"""k6 results: the JSON lines of `k6 run --out json=FILE` (plain or .gz) and the end-of-test summary JSON
(`--summary-export=FILE`, the `data` argument of handleSummary(), and k6 v1's
`--new-machine-readable-summary`).

JSON lines: only the `http_req_duration` points are parsed (one per HTTP request, at the time the request
ended, tags.status "0" when there was no response, then tags.error_code / tags.error say why); the
`http_reqs` and `dropped_iterations` points are counted, every other line is only checked to be a whole
JSON object. The file is read in 8 MiB blocks of whole lines where the checks and counts are byte searches,
and samples go to numpy chunks: no Python object per line outlives its block, memory stays flat.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import polars as pl

from jvmlab.errors import InputError
from jvmlab.load.importers.samples import Failure, FloatArray, IntArray, Samples, open_binary
from jvmlab.load.result import Latency

CHUNK = 65_536
TIME_FORMAT = "%Y-%m-%dT%H:%M:%S%.f%:z"  # Go's RFC3339Nano, "Z" rewritten to +00:00

CLOSED_MODEL_NOTE = (
    "k6's default executors (constant-vus, ramping-vus, per-vu-iterations, shared-iterations) are a closed "
    "model: latency is measured from the actual send and stalls are under-reported (coordinated omission); "
    "the executor is not in k6's output: pass corrected=True for constant-arrival-rate / "
    "ramping-arrival-rate runs"
)
ARRIVAL_NOTE = "the caller says the run used arrival-rate executors (open model): corrected=True"


# k6 error codes (https://grafana.com/docs/k6/latest/javascript-api/error-codes/, lib/netext/httpext/
# error_codes.go): 1050 request timeout; DNS 11xx, blocked IP/host 1110/1111, TCP dial 1210-1213 (1211 is a
# dial timeout: no connection), TLS 13xx, invalid URL 1020 -> no connection; the rest (1000 generic,
# 1010 non-TCP, 1200-1202 TCP, 1220 reset by peer, HTTP/2 16xx, 1701 decompression) -> io.
def failure_of(error_code: str | None, error: str | None) -> Failure:
    if error_code and error_code.isdigit():
        code = int(error_code)
        if code == 1050:
            return Failure.TIMEOUT
        if code == 1020 or 1100 <= code < 1200 or 1210 <= code <= 1213 or 1300 <= code < 1400:
            return Failure.CONNECT
        return Failure.IO
    text = (error or "").lower()
    if "dial" in text or "refused" in text or "no such host" in text or "lookup" in text:
        return Failure.CONNECT
    if "timeout" in text:
        return Failure.TIMEOUT
    return Failure.IO


_TIME = re.compile(rb'"time":"([^"]*)"')
_VALUE = re.compile(rb'"value":(-?[0-9][0-9.eE+-]*)')
_STATUS = re.compile(rb'"status":"([^"]*)"')
_ERROR_CODE = re.compile(rb'"error_code":"([^"]*)"')
_ERROR = re.compile(rb'"error":"((?:[^"\\]|\\.)*)"')
BLOCK = 8 << 20


@dataclass
class _Chunks:
    """Samples gathered into short Python lists, turned into numpy arrays every CHUNK samples."""

    path: str
    times: list[bytes] = field(default_factory=list)
    values: list[float] = field(default_factory=list)
    status: list[int] = field(default_factory=list)
    failure: list[int] = field(default_factory=list)
    done: list[tuple[FloatArray, FloatArray, IntArray, IntArray]] = field(default_factory=list)
    untagged: int = 0

    def add_line(self, line: bytes) -> bool:
        """A `{"metric":"http_req_duration","type":"Point",...}` line as k6 writes it, read with regular
        expressions (JSON string values escape their quotes, so a key pattern cannot match inside a value);
        False when it does not have that shape."""
        time, value = _TIME.search(line), _VALUE.search(line)
        if time is None or value is None:
            return False
        status = _STATUS.search(line)
        code = error = None
        if status is not None and status.group(1) == b"0":
            code_m, error_m = _ERROR_CODE.search(line), _ERROR.search(line)
            code = code_m.group(1).decode() if code_m else None
            error = error_m.group(1).decode(errors="replace") if error_m else None
        self._add(time.group(1), float(value.group(1)), status.group(1) if status else None, code, error)
        return True

    def add_json(self, data: dict[str, Any]) -> None:
        tags = data.get("tags") or {}
        status = tags.get("status")
        self._add(
            str(data["time"]).encode(),
            float(data["value"]),
            status.encode() if isinstance(status, str) else None,
            tags.get("error_code"),
            tags.get("error"),
        )

    def _add(
        self, time: bytes, value: float, status_tag: bytes | None, code: str | None, error: str | None
    ) -> None:
        status = int(status_tag) if status_tag is not None and status_tag.isdigit() else 0
        if status_tag is None:
            self.untagged += 1
        no_response = status_tag is not None and status == 0
        self.times.append(time)
        self.values.append(value)
        self.status.append(status)
        self.failure.append(int(failure_of(code, error) if no_response else Failure.RESPONSE))
        if len(self.times) >= CHUNK:
            self.flush()

    def flush(self) -> None:
        if not self.times:
            return
        end_ms = _epoch_ms(self.times, self.path)
        self.done.append(
            (
                end_ms,
                np.array(self.values, dtype=np.float64),
                np.array(self.status, dtype=np.int64),
                np.array(self.failure, dtype=np.int64),
            )
        )
        self.times, self.values, self.status, self.failure = [], [], [], []

    def samples(self) -> Samples:
        self.flush()
        end, value, status, failure = (np.concatenate(cols) for cols in zip(*self.done, strict=True))
        # Points are stamped when the request ended; http_req_duration is sending + waiting + receiving.
        return Samples(start_ms=end - value, end_ms=end, latency_ms=value, status=status, failure=failure)


def _epoch_ms(times: list[bytes], path: str) -> FloatArray:
    try:
        parsed = (
            pl.Series(times, dtype=pl.Binary)
            .cast(pl.String)
            .str.replace(r"Z$", "+00:00")
            .str.to_datetime(TIME_FORMAT, time_unit="ns", strict=True)
        )
    except pl.exceptions.PolarsError:
        example = times[0].decode(errors="replace")
        raise InputError(path, f"k6 point times are not RFC 3339 (e.g. {example!r})") from None
    ns = parsed.dt.epoch("ns").to_numpy()
    return (ns // 1000).astype(np.float64) / 1000.0


FAST_DURATION = b'"metric":"http_req_duration","type":"Point"'  # k6's own key order


@dataclass
class _Scan:
    path: str
    chunks: _Chunks
    lines: int = 0
    k6: bool = False
    http_reqs: int = 0
    dropped: int = 0
    bad: int | None = None  # a line that is not a whole JSON object: an error unless it is the last one

    def block(self, first: int, data: bytes) -> None:
        """Whole lines `data` (each ending in a newline), the first one numbered `first`. Checks and counts
        are byte searches over the block; only the http_req_duration lines are handled one by one."""
        if self.bad is not None and data.strip():
            raise InputError(self.path, f"line {self.bad} is not a whole JSON object (truncated?)")
        if b"\r" in data:
            data = data.replace(b"\r\n", b"\n")
        n_lines = data.count(b"\n")
        self.lines = first + n_lines - 1
        # Every line of a sound block is one JSON object: "{" first, "}" last, so "}\n{" between lines.
        if not (data[:1] == b"{" and data.endswith(b"}\n") and data.count(b"}\n{") == n_lines - 1):
            self._check_lines(first, data.split(b"\n")[:-1])
        self.k6 = self.k6 or b'"type":"Point"' in data or b'"type":"Metric"' in data
        self.http_reqs += _count_points(data, b"http_reqs")
        self.dropped += _count_points(data, b"dropped_iterations")
        self._durations(first, data)

    def _durations(self, first: int, data: bytes) -> None:
        hits, pos = 0, data.find(FAST_DURATION)
        while pos >= 0:
            start, end = data.rfind(b"\n", 0, pos) + 1, data.find(b"\n", pos)
            hits += 1
            number = first + data.count(b"\n", 0, start) if self.bad is not None else 0
            if number != self.bad and not self.chunks.add_line(data[start:end]):
                self._json_line(first + data.count(b"\n", 0, start), data[start:end])
            pos = data.find(FAST_DURATION, end)
        # k6 writes {"metric":...,"type":"Point",...}; its documentation shows another key order: a block
        # without a single line in k6's own order is read line by line.
        if not hits and b'"http_req_duration"' in data:
            for i, line in enumerate(data.split(b"\n")):
                if b'"http_req_duration"' in line and FAST_DURATION not in line and first + i != self.bad:
                    self._json_line(first + i, line)

    def _check_lines(self, first: int, lines: list[bytes]) -> None:
        for i, line in enumerate(lines):
            stripped = line.strip()
            if self.bad is not None:
                if stripped:
                    raise InputError(self.path, f"line {self.bad} is not a whole JSON object (truncated?)")
            elif stripped and not (stripped[:1] == b"{" and stripped[-1:] == b"}"):
                if not self.k6 and first + i == 1:
                    raise InputError(self.path, "not k6 JSON output: line 1 is not a k6 JSON object")
                self.bad = first + i

    def _json_line(self, number: int, line: bytes) -> None:
        try:
            doc = json.loads(line)
        except ValueError:
            if self.bad is not None or number != self.lines:
                raise InputError(
                    self.path, f"line {number} is not a whole JSON object (truncated?)"
                ) from None
            self.bad = number  # the last line so far: an error only if another line follows
            return
        if isinstance(doc, dict) and doc.get("type") == "Point" and doc.get("metric") == "http_req_duration":
            self.chunks.add_json(doc.get("data") or {})


def _count_points(data: bytes, metric: bytes) -> int:
    fast = data.count(b'"metric":"' + metric + b'","type":"Point"')
    name = b'"' + metric + b'"'
    if fast or name not in data:
        return fast
    return sum(1 for line in data.split(b"\n") if name in line and b'"Point"' in line)


def read_samples(path: str, *, corrected: bool) -> tuple[Samples, list[str]]:
    scan = _scan(path)
    if not scan.k6:
        raise InputError(path, 'not k6 JSON output: no {"type": "Metric"|"Point"} line')
    if not scan.chunks.done and not scan.chunks.times:
        raise InputError(path, "no http_req_duration points: the k6 script made no HTTP request")
    samples = scan.chunks.samples()
    return samples, _notes(scan, len(samples), corrected)


def _scan(path: str) -> _Scan:
    """Reads the file in 8 MiB blocks of whole lines: the checks and counts are C-speed byte searches,
    only the http_req_duration lines are looked at one by one."""
    scan = _Scan(path, _Chunks(path))
    first, carry = 1, b""
    with open_binary(path) as f:
        while data := f.read(BLOCK):
            data = carry + data
            cut = data.rfind(b"\n") + 1
            carry = data[cut:]
            if cut:
                scan.block(first, data[:cut])
                first = scan.lines + 1
    if carry.strip():
        scan.block(first, carry + b"\n")
    return scan


def _notes(scan: _Scan, n: int, corrected: bool) -> list[str]:
    notes = [ARRIVAL_NOTE if corrected else CLOSED_MODEL_NOTE]
    notes.append(
        "latency is http_req_duration (sending + waiting + receiving: connection set-up, i.e. "
        "http_req_blocked, _connecting and _tls_handshaking, is not in it); k6 stamps points when the "
        "request ended, so send times are that time minus http_req_duration"
    )
    if scan.bad is not None:
        notes.append(f"the last line ({scan.bad}) is truncated and was ignored")
    if scan.http_reqs != n:
        notes.append(f"{scan.http_reqs} http_reqs points but {n} http_req_duration points: the latter count")
    if scan.dropped:
        notes.append(
            f"{scan.dropped} dropped_iterations points: an arrival-rate executor could not start iterations "
            "on time (not enough VUs); those requests were never sent"
        )
    if scan.chunks.untagged:
        notes.append(
            f"{scan.chunks.untagged} points without a status tag (--system-tags without status): counted as "
            "responses, their errors are unknown"
        )
    return notes


def looks_like_lines(head: str) -> bool:
    first = head.lstrip("\ufeff").split("\n", 1)[0]
    return bool(re.match(r'\s*\{.*"type"\s*:\s*"(Metric|Point)"', first))


# --- end-of-test summary ------------------------------------------------------------------------------


@dataclass(frozen=True)
class Summary:
    requests: int
    failed: int | None  # http_req_failed matches (None: not in the summary)
    duration_s: float | None
    latency: Latency
    distribution: list[tuple[float, float]]
    missing: list[str]
    shape: str
    dropped: int


SHAPES = {
    "export": "--summary-export",
    "data": "handleSummary() data",
    "machine": "--new-machine-readable-summary",
}
_P = re.compile(r"p\(?(\d+(?:\.\d+)?)\)?")


def read_summary(path: str) -> Summary:
    doc = _load_json(path)
    shape, metrics, duration_s = _normalise(doc, path)
    reqs = metrics.get("http_reqs")
    if reqs is None or "count" not in reqs:
        raise InputError(path, "k6 summary without http_reqs: the k6 script made no HTTP request")
    trend = metrics.get("http_req_duration", {})
    requests = int(reqs["count"])
    if duration_s is None and reqs.get("rate"):
        duration_s = requests / reqs["rate"]  # --summary-export drops the run's duration; rate = count / it
    failed_metric = metrics.get("http_req_failed")
    failed = None
    if failed_metric is not None:
        failed = int(failed_metric.get("passes", failed_metric.get("matches", 0)))
    dropped = int(metrics.get("dropped_iterations", {}).get("count", 0))
    latency, pairs, missing = _latency(trend, requests)
    return Summary(requests, failed, duration_s, latency, pairs, missing, SHAPES[shape], dropped)


def _load_json(path: str) -> dict[str, Any]:
    with open_binary(path) as f:
        text = f.read()
    try:
        doc = json.loads(text)
    except ValueError as e:
        raise InputError(path, f"not valid JSON ({e})") from None
    if not isinstance(doc, dict):
        raise InputError(path, "not a k6 summary: the JSON document is not an object")
    return doc


def _normalise(doc: dict[str, Any], path: str) -> tuple[str, dict[str, dict[str, float]], float | None]:
    """(shape, metric name -> values, run duration in s or None) for the three summary shapes."""
    results = doc.get("results")
    if isinstance(results, dict) and isinstance(results.get("metrics"), list):
        metrics = {m["name"]: m.get("values") or {} for m in results["metrics"] if isinstance(m, dict)}
        duration = doc.get("config", {}).get("duration")
        return "machine", metrics, float(duration) if duration else None
    raw = doc.get("metrics")
    if not isinstance(raw, dict):
        raise InputError(path, 'not a k6 summary: no "metrics" object')
    if any(isinstance(m, dict) and isinstance(m.get("values"), dict) for m in raw.values()):
        metrics = {k: m.get("values") or {} for k, m in raw.items() if isinstance(m, dict)}
        duration_ms = doc.get("state", {}).get("testRunDurationMs")
        return "data", metrics, float(duration_ms) / 1000.0 if duration_ms else None
    return "export", {k: m for k, m in raw.items() if isinstance(m, dict)}, None


def _latency(trend: dict[str, Any], count: int) -> tuple[Latency, list[tuple[float, float]], list[str]]:
    points: dict[float, float] = {}
    for key, value in trend.items():
        if not isinstance(value, int | float):
            continue
        if key in ("min", "med", "max"):
            points[{"min": 0.0, "med": 50.0, "max": 100.0}[key]] = float(value)
        elif m := _P.fullmatch(key):
            points[float(m.group(1))] = float(value)
    wanted = {"p50_ms": 50.0, "p90_ms": 90.0, "p95_ms": 95.0, "p99_ms": 99.0, "p999_ms": 99.9}
    missing = [name for name, p in wanted.items() if p not in points]
    mean = trend.get("avg")
    latency = Latency(
        count=count,
        mean_ms=float(mean) if isinstance(mean, int | float) else None,
        min_ms=points.get(0.0),
        max_ms=points.get(100.0),
        **{name: points.get(p) for name, p in wanted.items()},
    )
    return latency, sorted(points.items()), missing


def looks_like_summary(doc_head: str) -> bool:
    """A JSON object with k6 summary keys near its start: the machine-readable summary opens with the
    script's whole text, so its "results" may lie beyond the head; the summary's reader says what is
    missing when it is not one."""
    return bool(re.search(r'"(metrics|results|root_group|config)"\s*:', doc_head))
