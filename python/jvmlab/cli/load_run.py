"""What `jvmlab load` does once its options are typed: build the plan, run it with a live line per second
(or read another tool's results), print the result."""

from __future__ import annotations

import json as jsonlib
from dataclasses import dataclass
from pathlib import Path

from jvmlab.cli.output import print_renderables, print_text, stdout_console
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


def run(o: LoadOptions) -> None:
    result = _imported(o) if o.import_file is not None else _driven(o)
    if o.json:
        print_text(jsonlib.dumps(result.to_json(), indent=2))
        return
    from jvmlab.report.load_view import load_renderable  # rich: not for JSON

    title = str(o.import_file) if o.import_file is not None else (o.url or "")
    print_renderables([load_renderable(result, title)])
