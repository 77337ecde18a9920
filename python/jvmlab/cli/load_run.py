"""What `jvmlab load` does once its options are typed: build the plan, run it with a live line per second
(in a container of its own when limits are given), or read another tool's results, and print the result."""

from __future__ import annotations

import json as jsonlib
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from jvmlab.cli.output import print_renderables, print_text, stdout_console
from jvmlab.container import Limits, Usage
from jvmlab.durations import parse_duration
from jvmlab.errors import UsageError
from jvmlab.load.driver import LoadPlan, Request, drive
from jvmlab.load.result import LoadResult, Second


@dataclass(frozen=True)
class LoadOptions:
    url: str | None
    rate: float | None
    duration: str
    warmup: str
    timeout: str
    connections: int
    tick: str
    method: str
    headers: list[str]
    body: str | None
    mix: Path | None
    seed: int
    import_file: Path | None
    format: str | None
    json: bool
    limits: Limits | None = None  # the driver's own container


def _request_of_options(method: str, headers: list[str], body: bytes) -> Request:
    """The single request of `--method`, `-H "Name: value"` and `--body`."""
    pairs = []
    for h in headers:
        name, sep, value = h.partition(":")
        if not sep or not name.strip():
            raise UsageError(f"--header {h!r}: write it as 'Name: value'")
        pairs.append((name.strip(), value.strip()))
    return Request(method.upper(), "", tuple(pairs), body)


def plan_of(o: LoadOptions) -> LoadPlan:
    assert o.url is not None
    if o.rate is None:
        raise UsageError("--rate: how many requests per second? (e.g. --rate 600)")
    if o.mix is not None and (o.body is not None or o.headers or o.method.upper() != "GET"):
        raise UsageError("--mix gives every request: drop --method, --header and --body")
    if o.mix is not None:
        from jvmlab.load.mix import read_mix  # pydantic: only for a mix file

        mix = read_mix(o.mix)
    else:
        mix = (_request_of_options(o.method, o.headers, (o.body or "").encode()),)
    return LoadPlan(
        url=o.url,
        rate=o.rate,
        duration_s=parse_duration(o.duration, option="--duration"),
        warmup_s=parse_duration(o.warmup, option="--warmup"),
        timeout_s=parse_duration(o.timeout, option="--timeout"),
        connections=o.connections,
        tick_s=parse_duration(o.tick, option="--tick"),
        mix=mix,
        seed=o.seed,
    )


def _imported(o: LoadOptions) -> LoadResult:
    from jvmlab.load.importers import read

    assert o.import_file is not None
    warmup_s = parse_duration(o.warmup, option="--warmup")
    return read(o.import_file, format=o.format, warmup_s=warmup_s, target_rps=o.rate)


def in_container(limits: Limits, work: Callable[[], LoadResult]) -> tuple[LoadResult, Usage]:
    """`work` with this process in a cgroup of `limits` (made, joined, left and removed), and what the
    cgroup counted meanwhile."""
    from jvmlab.container import group, this_machine

    hierarchy = this_machine()
    made = group.make(hierarchy, "load-driver", limits)
    with group.this_process_in(made, hierarchy):
        result = work()
        return result, made.read()


def _driven(o: LoadOptions) -> LoadResult:
    plan = plan_of(o)
    if o.json:
        return drive(plan)
    console = stdout_console()
    total = plan.warmup_s + plan.duration_s
    with console.status(f"loading {plan.url} at {plan.rate:g} requests/s for {total:g} s") as status:

        def show(s: Second) -> None:
            errors = f" · errors {s.error_count:,}" if s.error_count else ""
            p99 = "—" if s.p99_ms is None else f"{s.p99_ms:,.1f} ms"
            status.update(
                f"{s.t_s + 1:.0f}/{total:.0f} s · sent {s.sent:,}/s · responses {s.completed:,}/s · "
                f"p99 {p99}{errors}"
            )

        return drive(plan, on_second=show)


def driver_usage_line(limits: Limits, usage: Usage) -> str:
    """What the driver's container counted, and whether the driver waited for its quota."""
    parts = [f"driver container {limits.text()}"]
    if usage.cpu_s is not None:
        parts.append(f"CPU {usage.cpu_s:.2f} s")
    if usage.throttled_percent is not None and limits.quota_us is not None:
        lost = f"{usage.throttled_s or 0:.2f} s"
        parts.append(f"throttled in {usage.throttled_percent:.1f} % of periods ({lost})")
    if usage.memory_peak_bytes is not None:
        parts.append(f"memory peak {usage.memory_peak_bytes / 2**20:.0f} MiB")
    line = " · ".join(parts)
    if usage.throttled_periods:
        line += "\nthe driver waited for its CPU quota: its send lag and the latencies include those waits"
    return line


def run(o: LoadOptions) -> None:
    usage = None
    if o.import_file is not None:
        result = _imported(o)
    elif o.limits is not None:
        result, usage = in_container(o.limits, lambda: _driven(o))
    else:
        result = _driven(o)
    if o.json:
        doc = result.to_json()
        if o.limits is not None and usage is not None:
            doc["driver_container"] = {"limits": o.limits.to_json(), "usage": usage.to_json()}
        print_text(jsonlib.dumps(doc, indent=2))
        return
    from jvmlab.report.load_view import load_renderable  # rich: not for JSON

    title = str(o.import_file) if o.import_file is not None else (o.url or "")
    print_renderables([load_renderable(result, title)])
    if o.limits is not None and usage is not None:
        print_text(driver_usage_line(o.limits, usage))
