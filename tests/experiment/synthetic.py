"""Stored experiments with known figures, for the comparison, goals, gate and report tests: each trial's
workload metric, GC figures and RSS drawn from a seeded normal distribution around given means."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from jvmlab.experiment.spec import parse_spec
from jvmlab.experiment.storage import OK, LevelOutcome, Store, TrialOutcome

MIB = 1 << 20


@dataclass
class Variant:
    """Means of one variant's figures (None: not measured); each trial draws around them with `cv`."""

    jdk: str
    flag_set: str
    metric: float = 300.0
    young_per_min: float = 60.0
    pause_p99_ms: float = 12.0
    rss_mib: float = 500.0
    warmup_points: int = 20  # the metric series rises over these points, then stays flat
    readings: int = 120  # points of the metric series
    start: float = 0.5  # the series starts at this fraction of `metric`
    p99_ms: dict[str, float] = field(default_factory=dict)  # per load level


def spec_dict(name: str, variants: list[Variant], goals: dict[str, list[str]], levels: list[str]) -> dict:
    jdks = sorted({v.jdk for v in variants})
    flags = {v.flag_set: [] for v in variants}
    spec: dict[str, Any] = {
        "name": name,
        "workload": {
            "command": ["{java}", "-version"],
            "metric": {"name": "ops_per_s", "regex": r"(?P<value>[0-9.]+)", "unit": "ops/s"},
        },
        "matrix": {"jdks": jdks, "flags": flags},
        "goals": goals,
    }
    if levels:
        spec["load"] = {
            "url": "http://127.0.0.1:{port}/",
            "levels": [{"name": n, "rate": 100.0 * (i + 1), "duration_s": 30} for i, n in enumerate(levels)],
        }
        spec["workload"]["ready"] = {"port": 8080}
    return spec


def _draw(rng: np.random.Generator, mean: float, cv: float) -> float:
    return float(mean * (1 + cv * rng.standard_normal()))


def _series(rng: np.random.Generator, v: Variant, cv: float, points: int = 120) -> list[tuple[float, float]]:
    out = []
    for i in range(points):
        level = (
            v.metric * (v.start + (1 - v.start) * min(1.0, i / v.warmup_points))
            if v.warmup_points
            else v.metric
        )
        out.append((float(i + 1), _draw(rng, level, cv)))
    return out


def _rss_series(peak: int) -> list[tuple[float, float]]:
    return [(float(i), peak * min(1.0, (i + 1) / 10)) for i in range(60)]


def _outcome(
    rng: np.random.Generator, v: Variant, cv: float, levels: list[str], gc_log: Path | None
) -> TrialOutcome:
    series = _series(rng, v, cv, v.readings)
    gc = {
        "rates": {
            "young": {"count": 10, "mean_per_min": _draw(rng, v.young_per_min, cv), "peak_per_min": 70}
        },
        "pause_p99_ms": _draw(rng, v.pause_p99_ms, cv),
        "gc_count": 10,
    }
    rss = int(_draw(rng, v.rss_mib, cv) * MIB)
    process = {
        "rss_peak_bytes": rss,
        "swap_peak_bytes": 0,
        "major_faults": 0,
    }
    level_rows = [
        LevelOutcome(
            position=i,
            name=name,
            rate=100.0 * (i + 1),
            start_s=10.0 * i,
            end_s=10.0 * (i + 1),
            uptime_start_s=None,
            uptime_end_s=None,
            load={"throughput_rps": 100.0 * (i + 1), "latency": {"p99_ms": _draw(rng, v.p99_ms[name], cv)}},
            gc=gc,
            process=process,
        )
        for i, name in enumerate(levels)
    ]
    metric = {"mean": float(np.mean([y for _, y in series]))}
    return TrialOutcome(
        state=OK,
        elapsed_s=120.0,
        metric=metric,
        gc=gc,
        process=process,
        series={"metric": series, "rss_bytes": _rss_series(rss)},
        artifacts={"gc_log": str(gc_log)} if gc_log else None,
        levels=level_rows or None,
    )


def store_experiment(
    store: Store,
    variants: list[Variant],
    *,
    name: str = "synthetic",
    repetitions: int = 5,
    cv: float = 0.02,
    seed: int = 1,
    goals: dict[str, list[str]] | None = None,
    levels: list[str] | None = None,
    baseline: str | None = None,
    description: str = "",
    gc_log: Path | None = None,
) -> int:
    """Stores an experiment whose trials all succeeded with figures drawn around each variant's means
    (and `gc_log` as every trial's GC log); returns its id."""
    levels = levels or []
    data = spec_dict(name, variants, goals or {}, levels)
    if baseline:
        data["compare"] = {"baseline": baseline}
    data["description"] = description
    spec = parse_spec(data, source="synthetic")
    rows = []
    for r in range(repetitions):
        for j, v in enumerate(variants):
            position = r * len(variants) + j
            key = f"{v.jdk}/{v.flag_set}"
            rows.append(
                {
                    "position": position,
                    "key": f"{key}#{r + 1}",
                    "variant": key,
                    "jdk": v.jdk,
                    "flag_set": v.flag_set,
                    "flags": [],
                    "repetition": r + 1,
                }
            )
    exp_id = store.create_experiment(
        name=name,
        spec_hash=name,
        spec_text="",
        spec=spec.model_dump(mode="json"),
        environment={"cpu": "synthetic", "cpus": 2},
        run_dir=str(Path("/tmp") / name),
        trials=rows,
    )
    rng = np.random.default_rng(seed)
    by_key = {f"{v.jdk}/{v.flag_set}": v for v in variants}
    for t in store.trials(exp_id):
        store.start_trial(t.id, run_dir="/tmp", argv=["java"], jdk_info={})
        store.finish_trial(t.id, _outcome(rng, by_key[t.variant], cv, levels, gc_log))
    store.set_status(exp_id, "done")
    return exp_id
