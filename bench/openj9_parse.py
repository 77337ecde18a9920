"""OpenJ9 verbose GC parse benchmark: MB/s and peak RSS of the OpenJ9 parser beside the HotSpot unified one.

    .venv/bin/python bench/openj9_parse.py                 # what `make bench` runs
    .venv/bin/python bench/openj9_parse.py --repeat 5 --json

Inputs (bench/make_logs.py, under build/bench/): `openj9-gencon`, the documentation's gencon cycles
(tests/gclog/openj9/gencon.xml: two scavenges and a concurrent global cycle) repeated with increasing ids and
timestamps to >= 520 MB, and `g1`, a JDK 25 G1 `-Xlog:gc*` log of the same size. Target (issue 17): the
OpenJ9 parser at least half the unified parser's MB/s, and memory bounded as the unified parser's is (peak
RSS flat in the log's size for the streaming summary). Every measurement is a fresh process; stages run
interleaved in rounds so noise hits both logs alike; the table shows medians.
"""

from __future__ import annotations

import argparse
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
MB = make_logs.MB
OPENJ9, UNIFIED = "openj9-gencon", "g1"
TARGET_RATIO = 0.5
DEFAULT_JSON = make_logs.OUT_DIR / "openj9-results.json"


@dataclass(frozen=True)
class Options:
    size_mb: float
    scaling_mb: float
    repeat: int
    json_path: Path | None
    timeout_s: float


def parse_args(argv: Sequence[str] | None) -> Options:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument(
        "--size-mb", type=float, default=make_logs.DEFAULT_SIZE_MB, help="size of each log (1e6 B)"
    )
    p.add_argument(
        "--scaling-mb", type=float, default=130, help="also a log this size, for RSS growth (0: off)"
    )
    p.add_argument("--repeat", type=int, default=5, help="runs of each stage; the table shows medians")
    p.add_argument(
        "--json", nargs="?", const=DEFAULT_JSON, type=Path, default=None, metavar="PATH",
        help=f"write results, after every run, to PATH (default {DEFAULT_JSON.relative_to(make_logs.ROOT)})",
    )  # fmt: skip
    p.add_argument("--timeout", type=float, default=900, help="seconds before one run is killed")
    a = p.parse_args(argv)
    if a.repeat < 1:
        p.error("--repeat must be at least 1")
    if a.scaling_mb >= a.size_mb:
        p.error("--scaling-mb must be smaller than --size-mb (or 0 to skip the scaling run)")
    return Options(a.size_mb, a.scaling_mb, a.repeat, a.json, a.timeout)


def prepare_inputs(opts: Options) -> tuple[list[_report.Input], dict[str, Any]]:
    inputs, manifests = [], {}
    sizes = [(opts.size_mb, True)] + ([(opts.scaling_mb, False)] if opts.scaling_mb > 0 else [])
    for log in (OPENJ9, UNIFIED):
        for size_mb, main in sizes:
            if make_logs.read_manifest(make_logs.log_path(log, size_mb)) is None:
                print(f"building {make_logs.log_path(log, size_mb)} ...", flush=True)
            m = make_logs.ensure(log, size_mb)
            manifests[m.path] = asdict(m)
            inputs.append(_report.Input(log, Path(m.path), m.size_bytes, main))
    return inputs, manifests


def plan(inputs: Sequence[_report.Input], e2e: Stage) -> list[tuple[_report.Input, Stage]]:
    """One round: the parser alone (table, streaming summary) and the CLI end to end, on both logs; the
    smaller scaling logs get the two stages whose RSS growth matters."""
    steps = []
    for inp in inputs:
        stages = [_measure.PARSE, _measure.STREAM, e2e] if inp.main else [_measure.PARSE, _measure.STREAM]
        steps.extend((inp, s) for s in stages)
    return steps


class Results:
    """Runs so far, saved after each one when --json is given (a crash loses at most one run)."""

    def __init__(self, path: Path | None, meta: dict[str, Any]) -> None:
        self.path, self.meta = path, meta
        self.runs: list[Run] = []

    def add(self, run: Run) -> None:
        self.runs.append(run)
        self.save()

    def save(self, rows: Sequence[_report.Row] = (), ratios: dict[str, Any] | None = None) -> None:
        if self.path is None:
            return
        doc = {
            "format_version": FORMAT_VERSION,
            "benchmark": "openj9_parse",
            "target": {"openj9_to_unified_mb_per_s": TARGET_RATIO},
            "units": {"MB": "1e6 bytes", "rss": "ru_maxrss of the child process (wait4)"},
            "metadata": self.meta,
            "rows": [asdict(r) for r in rows],
            "ratios": ratios or {},
            "runs": [asdict(r) for r in self.runs],
        }
        self.path.parent.mkdir(parents=True, exist_ok=True)
        tmp = self.path.with_suffix(".tmp")
        tmp.write_text(json.dumps(doc, indent=1) + "\n")
        os.replace(tmp, self.path)


def run_rounds(opts: Options, steps: list[tuple[_report.Input, Stage]], cli: bool, results: Results) -> None:
    work = make_logs.OUT_DIR / "runs"
    work.mkdir(parents=True, exist_ok=True)
    for warm in {i for i, _ in steps}:  # warm the page cache: every stage reads warm
        _measure.measure(_measure.READ, warm.log, warm.path, -1, cli, work, opts.timeout_s)
    for rep in range(opts.repeat):
        for inp, stage in steps:
            run = _measure.measure(stage, inp.log, inp.path, rep, cli, work, opts.timeout_s)
            results.add(run)
            status = f"{run.seconds:.3f} s, {(run.maxrss_bytes or 0) / MB:.0f} MB" if run.ok else "FAILED"
            size = f"{inp.size_bytes / MB:.0f} MB"
            print(f"  round {rep + 1}/{opts.repeat}: {inp.log} {size} {stage.label}: {status}", flush=True)


def ratios(rows: Sequence[_report.Row], inputs: Sequence[_report.Input]) -> dict[str, Any]:
    """Per stage on the main logs: OpenJ9 MB/s over unified MB/s, and both peak RSS."""
    size = {i.log: i.size_bytes for i in inputs if i.main}
    out: dict[str, Any] = {}
    for stage in ("parse", "stream", "e2e"):
        j9 = next((r for r in rows if (r.log, r.size_bytes, r.stage) == (OPENJ9, size[OPENJ9], stage)), None)
        hs = next(
            (r for r in rows if (r.log, r.size_bytes, r.stage) == (UNIFIED, size[UNIFIED], stage)), None
        )
        if j9 is None or hs is None or not j9.mb_per_s or not hs.mb_per_s:
            continue
        out[stage] = {
            "openj9_mb_per_s": j9.mb_per_s,
            "unified_mb_per_s": hs.mb_per_s,
            "ratio": j9.mb_per_s / hs.mb_per_s,
            "openj9_peak_rss_mb": j9.median_rss_mb,
            "unified_peak_rss_mb": hs.median_rss_mb,
        }
    return out


def rss_growth(rows: Sequence[_report.Row], inputs: Sequence[_report.Input]) -> list[str]:
    lines = []
    for log in (OPENJ9, UNIFIED):
        big = next(i.size_bytes for i in inputs if i.log == log and i.main)
        small = next((i.size_bytes for i in inputs if i.log == log and not i.main), None)
        for stage in ("parse", "stream"):
            slope = _report.rss_slope(rows, log, small, big, stage) if small else None
            if slope:
                lines.append(f"{log} {stage}: peak RSS grows {slope[0]:.0f} MB per 100 MB of log")
    return lines


def report(rows: Sequence[_report.Row], found: dict[str, Any], growth: list[str], notes: list[str]) -> None:
    print()
    print(_report.table(rows))
    print()
    for stage, r in found.items():
        verdict = "PASS" if r["ratio"] >= TARGET_RATIO else "MISS"
        print(
            f"{stage:<6} OpenJ9 {r['openj9_mb_per_s']:.0f} MB/s vs unified {r['unified_mb_per_s']:.0f} MB/s:"
            f" {r['ratio']:.2f}x (target >= {TARGET_RATIO}) {verdict}; peak RSS {r['openj9_peak_rss_mb']:.0f}"
            f" MB vs {r['unified_peak_rss_mb']:.0f} MB"
        )
    for line in growth:
        print(line)
    for note in notes:
        print(f"warning: {note}")


def main(argv: Sequence[str] | None = None) -> int:
    opts = parse_args(argv)
    inputs, manifests = prepare_inputs(opts)
    why_no_cli = _measure.probe_cli()
    cli = why_no_cli is None
    e2e = _measure.E2E if cli else _measure.E2E_FALLBACK
    notes = [] if cli else [f"the CLI is not usable ({why_no_cli}): end-to-end runs gclog.load() instead"]
    meta = _env.metadata() | {"inputs": manifests, "cli": cli, "argv": sys.argv, "repeat": opts.repeat}
    meta["started"] = time.strftime("%Y-%m-%dT%H:%M:%S%z")
    results = Results(opts.json_path, meta)
    steps = plan(inputs, e2e)
    print(f"{len(steps)} runs per round, {opts.repeat} rounds; e2e = {e2e.label}", flush=True)
    run_rounds(opts, steps, cli, results)
    rows = [
        _report.aggregate(results.runs, i.log, i.size_bytes, s.name, s.label)
        for i in inputs
        for s in dict.fromkeys(stage for inp, stage in steps if inp == i)
    ]
    found = ratios(rows, inputs)
    meta["loadavg_end"] = os.getloadavg()
    notes += _report.input_warnings(results.runs) + _report.quality_warnings(rows)
    if meta["loadavg_start"][0] > 0.5:
        notes.append(f"load average {meta['loadavg_start'][0]:.2f} at start: other work may skew the runs")
    report(rows, found, rss_growth(rows, inputs), notes)
    results.save(rows, found)
    if opts.json_path:
        print(f"results: {opts.json_path}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
