"""Load driver benchmark: what `jvmlab load` costs and how precisely it keeps its schedule, beside oha
(--latency-correction) and k6 (constant-arrival-rate) when they are installed, against the same trivial local
server (jvmlab._native.LocalServer, in a process of its own, answering at once) in the same run.

    .venv/bin/python bench/load_driver.py                      # what `make bench` runs
    .venv/bin/python bench/load_driver.py --rates 1000 --duration 10 --repeat 5 --no-top --json

At each of `--rates` (users' rates: a few hundred to a few thousand requests per second), every tool runs
`--repeat` rounds, the tools interleaved within a round (the machine's drift hits them alike), each round a
run of `--duration` s and one of half that. jvmlab runs twice: as it runs by default (each request at its own
due time), and as `jvmlab-1ms` with `--tick 1ms` (the requests due within a millisecond leave together: the
bursts that oha and k6 send).

- p50, p99: latency of the long run as the tool reports it (jvmlab and oha from the due time, k6 from the
  actual send); medians of the rounds.
- send lag p99: how late jvmlab's requests left behind their due times (the other tools do not say).
- arrival gaps p10/p50: gaps between consecutive requests as the server saw them. An even schedule at rate R
  has both near 1/R; a tool that sends in bursts has a p10 near zero.
- CPU s: user + system CPU of the tool's whole process for the long run (start-up included: Python's
  imports for jvmlab, the JavaScript runtime for k6), and CPU s per 1000 requests beyond start-up (the long
  run minus the short one); medians of the rounds, and each tool's ratio to jvmlab.

Then the highest sustained rate: the rates of `--top-rates` in turn until a tool falls behind (responses
below 98% of the rate, any error, or k6's dropped iterations). With 2 CPUs, the server is pinned to CPU 0 and
the tool to CPU 1, so that neither steals the other's time.

oha is found on PATH or in ~/.cargo/bin (`cargo install oha`), k6 on PATH or in ~/go/bin
(`go install go.k6.io/k6@v1.8.1`); JVMLAB_BENCH_OHA / JVMLAB_BENCH_K6 name other binaries.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
JVMLAB = Path(sys.executable).with_name("jvmlab")
DEFAULT_JSON = ROOT / "build" / "bench" / "load-results.json"
SUSTAINED = 0.98
CONNECTIONS = 256

# argv of a tool for (url, rate, seconds, work folder); what it measured, from (stdout, work folder)
Argv = Callable[[str, int, float, Path], list[str]]
Reader = Callable[[str, Path], dict[str, Any]]


@dataclass(frozen=True)
class Measured:
    tool: str
    rate: int
    rep: int  # round; 0 for the highest-rate runs
    duration_s: float
    ok: bool
    error: str | None
    responses: int
    achieved_rps: float | None
    p50_ms: float | None
    p99_ms: float | None
    send_lag_p99_ms: float | None  # jvmlab only
    errors: int
    dropped: int  # requests the tool did not send on time (k6's dropped_iterations)
    cpu_s: float
    wall_s: float
    gap_p10_us: int | None  # arrival gaps at the server
    gap_p50_us: int | None

    @property
    def sustained(self) -> bool:
        return (
            self.ok
            and self.errors == 0
            and self.dropped == 0
            and self.achieved_rps is not None
            and self.achieved_rps >= SUSTAINED * self.rate
        )


@dataclass(frozen=True)
class Tool:
    name: str
    argv: Argv
    read: Reader


def pin(cpu: int | None) -> Callable[[], None] | None:
    return None if cpu is None else (lambda: os.sched_setaffinity(0, {cpu}))


class Server:
    """The trivial server in a process of its own: `gaps` asks it for the arrival gaps since the last ask;
    it ends when its stdin closes."""

    CODE = """
import json, sys
from jvmlab._native import LocalServer
s = LocalServer()
print(s.port, flush=True)
for line in sys.stdin:
    print(json.dumps(s.arrival_gaps(reset=True)), flush=True)
"""

    def __init__(self, cpu: int | None):
        self.proc = subprocess.Popen(
            [sys.executable, "-c", self.CODE],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
            preexec_fn=pin(cpu),
        )
        assert self.proc.stdout is not None
        self.port = int(self.proc.stdout.readline())

    def gaps(self) -> dict[str, Any]:
        """Arrival gaps since the last call (and forgets them)."""
        assert self.proc.stdin is not None and self.proc.stdout is not None
        self.proc.stdin.write("gaps\n")
        self.proc.stdin.flush()
        return json.loads(self.proc.stdout.readline())

    def close(self) -> None:
        assert self.proc.stdin is not None
        self.proc.stdin.close()
        self.proc.wait(timeout=10)


def run_tool(argv: list[str], cpu: int | None, timeout_s: float) -> tuple[int, float, float, str, str]:
    """(exit status, CPU seconds, wall seconds, stdout, stderr) of one child process."""
    started = time.monotonic()
    with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err:
        proc = subprocess.Popen(argv, stdout=out, stderr=err, preexec_fn=pin(cpu))
        try:
            _, status, usage = os.wait4(proc.pid, 0)
        except BaseException:
            proc.kill()
            proc.wait()
            raise
        proc.returncode = os.waitstatus_to_exitcode(status)
        wall = time.monotonic() - started
        if wall > timeout_s:
            raise RuntimeError(f"{argv[0]} ran {wall:.0f} s")
        out.seek(0)
        err.seek(0)
        stdout, stderr = out.read().decode(errors="replace"), err.read().decode(errors="replace")
    return proc.returncode, usage.ru_utime + usage.ru_stime, wall, stdout, stderr


# ---- the tools -------------------------------------------------------------------------------------------


def jvmlab_argv(tick: str) -> Argv:
    def argv(url: str, rate: int, seconds: float, _: Path) -> list[str]:
        options = ["--rate", str(rate), "--duration", f"{seconds:g}s", "--connections", str(CONNECTIONS)]
        return [str(JVMLAB), "load", url, *options, "--tick", tick, "--json"]

    return argv


def jvmlab_read(stdout: str, _: Path) -> dict[str, Any]:
    doc = json.loads(stdout)
    return {
        "responses": doc["completed"],
        "achieved_rps": doc["throughput_rps"],
        "p50_ms": doc["latency"]["p50_ms"],
        "p99_ms": doc["latency"]["p99_ms"],
        "send_lag_p99_ms": doc["driver"]["send_lag_p99_ms"],
        "errors": doc["error_count"],
        "dropped": 0,
    }


def oha_argv(binary: str) -> Argv:
    def argv(url: str, rate: int, seconds: float, _: Path) -> list[str]:
        options = ["-z", f"{seconds:g}s", "-q", str(rate), "--latency-correction", "-c", str(CONNECTIONS)]
        return [binary, url, *options, "--no-tui", "--output-format", "json"]

    return argv


def oha_read(stdout: str, _: Path) -> dict[str, Any]:
    doc = json.loads(stdout)
    codes = {int(k): n for k, n in (doc.get("statusCodeDistribution") or {}).items()}
    # oha counts the requests still in flight when its time is up as "aborted due to deadline": not errors
    failures = sum(n for k, n in (doc.get("errorDistribution") or {}).items() if "deadline" not in k)
    percentiles = doc.get("latencyPercentiles") or {}

    def ms(key: str) -> float | None:
        v = percentiles.get(key)
        return None if v is None else 1000 * v

    return {
        "responses": sum(codes.values()),
        "achieved_rps": doc["summary"].get("requestsPerSec"),
        "p50_ms": ms("p50"),
        "p99_ms": ms("p99"),
        "send_lag_p99_ms": None,
        "errors": sum(n for code, n in codes.items() if code >= 400) + failures,
        "dropped": 0,
    }


K6_SCRIPT = """
import http from "k6/http";
export const options = {
  discardResponseBodies: true,
  summaryTrendStats: ["avg", "p(50)", "p(99)", "max"],
  scenarios: { load: { executor: "constant-arrival-rate", rate: __RATE__, timeUnit: "1s",
    duration: "__SECONDS__s", preAllocatedVUs: __VUS__, maxVUs: __VUS__ } },
};
export default function () { http.get("__URL__"); }
"""


def k6_argv(binary: str) -> Argv:
    def argv(url: str, rate: int, seconds: float, work: Path) -> list[str]:
        script = work / "script.js"
        text = K6_SCRIPT.replace("__RATE__", str(rate)).replace("__SECONDS__", f"{seconds:g}")
        script.write_text(text.replace("__VUS__", str(CONNECTIONS)).replace("__URL__", url))
        summary = ["--summary-export", str(work / "summary.json")]
        return [binary, "run", "--quiet", "--no-usage-report", *summary, str(script)]

    return argv


def k6_read(_: str, work: Path) -> dict[str, Any]:
    metrics = json.loads((work / "summary.json").read_text())["metrics"]
    failed = int(metrics.get("http_req_failed", {}).get("passes", 0))
    requests = metrics.get("http_reqs", {})
    duration = metrics.get("http_req_duration", {})
    return {
        "responses": int(requests.get("count", 0)),
        "achieved_rps": requests.get("rate"),
        "p50_ms": duration.get("p(50)"),
        "p99_ms": duration.get("p(99)"),
        "send_lag_p99_ms": None,
        "errors": failed,
        "dropped": int(metrics.get("dropped_iterations", {}).get("count", 0)),
    }


def find(name: str, env: str, usual: Path) -> str | None:
    return os.environ.get(env) or shutil.which(name) or (str(usual) if usual.exists() else None)


def tools() -> tuple[list[Tool], list[str]]:
    # jvmlab as it runs by default (each request at its own due time), and with 1 ms ticks (the requests due
    # within a millisecond together: the bursts oha and k6 send)
    found = [
        Tool("jvmlab", jvmlab_argv("200us"), jvmlab_read),
        Tool("jvmlab-1ms", jvmlab_argv("1ms"), jvmlab_read),
    ]
    missing = []
    oha = find("oha", "JVMLAB_BENCH_OHA", Path.home() / ".cargo" / "bin" / "oha")
    k6 = find("k6", "JVMLAB_BENCH_K6", Path.home() / "go" / "bin" / "k6")
    if oha:
        found.append(Tool("oha", oha_argv(oha), oha_read))
    else:
        missing.append("oha (cargo install oha)")
    if k6:
        found.append(Tool("k6", k6_argv(k6), k6_read))
    else:
        missing.append("k6 (go install go.k6.io/k6@v1.8.1)")
    return found, missing


# ---- measuring ------------------------------------------------------------------------------------------


def measure(tool: Tool, server: Server, rate: int, seconds: float, rep: int, cpu: int | None) -> Measured:
    url = f"http://127.0.0.1:{server.port}/"
    server.gaps()  # forget the arrivals before this run
    with tempfile.TemporaryDirectory() as work:
        try:
            argv = tool.argv(url, rate, seconds, Path(work))
            code, cpu_s, wall, out, err = run_tool(argv, cpu, seconds + 120)
            if code != 0:
                raise RuntimeError(f"exit {code}: {err.strip()[-300:]}")
            got = tool.read(out, Path(work))
        except (RuntimeError, OSError, ValueError, KeyError) as e:
            return Measured(
                tool.name,
                rate,
                rep,
                seconds,
                False,
                str(e),
                0,
                None,
                None,
                None,
                None,
                0,
                0,
                0.0,
                0.0,
                None,
                None,
            )
    gaps = server.gaps()
    return Measured(
        tool.name, rate, rep, seconds, True, None, cpu_s=cpu_s, wall_s=wall,
        gap_p10_us=gaps["p10_us"], gap_p50_us=gaps["p50_us"], **got,
    )  # fmt: skip


def median(values: Sequence[float | None]) -> float | None:
    present = [v for v in values if v is not None]
    return statistics.median(present) if present else None


def marginal(runs: list[Measured], tool: str, rate: int) -> list[float | None]:
    """Per round: CPU seconds per 1000 responses of the long run beyond the short one."""
    out: list[float | None] = []
    mine = [r for r in runs if r.tool == tool and r.rate == rate and r.rep > 0 and r.ok]
    for rep in sorted({r.rep for r in mine}):
        pair = sorted((r for r in mine if r.rep == rep), key=lambda r: r.duration_s)
        if len(pair) == 2 and pair[1].responses > pair[0].responses:
            short, long = pair
            out.append(1000 * (long.cpu_s - short.cpu_s) / (long.responses - short.responses))
    return out


def describe(m: Measured) -> str:
    load = f", load avg {os.getloadavg()[0]:.2f}"
    if not m.ok:
        return f"failed ({m.error}){load}"

    def ms(v: float | None) -> str:
        return "-" if v is None else f"{v:.3f} ms"

    lag = "" if m.send_lag_p99_ms is None else f", send lag p99 {ms(m.send_lag_p99_ms)}"
    return (
        f"{m.achieved_rps or 0:,.0f}/s, p50 {ms(m.p50_ms)}, p99 {ms(m.p99_ms)}{lag}, gaps p10/p50 "
        f"{m.gap_p10_us}/{m.gap_p50_us} us, errors {m.errors}, dropped {m.dropped}, cpu {m.cpu_s:.3f} s{load}"
    )


def rounds(found: list[Tool], server: Server, a: argparse.Namespace, cpu: int | None) -> list[Measured]:
    rates = [int(r) for r in a.rates.split(",") if r.strip()]
    short, long = a.duration / 2, a.duration
    listed = ", ".join(f"{r:,}" for r in rates)
    print(f"at {listed} requests/s: runs of {short:g} s and {long:g} s, {a.repeat} rounds")
    runs = []
    for rep in range(1, a.repeat + 1):
        for rate in rates:
            order = found[rep % len(found) :] + found[: rep % len(found)]  # who goes first rotates
            for tool in order:
                for seconds in (short, long):
                    m = measure(tool, server, rate, seconds, rep, cpu)
                    runs.append(m)
                    print(f"  round {rep}: {rate:,}/s {tool.name} {seconds:g} s: {describe(m)}", flush=True)
    return runs


def highest_rates(
    found: list[Tool], server: Server, rates: list[int], seconds: float, cpu: int | None
) -> tuple[list[Measured], dict[str, int | None]]:
    """Every rate in turn, each tool that still keeps up at it right after the other, until none does."""
    print("highest sustained rate (tools interleaved at each rate):")
    runs: list[Measured] = []
    best: dict[str, int | None] = {t.name: None for t in found}
    going = list(found)
    for rate in rates:
        for tool in list(going):
            m = measure(tool, server, rate, seconds, 0, cpu)
            runs.append(m)
            print(f"  {rate:>7,}/s {tool.name}: {describe(m)}", flush=True)
            if m.sustained:
                best[tool.name] = rate
            else:
                going.remove(tool)
        if not going:
            break
    return runs, best


def report(
    runs: list[Measured], found: list[Tool], best: dict[str, int | None], a: argparse.Namespace
) -> None:
    rates = [int(r) for r in a.rates.split(",") if r.strip()]

    def num(v: float | None, fmt: str) -> str:
        return "-" if v is None else format(v, fmt)

    head = (
        f"{'rate/s':>7} {'tool':10} {'achieved/s':>10} {'p50 ms':>7} {'p99 ms':>7} {'lag p99':>7} "
        f"{'gaps p10/p50 us':>15} {'errors':>6} {'CPU s':>6} {'/jvmlab':>7} {'CPU s/1000':>10} {'/jvmlab':>7}"
    )
    print(f"\n{head}\n{'-' * len(head)}")
    for rate in rates:
        base_whole = base_marginal = None
        for tool in found:
            long = [r for r in runs if r.tool == tool.name and r.rate == rate and r.rep > 0 and r.ok]
            long = [r for r in long if r.duration_s == a.duration]
            whole = median([r.cpu_s for r in long])
            per = median(marginal(runs, tool.name, rate))
            if tool.name == "jvmlab":
                base_whole, base_marginal = whole, per

            def mid(field: str, fmt: str, of: list[Measured] = long) -> str:
                return num(median([getattr(r, field) for r in of]), fmt)

            def ratio(v: float | None, base: float | None) -> str:
                return "-" if v is None or not base else f"{v / base:.2f}x"

            gaps = f"{mid('gap_p10_us', '.0f')}/{mid('gap_p50_us', '.0f')}"
            print(
                f"{rate:>7,} {tool.name:10} {mid('achieved_rps', ',.1f'):>10} {mid('p50_ms', '.3f'):>7} "
                f"{mid('p99_ms', '.3f'):>7} {mid('send_lag_p99_ms', '.3f'):>7} {gaps:>15} "
                f"{sum(r.errors + r.dropped for r in long):>6} {num(whole, '.3f'):>6} "
                f"{ratio(whole, base_whole):>7} {num(per, '.4f'):>10} {ratio(per, base_marginal):>7}"
            )
    long_s, short_s = f"{a.duration:g}", f"{a.duration / 2:g}"
    print(
        f"\nMedians of {a.repeat} rounds. CPU s: user + system CPU of the tool's whole process for the "
        f"{long_s} s run (start-up included). CPU s/1000: per 1000 responses, the {long_s} s run beyond the "
        f"{short_s} s one (start-up cancels out). lag p99: how late requests left behind their due times "
        "(jvmlab only). gaps: between consecutive arrivals at the server (an even schedule at rate R has "
        "both near 1/R; bursts show as a p10 near 0). p50/p99: as each tool reports them (jvmlab, oha from "
        "the due time, k6 from the actual send)."
    )
    if best:
        print(
            "highest sustained rate: "
            + ", ".join(f"{t} {'-' if r is None else f'{r:,}/s'}" for t, r in best.items())
        )


def main(argv: Sequence[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument(
        "--rates", default="200,1000,5000", help="rates of the cost and precision runs (requests/s)"
    )
    p.add_argument(
        "--duration", type=float, default=10, help="seconds of the long run (the short one is half)"
    )
    p.add_argument("--repeat", type=int, default=3, help="rounds per tool and rate; the table shows medians")
    p.add_argument("--top-rates", default="10000,20000,40000,80000", help="rates tried for the highest one")
    p.add_argument("--no-top", action="store_true", help="skip the highest sustained rate")
    p.add_argument("--json", nargs="?", const=DEFAULT_JSON, type=Path, default=None, metavar="PATH")
    a = p.parse_args(argv)
    found, missing = tools()
    pinned = len(os.sched_getaffinity(0)) >= 2
    server_cpu, tool_cpu = (0, 1) if pinned else (None, None)
    load = os.getloadavg()[0]
    if load > 0.5:
        print(f"warning: load average {load:.2f} at the start: other work skews latency and CPU")
    server = Server(server_cpu)
    best: dict[str, int | None] = {}
    try:
        runs = rounds(found, server, a, tool_cpu)
        if not a.no_top:
            top = [int(r) for r in a.top_rates.split(",") if r.strip()]
            top_runs, best = highest_rates(found, server, top, a.duration / 2, tool_cpu)
            runs += top_runs
    finally:
        server.close()
    report(runs, found, best, a)
    if pinned:
        print("The server ran on CPU 0, each tool on CPU 1.")
    else:
        print("warning: fewer than 2 CPUs: server and tool shared a CPU")
    for m in missing:
        print(f"not installed, so not compared: {m}")
    if a.json is not None:
        a.json.parent.mkdir(parents=True, exist_ok=True)
        doc = {"format_version": 2, "options": vars(a) | {"json": str(a.json)}, "sustained": best}
        doc |= {"missing": missing, "runs": [asdict(r) for r in runs]}
        a.json.write_text(json.dumps(doc, indent=2))
        print(f"results: {a.json}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
