"""A/A on real JVMs: chunkgen twice with the same flags (two flag sets that differ in name only), as
`repetitions = "auto"` experiments, N of them in a row. Nothing changed, so no experiment may call the
metric worse (or better); the table shows each one's verdict, the rounds it took and the noise it saw.

    .venv/bin/python bench/aa_chunkgen.py --experiments 20 --jdk 21
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
import tomllib
from collections import Counter
from pathlib import Path

from jvmlab.experiment.analysis.comparison import stored_comparison
from jvmlab.experiment.auto_repetitions import ROUNDS_KEY, run_rounds
from jvmlab.experiment.execution import jdks
from jvmlab.experiment.execution.run import Runner, make_plan
from jvmlab.experiment.spec import parse_spec
from jvmlab.experiment.storage import Store
from jvmlab.stats import coefficient_of_variation_percent

SPEC = """
name = "aa-chunkgen"
[workload]
command = ["{{java}}", "{{jvm_opts}}", "-cp", "{{classes}}", "jvmlab.workloads.ChunkGen",
           "--radius", "{radius}", "--threads", "2", "--out", "{{workdir}}/world"]
stop = {{ exit = true }}
metric = {{ name = "chunks_per_s", regex = 'Rate: (?P<value>[0-9.]+) cps', kind = "rate", unit = "chunks/s" }}
[matrix]
jdks = ["{jdk}"]
repetitions = "auto"
max_repetitions = {max_repetitions}
seed = {seed}
[matrix.flags]
a = ["-Xmx512m"]
b = ["-Xmx512m"]
[compare]
baseline = "a"
[trial]
timeout_s = 300
keep_workdir = false
[telemetry]
gc_log = false
"""


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--experiments", type=int, default=20)
    ap.add_argument("--jdk", default="21")
    ap.add_argument("--radius", type=int, default=12, help="chunkgen's world radius (trial length)")
    ap.add_argument("--max-repetitions", type=int, default=10)
    args = ap.parse_args()
    outcomes: Counter[str] = Counter()
    with tempfile.TemporaryDirectory(prefix="jvmlab-aa-") as tmp:
        store = Store.open(str(Path(tmp) / "aa.db"))
        print(f"{'exp':>3} {'verdict':>12} {'change':>8} {'CI':>20} {'rounds':>6} {'CV a/b':>12} {'min':>5}")
        for i in range(1, args.experiments + 1):
            text = SPEC.format(jdk=args.jdk, radius=args.radius, max_repetitions=args.max_repetitions, seed=i)
            spec = parse_spec(tomllib.loads(text))
            plan = make_plan(spec, jdks.resolve, jdks.check)
            runner = Runner(store, Path(tmp) / "runs", jdks.classes_for(spec))
            started = time.monotonic()
            experiment = runner.start(plan, text)
            run_rounds(runner, experiment, plan)
            c = stored_comparison(store, str(experiment))
            cells = c.blocks[0].cells["chunks_per_s"]
            a, b = (next(cell for v, cell in cells.items() if v.endswith(f"/{fs}")) for fs in ("a", "b"))
            assert b.verdict is not None and b.change is not None
            word = {"increased": "better", "decreased": "worse"}.get(b.verdict.outcome, b.verdict.outcome)
            outcomes[word] += 1
            rounds = (store.experiment(experiment).environment or {}).get(ROUNDS_KEY, {})
            n = len(rounds.get("looks", [])) + 2  # the first look comes after round 3
            cvs = [coefficient_of_variation_percent(x.values) for x in (a, b)]
            noise = "/".join(f"{x:.1f}" for x in cvs if x is not None)
            ci = f"[{b.change.ci_low_percent:+.1f}, {b.change.ci_high_percent:+.1f}]"
            minutes = (time.monotonic() - started) / 60
            print(
                f"{i:>3} {word:>12} {b.change.percent:>+7.1f}% {ci:>20} {n:>6} {noise:>12} {minutes:>5.1f}",
                flush=True,
            )
        store.close()
    print(
        ", ".join(f"{k}: {v}" for k, v in sorted(outcomes.items())), f"of {args.experiments} A/A experiments"
    )
    return 1 if outcomes["worse"] or outcomes["better"] else 0


if __name__ == "__main__":
    sys.exit(main())
