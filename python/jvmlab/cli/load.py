"""`jvmlab load URL --rate R --duration D`: an open-model load with jvmlab's driver, or `jvmlab load --import
FILE`: the results of another tool (JMeter, k6, wrk2), shown the same way."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from jvmlab.cli.container_options import Cpus, Cpuset, Memory, limits_given
from jvmlab.errors import UsageError


def load_command(
    url: Annotated[
        str | None,
        typer.Argument(help="http://host:port/path to load (not with --import).", show_default=False),
    ] = None,
    rate: Annotated[float | None, typer.Option("--rate", "-r", help="Requests per second.")] = None,
    duration: Annotated[str, typer.Option("--duration", "-d", help="Measured time (60s, 2m, ...).")] = "30s",
    warmup: Annotated[str, typer.Option("--warmup", help="Load before the measured time.")] = "0s",
    timeout: Annotated[str, typer.Option("--timeout", help="Per request, from its due time.")] = "10s",
    connections: Annotated[int, typer.Option("--connections", "-c", help="Most connections open.")] = 512,
    tick: Annotated[
        str, typer.Option("--tick", help="Release requests at most this often (1ms: in bursts, less CPU).")
    ] = "200us",
    method: Annotated[str, typer.Option("--method", "-X", help="HTTP method.")] = "GET",
    header: Annotated[
        list[str] | None, typer.Option("--header", "-H", help="'Name: value' (repeat).")
    ] = None,
    body: Annotated[str | None, typer.Option("--body", help="Request body.")] = None,
    mix: Annotated[Path | None, typer.Option("--mix", help="Weighted requests (a TOML file).")] = None,
    seed: Annotated[int, typer.Option("--seed", help="Seed of the mix's choices.")] = 1,
    import_file: Annotated[
        Path | None, typer.Option("--import", help="Read a JMeter .jtl, k6 JSON or wrk2 output instead.")
    ] = None,
    format: Annotated[
        str | None,
        typer.Option("--format", help="Of --import: jmeter, k6, k6-summary, wrk2 (default: detect)."),
    ] = None,
    json: Annotated[bool, typer.Option("--json", help="Print JSON (docs/load-json.md).")] = False,
    cpus: Cpus = None,
    memory: Memory = None,
    cpuset: Cpuset = None,
) -> None:
    """Drive URL at a constant request rate and show throughput, errors and latency percentiles.

    Requests leave on schedule whatever the server does, and latency runs from each request's due time, so a
    pause of the server shows in the tail (no coordinated omission). --cpus, --memory and --cpuset run the
    driver in a container of its own (e.g. on other CPUs than the server's), and say how long it waited."""
    from jvmlab.cli import load_run

    if (url is None) == (import_file is None):
        raise UsageError("give a URL to load, or --import FILE with another tool's results (not both)")
    limits = limits_given(cpus, memory, cpuset)
    if limits is not None and import_file is not None:
        raise UsageError("--cpus, --memory and --cpuset limit jvmlab's driver: not for --import")
    options = load_run.LoadOptions(
        url, rate, duration, warmup, timeout, connections, tick, method, header or [], body, mix, seed,
        import_file, format, json, limits,
    )  # fmt: skip
    load_run.run(options)
