"""wrk2's text output (`wrk -t2 -c100 -d30s -R2000 --latency URL > out.txt`) -> LoadResult.

wrk2 prints whole-run figures only (no per-request data): the request count and duration, socket errors,
the count of responses with a status >= 400, and with --latency (-L) its HdrHistogram of latencies measured
from each request's intended send time (open model: no coordinated omission): percentile lines in
us/ms/s/m, the "Detailed Percentile spectrum" table (values in ms) and its Mean/Max/Total count footer.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from jvmlab.errors import InputError
from jvmlab.load.result import Latency

UNIT_MS = {"us": 0.001, "ms": 1.0, "s": 1000.0, "m": 60_000.0, "h": 3_600_000.0}
_TIME = r"([\d.]+)(us|ms|s|m|h)"

RUNNING = re.compile(r"^Running (\S+) test @ (\S+)")
CALIBRATION = re.compile(r"^\s*Thread calibration:")
THREAD_LATENCY = re.compile(rf"^\s*Latency\s+{_TIME}\s+{_TIME}\s+{_TIME}\s+[\d.]+%")
SECTION = re.compile(r"^\s*Latency Distribution \(HdrHistogram - (.*)\)")
WRK_SECTION = re.compile(r"^\s*Latency Distribution\s*$")
PERCENTILE = re.compile(rf"^\s*(\d+\.\d+)%\s+{_TIME}\s*$")
SPECTRUM_ROW = re.compile(r"^\s*([\d.]+)\s+([\d.]+)\s+(\d+)\s+([\d.]+|inf)\s*$")
MEAN = re.compile(r"#\[Mean\s*=\s*([\d.]+),\s*StdDeviation\s*=\s*([\d.]+)\]")
MAX = re.compile(r"#\[Max\s*=\s*([\d.]+),\s*Total count\s*=\s*(\d+)\]")
REQUESTS = re.compile(rf"^\s*(\d+) requests in {_TIME}, ([\d.]+)([KMGTP]?)B read")
SOCKET = re.compile(r"Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)")
NON_2XX = re.compile(r"Non-2xx or 3xx responses: (\d+)")
RPS = re.compile(r"^\s*Requests/sec:\s+([\d.]+)")


def to_ms(value: str, unit: str) -> float:
    return float(value) * UNIT_MS[unit]


@dataclass
class Histogram:
    """One "Latency Distribution (HdrHistogram - ...)" section."""

    percentiles: dict[float, float] = field(default_factory=dict)  # percentile -> ms
    spectrum: list[tuple[float, float, int]] = field(default_factory=list)  # (percentile, ms, total count)
    mean_ms: float | None = None
    max_ms: float | None = None
    total_count: int | None = None


@dataclass
class Wrk2Output:
    duration_s: float
    requests: int
    errors: dict[str, int]
    rps: float | None
    url: str | None
    recorded: Histogram | None
    uncorrected: bool
    calibrated: bool
    thread_latency: tuple[float, float] | None  # mean, max ms from "Thread Stats ... Latency"


@dataclass
class _State:
    sections: dict[str, Histogram] = field(default_factory=dict)
    current: Histogram | None = None
    requests: tuple[int, float] | None = None
    errors: dict[str, int] = field(default_factory=dict)
    rps: float | None = None
    url: str | None = None
    calibrated: bool = False
    thread_latency: tuple[float, float] | None = None


def parse(path: str, text: str) -> Wrk2Output:
    state = _State()
    for line in text.splitlines():
        _line(line, state, path)
    if state.requests is None:
        raise InputError(path, "not wrk2 output (or cut short): no 'N requests in T, X read' line")
    requests, duration_s = state.requests
    recorded = state.sections.get("Recorded Latency")
    return Wrk2Output(
        duration_s=duration_s,
        requests=requests,
        errors={k: v for k, v in state.errors.items() if v},
        rps=state.rps,
        url=state.url,
        recorded=recorded,
        uncorrected=any(name != "Recorded Latency" for name in state.sections),
        calibrated=state.calibrated,
        thread_latency=state.thread_latency,
    )


def _line(line: str, s: _State, path: str) -> None:
    if m := SECTION.match(line):
        s.current = s.sections.setdefault(m.group(1).split(" (")[0].strip(), Histogram())
    elif WRK_SECTION.match(line):
        raise InputError(path, "wrk (not wrk2) output: its latency is not HdrHistogram-recorded; use wrk2 -R")
    elif m := PERCENTILE.match(line):
        if s.current is not None:
            s.current.percentiles[float(m.group(1))] = to_ms(m.group(2), m.group(3))
    elif m := SPECTRUM_ROW.match(line):
        if s.current is not None:
            s.current.spectrum.append((float(m.group(2)), float(m.group(1)), int(m.group(3))))
    elif m := MEAN.search(line):
        if s.current is not None:
            s.current.mean_ms = float(m.group(1))
    elif m := MAX.search(line):
        if s.current is not None:
            s.current.max_ms, s.current.total_count = float(m.group(1)), int(m.group(2))
    else:
        _summary_line(line, s)


def _summary_line(line: str, s: _State) -> None:
    if m := REQUESTS.match(line):
        s.requests = (int(m.group(1)), to_ms(m.group(2), m.group(3)) / 1000.0)
        s.current = None
    elif m := SOCKET.search(line):
        connect, read, write, timeout = (int(g) for g in m.groups())
        s.errors.update(connect=connect, timeout=timeout, io=read + write)
    elif m := NON_2XX.search(line):
        s.errors["status_xxx"] = int(m.group(1))
    elif m := RPS.match(line):
        s.rps = float(m.group(1))
    elif m := RUNNING.match(line):
        s.url = m.group(2)
    elif CALIBRATION.match(line):
        s.calibrated = True
    elif m := THREAD_LATENCY.match(line):
        s.thread_latency = (to_ms(m.group(1), m.group(2)), to_ms(m.group(5), m.group(6)))


def latency(out: Wrk2Output) -> tuple[Latency, list[tuple[float, float]]]:
    """Each percentile from the spectrum row at exactly that percentile (3 decimals of ms) when there is
    one, else from the percentile lines (2 decimals in their unit)."""
    h = out.recorded
    if h is None:
        mean, max_ms = out.thread_latency if out.thread_latency else (None, None)
        return Latency(count=out.requests, mean_ms=mean, max_ms=max_ms), []
    exact = {round(p * 100.0, 4): ms for p, ms, _ in h.spectrum}

    def at(p: float) -> float | None:
        return exact.get(p, h.percentiles.get(p))

    lat = Latency(
        count=h.total_count if h.total_count is not None else out.requests,
        mean_ms=h.mean_ms,
        min_ms=h.spectrum[0][1] if h.spectrum else None,
        p50_ms=at(50.0),
        p90_ms=at(90.0),
        p95_ms=at(95.0),
        p99_ms=at(99.0),
        p999_ms=at(99.9),
        max_ms=h.max_ms if h.max_ms is not None else at(100.0),
    )
    dist = [(round(p * 100.0, 4), ms) for p, ms, _ in h.spectrum] or sorted(h.percentiles.items())
    return lat, dist


def notes(out: Wrk2Output, *, corrected: bool, target_rps: float | None) -> list[str]:
    n = []
    if corrected:
        n.append("wrk2 measures latency from each request's intended send time at the -R rate (open model)")
    else:
        n.append("the caller says this run's latency is not corrected for coordinated omission")
    if target_rps is None:
        n.append("wrk2 does not print its -R rate: target_rps unknown (pass target_rps)")
    n.append("no per-second series: wrk2 prints whole-run figures only")
    n.append("sent = responses: wrk2 does not count the requests it sent")
    h = out.recorded
    if h is None:
        n.append("no --latency output: no percentiles; mean and max are the Thread Stats line's")
    else:
        n.append(
            "percentiles are wrk2's HdrHistogram values (3 significant digits, the bucket's highest "
            "equivalent value), not exact nearest-rank"
        )
        if out.calibrated and h.total_count is not None and h.total_count < out.requests:
            n.append(
                f"wrk2 resets its latency histogram after its calibration (about 10 s): latency covers "
                f"{h.total_count} of the {out.requests} responses; counts and throughput cover the whole run"
            )
        missing = [p for p in (50.0, 90.0, 95.0, 99.0, 99.9) if p not in h.percentiles and p not in _rows(h)]
        if missing:
            n.append(f"percentiles not in the output: {', '.join(f'p{p:g}' for p in missing)}")
    if out.uncorrected:
        n.append("the -U uncorrected latency section is not used")
    if "status_xxx" in out.errors:
        n.append("wrk2 counts responses with a status >= 400 without their codes: errors['status_xxx']")
    if out.errors.get("timeout"):
        n.append(
            "wrk2 counts a timeout each time its periodic check finds a request older than --timeout: "
            "one stuck request can be counted more than once"
        )
    if out.rps is not None and out.duration_s > 0:
        mine = out.requests / out.duration_s
        if abs(mine - out.rps) > 0.01 * out.rps + 0.01:
            n.append(f"Requests/sec printed {out.rps:g}, requests / duration gives {mine:.2f}")
    return n


def _rows(h: Histogram) -> set[float]:
    return {round(p * 100.0, 4) for p, _, _ in h.spectrum}


def looks_like(head: str) -> bool:
    return bool(
        re.search(r"^Running \S+ test @ ", head, re.M)
        or "Latency Distribution (HdrHistogram" in head
        or (re.search(r"^\s*\d+ requests in ", head, re.M) and "Requests/sec:" in head)
    )
