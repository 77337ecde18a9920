"""Load driver benchmark: what jvmlab's open-model driver costs and how far it goes on this machine, beside
oha (--latency-correction) and k6 (constant-arrival-rate) when they are installed, against the same trivial
local server (jvmlab._native.LocalServer, in a process of its own) in the same run.

    .venv/bin/python bench/load_driver.py                      # what `make bench` runs
    .venv/bin/python bench/load_driver.py --cost-rate 2000 --duration 10 --repeat 3 --json

Cost: every tool at one rate, `--repeat` rounds, each round a run of `--duration` and one twice as long:
CPU seconds (user + system of the tool's process) per 1000 responses from the difference of the two, so
that start-up (Python's imports for jvmlab, the JS runtime for k6) cancels out; medians. Highest sustained
rate: the rates of `--rates` in turn until a tool falls behind (responses below 98% of the rate, any error,
or for k6 dropped iterations). With 2 CPUs, the server is pinned to CPU 0 and the tool to CPU 1, so that
neither steals the other's time.

oha is found on PATH or in ~/.cargo/bin (`cargo install oha`), k6 on PATH or in ~/go/bin
(`go install go.k6.io/k6@latest`); JVMLAB_BENCH_OHA / JVMLAB_BENCH_K6 name other binaries.
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
Argv = Callable[[str, int, int, Path], list[str]]
Reader = Callable[[str, Path], dict[str, Any]]


@dataclass(frozen=True)
class Measured:
    tool: str
    rate: int
    rep: int  # round of the cost runs; 0 for the highest-rate runs
    duration_s: int
    ok: bool
    error: str | None
    responses: int
    achieved_rps: float | None
    p99_ms: float | None
    errors: int
    dropped: int  # requests the tool did not send on time (k6's dropped_iterations)
    cpu_s: float
    wall_s: float

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
    """The trivial server in a process of its own, ended when its stdin closes."""

    CODE = (
        "import sys; from jvmlab._native import LocalServer; s = LocalServer(); "
        "print(s.port, flush=True); sys.stdin.read()"
    )

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


def jvmlab_argv(url: str, rate: int, seconds: int, _: Path) -> list[str]:
    options = ["--rate", str(rate), "--duration", f"{seconds}s", "--connections", str(CONNECTIONS)]
    return [str(JVMLAB), "load", url, *options, "--json"]


def jvmlab_read(stdout: str, _: Path) -> dict[str, Any]:
    doc = json.loads(stdout)
    return {
        "responses": doc["completed"],
        "achieved_rps": doc["throughput_rps"],
        "p99_ms": doc["latency"]["p99_ms"],
        "errors": doc["error_count"],
        "dropped": 0,
    }


def oha_argv(binary: str) -> Argv:
    def argv(url: str, rate: int, seconds: int, _: Path) -> list[str]:
        options = ["-z", f"{seconds}s", "-q", str(rate), "--latency-correction", "-c", str(CONNECTIONS)]
        return [binary, url, *options, "--no-tui", "--output-format", "json"]

    return argv


def oha_read(stdout: str, _: Path) -> dict[str, Any]:
    doc = json.loads(stdout)
    codes = {int(k): n for k, n in (doc.get("statusCodeDistribution") or {}).items()}
    failures = sum((doc.get("errorDistribution") or {}).values())
    p99 = (doc.get("latencyPercentiles") or {}).get("p99")
    return {
        "responses": sum(codes.values()),
        "achieved_rps": doc["summary"].get("requestsPerSec"),
        "p99_ms": None if p99 is None else 1000 * p99,
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
    def argv(url: str, rate: int, seconds: int, work: Path) -> list[str]:
        script = work / "script.js"
        text = K6_SCRIPT.replace("__RATE__", str(rate)).replace("__SECONDS__", str(seconds))
        script.write_text(text.replace("__VUS__", str(CONNECTIONS)).replace("__URL__", url))
        summary = ["--summary-export", str(work / "summary.json")]
        return [binary, "run", "--quiet", "--no-usage-report", *summary, str(script)]

    return argv


def k6_read(_: str, work: Path) -> dict[str, Any]:
    metrics = json.loads((work / "summary.json").read_text())["metrics"]
    failed = int(metrics.get("http_req_failed", {}).get("passes", 0))
    requests = metrics.get("http_reqs", {})
    return {
        "responses": int(requests.get("count", 0)),
        "achieved_rps": requests.get("rate"),
        "p99_ms": metrics.get("http_req_duration", {}).get("p(99)"),
        "errors": failed,
        "dropped": int(metrics.get("dropped_iterations", {}).get("count", 0)),
    }


def find(name: str, env: str, usual: Path) -> str | None:
    return os.environ.get(env) or shutil.which(name) or (str(usual) if usual.exists() else None)


def tools() -> tuple[list[Tool], list[str]]:
    found = [Tool("jvmlab", jvmlab_argv, jvmlab_read)]
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
        missing.append("k6 (go install go.k6.io/k6@latest)")
    return found, missing


# ---- measuring ------------------------------------------------------------------------------------------


def measure(tool: Tool, url: str, rate: int, seconds: int, rep: int, cpu: int | None) -> Measured:
    with tempfile.TemporaryDirectory() as work:
        try:
            argv = tool.argv(url, rate, seconds, Path(work))
            code, cpu_s, wall, out, err = run_tool(argv, cpu, seconds + 120)
            if code != 0:
                raise RuntimeError(f"exit {code}: {err.strip()[-300:]}")
            got = tool.read(out, Path(work))
        except (RuntimeError, OSError, ValueError, KeyError) as e:
            return Measured(tool.name, rate, rep, seconds, False, str(e), 0, None, None, 0, 0, 0.0, 0.0)
    return Measured(tool.name, rate, rep, seconds, True, None, cpu_s=cpu_s, wall_s=wall, **got)


def median(values: Sequence[float | None]) -> float | None:
    present = [v for v in values if v is not None]
    return statistics.median(present) if present else None


def marginal(runs: list[Measured], tool: str) -> list[float | None]:
    """Per round: CPU seconds per 1000 responses of the long run beyond the short one."""
    out: list[float | None] = []
    for rep in sorted({r.rep for r in runs if r.tool == tool and r.rep > 0}):
        pair = sorted(
            (r for r in runs if r.tool == tool and r.rep == rep and r.ok), key=lambda r: r.duration_s
        )
        if len(pair) == 2 and pair[1].responses > pair[0].responses:
            short, long = pair
            out.append(1000 * (long.cpu_s - short.cpu_s) / (long.responses - short.responses))
    return out


def describe(m: Measured) -> str:
    load = f", load avg {os.getloadavg()[0]:.2f}"
    if not m.ok:
        return f"failed ({m.error}){load}"
    p99 = "-" if m.p99_ms is None else f"{m.p99_ms:.2f} ms"
    return (
        f"{m.achieved_rps or 0:,.0f}/s achieved, p99 {p99}, errors {m.errors}, dropped {m.dropped}, "
        f"cpu {m.cpu_s:.2f} s{load}"
    )


def cost_rounds(found: list[Tool], url: str, a: argparse.Namespace, cpu: int | None) -> list[Measured]:
    names = ", ".join(t.name for t in found)
    lengths = f"{a.duration} s and {2 * a.duration} s"
    print(f"cost: {a.cost_rate} requests/s for {lengths}, {a.repeat} rounds: {names}")
    runs = []
    for rep in range(1, a.repeat + 1):
        for tool in found:
            for seconds in (a.duration, 2 * a.duration):
                m = measure(tool, url, a.cost_rate, seconds, rep, cpu)
                runs.append(m)
                print(f"  round {rep}: {tool.name} {seconds} s: {describe(m)}", flush=True)
    return runs


def highest_rates(
    found: list[Tool], url: str, rates: list[int], seconds: int, cpu: int | None
) -> tuple[list[Measured], dict[str, int | None]]:
    """Every rate in turn, each tool that still keeps up at it right after the other (so that the machine's
    drift hits them alike), until none does."""
    print("highest sustained rate (tools interleaved at each rate):")
    runs: list[Measured] = []
    best: dict[str, int | None] = {t.name: None for t in found}
    going = list(found)
    for rate in rates:
        for tool in list(going):
            m = measure(tool, url, rate, seconds, 0, cpu)
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
    runs: list[Measured], found: list[Tool], best: dict[str, int | None], a: argparse.Namespace, pinned: bool
) -> None:
    header = f"{'tool':8} {'rate/s':>7} {'rounds':>6} {'achieved/s':>11} {'p99 ms':>8} {'errors':>6}"
    print(f"\n{header} {'cpu s/1000':>11} {'/jvmlab':>8} {'max sustained/s':>16}")
    print("-" * 82)
    base = median(marginal(runs, "jvmlab"))
    for tool in found:
        long = [r for r in runs if r.tool == tool.name and r.rep > 0 and r.ok and r.duration_s > a.duration]
        per = median(marginal(runs, tool.name))
        ratio = "-" if per is None or not base else f"{per / base:.2f}x"
        p99 = median([r.p99_ms for r in long])
        top = best.get(tool.name)
        achieved = median([r.achieved_rps for r in long]) or 0
        print(
            f"{tool.name:8} {a.cost_rate:>7,} {len(long):>6} {achieved:>11,.1f} "
            f"{'-' if p99 is None else f'{p99:.2f}':>8} {sum(r.errors for r in long):>6} "
            f"{'-' if per is None else f'{per:.4f}':>11} {ratio:>8} {'-' if top is None else f'{top:,}':>16}"
        )
    long_s, short_s = 2 * a.duration, a.duration
    print(
        f"\ncpu s/1000: user + system CPU s of the tool's process per 1000 responses, the {long_s} s run "
        f"beyond the {short_s} s one (start-up cancels out), median of the rounds; the other columns are the "
        f"{long_s} s runs. max sustained: the highest of --rates with responses >= {SUSTAINED:.0%} of the "
        "rate, no error and nothing dropped."
    )
    if pinned:
        print("The server ran on CPU 0, each tool on CPU 1.")
    else:
        print("warning: fewer than 2 CPUs: server and tool shared a CPU, so the highest rate is the pair's")


def main(argv: Sequence[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--cost-rate", type=int, default=2000, help="rate of the cost runs (requests/s)")
    p.add_argument("--rates", default="1000,2000,5000,10000,20000,40000,80000", help="rates tried, in order")
    p.add_argument("--duration", type=int, default=5, help="seconds of the short cost run and of rate runs")
    p.add_argument("--repeat", type=int, default=3, help="cost rounds per tool; the table shows medians")
    p.add_argument("--json", nargs="?", const=DEFAULT_JSON, type=Path, default=None, metavar="PATH")
    a = p.parse_args(argv)
    rates = [int(r) for r in a.rates.split(",") if r.strip()]
    found, missing = tools()
    pinned = len(os.sched_getaffinity(0)) >= 2
    server_cpu, tool_cpu = (0, 1) if pinned else (None, None)
    load = os.getloadavg()[0]
    if load > 0.5:
        print(f"warning: load average {load:.2f} at the start: other work skews latency and the highest rate")
    server = Server(server_cpu)
    url = f"http://127.0.0.1:{server.port}/"
    try:
        runs = cost_rounds(found, url, a, tool_cpu)
        rate_runs, best = highest_rates(found, url, rates, a.duration, tool_cpu)
    finally:
        server.close()
    runs += rate_runs
    report(runs, found, best, a, pinned)
    for m in missing:
        print(f"not installed, so not compared: {m}")
    if a.json is not None:
        a.json.parent.mkdir(parents=True, exist_ok=True)
        doc = {"format_version": 1, "options": vars(a) | {"json": str(a.json)}, "sustained": best}
        doc |= {"missing": missing, "runs": [asdict(r) for r in runs]}
        a.json.write_text(json.dumps(doc, indent=2))
        print(f"results: {a.json}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
