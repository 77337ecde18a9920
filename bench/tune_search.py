"""How many candidates `jvmlab tune`'s search needs: TPE against random search, on grids whose best is known.

    .venv/bin/python bench/tune_search.py            # what `make bench` runs (4 to 7 minutes on 2 CPUs)
    .venv/bin/python bench/tune_search.py --reuse    # replay the recorded JVM runs, run only the missing
    .venv/bin/python bench/tune_search.py --quick    # smoke version, under a minute

Target (issue 16): the median number of distinct configurations measured until one whose true value is
within 2 % of the grid-search best is at most 25 % of the grid's size, with random search beside it.

Two studies, each searched with the samplers of `jvmlab.tune.study.make_sampler` over many seeds, with
the search's own rules (tune/search.py): a configuration already measured costs nothing, and when the
sampler keeps proposing measured ones an unmeasured random point is queued.
- synthetic: 3 collectors x 8 heap sizes x 6 pause targets x pre-touch (288 points), a smooth throughput
  with interactions and one best point, seen through multiplicative noise whose coefficient of variation
  is measured here: chunkgen with the JVM's defaults, `--noise-runs` fresh JVMs;
- chunkgen: 3 collectors x 4 heap sizes x 2 compilers (24 points) measured `--repetitions` times each with
  the real JVM (in rounds, each in a new order); a proposal gets one of its point's recordings at random,
  the truth is their mean. The recordings are kept in build/bench/tune-grid.json for `--reuse`.
"""

from __future__ import annotations

import argparse
import itertools
import json
import math
import os
import random
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import _env
import optuna

from jvmlab.tune.search import RANDOM_AFTER_DUPLICATES, tell_duplicate, unmeasured_point
from jvmlab.tune.space import G1, PARALLEL, SERIAL, Dimension, Space
from jvmlab.tune.study import make_sampler
from jvmlab.workloads import CHUNKGEN, classes_dir

FORMAT_VERSION = 1
TARGET_FRACTION = 0.25  # of the grid's size
WITHIN = 0.02  # "found": a measured configuration whose true value is within 2 % of the best
SAMPLERS = ("tpe", "random")
PROMISING_REPETITIONS = 3  # tune.promising_repetitions' default (tune.repetitions' is 1)
RATE = re.compile(r"Task finished: \d+ chunks in [0-9.]+ s \(average rate ([0-9.]+) cps\)")
CACHE = _env.ROOT / "build" / "bench"

Point = dict[str, Any]
Draw = Callable[[str, random.Random], float | None]  # a noisy measurement of a configuration (None: failed)


# -- the two spaces -------------------------------------------------------------------------------------
def synthetic_space() -> Space:
    return Space(
        (
            Dimension("collector", choices=(G1, PARALLEL, SERIAL)),
            Dimension("heap_mb", "-Xmx{}m", 256, 2048, step=256),
            Dimension("pause_ms", "-XX:MaxGCPauseMillis={}", 50, 300, step=50),
            Dimension("pretouch", choices=("", "-XX:+AlwaysPreTouch")),
        )
    )


def synthetic_throughput(p: Point) -> float:
    """Ops/s, best at Parallel, 1536 MB, 200 ms, pre-touched. Each collector has its own best heap
    (quadratic in log2 of the heap), the pause target matters to G1 (saturating) and Parallel (a best
    value), not to Serial; pre-touching pays more with a larger heap and costs Serial."""
    base, best_heap_mb = {G1: (1.00, 1024), PARALLEL: (1.06, 1536), SERIAL: (0.90, 512)}[p["collector"]]
    heap = 1 - 0.25 * math.log2(p["heap_mb"] / best_heap_mb) ** 2
    pause = {
        G1: 1 - 0.10 * math.exp(-p["pause_ms"] / 100),
        PARALLEL: 1 - 0.08 * ((p["pause_ms"] - 200) / 100) ** 2,
        SERIAL: 1.0,
    }[p["collector"]]
    touched = bool(p["pretouch"])
    pretouch = 1 + touched * (-0.01 if p["collector"] == SERIAL else 0.03 * p["heap_mb"] / 2048)
    return 1000 * base * heap * pause * pretouch


def chunkgen_space(quick: bool) -> Space:
    return Space(
        (
            Dimension("collector", choices=(G1, PARALLEL) if quick else (G1, PARALLEL, SERIAL)),
            Dimension("heap_mb", "-Xmx{}m", 64, 256, step=192 if quick else 64),
            Dimension("tiered", choices=("", "-XX:TieredStopAtLevel=1")),
        )
    )


def grid(space: Space) -> list[Point]:
    """Every point of a space of unconditional, finite dimensions."""

    def values(d: Dimension) -> list[Any]:
        assert not d.when and (d.choices is not None or d.step is not None), d.name
        return (
            list(d.choices)
            if d.choices is not None
            else list(range(int(d.low), int(d.high) + 1, int(d.step or 1)))
        )

    names = space.names()
    return [
        dict(zip(names, v, strict=True)) for v in itertools.product(*(values(d) for d in space.dimensions))
    ]


def key(space: Space, p: Point) -> str:
    return " ".join(space.flags(p))


# -- the search, replayed -------------------------------------------------------------------------------
@dataclass
class Replay:
    """One search by search.py's rules on one machine (a candidate at a time): a proposal already measured
    costs nothing (trials_to_best); a candidate within the spread of the best mean so far is measured up to
    PROMISING_REPETITIONS, and so is the incumbent; Optuna is told the candidate's mean."""

    draw: Draw
    rng: random.Random
    recorded: dict[str, list[float]] = field(default_factory=dict)  # per measured configuration
    runs: int = 0  # JVM runs, repetitions included

    def measure(self, k: str, repetitions: int) -> None:
        while len(self.recorded.setdefault(k, [])) < repetitions:
            self.runs += 1
            v = self.draw(k, self.rng)
            if v is None:
                return  # it fails: no more runs
            self.recorded[k].append(v)

    def means(self) -> dict[str, float]:
        return {k: statistics.mean(v) for k, v in self.recorded.items() if v}

    def candidate(self, k: str) -> float | None:
        """Measures a new configuration; its mean, None when it failed."""
        self.measure(k, 1)
        others = {j: m for j, m in self.means().items() if j != k}
        mine = self.means().get(k)
        spread = statistics.pstdev(others.values()) if len(others) > 1 else 0.0
        if mine is not None and (not others or mine >= max(others.values()) - spread):
            self.measure(k, PROMISING_REPETITIONS)
            self.measure(max(others, key=others.__getitem__) if others else k, PROMISING_REPETITIONS)
        return self.means().get(k)


def trials_to_best(
    algorithm: str, seed: int, space: Space, truth: dict[str, float | None], draw: Draw
) -> tuple[float, float]:
    """(candidates, JVM runs) until a candidate within WITHIN of the best true value was measured; inf when
    the search ends first (every point tried). Proposals already measured are handled by search.py's own
    functions: told as search.py tells them (`tell_duplicate`), and after RANDOM_AFTER_DUPLICATES in a row
    an unmeasured random point is queued (`unmeasured_point`). TPE's random start follows a budget of a
    quarter of the grid, as a user aiming at that target would set it."""
    good = (1 - WITHIN) * max(v for v in truth.values() if v is not None)
    budget = max(1, len(truth) // 4)
    study = optuna.create_study(direction="maximize", sampler=make_sampler(algorithm, 1, seed, budget))
    search = Replay(draw, random.Random(seed))
    first: dict[str, optuna.trial.FrozenTrial] = {}
    duplicates = 0
    while len(search.recorded) < len(truth):
        trial = study.ask()
        k = key(space, space.sample(trial))
        if k in search.recorded:
            tell_duplicate(study, trial, first[k])
            duplicates += 1
            if duplicates >= RANDOM_AFTER_DUPLICATES:
                point = unmeasured_point(space, set(search.recorded), seed=len(study.trials))
                if point is None:
                    break
                study.enqueue_trial(point)
                duplicates = 0
            continue
        duplicates = 0
        value = search.candidate(k)
        study.tell(trial, value, state=None if value is not None else optuna.trial.TrialState.FAIL)
        first[k] = study.trials[trial.number]
        if (truth[k] or 0) >= good:
            return len(search.recorded), search.runs
    return math.inf, math.inf


Found = dict[str, list[tuple[float, float]]]  # per sampler, per seed: (candidates, JVM runs)


def replay(space: Space, truth: dict[str, float | None], draw: Draw, seeds: int) -> Found:
    return {a: [trials_to_best(a, s, space, truth, draw) for s in range(seeds)] for a in SAMPLERS}


def quantile(xs: list[float], q: float) -> float:
    """Linear interpolation between order statistics (R's type 7); inf stays inf."""
    s = sorted(xs)
    i = q * (len(s) - 1)
    lo, hi = math.floor(i), math.ceil(i)
    return s[lo] if lo == hi or s[lo] == s[hi] else s[lo] + (s[hi] - s[lo]) * (i - lo)


@dataclass(frozen=True)
class Outcome:
    study: str
    grid_points: int
    near_best: int  # points whose true value is within WITHIN of the best
    found: Found

    def candidates(self, sampler: str) -> list[float]:
        return [c for c, _ in self.found[sampler]]

    def median(self, sampler: str) -> float:
        return quantile(self.candidates(sampler), 0.5)

    def passed(self) -> bool:
        return self.median("tpe") <= TARGET_FRACTION * self.grid_points


def fig(x: float, percent: bool = False) -> str:
    """A median or a ratio of candidates; "never" when most searches stopped before (inf)."""
    return "never" if math.isinf(x) else f"{x:.1%}" if percent else f"{x:.3g}"


def report(o: Outcome) -> None:
    n, k = o.grid_points, o.near_best
    # Random draws without replacement: the first of k marked among n comes at (n + 1) / (k + 1) on average.
    expected = (n + 1) / (k + 1)
    print(f"{o.study}: grid {n} points, {k} within {WITHIN:.0%} of the best; random expects {expected:.1f}")
    for sampler in SAMPLERS:
        xs = o.candidates(sampler)
        q1, med, q3 = (quantile(xs, q) for q in (0.25, 0.5, 0.75))
        stopped = sum(math.isinf(x) for x in xs)
        runs = quantile([r for _, r in o.found[sampler]], 0.5)
        share = fig(med / n, True)
        print(
            f"  {sampler:<7} median {fig(med):>5} candidates (IQR {fig(q1)}-{fig(q3)}), {share:>6} of the "
            f"grid; {fig(runs)} JVM runs; {len(xs)} seeds, {stopped} ended first"
        )
    target, tpe = TARGET_FRACTION * n, o.median("tpe")
    verdict = "ok" if o.passed() else f"MISSED by {fig(tpe - target)} candidates"
    if math.isinf(tpe):
        verdict = "MISSED: half the searches or more ended first"
    print(f"  TPE/grid {fig(tpe / n, True)}, target <= {TARGET_FRACTION:.0%} ({target:g}): {verdict}")
    print(f"  TPE/random {fig(tpe / o.median('random'))}")


# -- chunkgen on the real JVM ---------------------------------------------------------------------------
def chunkgen_rate(java: str, flags: list[str], radius: int, work: Path) -> float | None:
    """Chunks/s of one fresh chunkgen JVM; None when it failed (an OutOfMemoryError on a small heap)."""
    world = work / "world"
    shutil.rmtree(world, ignore_errors=True)
    argv = [java, *flags, "-cp", str(classes_dir(CHUNKGEN.rsplit(".", 1)[1])), CHUNKGEN]
    argv += ["--radius", str(radius), "--threads", "2", "--out", str(world)]
    try:
        done = subprocess.run(argv, capture_output=True, text=True, timeout=300, check=False)
    except subprocess.TimeoutExpired:
        return None
    m = RATE.search(done.stdout)
    return float(m.group(1)) if done.returncode == 0 and m else None


@dataclass(frozen=True)
class Recording:
    """Where and how the JVM runs are kept: build/bench/tune-grid.json, written after every run."""

    path: Path
    java: str
    radius: int
    work: Path

    def load(self, keys: list[str], reuse: bool) -> dict[str, Any]:
        """The recordings so far when `reuse` and they are of the same grid, radius and java; else none."""
        header = {"format_version": FORMAT_VERSION, "java": self.java, "radius": self.radius, "keys": keys}
        if reuse and self.path.is_file():
            old = json.loads(self.path.read_text())
            if all(old.get(f) == v for f, v in header.items()):
                return dict(old)
            print(f"{self.path}: recorded with another grid, --radius or --java: measuring anew")
        return {**header, "metadata": _env.metadata(), "noise": [], "runs": {k: [] for k in keys}}

    def rate(self, data: dict[str, Any], flags: list[str], into: list[float | None]) -> float | None:
        into.append(chunkgen_rate(self.java, flags, self.radius, self.work))
        self.path.write_text(json.dumps(data, indent=1))
        return into[-1]


def measure_cv(rec: Recording, data: dict[str, Any], runs: int) -> float:
    """The CV of chunks/s over fresh JVMs with the JVM's defaults (those recorded count)."""
    while len(data["noise"]) < runs:
        rec.rate(data, [], data["noise"])
    ok = [r for r in data["noise"] if r is not None]
    if len(ok) < 2:
        raise SystemExit(
            f"chunkgen failed in {len(data['noise']) - len(ok)} runs: check --java and `make java`"
        )
    cv = statistics.stdev(ok) / statistics.mean(ok)
    shown = ", ".join(f"{r:.1f}" for r in ok)
    print(f"noise: chunkgen radius {rec.radius}, JVM defaults, {len(ok)} runs: {shown} chunks/s, CV {cv:.1%}")
    return cv


def measure_grid(rec: Recording, data: dict[str, Any], reps: int) -> None:
    """Every point `reps` times (those recorded count), in rounds of the whole grid, a new order each."""
    order = random.Random(rec.radius)
    todo = [
        sorted((k for k in data["keys"] if len(data["runs"][k]) <= r), key=lambda _: order.random())
        for r in range(reps)
    ]
    todo_n, started = sum(map(len, todo)), time.monotonic()
    for i, k in enumerate(k for round_ in todo for k in round_):
        rate = rec.rate(data, k.split(), data["runs"][k])
        elapsed = time.monotonic() - started
        print(f"  [{i + 1}/{todo_n}, {elapsed:.0f} s] {k}: {rate or 'failed'}", flush=True)


def grid_truth(data: dict[str, Any]) -> tuple[dict[str, float | None], dict[str, list[float]]]:
    runs = {k: [r for r in v if r is not None] for k, v in data["runs"].items()}
    return {k: statistics.mean(v) if v else None for k, v in runs.items()}, runs


def show_grid(truth: dict[str, float | None], runs: dict[str, list[float]]) -> None:
    best = max(v for v in truth.values() if v is not None)
    for k, v in sorted(truth.items(), key=lambda kv: -(kv[1] or 0)):
        cv = statistics.stdev(runs[k]) / v if v and len(runs[k]) > 1 else math.nan
        shown = f"{v:7.1f} ({v / best:6.1%}, CV {cv:5.1%})" if v else "failed"
        print(f"  {shown}  {k}")


def grid_warnings(data: dict[str, Any], runs: dict[str, list[float]]) -> list[str]:
    """What makes the recorded grid's differences doubtful, with what to do."""
    out = []
    load, cpus = data["metadata"]["loadavg_start"][0], data["metadata"]["cpu_count"]
    if load > cpus:
        out.append(f"load average {load:.1f} on {cpus} CPUs at the start: run again on a quiet machine")
    rounds = [
        [v[r] for v in data["runs"].values() if len(v) > r and v[r]]
        for r in range(max(map(len, data["runs"].values())))
    ]
    means = [statistics.mean(r) for r in rounds if r]
    if len(means) > 1 and max(means) > 1.1 * min(means):
        shown = ", ".join(f"{m:.1f}" for m in means)
        out.append(f"round means {shown} chunks/s: the machine's speed drifted while the grid was measured")
    cvs = [statistics.stdev(v) / statistics.mean(v) for v in runs.values() if len(v) > 1]
    if cvs and statistics.median(cvs) > 0.10:
        out.append(
            f"a point's recordings vary by a median CV of {statistics.median(cvs):.0%}: the grid's best is "
            "uncertain; add --repetitions or run on a quiet machine"
        )
    return out


# -- main -----------------------------------------------------------------------------------------------
def synthetic(cv: float, seeds: int) -> Outcome:
    space = synthetic_space()
    truth: dict[str, float | None] = {key(space, p): synthetic_throughput(p) for p in grid(space)}
    sigma = math.sqrt(math.log(1 + cv**2))  # the log-normal whose CV is cv

    def draw(k: str, rng: random.Random) -> float:
        return (truth[k] or 0) * math.exp(rng.gauss(-(sigma**2) / 2, sigma))

    return outcome("synthetic", truth, replay(space, truth, draw, seeds))


def chunkgen(data: dict[str, Any], space: Space, seeds: int) -> Outcome:
    truth, runs = grid_truth(data)
    show_grid(truth, runs)
    for w in grid_warnings(data, runs):
        print(f"  warning: {w}")

    def draw(k: str, rng: random.Random) -> float | None:
        return rng.choice(runs[k]) if runs[k] else None

    return outcome("chunkgen", truth, replay(space, truth, draw, seeds))


def outcome(name: str, truth: dict[str, float | None], found: Found) -> Outcome:
    best = max(v for v in truth.values() if v is not None)
    near = sum(1 for v in truth.values() if v is not None and v >= (1 - WITHIN) * best)
    return Outcome(name, len(truth), near, found)


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument(
        "--quick", action="store_true", help="smoke version: small worlds, a 2x2x2 grid, few seeds"
    )
    p.add_argument("--reuse", action="store_true", help="reuse (and complete) the recorded chunkgen grid")
    p.add_argument("--cv", type=float, help="the synthetic noise's CV instead of the measured (0.05: 5 %%)")
    p.add_argument("--radius", type=int, help="chunkgen's world radius (default 10: 441 chunks; --quick 4)")
    p.add_argument("--noise-runs", type=int, help="chunkgen runs that measure the noise (default 6)")
    p.add_argument("--repetitions", type=int, help="recordings per grid point (default 3)")
    p.add_argument("--seeds", type=int, help="searches per sampler (default 30 synthetic, 100 on the grid)")
    p.add_argument("--java", default="java")
    a = p.parse_args()
    radius = a.radius or (4 if a.quick else 10)
    reps = a.repetitions or (2 if a.quick else 3)
    optuna.logging.set_verbosity(optuna.logging.WARNING)
    started = time.monotonic()
    print(f"load average at start: {' '.join(f'{x:.2f}' for x in os.getloadavg())} on {os.cpu_count()} CPUs")
    space = chunkgen_space(a.quick)
    path = CACHE / ("tune-grid-quick.json" if a.quick else "tune-grid.json")
    path.parent.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(prefix="jvmlab-bench-") as tmp:
        rec = Recording(path, a.java, radius, Path(tmp))
        data = rec.load([key(space, p) for p in grid(space)], a.reuse)
        chunkgen_rate(a.java, [], 2, rec.work)  # warm the page cache and the file system
        measured_cv = measure_cv(rec, data, a.noise_runs or (3 if a.quick else 6))
        print(f"chunkgen grid: {len(data['keys'])} points x {reps} recordings, radius {radius} -> {path}")
        measure_grid(rec, data, reps)
    cv = measured_cv if a.cv is None else a.cv
    jvm_s = time.monotonic() - started
    outcomes = [
        synthetic(cv, a.seeds or (5 if a.quick else 30)),
        chunkgen(data, space, a.seeds or (10 if a.quick else 100)),
    ]
    search_s = time.monotonic() - started - jvm_s
    print(f"\nsynthetic noise CV {cv:.1%}; JVM runs took {jvm_s:.0f} s, the searches {search_s:.0f} s")
    for o in outcomes:
        report(o)
    return 0 if a.quick or all(o.passed() for o in outcomes) else 1


if __name__ == "__main__":
    sys.exit(main())
