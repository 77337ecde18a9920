"""How often `jvmlab tune`'s pruner stops a candidate that would have been good (its false pruning rate), and
how much trial time pruning saves.

    .venv/bin/python bench/tune_pruning.py              # what `make bench` runs (about a minute)
    .venv/bin/python bench/tune_pruning.py --runs 5 --studies 200

The noise is this machine's: chunkgen runs a few times and prints its rate each second; each run's series,
divided by its own mean after the first seconds, is a shape (start-up ramp) with noise. Candidates of a
simulated study get a true mean (log-normal around 1, 20 % spread: a realistic flag space, where most
configurations are within tens of percent of each other) and a series of that mean times one of the
measured shapes at a random phase. Each study measures 30 candidates in turn with jvmlab's pruner
(tune/pruning.py: TrailingPruner fed by PruningProgress, exactly as in a tuning run).

A pruned candidate is a false prune when its true mean was within 2 % of the best true mean measured before
it, or better: a candidate that could have become the incumbent. Also shown: pruned although the true mean
was above the pruner's own bar (the lower quartile of the earlier ones): stopped by noise.
"""

from __future__ import annotations

import argparse
import random
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

import numpy as np
import optuna

from jvmlab.tune.pruning import PRUNE_WARMUP_S, PruningProgress, TrailingPruner
from jvmlab.workloads import classes_dir

RATE = re.compile(r"Rate: ([0-9.]+) cps")
CANDIDATES = 30
WITHIN = 0.02


class Quiet:
    def trial_started(self, *args: object) -> None: ...
    def trial_finished(self, *args: object) -> None: ...
    def metric(self, t_s: float, value: float) -> None:
        return None


def measured_shapes(runs: int, radius: int) -> list[np.ndarray]:
    """chunkgen's per-second rates, each run divided by its mean after PRUNE_WARMUP_S."""
    shapes = []
    with tempfile.TemporaryDirectory() as tmp:
        for _ in range(runs):
            world = Path(tmp) / "world"
            shutil.rmtree(world, ignore_errors=True)
            argv = ["java", "-cp", str(classes_dir()), "jvmlab.workloads.ChunkGen", "--radius", str(radius)]
            out = subprocess.run(
                [*argv, "--threads", "2", "--out", str(world)], capture_output=True, text=True
            )
            rates = np.array([float(m) for m in RATE.findall(out.stdout)])
            if len(rates) <= PRUNE_WARMUP_S + 3:
                sys.exit(f"chunkgen printed {len(rates)} rates: use a larger --radius")
            shapes.append(rates / rates[PRUNE_WARMUP_S:].mean())
    return shapes


Row = tuple[float, bool, int, int, float, float]


def study(shapes: list[np.ndarray], rng: random.Random) -> list[Row]:
    """One simulated tuning run: per candidate (true mean, pruned, seconds run, seconds in full, best true
    mean before it, the pruner's bar when it ran)."""
    optuna.logging.set_verbosity(optuna.logging.WARNING)
    s = optuna.create_study(direction="maximize", pruner=TrailingPruner())
    out = []
    best_before = 0.0
    for _ in range(CANDIDATES):
        true = rng.lognormvariate(0.0, 0.2)
        shape = rng.choice(shapes)
        shift = rng.randrange(len(shape) - PRUNE_WARMUP_S) + PRUNE_WARMUP_S
        noise = np.concatenate([shape[:PRUNE_WARMUP_S], np.roll(shape[PRUNE_WARMUP_S:], shift)])
        trial = s.ask()
        progress = PruningProgress(Quiet(), trial)
        pruned, seconds = False, len(noise)
        for t_s, v in enumerate(noise * true):
            if progress.metric(float(t_s), float(v)):
                pruned, seconds = True, t_s + 1
                break
        complete = [t for t in s.trials if t.state == optuna.trial.TrialState.COMPLETE]
        bar = float(np.percentile([t.value for t in complete], 25)) if complete else 0.0
        if pruned:
            s.tell(trial, state=optuna.trial.TrialState.PRUNED)
        else:
            s.tell(trial, float(np.mean(noise[PRUNE_WARMUP_S:] * true)))
        out.append((true, pruned, seconds, len(noise), best_before, bar))
        best_before = max(best_before, true)
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=3, help="chunkgen runs measured for the noise")
    ap.add_argument("--radius", type=int, default=40)
    ap.add_argument("--studies", type=int, default=100)
    args = ap.parse_args()
    shapes = measured_shapes(args.runs, args.radius)
    cv = [float(np.std(sh[PRUNE_WARMUP_S:]) / np.mean(sh[PRUNE_WARMUP_S:])) for sh in shapes]
    lengths = f"{min(map(len, shapes))}-{max(map(len, shapes))} s"
    cv_text = f"per-second CV after {PRUNE_WARMUP_S} s: median {statistics.median(cv):.1%}"
    print(f"chunkgen radius {args.radius}: {len(shapes)} runs of {lengths}; {cv_text}")
    rng = random.Random(1)
    rates: list[float] = []
    noisy: list[float] = []
    saved: list[float] = []
    pruned_total = 0
    for _ in range(args.studies):
        rows = study(shapes, rng)
        pruned = [r for r in rows if r[1]]
        pruned_total += len(pruned)
        false = [r for r in pruned if r[0] >= r[4] * (1 - WITHIN)]
        rates.append(len(false) / len(pruned) if pruned else 0.0)
        noisy.append(sum(1 for r in pruned if r[0] >= r[5]) / len(pruned) if pruned else 0.0)
        saved.append(1 - sum(r[2] for r in rows) / sum(r[3] for r in rows))
    per_study = pruned_total / args.studies
    print(f"{args.studies} studies x {CANDIDATES} candidates: {per_study:.1f} pruned per study")
    shares = f"median {statistics.median(rates):.1%} of the pruned, mean {statistics.fmean(rates):.1%}"
    print(f"false prunes (true mean within {WITHIN:.0%} of the best so far, or better): {shares}")
    noise = statistics.fmean(noisy)
    print(f"pruned although above the pruner's bar (noise): mean {noise:.1%} of the pruned")
    print(f"trial time saved: median {statistics.median(saved):.0%}")


if __name__ == "__main__":
    main()
