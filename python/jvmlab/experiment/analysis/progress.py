"""Where a stored experiment stands while it runs: its trials by state, each finished trial's metric, and
the running trials' metric so far, read from their output as `jvmlab run` writes it (the store keeps a
trial's series only once it ends). Read by `jvmlab serve`'s live experiment page."""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from jvmlab.experiment.spec import Metric, stored_spec
from jvmlab.experiment.storage import RUNNING, ExperimentRow, Store, TrialRow
from jvmlab.experiment.storage.artifacts import STDOUT_FILE

TAIL_BYTES = 256 * 1024  # the end of a running trial's output: its latest readings
LIVE_POINTS = 120


@dataclass(frozen=True)
class LiveMetric:
    """A running trial's readings of the workload metric so far (the latest LIVE_POINTS of its output)."""

    trial: str
    name: str
    unit: str
    values: tuple[float, ...]


@dataclass(frozen=True)
class Progress:
    experiment: ExperimentRow
    trials: list[TrialRow]
    counts: dict[str, int]
    live: list[LiveMetric]

    @property
    def done(self) -> int:
        return sum(n for state, n in self.counts.items() if state not in ("pending", RUNNING))

    def summary(self) -> str:
        states = ", ".join(f"{n} {s}" for s, n in sorted(self.counts.items()))
        running = [t.key for t in self.trials if t.state == RUNNING]
        now = f" · running {', '.join(running)}" if running else ""
        return f"{self.experiment.status}: {self.done} of {len(self.trials)} trials done ({states}){now}"

    def to_json(self) -> dict[str, Any]:
        return {
            "format_version": 1,
            "id": self.experiment.id,
            "name": self.experiment.name,
            "status": self.experiment.status,
            "summary": self.summary(),
            "counts": self.counts,
            "done": self.done,
            "total": len(self.trials),
            "trials": [
                {
                    "position": t.position, "key": t.key, "variant": t.variant, "repetition": t.repetition,
                    "state": t.state, "elapsed_s": t.elapsed_s, "metric": (t.metric or {}).get("mean"),
                }
                for t in sorted(self.trials, key=lambda t: t.position)
            ],
            "live": [
                {"trial": m.trial, "metric": m.name, "unit": m.unit, "values": list(m.values)}
                for m in self.live
            ],
        }  # fmt: skip


def live_readings(path: Path, metric: Metric) -> tuple[float, ...]:
    """The metric's readings at the end of a trial's output so far (none when it is not there yet)."""
    pattern = re.compile(metric.regex)
    try:
        with path.open("rb") as f:
            size = f.seek(0, 2)
            f.seek(max(0, size - TAIL_BYTES))
            text = f.read().decode("utf-8", "replace")
    except OSError:
        return ()
    values = []
    for line in text.splitlines()[1 if size > TAIL_BYTES else 0 :]:  # the first may be cut
        if (m := pattern.search(line)) is not None:
            try:
                values.append(float(m.group("value").replace(",", "")))
            except ValueError:
                continue
    return tuple(values[-LIVE_POINTS:])


def experiment_progress(store: Store, exp: ExperimentRow) -> Progress:
    trials = store.trials(exp.id)
    spec = stored_spec(exp.spec, experiment=f"{exp.name} (#{exp.id})") if exp.spec else None
    metric = spec.workload.metric if spec is not None else None
    live = []
    for t in trials:
        if t.state == RUNNING and t.run_dir and metric is not None:
            values = live_readings(Path(t.run_dir) / STDOUT_FILE, metric)
            live.append(LiveMetric(t.key, metric.name, metric.unit, values))
    return Progress(exp, trials, dict(Counter(t.state for t in trials)), live)
