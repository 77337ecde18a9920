"""GC log parse benchmark: throughput (MB/s) and peak RSS of `jvmlab gc summary` on >= 500 MB logs.

    .venv/bin/python bench/gclog_parse.py                 # what `make bench` runs
    .venv/bin/python bench/gclog_parse.py --repeat 5 --json

Targets (issue): >= 400 MB/s single-threaded, peak RSS < 300 MB whatever the log size. Every measurement is
a fresh process; stages run interleaved in rounds, so noise hits them alike; the table shows medians.
See bench/README.md for what each stage measures and how to read the output.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import os
import sys
import time
from collections.abc import Sequence
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

import _env
import _measure
import _report
import make_logs
from _measure import Run, Stage

FORMAT_VERSION = 1
DEFAULT_JSON = make_logs.OUT_DIR / "results.json"
MB = make_logs.MB


@dataclass(frozen=True)
class Options:
    logs: tuple[str, ...]
    size_mb: float
    scaling_mb: float
    repeat: int
    json_path: Path | None
    timeout_s: float


def parse_args(argv: Sequence[str] | None) -> Options:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument(
        "--logs", default=",".join(make_logs.DEFAULT_LOGS), help=f"of: {', '.join(make_logs.SPECS)}"
    )
    p.add_argument(
        "--size-mb", type=float, default=make_logs.DEFAULT_SIZE_MB, help="size of each log (1e6 B)"
    )
    p.add_argument(
        "--scaling-mb",
        type=float,
        default=130,
        help="also run a log of this size, to see how RSS grows (0: off)",
    )
    p.add_argument("--repeat", type=int, default=3, help="runs of each stage; the table shows medians")
    p.add_argument(
        "--json", nargs="?", const=DEFAULT_JSON, type=Path, default=None, metavar="PATH",
        help=f"write results, after every run, to PATH (default {DEFAULT_JSON.relative_to(make_logs.ROOT)})",
    )  # fmt: skip
    p.add_argument("--timeout", type=float, default=900, help="seconds before one run is killed")
    a = p.parse_args(argv)
    logs = tuple(n.strip() for n in a.logs.split(",") if n.strip())
    bad = [n for n in logs if n not in make_logs.SPECS]
    if bad:
        p.error(f"--logs: unknown log {bad[0]!r}; choose from {', '.join(make_logs.SPECS)}")
    if a.repeat < 1:
        p.error("--repeat must be at least 1")
    if a.scaling_mb >= a.size_mb:
        p.error("--scaling-mb must be smaller than --size-mb (or 0 to skip the scaling run)")
    return Options(logs, a.size_mb, a.scaling_mb, a.repeat, a.json, a.timeout)


def prepare_inputs(opts: Options) -> tuple[list[_report.Input], dict[str, Any]]:
    inputs, manifests = [], {}
    sizes = [(opts.size_mb, True)] + ([(opts.scaling_mb, False)] if opts.scaling_mb > 0 else [])
    for log in opts.logs:
        for size_mb, main in sizes:
            path = make_logs.log_path(log, size_mb)
            if make_logs.read_manifest(path) is None:
                print(f"building {path} ...", flush=True)
            m = make_logs.ensure(log, size_mb)
            if main:
                make_logs.ensure_gzip(Path(m.path))
            manifests[m.path] = asdict(m)
            inputs.append(_report.Input(log, Path(m.path), m.size_bytes, main))
    return inputs, manifests


def plan(inputs: Sequence[_report.Input], e2e: Stage, cli: bool) -> list[tuple[_report.Input | None, Stage]]:
    """One round: every stage on every input. The scaling input gets only what RSS growth needs."""
    steps: list[tuple[_report.Input | None, Stage]] = [(None, _measure.STARTUP)]
    for inp in inputs:
        stages = [_measure.READ, _measure.LINES, _measure.PARSE, _measure.PARSE_GZ, _measure.STREAM]
        stages += [_measure.LOAD] if cli else []
        stages += [e2e]
        stages += [_measure.GCVIEWER] if _measure.GCVIEWER_JAR.exists() else []
        if not inp.main:
            stages = [_measure.PARSE, _measure.STREAM, e2e]
        steps.extend((inp, s) for s in stages)
    return steps


class Results:
    """Runs so far, saved after each one when --json is given (a crash loses at most one run)."""

    def __init__(self, opts: Options, meta: dict[str, Any]) -> None:
        self.opts, self.meta = opts, meta
        self.runs: list[Run] = []

    def add(self, run: Run) -> None:
        self.runs.append(run)
        self.save()

    def document(self, rows: Sequence[_report.Row] = ()) -> dict[str, Any]:
        return {
            "format_version": FORMAT_VERSION,
            "benchmark": "gclog_parse",
            "targets": {"throughput_mb_per_s": _report.TARGET_MB_S, "peak_rss_mb": _report.TARGET_RSS_MB},
            "units": {"MB": "1e6 bytes", "rss": "ru_maxrss of the child process (wait4)"},
            "metadata": self.meta,
            "rows": [asdict(r) | {"speed_ok": r.speed_ok, "rss_ok": r.rss_ok} for r in rows],
            "runs": [asdict(r) for r in self.runs],
        }

    def save(self, rows: Sequence[_report.Row] = ()) -> None:
        if self.opts.json_path is None:
            return
        self.opts.json_path.parent.mkdir(parents=True, exist_ok=True)
        tmp = self.opts.json_path.with_suffix(".tmp")
        tmp.write_text(json.dumps(self.document(rows), indent=1) + "\n")
        os.replace(tmp, self.opts.json_path)


def run_rounds(
    opts: Options, steps: list[tuple[_report.Input | None, Stage]], cli: bool, results: Results
) -> None:
    work = make_logs.OUT_DIR / "runs"
    work.mkdir(parents=True, exist_ok=True)
    for warm in {i for i, _ in steps if i is not None}:  # warm the page cache: every stage reads warm
        _measure.measure(_measure.READ, warm.log, warm.path, -1, cli, work, opts.timeout_s)
    for rep in range(opts.repeat):
        for inp, stage in steps:
            log, path = (inp.log, inp.path) if inp else ("-", None)
            run = _measure.measure(stage, log, path, rep, cli, work, opts.timeout_s)
            results.add(run)
            status = f"{run.seconds:.3f} s, {(run.maxrss_bytes or 0) / MB:.0f} MB" if run.ok else "FAILED"
            size = f" {inp.size_bytes / MB:.0f} MB" if inp else ""
            print(f"  round {rep + 1}/{opts.repeat}: {log}{size} {stage.label}: {status}", flush=True)


def summarize(
    inputs: Sequence[_report.Input], steps: list[tuple[_report.Input | None, Stage]], results: Results
) -> list[_report.Row]:
    rows = [_report.aggregate(results.runs, "-", 0, "startup", _measure.STARTUP.label)]
    for inp in inputs:
        mine = [
            _report.aggregate(results.runs, inp.log, inp.size_bytes, s.name, s.label)
            for i, s in steps
            if i == inp
        ]
        events = next((r.events for r in mine if r.stage == "parse"), None)  # the same file: the same events
        rows.extend(r if r.events is not None else dataclasses.replace(r, events=events) for r in mine)
    return rows


def report(
    opts: Options, inputs: Sequence[_report.Input], rows: Sequence[_report.Row], notes: list[str]
) -> None:
    print()
    print(_report.table(rows))
    print()
    startup = rows[0]
    for inp in inputs:
        line = _report.breakdown(rows, inp.log, inp.size_bytes, startup) if inp.main else None
        if line:
            print(line)
    for log in opts.logs:
        big = next(i.size_bytes for i in inputs if i.log == log and i.main)
        small = next((i.size_bytes for i in inputs if i.log == log and not i.main), None)
        for stage in ("parse", "stream", "e2e"):
            slope = _report.rss_slope(rows, log, small, big, stage) if small else None
            if slope:
                reach = "never" if slope[1] == float("inf") else f"from about {slope[1]:,.0f} MB of log"
                grows = f"{log} {stage}: peak RSS grows {slope[0]:.0f} MB per 100 MB of log"
                print(f"{grows}; 300 MB is reached {reach}")
    for note in notes:
        print(f"warning: {note}")


def main(argv: Sequence[str] | None = None) -> int:
    opts = parse_args(argv)
    inputs, manifests = prepare_inputs(opts)
    why_no_cli = _measure.probe_cli()
    cli = why_no_cli is None
    e2e = _measure.E2E if cli else _measure.E2E_FALLBACK
    notes = (
        []
        if _measure.GCVIEWER_JAR.exists()
        else [f"no GCViewer beside the parse: {_measure.GCVIEWER_JAR} is missing (`make bench` fetches it)"]
    )
    notes += [] if cli else [
        f"the CLI is not usable ({why_no_cli}): end-to-end runs `jvmlab.gclog.load(path).events` in a fresh"
        " process instead of `jvmlab gc summary --json`; rerun when the CLI exists"
    ]  # fmt: skip
    meta = _env.metadata() | {"inputs": manifests, "cli": cli, "why_no_cli": why_no_cli, "argv": sys.argv}
    meta |= {"started": time.strftime("%Y-%m-%dT%H:%M:%S%z"), "repeat": opts.repeat}
    results = Results(opts, meta)
    steps = plan(inputs, e2e, cli)
    print(f"{len(steps)} runs per round, {opts.repeat} rounds; e2e = {e2e.label}", flush=True)
    run_rounds(opts, steps, cli, results)
    rows = summarize(inputs, steps, results)
    meta["loadavg_end"] = os.getloadavg()
    meta["jvmlab"] = next((r.child for r in results.runs if r.stage == "startup" and r.ok), None)
    notes += _report.input_warnings(results.runs) + _report.quality_warnings(rows)
    if meta["loadavg_start"][0] > 0.5:
        notes.append(f"load average {meta['loadavg_start'][0]:.2f} at start: other work may skew the runs")
    report(opts, inputs, rows, notes)
    results.save(rows)
    if opts.json_path:
        print(f"results: {opts.json_path}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
