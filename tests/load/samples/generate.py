"""Writes the JMeter and wrk2 samples of this folder, and the large files of the importer benchmark.

JMeter and wrk2 cannot be installed here (only package registries are reachable), so their samples are
synthesised in their documented formats: JMeter's CSVSaveService columns and messages, wrk2's output as
printed by wrk.c and HdrHistogram_c's hdr_percentiles_print (3 significant digits, 5 ticks per half
distance, values in ms). The k6 samples are real (k6_server.py, k6_script.js).

    .venv/bin/python tests/load/samples/generate.py samples      # rewrites the samples (seeded)
    .venv/bin/python tests/load/samples/generate.py bench DIR [--big]   # 1,000,000-row files, timed
"""

from __future__ import annotations

import csv
import io
import json
import math
import random
import sys
import time
from collections.abc import Iterable
from datetime import UTC, datetime
from pathlib import Path

HERE = Path(__file__).resolve().parent
JMETER_COLUMNS = [
    "timeStamp",
    "elapsed",
    "label",
    "responseCode",
    "responseMessage",
    "threadName",
    "dataType",
    "success",
    "failureMessage",
    "bytes",
    "sentBytes",
    "grpThreads",
    "allThreads",
    "URL",
    "Latency",
    "IdleTime",
    "Connect",
]

# (responseCode, responseMessage, kind) of JMeter's HTTP sampler failures, as JMeter writes them.
NH, NM = "Non HTTP response code: ", "Non HTTP response message: "
JMETER_ERRORS = [
    (
        "Non HTTP response code: org.apache.http.conn.HttpHostConnectException",
        "Non HTTP response message: Connect to 127.0.0.1:8080 [/127.0.0.1] failed: Connection refused "
        "(Connection refused)",
        "connect",
    ),
    (
        "Non HTTP response code: org.apache.http.conn.ConnectTimeoutException",
        "Non HTTP response message: Connect to 10.20.0.7:8080 [/10.20.0.7] failed: connect timed out",
        "connect",
    ),
    (NH + "java.net.SocketTimeoutException", NM + "connect timed out", "connect"),
    (NH + "java.net.SocketTimeoutException", NM + "Read timed out", "timeout"),
    (NH + "java.net.SocketException", NM + "Connection reset", "io"),
    (
        "Non HTTP response code: org.apache.http.NoHttpResponseException",
        "Non HTTP response message: 127.0.0.1:8080 failed to respond",
        "io",
    ),
    ("500", "Internal Server Error", "status"),
    ("503", "Service Unavailable", "status"),
    ("404", "Not Found", "status"),
]  # fmt: skip


def jmeter_rows(seed: int, start_ms: int, seconds: int, threads: int) -> list[dict[str, str]]:
    """A closed-model run: `threads` threads loop over two requests with a 250-750 ms think time; the first
    5 s are slow (a cold JVM), one second in the middle stalls (a GC pause) and errors are sprinkled."""
    rng = random.Random(seed)
    rows = []
    for t in range(threads):
        now = start_ms + t * 37
        i = 0
        while now < start_ms + seconds * 1000:
            label, path = ("GET /api/items", "/api/items") if i % 3 else ("POST /api/orders", "/api/orders")
            rows.append(_jmeter_row(rng, now, start_ms, label, path, t, threads))
            now += int(rows[-1]["elapsed"]) + rng.randint(250, 750)
            i += 1
    rows.sort(key=lambda r: int(r["timeStamp"]) + int(r["elapsed"]))  # JMeter writes samples as they end
    return rows


def _jmeter_row(rng: random.Random, now: int, start_ms: int, label: str, path: str, t: int, n: int) -> dict:
    into = (now - start_ms) / 1000
    elapsed = int(rng.lognormvariate(math.log(18), 0.45)) + (rng.randint(60, 180) if into < 5 else 0)
    if 11.0 <= into < 11.4:
        elapsed += int((11.4 - into) * 1000)  # a 400 ms stall: requests in flight wait it out
    row = {
        "timeStamp": str(now), "elapsed": str(elapsed), "label": label, "responseCode": "200",
        "responseMessage": "OK", "threadName": f"Users 1-{t + 1}", "dataType": "text", "success": "true",
        "failureMessage": "", "bytes": str(rng.randint(900, 2400)),
        "sentBytes": str(rng.randint(140, 420)), "grpThreads": str(n), "allThreads": str(n),
        "URL": f"http://127.0.0.1:8080{path}", "Latency": str(max(1, elapsed - rng.randint(0, 3))),
        "IdleTime": "0", "Connect": str(rng.randint(0, 2)),
    }  # fmt: skip
    r = rng.random()
    if r < 0.06:
        code, message, kind = rng.choice(JMETER_ERRORS)
        row.update(responseCode=code, responseMessage=message, success="false")
        if kind != "status":
            took = {
                "connect": rng.randint(1, 3000),
                "timeout": 5000 + rng.randint(0, 4),
                "io": rng.randint(2, 40),
            }
            row.update(elapsed=str(took[kind]), Latency="0", dataType="text", sentBytes="0", bytes="2843")
            row["Connect"] = row["elapsed"] if kind == "connect" else "1"
    elif r < 0.07:
        row.update(
            success="false", failureMessage='Test failed: text expected to contain /"id"/, got: {"items": []}'
        )
    return row


def write_jmeter(
    path: Path, rows: list[dict[str, str]], columns: list[str], *, header: bool, sep: str
) -> None:
    with path.open("w", newline="") as f:
        w = csv.writer(f, delimiter=sep, lineterminator="\n", quoting=csv.QUOTE_MINIMAL)
        if header:
            w.writerow(columns)
        for row in rows:
            w.writerow([row[c] for c in columns])


# --- wrk2 -----------------------------------------------------------------------------------------------


class Hdr:
    """The parts of HdrHistogram_c (lowest 1, 3 significant digits: 2048 sub-buckets) wrk2's output uses."""

    def __init__(self, values_us: Iterable[int]):
        self.counts: dict[int, int] = {}
        for v in values_us:
            low = self.lowest(v)
            self.counts[low] = self.counts.get(low, 0) + 1
        self.total = sum(self.counts.values())
        self.keys = sorted(self.counts)

    @staticmethod
    def _bucket(v: int) -> tuple[int, int]:
        bucket = max(0, (v | 2047).bit_length() - 11)
        return bucket, v >> bucket

    def lowest(self, v: int) -> int:
        bucket, sub = self._bucket(v)
        return sub << bucket

    def highest(self, v: int) -> int:
        bucket, sub = self._bucket(v)
        size = 1 << (bucket + (1 if sub >= 2048 else 0))
        return (sub << bucket) + size - 1

    def median(self, v: int) -> int:
        bucket, sub = self._bucket(v)
        size = 1 << (bucket + (1 if sub >= 2048 else 0))
        return (sub << bucket) + size // 2

    def value_at(self, p: float) -> int:
        wanted = max(1, int(p / 100 * self.total + 0.5))
        seen = 0
        for k in self.keys:
            seen += self.counts[k]
            if seen >= wanted:
                return self.highest(k)
        return self.highest(self.keys[-1])

    def mean(self) -> float:
        return sum(self.median(k) * c for k, c in self.counts.items()) / self.total

    def stdev(self) -> float:
        m = self.mean()
        return math.sqrt(sum(c * (self.median(k) - m) ** 2 for k, c in self.counts.items()) / self.total)

    def spectrum(self, ticks: int = 5) -> list[tuple[float, float, int]]:
        """hdr_percentiles_print's rows (value ms, percentile fraction, cumulative count), as its percentile
        iterator makes them: a row whenever the cumulative count reaches the next percentile level (several
        rows may share a bucket), the level stepping by 100 / (ticks * 2^(floor(log2(100 / (100 - p))) + 1)),
        and a last row at 100 % once every value is seen."""
        rows: list[tuple[int, float, int]] = []
        level, index, seen = 0.0, 0, self.counts[self.keys[0]]
        while seen < self.total or not rows or rows[-1][2] < self.total:
            if 100.0 * seen / self.total >= level:
                rows.append((self.highest(self.keys[index]), level, seen))
                level += 100.0 / (ticks * 2 ** (int(math.log(100 / (100.0 - level)) / math.log(2)) + 1))
                if seen == self.total:
                    break
            else:
                index += 1
                seen += self.counts[self.keys[index]]
        rows.append((self.highest(self.keys[-1]), 100.0, self.total))
        return [(v / 1000.0, p / 100.0, c) for v, p, c in rows]


def _units(n: float, scale: int, base: str, units: list[str], digits: int = 2) -> str:
    """wrk's format_units: divide while >= 0.85 x scale, never into the last unit of the list."""
    amt, unit = n, base
    for i in range(len(units) - 1):
        if amt < scale * 0.85:
            break
        amt /= scale
        unit = units[i]
    return f"{amt:.{digits}f}{unit}"


def time_us(n: float) -> str:
    """wrk's format_time_us."""
    if n >= 1_000_000:
        return _units(n / 1_000_000, 60, "s", ["m", "h"])
    return _units(n, 1000, "us", ["ms", "s"])


def time_s(n: float) -> str:
    return _units(n, 60, "s", ["m", "h"], digits=0)


def binary(n: float) -> str:
    return _units(n, 1024, "", ["K", "M", "G", "T", "P"])


def metric(n: float) -> str:
    return _units(n, 1000, "", ["k", "M", "G", "T", "P"])


def print_units(text: str, width: int) -> str:
    pad = 2 - sum(1 for ch in text[-2:] if ch.isalpha())
    return f"{text:>{width - pad}.{width - pad}}" + " " * pad


def hdr_section(h: Hdr, title: str) -> list[str]:
    out = [f"  Latency Distribution (HdrHistogram - {title})"]
    for p in (50.0, 75.0, 90.0, 99.0, 99.9, 99.99, 99.999, 100.0):
        out.append(f"{p:7.3f}%" + print_units(time_us(h.value_at(p)), 10))
    out += [
        "",
        "  Detailed Percentile spectrum:",
        f"{'Value':>12} {'Percentile':>12} {'TotalCount':>12} {'1/(1-Percentile)':>12}",
        "",
    ]
    for value, p, count in h.spectrum():
        inv = "inf" if p >= 1.0 else f"{1 / (1 - p):.2f}"
        out.append(f"{value:12.3f} {p:12f} {count:12d} {inv:>12}")
    out.append(f"#[Mean    = {h.mean() / 1000:12.3f}, StdDeviation   = {h.stdev() / 1000:12.3f}]")
    out.append(f"#[Max     = {h.highest(h.keys[-1]) / 1000:12.3f}, Total count    = {h.total:12d}]")
    out.append(f"#[Buckets = {27:12d}, SubBuckets     = {2048:12d}]")
    out.append("----------------------------------------------------------")
    return out  # fmt: skip


def wrk2_output(
    recorded: Hdr, *, url: str, seconds: int, threads: int, connections: int, requests: int, runtime_us: int,
    bytes_read: int, socket: tuple[int, int, int, int], non2xx: int, calibration_ms: list[float],
    uncorrected: Hdr | None = None,
) -> str:  # fmt: skip
    out = [f"Running {time_s(seconds)} test @ {url}"]
    out.append(f"  {threads} threads and {connections} connections")
    for mean in calibration_ms:
        interval = max(10, int(mean * 2))
        out.append(f"  Thread calibration: mean lat.: {mean:.3f}ms, rate sampling interval: {interval}ms")
    out.append(f"  Thread Stats{'Avg':>6}{'Stdev':>11}{'Max':>8}{'+/- Stdev':>12}")
    mean, sd, mx = recorded.mean(), recorded.stdev(), recorded.highest(recorded.keys[-1])
    within = (
        sum(c for k, c in recorded.counts.items() if abs(recorded.median(k) - mean) <= sd) / recorded.total
    )
    out.append(
        f"    {'Latency':<10}"
        + print_units(time_us(mean), 8)
        + print_units(time_us(sd), 10)
        + print_units(time_us(mx), 9)
        + f"{within * 100:8.2f}%"
    )
    rate = requests / (runtime_us / 1e6) / threads
    out.append(
        f"    {'Req/Sec':<10}"
        + print_units(metric(rate), 8)
        + print_units(metric(rate * 0.31), 10)
        + print_units(metric(rate * 1.9), 9)
        + f"{71.35:8.2f}%"
    )
    out += hdr_section(recorded, "Recorded Latency")
    if uncorrected is not None:
        out.append("")
        out += hdr_section(
            uncorrected, "Uncorrected Latency (measured without taking delayed starts into account)"
        )
    out.append(f"  {requests} requests in {time_us(runtime_us)}, {binary(bytes_read)}B read")
    if any(socket):
        out.append("  Socket errors: connect {}, read {}, write {}, timeout {}".format(*socket))
    if non2xx:
        out.append(f"  Non-2xx or 3xx responses: {non2xx}")
    out.append(f"Requests/sec: {requests / (runtime_us / 1e6):9.2f}")
    out.append(f"Transfer/sec: {binary(bytes_read / (runtime_us / 1e6)) + 'B':>10}")
    return "\n".join(out) + "\n"  # fmt: skip


def wrk2_healthy(seed: int) -> str:
    """-R2000 for 30 s: sub-ms latencies, one 1.8 s stall (recorded from the intended send times)."""
    rng = random.Random(seed)
    values = []
    for i in range(40_012):  # the 20 s after calibration at 2000/s
        t = i / 2000.0
        v = rng.lognormvariate(math.log(700), 0.35)
        if 12.0 <= t < 13.8:
            v += (13.8 - t) * 1_000_000  # the requests due during the stall wait for its end
        values.append(max(1, int(v)))
    return wrk2_output(
        Hdr(values), url="http://127.0.0.1:8080/api/items", seconds=30, threads=2, connections=100,
        requests=60_012, runtime_us=30_004_522, bytes_read=21_512_334, socket=(0, 12, 0, 37), non2xx=143,
        calibration_ms=[0.742, 0.731],
    )  # fmt: skip


def wrk2_overload(seed: int) -> str:
    """-R5000 for 2 min against a server that serves 3000/s: the queue and the latency grow all along."""
    rng = random.Random(seed)
    corrected, uncorrected = [], []
    for i in range(330_000):  # the completed requests after calibration
        t = 10 + i / 3000.0  # when it completed
        due = 10 + i / 5000.0  # when it should have been sent
        corrected.append(max(1, int((t - due) * 1_000_000 + rng.uniform(500, 3000))))
        uncorrected.append(max(1, int(rng.lognormvariate(math.log(30_000), 0.3))))
    return wrk2_output(
        Hdr(corrected), url="http://10.20.0.7:8080/api/orders", seconds=120, threads=4, connections=200,
        requests=360_118, runtime_us=120_013_007, bytes_read=151_033_212, socket=(0, 0, 0, 0), non2xx=0,
        calibration_ms=[31.208, 30.874, 31.519, 30.992], uncorrected=Hdr(uncorrected),
    )  # fmt: skip


def write_samples() -> None:
    default = jmeter_rows(seed=7, start_ms=1_732_200_000_123, seconds=20, threads=8)
    write_jmeter(HERE / "jmeter-default.jtl", default, JMETER_COLUMNS, header=True, sep=",")
    plain = jmeter_rows(seed=11, start_ms=1_732_203_600_456, seconds=15, threads=6)
    write_jmeter(HERE / "jmeter-noheader.jtl", plain, JMETER_COLUMNS, header=False, sep=",")
    subset = jmeter_rows(seed=13, start_ms=1_732_207_200_789, seconds=12, threads=5)
    columns = ["label", "responseCode", "success", "elapsed", "timeStamp", "threadName", "Latency", "bytes"]
    write_jmeter(HERE / "jmeter-subset.tsv", subset, columns, header=True, sep="\t")
    (HERE / "wrk2-latency.txt").write_text(wrk2_healthy(seed=3))
    (HERE / "wrk2-overload.txt").write_text(wrk2_overload(seed=5))


# --- benchmark --------------------------------------------------------------------------------------------


def bench(folder: Path, big: bool) -> None:
    """1,000,000 JMeter rows; 1,000,000 k6 lines (76,924 requests); with --big also 1,000,000 k6 requests
    (13,000,000 lines, 3.6 GB)."""
    sys.path.insert(0, str(HERE.parents[2] / "python"))
    from jvmlab.load.importers import read

    folder.mkdir(parents=True, exist_ok=True)
    files = [(folder / "bench-1M.jtl", "rows"), (folder / "bench-1M-points.json", "lines")]
    if not files[0][0].exists():
        _bench_jmeter(files[0][0], 1_000_000)
    if not files[1][0].exists():
        _bench_k6(files[1][0], 1_000_000)
    if big:
        files.append((folder / "bench-1M-requests.json", "lines"))
        if not files[2][0].exists():
            _bench_k6(files[2][0], 13_000_000)
    for path, unit in files:
        lines = sum(1 for _ in path.open("rb")) - (1 if path.suffix == ".jtl" else 0)
        t = time.perf_counter()
        result = read(path)
        took = time.perf_counter() - t
        size = path.stat().st_size / 1e6
        print(f"{path.name}: {lines:,} {unit}, {size:.0f} MB, {took:.2f} s: {lines / took:,.0f} {unit}/s, "
              f"{size / took:.0f} MB/s ({result.latency.count:,} responses)")  # fmt: skip


def _bench_jmeter(path: Path, n: int) -> None:
    rng = random.Random(1)
    with path.open("w", newline="") as f:
        f.write(",".join(JMETER_COLUMNS) + "\n")
        start = 1_732_200_000_000
        buf = io.StringIO()
        for i in range(n):
            row = _jmeter_row(rng, start + i // 2, start, "GET /api/items", "/api/items", i % 50, 50)
            buf.write(",".join(_csv_field(row[c]) for c in JMETER_COLUMNS) + "\n")
            if i % 50_000 == 49_999:
                f.write(buf.getvalue())
                buf = io.StringIO()
        f.write(buf.getvalue())


def _csv_field(s: str) -> str:
    return '"' + s.replace('"', '""') + '"' if ("," in s or '"' in s) else s


def _bench_k6(path: Path, points: int) -> None:
    """k6 --out json as k6 v1.8 writes it: per request http_reqs, http_req_duration, 6 timing trends and
    http_req_failed, per iteration iteration_duration, iterations, data_sent, data_received (13 points)."""
    rng = random.Random(2)
    base = datetime(2026, 11, 23, 17, 0, 0, tzinfo=UTC).timestamp()
    names = ["http_req_blocked", "http_req_connecting", "http_req_tls_handshaking", "http_req_sending",
             "http_req_waiting", "http_req_receiving"]  # fmt: skip
    with path.open("w") as f:
        for metric in ("http_reqs", "http_req_duration", *names, "http_req_failed", "iteration_duration"):
            data = {"name": metric, "type": "trend", "contains": "time", "thresholds": [], "submetrics": None}
            f.write(
                json.dumps({"type": "Metric", "data": data, "metric": metric}, separators=(",", ":")) + "\n"
            )
        written, i = 0, 0
        while written < points:
            t = base + i * 0.001
            stamp = datetime.fromtimestamp(t, UTC).strftime("%Y-%m-%dT%H:%M:%S.%f") + "123Z"
            status = "200" if rng.random() > 0.01 else "0"
            tags = {"expected_response": "true" if status == "200" else "false", "group": "", "method": "GET",
                    "name": "http://127.0.0.1:8080/api/items", "proto": "HTTP/1.1", "scenario": "default",
                    "status": status, "url": "http://127.0.0.1:8080/api/items"}  # fmt: skip
            if status == "0":
                tags.update(error="dial: connection refused", error_code="1212")
            duration = rng.lognormvariate(math.log(12), 0.4)
            lines = [("http_reqs", 1), ("http_req_duration", duration)] + [(n, rng.random()) for n in names]
            lines += [("http_req_failed", 0 if status == "200" else 1), ("iteration_duration", duration + 1)]
            for metric, value in lines:
                f.write(json.dumps({"metric": metric, "type": "Point", "data": {"time": stamp, "value": value,
                                    "tags": tags}}, separators=(",", ":")) + "\n")  # fmt: skip
            itags = {"group": "", "scenario": "default"}
            for metric, value in (("iterations", 1), ("data_sent", 96), ("data_received", 1210)):
                f.write(json.dumps({"metric": metric, "type": "Point", "data": {"time": stamp, "value": value,
                                    "tags": itags}}, separators=(",", ":")) + "\n")  # fmt: skip
            written += 13
            i += 1


if __name__ == "__main__":
    if sys.argv[1:2] == ["samples"]:
        write_samples()
    elif sys.argv[1:2] == ["bench"] and len(sys.argv) in (3, 4):
        bench(Path(sys.argv[2]), big=sys.argv[3:] == ["--big"])
    else:
        raise SystemExit(__doc__)
