"""A trial's profile: async-profiler attached to the trial's JVM once it is ready (jcmd JVMTI.agent_load),
stopped before jvmlab stops the JVM; a JVM that ends by itself writes the profile as it exits. A profiler
that cannot attach (not on Linux, no library, a JVM that refuses attach) leaves the trial without a profile
and says why; it never fails the trial."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from jvmlab.errors import JvmLabError
from jvmlab.experiment.spec import ProfileSpec

PROFILE_FILE = "profile.collapsed"


@dataclass
class Profiling:
    pid: int
    output: Path
    note: str
    started: bool = False

    def stop(self) -> None:
        """Stops the profiler (it writes the file); nothing when it never started or the JVM is gone."""
        if not self.started:
            return
        from jvmlab.profile.record import agent_command

        try:
            agent_command(self.pid, f"stop,file={self.output},collapsed,ann")
        except JvmLabError as e:
            self.note += f"; stopping it failed ({e}): the JVM writes the profile when it exits"
        self.started = False


def start_profiling(spec: ProfileSpec, pid: int, run_dir: Path) -> Profiling:
    from jvmlab.profile.agent import option_string, sampling
    from jvmlab.profile.record import agent_command

    output = run_dir / PROFILE_FILE
    s = sampling(spec.event, spec.interval)
    profiling = Profiling(pid, output, f"async-profiler: {s.note}")
    try:
        agent_command(pid, option_string(s, output))
        profiling.started = True
    except JvmLabError as e:
        profiling.note = f"no profile: {e}"
    return profiling
