"""Independent figures of the per-request samples, written to <sample>.expected.toml for the tests.

This does NOT use jvmlab, numpy or polars: it reads each sample with the csv / json modules row by row,
classifies every request with plain string tests written from the tools' documentation, and computes the
figures of jvmlab.load.result's definitions with sorted lists and exact fractions:

- window: requests sent at or after first send + warm-up; duration = last event (send or end) - that;
- nearest-rank percentile: the value at rank ceil(p * n / 100) (a Fraction, no float rounding), rank >= 1;
- per second: floor(time / 1000 ms) - floor(first send / 1000 ms), sends by send time, responses and
  errors by end time.

    .venv/bin/python tests/load/samples/crosscheck.py          # rewrites the expected files
"""

from __future__ import annotations

import calendar
import csv
import gzip
import json
import math
import re
from fractions import Fraction
from pathlib import Path

from generate import JMETER_COLUMNS  # this folder's sample writer

HERE = Path(__file__).resolve().parent
DEFAULT = JMETER_COLUMNS  # JMeter's default CSV columns, as the samples' generator writes them
PERCENTILES = {"p50_ms": 50, "p90_ms": 90, "p95_ms": 95, "p99_ms": 99, "p999_ms": Fraction("99.9")}

# One request: (send ms, end ms, latency ms, kind) with kind "" for a response below 400.


def jmeter_requests(path: Path) -> list[tuple[float, float, float, str]]:
    with path.open(newline="") as f:
        first = f.readline()
        f.seek(0)
        sep = "\t" if "\t" in first else ","
        rows = csv.reader(f, delimiter=sep)
        names = DEFAULT if first[0].isdigit() else next(rows)
        out = []
        for values in rows:
            row = dict(zip(names, values, strict=False))
            start, elapsed = int(row["timeStamp"]), int(row["elapsed"])
            out.append((float(start), float(start + elapsed), float(elapsed), jmeter_kind(row)))
    return out


def jmeter_kind(row: dict[str, str]) -> str:
    code, message = row["responseCode"], row.get("responseMessage", "")
    if code.isdigit():
        return f"status_{code}" if int(code) >= 400 else ""
    exception = code.rsplit(".", 1)[-1]  # "Non HTTP response code: java.net.ConnectException"
    if exception in ("HttpHostConnectException", "ConnectException", "ConnectTimeoutException"):
        return "connect"
    if exception == "SocketTimeoutException":
        return "connect" if "connect timed out" in message else "timeout"
    return "io"


def k6_requests(path: Path) -> list[tuple[float, float, float, str]]:
    out = []
    with gzip.open(path, "rt") as f:
        for line in f:
            doc = json.loads(line)
            if doc["type"] != "Point" or doc["metric"] != "http_req_duration":
                continue
            end = rfc3339_us(doc["data"]["time"]) / 1000.0
            value = doc["data"]["value"]
            tags = doc["data"]["tags"]
            out.append((end - value, end, value, k6_kind(tags)))
    return out


def rfc3339_us(text: str) -> int:
    """Microseconds since the epoch, the fraction truncated to 6 digits."""
    m = re.fullmatch(r"(\d+)-(\d+)-(\d+)T(\d+):(\d+):(\d+)(?:\.(\d+))?(Z|[+-]\d\d:\d\d)", text)
    assert m, text
    y, mo, d, h, mi, s = (int(g) for g in m.groups()[:6])
    seconds = calendar.timegm((y, mo, d, h, mi, s))
    if m.group(8) != "Z":
        sign = 1 if m.group(8)[0] == "+" else -1
        seconds -= sign * (int(m.group(8)[1:3]) * 3600 + int(m.group(8)[4:6]) * 60)
    return seconds * 1_000_000 + int(((m.group(7) or "") + "000000")[:6])


def k6_kind(tags: dict[str, str]) -> str:
    status = int(tags["status"])
    if status:
        return f"status_{status}" if status >= 400 else ""
    code = int(tags["error_code"])  # https://grafana.com/docs/k6/latest/javascript-api/error-codes/
    if code == 1050:
        return "timeout"
    if code in (1211, 1212) or 1100 <= code < 1200:
        return "connect"
    return "io"


def nearest_rank(values: list[float], p: int | Fraction) -> float:
    return values[max(1, math.ceil(Fraction(p) * len(values) / 100)) - 1]


def figures(requests: list[tuple[float, float, float, str]], warmup_s: float) -> dict:
    first = min(r[0] for r in requests)
    w0 = first + warmup_s * 1000
    last = max(max(r[0], r[1]) for r in requests)
    window = [r for r in requests if r[0] >= w0]
    lat = sorted(r[2] for r in window if r[3] == "" or r[3].startswith("status_"))
    errors: dict[str, int] = {}
    for r in window:
        if r[3]:
            errors[r[3]] = errors.get(r[3], 0) + 1
    doc = {
        "sent": len(window),
        "completed": len(lat),
        "duration_s": (last - w0) / 1000,
        "errors": errors,
        "latency": {"count": len(lat), "mean_ms": sum(lat) / len(lat), "min_ms": lat[0], "max_ms": lat[-1]},
        "second": seconds(requests, first),
    }
    doc["latency"].update({k: nearest_rank(lat, p) for k, p in PERCENTILES.items()})
    return doc


def seconds(requests: list[tuple[float, float, float, str]], first: float) -> list[dict]:
    s0 = math.floor(first / 1000)
    n = max(math.floor(max(r[0], r[1]) / 1000) for r in requests) - s0 + 1
    out = [{"t_s": t, "sent": 0, "completed": 0, "errors": {}, "lat": []} for t in range(n)]
    for start, end, latency, kind in requests:
        out[math.floor(start / 1000) - s0]["sent"] += 1
        second = out[math.floor(end / 1000) - s0]
        if kind == "" or kind.startswith("status_"):
            second["completed"] += 1
            second["lat"].append(latency)
        if kind:
            second["errors"][kind] = second["errors"].get(kind, 0) + 1
    for second in out:
        lat = sorted(second.pop("lat"))
        if lat:
            second.update(p50_ms=nearest_rank(lat, 50), p99_ms=nearest_rank(lat, 99), max_ms=lat[-1])
    return out


def toml(doc: dict, source: str, warmup_s: float) -> str:
    lines = [f"# {source}, warmup_s = {warmup_s}: written by crosscheck.py (independent of jvmlab)"]
    lines += [f"warmup_s = {warmup_s!r}", f"sent = {doc['sent']}", f"completed = {doc['completed']}"]
    lines += [f"duration_s = {doc['duration_s']!r}", "", "[errors]"]
    lines += [f"{k} = {v}" for k, v in sorted(doc["errors"].items())]
    lines += ["", "[latency]"] + [f"{k} = {v!r}" for k, v in doc["latency"].items()]
    for s in doc["second"]:
        lines += ["", "[[second]]"] + [f"{k} = {v!r}" for k, v in s.items() if k != "errors"]
        lines.append("errors = {" + ", ".join(f"{k} = {v}" for k, v in sorted(s["errors"].items())) + "}")
    return "\n".join(lines) + "\n"


CASES = [
    ("jmeter-default.jtl", jmeter_requests, 0.0),
    ("jmeter-default.jtl", jmeter_requests, 5.0),
    ("jmeter-noheader.jtl", jmeter_requests, 0.0),
    ("jmeter-subset.tsv", jmeter_requests, 2.0),
    ("k6-out.json.gz", k6_requests, 0.0),
    ("k6-out.json.gz", k6_requests, 2.0),
]


def expected_path(name: str, warmup_s: float) -> Path:
    return HERE / f"{name}.warmup{warmup_s:g}.expected.toml"


if __name__ == "__main__":
    for name, reader, warmup_s in CASES:
        requests = reader(HERE / name)
        expected_path(name, warmup_s).write_text(toml(figures(requests, warmup_s), name, warmup_s))
        print(name, warmup_s, len(requests), "requests")
