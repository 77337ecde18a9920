"""Where trials run. The Runner submits up to `capacity()` trials, takes each back as it ends and stores it;
an executor never writes the store. `LocalExecutor` (the default) runs them one at a time on this machine;
`ray_executor.RayExecutor` one per node of a Ray cluster.
"""

from __future__ import annotations

import time
from abc import ABC, abstractmethod
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass

from jvmlab.experiment.execution.trial import TrialSetup, run_trial
from jvmlab.experiment.spec import ExperimentSpec
from jvmlab.experiment.storage import TrialOutcome


@dataclass(frozen=True)
class TrialJob:
    """One trial to run: its store id, the spec, its setup as on this machine, its JDK's name (resolved
    again where it runs)."""

    trial_id: int
    spec: ExperimentSpec
    setup: TrialSetup
    jdk: str
    # The live workload metric, where it can be seen; may return a reason to stop the trial (a pruner).
    on_metric: Callable[[float, float], str | None] | None = None


@dataclass(frozen=True)
class Finished:
    """A submitted trial that ended: its outcome (paths on this machine), or why the node under it was
    lost (then `outcome` is None and the trial is to run again)."""

    job: TrialJob
    outcome: TrialOutcome | None
    node: str | None = None  # where it ran: None on this machine, else "node-id@ip"
    lost: str | None = None


class Executor(ABC):
    """Runs trials somewhere; `next_finished` hands them back in the order they end."""

    def open(self) -> None:  # noqa: B027 - most executors need no connection
        """Connects to where trials run; a second call does nothing. Raises JvmLabError if nothing can
        run a trial there."""

    def close(self) -> None:  # noqa: B027
        """Lets go of what `open` took; the executor can be opened again."""

    @abstractmethod
    def capacity(self) -> int:
        """How many trials can run at once now (at least 1; raises JvmLabError when none can)."""

    @abstractmethod
    def submit(self, job: TrialJob) -> str | None:
        """Starts the trial (or queues it); returns where it runs: None on this machine, else the node."""

    @abstractmethod
    def next_finished(self) -> Finished:
        """Waits for one submitted trial to end. Ctrl-C raises KeyboardInterrupt; `cancel` then ends the
        rest."""

    def cancel(self) -> None:  # noqa: B027
        """Ends every trial in flight and their JVMs (after Ctrl-C or SIGTERM)."""


class LocalExecutor(Executor):
    """One trial at a time on this machine, the live metric reported as it runs, `trial.cooldown_s`
    between two trials."""

    def __init__(self) -> None:
        self._queue: deque[TrialJob] = deque()
        self._last_end: float | None = None

    def capacity(self) -> int:
        return 1

    def submit(self, job: TrialJob) -> str | None:
        cooldown_s = job.spec.trial.cooldown_s
        if cooldown_s and self._last_end is not None:
            time.sleep(max(0.0, self._last_end + cooldown_s - time.monotonic()))
        self._queue.append(job)
        return None

    def next_finished(self) -> Finished:
        job = self._queue.popleft()
        try:  # Ctrl-C: run_trial has ended the process tree before it propagates
            outcome = run_trial(job.spec, job.setup, on_metric=job.on_metric)
        finally:
            self._last_end = time.monotonic()
        return Finished(job, outcome)
