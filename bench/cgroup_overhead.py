"""The cost of the cgroup itself: the same chunkgen trial without a container and in one whose limits are
above the machine's (all its CPUs, twice its memory), interleaved, N repetitions a side. Prints per side the
median of chunks/s and of CPU seconds, their ratio, and jvmlab's verdict on the change (equivalent within
the threshold, or inconclusive at this noise).

    .venv/bin/python bench/cgroup_overhead.py [--repetitions 10] [--jdk 21] [--radius 12]
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
from pathlib import Path

from jvmlab.cli.main import main as jvmlab
from jvmlab.experiment.analysis.comparison import stored_comparison
from jvmlab.experiment.storage import OK, Store
from jvmlab.host import memory_bytes

SPEC = """
name = "cgroup-overhead"
[workload]
command = ["{{java}}", "{{jvm_opts}}", "-cp", "{{classes}}", "jvmlab.workloads.ChunkGen",
           "--radius", "{radius}", "--threads", "2", "--out", "{{workdir}}/world"]
stop = {{ exit = true }}
metric = {{ name = "chunks_per_s", regex = 'Rate: (?P<value>[0-9.]+) cps', kind = "rate", unit = "chunks/s" }}
[matrix]
jdks = ["{jdk}"]
repetitions = {repetitions}
seed = 5
[matrix.flags]
default = ["-Xmx512m"]
[matrix.containers]
none = {{}}
above = {{ cpus = {cpus}, memory = {memory} }}
[compare]
baseline = "none"
[trial]
timeout_s = 300
keep_workdir = false
[telemetry]
gc_log = false
"""


def cpu_s(trial: object) -> float:
    process = getattr(trial, "process", None) or {}
    return float(process.get("cpu_user_s") or 0.0) + float(process.get("cpu_system_s") or 0.0)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repetitions", type=int, default=10)
    ap.add_argument("--jdk", default="21")
    ap.add_argument("--radius", type=int, default=12, help="chunkgen's world radius (trial length)")
    args = ap.parse_args()
    cpus = os.cpu_count() or 1
    memory = 2 * (memory_bytes() or 8 << 30)
    with tempfile.TemporaryDirectory(prefix="jvmlab-cgroup-") as tmp:
        spec = Path(tmp) / "spec.toml"
        spec.write_text(SPEC.format(jdk=args.jdk, radius=args.radius, repetitions=args.repetitions,
                                    cpus=cpus, memory=memory))  # fmt: skip
        db = str(Path(tmp) / "r.db")
        if jvmlab(["run", str(spec), "--db", db, "--runs", str(Path(tmp) / "runs")]) not in (0, 1):
            return 2
        store = Store.open(db)
        try:
            trials = [t for t in store.trials(store.latest_experiment("cgroup-overhead").id) if t.state == OK]
            comparison = stored_comparison(store, "cgroup-overhead")
        finally:
            store.close()
    print(
        f"\nchunkgen radius {args.radius}, {args.repetitions} repetitions a side, interleaved; 'above': "
        f"{cpus} CPUs, {memory >> 30} GiB (the machine: {cpus} CPUs, {memory >> 31} GiB)"
    )
    medians = {}
    for side in ("none", "above"):
        mine = [t for t in trials if t.container == side]
        rate = statistics.median(t.metric["mean"] for t in mine if t.metric and t.metric.get("mean"))
        cpu = statistics.median(cpu_s(t) for t in mine)
        medians[side] = (rate, cpu)
        print(f"  {side:>6}: {len(mine)} trials, median {rate:,.1f} chunks/s, {cpu:.2f} CPU-s")
    print(f"  ratio above/none: chunks/s {medians['above'][0] / medians['none'][0]:.3f}, "
          f"CPU-s {medians['above'][1] / medians['none'][1]:.3f}")  # fmt: skip
    block = comparison.blocks[0]
    cell = block.cells.get("chunks_per_s", {}).get(
        next(v.variant for v in comparison.variants if v.container == "above")
    )
    if cell is not None and cell.verdict is not None and cell.change is not None:
        print(f"  jvmlab's verdict on chunks/s: {cell.verdict.outcome} ({cell.change.ci_text()})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
