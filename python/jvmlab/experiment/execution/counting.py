"""A trial's call counts ([telemetry] count): counting starts the moment the workload is ready (where the
profile starts) and stops before jvmlab stops the JVM; a JVM that ends by itself writes its counts as it
exits. JDK 25+ counts with JFR method timing, older JDKs with async-profiler (jvmlab.profile.counting).

The plan refuses what a JDK cannot count, before any trial runs: a pattern its backend cannot express, more
than one pattern on async-profiler, and counting beside a profile on async-profiler (one session per JVM).
Counting that fails in a trial leaves the trial without counts (and says why); it never fails the trial.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from jvmlab.errors import JvmLabError, UsageError
from jvmlab.experiment.spec import ExperimentSpec
from jvmlab.profile.counting import (
    ASYNC_PROFILER,
    Session,
    check_patterns,
    jfr_tool_for,
    parse_patterns,
    session,
)

WHERE = "telemetry.count"


def check_counting(spec: ExperimentSpec, jdks: Iterable[Any]) -> None:
    """UsageError (one line) when a JDK of the plan cannot count the spec's patterns as asked."""
    if not spec.telemetry.count:
        return
    patterns = parse_patterns(spec.telemetry.count, WHERE)
    for jdk in jdks:
        backend = check_patterns(patterns, jdk.major, WHERE)
        if backend == ASYNC_PROFILER and spec.telemetry.profile:
            raise UsageError(
                f"{WHERE} with telemetry.profile on {jdk.name} (JDK {jdk.major}): both need async-profiler, "
                "which runs one session per JVM; drop one of them, or narrow matrix.jdks to JDK 25+ (which "
                "counts with JFR method timing beside the profile)"
            )


@dataclass
class Counting:
    """A trial's counting session, or why there is none."""

    session: Session | None
    error: str | None = None

    @property
    def output(self) -> Path | None:
        return self.session.output if self.session is not None else None

    def stop(self, *, alive: bool) -> None:
        """Stops counting while the JVM runs; when it has exited, it wrote its counts as it did."""
        if self.session is None:
            return
        if not alive:
            self.session.ended_with_jvm()
            return
        try:
            self.session.stop()
        except JvmLabError as e:
            self.session.ended_with_jvm()
            self.error = f"stopping the count failed ({e})"

    def result(self) -> dict[str, Any]:
        """The trial's `counts`: backend, window and a count per pattern; or the reason there are none."""
        if self.session is None or (self.error is not None and not self._written()):
            return {"error": self.error or "no counting session"}
        try:
            return self.session.read().to_json()
        except JvmLabError as e:
            return {"backend": self.session.backend, "error": str(e)}

    def _written(self) -> bool:
        return self.session is not None and self.session.output.is_file()


def start_counting(
    patterns: Sequence[str], pid: int, jdk_major: int, jdk_home: Path, run_dir: Path
) -> Counting:
    """Starts counting `patterns` in the trial's JVM (ready now)."""
    try:
        s = session(patterns, jdk_major, run_dir, jfr_tool_for(jdk_home), where=WHERE)
        s.attach(pid)
    except JvmLabError as e:
        return Counting(None, f"no counts: {e}")
    return Counting(s)
